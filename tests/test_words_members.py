"""A public class's own method removed (issue 27): a break for callers where the class is
theirs and nothing gives it the method back; else only "Removes `C.m`". Clones shaped like
tenacity c18dcfb "Fix #307 : Drop deprecated APIs (#314)", which takes the long-deprecated
`BaseRetrying.call` out of `tenacity/__init__.py`."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.cli.claim_check import Verdict
from bot.cli.claims_eval import entry_text
from bot.models import Importance
from tests.clones import checked_entry

pytestmark = pytest.mark.usefixtures("environ_clean", "keep_test_logging")

# tenacity's retrying controllers, shortened
_TENACITY = """import threading
import warnings
from abc import ABC, abstractmethod

@HEAD@
    def __init__(self, sleep=None, reraise=False):
        self.sleep = sleep
        self.reraise = reraise
        self._local = threading.local()

    def begin(self):
        self.statistics = {"attempt_number": 1}

    @abstractmethod
    def __call__(self, fn, *args, **kwargs):
        pass
@CALL@

class Retrying(BaseRetrying):
    \"\"\"Retrying controller.\"\"\"

    def __call__(self, fn, *args, **kwargs):
        self.begin()
        return fn(*args, **kwargs)
"""
_CALL = """
    def call(self, *args, **kwargs):
        \"\"\"Use ``__call__`` instead because this method is deprecated.\"\"\"
        warnings.warn(
            "'call()' method is deprecated. " + "Use '__call__()' instead",
            DeprecationWarning,
        )
        return self.__call__(*args, **kwargs)
"""
_TITLE = "Fix #307 : Drop deprecated APIs (#314)\n\n* `BaseRetrying.call` was long time deprecated"


def _module(call: str, head: str = "class BaseRetrying(ABC):", source: str = _TENACITY) -> str:
    return source.replace("@HEAD@", head).replace("@CALL@", call)


def test_a_public_class_s_own_method_removed_breaks_its_callers(tmp_path: Path) -> None:
    # c18dcfb: "Removes `BaseRetrying.call`", said as the insides (its `begin`'s lost parameter,
    # left out of this shape, was the only break)
    analysis, verdicts = checked_entry(
        tmp_path,
        {"tenacity/__init__.py": _module(_CALL)},
        {"tenacity/__init__.py": _module("")},
        _TITLE,
    )
    text = entry_text(analysis)
    assert "Removes `BaseRetrying.call` from `tenacity/__init__.py`." in text
    assert "Calls to `BaseRetrying.call()` fail." in text
    assert analysis.breaking
    assert analysis.importance is Importance.HIGH
    assert Verdict.FALSE not in verdicts


def test_a_property_removed_is_code_that_uses_it(tmp_path: Path) -> None:
    prop = "\n    @property\n    def attempts(self):\n        return self.statistics\n"
    analysis, _ = checked_entry(
        tmp_path,
        {"tenacity/__init__.py": _module(prop)},
        {"tenacity/__init__.py": _module("")},
        "Drop the attempts property",
    )
    assert "Code that uses `BaseRetrying.attempts` fails." in entry_text(analysis)
    assert analysis.breaking


@pytest.mark.parametrize(
    ("head", "after_head", "extra"),
    [
        # a base of an unchanged file may define it: not followed, no break
        (
            "from .base import Controller\n\n\nclass BaseRetrying(Controller):",
            None,
            {},
        ),
        # the bases changed: the method may be inherited now
        (
            "class BaseRetrying(ABC):",
            "from .base import Controller\n\n\nclass BaseRetrying(ABC, Controller):",
            {},
        ),
        # a base of the commit's files that defines it gives it back
        (
            "from .base import Controller\n\n\nclass BaseRetrying(Controller):",
            None,
            {
                "tenacity/base.py": (
                    "class Controller:\n    pass\n",
                    "class Controller:\n    def call(self, *a):\n        return a\n",
                )
            },
        ),
        # an attribute its instances are given under the name keeps it
        ("class BaseRetrying(ABC):", "class BaseRetrying(ABC):\n    call = None\n", {}),
        # a class decorator may add it
        ("@register\nclass BaseRetrying(ABC):", None, {}),
    ],
)
def test_a_method_something_may_give_back_is_no_break(
    tmp_path: Path, head: str, after_head: str | None, extra: dict[str, tuple[str, str]]
) -> None:
    before = {"tenacity/__init__.py": _module(_CALL, head), **{p: b for p, (b, _) in extra.items()}}
    after = {
        "tenacity/__init__.py": _module("", after_head or head),
        **{p: a for p, (_, a) in extra.items()},
    }
    analysis, verdicts = checked_entry(tmp_path, before, after, "Drop the call method")
    assert "Calls to" not in entry_text(analysis)
    assert not analysis.breaking
    assert Verdict.FALSE not in verdicts


def test_a_method_set_on_the_instances_is_no_break(tmp_path: Path) -> None:
    # `self.call = …` in `__init__`: the instances still have it
    after = _module("").replace(
        "        self.reraise = reraise\n",
        "        self.reraise = reraise\n        self.call = self.__call__\n",
    )
    analysis, _ = checked_entry(
        tmp_path,
        {"tenacity/__init__.py": _module(_CALL)},
        {"tenacity/__init__.py": after},
        "Alias call",
    )
    assert not analysis.breaking


def test_a_private_module_s_class_breaks_only_where_its_package_hands_it_out(
    tmp_path: Path,
) -> None:
    handed = {"tenacity/__init__.py": "from ._retrying import BaseRetrying, Retrying\n"}
    analysis, _ = checked_entry(
        tmp_path,
        {**handed, "tenacity/_retrying.py": _module(_CALL)},
        {"tenacity/_retrying.py": _module("")},
        _TITLE,
    )
    assert "Calls to `BaseRetrying.call()` fail." in entry_text(analysis)
    assert analysis.breaking
    alone = tmp_path / "alone"
    analysis, _ = checked_entry(
        alone,
        {
            "tenacity/__init__.py": "from ._retrying import Retrying\n",
            "tenacity/_retrying.py": _module(_CALL),
        },
        {"tenacity/_retrying.py": _module("")},
        _TITLE,
    )
    assert not analysis.breaking


def test_a_module_listing_its_names_without_the_class_keeps_it_to_itself(tmp_path: Path) -> None:
    listed = '__all__ = ["Retrying"]\n\n'
    analysis, _ = checked_entry(
        tmp_path,
        {"tenacity/__init__.py": listed + _module(_CALL)},
        {"tenacity/__init__.py": listed + _module("")},
        _TITLE,
    )
    assert not analysis.breaking
