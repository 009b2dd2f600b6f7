"""A Python module's public surface: what a caller can name in it, and how it is called."""

from __future__ import annotations

import ast
import copy

from bot.analysis.facts.modules import binds_all, listed_strings
from bot.analysis.paths import private_module

# typing's aliases of the builtins (PEP 585), and the modules a type's name may be read from
_BUILTINS = {
    "List": "list",
    "Dict": "dict",
    "Tuple": "tuple",
    "Set": "set",
    "FrozenSet": "frozenset",
    "Type": "type",
}
_TYPING = frozenset({"typing", "t", "typing_extensions", "abc", "collections.abc"})
# (`__all__`, `__slots__`: what they hold counts, not its order)
_UNORDERED = frozenset({"__all__", "__slots__"})


def private_name(name: str) -> bool:
    """A part of the dotted name is `_private`; a dunder (`__init__`, `__all__`) is the
    language's own and public."""
    return any(
        part.startswith("_") and not (part.startswith("__") and part.endswith("__"))
        for part in name.split(".")
    )


class _Spelling(ast.NodeTransformer):
    """A type as one spelling of it: `Optional[X]` and `Union[X, None]` as `X | None` (the
    members in one order), `List[int]` as `list[int]`, `typing.Any` as `Any`, a quoted
    annotation as the expression it quotes: what a formatter or pyupgrade rewrites is the
    same type for callers and type checkers."""

    def visit_Constant(self, node: ast.Constant) -> ast.AST:
        if not isinstance(node.value, str):
            return node
        try:
            quoted = ast.parse(node.value.strip(), mode="eval").body
        except SyntaxError:
            return node
        spelled: ast.AST = self.visit(quoted)
        return spelled

    def visit_Attribute(self, node: ast.Attribute) -> ast.AST:
        if ast.unparse(node.value) in _TYPING:
            spelled: ast.AST = self.visit(ast.Name(node.attr))
            return spelled
        return self.generic_visit(node)

    def visit_Name(self, node: ast.Name) -> ast.AST:
        return ast.Name(_BUILTINS.get(node.id, node.id))

    def visit_Subscript(self, node: ast.Subscript) -> ast.AST:
        head = self.visit(node.value)
        name = head.id if isinstance(head, ast.Name) else ""
        if name == "Literal":
            return ast.Subscript(head, node.slice)
        items = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
        if name == "Optional" and len(items) == 1:
            return _union([self.visit(items[0]), ast.Constant(None)])
        if name == "Union":
            return _union([self.visit(i) for i in items])
        return ast.Subscript(head, self.visit(node.slice))

    def visit_BinOp(self, node: ast.BinOp) -> ast.AST:
        if isinstance(node.op, ast.BitOr):
            return _union([self.visit(node.left), self.visit(node.right)])
        return self.generic_visit(node)


def _union(members: list[ast.AST]) -> ast.AST:
    flat: dict[str, ast.expr] = {}
    for member in members:
        parts = [member]
        while parts:
            part = parts.pop()
            if isinstance(part, ast.BinOp) and isinstance(part.op, ast.BitOr):
                parts += [part.left, part.right]
            elif isinstance(part, ast.expr):
                flat[ast.unparse(part)] = part
    ordered = [flat[k] for k in sorted(flat)]
    if not ordered:
        return ast.Constant(None)
    out = ordered[0]
    for member in ordered[1:]:
        out = ast.BinOp(out, ast.BitOr(), member)
    return out


def spelled(annotation: str) -> str:
    """An annotation's text in one spelling of its type (`Optional[X]` is `X | None`); as
    written where it does not parse."""
    try:
        node = ast.parse(annotation.strip(), mode="eval").body
    except SyntaxError:
        return annotation
    return _type(node)


def _type(annotation: ast.expr | None) -> str:
    if annotation is None:
        return ""
    return ast.unparse(_Spelling().visit(copy.deepcopy(annotation)))


def _parameters(args: ast.arguments) -> str:
    """The parameters as written, each annotation in its one spelling."""
    spelled = copy.deepcopy(args)
    for arg in (*spelled.posonlyargs, *spelled.args, *spelled.kwonlyargs):
        arg.annotation = None
    for vararg in (spelled.vararg, spelled.kwarg):
        if vararg is not None:
            vararg.annotation = None
    everyone = [*args.posonlyargs, *args.args, args.vararg, *args.kwonlyargs, args.kwarg]
    types = ", ".join(f"{a.arg}: {_type(a.annotation)}" for a in everyone if a is not None)
    return f"{ast.unparse(spelled)} [{types}]"


def _header(node: ast.AST) -> str:
    """How a caller meets a definition: its decorators, parameters and annotations (a
    function), its decorators, bases and keywords (a class); never its body."""
    decorators = " ".join(
        f"@{ast.unparse(d)}" for d in getattr(node, "decorator_list", ()) if isinstance(d, ast.expr)
    )
    if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
        returns = f" -> {_type(node.returns)}" if node.returns else ""
        kind = "async def" if isinstance(node, ast.AsyncFunctionDef) else "def"
        return f"{decorators} {kind}({_parameters(node.args)}){returns}"
    if isinstance(node, ast.ClassDef):
        bases = [ast.unparse(b) for b in node.bases] + [ast.unparse(k) for k in node.keywords]
        return f"{decorators} class({', '.join(bases)})"
    return ""


