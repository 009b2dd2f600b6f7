"""What a source file defines, read by the claims checker's own rules (not the analyser's).

Python is parsed with the standard library's `ast`: functions, classes and the names a module
or a class body assigns (and those a module `__getattr__` hands out by name), qualified by
where they are (`Class.method`; a function inside a function is `outer.inner`, never a member
of the class around it; an inherited method is not defined here). Kernels are functions
decorated `@triton.jit` or `@cute.kernel` (a `@cute.jit` helper is not one). C, C++ and CUDA
are read after comments and strings are blanked: a definition is a
`class`/`struct`/`enum`/`union`/`namespace` name not followed by `;`, a `#define`, or a name
followed by a parenthesised list and a `{` body; `__x__` words (attributes such as
`__launch_bounds__`) and keywords are never names, and a kernel is such a function with
`__global__` in its declaration. Go, Rust, JavaScript, TypeScript, Java and Kotlin are read
by their declaring keywords, with each language's own literals blanked (a Rust lifetime `'a`
is not a character literal and a raw string `r#"…"#` is one literal; Go's and JavaScript's
backquoted strings span lines).
A member is qualified by its type where the language says it: Rust items inside `impl T`,
`impl Trait for T` or `trait T` are `T.name`; a Go method `func (r *T) M` is `T.M`; a
JavaScript/TypeScript method inside `class C` is `C.m`. JavaScript/TypeScript test names
(the string given to `test(…)`, `it(…)`, `describe(…)`) are definitions too. Other names
outside Python are unqualified. Any other file, or one that does not parse, raises
`Unreadable`: a claim about it is not checked.
"""

from __future__ import annotations

import ast
import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from string import Formatter

_PYTHON = (".py", ".pyi")
_CLIKE = (".c", ".cc", ".cpp", ".cxx", ".h", ".hh", ".hpp", ".hxx", ".cu", ".cuh", ".inl")
_KEYWORDED = {
    ".go": (
        r"^func\s+(?:\([^)]*\)\s*)?([A-Za-z_]\w*)",
        r"^type\s+([A-Za-z_]\w*)",
        r"^(?:var|const)\s+([A-Za-z_]\w*)",
    ),
    ".rs": (
        r"\b(?:fn|struct|enum|trait|mod|type|const|static|union)\s+([A-Za-z_]\w*)",
        r"\bmacro_rules!\s*([A-Za-z_]\w*)",
    ),
    ".js": (
        r"\b(?:function\*?|class)\s+([A-Za-z_$][\w$]*)",
        r"\b(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*=",
        r"^\s+(?:static\s+)?(?:async\s+)?([A-Za-z_$][\w$]*)\s*\([^)]*\)\s*\{",
    ),
    ".java": (
        r"\b(?:class|interface|enum|record)\s+([A-Za-z_]\w*)",
        r"\b([A-Za-z_]\w*)\s*\([^;{)]*\)\s*(?:throws[^{;]*)?\{",
    ),
    ".kt": (r"\b(?:class|interface|object|fun|val|var)\s+([A-Za-z_]\w*)",),
}
# Source code in a language without rules here: a claim that may be about it is unverifiable.
# Any other file without rules (documentation, data, configuration) defines no code name.
_OTHER_CODE = frozenset(
    {".rb", ".swift", ".m", ".mm", ".scala", ".cs", ".php", ".lua", ".pl", ".sh", ".bash"}
    | {".zig", ".jl", ".r", ".dart", ".ex", ".exs", ".erl", ".hs", ".ml", ".clj", ".pyx"}
    | {".pxd", ".cl", ".metal", ".sv", ".v", ".f90", ".groovy", ".ps1", ".vue", ".svelte"}
)
_ALIASES = {".ts": ".js", ".tsx": ".js", ".jsx": ".js", ".mjs": ".js", ".cjs": ".js"}
_KERNEL_DECORATORS = ("triton.jit", "cute.kernel")
_C_KEYWORDS = frozenset(
    {"if", "for", "while", "switch", "return", "sizeof", "catch", "else", "do", "case", "new"}
    | {"delete", "throw", "decltype", "alignof", "static_assert", "defined", "operator"}
    | {"template", "typename", "using", "namespace", "alignas", "noexcept", "constexpr"}
    | {"explicit"}
)
_C_TYPE = re.compile(
    r"\b(?:class|struct|union|enum(?:\s+class)?|namespace)\s+"
    r"(?:(?:__\w+__|alignas)\s*(?:\([^()]*\)\s*)?|\[\[[^\]]*\]\]\s*)*([A-Za-z_]\w*)\s*([^\s])"
)
# a name, its template arguments if any (one level of nesting), and its opening parenthesis
_C_CALL = re.compile(
    r"([A-Za-z_~]\w*(?:::[A-Za-z_~]\w*)*)\s*(?:<[^<>;{}()]*(?:<[^<>;{}()]*>[^<>;{}()]*)*>)?\s*\("
)
_C_DEFINE = re.compile(r"^[ \t]*#[ \t]*define[ \t]+([A-Za-z_]\w*)", re.MULTILINE)
_C_TAIL = re.compile(
    r"\s*(?:const|noexcept|override|final|volatile|&|&&|->\s*[\w:<>,\s*&]+?|"
    r"__\w+__(?:\([^()]*\))?|\s)*(?=\{)"
)
_CTOR_INIT = re.compile(r"\s*:\s*[^;{]*?\{")


class Unreadable(Exception):
    """A file the checker has no rules for, or one that does not parse."""


@dataclass(frozen=True)
class Definition:
    name: str  # qualified with dots where the language's rules know the scope
    text: str  # its source (for a changed body)
    kernel: bool = False
    local: bool = False  # a function inside a function
    module: bool = False  # the file itself (`pkg/x.py` defines `x`)


def _extension(path: str) -> str:
    return "." + path.rsplit(".", 1)[-1].lower() if "." in path.rsplit("/", 1)[-1] else ""


def language(path: str) -> str | None:
    """The rule set for a path: ".py", ".c" (all C-like), a key of `_KEYWORDED`, or None."""
    ext = _extension(path)
    if ext in _PYTHON:
        return ".py"
    if ext in _CLIKE:
        return ".c"
    ext = _ALIASES.get(ext, ext)
    return ext if ext in _KEYWORDED else None


def definitions(path: str, text: str) -> list[Definition]:
    lang = language(path)
    if lang == ".py":
        return _python(text)
    if lang == ".c":
        return _clike(text)
    if lang == ".rs":
        return _rust(text)
    if lang == ".go":
        return _go(text)
    if lang == ".js":
        return _javascript(text)
    if lang is not None:
        return _keyworded(_blank(text), text, _KEYWORDED[lang])
    if _extension(path) not in _OTHER_CODE:
        return []
    raise Unreadable(f"no rules for {path.rsplit('/', 1)[-1]}")


# --- Python -------------------------------------------------------------------------------


def _python(text: str) -> list[Definition]:
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError) as exc:
        raise Unreadable(f"does not parse: {exc.__class__.__name__}") from None
    lines = text.splitlines(keepends=True)
    found: list[Definition] = []

    def source(node: ast.stmt) -> str:
        decorators = getattr(node, "decorator_list", [])
        first = min([node.lineno, *(d.lineno for d in decorators)])
        return "".join(lines[first - 1 : node.end_lineno or node.lineno])

    def walk(body: list[ast.stmt], prefix: str, in_function: bool) -> None:
        for node in body:
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                decorators = [_unparsed(d) for d in node.decorator_list]
                kernel = isinstance(node, ast.FunctionDef) and any(
                    d.split("(")[0].endswith(_KERNEL_DECORATORS) for d in decorators
                )
                qual = prefix + node.name
                found.append(Definition(qual, source(node), kernel=kernel, local=in_function))
                walk(node.body, qual + ".", in_function or not isinstance(node, ast.ClassDef))
            elif isinstance(node, ast.Assign | ast.AnnAssign) and not in_function:
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                for target in targets:
                    if isinstance(target, ast.Attribute) and not prefix:
                        # `Class.method = patched` at module level (a monkeypatch)
                        found.append(Definition(_unparsed(target), source(node)))
                        continue
                    for name in ast.walk(target):
                        if isinstance(name, ast.Name):
                            found.append(Definition(prefix + name.id, source(node)))
            elif isinstance(node, ast.If | ast.Try | ast.With | ast.For | ast.While):
                for part in ("body", "orelse", "finalbody"):
                    walk(getattr(node, part, []), prefix, in_function)
                for handler in getattr(node, "handlers", []):
                    walk(handler.body, prefix, in_function)

    walk(tree.body, "", False)
    return found + [Definition(n, text) for n, text in _served(tree, source)]


