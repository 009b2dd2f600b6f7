"""Dev tooling (lock files, tool settings, CI and pre-commit pins, benchmarks) rated low, a pin
said with the hook or action it belongs to and checked against the YAML, and a tool's
setting never the summary of a change of shipped code: commits shaped like attrs 27b3c37,
pluggy 09baae8 and e2dcf96, yarl cf0ab10, 5fdf03b and 2373628."""

from __future__ import annotations

import difflib
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.analysis.facts.parses import Parses
from bot.analysis.paths import dev_tooling
from bot.analysis.rules import analyze
from bot.analysis.sources import worth_reading
from bot.analysis.unshipped import shipped_build_line
from bot.cli.claim_check import Checker, Clone, Verdict
from bot.cli.claims import Kind, claims_in
from bot.models import CommitInput, FileChange, Importance
from tests.clones import _git, checked_entry, commit_files

pytestmark = pytest.mark.usefixtures("environ_clean", "keep_test_logging")


def change(path: str, before: str | None, after: str | None) -> FileChange:
    """A file's change as GitHub gives it: a unified diff's hunks, both whole texts."""
    old = (before or "").splitlines(keepends=True)
    new = (after or "").splitlines(keepends=True)
    lines = list(difflib.unified_diff(old, new, n=3))[2:]
    status = "added" if before is None else "removed" if after is None else "modified"
    return FileChange(
        filename=path,
        status=status,
        additions=sum(1 for x in lines if x.startswith("+")),
        deletions=sum(1 for x in lines if x.startswith("-")),
        patch="".join(lines).rstrip("\n"),
        before=before,
        after=after,
    )


def commit(message: str, *files: FileChange) -> CommitInput:
    return CommitInput(sha="a" * 40, message=message, files=list(files))


# attrs 27b3c37 "Update dev", its files at the parent
CODEQL = """---
name: CodeQL

on:
  schedule:
    - cron: "30 22 * * 4"

permissions:
  contents: read

jobs:
  analyze:
    name: Analyze
    runs-on: ubuntu-latest
    permissions:
      actions: read
      contents: read
      security-events: write

    strategy:
      fail-fast: false
      matrix:
        language: [python]

    steps:
      - name: Checkout repository
        uses: actions/checkout@08c6903cd8c0fde910a37f88322edcfb5dd907a8 # v5.0.0
        with:
          persist-credentials: false

      - name: Initialize CodeQL
        uses: github/codeql-action/init@192325c86100d080feab897ff886c34abd4c83a3 # v3.30.3
        with:
          languages: ${{ matrix.language }}

      - name: Autobuild
        uses: github/codeql-action/autobuild@192325c86100d080feab897ff886c34abd4c83a3 # v3.30.3

      - name: Perform CodeQL Analysis
        uses: github/codeql-action/analyze@192325c86100d080feab897ff886c34abd4c83a3 # v3.30.3
"""
CODEQL_AFTER = CODEQL.replace(
    "192325c86100d080feab897ff886c34abd4c83a3 # v3.30.3",
    "3599b3baa15b485a2e49ef411a7a4bb2452e7f93 # v3.30.5",
)
ATTRS_PRE_COMMIT = """---
ci:
  autoupdate_schedule: monthly

repos:
  - repo: https://github.com/astral-sh/ruff-pre-commit
    rev: v0.13.1
    hooks:
      - id: ruff-check
        args: [--fix, --exit-non-zero-on-fix]
      - id: ruff-format

  - repo: https://github.com/econchick/interrogate
    rev: 1.7.0
    hooks:
      - id: interrogate
"""
UV_LOCK = """version = 1
revision = 3
requires-python = ">=3.9"

[[package]]
name = "ruff"
version = "{ruff}"
source = {{ registry = "https://pypi.org/simple" }}
"""
# a lock update too large to be a tiny tweak (80 packages)
BIG_LOCK = "".join(UV_LOCK.format(ruff=f"0.13.{i}") for i in range(80))

