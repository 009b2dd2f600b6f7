"""A Python file's two sides read with one whole parse (`pyedit.py`) read exactly what
parsing each side whole reads, on every commit of a generated history."""

from __future__ import annotations

import ast
import contextlib
import dataclasses
import difflib
import itertools
import random
from collections.abc import Callable
from typing import Any

import pytest

from bot.analysis.facts import read_facts
from bot.analysis.facts.kept import units_kept
from bot.analysis.facts.modules import module_tree
from bot.analysis.facts.pyedit import python_sides
from bot.analysis.facts.pyfile import read_units, table
from bot.analysis.facts.scan import Side
from bot.models import CommitInput, FileChange

# Top-level pieces a module is built from: each reads into the tables (names, defaults,
# fields, options, environment, registrations, deprecations, tests), and some are there
# to trip a reader that splits a file by its lines.
PIECES = [
    "import os\nimport warnings\nfrom typing import TYPE_CHECKING\n",
    "from pkg.core import Engine, run as start\n",
    "__all__ = ['Engine', 'start']\n",
    "def load(path, mode='r', *, retries=3):\n    return open(path, mode)\n",
    "def load(path, mode='rb'):\n    '''Defined again: the later one wins.'''\n    return path\n",
    "@triton.jit\ndef scale(x, factor=2.0):\n    return x * factor\n",
    "@cute.jit\n@functools.cache\ndef helper(x):\n    return x\n",
    "@dataclass\nclass Options:\n    size: int = 4\n    name: str = 'a'\n\n"
    "    def grow(self, by=1):\n        def inner():\n            return by\n"
    "        return inner()\n",
    "class Settings(BaseSettings):\n    debug: bool = False\n    level: int = Field(default=1)\n",
    "TOKEN = os.getenv('APP_TOKEN', 'none')\n",
    "HOME_DIR = os.environ['APP_HOME']\n",
    "LEVEL = os.environ.get('APP_LEVEL', '2')\n",
    "BOTH = os.environ['APP_TOKEN'] + os.getenv('APP_HOME', '/srv')\n",
    "parser.add_argument('--fast', default=False, help='go fast')\n",
    "registry.register('relu', relu)\n",
    "def old_api():\n    warnings.warn('old_api is deprecated, use new_api', DeprecationWarning)\n",
    "if TYPE_CHECKING:\n    from pkg.types import Hidden\nelse:\n    Hidden = None\n",
    "try:\n    import fast_json as json\nexcept ImportError:\n    import json\n",
    "a = 1; b = os.getenv('APP_SPLIT', '0')\n",
    'TEMPLATE = """\ndef not_code(x=1):\nos.getenv("NOT_READ")\n"""\n',
    "VALUES = [\n    1,\n    2,\n]\n",
    "LONG = 1 + \\\n    2\n",
    "def test_sum(items=(1, 2)):\n    total = 0\n    for item in items:\n"
    "        total += item * 2\n    assert total == 6\n",
    "class TestSum:\n    def test_sum(self, items=(1, 2)):\n        total = 0\n"
    "        for item in items:\n            total += item * 2\n        assert total == 6\n",
    "def __getattr__(name):\n    raise AttributeError(name)\n",
    "# a comment: os.getenv('IN_A_COMMENT')\n",
    "\n",
    # a form feed: a line break to `str.splitlines`, whitespace to Python (last: it only
    # comes with an edit)
    "\x0cdef paged(x=1):\n    return os.getenv('APP_PAGE', '1')  # \x0c\n",
]
# Line edits that may leave a statement open, change one's extent or break the syntax.
FRAGMENTS = [
    "    extra = os.getenv('APP_EXTRA', '1')",
    "(",
    ")",
    '"""',
    "else:",
    "    pass",
    "@dec",
    "",
]


