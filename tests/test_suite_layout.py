"""The suite's own layout: what tests share lives in support modules (scenarios, support, the
fakes, the checkers), never in a test module that another module imports."""

from __future__ import annotations

import ast
import importlib
import re
from pathlib import Path

import pytest

TESTS = Path(__file__).parent


def imported_modules(source: str, package: str) -> list[str]:
    """Every module `source` imports, by absolute dotted name (`from a import b` names both `a`
    and `a.b`: `b` may be a module), relative imports resolved against `package`."""
    found: list[str] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")
                parent = parts[: len(parts) - (node.level - 1)]
                base = ".".join([*parent, base] if base else parent)
            found.append(base)
            found += [f"{base}.{alias.name}" for alias in node.names]
    return found


def test_the_examples_of_how_to_write_a_test_import_helpers_that_exist() -> None:
    """docs/testing.md's examples are copied into new tests: each name they import is there."""
    page = (TESTS.parent / "docs" / "testing.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(.*?)```", page, re.DOTALL)
    assert len(blocks) >= 2  # a pure table, a scenario through the fake GitHub
    missing = [
        f"{node.module}.{alias.name}"
        for block in blocks
        for node in ast.walk(ast.parse(block))
        if isinstance(node, ast.ImportFrom) and node.module
        for alias in node.names
        if not hasattr(importlib.import_module(node.module), alias.name)
    ]
    assert missing == []


def is_test_module(name: str) -> bool:
    """A module pytest collects from the suite: `tests.…test_x…`."""
    parts = name.split(".")
    return parts[0] == "tests" and any(p.startswith("test_") for p in parts[1:])


def test_no_module_of_the_suite_imports_a_test_module() -> None:
    offenders = [
        f"{path.relative_to(TESTS.parent)} imports {name}"
        for path in sorted(TESTS.rglob("*.py"))
        for name in imported_modules(
            path.read_text(encoding="utf-8"), ".".join(path.relative_to(TESTS.parent).parent.parts)
        )
        if is_test_module(name)
    ]
    assert offenders == []


@pytest.mark.parametrize(
    ("source", "package", "offends"),
    [
        ("import tests.test_render", "tests", True),
        ("from tests.test_render import CASES", "tests", True),
        ("from tests import test_render", "tests", True),
        ("from tests import scenarios, test_render", "tests", True),
        ("from . import test_render", "tests", True),
        ("from .test_render import CASES", "tests", True),
        ("from ..test_render import CASES", "tests.fakes", True),
        ("def f():\n    from tests.test_render import CASES", "tests", True),
        ("from tests.scenarios import land", "tests", False),
        ("from tests import scenarios", "tests", False),
        ("from ..support import replay_day", "tests.fakes", False),
        ("from . import github", "tests.fakes", False),
        ("import bot.jobs.publish", "tests", False),
        ("from bot.analysis import test_data", "tests", False),  # not the suite's
    ],
)
def test_the_guard_sees_every_form_of_import(source: str, package: str, offends: bool) -> None:
    names = imported_modules(source, package)
    assert any(is_test_module(n) for n in names) == offends, names
