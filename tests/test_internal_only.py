"""A change proven internal (no public name, signature or default changes; no fix claimed) is
low and says so, and the claims checker verifies the sentence with its own reading: shaped
like structlog 19ad6c7e ("dev: refactor column re-creation"), pluggy eb70fb9b ("expand test
coverage and drop dead code for wrappers") and multidict 99e3f3b3 ("Drop _Impl helper class,
move all logic to MultiDict itself"), built as clones."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.cli.claim_check import Verdict
from bot.cli.claims import Kind
from bot.models import Importance
from tests.clones import checked_entry, second_commit, verdicts_of

pytestmark = pytest.mark.usefixtures("environ_clean", "keep_test_logging")

# a public class whose private helpers do the work (structlog's `dev.py`, shortened)
_HELPERS = "".join(
    f"    def _style_{i}(self, value):\n"
    f"        text = str(value)\n"
    f"        if len(text) > {i + 10}:\n"
    f"            text = text[:{i + 10}]\n"
    f"        return self._styles.get('{i}', '') + text\n\n"
    for i in range(8)
)
DEV = (
    "class ConsoleRenderer:\n"
    "    def __init__(self, columns=None, colors=True):\n"
    "        self._colors = colors\n"
    "        self._styles = {}\n"
    "        self._columns = columns or []\n\n"
    "    def __call__(self, logger, name, event_dict):\n"
    "        return ' '.join(self._render(event_dict))\n\n"
    "    def _render(self, event_dict):\n"
    "        out = []\n"
    "        for column in self._columns:\n"
    "            out.append(column(event_dict))\n"
    "        return out\n\n" + _HELPERS
)
# the column re-creation moved into one private method: the insides alone change
REFACTORED = DEV.replace(
    "        out = []\n        for column in self._columns:\n            out.append(column(event_dict))\n"
    "        return out\n",
    "        return [column(event_dict) for column in self._recreate_columns()]\n\n"
    "    def _recreate_columns(self):\n        return list(self._columns)\n",
).replace("text = str(value)", "text = f'{value}'")


def test_a_refactor_of_private_helpers_is_low_and_says_so(tmp_path: Path) -> None:
    analysis, verdicts = checked_entry(
        tmp_path,
        {"src/structlog/dev.py": DEV},
        {"src/structlog/dev.py": REFACTORED},
        "dev: refactor column re-creation\n\nWe're gonna have to call this for every change.",
    )
    assert analysis.importance is Importance.LOW
    text = analysis.summary + " " + str(analysis.insights and analysis.insights.architecture)
    assert "Internal only" in text
    assert "no public name, signature or default changes in `src/structlog/dev.py`" in text
    assert verdicts and all(v is Verdict.TRUE for v in verdicts)


def test_only_private_definitions_edited_are_named(tmp_path: Path) -> None:
    callers = "def _multicall(hooks, args):\n" + "".join(
        f"    step_{i} = hooks[{i}](args)\n    if step_{i} is None:\n        return None\n"
        for i in range(15)
    )
    trimmed = callers.replace("    if step_3 is None:\n        return None\n", "")
    analysis, verdicts = checked_entry(
        tmp_path,
        {"src/pluggy/_callers.py": callers, "testing/test_callers.py": "def test_a(): pass\n"},
        {
            "src/pluggy/_callers.py": trimmed,
            "testing/test_callers.py": "def test_a(): pass\n\n\ndef test_b(): pass\n",
        },
        "expand test coverage and drop dead code for wrappers",
    )
    assert analysis.importance is Importance.LOW
    assert analysis.insights is not None
    assert analysis.insights.architecture == (
        "Internal only: changes only the private `_multicall`; no public name, signature or"
        " default changes in `src/pluggy/_callers.py`."
    )
    assert verdicts and all(v is Verdict.TRUE for v in verdicts)


def test_a_class_moved_between_private_modules_is_internal(tmp_path: Path) -> None:
    impl = "class _Impl:\n" + "".join(
        f"    def get_{i}(self):\n        return {i}\n" for i in range(12)
    )
    multidict = "class MultiDict:\n    def getone(self, key, default=None):\n        return key\n"
    analysis, verdicts = checked_entry(
        tmp_path,
        {"multidict/_multidict_py.py": multidict + "\n\n" + impl, "multidict/_base.py": ""},
        {
            "multidict/_multidict_py.py": multidict.replace("return key", "return key  # moved"),
            "multidict/_base.py": impl,
        },
        "Drop _Impl helper class, move all logic to MultiDict itself",
    )
    assert analysis.importance is Importance.LOW
    assert "Internal only" in analysis.summary + str(analysis.insights)
    assert verdicts and all(v is Verdict.TRUE for v in verdicts)


@pytest.mark.parametrize(
    ("after", "title"),
    [
        # a public method gains a parameter: callers meet it
        (
            REFACTORED.replace("def __call__(self, logger,", "def __call__(self, logger, sort,"),
            "dev: refactor column re-creation",
        ),
        # a new public method
        (
            REFACTORED + "    def get_active(self):\n        return self\n",
            "dev: refactor column re-creation",
        ),
        # the author says it fixes something: a private change can be the fix
        (REFACTORED, "dev: fix column re-creation"),
        # nothing says it is work on the insides
        (REFACTORED, "dev: make columns lazy"),
    ],
)
def test_not_internal_without_proof_or_with_a_claim(tmp_path: Path, after: str, title: str) -> None:
    analysis, _ = checked_entry(
        tmp_path, {"src/structlog/dev.py": DEV}, {"src/structlog/dev.py": after}, title
    )
    assert "Internal only" not in analysis.summary + str(analysis.insights)


def test_a_changelog_entry_is_no_internal_change(tmp_path: Path) -> None:
    analysis, _ = checked_entry(
        tmp_path,
        {"src/structlog/dev.py": DEV, "CHANGELOG.md": "# Changes\n"},
        {
            "src/structlog/dev.py": REFACTORED,
            "CHANGELOG.md": "# Changes\n\n- `ConsoleRenderer` now respects `FORCE_COLOR`.\n",
        },
        "Refactor terminal initialization into separate function",
    )
    assert "Internal only" not in analysis.summary + str(analysis.insights)


def test_the_checker_reads_the_surface_itself(tmp_path: Path) -> None:
    root, commit = second_commit(
        tmp_path,
        {"pkg/api.py": "def run(x):\n    return _go(x)\n\n\ndef _go(x):\n    return x\n"},
        {"pkg/api.py": "def run(x, y=1):\n    return _go(x)\n\n\ndef _go(x):\n    return -x\n"},
        "refactor",
    )
    said = "no public name, signature or default changes in `pkg/api.py`."
    assert verdicts_of(root, commit.sha, f"Internal only: {said}") == [
        (Kind.INTERNAL, Verdict.FALSE)
    ]
    assert verdicts_of(
        root, commit.sha, f"Internal only: changes only the private `_go`; {said}"
    ) == [(Kind.INTERNAL, Verdict.FALSE), (Kind.PRIVATE_ONLY, Verdict.FALSE)]
    assert verdicts_of(root, commit.sha, "Internal only: " + said.replace("api", "gone")) == [
        (Kind.INTERNAL, Verdict.FALSE)
    ]


def test_a_long_sentence_is_cut_to_fit_the_summary(tmp_path: Path) -> None:
    # yarl's quoting helpers: long private names in long paths, and a title with no
    # description, so the fact is the summary (one line of at most 200 characters)
    names = [f"_quote_or_unquote_the_path_segment_number_{i}" for i in range(4)]
    # (an assignment rewritten: no statement said to have become another, so the proof is
    # what there is to say)
    module = "".join(
        f"def {n}(text):\n    stripped = text.strip()\n    return stripped\n\n\n" for n in names
    )
    paths = [f"yarl/_quoting_helpers/_pure_python_quoting_module_{i}.py" for i in range(3)]
    analysis, verdicts = checked_entry(
        tmp_path,
        {p: module for p in paths},
        {p: module.replace("text.strip()", "text.strip(' ')") for p in paths},
        "Refactor quoting helpers",
    )
    assert analysis.importance is Importance.LOW
    assert analysis.summary.startswith("Internal only: no public name")
    assert len(analysis.summary) <= 200
    assert verdicts and all(v is Verdict.TRUE for v in verdicts)


def test_a_method_moved_to_a_private_base_is_still_there(tmp_path: Path) -> None:
    # pytest-asyncio b70efaf6 ("Deduplicate runtest logic for … subclasses"), with the
    # logic moved into a private base: each public class still has its `runtest`
    body = "".join(f"        step_{i} = self.obj({i})\n" for i in range(12))
    run = f"    def runtest(self) -> None:\n{body}"
    before = (
        f"class _Base:\n    pass\n\n\nclass Coroutine(_Base):\n{run}\n\nclass Method(_Base):\n{run}"
    )
    after = f"class _Base:\n{run}\n\nclass Coroutine(_Base):\n    pass\n\n\nclass Method(_Base):\n    pass\n"
    analysis, verdicts = checked_entry(
        tmp_path,
        {"pytest_asyncio/plugin.py": before},
        {"pytest_asyncio/plugin.py": after},
        "refactor: Deduplicate runtest logic for subclasses.",
    )
    assert analysis.importance is Importance.LOW
    assert "Internal only" in analysis.summary + str(analysis.insights)
    assert verdicts and all(v is Verdict.TRUE for v in verdicts)


# (annotations deferred, as structlog's modules have them: unquoted, they are still never run)
_TYPED = (
    "from __future__ import annotations\n\n"
    "from typing import List, Optional, Union\n\n"
    "__all__ = ['get_logger', 'BoundLogger']\n\n\n"
    "class BoundLogger:\n"
    "    def bind(self, key: Optional[str] = None, *values: Union[int, 'BoundLogger']) -> "
    "'BoundLogger':\n"
    + "".join(f"        step_{i} = key or {i}\n" for i in range(12))
    + (
        "        return self\n\n\n"
        "def get_logger(names: List[str]) -> Optional[BoundLogger]:\n"
        "    return BoundLogger() if names else None\n"
    )
)
# what Ruff's pyupgrade and sorting rules write: the same types, `__all__` in order
_UPGRADED = (
    _TYPED.replace("from typing import List, Optional, Union\n", "")
    .replace("['get_logger', 'BoundLogger']", "['BoundLogger', 'get_logger']")
    .replace("key: Optional[str]", "key: str | None")
    .replace("Union[int, 'BoundLogger']", "BoundLogger | int")
    .replace("-> 'BoundLogger'", "-> BoundLogger")
    .replace("List[str]", "list[str]")
    .replace("Optional[BoundLogger]", "BoundLogger | None")
    .replace("step_3 = key or 3", "step_3 = key if key else 3")
)


def test_types_respelled_by_a_linter_are_no_signature_change(tmp_path: Path) -> None:
    # structlog a60ce7bb ("Update Ruff"), pytest-asyncio 0eb7c0a8 ("[ruff] … pyupgrade")
    analysis, verdicts = checked_entry(
        tmp_path,
        {"src/structlog/_base.py": _TYPED},
        {"src/structlog/_base.py": _UPGRADED},
        "Update Ruff",
    )
    assert analysis.importance is Importance.LOW
    assert "Internal only" in analysis.summary + str(analysis.insights)
    assert verdicts and all(v is Verdict.TRUE for v in verdicts)


def test_a_type_that_changes_is_a_signature_change(tmp_path: Path) -> None:
    analysis, _ = checked_entry(
        tmp_path,
        {"src/structlog/_base.py": _TYPED},
        {"src/structlog/_base.py": _UPGRADED.replace("list[str]", "list[bytes]")},
        "Update Ruff",
    )
    assert "Internal only" not in analysis.summary + str(analysis.insights)


# a public name bound once per Python version (as structlog's `_base.py` binds `Self` under
# `if sys.version_info >= (3, 11):`), here a constant: the first binding is the one that runs
# on a newer interpreter
_PER_VERSION = (
    "import sys\n\n"
    "if sys.version_info >= (3, 11):\n    TIMEOUT = 1\nelse:\n    TIMEOUT = 2\n\n\n"
    "def _resolve(x):\n    return x\n"
)


def test_a_value_bound_once_per_python_version_is_read_in_each(tmp_path: Path) -> None:
    analysis, verdicts = checked_entry(
        tmp_path,
        {"src/structlog/_config.py": _PER_VERSION},
        {
            "src/structlog/_config.py": _PER_VERSION.replace("TIMEOUT = 1", "TIMEOUT = 5").replace(
                "return x", "return x or None"
            )
        },
        "refactor: tidy up the config helpers",
    )
    assert "Internal only" not in analysis.summary + str(analysis.insights)
    assert Verdict.FALSE not in verdicts


def test_a_file_the_commit_leaves_alone_is_false_whatever_its_name(tmp_path: Path) -> None:
    # the reason names the file: a `parser.py` the commit does not change is no parse error
    root, commit = second_commit(
        tmp_path,
        {"pkg/parser.py": "def run(x):\n    return x\n", "pkg/api.py": "def go():\n    pass\n"},
        {"pkg/parser.py": "def run(x):\n    return x\n", "pkg/api.py": "def go():\n    return 1\n"},
        "refactor",
    )
    said = "Internal only: no public name, signature or default changes in `pkg/parser.py`."
    assert verdicts_of(root, commit.sha, said) == [(Kind.INTERNAL, Verdict.FALSE)]


def test_a_public_body_past_the_cap_of_edited_names_is_not_private(tmp_path: Path) -> None:
    # yarl's `_quoting_py.py` shape, larger: many private helpers edited, then the public
    # function that uses them; the names the facts keep stop at a bound
    helpers = "".join(f"def _h{i}(x):\n    return x + {i}\n\n\n" for i in range(45))
    before = helpers + "def run(x):\n    return _h0(x)\n"
    after = helpers.replace("return x +", "return x -") + "def run(x):\n    return _h1(x)\n"
    analysis, verdicts = checked_entry(
        tmp_path, {"pkg/api.py": before}, {"pkg/api.py": after}, "refactor: tidy the helpers"
    )
    assert "changes only the private" not in analysis.summary + str(analysis.insights)
    assert Verdict.FALSE not in verdicts


# a package `__init__` that serves names lazily (PEP 562): what a caller can import is
# what its `__getattr__` serves, read from private state the surface does not show
_LAZY = (
    "import importlib\n\n"
    '_SERVED = {"cached_property": "pkg._helpers"}\n\n\n'
    "def __getattr__(name):\n"
    "    if name in _SERVED:\n"
    "        return getattr(importlib.import_module(_SERVED[name]), name)\n"
    "    raise AttributeError(name)\n"
)


def test_a_module_serving_names_through_getattr_is_not_proven_internal(tmp_path: Path) -> None:
    after = _LAZY.replace(
        '"pkg._helpers"}', '"pkg._helpers", "under_cached_property": "pkg._helpers"}'
    )
    analysis, _ = checked_entry(
        tmp_path,
        {"pkg/__init__.py": _LAZY},
        {"pkg/__init__.py": after},
        "refactor: tidy lazy loading",
    )
    assert "Internal only" not in analysis.summary + str(analysis.insights)
    root, commit = second_commit(
        tmp_path / "again", {"pkg/__init__.py": _LAZY}, {"pkg/__init__.py": after}, "refactor"
    )
    said = "Internal only: no public name, signature or default changes in `pkg/__init__.py`."
    assert verdicts_of(root, commit.sha, said) != [(Kind.INTERNAL, Verdict.TRUE)]


# tomli f8adf9c "Remove repetition": two private escape parsers made one with a flag
_CASES = "".join(f"    if s == 'e{i}':\n        return '{i}'\n" for i in range(12))
_PARSER = (
    "def loads(s):\n"
    "    return _basic(s) if s.startswith('b') else _multiline(s)\n\n\n"
    "def _basic(s):\n" + _CASES + "    raise ValueError(s)\n\n\n"
    "def _multiline(s):\n"
    "    if s == 'ws':\n        return ''\n" + _CASES + "    raise ValueError(s)\n"
)
_DEDUPLICATED = (
    "def loads(s):\n"
    "    return _escape(s, multiline=not s.startswith('b'))\n\n\n"
    "def _escape(s, *, multiline):\n"
    "    if multiline and s == 'ws':\n        return ''\n" + _CASES + "    raise ValueError(s)\n"
)


@pytest.mark.parametrize("title", ["Remove repetition", "Naming"])
def test_repetition_removed_or_names_bettered_are_words_of_the_insides(
    tmp_path: Path, title: str
) -> None:
    analysis, _ = checked_entry(
        tmp_path, {"tomli/__init__.py": _PARSER}, {"tomli/__init__.py": _DEDUPLICATED}, title
    )
    assert analysis.importance is Importance.LOW
