"""What only a type checker reads in a Python module, set aside: it does nothing at run time."""

from __future__ import annotations

import ast
import builtins
import typing
import warnings
from collections import Counter
from collections.abc import Callable

from bot.analysis.facts.modules import binds_all, breadth, listed_strings

# `typing`'s names since Python 3.8: importing one more of them can fail on no supported
# Python (`TypeAlias`, 3.10, or `Self`, 3.11, can: an `ImportError` on the older ones).
_OLD_TYPING = frozenset(
    {"Any", "AnyStr", "Callable", "ClassVar", "Final", "ForwardRef", "Generic", "Literal"}
    | {"Optional", "Protocol", "Tuple", "Type", "TypeVar", "Union", "AbstractSet"}
    | {"ByteString", "Container", "ContextManager", "Hashable", "ItemsView", "Iterable"}
    | {"Iterator", "KeysView", "Mapping", "MappingView", "MutableMapping", "MutableSequence"}
    | {"MutableSet", "Sequence", "Sized", "ValuesView", "Awaitable", "AsyncIterator"}
    | {"AsyncIterable", "Coroutine", "Collection", "AsyncGenerator", "AsyncContextManager"}
    | {"Reversible", "SupportsAbs", "SupportsBytes", "SupportsComplex", "SupportsFloat"}
    | {"SupportsIndex", "SupportsInt", "SupportsRound", "ChainMap", "Counter", "Deque", "Dict"}
    | {"DefaultDict", "List", "OrderedDict", "Set", "FrozenSet", "NamedTuple", "TypedDict"}
    | {"Generator", "BinaryIO", "IO", "Match", "Pattern", "TextIO", "NewType", "NoReturn"}
    | {"Text", "TYPE_CHECKING", "cast", "final", "get_args", "get_origin", "get_type_hints"}
    | {"no_type_check", "no_type_check_decorator", "overload", "runtime_checkable"}
)
_BUILTINS = frozenset(dir(builtins))


class _Typing:
    """The names a module binds to `typing` (`import typing as t`) and to its objects
    (`from typing import cast as c`), at its top level."""

    def __init__(self, tree: ast.Module) -> None:
        self.modules: set[str] = set()
        self.names: dict[str, str] = {}
        for node in tree.body:
            if isinstance(node, ast.Import):
                self.modules.update(a.asname or a.name for a in node.names if a.name == "typing")
            elif isinstance(node, ast.ImportFrom) and node.module == "typing" and not node.level:
                self.names.update((a.asname or a.name, a.name) for a in node.names)

    def means(self, node: ast.expr, name: str) -> bool:
        """Whether `node` is `typing.<name>`, by either spelling."""
        if isinstance(node, ast.Name):
            return self.names.get(node.id) == name
        return (
            isinstance(node, ast.Attribute)
            and node.attr == name
            and isinstance(node.value, ast.Name)
            and node.value.id in self.modules
        )


def erase_checker_only(tree: ast.Module) -> None:
    """In place: `if TYPE_CHECKING:` blocks (their `else` kept), `@no_type_check` and
    `cast(T, v)` read as `v` where `T` is a string, a builtin or a name the module binds at its
    top level (inside a function: one bound before a call can run), all of `typing`'s."""
    known = _Typing(tree)
    if not known.modules and not known.names:
        return
    _Eraser(known, deferred=defers_annotations(tree)).visit(tree)
    bound = _top_level_names(tree)
    _Casts(known, bound).visit(tree)


def defers_annotations(tree: ast.Module) -> bool:
    """Whether the module defers its annotations (`from __future__ import annotations`, PEP
    563): none is evaluated at run time."""
    return any(
        isinstance(n, ast.ImportFrom)
        and n.module == "__future__"
        and any(a.name == "annotations" for a in n.names)
        for n in tree.body
    )


class _Unproven(Exception):
    """An annotation whose evaluation is not proven to succeed."""


def typing_arguments(tree: ast.Module) -> frozenset[str]:
    """The names a top-level `from M import name` binds (M not `typing`, never bound again)
    that a signature's or a class's or the module's own annotation passes to a subscript
    (`Optional[_Handler]`): evaluated by a module that does not defer them, each passed
    `typing`'s checks of a type argument at every import (`evaluates_alone`'s `vetted`)."""
    bound: Counter[str] = Counter()
    rest: list[ast.stmt] = []
    for node in tree.body:
        if isinstance(node, ast.ImportFrom) and node.module not in ("typing", "__future__"):
            bound.update(a.asname or a.name for a in node.names)
        else:
            rest.append(node)
    if "*" in bound:
        return frozenset()
    # (bound once, by that import: nothing else in the module binds it)
    imported = {n for n, count in bound.items() if count == 1}
    imported -= _rebound(ast.Module(body=rest, type_ignores=[]))
    if not imported:
        return frozenset()
    annotations: list[ast.expr] = []
    for each in ast.walk(tree):
        if isinstance(each, ast.arg) and each.annotation is not None:
            annotations.append(each.annotation)
        elif isinstance(each, ast.FunctionDef | ast.AsyncFunctionDef) and each.returns:
            annotations.append(each.returns)
        elif isinstance(each, ast.AnnAssign):
            annotations.append(each.annotation)
    found: set[str] = set()
    for annotation in annotations:
        for sub in ast.walk(annotation):
            if isinstance(sub, ast.Subscript):
                found.update(
                    n.id
                    for n in ast.walk(sub.slice)
                    if isinstance(n, ast.Name) and n.id in imported
                )
    return frozenset(found)


