""" "The fix is in `f`" names only a function whose own statements changed, the public one that
changed most, and not one the title or another sentence already names (issue 27: pluggy
5d7bd2c said "The fix is in `HookSpec.__init__`" where the fix was `varnames`'s; marshmallow
cac7d12 said "The fix is in `main`, `Range._repr_args`" of a benchmark's script and a
`.format` made an f-string). Built as clones shaped like the real commits, read whole at both
revisions, each remaining claim checked against the clone."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.analysis.rules import analyze
from bot.cli.claim_check import Verdict
from bot.cli.claims_eval import entry_text
from bot.cli.evaluation import git_history, with_sides
from bot.models import Analysis
from tests.clones import _git, commit_files, verdicts_of

pytestmark = pytest.mark.usefixtures("environ_clean", "keep_test_logging")

# pluggy's `_hooks.py` before 5d7bd2c, shortened: `varnames` reads a signature, which on
# Python 3.14 evaluates the annotations; `HookSpec.__init__` asks it for the names
HOOKS = (
    "import inspect\n\n\n"
    "def varnames(func{extra}):\n"
    '    """Return tuple of positional and keyword argument names for a function."""\n'
    "{body}"
    "\n\n"
    "class HookSpec:\n"
    "    def __init__(self, namespace, name, opts):\n"
    '        """{doc}"""\n'
    "        self.namespace = namespace\n"
    "        self.function = function = getattr(namespace, name)\n"
    "        self.name = name\n"
    "        self.argnames, self.kwargnames = varnames(function{call})\n"
    "        self.opts = {opts}\n"
)
SIGNATURE = (
    "    try:\n"
    "        sig = inspect.signature(func)\n"
    "    except TypeError:\n"
    "        return (), ()\n"
    "    args = tuple(n for n, p in sig.parameters.items() if p.default is p.empty)\n"
    "    kwargs = tuple(n for n, p in sig.parameters.items() if p.default is not p.empty)\n"
    "    return args, kwargs\n"
)
# 5d7bd2c's way: the code object, whose names need no annotation evaluated
CODE = (
    "    code = getattr(func, '__code__', None)\n"
    "    if code is None:\n"
    "        return (), ()\n"
    "    names = code.co_varnames[: code.co_argcount]\n"
    "    count = len(func.__defaults__ or ())\n"
    "    if names and names[0] in ('self', 'cls'):\n"
    "        names = names[1:]\n"
    "    args, kwargs = names[: len(names) - count], names[len(names) - count :]\n"
    "    return args, kwargs\n"
)


def _hooks(
    *, body: str, extra: str = "", call: str = "", doc: str = "Spec.", opts: str = "opts"
) -> str:
    return HOOKS.format(body=body, extra=extra, call=call, doc=doc, opts=opts)


def _entry(tmp_path: Path, before: dict[str, str], after: dict[str, str], title: str) -> Analysis:
    root = tmp_path / "repo"
    root.mkdir(parents=True)
    _git(root, "init", "-q", "-b", "main")
    commit_files(root, dict(before), "Initial layout")
    sha = commit_files(root, dict(after), title)
    ((_, commit),) = with_sides(root, git_history(root, branch="HEAD~1..HEAD"))
    analysis = analyze(commit)
    verdicts = verdicts_of(root, sha, entry_text(analysis))
    assert all(v is not Verdict.FALSE for _, v in verdicts), verdicts
    return analysis


PATH = "src/pluggy/_hooks.py"
# the fix's test (a fix with a test names where it lies; one without asks for a test)
TEST = {"testing/test_hooks.py": "def test_varnames():\n    assert True\n"}
TITLE = "Fix hook specs evaluating annotations on Python 3.14"


def test_the_fix_is_in_the_function_that_changed_most_not_one_beside_it(tmp_path: Path) -> None:
    """`varnames` rewritten, `HookSpec.__init__` only re-documented: the fix is `varnames`'s."""
    text = entry_text(
        _entry(
            tmp_path,
            {PATH: _hooks(body=SIGNATURE)},
            {PATH: _hooks(body=CODE, doc="A hook's specification."), **TEST},
            TITLE,
        )
    )
    # (`varnames` is said with what happened to it; `HookSpec.__init__` nowhere)
    assert "`varnames` now returns early when `code is None`." in text
    assert "HookSpec.__init__" not in text


