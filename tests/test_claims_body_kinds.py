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
