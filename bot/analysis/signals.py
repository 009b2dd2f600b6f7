"""Evidence of what a commit does and whom it affects, read from its text and its facts. Pure.

Every signal keeps the fact it rests on (a word, an identifier, a path, a number), so the
rules can say why they rated a commit as they did and name that fact in the digest. The diff
is read once, by `bot/analysis/facts`: this module reads the title and description, and
views those facts as the rules need them.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from bot.analysis.facts import (
    Constant,
    ConstantRenamed,
    DefaultChange,
    Facts,
    Name,
    NumberKind,
    Reexport,
    Renamed,
    read_facts,
)
from bot.analysis.facts.annotated import quiet_classes
from bot.analysis.facts.layout import layout_only, same_code, typing_only
from bot.analysis.facts.parses import Parses
from bot.analysis.facts.records import IgnoredSetting
from bot.analysis.families import model_family
from bot.analysis.fragments import (
    Fragment,
    fragment_entry,
    fragments,
    without_bot_lines,
)
from bot.analysis.hardware import mentions
from bot.analysis.messages import (
    RELEASE_ITEMS,
    ReleaseNotes,
    changelog_entry,
    description_paragraphs,
    first_commit,
    flattened,
    housekeeping,
    is_changelog,
    release_notes,
    squash_description,
    without_squash_log,
    without_steps,
)
from bot.analysis.paths import PathKind, path_kind, ships
from bot.analysis.titles import ParsedTitle, keeps_records, parse_title
from bot.analysis.versions import (
    Opening,
    Release,
    opening_of,
    release_of,
    same_version,
    sets_version_only,
)
from bot.models import Carried, CommitInput, FileChange, LastRelease

# Symptoms a reader must know about (the rubric's "silent wrong results, data corruption,
# NaNs, crashes, deadlocks, hangs, memory-safety bugs, security"), by the word that shows them.
_SEVERITY = re.compile(
    r"\b(corrupt\w*|wrong (?:results?|outputs?|answers?|tokens?)|incorrect (?:results?|outputs?)"
    r"|garbled|garbage (?:output|tokens?)|nans?|crash\w*|segfault\w*|segmentation fault"
    r"|deadlock\w*|hangs?|hanging|hung|stuck|freez\w+|race conditions?|data races?"
    r"|out[- ]of[- ]bounds|buffer overflow|use[- ]after[- ]free|illegal memory access"
    # (what "leaks into" a key or a scope got there: no leak of memory or data)
    r"|memory leaks?|leak(?:s|ing|ed)?(?! into\b)|vulnerab\w+|cve-\d{4}-\d+"
    # a security flaw named, not the word "security" ("security docs", "security words")
    r"|security (?:issues?|bugs?|flaws?|holes?|problems?|vulnerabilit(?:y|ies))"
    r"|xss|csrf|ssrf|open redirects?"
    # a GitHub security advisory's id
    r"|ghsa(?:-[23456789cfghjmpqrvwx]{4}){3}"
    # a regression of behaviour, not a performance or CI one, nor a regression test
    r"|(?<!performance )(?<!perf )(?<!ci )(?<!test )regression"
    r"(?! (?:tests?|coverage|suites?|checks?|testing))|races? (?:with|between|on)"
    r"|silently (?:drop\w*|ignor\w*|skip\w*|discard\w*|los\w+|overwrit\w+|truncat\w+"
    r"|corrupt\w*|produc\w+ wrong|returns? wrong|break\w*|accept\w*|succeed\w*)"
    r"|silent (?:data loss|corruption|failures?)"
    # a wrong value shown: "`bytes2human(1024)` returned '1024B' instead of '1K'"
    r"|returned [^.\n]{1,60}? instead of"
    # what the old code silently did in place of failing: "reject overlong decimal integer
    # instead of coercing to inf", "raise on malformed array element instead of dropping it"
    r"|instead of (?:silently )?(?:coerc|drop|truncat|discard|swallow|los)\w*"
    r"|wrong values?|incorrect (?:values?|answers?)"
    r"|(?:script|command|code|sql|shell|prompt|header|crlf|html|template) injection"
    r"|(?:request|http) smuggling|response splitting|server[- ]side request forgery"
    # named classes of vulnerability (CWE-22, CWE-94/502)
    r"|path traversal|arbitrary (?:code|file|command) (?:execution|writes?|overwrites?)"
    r"|execut\w* arbitrary (?:code|commands?)|remote code execution"
    r"|(?:accuracy|precision|correctness) regressions?"
    r"|accuracy (?:drop|degradation|issues?|bugs?|problems?|errors?)"
    r"|precision (?:issues?|bugs?|problems?|errors?|loss))\b",
)
# The severity words that say the old code gave a wrong value or lost data without a word:
# the rubric's "silent wrong results, data corruption". A fix that names one in its title
# needs no further word on its reach (a parser's wrong value is met wherever it parses).
SILENT_WORDS = re.compile(
    r"silent|returned .* instead of|instead of (?:silently )?(?:coerc|drop|truncat|discard"
    r"|swallow|los)|wrong values?|incorrect (?:values?|answers?)",
    re.IGNORECASE,
)
# A default that changes; a new thing that comes with a default ("provide X ... by default")
# changes nobody's behaviour, so adding verbs are left out.
_BY_DEFAULT = re.compile(
    r"\b(?:(?:enable|disable|turn (?:on|off)|switch|use|don't use|do not use|stop)\w*\b.{0,60}"
    r"\bby default|default (?:to|changed?|value)|change\w* (?:the )?default)\b",
)
_NEW_THING = re.compile(r"\b(add\w*|provide\w*|introduc\w+|new|implement\w*)\b")
_SERIES = re.compile(r"\[?\b\d{1,2}\s*/\s*(?:\d{1,2}|n)\b\]?", re.IGNORECASE)
_BENCH_TITLE = re.compile(r"\bbench(?:mark\w*)?\b")
# A new capability the rubric names: a backend, a kernel family, hardware, a data type.
_CAPABILITY = re.compile(
    r"\b(backends?|kernels?|operators?|ops|(?:fp|int|uint|bf)\d{1,2}|nvfp4|mxfp\d|w\d+a\d+"
    r"|quantization (?:method|scheme)s?|hardware|platform|device|sm\d{2,3})\b",
    re.IGNORECASE,
)
# The severity words that name a vulnerability: a class of it, or a published advisory's id.
SECURITY_WORDS = re.compile(
    r"security \w|vulnerab|cve-|ghsa-|xss|csrf|ssrf|open redirect|\w+ injection|path traversal"
    r"|smuggling|response splitting|request forgery"
    r"|arbitrary (?:code|file|command)|execut\w* arbitrary|remote code execution",
    re.IGNORECASE,
)
ADVISORY_WORD = re.compile(r"cve-|ghsa-", re.IGNORECASE)
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
# Hardware, platforms and model families a path or title confines a change to: SM
# architectures, gfx targets, ROCm and the other back ends, one Ascend chip (the table of
# chips and generations is `hardware.py`).
# In a title only the unambiguous names count ("CPU overhead" is no platform); a path's
# folder or module named for a back end (`platforms/xpu.py`, `ops/rocm/`) counts too.
_HARDWARE_WORD = re.compile(
    r"(?<![a-z0-9])(sm_?\d{2,3}[a-z]?|gfx\d{3,4}[a-z]?|rocm|hopper|blackwell|ampere|310p"
    r"|ascend ?950)(?![a-z0-9])",
    re.IGNORECASE,
)
_BACKEND_PART = re.compile(r"(?:^|/)(xpu|tpu|hpu|hip|mps|neuron|gaudi)(?:/|_|\.py$)")
# A model's own module or folder (`models/qwen3.py`, `models/deepseek_v2/`); the shared files
# of a models package are no model's.
_MODEL_PATH = re.compile(r"(?:^|/)models?/(?P<name>[^/]+?)(?:\.py|/)")
_SHARED_MODEL_FILES = frozenset(
    {"__init__", "registry", "utils", "interfaces", "base", "config", "adapters", "loader"}
    | {"module_mapping", "interfaces_base", "vision", "transformers", "common"}
)
# The author saying a symptom does no harm: "outputs are unaffected", "no impact on accuracy".
_HARMLESS = re.compile(
    r"\b(?:(?:does not|doesn't|do not|don't|will not|won't|no|without)\s+(?:\w+\s+)?"
    r"(?:affect|impact|change)\w*\s+(?:on\s+)?(?:the\s+)?(?:outputs?|results?|accuracy"
    r"|correctness)|(?:outputs?|results?|accuracy)\s+(?:are|is|remains?|stays?)\s+"
    r"(?:unaffected|unchanged|correct|the same)|harmless|benign)\b",
    re.IGNORECASE,
)
_EXPERIMENTAL = re.compile(r"(^|/)(experimental|contrib|prototype|incubator|sandbox)(/|_)")
_PRIVATE_PART = re.compile(r"(^|/)_(?!_init__\.py$)[^/]*")
# A member named in upper case (`Paths.CACHE_DIR`): a constant, not a setting's default.
_CONSTANT = re.compile(r"\.[A-Z][A-Z0-9_]*$")
_CONFIG_MODULE = re.compile(r"config|args|envs?|settings|options", re.IGNORECASE)
# What a severity word in it does not describe: code, quotations, test and other identifiers,
# and enumerations in brackets ("LLM faults (invalid, cut, 503, hang, injection)").
NOT_PROSE = re.compile(
    r"`[^`]*`|\"[^\"]*\"|“[^”]*”|\b\w*_\w*\b|\btests?\s+\w+"
    r"|\((?:[^(),]{1,30},){2,}[^(),]{1,30}\)"
)
# A list of topics (three or more short items) names what a change covers, not a symptom it
# fixes, unless a verb of fixing governs it: "Reliability: fuzz, load, crashes, faults".
_TOPICS = re.compile(
    r"(?:[\w./+-]+(?: [\w./+-]+){0,2}, ){2,}(?:and |or )?[\w./+-]+(?: [\w./+-]+){0,2}"
)
_FIXING = re.compile(
    r"\b(?:fix\w*|resolv\w*|prevent\w*|avoid\w*|repair\w*|address\w*|handl\w*)\b", re.I
)


@dataclass(frozen=True)
class Signals:
    """What the rules know about a commit; each item names the fact it rests on."""

    title: ParsedTitle
    # severity words in the title, and in the description (template and test sections removed)
    severity_title: tuple[str, ...] = ()
    severity_body: tuple[str, ...] = ()
    by_default: bool = False
    # part k of a series of pull requests ("[2/N]")
    series: bool = False
    reland: bool = False
    # the subject of the change a revert takes out, or a reland lands again
    reverted_title: str | None = None
    relanded_title: str | None = None
    capability: str | None = None
    # the platform tag, model tag or hedge that confines the change, if any
    narrowed_by: str | None = None
    # the one hardware generation, platform or model family the title or every shipped file
    # confines the change to (a hedge like "when X" aside)
    confined_to: str | None = None
    # the author says the symptom leaves outputs unaffected
    harmless: bool = False
    experimental: tuple[str, ...] = ()
    # only these kinds of files change (docs, tests, ci); None when source changes too
    only: PathKind | None = None
    # changed lines of shipped files, those whose change is only layout aside
    source_lines: int = 0
    # shipped files whose change is only layout: the same tokens, comments aside
    layout_only: tuple[str, ...] = ()
    test_files: int = 0
    source_files: tuple[str, ...] = ()
    labels: tuple[str, ...] = field(default_factory=tuple)
    # each changed path's kind, and changed lines per kind (a file without counts is one)
    file_kinds: Mapping[str, PathKind] = field(default_factory=dict)
    line_kinds: Counter[PathKind] = field(default_factory=Counter)
    # the author's description: paragraphs of prose, template and test sections removed; the
    # same with each list item on a line of its own
    description: tuple[str, ...] = ()
    description_items: tuple[str, ...] = ()
    # a squashed branch a later step turned another way ("* fix: throw type error instead of
    # casting to str" after "* Fix: accept ints as keys"): no step's words, nor a fact read
    # from the code, say what it came to better than the title (`messages.first_commit`)
    turned: bool = False
    # the news fragments the commit adds (or, where the message is its title alone, the
    # entry it adds to its changelog), read like `description_items`
    entry_items: tuple[str, ...] = ()
    # `entry_items` is the one item the commit adds to its changelog (not a news fragment):
    # the author's own words of what users get, the summary before any line of the message
    entry_single: bool = False
    # the advisory ids (GHSA-…, CVE-…) the commit's message or pull request names, or the
    # entry it adds to its own changelog where that entry is its description; none where
    # that text calls the package unaffected
    advisories: tuple[str, ...] = ()
    # the towncrier fragments the commit adds (`CHANGES/1632.bugfix.rst`)
    fragments: tuple[Fragment, ...] = ()
    # the author's sentences (title, description, news fragments) that say a secret —
    # cookies, credentials, an auth header or token — reached another origin or host
    exposures: tuple[str, ...] = ()
    # the items of the release section the commit adds to its changelog, when many or
    # notable (a short one that is the description already is not said again)
    release: ReleaseNotes | None = None
    # the version the commit releases (`versions.py`): a version file's or the changelog's
    released: Release | None = None
    # the version whose work the commit opens, where setting its development version and
    # opening its changelog section is all the commit does (`versions.opening_of`)
    opened: Opening | None = None
    # the author says the package is not vulnerable ("not actually vulnerable, but …")
    unaffected: bool = False
    # what the change holds (`bot/analysis/facts`)
    facts: Facts = field(default_factory=Facts)
    # the last release before the commit, where a clone told it (`bot/analysis/unreleased.py`)
    last_release: LastRelease | None = None
    # for a release, what it ships since the last one, where a clone told it
    carried: Carried | None = None
    # the commit's settings and workflow files parsed, for the rules that read them again
    parses: Parses = field(default_factory=Parses, compare=False, repr=False)
    # every shipped Python file changes only what a type checker reads (`annotations_only`):
    # the type aliases it binds or drops; None where that is not proven
    typing_only: tuple[str, ...] | None = None

    @property
    def severity(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(self.severity_title + self.severity_body))

    @property
    def fixes(self) -> tuple[int, ...]:
        return self.facts.fixes

    @property
    def impact(self) -> str | None:
        """How many the author says are affected ("94 % of requests")."""
        return next((n.text for n in self.facts.numbers if n.kind is NumberKind.REACH), None)

    @property
    def perf_number(self) -> str | None:
        """A measured performance change, as written ("2.3x faster", "TPOT -12%")."""
        return next((n.text for n in self.facts.numbers if n.kind is not NumberKind.REACH), None)

    @property
    def perf_size(self) -> float | None:
        """The largest measured change the author states, as a percentage gain (2x: 100)."""
        sizes = [
            _size(n.text, n.kind) for n in self.facts.numbers if n.kind is not NumberKind.REACH
        ]
        known = [s for s in sizes if s is not None]
        return max(known) if known else None

    def _shipped(self, names: tuple[Name, ...]) -> tuple[Name, ...]:
        """Public top-level names of shipped, non-private modules."""
        return tuple(
            n
            for n in names
            if n.public
            and "." not in n.name
            and "::" not in n.name
            and n.path in self.source_files
            and not _PRIVATE_PART.search(n.path)
        )

    @property
    def removed_symbols(self) -> tuple[Name, ...]:
        return self._shipped(self.facts.removed)

    @property
    def renamed_symbols(self) -> tuple[Renamed, ...]:
        return tuple(r for r in self.facts.renamed if self._shipped((r.old,)))

    @property
    def removed_constants(self) -> tuple[Constant, ...]:
        """Public constants of shipped, non-private modules that no changed file binds any
        more."""
        return tuple(c for c in self.facts.constants_removed if self.constant_shipped(c.path))

    @property
    def ignored_settings(self) -> tuple[IgnoredSetting, ...]:
        """Public module settings of shipped, non-private modules that no shipped code read
        whole reads any more (`facts.ignored`)."""
        return tuple(s for s in self.facts.settings_ignored if self.constant_shipped(s.path))

    @property
    def renamed_constants(self) -> tuple[ConstantRenamed, ...]:
        return tuple(c for c in self.facts.constants_renamed if self.constant_shipped(c.path))

    def constant_shipped(self, path: str) -> bool:
        return path in self.source_files and not _PRIVATE_PART.search(path)

    @property
    def defaults_kept_only(self) -> bool:
        """The defaults the change gives parameters all stand for their old values where
        nothing else is set: what the title calls a new default changes no caller's run."""
        return bool(self.facts.defaults_kept) and not self.defaults_changed

    @property
    def removed_exports(self) -> tuple[Name, ...]:
        return tuple(n for n in self.facts.exports_removed if _exported_by(n.path))

    @property
    def dropped_reexports(self) -> tuple[Reexport, ...]:
        """Names a shipped, non-private module stops re-exporting, still defined elsewhere."""
        return tuple(r for r in self.facts.reexports_dropped if _exported_by(r.path))

    @property
    def added_exports(self) -> tuple[Name, ...]:
        return tuple(n for n in self.facts.exports_added if _exported_by(n.path))

    @property
    def new_modules(self) -> tuple[str, ...]:
        """Shipped code files the change adds (not package markers like `__init__.py`)."""
        return tuple(
            f.path
            for f in self.facts.files
            if f.status == "added"
            and f.path in self.source_files
            and not f.path.rsplit("/", 1)[-1].startswith("__")
        )

    @property
    def env_removed(self) -> tuple[str, ...]:
        return tuple(s.name for s in self.facts.env_removed)

    @property
    def flags_removed(self) -> tuple[str, ...]:
        return tuple(s.name for s in self.facts.flags_removed)

    @property
    def config_keys_removed(self) -> tuple[str, ...]:
        """Keys a configuration module stops reading (a key one call site stops asking
        for elsewhere is not yet a key users lose)."""
        return tuple(
            s.name
            for s in self.facts.config_keys_removed
            if _CONFIG_MODULE.search(s.path.rsplit("/", 1)[-1])
        )

    @property
    def defaults_changed(self) -> tuple[DefaultChange, ...]:
        """Defaults a user may rely on; a class's upper-case field (`ArtifactPath.GEMM`) is
        a constant by Python's convention, its new value no default of anyone's."""
        kept = [d for d in self.facts.defaults_changed if not _CONSTANT.search(d.name)]
        # bounded by changes, not by functions: one parameter's new default in four methods
        # is one change, said once
        shown = list(dict.fromkeys(d.same_change for d in kept))[:4]
        return tuple(d for d in kept if d.same_change in shown)

    @property
    def deprecations(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(d.text for d in self.facts.deprecations))[:3]


