"""News fragments (towncrier) a commit adds are the author's words; bots' lines are nobody's."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.analysis.fragments import fragments, without_bot_lines
from bot.analysis.rules import analyze
from bot.cli.claim_check import Verdict
from bot.cli.claims_eval import entry_text
from bot.models import ChangeType, CommitInput, FileChange, Importance
from tests.clones import checked_entry

URL = (
    "class URL:\n    def __init__(self, val):\n        self._val = val\n\n"
    "    def __getstate__(self):\n        return (tuple.__new__(SplitResult, self._val),)\n"
    + "".join(f"\n    def m{i}(self):\n        return {i}\n" for i in range(8))
)
URL_FIXED = URL.replace("(tuple.__new__(SplitResult, self._val),)", "(tuple(self._val),)")
PICKLE_TEST = "def test_pickle_getstate_returns_plain_tuple():\n    assert True\n"

# yarl faaa1fd, word for word
YARL_1632 = (
    "Fixed pickling of :class:`~yarl.URL` on Python 3.15, where ``SplitResult``\n"
    "gained a ``__getstate__`` that requires attributes set by ``__init__``.\n"
    "``__getstate__`` now returns the raw 5-tuple instead of a ``SplitResult``\n"
    "built via ``tuple.__new__``, so pickling no longer touches ``SplitResult``\n"
    "serialization at all. Pickles produced by older yarl releases (which embed\n"
    "a ``SplitResult``) continue to load unchanged\n"
    "-- by :user:`aiolibsbot`.\n"
)
# attrs 4b5b295's squash message, its middle steps shortened
ATTRS_1592_MESSAGE = (
    "Make on_setattr hooks accept generators (#1592)\n\n"
    "* Make on_setattr hooks accept generators\n\n"
    "* Adjust documentation of public APIs using on_setattr\n\n"
    "* Create a changelog file\n\n"
    "* [pre-commit.ci] auto fixes from pre-commit.com hooks\n\n"
    "for more information, see https://pre-commit.ci\n\n"
    "* Update changelog.d/1592.change.md\n\n"
    "Co-authored-by: Sviatoslav Sydorenko <wk.cvs.github@sydorenko.org.ua>\n\n"
    "* Fix version added comments\n\n"
    "* Don't check pipe hooks for generators\n\n"
    "---------\n\n"
    "Co-authored-by: pre-commit-ci[bot] <66853113+pre-commit-ci[bot]@users.noreply.github.com>\n"
    "Co-authored-by: Hynek Schlawack <hs@ox.cx>\n"
)
ATTRS_1592 = (
    "`attrs.field(on_setattr=…)` hooks can now be generator functions to run code before and "
    "after an attribute is set and whose yield value is used as the value to set the "
    "attribute to.\n"
)
SETTERS = "def _setter(hook, value):\n    return hook(value)\n" + "".join(
    f"\n\ndef h{i}():\n    return {i}\n" for i in range(8)
)
SETTERS_GEN = SETTERS.replace(
    "    return hook(value)\n",
    "    result = hook(value)\n    if hasattr(result, 'send'):\n"
    "        return next(result)\n    return result\n",
)


def _no_false(verdicts: list[Verdict]) -> None:
    assert Verdict.FALSE not in verdicts


def test_a_bugfix_fragment_says_what_the_title_did_not(tmp_path: Path) -> None:
    # yarl faaa1fd: the message is the title alone; CHANGES/1632.bugfix.rst says the rest
    analysis, verdicts = checked_entry(
        tmp_path,
        {"yarl/_url.py": URL},
        {
            "yarl/_url.py": URL_FIXED,
            "CHANGES/1632.bugfix.rst": YARL_1632,
            "tests/test_pickle.py": PICKLE_TEST,
        },
        "Fix pickling of URL on Python 3.15 (#1687)",
    )
    assert analysis.summary.startswith("Fixed pickling of `URL` on Python 3.15")
    assert "`__getstate__` now returns the raw 5-tuple" in analysis.summary
    text = entry_text(analysis)
    assert ":class:" not in text and "``" not in text and "aiolibsbot" not in text
    assert analysis.change_types[0] is ChangeType.BUGFIX
    _no_false(verdicts)


def test_a_fragment_behind_blank_lines_and_a_sphinx_role(tmp_path: Path) -> None:
    # yarl f48b0d6: a title, three blank lines, and CHANGES/1265.bugfix.rst
    fragment = (
        "Fixed :py:meth:`~yarl.URL.build` failing to validate paths must start with a ``/`` "
        "when passing ``authority`` -- by :user:`bdraco`.\n\n"
        "The validation only worked correctly when passing ``host``.\n"
    )
    analysis, verdicts = checked_entry(
        tmp_path,
        {"yarl/_url.py": URL},
        {"yarl/_url.py": URL_FIXED, "CHANGES/1265.bugfix.rst": fragment},
        "Fix `URL.build` not validating that `path` has a leading slash when passing "
        "`authority` (#1265)\n\n\n\n",
    )
    assert analysis.summary.startswith(
        "Fixed `build` failing to validate paths must start with a `/` when passing `authority`"
    )
    assert "bdraco" not in entry_text(analysis) and ":py:meth:" not in entry_text(analysis)
    _no_false(verdicts)


def test_pre_commit_lines_give_way_to_the_fragment(tmp_path: Path) -> None:
    # attrs 4b5b295: the squash message's only prose was pre-commit.ci's "for more
    # information" line, which had become the summary
    analysis, verdicts = checked_entry(
        tmp_path,
        {"src/attr/_make.py": SETTERS},
        {"src/attr/_make.py": SETTERS_GEN, "changelog.d/1592.change.md": ATTRS_1592},
        ATTRS_1592_MESSAGE,
    )
    assert analysis.summary.startswith(
        "`attrs.field(on_setattr=…)` hooks can now be generator functions"
    )
    text = entry_text(analysis).lower()
    assert "pre-commit" not in text and "co-authored" not in text
    _no_false(verdicts)


def test_a_performance_fragment_gives_its_figure(tmp_path: Path) -> None:
    # attrs 1315e42: three squash steps, a pre-commit.ci fix and changelog.d/1469.change.md
    analysis, verdicts = checked_entry(
        tmp_path,
        {"src/attr/_funcs.py": SETTERS},
        {
            "src/attr/_funcs.py": SETTERS_GEN,
            "changelog.d/1469.change.md": (
                "The performance of `attrs.astuple()` has been improved by 49–270%.\n"
            ),
        },
        "Improve performance of attr.astuple (#1469)\n\n"
        "* Improve performance of attr.astuple\n\n"
        "* [pre-commit.ci] auto fixes from pre-commit.com hooks\n\n"
        "for more information, see https://pre-commit.ci\n\n"
        "* Add news fragment\n\n---------\n\n"
        "Co-authored-by: pre-commit-ci[bot] <66853113+pre-commit-ci[bot]@users.noreply.github.com>\n"
        "Co-authored-by: Hynek Schlawack <hs@ox.cx>\n",
    )
    assert "improved by 49–270%" in analysis.summary
    assert "pre-commit" not in entry_text(analysis)
    _no_false(verdicts)


ATTRS_1457 = (
    "Class-level `kw_only=True` behavior is now consistent with `dataclasses`.\n\n"
    "Previously, a class that sets `kw_only=True` makes all attributes keyword-only,\n"
    "including those from base classes.  If an attribute sets `kw_only=False`, that\n"
    "setting is ignored, and it is still made keyword-only.\n\n"
    "Now, only the attributes defined in that class that doesn't explicitly set\n"
    "`kw_only=False` are made keyword-only.\n\n"
    "This shouldn't be a problem for most users, unless you have a pattern like this:\n\n"
    "```python\n@attrs.define(kw_only=True)\nclass Base:\n    a: int\n"
    "    b: int = attrs.field(default=1, kw_only=False)\n```\n"
)
ATTRS_1457_MESSAGE = (
    "Make `kw_only=True` behavior consistent with dataclasses (#1457)\n\n"
    "* initial change\n\n* move comment\n\n* fix docs\n\n"
    "* Apply suggestions from code review\n\nCo-authored-by: Hynek Schlawack <hs@ox.cx>\n\n"
    "* [pre-commit.ci] auto fixes from pre-commit.com hooks\n\n"
    "for more information, see https://pre-commit.ci\n\n"
    "* Add changelog\n\n"
    "* [pre-commit.ci] auto fixes from pre-commit.com hooks\n\n"
    "for more information, see https://pre-commit.ci\n\n"
    "* Address comments\n\n---------\n\n"
    "Co-authored-by: Hynek Schlawack <hs@ox.cx>\n"
    "Co-authored-by: pre-commit-ci[bot] <66853113+pre-commit-ci[bot]@users.noreply.github.com>\n"
)


def test_a_breaking_fragment_is_the_author_saying_it_breaks(tmp_path: Path) -> None:
    # attrs 6e3786c: changelog.d/1457.breaking.md; the summary had been pre-commit.ci's line
    analysis, verdicts = checked_entry(
        tmp_path,
        {"src/attr/_make.py": SETTERS},
        {"src/attr/_make.py": SETTERS_GEN, "changelog.d/1457.breaking.md": ATTRS_1457},
        ATTRS_1457_MESSAGE,
    )
    assert analysis.summary.startswith(
        "Class-level `kw_only=True` behavior is now consistent with `dataclasses`."
    )
    assert analysis.breaking and analysis.importance is Importance.HIGH
    assert any("changelog.d/1457.breaking.md" in r.description for r in analysis.risks)
    assert "pre-commit" not in entry_text(analysis)
    _no_false(verdicts)


def test_a_merge_lands_its_branchs_fragment(tmp_path: Path) -> None:
    # pluggy 9d19d4b: "Merge pull request #545 …" and the PR's title; changelog/544.bugfix.rst
    fragment = (
        "Correctly pass :class:`StopIteration` trough hook wrappers.\n\n"
        "Raising a :class:`StopIteration` in a generator triggers a :class:`RuntimeError`.\n\n"
        "If the :class:`RuntimeError` of a generator has the passed in :class:`StopIteration` "
        "as cause\nresume with that :class:`StopIteration` as normal exception instead of "
        "failing with the :class:`RuntimeError`.\n"
    )
    analysis, verdicts = checked_entry(
        tmp_path,
        {"src/pluggy/_callers.py": SETTERS},
        {"src/pluggy/_callers.py": SETTERS_GEN, "changelog/544.bugfix.rst": fragment},
        "Merge pull request #545 from RonnyPfannschmidt/ronny/fix-544-wrapper-stop-iteration"
        "-passtrough\n\nfix #544: Correctly pass StopIteration trough wrappers",
    )
    assert "Correctly pass `StopIteration` trough hook wrappers" in analysis.summary
    assert ChangeType.BUGFIX in analysis.change_types
    _no_false(verdicts)


def test_the_authors_own_words_come_before_the_fragment(tmp_path: Path) -> None:
    analysis, _ = checked_entry(
        tmp_path,
        {"src/attr/_make.py": SETTERS},
        {"src/attr/_make.py": SETTERS_GEN, "changelog.d/1592.change.md": ATTRS_1592},
        "Make on_setattr hooks accept generators\n\n"
        "A hook that yields runs its code after the set as well.",
    )
    assert analysis.summary.startswith("A hook that yields runs its code after the set")


def test_a_feature_fragment_alone_lifts_nothing_to_high(tmp_path: Path) -> None:
    before, after = {"pkg/core.py": SETTERS}, {"pkg/core.py": SETTERS_GEN}
    plain, _ = checked_entry(tmp_path / "plain", before, after, "Tidy setter hooks")
    featured, _ = checked_entry(
        tmp_path / "featured",
        before,
        {**after, "changes/12.feature.rst": "Setter hooks may be generators.\n"},
        "Tidy setter hooks",
    )
    assert featured.summary.startswith("Setter hooks may be generators.")
    # a small change its author announces to users is medium, never high by the fragment
    assert plain.importance is Importance.LOW
    assert featured.importance is Importance.MEDIUM
    assert not featured.breaking


@pytest.mark.parametrize(
    ("text", "high"),
    [
        ("Header values are checked for line breaks, GHSA-4grg-w6v8-c28g.\n", True),
        ("yarl is not affected by CVE-2024-12345; pin updated.\n", False),
    ],
)
def test_an_advisory_in_a_fragment_is_a_security_fix(
    tmp_path: Path, text: str, *, high: bool
) -> None:
    analysis, _ = checked_entry(
        tmp_path,
        {"yarl/_url.py": URL},
        # a `misc` fragment: no fix said but by the advisory
        {"yarl/_url.py": URL_FIXED, "CHANGES/99.misc.rst": text},
        "Tighten URL state",
    )
    assert (analysis.importance is Importance.HIGH) is high


def _file(path: str, text: str, status: str = "added") -> FileChange:
    patch = "@@ -0,0 +1 @@\n" + "".join(f"+{line}\n" for line in text.splitlines())
    return FileChange(filename=path, status=status, additions=1, patch=patch)


def test_only_a_towncrier_type_in_a_fragment_directory_is_a_fragment() -> None:
    found = fragments(
        [
            _file("CHANGES/1632.bugfix.rst", "Fixed pickling on 3.15."),
            _file("newsfragments/+abc.feature.1.md", "Adds a new feature."),
            _file("changelog.d/7.notes.md", "Not a towncrier type."),
            _file("docs/1.bugfix.rst", "Not a fragment directory."),
            _file("changes/3.bugfix.rst", "Changed, not added.", status="modified"),
            # yarl files one text under two types: the link is the second type, no text
            _file("CHANGES/1667.packaging.rst", "1667.breaking.rst"),
        ]
    )
    assert [(f.path, f.meaning, f.text) for f in found] == [
        ("CHANGES/1632.bugfix.rst", "bugfix", "Fixed pickling on 3.15."),
        ("newsfragments/+abc.feature.1.md", "feature", "Adds a new feature."),
        ("CHANGES/1667.packaging.rst", None, ""),
    ]


def test_keep_a_changelog_sections_as_types_say_what_the_change_is() -> None:
    # pytest-asyncio names its fragments by Keep a Changelog's sections
    # (`changelog.d/1296.fixed.rst`), configured in a pyproject.toml a commit rarely touches
    found = fragments(
        [
            _file("changelog.d/1296.fixed.rst", "Unknown loop factories are now skipped."),
            _file("changelog.d/1297.added.rst", "Adds the `loop_factories` option."),
            _file("changelog.d/1298.removed.rst", "Removed the `event_loop` fixture."),
            _file("changelog.d/1299.changed.rst", "The default scope is now the function."),
        ]
    )
    assert [(f.type, f.meaning) for f in found] == [
        ("fixed", "bugfix"),
        ("added", "feature"),
        ("removed", "breaking"),
        ("changed", None),
    ]


def test_the_projects_towncrier_table_names_its_directory_and_types() -> None:
    pyproject = FileChange(
        filename="pyproject.toml",
        after='[tool.towncrier]\ndirectory = "docs/notes"\n\n'
        '[[tool.towncrier.type]]\ndirectory = "api"\nname = "API"\n\n'
        '[[tool.towncrier.type]]\ndirectory = "bugfix"\nname = "Fixes"\n',
    )
    found = fragments(
        [
            pyproject,
            _file("docs/notes/5.api.md", "A new call."),
            _file("docs/notes/6.bugfix.md", "A fix."),
            _file("docs/notes/7.feature.md", "No type of this project's."),
            _file("changes/8.bugfix.md", "Not this project's directory."),
        ]
    )
    assert [(f.path, f.type, f.meaning) for f in found] == [
        ("docs/notes/5.api.md", "api", None),
        ("docs/notes/6.bugfix.md", "bugfix", "bugfix"),
    ]


DEPENDABOT = (
    "Bumps [actions/checkout](https://github.com/actions/checkout) from 4 to 5.\n\n"
    "[![Dependabot compatibility score](https://dependabot-badges.githubapp.com/badges/"
    "compatibility_score?dependency-name=actions/checkout&package-manager=github_actions"
    "&previous-version=4&new-version=5)](https://docs.github.com/en/github/managing-security-"
    "vulnerabilities/about-dependabot-security-updates#about-compatibility-scores)\n\n"
    "Dependabot will resolve any conflicts with this PR as long as you don't alter it "
    "yourself. You can also trigger a rebase manually by commenting `@dependabot rebase`.\n\n"
    "---\n<details>\n<summary>Dependabot commands and options</summary>\n<br />\n\n"
    "You can trigger Dependabot actions by commenting on this PR:\n"
    "- `@dependabot rebase` will rebase this PR\n"
    "- `@dependabot recreate` will recreate this PR, overwriting any edits\n</details>\n"
)
RENOVATE = (
    "This PR contains the following updates:\n\n"
    "| Package | Change | Age | Confidence |\n|---|---|---|---|\n"
    "| [ruff](https://docs.astral.sh/ruff) | `0.6.1` -> `0.6.2` | ![age](https://x) | "
    "![confidence](https://y) |\n\n"
    "### Configuration\n\n📅 **Schedule**: Branch creation - At any time (no schedule defined).\n\n"
    "🚦 **Automerge**: Disabled by config.\n\n"
    "♻ **Rebasing**: Whenever PR is behind base branch.\n\n"
    "- [ ] <!-- rebase-check -->If you want to rebase/retry this PR, check this box\n\n"
    "This PR was generated by [Mend Renovate](https://mend.io/renovate/).\n"
)


def test_bot_lines_are_no_ones_description() -> None:
    kept = without_bot_lines(DEPENDABOT)
    assert kept.startswith("Bumps [actions/checkout](https://github.com/actions/checkout) from 4")
    assert "ependabot" not in kept and "compatibility" not in kept
    kept = without_bot_lines(RENOVATE)
    assert "|" not in kept and "Schedule" not in kept and "Renovate" not in kept
    for message, words in (
        ("Bump actions/checkout from 4 to 5\n\n" + DEPENDABOT, "compatibility"),
        ("chore(deps): update ruff to v0.6.2\n\n" + RENOVATE, "renovate"),
    ):
        analysis = analyze(
            CommitInput(
                sha="a" * 40,
                message=message,
                files=[FileChange(filename=".github/workflows/ci.yml", additions=1, deletions=1)],
            )
        )
        assert words not in entry_text(analysis).lower()
        assert "dependabot" not in analysis.summary.lower()


def test_a_later_squash_steps_text_gives_way_to_the_fragment(tmp_path: Path) -> None:
    # attrs f8f7a2e: a later step's body ("Added a new TypeVar '_U'", reverted two steps on)
    # had become the summary; the first step has no text, the fragment says the change
    analysis, verdicts = checked_entry(
        tmp_path,
        {"src/attr/validators.pyi": SETTERS},
        {
            "src/attr/validators.pyi": SETTERS_GEN,
            "changelog.d/1471.change.md": (
                "The type annotation for `attrs.validators.or_()` now allows for different "
                "types of validators.\n\nThis was only an issue on Pyright.\n"
            ),
        },
        "Improve type hinting of or_ (#1471)\n\n"
        "* Improve type hinting of instance_of and or_\n\n"
        "* [pre-commit.ci] auto fixes from pre-commit.com hooks\n\n"
        "for more information, see https://pre-commit.ci\n\n"
        "* Moved _U to same location as all other TypeVar definitions\n\n"
        "Added a new TypeVar '_U' bound to UnionType for type validation.\n\n"
        "* Revert to UnionType\n\n* Add news fragment\n\n---------\n\n"
        "Co-authored-by: Hynek Schlawack <hs@ox.cx>\n",
    )
    assert analysis.summary.startswith(
        "The type annotation for `attrs.validators.or_` now allows for different types"
    )
    assert "_U" not in entry_text(analysis)
    _no_false(verdicts)


def test_a_removal_fragment_that_only_deprecates_is_a_deprecation() -> None:
    # towncrier's `removal` is "Deprecations and Removals": pluggy 5d7bd2c files a new
    # DeprecationWarning there, 431be57 the end of Python 3.8
    found = fragments(
        [
            _file(
                "changelog/632.removal.rst",
                "Hookspec methods defined without ``self`` as the first parameter now emit a "
                ":class:`DeprecationWarning`. Add ``self`` as the first parameter or use "
                "``@staticmethod``.",
            ),
            _file("changelog/556.removal.rst", "Python 3.8 is no longer supported."),
            # attrs 6851ab5
            _file(
                "changelog.d/1547.change.md",
                "The import time for `import attr` and `import attrs` has been _significantly_ "
                "improved by making expensive imports lazy.",
            ),
            _file(
                "CHANGES/1076.breaking.rst",
                "Removed support :rfc:`3986#section-3.2.3` port normalization when the scheme "
                "is not one of ``http``, ``https``, ``wss``, or ``ws`` -- by :user:`bdraco`.",
            ),
            # yarl 2c531c7: the method takes parameters; `()` only marks a method
            _file(
                "CHANGES/1316.feature.rst",
                "Added :meth:`URL.without_query_params() <yarl.URL.without_query_params>` "
                "method, to drop parameters.",
            ),
        ]
    )
    assert [f.meaning for f in found] == ["deprecation", "breaking", None, "breaking", "feature"]
    assert "has been significantly improved" in found[2].text
    assert found[4].text == "Added `URL.without_query_params` method, to drop parameters."
    assert found[0].text.startswith("Hookspec methods defined without `self`")
    assert found[3].text == (
        "Removed support RFC 3986 port normalization when the scheme is not one of `http`, "
        "`https`, `wss`, or `ws`."
    )


def test_the_step_named_like_the_title_keeps_the_authors_words_first(tmp_path: Path) -> None:
    # attrs 5aa76a4: the first step is an unrelated docstring fix; the step named like the
    # title says what the validator does, before the fragment's shorter words
    analysis, _ = checked_entry(
        tmp_path,
        {"src/attr/validators.py": SETTERS},
        {
            "src/attr/validators.py": SETTERS_GEN,
            "changelog.d/1571.change.md": "Added new validator `attrs.validators.ne()`.\n",
        },
        "Add `ne` validator (#1571)\n\n"
        "* Fix inconsistent formatting for Args and Raises docstrings\n\n"
        "* Add `ne` validator\n\n"
        "This change adds a validator that raises `ValueError` if the\n"
        "initializer is called with a number equal to *val*.\n\n"
        "* Fix news fragments\n\n---------\n\nCo-authored-by: Hynek Schlawack <hs@ox.cx>\n",
    )
    assert analysis.summary.startswith("This change adds a validator that raises `ValueError`")


# multidict edb61e8: the PR template's story ("This was based off a user-accessible segfault
# found by @devdanzin. …"), and CHANGES/1310.bugfix.rst word for word
MULTIDICT_1310_MESSAGE = (
    "fix format error that leads to segfaults (#1310)\n\n"
    "<!-- Thank you for your contribution! -->\n\n"
    "## What do these changes do?\n\n"
    "This was based off a user-accessible segfault found by @devdanzin. Not\n"
    "sure how this appeared out of nowhere but my best assumption it could've\n"
    "been caused by developer fatigue or burn out.\n"
)
MULTIDICT_1310 = (
    "A segmentation fault that could be triggered when getting an item is now fixed\n"
    "-- by :user:`Vizonex`.\n"
)


def test_a_templates_story_gives_way_to_the_fragment(tmp_path: Path) -> None:
    analysis, verdicts = checked_entry(
        tmp_path,
        {"multidict/_multidict.py": SETTERS},
        {"multidict/_multidict.py": SETTERS_GEN, "CHANGES/1310.bugfix.rst": MULTIDICT_1310},
        MULTIDICT_1310_MESSAGE,
    )
    assert analysis.summary == (
        "A segmentation fault that could be triggered when getting an item is now fixed."
    )
    _no_false(verdicts)


def test_a_fragment_says_more_than_its_first_sentence(tmp_path: Path) -> None:
    # multidict 964d65f: "Closes #1195"; CHANGES/1195.bugfix.rst word for word, its second
    # paragraph says where the bug came from, its third only credits
    fragment = (
        "Fix a bug in C implementation when during multidict resizing the function could drop\n"
        "last item under some circumstances.\n\n"
        "The bug was introduced by multidict 6.5.0 release.\n\n"
        "Patch by :user:`asvetlov`.\n"
    )
    analysis, verdicts = checked_entry(
        tmp_path,
        {"multidict/_multidict.py": SETTERS},
        {"multidict/_multidict.py": SETTERS_GEN, "CHANGES/1195.bugfix.rst": fragment},
        "Issue 1195 (#1196)\n\nCloses #1195\n",
    )
    assert analysis.summary == (
        "Fix a bug in C implementation when during multidict resizing the function could drop "
        "last item under some circumstances. The bug was introduced by multidict 6.5.0 release."
    )
    _no_false(verdicts)


def test_a_squashed_branchs_steps_give_way_to_the_fragment(tmp_path: Path) -> None:
    # pytest-asyncio 837b2bf: the steps ("fix linters issue", "added changelog entry") and
    # changelog.d/1189.added.rst, a Keep a Changelog item that names what it adds
    analysis, verdicts = checked_entry(
        tmp_path,
        {"pytest_asyncio/plugin.py": SETTERS},
        {
            "pytest_asyncio/plugin.py": SETTERS_GEN,
            "changelog.d/1189.added.rst": (
                "A ``pytest.UsageError`` for invalid configuration values of "
                "``asyncio_default_fixture_loop_scope`` and ``asyncio_default_test_loop_scope``.\n"
            ),
        },
        "feat: Add validation for asyncio_default_fixture_loop_scope and "
        "asyncio_default_test_loop_scope\n\n"
        "fix linters issue\n\nadded changelog entry\n\n"
        "[pre-commit.ci] auto fixes from pre-commit.com hooks\n\n"
        "for more information, see https://pre-commit.ci\n\ndocs: Reword changelog entry.\n",
    )
    assert analysis.summary == (
        "Adds a `pytest.UsageError` for invalid configuration values of "
        "`asyncio_default_fixture_loop_scope` and `asyncio_default_test_loop_scope`."
    )
    _no_false(verdicts)


@pytest.mark.parametrize(
    ("path", "text", "summary"),
    [
        # pytest-asyncio 94f6106: under "Fixed", the error it fixed
        (
            "changelog.d/1177.fixed.rst",
            "``RuntimeError: There is no current event loop in thread 'MainThread'`` when any "
            "test unsets the event loop (such as when using ``asyncio.run`` and "
            "``asyncio.Runner``).\n",
            "Fixes `RuntimeError: There is no current event loop in thread 'MainThread'` when "
            "any test unsets the event loop (such as when using `asyncio.run` and "
            "`asyncio.Runner`).",
        ),
        # pytest-asyncio 959c9f0: under "Removed", what went
        (
            "changelog.d/1106.removed.rst",
            "The deprecated *event_loop* fixture.\n",
            "Removes the deprecated event_loop fixture.",
        ),
        # multidict 820631f: a sentence of its own stays as written
        (
            "CHANGES/1233.bugfix.rst",
            "Fixed ``MutliDict`` & ``CIMultiDict`` memory leak when deleting values or clearing "
            "them\n-- by :user:`Vizonex`\n",
            "Fixed `MutliDict` & `CIMultiDict` memory leak when deleting values or clearing them.",
        ),
        # filelock 0f86a94: two names with their own verb, a sentence of its own
        (
            "docs/changelog/660.bugfix.rst",
            "``SoftFileLock`` and ``SoftFileLease`` record the holder's process start time on "
            "every platform.\n",
            "`SoftFileLock` and `SoftFileLease` record the holder's process start time on every "
            "platform.",
        ),
    ],
)
def test_an_item_that_names_a_thing_is_led_by_its_section(
    tmp_path: Path, path: str, text: str, summary: str
) -> None:
    analysis, _ = checked_entry(
        tmp_path,
        {"pkg/plugin.py": SETTERS},
        {"pkg/plugin.py": SETTERS_GEN, path: text},
        "Mention the fix\n\nCo-authored-by: A Person <a@example.com>\n",
    )
    assert analysis.summary == summary


@pytest.mark.parametrize(
    "body", ["", "\n\nThis allows adding fragments to further pre-releases.\n"]
)
def test_a_note_moved_from_the_changelog_into_a_fragment_is_not_this_change(
    tmp_path: Path, body: str
) -> None:
    # pytest-asyncio 4f27d52: the release's notes moved out of docs/reference/changelog.rst
    # into fragments; the commit adds no support for Python 3.14
    changelog = (
        "Changelog\n=========\n\n1.0.0a1 - 2025-05-09\n====================\n\nAdded\n-----\n\n"
        "- Prelimiary support for Python 3.14 (`#1025 <https://example.com/1025>`_)\n"
    )
    analysis, _ = checked_entry(
        tmp_path,
        {"docs/reference/changelog.rst": changelog},
        {
            "docs/reference/changelog.rst": "Changelog\n=========\n",
            "changelog.d/1025.added.rst": "Prelimiary support for Python 3.14\n",
        },
        "docs: Disassemble v1.0.0a1 changelog into fragments." + body,
    )
    assert "3.14" not in analysis.summary


def test_a_fragments_hard_wrapped_parenthesis_and_roles_stay_in_its_sentence() -> None:
    # yarl 2f3bfec's and 315a7aa's fragments: a wrapped line that is all parenthesis, a `:pr:`
    found = fragments(
        [
            _file(
                "CHANGES/1669.bugfix.rst",
                "Fixed a parser/serializer inconsistency where the requoter emitted an\n"
                "absolute URL while the parsed properties\n"
                "(:attr:`~yarl.URL.scheme`, :attr:`~yarl.URL.host`)\n"
                "reported a relative, hostless URL -- by :user:`rodrigobnogueira`.\n",
            ),
            _file(
                "CHANGES/1764.packaging.rst",
                "The ``setuptools`` build dependency lower bound has been restored to be\n"
                "``>= 47`` after an incorrect automated increase in :pr:`1657`\n"
                "-- by :user:`bbhtt`.\n",
            ),
        ]
    )
    assert [f.text for f in found] == [
        "Fixed a parser/serializer inconsistency where the requoter emitted an absolute URL "
        "while the parsed properties (`scheme`, `host`) reported a relative, hostless URL.",
        "The `setuptools` build dependency lower bound has been restored to be `>= 47` after "
        "an incorrect automated increase in #1657.",
    ]
