"""The checker's reading of the body sentences the rules write ("may now raise", "now
catches", "no longer catches", "now calls", "no longer calls", "may now return"): each true
version of a clone's commit holds and each false one is refuted, by Python's own rules."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.cli.claim_check import Checker, Clone, Verdict
from bot.cli.claims import Kind, claims_in
from bot.cli.claims_eval import entry_text
from tests.clones import checked_entry, second_commit

pytestmark = pytest.mark.usefixtures("environ_clean", "keep_test_logging")

BEFORE = """\
import click
import zstandard as zstd


def helper(x):
    return x


def _metavar(choices):
    return "|".join(choices)


def _default():
    return 3


@click.option("--http", type=click.Choice(["auto"]))
def main(path, retries=3):
    try:
        data = open(path).read()
    except OSError:
        return 1
    except zstd.ZstdError:
        return 2
    return 0
"""

AFTER = """\
import click
import shlex
import zstandard


def helper(x):
    return x


def _metavar(choices):
    return "|".join(choices)


def _default():
    return 3


@click.option("--http", type=str, metavar=_metavar(["auto"]))
def main(path, retries=_default()):
    try:
        data = shlex.split(open(path).read())
    except Exception:
        return 1
    except zstandard.ZstdError:
        return 2
    except KeyboardInterrupt:
        return 130
    if not data:
        raise ValueError("empty")
    return helper(data)
