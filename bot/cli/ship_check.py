"""Whether what an entry says a release ships since a tag holds: "It ships N commits since T"
and "`abc1234` “Title”" among them.

Read from each history as git walks it (`git log` of the release and of the tag, their
difference taken here, never `git log T..RELEASE` nor the digest's own count): the commits
the release's history holds and the tag's does not, every one of them (merges and the
release itself too), which is what a reader's `git log --oneline T..RELEASE` lists. T must
be the release's previous release (`previous_release`, read from git here: the version the
commit's diff bumps from where a tag names it, ancestor or not; else the highest version tag
its parent reaches where not older than that version); a commit named must be one of those,
its title (subject line) the words quoted. "Releases V (the last release was T)" holds where T
is that previous release.
"""

from __future__ import annotations

import re
from pathlib import Path

from packaging.version import InvalidVersion, Version

from bot.cli.git import CloneError, run_git

# (an ellipsis closes a title cut to fit)
_CUT = "…"


def _history(path: Path, rev: str) -> set[str] | None:
    """Each commit `rev` reaches; None: git failed."""
    try:
        done = run_git(path, "log", "--format=%H", rev, "--", timeout=300)
    except CloneError:
        return None
    if done.returncode != 0:
        return None
    return set(done.stdout.split())


# a version in a line: digits and dots, a pre-release or local part after
_VERSION = re.compile(r"(?<![\w.])v?(\d+(?:\.\d+)+(?:[-.]?(?:a|b|rc|post|dev)\d*)?)(?![\w.])")


def _version(text: str) -> Version | None:
    try:
        return Version(text)
    except InvalidVersion:
        return None


def _tag_version(tag: str) -> Version | None:
    """The version a tag names: all of it (`1.2.3`, `v1.2.3`), or what follows a word and a
    separator (`jmespath-1.2.3`, `release_1.2`)."""
    found = _version(tag)
    if found is None and (m := re.fullmatch(r"[A-Za-z][\w.]*?[-_/]v?(\d[\w.+-]*)", tag)):
        found = _version(m[1])
    return found


def _git(path: Path, *args: str) -> str | None:
    try:
        done = run_git(path, *args, timeout=120)
    except CloneError:
        return None
    return done.stdout if done.returncode == 0 else None


def bumped_from(path: Path, sha: str, parent: str) -> Version | None:
    """The version the commit's diff (against its first parent) bumps from: a removed line
    that, its version put in place of a higher one, is an added line (`version='0.10.0'` →
    `version='1.0.0'`), the line speaking of a version; the highest such old version of the
    highest new one. None where the diff bumps none."""
    diff = _git(path, "diff", "--no-color", "-U0", parent, sha, "--")
    if diff is None:
        return None
    removed: dict[str, list[Version]] = {}
    added: dict[str, list[Version]] = {}
    for line in diff.split("\n"):
        if line.startswith(("---", "+++")) or line[:1] not in "-+" or not line:
            continue
        if "version" not in line.lower():
            continue
        side = removed if line[0] == "-" else added
        body = line[1:]
        for m in _VERSION.finditer(body):
            v = _version(m[1])
            if v is not None:
                side.setdefault(body[: m.start(1)] + "\0" + body[m.end(1) :], []).append(v)
    pairs = [
        (new, old)
        for shape, olds in removed.items()
        for old in olds
        for new in added.get(shape, ())
        if new > old
    ]
    if not pairs:
        return None
    top = max(new for new, _ in pairs)
    return max(old for new, old in pairs if new == top)


