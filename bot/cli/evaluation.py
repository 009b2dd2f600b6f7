"""`python -m bot eval`: an analyser's agreement with labelled commits, and its words.

A label line holds `importance` and either a `title` alone (titles-only, as in the batch job's
labels) or a full commit: inline under `commit`, or looked up by `sha` in a directory of replay
days or in a local clone (`--git`). The report gives importance agreement, the confusion
table, high recall and precision, primary-type and `breaking` agreement, the tokens the
analyser used and, for the LLM, the unsupported claims the fact guard dropped from its
answers. Without labels, every commit of the replay days or of a local clone's history is
analysed for the measures of its words alone (`bot/analysis/measures.py`).
"""

from __future__ import annotations

import asyncio
import gzip
import json
import re
import sys
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pydantic

from bot.analysis import Analyzer
from bot.analysis.cost import Prices
from bot.analysis.factory import open_analyzer
from bot.analysis.guard import audit
from bot.analysis.measures import Entry, WordMeasures, measure_groups
from bot.cli import progress
from bot.cli.clone import files_with_patches, require_clone
from bot.cli.clone_carried import with_carried
from bot.cli.clone_release import with_releases
from bot.cli.clone_sources import CatFile, blob_cache, with_modules, with_sources
from bot.cli.clone_tree import with_quoted_before
from bot.cli.git import CloneError, git
from bot.models import ChangeType, CommitInput, Importance
from bot.settings import MissingSetting, Settings

_LEVELS = [Importance.HIGH, Importance.MEDIUM, Importance.LOW]
# The batch job's free-text types (labels-dev.jsonl), as the eval README maps them.
_RAW_TYPES = [
    ("功能增强", ChangeType.FEATURE),
    ("代码重构", ChangeType.REFACTOR),
    ("重构", ChangeType.REFACTOR),
    ("代码清理", ChangeType.REFACTOR),
    ("架构变更", ChangeType.REFACTOR),
    ("bug 修复", ChangeType.BUGFIX),
    ("bugfix", ChangeType.BUGFIX),
    ("性能优化", ChangeType.PERFORMANCE),
    ("文档更新", ChangeType.DOCS),
    ("测试修改", ChangeType.TESTS),
    ("配置调整", ChangeType.CONFIG),
    ("依赖升级", ChangeType.BUILD),
    ("功能移除", ChangeType.DEPRECATION),
    ("已弃用", ChangeType.DEPRECATION),
    ("回退", ChangeType.REVERT),
    ("功能回滚", ChangeType.REVERT),
    ("其他", ChangeType.OTHER),
]
_TYPE_ALIASES = {
    "fix": ChangeType.BUGFIX,
    "bug": ChangeType.BUGFIX,
    "feat": ChangeType.FEATURE,
    "perf": ChangeType.PERFORMANCE,
    "build/dependencies": ChangeType.BUILD,
    "dependencies": ChangeType.BUILD,
    "deprecation/removal": ChangeType.DEPRECATION,
    "removal": ChangeType.DEPRECATION,
    "test": ChangeType.TESTS,
    "doc": ChangeType.DOCS,
}
_WINDOW = 32


class LabelError(ValueError):
    """A label line that cannot be evaluated; the message says why."""


def label_type(row: dict[str, Any]) -> ChangeType | None:
    """The labelled primary type: `type` (the App's names) or the batch job's `change_type_raw`."""
    value = row.get("type")
    if isinstance(value, str) and value.strip():
        text = value.strip().lower()
        try:
            return ChangeType(text)
        except ValueError:
            return _TYPE_ALIASES.get(text)
    raw = row.get("change_type_raw")
    if not isinstance(raw, str) or not raw:
        return None
    for part in re.split(r"[/／]", re.sub(r"[（(].*?[)）]", "", raw)):
        text = part.strip().lower()
        for key, kind in _RAW_TYPES:
            if text.startswith(key):
                return kind
    return None