# pluggy e2dcf96 "[pre-commit.ci] pre-commit autoupdate, fix 'sphinx.configuration'"
PLUGGY_PRE_COMMIT = """repos:
- repo: https://github.com/astral-sh/ruff-pre-commit
  rev: "v0.8.6"
  hooks:
    - id: ruff
      args: ["--fix"]
    - id: ruff-format
-   repo: https://github.com/PyCQA/autoflake
    rev: v2.3.1
    hooks:
    -   id: autoflake
        name: autoflake
        args: ["--in-place", "--remove-unused-variables", "--remove-all-unused-imports"]
        language: python
        files: \\.py$
-   repo: https://github.com/pre-commit/pre-commit-hooks
    rev: v2.1.0
    hooks:
    -   id: trailing-whitespace
    -   id: end-of-file-fixer
    -   id: flake8
        additional_dependencies: [flake8-typing-imports]
-   repo: https://github.com/pre-commit/pygrep-hooks
    rev: v1.10.0
    hooks:
    -   id: rst-backticks
"""
HOOKS_BEFORE = """class HookCaller:
    def __call__(self, **kwargs: object) -> object:
        assert (
            not self.is_historic()
        ), "Cannot directly call a historic hook - use call_historic instead."
        return self._hookexec(self.name, self._hookimpls, kwargs, False)
"""
HOOKS_AFTER = """class HookCaller:
    def __call__(self, **kwargs: object) -> object:
        assert not self.is_historic(), (
            "Cannot directly call a historic hook - use call_historic instead."
        )
        return self._hookexec(self.name, self._hookimpls, kwargs, False)
"""
READTHEDOCS = "version: 2\n\npython:\n  install:\n    - requirements: docs/requirements.txt\n"


def test_ci_pins_a_hook_rev_and_a_lock_file_are_low_and_name_the_action() -> None:
    # attrs 27b3c37: codeql-action v3.30.3 → v3.30.5, the ruff hook, uv.lock
    analysis = analyze(
        commit(
            "Update dev",
            change(".github/workflows/codeql-analysis.yml", CODEQL, CODEQL_AFTER),
            change(
                ".pre-commit-config.yaml",
                ATTRS_PRE_COMMIT,
                ATTRS_PRE_COMMIT.replace("v0.13.1", "v0.13.2"),
            ),
            change("uv.lock", BIG_LOCK, BIG_LOCK.replace("0.13.", "0.14.")),
        )
    )
    assert analysis.importance is Importance.LOW
    assert analysis.summary == (
        "Updates the GitHub Action `github/codeql-action` from `v3.30.3` to `v3.30.5` in "
        "`.github/workflows/codeql-analysis.yml`."
    )


def test_a_pre_commit_rev_names_its_hook() -> None:
    # pluggy e2dcf96's config, its title's own words set aside
    analysis = analyze(
        commit(
            "pre-commit autoupdate",
            change(
                ".pre-commit-config.yaml",
                PLUGGY_PRE_COMMIT,
                PLUGGY_PRE_COMMIT.replace('"v0.8.6"', '"v0.9.1"'),
            ),
        )
    )
    assert analysis.summary == (
        "Updates the pre-commit hook `astral-sh/ruff-pre-commit` from `v0.8.6` to `v0.9.1`."
    )


def test_a_formatters_rewrap_beside_a_hook_update_is_low() -> None:
    # pluggy e2dcf96: ruff 0.9 re-wraps two asserts; the Read the Docs setting is docs
    analysis = analyze(
        commit(
            "[pre-commit.ci] pre-commit autoupdate, fix 'sphinx.configuration' (#561)",
            change(
                ".pre-commit-config.yaml",
                PLUGGY_PRE_COMMIT,
                PLUGGY_PRE_COMMIT.replace('"v0.8.6"', '"v0.9.1"'),
            ),
            change(
                ".readthedocs.yml",
                READTHEDOCS,
                READTHEDOCS + "sphinx:\n  configuration: docs/conf.py\n",
            ),
            change("src/pluggy/_hooks.py", HOOKS_BEFORE, HOOKS_AFTER),
        )
    )
    assert analysis.importance is Importance.LOW


def test_a_hook_dropped_beside_a_rev_bump_keeps_each_rev_with_its_hook() -> None:
    # pluggy 09baae8's config: ruff v0.15.22 → v0.16.2, flake8 dropped from pre-commit-hooks
    before = PLUGGY_PRE_COMMIT.replace('"v0.8.6"', '"v0.15.22"').replace(
        "- id: ruff\n", "- id: ruff-check\n"
    )
    after = before.replace('"v0.15.22"', '"v0.16.2"').replace(
        "    -   id: flake8\n        additional_dependencies: [flake8-typing-imports]\n", ""
    )
    analysis = analyze(
        commit("pre-commit autoupdate", change(".pre-commit-config.yaml", before, after))
    )
    assert analysis.summary == (
        "Updates the pre-commit hook `astral-sh/ruff-pre-commit` from `v0.15.22` to `v0.16.2`."
    )


