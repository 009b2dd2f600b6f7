"""A whole Python file parsed with `ast` into one side's symbol table."""

from __future__ import annotations

import ast
import bisect
import copy
import dataclasses
import functools
import hashlib
import itertools
import re
import weakref
from collections.abc import Iterator
from dataclasses import dataclass
from typing import NamedTuple

from bot.analysis.facts.formats import formatted
from bot.analysis.facts.keywords import keywords_sorted
from bot.analysis.facts.modules import binds_all, breadth, listed_strings, module_tree
from bot.analysis.facts.python import _NOT_A_REGISTRY, _SAYS_DEPRECATED, _within, registry_of
from bot.analysis.facts.records import NameKind
from bot.analysis.facts.renamed import canonical
from bot.analysis.facts.scan import CallShape, Side
from bot.analysis.facts.tables import bind, merge, mutate

# setuptools' `setup(…)` as a `setup.py` calls it
# The standard library's other names of `OSError` (Python 3.3, PEP 3151): one class
OS_ERROR_NAMES = frozenset({"socket.error", "select.error", "os.error"})
_SETUP_CALLS = frozenset({"setup", "setuptools.setup"})
# Decorators that make a function a GPU kernel; `cute.jit` marks a device helper, not one.
_KERNEL_DECORATORS = frozenset(
    {"triton.jit", "triton.autotune", "triton.heuristics", "cute.kernel", "tl.jit"}
)
_DECLARATIONS = frozenset(
    {"abstractmethod", "abc.abstractmethod", "overload", "typing.overload", "t.overload"}
)
_OVERLOADS = frozenset({"overload", "typing.overload", "t.overload", "typing_extensions.overload"})
_ENV_NAME = re.compile(r"[A-Z][A-Z0-9_]{2,}")
# A call whose own name says it reads the environment (`env_bool("X")`, `get_env_var("X")`).
_ENV_WRAPPER = re.compile(r"(?:^|_)env(?:_|$|iron)|getenv", re.IGNORECASE)
# (`addoption`: a pytest plugin's command-line options)
_FLAG_CALLS = frozenset({"add_argument", "addoption", "option", "Option", "argument", "Argument"})
_FIELD_BASES = re.compile(r"(?:^|\.)(?:BaseModel|BaseSettings|Struct|NamedTuple|TypedDict)$")
# The standard library's enums: each public name their body assigns is a member.
_ENUM_BASES = re.compile(r"(?:^|\.)(?:Enum|IntEnum|StrEnum|Flag|IntFlag|ReprEnum)$")
_CLASS_VAR = re.compile(r"(?:^|\.)ClassVar\b")
_FIELD_DECORATORS = re.compile(r"(?:^|\.)(?:dataclass|define|frozen|attrs|s|dataclasses?)$")
_DEPRECATION_CATEGORIES = frozenset({"DeprecationWarning", "FutureWarning"})
# A body this small (`pass`, `return None`) says nothing about where it came from.
_MIN_BODY = 40
# Lines that may hold a call the tables read: environment, options, registrations, warnings.
_HINT = re.compile(
    r"env|egist|custom_op|warn|eprecat|add_argument|ption\(|rgument\(|(?:\.add|Flag)\(\s*[\"']--"
)
# `face`, a command-line library: `cmd.add('--flag', …)` and `Flag('--flag', …)` declare options
_FACE_IMPORT = re.compile(r"\s*(?:from\s+face\b|import\s+face\b)")
_FACE_CALLS = frozenset({"add", "Flag"})
PARSE_ERRORS = (SyntaxError, ValueError, RecursionError, MemoryError)
# Line breaks `str.splitlines` honours and Python's tokenizer does not (form feed, U+2028…):
# in a text holding one, `splitlines`' line numbers are not `ast`'s (`pyedit.py` reads such
# texts whole for the same reason)
ODD_BREAKS = re.compile("[\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029]")
# A constant's value kept as written when one line this long (a longer one is compared by
# a digest of its lines).
_MAX_VALUE = 120
_UPPER = re.compile(r"[A-Z][A-Z0-9_]*")
# A class's name as PEP 8 writes it: CapWords, some letter lower case.
_CLASS_NAME = re.compile(r"[A-Z][A-Za-z0-9]*[a-z][A-Za-z0-9]*")
_BUILTIN_CONTAINERS = frozenset(
    {"frozenset", "tuple", "set", "list", "dict", "bytes", "int", "float", "str"}
)
# The statement lists of a compound statement, walked one statement at a time.
_BLOCKS = ("body", "orelse", "finalbody", "handlers", "cases")


UNPRINTABLE = "…"


def _fallback(body: list[ast.stmt], arg: str, default: str) -> frozenset[str] | None:
    """The literals of what a function's own top-level `if arg == default:` (or `is`) sets
    `arg` to: a default that only stands for another value (cattrs 0c226c29's
    `"from_converter"`, then `getattr(converter, "use_alias", False)`)."""
    for stmt in body:
        test = stmt.test if isinstance(stmt, ast.If) else None
        if not (
            isinstance(test, ast.Compare)
            and isinstance(test.left, ast.Name)
            and test.left.id == arg
            and len(test.ops) == 1
            and isinstance(test.ops[0], (ast.Eq, ast.Is))
            and _source(test.comparators[0]) == default
        ):
            continue
        for s in stmt.body if isinstance(stmt, ast.If) else ():
            if isinstance(s, ast.Assign) and [_source(t) for t in s.targets] == [arg]:
                return frozenset(
                    _source(n) for n in ast.walk(s.value) if isinstance(n, ast.Constant)
                )
    return None


def _named_calls(body: list[ast.stmt]) -> list[ast.Call]:
    """The calls of a plain function's name that pass keywords in a function's code, each
    statement's walked in turn (`_forwarded` reads them)."""
    return [
        node
        for stmt in body
        for node in breadth([stmt])
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.keywords
    ]


def _forwarded(calls: list[ast.Call], arg: str) -> str | None:
    """`g(x)` of the first call of `_named_calls` that passes `arg` on by name (`g(x=arg)`)."""
    for node in calls:
        assert isinstance(node.func, ast.Name)
        for k in node.keywords:
            if k.arg and isinstance(k.value, ast.Name) and k.value.id == arg:
                return f"{node.func.id}({k.arg})"
    return None


def _source(node: ast.AST) -> str:
    """The code of `node` as written, or "…" for what Python refuses to print (an integer of
    more than 4,300 digits raises ValueError)."""
    try:
        return ast.unparse(node)
    except ValueError:
        return UNPRINTABLE


def read_units(text: str, *, package: str | None, tests: bool) -> list[Unit] | None:
    """A Python file's whole text parsed and read one top-level unit at a time; None when
    it does not parse (the patch is read instead)."""
    try:
        tree = module_tree(text)
    except PARSE_ERRORS:
        return None
    aligned = not ODD_BREAKS.search(text)
    return units(tree.body, text.splitlines(), package=package, tests=tests, written=aligned)


def table(read: list[Unit]) -> tuple[Side, list[Warned]]:
    """A side's symbol table from its units, and the deprecation messages its code raises."""
    side, deprecations = Side(), list[Warned]()
    for unit in read:
        unit.fill(side, deprecations)
    side.served.update(k for n in side.lazy_reads for k in side.mappings.get(n, ()))
    if not side.listed:
        side.exports.update(side.imported_exports)
    return side, deprecations


class Warned(NamedTuple):
    """A deprecation warning the code raises: its message, and where (the definition the call
    is in, the call, its category: `Pattern.match:warn:DeprecationWarning`)."""

    message: str
    where: str


