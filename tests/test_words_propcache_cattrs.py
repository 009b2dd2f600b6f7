"""Words on held-out aio-libs/propcache and python-attrs/cattrs (first read at 9bcc363): a
facade's emptied `__all__`, tests taken out of a mixin class, functions defined once per Python
version, one function name in several files; each a clone shaped like the commit."""

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


def test_a_new_class_s_test_named_like_another_class_s_is_added(tmp_path: Path) -> None:
    # attrs' tests: many classes have their own `test_repr`; a new class's stays new while
    # the old class's is still there (only a test taken out of its class is not added)
    old = "class TestFields:\n    def test_repr(self) -> None:\n        assert repr(1)\n"
    new = old + "\n\nclass TestFilters:\n    def test_repr(self) -> None:\n        assert repr(2)\n"
    analysis, _ = checked_entry(
        tmp_path,
        {"tests/test_funcs.py": old},
        {"tests/test_funcs.py": new},
        "Add tests for filters (#25)",
    )
    assert "TestFilters.test_repr" in entry_text(analysis)


def test_a_function_defined_per_python_version_is_compared_as_neither(tmp_path: Path) -> None:
    # cattrs dce7347 "Drop Python 3.8": `_compat.py` defined `is_generic(type)` under
    # `if sys.version_info >= (3, 9):` and `is_generic(obj)` under `else:`; the entry said
    # "`is_generic` no longer takes the parameter `obj` and gains the parameter `type`" and
    # "`copy_with` now calls `is_annotated`"
    helpers = "def is_annotated(type) -> bool:\n    return hasattr(type, '__metadata__')\n\n\n"
    modern = (
        "{i}def is_generic(type) -> bool:\n{i}    return hasattr(type, '__origin__')\n\n"
        "{i}def copy_with(type, args):\n"
        "{i}    if is_annotated(type):\n{i}        return type\n"
        "{i}    return type.copy_with(args)\n"
    )
    old = (
        "    def is_generic(obj) -> bool:\n        return False\n\n"
        "    def copy_with(type, args):\n        return type[args]\n"
    )
    before = (
        "import sys\n\n"
        + helpers
        + "if sys.version_info >= (3, 9):\n\n"
        + modern.format(i="    ")
        + "\nelse:\n\n"
        + old
    )
    after = "import sys\n\n" + helpers + modern.format(i="")
    analysis, verdicts = checked_entry(
        tmp_path,
        {"src/cattrs/_compat.py": before},
        {"src/cattrs/_compat.py": after},
        "Drop Python 3.8",
    )
    text = entry_text(analysis)
    assert "`obj`" not in text and "now calls" not in text
    assert all(v is Verdict.TRUE for v in verdicts)


def test_one_function_name_in_two_files_is_said_with_its_file(tmp_path: Path) -> None:
    # cattrs 8fe5373: `configure_converter` of `preconf/json.py` and of `preconf/bson.py`; only
    # json's newly calls `register_unstructure_hook_factory` (bson's did before); the entry
    # said "`configure_converter` now call `register_unstructure_hook_factory`"
    module = (
        "def register_unstructure_hook_factory(converter):\n    return converter\n\n\n"
        "def configure_converter(converter):\n{body}"
    )
    calls = "    register_unstructure_hook_factory(converter)\n"
    analysis, verdicts = checked_entry(
        tmp_path,
        {
            "src/cattrs/preconf/json.py": module.format(body="    return converter\n"),
            "src/cattrs/preconf/bson.py": module.format(body=calls + "    return 1\n"),
        },
        {
            "src/cattrs/preconf/json.py": module.format(body=calls + "    return converter\n"),
            "src/cattrs/preconf/bson.py": module.format(body=calls + "    return 2\n"),
        },
        "Fix unstructuring literals with enums (#598)",
    )
    text = entry_text(analysis)
    assert "`configure_converter` in `src/cattrs/preconf/json.py` now calls" in text
    assert all(v is Verdict.TRUE for v in verdicts)


