"""An edited Python function's conditions at both revisions: rewritten, guarded, removed."""

from __future__ import annotations

import ast
import functools
import re
from collections.abc import Iterable, Mapping

from bot.analysis.facts.meaning import same_in_range, same_meaning
from bot.analysis.facts.modules import breadth, statements
from bot.analysis.facts.pyfile import dotted
from bot.analysis.facts.records import Condition, Turn
from bot.analysis.facts.renamed import renamed_locals, same_but_renamed
from bot.analysis.facts.renamed_globals import renamed_globals
from bot.analysis.facts.scan import FileReading
from bot.analysis.facts.still_tested import still_tested

# A function whose conditions change more than this was rewritten: not said.
_CHANGES = 2
# A condition quoted as `ast.unparse` writes it when this short; a longer one is not said.
_SAID_TEST = 60
_DEFS = (ast.FunctionDef, ast.AsyncFunctionDef)
_TURNS = {"return": Turn.RETURNS, "continue": Turn.SKIPS}


def _aliases(node: ast.AST | None) -> dict[str, str]:
    """Locals a function binds once, at its top level, to a name or an attribute chain
    (`parent = self._parent`), with what they stand for as `ast.unparse` writes it."""
    if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
        return {}
    out: dict[str, str] = {}
    twice: set[str] = set()
    for statement in statements(node):
        if not isinstance(statement, ast.Assign | ast.AnnAssign | ast.AugAssign):
            continue
        targets = statement.targets if isinstance(statement, ast.Assign) else [statement.target]
        for target in targets:
            if isinstance(target, ast.Name):
                if target.id in out or target.id in twice:
                    twice.add(target.id)
                    out.pop(target.id, None)
                elif (
                    statement in node.body
                    and isinstance(statement, ast.Assign)
                    and len(targets) == 1
                    and _chain(statement.value)
                ):
                    out[target.id] = ast.unparse(statement.value)
                else:
                    twice.add(target.id)
    return out


def _chain(value: ast.expr) -> bool:
    """A name, or attributes of one (`self._parent`)."""
    while isinstance(value, ast.Attribute):
        value = value.value
    return isinstance(value, ast.Name)


def _through(test: str, aliases: dict[str, str]) -> str:
    """`test` with each local of `aliases` read as what it stands for."""
    for local, value in aliases.items():
        test = re.sub(rf"(?<![\w.]){re.escape(local)}\b", value, test)
    return test


