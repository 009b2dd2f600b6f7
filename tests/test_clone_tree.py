"""The day's one search of the parent tree (`quoted_before_each`) answers each commit as its
own search of its parent's tree (`quoted_before`) does, whatever the day adds, drops, moves
or cannot show in a patch."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.cli.clone import files_with_patches
from bot.cli.clone_tree import quoted_before, quoted_before_each, quoted_each
from bot.models import CommitInput
from tests.clones import _git, commit_files

READS = "import os\n\n\ndef {name}():\n    return os.getenv({quoted})\n"


def _inputs(root: Path, shas: list[str]) -> list[CommitInput]:
    files = files_with_patches(root, shas)
    return [
        CommitInput(sha=sha, message="m", repo="acme/widgets", author="Ada", files=files[sha])
        for sha in shas
    ]


@pytest.fixture
def day(tmp_path: Path) -> tuple[Path, list[str]]:
    """A clone whose day's commits each read, drop, move or hide settings."""
    root = tmp_path / "clone"
    root.mkdir()
    _git(root, "init", "-q", "-b", "main")
    commit_files(
        root,
        {
            "app/config.py": READS.format(name="mode", quoted='"APP_MODE"'),
            "deploy/run.sh": 'echo "${APP_HOME}/bin"\n',
        },
        "Start",
    )
    shas = [
        # reads a variable the tree already reads, and one nothing read before
        commit_files(
            root,
            {"app/more.py": READS.format(name="level", quoted="'APP_MODE'")},
            "Read the mode again",
        ),
        commit_files(
            root, {"app/new.py": READS.format(name="new", quoted='"APP_NEW"')}, "A new one"
        ),
        # the only other read of APP_MODE goes: the next reader of it is new again
        commit_files(root, {"app/config.py": None, "app/more.py": None}, "Drop the mode"),
        commit_files(
            root, {"app/again.py": READS.format(name="again", quoted='"APP_MODE"')}, "Back"
        ),
        # APP_NEW moves to another file; the shell script's `$APP_HOME` stays
        commit_files(
            root,
            {"app/new.py": None, "app/moved.py": READS.format(name="new", quoted='"APP_NEW", "1"')},
            "Move",
        ),
        commit_files(
            root,
            {
                "app/home.py": READS.format(name="home", quoted='"APP_HOME"')
                + "KEY = os.environ['APP_NEW']\n"
            },
            "Home",
        ),
    ]
    # a text file turned binary: no patch shows the lines it loses
    (root / "deploy" / "run.sh").write_bytes(b"\0binary now\n")
    shas.append(
        commit_files(root, {"app/later.py": READS.format(name="h", quoted='"APP_HOME"')}, "Bin")
    )
    shas.append(
        commit_files(root, {"app/last.py": READS.format(name="i", quoted='"APP_HOME"')}, "Last")
    )
    return root, shas


def test_one_search_a_day_answers_as_one_search_a_commit(day: tuple[Path, list[str]]) -> None:
    root, shas = day
    commits = _inputs(root, shas)
    each = quoted_before_each(root, commits)
    assert each == [quoted_before(root, c) for c in commits]
    assert each[:4] == [
        frozenset({"APP_MODE"}),
        frozenset(),  # APP_NEW: new
        frozenset(),  # a removal names nothing
        frozenset(),  # APP_MODE: its last readers went in the commit before
    ]
    assert each[4] == frozenset({"APP_NEW"})  # moved, read before
    assert each[5] == frozenset({"APP_HOME", "APP_NEW"})
    # the binary file's `${APP_HOME}` went with its commit; the search after it says so
    assert each[6] == frozenset({"APP_HOME"})
    assert each[7] == frozenset({"APP_HOME"})
    # what the removed lines quote and each commit's own tree still quotes: the same from
    # the day's one search as from a search a commit
    after = [q.after for q in quoted_each(root, commits)]
    assert after == [quoted_each(root, [c])[0].after for c in commits]
    assert after[2] == frozenset()  # APP_MODE's last readers went
    assert after[4] == frozenset({"APP_NEW"})  # moved: still read


def test_a_day_starting_at_the_root_commit_cannot_be_told(tmp_path: Path) -> None:
    root = tmp_path / "clone"
    root.mkdir()
    _git(root, "init", "-q", "-b", "main")
    first = commit_files(root, {"a.py": READS.format(name="a", quoted='"APP_A"')}, "Root")
    second = commit_files(root, {"b.py": READS.format(name="b", quoted='"APP_A"')}, "Next")
    commits = _inputs(root, [first, second])
    assert quoted_before_each(root, commits) == [None, frozenset({"APP_A"})]
    assert [quoted_before(root, c) for c in commits] == [None, frozenset({"APP_A"})]


def test_commits_not_each_others_parents_are_searched_apart(
    day: tuple[Path, list[str]],
) -> None:
    root, shas = day
    # every other commit: no one is the next one's parent
    commits = _inputs(root, shas[::2])
    assert quoted_before_each(root, commits) == [quoted_before(root, c) for c in commits]