def test_a_rev_whose_entry_does_not_open_with_its_repo_names_no_hook() -> None:
    before = "repos:\n-   rev: v1.0.0\n    repo: https://github.com/o/second\n    hooks:\n    -   id: x\n"
    analysis = analyze(
        commit(
            "pre-commit autoupdate",
            change(".pre-commit-config.yaml", before, before.replace("v1.0.0", "v1.1.0")),
        )
    )
    assert "pre-commit hook" not in analysis.summary


BENCHMARK = '''"""codspeed benchmarks for yarl.URL."""

from pytest_codspeed import BenchmarkFixture

from yarl import URL

MANY_HOSTS = [f"www.domain{i}.tld" for i in range(256)]


def test_url_build_with_host_and_port(benchmark: BenchmarkFixture) -> None:
    @benchmark
    def _run() -> None:
        for _ in range(100):
            URL.build(host="www.domain.tld", path="/req", port=1234)
'''


def test_a_new_benchmark_script_is_low() -> None:
    # yarl cf0ab10 "Add benchmark script for URLs (#1191)": url_benchmark.py only
    analysis = analyze(
        commit("Add benchmark script for URLs (#1191)", change("url_benchmark.py", None, BENCHMARK))
    )
    assert analysis.importance is Importance.LOW


COVERAGERC = """[run]
branch = True
source = yarl

[report]
fail_under = 98.87
skip_covered = true
"""
URL_BEFORE = '''import sys
from urllib.parse import SplitResult, urlsplit


class URL:
    def __new__(cls, val: str = "") -> "URL":
        """A URL from a string."""
        val = urlsplit(val)
        self = object.__new__(cls)
        self._val = val
        return self
'''
URL_AFTER = '''import sys
import unicodedata
from functools import lru_cache
from urllib.parse import SplitResult


@lru_cache
def _split_url(url: str) -> SplitResult:
    """Split a URL as urlsplit does, the netloc checked with unicodedata loaded at import."""
    scheme, _, rest = url.partition("://")
    netloc, _, path = rest.partition("/")
    _check_netloc(netloc)
    return SplitResult(scheme, netloc, "/" + path, "", "")


def _check_netloc(netloc: str) -> None:
    n = netloc.replace("@", "").replace(":", "")
    if n.isascii():
        return
    normalized = unicodedata.normalize("NFKC", n)
    if n == normalized:
        return
    raise ValueError(f"netloc {netloc!r} contains invalid characters under NFKC normalization")


class URL:
    def __new__(cls, val: str = "") -> "URL":
        """A URL from a string."""
        val = _split_url(val)
        self = object.__new__(cls)
        self._val = val
        return self
'''


def test_a_coverage_setting_is_never_the_summary_of_a_code_fix() -> None:
    # yarl 5fdf03b: `fail_under` 98.87 → 98.95 beside the fix of a blocking import
    analysis = analyze(
        commit(
            "Fix blocking I/O to load python code when the network location contains "
            "non-ascii characters (#1342)",
            change(".coveragerc", COVERAGERC, COVERAGERC.replace("98.87", "98.95")),
            change("yarl/_url.py", URL_BEFORE, URL_AFTER),
        )
    )
    assert analysis.importance is not Importance.LOW
    assert "fail_under" not in analysis.summary
    said = " ".join(
        v for v in (analysis.insights.model_dump() if analysis.insights else {}).values() if v
    )
    assert "fail_under" not in said


def test_a_coverage_setting_alone_is_said() -> None:
    analysis = analyze(
        commit(
            "Raise coverage",
            change(".coveragerc", COVERAGERC, COVERAGERC.replace("98.87", "98.95")),
        )
    )
    assert analysis.importance is Importance.LOW
    assert analysis.summary == "Changes `fail_under` from `98.87` to `98.95` in `.coveragerc`."


CI_CD = """jobs:
  test:
    strategy:
      matrix:
        pyver:
        - 3.14t
        - 3.14
        - 3.13t
        - 3.13
"""
PYPROJECT = """[build-system]
requires = ["setuptools>=61"]

[project]
name = "yarl"
dependencies = ["idna>=2.0", "multidict>=4.0"]

[dependency-groups]
tests = ["pytest"]
pyrefly = ["pyrefly", { include-group = "tests" }]

[tool.cibuildwheel]
build-frontend = "build"
enable = ["cpython-freethreading"]

[tool.pyright]
include = ["typing-examples/baseline.py"]
"""


