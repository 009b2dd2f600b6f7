"""The summary says what users get (issue 27, xmltodict readers): a body's effect bullet,
not its test, doc, credit or helper bullets; with no body, what the code now raises."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.analysis.messages import description_paragraphs
from bot.analysis.summary import summary_from
from bot.cli.claim_check import Verdict
from bot.cli.claims import Kind, claims_in
from bot.cli.claims_eval import entry_text
from tests.clones import checked_entry, second_commit, verdicts_of

pytestmark = pytest.mark.usefixtures("environ_clean", "keep_test_logging")


def summary(body: str, title: str) -> str | None:
    return summary_from(description_paragraphs(body, items=True), title, limit=400)


@pytest.mark.parametrize(
    ("title", "body", "expected"),
    [
        # 220240c: the effect first; the tests it claims (two came in 8a2c93e) and the
        # credit are no summary
        (
            "fix(streaming): avoid parent accumulation at item_depth; add regression tests",
            "- Emit and drop items at item_depth in streaming mode to restore low memory usage.\n"
            "- Add tracemalloc-based memory regression test, plus tests for return None and "
            "comments/attrs in streaming.\n"
            "- Fixes #365, #369. Credit: @bigpick (see PR #370).\n",
            "Emit and drop items at item_depth in streaming mode to restore low memory usage.",
        ),
        # e43537e: "Emit `#comment` at any depth" leads; "Use `X` for output" is how
        (
            "feat(unparse): add limited XML comment round-trip; unify `_emit` behavior",
            "- Emit `#comment` at any depth via `_emit`, preserving dict order\n"
            "- Support top-level comments without tripping multiple roots (lazy validation)\n"
            "- Use `_XMLGenerator.comment` for output\n"
            "- Add tests for element/top-level comments and round-trip behavior\n",
            "Emit `#comment` at any depth via `_emit`, preserving dict order; Support "
            "top-level comments without tripping multiple roots (lazy validation).",
        ),
        # a497fed: the private helper, the tests and the docs go
        (
            "feat(unparse): add selective `force_cdata` support (bool/tuple/callable)",
            "- Add _should_force_cdata method similar to _should_force_list\n"
            "- Support tuple of element names and callable functions for force_cdata\n"
            "- Maintain full backwards compatibility with boolean values\n"
            "- Add comprehensive tests for all force_cdata scenarios\n"
            "- Update documentation with consistent examples for force_cdata and force_list\n"
            "\nFixes #375\n",
            "Support tuple of element names and callable functions for force_cdata; Maintain "
            "full backwards compatibility with boolean values.",
        ),
        # 927a025: a helper "to eliminate duplicated conversion logic" is the insides
        (
            "fix(unparse): handle non-string `#text` with attributes; unify value conversion",
            "- Fix TypeError when #text contains non-string values (int, float, bool) with "
            "attributes\n"
            "- Add _convert_value_to_string() helper to eliminate duplicated conversion logic\n"
            "- Ensure consistent boolean conversion (lowercase) for both plain and #text values\n"
            "- Add comprehensive test coverage for GitHub issue #366\n\nFixes #366\n",
            "Fix TypeError when #text contains non-string values (int, float, bool) with "
            "attributes; Ensure consistent boolean conversion (lowercase) for both plain and "
            "#text values.",
        ),
        # f0322e5: "Always attach …" says what users get; "all tests pass" says nothing
        (
            "fix(namespaces): attach `@xmlns` to declaring element when process_namespaces=True",
            "- Always attach @xmlns to the declaring element in startElement\n"
            "- Prevent moving @xmlns to the first child with attributes\n"
            "- Add regression test for root with default namespace; all tests pass\n",
            "Always attach @xmlns to the declaring element in startElement; Prevent moving "
            "@xmlns to the first child with attributes.",
        ),
        # a feature's bullet before a fix's stays beside it: what users get, both
        (
            "cli: two changes",
            "- Add a `--dry-run` flag that prints the plan\n- Fix a crash when the config is "
            "empty\n- Add tests for both\n",
            "Fix a crash when the config is empty; Add a `--dry-run` flag that prints the plan.",
        ),
    ],
)
def test_the_summary_is_the_bullet_of_what_users_get(title: str, body: str, expected: str) -> None:
    assert summary(body, title) == expected


def test_a_body_of_test_and_doc_bullets_only_is_no_summary() -> None:
    # nothing in it says what changes for a user: the code's facts speak instead
    body = "- Add tests for the parser\n- Update documentation\n- Credit: @someone\n"
    assert summary(body, "parser: follow-ups") is None


# xmltodict's `unparse` path, shortened: `_emit` hands comments to the generator
UNPARSE = (
    "from xml.sax.saxutils import XMLGenerator, escape\n\n\n"
    "def _emit(key, value, content_handler, comment_key='#comment'):\n"
    "    for comment_text in value.get(comment_key, ()):\n"
    "        if comment_text == '':\n"
    "            continue\n"
    "        content_handler.comment(comment_text)\n\n\n"
    "class _XMLGenerator(XMLGenerator):\n"
    "    def comment(self, text):\n"
    '        self._write(f"<!--{escape(text)}-->")\n\n\n'
    "def unparse(input_dict, output):\n"
    "    handler = _XMLGenerator(output)\n"
    "    for key, value in input_dict.items():\n"
    "        _emit(key, value, handler)\n"
)
VALIDATE = (
    "def _validate_comment(value):\n"
    "    if isinstance(value, bytes):\n"
    "        try:\n"
    '            value = value.decode("utf-8")\n'
    "        except UnicodeDecodeError as exc:\n"
    '            raise ValueError("Comment text must be valid UTF-8") from exc\n'
    "    if not isinstance(value, str):\n"
    '        raise ValueError("Comment text must be a string")\n'
    '    if "--" in value:\n'
    "        raise ValueError(\"Comment text cannot contain '--'\")\n"
    '    if value.endswith("-"):\n'
    "        raise ValueError(\"Comment text cannot end with '-'\")\n"
    "    return value\n\n\n"
)


def test_a_title_only_fix_says_what_its_new_validator_raises(tmp_path: Path) -> None:
    # xmltodict 3d4d2d3 "fix: validate XML comments": the generator now validates each
    # comment, whose validator raises `ValueError` in four places; before, the summary was
    # "`_emit` now tests `not comment_text` (was `comment_text == ''`)"
    after = (
        UNPARSE.replace("class _XMLGenerator", VALIDATE + "class _XMLGenerator")
        .replace(
            "    def comment(self, text):\n",
            "    def comment(self, text):\n        text = _validate_comment(text)\n",
        )
        .replace("if comment_text == '':", "if not comment_text:")
    )
    analysis, verdicts = checked_entry(
        tmp_path, {"xmltodict.py": UNPARSE}, {"xmltodict.py": after}, "fix: validate XML comments"
    )
    assert analysis.summary == (
        "`_XMLGenerator.comment` now calls `_validate_comment`, which raises `ValueError` when "
        "`'--' in value` and in 3 other cases."
    )
    assert verdicts and all(v is Verdict.TRUE for v in verdicts)


PARSE = (
    "from xml.parsers import expat\n\n\n"
    "def parse(xml_input, encoding=None, disable_entities=True):\n"
    "    parser = expat.ParserCreate(encoding)\n"
    "    if disable_entities:\n"
    "{handlers}"
    "    parser.Parse(xml_input, True)\n"
)
IGNORED = (
    "        # Anything not handled ends up here and entities aren't expanded.\n"
    "        parser.DefaultHandler = lambda x: None\n"
    "        parser.ExternalEntityRefHandler = lambda *x: 1\n"
)
FORBIDDEN = (
    "        def _forbid_entities(*_args, **_kwargs):\n"
    '            raise expat.ExpatError("xmltodict.parse(): entities are disabled")\n\n'
    "        parser.EntityDeclHandler = _forbid_entities\n"
    "        parser.StartDoctypeDeclHandler = _forbid_entities\n"
    "        parser.ExternalEntityRefHandler = _forbid_entities\n"
)


def test_a_title_only_fix_says_the_handlers_that_now_raise(tmp_path: Path) -> None:
    # xmltodict c986d2d "fix: fail closed when entities disabled": under the default
    # `disable_entities=True`, `parse` sets expat's DOCTYPE and entity handlers to a closure
    # that raises; the summary was the title again
    analysis, verdicts = checked_entry(
        tmp_path,
        {"xmltodict.py": PARSE.format(handlers=IGNORED)},
        {"xmltodict.py": PARSE.format(handlers=FORBIDDEN)},
        "fix: fail closed when entities disabled",
    )
    assert analysis.summary == (
        "When `disable_entities` (by default `True`), `parse` now sets "
        "`parser.EntityDeclHandler`, `parser.StartDoctypeDeclHandler`, "
        "`parser.ExternalEntityRefHandler` to `_forbid_entities`, which raises "
        "`expat.ExpatError` with “xmltodict.parse(): entities are disabled”."
    )
    # one claim for each handler, each (and every other claim) proven on both sides
    claims, _ = claims_in(analysis.summary)
    assert [c.old for c in claims if c.kind is Kind.SETS_RAISING] == [
        "parser.EntityDeclHandler",
        "parser.StartDoctypeDeclHandler",
        "parser.ExternalEntityRefHandler",
    ]
    assert verdicts and all(v is Verdict.TRUE for v in verdicts)


@pytest.mark.parametrize(
    ("said", "verdict"),
    [
        (
            "When `disable_entities` (by default `True`), `parse` now sets "
            "`parser.EntityDeclHandler` to `_forbid_entities`, which raises `expat.ExpatError` "
            "with “xmltodict.parse(): entities are disabled”.",
            Verdict.TRUE,
        ),
        # a handler the commit does not set
        (
            "`parse` now sets `parser.DefaultHandler` to `_forbid_entities`, which raises "
            "`expat.ExpatError` with “xmltodict.parse(): entities are disabled”.",
            Verdict.FALSE,
        ),
        # another message than the closure's
        (
            "`parse` now sets `parser.EntityDeclHandler` to `_forbid_entities`, which raises "
            "`expat.ExpatError` with “entities are disabled”.",
            Verdict.FALSE,
        ),
        # a default the parameter does not have
        (
            "When `disable_entities` (by default `False`), `parse` now sets "
            "`parser.EntityDeclHandler` to `_forbid_entities`, which raises `expat.ExpatError` "
            "with “xmltodict.parse(): entities are disabled”.",
            Verdict.FALSE,
        ),
        # an `if` the assignment is not under
        (
            "When `encoding`, `parse` now sets `parser.EntityDeclHandler` to `_forbid_entities`, "
            "which raises `expat.ExpatError` with “xmltodict.parse(): entities are disabled”.",
            Verdict.FALSE,
        ),
    ],
)
def test_the_checker_proves_a_handler_that_raises(
    tmp_path: Path, said: str, verdict: Verdict
) -> None:
    root, commit = second_commit(
        tmp_path,
        {"xmltodict.py": PARSE.format(handlers=IGNORED)},
        {"xmltodict.py": PARSE.format(handlers=FORBIDDEN)},
        "fix: fail closed when entities disabled",
    )
    assert verdicts_of(root, commit.sha, said) == [(Kind.SETS_RAISING, verdict)]


def test_the_checker_refuses_a_handler_the_parent_set_already(tmp_path: Path) -> None:
    fewer = FORBIDDEN.replace("        parser.ExternalEntityRefHandler = _forbid_entities\n", "")
    root, commit = second_commit(
        tmp_path,
        {"xmltodict.py": PARSE.format(handlers=FORBIDDEN)},
        {"xmltodict.py": PARSE.format(handlers=fewer)},
        "refactor: fewer handlers",
    )
    said = (
        "`parse` now sets `parser.EntityDeclHandler` to `_forbid_entities`, which raises "
        "`expat.ExpatError` with “xmltodict.parse(): entities are disabled”."
    )
    assert verdicts_of(root, commit.sha, said) == [(Kind.SETS_RAISING, Verdict.FALSE)]


def test_a_handler_that_raised_the_same_before_is_not_news(tmp_path: Path) -> None:
    # the parent already set a closure raising that exception with that message: only the
    # assignments moved (one handler fewer), nothing new raises
    fewer = FORBIDDEN.replace("        parser.ExternalEntityRefHandler = _forbid_entities\n", "")
    analysis, _ = checked_entry(
        tmp_path,
        {"xmltodict.py": PARSE.format(handlers=FORBIDDEN)},
        {"xmltodict.py": PARSE.format(handlers=fewer)},
        "refactor: fewer handlers",
    )
    assert "_forbid_entities`, which raises" not in entry_text(analysis)


EMIT = (
    "def _emit(key, v, handler):\n"
    "    if v is None:\n"
    "        v = {{}}\n"
    "{branch}"
    "    elif not isinstance(v, (dict, str)):\n"
    "        v = str(v)\n"
    "    handler.emit(key, v)\n"
)
BOOL = "    elif isinstance(v, bool):\n        v = 'true' if v else 'false'\n"


def test_a_test_still_read_in_another_condition_is_not_said_gone(tmp_path: Path) -> None:
    # xmltodict 927a025: `_emit` dropped `'true' if v else 'false'` but still tests `v is None`
    # and `isinstance(v, (dict, str))`: "no longer tests `v`" would be false
    analysis, verdicts = checked_entry(
        tmp_path,
        {"xmltodict.py": EMIT.format(branch=BOOL)},
        {"xmltodict.py": EMIT.format(branch="")},
        "fix(unparse): unify value conversion",
    )
    text = entry_text(analysis)
    assert "no longer tests `v`" not in text
    assert "no longer tests `isinstance(v, bool)`" in text
    assert all(v is Verdict.TRUE for v in verdicts)
