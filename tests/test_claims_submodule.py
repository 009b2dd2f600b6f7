"""A submodule the commit moves to another commit is changed: aiohttp 1f005f1 "Update llhttp
to v9.4.1" moves `vendor/llhttp`, and “Updated `llhttp` to v9.” was checked false because a
gitlink is no file at either revision."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from bot.cli.claim_check import Verdict
from bot.cli.claims import Kind
from tests.clones import commit_files, verdicts_of

pytestmark = pytest.mark.usefixtures("environ_clean", "keep_test_logging")


def _gitlink(root: Path, path: str, target: str, message: str, number: int) -> str:
    """Point the submodule at `path` to `target` and commit it (with a news fragment)."""
    git = ["git", "-C", str(root)]
    subprocess.run(
        [*git, "update-index", "--add", "--cacheinfo", f"160000,{target},{path}"], check=True
    )
    (root / "CHANGES").mkdir(exist_ok=True)
    (root / "CHANGES" / f"{number}.packaging.rst").write_text("Updated ``llhttp`` to v9.\n")
    subprocess.run([*git, "add", "CHANGES"], check=True)
    subprocess.run([*git, "commit", "-q", "-m", message], check=True)
    return subprocess.run(
        [*git, "rev-parse", "HEAD"], capture_output=True, text=True, check=True
    ).stdout.strip()


def test_a_submodule_moved_to_another_commit_is_changed(tmp_path: Path) -> None:
    root = tmp_path / "repo"
    root.mkdir()
    subprocess.run(["git", "init", "-q", "-b", "main", str(root)], check=True)
    commit_files(root, {"vendor/README.rst": "Vendored parsers.\n"}, "Initial layout")
    _gitlink(root, "vendor/llhttp", "1" * 40, "Vendor llhttp", 1)
    sha = _gitlink(root, "vendor/llhttp", "2" * 40, "Update llhttp to v9.4.1 (#12681)", 12681)
    assert verdicts_of(root, sha, "Updated `llhttp` to v9.") == [(Kind.CHANGES, Verdict.TRUE)]
    # a submodule the commit leaves where it was is not what it changes
    same = _gitlink(root, "vendor/llhttp", "2" * 40, "Note llhttp again", 12682)
    assert verdicts_of(root, same, "Updated `llhttp` to v9.") != [(Kind.CHANGES, Verdict.TRUE)]
