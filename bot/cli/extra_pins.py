"""An extra's requirements at two revisions by the packaging formats' own rules, for the
claims checker: PEP 621's `[project.optional-dependencies]`, setuptools' `extras_require`
(`[options.extras_require]` in setup.cfg, a `setup(…)` call's literal in setup.py, or a name
bound to a list or to a requirements file that setup.py reads)."""

from __future__ import annotations

import ast
import re
from collections.abc import Callable, Mapping

from bot.cli.package_meta import declared, normal_extra, squeezed

# setuptools reads setup.cfg, then setup.py's keywords over it; PEP 621's table is the last
# word (the lowest precedence first)
_PRECEDENCE = ("setup.cfg", "setup.py", "pyproject.toml")
# PEP 508: a requirement's leading name
_NAME = re.compile(r"[A-Za-z0-9](?:[\w.-]*[A-Za-z0-9])?")


# A file of the project folder by its path there; None where the revision has none.
Reader = Callable[[str], str | None]


def project_extras(
    texts: Mapping[str, str], read: Reader | None = None
) -> dict[str, list[str]] | None:
    """The extras (PEP 685's names → requirements, spaces removed) a project folder's files
    declare (`texts`: file name → text; `read`: the folder's other files, for a requirements
    file setup.py reads); None where one does not parse or leaves them to what is not read
    (`dynamic`, a `setup.py` computing them)."""
    out: dict[str, list[str]] = {}
    for name in _PRECEDENCE:
        text = texts.get(name)
        if text is None:
            continue
        if name == "setup.py":
            extras = setup_py_extras(text, read)
        else:
            meta = declared(name, text)
            if meta is None:
                return None
            if not meta.source:
                continue
            extras = meta.extras
        if extras is None:
            return None
        out.update(extras)
    return out


def setup_py_extras(text: str, read: Reader | None = None) -> dict[str, list[str]] | None:
    """The `extras_require` of a `setup.py`'s one `setup(…)` call (`setuptools.setup` too),
    where every key is a literal and every value a literal (a list or tuple of strings, or a
    string of one a line) or a name the module binds once, at its top, to one, or to a call
    of its own function that reads the file it is given (`get_reqs("requirements-cli.txt")`,
    read through `read`); {} where it passes none; None where not known without running it."""
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError):
        return None
    calls = [
        node
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and (
            (isinstance(node.func, ast.Name) and node.func.id == "setup")
            or (isinstance(node.func, ast.Attribute) and node.func.attr == "setup")
        )
    ]
    if len(calls) != 1 or any(k.arg is None for k in calls[0].keywords):
        return None
    value = next((k.value for k in calls[0].keywords if k.arg == "extras_require"), None)
    if value is None:
        return {}
    if not isinstance(value, ast.Dict):
        return None
    out: dict[str, list[str]] = {}
    for key, listed in zip(value.keys, value.values, strict=True):
        if not isinstance(key, ast.Constant) or not isinstance(key.value, str):
            return None
        items = _requirements(_bound(tree, listed), tree, read)
        if items is None:
            return None
        out[normal_extra(key.value)] = [squeezed(i) for i in items if i.strip()]
    return out


def setup_py_name(text: str) -> str | None:
    """The `name=` a `setup.py`'s one `setup(…)` call passes as a string literal; None
    where it passes none so."""
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError):
        return None
    calls = [n for n in ast.walk(tree) if isinstance(n, ast.Call) and _callee(n) == "setup"]
    if len(calls) != 1:
        return None
    value = next((k.value for k in calls[0].keywords if k.arg == "name"), None)
    value = _bound(tree, value) if value is not None else None
    if isinstance(value, ast.Constant) and isinstance(value.value, str):
        return value.value
    return None


def _bound(tree: ast.Module, value: ast.expr) -> ast.expr:
    """What a name stands for where the module's top binds it once by `name = value` (and
    nothing else binds it); the value itself otherwise."""
    if not isinstance(value, ast.Name):
        return value
    bindings = [
        node
        for node in ast.walk(tree)
        if isinstance(node, ast.Name)
        and node.id == value.id
        and isinstance(node.ctx, ast.Store | ast.Del)
    ]
    top = [
        s.value
        for s in tree.body
        if isinstance(s, ast.Assign)
        and len(s.targets) == 1
        and isinstance(s.targets[0], ast.Name)
        and s.targets[0].id == value.id
    ]
    return top[0] if len(bindings) == 1 and len(top) == 1 else value


