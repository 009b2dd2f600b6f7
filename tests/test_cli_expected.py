"""The command line as people expect it: --version, `-` for stdout, dates named, git's errors in
a line of our own, every missing variable at once, the database path and why, a progress bar
only on a terminal, shell completion from the parser."""

from __future__ import annotations

import io
import shutil
import subprocess
from importlib import metadata
from pathlib import Path

import pytest

from bot.__main__ import main
from tests.clones import _git

pytestmark = pytest.mark.usefixtures("environ_clean", "keep_test_logging")


@pytest.fixture
def clone(tmp_path: Path) -> Path:
    """A clone of acme/widgets with three commits on 2026-06-22 (UTC)."""
    root = tmp_path / "widgets"
    root.mkdir()
    _git(root, "init", "-q", "-b", "main")
    _git(root, "remote", "add", "origin", "https://github.com/acme/widgets.git")
    for n in range(3):
        (root / f"mod{n}.py").write_text(f"def f{n}():\n    return {n}\n", encoding="utf-8")
        _git(root, "add", "-A")
        _git(root, "commit", "-q", "-m", f"Add f{n} to the widgets")
    return root


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_version_is_the_installed_distributions(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as done:
        main(["--version"])
    assert done.value.code == 0
    assert capsys.readouterr().out.split()[-1] == metadata.version("commit-digest")


def test_out_dash_is_stdout_not_a_file_named_dash(
    clone: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsysbinary: pytest.CaptureFixture[bytes],
) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(["digest", "--git", str(clone), "--day", "2026-06-22", "--out", "-"]) == 0
    out = capsysbinary.readouterr().out.decode("utf-8")
    assert "acme/widgets" in out
    assert "Add f2 to the widgets" in out
    assert not (tmp_path / "-").exists()


@pytest.mark.parametrize(
    ("value", "said"),
    [
        ("2026-02-30", "--day 2026-02-30 is not a date: February 2026 has 28 days"),
        ("2024-02-30", "--day 2024-02-30 is not a date: February 2024 has 29 days"),
        ("2026-04-31", "--day 2026-04-31 is not a date: April 2026 has 30 days"),
        ("2026-13-01", "--day 2026-13-01 is not a date: there is no month 13"),
        ("2026-00-10", "--day 2026-00-10 is not a date: there is no month 0"),
        ("22/06/2026", "--day must be YYYY-MM-DD, not '22/06/2026'"),
    ],
)
def test_a_day_that_does_not_exist_is_named_as_such(
    clone: Path, capsys: pytest.CaptureFixture[str], value: str, said: str
) -> None:
    assert main(["digest", "--git", str(clone), "--day", value]) == 2
    assert capsys.readouterr().err.strip() == f"commit-digest: {said}"


def test_a_leap_day_is_a_day(clone: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["digest", "--git", str(clone), "--day", "2024-02-29"]) == 0
    assert "0 commits of 2024-02-29" in capsys.readouterr().err


def _one_line_without_gits_words(err: str) -> str:
    line = err.strip()
    assert line.count("\n") == 0, err
    assert "fatal:" not in line
    assert "cannot change to" not in line
    return line


@pytest.mark.parametrize("command", ["digest", "eval", "classify"])
def test_a_missing_clone_is_one_line_of_our_own(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], command: str
) -> None:
    missing = tmp_path / "nowhere"
    assert main([command, "--git", str(missing)]) == 2
    line = _one_line_without_gits_words(capsys.readouterr().err)
    assert f"no clone at {missing}: there is no such folder" in line


@pytest.mark.parametrize("command", ["digest", "eval", "classify"])
def test_a_folder_that_is_not_a_repository_is_named(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], command: str
) -> None:
    plain = tmp_path / "plain"
    plain.mkdir()
    assert main([command, "--git", str(plain)]) == 2
    line = _one_line_without_gits_words(capsys.readouterr().err)
    assert f"{plain} is not a git repository" in line