def _as_written(original: str, lower: str, m: re.Match[str]) -> str:
    """Group 1 of a match on the lower-cased text, in the case its author wrote (`NaN`)."""
    # Lower-casing keeps the length of all but a few letters (`İ`); then the lower case must do.
    return original[m.start(1) : m.end(1)] if len(original) == len(lower) else m.group(1)


def _words(pattern: re.Pattern[str], text: str) -> tuple[str, ...]:
    """The pattern's words where they describe the change: not in code spans, quotations,
    identifiers or test names (`test_crash_on_empty`)."""
    original = NOT_PROSE.sub(" ", text)
    lower = original.lower()
    found: dict[str, str] = {}
    for m in pattern.finditer(lower):
        # "race with the copy" reads as the symptom "race"
        word = re.sub(r" (?:with|between|on)$", "", _as_written(original, lower, m))
        found.setdefault(word.lower(), word)
    return tuple(found.values())


def _exported_by(path: str) -> bool:
    """A shipped package's `__init__.py`, not under a private part."""
    return ships(path) and not _PRIVATE_PART.search(path)


def _size(text: str, kind: NumberKind) -> float | None:
    m = re.search(r"\d+(?:\.\d+)?", text)
    if m is None:
        return None
    value = float(m.group(0))
    return (value - 1) * 100 if kind is NumberKind.SPEEDUP else value