def _served(tree: ast.Module, source: Callable[[ast.stmt], str]) -> list[tuple[str, str]]:
    """The names a module-level `__getattr__(name)` (PEP 562) hands out by name, each with
    the text that names it: a string `name` is compared with (`==`, `in (…)`), or a string key
    of a module-level dict literal the function reads."""
    body = _statements(tree.body)
    hooks = [
        n
        for n in body
        if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef) and n.name == "__getattr__"
    ]
    dicts = {
        t.id: n
        for n in body
        if isinstance(n, ast.Assign | ast.AnnAssign) and isinstance(n.value, ast.Dict)
        for t in (n.targets if isinstance(n, ast.Assign) else [n.target])
        if isinstance(t, ast.Name)
    }
    out: list[tuple[str, str]] = []
    for hook in hooks:
        params = [*hook.args.posonlyargs, *hook.args.args]
        argument = params[0] if params else None
        for node in ast.walk(hook):
            if isinstance(node, ast.Name) and node.id in dicts:
                mapping = dicts[node.id]
                assert isinstance(mapping.value, ast.Dict)
                out += [
                    (k.value, source(mapping))
                    for k in mapping.value.keys
                    if isinstance(k, ast.Constant) and isinstance(k.value, str)
                ]
            elif (
                isinstance(node, ast.Compare)
                and argument is not None
                and isinstance(node.left, ast.Name)
                and node.left.id == argument.arg
            ):
                for right in node.comparators:
                    strings = (
                        right.elts if isinstance(right, ast.Tuple | ast.List | ast.Set) else [right]
                    )
                    out += [
                        (c.value, source(hook))
                        for c in strings
                        if isinstance(c, ast.Constant) and isinstance(c.value, str)
                    ]
    return [(n, text) for n, text in out if n.isidentifier()]


def python_assigned(text: str) -> dict[str, set[str]]:
    """The values a Python module's body and its classes' bodies assign each name, by
    qualified name (`Parser.max_size`), as `ast.unparse` writes them; what a function
    assigns is its own."""
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError) as exc:
        raise Unreadable(f"does not parse: {exc.__class__.__name__}") from None
    found: dict[str, set[str]] = {}

    def walk(body: list[ast.stmt], prefix: str) -> None:
        for node in body:
            if isinstance(node, ast.ClassDef):
                walk(node.body, f"{prefix}{node.name}.")
            elif isinstance(node, ast.Assign | ast.AnnAssign) and node.value is not None:
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                for target in targets:
                    if isinstance(target, ast.Name):
                        found.setdefault(prefix + target.id, set()).add(_unparsed(node.value))
            elif isinstance(node, ast.If | ast.Try):
                for block in _blocks(node):
                    walk(block, prefix)

    walk(tree.body, "")
    return found


def _blocks(node: ast.stmt) -> list[list[ast.stmt]]:
    """The statement lists a compound statement runs: its body, `else`, `finally` and
    handlers."""
    parts: list[list[ast.stmt]] = [getattr(node, p, []) for p in ("body", "orelse", "finalbody")]
    return parts + [h.body for h in getattr(node, "handlers", [])]


def _bare(name: str) -> str:
    return name.rsplit(".", 1)[-1].lstrip("-").replace("-", "_")


def python_defaults(text: str, name: str) -> set[str]:
    """The literal texts `name` takes as a default in a Python file: a parameter's default,
    a field's or a module's assigned value (`Field(default=…)` read through), or the
    `default=` of an option declared with that name (`add_argument("--name", default=…)`)."""
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError) as exc:
        raise Unreadable(f"does not parse: {exc.__class__.__name__}") from None
    want = _bare(name)
    found: set[str] = set()

    def value_of(node: ast.expr) -> str:
        if isinstance(node, ast.Call):
            for keyword in node.keywords:
                if keyword.arg == "default":
                    return _unparsed(keyword.value)
        return _unparsed(node)

    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
            found |= _parameter_defaults(node.args, want)
        elif isinstance(node, ast.AnnAssign) and node.value is not None:
            if isinstance(node.target, ast.Name) and node.target.id == want:
                found.add(value_of(node.value))
        elif isinstance(node, ast.Assign):
            if any(isinstance(t, ast.Name) and t.id == want for t in node.targets):
                found.add(value_of(node.value))
        elif isinstance(node, ast.Call):
            named = {
                _bare(a.value)
                for a in node.args
                if isinstance(a, ast.Constant) and isinstance(a.value, str)
            }
            named |= {
                _bare(k.value.value)
                for k in node.keywords
                if k.arg == "dest" and isinstance(k.value, ast.Constant)
                if isinstance(k.value.value, str)
            }
            if want in named:
                found |= {_unparsed(k.value) for k in node.keywords if k.arg == "default"}
    return found


# `owner(param)`: a parameter of the function or method `owner` (`App.redirect(code)`)
_PARAMETER = re.compile(r"([A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*)\(([A-Za-z_]\w*)\)")
_SCOPES = ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef


def is_parameter(name: str) -> bool:
    """Whether a name is a parameter's, written `function(param)` or `Class.method(param)`."""
    return _PARAMETER.fullmatch(name.strip()) is not None


def python_scoped_defaults(text: str, name: str) -> set[str] | None:
    """The defaults of a name its place qualifies, read from that place alone: a parameter
    (`Class.method(param)`: the default in that function's signature) or a class attribute
    (`Class.field`: the value its class body assigns, a dataclass `field(default=X)` being
    `X` and `field(default_factory=F)` being `F()`, what each instance gets). None when the
    name is not qualified or the file defines no such function or class (the name may be a
    module's or an option's: `python_defaults` reads those)."""
    parameter = _PARAMETER.fullmatch(name.strip())
    owner, want = parameter.groups() if parameter else (name.strip().rpartition(".")[::2])
    if not owner or not re.fullmatch(r"[\w.]+", owner):
        return None
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError) as exc:
        raise Unreadable(f"does not parse: {exc.__class__.__name__}") from None
    scopes: list[ast.AST] = [tree]
    for part in owner.split("."):
        scopes = [s for n in scopes for s in _children(n) if s.name == part]
    if not scopes:
        return None
    found: set[str] = set()
    for scope in scopes:
        if parameter and isinstance(scope, ast.FunctionDef | ast.AsyncFunctionDef):
            found |= _parameter_defaults(scope.args, want)
        elif not parameter and isinstance(scope, ast.ClassDef):
            found |= {
                _field_default(statement.value)
                for statement in _statements(scope.body)
                if isinstance(statement, ast.Assign | ast.AnnAssign)
                and statement.value is not None
                and any(
                    isinstance(t, ast.Name) and t.id == want
                    for t in (
                        statement.targets
                        if isinstance(statement, ast.Assign)
                        else [statement.target]
                    )
                )
            }
    return found


def python_default_name(text: str, parameter: str, name: str) -> str | None:
    """The literal a default written as a bare name evaluates to (Python evaluates a default
    where the `def` stands: its class body's names, then the module's), where that scope
    binds the name exactly once, to a literal; None otherwise."""
    match = _PARAMETER.fullmatch(parameter.strip())
    if match is None or not name.isidentifier():
        return None
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError) as exc:
        raise Unreadable(f"does not parse: {exc.__class__.__name__}") from None
    owner = match.group(1).rpartition(".")[0]
    scopes: list[ast.AST] = [tree]
    for part in owner.split(".") if owner else ():
        scopes = [s for n in scopes for s in _children(n) if s.name == part]
    for scope in [*scopes, tree] if len(scopes) == 1 else [tree]:
        binds = [
            statement.value
            for statement in _statements(getattr(scope, "body", []))
            if isinstance(statement, ast.Assign | ast.AnnAssign)
            and any(
                isinstance(t, ast.Name) and t.id == name
                for t in (
                    statement.targets if isinstance(statement, ast.Assign) else [statement.target]
                )
            )
        ]
        if binds:
            value = binds[0]
            once = len(binds) == 1 and isinstance(value, ast.Constant)
            return _unparsed(value) if once and value is not None else None
    return None


