"""False claims `eval --claims` found on repositories read for the first time (more-itertools,
python-dotenv), each a small clone shaped like the commit that showed it: the side that was
wrong (the analyser's entry, or the checker's verdict) is pinned here."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.cli.claim_check import Verdict
from bot.cli.claims import Kind
from bot.cli.claims_eval import entry_text
from tests.clones import checked_entry, second_commit, verdicts_of

pytestmark = pytest.mark.usefixtures("environ_clean", "keep_test_logging")

# more-itertools 9c743ea: a stub's overloads of one function, some of which no longer take
# `func` while others still do (now without its `...` default)
STUB_BEFORE = (
    "from typing import Any, Callable, Iterable, Iterator, overload\n\n"
    "@overload\n"
    "def difference(\n"
    "    iterable: Iterable[int], func: Callable[[int, int], str] = ..., *, initial: None = ...\n"
    ") -> Iterator[int | str]: ...\n"
    "@overload\n"
    "def difference(\n"
    "    iterable: Iterable[int], func: Callable[[int, int], str] = ..., *, initial: str\n"
    ") -> Iterator[str]: ...\n"
)
STUB_AFTER = (
    "from typing import Any, Callable, Iterable, Iterator, overload\n\n"
    "@overload\n"
    "def difference(\n"
    "    iterable: Iterable[int], func: Callable[[int, int], str], *, initial: None = ...\n"
    ") -> Iterator[int | str]: ...\n"
    "@overload\n"
    "def difference(iterable: Iterable[int], *, initial: None = ...) -> Iterator[Any]: ...\n"
    "@overload\n"
    "def difference(\n"
    "    iterable: Iterable[int], func: Callable[[int, int], str], *, initial: Any\n"
    ") -> Iterator[str]: ...\n"
    "@overload\n"
    "def difference(iterable: Iterable[int], *, initial: Any) -> Iterator[Any]: ...\n"
)
MODULE = "def difference(iterable, func=None, *, initial=None):\n    return iter(iterable)\n"


def test_a_parameter_some_overloads_of_a_stub_still_take_is_not_lost(tmp_path: Path) -> None:
    analysis, verdicts = checked_entry(
        tmp_path,
        {"pkg/more.py": MODULE, "pkg/more.pyi": STUB_BEFORE},
        {"pkg/more.pyi": STUB_AFTER},
        "Improve types for difference",
    )
    text = entry_text(analysis)
    assert "no longer takes" not in text
    # the overloads without `func` leave it out: it is no required parameter either
    assert "now required" not in text
    assert Verdict.FALSE not in verdicts


def test_a_parameter_one_overload_of_a_stub_gains_is_gained(tmp_path: Path) -> None:
    # the overloads' parameters together: one new to every overload is still said
    after = STUB_BEFORE.replace("*, initial: str", "*, initial: str, strict: bool = ...")
    analysis, verdicts = checked_entry(
        tmp_path,
        {"pkg/more.py": MODULE, "pkg/more.pyi": STUB_BEFORE},
        {"pkg/more.pyi": after},
        "Type the strict mode",
    )
    assert "`difference` gains the parameter `strict=...`" in entry_text(analysis)
    assert Verdict.FALSE not in verdicts and Verdict.TRUE in verdicts


def test_a_stub_catching_up_with_its_module_gains_no_parameter(tmp_path: Path) -> None:
    # more-itertools d49571b: the module's `nth_prime` took `approximate` already; the commit
    # edits its body and adds it to the stub beside it
    module = (
        "def nth_prime(n, *, approximate=False):\n"
        "    limit = n * 2\n    return limit if approximate else n\n"
    )
    analysis, verdicts = checked_entry(
        tmp_path,
        {"pkg/more.py": module, "pkg/more.pyi": "def nth_prime(n: int) -> int: ...\n"},
        {
            "pkg/more.py": module.replace("n * 2", "n * 3"),
            "pkg/more.pyi": "def nth_prime(n: int, *, approximate=False) -> int: ...\n",
        },
        "Apply floor and ceil on separate code paths",
    )
    assert "approximate" not in entry_text(analysis)
    assert Verdict.FALSE not in verdicts


def test_a_stub_whose_module_gains_the_parameter_too_still_says_it(tmp_path: Path) -> None:
    before = "def nth_prime(n):\n    limit = n * 2\n    return limit\n"
    after = "def nth_prime(n, *, approximate=False):\n    limit = n * 2\n    return limit\n"
    analysis, verdicts = checked_entry(
        tmp_path,
        {"pkg/more.py": before, "pkg/more.pyi": "def nth_prime(n: int) -> int: ...\n"},
        {
            "pkg/more.py": after,
            "pkg/more.pyi": "def nth_prime(n: int, *, approximate=False) -> int: ...\n",
        },
        "Add an approximate mode",
    )
    assert "`nth_prime` gains the parameter `approximate=False`" in entry_text(analysis)
    assert Verdict.FALSE not in verdicts


def test_words_only_marked_as_code_now_are_no_new_docstring(tmp_path: Path) -> None:
    # more-itertools 28f5e8f: "itertools.slice" became ":func:`itertools.slice`" in a
    # paragraph of `split_into`'s docstring, ``None`` kept
    doc = (
        '    """Yield lists of items of *iterable*, one for each size in *sizes*.\n\n'
        "    When a ``None`` object is encountered in *sizes*, the returned list will\n"
        "    contain items up to the end of *iterable* the same way that itertools.slice\n"
        '    does.\n    """\n'
    )
    body = "    return [list(iterable)]\n"
    analysis, verdicts = checked_entry(
        tmp_path,
        {"pkg/more.py": f"def split_into(iterable, sizes):\n{doc}{body}"},
        {
            "pkg/more.py": "def split_into(iterable, sizes):\n"
            + doc.replace(
                "that itertools.slice\n    does.", "that\n    :func:`itertools.slice` does."
            )
            + body
        },
        "Changes for release 10.6.0",
    )
    assert "docstring" not in entry_text(analysis)
    assert Verdict.FALSE not in verdicts


