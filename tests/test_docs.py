"""The example posts in `docs/examples/` are what `python -m docs.generate` writes today, and
the README's front door shows them and a config that works."""

from __future__ import annotations

import importlib
import re
import textwrap
import tomllib
from functools import cache

import pytest

from bot.__main__ import main as bot_main
from bot.repo_config import parse_config
from docs.generate import EXAMPLES, LANGUAGES, OUT, pages
from tests.support import ROOT

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


def readme_part(start: str, end: str) -> str:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    return text[text.index(start) + len(start) : text.index(end, text.index(start))]


def test_readme_excerpt_is_the_example_digest_word_for_word() -> None:
    excerpt = readme_part("<!-- excerpt of docs/examples/daily-headline.en.md", "<!-- end of")
    example = (OUT / "daily-headline.en.md").read_text(encoding="utf-8").splitlines()
    lines = [line.removeprefix(">").strip() for line in excerpt.splitlines()[1:]]
    shown = [line for line in lines if line]
    assert len(shown) >= 8
    missing = [line for line in shown if line not in example]
    assert not missing, f"README's excerpt differs from docs/examples (copy it again): {missing}"


def test_readme_first_config_is_valid_and_posts_to_a_discussion() -> None:
    part = readme_part("## From nothing to the first digest", "\n## ")
    (block,) = re.findall(r"```yaml\n(.*?)```", part, flags=re.DOTALL)
    config = parse_config(textwrap.dedent(block))
    assert config.publish.to == "discussion"
    assert config.publish.category == "General"


def test_the_commit_digest_command_is_python_m_bot() -> None:
    scripts = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["scripts"]
    module, _, function = scripts["commit-digest"].partition(":")
    assert getattr(importlib.import_module(module), function) is bot_main