"""


def _verdicts(tmp_path: Path, text: str) -> dict[str, Verdict]:
    root, commit = second_commit(
        tmp_path, {"pkg/cli.py": BEFORE}, {"pkg/cli.py": AFTER}, "Read arguments"
    )
    claims, _ = claims_in(text)
    reader = Clone(root)
    try:
        return {c.sentence: Checker(reader).check(commit.sha, c).verdict for c in claims}
    finally:
        reader.close()


@pytest.mark.parametrize(
    ("sentence", "kind", "verdict"),
    [
        ("`main` may now raise `ValueError`.", Kind.MAY_RAISE, Verdict.TRUE),
        ("`main` may now raise `TypeError`.", Kind.MAY_RAISE, Verdict.FALSE),
        ("`main` now catches `KeyboardInterrupt`.", Kind.CATCHES, Verdict.TRUE),
        # the same class, its module imported under another name (httpx 8e36f2b)
        ("`main` now catches `zstandard.ZstdError`.", Kind.CATCHES, Verdict.FALSE),
        # `except Exception` takes an OSError in
        ("`main` no longer catches `OSError`.", Kind.CATCHES_GONE, Verdict.FALSE),
        ("`main` now calls `shlex.split`.", Kind.CALLS, Verdict.TRUE),
        ("`main` now calls `helper`.", Kind.CALLS, Verdict.TRUE),
        # a decorator's and a default's calls run where `main` is defined (uvicorn 293eca7)
        ("`main` now calls `_metavar`.", Kind.CALLS, Verdict.FALSE),
        ("`main` now calls `_default`.", Kind.CALLS, Verdict.FALSE),
        ("`main` now calls `open`.", Kind.CALLS, Verdict.FALSE),
        ("`main` no longer calls `open`.", Kind.CALLS_GONE, Verdict.FALSE),
        ("`main` may now return `130`.", Kind.MAY_RETURN, Verdict.TRUE),
        ("`main` may now return `2`.", Kind.MAY_RETURN, Verdict.FALSE),
        ("`nothing` may now return `130`.", Kind.MAY_RETURN, Verdict.FALSE),
    ],
)
def test_each_body_sentence_gets_the_verdict_python_gives(
    tmp_path: Path, sentence: str, kind: Kind, verdict: Verdict
) -> None:
    claims, _ = claims_in(sentence)
    assert [c.kind for c in claims] == [kind]
    assert _verdicts(tmp_path, sentence) == {sentence: verdict}


def test_several_callers_and_callees_are_each_a_claim() -> None:
    claims, loose = claims_in("`_nullpager`, `open_file` now call `_KeepOpenFile`, `helper`.")
    assert {(c.name, c.old) for c in claims} == {
        ("_nullpager", "_KeepOpenFile"),
        ("_nullpager", "helper"),
        ("open_file", "_KeepOpenFile"),
        ("open_file", "helper"),
    }
    assert not loose


def test_a_returned_value_the_parent_computed_is_unverifiable(tmp_path: Path) -> None:
    before = "def run(argv):\n    return main(argv)\n"
    after = "def run(argv):\n    if not argv:\n        return 130\n    return main(argv)\n"
    root, commit = second_commit(tmp_path, {"pkg/run.py": before}, {"pkg/run.py": after}, "x")
    (claim,), _ = claims_in("`run` may now return `130`.")
    reader = Clone(root)
    try:
        assert Checker(reader).check(commit.sha, claim).verdict is Verdict.UNVERIFIABLE
    finally:
        reader.close()


def test_the_rules_say_neither_the_decorator_call_nor_the_alias_catch(tmp_path: Path) -> None:
    # the two sentences the checker found false on held-out days, now not written
    analysis, verdicts = checked_entry(
        tmp_path, {"pkg/cli.py": BEFORE}, {"pkg/cli.py": AFTER}, "Read arguments from a file"
    )
    text = entry_text(analysis)
    assert "`_metavar`" not in text and "`_default`" not in text
    assert "zstandard.ZstdError" not in text and "KeyboardInterrupt" in text
    assert all(v is not Verdict.FALSE for v in verdicts)


TYPED_BEFORE = '''\
class Option:
    """An option.

    .. versionchanged:: 8.3.dev
        Accepted without an argument.
    """

    def __init__(self, decls: list[str], flag=None):
        # Handle options that are not flags.
        self.decls = decls
        self.flag = flag

    def isolation(self, ty) -> str:
        return "x"


class Flag:
    """A flag.

    .. versionchanged:: 8.3.dev
    """

    def __init__(self, value):
        # Handle flags that take no value.
        self.value = value
'''

TYPED_AFTER = '''\
class Option:
    """An option."""

    def __init__(self, decls: list[str] | None, flag=None):
        # The option is explicitly not a flag.
        self.decls = decls
        self.flag = flag

    def isolation(self, ty=None) -> int:
        return 1


class Flag:
    """A flag."""

    def __init__(self, value):
        # A flag takes no value.
        self.value = value
'''


@pytest.mark.parametrize(
    ("sentence", "kind", "verdict"),
    [
        (
            "The parameter `decls` of `Option` now takes `list[str] | None` (was `list[str]`).",
            Kind.RETYPED,
            Verdict.TRUE,
        ),
        (
            "The parameter `decls` of `Option` now takes `str` (was `list[str]`).",
            Kind.RETYPED,
            Verdict.FALSE,
        ),
        (
            "The parameter `flag` of `Option` now takes `bool` (was `None`).",
            Kind.RETYPED,
            Verdict.FALSE,
        ),
        ("`Option.isolation` now returns `int` (was `str`).", Kind.RETURN_TYPE, Verdict.TRUE),
        ("`Option.isolation` now returns `int` (was `bytes`).", Kind.RETURN_TYPE, Verdict.FALSE),
        (
            "The parameter `ty` of `Option.isolation` is now optional (default `None`).",
            Kind.OPTIONAL,
            Verdict.TRUE,
        ),
        # `flag` had its default at the parent already
        (
            "The parameter `flag` of `Option` is now optional (default `None`).",
            Kind.OPTIONAL,
            Verdict.FALSE,
        ),
        ("The fix is in `Option.isolation`.", Kind.EDITED, Verdict.TRUE),
        ("The fix is in `Option`.", Kind.EDITED, Verdict.TRUE),
        # only a comment and the class docstring changed there (click 955ca49, 1b524bb)
        ("The fix is in `Flag.__init__`.", Kind.EDITED, Verdict.FALSE),
        ("The fix is in `Flag`.", Kind.EDITED, Verdict.FALSE),
        ("The fix is in `Nowhere`.", Kind.EDITED, Verdict.FALSE),
    ],
)
def test_each_signature_and_fix_sentence_gets_its_verdict(
    tmp_path: Path, sentence: str, kind: Kind, verdict: Verdict
) -> None:
    root, commit = second_commit(
        tmp_path, {"pkg/core.py": TYPED_BEFORE}, {"pkg/core.py": TYPED_AFTER}, "Fix options"
    )
    claims, _ = claims_in(sentence)
    assert [c.kind for c in claims] == [kind]
    reader = Clone(root)
    try:
        assert Checker(reader).check(commit.sha, claims[0]).verdict is verdict
    finally:
        reader.close()


def test_what_new_tests_call_is_read_from_the_tests_new_at_the_commit(tmp_path: Path) -> None:
    old_test = "def test_old():\n    assert helper(1)\n"
    new_test = "def test_new():\n    assert Option(['-x']).decls\n"
    root, commit = second_commit(
        tmp_path,
        {"pkg/core.py": TYPED_BEFORE, "tests/test_core.py": old_test},
        {"pkg/core.py": TYPED_AFTER, "tests/test_core.py": old_test + "\n\n" + new_test},
        "Test options",
    )
    reader = Clone(root)
    try:
        verdicts = {
            name: Checker(reader).check(
                commit.sha, claims_in(f"The new tests call `{name}`.")[0][0]
            )
            for name in ("Option", "helper", "isolation")
        }
    finally:
        reader.close()
    assert {n: v.verdict for n, v in verdicts.items()} == {
        "Option": Verdict.TRUE,
        "helper": Verdict.FALSE,  # an old test calls it
        "isolation": Verdict.FALSE,
    }


def test_words_reworded_in_a_definition_are_no_fix_there(tmp_path: Path) -> None:
    # click 955ca49: a comment and a docstring reworded in `Option.__init__`, the fix in a
    # test: the entry said "The fix is in `Option.__init__`."
    before = TYPED_BEFORE + "".join(f"\n\ndef f{i}(x):\n    return x + {i}\n" for i in range(12))
    after = before.replace("# Handle options that are not flags.", "# Explicitly not a flag.")
    after = after.replace("8.3.dev", "8.3.0").replace("return x + 11", "return x - 11")
    analysis, verdicts = checked_entry(
        tmp_path, {"pkg/core.py": before}, {"pkg/core.py": after}, "Fix the flag value"
    )
    text = entry_text(analysis)
    assert "Flag" not in text and "Option" not in text and "`f11`" in text
    assert all(v is Verdict.TRUE for v in verdicts)


def test_a_caller_another_changed_file_also_defines_is_said_with_its_file(
    tmp_path: Path,
) -> None:
    # this repository's 47512be: `command` in claims_eval.py now calls `git_history`, which
    # `command` in evaluation.py called already
    history = (
        "def git_history(path):\n    return [path]\n\n\ndef clone_commits(path):\n    return []\n"
    )
    evaluation = f"{history}\n\ndef command(args):\n    return git_history(args)\n"
    before = "from pkg.evaluation import clone_commits\n\n\ndef command(args):\n    return clone_commits(args)\n"
    after = "from pkg.evaluation import git_history\n\n\ndef command(args):\n    return git_history(args)\n"
    analysis, verdicts = checked_entry(
        tmp_path,
        {"pkg/evaluation.py": evaluation, "pkg/claims_eval.py": before},
        {"pkg/evaluation.py": evaluation + "\n# one history\n", "pkg/claims_eval.py": after},
        "Claims eval: the commits come from git_history",
    )
    assert "`command` in `pkg/claims_eval.py` now calls `git_history`" in entry_text(analysis)
    assert all(v is Verdict.TRUE for v in verdicts)


def test_a_path_belongs_to_the_caller_right_before_it() -> None:
    # httpx 8e36f2b: only `main` is said with its file; the other callers are not in it
    claims, _ = claims_in(
        "`create_ssl_context`, `main` in `httpx/_main.py`, `HTTPTransport.__init__` and 1 more"
        " now call `SSLContext`."
    )
    assert [(c.name, c.path) for c in claims] == [
        ("create_ssl_context", None),
        ("main", "httpx/_main.py"),
        ("HTTPTransport.__init__", None),
    ]
