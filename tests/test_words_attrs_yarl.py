"""Words on held-out python-attrs/attrs and aio-libs/yarl (first read at 9c6c49d): names moved
out of a file the same change renamed, a method turned module function, an environment
variable still read elsewhere, a heading that only ends like the new one; each a clone
shaped like the commit."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.analysis.rules import analyze
from bot.cli.claim_check import Verdict
from bot.cli.claims_eval import entry_text
from bot.cli.clone_tree import with_quoted_before
from tests.clones import checked_entry, second_commit, verdicts_of

pytestmark = pytest.mark.usefixtures("environ_clean", "keep_test_logging")


def _defs(*names: str) -> str:
    return "".join(f"\n\ndef {n}(x):\n    return x + {i}\n" for i, n in enumerate(names))


def test_names_moved_out_of_a_renamed_file_are_said_from_its_old_path(tmp_path: Path) -> None:
    # attrs b1dc8f6: tests/typing_example.py became typing-examples/mypy_examples.py and
    # gave some of its examples to a new baseline_examples.py; the entry said they moved
    # "from `typing-examples/mypy_examples.py`", a path the parent did not have
    kept, moved = ("keep_a", "keep_b", "keep_c", "keep_d"), ("ng_one", "ng_two", "ng_three")
    analysis, verdicts = checked_entry(
        tmp_path,
        {"src/pkg/__init__.py": "X = 1\n", "tests/typing_example.py": _defs(*kept, *moved)},
        {
            "src/pkg/__init__.py": "X = 1\n",
            "tests/typing_example.py": None,
            "typing-examples/mypy_examples.py": _defs(*kept),
            "typing-examples/baseline_examples.py": _defs(*moved),
        },
        "Split out Mypy-dependent typing examples",
    )
    text = entry_text(analysis)
    assert "from `typing-examples/mypy_examples.py`" not in text
    # (a folder no import reaches ships nothing: its names are no API moved)
    assert all(v is Verdict.TRUE for v in verdicts)
    # the same split inside the package: said from the path the parent had
    analysis, verdicts = checked_entry(
        tmp_path / "package",
        {"src/pkg/__init__.py": "X = 1\n", "src/pkg/typing_example.py": _defs(*kept, *moved)},
        {
            "src/pkg/__init__.py": "X = 1\n",
            "src/pkg/typing_example.py": None,
            "src/pkg/mypy_examples.py": _defs(*kept),
            "src/pkg/baseline_examples.py": _defs(*moved),
        },
        "Split out Mypy-dependent typing examples",
    )
    text = entry_text(analysis)
    assert "from `src/pkg/mypy_examples.py`" not in text
    assert verdicts and all(v is Verdict.TRUE for v in verdicts)


def test_a_method_made_a_module_function_under_its_own_name_is_no_rename(tmp_path: Path) -> None:
    # yarl 4e06f7d "Break out functions that do not need decorated methods": the entry said
    # "Renames `URL._unsplit_result` to `_unsplit_result`"
    names = ("_unsplit_result", "_make_netloc", "_encode_host", "_normalize_path")
    body = "(a, b):\n{i}x = a + '://'\n{i}return x + b + '{n}'\n"
    methods = "".join(
        f"\n    @staticmethod\n    def {n}" + body.format(i=" " * 8, n=n) for n in names
    )
    functions = "".join(f"\n\ndef {n}" + body.format(i=" " * 4, n=n) for n in names)
    calls = "".join(f"        r = r + {{}}{n}('a', 'b')\n" for n in names)
    human = "class URL:\n    def human(self):\n        r = ''\n" + calls + "        return r\n"
    before = human.format(*["self."] * len(names)) + methods
    after = functions.lstrip() + "\n\n" + human.format(*[""] * len(names))
    analysis, verdicts = checked_entry(
        tmp_path,
        {"yarl/_url.py": before},
        {"yarl/_url.py": after},
        "Break out functions that do not need decorated methods (#1345)",
    )
    assert "Renames" not in entry_text(analysis)
    assert all(v is Verdict.TRUE for v in verdicts)


_READS = 'import os\n\nNO_EXTENSIONS = bool(os.environ.get("YARL_NO_EXTENSIONS"))\n'


def test_a_variable_another_file_still_reads_is_not_said_gone(tmp_path: Path) -> None:
    # yarl 4f35eda: `yarl/_helpers.py` went, and with it one read of YARL_NO_EXTENSIONS;
    # `yarl/_quoting.py`, untouched, still reads it: "No longer reads the environment
    # variable" was false, and "setting it has no effect" too
    root, commit = second_commit(
        tmp_path,
        {"yarl/_helpers.py": _READS, "yarl/_quoting.py": _READS, "yarl/url.py": "X = 1\n"},
        {"yarl/_helpers.py": None, "yarl/url.py": "X = 2\n"},
        "Drop the helpers module",
    )
    text = entry_text(analyze(with_quoted_before(root, commit)))
    assert "YARL_NO_EXTENSIONS" not in text
    # the last reader gone: said, and true
    last = tmp_path / "last"
    root, commit = second_commit(
        last,
        {"yarl/_helpers.py": _READS, "yarl/url.py": "X = 1\n"},
        {"yarl/_helpers.py": None, "yarl/url.py": "X = 2\n"},
        "Drop the helpers module",
    )
    text = entry_text(analyze(with_quoted_before(root, commit)))
    assert "`YARL_NO_EXTENSIONS`" in text
    assert verdicts_of(root, commit.sha, text)
    assert all(v is Verdict.TRUE for _, v in verdicts_of(root, commit.sha, text))


def test_a_variable_read_through_a_copy_of_the_environment_is_still_read(tmp_path: Path) -> None:
    # yarl 60b2689: `os.getenv('CFLAGS', '')` became `orig_env.get('CFLAGS', '')`, a copy
    # of `os.environ`, in the same (fetched) file; no tree search online
    before = (
        "import os\n\n\ndef patched_env():\n"
        "    os.environ['CFLAGS'] = ' '.join(('-O2', os.getenv('CFLAGS', '')))\n"
    )
    after = (
        "import os\n\n\ndef patched_env():\n    orig_env = os.environ.copy()\n"
        "    os.environ['CFLAGS'] = ' '.join(('-O3', orig_env.get('CFLAGS', '')))\n"
    )
    analysis, verdicts = checked_entry(
        tmp_path,
        {"packaging/_cython_configuration.py": before},
        {"packaging/_cython_configuration.py": after},
        "Make release builds compile very optimized",
    )
    assert "CFLAGS" not in entry_text(analysis)
    assert all(v is Verdict.TRUE for v in verdicts)


def test_a_new_heading_is_new_though_an_old_one_ended_with_its_words(tmp_path: Path) -> None:
    # attrs 43a868d: "# Contributor Covenant Code of Conduct" became "# Code of Conduct";
    # the checker had read "Code of Conduct" as already there, inside the old title
    before = "\n# Contributor Covenant Code of Conduct\n\n## Enforcement\n\nWe pledge.\n"
    after = "# Code of Conduct\n\nFollow the PSF Code of Conduct.\n\n## Enforcement\n\nMail us.\n"
    root, commit = second_commit(
        tmp_path,
        {".github/CODE_OF_CONDUCT.md": before},
        {".github/CODE_OF_CONDUCT.md": after},
        "fix path",
    )
    said = "Adds the section “Code of Conduct” to `.github/CODE_OF_CONDUCT.md`."
    assert [v for _, v in verdicts_of(root, commit.sha, said)] == [Verdict.TRUE]
    # a heading the parent had whole is not new
    kept = "Adds the section “Enforcement” to `.github/CODE_OF_CONDUCT.md`."
    assert [v for _, v in verdicts_of(root, commit.sha, kept)] == [Verdict.FALSE]


def test_a_type_stub_deleted_removes_none_of_the_names_it_declared(tmp_path: Path) -> None:
    # yarl e70f9d4 "Add typing to URL": `yarl/__init__.pyi` deleted, the types written inline
    # in `yarl/_url.py`; the entry said "Removes `URL.build`, … and 16 more"
    methods = ("build", "is_absolute", "is_default_port", "joinpath", "with_query")
    stub = "class URL:\n" + "".join(f"    def {m}(self) -> URL: ...\n" for m in methods)
    module = "class URL:\n" + "".join(
        f"    def {m}(self){{}}:\n        return self\n" for m in methods
    )
    analysis, verdicts = checked_entry(
        tmp_path,
        {
            "yarl/__init__.py": "from ._url import URL\n",
            "yarl/__init__.pyi": stub,
            "yarl/_url.py": module.format(*[""] * len(methods)),
        },
        {
            "yarl/__init__.py": "from ._url import URL\n",
            "yarl/__init__.pyi": None,
            "yarl/_url.py": module.format(*[' -> "URL"'] * len(methods)),
        },
        "Add typing to URL (#1084)",
    )
    text = entry_text(analysis)
    assert "Removes" not in text and "`URL.build`" not in text
    assert all(v is Verdict.TRUE for v in verdicts)


def test_a_default_that_became_none_gets_no_way_back_by_the_old_value(tmp_path: Path) -> None:
    # attrs 6e3786c: `kw_only=False` → `kw_only=None` ("inherit the class's"); passing
    # `False` now makes a field positional in a `kw_only=True` class, so "Set `kw_only` to
    # `False` to keep the old behaviour" was the opposite of the way back
    api = (
        "def attrib(default=None, kw_only{was}):\n    return (default, kw_only)\n\n\n"
        "def field(*, default=None, kw_only{was}):\n    return (default, kw_only)\n"
    )
    analysis, verdicts = checked_entry(
        tmp_path,
        {
            "src/attr/__init__.py": "from ._make import attrib, field\n",
            "src/attr/_make.py": api.format(was="=False"),
        },
        {
            "src/attr/__init__.py": "from ._make import attrib, field\n",
            "src/attr/_make.py": api.format(was=": bool | None = None"),
        },
        "Make `kw_only=True` behavior consistent with dataclasses",
    )
    text = entry_text(analysis)
    assert "from `False` to `None`" in text
    assert "to keep the old behaviour" not in text
    assert all(v is Verdict.TRUE for v in verdicts)


def test_a_formatters_reflow_is_no_place_of_a_fix(tmp_path: Path) -> None:
    # pluggy e2dcf96: ruff re-wrapped an `assert`'s parentheses; yarl 86dd1cb joined two
    # implicitly concatenated strings into one f-string: "No test changed with this fix of
    # `HookCaller.__call__`: ask for a regression test." for code Python reads the same
    hooks = (
        "class HookCaller:\n    def __call__(self, **kwargs):\n{check}"
        "        return self._hookexec(kwargs)\n\n"
        "    def flags(self, build, source):\n"
        "        return ('-O2', {flag})\n"
    )
    old_check = (
        "        assert (\n            not self.is_historic()\n"
        '        ), "Cannot directly call a historic hook - use call_historic instead."\n'
    )
    new_check = (
        "        assert not self.is_historic(), (\n"
        '            "Cannot directly call a historic hook - use call_historic instead."\n'
        "        )\n"
    )
    old_flag = "'-ffile-prefix-map='\n                f'{build!s}={source!s}'"
    new_flag = "f'-ffile-prefix-map={build!s}={source!s}'"
    analysis, verdicts = checked_entry(
        tmp_path,
        {"src/pluggy/_hooks.py": hooks.format(check=old_check, flag=old_flag)},
        {"src/pluggy/_hooks.py": hooks.format(check=new_check, flag=new_flag)},
        "[pre-commit.ci] pre-commit autoupdate, fix 'sphinx.configuration' (#561)",
    )
    text = entry_text(analysis)
    assert "HookCaller" not in text and "regression test" not in text
    assert all(v is Verdict.TRUE for v in verdicts)


def test_a_dependency_group_pin_is_no_requirement_of_the_package(tmp_path: Path) -> None:
    # attrs c5baf90: `pyrefly = ["pyrefly>=1.2.0", …]` under `[dependency-groups]` was said
    # "Requires `pyrefly>=1.2.0`.", as if installs needed it
    project = (
        '[project]\nname = "attrs"\ndependencies = [{dep}]\n\n'
        "[dependency-groups]\ntests = [\n"
        '  "hypothesis",\n  "pytest>=4.3.0",\n]\n'
        'ty = ["ty", {{ include-group = "tests" }}]\n'
        'pyrefly = ["pyrefly{pin}", {{ include-group = "tests" }}]\n'
    )
    analysis, verdicts = checked_entry(
        tmp_path,
        {"pyproject.toml": project.format(dep="", pin=""), "src/attr/_make.py": "X = 1\n"},
        {"pyproject.toml": project.format(dep="", pin=">=1.2.0"), "src/attr/_make.py": "X = 2\n"},
        "Pyrefly 1.2.0 final is out",
    )
    assert "pyrefly>=1.2.0" not in entry_text(analysis)
    assert all(v is Verdict.TRUE for v in verdicts)
    # the package's own dependency is one
    shipped, verdicts = checked_entry(
        tmp_path / "shipped",
        {"pyproject.toml": project.format(dep="", pin=""), "src/attr/_make.py": "X = 1\n"},
        {
            "pyproject.toml": project.format(dep='"typing-extensions>=4.5"', pin=""),
            "src/attr/_make.py": "X = 2\n",
        },
        "Require typing-extensions",
    )
    assert "`typing-extensions>=4.5`" in entry_text(shipped)
    assert all(v is Verdict.TRUE for v in verdicts)