@dataclass
class Unit:
    """Top-level statements sharing no line with others (`a = 1; b = 2` is one), read alone:
    what they define and read is a function of their lines' text, wherever the file has
    them."""

    start: int  # first line, decorators included (1-based)
    end: int  # last line
    table: Side
    deprecations: list[Warned]
    # environment variables a call here reads with its default; one only subscripted
    # (`os.environ["X"]`) does not replace a default read before it
    env_read: set[str]
    # lines the unit moved since its statements were parsed (`pyedit.py` keeps a parse
    # whose lines the commit shifted): its nodes' line numbers are that parse's
    by: int = 0

    def fill(self, side: Side, deprecations: list[Warned]) -> None:
        """Add this unit's table to `side`, as reading its statements after those before."""
        table = self.table
        # a name bound again by a later unit (a second top-level `def`, an `@overload`)
        # (not after `@overload`s: async-lru 23d95de's `alru_cache` lost `cache_exceptions`,
        # unsaid while its overloads made it "defined twice")
        again = (table.defs.keys() & side.defs.keys()) - side.overloaded
        side.redefined.update(table.redefined | again)
        # a unit's `@overload` after the earlier unit's: the overloads' parameters together
        joined = {
            name: overloaded(side.signatures[name], signature)
            for name, signature in table.signatures.items()
            if name in side.overloaded and name in table.overloaded and name in side.signatures
        }
        # a unit's implementation after the earlier unit's `@overload`s: theirs stay a stub's
        if side.overloaded:
            side.overloads.update(
                (name, side.signatures[name])
                for name in side.overloaded & table.signatures.keys()
                if name not in table.overloaded and name in side.signatures
            )
        side.overloaded.difference_update(table.defs.keys())
        side.overloaded.update(table.overloaded)
        side.defs.update(table.defs)
        side.declared.update(table.declared)
        side.positional.update(table.positional)
        side.bodies.update(table.bodies)
        side.code.update(table.code)
        side.params.update(table.params)
        side.fallbacks.update(table.fallbacks)
        side.forwards.update(table.forwards)
        side.signatures.update(table.signatures | joined)
        side.overloads.update(table.overloads)
        side.annotations.update(table.annotations)
        side.functions.update(table.functions)
        for name in table.functions:
            if name in table.written:
                side.written[name] = table.written[name]
            else:
                side.written.pop(name, None)
            if self.by:
                side.shifts[name] = self.by
            else:
                side.shifts.pop(name, None)
        side.classes.update(table.classes)
        side.imports.update(table.imports)
        side.aliases.update(table.aliases)
        side.modules.update(table.modules)
        side.bases.update(table.bases)
        side.exports.update(table.exports)
        side.imported_exports.update(table.imported_exports)
        side.listed = side.listed or table.listed
        for name, value in table.bound.items():
            # bound by an earlier statement to something else: which one holds is not one's
            twice = name in side.assigned and side.bound.get(name) != value
            side.bound[name] = "" if twice else value
        side.assigned.update(table.assigned)
        side.typevars.update(table.typevars)
        side.covariant.update(table.covariant)
        side.lazy = side.lazy or table.lazy
        for name, literal in table.literals.items():
            side.literals[name] = None if name in side.literals else literal
        if table.setup_call is not None:
            side.setup_call = _with_literals(table.setup_call, side.literals)
        side.served.update(table.served)
        side.refused.update(table.refused)
        side.closures.update(table.closures)
        side.mappings.update(table.mappings)
        side.lazy_reads.update(table.lazy_reads)
        side.fields.update(table.fields)
        side.constants.update(table.constants)
        merge(side.tables, table.tables)
        side.tests.extend(table.tests)
        for name, default in table.env.items():
            if name in self.env_read:
                side.env[name] = default
            else:
                side.env.setdefault(name, None)
        side.flags.update(table.flags)
        side.flag_help.update(table.flag_help)
        side.registrations.update(table.registrations)
        deprecations.extend(self.deprecations)


def units(
    body: list[ast.stmt],
    lines: list[str],
    *,
    package: str | None,
    tests: bool,
    written: bool = True,
) -> list[Unit]:
    """A module's top-level statements (line numbers of `lines`), grouped and read one unit
    at a time. `written`: whether `lines` are numbered as `ast` numbers them (no line break
    `str.splitlines` alone honours: `Side.written` is read only then)."""
    groups: list[list[ast.stmt]] = []
    spans: list[tuple[int, int]] = []
    for node in body:
        start = _start(node)
        end = node.end_lineno or node.lineno
        if spans and start <= spans[-1][1]:
            groups[-1].append(node)
            spans[-1] = (spans[-1][0], max(spans[-1][1], end))
        else:
            groups.append([node])
            spans.append((start, end))
    out = []
    for nodes, (start, end) in zip(groups, spans, strict=True):
        reader = _Reader(Side(), lines, package=package, tests=tests, written=written)
        reader.module(nodes, start, end)
        out.append(Unit(start, end, reader.side, reader.deprecations, reader.env_read))
    return out


def _start(node: ast.stmt) -> int:
    decorators: list[ast.expr] = getattr(node, "decorator_list", [])
    return min([node.lineno, *(d.lineno for d in decorators)])


def _raised_as_narrowed(node: ast.If) -> set[str]:
    """The classes an `if isinstance(name, C)` block raises by raising `name` itself."""
    test = node.test
    if not (
        isinstance(test, ast.Call)
        and dotted(test.func) == "isinstance"
        and len(test.args) == 2
        and isinstance(test.args[0], ast.Name)
    ):
        return set()
    name = test.args[0].id
    if not any(
        isinstance(n, ast.Raise) and isinstance(n.exc, ast.Name) and n.exc.id == name
        for n in ast.walk(ast.Module(body=node.body, type_ignores=[]))
    ):
        return set()
    classes = test.args[1].elts if isinstance(test.args[1], ast.Tuple) else [test.args[1]]
    return {c for c in map(dotted, classes) if c[:1].isupper()}


def dotted(node: ast.expr) -> str:
    """`a.b.c` for a name or an attribute chain; the called name for a call; else ''."""
    if isinstance(node, ast.Call):
        return dotted(node.func)
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        inner = dotted(node.value)
        return f"{inner}.{node.attr}" if inner else node.attr
    return ""


def _nested_functions(body: list[ast.stmt]) -> list[str]:
    """Names of the functions a block defines, in its statements and theirs (not inside
    expressions: walking every node of a large module costs more than parsing it)."""
    out: list[str] = []
    todo = list(body)
    while todo:
        node = todo.pop()
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            out.append(node.name)
        for block in _BLOCKS:
            inner = getattr(node, block, None)
            if isinstance(inner, list):
                todo.extend(
                    s
                    for item in inner
                    for s in (
                        item.body
                        if isinstance(item, ast.ExceptHandler | ast.match_case)
                        else [item]
                    )
                    if isinstance(s, ast.stmt)
                )
    return out


def _type_checking(test: ast.expr) -> bool:
    """`TYPE_CHECKING` or `typing.TYPE_CHECKING` (`t.TYPE_CHECKING`): true only for a type
    checker."""
    return dotted(test).rsplit(".", 1)[-1] == "TYPE_CHECKING"


def _declared(body: list[ast.stmt], prefix: str) -> Iterator[str]:
    """The qualified names the definitions of a block bind, their classes' members too."""
    for node in body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            yield f"{prefix}{node.name}"
            if isinstance(node, ast.ClassDef):
                yield from _declared(node.body, f"{prefix}{node.name}.")


def _none(node: ast.expr) -> bool:
    return isinstance(node, ast.Constant) and node.value is None


def _literal(node: ast.expr | None) -> str | None:
    return None if node is None else _source(node)


def _text(node: ast.expr) -> str | None:
    """A string literal, an f-string's literal parts, or `"a" "b"` joined."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return "".join(
            str(v.value) if isinstance(v, ast.Constant) else _placeholder(v)
            for v in node.values
            if isinstance(v, ast.Constant | ast.FormattedValue)
        )
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        left, right = _text(node.left), _text(node.right)
        return left + right if left is not None and right is not None else None
    return None


# what `!r` of them gives is a string's `repr`: the string between quotes
_STRING_ATTRIBUTES = frozenset({"__name__", "__qualname__", "__module__"})


def _placeholder(value: ast.FormattedValue) -> str:
    """`{…}` where an f-string puts a value; `'{…}'` for `{x!r}` of a value known to be a
    string (a literal, a `__name__`, `str(…)`), as `"'{}'".format(x)` writes it."""
    inner = value.value
    string = (
        (isinstance(inner, ast.Constant) and isinstance(inner.value, str))
        or isinstance(inner, ast.JoinedStr)
        or (isinstance(inner, ast.Attribute) and inner.attr in _STRING_ATTRIBUTES)
        or (isinstance(inner, ast.Call) and dotted(inner.func) in ("str", "repr"))
    )
    return "'{…}'" if value.conversion == ord("r") and string else "{…}"


def docstring(node: ast.Module | ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef) -> bool:
    """Whether the module's, class's or function's first statement is its docstring."""
    if not node.body:
        return False
    first = node.body[0]
    return (
        isinstance(first, ast.Expr)
        and isinstance(first.value, ast.Constant)
        and isinstance(first.value.value, str)
    )


def _digest(lines: list[str]) -> str:
    """A digest of source lines, each stripped: the same code indented anew is the same."""
    text = "\n".join(line.strip() for line in lines if line.strip())
    return hashlib.blake2b(text.encode(), digest_size=12).hexdigest() if text else ""


