"""Names a Python module still reads after the commit removed them, and new calls that leave
out a required argument of a function of the same module: a `NameError` or a `TypeError`
where the line runs, proven from the two whole files."""

from __future__ import annotations

import ast
import builtins
import functools
import re
import symtable
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from bot.analysis.facts.listed import _bound
from bot.analysis.facts.modules import module_tree, own_nodes
from bot.analysis.facts.pyfile import PARSE_ERRORS
from bot.analysis.facts.records import Dangling, ShortCall
from bot.analysis.facts.same_tree import same_tree

# what may bind or serve a module's names where no statement of its own does, or code that
# expects a name to be missing (`except NameError`)
_DYNAMIC = re.compile(
    r"\bglobals\(\)|\bvars\(\)|\blocals\(\)|\bsys\.modules\b|\b__dict__\b|\bsetattr\("
    r"|\bexec\(|\beval\(|\b__builtins__\b|\bbuiltins\b|\bNameError\b"
)
_BUILTINS = frozenset(dir(builtins))
_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)
# the nodes `_Index._scan` counts by their `name`
_NAMED = frozenset({ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef})


def dangling(path: str, before: str, after: str, gone: set[str] | None = None) -> list[Dangling]:
    """The names the module bound at the parent and binds nowhere at the commit that its code
    at the commit still loads, each with the first line that loads it (platformdirs 8102be8:
    `PY3` gone, `if PY3:` kept). None where the module may bind names out of sight (a star
    import, a module `__getattr__`, `globals()`), or where a scope has a name of its own.
    `gone`: `removed_names` of the file where the caller has them already."""
    if gone is None:
        gone = removed_names(path, before, after)
    if not gone:
        return []
    try:
        now = module_tree(after)
    except (*PARSE_ERRORS, SyntaxError, ValueError, RecursionError):
        return []
    lines = _loads(now, gone)
    if not lines:
        # (none to say, whatever the scopes: their table, a compile of its own, not built)
        return []
    try:
        table = symtable.symtable(after, path, "exec")
    except (*PARSE_ERRORS, SyntaxError, ValueError, RecursionError):
        return []
    found = []
    for name in sorted(lines, key=lambda n: lines[n]):
        if _global_everywhere(table, name):
            found.append(Dangling(name, lines[name], path))
    return found


def removed_names(path: str, before: str, after: str) -> set[str]:
    """The names a module's own namespace had at the parent and has no statement binding at
    the commit; none where it may bind or serve names out of sight."""
    if not before or not after or _DYNAMIC.search(after):
        return set()
    try:
        now = module_tree(after)
        bound_was, bound_now = _bound_names(before), _bound_names(after)
    except (*PARSE_ERRORS, SyntaxError, ValueError, RecursionError):
        return set()
    if _opaque(now):
        return set()
    # a package's own submodule is its attribute once anything imports it: in an
    # `__init__.py` a lower-case name may be one, read without a statement binding it
    package = path.rsplit("/", 1)[-1] == "__init__.py"
    return {
        n
        for n in bound_was - bound_now
        if n not in _BUILTINS
        and not (n.startswith("__") and n.endswith("__"))
        and not (package and n == n.lower())
    }


def imports_removed(path: str, text: str, removed: Mapping[str, set[str]]) -> list[Dangling]:
    """The `from m import name` statements of a module at the commit (`path`, `text`) whose
    module `m` is another changed file that no longer binds `name` (`removed`: by path): an
    `ImportError` where it runs. Not one inside a `try` (a fallback may stand for it)."""
    try:
        tree = module_tree(text)
    except (*PARSE_ERRORS, SyntaxError, ValueError, RecursionError):
        return []
    found = []
    for node in _outside_try(tree):
        if not isinstance(node, ast.ImportFrom):
            continue
        # (a package's name may be a submodule `from pkg import name` imports)
        source = next(
            (
                p
                for p in removed
                if p != path and not p.endswith("__init__.py") and _is_module(path, node, p)
            ),
            None,
        )
        if source is None:
            continue
        found += [
            Dangling(a.name, node.lineno, path, source)
            for a in node.names
            if a.name in removed[source]
        ]
    return found


def _outside_try(tree: ast.AST) -> Iterator[ast.AST]:
    """The module and its statements (and `case`s) outside every `try`, in the order a walk
    of the whole tree meets them: an expression holds no statement."""
    stack: list[ast.AST] = [tree]
    while stack:
        node = stack.pop()
        yield node
        if not isinstance(node, ast.Try | ast.TryStar):
            # (`handlers` and `finalbody` are a `try`'s alone)
            for field in ("body", "orelse", "cases"):
                stack += getattr(node, field, ())


