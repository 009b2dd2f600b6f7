"""An edited Python function's statements at both revisions, in order: one rewritten in
place (`while self._state is RunState.started:` became `while self._state in (…):`)."""

from __future__ import annotations

import ast
import copy
import difflib
import functools
import re
import weakref
from collections import Counter

from bot.analysis.facts.keywords import keywords_sorted
from bot.analysis.facts.layout import bare_string
from bot.analysis.facts.meaning import same_meaning
from bot.analysis.facts.pyfile import PARSE_ERRORS
from bot.analysis.facts.records import Rewritten
from bot.analysis.facts.renamed import reads_renamed, renamed_locals
from bot.analysis.facts.scan import FileReading

# A function whose statements change in more places than this was rewritten: not said.
_PLACES = 3
# A statement quoted as `ast.unparse` writes it when this short; a longer one is not said.
_SAID = 90
# How alike (difflib's ratio) a statement and the one it became are, at least.
_ALIKE = 0.6
# The statements whose rewriting changes how the function goes: its tests, loops, exits,
# and its own imports (`from unittest import mock` became `import mock`: another module used).
_CONTROL = (
    ast.Import,
    ast.ImportFrom,
    ast.If,
    ast.While,
    ast.For,
    ast.AsyncFor,
    ast.With,
    ast.AsyncWith,
    ast.Return,
    ast.Raise,
    ast.Continue,
    ast.Break,
    ast.Assert,
    ast.ExceptHandler,
)
_DEFS = (ast.FunctionDef, ast.AsyncFunctionDef)
# Where `ast` ends a line (its line numbers count these only; `str.splitlines` knows more)
_AST_LINES = re.compile(r"\r\n|\r|\n")


def statements_rewritten(r: FileReading, name: str) -> list[Rewritten]:
    """The one statement of an edited function (its closures' included) rewritten in place:
    the function's statements at both revisions, in order and as `ast.unparse` writes them
    (a compound statement by its header, `if test:`; a call's keywords in one order: a
    call's keywords reordered are no rewrite), matched; a pair replaced one for one
    where either is a test, a loop, a `with`, an exit, an `except` or an import, or the two
    differ by an `await`; the two alike as written, and not only in the names they use. None
    when the statements change in more than `_PLACES` places (a rewrite) or the pair's old one is
    still there, or its new one was already (a statement said to have become another is
    gone); quoted as the file writes each on its line."""
    now, was = r.plus.functions.get(name), r.minus.functions.get(name)
    if not isinstance(now, _DEFS) or not isinstance(was, _DEFS):
        return []
    before_text, after_text = r.texts
    if not before_text or not after_text:
        return []
    try:
        after = _statements_kept(now, after_text, r.plus.shifts.get(name, 0))
        before = _statements_kept(was, before_text, r.minus.shifts.get(name, 0))
    except PARSE_ERRORS:
        # `ast.unparse` of an integer too long to print (Python's 4,300 digits) and the like
        return []
    texts_after, texts_before = [t for t, _, _ in after], [t for t, _, _ in before]
    matcher = difflib.SequenceMatcher(None, texts_before, texts_after, autojunk=False)
    changes = [op for op in matcher.get_opcodes() if op[0] != "equal"]
    if not changes or len(changes) > _PLACES:
        return []
    counted_before, counted_after = Counter(texts_before), Counter(texts_after)
    found: list[Rewritten] = []
    for tag, i1, i2, j1, j2 in changes:
        if tag != "replace" or i2 - i1 != 1 or j2 - j1 != 1:
            continue
        (old, old_said, old_node), (new, new_said, new_node) = before[i1], after[j1]
        if old_said is None or new_said is None or not (_said(old_said) and _said(new_said)):
            continue
        if not _telling(old_node, new_node, old, new) or _renamed_only(old_node, new_node):
            continue
        if _same_items(old_node, new_node):
            # `chain([item], it)` became `chain((item,), it)`: the callee iterates the same
            # items, and gives what it gave (toolz 020161b's `peek`)
            continue
        if same_meaning(_header(old_node), _header(new_node), _enclosing(name)):
            # `'%s(%s)' % (name, text)` became `f'{name}({text})'`, `open(f, 'r')` became
            # `open(f)`: another spelling, the same behaviour (glom bc653da)
            continue
        # a statement that reads a local renamed or bound anew (`item` gone, `key` new:
        # cachetools 668fdb3) changed where that local is bound, not here
        # (the locals read only here: most changes are no one-for-one pair, and are left
        # above)
        if reads_renamed(_header(old_node), _header(new_node), renamed_locals(was, now)):
            continue
        # two statements that share little are two changes, not one rewritten (two calls
        # of `super().__init__` in one place are one, whatever arguments each passes)
        if (
            not (_builds_base(old_node) and _builds_base(new_node))
            and difflib.SequenceMatcher(None, old_said, new_said).ratio() < _ALIKE
        ):
            continue
        if counted_after[old] >= counted_before[old] or counted_before[new] >= counted_after[new]:
            continue
        found.append(Rewritten(name, r.path, old_said, new_said, _users(r, name)))
    return found[:1]


