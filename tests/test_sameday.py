"""A name added and taken out again within one day breaks no one: the day's digest does not
call its removal breaking, nor lead with it, and says which commit of the day added it
(this repository's 2026-11-27: 616cafb added `Facts.surface_kept`, 3c99f04 removed it)."""

from __future__ import annotations

from dataclasses import replace
from datetime import date, datetime, time
from pathlib import Path
from types import SimpleNamespace

import pytest

from bot.digest.render import render
from bot.jobs.digest_build import shown_commits
from bot.jobs.publish.alerts import SendAlerts
from bot.models import Analysis, ChangeType, DayNames, Digest, Importance, Risk
from bot.repo_config import default_config
from bot.store.digests import DayCommit
from tests.clones import _commit, _digest, _write, repo

__all__ = ["repo"]  # the clone fixture

pytestmark = pytest.mark.usefixtures("environ_clean", "keep_test_logging")

_INIT = 'from widgets.api import old{more}\n\n__all__ = ["old"{names}]\n'
# (the fixture's `compute_checksum` kept: its removal from `widgets/api.py`, a module the
# package imports from, would be a break of its own)
_API = (
    "def old():\n    return 1\n\n\ndef compute_checksum(data: bytes) -> int:\n"
    '    """The sum of the bytes."""\n    return sum(data) % 65536\n'
)
_KEPT = "\n\ndef surface_kept(before: str, after: str) -> bool:\n    return before == after\n"