def _edit(rng: random.Random, lines: list[str]) -> list[str]:
    lines = list(lines)
    at = rng.randrange(len(lines) + 1)
    # mostly edits that keep the syntax, so most commits are read both ways
    kind = rng.choices(range(7), weights=[4, 1, 3, 1, 1, 3, 2])[0]
    if kind == 0:
        lines[at:at] = rng.choice(PIECES).split("\n")[:-1]
    elif kind == 1 and lines:
        del lines[min(at, len(lines) - 1)]
    elif kind == 2 and at < len(lines):
        lines[at] = lines[at].replace("1", "7").replace("'r'", "'w'").replace("False", "True")
    elif kind == 3:
        lines.insert(at, rng.choice(FRAGMENTS))
    elif kind == 4 and at < len(lines):
        lines[at] = "    " + lines[at] if rng.random() < 0.5 else lines[at].lstrip()
    elif kind == 5 and lines:
        # a piece taken out whole: the lines from one top-level start to the next
        starts = [i for i, line in enumerate(lines) if line[:1] not in ("", " ", "#")]
        if starts:
            start = rng.choice(starts)
            end = next((s for s in starts if s > start), len(lines))
            del lines[start:end]
    else:
        lines.insert(at, f"N{at} = {rng.randrange(100)}")
    return lines


def _history(seed: int, commits: int) -> list[str]:
    """A file's texts, commit by commit; a text that does not parse is fixed by the next
    commit (made again from the last one that did)."""
    rng = random.Random(seed)
    good = "".join(rng.sample(PIECES[:-1], 20)).split("\n")[:-1]
    texts = ["\n".join(good) + "\n"]
    for _ in range(commits):
        lines = good
        for _ in range(rng.randint(1, 2)):
            lines = _edit(rng, lines)
        texts.append("\n".join(lines) + ("\n" if rng.random() < 0.9 else ""))
        if read_units(texts[-1], package=None, tests=False) is not None:
            good = lines
    return texts


def _ordered(side: Side) -> dict[str, Any]:
    """A table with the order of its entries: the facts list names in table order."""
    out: dict[str, Any] = {}
    for f in dataclasses.fields(side):
        value = getattr(side, f.name)
        if f.name == "functions":
            # parsed nodes: the same code, found on the same line of the text (a spliced
            # side's nodes keep the parent's lines, and the side says by how many they moved)
            value = [
                (name, ast.dump(node), node.lineno + side.shifts.get(name, 0))
                for name, node in value.items()
            ]
        elif f.name == "shifts":
            continue
        elif f.name == "classes":
            value = [(name, ast.dump(node)) for name, node in value.items()]
        elif f.name == "literals":
            # parsed nodes too: the same literal
            value = [(name, node and ast.dump(node)) for name, node in value.items()]
        elif f.name == "code":
            # each definition's code digest, worked out when asked
            value = [(name, digest()) for name, digest in value.items()]
        elif isinstance(value, dict):
            value = list(value.items())
        elif isinstance(value, set):
            value = sorted(value)
        out[f.name] = value
    return out


def _whole(before: str, after: str, **kwargs: Any) -> Any:
    old, new = read_units(before, **kwargs), read_units(after, **kwargs)
    if old is None or new is None:
        return None
    return [(_ordered(side), messages) for side, messages in (table(old), table(new))]


