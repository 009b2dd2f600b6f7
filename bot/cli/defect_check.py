"""What a Python module at a commit proves fails where it runs, read for the claims checker
with Python's own scope table (`symtable`) and its own argument binding (`inspect`)."""

from __future__ import annotations

import ast
import builtins
import inspect
import re
import symtable
from collections.abc import Iterator

# what binds a module's names unseen, or expects one missing: no reading proves a read fails
_UNSEEN = re.compile(
    r"\bglobals\(\)|\bvars\(\)|\blocals\(\)|\bsys\.modules\b|\b__dict__\b|\bsetattr\("
    r"|\bexec\(|\beval\(|\b__builtins__\b|\bbuiltins\b|\bNameError\b|import \*"
    r"|def __getattr__\("
)


class Unknowable(Exception):
    """The files do not let a reading decide."""


def _tables(text: str, path: str) -> Iterator[symtable.SymbolTable]:
    try:
        top = symtable.symtable(text, path, "exec")
    except (SyntaxError, ValueError, RecursionError) as e:
        raise Unknowable(f"`{path}` does not parse") from e
    stack = [top]
    while stack:
        table = stack.pop()
        yield table
        stack += table.get_children()


def module_binds(text: str, path: str, name: str) -> bool:
    """Whether any statement binds `name` in the module's own namespace: at its top level,
    or in a scope that declares it `global`."""
    for table in _tables(text, path):
        try:
            symbol = table.lookup(name)
        except KeyError:
            continue
        if table.get_type() == "module":
            if symbol.is_assigned() or symbol.is_imported():
                return True
        elif symbol.is_declared_global():
            return True
    return False


def still_reads(before: str, after: str, path: str, name: str, line: int) -> str | None:
    """Why "`path` still reads `name` (line N), which this commit removes" is false; None
    where it holds. Raises `Unknowable` where the module may bind names out of sight."""
    if _UNSEEN.search(after):
        raise Unknowable(f"`{path}` may bind names out of sight")
    if name in dir(builtins):
        return f"`{name}` is a builtin"
    if not module_binds(before, path, name):
        return f"`{path}` did not bind `{name}` at the parent"
    if module_binds(after, path, name):
        return f"`{path}` still binds `{name}` at the commit"
    for table in _tables(after, path):
        try:
            symbol = table.lookup(name)
        except KeyError:
            continue
        if table.get_type() != "module" and not (
            symbol.is_global() and not symbol.is_assigned() and not symbol.is_parameter()
        ):
            return f"a scope of `{path}` has a `{name}` of its own"
    lines = {
        n.lineno
        for n in ast.walk(ast.parse(after))
        if isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Load)
    }
    if line not in lines:
        return f"line {line} of `{path}` does not read `{name}`"
    return None


def still_imports(
    importer: str, text: str, *, line: int, name: str, source: str, before: str, after: str
) -> str | None:
    """Why "`importer` still imports `name` from `source` (line N), which this commit
    removes" is false; None where it holds: line N of `importer` at the commit is a
    `from … import name` (no `try` around it) whose module is the file `source` (relative
    from the importer's folder, or absolute from the top or `src/`), and `source` bound
    `name` at the parent and binds it nowhere at the commit."""
    if _UNSEEN.search(after):
        raise Unknowable(f"`{source}` may bind names out of sight")
    if source.endswith("__init__.py"):
        raise Unknowable(f"`{source}` is a package: `{name}` may be a submodule")
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError) as e:
        raise Unknowable(f"`{importer}` does not parse") from e
    tried = {
        id(n) for t in ast.walk(tree) if isinstance(t, ast.Try | ast.TryStar) for n in ast.walk(t)
    }
    target = source.removesuffix(".py").split("/")
    folder = importer.split("/")[:-1]
    for node in ast.walk(tree):
        if not isinstance(node, ast.ImportFrom) or node.lineno != line or id(node) in tried:
            continue
        if name not in {a.name for a in node.names}:
            continue
        module = node.module.split(".") if node.module else []
        if node.level:
            up = node.level - 1
            where = folder[: len(folder) - up] + module if up <= len(folder) else None
            if where != target:
                continue
        elif target not in (module, ["src", *module]):
            continue
        if not module_binds(before, source, name):
            return f"`{source}` did not bind `{name}` at the parent"
        if module_binds(after, source, name):
            return f"`{source}` still binds `{name}` at the commit"
        return None
    return f"line {line} of `{importer}` imports no `{name}` from `{source}` outside a `try`"


