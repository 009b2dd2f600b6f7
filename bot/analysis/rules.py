"""The rules analyser: the default, deterministic, no network.

Importance follows the rubric in `bot/analysis/rubric.py`: what the change does and whom it
affects (breaking evidence, severe symptoms, new capabilities, numbers), read by
`bot/analysis/signals.py`; size only breaks ties between medium and low. Every insight, risk
and recommendation it writes names the fact it rests on; where it knows nothing specific it
writes nothing. Templated text comes in the repository's language.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass

from bot.analysis.messages import fitting_paragraph, unmarkdown
from bot.analysis.paths import PathKind, area_of, impact
from bot.analysis.signals import Signals, read_signals
from bot.analysis.titles import ParsedTitle
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
I = Importance  # noqa: E741 - short, like the rubric's column

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
        re.compile(
            r"\b(deprecat\w*|drop(s|ped)? ([\w.-]+ )?(support|compat\w*|v?\d+\.\d+(\.\d+)?)"
            r"|remove(s|d)? (deprecated|support))\b"
        ),
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
            r"|accelerat\w*|overhead|cold start|redundant)\b"
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
            r"|modernize|lint\w*|replac\w+)\b"
        ),
    ),
    (
        T.FEATURE,
        re.compile(
            r"\b(add(s|ed|ing)?|support(s|ed|ing)?|introduc\w+|enabl\w+|implement\w*|new|allow\w*"
            r"|expose[sd]?|extend\w*|initial|defin(e|es|ed|ing))\b"
        ),
    ),
]
_PATH_TYPES = {
    PathKind.DOCS: T.DOCS,
    PathKind.TESTS: T.TESTS,
    PathKind.CI: T.CI,
    PathKind.BUILD: T.BUILD,
    PathKind.CONFIG: T.CONFIG,
    PathKind.LEGAL: T.DOCS,
}
_QUIET_TYPES = frozenset({T.DOCS, T.TESTS, T.CI})
# Tie-breaker only: with no other evidence, a change of this type touching fewer source lines
# than this is a tiny tweak (low) rather than a change of limited reach (medium).
_TINY: dict[ChangeType, int] = {
    T.BUGFIX: 8,
    T.FEATURE: 10,
    T.PERFORMANCE: 10,
    T.REFACTOR: 40,
    T.REVERT: 10,
    T.BUILD: 60,
    T.CONFIG: 20,
    T.OTHER: 20,
    T.DEPRECATION: 10,
}
# Without the diff, a fix, refactor or build change is assumed routine.
_ROUTINE_WITHOUT_DIFF = frozenset({T.BUGFIX, T.BUILD, T.CONFIG, T.OTHER})
# A refactor whose title calls it a clean-up is a small internal one (low).
_CLEAN_UP = re.compile(
    r"\b(clean\s?ups?|cleanup|unused|dead code|helpers?|lint\w*|tidy|imports?|typing|type hints?"
    r"|renam\w+|modernize|simplif\w+)\b"
)
_TRIVIAL = re.compile(r"\b(typos?|nits?|minor|whitespace|spelling|wording|log message|comments?)\b")
_REMOVAL = re.compile(r"\b(remov\w+|drop\w*|delet\w+)\b")
_BREAKING_FOOTER = re.compile(r"^BREAKING[ -]CHANGE:\s*(.*)$", re.MULTILINE)
_BUILD_BROKEN = re.compile(
    r"\b(build (?:fails?|failures?|broken|errors?)|fails? to (?:build|compile|import)"
    r"|fix\w* (?:the )?build"
    r"|compil\w+ (?:errors?|failures?)|importerror|undefined symbol|duplicate symbol)\b",
    re.IGNORECASE,
)
_SECURITY_WORDS = re.compile(r"security|vulnerab|cve-|\w+ injection", re.IGNORECASE)
# The first word of a summary is capitalised only when it is a plain English verb, never an
# identifier (`sm100`, `cuDNN`, `vllm`).
_VERBS = frozenset(
    {
        "add",
        "adds",
        "added",
        "adapt",
        "align",
        "allow",
        "avoid",
        "bump",
        "change",
        "clean",
        "correct",
        "decouple",
        "deprecate",
        "disable",
        "drop",
        "enable",
        "ensure",
        "expose",
        "extend",
        "fix",
        "fixes",
        "handle",
        "implement",
        "improve",
        "initialize",
        "introduce",
        "make",
        "migrate",
        "move",
        "optimize",
        "pin",
        "prevent",
        "refactor",
        "reland",
        "remove",
        "rename",
        "replace",
        "restore",
        "revert",
        "run",
        "set",
        "simplify",
        "skip",
        "speed",
        "split",
        "standardize",
        "support",
        "switch",
        "unify",
        "update",
        "upgrade",
        "use",
    }
)


_PHRASES: dict[str, dict[str, str]] = {
    "en": {
        "no_message": "(no commit message)",
        "footer": "The message declares a breaking change: {text}",
        "bang": "The title marks this change as breaking (`{prefix}!`).",
        "label": "The pull request is labelled `{label}`.",
        "removed_exports": "Removes `{names}` from `{path}`; code that imports {them} fails.",
        "renamed": "Renames `{old}` to `{new}` in `{path}`; callers of `{old}` fail.",
        "env_removed": (
            "No longer reads the environment variable{s} {names}; setting {them} has no effect."
        ),
        "flags_removed": (
            "Removes the command-line flag{s} {names}; command lines that pass {them} fail."
        ),
        "keys_removed": (
            "Stops reading the configuration key{s} {names}; configurations"
            " that set {them} lose {its} effect."
        ),
        "default": "Changes the default of `{name}` from `{old}` to `{new}`.",
        "by_default": "Changes default behaviour: “{phrase}”.",
        "migrate": (
            "Check whether your code, configuration or launch commands use {what} before upgrading."
        ),
        "removal_title": (
            "The title names a removal: “{title}”; whoever relies on it must migrate before "
            "upgrading."
        ),
        "deprecation": "Adds a deprecation warning: “{text}”.",
        "deprecation_users": "Move off what “{text}” names before it is removed.",
        "severity": ("Fixes the symptom “{words}” with changes to {where}{impact}{fixes}."),
        "severity_users": "Pick up this fix if you run into “{words}” in `{area}`.",
        "no_tests": (
            "No test changed with this {lines}-line {kind} of {where}, so ask whether it needs "
            "a regression test."
        ),
        "security": "Decide whether the fix of {words} in {where} needs a release or an advisory.",
        "perf": "The description reports {number}.",
        "kernels": "Changes compiled kernels or operators: {paths}.",
        "new_modules": "Adds the module{s} {paths}.",
        "added_api": "Adds `{names}` to the public names of `{path}`.",
        "removed_symbols": "Removes `{names}` from `{path}`.",
        "experimental": "Only experimental or contrib code changes ({paths}).",
        "pins": "Requires {pins}.",
        "pins_developers": "Update development environments to {pins}.",
        "build_files": "Changes build or dependency files: {paths}.",
        "config_files": "Changes configuration files: {paths}.",
        "revert": "Reverts “{title}”; the behaviour before that change returns.",
        "reland": "Lands again a change that had been reverted: “{title}”.",
        "untested_large": "{lines} changed source lines in {files} files with no test change.",
        "fixes": " (fixes {issues})",
        "impact": ", affecting {impact}",
        "feature": "feature",
        "bugfix": "fix",
    },
    "zh-CN": {
        "no_message": "（无提交信息）",
        "footer": "提交信息声明了破坏性变更：{text}",
        "bang": "标题将此变更标记为破坏性变更（`{prefix}!`）。",
        "label": "该 PR 带有标签 `{label}`。",
        "removed_exports": "从 `{path}` 移除了 `{names}`；导入它们的代码将失败。",
        "renamed": "在 `{path}` 中将 `{old}` 重命名为 `{new}`；调用 `{old}` 的代码将失败。",
        "env_removed": "不再读取环境变量 {names}；设置它将不再生效。",
        "flags_removed": "移除了命令行参数 {names}；传入该参数的命令将失败。",
        "keys_removed": "不再读取配置项 {names}；设置了它的配置将失去作用。",
        "default": "将 `{name}` 的默认值从 `{old}` 改为 `{new}`。",
        "by_default": "改变了默认行为：“{phrase}”。",
        "migrate": "升级前请确认代码、配置或启动命令是否用到了 {what}。",
        "removal_title": "标题表明有功能被移除：“{title}”；依赖它的用户需在升级前完成迁移。",
        "deprecation": "新增弃用警告：“{text}”。",
        "deprecation_users": "在移除之前迁移出“{text}”所指的功能。",
        "severity": "修复了症状“{words}”，改动位于 {where}{impact}{fixes}。",
        "severity_users": "如果在 `{area}` 中遇到“{words}”，请尽快获取此修复。",
        "no_tests": "此 {lines} 行的{kind}（{where}）未修改任何测试，请确认是否需要补充回归测试。",
        "security": "请评估 {where} 中 {words} 的修复是否需要发布版本或安全公告。",
        "perf": "PR 描述给出的数据：{number}。",
        "kernels": "修改了编译的内核或算子：{paths}。",
        "new_modules": "新增模块 {paths}。",
        "added_api": "在 `{path}` 的公开名称中新增 `{names}`。",
        "removed_symbols": "从 `{path}` 移除了 `{names}`。",
        "experimental": "只修改了实验性或 contrib 代码（{paths}）。",
        "pins": "依赖要求：{pins}。",
        "pins_developers": "请将开发环境更新到 {pins}。",
        "build_files": "修改了构建或依赖文件：{paths}。",
        "config_files": "修改了配置文件：{paths}。",
        "revert": "回退了“{title}”，行为恢复到该变更之前。",
        "reland": "重新合入了此前被回退的变更：“{title}”。",
        "untested_large": "{files} 个文件中共 {lines} 行源码变更，但没有修改任何测试。",
        "fixes": "（修复 {issues}）",
        "impact": "，影响 {impact}",
        "feature": "功能变更",
        "bugfix": "修复",
    },
}


@dataclass(frozen=True)
class Assessment:
    """The rules' verdict on importance, with the fact that decided it (for `eval`)."""

    importance: Importance
    breaking: bool
    reason: str


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
        # `[MoE Refactor]`, `type: bug`: the type word at the end of a tag or label names it.
        mapped = (
            _TAG_TYPES.get(tag)
            or _TAG_TYPES.get(tag.removeprefix("type:").strip())
            or _TAG_TYPES.get(tag.rsplit(" ", 1)[-1])
        )
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


