"""What to do about each wanted post, from what is recorded and what a marker search found.

Pure: no I/O. A post never attempted is created; one recorded as posted is kept or edited;
one whose create was sent but not confirmed (a crash, a 5xx or a timeout after GitHub may
have carried it out) is never created again blindly: a marker search comes first, and a
post found by its marker is adopted instead.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from bot.store.posts import PostKind, PostState, Recorded


def body_hash(body: str) -> str:
    return hashlib.sha256(body.encode()).hexdigest()[:16]


@dataclass(frozen=True)
class Wanted:
    key: str
    kind: PostKind
    marker: str
    body: str
    title: str | None = None

    @property
    def hash(self) -> str:
        return body_hash(self.body)


@dataclass(frozen=True)
class Found:
    """A post on GitHub that carries a wanted post's marker."""

    node_id: str
    url: str | None
    body: str
    number: int | None = None
    # Where it was found (a category id, a discussion id, an issue number): where it is.
    place: str | None = None

    def posted(self, key: str, kind: PostKind, parent: str | None, hashed: str) -> Recorded:
        """This post as the ledger records it: the wanted post `key`, made under `parent`."""
        return Recorded(
            key, kind, PostState.POSTED, parent, self.node_id, self.number, self.url, hashed
        )


@dataclass(frozen=True)
class Create:
    wanted: Wanted


@dataclass(frozen=True)
class Adopt:
    """Record a post found by its marker; edit it too when its body is not the wanted one."""

    wanted: Wanted
    found: Found

    @property
    def needs_update(self) -> bool:
        return body_hash(self.found.body) != self.wanted.hash


@dataclass(frozen=True)
class Update:
    wanted: Wanted
    recorded: Recorded


@dataclass(frozen=True)
class Keep:
    wanted: Wanted
    recorded: Recorded


@dataclass(frozen=True)
class Search:
    """Look for these keys' markers first, then reconcile again with what was found."""

    keys: tuple[str, ...]


Action = Create | Adopt | Update | Keep | Search


def reconcile(
    wanted: Sequence[Wanted],
    recorded: Mapping[str, Recorded],
    found_by_marker: Mapping[str, Found] | None,
) -> list[Action]:
    """The actions, in the wanted order; just `[Search]` while a search is needed and was
    not done (`found_by_marker` None)."""
    unclear = tuple(
        w.key
        for w in wanted
        if (rec := recorded.get(w.key)) is not None and rec.state is PostState.CREATING
    )
    if unclear and found_by_marker is None:
        return [Search(unclear)]
    found = found_by_marker or {}
    actions: list[Action] = []
    for w in wanted:
        rec = recorded.get(w.key)
        if rec is not None and rec.state is PostState.POSTED:
            actions.append(Keep(w, rec) if rec.body_hash == w.hash else Update(w, rec))
        elif w.key in found:
            actions.append(Adopt(w, found[w.key]))
        else:
            actions.append(Create(w))
    return actions