def test_a_claim_of_the_docstring_words_marked_anew_is_false(tmp_path: Path) -> None:
    # the checker's side of the same: it already reads code spans' marks away
    doc = '    """Split it.\n\n    Works the same way that itertools.slice does.\n    """\n'
    root, commit = second_commit(
        tmp_path,
        {"pkg/more.py": f"def split_into(iterable):\n{doc}    return iterable\n"},
        {
            "pkg/more.py": "def split_into(iterable):\n"
            + doc.replace("itertools.slice", ":func:`itertools.slice`")
            + "    return iterable\n"
        },
        "Mark the code",
    )
    said = (
        "The docstring of `split_into` now says: “Works the same way that `itertools.slice` does.”"
    )
    assert verdicts_of(root, commit.sha, said) == [(Kind.REDOCUMENTED, Verdict.FALSE)]


# python-dotenv b84bccd: a release's section added above the last one, whose items lost a
# stray "by" in the same commit
CHANGELOG = (
    "# Changelog\n\n## [0.21.0] - 2022-09-03\n\n### Fixed\n"
    "* Add `parse_it` to Related Projects by (#410 by @naorlivne)\n"
    "* Update README.md by (#415 by @harveer07)\n"
)


def test_items_reworded_in_place_are_not_new_items(tmp_path: Path) -> None:
    release = (
        "## [0.21.1] - 2023-01-21\n\n### Added\n"
        "* Modernize variables code (#434 by @Nougat-Waffle)\n\n"
        "### Fixed\n* Fix type hint for dotenv_path var (#432 by @eaf)\n\n"
    )
    after = CHANGELOG.replace("## [0.21.0]", release + "## [0.21.0]").replace(" by (#", " (#")
    root, commit = second_commit(
        tmp_path, {"CHANGELOG.md": CHANGELOG}, {"CHANGELOG.md": after}, "Add changelog"
    )
    said = (
        "`CHANGELOG.md` lists 2 new items: “Modernize variables code (#434 by @Nougat-Waffle)” "
        "(Added), “Fix type hint for dotenv_path var (#432 by @eaf)” (Fixed)."
    )
    assert verdicts_of(root, commit.sha, said) == [(Kind.RELEASE_NOTE, Verdict.TRUE)] * 2
    # an item unlike any the commit drops is still new
    reworded = after.replace("Update README.md (#415", "Drop Python 3.7 support (#415")
    root, commit = second_commit(
        tmp_path / "other", {"CHANGELOG.md": CHANGELOG}, {"CHANGELOG.md": reworded}, "Add"
    )
    assert verdicts_of(root, commit.sha, said) == [(Kind.RELEASE_NOTE, Verdict.FALSE)] * 2


def test_a_markdown_item_s_unindented_next_line_continues_it(tmp_path: Path) -> None:
    # python-dotenv eb20252: a formatter took the indent off an item's second line (a lazy
    # continuation line, the same paragraph) as it changed every `*` bullet to `-`
    before = (
        "# Changelog\n\n## [0.19.0]\n\n**Added**\n\n"
        "* The `stream` argument\n  of `load_dotenv` can now be a text stream\n"
        '  (`IO[str]`) such as `open("file.env",\n  "r")` (#348 by [@bbc2]).\n'
    )
    after = (
        "# Changelog\n\n## [v1.2.2]\n\n### Changed\n\n- Dropped Support for Python 3.9.\n\n"
        + before.replace("* ", "- ").replace("\n  ", "\n")
    )
    root, commit = second_commit(
        tmp_path, {"CHANGELOG.md": before}, {"CHANGELOG.md": after}, "Update the changelog"
    )
    said = "`CHANGELOG.md` lists 1 new item: “Dropped Support for Python 3.9.” (Changed)."
    assert verdicts_of(root, commit.sha, said) == [(Kind.RELEASE_NOTE, Verdict.TRUE)]


def test_a_comment_in_a_markdown_code_block_is_no_heading(tmp_path: Path) -> None:
    # python-dotenv 9f722ce: the code block's closing fence moved up above its `# Code of
    # your application …` comment, which became a heading
    code = "from dotenv import load_dotenv\n\nload_dotenv()\n"
    comment = "# Code of your application, which uses environment variables\n"
    before = f"# python-dotenv\n\n```python\n{code}\n{comment}```\n\nBy default, it reads.\n"
    after = f"# python-dotenv\n\n```python\n{code}```\n\n{comment}\nBy default, it reads.\n"
    root, commit = second_commit(
        tmp_path, {"README.md": before}, {"README.md": after}, "docs: clarify load_dotenv"
    )
    said = (
        "Adds the section “Code of your application, which uses environment variables” "
        "to `README.md`."
    )
    assert verdicts_of(root, commit.sha, said) == [(Kind.SECTION, Verdict.TRUE)]
    # and the other way round: a heading put into a code block is no section added
    root, commit = second_commit(
        tmp_path / "back", {"README.md": after}, {"README.md": before}, "docs: fix the fence"
    )
    assert verdicts_of(root, commit.sha, said) == [(Kind.SECTION, Verdict.FALSE)]