def _statements(body: list[ast.stmt]) -> list[ast.stmt]:
    """A body's statements, with those of its `if`, `try` and `with` blocks (a definition
    under `if TYPE_CHECKING:` is still the body's), never a nested function's or class's."""
    out: list[ast.stmt] = []
    for statement in body:
        out.append(statement)
        if isinstance(statement, ast.If | ast.Try | ast.With | ast.AsyncWith):
            for block in ("body", "orelse", "finalbody"):
                out += _statements(getattr(statement, block, []))
            for handler in getattr(statement, "handlers", []):
                out += _statements(handler.body)
    return out


def _children(node: ast.AST) -> list[ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef]:
    return [s for s in _statements(getattr(node, "body", [])) if isinstance(s, _SCOPES)]


def _parameter_defaults(args: ast.arguments, want: str) -> set[str]:
    positional = args.posonlyargs + args.args
    pairs = list(
        zip(positional[len(positional) - len(args.defaults) :], args.defaults, strict=True)
    )
    pairs += [
        (a, d) for a, d in zip(args.kwonlyargs, args.kw_defaults, strict=True) if d is not None
    ]
    return {_unparsed(d) for a, d in pairs if a.arg == want}


def _field_default(value: ast.expr) -> str:
    """What an instance gets from a class body's value: `field(default=X)` or pydantic's
    `Field(X)` gives `X`; `default_factory=F` calls `F` for each instance: `F()` (a lambda's
    body is what it returns); anything else is its own text."""
    callee = value.func if isinstance(value, ast.Call) else None
    named = callee.attr if isinstance(callee, ast.Attribute) else getattr(callee, "id", "")
    if not isinstance(value, ast.Call) or named not in ("field", "Field"):
        return _unparsed(value)
    for keyword in value.keywords:
        if keyword.arg == "default":
            return _unparsed(keyword.value)
        if keyword.arg == "default_factory":
            factory = keyword.value
            if isinstance(factory, ast.Lambda):
                return _unparsed(factory.body)
            return f"{_unparsed(factory)}()"
    if named == "Field" and value.args:
        return _unparsed(value.args[0])
    return _unparsed(value)


def python_signature(text: str, function: str, *, stub: bool = False) -> dict[str, set[str]] | None:
    """The parameters of `function` (`Class.method`, or its last parts; a class's are its
    own `__init__`'s) in a Python file, each with the defaults its signatures give it (none:
    an empty set; `*args` is `args`); None when the file defines no such function. In a
    `stub` (`.pyi`) a function's `@overload`s are its signature, an implementation below them
    read by no type checker; one some overload does not take may be left out (`...`)."""
    found: dict[str, set[str]] = {}
    defined = False
    nodes = _functions_named(text, function)
    # at run time a name's `@typing.overload` stubs are replaced by its implementation: a
    # caller meets only the def without the decorator (stubs alone: a stub file's reading)
    declared = [n for n in nodes if any(_is_overload(d) for d in n.decorator_list)]
    run = [n for n in nodes if n not in declared]
    read = (declared if stub else []) or run or nodes
    for node in read:
        defined = True
        args = node.args
        every = [*args.posonlyargs, *args.args, *args.kwonlyargs, args.vararg, args.kwarg]
        for arg in every:
            if arg is not None:
                found.setdefault(arg.arg, set()).update(_parameter_defaults(args, arg.arg))
    if read is declared:
        for node in read:
            args = node.args
            taken = {a.arg for a in (*args.posonlyargs, *args.args, *args.kwonlyargs)}
            for name in found.keys() - taken:
                found[name].add("...")
    return found if defined else None


def python_positional(text: str, function: str) -> list[tuple[str, ...]] | None:
    """The names a call's positional arguments bind, in order, for each definition of
    `function` a caller meets at run time (its `@overload` stubs aside): the parameters
    before `/` and the plain ones, `self` or `cls` included; None when the file defines no
    such function."""
    nodes = _functions_named(text, function)
    if not nodes:
        return None
    run = [n for n in nodes if not any(_is_overload(d) for d in n.decorator_list)]
    return [tuple(a.arg for a in (*n.args.posonlyargs, *n.args.args)) for n in run or nodes]


def _is_overload(decorator: ast.expr) -> bool:
    """`@overload`, `@typing.overload`, `@t.overload`."""
    name = decorator.attr if isinstance(decorator, ast.Attribute) else getattr(decorator, "id", "")
    return name == "overload"


def _functions_named(
    text: str, function: str, *, exact: bool = False
) -> list[ast.FunctionDef | ast.AsyncFunctionDef]:
    """The definitions of `function` in a Python file (each `@overload` one of them); a
    class is called through its own `__init__` (not an inherited one)."""
    found: list[ast.FunctionDef | ast.AsyncFunctionDef] = []
    for node in _definitions_named(text, function, exact=exact):
        if isinstance(node, ast.ClassDef):
            found.extend(
                n
                for n in node.body
                if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef) and n.name == "__init__"
            )
        else:
            found.append(node)
    return found


def _definitions_named(
    text: str, name: str, *, exact: bool = False
) -> list[ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef]:
    """Every function, method or class of a Python file named `name` (`Class.method`, or
    its last parts; with `exact`, the whole qualified name alone), in the file's order,
    those under `if`, `try`, `with` and loops too."""
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError) as exc:
        raise Unreadable(f"does not parse: {exc.__class__.__name__}") from None
    found: list[ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef] = []

    def walk(body: list[ast.stmt], prefix: str) -> None:
        for node in body:
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                qual = prefix + node.name
                if qual == name or (not exact and qual.endswith("." + name)):
                    found.append(node)
                walk(node.body, qual + ".")
            elif isinstance(node, ast.If | ast.Try | ast.With | ast.For | ast.While):
                for block in _blocks(node):
                    walk(block, prefix)

    walk(tree.body, "")
    return found


def python_paragraphs(text: str, name: str) -> list[str] | None:
    """The paragraphs (split at blank lines) of the docstrings of every function, method or
    class `name` in a Python file, each's whitespace folded; None when the file defines no
    such name."""
    named = _definitions_named(text, name)
    if not named:
        return None
    docs = [ast.get_docstring(n) or "" for n in named]
    return [" ".join(p.split()) for d in docs for p in re.split(r"\n\s*\n", d) if p.strip()]


# --- C, C++, CUDA and the keyword-declared languages --------------------------------------


# Literals by language: C's strings and characters stay on one line; Rust's strings span
# lines, raw strings (`r#"…"#`) hold quotes, and a quote that is not a one-character literal
# is a lifetime (`'a`); Go's and JavaScript's backquoted strings span lines.
_LITERALS = {
    ".c": r"\"(?:\\.|[^\"\\\n])*\"|'(?:\\.|[^'\\\n])*'",
    ".rs": r"b?r(#+)\".*?\"\1|b?r\"[^\"]*\"|b?\"(?:\\.|[^\"\\])*\"|b?'(?:\\[^'\n]{1,9}|[^'\\\n])'",
    ".go": r"\"(?:\\.|[^\"\\\n])*\"|'(?:\\.|[^'\\\n])*'|`[^`]*`",
    ".js": r"\"(?:\\.|[^\"\\\n])*\"|'(?:\\.|[^'\\\n])*'|`(?:\\.|[^`\\])*`",
}


def _blank(text: str, lang: str = ".c") -> str:
    """Comments and string or character literals replaced by spaces, lines kept."""

    def spaces(match: re.Match[str]) -> str:
        return re.sub(r"[^\n]", " ", match.group(0))

    literals = _LITERALS.get(lang, _LITERALS[".c"])
    return re.sub(r"//[^\n]*|/\*.*?\*/|" + literals, spaces, text, flags=re.DOTALL)


