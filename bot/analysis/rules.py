"""The rules analyser: the default, deterministic, no network.

It reads the title (bracket tags, conventional-commit prefixes, revert titles, keywords), the
message and PR body, the PR labels, and the changed files (kinds of paths, size and spread),
and returns an `Analysis`. Templated text comes in the repository's language.
"""

from __future__ import annotations

import re
from collections import Counter

from bot.analysis.messages import first_paragraph
from bot.analysis.paths import PathKind, area_of, impact, kinds, path_kind
from bot.analysis.titles import ParsedTitle, parse_title
from bot.models import (
    ONE_LINE_MAX,
    Analysis,
    Audience,
    ChangeType,
    CommitInput,
    Importance,
    Insights,
    Recommendation,
    Risk,
    fit_sentences,
)

T = ChangeType

# Bracket tags and labels that name a change type (other tags name an area: [Kernel], [ROCm]).
_TAG_TYPES: dict[str, ChangeType] = {
    **dict.fromkeys(["bugfix", "bug", "fix", "hotfix", "bug fix", "bugfixes"], T.BUGFIX),
    **dict.fromkeys(["feature", "feat", "new feature", "features", "enhancement"], T.FEATURE),
    **dict.fromkeys(["perf", "performance", "optimization", "optimize", "speedup"], T.PERFORMANCE),
    **dict.fromkeys(["doc", "docs", "documentation"], T.DOCS),
    **dict.fromkeys(["test", "tests", "ut", "e2e", "testing", "unittest"], T.TESTS),
    **dict.fromkeys(["ci", "ci-build", "github actions"], T.CI),
    **dict.fromkeys(["build", "deps", "dep", "dependency", "dependencies", "release"], T.BUILD),
    **dict.fromkeys(
        ["refactor", "cleanup", "clean up", "refactoring", "chore", "style"], T.REFACTOR
    ),
    **dict.fromkeys(["deprecation", "deprecate", "removal", "deprecated"], T.DEPRECATION),
    **dict.fromkeys(["revert"], T.REVERT),
    **dict.fromkeys(["security", "cve", "vulnerability"], T.SECURITY),
    **dict.fromkeys(["config", "configuration"], T.CONFIG),
}
_CONVENTIONAL_TYPES: dict[str, ChangeType] = {
    "feat": T.FEATURE,
    "feature": T.FEATURE,
    "fix": T.BUGFIX,
    "bugfix": T.BUGFIX,
    "hotfix": T.BUGFIX,
    "docs": T.DOCS,
    "doc": T.DOCS,
    "style": T.REFACTOR,
    "refactor": T.REFACTOR,
    "perf": T.PERFORMANCE,
    "test": T.TESTS,
    "tests": T.TESTS,
    "build": T.BUILD,
    "deps": T.BUILD,
    "release": T.BUILD,
    "ci": T.CI,
    "chore": T.OTHER,
    "revert": T.REVERT,
    "security": T.SECURITY,
    "config": T.CONFIG,
}
# Title keywords, tried in order; the first match is the primary type when nothing else says.
_KEYWORDS: list[tuple[ChangeType, re.Pattern[str]]] = [
    (T.SECURITY, re.compile(r"\b(cve-\d+|security|vulnerab\w*|xss|csrf|exploit\w*)\b")),
    (
        T.DEPRECATION,
        re.compile(r"\b(deprecat\w*|drop(s|ped)? support|remove(s|d)? (deprecated|support))\b"),
    ),
    (
        T.BUGFIX,
        re.compile(
            r"\b(fix(es|ed|ing)?|bugs?|crash\w*|segfault|leak\w*|regression|incorrect|wrong"
            r"|broken|hang(s|ing)?|race|mismatch|error)\b"
        ),
    ),
    (
        T.PERFORMANCE,
        re.compile(
            r"\b(speed\s?up|faster|optimi[sz]\w*|perf|performance|latency|throughput"
            r"|accelerat\w*|overhead|cold start)\b"
        ),
    ),
    (T.DOCS, re.compile(r"\b(docs?|documentation|readme|typos?|docstrings?|comments?)\b")),
    (T.TESTS, re.compile(r"\b(tests?|unit\s?tests?|e2e|flak\w+|ut|coverage|accuracy tests?)\b")),
    (T.CI, re.compile(r"\b(ci|workflows?|ci pipelines?|buildkite|pre-commit|github actions)\b")),
    (
        T.BUILD,
        re.compile(
            r"\b(bump\w*|upgrade\w*|pin(s|ned)?|dependenc\w+|requirements?|deps?|docker\w*"
            r"|wheels?|packaging)\b"
        ),
    ),
    (T.CONFIG, re.compile(r"\b(config\w*|settings?|env(ironment)?\s+var\w*|defaults?)\b")),
    (
        T.REFACTOR,
        re.compile(
            r"\b(refactor\w*|clean\s?up\w*|move[sd]?|renam\w+|extract\w*|simplif\w+|split\w*"
            r"|reorgani[sz]\w*|restructur\w*|consolidat\w*|unif(y|ies|ied)|dedup\w*|tidy"
            r"|modernize|lint\w*)\b"
        ),
    ),
    (
        T.FEATURE,
        re.compile(
            r"\b(add(s|ed|ing)?|support(s|ed|ing)?|introduc\w+|enabl\w+|implement\w*|new|allow\w*"
            r"|expose[sd]?|extend\w*|initial)\b"
        ),
    ),
]
_PATH_TYPES = {
    PathKind.DOCS: T.DOCS,
    PathKind.TESTS: T.TESTS,
    PathKind.CI: T.CI,
    PathKind.BUILD: T.BUILD,
    PathKind.CONFIG: T.CONFIG,
}
_QUIET_TYPES = frozenset({T.DOCS, T.TESTS, T.CI})
# Below this many changed source lines a change of this type is routine (low importance).
_SMALL: dict[ChangeType, int] = {
    T.BUGFIX: 40,
    T.REFACTOR: 100,
    T.BUILD: 60,
    T.CONFIG: 60,
    T.OTHER: 40,
    T.FEATURE: 20,
    T.REVERT: 20,
}
# Types that are usually small: without a file list they default to low.
_SMALL_BY_DEFAULT = frozenset({T.BUGFIX, T.REFACTOR, T.BUILD, T.CONFIG, T.OTHER})
_TRIVIAL = re.compile(r"\b(typos?|nits?|minor|whitespace|spelling|wording|log message|comments?)\b")
_REMOVAL = re.compile(r"\b(remov\w+|drop\w*|delet\w+)\b")
# A substantial new capability: "add", "introduce", "new", "support" on a large feature.
_NEW_CAPABILITY = re.compile(r"\b(introduc\w+|new|add(s|ed)?|support(s|ed)?)\b")
_BREAKING_FOOTER = re.compile(r"^BREAKING[ -]CHANGE:", re.MULTILINE)