def _confined(title: ParsedTitle, source: list[str]) -> str | None:
    """The one hardware generation, platform or model family the change is confined to: a
    platform or model tag, hardware or a model family the title names (`families.py`), or a
    scope every shipped file shares."""
    for tag in title.tags:
        if tag.replace(" ", "") in _PLATFORM_TAGS or _MODEL_TAG.match(tag.replace(" ", "")):
            return tag
    named = mentions(title.text)
    if named:
        return named[0].text
    family = model_family(title.text)
    if family:
        return family
    word = _HARDWARE_WORD.search(title.text)
    if word:
        return word.group(1)
    scopes = {_path_scope(path) for path in source}
    if len(scopes) == 1:
        return scopes.pop()
    return None


def _path_scope(path: str) -> str | None:
    word = _HARDWARE_WORD.search(path.replace("/", " ").replace("_", " ").replace(".", " "))
    if word:
        return word.group(1).lower()
    backend = _BACKEND_PART.search(path.lower())
    if backend:
        return backend.group(1)
    model = _MODEL_PATH.search(path)
    if model and model.group("name") not in _SHARED_MODEL_FILES:
        return f"models/{model.group('name')}"
    return None


def _narrowed(title: ParsedTitle) -> str | None:
    phrase = _NARROW_PHRASE.search(title.text)
    return phrase.group(0) if phrase else None