def _code(
    node: ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef,
    *,
    renamed: bool = False,
    attrs: tuple[tuple[str, str], ...] = (),
) -> str:
    """A digest of a definition's code as Python reads it: its docstring, comments and layout
    aside ("the fix is in `f`" needs `f`'s code to differ, not its words, nor a formatter's
    reflow of an `assert` or strings joined), and for a class, its methods and nested classes
    (names of their own); with `renamed`, a function's locals named by where they first occur
    (`canonical`: the same code with a local renamed throughout is the same code; asked only
    where the digests as written differ: it walks the tree twice), and the attributes of
    `attrs` named as given (a class's private attributes renamed throughout it)."""
    if renamed and not isinstance(node, ast.ClassDef):
        try:
            with canonical(node, dict(attrs)) as body:
                return _code_digest(node, body)
        except RecursionError:
            # nested past Python's limit (a long `elif` chain of generated code): its locals
            # as written (a rename then reads as an edit: more said, never a wrong quote)
            pass
    return _code_digest(node, node.body)


def code_of(
    node: ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef, *, renamed: bool = False
) -> str:
    """`_code`'s digest worked out anew (a `Side.code` entry is cached: this reads the tree
    as it is now, while `following` renames what it reads)."""
    return _code(node, renamed=renamed)


def code_parts(
    node: ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef, body: list[ast.stmt]
) -> list[ast.AST]:
    """What a definition's code digest reads, in its order: decorators, head (bases and
    keywords, or parameters and return annotation) and body, the docstring and a class's
    members aside."""
    body = body[1:] if docstring(node) else body
    head: list[ast.AST]
    if isinstance(node, ast.ClassDef):
        members = ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef
        body = [s for s in body if not isinstance(s, members)]
        head = [*node.bases, *node.keywords]
    else:
        head = [node.args, *([node.returns] if node.returns else [])]
    return [*node.decorator_list, *head, *body]


def _code_digest(
    node: ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef, body: list[ast.stmt]
) -> str:
    # `ast.dump` leaves line numbers out: the same code moved is the same; and keywords are
    # bound by their names: the same call with its keywords reordered is the same
    parts = code_parts(node, body)
    said = []
    for part in parts:
        text = dumped(part)
        # only a call passing two keywords or more is read again, its keywords sorted (a
        # dump holds `), keyword(` wherever it has one, `_flat_dump`'s `),keyword(`): the
        # walk for calls cost more than the dump
        if "), keyword(" in text or "),keyword(" in text:
            with keywords_sorted(part) as ordered:
                text = dumped(ordered)
        said.append(text)
    text = "\n".join(said)
    return hashlib.blake2b(text.encode(), digest_size=12).hexdigest()


def dumped(part: ast.AST) -> str:
    """`ast.dump`, an integer past Python's 4,300-digit printing limit read by its hash (on
    a copy: the tree is shared); a tree nested past Python's recursion limit (a long `elif`
    chain of generated code) dumped without recursion (`_flat_dump`)."""
    try:
        return _dump(part)
    except RecursionError:
        return _flat_dump(part)
    except ValueError:
        copied = copy.deepcopy(part)
        for inner in ast.walk(copied):
            if isinstance(inner, ast.Constant) and isinstance(inner.value, int):
                inner.value = f"int#{hash(inner.value)}"
        try:
            return _dump(copied)
        except RecursionError:
            return _flat_dump(copied)


# Each node type's fields `ast.dump` leaves out when None (those the type defaults to None)
_OPTIONAL: dict[type[ast.AST], frozenset[str]] = {}


def _dump(node: ast.AST) -> str:
    """`ast.dump(node)`'s text exactly, written twice as fast: its lists inline, no check
    for the indented layout `ast.dump` is not asked for here."""
    kind = type(node)
    optional = _OPTIONAL.get(kind)
    if optional is None:
        optional = _OPTIONAL[kind] = frozenset(
            name for name in kind._fields if getattr(kind, name, ...) is None
        )
    args = []
    for name in node._fields:
        try:
            value = getattr(node, name)
        except AttributeError:
            continue
        if isinstance(value, ast.AST):
            args.append(f"{name}={_dump(value)}")
        elif isinstance(value, list):
            items = [_dump(v) if isinstance(v, ast.AST) else repr(v) for v in value]
            args.append(f"{name}=[{', '.join(items)}]")
        elif value is None and name in optional:
            continue
        else:
            args.append(f"{name}={value!r}")
    return f"{kind.__name__}({', '.join(args)})"


class _Mark(str):
    """A piece of `_flat_dump`'s own writing, told apart from a field's string value."""


def _flat_dump(part: ast.AST) -> str:
    """The tree's node types and field values in order, line numbers aside, by a loop: two
    trees give the same text exactly when they are the same code (as `ast.dump`'s do)."""
    out: list[str] = []
    stack: list[object] = [part]
    while stack:
        item = stack.pop()
        if isinstance(item, _Mark):
            out.append(item)
        elif isinstance(item, ast.AST):
            out.append(f"{type(item).__name__}(")
            stack.append(_Mark(")"))
            for name in reversed(item._fields):
                stack += [getattr(item, name, None), _Mark(f"{name}=")]
        elif isinstance(item, list):
            out.append("[")
            stack.append(_Mark("]"))
            for inner in reversed(item):
                stack += [_Mark(","), inner]
        elif isinstance(item, int) and not isinstance(item, bool):
            out.append(f"int#{hash(item)}")
        else:
            out.append(repr(item))
    return "".join(out)


# What binds a type variable (`_T = TypeVar("_T")`)
_TYPE_VARIABLES = frozenset({"TypeVar", "ParamSpec", "TypeVarTuple"})