def _function(tree: ast.Module, qualified: str) -> ast.FunctionDef | ast.AsyncFunctionDef | None:
    owner, _, short = qualified.rpartition(".")
    body: list[ast.stmt] = tree.body
    if owner:
        cls = [s for s in tree.body if isinstance(s, ast.ClassDef) and s.name == owner]
        if len(cls) != 1:
            return None
        body = cls[0].body
    found = [s for s in body if isinstance(s, ast.FunctionDef | ast.AsyncFunctionDef)]
    found = [s for s in found if s.name == short]
    return found[0] if len(found) == 1 else None


def _stub(node: ast.FunctionDef | ast.AsyncFunctionDef) -> inspect.Signature:
    """The signature of a `def`, its defaults and annotations left out of the evaluation:
    Python's own binder reads it."""
    args = ast.fix_missing_locations(ast.parse("def f(): pass")).body[0]
    assert isinstance(args, ast.FunctionDef)
    copy = ast.arguments(
        posonlyargs=[ast.arg(a.arg) for a in node.args.posonlyargs],
        args=[ast.arg(a.arg) for a in node.args.args],
        vararg=ast.arg(node.args.vararg.arg) if node.args.vararg else None,
        kwonlyargs=[ast.arg(a.arg) for a in node.args.kwonlyargs],
        kw_defaults=[None if d is None else ast.Constant(None) for d in node.args.kw_defaults],
        kwarg=ast.arg(node.args.kwarg.arg) if node.args.kwarg else None,
        defaults=[ast.Constant(None) for _ in node.args.defaults],
    )
    source = f"def f({ast.unparse(copy)}): pass"
    space: dict[str, object] = {}
    exec(compile(source, "<signature>", "exec"), {}, space)
    function = space["f"]
    assert callable(function)
    return inspect.signature(function)


def calls_without(
    text: str,
    path: str,
    caller: str,
    callee: str,
    *,
    parameter: str | None,
    keyword: str | None,
) -> str | None:
    """Why "`caller` calls `callee` without its required `parameter`" (or "passes `callee`
    the keyword `keyword`, which it does not take") is false at the commit; None where a call
    in `caller`'s own code of `callee` (a function of the module by name, a method of
    `caller`'s class through `self`) binds as said."""
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError) as e:
        raise Unknowable(f"`{path}` does not parse") from e
    node = _function(tree, caller)
    if node is None:
        return f"`{path}` defines no one `{caller}`"
    owner = caller.rpartition(".")[0]
    through_self = False
    target = _function(tree, f"{owner}.{callee}") if owner else None
    if target is not None:
        through_self = True
    else:
        target = _function(tree, callee)
    if target is None:
        return f"`{path}` defines no one `{callee}` beside `{caller}`"
    decorators = [ast.unparse(d) for d in target.decorator_list]
    if decorators not in ([], ["staticmethod"], ["classmethod"]):
        raise Unknowable(f"`{callee}` is decorated")
    signature = _stub(target)
    calls = [
        c
        for c in _own(node)
        if isinstance(c, ast.Call)
        and (
            (
                through_self
                and isinstance(c.func, ast.Attribute)
                and c.func.attr == callee
                and isinstance(c.func.value, ast.Name)
                and c.func.value.id == "self"
            )
            or (not through_self and isinstance(c.func, ast.Name) and c.func.id == callee)
        )
    ]
    if not calls:
        return f"`{caller}` has no call of `{callee}`"
    first = through_self and decorators != ["staticmethod"]
    for call in calls:
        if any(isinstance(a, ast.Starred) for a in call.args) or any(
            k.arg is None for k in call.keywords
        ):
            continue
        given = [object()] * (len(call.args) + first)
        names = [k.arg for k in call.keywords if k.arg]
        if keyword is not None:
            taken = {
                p.name
                for p in signature.parameters.values()
                if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)
            }
            has_kwargs = any(p.kind is p.VAR_KEYWORD for p in signature.parameters.values())
            if keyword in names and keyword not in taken and not has_kwargs:
                return None
            continue
        try:
            bound = signature.bind_partial(*given, **dict.fromkeys(names))
        except TypeError:
            continue
        wanted = signature.parameters.get(parameter or "")
        if (
            wanted is not None
            and wanted.default is inspect.Parameter.empty
            and wanted.kind not in (wanted.VAR_POSITIONAL, wanted.VAR_KEYWORD)
            and wanted.name not in bound.arguments
        ):
            return None
    said = f"the keyword `{keyword}`" if keyword else f"`{parameter}`"
    return f"every call of `{callee}` in `{caller}` binds {said} as its signature takes it"


def _own(node: ast.AST) -> Iterator[ast.AST]:
    stack = list(ast.iter_child_nodes(node))
    while stack:
        child = stack.pop()
        if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef | ast.Lambda):
            continue
        yield child
        stack += list(ast.iter_child_nodes(child))
