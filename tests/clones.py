"""A small clone the offline tests build (acme/widgets, three commits around 2026-06-22),
and the offline digest run in-process on it."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from bot.__main__ import main
from bot.analysis.rules import analyze
from bot.cli.claim_check import Checker, Clone, Verdict
from bot.cli.claims import Kind, claims_in
from bot.cli.claims_eval import entry_claims
from bot.cli.evaluation import git_history
from bot.models import Analysis, CommitInput

# typeguard df3ca82's shape: the package `__init__.py` hands out the private `_decorators.py`'s
# `typechecked` (`__all__` lists it), whose parameters a commit changes (`params`).
TYPEGUARD_INIT = (
    '__all__ = ("check_type", "typechecked")\n\n'
    "from ._decorators import typechecked\nfrom ._functions import check_type\n"
)
TYPEGUARD_DECORATORS = (
    "def typechecked(func=None, *, {params}):\n    return func\n\n\n"
    "def instrument(func, *, {params}):\n    return func\n"
)


def _git(path: Path, *args: str, when: str = "2026-06-22T10:00:00Z", author: str = "Ada") -> str:
    env = {
        **os.environ,
        "GIT_AUTHOR_NAME": author,
        "GIT_AUTHOR_EMAIL": "ada@example.com",
        "GIT_COMMITTER_NAME": "GitHub",
        "GIT_COMMITTER_EMAIL": "noreply@github.com",
        "GIT_AUTHOR_DATE": when,
        "GIT_COMMITTER_DATE": when,
    }
    done = subprocess.run(
        ["git", "-C", str(path), *args], check=True, capture_output=True, env=env, text=True
    )
    return done.stdout.strip()


def _write(root: Path, name: str, text: str) -> None:
    target = root / name
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(text, encoding="utf-8")


def _commit(root: Path, message: str, *, when: str, author: str = "Ada") -> str:
    _git(root, "add", "-A", when=when)
    _git(root, "commit", "-q", "--allow-empty", "-m", message, when=when, author=author)
    return _git(root, "rev-parse", "HEAD")


def commit_files(root: Path, files: dict[str, str | None], message: str) -> str:
    """Write each file (None: delete it) and commit them all; the new commit's sha."""
    for name, text in files.items():
        path = root / name
        if text is None:
            path.unlink()
            continue
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    _git(root, "add", "-A")
    _git(root, "commit", "-q", "-m", message)
    return _git(root, "rev-parse", "HEAD")


def second_commit(
    tmp_path: Path, before: dict[str, str | None], after: dict[str, str | None], message: str
) -> tuple[Path, CommitInput]:
    """A clone of two commits, `before` then `after` (titled `message`), and the second as
    `eval --git` reads it (files and patches)."""
    root = tmp_path / "repo"
    root.mkdir(parents=True)
    _git(root, "init", "-q", "-b", "main")
    commit_files(root, before, "Initial layout")
    commit_files(root, after, message)
    (_, commit), *_ = git_history(root, branch="HEAD~1..HEAD")
    return root, commit


def checked_entry(
    tmp_path: Path, before: dict[str, str | None], after: dict[str, str | None], message: str
) -> tuple[Analysis, list[Verdict]]:
    """The rules' analysis of `second_commit`, and the claims checker's verdict on each of
    its claims against the clone."""
    root, commit = second_commit(tmp_path, before, after, message)
    analysis = analyze(commit)
    claims, _ = entry_claims(analysis)
    reader = Clone(root)
    try:
        verdicts = [Checker(reader).check(commit.sha, c).verdict for c in claims]
    finally:
        reader.close()
    return analysis, verdicts


def verdicts_of(root: Path, sha: str, text: str) -> list[tuple[Kind, Verdict]]:
    """The checker's verdict on each claim of `text` about commit `sha` of the clone."""
    claims, _ = claims_in(text)
    reader = Clone(root)
    try:
        return [(c.kind, Checker(reader).check(sha, c).verdict) for c in claims]
    finally:
        reader.close()


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """A clone of acme/widgets: a first commit on 06-20, then 06-22 (UTC) has one commit at
    10:00 whose title says nothing of what it adds, and one at 20:00 (06-23 in Shanghai)."""
    root = tmp_path / "widgets"
    root.mkdir()
    _git(root, "init", "-q", "-b", "main")
    _git(root, "remote", "add", "origin", "https://github.com/acme/widgets.git")
    _write(root, "widgets/api.py", "def old():\n    return 1\n")
    _commit(root, "Initial layout", when="2026-06-20T10:00:00Z")
    _write(
        root,
        "widgets/api.py",
        "def old():\n    return 1\n\n\ndef compute_checksum(data: bytes) -> int:\n"
        '    """The sum of the bytes."""\n    return sum(data) % 65536\n',
    )
    _commit(root, "Small tidy-up (#12)", when="2026-06-22T10:00:00Z")
    _write(root, "docs/guide.md", "# Guide\n\nHow to use widgets.\n")
    _commit(root, "Write the guide (#13)", when="2026-06-22T20:00:00Z", author="Bot Writer")
    return root


def _digest(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[str, str]:
    assert main(["digest", *args]) == 0
    out = capsys.readouterr()
    return out.out, out.err


def _config(root: Path, text: str, *, when: str = "2026-06-22T21:00:00Z") -> None:
    _write(root, ".github/commit-digest.yml", text)
    _commit(root, "Configure the digest", when=when)