def _day_files(directory: Path) -> list[Path]:
    """The replay day files under `directory` (or `directory` itself, one day's file), plain
    JSON or gzipped (`.json.gz`), neither the index nor the push files."""
    if directory.is_file():
        return [directory]
    return [
        path
        for path in sorted([*directory.rglob("*.json"), *directory.rglob("*.json.gz")])
        if not path.name.removesuffix(".gz").endswith(".pushes.json")
        and path.name.removesuffix(".gz") != "index.json"
    ]


def _read_day(path: Path) -> Any:
    """A replay day file's JSON, or None where it is not one (unreadable, not JSON)."""
    try:
        data = path.read_bytes()
        if path.suffix == ".gz":
            data = gzip.decompress(data)
        return json.loads(data)
    except (OSError, EOFError, gzip.BadGzipFile, UnicodeDecodeError, ValueError, RecursionError):
        return None


def _replayed(directory: Path) -> Iterator[tuple[Path, dict[str, Any], dict[str, Any]]]:
    """Each commit (an object with a `sha`) of the replay day files under `directory`, in
    order, with its file and its day's JSON."""
    for path in _day_files(directory):
        day = _read_day(path)
        if isinstance(day, dict) and isinstance(day.get("commits"), list):
            for commit in day["commits"]:
                if isinstance(commit, dict) and isinstance(commit.get("sha"), str):
                    yield path, day, commit


def replay_commits(directory: Path) -> dict[str, tuple[str, dict[str, Any]]]:
    """Every commit of the replay day files under `directory`, by sha: (repo, commit)."""
    return {c["sha"]: (str(day.get("repo") or ""), c) for _, day, c in _replayed(directory)}


def replay_days(directory: Path) -> list[tuple[str, CommitInput]]:
    """Every commit of the replay day files under `directory` (or of one day file), in
    landing order, with its day: ("owner/repo YYYY-MM-DD", commit)."""
    found = []
    for path, day, raw in _replayed(directory):
        repo = str(day.get("repo") or "")
        group = f"{repo} {day.get('date') or path.name.split('.')[0]}"
        try:
            found.append((group, CommitInput.from_github(raw, repo=repo)))
        except pydantic.ValidationError:
            continue
    return found


def git_history(
    path: Path,
    *,
    branch: str = "HEAD",
    since: str | None = None,
    until: str | None = None,
    merges: bool = False,
) -> list[tuple[str, CommitInput]]:
    """Every commit of a clone's history (`branch`, or a range `A..B`) but merges, oldest
    first, within the committer dates given, with its files and patches against its parent
    (as GitHub's "get a commit" gives them). With `merges`, the merges on the branch's
    first-parent line too, against their first parent: each is a digest's entry there."""
    require_clone(path)
    dates = [f"--since={since}"] * bool(since) + [f"--until={until}"] * bool(until)
    log = git(
        path,
        "log",
        *(() if merges else ("--no-merges",)),
        "--reverse",
        *dates,
        "--format=%H%x1f%P%x1f%an%x1f%B%x1e",
        branch,
    )
    records = [r.strip("\n").split("\x1f", 3) for r in log.split("\x1e") if r.strip("\n")]
    on_line: set[str] = set()
    if merges:
        line = git(path, "log", "--first-parent", "--merges", *dates, "--format=%H", branch)
        on_line = set(line.split())
    return _read_commits(
        path,
        [
            (sha, author, message, len(parents.split()))
            for sha, parents, author, message in records
            if len(parents.split()) < 2 or sha in on_line
        ],
    )


def _read_commits(
    path: Path, records: list[tuple[str, str, str, int]]
) -> list[tuple[str, CommitInput]]:
    """The commits `(sha, author, message, parents)` of the clone at `path`, grouped by its
    name, with their files' patches (against the first parent) and both sides."""
    name = path.resolve().name
    files = files_with_patches(path, [r[0] for r in records])
    return with_sides(
        path,
        [
            (
                name,
                CommitInput(
                    sha=sha,
                    message=message.rstrip("\n"),
                    repo=name,
                    author=author,
                    files=files[sha],
                    parents=max(parents, 1),
                ),
            )
            for sha, author, message, parents in records
        ],
    )


