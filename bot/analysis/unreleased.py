"""Which names a change takes away that no release ever shipped: their loss breaks no user."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from typing import TypeVar

from bot.analysis.signals import Signals

T = TypeVar("T")

# an ASCII identifier, whole: what `\b` in git's Perl expressions bounds alike
_WORD = re.compile(r"(?<!\w)[A-Za-z][A-Za-z0-9_]*(?!\w)")


def names_in(text: str) -> list[str]:
    """The names in `text` a release's files are searched for (`bot/cli/clone_release.py`)."""
    return _WORD.findall(text)


def never_released(sig: Signals, name: str) -> bool:
    """Whether `name` (`f`, `Config.__init__`, `f(x)`) is proven in no release: a word of it
    no file of any version tag holds. Only a clone tells (`bot/cli/clone_release.py`);
    online, or without a version tag before the commit, False."""
    release = sig.last_release
    return release is not None and any(w in release.absent for w in names_in(name))


def released(sig: Signals, items: Iterable[T], name: Callable[[T], str]) -> list[T]:
    """Those of `items` whose `name` a release may have had: a change to them may break users."""
    return [item for item in items if not never_released(sig, name(item))]
