"""The patch-id of a commit from GitHub-style per-file patches, checked against git itself on
a real repository: a cherry-pick keeps it, another change does not, and it equals
`git patch-id --stable` where GitHub's data allows."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from bot.analysis.patch_id import patch_id
from bot.models import FileChange


def git(repo: Path, *args: str) -> str:
    return subprocess.run(
        ["git", "-C", str(repo), *args], check=True, capture_output=True, text=True
    ).stdout


def github_files(repo: Path, sha: str) -> list[FileChange]:
    """The commit's files as GitHub's "get a commit" gives them: name, status, hunks only."""
    diff = git(repo, "diff-tree", "-p", "-M", "--no-commit-id", "--root", sha)
    files = []
    for chunk in re.split(r"(?m)^(?=diff --git )", diff):
        if not chunk.strip():
            continue
        header, _, hunks = chunk.partition("\n@@")
        old, new = re.match(r"diff --git a/(\S+) b/(\S+)", header).groups()  # type: ignore[union-attr]
        if "new file mode" in header:
            status = "added"
        elif "deleted file mode" in header:
            status = "removed"
        elif "rename from" in header:
            status = "renamed"
        else:
            status = "modified"
        files.append(
            FileChange(
                filename=new,
                status=status,
                previous_filename=old if status == "renamed" else None,
                patch=("@@" + hunks).rstrip("\n") if hunks else None,
            )
        )
    return files


def git_patch_id(repo: Path, sha: str) -> str:
    shown = git(repo, "show", sha)
    out = subprocess.run(
        ["git", "patch-id", "--stable"], input=shown, capture_output=True, text=True, check=True
    ).stdout
    return out.split()[0]


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    git(tmp_path, "init", "-q", "-b", "main")
    git(tmp_path, "config", "user.email", "dev@example.com")
    git(tmp_path, "config", "user.name", "Dev")
    (tmp_path / "core.py").write_text("".join(f"line {i}\n" for i in range(40)))
    (tmp_path / "old.txt").write_text("to be removed\n")
    git(tmp_path, "add", ".")
    git(tmp_path, "commit", "-q", "-m", "base")
    return tmp_path


def test_a_cherry_pick_onto_another_base_keeps_the_patch_id(repo: Path) -> None:
    git(repo, "checkout", "-q", "-b", "feature")
    text = (repo / "core.py").read_text().replace("line 30\n", "line 30 fixed\n")
    (repo / "core.py").write_text(text)
    (repo / "added.py").write_text("print('new')\n")
    (repo / "old.txt").unlink()
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "Fix line 30")
    fix = git(repo, "rev-parse", "HEAD").strip()

    # The release branch has other history first, so the pick lands at other line numbers.
    git(repo, "checkout", "-q", "-b", "release", "main")
    (repo / "core.py").write_text("header\n" * 5 + (repo / "core.py").read_text())
    git(repo, "commit", "-q", "-am", "Release header")
    git(repo, "cherry-pick", "-x", fix)
    picked = git(repo, "rev-parse", "HEAD").strip()
    assert picked != fix
    assert "@@ -28,7 +28,7 @@" in git(repo, "show", fix)
    assert "@@ -33,7 +33,7 @@" in git(repo, "show", picked)

    ours = patch_id(github_files(repo, fix))
    assert ours is not None
    assert ours == patch_id(github_files(repo, picked))
    # The same value as git's own for modified, added and removed files.
    assert ours == git_patch_id(repo, fix) == git_patch_id(repo, picked)
    # File order does not matter (GitHub and git may list files differently).
    assert patch_id(reversed(github_files(repo, fix))) == ours

    other = (repo / "core.py").read_text().replace("line 31\n", "line 31 changed\n")
    (repo / "core.py").write_text(other)
    git(repo, "commit", "-q", "-am", "Another change")
    assert patch_id(github_files(repo, git(repo, "rev-parse", "HEAD").strip())) != ours


def test_whitespace_changes_keep_the_patch_id_and_an_empty_diff_has_none() -> None:
    spaced = FileChange(filename="a.py", patch="@@ -1 +1 @@\n-x=1\n+x  =  2")
    tight = FileChange(filename="a.py", patch="@@ -3 +3 @@\n-x=1\n+x=2")
    assert patch_id([spaced]) == patch_id([tight])
    assert patch_id([]) is None
