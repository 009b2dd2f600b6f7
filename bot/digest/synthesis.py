"""Cross-commit synthesis: reverts, relands and follow-up fixes linked to the commits they name.

Pure. It reads titles and messages only, through the one title grammar
(`bot/analysis/titles.py`): `Revert "Title"` and git's `This reverts commit <sha>.`, the
reland forms (`Reland`, `Reapply "Title"`, a revert of a revert), and follow-up phrasing such
as `hotfix: bugfix on #812` or `follow-up to #812`. A target is found among the day's commits
and the recent ones given, by sha, by the `(#N)` pull request suffix GitHub's squash merge
appends, or by title. A follow-up is linked only when the commit it names is known; a revert
is linked even when the reverted commit landed before the ledger's memory (it names the sha
itself).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from bot.analysis.titles import (
    follow_up_refs,
    normalise_title,
    parse_title,
    pr_number,
    reverted_refs,
)
from bot.models import DigestCommit, Importance


class LinkKind(StrEnum):
    REVERTS = "reverts"  # source reverts target
    RELANDS = "relands"  # source lands again what target (a revert) took out
    FOLLOWS_UP = "follows-up"  # source fixes a problem target introduced


@dataclass(frozen=True)
class Link:
    kind: LinkKind
    source: str  # sha of the revert, reland or fix
    target: str  # sha of the commit it names (full when known, else as written)
    # The target's title: its own when known, else the one quoted in a revert title.
    target_title: str | None = None
    # False: the target is not one of the day's commits (an earlier one, or unknown).
    in_day: bool = False


@dataclass(frozen=True)
class Synthesis:
    links: tuple[Link, ...] = ()

    def outgoing(self, sha: str) -> list[Link]:
        return [link for link in self.links if link.source == sha]

    def incoming(self, sha: str) -> list[Link]:
        return [link for link in self.links if link.target == sha]

    def reverted_by(self, sha: str) -> str | None:
        """The sha of a commit that reverts `sha`, if any."""
        for link in self.links:
            if link.kind is LinkKind.REVERTS and link.target == sha:
                return link.source
        return None


# Follow-up and revert phrasing is looked for in the title and the start of the body only;
# PR templates further down quote other pull requests for other reasons.
_BODY_CHARS = 1_500


def _body(commit: DigestCommit) -> str:
    return commit.message.split("\n", 1)[1] if "\n" in commit.message else ""


class _Index:
    """The commits targets are looked up in: the day's, then the recent ones."""

    def __init__(self, day: Sequence[DigestCommit], recent: Sequence[DigestCommit]) -> None:
        self.day_shas = {c.sha for c in day}
        self.all = [*day, *(c for c in recent if c.sha not in self.day_shas)]
        self.by_pr: dict[int, DigestCommit] = {}
        self.by_title: dict[str, list[DigestCommit]] = {}
        for commit in sorted(self.all, key=lambda c: c.landed_at):
            number = pr_number(commit.title)
            if number is not None:
                self.by_pr[number] = commit
            self.by_title.setdefault(normalise_title(commit.title), []).append(commit)

    def sha(self, prefix: str) -> DigestCommit | None:
        prefix = prefix.lower()
        found = [c for c in self.all if c.sha.lower().startswith(prefix)]
        return found[0] if len(found) == 1 else None

    def title_before(self, title: str, source: DigestCommit) -> DigestCommit | None:
        earlier = [
            c
            for c in self.by_title.get(normalise_title(title), [])
            if c.sha != source.sha and c.landed_at <= source.landed_at
        ]
        return earlier[-1] if earlier else None

    def undone_by(self, source: DigestCommit) -> DigestCommit | None:
        """The one earlier commit of the day `source` undid, if one."""
        found = [
            c
            for c in self.all
            if c.undone_by == source.sha
            and c.sha in self.day_shas
            and c.landed_at <= source.landed_at
        ]
        return found[0] if len(found) == 1 else None

    def link(
        self, kind: LinkKind, source: DigestCommit, target: DigestCommit, title: str | None = None
    ) -> Link:
        return Link(
            kind,
            source.sha,
            target.sha,
            target_title=target.title or title,
            in_day=target.sha in self.day_shas,
        )