def _label_shas(lines: Iterable[str]) -> list[str]:
    """The `sha` of each label line that names one (lines that are not JSON are left to the
    label parser, which reports them)."""
    shas: list[str] = []
    for line in lines:
        try:
            row = json.loads(line)
        except (ValueError, RecursionError):
            continue
        if isinstance(row, dict) and isinstance(row.get("sha"), str) and row["sha"]:
            shas.append(row["sha"])
    return list(dict.fromkeys(shas))


def labelled_commits(path: Path, shas: list[str]) -> dict[str, CommitInput]:
    """The labelled commits the clone at `path` holds, by the label's `sha`: message, author,
    files with patches against the first parent, and both sides of each file (as the App
    reads them online). A sha the clone lacks is left out (its label line is reported)."""
    require_clone(path)
    found: dict[str, str] = {}
    for sha in shas:
        try:
            found[sha] = git(path, "rev-parse", "--verify", "--quiet", f"{sha}^{{commit}}").strip()
        except CloneError:
            continue
    if not found:
        return {}
    log = git(
        path, "log", "--no-walk=unsorted", "--format=%H%x1f%P%x1f%an%x1f%B%x1e", *found.values()
    )
    records = {
        r[0]: r for r in (r.strip("\n").split("\x1f", 3) for r in log.split("\x1e")) if len(r) == 4
    }
    commits = _read_commits(
        path,
        [
            (sha, author, text, len(parents.split()))
            for sha, parents, author, text in records.values()
        ],
    )
    by_full = {c.sha: c for _, c in commits}
    return {sha: by_full[full] for sha, full in found.items() if full in by_full}


def with_sides(path: Path, commits: list[tuple[str, CommitInput]]) -> list[tuple[str, CommitInput]]:
    """The commits with each changed file's whole text at the parent and at the commit, read
    from the clone at `path` within the bounds, as the App reads them online (a commit the
    clone lacks keeps its patches alone), the names its added lines quote that the parent's
    tree already quotes, its last release (`clone_release.py`) and, for a release, what it
    ships (`clone_carried.py`)."""
    blobs = blob_cache()
    read = []
    with CatFile(path) as clone:
        for group, c in commits:
            files = with_sources(clone, c.sha, list(c.files), blobs)
            modules = with_modules(clone, c.sha, files, blobs, c.title)
            read.append((group, c.model_copy(update={"files": files, "modules": modules})))
    released = with_carried(
        path, with_releases(path, [with_quoted_before(path, c) for _, c in read])
    )
    return [(group, c) for (group, _), c in zip(read, released, strict=True)]


@dataclass(frozen=True)
class Labelled:
    """One label line, ready to analyse."""

    line: int
    commit: CommitInput
    importance: Importance
    type: ChangeType | None
    breaking: bool | None
    title: str
    why: str
    # the set it is reported in: its repository and day, when the line names them
    group: str = ""


