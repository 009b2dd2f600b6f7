"""Breaks read from both whole texts of a single-module package shaped like xmltodict's
2025-09 commits: a new exception from the expat hooks `parse` sets by default (c986d2d), an
exception class changed (25b61a4), `__version__` removed (8861d29), and a `refactor!` title
whose code removes no public name (7364427); each a clone, every claim checked against it."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.analysis.daynames import day_names
from bot.analysis.rules import analyze
from bot.cli.claim_check import Verdict
from bot.models import Importance
from tests.clones import checked_entry, second_commit

pytestmark = pytest.mark.usefixtures("environ_clean", "keep_test_logging")

SETUP = """from setuptools import setup

setup(
    name="xmltodict",
    version="1.0.0",
    python_requires=">=3.9",
    py_modules=["xmltodict"],
{extra})
"""

MODULE = '''"""Makes working with XML feel like you are working with JSON"""
from xml.parsers import expat
{head}

class ParsingInterrupted(Exception):
    pass


def parse(xml_input, encoding=None, expat=expat, disable_entities={default}):
    """Parse the given XML input and convert it into a dictionary."""
    parser = expat.ParserCreate(encoding)
    parser.buffer_text = True
    if disable_entities:
{hooks}
    parser.Parse(xml_input, True)
    return {{}}


def unparse(input_dict):
    """Emit an XML document for the given `input_dict`."""
    return _emit(input_dict)


def _emit(value):
    if not isinstance(value, dict):
        raise ValueError("document with multiple roots")
    return str(value)
'''

IGNORING = """        # Anything not handled ends up here and entities aren't expanded.
        parser.DefaultHandler = lambda x: None
        # Expects an integer return; zero means failure -> expat.ExpatError.
        parser.ExternalEntityRefHandler = lambda *x: 1"""

REFUSING = """        def _forbid_entities(*_args, **_kwargs):
            raise {exception}("{message}")

        def _forbid_entities_default(text):
            if text.lstrip().startswith('<!'):
                _forbid_entities()

        parser.DefaultHandler = _forbid_entities_default
        parser.EntityDeclHandler = _forbid_entities
        parser.ExternalEntityRefHandler = _forbid_entities"""

ENTITY_DECL = """        def _forbid_entities(*_args, **_kwargs):
            raise {exception}("{message}")

        parser.EntityDeclHandler = _forbid_entities"""

VERSION = '__author__ = "Martin Blech"\n__version__ = "1.0.0"\n__license__ = "MIT"\n'


def _files(
    hooks: str, *, default: str = "True", head: str = VERSION, setup: str = ""
) -> dict[str, str | None]:
    return {
        "xmltodict.py": MODULE.format(head=head, default=default, hooks=hooks),
        "setup.py": SETUP.format(extra=setup),
    }


def _refusing(exception: str = "expat.ExpatError", message: str = "entities are disabled") -> str:
    return REFUSING.format(exception=exception, message=message)


def _no_false(verdicts: list[Verdict]) -> None:
    assert Verdict.FALSE not in verdicts


def test_a_hook_set_by_default_that_now_raises_is_a_break(tmp_path: Path) -> None:
    analysis, verdicts = checked_entry(
        tmp_path,
        _files(IGNORING),
        _files(_refusing(message="xmltodict.parse(): entities are disabled")),
        "fix: fail closed when entities disabled",
    )
    assert analysis.breaking and analysis.importance is Importance.HIGH
    risk = analysis.risks[0]
    assert risk.description == (
        '`parse` now raises `expat.ExpatError("xmltodict.parse(): entities are disabled")`, '
        "when `disable_entities` holds, as it does by default."
    )
    # the two hooks that ignored input at the parent are named as what made it pass
    assert risk.consequence is not None
    assert (
        "At the parent `parser.DefaultHandler`, `parser.ExternalEntityRefHandler` raised nothing"
        in risk.consequence
    )
    _no_false(verdicts)


def test_the_same_raise_off_the_default_path_is_news_not_a_break(tmp_path: Path) -> None:
    # `disable_entities=False`: the hooks are set only for callers who ask
    analysis, verdicts = checked_entry(
        tmp_path,
        _files(IGNORING, default="False"),
        _files(_refusing(), default="False"),
        "fix: fail closed when entities disabled",
    )
    assert not analysis.breaking
    assert analysis.importance is Importance.MEDIUM
    said = [r.description for r in analysis.risks]
    assert (
        '`parse` now raises `expat.ExpatError("entities are disabled")`, when `disable_entities`.'
        in said
    )
    _no_false(verdicts)


def test_a_hook_the_parent_never_set_proves_no_input_it_accepted(tmp_path: Path) -> None:
    # the parent set no hook at all: what expat did with a DOCTYPE is not in the repository
    analysis, verdicts = checked_entry(
        tmp_path,
        _files("        pass"),
        _files(ENTITY_DECL.format(exception="expat.ExpatError", message="entities are disabled")),
        "fix: refuse entity declarations",
    )
    assert not analysis.breaking
    assert analysis.importance is not Importance.HIGH
    assert any("now raises `expat.ExpatError(" in r.description for r in analysis.risks)
    _no_false(verdicts)


def test_a_raise_of_another_class_at_the_same_site_breaks_except_clauses(
    tmp_path: Path,
) -> None:
    analysis, verdicts = checked_entry(
        tmp_path,
        _files(ENTITY_DECL.format(exception="expat.ExpatError", message="entities are disabled")),
        _files(ENTITY_DECL.format(exception="ValueError", message="entities are disabled")),
        "fix: allow DOCTYPE with disable_entities=True (default)",
    )
    assert analysis.breaking and analysis.importance is Importance.HIGH
    risk = analysis.risks[0]
    assert risk.description == (
        "`parse` now raises `ValueError` (was `expat.ExpatError`) from "
        "`parser.EntityDeclHandler`, when `disable_entities`."
    )
    assert risk.consequence == (
        "Code that wraps `parse` in `except expat.ExpatError` now lets it through: "
        "`ValueError` is no subclass of `expat.ExpatError`."
    )
    _no_false(verdicts)


def test_a_subclass_of_the_old_exception_breaks_no_except_clause(tmp_path: Path) -> None:
    head = VERSION + "\n\nclass EntitiesDisabled(expat.ExpatError):\n    pass\n"
    analysis, _ = checked_entry(
        tmp_path,
        _files(
            ENTITY_DECL.format(exception="expat.ExpatError", message="entities are disabled"),
            head=head,
        ),
        _files(
            ENTITY_DECL.format(exception="EntitiesDisabled", message="entities are disabled"),
            head=head,
        ),
        "refactor: a class of its own for disabled entities",
    )
    assert not analysis.breaking
    assert not any("(was `expat.ExpatError`)" in r.description for r in analysis.risks)


def test_module_metadata_removed_from_a_declared_module_is_a_break(tmp_path: Path) -> None:
    # (the change edits `setup.py`, whose `py_modules` shows `xmltodict.py` is installed)
    analysis, verdicts = checked_entry(
        tmp_path,
        _files(IGNORING),
        _files(IGNORING, head="", setup="    zip_safe=False,\n"),
        "build: migrate packaging to pyproject",
    )
    assert analysis.breaking and analysis.importance is Importance.HIGH
    risk = analysis.risks[0]
    assert risk.description == (
        "Removes `__version__`, `__author__`, `__license__` from `xmltodict.py`."
    )
    assert risk.consequence == (
        "Reading `xmltodict.__version__`, `xmltodict.__author__`, `xmltodict.__license__` "
        "now raises `AttributeError`."
    )
    _no_false(verdicts)


def test_a_version_read_from_the_installed_metadata_is_not_removed(tmp_path: Path) -> None:
    moved = (
        "from importlib.metadata import version\n\n"
        '__author__ = "Martin Blech"\n__version__ = version("xmltodict")\n__license__ = "MIT"\n'
    )
    analysis, _ = checked_entry(
        tmp_path,
        _files(IGNORING),
        _files(IGNORING, head=moved, setup="    zip_safe=False,\n"),
        "build: version from metadata",
    )
    assert not analysis.breaking
    assert not any("AttributeError" in (r.consequence or "") for r in analysis.risks)


def test_a_top_level_module_no_packaging_declares_is_not_said(tmp_path: Path) -> None:
    # without a packaging file in the change, `tool.py` is not shown to be installed
    before = {"tool.py": VERSION + "\n\ndef main():\n    return 0\n"}
    after = {"tool.py": "\n\ndef main():\n    return 0\n"}
    analysis, _ = checked_entry(tmp_path, before, after, "chore: drop metadata")
    assert not analysis.breaking


def test_a_bang_title_whose_code_removes_no_public_name_is_medium(tmp_path: Path) -> None:
    legacy = VERSION + "_dict = dict\n"
    analysis, verdicts = checked_entry(
        tmp_path,
        {**_files(IGNORING, head=legacy), "ez_setup.py": "def use_setuptools():\n    pass\n"},
        {**_files(IGNORING, setup="    zip_safe=False,\n"), "ez_setup.py": None},
        "refactor!: modernize for Python 3.9+; drop legacy compat paths",
    )
    assert analysis.breaking
    assert analysis.importance is Importance.MEDIUM
    assert [r.description for r in analysis.risks] == [
        "The title marks this change as breaking (`refactor!`); the code removes no public "
        "name from the modules it ships and the Python requirement is unchanged (`>=3.9`)."
    ]
    _no_false(verdicts)


def test_a_bang_title_that_removes_a_public_function_says_no_more(tmp_path: Path) -> None:
    # `unparse` goes: the mark stands, and nothing is said to be kept
    gone = _files(IGNORING)
    text = gone["xmltodict.py"] or ""
    start = text.index("def unparse")
    gone["xmltodict.py"] = text[:start] + text[text.index("def _emit") :]
    gone["setup.py"] = SETUP.format(extra="    zip_safe=False,\n")
    analysis, _ = checked_entry(tmp_path, _files(IGNORING), gone, "refactor!: drop unparse")
    assert analysis.breaking
    assert not any("removes no public name" in r.description for r in analysis.risks)


HELPERS = '''"""Emit XML."""


def unparse(input_dict):
    """Emit an XML document for the given `input_dict`."""
    return _emit(input_dict)


def _emit(value):
    for key in value:
        _validate_name(key)
    return str(value)


def _validate_name(value):
    if not isinstance(value, str):
{checks}    return value
'''
CHECKS = (
    '        raise ValueError(f"{value} name must be a string")\n'
    '    if "<" in value:\n'
    """        raise ValueError("Invalid element name: '<' not allowed")\n"""
)


def _helpers(checks: str, *, also: str = "") -> dict[str, str | None]:
    return {
        "xmltodict.py": HELPERS.format(checks=checks) + also,
        "setup.py": SETUP.format(extra=""),
    }


def test_raises_a_private_helper_reaches_are_news_said_once(tmp_path: Path) -> None:
    # xmltodict f98c90f: `unparse` reaches `_validate_name` through `_emit`, which now raises
    # with two messages; no hook, no default proven to reach them: medium, not breaking
    analysis, verdicts = checked_entry(
        tmp_path,
        _helpers("        return value\n"),
        _helpers(CHECKS),
        "Enhance unparse() XML name validation",
    )
    assert not analysis.breaking
    assert analysis.importance is Importance.MEDIUM
    raised = [r for r in analysis.risks if r.description.startswith("`unparse` now raises")]
    assert [(r.description, r.consequence) for r in raised] == [
        (
            '`unparse` now raises `ValueError("{…} name must be a string")`, '
            "or with 1 other message.",
            "`_validate_name` raises it.",
        )
    ]
    _no_false(verdicts)


def test_a_helper_another_public_function_calls_is_no_path_of_one(tmp_path: Path) -> None:
    # `check` reads `_validate_name` too: what it raises is no news of `unparse` alone, and
    # `check` itself did not change
    also = "\n\ndef check(value):\n    return _validate_name(value)\n"
    analysis, _ = checked_entry(
        tmp_path,
        _helpers("        return value\n", also=also),
        _helpers(CHECKS, also=also),
        "Enhance XML name validation",
    )
    assert not any(r.description.startswith("`unparse` now raises") for r in analysis.risks)


def test_a_proven_raise_break_is_one_no_name_added_the_same_day_settles(tmp_path: Path) -> None:
    # the day's netting (`digest/sameday.py`) un-breaks a commit whose every break is a name
    # added earlier that day: a changed exception class is no such name
    _, commit = second_commit(
        tmp_path,
        _files(ENTITY_DECL.format(exception="expat.ExpatError", message="entities are disabled")),
        _files(ENTITY_DECL.format(exception="ValueError", message="entities are disabled")),
        "fix: allow DOCTYPE with disable_entities=True (default)",
    )
    analysis = analyze(commit)
    assert analysis.breaking
    assert day_names(commit, analysis).other
