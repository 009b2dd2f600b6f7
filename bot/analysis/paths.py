"""What a changed path is (docs, tests, CI, build, config, kernel, public API, source, data,
legal text) and its area.

A file's kind comes from where it lives and what it is: a code file (by its extension) is
source, a kernel or a public API, never configuration; configuration is a file of settings
(YAML, TOML, INI, a `*config*.json`); a tuning table, a dataset or an image is data; a
`LICENSE` is legal text, wherever it lies.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable
from enum import StrEnum

from bot.models import FileChange, ImpactArea


class Language(StrEnum):
    """The languages whose definitions the facts reader knows."""

    PYTHON = "python"
    # C, C++, CUDA, Ascend C: one reader, they share the shape of a definition
    C = "c"
    RUST = "rust"
    GO = "go"
    JAVASCRIPT = "javascript"
    TYPESCRIPT = "typescript"


_LANGUAGES = {
    **dict.fromkeys(("py", "pyi"), Language.PYTHON),
    **dict.fromkeys(("c", "cc", "cpp", "cxx", "h", "hh", "hpp", "cu", "cuh"), Language.C),
    "rs": Language.RUST,
    "go": Language.GO,
    **dict.fromkeys(("js", "jsx", "mjs", "cjs"), Language.JAVASCRIPT),
    **dict.fromkeys(("ts", "tsx", "mts", "cts"), Language.TYPESCRIPT),
}


def language_of(path: str) -> Language | None:
    name = path.rsplit("/", 1)[-1]
    return _LANGUAGES.get(name.rsplit(".", 1)[-1].lower()) if "." in name else None


class PathKind(StrEnum):
    DOCS = "docs"
    TESTS = "tests"
    CI = "ci"
    BUILD = "build"
    CONFIG = "config"
    KERNEL = "kernel"
    PUBLIC_API = "public_api"
    SOURCE = "source"
    # tuning tables, datasets, weights, images: not code, not settings
    DATA = "data"
    # licences and notices
    LEGAL = "legal"


_CODE_EXTENSIONS = frozenset(
    {"py", "pyi", "pyx", "pxd", "c", "cc", "cpp", "cxx", "h", "hh", "hpp", "cu", "cuh"}
    | {"metal", "rs", "go", "java", "kt", "scala", "js", "jsx", "ts", "tsx", "mjs", "rb"}
    | {"cjs", "mts", "cts"}
    | {"sh", "bash", "zsh", "swift", "m", "mm", "cs", "php", "lua", "jl", "pl", "s", "asm"}
    | {"proto", "sql", "html", "css", "cl", "hip", "triton", "mlir", "td"}
)
_SETTINGS_EXTENSIONS = frozenset({"yaml", "yml", "toml", "ini", "cfg", "conf", "env", "properties"})
_LEGAL = re.compile(r"^(?:LICEN[CS]E|COPYING|NOTICE|COPYRIGHT)(?:[._-][^/]*)?$", re.IGNORECASE)


# Where a file lives, checked in order: the first rule that matches names the kind.
_PLACES: list[tuple[PathKind, re.Pattern[str]]] = [
    (
        PathKind.CI,
        re.compile(
            r"(^|/)(\.github/(workflows|actions)/|\.buildkite/|\.circleci/|\.gitlab-ci\.yml$"
            r"|CODEOWNERS$"
            r"|\.pre-commit-config\.yaml$|Jenkinsfile$|azure-pipelines|\.ci/"
            # (AppVeyor's and Travis's files: python-tabulate 0a6554e's `appveyor.yml`)
            r"|\.?appveyor\.yml$|\.travis\.yml$)"
        ),
    ),
    (
        PathKind.TESTS,
        re.compile(
            r"(^|/)(tests?|testing|e2e|benchmarks?|bench)/|(^|/)(test_[^/]*|[^/]*_test)\.\w+$"
            r"|(^|/)conftest\.py$"
            # Jest's, Vitest's and Mocha's: `x.test.ts`, `x.spec.js`, `__tests__/`
            r"|\.(test|spec)\.[cm]?[jt]sx?$|(^|/)__tests__/"
        ),
    ),
    (
        PathKind.DOCS,
        re.compile(
            r"(^|/)(docs?|documentation|examples?)/|\.(md|rst|adoc)$|(^|/)(README|CHANGELOG|CONTRIBUTING)"
            # a changelog named without an extension (distro's `CHANGES`) is no script
            r"|(^|/)(CHANGES|HISTORY|NEWS)(\.txt)?$"
            r"|(^|/)mkdocs\.ya?ml$|(^|/)\.readthedocs\.ya?ml$"
        ),
    ),
    (
        PathKind.BUILD,
        re.compile(
            r"(^|/)(requirements|docker)/|(^|/)(requirements[^/]*\.(txt|in)|pyproject\.toml"
            r"|setup\.(py|cfg)|[^/]*\.lock|package(-lock)?\.json|Cargo\.toml|go\.(mod|sum)"
            r"|Dockerfile[^/]*|CMakeLists\.txt|[^/]*\.cmake|Makefile|MANIFEST\.in"
            r"|environment\.ya?ml|VERSION|version\.(?:txt|info)|[^/]*\.version)$"
        ),
    ),
]
_KERNEL_EXTENSIONS = frozenset({"cu", "cuh", "metal", "hip", "cl", "triton"})
_KERNEL_PLACE = re.compile(r"(^|/)(csrc|kernels?|ops|triton[^/]*)/")
_API_PLACE = re.compile(r"(^|/)(api|entrypoints|public)/|\.pyi$|^[^/]+/__init__\.py$")
_CONFIG_NAME = re.compile(r"config|settings", re.IGNORECASE)


def path_kind(path: str) -> PathKind:
    name = path.rsplit("/", 1)[-1]
    if _LEGAL.match(name):
        return PathKind.LEGAL
    for kind, pattern in _PLACES:
        if pattern.search(path):
            return kind
    extension = name.rsplit(".", 1)[-1].lower() if "." in name.lstrip(".") else ""
    if extension in _CODE_EXTENSIONS:
        if extension in _KERNEL_EXTENSIONS or _KERNEL_PLACE.search(path):
            return PathKind.KERNEL
        return PathKind.PUBLIC_API if _API_PLACE.search(path) else PathKind.SOURCE
    if extension in _SETTINGS_EXTENSIONS or (name.startswith(".") and not extension):
        return PathKind.CONFIG
    if extension == "json" and _CONFIG_NAME.search(name):
        # (A tuning table is data even in a `configs/` folder: its name says what it tunes.)
        return PathKind.CONFIG
    # A script without an extension is code; anything else (tables, images, weights) data.
    return PathKind.SOURCE if not extension else PathKind.DATA


_SHIPPED = frozenset({PathKind.SOURCE, PathKind.KERNEL, PathKind.PUBLIC_API, PathKind.CONFIG})
# Code in the repository that the package does not ship: scripts, tools, examples, dotfiles.
_NOT_SHIPPED = re.compile(r"(^|/)(scripts?|tools|benchmarks?|bench|examples?|hack|dev)/|^\.")


# The tools that build, check and measure the project, none of them shipped: Python lock
# files, requirement files of the dev tools, task runners', coverage and linters' settings,
# benchmarks, downstream test drivers, examples only a type checker reads, root dotfiles.
_DEV_TOOLING = re.compile(
    r"(^|/)(uv\.lock|poetry\.lock|pdm\.lock|Pipfile\.lock|pixi\.lock|requirements[^/]*\.lock"
    r"|tox\.ini|noxfile\.py|pylintrc|mypy\.ini|pyrightconfig\.json|ruff\.toml|pytest\.ini"
    r"|codecov\.ya?ml|codspeed\.ya?ml|towncrier\.toml|zizmor\.ya?ml|[Jj]ustfile|\.gitkeep)$"
    # a JavaScript tool's settings at the top (`commitlint.config.mjs`, `eslint.config.js`)
    r"|^[^/]+\.config\.[cm]?[jt]s$"
    # a benchmark script at the top (one inside a package may be shipped: `pkg/benchmark.py`)
    r"|^(?:[^/]*benchmark[^/]*|bench_[^/]*)$"
    # a release's or a benchmark's script at the top (`prebuild.py`, `testpypi_prepublish.py`,
    # `run_perf_all_tags.sh`): the maintainers run it, no install holds it
    r"|^[^/]*(?:pre-?build|pre-?publish|publish|release|perf)[^/]*\.(?:py|sh|bash|bat|cmd|ps1)$"
    # a shell or batch script at the top (an installer users pipe to a shell aside): no wheel
    # holds one
    r"|^(?![^/]*install)[^/]+\.(?:sh|bash|bat|cmd|ps1)$"
    r"|(^|/)(benchmarks?|bench|downstream|typing[-_](?:examples?|tests?))/"
    r"|(^|/)requirements(?:[-_/][^/]*)?[-_/]"
    r"(?:dev|tests?|testing|lint|typing|ci|docs?|pytest|towncrier|codspeed|coverage|mypy|constraints?)"
    # (a Python's own: `requirements-dev3.8.txt`)
    r"(?:(?:py)?\d+(?:\.\d+)*)?(?:[-_.][^/]*)?\.(?:txt|in)$"
    # ... or in a folder of the dev tools' (natsort's `dev/requirements.txt`, pip-compile's
    # `dev/requirements.in`: f2c7361, 5959dec)
    r"|(^|/)(?:dev|develop|tests?|testing|lint|typing|ci|docs?|mypy)/requirements[^/]*\.(?:txt|in)$"
    # the same named the other way round (`dev-requirements.txt`, `test_requirements.in`)
    r"|(^|/)(?:dev|develop|tests?|testing|lint|typing|ci|docs?|mypy)[-_]requirements"
    r"(?:[-_.][^/]*)?\.(?:txt|in)$"
    r"|^\.(?!github/(?:actions|workflows)/)"
    # Hermit's pinned development environment (`bin/hermit`, `bin/activate-hermit`, its
    # settings, its README and its packages' `.python3-3.12.3.pkg` marks: voluptuous 85f14d8)
    r"|(^|/)bin/(?:hermit|activate-hermit|hermit\.hcl|README\.hermit\.md|\.[^/]+\.pkg)$"
)
# A link of a Hermit `bin/` to the package that provides it (`bin/python3` → `.python3-3.12.3.pkg`,
# `bin/hermit`), as git shows a symbolic link: its target alone
_HERMIT_LINK = re.compile(r"^(?:\.[\w.+-]+\.pkg|hermit)$")
# The names of extras only developers install: their tools' requirements, no user's.
_DEV_EXTRA_NAMES = (
    r"dev|develop|development|tests?|testing|docs?|documentation|typing|mypy|lint|linting"
    r"|cov|coverage|bench|benchmarks?|tox|ci|style"
)
# Tables of `pyproject.toml` only the dev tools read (a build backend's, `[project]` and
# `[tool.cibuildwheel]` shape what is shipped): dependency groups, test, lint, type-check,
# coverage, changelog and environment-manager settings, and the PyPI page's text.
_DEV_TABLE = re.compile(
    r"^(?:(?:dependency-groups|tool\.(?:pytest|coverage|mypy|ruff|black|isort|pyright|pyrefly|ty"
    r"|pylint|interrogate|codespell|tox|towncrier|check-wheel-contents|bandit|flake8|pydocstyle"
    r"|typos|nox|pixi|hatch\.envs|pdm\.dev-dependencies|poetry\.(?:group|dev-dependencies)"
    r"|rye\.dev-dependencies"
    # the PyPI page's text, pieced from the README and the changelog (argon2-cffi 001ae15)
    r"|hatch\.metadata\.hooks\.fancy-pypi-readme"
    r"|uv(?!\.build-backend)))(?:\.|$)"
    # an extra only developers install (`pip install -e .[dev]`): the tools' requirements
    # (Poetry's `[tool.poetry.extras]` lists them as well: tinydb ec57f83's `ci` extra)
    r"|(?:project\.optional-dependencies|tool\.poetry\.extras)\.(?:" + _DEV_EXTRA_NAMES + r")$)"
)
# `[project.optional-dependencies]` (Poetry's `[tool.poetry.extras]`), and the key an extra's
# list opens with (`dev = [`)
_EXTRAS = ("project.optional-dependencies", "tool.poetry.extras")
_KEY = re.compile(r'^\s*(?:"([\w.-]+)"|([\w.-]+))\s*=(?!=)')
# Sections of a `setup.cfg` only the dev tools read (`[metadata]`, `[options…]` and
# `[bdist_wheel]` shape what is shipped): linters', type checkers', test runners' and
# coverage's settings.
_DEV_SECTION = re.compile(
    r"^(?:bumpversion(?::\S+)?|flake8|isort|pycodestyle|pep8|pydocstyle|pylint\S*|mypy(?:-\S+)?"
    r"|tool:pytest"
    r"|coverage:\S+|codespell|doc8|bandit|yapf|darglint|tox(?::\S+)?|testenv(?::\S+)?)$"
)
_SECTION_HEADER = re.compile(r"^\[([^\]]+)\]\s*(?:[#;].*)?$")
# `[table]`, `[[array.of.tables]]`, names quoted or not
_TABLE_HEADER = re.compile(r"^\[\[?\s*([\w.\-\" ]+?)\s*\]\]?\s*(?:#.*)?$")
_HUNK = re.compile(r"^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@")


def _tables(text: str) -> list[str]:
    """The TOML table each line of a file lies in (index 0 is line 1); "" before the first
    header. A multi-line string's lines are never headers. A line of an extra's list is in
    the extra's own table (`project.optional-dependencies.dev`)."""
    tables: list[str] = []
    current = extra = ""
    in_string: str | None = None
    for line in text.split("\n"):
        if in_string is None:
            header = _TABLE_HEADER.match(line.strip())
            if header:
                current = "".join(header.group(1).split()).replace('"', "")
                extra = ""
            elif current in _EXTRAS and (key := _KEY.match(line)):
                extra = key.group(1) or key.group(2)
        tables.append(f"{current}.{extra}" if current in _EXTRAS and extra else current)
        for quote in ('"""', "'''"):
            if line.count(quote) % 2 and in_string in (None, quote):
                in_string = None if in_string else quote
    return tables