def test_wheels_no_longer_built_are_no_tooling() -> None:
    # yarl 2373628 "Drop support for 3.13t": a cibuildwheel setting and a CI matrix entry
    analysis = analyze(
        commit(
            "Drop support for 3.13t (#1667)",
            change(".github/workflows/ci-cd.yml", CI_CD, CI_CD.replace("        - 3.13t\n", "")),
            change("CHANGES/1667.breaking.rst", None, "Dropped support for Python 3.13t.\n"),
            change(
                "pyproject.toml",
                PYPROJECT,
                PYPROJECT.replace('enable = ["cpython-freethreading"]\n', ""),
            ),
        )
    )
    assert analysis.importance is Importance.HIGH


def test_a_ci_line_about_wheels_keeps_a_lock_update_out_of_tooling() -> None:
    workflow = "jobs:\n  wheels:\n    steps:\n      - run: python -m cibuildwheel\n"
    analysis = analyze(
        commit(
            "Update dev",
            change(
                ".github/workflows/ci.yml",
                workflow,
                workflow.replace("python -m cibuildwheel", "echo"),
            ),
            change("uv.lock", BIG_LOCK, BIG_LOCK.replace("0.13.", "0.14.")),
        )
    )
    assert analysis.importance is not Importance.LOW


def test_dev_tables_of_pyproject_are_tooling_its_project_table_is_not() -> None:
    # attrs c5baf90: a dependency group's pin and a type checker's settings
    dev = PYPROJECT.replace('"pyrefly",', '"pyrefly>=1.2.0",').replace(
        "baseline.py", 'baseline.py", "typing-examples/pyrefly.py'
    )
    shipped = PYPROJECT.replace("multidict>=4.0", "multidict>=4.5")
    assert dev_tooling(change("pyproject.toml", PYPROJECT, dev))
    assert not dev_tooling(change("pyproject.toml", PYPROJECT, shipped))
    assert not dev_tooling(
        change("pyproject.toml", PYPROJECT, PYPROJECT.replace("enable = [", 'enable = ["pypy", '))
    )
    # without both texts, which table a line lies in is not known
    assert not dev_tooling(
        change("pyproject.toml", PYPROJECT, dev).model_copy(update={"before": None})
    )
    analysis = analyze(
        commit(
            "Add typing examples for Pyrefly's new attrs support (#1588)",
            change("pyproject.toml", PYPROJECT, dev),
            change("uv.lock", UV_LOCK.format(ruff="0.13.1"), UV_LOCK.format(ruff="0.13.2")),
            change(
                "tox.ini",
                "[tox]\nenv_list = py3{9,14}\n",
                "[tox]\nenv_list = py3{9,14}, typing-pyrefly\n",
            ),
            change(
                "typing-examples/pyrefly.py",
                None,
                "import attrs\n\n\n@attrs.define\nclass C:\n    a: int\n",
            ),
        )
    )
    assert analysis.importance is Importance.LOW
    requirement = analyze(
        commit(
            "Require multidict 4.5",
            change("pyproject.toml", PYPROJECT, shipped),
            change("uv.lock", BIG_LOCK, BIG_LOCK.replace("0.13.", "0.14.")),
        )
    )
    assert requirement.importance is not Importance.LOW


# tinydb c17a91d "build: add sphinx to dev dependencies", its pyproject.toml shortened
POETRY_PYPROJECT = """[tool.poetry]
name = "tinydb"
version = "3.15.1"

[tool.poetry.dependencies]
python = "^3.5"

[tool.poetry.dev-dependencies]
pytest = "^5.2.2"
pytest-cov = "^2.8.1"
pycodestyle = "^2.5.0"

[tool.poetry.extras]
ci = ["pyyaml", "pytest-azurepipelines", "coveralls"]
"""
POETRY_LOCK = """[[package]]
name = "pytest"
version = "{pytest}"
category = "dev"
optional = false
"""