def _breaking_facts(commit: CommitInput, sig: Signals, words: dict[str, str]) -> list[str]:
    """Evidence that users must change something, each as a sentence naming it."""
    facts = []
    footer = _BREAKING_FOOTER.search(commit.message)
    if footer and footer.group(1).strip():
        facts.append(words["footer"].format(text=unmarkdown(footer.group(1).strip())))
    if sig.title.bang:
        prefix = sig.title.conventional or ""
        if sig.title.scope:
            prefix += f"({sig.title.scope})"
        facts.append(words["bang"].format(prefix=prefix))
    facts += [
        words["label"].format(label=label) for label in sig.labels if "breaking" in label.lower()
    ]
    by_path: dict[str, list[str]] = {}
    for sym in sig.removed_exports:
        by_path.setdefault(sym.path, []).append(sym.name)
    for path, names in by_path.items():
        them = "it" if len(names) == 1 else "them"
        facts.append(
            words["removed_exports"].format(names="`, `".join(names[:4]), path=path, them=them)
        )
    for pair in sig.renamed_symbols:
        old, new = pair.old, pair.new
        if old.path.endswith("__init__.py") or sig.file_kinds.get(old.path) is PathKind.PUBLIC_API:
            facts.append(words["renamed"].format(old=old.name, new=new.name, path=old.path))
    if sig.env_removed:
        facts.append(
            words["env_removed"].format(
                names=_codes(sig.env_removed), s=_s(sig.env_removed), **_them(sig.env_removed)
            )
        )
    if sig.flags_removed:
        facts.append(
            words["flags_removed"].format(
                names=_codes(sig.flags_removed), s=_s(sig.flags_removed), **_them(sig.flags_removed)
            )
        )
    if sig.config_keys_removed:
        keys = sig.config_keys_removed
        facts.append(words["keys_removed"].format(names=_codes(keys), s=_s(keys), **_them(keys)))
    for change in sig.defaults_changed:
        facts.append(words["default"].format(name=change.name, old=change.old, new=change.new))
    return facts


