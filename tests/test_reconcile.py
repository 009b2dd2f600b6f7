"""The post ledger's pure reconcile: what to do about each wanted post."""

from __future__ import annotations

import pytest

from bot.posts.reconcile import Adopt, Create, Found, Keep, Search, Update, Wanted, reconcile
from bot.store.posts import PostKind, PostState, Recorded

HEAD = Wanted(
    "part-1", PostKind.DISCUSSION, "<!-- m:part-1 -->", "<!-- m:part-1 -->\nbody", "Title"
)
TAIL = Wanted("part-2", PostKind.DISCUSSION_COMMENT, "<!-- m:part-2 -->", "<!-- m:part-2 -->\nmore")


def posted(w: Wanted, *, body_hash: str | None = None) -> Recorded:
    return Recorded(
        w.key,
        w.kind,
        PostState.POSTED,
        node_id=f"N_{w.key}",
        url="u",
        body_hash=body_hash or w.hash,
    )


def creating(w: Wanted) -> Recorded:
    return Recorded(w.key, w.kind, PostState.CREATING)


@pytest.mark.parametrize(
    ("recorded", "found", "expected"),
    [
        # Never attempted: created, no search needed (nothing can exist).
        ({}, None, [Create(HEAD), Create(TAIL)]),
        # Posted and unchanged: nothing to do; posted and changed: edited.
        (
            {"part-1": posted(HEAD), "part-2": posted(TAIL)},
            None,
            [Keep(HEAD, posted(HEAD)), Keep(TAIL, posted(TAIL))],
        ),
        (
            {"part-1": posted(HEAD, body_hash="old")},
            None,
            [Update(HEAD, posted(HEAD, body_hash="old")), Create(TAIL)],
        ),
        # A create sent without a confirmed answer: search first, whatever else is wanted.
        ({"part-1": creating(HEAD)}, None, [Search(("part-1",))]),
        ({"part-1": posted(HEAD), "part-2": creating(TAIL)}, None, [Search(("part-2",))]),
        # ... and the search decides: found means adopt, not found means create (once).
        (
            {"part-1": creating(HEAD)},
            {"part-1": Found("D_1", "u", HEAD.body, 7)},
            [Adopt(HEAD, Found("D_1", "u", HEAD.body, 7)), Create(TAIL)],
        ),
        ({"part-1": creating(HEAD)}, {}, [Create(HEAD), Create(TAIL)]),
    ],
)
def test_reconcile(
    recorded: dict[str, Recorded], found: dict[str, Found] | None, expected: list[object]
) -> None:
    assert reconcile([HEAD, TAIL], recorded, found) == expected


def test_an_adopted_post_with_another_body_is_edited_too() -> None:
    stale = Found("D_1", "u", "<!-- m:part-1 -->\nan older rendering")
    (action,) = reconcile([HEAD], {"part-1": creating(HEAD)}, {"part-1": stale})
    assert isinstance(action, Adopt) and action.needs_update
    (same,) = reconcile(
        [HEAD], {"part-1": creating(HEAD)}, {"part-1": Found("D_1", "u", HEAD.body)}
    )
    assert isinstance(same, Adopt) and not same.needs_update


def test_a_found_post_is_never_created_again_even_unrecorded() -> None:
    # A marker search that found a post wins over a missing record.
    found = {"part-2": Found("C_9", "u", TAIL.body)}
    actions = reconcile([HEAD, TAIL], {"part-1": creating(HEAD)}, found)
    assert actions == [Create(HEAD), Adopt(TAIL, found["part-2"])]