def test_poetrys_dev_dependencies_are_tooling() -> None:
    # c17a91d was medium ("build of limited reach"): a tool only developers install, and
    # its lock
    dev = POETRY_PYPROJECT.replace(
        'pycodestyle = "^2.5.0"\n', 'pycodestyle = "^2.5.0"\nsphinx = "^2.2.1"\n'
    )
    assert dev_tooling(change("pyproject.toml", POETRY_PYPROJECT, dev))
    shipped = POETRY_PYPROJECT.replace('python = "^3.5"\n', 'python = "^3.5"\nujson = "^1.35"\n')
    assert not dev_tooling(change("pyproject.toml", POETRY_PYPROJECT, shipped))
    lock = POETRY_LOCK.format(pytest="5.2.2")
    analysis = analyze(
        commit(
            "build: add sphinx to dev dependencies",
            change("pyproject.toml", POETRY_PYPROJECT, dev),
            change(
                "poetry.lock",
                lock,
                lock + POETRY_LOCK.format(pytest="5.3.0").replace("pytest", "sphinx"),
            ),
        )
    )
    assert analysis.importance is Importance.LOW


def test_a_poetry_extra_only_developers_install_is_tooling() -> None:
    # tinydb ec57f83 "ci: install CI dependencies using poetry" was medium: a `ci` extra of
    # optional dev dependencies in a new `[tool.poetry.extras]` table, and `tox` dropped
    before = POETRY_PYPROJECT.split("[tool.poetry.extras]", maxsplit=1)[0].replace(
        'pycodestyle = "^2.5.0"\n', 'pycodestyle = "^2.5.0"\ntox = "^3.14.0"\n'
    )
    after = POETRY_PYPROJECT.replace(
        'pytest = "^5.2.2"\n',
        'coveralls = {version = "^1.8.2", optional = true}\npytest = "^5.2.2"\n',
    )
    assert dev_tooling(change("pyproject.toml", before, after))
    lock = change(
        "poetry.lock",
        POETRY_LOCK.format(pytest="5.2.2"),
        POETRY_LOCK.format(pytest="5.2.2").replace("pytest", "coveralls"),
    )
    # the test job's tools lose `wheel`; the job builds the dist only to check it
    workflow = (
        "steps:\n- script: |\n    pip install -U pytest coveralls wheel twine poetry\n"
        "- script: |\n    poetry build\n    twine check dist/*\n"
    )
    ci = workflow.replace(
        "pip install -U pytest coveralls wheel twine poetry",
        "pip install -U poetry twine\n    poetry install -E ci",
    )
    entry = analyze(
        commit(
            "ci: install CI dependencies using poetry",
            change("pyproject.toml", before, after),
            change("azure-pipelines.yml", workflow, ci),
            lock,
        )
    )
    assert entry.importance is Importance.LOW
    # a job that uploads what it builds: the `wheel` it installs is the release's
    upload = "twine check dist/*\n    twine upload dist/*\n"
    released = change(
        "azure-pipelines.yml",
        workflow.replace("twine check dist/*\n", upload),
        ci.replace("twine check dist/*\n", upload),
    )
    assert shipped_build_line(released, Parses())
    assert not shipped_build_line(change("azure-pipelines.yml", workflow, ci), Parses())
    # read whole, to see whether it publishes
    read = worth_reading([change("azure-pipelines.yml", workflow, ci)])
    assert [f.filename for f in read] == ["azure-pipelines.yml"]
    # an extra users install is what they meet: not the tools'
    users = after.replace("ci = [", "yaml = [")
    assert not dev_tooling(change("pyproject.toml", before, users))


@pytest.mark.parametrize(
    ("path", "tooling"),
    [
        ("uv.lock", True),
        ("poetry.lock", True),
        ("requirements-dev/lint.txt", True),
        ("requirements/test.txt", True),
        # multidict 240dab725 "Bump psutil from 7.2.1 to 7.2.2": the test runner's pins
        ("requirements/pytest.txt", True),
        ("requirements/doc-spelling.txt", True),
        ("towncrier.toml", True),
        ("zizmor.yml", True),
        ("Justfile", True),
        ("changelog.d/.gitkeep", True),
        ("tox.ini", True),
        ("noxfile.py", True),
        (".coveragerc", True),
        (".pre-commit-config.yaml", True),
        ("url_benchmark.py", True),
        ("benchmarks/test_url.py", True),
        ("typing-examples/mypy.py", True),
        ("typing_tests/baseline.py", True),
        # environs 02a29eb "Pin dev reqs": the name the other way round
        ("dev-requirements.txt", True),
        ("test_requirements.in", True),
        # natsort f2c7361, 5959dec: pip-compile's pins in a folder of the dev tools'
        ("dev/requirements.txt", True),
        ("dev/requirements.in", True),
        ("docs/requirements.txt", True),
        # what users install (an application's folder of its own is no dev tool's)
        ("deploy/requirements.txt", False),
        ("requirements.txt", False),
        ("src/attr/_make.py", False),
        ("Cargo.lock", False),
        ("setup.cfg", False),
        # the build's pins: Cython makes the shipped extension
        ("requirements/cython.txt", False),
        ("requirements/wheel.txt", False),
        # a workflow is CI: whether it builds the wheels is read from its lines
        (".github/workflows/ci.yml", False),
    ],
)
def test_dev_tooling_paths(path: str, tooling: bool) -> None:
    assert dev_tooling(FileChange(filename=path)) is tooling