# "acme is not affected by CVE-…": an advisory named to say it does not apply
_UNAFFECTED = re.compile(
    r"\b(?:(?:not|never)\s+(?:\w+\s+)?|un-?)(?:affected|vulnerable|impacted|exploitable)\b", re.I
)
# A secret the client holds: cookies, credentials, passwords, an auth header or token, a key.
# ("tokens" alone are a model's; "session" alone is a connection)
_SECRET = re.compile(
    r"\b(?:cookies?|credentials?|passwords?|secrets?|api[- ]keys?|private keys?"
    r"|(?:api|access|auth\w*|bearer|session|refresh|oauth|csrf|secret) tokens?"
    r"|(?:proxy-)?authori[sz]ation(?: headers?)?|auth(?:entication)? headers?|basic auth\w*"
    r"|digest (?:auth\w*|responses?))\b",
    re.IGNORECASE,
)
# Where a secret must not go: another origin, host or site, or out at all ("leaked"). A leak
# of memory, a resource or a connection is no disclosure.
_ELSEWHERE = re.compile(
    r"\b(?:cross[- ](?:origin|site|domain|host)s?"
    r"|(?:another|a different|different|other|foreign|untrusted|third[- ]party|unrelated"
    r"|arbitrary|the wrong) (?:origins?|hosts?|domains?|sites?|servers?|proxy|proxies)"
    r"|(?<!memory )(?<!memory-)(?<!resource )(?<!fd )(?<!socket )(?<!connection )(?<!thread )"
    r"(?<!file )(?<!handle )(?<!descriptor )leak(?:s|ed|ing|age)?"
    # (what leaks there is a resource: "leaked file descriptor when loading credentials")
    r"(?! into\b)(?! (?:file|fd|descriptor|handle|memory|socket|connection|thread)s?\b)"
    r"|disclos\w+)\b",
    re.IGNORECASE,
)
# Words before a leak that name the category, not an event: "… is no leak of it", "not a
# leak", "counts as a leak", and the words of code that looks for leaks ("detect leaks",
# "flag a disclosure"): an analyser's rule, not a secret that went anywhere.
_NAMED_ONLY = re.compile(
    r"\b(?:(?:is|are|was|were|be|being|isn't|aren't)\s+(?:no|not an?|never an?)|as an?"
    r"|(?:detect|flag|find|catch|spot|report|look)\w*(?: for)?(?: an?| the)?)\s+$",
    re.IGNORECASE,
)
# ... and after one: "the leak rule", "leak detection", "leak checks"
_ABOUT_LEAKS = re.compile(
    r"\s+(?:rules?|detect\w*|checks?|checkers?|heuristics?|scann\w*|finders?|patterns?)\b",
    re.IGNORECASE,
)
_SENTENCE_END = re.compile(r"(?<=[.;!?])\s+|\n+")


