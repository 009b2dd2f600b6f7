"""Changes proven internal: no public surface touched, and no fix or behaviour claimed."""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass

from bot.analysis.facts import CAP, Facts, Name
from bot.analysis.facts.pyfile import PARSE_ERRORS
from bot.analysis.facts.surface import private_name, surface_kept
from bot.analysis.paths import (
    Language,
    PathKind,
    dev_tooling,
    language_of,
    path_kind,
    private_module,
)
from bot.analysis.phrases import AnalysisPhrases, sentence
from bot.analysis.signals import Signals
from bot.analysis.wording import STYLE_WORDS, codes, same_shipped_code
from bot.models import ChangeType, CommitInput

T = ChangeType

# The author's words for work on the insides: the clear case the facts must still prove.
_INTERNAL_WORDS = re.compile(
    r"\b(refactor\w*|clean\s?up\w*|internal\w*|private|typing|type (?:hints?|annotations?)"
    r"|annotat\w+|mypy|pyright|mov(?:e|es|ed|ing)|renam\w+|extract\w*|split\w*|simplif\w+"
    r"|reorder\w*|reorgani[sz]\w*|restructur\w*|dedup\w*|deduplicat\w*|tidy|moderni[sz]\w*"
    # "Remove repetition", "Naming" (tomli f8adf9c, b5c4a19)
    r"|repetiti\w*|naming"
    r"|lint\w*|ruff|pre-commit|dead code|unused|useless|needless|unnecessary"
    r"|superfluous|obsolete|leftover|consolidat\w*|coverage|inline\w*"
    # a Python 2 shim taken out (xmltodict ec7d5b6 "Get rid of Python 2 basestring and
    # unicode"): the surface kept, checked below, proves no Python 3 caller meets it
    r"|python\s?2(?:\.\d+)?|py2\w*)\b",
    re.IGNORECASE,
)
# The author's words for code moved between modules
_MOVE_WORDS = re.compile(r"\b(?:mov(?:e|es|ed|ing)|split\w*|extract\w*)\b", re.IGNORECASE)
# The author's words for what users meet: a warning, an error, an output, a default.
_BEHAVIOUR_WORDS = re.compile(
    r"\b(warn\w*|errors?|raises?|exceptions?|behaviou?r\w*|defaults?|outputs?|messages?"
    r"|inject\w*)\b",
    re.IGNORECASE,
)
# A linter named as the change's source ("Apply ruff/Perflint rule PERF402"), and the
# words that would still claim a speed-up beside it
_LINTER_RULE = re.compile(r"\b(ruff|\w*lint|flake8|pylint)\b", re.IGNORECASE)
_SPEED_WORDS = re.compile(r"\b(fast\w*|speed\w*|slow\w*|quick\w*|performance|perf)\b", re.I)
# Types that claim what users meet: a fix, a feature, a speed-up, a removal, a new setting.
_CLAIMED = frozenset(
    {T.BUGFIX, T.PERFORMANCE, T.SECURITY, T.DEPRECATION, T.REVERT, T.CONFIG, T.BUILD}
)
# News fragments that are about the project's own workings, not its users'.
_INTERNAL_FRAGMENTS = frozenset({"contrib", "misc", "internal", "trivial"})
_QUIET = frozenset({PathKind.TESTS, PathKind.CI, PathKind.LEGAL})


@dataclass(frozen=True)
class Internal:
    """The shipped files the change edits whose public surface is the same to the letter
    (a private module that gains names left out), and the definitions it edits there when
    every one is private and every file is said (else empty)."""

    paths: tuple[str, ...]
    private: tuple[str, ...] = ()


def _quiet(commit: CommitInput, sig: Signals, path: str) -> bool:
    """A changed file no user meets: tests, CI, the licence, dev tooling, or a news
    fragment of a contributors' kind."""
    if path_kind(path) in _QUIET:
        return True
    if any(
        f.path == path and f.meaning is None and f.type in _INTERNAL_FRAGMENTS
        for f in sig.fragments
    ):
        return True
    return any(f.filename == path and dev_tooling(f) for f in commit.files)


def _sides(commit: CommitInput, shipped: tuple[str, ...]) -> list[tuple[str, str, str]]:
    """The shipped Python files read whole: path, text at the parent, text at the commit. A
    public module's new path is a new import for its callers: such a file is left out."""
    return [
        (f.filename, *f.sides)
        for f in commit.files
        if f.filename in shipped
        and f.sides is not None
        and language_of(f.filename) is Language.PYTHON
        and (f.previous_filename is None or private_module(f.previous_filename))
    ]