@pytest.mark.parametrize("seed", range(6))
def test_every_commit_of_a_generated_history_reads_as_each_side_parsed_whole(
    seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    texts = _history(seed, 100)
    kwargs: dict[str, Any] = {"package": "pkg" if seed % 2 else None, "tests": seed % 3 == 0}
    readable = 0
    spliced = 0
    for before, after in itertools.pairwise(texts):
        expected = _whole(before, after, **kwargs)
        sources: list[str] = []
        with units_kept(), monkeypatch.context() as patch:
            patch.setattr(ast, "parse", _recording(sources))
            sides = python_sides(before, after, **kwargs)
            got = None if sides is None else [(_ordered(side), m) for side, m in sides]
            assert got == expected, (before, after)
            if expected is not None and "\x0c" not in before + after:
                # within a period each side is parsed once, whole, and the commit's tree
                # is the one its other readers get (`module_tree`): no stretch of its
                # lines is parsed alone
                assert sources == list(dict.fromkeys([before, after]))
                module_tree(after)
                assert sources == list(dict.fromkeys([before, after]))
        if expected is not None:
            readable += 1
            # the commit's side read from the parent's units where its lines are left
            # alone: their parsed definitions are the parent's own
            (was, _), (now, _) = sides
            kept = {id(n) for n in [*was.functions.values(), *was.classes.values()]}
            spliced += any(id(n) in kept for n in [*now.functions.values(), *now.classes.values()])
    # the history mixes edits that break the syntax with ones that keep it
    assert readable >= 15
    # and many readable commits keep some of the parent's definitions
    assert spliced >= readable // 5


def _recording(sources: list[str]) -> Callable[..., ast.Module]:
    parse = ast.parse

    def recorded(source: str, *args: Any, **kwargs: Any) -> ast.Module:
        sources.append(source)
        return parse(source, *args, **kwargs)

    return recorded


@pytest.mark.parametrize("seed", range(3))
def test_within_a_period_a_commits_text_is_not_parsed_again_as_the_next_ones_parent(
    seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    texts = _history(seed, 60)
    kwargs: dict[str, Any] = {"package": None, "tests": False}
    expected = [_whole(before, after, **kwargs) for before, after in itertools.pairwise(texts)]
    readable = [read_units(t, **kwargs) is not None for t in texts]
    parse = ast.parse

    def read(kept: bool) -> tuple[list[Any], list[list[str]]]:
        """Each commit's two sides, and the sources each commit parsed."""
        got: list[Any] = []
        sources: list[list[str]] = []

        def recorded(source: str, *args: Any, **kw: Any) -> ast.Module:
            sources[-1].append(source)
            return parse(source, *args, **kw)

        with units_kept() if kept else contextlib.nullcontext(), monkeypatch.context() as patch:
            patch.setattr(ast, "parse", recorded)
            for before, after in itertools.pairwise(texts):
                sources.append([])
                sides = python_sides(before, after, **kwargs)
                got.append(None if sides is None else [(_ordered(s), m) for s, m in sides])
        return got, sources

    got, sources = read(kept=True)
    assert got == expected
    # a parent whose commit was read the step before (both its sides parse) is not parsed
    # whole again; outside a period, it is
    both = [i for i in range(1, len(sources)) if readable[i - 1] and readable[i]]
    assert len(both) >= 10
    assert [i for i in both if texts[i] in sources[i]] == []
    _, sources = read(kept=False)
    assert [i for i in both if texts[i] in sources[i]] == both


def test_an_edit_that_opens_a_string_shared_lines_close_reads_as_the_whole_file() -> None:
    shared = "C = os.getenv('APP_X', '1')\nD = 3  # '''\nE = os.getenv('APP_Y', '2')\n"
    before = f"A = 1\nB = 2\n{shared}"
    # the edit opens a string that the comment on a shared line now closes
    after = f"A = 1\nB = '''\n{shared}"
    sides = python_sides(before, after, package=None, tests=False)
    assert sides is not None
    assert [(_ordered(s), m) for s, m in sides] == _whole(before, after, package=None, tests=False)
    assert list(sides[0][0].env) == ["APP_X", "APP_Y"]
    assert list(sides[1][0].env) == ["APP_Y"]


def test_a_line_indented_into_the_function_above_belongs_to_it() -> None:
    before = "X = 1\ndef first():\n    return 1\n\nos.getenv('APP_X', '1')\n"
    after = "X = 1\ndef first():\n    return 1\n\n    os.getenv('APP_X', '1')\n"
    sides = python_sides(before, after, package=None, tests=False)
    assert sides is not None
    (old, _), (new, _) = sides
    assert old.defs["first"] != new.defs["first"]
    assert new.env == {"APP_X": "'1'"}


def test_a_day_read_with_kept_parses_says_what_each_commit_read_alone_says() -> None:
    # cachetools 86352ae (2026-02-01): a function whose parse was kept from an earlier commit
    # of the day, its lines moved by that commit, had its statements looked up on the wrong
    # lines of the text (an IndexError, and the commit listed "not analysed")

    def change(before: str, after: str) -> FileChange:
        lines = list(difflib.unified_diff(before.splitlines(True), after.splitlines(True)))[2:]
        return FileChange(
            filename="pkg/mod.py",
            status="modified",
            patch="".join(lines),
            before=before,
            after=after,
        )

    first = (
        "def f(x):\n    if x:\n        return 1\n    elif x is None:\n        return 2\n"
        "    return 3\n"
    )
    moved = "import os\n" + "\n" * 20 + first
    edited = moved.replace("return 2", "return None")
    commits = [
        CommitInput(sha=c * 40, message="x", files=[change(a, b)])
        for c, (a, b) in zip("ab", [(first, moved), (moved, edited)], strict=True)
    ]
    alone = [read_facts(c).rewritten for c in commits]
    with units_kept():
        kept = [read_facts(c).rewritten for c in commits]
    assert kept == alone
    assert [(r.old, r.new) for r in alone[1]] == [("return 2", "return None")]
