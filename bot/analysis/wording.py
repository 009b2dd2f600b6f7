"""What the rules write about a change: each statement from one of its facts, or none. Pure.

A statement names its fact (a function, a flag, a variable, a key, a number, the author's
words) and, where the change shows it, what to use instead; a change the rules know nothing
specific about gets its summary and nothing else. The summary is the description's (see
`summary.py`); without one, the first statements of fact. Every phrase comes from the
catalogue in `phrases.py`, in the repository's language.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterable
from dataclasses import dataclass, field

from bot.analysis.facts import (
    COMMAND_GROUPS,
    METADATA_FILES,
    ArityChange,
    Compared,
    ConstantRenamed,
    DefaultChange,
    Documented,
    EntryPoint,
    Extra,
    MemberGone,
    Name,
    NameKind,
    PickleChange,
    Raised,
    Registry,
    Renamed,
    Requirement,
    ReturnChange,
    Setting,
    Shift,
    Turn,
    parameter_name,
)
from bot.analysis.facts.annotated import quiet_classes
from bot.analysis.facts.build import package_name
from bot.analysis.facts.docstrings import says_more
from bot.analysis.facts.documents import ACTION, HOOK
from bot.analysis.facts.layout import (
    only_annotated,
    respelled_alone,
    respelled_code,
    same_code,
)
from bot.analysis.facts.markers import python_bound
from bot.analysis.facts.packaging import developers_extra
from bot.analysis.facts.pyfile import PARSE_ERRORS
from bot.analysis.facts.records import IgnoredSetting
from bot.analysis.facts.rows import short as rows_short
from bot.analysis.messages import (
    BREAKING_FOOTER,
    ReleaseNote,
    adds_release,
    entry_break_words,
    is_changelog,
    leans,
    marked_breaking,
    message_marked_breaking,
    title_marked_breaking,
)
from bot.analysis.paths import (
    PathKind,
    dev_tooling,
    path_kind,
    private_module,
    ships,
    tooling_path,
)
from bot.analysis.phrases import AnalysisPhrases, excerpt, forms, sentence
from bot.analysis.raising import metadata_breaks, proven_breaks, raise_breaks
from bot.analysis.removed import (
    ReachedLoss,
    inside,
    lost_parameters,
    members_removed,
    module_name,
    package_module,
    reached_losses,
    released_losses,
    removed_modules,
    renamed_modules,
    shifted_parameters,
)
from bot.analysis.signals import SECURITY_WORDS, Signals, exposure_words
from bot.analysis.spans import code
from bot.analysis.summary import (
    authored_summary,
    capitalised,
    effect_sentences,
    says_effect,
    says_what_it_does,
)
from bot.analysis.unreleased import never_released, released
from bot.analysis.unshipped import version_only
from bot.analysis.versions import sets_version_only
from bot.models import (
    ONE_LINE_MAX,
    Audience,
    ChangeType,
    CommitInput,
    FileChange,
    Importance,
    Recommendation,
    Risk,
)

T = ChangeType
# A summary of a high or medium change stays readable in one paragraph.
SUMMARY_LIMIT = 400
# A risk the day's headline can lead with (its one fact a line, `digest/headline.py`).
_RISK_SHORT = 160
_SPAN = re.compile(r"`([^`]+)`")
# Function names so common that alone they do not say which one (a command-line tool's
# every subcommand has a `command`, every script a `main`).
_GENERIC_NAMES = frozenset(
    {"command", "main", "run", "handle", "handler", "execute", "call", "callback", "setup"}
    | {"init", "create", "update", "get", "process", "apply", "wrapper", "helper", "cli"}
)
# A constant's value is said when this short (`1024 * 1024`), else only its name.
_SHOWN_VALUE = 60
# A type annotation longer than this is not said: no reader takes it in at a glance.
_SHOWN_TYPE = 60
# A line that is only a comment, in the languages the facts read.
_COMMENT = re.compile(r"^\s*(?:#|//|/\*|\*|--|<!--)")
# A field of a class or record as declared in its body: `name: type`, perhaps `= default`.
_FIELD = re.compile(r"^\s+[A-Za-z_]\w*\s*:\s*[^=()\s][^=()]*(?:=.*)?$")
# A value as a user writes it: a number, a quoted string, a boolean or none; not a name.
_LITERAL = re.compile(
    r"[-+]?(?:\d[\d_]*(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?"
    r"""|"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'"""
    r"|True|False|None|true|false|null|none"
)


@dataclass
class Text:
    """The words of one analysis: summary, insights by theme, risks, recommendations."""

    summary: str = ""
    insights: dict[str, list[str]] = field(default_factory=dict)
    risks: list[Risk] = field(default_factory=list)
    recommendations: list[Recommendation] = field(default_factory=list)

    def note(self, theme: str, text: str) -> None:
        self.insights.setdefault(theme, []).append(text)

    def advise(self, audience: Audience, text: str) -> None:
        self.recommendations.append(Recommendation(audience=audience, text=text))


@dataclass(frozen=True)
class _Statement:
    """A statement of fact and the theme of insights it belongs to (None: a summary may
    carry it, no insight does)."""

    theme: str | None
    clause: str
    # said only when the change holds nothing of more consequence (the tests it adds)
    minor: bool = False
    # of the code's insides (a call, an import, a private name): never what a merge brought
    internal: bool = False
    # never the summary (a dev tool's setting beside a change of shipped code)
    aside: bool = False
    # the author's words it quotes from the code (a docstring): said only where the summary
    # does not already say them
    quoted: str = ""
    # the clause without its quotation, said instead where the summary says the quote
    plain: str = ""
    # what runs differently (a guard, an exception caught or raised, a message, a call's
    # argument, a new helper called with what its docstring says it does)
    behaviour: bool = False
    # only which private names the change adds, removes, renames or now calls: never the
    # summary where a statement says what runs differently (filelock 94a80aa: "Adds
    # `_UNICODE_STRING`, `_OBJECT_ATTRIBUTES` …" before `_open_non_reparse_fd` now calling
    # `_nt_open`, which opens the file through `NtCreateFile`)
    listing: bool = False
    # the names of the tests the change adds: never a fix's summary (a test's name is not
    # what was mended: tomlkit 43668dd's whole summary had been "Adds the test
    # `test_add_key_after_dotted_inline_table_without_ending_newline`")
    tests: bool = False
    # only how the code is wired, with no consequence stated: names private by their
    # spelling added, removed, renamed or now called ("Adds `_find_html_ids`"), what the new
    # tests call ("The new tests call `as_string`."): never said on a medium or high entry
    wiring: bool = False
    # a dev tool's setting beside a change of shipped code (coverage's `fail_under`): never
    # said on a medium or high entry, which has the code's facts to tell
    tooling: bool = False


def codes(p: AnalysisPhrases, names: Iterable[str], limit: int = 3) -> str:
    """`a`, `b`, `c` and 2 more: names in code spans, at most `limit` shown."""
    unique = list(dict.fromkeys(names))
    shown = p.list_sep.join(code(n) for n in unique[:limit])
    if len(unique) > limit:
        return p.more.format(shown=shown, count=len(unique) - limit)
    return shown


def one_line(text: str) -> str:
    if len(text) <= ONE_LINE_MAX:
        return text
    return text[: ONE_LINE_MAX - 1].rsplit(" ", 1)[0] + "…"


# --- what users must change ------------------------------------------------------------


def _records_only(commit: CommitInput, sig: Signals) -> bool:
    """Whether every file the commit changes is a changelog, or no shipped code (tests, docs,
    the version string stamped: pyparsing 9c06ffa's `__version_time__` beside its "Implemented
    a TINY language parser …"), and its entry is all the words it has (no description of its
    own besides): the entry tells a change made elsewhere."""
    return (
        bool(commit.files)
        and any(is_changelog(f.filename) for f in commit.files)
        and all(
            is_changelog(f.filename)
            or version_only(f)
            # (tests and docs tell no change of their own; a CI matrix or the package's
            # metadata beside "Adds Python 3.13 support" is that change: svcs)
            or (
                not ships(f.filename)
                and path_kind(f.filename) in {PathKind.TESTS, PathKind.DOCS}
                and f.filename not in sig.source_files
            )
            for f in commit.files
        )
        and bool(sig.entry_items)
        and tuple(sig.description_items) == tuple(sig.entry_items)
    )


def breaking_risks(commit: CommitInput, sig: Signals, p: AnalysisPhrases) -> list[Risk]:
    """Evidence that users must change something, each as a risk naming it: what goes,
    what follows, and what to use instead where the change shows it."""
    risks: list[Risk] = []
    footer = BREAKING_FOOTER.search(commit.message)
    if footer and footer.group(1).strip():
        risks.append(Risk(description=sentence(p, p.footer.format(text=excerpt(footer.group(1))))))
    # a line of the body the author marks breaking ("- (BREAKING) Forward flags …")
    for words in message_marked_breaking(commit.message)[:2]:
        said = p.footer.format(text=excerpt(words).rstrip(" ."))
        risks.append(Risk(description=sentence(p, said)))
    if sig.title.bang:
        prefix = (sig.title.conventional or "") + (
            f"({sig.title.scope})" if sig.title.scope else ""
        )
        risks.append(Risk(description=sentence(p, p.bang.format(prefix=prefix))))
    elif mark := title_marked_breaking(commit.title):
        # "[BREAKING] Exclude …": the author's word as much as a `!`
        risks.append(Risk(description=sentence(p, p.title_mark.format(mark=mark))))
    for label in sig.labels:
        if "breaking" in label.lower():
            risks.append(Risk(description=sentence(p, p.label.format(label=label))))
    # (a fragment that holds its words first: one that links it, or a copy, says them again)
    for fragment in sorted(sig.fragments, key=lambda f: not f.text):
        # a `breaking` or `removal` news fragment is the author's word, like a footer
        if fragment.meaning == "breaking":
            # a fragment that links another (propcache 6093ed1's `223.breaking.rst`, a link to
            # `223.packaging.rst`) has that one's words; never the title's, said as the file's
            words = fragment.text or next((f.text for f in sig.fragments if f.text), "")
            text = excerpt(words.split("\n\n", 1)[0]).rstrip(" .")
            said = (
                p.fragment.format(path=fragment.path, text=text)
                if text
                else p.fragment_bare.format(path=fragment.path)
            )
            risks.append(Risk(description=sentence(p, said)))
    # an item the commit adds to its changelog marked breaking is the author's word too
    changelog = next((f.filename for f in commit.files if is_changelog(f.filename)), None)
    # (said with its words: the day's breaking headline quotes this risk)
    for words in marked_breaking(commit.files) if changelog else ():
        said = p.fragment.format(path=changelog, text=excerpt(words).rstrip(" ."))
        risks.append(Risk(description=sentence(p, said)))
    # (or filed under its breaking heading, or said to break code: wrapt 7deecea's "may break
    # code which relied on the previous behaviour")
    entry = (
        entry_break_words(commit.files)
        if not marked_breaking(commit.files) and not adds_release(commit.files)
        else None
    )
    if entry is not None:
        said = p.fragment.format(path=entry[0], text=excerpt(entry[1]).rstrip(" ."))
        risks.append(Risk(description=sentence(p, said)))
    replacement = _replacement(sig)
    modules = removed_modules(sig)
    renamed = renamed_modules(sig)
    for module in modules:
        new = renamed.get(module)
        risks.append(
            Risk(
                description=sentence(p, p.module_removed.format(module=module)),
                consequence=p.module_renamed_fails.format(module=module, new=new)
                if new
                else p.module_imports_fail.format(module=module),
            )
        )
    by_path: dict[str, list[str]] = {}
    for name in _exports_gone(sig, modules):
        by_path.setdefault(name.path, []).append(name.name)
    for gone, path in interface_gone(sig, modules):
        if gone not in by_path.get(path, ()):
            by_path.setdefault(path, []).append(gone)
    moved = {m.old.name: m.new for m in (*sig.facts.moved, *sig.facts.renamed)}
    for path, names in by_path.items():
        instead = [moved[n].name for n in names if n in moved]
        risks.append(
            Risk(
                description=sentence(p, p.removes_from.format(names=codes(p, names), path=path)),
                consequence=forms(p.imports_fail, len(names)).format(
                    names=codes(p, names), module=module_name(path)
                ),
                mitigation=p.use_instead.format(names=codes(p, instead)) if instead else None,
            )
        )
    for ignored in settings_released(sig):
        # a setting users were told of (`__all__`, the readme) that nothing reads: their
        # assignment still runs, and silently does nothing
        if not ignored.documented or ignored.name in by_path.get(ignored.path, ()):
            continue
        said = p.setting_ignored.format(module=module_name(ignored.path), name=ignored.name)
        gone = p.removes_from.format(names=code(ignored.name), path=ignored.path)
        risks.append(
            Risk(description=sentence(p, gone), consequence=sentence(p, said))
            if ignored.removed
            else Risk(description=sentence(p, said))
        )
    for change in arities_released(sig):
        said = p.returns_values.format(
            name=change.name, path=change.path, old=change.old, new=change.new
        )
        risks.append(
            Risk(
                description=sentence(p, said),
                consequence=p.unpacking_fails.format(name=change.name, old=change.old),
            )
        )
    for returned in literals_released(sig, typed=True):
        risks.append(
            Risk(
                description=sentence(p, _literal_said(p, returned)),
                consequence=p.returned_type_fails.format(old=returned.old, new=returned.new),
            )
        )
    for lost in lost_parameters(sig):
        params = codes(p, lost.names)
        took = forms(p.parameters, len(lost.names)).format(params=params)
        risks.append(
            Risk(
                description=sentence(
                    p, forms(p.loses_parameters, 1).format(name=code(lost.function), params=took)
                ),
                consequence=forms(p.passing_fails, len(lost.names)).format(params=params),
            )
        )
    risks += _pickle_risks(sig, p)
    risks += _shifted_risks(sig, p)
    risks += _members_risks(sig, p)
    risks += _reached_risks(sig, p)
    risks += metadata_breaks(sig, p) + raise_breaks(sig, p)
    for pair in _renames_released(sig):
        if _api_path(sig, pair.old.path):
            risks.append(_renamed_risk(p, pair))
    for rename in _constants_released(sig):
        if _api_path(sig, rename.path):
            risks.append(_constant_risk(p, rename))
    # A changed default before a removed setting: ranked by consequence.
    for group in _default_groups(_defaults_released(sig)):
        risks.append(_default_risk(p, group))
    removed: tuple[tuple[tuple[str, str], tuple[str, str], tuple[str, ...]], ...] = (
        (p.env_removed, p.env_no_effect, sig.env_removed),
        (p.flags_removed, p.flags_fail, sig.flags_removed),
        (p.keys_removed, p.keys_no_effect, sig.config_keys_removed),
    )
    for clause, consequence, settings in removed:
        if settings:
            risks.append(
                Risk(
                    description=sentence(
                        p, forms(clause, len(settings)).format(names=codes(p, settings, 4))
                    ),
                    consequence=forms(consequence, len(settings)).format(
                        names=codes(p, settings, 4)
                    ),
                    mitigation=p.use_instead.format(names=codes(p, [replacement]))
                    if replacement
                    else None,
                )
            )
    risks += _packaging_risks(sig, p)
    for published in released(sig, sig.facts.distribution_renamed, lambda d: d.old)[:1]:
        risks.append(
            Risk(
                description=sentence(
                    p, p.distribution_renamed.format(old=published.old, new=published.new)
                ),
                consequence=p.distribution_renamed_fails.format(
                    old=published.old, new=published.new
                ),
            )
        )
    # The Python versions the package supports lose their oldest: installs on it stop
    # getting releases, whatever the title says ("Update the supported Python versions").
    need = python_floor_raised(sig)
    if need is not None:
        floor = (
            p.python_floor.format(spec=need.spec, old=need.old)
            if need.old
            else p.python_floor_new.format(spec=need.spec)
        )
        risks.append(Risk(description=sentence(p, floor)))
    return _quoted_once(risks)


def defect_risks(sig: Signals, p: AnalysisPhrases) -> list[Risk]:
    """What the shipped code at the commit proves fails where it runs, whatever the change
    means to do: a name it removes that its module still reads (`NameError`), a new call that
    leaves out a required argument or passes a keyword the callee does not take
    (`TypeError`)."""
    risks = [
        Risk(
            description=sentence(
                p,
                p.still_imports.format(path=d.path, name=d.name, source=d.source, line=d.line)
                if d.source
                else p.still_reads.format(path=d.path, name=d.name, line=d.line),
            )
        )
        for d in sig.facts.dangling
        if d.path in sig.source_files
    ]
    for c in sig.facts.short_calls:
        if c.path not in sig.source_files:
            continue
        if c.missing:
            said = p.call_short.format(caller=c.caller, callee=c.callee, params=codes(p, c.missing))
        else:
            said = p.call_unknown.format(caller=c.caller, callee=c.callee, keyword=c.unknown[0])
        risks.append(Risk(description=sentence(p, said)))
    return risks


def _members_risks(sig: Signals, p: AnalysisPhrases) -> list[Risk]:
    """A public class's own methods and properties removed with nothing giving them back,
    each file's together: "Removes `Client.ping` from `pkg/client.py`", and code that calls
    `Client.ping()` (or reads a property) fails; then each renamed in its class ("Renames
    `Table.purge` to `Table.truncate`"), whose new name is what to call instead."""
    by_path: dict[str, list[MemberGone]] = {}
    renamed = []
    instances: dict[tuple[str, str], list[MemberGone]] = {}
    for member in members_removed(sig):
        if member.instance:
            instances.setdefault((member.path, member.cls), []).append(member)
            continue
        if member.new is None:
            by_path.setdefault(member.path, []).append(member)
            continue
        old, new = f"{member.cls}.{member.member}", f"{member.cls}.{member.new}"
        renamed.append(
            Risk(
                description=sentence(p, p.renames_in.format(old=old, new=new, path=member.path)),
                consequence=p.callers_fail.format(old=old),
                mitigation=p.call_instead.format(new=new),
            )
        )
    risks = []
    for path, gone in by_path.items():
        names = codes(p, (f"{m.cls}.{m.member}" for m in gone))
        used = codes(p, (f"{m.cls}.{m.member}" + ("" if m.attribute else "()") for m in gone))
        fails = p.members_fail if any(m.attribute for m in gone) else p.calls_fail
        risks.append(
            Risk(
                description=sentence(p, p.removes_from.format(names=names, path=path)),
                consequence=fails.format(names=used),
            )
        )
    for (path, cls), gone in instances.items():
        # (said as what instances no longer have: no definition of the class's body is gone)
        clause = p.no_longer_sets.format(
            cls=cls, path=path, names=codes(p, (m.member for m in gone))
        )
        risks.append(
            Risk(
                description=sentence(p, clause),
                consequence=p.members_fail.format(
                    names=codes(p, (f"{m.cls}.{m.member}" for m in gone))
                ),
            )
        )
    return risks + renamed


def _reached_said(
    sig: Signals, losses: tuple[ReachedLoss, ...], p: AnalysisPhrases
) -> list[tuple[str, str, str | None]]:
    """What a public function's callers lose from the private class it hands them, said as
    they meet it ("functions decorated with `alru_cache` no longer have `cache_open()`"),
    each with its consequence and what to use instead: the members removed together, then
    each rename and each parameter lost; what no release had, said so (async-lru caeb9a0:
    `cache_open`, added after v1.0.3)."""
    renamed = {(x.reached.via, x.member) for x in losses if x.new is not None}
    said: list[tuple[str, str, str | None]] = []
    groups: dict[tuple[str, bool], list[ReachedLoss]] = {}
    for loss in losses:
        # (a member a sibling class renames is said renamed: a wrapper's bound form that
        # defines it again under the new name)
        if loss.new is None and not loss.params and (loss.reached.via, loss.member) not in renamed:
            groups.setdefault((loss.reached.via, loss.reached.decorator), []).append(loss)
    for (via, decorator), gone in groups.items():
        names = codes(p, (g.shown for g in gone))
        phrase = p.decorated_lacks if decorator else p.returned_lacks
        lacks = _unreleased(sig, p, names, [g.member for g in gone])
        said.append(
            (phrase.format(via=code(via), names=lacks), p.reached_fail.format(names=names), None)
        )
    for loss in losses:
        via, decorator = code(loss.reached.via), loss.reached.decorator
        if loss.new is not None:
            phrase = p.decorated_renamed if decorator else p.returned_renamed
            old = _unreleased(sig, p, code(loss.shown), [loss.member])
            clause = phrase.format(via=via, old=old, new=code(loss.shown_new))
            said.append(
                (
                    clause,
                    p.reached_fail.format(names=code(loss.shown)),
                    p.use_instead.format(names=code(loss.shown_new)),
                )
            )
        elif loss.params:
            params = codes(p, loss.params)
            took = _unreleased(
                sig,
                p,
                forms(p.parameters, len(loss.params)).format(params=params),
                list(loss.params),
            )
            phrase = p.decorated_loses if decorator else p.returned_loses
            clause = phrase.format(via=via, member=code(loss.shown), params=took)
            said.append(
                (clause, forms(p.passing_fails, len(loss.params)).format(params=params), None)
            )
    return said


def _reached_risks(sig: Signals, p: AnalysisPhrases) -> list[Risk]:
    return [
        Risk(description=sentence(p, clause), consequence=consequence, mitigation=mitigation)
        for clause, consequence, mitigation in _reached_said(sig, released_losses(sig), p)
    ]


def _reached(sig: Signals, p: AnalysisPhrases) -> list[_Statement]:
    """What callers of a public function lose from the private class it hands them."""
    return [
        _Statement("compatibility", clause)
        for clause, _, _ in _reached_said(sig, reached_losses(sig), p)
    ]


# The author's words a risk quotes: “…”
_QUOTE = re.compile(r"“([^”]+)”")


def _quoted_once(risks: list[Risk]) -> list[Risk]:
    """The risks without one that quotes words an earlier one quotes already (a fragment
    symlinked to another, a footer that repeats the fragment): each sentence said once."""
    said: set[str] = set()
    kept: list[Risk] = []
    for risk in risks:
        quotes = {
            " ".join(q.split()).rstrip(" .…").lower() for q in _QUOTE.findall(risk.description)
        }
        if quotes and quotes <= said:
            continue
        said |= quotes
        kept.append(risk)
    return kept


def _api_path(sig: Signals, path: str) -> bool:
    return path.endswith("__init__.py") or sig.file_kinds.get(path) is PathKind.PUBLIC_API