class _Reader:
    """Walks one module: definitions by qualified name, then calls anywhere in it."""

    def __init__(
        self,
        side: Side,
        lines: list[str],
        *,
        package: str | None,
        tests: bool,
        written: bool = True,
    ) -> None:
        self.side = side
        self.lines = lines
        # whether `lines` are the lines `ast` numbers (`Side.written` is read from them)
        self.written = written
        self.package = package
        self.tests = tests
        self.deprecations: list[Warned] = []
        self.imports_face: bool | None = None
        # the definitions the calls being walked lie in (`Pattern.match`)
        self.scope: list[str] = []
        self.env_read: set[str] = set()
        # `os.environ.get("PAGER") or ""`: the call's value when it gives None, by the call
        self.or_else: dict[int, ast.expr] = {}

    def module(self, body: list[ast.stmt], start: int, end: int) -> None:
        """Read top-level statements that lie on lines `start`..`end`."""
        self._block(body, prefix="", in_class=False, top=True)
        hinted = [
            n for n, line in enumerate(self.lines[start - 1 : end], start) if _HINT.search(line)
        ]
        if hinted:
            self._calls(body, hinted)

    def _calls(self, nodes: list[ast.stmt], hinted: list[int]) -> None:
        """The calls of the statements on lines a call the tables read could be on: walking
        every node of a large module costs more than parsing it."""
        for node in nodes:
            # a decorated definition starts at its first decorator (`@click.option(…)` above
            # `def main`): its `lineno` is the `def` line's
            first = min([node.lineno, *(d.lineno for d in getattr(node, "decorator_list", ()))])
            at = bisect.bisect_left(hinted, first)
            if at == len(hinted) or hinted[at] > (node.end_lineno or node.lineno):
                continue
            blocks = [b for b in _BLOCKS if isinstance(getattr(node, b, None), list)]
            parts: list[ast.AST] = [node]
            if blocks:
                parts = [
                    item
                    for field, value in ast.iter_fields(node)
                    if field not in blocks
                    for item in (value if isinstance(value, list) else [value])
                    if isinstance(item, ast.AST)
                ]
                named = isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef)
                if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                    self.scope.append(node.name)
                for block in blocks:
                    inner = getattr(node, block)
                    if block in ("handlers", "cases"):
                        inner = [s for h in inner for s in h.body]
                    self._calls([s for s in inner if isinstance(s, ast.stmt)], hinted)
                if named:
                    self.scope.pop()
            for part in parts:
                for child in breadth([part]):
                    if isinstance(child, ast.BoolOp) and isinstance(child.op, ast.Or):
                        # (a walk meets the `or` before the calls in it)
                        for value, fallback in itertools.pairwise(child.values):
                            self.or_else[id(value)] = fallback
                    if isinstance(child, ast.Call):
                        self._call(child)
                    elif isinstance(child, ast.Subscript) and isinstance(child.ctx, ast.Load):
                        # `os.environ["X"]` read; one assigned sets it for a child process
                        self._environ(child)

    def _environ(self, node: ast.Subscript) -> None:
        name = node.slice.value if isinstance(node.slice, ast.Constant) else None
        if (
            dotted(node.value).endswith("environ")
            and isinstance(name, str)
            and _ENV_NAME.fullmatch(name)
        ):
            self.side.env.setdefault(name, None)

    def _block(self, body: list[ast.stmt], *, prefix: str, in_class: bool, top: bool) -> None:
        for node in body:
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                self._function(node, prefix=prefix, in_class=in_class, top=top)
            elif isinstance(node, ast.ClassDef):
                self._class(node, prefix=prefix)
            elif (top or in_class) and isinstance(node, ast.If | ast.Try):
                # `if TYPE_CHECKING:` binds nothing at run time (its `else:` does), `if not
                # TYPE_CHECKING:` only its body; other module-level blocks do, and a class's
                # (`if sys.version_info >= (3, 9): def removeprefix`) define its methods
                blocks = _blocks(node)
                if isinstance(node, ast.If) and _type_checking(node.test):
                    blocks = [node.orelse]
                    self.side.declared.update(_declared(node.body, prefix))
                elif (
                    isinstance(node, ast.If)
                    and isinstance(node.test, ast.UnaryOp)
                    and isinstance(node.test.op, ast.Not)
                    and _type_checking(node.test.operand)
                ):
                    blocks = [node.body]
                for block in blocks:
                    self._block(block, prefix=prefix, in_class=in_class, top=top)
            elif top:
                self._module_statement(node)

    def _function(
        self,
        node: ast.FunctionDef | ast.AsyncFunctionDef,
        *,
        prefix: str,
        in_class: bool,
        top: bool,
    ) -> None:
        qualified = f"{prefix}{node.name}"
        decorators = {dotted(d) for d in node.decorator_list}
        kind = NameKind.METHOD if in_class else NameKind.FUNCTION
        if not in_class and decorators & _KERNEL_DECORATORS:
            kind = NameKind.KERNEL
        whole = self.lines[_start(node) - 1 : node.end_lineno]
        if qualified in self.side.defs and qualified not in self.side.overloaded:
            self.side.redefined.add(qualified)
        # an `@overload` after another: the same function's next signature (PEP 484)
        overloads = bool(decorators & _OVERLOADS) and qualified in self.side.overloaded
        if decorators & _OVERLOADS:
            self.side.overloaded.add(qualified)
        elif qualified in self.side.overloaded:
            self.side.overloaded.discard(qualified)
            if qualified in self.side.signatures:
                self.side.overloads[qualified] = self.side.signatures[qualified]
        self.side.defs[qualified] = (kind, _digest(whole))
        # worked out once: what the change details and what it says edited both ask
        self.side.code[qualified] = functools.cache(functools.partial(_code, node))
        # The code without its docstring: one reworded as the function moves is the same code.
        code = node.body[1:] if docstring(node) and len(node.body) > 1 else node.body
        body = self.lines[code[0].lineno - 1 : node.end_lineno]
        if sum(len(line.strip()) for line in body) >= _MIN_BODY:
            self.side.bodies[qualified] = _digest(body)
        if top and node.name == "__getattr__":
            self.side.lazy = True
            self._served(node)
        args = node.args
        positional = [*args.posonlyargs, *args.args]
        defaults = dict(
            zip(
                [a.arg for a in positional[len(positional) - len(args.defaults) :]],
                args.defaults,
                strict=False,
            )
        )
        defaults |= {
            a.arg: d
            for a, d in zip(args.kwonlyargs, args.kw_defaults, strict=False)
            if d is not None
        }
        # An abstract method's or an overload's defaults never run (the implementation's do),
        # and `...` is a stub's "has a default", no value (multidict fe4dee0).
        if not decorators & _DECLARATIONS:
            calls: list[ast.Call] | None = None  # (walked once, for the first that asks)
            for arg, default in defaults.items():
                if not (isinstance(default, ast.Constant) and default.value is Ellipsis):
                    self.side.params[f"{qualified}({arg})"] = _source(default)
                    if (given := _fallback(node.body, arg, _source(default))) is not None:
                        self.side.fallbacks[f"{qualified}({arg})"] = given
                        continue
                    calls = _named_calls(node.body) if calls is None else calls
                    if (callee := _forwarded(calls, arg)) is not None:
                        self.side.forwards[f"{qualified}({arg})"] = callee
        signature = _parameters(args, defaults)
        if overloads:
            signature = overloaded(self.side.signatures.get(qualified, ()), signature)
        self.side.signatures[qualified] = signature
        # PEP 484: a parameter named `__x` (not `__x__`) is positional-only, as one before `/`
        unnamed = [a.arg for a in args.posonlyargs]
        for i, a in enumerate(args.args):
            if a.arg.startswith("__") and not a.arg.endswith("__"):
                unnamed.append(a.arg)
            elif not (i == 0 and in_class):  # a method's `self` need not say it
                break
        if unnamed:
            self.side.positional[qualified] = frozenset(unnamed)
        typed = {
            a.arg: _source(a.annotation)
            for a in (*positional, *args.kwonlyargs)
            if a.annotation is not None
        }
        if node.returns is not None:
            typed["->"] = _source(node.returns)
        self.side.annotations[qualified] = typed
        # a property's setter or deleter is the same name: the getter (its docstring) stays
        if not (
            qualified in self.side.functions
            and decorators & {f"{node.name}.setter", f"{node.name}.deleter"}
        ):
            self.side.functions[qualified] = node
            if self.written:
                self.side.written[qualified] = "\n".join(whole)
        if self.tests and node.name.startswith("test"):
            self.side.tests.append(qualified)
        # Functions nested in a function are its closures, never members or names of the module.
        self.side.closures.update(_nested_functions(node.body))

    def _class(self, node: ast.ClassDef, *, prefix: str) -> None:
        qualified = f"{prefix}{node.name}"
        if qualified in self.side.defs:
            self.side.redefined.add(qualified)
        self.side.classes[qualified] = node
        # the class's own lines, its methods and nested classes aside (they are names of
        # their own)
        members = {
            n
            for s in node.body
            if isinstance(s, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef)
            for n in range(
                min([s.lineno, *(d.lineno for d in s.decorator_list)]), (s.end_lineno or 0) + 1
            )
        }
        lines = range(node.lineno, (node.end_lineno or node.lineno) + 1)
        self.side.defs[qualified] = (
            NameKind.CLASS,
            _digest([self.lines[n - 1] for n in lines if n not in members]),
        )
        self.side.code[qualified] = functools.cache(functools.partial(_code, node))
        bases = {dotted(b) for b in node.bases}
        self.side.bases[qualified] = tuple(
            dict.fromkeys(b.rsplit(".", 1)[-1] for b in map(dotted, node.bases) if b)
        )
        decorators = {dotted(d) for d in node.decorator_list}
        fields = any(_FIELD_BASES.search(b) for b in bases) or any(
            _FIELD_DECORATORS.search(d) for d in decorators
        )
        enum = any(_ENUM_BASES.search(b) for b in bases)
        for statement in node.body:
            self.side.assigned.update(f"{qualified}.{n}" for n in _targets(statement))
            self._constant(statement, f"{qualified}.", member=enum)
            bind(statement, f"{qualified}.", self.side.tables)
            if (
                fields
                and isinstance(statement, ast.AnnAssign)
                and isinstance(statement.target, ast.Name)
                and statement.value is not None
                # PEP 557 (and attrs, pydantic): a `ClassVar` is the class's own, no field
                # a caller sets (apscheduler 4e36c7c: a `ClassVar[Pattern]` respelled)
                and not _CLASS_VAR.search(_source(statement.annotation))
            ):
                self.side.fields[f"{qualified}.{statement.target.id}"] = _source(statement.value)
        self._block(node.body, prefix=f"{qualified}.", in_class=True, top=False)

    def _module_statement(self, node: ast.stmt) -> None:
        if (
            isinstance(node, ast.Expr)
            and isinstance(node.value, ast.Call)
            and dotted(node.value.func) in _SETUP_CALLS
        ):
            self.side.setup_call = node.value
        if isinstance(node, ast.Import):
            for alias in node.names:
                bound = alias.asname or alias.name.split(".", 1)[0]
                self.side.imports[bound] = ""
                self.side.modules[bound] = alias.name if alias.asname else bound
        elif isinstance(node, ast.ImportFrom):
            module = "." * node.level + (node.module or "")
            for alias in node.names:
                bound = alias.asname or alias.name
                if bound == "*":
                    # `from .defaults import *`: any name may still be provided from there
                    self.side.lazy = True
                self.side.imports[bound] = module
                if alias.asname and alias.asname != alias.name:
                    self.side.aliases[bound] = alias.name
                if (
                    self.package is not None
                    and not bound.startswith("_")
                    and bound != "*"
                    and _within(module, self.package)
                ):
                    self.side.imported_exports.add(bound)
        elif type(node).__name__ == "TypeAlias":  # `type X = Literal[...]` (Python 3.12)
            bind(node, "", self.side.tables)
        elif isinstance(node, ast.Expr):
            mutate(node, "", self.side.tables)
        elif isinstance(node, ast.Assign | ast.AugAssign | ast.AnnAssign):
            for target in _targets(node):
                # `InvalidHash = InvalidHashError`: one class under two names
                alias_of = (
                    dotted(node.value)
                    if isinstance(node, ast.Assign)
                    and isinstance(node.value, ast.Name | ast.Attribute)
                    else ""
                )
                if target in self.side.assigned and self.side.bound.get(target) != alias_of:
                    alias_of = ""
                self.side.bound[target] = alias_of
            self.side.assigned.update(_targets(node))
            if (
                isinstance(node, ast.Assign)
                and isinstance(node.value, ast.Call)
                and dotted(node.value.func).rsplit(".", 1)[-1] in _TYPE_VARIABLES
            ):
                self.side.typevars.update(_targets(node))
                if any(
                    k.arg == "covariant"
                    and isinstance(k.value, ast.Constant)
                    and k.value.value is True
                    for k in node.value.keywords
                ):
                    self.side.covariant.update(_targets(node))
            for target in _targets(node):
                literal = isinstance(node, ast.Assign) and isinstance(
                    node.value, ast.List | ast.Tuple | ast.Constant
                )
                again = target in self.side.literals
                self.side.literals[target] = node.value if literal and not again else None
            self._constant(node, "")
            bind(node, "", self.side.tables)
            if isinstance(node.value, ast.Dict) and node.value.keys:
                keys = [k.value if isinstance(k, ast.Constant) else None for k in node.value.keys]
                if all(isinstance(k, str) and k.isidentifier() for k in keys):
                    for target in _targets(node):
                        self.side.mappings[target] = frozenset(str(k) for k in keys)
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            # `__getattr__ = _import_facade`: the module hands names out lazily (propcache
            # d85d326 emptied `__all__` while its facade still served both names)
            if any(isinstance(t, ast.Name) and t.id == "__getattr__" for t in targets):
                self.side.lazy = True
            if binds_all(node) and (strings := listed_strings(node.value)) is not None:
                self.side.listed = self.side.listed or not isinstance(node, ast.AugAssign)
                self.side.exports.update(strings)

    def _constant(self, node: ast.stmt, prefix: str, *, member: bool = False) -> None:
        """A public name the statement assigns a constant (`X = 1`, `X: int = 1`), with its
        value as written; an alias (`X = Y`), a type alias, a call's result (a logger, a
        `TypeVar`, a compiled pattern) or an augmented assignment is no constant. `member`:
        the statement is an enum's, whose `x = auto()` is a member with a value too."""
        if isinstance(node, ast.Assign):
            targets = node.targets
        elif isinstance(node, ast.AnnAssign) and node.value is not None:
            targets = [node.target]
        else:
            return
        names = [t.id for t in targets if isinstance(t, ast.Name) and not t.id.startswith("_")]
        value = node.value
        if not names or value is None:
            return
        if isinstance(node, ast.AnnAssign) and "TypeAlias" in _source(node.annotation):
            return
        if not prefix and isinstance(value, ast.Constant) and value.value is None:
            # a module's `x = None` is a placeholder (a fallback import, a cache), no setting
            return
        if not _is_constant(value, top=True) and not (member and _auto(value)):
            return
        if value.end_lineno == value.lineno and (value.end_col_offset or 0) - value.col_offset <= (
            _MAX_VALUE
        ):
            text = _source(value)
        else:
            # compared, never shown: a long value (a table) stands as a digest of its lines
            start, end = value.lineno, value.end_lineno or value.lineno
            text = "#" + _digest(self.lines[start - 1 : end])
        for name in names:
            self.side.constants[prefix + name] = text

    def _served(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        """The names a module `__getattr__(name)` hands out by name: the strings it compares
        `name` with (`name == "X"`, `name in ("X", "Y")`), and the module names it reads (a
        dict of names, `table` adds its keys)."""
        params = [*node.args.posonlyargs, *node.args.args]
        argument = params[0].arg if params else None
        # `if name == "OldRunner": raise AttributeError("… was removed")` refuses the name
        refusing = {
            id(inner.test)
            for inner in ast.walk(node)
            if isinstance(inner, ast.If) and inner.body and isinstance(inner.body[-1], ast.Raise)
        }
        for inner in ast.walk(node):
            if isinstance(inner, ast.Name) and isinstance(inner.ctx, ast.Load):
                self.side.lazy_reads.add(inner.id)
            if not (
                isinstance(inner, ast.Compare)
                and isinstance(inner.left, ast.Name)
                and inner.left.id == argument
            ):
                continue
            if id(inner) in refusing:
                self.side.refused.update(_compared(inner))
                continue
            for op, right in zip(inner.ops, inner.comparators, strict=True):
                options = (
                    right.elts
                    if isinstance(op, ast.In) and isinstance(right, ast.Tuple | ast.List | ast.Set)
                    else [right]
                    if isinstance(op, ast.Eq)
                    else []
                )
                self.side.served.update(
                    o.value
                    for o in options
                    if isinstance(o, ast.Constant)
                    and isinstance(o.value, str)
                    and o.value.isidentifier()
                )

    def _call(self, node: ast.Call) -> None:
        callee = dotted(node.func)
        last = callee.rsplit(".", 1)[-1]
        first = node.args[0] if node.args else None
        literal = first.value if isinstance(first, ast.Constant) else None
        default = node.args[1] if len(node.args) > 1 else None
        fallback = self.or_else.get(id(node))
        if (default is None or _none(default)) and isinstance(fallback, ast.Constant):
            # `get("PAGER", None) or ""` reads as `get("PAGER", "")`: the same default
            default = fallback
        if (
            isinstance(literal, str)
            and _ENV_NAME.fullmatch(literal)
            and (callee.endswith(("getenv", "environ.get")) or _ENV_WRAPPER.search(last))
        ):
            self.side.env[literal] = _literal(default)
            self.env_read.add(literal)
        elif last in _FLAG_CALLS or (last in _FACE_CALLS and self._face()):
            self._flag(node)
        elif (
            (last.startswith("register") or last == "custom_op")
            and isinstance(literal, str)
            and not _NOT_A_REGISTRY.search(callee)
        ):
            self.side.registrations[literal] = (registry_of(callee), callee)
        if last in ("warn", "warning", "warning_once", "deprecated", "warn_deprecated"):
            self._warning(node, last)

    def _face(self) -> bool:
        """Whether the module imports `face` (its `add` and `Flag` calls declare options)."""
        if self.imports_face is None:
            self.imports_face = any(_FACE_IMPORT.match(line) for line in self.lines)
        return self.imports_face

    def _flag(self, node: ast.Call) -> None:
        names = [
            a.value
            for a in node.args
            if isinstance(a, ast.Constant) and isinstance(a.value, str) and a.value.startswith("--")
        ]
        if not names:
            return
        keywords = {k.arg: k.value for k in node.keywords if k.arg}
        default = keywords.get("default")
        # `typer.Option(default, "--flag")`: the default comes first, unnamed
        if default is None and node.args and not _is_flag(node.args[0]):
            default = node.args[0]
        self.side.flags[names[0]] = _literal(default)
        # `help="…"` (argparse, click, typer): the option's own words, a literal only (an
        # f-string's placeholders or a `%(default)s` template's rendering are not written
        # here: an f-string without placeholders is a literal)
        words = keywords.get("help", keywords.get("doc"))  # (`doc=`: face's)
        if (
            isinstance(words, ast.Constant | ast.BinOp | ast.JoinedStr)
            and not any(isinstance(n, ast.FormattedValue) for n in ast.walk(words))
            and (text := _text(words)) is not None
            and "%(" not in text
        ):
            self.side.flag_help[names[0]] = " ".join(text.split())

    def _warning(self, node: ast.Call, last: str) -> None:
        messages = [t for a in node.args if (t := _text(a)) is not None]
        message = " ".join(messages).strip()
        categories = {dotted(a) for a in [*node.args, *(k.value for k in node.keywords)]}
        explicit = last in ("deprecated", "warn_deprecated") or bool(
            {c.rsplit(".", 1)[-1] for c in categories} & _DEPRECATION_CATEGORIES
        )
        if message and (explicit or _SAYS_DEPRECATED.search(message)):
            # where it warns: the definition the call is in, and the call and category
            kind = ",".join(sorted(c for c in categories if c.endswith(("Warning", "Error"))))
            where = f"{'.'.join(self.scope)}:{last}:{kind}"
            self.deprecations.append(Warned(message, where))


def _auto(node: ast.expr) -> bool:
    """`auto()` (`enum.auto()`): the value an enum gives its member itself."""
    return (
        isinstance(node, ast.Call)
        and dotted(node.func) in ("auto", "enum.auto")
        and not node.args
        and not node.keywords
    )


def _is_constant(node: ast.expr, *, top: bool = False) -> bool:
    """A value made of literals: numbers, strings, containers of them, arithmetic on them,
    upper-case names of other constants (`2 * KB`, `logging.INFO`), and builtin containers
    of them (`frozenset({…})`); a lone name is one only inside a value (`X = Y` is an alias)."""
    if isinstance(node, ast.Constant):
        return True
    if isinstance(node, ast.Tuple | ast.List | ast.Set):
        return all(_is_constant(e) for e in node.elts)
    if isinstance(node, ast.Dict):
        return all(k is None or _is_constant(k) for k in node.keys) and all(
            _is_constant(v) for v in node.values
        )
    if isinstance(node, ast.UnaryOp):
        return _is_constant(node.operand)
    if isinstance(node, ast.BinOp):
        return _is_constant(node.left) and _is_constant(node.right)
    if isinstance(node, ast.Name | ast.Attribute):
        return not top and bool(_UPPER.fullmatch(dotted(node).rsplit(".", 1)[-1]))
    if isinstance(node, ast.Call):
        return (
            isinstance(node.func, ast.Name)
            and node.func.id in _BUILTIN_CONTAINERS
            and all(_is_constant(a) for a in node.args)
            and not node.keywords
        )
    if isinstance(node, ast.JoinedStr):
        return all(
            isinstance(v, ast.Constant)
            or (isinstance(v, ast.FormattedValue) and _is_constant(v.value))
            for v in node.values
        )
    return False


def overloaded(before: tuple[str, ...], now: tuple[str, ...]) -> tuple[str, ...]:
    """The parameters of a function's `@overload` signatures so far (`before`) and of its next
    one, where no implementation follows them (a `.pyi` stub): a caller may pass each that
    one of them takes (more-itertools 9c743ea: `difference`'s overloads without `func`
    beside those that take it), and may leave out one that one of them gives a default or
    does not take (`p=...`, a stub's "has a default"), else it is required."""

    def name(p: str) -> str:
        return p.split("=", 1)[0]

    def optional(p: str) -> str:
        return p if "=" in p or p.startswith("*") else f"{p}=..."

    was, then = {name(p): p for p in before}, {name(p): p for p in now}
    out = []
    for key, p in was.items():
        other = then.get(key)
        out.append(optional(p) if other is None else p if "=" in p or "=" not in other else other)
    out += [optional(p) for key, p in then.items() if key not in was]
    return tuple(out)


def _parameters(args: ast.arguments, defaults: dict[str, ast.expr]) -> tuple[str, ...]:
    """A function's parameters as a caller meets them: `x`, `y=1`, `*args`, `**kw`."""

    def shown(arg: ast.arg) -> str:
        default = defaults.get(arg.arg)
        return arg.arg if default is None else f"{arg.arg}={_source(default)}"

    out = [shown(a) for a in (*args.posonlyargs, *args.args)]
    if args.vararg is not None:
        out.append(f"*{args.vararg.arg}")
    out += [shown(a) for a in args.kwonlyargs]
    if args.kwarg is not None:
        out.append(f"**{args.kwarg.arg}")
    # a method's `self` is never passed by a caller, whatever default a stub gives it
    return tuple(p for p in out if p.split("=", 1)[0] not in ("self", "cls"))


def detail(side: Side, names: list[str]) -> None:
    """Fill `calls`, `raises` and `catches` of the functions `names` of a side read whole."""
    for name in names:
        node = side.functions.get(name)
        if node is not None:
            walked = _walk(node)
            side.calls[name], side.raises[name] = walked.calls, walked.raised
            side.catches[name], side.returns[name] = walked.caught, walked.returned
            side.compared[name], side.messages[name] = walked.compared, walked.messages
            side.strings[name] = walked.strings
            side.conditions[name], side.guards[name] = walked.conditions, walked.guards
            side.raising[name] = walked.raising
            side.narrowed[name] = walked.narrowed
            side.passes[name] = walked.passes
            side.closure_passes[name] = walked.closure_passes
            side.handed[name] = walked.handed


def raised_through(side: Side, name: str) -> frozenset[str]:
    """What the functions of the file that `name` calls (`f()`, `self.f()` of its class)
    raise in their own code: exceptions a caller of `name` meets through them (one level)."""
    return _through(side, name, caught=False)


def caught_through(side: Side, name: str) -> frozenset[str]:
    """What the functions of the file that `name` calls catch in their own code: a `try`
    moved into a helper still catches for `name` (one level)."""
    return _through(side, name, caught=True)


def _through(side: Side, name: str, *, caught: bool) -> frozenset[str]:
    owner = name.rpartition(".")[0]
    out: set[str] = set()
    for call in side.calls.get(name, ()):
        callee = f"{owner}.{call}" if owner and f"{owner}.{call}" in side.functions else call
        node = side.functions.get(callee)
        if node is None or callee == name:
            continue
        known = (side.catches if caught else side.raises).get(callee)
        if known is None:
            walked = _walk(node)
            known = walked.caught if caught else walked.raised
        out |= known
    return frozenset(out)


_NESTED = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)
# Nodes that hold nothing and that no reading of a function's walk asks of (`ast.Load`, `+`,
# `and`, `==`, `not`): left unqueued (every name has its `Load` or `Store`)
_LEAVES = (ast.expr_context, ast.operator, ast.boolop, ast.cmpop, ast.unaryop)
# The nodes a function's walk reads more of than what they bind (`_bind`) and hold
_READ = (
    ast.Constant,
    ast.Call,
    ast.If,
    ast.Compare,
    ast.Raise,
    ast.ExceptHandler,
    ast.Return,
    ast.While,
    ast.IfExp,
)
_DEFS = (ast.FunctionDef, ast.AsyncFunctionDef)