def _statements(body: list[ast.stmt]) -> list[ast.stmt]:
    """The statements of a body, those under its `if`, `try` and `with` blocks included
    (`if TYPE_CHECKING:`, `try: import x`): each binds names at the body's own level."""
    out: list[ast.stmt] = []
    for node in body:
        if isinstance(node, ast.If):
            out += _statements(node.body) + _statements(node.orelse)
        elif isinstance(node, ast.Try | ast.TryStar):
            out += _statements(node.body) + _statements(node.orelse)
            out += _statements(node.finalbody)
            for handler in node.handlers:
                out += _statements(handler.body)
        elif isinstance(node, ast.With | ast.AsyncWith):
            out += _statements(node.body)
        else:
            out.append(node)
    return out


def _base_name(node: ast.expr) -> str:
    """The last name of a base (`abc.ABC`: `ABC`, `Base[T]`: `Base`), '' for anything else."""
    if isinstance(node, ast.Subscript):
        return _base_name(node.value)
    if isinstance(node, ast.Name):
        return node.id
    return node.attr if isinstance(node, ast.Attribute) else ""


def _scope(body: list[ast.stmt], imports: bool) -> dict[str, str]:
    """The public names a body binds, with a public class's members (its own, and those it
    inherits from the classes of the same body: a method moved to a base is still there
    for callers) under `Class.member`."""
    found: dict[str, str] = {}
    classes: dict[str, tuple[list[str], dict[str, str]]] = {}
    shown: list[str] = []
    for node in _statements(body):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            if isinstance(node, ast.ClassDef):
                classes[node.name] = ([_base_name(b) for b in node.bases], _scope(node.body, False))
            if private_name(node.name):
                continue
            # several `def`s of one name (overloads, a property's setter): all count
            found[node.name] = found.get(node.name, "") + _header(node)
            if isinstance(node, ast.ClassDef):
                shown.append(node.name)
        elif isinstance(node, ast.Assign | ast.AnnAssign | ast.AugAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            value = ast.unparse(node.value) if node.value is not None else ""
            annotation = f": {_type(node.annotation)}" if isinstance(node, ast.AnnAssign) else ""
            for target in targets:
                for leaf in ast.walk(target):
                    if not isinstance(leaf, ast.Name) or private_name(leaf.id):
                        continue
                    held = value
                    if leaf.id in _UNORDERED and isinstance(
                        node.value, ast.List | ast.Tuple | ast.Set
                    ):
                        held = (
                            "{" + ", ".join(sorted(ast.unparse(e) for e in node.value.elts)) + "}"
                        )
                    # a name bound once per Python version (`if sys.version_info …: X = 1`
                    # `else: X = 2`): every binding counts, as the checker counts them
                    found[leaf.id] = found.get(leaf.id, "") + f"{annotation} = {held}"
        elif imports and isinstance(node, ast.Import | ast.ImportFrom):
            source = (node.module or "") if isinstance(node, ast.ImportFrom) else ""
            for alias in node.names:
                bound = alias.asname or alias.name.split(".", 1)[0]
                if not private_name(bound):
                    how = f"import {'.' * getattr(node, 'level', 0)}{source}"
                    found[bound] = found.get(bound, "") + how

    def members(name: str, seen: frozenset[str]) -> dict[str, str]:
        bases, own = classes[name]
        out: dict[str, str] = {}
        for base in reversed(bases):
            if base in classes and base not in seen:
                out.update(members(base, seen | {base}))
        return out | own

    for name in shown:
        found.update({f"{name}.{m}": h for m, h in members(name, frozenset({name})).items()})
    return found


def _deferred(tree: ast.Module) -> bool:
    """`from __future__ import annotations`: no annotation is evaluated at run time."""
    return any(
        isinstance(node, ast.ImportFrom)
        and node.module == "__future__"
        and any(a.name == "annotations" for a in node.names)
        for node in tree.body
    )


class _Quoted(ast.NodeTransformer):
    """A quoted annotation kept as its quotes: `Name("'User'")` unparses as written."""

    def visit_Constant(self, node: ast.Constant) -> ast.AST:
        return ast.Name(repr(node.value)) if isinstance(node.value, str) else node


def _keep_quotes(tree: ast.Module) -> None:
    """Where annotations are evaluated as the module runs, a quoted one (`"User"`) and the
    name (`User`) are not the same: the name raises NameError where it is imported only
    under `TYPE_CHECKING`. Their quotes are kept, so the two spellings differ."""
    for node in ast.walk(tree):
        if isinstance(node, ast.arg | ast.AnnAssign) and node.annotation is not None:
            node.annotation = _Quoted().visit(node.annotation)
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.returns:
            node.returns = _Quoted().visit(node.returns)


def public_surface(text: str, *, package: bool) -> dict[str, str] | None:
    """Each public name a module binds at its top level and in its public classes, with how
    a caller meets it (a function's decorators, parameters and annotations; a class's bases;
    an assignment's value); None when the text does not parse or the module has its own
    `__getattr__` (PEP 562: the names it serves are its code's to say). The names a module
    imports count only in a package's `__init__` (where callers import from) or, in a
    module with `__all__`, those it lists; elsewhere an import is the module's own business."""
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError):
        return None
    if any(_binds_getattr(node) for node in _statements(tree.body)):
        return None
    if not _deferred(tree):
        _keep_quotes(tree)
    listed: set[str] = set()
    exported = written = False
    for node in _statements(tree.body):
        if not binds_all(node):
            continue
        exported = True
        strings = listed_strings(node.value, whole=True)
        if strings is not None:
            listed |= strings
        else:
            written = True
    try:
        found = _scope(tree.body, package or exported)
    except RecursionError:
        return None
    if exported and not package and not written:
        # a module's `__all__` says which of its imports it exports
        found = {
            name: how
            for name, how in found.items()
            if name in listed or not how.startswith("import ")
        }
    return found


