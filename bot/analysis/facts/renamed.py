"""A Python function's own local names, and its body with them named by where they first occur."""

from __future__ import annotations

import ast
import copy
import weakref
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager

from bot.analysis.facts.modules import breadth, children

_DEFS = (ast.FunctionDef, ast.AsyncFunctionDef)
_COMPREHENSIONS = (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)
# Calls that read a frame's locals by their names: renaming one changes what they see.
_INTROSPECTING = frozenset({"locals", "vars", "eval", "exec", "dir"})
_FRAMES = frozenset({"_getframe", "currentframe", "f_locals"})


def local_names(function: ast.FunctionDef | ast.AsyncFunctionDef) -> frozenset[str]:
    """The names `function`'s own scope binds that a consistent renaming may rename: assigned,
    a `for`, `with`, `except … as` or walrus target; not a parameter, not a name declared
    `global` or `nonlocal`, nor one a nested scope takes as a parameter or a class body binds,
    nor one bound by an import, a `def`, a `class` or a `match` pattern (names written where
    no `Name` stands); none where the body reads its frame by names (`locals()`, `eval`)."""
    return _locals(function.args, function.body)


def _locals(
    args: ast.arguments, body: list[ast.stmt], nodes: list[ast.AST] | None = None
) -> frozenset[str]:
    """`local_names`; `nodes`: `breadth(body)`, where the caller has it."""
    nodes = breadth(body) if nodes is None else nodes
    if _introspects(nodes):
        return frozenset()
    return frozenset(_own_bindings(body) - _fixed(args, nodes))


@contextmanager
def canonical(
    function: ast.FunctionDef | ast.AsyncFunctionDef, attrs: Mapping[str, str] | None = None
) -> Iterator[list[ast.stmt]]:
    """The function's body with its locals (`local_names`) and those of the functions nested
    in it named by their first occurrence in a breadth-first walk, while the block runs: two
    bodies the same up to a consistent renaming of their locals give the same trees. A
    parameter rebound once before any other read (`iterable = iter(iterable)`) is, past that
    statement, a local of its own (`iterator = iter(iterable)` is the same code); a private
    function's parameters (`_f(iterable)`: no caller outside names them) are named by their
    place; an attribute of `attrs` (a class's private attribute renamed throughout it,
    `class_attributes_renamed`) is named as given. Renamed in place and named back after (a
    copy of every edited function's tree cost a day's digest a third of its time); the tree
    is shared, so nothing else may read it meanwhile."""
    undo: list[tuple[ast.AST, str, str]] = []
    try:
        private = function.name.startswith("_") and not function.name.endswith("__")
        _rename(function.args, function.body, 0, undo, private=private)
        if attrs:
            for node in breadth(function.body):
                if isinstance(node, ast.Attribute) and node.attr in attrs:
                    undo.append((node, "attr", node.attr))
                    node.attr = attrs[node.attr]
        yield function.body
    finally:
        for node, field, old in reversed(undo):
            setattr(node, field, old)


def _rename(
    args: ast.arguments,
    body: list[ast.stmt],
    depth: int,
    undo: list[tuple[ast.AST, str, str]],
    *,
    private: bool = False,
) -> None:
    given: dict[str, str] = {}

    def named(old: str) -> str:
        return given.setdefault(old, f"local{depth}#{len(given)}")

    nodes = breadth(body)  # (renaming changes no node's children)
    introspects = _introspects(nodes)
    inner = set() if introspects else _fixed_inside(nodes)
    own = {a.arg for a in _params(args)}
    names = set() if introspects else _own_bindings(body) - inner - own
    if private and not introspects:
        # by place: `_f(iterable)` and `_f(iterator)` take the same argument
        for place, a in enumerate(_params(args)):
            if a.arg not in inner:
                names.add(a.arg)
                given[a.arg] = f"param{depth}#{place}"
                undo.append((a, "arg", a.arg))
                a.arg = given[a.arg]
    split = {} if introspects else _rebound(args, body, inner, nodes) | _resplit(body, names, nodes)
    for node in nodes:
        if isinstance(node, ast.Name) and id(node) in split:
            undo.append((node, "id", node.id))
            node.id = named(split[id(node)])
        elif isinstance(node, ast.Name) and node.id in names:
            undo.append((node, "id", node.id))
            node.id = named(node.id)
        elif isinstance(node, ast.ExceptHandler) and node.name in names:
            undo.append((node, "name", node.name))
            node.name = named(node.name)
    for nested in _nested(body):
        _rename(nested.args, nested.body, depth + 1, undo)


