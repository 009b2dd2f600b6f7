"""The checker's own reading of "No behaviour change" claims: Python's parser on both revisions.

"No behaviour change: `p` is the same code as before but for layout, comments and docstrings
[, …, and X]." is true when `p` is Python at both revisions and its two syntax trees are
equal once each side is read by these rules of the language alone, each applied only where
the sentence names it:
- always: a docstring (a string literal standing first in a module, class or function) is
  no code, and the tree holds no layout or comment;
- "`str.format` calls written as f-strings": `"t".format(a, k=b)` on a string literal and
  `f"…{a}…{b}…"` are one expression where the format string's replacement fields (the
  grammar `string.Formatter.parse` reads) name each argument once, plainly, in order of
  the f-string's fields: both call `format(value, spec)` after the same conversion;
- "`not x in y` written as `x not in y`": the language defines `x not in y` (and `x is not
  y`) as the negation of `x in y` (`x is y`);
- "imports regrouped": consecutive `from m import …` statements of one module bind the same
  names in any grouping and order, where no name is bound twice;
- "an `else` after an exit left out": where an `if`'s block ends in `return`, `raise`,
  `continue` or `break`, control never leaves it into what follows, so its `else` runs
  exactly as the same statements placed after the `if`.
"Annotations" are not read by this checker (whether an annotation runs depends on the
module's future import, its classes' bases and the libraries that read them): a sentence
that names them is unverifiable where the trees differ.
"""

from __future__ import annotations

import ast
import string

# The sentence's words for each rule (`phrases.kept_apart`'s English words)
FORMAT_WORDS = "`str.format` calls written as f-strings"
NEGATION_WORDS = "`not x in y` written as `x not in y`"
IMPORTS_WORDS = "imports regrouped"
FLOW_WORDS = "an `else` after an exit"
ANNOTATION_WORDS = "annotations"


def _docstrings_dropped(tree: ast.AST) -> None:
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            body = node.body
            if (
                body
                and isinstance(body[0], ast.Expr)
                and isinstance(body[0].value, ast.Constant)
                and isinstance(body[0].value.value, str)
            ):
                node.body = body[1:] or [ast.Pass()]


def _fields(template: str, call: ast.Call) -> list[object] | None:
    """The parts of `template.format(…)`: literal text, and for each field the dump of the
    argument it names with its conversion and spec; None where one field is not plain or
    an argument is not used exactly once."""
    if call.keywords and any(k.arg is None for k in call.keywords):
        return None
    if any(isinstance(a, ast.Starred) for a in call.args):
        return None
    try:
        parsed = list(string.Formatter().parse(template))
    except ValueError:
        return None
    keywords = {k.arg: k.value for k in call.keywords}
    parts: list[object] = []
    used: list[str] = []
    counter = 0
    for text, name, spec, conversion in parsed:
        if text:
            parts.append(text)
        if name is None:
            continue
        field = name
        if field == "":
            field = str(counter)
            counter += 1
        if field.isdigit():
            if int(field) >= len(call.args):
                return None
            value = call.args[int(field)]
        elif field in keywords:
            value = keywords[field]
        else:
            return None  # an attribute, an index or a name not passed
        if spec and ("{" in spec or "}" in spec):
            return None
        used.append(field)
        parts.append(("field", ast.dump(value), conversion or "", spec or ""))
    every = [str(i) for i in range(len(call.args))] + [str(k) for k in keywords]
    if sorted(used) != sorted(every):
        return None
    return _merged(parts)


def _fstring(node: ast.JoinedStr) -> list[object] | None:
    """An f-string's parts as `_fields` gives them; None where a spec is itself formatted."""
    parts: list[object] = []
    for value in node.values:
        if isinstance(value, ast.Constant):
            parts.append(str(value.value))
            continue
        assert isinstance(value, ast.FormattedValue)  # the only other part an f-string has
        spec = ""
        if isinstance(value.format_spec, ast.JoinedStr):
            pieces = value.format_spec.values
            if not all(isinstance(p, ast.Constant) for p in pieces):
                return None
            spec = "".join(str(p.value) for p in pieces if isinstance(p, ast.Constant))
        conversion = chr(value.conversion) if value.conversion != -1 else ""
        parts.append(("field", ast.dump(value.value), conversion, spec))
    return _merged(parts)


