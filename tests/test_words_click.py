"""Words on a held-out command-line library (pallets/click): setext and reStructuredText
titles, a rename the module still serves, an `or` default, a lock file, a test moved to a
new file, an f-string deprecation; each a clone shaped like the commit that showed it."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.analysis.facts.documents import _headings
from bot.analysis.facts.layout import same_code
from bot.analysis.facts.python import cut_message
from bot.cli.claim_check import Verdict
from bot.cli.claims_eval import entry_claims, entry_text
from bot.models import ChangeType, FileChange, Importance
from tests.clones import checked_entry

pytestmark = pytest.mark.usefixtures("environ_clean", "keep_test_logging")


def test_titles_rewritten_from_setext_to_atx_are_no_new_sections(tmp_path: Path) -> None:
    # click de3e8a3 "refactor from rest to myst": `Arguments` over `=====` became `# Arguments`
    before = (
        ".. _arguments:\n\nArguments\n=========\n\nArguments are positional.\n\n"
        "Basic Arguments\n---------------\n\nA minimal argument.\n"
    )
    after = (
        "(arguments)=\n\n# Arguments\n\nArguments are positional.\n\n"
        "## Basic Arguments\n\nA minimal argument.\n\n## Variadic Arguments\n\nMany.\n"
    )
    analysis, verdicts = checked_entry(
        tmp_path,
        {"docs/arguments.md": before, "src/pkg.py": "X = 1\n"},
        {"docs/arguments.md": after, "src/pkg.py": "X = 1\n"},
        "refactor from rest to myst",
    )
    text = entry_text(analysis)
    assert "“Arguments”" not in text and "“Basic Arguments”" not in text
    assert "Variadic Arguments" in text
    assert verdicts and all(v is Verdict.TRUE for v in verdicts)


def test_a_restructuredtext_file_renamed_to_markdown_keeps_its_titles(tmp_path: Path) -> None:
    # click d5cb0b8: docs/options.rst (titles over `~~~~`) became docs/options.md
    # (enough text in common that git pairs the two files as a rename)
    prose = "".join(
        f"Options take values; line {i} of the guide stays as it was.\n" for i in range(12)
    )
    rst = f"Options\n=======\n\n{prose}\nOption Decorator\n~~~~~~~~~~~~~~~~\n\n{prose}"
    md = f"# Options\n\n{prose}\n## Option Decorator\n\n{prose}"
    analysis, verdicts = checked_entry(
        tmp_path,
        {"docs/options.rst": rst},
        {"docs/options.rst": None, "docs/options.md": md},
        "options to myst",
    )
    assert "Option Decorator" not in entry_text(analysis)
    assert all(v is Verdict.TRUE for v in verdicts)


def test_a_code_block_inside_a_longer_fence_hides_no_later_heading() -> None:
    # click bd3b2d6: a ```` ````{tip} ```` block holding a ```` ```python ```` block
    lines = [
        "# Options",
        "````{tip}",
        "```python",
        "@click.option('--x/--no-x')",
        "```",
        "````",
        "#### Boolean flag pairs",
        "```",
        "# not a heading",
        "```",
    ]
    assert [t for _, t in _headings(lines)] == ["Options", "Boolean flag pairs"]
    assert [t for _, t in _headings(lines, adornments=True)] == ["Options", "Boolean flag pairs"]


def test_front_matter_and_list_items_are_no_setext_headings() -> None:
    lines = ["---", "title: Guide", "---", "- item", "---", "Real Title", "=========="]
    assert [t for _, t in _headings(lines)] == ["Real Title"]


def test_a_rename_the_module_getattr_still_serves_is_not_said(tmp_path: Path) -> None:
    # click 7a0a344: `safecall` became `_safecall`; the module `__getattr__` hands the old
    # name out with a DeprecationWarning, so callers' `safecall` still works
    before = (
        'def safecall(func):\n    """Wraps a function so that it swallows exceptions."""\n'
        "    def wrapper(*a):\n        try:\n            return func(*a)\n"
        "        except Exception:\n            pass\n    return wrapper\n"
    )
    after = (
        "import warnings\n\n\n"
        + before.replace("def safecall", "def _safecall")
        + "\n\ndef __getattr__(name):\n    if name in {'safecall'}:\n"
        "        warnings.warn(f\"'pkg.utils.{name}' was never intentionally public.\","
        " DeprecationWarning)\n"
        "        return globals()[f'_{name}']\n    raise AttributeError(name)\n"
    )
    analysis, verdicts = checked_entry(
        tmp_path,
        {"pkg/__init__.py": "", "pkg/utils.py": before},
        {"pkg/__init__.py": "", "pkg/utils.py": after},
        "Mark clearly functions private",
    )
    text = entry_text(analysis)
    assert "Renames `safecall`" not in text and "Removes `safecall`" not in text
    assert not analysis.breaking
    assert all(v is Verdict.TRUE for v in verdicts)


def test_a_default_given_after_or_is_the_same_default(tmp_path: Path) -> None:
    # click 43a7d70: `os.environ.get("PAGER", None) or ""` became `os.environ.get("PAGER", "")`
    before = (
        'import os\n\n\ndef pager():\n    return (os.environ.get("PAGER", None) or "").strip()\n'
    )
    after = 'import os\nimport shlex\n\n\ndef pager():\n    return shlex.split(os.environ.get("PAGER", ""))\n'
    analysis, verdicts = checked_entry(
        tmp_path, {"pkg/pager.py": before}, {"pkg/pager.py": after}, "Reconcile pager"
    )
    # no default of `PAGER` said changed, nor a variable read anew (the line that reads it,
    # rewritten, may be quoted as it was and is)
    claims, _ = entry_claims(analysis)
    assert not [c for c in claims if "PAGER" in c.name]
    assert "default" not in entry_text(analysis).lower()
    assert all(v is not Verdict.FALSE for v in verdicts)


def test_a_lock_file_is_no_requirement(tmp_path: Path) -> None:
    # click bba0561 "use uv": uv.lock copies `requires-python` from pyproject.toml
    project = '[project]\nname = "pkg"\nrequires-python = ">=3.10"\n'
    lock = (
        'version = 1\nrequires-python = ">=3.10"\n\n[[package]]\nname = "idna"\nversion = "3.10"\n'
    )
    analysis, _ = checked_entry(
        tmp_path,
        {"pyproject.toml": project, "pkg/app.py": "X = 1\n"},
        {"pyproject.toml": project, "uv.lock": lock, "pkg/app.py": "X = 1\n"},
        "use uv",
    )
    assert "python>=3.10" not in entry_text(analysis)


def test_a_test_moved_to_a_new_file_is_not_added(tmp_path: Path) -> None:
    # click 182944f: tests moved from tests/test_utils.py to a new tests/test_utils_2/ file,
    # one of them new
    moved = "def test_unstyle_other_ansi():\n    assert unstyle('x') == 'x'\n"
    analysis, verdicts = checked_entry(
        tmp_path,
        {"tests/test_utils.py": f"def test_kept():\n    assert True\n\n\n{moved}"},
        {
            "tests/test_utils.py": "def test_kept():\n    assert True\n",
            "tests/test_utils_2/test_style.py": f"{moved}\n\n"
            "def test_prompt_cast_default():\n    assert prompt('x') == 'x'\n",
        },
        "Make confirm, prompt, style files.",
    )
    text = entry_text(analysis)
    assert "test_unstyle_other_ansi" not in text
    assert "test_prompt_cast_default" in text
    assert all(v is Verdict.TRUE for v in verdicts)


def test_the_checker_reads_every_piece_of_an_f_string_message(tmp_path: Path) -> None:
    # click 051725f: the `__getattr__` message "'click.utils.{name}' was never intentionally
    # public …" became "'click.utils.{name}' is deprecated …": the piece before `{…}` was
    # there before, the message was not
    head = "import warnings\n\n\ndef __getattr__(name):\n    warnings.warn(\n"
    tail = "        DeprecationWarning,\n    )\n    return globals()[f'_{name}']\n"
    before = f"{head}        f\"'pkg.utils.{{name}}' was never intentionally public.\",\n{tail}"
    after = f"{head}        f\"'pkg.utils.{{name}}' is deprecated and will be removed in 9.0.\",\n{tail}"
    analysis, verdicts = checked_entry(
        tmp_path,
        {"pkg/__init__.py": "", "pkg/utils.py": before},
        {"pkg/__init__.py": "", "pkg/utils.py": after},
        "Better deprecate streams",
    )
    assert "is deprecated and will be removed in 9.0." in entry_text(analysis)
    assert verdicts and all(v is Verdict.TRUE for v in verdicts)


def test_a_class_the_module_still_serves_keeps_its_members(tmp_path: Path) -> None:
    # click 333c28d (a merge): `LazyFile` became `_LazyFile`, its `__enter__` annotated anew,
    # and the module `__getattr__` hands `LazyFile` out; "Removes `LazyFile.close`" was false
    body = (
        "    def __init__(self, name):\n        self.name = name\n\n"
        "    def close(self):\n        self.closed = True\n\n"
        "    def close_intelligently(self):\n        self.close()\n\n"
    )
    before = f"class LazyFile:\n{body}    def __enter__(self) -> 'LazyFile':\n        return self\n"
    after = (
        f"class _LazyFile:\n{body}    def __enter__(self) -> '_LazyFile':\n        return self\n"
        "\n\ndef __getattr__(name):\n    if name == 'LazyFile':\n"
        "        return globals()[f'_{name}']\n    raise AttributeError(name)\n"
    )
    analysis, verdicts = checked_entry(
        tmp_path,
        {"pkg/__init__.py": "", "pkg/utils.py": before},
        {"pkg/__init__.py": "", "pkg/utils.py": after},
        "Mark clearly functions private status",
    )
    text = entry_text(analysis)
    assert "LazyFile.close" not in text and "Adds `_LazyFile`" not in text
    assert not analysis.breaking
    assert all(v is Verdict.TRUE for v in verdicts)


def test_a_long_deprecation_message_is_cut_at_a_word() -> None:
    # click cfa01ee: the quote ended "…with absolute paths inste"
    message = (
        "'isolated_filesystem' is deprecated and will be removed in Click 9.0. Use "
        "'tempfile.TemporaryDirectory' or pytest's 'tmp_path' fixture with absolute paths "
        "instead."
    )
    cut = cut_message(message)
    assert len(cut) <= 160 and cut.endswith("paths…")
    assert cut_message("short message.") == "short message."


@pytest.mark.parametrize(
    "title",
    [
        "Pre-8.5.0 release changelog and doc fixes (#3697)",
        "Fix typos in the guide",
        "Docstring fixes",
    ],
)
def test_words_fixed_are_no_bug_fix(tmp_path: Path, title: str) -> None:
    # click 00e592c: docstrings and the changelog edited, "fixes" in the title; it was a
    # medium bug fix asking for "a regression test" of three classes whose docstrings changed
    before = 'class Argument:\n    """An argument.\n\n    .. versionchanged:: 8.5\n    """\n'
    analysis, _ = checked_entry(
        tmp_path,
        {"src/pkg/core.py": before, "CHANGES.md": "# 8.5.0\n"},
        {"src/pkg/core.py": before.replace("8.5\n", "8.5.0\n"), "CHANGES.md": "# 8.5.0\n\nOk.\n"},
        title,
    )
    assert analysis.change_types[0] is ChangeType.DOCS
    assert analysis.importance is Importance.LOW
    assert "regression test" not in entry_text(analysis)


def test_a_fix_of_comment_parsing_is_still_a_bug_fix(tmp_path: Path) -> None:
    before = "def parse(line):\n    return line.split('#')[0]\n"
    analysis, _ = checked_entry(
        tmp_path,
        {"src/pkg/parse.py": before},
        {"src/pkg/parse.py": before.replace("split('#')[0]", "partition('#')[0]")},
        "Fix comment parsing",
    )
    assert analysis.change_types[0] is ChangeType.BUGFIX


def test_a_python_floor_raised_is_the_risk_not_the_title_again(tmp_path: Path) -> None:
    # uvicorn 4156ccb "Drop Python 3.8": the risk read "The title names a removal"
    project = '[project]\nname = "pkg"\nrequires-python = ">={v}"\n'
    analysis, verdicts = checked_entry(
        tmp_path,
        {"pyproject.toml": project.format(v="3.8"), "pkg/app.py": "X = 1\n"},
        {"pyproject.toml": project.format(v="3.9"), "pkg/app.py": "X = 1\n"},
        "Drop Python 3.8",
    )
    assert analysis.breaking
    risks = " ".join(r.description for r in analysis.risks)
    assert "title names a removal" not in risks
    assert "install only on `python>=3.9` (was `>=3.8`)" in risks
    assert all(v is Verdict.TRUE for v in verdicts)


def test_a_deprecation_without_a_replacement_is_not_quoted_twice(tmp_path: Path) -> None:
    # uvicorn aaf2016, click cfa01ee: "Move off what “… is deprecated …” names" repeated
    # the warning the insight quotes
    before = "def isolated_filesystem():\n    return 1\n"
    after = (
        "import warnings\n\n\ndef isolated_filesystem():\n"
        "    warnings.warn('isolated_filesystem is deprecated and will be removed in 9.0.',"
        " DeprecationWarning)\n    return 1\n"
    )
    analysis, _ = checked_entry(
        tmp_path, {"pkg/testing.py": before}, {"pkg/testing.py": after}, "Deprecate it"
    )
    text = entry_text(analysis)
    assert text.count("is deprecated and will be removed") == 1


def test_new_tests_calling_what_the_change_adds_go_without_saying(tmp_path: Path) -> None:
    # click 94c191c: "The new tests call `custom_version_option`", the function it adds
    lib = "def version_option():\n    return 1\n"
    test = "from pkg.decorators import {f}\n\n\ndef test_it():\n    assert {f}() == {v}\n"
    # (a body long enough for a medium entry, which says what its tests call)
    body = "".join(f"    x{i} = callback({i})\n" for i in range(30))
    added, _ = checked_entry(
        tmp_path / "added",
        {"pkg/decorators.py": lib},
        {
            "pkg/decorators.py": f"{lib}\n\ndef custom_version_option(callback=str):\n{body}"
            "    return 2\n",
            "tests/test_options.py": test.format(f="custom_version_option", v=2),
        },
        "Add custom_version_option",
    )
    assert added.importance is Importance.MEDIUM
    # (the tests added are no architecture: never an insight)
    assert "Adds the test `test_it`." not in entry_text(added)
    assert "tests call" not in entry_text(added)
    edited, _ = checked_entry(
        tmp_path / "edited",
        {"pkg/decorators.py": lib},
        {
            "pkg/decorators.py": lib.replace("return 1", "return 3"),
            "tests/test_options.py": test.format(f="version_option", v=3),
        },
        "Fix version_option",
    )
    # what the new test asserts of the edited function says more than that it calls it
    said = "The new test `test_it` pins `pkg.decorators.version_option()` to `3`."
    assert said in entry_text(edited)


# click ba745ac "Cleanup documentation for 8.4.0" and e3e69e3 "Add type annotations for
# instance attributes": docstrings and annotations only, both medium with nothing to say
FUTURE = "from __future__ import annotations\n\n\n"
HELPERS = FUTURE + "".join(
    f'def f{i}(value, mode="r"):\n    """Do {i}.\n\n    .. versionchanged:: 8.3\n'
    f'        Escapes newlines.\n    """\n    return value * {i}\n\n\n'
    for i in range(25)
)
LAZY = "class LazyFile:\n    def __init__(self, name, mode='r'):\n        self.name = name\n"