def _prose_of(sentence: str) -> str:
    prose = re.sub(r"`+([^`]*)`+", r"\1", sentence)
    prose = re.sub(r":\w+:(?=~?\w)", "", prose).replace("~", "")
    return re.sub(r"\btest_\w+|\"[^\"]*\"|“[^”]*”", " ", prose)


def exposure_words(sentence: str) -> str:
    """The words of an exposure sentence from the secret to where it went ("cookies not
    being dropped on cross-origin redirects")."""
    prose = " ".join(_prose_of(sentence).split())
    pairs = [
        (max(a.start(), b.start()) - min(a.end(), b.end()), a, b)
        for a in _SECRET.finditer(prose)
        for b in _ELSEWHERE.finditer(prose)
    ]
    if not pairs:
        return prose
    # the secret nearest to where it went
    _, secret, elsewhere = min(pairs, key=lambda pair: pair[0])
    start, end = min(secret.start(), elsewhere.start()), max(secret.end(), elsewhere.end())
    # ("cross-origin" qualifies the word after it: "cross-origin redirects")
    adjective = elsewhere.end() == end and elsewhere.group(0).lower().startswith("cross")
    tail = re.match(r"[\w-]*(?: [\w-]+)?" if adjective else r"[\w-]*", prose[end:])
    return prose[start : end + (tail.end() if tail else 0)].strip(" ,;")