def _with_literals(call: ast.Call, literals: dict[str, ast.expr | None]) -> ast.Call:
    """The `setup(…)` call with each keyword that names a literal bound once above it
    (`install_requires=requirements`) given that literal: what the call passes."""
    keywords = [
        ast.keyword(arg=k.arg, value=literals.get(k.value.id) or k.value)
        if isinstance(k.value, ast.Name)
        else k
        for k in call.keywords
    ]
    return ast.Call(func=call.func, args=call.args, keywords=keywords)


class _Walked(NamedTuple):
    calls: frozenset[str]
    raised: frozenset[str]
    caught: frozenset[str]
    returned: frozenset[str]
    compared: dict[str, frozenset[str]]
    messages: frozenset[tuple[str, str]]
    strings: frozenset[str]
    conditions: dict[str, int]
    guards: dict[str, tuple[str, ast.stmt]]
    raising: tuple[ast.Raise, ...]
    passes: dict[str, list[CallShape]]
    handed: frozenset[str]
    # what `raise v` under `if isinstance(v, C):` raises: raised, never newly (a bare `raise`
    # in an `except C:` is not read, so a rewrite into the narrowing raises nothing new)
    narrowed: frozenset[str] = frozenset()
    # the calls the functions nested in it make (a decorator's wrapper: what a call of the
    # function it returns passes), by callee as written
    closure_passes: dict[str, list[CallShape]] = dataclasses.field(default_factory=dict)


