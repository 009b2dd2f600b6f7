"""What a Python definition's docstring says, by its author: a new definition's first telling
sentence, and the sentences an existing one's docstring gains."""

from __future__ import annotations

import ast
import re

from bot.analysis.facts.records import Documented
from bot.analysis.facts.scan import Side
from bot.analysis.messages import rst_as_read

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
# A later paragraph's sentence that leans on the one before it (what "this" is lies outside
# the quotation), or that holds a reST role (":class:`X`"), markup in a quotation.
_LEANS = re.compile(r"(?:This|That|These|Those|It|Its|They|Such|See|Also)\b")
_ADMONITIONS = frozenset({"Warning:", "Note:", "Tip:", "Important:", "Caution:", "Attention:"})
_ROLE = re.compile(r":[a-z]+:`")
# A reST hyperlink, "`text <target>`_": its text is what a reader sees, its target is not
# (platformdirs f9b9d6d's dead link replaced: the same words, nothing new said)
_LINK = re.compile(r"`([^`<]+?)\s*<[^`<>]+>`_{1,2}")
_WORD = re.compile(r"[A-Za-z][a-z]+|[A-Z]+(?![a-z])")


def documented(side: Side, name: str, path: str, before: Side | None) -> Documented | None:
    """The first sentence of the docstring of `name` (a function, method or class of the
    side) that says something its name does not, as written, its lines joined: the opening
    one, else the opening of a later paragraph of prose where the opening only names it
    (structlog 9ac5612's `level_styles`: "The level styles mapping for this console
    renderer." then "Setting this property will reset to defaults if set to None, …"). None
    where no such sentence is, where one would break a quotation or a code span, or where a
    docstring of the file at the parent (`before`) held the same words: code moved or
    copied, nothing new to a caller (multidict d476a03c's `MultiDict.keys`, once its base
    class's)."""
    text = _docstring(side, name)
    if not text:
        return None
    told = [s for s in _openings(text) if says_more(s, name)]
    if not told:
        return None
    if before is not None and told[0] in _all_openings(before):
        return None
    return Documented(name, path, told[0])


def redocumented(side: Side, name: str, path: str, before: Side) -> Documented | None:
    """The first paragraph opening of prose that the docstring of `name`, defined at both
    revisions, gains and that says something its name does not (structlog acc17ed's
    `Styles`, a type alias become a class: "Style settings for console rendering."); None
    where the docstring gains none, or where a docstring of the file at the parent held the
    words (moved, not new)."""
    text = _docstring(side, name)
    # defined twice at the parent (`if sys.version_info …: def f` `else: def f`): which
    # docstring it had is not one text (cattrs dce7347's `is_sequence`)
    if not text or name in before.redefined:
        return None
    old = _docstring(before, name) or ""
    if text == old:
        return None
    # words the parent's docstring held, wherever in it, are not new, nor are they where
    # only marked as code now ("itertools.slice" become ":func:`itertools.slice`",
    # more-itertools 28f5e8f's `split_into`): a reader sees the same words
    held = _unmarked(rst_as_read(" ".join(old.split())))
    fresh = [s for s in _openings(text) if _unmarked(s.removesuffix("…")) not in held]
    # three words of its own: a docstring added to a kept method ("Add value to list.",
    # multidict fe4dee0's `MutableMultiMapping.add`) tells nothing its name did not
    if not fresh or not says_more(fresh[0], name, least=3) or fresh[0] in _all_openings(before):
        return None
    return Documented(name, path, fresh[0])


def _unmarked(text: str) -> str:
    """Text with its code spans' marks and its links' targets taken away: the words a
    reader sees."""
    return _LINK.sub(r"\1", text).replace("`", "")


def _docstring(side: Side, name: str) -> str | None:
    node: ast.AST | None = side.functions.get(name) or side.classes.get(name)
    if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
        return None
    # defined twice, the name's words are the getter's where it is a property with a setter
    # (structlog af571c8 `ConsoleRenderer.repr_native_str`), else no one definition's
    if name in side.redefined and not _property(node):
        return None
    return ast.get_docstring(node)


def _property(node: ast.AST) -> bool:
    return isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and any(
        isinstance(d, ast.Name) and d.id in ("property", "cached_property")
        for d in node.decorator_list
    )


def _all_openings(side: Side) -> set[str]:
    """The paragraph openings of every docstring of a side's functions and classes."""
    nodes = [*side.functions.values(), *side.classes.values()]
    return {s for node in nodes if (text := ast.get_docstring(node)) for s in _openings(text)}


def _openings(text: str) -> list[str]:
    """The first sentence of each paragraph of prose of a docstring, in order: none of a
    paragraph of reST markup (`.. versionadded::`, `:param x:`), an example, a list item or
    a section (`Args:`, `Warning:`), nor one that leans on the sentence before it ("This
    is …", "It …")."""
    out = []
    literal = False
    for index, written in enumerate(text.strip().split("\n\n")):
        # an indented block is code or a quotation, as is the block after "::" (trio
        # 26ed1c6's `@background_with_channel` example)
        block, literal = (
            literal or written.lstrip("\n")[:1].isspace(),
            written.rstrip().endswith("::"),
        )
        if block:
            continue
        lines = written.strip().splitlines()
        # a Google-style admonition is prose, said with its label (structlog b0081ac's
        # "Warning: Just like with passing *columns* argument, …")
        if len(lines) > 1 and lines[0].strip() in _ADMONITIONS:
            lines = [" ".join(line.strip() for line in lines)]
        if not lines or lines[0].rstrip().endswith(":") or lines[0][:1] in "*-+|=":
            continue
        first = _first_sentence("\n".join(lines))
        if first is None or (index and (_LEANS.match(first) or _ROLE.search(first))):
            continue
        out.append(first)
    return out


def _first_sentence(text: str) -> str | None:
    """A paragraph's first sentence, whitespace folded, cut at a word past `_SHOWN`."""
    paragraph = " ".join(text.strip().split())
    paragraph = rst_as_read(paragraph)
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


def says_more(text: str, *known: str, least: int = 2) -> bool:
    """Whether `text` has at least `least` words of substance that none of `known` (a name,
    a title) holds: "Split URL into parts." says nothing `split_url` does not."""
    said = {_stem(w) for k in known for w in _WORD.findall(k)}
    new = {_stem(w) for w in _WORD.findall(text) if w.lower() not in _PLAIN and len(w) > 2}
    return len(new - said) >= least


def _stem(word: str) -> str:
    """A word's first letters: "compatibility" is "compatible", "aliases" "alias"."""
    return word.lower()[:5]