def _rebound(
    args: ast.arguments, body: list[ast.stmt], inner: set[str], nodes: list[ast.AST]
) -> dict[int, str]:
    """A parameter rebound by one plain assignment of the body's own statements and read
    nowhere before it but in its value (`iterable = iter(iterable)`), stored nowhere else
    and no nested scope's own name: its name stored there and read after, by node, each
    under a key no name has (from there on it is a local like any other)."""
    params = {a.arg for a in _params(args)} - inner
    if not params:
        return {}
    stores: dict[str, list[ast.Name]] = {}
    for node in nodes:
        if isinstance(node, ast.Name) and node.id in params and not isinstance(node.ctx, ast.Load):
            stores.setdefault(node.id, []).append(node)
    out: dict[int, str] = {}
    for name, stored in stores.items():
        if len(stored) != 1:
            continue
        at = next(
            (
                i
                for i, s in enumerate(body)
                if isinstance(s, ast.Assign) and len(s.targets) == 1 and s.targets[0] is stored[0]
            ),
            None,
        )
        if at is None or any(isinstance(n, ast.Name) and n.id == name for n in breadth(body[:at])):
            continue
        key = f"\0{name}"
        out[id(stored[0])] = key
        for n in breadth(body[at + 1 :]):
            if isinstance(n, ast.Name) and n.id == name:
                out[id(n)] = key
    return out


def _resplit(body: list[ast.stmt], names: set[str], nodes: list[ast.AST]) -> dict[int, str]:
    """A local bound again by a plain assignment among the body's own statements (run once,
    unconditionally: its old value is read by nothing after it but that statement's value)
    is, from there on, a local of its own (`table = {…: d for d in table.items()}` is the
    same code as `table = {…: d for d in raw_table.items()}`): its names there and after, by
    node, each under a key no name has. Only a local that plain single assignments alone
    bind, and that no nested scope reads (a closure, a lambda or a generator sees its
    latest value)."""
    nested = (*_DEFS, ast.Lambda, ast.ClassDef, ast.GeneratorExp)
    closed = {
        n.id
        for node in nodes
        if isinstance(node, nested)
        for n in breadth([node])
        if isinstance(n, ast.Name)
    }
    plain: set[int] = set()
    for node in nodes:
        if isinstance(node, ast.Assign) and len(node.targets) == 1:
            plain.add(id(node.targets[0]))
    others = {
        n.id
        for n in nodes
        if isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Load) and id(n) not in plain
    }
    others |= {n.name for n in nodes if isinstance(n, ast.ExceptHandler) and n.name}
    splittable = names - closed - others
    if not splittable:
        return {}
    out: dict[int, str] = {}
    segment: dict[str, int] = {}
    bound: set[str] = set()

    def tag(nodes: Sequence[ast.AST]) -> None:
        for n in breadth(nodes):
            if isinstance(n, ast.Name) and segment.get(n.id):
                out[id(n)] = f"\0{n.id}#{segment[n.id]}"

    for statement in body:
        target = (
            statement.targets[0]
            if isinstance(statement, ast.Assign) and len(statement.targets) == 1
            else None
        )
        if (
            isinstance(statement, ast.Assign)
            and isinstance(target, ast.Name)
            and target.id in splittable
            and target.id in bound
        ):
            tag([statement.value])
            segment[target.id] = segment.get(target.id, 0) + 1
            tag([target])
        else:
            tag([statement])
        bound |= _own_bindings([statement])
    return out


def _introspects(nodes: list[ast.AST]) -> bool:
    """Whether the nodes of a body (`breadth`) read its frame by names."""
    for node in nodes:
        if isinstance(node, ast.Name) and node.id in _INTROSPECTING:
            return True
        if isinstance(node, ast.Attribute) and node.attr in _FRAMES:
            return True
    return False