def _requirements(value: ast.expr, tree: ast.Module, read: Reader | None) -> list[str] | None:
    """The requirements a value of `extras_require` gives: a list or tuple of strings, a
    string of one a line, or the lines of a file read by `_reads_file`; None: not known."""
    if isinstance(value, ast.Constant) and isinstance(value.value, str):
        return value.value.splitlines()
    if isinstance(value, ast.List | ast.Tuple):
        items = [e.value if isinstance(e, ast.Constant) else None for e in value.elts]
        return (
            [i for i in items if isinstance(i, str)]
            if all(isinstance(i, str) for i in items)
            else None
        )
    if (
        read is None
        or not isinstance(value, ast.Call)
        or not isinstance(value.func, ast.Name)
        or value.keywords
        or len(value.args) != 1
        or not isinstance(value.args[0], ast.Constant)
        or not isinstance(value.args[0].value, str)
        or not _reads_file(tree, value.func.id)
    ):
        return None
    text = read(value.args[0].value)
    return None if text is None else _file_lines(text)


def _reads_file(tree: ast.Module, name: str) -> bool:
    """Whether the module's own function `name` takes one parameter, opens it (`open(p…)`)
    and hands back each line (`….readlines()`, `….read().splitlines()`) or those stripped,
    with no other call, loop or condition that could change them."""
    functions = [s for s in tree.body if isinstance(s, ast.FunctionDef) and s.name == name]
    if len(functions) != 1:
        return False
    function = functions[0]
    args = function.args
    if len(args.args) != 1 or args.posonlyargs or args.kwonlyargs or args.vararg or args.kwarg:
        return False
    param = args.args[0].arg
    calls = [n for n in ast.walk(function) if isinstance(n, ast.Call)]
    allowed = {"open", "readlines", "read", "splitlines", "strip"}
    if any(_callee(c) not in allowed for c in calls):
        return False
    opens = [c for c in calls if _callee(c) == "open"]
    if len(opens) != 1 or not opens[0].args:
        return False
    first = opens[0].args[0]
    if not isinstance(first, ast.Name) or first.id != param:
        return False
    if any(isinstance(n, ast.If | ast.For | ast.While | ast.IfExp) for n in ast.walk(function)):
        return False
    return any(_callee(c) in ("readlines", "splitlines") for c in calls)


def _callee(call: ast.Call) -> str:
    func = call.func
    if isinstance(func, ast.Attribute):
        return func.attr
    return func.id if isinstance(func, ast.Name) else ""


def _file_lines(text: str) -> list[str] | None:
    """A requirements file's requirements as setuptools takes them from its lines: blank
    lines and `#` comments skipped; None where a line is an option (`-r other.txt`, `-e`),
    which setuptools cannot take."""
    found: list[str] = []
    for written in text.splitlines():
        line = re.sub(r"(^|\s)#.*$", "", written).strip()
        if not line:
            continue
        if line.startswith("-"):
            return None
        found.append(line)
    return found


def requirement_name(requirement: str) -> str:
    """PEP 503's form of a requirement's name: `Click>=8` is `click`."""
    found = _NAME.match(requirement.strip())
    return re.sub(r"[-_.]+", "-", found.group(0)).lower() if found else ""


def judged(
    how: str, extra: str, old: str | None, new: str | None, *, before: list[str], after: list[str]
) -> tuple[bool, str]:
    """(whether it holds; why not) of an extra's claim against its requirements at the parent
    (`before`) and at the commit (`after`): "pinned" `new` (was `old`), "added" `new` (no
    requirement of its package before), "removed" `old` (none of its package after)."""

    def holds(reqs: list[str], pin: str | None) -> bool:
        return pin is not None and squeezed(pin).lower() in {r.lower() for r in reqs}

    def names(reqs: list[str]) -> set[str]:
        return {requirement_name(r) for r in reqs}

    if how == "pinned":
        if not holds(after, new) or holds(before, new):
            return False, f"the extra `{extra}` does not newly require `{new}`"
        if not holds(before, old) or holds(after, old):
            return False, f"the extra `{extra}` did not require `{old}` until the commit"
        return True, ""
    if how == "added":
        if not holds(after, new) or requirement_name(new or "") in names(before):
            return False, f"the extra `{extra}` does not newly require `{new}`"
        return True, ""
    if not holds(before, old) or requirement_name(old or "") in names(after):
        return False, f"the extra `{extra}` still requires `{old}`'s package, or never did"
    return True, ""