def previous_release(path: Path, sha: str, parent: str) -> tuple[str | None, str]:
    """The tag of the release `sha` comes after (None: none is; why), from git: the tag that
    names the version the diff bumps from, else the highest version tag the parent reaches
    where that version is not older than the bumped-from one."""
    listed = _git(path, "tag")
    if listed is None:
        return None, "git failed"
    tags = {t: v for t in listed.split() if (v := _tag_version(t)) is not None}
    was = bumped_from(path, sha, parent)
    if was is not None:
        named = sorted(t for t, v in tags.items() if v == was)
        if named:
            return named[0], ""
    reached = _git(path, "tag", "--merged", parent)
    if reached is None:
        return None, "git failed"
    mine = [t for t in reached.split() if t in tags]
    if not mine:
        return None, "no version tag before it"
    nearest = max(mine, key=lambda t: tags[t])
    if was is not None and tags[nearest] < was:
        return None, f"its diff bumps from {was}, which no tag names; `{nearest}` is older"
    return nearest, ""


def _is_previous(tag: str, previous: str | None) -> bool:
    """Whether `tag` is the previous release: the same tag, or one naming its version."""
    if previous is None:
        return False
    if tag == previous:
        return True
    said, was = _tag_version(tag), _tag_version(previous)
    return said is not None and said == was


def judged_last(path: Path, sha: str, parent: str | None, tag: str) -> tuple[bool | None, str]:
    """(True, False, None; why) of "the last release was `tag`"."""
    if parent is None:
        return False, "a root commit comes after no release"
    previous, why = previous_release(path, sha, parent)
    if previous is None and why == "git failed":
        return None, why
    if not _is_previous(tag, previous):
        return False, f"the previous release is {f'`{previous}`' if previous else 'none'}" + (
            f" ({why})" if why else ""
        )
    return True, ""


def shipped(path: Path, sha: str, parent: str | None, tag: str) -> tuple[set[str] | None, str]:
    """The commits the release `sha` ships since `tag` (None where not told), or why not."""
    if parent is None:
        return None, "a root commit ships nothing since a tag"
    if (
        _tag_version(tag) is None
        or _git(path, "rev-parse", "-q", "--verify", f"refs/tags/{tag}") is None
    ):
        return None, f"`{tag}` is no version tag of the clone"
    previous, why = previous_release(path, sha, parent)
    if previous is None and why == "git failed":
        return None, why
    if not _is_previous(tag, previous):
        return None, f"`{tag}` is not the previous release ({f'`{previous}`' if previous else why})"
    release = _history(path, sha)
    since = _history(path, f"refs/tags/{tag}")
    if release is None or since is None:
        return None, "git failed"
    return release - since, ""


def judged_count(
    path: Path, sha: str, parent: str | None, tag: str, count: int
) -> tuple[bool | None, str]:
    """(True, False, None: not told; why) of "It ships `count` commits since `tag`"."""
    found, why = shipped(path, sha, parent, tag)
    if found is None:
        return (False if why.startswith(("`", "the parent", "a root")) else None), why
    if len(found) != count:
        return False, f"{len(found)} commits since `{tag}`, not {count}"
    return True, ""


def judged_commit(
    path: Path, sha: str, parent: str | None, tag: str, *, named: str, title: str
) -> tuple[bool | None, str]:
    """(True, False, None; why) of "`named` “title”" said shipped since `tag`: one of the
    commits shipped starts with `named`, and its message's first line is `title` (or starts
    with its words before a closing ellipsis)."""
    found, why = shipped(path, sha, parent, tag)
    if found is None:
        return (False if why.startswith(("`", "the parent", "a root")) else None), why
    matches = [c for c in found if c.startswith(named)]
    if len(matches) != 1:
        return False, f"`{named}` is {'none' if not matches else 'more than one'} of them"
    try:
        done = run_git(path, "log", "-1", "--format=%B", matches[0], "--", timeout=60)
    except CloneError:
        return None, "git failed"
    # the message's first line, as GitHub titles a commit (git's `%s` joins the first
    # paragraph's lines: python-tabulate 7d67fee "Support intfmt" over a second line)
    subject = " ".join(done.stdout.strip().split("\n", 1)[0].split())
    said = " ".join(title.split())
    if said == subject or (said.endswith(_CUT) and subject.startswith(said[:-1].rstrip())):
        return True, ""
    return False, f"`{named}`'s title is “{subject}”"