def _enclosing(name: str) -> str | None:
    """The class a method's qualified name (`Class.method`) puts it in, if any."""
    parts = name.split(".")
    return parts[-2] if len(parts) > 1 else None


# A private method used by more public methods than this is said without them.
_USERS = 2


def _users(r: FileReading, name: str) -> tuple[str, ...]:
    """The public methods of a private method's class, in the file at the commit, whose
    body uses it as `self.<method>` (a call, or the method handed on: `start(self._run)`);
    none where the method is public, or more than `_USERS` use it."""
    owner, _, method = name.rpartition(".")
    if not owner or not method.startswith("_") or method.startswith("__"):
        return ()
    if any(part.startswith("_") for part in owner.split(".")):
        return ()
    found = []
    for other, node in r.plus.functions.items():
        head, _, last = other.rpartition(".")
        if head != owner or last.startswith("_") or not isinstance(node, _DEFS):
            continue
        if any(
            isinstance(n, ast.Attribute)
            and n.attr == method
            and isinstance(n.value, ast.Name)
            and n.value.id in ("self", "cls")
            for statement in node.body
            for n in ast.walk(statement)
        ):
            found.append(other)
    return tuple(sorted(found)) if 0 < len(found) <= _USERS else ()


def _telling(old_node: ast.AST, new_node: ast.AST, old: str, new: str) -> bool:
    if isinstance(old_node, ast.ExceptHandler) and isinstance(new_node, ast.ExceptHandler):
        # `except E:` became `except E as exc:`: the same exceptions caught
        return _caught(old_node) != _caught(new_node)
    if isinstance(old_node, _CONTROL) or isinstance(new_node, _CONTROL):
        return True
    if _builds_base(old_node) and _builds_base(new_node):
        # `super().__init__()` became `super().__init__(reason)`: what the base class is
        # built with (an exception's `args`, its `str()`), no mere call of a helper; the same
        # values passed by keyword instead (`(a, b)` and `(first=a, last=b)`) are not
        return _passed(old_node) != _passed(new_node)
    # `self.close()` became `await self.close()`
    return old.replace("await ", "") == new.replace("await ", "")


def _builds_base(node: ast.AST) -> bool:
    """A statement that is a call of `super().__init__(…)` alone."""
    if not isinstance(node, ast.Expr) or not isinstance(node.value, ast.Call):
        return False
    func = node.value.func
    return (
        isinstance(func, ast.Attribute)
        and func.attr == "__init__"
        and isinstance(func.value, ast.Call)
        and isinstance(func.value.func, ast.Name)
        and func.value.func.id == "super"
    )


def _passed(node: ast.AST) -> list[str]:
    """The values a `super().__init__(…)` statement passes, however given, in order."""
    call = node.value if isinstance(node, ast.Expr) else None
    if not isinstance(call, ast.Call):
        return []
    return [ast.unparse(a) for a in (*call.args, *(k.value for k in call.keywords))]


