"""The rules analyser: the default, deterministic, no network.

Importance follows the rubric in `bot/analysis/rubric.py`: what the change does and whom it
affects (breaking evidence, severe symptoms, new capabilities, numbers), read by
`bot/analysis/signals.py`; size only breaks ties between medium and low. Every insight, risk
and recommendation it writes names the fact it rests on; where it knows nothing specific it
writes nothing. Templated text comes in the repository's language.
"""

from __future__ import annotations

import ast
import copy
import re
from collections import Counter
from dataclasses import dataclass, replace

from bot.analysis.advisory import advisory_merge, guards_input, repeat_unnested
from bot.analysis.facts import ConstantRenamed, Facts
from bot.analysis.facts.build import package_name, runtime_requirements, still_admits
from bot.analysis.facts.erasure import reads_checker_only
from bot.analysis.facts.layout import same_code
from bot.analysis.facts.packaging import TYPE_MARKER
from bot.analysis.facts.parses import Parses
from bot.analysis.internal import internal_only, internal_sentence
from bot.analysis.messages import (
    BREAKING_FOOTER,
    adds_release,
    changelog_entry,
    entry_break_words,
    marked_breaking,
    message_marked_breaking,
    title_marked_breaking,
)
from bot.analysis.paths import (
    PathKind,
    dev_tooling,
    impact,
    path_kind,
    private_module,
    testing_helper,
)
from bot.analysis.phrases import AnalysisPhrases, analysis_phrases, excerpt, sentence
from bot.analysis.raising import raise_news, title_only_said
from bot.analysis.security import (
    READS_INPUT,
    names_blowup,
    names_hole,
    says_fixing,
    told_in_code,
)
from bot.analysis.shield import noted, shield
from bot.analysis.signals import (
    ADVISORY_WORD,
    SECURITY_WORDS,
    SILENT_WORDS,
    Signals,
    read_signals,
)
from bot.analysis.spans import code
from bot.analysis.titles import (
    ParsedTitle,
    keeps_records,
    merged_branch,
    merged_branch_words,
    merged_message,
)
from bot.analysis.unreleased import released
from bot.analysis.unshipped import shipped_build_line, unshipped_only
from bot.analysis.wording import (
    behaviour_kept,
    breaking_risks,
    changed_names,
    code_changed,
    defect_risks,
    developers_extras_lost,
    kept_sentence,
    python_floor_raised,
    repeats,
    same_shipped_code,
    settings_released,
    write,
)
from bot.models import (
    ONE_LINE_MAX,
    Analysis,
    ChangeType,
    CommitInput,
    FileChange,
    Importance,
    Insights,
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
# What a news fragment's type (`CHANGES/1632.bugfix.rst`) says the change is.
_FRAGMENT_TYPES: dict[str, ChangeType] = {
    "bugfix": T.BUGFIX,
    "deprecation": T.DEPRECATION,
    "doc": T.DOCS,
    "security": T.SECURITY,
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
    (
        T.SECURITY,
        re.compile(
            # a flaw named, not the word "security" ("security docs", "security words")
            r"\b(cve-\d+|security (?:fix(?:es)?|issues?|bugs?|flaws?|holes?|patch(?:es)?)"
            r"|vulnerab\w*|xss|csrf|exploit\w*)\b"
        ),
    ),
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
            r"|broken|hang(s|ing)?|race|mismatch"
            # an error, not the code that names or reports one ("three error classes")
            r"|error(?! (class(es)?|messages?|handling|types?|codes?|reporting|hierarch\w*)\b))\b"
        ),
    ),
    # A change that now refuses what the old code took ("reject overlong decimal integer
    # instead of coercing to inf", "raise on malformed array element instead of dropping
    # it"): a fix of what it accepted ("raise minimum pytest version" raises no error)
    (
        T.BUGFIX,
        re.compile(
            r"^(?:reject|refus|disallow|forbid)\w*\b"
            r"|^raises? (?:on|when|if|for|an? \w*(?:error|exception)|\w*(?:error|exception))\b"
            r"|^(?:raise|error|fail)\w*\b.*\binstead of\b"
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
    # Not "default": a changed default is a change of behaviour, not a configuration edit.
    (T.CONFIG, re.compile(r"\b(config\w*|settings?|env(ironment)?\s+var\w*)\b")),
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
_PROSE = r"(?:docs?|documentation|docstrings?|typos?|changelog|comments?|spelling|grammar|readme)"
# code that works on words: "fix docstring parsing" is a fix of code
_WORKS_ON = (
    r"(?!\s+(?:pars|render|handl|extract|generat|process|format|detect|match|lookup|load"
    r"|read|check|link)\w*)"
)
_WORDS_FIXED = re.compile(
    rf"\b{_PROSE}(?:\s+(?:and|&)\s+{_PROSE})?\s+fix(?:es|ed)?\b"
    # ("fix comment parsing" is code: a comment is fixed only before the word)
    rf"|\bfix(?:es|ed|ing)?\s+(?:(?:a|the|some|more)\s+)?{_PROSE.replace('|comments?', '')}\b"
    + _WORKS_ON
)
# Linters', formatters' and type checkers' names: what they flag is spelling, never a bug
_CHECKERS = (
    r"(?:lint\w*|ruff|flake8|pylint|pyupgrade|isort|pre-commit|mypy|pyright|pyrefly|pytype"
    r"|typing|type[- ]check\w*|noqa|code style)"
)
_COMPLAINTS = r"(?:errors?|issues?|warnings?|violations?|complaints?|failures?)\b"
# A title naming a checker (not "typing": annotations users' checkers read are news), and
# the types a rewrite under it may have where the facts prove nothing more
_CHECKER_TITLE = re.compile(rf"\b{_CHECKERS.replace('|typing', '')}")
_CHECKED_TYPES = frozenset({T.REFACTOR, T.OTHER, T.TESTS, T.CI})
# A linter's automatic rewrite (tenacity c4bada4 "enable ruff I, UP, B rules and auto-fix
# codebase", `ruff check --fix`): what the linter flagged is rewritten, no bug is named
# A checker's complaints fixed, not a bug (lark 77b7f49 "Minir linting fixes", 719c5ba
# "Fixes for mypy", natsort 607b35d "Fix mypy errors", e4f8cd2 "Fixed locale string mypy
# issue"; "fix violations" of a rule set), unless the facts show what runs changed
_CHECKER_FIXED = re.compile(
    rf"\b{_CHECKERS}\s+fix(?:es|ed)?\b"
    rf"|\bfix(?:es|ed|ing)?\s+(?:\S+\s+){{0,3}}?{_CHECKERS}\s+{_COMPLAINTS}"
    rf"|\bfix(?:es|ed|ing)?\s+(?:(?:for|of|the|some|all|new|remaining)\s+)*{_CHECKERS}\b"
    r"|\bfix(?:es|ed|ing)?\s+(?:\S+\s+){0,2}?violations\b"
)
_LINTER_FIXED = re.compile(rf"\bauto-?fix(?:es|ed|ing)?\b|--fix\b|{_CHECKER_FIXED.pattern}")
# A name of code in a title (`split_keys()`, `load_file`, a quoted name): what the change
# is to, never a word that types it ("Add split_keys()" splits nothing)
_CODE_NAME = re.compile(r"`[^`]*`|\b\w+\(\)|\b\w*_\w*\b")
_PATH_TYPES = {
    PathKind.DOCS: T.DOCS,
    PathKind.TESTS: T.TESTS,
    PathKind.CI: T.CI,
    PathKind.BUILD: T.BUILD,
    PathKind.CONFIG: T.CONFIG,
    PathKind.LEGAL: T.DOCS,
}
_QUIET_TYPES = frozenset({T.DOCS, T.TESTS, T.CI})
_SHIPPED_KINDS = (PathKind.SOURCE, PathKind.KERNEL, PathKind.PUBLIC_API)
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
_COMMENT = re.compile(r"\bcomments?\b")
_REMOVAL = re.compile(r"\b(remov\w+|drop\w*|delet\w+)\b")
# The author's own words that support for something ends: a version, a platform, a
# compatibility path. No diff can prove that, so the words count.
_SUPPORT_DROPPED = re.compile(
    r"\b(?:drop(?:s|ped|ping)?|remov\w+|end\w*)\b.{0,40}?\b(?:support|compat\w*"
    r"|v?\d+\.\d+(?:\.\d+)?)\b"
)
# A title's words that name Python itself (not a dependency's versions)
_PYTHON_NAMED = re.compile(r"\b(?:c?python|pypy|py[23]\d*)\b")
# Dropping a floor, a pin or a restriction widens support: nobody must move.
_LIMIT_DROPPED = re.compile(
    r"\b(?:drop\w*|remov\w+|lift\w*|relax\w*)\b.{0,30}?\b(?:floor|minimum|min\b|pin|cap"
    r"|upper bound|lower bound|restriction|requirement|constraint|limit)"
)
# Where a measured speed-up is no hot path: building, compiling, CI and test runs.
_COLD_PATH = re.compile(
    r"\b(?:compil\w+|build|ci|tests?|import) (?:times?|speed|overhead)\b|\bcompil\w+ faster\b"
)
# A fix whose object is a test: the symptoms its description names are the test's.
_TEST_FIX = re.compile(
    r"\b(?:tests?|ut|unit ?tests?|e2e)\b.{0,20}?\b(?:pass\w*|fail\w*|flak\w*)\b"
    r"|\bflak\w+|\bfix\w* (?:the |a )?(?:[\w.-]+ ){0,3}tests?\b"
)
# The author calling the change breaking, in the title or the description.
_SAYS_BREAKING = re.compile(r"\bbreaking[ -]changes?\b|\bbreaks? (?:the )?(?:public )?api\b", re.I)
# A performance change is high only from this size up (percent gain; 1.2x is 20).
_LARGE_GAIN = 20.0
_BUILD_BROKEN = re.compile(
    r"\b(build (?:fails?|failures?|broken|errors?)|fails? to (?:build|compile|import)"
    r"|fix\w* (?:the )?build"
    r"|compil\w+ (?:errors?|failures?)|importerror|undefined symbol|duplicate symbol)\b",
    re.IGNORECASE,
)
# The most changed lines of source a docs or typing title's commit is parsed whole for.
_WORDS_EDIT_LINES = 300
_TYPING_TITLE = re.compile(
    r"\b(type (hints?|annotations?|stubs?)|typing|annotat\w*|mypy|pyright|pyrefly|pytype|ty"
    r"|type[- ]check\w*)\b"
)
# A title that names a linter, a formatter, a type checker or a clean-up of their kind
# (natsort d16790e "Add pyupgrade checks", lark 77b7f49 "Minir linting fixes", python-tabulate
# f1a64ec "Apply ruff/isort rule I001"): its change is proven the same code (`_kept`) before
# it is read as one
_RESTYLED_TITLE = re.compile(
    r"\b(?:lint\w*|ruff|flake8|pylint|pyupgrade|isort|black|yapf|autopep8|pre-commit"
    r"|format(?:ting|ted|ter)?|reformat\w*|code style|style|noqa|typos?|codespell"
    r"|moderni[sz]\w*|tidy|python\s?2|py2|unused|simplif\w+|sort(?:ed)?\s+`?__all__`?)\b"
)
KEPT_REASON = "no behaviour change: the same code at both revisions"
# Types the same code cannot be: what users would meet anew
_KEPT_UNSAID = frozenset({T.REFACTOR, T.BUGFIX, T.FEATURE, T.PERFORMANCE, T.OTHER})


def _runs_otherwise(commit: CommitInput, sig: Signals) -> bool:
    """Under a checker's title, what runs is shown to change: a function returns, raises or
    is called otherwise (`_behaviour_changed`, rewrites in place aside), or a shipped Python
    file no longer compiles (lark-like `return` moved out of its function, flash-attention
    766ed201) or runs code reading a name bound only for the type checker
    (`erasure.reads_checker_only`); unknown texts read as none."""
    if _behaviour_changed(commit, sig, in_place=False):
        return True
    for f in commit.files:
        if f.filename not in sig.source_files or f.sides is None or not f.filename.endswith(".py"):
            continue
        before, after = f.sides
        try:
            tree = ast.parse(after)
        except (SyntaxError, ValueError, RecursionError):
            continue
        if reads_checker_only(tree):
            return True
        try:
            compile(before, f.filename, "exec", dont_inherit=True)
        except (SyntaxError, ValueError, RecursionError):
            continue  # (broken before: not this change's doing)
        try:
            compile(after, f.filename, "exec", dont_inherit=True)
        except (SyntaxError, ValueError, RecursionError):
            return True
    return False


def _reaches_users(f: FileChange, sig: Signals) -> bool:
    """A shipped file (source or build) that is no dev tool's (`paths.dev_tooling`)."""
    shipped = f.filename in sig.source_files or path_kind(f.filename) is PathKind.BUILD
    return shipped and not dev_tooling(f)


def _kept(commit: CommitInput, sig: Signals, *, said_breaking: bool) -> frozenset[str] | None:
    """What the shipped code differs by (`wording.behaviour_kept`) where the title names a
    linter, formatter or type checker (`_RESTYLED_TITLE`, `_TYPING_TITLE`), no build file
    but the dev tools' changes, the author calls nothing breaking and tells users nothing;
    None otherwise."""
    text = sig.title.text.lower()
    if (
        not sig.source_files
        or said_breaking
        or not (_RESTYLED_TITLE.search(text) or _TYPING_TITLE.search(text))
        or _tells_users(commit, sig)
    ):
        return None
    return behaviour_kept(commit, sig)


# The author's words that a release is broken: a fix of it matters, whatever files it touches.
_RELEASE_BROKEN = re.compile(
    r"\b(?:broken|fail\w*|fix\w*)\b.{0,30}?\b(?:release|publish\w*|upload\w*)\b"
    r"|\b(?:release|publish\w*)\b.{0,30}?\b(?:broken|fail\w*)\b"
)
_QUIET_KINDS = frozenset({PathKind.DOCS, PathKind.TESTS, PathKind.CI, PathKind.LEGAL})


def _code_lines(commit: CommitInput, sig: Signals) -> int:
    """The changed lines of shipped files that are not the project's dev tooling."""
    return sum(
        f.changes
        for f in commit.files
        if f.filename in sig.source_files
        and f.filename not in sig.layout_only
        and not dev_tooling(f)
    )


def _tooling_only(commit: CommitInput, sig: Signals) -> bool:
    """Every file is the project's dev tooling (`paths.dev_tooling`), CI, docs, tests or code
    that is the same at both revisions (layout, docstrings), and one at least is tooling; no
    CI line touches the wheels or sdists a release builds."""
    tooling = [f for f in commit.files if dev_tooling(f)]
    if not tooling:
        return False
    code = []
    for f in commit.files:
        kind = path_kind(f.filename)
        if f in tooling or kind is PathKind.CI:
            if kind is PathKind.CI and shipped_build_line(f, sig.parses):
                return False
        elif kind not in _QUIET_KINDS and f.filename not in sig.layout_only:
            code.append(f)
    # last, as it parses both revisions again: a formatter's new wrapping, `assert (x), m` →
    # `assert x, (m)`, is the same tree
    return all(same_code(f) for f in code)


# Verbs of a change that closes a hole: "[Security] Sanitize chat template inputs", "harden
# tarfile extraction against path traversal", "prevent open redirects".
_GUARDING = re.compile(
    r"\b(?:fix\w*|prevent\w*|patch\w*|clos(?:e|es|ed|ing)|address\w*|mitigat\w*|resolv\w*"
    r"|avoid\w*|block\w*|harden\w*|guard\w*|protect\w*|sanitiz\w*|escap\w*|reject\w*"
    r"|disallow\w*|forbid\w*|deny|denies|denied|restrict\w*|validat\w*|verif\w*|limit\w*"
    r"|bump\w*|upgrad\w*|against)\b",
    re.IGNORECASE,
)
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


@dataclass(frozen=True)
class Assessment:
    """The rules' verdict on importance, with the fact that decided it (for `eval`)."""

    importance: Importance
    breaking: bool
    reason: str


def _types(
    commit: CommitInput,
    title: ParsedTitle,
    path_kinds: Counter[PathKind],
    fragments: tuple[str, ...] = (),
) -> tuple[list[ChangeType], float]:
    """Change types, primary first, and how sure the rules are. `fragments`: what the types
    of the news fragments the commit adds say ("bugfix", "breaking", …)."""
    found: list[ChangeType] = []
    confidence = 0.35
    if title.revert:
        found.append(T.REVERT)
    if title.conventional == "security" and not says_fixing(title.text, _GUARDING):
        # `security:` as the area a change is to ("security: a fix whose author's words name
        # the hole …", a rule of the tool that detects them), not what it does: no type of its own
        pass
    elif title.conventional:
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
    # A news fragment's type is the author's tag: a fix, a deprecation, docs. A feature is
    # said after the title's types, never first (a capability is the title's to name).
    for meaning in fragments:
        if meaning in _FRAGMENT_TYPES:
            found.append(_FRAGMENT_TYPES[meaning])
            confidence = max(confidence, 0.6)
    # "changelog and doc fixes", "fix typos": an edit of words, not a bug fix
    text = _LINTER_FIXED.sub("lint", _WORDS_FIXED.sub("docs", title.text.lower()))
    text = _CODE_NAME.sub(" ", text)
    keyword_types = [kind for kind, pattern in _KEYWORDS if _keyword_said(kind, pattern, text)]
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
    # What the change touches says what it is: mostly tests and no shipped code is a test
    # change, whatever its title fixes.
    shipped = sum(path_kinds[k] for k in _SHIPPED_KINDS)
    if total and not shipped and path_kinds[PathKind.TESTS] * 2 >= total:
        found.insert(0, T.TESTS)
    if "feature" in fragments:
        found.append(T.FEATURE)
    unique = list(dict.fromkeys(found)) or [T.OTHER]
    return unique[:4], confidence


# What follows a security keyword where it is a statement's subject, not what the change does
# ("security fixes high", "security fixes are typed first"): a rule about such changes
_PREDICATE = re.compile(
    r"\s*(?:is|are|was|were|gets?|stays?|becomes?|rated|typed|high|medium|low)\b", re.IGNORECASE
)


def _keyword_said(kind: ChangeType, pattern: re.Pattern[str], text: str) -> bool:
    """Whether the title's keyword of `kind` says what the change is: a security fix said as
    the subject of a rule about such fixes ("security fixes high, release tooling low") is
    none."""
    if kind is not T.SECURITY:
        return pattern.search(text) is not None
    return any(not _PREDICATE.match(text, m.end()) for m in pattern.finditer(text))


def _with_options(types: list[ChangeType], sig: Signals) -> list[ChangeType]:
    """A new command-line option of a shipped program is a feature: first where only a
    title's word typed the change docs or nothing ("Dash doc set play url"), else beside the
    author's type."""
    if T.FEATURE in types or not any(f.path in sig.source_files for f in sig.facts.flags_added):
        return types
    # a `docs:` prefix or a `[Doc]` tag is the author's type: it stays first
    said = sig.title.conventional or sig.title.tags
    if types[0] in (T.DOCS, T.OTHER) and not said:
        return [T.FEATURE, *types[1:]][:4]
    return [*types, T.FEATURE][:4]


# A title's words that say its change is to docs; "comment" may name what the code handles
_DOCS_SAID = re.compile(r"\b(?:docs?|documentation|readme|typos?|docstrings?)\b", re.IGNORECASE)


def _docs_by_word(types: list[ChangeType], commit: CommitInput, sig: Signals) -> list[ChangeType]:
    """`types` without docs where only the title's "comment" typed it so ("Pair comment
    delimiters …") and the change rewrites shipped code: the word names what the code handles
    (a SQL comment, a parser's), not what the change is."""
    labels = commit.pull_request.labels if commit.pull_request else []
    said = sig.title.conventional or sig.title.tags or labels or sig.fragments
    if (
        T.DOCS not in types
        or said
        or sig.only is PathKind.DOCS
        or _DOCS_SAID.search(sig.title.text)
        or not _code_lines(commit, sig)
    ):
        return types
    # (a comment edited alone is layout: `_code_lines` counts none of it)
    return [t for t in types if t is not T.DOCS] or [T.OTHER]


def _tooling_typed(types: list[ChangeType], commit: CommitInput, sig: Signals) -> list[ChangeType]:
    """`types` without what a title's word alone calls a feature or a speed-up where the
    files are the dev tools' (`_tooling_only`): no user meets one there; nor docs where no
    page and no code (its docstrings) changes (bidict 1cc6b12 "Remove stale devcontainer
    support", cf817df "Drop redundant uv dev dependency", 0dddbf3's `typos` hook). The
    author's own type (a conventional prefix, a tag, a label, a fragment) stays."""
    labels = commit.pull_request.labels if commit.pull_request else []
    said = sig.title.conventional or sig.title.tags or labels or sig.fragments
    if said or not commit.files_known or not commit.files:
        return types
    kinds = {path_kind(f.filename) for f in commit.files}
    dropped: set[ChangeType] = set()
    if not kinds & {PathKind.DOCS, PathKind.LEGAL, *_SHIPPED_KINDS}:
        # no page, no docstring: a title's "typos" names the spell checker it sets up
        dropped.add(T.DOCS)
    if _tooling_only(commit, sig):
        dropped |= {T.FEATURE, T.PERFORMANCE}
    if not dropped & set(types):
        return types
    kept = [t for t in types if t not in dropped]
    if kept:
        return kept
    build = any(path_kind(f.filename) is PathKind.BUILD for f in commit.files)
    return [T.BUILD if build else T.OTHER]


def _annotations_typed(
    types: list[ChangeType], commit: CommitInput, sig: Signals
) -> list[ChangeType]:
    """`types` without what a title's word alone calls a feature or a speed-up where the
    shipped code changes only annotations (`Signals.typing_only`): users run what they ran
    (backoff b976219 "Update decorators … parameters (add iterable of callable)": the
    handlers' hints widened, the code that accepted an iterable already the same). The
    author's own type (a conventional prefix, a tag, a label, a fragment) stays."""
    labels = commit.pull_request.labels if commit.pull_request else []
    said = sig.title.conventional or sig.title.tags or labels or sig.fragments
    dropped = {T.FEATURE, T.PERFORMANCE}
    if said or sig.typing_only is None or not dropped & set(types):
        return types
    return [t for t in types if t not in dropped] or [T.REFACTOR]


# The names of a project's trunk: its merge into a branch lands nothing of its own
_TRUNKS = frozenset(("main", "master", "trunk", "develop"))


def _merge_typed(types: list[ChangeType], message: str, sig: Signals) -> list[ChangeType]:
    """A merge no word of its pull request typed, typed by what it lands: its branch's first
    word (`bug/273-readonly-attribute`, `feature/generics`), then its facts: a public name
    new to shipped code is a feature, shipped code edited with a test added is a fix of
    what the test pins (dacite 71c365a), and so is a guard narrowed before the code it kept
    from running (`_build_value_for_union`, dacite 4a7c517)."""
    if types != [T.OTHER]:
        return types
    found: list[ChangeType] = []
    words = merged_branch_words(message)
    if words:
        said = _TAG_TYPES.get(words[0]) or _CONVENTIONAL_TYPES.get(words[0])
        if said is not None and said is not T.OTHER:
            found.append(said)
    shipped = {
        f
        for f in sig.source_files
        if path_kind(f) in _SHIPPED_KINDS and not private_module(f) and not testing_helper(f)
    }
    if any(
        n.path in shipped and not n.private and not n.name.split(".")[-1].startswith("_")
        for n in sig.facts.added
    ):
        found.append(T.FEATURE)
    edited = any(n.path in shipped for n in sig.facts.changed)
    # (a feature's new names come with their tests: those pin the feature, not a fix)
    pinned = edited and bool(sig.facts.tests_added) and T.FEATURE not in found
    if pinned or any(g.path in shipped for g in sig.facts.guards_narrowed):
        found.append(T.BUGFIX)
    return list(dict.fromkeys(found))[:4] or types


def _security_named(
    commit: CommitInput, sig: Signals, types: list[ChangeType], verdict: Assessment
) -> tuple[list[ChangeType], Assessment]:
    """A fix whose author's words (title, description, the changelog entry it adds) name the
    hole it closes (`security.names_hole`: an advisory's id, a CWE, a denial of service), on
    shipped code, is high; it, or one the rules already rated a security fix, is typed a
    security fix first. Docs, tests and tooling close no hole, nor does a package its author
    calls unaffected."""
    shipped = sig.only is None and not sig.unaffected and _code_lines(commit, sig) > 0
    if shipped and advisory_merge(commit):
        # GitHub's own title for an advisory's merge: a fix it published, or will
        if guards_input(commit, sig) and verdict.importance is not I.HIGH:
            verdict = Assessment(
                I.HIGH, verdict.breaking, "security: an advisory's fix guards input"
            )
        elif verdict.importance is I.LOW:
            verdict = Assessment(I.MEDIUM, verdict.breaking, "security: an advisory's fix")
        rest = [t for t in types if t not in (T.SECURITY, T.BUGFIX, T.DOCS, T.OTHER)]
        return [T.SECURITY, T.BUGFIX, *rest][:4], verdict
    named = shipped and (
        names_hole(sig.title.text, *sig.description, *sig.entry_items)
        or _blowup_fixed(commit, sig, types)
        or _security_tested(commit, types)
    )
    if not named and not verdict.reason.startswith("security"):
        return types, verdict
    if named and verdict.importance is not I.HIGH:
        verdict = Assessment(I.HIGH, verdict.breaking, "security: the hole named on shipped code")
    rest = [t for t in types if t not in (T.SECURITY, T.BUGFIX, T.DOCS, T.OTHER)]
    return [T.SECURITY, T.BUGFIX, *rest][:4], verdict


# A test module named for security: `tests/test_security_include.py`, `tests/url_security.py`
_SECURITY_TEST = re.compile(r"^test_security\w*\.py$|^\w+_security\.py$")


def _security_tested(commit: CommitInput, types: list[ChangeType]) -> bool:
    """A fix that adds a test module its author names for security (`test_security*.py`,
    `*_security.py`): the hole is named by the tests that now guard it (mistune 1bef343
    "constrain include targets" adds `tests/test_security_include.py`)."""
    return T.BUGFIX in types and any(
        f.status == "added"
        and path_kind(f.filename) is PathKind.TESTS
        and _SECURITY_TEST.match(f.filename.rsplit("/", 1)[-1])
        for f in commit.files
    )


def _blowup_fixed(commit: CommitInput, sig: Signals, types: list[ChangeType]) -> bool:
    """A fix of code that reads its input (a parser, a scanner, a pattern: by the title, a
    shipped path or a changed function's name) whose author's words (the title, the
    description, the changelog entry, or a comment the fix adds telling what the code did
    before) name a cost that grows faster than the input: whoever sends the input can stall
    it, a denial of service."""
    if T.BUGFIX not in types or T.PERFORMANCE in types[:1]:
        return False
    patches = {
        f.filename: f.patch for f in commit.files if f.filename in sig.source_files and f.patch
    }
    reads = READS_INPUT.search(sig.title.text) or any(
        READS_INPUT.search(path)
        or any(
            READS_INPUT.search(line.rsplit("@@", 1)[-1])
            for line in patch.split("\n")
            if line.startswith("@@")
        )
        for path, patch in patches.items()
    )
    if not reads:
        return False
    told = [block for patch in patches.values() for block in told_in_code(patch)]
    return names_blowup(sig.title.text, *sig.description, *sig.entry_items, *told)


# A maintainer's label that types a change security ("security", "type: security-fix").
_SECURITY_LABEL = re.compile(r"\b(?:security|vulnerability|cve)\b")


def _security_typed(commit: CommitInput, title: ParsedTitle) -> bool:
    """Whether the change is typed security where the title says what it does: a
    `security:` prefix or a `[Security]` tag on a change that guards (a prefix may be an
    area's name: "Security: … are security words"), or a maintainer's security label."""
    labels = [lab.lower() for lab in (commit.pull_request.labels if commit.pull_request else [])]
    typed = title.conventional == "security" or any(
        _TAG_TYPES.get(tag) is T.SECURITY for tag in title.tags
    )
    # the guarding word said as what the change does ("Security: escape …"), never as a noun
    # ("security: a fix whose author's words …" describes a rule of a tool)
    return (typed and says_fixing(title.text, _GUARDING)) or any(
        _SECURITY_LABEL.search(label) for label in labels
    )


def _security_fix(commit: CommitInput, sig: Signals, *, fix: bool) -> bool:
    """A security fix by its author's words on a change of shipped code: a `.security` news
    fragment, or a fix that says a secret (cookies, credentials, an auth header) went to
    another origin or host ("per-request cookies not being dropped on cross-origin
    redirects"). A test, docs or dev tooling change that says so fixes nobody's client."""
    if commit.files_known and commit.files and not _code_lines(commit, sig):
        return False
    if any(f.meaning == "security" for f in sig.fragments):
        return True
    return bool(sig.exposures) and (
        fix or any(_GUARDING.search(s) for s in (sig.title.text, *sig.exposures))
    )


def _assess(
    commit: CommitInput,
    sig: Signals,
    types: list[ChangeType],
    breaking: bool,
    *,
    merge: bool = False,
    said_breaking: bool = False,
    internal: bool = False,
    kept: bool = False,
) -> Assessment:
    """Importance from what the change does and whom it affects; size only breaks ties.

    `merge`: a merge whose author did not call it breaking. It is read as the branch it lands
    (its pull request's or its commits' words); its diff against the first parent holds the
    whole branch, so its facts alone never make it breaking. `said_breaking`: the author calls
    it breaking (a `!`, a footer, a label, "breaking change"). `internal`: the change is
    proven internal (`internal.py`). `kept`: its title names a linter, formatter or type
    checker and its shipped code is proven the same (`_kept`)."""
    primary = types[0]
    text = sig.title.text.lower()
    narrowed = sig.narrowed_by or (sig.experimental and "experimental paths")
    known = commit.files_known and bool(commit.files)

    fix = primary is T.BUGFIX or T.BUGFIX in types or T.REVERT in types
    # A security fix matters wherever it lands: a CI workflow that holds secrets is an attack
    # surface too. It is one only by the author's words: a hole named and closed, a published
    # advisory's id, a security type or label on a change that guards; a word about
    # security in the title ("security docs", "advisory ids are security words") is none.
    security_words = [w for w in sig.severity if SECURITY_WORDS.match(w)]
    title_words = [w for w in sig.severity_title if SECURITY_WORDS.match(w)]
    # Pages that explain security ("security docs for TRUSTED_HOSTS") fix nothing, nor does a
    # pin of a developers' tool ("Bump black to fix CVE-…" in `requirements/lint.txt`): what
    # users install is the same (a workflow, which holds secrets, is no mere tool).
    # (asked once: it parses both revisions of the code files again)
    tooling = known and _tooling_only(commit, sig)
    dev_only = tooling and all(path_kind(f.filename) is not PathKind.CI for f in commit.files)
    if (
        sig.only is not PathKind.DOCS
        and not dev_only
        and (
            _security_typed(commit, sig.title)
            or any(ADVISORY_WORD.match(w) for w in title_words)
            # (unless the author says the package was never vulnerable: pluggy 00ba431)
            or (title_words and (fix or _GUARDING.search(text)) and not sig.unaffected)
            or (fix and security_words and not sig.unaffected)
            # a published advisory's id in the author's words or the entry the commit adds to its
            # own changelog is the fix's proof (one quoted from a dependency's release notes is not)
            or bool(sig.advisories)
        )
    ):
        return Assessment(I.HIGH, False, "security")
    if _security_fix(commit, sig, fix=fix):
        return Assessment(I.HIGH, False, "security: the author's words on shipped code")
    # The author's words that support ends, beside a shipped file, are what users meet, however
    # little the files show (apscheduler f4f26b5 "Dropped support for paho-mqtt 1.x": a test
    # extra's pin and a docstring)
    announced = (
        T.DEPRECATION in types
        and bool(_SUPPORT_DROPPED.search(text))
        and not _LIMIT_DROPPED.search(text)
        and any(
            path_kind(f.filename) in _SHIPPED_KINDS and not dev_tooling(f) for f in commit.files
        )
    )
    if (
        known
        and not said_breaking
        and not announced
        and tooling
        and not _RELEASE_BROKEN.search(f"{text}\n{' '.join(sig.description)}".lower())
    ):
        # Lock files, tool settings and pins, benchmarks: what a user installs is the same.
        return Assessment(I.LOW, False, "only dev tooling: locks, tool settings, benchmarks")
    if known and not said_breaking and _checked_by_users(commit, sig):
        # a package that ships `py.typed` hands its annotations to its users' type checkers:
        # a public one changed is a call they now accept or reject, though the code is the
        # same (voluptuous 65f736c, 4a610d3, 66df7be and 4cde166 alike)
        return Assessment(I.MEDIUM, False, "public annotations users' type checkers read")
    if (
        known
        and not said_breaking
        and not announced
        and not _RELEASE_BROKEN.search(f"{text}\n{' '.join(sig.description)}".lower())
        and not _BUILD_BROKEN.search(f"{text}\n{' '.join(sig.description)}")
        and (unshipped := unshipped_only(commit, sig))
        # annotations the author announces to users are what their type checker meets
        # (anyio 17af5a5 "Fixed return annotation of `__aexit__`", a changelog item)
        and not ("typing" in unshipped and _tells_users(commit, sig))
    ):
        # CI, tool settings, the build backend's own code, stubs and annotations: what a
        # user installs and runs is the same.
        return Assessment(I.LOW, False, f"nothing shipped changes: only {unshipped}")
    if known and sig.facts.release_runners:
        # what users download is built on another system (an older glibc, another macOS)
        return Assessment(I.MEDIUM, False, "the release binaries are built on another runner")
    # Where it lands: a docs-, tests- or CI-only change reaches no user's running code.
    # (Build definitions users install from, a Dockerfile or a requirement, reach them too.)
    shipped_lines = sig.source_lines + sig.line_kinds[PathKind.BUILD]
    if sig.only is not None or (primary in _QUIET_TYPES and not shipped_lines):
        return Assessment(I.LOW, False, f"only {(sig.only or primary).value} change")
    if (
        sig.source_files
        and len(sig.layout_only) == len(sig.source_files)
        and not shipped_lines
        and not said_breaking
    ):
        # Spacing, wrapping and comments: the code users run is the same at both revisions.
        return Assessment(I.LOW, False, "only layout: the same code at both revisions")
    if kept:
        # A linter's, formatter's or type checker's rewrite proven to leave the shipped code
        # the same: whatever "fix" its title says, users run what they ran.
        return Assessment(I.LOW, False, KEPT_REASON)
    typing = bool(_TYPING_TITLE.search(text))
    if (
        (primary is T.DOCS or typing)
        and sig.source_files
        and not sig.line_kinds[PathKind.BUILD]
        and not said_breaking
        # (both whole texts parsed: only for a change of the size words and annotations take)
        and sig.source_lines <= _WORDS_EDIT_LINES
        and not (typing and _tells_users(commit, sig))
        and same_shipped_code(commit, sig, typing=typing)
    ):
        # The title says docs or typing and both whole texts agree: docstrings reworded,
        # annotations added, the code users run unchanged (parsed only on these titles).
        what = "type annotations" if typing else "docstrings"
        return Assessment(I.LOW, False, f"only {what}: the same code at both revisions")
    if internal and not breaking:
        # The reader meets the same names, called the same way: a clean-up of the insides.
        return Assessment(I.LOW, False, "internal only: no public name, signature or default")
    if breaking and merge:
        return Assessment(I.MEDIUM, False, "merge: the branch's diff, not the author's words")
    if breaking and T.REVERT in types and not said_breaking:
        # What a revert removes its reverted change had added (often days before): the
        # rubric's reverts are medium unless the author says users must adapt.
        return Assessment(I.MEDIUM, False, "reverts a change (its removals are the change's)")
    if breaking:
        # One hardware generation, platform or model family: at most medium; so is a change
        # of the helpers a package ships for its users' tests alone (`pkg/testing.py`'s
        # `assertRaisesParseException` taking a new parameter): their tests meet it, no
        # program does.
        helpers = bool(sig.source_files) and all(map(testing_helper, sig.source_files))
        limited = sig.experimental or sig.confined_to or helpers
        return Assessment(I.MEDIUM if limited else I.HIGH, True, "breaking evidence")
    if T.REVERT in types and sig.reverted_title:
        # A revert's diff is the reverted change's, undone: a tweak of a few lines (aiohttp
        # 59684b5 restores a list in a `join`) was a tweak when it landed too, so its revert
        # is no more, unless its words name a symptom or an entry tells users.
        if (
            known
            and shipped_lines < _TINY[T.REVERT]
            # (a requirement or build file put back is what installs meet: said as before)
            and not sig.line_kinds[PathKind.BUILD]
            and not sig.severity
            and not _tells_users(commit, sig)
        ):
            return Assessment(I.LOW, False, f"reverts a tiny change: {shipped_lines} lines")
        # The reverted change goes away; unless the diff shows users must adapt, that is of
        # limited reach (often it had landed only days before).
        return Assessment(I.MEDIUM, False, "reverts a change")
    if T.DEPRECATION in types and _REMOVAL.search(text):
        # (a Python the metadata's requirement excluded at the parent too, the same at the
        # commit, drops nobody: boltons 9214bd7 "Drop support for EOL Python <= 3.6" under
        # `python_requires='>=3.7'` at both revisions)
        kept = sig.facts.python_kept is not None and bool(_PYTHON_NAMED.search(text))
        if _SUPPORT_DROPPED.search(text) and not _LIMIT_DROPPED.search(text) and not kept:
            # Support for a version or platform ends: its users must move.
            return Assessment(I.MEDIUM if narrowed else I.HIGH, not narrowed, "support dropped")
        # "Remove X": no public name, option or variable is shown to go (that would be
        # breaking evidence above), so the title alone does not make it high.
        return Assessment(I.MEDIUM, False, "removal named by the title, none shown public")
    if sig.by_default and primary not in _QUIET_TYPES and sig.defaults_kept_only:
        # (cattrs 0c226c29: `"from_converter"`, which falls back to the old `False`)
        return Assessment(I.MEDIUM, False, "a new default that stands for the old value")
    if sig.by_default and primary not in _QUIET_TYPES:
        return Assessment(I.MEDIUM if narrowed else I.HIGH, False, "default changes")

    # (a vulnerability named without the author closing it is no symptom either)
    symptoms = [w for w in sig.severity_title if w not in title_words]
    described = [w for w in sig.severity_body if w not in security_words]
    severe = symptoms or (fix and described and not _TEST_FIX.search(text))
    # A symptom is fixed in the code users run: a change of tests, benchmarks or docs
    # alone fixes nobody's crash, whatever its title says; nor does the test runner's own
    # settings file (multidict 9a32040 "Add leak tests": a `leaks` marker in pytest.ini).
    if severe and primary is not T.REVERT and (_code_lines(commit, sig) or not known):
        # High needs reach: an impact statement, or a description of a symptom not confined
        # to one platform or variant. A title alone does not show how common the path is.
        # An author who says the outputs are unaffected has said it is not high.
        if sig.harmless:
            return Assessment(I.MEDIUM, False, "severe word, outputs unaffected by the author")
        # A wrong value or data lost without a word, in the title of its fix, is the
        # rubric's own example of high: where the code runs, its users met it unawares.
        silent = [w for w in symptoms if SILENT_WORDS.search(w)]
        if sig.impact or (not narrowed and (sig.description or silent)):
            return Assessment(I.HIGH, False, f"severe symptom: {', '.join(sig.severity)}")
        return Assessment(I.MEDIUM, False, f"severe symptom, reach not shown ({narrowed})")
    if (
        T.PERFORMANCE in types
        and sig.perf_number
        and not narrowed
        and sig.source_lines
        and (sig.perf_size or 0) >= _LARGE_GAIN
        and not _COLD_PATH.search(text)
    ):
        return Assessment(I.HIGH, False, f"performance backed by numbers: {sig.perf_number}")
    if (
        primary is T.FEATURE
        and sig.capability
        and not narrowed
        and (not known or sig.new_modules or sig.added_exports)
    ):
        return Assessment(I.HIGH, False, f"new capability: {sig.capability}")

    # Meaningful but of limited reach, unless it is a tiny tweak.
    # ("reject a comment containing line breaks": where the change rewrites code and the
    # title's "comment" typed it no docs, the comment is what the code handles)
    trivial = _TRIVIAL.search(
        _COMMENT.sub(" ", text) if T.DOCS not in types and _code_lines(commit, sig) else text
    )
    if trivial:
        return Assessment(I.LOW, False, "trivial by its title")
    if sig.fixes and fix:
        return Assessment(I.MEDIUM, False, "fixes a reported issue")
    if _BUILD_BROKEN.search(f"{text}\n{' '.join(sig.description)}"):
        return Assessment(I.MEDIUM, False, "build fix")
    if released(sig, sig.removed_symbols, lambda n: n.name) or sig.deprecations:
        return Assessment(I.MEDIUM, False, "removes or deprecates public names")
    if _installs_change(commit, sig):
        # what every install pulls in changes: a new dependency, or a floor the old one is
        # below (pytest-asyncio f8b1c75 "Raise minimum pytest version to v8.4", 55a5a10)
        return Assessment(I.MEDIUM, False, "requires a new dependency or a higher version")
    if sig.facts.types_shipped:
        # users' type checkers read the package's annotations from now on: a feature of
        # limited reach, however few lines declare it
        return Assessment(I.MEDIUM, False, "ships type information (`py.typed`)")
    renamed: list[ConstantRenamed] = released(sig, sig.renamed_constants, lambda c: c.old)
    if released(sig, sig.removed_constants, lambda c: c.name) or renamed:
        # a setting users make on the old name (`Parser.max_size = …`) silently does nothing
        return Assessment(I.MEDIUM, False, "removes or renames public constants")
    if (
        known
        and sig.facts.settings_new
        and any(s.path in sig.source_files for s in sig.facts.env_added)
    ):
        # a variable users set from now on changes what the shipped code does, however few
        # lines read it
        return Assessment(I.MEDIUM, False, "shipped code reads a new environment variable")
    if known and primary is not T.REVERT and _new_translation(commit):
        # users who read the package in that language meet it from now on, however few
        # lines of code it takes (humanize 0d1aae6 "Add Arabic language": a `.po` alone)
        return Assessment(I.MEDIUM, False, "ships a new translation")
    if known and primary is T.TESTS and _test_rework(commit, sig, shipped_lines):
        tests = sig.line_kinds[PathKind.TESTS]
        return Assessment(
            I.LOW, False, f"a test rework: {tests} test lines, {shipped_lines} shipped"
        )
    if (
        known
        and _CHECKER_TITLE.search(text)
        and primary in _CHECKED_TYPES
        and not _runs_otherwise(commit, sig)
    ):
        # a linter's or type checker's rewrite not proven the same code (lark 77b7f49 "Minir
        # linting fixes": `== False` became `not`): its size tells no reach, the facts say
        # what it rewrote
        return Assessment(I.LOW, False, "a linter's or type checker's rewrite")
    if known and primary is T.BUGFIX and sig.source_lines:
        # A fix of shipped code is of limited reach, not a tweak, however few lines it takes.
        return Assessment(I.MEDIUM, False, "bugfix of limited reach")
    if known:
        tiny = _TINY.get(primary, 15)
        if shipped_lines < tiny:
            if sig.source_lines and _tells_users(commit, sig):
                # the author wrote users an entry: what they meet changes, however few lines
                # (svcs 31bc6df "Don't include stack info in debug calls", two lines)
                return Assessment(I.MEDIUM, False, "small, but its changelog entry tells users")
            if (
                primary is T.FEATURE
                and not merge
                and sig.line_kinds[PathKind.TESTS]
                and _behaviour_changed(commit, sig)
            ):
                # what users can do is new, and tests pin it: no tweak, however few lines
                # (tomli 12314bd "Add \\xHH Unicode escape code to basic strings": two lines)
                return Assessment(I.MEDIUM, False, "small, but a feature its tests pin")
            return Assessment(I.LOW, False, f"tiny: {shipped_lines} source and build lines")
        return Assessment(I.MEDIUM, False, f"{primary.value} of limited reach")
    if sig.series:
        return Assessment(I.MEDIUM, False, "part of a series of pull requests (no diff)")
    if _REMOVAL.search(text) and primary not in _QUIET_TYPES and not _CLEAN_UP.search(text):
        # Something goes away; without the diff, what and for whom is not known.
        return Assessment(I.MEDIUM, False, "a removal, reach not shown (no diff)")
    if primary in _ROUTINE_WITHOUT_DIFF or (primary is T.REFACTOR and _CLEAN_UP.search(text)):
        return Assessment(I.LOW, False, f"routine {primary.value} (no diff)")
    return Assessment(I.MEDIUM, False, f"{primary.value} (no diff)")


def _checked_by_users(commit: CommitInput, sig: Signals) -> bool:
    """Whether the shipped code changes only annotations (`Signals.typing_only`), a public
    function's among them, in a package whose `py.typed` marker (PEP 561) the tree holds
    (read beside the change: `sources.modules_named`), and no build file changes."""
    if sig.typing_only is None or sig.line_kinds[PathKind.BUILD]:
        return False
    if not any(path.rsplit("/", 1)[-1] == TYPE_MARKER for path, _ in commit.modules):
        return False
    return any(
        n.path in sig.source_files and not any(_hidden_part(part) for part in n.name.split("."))
        for n in changed_names(sig)
    )


def _hidden_part(part: str) -> bool:
    """A private name's part (`_helper`), a dunder aside (`Data.__getitem__` is public)."""
    return part.startswith("_") and not (part.startswith("__") and part.endswith("__"))


def _behaviour_changed(commit: CommitInput, sig: Signals, *, in_place: bool = True) -> bool:
    """Shipped code behaves otherwise: a function's body now gives another value, reads its
    input otherwise or raises otherwise (distro 850c54d: the version's regex is `re.search`
    where it was an anchored `re.match`; c188abf: `"n/a"` compared), takes a new parameter,
    or a new public function the added tests call. A debug `print` removed (distro 7096296),
    a name added to a table alone (a release file's name in a list, 40ecdd9; `toolz.reduce`
    in a set of names, toolz 230dc7f) or a call spelled anew (`next(it)` for `it.next()`,
    toolz a5262d9) shows none of these. A shipped file whose whole texts were not read
    (or no Python module) is read by its patch: a line of code that is no comment, `print`,
    import or table row (`"g_proj",`, `"Granite": default_mappings,`). Without `in_place`,
    a statement or a condition rewritten in place is none (what a linter rewrites: lark
    77b7f49's `assert x == False` → `assert not x`)."""
    facts = sig.facts
    shipped = set(sig.source_files)
    whole = {
        f.filename
        for f in commit.files
        if f.sides is not None and f.filename.endswith((".py", ".pyi"))
    }
    if any(
        f.filename in shipped and f.filename not in whole and _code_changed(f.patch or "")
        for f in commit.files
    ):
        return True
    called = {c.callee.rsplit(".", 1)[-1] for c in facts.tested}
    changes: list[tuple[str, str]] = [
        *((f.path, f.name) for f in facts.returns_added),
        *((f.path, f.name) for f in facts.returns_now),
        *((f.path, f.name) for f in facts.returns_early),
        *((f.path, f.name) for f in facts.raises_added),
        *((f.path, f.name) for f in facts.catches_changed if f.gained),
        *((f.path, f.name) for f in facts.compares_added),
        *((f.path, f.name) for f in facts.conditions_changed if in_place),
        *(
            (f.path, f.name)
            for f in facts.signatures_changed
            if f.gained and not f.name.rsplit(".", 1)[-1].startswith("_")
        ),
        *((f.path, f.name) for f in facts.recomputed if not _grows_literal(f.old, f.new)),
        *(
            (f.path, f.name)
            for f in facts.rewritten
            if in_place and not _PRINTS.match(f.old) and not _PRINTS.match(f.new)
        ),
        *(
            (n.path, n.name)
            for n in facts.added
            if n.public and n.name.rsplit(".", 1)[-1] in called
        ),
    ]
    return any(path in shipped and path in whole for path, _ in changes)


# lines of a patch that change no behaviour by themselves: comments, docstrings' quotes,
# prints and debug logs, imports
_INERT_LINE = re.compile(
    r"(?:#|//|/?\*|\"\"\"|'''|print\(|(?:logger|logging|log)\.(?:debug|info)\("
    r"|import |from \S+ import )"
)


def _code_changed(patch: str) -> bool:
    """A line the patch adds or removes is code that does something: not blank, a comment,
    a print or debug log, an import, nor an item of a table (a literal, a name, `key: value`)."""
    for line in patch.splitlines():
        if not line.startswith(("+", "-")) or line.startswith(("+++", "---")):
            continue
        text = line[1:].strip()
        if not text or _INERT_LINE.match(text) or _table_row(text):
            continue
        return True
    return False


def _table_row(text: str) -> bool:
    """`"g_proj",  # …`, `"Granite": default_mappings,`: one item of a list, set or dict."""
    item = re.sub(r"\s+#.*$", "", text).rstrip(",").strip()
    for wrapped in (f"[{item}]", f"{{{item}}}"):
        try:
            tree = ast.parse(wrapped, mode="eval").body
        except (SyntaxError, ValueError):
            continue
        parts: list[ast.expr] = list(tree.elts) if isinstance(tree, ast.List) else []
        if isinstance(tree, ast.Dict):
            parts = [*(k for k in tree.keys if k is not None), *tree.values]
        simple = (ast.Constant, ast.Name, ast.Attribute)
        if parts and all(isinstance(p, simple) for p in parts):
            return True
    return False


# a statement that prints (a debugging aid, not what the function gives)
_PRINTS = re.compile(r"print\(")


def _grows_literal(old: str, new: str) -> bool:
    """`new` is `old` with items added to its lists, tuples, sets or dicts, nothing else:
    a name added to a table, not another computation (`set((a, b))` → `set((a, b, c))`)."""
    try:
        before, after = ast.parse(old, mode="eval"), ast.parse(new, mode="eval")
    except (SyntaxError, ValueError):
        return False
    if _without_items(before) != _without_items(after):
        return False
    kept = Counter(ast.dump(n) for n in _items(before))
    return not kept - Counter(ast.dump(n) for n in _items(after))


def _items(tree: ast.AST) -> list[ast.AST]:
    items: list[ast.AST] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.List | ast.Tuple | ast.Set):
            items.extend(node.elts)
        elif isinstance(node, ast.Dict):
            items.extend(k for k in node.keys if k is not None)
            items.extend(node.values)
    return items


def _without_items(tree: ast.AST) -> str:
    """The expression's shape with its literals' items left out."""

    class _Empty(ast.NodeTransformer):
        def visit_List(self, node: ast.List) -> ast.AST:
            return ast.List(elts=[], ctx=node.ctx)

        def visit_Tuple(self, node: ast.Tuple) -> ast.AST:
            return ast.Tuple(elts=[], ctx=node.ctx)

        def visit_Set(self, node: ast.Set) -> ast.AST:
            return ast.Set(elts=[])

        def visit_Dict(self, node: ast.Dict) -> ast.AST:
            return ast.Dict(keys=[], values=[])

    return ast.dump(_Empty().visit(copy.deepcopy(tree)))


# A gettext catalog of one language: `pkg/locale/ar_SA/LC_MESSAGES/pkg.po` (or its `.mo`)
_CATALOG = re.compile(r"(?:^|/)LC_MESSAGES/[^/]+\.(?:po|mo)$")


def _new_translation(commit: CommitInput) -> bool:
    """The commit adds a message catalog the package ships (a docs site's is no user's)."""
    return any(
        f.status == "added"
        and _CATALOG.search(f.filename)
        and path_kind(f.filename) not in (PathKind.DOCS, PathKind.TESTS)
        for f in commit.files
    )


# A test rework's shipped lines at most (its script's), and the test lines it takes for each.
_REWORK_SHIPPED = 40
_REWORK_RATIO = 3


def _test_rework(commit: CommitInput, sig: Signals, shipped_lines: int) -> bool:
    """A change its title types tests whose shipped lines, all in a package's `__main__.py`
    (the `python -m` script, no library code), are few beside its tests' and add, remove or
    re-sign no public name, nor read a new setting: the suite reworked, what users run
    nearly the same (the script's banner reworded beside it)."""
    shipped = set(sig.source_files)
    if not shipped or not all(p.endswith("/__main__.py") for p in shipped):
        return False
    public = [
        n
        for n in (*sig.facts.added, *sig.facts.removed)
        if n.public and n.path in shipped and path_kind(n.path) is not PathKind.TESTS
    ]
    return (
        shipped_lines <= _REWORK_SHIPPED
        and sig.line_kinds[PathKind.TESTS] >= _REWORK_RATIO * shipped_lines
        and not public
        and not any(s.path in shipped for s in sig.facts.signatures_changed)
        and not sig.facts.env_added
        and not sig.facts.flags_added
        and not _tells_users(commit, sig)
    )


# A news fragment's meanings that are written for users (a docs or a contributors' one is not)
_FOR_USERS = frozenset({"breaking", "deprecation", "bugfix", "feature", "security"})


def _renames_only(commit: CommitInput, sig: Signals, *, said_breaking: bool) -> bool:
    """Whether every code change of the shipped Python files is a renaming that changes
    nothing a caller meets: a function's locals (a parameter rebound as a new local), a
    private function's parameters, a class's private attributes, each renamed throughout
    (`layout.same_code` with `renamed`: parses both sides, asked only where the facts name
    no definition added, removed, renamed or edited, and lines of code changed)."""
    shipped = set(sig.source_files)
    facts = sig.facts
    return bool(
        shipped
        and all(path.endswith(".py") for path in shipped)
        and not sig.line_kinds[PathKind.BUILD]
        and not said_breaking
        and sig.source_lines <= _WORDS_EDIT_LINES
        and not any(n.path in shipped for n in (*facts.added, *facts.removed, *facts.changed))
        and not any(r.old.path in shipped or r.new.path in shipped for r in facts.renamed)
        # a renaming rewrites lines in place: a file that gains or loses lines is no renaming
        # only (asked first: the whole files' parses below cost a tenth of a day's time)
        and all(f.additions == f.deletions for f in commit.files if f.filename in shipped)
        and code_changed(commit, sig)
        and same_shipped_code(commit, sig, typing=False, renamed=True)
        # (a docstring's doctest reworded is the same code without any renaming: docs)
        and not same_shipped_code(commit, sig, typing=False)
    )


def _tells_users(commit: CommitInput, sig: Signals) -> bool:
    """The commit adds a news fragment for users, or one to three items to its changelog (a
    release's notes are none: a version bump), unless its title says it only updates the
    records: then the entry tells other commits' changes."""
    return any(f.meaning in _FOR_USERS for f in sig.fragments) or (
        bool(changelog_entry(commit.files))
        and not adds_release(commit.files)
        and not keeps_records(commit.title)
    )


def _installs_change(commit: CommitInput, sig: Signals) -> bool:
    """A runtime requirement of the package's `pyproject.toml` is new, or no longer admits
    the version it named before (an extra's, a build's or a docs pin's is nobody's install)."""
    if any(f.filename.endswith(("setup.cfg", "setup.py")) for f in commit.files):
        return False  # moved from the old metadata (pytest-asyncio 1607df1): nothing new
    texts = {f.filename: f.sides[1] for f in commit.files if f.sides is not None}
    return any(
        not still_admits(r.old, r.spec)
        and r.path.endswith("pyproject.toml")
        and package_name(r.package) in runtime_requirements(texts.get(r.path, ""), sig.parses)
        for r in sig.facts.requirements
    )


def says_breaking(commit: CommitInput, sig: Signals) -> bool:
    """The author calls it breaking: a `!` or a mark opening the title (`[BREAKING]`), a
    footer, "breaking change" in its text, a label, a news fragment, or the changelog item it
    adds marked so, or filed under a breaking heading, or whose words say it breaks code."""
    return bool(
        sig.title.bang
        or title_marked_breaking(commit.title)
        or BREAKING_FOOTER.search(commit.message)
        or _SAYS_BREAKING.search(commit.message)
        or any("breaking" in label.lower() for label in sig.labels)
        or any(f.meaning == "breaking" for f in sig.fragments)
        or bool(marked_breaking(commit.files))
        or bool(message_marked_breaking(commit.message))
        # (a release's section is the release's words: `release_break` reads them)
        or (entry_break_words(commit.files) is not None and not adds_release(commit.files))
    )


def release_break(
    commit: CommitInput, sig: Signals, p: AnalysisPhrases, own: list[Risk]
) -> list[Risk]:
    """What says a release breaks code, each as a risk quoting its author's words: the marks
    of its own message, an item of its changelog section filed or worded as breaking
    (python-tabulate bf58e37's "Drop support for Python 2.7, 3.5, 3.6."), a commit it ships
    (`sig.carried`) that is breaking by its own analysis, its title quoted. Empty where none
    does. `own`: the risks its message's words tell, where they call it breaking."""
    risks = list(own)
    notes = [n for n in (sig.release.items if sig.release else ()) if n.breaking]
    if not risks and notes and sig.release is not None:
        text = excerpt(notes[0].text).rstrip(" .")
        risks = [Risk(description=sentence(p, p.fragment.format(path=sig.release.path, text=text)))]
    if not risks and (said := entry_break_words(commit.files, new_only=False)):
        text = excerpt(said[1]).rstrip(" .")
        risks = [Risk(description=sentence(p, p.fragment.format(path=said[0], text=text)))]
    carried = [c for c in (sig.carried.notable if sig.carried else ()) if c.breaking]
    if not risks and carried and sig.carried is not None:
        shipped = p.carried_breaking.format(
            tag=sig.carried.since, sha=carried[0].sha[:7], title=excerpt(carried[0].title, 80)
        )
        risks = [Risk(description=sentence(p, shipped))]
    return risks


# An insight's characters (the stored analysis bounds it: `models.Insights`)
_INSIGHT_MAX = 600


def _fitted(said: list[str], separator: str, limit: int) -> str | None:
    """An insight's sentences within `limit` characters, each whole: one that does not fit is
    left out (a long quotation), never cut; None where none fits."""
    kept: list[str] = []
    for one in said:
        joined = separator.join([*kept, one])
        # (measured as `fit_sentences` measures it: its spaces folded unless it has lines)
        if len(" ".join(joined.split()) if "\n" not in joined else joined.strip()) <= limit:
            kept.append(one)
    return fit_sentences(separator.join(kept), limit) if kept else None


def analyze(commit: CommitInput, *, language: str = "en") -> Analysis:
    """The rules' analysis of one commit, read with its hidden text removed and its
    credentials redacted (a changed default is quoted as written)."""
    shielded = shield(commit)
    return noted(analyze_shielded(shielded.commit, language), shielded.found, language)


def analyze_shielded(
    commit: CommitInput,
    language: str,
    *,
    facts: Facts | None = None,
    parses: Parses | None = None,
) -> Analysis:
    """The rules' analysis of a commit already shielded (`shield.py`): the LLM's stand-in.
    `facts`: the commit's facts where the caller has read them (`read_facts(commit, parses)`),
    and `parses` the settings files parsed as it read them."""
    p = analysis_phrases(language)
    landed = merged_message(commit.message)
    branch = merged_branch(commit.message)
    shielded_message = commit.message
    if landed is not None:
        # A merge is read with the message of the branch it lands: its facts are read again.
        commit = commit.model_copy(update={"message": landed})
        facts = None
    sig = read_signals(commit, facts, parses)
    types, confidence = _types(
        commit, sig.title, sig.line_kinds, tuple(f.meaning for f in sig.fragments if f.meaning)
    )
    types = _tooling_typed(_docs_by_word(_with_options(types, sig), commit, sig), commit, sig)
    types = _annotations_typed(types, commit, sig)
    # (a trunk merged into a branch brings the trunk's own commits, each an entry already)
    if landed is not None and (branch or "").rsplit("/", 1)[-1] not in _TRUNKS:
        types = _merge_typed(types, shielded_message, sig)
    risks = breaking_risks(commit, sig, p)
    # A merge is breaking only by its author's words (a footer, a `!`, a label, "breaking
    # change" in its text), never by the branch's diff alone.
    said_breaking = says_breaking(commit, sig)
    # a merge by its parents whose message is a plain title (the merge button's message set
    # to the pull request's title) lands a branch all the same
    # (a Python floor the merged package raises is no claim of the diff's: it is what
    # installers read once it lands)
    unproven_merge = (
        (landed is not None or commit.parents > 1)
        and not said_breaking
        and python_floor_raised(sig) is None
    )
    renames = not risks and _renames_only(commit, sig, said_breaking=said_breaking)
    if renames:
        # the same code with its names changed is a refactor, whatever "Fix" its title says
        types = [T.REFACTOR, *(t for t in types if t not in (T.REFACTOR, T.BUGFIX))][:4]
    kept = None if risks or renames else _kept(commit, sig, said_breaking=said_breaking)
    if kept is not None:
        # the same code users ran is no fix nor feature, whatever the title's "fix" or "add"
        # names (a linter's complaints): a refactor of its spelling
        rest = [t for t in types if t not in _KEPT_UNSAID]
        # (docstrings and comments alone under "Fix typos" stay the docs they are)
        types = (rest if rest[:1] == [T.DOCS] else [T.REFACTOR, *rest])[:4]
    elif (
        T.BUGFIX not in types
        and _CHECKER_FIXED.search(sig.title.text.lower())
        and _runs_otherwise(commit, sig)
    ):
        # a checker's fix that changes what runs (flash-attention 766ed201 "[CuTe] Fix lint
        # failure": a `return` moved out of its block) is a fix all the same
        types = [T.BUGFIX, *types][:4]
    elif (
        T.BUGFIX in types
        and _CHECKER_TITLE.search(sig.title.text)
        and not any(_reaches_users(f, sig) for f in commit.files)
    ):
        # "fix: enable mypy strict mode in test files": a checker's complaints in files no
        # user runs (tests, CI, the dev tools' `Justfile`), whatever its `fix:` prefix says
        types = [t for t in types if t is not T.BUGFIX] or [T.REFACTOR]
    inside = None if risks else internal_only(commit, sig, types, said_breaking=said_breaking)
    verdict = (
        Assessment(I.LOW, False, "only renames: the same code at both revisions")
        if renames
        else _assess(
            commit,
            sig,
            types,
            bool(risks),
            merge=unproven_merge,
            said_breaking=said_breaking,
            internal=inside is not None,
            kept=kept is not None,
        )
    )
    if not renames:
        types, verdict = _security_named(commit, sig, types, verdict)
    # a release is news whatever little its own diff holds: a version users can now install
    # (the changes it releases keep their own importance, and their own breaks)
    release = sig.released is not None and verdict.importance is I.LOW
    if sig.released is not None:
        # never breaking by its own diff: only by its author's words, in the release's notes,
        # its message, or a commit it ships that is breaking by its own analysis; high only so
        broke = release_break(commit, sig, p, risks if said_breaking else [])
        version = sig.released.version
        verdict = (
            Assessment(I.HIGH, True, f"releases {version}: a break in its author's words")
            if broke
            else Assessment(I.MEDIUM, False, f"releases {version}")
        )
        risks = broke
    if developers_extras_lost(sig) and verdict.importance is I.LOW:
        # `pip install pkg[dev]` still resolves, empty: a developer's set-up changes, no
        # user's install (pluggy ddb06db's `dev`, `testing` made dependency groups)
        verdict = Assessment(I.MEDIUM, verdict.breaking, "extras gone from the metadata")
    unreleased_fix = (
        T.BUGFIX in types
        and sig.last_release is not None
        and sig.last_release.edits_unreleased
        # a docstring re-wrapped, a comment moved, a hashbang mended fix no code (distro
        # a419786 "Fix lint error for long lines"): "Fixes code added after …" is not said
        and not (sig.source_files and same_shipped_code(commit, sig, typing=False))
    )
    if unreleased_fix and not verdict.breaking and verdict.importance is not I.LOW:
        # what it mends no release held: no release's user met the bug, so a fix of it is
        # the unreleased change's own upkeep (python-tabulate 3f0757e mends a `FutureWarning`
        # of code added the same day); one a severe word names stays medium
        verdict = replace(verdict, importance=I.MEDIUM if verdict.importance is I.HIGH else I.LOW)
    if settings_released(sig) and verdict.importance is Importance.LOW:
        # an assignment users make (`tabulate.PRESERVE_WHITESPACE = True`) now does nothing,
        # however internal the rest of the change is
        verdict = Assessment(Importance.MEDIUM, verdict.breaking, "a public setting no code reads")
        inside = None
    defects = defect_risks(sig, p)
    if defects and verdict.importance is Importance.LOW:
        # a proven `NameError` or `TypeError` in shipped code is news, whatever the title says
        verdict = Assessment(Importance.MEDIUM, verdict.breaking, "fails where it runs")
    if verdict.breaking and not risks:
        # A removed feature (deprecation tag and a removal title) is the fact itself.
        removal = p.removal_title.format(title=excerpt(sig.title.text))
        risks = [Risk(description=sentence(p, removal))]
    # a new exception a public function reaches is a behaviour its callers meet
    news = [] if renames else raise_news(sig, p)
    if news and verdict.importance is Importance.LOW:
        verdict = Assessment(Importance.MEDIUM, verdict.breaking, "raises anew")
    said_kept = title_only_said(sig, p)
    if (
        said_kept
        and verdict.breaking
        and len(risks) == 1
        and (sig.title.bang or title_marked_breaking(commit.title))
    ):
        # the title's mark the only evidence, and the code proven to keep every public name:
        # the author's word keeps it breaking, not high (xmltodict 7364427 `refactor!`); what
        # the code keeps is said beside the mark. (Where the code is not read whole, or it
        # removes a name, the mark stands as it is.)
        if verdict.importance is Importance.HIGH:
            verdict = Assessment(Importance.MEDIUM, True, "breaking by the title's mark alone")
        marked = risks[0].description.removesuffix(p.sentence_end)
        risks = [
            risks[0].model_copy(
                update={"description": f"{marked}{p.clause_sep}{said_kept}{p.sentence_end}"}
            )
        ]
    text = write(
        commit,
        sig,
        types,
        verdict.importance,
        # A merge's removals are still proven facts of its branch, said without the verdict.
        risks=risks
        if (verdict.breaking or unproven_merge) and verdict.importance is not Importance.LOW
        else [],
        p=p,
        merge=None if landed is None else branch or "",
        release=release,
        told=tuple(news),
    )
    if T.SECURITY in types[:1] and advisory_merge(commit):
        # what GitHub's title tells is the news; what the code does is its first insight
        fact, text.summary = text.summary, p.advisory_fix
        if excerpt(fact).rstrip(". ").lower() not in commit.title.lower():
            text.insights.setdefault("security", []).insert(0, fact)
        if unnested := repeat_unnested(commit, sig):
            # what its code takes out, said first: the shape of a pattern that backtracks
            shape, name, path = unnested
            phrase = p.advisory_unnested_named if name else p.advisory_unnested
            said = phrase.format(pattern=shape, name=name, path=path)
            text.insights.setdefault("security", []).insert(0, said)
    if unreleased_fix and sig.last_release is not None:
        tag = code(sig.last_release.tag)
        text.note("compatibility", sentence(p, p.fixes_unreleased.format(tag=tag)))
    # (first, and after the words: a failure proven is no migration users make)
    text.risks[:0] = defects
    text.risks += [r for r in news if r not in text.risks]
    # a risk that only says the summary again is skipped by a reader: left out, unless a
    # breaking entry would be left with none
    repeated = [
        r
        for r in text.risks
        if verdict.importance is not Importance.LOW
        and not r.consequence
        and not r.mitigation
        and repeats(r.description, text.summary)
    ]
    if repeated and (len(repeated) < len(text.risks) or not verdict.breaking):
        text.risks = [r for r in text.risks if r not in repeated]
    # (annotations alone are said so already: "Type hints only (runtime unchanged): …")
    if kept is not None and verdict.importance is I.LOW and sig.typing_only is None:
        echoed = excerpt(text.summary).rstrip(". ").lower()
        echoes = echoed in commit.title.lower() or echoed in sig.title.text.lower()
        if echoes and (said := kept_sentence(commit, sig, kept, p, ONE_LINE_MAX)):
            text.summary = said
        elif said := kept_sentence(commit, sig, kept, p, _INSIGHT_MAX):
            text.note("architecture", said)
        inside = None
    if inside is not None and verdict.importance is Importance.LOW:
        echoed = excerpt(text.summary).rstrip(". ").lower()
        # (a merge's title is its pull request's, "Apply ruff/Perflint rule PERF402" under
        # "Merge pull request #343 …": python-tabulate 3a8c941)
        titles = (commit.title.lower(), sig.title.text.lower())
        if any(echoed in t for t in titles) and (
            said := internal_sentence(inside, p, ONE_LINE_MAX)
        ):
            # the summary would echo the title: the fact is what there is to say
            text.summary = said
        elif said := internal_sentence(inside, p, 600):
            text.note("architecture", said)
    return Analysis(
        change_types=types,
        importance=verdict.importance,
        breaking=verdict.breaking,
        # A message of control characters alone ("\x00") leaves nothing to say: no message.
        summary=text.summary
        if any(c.isprintable() and not c.isspace() for c in text.summary)
        else p.no_message,
        impact=impact(commit.files),
        insights=(
            Insights(
                **{k: _fitted(v, p.sentence_sep, _INSIGHT_MAX) for k, v in text.insights.items()}
            )
            if text.insights
            else None
        ),
        risks=text.risks[:5],
        recommendations=text.recommendations[:5],
        confidence=confidence,
        analyzer="rules",
    )
