"""Which public-named modules of a package its users do not import: neither its package's
`__init__.py` nor the documents read hand them out, so what they lose is internal."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterable, Mapping

from bot.analysis.facts.importers import dotted
from bot.analysis.facts.modules import binds_all, listed_strings, module_tree
from bot.analysis.paths import module_paths, private_module

# Folders a package's import path does not include (`src/pkg.py` is a top-level module)
_SOURCE_ROOTS = frozenset({"src", "lib", "python"})
# Documents whose words say what a package offers its users (a changelog's name of a module
# is the maintainers' account of a change, not an interface)
_DOCUMENT = re.compile(r"\.(?:md|markdown|rst|txt)$")
_NAME = re.compile(r"[\w.:]+")
_CHANGELOG = re.compile(r"(?:^|/)(?:change(?:s|log)|news|history)[^/]*$", re.IGNORECASE)


def is_document(path: str) -> bool:
    """A documentation page (Markdown, reStructuredText, text), not a changelog."""
    return bool(_DOCUMENT.search(path)) and not _CHANGELOG.search(path)


def internal_modules(
    paths: Iterable[str], inits: Mapping[str, str], documents: Iterable[str]
) -> tuple[str, ...]:
    """Of `paths`, the Python modules public by their name (`soupsieve/css_parser.py`) that
    their package's `__init__.py`, read at the parent (`inits`: path to text), does not
    expose, and that no text of `documents` names by its dotted name (`soupsieve.css_parser`,
    as Sphinx's `autoclass::` or an example's import writes it). A module is exposed where
    the `__init__.py` imports from it, binds it under a name it exports (its `__all__`,
    where it has one, or a public one), or quotes its name (a lazy `__getattr__`'s table).
    Never a package's own `__init__.py`, a `__main__.py`, a top-level module (a package of one
    module), nor one whose package's `__init__.py` was not read or does not parse: unknown,
    it keeps what its name says."""
    texts = list(documents)
    out: list[str] = []
    for path in dict.fromkeys(paths):
        if not path.endswith((".py", ".pyi")) or private_module(path):
            continue
        folder, _, name = path.rpartition("/")
        if name.startswith("__") or not folder or folder in _SOURCE_ROOTS:
            continue
        init = inits.get(f"{folder}/__init__.py")
        if init is None or _exposed(path, f"{folder}/__init__.py", init) is not False:
            continue
        if _documented(dotted(path), texts):
            continue
        out.append(path)
    return tuple(out)


def _exposed(path: str, init_path: str, text: str) -> bool | None:
    """Whether the package's `__init__.py` hands the module out (None: it does not parse)."""
    try:
        tree = module_tree(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    stem = path.rsplit("/", 1)[-1].rsplit(".", 1)[0]
    listed = _listed(tree)
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            found = module_paths(init_path, "." * node.level + (node.module or ""))
            if path.removesuffix("i") in found:
                return True
            for alias in node.names:
                if alias.name != stem or init_path not in found:
                    continue
                bound = alias.asname or alias.name
                if bound in listed if listed is not None else not bound.startswith("_"):
                    return True
        elif isinstance(node, ast.Import):
            if any(a.name.split(".")[-1] == stem and "." in a.name for a in node.names):
                return True
        # (a name in a table, `".css_parser"`, not a word of prose)
        elif (
            isinstance(node, ast.Constant)
            and isinstance(node.value, str)
            and _NAME.fullmatch(node.value)
            and stem in re.split(r"[.:]", node.value)
        ):
            return True
    return False


def _listed(tree: ast.Module) -> set[str] | None:
    """The names a module's `__all__` lists as a literal; None where it assigns none."""
    for node in tree.body:
        if isinstance(node, ast.Assign | ast.AnnAssign) and binds_all(node):
            return listed_strings(node.value)
    return None


def _documented(module: str, texts: list[str]) -> bool:
    """Whether a document names the module by its dotted name, alone or before a member."""
    if "." not in module:
        return False
    word = re.compile(rf"(?<![\w.]){re.escape(module)}(?![\w])")
    return any(word.search(t) for t in texts)
