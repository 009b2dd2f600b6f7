"""`register`: GitHub's App manifest flow from the local page, in a real browser, against the
fake GitHub, to a `.env` and a key that `serve` accepts; and what it refuses."""

from __future__ import annotations

import asyncio
import json
import os
import stat
import subprocess
import tempfile
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import aiohttp
import pytest
import yaml
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions
from selenium.webdriver.support.wait import WebDriverWait

from bot.__main__ import main
from bot.cli.credentials import CredentialFiles
from bot.cli.register import Registration
from bot.github.manifest import ConversionFailed, GitHubSite, RegisteredApp, convert
from bot.settings import MissingSetting, Settings
from tests.fakes.github import FakeGitHub
from tests.processes import run_bot
from tests.support import ROOT, FakeClock

pytestmark = pytest.mark.usefixtures("keep_test_logging")

WEBHOOK = "https://digest.example.org/webhook"


@pytest.mark.parametrize(
    ("url", "org", "page", "api"),
    [
        (
            "https://github.com",
            None,
            "https://github.com/settings/apps/new",
            "https://api.github.com",
        ),
        (
            "https://github.com/",
            "acme",
            "https://github.com/organizations/acme/settings/apps/new",
            "https://api.github.com",
        ),
        (
            "https://ghe.example.com",
            None,
            "https://ghe.example.com/settings/apps/new",
            "https://ghe.example.com/api/v3",
        ),
        (
            "https://ghe.example.com/",
            "acme",
            "https://ghe.example.com/organizations/acme/settings/apps/new",
            "https://ghe.example.com/api/v3",
        ),
    ],
)
def test_where_the_manifest_goes_and_where_the_code_is_exchanged(
    url: str, org: str | None, page: str, api: str
) -> None:
    site = GitHubSite.of(url)
    assert (site.new_app_url(org), site.api_url) == (page, api)


