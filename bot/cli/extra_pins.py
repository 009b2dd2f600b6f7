"""An extra's requirements at two revisions by the packaging formats' own rules, for the
claims checker: PEP 621's `[project.optional-dependencies]`, setuptools' `extras_require`
(`[options.extras_require]` in setup.cfg, a `setup(…)` call's literal in setup.py)."""

from __future__ import annotations

import ast
import re
from collections.abc import Mapping

from bot.cli.package_meta import declared, normal_extra, squeezed

# setuptools reads setup.cfg, then setup.py's keywords over it; PEP 621's table is the last
# word (the lowest precedence first)
_PRECEDENCE = ("setup.cfg", "setup.py", "pyproject.toml")
# PEP 508: a requirement's leading name
_NAME = re.compile(r"[A-Za-z0-9](?:[\w.-]*[A-Za-z0-9])?")


def project_extras(texts: Mapping[str, str]) -> dict[str, list[str]] | None:
    """The extras (PEP 685's names → requirements, spaces removed) a project folder's files
    declare (`texts`: file name → text); None where one does not parse or leaves them to
    what is not read (`dynamic`, a `setup.py` computing them)."""
    out: dict[str, list[str]] = {}
    for name in _PRECEDENCE:
        text = texts.get(name)
        if text is None:
            continue
        if name == "setup.py":
            extras = setup_py_extras(text)
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


def setup_py_extras(text: str) -> dict[str, list[str]] | None:
    """The `extras_require` of a `setup.py`'s one `setup(…)` call (`setuptools.setup` too),
    where every key and requirement is a literal (a list or tuple of strings, or a string of
    one a line); {} where it passes none; None where not known without running it."""
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
        items: list[object]
        if isinstance(listed, ast.Constant) and isinstance(listed.value, str):
            items = list(listed.value.splitlines())
        elif isinstance(listed, ast.List | ast.Tuple):
            items = [e.value if isinstance(e, ast.Constant) else None for e in listed.elts]
        else:
            return None
        if not all(isinstance(i, str) for i in items):
            return None
        out[normal_extra(key.value)] = [squeezed(str(i)) for i in items if str(i).strip()]
    return out


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