def _close(text: str, start: int, opening: str, closing: str) -> int:
    """The index just past the bracket that closes the one at `start` (or the text's end)."""
    depth = 0
    for i in range(start, len(text)):
        if text[i] == opening:
            depth += 1
        elif text[i] == closing:
            depth -= 1
            if depth == 0:
                return i + 1
    return len(text)


def _clike(text: str) -> list[Definition]:
    code = _blank(text)
    found: list[Definition] = []
    for match in _C_TYPE.finditer(code):
        if match.group(2) != ";":
            brace = code.find("{", match.end(1))
            end = _close(code, brace, "{", "}") if brace >= 0 else match.end()
            found.append(Definition(match.group(1), text[match.start() : end]))
    found += [
        Definition(m.group(1), text[m.start() : code.find("\n", m.end())])
        for m in _C_DEFINE.finditer(code)
    ]
    for match in _C_CALL.finditer(code):
        name = match.group(1)
        last = name.rsplit("::", 1)[-1]
        if last in _C_KEYWORDS or re.fullmatch(r"__\w*__", last):
            continue
        close = _close(code, match.end() - 1, "(", ")")
        tail = _C_TAIL.match(code, close) or _CTOR_INIT.match(code, close)
        if tail is None:
            continue
        brace = code.find("{", close)
        if brace < 0:
            continue
        # a declaration may span lines: read back to the last `;`, `{` or `}`
        back = max(code.rfind(c, 0, match.start()) for c in ";{}")
        declaration = code[back + 1 : match.start()] if back >= 0 else code[: match.start()]
        if re.search(r"[=(,]\s*$", declaration) or re.search(r"\breturn\s*$", declaration):
            continue  # a call inside an expression that happens to be followed by a block
        end = _close(code, brace, "{", "}")
        found.append(
            Definition(
                name.replace("::", "."),
                text[match.start() : end],
                kernel="__global__" in declaration,
            )
        )
    return found


def _keyworded(code: str, text: str, patterns: tuple[str, ...]) -> list[Definition]:
    found: list[Definition] = []
    for pattern in patterns:
        for match in re.finditer(pattern, code, re.MULTILINE):
            brace = code.find("{", match.end(1))
            line_end = code.find("\n", match.end(1))
            if brace >= 0 and (line_end < 0 or brace <= line_end):
                end = _close(code, brace, "{", "}")
            else:
                end = line_end if line_end >= 0 else len(code)
            found.append(Definition(match.group(1), text[match.start() : end]))
    return found


def _depth(code: str, start: int, end: int) -> int:
    """How many braces are open between two places of blanked code."""
    return code.count("{", start, end) - code.count("}", start, end)


def _qualified(
    code: str, text: str, scopes: list[tuple[str, int, int]], members: list[re.Match[str]]
) -> list[Definition]:
    """Each member (its name in group 1) qualified by the scope whose braces hold it directly
    (`{` at the scope's start), else left bare."""
    found = []
    for match in members:
        name = match.group(1)
        for scope, start, end in scopes:
            if start < match.start() < end and _depth(code, start, match.start()) == 1:
                name = f"{scope}.{name}"
                break
        found.append(Definition(name, text[match.start() : _end_of(code, match.end(1))]))
    return found


def _end_of(code: str, after: int) -> int:
    """Where a definition starting before `after` ends: its `{…}` body when it opens on the
    same line, else its line."""
    brace = code.find("{", after)
    line_end = code.find("\n", after)
    if brace >= 0 and (line_end < 0 or brace <= line_end):
        return _close(code, brace, "{", "}")
    return line_end if line_end >= 0 else len(code)


def _ungeneric(header: str) -> str:
    """A type's header without its `<…>` arguments (nested ones too)."""
    header = header.replace("->", "  ")
    while True:
        shorter = re.sub(r"<[^<>]*>", "", header)
        if shorter == header:
            return header
        header = shorter


_RUST_ITEM = re.compile(
    r"\b(?:fn|struct|enum|trait|mod|type|const|static|union)\s+([A-Za-z_]\w*)"
    r"|\bmacro_rules!\s*([A-Za-z_]\w*)"
)
_RUST_IMPL = re.compile(r"^[ \t]*(?:unsafe\s+)?impl\b", re.MULTILINE)
_RUST_TRAIT = re.compile(
    r"^[ \t]*(?:pub(?:\([^)]*\))?\s+)?(?:unsafe\s+)?trait\s+([A-Za-z_]\w*)", re.M
)


def _rust(text: str) -> list[Definition]:
    """Rust items; those inside `impl T`, `impl Trait for T` and `trait T` are `T.name`."""
    code = _blank(text, ".rs")
    scopes = []
    for match in _RUST_IMPL.finditer(code):
        brace = code.find("{", match.end())
        if brace < 0:
            continue
        header = re.split(r"\bwhere\b", _ungeneric(code[match.end() : brace]))[0]
        target = re.split(r"\bfor\b", header)[-1]
        names = re.findall(r"[A-Za-z_]\w*", re.sub(r"\b(?:dyn|mut|const)\b|&|'\w+", " ", target))
        if names:
            scopes.append((names[-1], brace, _close(code, brace, "{", "}")))
    for match in _RUST_TRAIT.finditer(code):
        brace = code.find("{", match.end())
        if brace >= 0 and ";" not in code[match.end() : brace]:
            scopes.append((match.group(1), brace, _close(code, brace, "{", "}")))
    items = [m for m in _RUST_ITEM.finditer(code) if m.group(1)]
    macros = [m for m in _RUST_ITEM.finditer(code) if m.group(2)]
    found = _qualified(code, text, scopes, items)
    return found + [
        Definition(m.group(2), text[m.start() : _end_of(code, m.end(2))]) for m in macros
    ]


_GO_METHOD = re.compile(
    r"^func\s*\(\s*(?:[A-Za-z_]\w*\s+)?\*?\s*([A-Za-z_]\w*)(?:\[[^\]]*\])?\s*\)\s*([A-Za-z_]\w*)",
    re.MULTILINE,
)
_GO_ITEM = re.compile(r"^(?:func|type|var|const)\s+([A-Za-z_]\w*)", re.MULTILINE)
_GO_GROUP = re.compile(r"^(?:type|var|const)\s*\(", re.MULTILINE)


def _go(text: str) -> list[Definition]:
    """Go declarations; a method `func (r *T) M` is `T.M`; each name of a grouped
    `const (…)`, `var (…)` or `type (…)` declaration is one."""
    code = _blank(text, ".go")
    found = [
        Definition(m.group(1), text[m.start() : _end_of(code, m.end(1))])
        for m in _GO_ITEM.finditer(code)
    ]
    found += [
        Definition(f"{m.group(1)}.{m.group(2)}", text[m.start() : _end_of(code, m.end(2))])
        for m in _GO_METHOD.finditer(code)
    ]
    for group in _GO_GROUP.finditer(code):
        end = _close(code, group.end() - 1, "(", ")")
        for m in re.finditer(r"^[ \t]*([A-Za-z_]\w*)", code[group.end() : end], re.MULTILINE):
            start = group.end() + m.start()
            inner = code[group.end() : start]
            if sum(inner.count(c) for c in "({[") != sum(inner.count(c) for c in ")}]"):
                continue  # a struct's field, a call's argument: not a name of the group
            line_end = code.find("\n", start)
            found.append(Definition(m.group(1), text[start : line_end if line_end > 0 else end]))
    return found


_JS_ITEM = re.compile(
    r"\b(?:function\*?|class)\s+([A-Za-z_$][\w$]*)"
    r"|\b(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*(?::[^=;\n]*)?="
    r"|^[ \t]*(?:export\s+)?(?:declare\s+)?(?:type\s+([A-Za-z_$][\w$]*)\s*(?:<[^=]*>)?\s*="
    r"|(?:interface|(?:const\s+)?enum|namespace)\s+([A-Za-z_$][\w$]*))",
    re.MULTILINE,
)
_JS_CLASS = re.compile(r"\bclass\s+([A-Za-z_$][\w$]*)[^{;]*\{")
_JS_METHOD = re.compile(
    r"^[ \t]+(?:(?:public|private|protected|static|async|override|readonly|abstract|get|set)"
    r"\s+)*\*?\s*(#?[A-Za-z_$][\w$]*)\s*[<(]",
    re.MULTILINE,
)
_JS_ASSIGNED = re.compile(
    r"^[ \t]*((?:[A-Za-z_$][\w$]*\.)+[A-Za-z_$][\w$]*)\s*=\s*(?:async\s+)?function\b",
    re.MULTILINE,
)
_JS_TEST = re.compile(
    r"(?<![\w$.])(?:test|it|describe|suite|specify)"
    r"(?:\.(?:only|skip|todo|serial|failing|concurrent))*\s*\(\s*(['\"`])((?:\\.|(?!\1).)*?)\1"
)
_JS_KEYWORDS = frozenset({"if", "for", "while", "switch", "catch", "function", "return", "with"})


