"""handed_raises: a closure set as an attribute that raises, new at the commit, and nothing
where the function is the same at both revisions."""

from __future__ import annotations

import ast

from bot.analysis.facts.handlers import handed_raises

BEFORE = "def parse(parser):\n    parser.Parse()\n"
AFTER = (
    "def parse(parser, disable_entities=True):\n"
    "    if disable_entities:\n"
    "        def _forbid(*a):\n"
    '            raise ValueError("entities are disabled")\n'
    "        parser.EntityDeclHandler = _forbid\n"
    "    parser.Parse()\n"
)


def _function(text: str) -> ast.FunctionDef:
    node = ast.parse(text).body[0]
    assert isinstance(node, ast.FunctionDef)
    return node


def test_a_new_raising_closure_set_as_an_attribute_is_said() -> None:
    [found] = handed_raises("parse", "x.py", _function(BEFORE), _function(AFTER))
    assert (found.closure, found.targets) == ("_forbid", ("parser.EntityDeclHandler",))
    assert (found.exception, found.message) == ("ValueError", "entities are disabled")
    assert (found.test, found.default) == ("disable_entities", "True")


def test_one_node_at_both_revisions_hands_out_nothing_new() -> None:
    node = _function(AFTER)
    assert handed_raises("parse", "x.py", node, node) == []


def test_two_parses_alike_but_for_their_lines_hand_out_nothing_new() -> None:
    # the same code moved down the file: only its line numbers differ
    assert handed_raises("parse", "x.py", _function(AFTER), _function("\n\n" + AFTER)) == []
