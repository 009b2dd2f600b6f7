"""A public module setting no shipped code reads any more: python-tabulate 422b36e "Replace
constant PRESERVE_WHITESPACE with an argument to tabulate()" dropped `PRESERVE_WHITESPACE =
False` and its three reads in `_align_column_choose_padfn`, while the README still told users
to write `tabulate.PRESERVE_WHITESPACE = True` (landed by the merge 541afc6, which rewrote the
README). Their assignment still runs and silently does nothing. Each case a clone shaped like
the commit (the files trimmed to what the change touches), every sentence checked against it."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.analysis.facts.ignored import called_reads, ignored_settings
from bot.analysis.rules import analyze
from bot.cli.claim_check import Verdict
from bot.cli.claims import Kind
from bot.cli.claims_eval import entry_text
from bot.models import Importance
from tests.clones import checked_entry, second_commit, verdicts_of

pytestmark = pytest.mark.usefixtures("environ_clean", "keep_test_logging")

# tabulate.py at 422b36e^ and at 422b36e, trimmed
BEFORE = '''"""Pretty-print tabular data."""

# minimum extra space in headers
MIN_PADDING = 2

# Whether or not to preserve leading/trailing whitespace in data.
PRESERVE_WHITESPACE = False


def _padleft(width, s):
    return s.rjust(width)


def _align_column_choose_padfn(strings, alignment, has_invisible):
    if alignment == "right":
        if not PRESERVE_WHITESPACE:
            strings = [s.strip() for s in strings]
        padfn = _padleft
    else:
        if not PRESERVE_WHITESPACE:
            strings = [s.strip() for s in strings]
        padfn = _padleft
    return strings, padfn


def tabulate(tabular_data, headers=(), colalign=None):
    """Format a fixed width table for pretty printing."""
    strings, padfn = _align_column_choose_padfn(tabular_data, colalign, False)
    return [padfn(MIN_PADDING, s) for s in strings]
'''
AFTER = '''"""Pretty-print tabular data."""

# minimum extra space in headers
MIN_PADDING = 2


def _padleft(width, s):
    return s.rjust(width)


def _align_column_choose_padfn(strings, alignment, has_invisible, preserve_whitespace):
    if alignment == "right":
        if not preserve_whitespace:
            strings = [s.strip() for s in strings]
        padfn = _padleft
    else:
        if not preserve_whitespace:
            strings = [s.strip() for s in strings]
        padfn = _padleft
    return strings, padfn


def tabulate(tabular_data, headers=(), colalign=None, preserve_whitespace=False):
    """Format a fixed width table for pretty printing."""
    strings, padfn = _align_column_choose_padfn(
        tabular_data, colalign, False, preserve_whitespace
    )
    return [padfn(MIN_PADDING, s) for s in strings]
'''
# README.md at 422b36e (the commit leaves it as it was)
README = """# python-tabulate

### Text formatting

By default, `tabulate` removes leading and trailing whitespace from text
columns. To disable whitespace removal, set the global module-level flag
`PRESERVE_WHITESPACE`:

    import tabulate
    tabulate.PRESERVE_WHITESPACE = True