def _exports_gone(sig: Signals, modules: tuple[str, ...]) -> tuple[Name, ...]:
    """Names a module no longer exports, where neither it nor the name (a submodule its
    package's `__init__.py` imported) is a module the change deletes (that removal is said
    as the module's), nor one no release ever had."""
    return tuple(
        n
        for n in sig.removed_exports
        if module_name(n.path) not in modules
        and f"{module_name(n.path)}.{n.name}" not in modules
        and not never_released(sig, n.name)
    )


def interface_gone(sig: Signals, modules: tuple[str, ...]) -> list[tuple[str, str]]:
    """Public names (functions, classes, constants) removed from a public module that the
    package's own other modules import from at the parent (`facts.imported_from`): a module
    its package's code imports from is an interface, and callers import the same names from
    it the same way (mistune 5de41fb dropped `helpers.LINK_TITLE_RE`, and `helpers` is what
    its plugins import from). Only a module seen to be a package's (`package_module`): an
    application's modules import from each other with no caller outside. Each (name, path),
    where no changed file still binds the name at the commit; not a `__main__`, a module the
    change deletes, nor a name no release had."""
    if not sig.facts.imported_from:
        return []
    shared = set(sig.facts.imported_from)
    # a class's member (`Unix.use_site`) is no name anyone imports
    names = [(n.name, n.path) for n in sig.removed_symbols if "." not in n.name] + [
        (c.name, c.path)
        for c in sig.removed_constants
        if _public_name(c.name) and "." not in c.name
    ]
    return [
        (name, path)
        for name, path in dict.fromkeys(names)
        if (module := module_name(path)) in shared
        and package_module(sig, path)
        and module not in modules
        and not path.endswith("/__main__.py")
        and not inside(sig, path)
        and not never_released(sig, name)
    ]


def arities_released(sig: Signals) -> list[ArityChange]:
    """Public functions of shipped, non-private modules whose every return is a tuple of
    one size at both revisions, a different size at each (`facts.arities_changed`): callers
    that unpack the old number fail (mistune 5de41fb: `extract_block_quote` went from 2
    values to 3, and its own spoiler plugin had to change). Not one no release had."""
    return [
        a
        for a in sig.facts.arities_changed
        if sig.constant_shipped(a.path)
        and path_kind(a.path) is not PathKind.TESTS
        and not never_released(sig, a.name)
    ]


def literals_released(sig: Signals, *, typed: bool) -> list[ReturnChange]:
    """Public functions of shipped, public modules that return a literal of another type in
    a case where they returned one (`typed`: pathspec 92a9066's `PathSpec.match_file`, `None`
    where it returned `False`, which an `is False` caller no longer meets), or a `bool`
    flipped (behaviour, not a break). Not one no release had."""
    return [
        r
        for r in sig.facts.returns_changed
        if r.typed is typed
        and sig.constant_shipped(r.path)
        and path_kind(r.path) is not PathKind.TESTS
        and not inside(sig, r.path)
        and not never_released(sig, r.name)
    ]


def _literal_said(p: AnalysisPhrases, change: ReturnChange) -> str:
    if change.when:
        return p.returns_literal_when.format(
            name=change.name, old=change.old, new=change.new, when=change.when
        )
    return p.returns_literal.format(name=change.name, old=change.old, new=change.new)


def _literals_flipped(sig: Signals, p: AnalysisPhrases) -> list[_Statement]:
    """A public function's `bool` result of a case flipped: behaviour, said (one), where
    "now returns `b` instead of `a`" does not say it already."""
    said = {(g.name, g.path) for g in sig.facts.returns_now}
    for change in literals_released(sig, typed=False):
        if (change.name, change.path) not in said:
            return [_Statement("compatibility", _literal_said(p, change), behaviour=True)]
    return []


# What a rename or a changed default takes from users: none of what no release had.


def _shifted_risks(sig: Signals, p: AnalysisPhrases) -> list[Risk]:
    """A positional parameter another now stands before: calls that pass it by position pass
    it to the other. The same shift in several functions (a class and its subclasses) is one
    risk naming them."""
    groups: dict[Shift, list[str]] = {}
    for x in shifted_parameters(sig):
        groups.setdefault(x.shift, []).append(x.function)
    risks = []
    for shift, functions in groups.items():
        names = list(dict.fromkeys(functions))
        clause = p.gains_before if shift.new else p.takes_before
        said = forms(clause, len(names)).format(
            name=codes(p, names), param=code(shift.took), old=code(shift.old)
        )
        risks.append(
            Risk(
                description=sentence(p, said),
                consequence=p.passing_shifted.format(old=code(shift.old), param=code(shift.took)),
            )
        )
    return risks


def _renames_released(sig: Signals) -> list[Renamed]:
    return released(sig, sig.renamed_symbols, lambda r: r.old.name)


def _constants_released(sig: Signals) -> list[ConstantRenamed]:
    return released(sig, sig.renamed_constants, lambda c: c.old)


def _defaults_released(sig: Signals) -> list[DefaultChange]:
    return released(sig, sig.defaults_changed, lambda d: d.name)


def named_breaks(sig: Signals) -> tuple[str, ...]:
    """The names (`path::name`) the breaking risks of a removal, rename or changed default
    are about, as `breaking_risks` says them (a module deleted as `path::*`, a parameter
    lost as `path::function(parameter)`)."""
    modules = removed_modules(sig)
    return (
        *(f"{f.path}::*" for f in sig.facts.files if module_name(f.path) in modules),
        *(f"{n.path}::{n.name}" for n in _exports_gone(sig, modules)),
        *(f"{x.path}::{x.defined}({name})" for x in lost_parameters(sig) for name in x.names),
        *(f"{x.path}::{x.defined}({x.shift.old})" for x in shifted_parameters(sig)),
        *(f"{m.path}::{m.cls}.{m.member}" for m in members_removed(sig)),
        *(
            f"{x.reached.path}::{x.reached.cls}.{x.member}" + (f"({name})" if x.params else "")
            for x in released_losses(sig)
            for name in (x.params or ("",))
        ),
        *(
            f"{r.old.path}::{r.old.name}"
            for r in _renames_released(sig)
            if _api_path(sig, r.old.path)
        ),
        *(f"{c.path}::{c.old}" for c in _constants_released(sig) if _api_path(sig, c.path)),
        *(f"{d.path}::{d.name}" for d in _defaults_released(sig)),
        *(f"{c.path}::{c.cls}.{c.method}" for c in pickles_broken(sig)),
    )


def unnamed_breaks(sig: Signals) -> bool:
    """Whether `breaking_risks` finds a break no name holds (the author's words aside): a
    setting, extra, command or Python floor gone, a raise or module metadata
    (`raising.proven_breaks`)."""
    return bool(
        sig.env_removed
        or sig.flags_removed
        or sig.config_keys_removed
        or users_extras_lost(sig)
        or _commands(sig.facts.entry_points_removed)
        or python_floor_raised(sig) is not None
        or proven_breaks(sig)
    )


def users_extras_lost(sig: Signals) -> list[Extra]:
    """The extras the package's metadata declares no more, removed or made dependency groups
    (PEP 735: never published), that a user's install may ask for: not the developers' own
    (`dev`, `testing`, `lint`, `docs`: `packaging.developers_extra`)."""
    lost = (*sig.facts.extras_removed, *sig.facts.extras_grouped)
    return [e for e in lost if not developers_extra(e.name)]


def developers_extras_lost(sig: Signals) -> list[Extra]:
    """The developers' own extras the published metadata no longer declares."""
    lost = (*sig.facts.extras_removed, *sig.facts.extras_grouped)
    return [e for e in lost if developers_extra(e.name)]


def _extra_installs(p: AnalysisPhrases, extra: Extra) -> str:
    """ "`pip install p[e]` no longer installs `r`, `s`": where the package's name and the
    extra's requirements are known; '' where not."""
    if not extra.package or not extra.requirements:
        return ""
    return p.extra_empty_named.format(
        install=f"{extra.package}[{extra.name}]",
        names=_listed(p, [code(_requirement_name(r)) for r in extra.requirements]),
    )


def _packaging_risks(sig: Signals, p: AnalysisPhrases) -> list[Risk]:
    """An extra a user may install or a command the package declares no more: `pip install
    pkg[extra]` installs without the extra's requirements, and a script that runs the command
    fails."""
    risks = []
    extras = users_extras_lost(sig)
    if extras:
        installs = _listed(p, [code(f"{e.package or '…'}[{e.name}]") for e in extras])
        risks.append(
            Risk(
                description=sentence(
                    p,
                    forms(p.extras_removed, len(extras)).format(
                        names=_extras(p, extras, with_requirements=False)
                    ),
                ),
                consequence=_extra_installs(p, extras[0])
                if len(extras) == 1 and _extra_installs(p, extras[0])
                else forms(p.extras_empty, len(extras)).format(installs=installs),
            )
        )
    commands = _commands(sig.facts.entry_points_removed)
    if commands:
        names = _points(p, commands, with_targets=False)
        risks.append(
            Risk(
                description=sentence(
                    p, forms(p.commands_removed, len(commands)).format(names=names)
                ),
                consequence=forms(p.commands_fail, len(commands)).format(names=names),
            )
        )
    return risks


def _requirement_name(requirement: str) -> str:
    """A requirement's package as PEP 508 writes it first (`orjson` of `orjson~=3.10`)."""
    found = re.match(r"[A-Za-z0-9][\w.-]*(?:\[[^\]]*\])?", requirement.strip())
    return found.group(0) if found else requirement.strip()


# A title that says support for a Python ends ("Drop Python 3.8", "Remove support for 3.7").
_SUPPORT_ENDS = re.compile(
    r"\b(?:drop\w*|remov\w+|end\w*|deprecat\w*)\b.{0,30}?\b(?:python|py3?\d*|support|\d+\.\d+)",
    re.IGNORECASE,
)


def python_floor_raised(sig: Signals) -> Requirement | None:
    """The package's `requires-python` whose oldest allowed version went up, if any: or one
    newly set with a floor in the metadata file the package already had, under a title that
    says support ends (aiodns 9dafe6b "Drop Python 3.8": `python_requires=">=3.9"` added to
    `setup.py`), never in a file the change adds (another, unchanged, may have said it
    before)."""
    modified = {f.path for f in sig.facts.files if f.status == "modified"}
    for need in sig.facts.requirements:
        if need.package != "python" or need.tools:
            continue
        if need.old and _floor_raised(need.old, need.spec):
            return need
        if (
            need.old is None
            and sig.facts.python_unset
            # declared where none was: a floor for someone only where the title says support
            # ends (pytest-timeout 00720d1 added `>=3.6` after Python 2 had gone long before)
            and _SUPPORT_ENDS.search(sig.title.text)
            and need.path in modified
            and need.path.rsplit("/", 1)[-1] in METADATA_FILES
            and _floor(need.spec) is not None
        ):
            return need
    return None


def _floor(spec: str) -> tuple[int, ...] | None:
    found = re.search(r">=?\s*(\d+(?:\.\d+)*)", spec)
    return tuple(int(x) for x in found.group(1).split(".")) if found else None


def _floor_raised(old: str, new: str) -> bool:
    """Whether a specifier's lowest allowed version went up (`>=3.8` → `>=3.9`)."""

    was, now = _floor(old), _floor(new)
    return was is not None and now is not None and now > was


def _default_groups(changes: Iterable[DefaultChange]) -> list[list[DefaultChange]]:
    """The changed defaults, one parameter's same change in several functions together."""
    groups: dict[tuple[bool, str, str, str], list[DefaultChange]] = {}
    for change in changes:
        groups.setdefault((change.parameter is not None, *change.same_change), []).append(change)
    return list(groups.values())


def _default_risk(p: AnalysisPhrases, group: list[DefaultChange]) -> Risk:
    """One default's change: a setting's, one function's parameter, or one parameter's in
    several functions (named with their parameter once)."""
    first = group[0]
    said = first.parameter
    if said is None or len(group) == 1:
        name = first.name
        description = p.default.format(name=name, old=first.old, new=first.new)
        consequence = p.default_differs.format(name=name)
    else:
        name = said[1]
        # fewer functions shown rather than a sentence too long to lead the day's headline
        for limit in (3, 2, 1):
            functions = codes(p, (_function_of(c) for c in group), limit)
            description = p.default_in.format(
                name=name, functions=functions, old=first.old, new=first.new
            )
            if len(sentence(p, description)) <= _RISK_SHORT:
                break
        consequence = p.default_differs_in.format(name=name, functions=functions)
    return Risk(
        description=sentence(p, description),
        consequence=consequence,
        # A user can set a value, not a name from the code (`DEFAULT_TITLE`); a parameter's
        # `None` is "not given", and passed at the commit it need not do what leaving it out
        # did (`follow_redirects=None` chose the client's default). Nor, the other way, where
        # the new default is `None`: "not given" now means something of its own, and the old
        # value passed may mean something new (attrs 6e3786c: `kw_only=False` now makes a
        # field positional in a `kw_only=True` class).
        mitigation=p.default_keep.format(name=name, old=first.old)
        if _LITERAL.fullmatch(first.old.strip())
        and not (said is not None and "None" in (first.old.strip(), first.new.strip()))
        else None,
    )


def _function_of(change: DefaultChange) -> str:
    said = change.parameter
    return said[0] if said else change.name


def default_names(changes: Iterable[DefaultChange]) -> list[str]:
    """What a user looks for in their code: a changed default by its name, a parameter
    whose default changed in several functions by the parameter's."""
    return [
        group[0].name if len(group) == 1 else _parameter_name(group[0])
        for group in _default_groups(changes)
    ]


def _parameter_name(change: DefaultChange) -> str:
    said = change.parameter
    return said[1] if said else change.name


def _renamed_risk(p: AnalysisPhrases, pair: Renamed) -> Risk:
    return Risk(
        description=sentence(
            p, p.renames_in.format(old=pair.old.name, new=pair.new.name, path=pair.old.path)
        ),
        consequence=p.callers_fail.format(old=pair.old.name),
        mitigation=p.call_instead.format(new=pair.new.name),
    )


def _constant_risk(p: AnalysisPhrases, rename: ConstantRenamed) -> Risk:
    return Risk(
        description=sentence(
            p, p.renames_in.format(old=rename.old, new=rename.new, path=rename.path)
        ),
        consequence=p.constant_fails.format(old=rename.old),
        mitigation=p.use_instead.format(names=code(rename.new)),
    )


def _replacement(sig: Signals) -> str | None:
    """What replaces a removed setting, where the change says: the deprecation message's
    "use X instead", or the one setting it adds in place of the one it removes."""
    for deprecation in sig.facts.deprecations:
        if deprecation.replacement:
            return deprecation.replacement
    gone = len(sig.env_removed) + len(sig.flags_removed) + len(sig.config_keys_removed)
    added: list[Setting] = [
        *sig.facts.flags_added,
        *sig.facts.env_added,
        *sig.facts.config_keys_added,
    ]
    return added[0].name if gone == 1 and len(added) == 1 else None


# --- statements of fact ----------------------------------------------------------------


def _shipped(sig: Signals, names: Iterable[Name]) -> list[Name]:
    return [n for n in names if n.path in sig.source_files]


def _public_first(names: list[Name]) -> list[Name]:
    return [n for n in names if n.public] + [n for n in names if not n.public]


def _worth_naming(names: list[Name]) -> list[Name]:
    """The added names a reader can use: a new class stands for its own methods, and the
    private helpers (`_x`, `__init__`) are named only when nothing public was added."""
    added = {n.name for n in names}
    top = [n for n in names if _owner(n.name) not in added]
    public = [n for n in top if n.public]
    return public or [n for n in top if not n.short.startswith("__")] or top


def _owner(name: str) -> str:
    """`Class` for `Class.method` or `Class::method`; "" for a top-level name."""
    dot, colons = name.rfind("."), name.rfind("::")
    cut = max(dot, colons)
    return name[:cut] if cut > 0 else ""


def changed_names(sig: Signals) -> list[Name]:
    """The shipped definitions the change edits, public ones first; a class whose methods
    are named is not named again."""
    names = _shipped(sig, sig.facts.changed)
    owners = {n.name.rsplit(".", 1)[0] for n in names if "." in n.name}
    owners |= {n.name.rsplit("::", 1)[0] for n in names if "::" in n.name}
    return _public_first([n for n in names if n.name not in owners])


def statements(sig: Signals, p: AnalysisPhrases) -> list[_Statement]:
    """Every statement of fact the change supports, ranked by consequence: what callers lose
    (a public removal or rename), then what runs differently (a deprecation, a value), then
    what users set (an option, a variable, a key, a pin), then new public API, then the
    internals. Nothing is said of a name but what happened to it: "changes `A`, `B`" is no
    statement."""
    readers = (
        _release_notes,
        _removals,
        _ignored,
        _reached,
        _renames,
        _packaging_removed,
        _deprecations,
        _errors_expected,
        _literals_flipped,
        _values,
        _constant_values,
        _options_helped,
        _signatures,
        _handled_public,
        _raises_gone,
        _calls_that_raise,
        _handed_raising,
        _abstract_members,
        _settings_added,
        _keys_dropped,
        _requirements,
        _marked_requirements,
        _pickles,
        _release_runners,
        _packaging_added,
        _types_shipped,
        _registrations,
        _logs_before_additions,
        _public_keywords_before_additions,
        _new_modules,
        _additions,
        _documented_public,
        _logs_after_additions,
        _guards_narrowed,
        _fields_added,
        _body_values,
        _expected,
        _redocumented_public,
        _constants_added,
        _aliases_added,
        _tables_public,
        _tables_added,
        _rows_added,
        _private_removals,
        _retyped,
        _covariant,
        _uses,
        _kernels,
        _reexports,
        _moves,
        _modules_moved,
        _imports,
        _handled_private,
        _body_checks,
        _body_conditions,
        _call_keywords,
        _body_rewrites,
        _private_changes,
        _tables_private,
        _tooling_values,
        _dev_requirements,
        _classifiers,
        _settings_same,
        _tests,
        _folder_added,
        _sections,
        _generated,
    )
    return [statement for reader in readers for statement in reader(sig, p)]


def _errors_expected(sig: Signals, p: AnalysisPhrases) -> list[_Statement]:
    """An existing test rewritten to expect an error's words from the same call, where the
    change edits shipped code: what callers met before is now an error (mistune 1bef343: a
    test of includes that expected the included page expects "Could not include outside
    source dir"). One, the first; quoted short."""
    if not any(f.path in sig.source_files for f in sig.facts.files):
        return []
    for e in sig.facts.errors_expected[:1]:
        clause = p.expects_error.format(path=e.path, old=excerpt(e.old), new=excerpt(e.new))
        return [_Statement("compatibility", clause)]
    return []


def _registrations(sig: Signals, p: AnalysisPhrases) -> list[_Statement]:
    shipped = [r for r in sig.facts.registered if r.path in sig.source_files]
    out = []
    for registry in Registry:
        found = [r for r in shipped if r.registry is registry]
        if not found:
            continue
        names = codes(p, (r.name for r in found))
        if registry is Registry.OTHER:
            # What an unknown registry holds is not known: the call that registers is named.
            clause = p.registers_with.format(names=names, via=found[0].via)
        else:
            clause = p.registers.format(what=forms(p.registry[registry], len(found)), names=names)
        out.append(_Statement("architecture", clause))
    return out


def _new_module_names(sig: Signals) -> dict[str, list[Name]]:
    """Top-level names of each shipped module the change adds."""
    defined: dict[str, list[Name]] = {}
    for name in _shipped(sig, sig.facts.added):
        if name.path in sig.new_modules and "." not in name.name and "::" not in name.name:
            defined.setdefault(name.path, []).append(name)
    return defined


def _new_modules(sig: Signals, p: AnalysisPhrases) -> list[_Statement]:
    lines = {f.path: f.additions for f in sig.facts.files}
    largest = sorted(_new_module_names(sig).items(), key=lambda kv: -lines.get(kv[0], 0))
    out = []
    for path, names in largest[:2]:
        clause = _called(
            sig, p, _worth_naming(names), p.new_module, path=path, lines=lines.get(path, 0)
        )
        out.append(_Statement("architecture", clause))
    return out


def _called(
    sig: Signals, p: AnalysisPhrases, names: list[Name], phrase: str, **values: object
) -> str:
    """The clause saying `names`, each public one of a shipped module said with how it is
    called (`URL.joinpath(*other, encoded=False)`), as long as the clause stays one line:
    past that, the last ones named lose theirs first."""
    calls = {(s.name, s.path): s.text for s in sig.facts.signatures_added}
    # a name its module and its stub (`.pyi`) both add is said once, with how it is called
    called = {n.name for n in names if (n.name, n.path) in calls}
    names = [n for n in names if n.name not in called or (n.name, n.path) in calls]
    names = [n for i, n in enumerate(names) if n.name not in {m.name for m in names[:i]}]
    said = [calls.get((n.name, n.path), n.name) if _api(n) else n.name for n in names]
    for keep in range(len(said), -1, -1):
        shown = said[:keep] + [n.name for n in names[keep:]]
        text = phrase.format(names=codes(p, shown), **values)
        if len(text) < ONE_LINE_MAX or keep == 0:
            return text
    return phrase.format(names=codes(p, (n.name for n in names)), **values)


def _api(name: Name) -> bool:
    """A public name of a module callers import: outside tests, of a module public by its
    name, or a class or a method of one in a private module (libraries keep their classes in
    `_url.py`, `_manager.py` and export them; a function there is the package's helper)."""
    if not name.public or path_kind(name.path) is PathKind.TESTS:
        return False
    return not private_module(name.path) or name.kind in (NameKind.CLASS, NameKind.METHOD)


def _renames(sig: Signals, p: AnalysisPhrases) -> list[_Statement]:
    # a method renamed in its class that callers meet is said among the risks
    risked = {(m.path, f"{m.cls}.{m.member}") for m in members_removed(sig) if m.new}
    pairs = [
        (pair.old.name, pair.new.name, pair.old.path)
        for pair in sig.facts.renamed
        if _said_renamed(sig, pair) and (pair.old.path, pair.old.name) not in risked
    ]
    pairs += [
        (c.old, c.new, c.path)
        for c in sig.renamed_constants
        if _public_name(c.old) and _public_name(c.new)
    ]
    return [
        _Statement("architecture", p.renames_in.format(old=old, new=new, path=path))
        for old, new, path in pairs
    ]


