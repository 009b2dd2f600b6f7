"""The example posts in `docs/examples/` are what `python -m docs.generate` writes today."""

from __future__ import annotations

from functools import cache

import pytest

from docs.generate import EXAMPLES, LANGUAGES, OUT, pages

NAMES = [f"{name}.{language}.md" for name in EXAMPLES for language in LANGUAGES]


@cache
def generated() -> dict[str, str]:
    return pages()


@pytest.mark.parametrize("name", NAMES)
def test_docs_examples_are_current(name: str) -> None:
    path = OUT / name
    assert path.exists(), f"run `python -m docs.generate` ({name} is missing)"
    assert path.read_text(encoding="utf-8") == generated()[name], (
        f"docs/examples/{name} is out of date; run `python -m docs.generate`"
    )
