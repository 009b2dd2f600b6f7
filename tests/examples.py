"""Example days built from the replay data, shared by the snapshot tests and `docs/generate.py`.

Real commits are used as they are. Where an example needs what the replay days lack (a revert
of a commit of the same day, a reland, a follow-up fix, a breaking change), the few commits
added are built here in plain sight and say so in their messages.
"""

from __future__ import annotations

import hashlib
from dataclasses import replace
from datetime import UTC, date, datetime, time, timedelta

from bot.analysis.rollup import RollupCommit
from bot.analysis.rules import analyze
from bot.models import (
    Analysis,
    Audience,
    ChangeType,
    CommitInput,
    Digest,
    DigestCommit,
    ImpactArea,
    Importance,
    Recommendation,
    Risk,
)
from tests.support import replay_day

ASCEND = "vllm-project/vllm-ascend"
REVERT_DAY = "2026-01-05"
ZONES = {"en": "UTC", "zh-CN": "Asia/Shanghai"}


def replay_digest(repo: str, day: str, language: str, zone: str) -> Digest:
    """A replay day's digest as the rules read its commits (landed when committed)."""
    data = replay_day(repo, day)
    commits = []
    for raw in data["commits"]:
        commit = CommitInput.from_github(raw, repo=repo)
        commits.append(
            DigestCommit(
                sha=raw["sha"],
                title=commit.title,
                url=raw["html_url"],
                author=(raw.get("author") or {}).get("login") or raw["commit"]["author"]["name"],
                landed_at=datetime.fromisoformat(
                    raw["commit"]["committer"]["date"].replace("Z", "+00:00")
                ),
                analysis=analyze(commit, language=language),
            )
        )
    return Digest(
        repo=repo,
        day=date.fromisoformat(day),
        language=language,
        timezone=zone,
        cutoff=time(0, 0),
        title=f"Daily digest — {repo} — {day}" if language == "en" else f"每日更新报告（{day}）",
        commits=tuple(commits),
        excluded={"author": 1},
    )


def with_messages(repo: str, day: str, commits: tuple[DigestCommit, ...]) -> list[DigestCommit]:
    """The replay day's commits with their full messages (reverts name their target there)."""
    messages = {c["sha"]: c["commit"]["message"] for c in replay_day(repo, day)["commits"]}
    return [replace(c, message=messages[c.sha]) for c in commits]


def made_up(
    repo: str, message: str, landed_at: datetime, *, author: str, language: str
) -> DigestCommit:
    """A commit that is not in the replay data (its sha is a hash of its message)."""
    sha = hashlib.sha1(message.encode()).hexdigest()
    title = message.split("\n", 1)[0]
    return DigestCommit(
        sha=sha,
        title=title,
        url=f"https://github.com/{repo}/commit/{sha}",
        author=author,
        landed_at=landed_at,
        analysis=analyze(CommitInput(sha=sha, message=message, repo=repo), language=language),
        message=message,
    )


def revert_day(language: str) -> Digest:
    """vllm-ascend's 2026-01-05 (which really reverts an earlier commit, fb9fdcd), plus a
    same-day revert, a reland of fb9fdcd and a follow-up fix, all made up for the example."""
    base = replay_digest(ASCEND, REVERT_DAY, language, ZONES[language])
    commits = with_messages(ASCEND, REVERT_DAY, base.commits)
    by_prefix = {c.sha[:8]: c for c in commits}
    spec = by_prefix["755caeb0"]  # [Feat][Spec] Optimize token index calculation … (#5356)
    evening = datetime(2026, 1, 5, 15, 30, tzinfo=UTC)
    added = [
        made_up(
            ASCEND,
            f'Revert "{spec.title}" (#5620)\n\nThis reverts commit {spec.sha}.\n\n'
            "Made up for this example: the nightly accuracy test failed after it.",
            evening,
            author="example-maintainer",
            language=language,
        ),
        made_up(
            ASCEND,
            "[Bugfix] Fix MLA prefill crash with empty batches introduced in #5456 (#5625)\n\n"
            "Made up for this example.",
            evening + timedelta(minutes=20),
            author="example-contributor",
            language=language,
        ),
        made_up(
            ASCEND,
            "[Reland][Feat] enable hierarchical mc2 ops on A2 by default (#5630)\n\n"
            "Made up for this example: lands #5545 again with the smoke test fixed.",
            evening + timedelta(minutes=40),
            author="example-contributor",
            language=language,
        ),
    ]
    # The commit the real revert 8eae949 takes out landed the day before.
    earlier = made_up(
        ASCEND,
        "[Feat] enable hierarchical mc2 ops on A2 by default (#5545)",
        datetime(2026, 1, 4, 9, 0, tzinfo=UTC),
        author="example-contributor",
        language=language,
    )
    earlier = replace(
        earlier,
        sha="fb9fdcdbe4f193cddf793dfab9e5666950f3fe4b",
        url=f"https://github.com/{ASCEND}/commit/fb9fdcdbe4f193cddf793dfab9e5666950f3fe4b",
    )
    return replace(base, commits=(*commits, *added), recent=(earlier,))


