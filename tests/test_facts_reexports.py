"""A name a module stops exporting that it only imported is a re-export dropped, never a
removal for callers, while its origin still defines it (issue 27, item 3)."""

from __future__ import annotations

import pytest

from bot.analysis.facts import read_facts
from bot.analysis.rules import analyze
from tests.support import whole_commit

ALERTS = "pkg/jobs/alerts.py"
LEDGER = "pkg/store/ledger.py"
LEDGER_TEXT = 'PERIOD = "alerts:"\nPREFIX = "a"\n'
EXPORTING = (
    "from pkg.store.ledger import PERIOD, PREFIX\n__all__ = ['PERIOD', 'PREFIX', 'send']\n"
    "def send():\n    return PREFIX\n"
)
NOT_EXPORTING = (
    "from pkg.store.ledger import PREFIX\n__all__ = ['PREFIX', 'send']\n"
    "def send():\n    return PREFIX\n"
)

# (case, files as (path, before, after), re-exports dropped as (name, path, origin), removed)
CASES: list[
    tuple[str, list[tuple[str, str | None, str | None]], list[tuple[str, ...]], list[str]]
] = [
    (
        "an import dropped from `__all__`, its origin unchanged",
        [(ALERTS, EXPORTING, NOT_EXPORTING)],
        [("PERIOD", ALERTS, "pkg.store.ledger")],
        [],
    ),
    (
        "the origin changed but still defines it: named by its path",
        [(ALERTS, EXPORTING, NOT_EXPORTING), (LEDGER, LEDGER_TEXT, LEDGER_TEXT + "X = 1\n")],
        [("PERIOD", ALERTS, LEDGER)],
        [],
    ),
    (
        "the origin read whole no longer has it: gone for callers",
        [(ALERTS, EXPORTING, NOT_EXPORTING), (LEDGER, LEDGER_TEXT, 'PREFIX = "a"\n')],
        [],
        ["PERIOD"],
    ),
    (
        "a package's __init__ is its callers' import path: a name dropped there is removed",
        [
            (
                "src/pkg/__init__.py",
                "from .layers import Rotary, Linear\n__all__ = ['Rotary', 'Linear']\n",
                "from .layers import Linear\n__all__ = ['Linear']\n",
            )
        ],
        [],
        ["Rotary"],
    ),
    (
        "two levels up from a module",
        [
            (
                "pkg/jobs/alerts.py",
                "from ..store.ledger import PERIOD\n__all__ = ['PERIOD']\n",
                "__all__ = []\n",
            )
        ],
        [("PERIOD", "pkg/jobs/alerts.py", "pkg.store.ledger")],
        [],
    ),
    (
        "an alias dropped: its origin has it by its own name",
        [
            (
                "pkg/api.py",
                "from pkg.io import save as store\n__all__ = ['store']\n",
                "__all__ = []\n",
            ),
            ("pkg/io.py", "def save():\n    return 1\n", "def save():\n    return 2\n"),
        ],
        [("store", "pkg/api.py", "pkg/io.py")],
        [],
    ),
    (
        "an alias whose origin lost its own name is gone",
        [
            (
                "pkg/api.py",
                "from pkg.io import save as store\n__all__ = ['store']\n",
                "__all__ = []\n",
            ),
            ("pkg/io.py", "def save():\n    return 1\n", "def other():\n    return 2\n"),
        ],
        [],
        ["store"],
    ),
    (
        "a name the module defined itself is removed",
        [(ALERTS, "PERIOD = 1\n__all__ = ['PERIOD']\n", "__all__ = []\n")],
        [],
        ["PERIOD"],
    ),
]


@pytest.mark.parametrize(("case", "files", "dropped", "removed"), CASES, ids=[c[0] for c in CASES])
def test_a_re_export_dropped_is_not_a_removal(
    case: str,
    files: list[tuple[str, str | None, str | None]],
    dropped: list[tuple[str, ...]],
    removed: list[str],
) -> None:
    facts = read_facts(whole_commit(*files))
    assert [(r.name, r.path, r.origin) for r in facts.reexports_dropped] == dropped
    assert [n.name for n in facts.exports_removed] == removed


def _analysis(*files: tuple[str, str | None, str | None]):
    commit = whole_commit(*files)
    # a change of shipped code large enough to be worded (medium), titled without a removal
    commit = commit.model_copy(update={"message": "Move the alert jobs to their own module"})
    return analyze(commit)


_BODY = "".join(f"def job_{i}(x):\n    return x + {i}\n" for i in range(12))


def test_a_dropped_re_export_is_worded_with_its_origin_and_never_breaking() -> None:
    a = _analysis((ALERTS, EXPORTING + _BODY, NOT_EXPORTING + _BODY))
    assert not a.breaking
    assert a.risks == []
    said = " ".join(
        [a.summary, *(v for v in (a.insights.model_dump() if a.insights else {}).values() if v)]
    )
    assert (
        "`pkg/jobs/alerts.py` no longer re-exports `PERIOD` (still defined in `pkg.store.ledger`)."
        in said
    )
    assert "Removes `PERIOD`" not in said


def test_an_alias_dropped_says_the_name_its_origin_has() -> None:
    a = _analysis(
        ("pkg/api.py", "from pkg.io import save as store\n__all__ = ['store']\n" + _BODY, _BODY),
    )
    assert not a.breaking
    assert a.summary == (
        "`pkg/api.py` no longer re-exports `store` (still defined in `pkg.io` as `save`)."
    )


def test_the_same_name_gone_everywhere_is_still_a_breaking_removal() -> None:
    a = _analysis((ALERTS, EXPORTING, NOT_EXPORTING), (LEDGER, LEDGER_TEXT, 'PREFIX = "a"\n'))
    assert a.breaking
    assert any("`PERIOD`" in r.description for r in a.risks)


def test_a_name_removed_where_it_was_defined_is_removed_there_not_from_its_re_exporter() -> None:
    # 0d7bc21: `OfflineError` was defined in clone.py and listed in offline.py's `__all__`;
    # both lost it. One fact, with the defining file's path, for the summary and the risk.
    clone = "class OfflineError(Exception):\n    pass\n\n" + _BODY
    offline = "from pkg.cli.clone import OfflineError, run\n__all__ = ['OfflineError', 'run']\n"
    files = [
        ("pkg/cli/clone.py", clone, _BODY),
        ("pkg/cli/offline.py", offline + _BODY, "from pkg.cli.clone import run\n" + _BODY),
    ]
    facts = read_facts(whole_commit(*files))
    assert [(n.name, n.path) for n in facts.exports_removed] == [
        ("OfflineError", "pkg/cli/clone.py")
    ]
    assert facts.reexports_dropped == ()
    a = _analysis(*files)
    assert a.breaking
    assert a.summary == "Removes `OfflineError` from `pkg/cli/clone.py`."
    assert [r.description for r in a.risks] == ["Removes `OfflineError` from `pkg/cli/clone.py`."]