def parse_label(
    number: int,
    line: str,
    replay: dict[str, tuple[str, dict[str, Any]]] | None,
    clone: dict[str, CommitInput] | None = None,
) -> Labelled:
    try:
        row = json.loads(line)
    except json.JSONDecodeError as exc:
        raise LabelError(f"invalid JSON: {exc.msg}") from None
    except RecursionError:
        raise LabelError("invalid JSON: nested too deeply") from None
    if not isinstance(row, dict):
        raise LabelError("each line must be a JSON object")
    try:
        importance = Importance(str(row.get("importance", "")).lower())
    except ValueError:
        raise LabelError("`importance` must be high, medium or low") from None
    sha = row.get("sha") if isinstance(row.get("sha"), str) else ""
    inline = row.get("commit")
    try:
        if isinstance(inline, dict):
            commit = CommitInput.from_github(
                {"sha": sha, **inline} if "sha" not in inline else inline,
                repo=str(row.get("repo") or ""),
            )
        elif replay is not None and sha and sha in replay:
            repo, raw = replay[sha]
            commit = CommitInput.from_github(raw, repo=repo)
        elif replay is not None and sha:
            raise LabelError(f"sha {sha[:12]} is not in the replay directory")
        elif clone is not None and sha in clone:
            commit = clone[sha]
        elif clone is not None:
            raise LabelError(f"sha {sha[:12]} is not in the clone" if sha else "needs a `sha`")
        elif isinstance(row.get("title"), str) and row["title"].strip():
            commit = CommitInput(
                sha=sha or f"line-{number}", message=row["title"].strip(), files_known=False
            )
        else:
            raise LabelError("needs a `title`, an inline `commit`, or a `sha` with --replay")
    except pydantic.ValidationError as exc:
        where = ", ".join(".".join(str(p) for p in e["loc"]) for e in exc.errors()[:3])
        raise LabelError(f"invalid commit: {where}") from None
    if not commit.message.strip():
        raise LabelError("the commit has no message")
    breaking = row.get("breaking")
    return Labelled(
        line=number,
        commit=commit,
        importance=importance,
        type=label_type(row),
        breaking=breaking if isinstance(breaking, bool) else None,
        title=str(row.get("title") or commit.title),
        why=str(row.get("why") or ""),
        group=" ".join(str(v) for v in (row.get("repo"), row.get("day") or row.get("date")) if v),
    )


@dataclass
class EvalReport:
    """What an analyser scored against the labels."""

    analyzer: str
    confusion: Counter[tuple[Importance, Importance]] = field(default_factory=Counter)
    typed: int = 0
    type_hits: int = 0
    breaking_labelled: int = 0
    breaking_hits: int = 0
    input_tokens: int = 0
    cached_input_tokens: int = 0
    output_tokens: int = 0
    # Without prices (the LLM_PRICE_* settings) the run's cost is not estimated.
    prices: Prices = field(default_factory=Prices)
    fallbacks: int = 0
    # LLM answers used (not fallbacks), and the claims the fact guard dropped from them.
    answers: int = 0
    dropped_claims: int = 0
    errors: list[tuple[int, str]] = field(default_factory=list)
    disagreements: list[tuple[Labelled, Importance]] = field(default_factory=list)
    # every analysis made, for the measures of its words
    entries: list[Entry] = field(default_factory=list)

    @property
    def total(self) -> int:
        return sum(self.confusion.values())

    @property
    def agreement(self) -> float:
        agree = sum(n for (a, b), n in self.confusion.items() if a is b)
        return agree / self.total if self.total else 0.0

    def labelled(self, level: Importance) -> int:
        return sum(n for (a, _), n in self.confusion.items() if a is level)

    def rated(self, level: Importance) -> int:
        return sum(n for (_, b), n in self.confusion.items() if b is level)

    @property
    def high_hits(self) -> int:
        return self.confusion[(Importance.HIGH, Importance.HIGH)]

    @property
    def high_rated_low(self) -> int:
        return self.confusion[(Importance.HIGH, Importance.LOW)]

    def cost_line(self) -> str:
        if not self.prices.known:
            return "estimated cost: not known (set the LLM_PRICE_*_PER_MTOK settings)"
        cost = self.prices.cost(self.input_tokens, self.cached_input_tokens, self.output_tokens)
        return f"estimated cost: {cost:.4f} at the configured prices"

    def lines(self, *, show_disagreements: bool = False) -> list[str]:
        def ratio(hits: int, total: int) -> str:
            return f"{hits}/{total} = {hits / total:.0%}" if total else "n/a (none)"

        agree = sum(n for (a, b), n in self.confusion.items() if a is b)
        out = [
            f"analyser: {self.analyzer}",
            f"commits: {self.total}"
            + (f" ({len(self.errors)} lines skipped)" if self.errors else ""),
            f"importance agreement: {ratio(agree, self.total)}",
            "",
            "| label \\ analyser | high | medium | low |",
            "|---|---:|---:|---:|",
        ]
        for label in _LEVELS:
            cells = " | ".join(str(self.confusion[(label, got)]) for got in _LEVELS)
            out.append(f"| {label.value} | {cells} |")
        high, rated = self.labelled(Importance.HIGH), self.rated(Importance.HIGH)
        out += [
            "",
            f"high recall: {ratio(self.high_hits, high)}",
            f"high precision: {ratio(self.high_hits, rated)}",
            f"rated high: {rated} for {high} labelled high; high rated low: {self.high_rated_low}",
            f"primary type agreement: {ratio(self.type_hits, self.typed)}",
            f"breaking agreement: {ratio(self.breaking_hits, self.breaking_labelled)}",
            f"tokens used: {self.input_tokens} in ({self.cached_input_tokens} cached), "
            f"{self.output_tokens} out"
            + (f"; {self.fallbacks} fell back to the rules" if self.fallbacks else ""),
            self.cost_line(),
        ]
        if self.analyzer.startswith("llm:"):
            out.append(
                f"unsupported claims dropped: {self.dropped_claims} in {self.answers} answers"
            )
        for number, error in self.errors:
            out.append(f"line {number}: {error}")
        if show_disagreements and self.disagreements:
            out += ["", "disagreements (label -> analyser):"]
            for item, got in self.disagreements:
                why = f"  [{item.why}]" if item.why else ""
                out.append(f"{item.importance.value:>6} -> {got.value:<6} {item.title}{why}")
        return out


