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
        # PEP 8: an imported name is the module's implementation detail, its `__all__`
        # notwithstanding; the origin, which declares no `__all__`, removed a constant
        "the origin read whole no longer has it: the origin's removal, no export lost",
        [(ALERTS, EXPORTING, NOT_EXPORTING), (LEDGER, LEDGER_TEXT, 'PREFIX = "a"\n')],
        [],
        [],
    ),
    (
        "a private origin lost it: the module that exported it was its public path, not skipped",
        [
            (ALERTS, *(t.replace(".ledger", "._ledger") for t in (EXPORTING, NOT_EXPORTING))),
            ("pkg/store/_ledger.py", LEDGER_TEXT, 'PREFIX = "a"\n'),
        ],
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


def test_a_re_exported_name_gone_everywhere_breaks_callers_only_through_a_front_door() -> None:
    # a module's re-export of another public module's name is its implementation detail
    # (PEP 8): the constant's removal is said, no break; through a package's `__init__`,
    # the name's public path, it is a break
    plain = _analysis((ALERTS, EXPORTING, NOT_EXPORTING), (LEDGER, LEDGER_TEXT, 'PREFIX = "a"\n'))
    assert not plain.breaking
    assert plain.summary == "Removes `PERIOD` from `pkg/store/ledger.py`."
    front = _analysis(
        (
            "src/pkg/__init__.py",
            "from .layers import Rotary, job_1\n__all__ = ['Rotary', 'job_1']\n",
            "from .layers import job_1\n__all__ = ['job_1']\n",
        ),
        ("src/pkg/layers.py", "class Rotary:\n    pass\n\n" + _BODY, _BODY),
    )
    assert front.breaking
    assert [r.description for r in front.risks] == ["Removes `Rotary` from `src/pkg/layers.py`."]


def test_a_name_removed_where_it_was_defined_is_removed_there_not_from_its_re_exporter() -> None:
    # 0d7bc21: `OfflineError` was defined in clone.py (no `__all__`) and listed in
    # offline.py's `__all__`, which imported it; both lost it. One fact, with the defining
    # file's path; no break: the import was offline.py's implementation detail (PEP 8).
    clone = "class OfflineError(Exception):\n    pass\n\n" + _BODY
    offline = "from pkg.cli.clone import OfflineError, run\n__all__ = ['OfflineError', 'run']\n"
    files = [
        ("pkg/cli/clone.py", clone, _BODY),
        ("pkg/cli/offline.py", offline + _BODY, "from pkg.cli.clone import run\n" + _BODY),
    ]
    facts = read_facts(whole_commit(*files))
    assert facts.exports_removed == ()
    assert facts.reexports_dropped == ()
    assert [(n.name, n.path) for n in facts.removed] == [("OfflineError", "pkg/cli/clone.py")]
    a = _analysis(*files)
    assert not a.breaking
    assert a.risks == []
    assert a.summary == "Removes `OfflineError` from `pkg/cli/clone.py`."


def test_a_name_its_own_module_declares_in_all_is_a_break_when_removed() -> None:
    # a library's module that lists its own class in `__all__` (PEP 8's declared API)
    a = _analysis(
        (
            "src/pkg/validators.py",
            "__all__ = ['Rotary', 'job_1']\nclass Rotary:\n    pass\n\n" + _BODY,
            "__all__ = ['job_1']\n" + _BODY,
        )
    )
    assert a.breaking
    assert [r.description for r in a.risks] == ["Removes `Rotary` from `src/pkg/validators.py`."]