# What `_walk` found in a function's tree, kept while the tree lives: a text's units serve the
# next commit (its parent's side), and `detail`, `_through` and `logged_by` ask again.
# The trees are read only (a block that renames or reorders in place puts them back, and
# walks nothing meanwhile); so are the tables a walk gives.
_WALKED: weakref.WeakKeyDictionary[ast.AST, _Walked] = weakref.WeakKeyDictionary()


def _walk(node: ast.FunctionDef | ast.AsyncFunctionDef) -> _Walked:
    """`_walked` of the function, once a tree."""
    found = _WALKED.get(node)
    if found is None:
        found = _WALKED[node] = _walked(node)
    return found


def _walked(node: ast.FunctionDef | ast.AsyncFunctionDef) -> _Walked:
    """The names a function calls anywhere in it (`helper`, `self.run` as `run`), and the
    exceptions its own body raises by name (`raise ValueError(…)`) and catches by name
    (`except (OSError, KeyError):`), and the literals its own `return`s give (`130`,
    `'failed'`), the strings its own conditions compare with and the messages its own raises
    give, the tests of its own `if`, `elif`, `while` and conditional expressions (as
    `ast.unparse` writes them) and of those `if`s whose body ends in a jump, its nested
    functions and classes aside; and every string in it, theirs included: one walk of its
    nodes (the edited functions of a day's files are many)."""
    calls: set[str] = set()
    raised: set[str] = set()
    narrowed: set[str] = set()
    caught: set[str] = set()
    returned: set[str] = set()
    compared: dict[str, set[str]] = {}
    messages: set[tuple[str, str]] = set()
    strings: set[str] = set()
    conditions: dict[str, int] = {}  # test -> the first line it is on
    guards: dict[str, tuple[str, ast.stmt]] = {}  # test -> (jump, the statement that jumps)
    raising: list[ast.Raise] = []
    passes: dict[str, list[CallShape]] = {}
    closure_passes: dict[str, list[CallShape]] = {}
    handed: set[str] = set()
    # `msg = "…"` then `raise E(msg)`: each local name's bindings, a string's text or None
    # for any other (a parameter, `+=`, a loop, `except … as`), and the raises that pass one
    arguments = node.args
    bound: dict[str, list[str | None]] = {
        a.arg: [None] for a in (*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs)
    }
    bound.update({a.arg: [None] for a in (arguments.vararg, arguments.kwarg) if a is not None})
    plain: set[int] = set()
    passed_name: list[tuple[str, str]] = []  # (exception, the name its message is)
    # (node, whether it is the function's own code, not a nested definition's, and whether
    # it is the code of a function nested in it: a closure's tests are tested when it runs)
    stack: list[tuple[ast.AST, bool, bool]] = [(node, True, False)]
    while stack:
        current, own, closure = stack.pop()
        if own:
            _bind(current, bound, plain)
        if isinstance(current, _READ):  # (most nodes are none of these: a name, an attribute)
            if isinstance(current, ast.Constant) and isinstance(current.value, str):
                strings.add(current.value)
            elif isinstance(current, ast.Call):
                # a generic alias subscripted and called (`Future[WebSocketRequest]()`) calls
                # `Future` (trio-websocket 49b93c1's "no longer calls `Future`")
                func = current.func
                while isinstance(func, ast.Subscript):
                    func = func.value
                callee = dotted(func)
                calls.add(callee.rsplit(".", 1)[-1])
                # a callee said as written: a chain of names (`self._send`), never `a().b`
                if own and callee and _chain(func):
                    passes.setdefault(callee, []).append(_shape(current))
                elif closure and callee and _chain(func):
                    closure_passes.setdefault(callee, []).append(_shape(current))
                handed.update(
                    dotted(a).rsplit(".", 1)[-1]
                    for a in (*current.args, *(k.value for k in current.keywords))
                    if isinstance(a, ast.Name | ast.Attribute) and _chain(a)
                )
            elif own and isinstance(current, ast.If):
                # `raise exc` under `if isinstance(exc, KeyboardInterrupt):` raises that class
                # (trio-websocket b74d6bf's "may now raise `KeyboardInterrupt`", raised before)
                narrowed.update(_raised_as_narrowed(current))
            elif own and isinstance(current, ast.Compare):
                together = _compared(current)
                for string in together:
                    compared.setdefault(string, set()).update(together - {string})
            if own and isinstance(current, ast.Raise):
                raising.append(current)
            if own and isinstance(current, ast.Raise) and current.exc is not None:
                name = dotted(current.exc)
                if name and name[:1].isupper():
                    raised.add(name)
                    message = _message(current.exc)
                    if message is not None:
                        messages.add((name, message))
                    elif isinstance(current.exc, ast.Call) and current.exc.args:
                        first = current.exc.args[0]
                        if isinstance(first, ast.Name):
                            passed_name.append((name, first.id))
            elif own and isinstance(current, ast.ExceptHandler) and current.type is not None:
                kinds = current.type.elts if isinstance(current.type, ast.Tuple) else [current.type]
                # a name as written (`OSError`, `asyncio.TimeoutError`); a variable holding a
                # tuple of classes says nothing of which
                caught.update(
                    n
                    for k in kinds
                    if (n := dotted(k))
                    and (n.rsplit(".", 1)[-1][:1].isupper() or n in OS_ERROR_NAMES)
                )
            elif own and isinstance(current, ast.Return) and _literal_value(current.value):
                literal = _source(current.value)  # type: ignore[arg-type]
                if literal != UNPRINTABLE:
                    returned.add(literal)
            elif (
                own
                and isinstance(current, ast.Return)
                and current.value is not None
                and not isinstance(current.value, ast.Constant)
            ):
                # `return INTERRUPTED`: some value not written here, so no literal is proven new
                returned.add(UNPRINTABLE)
            elif (own or closure) and isinstance(current, ast.If | ast.While | ast.IfExp):
                test = ast.unparse(current.test)
                conditions[test] = min(conditions.get(test, current.lineno), current.lineno)
                # a closure's `return` leaves the closure, not the function: no guard of it
                if (
                    own
                    and isinstance(current, ast.If)
                    and (jump := _jump(current.body[-1])) is not None
                    # a `return` is early only where, its test false, more of the function
                    # still runs: not at its end (pytest-timeout cc3f27a: `if timeout_header:
                    # return timeout_header` last), nor one of two branches that both leave
                    # (distro c2798a3: a last `return` become `if …: return a` / `else:
                    # return b`, a choice)
                    and not (jump == "return" and _no_early(current, node))
                ):
                    guards[test] = (jump, current.body[-1])
                elif own and isinstance(current, ast.If) and (rebinds := _rebinds(current, node)):
                    # `if isinstance(collection, dict): collection = collection.values()`
                    guards[test] = (rebinds, current.body[0])
        inner = own and (current is node or not isinstance(current, _NESTED))
        nested = own and current is not node and isinstance(current, _DEFS)
        closure = (closure or nested) and not isinstance(current, ast.ClassDef | ast.Lambda)
        # The function's own decorators and defaults run where it is defined, not when it
        # is called: a call there is not one it makes (uvicorn's `@click.option(...)`).
        fields = ("body",) if current is node else current._fields
        for field in fields:
            value = getattr(current, field, None)
            if isinstance(value, list):
                stack.extend(
                    (item, inner, closure)
                    for item in value
                    if isinstance(item, ast.AST) and not isinstance(item, _LEAVES)
                )
            elif isinstance(value, ast.AST) and not isinstance(value, _LEAVES):
                stack.append((value, inner, closure))
    calls.discard("")
    for exception, local in passed_name:
        said, *more = bound.get(local, [None])
        if said is not None and not more:
            messages.add((exception, said))
    return _Walked(
        frozenset(calls),
        frozenset(raised),
        frozenset(caught),
        frozenset(returned),
        {value: frozenset(others) for value, others in compared.items()},
        frozenset(messages),
        frozenset(strings),
        conditions,
        guards,
        tuple(raising),
        {callee: shapes[::-1] for callee, shapes in passes.items()},
        frozenset(handed) - {""},
        frozenset(narrowed),
        {callee: shapes[::-1] for callee, shapes in closure_passes.items()},
    )