def _javascript(text: str) -> list[Definition]:
    """JavaScript/TypeScript declarations (TypeScript's `type`, `interface`, `enum` and
    `namespace` too); a method inside `class C` is `C.m`; `a.b = function` is `a.b`; the
    name a test call (`test('…')`, `it('…')`, `describe('…')`) is given is one."""
    code = _blank(text, ".js")
    found = []
    for m in _JS_ITEM.finditer(code):
        group = next(g for g in range(1, 5) if m.group(g))
        found.append(Definition(m.group(group), text[m.start() : _end_of(code, m.end(group))]))
    scopes = [
        (m.group(1), m.end() - 1, _close(code, m.end() - 1, "{", "}"))
        for m in _JS_CLASS.finditer(code)
    ]
    methods = []
    for m in _JS_METHOD.finditer(code):
        if m.group(1) in _JS_KEYWORDS:
            continue
        paren = m.end() - 1
        if code[paren] == "<":
            # type parameters, which may hold arrows: `<T extends (a: A) => B>`
            angles = _close(code.replace("=>", "= "), paren, "<", ">")
            found_paren = re.match(r"\s*\(", code[angles:])
            if found_paren is None:
                continue
            paren = angles + found_paren.end() - 1
        close = _close(code, paren, "(", ")")
        if re.match(r"\s*(?::(?:[^{;=]|=>)*)?\{", code[close:]):
            methods.append(m)
    found += _qualified(code, text, scopes, methods)
    found += [
        Definition(m.group(1), text[m.start() : _end_of(code, m.end(1))])
        for m in _JS_ASSIGNED.finditer(code)
    ]
    for m in _JS_TEST.finditer(text):
        if code[m.start()] == " ":
            continue  # in a comment or a string
        paren = text.index("(", m.start())
        found.append(Definition(m.group(2), text[m.start() : _close(code, paren, "(", ")")]))
    return found


def other_defaults(path: str, text: str, name: str) -> set[str]:
    """The values `name` is given in a non-Python file, on the line of `name = v`,
    `name: v` or `name(v)`: the rest of the line, and its part before the first `,`, `;`
    or `)`. In a language with rules a name in a comment or a string is not read; in any
    other file (YAML, TOML, shell) a line starting with `#` is a comment."""
    want = re.escape(_bare(name)) if "-" not in name else re.escape(name)
    pattern = re.compile(rf"(?<![\w-]){want}\s*(?:=|:|\()[ \t]*")
    if language(path) is not None:
        code = _blank(text)
    else:
        code = re.sub(r"(?m)^[ \t]*#.*$", lambda m: " " * len(m.group(0)), text)
    found: set[str] = set()
    for match in pattern.finditer(code):
        end = code.find("\n", match.end())
        end = len(code) if end < 0 else end
        line = text[match.end() : end].strip()
        cut = re.search(r"[,;)]", code[match.end() : end])
        first = text[match.end() : match.end() + cut.start()] if cut else line
        found |= {line.rstrip(",;{ "), first.strip()}
    return {v for v in found if v}


def _unparsed(node: ast.AST) -> str:
    try:
        return ast.unparse(node)
    except (ValueError, RecursionError):  # an integer too long to print
        return "…"


def string_literals(path: str, text: str) -> list[str]:
    """The strings a file's code holds (never its comments). Python: each string constant
    as the parser joins it (implicit concatenation joined; an f-string with `{expr}` where
    its values go). Elsewhere: each line's text outside comments with the quotes of adjacent
    literals (`"a" "b"`) closed up, lines joined."""
    if language(path) == ".py":
        try:
            tree = ast.parse(text)
        except (SyntaxError, ValueError, RecursionError) as exc:
            raise Unreadable(f"does not parse: {exc.__class__.__name__}") from None
        found: list[str] = []
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                found.append(node.value)
            elif isinstance(node, ast.JoinedStr):
                found.append(
                    "".join(
                        v.value
                        if isinstance(v, ast.Constant) and isinstance(v.value, str)
                        else "{" + _unparsed(getattr(v, "value", v)) + "}"
                        for v in node.values
                    )
                )
        return found
    lines = [ln.strip() for ln in text.splitlines() if not re.match(r"\s*(?:#|//|/?\*)", ln)]
    return [re.sub(r"[\"']\s+[\"']", "", " ".join(lines))]


@dataclass
class Body:
    """What the definitions of one Python function hold, read for a claim about its body."""

    # string -> the other strings compared beside it, in the function's own conditions
    compared: dict[str, set[str]]
    # every string constant anywhere in it (nested code, f-strings' literal parts)
    strings: set[str]
    # (exception as written, message) of each own `raise E("…")`; "{…}" where a value goes
    raised: set[tuple[str, str]]
    # the exceptions its own `raise E` / `raise E(…)` name, as written
    raises: set[str] = field(default_factory=set)
    # the exceptions of its own raises that sit in an `except` naming that class (`except
    # TypeError: raise TypeError("…")`: a re-raise), and of those that do not, as written
    reraises: set[str] = field(default_factory=set)
    raises_anew: set[str] = field(default_factory=set)
    # the exceptions its own `except E:` / `except (E, F):` name, as written; "" for a bare
    # `except:` (which catches everything)
    caught: set[str] = field(default_factory=set)
    # the callees anywhere in its body (nested code too: a closure's call is the function's;
    # not its decorators' or its defaults'), as written (`shlex.split`, `helper`)
    calls: set[str] = field(default_factory=set)
    # the literals its own `return`s give, as written (`130`, `'failed'`); "?" for a return
    # of anything else (a name, a call: its value is not known here)
    returns: set[str] = field(default_factory=set)
    # each parameter's annotations as written ("" where it has none), and its defaults (an
    # empty set: none); the return annotations ("" for none)
    annotations: dict[str, set[str]] = field(default_factory=dict)
    defaults: dict[str, set[str]] = field(default_factory=dict)
    returns_type: set[str] = field(default_factory=set)
    # the tests of its own `if`, `elif`, `while` and `… if … else …`, as `ast.unparse` writes
    conditions: set[str] = field(default_factory=set)  # a closure's too
    # (test, how the body leaves: "return", "continue", "raise E" with E as written) of each
    # own `if` whose body's last statement leaves
    guards: set[tuple[str, str]] = field(default_factory=set)
    # (callee as written, keyword -> its value as `ast.unparse` writes it) of each own call
    passes: list[tuple[str, dict[str, str]]] = field(default_factory=list)
    # the same of each call of the functions nested in it (a decorator's wrapper's calls,
    # made each time the function it returns is called)
    closure_passes: list[tuple[str, dict[str, str]]] = field(default_factory=list)
    # each statement of its body and of the functions nested in it (not a class's), as the
    # file writes its first line from where it starts (`while x:`, `return 1`), counted
    lines: Counter[str] = field(default_factory=Counter)
    # the attributes of `self` and `cls` its body names (`self._run` called or handed on)
    own_attributes: set[str] = field(default_factory=set)
    # (level, message) of each own call of a logger's `warning`/`warn` ("warning"),
    # `error`/`exception` ("error") or `critical` ("critical"), on a receiver named for a
    # logger (`logger`, `_LOGGER`, `log`, `logging`), its first argument a string written
    # there ("{…}" where a value goes)
    logged: set[tuple[str, str]] = field(default_factory=set)
    # what each own `return` gives, as `ast.unparse` writes it ("" for a bare `return` or
    # `return None`); whether its own code yields (a generator: its `return`s give no value
    # to a caller); whether a definition's body may end without a `return` or a `raise`
    gives: list[str] = field(default_factory=list)
    generator: bool = False
    falls_through: bool = False
    # (test, value as `ast.unparse` writes it) of each own `if` whose body's last statement
    # is `return value` (a value: not a bare `return`, not `return None`) and whose other
    # statements never return, raise, `continue` or `break`
    returns_when: set[tuple[str, str]] = field(default_factory=set)
    # (test, value as `ast.unparse` writes it) of each own `if` whose body's last statement
    # is `return value`, whatever its other statements do
    ends_returning: set[tuple[str, str]] = field(default_factory=set)
    # the tests of its own `if`s whose body ends in `return` and after which, the test false,
    # more of it still runs: no `else` that leaves too, and not the last statement of its
    # body or of a block its body ends with (`_final`): "returns early" says these alone
    early: set[str] = field(default_factory=set)
    # each name its own code binds by a plain `name = value` (or `name: T = value`), with the
    # values as `ast.unparse` writes them; the names it binds any other way (`+=`, a loop's
    # or a `with`'s target, an unpacking, an import, a nested `def`, `global`)
    assigned: dict[str, set[str]] = field(default_factory=dict)
    rebound: set[str] = field(default_factory=set)
    # each expression of its body (closures' too), as `ast.dump` writes it: what it still
    # computes wherever it is written (`first = decimal is None or …`)
    expressions: set[str] = field(default_factory=set)


