"""The literals a Python function can hand back, read by the claims checker's own walk."""

from __future__ import annotations

import ast
import posixpath
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

# How many calls a returned value is followed through: the simplest call-through (a method
# returning what one helper returns), never a chain.
CALL_DEPTH = 1
_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)
_FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef)

# A path's text at one revision; None where the revision has no such file.
Reader = Callable[[str], str | None]
# A literal as Python's `repr` writes its value, with its type's name (`True == 1` in a set)
Literal = tuple[str, str]


class NotPython(Exception):
    """A file the walk needs does not parse as Python."""


def literal_of(text: str) -> Literal | None:
    """The literal a claim writes (`None`, `False`, `'a'`, `[]`); None: not a literal."""
    try:
        value = ast.literal_eval(text.strip())
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return None
    return type(value).__name__, repr(value)


@dataclass
class Returned:
    """What a function's `return`s give: the literals written (directly, through a name its
    own code binds to one, or through the call followed), and what the walk could not read
    (a computed value, a call not followed), said in words."""

    literals: set[Literal] = field(default_factory=set)
    opaque: set[str] = field(default_factory=set)
    generator: bool = False
    # the tests of the `if`s, `while`s and `… if … else …` of each function walked, as
    # `ast.unparse` writes them
    tests: set[str] = field(default_factory=set)

    def add(self, other: Returned) -> None:
        self.literals |= other.literals
        self.opaque |= other.opaque
        self.generator |= other.generator
        self.tests |= other.tests


@dataclass(frozen=True)
class _Module:
    path: str
    tree: ast.Module


@dataclass(frozen=True)
class _Frame:
    """A function where it is written: its module and the class whose body holds it."""

    node: ast.FunctionDef | ast.AsyncFunctionDef
    module: _Module
    owner: ast.ClassDef | None


