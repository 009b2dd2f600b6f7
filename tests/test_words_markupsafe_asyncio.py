"""Words on the last held-out repositories (pallets/markupsafe, aio-libs/multidict,
pytest-dev/pytest-asyncio, first read at 5299f44): methods a class defines under an `if`,
a dependency group written beside the extras; each a clone shaped like the commit."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.cli.claim_check import Verdict
from bot.cli.claims_eval import entry_text
from tests.clones import checked_entry

pytestmark = pytest.mark.usefixtures("environ_clean", "keep_test_logging")


def test_a_method_a_class_defined_under_an_if_is_not_added_when_the_if_goes(
    tmp_path: Path,
) -> None:
    # markupsafe 9372f38 "drop support for python 3.8": `if sys.version_info >= (3, 9):`
    # around `Markup.removeprefix` went; the entry said "Adds `Markup.removeprefix(…)`"
    methods = (
        "{i}def removeprefix(self, prefix: str, /) -> str:\n"
        "{i}    return self.__class__(super().removeprefix(prefix))\n\n"
        "{i}def removesuffix(self, suffix: str) -> str:\n"
        "{i}    return self.__class__(super().removesuffix(suffix))\n"
    )
    head = (
        'import sys\n\n\nclass Markup(str):\n    def unescape(self) -> str:\n        return ""\n\n'
    )
    before = head + "    if sys.version_info >= (3, 9):\n\n" + methods.format(i=" " * 8)
    after = head + methods.format(i=" " * 4)
    project = '[project]\nname = "MarkupSafe"\nrequires-python = ">={v}"\n'
    analysis, verdicts = checked_entry(
        tmp_path,
        {"src/markupsafe/__init__.py": before, "pyproject.toml": project.format(v="3.8")},
        {"src/markupsafe/__init__.py": after, "pyproject.toml": project.format(v="3.9")},
        "drop support for python 3.8",
    )
    text = entry_text(analysis)
    assert "removeprefix" not in text and "removesuffix" not in text
    assert "`python>=3.9` (was `>=3.8`)" in text
    assert all(v is Verdict.TRUE for v in verdicts)


def test_dependency_groups_beside_the_extras_require_nothing_new(tmp_path: Path) -> None:
    # pytest-asyncio 7cbf02f "Use uv and depency-groups": the groups pin `coverage==7.3.2`
    # (the `testing` extra asks `coverage>=6.2`) and repeat the `docs` extra's `sphinx>=5.3`;
    # the entry said "Requires `coverage==7.3.2`, …, `sphinx>=5.3`"
    project = (
        '[project]\nname = "pytest-asyncio"\ndependencies = ["pytest>=8.2,<9"]\n'
        'optional-dependencies.docs = ["sphinx>=5.3", "sphinx-rtd-theme>=1"]\n'
        'optional-dependencies.testing = ["coverage>=6.2", "hypothesis>=5.7.1"]\n'
    )
    groups = (
        '\n[dependency-groups]\ndocs = [\n  "sphinx>=5.3",\n  "sphinx-rtd-theme>=1",\n]\n'
        'pytest-min = [\n  "coverage==7.3.2",\n  "hypothesis==6.88.3",\n]\n'
    )
    analysis, verdicts = checked_entry(
        tmp_path,
        {"pyproject.toml": project},
        {"pyproject.toml": project + groups},
        "Use uv and dependency groups",
    )
    assert "Requires" not in entry_text(analysis)
    assert all(v is Verdict.TRUE for v in verdicts)


def test_a_changelog_entry_rewritten_is_no_description_of_this_commit(tmp_path: Path) -> None:
    # structlog f2992ea "Markup": `*RecursionError*` became `` `RecursionError` `` in an
    # entry of an earlier release; the entry was read as this commit's own change
    log = (
        "# Changelog\n\n## 25.1.0\n\n### Fixed\n\n"
        "- `structlog.tracebacks.extract()` no longer raises a {err} when the cause chain"
        " of an exception contains itself.\n"
    )
    analysis, verdicts = checked_entry(
        tmp_path,
        {"CHANGELOG.md": log.format(err="*RecursionError*"), "src/structlog/x.py": "X = 1\n"},
        {"CHANGELOG.md": log.format(err="`RecursionError`"), "src/structlog/x.py": "X = 1\n"},
        "Markup",
    )
    assert "no longer raises" not in entry_text(analysis)
    assert all(v is Verdict.TRUE for v in verdicts)


def test_a_value_set_to_an_empty_string_is_said_as_written(tmp_path: Path) -> None:
    # yarl 89c86ae: a workflow input's `default: '0'` became `default: ''`, said "to ``",
    # an empty code span that swallowed the rest of the line
    workflow = (
        "on:\n  workflow_call:\n    inputs:\n      wheel-tags-to-skip:\n"
        "        type: string\n        default: {v}\n"
    )
    analysis, _ = checked_entry(
        tmp_path,
        {".github/workflows/reusable-build-wheel.yml": workflow.format(v="'0'")},
        {".github/workflows/reusable-build-wheel.yml": workflow.format(v="''")},
        "Let the wheel build skip nothing by default",
    )
    text = entry_text(analysis)
    assert "from `0` to `''`" in text and "``" not in text


def test_a_deleted_stub_a_swapped_marker_and_an_abstract_default_change_nothing(
    tmp_path: Path,
) -> None:
    # multidict fe4dee0 "Strict typing": `__init__.pyi` deleted (it declared
    # `extend(self, arg=..., **kwargs)`), `_marker = object()` swapped for `sentinel`, an
    # abstract `getall(self, key, default=None)` now `default: _T = ...`; the entry said
    # "gains the parameter `arg=None`", "Changes the default of `default` … from `None` to `...`"
    # and was ⚠️ breaking
    stub = (
        "class MultiDict:\n    def extend(self, arg: object = ..., **kwargs: object) -> None: ...\n"
    )
    abc_before = (
        "import abc\n\n\nclass MultiMapping:\n    @abc.abstractmethod\n"
        "    def getall(self, key, default=None):\n        raise KeyError\n"
    )
    abc_after = (
        "import abc\n\n\nclass MultiMapping:\n    @abc.abstractmethod\n"
        "    def getall(self, key: str, default: object = ...) -> object:\n"
        '        """Return all values for key."""\n'
    )
    impl = (
        "{marker} = object()\n\n\nclass MultiDict:\n"
        "    def getall(self, key, default={marker}):\n"
        "        if default is not {marker}:\n            return default\n        raise KeyError(key)\n\n"
        "    def extend(self, {params}):\n        self._items = list({params_used})\n"
    )
    analysis, verdicts = checked_entry(
        tmp_path,
        {
            "multidict/__init__.pyi": stub,
            "multidict/_abc.py": abc_before,
            "multidict/_multidict_py.py": impl.format(
                marker="_marker", params="*args, **kwargs", params_used="args"
            ),
        },
        {
            "multidict/__init__.pyi": None,
            "multidict/_abc.py": abc_after,
            "multidict/_multidict_py.py": impl.format(
                marker="sentinel", params="arg=None, /, **kwargs", params_used="arg or ()"
            ),
        },
        "Strict typing (#1046)",
    )
    text = entry_text(analysis)
    assert "gains the parameter" not in text and "`arg=None`" not in text
    assert "default of" not in text and not analysis.breaking
    assert all(v is Verdict.TRUE for v in verdicts)


def test_a_loosened_build_pin_asks_nobody_to_update(tmp_path: Path) -> None:
    # pytest-asyncio ba837fe "build: Revert pinning of build-time dependencing due to issues
    # with downstream packaging.": `setuptools==80.9` → `>=77`, `setuptools-scm==9.2` →
    # `setuptools-scm[toml]>=6.2`; the entry said "Update development environments to
    # `setuptools>=77`, …" and lost the second pin's old value
    project = '[build-system]\nrequires = [\n  "{a}",\n  "{b}",\n]\n\n[project]\nname = "x"\n'
    analysis, verdicts = checked_entry(
        tmp_path,
        {"pyproject.toml": project.format(a="setuptools==80.9", b="setuptools-scm==9.2")},
        {"pyproject.toml": project.format(a="setuptools>=77", b="setuptools-scm[toml]>=6.2")},
        "build: Revert pinning of build-time dependencing due to issues with downstream packaging.",
    )
    text = entry_text(analysis)
    assert "`setuptools-scm[toml]>=6.2` (was `==9.2`)" in text
    assert "Update development environments" not in text
    assert all(v is Verdict.TRUE for v in verdicts)


def test_a_raised_build_floor_is_said_as_what_building_needs(tmp_path: Path) -> None:
    project = '[build-system]\nrequires = [\n  "{a}",\n]\n\n[project]\nname = "x"\n'
    analysis, _ = checked_entry(
        tmp_path,
        # the commit ba837fe reverted, pinning what had been a floor
        {"pyproject.toml": project.format(a="setuptools>=77")},
        {"pyproject.toml": project.format(a="setuptools==80.9")},
        "build: Revert loosening of build-time dependencies.",
    )
    # (what only `[build-system] requires` lists is no development environment's update)
    text = entry_text(analysis)
    assert "Building the package now requires `setuptools==80.9` (was `>=77`)." in text
    assert "Update development environments" not in text


@pytest.mark.parametrize(
    ("before", "after", "importance"),
    [
        # pytest-asyncio f8b1c75 "Raise minimum pytest version to v8.4": installs change
        (">=8.2,<9", ">=8.4,<9", "medium"),
        # an upper bound lifted: every install that worked still does
        (">=8.2,<9", ">=8.2,<10", "low"),
    ],
)
def test_a_raised_floor_of_a_runtime_requirement_is_medium(
    tmp_path: Path, before: str, after: str, importance: str
) -> None:
    project = '[project]\nname = "pytest-asyncio"\ndependencies = ["pytest{spec}"]\n'
    analysis, _ = checked_entry(
        tmp_path,
        {"pyproject.toml": project.format(spec=before)},
        {"pyproject.toml": project.format(spec=after)},
        "Change the supported pytest versions",
    )
    assert analysis.importance.value == importance
