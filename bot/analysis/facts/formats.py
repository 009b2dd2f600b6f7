"""A message formatted with `%` or `str.format`, read as an f-string's: `{…}` where values go."""

from __future__ import annotations

import ast
import re
import string
from collections.abc import Callable

# a `%` conversion (`%s`, `%-5d`, `%(name)r`, `%.2f`) or the escaped `%%`
_PERCENT = re.compile(
    r"%(?:\([^)]*\))?[#0\- +]*(?:\*|\d+)?(?:\.(?:\*|\d+))?[hlL]?([diouxXeEfFgGcrsa%])"
)


def formatted(node: ast.expr, text: Callable[[ast.expr], str | None]) -> str | None:
    """The literal parts of `"…%s…" % x` or `"…{}…".format(x)` with `{…}` for each value
    (so `f"…{x}…"` reads the same), the template read by `text`; None for anything else."""
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod):
        template = text(node.left)
        if template is None:
            return None
        return _PERCENT.sub(lambda m: "%" if m.group(1) == "%" else "{…}", template)
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "format"
    ):
        template = text(node.func.value)
        if template is None:
            return None
        try:
            parts = list(string.Formatter().parse(template))
        except ValueError:
            return None
        return "".join(literal + ("" if field is None else "{…}") for literal, field, _, _ in parts)
    return None