def _bind(node: ast.AST, bound: dict[str, list[str | None]], plain: set[int]) -> None:
    """Record what one node of a function's own code binds a local name to: a plain
    `name = "…"` its string (its target then set aside), any other binding None."""
    if isinstance(node, ast.Assign) and len(node.targets) == 1:
        target = node.targets[0]
        if isinstance(target, ast.Name):
            bound.setdefault(target.id, []).append(_text(node.value))
            plain.add(id(target))
    elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store) and id(node) not in plain:
        bound.setdefault(node.id, []).append(None)
    elif isinstance(node, ast.ExceptHandler) and node.name:
        bound.setdefault(node.name, []).append(None)


def _chain(node: ast.expr) -> bool:
    """A name or a chain of attributes of one (`self._send`), nothing called in it."""
    while isinstance(node, ast.Attribute):
        node = node.value
    return isinstance(node, ast.Name)


def _shape(call: ast.Call) -> CallShape:
    """A call's keyword arguments, literal or not, and its positional ones counted."""
    literal: dict[str, str] = {}
    other: set[str] = set()
    for keyword in call.keywords:
        if keyword.arg is None:
            continue
        if _is_literal(keyword.value):
            literal[keyword.arg] = _source(keyword.value)
        else:
            other.add(keyword.arg)
    unpacks = any(k.arg is None for k in call.keywords) or any(
        isinstance(a, ast.Starred) for a in call.args
    )
    return CallShape(literal, frozenset(other), len(call.args), unpacks, call)