def test_a_file_given_as_the_clone_is_named(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    file = tmp_path / "notes.txt"
    file.write_text("x", encoding="utf-8")
    assert main(["digest", "--git", str(file)]) == 2
    line = _one_line_without_gits_words(capsys.readouterr().err)
    assert f"{file} is a file, not a git clone" in line


def test_serve_names_every_missing_variable_at_once(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["serve"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0
    for variable in ("GITHUB_APP_ID", "GITHUB_PRIVATE_KEY", "GITHUB_WEBHOOK_SECRET"):
        assert variable in err


def test_serve_names_a_bad_key_and_the_missing_secret_together(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("GITHUB_APP_ID", "1")
    monkeypatch.setenv("GITHUB_PRIVATE_KEY", "not a key")
    assert main(["serve"]) == 2
    err = capsys.readouterr().err
    assert "GITHUB_PRIVATE_KEY is not a PEM private key" in err
    assert "GITHUB_WEBHOOK_SECRET is not set" in err
    assert "GITHUB_APP_ID" not in err


def _migrate_error(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], url: str
) -> str:
    monkeypatch.setenv("DATABASE_URL", url)
    assert main(["migrate"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0
    return err


def test_a_database_in_a_missing_folder_names_the_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    err = _migrate_error(monkeypatch, capsys, f"sqlite:///{tmp_path}/gone/digest.db")
    assert f"the folder {tmp_path}/gone does not exist" in err
    assert "unable to open database file" not in err


def test_a_database_path_that_is_a_directory_says_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    err = _migrate_error(monkeypatch, capsys, f"sqlite:///{tmp_path}")
    assert f"{tmp_path} is a directory, not a database file" in err


@pytest.mark.skipif(not Path("/proc/self").is_dir(), reason="needs Linux's /proc")
def test_a_database_under_proc_says_no_file_can_be_made_there(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    err = _migrate_error(monkeypatch, capsys, "sqlite:////proc/digest.db")
    assert "/proc/digest.db cannot be created: the folder /proc does not accept new files" in err


def test_a_working_database_path_still_migrates(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{tmp_path}/digest.db")
    assert main(["migrate"]) == 0
    assert "schema is up to date" in capsys.readouterr().out


def test_eval_git_draws_a_bar_on_a_terminal(
    clone: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    terminal = _Terminal()
    monkeypatch.setattr("sys.stderr", terminal)
    assert main(["eval", "--git", str(clone)]) == 0
    drawn = terminal.getvalue()
    assert "analysing" in drawn
    assert "0/3" in drawn  # the total is known from the start
    assert "commits: 3" in capsys.readouterr().out


def test_eval_git_takes_the_range_and_dates_it_is_given(
    clone: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["eval", "--git", str(clone), "--range", "HEAD~1..HEAD"]) == 0
    assert "commits: 1\n" in capsys.readouterr().out
    # The three commits are dated 2026-06-22: a bound after that day leaves none.
    assert main(["eval", "--git", str(clone), "--since", "2026-06-24 00:00 +0000"]) == 0
    assert "commits: 0\n" in capsys.readouterr().out
    assert main(["eval", "--git", str(clone), "--until", "2026-06-23 00:00 +0000"]) == 0
    assert "commits: 3\n" in capsys.readouterr().out


def test_eval_git_draws_nothing_when_stderr_is_not_a_terminal(
    clone: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["eval", "--git", str(clone)]) == 0
    captured = capsys.readouterr()
    assert "commits: 3" in captured.out
    assert "analysing" not in captured.err
    assert "\r" not in captured.err


def test_digest_week_draws_a_bar_on_a_terminal(
    clone: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    terminal = _Terminal()
    monkeypatch.setattr("sys.stderr", terminal)
    assert main(["digest", "--git", str(clone), "--week", "2026-06-22"]) == 0
    assert "analysing" in terminal.getvalue()
    assert "reading" in terminal.getvalue()


def test_migrate_help_says_what_it_does(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["migrate", "--help"])
    out = capsys.readouterr().out
    assert "Creates the database schema of DATABASE_URL" in out


def test_zsh_completion_is_generated_for_the_console_script(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["completion", "zsh"]) == 0
    script = capsys.readouterr().out
    assert script.startswith("#compdef commit-digest")
    for option in ("--week", "--out", "--corrections", "--version"):
        assert option in script


@pytest.mark.skipif(shutil.which("bash") is None, reason="needs bash")
@pytest.mark.parametrize(
    ("words", "expected"),
    [
        (["dig"], {"digest"}),
        (["digest", "--we"], {"--week"}),
        (["completion", ""], {"bash", "zsh"}),
        (["eval", "--show-"], {"--show-disagreements", "--show-unverifiable", "--show-words"}),
    ],
)
def test_bash_completion_completes_in_bash(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], words: list[str], expected: set[str]
) -> None:
    assert main(["completion", "bash"]) == 0
    script = tmp_path / "commit-digest.bash"
    script.write_text(capsys.readouterr().out, encoding="utf-8")
    line = " ".join(["commit-digest", *words])
    probe = (
        f"source {script}; COMP_WORDS=(commit-digest {' '.join(repr(w) for w in words)}); "
        f"COMP_CWORD={len(words)}; COMP_LINE={line!r}; COMP_POINT={len(line)}; "
        "_shtab_commit_digest; printf '%s\\n' \"${COMPREPLY[@]}\""
    )
    done = subprocess.run(["bash", "-c", probe], capture_output=True, text=True, check=True)
    assert set(done.stdout.split()) == expected


def test_the_offline_digests_footer_names_the_config_keys_it_ignored(
    clone: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (clone / ".github").mkdir()
    (clone / ".github/commit-digest.yml").write_text(
        "languagee: zh-CN\ncutoff: '09:00'\n", encoding="utf-8"
    )
    _git(clone, "add", "-A")
    _git(clone, "commit", "-q", "-m", "Configure the digest")
    assert main(["digest", "--git", str(clone), "--day", "2026-06-22"]) == 0
    out = capsys.readouterr().out
    assert "has unknown keys, ignored (its other keys apply)" in out
    assert "`languagee` (did you mean `language`?)" in out
    assert "cutoff from `.github/commit-digest.yml`" in out  # the valid key beside it applies
