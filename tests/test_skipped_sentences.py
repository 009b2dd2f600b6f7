"""Sentences a maintainer skips on a medium or high entry are left out (issue 27)."""

from bot.analysis.wording import Text, _drop_repeats, _drop_tests_said, repeats

# lark 84e9984 "Better error in Lark.parse when using on_error when parser!=lalr": its
# summary and its compatibility insight, which says when (more than the summary)
_SUMMARY = (
    "`Lark.parse` may now raise `NotImplementedError` with “The on_error option is only "
    "implemented for the LALR(1) parser.”"
)
_WHEN = (
    "`Lark.parse` now raises `NotImplementedError` when "
    "`on_error is not None and self.options.parser != 'lalr'`."
)


def test_a_sentence_the_summary_says_word_for_word_is_a_repeat() -> None:
    assert repeats("`Lark.parse` may now raise `NotImplementedError`.", _SUMMARY)
    assert repeats(_SUMMARY.upper(), _SUMMARY)
    # (what the summary does not say is no repeat, nor is nothing)
    assert not repeats(_WHEN, _SUMMARY)
    assert not repeats("", _SUMMARY)
    assert not repeats(_WHEN, "")


def test_only_the_repeat_of_the_summary_is_dropped() -> None:
    text = Text(summary=_SUMMARY)
    text.note("compatibility", _WHEN)
    text.note("compatibility", "`Lark.parse` may now raise `NotImplementedError`.")
    _drop_repeats(text)
    assert text.insights == {"compatibility": [_WHEN]}


# python-tabulate 12a805b: the new test pins what the fix mends; its name adds nothing
_PINS = (
    "The new test `test_intfmt_with_string_as_integer` pins `tabulate.tabulate([[82642], "
    "['1500'], [2463]], intfmt=',', tablefmt='plain')` to `'82,642\\n  1500\\n 2,463'`."
)
_NAMES = "Adds the test `test_intfmt_with_string_as_integer`."


def test_the_tests_named_beside_what_a_test_pins_are_dropped() -> None:
    text = Text(summary="`_format` now formats a string of digits with `intfmt`.")
    text.note("architecture", _NAMES)
    text.note("architecture", _PINS)
    _drop_tests_said(text, _NAMES)
    assert text.insights == {"architecture": [_PINS]}


def test_the_tests_named_alone_stay() -> None:
    # tomlkit 43668dd "fix: keep newline after dotted inline table (#533)": the test's name
    # is all that says what the fix pins
    said = "Adds the test `test_add_key_after_dotted_inline_table_without_ending_newline`."
    text = Text(summary="Keep newline after dotted inline table.")
    text.note("architecture", said)
    _drop_tests_said(text, said)
    assert text.insights == {"architecture": [said]}
