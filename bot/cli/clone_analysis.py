"""A period's commits of a local clone analysed as the App analyses them: `exclude` applied,
each of the rest with its patches, the rules' sure verdicts kept from the LLM."""

from __future__ import annotations

import gc
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path

from bot.analysis import AnalysisResult, Analyzer, rules
from bot.analysis.credentials import redact
from bot.analysis.daynames import day_names
from bot.analysis.facts.kept import units_kept
from bot.analysis.tiering import rules_sure
from bot.cli import progress
from bot.cli.clone import LocalCommit, files_with_patches, merged_authors
from bot.cli.clone_carried import with_carried
from bot.cli.clone_release import with_releases
from bot.cli.clone_sources import CatFile, blob_cache, with_modules, with_sources
from bot.cli.clone_tree import quoted_each
from bot.models import CommitInput, DigestCommit, DigestUsage
from bot.repo_config import RepoConfig
from bot.runtime.logs import get_logger

log = get_logger(__name__)

# Allocations between two passes of the cyclic garbage collector while a period is analysed
# (Python's default is 700). Parsing a day's files makes hundreds of thousands of syntax-tree
# nodes, which hold no cycles and are freed as soon as they are let go; at the default, the
# collector's passes over every live object (the imports' too) took a third of the rules'
# time on this repository's 90-commit day and found nothing to free. At 10,000 its passes
# still took 1.5 s of a 9.5 s round there (108 young passes, 9 middle, one full, over the
# kept trees); at 1,000,000 none runs within that day (0.4 s, all outside the analysis), for
# 31 MiB more at the peak (239 to 270 MiB): cycles are still collected, once a million.
_COLLECTOR_ALLOCATIONS = 1_000_000


@dataclass
class Analysed:
    """A period's commits of a clone: those listed (analysed), the excluded ones counted by
    reason, how they were analysed, and each listed commit's changed lines per path."""

    shown: list[DigestCommit] = field(default_factory=list)
    excluded: Counter[str] = field(default_factory=Counter)
    routes: Counter[str] = field(default_factory=Counter)
    tokens: tuple[int, int, int] = (0, 0, 0)
    dropped: int = 0
    changes: dict[str, dict[str, int]] = field(default_factory=dict)

    @property
    def usage(self) -> DigestUsage:
        return DigestUsage(
            routes=dict(self.routes),
            input_tokens=self.tokens[0],
            cached_input_tokens=self.tokens[1],
            output_tokens=self.tokens[2],
            dropped_claims=self.dropped,
        )


@contextmanager
def _collector_eased() -> Iterator[None]:
    """Within the block, the garbage collector's first generation waits for
    `_COLLECTOR_ALLOCATIONS` allocations before a pass; its own setting is back after."""
    threshold = gc.get_threshold()
    gc.set_threshold(_COLLECTOR_ALLOCATIONS, *threshold[1:])
    try:
        yield
    finally:
        gc.set_threshold(*threshold)


async def analyse(
    path: Path,
    commits: list[LocalCommit],
    analyzer: Analyzer,
    *,
    repo: str,
    url_prefix: str | None,
    config: RepoConfig,
) -> Analysed:
    """The commits as the App would list them: `exclude` applied, the rest analysed with
    their patches."""
    out = Analysed()
    files = files_with_patches(path, [c.sha for c in commits])
    with_llm = analyzer.name != "rules"
    blobs = blob_cache()
    # each with the last release its parent reaches: one search of that tag's tree for the day
    # (a release with what it ships since the last one: `clone_carried.py`)
    inputs = with_releases(
        path,
        [
            CommitInput(
                sha=local.sha,
                message=local.message,
                repo=repo,
                author=local.author,
                files=files[local.sha],
                parents=local.parents,
            )
            for local in commits
        ],
    )
    inputs = with_carried(path, inputs)
    # one search of the tree for the day's commits, not one a commit
    quoted = quoted_each(path, inputs)
    brought = merged_authors(path, [c.sha for c in commits if c.parents > 1])
    # a file's text parsed for one commit serves the next, whose parent it is
    # (the kept units let go first: the collector's pass when its setting is back then
    # scans none of them)
    with _collector_eased(), units_kept(), CatFile(path) as clone:
        for local, read, quoted_in in zip(
            progress.each(commits, "analysing"), inputs, quoted, strict=True
        ):
            sides = with_sources(clone, local.sha, read.files, blobs)
            commit = read.model_copy(
                update={
                    "files": sides,
                    "modules": with_modules(clone, local.sha, sides, blobs, read.title),
                    "quoted_before": quoted_in.before,
                    "quoted_after": quoted_in.after,
                }
            )
            reason = config.exclude.reason(
                author=local.author,
                login=None,
                message=local.message,
                paths=[f.filename for f in commit.files],
            )
            if reason:
                out.excluded[reason] += 1
                continue
            out.changes[local.sha] = {f.filename: f.changes for f in commit.files}
            shown = DigestCommit(
                sha=local.sha,
                # A title or message is printed as written: a credential in it is not.
                title=redact(commit.title),
                url=f"{url_prefix}{local.sha}" if url_prefix else "",
                author=local.author,
                landed_at=local.committed_at,
                message=redact(local.message),
                # (an author the config excludes is no contributor online either)
                brought_by=tuple(
                    a for a in brought.get(local.sha, ()) if a not in config.exclude.authors
                ),
            )
            try:
                # As in the App: what the rules are sure of never goes to the LLM.
                sure = rules_sure(commit) if with_llm else None
                if sure:
                    result = AnalysisResult(rules.analyze(commit, language=config.language))
                else:
                    result = await analyzer.analyze(commit, language=config.language)
            except Exception as exc:
                # One commit the analyser cannot take is listed as not analysed, as in the App,
                # and the rest of the digest stands.
                log.warning("offline_analysis_failed", sha=local.sha, error=type(exc).__name__)
                out.shown.append(
                    replace(shown, not_analysed=f"analysis failed: {type(exc).__name__}")
                )
                continue
            out.routes[f"sure:{sure}" if sure else ("llm" if with_llm else "rules")] += 1
            out.tokens = (
                out.tokens[0] + result.input_tokens,
                out.tokens[1] + result.cached_input_tokens,
                out.tokens[2] + result.output_tokens,
            )
            out.dropped += result.dropped_claims
            out.shown.append(
                replace(
                    shown,
                    analysis=result.analysis,
                    fallback_reason=result.fallback_reason,
                    names=day_names(commit, result.analysis),
                )
            )
    return out
