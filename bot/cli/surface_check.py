"""The checker's own reading of "internal only" claims: Python's parser on both revisions.

"Internal only: [changes only the private `_a`, `_b`; ]no public name, signature or default
changes in `p`, `q`." is true when each file `p` is Python, changed by the commit, and binds
the same public names at both revisions (module level and in public classes; an import
only in a package's `__init__` or a module with `__all__`), each with the same decorators,
parameters, defaults and annotations (a function), bases (a class) or value (an
assignment); the private modules named (`pkg/_impl.py`) are taken together, as a name
moved between them stays public only where a public module imports it. And, where the
private names are said: each is private (a part of it `_x`, a dunder aside), defined in one
of the files on one side at least and written differently at the other, and no public
definition of the files is written differently.
"""

from __future__ import annotations

import ast
import copy
from collections import Counter
from collections.abc import Iterator

# Each public binding as a caller meets it, (qualified name, how it is bound), counted: a
# name bound twice (once per Python version) is two bindings.
Bindings = Counter[tuple[str, str]]
_DEFINITION = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)


def is_private(name: str) -> bool:
    """A part of the dotted name starts with `_` and is not a dunder (`__init__`)."""
    return any(
        p.startswith("_") and not (p.startswith("__") and p.endswith("__")) for p in name.split(".")
    )


def private_path(path: str) -> bool:
    """A module on a path with a `_x` part (`pkg/_impl.py`, `_vendor/x.py`)."""
    stem = path.rsplit(".", 1)[0]
    return any(is_private(part) for part in stem.split("/"))


def _flat(body: list[ast.stmt]) -> Iterator[ast.stmt]:
    """A body's statements, with those of its `if`, `try` and `with` blocks."""
    for node in body:
        blocks: list[list[ast.stmt]] = []
        if isinstance(node, ast.If):
            blocks = [node.body, node.orelse]
        elif isinstance(node, ast.Try | ast.TryStar):
            blocks = [node.body, node.orelse, node.finalbody, *(h.body for h in node.handlers)]
        elif isinstance(node, ast.With | ast.AsyncWith):
            blocks = [node.body]
        if blocks:
            for block in blocks:
                yield from _flat(block)
        else:
            yield node


def _bound(node: ast.stmt) -> list[str]:
    """The plain names an assignment binds."""
    if isinstance(node, ast.Assign):
        targets = node.targets
    elif isinstance(node, ast.AnnAssign | ast.AugAssign):
        targets = [node.target]
    else:
        return []
    return [n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name)]


# PEP 585: typing's names of the builtin generics; modules a type's name is read from
_GENERICS = {"List": "list", "Dict": "dict", "Tuple": "tuple", "Set": "set"}
_GENERICS |= {"FrozenSet": "frozenset", "Type": "type"}
_TYPE_MODULES = frozenset({"typing", "t", "typing_extensions", "abc", "collections.abc"})


def _members(node: ast.expr) -> set[str]:
    """The members of a union type however written (`A | B`, `Union[A, B]`,
    `Optional[A]`, quoted), each in its one spelling."""
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
        return _members(node.left) | _members(node.right)
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        quoted = _quoted(node.value)
        return {repr(node.value)} if quoted is None else _members(quoted)
    if isinstance(node, ast.Subscript):
        head = type_text(node.value)
        items = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
        if head == "Optional" and len(items) == 1:
            return _members(items[0]) | {"None"}
        if head == "Union":
            return set().union(*(_members(i) for i in items))
    return {type_text(node)}


def _quoted(text: str) -> ast.expr | None:
    try:
        return ast.parse(text.strip(), mode="eval").body
    except SyntaxError:
        return None


def type_text(node: ast.expr | None) -> str:
    """An annotation in one spelling: what pyupgrade or a formatter rewrites (`Optional[X]`,
    `X | None`, `List[int]`, `list[int]`, `typing.Any`, `"X"`) reads the same."""
    if node is None:
        return ""
    if isinstance(node, ast.Name):
        return _GENERICS.get(node.id, node.id)
    if isinstance(node, ast.Attribute) and ast.unparse(node.value) in _TYPE_MODULES:
        return _GENERICS.get(node.attr, node.attr)
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        quoted = _quoted(node.value)
        return repr(node.value) if quoted is None else type_text(quoted)
    if isinstance(node, ast.List):
        return "[" + ", ".join(type_text(e) for e in node.elts) + "]"
    if isinstance(node, ast.Subscript):
        head = type_text(node.value)
        if head == "Literal":
            return f"Literal[{ast.unparse(node.slice)}]"
        if head not in ("Optional", "Union"):
            items = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
            return f"{head}[{', '.join(type_text(i) for i in items)}]"
    if isinstance(node, ast.Subscript) or (
        isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr)
    ):
        # (a subscript here is an `Optional` or a `Union`)
        return " | ".join(sorted(_members(node)))
    return ast.unparse(node)


def _signature(args: ast.arguments) -> str:
    bare = copy.deepcopy(args)
    named = [*bare.posonlyargs, *bare.args, bare.vararg, *bare.kwonlyargs, bare.kwarg]
    types = []
    for arg in named:
        if arg is not None:
            types.append(f"{arg.arg}:{type_text(arg.annotation)}")
            arg.annotation = None
    return f"{ast.unparse(bare)}|{';'.join(types)}"