class _Walk:
    """One revision's files, parsed once each."""

    def __init__(self, read: Reader) -> None:
        self._read = read
        self._parsed: dict[str, _Module | None] = {}

    def module(self, path: str) -> _Module | None:
        if path not in self._parsed:
            text = self._read(path)
            if text is None:
                self._parsed[path] = None
            else:
                try:
                    self._parsed[path] = _Module(path, ast.parse(text))
                except (SyntaxError, ValueError, RecursionError):
                    raise NotPython(path) from None
        return self._parsed[path]

    def functions(self, path: str, name: str) -> list[_Frame]:
        """The functions and methods of the file qualified `name` (`C.m`), else those whose
        qualified name ends in `.name`; a class's own `__init__` for a class."""
        module = self.module(path)
        if module is None:
            return []
        found: list[tuple[str, _Frame]] = []

        def walk(body: list[ast.stmt], prefix: str, owner: ast.ClassDef | None) -> None:
            for node in body:
                if isinstance(node, _FUNCTIONS):
                    found.append((prefix + node.name, _Frame(node, module, owner)))
                elif isinstance(node, ast.ClassDef):
                    walk(node.body, prefix + node.name + ".", node)
                    init = _own_def(node, "__init__")
                    if init is not None:
                        found.append((prefix + node.name, _Frame(init, module, node)))
                elif isinstance(node, ast.If | ast.Try):
                    for block in _blocks(node):
                        walk(block, prefix, owner)

        walk(module.tree.body, "", None)
        exact = [f for q, f in found if q == name]
        return exact or [f for q, f in found if q.endswith("." + name)]

    def returned(self, frame: _Frame, depth: int = 0) -> Returned:
        """What the function's own `return`s give (a nested function's are its own); a
        function whose body may end without `return` or `raise` gives None there too."""
        out = Returned()
        own = list(_own(frame.node))
        out.generator = any(isinstance(n, ast.Yield | ast.YieldFrom) for n in own)
        out.tests = {
            ast.unparse(n.test) for n in own if isinstance(n, ast.If | ast.While | ast.IfExp)
        }
        for node in own:
            if isinstance(node, ast.Return):
                out.add(self._value(node.value, frame, depth, node.lineno, set()))
        last = frame.node.body[-1]
        if not isinstance(last, ast.Return | ast.Raise):
            if _compound(last):
                out.opaque.add(f"`{frame.node.name}` may run off its end")
            else:
                out.literals.add(("NoneType", "None"))
        return out

    def _value(
        self, node: ast.expr | None, frame: _Frame, depth: int, line: int, seen: set[str]
    ) -> Returned:
        if node is None:
            return Returned({("NoneType", "None")})
        try:
            value = ast.literal_eval(node)
        except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
            pass
        else:
            return Returned({(type(value).__name__, repr(value))})
        if isinstance(node, ast.Name):
            return self._name(node.id, frame, depth, line, seen)
        if isinstance(node, ast.Call):
            return self._called(node, frame, depth, self.returned)
        return Returned(opaque={f"`{ast.unparse(node)}` is computed"})

    def _name(self, name: str, frame: _Frame, depth: int, line: int, seen: set[str]) -> Returned:
        """A local name's values: each plain binding of it written before the line (a
        literal, a name, a call followed, a tuple unpacked from a call)."""
        if name in seen:
            return Returned()
        seen = seen | {name}
        args = frame.node.args
        params = args.posonlyargs + args.args + args.kwonlyargs
        params += [a for a in (args.vararg, args.kwarg) if a]
        if any(p.arg == name for p in params):
            return Returned(opaque={f"`{name}` is a parameter"})
        out = Returned()
        bound = False
        for node in _own(frame.node):
            if getattr(node, "lineno", 0) >= line:
                continue
            if isinstance(node, ast.Assign | ast.AnnAssign) and node.value is not None:
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                for target in targets:
                    if isinstance(target, ast.Name) and target.id == name:
                        bound = True
                        out.add(self._value(node.value, frame, depth, node.lineno, seen))
                    elif isinstance(target, ast.Tuple | ast.List) and name in _names(target):
                        bound = True
                        at = _names(target).index(name)
                        out.add(self._element(node.value, at, len(target.elts), frame, depth))
            elif name in _bound_otherwise(node):
                bound = True
                out.opaque.add(f"`{name}` is bound otherwise than by `=`")
        if not bound:
            out.opaque.add(f"`{name}` is not bound in `{frame.node.name}`")
        return out

    def _element(self, node: ast.expr, at: int, size: int, frame: _Frame, depth: int) -> Returned:
        """Item `at` of a tuple of `size` a value gives when unpacked."""
        if isinstance(node, ast.Tuple) and len(node.elts) == size:
            return self._value(node.elts[at], frame, depth, node.lineno, set())
        if isinstance(node, ast.Call):
            return self._called(node, frame, depth, lambda f, d: self.items(f, d, at, size))
        return Returned(opaque={f"`{ast.unparse(node)}` is unpacked"})

    def _called(
        self,
        call: ast.Call,
        frame: _Frame,
        depth: int,
        read: Callable[[_Frame, int], Returned],
    ) -> Returned:
        written = ast.unparse(call.func)
        if depth >= CALL_DEPTH:
            return Returned(opaque={f"`{written}(…)` is more than one call deep"})
        callee = self._callee(call.func, frame)
        if callee is None:
            return Returned(opaque={f"`{written}(…)` is not followed"})
        return read(callee, depth + 1)

    def items(self, frame: _Frame, depth: int, at: int, size: int) -> Returned:
        """Item `at` of each tuple of `size` the function's own `return`s write out."""
        out = Returned()
        for node in _own(frame.node):
            if not isinstance(node, ast.Return):
                continue
            value = node.value
            if isinstance(value, ast.Tuple) and len(value.elts) == size:
                out.add(self._value(value.elts[at], frame, depth, node.lineno, set()))
            else:
                out.opaque.add(f"`{frame.node.name}` returns what is not a tuple written out")
        return out

    def _callee(self, func: ast.expr, frame: _Frame) -> _Frame | None:
        """The function a call names: a function of its module, one it imports, a method
        (or a class attribute bound to a function, `staticmethod(f)` too) of the class
        through `self.` / `cls.`, or a function of a module imported whole."""
        if isinstance(func, ast.Name):
            return self._global(func.id, frame.module)
        if not isinstance(func, ast.Attribute) or not isinstance(func.value, ast.Name):
            return None
        receiver, name = func.value.id, func.attr
        if receiver in ("self", "cls") and frame.owner is not None:
            method = _own_def(frame.owner, name)
            if method is not None:
                if any(_decorator(d) == "property" for d in method.decorator_list):
                    return None
                return _Frame(method, frame.module, frame.owner)
            bound = _class_binding(frame.owner, name)
            if bound is None:
                return None
            if isinstance(bound, ast.Name):
                return self._global(bound.id, frame.module)
            if isinstance(bound.value, ast.Name):
                return self._in_module(bound.value.id, bound.attr, frame.module)
            return None
        return self._in_module(receiver, name, frame.module)

    def _global(self, name: str, module: _Module) -> _Frame | None:
        """A module's function `name`, defined there or imported by `from m import name`."""
        node = _top_def(module.tree, name)
        if node is not None:
            return _Frame(node, module, None)
        for stmt in module.tree.body:
            if isinstance(stmt, ast.ImportFrom):
                for alias in stmt.names:
                    if (alias.asname or alias.name) == name:
                        target = self._resolve(module.path, stmt.level, stmt.module)
                        found = _top_def(target.tree, alias.name) if target else None
                        return _Frame(found, target, None) if found and target else None
        return None

    def _in_module(self, local: str, name: str, module: _Module) -> _Frame | None:
        """`mod.name` where the module imports `mod` whole (`from . import mod`, `import a.b
        as mod`)."""
        for stmt in module.tree.body:
            target: _Module | None = None
            if isinstance(stmt, ast.ImportFrom):
                for alias in stmt.names:
                    if (alias.asname or alias.name) == local:
                        dotted = ".".join(p for p in (stmt.module, alias.name) if p)
                        target = self._resolve(module.path, stmt.level, dotted)
            elif isinstance(stmt, ast.Import):
                for alias in stmt.names:
                    if alias.asname == local or (alias.asname is None and alias.name == local):
                        target = self._resolve(module.path, 0, alias.name)
            if target is not None:
                found = _top_def(target.tree, name)
                return _Frame(found, target, None) if found else None
        return None

    def _resolve(self, path: str, level: int, dotted: str | None) -> _Module | None:
        """The file a module name is, as Python's import finds it within this tree: relative
        to the importing file's package, or from the tree's root or `src/`."""
        parts = (dotted or "").split(".") if dotted else []
        if level:
            base = posixpath.dirname(path)
            for _ in range(level - 1):
                base = posixpath.dirname(base)
            roots = [posixpath.join(base, *parts) if parts else base]
        else:
            roots = [posixpath.join(*parts), posixpath.join("src", *parts)] if parts else []
        for root in roots:
            for candidate in (root + ".py", posixpath.join(root, "__init__.py")):
                module = self.module(candidate)
                if module is not None:
                    return module
        return None