def _own_bindings(body: list[ast.stmt]) -> set[str]:
    """The names bound in the scope of `body` itself, its nested scopes' own aside (a
    comprehension's walrus binds here; its targets do not)."""
    out: set[str] = set()
    stack: list[ast.AST] = list(body)
    while stack:
        node = stack.pop()
        if isinstance(node, _DEFS):
            stack += [*node.decorator_list, *node.args.defaults]
            stack += [d for d in node.args.kw_defaults if d is not None]
        elif isinstance(node, ast.Lambda):
            stack += [*node.args.defaults, *(d for d in node.args.kw_defaults if d is not None)]
        elif isinstance(node, ast.ClassDef):
            stack += [*node.decorator_list, *node.bases, *node.keywords]
        elif isinstance(node, _COMPREHENSIONS):
            out |= {
                n.target.id
                for n in breadth([node])
                if isinstance(n, ast.NamedExpr) and isinstance(n.target, ast.Name)
            }
        else:
            if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store | ast.Del):
                out.add(node.id)
            elif isinstance(node, ast.ExceptHandler) and node.name:
                out.add(node.name)
            stack += children(node)
    return out


def _fixed(args: ast.arguments, nodes: list[ast.AST]) -> set[str]:
    """Names no renaming of the function's locals may touch: its parameters, and names
    written as strings somewhere in it (a nested parameter, `global`, an import's, a
    `def`'s or `class`'s, a `match` capture's) or bound in a class body (an attribute)."""
    return {a.arg for a in _params(args)} | _fixed_inside(nodes)


def _fixed_inside(nodes: list[ast.AST]) -> set[str]:
    """`_fixed` but for the function's own parameters (`nodes`: the body's, `breadth`)."""
    out: set[str] = set()
    for node in nodes:
        if isinstance(node, ast.arg):
            out.add(node.arg)
        elif isinstance(node, ast.Global | ast.Nonlocal):
            out.update(node.names)
        elif isinstance(node, ast.alias):
            out.add((node.asname or node.name).split(".")[0])
        elif isinstance(node, (*_DEFS, ast.ClassDef)):
            out.add(node.name)
            if isinstance(node, ast.ClassDef):
                out |= {n.id for n in breadth([node]) if isinstance(n, ast.Name)}
        elif isinstance(node, ast.MatchAs | ast.MatchStar) and node.name:
            out.add(node.name)
        elif isinstance(node, ast.MatchMapping) and node.rest:
            out.add(node.rest)
    return out


def _params(args: ast.arguments) -> list[ast.arg]:
    extra = [a for a in (args.vararg, args.kwarg) if a is not None]
    return [*args.posonlyargs, *args.args, *args.kwonlyargs, *extra]


def _nested(body: list[ast.stmt]) -> list[ast.FunctionDef | ast.AsyncFunctionDef]:
    """The functions defined in the scope of `body` itself (not in a class, a lambda or
    another nested function)."""
    out: list[ast.FunctionDef | ast.AsyncFunctionDef] = []
    stack: list[ast.AST] = list(body)
    while stack:
        node = stack.pop()
        if isinstance(node, _DEFS):
            out.append(node)
        elif not isinstance(node, (ast.ClassDef, ast.Lambda, *_COMPREHENSIONS)):
            stack += children(node)
    return out


def renamed_locals(
    was: ast.FunctionDef | ast.AsyncFunctionDef, now: ast.FunctionDef | ast.AsyncFunctionDef
) -> tuple[frozenset[str], frozenset[str]]:
    """The locals the parent's function binds that the commit's never names, and those the
    commit's binds that the parent's never named: the two sides of a local renamed (a local
    renamed onto a name the other side reads, a global, is in neither)."""
    (was_locals, was_names), (now_locals, now_names) = _named(was), _named(now)
    return was_locals - now_names, now_locals - was_names


# `_named` of a function's tree, kept while the tree lives: an edited function is asked by
# its conditions and by its statements, and its commit's tree is the next commit's parent's.
# (Not asked while `canonical` renames a tree: it reads `_locals` of the tree as renamed.)
_NAMED: weakref.WeakKeyDictionary[ast.AST, tuple[frozenset[str], frozenset[str]]] = (
    weakref.WeakKeyDictionary()
)