def conditions_changed(
    r: FileReading, name: str, raised: frozenset[str], follows: Mapping[str, str] | None = None
) -> list[Condition]:
    """An edited function's own conditions that changed: a test gone and one new that read
    the same names (or the only two left) paired as rewritten; a new test of an `if` that
    returns, raises or continues, a guard (a raise of an exception new to the function is "may
    now raise" already, unless this guard at the top of its body is its only raise, and one
    the parent had, now under a new `if`, raises in fewer cases, not in more); a test gone
    with nothing new left, a branch removed. None when more than `_CHANGES` changes (a
    rewrite); a test too long or holding a backquote is counted, not said. `follows`: the
    module-level definitions the commit renamed in this file (old name -> new)."""
    now, was = r.plus.conditions.get(name), r.minus.conditions.get(name)
    if now is None or was is None:
        return []
    # in the order the function reads them
    gone = sorted(was.keys() - now.keys(), key=lambda t: was[t])
    new = sorted(now.keys() - was.keys(), key=lambda t: now[t])
    if not gone and not new:
        return []
    # the same test read through a local the function now binds (janus 539911f: `parent =
    # self._parent` then `if parent._maxsize <= 0:` for `if self._parent._maxsize <= 0:`)
    through_now = _aliases(r.plus.functions.get(name))
    through_was = _aliases(r.minus.functions.get(name))
    if through_now or through_was:
        was_read = {_through(t, through_was): t for t in gone}
        for test in list(new):
            old = was_read.pop(_through(test, through_now), None)
            if old is not None:
                new.remove(test)
                gone.remove(old)
        if not gone and not new:
            return []
    # the same test of a local renamed throughout (cachetools d20f70b: `head is not root`,
    # `curr is not root`) tests what it did
    was_node, now_node = r.minus.functions.get(name), r.plus.functions.get(name)
    # (a test gone paired with a new one only: the locals are read where there are both)
    if gone and new and isinstance(was_node, _DEFS) and isinstance(now_node, _DEFS):
        renamed = renamed_locals(was_node, now_node)
        for old in list(gone):
            same = [n for n in new if _same_test(old, n, renamed)]
            if same:
                gone.remove(old)
                new.remove(same[0])
        if not gone and not new:
            return []
    # the same test of a module-level name the commit renamed (tomli b5c4a19: `char in
    # _BARE_KEY_CHARS` now `char in BARE_KEY_CHARS`) tests what it did
    if gone and new:
        globals_renamed = {**renamed_globals(*r.texts), **(follows or {})}
        for old in list(gone) if globals_renamed else ():
            read = _read_renamed(old, globals_renamed)
            if read in new:
                gone.remove(old)
                new.remove(read)
        if not gone and not new:
            return []
    pairs: list[tuple[str, str]] = []
    for old in list(gone):
        alike = [n for n in new if _test_names(n) == _test_names(old)]
        if (
            len(alike) == 1
            and _test_names(old)
            and [o for o in gone if _test_names(o) == _test_names(old)] == [old]
        ):
            pairs.append((old, alike[0]))
            gone.remove(old)
            new.remove(alike[0])
    # the only two left are one test rewritten where they read a name in common; two that
    # share none are unrelated (`TYPE_CHECKING`, `argname not in caller_kwargs`), or the
    # same test through a local (`not val.netloc`, `not netloc`): neither is said rewritten
    if len(gone) == 1 and len(new) == 1 and _test_names(gone[0]) & _test_names(new[0]):
        pairs.append((gone.pop(), new.pop()))
    if len(pairs) + len(gone) + len(new) > _CHANGES:
        return []
    # a test moved into another function of the file (structlog b0081ac: `not defaults` went
    # from `ConsoleRenderer.__init__` into the `columns` setter it now calls), or out of one,
    # is still tested: neither gone nor new
    before, after = r.texts
    jumps = r.plus.guards.get(name, {})
    gone = [t for t in gone if not _tested_in(after, t)]
    # a test the function still makes outside an `if` (inflect e5dee13: `first = decimal is
    # None or …`), or a helper it now calls makes (825e898's `_get_sign`), is not gone
    if gone:
        # (parsed only where a helper the function now calls is to be read: most tests gone
        # are still in the function, or it calls nothing new)
        tree = functools.cache(lambda: _module(after))
        gone = [t for t in gone if not still_tested(t, now_node, was_node, tree)]
    # (a parameter bound anew under a test: new where the file tests it more often than it
    # did, pydash 1215c65's `isinstance(collection, dict)` in four functions where one had it)
    new = [
        t
        for t in new
        if not _tested_in(before, t)
        or (jumps.get(t, ("", None))[0].startswith("set ") and _more_often(before, after, t))
    ]
    # `if msg: …` become `if not msg: return` then `…`: the same test, inverted around the
    # same code, is no new condition
    pairs = [(o, n) for o, n in pairs if not _negations(o, n) and _unwalrused(n) != o]
    # a test spelt otherwise, or one that agrees with the old in the loop it sits in
    pairs = [(o, n) for o, n in pairs if not _alike(o, n, was_node, now_node)]
    # what a guard the commit removed returned or skipped with, statement by statement: a
    # new guard that does the same took its place (mistune 96d0f57: `if not m1: return None`
    # became `if end_pos is None: return None`), no early return the parent lacked
    jumped = {
        (jump, ast.unparse(statement))
        for test in gone
        for jump, statement in [r.minus.guards.get(name, {}).get(test, ("", None))]
        if jump in ("return", "continue") and statement is not None
    }
    found = [Condition(name, r.path, Turn.CHANGED, n, o) for o, n in pairs]
    for test in new:
        jump, statement = jumps.get(test, ("", None))
        if statement is not None and (jump, ast.unparse(statement)) in jumped:
            continue
        if jump == "return" and (
            branch := _final_branch(r.plus.functions.get(name), test, r.minus.functions.get(name))
        ):
            found.append(
                Condition(name, r.path, Turn.RETURNS, test, value=branch[0], last=branch[1])
            )
        elif jump in ("return", "continue"):
            found.append(Condition(name, r.path, _TURNS[jump], test))
        elif jump.startswith("set ") and isinstance(statement, ast.Assign):
            # what the function now takes for a parameter in that case (pydash 1215c65:
            # `if isinstance(collection, dict): collection = collection.values()`)
            assigned = ast.unparse(statement)
            if _said_test(assigned):
                found.append(Condition(name, r.path, Turn.REBINDS, test, assigned))
        # a raise the parent had, now under a new `if`, raises in fewer cases, not in more
        elif (
            jump.startswith("raise ")
            and jump[6:]
            and (jump[6:] not in raised or _only_guard(r, name, test, statement, jump[6:]))
            and statement is not None
            and ast.unparse(statement)
            not in {ast.unparse(s) for s in r.minus.raising.get(name, ())}
        ):
            fresh = jump[6:] in raised
            found.append(Condition(name, r.path, Turn.RAISES, test, jump[6:], new=fresh))
    if not new:
        # a test whose expression the function still tests inside another condition is not
        # gone (xmltodict 927a025: `_emit` dropped `'true' if v else 'false'` but still tests
        # `v is None` and `isinstance(v, (dict, str))`: it tests `v` all the same)
        found += [Condition(name, r.path, Turn.REMOVED, t) for t in gone if not _still_read(t, now)]
    return [
        c for c in found if _said_test(c.test) and (c.turn is not Turn.CHANGED or _said_test(c.was))
    ]