_PHRASES: dict[str, dict[str, str]] = {
    "en": {
        "breaking_risk": "Breaking change",
        "breaking_consequence": (
            "Code, configuration or scripts that rely on the old behaviour can stop working."
        ),
        "breaking_mitigation": "Read the pull request's migration notes before upgrading.",
        "breaking_users": "Check this breaking change before upgrading.",
        "removal_users": (
            "Stop relying on what this change removes or deprecates, and plan the migration."
        ),
        "large_risk": "Large change: {lines} lines across {files} files in {areas} areas.",
        "large_consequence": "Regressions are more likely in paths the tests do not cover.",
        "large_mitigation": "Watch CI and nightly results for the affected areas after it lands.",
        "no_tests": (
            "No test files changed with this {kind}: ask whether a regression test is needed."
        ),
        "kernel_insight": (
            "Touches compiled kernels or operators ({paths}); behaviour may differ by hardware."
        ),
        "kernel_risk": "Kernel or operator changes",
        "kernel_consequence": "Failures may show only on some hardware or shapes.",
        "kernel_mitigation": "Run the hardware-specific test suites before release.",
        "build_insight": "Changes build or dependency files ({paths}).",
        "build_developers": "Re-create local environments: build or dependency files changed.",
        "config_insight": "Changes configuration files or defaults ({paths}).",
        "api_insight": "Touches public entry points ({paths}).",
        "revert_insight": "Reverts an earlier change; the behaviour before that change returns.",
        "security_maintainers": (
            "Review the security impact and whether a release or advisory is needed."
        ),
        "feature": "feature",
        "bugfix": "fix",
    },
    "zh-CN": {
        "breaking_risk": "破坏性变更",
        "breaking_consequence": "依赖旧行为的代码、配置或脚本可能无法继续工作。",
        "breaking_mitigation": "升级前阅读该 PR 的迁移说明。",
        "breaking_users": "升级前请确认此破坏性变更的影响。",
        "removal_users": "不要再依赖本次移除或弃用的功能，并规划迁移。",
        "large_risk": "大规模变更：{areas} 个模块中的 {files} 个文件，共 {lines} 行。",
        "large_consequence": "测试未覆盖的路径更可能出现回归。",
        "large_mitigation": "合入后关注受影响模块的 CI 与夜间测试结果。",
        "no_tests": "此{kind}未修改任何测试文件：请确认是否需要补充回归测试。",
        "kernel_insight": "涉及编译的内核或算子（{paths}）；不同硬件上的行为可能不同。",
        "kernel_risk": "内核或算子变更",
        "kernel_consequence": "问题可能只在部分硬件或输入形状上出现。",
        "kernel_mitigation": "发布前运行对应硬件的测试套件。",
        "build_insight": "修改了构建或依赖文件（{paths}）。",
        "build_developers": "构建或依赖文件有变化：请重建本地环境。",
        "config_insight": "修改了配置文件或默认值（{paths}）。",
        "api_insight": "涉及对外入口（{paths}）。",
        "revert_insight": "回退了此前的变更，行为恢复到该变更之前。",
        "security_maintainers": "评估安全影响，并确认是否需要发布版本或安全公告。",
        "feature": "功能变更",
        "bugfix": "修复",
    },
}