def _called(node: ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef) -> str:
    parts = [ast.unparse(d) for d in node.decorator_list]
    if isinstance(node, ast.ClassDef):
        parts += [ast.unparse(b) for b in (*node.bases, *node.keywords)]
    else:
        parts += [type(node).__name__, _signature(node.args), type_text(node.returns)]
    return "|".join(parts)


def _last(base: ast.expr) -> str:
    """`Base` of `Base`, `mod.Base` and `Base[T]`."""
    while isinstance(base, ast.Subscript):
        base = base.value
    if isinstance(base, ast.Attribute):
        return base.attr
    return base.id if isinstance(base, ast.Name) else ""


def _walk(
    body: list[ast.stmt], prefix: str, imports: bool, public: Bindings, own: dict[str, str]
) -> None:
    # each class of this body: its bases' last names, and its public members' bindings
    # relative to it (`run` for `Class.run`), so a public class shows what it inherits
    # from the classes beside it as well as its own
    classes: dict[str, tuple[list[str], Bindings]] = {}
    public_classes: list[str] = []
    for node in _flat(body):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            name = prefix + node.name
            if not is_private(node.name):
                public[(name, _called(node))] += 1
            if isinstance(node, ast.ClassDef):
                rest = [s for s in node.body if not isinstance(s, _DEFINITION)]
                own[name] = own.get(name, "") + _called(node) + ast.dump(ast.Module(rest, []))
                inner: Bindings = Counter()
                _walk(node.body, name + ".", False, inner, own)
                relative: Bindings = Counter(
                    {(key[len(name) + 1 :], how): n for (key, how), n in inner.items()}
                )
                classes[node.name] = ([_last(b) for b in node.bases], relative)
                if not is_private(node.name):
                    public_classes.append(node.name)
            else:
                own[name] = own.get(name, "") + ast.dump(node)
        elif isinstance(node, ast.Import | ast.ImportFrom):
            if not imports:
                continue
            origin = node.module or "" if isinstance(node, ast.ImportFrom) else ""
            level = node.level if isinstance(node, ast.ImportFrom) else 0
            for alias in node.names:
                bound = alias.asname or alias.name.split(".")[0]
                if not is_private(bound):
                    public[(prefix + bound, f"from {'.' * level}{origin}")] += 1
        else:
            value = getattr(node, "value", None)
            said = ast.unparse(value) if isinstance(value, ast.expr) else ""
            annotation = getattr(node, "annotation", None)
            typed = type_text(annotation) if isinstance(annotation, ast.expr) else ""
            for name in _bound(node):
                if is_private(name):
                    continue
                held = said
                if name in ("__all__", "__slots__") and isinstance(value, ast.List | ast.Tuple):
                    # what they hold counts, not its order (a formatter sorts them)
                    held = "{" + ", ".join(sorted(ast.unparse(e) for e in value.elts)) + "}"
                public[(prefix + name, f"{typed}={held}")] += 1

    def resolved(cls: str, seen: set[str]) -> Bindings:
        """A class's members: its own, and of each member name it does not bind, what the
        first base that binds it has (the order Python looks names up in, for one base
        line at a time)."""
        bases, mine = classes[cls]
        found: Bindings = Counter(mine)
        names = {member for member, _ in mine}
        for base in bases:
            if base not in classes or base in seen:
                continue
            theirs = resolved(base, seen | {base})
            kept = {member for member, _ in theirs} - names
            found.update({(m, how): n for (m, how), n in theirs.items() if m in kept})
            names |= kept
        return found

    for cls in public_classes:
        public.update(
            {(f"{prefix}{cls}.{m}", how): n for (m, how), n in resolved(cls, {cls}).items()}
        )


def read_module(path: str, text: str | None) -> tuple[Bindings, dict[str, str]] | None:
    """The public bindings of a Python module and the own text of each definition; empty
    when the file is absent; None when it does not parse or serves names through a
    module-level `__getattr__` (PEP 562), which no reading of its bindings shows."""
    if text is None:
        return Counter(), {}
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError):
        return None
    if any(
        "__getattr__" in _bound(s) or (isinstance(s, _DEFINITION) and s.name == "__getattr__")
        for s in _flat(tree.body)
    ):
        return None
    exports = any("__all__" in _bound(s) for s in _flat(tree.body))
    package = path.rsplit("/", 1)[-1] in ("__init__.py", "__init__.pyi")
    public: Bindings = Counter()
    own: dict[str, str] = {}
    try:
        _walk(tree.body, "", package or exports, public, own)
    except RecursionError:
        return None
    listed = _listed(tree.body)
    if exports and not package and listed is not None:
        # outside a package's `__init__`, `__all__` names the imports the module exports
        public = Counter(
            {
                (n, how): k
                for (n, how), k in public.items()
                if n in listed or not how.startswith("from ")
            }
        )
    return public, own


def _listed(body: list[ast.stmt]) -> set[str] | None:
    """The strings every `__all__` statement of a module lists; None where one binds it to
    anything but a list or tuple of strings."""
    names: set[str] = set()
    for node in _flat(body):
        if "__all__" not in _bound(node):
            continue
        value = getattr(node, "value", None)
        if not isinstance(value, ast.List | ast.Tuple):
            return None
        for item in value.elts:
            if not (isinstance(item, ast.Constant) and isinstance(item.value, str)):
                return None
            names.add(item.value)
    return names


def edited(before: dict[str, str], after: dict[str, str]) -> set[str]:
    """The definitions written differently at the two revisions, or on one side only."""
    return {n for n in before.keys() | after.keys() if before.get(n) != after.get(n)}