@pytest.mark.parametrize(
    ("title", "before", "after"),
    [
        (
            "Cleanup documentation for 8.4.0",
            HELPERS,
            HELPERS.replace(
                "8.3\n        Escapes newlines.", "8.4\n        Escape newlines in help."
            ),
        ),
        (
            "Add type annotations to the helpers",
            HELPERS,
            HELPERS.replace('(value, mode="r"):', '(value: str, mode: str = "r") -> str:'),
        ),
        (
            "Add type annotations for instance attributes",
            HELPERS + LAZY,
            HELPERS.replace('(value, mode="r"):', '(value: str, mode: str = "r") -> str:')
            + LAZY.replace(":\n    def", ":\n    name: str\n    mode: str\n\n    def"),
        ),
    ],
)
def test_docstrings_or_annotations_alone_are_low(
    tmp_path: Path, title: str, before: str, after: str
) -> None:
    analysis, _ = checked_entry(
        tmp_path, {"src/pkg/utils.py": before}, {"src/pkg/utils.py": after}, title
    )
    assert analysis.importance is Importance.LOW


@pytest.mark.parametrize(
    ("title", "before", "after"),
    [
        # the title says docs, the code changed too
        (
            "Cleanup documentation",
            LAZY,
            LAZY.replace("self.name = name", "self.name = name or 'x'"),
        ),
        # a dataclass's `x: T` is a field: a new one is behaviour, whatever the title says
        (
            "Add type annotations to Config",
            "from dataclasses import dataclass\n\n\n@dataclass\nclass Config:\n    name: str\n",
            "from dataclasses import dataclass\n\n\n@dataclass\nclass Config:\n"
            "    name: str\n    port: int\n",
        ),
        # an endpoint's parameter annotation is how its framework parses the request
        (
            "Fix typing of the items endpoint",
            "@app.get('/items')\ndef items(limit: str):\n    return limit\n",
            "@app.get('/items')\ndef items(limit: int):\n    return limit\n",
        ),
    ],
)
def test_code_that_changed_under_a_docs_or_typing_title_is_not_low_for_it(
    title: str, before: str, after: str
) -> None:
    change = FileChange(
        filename="src/pkg/utils.py",
        status="modified",
        before=before,
        after=after,
        patch="@@ -1 +1 @@",
    )
    assert not same_code(change, typing=True) and not same_code(change)
    unchanged = change.model_copy(update={"after": before.replace("\n", "\n\n")})
    assert same_code(unchanged, typing=True)