def _revert_link(
    commit: DigestCommit, index: _Index, unresolved: frozenset[str] = frozenset()
) -> Link | None:
    inner = parse_title(commit.title).undoes
    named = reverted_refs(commit.message[: _BODY_CHARS + len(commit.title)])
    named_sha = next((ref.sha for ref in named if ref.sha), None)
    if inner is None and named_sha is None:
        return None
    target: DigestCommit | None = None
    if named_sha:
        target = index.sha(named_sha)
    if target is None and inner is not None:
        number = pr_number(inner)
        target = index.by_pr.get(number) if number is not None else None
    if target is None:
        named_pr = next((ref.pr for ref in named if ref.pr is not None), None)
        target = index.by_pr.get(named_pr) if named_pr is not None else None
    if target is None and inner is not None:
        target = index.title_before(inner, commit)
    if target is None:
        # a sha no commit known has (a branch rebased before it landed: xmltodict c0b74ed
        # names 85ee823, which is in no history): the commit of the day whose every added
        # line it took out (`undone.py`) is the one it reverts
        target = index.undone_by(commit)
    if target is not None and target.sha != commit.sha:
        return index.link(LinkKind.REVERTS, commit, target, inner)
    if named_sha and named_sha.lower() not in unresolved:
        # Reverted before the ledger's memory: the message still names it (a sha the
        # repository has no commit of is named nowhere)
        return Link(LinkKind.REVERTS, commit.sha, named_sha, inner)
    return None


def _reland_link(commit: DigestCommit, index: _Index, reverts: Sequence[Link]) -> Link | None:
    title = parse_title(commit.title).relanded
    if title is None:
        return None
    wanted = normalise_title(title)
    candidates = [
        link
        for link in reverts
        if link.source != commit.sha
        and link.target_title is not None
        and normalise_title(link.target_title) == wanted
    ]
    revert_shas = {link.source for link in candidates}
    # A revert of a revert names the revert it undoes; otherwise the newest matching revert.
    earlier = [c for c in index.all if c.sha in revert_shas and c.landed_at <= commit.landed_at]
    if not earlier:
        return None
    revert = max(earlier, key=lambda c: c.landed_at)
    return index.link(LinkKind.RELANDS, commit, revert)


def _follow_up_links(commit: DigestCommit, index: _Index) -> list[Link]:
    own = pr_number(commit.title)
    out: list[Link] = []
    for ref in follow_up_refs(f"{commit.title}\n{_body(commit)[:_BODY_CHARS]}"):
        target: DigestCommit | None = None
        if ref.pr is not None:
            target = index.by_pr.get(ref.pr) if ref.pr != own else None
        elif ref.sha is not None:
            target = index.sha(ref.sha)
        if (
            target is not None
            and target.sha != commit.sha
            and target.landed_at <= commit.landed_at
            and all(link.target != target.sha for link in out)
        ):
            out.append(index.link(LinkKind.FOLLOWS_UP, commit, target))
    return out


def named(commits: Sequence[DigestCommit]) -> tuple[set[int], set[str]]:
    """The pull request numbers and sha prefixes these commits name as what they revert or
    follow up on: looked up in the whole ledger, so a fix of a commit landed weeks ago is
    still linked to it."""
    prs: set[int] = set()
    shas: set[str] = set()
    for commit in commits:
        head = commit.message[: _BODY_CHARS + len(commit.title)] or commit.title
        mine: set[int] = set()
        inner = parse_title(commit.title).undoes
        if inner is not None and (number := pr_number(inner)) is not None:
            mine.add(number)
        text = f"{commit.title}\n{_body(commit)[:_BODY_CHARS]}"
        refs = (*reverted_refs(head), *follow_up_refs(text))
        mine.update(ref.pr for ref in refs if ref.pr is not None)
        shas.update(ref.sha for ref in refs if ref.sha is not None)
        prs |= mine - {pr_number(commit.title)}
    return prs, shas


def synthesize(
    commits: Sequence[DigestCommit],
    recent: Sequence[DigestCommit] = (),
    unresolved: frozenset[str] = frozenset(),
) -> Synthesis:
    """The links among a day's commits, and from them to the recent commits given;
    `unresolved`: the shas named that no commit has (lower case), never linked."""
    index = _Index(commits, recent)
    ordered = sorted(commits, key=lambda c: c.landed_at)
    # Reverts among the recent commits too, so a reland today finds yesterday's revert.
    reverts = [
        link
        for c in sorted(index.all, key=lambda c: c.landed_at)
        if (link := _revert_link(c, index, unresolved)) is not None
    ]
    day_shas = index.day_shas
    links: list[Link] = [link for link in reverts if link.source in day_shas]
    for commit in ordered:
        reland = _reland_link(commit, index, reverts)
        if reland is not None:
            links.append(reland)
        if any(link.source == commit.sha for link in links):
            continue  # a revert or a reland is not also a follow-up fix
        links += _follow_up_links(commit, index)
    # A revert of a revert is a reland, not a revert of the day's news.
    relanding = {link.source for link in links if link.kind is LinkKind.RELANDS}
    links = [
        link for link in links if not (link.kind is LinkKind.REVERTS and link.source in relanding)
    ]
    return Synthesis(tuple(links))


