"""`CatFile`: a clone's blobs read through two long-lived `git cat-file` processes, and the
changed files' sides of many commits read through them (`clone_sources.with_sources`)."""

from __future__ import annotations

import subprocess
from pathlib import Path
from typing import Any

import pytest

from bot.cli import git_batch
from bot.cli.clone_sources import blob_cache, with_sources
from bot.cli.git_batch import CatFile
from bot.models import FileChange
from tests.clones import _git

# binary, with line breaks and a header-like line inside: the answer's length is its size
BINARY = b"\x00\x01x blob 3\n\n\xff\xfe\n"


@pytest.fixture
def started(monkeypatch: pytest.MonkeyPatch) -> list[subprocess.Popen[bytes]]:
    """Every `git cat-file` process started, in order."""
    procs: list[subprocess.Popen[bytes]] = []
    real = subprocess.Popen

    def spawn(*args: Any, **kwargs: Any) -> subprocess.Popen[bytes]:
        proc: subprocess.Popen[bytes] = real(*args, **kwargs)
        if "cat-file" in proc.args:
            procs.append(proc)
        return proc

    monkeypatch.setattr(git_batch.subprocess, "Popen", spawn)
    return procs


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    path = tmp_path / "repo"
    (path / "pkg").mkdir(parents=True)
    _git(path, "init", "-q", "-b", "main")
    (path / "pkg" / "a.py").write_text("A = 1\n")
    (path / "data.bin").write_bytes(BINARY)
    (path / "empty.py").write_text("")
    _git(path, "add", "-A")
    _git(path, "commit", "-q", "-m", "one")
    return path


def test_sizes_and_bytes_are_answered_in_step(
    repo: Path, started: list[subprocess.Popen[bytes]]
) -> None:
    a = _git(repo, "rev-parse", "HEAD:pkg/a.py")
    data = _git(repo, "rev-parse", "HEAD:data.bin")
    empty = _git(repo, "rev-parse", "HEAD:empty.py")
    with CatFile(repo) as cat:
        assert cat.info("HEAD:pkg/a.py") == (a, "blob", 6)
        assert cat.info("HEAD:data.bin") == (data, "blob", len(BINARY))
        assert cat.info("HEAD:pkg")[1:2] == ("tree",)  # type: ignore[index]
        # a path the tree lacks, a revision the clone lacks: `<name> missing`
        assert cat.info("HEAD:pkg/gone.py") is None
        assert cat.info("HEAD~1:pkg/a.py") is None
        assert cat.info("HEAD:pkg/a.py\nHEAD:data.bin") is None
        # the binary blob first: each answer is read to its end, and the next one in step
        assert cat.read(data) == ("blob", BINARY)
        assert cat.read(empty) == ("blob", b"")
        assert cat.read(a) == ("blob", b"A = 1\n")
        assert cat.read("0" * 40) is None
        assert cat.read(a) == ("blob", b"A = 1\n")
        assert cat.info("HEAD:empty.py") == (empty, "blob", 0)
    # one process a mode for all those questions, each ended by the block
    assert [p.args[-1] for p in started] == ["--batch-check", "--batch"]
    assert all(p.returncode == 0 for p in started)


def test_a_process_that_ended_is_started_afresh(
    repo: Path, started: list[subprocess.Popen[bytes]]
) -> None:
    with CatFile(repo) as cat:
        assert cat.info("HEAD:pkg/a.py") is not None
        started[0].kill()
        started[0].wait()
        with pytest.raises(OSError):
            cat.info("HEAD:pkg/a.py")
        assert cat.info("HEAD:pkg/a.py") is not None
    assert len(started) == 2
    assert all(p.returncode is not None for p in started)


def test_nothing_is_started_until_asked(repo: Path, started: list[subprocess.Popen[bytes]]) -> None:
    with CatFile(repo):
        pass
    assert started == []


def test_many_commits_sides_are_read_through_one_catfile(
    repo: Path, started: list[subprocess.Popen[bytes]]
) -> None:
    (repo / "pkg" / "a.py").write_text("A = 2\n")
    (repo / "pkg" / "b.py").write_text("B = 1\n")
    _git(repo, "add", "-A")
    _git(repo, "commit", "-q", "-m", "two")
    second = _git(repo, "rev-parse", "HEAD")
    _git(repo, "rm", "-q", "pkg/b.py")
    (repo / "data.bin").write_bytes(BINARY + b"\x00")
    _git(repo, "commit", "-q", "-am", "three")
    third = _git(repo, "rev-parse", "HEAD")
    two = [
        FileChange(filename="pkg/a.py", status="modified"),
        FileChange(filename="pkg/b.py", status="added"),
    ]
    three = [
        FileChange(filename="pkg/b.py", status="removed"),
        FileChange(filename="data.bin", status="modified"),
        # listed, but the commit has no such file: no side
        FileChange(filename="pkg/gone.py", status="modified"),
    ]
    cache = blob_cache()
    with CatFile(repo) as cat:
        a, b = with_sources(cat, second, two, cache)
        removed, binary, gone = with_sources(cat, third, three, cache)
    assert (a.before, a.after) == ("A = 1\n", "A = 2\n")
    # added: no side at the parent; removed: none at the commit
    assert (b.before, b.after) == (None, "B = 1\n")
    assert (removed.before, removed.after) == ("B = 1\n", None)
    assert (binary.before, binary.after) == (None, None)
    assert (gone.before, gone.after) == (None, None)
    assert [p.args[-1] for p in started] == ["--batch-check", "--batch"]
    assert all(p.returncode == 0 for p in started)
    # a Path reads the same, through processes of its own, ended before the call returns
    assert with_sources(repo, third, three, blob_cache()) == [removed, binary, gone]
    assert len(started) == 4
    assert all(p.returncode == 0 for p in started)


def test_a_folder_that_is_no_clone_leaves_the_patches(
    tmp_path: Path, started: list[subprocess.Popen[bytes]]
) -> None:
    files = [FileChange(filename="pkg/a.py", status="modified")]
    with CatFile(tmp_path) as cat:
        assert with_sources(cat, "0" * 40, files, blob_cache()) == files
    assert all(p.returncode is not None for p in started)