# environs 02a29eb "Pin dev reqs; install package in dev mode; remove publish cmd": invoke's
# task file loses its `publish` task
_INVOKE_TASKS = (
    "from invoke import task\n\n\n"
    "@task\ndef test(ctx):\n    ctx.run('pytest')\n\n\n"
    "@task\ndef publish(ctx):\n    ctx.run('twine upload dist/*')\n"
)


def test_invoke_s_task_file_is_the_maintainers_tooling() -> None:
    after = _INVOKE_TASKS.split("\n\n\n@task\ndef publish", maxsplit=1)[0] + "\n"
    tasks = change("tasks.py", _INVOKE_TASKS, after)
    assert dev_tooling(tasks)
    analysis = analyze(
        commit(
            "Pin dev reqs; install package in dev mode; remove publish cmd",
            change("dev-requirements.txt", "pytest\nflake8\n", "pytest==3.7.1\nflake8==3.5.0\n"),
            tasks,
        )
    )
    assert analysis.importance is Importance.LOW
    # a `tasks.py` that does not import invoke may be an application's (Celery's tasks)
    celery = "from celery import shared_task\n\n\n@shared_task\ndef add(x, y):\n    return x + y\n"
    assert not dev_tooling(change("tasks.py", celery, celery.replace("x + y", "y + x")))


def test_a_security_fix_in_tooling_files_stays_high() -> None:
    analysis = analyze(
        commit(
            "Fix a security vulnerability in the release workflow (GHSA-xxxx-yyyy-zzzz)",
            change(".github/workflows/codeql-analysis.yml", CODEQL, CODEQL_AFTER),
            change("uv.lock", UV_LOCK.format(ruff="0.13.1"), UV_LOCK.format(ruff="0.13.2")),
        )
    )
    assert analysis.importance is Importance.HIGH


# --- the claims checker: the YAML at each revision, its own reading


@pytest.fixture(scope="module")
def pins_clone(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, str]]:
    root = tmp_path_factory.mktemp("claims_pins") / "repo"
    root.mkdir()
    _git(root, "init", "-q", "-b", "main")
    commit_files(
        root,
        {
            ".pre-commit-config.yaml": PLUGGY_PRE_COMMIT,
            ".github/workflows/codeql-analysis.yml": CODEQL,
        },
        "CI",
    )
    yield (
        root,
        commit_files(
            root,
            {
                ".pre-commit-config.yaml": PLUGGY_PRE_COMMIT.replace('"v0.8.6"', '"v0.9.1"'),
                ".github/workflows/codeql-analysis.yml": CODEQL_AFTER,
            },
            "Update dev",
        ),
    )


T, F = Verdict.TRUE, Verdict.FALSE
PIN_CASES = [
    (
        "Updates the pre-commit hook `astral-sh/ruff-pre-commit` from `v0.8.6` to `v0.9.1`.",
        Kind.HOOK_PIN,
        T,
    ),
    # another hook's rev
    ("Updates the pre-commit hook `PyCQA/autoflake` from `v0.8.6` to `v0.9.1`.", Kind.HOOK_PIN, F),
    (
        "Updates the pre-commit hook `pre-commit/pygrep-hooks` from `v1.10.0` to `v1.11.0`.",
        Kind.HOOK_PIN,
        F,
    ),
    (
        "Updates the GitHub Action `github/codeql-action` from `v3.30.3` to `v3.30.5` in "
        "`.github/workflows/codeql-analysis.yml`.",
        Kind.ACTION_PIN,
        T,
    ),
    # kept at v5.0.0
    (
        "Updates the GitHub Action `actions/checkout` from `v5.0.0` to `v5.0.1`.",
        Kind.ACTION_PIN,
        F,
    ),
    (
        "Updates the GitHub Action `github/codeql-action` from `v3.30.5` to `v3.30.3`.",
        Kind.ACTION_PIN,
        F,
    ),
]