def _ini_sections(text: str) -> list[str]:
    """The INI section each line of a `setup.cfg` lies in (index 0 is line 1); "" before the
    first header."""
    sections: list[str] = []
    current = ""
    for line in text.split("\n"):
        header = _SECTION_HEADER.match(line)
        if header:
            current = header.group(1).strip()
        sections.append(current)
    return sections


def _dev_extras_header(tables: list[str], index: int, dev: re.Pattern[str]) -> bool:
    """Whether line `index` opens an extras table (`[tool.poetry.extras]`) whose every extra
    is one only developers install: the header of a table of the tools' requirements (tinydb
    ec57f83 added one for its `ci` extra)."""
    name = tables[index]
    if name not in _EXTRAS or (index and tables[index - 1] == name):
        return False
    extras = set()
    for table in tables[index + 1 :]:
        if table != name and not table.startswith(f"{name}."):
            break
        extras.add(table)
    extras.discard(name)
    return bool(extras) and all(dev.match(t) for t in extras)


def _dev_tables_only(
    f: FileChange,
    tables: Callable[[str], list[str]] = _tables,
    dev: re.Pattern[str] = _DEV_TABLE,
) -> bool:
    """Every line a `pyproject.toml`'s patch adds or removes (blank and comment lines aside)
    lies in a table only the dev tools read, read from both whole texts (`tables`, `dev`:
    another format's sections, and those of its dev tools)."""
    sides = f.sides
    if sides is None or not f.patch:
        return False
    before, after = tables(sides[0]), tables(sides[1])
    old = new = 0
    for line in f.patch.split("\n"):
        hunk = _HUNK.match(line)
        if hunk:
            old, new = int(hunk.group(1)), int(hunk.group(2))
            continue
        if line.startswith("\\"):
            continue
        mark, body = line[:1], line[1:].strip()
        if mark in ("-", "+") and body and not body.startswith("#"):
            table, number = (before, old) if mark == "-" else (after, new)
            if not 0 < number <= len(table) or not (
                dev.match(table[number - 1])
                # (a table of extras removed whole is a risk for installs that name them)
                or (mark == "+" and _dev_extras_header(table, number - 1, dev))
            ):
                return False
        old += mark != "+"
        new += mark != "-"
    return True