def _named(
    function: ast.FunctionDef | ast.AsyncFunctionDef,
) -> tuple[frozenset[str], frozenset[str]]:
    """The function's `local_names`, and every name its body reads or binds."""
    found = _NAMED.get(function)
    if found is None:
        nodes = breadth(function.body)
        names = frozenset(n.id for n in nodes if isinstance(n, ast.Name))
        found = _NAMED[function] = (_locals(function.args, function.body, nodes), names)
    return found


def same_but_renamed(
    old: ast.AST, new: ast.AST, renamed: tuple[frozenset[str], frozenset[str]]
) -> bool:
    """Whether `old` is `new` with some of the locals `renamed_locals` gives renamed one for
    one (`head is not root` and `curr is not root`): no change of what it does."""
    gone, fresh = renamed
    pairs: dict[str, str] = {}
    back: dict[str, str] = {}
    old_nodes, new_nodes = breadth([old]), breadth([new])
    if len(old_nodes) != len(new_nodes):
        return False
    for a, b in zip(old_nodes, new_nodes, strict=True):
        if isinstance(a, ast.Name) and isinstance(b, ast.Name) and a.id != b.id:
            if a.id not in gone or b.id not in fresh:
                return False
            if pairs.setdefault(a.id, b.id) != b.id or back.setdefault(b.id, a.id) != a.id:
                return False
    return bool(pairs) and _blanked(old) == _blanked(new)


def reads_renamed(
    old: ast.AST, new: ast.AST, renamed: tuple[frozenset[str], frozenset[str]]
) -> bool:
    """Whether `old` and `new` read the same names but for locals of `renamed_locals`
    (`return (item[0], …)` and `return (key, …)`, `item` gone and `key` new): what differs
    follows where a local is bound now, the change said there, not here."""
    gone, fresh = renamed
    old_names = {n.id for n in breadth([old]) if isinstance(n, ast.Name)}
    new_names = {n.id for n in breadth([new]) if isinstance(n, ast.Name)}
    lost, gained = old_names - new_names, new_names - old_names
    return bool(lost or gained) and lost <= gone and gained <= fresh


class _Blank(ast.NodeTransformer):
    def visit_Name(self, node: ast.Name) -> ast.AST:
        return ast.Name(id="_", ctx=node.ctx)


def _blanked(node: ast.AST) -> str:
    return ast.dump(_Blank().visit(copy.deepcopy(node)))


# A module-level name the commit renamed -> its new name, and (module's bound name, old
# attribute) -> the new attribute (`m._foo` read as `m._bar`): what a definition that only
# follows a rename reads instead (`Follows`)
Follows = tuple[dict[str, str], dict[tuple[str, str], str]]


def _parts(node: ast.AST) -> list[ast.AST]:
    """What a definition's code digest reads: a function's decorators, parameters, return
    annotation and body; a class's decorators, bases, keywords and own statements (its
    methods and nested classes are names of their own)."""
    if isinstance(node, ast.ClassDef):
        members = (*_DEFS, ast.ClassDef)
        body = [s for s in node.body if not isinstance(s, members)]
        return [*node.decorator_list, *node.bases, *node.keywords, *body]
    if isinstance(node, _DEFS):
        returns = [node.returns] if node.returns else []
        return [*node.decorator_list, node.args, *returns, *node.body]
    return [node]


# `node_count` of a definition's tree, kept while the tree lives (a renaming, done in place,
# never changes it): asked by `_same_code` and by `follows.only_follows` before a renaming
_NODES: weakref.WeakKeyDictionary[ast.AST, int] = weakref.WeakKeyDictionary()


def node_count(node: ast.AST) -> int:
    """How many nodes `ast.walk` meets in `node`: two trees that a renaming of names makes
    the same have as many."""
    found = _NODES.get(node)
    if found is None:
        found = _NODES[node] = len(breadth([node]))
    return found


def code_size(node: ast.AST) -> int:
    """How many nodes a definition's code digest reads (`_parts`), its docstring aside: the
    same for two definitions that `following` and `canonical` can make the same code."""
    parts = _parts(node)
    if isinstance(node, (*_DEFS, ast.ClassDef)) and node.body and parts:
        first = node.body[0]
        if (
            isinstance(first, ast.Expr)
            and isinstance(first.value, ast.Constant)
            and isinstance(first.value.value, str)
        ):
            parts = [p for p in parts if p is not first]
    return len(breadth(parts))


