"""The command line: settings errors name the variable, in one line."""

from __future__ import annotations

import asyncio
import io
import json
import stat
import subprocess
import sys
from pathlib import Path

import aiohttp
import pytest

from bot.__main__ import main
from bot.models import Analysis
from tests.clones import _git
from tests.processes import free_port, run_bot, serve_env, wait_healthy
from tests.support import replay_day

pytestmark = pytest.mark.usefixtures("keep_test_logging")


@pytest.mark.usefixtures("environ_clean")
def test_serve_without_credentials_names_the_variable(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["serve"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0
    assert "GITHUB_APP_ID" in err


@pytest.mark.usefixtures("environ_clean")
def test_serve_without_webhook_secret_names_it(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], private_key_pem: str
) -> None:
    monkeypatch.setenv("GITHUB_APP_ID", "1")
    monkeypatch.setenv("GITHUB_PRIVATE_KEY", private_key_pem)
    assert main(["serve"]) == 2
    assert "GITHUB_WEBHOOK_SECRET" in capsys.readouterr().err


@pytest.mark.usefixtures("environ_clean")
def test_key_path_that_is_not_a_file_is_named(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("GITHUB_APP_ID", "1")
    monkeypatch.setenv("GITHUB_PRIVATE_KEY_PATH", "/nonexistent/key.pem")
    monkeypatch.setenv("GITHUB_WEBHOOK_SECRET", "s")
    assert main(["serve"]) == 2
    assert "GITHUB_PRIVATE_KEY_PATH" in capsys.readouterr().err


@pytest.mark.usefixtures("environ_clean")
def test_invalid_value_names_the_variable(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("PORT", "not-a-port")
    assert main(["serve"]) == 2
    assert "PORT" in capsys.readouterr().err


@pytest.mark.usefixtures("environ_clean")
def test_unsupported_database_is_named(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("DATABASE_URL", "mysql://localhost/db")
    assert main(["migrate"]) == 2
    assert "DATABASE_URL" in capsys.readouterr().err


@pytest.mark.usefixtures("environ_clean")
@pytest.mark.parametrize(
    ("variable", "value"),
    [
        ("GITHUB_API_URL", "ftp://example.com"),
        ("GITHUB_API_URL", "api.github.com"),
        ("LLM_BASE_URL", "notaurl"),
        ("LLM_BASE_URL", "http://"),
    ],
)
def test_a_url_setting_that_is_no_web_address_stops_the_app_naming_it(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], variable: str, value: str
) -> None:
    monkeypatch.setenv(variable, value)
    assert main(["migrate"]) == 2
    (line,) = capsys.readouterr().err.strip().splitlines()
    assert variable in line and "http:// or https:// URL" in line


def _run_classify(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    lines: list[str],
    *args: str,
) -> tuple[int, list[dict[str, object]]]:
    monkeypatch.setattr(sys, "stdin", io.StringIO("\n".join(lines) + "\n"))
    code = main(["classify", *args])
    out = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    return code, out


@pytest.mark.usefixtures("environ_clean")
def test_classify_reads_github_commits_and_simple_lines(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    day = replay_day("vllm-project/llm-compressor", "2026-06-22")
    lines = [json.dumps(c) for c in day["commits"][:3]]
    lines.append(
        json.dumps(
            {"sha": "abc", "message": "[Doc] Fix typo (#1)", "files": [{"filename": "docs/a.md"}]}
        )
    )
    code, out = _run_classify(monkeypatch, capsys, lines)
    assert code == 0
    assert [o["sha"] for o in out] == [c["sha"] for c in day["commits"][:3]] + ["abc"]
    for result in out:
        result.pop("sha")
        Analysis.model_validate(result)
    assert out[3]["change_types"] == ["docs"] and out[3]["importance"] == "low"


@pytest.mark.usefixtures("environ_clean")
def test_classify_answers_bad_lines_with_an_error_object(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    good = json.dumps({"sha": "abc", "message": "feat: add a flag"})
    deep = "[" * 100_000 + "]" * 100_000
    code, out = _run_classify(
        monkeypatch, capsys, ["not json", good, '{"sha": "x"}', "[1, 2]", "", good, deep]
    )
    assert code == 1
    assert [o.get("line") for o in out] == [1, None, 3, 4, None, 7]
    assert "invalid JSON" in str(out[0]["error"])
    assert out[1]["sha"] == out[4]["sha"] == "abc"
    assert "nested too deeply" in str(out[5]["error"])


@pytest.mark.usefixtures("environ_clean")
def test_classify_writes_in_the_chosen_language(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    line = json.dumps(
        {
            "sha": "b",
            "message": "feat!: drop the v1 API",
            "files": [{"filename": "pkg/api/v1.py", "deletions": 400}],
        }
    )
    _, (out,) = _run_classify(monkeypatch, capsys, [line], "--lang", "zh-CN")
    assert out["risks"][0]["description"] == "标题将此变更标记为破坏性变更（`feat!`）。"


@pytest.fixture
def clone(tmp_path: Path) -> Path:
    """A local clone whose history is real replay commits (messages, files and patches)."""
    path = tmp_path / "clone"
    path.mkdir()
    _git(path, "init", "-q", "-b", "main")
    _git(path, "remote", "add", "origin", "https://github.com/vllm-project/llm-compressor.git")
    day = replay_day("vllm-project/llm-compressor", "2026-06-22")
    for raw in day["commits"][:4]:
        for f in raw["files"]:
            target = path / f["filename"]
            target.parent.mkdir(parents=True, exist_ok=True)
            # The patch's added lines stand in for the file: enough for real stats and a diff.
            added = [
                line[1:] for line in (f.get("patch") or "").splitlines() if line.startswith("+")
            ]
            target.write_text("\n".join(added) + "\n", encoding="utf-8")
        _git(path, "add", "-A")
        _git(
            path,
            "commit",
            "-q",
            "--allow-empty",
            "-m",
            raw["commit"]["message"],
            when=raw["commit"]["committer"]["date"],
        )
    _git(
        path,
        "commit",
        "-q",
        "--allow-empty",
        "-m",
        "[Doc] Fix typo in README (#1)",
        when="2026-06-21T10:00:00Z",
    )
    return path


@pytest.mark.usefixtures("environ_clean")
def test_eval_measures_the_words_of_a_clones_history(
    clone: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["eval", "--git", str(clone)]) == 0
    out = capsys.readouterr().out
    # Every commit of the history, analysed with its patches, is one set named for the clone.
    assert "commits: 5" in out
    (row,) = [line for line in out.splitlines() if line.startswith("| clone | 5 |")]
    assert "n/a (no patch)" not in row
    assert main(["eval", "labels.jsonl", "--git", str(clone)]) == 2
    assert main(["eval", "--git", str(clone.parent / "nowhere")]) == 2


@pytest.mark.usefixtures("environ_clean")
def test_offline_digest_of_a_local_clone(clone: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["digest", "--git", str(clone)]) == 0
    out = capsys.readouterr()
    # The latest day with commits, rendered as the App would post it, with links to GitHub.
    assert "<!-- commit-digest:vllm-project/llm-compressor:2026-06-22:part-1 -->" in out.out
    assert "**4 commits**" in out.out
    assert "https://github.com/vllm-project/llm-compressor/commit/" in out.out
    assert "Remove all device movement from pipelines" in out.out
    assert "Analysed by `rules` (4)" in out.out
    assert "4 commits of 2026-06-22" in out.err


@pytest.mark.usefixtures("environ_clean")
def test_offline_digest_day_zone_language_and_file(
    clone: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "digest.md"
    assert (
        main(
            [
                "digest",
                "--git",
                str(clone),
                "--day",
                "2026-06-23",
                "--tz",
                "Asia/Shanghai",
                "--lang",
                "zh-CN",
                "--out",
                str(out),
            ]
        )
        == 0
    )
    text = out.read_text(encoding="utf-8")
    assert text.startswith("<!-- commit-digest:vllm-project/llm-compressor:2026-06-23:part-1 -->")
    assert "每日更新报告（2026-06-23）" in text and "本日共 4 个提交" in text
    assert main(["digest", "--git", str(clone), "--day", "2026-06-21"]) == 0
    assert "[Doc] Fix typo" in capsys.readouterr().out.replace("\\", "")


@pytest.mark.usefixtures("environ_clean")
@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--day", "22/06/2026"], "--day must be YYYY-MM-DD"),
        (["--tz", "Mars/Olympus"], "--tz must be an IANA time zone"),
        (["--branch", "nope"], "no branch 'nope'"),
        (["--day", "9999-12-31"], "--day must be between"),
        (["--day", "0001-01-01"], "--day must be between"),
        (["--repo", "not a repo"], "--repo must be OWNER/NAME"),
        (["--out", "/missing/dir/x.md"], "/missing/dir does not exist"),
        (["--out", "/"], "is a directory"),
    ],
)
def test_offline_digest_errors_are_one_line(
    clone: Path, capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    assert main(["digest", "--git", str(clone), *args]) == 2
    err = capsys.readouterr().err.strip()
    assert message in err and "\n" not in err


@pytest.mark.usefixtures("environ_clean")
def test_offline_digest_of_a_directory_that_is_not_a_clone(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["digest", "--git", str(tmp_path)]) == 2
    assert "not a git repository" in capsys.readouterr().err.lower()


@pytest.mark.usefixtures("environ_clean")
def test_a_missing_branch_is_named_with_the_branches_there(
    clone: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["digest", "--git", str(clone), "--branch", "nope"]) == 2
    err = capsys.readouterr().err.strip()
    assert "'nope'" in err and "branches: main" in err and "\n" not in err


@pytest.mark.usefixtures("environ_clean")
def test_an_empty_repository_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _git(tmp_path, "init", "-q", "-b", "main")
    assert main(["digest", "--git", str(tmp_path)]) == 2
    err = capsys.readouterr().err.strip()
    assert err == f"commit-digest: {tmp_path} has no commits yet"


@pytest.mark.usefixtures("environ_clean")
def test_a_latest_commit_dated_past_the_last_day_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _git(tmp_path, "init", "-q", "-b", "main")
    _git(tmp_path, "commit", "-q", "--allow-empty", "-m", "skewed", when="@253402300000 +1400")
    assert main(["digest", "--git", str(tmp_path)]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("commit-digest: the latest commit on main is dated 9999-12-31")
    assert "--day" in err and "\n" not in err


@pytest.mark.usefixtures("environ_clean")
def test_an_empty_commit_message_gets_a_placeholder_summary(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _git(tmp_path, "init", "-q", "-b", "main")
    _git(
        tmp_path,
        "commit",
        "-q",
        "--allow-empty",
        "--allow-empty-message",
        "-m",
        "",
        when="2026-06-21T10:00:00Z",
    )
    assert main(["digest", "--git", str(tmp_path)]) == 0
    assert "(no commit message)" in capsys.readouterr().out


@pytest.mark.usefixtures("environ_clean")
def test_repo_names_a_clone_without_a_github_origin(
    clone: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _git(clone, "remote", "remove", "origin")
    assert main(["digest", "--git", str(clone)]) == 0
    out = capsys.readouterr()
    assert "https://github.com/" not in out.out
    assert "--repo OWNER/NAME" in out.err
    assert main(["digest", "--git", str(clone), "--repo", "acme/widgets"]) == 0
    out = capsys.readouterr()
    assert "<!-- commit-digest:acme/widgets:2026-06-22:part-1 -->" in out.out
    assert "https://github.com/acme/widgets/commit/" in out.out
    assert "--repo" not in out.err


@pytest.mark.parametrize(
    ("command", "needed"),
    [
        ("serve", ["GITHUB_APP_ID", "GITHUB_PRIVATE_KEY", "GITHUB_WEBHOOK_SECRET", "DATABASE_URL"]),
        ("classify", ["stdin", '"sha"', '"message"', "get a commit", "LLM_BASE_URL"]),
        (
            "digest",
            [
                "default: the checked-out branch",
                "the file's `timezone`, else UTC",
                "default: stdout",
                "--repo",
                "--week",
                ".github/commit-digest.yml",
            ],
        ),
        ("publish", ["--day", "--week", "any digest day of the roll-up week", "exits 1"]),
    ],
)
def test_helps_describe_inputs_variables_and_defaults(
    capsys: pytest.CaptureFixture[str], command: str, needed: list[str]
) -> None:
    with pytest.raises(SystemExit):
        main([command, "--help"])
    text = " ".join(capsys.readouterr().out.split())
    for word in needed:
        assert word in text, word


@pytest.mark.parametrize(
    ("argv0", "usage"),
    [
        ("/srv/app/.venv/bin/commit-digest", "usage: commit-digest "),
        ("/srv/app/bot/__main__.py", "usage: python -m bot "),
    ],
    ids=["console-script", "module"],
)
def test_help_names_the_command_the_user_typed(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], argv0: str, usage: str
) -> None:
    monkeypatch.setattr(sys, "argv", [argv0, "--help"])
    with pytest.raises(SystemExit):
        main(["--help"])
    assert capsys.readouterr().out.startswith(usage)


@pytest.mark.parametrize(
    "period", [[], ["--day", "2026-07-13", "--week", "2026-07-13"]], ids=["neither", "both"]
)
def test_publish_takes_exactly_one_of_day_and_week(
    capsys: pytest.CaptureFixture[str], period: list[str]
) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["publish", "--repo", "o/r", *period])
    assert exited.value.code == 2
    err = capsys.readouterr().err
    assert "--day" in err and "--week" in err
    assert "required" in err if not period else "not allowed with argument" in err


@pytest.mark.parametrize(
    "key", ["notapem", "-----BEGIN RSA PRIVATE KEY-----\\nAAAA\\n-----END RSA PRIVATE KEY-----"]
)
def test_serve_with_a_key_that_is_not_a_pem_names_the_variable(tmp_path: Path, key: str) -> None:
    env = serve_env(
        database_url=f"sqlite:///{tmp_path / 'db.sqlite'}",
        private_key_pem=key,
        PORT=str(free_port()),
    )
    # A process, with a limit: a server that starts anyway would otherwise run on.
    done = subprocess.run(
        [sys.executable, "-m", "bot", "serve"],
        env=env,
        capture_output=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 2
    err = done.stderr.decode().strip()
    assert "GITHUB_PRIVATE_KEY" in err and "PEM" in err and "\n" not in err


@pytest.mark.parametrize(
    "url", ["sqlite:///{tmp}/missing/db.sqlite", "postgresql://u:secret@127.0.0.1:{port}/db"]
)
def test_serve_with_a_store_it_cannot_open_names_the_variable(
    tmp_path: Path, private_key_pem: str, url: str
) -> None:
    env = serve_env(
        database_url=url.format(tmp=tmp_path, port=free_port()),
        private_key_pem=private_key_pem,
        PORT=str(free_port()),
    )
    done = subprocess.run(
        [sys.executable, "-m", "bot", "serve"],
        env=env,
        capture_output=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 2
    err = done.stderr.decode().strip()
    # One line naming the setting, never its password; not a traceback.
    assert err.startswith("commit-digest: DATABASE_URL") and "\n" not in err, err
    assert "secret" not in err


@pytest.mark.usefixtures("environ_clean")
def test_a_key_file_that_is_not_a_pem_names_its_variable(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    (tmp_path / "key.pem").write_bytes(b"\xff\xfe not a key")
    monkeypatch.setenv("GITHUB_APP_ID", "1")
    monkeypatch.setenv("GITHUB_PRIVATE_KEY_PATH", str(tmp_path / "key.pem"))
    monkeypatch.setenv("GITHUB_WEBHOOK_SECRET", "s")
    assert main(["serve"]) == 2
    assert "GITHUB_PRIVATE_KEY_PATH is not a PEM private key" in capsys.readouterr().err


async def test_serve_says_once_where_it_listens_and_keeps_its_database_private(
    tmp_path: Path, private_key_pem: str
) -> None:
    database = tmp_path / "private.db"
    port = free_port()
    env = serve_env(
        database_url=f"sqlite:///{database}",
        private_key_pem=private_key_pem,
        PORT=str(port),
        LOG_LEVEL="INFO",
        LOG_FORMAT="json",
        WORKER_ENABLED="false",
        SCHEDULER_ENABLED="false",
    )
    proc = await run_bot("serve", env=env, stderr=asyncio.subprocess.PIPE)
    try:
        async with aiohttp.ClientSession() as session:
            await wait_healthy(session, port, proc)
    finally:
        proc.terminate()
        _, err = await proc.communicate()
    lines = [json.loads(line) for line in err.decode().splitlines() if line.startswith("{")]
    (listening,) = [line for line in lines if line["event"] == "serve_listening"]
    assert listening["address"] == f"http://127.0.0.1:{port}"
    assert listening["webhook"] == f"http://127.0.0.1:{port}/webhook"
    assert listening["store"] == f"sqlite {database}"
    assert listening["analyzer"] == "rules"
    assert stat.S_IMODE(database.stat().st_mode) == 0o600


def test_a_wrong_argument_is_one_line_that_names_the_help(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["digest", "--git", ".", "--lang", "fr"])
    assert exited.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "usage:" not in err
    assert "invalid choice: 'fr'" in err and "digest --help" in err
