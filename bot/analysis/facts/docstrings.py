"""The first sentence of a new Python definition's docstring: what it does, by its author."""

from __future__ import annotations

import ast
import re

from bot.analysis.facts.records import Documented
from bot.analysis.facts.scan import Side
from bot.analysis.messages import roles_as_code

# A sentence quoted longer than this is cut at a word ("…").
_SHOWN = 160
# A full stop that ends no sentence: "e.g.", "i.e.", "etc.", "vs."
_ABBREVIATION = re.compile(r"(?:\b(?:e\.g|i\.e|etc|vs|cf)|\.\.)\.$", re.IGNORECASE)
_END = re.compile(r"[.!?](?=\s|$)")
# Words that say nothing of what a definition does beside its name.
_PLAIN = frozenset(
    {"a", "an", "the", "of", "to", "for", "from", "in", "into", "on", "by", "with", "and"}
    | {"or", "is", "are", "be", "it", "its", "this", "that", "as", "at", "if", "when"}
    | {"which", "given", "new", "return", "returns", "get", "gets", "set", "sets"}
)
_WORD = re.compile(r"[A-Za-z][a-z]+|[A-Z]+(?![a-z])")


def documented(side: Side, name: str, path: str, before: Side | None) -> Documented | None:
    """The first sentence of the docstring of `name` (a function, method or class of the
    side), as written, its lines joined; None where it has none, where it opens with reST
    markup (`.. versionadded::`, `:param x:`), would break a quotation or a code span, says
    nothing its name does not, or where a definition of the file at the parent (`before`)
    opened its docstring with the same words: code moved or copied, nothing new to a caller
    (multidict d476a03c's `MultiDict.keys`, once its base class's)."""
    node: ast.AST | None = side.functions.get(name) or side.classes.get(name)
    if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
        return None
    # defined twice, the name's words are the getter's where it is a property with a setter
    # (structlog af571c8 `ConsoleRenderer.repr_native_str`), else no one definition's
    if name in side.redefined and not _property(node):
        return None
    text = ast.get_docstring(node)
    if not text:
        return None
    first = _first_sentence(text)
    if first is None or not says_more(first, name):
        return None
    if before is not None and first in _first_sentences(before):
        return None
    return Documented(name, path, first)


def _property(node: ast.AST) -> bool:
    return isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and any(
        isinstance(d, ast.Name) and d.id in ("property", "cached_property")
        for d in node.decorator_list
    )


def _first_sentences(side: Side) -> set[str]:
    """The first sentences of every docstring of a side's functions and classes."""
    nodes = [*side.functions.values(), *side.classes.values()]
    return {
        first
        for node in nodes
        if (text := ast.get_docstring(node)) and (first := _first_sentence(text)) is not None
    }


def _first_sentence(text: str) -> str | None:
    """The docstring's first sentence, within its first paragraph, whitespace folded, cut
    at a word past `_SHOWN`."""
    paragraph = " ".join(text.strip().split("\n\n", 1)[0].split())
    # reStructuredText as a reader sees it: ":class:`~svcs.Registry`" is `Registry`,
    # "``None``" is `None`
    paragraph = roles_as_code(paragraph).replace("``", "`")
    if not paragraph or paragraph.startswith((".. ", ":", ">>>")):
        return None
    if any(c in paragraph for c in "“”") or paragraph.count("`") % 2:
        return None
    end = len(paragraph)
    for stop in _END.finditer(paragraph):
        if not _ABBREVIATION.search(paragraph[: stop.end()]):
            end = stop.end()
            break
    first = paragraph[:end]
    if len(first) > _SHOWN:
        cut = first[: _SHOWN - 1].rsplit(" ", 1)[0].rstrip(" ,;:.")
        # a code span cut in two would break the sentence that quotes it
        if cut.count("`") % 2:
            return None
        first = cut + "…"
    return first


def says_more(text: str, *known: str) -> bool:
    """Whether `text` has at least two words of substance that none of `known` (a name, a
    title) holds: "Split URL into parts." says nothing `split_url` does not."""
    said = {_stem(w) for k in known for w in _WORD.findall(k)}
    new = {_stem(w) for w in _WORD.findall(text) if w.lower() not in _PLAIN and len(w) > 2}
    return len(new - said) >= 2


def _stem(word: str) -> str:
    """A word's first letters: "compatibility" is "compatible", "aliases" "alias"."""
    return word.lower()[:5]
