"""A release's changelog section said by its items that matter, and checked."""

from __future__ import annotations

from pathlib import Path

from bot.cli.claim_check import Verdict
from bot.cli.claims import Kind
from bot.cli.release_items import new_items, words
from bot.digest.safety import inline
from tests.clones import checked_entry, second_commit, verdicts_of

# attrs 7bfc49e9 ("Prepare 26.1.0"): towncrier's Markdown, a breaking item first
_ATTRS_HEAD = """\
# Changelog

Versions follow [Calendar Versioning](https://calver.org) with a strict backwards-compatibility policy.

<!-- towncrier release notes start -->

"""
_ATTRS_OLD = """\
## [25.4.0](https://github.com/python-attrs/attrs/tree/25.4.0) - 2025-10-06

### Changes

- The performance of `attrs.asdict()` has been improved by 45–260%.
  [#1463](https://github.com/python-attrs/attrs/issues/1463)
"""
_ATTRS_NEW = """\
## [26.1.0](https://github.com/python-attrs/attrs/tree/26.1.0) - 2026-03-19

### Backwards-incompatible Changes

- Field aliases are now resolved *before* calling `field_transformer`, so transformers receive fully populated `Attribute` objects with usable `alias` values instead of `None`.
  The new `Attribute.alias_is_default` flag indicates whether the alias was auto-generated (`True`) or explicitly set by the user (`False`).
  [#1509](https://github.com/python-attrs/attrs/issues/1509)


### Changes

- Fix type annotations for `attrs.validators.optional()`, so it no longer rejects tuples with more than one validator.
  [#1496](https://github.com/python-attrs/attrs/issues/1496)
- The `attrs.validators.disabled()` contextmanager can now be nested.
  [#1513](https://github.com/python-attrs/attrs/issues/1513)
- Frozen classes can set `on_setattr=attrs.setters.NO_OP` in addition to `None`.
  [#1515](https://github.com/python-attrs/attrs/issues/1515)
- It's now possible to pass *attrs* **instances** in addition to *attrs* **classes** to `attrs.fields()`.
  [#1529](https://github.com/python-attrs/attrs/issues/1529)


"""

# yarl a9aa975b ("Release 1.24.0"): towncrier's reStructuredText, Sphinx roles, the
# removal under its own heading after the fixes
_YARL_HEAD = "=========\nChangelog\n=========\n\n.. towncrier release notes start\n\n"
_YARL_NEW = """\
v1.24.0
=======

*(2026-05-19)*


Bug fixes
---------

- Delayed importing pydantic until it's needed to avoid increased import time -- by :user:`Dreamsorcerer`.

  *Related issues and pull requests on GitHub:*
  :issue:`1607`, :issue:`1702`.

- Fixed pickling of :class:`~yarl.URL` on Python 3.15, where ``SplitResult``
  gained a ``__getstate__`` that requires attributes set by ``__init__``.
  ``__getstate__`` now returns the raw 5-tuple instead of a ``SplitResult``
  -- by :user:`befeleme`.

  *Related issues and pull requests on GitHub:*
  :issue:`1632`, :issue:`1642`, :issue:`1687`.

- Raise :exc:`ValueError` when a URL's authority component contains a
  backslash, which is not a valid character per :rfc:`3986`
  -- by :user:`rodrigobnogueira`.

  *Related issues and pull requests on GitHub:*
  :issue:`1659`.


Removals and backward incompatible breaking changes
---------------------------------------------------

- Dropped support for the experimental free-threaded build of Python 3.13
  -- by :user:`bdraco`.

  *Related issues and pull requests on GitHub:*
  :issue:`1667`.


"""
_YARL_OLD = "v1.23.0\n=======\n\n- Added support for pydantic -- by :user:`x`.\n"


def test_a_release_leads_with_its_breaking_item_and_counts_the_rest(tmp_path: Path) -> None:
    analysis, verdicts = checked_entry(
        tmp_path,
        {"CHANGELOG.md": _ATTRS_HEAD + _ATTRS_OLD},
        {"CHANGELOG.md": _ATTRS_HEAD + _ATTRS_NEW + _ATTRS_OLD},
        "Prepare 26.1.0",
    )
    # a release (its heading dated, its title "Prepare"): the break said first, then the
    # other items in order, the fix ahead of the features
    assert analysis.summary.startswith(
        "Releases 26.1.0. The 26.1.0 changelog lists breaking changes: “Field aliases are now"
        " resolved before calling `field_transformer`, so transformers receive fully populated"
    )
    assert analysis.summary.endswith(
        "`CHANGELOG.md` lists 5 new items: “Fix type annotations for"
        " `attrs.validators.optional()`, so it no longer rejects tuples with more than one"
        " validator.” (Changes) and 4 more."
    )
    assert verdicts == [Verdict.TRUE]