def _types(
    commit: CommitInput, title: ParsedTitle, path_kinds: Counter[PathKind]
) -> tuple[list[ChangeType], float]:
    """Change types, primary first, and how sure the rules are."""
    found: list[ChangeType] = []
    confidence = 0.35
    if title.revert:
        found.append(T.REVERT)
    if title.conventional:
        found.append(_CONVENTIONAL_TYPES.get(title.conventional, T.OTHER))
        confidence = 0.6
    labels = [lab.lower() for lab in (commit.pull_request.labels if commit.pull_request else [])]
    for tag in (*title.tags, *labels):
        mapped = _TAG_TYPES.get(tag) or _TAG_TYPES.get(tag.removeprefix("type:").strip())
        if mapped:
            found.append(mapped)
            confidence = max(confidence, 0.6)
    text = title.text.lower()
    keyword_types = [kind for kind, pattern in _KEYWORDS if pattern.search(text)]
    # Only-docs, only-tests, only-CI changes say so by their paths, whatever the title.
    total = sum(path_kinds.values())
    for kind, mapped in _PATH_TYPES.items():
        if total and path_kinds[kind] == total:
            found.insert(0, mapped)
            confidence = max(confidence, 0.7)
    if not found and keyword_types:
        found.append(keyword_types[0])
        confidence = max(confidence, 0.45)
    for extra in keyword_types[:2]:
        # A "fix" in the docs is an edit, not a bug fix.
        if extra is T.BUGFIX and found and found[0] is T.DOCS:
            continue
        if extra in (T.DEPRECATION, T.SECURITY, T.PERFORMANCE, T.BUGFIX):
            found.append(extra)
    # Mostly build files (a version bump beside a small code change) is a build change too.
    build_lines = path_kinds[PathKind.BUILD]
    if build_lines and build_lines * 2 >= total and T.REVERT not in found:
        found.append(T.BUILD)
    unique = list(dict.fromkeys(found)) or [T.OTHER]
    return unique[:4], confidence


def _importance(
    commit: CommitInput,
    title: ParsedTitle,
    types: list[ChangeType],
    path_kinds: Counter[PathKind],
    breaking: bool,
) -> Importance:
    primary = types[0]
    text = title.text.lower()
    lines = commit.additions + commit.deletions
    files = len(commit.files)
    areas = len({area_of(f.filename) for f in commit.files})
    source_lines = sum(
        n
        for kind, n in path_kinds.items()
        if kind not in (PathKind.DOCS, PathKind.TESTS, PathKind.CI)
    )
    if breaking or T.SECURITY in types:
        return Importance.HIGH
    if primary in _QUIET_TYPES:
        return Importance.LOW
    if _TRIVIAL.search(text) and not (commit.files_known and lines > 200):
        return Importance.LOW
    if T.DEPRECATION in types and _REMOVAL.search(text):
        return Importance.HIGH
    if commit.files_known:
        if source_lines >= 2000 or (areas >= 6 and source_lines >= 800):
            return Importance.HIGH
        if primary is T.FEATURE and _NEW_CAPABILITY.search(text) and source_lines >= 500:
            return Importance.HIGH
        if primary is T.REFACTOR and files >= 30 and source_lines >= 800:
            return Importance.HIGH
        # Routine, local changes: a small fix, a small refactor, a version pin.
        small = _SMALL.get(primary, 15)
        if source_lines < small:
            return Importance.LOW
    elif primary in _SMALL_BY_DEFAULT:
        # Without the diff, assume the typical size of such a change.
        return Importance.LOW
    return Importance.MEDIUM


