"""A change proven to reach nothing a user installs is low: the in-tree build backend's code
(frozenlist 34338864b "Prevent copying tmp dir to itself in build backend"), a stub in one
spelling of the same types with the linters' settings (frozenlist 0726dc818 "Enable UP rules
in ruff config"), a `setup.cfg`'s linter section with the backend's annotations (frozenlist
12829cc57 "Strict typing"), a new tool's settings (stamina 4832a081a "Zizmor: define
trust"); a fragment written for packagers, or a stub's new signature, keeps it medium."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.analysis.facts.surface import same_stub
from bot.analysis.rules import analyze
from bot.analysis.setup_metadata import descriptive_only
from bot.models import Importance
from tests.clones import second_commit

pytestmark = pytest.mark.usefixtures("environ_clean", "keep_test_logging")

BACKEND = "packaging/pep517_backend/_backend.py"
_COPY = (
    "from __future__ import annotations\n\n"
    "import os\n"
    "import typing as t\n"
    "from contextlib import contextmanager\n"
    "from pathlib import Path\n"
    "from shutil import copytree\n"
    "from tempfile import TemporaryDirectory\n\n\n"
    "@contextmanager\n"
    "def _in_temporary_directory(src_dir: Path) -> t.Iterator[None]:\n"
    "    with TemporaryDirectory(prefix='.tmp-frozenlist-pep517-') as tmp_dir:\n"
    "        tmp_src_dir = Path(tmp_dir) / 'src'\n"
    "        copytree(src_dir, tmp_src_dir, symlinks=True)\n"
    "        os.chdir(tmp_src_dir)\n"
    "        yield\n"
)
_EXCLUDING = (
    _COPY.replace(
        "import typing as t\n", "import sys\nimport typing as t\nfrom functools import partial\n"
    )
    .replace(
        "@contextmanager\n",
        "def _exclude_dir_path(\n"
        "    excluded_dir_path: Path,\n"
        "    visited_directory: str,\n"
        "    _visited_dir_contents: list[str],\n"
        ") -> list[str]:\n"
        '    """Prevent recursive directory traversal."""\n'
        "    # This stops the temporary directory from being copied\n"
        "    # into self recursively forever.\n"
        "    visited_directory_subdirs_to_ignore = [\n"
        "        subdir\n"
        "        for subdir in _visited_dir_contents\n"
        "        if excluded_dir_path == Path(visited_directory) / subdir\n"
        "    ]\n"
        "    if visited_directory_subdirs_to_ignore:\n"
        "        print(\n"
        "            f'Preventing `{excluded_dir_path !s}` from being '\n"
        "            'copied into itself recursively...',\n"
        "            file=sys.stderr,\n"
        "        )\n"
        "    return visited_directory_subdirs_to_ignore\n\n\n"
        "@contextmanager\n",
    )
    .replace(
        "        tmp_src_dir = Path(tmp_dir) / 'src'\n"
        "        copytree(src_dir, tmp_src_dir, symlinks=True)\n",
        "        tmp_dir_path = Path(tmp_dir)\n"
        "        root_tmp_dir_path = tmp_dir_path.parent\n"
        "        _exclude_tmpdir_parent = partial(_exclude_dir_path, root_tmp_dir_path)\n\n"
        "        tmp_src_dir = tmp_dir_path / 'src'\n"
        "        copytree(\n"
        "            src_dir,\n"
        "            tmp_src_dir,\n"
        "            ignore=_exclude_tmpdir_parent,\n"
        "            symlinks=True,\n"
        "        )\n",
    )
)
_TMPDIR = (
    "Prevent copying tmp dir to itself in build backend\n\n"
    'Previously, setting `TMPDIR="$(pwd)/smth-inside"` would cause the in-tree PEP 517\n'
    "build backend to go into infinite recursion, attempting to copy the project directory\n"
    "into a nested folder."
)


def _importance(
    tmp_path: Path, before: dict[str, str | None], after: dict[str, str | None], message: str
) -> Importance:
    _, commit = second_commit(tmp_path, before, after, message)
    return analyze(commit).importance


def test_a_fix_of_the_in_tree_build_backend_alone_is_low(tmp_path: Path) -> None:
    assert _importance(tmp_path, {BACKEND: _COPY}, {BACKEND: _EXCLUDING}, _TMPDIR) is Importance.LOW


def test_a_packaging_fragment_says_packagers_meet_it(tmp_path: Path) -> None:
    fragment = "CHANGES/660.packaging.rst"
    importance = _importance(
        tmp_path,
        {BACKEND: _COPY},
        {BACKEND: _EXCLUDING, fragment: "Line tracing is only enabled with Cython tracing.\n"},
        _TMPDIR,
    )
    assert importance is Importance.MEDIUM


# frozenlist's `__init__.pyi`, before and after pyupgrade (ruff's UP rules)
STUB = (
    "from typing import (\n    Generic,\n    Iterable,\n    Iterator,\n    List,\n"
    "    MutableSequence,\n    Optional,\n    TypeVar,\n    Union,\n    overload,\n)\n\n"
    '_T = TypeVar("_T")\n'
    "_Arg = Union[List[_T], Iterable[_T]]\n\n"
    "class FrozenList(MutableSequence[_T], Generic[_T]):\n"
    "    def __init__(self, items: Optional[_Arg[_T]] = None) -> None: ...\n"
    "    @property\n    def frozen(self) -> bool: ...\n"
    "    def freeze(self) -> None: ...\n"
    "    @overload\n    def __getitem__(self, i: int) -> _T: ...\n"
    "    @overload\n    def __getitem__(self, s: slice) -> FrozenList[_T]: ...\n"
    "    def __iter__(self) -> Iterator[_T]: ...\n"
    "    def insert(self, pos: int, item: _T) -> None: ...\n"
)
UPGRADED = (
    STUB.replace(
        STUB.split("\n\n", maxsplit=1)[0],
        "from collections.abc import Iterable, Iterator, MutableSequence\n"
        "from typing import Generic, TypeVar, overload",
    )
    .replace("Union[List[_T], Iterable[_T]]", "list[_T] | Iterable[_T]")
    .replace("Optional[_Arg[_T]]", "_Arg[_T] | None")
)
# the backend's helpers, upgraded in the same commit
TRANSFORMERS = (
    '"""Data conversion helpers for the in-tree PEP 517 build backend."""\n\n'
    "from itertools import chain\n"
    "from typing import Dict, Iterable, Iterator, List, Mapping, Tuple, Union\n\n\n"
    "def _emit_opt_pairs(opt_pair: Tuple[str, Union[str, Dict[str, str]]]) -> Iterator[str]:\n"
    "    flag, flag_value = opt_pair\n"
    '    flag_opt = f"--{flag!s}"\n'
    "    if isinstance(flag_value, dict):\n"
    "        sub_pairs: Iterable[Tuple[str, ...]] = flag_value.items()\n"
    "    else:\n"
    "        sub_pairs = ((flag_value,),)\n"
    "    yield from (flag_opt, *sub_pairs)\n\n\n"
    "def get_cli_kwargs_from_config(\n"
    "    kwargs_map: Mapping[str, Union[str, Dict[str, str]]],\n"
    ") -> List[str]:\n"
    '    """Make a list of options with values from config."""\n'
    "    return list(chain.from_iterable(map(_emit_opt_pairs, kwargs_map.items())))\n\n\n"
    "def get_enabled_cli_flags_from_config(flags_map: Mapping[str, bool]) -> List[str]:\n"
    '    """Make a list of enabled boolean flags from config."""\n'
    '    return [f"--{flag}" for flag, is_enabled in flags_map.items() if is_enabled]\n'
)
TRANSFORMERS_UPGRADED = (
    TRANSFORMERS.replace(
        "from itertools import chain\n"
        "from typing import Dict, Iterable, Iterator, List, Mapping, Tuple, Union\n",
        "from collections.abc import Iterable, Iterator, Mapping\nfrom itertools import chain\n",
    )
    .replace("Tuple[str, Union[str, Dict[str, str]]]", "tuple[str, str | dict[str, str]]")
    .replace("Iterable[Tuple[str, ...]]", "Iterable[tuple[str, ...]]")
    .replace("Union[str, Dict[str, str]]", "str | dict[str, str]")
    .replace("List[str]", "list[str]")
)
_PYPROJECT = (
    '[build-system]\nrequires = ["setuptools >= 47", "expandvars"]\n'
    'build-backend = "pep517_backend.hooks"\nbackend-path = ["packaging"]\n\n'
    '[tool.ruff]\nline-length = 88\n\n[tool.ruff.lint]\nselect = ["E", "F", "I"]\n'
)


def test_a_stub_in_one_spelling_of_the_same_types_with_the_linter_settings_is_low(
    tmp_path: Path,
) -> None:
    importance = _importance(
        tmp_path,
        {
            "frozenlist/__init__.pyi": STUB,
            "pyproject.toml": _PYPROJECT,
            "packaging/pep517_backend/_transformers.py": TRANSFORMERS,
        },
        {
            "frozenlist/__init__.pyi": UPGRADED,
            "packaging/pep517_backend/_transformers.py": TRANSFORMERS_UPGRADED,
            "pyproject.toml": _PYPROJECT.replace('"I"]', '"I", "UP"]'),
            "CHANGES/770.contrib.rst": "Enabled the UP rules of ruff -- by :user:`bdraco`.\n",
        },
        "Enable UP rules in ruff config (#770)",
    )
    assert importance is Importance.LOW


def test_a_stub_is_the_same_only_when_a_type_checker_reads_the_same() -> None:
    assert same_stub(STUB, UPGRADED)
    # a new parameter is a new signature for callers
    assert not same_stub(STUB, UPGRADED.replace("pos: int, item", "pos: int, item: _T, *, x"))
    # a name from another module than typing's is another type
    assert not same_stub(
        STUB, UPGRADED.replace("from collections.abc import", "from mylib.abc import")
    )
    # `import X as X` re-exports: the stub's surface is its imports too
    assert not same_stub(STUB + "from os import path as path\n", UPGRADED)


_SETUP_CFG = (
    "[metadata]\nname = frozenlist\n\n[options]\npython_requires = >=3.8\n"
    "packages = find:\n\n[flake8]\nignore = N801,N802,N803,E226,W503,W504,E252\n"
    "max-line-length = 88\n"
)
_COMPAT = "import os\nfrom pathlib import Path\n" + "".join(
    f"\n\ndef step_{i}(path, depth):\n    os.chdir(path)\n    return depth + {i}\n"
    for i in range(16)
)


def test_strict_typing_of_the_backend_and_the_linters_sections_is_low(tmp_path: Path) -> None:
    compat = "packaging/pep517_backend/_compat.py"
    importance = _importance(
        tmp_path,
        {"setup.cfg": _SETUP_CFG, ".mypy.ini": "[mypy]\nstrict = false\n", compat: _COMPAT},
        {
            "setup.cfg": _SETUP_CFG.replace(
                "ignore = N801,N802,N803,E226,W503,W504,E252",
                "extend-select = B950\nignore = E226,E252,E501,N801,N802,N803,W503,W504",
            ),
            ".mypy.ini": "[mypy]\nstrict = true\n",
            compat: _COMPAT.replace("(path, depth):", "(path: Path, depth: int) -> int:"),
        },
        "Strict typing (#620)",
    )
    assert importance is Importance.LOW


def test_a_setup_cfg_change_to_what_is_installed_is_not_tooling(tmp_path: Path) -> None:
    importance = _importance(
        tmp_path,
        {"setup.cfg": _SETUP_CFG, ".mypy.ini": "[mypy]\nstrict = false\n"},
        {
            "setup.cfg": _SETUP_CFG.replace(">=3.8", ">=3.9"),
            ".mypy.ini": "[mypy]\nstrict = true\n",
        },
        "Strict typing (#620)",
    )
    assert importance is not Importance.LOW


_CI = (
    "jobs:\n  check:\n    steps:\n"
    "      - name: Decide whether the needed jobs succeeded or failed\n"
    "        uses: re-actors/alls-green@release/v1\n"
)


def test_a_workflow_linters_settings_are_tooling(tmp_path: Path) -> None:
    importance = _importance(
        tmp_path,
        {".github/workflows/ci.yml": _CI},
        {
            ".github/workflows/ci.yml": _CI.replace(
                "@release/v1", "@05ac9388f0aebcb5727afa17fcccfecd6f8ec5fe  # v1.2.2"
            ),
            "zizmor.yml": "---\nrules:\n  unpinned-uses:\n    config:\n      policies:\n"
            "        # We trust GitHub, the PyPA, and ourselves.\n"
            '        "actions/*": ref-pin\n        "github/*": ref-pin\n'
            '        "pypa/*": ref-pin\n        "hynek/*": ref-pin\n',
        },
        "Zizmor: define trust",
    )
    assert importance is Importance.LOW


_COVERAGE = '[project]\nname = "pytest-asyncio"\n\n[tool.coverage.report]\nshow_missing = true\n'
_TOWNCRIER = (
    '\n[tool.towncrier]\ndirectory = "changelog.d"\nfilename = "docs/reference/changelog.rst"\n'
    + "".join(
        f'\n[[tool.towncrier.type]]\ndirectory = "{kind}"\nname = "{kind.title()}"\nshowcontent = true\n'
        for kind in ("security", "removed", "deprecated", "added", "changed", "fixed", "downstream")
    )
)


def test_a_changelog_tool_with_its_folder_placeholder_is_tooling(tmp_path: Path) -> None:
    # pytest-asyncio 146faae61: the fragments' folder is kept by an empty `.gitkeep`
    changelog = (
        "Changelog\n=========\n\n0.26.0 (2025-03-25)\n===================\n- Adds an option\n"
    )
    importance = _importance(
        tmp_path,
        {"pyproject.toml": _COVERAGE, "docs/reference/changelog.rst": changelog},
        {
            "pyproject.toml": _COVERAGE + _TOWNCRIER,
            "docs/reference/changelog.rst": changelog.replace(
                "=========\n\n", "=========\n\n.. towncrier release notes start\n\n"
            ),
            "changelog.d/.gitkeep": "",
        },
        "docs: Add support for towncrier for changelog management.",
    )
    assert importance is Importance.LOW


# tinydb 900d281 "style: clean up code formatting": `setup.py` re-quoted, its documentation
# links built from a new `docs_base_url`, beside docs and tests re-quoted
_SETUP = """from setuptools import setup, find_packages