def test_sphinx_roles_read_as_rendered_and_removals_come_first(tmp_path: Path) -> None:
    analysis, verdicts = checked_entry(
        tmp_path,
        {"CHANGES.rst": _YARL_HEAD + _YARL_OLD},
        {"CHANGES.rst": _YARL_HEAD + _YARL_NEW + _YARL_OLD},
        "Release 1.24.0 (#1719)",
    )
    assert analysis.summary == (
        "`CHANGES.rst` lists 4 new items: “Dropped support for the experimental free-threaded"
        " build of Python 3.13” (Removals and backward incompatible breaking changes)"
        " and 3 more."
    )
    assert verdicts == [Verdict.TRUE]


def test_a_few_items_of_a_release_are_its_notes(tmp_path: Path) -> None:
    """Up to three items are one change's entry (its description when the author wrote
    none), not a release's notes, unless the commit is a release: a dated version heading
    under a title that speaks of one (httpx's "Version 1.0.8")."""
    section = "## 1.0.8 (April 11th, 2025)\n\n- Fix `AttributeError` when importing on Python 3.14. (#1005)\n\n"
    analysis, _ = checked_entry(
        tmp_path,
        {"CHANGELOG.md": "# Changelog\n\n"},
        {"CHANGELOG.md": "# Changelog\n\n" + section},
        "Version 1.0.8 (#1006)",
    )
    assert analysis.summary == (
        "Releases 1.0.8. `CHANGELOG.md` lists 1 new item: “Fix `AttributeError` when importing"
        " on Python 3.14.”"
    )
    entry, _ = checked_entry(
        tmp_path / "entry",
        {"CHANGELOG.md": "# Changelog\n\n"},
        {"CHANGELOG.md": "# Changelog\n\n" + section},
        "Fix import on Python 3.14",
    )
    assert "new item" not in entry.summary


def test_the_checker_counts_items_and_reads_headings(tmp_path: Path) -> None:
    root, commit = second_commit(
        tmp_path,
        {"CHANGES.rst": _YARL_HEAD + _YARL_OLD},
        {"CHANGES.rst": _YARL_HEAD + _YARL_NEW + _YARL_OLD},
        "Release 1.24.0 (#1719)",
    )
    said = (
        "`CHANGES.rst` lists 4 new items: “Fixed pickling of `URL` on Python 3.15” (Bug fixes)."
        " `CHANGES.rst` lists 5 new items: “Fixed pickling of `URL` on Python 3.15” (Bug fixes)."
        " `CHANGES.rst` lists 4 new items: “Fixed pickling of `URL`” (Features)."
        " `CHANGES.rst` lists 4 new items: “Raise `ValueError` when … per RFC 3986”."
        " `CHANGES.rst` lists 4 new items: “Added support for pydantic”."
    )
    assert verdicts_of(root, commit.sha, said) == [
        (Kind.RELEASE_NOTE, Verdict.TRUE),
        (Kind.RELEASE_NOTE, Verdict.FALSE),
        (Kind.RELEASE_NOTE, Verdict.FALSE),
        (Kind.RELEASE_NOTE, Verdict.TRUE),
        (Kind.RELEASE_NOTE, Verdict.FALSE),
    ]


def test_the_release_section_is_found_below_an_edited_intro(tmp_path: Path) -> None:
    """A release that also edits the changelog's opening lines: the section is the first
    block of added lines under a version heading, not the first block."""
    intro = _ATTRS_HEAD.replace("strict backwards-compatibility", "strict compatibility")
    analysis, verdicts = checked_entry(
        tmp_path,
        {"CHANGELOG.md": _ATTRS_HEAD + "\n" * 8 + _ATTRS_OLD},
        {"CHANGELOG.md": intro + "\n" * 8 + _ATTRS_NEW + _ATTRS_OLD},
        "Prepare 26.1.0",
    )
    assert analysis.summary.startswith("Releases 26.1.0.")
    assert "`CHANGELOG.md` lists 5 new items:" in analysis.summary
    assert verdicts == [Verdict.TRUE]