def _removed(sig: Signals) -> list[tuple[str, str]]:
    # a public constant no changed file binds any more is removed as a name is
    removed = [(n.name, n.path) for n in _shipped(sig, sig.facts.removed) if n.public]
    return removed + [(c.name, c.path) for c in sig.removed_constants if _public_name(c.name)]


def _removals(sig: Signals, p: AnalysisPhrases) -> list[_Statement]:
    """Public names gone from a module callers import: what callers lose, said first."""
    removed = [(n, at) for n, at in _removed(sig) if not inside(sig, at)]
    if not removed:
        return []
    path = removed[0][1]
    here = [n for n, at in removed if at == path]
    names = _unreleased(sig, p, codes(p, here), here)
    return [_Statement("architecture", p.removes_from.format(names=names, path=path))]


def _ignored(sig: Signals, p: AnalysisPhrases) -> list[_Statement]:
    """Public module settings no shipped code reads any more (`facts.ignored`) that the
    module still binds: an assignment users make runs and does nothing (the first of them; a
    release's names only). One removed is said as its removal; one users were told of is a
    breaking risk instead (`breaking_risks`)."""
    return [
        _Statement(
            "compatibility",
            p.setting_ignored.format(module=module_name(s.path), name=s.name),
            behaviour=True,
        )
        for s in [s for s in settings_released(sig) if not s.documented and not s.removed][:1]
    ]


def settings_released(sig: Signals) -> list[IgnoredSetting]:
    """The settings no shipped code reads any more that a release had."""
    return released(sig, list(sig.ignored_settings), lambda s: s.name)


def _unreleased(sig: Signals, p: AnalysisPhrases, said: str, names: list[str]) -> str:
    """`said` of `names` a change takes away, with the truth that no release had them where
    that is proven of each by its own words (typeguard 658a3d6: parameters added after
    3.0.0b2): no user loses them. (A parameter of a function no release had breaks no one
    either, but is said bare: the clause speaks of the names it follows.)"""
    if sig.last_release is None or not names or not all(never_released(sig, n) for n in names):
        return said
    if not sig.last_release.tag:
        return p.unreleased_first.format(names=said)
    return p.unreleased.format(names=said, tag=sig.last_release.tag)


def _private_removals(sig: Signals, p: AnalysisPhrases) -> list[_Statement]:
    """Names gone from a module private by its name (`httpx/_compat.py`), or public by it
    but handed out by nothing read (`removed.inside`: soupsieve b8701de's
    `CSS_NTH_OF_S_DEFAULT`, internal to `soupsieve.css_parser`): its package's insides,
    said after what callers meet; then the members gone from such a module's classes."""
    removed = [(n, at) for n, at in _removed(sig) if inside(sig, at)]
    out = []
    if removed:
        path = removed[0][1]
        names = [n for n, at in removed if at == path]
        said = p.removes_from.format(names=codes(p, names), path=path)
        out.append(
            _Statement(
                "architecture",
                _internal_to(sig, p, said, path),
                internal=True,
                listing=True,
                wiring=all(_hidden(_short_name(n)) for n in names),
            )
        )
    return out + _internal_members(sig, p)


def _internal_to(sig: Signals, p: AnalysisPhrases, said: str, path: str) -> str:
    """`said` of a name of `path`, with the module it is internal to where only its package
    keeps it to itself (a private name says so already)."""
    if private_module(path) or path not in sig.facts.internal_modules:
        return said
    return p.internal_to.format(clause=said, module=module_name(path))


def _internal_members(sig: Signals, p: AnalysisPhrases) -> list[_Statement]:
    """Public members gone from the classes of a module its package does not hand out
    (soupsieve b8701de: `SpecialPseudoPattern` no longer sets `re_pseudo_name`, in
    `css_parser.py`): no user meets them, so said as the package's insides, one a class."""
    groups: dict[tuple[str, str, bool], list[str]] = {}
    for m in sig.facts.members_gone:
        if m.path in sig.facts.internal_modules and m.path in sig.source_files and m.new is None:
            groups.setdefault((m.path, m.cls, m.instance), []).append(m.member)
    out = []
    for (path, cls, instance), members in list(groups.items())[:2]:
        if instance:
            said = p.no_longer_sets.format(cls=cls, path=path, names=codes(p, members))
        else:
            names = codes(p, (f"{cls}.{m}" for m in members))
            said = p.removes_from.format(names=names, path=path)
        out.append(
            _Statement(
                "architecture", _internal_to(sig, p, said, path), internal=True, listing=True
            )
        )
    return out


def _shown(value: str) -> bool:
    """A constant's value short enough to say whole (a long one is kept as a digest)."""
    return len(value) <= _SHOWN_VALUE and not value.startswith("#") and "`" not in value


def _constant_values(sig: Signals, p: AnalysisPhrases) -> list[_Statement]:
    """Public constants of shipped modules whose value the change sets anew."""
    changes = [
        c
        for c in sig.facts.constants_changed
        if sig.constant_shipped(c.path) and _public_name(c.name) and _shown(c.old) and _shown(c.new)
    ]
    return [
        _Statement(
            "compatibility",
            p.value_changed.format(name=c.name, old=c.old, new=c.new, paths=code(c.path)),
        )
        for c in changes[:2]
    ]


def _constants_added(sig: Signals, p: AnalysisPhrases) -> list[_Statement]:
    """Public constants shipped modules (or classes they had) gain, with their values: the
    first two modules'. A public class's, in a private module too: libraries keep their
    classes (an enum's members) in `_enums.py` and export them (`_api`)."""
    by_path: dict[str, list[str]] = {}
    # a new table the keys of another move into: the move names it (`_tables`)
    moved_into = {(t.path, into) for t in sig.facts.tables_changed for _, into in t.moved}
    # a new table: said with its keys (`_tables_added`)
    moved_into |= {
        (t.path, t.name) for t in sig.facts.tables_added if any(_sayable(v) for v in t.gained)
    }
    # a constant that only names a parameter's new default (`max_nested_level: int = 100`
    # became `= DEFAULT_MAX_NESTED_LEVEL`, bound to 20): the default's change is the news,
    # said as that where it reached a release, never as a new constant
    named = set(sig.facts.defaults_named)
    for c in sig.facts.constants_added:
        owner = c.name.rpartition(".")[0]
        if (c.path, c.name) in moved_into or (c.path, c.name.rpartition(".")[2]) in named:
            continue
        if _public_name(c.name) and (
            sig.constant_shipped(c.path)
            or (owner and _api(Name(owner, NameKind.CLASS, c.path)) and c.path in sig.source_files)
        ):
            # (an enum's `auto()` says nothing of the member)
            shown = f"{c.name} = {c.value}" if _shown(c.value) and c.value != "auto()" else c.name
            by_path.setdefault(c.path, []).append(shown)
    return [
        _Statement("architecture", p.adds_to.format(names=codes(p, names), path=path))
        for path, names in list(by_path.items())[:2]
    ]


def _aliases_added(sig: Signals, p: AnalysisPhrases) -> list[_Statement]:
    """Public names a shipped module binds to another (`extend = assign`): said with what
    they name, one object under two names, never as bare new API."""
    return [
        _Statement(
            "architecture", p.adds_alias.format(name=code(a.name), of=code(a.of), path=a.path)
        )
        for a in sig.facts.aliases_added
        if sig.constant_shipped(a.path)
    ][:2]


def _tables_public(sig: Signals, p: AnalysisPhrases) -> list[_Statement]:
    """Public tables of shipped modules whose strings change (the `--ws` choices a
    `Literal` lists, a registry's keys): what a user may now name, said as new API is."""
    return _tables(sig, p, public=True)


def _tables_private(sig: Signals, p: AnalysisPhrases) -> list[_Statement]:
    """Private tables (`_available_shells`) whose strings change: internals, said last."""
    return _tables(sig, p, public=False)


def _tables(sig: Signals, p: AnalysisPhrases, *, public: bool) -> list[_Statement]:
    """What each table gains, then what it loses: three strings at most, "and N more" for
    the rest; the first two tables."""
    shipped = set(sig.source_files)
    changes = [
        t
        for t in sig.facts.tables_changed
        if t.path in shipped and _table_public(sig, t.name, t.path) is public
    ]
    paths: dict[str, set[str]] = {}
    for t in sig.facts.tables_changed:
        paths.setdefault(t.name, set()).add(t.path)
    # a private table that gains the names the change adds (`PROPS` of a `__main__.py`
    # listing the new `site_log_dir`) only registers them: the additions say it already
    added = {n.short for n in sig.facts.added} if not public else set()
    # keys one dict of a file loses and another gains: moved, said once by the one they left
    moved_in = {(t.path, into, key) for t in sig.facts.tables_changed for key, into in t.moved}
    out: list[_Statement] = []
    theme = "compatibility" if public else "architecture"

    def shown(values: tuple[str, ...]) -> str | None:
        said = [v for v in values if _sayable(v)][:3]
        if not said:
            return None
        text = p.list_sep.join(code(f'"{v}"') for v in said)
        if len(values) > len(said):
            text = p.more.format(shown=text, count=len(values) - len(said))
        return text

    for t in changes[:2]:
        name = (
            p.name_in.format(name=t.name, path=t.path) if len(paths[t.name]) > 1 else code(t.name)
        )
        keys = t.kind == "keys"
        went = dict(t.moved)
        into: dict[str, list[str]] = {}
        for key, table in t.moved:
            into.setdefault(table, []).append(key)
        gained = tuple(v for v in t.gained if (t.path, t.name, v) not in moved_in)
        lost = tuple(v for v in t.lost if v not in went)
        clauses = [
            (gained, p.table_keys_gained if keys else p.table_values_gained, {}),
            *(
                (tuple(moved), p.table_keys_moved, {"old": name, "new": code(table)})
                for table, moved in into.items()
            ),
            (lost, p.table_keys_lost if keys else p.table_values_lost, {}),
        ]
        for values, phrase, names in clauses:
            if values is gained and values and set(values) <= added:
                continue
            text = shown(values)
            if text is None:
                continue
            clause = (phrase if isinstance(phrase, str) else forms(phrase, len(values))).format(
                name=name, values=text, **names
            )
            out.append(_Statement(theme, clause, internal=not public))
    return out


def _tables_added(sig: Signals, p: AnalysisPhrases) -> list[_Statement]:
    """New public dicts with string keys of shipped modules, with their first keys: what a
    lookup now finds (`KEYWORDS_SNOWFLAKE` with `"ACCOUNT"`, `"PIVOT"` …); the first two."""
    out: list[_Statement] = []
    for t in sig.facts.tables_added:
        if t.path not in sig.source_files or not sig.constant_shipped(t.path):
            continue
        said = [v for v in t.gained if _sayable(v)][:3]
        if not said:
            continue
        values = p.list_sep.join(code(f'"{v}"') for v in said)
        if len(t.gained) > len(said):
            values = p.more.format(shown=values, count=len(t.gained) - len(said))
        clause = forms(p.table_added, len(t.gained)).format(
            name=code(t.name), path=t.path, values=values
        )
        out.append(_Statement("architecture", clause))
    return out[:2]


def _rows_added(sig: Signals, p: AnalysisPhrases) -> list[_Statement]:
    """The rows a shipped module's table of tuples gains, as written (a lexer's new pattern
    and its token): what the table now matches or maps; two rows at most, the first two
    tables."""
    out: list[_Statement] = []
    for t in sig.facts.rows_added:
        if t.path not in sig.source_files:
            continue
        shown = [r for r in t.rows if rows_short(r)]
        if not shown:
            continue
        rows = p.list_sep.join(code(r) for r in shown[:2])
        if len(t.rows) > 2:
            rows = p.more.format(shown=rows, count=len(t.rows) - 2)
        clause = forms(p.rows_added, len(t.rows)).format(name=code(t.name), rows=rows)
        out.append(_Statement("compatibility", clause, behaviour=True))
    return out[:2]


def _table_public(sig: Signals, name: str, path: str) -> bool:
    """A table callers may import: a name they import (`_callers_name`) of a shipped module
    of no private path, and never a package's `__main__.py`'s (the script's own data, what
    `python -m pkg` prints)."""
    return (
        _callers_name(sig, name, path)
        and sig.constant_shipped(path)
        and not path.endswith("__main__.py")
    )


def _sayable(value: str) -> bool:
    """A table's string a sentence can quote as written: one short line, no quote,
    backquote or backslash (its source spelling would differ)."""
    return (
        0 < len(value) <= _SHOWN_VALUE
        and value.isprintable()
        and not any(c in value for c in '`"\\')
    )


def _helped(sig: Signals) -> list[Setting]:
    """The new options of a shipped program that give their own help text (two at most)."""
    return [
        f
        for f in sig.facts.flags_added
        if f.path in sig.source_files and f.help is not None and _helpful(f.help)
    ][:2]


def _options_helped(sig: Signals, p: AnalysisPhrases) -> list[_Statement]:
    """A new option of a shipped program said with its own help text: what it does, in its
    author's words (before the parameter its command gains for it)."""
    return [
        _Statement("compatibility", p.flag_helped.format(name=f.name, help=f.help))
        for f in _helped(sig)
    ]


def _settings_added(sig: Signals, p: AnalysisPhrases) -> list[_Statement]:
    # "new" only when the parent's whole tree was searched: a file that starts reading a
    # variable another module read before adds no setting
    new = sig.facts.settings_new
    helped = _helped(sig)
    groups: tuple[tuple[tuple[str, str], tuple[Setting, ...]], ...] = (
        (p.flags_added, tuple(f for f in sig.facts.flags_added if f not in helped)),
        (p.env_added if new else p.env_read, sig.facts.env_added),
        (p.keys_added if new else p.keys_read, sig.facts.config_keys_added),
    )
    return [
        _Statement(
            "compatibility", forms(clause, len(read)).format(names=codes(p, (s.name for s in read)))
        )
        for clause, read in groups
        if read
    ]


# A help text longer than this is not quoted.
_SAID_HELP = 160


def _helpful(words: str) -> bool:
    """An option's help text a sentence can quote as written: one short line of words, no
    backquote or quotation mark of the sentence's own (a quote would end early)."""
    return (
        0 < len(words) <= _SAID_HELP
        and words.isprintable()
        and not any(c in words for c in "`“”")
        and any(c.isalpha() for c in words)
    )


def _keys_dropped(sig: Signals, p: AnalysisPhrases) -> list[_Statement]:
    """Keys a call site stops asking for (a configuration module's lost keys are risks)."""
    dropped = [
        s.name for s in sig.facts.config_keys_removed if s.name not in sig.config_keys_removed
    ]
    if not dropped:
        return []
    clause = forms(p.keys_removed, len(dropped)).format(names=codes(p, dropped))
    return [_Statement("compatibility", clause)]


def _abstract_members(sig: Signals, p: AnalysisPhrases) -> list[_Statement]:
    """A public class's new abstract members: a subclass outside the package that does not
    define them can no longer be made (not breaking by itself: most such classes are no
    extension point), one statement a class."""
    by_owner: dict[str, list[str]] = {}
    for a in sig.facts.abstract_added:
        if a.path in sig.source_files:
            by_owner.setdefault(a.owner, []).append(a.name)
    return [
        _Statement(
            "compatibility",
            forms(p.abstract_added, len(names)).format(owner=owner, names=codes(p, names)),
        )
        for owner, names in by_owner.items()
    ]


def _overrides(sig: Signals, p: AnalysisPhrases, names: list[Name]) -> list[_Statement]:
    """New methods over a base class's, said as overrides of it, a statement each subclass
    and base (two at most)."""
    bases = {(o.name, o.path): o.base for o in sig.facts.overrides}
    groups: dict[tuple[str, str], list[str]] = {}
    for n in names:
        groups.setdefault((_owner(n.name), bases[(n.name, n.path)]), []).append(n.short)
    return [
        _Statement(
            "architecture",
            p.overrides.format(owner=owner, names=codes(p, shorts), base=base),
            internal=owner.startswith("_"),
        )
        for (owner, base), shorts in list(groups.items())[:2]
    ]


def _additions(sig: Signals, p: AnalysisPhrases) -> list[_Statement]:
    in_new = _new_module_names(sig)
    over = {(o.name, o.path) for o in sig.facts.overrides}
    shipped = [
        n
        for n in _shipped(sig, sig.facts.added)
        if n.path not in in_new and n.kind is not NameKind.KERNEL
    ]
    worth = _worth_naming(shipped)
    overriding = [n for n in worth if (n.name, n.path) in over]
    added = [n for n in worth if (n.name, n.path) not in over]
    # a base class's new members before its subclasses' (an abstract one is what
    # subclasses elsewhere must define): "and N more" never hides them behind those
    owners = {a.owner for a in sig.facts.abstract_added}
    added.sort(key=lambda n: ("." in n.name and _owner(n.name) not in owners, "." in n.name))
    if not added:
        return _overrides(sig, p, overriding)
    return _added_said(sig, p, added) + _overrides(sig, p, overriding)


def _added_said(sig: Signals, p: AnalysisPhrases, added: list[Name]) -> list[_Statement]:
    paths = {n.path for n in added}
    # with their file when they all live in one
    if len(paths) == 1:
        clause = _called(sig, p, added, p.adds_to, path=paths.pop())
    elif any(n.name in sig.facts.names_shared for n in added):
        # a name another changed file defines too (each backend's new `Lock.acquire` beside
        # the base class's) says which only with its file: each file's names their own
        # clause, the first two files'
        by_path: dict[str, list[Name]] = {}
        for n in added:
            by_path.setdefault(n.path, []).append(n)
        return [
            _Statement(
                "architecture",
                _called(sig, p, names, p.adds_to, path=path),
                internal=not any(n.public for n in names),
                listing=_insides(names),
                wiring=all(_hidden(n.short) for n in names),
            )
            for path, names in list(by_path.items())[:2]
        ]
    else:
        clause = _called(sig, p, added, p.adds)
    private = not any(n.public for n in added)
    return [
        _Statement(
            "architecture",
            clause,
            internal=private,
            listing=_insides(added),
            wiring=all(_hidden(n.short) for n in added),
        )
    ]


# Methods the builtin containers, strings and files have: a call to one by name says no more
# than that the code looks up, joins or appends something
_COMMON_METHODS = frozenset(
    [
        "get",
        "items",
        "keys",
        "values",
        "update",
        "pop",
        "setdefault",
        "append",
        "extend",
        "insert",
        "remove",
        "clear",
        "copy",
        "sort",
        "add",
        "discard",
        "join",
        "split",
        "rsplit",
        "strip",
        "lstrip",
        "rstrip",
        "replace",
        "format",
        "startswith",
        "endswith",
        "lower",
        "upper",
        "encode",
        "decode",
        "read",
        "write",
        "close",
    ]
)


def _hidden(short: str) -> bool:
    """A name private by its own spelling (`_unique_id`), a dunder (`__init__`) aside: what
    no caller reaches."""
    return short.startswith("_") and not (short.startswith("__") and short.endswith("__"))


def _insides(names: list[Name]) -> bool:
    """Names a user does not call by their module: private, or in a private module
    (`_checkers.check_paramspec`: what the package hands out of it is said as such)."""
    return not any(n.public and not private_module(n.path) for n in names)


def _documented_public(sig: Signals, p: AnalysisPhrases) -> list[_Statement]:
    """What the change's new public API does, in the first sentence of its docstring (two
    at most): the author's words for what "adds `x`" only names."""
    api = {(n.name, n.path) for n in _shipped(sig, sig.facts.added) if _api(n) or _operator(n)}
    found = [d for d in sig.facts.documented if (d.name, d.path) in api]
    # a top-level name before the members of a class
    found.sort(key=lambda d: d.name.count("."))
    return _documented(sig, p, found, 2)


def _redocumented_public(sig: Signals, p: AnalysisPhrases) -> list[_Statement]:
    """What the docstring of a shipped public definition the change keeps now says anew (one
    sentence): the author's own words for the behaviour the change gives it (stamina b163605's
    `RetryHook`: "If the hook returns a context manager, it will be entered …")."""
    found = [
        d
        for d in sig.facts.redocumented
        if d.path in sig.source_files
        and path_kind(d.path) is not PathKind.TESTS
        and _public_name(d.name)
    ]
    found.sort(key=lambda d: d.name.count("."))
    return _documented(sig, p, found, 1, phrase=p.redocumented)


def _operator(name: Name) -> bool:
    """A special method of a public class (`URL.__sub__`): what `a - b` does, as callers
    use it; `__init__` is the class's own call."""
    owner, _, last = name.name.rpartition(".")
    special = last.startswith("__") and last.endswith("__") and last != "__init__"
    return special and bool(owner) and _api(Name(owner, NameKind.CLASS, name.path))


def _documented_helpers(sig: Signals) -> list[Documented]:
    """The new private helpers that edited shipped code now calls whose docstring says more
    than their name and the title: what each is for, the role "now calls `_x`" leaves
    unsaid."""
    shipped = set(sig.source_files)
    called = {c.callee for c in sig.facts.calls_added if c.path in shipped}
    return [
        d
        for d in sig.facts.documented
        if d.path in shipped
        and not _public_name(d.name)
        and _short_name(d.name) in called
        and says_more(d.text, d.name, sig.title.text)
    ]


def _documented(
    sig: Signals,
    p: AnalysisPhrases,
    found: list[Documented],
    limit: int,
    *,
    phrase: str | None = None,
) -> list[_Statement]:
    """One sentence for each docstring that says more than its name and the title do (the
    same words said once)."""
    out: list[_Statement] = []
    said: set[str] = set()
    for d in found:
        # `merge` of a base class and of its implementation: one is enough
        if _short_name(d.name) in said or not says_more(d.text, d.name, sig.title.text):
            continue
        said.add(_short_name(d.name))
        clause = (phrase or p.documented).format(name=_which(sig, p, d.name, d.path), text=d.text)
        out.append(
            _Statement("architecture", clause, internal=not _public_name(d.name), quoted=d.text)
        )
    return out[:limit]


def _short_name(name: str) -> str:
    return name.rsplit(".", 1)[-1]