class _Unnamed(ast.NodeTransformer):
    """Each name read as the same placeholder, and `cast(T, x)` as `x` (only a type checker
    reads the cast)."""

    def visit_Name(self, node: ast.Name) -> ast.AST:
        return ast.Name(id="_", ctx=node.ctx)

    def visit_Call(self, node: ast.Call) -> ast.AST:
        callee = ast.unparse(node.func)
        if callee in ("cast", "typing.cast", "t.cast") and len(node.args) == 2:
            inner: ast.AST = self.visit(node.args[1])
            return inner
        return self.generic_visit(node)


def _renamed_only(old: ast.AST, new: ast.AST) -> bool:
    """Whether two statements differ in the names they use alone (`except zstd.E:` and
    `except zstandard.E:` through another import's alias, a helper made public) or in a
    `cast` (`return cls(cast(BinaryIO, f))` and `return cls(f)`): never a change of how the
    function goes."""

    def shape(node: ast.AST) -> str:
        return ast.dump(_Unnamed().visit(copy.deepcopy(_header(node))))

    return shape(old) == shape(new)


# Callables that only iterate an argument, once, whatever displays it: a list, a tuple or a set
# of the same items passed to one gives the same value (`set` and `frozenset` where the items
# are alike; a list's order is a tuple's)
_ITERATING = frozenset(
    {
        "chain",
        "itertools.chain",
        "iter",
        "list",
        "tuple",
        "sorted",
        "sum",
        "any",
        "all",
        "min",
        "max",
        "enumerate",
        "zip",
        "map",
        "filter",
        "set",
        "frozenset",
    }
)


class _Displayed(ast.NodeTransformer):
    """Each list or tuple display that an iterating callable (`_ITERATING`) takes as a
    positional argument read as a tuple of the same items."""

    def visit_Call(self, node: ast.Call) -> ast.AST:
        self.generic_visit(node)
        if ast.unparse(node.func) in _ITERATING:
            node.args = [
                ast.Tuple(elts=a.elts, ctx=ast.Load())
                if isinstance(a, ast.List | ast.Tuple)
                and not any(isinstance(e, ast.Starred) for e in a.elts)
                else a
                for a in node.args
            ]
        return node


def _same_items(old: ast.AST, new: ast.AST) -> bool:
    """Whether two statements differ only in how they display the items an iterating
    callable takes (`chain([item], it)` and `chain((item,), it)`): the same value."""

    def shape(node: ast.AST) -> str:
        return ast.dump(_Displayed().visit(copy.deepcopy(_header(node))))

    return shape(old) == shape(new)


def _header(node: ast.AST) -> ast.AST:
    """A statement without the blocks it holds (`if test:` of an `if`)."""
    if isinstance(node, ast.ExceptHandler):
        return ast.ExceptHandler(type=node.type, name=node.name, body=[])
    if isinstance(node, ast.stmt) and hasattr(node, "body"):
        node = copy.copy(node)
        for block in ("body", "orelse", "finalbody", "handlers", "cases"):
            if hasattr(node, block):
                setattr(node, block, [])
    return node


def _caught(handler: ast.ExceptHandler) -> str:
    return "" if handler.type is None else ast.dump(handler.type)


def _said(statement: str) -> bool:
    """A statement a sentence can quote: one short line, no backquote, no run of spaces."""
    return (
        0 < len(statement) <= _SAID
        and "`" not in statement
        and "\n" not in statement
        and "  " not in statement
    )


def _written(node: ast.AST) -> str:
    """A statement's part as compared: `ast.unparse`'s text, its calls' keywords sorted
    (`_statements` sorts them all, once for the whole function, before it asks)."""
    return ast.unparse(node)


Statement = tuple[str, str | None, ast.AST]
# `_statements` of a function's tree with the text and shift it was read with, kept while the
# tree lives: a commit's tree of a file is its next commit's parent's (`kept.py`), and a
# function edited by both is read again with the same text.
_KEPT: weakref.WeakKeyDictionary[ast.AST, tuple[str, int, list[Statement]]] = (
    weakref.WeakKeyDictionary()
)