async def evaluate(
    analyzer: Analyzer,
    lines: Iterable[str],
    *,
    replay: dict[str, tuple[str, dict[str, Any]]] | None = None,
    clone: dict[str, CommitInput] | None = None,
    language: str = "en",
    prices: Prices | None = None,
) -> EvalReport:
    """Analyse every labelled commit and score the analyser against the labels; with
    `clone`, each label's commit is the clone's (by `sha`), files and both sides read."""
    report = EvalReport(analyzer=analyzer.name, prices=prices or Prices())
    items: list[Labelled] = []
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            items.append(parse_label(number, line, replay, clone))
        except LabelError as exc:
            report.errors.append((number, str(exc)))
    for start in range(0, len(items), _WINDOW):
        window = items[start : start + _WINDOW]
        results = await asyncio.gather(
            *(analyzer.analyze(item.commit, language=language) for item in window)
        )
        for item, result in zip(window, results, strict=True):
            got = result.analysis
            report.entries.append(Entry(item.commit, got, language, item.group))
            report.confusion[(item.importance, got.importance)] += 1
            report.input_tokens += result.input_tokens
            report.cached_input_tokens += result.cached_input_tokens
            report.output_tokens += result.output_tokens
            report.fallbacks += result.fallback_reason is not None
            report.answers += got.analyzer.startswith("llm:")
            report.dropped_claims += result.dropped_claims
            if item.type is not None:
                report.typed += 1
                report.type_hits += got.change_types[0] is item.type
            if item.breaking is not None:
                report.breaking_labelled += 1
                report.breaking_hits += got.breaking is item.breaking
            if got.importance is not item.importance:
                report.disagreements.append((item, got.importance))
    return report


