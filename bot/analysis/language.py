"""Whether an answer is written in the language asked for: Simplified Chinese has more CJK
characters than half its words in Latin letters (code spans aside: names stay as written);
English has fewer."""

from __future__ import annotations

import re

from bot.models import AnalysisBody

_SPAN = re.compile(r"(`+).+?\1", re.DOTALL)
_CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
_LATIN_WORD = re.compile(r"[A-Za-z]{2,}")


def _prose(body: AnalysisBody) -> str:
    parts = [body.summary]
    if body.insights is not None:
        parts += [t for t in body.insights.model_dump().values() if t]
    parts += [r.description for r in body.risks]
    parts += [r.text for r in body.recommendations]
    return _SPAN.sub(" ", "\n".join(parts))


def chinese(text: str) -> bool:
    """Whether `text` reads as Chinese (see the module)."""
    cjk = len(_CJK.findall(text))
    return cjk > 0 and 2 * cjk >= len(_LATIN_WORD.findall(text))


def written_in(body: AnalysisBody, language: str) -> bool:
    """Whether the answer's prose is in `language` (`zh-CN` or English)."""
    return chinese(_prose(body)) == (language == "zh-CN")