def _own(function: ast.FunctionDef | ast.AsyncFunctionDef) -> Iterator[ast.AST]:
    """The nodes of a function's body that are its own: not a nested def's, class's or
    lambda's."""
    stack: list[ast.AST] = list(reversed(function.body))
    while stack:
        node = stack.pop()
        yield node
        if not isinstance(node, _SCOPES):
            stack.extend(reversed(list(ast.iter_child_nodes(node))))


def _names(target: ast.Tuple | ast.List) -> list[str]:
    return [e.id if isinstance(e, ast.Name) else "" for e in target.elts]


def _bound_otherwise(node: ast.AST) -> set[str]:
    """The names a node binds other than by a plain `name = value`."""
    targets: list[ast.expr] = []
    if isinstance(node, ast.AugAssign | ast.For | ast.AsyncFor):
        targets = [node.target]
    elif isinstance(node, ast.withitem) and node.optional_vars is not None:
        targets = [node.optional_vars]
    elif isinstance(node, ast.NamedExpr):
        targets = [node.target]
    elif isinstance(node, ast.Global | ast.Nonlocal):
        return set(node.names)
    elif isinstance(node, ast.ExceptHandler) and node.name:
        return {node.name}
    elif isinstance(node, ast.Import | ast.ImportFrom):
        return {(a.asname or a.name).split(".")[0] for a in node.names}
    elif isinstance(node, _SCOPES) and not isinstance(node, ast.Lambda):
        return {node.name}
    elif isinstance(node, ast.Assign):
        targets = [t for t in node.targets if not isinstance(t, ast.Name | ast.Tuple | ast.List)]
    return {n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name)}