def statements_changed(r: FileReading, name: str) -> int | None:
    """How many of an edited function's own statements (its closures' included, its
    docstrings not) the change adds, removes or rewrites, a statement spelled another way to
    the same effect (`same_meaning`: `'{}'.format(x)` and `f'{x}'`) not counted; None where
    either revision's function is not read whole."""
    now, was = r.plus.functions.get(name), r.minus.functions.get(name)
    before_text, after_text = r.texts
    if not isinstance(now, _DEFS) or not isinstance(was, _DEFS):
        return None
    if not before_text or not after_text:
        return None
    try:
        after = _statements_kept(now, after_text, r.plus.shifts.get(name, 0))
        before = _statements_kept(was, before_text, r.minus.shifts.get(name, 0))
    except PARSE_ERRORS:
        return None
    # (a docstring, a bare string statement, runs as nothing)
    after = [s for s in after if not bare_string(s[2])]
    before = [s for s in before if not bare_string(s[2])]
    matcher = difflib.SequenceMatcher(
        None, [t for t, _, _ in before], [t for t, _, _ in after], autojunk=False
    )
    count = 0
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            continue
        try:
            respelled = (
                tag == "replace"
                and i2 - i1 == j2 - j1
                and all(
                    same_meaning(b[2], a[2])
                    for b, a in zip(before[i1:i2], after[j1:j2], strict=True)
                )
            )
        except RecursionError:
            # a statement nested past the interpreter's depth (a long `elif` chain copied
            # for comparison): its count is not known
            return None
        if respelled:
            continue
        count += max(i2 - i1, j2 - j1)
    return count


def _statements_kept(
    function: ast.FunctionDef | ast.AsyncFunctionDef, text: str, shift: int
) -> list[Statement]:
    """`_statements`, read once for a tree, a text and a shift (the list is only read)."""
    kept = _KEPT.get(function)
    if kept is not None and kept[1] == shift and kept[0] == text:
        return kept[2]
    found = _statements(function, text, shift)
    _KEPT[function] = (text, shift, found)
    return found


def _statements(
    function: ast.FunctionDef | ast.AsyncFunctionDef, text: str, shift: int = 0
) -> list[Statement]:
    """The statements of a function's body and of the functions nested in it (not of a
    class defined in it), in the order they are written: each as `ast.unparse` writes it
    (what is compared: a reflowed line is the same statement, and so is a call whose keywords
    are reordered: `_written`) and as the file writes it on
    one line (what is quoted; None where it spans lines), a compound one by its header (`if
    test:`, `elif test:`, `while test:`, `for x in y:`, `with a as b:`, `try:`, `except E as
    e:`, `else:`, `finally:`), a nested function's by its body alone. `shift`: the lines
    the function moved since its nodes were parsed (`Side.shifts`)."""
    # (the text's lines where the nodes' numbers find them: a function parsed `shift` lines
    # above where the text has it now)
    written, encoded = _lines(text)
    lines = written[shift:] if shift >= 0 else [""] * -shift + written
    source = encoded[shift:] if shift >= 0 else [b""] * -shift + encoded

    walker = _Walker(lines, source)
    # (one walk of the function for its calls, not one for each statement: `_written`)
    with keywords_sorted(function):
        walker.block(function.body)
    return walker.out


@functools.lru_cache(maxsize=8)
def _lines(text: str) -> tuple[list[str], list[bytes]]:
    """The text's lines, and its lines as `ast` counts them encoded, split once for all the
    functions of the file read (only read): `ast.get_source_segment` splits the whole file
    again for each statement, which made a 90-commit day three times slower."""
    return text.splitlines(), [line.encode() for line in _AST_LINES.split(text)]


