"""The offline digest of a local git clone: no GitHub, no credentials, the App's own renderer.

Commits are the first-parent history of a branch whose committer date falls on the day (in
the given zone); files, stats and patches come from `git diff-tree` against the first
parent, shaped like GitHub's "get a commit" answer, so the analysers see what they see online.
"""

from __future__ import annotations

import asyncio
import itertools
import re
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, date, datetime, time
from pathlib import Path
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from unidiff import PatchSet
from unidiff.errors import UnidiffParseError

from bot.analysis import AnalysisResult, Analyzer, rules
from bot.analysis.factory import open_analyzer
from bot.analysis.tiering import rules_sure
from bot.cli.arguments import day_value, writable
from bot.digest.render import Part, render
from bot.digest.strings import catalogue
from bot.models import CommitInput, Digest, DigestCommit, DigestUsage, FileChange
from bot.periods.days import DaySchedule
from bot.repo_config import render_title
from bot.settings import MissingSetting, Settings

# After this many commits older than the day, the walk back through history stops.
_PAST_WINDOW = 200
_REMOTE = re.compile(r"github\.com[:/]+([^/\s]+)/([^/\s]+?)(?:\.git)?/?$")


class OfflineError(Exception):
    """The path is not a git clone, the branch does not exist, or git failed."""


@dataclass(frozen=True)
class LocalCommit:
    sha: str
    author: str
    committed_at: datetime
    message: str


def git(path: Path, *args: str) -> str:
    try:
        result = subprocess.run(
            ["git", "-C", str(path), *args], capture_output=True, text=True, check=False
        )
    except FileNotFoundError as exc:
        raise OfflineError("git is not installed") from exc
    if result.returncode != 0:
        raise OfflineError(f"git {' '.join(args[:2])}: {result.stderr.strip() or 'failed'}")
    return result.stdout


_REPO_NAME = re.compile(r"[A-Za-z0-9-]{1,39}/[A-Za-z0-9._-]{1,100}")


def checked_repo_name(value: str) -> str:
    """`OWNER/NAME` as GitHub spells repositories; ValueError otherwise."""
    if not _REPO_NAME.fullmatch(value) or value.endswith((".git", "/.", "/..")):
        raise ValueError(f"--repo must be OWNER/NAME, like vllm-project/vllm, not {value!r}")
    return value


def repo_identity(path: Path, repo: str | None = None) -> tuple[str, str | None]:
    """`owner/name` and the commit URL prefix: `--repo`, or the clone's GitHub origin."""
    if repo is not None:
        return repo, f"https://github.com/{repo}/commit/"
    try:
        remote = git(path, "remote", "get-url", "origin").strip()
    except OfflineError:
        remote = ""
    match = _REMOTE.search(remote)
    if match:
        name = f"{match.group(1)}/{match.group(2)}"
        return name, f"https://github.com/{name}/commit/"
    return path.resolve().name, None