def tooling_path(path: str) -> bool:
    """A path of the project's own dev tools by its name alone (`requirements/doc.txt`,
    `noxfile.py`; see `_DEV_TOOLING`)."""
    return bool(_DEV_TOOLING.search(path))


# A requirements file a resolver wrote (pip-compile's, `uv pip compile`'s header) and the
# command it quotes: `pip-compile --output-file=requirements-min.txt requirements-dev.in`
_COMPILED = re.compile(r"^#.*autogenerated by (?:pip-compile|uv)\b", re.IGNORECASE)
_COMPILE_COMMAND = re.compile(r"^#\s+(?:uv\s+pip\s+compile|pip-compile)\s+(.*)$")
# the options whose value is the next word: the output, a constraint (no input)
_COMPILE_VALUED = frozenset({"-o", "--output-file", "-c", "--constraint", "--constraints"})


# A requirements line that installs the project itself, from its own folder (`-e .`, `.[test]`)
_SELF_INSTALL = re.compile(r"^(?:(?:-e|--editable)[=\s]+)?\.(?:\[[\w,\s-]+\])?$")
# ... beside a test runner's or a linter's pin: the file is the project's test environment
# (a deployed application's `requirements.txt` may install itself with `-e .` too)
_TEST_TOOL = re.compile(
    r"^(?:pytest|coverage|tox|nox|mypy|ruff|flake8|black|pylint|hypothesis)(?:[-_][\w-]+)?"
    r"(?:\[[^\]]*\])?\s*(?:[<>=!~;]|$)",
    re.IGNORECASE,
)