def _codes(names: tuple[str, ...] | list[str], limit: int = 4) -> str:
    shown = ", ".join(f"`{n}`" for n in names[:limit])
    return shown + (f" and {len(names) - limit} more" if len(names) > limit else "")


def assess(commit: CommitInput, sig: Signals | None = None) -> Assessment:
    """Importance from what the change does and whom it affects; size only breaks ties."""
    sig = sig or read_signals(commit)
    types, _ = _types(commit, sig.title, sig.line_kinds)
    return _assess(commit, sig, types, bool(_breaking_facts(commit, sig, _PHRASES["en"])))


def _assess(
    commit: CommitInput, sig: Signals, types: list[ChangeType], breaking: bool
) -> Assessment:
    primary = types[0]
    text = sig.title.text.lower()
    narrowed = sig.narrowed_by or (sig.experimental and "experimental paths")
    known = commit.files_known and bool(commit.files)

    fix = primary is T.BUGFIX or T.BUGFIX in types or T.REVERT in types
    # A security fix matters wherever it lands: a CI workflow that holds secrets is an attack
    # surface too.
    security_words = [w for w in sig.severity if _SECURITY_WORDS.match(w)]
    if (
        T.SECURITY in types
        or any(_SECURITY_WORDS.match(w) for w in sig.severity_title)
        or (fix and security_words)
    ):
        return Assessment(I.HIGH, False, "security")
    # Where it lands: a docs-, tests- or CI-only change reaches no user's running code.
    # (Build definitions users install from, a Dockerfile or a requirement, reach them too.)
    shipped_lines = sig.source_lines + sig.line_kinds[PathKind.BUILD]
    if sig.only is not None or (primary in _QUIET_TYPES and not shipped_lines):
        return Assessment(I.LOW, False, f"only {(sig.only or primary).value} change")
    if breaking:
        level = I.MEDIUM if sig.experimental else I.HIGH
        return Assessment(level, True, "breaking evidence")
    if T.REVERT in types and sig.reverted_title:
        # The reverted change goes away; unless the diff shows users must adapt, that is of
        # limited reach (often it had landed only days before).
        return Assessment(I.MEDIUM, False, "reverts a change")
    if T.DEPRECATION in types and _REMOVAL.search(text):
        # A removed feature: its users must move off it.
        return Assessment(I.MEDIUM if narrowed else I.HIGH, not narrowed, "feature removed")
    if sig.by_default:
        return Assessment(I.MEDIUM if narrowed else I.HIGH, False, "default changes")

    severe = sig.severity_title or (fix and sig.severity_body)
    if severe and primary is not T.REVERT:
        # High needs reach: an impact statement, or a description of a symptom not confined
        # to one platform or variant. A title alone does not show how common the path is.
        if sig.impact or (not narrowed and sig.description):
            return Assessment(I.HIGH, False, f"severe symptom: {', '.join(sig.severity)}")
        return Assessment(I.MEDIUM, False, f"severe symptom, reach not shown ({narrowed})")
    if T.PERFORMANCE in types and sig.perf_number and not narrowed and sig.source_lines:
        return Assessment(I.HIGH, False, f"performance backed by numbers: {sig.perf_number}")
    if (
        primary is T.FEATURE
        and sig.capability
        and not narrowed
        and (not known or sig.new_modules or sig.added_exports)
    ):
        return Assessment(I.HIGH, False, f"new capability: {sig.capability}")

    # Meaningful but of limited reach, unless it is a tiny tweak.
    if _TRIVIAL.search(text):
        return Assessment(I.LOW, False, "trivial by its title")
    if sig.fixes and fix:
        return Assessment(I.MEDIUM, False, "fixes a reported issue")
    if _BUILD_BROKEN.search(f"{text}\n{' '.join(sig.description)}"):
        return Assessment(I.MEDIUM, False, "build fix")
    if sig.removed_symbols or sig.deprecations:
        return Assessment(I.MEDIUM, False, "removes or deprecates public names")
    if known and primary is T.BUGFIX and sig.source_lines:
        # A fix of shipped code is of limited reach, not a tweak, however few lines it takes.
        return Assessment(I.MEDIUM, False, "bugfix of limited reach")
    if known:
        tiny = _TINY.get(primary, 15)
        if shipped_lines < tiny:
            return Assessment(I.LOW, False, f"tiny: {shipped_lines} source and build lines")
        return Assessment(I.MEDIUM, False, f"{primary.value} of limited reach")
    if sig.series:
        return Assessment(I.MEDIUM, False, "part of a series of pull requests (no diff)")
    if primary in _ROUTINE_WITHOUT_DIFF or (primary is T.REFACTOR and _CLEAN_UP.search(text)):
        return Assessment(I.LOW, False, f"routine {primary.value} (no diff)")
    return Assessment(I.MEDIUM, False, f"{primary.value} (no diff)")