def _exposures(texts: Iterable[str]) -> tuple[str, ...]:
    """The author's sentences that say a secret (cookies, credentials, an auth header) went,
    or now no longer goes, to another origin or host: "Fixed per-request ``cookies`` not
    being dropped on cross-origin redirects". Code spans are read as words (`cookies` is the
    secret named); test names and quotations are not prose."""
    found: dict[str, None] = {}
    for text in texts:
        for sentence in _SENTENCE_END.split(text):
            prose = _prose_of(sentence)
            places = list(_ELSEWHERE.finditer(prose)) if _SECRET.search(prose) else []
            if (
                places
                # a sentence that says what a leak is, or how one is found, tells none
                and not any(
                    _NAMED_ONLY.search(prose[max(0, m.start() - 60) : m.start()])
                    or _ABOUT_LEAKS.match(prose[m.end() :])
                    for m in places
                )
            ):
                found.setdefault(" ".join(sentence.split()), None)
    return tuple(found)


# where a dependency bump starts quoting its dependency (Dependabot, Renovate)
_QUOTED_NOTES = re.compile(
    r"^\s*(?:<details>|<summary>|(?:#+\s*)?(?:release notes|changelog|commits)\s*$)", re.I | re.M
)
# an advisory's id in prose, a link to it included (`…/advisories/GHSA-vqfr-h8mv-ghfj`)
_ADVISORY_WORD = re.compile(r"\b(ghsa(?:-[23456789cfghjmpqrvwx]{4}){3}|cve-\d{4}-\d+)\b")


def _advisories(text: str) -> tuple[str, ...]:
    """The advisory ids the author's text names in its prose (a squash's log and a link
    included; an example in code or an enumeration is not one), unless it says the package
    is not affected. A bump's quoted release notes are its dependency's words, not the
    author's (Dependabot's "Release notes", "Changelog", "Commits")."""
    quoted = _QUOTED_NOTES.search(text)
    text = text[: quoted.start()] if quoted else text
    if _UNAFFECTED.search(text):
        return ()
    return tuple(w.upper() for w in _words(_ADVISORY_WORD, text))


