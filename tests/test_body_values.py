"""What an edited public function's body now gives: a new early-return guard said with its
value (humanize 31acb37, `activate` returns `_TRANSLATIONS[None]` for an English locale) and
a name it computes otherwise (humanize 3dca143, `naturaldelta`'s `num_months` rounded); each a
clone shaped like the commit, every sentence checked against it."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.analysis.rules import analyze
from bot.cli.claim_check import Verdict
from bot.cli.claims import Kind
from bot.cli.claims_eval import entry_claims, entry_text
from bot.models import Importance
from tests.clones import checked_entry, second_commit, verdicts_of

pytestmark = pytest.mark.usefixtures("environ_clean", "keep_test_logging")

I18N = '''import gettext as gettext_module

_TRANSLATIONS = {{None: gettext_module.NullTranslations()}}


def activate(locale: {typed}, path=None):
    """Activate internationalisation."""
{guard}    if path is None:
        path = _default_path()
    translation = gettext_module.translation("humanize", path, [locale])
    _TRANSLATIONS[locale] = translation
    return translation
'''
ENGLISH = (
    '    if locale is None or locale.startswith("en"):\n'
    "        _CURRENT.locale = None\n"
    "        return _TRANSLATIONS[None]\n\n"
)

TIME = '''def naturaldelta(value, months=True):
    """Return a natural representation of a timedelta."""
    delta = abs(value)
    years = delta.days // 365
    days = delta.days % 365
    num_months = {months}
    if delta.seconds < 3600:
        minutes = {minutes}
        return "%d minutes" % minutes
    if not years and num_months:
        return "%d months" % num_months
    return "%d days" % days


def _helper(value):
    count = {months}
    return count
'''


def _i18n(typed: str, guard: str) -> dict[str, str | None]:
    return {"src/humanize/i18n.py": I18N.format(typed=typed, guard=guard)}


def _time(months: str, minutes: str = "delta.seconds // 60") -> dict[str, str | None]:
    return {"src/humanize/time.py": TIME.format(months=months, minutes=minutes)}


def test_a_new_guard_at_the_top_is_said_with_what_it_returns(tmp_path: Path) -> None:
    analysis, verdicts = checked_entry(
        tmp_path,
        _i18n("str", ""),
        _i18n("str | None", ENGLISH),
        "Handle en_GB and en_US locale (#230)",
    )
    # what runs differently is the summary, not the annotation
    assert analysis.summary == (
        "`activate` now returns `_TRANSLATIONS[None]` early when "
        "`locale is None or locale.startswith('en')`."
    )
    assert "now returns early when" not in entry_text(analysis)
    assert Kind.RETURNS_EARLY in {c.kind for c in entry_claims(analysis)[0]}
    assert verdicts and all(v is Verdict.TRUE for v in verdicts)


def test_a_name_computed_otherwise_is_said_with_both_values(tmp_path: Path) -> None:
    analysis, verdicts = checked_entry(
        tmp_path,
        _time("int(days // 30.5)"),
        _time("round(days / 30.5)", "round(delta.seconds / 60)"),
        "`naturaldelta`: round the value to nearest unit that makes sense (#272)",
    )
    text = entry_text(analysis)
    # a low entry says one line: the first the function reads
    assert analysis.summary == (
        "`naturaldelta` now computes `num_months` as `round(days / 30.5)`"
        " (was `int(days // 30.5)`)."
    )
    # a private helper's local is its public callers' business: not said
    assert "`_helper`" not in text
    assert Kind.COMPUTES in {c.kind for c in entry_claims(analysis)[0]}
    assert verdicts and all(v is Verdict.TRUE for v in verdicts)


def test_importance_is_the_same_with_the_new_sentences(tmp_path: Path) -> None:
    analysis, _ = checked_entry(
        tmp_path,
        _time("int(days // 30.5)"),
        _time("round(days / 30.5)"),
        "Round months",
    )
    assert analysis.importance is not Importance.HIGH


def test_renames_long_values_and_rewrites_say_nothing(tmp_path: Path) -> None:
    # a value that differs only by the names it reads, a value too long, more than four
    # names computed otherwise (a rewrite): none said
    renamed = "int(count // 30.5)"
    # humanize bc5b4dc: `from datetime import date` became `import datetime as dt`
    dotted = "int(dt.days // 30.5)"
    long = "int(days // 30.5) + sum(x for x in range(days) if x % 7 == 0) * 2 - 1"
    for i, months in enumerate((renamed, dotted, long)):
        analysis, _ = checked_entry(
            tmp_path / str(i), _time("int(days // 30.5)"), _time(months), "Tidy"
        )
        assert "computes `num_months`" not in entry_text(analysis), months
    many = "def f(a):\n    b = a + 1\n    c = b + 1\n    d = c + 1\n    e = d + 1\n    g = e + 1\n"
    more = many.replace(" + 1", " + 2")
    analysis, _ = checked_entry(
        tmp_path / "many", {"app/calc.py": many}, {"app/calc.py": more}, "Tidy"
    )
    assert " computes " not in entry_text(analysis)
    # a linter's rewrite (humanize cae4163, "Ruff updates") computes the same value
    analysis, _ = checked_entry(
        tmp_path / "ruff",
        _time("int(days // 30.5)"),
        _time("int(days // 30.5) if days else 0"),
        "Ruff updates",
    )
    assert " computes " not in entry_text(analysis)


def test_a_guard_the_parent_had_or_deep_in_the_body_says_no_value(tmp_path: Path) -> None:
    had = '    if locale is None or locale.startswith("en"):\n        return None\n\n'
    analysis, _ = checked_entry(
        tmp_path, _i18n("str", had), _i18n("str", ENGLISH), "Handle en_GB and en_US locale"
    )
    assert "early when" not in entry_text(analysis)
    # past the first statements of the body: the guard is said, its value not
    deep = "    a = 1\n    b = 2\n    c = 3\n" + ENGLISH
    analysis, verdicts = checked_entry(
        tmp_path / "deep", _i18n("str", ""), _i18n("str", deep), "Handle en_GB and en_US locale"
    )
    assert "`activate` now returns early when `locale is None" in entry_text(analysis)
    assert verdicts and all(v is Verdict.TRUE for v in verdicts)


def test_the_checker_refutes_false_values(tmp_path: Path) -> None:
    root, commit = second_commit(
        tmp_path,
        {**_i18n("str", ""), **_time("int(days // 30.5)")},
        {**_i18n("str", ENGLISH), **_time("round(days / 30.5)")},
        "Round",
    )
    test = "locale is None or locale.startswith('en')"
    true = (
        f"`activate` now returns `_TRANSLATIONS[None]` early when `{test}`. "
        "`naturaldelta` now computes `num_months` as `round(days / 30.5)`"
        " (was `int(days // 30.5)`)."
    )
    assert verdicts_of(root, commit.sha, true) == [
        (Kind.RETURNS_EARLY, Verdict.TRUE),
        (Kind.COMPUTES, Verdict.TRUE),
    ]
    for false in (
        f"`activate` now returns `None` early when `{test}`.",
        "`activate` now returns `_TRANSLATIONS[None]` early when `path is None`.",
        "`naturaldelta` now computes `num_months` as `int(days // 30.5)`"
        " (was `round(days / 30.5)`).",
        "`naturaldelta` now computes `days` as `round(days / 30.5)` (was `int(days // 30.5)`).",
        "`naturaldelta` now computes `minutes` as `delta.seconds // 60`"
        " (was `delta.seconds // 60`).",
    ):
        assert [v for _, v in verdicts_of(root, commit.sha, false)] == [Verdict.FALSE], false


def test_values_said_in_chinese(tmp_path: Path) -> None:
    _, commit = second_commit(
        tmp_path, _time("int(days // 30.5)"), _time("round(days / 30.5)"), "x"
    )
    assert (
        "`naturaldelta` 现在将 `num_months` 计算为 `round(days / 30.5)`（原为 `int(days // 30.5)`）"
        in (entry_text(analyze(commit, language="zh-CN")))
    )


def test_a_guard_on_a_string_says_what_it_returns_for_it(tmp_path: Path) -> None:
    before = {"app/modes.py": 'def pick(mode):\n    return mode.upper() or "plain text"\n'}
    after = {
        "app/modes.py": 'def pick(mode):\n    if mode == "raw":\n        return mode\n'
        '    return mode.upper() or "plain text"\n'
    }
    analysis, verdicts = checked_entry(tmp_path, before, after, "Keep raw mode")
    # the new check is the guard's: said with what it returns, before "checks for `"raw"`"
    assert analysis.summary == "`pick` now returns `mode` early when `mode == 'raw'`."
    assert verdicts and all(v is Verdict.TRUE for v in verdicts)


def test_a_guard_that_may_leave_otherwise_says_no_value(tmp_path: Path) -> None:
    # `if t:` whose block may raise before its last `return v` does not always return `v`
    raising = (
        '    if locale is None or locale.startswith("en"):\n'
        "        if path:\n"
        "            raise ValueError(path)\n"
        "        return _TRANSLATIONS[None]\n\n"
    )
    analysis, verdicts = checked_entry(
        tmp_path, _i18n("str", ""), _i18n("str", raising), "Handle en_GB and en_US locale"
    )
    text = entry_text(analysis)
    assert "`_TRANSLATIONS[None]` early" not in text, text
    assert verdicts and all(v is Verdict.TRUE for v in verdicts)
    root, commit = second_commit(
        tmp_path / "b", _i18n("str", ""), _i18n("str", raising), "Handle en_GB and en_US locale"
    )
    said = (
        "`activate` now returns `_TRANSLATIONS[None]` early when "
        "`locale is None or locale.startswith('en')`."
    )
    assert verdicts_of(root, commit.sha, said) == [(Kind.RETURNS_EARLY, Verdict.FALSE)]


def test_a_private_helpers_guard_is_still_said_without_its_value(tmp_path: Path) -> None:
    # filelock 36eded2's shape: `_read_lock_file` gains a guard at its top
    before = {
        "src/filelock/_soft.py": "import os\n\n\ndef _read_lock_file(path):\n"
        "    st = os.stat(path)\n    with open(path) as f:\n        return f.read()\n"
    }
    after = {
        "src/filelock/_soft.py": "import os\nimport stat\n\n\ndef _read_lock_file(path):\n"
        "    st = os.stat(path)\n    if not stat.S_ISREG(st.st_mode):\n        return ''\n"
        "    with open(path) as f:\n        return f.read()\n"
    }
    analysis, verdicts = checked_entry(tmp_path, before, after, "Skip a non-regular lock file")
    text = entry_text(analysis)
    assert "`_read_lock_file` now returns early when `not stat.S_ISREG(st.st_mode)`." in text
    assert verdicts and all(v is Verdict.TRUE for v in verdicts)


def test_an_assignment_that_now_runs_always_is_not_said_as_recomputed(tmp_path: Path) -> None:
    # humanize 647e731: `value = dt.datetime.fromtimestamp(…)` under an `if` became
    # `value = _convert_aware_datetime(value)` at the top: "was" would say it always ran
    before = {
        "src/humanize/time.py": "import datetime as dt\n\n\ndef naturaltime(value):\n"
        "    if isinstance(value, dt.datetime) and value.tzinfo is not None:\n"
        "        value = dt.datetime.fromtimestamp(value.timestamp())\n"
        "    return str(value)\n"
    }
    after = {
        "src/humanize/time.py": "import datetime as dt\n\n\ndef naturaltime(value):\n"
        "    value = _convert_aware_datetime(value)\n    return str(value)\n\n\n"
        "def _convert_aware_datetime(value):\n"
        "    if isinstance(value, dt.datetime) and value.tzinfo is not None:\n"
        "        value = dt.datetime.fromtimestamp(value.timestamp())\n"
        "    return value\n"
    }
    analysis, _ = checked_entry(tmp_path, before, after, "Fix issue #122")
    assert " computes " not in entry_text(analysis)


def test_a_value_whose_inputs_are_bound_otherwise_is_not_said(tmp_path: Path) -> None:
    # humanize a0bb67a: `for i, s in enumerate(suffix)` … `unit = base ** (i + 2)` became
    # `enumerate(suffix, 2)` … `unit = base**i`: the same unit, `i` counted otherwise
    size = (
        "def naturalsize(value, base=1000):\n"
        "    suffix = ('kB', 'MB')\n"
        "    for i, s in enumerate(suffix{start}):\n"
        "        unit = {unit}\n"
        "        if value < unit:\n"
        "            return s\n"
        "    return suffix[-1]\n"
    )
    analysis, _ = checked_entry(
        tmp_path,
        {"src/humanize/filesize.py": size.format(start="", unit="base ** (i + 2)")},
        {"src/humanize/filesize.py": size.format(start=", 2", unit="base ** i")},
        "filesize: more cleanups",
    )
    assert " computes " not in entry_text(analysis)
