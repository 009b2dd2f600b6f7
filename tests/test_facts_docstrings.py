"""What a new definition does, in the first sentence of its own docstring: pluggy 53eeddf5's
public `PluginManager.list_plugin_distributions`, yarl ff455c44's `URL.__sub__`, the private
helper yarl 2f3bfecb's fixed functions now call; never a docstring that repeats the name, the
title or the summary (yarl 55967c22's `split_url`, structlog's `.. versionadded::`, structlog
0eef50d9's description). Each a clone shaped like the commit, every sentence checked against
it, and false versions the checker refutes."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from bot.analysis.facts import read_facts
from bot.analysis.facts.docstrings import documented, says_more
from bot.analysis.facts.pyfile import read_units, table
from bot.cli.claim_check import Verdict
from bot.cli.claims import Kind, claims_in
from bot.cli.claims_eval import entry_claims, entry_text
from bot.models import fit_sentences
from tests.clones import checked_entry, second_commit, verdicts_of

pytestmark = pytest.mark.usefixtures("environ_clean", "keep_test_logging")

MANAGER = '''"""Plugin manager."""


class PluginManager:
    """Core class which manages registration of plugin objects and 1:N hook calling."""

    def load_setuptools_entrypoints(self, group: str, name: str | None = None) -> int:
        """Load modules from querying the specified setuptools ``group``."""
        count = 0
        for dist in list(importlib.metadata.distributions()):
            for ep in dist.entry_points:
                if ep.group != group or (name is not None and ep.name != name):
                    continue
                plugin = ep.load()
                self.register(plugin, name=ep.name)
{loaded}
                count += 1
        return count

    def list_plugin_distinfo(self) -> list[tuple[object, object]]:
        """Return a list of (plugin, distinfo) pairs for all
        setuptools-registered plugins."""
        return [(plugin, DistFacade(dist)) for plugin, dist in self._plugin_dists]
{added}'''
DISTRIBUTIONS = '''
    def list_plugin_distributions(self) -> list[tuple[object, object]]:
        """Return a list of (plugin, distribution) pairs for all plugins loaded via
        entry points.

        This is the modern replacement for :meth:`list_plugin_distinfo`.
        """
        return list(self._plugin_dists)
'''
LOADED_BEFORE = "                self._plugin_distinfo.append((plugin, DistFacade(dist)))"
LOADED_AFTER = """                # the distribution itself: `DistFacade` wraps it where asked
                if dist not in self._dists:
                    self._dists.append(dist)
                self._plugin_dists.append((plugin, dist))"""


TESTS = """from pluggy import PluginManager


def test_distinfo(pm: PluginManager) -> None:
    assert pm.list_plugin_distinfo() == []
{added}"""
NEW_TEST = """

def test_distributions(pm: PluginManager) -> None:
    assert pm.list_plugin_distributions() == []
