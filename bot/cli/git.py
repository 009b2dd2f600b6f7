"""git run to its end in a local clone, its output read as text."""

from __future__ import annotations

import subprocess
from pathlib import Path


class CloneError(Exception):
    """The clone cannot be read: not a git clone, no such branch, or git failed."""


def run_git(
    path: Path,
    *args: str,
    stdin: str | None = None,
    errors: str = "replace",
    timeout: float | None = None,
) -> subprocess.CompletedProcess[str]:
    """`git -C path args`, its exit status and output (UTF-8; `errors` for bytes that are
    not); CloneError where git is not installed or outlasts `timeout` seconds."""
    try:
        return subprocess.run(
            ["git", "-C", str(path), *args],
            input=stdin,
            capture_output=True,
            text=True,
            encoding="utf-8",
            errors=errors,
            check=False,
            timeout=timeout,
        )
    except FileNotFoundError as exc:
        raise CloneError("git is not installed") from exc
    except subprocess.TimeoutExpired as exc:
        raise CloneError(f"git {_command(args)} took over {timeout} s in {path}") from exc


def git(path: Path, *args: str, stdin: str | None = None, errors: str = "replace") -> str:
    """`run_git`'s output; CloneError, in git's own words on one line, where git fails."""
    result = run_git(path, *args, stdin=stdin, errors=errors)
    if result.returncode != 0:
        raise CloneError(f"git {_command(args)} failed in {path}: {first_line(result.stderr)}")
    return result.stdout


def name_status(out: str) -> list[tuple[str, str | None, str]]:
    """`--name-status -z` output as (status, path before a rename or copy else None, path)."""
    fields = out.split("\0")
    found: list[tuple[str, str | None, str]] = []
    i = 0
    while i < len(fields) - 1:
        if fields[i][:1] in ("R", "C"):
            found.append((fields[i], fields[i + 1], fields[i + 2]))
            i += 3
        else:
            found.append((fields[i], None, fields[i + 1]))
            i += 2
    return found


def first_line(stderr: str) -> str:
    """git's own message, on one line: its first, without the `fatal:` or `error:` prefix."""
    for line in stderr.splitlines():
        text = line.strip()
        for prefix in ("fatal:", "error:"):
            text = text.removeprefix(prefix).strip()
        if text:
            return text
    return "failed"


def _command(args: tuple[str, ...]) -> str:
    """The command git was asked to run (its first two words), past its `-c` settings."""
    start = 0
    while args[start : start + 1] == ("-c",):
        start += 2
    return " ".join(args[start : start + 2])
