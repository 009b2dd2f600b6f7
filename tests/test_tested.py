"""A fix asked for a regression test that a later test commit of the same day gives, citing
the same issue, is no longer asked for one (sqlparse 2024-03-16: 8c24779 "Improve formatting
of statements with JSON operators (fixes #542).", then ee550f1 "Add test case for #542.")."""

from __future__ import annotations

from datetime import UTC, datetime

from bot.digest.tested import answered_asks
from bot.models import Analysis, Audience, ChangeType, DigestCommit, Importance, Recommendation

_ASK = "No test changed with this fix of `group_period`: ask for a regression test."
_OTHER = "Check the callers of `group_period`."


def _commit(sha: str, message: str, minute: int, kind: ChangeType, *asks: str) -> DigestCommit:
    analysis = Analysis(
        change_types=[kind],
        importance=Importance.MEDIUM if kind is ChangeType.BUGFIX else Importance.LOW,
        summary=message.split("\n", maxsplit=1)[0],
        recommendations=[Recommendation(audience=Audience.MAINTAINERS, text=t) for t in asks],
        analyzer="rules",
    )
    return DigestCommit(
        sha=sha,
        title=message.split("\n", maxsplit=1)[0],
        url=f"https://example.invalid/{sha}",
        author="a",
        landed_at=datetime(2024, 3, 16, 9, minute, tzinfo=UTC),
        analysis=analysis,
        message=message,
    )


def _asks(commit: DigestCommit) -> list[str]:
    assert commit.analysis is not None
    return [r.text for r in commit.analysis.recommendations]


def test_a_later_test_commit_citing_the_fixs_issue_answers_its_ask() -> None:
    fix = _commit(
        "a" * 40,
        "Improve formatting of JSON operators (fixes #542).",
        10,
        ChangeType.BUGFIX,
        _ASK,
        _OTHER,
    )
    test = _commit("b" * 40, "Add test case for #542.", 19, ChangeType.TESTS)
    out = answered_asks([fix, test])
    assert _asks(out[0]) == [_OTHER]
    assert out[1] is test


def test_the_ask_stays_without_the_same_issue_a_test_change_or_a_later_commit() -> None:
    fix = _commit(
        "a" * 40,
        "Thread-safe initialization of Lexer class (issue730).",
        10,
        ChangeType.BUGFIX,
        _ASK,
    )
    cases = [
        _commit("b" * 40, "Add test case for #542.", 19, ChangeType.TESTS),
        _commit("b" * 40, "Update changelog for issue730.", 19, ChangeType.DOCS),
        _commit("b" * 40, "Add test case for issue 730.", 5, ChangeType.TESTS),
    ]
    for other in cases:
        assert _asks(answered_asks([fix, other])[0]) == [_ASK]
    answered = _commit("b" * 40, "Add test case for issue 730.", 19, ChangeType.TESTS)
    assert _asks(answered_asks([fix, answered])[0]) == []