def _parts(path: str) -> list[str]:
    parts = path.removesuffix(".py").split("/")
    return parts[:-1] if parts[-1] == "__init__" else parts


def _is_module(importer: str, node: ast.ImportFrom, target: str) -> bool:
    """Whether `from … import` in the file `importer` names the module of the file `target`:
    relative, from the importer's folder; absolute, from the top or from `src/`."""
    named = node.module.split(".") if node.module else []
    if node.level:
        folder = importer.split("/")[:-1]
        if node.level - 1 > len(folder):
            return False
        base = folder[: len(folder) - (node.level - 1)]
        return base + named == _parts(target)
    return _parts(target) in (named, ["src", *named])


def _opaque(tree: ast.Module) -> bool:
    """A star import, or a module-level `__getattr__` (PEP 562): names served unseen."""
    for node in _statements(tree):
        if isinstance(node, ast.ImportFrom) and any(a.name == "*" for a in node.names):
            return True
    return any(
        isinstance(s, ast.FunctionDef | ast.AsyncFunctionDef) and s.name == "__getattr__"
        for s in tree.body
    )


def _statements(tree: ast.Module) -> Iterator[ast.AST]:
    """The module, its statements at every depth, their `except` handlers and `case`s:
    where an import or a class may stand, without the expressions a whole walk visits."""
    stack: list[ast.AST] = [tree]
    while stack:
        node = stack.pop()
        yield node
        for field in ("body", "orelse", "finalbody", "handlers", "cases"):
            stack += getattr(node, field, ())


def _global_everywhere(table: symtable.SymbolTable, name: str) -> bool:
    """Whether every scope that names `name` reads it as the module's (no parameter, local,
    closure or `global` of that name anywhere), and the module binds it nowhere."""
    stack = [table]
    while stack:
        scope = stack.pop()
        try:
            symbol = scope.lookup(name)
        except KeyError:
            symbol = None
        if symbol is not None:
            if scope.get_type() == "module":
                if symbol.is_assigned() or symbol.is_imported() or symbol.is_declared_global():
                    return False
            elif (
                symbol.is_local()
                or symbol.is_parameter()
                or symbol.is_free()
                or symbol.is_declared_global()
                or symbol.is_assigned()
                or symbol.is_imported()
            ):
                return False
        stack += scope.get_children()
    return True


def _loads(tree: ast.Module, names: set[str]) -> dict[str, int]:
    """The first line loading each of `names` in code that runs: annotations and
    `if TYPE_CHECKING:` blocks are no read at run time."""
    found: dict[str, int] = {}
    for node in _running(tree):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load) and node.id in names:
            found[node.id] = min(found.get(node.id, node.lineno), node.lineno)
    return found


def _running(tree: ast.AST) -> Iterator[ast.AST]:
    stack: list[ast.AST] = [tree]
    while stack:
        node = stack.pop()
        yield node
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            stack += node.orelse
            continue
        for field, value in ast.iter_fields(node):
            if field in ("annotation", "returns"):
                continue
            if isinstance(value, ast.AST):
                stack.append(value)
            elif isinstance(value, list):
                stack += [v for v in value if isinstance(v, ast.AST)]


# --- calls short of a required argument ---------------------------------------------------


def short_calls(path: str, before: str, after: str) -> list[ShortCall]:
    """The calls a function of the module makes anew (or keeps, of a callee whose parameters
    the commit changes, where they bound all they had to before), of a plain function of the
    module by its name or of a method of its own class through `self`, that bind no argument
    to a required parameter of the callee, or pass a keyword it does not take (tinydb
    43cf1ff: `Query.__init__` calls `self._generate_test(lambda _: True)`, leaving out
    `hashval`). Only where the callee is one `def` with nothing that could stand for it."""
    # (the same text: every function as it was, no call said)
    if not before or not after or before == after or _DYNAMIC.search(after):
        return []
    try:
        was_index, now_index = _index(before), _index(after)
    except (*PARSE_ERRORS, SyntaxError, ValueError, RecursionError):
        return []
    now = now_index.tree
    if _opaque(now):
        return []
    old = {name: (node, owner) for name, node, owner in was_index.functions}
    found = []
    resigned = _resigned(was_index, now_index)
    was_lines, now_lines = was_index.lines, now_index.lines
    for name, node, owner in now_index.functions:
        parent, parent_owner = old.get(name, (None, None))
        if (
            parent is not None
            and not resigned
            and (
                _written(was_lines, parent) == _written(now_lines, node) or same_tree(parent, node)
            )
        ):
            continue
        # (read at the first call of a `def` of that name: most calls are of none)
        old_calls: dict[str | None, list[ast.Call]] = {}
        for call in _own_calls(node):
            callee = _callee(now_index, call, node, owner)
            if callee is None:
                continue
            named = _called(call)
            if named not in old_calls:
                old_calls[named] = was_index.calls_named(parent, named) if parent else []
            kept = old_calls[named]
            same = next((i for i, c in enumerate(kept) if same_tree(c, call)), None)
            if same is not None:
                del kept[same]
                # a call kept as it was: said only where the callee's signature changed and
                # the same call bound all it had to at the parent
                assert parent is not None
                before_callee = _callee(was_index, call, parent, parent_owner)
                if before_callee is None or before_callee[0] != callee[0]:
                    continue
                if same_tree(before_callee[1].args, callee[1].args):
                    continue
                if _unbound(call, before_callee[1], before_callee[2]) is not None:
                    continue
            callee_name, target, bound_first = callee
            said = _unbound(call, target, bound_first)
            if said is not None:
                missing, unknown = said
                found.append(
                    ShortCall(name, callee_name, tuple(missing), tuple(unknown), call.lineno, path)
                )
    return found


