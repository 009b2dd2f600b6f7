"""The fixed strings: one catalogue per language, all of one shape, each saying the same things."""

from __future__ import annotations

import dataclasses
import string
from collections.abc import Iterator
from typing import Any

import pytest

from bot.analysis import phrases as analysis
from bot.digest.strings import catalogue
from bot.digest.strings.en import EN
from bot.digest.strings.zh_cn import ZH_CN

# The Chinese titles leave out the repository, which the post already sits in.
LEFT_OUT = {".digest.default_title": {"repo"}, ".weekly.title": {"repo"}}


def leaves(value: Any, path: str = "") -> Iterator[tuple[str, str]]:
    """Every string of a catalogue, with the path that reaches it."""
    if dataclasses.is_dataclass(value):
        for f in dataclasses.fields(value):
            yield from leaves(getattr(value, f.name), f"{path}.{f.name}")
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from leaves(item, f"{path}[{key}]")
    elif isinstance(value, tuple):
        for i, item in enumerate(value):
            yield from leaves(item, f"{path}[{i}]")
    else:
        assert isinstance(value, str), (path, value)
        yield path, value


def placeholders(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def test_each_language_has_one_catalogue_of_the_one_shape() -> None:
    assert catalogue("en") is EN and catalogue("zh-CN") is ZH_CN
    assert catalogue("fr") is EN  # a language the App does not speak reads as English
    assert type(EN) is type(ZH_CN)
    assert [path for path, _ in leaves(EN)] == [path for path, _ in leaves(ZH_CN)]


@pytest.mark.parametrize(
    ("english", "chinese"),
    [(EN, ZH_CN), (analysis.EN, analysis.ZH)],
    ids=["posts", "analysis"],
)
def test_every_string_takes_the_same_placeholders_in_every_language(
    english: Any, chinese: Any
) -> None:
    theirs = dict(leaves(chinese))
    differ = {
        path: (placeholders(text), placeholders(theirs[path]))
        for path, text in leaves(english)
        if placeholders(text) - LEFT_OUT.get(path, set()) != placeholders(theirs[path])
    }
    assert differ == {}