class _Walker:
    """`_statements`' walk of a function's statements (methods, not closures naming each
    other: a cycle only the garbage collector frees, which held each function's nodes and
    the file's lines until its pass)."""

    def __init__(self, lines: list[str], source: list[bytes]) -> None:
        self.lines = lines
        self.source = source
        self.out: list[Statement] = []

    def seg(self, node: ast.AST) -> str | None:
        at: int | None = getattr(node, "lineno", None)
        end: int | None = getattr(node, "end_lineno", None)
        start: int | None = getattr(node, "col_offset", None)
        stop: int | None = getattr(node, "end_col_offset", None)
        if (
            at is None
            or at != end
            or start is None
            or stop is None
            or not 0 < at <= len(self.source)
        ):
            return None  # none, or over lines: never quoted on one
        return self.source[at - 1][start:stop].decode(errors="replace")

    def add(self, key: str, parts: list[str | None], node: ast.AST, template: str) -> None:
        said = None if None in parts else template.format(*parts)
        # quoted only where it is its line as written (no comment after it, no second
        # statement on it): what a reader finds in the file
        at = getattr(node, "lineno", 0)
        column = getattr(node, "col_offset", 0)
        if not 0 < at <= len(self.lines) or self.lines[at - 1][column:].rstrip() != said:
            said = None
        self.out.append((key, said, node))

    def block(self, body: list[ast.stmt]) -> None:
        for statement in body:
            self.one(statement)

    def one(self, node: ast.stmt) -> None:
        if isinstance(node, ast.ClassDef):
            return
        if isinstance(node, _DEFS):
            self.block(node.body)
        elif isinstance(node, ast.If):
            written = (
                self.lines[node.lineno - 1][node.col_offset :]
                if node.lineno <= len(self.lines)
                else ""
            )
            word = "elif" if written.startswith("elif") else "if"
            self.add(f"{word} {_written(node.test)}:", [self.seg(node.test)], node, word + " {}:")
            self.block(node.body)
            if node.orelse and not (
                len(node.orelse) == 1
                and isinstance(node.orelse[0], ast.If)
                and self.lines[node.orelse[0].lineno - 1][node.orelse[0].col_offset :].startswith(
                    "elif"
                )
            ):
                self.out.append(("else:", None, node))  # its own line: not a statement
            self.block(node.orelse)
        elif isinstance(node, ast.While):
            self.add(f"while {_written(node.test)}:", [self.seg(node.test)], node, "while {}:")
            self.rest(node.body, node.orelse, node)
        elif isinstance(node, ast.For | ast.AsyncFor):
            head = "async for" if isinstance(node, ast.AsyncFor) else "for"
            key = f"{head} {_written(node.target)} in {_written(node.iter)}:"
            self.add(key, [self.seg(node.target), self.seg(node.iter)], node, head + " {} in {}:")
            self.rest(node.body, node.orelse, node)
        elif isinstance(node, ast.With | ast.AsyncWith):
            head = "async with" if isinstance(node, ast.AsyncWith) else "with"
            items = ", ".join(_written(i) for i in node.items)
            parts = [
                None
                if (c := self.seg(i.context_expr)) is None
                else c
                if i.optional_vars is None
                else None
                if (v := self.seg(i.optional_vars)) is None
                else f"{c} as {v}"
                for i in node.items
            ]
            said = None if None in parts else ", ".join(p for p in parts if p is not None)
            self.add(f"{head} {items}:", [said], node, head + " {}:")
            self.block(node.body)
        elif isinstance(node, ast.Try | ast.TryStar):
            self.add("try:", [], node, "try:")
            self.block(node.body)
            for handler in node.handlers:
                named = "" if handler.name is None else f" as {handler.name}"
                if handler.type is None:
                    self.add(f"except{named}:", [], handler, "except" + named + ":")
                else:
                    key = f"except {_written(handler.type)}{named}:"
                    self.add(key, [self.seg(handler.type)], handler, "except {}" + named + ":")
                self.block(handler.body)
            if node.orelse:
                self.out.append(("else:", None, node))  # its own line: not a statement
                self.block(node.orelse)
            if node.finalbody:
                self.out.append(("finally:", None, node))
                self.block(node.finalbody)
        elif isinstance(node, ast.Match):
            self.add(
                f"match {_written(node.subject)}:", [self.seg(node.subject)], node, "match {}:"
            )
            for case in node.cases:
                self.block(case.body)
        else:
            self.add(_written(node), [self.seg(node)], node, "{}")

    def rest(self, body: list[ast.stmt], orelse: list[ast.stmt], node: ast.AST) -> None:
        self.block(body)
        if orelse:
            self.out.append(("else:", None, node))  # its own line: not a statement
            self.block(orelse)
