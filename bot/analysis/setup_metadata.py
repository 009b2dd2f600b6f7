"""A `setup.py` whose two revisions differ only in what the package index shows about it."""

from __future__ import annotations

import ast

from bot.analysis.facts.pyfile import PARSE_ERRORS

# `setup(…)` keywords that only describe the project on the index (its links, its authors,
# its blurb): no install, build or import reads them. (Classifiers and the Python floor say
# what is supported: not among them.)
_DESCRIPTIVE = frozenset(
    {
        "author",
        "author_email",
        "maintainer",
        "maintainer_email",
        "url",
        "download_url",
        "project_urls",
        "description",
        "keywords",
        "platforms",
    }
)


def _setup_call(node: ast.stmt) -> ast.Call | None:
    """The module-level `setup(…)` (`setuptools.setup(…)`) a statement makes, or None."""
    if not isinstance(node, ast.Expr) or not isinstance(node.value, ast.Call):
        return None
    func = node.value.func
    named = func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)
    return node.value if named == "setup" else None


def _text(node: ast.expr) -> bool:
    """A string literal, or strings joined with `+`."""
    if isinstance(node, ast.Constant):
        return isinstance(node.value, str)
    return (
        isinstance(node, ast.BinOp)
        and isinstance(node.op, ast.Add)
        and (_text(node.left) and _text(node.right))
    )


def _reading(text: str) -> tuple[list[str], list[str]] | None:
    """The module's statements but the `setup(…)` call and the strings only its descriptive
    keywords read, and that call's other arguments; None where it does not parse
    or holds no single module-level `setup(…)`."""
    try:
        tree = ast.parse(text)
    except PARSE_ERRORS:
        return None
    calls = [call for node in tree.body if (call := _setup_call(node)) is not None]
    if len(calls) != 1:
        return None
    call = calls[0]
    described = {
        n.id
        for k in call.keywords
        if k.arg in _DESCRIPTIVE
        for n in ast.walk(k.value)
        if isinstance(n, ast.Name)
    }
    elsewhere = {
        n.id
        for node in tree.body
        if _setup_call(node) is None
        for n in ast.walk(node)
        if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)
    } | {
        n.id
        for k in call.keywords
        if k.arg not in _DESCRIPTIVE
        for n in ast.walk(k.value)
        if isinstance(n, ast.Name)
    }
    for a in call.args:
        elsewhere |= {n.id for n in ast.walk(a) if isinstance(n, ast.Name)}
    kept: list[str] = []
    for node in tree.body:
        if _setup_call(node) is not None:
            continue
        if (
            isinstance(node, ast.Assign)
            and len(node.targets) == 1
            and isinstance(node.targets[0], ast.Name)
            and node.targets[0].id in described - elsewhere
            and _text(node.value)
        ):
            # a link or a name only the index's page reads
            continue
        kept.append(ast.dump(node))
    arguments = [ast.dump(a) for a in call.args] + sorted(
        f"{k.arg}={ast.dump(k.value)}" for k in call.keywords if k.arg not in _DESCRIPTIVE
    )
    return kept, arguments


def descriptive_only(before: str, after: str) -> bool:
    """Whether a `setup.py`'s two texts are the same code but for the descriptive keywords
    of their one module-level `setup(…)` call (`_DESCRIPTIVE`: links, authors, the blurb) and
    the strings only those read (tinydb 900d281 re-quoted its `setup.py` and built its
    documentation links from a `docs_base_url`)."""
    old, new = _reading(before), _reading(after)
    return old is not None and old == new