# --- the headline ---------------------------------------------------------------------------


class HeadlineKind(StrEnum):
    BREAKING = "breaking"
    REVERTED = "reverted"  # a commit and the revert that took it out, shown together
    RELANDED = "relanded"
    HIGH = "high"
    MEDIUM = "medium"


@dataclass(frozen=True)
class HeadlineItem:
    kind: HeadlineKind
    commit: DigestCommit  # the commit the line is about (for REVERTED: the revert)
    link: Link | None = None  # for REVERTED and RELANDED
    follow_ups: tuple[str, ...] = ()  # shas of the day's fixes to this commit

    @property
    def shas(self) -> set[str]:
        return {self.commit.sha} | ({self.link.target} if self.link else set())


MAX_HEADLINE = 3
_TYPE_ORDER = ("security", "feature", "deprecation", "performance", "bugfix")


def _weight(commit: DigestCommit | None) -> tuple[int, int]:
    """(importance rank, breaking first) of a commit; unknown or unanalysed counts as low."""
    a = commit.analysis if commit else None
    if a is None:
        return (Importance.LOW.rank, 1)
    return (a.importance.rank, 0 if a.breaking else 1)


def _type_rank(commit: DigestCommit) -> int:
    a = commit.analysis
    if a is None:
        return len(_TYPE_ORDER)
    ranks = [_TYPE_ORDER.index(t.value) for t in a.change_types if t.value in _TYPE_ORDER]
    return min(ranks, default=len(_TYPE_ORDER))


def headline(
    commits: Sequence[DigestCommit],
    synthesis: Synthesis,
    *,
    recent: Sequence[DigestCommit] = (),
    limit: int = MAX_HEADLINE,
) -> list[HeadlineItem]:
    """Up to `limit` lines on the day's most important changes, most important first.

    Breaking changes come first, then reverts of anything medium or higher (with the commit
    they took out), then relands, then high and medium commits. A commit already in a line
    is not given another; low-importance commits never make the headline.
    """
    by_sha = {c.sha: c for c in commits}
    known = {**{c.sha: c for c in recent}, **by_sha}
    fixes: dict[str, list[str]] = {}
    for link in synthesis.links:
        if link.kind is LinkKind.FOLLOWS_UP:
            fixes.setdefault(link.target, []).append(link.source)
    reverted = {link.target for link in synthesis.links if link.kind is LinkKind.REVERTS}
    scored: list[tuple[tuple[int, ...], HeadlineItem]] = []
    for link in synthesis.links:
        source = by_sha.get(link.source)
        if source is None:
            continue
        if link.kind is LinkKind.REVERTS:
            # A reverted commit of an earlier day weighs as its analysis says, if it is known.
            weight = min(_weight(known.get(link.target)), _weight(source))
            # Unknown target (an earlier day): the revert itself says how much it matters.
            if weight[0] > Importance.MEDIUM.rank:
                continue
            scored.append(((1, *weight, 0), HeadlineItem(HeadlineKind.REVERTED, source, link)))
        elif link.kind is LinkKind.RELANDS:
            weight = _weight(source)
            if weight[0] > Importance.MEDIUM.rank:
                continue
            scored.append(((2, *weight, 0), HeadlineItem(HeadlineKind.RELANDED, source, link)))
    paired = {link.source for link in synthesis.links if link.kind is not LinkKind.FOLLOWS_UP}
    for commit in commits:
        a = commit.analysis
        if a is None or a.importance is Importance.LOW or commit.sha in reverted | paired:
            continue
        follow = tuple(fixes.get(commit.sha, ()))
        if a.breaking:
            item = HeadlineItem(HeadlineKind.BREAKING, commit, follow_ups=follow)
            scored.append(((0, a.importance.rank, _type_rank(commit)), item))
        elif a.importance is Importance.HIGH:
            item = HeadlineItem(HeadlineKind.HIGH, commit, follow_ups=follow)
            scored.append(((3, 0, _type_rank(commit)), item))
        else:
            item = HeadlineItem(HeadlineKind.MEDIUM, commit, follow_ups=follow)
            scored.append(((4, 0, _type_rank(commit)), item))
    # Ties: the newer commit first, as in the day's table.
    scored.sort(key=lambda s: (s[0], -s[1].commit.landed_at.timestamp(), s[1].commit.sha))
    out: list[HeadlineItem] = []
    shown: set[str] = set()
    for _, item in scored:
        if len(out) == limit:
            break
        if item.shas & shown:
            continue
        out.append(item)
        shown |= item.shas
    return out
