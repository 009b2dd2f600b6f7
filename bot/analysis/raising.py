"""What callers of a shipped module meet from its raises and its metadata, as risks: a new
exception on a public function's default path, an exception class changed, `__version__`
gone; and what the code proves of a change only its title calls breaking."""

from __future__ import annotations

from collections.abc import Iterable

from bot.analysis.facts.records import RaiseReached
from bot.analysis.paths import PathKind, path_kind
from bot.analysis.phrases import AnalysisPhrases, forms, sentence
from bot.analysis.removed import module_name
from bot.analysis.signals import Signals
from bot.analysis.spans import code
from bot.analysis.unreleased import never_released
from bot.models import Risk

# a hook's or helper's names shown, the rest counted
_SHOWN = 3


def _codes(p: AnalysisPhrases, names: Iterable[str], limit: int = _SHOWN) -> str:
    unique = list(dict.fromkeys(names))
    shown = p.list_sep.join(code(n) for n in unique[:limit])
    if len(unique) > limit:
        return p.more.format(shown=shown, count=len(unique) - limit)
    return shown


def _shipped(sig: Signals, path: str, name: str) -> bool:
    """A public function (or module) of a shipped, non-private module a release may hold."""
    return (
        sig.constant_shipped(path)
        and path_kind(path) is not PathKind.TESTS
        and not never_released(sig, name)
    )


def _raised(fact: RaiseReached) -> str:
    if fact.message is None:
        return code(fact.exception)
    quoted = fact.message.replace("\\", "\\\\").replace('"', '\\"')
    return code(f'{fact.exception}("{quoted}")')


def _breaks(fact: RaiseReached) -> bool:
    """Reached with the function's defaults, from a hook the parent set to a callable that
    raised nothing: input the parent accepted that way may now fail."""
    return fact.default and bool(fact.replaced)


def _reached_risk(p: AnalysisPhrases, fact: RaiseReached) -> Risk:
    when = ""
    if fact.when:
        phrase = p.reached_when_default if fact.default else p.reached_when
        when = phrase.format(test=fact.when)
    said = p.raises_reached.format(name=fact.name, raised=_raised(fact), when=when)
    # the hooks that raised nothing at the parent first: what the change makes refuse
    hooks = sorted(fact.hooks, key=lambda h: h not in fact.replaced)
    how = (
        p.reached_hooks.format(hooks=_codes(p, hooks))
        if hooks
        else p.reached_helper.format(holder=fact.holder)
    )
    if _breaks(fact):
        accepted = p.hooks_accepted.format(name=fact.name, hooks=_codes(p, fact.replaced))
        how = f"{how}{p.sentence_sep}{accepted}"
    return Risk(description=sentence(p, said), consequence=how)


def raise_breaks(sig: Signals, p: AnalysisPhrases) -> list[Risk]:
    """The breaking risks of raises: a public function that now raises from a hook reached
    with its defaults where the parent's hook raised nothing (xmltodict c986d2d: `parse`'s
    expat handlers under `if disable_entities:`, default `True`); one whose `raise` now
    gives a class that is no subclass of the old (25b61a4: `ValueError`, was `ExpatError`),
    which callers' `except` no longer catches."""
    risks = [
        _reached_risk(p, fact)
        for fact in sig.facts.raises_reached
        if _breaks(fact) and _shipped(sig, fact.path, fact.name)
    ]
    for change in sig.facts.raises_retyped:
        if not _shipped(sig, change.path, change.name):
            continue
        where = ""
        if change.hooks:
            where = p.retyped_from.format(holder=change.hooks[0])
        elif change.holder != change.name:
            where = p.retyped_from.format(holder=change.holder)
        if change.when:
            where += p.reached_when.format(test=change.when)
        said = p.raises_retyped.format(
            name=change.name, new=change.exception, old=change.was, where=where
        )
        risks.append(
            Risk(
                description=sentence(p, said),
                consequence=p.retyped_uncaught.format(
                    name=change.name, new=change.exception, old=change.was
                ),
            )
        )
    return risks


def proven_breaks(sig: Signals) -> bool:
    """Whether `raise_breaks` or `metadata_breaks` finds a break: none a name added earlier
    the same day settles (`digest/sameday.py`)."""
    return bool(
        any(_breaks(f) and _shipped(sig, f.path, f.name) for f in sig.facts.raises_reached)
        or any(_shipped(sig, c.path, c.name) for c in sig.facts.raises_retyped)
        or any(sig.constant_shipped(path) for path, _ in sig.facts.metadata_gone)
    )


def raise_news(sig: Signals, p: AnalysisPhrases) -> list[Risk]:
    """The raises a public function now reaches that are not proven to fail input the
    parent accepted: a behaviour callers meet, said without the breaking verdict. One risk
    for each function, the function raising and the exception: the first message said, the
    others counted (xmltodict f98c90f: five `ValueError`s of `_validate_name`)."""
    groups: dict[tuple[str, str, str], list[RaiseReached]] = {}
    for fact in sig.facts.raises_reached:
        if not _breaks(fact) and _shipped(sig, fact.path, fact.name):
            groups.setdefault((fact.name, fact.holder, fact.exception), []).append(fact)
    risks = []
    for facts in groups.values():
        risk = _reached_risk(p, facts[0])
        if len(facts) > 1:
            more = forms(p.reached_more, len(facts) - 1).format(count=len(facts) - 1)
            described = risk.description.removesuffix(p.sentence_end) + more
            risk = risk.model_copy(update={"description": sentence(p, described)})
        risks.append(risk)
    return risks


def metadata_breaks(sig: Signals, p: AnalysisPhrases) -> list[Risk]:
    """`module.__version__` (`__author__`, …) a shipped module no longer binds
    (`facts/dunders.py`): code that reads it now fails with `AttributeError`."""
    by_path: dict[str, list[str]] = {}
    for path, name in sig.facts.metadata_gone:
        if sig.constant_shipped(path):
            by_path.setdefault(path, []).append(name)
    risks = []
    for path, names in by_path.items():
        # `__version__` first: the one most code reads
        names.sort(key=lambda n: (n != "__version__", n))
        module = module_name(path)
        dotted = [f"{module}.{n}" for n in names]
        risks.append(
            Risk(
                description=sentence(p, p.removes_from.format(names=_codes(p, names), path=path)),
                consequence=forms(p.metadata_fails, len(names)).format(names=_codes(p, dotted)),
            )
        )
    return risks


def title_only_said(sig: Signals, p: AnalysisPhrases) -> str | None:
    """What the code proves of a change whose only breaking evidence is its title's mark:
    no public name removed (`facts.names_kept`), and the Python requirement the same at
    both revisions where the metadata states it; None where nothing is proven."""
    if not sig.facts.names_kept:
        return None
    if sig.facts.python_kept:
        return p.bang_python_kept.format(python=sig.facts.python_kept)
    return p.bang_no_names
