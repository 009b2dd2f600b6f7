"""Every fixed string of the posts: one catalogue per language, all of one shape (`shape.py`)."""

from __future__ import annotations

import re

from bot.digest.strings.en import EN
from bot.digest.strings.shape import Catalogue
from bot.digest.strings.zh_cn import ZH_CN

_CATALOGUES = {"en": EN, "zh-CN": ZH_CN}


def catalogue(language: str) -> Catalogue:
    """The catalogue of `language`; English for a language the App does not speak."""
    return _CATALOGUES.get(language, EN)


_CJK = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")


def is_original(text: str, language: str) -> bool:
    """Whether `text` is the author's own words, untranslated, in a Chinese post: the reader
    is told so (`原文`) instead of taking it for the App's Chinese."""
    return language == "zh-CN" and not _CJK.search(text)


def marked_original(text: str, language: str) -> str:
    """The text, after the original-text mark where it is the author's untranslated words."""
    return (
        f"{catalogue(language).digest.original_prefix}{text}"
        if is_original(text, language)
        else text
    )