def compiled_for_tools(text: str | None) -> bool:
    """Whether a requirements file is the dev tools' environment: it installs the project
    itself from its folder beside a test tool (`-e .` and `pytest==8.3.5`: aiodns's
    `requirements.txt`, whose `pycares==4.6.0` no user's install reads), or its header says
    pip-compile (`uv pip compile`) wrote it from inputs among which a dev tools' requirements file
    (`requirements-dev.in`, `requirements/test.in`; see `tooling_path`), or into a file of
    that name. An application's `requirements.txt` compiled from `requirements.in` is what
    it runs."""
    every = [line.strip() for line in (text or "").split("\n")]
    if any(map(_SELF_INSTALL.match, every)) and any(map(_TEST_TOOL.match, every)):
        return True
    lines = (text or "").split("\n")[:20]
    if not any(_COMPILED.match(line) for line in lines):
        return False
    for line in lines:
        command = _COMPILE_COMMAND.match(line.strip())
        if command is None:
            continue
        words = command.group(1).split()
        named = []
        for i, word in enumerate(words):
            option, _, value = word.partition("=")
            if option in ("-o", "--output-file") and value:
                named.append(value)
            elif word.startswith("-"):
                continue
            elif i and words[i - 1] in _COMPILE_VALUED:
                # `-o requirements-dev.txt` names the output; `-c constraints.txt` no input
                if words[i - 1] in ("-o", "--output-file"):
                    named.append(word)
            else:
                named.append(word)
        return any(tooling_path(n) for n in named)
    return False


