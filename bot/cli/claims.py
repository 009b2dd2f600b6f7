"""The checkable claims an entry's text makes: a verb and the code-span names it governs.

Read from the English words alone, never from the analyser's facts: `adds` (with a value:
"adds `X = v`"; with how it is called: "adds `f(x, y=1) -> T`"), `removes`,
`renames … to …`, `moves … from … to …`, `changes`, `changes the default of … from … to …`,
`changes the default of … in f, g from … to …` (a parameter's, a claim for each function),
`f, g no longer take / gain the parameter …` (the functions before the verb),
`reads the new environment variable`, `no longer reads …`, configuration keys, command-line
flags, tests, kernels, `requires` pins, quoted deprecation messages, what a function's
body does (`f now (also) checks for "a"`, `f now raises E with “message”`, `f may now raise
E [with “message”]`, `f now raises E instead of F`: the function before the verb), and the
strings a table gains or loses ("`T` gains the key `"k"`", "`T` drops `"v"`"), the keyword
arguments a function's calls pass ("`f` now passes `k=v` to `g` (was `w`)", "`f` no longer
passes `k=v` to `g`"), a pin ("updates the pre-commit hook `h` / the GitHub Action `a` from
`x` to `y`"), packaging metadata ("adds the extra `socks` (`socksio==1.*`)", "removes the
command `c`", "adds the `pytest11` entry point `p` (`pkg.plugin`)", "changes the build
backend from `a` to `b`"), a release's notes ("`CHANGES.rst` lists 28 new items: “a”
(Heading)"), a docstring ("`f`, per its docstring: “Return …”"; "`f` now calls `_g`, whose
docstring says: “Open …”"), names no release had ("`a`, `b` (added after 3.0.0b2, never
released)"), what a test pins ("The new test `t` pins `f(a)` to `b`", "… expects `f(a)`
to raise `E`"), what a release ships ("It ships 26 commits since `8.2.3`, 1 of them breaking
or high: `8880763` “Drop support for EOL Python 3.7” (breaking)"). A sentence is split at
each verb it holds; the names in code spans up to the next verb are that verb's. A `to`,
`from` or `in` before a path-shaped span says where. Names no verb governs are counted apart.
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass
from enum import StrEnum


class Kind(StrEnum):
    ADDS = "adds"
    ADDS_VALUE = "adds with value"
    ADDS_SIGNATURE = "adds with signature"
    ADDS_TEST = "adds test"
    ADDS_KERNEL = "adds kernel"
    REMOVES = "removes"
    RENAMES = "renames"
    MOVES = "moves"
    CHANGES = "changes"
    DEFAULT = "changes default"
    VALUE = "changes value"
    ENV_NEW = "reads new env var"
    ENV_GONE = "no longer reads env var"
    KEY_NEW = "reads new config key"
    KEY_GONE = "stops reading config key"
    FLAG_NEW = "adds flag"
    FLAG_GONE = "removes flag"
    REQUIRES = "requires"
    DEPRECATION = "deprecation message"
    REGISTERS = "registers"
    SECTION = "adds section"
    PARAM_GONE = "no longer takes parameter"
    PARAM_NEW = "gains parameter"
    PARAM_BEFORE_NEW = "gains parameter before"
    PARAM_BEFORE = "now takes parameter before"
    CHECKS = "now checks for string"
    RAISES_MESSAGE = "now raises with message"
    LOGS = "now logs"
    REWORDED = "raised exception now says"
    MAY_RAISE = "may now raise"
    RERAISES = "now raises where it let through"
    CATCHES = "now catches"
    CATCHES_GONE = "no longer catches"
    CALLS = "now calls"
    CALLS_GONE = "no longer calls"
    MAY_RETURN = "may now return"
    RETYPED = "parameter now takes type"
    RETURN_TYPE = "now returns type"
    RETURNS_NOW = "now returns value"
    RETURNS_INSTEAD = "now returns instead of"
    RETURNS_EARLY = "now returns value early"
    RETURNS_WHERE = "now returns literal where it returned"
    COMPUTES = "now computes as"
    OPTIONAL = "parameter now optional"
    REQUIRED = "parameter now required"
    PARAM_RENAMED = "parameter now named"
    EDITED = "the fix is in"
    TESTS_CALL = "the new tests call"
    PINS = "test pins call to value"
    PINS_RAISE = "test expects call to raise"
    TABLE_KEY_NEW = "table gains key"
    TABLE_KEY_GONE = "table loses key"
    TABLE_VALUE_NEW = "table gains value"
    TABLE_VALUE_GONE = "table drops value"
    TESTS_NOW = "now tests condition"
    GUARD = "guard added"
    NO_LONGER_TESTS = "no longer tests condition"
    RAISES_GONE_WHEN = "no longer raises when"
    PASSES = "now passes keyword"
    PASSES_GONE = "no longer passes keyword"
    IMPORT_FAILS = "importing the module fails"
    HOOK_PIN = "updates pre-commit hook"
    ACTION_PIN = "updates GitHub Action"
    EXTRA_NEW = "adds extra"
    EXTRA_GONE = "removes extra"
    COMMAND_NEW = "adds command"
    COMMAND_GONE = "removes command"
    ENTRY_POINT_NEW = "adds entry point"
    ENTRY_POINT_GONE = "removes entry point"
    BACKEND = "changes build backend"
    BUILD_NEEDS = "building from the sdist now needs"
    ADVISORY = "security advisory's fix merged from its private fork"
    EXTRA_PIN = "extra now requires"
    EXTRA_REQUIRES_NEW = "extra now also requires"
    EXTRA_REQUIRES_GONE = "extra no longer requires"
    EXTRA_INSTALLS_GONE = "installing the extra no longer installs"
    DEV_REQUIREMENT_NEW = "adds dev dependency"
    DEV_REQUIREMENT_GONE = "removes dev dependency"
    EXTRA_GROUPED = "moves extra to dependency group"
    PUBLISHED_AS = "publishes the package as"
    RELEASE_NOTE = "release notes list"
    INTERNAL = "no public surface change"
    SAME_CODE = "no behaviour change"
    PRIVATE_ONLY = "changes only private"
    DOCUMENTED = "docstring says"
    REDOCUMENTED = "docstring now says"
    RAISES_INSTEAD = "now raises instead of"
    BECAME = "statement became"
    USED_BY = "private method used by"
    CALLEE_RAISES = "callee raises when"
    NEVER_RELEASED = "never released"
    FIXES_UNRELEASED = "fixes code never released"
    SHIPS_COUNT = "release ships commits since"
    SHIPS_COMMIT = "release ships the commit"
    LAST_RELEASE = "the last release was"
    ABSTRACT_NEW = "gains abstract member"
    FIELD_NEW = "gains field"
    RETURNS_WHEN = "now returns when"
    RAISES_PAST = "now raises past a narrowed guard"
    OVERRIDES = "now overrides"
    STILL_READS = "still reads removed name"
    SETTING_IGNORED = "setting a module name has no effect"
    IMPORTS_GONE = "still imports removed name"
    CALL_SHORT = "call lacks required argument"
    CALL_UNKNOWN = "call passes unknown keyword"
    TESTS_REWRITE = "tests rewrite"
    FORWARDS = "now forwards option"
    SETS_RAISING = "now sets an attribute to a closure that raises"
    RAISES_REACHED = "now raises, reached"
    RAISES_RETYPED = "now raises (was)"
    NOT_SUBCLASS = "is no subclass of"
    METADATA_GONE = "reading the name now raises AttributeError"
    NO_NAME_REMOVED = "removes no public name"
    PYTHON_KEPT = "Python requirement unchanged"
    HOLDER_RAISES = "the function raising it"
    HOOK_RAISES = "the hook set raises it"
    HOOK_QUIET = "the parent's hook raised nothing"


@dataclass(frozen=True)
class Claim:
    """One thing the text says about one name (or a rename's pair, a default's values)."""

    kind: Kind
    name: str
    sentence: str
    # where the text says it happened (a path), when it says
    path: str | None = None
    # renames: the new name; moves: the new path; defaults: the values before and after
    old: str | None = None
    new: str | None = None
    # a keyword's value the call passed before ("… (was `False`)")
    was: str | None = None


# Longest phrases first: the alternation takes the first that matches at a position.
_VERBS: list[tuple[Kind, str]] = [
    (Kind.DEFAULT, r"changes? the default(?: value)? of"),
    (Kind.DEFAULT, r"default of"),
    (Kind.PARAM_GONE, r"no longer takes? the parameters?"),
    (Kind.PARAM_NEW, r"gains? the parameters?"),
    (Kind.CHECKS, r"now (?:also )?checks for"),
    (Kind.MAY_RAISE, r"may now raise"),
    (Kind.MAY_RETURN, r"may now return"),
    (Kind.CATCHES_GONE, r"no longer catches"),
    (Kind.CATCHES, r"now catches"),
    (Kind.PASSES_GONE, r"no longer passes"),
    (Kind.PASSES, r"now passes"),
    (Kind.CALLS_GONE, r"no longer calls?"),
    (Kind.CALLS, r"now calls?"),
    (
        Kind.GUARD,
        r"now returns early when|now skips to the next iteration when"
        r"|now raises(?=\s+`[^`]*`\s+when\s)",
    ),
    (Kind.RETURNS_WHEN, r"now returns(?=\s+`[^`]*`\s+when\s)"),
    (Kind.RAISES_PAST, r"now raises(?=\s+`[^`]*`\s+if\s+`)"),
    (Kind.TESTS_NOW, r"now tests"),
    (Kind.NO_LONGER_TESTS, r"no longer tests"),
    (Kind.RAISES_GONE_WHEN, r"no longer raises(?=\s+`[^`]*`\s+when\s)"),
    (
        Kind.RERAISES,
        r"now raises(?=\s+`[^`]*`\s+with (?:the message “[^”]*”|a message of its own)"
        r"\s+where it let\b)",
    ),
    (Kind.RAISES_MESSAGE, r"now raises"),
    (Kind.ENV_GONE, r"(?:no longer reads|stops? reading) the environment variables?"),
    (Kind.ENV_NEW, r"reads the new environment variables?|new environment variables?"),
    (Kind.KEY_GONE, r"(?:no longer reads|stops? reading) the configuration keys?"),
    (Kind.KEY_NEW, r"reads the new configuration keys?|new configuration keys?"),
    (Kind.FLAG_GONE, r"removes the command-line (?:flags?|options?)"),
    (
        Kind.FLAG_NEW,
        r"adds the command-line (?:flags?|options?)|new command-line (?:flags?|options?)",
    ),
    (Kind.ADDS_TEST, r"adds the tests?"),
    (Kind.ADDS_KERNEL, r"adds the kernels?"),
    (Kind.DEPRECATION, r"adds a deprecation (?:warning|message)"),
    (Kind.SECTION, r"adds the sections?"),
    (Kind.REGISTERS, r"registers"),
    (Kind.REQUIRES, r"requires"),
    (Kind.RENAMES, r"renames|renamed"),
    (Kind.MOVES, r"moves|moved"),
    (Kind.REMOVES, r"removes|removed|deletes|deleted|drops|dropped"),
    (Kind.ADDS, r"adds|added|introduces|introduced"),
    (Kind.HOOK_PIN, r"updates the pre-commit hook"),
    (Kind.ACTION_PIN, r"updates the GitHub Action"),
    (Kind.CHANGES, r"changes|changed|modifies|modified|updates|updated"),
]
_VERB = re.compile(
    "|".join(rf"(?P<v{i}>(?<![\w`-])(?:{p})(?![\w`-]))" for i, (_, p) in enumerate(_VERBS)),
    re.IGNORECASE,
)
_SPAN = re.compile(r"`([^`\n]+)`")
# A quotation, one nested in it included ("“Why “just use bcrypt” Is Not …”": a heading that
# quotes, argon2-cffi 4fb3ca3)
_QUOTE = re.compile(r"“((?:[^“”]|“[^“”]*”)+)”")
# "…, which raises `E` when `t`": what a callee named just before raises for its callers
_WHICH_RAISES = re.compile(
    r",\s+which raises\s+`(?P<exception>[^`\n]+)`\s+when\s+`(?P<test>[^`\n]+)`"
)
# "…, whose docstring says: “s”": what the docstring of a callee named just before opens with
_WHOSE_DOCSTRING = re.compile(r",\s+whose docstring says:\s+“(?P<text>(?:[^“”]|“[^“”]*”)+)”")
# A sentence ends at . ! ? followed by a space, never inside a code span or a quotation.
_SENTENCE = re.compile(r"(?:`[^`\n]*`|“(?:[^“”]|“[^“”]*”)*”|[^.!?`“])+[.!?]*")
# Extensions that make a one-word span a file (`a.py`) rather than an attribute (`obj.attr`).
_FILE_EXT = re.compile(
    r"\.(?:py|pyi|pyx|c|cc|cpp|cxx|h|hh|hpp|cu|cuh|rs|go|java|kt|js|jsx|ts|tsx|rb|sh|md|rst"
    r"|txt|ya?ml|toml|json|cfg|ini|lock|in|html|css|cmake|proto|sql|ipynb)$"
)


def is_path(text: str) -> bool:
    """A code span that names a file or folder rather than a symbol."""
    if " " in text or text.startswith("-"):
        return False
    return "/" in text or bool(_FILE_EXT.search(text))


# A quotation that ends its own sentence ends the text's: “… context.” `f` now calls …
_QUOTED_END = re.compile(r"(?<=[.!?]”)\s+(?=[`A-Z])")


def sentences(text: str) -> list[str]:
    return [
        part.strip()
        for s in _SENTENCE.findall(text)
        for part in _QUOTED_END.split(s)
        if part.strip()
    ]


def _kind_of(match: re.Match[str]) -> Kind:
    for i, (kind, _) in enumerate(_VERBS):
        if match.group(f"v{i}") is not None:
            return kind
    raise AssertionError("a verb matched no group")


def _before(segment: str, start: int) -> str:
    """The last word before a code span, lowercased."""
    words = re.findall(r"[A-Za-z]+", segment[:start])
    return words[-1].lower() if words else ""


# The words that may stand between a verb and the names it is said of ("adds the helper
# `x`"); any other word ("adds support for `x`") means the verb is not said of them.
_GLUE = re.compile(
    r"\s*(?:(?:the|a|an|new|public|private|internal|unused|deprecated|dedicated|helpers?"
    r"|functions?|class(?:es)?|methods?|modules?|files?|tests?|kernels?|options?|flags?"
    r"|fields?|attributes?|arguments?|parameters?|constants?|variables?|keys?|properties"
    r"|property|types?|decorators?|structs?|enums?|aliases|alias|commands?|models?|backends?"
    r"|operators?|registry entry|registry entries)\s+)*",
    re.IGNORECASE,
)
# "the `x` and `y` arguments to `F()`": what a function gains, as its author says it
_ARGUMENTS_TO = re.compile(
    r"\s*(?:the\s+)?(?:new\s+)?(?P<params>`[A-Za-z_]\w*`(?:(?:,|,? and|,? or) `[A-Za-z_]\w*`)*)"
    r"\s+(?:keyword[- ]only\s+|keyword\s+)?(?:arguments?|parameters?|kwargs?)\s+(?:to|of|for)"
    r"\s+(?:the\s+)?(?:\w+\s+)?`(?P<f>[A-Za-z_][\w.]*(?:\(\))?)`"
)
_ARGUMENT_KINDS = {
    Kind.ADDS: Kind.PARAM_NEW,
    Kind.REMOVES: Kind.PARAM_GONE,
    Kind.CHANGES: Kind.CHANGES,
}
# What joins the names of one list: "`a`, `b` and `c`", "`a` or `b`".
_LIST = re.compile(r"\s*(?:,|,?\s+and|,?\s+or|/)\s*")
_PARAMETER_KINDS = frozenset({Kind.PARAM_GONE, Kind.PARAM_NEW})
# The kinds said of the function named before the verb ("`f` now checks for …").
# "`f`, `g` now call `h`": every name before the verb is a subject, each with each name after
_NAMED_BODY_KINDS = {
    Kind.MAY_RAISE,
    Kind.MAY_RETURN,
    Kind.CATCHES,
    Kind.CATCHES_GONE,
    Kind.CALLS,
    Kind.CALLS_GONE,
}
_CONDITION_KINDS = frozenset(
    {
        Kind.TESTS_NOW,
        Kind.GUARD,
        Kind.NO_LONGER_TESTS,
        Kind.RAISES_GONE_WHEN,
        Kind.RETURNS_WHEN,
        Kind.RAISES_PAST,
    }
)
# "`E` if `a and not b` (unless `u`: then it returns `w`), where it returned `r`": what
# follows "now raises" of a guard narrowed past a raise
_RAISES_PAST = re.compile(
    r"\s*`(?P<exception>[^`]+)`\s+if\s+`(?P<test>[^`]+)`"
    r"(?:\s+\(unless `[^`]+`: then it returns `[^`]+`\))*,\s+where it returned\s+`(?P<was>[^`]+)`"
)
# "`v` when `t`, where it returned `l`": what follows "now returns" of a case accepted
_RETURNS_WHEN = re.compile(
    r"\s*`(?P<value>[^`]+)`\s+when\s+`(?P<test>[^`]+)`"
    r"(?:,\s+where it returned\s+`(?P<last>[^`]+)`)?"
)
_PASSES_KINDS = frozenset({Kind.PASSES, Kind.PASSES_GONE})
_SUBJECT_KINDS = (
    _PARAMETER_KINDS
    | _CONDITION_KINDS
    | _NAMED_BODY_KINDS
    | _PASSES_KINDS
    | {Kind.CHECKS, Kind.RAISES_MESSAGE, Kind.RERAISES}
)
# "`k=v` to `g` (was `w`)": what follows "now passes" / "no longer passes"
_PASSED = re.compile(
    r"\s*`(?P<arg>[A-Za-z_]\w*)=(?P<value>[^`]+)` to `(?P<callee>[^`]+)`"
    r"(?:\s+\(was `(?P<was>[^`]+)`\))?"
)
# "`test` (was `old`)", "`E` when `test`", "`test`": what follows a condition's verb
_TESTED = re.compile(r"\s*`(?P<test>[^`]+)`(?:\s+\(was `(?P<was>[^`]+)`\))?")
# "`--x`: “its help text”": what follows "adds the command-line option"
_HELPED = re.compile(r"\s*`(?P<flag>-[^`\s]+)`:\s*“(?P<help>[^”]+)”")
_RAISED_WHEN = re.compile(r"\s*`(?P<exception>[^`]+)`\s+when\s+`(?P<test>[^`]+)`")
# "`ValueError` with “message”": the exception raised and its message
_RAISED_WITH = re.compile(r"\s*`([^`]+)` with “([^”]+)”")
# "`E` with the message “m” where it let `E` through" (or "with a message of its own")
_RERAISED = re.compile(r"\s*`([^`]+)` with (?:the message “([^”]+)”|a message of its own)")
# "the default of `p` in `f`, `g` and 2 more from `a` to `b`": a parameter's in functions
_GROUPED_DEFAULT = re.compile(
    r"\s*`(?P<param>[^`]+)` in (?P<functions>`[^`]+`(?:(?:,|,?\s+and)\s*`[^`]+`)*)"
    r"(?:\s+and \d+ more)?\s+from `(?P<old>[^`]+)` to `(?P<new>[^`]+)`"
)


def _first_path(spans: list[tuple[int, str]]) -> str | None:
    return next((s for _, s in spans if is_path(s)), None)


def _segment_claims(kind: Kind, segment: str, sentence: str) -> tuple[list[Claim], list[str]]:
    """The claims one verb makes over its segment, and the names it could not place."""
    if kind is Kind.DEPRECATION:
        quoted = _QUOTE.search(segment)
        return ([Claim(kind, quoted.group(1), sentence)] if quoted else []), []
    helped = _HELPED.match(segment) if kind is Kind.FLAG_NEW else None
    if helped is not None:
        # "adds the command-line option `--x`: “help”": `new` the option's help text
        return [Claim(kind, helped["flag"], sentence, new=helped["help"])], []
    if kind is Kind.SECTION:
        titles = _QUOTE.findall(segment)
        into = _first_path([(0, s) for s in _SPAN.findall(_QUOTE.sub("", segment))])
        return [Claim(kind, t, sentence, path=into) for t in titles], []
    # a code span inside a quotation (a title, a message) is the quotation's, not a name
    segment = _QUOTE.sub(lambda m: "“" + " " * len(m.group(1)) + "”", segment)
    spans = [(m.start(), m.group(1)) for m in _SPAN.finditer(segment)]
    grouped = _GROUPED_DEFAULT.match(segment) if kind is Kind.DEFAULT else None
    if grouped and not any(is_path(f) for f in _SPAN.findall(grouped.group("functions"))):
        # one parameter's default in several functions: a claim for each function
        param, old, new = grouped.group("param", "old", "new")
        return [
            Claim(kind, f"{function}({param})", sentence, None, old, new)
            for function in _SPAN.findall(grouped.group("functions"))
        ], []
    if kind is Kind.DEFAULT and len(spans) >= 3:
        name, old, new = (s for _, s in spans[:3])
        return [Claim(kind, name, sentence, _first_path(spans[3:]), old, new)], []
    if kind in (Kind.RENAMES, Kind.MOVES) and spans and not _GLUE.fullmatch(segment[: spans[0][0]]):
        return [], [s for _, s in spans]
    if kind is Kind.RENAMES and len(spans) >= 2:
        renamed = Claim(kind, spans[0][1], sentence, _first_path(spans[2:]), new=spans[1][1])
        return [renamed], []
    if kind is Kind.MOVES:
        paths = [s for _, s in spans if is_path(s)]
        moved = [s for _, s in spans if not is_path(s)]
        if len(paths) < 2:
            return [], moved
        return [Claim(kind, n, sentence, path=paths[0], new=paths[1]) for n in moved], []
    value = re.match(r"\s*`([^`]+)` from `([^`]+)` to `([^`]+)`", segment)
    if kind in (Kind.HOOK_PIN, Kind.ACTION_PIN):
        if value is None:
            return [], [s for _, s in spans]
        name, old, new = value.groups()
        return [Claim(kind, name, sentence, _first_path(spans[3:]), old, new)], []
    if kind is Kind.CHANGES and value:
        name, old, new = value.groups()
        return [Claim(Kind.VALUE, name, sentence, _first_path(spans[3:]), old, new)], []
    if kind in (Kind.DEFAULT, Kind.RENAMES):
        return [], [s for _, s in spans]
    if not spans or not _GLUE.fullmatch(segment[: spans[0][0]]):
        # "adds support for X in the files (`a`)": the verb is not said of the names
        return [], [s for _, s in spans]
    names: list[str] = []
    where: str | None = None
    listing = True
    for i, (start, span) in enumerate(spans):
        between = segment[spans[i - 1][0] + len(spans[i - 1][1]) + 2 : start] if i else ""
        if is_path(span) and _before(segment, start) in {"to", "from", "in", "into", "module"}:
            where, listing = span, False
        elif listing and (i == 0 or _LIST.fullmatch(between)):
            names.append(span)
        else:
            listing = False
    left = [s for _, s in spans if s not in names and s != where]
    return [_valued(Claim(kind, n, sentence, path=where)) for n in names], left


_ASSIGNED = re.compile(r"([A-Za-z_][\w.]*) = (.+)")
# "adds `f(x, y=1)`", "`f(a, …) -> T`": a name with the parameters it is called with
_CALLED = re.compile(r"([A-Za-z_][\w.]*)\((.*?)\)(?: -> (.+))?")


def _valued(claim: Claim) -> Claim:
    """ "adds `X = v`": a name added with the value it is assigned; "adds `f(x, y=1) -> T`":
    a name added with how it is called (`new` its parameters as written, `old` its return;
    `f() -> T` takes no parameters; `f()` alone is prose's name for `f`)."""
    if claim.kind is not Kind.ADDS:
        return claim
    called = _CALLED.fullmatch(claim.name.strip())
    if called is not None:
        name, params, returns = called.groups()
        if not params and returns is None:
            # `f()` bare is how prose names a function (an author's "Added the
            # `wait_readable()` function", anyio 4.7), no signature: the name is added
            return Claim(Kind.ADDS, name, claim.sentence, claim.path)
        return Claim(Kind.ADDS_SIGNATURE, name, claim.sentence, claim.path, returns, params)
    assigned = _ASSIGNED.fullmatch(claim.name.strip())
    if assigned is None:
        return claim
    name, value = assigned.groups()
    return Claim(Kind.ADDS_VALUE, name, claim.sentence, claim.path, new=value)


def _parameter_claims(
    kind: Kind, head: str, segment: str, sentence: str
) -> tuple[list[Claim], list[str]]:
    """ "`f`, `g` no longer take the parameter `p=v`": a claim for each function (the names
    before the verb, a path among them where the function is) and each parameter (`old`,
    as written)."""
    # "`f` in `a.py`, `g` in `b.py`": a path right after a name is that name's
    subject: list[tuple[str, str | None]] = []
    for span in _SPAN.findall(head):
        if not is_path(span):
            subject.append((span, None))
        elif subject and subject[-1][1] is None:
            subject[-1] = (subject[-1][0], span)
    where = next((s for s in _SPAN.findall(head) if is_path(s)), None)
    params: list[str] = []
    spans = [(m.start(), m.group(1)) for m in _SPAN.finditer(segment)]
    if spans and _GLUE.fullmatch(segment[: spans[0][0]]):
        for i, (start, span) in enumerate(spans):
            between = segment[spans[i - 1][0] + len(spans[i - 1][1]) + 2 : start] if i else ""
            if i and not _LIST.fullmatch(between):
                break
            params.append(span)
    left = [s for _, s in spans if s not in params]
    found = [
        Claim(kind, function, sentence, path=own or where, old=param)
        for function, own in subject
        for param in params
    ]
    return found, left


def _listed(segment: str, spans: list[tuple[int, str]]) -> list[str]:
    """The names a segment lists right after its verb (`a`, `b` and `c`), up to the first
    gap that is no list separator."""
    names: list[str] = []
    for i, (start, span) in enumerate(spans):
        between = segment[spans[i - 1][0] + len(spans[i - 1][1]) + 2 : start] if i else ""
        if i and not _LIST.fullmatch(between):
            break
        names.append(span)
    return names


def _subject(head: str) -> tuple[str | None, str | None]:
    """The function a sentence is about (the first name before its verb) and its file (a
    path right after it: "`command` in `bot/cli/register.py` now …")."""
    spans = _SPAN.findall(head)
    names = [s for s in spans if not is_path(s)]
    path = next((s for s in spans if is_path(s)), None)
    return (names[0] if len(names) == 1 else None), path


def _body_claims(
    kind: Kind, verb: str, head: str, segment: str, sentence: str
) -> tuple[list[Claim], list[str]]:
    """ "`f` now (also) checks for `"a"`, `"b"`": a claim for each string (`old`; `new` is
    "also" where the words say it); "`f` now raises `E` with “m”": one claim (`old` the
    exception, `new` the message)."""
    masked = _QUOTE.sub(lambda m: "“" + " " * len(m.group(1)) + "”", segment)
    spans = [(m.start(), m.group(1)) for m in _SPAN.finditer(masked)]
    raised = _RAISED_WITH.match(segment) if kind is Kind.MAY_RAISE else None
    if raised is not None:
        # "`f` may now raise `E` with “m”": `old` the exception, `new` its message
        subjects = re.findall(r"`([^`]+)`(?: in `([^`]+)`)?", head)
        return [
            Claim(kind, f, sentence, path or None, *raised.groups())
            for f, path in subjects
            if not is_path(f)
        ], []
    if kind in _NAMED_BODY_KINDS:
        named = _listed(segment, spans)
        # "`f`, `main` in `pkg/cli.py` now call `g`": a path is its own name's, the one
        # right before "in"
        subjects = [
            (m.group(1), m.group(2))
            for m in re.finditer(r"`([^`]+)`(?: in `([^`]+)`)?", head)
            if not is_path(m.group(1))
        ]
        left = [s for _, s in spans[len(named) :]] + ([] if subjects else named)
        return [Claim(kind, f, sentence, path, n) for f, path in subjects for n in named], left
    function, path = _subject(head)
    if function is None:
        return [], [s for _, s in spans]
    if kind is Kind.RERAISES:
        again = _RERAISED.match(segment)
        if again is None:
            return [], [s for _, s in spans]
        return [Claim(kind, function, sentence, path, *again.groups())], []
    if kind is Kind.RAISES_MESSAGE:
        raised = _RAISED_WITH.match(segment)
        if raised is None:
            return [], [s for _, s in spans]
        exception, message = raised.groups()
        return [Claim(kind, function, sentence, path, exception, message)], []
    also = "also" if " also " in verb.lower() else None
    values: list[str] = []
    for i, (start, span) in enumerate(spans):
        between = segment[spans[i - 1][0] + len(spans[i - 1][1]) + 2 : start] if i else ""
        if (i and not _LIST.fullmatch(between)) or not re.fullmatch(r'"[^"]*"', span):
            break
        values.append(span[1:-1])
    left = [s for _, s in spans[len(values) :]]
    return [Claim(kind, function, sentence, path, v, also) for v in values], left


# Sentences of one fixed shape, read whole: a parameter's or a return's type, a parameter
# made optional or required (`name` is `f(p)`), where a fix lies, what new tests call, what
# a definition's docstring says first (`new` the words quoted).
_IN = r"(?: in `(?P<path>[^`]+)`)?"
_NAMES = r"(?P<names>`[^`]+`(?:(?:,| and|, and) `[^`]+`)*)(?: and \d+ more)?"
_SHAPES: list[tuple[Kind, re.Pattern[str]]] = [
    # "Code that imports `pkg.mod` fails[; it is now `pkg.new`]": the module gone from its
    # dotted path (and where it went)
    (
        Kind.IMPORT_FAILS,
        re.compile(r"Code that imports `(?P<f>[\w.]+)` fails(?:; it is now `(?P<new>[\w.]+)`)?\.?"),
    ),
    (
        Kind.RETYPED,
        re.compile(
            rf"The parameter `(?P<p>[^`]+)` of `(?P<f>[^`]+)`{_IN} now takes `(?P<new>[^`]+)`"
            r" \(was `(?P<old>[^`]+)`\)\.?"
        ),
    ),
    (
        Kind.RETURN_TYPE,
        re.compile(
            rf"`(?P<f>[^`]+)`{_IN} now returns `(?P<new>[^`]+)` \(was `(?P<old>[^`]+)`\)\.?"
        ),
    ),
    # "`f` now returns `v` [or `w`]" (`new`, `was`): a value where it returned none;
    # "`f` now returns `b` instead of `a`": another value where every `return` gave `a`
    (
        Kind.RETURNS_INSTEAD,
        re.compile(
            rf"`(?P<f>[^`]+)`{_IN} now returns `(?P<new>[^`]+)` instead of `(?P<old>[^`]+)`\.?"
        ),
    ),
    # "`f` now returns `b` where it returned `a` [(when `t`)]" (`was` the case): a literal
    # given back in a case where another was
    (
        Kind.RETURNS_WHERE,
        re.compile(
            rf"`(?P<f>[^`]+)`{_IN} now returns `(?P<new>[^`]+)` where it returned"
            r" `(?P<old>[^`]+)`(?: \(when `(?P<was>[^`]+)`\))?\.?"
        ),
    ),
    # "`f` now returns `v` early when `t`" (`old` the value, `new` the test): a new guard
    # that returns a value
    (
        Kind.RETURNS_EARLY,
        re.compile(
            rf"`(?P<f>[^`]+)`{_IN} now returns `(?P<old>[^`]+)` early when `(?P<new>[^`]+)`\.?"
        ),
    ),
    # "`f` now computes `x` as `b` (was `a`)" (`name` is `f(x)`): the one value `f` binds
    # `x` to, another at the commit
    (
        Kind.COMPUTES,
        re.compile(
            rf"`(?P<f>[^`]+)`{_IN} now computes `(?P<p>[^`]+)`(?:, the value it returns,)?"
            r" as `(?P<new>[^`]+)`"
            r" \(was `(?P<old>[^`]+)`\)\.?"
        ),
    ),
    (
        Kind.RETURNS_NOW,
        re.compile(
            rf"`(?P<f>[^`]+)`{_IN} now returns `(?P<new>[^`]+)`(?: or `(?P<was>[^`]+)`)?\.?"
        ),
    ),
    (
        Kind.OPTIONAL,
        re.compile(
            rf"The parameter `(?P<p>[^`]+)` of `(?P<f>[^`]+)`{_IN} is now optional"
            r" \(default `(?P<new>[^`]+)`\)\.?"
        ),
    ),
    (
        Kind.REQUIRED,
        re.compile(
            rf"The parameter `(?P<p>[^`]+)` of `(?P<f>[^`]+)`{_IN} is now required"
            r" \(its default was `(?P<old>[^`]+)`\)\.?"
        ),
    ),
    # "The parameter `p` of `f` is now `q`": a keyword renamed (`new` the new name)
    (
        Kind.PARAM_RENAMED,
        re.compile(
            rf"The parameter `(?P<p>[^`]+)` of `(?P<f>[^`]+)`{_IN} is now `(?P<new>[^`]+)`\.?"
        ),
    ),
    (Kind.EDITED, re.compile(rf"The fix is in {_NAMES}\.?")),
    (
        Kind.EDITED,
        re.compile(rf"No test changed with this fix of {_NAMES}: ask for a regression test\.?"),
    ),
    (Kind.TESTS_CALL, re.compile(rf"The new tests call {_NAMES}\.?")),
    # "The new test `t` pins `f(a)` to `b`", "The test `t` now also pins …" (`was` "new
    # test" or "test"): a case a test asserts anew
    (
        Kind.PINS,
        re.compile(
            r"The (?P<was>new test|test) `(?P<f>[^`]+)`(?: now also)? pins `(?P<old>[^`]+)`"
            r" to `(?P<new>[^`]+)`(?:, and \d+ more cases?)?\.?"
        ),
    ),
    (
        Kind.PINS_RAISE,
        re.compile(
            r"The (?P<was>new test|test) `(?P<f>[^`]+)`(?: now also)? expects `(?P<old>[^`]+)`"
            r" to raise `(?P<new>[^`]+)`(?:, and \d+ more cases?)?\.?"
        ),
    ),
    (
        Kind.RAISES_INSTEAD,
        re.compile(
            rf"`(?P<f>[^`]+)`{_IN} now raises `(?P<new>[^`]+)` instead of `(?P<old>[^`]+)`\.?"
        ),
    ),
    (
        Kind.BECAME,
        re.compile(
            rf"In `(?P<f>[^`]+)`{_IN}(?: \(used by (?P<users>`[^`]+`(?:, `[^`]+`)*)\))?, "
            r"`(?P<old>[^`]+)` became `(?P<new>[^`]+)`\.?"
        ),
    ),
    (
        Kind.DOCUMENTED,
        re.compile(rf"`(?P<f>[^`]+)`{_IN}, per its docstring: “(?P<new>[^”]+)”\.?"),
    ),
    (
        Kind.LOGS,
        re.compile(
            rf"`(?P<f>[^`]+)`{_IN} now logs an? (?P<old>warning|error|critical error):"
            r" “(?P<new>[^”]+)”\.?"
        ),
    ),
    (
        Kind.REDOCUMENTED,
        re.compile(rf"The docstring of `(?P<f>[^`]+)`{_IN} now says: “(?P<new>[^”]+)”\.?"),
    ),
    (
        Kind.REWORDED,
        re.compile(
            rf"The `(?P<old>[^`]+)` raised by `(?P<f>[^`]+)`{_IN} now says “(?P<new>[^”]+)”"
            r"(?: \(was “(?P<was>[^”]+)”\))?\.?"
        ),
    ),
]


# "Type hints only (runtime unchanged[, but …]): the parameter(s) `p`, `q` of `f`, `g` now
# take(s) `T` (was `U`)[; `h` now return(s) `V` (was `W`)]": each function's each parameter retyped
_TYPED_ONLY = re.compile(r"Type hints only \([^)]*\): (?P<clauses>.+?)\.?")
_TYPED_PARAMS = re.compile(
    r"the parameters? (?P<params>`[^`]+`(?:, `[^`]+`)*) of (?P<names>`[^`]+`(?:, `[^`]+`)*)"
    r" now takes? `(?P<new>[^`]+)` \(was `(?P<old>[^`]+)`\)"
)
_TYPED_RETURNS = re.compile(
    r"(?P<names>`[^`]+`(?:, `[^`]+`)*) now returns? `(?P<new>[^`]+)` \(was `(?P<old>[^`]+)`\)"
)


def _typed_only(sentence: str) -> list[Claim] | None:
    """The claims of a sentence of annotations alone (`wording._typed_only`): one for each
    function's each parameter (or return) it says retyped; None for another sentence."""
    m = _TYPED_ONLY.fullmatch(sentence)
    if m is None:
        return None
    out: list[Claim] = []
    for clause in m.group("clauses").split("; "):
        if found := _TYPED_PARAMS.fullmatch(clause):
            out += [
                Claim(Kind.RETYPED, f"{f}({p})", sentence, None, found["old"], found["new"])
                for f in _SPAN.findall(found["names"])
                for p in _SPAN.findall(found["params"])
            ]
        elif found := _TYPED_RETURNS.fullmatch(clause):
            out += [
                Claim(Kind.RETURN_TYPE, f, sentence, None, found["old"], found["new"])
                for f in _SPAN.findall(found["names"])
            ]
    return out


def _shaped(sentence: str) -> list[Claim] | None:
    """The claims of a sentence of one of `_SHAPES`; None for any other sentence."""
    typed = _typed_only(sentence)
    if typed is not None:
        return typed
    for kind, shape in _SHAPES:
        m = shape.fullmatch(sentence)
        if m is None:
            continue
        found = m.groupdict()
        if found.get("names"):
            names = _SPAN.findall(found["names"])
            return [Claim(kind, n, sentence) for n in names]
        name = f"{found['f']}({found['p']})" if found.get("p") else found["f"]
        claim = Claim(
            kind,
            name,
            sentence,
            found.get("path"),
            found.get("old"),
            found.get("new"),
            found.get("was"),
        )
        # "In `f` (used by `g`), …": `g` uses `f`, a claim of its own
        users = _SPAN.findall(found.get("users") or "")
        path = found.get("path")
        return [claim, *(Claim(Kind.USED_BY, name, sentence, path, new=u) for u in users)]
    return None


# "`NAME` [in `path`] gains the key(s) / no longer has the key(s) / gains / drops `"v"`, …
# [and N more]": strings a table (a dict's keys; a list's, set's or Literal's values) gains
# or loses, a claim for each string named
_TABLE = re.compile(
    r"`(?P<name>[A-Za-z_][\w.]*)`(?: in `(?P<path>[^`]+)`)? (?P<verb>gains the keys?"
    r'|no longer has the keys?|gains|drops) (?P<values>`"[^`"]*"`(?:(?:, |,? and )'
    r'`"[^`"]*"`)*)(?: and (?P<more>\d+) more)?'
)
_TABLE_KINDS = {
    "gains the key": Kind.TABLE_KEY_NEW,
    "no longer has the key": Kind.TABLE_KEY_GONE,
    "gains": Kind.TABLE_VALUE_NEW,
    "drops": Kind.TABLE_VALUE_GONE,
}


def _table_claims(sentence: str) -> list[Claim]:
    """The strings a sentence says tables gain or lose: `name` the table, `old` the string,
    `new` how many it gains or loses in all when the sentence counts more than it names."""
    out = []
    for match in _TABLE.finditer(sentence):
        kind = _TABLE_KINDS[match.group("verb").replace("keys", "key")]
        values = re.findall(r'`"([^`"]*)"`', match.group("values"))
        more = match.group("more")
        total = str(len(values) + int(more)) if more else None
        out += [
            Claim(kind, match.group("name"), sentence, match.group("path"), v, total)
            for v in values
        ]
    return out


def _condition_claims(
    kind: Kind, verb: str, head: str, segment: str, sentence: str
) -> tuple[list[Claim], list[str]]:
    """ "`f` now tests `t` (was `o`)": `old` the parent's test, `new` the commit's; "`f` now
    returns early when `t`" / "raises `E` when `t`" / "skips to the next iteration when `t`":
    `old` the jump ("return", "raise E", "continue"), `new` the test; "`f` no longer tests
    `t`": `new` the test; "`f` no longer raises `E` when `t`": `old` "raise E", `new` the
    test; "`f` now returns `v` when `t`, where it returned `l`": `old` `v`, `new` `t`, `was`
    `l`."""
    function, path = _subject(head)
    spans = _SPAN.findall(segment)
    if function is None:
        return [], spans
    if kind is Kind.RAISES_PAST:
        past = _RAISES_PAST.match(segment)
        if past is None:
            return [], spans
        claim = Claim(kind, function, sentence, path, past["exception"], past["test"], past["was"])
        return [claim], []
    if kind is Kind.RETURNS_WHEN:
        given = _RETURNS_WHEN.match(segment)
        if given is None:
            return [], spans
        claim = Claim(kind, function, sentence, path, given["value"], given["test"], given["last"])
        return [claim], []
    if kind is Kind.RAISES_GONE_WHEN or (
        kind is Kind.GUARD and verb.lower().startswith("now raises")
    ):
        raised = _RAISED_WHEN.match(segment)
        if raised is None:
            return [], spans
        jump, test, was = "raise " + raised["exception"], raised["test"], None
    else:
        tested = _TESTED.match(segment)
        if tested is None or (kind is Kind.TESTS_NOW) != (tested["was"] is not None):
            return [], spans
        test, was = tested["test"], tested["was"]
        jump = "return" if "returns" in verb.lower() else "continue"
    if kind is Kind.TESTS_NOW:
        return [Claim(kind, function, sentence, path, was, test)], []
    said = jump if kind in (Kind.GUARD, Kind.RAISES_GONE_WHEN) else None
    return [Claim(kind, function, sentence, path, said, test)], []


def _passes_claims(
    kind: Kind, head: str, segment: str, sentence: str
) -> tuple[list[Claim], list[str]]:
    """ "`f` now passes `k=v` to `g` (was `w`)" / "no longer passes `k=v` to `g`": `name` the
    function, `old` the callee, `new` "k=v", `was` the value before where the words say it."""
    function, path = _subject(head)
    spans = _SPAN.findall(segment)
    passed = _PASSED.match(segment)
    if function is None or passed is None or (kind is Kind.PASSES_GONE and passed["was"]):
        return [], spans
    said = f"{passed['arg']}={passed['value']}"
    return [Claim(kind, function, sentence, path, passed["callee"], said, passed["was"])], []


# "Adds the extras `a` (`r`, `s`), `b`", "Removes the command `c`", "Adds the `pytest11`
# entry point `p` (`pkg.plugin`)": packaging metadata, each name with what follows it in
# parentheses (an extra's requirements, an entry point's target) as written
_ITEM = r"`[^`]+`(?: \((?:`[^`]+`(?:, )?)+\))?"
_PACKAGING = re.compile(
    r"(?P<verb>Adds|Removes) the (?:`(?P<group>[^`]+)` )?"
    r"(?P<what>extras?|commands?|entry points?) "
    rf"(?P<items>{_ITEM}(?:(?:, |,? and ){_ITEM})*)(?: and (?P<more>\d+) more)?\.?"
)
_PACKAGING_KINDS = {
    ("Adds", "extra"): Kind.EXTRA_NEW,
    ("Removes", "extra"): Kind.EXTRA_GONE,
    ("Adds", "command"): Kind.COMMAND_NEW,
    ("Removes", "command"): Kind.COMMAND_GONE,
    ("Adds", "entry point"): Kind.ENTRY_POINT_NEW,
    ("Removes", "entry point"): Kind.ENTRY_POINT_GONE,
}
_BACKEND = re.compile(r"Changes the build backend from `(?P<old>[^`]+)` to `(?P<new>[^`]+)`\.?")
# "A security advisory's fix (merged from its private fork)": the commit is such a merge
_ADVISORY = re.compile(r"A security advisory's fix \(merged from its private fork\)\.?")
# "Building from the sdist now needs `hatchling`, `hatch-vcs` (was `setuptools`)": `new` the
# names said now, `old` those said before (one a line)
_BUILD_NEEDS = re.compile(
    r"Building from the sdist now needs (?P<new>`[^`]+`(?:(?:,|,? and) `[^`]+`)*)"
    r" \(was (?P<old>`[^`]+`(?:(?:,|,? and) `[^`]+`)*)\)\.?"
)
# "Removes the dev dependency `tox` from `pyproject.toml`", "Adds the dev dependencies `a`,
# `b` and 2 more to `pyproject.toml`": a claim for each name said, of that file
_DEV = re.compile(
    r"(?P<verb>Adds|Removes) the dev dependenc(?:y|ies) "
    r"(?P<items>`[^`]+`(?:(?:, |,? and )`[^`]+`)*)"
    r"(?: and \d+ more)? (?:to|from) `(?P<path>[^`]+)`\.?"
)


# "Moves the extras `tests`, `dev` to the dependency groups of their names": a claim each
_GROUPED = re.compile(
    r"Moves the extras? (?P<items>`[^`]+`(?:(?:, |,? and )`[^`]+`)*)(?: and \d+ more)?"
    r" to the dependency groups? of (?:its|their) names?"
    r"(?:: (?:it is|they are) gone from the published metadata)?\.?"
)
# "Publishes the package as `tomli` (was `ltoml`)": the distribution's name
_PUBLISHED = re.compile(r"Publishes the package as `(?P<new>[^`]+)` \(was `(?P<old>[^`]+)`\)\.?")


# "`CHANGES.rst` lists 28 new items: “a” (Heading), “b” and 26 more": a release's notes,
# each quoted item a claim (`old` its heading, `new` the count said)
_NOTE = r"“[^”]+”(?: \([^()]+\))?"
_RELEASE = re.compile(
    rf"`(?P<path>[^`]+)` lists (?P<count>\d+) new items?: (?P<items>{_NOTE}(?:, {_NOTE})*)"
    r"(?: and \d+ more)?\.?"
)


def _release_claims(sentence: str) -> list[Claim] | None:
    m = _RELEASE.fullmatch(sentence)
    if m is None:
        return None
    return [
        Claim(Kind.RELEASE_NOTE, item[1], sentence, m["path"], item[2] or None, m["count"])
        for item in re.finditer(r"“([^”]+)”(?: \(([^()]+)\))?", m["items"])
    ]


# "The extra `cli` now requires `click>=8.0` (was `click>=5.0`)", "… now also requires `a`,
# `b`", "… no longer requires `a`": an extra's requirements, each pin a claim
_PIN_ITEM = r"`[^`]+`(?: \(was `[^`]+`\))?"
_EXTRA_PINS = re.compile(
    r"The extra `(?P<extra>[^`]+)` (?P<how>now requires|now also requires|no longer requires) "
    rf"(?P<pins>{_PIN_ITEM}(?:, {_PIN_ITEM})*)\.?"
)
_EXTRA_PIN_KINDS = {
    "now requires": Kind.EXTRA_PIN,
    "now also requires": Kind.EXTRA_REQUIRES_NEW,
    "no longer requires": Kind.EXTRA_REQUIRES_GONE,
}


def _extra_pin_claims(sentence: str) -> list[Claim] | None:
    """An extra's requirements: `name` the extra, `new` the pin said, `old` the one it
    was (pinned anew) or the pin it drops (no longer requires)."""
    m = _EXTRA_PINS.fullmatch(sentence)
    if m is None:
        return None
    kind = _EXTRA_PIN_KINDS[m["how"]]
    out = []
    for item in re.finditer(r"`([^`]+)`(?: \(was `([^`]+)`\))?", m["pins"]):
        pin, was = item.group(1), item.group(2)
        if kind is Kind.EXTRA_REQUIRES_GONE:
            out.append(Claim(kind, m["extra"], sentence, None, pin, None))
        else:
            out.append(Claim(kind, m["extra"], sentence, None, was, pin))
    return out


# "`pip install p[e]` no longer installs `r`, `s` and `t` (pip only warns)": a claim for each
# requirement (`name` the extra, `old` the requirement, `new` the project)
_INSTALLS_GONE = re.compile(
    r"`pip install (?P<package>[^`\[\]\s]+)\[(?P<extra>[^`\]]+)\]` no longer installs"
    r" (?P<names>`[^`]+`(?:(?:,|,? and) `[^`]+`)*)(?: \(pip only warns\))?\.?"
)


def _packaging_claims(sentence: str) -> list[Claim] | None:
    """The claims of a sentence about packaging metadata; None for any other sentence. An
    extra's claim has `new` its requirements said (one a line), a command's or entry
    point's `new` its target said and `old` its group (entry points only)."""
    backend = _BACKEND.fullmatch(sentence)
    if backend:
        return [Claim(Kind.BACKEND, "build-backend", sentence, None, *backend.group("old", "new"))]
    if _ADVISORY.fullmatch(sentence):
        return [Claim(Kind.ADVISORY, "advisory", sentence)]
    needs = _BUILD_NEEDS.fullmatch(sentence)
    if needs:
        old, new = ("\n".join(_SPAN.findall(needs.group(g))) for g in ("old", "new"))
        return [Claim(Kind.BUILD_NEEDS, "build-system.requires", sentence, None, old, new)]
    pins = _extra_pin_claims(sentence)
    if pins is not None:
        return pins
    if gone := _INSTALLS_GONE.fullmatch(sentence):
        return [
            Claim(Kind.EXTRA_INSTALLS_GONE, gone["extra"], sentence, None, r, gone["package"])
            for r in _SPAN.findall(gone["names"])
        ]
    if grouped := _GROUPED.fullmatch(sentence):
        return [Claim(Kind.EXTRA_GROUPED, n, sentence) for n in _SPAN.findall(grouped["items"])]
    if published := _PUBLISHED.fullmatch(sentence):
        return [Claim(Kind.PUBLISHED_AS, published["new"], sentence, None, published["old"])]
    dev = _DEV.fullmatch(sentence)
    if dev:
        kind = Kind.DEV_REQUIREMENT_NEW if dev["verb"] == "Adds" else Kind.DEV_REQUIREMENT_GONE
        return [Claim(kind, name, sentence, dev["path"]) for name in _SPAN.findall(dev["items"])]
    m = _PACKAGING.fullmatch(sentence)
    if m is None or (m["group"] is not None) != m["what"].startswith("entry"):
        return None
    kind = _PACKAGING_KINDS[(m["verb"], m["what"].removesuffix("s"))]
    out = []
    for item in re.finditer(r"`([^`]+)`(?: \(((?:`[^`]+`(?:, )?)+)\))?", m["items"]):
        said = _SPAN.findall(item.group(2) or "")
        out.append(Claim(kind, item.group(1), sentence, None, m["group"], "\n".join(said) or None))
    return out


# "Internal only: [changes only the private `_a`, `_b`; ]no public name, signature or default
# changes in `p`, `q` [and N more].": a claim of the files (the first path its name, all
# those said in `new`, `was` set when more were not said), and one for each private name
_INTERNAL = re.compile(
    r"Internal only: (?:changes only the private (?P<names>`[^`]+`(?:, `[^`]+`)*)"
    r"(?: and \d+ more)?; )?no public name, signature or default changes in "
    r"(?P<paths>`[^`]+`(?:, `[^`]+`)*)(?P<more> and \d+ more)?\.?"
)


def _internal_claims(sentence: str) -> list[Claim] | None:
    m = _INTERNAL.fullmatch(sentence)
    if m is None:
        return None
    paths = _SPAN.findall(m["paths"])
    said = "\n".join(paths)
    more = "more" if m["more"] else None
    names = _SPAN.findall(m["names"] or "")
    return [Claim(Kind.INTERNAL, paths[0], sentence, None, None, said, more)] + [
        Claim(Kind.PRIVATE_ONLY, n, sentence, None, None, said, more) for n in names
    ]


# "No behaviour change: `p`, `q` [and N more] is/are the same code as before but for W[; other
# files not compared].": a claim of the files (the first path its name, all those
# said in `new`, `was` set when more were not said), the words W in `old`
_SAME_CODE = re.compile(
    r"No behaviour change: (?P<paths>`[^`]+`(?:, `[^`]+`)*)(?P<more> and \d+ more)? (?:is|are)"
    r" the same code as before but for (?P<said>.+?)(?:; other files not compared)?\."
)


def _kept_claims(sentence: str) -> list[Claim] | None:
    m = _SAME_CODE.fullmatch(sentence)
    if m is None:
        return None
    paths = _SPAN.findall(m["paths"])
    more = "more" if m["more"] else None
    return [Claim(Kind.SAME_CODE, paths[0], sentence, None, m["said"], "\n".join(paths), more)]


# A sentence that tells the state before the change ("Prior to 49b93c1, `_url_to_host()`
# modified `ssl_context` …", trio-websocket 65400cb's body): its verbs are history.
_FORMER_STATE = re.compile(r"(?:Prior to|Previously|Until now|Formerly)\b")


# "added `X` test(s)", "added an `X` test case": the name is what the test is about
_SUBJECT_OF_TEST = re.compile(r"\s*(?:an?\s+|the\s+)?`[^`]+`\s+(?:unit\s+)?tests?\b", re.IGNORECASE)


# "`a`, `b` and 2 more (added after 3.0.0b2, never released)", "`a` (before the first
# release, never released)": the names just before it were
# in no release; read, then taken out, before the text is cut in sentences (a tag's dots end
# none, and the clause's "added" is no verb of the entry's)
_UNRELEASED = re.compile(
    r"(?P<names>`[^`\n]+`(?:(?:, |,? and )`[^`\n]+`)*)(?P<more> and \d+ more)?"
    r" \((?:added after (?P<tag>[^\s,()]+)|before the first release), never released\)"
)


# "It ships 26 commits since `8.2.3`, 1 of them breaking or high: `8880763` “Drop support for
# EOL Python 3.7” (breaking)", "It ships the breaking commit `8880763` “Drop support for EOL
# Python 3.7” (since `8.2.3`)": what a release ships since a tag (its quotes optional), each
# commit named a claim; read, then taken out, before the text is cut in sentences (a tag's
# dots end none)
_SHIPPED_ITEM = r"`[0-9a-f]{7,40}` “[^”\n]*”(?: \(breaking\))?"
_SHIPS = re.compile(
    r"It ships (?P<count>\d+) commits? since (?P<q>`?)(?P<tag>[^\s,()`]+?)(?P=q)"
    rf"(?:, \d+ of them breaking or high: (?P<items>{_SHIPPED_ITEM}(?:, {_SHIPPED_ITEM})*)"
    r"(?: and \d+ more)?)?(?=\.(?:\s|$)|$)"
)
_SHIPS_BREAKING = re.compile(
    r"[Ii]t ships the breaking commit `(?P<sha>[0-9a-f]{7,40})` “(?P<title>[^”\n]*)”"
    r" \(since (?P<q>`?)(?P<tag>[^\s()`]+)(?P=q)\)"
)
_SHIPPED = re.compile(r"`(?P<sha>[0-9a-f]{7,40})` “(?P<title>[^”\n]*)”")


# "Releases 1.0.0 (the last release was 0.10.0)": the release the commit comes after; read,
# then taken out (its versions' dots end no sentence)
_LAST_RELEASE = re.compile(
    r"Releases (?P<version>[^\s()]+) \(the last release was (?P<q>`?)(?P<tag>[^\s()`]+)(?P=q)\)"
)


def _shipped_claims(text: str) -> tuple[list[Claim], str]:
    """The claims of what a release ships (`_SHIPS`, `_SHIPS_BREAKING`), and the text
    without those sentences."""
    claims: list[Claim] = []
    for m in _SHIPS.finditer(text):
        claims.append(Claim(Kind.SHIPS_COUNT, m["tag"], m.group(0), new=m["count"]))
        claims += [
            Claim(Kind.SHIPS_COMMIT, item["sha"], m.group(0), old=m["tag"], new=item["title"])
            for item in _SHIPPED.finditer(m["items"] or "")
        ]
    for m in _SHIPS_BREAKING.finditer(text):
        claims.append(Claim(Kind.SHIPS_COMMIT, m["sha"], m.group(0), old=m["tag"], new=m["title"]))
    for m in _LAST_RELEASE.finditer(text):
        claims.append(Claim(Kind.LAST_RELEASE, m["tag"], m.group(0), new=m["version"]))
    text = _LAST_RELEASE.sub("", _SHIPS_BREAKING.sub("", _SHIPS.sub("", text)))
    return claims, text


def _unreleased_claims(text: str) -> tuple[list[Claim], str]:
    """A "never released" claim for each name such a clause follows, and the text without
    the clause."""
    claims = [
        Claim(Kind.NEVER_RELEASED, name, m.group(0), old=m["tag"])
        for m in _UNRELEASED.finditer(text)
        for name in _SPAN.findall(m["names"])
    ]
    return claims, _UNRELEASED.sub(lambda m: m["names"] + (m["more"] or ""), text)


# "`f`, `g` and 2 more gain the parameter `p` before `q`" / "`f` now takes `p` before `q`":
# a positional parameter put before one the function kept, a claim for each function named
_BEFORE = re.compile(
    r"(?P<functions>`[^`]+`(?:(?:,|,? and) `[^`]+`)*)(?: and \d+ more)?"
    r" (?P<verb>gains? the parameter|now takes?) `(?P<new>[A-Za-z_]\w*)`"
    r" before `(?P<old>[A-Za-z_]\w*)`\.?"
)


def _before_claims(sentence: str) -> list[Claim] | None:
    """The claims of a sentence that says a parameter now stands before another; None for
    any other sentence."""
    m = _BEFORE.fullmatch(sentence)
    if m is None:
        return None
    kind = Kind.PARAM_BEFORE_NEW if m["verb"].startswith("gain") else Kind.PARAM_BEFORE
    return [
        Claim(kind, f, sentence, old=m["old"], new=m["new"]) for f in _SPAN.findall(m["functions"])
    ]


# "`C` gains the abstract `m`[, `n`]: subclasses must now define it/them" and "`S` now
# overrides `m`[, `n`] [and N more] of `B`": a claim for each member named
_ABSTRACT = re.compile(
    r"`(?P<owner>[A-Za-z_][\w.]*)` gains the abstract (?P<names>`[^`]+`(?:(?:,|,? and) `[^`]+`)*)"
    r"(?: and \d+ more)?: subclasses must now define (?:it|them)\.?"
)
_OVERRIDES = re.compile(
    r"`(?P<owner>[A-Za-z_][\w.]*)` now overrides (?P<names>`[^`]+`(?:(?:,|,? and) `[^`]+`)*)"
    r"(?: and \d+ more)? of `(?P<base>[A-Za-z_][\w.]*)`\.?"
)


# "`C` gains the field `f` (default `d`)", "… the fields `f` (default `d`), `g` (required)
# and 2 more": a claim for each field named, with its default where said
_SAID_FIELD = r"`[^`]+`(?: \((?:default `[^`]+`|required)\))?"
_FIELDS = re.compile(
    rf"`(?P<owner>[A-Za-z_][\w.]*)` gains the fields? (?P<fields>{_SAID_FIELD}"
    rf"(?:(?:,|,? and) {_SAID_FIELD})*)(?: and \d+ more)?\.?"
)
_FIELD = re.compile(r"`(?P<name>[^`]+)`(?: \((?:default `(?P<default>[^`]+)`|required)\))?")


def _class_claims(sentence: str) -> list[Claim] | None:
    """The claims of a sentence of a class's new abstract members, overrides or fields;
    None for any other sentence."""
    if m := _FIELDS.fullmatch(sentence):
        return [
            Claim(Kind.FIELD_NEW, f"{m['owner']}.{f['name']}", sentence, new=f["default"])
            for f in _FIELD.finditer(m["fields"])
        ]
    if m := _ABSTRACT.fullmatch(sentence):
        kind, base = Kind.ABSTRACT_NEW, None
    elif m := _OVERRIDES.fullmatch(sentence):
        kind, base = Kind.OVERRIDES, m["base"]
    else:
        return None
    return [
        Claim(kind, f"{m['owner']}.{name}", sentence, old=base)
        for name in _SPAN.findall(m["names"])
    ]


# "Fixes code added after `v3.15.1` (never released): users of releases were not affected."
_FIXES_UNRELEASED = re.compile(
    r"Fixes code added after `(?P<tag>[^`\s]+)` \(never released\):"
    r" users of releases were not affected\.?"
)


def _fix_claims(sentence: str) -> list[Claim] | None:
    m = _FIXES_UNRELEASED.fullmatch(sentence)
    return None if m is None else [Claim(Kind.FIXES_UNRELEASED, m["tag"], sentence, old=m["tag"])]


# "`p` still reads `N` (line 5), which this commit removes: a `NameError` where it runs";
# "`f` calls `g` without its required `a`[, `b`]: a `TypeError` where it runs"; "`f` passes
# `g` the keyword `k`, which it does not take: a `TypeError` where it runs"
_STILL_READS = re.compile(
    r"`(?P<path>[^`]+)` still reads `(?P<name>[A-Za-z_]\w*)` \(line (?P<line>\d+)\), which"
    r" this commit removes: a `NameError` where it runs\.?"
)
_STILL_IMPORTS = re.compile(
    r"`(?P<path>[^`]+)` still imports `(?P<name>[A-Za-z_]\w*)` from `(?P<source>[^`]+)`"
    r" \(line (?P<line>\d+)\), which this commit removes: an `ImportError` where it runs\.?"
)
# "Setting `m.N` no longer has any effect: no shipped code reads it": `wording._ignored`
_SETTING_IGNORED = re.compile(
    r"Setting `(?P<module>[A-Za-z_][\w.]*)\.(?P<name>[A-Za-z_]\w*)` no longer has any effect:"
    r" no shipped code reads it\.?"
)
_CALL_SHORT = re.compile(
    r"`(?P<caller>[A-Za-z_][\w.]*)` calls `(?P<callee>[A-Za-z_]\w*)` without its required"
    r" (?P<names>`[^`]+`(?:(?:,|,? and) `[^`]+`)*)(?: and \d+ more)?:"
    r" a `TypeError` where it runs\.?"
)
_CALL_UNKNOWN = re.compile(
    r"`(?P<caller>[A-Za-z_][\w.]*)` passes `(?P<callee>[A-Za-z_]\w*)` the keyword"
    r" `(?P<keyword>[A-Za-z_]\w*)`, which it does not take: a `TypeError` where it runs\.?"
)


_TESTS_REWRITE = re.compile(
    r"Its tests now write `(?P<new>[^`]+)` where they wrote `(?P<old>[^`]+)` \(`(?P<path>[^`]+)`\)"
    r"(?:, and (?P<more>\d+) more alike)?\.?"
)


_FORWARDS = re.compile(
    r"`(?P<function>[A-Za-z_][\w.]*)` no longer takes (?P<names>`[^`]+`(?:(?:,|,? and) `[^`]+`)*)"
    r" itself: it now passes (?:it|them) on to `(?P<callee>[^`]+)\(\.\.\.\)`\.?"
)


# "[When `t` (by default `d`),] `f` now sets `a`, `b` and 2 more to `g`, which raises `E` with
# “m”": the callbacks a function hands an object (`wording._handed_raising`)
_SETS_RAISING = re.compile(
    r"(?:When `(?P<test>[^`]+)`(?: \(by default `(?P<default>[^`]+)`\))?, )?"
    r"`(?P<function>[A-Za-z_][\w.]*)` now sets (?P<targets>`[^`]+`(?:(?:,|,? and) `[^`]+`)*)"
    r"(?: and \d+ more)? to `(?P<closure>[A-Za-z_]\w*)`, which raises `(?P<exception>[^`]+)`"
    r" with “(?P<message>[^”]+)”\.?"
)
# what joins the exception, message, test and default a `SETS_RAISING` claim holds in `was`
SETS_SEP = "\x1f"


def _sets_claims(sentence: str) -> list[Claim] | None:
    """ "[When `t` (by default `d`),] `f` now sets `a`[, `b`] to `g`, which raises `E` with
    “m”": one claim for each attribute named (`old` it, `new` the closure, `was` the
    exception, message, test and default joined by `SETS_SEP`); None for any other sentence."""
    if m := _SETS_RAISING.fullmatch(sentence):
        said = SETS_SEP.join((m["exception"], m["message"], m["test"] or "", m["default"] or ""))
        return [
            Claim(Kind.SETS_RAISING, m["function"], sentence, old=t, new=m["closure"], was=said)
            for t in _SPAN.findall(m["targets"])
        ]
    return None


# "`f` now raises `E("m")`[, or with N other messages][, when `t`[ holds, as it does by
# default]]": a raise `f` now reaches (`phrases.raises_reached`); a class and its message
# in one code span, the message's `"` and `\\` escaped
_REACHED = re.compile(
    r"`(?P<function>[A-Za-z_][\w.]*)` now raises `(?P<raised>[^`]+)`"
    r"(?:, or with \d+ other messages?)?"
    r"(?:, when `(?P<test>[^`]+)`(?P<default> holds, as it does by default)?)?\.?"
)
_RAISED = re.compile(r'(?P<exception>[A-Za-z_][\w.]*)(?:\("(?P<message>(?:[^"\\]|\\.)*)"\))?')
# "`f` now raises `N` (was `O`)[ from `h`][, when `t`]"
_RETYPED = re.compile(
    r"`(?P<function>[A-Za-z_][\w.]*)` now raises `(?P<new>[A-Za-z_][\w.]*)`"
    r" \(was `(?P<old>[A-Za-z_][\w.]*)`\)(?: from `(?P<holder>[^`]+)`)?"
    r"(?:, when `(?P<test>[^`]+)`)?\.?"
)
_NO_SUBCLASS = re.compile(
    r"Code that wraps `(?P<function>[A-Za-z_][\w.]*)` in `except (?P<caught>[^`]+)` now lets it"
    r" through: `(?P<new>[^`]+)` is no subclass of `(?P<old>[^`]+)`\.?"
)
_METADATA = re.compile(
    r"Reading (?P<names>`[^`]+`(?:(?:,| and) `[^`]+`)*)(?: and \d+ more)? now raises"
    r" `AttributeError`\.?"
)
_KEPT = re.compile(
    r".*?\bthe code removes no public name from the modules it ships"
    r"(?: and the Python requirement is unchanged \(`(?P<python>[^`]+)`\))?\.?"
)
# after a reached raise, what raises it: "`h` raises it.", "The hooks it sets raise it (`a`,
# `b` and N more).", "At the parent `a`, `b` raised nothing: input `f` accepted with its
# defaults may now fail."
_HOLDER = re.compile(r"`(?P<holder>[A-Za-z_][\w.]*)` raises it\.?")
_HOOKS = re.compile(
    r"The hooks it sets raise it \((?P<names>`[^`]+`(?:(?:,| and) `[^`]+`)*)(?: and \d+ more)?\)\.?"
)
_QUIET = re.compile(
    r"At the parent (?P<names>`[^`]+`(?:(?:,| and) `[^`]+`)*)(?: and \d+ more)? raised"
    r" nothing: input `(?P<function>[A-Za-z_][\w.]*)` accepted with its defaults may now fail\.?"
)
# what joins the parts a reached raise's claim holds in `was`
REACH_SEP = "\x1f"


def _reach_claims(sentence: str) -> list[Claim] | None:
    """The claims of a raise a function now reaches, a raise's class changed, a class that
    is no subclass of another, module metadata gone, or a title's break the code does not
    show; None for any other sentence."""
    if (m := _REACHED.fullmatch(sentence)) and (r := _RAISED.fullmatch(m["raised"])):
        message = r["message"]
        if message is not None:
            message = re.sub(r"\\(.)", r"\1", message)
        said = REACH_SEP.join((m["test"] or "", "default" if m["default"] else ""))
        return [
            Claim(
                Kind.RAISES_REACHED,
                m["function"],
                sentence,
                old=r["exception"],
                new=message,
                was=said,
            )
        ]
    if m := _RETYPED.fullmatch(sentence):
        said = REACH_SEP.join((m["holder"] or "", m["test"] or ""))
        return [
            Claim(
                Kind.RAISES_RETYPED, m["function"], sentence, old=m["old"], new=m["new"], was=said
            )
        ]
    if m := _NO_SUBCLASS.fullmatch(sentence):
        return [Claim(Kind.NOT_SUBCLASS, m["function"], sentence, old=m["old"], new=m["new"])]
    if m := _METADATA.fullmatch(sentence):
        return [Claim(Kind.METADATA_GONE, n, sentence) for n in _SPAN.findall(m["names"])]
    if m := _KEPT.fullmatch(sentence):
        kept = [Claim(Kind.NO_NAME_REMOVED, "public names", sentence)]
        if m["python"]:
            kept.append(Claim(Kind.PYTHON_KEPT, m["python"], sentence))
        return kept
    return None


def _raiser_claims(sentence: str, raised: Claim | None) -> list[Claim] | None:
    """The sentences that follow a reached raise (`raised`, the claim of the sentence
    before) and say what raises it; None for any other sentence, or with no such claim."""
    if raised is None:
        return None
    said = REACH_SEP.join((raised.old or "", raised.new or ""))
    if m := _HOLDER.fullmatch(sentence):
        return [Claim(Kind.HOLDER_RAISES, raised.name, sentence, old=m["holder"], was=said)]
    if m := _HOOKS.fullmatch(sentence):
        return [
            Claim(Kind.HOOK_RAISES, raised.name, sentence, old=hook, was=said)
            for hook in _SPAN.findall(m["names"])
        ]
    if (m := _QUIET.fullmatch(sentence)) and m["function"] == raised.name:
        return [
            Claim(Kind.HOOK_QUIET, raised.name, sentence, old=hook)
            for hook in _SPAN.findall(m["names"])
        ]
    return None


def _forward_claims(sentence: str) -> list[Claim] | None:
    """ "`f` no longer takes `x`[, `y`] itself: it now passes it/them on to `c(...)`": one
    claim for each option; None for any other sentence."""
    if m := _FORWARDS.fullmatch(sentence):
        return [
            Claim(Kind.FORWARDS, m["function"], sentence, old=name, new=m["callee"])
            for name in _SPAN.findall(m["names"])
        ]
    return None


def _rewrite_claims(sentence: str) -> list[Claim] | None:
    """ "Its tests now write `B` where they wrote `A` (`p`)[, and N more alike]": one claim
    (`was` holds N); None for any other sentence."""
    if m := _TESTS_REWRITE.fullmatch(sentence):
        return [
            Claim(
                Kind.TESTS_REWRITE,
                m["old"],
                sentence,
                path=m["path"],
                old=m["old"],
                new=m["new"],
                was=m["more"] or "0",
            )
        ]
    return None


def _defect_claims(sentence: str) -> list[Claim] | None:
    """The claims of a sentence of a removed name still read, a setting no code reads or a
    call short of an argument; None for any other sentence."""
    if m := _STILL_READS.fullmatch(sentence):
        return [Claim(Kind.STILL_READS, m["name"], sentence, path=m["path"], new=m["line"])]
    if m := _SETTING_IGNORED.fullmatch(sentence):
        return [Claim(Kind.SETTING_IGNORED, m["name"], sentence, path=m["module"])]
    if m := _STILL_IMPORTS.fullmatch(sentence):
        return [
            Claim(
                Kind.IMPORTS_GONE,
                m["name"],
                sentence,
                path=m["path"],
                old=m["source"],
                new=m["line"],
            )
        ]
    if m := _CALL_SHORT.fullmatch(sentence):
        return [
            Claim(Kind.CALL_SHORT, m["caller"], sentence, old=m["callee"], new=name)
            for name in _SPAN.findall(m["names"])
        ]
    if m := _CALL_UNKNOWN.fullmatch(sentence):
        return [Claim(Kind.CALL_UNKNOWN, m["caller"], sentence, old=m["callee"], new=m["keyword"])]
    return None


def claims_in(text: str) -> tuple[list[Claim], list[str]]:
    """The claims of a text, and the code-span names that no verb governs."""
    claims, text = _unreleased_claims(text)
    shipped, text = _shipped_claims(text)
    claims += shipped
    loose: list[str] = []
    # the last raise a function now reaches: what the sentences after it say raises it
    raised: Claim | None = None
    for whole in sentences(text):
        if _FORMER_STATE.match(whole):
            # the code before the change, in the author's words: no claim of the change's
            loose += _SPAN.findall(whole)
            continue
        shaped = _fix_claims(whole)
        shaped = _before_claims(whole) if shaped is None else shaped
        shaped = _defect_claims(whole) if shaped is None else shaped
        shaped = _rewrite_claims(whole) if shaped is None else shaped
        shaped = _forward_claims(whole) if shaped is None else shaped
        shaped = _sets_claims(whole) if shaped is None else shaped
        shaped = _reach_claims(whole) if shaped is None else shaped
        shaped = _raiser_claims(whole, raised) if shaped is None else shaped
        if shaped and shaped[0].kind is Kind.RAISES_REACHED:
            raised = shaped[0]
        shaped = _class_claims(whole) if shaped is None else shaped
        shaped = _packaging_claims(whole) if shaped is None else shaped
        shaped = _internal_claims(whole) if shaped is None else shaped
        shaped = _kept_claims(whole) if shaped is None else shaped
        shaped = _release_claims(whole) if shaped is None else shaped
        shaped = _shaped(whole) if shaped is None else shaped
        if shaped is not None:
            claims += shaped
            continue
        # a table's clause is read whole, then left out ("drops" is no removal there)
        claims += _table_claims(whole)
        sentence = _TABLE.sub(lambda m: " " * len(m.group(0)), whole)
        # a verb inside a quotation (a reverted title, a message) is not the entry's own
        # nor one inside a code span (`padded_len`)
        masked = _QUOTE.sub(lambda m: "“" + " " * len(m.group(1)) + "”", sentence)
        masked = _SPAN.sub(lambda m: "`" + " " * len(m.group(1)) + "`", masked)
        verbs = list(_VERB.finditer(masked))
        head = sentence[: verbs[0].start()] if verbs else sentence
        # "`f` no longer takes …": the names before the verb are its subject
        subject = bool(verbs) and _kind_of(verbs[0]) in _SUBJECT_KINDS
        if not subject:
            loose += [m.group(1) for m in _SPAN.finditer(head)]
        for i, verb in enumerate(verbs):
            end = verbs[i + 1].start() if i + 1 < len(verbs) else len(sentence)
            # "requires `x` (was `y`)": the old pin is not a requirement
            segment = re.sub(r"\(was `[^`]*`\)", "", sentence[verb.end() : end])
            kind = _kind_of(verb)
            which = _WHICH_RAISES.search(segment) if kind is Kind.CALLS else None
            if which is not None:
                # "`f` now calls `g`, which raises `E` when `t`": `g`'s own guard, said of
                # the one callee named before it
                called = _SPAN.findall(segment[: which.start()])
                if len(called) == 1:
                    jump = "raise " + which["exception"]
                    claims.append(
                        Claim(Kind.CALLEE_RAISES, called[0], sentence, None, jump, which["test"])
                    )
                    segment = segment[: which.start()]
            told = _WHOSE_DOCSTRING.search(segment) if kind is Kind.CALLS else None
            if told is not None:
                # "`f` now calls `_g`, whose docstring says: “s”": `_g`'s docstring, said of
                # the one callee named before it (the words as written, no "(was …)" cut)
                called = _SPAN.findall(segment[: told.start()])
                words = _WHOSE_DOCSTRING.search(sentence[verb.end() : end])
                if len(called) == 1 and words is not None:
                    claims.append(Claim(Kind.DOCUMENTED, called[0], sentence, new=words["text"]))
                    segment = segment[: told.start()]
            if kind in _CONDITION_KINDS:
                # the "(was `…`)" is the claim's own here: read from the words as written
                found, left = _condition_claims(
                    kind,
                    verb.group(0),
                    head if subject and not i else "",
                    sentence[verb.end() : end],
                    sentence,
                )
            elif kind in _PASSES_KINDS:
                found, left = _passes_claims(
                    kind, head if subject and not i else "", sentence[verb.end() : end], sentence
                )
            elif kind in _PARAMETER_KINDS:
                found, left = _parameter_claims(kind, head if subject else "", segment, sentence)
            elif kind in _SUBJECT_KINDS:
                found, left = _body_claims(
                    kind, verb.group(0), head if subject and not i else "", segment, sentence
                )
            elif kind in _ARGUMENT_KINDS and (given := _ARGUMENTS_TO.match(segment)):
                # the author's "Added the `x` and `y` arguments to `F()`": parameters `F`
                # gains, not names of their own (apscheduler c2dc651, aiohttp bc3b5cf);
                # "Changed the `x` argument to `F()` into …": `F` is what changed
                function = given["f"].removesuffix("()")
                found = (
                    [Claim(Kind.CHANGES, function, sentence)]
                    if kind is Kind.CHANGES
                    else [
                        Claim(_ARGUMENT_KINDS[kind], function, sentence, old=param)
                        for param in _SPAN.findall(given["params"])
                    ]
                )
                left = _SPAN.findall(segment[given.end() :])
            elif kind is Kind.ADDS and _SUBJECT_OF_TEST.match(segment):
                # the author's "added `AndTrigger` test": a test of `X`, not `X` (apscheduler
                # 4c3effd)
                found, left = [], _SPAN.findall(segment)
            else:
                found, left = _segment_claims(kind, segment, sentence)
                if kind is Kind.REQUIRES:
                    found = _pins_with_was(found, sentence[verb.end() : end])
            claims += found
            loose += left
    return claims, loose


def _pins_with_was(found: list[Claim], words: str) -> list[Claim]:
    """ "requires `x` (was `y`)": each pin's claim with the old pin said after it (`was`)."""
    was = {m[1]: m[2] for m in re.finditer(r"`([^`]+)` \(was `([^`]+)`\)", words)}
    return [dataclasses.replace(c, was=was[c.name]) if c.name in was else c for c in found]