def _uses(sig: Signals, p: AnalysisPhrases) -> list[_Statement]:
    """Where the change's new definitions are used: the shipped functions it edits that now
    call one (at most two definitions said; one sentence for the callers they share), a new
    private helper said with the first sentence of its docstring (what the call does), or
    else one helper's docstring on its own. A call that follows a rename (a caller
    drops `_old` for `new`, or a definition only follows it: `facts.followed`) is no new
    call: a helper made public is said renamed once instead, where no other sentence says
    it."""
    shipped = set(sig.source_files)
    helpers: dict[str, Documented] = {}
    for d in _documented_helpers(sig):
        # `merge` of a base class and of its implementation: the first one's words
        helpers.setdefault(_short_name(d.name), d)
    dropped = {(c.caller, c.callee) for c in sig.facts.calls_removed if c.path in shipped}
    # (caller, callee) of the calls that only follow a rename, on either side
    follow: set[tuple[str, str]] = set()
    followed: list[Renamed] = []
    # a shipped definition that only follows it (`facts.followed`: not edited, its calls
    # not compared)
    following = {
        (f.rename.old.path, f.rename.old.name, f.rename.new.name)
        for f in sig.facts.followed
        if f.path in shipped
    }
    for pair in sig.facts.renamed:
        old, new = pair.old.short, pair.new.short
        if (pair.old.path, pair.old.name, pair.new.name) in following:
            followed.append(pair)
        for call in sig.facts.calls_added:
            if call.path in shipped and call.callee == new and (call.caller, old) in dropped:
                follow |= {(call.caller, new), (call.caller, old)}
                followed.append(pair)
    # a helper made public is said (a private one renamed is nothing to a reader), and
    # first among the calls: those of it that are new say why
    public = [
        pair for pair in dict.fromkeys(followed) if pair.new.public and not _said_renamed(sig, pair)
    ]
    out = [
        _Statement(
            "architecture",
            p.renames_in.format(old=pair.old.name, new=pair.new.name, path=pair.old.path),
            internal=True,
        )
        for pair in public[:1]
    ]
    first = {pair.new.short for pair in public[:1]}
    calls: list[tuple[_Statement, str | None]] = []  # each with the helper it quotes
    for phrase, made, added in (
        (p.now_calls, sig.facts.calls_added, True),
        (p.no_longer_calls, sig.facts.calls_removed, False),
    ):
        # callee -> its callers, each with its file
        callers: dict[str, list[tuple[str, str]]] = {}
        for call in sorted(made, key=lambda c: c.callee not in first):
            # a callee that raises for its callers is said by `_calls_that_raise`
            if call.raises:
                continue
            if call.path in shipped and (call.caller, call.callee) not in follow:
                callers.setdefault(call.callee, []).append((call.caller, call.path))
        # the two definitions said, those called by the same functions in one sentence
        callees: dict[tuple[tuple[str, str], ...], list[str]] = {}
        for callee, names in list(callers.items())[:2]:
            callees.setdefault(tuple(dict.fromkeys(names)), []).append(callee)
        for together, called in callees.items():
            shown = (
                p.both.format(first=code(called[0]), second=code(called[1]))
                if len(called) == 2
                else code(called[0])
            )
            # `command` calls in two files are two callers: each said with its file
            who = [_which(sig, p, name, path) for name, path in together]
            named = (
                codes(p, [name for name, _ in together])
                if all(w == code(name) for w, (name, _) in zip(who, together, strict=True))
                else p.list_sep.join(who[:3])
                if len(who) <= 3
                else p.more.format(shown=p.list_sep.join(who[:3]), count=len(who) - 3)
            )
            clause = forms(phrase, len(together)).format(callers=named, callees=shown)
            doc = helpers.get(called[0]) if added and len(called) == 1 else None
            if doc is None:
                # private helpers called, or no longer called (their guards may only have
                # moved into a helper the function now calls: mistune 0396492)
                # (nor a method every builtin container or string has: "`f` now calls
                # `get`" may be a `dict`'s, and says nothing a reader acts on)
                hidden = all(
                    _hidden(_short_name(c)) or _short_name(c) in _COMMON_METHODS for c in called
                )
                plain = _Statement(
                    "architecture", clause, internal=True, listing=True, wiring=hidden
                )
                calls.append((plain, None))
                continue
            # the call and what the helper does, said together once (filelock 94a80aa:
            # `_open_non_reparse_fd` now calls `_nt_open`, whose docstring says it opens the
            # path through `NtCreateFile`)
            told = forms(p.now_calls_documented, len(together)).format(
                callers=named, callee=shown, text=doc.text
            )
            quoting = _Statement(
                "architecture", told, internal=True, quoted=doc.text, plain=clause, behaviour=True
            )
            calls.append((quoting, called[0]))
    quoted = {callee for _, callee in calls[:2] if callee is not None}
    rest = [d for d in helpers.values() if _short_name(d.name) not in quoted]
    # (a helper's docstring on its own only where no call said one: no more quotes than
    # before the two were said together)
    return out + [s for s, _ in calls[:2]] + _documented(sig, p, rest, 0 if quoted else 1)


def _calls_that_raise(sig: Signals, p: AnalysisPhrases) -> list[_Statement]:
    """A shipped function that now calls one of the commit's functions whose own `if t:`
    ends in `raise E`: what its callers now meet, said with the test ("`PasswordHasher.__init__`
    now calls `validate_params_for_platform`, which raises `UnsupportedParamsError` when
    `…`"); public callers first, two at most."""
    shipped = set(sig.source_files)
    found = sorted(
        (c for c in sig.facts.calls_added if c.raises and c.path in shipped),
        key=lambda c: not _public_name(c.caller),
    )
    return [
        _Statement(
            "compatibility",
            (forms(p.now_calls_raising_more, c.more) if c.more else p.now_calls_raising).format(
                caller=_which(sig, p, c.caller, c.path),
                callee=code(c.callee),
                exception=c.raises,
                test=c.when,
                more=c.more,
            ),
            internal=not _public_name(c.caller),
            behaviour=True,
        )
        for c in found[:2]
    ]


def _handed_raising(sig: Signals, p: AnalysisPhrases) -> list[_Statement]:
    """A shipped function that now sets an object's attributes to a closure of its own that
    raises: what the object's callbacks now raise inside the call (xmltodict c986d2d: `parse`
    sets expat's DOCTYPE and entity handlers to one that raises `ExpatError`), said with the
    `if` it sits under; public functions first, one at most."""
    shipped = set(sig.source_files)
    found = sorted(
        (h for h in sig.facts.handed_raises if h.path in shipped),
        key=lambda h: not _public_name(h.name),
    )
    out = []
    for h in found[:1]:
        told = {
            "name": _which(sig, p, h.name, h.path),
            "targets": codes(p, h.targets),
            "closure": code(h.closure),
            "exception": h.exception,
            "text": h.message,
        }
        if h.test and h.default:
            clause = p.sets_raising_default.format(**told, test=h.test, default=h.default)
        elif h.test:
            clause = p.sets_raising_when.format(**told, test=h.test)
        else:
            clause = p.sets_raising.format(**told)
        out.append(
            _Statement("compatibility", clause, internal=not _public_name(h.name), behaviour=True)
        )
    return out


def _private_changes(sig: Signals, p: AnalysisPhrases) -> list[_Statement]:
    """A shipped module's definition renamed to a private name, then its private ones
    removed: the insides, said last and only by what happened to them."""
    out = [
        _Statement(
            "architecture",
            p.renames_in.format(old=pair.old.name, new=pair.new.name, path=pair.old.path),
            internal=True,
            listing=True,
            wiring=_hidden(pair.old.short),
        )
        for pair in sig.facts.renamed
        # a helper made public is said where its callers are
        if pair.old.path in sig.source_files
        and not pair.new.public
        and not pair.old.short.startswith("__")
        # a method that left its class under its own name (or a function that became a
        # method) kept its name: not a rename, and the title says why it moved
        and pair.old.short != pair.new.short
    ][:1]
    # a dunder (`__getattr__`) is a protocol's name, not a private helper; the methods of a
    # class removed went with it
    gone = {n.name for n in sig.facts.removed}
    removed = [
        (n.name, n.path)
        for n in _shipped(sig, sig.facts.removed)
        if not n.public and not n.short.startswith("__") and _owner(n.name) not in gone
    ]
    if removed:
        path = removed[0][1]
        names = codes(p, (n for n, at in removed if at == path))
        clause = p.removes_from.format(names=names, path=path)
        hidden = all(_hidden(_short_name(n)) for n, at in removed if at == path)
        out.append(_Statement("architecture", clause, internal=True, listing=True, wiring=hidden))
    return out


def _said_renamed(sig: Signals, pair: Renamed) -> bool:
    """Whether `_renames` says this rename (a public name renamed in a shipped file)."""
    return pair.old.path in sig.source_files and pair.old.public and pair.new.public


_TYPING_HOMES = frozenset(
    {"typing", "typing_extensions", "collections.abc", "collections", "types"}
)


def _imports(sig: Signals, p: AnalysisPhrases) -> list[_Statement]:
    """Where callers follow a move: the shipped modules that import a name from another
    module than before (the name most of them import said)."""
    shipped = set(sig.source_files)
    importers: dict[tuple[str, str], list[str]] = {}
    for move in sig.facts.imports_moved:
        # the same typing name from another of the standard library's homes (pyupgrade's
        # `typing.Iterator` → `collections.abc.Iterator`) moves nothing a caller follows
        if move.path in shipped and not {move.old, move.new} <= _TYPING_HOMES:
            importers.setdefault((move.name, move.new), []).append(move.path)
    if not importers:
        return []
    (name, module), paths = max(importers.items(), key=lambda kv: len(kv[1]))
    # "and N more" counts every module that does (a library's `testing/` helpers too)
    paths += [
        m.path
        for m in sig.facts.imports_moved
        if (m.name, m.new) == (name, module) and m.path not in paths
    ]
    clause = forms(p.now_imports, len(paths)).format(
        paths=codes(p, paths, 2), name=name, module=module
    )
    return [_Statement("architecture", clause, internal=True)]


def _kernels(sig: Signals, p: AnalysisPhrases) -> list[_Statement]:
    kernels = [n.name for n in sig.facts.added if n.kind is NameKind.KERNEL]
    if not kernels:
        return []
    clause = forms(p.kernels_added, len(kernels)).format(names=codes(p, kernels))
    return [_Statement("performance", clause)]


def _types_shipped(sig: Signals, p: AnalysisPhrases) -> list[_Statement]:
    """PEP 561's marker the package newly ships: its users' type checkers read its
    annotations from now on (`facts.types_shipped`)."""
    if not sig.facts.types_shipped:
        return []
    return [_Statement("compatibility", p.types_shipped.format(marker=code("py.typed")))]


def _requirements(sig: Signals, p: AnalysisPhrases) -> list[_Statement]:
    """What the package requires, then what the dev tools' own requirement files pin (the
    docs' or the linters' `requirements/doc.txt`: no user installs them, aiohttp 421eb60):
    beside a change of shipped code, those pins reach no user, and are said only when
    nothing of more consequence is, never as the summary (aiodns c856d44: a fallback in
    `DNSResolver` was summed up as a pin of `pytest-asyncio`)."""
    # the metadata moved whole (each requirement one file drops, the other writes), said
    # before what changed on the way (apscheduler 92219f0: `setup.cfg` → `pyproject.toml`)
    out: list[str] = [
        p.moves_metadata.format(old=code(old), new=code(new))
        for old, new in dict.fromkeys(sig.facts.metadata_moved)
    ][:1]
    moved = len(out)
    tools_only = False
    # (what `[build-system] requires` alone lists is needed to build the sdist or wheel, by
    # whoever builds from source: no install of the package asks for it)
    for role, phrase in (
        ("package", p.requires),
        ("build", p.requires_build),
        ("tools", p.requires_tools),
    ):
        pins = [
            p.pin_was.format(pin=f"`{r.package}{r.spec}`", old=r.old)
            if r.old
            else f"`{r.package}{r.spec}`"
            for r in sig.facts.requirements
            if _requirement_role(r) == role and not (role == "package" and _marked(sig, r))
        ]
        # (the dev tools' pins only where the package's own requirements stay: beside
        # those they are the lock files' echo of them)
        if role == "build" and (needs := sig.facts.build_needs_changed):
            # a backend switched: what whoever builds from the sdist must now have, by name
            # (python-tabulate 6050bef: setuptools and setuptools_scm → flit and flit_scm)
            out.append(
                p.build_needs.format(new=codes(p, needs[0].new, 4), old=codes(p, needs[0].old, 4))
            )
            continue
        if pins and (role != "tools" or len(out) == moved):
            shown = p.list_sep.join(list(dict.fromkeys(pins))[:4])
            out.append(phrase.format(pins=shown))
            tools_only = role == "tools" and len(out) == 1
    # an extra's requirements, each extra a sentence of its own: no install of the package
    # itself asks for them
    extras = [_Statement("compatibility", clause) for clause in _extras_changed(sig, p)]
    if not out:
        return extras
    # one sentence: a one-line entry says both what installs and what builds need
    aside = tools_only and bool(sig.source_lines)
    return [_Statement("compatibility", p.clause_sep.join(out), minor=aside, aside=aside), *extras]


def _extras_changed(sig: Signals, p: AnalysisPhrases) -> list[str]:
    """What an extra declared at both revisions requires anew, no more, or pinned otherwise,
    one clause of each for the first extras (`facts.extras_changed`)."""
    clauses: dict[tuple[str, str], list[str]] = {}
    for change in sig.facts.extras_changed:
        if change.old and change.new:
            pin = p.pin_was.format(pin=code(change.new), old=change.old)
            clauses.setdefault((change.extra, "pinned"), []).append(pin)
        elif change.new:
            clauses.setdefault((change.extra, "added"), []).append(code(change.new))
        elif change.old:
            clauses.setdefault((change.extra, "removed"), []).append(code(change.old))
    phrases = {
        "pinned": p.extra_requires,
        "added": p.extra_also_requires,
        "removed": p.extra_no_longer_requires,
    }
    return [
        phrases[how].format(name=code(extra), pins=p.list_sep.join(pins[:4]))
        for (extra, how), pins in list(clauses.items())[:3]
    ]


def _where(p: AnalysisPhrases, marker: str) -> str:
    """Which installs a marker picks: "on Python < 3.11", else the marker in a code span."""
    if not marker:
        return p.where_every
    bound = python_bound(marker)
    return (
        p.where_python.format(bound=bound) if bound else p.where_marker.format(marker=code(marker))
    )


def _marked_requirements(sig: Signals, p: AnalysisPhrases) -> list[_Statement]:
    """Runtime dependencies the change gives a marker (`facts.requirements_marked`): a new
    one only some installs get, said with them (bidict 3032e9f: "requires
    `typing_extensions>=4.0`" read as every install's, where only Python < 3.11's get it),
    and one kept whose marker now picks other installs (bidict db0a9b5: `<'3.11'` →
    `<'3.12'`, which nothing else said); the package's first said so."""
    out = []
    for m in sig.facts.requirements_marked[:3]:
        pin = code(m.requirement)
        if m.old_marker is None:
            clause = (
                p.installs_where.format(where=_where(p, m.marker), pin=pin)
                if m.marker
                else p.requires.format(pins=pin)
            )
            if m.first:
                clause = p.first_dependency.format(clause=clause)
        else:
            was, now = python_bound(m.old_marker), python_bound(m.marker)
            old = was if was and now else _where(p, m.old_marker)
            clause = p.required_where.format(
                name=code(m.package), where=_where(p, m.marker), old=old
            )
        out.append(_Statement("compatibility", clause))
    return out


def _marked(sig: Signals, r: Requirement) -> bool:
    """Whether a requirement is one `_marked_requirements` says with its marker."""
    return any(
        m.path == r.path and package_name(m.package) == package_name(r.package)
        for m in sig.facts.requirements_marked
    )


def pickles_broken(sig: Signals) -> list[PickleChange]:
    """Public classes whose pickles written at the parent are proven not to load at the
    commit (`facts.pickles_changed`), in shipped code; not where what the parent's hook
    wrote is proven in no release (every line the change edits came after the last tag, or
    a word of the class's name or of the hook's old return is in no release's files)."""
    if sig.last_release is not None and sig.last_release.edits_unreleased:
        return []
    return [
        c
        for c in sig.facts.pickles_changed
        # (a public class of a private module is pickled all the same: bidict's `BidictBase`
        # of `_base.py`, every bidict's base)
        if c.broken
        and c.path in sig.source_files
        and path_kind(c.path) is not PathKind.TESTS
        and not never_released(sig, c.cls)
        and not never_released(sig, c.old)
    ]


def _pickle_risks(sig: Signals, p: AnalysisPhrases) -> list[Risk]:
    """A pickle the last release wrote that no longer loads: the callable its `__reduce__`
    named no longer takes the arguments it passed, or is gone (bidict 3032e9f)."""
    release = (
        code(sig.last_release.tag)
        if sig.last_release is not None and sig.last_release.tag
        else p.earlier_releases
    )
    risks = []
    for c in pickles_broken(sig)[:2]:
        said = (p.pickles_gone if c.gone else p.pickles_refused).format(
            cls=code(c.cls), release=release, callee=code(c.callee), passed=c.passed
        )
        risks.append(
            Risk(
                description=sentence(p, said),
                consequence=p.unpickling_fails.format(
                    error=code("AttributeError" if c.gone else "TypeError")
                ),
            )
        )
    return risks


# A `__reduce__`'s return is quoted when this short
_SAID_REDUCE = 90


def _pickles(sig: Signals, p: AnalysisPhrases) -> list[_Statement]:
    """What a public class's `__reduce__` now returns, where every `return` of it gives one
    value at each revision and it differs: how its instances pickle (whether the old pickles
    load is `_pickle_risks`' to say)."""
    out = []
    for c in sig.facts.pickles_changed[:2]:
        if (
            c.path not in sig.source_files
            or c.old == c.new
            or " | " in c.old + c.new
            or len(c.old) + len(c.new) > 2 * _SAID_REDUCE
        ):
            continue
        said = p.reduce_returns.format(
            name=code(f"{c.cls}.{c.method}"), new=code(c.new), old=code(c.old)
        )
        out.append(_Statement("compatibility", said))
    return out


def _release_runners(sig: Signals, p: AnalysisPhrases) -> list[_Statement]:
    """A release workflow's per-platform binaries built on another runner: what users
    download changes (`workflows.release_runners`)."""
    moved = list(dict.fromkeys((r.old, r.new) for r in sig.facts.release_runners))
    if not moved:
        return []
    said = p.list_sep.join(p.runner_was.format(new=code(new), old=code(old)) for old, new in moved)
    return [_Statement("compatibility", p.release_runners.format(runners=said))]


def _requirement_role(r: Requirement) -> str:
    """Whose requirement it is: the dev tools' ("tools"), the build's ("build": only
    `[build-system] requires` lists it), or the package's ("package")."""
    if r.tools or tooling_path(r.path):
        return "tools"
    return "build" if r.build else "package"


# A requirement or an entry point's target is quoted after its name when this short.
_SAID_TARGET = 50
# An extra's requirements are quoted when it has at most this many.
_SAID_REQUIREMENTS = 2


def _extras(p: AnalysisPhrases, extras: Iterable[Extra], *, with_requirements: bool) -> str:
    """`socks` (`socksio==1.*`), `http2`: extras, each with its requirements as written when
    few and short."""
    shown = []
    for extra in extras:
        said = code(extra.name)
        needs = extra.requirements
        if (
            with_requirements
            and 0 < len(needs) <= _SAID_REQUIREMENTS
            and all(len(r) <= _SAID_TARGET and "`" not in r for r in needs)
        ):
            said += f" ({p.list_sep.join(code(r) for r in needs)})"
        shown.append(said)
    return _listed(p, shown)


def _points(p: AnalysisPhrases, points: Iterable[EntryPoint], *, with_targets: bool) -> str:
    """`attrs-x` (`attr.cli:main`): entry points, each with its target when short."""
    shown = [
        code(e.name) + (f" ({code(e.target)})" if with_targets and _said_target(e) else "")
        for e in points
    ]
    return _listed(p, shown)


def _said_target(point: EntryPoint) -> bool:
    return 0 < len(point.target) <= _SAID_TARGET and "`" not in point.target


def _listed(p: AnalysisPhrases, shown: list[str], limit: int = 3) -> str:
    unique = list(dict.fromkeys(shown))
    out = p.list_sep.join(unique[:limit])
    return p.more.format(shown=out, count=len(unique) - limit) if len(unique) > limit else out


def _commands(points: Iterable[EntryPoint]) -> list[EntryPoint]:
    return [e for e in points if e.group in COMMAND_GROUPS]


def _plugins(points: Iterable[EntryPoint]) -> dict[str, list[EntryPoint]]:
    """Entry points other than commands, by group."""
    groups: dict[str, list[EntryPoint]] = {}
    for point in points:
        if point.group not in COMMAND_GROUPS:
            groups.setdefault(point.group, []).append(point)
    return groups


# Release notes quoted in one sentence, and the length each is cut to.
_RELEASE_SHOWN = 2
_RELEASE_QUOTE = 120


def _quoted(p: AnalysisPhrases, note: ReleaseNote, limit: int) -> str:
    text = excerpt(note.text, limit)
    return p.release_item.format(text=text, heading=note.heading) if note.heading else f"“{text}”"


def release_clause(
    sig: Signals,
    p: AnalysisPhrases,
    *,
    ranked: bool = False,
    skip: ReleaseNote | None = None,
    room: int = ONE_LINE_MAX,
) -> str | None:
    """The items a release's changelog section adds: those the author files as breaking,
    removed, deprecated or security first (else the first ones), then how many more; on
    one line where a shorter quotation or fewer items allow. `ranked`: every item in order
    of consequence (breaking, security, removals, fixes, features, then docs and chores),
    `skip` one said already, within `room` characters."""
    notes = sig.release
    if notes is None or not notes.items:
        return None
    # an item that leans on the one before ("Same for columns.") says nothing quoted alone
    quotable = [n for n in notes.items if not leans(n.text) and n is not skip]
    if not quotable:
        return None
    notable = [n for n in quotable if n.notable]
    order = sorted(quotable, key=lambda n: n.rank) if ranked else notable or quotable
    count = len(notes.items)
    clause = ""
    for shown_count, limit in (
        (_RELEASE_SHOWN, _RELEASE_QUOTE),
        (1, _RELEASE_QUOTE),
        (1, 80),
        (1, 50),
    ):
        shown = order[:shown_count]
        quoted = p.list_sep.join(_quoted(p, n, limit) for n in shown)
        if count > len(shown):
            quoted = p.more.format(shown=quoted, count=count - len(shown))
        clause = forms(p.release_notes, count).format(path=notes.path, count=count, items=quoted)
        if len(sentence(p, clause)) <= room:
            break
    return clause


# Commits a release ships named at most; the rest counted
_CARRIED_SHOWN = 3