def evaluates_alone(
    tree: ast.Module, vetted: frozenset[str] = frozenset()
) -> Callable[[ast.expr], bool]:
    """A test of an annotation that a module which does not defer them evaluates at run time
    (a signature's, a class's or a module's `x: T`): whether evaluating it is proven to
    succeed and to run none of the project's code, so that setting it aside changes no more
    than `__annotations__`. Its parts: strings that parse as Python, constants, builtin
    classes and `typing`'s names of every Python 3.8+ (imported at the module's top, above
    the annotation), none of them bound again anywhere in the module, and their subscripts,
    evaluated here with `typing` itself (`Optional[int, str]`, `Callable[int]` raise; a
    builtin class subscripted, `list[int]`, raises before Python 3.9: unproven). `vetted`:
    names a top-level `from M import …` binds that the module's other version passed as a
    type argument too (`typing_arguments` of both: backoff b976219's `_Handler`, from
    `Optional[_Handler]` to `Union[_Handler, Iterable[_Handler]]`), read as a class: they
    passed `typing`'s checks of an argument before and after the change, and looking one up
    runs no code."""
    imported: dict[str, tuple[str, int]] = {}  # name -> (typing's name, or "" for the module)
    placeholders: dict[str, tuple[type, int]] = {}
    for node in tree.body:
        if isinstance(node, ast.ImportFrom) and node.module not in ("typing", "__future__"):
            placeholders.update(
                (a.asname or a.name, (type(a.asname or a.name, (), {}), node.lineno))
                for a in node.names
                if (a.asname or a.name) in vetted
            )
        if isinstance(node, ast.Import):
            imported.update(
                (a.asname or a.name, ("", node.lineno)) for a in node.names if a.name == "typing"
            )
        elif isinstance(node, ast.ImportFrom) and node.module == "typing" and not node.level:
            imported.update(
                (a.asname or a.name, (a.name, node.lineno))
                for a in node.names
                if a.name in _OLD_TYPING
            )
    # (`typing_arguments` found each vetted name bound once, by its import)
    rebound = _rebound(tree) - vetted

    def value(node: ast.expr, line: int) -> object:
        if isinstance(node, ast.Constant):
            if isinstance(node.value, str):
                ast.parse(node.value.strip(), mode="eval")  # a forward reference compiles it
            return node.value
        if isinstance(node, ast.Name) and node.id not in rebound:
            name, at = imported.get(node.id, (None, line))
            if name and at < line:
                return getattr(typing, name)
            if name is None and node.id in placeholders and placeholders[node.id][1] < line:
                return placeholders[node.id][0]
            if name is None and isinstance(getattr(builtins, node.id, None), type):
                return getattr(builtins, node.id)
        elif (
            isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name)
            and node.value.id not in rebound
            and imported.get(node.value.id, ("-", line))[0] == ""
            and imported[node.value.id][1] < line
            and node.attr in _OLD_TYPING
        ):
            return getattr(typing, node.attr)
        elif isinstance(node, ast.Subscript):
            base = value(node.value, line)
            if isinstance(base, type):
                raise _Unproven  # `list[int]`: a builtin class subscripted
            return base[value(node.slice, line)]  # type: ignore[index]
        elif isinstance(node, ast.Tuple | ast.List):
            items = [value(e, line) for e in node.elts]
            return tuple(items) if isinstance(node, ast.Tuple) else items
        raise _Unproven

    def alone(annotation: ast.expr) -> bool:
        if "*" in rebound:
            return False
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                value(annotation, annotation.lineno)
        except (Exception, RecursionError):  # whatever `typing` raises: not proven
            return False
        return True

    return alone