def _compound(statement: ast.stmt) -> bool:
    return any(
        isinstance(v, list) and v and isinstance(v[0], ast.stmt) for v in vars(statement).values()
    )


def _blocks(node: ast.If | ast.Try) -> list[list[ast.stmt]]:
    if isinstance(node, ast.If):
        return [node.body, node.orelse]
    return [node.body, node.orelse, node.finalbody, *(h.body for h in node.handlers)]


def _own_def(owner: ast.ClassDef, name: str) -> ast.FunctionDef | ast.AsyncFunctionDef | None:
    found = [n for n in owner.body if isinstance(n, _FUNCTIONS) and n.name == name]
    return found[-1] if found else None


def _top_def(tree: ast.Module, name: str) -> ast.FunctionDef | ast.AsyncFunctionDef | None:
    found = [n for n in tree.body if isinstance(n, _FUNCTIONS) and n.name == name]
    return found[-1] if found else None


def _decorator(node: ast.expr) -> str:
    if isinstance(node, ast.Attribute):
        return node.attr
    return node.id if isinstance(node, ast.Name) else ""


def _class_binding(owner: ast.ClassDef, name: str) -> ast.Name | ast.Attribute | None:
    """What a class body binds `name` to, once, as `name = f`, `name = m.f` or `name =
    staticmethod(f)` / `classmethod(f)`; None for anything else."""
    bound = [
        s.value
        for s in owner.body
        if isinstance(s, ast.Assign)
        and any(isinstance(t, ast.Name) and t.id == name for t in s.targets)
    ]
    if len(bound) != 1:
        return None
    value = bound[0]
    if (
        isinstance(value, ast.Call)
        and _decorator(value.func) in ("staticmethod", "classmethod")
        and len(value.args) == 1
        and not value.keywords
    ):
        value = value.args[0]
    if isinstance(value, ast.Name) or (
        isinstance(value, ast.Attribute) and isinstance(value.value, ast.Name)
    ):
        return value
    return None


def returned(read: Reader, paths: list[str], function: str) -> Returned | None:
    """What `function`'s definitions in the Python files `paths` give back, at one revision;
    None where none of them defines it. NotPython where a file needed does not parse."""
    walk = _Walk(read)
    frames = [f for p in paths if p.endswith(".py") for f in walk.functions(p, function)]
    if not frames:
        return None
    out = Returned()
    for frame in frames:
        out.add(walk.returned(frame))
    return out


def _spaced(text: str) -> str:
    return "".join(text.split())


def judged(
    before: Returned | None,
    after: Returned | None,
    function: str,
    old: str,
    new: str,
    *,
    when: str | None = None,
) -> tuple[bool | None, str]:
    """(True, False, or None for not told; why) of "`f` now returns `new` where it returned
    `old` [(when `t`)]": at the commit a return of `f` gives the literal `new` and none gives
    `old`; at the parent one gave `old`. A value the walk could not read leaves a literal it
    did not find untold (it may be that literal); so does `old` still given at the commit
    when the words name one case (the walk does not read cases)."""
    said_new, said_old = literal_of(new), literal_of(old)
    if said_new is None or said_old is None:
        return None, "the values said are not literals"
    if when is not None and after is not None and before is not None:
        tests = after.tests | before.tests
        if _spaced(when) not in {_spaced(t) for t in tests} | {_spaced(f"not {t}") for t in tests}:
            return None, f"`{when}` is no test of `{function}` or the call followed"
    if after is None or before is None:
        side = "parent" if before is None else "commit"
        return False, f"`{function}` is not defined at the {side} in a changed file"
    if after.generator or before.generator:
        return False, f"`{function}` is a generator at one revision"
    if said_old in after.literals:
        if when is not None:
            return None, f"`{function}` still returns `{old}` in some case at the commit"
        return False, f"`{function}` still returns `{old}` at the commit"
    for returns, said, side in ((after, said_new, "commit"), (before, said_old, "parent")):
        if said not in returns.literals:
            if returns.opaque:
                return None, f"at the {side}: " + "; ".join(sorted(returns.opaque))
            return False, f"no return of `{function}` gives `{said[1]}` at the {side}"
    return True, ""