def dev_tooling(f: FileChange) -> bool:
    """A file of the project's own dev tools (see `_DEV_TOOLING`), or a `pyproject.toml`
    (a `setup.cfg`) whose change lies only in the dev tools' tables (sections): nothing a
    user installs changes."""
    # (a test or a page moved among the tooling, `tests/x.py` → `typing-examples/x.py`, is one)
    old = f.previous_filename
    if tooling_path(f.filename) and (
        old is None or tooling_path(old) or path_kind(old) in (PathKind.TESTS, PathKind.DOCS)
    ):
        return True
    name = f.filename.rsplit("/", 1)[-1]
    if _hermit_link(f):
        return True
    if name in _MAKEFILES and _make_tools_only(f.patch):
        return True
    if f.filename == "tasks.py" and _invoke_tasks(f):
        return True
    if name.endswith(".txt") and compiled_for_tools(f.after if f.status != "removed" else f.before):
        return True
    if name == "setup.cfg":
        return _dev_tables_only(f, _ini_sections, _DEV_SECTION)
    return name == "pyproject.toml" and _dev_tables_only(f)


def _hermit_link(f: FileChange) -> bool:
    """A file of a `bin/` folder whose every side is one of Hermit's links (a target alone,
    `.python3-3.12.3.pkg`): a developer's tool, never installed."""
    if not re.search(r"(^|/)bin/[^/]+$", f.filename):
        return False
    texts = [t for t in (f.before, f.after) if t is not None]
    if not texts and f.patch:
        texts = [
            "\n".join(
                line[1:]
                for line in f.patch.split("\n")
                if line[:1] == "+" and not line.startswith("+++")
            )
        ]
    return bool(texts) and all(_HERMIT_LINK.match(t.strip()) for t in texts)