def _summary(commit: CommitInput, title: ParsedTitle, importance: Importance) -> str:
    head = title.text.rstrip(". ")
    head = head[0].upper() + head[1:] if head else commit.title
    one_line = _one_line(head)
    if importance is Importance.LOW:
        return one_line
    pr = commit.pull_request
    paragraph = first_paragraph(pr.body if pr else "", commit.body, limit=450)
    if not paragraph or paragraph.lower().startswith(head.lower()[:40]):
        return one_line
    return fit_sentences(f"{one_line}. {paragraph}", 600)


def _one_line(text: str) -> str:
    if len(text) <= ONE_LINE_MAX:
        return text
    cut = text[: ONE_LINE_MAX - 1].rsplit(" ", 1)[0]
    return cut + "…"


def _paths_of(commit: CommitInput, kind: PathKind, limit: int = 3) -> str:
    names = [f.filename for f in commit.files if path_kind(f.filename) is kind]
    shown = ", ".join(names[:limit])
    return shown + (f" (+{len(names) - limit})" if len(names) > limit else "")


# `git commit --allow-empty-message`: a commit like any other, summarised by a placeholder.
_NO_MESSAGE = {"en": "(no commit message)", "zh-CN": "（无提交说明）"}


def analyze(commit: CommitInput, *, language: str = "en") -> Analysis:
    """The rules' analysis of one commit."""
    words = _PHRASES.get(language, _PHRASES["en"])
    title = parse_title(commit.title)
    path_kinds = kinds(commit.files)
    types, confidence = _types(commit, title, path_kinds)
    breaking = (
        title.bang
        or bool(_BREAKING_FOOTER.search(commit.message))
        or any(
            "breaking" in lab.lower()
            for lab in (commit.pull_request.labels if commit.pull_request else [])
        )
    )
    importance = _importance(commit, title, types, path_kinds, breaking)

    insights: dict[str, str] = {}
    risks: list[Risk] = []
    recs: list[Recommendation] = []
    if importance is not Importance.LOW:
        lines = commit.additions + commit.deletions
        areas = len({area_of(f.filename) for f in commit.files})
        if breaking:
            risks.append(
                Risk(
                    description=words["breaking_risk"],
                    consequence=words["breaking_consequence"],
                    mitigation=words["breaking_mitigation"],
                )
            )
            recs.append(Recommendation(audience=Audience.USERS, text=words["breaking_users"]))
        if T.DEPRECATION in types:
            recs.append(Recommendation(audience=Audience.USERS, text=words["removal_users"]))
        if T.SECURITY in types:
            recs.append(
                Recommendation(audience=Audience.MAINTAINERS, text=words["security_maintainers"])
            )
        if path_kinds[PathKind.KERNEL]:
            insights["performance"] = words["kernel_insight"].format(
                paths=_paths_of(commit, PathKind.KERNEL)
            )
            risks.append(
                Risk(
                    description=words["kernel_risk"],
                    consequence=words["kernel_consequence"],
                    mitigation=words["kernel_mitigation"],
                )
            )
        if path_kinds[PathKind.PUBLIC_API]:
            insights["architecture"] = words["api_insight"].format(
                paths=_paths_of(commit, PathKind.PUBLIC_API)
            )
        compat = []
        if path_kinds[PathKind.BUILD]:
            compat.append(words["build_insight"].format(paths=_paths_of(commit, PathKind.BUILD)))
            recs.append(
                Recommendation(audience=Audience.DEVELOPERS, text=words["build_developers"])
            )
        if path_kinds[PathKind.CONFIG]:
            compat.append(words["config_insight"].format(paths=_paths_of(commit, PathKind.CONFIG)))
        if T.REVERT in types:
            compat.append(words["revert_insight"])
        if compat:
            insights["compatibility"] = fit_sentences(" ".join(compat), 600)
        if lines >= 1000:
            risks.append(
                Risk(
                    description=words["large_risk"].format(
                        lines=lines, files=len(commit.files), areas=areas
                    ),
                    consequence=words["large_consequence"],
                    mitigation=words["large_mitigation"],
                )
            )
        if (
            commit.files_known
            and commit.files
            and types[0] in (T.BUGFIX, T.FEATURE)
            and not path_kinds[PathKind.TESTS]
        ):
            kind = words["bugfix" if types[0] is T.BUGFIX else "feature"]
            recs.append(
                Recommendation(
                    audience=Audience.MAINTAINERS, text=words["no_tests"].format(kind=kind)
                )
            )

    return Analysis(
        change_types=types,
        importance=importance,
        breaking=breaking,
        summary=_summary(commit, title, importance) or _NO_MESSAGE.get(language, _NO_MESSAGE["en"]),
        impact=impact(commit.files),
        insights=Insights(**insights) if insights else None,
        risks=risks[:5],
        recommendations=recs[:5],
        confidence=confidence,
        analyzer="rules",
    )
