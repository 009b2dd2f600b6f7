"""The one item a commit adds to its changelog is its summary, before any line of its body;
Sphinx's issue roles read as their links do; a line that only credits is never a summary.
wrapt 5848404 said "Remove the spurious Py_INCREF so the reference count is balanced." where
its `docs/changes.rst` item says what users had: "Fixed a reference leak in the C
implementation of `__round__` …"; marshmallow 99103a6's item read "Fix memory leak … GC'd
(). Thanks  for the PR." where it wrote `(:pr:`2277`)` and `:user:`mrcljx``."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.analysis.messages import changelog_entry
from bot.analysis.roles import issue_roles
from bot.analysis.summary import credit_only, summary_from
from bot.cli.claim_check import Verdict
from bot.models import FileChange
from tests.clones import checked_entry

pytestmark = pytest.mark.usefixtures("environ_clean", "keep_test_logging")


@pytest.mark.parametrize(
    ("text", "read"),
    [
        ("GC'd (:pr:`2277`).", "GC'd (#2277)."),
        ("(:issue:`1721`, :issue:`1732`)", "(#1721, #1732)"),
        ("Thanks :user:`mrcljx` for the PR.", "Thanks @mrcljx for the PR."),
        # sphinx-issues' forms: a title before the target, several in one role, another
        # repository's issue, an advisory
        (":user:`Steven Loria <sloria>`", "@sloria"),
        (":issue:`12, 13`", "#12, #13"),
        (":issue:`sloria/konch#42`", "sloria/konch#42"),
        (":ghsa:`cpwx-vrp4-4pq7`", "GHSA-cpwx-vrp4-4pq7"),
        (":meth:`Schema.load`", ":meth:`Schema.load`"),
    ],
)
def test_issue_roles_read_as_their_links(text: str, read: str) -> None:
    assert issue_roles(text) == read


def test_a_changelog_item_keeps_its_roles_numbers() -> None:
    # marshmallow 99103a6's CHANGELOG.rst item
    patch = (
        "@@ -5,6 +5,8 @@ Bug fixes:\n"
        " \n"
        "+- Fix memory leak that prevented schema instances from getting GC'd (:pr:`2277`).\n"
        "+  Thanks :user:`mrcljx` for the PR.\n"
        " - Older.\n"
    )
    entry = changelog_entry([FileChange(filename="CHANGELOG.rst", status="modified", patch=patch)])
    assert "(#2277)" in entry and "@mrcljx" in entry
    assert "()" not in entry and "Thanks  for" not in entry


@pytest.mark.parametrize(
    ("line", "credit"),
    [
        ("Reported by @travnick.", True),
        ("Originally reported by @alice in #12.", True),
        ("Patch by @bob, reported by @carol.", True),
        ("Bug found by Jane Doe.", True),
        ("Thanks to @yarsanich for reporting.", True),
        ("Co-authored-by: Steven Loria <sloria1@gmail.com>", True),
        # how, not who: a name's place taken by words of the change
        ("Fixed by using a lock around the cache.", False),
        ("Raised by `Parser.read` when the file is empty.", False),
        ("By default the parser now reads empty files.", False),
        ("Reported by @alice, fixes a crash when the parser reads an empty file.", False),
    ],
)
def test_a_line_that_only_credits(line: str, credit: bool) -> None:
    assert credit_only(line) is credit


def test_a_credit_is_never_the_summary() -> None:
    title = "Fix error message (#2246)"
    assert summary_from(["Reported by @travnick in #2245."], title, limit=200) is None
    said = summary_from(
        ["Reported by @travnick.", "The message names the field's class now."], title, limit=200
    )
    assert said == "The message names the field's class now."


CHANGES = "Version 2.2.0\n-------------\n\n* Older.\n\nVersion 2.1.2\n-------------\n"
ITEM = (
    "* Fixed a reference leak in the C implementation of ``__round__`` on\n"
    "  ``ObjectProxy``. Each call to ``round()`` on a proxy was leaking one\n"
    "  reference to the ``builtins.round`` function due to a spurious\n"
    "  ``Py_INCREF`` that was not balanced by a matching ``Py_DECREF``.\n\n"
)
ROUND = (
    "static PyObject *WraptObjectProxy_round(WraptObjectProxyObject *self)\n{\n"
    '    PyObject *round = PyObject_GetAttrString(module, "round");\n'
    "    Py_INCREF(round);\n"
    "    result = PyObject_CallFunctionObjArgs(round, self->wrapped, NULL);\n"
    "    Py_DECREF(round);\n    return result;\n}\n"
)
BODY = (
    "Fix reference leak in C implementation of __round__ on ObjectProxy\n\n"
    "WraptObjectProxy_round called Py_INCREF on the result of\n"
    'PyObject_GetAttrString(module, "round"), but PyObject_GetAttrString\n'
    "already returns a new reference. Only one Py_DECREF followed, leaking\n"
    "one reference to builtins.round on every call. Remove the spurious\n"
    "Py_INCREF so the reference count is balanced.\n\nCloses #322\n"
)


@pytest.mark.parametrize(
    ("message", "summary"),
    [
        # wrapt 5848404: the body's own statement, in the code's terms, gives way
        (BODY, "Fixed a reference leak in the C implementation of `__round__` on `ObjectProxy`."),
        # a body that only credits the reporter (shaped like marshmallow 8f493e66's)
        (
            "Fix reference leak (#323)\n\nReported by @travnick.",
            "Fixed a reference leak in the C implementation of `__round__` on `ObjectProxy`.",
        ),
    ],
)
def test_the_one_changelog_item_is_the_summary(tmp_path: Path, message: str, summary: str) -> None:
    analysis, verdicts = checked_entry(
        tmp_path,
        {"docs/changes.rst": CHANGES, "src/wrapt/_wrappers.c": ROUND},
        {
            "docs/changes.rst": CHANGES.replace("* Older.\n\n", "* Older.\n\n" + ITEM),
            "src/wrapt/_wrappers.c": ROUND.replace("    Py_INCREF(round);\n", ""),
        },
        message,
    )
    assert analysis.summary.startswith(summary)
    assert "Remove the spurious" not in analysis.summary
    assert "Reported by" not in analysis.summary
    assert Verdict.FALSE not in verdicts
