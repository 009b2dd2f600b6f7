"""Every fixed string of the posts: one catalogue per language, all of one shape (`shape.py`)."""

from __future__ import annotations

from bot.digest.strings.en import EN
from bot.digest.strings.shape import Catalogue
from bot.digest.strings.zh_cn import ZH_CN

_CATALOGUES = {"en": EN, "zh-CN": ZH_CN}


def catalogue(language: str) -> Catalogue:
    """The catalogue of `language`; English for a language the App does not speak."""
    return _CATALOGUES.get(language, EN)