def _merged(parts: list[object]) -> list[object]:
    out: list[object] = []
    for part in parts:
        if isinstance(part, str) and out and isinstance(out[-1], str):
            out[-1] += part
        elif part != "":
            out.append(part)
    return out


class _Read(ast.NodeTransformer):
    """Each form the sentence names rewritten to one spelling."""

    def __init__(self, said: str) -> None:
        self.format = FORMAT_WORDS in said
        self.negation = NEGATION_WORDS in said
        self.imports = IMPORTS_WORDS in said
        self.flow = FLOW_WORDS in said

    def visit_Call(self, node: ast.Call) -> ast.AST:
        self.generic_visit(node)
        func = node.func
        if (
            self.format
            and isinstance(func, ast.Attribute)
            and func.attr == "format"
            and isinstance(func.value, ast.Constant)
            and isinstance(func.value.value, str)
            and (parts := _fields(func.value.value, node)) is not None
        ):
            return ast.Constant(value=repr(parts))
        return node

    def visit_JoinedStr(self, node: ast.JoinedStr) -> ast.AST:
        if self.format and (parts := _fstring(node)) is not None:
            return ast.Constant(value=repr(parts))
        return node

    def visit_UnaryOp(self, node: ast.UnaryOp) -> ast.AST:
        self.generic_visit(node)
        inner = node.operand
        if (
            self.negation
            and isinstance(node.op, ast.Not)
            and isinstance(inner, ast.Compare)
            and len(inner.ops) == 1
            and type(inner.ops[0]) in (ast.In, ast.Is)
        ):
            negated = ast.NotIn() if isinstance(inner.ops[0], ast.In) else ast.IsNot()
            return ast.Compare(left=inner.left, ops=[negated], comparators=inner.comparators)
        return node

    def generic_visit(self, node: ast.AST) -> ast.AST:
        for field in ("body", "orelse", "finalbody"):
            block = getattr(node, field, None)
            if not (isinstance(block, list) and all(isinstance(s, ast.stmt) for s in block)):
                continue
            if self.flow:
                block = _unelsed(block)
            if self.imports:
                block = _grouped(block)
            setattr(node, field, block)
        return super().generic_visit(node)


def _unelsed(block: list[ast.stmt]) -> list[ast.stmt]:
    """Each `if` whose block ends in an exit with its `else` set after it, in turn."""
    out: list[ast.stmt] = []
    pending = list(reversed(block))
    while pending:
        statement = pending.pop()
        if (
            isinstance(statement, ast.If)
            and statement.orelse
            and type(statement.body[-1]) in (ast.Return, ast.Raise, ast.Continue, ast.Break)
        ):
            pending.extend(reversed(statement.orelse))
            statement.orelse = []
        out.append(statement)
    return out


def _grouped(block: list[ast.stmt]) -> list[ast.stmt]:
    """Consecutive `from m import …` of one module as one statement of sorted names."""
    out: list[ast.stmt] = []
    for statement in block:
        last = out[-1] if out else None
        if (
            isinstance(statement, ast.ImportFrom)
            and isinstance(last, ast.ImportFrom)
            and (last.module, last.level) == (statement.module, statement.level)
        ):
            names = [*last.names, *statement.names]
            bound = [a.asname or a.name for a in names]
            if "*" not in bound and len(set(bound)) == len(bound):
                out[-1] = ast.ImportFrom(module=last.module, names=names, level=last.level)
                continue
        out.append(statement)
    for statement in out:
        if isinstance(statement, ast.ImportFrom):
            statement.names = sorted(statement.names, key=lambda a: (a.name, a.asname or ""))
    return out


def _read(text: str, said: str) -> str:
    tree = ast.parse(text)
    _docstrings_dropped(tree)
    return ast.dump(_Read(said).visit(tree))


def judged_same(before: str, after: str, said: str) -> tuple[bool | None, str]:
    """Whether two texts of a Python file are the same code by the rules `said` names (the
    sentence's words): True, False with the reason, or None where they differ and the
    sentence names annotations (not read here) or a side does not parse."""
    try:
        was, now = _read(before, said), _read(after, said)
    except (SyntaxError, ValueError, RecursionError):
        return None, "does not parse"
    if was == now:
        return True, ""
    if ANNOTATION_WORDS in said:
        return None, "differs, and annotations are not read by this checker"
    return False, "the syntax trees differ"