def _final_branch(
    node: ast.AST | None, test: str, parent: ast.AST | None
) -> tuple[str, str] | None:
    """(value, last) where the function's body ends in `if test: return value` (no `else`)
    then `return last`, after other statements, and the parent's ended in `return last` too:
    a case it now accepts before the one it falls back on (dacite 9fa6a84's `is_instance`:
    `is_generic_dataclass(type_)` before `return False`). A final return new at the commit
    (`return result` where the parent returned `hook(value)`) is not "where it returned"."""
    if not isinstance(node, _DEFS) or not isinstance(parent, _DEFS):
        return None
    before = parent.body[-1] if parent.body else None
    if not isinstance(before, ast.Return) or before.value is None:
        return None
    body = node.body[1:] if ast.get_docstring(node) is not None else node.body
    # (a guard first in the body is an early way out all the same: `if raw: return mode`
    # before what every other call runs)
    if len(body) < 3:
        return None
    branch, final = body[-2], body[-1]
    if (
        not isinstance(branch, ast.If)
        or branch.orelse
        or ast.unparse(branch.test) != test
        or len(branch.body) != 1
        or not isinstance(branch.body[0], ast.Return)
        or branch.body[0].value is None
        or not isinstance(final, ast.Return)
        or final.value is None
    ):
        return None
    value, last = ast.unparse(branch.body[0].value), ast.unparse(final.value)
    if ast.unparse(before.value) != last:
        return None
    return (value, last) if _said_test(value) and _said_test(last) else None


def _only_guard(
    r: FileReading, name: str, test: str, statement: ast.stmt | None, exception: str
) -> bool:
    """Whether an exception new to the function is raised by this statement alone, the last
    of an `if test:` (no `else`) at the top of its body, not inside a loop or another
    block: "`f` now raises `E` when `t`" says all of it (cachetools' "a `None` cache now
    raises `TypeError`"), not only "may now raise `E`"."""
    node = r.plus.functions.get(name)
    if not isinstance(node, _DEFS) or statement is None:
        return False
    top = any(
        isinstance(s, ast.If)
        and not s.orelse
        and s.body[-1] is statement
        and ast.unparse(s.test) == test
        for s in node.body
    )
    sites = [
        s for s in r.plus.raising.get(name, ()) if s.exc is not None and dotted(s.exc) == exception
    ]
    return top and sites == [statement]


def _same_test(old: str, new: str, renamed: tuple[frozenset[str], frozenset[str]]) -> bool:
    try:
        was, now = ast.parse(old, mode="eval"), ast.parse(new, mode="eval")
    except SyntaxError:
        return False
    return same_but_renamed(was.body, now.body, renamed)