"""
SETUP = "from setuptools import setup\nsetup(name='tabulate', py_modules=['tabulate'])\n"
TITLE = "Replace constant PRESERVE_WHITESPACE with an argument to tabulate()"
SAID = "Setting `tabulate.PRESERVE_WHITESPACE` no longer has any effect: no shipped code reads it."


def _tree(code: str, readme: str = README) -> dict[str, str | None]:
    return {"tabulate.py": code, "README.md": readme, "setup.py": SETUP}


def test_a_documented_setting_no_code_reads_is_a_break(tmp_path: Path) -> None:
    analysis, verdicts = checked_entry(tmp_path, _tree(BEFORE), _tree(AFTER), TITLE)
    assert analysis.breaking
    assert analysis.importance is Importance.HIGH
    (risk,) = [r for r in analysis.risks if "PRESERVE_WHITESPACE" in r.description]
    assert risk.description == "Removes `PRESERVE_WHITESPACE` from `tabulate.py`."
    assert risk.consequence == SAID
    assert SAID in entry_text(analysis)
    assert verdicts and all(v is Verdict.TRUE for v in verdicts)


def test_an_undocumented_setting_is_said_without_a_break(tmp_path: Path) -> None:
    # the same change where the readme never named the flag: a fact, not a break; removed,
    # it is said as its removal, and kept but unread, as an assignment that does nothing
    readme = "# python-tabulate\n\nPretty-print tabular data.\n"
    analysis, verdicts = checked_entry(
        tmp_path / "a", _tree(BEFORE, readme), _tree(AFTER, readme), TITLE
    )
    assert not analysis.breaking
    assert analysis.importance is Importance.MEDIUM
    assert "Removes `PRESERVE_WHITESPACE` from `tabulate.py`." in entry_text(analysis)
    assert SAID not in entry_text(analysis)
    assert verdicts and all(v is Verdict.TRUE for v in verdicts)
    kept = AFTER.replace("MIN_PADDING = 2\n", "MIN_PADDING = 2\n\nPRESERVE_WHITESPACE = False\n")
    analysis, verdicts = checked_entry(
        tmp_path / "b", _tree(BEFORE, readme), _tree(kept, readme), TITLE
    )
    assert not analysis.breaking
    assert analysis.importance is Importance.MEDIUM
    assert SAID in entry_text(analysis)
    assert verdicts and all(v is Verdict.TRUE for v in verdicts)
    # told of in the readme, kept but unread: the break is the sentence itself
    analysis, verdicts = checked_entry(tmp_path / "c", _tree(BEFORE), _tree(kept), TITLE)
    assert analysis.breaking
    assert SAID in [r.description for r in analysis.risks]
    assert verdicts and all(v is Verdict.TRUE for v in verdicts)


def test_a_merge_says_it_without_the_verdict(tmp_path: Path) -> None:
    # 541afc6 "Merge pull request #342 from astanin/pr-79": the branch's diff, breaking only
    # by its author's words; its proven loss is still said
    message = "Merge pull request #342 from astanin/pr-79\n\npreserve_whitespace as an argument"
    analysis, verdicts = checked_entry(tmp_path, _tree(BEFORE), _tree(AFTER), message)
    assert not analysis.breaking
    assert SAID in entry_text(analysis)
    assert verdicts and all(v is Verdict.TRUE for v in verdicts)


def test_a_setting_read_anywhere_at_the_commit_is_still_read() -> None:
    # python-tabulate 8c73d87 "latex_raw: reuse _latex_row function()": `LATEX_ESCAPE_RULES`
    # is now the default of `escrules`, read at import; a dict changed in place still counts
    before = (
        'LATEX_ESCAPE_RULES = {r"&": r"\\&", r"%": r"\\%"}\n\n\n'
        "def _latex_row(cell_values):\n"
        "    def escape_char(c):\n"
        "        return LATEX_ESCAPE_RULES.get(c, c)\n"
        "    return [escape_char(c) for c in cell_values]\n"
    )
    after = (
        'LATEX_ESCAPE_RULES = {r"&": r"\\&", r"%": r"\\%"}\n\n\n'
        "def _latex_row(cell_values, escrules=LATEX_ESCAPE_RULES):\n"
        "    def escape_char(c):\n"
        "        return escrules.get(c, c)\n"
        "    return [escape_char(c) for c in cell_values]\n"
    )
    assert "LATEX_ESCAPE_RULES" in called_reads(before, "tabulate.py")
    assert "LATEX_ESCAPE_RULES" not in called_reads(after, "tabulate.py")
    assert ignored_settings("tabulate.py", before, after, [], []) == []
    # read by another shipped module (`tabulate.PRESERVE_WHITESPACE`), or a local of the
    # same name only: no setting lost; a function's own local never counted as a read
    other = "import tabulate\n\ndef f():\n    return tabulate.PRESERVE_WHITESPACE\n"
    assert ignored_settings("tabulate.py", BEFORE, AFTER, [other], []) == []
    local = "X = 1\n\ndef f(X):\n    return X\n"
    assert called_reads(local, "m.py") == set()
    # natsort be8d85e "Simplify types": a type alias a function read in a `cast` is no
    # setting anyone sets
    alias = (
        "from typing import Any, Iterable, Union, cast\n\n"
        "NatsortIterType = Iterable[Union[str, Iterable[Any]]]\n\n\n"
        "def natsort_key(val):\n    return [x for x in cast(NatsortIterType, val)]\n"
    )
    simpler = alias.replace("cast(NatsortIterType, val)", "val").replace(
        "NatsortIterType = Iterable[Union[str, Iterable[Any]]]\n", ""
    )
    assert ignored_settings("natsort/utils.py", alias, simpler, [], []) == []
    (found,) = ignored_settings("tabulate.py", BEFORE, AFTER, [], [README])
    assert (found.name, found.removed, found.documented) == ("PRESERVE_WHITESPACE", True, True)


def test_the_checker_refutes_what_the_code_does_not_prove(tmp_path: Path) -> None:
    root, commit = second_commit(tmp_path, _tree(BEFORE), _tree(AFTER), TITLE)
    cases = {
        SAID: True,
        # still read at the commit; never bound by the module; no such module
        "Setting `tabulate.MIN_PADDING` no longer has any effect: no shipped code reads it.": False,
        "Setting `tabulate.PRESERVE_SPACE` no longer has any effect: no shipped code reads it.": (
            False
        ),
        "Setting `tabular.PRESERVE_WHITESPACE` no longer has any effect: no shipped code reads"
        " it.": False,
    }
    for sentence, holds in cases.items():
        (kind, verdict), *_ = verdicts_of(root, commit.sha, sentence)
        assert kind is Kind.SETTING_IGNORED, sentence
        assert (verdict is Verdict.TRUE) is holds, sentence
    # read by a function at the commit through `global`: still read
    kept = AFTER.replace(
        "def _padleft(width, s):\n",
        "PRESERVE_WHITESPACE = False\n\n\ndef _padleft(width, s):\n"
        "    global PRESERVE_WHITESPACE\n    if PRESERVE_WHITESPACE:\n        return s\n",
    )
    root, commit = second_commit(tmp_path / "kept", _tree(BEFORE), _tree(kept), TITLE)
    (_, verdict), *_ = verdicts_of(root, commit.sha, SAID)
    assert verdict is Verdict.FALSE
    assert analyze(commit).breaking is False
