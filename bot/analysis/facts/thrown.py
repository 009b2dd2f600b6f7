"""What a public Python function now raises through code it reaches but does not hold: a
function nested in it that it sets as a hook or calls, a private helper only it reaches; and
a `raise` on its path whose exception class changed. Read from both whole texts."""

from __future__ import annotations

import ast
import builtins
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

from bot.analysis.facts.modules import breadth, module_tree
from bot.analysis.facts.records import RaiseReached, RaiseRetyped
from bot.analysis.facts.same_tree import same_tree
from bot.analysis.facts.scan import FileReading

_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)
_DEFS = (ast.FunctionDef, ast.AsyncFunctionDef)
_RAISE_EDITED = re.compile(r"(?m)^[-+](?![-+]{2} ).*\braise\b")
# a message quoted in a sentence: one line, no backquote, of this many characters at most
_MESSAGE_MAX = 90


@dataclass(frozen=True)
class _Site:
    """One `raise E(...)` of a function: where it is and under which of its own tests."""

    holder: str
    exception: str
    message: str | None
    tests: tuple[str, ...]


@dataclass(frozen=True)
class _Entry:
    """How a public function reaches a function: the hook it sets to it (`parser.X`, ''
    for a call or a reference), under its own tests (`(test, holds)`: in the `if`'s body,
    or in its `else`), None where a loop's body may not run."""

    hook: str
    tests: tuple[tuple[str, bool], ...] | None
    node: ast.stmt


@dataclass
class _Reach:
    """The functions one public function reaches, each with how it is entered."""

    functions: dict[str, ast.FunctionDef | ast.AsyncFunctionDef] = field(default_factory=dict)
    entries: dict[str, list[_Entry]] = field(default_factory=dict)
    # function -> the reached functions it refers to (a nested hook calling another)
    refers: dict[str, set[str]] = field(default_factory=dict)


def _own(node: ast.AST) -> Iterator[ast.AST]:
    """The nodes of a function's own code: not those of the functions, lambdas or classes
    defined in it."""
    todo = list(ast.iter_child_nodes(node))
    while todo:
        child = todo.pop()
        yield child
        if not isinstance(child, _SCOPES):
            todo.extend(ast.iter_child_nodes(child))


def _statements(
    body: list[ast.stmt], tests: tuple[tuple[str, bool], ...] | None
) -> Iterator[tuple[ast.stmt, tuple[tuple[str, bool], ...] | None]]:
    """Each statement of a body (not inside a nested definition) with the tests of the
    `if`s around it; None past a loop's body, which may not run."""
    for statement in body:
        yield statement, tests
        if isinstance(statement, ast.If):
            test = ast.unparse(statement.test)
            inner = None if tests is None else (*tests, (test, True))
            other = None if tests is None else (*tests, (test, False))
            yield from _statements(statement.body, inner)
            yield from _statements(statement.orelse, other)
        elif isinstance(statement, ast.For | ast.AsyncFor | ast.While):
            yield from _statements(statement.body, None)
            yield from _statements(statement.orelse, None)
        elif isinstance(statement, ast.With | ast.AsyncWith):
            yield from _statements(statement.body, tests)
        elif isinstance(statement, ast.Try):
            for block in (statement.body, statement.orelse, statement.finalbody):
                yield from _statements(block, tests)
            for handler in statement.handlers:
                yield from _statements(handler.body, None)


def _message(call: ast.expr) -> str | None:
    """The message a `raise E("…")` writes out (an f-string's literal parts, `{…}` where a
    value goes), where it is one short line a sentence can quote."""
    if not isinstance(call, ast.Call) or not call.args:
        return None
    first = call.args[0]
    if isinstance(first, ast.Constant) and isinstance(first.value, str):
        text = first.value
    elif isinstance(first, ast.JoinedStr):
        text = "".join(
            v.value if isinstance(v, ast.Constant) and isinstance(v.value, str) else "{…}"
            for v in first.values
        )
    else:
        return None
    if not text.strip() or "\n" in text or "`" in text or len(text) > _MESSAGE_MAX:
        return None
    return text


