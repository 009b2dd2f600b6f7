"""What the tree-sitter readers of Rust, Go, JavaScript and TypeScript share: one parser per
grammar, a node's text, a definition's digest, the nodes at a pattern's matches."""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterator
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
_COMMENT_START = re.compile(rb"//|/\*")
_COMMENTS = frozenset({"comment", "line_comment", "block_comment"})
# An environment variable's name as a project spells one (`API_KEY`, not `path`).
ENV_NAME = re.compile(r"[A-Z][A-Z0-9_]{2,}")


@cache
def language(grammar: str) -> tree_sitter.Language:
    return tree_sitter.Language(_GRAMMARS[grammar]())


@cache
def _parser(grammar: str) -> tree_sitter.Parser:
    return tree_sitter.Parser(language(grammar))


def parse(text: str, grammar: str) -> tree_sitter.Node | None:
    """The root of `text` parsed; None when it cannot be read (the patch is read instead).

    tree-sitter recovers from a syntax error by skipping what it cannot read, and a
    definition skipped on one side would read as removed or added: a file with an error
    (syntax newer than the grammar, a merge conflict) is not read whole."""
    # A commit's texts come stripped, and Go's grammar wants a statement's end at the last
    # line: the final line break is given back.
    try:
        data = f"{text}\n".encode("utf-8", "surrogatepass")
        root = _parser(grammar).parse(data).root_node
    except (ValueError, UnicodeError):
        return None
    return None if root.has_error else root


def found(root: tree_sitter.Node, pattern: re.Pattern[bytes]) -> Iterator[tree_sitter.Node]:
    """The smallest node that spans each match of `pattern` in the parsed text: a token the
    code holds, or the comment or string it is only written in (the caller checks which).
    Faster than a query over a large file, which visits every node."""
    # the root spans the text from its first token: offsets are counted from there
    data, offset = root.text or b"", root.start_byte
    for match in pattern.finditer(data):
        node = root.descendant_for_byte_range(offset + match.start(), offset + match.end())
        if node is not None:
            yield node


def text(node: tree_sitter.Node | None) -> str:
    return "" if node is None else (node.text or b"").decode("utf-8", "replace")


def code(node: tree_sitter.Node | None) -> bytes:
    """A node's text undecoded and without its comments: what a digest reads, so that a
    comment's edit (a doc comment on an interface's member) changes no definition."""
    if node is None:
        return b""
    data, start = node.text or b"", node.start_byte
    kept, end = [], 0
    for match in _COMMENT_START.finditer(data):
        if match.start() < end:
            continue
        comment = _comment_at(node, start + match.start())
        if comment is not None:
            kept.append(data[end : match.start()])
            end = comment.end_byte - start
    return b" ".join([*kept, data[end:]]) if kept else data


def _comment_at(node: tree_sitter.Node, position: int) -> tree_sitter.Node | None:
    """The comment that starts at `position`, if the `//` or `/*` there opens one (not one
    inside a string)."""
    found = node.descendant_for_byte_range(position, position + 2)
    # a Rust doc comment's marker and text are nodes inside the comment
    while found is not None and found.parent is not None and "comment" in found.parent.type:
        found = found.parent
    if found is None or found.type not in _COMMENTS or found.start_byte != position:
        return None
    return found


def digest(*parts: str | bytes) -> str:
    """A digest of code, whitespace aside: the same code indented anew is the same."""
    data = b" ".join(
        b" ".join((p if isinstance(p, bytes) else p.encode("utf-8", "replace")).split())
        for p in parts
    )
    return hashlib.blake2b(data, digest_size=12).hexdigest()


def string_value(node: tree_sitter.Node | None) -> str | None:
    """The value of a plain string literal (`"X"`, `'X'`, a template without `${}`); None
    for anything computed or escaped."""
    if node is None or node.type not in _STRINGS:
        return None
    raw = text(node)
    if len(raw) < 2 or raw[0] != raw[-1] or raw[0] not in "\"'`":
        return None
    inner = raw[1:-1]
    return None if "\\" in inner or (raw[0] == "`" and "${" in inner) else inner


def env_reads(
    root: tree_sitter.Node, pattern: re.Pattern[bytes], readers: frozenset[str]
) -> Iterator[tuple[str, tree_sitter.Node]]:
    """Each call of a reader function (`os.Getenv`, `std::env::var`) whose first argument is
    a literal variable name: the name and the call, never a mention in a comment or string."""
    for reader in found(root, pattern):
        call = reader.parent
        if (
            text(reader) not in readers
            or call is None
            or call.type != "call_expression"
            or call.child_by_field_name("function") != reader
        ):
            continue
        arguments = call.child_by_field_name("arguments")
        given = arguments.named_children if arguments is not None else []
        variable = string_value(given[0]) if given else None
        if variable is not None and ENV_NAME.fullmatch(variable):
            yield variable, call
