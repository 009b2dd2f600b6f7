"""Bounded YAML: a config file read as plain data, each bomb refused by the key it hides under.

PyYAML shares an anchored node between its aliases, so a 447-byte file of nested
`&a [*b, *b, …]` is a few objects to YAML and billions of values to anything that walks it
(pydantic's error message did). The bounds are checked on YAML's event stream, before any
object is built: the parser is iterative, so even 30,000 levels of nesting cost no recursion,
and an alias counts as everything its anchor holds.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import yaml

_INT = "tag:yaml.org,2002:int"


@dataclass(frozen=True)
class YamlBounds:
    """What a config file may hold, aliases expanded (a real config holds a few hundred values)."""

    depth: int = 8  # lists and mappings inside each other
    nodes: int = 5_000  # values, lists and mappings in all
    chars: int = 200_000  # characters of every text value in all
    text: int = 4_096  # characters of one text value
    keys: int = 200  # keys of one mapping
    # Python refuses to read integers of over 4,300 digits (a ValueError from deep in YAML);
    # no setting needs more than a few.
    digits: int = 20


class YamlBomb(ValueError):
    """The file exceeds a bound; `key` is where (dotted, list items by index)."""

    def __init__(self, key: str, problem: str) -> None:
        super().__init__(f"`{key}`: {problem}")
        self.key = key
        self.problem = problem


class _TooDeep(Exception):
    """The scanner met more open `[` or `{` than the depth bound allows."""


@dataclass
class _Size:
    nodes: int = 0
    chars: int = 0
    height: int = 0  # levels of lists and mappings below and including this one


@dataclass
class _Open:
    """A list or mapping being read."""

    key: str
    anchor: str | None
    mapping: bool
    size: _Size = field(default_factory=_Size)
    items: int = 0  # events read directly inside (a mapping's keys and values alternate)
    child_key: str = "?"


def _shown_key(event: yaml.Event) -> str:
    if isinstance(event, yaml.ScalarEvent):
        text = event.value.replace("\n", " ")
        return text if len(text) <= 40 else text[:39] + "…"
    return "?"


def _join(parent: str, child: str) -> str:
    return f"{parent}.{child}" if parent else child


def check_bounds(text: str, loader: type[yaml.SafeLoader]) -> None:
    """Raise YamlBomb where `text` exceeds the bounds; YAML syntax errors are left to the load."""
    limits = YamlBounds()
    stack: list[_Open] = []
    total = _Size()
    anchors: dict[str, _Size] = {}
    # PyYAML's parser and resolver are untyped: Any, and read as yaml.parse reads them.
    parser: Any = loader(text)
    opening = parser.fetch_flow_collection_start

    def bounded_opening(token: Any) -> None:
        # PyYAML's scanner reads up to 1,024 characters ahead of the parser, and each `[` it
        # reads costs time in proportion to the open ones: 20,000 `[`s took 0.5-3 s before
        # the parser reached the ninth level. The scanner stops at the bound itself.
        if parser.flow_level >= limits.depth:
            raise _TooDeep
        opening(token)

    parser.fetch_flow_collection_start = bounded_opening
    try:
        while True:
            try:
                if not parser.check_event():
                    break
            except _TooDeep:
                where = stack[-1].key if stack and stack[-1].key else "(file)"
                raise YamlBomb(where, f"nested too deeply (over {limits.depth} levels)") from None
            event = parser.get_event()
            if isinstance(event, yaml.CollectionEndEvent):
                done = stack.pop()
                done.size.height += 1
                if done.anchor is not None:
                    anchors[done.anchor] = done.size
                if stack:
                    _add(stack[-1], done.size)
                continue
            if not isinstance(event, yaml.NodeEvent):
                continue  # stream and document boundaries
            where = _where(stack, event, limits)
            if isinstance(event, yaml.AliasEvent):
                size = _alias(stack, anchors, event, where)
            elif isinstance(event, yaml.ScalarEvent):
                size = _scalar(parser, event, where, limits)
                if event.anchor is not None:
                    anchors[event.anchor] = size
            else:
                assert isinstance(event, yaml.CollectionStartEvent)
                _open(stack, event, where)
                size = _Size(nodes=1)
            total.nodes += size.nodes
            total.chars += size.chars
            if len(stack) + size.height > limits.depth:
                raise YamlBomb(where, f"nested too deeply (over {limits.depth} levels)")
            if total.nodes > limits.nodes:
                raise YamlBomb(
                    where, f"holds over {limits.nodes:,} values (aliases expanded); too many"
                )
            if total.chars > limits.chars:
                raise YamlBomb(
                    where, f"holds over {limits.chars:,} characters (aliases expanded); too many"
                )
            if isinstance(event, yaml.CollectionStartEvent):
                continue
            if stack:
                _add(stack[-1], size)
    finally:
        parser.dispose()


def _where(stack: list[_Open], event: yaml.Event, limits: YamlBounds) -> str:
    """The dotted key of the value `event` starts, counting it into its parent."""
    if not stack:
        return "(file)"
    parent = stack[-1]
    index = parent.items
    parent.items += 1
    if not parent.mapping:
        return _join(parent.key, str(index))
    if index % 2 == 0:
        if index // 2 >= limits.keys:
            raise YamlBomb(parent.key or "(file)", f"over {limits.keys} keys; too many")
        parent.child_key = _shown_key(event)
    return _join(parent.key, parent.child_key)


def _add(parent: _Open, size: _Size) -> None:
    parent.size.nodes += size.nodes
    parent.size.chars += size.chars
    parent.size.height = max(parent.size.height, size.height)


def _alias(
    stack: list[_Open], anchors: dict[str, _Size], event: yaml.AliasEvent, where: str
) -> _Size:
    name = event.anchor or ""
    if any(frame.anchor == name for frame in stack):
        raise YamlBomb(where, f"the alias *{name} refers to a value holding itself")
    # An undefined alias is a YAML error the load reports with its line.
    known = anchors.get(name, _Size(nodes=1))
    return _Size(known.nodes, known.chars, known.height)


def _scalar(parser: Any, event: yaml.ScalarEvent, where: str, limits: YamlBounds) -> _Size:
    value = event.value
    tag = event.tag
    if tag is None or tag == "!":
        tag = parser.resolve(yaml.ScalarNode, value, event.implicit)
    if tag == _INT:
        digits = sum(ch.isalnum() for ch in value)
        if digits > limits.digits:
            raise YamlBomb(where, f"a number of {digits:,} digits (at most {limits.digits})")
    if len(value) > limits.text:
        raise YamlBomb(where, f"a text of {len(value):,} characters (at most {limits.text:,})")
    return _Size(nodes=1, chars=len(value))


def _open(stack: list[_Open], event: yaml.CollectionStartEvent, where: str) -> None:
    mapping = isinstance(event, yaml.MappingStartEvent)
    stack.append(_Open(where if stack else "", event.anchor, mapping))


def load_bounded(text: str, loader: type[yaml.SafeLoader]) -> Any:
    """The data in `text`, read with `loader` once the bounds hold (YamlBomb if not)."""
    check_bounds(text, loader)
    return yaml.load(text, Loader=loader)  # a SafeLoader subclass, by the signature
