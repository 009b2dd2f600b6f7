"""Settings and workflow files parsed once a commit: each side of a TOML, JSON, YAML or INI file
is read by several readers (its packaging metadata, its requirements, a release workflow's
runners, whether it parses the same at both revisions, towncrier's table), and they share one
parse. Who reads a commit's facts builds a `Parses` and hands it down (`read_signals`,
`read_facts`); a reader given none parses for itself.

A YAML document is refused (a `yaml.YAMLError`, as a text that does not parse) where its aliases
expand past a bound, refer to a value holding themselves, or where it nests too deeply: PyYAML
shares an anchored node between its aliases, so a few hundred bytes of nested `&a [*b, *b, …]`
are a few objects to the parser and billions of values to whoever walks them (the settings
comparison did). The bound is checked on the composed nodes, each read once, before any value
is built.
"""

from __future__ import annotations

import configparser
import json
import tomllib
from collections.abc import Callable, Mapping
from typing import Any

import yaml

# the C loader where PyYAML was built with it: ten times the pure-Python one's speed
_LOADER: type[yaml.SafeLoader] = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
# Values the aliases of one file may add once expanded (beyond the values it writes), and the
# levels of lists and mappings inside each other: a real file's anchors repeat a few blocks,
# and its settings nest a dozen levels at most.
ALIASED_VALUES = 100_000
DEPTH = 100


class YamlTooLarge(yaml.YAMLError):
    """A YAML file whose aliases expand too far, refer to themselves, or that nests too deeply:
    read as one that does not parse. `walked`: the nodes read before it was refused."""

    def __init__(self, problem: str, walked: int) -> None:
        super().__init__(problem)
        self.walked = walked


def check_nodes(root: yaml.Node, *, allowance: int) -> int:
    """The values `root`'s aliases add once expanded; YamlTooLarge past `allowance` of them, at
    a value that holds itself, or past `DEPTH` levels. Each distinct list or mapping is read
    once (a scalar is one value wherever it is met)."""
    # a list's or mapping's values below and including it, aliases expanded (-1: being read),
    # and its levels
    sizes: dict[int, int] = {}
    heights: dict[int, int] = {}
    walked = 0  # nodes met: an alias of a list or mapping is one here, all it holds expanded

    def read(node: yaml.Node, depth: int) -> int:
        nonlocal walked
        walked += 1
        value = node.value
        if isinstance(value, str):
            return 1
        key = id(node)
        size = sizes.get(key)
        if size is not None:
            if size < 0:
                raise YamlTooLarge("an alias refers to a value holding itself", walked)
            if depth + heights[key] > DEPTH:
                raise YamlTooLarge(f"nested over {DEPTH} levels", walked)
            return size
        if depth >= DEPTH:
            raise YamlTooLarge(f"nested over {DEPTH} levels", walked)
        sizes[key] = -1
        size, height = 1, 0
        for item in value:
            for child in item if isinstance(item, tuple) else (item,):
                size += read(child, depth + 1)
                height = max(height, heights.get(id(child), 0))
        sizes[key], heights[key] = size, height + 1
        return size

    added = read(root, 0) - walked
    if added > allowance:
        raise YamlTooLarge(f"its aliases expand to over {allowance:,} more values", walked)
    return added


class _BoundedLoader(_LOADER):  # type: ignore[valid-type,misc]
    """The safe loader, checking each document's nodes (`check_nodes`) before building it;
    the documents of one stream share the bound."""

    def __init__(self, stream: str) -> None:
        super().__init__(stream)
        self.aliased = 0

    def construct_document(self, node: yaml.Node) -> Any:
        self.aliased += check_nodes(node, allowance=ALIASED_VALUES - self.aliased)
        return super().construct_document(node)


def _load_yaml(text: str) -> list[Any]:
    return list(yaml.load_all(text, Loader=_BoundedLoader))


def _read_ini(text: str) -> configparser.RawConfigParser:
    # option names as written (setuptools reads an entry point's name case-sensitively); a
    # reader that lowers them is given `ini_lowered`'s view
    parser = configparser.RawConfigParser()
    parser.optionxform = str  # type: ignore[assignment,method-assign]
    parser.read_string(text)
    return parser


class _Failed:
    """A parse that raised: raised again to each reader, which catches what it always did."""

    def __init__(self, error: Exception) -> None:
        self.error = error.with_traceback(None)


class Parses:
    """One commit's parses of settings and workflow files, by format and text: each side of
    each file is parsed once however many readers ask. Values are shared: read only."""

    def __init__(self) -> None:
        self._held: dict[tuple[str, str], Any] = {}

    def _get(self, kind: str, text: str, parse: Callable[[str], Any]) -> Any:
        key = (kind, text)
        if key not in self._held:
            try:
                self._held[key] = parse(text)
            except Exception as error:  # each reader catches its own, as before
                self._held[key] = _Failed(error)
        found = self._held[key]
        if isinstance(found, _Failed):
            raise found.error
        return found

    def toml(self, text: str) -> dict[str, Any]:
        """`tomllib.loads(text)`; raises what it raises."""
        document: dict[str, Any] = self._get("toml", text, tomllib.loads)
        return document

    def json(self, text: str) -> Any:
        """`json.loads(text)`; raises what it raises."""
        return self._get("json", text, json.loads)

    def yaml(self, text: str) -> list[Any]:
        """The documents of a YAML stream, read by the safe loader within the bounds above;
        raises yaml.YAMLError where it does not parse or exceeds them."""
        documents: list[Any] = self._get("yaml", text, _load_yaml)
        return documents

    def ini(self, text: str) -> configparser.RawConfigParser:
        """An INI file (`setup.cfg`, `tox.ini`) read by `configparser.RawConfigParser` with
        option names as written; raises configparser.Error where it does not parse."""
        parser: configparser.RawConfigParser = self._get("ini", text, _read_ini)
        return parser


def ini_lowered(parser: configparser.RawConfigParser) -> dict[str, dict[str, str]]:
    """Each section's options (with `[DEFAULT]`'s) as a parser that lowers option names reads
    them (configparser's default); ValueError where it would refuse the file: a name written
    twice in one section, in two cases."""
    # the options of each section as read, without `[DEFAULT]`'s (configparser keeps them so)
    own: dict[str, dict[str, str]] = parser._sections  # type: ignore[attr-defined]
    defaults = _lowered(parser.defaults())
    return {s: {**defaults, **_lowered(own[s])} for s in parser.sections()}


def _lowered(options: Mapping[str, str]) -> dict[str, str]:
    out = {name.lower(): value for name, value in options.items()}
    if len(out) != len(options):
        raise ValueError("an option written twice, in two cases")
    return out