def _capitalised(text: str) -> str:
    first, _, rest = text.partition(" ")
    if first in _VERBS:
        return first[0].upper() + first[1:] + (f" {rest}" if rest else "")
    return text


def _summary(commit: CommitInput, sig: Signals, importance: Importance, no_message: str) -> str:
    title = sig.title
    head = unmarkdown(title.text.rstrip(". ")) or unmarkdown(commit.title) or no_message
    one_line = _one_line(_capitalised(head))
    if importance is Importance.LOW:
        return one_line
    # The author's description, template removed; the title is already the section heading.
    paragraph = fitting_paragraph(sig.description, 560)
    if not paragraph or paragraph.lower().startswith(head.lower()[:40]):
        return one_line
    return fit_sentences(paragraph, 600)


def _one_line(text: str) -> str:
    if len(text) <= ONE_LINE_MAX:
        return text
    cut = text[: ONE_LINE_MAX - 1].rsplit(" ", 1)[0]
    return cut + "…"


def _paths(names: list[str] | tuple[str, ...], limit: int = 3) -> str:
    shown = ", ".join(f"`{n}`" for n in names[:limit])
    return shown + (f" and {len(names) - limit} more" if len(names) > limit else "")


def _counted_paths(commit: CommitInput, paths: list[str], limit: int = 3) -> str:
    """`a.py` (+12 −3), …: the paths with their changed lines."""
    changes = {f.filename: f for f in commit.files}
    shown = [f"`{p}` (+{changes[p].additions} −{changes[p].deletions})" for p in paths[:limit]]
    rest = f" and {len(paths) - limit} more" if len(paths) > limit else ""
    return ", ".join(shown) + rest


