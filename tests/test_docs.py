"""The example posts in `docs/examples/` are what `python -m docs.generate` writes today, and
the README's front door shows them and a config that works."""

from __future__ import annotations

import importlib
import re
import textwrap
import tomllib
from functools import cache
from pathlib import Path

import pytest

from bot.__main__ import main as bot_main
from bot.digest.anchors import Slugger
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


def _headings(text: str) -> set[str]:
    """The anchors GitHub gives a Markdown file's headings (those outside code blocks)."""
    slugger, found, fenced = Slugger(), set(), False
    for line in text.splitlines():
        if line.startswith("```"):
            fenced = not fenced
        elif not fenced and (m := re.match(r"#{1,6} (.+)", line)):
            found.add(slugger.slug(m.group(1)))
    return found


def _links(text: str) -> list[str]:
    """The link targets of a Markdown text, its code blocks and code spans left out."""
    text = re.sub(r"```.*?```", "", text, flags=re.DOTALL)
    text = re.sub(r"`[^`\n]*`", "", text)
    return re.findall(r"\]\(([^)\s]+)\)", text)


DOC_PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]


@pytest.mark.parametrize("page", DOC_PAGES, ids=lambda p: p.name)
def test_every_link_of_the_readme_and_the_reference_resolves(page: Path) -> None:
    broken = []
    for target in _links(page.read_text(encoding="utf-8")):
        if re.match(r"[a-z][a-z0-9+.-]*:", target):
            continue  # a URL
        path, _, anchor = target.partition("#")
        file = (page.parent / path).resolve() if path else page
        if not file.exists() or (
            anchor and file.suffix == ".md" and anchor not in _headings(file.read_text())
        ):
            broken.append(target)
    assert broken == []


def test_the_readme_is_a_front_door_and_the_reference_is_in_docs() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(readme.splitlines()) <= 300
    linked = {(ROOT / t.partition("#")[0]).resolve() for t in _links(readme)}
    assert {p.resolve() for p in DOC_PAGES[1:]} <= linked, "a page of docs/ the README never names"


def test_the_readmes_ten_keys_are_a_valid_config() -> None:
    part = readme_part("## The config file", "\n## ")
    (block,) = re.findall(r"```yaml\n(.*?)```", part, flags=re.DOTALL)
    config = parse_config(block)
    assert config.timezone == "Asia/Shanghai" and config.alerts.on == ["breaking"]
    assert config.weekly.enabled and config.exclude.paths == ["docs/**"]