@pytest.mark.parametrize(
    ("sentence", "kind", "verdict"), PIN_CASES, ids=[c[0][:70] for c in PIN_CASES]
)
def test_a_pin_claim_is_checked_against_the_yaml(
    pins_clone: tuple[Path, str], sentence: str, kind: Kind, verdict: Verdict
) -> None:
    root, sha = pins_clone
    found, _ = claims_in(sentence)
    assert [c.kind for c in found] == [kind]
    clone = Clone(root)
    try:
        assert Checker(clone).check(sha, found[0]).verdict is verdict
    finally:
        clone.close()  # its `git cat-file --batch` process


_LEAK_TEST = """\
import pytest

from multidict import MultiDict


@pytest.mark.leaks
@pytest.mark.xfail(reason="#1117")
def test_extend_does_not_leak() -> None:
    md: MultiDict[str] = MultiDict()
    md.extend({"a": "b"})
"""


def test_a_leak_test_and_its_pytest_marker_fix_no_leak() -> None:
    # multidict 9a32040 "Add leak tests for #1117 (#1120)": xfail tests of a reported leak and
    # the `leaks` marker declared in pytest.ini were rated high for a "severe symptom: leak"
    ini = "[pytest]\naddopts = -q\nmarkers =\n    c_extension: tests for the C extension\n"
    commit = CommitInput(
        sha="9a32040e",
        message="Add leak tests for #1117 (#1120)\n\n"
        "Add xfail test coverage for leak reported in #1117\n",
        files=[
            change("pytest.ini", ini, ini + "    leaks: memory leak tests\n"),
            change("requirements/pytest.txt", "pytest==8.0\n", "pytest==8.0\nobjgraph==3.6.2\n"),
            change("tests/test_leaks.py", None, _LEAK_TEST),
        ],
    )
    assert analyze(commit).importance is not Importance.HIGH


# argon2-cffi 811841d "ci: type-check API on all supported versions locally too": a `typing`
# extra and the `dev` extra's new `tox>4`, tox's environments and CI's calls of them
_EXTRAS_BEFORE = """[project]
name = "argon2-cffi"
dependencies = ["argon2-cffi-bindings"]

[project.optional-dependencies]
tests = ["hypothesis", "pytest"]
docs = ["sphinx", "sphinx-notfound-page", "furo", "myst-parser"]
dev = ["argon2-cffi[tests]", "mypy"]

[project.urls]
Documentation = "https://argon2-cffi.readthedocs.io/"
"""
_EXTRAS_AFTER = _EXTRAS_BEFORE.replace(
    'dev = ["argon2-cffi[tests]", "mypy"]',
    'typing = ["mypy"]\ndev = [\n  "argon2-cffi[tests,typing]",\n  "tox>4",\n]',
)
_TOX = "[tox]\nenv_list = py3{8,9,10,11,12}-{tests,mypy}\n\n[testenv]\nextras = tests\n"


def test_extras_only_developers_install_are_dev_tooling() -> None:
    entry = analyze(
        commit(
            "ci: type-check API on all supported versions locally too (#152)",
            change("pyproject.toml", _EXTRAS_BEFORE, _EXTRAS_AFTER),
            change("tox.ini", _TOX, _TOX.replace("extras = tests", "extras = tests,typing")),
        )
    )
    assert entry.importance is Importance.LOW
    # an extra users install is what they meet: not the tools'
    users = _EXTRAS_AFTER.replace('typing = ["mypy"]', 'redis = ["redis>=4"]')
    assert not dev_tooling(change("pyproject.toml", _EXTRAS_BEFORE, users))
    assert dev_tooling(change("pyproject.toml", _EXTRAS_BEFORE, _EXTRAS_AFTER))


# apscheduler f4f26b5 "Dropped support for paho-mqtt 1.x": tox's environment for the old
# version goes (and the test extra's pin), and the broker's docstring says v2.0 or later
_MQTT = (
    "class MQTTEventBroker:\n"
    '    """\n    Requires the paho-mqtt_ library to be installed.\n    """\n\n'
    "    def publish(self, event):\n        return self._client.publish(event)\n"
)
_MQTT_TOX = "[tox]\nenv_list = py3{9,10,11,12}\n\n[testenv:paho-mqtt-v1]\ndeps = paho-mqtt~=1.5\n"


