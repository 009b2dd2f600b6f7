"""`pyfile`'s own dump writes what `ast.dump` writes, node for node."""

from __future__ import annotations

import ast
from pathlib import Path

from bot.analysis.facts.pyfile import _dump, dumped

_CODE = """
@decorate(a, key=1, other=u"x")
async def f(x: int = 0, /, *args: str, y=None, **kw) -> None:
    global g
    nonlocal_name = [i async for i in y if i] or {k: v for k, v in kw.items()}
    match x:
        case {"a": 1, **rest} | [_, *_] if rest:
            raise ValueError(f"{x!r:>10}") from None
    try:
        yield b"\\x00", 1.5j, ..., -1
    except* (OSError, KeyError) as error:
        del error
    return {**kw, None: lambda q=1: q}[None]
"""


def test_dump_writes_what_ast_dump_writes() -> None:
    trees = [ast.parse(_CODE)]
    trees += [ast.parse(path.read_text()) for path in sorted(Path("bot/analysis").rglob("*.py"))]
    for tree in trees:
        for node in ast.walk(tree):
            assert _dump(node) == ast.dump(node)


def test_dumped_reads_a_huge_integer_by_its_hash() -> None:
    tree = ast.parse("x = 1")
    tree.body[0].value.value = 10**5000  # type: ignore[attr-defined]
    assert dumped(tree).startswith("Module(body=[Assign(")
    assert "int#" in dumped(tree)