def _sites(name: str, node: ast.FunctionDef | ast.AsyncFunctionDef) -> list[_Site]:
    """The `raise E…` statements of a function's own code, each with its own tests."""
    out = []
    for statement, tests in _statements(node.body, ()):
        if not isinstance(statement, ast.Raise) or statement.exc is None:
            continue
        exc = statement.exc
        raised = exc.func if isinstance(exc, ast.Call) else exc
        if not isinstance(raised, ast.Name | ast.Attribute):
            continue
        written = tuple(f"{t}" if holds else f"not ({t})" for t, holds in tests or ())
        out.append(_Site(name, ast.unparse(raised), _message(exc), written))
    return out


def _module_functions(tree: ast.Module) -> dict[str, ast.FunctionDef | ast.AsyncFunctionDef]:
    """Module-level functions and the methods of module-level classes, by qualified name."""
    found: dict[str, ast.FunctionDef | ast.AsyncFunctionDef] = {}
    for node in tree.body:
        if isinstance(node, _DEFS):
            found[node.name] = node
        elif isinstance(node, ast.ClassDef):
            for inner in node.body:
                if isinstance(inner, _DEFS):
                    found[f"{node.name}.{inner.name}"] = inner
    return found


def _referred(node: ast.AST) -> set[str]:
    """The plain names a function's code reads (its nested functions' code included)."""
    # (`breadth`: the nodes `ast.walk` gives, a third faster; each side's every function is
    # read)
    return {
        n.id for n in breadth([node]) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)
    }


def _reach(
    name: str,
    node: ast.FunctionDef | ast.AsyncFunctionDef,
    helpers: dict[str, ast.FunctionDef | ast.AsyncFunctionDef],
    readers: dict[str, set[str]],
) -> _Reach:
    """The functions nested in `node` that its own code refers to (sets as a hook, calls,
    hands on), those they refer to, and the private module-level `helpers` whose every
    reader (`readers`) is among the functions reached: each entered from `node`'s own
    statements, with the tests around them."""
    reach = _Reach()
    nested = {
        n.name: n for n in _own(node) if isinstance(n, _DEFS)
    }  # (a nested def's own nested defs are reached through it)
    for statement, tests in _statements(node.body, ()):
        if isinstance(statement, _DEFS):
            continue
        names = {n.id for n in _own_load_names(statement)}
        for target in names & (nested.keys() | helpers.keys()):
            hook = ""
            if (
                isinstance(statement, ast.Assign)
                and isinstance(statement.value, ast.Name)
                and statement.value.id == target
                and len(statement.targets) == 1
                and isinstance(statement.targets[0], ast.Attribute)
            ):
                hook = ast.unparse(statement.targets[0])
            reach.entries.setdefault(target, []).append(_Entry(hook, tests, statement))
    todo = list(reach.entries)
    while todo:
        current = todo.pop()
        if current in reach.functions:
            continue
        function = nested.get(current) or helpers.get(current)
        if function is None:
            continue
        if current in helpers and not readers.get(current, set()) <= {name, *reach.entries}:
            # another function of the module reads it too: it is no path of `name` alone
            reach.entries.pop(current, None)
            continue
        reach.functions[current] = function
        inner = {n.name: n for n in _own(function) if isinstance(n, _DEFS)}
        nested.update({f"{current}.{k}": v for k, v in inner.items()})
        refers = _referred(function) & (nested.keys() | helpers.keys())
        reach.refers[current] = refers - {current}
        todo += [r for r in refers if r not in reach.functions]
    return reach


def _own_load_names(statement: ast.stmt) -> Iterator[ast.Name]:
    """The names a statement of a function's own code reads, not inside a nested scope, nor
    in the bodies of the blocks it opens (each of those is a statement of its own)."""
    if isinstance(statement, ast.If | ast.While):
        parts: list[ast.AST] = [statement.test]
    elif isinstance(statement, ast.For | ast.AsyncFor):
        parts = [statement.iter]
    elif isinstance(statement, ast.With | ast.AsyncWith):
        parts = list(statement.items)
    elif isinstance(statement, ast.Try):
        parts = []
    else:
        parts = [statement]
    for part in parts:
        for n in (part, *_own(part)):
            if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load):
                yield n


def _entries_of(reach: _Reach, holder: str) -> list[_Entry]:
    """How the public function enters `holder`: directly, or through a reached function
    that refers to it (a hook that calls it)."""
    found: list[_Entry] = []
    seen: set[str] = set()
    todo = [holder]
    while todo:
        current = todo.pop()
        if current in seen:
            continue
        seen.add(current)
        found += reach.entries.get(current, [])
        todo += [f for f, refers in reach.refers.items() if current in refers]
    return found


