"""`classify --git`: commits read whole from a throwaway clone, at the parent and at the commit."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

import pytest

from bot.__main__ import main
from bot.cli import clone_sources
from bot.models import FileChange
from tests.clones import _git

pytestmark = pytest.mark.usefixtures("keep_test_logging")


FILLER = "".join(f"\ndef step_{i}(x):\n    return x + {i}\n" for i in range(30))
BEFORE = (
    "import os\n\nMODE = os.getenv('PROJ_MODE')\n"
    + FILLER
    + "\n\ndef redirect(location, code=302):\n    return (location, code, os.getenv('PROJ_MODE'))\n"
)
AFTER = BEFORE.replace("code=302", "code=303").replace(", os.getenv('PROJ_MODE'))", ")")


@pytest.fixture
def clone(tmp_path: Path) -> tuple[Path, str]:
    """A clone whose second commit flips a public default and drops one of two reads of a
    variable, far from the other: the patch shows only the dropped read."""
    path = tmp_path / "clone"
    (path / "pkg").mkdir(parents=True)
    _git(path, "init", "-q", "-b", "main")
    (path / "pkg" / "helpers.py").write_text(BEFORE)
    _git(path, "add", "-A")
    _git(path, "commit", "-q", "-m", "Initial")
    (path / "pkg" / "helpers.py").write_text(AFTER)
    _git(path, "commit", "-q", "-am", "Redirect with 303 by default")
    return path, _git(path, "rev-parse", "HEAD")


def _classify(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], line: str, *args: str
) -> tuple[int, str]:
    monkeypatch.setattr(sys, "stdin", io.StringIO(line + "\n"))
    code = main(["classify", *args])
    return code, capsys.readouterr().out


@pytest.mark.usefixtures("environ_clean")
def test_classify_git_reads_both_sides_and_claims_only_what_they_prove(
    clone: tuple[Path, str],
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    path, sha = clone
    line = json.dumps({"sha": sha, "message": "Redirect with 303 by default"})
    code, out = _classify(monkeypatch, capsys, line, "--git", str(path))
    assert code == 0
    (result,) = [json.loads(row) for row in out.splitlines()]
    text = json.dumps(result)
    # the default is read from the whole signature at both revisions
    assert "302" in text and "303" in text
    # the file still reads the variable elsewhere: no "no longer reads" (the line that
    # stopped reading it may be quoted, as it was and is)
    assert "no longer reads" not in text and "environment variable `PROJ_MODE`" not in text


@pytest.mark.usefixtures("environ_clean")
def test_the_same_patch_alone_says_the_variable_is_no_longer_read(
    clone: tuple[Path, str],
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    path, sha = clone
    patch = _git(path, "diff", "-U3", f"{sha}^", sha, "--", "pkg/helpers.py")
    hunks = patch[patch.index("@@") :]
    line = json.dumps(
        {
            "sha": sha,
            "message": "Redirect with 303 by default",
            "files": [
                {"filename": "pkg/helpers.py", "patch": hunks, "additions": 2, "deletions": 2}
            ],
        }
    )
    _, out = _classify(monkeypatch, capsys, line)
    # without the whole file, the patch reader cannot see the read that remains
    assert "PROJ_MODE" in out


@pytest.mark.usefixtures("environ_clean")
def test_classify_git_refuses_a_folder_that_is_not_a_clone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    assert main(["classify", "--git", str(tmp_path)]) == 2
    assert f"{tmp_path} is not a git repository" in capsys.readouterr().err


def test_sources_stay_within_the_bounds_and_reuse_read_blobs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "clone"
    path.mkdir()
    _git(path, "init", "-q", "-b", "main")
    (path / "small.py").write_text("A = 1\n")
    (path / "big.py").write_text("B = 1\n" * 100)
    (path / "blob.c").write_bytes(b"int x;\0\1\2")
    _git(path, "add", "-A")
    _git(path, "commit", "-q", "-m", "one")
    (path / "small.py").write_text("A = 2\n")
    (path / "big.py").write_text("B = 2\n" * 100)
    (path / "blob.c").write_bytes(b"int y;\0\1\2")
    _git(path, "commit", "-q", "-am", "two")
    sha = _git(path, "rev-parse", "HEAD")
    files = [FileChange(filename=name) for name in ("small.py", "big.py", "blob.c", "notes.md")]
    monkeypatch.setattr(clone_sources, "MAX_SOURCE_BYTES", 100)
    reads: list[list[str]] = []
    real_read = clone_sources._read

    def counting(p: clone_sources.CatFile, oids: list[str], cache: clone_sources.BlobCache) -> None:
        reads.append(oids)
        real_read(p, oids, cache)

    monkeypatch.setattr(clone_sources, "_read", counting)
    cache = clone_sources.blob_cache()
    small, big, blob, notes = clone_sources.with_sources(path, sha, files, cache)
    assert (small.before, small.after) == ("A = 1\n", "A = 2\n")
    # over the bound: never read, so the patch is used
    assert (big.before, big.after) == (None, None)
    assert all(len(oids) == 4 for oids in reads)
    # binary: read, but no text
    assert (blob.before, blob.after) == (None, None)
    # not code: not read at all
    assert (notes.before, notes.after) == (None, None)
    again = clone_sources.with_sources(path, sha, files, cache)
    assert again[0].after == "A = 2\n"
    # every blob came from the cache the second time
    assert len(reads) == 1


@pytest.mark.usefixtures("environ_clean")
def test_a_line_without_files_is_read_with_the_clones_files(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The files `--git` reads for a line that gives none are the commit's whole list: the
    rules rate its diff (a change of 60 lines is medium), not its title alone (low). (Not a
    "refactor": one that keeps every public name and signature is internal, and low.)"""
    path = tmp_path / "clone"
    (path / "pkg").mkdir(parents=True)
    _git(path, "init", "-q", "-b", "main")
    (path / "pkg" / "helpers.py").write_text(FILLER)
    _git(path, "add", "-A")
    _git(path, "commit", "-q", "-m", "Initial")
    (path / "pkg" / "helpers.py").write_text(FILLER.replace("return x +", "return x -"))
    _git(path, "commit", "-q", "-am", "Helpers subtract their step")
    sha = _git(path, "rev-parse", "HEAD")
    line = json.dumps({"sha": sha, "message": "Helpers subtract their step"})
    _, with_clone = _classify(monkeypatch, capsys, line, "--git", str(path))
    _, alone = _classify(monkeypatch, capsys, line)
    assert json.loads(with_clone)["importance"] == "medium"
    assert json.loads(alone)["importance"] == "low"