def test_support_the_author_says_ends_beside_a_shipped_file_is_no_tooling() -> None:
    entry = analyze(
        commit(
            "Dropped support for paho-mqtt 1.x",
            change("tox.ini", _MQTT_TOX, _MQTT_TOX.split("\n\n[testenv:", maxsplit=1)[0] + "\n"),
            change(
                "src/apscheduler/eventbrokers/mqtt.py",
                _MQTT,
                _MQTT.replace("library to be", "library (v2.0 or later) to be"),
            ),
        )
    )
    assert entry.importance is Importance.HIGH


def test_a_dev_dependency_dropped_beside_its_lock_is_said(tmp_path: Path) -> None:
    # tinydb 88183d3 "build: remove `typing-extensions` from list of direct dev dependencies"
    # said only "Changes 1 generated file." (`poetry.lock`), hiding the hand edit beside it
    dev = POETRY_PYPROJECT.replace(
        'pycodestyle = "^2.5.0"\n',
        'pycodestyle = "^2.5.0"\ntyping-extensions = { version = "^4.4.0" }\n',
    )
    lock = POETRY_LOCK.format(pytest="5.2.2")
    before = {
        "pyproject.toml": dev,
        "poetry.lock": lock + lock.replace("pytest", "typing-extensions"),
    }
    after = {"pyproject.toml": POETRY_PYPROJECT, "poetry.lock": lock}
    analysis, verdicts = checked_entry(
        tmp_path,
        before,
        after,
        "build: remove `typing-extensions` from list of direct dev dependencies",
    )
    assert (
        analysis.summary == "Removes the dev dependency `typing-extensions` from `pyproject.toml`."
    )
    assert analysis.importance is Importance.LOW
    assert verdicts == [Verdict.TRUE]
    # and the checker's own reading: a name the other side has too is no change
    said = "Adds the dev dependency `pytest` to `pyproject.toml`."
    (claim,), _ = claims_in(said)
    reader = Clone(tmp_path / "repo")
    try:
        sha = _git(tmp_path / "repo", "rev-parse", "HEAD").strip()
        assert Checker(reader).check(sha, claim).verdict is Verdict.FALSE
    finally:
        reader.close()


def test_a_makefile_release_target_run_through_uv_is_tooling() -> None:
    # sqlparse d279be4 "Publish fixes.": the release target builds and publishes through
    # `uv run`, hatch joins the dev dependency group, the lock follows
    make = "release:\n\t@rm -rf dist/\n\tpython -m build\n\thatch publish\n"
    uv = make.replace("\tpython", "\tuv run python").replace("\thatch", "\tuv run hatch")
    assert dev_tooling(change("Makefile", make, uv))
    assert dev_tooling(change("Makefile", make, make.replace("hatch publish", "flit publish")))
    # a compiler's recipe is what an install may run
    assert not dev_tooling(change("Makefile", make, make.replace("hatch publish", "gcc -o x x.c")))
    analysis = analyze(
        commit(
            "Publish fixes.",
            change("Makefile", make, uv),
            change("uv.lock", UV_LOCK.format(ruff="0.13.1"), UV_LOCK.format(ruff="0.13.2")),
        )
    )
    assert analysis.importance is Importance.LOW


# natsort f2c7361 `dev/requirements.txt`, as pip-compile wrote it (trimmed)
_NATSORT_DEV = """#
# This file is autogenerated by pip-compile
# To update, run:
#
#    pip-compile
#
attrs==19.3.0             # via hypothesis, pytest
hypothesis==4.13.0
pytest==5.2.2
"""


def test_a_revert_of_a_dev_folder_pin_is_low(tmp_path: Path) -> None:
    # natsort f2c7361 'Revert "Update to a Python3.4-compatible hypothesis version"': the
    # test runner's pin in `dev/`, rated medium as "Requires `hypothesis==4.44.2`"
    before = {
        "dev/requirements.txt": _NATSORT_DEV,
        "natsort/__init__.py": "__version__ = '6.1.0'\n",
    }
    after = {"dev/requirements.txt": _NATSORT_DEV.replace("4.13.0", "4.44.2")}
    analysis, verdicts = checked_entry(
        tmp_path,
        before,
        after,
        'Revert "Update to a Python3.4-compatible hypothesis version"\n\n'
        "This reverts commit 2c4a865f691eeac6f6e2c861377bd3488e963de0.",
    )
    assert analysis.importance is Importance.LOW
    assert all(v is Verdict.TRUE for v in verdicts)
