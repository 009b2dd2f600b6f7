"""A progress bar on stderr for long offline work (tqdm), drawn only when stderr is a terminal:
piped or captured output gets no control characters."""

from __future__ import annotations

import sys
from collections.abc import Iterator, Sequence
from typing import Any, TypeVar

from tqdm import tqdm

T = TypeVar("T")


def bar(total: int, what: str) -> tqdm[Any]:
    """A bar of `total` commits; a no-op one when stderr is not a terminal."""
    stream = sys.stderr
    shown = stream.isatty()
    # `leave=False`: the bar is gone when done, and the summary line takes its place.
    return tqdm(total=total, desc=what, unit="commit", file=stream, disable=not shown, leave=False)


def each(items: Sequence[T], what: str) -> Iterator[T]:
    """The items, one at a time, with a bar counting them."""
    with bar(len(items), what) as shown:
        for item in items:
            yield item
            shown.update()
