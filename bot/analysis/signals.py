"""Evidence of what a commit does and whom it affects, read from its text and its diff. Pure.

Every signal keeps the fact it rests on (a word, an identifier, a path, a number), so the
rules can say why they rated a commit as they did and name that fact in the digest.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field

from bot.analysis.messages import description_paragraphs
from bot.analysis.paths import PathKind, path_kind
from bot.analysis.titles import ParsedTitle, parse_title
from bot.models import CommitInput, FileChange

# Symptoms a reader must know about (the rubric's "silent wrong results, data corruption,
# NaNs, crashes, deadlocks, hangs, memory-safety bugs, security"), by the word that shows them.
_SEVERITY = re.compile(
    r"\b(corrupt\w*|wrong (?:results?|outputs?|answers?|tokens?)|incorrect (?:results?|outputs?)"
    r"|garbled|garbage (?:output|tokens?)|nans?|crash\w*|segfault\w*|segmentation fault"
    r"|deadlock\w*|hangs?|hanging|hung|stuck|freez\w+|race conditions?|data races?"
    r"|out[- ]of[- ]bounds|buffer overflow|use[- ]after[- ]free|illegal memory access"
    r"|memory leaks?|leak(?:s|ing|ed)?|security|vulnerab\w+|cve-\d{4}-\d+"
    # a regression of behaviour, not a performance or CI one, nor a regression test
    r"|(?<!performance )(?<!perf )(?<!ci )(?<!test )regression"
    r"(?! (?:tests?|coverage|suites?|checks?|testing))|races? (?:with|between|on)"
    r"|silently (?:drop\w*|ignor\w*|skip\w*|discard\w*|los\w+|overwrit\w+|truncat\w+"
    r"|corrupt\w*|produc\w+ wrong|returns? wrong)|silent (?:data loss|corruption|failures?)"
    r"|(?:script|command|code|sql|shell|prompt) injection"
    r"|accuracy (?:drop|degradation|issues?|bugs?|problems?|errors?)"
    r"|precision (?:issues?|bugs?|problems?|errors?|loss))\b",
)
# "94 % of requests", "all users": how many are affected.
_IMPACT = re.compile(
    r"\b(\d{1,3}(?:\.\d+)?\s?%\s+of\s+(?:all\s+)?(?:the\s+)?[a-z][\w-]*"
    r"|(?:all|every)\s+(?:requests?|users?|models?|deployments?|inputs?|batch(?:es)?))\b",
)
_FIXES = re.compile(
    r"\b(?:fix(?:es|ed)?|close[sd]?|resolve[sd]?)\s*:?\s+(?:[\w.-]+/[\w.-]+)?#(\d{1,7})\b",
)
# Performance backed by a number: "2.3x faster", "15% higher throughput", "TPOT -12%".
_PERF_TIMES = re.compile(
    r"(\d+(?:\.\d+)?\s?(?:x|×)\s?(?:faster|speed-?ups?|higher|improvement|throughput|better))"
)
_PERF_PERCENT = re.compile(
    r"(\d+(?:\.\d+)?\s?%\s?(?:faster|speed-?ups?|improvement|higher|lower|reduction|less|gains?"
    r"|better|increase|decrease|drop)"
    r"|(?:throughput|latency|ttft|tpot|tps|qps|e2e time)\D{0,40}?[+-]?\d+(?:\.\d+)?\s?%)",
)


def _perf_number(original: str) -> str | None:
    """A measured performance change, as written: "2.3x faster", "TPOT -12%"."""
    text = original.lower()
    found = _PERF_PERCENT.search(text) if "%" in text else None
    if found is None and ("x" in text or "×" in text):
        found = _PERF_TIMES.search(text)
    return " ".join(_as_written(original, text, found).split()) if found else None


# A default that changes; a new thing that comes with a default ("provide X ... by default")
# changes nobody's behaviour, so adding verbs are left out.
_BY_DEFAULT = re.compile(
    r"\b(?:(?:enable|disable|turn (?:on|off)|switch|use|don't use|do not use|stop)\w*\b.{0,60}"
    r"\bby default|default (?:to|changed?|value)|change\w* (?:the )?default)\b",
)
_NEW_THING = re.compile(r"\b(add\w*|provide\w*|introduc\w+|new|implement\w*)\b")
_SERIES = re.compile(r"\[?\b\d{1,2}\s*/\s*(?:\d{1,2}|n)\b\]?", re.IGNORECASE)
_BENCH_TITLE = re.compile(r"\bbench(?:mark\w*)?\b")
_RELAND = re.compile(r"^\s*(?:\[?re-?land(?:ed|s)?\]?|re-?apply)\b[:\s]*", re.IGNORECASE)
_REVERTED_TITLE = re.compile(r'"(.+)"')
# A new capability the rubric names: a backend, a kernel family, hardware, a data type.
_CAPABILITY = re.compile(
    r"\b(backends?|kernels?|operators?|ops|(?:fp|int|uint|bf)\d{1,2}|nvfp4|mxfp\d|w\d+a\d+"
    r"|quantization (?:method|scheme)s?|hardware|platform|device|sm\d{2,3})\b",
    re.IGNORECASE,
)
_SEVERE_LABEL = re.compile(
    r"\b(security|vulnerability|cve|critical|blocker|p0|data[- ]loss|corruption|crash|deadlock"
    r"|regression)\b"
)
_NOT_CAPABILITY = re.compile(r"\b(examples?|tutorials?|docs?|guides?|tests?|benchmarks?)\b", re.I)
_ADDING = re.compile(r"\b(add(?:s|ed)?|support(?:s|ed)?|introduc\w+|implement\w*|new)\b", re.I)
# Bracket tags that confine a change to one platform or one model variant.
_PLATFORM_TAGS = frozenset(
    {"rocm", "xpu", "cpu", "tpu", "hpu", "amd", "intel", "gaudi", "310p", "950", "ascend950"}
    | {"a5", "mps", "metal", "apple", "windows", "macos", "wsl", "arm", "aarch64", "s390x"}
    | {"ppc64le", "turing", "power", "neuron", "habana"}
)
_MODEL_TAG = re.compile(r"^[a-z][a-z-]*\d[\w.-]*$")  # [Qwen3Next], [gemma3], [DSv4]
_NARROW_PHRASE = re.compile(
    r"\b(?:on|for) (?:the )?(?:rocm|xpu|cpu|tpu|amd|intel|turing|310p|950|a5|windows|macos|wsl)\b"
    r"|\b(?:potential|possible|rare|corner case|edge case)\b"
    # a symptom under a condition or a combination of features: "when X is enabled", "A+B"
    r"|\b(?:when|while|if|unless|only)\b|\w\+\w",
    re.IGNORECASE,
)
_EXPERIMENTAL = re.compile(r"(^|/)(experimental|contrib|prototype|incubator|sandbox)(/|_)")
_PRIVATE_PART = re.compile(r"(^|/)_(?!_init__\.py$)[^/]*")
_NOT_SHIPPED = re.compile(r"(^|/)(scripts?|tools|benchmarks?|examples?|hack|dev)/|^\.")

_ALL_ITEM = re.compile(r"""^\s*["']([A-Za-z]\w*)["'],?\s*$""")
_INIT_IMPORT = re.compile(r"^from\s+\S+\s+import\s+\(?([\w\s,]+)\)?\s*$")
_FLAG_DEFAULT = re.compile(r"default\s*=\s*([^,)]+)")
_CONFIG_GET = re.compile(r"""\.get\(\s*["']([a-z][a-z0-9_]{2,})["']""")
_CONFIG_FIELD_LINE = re.compile(
    r"^([+-])\s{4}([a-z][a-z0-9_]{2,})\s*:\s*[\w\[\], |.\"']+?=\s*(.+?)\s*$", re.MULTILINE
)
# The same, over a whole patch: group 1 is the side of the diff (+ or -).
_SYMBOL_LINE = re.compile(r"^([+-])(?:async\s+def|def|class)\s+([A-Za-z]\w*)", re.MULTILINE)
_CHANGED_LINE = re.compile(r"^([+-])(?![+-]{2})(.*)$", re.MULTILINE)
# Found anywhere in a patch; the side of the diff is the first character of the match's line.
# It starts with a literal ("env": environ, getenv(, env_bool() so the scan is a fast search.
_ENV_READ = re.compile(
    r"""env(?:iron(?:\.get)?\s*[\[(]|(?:_bool|_int|_str)?\()\s*"""
    r"""["']([A-Z][A-Z0-9_]{2,})["'](?:\s*,\s*([^)\]\n]{1,40}))?"""
)
_ENV_TABLE_LINE = re.compile(r"""^([+-])\s*["']([A-Z][A-Z0-9_]{3,})["']\s*:""", re.MULTILINE)
_FLAG = re.compile(r"""add_argument\(\s*["'](--[\w-]+)["']([^\n]*)""")
_DEPRECATION = re.compile(
    r"DeprecationWarning|FutureWarning|@deprecated|warn_deprecated|deprecate\w*\("
    r"|is deprecated|will be removed"
)
_CONFIGISH = re.compile(r"(config|args|envs?|settings|options)")
# The message of a warning: a string literal (which may hold `code` spans).
_QUOTED = re.compile(r""""([^"\n]{4,120})"|'([^'\n]{4,120})'""")


@dataclass(frozen=True)
class Symbol:
    name: str
    path: str


@dataclass(frozen=True)
class DefaultChange:
    name: str
    old: str
    new: str
    path: str


@dataclass(frozen=True)
class Signals:
    """What the rules know about a commit; each item names the fact it rests on."""

    title: ParsedTitle
    # severity words in the title, and in the description (template and test sections removed)
    severity_title: tuple[str, ...] = ()
    severity_body: tuple[str, ...] = ()
    impact: str | None = None
    fixes: tuple[int, ...] = ()
    perf_number: str | None = None
    by_default: bool = False
    # part k of a series of pull requests ("[2/N]")
    series: bool = False
    reland: bool = False
    reverted_title: str | None = None
    capability: str | None = None
    # the platform tag, model tag or hedge that confines the change, if any
    narrowed_by: str | None = None
    experimental: tuple[str, ...] = ()
    # only these kinds of files change (docs, tests, ci); None when source changes too
    only: PathKind | None = None
    source_lines: int = 0
    test_files: int = 0
    source_files: tuple[str, ...] = ()
    new_modules: tuple[str, ...] = ()
    added_symbols: tuple[Symbol, ...] = ()
    removed_symbols: tuple[Symbol, ...] = ()
    renamed_symbols: tuple[tuple[Symbol, Symbol], ...] = ()
    removed_exports: tuple[Symbol, ...] = ()
    added_exports: tuple[Symbol, ...] = ()
    env_added: tuple[str, ...] = ()
    env_removed: tuple[str, ...] = ()
    flags_added: tuple[str, ...] = ()
    flags_removed: tuple[str, ...] = ()
    config_keys_removed: tuple[str, ...] = ()
    defaults_changed: tuple[DefaultChange, ...] = ()
    deprecations: tuple[str, ...] = ()
    labels: tuple[str, ...] = field(default_factory=tuple)
    # each changed path's kind, and changed lines per kind (a file without counts is one)
    file_kinds: Mapping[str, PathKind] = field(default_factory=dict)
    line_kinds: Counter[PathKind] = field(default_factory=Counter)
    # the author's description: paragraphs of prose, template and test sections removed
    description: tuple[str, ...] = ()

    def paths_of(self, kind: PathKind) -> list[str]:
        return [path for path, k in self.file_kinds.items() if k is kind]

    @property
    def severity(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(self.severity_title + self.severity_body))

    @property
    def removes_user_facing(self) -> bool:
        """Something users name in code, configuration or a command line is gone."""
        return bool(
            self.removed_exports
            or self.env_removed
            or self.flags_removed
            or self.config_keys_removed
            or any(s.name for s, _ in self.renamed_symbols if _exported(s.path))
        )


def _as_written(original: str, lower: str, m: re.Match[str]) -> str:
    """Group 1 of a match on the lower-cased text, in the case its author wrote (`NaN`)."""
    # Lower-casing keeps the length of all but a few letters (`İ`); then the lower case must do.
    return original[m.start(1) : m.end(1)] if len(original) == len(lower) else m.group(1)


def _words(pattern: re.Pattern[str], original: str) -> tuple[str, ...]:
    lower = original.lower()
    found: dict[str, str] = {}
    for m in pattern.finditer(lower):
        # "race with the copy" reads as the symptom "race"
        word = re.sub(r" (?:with|between|on)$", "", _as_written(original, lower, m))
        found.setdefault(word.lower(), word)
    return tuple(found.values())


_SHIPPED = frozenset({PathKind.SOURCE, PathKind.KERNEL, PathKind.PUBLIC_API, PathKind.CONFIG})


def _shipped_source(path: str, kind: PathKind) -> bool:
    """Code the package ships (not tests, docs, CI, build files, scripts or examples)."""
    return kind in _SHIPPED and not _NOT_SHIPPED.search(path)


def _exported(path: str) -> bool:
    """A module users import: the package's `__init__.py`, an API path or a stub file."""
    return path_kind(path) is PathKind.PUBLIC_API or path.endswith("__init__.py")


def _side_of(patch: str, at: int) -> str | None:
    """`+` or `-` for a position on an added or removed line of a patch, else None."""
    sign = patch[patch.rfind("\n", 0, at) + 1 : patch.rfind("\n", 0, at) + 2]
    return sign if sign in ("+", "-") else None


def _diff_signals(files: list[FileChange], shipped: set[str]) -> dict[str, object]:
    added: dict[str, Symbol] = {}
    removed: dict[str, Symbol] = {}
    per_file: dict[str, tuple[list[str], list[str]]] = {}
    exports_added: dict[str, Symbol] = {}
    exports_removed: dict[str, Symbol] = {}
    env_plus: dict[str, str | None] = {}
    env_minus: dict[str, str | None] = {}
    flags_plus: dict[str, str | None] = {}
    flags_minus: dict[str, str | None] = {}
    keys_plus: set[str] = set()
    keys_minus: set[str] = set()
    fields_plus: dict[tuple[str, str], str] = {}
    fields_minus: dict[tuple[str, str], str] = {}
    deprecations: list[str] = []
    new_modules: list[FileChange] = []
    for f in files:
        patch = f.patch
        if not patch or f.filename not in shipped:
            continue
        name = f.filename.rsplit("/", 1)[-1]
        python = name.endswith((".py", ".pyi"))
        side = {"+": (added, exports_added, env_plus, flags_plus, keys_plus, fields_plus)}
        side["-"] = (removed, exports_removed, env_minus, flags_minus, keys_minus, fields_minus)
        # Whole-patch regular expressions, gated by a substring test: most hunks hold none.
        if python and not _PRIVATE_PART.search(f.filename):
            # A new module removes nothing: it is read below only for names moved into it.
            if f.status == "added":
                new_modules.append(f)
            elif "def " in patch or "class " in patch:
                for m in _SYMBOL_LINE.finditer(patch):
                    symbols = side[m.group(1)][0]
                    symbols[m.group(2)] = Symbol(m.group(2), f.filename)
                    where = per_file.setdefault(f.filename, ([], []))
                    where[m.group(1) == "-"].append(m.group(2))
            if name == "__init__.py":
                for m in _CHANGED_LINE.finditer(patch):
                    item = _ALL_ITEM.match(m.group(2))
                    imported = _INIT_IMPORT.match(m.group(2))
                    names = [item.group(1)] if item else []
                    if imported:
                        names += [n.strip() for n in imported.group(1).split(",")]
                    for n in names:
                        if n and not n.startswith("_"):
                            side[m.group(1)][1][n] = Symbol(n, f.filename)
        if "env" in patch:
            for m in _ENV_READ.finditer(patch):
                sign = _side_of(patch, m.start())
                if sign:
                    side[sign][2][m.group(1)] = (m.group(2) or "").strip() or None
            if name.startswith("env"):
                for m in _ENV_TABLE_LINE.finditer(patch):
                    side[m.group(1)][2].setdefault(m.group(2), None)
        if "add_argument" in patch:
            for m in _FLAG.finditer(patch):
                sign = _side_of(patch, m.start())
                if sign:
                    default = _FLAG_DEFAULT.search(m.group(2))
                    side[sign][3][m.group(1)] = default.group(1).strip() if default else None
        if _CONFIGISH.search(name):
            for m in _CONFIG_GET.finditer(patch):
                sign = _side_of(patch, m.start())
                if sign:
                    side[sign][4].add(m.group(1))
            for m in _CONFIG_FIELD_LINE.finditer(patch):
                side[m.group(1)][5][(f.filename, m.group(2))] = m.group(3)
        if "eprecat" in patch or "Warning" in patch or "will be removed" in patch:
            for m in _DEPRECATION.finditer(patch):
                start = patch.rfind("\n", 0, m.start()) + 1
                if patch.startswith("+", start):
                    end = patch.find("\n", m.end())
                    line = patch[start : end if end >= 0 else len(patch)]
                    quoted = _QUOTED.search(line)
                    text = (quoted.group(1) or quoted.group(2)) if quoted else line[1:]
                    deprecations.append(text.strip()[:120])

    gone = [n for n in removed if n not in added]
    if gone and new_modules:
        moved = re.compile(
            r"^\+(?:async\s+def|def|class)\s+(" + "|".join(map(re.escape, gone)) + r")\b",
            re.MULTILINE,
        )
        for f in new_modules:
            for m in moved.finditer(f.patch or ""):
                added[m.group(1)] = Symbol(m.group(1), f.filename)
    renamed: list[tuple[Symbol, Symbol]] = []
    for path, (plus_names, minus_names) in per_file.items():
        gone = [n for n in minus_names if n not in added]
        new = [n for n in plus_names if n not in removed]
        # One public name out and one in, in the same module: a rename.
        if len(gone) == 1 and len(new) == 1:
            renamed.append((Symbol(gone[0], path), Symbol(new[0], path)))
    renamed_names = {old.name for old, _ in renamed} | {new.name for _, new in renamed}
    defaults = [
        DefaultChange(flag, flags_minus[flag] or "", new, "")
        for flag, new in flags_plus.items()
        if flag in flags_minus and new and flags_minus[flag] and new != flags_minus[flag]
    ]
    defaults += [
        DefaultChange(var, env_minus[var] or "", new, "")
        for var, new in env_plus.items()
        if var in env_minus and new and env_minus[var] and new != env_minus[var]
    ]
    defaults += [
        DefaultChange(key[1], fields_minus[key], value, key[0])
        for key, value in fields_plus.items()
        if key in fields_minus and value != fields_minus[key]
    ]
    return {
        "added_symbols": tuple(
            s for n, s in added.items() if n not in removed and n not in renamed_names
        ),
        "removed_symbols": tuple(
            s for n, s in removed.items() if n not in added and n not in renamed_names
        ),
        "renamed_symbols": tuple(renamed),
        "removed_exports": tuple(s for n, s in exports_removed.items() if n not in exports_added),
        "added_exports": tuple(s for n, s in exports_added.items() if n not in exports_removed),
        "env_added": tuple(v for v in env_plus if v not in env_minus),
        "env_removed": tuple(v for v in env_minus if v not in env_plus),
        "flags_added": tuple(v for v in flags_plus if v not in flags_minus),
        "flags_removed": tuple(v for v in flags_minus if v not in flags_plus),
        "config_keys_removed": tuple(sorted(keys_minus - keys_plus)),
        "defaults_changed": tuple(defaults[:4]),
        "deprecations": tuple(dict.fromkeys(deprecations))[:3],
    }


def _narrowed(title: ParsedTitle) -> str | None:
    for tag in title.tags:
        if tag.replace(" ", "") in _PLATFORM_TAGS or _MODEL_TAG.match(tag.replace(" ", "")):
            return tag
    phrase = _NARROW_PHRASE.search(title.text)
    return phrase.group(0) if phrase else None


def read_signals(commit: CommitInput) -> Signals:
    """The evidence in one commit: its title, description, labels and diff."""
    title = parse_title(commit.title)
    pr = commit.pull_request
    paragraphs = description_paragraphs(pr.body if pr and pr.body else "", commit.body)
    description = "\n".join(paragraphs)
    whole_body = f"{pr.body if pr else ''}\n{commit.body}"
    files = commit.files
    file_kinds = {f.filename: path_kind(f.filename) for f in files}
    line_kinds: Counter[PathKind] = Counter()
    for f in files:
        line_kinds[file_kinds[f.filename]] += max(1, f.changes)
    kinds = set(file_kinds.values())
    only: PathKind | None = None
    for quiet in (PathKind.DOCS, PathKind.TESTS, PathKind.CI):
        if (
            files
            and kinds <= {quiet, PathKind.DOCS, PathKind.TESTS, PathKind.CI}
            and quiet in kinds
        ):
            only = quiet
            break
    # Without a file list, a benchmark tag or title says where the change lands.
    if not files and (
        any(tag in ("bench", "benchmark", "benchmarks") for tag in title.tags)
        or _BENCH_TITLE.search(title.text.lower())
    ):
        only = PathKind.TESTS
    source = [f for f in files if _shipped_source(f.filename, file_kinds[f.filename])]
    experimental = tuple(f.filename for f in source if _EXPERIMENTAL.search(f.filename))
    reverting = title.revert or "revert" in title.tags
    reverted = _REVERTED_TITLE.search(title.text) if reverting else None
    # An example, a tutorial or a test of a capability is not the capability.
    capability = (
        _CAPABILITY.search(title.text)
        if _ADDING.search(title.text) and not _NOT_CAPABILITY.search(title.text)
        else None
    )
    labels = tuple(pr.labels) if pr else ()
    title_lower = title.text.lower()
    labels_lower = [label.lower() for label in labels]
    stated = f"{title.text}\n{description}"
    impact = _IMPACT.search(stated.lower())
    body_lower = whole_body.lower()
    perf = _perf_number(f"{title.text}\n{whole_body[:8000]}")
    return Signals(
        title=title,
        # A maintainer's label ("security", "critical", "data-loss") counts like the title.
        severity_title=_words(_SEVERITY, title.text)
        + tuple(label for label in labels_lower if _SEVERE_LABEL.search(label)),
        severity_body=_words(_SEVERITY, description),
        impact=" ".join(_as_written(stated, stated.lower(), impact).split()) if impact else None,
        fixes=tuple(
            dict.fromkeys(int(n) for n in _FIXES.findall(f"{commit.title.lower()}\n{body_lower}"))
        ),
        perf_number=perf,
        by_default=bool(_BY_DEFAULT.search(title_lower)) and not _NEW_THING.search(title_lower),
        series=bool(_SERIES.search(commit.title)),
        reland=bool(_RELAND.match(title.text)),
        reverted_title=parse_title(reverted.group(1)).text if reverted else None,
        capability=capability.group(1) if capability else None,
        narrowed_by=_narrowed(title),
        experimental=experimental if experimental and len(experimental) == len(source) else (),
        only=only,
        source_lines=sum(f.changes for f in source),
        test_files=sum(k is PathKind.TESTS for k in file_kinds.values()),
        source_files=tuple(f.filename for f in source),
        new_modules=tuple(
            f.filename
            for f in source
            if f.status == "added" and not f.filename.rsplit("/", 1)[-1].startswith("__")
        ),
        labels=labels,
        file_kinds=file_kinds,
        line_kinds=line_kinds,
        description=tuple(paragraphs),
        **_diff_signals(files, {f.filename for f in source}),  # type: ignore[arg-type]
    )
