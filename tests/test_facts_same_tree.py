"""Definitions compared node by node say what their code digests say."""

from __future__ import annotations

import ast

import pytest

from bot.analysis.facts.pyfile import code_of
from bot.analysis.facts.same_tree import same_code, same_tree


def _definition(text: str) -> ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef:
    node = ast.parse(text).body[0]
    assert isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef)
    return node


@pytest.mark.parametrize(
    ("was", "now", "same"),
    [
        (
            'def f(a):\n    """Old."""\n    return a\n',
            'def f(a):\n    """New."""\n    return a\n',
            True,
        ),
        ("def f():\n    return g(a=1, b=2)\n", "def f():\n    return g(b=2, a=1)\n", True),
        ("def f():\n    return g(a=h(), b=k())\n", "def f():\n    return g(b=k(), a=h())\n", False),
        ("def f():\n    return 1\n", "def f():\n    return 1.0\n", False),
        ("def f():\n    return 0.0\n", "def f():\n    return -0.0\n", False),
        ("def f():\n    return x\n", "def f():\n    return (-0.0, x)\n", False),
        ("def f():\n    return True\n", "def f():\n    return 1\n", False),
        ("def f():\n    return 1\n", "def f():\n    return 2\n", False),
        ("def f():\n    return 1\n", "def f():\n    return (\n        1\n    )\n", True),
        ("class C:\n    x = 1\n    def m(self): ...\n", "class C:\n    x = 1\n", True),
        ("@d\nclass C:\n    x = 1\n", "class C(d):\n    x = 1\n", True),
        ("class C(A):\n    x = 1\n", "class C(B):\n    x = 1\n", False),
        ("def f(a): return a\n", "async def f(a): return a\n", True),
    ],
)
def test_same_code_says_what_the_digests_say(was: str, now: str, same: bool) -> None:
    # the digests' own reading (a decorator and a base are both parts of the head)
    one, other = _definition(was), _definition(now)
    assert (code_of(one) == code_of(other)) is same
    assert same_code(one, other) is same


def test_a_chain_nested_past_the_recursion_limit_is_compared() -> None:
    chain = "if x == 0:\n    y = 0\n" + "".join(
        f"elif x == {i}:\n    y = {i}\n" for i in range(1, 1500)
    )
    body = "def f(x):\n" + "".join(f"    {line}\n" for line in chain.splitlines())
    assert same_tree(ast.parse(body), ast.parse(body))
    assert not same_tree(ast.parse(body), ast.parse(body.replace("y = 1499", "y = 0")))


def test_a_field_a_built_node_lacks_reads_as_ast_dump_reads_it() -> None:
    # `layout._bare` writes `x: T = v` as a built `x = v`: its `type_comment` the class's None
    parsed = ast.parse("x = 1").body[0]
    assert isinstance(parsed, ast.Assign)
    built = ast.Assign(targets=parsed.targets, value=parsed.value, lineno=0)
    assert ast.dump(built) == ast.dump(parsed)
    assert same_tree(built, parsed)
    assert not same_tree(ast.Assign(targets=parsed.targets, value=ast.Constant(2)), parsed)


def test_integers_past_the_printing_limit_are_compared() -> None:
    # (a hexadecimal literal parses at any length; `repr` refuses it in decimal)
    huge = "x = 0x" + "f" * 4000 + "\n"
    assert same_tree(ast.parse(huge), ast.parse(huge))
    assert not same_tree(ast.parse(huge), ast.parse(huge.replace("0xf", "0xe", 1)))