_MAKEFILES = ("Makefile", "makefile", "GNUmakefile")
# `invoke`'s task file imports it: the maintainers' commands, like a Makefile's (a `tasks.py`
# that does not is maybe an application's own module: Celery's tasks)
_INVOKE_IMPORT = re.compile(r"^(?:from\s+invoke\b|import\s+invoke\b)", re.MULTILINE)


def _invoke_tasks(f: FileChange) -> bool:
    """Whether a top-level `tasks.py` is `invoke`'s at both revisions it exists at."""
    texts = [t for t in (f.before, f.after) if t]
    return bool(texts) and all(_INVOKE_IMPORT.search(t) for t in texts)


# A Makefile line a Python project's maintainers run and no install does: a target's header
# (`fmt:`, `.PHONY: …`) or a recipe that runs only the dev tools (tests,
# linters, formatters, the release's build and upload, hatch's or flit's `publish` too, cleaning
# up); never a compiler.
_MAKE_TOOL = re.compile(
    r"^(?:[\w.%/ -]+:(?!=)[^=]*$"
    # (a variable that wraps the command, `${VENV} tox`, `$(PYTHON) -m pytest`, runs the same)
    r"|\t[@-]*\s*(?:\$[({]\w+[)}]\s+(?:-m\s+)?)?"
    r"(?:(?:uv\s+(?:run\s+)?|python3?\s+-m\s+|py\.test\b|uvx\s+)?"
    r"(?:pytest|py\.test|ruff|flake8|black|isort|mypy|pyright|pylint|coverage|tox|nox|twine"
    r"|build|pip|uv|pre-commit|bumpversion|bump2version|bump-my-version|sphinx-build|mkdocs"
    r"|towncrier|codespell|check-manifest|hatch|flit|pdm)\b|(?:rm|ls|echo|mkdir|cd|find|git)\b).*$)"
)