def python_body(text: str, function: str, *, exact: bool = False) -> Body | None:
    """The comparisons, strings and raised messages of `function` in a Python file (every
    definition of that name together; with `exact`, those of that whole qualified name
    alone); its own code is its body without the functions, classes and lambdas defined in
    it. None when the file defines no such function."""
    nodes = _functions_named(text, function, exact=exact)
    if not nodes:
        return None
    body = Body({}, set(), set())
    for node in nodes:
        arguments = node.args
        every = [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs]
        every += [a for a in (arguments.vararg, arguments.kwarg) if a is not None]
        for arg in every:
            written = "" if arg.annotation is None else _unparsed(arg.annotation)
            body.annotations.setdefault(arg.arg, set()).add(written)
            body.defaults.setdefault(arg.arg, set()).update(_parameter_defaults(arguments, arg.arg))
        body.returns_type.add("" if node.returns is None else _unparsed(node.returns))
        for inner in ast.walk(node):
            if isinstance(inner, ast.Constant) and isinstance(inner.value, str):
                body.strings.add(inner.value)
        # what a call of the function runs: its body (its decorators and its parameters'
        # defaults run once, where it is defined)
        for inner in (n for statement in node.body for n in ast.walk(statement)):
            if isinstance(inner, ast.expr):
                body.expressions.add(ast.dump(inner))
            if isinstance(inner, ast.Call):
                # `Future[WebSocketRequest]()` calls `Future` (a generic alias, subscripted)
                func = inner.func
                while isinstance(func, ast.Subscript):
                    func = func.value
                body.calls.add(_unparsed(func))
        body.lines.update(_statement_lines(text, node))
        body.own_attributes.update(
            n.attr
            for statement in node.body
            for n in ast.walk(statement)
            if isinstance(n, ast.Attribute)
            and isinstance(n.value, ast.Name)
            and n.value.id in ("self", "cls")
        )
        own = _own_nodes(node)
        for nested in own:
            if isinstance(nested, ast.FunctionDef | ast.AsyncFunctionDef):
                body.closure_passes += [
                    (_unparsed(n.func), {k.arg: _unparsed(k.value) for k in n.keywords if k.arg})
                    for statement in nested.body
                    for n in ast.walk(statement)
                    if isinstance(n, ast.Call)
                ]
        body.generator |= any(isinstance(n, ast.Yield | ast.YieldFrom) for n in own)
        body.falls_through |= not isinstance(node.body[-1], ast.Return | ast.Raise)
        body.gives += [
            ""
            if n.value is None or (isinstance(n.value, ast.Constant) and n.value.value is None)
            else ast.unparse(n.value)
            for n in own
            if isinstance(n, ast.Return)
        ]
        # a closure's tests are tested when the function runs it: its conditions too (never
        # its guards: its `return` leaves the closure)
        for inner in own:
            if isinstance(inner, ast.FunctionDef | ast.AsyncFunctionDef):
                body.conditions.update(_closure_tests(inner))
        strings = _strings_bound(node, own)
        final = _final(node.body)
        _read_bindings(own, body.assigned, body.rebound)
        again = _reraise_sites(own)
        for inner in own:
            if isinstance(inner, ast.If | ast.While | ast.IfExp):
                test = ast.unparse(inner.test)
                body.conditions.add(test)
                if isinstance(inner, ast.If):
                    body.raises.update(_narrowed_raises(inner))
                leaves = _leaves(inner.body[-1]) if isinstance(inner, ast.If) else None
                if leaves is not None:
                    body.guards.add((test, leaves))
                if (
                    isinstance(inner, ast.If)
                    and leaves == "return"
                    and not any(inner is f for f in final)
                    and not (inner.orelse and _leaves_block(inner.orelse[-1]))
                ):
                    body.early.add(test)
                if (
                    isinstance(inner, ast.If)
                    and isinstance(inner.body[-1], ast.Return)
                    and inner.body[-1].value is not None
                ):
                    body.ends_returning.add((test, _unparsed(inner.body[-1].value)))
                given = _given(inner.body) if isinstance(inner, ast.If) else None
                if given is not None:
                    body.returns_when.add((test, given))
            if isinstance(inner, ast.Call):
                keywords = {k.arg: _unparsed(k.value) for k in inner.keywords if k.arg}
                body.passes.append((_unparsed(inner.func), keywords))
                body.logged.update(_logged(inner))
            if isinstance(inner, ast.Compare):
                _read_comparison(inner, body.compared)
            elif isinstance(inner, ast.Raise) and inner.exc is not None:
                raised = inner.exc.func if isinstance(inner.exc, ast.Call) else inner.exc
                body.raises.add(_unparsed(raised))
                (body.reraises if id(inner) in again else body.raises_anew).add(_unparsed(raised))
                if isinstance(inner.exc, ast.Call):
                    first = inner.exc.args[0] if inner.exc.args else None
                    said = _said(first) if first is not None else None
                    if isinstance(first, ast.Name):
                        # `msg = "…"` then `raise E(msg)`: the one string it is bound to
                        said = strings.get(first.id)
                    if said is not None:
                        body.raised.add((_unparsed(raised), said))
            elif isinstance(inner, ast.ExceptHandler):
                kinds = inner.type.elts if isinstance(inner.type, ast.Tuple) else [inner.type]
                body.caught.update("" if k is None else _unparsed(k) for k in kinds)
            elif isinstance(inner, ast.Return) and inner.value is not None:
                value = inner.value
                number = isinstance(value, ast.UnaryOp) and isinstance(value.operand, ast.Constant)
                literal = number or isinstance(value, ast.Constant)
                body.returns.add(_unparsed(value) if literal else "?")
    return body


_LOG_METHODS = {
    "warning": "warning",
    "warn": "warning",
    "error": "error",
    "exception": "error",
    "critical": "critical",
}
_LOGGER = re.compile(r"(?:\w*_)?log(?:ger)?|logging", re.IGNORECASE)


def _logged(call: ast.Call) -> set[tuple[str, str]]:
    """(level, message) of a logger's call (`_LOGGER.warning("…", e)`); none for another."""
    func = call.func
    if not isinstance(func, ast.Attribute) or func.attr not in _LOG_METHODS or not call.args:
        return set()
    receiver = func.value
    named = receiver.attr if isinstance(receiver, ast.Attribute) else getattr(receiver, "id", "")
    said = _said(call.args[0])
    if not _LOGGER.fullmatch(named) or said is None:
        return set()
    return {(_LOG_METHODS[func.attr], said)}


