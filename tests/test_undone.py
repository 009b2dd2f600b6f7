"""A commit whose every added line a later commit of the same day took out is undone: the day's
digest keeps its entry, says which commit undid it, counts it low and leaves it out of the
headline; a revert that with them changes nothing says so (tinydb 2022-05-23: 2a2abe5 added
atomic writes, cbeaf5c reworked them for Windows, 5694479 reverted both)."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from bot.digest.undone import undone
from bot.models import DayNames, DigestCommit
from tests.clones import _commit, _digest, _write, repo

__all__ = ["repo"]  # the clone fixture

pytestmark = pytest.mark.usefixtures("environ_clean", "keep_test_logging")

_PLAIN = "import json\n\n\nclass JSONStorage:\n    def write(self, data):\n        self._handle.write(json.dumps(data))\n        self._handle.flush()\n"
_ATOMIC = (
    "import json\nimport os\n\n\ndef _replace_atomic(src, dst):\n    os.replace(src, dst)\n"
    "\n\nclass JSONStorage:\n    def write(self, data):\n        tmp = self._path + '.tmp'\n"
    "        with open(tmp, 'w') as f:\n            f.write(json.dumps(data))\n"
    "        _replace_atomic(tmp, self._path)\n"
)
_WINDOWS = _ATOMIC.replace(
    "    os.replace(src, dst)\n",
    "    if os.name == 'nt':\n        _windows_replace(src, dst)\n    else:\n"
    "        os.replace(src, dst)\n\n\ndef _windows_replace(src, dst):\n"
    "    os.remove(dst)\n    os.rename(src, dst)\n",
)


def test_a_fix_the_days_revert_took_out_too_is_undone_and_the_day_nets_to_nothing(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _write(repo, "widgets/storages.py", _PLAIN)
    _commit(repo, "Add JSON storage", when="2026-06-20T11:00:00Z")
    _write(repo, "widgets/storages.py", _ATOMIC)
    feat = _commit(
        repo, "feat: use atomic writes to avoid data corruption", when="2026-06-24T18:44:00Z"
    )
    _write(repo, "widgets/storages.py", _WINDOWS)
    fix = _commit(
        repo, "fix(storages): add support for atomic writes on Windows", when="2026-06-24T19:05:00Z"
    )
    _write(repo, "widgets/storages.py", _PLAIN)
    revert = _commit(
        repo,
        f'Revert "feat: use atomic writes to avoid data corruption"\n\nThis reverts commit {feat}.',
        when="2026-06-24T19:12:00Z",
    )
    out, _ = _digest(capsys, "--git", str(repo), "--day", "2026-06-24")
    head = out.split("\n| Time", 1)[0]
    assert "atomic writes on Windows" not in head and "Reverted" not in head
    (row,) = [x for x in out.splitlines() if x.startswith("| 19:05")]
    assert f"Undone later the same day by [`{revert[:7]}`]" in row and "🟢 low" in row
    (row,) = [x for x in out.splitlines() if x.startswith("| 19:12")]
    assert "no net change to `widgets/` today" in row and "🟢 low" in row
    (row,) = [x for x in out.splitlines() if x.startswith("| 18:44")]
    assert f"reverted by [`{revert[:7]}`]" in row and "Undone" not in row
    # never dropped: every entry is still listed
    assert all(f"`{sha[:7]}`" in out for sha in (feat, fix, revert))


def _day(sha: str, hour: int, added: tuple[str, ...], removed: tuple[str, ...]) -> DigestCommit:
    return DigestCommit(
        sha=sha,
        title=sha,
        url="",
        author="a",
        landed_at=datetime(2026, 6, 24, hour, tzinfo=UTC),
        names=DayNames(added_lines=added, removed_lines=removed),
    )


def test_a_commit_whose_removal_still_stands_or_whose_lines_are_unknown_is_not_undone() -> None:
    # b took out a's added line, but a's removal of "old" was never put back
    a = _day("a", 9, ("x",), ("old",))
    b = _day("b", 10, (), ("x",))
    assert [c.undone_by for c in undone([a, b])] == [None, None]
    # a line only moved (removed and added again by the same commit) still stands
    c = _day("c", 9, ("x",), ())
    d = _day("d", 10, ("x",), ("x",))
    assert [c.undone_by for c in undone([c, d])] == [None, None]
    unknown = DigestCommit(
        sha="u", title="u", url="", author="a", landed_at=b.landed_at, names=DayNames()
    )
    assert [c.undone_by for c in undone([c, unknown])] == [None, None]
    e = _day("e", 10, ("old",), ("x",))
    assert [(c.undone_by, c.no_net) for c in undone([a, e])] == [("e", None), (None, ())]


def test_a_line_rewrapped_by_a_later_commit_is_not_undone() -> None:
    # sqlparse 2025-11-25: ab0f85c adds 'INTERSECT' to a wrapped tuple's first line; e37ea5b
    # takes that line out, puts the old first line back and carries 'INTERSECT' to the next
    a = _day("a", 9, ("f:first+INTERSECT",), ("f:first",))
    b = _day("b", 10, ("f:first", "f:INTERSECT+second"), ("f:first+INTERSECT", "f:second"))
    assert [(c.undone_by, c.no_net) for c in undone([a, b])] == [(None, None), (None, None)]
    # a true revert of the same line is still undone, and the day nets to nothing
    revert = _day("b", 10, ("f:first",), ("f:first+INTERSECT",))
    assert [(c.undone_by, c.no_net) for c in undone([a, revert])] == [("b", None), (None, ())]


def test_a_file_that_ends_the_day_changed_is_no_net_change() -> None:
    # pydash 2023-01-28: 933b78d adds a pin, 0a430c6 swaps another line and drops the pin,
    # a8a1b10 puts both back: 0a430c6 is undone, 933b78d is not, and setup.cfg ends the day
    # with the pin it did not have at its start
    pin = _day("pin", 9, ("f:pin",), ())
    swap = _day("swap", 10, ("f:flake8>=6",), ("f:flake8", "f:pin"))
    back = _day("back", 11, ("f:flake8", "f:pin"), ("f:flake8>=6",))
    assert [(c.undone_by, c.no_net) for c in undone([pin, swap, back])] == [
        (None, None),
        ("back", None),
        (None, None),
    ]
    # another file's lines do not stand in the way; a commit with unknown lines in the span does
    other = _day("other", 10, ("g:x",), ())
    assert [c.undone_by for c in undone([swap, other, back])] == ["back", None, None]
    unknown = DigestCommit(
        sha="u", title="u", url="", author="a", landed_at=other.landed_at, names=DayNames()
    )
    assert [c.undone_by for c in undone([swap, unknown, back])] == [None, None, None]


_NEWS = "v7.2.0\n======\n\nFeatures\n--------\n\n- Add ``engine.compare``.\n"


def test_a_news_fragment_built_into_the_changelog_is_not_undone(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """inflect 2024-04-23: 3f7e9b3 "Add news fragment." wrote a towncrier fragment, and
    504e023 "Finalize" built it into NEWS.rst under v7.2.1, deleting the fragment: the
    fragment was released, not undone. A fragment deleted with nothing built stays undone."""
    _write(repo, "NEWS.rst", _NEWS)
    _commit(repo, "Add NEWS", when="2026-06-20T11:00:00Z")
    _write(
        repo,
        "newsfragments/+d538c2d8.bugfix.rst",
        "Refactored number_to_words toward reduced complexity.\n",
    )
    _commit(repo, "Add news fragment.", when="2026-06-24T09:08:50Z")
    (repo / "newsfragments/+d538c2d8.bugfix.rst").unlink()
    _write(
        repo,
        "NEWS.rst",
        "v7.2.1\n======\n\nBugfixes\n--------\n\n"
        "- Refactored number_to_words toward reduced complexity.\n\n\n" + _NEWS,
    )
    _commit(repo, "Finalize", when="2026-06-24T09:08:57Z")
    _write(repo, "newsfragments/12.feature.rst", "Add ``engine.ordinal_words``.\n")
    _commit(repo, "Add another fragment.", when="2026-06-24T10:00:00Z")
    (repo / "newsfragments/12.feature.rst").unlink()
    dropped = _commit(repo, "Drop the fragment: not ready", when="2026-06-24T11:00:00Z")
    out, _ = _digest(capsys, "--git", str(repo), "--day", "2026-06-24")
    (row,) = [x for x in out.splitlines() if x.startswith("| 09:08") and "fragment" in x]
    assert "Undone" not in row
    (row,) = [x for x in out.splitlines() if x.startswith("| 10:00")]
    assert f"Undone later the same day by [`{dropped[:7]}`]" in row