def _make_tools_only(patch: str | None) -> bool:
    """Whether every line a Makefile's patch adds or removes (blank and comment lines aside)
    is a target, a variable or a recipe of the dev tools alone (`_MAKE_TOOL`)."""
    if not patch:
        return False
    changed = [
        line[1:]
        for line in patch.split("\n")
        if line[:1] in "+-" and not line.startswith(("+++", "---"))
    ]
    bodies = [line for line in changed if line.strip() and not line.strip().startswith("#")]
    return bool(bodies) and all(_MAKE_TOOL.match(line) for line in bodies)


def private_module(path: str) -> bool:
    """A Python module private by its name: a file or package on its path named `_x`
    (`httpx/_compat.py`, `_vendor/x.py`); `__init__.py` and `__main__.py` are not."""
    if not path.endswith((".py", ".pyi")):
        return False
    parts = path.rsplit(".", 1)[0].split("/")
    return any(p.startswith("_") and not (p.startswith("__") and p.endswith("__")) for p in parts)


def ships(path: str, kind: PathKind | None = None) -> bool:
    """Code or configuration the package ships (not tests, docs, CI, build files, scripts,
    tools or examples): what users run."""
    return (
        (kind or path_kind(path)) in _SHIPPED
        and not _NOT_SHIPPED.search(path)
        and not _unimportable(path)
    )


# A module a package ships for its users' own test suites (`pyparsing/testing.py`,
# `pkg/testutils.py`, `pkg/pytest_plugin.py`): what it changes reaches their tests only.
_TEST_HELPER = re.compile(
    r"(^|/)(?:testing|testutils?|testing_utils|testhelpers|pytest_?plugin)\.pyi?$"
)


def testing_helper(path: str) -> bool:
    """A shipped module of helpers for users' tests (see `_TEST_HELPER`)."""
    return bool(_TEST_HELPER.search(path)) and ships(path)


def _unimportable(path: str) -> bool:
    """A Python file no `import` reaches: its name, or its folder's, is no identifier
    (trio's `notes-to-self/afd-lab.py`, a scratch script beside the package)."""
    if not path.endswith((".py", ".pyi")):
        return False
    *folders, name = path.split("/")
    stem = name.rsplit(".", 1)[0]
    return not stem.isidentifier() or bool(folders and not folders[-1].isidentifier())


def kinds(files: list[FileChange]) -> Counter[PathKind]:
    """Changed lines per kind (a file with no line counts, e.g. binary, counts as one)."""
    counts: Counter[PathKind] = Counter()
    for f in files:
        counts[path_kind(f.filename)] += max(1, f.changes)
    return counts


def area_of(path: str) -> str:
    """Group a path by module: two directory levels (`pkg/sub`), or its directory, or itself."""
    parts = [p for p in path.split("/") if p]
    if len(parts) >= 3:
        return "/".join(parts[:2])
    if len(parts) == 2:
        return parts[0]
    return parts[0] if parts else path


def impact(files: list[FileChange], *, limit: int = 8) -> list[ImpactArea]:
    """The areas with the most changed files, most first."""
    counts = Counter(area_of(f.filename) for f in files)
    return [ImpactArea(area=area[:120], files=n) for area, n in counts.most_common(limit)]


def module_paths(path: str, module: str) -> list[str]:
    """Where the Python module `module`, imported by the file at `path`, lies in the same
    tree: `pkg/errors.py` or `pkg/errors/__init__.py` for `.errors` in `pkg/core.py`, or for
    `pkg.errors` where `pkg` is a folder `path` lies in; none for another package's module."""
    folders = path.split("/")[:-1]
    level = len(module) - len(module.lstrip("."))
    parts = [p for p in module.lstrip(".").split(".") if p]
    if level:
        if level - 1 > len(folders):
            return []
        base = folders[: len(folders) - (level - 1)]
    elif parts and parts[0] in folders:
        base = folders[: len(folders) - 1 - folders[::-1].index(parts[0])]
    else:
        return []
    within = "/".join([*base, *parts])
    if not parts:
        return [f"{within}/__init__.py" if within else "__init__.py"]
    return [f"{within}.py", f"{within}/__init__.py"]