def test_a_name_added_and_removed_the_same_day_is_no_break(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _write(repo, "widgets/__init__.py", _INIT.format(more="", names=""))
    _commit(repo, "Package the API", when="2026-06-20T11:00:00Z")
    _write(repo, "widgets/api.py", _API + _KEPT)
    _write(
        repo, "widgets/__init__.py", _INIT.format(more=", surface_kept", names=', "surface_kept"')
    )
    added = _commit(repo, "Rules: a change proven internal says so", when="2026-06-24T09:00:00Z")
    _write(repo, "widgets/api.py", _API)
    _write(repo, "widgets/__init__.py", _INIT.format(more="", names=""))
    _commit(repo, "Internal only: the surface is worked out last", when="2026-06-24T11:00:00Z")
    out, _ = _digest(capsys, "--git", str(repo), "--day", "2026-06-24")
    head = out.split("\n| Time", 1)[0]
    assert "Breaking" not in head
    (row,) = [x for x in out.splitlines() if x.startswith("| 11:00")]
    assert f"`surface_kept` was added earlier the same day by [`{added[:7]}`]" in row
    # (the files end the day as they began it: no net change, low)
    assert "no net change to `widgets/` today" in row and "🟢 low" in row
    # the removal is still said as the commit's fact, for whoever reads its section
    assert "Removes `surface_kept`" in out


def test_a_name_older_than_the_day_still_breaks(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _write(
        repo, "widgets/__init__.py", _INIT.format(more=", surface_kept", names=', "surface_kept"')
    )
    _write(repo, "widgets/api.py", _API + _KEPT)
    _commit(repo, "Package the API", when="2026-06-20T11:00:00Z")
    _write(repo, "widgets/api.py", _API + _KEPT.replace("before ==", "before is"))
    _commit(repo, "Compare by identity", when="2026-06-24T09:00:00Z")
    _write(repo, "widgets/api.py", _API)
    _write(repo, "widgets/__init__.py", _INIT.format(more="", names=""))
    _commit(repo, "Internal only: the surface is worked out last", when="2026-06-24T11:00:00Z")
    out, _ = _digest(capsys, "--git", str(repo), "--day", "2026-06-24")
    assert out.split("\n| Time", 1)[0].count("⚠️ **Breaking:**") == 1
    assert "the same day" not in out


def _row(sha: str, at: str, analysis: Analysis, names: DayNames | None) -> DayCommit:
    return DayCommit(
        sha=sha,
        title=f"Commit {sha[:7]}",
        message=f"Commit {sha[:7]}",
        url=f"https://github.com/acme/widgets/commit/{sha}",
        author_name="Ada",
        author_login="ada",
        landed_at=datetime.fromisoformat(at),
        state="done",
        last_error=None,
        details={"files": [], "names": names.stored()} if names else {"files": []},
        published_part=None,
        analysis=analysis.model_dump(mode="json"),
        fallback_reason=None,
    )


def _rows(key: str) -> list[DayCommit]:
    """616cafb adding `surface_kept` and 3c99f04 removing it, as the store holds them."""
    added = Analysis(
        change_types=[ChangeType.FEATURE],
        importance=Importance.MEDIUM,
        summary="Adds it.",
        analyzer="rules",
    )
    removed = Analysis(
        change_types=[ChangeType.REFACTOR],
        importance=Importance.HIGH,
        breaking=True,
        summary="Removes `Facts.surface_kept` from `bot/analysis/facts/records.py`.",
        risks=[Risk(description="Removes `surface_kept` from `bot/analysis/facts/__init__.py`.")],
        analyzer="rules",
    )
    return [
        _row("3c99f04" + "0" * 33, "2026-11-27T19:16:45+00:00", removed, DayNames(breaks=(key,))),
        _row("616cafb" + "0" * 33, "2026-11-27T18:49:11+00:00", added, DayNames(added=(key,))),
    ]


def test_the_apps_daily_post_reads_the_names_stored_with_each_commit() -> None:
    rows = _rows("bot/analysis/facts/__init__.py::surface_kept")

    def head(rows: list[DayCommit]) -> str:
        shown, _ = shown_commits(default_config(), rows)
        digest = Digest(
            repo="acme/widgets",
            day=date(2026, 11, 27),
            language="en",
            timezone="UTC",
            cutoff=time(0, 0),
            title="Daily digest",
            commits=tuple(shown),
        )
        return render(digest, with_title=True)[0].body.split("\n| Time", 1)[0]

    assert "Breaking" not in head(rows)
    # rows stored before the names were: the analysis stands as stored
    old = [replace(r, details={"files": []}) for r in rows]
    assert "⚠️ **Breaking:**" in head(old)


def test_a_parameter_added_and_given_a_new_default_the_same_day_is_no_break(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    api = (
        "class Digests:\n    def reopen(self, period: str{param}) -> str:\n        return period\n"
    )
    _write(
        repo, "widgets/__init__.py", 'from widgets.api import Digests\n\n__all__ = ["Digests"]\n'
    )
    _write(repo, "widgets/api.py", api.format(param=""))
    _commit(repo, "Package the API", when="2026-06-20T11:00:00Z")
    _write(repo, "widgets/api.py", api.format(param=", *, skipped: bool = False"))
    added = _commit(repo, "publish: a skipped period may be reopened", when="2026-06-24T09:00:00Z")
    _write(repo, "widgets/api.py", api.format(param=", *, skipped: str | None = None"))
    _commit(repo, "publish: reopened from when it was asked for", when="2026-06-24T11:00:00Z")
    out, _ = _digest(capsys, "--git", str(repo), "--day", "2026-06-24")
    assert "Breaking" not in out.split("\n| Time", 1)[0]
    (row,) = [x for x in out.splitlines() if x.startswith("| 11:00")]
    assert f"`Digests.reopen(skipped)` was added earlier the same day by [`{added[:7]}`]" in row


class _Digests:
    """The store's reads the alert job makes, over rows given."""

    def __init__(self, rows: list[DayCommit]) -> None:
        self.rows = rows

    async def commits_of(self, repo_id: int, shas: list[str]) -> list[DayCommit]:
        return [r for r in self.rows if r.sha in shas]

    async def window_commits(self, repo_id: int, start: datetime, end: datetime) -> list[DayCommit]:
        return [r for r in self.rows if start <= r.landed_at < end]


async def test_the_alert_of_a_break_of_the_days_own_name_is_not_breaking() -> None:
    key = "bot/analysis/facts/__init__.py::surface_kept"
    rows = _rows(key)
    job = SendAlerts(SimpleNamespace(store=SimpleNamespace(digests=_Digests(rows))))  # type: ignore[arg-type]
    repo = SimpleNamespace(id=1)
    commit = await job._commit(repo, default_config(), rows[0].sha)  # type: ignore[arg-type]
    assert commit is not None and commit.analysis is not None
    assert not commit.analysis.breaking
    # alone (the earlier commit not stored): the analysis stands
    job = SendAlerts(SimpleNamespace(store=SimpleNamespace(digests=_Digests(rows[:1]))))  # type: ignore[arg-type]
    alone = await job._commit(repo, default_config(), rows[0].sha)  # type: ignore[arg-type]
    assert alone is not None and alone.analysis is not None and alone.analysis.breaking


def test_the_weeks_roll_up_counts_no_break_its_day_took_back(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The same day as `test_a_name_added_and_removed_the_same_day_is_no_break` (616cafb
    adding `surface_kept`, 3c99f04 removing it), read by the week's roll-up."""
    _write(repo, "widgets/__init__.py", _INIT.format(more="", names=""))
    _commit(repo, "Package the API", when="2026-06-20T11:00:00Z")
    _write(repo, "widgets/api.py", _API + _KEPT)
    _write(
        repo, "widgets/__init__.py", _INIT.format(more=", surface_kept", names=', "surface_kept"')
    )
    _commit(repo, "Rules: a change proven internal says so", when="2026-06-24T09:00:00Z")
    _write(repo, "widgets/api.py", _API)
    _write(repo, "widgets/__init__.py", _INIT.format(more="", names=""))
    _commit(repo, "Internal only: the surface is worked out last", when="2026-06-24T11:00:00Z")
    out, _ = _digest(capsys, "--git", str(repo), "--week", "2026-06-24")
    assert "| ⚠️ breaking | 0 | 0 | 0 |" in out
    assert "### 🔴 High-importance and breaking changes (0)" in out


def test_a_module_become_a_package_gives_no_name_of_the_day(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """async-lru's 2023-02-18: 73c1195 turned `async_lru.py` into `async_lru/__init__.py`
    (the same import, `alru_cache` moved with its `cache_exceptions=True`), and ce90ae7 made
    the default `False` that evening: a break of every caller, not the day's own."""
    old = (
        "def alru_cache(maxsize=128, *, cache_exceptions=True):\n    return maxsize\n\n\n"
        "def _cache_clear(wrapped):\n    wrapped.clear()\n"
    )
    new = (
        "from typing import Optional\n\n\n"
        "class _Wrapper:\n    def __init__(self, fn: object) -> None:\n        self.fn = fn\n\n"
        "    def cache_clear(self) -> None:\n        self.fn = None\n\n\n"
        "def alru_cache(\n    maxsize: Optional[int] = 128, *, cache_exceptions: bool = {default}\n"
        ") -> Optional[int]:\n    return maxsize\n"
    )
    _write(repo, "widgets.py", old)
    _commit(repo, "First release", when="2026-06-20T11:00:00Z")
    (repo / "widgets.py").unlink()
    _write(repo, "widgets/__init__.py", new.format(default="True"))
    _commit(repo, "Provide type hints", when="2026-06-24T09:00:00Z")
    _write(repo, "widgets/__init__.py", new.format(default="False"))
    _commit(repo, "Make cache_exceptions False by default", when="2026-06-24T11:00:00Z")
    out, _ = _digest(capsys, "--git", str(repo), "--day", "2026-06-24")
    assert "the same day" not in out
    (row,) = [x for x in out.splitlines() if x.startswith("| 11:00")]
    assert "🔴 high" in row