def _binds_getattr(node: ast.stmt) -> bool:
    """`def __getattr__(name)` or `__getattr__ = …` at a module's top level."""
    if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
        return node.name == "__getattr__"
    targets = node.targets if isinstance(node, ast.Assign) else []
    return any(isinstance(t, ast.Name) and t.id == "__getattr__" for t in targets)


def surface_kept(
    files: list[tuple[str, str, str]], *, private_gains: bool = False
) -> tuple[str, ...]:
    """The paths of `files` (path, text at the parent, text at the commit; '' where the
    file is absent) whose public surface is the same at both revisions. The private modules
    (`pkg/_impl.py`) are compared as one: a name moved from one to another stays where
    callers import it from (a public module re-exporting it is among the files, or it
    was not re-exported). `private_gains`: the private modules may also gain names, none
    lost or re-signed (code moved out of a public module into a private one, the public
    module's own surface compared as before); a public module the change leaves alone that
    star-imports the private one would re-export the gained names unseen."""
    kept: list[str] = []
    private: list[str] = []
    pooled: tuple[dict[str, list[str]], dict[str, list[str]]] = ({}, {})
    for path, before, after in files:
        package = path.rsplit("/", 1)[-1] in ("__init__.py", "__init__.pyi")
        old = public_surface(before, package=package) if before else {}
        new = public_surface(after, package=package) if after else {}
        if old is None or new is None:
            continue
        if private_module(path):
            private.append(path)
            for pool, side in zip(pooled, (old, new), strict=True):
                for name, header in side.items():
                    pool.setdefault(name, []).append(header)
        elif old == new:
            kept.append(path)
    names = pooled[0].keys() if private_gains else pooled[0].keys() | pooled[1].keys()
    if private and all(sorted(pooled[0].get(n, [])) == sorted(pooled[1].get(n, [])) for n in names):
        kept += private
    return tuple(p for p, _, _ in files if p in kept)


def _stub_imports(tree: ast.Module) -> dict[str, str] | None:
    """A stub's imports that it does not re-export (`import X as X` and `from m import X as X`
    do): the name each binds and the module it comes from; None when one re-exports."""
    found: dict[str, str] = {}
    for node in _statements(tree.body):
        if not isinstance(node, ast.Import | ast.ImportFrom):
            continue
        source = node.module or "" if isinstance(node, ast.ImportFrom) else ""
        for alias in node.names:
            if alias.asname is not None and alias.asname == alias.name.rsplit(".", 1)[-1]:
                return None
            found[alias.asname or alias.name] = source or alias.name
    return found


def _without_imports(tree: ast.AST) -> ast.AST:
    """The tree with its import statements left out (a stub's own bindings, spelled)."""

    class _Drop(ast.NodeTransformer):
        def visit_Import(self, node: ast.Import) -> None:
            return None

        def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
            return None

    dropped: ast.AST = _Drop().visit(tree)
    return dropped


def same_stub(before: str, after: str) -> bool:
    """Whether a type stub (`.pyi`) says the same to a type checker at both revisions: its
    definitions equal once every type is in one spelling (`Optional[X]` is `X | None`,
    `typing.List` is `list`), and each name it imports from typing's modules
    (`typing.Iterable` → `collections.abc.Iterable`) or from the same module; no import
    re-exported (PEP 484: a stub's plain imports are not part of its surface)."""
    try:
        trees = [ast.parse(text) for text in (before, after)]
    except (SyntaxError, ValueError, RecursionError):
        return False
    imports = [_stub_imports(tree) for tree in trees]
    if imports[0] is None or imports[1] is None:
        return False
    for name in imports[0].keys() & imports[1].keys():
        sources = {imports[0][name], imports[1][name]}
        if len(sources) > 1 and not sources <= _TYPING:
            return False
    spelled = [ast.dump(_Spelling().visit(_without_imports(tree))) for tree in trees]
    return spelled[0] == spelled[1]
