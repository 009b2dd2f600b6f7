"""Changes of annotations alone: said as type hints only (runtime unchanged), the same new type
of a parameter said once for every function given it (voluptuous 65f736c: `min`, `max` of
`Range`, `Clamp`, `Length`), a `Protocol`'s stub signatures typed (dacite ae4fd06) asking for
no regression test, and rated alike: medium where the package ships `py.typed` (its users'
type checkers read them), low where it does not. Hermit's `bin/` (voluptuous 85f14d8) is a
developer's tool, its files said added, not "changed" nor "generated" by count alone."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from bot.analysis.facts.layout import typing_only
from bot.analysis.rules import analyze
from bot.cli.claim_check import Verdict
from bot.cli.claims_eval import entry_text
from bot.cli.evaluation import git_history
from bot.models import Audience, ChangeType, FileChange, Importance
from tests.clones import _git, checked_entry, commit_files

pytestmark = pytest.mark.usefixtures("environ_clean", "keep_test_logging")

VALIDATORS = "voluptuous/validators.py"
MARKER = "voluptuous/py.typed"
SETUP = (
    "from setuptools import setup\n\n"
    "setup(name='voluptuous', packages=['voluptuous'],"
    " package_data={'voluptuous': ['py.typed']})\n"
)
# voluptuous's `validators.py` at 65f736c's parent, cut down: an alias only annotations read
_BOUNDED = (
    "    def __init__(\n"
    "        self,\n"
    "        min: {t} = None,\n"
    "        max: {t} = None,\n"
    "        msg: typing.Optional[str] = None,\n"
    "    ) -> None:\n"
    "        self.min = min\n"
    "        self.max = max\n"
    "        self.msg = msg\n\n"
    "    def __call__(self, v):\n"
    "        if self.min is not None and v < self.min:\n"
    "            raise ValueError(self.msg or 'too small')\n"
    "        return v\n\n\n"
)
_IN = (
    "class In(object):\n"
    '    """Validate that a value is in a collection."""\n\n'
    "    def __init__(\n"
    "        self, container: {c}, msg: typing.Optional[str] = None\n"
    "    ) -> None:\n"
    "        self.container = container\n"
    "        self.msg = msg\n\n"
    "    def __call__(self, v):\n"
    "        if v not in self.container:\n"
    "            raise ValueError(self.msg or 'not in')\n"
    "        return v\n"
)


def _validators(*, new: bool, container: str = "typing.Iterable") -> str:
    head = (
        "# fmt: off\nfrom __future__ import annotations\n\nimport typing\n\n"
        "if typing.TYPE_CHECKING:\n    from _typeshed import SupportsAllComparisons\n\n\n"
        if new
        else "# fmt: off\nimport typing\n\n\nNullableNumber = typing.Union[int, float, None]\n\n\n"
    )
    kind = "SupportsAllComparisons | None" if new else "NullableNumber"
    classes = "".join(
        f"class {name}(object):\n" + _BOUNDED for name in ("Range", "Clamp", "Length")
    )
    return head + classes.replace("{t}", kind) + _IN.replace("{c}", container)


def _claims_hold(verdicts: list[Verdict]) -> None:
    assert Verdict.FALSE not in verdicts


def test_bounds_retyped_in_three_classes_are_one_sentence_of_type_hints(tmp_path: Path) -> None:
    analysis, verdicts = checked_entry(
        tmp_path,
        {VALIDATORS: _validators(new=False), MARKER: "", "setup.py": SETUP},
        {VALIDATORS: _validators(new=True)},
        "Improve validator typing to allow non-number formats for min and max (#516)",
    )
    assert analysis.summary == (
        "Type hints only (runtime unchanged, but the type alias `NullableNumber` is gone): "
        "the parameters `min`, `max` of `Range`, `Clamp`, `Length` now take "
        "`SupportsAllComparisons | None` (was `NullableNumber`)."
    )
    # said once: no sentence per class, nor per parameter
    text = entry_text(analysis)
    assert text.count("now take") == 1
    assert "more" not in text
    assert analysis.importance is Importance.MEDIUM
    assert not analysis.recommendations
    # each class's each bound, checked against the clone
    assert verdicts == [Verdict.TRUE] * 6


@pytest.mark.parametrize(
    ("typed", "importance"), [(True, Importance.MEDIUM), (False, Importance.LOW)]
)
def test_a_narrowed_parameter_type_is_medium_only_where_users_checkers_read_it(
    tmp_path: Path, typed: bool, importance: Importance
) -> None:
    # voluptuous 4a610d3 (`In`'s `container`: `Iterable` → `Container`) beside 65f736c, the
    # same kind of change: the same level
    before = {VALIDATORS: _validators(new=True), "setup.py": SETUP}
    if typed:
        before[MARKER] = ""
    analysis, verdicts = checked_entry(
        tmp_path,
        before,
        {VALIDATORS: _validators(new=True, container="typing.Container")},
        "Use typing.Container for In validator (#518)",
    )
    assert analysis.summary == (
        "Type hints only (runtime unchanged): the parameter `container` of `In` now takes "
        "`typing.Container` (was `typing.Iterable`)."
    )
    assert analysis.importance is importance
    _claims_hold(verdicts)


def test_a_docstring_reworded_is_no_change_of_type_hints(tmp_path: Path) -> None:
    reworded = _validators(new=True).replace("is in a collection", "is one of a collection")
    analysis, _ = checked_entry(
        tmp_path,
        {VALIDATORS: _validators(new=True), MARKER: "", "setup.py": SETUP},
        {VALIDATORS: reworded},
        "Reword the In docstring",
    )
    assert "Type hints only" not in entry_text(analysis)
    assert analysis.importance is Importance.LOW


DATA = "dacite/data.py"
# dacite's `data.py` at ae4fd06's first parent, and at the merge
_DATA_BEFORE = (
    "try:\n"
    "    from typing import Protocol  # type: ignore\n"
    "except ImportError:\n"
    "    from typing_extensions import Protocol  # type: ignore\n\n\n"
    "# fmt: off\n"
    "class Data(Protocol):\n"
    "    def keys(self): ...\n\n"
    "    def __getitem__(self, item): ...\n\n"
    "    def __contains__(self, item): ...\n"
    "# fmt: on\n"
)
_DATA_AFTER = (
    "try:\n"
    "    from typing import Protocol, Any  # type: ignore\n"
    "except ImportError:\n"
    "    from typing_extensions import Protocol, Any  # type: ignore\n\n\n"
    "# fmt: off\n"
    "class Data(Protocol):\n"
    "    def keys(self) -> Any: ...\n"
    "    def __getitem__(self, *args, **kwargs) -> Any: ...\n"
    "    def __contains__(self, *args, **kwargs) -> bool: ...\n"
    "# fmt: on\n"
)
_CORE = (
    "from dacite.data import Data\n\n\ndef from_dict(data_class, data: Data):\n    return data\n"
)


def test_a_protocols_stub_signatures_typed_name_every_method_and_ask_no_test(
    tmp_path: Path,
) -> None:
    analysis, verdicts = checked_entry(
        tmp_path,
        {DATA: _DATA_BEFORE, "dacite/core.py": _CORE, "dacite/py.typed": ""},
        {DATA: _DATA_AFTER},
        "Fix class Data(Protocol) types declaration",
    )
    assert analysis.summary == (
        "Type hints only (runtime unchanged): the type hints in `Data.keys`, "
        "`Data.__getitem__`, `Data.__contains__` change."
    )
    # a test cannot pin a type hint at run time
    assert not [r for r in analysis.recommendations if r.audience is Audience.MAINTAINERS]
    assert analysis.importance is Importance.MEDIUM
    _claims_hold(verdicts)


def test_a_fix_of_a_protocols_method_that_runs_still_asks_for_a_test(tmp_path: Path) -> None:
    # a body that runs (a default method of the protocol) is code a test pins
    before = _DATA_BEFORE.replace(
        "def __contains__(self, item): ...",
        "def __contains__(self, item):\n        return item in self.keys()",
    )
    after = before.replace("return item in self.keys()", "return item in list(self.keys())")
    analysis, _ = checked_entry(
        tmp_path,
        {DATA: before, "dacite/core.py": _CORE, "dacite/py.typed": ""},
        {DATA: after},
        "Fix Data.__contains__ on views",
    )
    assert "Type hints only" not in entry_text(analysis)
    assert any("regression test" in r.text for r in analysis.recommendations)


def _protocol_change(before: str, after: str) -> tuple[str, ...] | None:
    return typing_only(FileChange(filename=DATA, status="modified", before=before, after=after))


def test_typing_only_reads_protocol_stubs_and_aliases_only_annotations_use() -> None:
    assert _protocol_change(_DATA_BEFORE, _DATA_AFTER) == ()
    # an alias the code reads at run time is code
    runtime = "import typing\n\nNumber = typing.Union[int, float]\n\n\ndef f(v):\n    return isinstance(v, typing.get_args(Number))\n"
    assert (
        _protocol_change(runtime, runtime.replace("Number = typing.Union[int, float]\n", ""))
        is None
    )
    # one only annotations read is a type checker's, said dropped
    typed = "import typing\n\nNumber = typing.Union[int, float]\n\n\ndef f(v: Number) -> None:\n    return None\n"
    assert _protocol_change(
        typed,
        typed.replace("Number = typing.Union[int, float]\n", "").replace("v: Number", "v: int"),
    ) == ("Number",)
    # a class that is no `Protocol`: its methods' parameters are what callers pass
    plain = _DATA_BEFORE.replace("class Data(Protocol)", "class Data")
    assert (
        _protocol_change(plain, _DATA_AFTER.replace("class Data(Protocol)", "class Data")) is None
    )


def test_hermits_bin_is_a_developers_tool_its_files_said_added(tmp_path: Path) -> None:
    root = tmp_path / "repo"
    root.mkdir()
    _git(root, "init", "-q", "-b", "main")
    commit_files(root, {"voluptuous/__init__.py": "__version__ = '0.15.0'\n"}, "Initial layout")
    bin_dir = root / "bin"
    bin_dir.mkdir()
    generated = (
        "#!/bin/bash\n#\n# THIS FILE IS GENERATED; DO NOT MODIFY\n\n"
        'set -eo pipefail\nexec hermit "$@"\n'
    )
    (bin_dir / "hermit").write_text(generated)
    (bin_dir / "activate-hermit").write_text(generated.replace("exec hermit", "eval hermit"))
    (bin_dir / "hermit.hcl").write_text("")
    (bin_dir / "README.hermit.md").write_text(
        "# Hermit environment\n\nThis is a Hermit bin directory.\n"
    )
    (bin_dir / ".python3-3.12.3.pkg").symlink_to("hermit")
    for name in ("python", "python3", "pip", "pip3"):
        os.symlink(".python3-3.12.3.pkg", bin_dir / name)
    commit_files(root, {}, "chore: add Hermit Python")
    (_, commit), *_ = git_history(root, branch="HEAD~1..HEAD")
    analysis = analyze(commit)
    assert analysis.importance is Importance.LOW
    assert analysis.summary == "Adds 9 files under `bin/`."
    assert "generated" not in entry_text(analysis).lower()


# backoff's `_decorator.py` at b976219's parent, cut down: the handlers annotated with an alias
# of the package's own (`_Handler`), which a type checker reads and the module evaluates
_DECORATOR = (
    "# fmt: off\nfrom typing import Any, Callable, {imports}\n\n"
    "from backoff._typing import _Handler\n\n\n"
    "def on_predicate(wait_gen: Any,\n"
    "                 on_success: {t} = None,\n"
    "                 on_backoff: {t} = None,\n"
    "                 on_giveup: {t} = None) -> Callable:\n"
    "    return wait_gen\n\n\n"
    "def on_exception(wait_gen: Any,\n"
    "                 on_success: {t} = None,\n"
    "                 on_backoff: {t} = None,\n"
    "                 on_giveup: {t} = None) -> Callable:\n"
    "    return wait_gen\n"
)


def test_handlers_retyped_in_two_decorators_are_one_sentence_naming_them_all(
    tmp_path: Path,
) -> None:
    old = _DECORATOR.replace("{imports}", "Optional").replace("{t}", "Optional[_Handler]")
    new = _DECORATOR.replace("{imports}", "Iterable, Optional, Union").replace(
        "{t}", "Union[_Handler, Iterable[_Handler]]"
    )
    typing_module = "from typing import Callable\n\n_Handler = Callable[[dict], None]\n"
    analysis, verdicts = checked_entry(
        tmp_path,
        {
            "backoff/_decorator.py": old,
            "backoff/_typing.py": typing_module,
            "backoff/__init__.py": "",
        },
        {"backoff/_decorator.py": new},
        "Update decorators on_success, on_backoff, on_giveup parameters",
    )
    text = entry_text(analysis)
    # every handler of both decorators, in one sentence said once (not one handler in the
    # summary and another in the compatibility note), said to be annotations alone: the
    # module evaluates them, and `_Handler` passed `typing`'s checks before as after
    assert text.count("now take") == 1, text
    assert analysis.summary == (
        "Type hints only (runtime unchanged): the parameters `on_success`, `on_backoff`, "
        "`on_giveup` of `on_predicate`, `on_exception` now take "
        "`Union[_Handler, Iterable[_Handler]]` (was `Optional[_Handler]`)."
    )
    # the title's "add" names no feature: users run the same code
    assert ChangeType.FEATURE not in analysis.change_types
    assert analysis.importance is Importance.LOW  # (no `py.typed`: no user's checker reads them)
    _claims_hold(verdicts)


def test_a_project_name_new_to_type_arguments_is_not_proven_to_evaluate(tmp_path: Path) -> None:
    # `_Other` was never given to `typing` before: `Union[_Handler, _Other]` may raise at import
    old = _DECORATOR.replace("{imports}", "Optional").replace("{t}", "Optional[_Handler]")
    new = _DECORATOR.replace("{imports}", "Optional, Union").replace(
        "{t}", "Union[_Handler, _Other]"
    )
    new = new.replace("import _Handler", "import _Handler, _Other")
    f = FileChange(
        filename="backoff/_decorator.py",
        status="modified",
        additions=8,
        deletions=8,
        before=old.replace("import _Handler", "import _Handler, _Other"),
        after=new,
    )
    assert typing_only(f) is None
    proven = f.model_copy(update={"after": new.replace("_Other]", "Iterable[_Handler]]")})
    assert typing_only(proven) is None  # `Iterable` not imported: a `NameError`
    imported = proven.model_copy(
        update={"after": proven.after.replace("Optional, Union", "Iterable, Optional, Union")}
    )
    assert typing_only(imported) == ()


def test_one_functions_return_retyped_reads_returns(tmp_path: Path) -> None:
    # backoff 6cb1a4e: `expo` alone given one new return type, `constant` and `runtime` another
    def gen(t_expo: str, t_rest: str) -> str:
        return (
            "from typing import Any, Generator, Optional\n\n\n"
            f"def expo(base: float = 2) -> {t_expo}:\n    yield base\n\n\n"
            f"def constant(interval: float = 1) -> {t_rest}:\n    yield interval\n\n\n"
            f"def runtime(value: float = 1) -> {t_rest}:\n    yield value\n"
        )

    analysis, verdicts = checked_entry(
        tmp_path,
        {
            "backoff/_wait_gen.py": gen(
                "Generator[Optional[float], Any, None]", "Generator[Optional[float], None, None]"
            ),
            "backoff/__init__.py": "from backoff._wait_gen import constant, expo, runtime\n",
            "setup.py": SETUP.replace("voluptuous", "backoff"),
            "backoff/py.typed": "",
        },
        {
            "backoff/_wait_gen.py": gen(
                "Generator[float, Any, None]", "Generator[float, None, None]"
            )
        },
        "Fix type hint for wait generator",
    )
    text = entry_text(analysis)
    assert "`expo` now returns `Generator[float, Any, None]`" in text, text
    assert "`constant`, `runtime` now return `Generator[float, None, None]`" in text, text
    # each function's return read by the checker, `expo`'s "returns" as the others' "return"
    assert verdicts == [Verdict.TRUE] * 3