exec(read('tinydb/version.py'))

setup(
    name="tinydb",
    version=__version__,
    packages=find_packages(exclude=['tests']),
    author="Markus Siemens",
    url="https://github.com/msiemens/tinydb",
    project_urls={
        'Documentation': 'http://tinydb.readthedocs.org/',
        'Changelog': 'https://tinydb.readthedocs.io/en/latest/changelog.html',
    },
    classifiers=[
%s    ],
)
"""
_SETUP = _SETUP % "".join(
    f'        "Programming Language :: Python :: {version}",\n'
    for version in ("2", "2.7", "3", *(f"3.{minor}" for minor in range(3, 14)))
)
_SETUP_RESTYLED = (
    _SETUP.replace('"', "'")
    .replace("\nsetup(", "\ndocs_base_url = 'https://tinydb.readthedocs.org/'\n\nsetup(")
    .replace("'http://tinydb.readthedocs.org/'", "docs_base_url")
    .replace(
        "'https://tinydb.readthedocs.io/en/latest/changelog.html'",
        "docs_base_url + 'en/latest/changelog.html'",
    )
)
_TEST = 'def test_query():\n    assert where("a") == "b"\n'


def test_a_setup_py_restyled_whose_links_alone_change_is_low(tmp_path: Path) -> None:
    before = {"setup.py": _SETUP, "tests/test_queries.py": _TEST, "docs/conf.py": 'x = "a"\n'}
    after = {
        "setup.py": _SETUP_RESTYLED,
        "tests/test_queries.py": _TEST.replace('"', "'"),
        "docs/conf.py": "x = 'a'\n",
    }
    assert _importance(tmp_path / "a", before, after, "style: clean up code formatting") is (
        Importance.LOW
    )
    # the package's name built from the new string: what installs read changes
    named = _SETUP_RESTYLED.replace("name='tinydb'", "name='tiny' + docs_base_url")
    assert not descriptive_only(_SETUP, named)
    # the supported Pythons are no description
    assert not descriptive_only(_SETUP, _SETUP_RESTYLED.replace(":: 3.3'", ":: 3 :: Only'"))
    assert descriptive_only(_SETUP, _SETUP_RESTYLED)