def _rebound(tree: ast.Module) -> set[str]:
    """The names bound anywhere in the module other than once by a top-level import of
    `typing` (a builtin shadowed, a `typing` name bound again); "*" where a star import may
    bind any."""
    names: set[str] = set()
    top = {id(n) for n in tree.body}
    from_typing: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
            names.add(node.id)
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.add(node.name)
        elif isinstance(node, ast.arg):
            names.add(node.arg)
        elif isinstance(node, ast.Global | ast.Nonlocal):
            names.update(node.names)
        elif isinstance(node, ast.ExceptHandler | ast.MatchAs | ast.MatchStar) and node.name:
            names.add(node.name)
        elif isinstance(node, ast.MatchMapping) and node.rest:
            names.add(node.rest)
        elif isinstance(node, ast.Import | ast.ImportFrom):
            for a in node.names:
                name = (a.asname or a.name).split(".")[0]
                if id(node) in top and _of_typing(node, a) and name not in from_typing:
                    from_typing.add(name)
                else:
                    names.add(name)
    return names


def _of_typing(node: ast.Import | ast.ImportFrom, alias: ast.alias) -> bool:
    if isinstance(node, ast.Import):
        return alias.name == "typing"
    return node.module == "typing" and not node.level and alias.name in _OLD_TYPING


def prune_typing_imports(tree: ast.Module, *, any_module: bool = False) -> None:
    """In place: the names a top-level `from typing import …` binds that nothing reads any
    more (once annotations are set aside), where each is in `typing` on every Python 3.8+.
    With `any_module`, those of any `from M import …` too, the module itself still imported
    (such a name may not exist there: an import error, which every test of the module
    meets, so no regression test is asked for)."""
    exported = _exported(tree)
    if exported is None:
        return  # what the module exports is not known: any name may be
    read = {n.id for n in breadth([tree]) if isinstance(n, ast.Name)} | exported
    body: list[ast.stmt] = []
    for node in tree.body:
        if isinstance(node, ast.ImportFrom) and node.module == "typing" and not node.level:
            node.names = [
                a for a in node.names if a.name not in _OLD_TYPING or (a.asname or a.name) in read
            ]
            if not node.names:
                continue
        elif isinstance(node, ast.ImportFrom) and any_module:
            kept = [a for a in node.names if a.name == "*" or (a.asname or a.name) in read]
            # the module is run all the same: an import of no name stands for it
            node.names = kept or [ast.alias(name="")]
        body.append(node)
    tree.body = body


def _exported(tree: ast.Module) -> set[str] | None:
    """The strings of the module's `__all__` (each list assigned or added); None where one
    is no plain list of strings."""
    names: set[str] = set()
    for node in tree.body:
        if not binds_all(node):
            continue
        listed = listed_strings(node.value, whole=True)
        if listed is None:
            return None
        names |= listed
    return names


def _top_level_names(tree: ast.Module) -> set[str]:
    """The names the module binds unconditionally at its top level."""
    names: set[str] = set()
    for node in tree.body:
        if isinstance(node, ast.Import | ast.ImportFrom):
            names.update((a.asname or a.name).split(".")[0] for a in node.names)
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.add(node.name)
        elif isinstance(node, ast.Assign | ast.AnnAssign) and node.value is not None:
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names.update(t.id for t in targets if isinstance(t, ast.Name))
    return names


class _Eraser(ast.NodeTransformer):
    """`if TYPE_CHECKING:` blocks, `@no_type_check` decorators and (annotations deferred)
    `@overload` definitions."""

    def __init__(self, known: _Typing, *, deferred: bool) -> None:
        self.known = known
        # `from __future__ import annotations`: no annotation is evaluated at run time
        self.deferred = deferred

    def visit_If(self, node: ast.If) -> ast.AST | list[ast.stmt] | None:
        self.generic_visit(node)
        if self.known.means(node.test, "TYPE_CHECKING"):
            return node.orelse or None
        return node

    def _undecorated(
        self, node: ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef
    ) -> ast.AST | None:
        if self.deferred and any(self.known.means(d, "overload") for d in node.decorator_list):
            # an `@overload` is rebound by the definition after it: it tells a type checker
            # how calls are typed, and its annotations are never evaluated (PEP 563)
            # (apscheduler b2f516d: `get_next_event`'s overloads)
            return None
        self.generic_visit(node)
        node.decorator_list = [
            d for d in node.decorator_list if not self.known.means(d, "no_type_check")
        ]
        if not node.body:
            node.body = [ast.Pass()]
        return node

    visit_FunctionDef = visit_AsyncFunctionDef = visit_ClassDef = _undecorated


class _Casts(ast.NodeTransformer):
    """`cast(T, v)` read as `v`."""

    def __init__(self, known: _Typing, bound: set[str]) -> None:
        self.known = known
        self.bound = bound
        self.depth = 0

    def _inside(self, node: ast.AST) -> ast.AST:
        self.depth += 1
        self.generic_visit(node)
        self.depth -= 1
        return node

    visit_FunctionDef = visit_AsyncFunctionDef = visit_Lambda = _inside

    def visit_Call(self, node: ast.Call) -> ast.AST:
        self.generic_visit(node)
        if (
            self.known.means(node.func, "cast")
            and len(node.args) == 2
            and not node.keywords
            and self._harmless(node.args[0])
        ):
            return node.args[1]
        return node

    def _harmless(self, kind: ast.expr) -> bool:
        """Whether evaluating the type can raise nothing: a string, a builtin, or (inside a
        function) a name, or a name's attribute, bound at the module's top level."""
        if isinstance(kind, ast.Constant) and isinstance(kind.value, str):
            return True
        if isinstance(kind, ast.Name):
            return kind.id in _BUILTINS or (self.depth > 0 and kind.id in self.bound)
        return False