def _written(lines: list[str], node: ast.FunctionDef | ast.AsyncFunctionDef) -> tuple[object, ...]:
    """A `def`'s lines as written, decorators in, and where it starts and ends on them: the
    same for two `def`s only where their trees are the same (`ast.dump` costs more)."""
    first = min([node.lineno, *(d.lineno for d in node.decorator_list)])
    end = node.end_lineno or node.lineno
    return (node.col_offset, node.end_col_offset, *lines[first - 1 : end])


@functools.lru_cache(maxsize=256)
def _bound_names(text: str) -> frozenset[str]:
    """The names a module's own scope binds (`listed._bound`), kept by text: a day's commits
    read the text one left as the next one's parent."""
    return frozenset(_bound(module_tree(text)))


@functools.lru_cache(maxsize=16)
def _index(text: str) -> _Index:
    """A module's `_Index`, kept by text: a day's commits read the text one left as the next
    one's parent."""
    return _Index(module_tree(text), text)


def _resigned(was: _Index, now: _Index) -> bool:
    """Whether a function or method of the module takes other parameters at the commit."""
    before = dict(was.signatures)
    return any(
        name in before and not same_tree(before[name], args) for name, args in now.signatures
    )


def _functions_with_owner(
    tree: ast.Module,
) -> Iterator[tuple[str, ast.FunctionDef | ast.AsyncFunctionDef, ast.ClassDef | None]]:
    """The module's own functions and its classes' own methods, by qualified name."""
    for s in tree.body:
        if isinstance(s, ast.FunctionDef | ast.AsyncFunctionDef):
            yield s.name, s, None
        elif isinstance(s, ast.ClassDef):
            for m in s.body:
                if isinstance(m, ast.FunctionDef | ast.AsyncFunctionDef):
                    yield f"{s.name}.{m.name}", m, s


def _called(call: ast.Call) -> str | None:
    """The name a call calls (`f(…)`, `x.f(…)`), if one."""
    func = call.func
    return func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)


def _own_calls(node: ast.AST) -> Iterator[ast.Call]:
    """The calls of a function's own code (not of a function, class or lambda in it)."""
    return (child for child in own_nodes(node) if isinstance(child, ast.Call))


def _plain(node: ast.FunctionDef | ast.AsyncFunctionDef) -> str | None:
    """`"function"`, `"static"` or `"class"` for a `def` with no other decorator; None."""
    if not node.decorator_list:
        return "function"
    if len(node.decorator_list) == 1 and isinstance(node.decorator_list[0], ast.Name):
        return {"staticmethod": "static", "classmethod": "class"}.get(node.decorator_list[0].id)
    return None