@pytest.mark.parametrize("url", ["github.com", "ftp://github.com", "https://", "https://x?y=1"])
def test_a_github_url_that_is_not_a_web_address_is_refused(
    url: str, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    argv = ["register", "--github-url", url, "--out-dir", str(tmp_path), "--no-browser"]
    assert main(argv) == 2
    assert "--github-url" in capsys.readouterr().err


async def new_app(github_url: str, manifest: dict[str, Any], *, state: str = "s") -> str:
    """What a browser does on GitHub's "new App" page: the code GitHub sends it back with."""
    async with (
        aiohttp.ClientSession() as session,
        session.post(
            f"{github_url}/settings/apps/new?state={state}",
            data={"manifest": json.dumps(manifest)},
            allow_redirects=False,
        ) as response,
    ):
        assert response.status == 302
        back = parse_qs(urlsplit(response.headers["Location"]).query)
    assert back["state"] == [state]
    (code,) = back["code"]
    return code


def app_yml(redirect_url: str = "http://127.0.0.1:1/callback") -> dict[str, Any]:
    data: dict[str, Any] = yaml.safe_load((ROOT / "app.yml").read_text())
    data["redirect_url"] = redirect_url
    return data


async def test_a_code_is_exchanged_once_for_the_app_and_its_credentials(
    github: FakeGitHub, github_url: str
) -> None:
    code = await new_app(github_url, app_yml())
    async with aiohttp.ClientSession() as session:
        app = await convert(session, github_url, code)
        (made,) = github.manifests.made
        assert (app.id, app.slug, app.html_url) == (made["id"], made["slug"], made["html_url"])
        assert (app.pem, app.webhook_secret) == (made["pem"], made["webhook_secret"])
        assert (app.client_id, app.client_secret) == (made["client_id"], made["client_secret"])
        assert app.install_url == f"{made['html_url']}/installations/new"
        # The secrets never show in the App's repr (a log line, a traceback).
        assert made["pem"] not in repr(app) and made["client_secret"] not in repr(app)
        # A used code, and one GitHub never gave, are 404s: said as such.
        for again in (code, "no-such-code"):
            with pytest.raises(ConversionFailed, match="used already or is over an hour old"):
                await convert(session, github_url, again)
    github.assert_clean()  # the conversion is a request GitHub's API description accepts


async def test_a_code_is_good_for_an_hour(
    github: FakeGitHub, github_url: str, clock: FakeClock
) -> None:
    code = await new_app(github_url, app_yml())
    clock.advance(minutes=61)
    async with aiohttp.ClientSession() as session:
        with pytest.raises(ConversionFailed):
            await convert(session, github_url, code)


def env_file(path: Path) -> dict[str, str]:
    lines = path.read_text().splitlines()
    return dict(line.split("=", 1) for line in lines if line and not line.startswith("#"))


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def read_stdout_line(proc: asyncio.subprocess.Process) -> Any:
    assert proc.stdout is not None
    return asyncio.wait_for(proc.stdout.readline(), 60)


async def test_register_in_a_browser_writes_a_private_env_and_key_that_serve_accepts(
    browser: Any,
    github: FakeGitHub,
    github_url: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The whole flow as a user runs it, against a GitHub Enterprise Server (the fake, serving
    its API under /api/v3): the command's page in Chromium, its button, GitHub's page, the
    way back with the code, the files, the installation address."""
    github.api_prefix = "/api/v3"
    args = [
        "register",
        "--github-url",
        github_url,
        "--org",
        "acme",
        "--webhook-url",
        WEBHOOK,
        "--out-dir",
        str(tmp_path),
        "--no-browser",
    ]
    proc = await run_bot(*args, env=dict(os.environ), stdout=asyncio.subprocess.PIPE)
    try:
        first = (await read_stdout_line(proc)).decode()
        page = first.split()[1]
        local, _, query = page.partition("/?")
        assert local.startswith("http://127.0.0.1:") and "the organisation acme" in first
        assert len(parse_qs(query)["token"][0]) >= 32
        await asyncio.to_thread(browser.get, page)
        await asyncio.to_thread(browser.find_element(By.ID, "create").click)
        await asyncio.to_thread(
            WebDriverWait(browser, 30).until,
            expected_conditions.presence_of_element_located((By.ID, "install")),
        )
        out, _ = await asyncio.wait_for(proc.communicate(), 30)
    finally:
        if proc.returncode is None:
            proc.kill()
            await proc.wait()
    assert proc.returncode == 0
    (made,) = github.manifests.made
    install = f"{made['html_url']}/installations/new"
    assert browser.find_element(By.ID, "install").get_attribute("href") == install
    assert f"Install it on your repositories: {install}" in out.decode()
    # GitHub got app.yml for the organisation, with the webhook and the way back put in.
    ((page, manifest),) = github.manifests.received
    assert page == "/organizations/acme/settings/apps/new"
    expected = app_yml(f"{local}/callback")
    expected["hook_attributes"]["url"] = WEBHOOK
    assert manifest == expected
    key, env = tmp_path / "github-app.pem", tmp_path / ".env"
    assert key.read_text() == made["pem"]
    assert env_file(env) == {
        "GITHUB_APP_ID": str(made["id"]),
        "GITHUB_WEBHOOK_SECRET": made["webhook_secret"],
        "GITHUB_PRIVATE_KEY_PATH": str(key.resolve()),
        "GITHUB_CLIENT_ID": made["client_id"],
        "GITHUB_CLIENT_SECRET": made["client_secret"],
        "GITHUB_API_URL": f"{github_url}/api/v3",
    }
    assert (mode(env), mode(key)) == (0o600, 0o600)
    # `serve` takes the file as it is.
    for name in list(os.environ):
        if name.startswith("GITHUB_"):
            monkeypatch.delenv(name)
    for name, value in env_file(env).items():
        monkeypatch.setenv(name, value)
    settings = Settings()
    settings.require_github()
    assert settings.github_client_secret is not None
    assert settings.github_client_secret.get_secret_value() == made["client_secret"]
    github.assert_clean()


def test_existing_files_are_not_overwritten_without_force(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / ".env").write_text("GITHUB_APP_ID=1\n")
    argv = ["register", "--out-dir", str(tmp_path), "--no-browser"]
    assert main(argv) == 2
    assert f"{tmp_path / '.env'} exists" in capsys.readouterr().err
    assert (tmp_path / ".env").read_text() == "GITHUB_APP_ID=1\n"
    assert main(["register", "--out-dir", str(tmp_path / "missing"), "--no-browser"]) == 2
    assert "not an existing directory" in capsys.readouterr().err


def registered(app_id: int = 7) -> RegisteredApp:
    return RegisteredApp(
        id=app_id,
        slug="commit-digest",
        name="Commit Digest",
        html_url="https://github.com/apps/commit-digest",
        client_id="Iv1.abc",
        pem="-----BEGIN RSA PRIVATE KEY-----\nMII\n-----END RSA PRIVATE KEY-----\n",
        webhook_secret="w",
        client_secret="c",
    )


def test_force_overwrites_and_makes_the_files_private(tmp_path: Path) -> None:
    for name in (".env", "github-app.pem"):
        (tmp_path / name).write_text("old")
        (tmp_path / name).chmod(0o644)
    files = CredentialFiles(tmp_path, force=True)
    files.check()
    written = files.write(registered(), GitHubSite.of("https://github.com"))
    assert written.key.read_text().startswith("-----BEGIN RSA PRIVATE KEY-----")
    assert "GITHUB_API_URL" not in env_file(written.env)  # github.com is the default
    assert (mode(written.env), mode(written.key)) == (0o600, 0o600)


def test_a_file_that_appeared_meanwhile_is_kept_and_the_new_one_goes_beside(
    tmp_path: Path,
) -> None:
    files = CredentialFiles(tmp_path)
    files.check()
    (tmp_path / "github-app.pem").write_text("someone else's key")
    written = files.write(registered(42), GitHubSite.of("https://github.com"))
    assert (tmp_path / "github-app.pem").read_text() == "someone else's key"
    assert written.key == tmp_path / "github-app.42.pem"
    assert env_file(written.env)["GITHUB_PRIVATE_KEY_PATH"] == str(written.key.resolve())


def test_force_does_not_write_through_a_symbolic_link(tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.write_text("not a key")
    out = tmp_path / "out"
    out.mkdir()
    (out / "github-app.pem").symlink_to(elsewhere)
    written = CredentialFiles(out, force=True).write(
        registered(5), GitHubSite.of("https://github.com")
    )
    assert elsewhere.read_text() == "not a key"
    assert written.key == out / "github-app.5.pem" and mode(written.key) == 0o600


def test_the_env_file_is_read_by_a_shell_as_written(tmp_path: Path) -> None:
    folder = tmp_path / "my app"  # a space, as home folders sometimes have
    folder.mkdir()
    files = CredentialFiles(folder)
    written = files.write(registered(9), GitHubSite.of("https://ghe.example.com"))
    shown = subprocess.run(
        [
            "sh",
            "-c",
            '. ./.env && printf "%s|%s|%s" "$GITHUB_PRIVATE_KEY_PATH" '
            '"$GITHUB_APP_ID" "$GITHUB_API_URL"',
        ],
        cwd=folder,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert shown == f"{written.key.resolve()}|9|https://ghe.example.com/api/v3"


@pytest.fixture
async def local_page(
    aiohttp_client: Callable[..., Any], github: FakeGitHub, github_url: str, tmp_path: Path
) -> AsyncIterator[tuple[Any, Registration]]:
    """The command's two routes in-process, sending the manifest to the fake GitHub (as a
    GitHub Enterprise Server: its API under /api/v3)."""
    github.api_prefix = "/api/v3"
    async with aiohttp.ClientSession() as session:
        registration = Registration(
            data=app_yml(),
            site=GitHubSite.of(github_url),
            org=None,
            files=CredentialFiles(tmp_path),
            session=session,
        )
        yield await aiohttp_client(registration.application()), registration


async def the_state(client: Any, registration: Registration) -> str:
    """Opens the page as the printed address does (setting its cookie): the form's state."""
    response = await client.get("/", params={"token": registration.token})
    assert response.status == 200
    page = await response.text()
    action = page.split('action="')[1].split('"')[0].replace("&amp;", "&")
    (state,) = parse_qs(urlsplit(action).query)["state"]
    return state


async def test_an_answer_for_another_registration_is_refused(
    local_page: tuple[Any, Registration], github: FakeGitHub, tmp_path: Path
) -> None:
    client, registration = local_page
    await the_state(client, registration)
    response = await client.get("/callback", params={"code": "abc", "state": "not-ours"})
    assert response.status == 400
    assert "state differs" in await response.text()
    assert github.calls == [] and not registration.done.done()
    assert not (tmp_path / ".env").exists()


async def test_a_code_github_refuses_leaves_the_page_waiting(
    local_page: tuple[Any, Registration], github: FakeGitHub, tmp_path: Path
) -> None:
    client, registration = local_page
    state = await the_state(client, registration)
    response = await client.get("/callback", params={"code": "never-given", "state": state})
    assert response.status == 502
    text = await response.text()
    assert "used already or is over an hour old" in text
    # Reloading sends the same spent code: only running the command again helps.
    assert "Reload" not in text and "Run `commit-digest register` again" in text
    assert not registration.done.done() and not (tmp_path / ".env").exists()


@pytest.mark.parametrize("token", [None, "", "wrong"])
async def test_the_page_and_its_state_go_only_to_the_printed_address(
    local_page: tuple[Any, Registration], token: str | None
) -> None:
    client, registration = local_page
    response = await client.get("/", params={} if token is None else {"token": token})
    assert response.status == 403
    text = await response.text()
    assert registration._state not in text and "state=" not in text
    assert "Set-Cookie" not in response.headers


async def test_a_request_for_another_host_is_refused(
    local_page: tuple[Any, Registration], github: FakeGitHub, github_url: str, tmp_path: Path
) -> None:
    """DNS rebinding: a page of evil.example whose name now points at 127.0.0.1."""
    client, registration = local_page
    state = await the_state(client, registration)
    port = client.server.port
    for host in ("evil.example", f"evil.example:{port}", "127.0.0.1:1", f"127.0.0.2:{port}"):
        page = await client.get("/", params={"token": registration.token}, headers={"Host": host})
        assert page.status == 403 and state not in await page.text()
        code = await new_app(github_url, app_yml(), state=state)
        back = await client.get(
            "/callback", params={"code": code, "state": state}, headers={"Host": host}
        )
        assert back.status == 403
    assert not registration.done.done() and not (tmp_path / ".env").exists()
    assert github.calls_to("POST", "conversions") == []
    ok = await client.get(
        "/", params={"token": registration.token}, headers={"Host": f"localhost:{port}"}
    )
    assert ok.status == 200


async def test_a_way_back_without_the_pages_cookie_is_refused(
    local_page: tuple[Any, Registration], github: FakeGitHub, github_url: str, tmp_path: Path
) -> None:
    """Another program that learnt the state still lacks the browser's cookie."""
    client, registration = local_page
    state = await the_state(client, registration)
    code = await new_app(github_url, app_yml(), state=state)
    client.session.cookie_jar.clear()
    response = await client.get("/callback", params={"code": code, "state": state})
    assert response.status == 403
    assert "cookie" in await response.text()
    assert not registration.done.done()
    assert not (tmp_path / ".env").exists() and not (tmp_path / "github-app.pem").exists()
    # The code was never exchanged: it still works for the browser that holds the cookie.
    async with aiohttp.ClientSession() as session:
        await convert(session, f"{github_url}/api/v3", code)


def test_an_out_dir_that_cannot_be_written_is_refused_before_github(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(MissingSetting, match="cannot write there"):
        CredentialFiles(Path("/proc")).check()  # a folder no one, root included, writes to
    assert main(["register", "--out-dir", "/proc", "--no-browser"]) == 2
    assert "--out-dir /proc: cannot write there" in capsys.readouterr().err


def test_a_name_beside_that_is_taken_too_gives_another(tmp_path: Path) -> None:
    files = CredentialFiles(tmp_path)
    files.check()
    (tmp_path / "github-app.pem").write_text("someone else's key")
    (tmp_path / "github-app.42.pem").write_text("another key")
    written = files.write(registered(42), GitHubSite.of("https://github.com"))
    assert written.key == tmp_path / "github-app.42-2.pem"
    assert written.key.read_text() == registered().pem and mode(written.key) == 0o600
    assert (tmp_path / "github-app.42.pem").read_text() == "another key"


async def test_a_failed_write_after_the_exchange_keeps_the_key_in_a_private_file(
    local_page: tuple[Any, Registration],
    github: FakeGitHub,
    github_url: str,
    tmp_path: Path,
    tmp_path_factory: pytest.TempPathFactory,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    spare = tmp_path_factory.mktemp("tmpdir")
    monkeypatch.setattr(tempfile, "tempdir", str(spare))
    client, registration = local_page
    state = await the_state(client, registration)
    code = await new_app(github_url, app_yml(), state=state)
    os.rmdir(tmp_path)  # the out dir went away after the check: the write fails
    response = await client.get("/callback", params={"code": code, "state": state})
    assert response.status == 500
    _app, written, failure = registration.done.result()
    assert failure is not None and str(written.key) in failure and str(written.env) in failure
    assert str(written.key) in await response.text()
    assert written.key.parent == spare and written.env.parent == spare
    (made,) = github.manifests.made
    assert written.key.read_text() == made["pem"]
    assert env_file(written.env)["GITHUB_PRIVATE_KEY_PATH"] == str(written.key)
    assert (mode(written.key), mode(written.env)) == (0o600, 0o600)


async def register_without_browser(
    github_url: str, out: Path, env: dict[str, str], meanwhile: Callable[[], Any]
) -> tuple[int | None, str, str, int]:
    """The command itself, its page fetched as a browser would (keeping its cookie), GitHub's
    answer taken, `meanwhile()` run, then the way back: its exit status, stdout, stderr and
    the way back's status."""
    args = ["register", "--github-url", github_url, "--out-dir", str(out), "--no-browser"]
    proc = await run_bot(
        *args, env=env, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE
    )
    try:
        first = await read_stdout_line(proc)
        page = first.decode().split()[1]
        local = page.partition("/?")[0]
        jar = aiohttp.CookieJar(unsafe=True)  # cookies for an IP address, as a browser keeps
        async with aiohttp.ClientSession(cookie_jar=jar) as session:
            async with session.get(page) as response:
                text = await response.text()
            action = text.split('action="')[1].split('"')[0].replace("&amp;", "&")
            (state,) = parse_qs(urlsplit(action).query)["state"]
            code = await new_app(github_url, app_yml(), state=state)
            await asyncio.to_thread(meanwhile)
            async with session.get(
                f"{local}/callback", params={"code": code, "state": state}
            ) as response:
                back = response.status
        out_bytes, err = await asyncio.wait_for(proc.communicate(), 30)
    finally:
        if proc.returncode is None:
            proc.kill()
            await proc.wait()
    return proc.returncode, (first + out_bytes).decode(), err.decode(), back


async def test_the_command_says_where_the_key_went_and_exits_1_when_it_cannot_write(
    github: FakeGitHub, github_url: str, tmp_path: Path
) -> None:
    """Its out dir goes away after the check: the key goes to the temporary folder."""
    github.api_prefix = "/api/v3"
    out, spare = tmp_path / "out", tmp_path / "tmp"
    await asyncio.to_thread(out.mkdir)
    await asyncio.to_thread(spare.mkdir)
    env = {**os.environ, "TMPDIR": str(spare)}
    status, _, err, back = await register_without_browser(github_url, out, env, out.rmdir)
    assert (status, back) == (1, 500)
    (made,) = github.manifests.made
    (key,) = await asyncio.to_thread(lambda: list(spare.glob("*.pem")))
    assert "saved to " in err and str(key) in err
    assert await asyncio.to_thread(key.read_text) == made["pem"]


async def test_an_env_that_appeared_meanwhile_is_kept_and_the_command_says_what_to_load(
    github: FakeGitHub, github_url: str, tmp_path: Path
) -> None:
    github.api_prefix = "/api/v3"
    theirs = tmp_path / ".env"
    status, out, _, back = await register_without_browser(
        github_url, tmp_path, dict(os.environ), lambda: theirs.write_text("GITHUB_APP_ID=1\n")
    )
    assert (status, back) == (0, 200)
    (made,) = github.manifests.made
    new = tmp_path / f".env.{made['id']}"
    assert await asyncio.to_thread(theirs.read_text) == "GITHUB_APP_ID=1\n"
    assert f"The existing {theirs} was kept" in out
    assert f"set -a && . {new} && set +a && commit-digest serve" in out


@pytest.mark.parametrize(
    ("option", "url", "says"),
    [
        ("--github-url", "http://ghe.example.com", "not https"),
        ("--webhook-url", "http://digest.example.org/webhook", "not https"),
        ("--webhook-url", "notaurl", "not an absolute web address"),
        ("--webhook-url", "https:///webhook", "not an absolute web address"),
        ("--webhook-url", "ftp://digest.example.org/webhook", "not an absolute web address"),
    ],
)
def test_an_address_secrets_would_cross_in_the_clear_is_refused(
    option: str, url: str, says: str, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    argv = ["register", option, url, "--out-dir", str(tmp_path), "--no-browser"]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert f"{option} " in err and says in err and len(err.splitlines()) == 1
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("port", ["99999", "-1", "65536", "http"])
def test_a_port_out_of_range_is_an_argument_error(
    port: str, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["register", "--port", port, "--out-dir", str(tmp_path), "--no-browser"])
    assert exited.value.code == 2
    err = capsys.readouterr().err
    assert "argument --port" in err and "Traceback" not in err


async def test_only_a_github_that_was_not_reached_leaves_the_code_good() -> None:
    async with aiohttp.ClientSession() as session:
        with pytest.raises(ConversionFailed, match="cannot reach") as failed:
            await convert(session, "http://127.0.0.1:1", "abc")  # nothing listens on port 1
    assert failed.value.code_holds