# Decorators of the standard library that never read the annotations of what they wrap
_BLIND = frozenset(
    {("abc", "abstractmethod"), ("typing", "overload"), ("typing", "final")}
    | {("typing_extensions", "overload"), ("typing_extensions", "final")}
    | {("typing", "override"), ("typing_extensions", "override")}
    | {("contextlib", "contextmanager"), ("contextlib", "asynccontextmanager")}
    | {("functools", "cached_property")}
)
_BLIND_BUILTINS = frozenset({"staticmethod", "classmethod", "property"})
_PROPERTY_PARTS = frozenset({"setter", "getter", "deleter"})


def blind_decorators(tree: ast.Module) -> Callable[[ast.expr], bool]:
    """A test of a decorator: whether it is one that never reads annotations (`@property`,
    `@x.setter`, `@abstractmethod`, `@contextmanager`, …), by the module's own imports."""
    names: dict[str, tuple[str, str]] = {}
    modules: dict[str, str] = {}
    for node in tree.body:
        if isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names.update((a.asname or a.name, (node.module, a.name)) for a in node.names)
        elif isinstance(node, ast.Import):
            modules.update((a.asname or a.name, a.name) for a in node.names)

    def blind(decorator: ast.expr) -> bool:
        if isinstance(decorator, ast.Name):
            return decorator.id in _BLIND_BUILTINS or names.get(decorator.id) in _BLIND
        if isinstance(decorator, ast.Attribute) and isinstance(decorator.value, ast.Name):
            module = modules.get(decorator.value.id)
            if module is not None:
                return (module, decorator.attr) in _BLIND
            return decorator.attr in _PROPERTY_PARTS
        return False

    return blind


def hoist_typing_fallbacks(tree: ast.Module) -> None:
    """In place: each top-level `try:` that only imports `typing`'s names of every Python
    3.8+ (its `except ImportError:` a fallback to `typing_extensions`, dacite's `data.py`)
    read as its imports alone: the fallback never runs."""
    body: list[ast.stmt] = []
    for node in tree.body:
        if (
            isinstance(node, ast.Try)
            and not node.orelse
            and not node.finalbody
            and node.body
            and all(
                isinstance(s, ast.ImportFrom)
                and s.module == "typing"
                and not s.level
                and all(a.name in _OLD_TYPING for a in s.names)
                for s in node.body
            )
        ):
            body += node.body
            continue
        body.append(node)
    tree.body = body


def reads_checker_only(tree: ast.Module) -> bool:
    """Whether code that runs (not an annotation) reads a name the module binds only under
    a top-level `if TYPE_CHECKING:` (`cast(Task, v)` where `Task` is imported there): a
    `NameError` where it runs."""
    guarded: set[str] = set()
    bound: set[str] = set()
    for node in tree.body:
        checker = isinstance(node, ast.If) and (
            (isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING")
            or (isinstance(node.test, ast.Attribute) and node.test.attr == "TYPE_CHECKING")
        )
        # (its `else` runs: what it binds is bound)
        fallback = {id(n) for o in getattr(node, "orelse", []) for n in ast.walk(o)}
        for inner in ast.walk(node):
            if isinstance(inner, ast.Import | ast.ImportFrom):
                names = {(a.asname or a.name).split(".")[0] for a in inner.names}
            elif isinstance(inner, ast.Name) and isinstance(inner.ctx, ast.Store):
                names = {inner.id}
            elif isinstance(inner, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                names = {inner.name}
            else:
                continue
            if checker and id(inner) not in fallback:
                guarded |= names
            else:
                bound |= names
    only = guarded - bound
    if not only:
        return False
    annotations: set[int] = set()
    for each in ast.walk(tree):
        parts: list[ast.expr | None] = []
        if isinstance(each, ast.arg):
            parts = [each.annotation]
        elif isinstance(each, ast.FunctionDef | ast.AsyncFunctionDef):
            parts = [each.returns]
        elif isinstance(each, ast.AnnAssign):
            parts = [each.annotation]
        for part in parts:
            if part is not None:
                annotations.update(id(n) for n in ast.walk(part))
    return any(
        isinstance(n, ast.Name)
        and isinstance(n.ctx, ast.Load)
        and n.id in only
        and id(n) not in annotations
        for n in ast.walk(tree)
    )