def carried_sentence(sig: Signals, p: AnalysisPhrases, room: int) -> str | None:
    """How many commits a release ships since the last release (as `git log --oneline
    TAG..RELEASE` lists them), and those breaking or high by their own analysis, the breaking
    ones first and marked, named by short sha and title (fewer, or shorter, to fit `room`);
    None where the clone told nothing, the release ships itself alone (its entry says its own
    change), or nothing fits."""
    carried = sig.carried
    if carried is None or carried.count < 2:
        return None
    head = forms(p.carried, carried.count).format(count=carried.count, tag=carried.since)
    notable = carried.notable
    for shown, limit in ((_CARRIED_SHOWN, 80), (2, 60), (1, 60), (1, 40), (0, 0)):
        if notable and shown:
            items = p.list_sep.join(
                (p.carried_item_breaking if c.breaking else p.carried_item).format(
                    sha=c.sha[:7], title=excerpt(c.title, limit)
                )
                for c in notable[:shown]
            )
            if len(notable) > shown:
                items = p.more.format(shown=items, count=len(notable) - shown)
            said = sentence(p, head + p.carried_notable.format(count=len(notable), items=items))
        else:
            said = sentence(p, head)
        if len(said) <= room:
            return said
    return None


def release_summary(sig: Signals, p: AnalysisPhrases, limit: int) -> str | None:
    """What a release commit brings: the version it releases, the first breaking change its
    changelog section lists, then that section's items in order of consequence."""
    released = sig.released
    if released is None:
        return None
    notes = sig.release.items if sig.release is not None else ()
    if not notes:
        head = sentence(p, p.releases.format(version=released.version))
        if sig.carried is not None:
            # the previous release the clone's tags tell (`clone_carried.previous_tag`: the
            # bumped-from version's tag, else the last tag reached where not older); where
            # they tell none (lark ae207df's 1.2.0 was never tagged, 1.1.9 is older) none is
            # named
            head = sentence(
                p, p.releases_after.format(version=released.version, previous=sig.carried.since)
            )
        elif sig.last_release is None and released.previous is not None:
            # online (no tags read): the version file's old version, no release claimed
            head = sentence(
                p, p.releases_from.format(version=released.version, previous=released.previous)
            )
        shipped = carried_sentence(sig, p, limit - len(head) - len(p.sentence_sep))
        return head if shipped is None else p.sentence_sep.join((head, shipped))
    said = [sentence(p, p.releases.format(version=released.version))]
    breaking = [n for n in notes if n.breaking and not leans(n.text)]
    first = breaking[0] if breaking else None
    if first is not None:
        item = f"“{excerpt(first.text, _RELEASE_QUOTE)}”"
        clause = forms(p.release_breaking, len(breaking)).format(
            version=released.version, item=item, count=len(breaking) - 1
        )
        said.append(sentence(p, clause))
    room = limit - len(p.sentence_sep.join(said)) - len(p.sentence_sep)
    shipped = carried_sentence(sig, p, room)
    if shipped is not None:
        said.append(shipped)
        room -= len(shipped) + len(p.sentence_sep)
    listed = release_clause(sig, p, ranked=True, skip=first, room=room)
    if listed is not None and len(sentence(p, listed)) <= room:
        said.append(sentence(p, listed))
    return p.sentence_sep.join(said)


def opening_summary(sig: Signals, p: AnalysisPhrases, limit: int) -> str | None:
    """What a commit that opens a version's work says: the version and its development
    version, then the items of its changelog section, quoted as the changelog's words (they
    are the version's, most of them other commits' changes)."""
    opened = sig.opened
    if opened is None:
        return None
    head = p.opens.format(version=opened.version, development=opened.development)
    notes = [n for n in sig.release.items if not leans(n.text)] if sig.release else []
    count = len(sig.release.items) if sig.release else 0
    for quote in (_RELEASE_QUOTE, 80, 50):
        if not notes:
            break
        items = _quoted(p, notes[0], quote)
        if count > 1:
            items = p.more.format(shown=items, count=count - 1)
        said = sentence(p, head + forms(p.opens_lists, count).format(items=items, count=count))
        if len(said) <= limit:
            return said
    return sentence(p, head)


def _release_notes(sig: Signals, p: AnalysisPhrases) -> list[_Statement]:
    if sig.released is not None or sig.opened is not None:
        return []  # the release's summary says its notes (`release_summary`)
    clause = release_clause(sig, p)
    return [_Statement("compatibility", clause)] if clause else []


def _packaging_removed(sig: Signals, p: AnalysisPhrases) -> list[_Statement]:
    """Extras, commands and entry points the package declares no more: what installs and
    scripts lose (each also a risk)."""
    facts = sig.facts
    phrases = (p.extras_removed, p.commands_removed, p.entry_points_removed)
    out = _packaging(p, facts.extras_removed, facts.entry_points_removed, phrases, added=False)
    return [_Statement("compatibility", clause) for clause in out]


def _packaging_added(sig: Signals, p: AnalysisPhrases) -> list[_Statement]:
    """Extras, commands and entry points the package declares anew, and a new build
    backend, each as its packaging file writes it."""
    facts = sig.facts
    phrases = (p.extras_added, p.commands_added, p.entry_points_added)
    out = _packaging(p, facts.extras_added, facts.entry_points_added, phrases, added=True)
    out += [p.backend_changed.format(old=b.old, new=b.new) for b in facts.backend_changed[:1]]
    return [_Statement("compatibility", clause) for clause in out]


def _packaging(
    p: AnalysisPhrases,
    extras: tuple[Extra, ...],
    points: tuple[EntryPoint, ...],
    phrases: tuple[tuple[str, str], tuple[str, str], tuple[str, str]],
    *,
    added: bool,
) -> list[str]:
    """The clauses for extras, commands and entry points by group, in that order; what an
    added one brings (requirements, targets) is said, not what a removed one had."""
    extra, command, entry_point = phrases
    out = []
    if extras:
        names = _extras(p, extras, with_requirements=added)
        out.append(forms(extra, len(extras)).format(names=names))
    commands = _commands(points)
    if commands:
        names = _points(p, commands, with_targets=added)
        out.append(forms(command, len(commands)).format(names=names))
    for group, grouped in _plugins(points).items():
        names = _points(p, grouped, with_targets=added)
        out.append(forms(entry_point, len(grouped)).format(group=group, names=names))
    return out


def _deprecations(sig: Signals, p: AnalysisPhrases) -> list[_Statement]:
    return [
        _Statement("compatibility", p.deprecation.format(text=excerpt(d.text)))
        for d in sig.facts.deprecations[:1]
    ]


def _reexports(sig: Signals, p: AnalysisPhrases) -> list[_Statement]:
    """Names a shipped module stops exporting that it only imported: their origin still
    has them, so callers import them from there (never said as a removal)."""
    by_paths: dict[tuple[str, str], list[str]] = {}
    aliases: list[_Statement] = []
    for dropped in sig.dropped_reexports:
        if dropped.path not in sig.source_files or dropped.name.startswith("_"):
            continue
        if dropped.original:
            # bound under another name: the origin has it by its own
            clause = p.reexport_alias_dropped.format(
                name=dropped.name,
                path=dropped.path,
                origin=dropped.origin,
                original=dropped.original,
            )
            aliases.append(_Statement("compatibility", clause, internal=True))
        else:
            by_paths.setdefault((dropped.path, dropped.origin), []).append(dropped.name)
    grouped = [
        _Statement(
            "compatibility",
            p.reexports_dropped.format(names=codes(p, names), path=path, origin=origin),
            internal=True,
        )
        for (path, origin), names in by_paths.items()
    ]
    # one sentence: a module's names from one origin, else one alias
    return (grouped + aliases)[:1]


def _moves(sig: Signals, p: AnalysisPhrases) -> list[_Statement]:
    by_paths: dict[tuple[str, str], list[str]] = {}
    for pair in sig.facts.moved:
        # said by the name it had, or by its own for a method that left its class: a
        # function that became a method was not in the old module under the new name
        said = pair.new.name in (pair.old.name, pair.old.short)
        if said and pair.old.path in sig.source_files and pair.old.public:
            by_paths.setdefault((pair.old.path, pair.new.path), []).append(pair.new.name)
    # a file renamed by the same change is named as the parent had it: the names were
    # never in it under its new path
    previous = {f.path: f.previous for f in sig.facts.files if f.previous}
    return [
        _Statement(
            "architecture",
            p.moves.format(names=codes(p, names), old=previous.get(old, old), new=new),
            internal=True,
        )
        for (old, new), names in list(by_paths.items())[:1]
    ]


def _modules_moved(sig: Signals, p: AnalysisPhrases) -> list[_Statement]:
    """Source files renamed into another folder under their own name (a module moved, its
    importers following), said by the folder they went to; then one renamed outright."""
    by_folders: dict[tuple[str, str], list[str]] = {}
    renamed: list[_Statement] = []

    def carried(clause: str, *paths: str) -> str:
        # the names the importers now import from the moved modules: what went with them
        modules = {_module_of(path) for path in paths}
        names = [m.name for m in sig.facts.imports_moved if m.new in modules]
        if not names:
            return clause
        return p.with_names.format(said=clause, names=codes(p, names))

    for f in sig.facts.files:
        if f.status != "renamed" or not f.previous or f.path not in sig.source_files:
            continue
        old, _, old_name = f.previous.rpartition("/")
        new, _, new_name = f.path.rpartition("/")
        if old_name == new_name and old != new and new:
            by_folders.setdefault((old, new), []).append(f.previous)
        elif old_name != new_name and not renamed:
            clause = carried(p.module_renamed.format(old=f.previous, new=f.path), f.path)
            renamed.append(_Statement("architecture", clause, internal=True))
    return [
        _Statement(
            "architecture",
            carried(
                forms(p.modules_moved, len(paths)).format(paths=codes(p, paths), folder=f"{new}/"),
                *(f"{new}/{path.rpartition('/')[2]}" for path in paths),
            ),
            internal=True,
        )
        for (_, new), paths in list(by_folders.items())[:1]
    ] + renamed


def _module_of(path: str) -> str:
    """The module a Python file is imported as: `pkg.sub.mod` for `src/pkg/sub/mod.py`."""
    stem = path.removesuffix(".py").removesuffix("/__init__").removeprefix("src/")
    return stem.replace("/", ".")


def _callable(name: str) -> str | None:
    """How a caller names a function: `Config` for `Config.__init__`; None for another
    dunder (`__call__`, `__eq__`)."""
    if name.endswith(".__init__"):
        name = name[: -len(".__init__")]
    last = name.rsplit(".", 1)[-1]
    # (`__concretize` is a module's private helper, no dunder: callers of it are its own)
    return None if last.startswith("__") and last.endswith("__") else name


# Operator methods callers meet through an operation (`len(table)` runs `Table.__len__`):
# what such a method newly catches is what that operation no longer raises.
_OPERATIONS = frozenset(
    ("__len__", "__iter__", "__contains__", "__getitem__", "__bool__", "__repr__", "__str__")
)


def _operation(name: str) -> str | None:
    """An operator method of a public class (`Table.__len__`), as written; None for another
    name."""
    owner, _, method = name.rpartition(".")
    if method not in _OPERATIONS or not owner or "." in owner or not _public_name(owner):
        return None
    return name


def _public_name(name: str) -> bool:
    return not any(part.startswith("_") for part in name.split("."))


def _private_parts(name: str) -> bool:
    """A name private by its spelling or its class's (`_Impl.run`, `Base._from_other`), a
    dunder aside (`Base.__init__` is what a caller constructs with)."""
    return any(_hidden(part) for part in name.split("."))


def _private_call_args(old: str, new: str) -> bool:
    """Whether two statements differ only in the arguments of calls to private names
    (`self._from_other(self.__class__, self)` → `self._from_other(self)`): how a helper is
    wired, what the helper's own signature says."""
    trees = []
    for text in (old, new):
        try:
            tree = ast.parse(text.strip())
        except PARSE_ERRORS:
            return False
        for node in ast.walk(tree):
            if isinstance(node, ast.Call):
                callee = node.func
                named = callee.id if isinstance(callee, ast.Name) else getattr(callee, "attr", "")
                if _hidden(named):
                    node.args, node.keywords = [], []
        trees.append(ast.dump(tree))
    return trees[0] == trees[1] and old.strip() != new.strip()


def _option_handler(
    sig: Signals, path: str, lost: tuple[str, ...], gained: tuple[str, ...]
) -> bool:
    """Whether each parameter a function gains is a command-line option the same file now
    declares (`--scalar` for `scalar`, `--dry-run` for `dry_run`): the command handler's, that
    the option's own sentence says as users write it (glom 24c21dc's `glom_cli`)."""
    options = {
        f.name.lstrip("-").replace("-", "_") for f in sig.facts.flags_added if f.path == path
    }
    names = [parameter_name(q) for q in gained]
    return bool(options) and not lost and bool(names) and all(n in options for n in names)


def _signatures(sig: Signals, p: AnalysisPhrases) -> list[_Statement]:
    """Parameters a shipped function gains or loses (public ones first), then the
    exceptions it may now raise, and the parameters that gained or lost a default, read from
    both whole files: what a caller meets. One function's losses and gains are one sentence,
    and the same losses and gains in several functions one sentence naming them."""
    shipped = set(sig.source_files)
    out: list[_Statement] = []
    groups: dict[tuple[tuple[str, ...], tuple[str, ...]], list[tuple[str, str]]] = {}
    renamed: dict[tuple[str, str], list[tuple[str, str]]] = {}
    keyworded: dict[tuple[tuple[str, ...], tuple[str, ...]], list[tuple[str, str]]] = {}
    # public functions first: what callers outside meet
    changes = sorted(sig.facts.signatures_changed, key=lambda c: not _public_name(c.name))
    for change in changes:
        name = _callable(change.name)
        if name is None or change.path not in shipped or not (change.lost or change.gained):
            continue
        if _option_handler(sig, change.path, change.lost, change.gained):
            continue
        if change.throughout:
            # one name in another's place (tinydb ecdaf1e: `touch(fname, …)` became
            # `touch(path, …)`): one keyword renamed, not a loss and a gain
            renamed.setdefault((change.lost[0], change.gained[0]), []).append((name, change.path))
            continue
        gained = change.gained
        if change.keywords and not change.lost:
            # a `**kwargs` read for named keywords takes those: what a caller may now pass
            # (toolz 1b23ada: `dissoc`'s `factory=dict`, read through `_get_factory`)
            gained = tuple(q for q in change.gained if not q.lstrip().startswith("**"))
            keyworded.setdefault((gained, change.keywords), []).append((name, change.path))
            continue
        groups.setdefault((change.lost, gained), []).append((name, change.path))
    for (was, now), functions in renamed.items():
        said = forms(p.renames_parameter, len(functions)).format(
            name=_functions(sig, p, functions),
            old=code(parameter_name(was)),
            new=code(parameter_name(now)),
        )
        out.append(_parameters_statement(functions, said))
    for (lost, gained), functions in groups.items():
        said = _functions(sig, p, functions)
        lose = _unreleased(
            sig,
            p,
            forms(p.parameters, len(lost)).format(params=codes(p, lost, 3)),
            [parameter_name(q) for q in lost],
        )
        gain = forms(p.parameters, len(gained)).format(params=codes(p, gained, 3))
        if lost and gained:
            phrase, values = p.swaps_parameters, {"lost": lose, "gained": gain}
        else:
            phrase = p.loses_parameters if lost else p.gains_parameters
            values = {"params": lose if lost else gain}
        out.append(
            _parameters_statement(
                functions, forms(phrase, len(functions)).format(name=said, **values)
            )
        )
    for (plain, keywords), functions in keyworded.items():
        said = forms(p.takes_keywords, len(keywords)).format(
            name=_functions(sig, p, functions), keywords=codes(p, keywords, 3)
        )
        if plain:
            said = p.also_gains.format(
                said=said, params=forms(p.parameters, len(plain)).format(params=codes(p, plain, 3))
            )
        out.append(_parameters_statement(functions, said))
    for raised in sig.facts.raises_added:
        name = _callable(raised.name)
        if name is not None and raised.path in shipped:
            private = not _public_name(name)
            out.append(
                _Statement(
                    # what a private helper raises reaches callers only through its public
                    # callers: never "Compatibility" of its own
                    "architecture" if private else "compatibility",
                    _raises(sig, p, name, raised),
                    internal=private,
                    behaviour=True,
                )
            )
    for c in sig.facts.conditions_changed:
        name = _callable(c.name)
        if c.new and name is not None and c.path in shipped:
            # an exception new to the function, raised by one new guard: where "may now raise"
            # would be, with when
            clause = p.raises_when.format(
                name=_which(sig, p, name, c.path), test=c.test, exception=c.was
            )
            private = not _public_name(name)
            out.append(
                _Statement(
                    "architecture" if private else "compatibility",
                    clause,
                    internal=private,
                    behaviour=True,
                )
            )
    for given in sig.facts.optional_changed:
        name = _callable(given.name)
        if name is not None and given.path in shipped:
            said = _which(sig, p, name, given.path)
            clause = (
                p.now_optional.format(name=said, param=given.param, default=given.default)
                if given.default is not None
                else p.now_required.format(name=said, param=given.param, was=given.was)
            )
            out.append(_Statement("compatibility", clause, internal=not _public_name(name)))
    return out[:3]


def _parameters_statement(functions: list[tuple[str, str]], said: str) -> _Statement:
    """A sentence on what functions (name, path) take: a private helper's is an aside."""
    private = not any(_public_name(name) for name, _ in functions)
    return _Statement(
        # what a private helper takes is no caller's concern: never "Compatibility"
        "architecture" if private else "compatibility",
        said,
        internal=private,
        # what a private helper now takes says less than the title (apscheduler 96a0713:
        # `MongoDBDataStore._release_job`'s parameters for "Fixed deserialization failure
        # handling …"): an insight, never the summary
        aside=private,
        # what a private name takes (its own or its class's) is wiring: unsaid on a medium
        # or high entry (bidict 3032e9f: "`BidictBase._from_other` no longer takes the
        # parameter `bt`"), where the code has more to tell
        wiring=all(_private_parts(name) for name, _ in functions),
    )


def _raises(sig: Signals, p: AnalysisPhrases, name: str, raised: Raised) -> str:
    """What a caller now catches: the one exception raised instead of the one no longer
    raised, else the exceptions it may now raise, the one with its message where it has one."""
    said = _which(sig, p, name, raised.path)
    if len(raised.exceptions) == 1 and len(raised.gone) == 1:
        return p.raises_instead.format(name=said, new=raised.exceptions[0], old=raised.gone[0])
    if raised.reraised and raised.message is not None:
        return p.reraises_with.format(
            name=said, exception=raised.exceptions[0], text=excerpt(raised.message)
        )
    if raised.reraised:
        return p.reraises.format(name=said, names=codes(p, raised.exceptions, 2))
    if raised.message is not None:
        return p.may_raise_with.format(
            name=said, exception=raised.exceptions[0], text=raised.message
        )
    return p.may_raise.format(name=said, names=codes(p, raised.exceptions, 2))


def _functions(
    sig: Signals, p: AnalysisPhrases, functions: list[tuple[str, str]], limit: int = 3
) -> str:
    """Functions (name, path) as a reader can find them, at most `limit` shown; where one
    needs its file, each says its own ("`a`, `b` in `x.py`" would put both in `x.py`)."""
    named = [_which(sig, p, name, path) for name, path in functions[:limit]]
    if any(w != code(name) for w, (name, _) in zip(named, functions, strict=False)):
        named = [p.name_in.format(name=name, path=path) for name, path in functions[:limit]]
    shown = p.list_sep.join(named)
    if len(functions) > limit:
        return p.more.format(shown=shown, count=len(functions) - limit)
    return shown


def _handled(sig: Signals, p: AnalysisPhrases, *, public: bool) -> list[_Statement]:
    """The exceptions a shipped function (public ones, or the others) now catches itself or
    no longer does, and the literals its `return`s may now give: what a caller now meets,
    read from its body (never what a merge brought)."""
    shipped = set(sig.source_files)
    # a private function's are its public callers' insides, never what callers import
    theme = "compatibility" if public else "architecture"
    out: list[_Statement] = []
    for caught in sig.facts.catches_changed:
        name = _callable(caught.name)
        operation = _operation(caught.name) if public else None
        if operation is not None and caught.path in shipped:
            said = code(operation)
        elif name is None or caught.path not in shipped or _public_name(name) is not public:
            continue
        else:
            said = _which(sig, p, name, caught.path)
        for phrase, names in ((p.now_catches, caught.gained), (p.no_longer_catches, caught.lost)):
            if names:
                clause = phrase.format(name=said, names=codes(p, names, 2))
                out.append(_Statement(theme, clause, internal=True, behaviour=True))
    for given in sig.facts.returns_added:
        name = _callable(given.name)
        if name is None or given.path not in shipped or _public_name(name) is not public:
            continue
        clause = p.may_return.format(
            name=_which(sig, p, name, given.path), values=codes(p, given.values, 2)
        )
        out.append(_Statement(theme, clause, internal=True, behaviour=True))
    return (_returns_now(sig, p) if public else []) + out[:2]


def _raises_gone(sig: Signals, p: AnalysisPhrases) -> list[_Statement]:
    """A raise a shipped public function reached on a condition, gone: what its callers no
    longer meet ("`Re2PsBackend` no longer raises `ValueError` when `not patterns`"), said
    where the guard that now returns would be how; two at most. A private function's is
    said among its conditions (`_body_conditions`)."""
    out: list[_Statement] = []
    for c in sig.facts.conditions_changed:
        name = _callable(c.name)
        if c.turn is not Turn.NO_LONGER_RAISES or name is None or not _public_name(name):
            continue
        if c.path not in sig.source_files:
            continue
        said = _which(sig, p, name, c.path)
        clause = p.no_longer_raises_when.format(name=said, exception=c.was, test=c.test)
        out.append(_Statement("compatibility", clause, internal=True, behaviour=True))
    return out[:2]