class _Index:
    """What `short_calls` asks of one module tree, each worked out once in one walk: a
    commit's calls ask the same questions of the same tree many times, and the next commit
    asks them of the text this one left."""

    def __init__(self, tree: ast.Module, text: str) -> None:
        self.tree = tree
        self.lines = text.splitlines()
        self.functions = list(_functions_with_owner(tree))
        self.defs: dict[str, list[ast.FunctionDef | ast.AsyncFunctionDef]] = {}
        for s in tree.body:
            if isinstance(s, ast.FunctionDef | ast.AsyncFunctionDef):
                self.defs.setdefault(s.name, []).append(s)
        self._locals: dict[int, set[str]] = {}
        self._by_name: dict[int, dict[str | None, list[ast.Call]]] = {}

    def local_names(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> set[str]:
        if id(node) not in self._locals:
            self._locals[id(node)] = _local_names(node)
        return self._locals[id(node)]

    def calls_named(
        self, node: ast.FunctionDef | ast.AsyncFunctionDef, named: str | None
    ) -> list[ast.Call]:
        """The calls of a function's own code of a callable so named (`_called`), a copy:
        two calls alike (`same_tree`) call one name."""
        if id(node) not in self._by_name:
            by_name: dict[str | None, list[ast.Call]] = {}
            for c in _own_calls(node):
                by_name.setdefault(_called(c), []).append(c)
            self._by_name[id(node)] = by_name
        return list(self._by_name[id(node)].get(named, []))

    @functools.cached_property
    def signatures(self) -> list[tuple[str, ast.arguments]]:
        """Each function's and method's qualified name with its parameters (compared by
        `same_tree`: dumping them all cost more than comparing the few asked)."""
        return [(name, node.args) for name, node, _ in self.functions]

    @functools.cached_property
    def _scan(
        self,
    ) -> tuple[
        Counter[str], set[str], list[tuple[ast.ClassDef, list[tuple[ast.stmt, set[str]]], set[str]]]
    ]:
        """`bindings`, `stored_attributes` and `classes`, from one walk of the tree (a
        parsed tree's nodes are of the `ast` classes themselves: their types are compared,
        a quarter faster than `isinstance` against unions)."""
        count: Counter[str] = Counter()
        stored: set[str] = set()
        classes = []
        # each node with the name sets of the class-body statements it is in
        # (`Any`: the node's class is told by `kind`, which mypy does not narrow on)
        stack: list[tuple[Any, tuple[set[str], ...]]] = [(self.tree, ())]
        push = stack.append
        while stack:
            node, sinks = stack.pop()
            kind = type(node)
            if kind is ast.Name:
                if type(node.ctx) is not ast.Load:
                    count[node.id] += 1
                    for sink in sinks:
                        sink.add(node.id)
                continue
            if kind in _NAMED:
                count[node.name] += 1
            elif kind is ast.alias:
                count[node.asname or node.name.split(".", 1)[0]] += 1
            elif kind is ast.Global:
                count.update({n: 2 for n in set(node.names)})
            elif kind is ast.Attribute and type(node.ctx) is not ast.Load:
                stored.add(node.attr)
            members: list[tuple[ast.stmt, set[str]]] = []
            if kind is ast.ClassDef:
                members = [(s, set()) for s in node.body]
                stack += [(s, (*sinks, names)) for s, names in members]
            for field in kind._fields:
                value = getattr(node, field, None)
                if isinstance(value, ast.AST):
                    push((value, sinks))
                elif isinstance(value, list) and not (members and field == "body"):
                    stack += [(v, sinks) for v in value if isinstance(v, ast.AST)]
            if kind is ast.ClassDef:
                classes.append((node, members))
        found = []
        for node, members in classes:
            names = set().union(*(n for _, n in members))
            names |= {
                s.name for s in node.body if isinstance(s, ast.FunctionDef | ast.AsyncFunctionDef)
            }
            found.append((node, members, names))
        return count, stored, found

    @property
    def bindings(self) -> Counter[str]:
        """How many statements anywhere bind each name (a `def`, an assignment, an import;
        a `global` counts twice)."""
        return self._scan[0]

    @property
    def stored_attributes(self) -> set[str]:
        """The names any `x.name = …` stores: another callable may stand on an instance."""
        return self._scan[1]

    @property
    def classes(self) -> list[tuple[ast.ClassDef, list[tuple[ast.stmt, set[str]]], set[str]]]:
        """Every class of the module, with each statement of its body and the names it
        binds, and all those names with its `def`s': what a subclass's `self` may find
        instead."""
        return self._scan[2]

    def named_elsewhere(self, owner: ast.ClassDef, method: str, own: Sequence[ast.stmt]) -> bool:
        """Whether a statement of `owner`'s body other than `own` binds `method`."""
        members = next(m for c, m, _ in self.classes if c is owner)
        return any(method in names for s, names in members if s not in own)

    def overridden(self, owner: ast.ClassDef, method: str) -> bool:
        """Whether another class of the module defines or binds `method`."""
        return any(c is not owner and method in names for c, _, names in self.classes)


def _callee(
    index: _Index,
    call: ast.Call,
    caller: ast.FunctionDef | ast.AsyncFunctionDef,
    owner: ast.ClassDef | None,
) -> tuple[str, ast.FunctionDef | ast.AsyncFunctionDef, bool] | None:
    """The one `def` a call runs, its name as said, and whether the call binds its first
    parameter itself (a method through `self`); None where anything else may answer."""
    # (the cheapest questions first: most calls are of no `def` of the module)
    func = call.func
    if isinstance(func, ast.Name):
        if func.id in _BUILTINS:
            return None
        defs = index.defs.get(func.id, [])
        # bound once in the module, by that `def` alone
        if len(defs) != 1 or _plain(defs[0]) != "function" or index.bindings[func.id] != 1:
            return None
        if func.id in index.local_names(caller):
            return None
        return func.id, defs[0], False
    if not (
        isinstance(func, ast.Attribute)
        and isinstance(func.value, ast.Name)
        and owner is not None
        and caller.args.args
        and func.value.id == caller.args.args[0].arg == "self"
        and _plain(caller) == "function"
    ):
        return None
    method = func.attr
    own = [
        s
        for s in owner.body
        if isinstance(s, ast.FunctionDef | ast.AsyncFunctionDef) and s.name == method
    ]
    if len(own) != 1:
        return None
    # a class that answers every attribute itself may hand out another callable
    if any(isinstance(s, ast.FunctionDef) and s.name == "__getattribute__" for s in owner.body):
        return None
    kind = _plain(own[0])
    if kind is None or _stub(own[0]):
        return None
    if index.named_elsewhere(owner, method, own) or index.overridden(owner, method):
        return None
    if method in index.stored_attributes:
        return None
    return method, own[0], kind in ("function", "class")


def _stub(node: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """A body that only stands for a subclass's (`pass`, `...`, `raise NotImplementedError`):
    the method `self` finds is likely another, with its own parameters."""
    body = [
        s
        for s in node.body
        if not (isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant))
        and not isinstance(s, ast.Pass)
    ]
    return not body or all(
        isinstance(s, ast.Raise) and "NotImplemented" in ast.unparse(s) for s in body
    )


def _local_names(node: ast.FunctionDef | ast.AsyncFunctionDef) -> set[str]:
    args = node.args
    names = {a.arg for a in (*args.posonlyargs, *args.args, *args.kwonlyargs)}
    names |= {a.arg for a in (args.vararg, args.kwarg) if a is not None}
    stack: list[ast.AST] = [node]
    while stack:
        child = stack.pop()
        if isinstance(child, ast.Name):
            if not isinstance(child.ctx, ast.Load):
                names.add(child.id)
            continue
        if isinstance(child, ast.alias):
            names.add(child.asname or child.name.split(".", 1)[0])
        elif isinstance(child, _SCOPES) and child is not node and not isinstance(child, ast.Lambda):
            names.add(child.name)
        # (`ast.walk`, inline and in another order: a set of names)
        for field in child._fields:
            value = getattr(child, field, None)
            if isinstance(value, ast.AST):
                stack.append(value)
            elif isinstance(value, list):
                stack += [v for v in value if isinstance(v, ast.AST)]
    return names


def _unbound(
    call: ast.Call, target: ast.FunctionDef | ast.AsyncFunctionDef, bound_first: bool
) -> tuple[list[str], list[str]] | None:
    """The required parameters of `target` the call binds nothing to, and the keywords it
    passes that `target` does not take; None where the call binds all it must, or where a
    `*args`/`**kwargs` (at the call or in the signature) makes it unknowable."""
    args = target.args
    if args.vararg or args.kwarg:
        return None
    if any(isinstance(a, ast.Starred) for a in call.args) or any(
        k.arg is None for k in call.keywords
    ):
        return None
    positional = [*args.posonlyargs, *args.args]
    if bound_first:
        if not positional:
            return None
        positional = positional[1:]
    # defaults stand for the last positional parameters
    first_default = len([*args.posonlyargs, *args.args]) - len(args.defaults)
    offset = 1 if bound_first else 0
    if len(call.args) > len(positional):
        return None  # too many: said by no sentence here
    bound = {p.arg for p in positional[: len(call.args)]}
    posonly = {p.arg for p in args.posonlyargs}
    takes = {p.arg for p in positional} - posonly | {a.arg for a in args.kwonlyargs}
    unknown = []
    for k in call.keywords:
        assert k.arg is not None
        if k.arg in bound:
            return None  # given twice: another error, not said
        if k.arg not in takes:
            unknown.append(k.arg)
        bound.add(k.arg)
    required = [p.arg for i, p in enumerate(positional) if i + offset < first_default]
    required += [a.arg for a, d in zip(args.kwonlyargs, args.kw_defaults, strict=True) if d is None]
    missing = [r for r in required if r not in bound]
    if not missing and not unknown:
        return None
    return missing, unknown