def _definitions(text: str) -> set[str] | None:
    """The qualified names of the functions and classes a Python file defines, or None
    where it does not parse."""
    try:
        tree = ast.parse(text)
    except PARSE_ERRORS:
        return None
    names: set[str] = set()

    def walk(node: ast.AST, prefix: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                names.add(prefix + child.name)
                walk(child, f"{prefix}{child.name}.")
            else:
                walk(child, prefix)

    walk(tree, "")
    return names


def _tests_restyled(commit: CommitInput, sig: Signals) -> bool:
    """Under a linter's or formatter's title, every test file that loses lines is Python
    read whole at both revisions defining the same tests: its lost lines are the linter's
    rewrites, not a test checking another behaviour."""
    if not STYLE_WORDS.search(sig.title.text):
        return False
    for f in commit.files:
        if path_kind(f.filename) is not PathKind.TESTS or not f.deletions:
            continue
        if f.sides is None or language_of(f.filename) is not Language.PYTHON:
            return False
        before, after = (_definitions(text) for text in f.sides)
        if before is None or before != after:
            return False
    return True


def _edited(facts: Facts, paths: tuple[str, ...]) -> list[Name]:
    names = [*facts.changed, *facts.added, *facts.removed]
    for pair in (*facts.renamed, *facts.moved):
        names += [pair.old, pair.new]
    return [n for n in names if n.path in paths]


def internal_only(
    commit: CommitInput, sig: Signals, types: list[ChangeType], *, said_breaking: bool
) -> Internal | None:
    """The change proven internal, or None. Proven: every shipped file it changes is Python
    read whole at both revisions with the same public surface (`facts/surface.py`), every
    other file is a test (none losing lines), CI, tooling or a contributors' news fragment,
    and no setting, requirement, packaging entry, registration or deprecation changes. Not
    claimed otherwise: the author's words say no fix, speed-up, removal or breaking change,
    no severe symptom, no warning, error, output or default, and do say work on the insides
    (a refactor, typing, a move, a clean-up)."""
    facts = sig.facts
    shipped = tuple(sig.source_files)
    if not commit.files_known or not shipped or said_breaking:
        return None
    restyled = _tests_restyled(commit, sig)
    if not restyled and any(
        path_kind(f.filename) is PathKind.TESTS and f.deletions for f in commit.files
    ):
        # a test that loses lines may check another behaviour now
        return None
    if not all(f.filename in shipped or _quiet(commit, sig, f.filename) for f in commit.files):
        return None
    if any(
        (
            facts.flags_added,
            facts.flags_removed,
            facts.env_added,
            facts.env_removed,
            facts.config_keys_added,
            facts.config_keys_removed,
            facts.defaults_changed,
            facts.requirements,
            facts.extras_added,
            facts.extras_removed,
            facts.extras_changed,
            facts.entry_points_added,
            facts.entry_points_removed,
            facts.backend_changed,
            facts.deprecations,
            facts.registered,
            facts.unregistered,
            facts.exports_added,
            facts.exports_removed,
            sig.severity,
            sig.advisories,
            sig.by_default,
            sig.release,
        )
    ):
        return None
    # a linter's "fix" of its own "errors" claims no behaviour (pytest-mock f41d272 "Fix/ignore
    # new ruff errors"): the same public surface at both revisions, checked below, is the proof
    # (only where the shipped code parses the same: a line a linter moved out of its block
    # changes what runs, "[CuTe] Fix lint failure")
    quiet = restyled and same_shipped_code(commit, sig, typing=True, imports=True)
    claimed = _CLAIMED - {T.BUGFIX} if quiet else _CLAIMED
    if _LINTER_RULE.search(sig.title.text) and not _SPEED_WORDS.search(sig.title.text):
        # a linter's performance rule applied (python-tabulate 3a8c941 "Apply ruff/Perflint
        # rule PERF402") claims no speed-up users meet: the kept surface is the proof
        claimed = claimed - {T.PERFORMANCE}
    if claimed.intersection(types) or any(f.meaning for f in sig.fragments):
        return None
    if not quiet and _BEHAVIOUR_WORDS.search(sig.title.text):
        return None
    # the author's words, not a name they quote (cattrs e1ad8cd "Support
    # `annotationlib.ForwardRef`" is no work on annotations)
    words = re.sub(r"`[^`]*`", "", sig.title.text)
    said = T.REFACTOR in types or bool(_INTERNAL_WORDS.search(words))
    if not said or (T.FEATURE in types and not _INTERNAL_WORDS.search(words)):
        return None
    # last: it parses both revisions of every shipped file again
    # code moved into private modules ("split inline parser modules") gives them new names
    # no caller imports
    moves = bool(_MOVE_WORDS.search(words))
    sides = _sides(commit, shipped)
    if not set(shipped) <= set(surface_kept(sides, private_gains=moves)):
        return None
    # a name the private modules gain is a name their own importers can now reach (mistune
    # 30ef44b's `build_link_token` in `_inline/links.py`): those files are not said to keep
    # their public names; the files kept to the letter are the ones the sentence names
    strict = surface_kept(sides) if moves else shipped
    named = tuple(p for p in shipped if p in strict)
    edited = _edited(facts, shipped)
    # a list at its bound may have left out a public definition the change edits
    whole = all(
        len(names) < CAP
        for names in (facts.changed, facts.added, facts.removed, facts.renamed, facts.moved)
    )
    private = whole and named == shipped and all(private_name(n.name) for n in edited)
    return Internal(named, tuple(dict.fromkeys(n.name for n in edited)) if private else ())


def internal_sentence(found: Internal, p: AnalysisPhrases, limit: int) -> str:
    """What the change is, said as the fact it is: no public name, signature or default
    changes in its files, and the private definitions it edits where those are all; the
    longest of these that fits in `limit` characters; none where no file keeps its public
    names to the letter."""
    if not found.paths:
        return ""
    said = [
        p.internal_kept.format(paths=codes(p, found.paths, limit=2)),
        p.internal_kept.format(paths=codes(p, found.paths, limit=1)),
    ]
    if found.private:
        said.insert(
            0,
            p.internal_private.format(
                names=codes(p, found.private), paths=codes(p, found.paths, limit=2)
            ),
        )
    return next((s for s in map(lambda c: sentence(p, c), said) if len(s) <= limit), "")