def _returns_now(sig: Signals, p: AnalysisPhrases) -> list[_Statement]:
    """What a shipped function now returns, read from its `return`s at both revisions: a
    value where it returned none ("`TTLCache.expire` now returns `expired`"), or another
    literal or name in place of the one every `return` gave. Of public functions of public
    modules and methods of public classes alone; two at most."""
    out: list[_Statement] = []
    typed = {(r.name, r.path) for r in literals_released(sig, typed=True)}
    for given in sig.facts.returns_now:
        name = _callable(given.name)
        if name is None or given.path not in sig.source_files:
            continue
        if not _public_name(name) or private_module(given.path):
            continue
        if (given.name, given.path) in typed:
            continue  # (said as a break)
        said = _which(sig, p, name, given.path)
        if given.was:
            clause = p.returns_instead.format(name=said, new=given.values[0], old=given.was)
        elif len(given.values) == 2:
            first, second = (code(v) for v in given.values)
            values = p.returns_either.format(first=first, second=second)
            clause = p.returns_now.format(name=said, values=values)
        else:
            clause = p.returns_now.format(name=said, values=code(given.values[0]))
        # the author's new words for the function say more: the summary is theirs
        told = any(d.name == given.name for d in sig.facts.redocumented)
        out.append(_Statement("compatibility", clause, internal=True, behaviour=True, aside=told))
    return out[:2]


def _public_body(sig: Signals, function: str, path: str) -> str | None:
    """How a caller names a shipped function whose body `_body_values` reads: a public one
    of a public module (listed in its `__all__` where it lists one), or a method of a public
    class; None for another."""
    name = _callable(function)
    if name is None or path not in sig.source_files:
        return None
    return name if _callers_name(sig, name, path) and not private_module(path) else None


def _fields_added(sig: Signals, p: AnalysisPhrases) -> list[_Statement]:
    """The fields a public declared-fields class of a shipped, public module gains, with
    their defaults: options its callers may now pass ("`Config` gains the field
    `convert_key` (default `lambda x: x`)", dacite 9fa6a84), one sentence a class; two
    classes at most, three fields a class shown."""
    by_class: dict[tuple[str, str], list[str]] = {}
    for f in sig.facts.fields_added:
        if f.path not in sig.source_files or private_module(f.path):
            continue
        if f.default is not None:
            said = p.field_default.format(field=code(f.field), default=f.default)
        elif f.required:
            said = p.field_required.format(field=code(f.field))
        else:
            said = code(f.field)
        by_class.setdefault((f.name, f.path), []).append(said)
    out = []
    for (name, path), fields in list(by_class.items())[:2]:
        shown = p.list_sep.join(fields[:3])
        if len(fields) > 3:
            shown = p.more.format(shown=shown, count=len(fields) - 3)
        clause = forms(p.gains_fields, len(fields)).format(
            name=_which(sig, p, name, path), fields=shown
        )
        out.append(_Statement("compatibility", clause))
    return out


def _narrowed_test(test: str, added: str) -> str:
    """`test and not added`, the added test bracketed where `not` would bind less of it."""
    try:
        node = ast.parse(added, mode="eval").body
    except SyntaxError:
        return f"{test} and not ({added})"
    simple = isinstance(node, ast.Name | ast.Attribute | ast.Call | ast.Subscript)
    return f"{test} and not {added if simple else f'({added})'}"


def _guards_narrowed(sig: Signals, p: AnalysisPhrases) -> list[_Statement]:
    """A shipped function's guard narrowed by one more test, and the raise past it that now
    runs where the new test fails ("`_build_value_for_union` now raises `UnionMatchError` if
    `config.strict_unions_match and not union_matches` …", dacite 4a7c517): what callers
    meet, said before how its body goes. Two at most."""
    out: list[_Statement] = []
    for g in sig.facts.guards_narrowed[:2]:
        if g.path not in sig.source_files:
            continue
        name = _callable(g.name)
        if name is None:
            continue
        unless = "".join(p.narrowed_unless.format(test=t, value=v) for t, v in g.unless)
        clause = p.narrowed_raises.format(
            name=_which(sig, p, name, g.path),
            exception=g.exception,
            test=_narrowed_test(g.test, g.added),
            unless=unless,
            was=g.was,
        )
        if g.error:
            clause += p.narrowed_error.format(call=g.call, error=g.error)
        if g.callers:
            clause += p.narrowed_from.format(callers=p.list_sep.join(code(c) for c in g.callers))
        public = _callers_name(sig, name, g.path) or bool(g.callers)
        out.append(
            _Statement(
                "compatibility" if public else "architecture",
                clause,
                internal=True,
                behaviour=True,
            )
        )
    return out


def _body_values(sig: Signals, p: AnalysisPhrases) -> list[_Statement]:
    """What a shipped public function's body now gives: the value a new guard at its top
    returns, with when ("`activate` now returns `_TRANSLATIONS[None]` early when `locale is
    None`"), and a name it computes otherwise ("`naturaldelta` now computes `num_months` as
    `round(days / 30.5)` (was `int(days // 30.5)`)"): what runs differently where the rest
    would be a docstring or an annotation; a key or attribute a setup method now sets from
    the start ("`BaseRetrying.begin` now sets `statistics["delay_since_first_attempt"]` to
    `0` from the start (before, `_run_stop` set it)"). Of public functions of public modules
    and methods of public classes alone; four at most."""

    def said(function: str, path: str) -> str | None:
        name = _public_body(sig, function, path)
        return None if name is None else _which(sig, p, name, path)

    found: list[tuple[str, str]] = []  # (function, clause)
    # a guard narrowed is said with the raise it now lets run (`_guards_narrowed`)
    narrowed = {(g.name, g.path, f"{g.test} and {g.added}") for g in sig.facts.guards_narrowed}
    last = {
        (c.name, c.path, c.test): c.last
        for c in sig.facts.conditions_changed
        if c.turn is Turn.RETURNS and c.last
    }
    for guard in sig.facts.returns_early:
        if (guard.name, guard.path, guard.test) in narrowed:
            continue
        if (name := said(guard.name, guard.path)) is not None:
            clause = p.returns_early_with.format(name=name, value=guard.value, test=guard.test)
            if (guard.name, guard.path, guard.test) in last:
                # the case before the final `return`: one more it accepts, no early way out
                clause = p.returns_when_last.format(
                    name=name,
                    value=guard.value,
                    test=guard.test,
                    last=last[guard.name, guard.path, guard.test],
                )
            found.append((guard.name, clause))
    # a linter's rewrites (`'{:.%se}' % p` became an f-string) compute the same value
    restyled = STYLE_WORDS.search(sig.title.text) is not None
    for value in () if restyled else sig.facts.recomputed:
        if (name := said(value.name, value.path)) is not None:
            # the name it returns, whatever else it does to it: what callers get back
            phrase = p.recomputes_returned if value.returned else p.recomputes
            clause = phrase.format(name=name, target=value.target, new=value.new, old=value.old)
            found.append((value.name, clause))
    for early in sig.facts.set_early:
        # what other methods set only once they ran, there from the start: code that read
        # it before they ran found it missing
        if (name := said(early.name, early.path)) is not None:
            setters = p.list_sep.join(code(s.rpartition(".")[2]) for s in early.setters)
            clause = p.sets_from_start.format(
                name=name, target=early.target, value=early.value, setters=setters
            )
            found.append((early.name, clause))
    redocumented = {d.name for d in sig.facts.redocumented}
    return [
        # the author's new words for the function say more: the summary is theirs
        _Statement(
            "compatibility",
            clause,
            internal=True,
            behaviour=True,
            aside=function in redocumented,
        )
        for function, clause in found[:4]
    ]


def _body_checks(sig: Signals, p: AnalysisPhrases) -> list[_Statement]:
    """Strings a shipped function's conditions now compare with, new to it, and messages it
    now raises an exception it raised before with: a change inside a body that no name
    says (public functions first; two at most, said after every other fact of the code)."""
    shipped = set(sig.source_files)
    found: list[tuple[str, str, str]] = []  # (function, path, clause)
    reached: set[str] = set()  # private functions whose messages public ones raise
    raised: list[str] = []  # the clauses of messages raised: what a caller meets
    for check in sig.facts.compares_added:
        name = _callable(check.name)
        if name is None or check.path not in shipped:
            continue
        if _guarded(sig, check):
            continue
        phrase = p.also_checks_for if check.also else p.checks_for
        said = _which(sig, p, name, check.path)
        values = codes(p, (f'"{v}"' for v in check.values), 2)
        found.append((name, check.path, phrase.format(name=said, values=values)))
    for message in sig.facts.messages_changed:
        name = _callable(message.name)
        if name is None or message.path not in shipped:
            continue
        said = _which(sig, p, name, message.path)
        told = {"name": said, "exception": message.exception, "text": message.text}
        clause = p.raises_message.format(**told)
        if message.reworded:
            # the same exception, raised where it was, with another message (the one it gave
            # at the parent where the sentence still fits one line)
            clause = p.reworded.format(**told)
            if message.was is not None:
                was = p.reworded_was.format(**told, was=message.was)
                clause = was if len(was) < ONE_LINE_MAX else clause
        found.append((name, message.path, clause))
        raised.append(clause)
        if message.callers:
            reached.add(name)
    # what a function raises is what its callers meet; a string it now compares is its own
    return _inside_bodies(sig, found, reached, raised)


def _logs(sig: Signals, p: AnalysisPhrases) -> list[_Statement]:
    """The warnings and errors shipped functions now log, with their messages: what a user
    reads in the log when it goes wrong (public functions first; two at most)."""
    shipped = set(sig.source_files)
    found: list[tuple[str, str, str]] = []
    for given in sig.facts.logs_added:
        name = _callable(given.name)
        if name is None or given.path not in shipped:
            continue
        said = _which(sig, p, name, given.path)
        found.append(
            (name, given.path, p.logs[given.level].format(name=said, text=excerpt(given.text)))
        )
    return _inside_bodies(sig, found)


def _adds_public(sig: Signals) -> bool:
    return any(n.public for n in _shipped(sig, sig.facts.added))


def _logs_before_additions(sig: Signals, p: AnalysisPhrases) -> list[_Statement]:
    """What is logged, before the names a change adds where they are all private helpers
    (aiodns c856d44: `_make_channel` falls back to another channel, warning why)."""
    return [] if _adds_public(sig) else _logs(sig, p)


def _logs_after_additions(sig: Signals, p: AnalysisPhrases) -> list[_Statement]:
    return _logs(sig, p) if _adds_public(sig) else []


def _guarded(sig: Signals, check: Compared) -> bool:
    """Strings a new guard of the same function tests, every one: "now returns early when
    `x == 'A'`" says the "now checks for `"A"`" too, one `if` said once."""
    return any(
        c.name == check.name
        and c.path == check.path
        and not c.new
        and c.turn in (Turn.RETURNS, Turn.RAISES, Turn.SKIPS)
        and all(repr(v) in c.test or f'"{v}"' in c.test for v in check.values)
        for c in sig.facts.conditions_changed
    )


def _inside_bodies(
    sig: Signals,
    found: list[tuple[str, str, str]],
    reached: Iterable[str] = (),
    observed: Iterable[str] = (),
    wired: Iterable[str] = (),
) -> list[_Statement]:
    """Clauses about what changed inside functions' bodies, each with its function and its
    file: public functions first, two at most. `reached`: private functions whose change a
    public caller passes on as it is (a message it raises through them, prettytable's
    `_validate_valign` under `add_column`): said as the public ones'. `observed`: the clauses
    that say what a caller meets (what the function raises or returns); the others say how
    it works (a test dropped, a statement rewritten, a keyword it passes, a log line):
    *Architecture*, never *Compatibility* (toolz 2ac03ce's `join`, 020161b's `peek`).
    `wired`: the clauses that say only what a private call is passed (`_Statement.wiring`)."""
    users, met, wiring = set(reached), set(observed), set(wired)
    found.sort(key=lambda f: not (_callers_name(sig, f[0], f[1]) or f[0] in users))
    return [
        # a private helper's body reaches callers only through its public callers: never
        # "Compatibility" of its own, unless what it changes is what they raise as it is (a
        # message: its conditions are the helper's own)
        _Statement(
            "compatibility"
            if (_callers_name(sig, name, path) or name in users) and clause in met
            else "architecture",
            clause,
            internal=True,
            behaviour=True,
            wiring=clause in wiring,
        )
        for name, path, clause in found[:2]
    ]


def _callers_name(sig: Signals, name: str, path: str) -> bool:
    """A name callers import: public by its spelling, and listed in its module's `__all__`
    where the module lists one (a helper left out of it is the module's own)."""
    if not _public_name(name):
        return False
    listed = dict(sig.facts.listed).get(path)
    return listed is None or name.split(".", 1)[0] in listed


def _body_conditions(sig: Signals, p: AnalysisPhrases) -> list[_Statement]:
    """A shipped function's condition rewritten, a guard it gained (returns, raises,
    continues) or a test it dropped: inside a body, what no name says (public functions
    first; two at most, said after the strings and messages of `_body_checks`)."""
    shipped = set(sig.source_files)
    phrases = {
        Turn.RETURNS: p.returns_early,
        Turn.RAISES: p.raises_when,
        Turn.SKIPS: p.skips_when,
        Turn.REBINDS: p.rebinds_when,
        Turn.REMOVED: p.no_longer_tests,
        Turn.CHANGED: p.tests_now,
        Turn.NO_LONGER_RAISES: p.no_longer_raises_when,
    }
    found: list[tuple[str, str, str]] = []  # (function, path, clause)
    met: list[str] = []  # the clauses of guards that raise or return
    # a public function's new guard is said with the value it returns (`_body_values`)
    valued = {
        (g.name, g.path, g.test)
        for g in sig.facts.returns_early
        if _public_body(sig, g.name, g.path) is not None
    }
    # a guard narrowed is said with the raise it now lets run (`_guards_narrowed`)
    narrowed = {(g.name, g.path, f"{g.test} and {g.added}") for g in sig.facts.guards_narrowed}
    # an error callers no longer meet first: the effect, where a guard is how
    ordered = sorted(
        sig.facts.conditions_changed, key=lambda c: c.turn is not Turn.NO_LONGER_RAISES
    )
    for c in ordered:
        name = _callable(c.name)
        if name is None or c.path not in shipped or c.new:
            continue
        if c.turn is Turn.NO_LONGER_RAISES and _public_name(name):
            continue  # (`_raises_gone`)
        if c.turn is Turn.RETURNS and (c.name, c.path, c.test) in valued | narrowed:
            continue
        said = _which(sig, p, name, c.path)
        phrase = p.returns_when_last if c.turn is Turn.RETURNS and c.last else phrases[c.turn]
        clause = phrase.format(
            name=said, test=c.test, was=c.was, exception=c.was, value=c.value, last=c.last
        )
        found.append((name, c.path, clause))
        if c.turn in (Turn.RETURNS, Turn.RAISES, Turn.NO_LONGER_RAISES):
            met.append(clause)
    # a guard that raises or returns is what a caller meets; a test dropped or rewritten, or
    # one that skips, is how the body goes (toolz cde596b: `update_in` no longer tests `ks`)
    return _inside_bodies(sig, found, observed=met)


# A title that says the change follows a linter's or formatter's rules.
STYLE_WORDS = re.compile(
    r"\b(?:lint\w*|ruff|flake8|pylint|pyupgrade|code style|style fix\w*|reformat\w*|pre-commit"
    r"|moderni[sz]\w*|tidy)\b",
    re.IGNORECASE,
)


# A statement that gives a caller a value or an exception
_EXITS = re.compile(r"(?:return|raise|yield)\b")


def _body_rewrites(sig: Signals, p: AnalysisPhrases) -> list[_Statement]:
    """A shipped function's statement rewritten in place (`return` became `continue`, a
    loop's test, an `except`), quoted at both revisions: the mechanism where no condition,
    string or name says it (public functions first; two at most)."""
    shipped = set(sig.source_files)
    found: list[tuple[str, str, str]] = []  # (function, path, clause)
    met: list[str] = []  # the clauses of a `return`, `raise` or `yield` rewritten
    wired: list[str] = []  # the clauses that change only what a private call is passed
    if sig.reverted_title:
        # a revert's lines are the code before the change it reverts: "restored" says them
        return []
    if STYLE_WORDS.search(sig.title.text):
        # a linter's rewrites (`.items()` to `.values()`, `except E as exc:`) are its style
        # ("Fixed formatting of …", "Clean up … on exit" fix things: not these words)
        return []
    for r in sig.facts.rewritten:
        name = _callable(r.name)
        if name is None or r.path not in shipped:
            continue
        said = _which(sig, p, name, r.path)
        if r.users:
            # a private method said with the public ones a user calls that use it
            said = p.used_by.format(name=said, users=codes(p, r.users))
        clause = p.became.format(name=said, old=r.old, new=r.new)
        found.append((name, r.path, clause))
        if _private_call_args(r.old, r.new):
            wired.append(clause)
        elif any(_EXITS.match(text) for text in (r.old, r.new)):
            met.append(clause)
    # a `return` or `raise` rewritten is what a caller meets; another statement is the
    # mechanism
    return _inside_bodies(sig, found, observed=met, wired=wired)


def _public_keywords_before_additions(sig: Signals, p: AnalysisPhrases) -> list[_Statement]:
    """What a public function's call now passes, before the names a change adds where those
    are all private helpers (aiodns b6cce69: `DNSResolver` now passes `event_thread=True` to
    `pycares.Channel`, and adds `_get_future_callback`)."""
    return [] if _adds_public(sig) else _call_keywords(sig, p, public=True)


def _call_keywords(
    sig: Signals, p: AnalysisPhrases, *, public: bool | None = None
) -> list[_Statement]:
    """A keyword argument with a literal value that a shipped function's call now passes, no
    longer passes, or passes with another value (`follow_redirects=True`, was `False`):
    inside a body, what no name says (public functions first; two at most, said after the
    conditions of `_body_conditions`; a public function's said before private helpers
    added, `_public_keywords_before_additions`)."""
    if public is None and not _adds_public(sig):
        public = False  # the public functions' were said already
    shipped = set(sig.source_files)
    found: list[tuple[str, str, str]] = []  # (function, path, clause)
    for passed in sig.facts.keywords_changed:
        name = _callable(passed.name)
        if name is None or passed.path not in shipped:
            continue
        if public is not None and _public_name(name) is not public:
            continue
        said = _which(sig, p, name, passed.path)
        values = {"name": said, "arg": passed.arg, "callee": passed.callee}
        if passed.now is None:
            clause = p.no_longer_passes.format(was=passed.was, **values)
        elif passed.was is None and passed.when is not None:
            clause = p.passes_when.format(value=passed.now, when=passed.when, **values)
        elif passed.was is None:
            clause = p.passes.format(value=passed.now, **values)
        else:
            clause = p.passes_was.format(value=passed.now, was=passed.was, **values)
        found.append((name, passed.path, clause))
    return _inside_bodies(sig, found)


def _retyped(sig: Signals, p: AnalysisPhrases) -> list[_Statement]:
    """A public shipped function's parameter or return annotated with another type: what a
    caller may now pass, or gets back (short types only, said as written); where annotations
    are all the change is (`Signals.typing_only`), said so in one sentence (`_typed_only`)."""
    if sig.typing_only is not None and (typed := _typed_only(sig, p)):
        return typed
    shipped = set(sig.source_files)
    out: list[_Statement] = []
    for change in sig.facts.retyped:
        name = _callable(change.name)
        if name is None or change.path not in shipped or not _public_name(name):
            continue
        if max(len(change.old), len(change.new)) > _SHOWN_TYPE or "`" in change.old + change.new:
            continue
        said = _which(sig, p, name, change.path)
        clause = (
            p.return_retyped.format(name=said, old=change.old, new=change.new)
            if change.param == "->"
            else p.param_retyped.format(
                name=said, param=change.param, old=change.old, new=change.new
            )
        )
        out.append(_Statement("compatibility", clause))
    if len(out) > 1:
        # the same new type given to several parameters or functions is one sentence naming
        # them all, not two that each name one (backoff b976219's three handlers of two
        # decorators)
        return [_Statement("compatibility", c) for c in _retyped_grouped(sig, p)[:2]]
    return out[:2]


# The functions one sentence of a change of annotations names (voluptuous 4cde166: six
# classes' `description`)
_TYPED_NAMES = 6


def _typed_only(sig: Signals, p: AnalysisPhrases) -> list[_Statement]:
    """A change of annotations alone, said as such, the same new type of a parameter (or a
    return) said once for every public function given it: "type hints only (runtime
    unchanged): the parameters `min`, `max` of `Range`, `Clamp`, `Length` now take `T` (was
    `U`)" (voluptuous 65f736c); where no annotation of a parameter or return is said (a
    `Protocol`'s stub signatures rewritten, dacite ae4fd06), the public functions whose
    annotations change. Nothing where no public function's annotation changes."""
    shipped = set(sig.source_files)
    clauses = _retyped_grouped(sig, p)
    if not clauses:
        names = [
            n.name for n in changed_names(sig) if n.path in shipped and not _private_parts(n.name)
        ]
        if not names:
            return []
        clauses = [p.signatures_typed.format(names=codes(p, names, limit=_TYPED_NAMES))]
    changes = p.clause_sep.join(clauses[:2])
    aliases = sig.typing_only or ()
    clause = (
        p.typing_only_aliases.format(aliases=codes(p, aliases), changes=changes)
        if aliases
        else p.typing_only.format(changes=changes)
    )
    return [_Statement("compatibility", clause)]


def _retyped_grouped(sig: Signals, p: AnalysisPhrases) -> list[str]:
    """The public shipped functions' annotations changed, the same new type of a parameter
    (or a return) said once for every function given it: "the parameters `on_success`,
    `on_backoff` of `on_predicate`, `on_exception` now take `T` (was `U`)" (backoff b976219)."""
    shipped = set(sig.source_files)
    # (old, new) → function → its parameters so retyped ("->": its return)
    groups: dict[tuple[str, str], dict[str, list[str]]] = {}
    for change in sig.facts.retyped:
        name = _callable(change.name)
        if name is None or change.path not in shipped or not _public_name(name):
            continue
        if max(len(change.old), len(change.new)) > _SHOWN_TYPE or "`" in change.old + change.new:
            continue
        params = groups.setdefault((change.old, change.new), {}).setdefault(name, [])
        if change.param not in params:
            params.append(change.param)
    clauses: list[str] = []
    for (old, new), functions in groups.items():
        # functions given the same parameters are said together
        by_params: dict[tuple[str, ...], list[str]] = {}
        for name, params in functions.items():
            by_params.setdefault(tuple(params), []).append(name)
        for taken, names in by_params.items():
            said = codes(p, names, limit=_TYPED_NAMES)
            if taken == ("->",):
                clauses.append(
                    forms(p.returns_retyped, len(names)).format(names=said, old=old, new=new)
                )
                continue
            shown = [q for q in taken if q != "->"]
            clauses.append(
                forms(p.params_retyped, len(shown)).format(
                    params=codes(p, shown), names=said, old=old, new=new
                )
            )
    return clauses