"""


def _manager(added: str) -> dict[str, str | None]:
    return {
        "src/pluggy/_manager.py": MANAGER.format(
            added=added, loaded=LOADED_AFTER if added else LOADED_BEFORE
        ),
        "testing/test_pluginmanager.py": TESTS.format(added=NEW_TEST if added else ""),
    }


def test_a_new_public_method_is_said_in_its_docstrings_words_and_proven(tmp_path: Path) -> None:
    analysis, verdicts = checked_entry(
        tmp_path,
        _manager(""),
        _manager(DISTRIBUTIONS),
        "Add list_plugin_distributions() for direct importlib.metadata access",
    )
    text = entry_text(analysis)
    # the first sentence, its lines joined, the rest of the docstring left out
    assert (
        "`PluginManager.list_plugin_distributions`, per its docstring: “Return a list of "
        "(plugin, distribution) pairs for all plugins loaded via entry points.”" in text
    )
    assert "modern replacement" not in text
    assert Kind.DOCUMENTED in {c.kind for c in entry_claims(analysis)[0]}
    assert verdicts and all(v is Verdict.TRUE for v in verdicts)


def test_the_checker_refutes_words_no_docstring_of_the_name_opens_with(tmp_path: Path) -> None:
    root, commit = second_commit(
        tmp_path, _manager(""), _manager(DISTRIBUTIONS), "Add list_plugin_distributions()"
    )
    name = "`PluginManager.list_plugin_distributions`, per its docstring:"
    cases = {
        f"{name} “Return a list of (plugin, distribution) pairs for all plugins loaded "
        "via entry points.”": Verdict.TRUE,
        # a cut sentence: what it shows opens the docstring
        f"{name} “Return a list of (plugin, distribution) pairs for all…”": Verdict.TRUE,
        f"{name} “Return a list of plugins.”": Verdict.FALSE,
        # words that open a later paragraph of it: what it says, if not first
        f"{name} “This is the modern replacement for :meth:`list_plugin_distinfo`.”": (
            Verdict.TRUE
        ),
        # words inside a paragraph that do not open it
        f"{name} “Pairs for all plugins loaded via entry points.”": Verdict.FALSE,
        f"{name} “The modern replacement for :meth:`list_plugin_distinfo`.”": Verdict.FALSE,
        # another definition's docstring
        "`PluginManager.list_plugin_distinfo`, per its docstring: “Return a list of "
        "(plugin, distribution) pairs for all plugins loaded via entry points.”": Verdict.FALSE,
        "`PluginManager.missing`, per its docstring: “Return a list.”": Verdict.FALSE,
    }
    for sentence, verdict in cases.items():
        assert verdicts_of(root, commit.sha, sentence) == [(Kind.DOCUMENTED, verdict)], sentence


URL = '''"""URL."""

from urllib.parse import SplitResult, scheme_chars

_SCHEME_CHARS = frozenset(scheme_chars)
{helper}

def encode_url(url_str: str) -> "URL":
    """Parse unencoded URL."""
    scheme, netloc, path, query, fragment = split_url(url_str)
    if path:
        path = PATH_REQUOTER(path)
        if netloc and "." in path:
            path = normalize_path(path)
{fix}
    return URL._from_parts(scheme, netloc, path, query, fragment)


class URL:
    """A URL."""

    def human_repr(self) -> str:
        """Return decoded human readable string for URL representation."""
        path = human_quote(self.path, "#?")
        return unsplit_result(self._scheme, self._netloc, path, "", "")
{sub}'''
HELPER = '''

def _encode_relative_scheme_colon(path: str) -> str:
    """Re-encode a scheme-shaped leading ``:`` in a relative path to ``%3A``."""
    colon_pos = path.find(":")
    if colon_pos <= 0:
        return path
    return path[:colon_pos] + "%3A" + path[colon_pos + 1 :]
'''
FIX = """        elif not scheme and not netloc:
            path = _encode_relative_scheme_colon(path)"""
SUB = '''
    def __sub__(self, other: object) -> "URL":
        """Return a new URL with a relative path between two other URL objects.

        Note that both URLs must have the same scheme and netloc.
        The new relative URL has only path:
        scheme, user, password, host, port, query and fragment are removed.
        """

        if type(other) is not URL:
            return NotImplemented

        target = self._val
        base = other._val

        if target.scheme != base.scheme:
            raise ValueError("Both URLs should have the same scheme")
        if target.netloc != base.netloc:
            raise ValueError("Both URLs should have the same netloc")

        path = calculate_relative_path(target.path, base.path)
        return self._from_tup(("", "", path, "", ""))
'''


FRAGMENT = """Fixed a parser/serializer inconsistency where percent-encoded characters in
the scheme portion of a URL (e.g. ``ht%74p://...``) were decoded by the
requoter, causing ``str()`` and :py:meth:`~yarl.URL.human_repr` to emit an
absolute URL with a scheme and host -- by :user:`rodrigobnogueira`.
"""


def _url(helper: str = "", fix: str = "", sub: str = "") -> dict[str, str | None]:
    files: dict[str, str | None] = {"yarl/_url.py": URL.format(helper=helper, fix=fix, sub=sub)}
    if fix:
        files["CHANGES/1669.bugfix.rst"] = FRAGMENT
    return files


def test_a_new_helper_a_fix_now_calls_is_said_in_its_docstrings_words(tmp_path: Path) -> None:
    analysis, verdicts = checked_entry(
        tmp_path,
        _url(),
        _url(HELPER, FIX),
        "Preserve percent-encoding in relative paths to prevent scheme materialization (#1669)",
    )
    text = entry_text(analysis)
    # the call and what the helper does, one sentence
    assert (
        "`encode_url` now calls `_encode_relative_scheme_colon`, whose docstring says: "
        "“Re-encode a scheme-shaped leading `:` in a relative path to `%3A`.”" in text
    )
    assert "per its docstring" not in text
    assert verdicts and all(v is Verdict.TRUE for v in verdicts)


def test_a_new_operator_of_a_public_class_is_said_in_its_docstrings_words(
    tmp_path: Path,
) -> None:
    analysis, verdicts = checked_entry(
        tmp_path,
        _url(),
        _url(sub=SUB),
        "Support using the subtraction operator to get the relative path between URLs (#1340)",
    )
    assert (
        "`URL.__sub__`, per its docstring: “Return a new URL with a relative path between two "
        "other URL objects.”" in entry_text(analysis)
    )
    assert verdicts and all(v is Verdict.TRUE for v in verdicts)


PARSE = '''"""URL parsing utilities."""
{added}'''
SPLIT = '''

def split_url(url: str) -> SplitResult:
    """Split URL into parts."""
    return SplitResult(*url.split("/"))
'''
STDLIB = '''"""Processors and helpers specific to the logging module from the standard library."""


class BoundLogger:
    """Python Standard Library version of `structlog.BoundLogger`."""

    def isEnabledFor(self, level: int) -> bool:
        """Calls :meth:`logging.Logger.isEnabledFor`."""
        return self._logger.isEnabledFor(level)
{added}'''
SNAKE = '''
    def is_enabled_for(self, level: int) -> bool:
        """
        A snake_case alias of `isEnabledFor` for compatibility with
        `structlog.typing.FilteringBoundLogger`.
        """
        return self.isEnabledFor(level)

    @property
    def pad_level(self) -> bool:
        """
        .. versionadded:: 25.5.0
        """
        return self._pad_level
'''


def test_a_docstring_that_repeats_the_name_title_or_summary_is_not_said(
    tmp_path: Path,
) -> None:
    # "Split URL into parts." says nothing `split_url` does not
    analysis, _ = checked_entry(
        tmp_path / "b",
        {"yarl/_parse.py": PARSE.format(added="")},
        {"yarl/_parse.py": PARSE.format(added=SPLIT)},
        "Move URL parsing functions to their own module (#1360)",
    )
    assert "per its docstring" not in entry_text(analysis)
    # structlog 0eef50d9: the description says what the docstring says; a property's
    # docstring that is only a directive says nothing
    message = (
        "stdlib: Add snake_case shims for isEnabledFor & getEffectiveLevel (#818)\n\n"
        "`structlog.stdlib.BoundLogger` now has `is_enabled_for()` that is a snake_case alias "
        "for its `isEnabledFor()`. This makes it more compatible with the native "
        "`structlog.typing.FilteringBoundLogger`."
    )
    analysis, verdicts = checked_entry(
        tmp_path / "c",
        {"src/structlog/stdlib.py": STDLIB.format(added="")},
        {"src/structlog/stdlib.py": STDLIB.format(added=SNAKE)},
        message,
    )
    text = entry_text(analysis)
    assert "`BoundLogger.is_enabled_for(level) -> bool`" in text
    assert "per its docstring" not in text
    assert all(v is Verdict.TRUE for v in verdicts)


BASE = '''"""Multidict implementation."""


class _Base:
    def keys(self) -> KeysView[str]:
        """Return a new view of the dictionary's keys."""
        return _KeysView(self._impl, self._title, self._key)


class MultiDict(_Base):
    """Dictionary with the support for duplicate keys."""
{added}'''
KEYS = '''
    def keys(self) -> KeysView[str]:
        """Return a new view of the dictionary's keys."""
        return _KeysView(self)
'''


def test_a_docstring_the_file_held_at_the_parent_is_not_new(tmp_path: Path) -> None:
    # multidict d476a03c: `MultiDict.keys` is its base class's, written again
    _, commit = second_commit(
        tmp_path,
        {"multidict/_multidict_py.py": BASE.format(added="    pass\n")},
        {"multidict/_multidict_py.py": BASE.format(added=KEYS)},
        "Views don't rely in _Impl anymore (#1152)",
    )
    facts = read_facts(commit)
    assert "MultiDict.keys" in {n.name for n in facts.added}
    assert facts.documented == ()
    # a definition whose words are new is documented
    _, commit = second_commit(
        tmp_path / "b",
        {"multidict/_multidict_py.py": BASE.format(added="    pass\n")},
        {"multidict/_multidict_py.py": BASE.format(added=KEYS.replace("keys.", "own keys."))},
        "Views don't rely in _Impl anymore (#1152)",
    )
    assert [d.name for d in read_facts(commit).documented] == ["MultiDict.keys"]


def _said(source: str, name: str) -> str | None:
    units = read_units(source, package=None, tests=False)
    assert units is not None
    side, _ = table(units)
    found = documented(side, name, "m.py", None)
    return None if found is None else found.text


def test_the_first_sentence_is_read_as_written_and_bounded() -> None:
    # "e.g." ends no sentence; a line break is a space
    source = (
        'def quote_path(path):\n    """Quote the path, e.g. a relative one, for the\n'
        '    request line. Others are left alone."""\n'
    )
    assert _said(source, "quote_path") == (
        "Quote the path, e.g. a relative one, for the request line."
    )
    # past the bound: cut at a word, marked
    long = (
        "Return the effective class-wide parameters that were used by attrs to construct the "
        "class, as derived from the arguments given to the decorators and the defaults of "
        "the classes it derives from, for each attribute in turn."
    )
    said = _said(f'class Text:\n    """{long}"""\n', "Text")
    assert said is not None and said.endswith("…") and len(said) <= 160
    assert long.startswith(said.removesuffix("…"))
    # a quotation mark of its own, or a code span left open, would break the sentence
    assert _said('def f():\n    """Say “hi” to the caller politely."""\n', "f") is None
    assert _said('def f():\n    """Return `x from the cache of values."""\n', "f") is None
    assert _said("def f():\n    return 1\n", "f") is None
    assert ast.get_docstring(ast.parse('"""m."""')) == "m."


def test_a_docstring_says_more_with_two_words_its_name_and_title_lack() -> None:
    assert not says_more("Split URL into parts.", "split_url")
    assert not says_more(
        "Return the host and port subcomponent part of URL.", "URL.host_port_subcomponent"
    )
    assert says_more("Re-encode a scheme-shaped leading colon.", "_encode_relative_scheme_colon")
    # "compatibility" is what "compatible" said
    assert not says_more("Compatibility with loggers.", "made compatible with loggers")


def test_the_claim_reads_the_name_its_file_and_the_words() -> None:
    claims, loose = claims_in(
        "`run` in `src/app.py`, per its docstring: “Run the app, e.g. in a thread.”"
    )
    assert [(c.kind, c.name, c.path, c.new) for c in claims] == [
        (Kind.DOCUMENTED, "run", "src/app.py", "Run the app, e.g. in a thread.")
    ]
    assert loose == []


def test_a_property_with_a_setter_is_said_with_its_getters_words(tmp_path: Path) -> None:
    # structlog af571c8 "dev: add repr_native_str property": the getter's docstring says what
    # it is, the setter's holds only `.. versionadded::`; the entry named the property alone
    renderer = (
        "class ConsoleRenderer:\n"
        "    def __init__(self, repr_native_str: bool = False) -> None:\n"
        "        self._repr_native_str = repr_native_str\n{added}"
    )
    added = (
        "\n    @property\n    def repr_native_str(self) -> bool:\n"
        '        """\n        Whether native strings are passed through repr() in non-event values.\n\n'
        '        .. versionadded:: 25.5.0\n        """\n        return self._repr_native_str\n\n'
        "    @repr_native_str.setter\n    def repr_native_str(self, value: bool) -> None:\n"
        '        """\n        .. versionadded:: 25.5.0\n        """\n'
        "        self._repr_native_str = value\n"
    )
    analysis, verdicts = checked_entry(
        tmp_path,
        {"src/structlog/dev.py": renderer.format(added="")},
        {"src/structlog/dev.py": renderer.format(added=added)},
        "dev: add repr_native_str property",
    )
    assert "“Whether native strings are passed through repr() in non-event values.”" in entry_text(
        analysis
    )
    assert all(v is Verdict.TRUE for v in verdicts)


def test_a_docstring_s_roles_are_quoted_as_a_reader_sees_them(tmp_path: Path) -> None:
    # Sphinx docstrings (structlog's, attrs') name code with roles: the quote had kept
    # ":class:`~structlog.stdlib.BoundLogger`" and "``None``" as written
    before = "def get_logger(name):\n    return _LOGGERS.get(name)\n"
    after = before.replace("def", "__all__ = ['get_named_logger']\n\n\ndef", 1) + (
        "\n\ndef get_named_logger(name: str, default=None):\n"
        '    """Return the :class:`~structlog.stdlib.BoundLogger` bound to *name*, or\n'
        '    ``None`` where :func:`get_logger` knows no such name.\n\n    More.\n    """\n'
        "    return _LOGGERS.get(name, default)\n"
    )
    analysis, verdicts = checked_entry(
        tmp_path,
        {"src/structlog/stdlib.py": before},
        {"src/structlog/stdlib.py": after},
        "Add a lookup by name",
    )
    assert (
        "per its docstring: “Return the `BoundLogger` bound to *name*, or `None` where "
        "`get_logger` knows no such name.”" in entry_text(analysis)
    )
    assert verdicts and all(v is Verdict.TRUE for v in verdicts)


LEVELS = '''"""Helpers that make development with structlog more pleasant."""


class ConsoleRenderer:
    def __init__(self, level_styles: dict[str, str] | None = None) -> None:
        self._level_styles = level_styles or dict()
{added}'''
LEVEL_STYLES = '''
    @property
    def level_styles(self) -> dict[str, str]:
        """
        The level styles mapping for this console renderer.

        Setting this property will reset to defaults if set to None, otherwise
        it applies the provided mapping. In all cases, columns are rebuilt to
        reflect the change.

        .. versionadded:: 25.5.0
        """
        return self._level_styles

    @level_styles.setter
    def level_styles(self, value: dict[str, str] | None) -> None:
        """
        .. versionadded:: 25.5.0
        """
        self._level_styles = {} if value is None else value
'''


def test_a_docstring_that_opens_with_the_name_is_said_by_its_next_paragraph(
    tmp_path: Path,
) -> None:
    # structlog 9ac5612 "dev: add level-styles properties": "The level styles mapping for this
    # console renderer." says nothing the name does not; what setting it does follows
    analysis, verdicts = checked_entry(
        tmp_path,
        {"src/structlog/dev.py": LEVELS.format(added="")},
        {"src/structlog/dev.py": LEVELS.format(added=LEVEL_STYLES)},
        "dev: add level-styles properties",
    )
    assert (
        "`ConsoleRenderer.level_styles`, per its docstring: “Setting this property will reset "
        "to defaults if set to None, otherwise it applies the provided mapping.”"
    ) in entry_text(analysis)
    assert verdicts and all(v is Verdict.TRUE for v in verdicts)
    root, commit = second_commit(
        tmp_path / "b",
        {"src/structlog/dev.py": LEVELS.format(added="")},
        {"src/structlog/dev.py": LEVELS.format(added=LEVEL_STYLES)},
        "dev: add level-styles properties",
    )
    name = "`ConsoleRenderer.level_styles`, per its docstring:"
    # a sentence inside a paragraph, not its opening: the checker does not take it
    inside = f"{name} “In all cases, columns are rebuilt to reflect the change.”"
    assert verdicts_of(root, commit.sha, inside) == [(Kind.DOCUMENTED, Verdict.FALSE)]


HOOKS = '''"""Instrumentation data."""

from typing import Protocol


class RetryHook(Protocol):
    """
    A callable that gets called after an attempt has failed and a retry has
    been scheduled.

    This is a :class:`typing.Protocol` that can be implemented by any callable
    that takes one argument of type :class:`RetryDetails` and returns None.
{added}
    .. versionadded:: 23.2.0
    """

    def __call__(self, details: object) -> {returns}: ...
'''
CONTEXT = """
    If the hook returns a context manager, it will be entered when the retry is
    scheduled and exited right before the retry is attempted.
"""


def _hooks(added: bool) -> dict[str, str | None]:
    text = HOOKS.format(
        added=CONTEXT if added else "",
        returns="None | AbstractContextManager[None]" if added else "None",
    )
    return {"src/stamina/instrumentation/_data.py": text}


def test_a_sentence_a_kept_docstring_gains_is_said_and_proven(tmp_path: Path) -> None:
    # stamina b163605 "Allow instrumentation hooks to be contextmanagers (#95)": the protocol's
    # docstring says when the context manager is entered and exited, the title only that it
    # may be one
    analysis, verdicts = checked_entry(
        tmp_path,
        _hooks(added=False),
        _hooks(added=True),
        "Allow instrumentation hooks to be contextmanagers (#95)",
    )
    assert (
        "The docstring of `RetryHook` now says: “If the hook returns a context manager, it will "
        "be entered when the retry is scheduled and exited right before the retry is "
        "attempted.”"
    ) in entry_text(analysis)
    assert Kind.REDOCUMENTED in {c.kind for c in entry_claims(analysis)[0]}
    assert verdicts and all(v is Verdict.TRUE for v in verdicts)


def test_the_checker_refutes_words_a_docstring_held_or_never_said(tmp_path: Path) -> None:
    root, commit = second_commit(
        tmp_path, _hooks(added=False), _hooks(added=True), "Allow hooks to be contextmanagers"
    )
    name = "The docstring of `RetryHook` now says:"
    cases = {
        f"{name} “If the hook returns a context manager, it will be entered…”": Verdict.TRUE,
        # the parent's docstring said it already
        f"{name} “This is a :class:`typing.Protocol` that can be implemented by any "
        "callable…”": Verdict.FALSE,
        f"{name} “If the hook returns None, nothing happens.”": Verdict.FALSE,
        "The docstring of `RetryDetails` now says: “If the hook returns a context "
        "manager…”": Verdict.FALSE,
    }
    for sentence, verdict in cases.items():
        assert verdicts_of(root, commit.sha, sentence) == [(Kind.REDOCUMENTED, verdict)], sentence


def test_a_docstring_that_only_gains_directives_or_moves_says_nothing_new(
    tmp_path: Path,
) -> None:
    # stamina 10012a6: `.. versionchanged::` alone is no sentence of prose
    _, commit = second_commit(
        tmp_path,
        _hooks(added=False),
        {
            "src/stamina/instrumentation/_data.py": HOOKS.format(
                added="\n    .. versionchanged:: 25.2.0\n       Fixed off-by-one error\n",
                returns="None",
            )
        },
        "Fix off-by-1 error",
    )
    assert read_facts(commit).redocumented == ()


COLUMNS = '''
    @property
    def columns(self) -> list[Column]:
        """
        The columns configuration for this console renderer.

        Warning:
            Just like with passing *columns* argument, many of the other
            arguments you may have passed are ignored.

        Args:
            value:
                A list of `Column` objects defining both the order and format
                of the key-value pairs in the output.

        .. versionadded:: 25.5.0
        """
        return [*self._columns]
'''


def test_an_admonition_of_a_new_property_is_said_with_its_label(tmp_path: Path) -> None:
    # structlog b0081ac "dev: allow columns to be got and set (#757)": what setting the
    # property costs is in its "Warning:", the opening names it only
    renderer = (
        "class ConsoleRenderer:\n"
        "    def __init__(self, columns: list[Column] | None = None) -> None:\n"
        "        self._columns = columns or []\n{added}"
    )
    analysis, verdicts = checked_entry(
        tmp_path,
        {"src/structlog/dev.py": renderer.format(added="")},
        {"src/structlog/dev.py": renderer.format(added=COLUMNS)},
        "dev: allow columns to be got and set (#757)",
    )
    assert (
        "`ConsoleRenderer.columns`, per its docstring: “Warning: Just like with passing "
        "*columns* argument, many of the other arguments you may have passed are ignored.”"
    ) in entry_text(analysis)
    assert "A list of" not in entry_text(analysis)
    assert verdicts and all(v is Verdict.TRUE for v in verdicts)


COMPAT = '''"""Compatibility."""

import sys
{body}'''
BRANCHES = '''
if sys.version_info >= (3, 9):

    def is_sequence(type: object) -> bool:
        """A predicate function for sequences.

        Matches lists, sequences, mutable sequences and deques.
        """
        return type in (list, tuple)

else:

    def is_sequence(type: object) -> bool:
        return type in (list, tuple)
'''
ONE = '''

def is_sequence(type: object) -> bool:
    """A predicate function for sequences.

    Matches lists, sequences, mutable sequences and deques.
    """
    return type in (list, tuple)
'''


def test_a_docstring_one_branch_held_at_the_parent_is_not_gained(tmp_path: Path) -> None:
    # cattrs dce7347 "Drop Python 3.8 (#591)": the parent defined `is_sequence` once per
    # Python version, one of them with this docstring; the commit keeps that one
    _, commit = second_commit(
        tmp_path,
        {"src/cattrs/_compat.py": COMPAT.format(body=BRANCHES)},
        {"src/cattrs/_compat.py": COMPAT.format(body=ONE)},
        "Drop Python 3.8 (#591)",
    )
    assert read_facts(commit).redocumented == ()


def test_a_quotation_that_ends_a_sentence_is_where_a_long_insight_is_cut() -> None:
    # structlog d517cde: a third docstring quotation took the insight past its 600
    # characters, and the cut fell back to the last full stop outside quotation marks,
    # dropping the two quotations before it
    said = (
        "Adds `ConsoleRenderer.exception_formatter` and 1 more. `get_active_console_renderer`, "
        "per its docstring: “If *structlog* is configured to use `ConsoleRenderer`, it's "
        "returned.” "
    )
    longer = said + "The docstring of `ConsoleRenderer` now says: “" + "word " * 120 + "end.”"
    assert fit_sentences(longer, 600) == said.rstrip()


MAPPING = '''"""Abstract base classes."""


class MutableMultiMapping:
    def add(self, key: str, value: object) -> None:
{doc}        raise NotImplementedError
'''


def test_a_docstring_a_kept_method_gains_that_only_names_it_is_not_said(tmp_path: Path) -> None:
    # multidict fe4dee0 "Strict typing (#1046)": "Add value to list." on `add`
    _, commit = second_commit(
        tmp_path,
        {"multidict/_abc.py": MAPPING.format(doc="")},
        {"multidict/_abc.py": MAPPING.format(doc='        """Add value to list."""\n')},
        "Strict typing (#1046)",
    )
    assert read_facts(commit).redocumented == ()


CHANNEL = '''"""Channels."""


def background_with_channel(fn):
    """Decorate an async generator function to make it cancellation-safe.

    For example::

        @background_with_channel{call}
        async def my_async_iterable(arg, *, kwarg=True):
            while ...:
                yield item

    The context manager is indispensable.
    """
    return fn
'''


def test_a_docstrings_example_is_no_sentence_it_gains(tmp_path: Path) -> None:
    # trio 26ed1c6: the example's decorator lost its call; the example is code, not prose
    _, commit = second_commit(
        tmp_path,
        {"src/trio/_channel.py": CHANNEL.format(call="()")},
        {"src/trio/_channel.py": CHANNEL.format(call="")},
        "do everything but unwrapping the exception from inside the group",
    )
    assert read_facts(commit).redocumented == ()


WINDOWS = '''"""Windows."""


class Windows:
    """
    `MSDN on where to store app data files <{target}>`_.

    Makes use of the `appname <Base.appname>` and the `version <Base.version>`.
    """

    def user_data_dir(self) -> str:
        return "C:/Users"
'''


def test_a_docstring_whose_link_only_points_elsewhere_says_nothing_new(tmp_path: Path) -> None:
    # platformdirs f9b9d6d "update dead known folders documentation link": the link's text,
    # all a reader sees, is the parent's; "now says" would quote the same words as news
    old = "https://support.microsoft.com/default.aspx?scid=kb;en-\n    us;310294#XSLTH31941"
    new = "https://learn.microsoft.com/en-us/windows/win32/shell/knownfolderid"
    analysis, verdicts = checked_entry(
        tmp_path,
        {"src/pkg/windows.py": WINDOWS.format(target=old)},
        {"src/pkg/windows.py": WINDOWS.format(target=new)},
        "chore: update dead documentation link (#267)",
    )
    assert "now says" not in entry_text(analysis)
    assert Verdict.FALSE not in verdicts