def test_a_breaking_fragment_that_links_another_quotes_that_ones_words(tmp_path: Path) -> None:
    # propcache 6093ed1 "Remove 3.13t support (#223)": `CHANGES/223.breaking.rst` is a symlink
    # to `223.packaging.rst` (its blob's text is that name); the risk quoted the title as the
    # breaking fragment's words
    project = (
        '[project]\nname = "propcache"\n\n[tool.cibuildwheel]\nbuild-frontend = "build"\n{enable}'
    )
    analysis, _ = checked_entry(
        tmp_path,
        {"pyproject.toml": project.format(enable='enable = ["cpython-freethreading"]\n')},
        {
            "pyproject.toml": project.format(enable=""),
            "CHANGES/223.breaking.rst": "223.packaging.rst",
            "CHANGES/223.packaging.rst": "Dropped support for free-threaded Python 3.13 "
            "-- by :user:`Vizonex`.\n",
        },
        "Remove 3.13t support (#223)",
    )
    (risk,) = [r.description for r in analysis.risks if "223.breaking.rst" in r.description]
    assert "“Dropped support for free-threaded Python 3.13”" in risk
    assert "Remove 3.13t support" not in risk


def test_a_default_written_as_the_same_number_is_no_changed_default(tmp_path: Path) -> None:
    # stamina 4bab59d "Make default wait_exp_base an int": `wait_exp_base: float = 2.0` → `2`;
    # the entry said calls "behave differently" and was ⚠️ breaking
    source = "def retry(*, attempts: int = 10, wait_exp_base: float = {v}) -> None:\n    pass\n"
    analysis, verdicts = checked_entry(
        tmp_path,
        {"src/stamina/_core.py": source.format(v="2.0")},
        {"src/stamina/_core.py": source.format(v="2")},
        "Make default wait_exp_base an int",
    )
    text = entry_text(analysis)
    assert "default of" not in text and "behave differently" not in text
    assert not analysis.breaking
    assert all(v is Verdict.TRUE for v in verdicts)


def test_a_fix_of_annotations_alone_asks_for_no_regression_test(tmp_path: Path) -> None:
    # frozenlist 3048a04 "Fix PEP 517 backend config settings typing": only annotations of a
    # module that defers them changed; the entry said "No test changed with this fix of
    # `maybe_prebuild_c_extensions`, …: ask for a regression test." (titled here without
    # "typing", which would make it low before any advice)
    backend = (
        "from __future__ import annotations\n\n\n"
        "def build_wheel(wheel_directory: str, config_settings: {ann} = None) -> str:\n"
        "    return wheel_directory + str(config_settings or '')\n\n\n"
        "def build_editable(wheel_directory: str, config_settings: {ann} = None) -> str:\n"
        "    return build_wheel(wheel_directory, config_settings)\n"
    )
    analysis, _ = checked_entry(
        tmp_path,
        {"packaging/pep517_backend/_backend.py": backend.format(ann="dict[str, str] | None")},
        {"packaging/pep517_backend/_backend.py": backend.format(ann="dict[str, object] | None")},
        "Fix the PEP 517 backend config settings",
    )
    assert "regression test" not in entry_text(analysis)


def test_a_name_quoted_in_the_title_is_no_word_for_internal_work(tmp_path: Path) -> None:
    # cattrs e1ad8cd "Support `annotationlib.ForwardRef`": "annotation" inside the quoted
    # module's name read as the author calling it typing work; the entry said "Internal only"
    # and was low, for a change that makes the converter handle a new kind of type
    converter = (
        "try:\n    from annotationlib import ForwardRef as AnnotationForwardRef\n"
        "except ImportError:\n    AnnotationForwardRef = None\n\n"
        '__all__ = ["Converter"]\n\n\n'
        "class Converter:\n    def structure(self, obj, cl):\n{extra}"
        "        return cl(obj)\n"
    )
    extra = (
        "        if AnnotationForwardRef is not None and isinstance(cl, AnnotationForwardRef):\n"
        "            cl = cl.evaluate()\n"
    )
    analysis, _ = checked_entry(
        tmp_path,
        {"src/cattrs/converters.py": converter.format(extra="")},
        {"src/cattrs/converters.py": converter.format(extra=extra)},
        "Support `annotationlib.ForwardRef`",
    )
    assert "Internal only" not in entry_text(analysis)