def _pins(sig: Signals) -> list[str]:
    """Requirements the commit sets: `torch==2.5.1`."""
    return list(dict.fromkeys(f"`{r.package}{r.spec}`" for r in sig.facts.requirements))


def _area(sig: Signals) -> str:
    """The module most of the changed source lives in."""
    areas = Counter(area_of(path) for path in sig.source_files)
    return areas.most_common(1)[0][0] if areas else sig.title.text


def _where(sig: Signals) -> str:
    """The changed source files (or, when none ships, the changed files)."""
    return _paths(sig.source_files or tuple(sig.file_kinds), 2) or f"“{sig.title.text}”"


def _s(names: tuple[str, ...] | list[str]) -> str:
    """The English plural ending for a list of names."""
    return "s" if len(names) > 1 else ""


def _them(names: tuple[str, ...] | list[str]) -> dict[str, str]:
    """The English pronouns for a list of names: `it`/`its`, or `them`/`their`."""
    return {"them": "them", "its": "their"} if len(names) > 1 else {"them": "it", "its": "its"}


def analyze(commit: CommitInput, *, language: str = "en") -> Analysis:
    """The rules' analysis of one commit."""
    words = _PHRASES.get(language, _PHRASES["en"])
    sig = read_signals(commit)
    title = sig.title
    path_kinds = sig.line_kinds
    types, confidence = _types(commit, title, path_kinds)
    breaking_facts = _breaking_facts(commit, sig, words)
    verdict = _assess(commit, sig, types, bool(breaking_facts))
    importance = verdict.importance
    if verdict.breaking and not breaking_facts:
        # A removed feature (deprecation tag and a removal title) is the fact itself.
        breaking_facts = [words["removal_title"].format(title=title.text)]

    insights: dict[str, list[str]] = {}
    risks: list[Risk] = []
    recs: list[Recommendation] = []

    def note(theme: str, text: str) -> None:
        insights.setdefault(theme, []).append(text)

    if importance is not Importance.LOW:
        if verdict.breaking:
            for fact in breaking_facts[:3]:
                risks.append(Risk(description=fact))
            named = [*sig.env_removed, *sig.flags_removed, *sig.config_keys_removed]
            named += [s.name for s in sig.removed_exports]
            named += [c.name for c in sig.defaults_changed]
            if named:
                recs.append(
                    Recommendation(
                        audience=Audience.USERS,
                        text=words["migrate"].format(what=_codes(named, 3)),
                    )
                )
        for text in sig.deprecations[:1]:
            note("compatibility", words["deprecation"].format(text=text))
            recs.append(
                Recommendation(
                    audience=Audience.USERS, text=words["deprecation_users"].format(text=text)
                )
            )
        if sig.by_default:
            phrase = re.search(r"[^,;]*by default", title.text, re.IGNORECASE)
            note(
                "compatibility",
                words["by_default"].format(
                    phrase=(phrase.group(0) if phrase else title.text).strip()
                ),
            )
        severity = sig.severity
        # The symptoms a revert's message names belong to the change it reverts.
        if severity and T.BUGFIX in types and T.REVERT not in types:
            shown = ", ".join(severity[:3])
            fixes = (
                words["fixes"].format(issues=", ".join(f"#{n}" for n in sig.fixes[:3]))
                if sig.fixes
                else ""
            )
            impact_text = words["impact"].format(impact=sig.impact) if sig.impact else ""
            security = any(_SECURITY_WORDS.match(w) for w in severity)
            note(
                "security" if security else "compatibility",
                words["severity"].format(
                    words=shown, where=_where(sig), impact=impact_text, fixes=fixes
                ),
            )
            if security:
                recs.append(
                    Recommendation(
                        audience=Audience.MAINTAINERS,
                        text=words["security"].format(words=shown, where=_where(sig)),
                    )
                )
            elif importance is Importance.HIGH:
                recs.append(
                    Recommendation(
                        audience=Audience.USERS,
                        text=words["severity_users"].format(words=shown, area=_area(sig)),
                    )
                )
        if sig.perf_number and T.PERFORMANCE in types:
            note("performance", words["perf"].format(number=sig.perf_number))
        kernel_paths = sig.paths_of(PathKind.KERNEL)
        if kernel_paths:
            note("performance", words["kernels"].format(paths=_counted_paths(commit, kernel_paths)))
        if sig.new_modules and T.FEATURE in types:
            note(
                "architecture",
                words["new_modules"].format(
                    paths=_paths(sig.new_modules), s="s" if len(sig.new_modules) > 1 else ""
                ),
            )
        if sig.added_exports:
            path = sig.added_exports[0].path
            names = [s.name for s in sig.added_exports if s.path == path]
            note("architecture", words["added_api"].format(names="`, `".join(names[:4]), path=path))
        if sig.removed_symbols and not verdict.breaking:
            path = sig.removed_symbols[0].path
            names = [s.name for s in sig.removed_symbols if s.path == path]
            note(
                "architecture",
                words["removed_symbols"].format(names="`, `".join(names[:4]), path=path),
            )
        if sig.experimental:
            note("architecture", words["experimental"].format(paths=_paths(sig.experimental)))
        pins = _pins(sig)
        if pins:
            note("compatibility", words["pins"].format(pins=", ".join(pins[:4])))
            recs.append(
                Recommendation(
                    audience=Audience.DEVELOPERS,
                    text=words["pins_developers"].format(pins=", ".join(pins[:4])),
                )
            )
        elif path_kinds[PathKind.BUILD]:
            note(
                "compatibility",
                words["build_files"].format(
                    paths=_counted_paths(commit, sig.paths_of(PathKind.BUILD))
                ),
            )
        config_paths = sig.paths_of(PathKind.CONFIG)
        if config_paths and not sig.defaults_changed and not sig.config_keys_removed:
            note(
                "compatibility",
                words["config_files"].format(paths=_counted_paths(commit, config_paths)),
            )
        if T.REVERT in types and sig.reverted_title:
            note("compatibility", words["revert"].format(title=sig.reverted_title))
        if sig.reland:
            note("compatibility", words["reland"].format(title=title.text))
        if commit.files_known and sig.source_files and not sig.test_files:
            if types[0] in (T.BUGFIX, T.FEATURE):
                kind = words["bugfix" if types[0] is T.BUGFIX else "feature"]
                recs.append(
                    Recommendation(
                        audience=Audience.MAINTAINERS,
                        text=words["no_tests"].format(
                            kind=kind, where=_where(sig), lines=sig.source_lines
                        ),
                    )
                )
            elif sig.source_lines >= 1000:
                risks.append(
                    Risk(
                        description=words["untested_large"].format(
                            lines=f"{sig.source_lines:,}", files=len(sig.source_files)
                        )
                    )
                )

    no_message = words["no_message"]
    return Analysis(
        change_types=types,
        importance=importance,
        breaking=verdict.breaking,
        summary=_summary(commit, sig, importance, no_message),
        impact=impact(commit.files),
        insights=(
            Insights(**{k: fit_sentences(" ".join(v), 600) for k, v in insights.items()})
            if insights
            else None
        ),
        risks=risks[:5],
        recommendations=recs[:5],
        confidence=confidence,
        analyzer="rules",
    )