def _default_holds(test: str, holds: bool, defaults: dict[str, object]) -> bool | None:
    """Whether an `if` test (`disable_entities`, `not strict`, `mode is None`) comes out as
    `holds` when each parameter it names has its literal default; None where it names
    anything else."""
    try:
        node = ast.parse(test, mode="eval").body
    except SyntaxError:
        return None
    value = _evaluate(node, defaults)
    return None if value is None else bool(value[0]) == holds


def _evaluate(node: ast.expr, defaults: dict[str, object]) -> tuple[object] | None:
    if isinstance(node, ast.Name) and node.id in defaults:
        return (defaults[node.id],)
    if isinstance(node, ast.Constant):
        return (node.value,)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        inner = _evaluate(node.operand, defaults)
        return None if inner is None else (not inner[0],)
    if isinstance(node, ast.BoolOp):
        values = [_evaluate(v, defaults) for v in node.values]
        if any(v is None for v in values):
            return None
        truths = [bool(v[0]) for v in values if v is not None]
        return (all(truths) if isinstance(node.op, ast.And) else any(truths),)
    if isinstance(node, ast.Compare) and len(node.ops) == 1:
        left, right = _evaluate(node.left, defaults), _evaluate(node.comparators[0], defaults)
        if left is None or right is None:
            return None
        op = node.ops[0]
        if isinstance(op, ast.Is | ast.Eq):
            return (left[0] == right[0],)
        if isinstance(op, ast.IsNot | ast.NotEq):
            return (left[0] != right[0],)
    return None


def _defaults(node: ast.FunctionDef | ast.AsyncFunctionDef) -> dict[str, object]:
    """The parameters whose default is a literal (`True`, `None`, `0`, `'x'`) -> it."""
    args = node.args
    positional = [*args.posonlyargs, *args.args]
    pairs = list(
        zip(positional[len(positional) - len(args.defaults) :], args.defaults, strict=True)
    )
    pairs += [
        (a, d) for a, d in zip(args.kwonlyargs, args.kw_defaults, strict=True) if d is not None
    ]
    return {
        a.arg: d.value
        for a, d in pairs
        if isinstance(d, ast.Constant) and not isinstance(d.value, bytes)
    }