def _read_renamed(test: str, renamed: Mapping[str, str]) -> str:
    """The test with each name of `renamed` read as its new name, as `ast.unparse` writes it."""
    try:
        tree = ast.parse(test, mode="eval")
    except SyntaxError:
        return test
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and node.id in renamed:
            node.id = renamed[node.id]
    return ast.unparse(tree)


def _alike(old: str, new: str, was: ast.AST | None, now: ast.AST | None) -> bool:
    """Whether the tests `old` and `new` mean the same: one spelling apart (`same_meaning`),
    or alike inside the `range` loop each sits in (`same_in_range`)."""
    if same_in_range(old, new, was, now):
        return True
    try:
        return same_meaning(ast.parse(old, mode="eval"), ast.parse(new, mode="eval"))
    except SyntaxError:
        return False


def _module(text: str) -> ast.Module | None:
    """The file's text parsed, or None where it does not parse."""
    try:
        return ast.parse(text)
    except (SyntaxError, ValueError, RecursionError):
        return None


def _still_read(test: str, conditions: Iterable[str]) -> bool:
    """Whether `test`'s expression is a whole part of one of `conditions` (`v` of `v is
    None`, `isinstance(v, bool)` of `isinstance(v, bool) and x`), as the AST reads them."""
    try:
        wanted = ast.dump(ast.parse(test, mode="eval").body)
    except SyntaxError:
        return False
    for condition in conditions:
        try:
            tree = ast.parse(condition, mode="eval")
        except SyntaxError:
            continue
        if any(ast.dump(n) == wanted for n in ast.walk(tree) if isinstance(n, ast.expr)):
            return True
    return False


def _tested_in(text: str, test: str) -> bool:
    """Whether the file's text tests `test` (an `if`, `elif` or `while`, or `a if test else
    b`): where the function no longer (or not yet) does, another one of the file does."""
    # (the test written out is in every match: a text without it, most, is not scanned)
    return bool(text) and test in text and _testing(test).search(text) is not None


def _more_often(before: str, after: str, test: str) -> bool:
    """Whether the file's text tests `test` in more places at the commit than at the parent."""
    found = _testing(test)
    return len(found.findall(after)) > len(found.findall(before))


def _testing(test: str) -> re.Pattern[str]:
    """An `if`, `elif` or `while` of `test`, or `a if test else b`."""
    quoted = re.escape(test)
    return re.compile(rf"\b(?:(?:if|elif|while)\s+{quoted}\s*:|if\s+{quoted}\s+else\b)")


def _negations(old: str, new: str) -> bool:
    """Whether one test is the other under `not` (`msg` and `not msg`, `x is None` and `x is
    not None`)."""

    def bare(test: str) -> str:
        return test.removeprefix("not ").strip("()")

    inverted = {(" is not ", " is "), (" not in ", " in "), (" != ", " == ")}
    if bare(old) == bare(new) and old != new:
        return True
    return any(old.replace(a, b, 1) == new or new.replace(a, b, 1) == old for a, b in inverted)


class _Bound(ast.NodeTransformer):
    """Each assignment expression replaced by the name it binds."""

    def visit_NamedExpr(self, node: ast.NamedExpr) -> ast.AST:
        return node.target


def _unwalrused(test: str) -> str:
    """The test with each assignment expression read as the name it binds: `(s := f()) is
    None` is `s is None` tested where `s` is bound, the same test as before."""
    try:
        tree = ast.parse(test, mode="eval")
    except SyntaxError:
        return test
    return ast.unparse(_Bound().visit(tree))


def _test_names(test: str) -> frozenset[str]:
    """The names a condition reads (`fg` of `fg is not None`)."""
    try:
        tree = ast.parse(test, mode="eval")
    except SyntaxError:
        return frozenset()
    return frozenset(n.id for n in breadth([tree]) if isinstance(n, ast.Name))


def _said_test(test: str) -> bool:
    """A condition a sentence can quote: one short line, no backquote, no run of spaces (a
    sentence folds `"    "` into one space: the quote would be false)."""
    return 0 < len(test) <= _SAID_TEST and "`" not in test and "\n" not in test and "  " not in test
