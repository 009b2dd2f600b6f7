"""A call's keywords read in one order (`facts.keywords`): reordered, the same call, but for a
`**mapping`'s place and calls whose values run code in another order."""

from __future__ import annotations

import ast

import pytest

from bot.analysis.facts.keywords import keywords_sorted


def _dump(source: str) -> str:
    with keywords_sorted(ast.parse(source)) as ordered:
        return ast.dump(ordered)


def _same(a: str, b: str) -> bool:
    return _dump(a) == _dump(b)


@pytest.mark.parametrize(
    ("before", "after", "same"),
    [
        ("f(x, a=1, b=y)", "f(x, b=y, a=1)", True),
        ("super().__init__(code=c, reason=r)", "super().__init__(reason=r, code=c)", True),
        # one value that runs code moves among values that run none: nothing else runs
        ("f(a=g(), b=1)", "f(b=1, a=g())", True),
        # positional arguments keep their order
        ("f(x, y, a=1)", "f(y, x, a=1)", False),
        # `g` and `h` would run in another order
        ("f(a=g(), b=h())", "f(b=h(), a=g())", False),
        # a `**mapping` stays where it is
        ("f(a=1, **kw)", "f(**kw, a=1)", False),
        ("f(b=1, a=2, **kw, d=3, c=4)", "f(a=2, b=1, **kw, c=4, d=3)", True),
    ],
)
def test_keywords_reordered(before: str, after: str, same: bool) -> None:
    assert _same(before, after) is same


def test_the_shared_tree_is_put_back_as_written() -> None:
    # the tree is shared by every reading of the file: sorted while read, then as it was
    tree = ast.parse("f(b=2, a=1)")
    written = ast.dump(tree)
    with keywords_sorted(tree) as ordered:
        assert ordered is tree and ast.dump(tree) != written
    assert ast.dump(tree) == written