def _narrowed_raises(node: ast.If) -> set[str]:
    """What `raise v` raises under `if isinstance(v, X):` (or `(X, Y)`): an `X`
    (trio-websocket b74d6bf's parent raised `sub_exc` where `isinstance(sub_exc,
    KeyboardInterrupt)`)."""
    test = node.test
    if not (
        isinstance(test, ast.Call)
        and isinstance(test.func, ast.Name)
        and test.func.id == "isinstance"
        and len(test.args) == 2
        and isinstance(test.args[0], ast.Name)
    ):
        return set()
    variable, kinds = test.args[0].id, test.args[1]
    named = kinds.elts if isinstance(kinds, ast.Tuple) else [kinds]
    raised = any(
        isinstance(n, ast.Raise) and isinstance(n.exc, ast.Name) and n.exc.id == variable
        for statement in node.body
        for n in ast.walk(statement)
    )
    return {ast.unparse(k) for k in named} if raised else set()


def _given(block: list[ast.stmt]) -> str | None:
    """The value a block's last statement returns, as `ast.unparse` writes it; None for
    another statement, a bare `return` or `return None`, or where a statement before it may
    leave the block otherwise (`return`, `raise`, `continue`, `break`: code nested in a
    `def`, `class` or `lambda` aside)."""
    last = block[-1]
    if not isinstance(last, ast.Return) or last.value is None:
        return None
    before = [n for s in block[:-1] for n in _walk_own(s)]
    if any(isinstance(n, ast.Return | ast.Raise | ast.Continue | ast.Break) for n in before):
        return None
    if isinstance(last.value, ast.Constant) and last.value.value is None:
        return None
    return _unparsed(last.value)


def _read_bindings(own: list[ast.AST], assigned: dict[str, set[str]], rebound: set[str]) -> None:
    """Into `assigned` each name a function's own code binds by a plain `name = value` (or
    `name: T = value`) with its values; into `rebound` the names it binds any other way."""
    plain: set[int] = set()
    for n in own:
        if isinstance(n, ast.Assign) and len(n.targets) == 1 and isinstance(n.targets[0], ast.Name):
            assigned.setdefault(n.targets[0].id, set()).add(_unparsed(n.value))
            plain.add(id(n.targets[0]))
        elif isinstance(n, ast.AnnAssign) and isinstance(n.target, ast.Name) and n.value:
            assigned.setdefault(n.target.id, set()).add(_unparsed(n.value))
            plain.add(id(n.target))
    for n in own:
        if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store | ast.Del):
            if id(n) not in plain:
                rebound.add(n.id)
        elif isinstance(n, ast.alias):
            rebound.add((n.asname or n.name).split(".", 1)[0])
        elif isinstance(n, ast.Global | ast.Nonlocal):
            rebound.update(n.names)
        elif isinstance(
            n, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef | ast.ExceptHandler
        ) or (isinstance(n, ast.MatchAs | ast.MatchStar) and n.name):
            rebound.add(n.name or "")


def _final(body: list[ast.stmt]) -> list[ast.stmt]:
    """The statements of a function's body after which none of it runs: the body's last, and
    the last of each block that one ends with (an `if`'s branches, a `with`'s body, a
    `try`'s `else` or else its body, its handlers, a `match`'s cases). A loop's body is no
    such block: the loop goes on."""
    found: list[ast.stmt] = []
    todo = [body]
    while todo:
        block = todo.pop()
        if not block:
            continue
        found.append(block[-1])
        last = block[-1]
        if isinstance(last, ast.If):
            todo += [last.body, last.orelse]
        elif isinstance(last, ast.With | ast.AsyncWith):
            todo.append(last.body)
        elif isinstance(last, ast.Try | ast.TryStar):
            todo.append(last.orelse or last.body)
            todo += [handler.body for handler in last.handlers]
        elif isinstance(last, ast.Match):
            todo += [case.body for case in last.cases]
    return found


def _leaves_block(last: ast.stmt) -> bool:
    """Whether a block's last statement leaves it (`return`, `raise`, `continue`, `break`)."""
    return isinstance(last, ast.Return | ast.Raise | ast.Continue | ast.Break)


def _leaves(last: ast.stmt) -> str | None:
    """How a block's last statement leaves it: "return", "continue", "raise E" (E as
    written: `raise E(…)`, `raise E`; "raise " for a bare `raise`); None otherwise."""
    if isinstance(last, ast.Return):
        return "return"
    if isinstance(last, ast.Continue):
        return "continue"
    if isinstance(last, ast.Raise):
        exc = last.exc.func if isinstance(last.exc, ast.Call) else last.exc
        return "raise " + (ast.unparse(exc) if exc is not None else "")
    return None


def _statement_lines(text: str, function: ast.FunctionDef | ast.AsyncFunctionDef) -> list[str]:
    """The first line of each statement (an `except` clause too) in a function's body and
    in the bodies of the functions nested in it, from where the statement starts to the end
    of the line, as the file writes it (a nested function's own `def` line and a nested
    class are not the function's statements)."""
    lines = text.splitlines()
    out: list[str] = []
    todo: list[ast.AST] = [*function.body]
    while todo:
        node = todo.pop()
        if isinstance(node, ast.ClassDef | ast.Lambda | ast.expr):
            continue
        if (
            isinstance(node, ast.stmt | ast.ExceptHandler)
            and not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
            and 0 < node.lineno <= len(lines)
        ):
            out.append(lines[node.lineno - 1][node.col_offset :].rstrip())
        todo += ast.iter_child_nodes(node)
    return out


def _closure_tests(function: ast.FunctionDef | ast.AsyncFunctionDef) -> set[str]:
    """The tests of the `if`, `elif`, `while` and `… if … else …` in a nested function's
    body and the functions nested in it (not in a class or lambda defined there)."""
    tests: set[str] = set()
    todo: list[ast.AST] = [*function.body]
    while todo:
        node = todo.pop()
        if isinstance(node, ast.ClassDef | ast.Lambda):
            continue
        if isinstance(node, ast.If | ast.While | ast.IfExp):
            tests.add(ast.unparse(node.test))
        todo += ast.iter_child_nodes(node)
    return tests


def _walk_own(statement: ast.AST) -> list[ast.AST]:
    """Every node of a statement, those inside a function, class or lambda it defines aside."""
    out: list[ast.AST] = []
    todo: list[ast.AST] = [statement]
    while todo:
        node = todo.pop()
        out.append(node)
        if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef | ast.Lambda):
            todo += ast.iter_child_nodes(node)
    return out


def _reraise_sites(own: list[ast.AST]) -> set[int]:
    """The ids of the `raise` statements of a function's own code that raise the class an
    `except` around them names (by its last part: `except TypeError:` → `raise TypeError`)."""
    out: set[int] = set()
    for handler in own:
        if not isinstance(handler, ast.ExceptHandler) or handler.type is None:
            continue
        kinds = handler.type.elts if isinstance(handler.type, ast.Tuple) else [handler.type]
        names = {_unparsed(k).rsplit(".", 1)[-1] for k in kinds}
        for statement in handler.body:
            for inner in ast.walk(statement):
                if not isinstance(inner, ast.Raise) or inner.exc is None:
                    continue
                raised = inner.exc.func if isinstance(inner.exc, ast.Call) else inner.exc
                if _unparsed(raised).rsplit(".", 1)[-1] in names:
                    out.add(id(inner))
    return out


def _own_nodes(function: ast.FunctionDef | ast.AsyncFunctionDef) -> list[ast.AST]:
    """Every node of a function's own code: not inside a function, class or lambda it defines
    (their decorators and defaults run in it, and are kept)."""
    out: list[ast.AST] = []
    todo: list[ast.AST] = [*function.body]
    while todo:
        node = todo.pop()
        out.append(node)
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            todo += node.decorator_list
            continue
        if isinstance(node, ast.Lambda):
            continue
        todo += ast.iter_child_nodes(node)
    return out