def breaking_commit(language: str) -> tuple[DigestCommit, int]:
    """vllm-ascend's real `[Refactor] Remove weight prefetch config (#11949)` of 2026-07-15, with
    an analysis written by hand the way the LLM analyser writes one (marked breaking)."""
    day = "2026-07-15"
    base = replay_digest(ASCEND, day, language, ZONES[language])
    commit = next(
        c for c in with_messages(ASCEND, day, base.commits) if c.sha.startswith("e77502ef")
    )
    zh = language == "zh-CN"
    analysis = Analysis(
        change_types=[ChangeType.DEPRECATION, ChangeType.REFACTOR],
        importance=Importance.HIGH,
        breaking=True,
        summary=(
            "删除了权重预取（weight prefetch）功能及其配置项 `weight_prefetch_config`。"
            if zh
            else "Removes the weight prefetch feature and its `weight_prefetch_config` option."
        ),
        impact=[ImpactArea(area="vllm_ascend/ops", files=6), ImpactArea(area="docs", files=3)],
        risks=[
            Risk(
                description=(
                    "仍传入 `weight_prefetch_config` 的部署会在启动时报错。"
                    if zh
                    else "Deployments that still pass `weight_prefetch_config` fail at start-up."
                ),
                mitigation=(
                    "升级前从 `additional_config` 中删除该项。"
                    if zh
                    else "Remove the option from `additional_config` before upgrading."
                ),
            )
        ],
        recommendations=[
            Recommendation(
                audience=Audience.USERS,
                text=(
                    "从 `additional_config` 中删除 `weight_prefetch_config`。"
                    if zh
                    else "Drop `weight_prefetch_config` from `additional_config`."
                ),
            ),
            Recommendation(
                audience=Audience.DEVELOPERS,
                text=(
                    "不要再引用已删除的预取工具函数。"
                    if zh
                    else "Stop importing the removed prefetch helpers."
                ),
            ),
        ],
        analyzer="example (written by hand)",
    )
    return replace(commit, analysis=analysis), 11949


def alerts_day(language: str) -> list[DigestCommit]:
    """vllm-ascend's 2026-07-10 as it is: the rules analyse three of its commits as high."""
    digest = replay_digest(ASCEND, "2026-07-10", language, ZONES[language])
    return with_messages(ASCEND, "2026-07-10", digest.commits)


REPLAY_WEEK = ["2026-01-05", "2026-06-17", "2026-06-23", "2026-07-10", "2026-07-15"]
MONDAY = date(2026, 7, 13)


def replay_week(language: str = "en") -> tuple[list[RollupCommit], list[list[DigestCommit]]]:
    """vllm-ascend's five replay days laid out on Monday to Friday of the week of 2026-07-13
    (each day's commits moved by whole days, keeping their times of day), with their stored
    changed lines per file; and the commits of each day."""
    everything: list[RollupCommit] = []
    days: list[list[DigestCommit]] = []
    for offset, day in enumerate(REPLAY_WEEK):
        digest = replay_digest(ASCEND, day, language, "UTC")
        shift = (MONDAY + timedelta(days=offset)) - date.fromisoformat(day)
        changes = {
            c["sha"]: {f["filename"]: f["changes"] for f in c["files"]}
            for c in replay_day(ASCEND, day)["commits"]
        }
        moved = [replace(c, landed_at=c.landed_at + shift) for c in digest.commits]
        days.append(moved)
        everything += [RollupCommit(c, changes[c.sha]) for c in moved]
    return everything, days
