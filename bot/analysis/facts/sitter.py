"""What the tree-sitter readers of Rust, Go, JavaScript and TypeScript share: one parser per
grammar, a node's text, a definition's digest, and queries run in the library's C code."""

from __future__ import annotations

import hashlib
import re
from functools import cache

import tree_sitter
import tree_sitter_go
import tree_sitter_javascript
import tree_sitter_rust
import tree_sitter_typescript

_GRAMMARS = {
    "rust": tree_sitter_rust.language,
    "go": tree_sitter_go.language,
    "javascript": tree_sitter_javascript.language,
    "typescript": tree_sitter_typescript.language_typescript,
    "tsx": tree_sitter_typescript.language_tsx,
}
_STRINGS = frozenset(
    {"string", "string_literal", "interpreted_string_literal", "raw_string_literal"}
    | {"template_string"}
)
# An environment variable's name as a project spells one (`API_KEY`, not `path`).
ENV_NAME = re.compile(r"[A-Z][A-Z0-9_]{2,}")


@cache
def language(grammar: str) -> tree_sitter.Language:
    return tree_sitter.Language(_GRAMMARS[grammar]())


@cache
def _parser(grammar: str) -> tree_sitter.Parser:
    return tree_sitter.Parser(language(grammar))


@cache
def _query(grammar: str, source: str) -> tree_sitter.Query:
    return tree_sitter.Query(language(grammar), source)


def parse(text: str, grammar: str) -> tree_sitter.Node | None:
    """The root of `text` parsed; None when it cannot be read (the patch is read instead).

    tree-sitter recovers from a syntax error by skipping what it cannot read, and a
    definition skipped on one side would read as removed or added: a file with an error
    (syntax newer than the grammar, a merge conflict) is not read whole."""
    try:
        root = _parser(grammar).parse(text.encode("utf-8", "surrogatepass")).root_node
    except (ValueError, UnicodeError):
        return None
    return None if root.has_error else root


def matches(grammar: str, source: str, node: tree_sitter.Node) -> list[dict[str, tree_sitter.Node]]:
    """Each match of a query under `node`: its captures by name (the first node of each)."""
    found = tree_sitter.QueryCursor(_query(grammar, source)).matches(node)
    return [{name: nodes[0] for name, nodes in groups.items() if nodes} for _, groups in found]


def text(node: tree_sitter.Node | None) -> str:
    return "" if node is None else (node.text or b"").decode("utf-8", "replace")


def digest(*parts: str) -> str:
    """A digest of code, whitespace aside: the same code indented anew is the same."""
    data = " ".join(" ".join(p.split()) for p in parts)
    return hashlib.blake2b(data.encode(), digest_size=12).hexdigest()


def string_value(node: tree_sitter.Node | None) -> str | None:
    """The value of a plain string literal (`"X"`, `'X'`, a template without `${}`); None
    for anything computed or escaped."""
    if node is None or node.type not in _STRINGS:
        return None
    if any(c.type in ("template_substitution", "escape_sequence") for c in node.named_children):
        return None
    raw = text(node)
    if len(raw) >= 2 and raw[0] == raw[-1] and raw[0] in "\"'`":
        return raw[1:-1]
    return None
