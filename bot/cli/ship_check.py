"""Whether what an entry says a release ships since a tag holds: "It ships N commits since T"
and "`abc1234` “Title”" among them.

Read from each history as git walks it (`git log` of the release and of the tag, their
difference taken here, never `git log T..RELEASE` nor the digest's own count): the commits
the release's history holds and the tag's does not, every one of them (merges and the
release itself too), which is what a reader's `git log --oneline T..RELEASE` lists. T must
be a version tag its parent reaches; a commit named must be one of those, its title
(subject line) the words quoted.
"""

from __future__ import annotations

from pathlib import Path

from bot.cli.clone_release import version_tags
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


def shipped(path: Path, sha: str, parent: str | None, tag: str) -> tuple[set[str] | None, str]:
    """The commits the release `sha` ships since `tag` (None where not told), or why not."""
    if parent is None:
        return None, "a root commit ships nothing since a tag"
    if tag not in version_tags(path):
        return None, f"`{tag}` is no version tag of the clone"
    release = _history(path, sha)
    since = _history(path, f"refs/tags/{tag}")
    if release is None or since is None:
        return None, "git failed"
    try:
        reached = run_git(path, "merge-base", "--is-ancestor", f"refs/tags/{tag}", parent)
    except CloneError:
        return None, "git failed"
    if reached.returncode != 0:
        return None, f"the parent does not reach `{tag}`"
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
