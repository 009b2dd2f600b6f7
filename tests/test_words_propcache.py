"""Words on held-out aio-libs/propcache (first read at 9bcc363): a facade's emptied `__all__`,
tests taken out of a mixin class; each a clone shaped like the commit."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.cli.claim_check import Verdict
from bot.cli.claims_eval import entry_text
from tests.clones import checked_entry

pytestmark = pytest.mark.usefixtures("environ_clean", "keep_test_logging")

_FACADE = (
    "from typing import TYPE_CHECKING\n\n{public}"
    "__all__ = {all}\n\n"
    "if TYPE_CHECKING:\n    from .api import cached_property{alias}\n\n\n"
    "def _import_facade(attr: str) -> object:\n"
    "    if attr in {names}:\n"
    "        from . import api\n\n        return getattr(api, attr)\n"
    "    raise AttributeError(attr)\n\n\n"
    "__getattr__ = _import_facade\n"
)


def test_a_facade_that_empties_all_still_serves_its_names(tmp_path: Path) -> None:
    # propcache d85d326 "Adjust imports to ensure wildcard imports are prohibited": `__all__`
    # became `()` while `__getattr__ = _import_facade` still hands out both names; the entry
    # said "Removes `cached_property`, `under_cached_property` from `src/propcache/__init__.py`"
    before = _FACADE.format(public="", all='("cached_property",)', alias="", names="__all__")
    after = _FACADE.format(
        public='_PUBLIC_API = ("cached_property",)\n',
        all="()",
        alias=" as cached_property",
        names="_PUBLIC_API",
    )
    api = "class cached_property:\n    pass\n"
    analysis, verdicts = checked_entry(
        tmp_path,
        {"src/propcache/__init__.py": before, "src/propcache/api.py": api},
        {"src/propcache/__init__.py": after},
        "Adjust imports to ensure wildcard imports are prohibited (#32)",
    )
    assert "Removes" not in entry_text(analysis) and not analysis.breaking
    assert all(v is Verdict.TRUE for v in verdicts)


def test_tests_taken_out_of_a_mixin_class_are_not_added(tmp_path: Path) -> None:
    # propcache 8a68f5a "Adapt multidict C ext test implementation": `CachedPropertyMixin`'s
    # test methods became module functions taking a fixture; the entry said "Adds the tests
    # `test_cached_property_without_cache`, …" (and one test really was new)
    mixin = (
        "class CachedPropertyMixin:\n"
        "    def test_cached_property_without_cache(self) -> None:\n"
        "        assert self.cached_property is not None\n"
    )
    functions = (
        "def test_cached_property_without_cache(propcache_module) -> None:\n"
        "    assert propcache_module.cached_property is not None\n\n\n"
        "def test_cached_property_caching(propcache_module) -> None:\n"
        "    assert propcache_module.cached_property.__name__\n"
    )
    analysis, verdicts = checked_entry(
        tmp_path,
        {"tests/test_cached_property.py": mixin},
        {"tests/test_cached_property.py": functions},
        "Adapt multidict C ext test implementation (#25)",
    )
    text = entry_text(analysis)
    assert "test_cached_property_without_cache" not in text
    assert "test_cached_property_caching" in text
    assert all(v is Verdict.TRUE for v in verdicts)