def test_a_single_hyphen_attribution_goes_with_its_user(tmp_path: Path) -> None:
    """platformdirs 13094f8 ("Release 4.7.0"): "… not writable :pr:`369` - by :user:`x`"
    said "… not writable - by", a dangling "by" whose user was dropped: the attribution goes
    whole, whatever dash leads it."""
    old = "Changelog\n=========\n4.6.0 (2026-02-12)\n-------------------\n- feat: one :pr:`375`\n"
    new = old.replace(
        "4.6.0",
        "4.7.0 (2026-02-12)\n------------------\n"
        "- 🔧 build(release): adopt an automated workflow :pr:`420`\n"
        "- 🐛 fix(unix): fall back to tempdir when runtime dir is not writable :pr:`369`"
        " - by :user:`lengau`\n"
        "- Replace SHGetFolderPathW with SHGetKnownFolderPath :pr:`380` - by :user:`moi15moi`\n"
        "- 📝 docs: restructure and fix cross-references :pr:`419`\n\n4.6.0",
        1,
    )
    analysis, verdicts = checked_entry(
        tmp_path, {"docs/changelog.rst": old}, {"docs/changelog.rst": new}, "Release 4.7.0"
    )
    assert "- by" not in analysis.summary
    assert "“🐛 fix(unix): fall back to tempdir when runtime dir is not writable”" in (
        analysis.summary
    )
    assert verdicts and set(verdicts) == {Verdict.TRUE}


def test_a_label_paragraph_heads_the_list_under_it_for_the_checker() -> None:
    """marshmallow fbad345 (3.22.0): "Features:" stands alone above its bullets, and a
    reader of the rendered CHANGELOG.rst sees it as the list's heading; the analyser's
    "(Features)" was called false by a checker that knew only titles and `#` lines."""
    before = (
        "Changelog\n---------\n\n3.21.3 (2024-06-05)\n*******************\n\nBug fixes:\n\n- Old.\n"
    )
    after = (
        "Changelog\n---------\n\n3.22.0 (2024-08-20)\n*******************\n\nFeatures:\n\n"
        "- Add ``many`` Meta option to ``Schema`` (:issue:`2270`).\n"
        "  Thanks :user:`himalczyk` for reporting.\n- Refactor hooks (:pr:`2279`).\n\n"
        "3.21.3 (2024-06-05)\n*******************\n\nBug fixes:\n\n- Old.\n"
    )
    found = new_items(before, after)
    assert [i.heading for i in found] == [words("Features"), words("Features")]
    # a colon inside an item's own line is no label; a label needs blank lines round it
    squeezed = after.replace("Features:\n\n", "Features:\n")
    assert {i.heading for i in new_items(before, squeezed)} != {words("Features")}


def test_an_items_trailing_issue_url_goes_as_its_number_would(tmp_path: Path) -> None:
    """backoff d9d80a9 ("Prepare v2.2.1 release"): an item that ends in its issue's bare URL,
    which GitHub shows as `#177`, a reference the quotation leaves out like any trailing
    `(#N)`; a URL inside the words stays (as a code span, once rendered)."""
    section = (
        "## [v2.2.1] - 2022-10-05\n\n"
        "- Fix type hint for wait generators https://github.com/litl/backoff/issues/177\n"
        "- Read https://github.com/o/r/pull/12 for the plan (https://github.com/o/r/pull/13).\n\n"
    )
    analysis, verdicts = checked_entry(
        tmp_path,
        {"CHANGELOG.md": "# Changelog\n\n"},
        {"CHANGELOG.md": "# Changelog\n\n" + section},
        "Prepare v2.2.1 release",
    )
    assert "“Fix type hint for wait generators”" in analysis.summary, analysis.summary
    assert "“Read https://github.com/o/r/pull/12 for the plan”" in analysis.summary
    # rendered, the URL left inside the words is a code span of the URL alone
    assert "“Read `https://github.com/o/r/pull/12` for the plan”." in inline(analysis.summary)
    assert "/177" not in analysis.summary and "/13" not in analysis.summary
    assert verdicts and Verdict.FALSE not in verdicts