def _is_literal(node: ast.expr) -> bool:
    """A value written as a literal: a constant (`True`, `None`, `5`, `"x"`, `-1`) or a
    constant's name (`DEFAULT_TIMEOUT`, `ssl.CERT_NONE`: upper case)."""
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub | ast.UAdd):
        node = node.operand
        return isinstance(node, ast.Constant) and isinstance(node.value, int | float)
    if isinstance(node, ast.Constant):
        return not isinstance(node.value, bytes) or len(node.value) < 40
    if isinstance(node, ast.Name | ast.Attribute):
        last = dotted(node).rsplit(".", 1)[-1]
        if (
            isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name)
            and _CLASS_NAME.fullmatch(node.value.id)
            and not node.attr.startswith("_")
        ):
            # a class's member (`JobOutcome.cancelled`, apscheduler 8452b47): an enum's value
            # as its callers name it
            return True
        return bool(last) and bool(_UPPER.fullmatch(last)) and len(last) > 1
    return False


def _no_early(guard: ast.If, node: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """Whether nothing of the function runs after the `if` when its test is false: the `if`
    ends the function (`_ending`), or its `else` leaves too."""
    return bool(guard.orelse and _jump(guard.orelse[-1]) is not None) or guard in _ending(node.body)


def _ending(body: list[ast.stmt]) -> list[ast.stmt]:
    """The statements after which nothing of a function's body runs: its last, and the last
    of each block that one ends with (the branches of an `if`, a `with`'s body, a `try`'s
    body or its `else`, its handlers, a `match`'s cases); a loop's body runs again."""
    out: list[ast.stmt] = []
    blocks = [body]
    while blocks:
        block = blocks.pop()
        if not block:
            continue
        last = block[-1]
        out.append(last)
        if isinstance(last, ast.If):
            blocks += [last.body, last.orelse]
        elif isinstance(last, ast.With | ast.AsyncWith):
            blocks.append(last.body)
        elif isinstance(last, ast.Try | ast.TryStar):
            blocks += [last.orelse or last.body, *(h.body for h in last.handlers)]
        elif isinstance(last, ast.Match):
            blocks += [case.body for case in last.cases]
    return out


def _rebinds(branch: ast.If, function: ast.FunctionDef | ast.AsyncFunctionDef) -> str:
    """ "set p" where the `if`'s whole body binds the function's parameter `p` anew (no
    `else`): what the function takes for `p` in that case; "" otherwise."""
    if branch.orelse or len(branch.body) != 1:
        return ""
    statement = branch.body[0]
    if not (
        isinstance(statement, ast.Assign)
        and len(statement.targets) == 1
        and isinstance(statement.targets[0], ast.Name)
    ):
        return ""
    arguments = function.args
    params = {a.arg for a in (*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs)}
    target = statement.targets[0].id
    return f"set {target}" if target in params else ""


def _jump(last: ast.stmt) -> str | None:
    """How the last statement of an `if` body leaves: "return", "continue", "raise E" (E
    as written, "" for a bare or unnamed raise); None when it does not."""
    if isinstance(last, ast.Return):
        return "return"
    if isinstance(last, ast.Continue):
        return "continue"
    if isinstance(last, ast.Raise):
        name = dotted(last.exc) if last.exc is not None else ""
        return "raise " + (name if name.rsplit(".", 1)[-1][:1].isupper() else "")
    return None


def _compared(node: ast.Compare) -> set[str]:
    """The strings one comparison tests equality or membership with: `x == "a"`, `"a" != x`,
    `x in ("a", "b")` (a tuple, list or set written out); never `x < "a"` or `"a" in x`, a
    substring test."""
    found: set[str] = set()
    operands = [node.left, *node.comparators]
    for i, op in enumerate(node.ops):
        left, right = operands[i], operands[i + 1]
        if isinstance(op, ast.Eq | ast.NotEq):
            found.update(
                o.value
                for o in (left, right)
                if isinstance(o, ast.Constant) and isinstance(o.value, str)
            )
        elif isinstance(op, ast.In | ast.NotIn) and isinstance(
            right, ast.Tuple | ast.List | ast.Set
        ):
            found.update(
                e.value
                for e in right.elts
                if isinstance(e, ast.Constant) and isinstance(e.value, str)
            )
    return found


# A logger's methods whose message a user meets in the log (`info` and `debug` say how it
# goes, not that something went wrong), by the level they log at.
_LOG_LEVELS = {
    "warning": "warning",
    "warn": "warning",
    "error": "error",
    "exception": "error",
    "critical": "critical",
}
# A receiver that is a logger by its name: `logger`, `_LOGGER`, `log`, `self._log`, `logging`.
_LOGGER_NAME = re.compile(r"(?:\w*_)?log(?:ger)?|logging", re.IGNORECASE)


def logged(calls: dict[str, list[CallShape]]) -> frozenset[tuple[str, str]]:
    """(level, message) of each call of a logger's `warning`, `error`, `exception` or
    `critical` among a function's own calls (`passes`), its first argument a string written
    there (its literal parts, `{…}` where values go; spaces folded)."""
    out: set[tuple[str, str]] = set()
    for level, shape in _logger_calls(calls):
        first = shape.node.args[0] if shape.node.args else None
        text = _text(first) if first is not None else None
        if text is not None and re.search(r"[A-Za-z]{3}", text):
            out.add((level, " ".join(text.split())))
    return frozenset(out)


def _logger_calls(calls: dict[str, list[CallShape]]) -> Iterator[tuple[str, CallShape]]:
    """(level, call) of each call of a logger's `warning`, `error`, `exception` or `critical`
    among a function's own calls."""
    for callee, shapes in calls.items():
        receiver, _, method = callee.rpartition(".")
        level = _LOG_LEVELS.get(method)
        if level is not None and _LOGGER_NAME.fullmatch(receiver.rsplit(".", 1)[-1]):
            for shape in shapes:
                yield level, shape


# A placeholder of a logged message, however written: `%s`, `%(name)r`, `{}`, `{name}`,
# an f-string's value (`_text`'s `{…}`)
_PLACEHOLDER = re.compile(r"%(?:\([^)]*\))?[-#0 +]*\d*(?:\.\d+)?[sdrifgxXeEco]|\{[^{}]*\}")


def logged_loosely(calls: dict[str, list[CallShape]]) -> frozenset[tuple[str, str]]:
    """`logged`'s messages, each with its placeholders read alike (`loose_message`), and
    those written `"…" % args` or `"…".format(…)` too: the same message put another way
    (ruff's G002, G004 rewrite them) is none newly logged."""
    out: set[tuple[str, str]] = set()
    for level, shape in _logger_calls(calls):
        first = shape.node.args[0] if shape.node.args else None
        if isinstance(first, ast.BinOp) and isinstance(first.op, ast.Mod):
            first = first.left
        elif (
            isinstance(first, ast.Call)
            and isinstance(first.func, ast.Attribute)
            and first.func.attr == "format"
        ):
            first = first.func.value
        text = _text(first) if first is not None else None
        if text is not None:
            out.add((level, loose_message(text)))
    return frozenset(out)


def loose_message(text: str) -> str:
    """A logged message with each placeholder read as `{…}` and its spaces folded."""
    return " ".join(_PLACEHOLDER.sub("{…}", text).split())


def logged_by(node: ast.FunctionDef | ast.AsyncFunctionDef) -> frozenset[tuple[str, str]]:
    """What `logged` reads of a function not walked in detail (one the change adds)."""
    return logged(_walk(node).passes)


def _message(exc: ast.expr) -> str | None:
    """The message of `raise T("…")`: its first argument's literal parts, `{…}` where values
    go, however formatted (`%`, `.format`: a message rewritten as an f-string is the same);
    None when it is no string written there (`T(msg)`)."""
    if not isinstance(exc, ast.Call) or not exc.args:
        return None
    first = exc.args[0]
    return _text(first) if (said := formatted(first, _text)) is None else said


def _literal_value(node: ast.expr | None) -> bool:
    """A number or string as written (`-1` too); `None`, a bool (a predicate's answer, not
    a value of its own) and a bare `return` aside."""
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        node = node.operand
    return (
        isinstance(node, ast.Constant)
        and isinstance(node.value, int | float | str | bytes)
        and not isinstance(node.value, bool)
    )


def _targets(node: ast.stmt) -> list[str]:
    """The plain names an assignment statement binds (`a = b = 1`, `a: int = 1`)."""
    if isinstance(node, ast.Assign):
        return [t.id for t in node.targets if isinstance(t, ast.Name)]
    if isinstance(node, ast.AnnAssign | ast.AugAssign) and isinstance(node.target, ast.Name):
        return [node.target.id]
    return []


def _is_flag(node: ast.expr) -> bool:
    return isinstance(node, ast.Constant) and str(node.value).startswith("-")


def _blocks(node: ast.If | ast.Try) -> list[list[ast.stmt]]:
    if isinstance(node, ast.If):
        return [node.body, node.orelse]
    return [node.body, *(h.body for h in node.handlers), node.orelse, node.finalbody]