def binds(node: ast.AST, names: set[str] | frozenset[str]) -> bool:
    """Whether anything `node`'s code reads (`_parts`) binds one of `names` in a scope of
    its own: a parameter, an assignment, an import, a `def`, a `class`, an `except … as`, a
    `global`, a `match` capture (then that name there is no module's definition)."""
    for n in breadth(_parts(node)):
        if isinstance(n, ast.Name):
            if n.id in names and not isinstance(n.ctx, ast.Load):
                return True
        elif isinstance(n, ast.arg):
            if n.arg in names:
                return True
        elif isinstance(n, ast.alias):
            if (n.asname or n.name).split(".")[0] in names:
                return True
        elif isinstance(n, (*_DEFS, ast.ClassDef, ast.ExceptHandler, ast.MatchAs, ast.MatchStar)):
            if n.name in names:
                return True
        elif isinstance(n, ast.Global | ast.Nonlocal):
            if names.intersection(n.names):
                return True
        elif isinstance(n, ast.MatchMapping) and n.rest in names:
            return True
    return False


@contextmanager
def following(node: ast.AST, follows: Follows) -> Iterator[set[str | tuple[str, str]]]:
    """The parent's `node` with the names it reads of definitions the commit renamed read by
    their new names, while the block runs; yields the `follows` keys it read (none where
    `node` binds one of those names itself: that name is its own there). Renamed in place
    and named back after, as `canonical` does: the tree is shared."""
    names, attrs = follows
    undo: list[tuple[ast.AST, str, str]] = []
    read: set[str | tuple[str, str]] = set()
    keys = {*names, *(m for m, _ in attrs)}
    try:
        if not binds(node, keys):
            for n in breadth(_parts(node)):
                if isinstance(n, ast.Name) and n.id in names:
                    read.add(n.id)
                    undo.append((n, "id", n.id))
                    n.id = names[n.id]
                elif (
                    isinstance(n, ast.Attribute)
                    and isinstance(n.value, ast.Name)
                    and (n.value.id, n.attr) in attrs
                ):
                    read.add((n.value.id, n.attr))
                    undo.append((n, "attr", n.attr))
                    n.attr = attrs[n.value.id, n.attr]
        yield read
    finally:
        for n, field, old in reversed(undo):
            setattr(n, field, old)


def class_attributes_renamed(
    was: ast.ClassDef, now: ast.ClassDef
) -> tuple[dict[str, str], dict[str, str]]:
    """A class's private instance attributes (`_x`, `__x`, never `__x__`; not a method nor
    anything else its body binds) renamed throughout it: those
    the parent's class reads or sets that the commit's never names, paired by the order they
    first occur (breadth first) with those the commit's names that the parent's never did,
    each pair under one name, for each side (`self._iterable` → `self._iterator` in every
    method: `canonical` reads them the same). None where the counts differ."""

    def private(name: str) -> bool:
        return name.startswith("_") and not name.endswith("__")

    def attrs(node: ast.ClassDef) -> dict[str, None]:
        return dict.fromkeys(n.attr for n in breadth([node]) if isinstance(n, ast.Attribute))

    def members(node: ast.ClassDef) -> set[str]:
        # what the class body binds (a method, a class attribute): a definition renamed,
        # which its callers follow (said as theirs), not an instance's attribute
        out = {s.name for s in node.body if isinstance(s, (*_DEFS, ast.ClassDef))}
        for s in node.body:
            if isinstance(s, ast.Assign | ast.AnnAssign | ast.AugAssign):
                targets = s.targets if isinstance(s, ast.Assign) else [s.target]
                out |= {n.id for t in targets for n in breadth([t]) if isinstance(n, ast.Name)}
        return out

    was_attrs, now_attrs = attrs(was), attrs(now)
    bound = members(was) | members(now)
    gone = [a for a in was_attrs if private(a) and a not in now_attrs and a not in bound]
    fresh = [a for a in now_attrs if private(a) and a not in was_attrs and a not in bound]
    if not gone or len(gone) != len(fresh):
        return {}, {}
    return (
        {a: f"attr#{i}" for i, a in enumerate(gone)},
        {a: f"attr#{i}" for i, a in enumerate(fresh)},
    )