def first_parent_commits(path: Path, branch: str) -> Iterator[LocalCommit]:
    """The branch's first-parent history, newest first, read as git writes it."""
    with subprocess.Popen(
        [
            "git",
            "-C",
            str(path),
            "log",
            "--first-parent",
            "--format=%H%x1f%an%x1f%ct%x1f%B%x1e",
            branch,
            "--",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        encoding="utf-8",
        errors="replace",
    ) as proc:
        stream = proc.stdout
        assert stream is not None
        buffer = ""
        for chunk in iter(lambda: stream.read(65536), ""):
            buffer += chunk
            *records, buffer = buffer.split("\x1e")
            for raw in records:
                record = raw.strip("\n")
                if record:
                    sha, author, stamp, message = record.split("\x1f", 3)
                    yield LocalCommit(
                        sha, author, datetime.fromtimestamp(int(stamp), UTC), message.rstrip("\n")
                    )
        proc.kill()


def commits_between(path: Path, branch: str, start: datetime, end: datetime) -> list[LocalCommit]:
    """Commits whose committer date is in [start, end), oldest first.

    Not `git log --since`: git stops at the first commit older than the bound, and committer
    dates on a first-parent history are not always in order (clock skew, rebased merges).
    """
    found = []
    older_in_a_row = 0
    for commit in first_parent_commits(path, branch):
        if start <= commit.committed_at < end:
            found.append(commit)
            older_in_a_row = 0
        elif commit.committed_at < start:
            older_in_a_row += 1
            if older_in_a_row >= _PAST_WINDOW:
                break
    return found[::-1]


def latest_commit_time(path: Path, branch: str) -> datetime | None:
    times = [
        c.committed_at for c in itertools.islice(first_parent_commits(path, branch), _PAST_WINDOW)
    ]
    return max(times, default=None)


def files_of(path: Path, sha: str, *, with_patches: bool) -> list[FileChange]:
    """Changed files with line counts (and patches) against the first parent."""
    numstat = git(path, "diff-tree", "-r", "-M", "--root", "--no-commit-id", "--numstat", "-z", sha)
    names = git(
        path, "diff-tree", "-r", "-M", "--root", "--no-commit-id", "--name-status", "-z", sha
    )
    statuses: dict[str, tuple[str, str | None]] = {}
    fields = names.split("\0")
    i = 0
    while i < len(fields) - 1:
        code = fields[i]
        if code[:1] in ("R", "C"):
            statuses[fields[i + 2]] = ("renamed" if code[0] == "R" else "copied", fields[i + 1])
            i += 3
        else:
            kind = {"A": "added", "D": "removed", "M": "modified"}.get(code[:1], "changed")
            statuses[fields[i + 1]] = (kind, None)
            i += 2
    files: list[FileChange] = []
    parts = numstat.split("\0")
    i = 0
    while i < len(parts) - 1:
        added, deleted, name = parts[i].split("\t", 2)
        if name == "":  # a rename: the old and new paths follow
            name = parts[i + 2]
            i += 3
        else:
            i += 1
        status, previous = statuses.get(name, ("modified", None))
        files.append(
            FileChange(
                filename=name,
                status=status,
                additions=int(added) if added.isdigit() else 0,
                deletions=int(deleted) if deleted.isdigit() else 0,
                previous_filename=previous,
            )
        )
    if with_patches and files:
        patches = _patches(
            git(path, "diff-tree", "-r", "-M", "--root", "--no-commit-id", "-p", sha)
        )
        files = [f.model_copy(update={"patch": patches.get(f.filename)}) for f in files]
    return files


def _patches(diff: str) -> dict[str, str]:
    """Per file, the hunks only, as GitHub's `patch` field holds them."""
    try:
        parsed = PatchSet(diff)
    except UnidiffParseError:
        return {}
    out = {}
    for patched in parsed:
        hunks = "".join(str(h) for h in patched).rstrip("\n")
        if hunks:
            out[patched.path] = hunks
    return out


async def offline_digest(
    path: Path,
    analyzer: Analyzer,
    *,
    branch: str | None = None,
    day: date | None = None,
    timezone: str = "UTC",
    language: str = "en",
    repo: str | None = None,
) -> tuple[Digest, list[Part]]:
    """The digest of a local clone's day, rendered as the App would post it."""
    git(path, "rev-parse", "--git-dir")
    if branch is None:
        try:
            git(path, "rev-parse", "--verify", "--quiet", "HEAD^{commit}")
        except OfflineError:
            raise OfflineError(f"{path} has no commits yet") from None
        branch = git(path, "rev-parse", "--abbrev-ref", "HEAD").strip()
    try:
        git(path, "rev-parse", "--verify", "--quiet", f"{branch}^{{commit}}")
    except OfflineError:
        known = git(path, "for-each-ref", "--count=10", "--format=%(refname:short)", "refs/heads")
        names = ", ".join(known.split()) or "none"
        raise OfflineError(f"no branch {branch!r} in {path} (branches: {names})") from None
    schedule = DaySchedule(timezone, time(0, 0))
    if day is None:
        latest = latest_commit_time(path, branch)
        if latest is None:
            raise OfflineError(f"branch {branch} has no commits")
        try:
            day = schedule.day_of(latest)
            schedule.window(day)
        except OverflowError:
            # A committer clock set to the year 9999: no day around it can be computed.
            raise OfflineError(
                f"the latest commit on {branch} is dated {latest:%Y-%m-%d}, past the last day a "
                "digest can cover; pass --day YYYY-MM-DD"
            ) from None
    start, end = schedule.window(day)
    name, url_prefix = repo_identity(path, repo)
    with_patches = analyzer.name != "rules"
    shown = []
    routes: dict[str, int] = {}
    tokens = (0, 0, 0)
    dropped = 0
    for local in commits_between(path, branch, start, end):
        commit = CommitInput(
            sha=local.sha,
            message=local.message,
            repo=name,
            author=local.author,
            files=files_of(path, local.sha, with_patches=with_patches),
        )
        # As in the App: what the rules are sure of never goes to the LLM.
        sure = rules_sure(commit) if with_patches else None
        if sure:
            result = AnalysisResult(rules.analyze(commit, language=language))
        else:
            result = await analyzer.analyze(commit, language=language)
        route = f"sure:{sure}" if sure else ("llm" if with_patches else "rules")
        routes[route] = routes.get(route, 0) + 1
        tokens = (
            tokens[0] + result.input_tokens,
            tokens[1] + result.cached_input_tokens,
            tokens[2] + result.output_tokens,
        )
        dropped += result.dropped_claims
        shown.append(
            DigestCommit(
                sha=local.sha,
                title=commit.title,
                url=f"{url_prefix}{local.sha}" if url_prefix else "",
                author=local.author,
                landed_at=local.committed_at,
                analysis=result.analysis,
                fallback_reason=result.fallback_reason,
            )
        )
    digest = Digest(
        repo=name,
        day=day,
        language=language,
        timezone=timezone,
        cutoff=time(0, 0),
        title=render_title(
            catalogue(language).digest.default_title, repo=name, day=day, language=language
        ),
        commits=tuple(shown),
        usage=DigestUsage(
            routes=routes,
            input_tokens=tokens[0],
            cached_input_tokens=tokens[1],
            output_tokens=tokens[2],
            dropped_claims=dropped,
        ),
    )
    return digest, render(digest, with_title=True)


def command(
    settings: Settings,
    *,
    clone: str,
    branch: str | None,
    day: str | None,
    tz: str,
    lang: str | None,
    repo: str | None,
    out: str | None,
) -> int:
    """The `digest` command: the day's posts to `out` (or stdout), a summary line on stderr;
    2 when the clone cannot be read."""
    digest_day = day_value(day)
    try:
        ZoneInfo(tz)
    except (ZoneInfoNotFoundError, ValueError, OSError):
        raise MissingSetting(
            f"--tz must be an IANA time zone such as Asia/Shanghai, not {tz!r}"
        ) from None
    try:
        repo_name = checked_repo_name(repo) if repo else None
    except ValueError as exc:
        raise MissingSetting(str(exc)) from None
    out_path = writable(out)
    language = lang or settings.default_language

    async def run() -> tuple[Digest, list[Part]]:
        async with open_analyzer(settings) as analyzer:
            return await offline_digest(
                Path(clone),
                analyzer,
                branch=branch,
                day=digest_day,
                timezone=tz,
                language=language,
                repo=repo_name,
            )

    try:
        digest, parts = asyncio.run(run())
    except OfflineError as exc:
        print(f"commit-digest: {exc}", file=sys.stderr)
        return 2
    text = "\n\n".join(part.body for part in parts) + "\n"
    # Always UTF-8, whatever the terminal's locale: Chinese digests must not turn to mojibake.
    if out_path is not None:
        try:
            out_path.write_text(text, encoding="utf-8")
        except OSError as exc:
            raise MissingSetting(f"--out {out_path}: cannot write it: {exc.strerror}") from None
    else:
        sys.stdout.buffer.write(text.encode("utf-8"))
        sys.stdout.flush()
    if not any(c.url for c in digest.commits) and digest.commits:
        print(
            "commit-digest: the clone has no GitHub origin, so commits are not linked; "
            "pass --repo OWNER/NAME",
            file=sys.stderr,
        )
    print(
        f"commit-digest: {len(digest.commits)} commits of {digest.day} in {digest.repo}"
        + (f", {len(parts)} posts" if len(parts) > 1 else ""),
        file=sys.stderr,
    )
    return 0