def test_a_function_only_respelled_is_no_place_of_the_fix(tmp_path: Path) -> None:
    """pluggy 5d7bd2c: `varnames` gains `legacy_noself` (said as such) and is rewritten;
    `HookSpec.__init__`'s statements do the same as before (a `.format` written as an
    f-string). "The fix is in `HookSpec.__init__`" misled."""
    text = entry_text(
        _entry(
            tmp_path,
            {PATH: _hooks(body=SIGNATURE, opts="'{}'.format(opts)")},
            {PATH: _hooks(body=CODE, extra=", legacy_noself=False", opts="f'{opts}'"), **TEST},
            TITLE,
        )
    )
    assert "legacy_noself" in text
    assert "The fix is in `HookSpec.__init__`" not in text


def test_no_place_is_named_where_the_title_names_the_one_changed_most(tmp_path: Path) -> None:
    """`varnames` rewritten, as the title says; `HookSpec.__init__` one statement changed."""
    text = entry_text(
        _entry(
            tmp_path,
            {PATH: _hooks(body=SIGNATURE)},
            {PATH: _hooks(body=CODE).replace("= name\n", "= str(name)\n"), **TEST},
            "Fix varnames() evaluating annotations on Python 3.14",
        )
    )
    assert "The fix is in" not in text


# wrapt c95b2cc "Convert to f-strings." (marshmallow cac7d12's pre-commit.ci rewrite alike):
# `ObjectProxy.__repr__`'s `.format` made an f-string; beside it a benchmark's `main` edited
WRAPPERS = (
    "class ObjectProxy:\n"
    "    def __init__(self, wrapped):\n"
    "        self.__wrapped__ = wrapped\n\n"
    "    def __repr__(self):\n"
    "{body}"
)
FORMAT = (
    '        return "<{} at 0x{:x} for {} at 0x{:x}>".format(\n'
    "            type(self).__name__,\n"
    "            id(self),\n"
    "            type(self.__wrapped__).__name__,\n"
    "            id(self.__wrapped__),\n"
    "        )\n"
)
FSTRING = (
    '        return f"<{type(self).__name__} at 0x{id(self):x} for '
    '{type(self.__wrapped__).__name__} at 0x{id(self.__wrapped__):x}>"\n'
)
BENCH = "import timeit\n\n\ndef main():\n    print(timeit.timeit('x = 1', number={n}))\n"


def test_a_fix_titled_commit_that_only_respells_code_names_no_place(tmp_path: Path) -> None:
    before = {
        "src/wrapt/wrappers.py": WRAPPERS.format(body=FORMAT),
        "performance/benchmark.py": BENCH.format(n=1000),
    }
    after = {
        "src/wrapt/wrappers.py": WRAPPERS.format(body=FSTRING),
        "performance/benchmark.py": BENCH.format(n=5000),
    }
    text = entry_text(_entry(tmp_path, before, after, "Fix string building"))
    assert "The fix is in" not in text
    # nor is a regression test asked for a respelled `__repr__` and a benchmark
    assert "__repr__" not in text and "regression test" not in text


# `varnames` made to skip `*args`, `**kwargs` and `self` (three statements), `HookSpec.__init__`
# one statement changed, and a test added: no other sentence names either
REWORKED = (
    SIGNATURE.replace(
        "p.default is p.empty)", "p.default is p.empty and p.kind != p.VAR_POSITIONAL)"
    )
    .replace("p.default is not p.empty)", "p.default is not p.empty and p.kind != p.VAR_KEYWORD)")
    .replace(
        "    return args, kwargs\n",
        "    args = args[1:] if args[:1] == ('self',) else args\n    return args, kwargs\n",
    )
)


def test_the_fix_is_in_the_public_function_changed_most(tmp_path: Path) -> None:
    after = _hooks(body=REWORKED).replace("self.name = name\n", "self.name = str(name)\n")
    text = entry_text(
        _entry(
            tmp_path,
            {PATH: _hooks(body=SIGNATURE)},
            {PATH: after, **TEST},
            TITLE,
        )
    )
    assert "The fix is in `varnames`." in text
    assert "HookSpec" not in text