def _silent(value: ast.expr, node: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """Whether a hook's callable raises nothing and hands back no failure: a lambda whose
    value is no falsy literal but `None`, or a function nested in `node` with no `raise`."""
    if isinstance(value, ast.Lambda):
        body = value.body
        if isinstance(body, ast.Constant):
            return body.value is None or bool(body.value)
        return False
    if isinstance(value, ast.Name):
        for n in _own(node):
            if isinstance(n, _DEFS) and n.name == value.id:
                return not any(isinstance(x, ast.Raise) for x in ast.walk(n))
    return False


def _hooks_set(
    node: ast.FunctionDef | ast.AsyncFunctionDef,
) -> dict[str, ast.expr]:
    """The hooks (`parser.DefaultHandler`) a function's own code sets, and to what."""
    found: dict[str, ast.expr] = {}
    for statement, _ in _statements(node.body, ()):
        if (
            isinstance(statement, ast.Assign)
            and len(statement.targets) == 1
            and isinstance(statement.targets[0], ast.Attribute)
        ):
            found[ast.unparse(statement.targets[0])] = statement.value
    return found


def _subclass(
    new: str, old: str, classes: dict[str, list[str]], bound: frozenset[str] = frozenset()
) -> bool | None:
    """Whether the exception written `new` is a subclass of the one written `old`: True,
    False where proven (both builtins; a builtin that is no subclass of a class from
    elsewhere; a class of the module whose bases lead only to builtins), None otherwise."""
    if new == old:
        return True
    if new in bound:
        return None
    last_old = old.rsplit(".", 1)[-1]
    if new in classes:
        bases = classes[new]
        if last_old in (b.rsplit(".", 1)[-1] for b in bases):
            return True
        verdicts = [_subclass(b, old, classes, bound) for b in bases]
        if any(v is True for v in verdicts):
            return True
        return False if verdicts and all(v is False for v in verdicts) else None
    kind = getattr(builtins, new, None)
    if not (isinstance(kind, type) and issubclass(kind, BaseException)):
        return None
    if old in classes:
        return False  # a builtin is no subclass of a class the module defines
    if old in bound:
        return None  # a name the module binds otherwise (`Error = ValueError`)
    was = getattr(builtins, old, None) if "." not in old else None
    if isinstance(was, type) and issubclass(was, BaseException):
        return issubclass(kind, was)
    # a builtin's bases are builtins: a class from elsewhere is none of them
    return False if "." in old or old not in dir(builtins) else None


def _classes(tree: ast.Module) -> dict[str, list[str]]:
    return {
        n.name: [ast.unparse(b) for b in n.bases] for n in tree.body if isinstance(n, ast.ClassDef)
    }


def _parse(text: str) -> ast.Module | None:
    """The shared parse (`module_tree`: this module only reads it), or None."""
    try:
        return module_tree(text)
    except (SyntaxError, ValueError, RecursionError):
        return None


@dataclass
class _Side:
    """One revision of a module: its functions, classes and who reads each private helper."""

    tree: ast.Module
    functions: dict[str, ast.FunctionDef | ast.AsyncFunctionDef]
    helpers: dict[str, ast.FunctionDef | ast.AsyncFunctionDef]
    readers: dict[str, set[str]]
    classes: dict[str, list[str]]
    # module-level names bound by an assignment (or imported from `builtins`): which class
    # they hold is not read here
    bound: frozenset[str]

    @classmethod
    def read(cls, text: str) -> _Side | None:
        tree = _parse(text)
        if tree is None:
            return None
        functions = _module_functions(tree)
        helpers = {n: f for n, f in functions.items() if "." not in n and n.startswith("_")}
        readers: dict[str, set[str]] = {}
        for owner, f in functions.items():
            for read in _referred(f) & helpers.keys():
                readers.setdefault(read, set()).add(owner)
        # a helper the module's top level reads (a table of callbacks) is no one's alone
        top = [n for n in tree.body if not isinstance(n, (*_DEFS, ast.ClassDef))]
        for statement in top:
            for read in _referred(statement) & helpers.keys():
                readers.setdefault(read, set()).add("")
        bound = {
            t.id
            for n in tree.body
            if isinstance(n, ast.Assign | ast.AnnAssign)
            for t in (n.targets if isinstance(n, ast.Assign) else [n.target])
            if isinstance(t, ast.Name)
        }
        # (a name imported from another module holds a class from elsewhere, which no
        # builtin subclasses: `from xml.parsers.expat import ExpatError` is no alias here)
        bound |= {
            (a.asname or a.name).split(".")[0]
            for n in tree.body
            if isinstance(n, ast.ImportFrom) and n.module == "builtins"
            for a in n.names
        }
        return cls(tree, functions, helpers, readers, _classes(tree), frozenset(bound))

    def messages(self) -> set[str]:
        return {
            m
            for n in breadth([self.tree])
            if isinstance(n, ast.Raise) and n.exc is not None
            if (m := _message(n.exc)) is not None
        }


def _public(name: str) -> bool:
    return not any(part.startswith("_") for part in name.split("."))


def raises_of(
    readings: Iterable[FileReading], whole: set[str]
) -> tuple[list[RaiseReached], list[RaiseRetyped]]:
    """For each public function of a Python file read whole, defined at both revisions and
    edited: the exceptions it now raises through a function it reaches (`RaiseReached`:
    with a message its module raised nowhere at the parent), and the `raise`s on its path
    whose class changed (`RaiseRetyped`: the one `raise` of one function under the same
    tests at both revisions, the new class proven no subclass of the old)."""
    reached: list[RaiseReached] = []
    retyped: list[RaiseRetyped] = []
    for r in readings:
        if r.path not in whole or not r.path.endswith(".py") or r.texts[0] == r.texts[1]:
            continue
        # a `raise` new, gone or rewritten is on a line the patch adds or removes (a call of
        # a helper that raised already gives no message new to the module)
        if r.patch and not _RAISE_EDITED.search(r.patch):
            continue
        was, now = _Side.read(r.texts[0]), _Side.read(r.texts[1])
        if was is None or now is None:
            continue
        old_messages = was.messages()
        # a public function as it was reaches a private helper the change edits
        edited = any(
            name not in was.helpers or not same_tree(was.helpers[name], helper)
            for name, helper in now.helpers.items()
        )
        for name, node in now.functions.items():
            before = was.functions.get(name)
            if before is None or not _public(name) or (not edited and same_tree(before, node)):
                continue
            a, b = _paths(name, before, was), _paths(name, node, now)
            for key, sites in b.sites.items():
                old = a.sites.get(key, [])
                if len(sites) == 1 and len(old) == 1:
                    new_site, old_site = sites[0], old[0]
                    if (
                        new_site.exception != old_site.exception
                        and _subclass(
                            new_site.exception, old_site.exception, now.classes, now.bound
                        )
                        is False
                    ):
                        entries = b.entries(new_site.holder)
                        retyped.append(
                            RaiseRetyped(
                                name,
                                r.path,
                                new_site.exception,
                                old_site.exception,
                                new_site.holder,
                                _hooks(entries),
                                _when(entries),
                            )
                        )
                    continue
                if old:
                    continue
                for site in sites:
                    if site.holder == name or site.message is None:
                        continue
                    if site.message in old_messages:
                        continue
                    entries = b.entries(site.holder)
                    if not entries:
                        continue
                    defaults = _defaults(node)
                    default = all(
                        e.tests is not None
                        and all(_default_holds(t, h, defaults) is True for t, h in e.tests)
                        for e in entries
                    )
                    hooks = _hooks(entries)
                    set_before = _hooks_set(before)
                    replaced = tuple(
                        h for h in hooks if h in set_before and _silent(set_before[h], before)
                    )
                    reached.append(
                        RaiseReached(
                            name,
                            r.path,
                            site.exception,
                            site.message,
                            site.holder,
                            hooks,
                            _when(entries),
                            default,
                            replaced,
                        )
                    )
    return _merged(reached), retyped


@dataclass
class _Paths:
    """The `raise`s a public function's path holds (its own code and what it reaches), by
    the function they are in and their tests there."""

    sites: dict[tuple[str, tuple[str, ...]], list[_Site]]
    reach: _Reach

    def entries(self, holder: str) -> list[_Entry]:
        return _entries_of(self.reach, holder)


def _paths(name: str, node: ast.FunctionDef | ast.AsyncFunctionDef, side: _Side) -> _Paths:
    reach = _reach(name, node, side.helpers, side.readers)
    # (the nested functions by their qualified names: two closures may share a short one)
    found: dict[tuple[str, tuple[str, ...]], list[_Site]] = {}
    holders = [(name, node), *((f"{name}.{k}", v) for k, v in reach.functions.items())]
    for holder, function in holders:
        short = holder.removeprefix(f"{name}.") if holder != name else name
        for site in _sites(short, function):
            found.setdefault((short, site.tests), []).append(site)
    return _Paths(found, reach)


def _hooks(entries: list[_Entry]) -> tuple[str, ...]:
    """The hooks set, in the order the function sets them."""
    ordered = sorted(entries, key=lambda e: e.node.lineno)
    return tuple(dict.fromkeys(e.hook for e in ordered if e.hook))


def _when(entries: list[_Entry]) -> str:
    """The test of the public function's `if` every entry is under, where they share one
    and it is a plain test (not an `else`)."""
    tests = {e.tests for e in entries}
    if len(tests) != 1:
        return ""
    (shared,) = tests
    if not shared or not shared[-1][1]:
        return ""
    return shared[-1][0]


def _merged(reached: list[RaiseReached]) -> list[RaiseReached]:
    """One fact for each function, exception and message: the hooks of its raises joined
    (a hook that calls another's raising function reaches the same `raise`)."""
    out: dict[tuple[str, str, str, str | None], RaiseReached] = {}
    for fact in reached:
        key = (fact.path, fact.name, fact.exception, fact.message)
        if key not in out:
            out[key] = fact
            continue
        kept = out[key]
        out[key] = RaiseReached(
            kept.name,
            kept.path,
            kept.exception,
            kept.message,
            kept.holder,
            tuple(dict.fromkeys((*kept.hooks, *fact.hooks))),
            kept.when if kept.when == fact.when else "",
            kept.default and fact.default,
            tuple(dict.fromkeys((*kept.replaced, *fact.replaced))),
        )
    return list(out.values())