def _echoes(paragraph: str, title: str) -> bool:
    """Whether a paragraph only says the title again (a squash's body, a merge's subject)."""

    def words(text: str) -> list[str]:
        return re.findall(r"[a-z0-9]+", re.sub(r"\(#\d+\)", "", text.lower()))

    return words(paragraph) == words(title)


def read_signals(
    commit: CommitInput, facts: Facts | None = None, parses: Parses | None = None
) -> Signals:
    """The evidence in one commit: its title, description, labels and facts (read here
    unless given); `parses`: its settings files parsed where `facts` were read (`parses.py`),
    else a new one its readers share."""
    parses = Parses() if parses is None else parses
    title = parse_title(commit.title)
    pr = commit.pull_request
    # a bot's lines (pre-commit.ci's "auto fixes", dependabot's options) are no one's words
    body = without_squash_log(without_bot_lines(commit.body), commit.title)
    pr_body = without_bot_lines(pr.body) if pr and pr.body else ""
    items = description_paragraphs(pr_body, body, items=True)
    changelog = ""
    added = fragments(commit.files, parses)
    # a squashed branch's later steps (a reverted try, "ref <link>") are no description
    raw = without_bot_lines(commit.body)
    own = description_paragraphs(pr_body, squash_description(raw, commit.title), items=True)
    # the news fragment or changelog entry the commit adds (yarl's `CHANGES/1632.bugfix.rst`,
    # structlog 79032b3's CHANGELOG.md item) is its author's words for users whatever the
    # message says besides (a template, a squash's steps): the summary weighs the two
    news = fragment_entry(added)
    # (an entry that is all the commit changes tells an older change: pytest-asyncio
    # 9fd64da's note added under a released version)
    beside = any(not is_changelog(f.filename) for f in commit.files)
    # (nor is the entry of a commit that says it only updates the records the description of
    # what else it changes: sqlparse 4ad66a7's "Update Changelog and authors." beside a line
    # of code)
    records = beside and keeps_records(commit.title)
    beside = beside and not records
    written = news or (changelog_entry(commit.files) if beside else "")
    entry_items = description_paragraphs(written, items=True) if written else []
    if all(_echoes(p, commit.title) for p in own) and not records:
        # No words of the author's but the title: the entry the commit adds to its
        # changelog says what it does (quart 8a0e4c4's "Fix signing key selection order …"),
        # or the fragment
        entry = changelog_entry(commit.files) or news
        if entry:
            items = entry_items = description_paragraphs(entry, items=True)
            changelog = entry
    if not any(housekeeping(t) for t in (title.text, *title.tags)):
        # (a refactor's items are what it does: vllm-ascend #5437's "Refactor eagle and mtp …")
        items = [without_steps(p) for p in items]
    paragraphs = [flattened(p) for p in items]
    released = release_of(commit.files, commit.title) if commit.files_known else None
    if commit.tagged and (released is None or not same_version(released.version, commit.tagged)):
        # a final version's tag points at the commit (offline, a clone's): it is that
        # release, whatever its diff holds (glom 649d643 "write changelog" is v23.1.0)
        released = Release(commit.tagged, None, "")
    # a commit that only sets a development version and opens its changelog section (wrapt
    # fde75dc): the section's items are that version's, no change of its own
    opened = (
        opening_of(commit.files)
        if released is None
        and commit.files_known
        and all(is_changelog(f.filename) or sets_version_only(f) for f in commit.files)
        else None
    )
    # (a release's notes are read however few: they are what the release brings)
    release = release_notes(commit.files, least=1 if released or opened else RELEASE_ITEMS)
    # the summary is read from a squashed branch's first commit only
    first = first_commit(body)
    if not changelog and body != raw:
        # a squash's log: its later steps are dropped whole, their texts too (with the
        # one-line steps cut from `body`, trio f9fdeb7's later "* Revert changes to … /
        # Apparently already being handled in #2756" had read as its first commit)
        logged = squash_description(raw, commit.title, logged=True)
        items = description_paragraphs(pr_body, logged, items=True)
    elif not changelog and first != body:
        items = description_paragraphs(pr_body, first, items=True)
    files = commit.files
    file_kinds = {f.filename: path_kind(f.filename) for f in files}
    line_kinds: Counter[PathKind] = Counter()
    for f in files:
        line_kinds[file_kinds[f.filename]] += max(1, f.changes)
    kinds = set(file_kinds.values())
    only: PathKind | None = None
    # Docs, tests, CI and licences reach no user's running code (a licence reads as docs).
    quiet_kinds = {PathKind.DOCS, PathKind.TESTS, PathKind.CI, PathKind.LEGAL}
    for quiet in (PathKind.DOCS, PathKind.TESTS, PathKind.CI):
        if files and kinds <= quiet_kinds and (quiet in kinds or kinds == {PathKind.LEGAL}):
            only = quiet
            break
    # Without a file list, a benchmark tag or title says where the change lands.
    if not files and (
        any(tag in ("bench", "benchmark", "benchmarks") for tag in title.tags)
        or _BENCH_TITLE.search(title.text.lower())
    ):
        only = PathKind.TESTS
    source = [f for f in files if ships(f.filename, file_kinds[f.filename])]
    layout = tuple(f.filename for f in source if layout_only(f))
    experimental = tuple(f.filename for f in source if _EXPERIMENTAL.search(f.filename))
    # An example, a tutorial or a test of a capability is not the capability.
    capability = (
        _CAPABILITY.search(title.text)
        if _ADDING.search(title.text) and not _NOT_CAPABILITY.search(title.text)
        else None
    )
    labels = tuple(pr.labels) if pr else ()
    confined = _confined(title, [f.filename for f in source])
    title_lower = title.text.lower()
    labels_lower = [label.lower() for label in labels]
    facts = facts or read_facts(commit, parses)
    return Signals(
        title=title,
        # A maintainer's label ("security", "critical", "data-loss") counts like the title.
        severity_title=_words(
            _SEVERITY,
            title.text if _FIXING.search(title.text) else _TOPICS.sub(" ", title.text),
        )
        + tuple(label for label in labels_lower if _SEVERE_LABEL.search(label)),
        # In a description "regression" is mostly a test or a kind of bug, not the symptom;
        # the symptom itself (a crash, a wrong result) is what counts there.
        severity_body=tuple(
            w for w in _words(_SEVERITY, "\n".join(paragraphs)) if w.lower() != "regression"
        ),
        by_default=bool(_BY_DEFAULT.search(title_lower)) and not _NEW_THING.search(title_lower),
        series=bool(_SERIES.search(commit.title)),
        reland=title.reland,
        reverted_title=parse_title(title.reverted).text if title.reverted else None,
        relanded_title=parse_title(title.relanded).text if title.relanded else None,
        capability=capability.group(1) if capability else None,
        narrowed_by=confined or _narrowed(title),
        confined_to=confined,
        harmless=bool(_HARMLESS.search("\n".join(paragraphs))),
        experimental=experimental if experimental and len(experimental) == len(source) else (),
        only=only,
        source_lines=sum(f.changes for f in source if f.filename not in layout),
        layout_only=layout,
        test_files=sum(k is PathKind.TESTS for k in file_kinds.values()),
        source_files=tuple(f.filename for f in source),
        labels=labels,
        file_kinds=file_kinds,
        line_kinds=line_kinds,
        description=tuple(paragraphs),
        advisories=_advisories(changelog or "\n".join((commit.message, pr.body if pr else ""))),
        unaffected=bool(_UNAFFECTED.search("\n".join(paragraphs))),
        fragments=added,
        exposures=_exposures((title.text, *paragraphs, *(f.text for f in added))),
        description_items=tuple(items),
        turned=not changelog and bool(body.strip()) and not first.strip() and not items,
        entry_items=tuple(entry_items),
        entry_single=not news and len(entry_items) == 1 and "\n- " not in written,
        release=release
        if release and (released or opened or len(release.items) >= RELEASE_ITEMS or not changelog)
        else None,
        released=released,
        opened=opened,
        facts=facts,
        last_release=commit.release,
        carried=commit.carried,
        parses=parses,
        typing_only=annotations_only(commit, [f for f in source if f.filename not in layout]),
    )


# The most changed lines of shipped code a change is parsed whole for, to prove it only
# annotations (an edit of signatures takes a few lines each)
_TYPING_EDIT_LINES = 300


def annotations_only(commit: CommitInput, source: list[FileChange]) -> tuple[str, ...] | None:
    """The type aliases dropped where every shipped Python file (one at least, none but
    Python modules) changes only what a type checker reads (`layout.typing_only`: its
    annotations, a `Protocol`'s stub signatures, its type aliases), an annotation at least;
    None otherwise (docstrings alone among them)."""
    if (
        not source
        or not all(f.filename.endswith(".py") for f in source)
        or sum(f.changes for f in source) > _TYPING_EDIT_LINES
    ):
        return None
    quiet = quiet_classes(commit.files, commit.modules)
    aliases: list[str] = []
    for f in source:
        found = typing_only(f, quiet)
        if found is None:
            return None
        aliases += found
    # (docstrings alone, the annotations the same, are no change of annotations)
    if not aliases and all(same_code(f) for f in source):
        return None
    return tuple(aliases)
