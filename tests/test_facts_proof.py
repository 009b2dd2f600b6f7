"""Facts said only where both revisions prove them: a reviewer's counter-examples to this
stop's new facts, each a clone shaped like the change."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.analysis.rules import analyze
from bot.analysis.signals import read_signals
from bot.cli.claims_eval import entry_text
from bot.cli.clone_sources import blob_cache, with_sources
from bot.models import Analysis, CommitInput
from bot.store.commits import commit_from_details
from tests.clones import second_commit

pytestmark = pytest.mark.usefixtures("environ_clean", "keep_test_logging")


def _commit(
    tmp_path: Path, before: dict[str, str | None], after: dict[str, str | None], message: str
) -> CommitInput:
    """The second commit as `digest --git` reads it: patches and both whole texts."""
    root, commit = second_commit(tmp_path, before, after, message)
    files = with_sources(root, commit.sha, commit.files, blob_cache())
    return commit.model_copy(update={"files": files})


def _analysed(tmp_path: Path, before: str, after: str, path: str = "pkg/app.py") -> Analysis:
    files = {"pkg/__init__.py": ""}
    return analyze(_commit(tmp_path, {**files, path: before}, {**files, path: after}, "Tidy"))


def test_code_commented_out_in_c_is_not_layout(tmp_path: Path) -> None:
    # `/*` above and `*/` below a call: the hunk's tokens, comments dropped, are the same on
    # both sides, but the call no longer runs
    before = "void f(void) {\n    g();\n}\n"
    after = "void f(void) {\n    /*\n    g();\n    */\n}\n"
    commit = _commit(
        tmp_path,
        {"src/a.c": before},
        {"src/a.c": after},
        "feat!: stop calling g\n\nBREAKING CHANGE: g is no longer called",
    )
    assert read_signals(commit).layout_only == ()
    assert analyze(commit).breaking


def test_an_integer_python_cannot_print_does_not_stop_the_analysis(tmp_path: Path) -> None:
    # `ast.unparse` raises ValueError past 4,300 digits
    huge = "0x" + "f" * 4000
    analysis = _analysed(tmp_path, "def f():\n    return 1\n", f"def f():\n    return {huge}\n")
    assert analysis.summary


def test_a_constant_a_star_import_still_provides_is_not_removed(tmp_path: Path) -> None:
    files = {"pkg/__init__.py": "", "pkg/defaults.py": "MAX_SIZE = 1024\n"}
    commit = _commit(
        tmp_path,
        {**files, "pkg/config.py": "MAX_SIZE = 1024\nOTHER = 1\n"},
        {**files, "pkg/config.py": "from pkg.defaults import *\n\nOTHER = 1\n"},
        "Read the defaults from one place",
    )
    assert "Removes `MAX_SIZE`" not in entry_text(analyze(commit))


def test_a_broader_except_still_catches_what_it_caught(tmp_path: Path) -> None:
    body = "def load(text):\n    try:\n        return int(text)\n    except {}:\n        return 0\n"
    analysis = _analysed(tmp_path, body.format("ValueError"), body.format("Exception"))
    assert "no longer catches `ValueError`" not in entry_text(analysis)
    (tmp_path / "alias").mkdir()
    analysis = _analysed(tmp_path / "alias", body.format("IOError"), body.format("OSError"))
    assert "catches" not in entry_text(analysis)


def _returned(tmp_path: Path, before: str, after: str) -> list[tuple[str, tuple[str, ...]]]:
    files = {"pkg/__init__.py": ""}
    commit = _commit(
        tmp_path, {**files, "pkg/cli.py": before}, {**files, "pkg/cli.py": after}, "cli"
    )
    return [(r.name, r.values) for r in read_signals(commit).facts.returns_added]


def test_a_literal_the_parent_may_already_have_returned_is_not_new(tmp_path: Path) -> None:
    # `return INTERRUPTED` (130) became `return 130`
    before = "INTERRUPTED = 130\n\n\ndef main():\n    return INTERRUPTED\n"
    after = "INTERRUPTED = 130\n\n\ndef main():\n    return 130\n"
    assert _returned(tmp_path, before, after) == []


def test_a_literal_a_function_never_returned_is_said(tmp_path: Path) -> None:
    before = "def main(argv):\n    if argv:\n        return 0\n    return 1\n"
    after = (
        "def main(argv):\n    if argv is None:\n        return 130\n    if argv:\n"
        "        return 0\n    return 1\n"
    )
    assert _returned(tmp_path, before, after) == [("main", ("130",))]


@pytest.mark.parametrize(("stored", "parents"), [(2, 2), (None, 1), (["a", "b"], 2), (True, 1)])
def test_stored_details_written_by_any_version_give_a_count_of_parents(
    stored: object, parents: int
) -> None:
    details = {"files": [], "pull_request": None, "parents": stored}
    assert commit_from_details("a" * 40, "m", details).parents == parents
