"""How many lines of a file a commit rewrote from one expression to another in place, read
for the claims checker from the file's lines at both revisions."""

from __future__ import annotations

from collections import Counter


def insertion(old: str, new: str) -> tuple[int, str] | None:
    """Where `new` is `old` with one piece of text inserted: the position and the piece."""
    if len(new) <= len(old):
        return None
    for at in range(len(old) + 1):
        piece = new[at : at + len(new) - len(old)]
        if new[:at] == old[:at] and new[at + len(piece) :] == old[at:]:
            return at, piece
    return None


def rewritten_alike(before: str, after: str, old: str, new: str) -> int:
    """Lines the parent's file held that the commit's no longer holds, each matched once to
    a line new at the commit that is it with `old` rewritten to `new` by the same insertion
    (anywhere in the line, at the same place in the expression); 0 where `new` is no
    insertion into `old`."""
    found = insertion(old, new)
    if found is None:
        return 0
    at, piece = found
    kept_old, kept_new = Counter(before.splitlines()), Counter(after.splitlines())
    gone = kept_old - kept_new
    came = kept_new - kept_old
    count = 0
    for line, times in gone.items():
        left = times
        start = line.find(old)
        while start >= 0 and left:
            spot = start + at
            candidate = line[:spot] + piece + line[spot:]
            if came[candidate] > 0:
                came[candidate] -= 1
                left -= 1
                count += 1
                continue
            start = line.find(old, start + 1)
    return count


def alike_anywhere(before: str, after: str, old: str, new: str) -> int:
    """Lines rewritten by the piece `new` inserts into `old`, wherever in a line it falls
    after an expression like `old`'s end (the same piece: `.exists()`, `, b=1`)."""
    found = insertion(old, new)
    if found is None:
        return 0
    _, piece = found
    kept_old, kept_new = Counter(before.splitlines()), Counter(after.splitlines())
    gone, came = kept_old - kept_new, kept_new - kept_old
    count = 0
    for line, times in came.items():
        for _ in range(times):
            spots = [i for i in range(len(line)) if line.startswith(piece, i)]
            for i in spots:
                plain = line[:i] + line[i + len(piece) :]
                if gone[plain] > 0:
                    gone[plain] -= 1
                    count += 1
                    break
    return count
