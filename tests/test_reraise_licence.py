"""A re-raise of the caught class said as its new message (not "may now raise"), a licence
moved to a PEP 639 expression said as such, and a linter's rule applied said internal only:
each on real-shaped commits in a scratch clone, the checker judging the sentences."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.cli.claim_check import Verdict
from bot.cli.claims import Kind
from bot.cli.claims_eval import entry_text
from tests.clones import checked_entry, second_commit, verdicts_of

pytestmark = pytest.mark.usefixtures("environ_clean", "keep_test_logging")

BEFORE = """\
def _normalize(rows, headers=()):
    if hasattr(rows, "keys"):
        return list(rows.values()), headers
    return list(rows), headers


def shown(rows):
    return len(_normalize(rows)[0])
"""

# the parent's `list(rows)` raised TypeError already on `5`; only the message is new
AFTER = """\
def _normalize(rows, headers=()):
    msg = (
        "\\n\\nTo build a table this package requires two-dimensional data "
        "like a list of lists."
    )
    if hasattr(rows, "keys"):
        try:
            return list(rows.values()), headers
        except TypeError:  # not iterable
            raise TypeError(msg)
    try:
        return list(rows), headers
    except TypeError:  # not iterable
        raise TypeError(msg)


def shown(rows):
    return len(_normalize(rows)[0])
"""

MESSAGE = "To build a table this package requires two-dimensional data like a list of lists."


def test_a_reraise_is_said_as_its_message_and_the_checker_holds_it(tmp_path: Path) -> None:
    analysis, verdicts = checked_entry(
        tmp_path, {"pkg/table.py": BEFORE}, {"pkg/table.py": AFTER}, "Improve error reporting"
    )
    text = entry_text(analysis)
    assert "may now raise" not in text
    assert "now catches `TypeError`" not in text
    assert f"now raises `TypeError` with the message “{MESSAGE}” where it let" in text
    assert verdicts and all(v is Verdict.TRUE for v in verdicts)


def test_the_checker_refutes_may_now_raise_for_a_reraise(tmp_path: Path) -> None:
    root, commit = second_commit(
        tmp_path, {"pkg/table.py": BEFORE}, {"pkg/table.py": AFTER}, "Improve error reporting"
    )
    said = verdicts_of(root, commit.sha, "`_normalize` may now raise `TypeError`.")
    assert said == [(Kind.MAY_RAISE, Verdict.FALSE)]
    wrong = f"`_normalize` now raises `TypeError` with the message “{MESSAGE[:20]}x” where it let"
    assert verdicts_of(root, commit.sha, wrong + " `TypeError` through.") == [
        (Kind.RERAISES, Verdict.FALSE)
    ]


def test_a_raise_outside_the_handler_is_still_new(tmp_path: Path) -> None:
    after = AFTER.replace(
        "    try:\n        return list(rows), headers",
        "    if rows is None:\n        raise TypeError('no rows')\n"
        "    try:\n        return list(rows), headers",
    )
    analysis, verdicts = checked_entry(
        tmp_path, {"pkg/table.py": BEFORE}, {"pkg/table.py": after}, "Improve error reporting"
    )
    text = entry_text(analysis)
    assert "where it let" not in text
    assert all(v is not Verdict.FALSE for v in verdicts)


PYPROJECT = """\
[project]
name = "sortly"
license = {text = "MIT"}
classifiers = [
    "Operating System :: OS Independent",
    "License :: OSI Approved :: MIT License",
    "Programming Language :: Python :: 3",
]
"""


def test_a_licence_classifier_dropped_for_an_spdx_expression(tmp_path: Path) -> None:
    after = PYPROJECT.replace('{text = "MIT"}', '"MIT"').replace(
        '    "License :: OSI Approved :: MIT License",\n', ""
    )
    analysis, _ = checked_entry(
        tmp_path, {"pyproject.toml": PYPROJECT}, {"pyproject.toml": after}, "Minor cleanup"
    )
    text = entry_text(analysis)
    assert "The licence is now the SPDX expression `MIT` (was the text `MIT`)" in text
    assert "PEP 639" in text and "Removes the classifier" not in text


def test_a_licence_classifier_dropped_alone_is_still_removed(tmp_path: Path) -> None:
    after = PYPROJECT.replace('    "License :: OSI Approved :: MIT License",\n', "")
    analysis, _ = checked_entry(
        tmp_path, {"pyproject.toml": PYPROJECT}, {"pyproject.toml": after}, "Minor cleanup"
    )
    text = entry_text(analysis)
    assert "Removes the classifier `License :: OSI Approved :: MIT License`" in text
    assert "SPDX" not in text


LOOP = """\
def _flat(nested):
    out = []
    for item in nested:
        out.append(item)
    return out


def flatten(nested):
    return _flat(nested)
"""


@pytest.mark.parametrize(
    ("title", "internal"),
    [
        ("Apply ruff/Perflint rule PERF402", True),
        # the merge of its pull request, read as the pull request's title
        ("Merge pull request #343 from ada/PERF\n\nApply ruff/Perflint rule PERF402", True),
        # a speed-up the author claims is no internal-only change
        ("Apply ruff rule PERF402 for faster copies", False),
    ],
)
def test_a_linter_rule_applied_is_internal_only(tmp_path: Path, title: str, internal: bool) -> None:
    after = LOOP.replace(
        "    out = []\n    for item in nested:\n        out.append(item)\n    return out",
        "    return list(nested)",
    )
    analysis, _ = checked_entry(tmp_path, {"pkg/flat.py": LOOP}, {"pkg/flat.py": after}, title)
    assert analysis.summary.startswith("Internal only:") is internal
