"""`Side.written`: each function's lines as the file writes them, read with its node, only where
`str.splitlines` numbers the lines as `ast` does (an exact stand-in for comparing the trees)."""

from __future__ import annotations

import ast

from bot.analysis.facts.pyfile import read_units, table
from bot.analysis.facts.same_tree import same_tree
from bot.analysis.facts.scan import Side

# wrapt 6239bee, `src/wrapt/wrappers.py`: a property's getter and setter share a name
_WRAPT = """class _ObjectProxyMethods:

    @property
    def __module__(self):
        return self.__wrapped__.__module__

    @__module__.setter
    def __module__(self, value):
        self.__wrapped__.__module__ = value
"""


def _side(text: str) -> Side:
    units = read_units(text, package=None, tests=False)
    assert units is not None
    return table(units)[0]


def test_written_is_the_node_kept_its_decorators_in() -> None:
    side = _side(_WRAPT)
    name = "_ObjectProxyMethods.__module__"
    # the getter is the function kept (a setter redefines no name), and its lines are read
    node = side.functions[name]
    assert node.decorator_list and ast.unparse(node.decorator_list[0]) == "property"
    assert side.written[name] == (
        "    @property\n    def __module__(self):\n        return self.__wrapped__.__module__"
    )


def test_lines_written_alike_are_one_tree() -> None:
    # the class moved down two lines and its setter edited: the getter is written alike
    edited = "\n\n" + _WRAPT.replace("= value", "= str(value)")
    was, now = _side(_WRAPT), _side(edited)
    name = "_ObjectProxyMethods.__module__"
    assert was.written[name] == now.written[name]
    assert same_tree(was.functions[name], now.functions[name])


def test_a_line_break_only_splitlines_honours_leaves_written_unread() -> None:
    # a form feed is a line break to `str.splitlines`, not to Python's tokenizer: the lines
    # a node's numbers name are others, so nothing is read as written
    text = "\x0c\n" + _WRAPT.replace("    @property", "    \x0c\n    @property")
    side = _side(text)
    assert "_ObjectProxyMethods.__module__" in side.functions
    assert side.written == {}