def _strings_bound(
    function: ast.FunctionDef | ast.AsyncFunctionDef, own: list[ast.AST]
) -> dict[str, str]:
    """The local names a function's own code binds once, by a plain `name = "…"` (as `_said`
    reads the string), and never otherwise (a parameter, `+=`, a loop, `except … as`, a
    second assignment)."""
    arguments = function.args
    every = [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs]
    every += [a for a in (arguments.vararg, arguments.kwarg) if a is not None]
    bound: dict[str, list[str | None]] = {a.arg: [None] for a in every}
    plain: set[int] = set()  # the targets of those plain assignments
    for node in own:
        if isinstance(node, ast.Assign) and len(node.targets) == 1:
            target = node.targets[0]
            if isinstance(target, ast.Name):
                bound.setdefault(target.id, []).append(_said(node.value))
                plain.add(id(target))
    for node in own:
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store) and id(node) not in plain:
            bound.setdefault(node.id, []).append(None)
        elif isinstance(node, ast.ExceptHandler) and node.name:
            bound.setdefault(node.name, []).append(None)
    return {name: said for name, (said, *more) in bound.items() if said is not None and not more}


def _read_comparison(node: ast.Compare, into: dict[str, set[str]]) -> None:
    """The strings one comparison tests a value's equality with (`==`, `!=`) or its
    membership in (`in`, `not in` a tuple, list or set written out), each with the others."""
    strings: set[str] = set()
    sides = [node.left, *node.comparators]
    for at, op in enumerate(node.ops):
        left, right = sides[at], sides[at + 1]
        if isinstance(op, ast.Eq | ast.NotEq):
            candidates = [left, right]
        elif isinstance(op, ast.In | ast.NotIn) and isinstance(
            right, ast.Tuple | ast.List | ast.Set
        ):
            candidates = list(right.elts)
        else:
            continue
        strings |= {
            c.value for c in candidates if isinstance(c, ast.Constant) and isinstance(c.value, str)
        }
    for string in strings:
        into.setdefault(string, set()).update(strings - {string})


def _said(node: ast.expr) -> str | None:
    """A message as a sentence quotes it: a string's text, an f-string's literal parts with
    "{…}" for each value (a `%` or `.format` template's the same), `+` and implicit
    concatenation joined; None for anything else (a variable)."""
    if isinstance(node, ast.Constant):
        return node.value if isinstance(node.value, str) else None
    if isinstance(node, ast.JoinedStr):
        parts = []
        for value in node.values:
            if isinstance(value, ast.Constant):
                parts.append(str(value.value))
            else:
                parts.append("{…}")
        return "".join(parts)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        left, right = _said(node.left), _said(node.right)
        return None if left is None or right is None else left + right
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod):
        # `"… %s" % x`: each conversion is where a value goes, `%%` a percent sign
        template = _said(node.left)
        return None if template is None else _CONVERSION.sub(_converted, template)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
        # `"… {}".format(x)`: each replacement field is where a value goes
        template = _said(node.func.value) if node.func.attr == "format" else None
        try:
            fields = list(Formatter().parse(template)) if template is not None else None
        except ValueError:
            return None
        return (
            None
            if fields is None
            else "".join(t + ("{…}" if f is not None else "") for t, f, _, _ in fields)
        )
    return None


# printf-style conversions (the `%` operator's: `%s`, `%-5d`, `%(name)r`, `%%`)
_CONVERSION = re.compile(
    r"%(?:\([^)]*\))?[-#0 +]*(?:\*|\d+)?(?:\.(?:\*|\d+))?[hlL]?([diouxXeEfFgGcrsa%])"
)


def _converted(match: re.Match[str]) -> str:
    return "%" if match.group(1) == "%" else "{…}"


# --- how a definition is called ---------------------------------------------------------

# Decorators that leave a function called as its `def` writes it; any other may change the
# call (a `@property` is no call at all, `@overload` one of several).
_PLAIN = frozenset(
    {"staticmethod", "classmethod", "abstractmethod", "abc.abstractmethod", "final"}
    | {"typing.final", "override", "typing.override", "typing_extensions.override"}
)


@dataclass(frozen=True)
class Called:
    """How a caller calls one definition: its parameters in order, each `(name, default
    as ast.dump writes it or None)`, with the markers "/" (positional-only before it), "*"
    (keyword-only after it) and "*args" / "**kw" as strings; its return annotation's
    `ast.dump` (None: none)."""

    parameters: tuple[tuple[str, str | None] | str, ...]
    returns: str | None


def called_as(params: ast.arguments, *, bound: bool) -> tuple[tuple[str, str | None] | str, ...]:
    """Parameters as Python binds a call's arguments to them, a bound method's first one
    (the instance or class the call is made through) left out."""
    out: list[tuple[str, str | None] | str] = []
    positional = [*params.posonlyargs, *params.args]
    defaults: list[ast.expr | None] = [None] * (len(positional) - len(params.defaults))
    defaults += params.defaults
    for at, (arg, default) in enumerate(zip(positional, defaults, strict=True)):
        out.append((arg.arg, None if default is None else ast.dump(default)))
        if at == len(params.posonlyargs) - 1:
            out.append("/")
    if params.vararg is not None:
        out.append("*" + params.vararg.arg)
    elif params.kwonlyargs:
        out.append("*")
    for arg, kw_default in zip(params.kwonlyargs, params.kw_defaults, strict=True):
        out.append((arg.arg, None if kw_default is None else ast.dump(kw_default)))
    if params.kwarg is not None:
        out.append("**" + params.kwarg.arg)
    if bound:
        first = next((i for i, p in enumerate(out) if isinstance(p, tuple)), None)
        if first != 0:
            raise Unreadable("a method without a parameter to bind")
        out = out[1:]
        if out[:1] == ["/"]:
            out = out[1:]
    return tuple(out)


def python_called(text: str, name: str) -> list[Called] | None:
    """How a caller calls `name` (`Class.method`, `function`, `Class`: its own `__init__`)
    in a Python file: one for each `def` that may bind the name (each branch of an `if`);
    None when the file defines no such name. Unreadable where Python's rules alone do not
    say: a decorator other than `_PLAIN`'s, a class decorated, given keywords (a
    metaclass), a `__new__`, or no `__init__` of its own."""
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError) as exc:
        raise Unreadable(f"does not parse: {exc.__class__.__name__}") from None
    found: list[Called] = []
    named = False

    def one(node: ast.FunctionDef | ast.AsyncFunctionDef, *, method: bool) -> Called:
        decorators = [_unparsed(d) for d in node.decorator_list]
        if any(d not in _PLAIN for d in decorators):
            raise Unreadable(f"`{name}` is decorated: {', '.join(decorators)}")
        bound = method and "staticmethod" not in decorators
        returns = None if node.returns is None else ast.dump(node.returns)
        return Called(called_as(node.args, bound=bound), returns)

    def walk(body: list[ast.stmt], prefix: str, in_class: bool) -> None:
        nonlocal named
        for node in body:
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                qualified = prefix + node.name
                if qualified == name and isinstance(node, ast.ClassDef):
                    named = True
                    if node.decorator_list or node.keywords:
                        raise Unreadable(f"`{name}` is a class decorated or given keywords")
                    inits = [
                        n
                        for n in node.body
                        if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)
                        and n.name in ("__init__", "__new__")
                    ]
                    if not inits or any(n.name == "__new__" for n in inits):
                        raise Unreadable(f"`{name}` has no `__init__` of its own, or a `__new__`")
                    found.extend(Called(one(n, method=True).parameters, None) for n in inits)
                elif qualified == name and not isinstance(node, ast.ClassDef):
                    named = True
                    found.append(one(node, method=in_class))
                if isinstance(node, ast.ClassDef):
                    walk(node.body, qualified + ".", True)
            elif isinstance(node, ast.If | ast.Try | ast.With | ast.For | ast.While):
                for block in _blocks(node):
                    walk(block, prefix, in_class)

    walk(tree.body, "", False)
    return found if named else None


def claimed_parameters(written: str) -> tuple[tuple[tuple[str, str | None] | str, ...], bool]:
    """Parameters as a sentence writes them (`x, y=1, *, z=None`, perhaps ending `, …`: cut)
    read by Python's own parser, and whether they were cut. ValueError when Python reads
    no parameter list there."""
    text = written.strip()
    cut = text == "…" or text.endswith(", …")
    text = text.removesuffix("…").rstrip().removesuffix(",")
    try:
        tree = ast.parse(f"def _({text}): pass")
    except (SyntaxError, ValueError, RecursionError) as exc:
        raise ValueError(written) from exc
    function = tree.body[0]
    assert isinstance(function, ast.FunctionDef)
    return called_as(function.args, bound=False), cut