def command(
    settings: Settings,
    *,
    labels: str | None,
    replay: str | None,
    clone: str | None,
    lang: str | None,
    show_disagreements: bool,
    show_words: bool,
    revisions: str | None = None,
    since: str | None = None,
    until: str | None = None,
) -> int:
    """Score the configured analyser against the labels file, or measure the words of every
    commit of the replay days or of a clone's history (`revisions`, committer dates between
    `since` and `until`); the report goes to stdout."""
    if labels is None and replay is None and clone is None:
        raise MissingSetting("eval needs LABELS.jsonl, --replay DIR or --git PATH")
    lines: list[str] = []
    if labels is not None:
        path = Path(labels)
        try:
            lines = path.read_text(encoding="utf-8").splitlines()
        except (OSError, UnicodeDecodeError) as exc:
            raise MissingSetting(f"cannot read {path}: {exc}") from None
    replayed = None
    commits: list[tuple[str, CommitInput]] = []
    if replay:
        directory = Path(replay)
        if not directory.exists():
            raise MissingSetting(f"--replay must be a directory of replay days, not {directory}")
        if labels is None:
            commits = replay_days(directory)
        else:
            replayed = replay_commits(directory)
    cloned: dict[str, CommitInput] | None = None
    if clone is not None:
        try:
            if labels is None:
                commits = git_history(
                    Path(clone), branch=revisions or "HEAD", since=since, until=until
                )
            else:
                cloned = labelled_commits(Path(clone), _label_shas(lines))
        except CloneError as exc:
            raise MissingSetting(f"--git {clone}: {exc}") from None
    language = lang or settings.default_language

    async def run() -> list[str]:
        async with open_analyzer(settings) as analyzer:
            if labels is None:
                entries = await analyse_all(analyzer, commits, language=language)
                words = word_lines(entries, show_examples=show_words)
                return [f"analyser: {analyzer.name}", f"commits: {len(entries)}", *words]
            report = await evaluate(
                analyzer,
                lines,
                replay=replayed,
                clone=cloned,
                language=language,
                prices=Prices.from_settings(settings),
            )
        return report.lines(show_disagreements=show_disagreements) + word_lines(
            report.entries, show_examples=show_words
        )

    text = "\n".join(asyncio.run(run())) + "\n"
    sys.stdout.buffer.write(text.encode("utf-8"))
    sys.stdout.flush()
    return 0


async def analyse_all(
    analyzer: Analyzer, commits: list[tuple[str, CommitInput]], *, language: str = "en"
) -> list[Entry]:
    """Every commit analysed, for the measures of the words (no labels needed)."""
    entries: list[Entry] = []
    with progress.bar(len(commits), "analysing") as shown:
        for start in range(0, len(commits), _WINDOW):
            window = commits[start : start + _WINDOW]
            results = await asyncio.gather(
                *(analyzer.analyze(commit, language=language) for _, commit in window)
            )
            entries += [
                Entry(commit, result.analysis, language, group)
                for (group, commit), result in zip(window, results, strict=True)
            ]
            shown.update(len(window))
    return entries


_MEASURE_COLUMNS = (
    "set",
    "entries",
    "title echo",
    "boilerplate",
    "facts from the change",
    "nothing to say",
    "source files called configuration",
    "English in zh-CN",
    "unsupported claims",
)


def _row(name: str, m: WordMeasures) -> str:
    cells = [
        name,
        str(m.entries),
        str(m.title_echo),
        str(m.boilerplate),
        str(m.facts) if m.facts is not None else "n/a (no patch)",
        str(m.nothing_to_say),
        str(m.config_misnamed),
        str(m.english_in_zh) if m.english_in_zh is not None else "n/a (en)",
        str(m.unsupported) if m.unsupported is not None else "n/a (no fact guard)",
    ]
    return "| " + " | ".join(cells) + " |"


def word_lines(entries: list[Entry], *, show_examples: bool = False) -> list[str]:
    """The measures of the words, per set (replay day, clone) and over all, as a table."""
    # The LLM's words are checked against the change by its fact guard; the rules' are not.
    llm = any(e.analysis.analyzer.startswith("llm:") for e in entries)
    groups = measure_groups(entries, guard=audit if llm else None)
    out = [
        "",
        "words (issue 21; see bot/analysis/measures.py):",
        "",
        "| " + " | ".join(_MEASURE_COLUMNS) + " |",
        "|---|" + "---:|" * (len(_MEASURE_COLUMNS) - 1),
    ]
    named = [k for k in groups if k]
    for name in named:
        out.append(_row(name, groups[name]))
    if len(named) != 1:
        out.append(_row("all", groups[""]))
    if show_examples:
        for key, texts in groups[""].examples.items():
            out += ["", f"{key}:"] + [f"  - {t}" for t in texts]
    return out
