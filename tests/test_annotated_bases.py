"""What only a type checker reads, in a module that does not defer its annotations: tenacity
1b2b4ef "fix: resolve tornado mypy errors instead of suppressing them" (a class-level
`sleep: typing.Callable[..., "Future[None]"]` on a subclass of the package's own
`BaseRetrying`, `# type: ignore` comments moved, a mypy override dropped) and 7efa2fe "fix:
use typing.Self on Python 3.11+" (an import under `if TYPE_CHECKING:`) are low; the same
annotation on a class whose base reads annotations (a `NamedTuple`, a dataclass, one of
another package's, one with `__init_subclass__`), or one whose evaluation may fail, is
not proven to change nothing. tenacity c4bada4's "auto-fix" is a linter's, no bug fix."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from bot.analysis.facts.erasure import evaluates_alone
from bot.cli.claims_eval import entry_text
from bot.models import Analysis, ChangeType, Importance
from tests.clones import checked_entry

pytestmark = pytest.mark.usefixtures("environ_clean", "keep_test_logging")

INIT = "tenacity/__init__.py"
TORNADO = "tenacity/tornadoweb.py"
# tenacity's `__init__.py` at 1b2b4ef's parent, cut down: the base class, abstract, plain
_INIT = (
    "import typing as t\n"
    "from abc import ABC, abstractmethod\n\n\n"
    "def sleep(seconds: float) -> None:\n"
    "    return None\n\n\n"
    "class BaseRetrying(ABC):\n"
    "    def __init__(self, sleep: t.Callable[[float], None] = sleep, **kwargs: t.Any):\n"
    "        self.sleep = sleep\n"
    "        self.kwargs = kwargs\n\n"
    "    @abstractmethod\n"
    "    def __call__(self, fn: t.Callable[..., t.Any]) -> t.Any:\n"
    "        pass\n\n"
    "    def copy(self) -> 'BaseRetrying':\n"
    "        return self.__class__(sleep=self.sleep, **self.kwargs)\n\n\n"
    "class DoAttempt:\n"
    "    pass\n"
)
# `tornadoweb.py` at the parent: no `from __future__ import annotations`
_TORNADO = (
    "import typing\n\n"
    "from tenacity import BaseRetrying\n"
    "from tenacity import DoAttempt\n\n"
    "from tornado import gen\n\n"
    "if typing.TYPE_CHECKING:\n"
    "    from tornado.concurrent import Future\n\n"
    '_RetValT = typing.TypeVar("_RetValT")\n\n\n'
    "class TornadoRetrying({base}):\n"
    "    def __init__(\n"
    "        self,\n"
    '        sleep: "typing.Callable[[float], Future[None]]" = gen.sleep,\n'
    "        **kwargs: typing.Any,\n"
    "    ) -> None:\n"
    "        super().__init__(**kwargs)\n"
    "        self.sleep = sleep\n\n"
    "    @gen.coroutine  # type: ignore[untyped-decorator]\n"
    "    def __call__(\n"
    "        self,\n"
    '        fn: "typing.Callable[..., Future[_RetValT]]",\n'
    "        *args: typing.Any,\n"
    "        **kwargs: typing.Any,\n"
    '    ) -> "typing.Generator[typing.Any, typing.Any, _RetValT]":\n'
    "        while True:\n"
    "            do = self.iter(fn)\n"
    "            if isinstance(do, DoAttempt):\n"
    "                result = yield fn(*args, **kwargs)\n"
    "            else:\n"
    "                return do\n"
)
_ANNOTATED = "class TornadoRetrying({base}):\n    sleep: {annotation}\n\n    def __init__(\n"
_PYPROJECT = (
    '[project]\nname = "tenacity"\n\n'
    '[[tool.mypy.overrides]]\nmodule = "tornado.*"\nignore_missing_imports = true\n'
)
_OVERRIDE = (
    '\n[[tool.mypy.overrides]]\nmodule = ["tenacity.tornadoweb", "tests.test_tornado"]\n'
    "ignore_errors = true\n"
)
_TITLE = "fix: resolve tornado mypy errors instead of suppressing them (#568)"


def _typed(
    tmp_path: Path,
    *,
    base: str = "BaseRetrying",
    annotation: str = 'typing.Callable[..., "Future[None]"]',
    init: str = _INIT,
) -> Analysis:
    before = _TORNADO.format(base=base)
    after = before.replace(
        f"class TornadoRetrying({base}):\n    def __init__(\n",
        _ANNOTATED.format(base=base, annotation=annotation),
    ).replace(
        "    @gen.coroutine  # type: ignore[untyped-decorator]\n    def __call__(\n",
        "    @gen.coroutine\n    def __call__(  # type: ignore[override]\n",
    )
    assert after != before
    analysis, _ = checked_entry(
        tmp_path,
        {INIT: init, TORNADO: before, "pyproject.toml": _PYPROJECT + _OVERRIDE},
        {TORNADO: after, "pyproject.toml": _PYPROJECT},
        _TITLE,
    )
    return analysis


def test_an_annotation_of_a_plain_subclass_is_what_only_a_type_checker_reads(
    tmp_path: Path,
) -> None:
    analysis = _typed(tmp_path)
    assert analysis.importance is Importance.LOW
    text = entry_text(analysis)
    assert "The fix is in" not in text
    assert "regression test" not in text


@pytest.mark.parametrize(
    ("init", "base"),
    [
        # a base of another package's (`Base` from a library): what it reads is not known
        (_INIT, "gen.Base"),
        # its fields: a `NamedTuple`'s annotations make its tuple
        (_INIT.replace("class DoAttempt:\n", "class DoAttempt(t.NamedTuple):\n"), "DoAttempt"),
        # a dataclass base: itself decorated (a subclass decorated again makes `sleep` a field)
        (
            "import dataclasses\n"
            + _INIT.replace("class DoAttempt:", "@dataclasses.dataclass\nclass DoAttempt:"),
            "DoAttempt",
        ),
        # a hook each subclass runs may read its annotations
        (
            _INIT.replace(
                "class DoAttempt:\n    pass\n",
                "class DoAttempt:\n    def __init_subclass__(cls) -> None:\n"
                "        cls.fields = dict(cls.__annotations__)\n",
            ),
            "DoAttempt",
        ),
    ],
)
def test_an_annotation_of_a_subclass_whose_base_may_read_it_is_unproven(
    tmp_path: Path, init: str, base: str
) -> None:
    assert _typed(tmp_path, init=init, base=base).importance is not Importance.LOW


@pytest.mark.parametrize(
    "annotation",
    [
        # evaluated at the class's creation: `Future` is bound only for type checkers
        "typing.Callable[..., Future[None]]",
        # a builtin class subscripted raises before Python 3.9
        "list[int]",
        # `typing` itself refuses it
        "typing.Optional[int, str]",
    ],
)
def test_an_annotation_evaluated_at_run_time_that_may_raise_is_unproven(
    tmp_path: Path, annotation: str
) -> None:
    assert _typed(tmp_path, annotation=annotation).importance is not Importance.LOW


# tenacity 7efa2fe: `Self` imported for type checkers only, now by Python version
_SELF = (
    "import sys\n"
    "import typing as t\n\n"
    "if t.TYPE_CHECKING:\n"
    "    from typing_extensions import Self\n\n\n"
    "class BaseRetrying:\n"
    "    def __init__(self, stop: int = 3) -> None:\n"
    "        self.stop = stop\n\n"
    '    def copy(self, stop: int = 3) -> "Self":\n'
    "        return self.__class__(stop=stop)\n"
) + "".join(f"\n\ndef helper_{n}(value):\n    return value + {n}\n" for n in range(6))
_SELF_BY_VERSION = _SELF.replace(
    "    from typing_extensions import Self\n",
    "    if sys.version_info >= (3, 11):\n"
    "        from typing import Self\n"
    "    else:\n"
    "        from typing_extensions import Self\n",
)


@pytest.mark.parametrize(
    ("guard", "low"),
    [
        ("if t.TYPE_CHECKING:\n", True),
        # run at import: `typing.Self` does not exist before Python 3.11
        ("if True:\n", False),
    ],
)
def test_an_import_for_type_checkers_only_is_low_though_annotations_are_not_deferred(
    tmp_path: Path, guard: str, low: bool
) -> None:
    analysis, _ = checked_entry(
        tmp_path,
        {INIT: _SELF.replace("if t.TYPE_CHECKING:\n", guard)},
        {INIT: _SELF_BY_VERSION.replace("if t.TYPE_CHECKING:\n", guard)},
        "fix: use typing.Self on Python 3.11+ instead of typing_extensions (#576)",
    )
    assert (analysis.importance is Importance.LOW) is low


def test_a_linters_auto_fix_is_no_bug_fix(tmp_path: Path) -> None:
    # tenacity c4bada4: ruff's B028 passes `stacklevel`, which changes where the warning
    # points: code that runs, said as no fix
    warn = "import warnings\n\n\ndef retry(f):\n    warnings.warn('hang'{extra})\n    return f\n"
    analysis, _ = checked_entry(
        tmp_path,
        {"tenacity/retry.py": warn.format(extra="") + _INIT},
        {"tenacity/retry.py": warn.format(extra=", stacklevel=2") + _INIT},
        "chore: enable ruff I, UP, B rules and auto-fix codebase (#571)",
    )
    assert ChangeType.BUGFIX not in analysis.change_types
    assert "The fix is in" not in entry_text(analysis)


@pytest.mark.parametrize(
    ("module", "proven"),
    [
        ("import typing\nx: typing.Callable[..., 'Future[None]']\n", True),
        ("from typing import Optional\nx: Optional[int]\n", True),
        ("x: int\n", True),
        ("x: 'not python ('\n", False),
        ("from typing import Optional\nOptional = dict\nx: Optional[int]\n", False),
        ("int = str\nx: int\n", False),
        ("x: Optional[int]\nfrom typing import Optional\n", False),
        ("from typing import *\nx: int\n", False),
        ("import typing\nx: typing.Self\n", False),
        ("from typing import Callable\nx: Callable[int]\n", False),
    ],
)
def test_an_annotation_evaluates_alone_only_where_proven(module: str, proven: bool) -> None:
    tree = ast.parse(module)
    annotation = next(n for n in tree.body if isinstance(n, ast.AnnAssign)).annotation
    assert evaluates_alone(tree)(annotation) is proven