def _covariant(sig: Signals, p: AnalysisPhrases) -> list[_Statement]:
    """Public shipped classes whose generic bases now name covariant type variables: a
    `C[bool]` is now accepted where a `C[int]` is expected."""
    shipped = set(sig.source_files)
    names = [n.name for n in sig.facts.made_covariant if n.path in shipped and _public_name(n.name)]
    if not names:
        return []
    clause = forms(p.made_covariant, len(names)).format(names=codes(p, names))
    return [_Statement("compatibility", clause)]


def _handled_public(sig: Signals, p: AnalysisPhrases) -> list[_Statement]:
    return _handled(sig, p, public=True)


def _handled_private(sig: Signals, p: AnalysisPhrases) -> list[_Statement]:
    return _handled(sig, p, public=False)


def _which(sig: Signals, p: AnalysisPhrases, name: str, path: str) -> str:
    """A function as a reader can find it: its name, with its file where the name does
    not say which (another changed file defines one so named: `command`, `Lock.acquire` of a
    base class and of each backend; or a bare word every tool uses: `main`, `run`)."""
    bare = "." not in name and "::" not in name
    if (path, name.split(".", 1)[0]) in sig.facts.fallbacks:
        # a definition made only where an import fails: not the name users get
        return p.fallback.format(name=p.name_in.format(name=name, path=path))
    if name in sig.facts.names_shared or (bare and name.lower() in _GENERIC_NAMES):
        return p.name_in.format(name=name, path=path)
    return code(name)


def _values(sig: Signals, p: AnalysisPhrases, *, tooling: bool = False) -> list[_Statement]:
    """Values settings files change, the same change in several files said once; with
    `tooling`, those of the dev tools' files (a CI runner's `python-version`, a hook's `rev`,
    tox's envs, coverage's `fail_under`), which reach no user: said after the code's facts,
    and beside a change of shipped code only when nothing of more consequence is."""
    paths: dict[tuple[str, str, str], list[str]] = {}
    for change in sig.facts.values_changed:
        where_kind = path_kind(change.path)
        dev = where_kind is PathKind.CI or (
            where_kind is not PathKind.BUILD and _tooling_path(change.path)
        )
        if dev is tooling:
            paths.setdefault((change.name, change.old, change.new), []).append(change.path)
    out = []
    for (name, old, new), where in list(paths.items())[:2]:
        kind, _, pinned = name.partition(" ")
        if pinned and kind == HOOK:
            clause = p.hook_pinned.format(name=pinned, old=old, new=new)
        elif pinned and kind == ACTION:
            clause = p.action_pinned.format(name=pinned, old=old, new=new, paths=codes(p, where, 1))
        else:
            clause = p.value_changed.format(name=name, old=old, new=new, paths=codes(p, where, 1))
        beside_code = tooling and bool(sig.source_lines)
        out.append(
            _Statement(
                "compatibility", clause, minor=beside_code, aside=beside_code, tooling=beside_code
            )
        )
    return out


def _tooling_path(path: str) -> bool:
    return dev_tooling(FileChange(filename=path))


def _tooling_values(sig: Signals, p: AnalysisPhrases) -> list[_Statement]:
    return _values(sig, p, tooling=True)


def _dev_requirements(sig: Signals, p: AnalysisPhrases) -> list[_Statement]:
    """What the developers' tables of a `pyproject.toml` gain and lose (no install asks for
    them): said before a lock file regenerated beside, which only follows them; extras made
    dependency groups of their names first."""
    out = []
    grouped = sig.facts.extras_grouped
    if grouped:
        extras = _extras(p, grouped, with_requirements=False)
        clause = forms(p.extras_grouped, len(grouped)).format(names=extras)
        # a group is never published (PEP 735): `pip install pkg[dev]` asks for nothing now
        # (pluggy ddb06db moved `dev`, `testing`)
        clause += forms(p.extras_unpublished, len(grouped))
        out.append(_Statement("compatibility", clause))
    out += [
        _Statement("compatibility", said)
        for e in developers_extras_lost(sig)[:1]
        if (said := _extra_installs(p, e))
    ]
    for found, phrase in (
        (sig.facts.dev_requirements_removed, p.dev_requirements_removed),
        (sig.facts.dev_requirements_added, p.dev_requirements_added),
    ):
        for path in dict.fromkeys(d.path for d in found):
            names = [d.name for d in found if d.path == path]
            clause = forms(phrase, len(names)).format(names=codes(p, names, 4), path=path)
            out.append(_Statement(None, clause, internal=True))
    return out


def _classifiers(sig: Signals, p: AnalysisPhrases) -> list[_Statement]:
    """The trove classifiers a packaging file now lists, or no longer lists: what the index
    shows of the Pythons and platforms supported (xmltodict 8c39893 adds
    `Programming Language :: Python :: 3.11` and `… 3.12`, its `tox.ini` only re-spaced)."""
    out = []
    removed = sig.facts.classifiers_removed
    expressed = sig.facts.licence_expressed
    if expressed is not None:
        # a `License ::` classifier dropped for PEP 639's licence expression: the licence
        # moved, nothing was withdrawn (natsort ff1a222)
        licences = [c for c in removed if c.startswith("License ::")]
        removed = tuple(c for c in removed if c not in licences)
        clause = forms(p.licence_expressed, len(licences)).format(
            expression=expressed[0], was=expressed[1], names=codes(p, licences, 3)
        )
        out.append(_Statement(None, clause, internal=True))
    for phrase, names in (
        (p.classifiers_added, sig.facts.classifiers_added),
        (p.classifiers_removed, removed),
    ):
        if names:
            clause = forms(phrase, len(names)).format(names=codes(p, names, 3))
            out.append(_Statement(None, clause, internal=True))
    return out


def _settings_same(sig: Signals, p: AnalysisPhrases) -> list[_Statement]:
    """Settings files whose content parses the same at both revisions: only where nothing
    else is said (`layout.same_settings`)."""
    paths = sig.facts.settings_same
    if not paths:
        return []
    clause = forms(p.settings_same, len(paths)).format(paths=codes(p, paths))
    return [_Statement(None, clause, minor=True, internal=True)]


def _sections(sig: Signals, p: AnalysisPhrases) -> list[_Statement]:
    sections = sig.facts.sections_added
    if not sections:
        return []
    path = sections[0].path
    titles = [s.title for s in sections if s.path == path]
    shown = p.list_sep.join(p.quote.format(text=excerpt(t)) for t in titles[:3])
    if len(titles) > 3:
        shown = p.more.format(shown=shown, count=len(titles) - 3)
    clause = forms(p.sections_added, len(titles)).format(titles=shown, path=path)
    out = [_Statement(None, clause, internal=True)]
    # a section of caveats the change writes ("Limitations", "Known issues"): what users
    # meet, in the author's words
    noted = next((s for s in sections if s.text and _CAVEATS.search(s.title)), None)
    if noted is not None:
        said = p.section_says.format(
            title=excerpt(noted.title), path=noted.path, text=_quoted_short(noted.text)
        )
        out.append(_Statement("compatibility", said))
    return out


# The title of a section of caveats: what users meet that the change does not mend.
_CAVEATS = re.compile(
    r"\b(?:limitations?|caveats?|known (?:issues|problems|bugs)|gotchas?|breaking changes?"
    r"|migrat\w+|upgrad\w+ notes?|incompatibilit\w+)\b",
    re.IGNORECASE,
)
# how much of the section a sentence quotes (an insight holds 300 characters)
_CAVEAT_MAX = 260
# an aside set off by dashes or brackets ("— for example a `[x]` header … —"), left out of
# a quotation too long to give whole
_ASIDE = re.compile(r"\s+(?:—[^—]{8,}?—|\([^()]{8,}?\))(?=[\s,.;:])")


def _quoted_short(text: str) -> str:
    """The author's paragraph to quote: its asides marked left out where it is too long."""
    if len(text) > _CAVEAT_MAX:
        text = _ASIDE.sub(" …", text)
    return excerpt(text, _CAVEAT_MAX)


def _tests(sig: Signals, p: AnalysisPhrases) -> list[_Statement]:
    tests = [n.name for n in sig.facts.tests_added]
    if not tests:
        return []
    clause = forms(p.tests_added, len(tests)).format(names=codes(p, tests))
    # (the tests a change adds are no part of its architecture: a summary where nothing
    # weighs more, never an insight)
    out = [_Statement(None, clause, minor=True, internal=True, tests=True)]
    # what the new tests exercise, among the definitions the change edits (that new tests
    # call what the change adds goes without saying)
    new = {n.name for n in sig.facts.added}
    called = list(dict.fromkeys(c.callee for c in sig.facts.tested if c.callee not in new))
    if called:
        used = forms(p.tests_call, len(called)).format(names=codes(p, called))
        # (the definitions the fix edits that they pin: said as those, not as tests)
        out.append(_Statement("architecture", used, minor=True, internal=True, wiring=True))
    return out


def _expected(sig: Signals, p: AnalysisPhrases) -> list[_Statement]:
    """What a test asserts anew that a shipped function gives for literal inputs: the
    input a fix now handles, with its output ("The new test `test_x` pins
    `tabulate.tabulate([[82642], ['1500'], [2463]], intfmt=',', tablefmt='plain')` to
    `'82,642\\n  1500\\n 2,463'`", python-tabulate 12a805b). Said only where the change
    edits shipped code: a test alone says what already held."""
    if not sig.source_lines:
        return []
    # the cases of the functions the change edits or adds (those it fixes or brings), then
    # those of a new test, in a test file of the parent, of a module the change edits (a fix
    # in `_format` pinned through the public `tabulate`); a new test file's cases of every
    # other function say nothing of this change
    names = (*changed_names(sig), *sig.facts.added)
    edited = {n.name.rsplit(".", 1)[-1] for n in names}
    modules = {_top_module(n.path) for n in names if n.path.endswith(".py")}
    kept = {f.path for f in sig.facts.files if f.status == "modified"}
    direct = [c for c in sig.facts.expected if c.function.rsplit(".", 1)[-1] in edited]
    through = [
        c
        for c in sig.facts.expected
        if c.new and c.path in kept and c.function.split(".", 1)[0] in modules - {""}
    ]
    cases = [
        c for c in dict.fromkeys((*direct, *through)) if c.test and "`" not in c.call + c.value
    ]
    if not cases:
        return []
    first = cases[0]
    more = sum(c.test == first.test and c.path == first.path for c in cases) - 1
    templates = p.tests_raise if first.raises else p.tests_pin
    template = templates[0] if first.new else templates[1]
    clause = template.format(
        test=code(first.test),
        call=code(first.call, spaces=True),
        value=code(first.value, spaces=True),
        more=forms(p.tests_pin_more, more).format(count=more) if more else "",
    )
    # (what runs: the behaviour a caller meets, before a list of the names it touches)
    return [_Statement("compatibility", clause, behaviour=True)]


def _top_module(path: str) -> str:
    """The top-level module a shipped file belongs to (`tabulate/__init__.py`: `tabulate`;
    `src/pkg/a.py`: `pkg`; `natsort.py`: `natsort`)."""
    parts = path.split("/")
    if parts[0] in {"src", "lib"} and len(parts) > 1:
        parts = parts[1:]
    return parts[0].removesuffix(".py")


def _generated(sig: Signals, p: AnalysisPhrases) -> list[_Statement]:
    """Files a generator wrote are only counted: what they define is the generator's input.
    New ones are said added, as marked generated: "changes" would say they were there
    before (voluptuous 85f14d8's new `bin/hermit`, whose head says "THIS FILE IS GENERATED")."""
    found = [f for f in sig.facts.files if f.generated]
    if not found:
        return []
    if all(f.status == "added" for f in found):
        clause = forms(p.generated_added, len(found)).format(count=len(found))
    else:
        clause = forms(p.generated, len(found)).format(count=len(found))
    return [_Statement("architecture", clause, minor=True, internal=True)]


# The fewest new files in one folder said as such where they are all the change is
_FOLDER_FILES = 3


def _folder_added(sig: Signals, p: AnalysisPhrases) -> list[_Statement]:
    """Every file of the change new, in one folder below the top (three at least): how many,
    and where (voluptuous 85f14d8: "Adds 15 files under `bin/`", a README's section among
    them no summary of its own); not for a folder of pages or tests."""
    files = sig.facts.files
    if len(files) < _FOLDER_FILES or any(f.status != "added" for f in files):
        return []
    if sum(f.kind in (PathKind.DOCS, PathKind.TESTS) for f in files) > 1:
        # pages or tests: what their sections and cases say is the news
        return []
    folders = {f.path.rsplit("/", 1)[0] if "/" in f.path else "" for f in files}
    if len(folders) != 1 or "" in folders:
        return []
    clause = p.folder_added.format(count=len(files), folder=folders.pop())
    return [_Statement(None, clause, internal=True)]


# --- the whole text --------------------------------------------------------------------


def write(
    commit: CommitInput,
    sig: Signals,
    types: list[ChangeType],
    importance: Importance,
    *,
    risks: list[Risk],
    p: AnalysisPhrases,
    merge: str | None = None,
    release: bool = False,
    told: tuple[Risk, ...] = (),
) -> Text:
    """The summary, insights, risks and recommendations of one change. `merge`: the branch a
    merge commit lands, whose summary is what the branch brought (its words, a fact of
    consequence), a fact of the code's insides only where a medium or high entry would
    otherwise say no more than the branch's name. `release`: the release of a version is
    the news (its own verdict was low), which its summary says first; a change of its own
    beyond its records (`own_change`) is said after it. `told`: the risks said beside the
    text (a raise callers newly reach)."""
    text = Text(risks=list(risks))
    released = release_summary(sig, p, SUMMARY_LIMIT) if release else None
    if released is not None and not own_change(commit, sig):
        # a release commit only sets the version: what the release brings is the news
        text.summary = released
        return text
    opened = opening_summary(sig, p, SUMMARY_LIMIT) if released is None else None
    if opened is not None:
        text.summary = opened
        return text
    facts = statements(sig, p)
    low = importance is Importance.LOW
    if not low:
        # A medium or high entry is read whole: a sentence that only lists private names
        # added, removed or now called ("Adds `_find_html_ids`", "`parse_link` no longer
        # calls `_find_closing_bracket`", said of guards that only moved into a helper),
        # or what the new tests call, states no consequence a maintainer acts on (mistune
        # readers: 57 such sentences in 20 entries). A low entry's one line may still be one.
        # (nor is where the change lies, said in their stead: "The fix is in `add_toc_hook`"
        # for "`add_toc_hook` now calls `_unique_id`", the names they name stay unsaid)
        wired: set[str] = {n for s in facts if s.wiring for n in _span_names(s.clause)}
        # where wiring is all the code tells, its first sentence stays: a private name may
        # be all that says what changed ("`DeepHash._hash` now calls `_prep_ipranges`",
        # deepdiff's merge #528; a blind reader preferred the entry that kept it)
        facts = [s for s in facts if not s.tooling]
        facts = [s for s in facts if not s.wiring] or facts[:1]
    else:
        wired = set()
    limit = ONE_LINE_MAX if low else SUMMARY_LIMIT
    # the author's words for users first: the changelog entry or news fragment it adds
    authored = authored_summary(
        sig.entry_items,
        sig.description_items,
        commit.title,
        limit=limit,
        single=sig.entry_single,
    )
    if authored and _records_only(commit, sig):
        # a commit that only writes its changelog records what the entry says; the change it
        # tells landed elsewhere (distro c7fa438 "Add changelog entry": "Added support for
        # OpenBSD, …" is no code of its own)
        room = limit - len(p.records.format(text=""))
        entry = authored_summary(
            sig.entry_items,
            sig.description_items,
            commit.title,
            limit=room,
            single=sig.entry_single,
        )
        authored = (
            sentence(p, p.records.format(text=entry.rstrip(" ."))) if entry is not None else None
        )
    # what the author marks breaking in the message's body is the news, said as written
    marked = message_marked_breaking(commit.message) if not low else []
    if marked:
        authored = sentence(p, excerpt(marked[0], limit).rstrip(" ."))
    landed = sig.title.text.strip().rstrip(". ")
    # a pull request's merge whose words say nothing it does ("A hotfix and not a definitive
    # solution for sure", dacite 71c365a; its branch's name alone) is told by its code's
    # facts (a branch's merge says the branch it lands where no fact of consequence is)
    untold_merge = merge == "" and not says_what_it_does(landed)
    if not authored and merge == "" and says_effect(landed) and len(landed) < limit:
        # a pull request's merge is headed by its branch; the pull request's title, where it
        # says what changes for a user ("reject a non-delimiter second row instead of eating
        # it"), is the author's own words of effect, not a fact of the code's insides
        authored = sentence(p, capitalised(landed))
    used: set[str] = set()
    # the sentence that only names the tests the change adds, where one is said
    tests_said = ""
    # a fix's new tests that would have been its summary: said among the insights instead
    untold: _Statement | None = None
    if authored:
        text.summary = authored
    elif sig.turned:
        text.summary = one_line(capitalised(sig.title.text.rstrip(". ") or commit.title))
    else:
        # Without a description the facts speak: the most telling one is the summary, the
        # others are the insights.
        weightier = any(not s.minor for s in facts)
        fit = [
            s
            for s in facts
            if len(sentence(p, s.clause)) <= limit
            and not (merge is not None and s.internal and not untold_merge)
            and not s.aside
            # the tests a change adds are its summary only where nothing weighs more, and
            # never a fix's: the title stands alone before a test's name
            and not (s.minor and weightier)
            and not (s.tests and T.BUGFIX in types)
        ]
        # (what a risk says already is no summary of the fix: dacite 71c365a's new
        # `DaciteError`, where `__concretize` now catching `AttributeError` is the fix)
        unsaid = [s for s in fit if not (untold_merge and _said_by(s.clause, [*text.risks, *told]))]
        first = _lead(unsaid)
        above = next((s for s in fit if _users_fact(s)), None)
        if first is not None and above is not None and fit.index(above) < fit.index(first):
            # a user's fact outranks what is said below it, even one a risk says again: a
            # merge that raises the Python floor is not summed up as "`TagTracer.
            # _processmessage` no longer catches `KeyError`" nor by a classifier it drops
            # (pluggy's merge of its 3.10 floor)
            first = above
        if first is not None:
            text.summary = sentence(p, first.clause)
            used = {first.clause}
        elif T.BUGFIX in types and not weightier:
            untold = next((s for s in facts if s.tests), None)
        if not text.summary and merge and not low:
            # a medium or high branch's merge with no fact of consequence is still told by
            # what its code's facts prove of the branch's net change (its diff against the
            # first parent: a keyword its calls now pass, backoff 31d973f) before its bare
            # name is said (a low one's line keeps the name: nothing there needs more)
            inside = next(
                (
                    s
                    for s in facts
                    if s.internal
                    and s.behaviour
                    and not s.wiring
                    and not s.tests
                    and not s.aside
                    and len(sentence(p, s.clause)) <= limit
                ),
                None,
            )
            if inside is not None:
                text.summary = sentence(p, inside.clause)
                used = {inside.clause}
        if not text.summary and merge:
            text.summary = sentence(p, p.lands_branch.format(name=merge))
        if not text.summary:
            head = sig.title.text.rstrip(". ") or commit.title or p.no_message
            text.summary = one_line(capitalised(head))
    if (
        T.REVERT in types
        and sig.reverted_title
        and changed_names(sig)
        and excerpt(text.summary).rstrip(". ").lower() in sig.title.text.lower()
        and len(said := _reverts(sig, p)) <= limit
    ):
        # a summary that only says the title again: what the revert restores is the news
        text.summary = said
    if low:
        return text
    # The tests a change adds are named only where nothing of more consequence is said.
    weighty = bool(text.risks) or any(
        s.theme and not s.minor and s.clause not in used for s in facts
    )
    summary_names = _span_names(text.summary)
    summary_names |= {n.split("(", 1)[0] for n in summary_names}
    for statement in facts:
        clause = statement.clause
        if statement.quoted and not says_more(statement.quoted, text.summary):
            if not statement.plain:
                continue
            clause = statement.plain
        # an insight that names nothing the summary did not (the summary's "`find_dotenv`
        # now calls `_is_file_or_fifo`", then "Adds `_is_file_or_fifo` to `main.py`") says
        # nothing more (a file's path says where, not what)
        # (what the new tests call says they pin it, a quotation or a signature says more:
        # not the name again)
        names = _span_names(clause)
        if names and names <= summary_names and not statement.minor and "“" not in clause:
            continue
        # (nor the names of the tests where the summary names them: "The new test `t` pins …")
        if statement.tests and names and names <= summary_names:
            continue
        # (the tests that pin a fix a merge's words never told are what says it is one)
        pinned = untold_merge and statement.tests and T.BUGFIX in types
        if (
            statement.theme
            and statement.clause not in used
            and not (statement.minor and weighty and not pinned)
        ):
            text.note(statement.theme, sentence(p, clause))
        elif statement is untold or pinned:
            # a fix's new tests, never its summary, still say what it pins where nothing else
            # would (mistune 1bef343's `test_include_rejects_traversal_and_absolute_paths`)
            text.note("architecture", sentence(p, clause))
            # (those that pin a fix its merge's words never told stay: they say it is one,
            # dacite 71c365a)
            tests_said = "" if pinned else sentence(p, clause)
    for theme, said in effect_sentences(sig.description):
        # the author's own words of what changes for a user (a figure with its scope, "No
        # behaviour change"), beside the mechanism the facts say
        if said.rstrip(". ").lower() not in text.summary.lower():
            text.note(theme, sentence(p, p.author_says.format(text=said)))
    # (before where a fix lies is said: that is no word of what the change does)
    _drop_tests_said(text, tests_said)
    _about_fix(commit, sig, types, text, p, wired=wired)
    if importance is Importance.HIGH and sig.exposures and "security" not in text.insights:
        # a secret sent to another origin, in the author's words: a leak maintainers act on
        words = excerpt(exposure_words(sig.exposures[0]))
        text.note("security", sentence(p, p.exposure.format(words=words)))
        text.advise(Audience.MAINTAINERS, p.security.format(words=words))
    if types[0] is T.PERFORMANCE and not text.insights and not wired:
        changed = changed_names(sig)
        if changed:
            where = codes(p, (n.name for n in changed[:3]))
            text.note("performance", sentence(p, p.speedup_in.format(where=where)))
    _about_change(sig, types, text, p)
    _drop_repeats(text)
    released = release_summary(sig, p, SUMMARY_LIMIT)
    if released is not None:
        own = text.summary
        repeat = excerpt(own).rstrip(". ").lower() in commit.title.lower()
        joined = p.sentence_sep.join((released, own))
        if repeat:
            # a summary that only says the title again ("Prep for 3.3.0 release"); the
            # insights still say what its own change does (tenacity a15fa64, 8.4.2's fix)
            text.summary = released
        elif release:
            # the release is the news, its own change said after it: beside it where both
            # fit, else the first of the insights (tenacity cb15300, the 8.3.0 tag on "Lazy
            # import asyncio.sleep as it's expensive", whose release names 26 commits)
            text.summary = joined if len(joined) <= SUMMARY_LIMIT else released
            if text.summary == released:
                text.insights.setdefault("architecture", []).insert(0, own)
        else:
            # a change of its own that also sets the version: the release is said beside it,
            # first (what it ships is the news; a long insight is cut at its end: wrapt
            # d07059f, the merge that lands 2.0.0)
            text.insights.setdefault("compatibility", []).insert(0, released)
    return text


