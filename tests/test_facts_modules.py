"""A module's text parsed once for its readers, and a tree's nodes and statements walked quickly
(`facts/modules.py`): each gives what `ast.parse` and `ast.walk` give."""

from __future__ import annotations

import ast
import re

import pytest

from bot.analysis.facts.commands import command_names
from bot.analysis.facts.forwarded import forwarded_options
from bot.analysis.facts.listed import _bound
from bot.analysis.facts.modules import (
    binds_all,
    breadth,
    children,
    listed_strings,
    module_tree,
    statements,
    trees_kept,
)

CODE = '''
import os
from typing import Any as A

x: int = 1


class C(Base, metaclass=M):
    """Doc."""

    def m(self, a, *args, b=2, **kwargs):
        try:
            y = [i for i in a if (z := i)]
        except (OSError, KeyError) as error:
            global g
            raise ValueError(error) from None
        else:
            while y:
                y.pop()
        finally:
            del y
        match a:
            case {"k": v, **rest}:
                def inner(q):
                    global h
                    return lambda: q
            case [first, *others]:
                pass
        return kwargs


async def f():
    async with open_it() as (o, p):
        async for item in o:
            yield item
'''


def test_a_text_is_parsed_once_within_the_block_and_its_tree_shared():
    with trees_kept():
        tree = module_tree(CODE)
        assert module_tree(CODE) is tree
        assert ast.dump(tree) == ast.dump(ast.parse(CODE))
    # outside it (a new period's analysis, a benchmark's next round), parsed anew
    assert module_tree(CODE) is not tree
    with trees_kept():
        assert module_tree(CODE) is not tree


def test_a_text_that_does_not_parse_raises_what_parsing_it_raises_each_time():
    for text in ("def f(:\n", "x = 1\0"):
        with pytest.raises((SyntaxError, ValueError)) as parsed:
            ast.parse(text)
        with trees_kept():
            for _ in range(2):
                with pytest.raises(type(parsed.value), match=re.escape(str(parsed.value))):
                    module_tree(text)


def test_a_breadth_first_walk_of_a_body_is_one_queue_as_ast_walk_goes():
    body = ast.parse(CODE).body
    queue, at = list(body), 0
    while at < len(queue):
        queue += ast.iter_child_nodes(queue[at])
        at += 1
    assert breadth(body) == queue
    assert breadth([body[3]]) == list(ast.walk(body[3]))
    assert breadth([body[3].body[1]]) == list(ast.walk(body[3].body[1]))


def test_a_nodes_children_are_those_ast_gives_in_its_order():
    for node in ast.walk(ast.parse(CODE)):
        assert children(node) == list(ast.iter_child_nodes(node))


def test_the_statements_are_those_ast_walk_gives_in_its_order():
    tree = ast.parse(CODE)
    for node in (tree, tree.body[3], tree.body[4]):
        kinds = (ast.stmt, ast.excepthandler, ast.match_case)
        expected = [n for n in ast.walk(node) if n is node or isinstance(n, kinds)]
        assert list(statements(node)) == expected


def test_a_global_in_a_nested_scope_binds_the_modules_name():
    # `global g` under an `except`, `global h` in a function under a `case`
    assert {"g", "h", "C", "f", "os", "A", "x"} <= _bound(ast.parse(CODE))
    assert "q" not in _bound(ast.parse(CODE))


def test_an_option_popped_through_a_folded_name_still_counts():
    # Python reads `ｐｏｐ` (fullwidth letters) as `pop` (NFKC): the text has no ASCII `pop`
    before = "def f(**kw):\n    kw.\uff50\uff4f\uff50('x', None)\n    g(**kw)\n"
    after = "def f(**kw):\n    g(**kw)\n"
    found = forwarded_options("m.py", before, after)
    assert [(f.function, f.options, f.callee) for f in found] == [("f", ("x",), "g")]
    assert forwarded_options("m.py", before.replace("\uff50\uff4f\uff50", "get"), after) == []


def test_commands_nested_in_blocks_are_read():
    text = "if True:\n    @app.command(name='go')\n    def run():\n        pass\n"
    assert command_names(text) == {"run": "go"}


@pytest.mark.parametrize(
    ("statement", "binds"),
    [
        ("__all__ = ['a']", True),
        ("__all__: list[str] = []", True),
        ("__all__: list[str]", True),
        ("__all__ += ['b']", True),
        ("names = __all__ = ('a',)", True),
        ("x = ['a']", False),
        ("__all__.append('b')", False),
        ("pkg.__all__ = ['a']", False),
        ("__all__[0] = 'a'", False),
        ("for __all__ in x: pass", False),
    ],
)
def test_a_statement_binds_all_only_where_it_assigns_or_adds_to_the_name(
    statement: str, binds: bool
) -> None:
    assert binds_all(ast.parse(statement).body[0]) is binds


@pytest.mark.parametrize(
    ("value", "whole", "strings"),
    [
        ("['a', 'b', 'a']", False, {"a", "b"}),
        ("('a',)", False, {"a"}),
        ("[]", True, set()),
        # an entry that is no string: skipped, or the whole literal unread
        ("['a', 1, name]", False, {"a"}),
        ("['a', 1]", True, None),
        # no literal: what it holds is known only when it runs
        ("x.__all__ + ['a']", False, None),
        ("{'a'}", False, None),
        ("'a'", False, None),
    ],
)
def test_the_strings_a_list_or_tuple_literal_holds(
    value: str, whole: bool, strings: set[str] | None
) -> None:
    expression = ast.parse(value, mode="eval").body
    assert listed_strings(expression, whole=whole) == strings


def test_no_value_holds_no_strings() -> None:
    # `__all__: list[str]` annotates and assigns nothing
    assert listed_strings(None) is None
