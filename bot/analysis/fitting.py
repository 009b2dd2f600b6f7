"""A model's answer fitted to the analysis' bounds before it is validated: the first items of
a list kept up to its bound, an item that cannot be kept (a risk with no sentence end within
its bound, an impact area too long) dropped alone, never the whole answer for one of them.
A long text keeps its whole sentences (the models' own validators, `fit_sentences`)."""

from __future__ import annotations

from typing import Any

import pydantic

from bot.models import AnalysisBody, ChangeType, ImpactArea, Insights, Recommendation, Risk

_ITEMS: dict[str, type[pydantic.BaseModel]] = {
    "impact": ImpactArea,
    "risks": Risk,
    "recommendations": Recommendation,
}


def _bound(field: str) -> int:
    for meta in AnalysisBody.model_fields[field].metadata:
        if isinstance(getattr(meta, "max_length", None), int):
            return int(meta.max_length)
    raise LookupError(field)


def _kept(item: Any, model: type[pydantic.BaseModel]) -> bool:
    try:
        model.model_validate(item)
    except pydantic.ValidationError:
        return False
    return True


def fit_answer(data: Any) -> Any:
    """`data` (an answer's parsed JSON) within the bounds of `AnalysisBody`; what is not a
    JSON object is returned as it is, for validation to reject."""
    if not isinstance(data, dict):
        return data
    fitted = dict(data)
    types = data.get("change_types")
    if isinstance(types, list):
        known = [t for t in dict.fromkeys(map(str, types)) if t in ChangeType.__members__.values()]
        fitted["change_types"] = known[: _bound("change_types")] or types
    for field, model in _ITEMS.items():
        items = data.get(field)
        if isinstance(items, list):
            fitted[field] = [i for i in items if _kept(i, model)][: _bound(field)]
    insights = data.get("insights")
    if isinstance(insights, dict):
        fitted["insights"] = {
            k: v
            for k, v in insights.items()
            if k in Insights.model_fields and _kept({k: v}, Insights)
        }
    return fitted