# A line that sets a version, whatever its value's shape (soupsieve's `__version_info__ =
# Version(2, 9, 1, "final")`)
_SETS_VERSION = re.compile(
    r"^[-+]\s*(?:__version(?:_info)?__|VERSION|version)\s*(?::[^=]*)?=(?!=)", re.IGNORECASE
)


def _sets_version(f: FileChange) -> bool:
    """Every line the file's patch changes sets a version (`versions.sets_version_only`,
    `unshipped.version_only`, or any line `_SETS_VERSION` reads)."""
    changed = [
        line
        for line in (f.patch or "").split("\n")
        if line.startswith(("+", "-")) and not line.startswith(("+++", "---"))
    ]
    return (
        sets_version_only(f)
        or version_only(f)
        or (
            f.status == "modified"
            and bool(changed)
            and all(_SETS_VERSION.match(line) for line in changed)
        )
    )


def own_change(commit: CommitInput, sig: Signals) -> bool:
    """Whether a release commit changes more than its records: a file other than a
    changelog, a news fragment the commit adds, or a version set (tenacity's tags point at
    the merge of a fix; soupsieve 05e92be "Update changelog and bump version" changes
    nothing of its own)."""
    noted = {f.path for f in sig.fragments}
    return commit.files_known and any(
        not is_changelog(f.filename) and f.filename not in noted and not _sets_version(f)
        for f in commit.files
    )


def _drop_tests_said(text: Text, tests_said: str) -> None:
    """Leaves out the sentence that only names the tests the change adds where another
    insight says what the change does or what a test pins (a reader skips the names)."""
    said = text.insights.get("architecture", [])
    others = [s for sentences in text.insights.values() for s in sentences if s != tests_said]
    if tests_said and tests_said in said and others:
        said.remove(tests_said)
        if not said:
            del text.insights["architecture"]


def _drop_repeats(text: Text) -> None:
    """Leaves out of a medium or high entry's insights a sentence the summary already says
    word for word (a reader skips the repeat)."""
    for theme in list(text.insights):
        kept = [s for s in text.insights[theme] if not repeats(s, text.summary)]
        if kept:
            text.insights[theme] = kept
        else:
            del text.insights[theme]


def repeats(words: str, summary: str) -> bool:
    """Whether a sentence says nothing `summary` does not say word for word."""
    folded, whole = _folded(words), _folded(summary)
    return bool(folded and whole) and folded in whole


def _folded(words: str) -> str:
    """Words compared as a reader reads them: case, spacing and the final stop aside."""
    return " ".join(words.lower().split()).rstrip(". ")


def _reverts(sig: Signals, p: AnalysisPhrases) -> str:
    """What a revert restores: the code it changes back where the facts name it."""
    title = excerpt(sig.reverted_title or "")
    restored = changed_names(sig)
    if not restored:
        return sentence(p, p.revert.format(title=title))
    where = codes(p, (n.name for n in restored[:3]))
    return sentence(p, forms(p.revert_in, len(restored[:3])).format(title=title, where=where))


# The edited definitions a fix's "where" may name (`_about_fix`)
_FIX_PLACES = 2
# A benchmark's file: what it times is no place a fix lies
_BENCHMARK = re.compile(r"(^|/)[^/]*bench[^/]*\.py$|^(?:benchmarks?|bench|performance)/")


def _places(sig: Signals, p: AnalysisPhrases, names: list[Name], limit: int = 3) -> str:
    """Edited definitions as `codes` says them, a fallback's as the fallback's (`_which`)."""
    unique = list(dict.fromkeys((n.name, n.path) for n in names))
    shown = p.list_sep.join(
        p.fallback.format(name=p.name_in.format(name=name, path=path))
        if (path, name.split(".", 1)[0]) in sig.facts.fallbacks
        else code(name)
        for name, path in unique[:limit]
    )
    if len(unique) > limit:
        return p.more.format(shown=shown, count=len(unique) - limit)
    return shown


def _about_fix(
    commit: CommitInput,
    sig: Signals,
    types: list[ChangeType],
    text: Text,
    p: AnalysisPhrases,
    *,
    wired: frozenset[str] | set[str] = frozenset(),
) -> None:
    """A fix names its symptom with where the change is, the issues it closes and whom it
    affects (never only what the title said), and asks for a regression test when it changes
    code that runs and no test changed (never for comments, docstrings or build scripts)."""
    if T.BUGFIX not in types or T.REVERT in types or not sig.source_lines:
        return
    changed = changed_names(sig)
    # The dev tools' own code (`noxfile.py`'s sessions, a release script) runs on no user's
    # machine: no regression test pins it.
    sizes = {(e.name, e.path): e.statements for e in sig.facts.edited}
    shipped = [
        n
        for n in changed
        if not tooling_path(n.path) and not _only_annotated(commit, n) and _restated(n, sizes)
    ]
    where = _places(sig, p, shipped) if shipped else ""
    # A fix lies in code that runs: a class whose file only gained or lost fields (a strings
    # table, a record) is no place a symptom went away.
    # Nor is a function whose edit only added or changed annotations (tomlkit 62a6708: "The
    # fix is in `OutOfOrderTableProxy.__init__`", which only gained `list[Table]`).
    # Nor a function whose own statements are the same at both revisions (a docstring, a
    # `.format` made an f-string: marshmallow cac7d12 "The fix is in `Range._repr_args`"), nor
    # a benchmark's: the public one whose statements changed most first (pluggy 5d7bd2c named
    # `HookSpec.__init__` where the fix was `varnames`'s)
    running = sorted(
        (
            n
            for n in changed
            if not (n.kind is NameKind.CLASS and _fields_only(commit, n.path))
            and not _only_annotated(commit, n)
            and _restated(n, sizes)
        ),
        key=lambda n: (not n.public, -sizes.get((n.name, n.path), 0)),
    )
    # where the fix lies is said only where the change is that narrow: past two edited
    # definitions, naming three is a guess a reader skips, or is misled by (cachetools
    # aae7bf5's "The fix is in `cachedmethod`", one of four it edited)
    fixed_in = _places(sig, p, running) if 0 < len(running) <= _FIX_PLACES else ""
    tools = list(dict.fromkeys(n.path for n in running if tooling_path(n.path)))
    if running and len(tools) == len({n.path for n in running}):
        # only the dev tools' code: said as theirs, and, where every shipped file is theirs,
        # that what the package ships is the same
        where_tools = p.fix_in_tooling.format(
            where=codes(p, (n.name for n in running[:3])), paths=codes(p, tools)
        )
        shipped_same = all(tooling_path(path) for path in sig.source_files)
        if shipped_same and not sig.line_kinds[PathKind.BUILD]:
            where_tools += p.same_shipped
        fixed_in = ""
        if not sig.severity:
            text.note("architecture", sentence(p, where_tools))
    # a stub's (`.pyi`) annotations run nowhere: no regression test pins them
    runtime = any(not n.path.endswith(".pyi") for n in shipped)
    # (nor annotations alone: a test cannot pin a type hint at run time, dacite ae4fd06)
    asked = (
        bool(where)
        and runtime
        and not sig.test_files
        and types[0] is T.BUGFIX
        and sig.typing_only is None
    )
    # (last, as it parses both revisions: a fix of annotations that never run, frozenlist
    # 3048a04's build backend, changes no behaviour a test could pin)
    if (
        asked
        and code_changed(commit, sig)
        and not same_shipped_code(commit, sig, typing=True, imports=True)
    ):
        text.advise(Audience.MAINTAINERS, p.no_test.format(where=where))
    severity = sig.severity
    if not severity and fixed_in and not text.recommendations:
        # No symptom named: where the fix lies is what the title did not say; a name another
        # sentence says with what happened to it is not named again (typeguard 121efd5:
        # `check_class` now calls `check_self`, which now raises …)
        said = _names_said(text) | wired
        # nor one the title names ("Fix naturaldelta sub second precision": `naturaldelta`);
        # where the title names the one changed most as code, none: the rest would mislead
        unsaid = [n for n in running if n.name not in said and not _titled(n.name, commit.title)]
        if unsaid and unsaid[0] == running[0]:
            # (beside it, one changed less than half as much is a detail)
            most = sizes.get((running[0].name, running[0].path), 0)
            unsaid = [n for n in unsaid if 2 * sizes.get((n.name, n.path), most) >= most]
        elif _named_as_code(running[0].name, commit.title):
            unsaid = []
        if unsaid:
            places = codes(p, (n.name for n in unsaid))
            text.note("architecture", sentence(p, p.fix_in.format(where=places)))
    if not severity or not (fixed_in or sig.fixes or sig.impact):
        return
    words = p.list_sep.join(_distinct(severity)[:3])
    issues = p.fixed_issues.format(issues=p.list_sep.join(f"#{n}" for n in sig.fixes[:3]))
    impact = p.affecting.format(impact=sig.impact) if sig.impact else ""
    security = any(SECURITY_WORDS.match(w) for w in severity)
    if not security:
        # The symptom's words scraped from the message ("Fixes “silently lost, corruption,
        # wrong value” in `String.from_raw`", tomlkit 8cd44f5) tell a reader nothing the
        # title and the summary did not: only where the fix lies, with the issues it closes
        # and what the author says it affects, is said
        # (nor where it lies when the title names each place and nothing follows: "The fix
        # is in `after_log`." under "… in after_log" only says the title again)
        placed = running[:_FIX_PLACES]
        titled = all(_titled(n.name, commit.title) for n in placed)
        if fixed_in and not (titled and not sig.fixes and not impact):
            clause = p.fix_in.format(where=fixed_in) + (issues if sig.fixes else "") + impact
            text.note("architecture", sentence(p, clause))
        return
    clause = (
        p.fixes.format(words=words, where=fixed_in)
        if fixed_in
        else p.fixes_plain.format(words=words)
    )
    clause += (issues if sig.fixes else "") + impact
    text.note("security", sentence(p, clause))
    text.advise(Audience.MAINTAINERS, p.security.format(words=words))


def _restated(name: Name, sizes: dict[tuple[str, str], int]) -> bool:
    """Whether an edited definition may be where a fix lies: not a benchmark's, and, where
    both revisions are read, with a statement of its own changed (`Facts.edited`)."""
    return sizes.get((name.name, name.path)) != 0 and not _BENCHMARK.search(name.path)


def _named_as_code(name: str, title: str) -> bool:
    """Whether the title names the definition as code, not a word a sentence may use
    ("release"): its whole dotted name, its last part quoted or called (`` `f` ``, `f()`), or
    a last part no word is spelled as (`_`, a digit or a capital inside it)."""
    short = name.rsplit(".", 1)[-1]
    spelled = re.escape(short)
    return bool(
        (re.search(rf"(?<![\w.]){re.escape(name)}(?!\w)", title) and "." in name)
        or re.search(rf"`{spelled}`|(?<![\w.]){spelled}\(", title)
        or (re.search(r"_|\d|.[A-Z]", short) and _titled(short, title))
    )


def _titled(name: str, title: str) -> bool:
    """Whether the title names the definition: its name, or its last part, as a word of its
    own (`naturaldelta` in "Fix naturaldelta sub second precision")."""
    short = name.rsplit(".", 1)[-1]
    return any(re.search(rf"(?<![\w.]){re.escape(word)}(?!\w)", title) for word in {name, short})


def _lead(fit: list[_Statement]) -> _Statement | None:
    """The statement a summary says: what runs differently before a list of private names
    (the insights keep the rank)."""
    behaves = any(s.behaviour for s in fit)
    return next((s for s in fit if not (s.listing and behaves)), None)


def _users_fact(statement: _Statement) -> bool:
    """A fact of consequence for users, not of the code's insides: what the package requires
    (the Python floor), removes, renames, or changes by default, said for compatibility; never
    a list of names alone."""
    return statement.theme == "compatibility" and not (
        statement.internal or statement.minor or statement.listing
    )


def _said_by(clause: str, risks: list[Risk]) -> bool:
    """Whether every name `clause` spans (calls read as their callee) a risk spans too."""

    def names(words: str) -> set[str]:
        return {n.split("(", 1)[0] for n in _span_names(words)}

    told = names(" ".join(f"{r.description} {r.consequence or ''}" for r in risks))
    said = names(clause)
    return bool(said) and said <= told


def _span_names(words: str) -> set[str]:
    """The code spans of a sentence (a signature with its parameters), none from a
    quotation and no file's path."""
    spans = (m.group(1) for m in _SPAN.finditer(_QUOTE.sub("", words)))
    return {s for s in spans if not _PATH_SPAN.search(s)}


# A code span that is a file's path (`src/pkg/main.py`, `setup.cfg`)
_PATH_SPAN = re.compile(r"/|\.(?:py|pyi|cfg|toml|ini|txt|md|rst|json|ya?ml)$")


def _names_said(text: Text) -> set[str]:
    """The names the text's sentences say in code spans (a call's name without its
    arguments), none from a quotation (a docstring's `release` is not the function)."""
    words = [text.summary, *(s for said in text.insights.values() for s in said)]
    words += [r.description for r in text.risks]
    spans = (m.group(1) for w in words for m in _SPAN.finditer(_QUOTE.sub("", w)))
    return {span.split("(", 1)[0] for span in spans}


def _only_annotated(commit: CommitInput, name: Name) -> bool:
    """Whether the edited function is the same code once annotations are set aside
    (`layout.only_annotated`)."""
    if name.kind is NameKind.CLASS:
        return False
    f = next((f for f in commit.files if f.filename == name.path), None)
    return f is not None and only_annotated(f, name.name)


def _fields_only(commit: CommitInput, path: str) -> bool:
    """Whether every line the patch of `path` changes (but blank lines and comments) declares
    a field (`name: type`, with or without a default)."""
    patch = next((f.patch for f in commit.files if f.filename == path), None)
    if patch is None:
        return False
    lines = [
        line[1:]
        for line in patch.split("\n")
        if line[:1] in "+-" and not line.startswith(("+++", "---")) and line[1:].strip()
    ]
    return bool(lines) and all(_FIELD.match(body) or _COMMENT.match(body) for body in lines)


def same_shipped_code(
    commit: CommitInput,
    sig: Signals,
    *,
    typing: bool,
    imports: bool = False,
    renamed: bool = False,
) -> bool:
    """Whether every source file the commit changes is the same code at both revisions once
    docstrings (and, with `typing`, annotations that do nothing at run time; with `renamed`,
    locals and private attributes renamed throughout) are set aside (`layout.same_code`:
    parses both sides)."""
    shipped = set(sig.source_files)
    files = [f for f in commit.files if f.filename in shipped]
    quiet = quiet_classes(commit.files, commit.modules)
    return len(files) == len(shipped) and all(
        same_code(f, typing=typing, imports=imports, quiet=quiet, renamed=renamed) for f in files
    )


# Shipped files past which `behaviour_kept` reads no further (each parsed up to four times)
_KEPT_FILES = 40


def behaviour_kept(commit: CommitInput, sig: Signals) -> frozenset[str] | None:
    """What the shipped Python files differ by where each is the same code at both
    revisions once layout, comments and docstrings are set aside, and the respellings
    `layout.respelled_code` proves the same ("format", "negation", "imports", "flow"; by
    these alone: `layout.respelled_alone`), then annotations and unused imports
    ("annotations"): the kinds needed, "layout" always among them; None where a file is
    not proven so (or none is shipped, or one is not Python)."""
    shipped = set(sig.source_files)
    files = [f for f in commit.files if f.filename in shipped]
    if len(files) != len(shipped) or any(
        path_kind(f.filename) is PathKind.BUILD and not dev_tooling(f) for f in commit.files
    ):
        return None
    # (the dev tools' own files, `tox.ini`, a `[tool.ruff]` table, reach no user)
    files = [f for f in files if not dev_tooling(f)]
    if not files or len(files) > _KEPT_FILES:
        return None
    quiet = quiet_classes(commit.files, commit.modules)
    kinds: set[str] = {"layout"}
    for f in files:
        found = respelled_code(f)
        if found is not None:
            # (said only where no other rule of `same_code` was needed: a bare string, a
            # function moved, which the sentence does not name)
            if not respelled_alone(f):
                return None
        elif same_code(f, typing=True, imports=True, quiet=quiet):
            found = frozenset({"annotations"})
        else:
            found = respelled_code(f, typing=True, quiet=quiet)
            if found is None:
                return None
            found |= {"annotations"}
        kinds |= found
    return frozenset(kinds)


def kept_sentence(
    commit: CommitInput, sig: Signals, kinds: frozenset[str], p: AnalysisPhrases, limit: int
) -> str:
    """ "No behaviour change: `a.py` and 2 more parse to the same code at both revisions
    apart from layout, comments and docstrings and …", saying that what else the change
    edits is not compared: the longest that fits in `limit` characters, else ""."""
    parts = [words for kind, words in p.kept_apart if kind in kinds]
    differences = (
        p.list_sep.join(parts[:-1]) + p.kept_and + parts[-1] if len(parts) > 1 else parts[0]
    )
    source = set(sig.source_files)
    shipped = [f.filename for f in commit.files if f.filename in source and not dev_tooling(f)]
    unread = p.kept_unread if len(shipped) < len(commit.files) else ""
    form = p.kept_code[0 if len(shipped) == 1 else 1]
    for shown in (2, 1):
        said = form.format(paths=codes(p, shipped, limit=shown), differences=differences)
        if len(done := sentence(p, said + unread)) <= limit:
            return done
    return ""


def code_changed(commit: CommitInput, sig: Signals) -> bool:
    """Whether a shipped file's patch changes a line of code: not only blank lines, comments
    and docstrings. A file without a patch counts as code (what changed is not known)."""
    shipped = set(sig.source_files)
    for f in commit.files:
        if f.filename not in shipped:
            continue
        if f.patch is None:
            return True
        in_doc = False
        for line in f.patch.split("\n"):
            if line.startswith("@@"):
                in_doc = False
                continue
            body = line[1:]
            quotes = body.count('"""') + body.count("'''")
            changed = line[:1] in "+-" and body.strip() and not in_doc and not quotes
            if changed and not _COMMENT.match(body):
                return True
            # A docstring opens or closes on the new side (a removed line repeats the old).
            if quotes % 2 and line[:1] != "-":
                in_doc = not in_doc
    return False


def _distinct(words: tuple[str, ...]) -> list[str]:
    """Words once each, a plural beside its singular left out (“NaN”, not “NaN, NaNs”)."""
    lower = {w.lower() for w in words}
    return [
        w
        for w in words
        if not (w.lower().endswith("s") and {w.lower()[:-1], w.lower()[:-2]} & lower)
    ]


def _about_change(sig: Signals, types: list[ChangeType], text: Text, p: AnalysisPhrases) -> None:
    """Numbers, defaults, reverts and relands, and what users and developers should do."""
    if text.risks:
        # Ranked by consequence, so that "and N more" hides nothing above what it shows.
        modules = removed_modules(sig)
        # a parameter's bare name (`obj`, `value`) is no word to search code for: most
        # functions of a library may take one so named
        named = [
            *modules,
            *(n.name for n in _exports_gone(sig, modules)),
            *(r.old.name for r in _renames_released(sig)),
            *(r.old for r in _constants_released(sig)),
            *(
                group[0].name
                for group in _default_groups(_defaults_released(sig))
                if group[0].parameter is None or len(group) == 1
            ),
            *sig.env_removed,
            *sig.flags_removed,
            *sig.config_keys_removed,
        ]
        if named:
            text.advise(Audience.USERS, p.migrate.format(names=codes(p, named)))
        # the migration the commit's own tests make, where they make one several times alike
        for rewrite in sig.facts.test_rewrites[:1]:
            said = p.tests_rewrite_more if rewrite.more else p.tests_rewrite
            text.advise(
                Audience.USERS,
                said.format(old=rewrite.old, new=rewrite.new, path=rewrite.path, more=rewrite.more),
            )
    # an option the function took out of `**kwargs` now reaches the call it forwards them to
    # (first: the `TypeError` a user meets outweighs what the function now calls)
    text.insights.setdefault("compatibility", [])[:0] = [
        sentence(
            p,
            p.forwards[len(f.options) > 1].format(
                function=f.function, options=codes(p, f.options), callee=f.callee
            ),
        )
        for f in sig.facts.forwarded
        if f.path in sig.source_files
        and all(not part.startswith("_") or part == "__init__" for part in f.function.split("."))
    ]
    if not text.insights["compatibility"]:
        del text.insights["compatibility"]
    # Only with a replacement to name: "move off what “…” names" said the warning again.
    for deprecation in sig.facts.deprecations[:1]:
        if deprecation.replacement:
            text.advise(
                Audience.USERS, p.deprecation_replaced.format(replacement=deprecation.replacement)
            )
    if sig.perf_number and (T.PERFORMANCE in types or not text.insights):
        text.note("performance", sentence(p, p.reports.format(number=sig.perf_number)))
    if sig.by_default and T.REVERT not in types and not sig.defaults_kept_only:
        phrase = re.search(r"[^,;]*by default", sig.title.text, re.IGNORECASE)
        found = (phrase.group(0) if phrase else sig.title.text).strip()
        text.note("compatibility", sentence(p, p.by_default.format(phrase=found)))
    if T.REVERT in types and sig.reverted_title and (said := _reverts(sig, p)) != text.summary:
        text.note("compatibility", said)
    if sig.reland:
        title = sig.relanded_title or sig.title.text
        text.note("compatibility", sentence(p, p.reland.format(title=excerpt(title))))
    if sig.experimental:
        paths = codes(p, sig.experimental)
        text.note("architecture", sentence(p, p.experimental.format(paths=paths)))
