"""The measures of the words (issue 21), each on hand-made entries built from its definition."""

from __future__ import annotations

from typing import Any

import pytest

from bot.analysis.measures import (
    Entry,
    config_misnamed,
    english_in_chinese,
    measure_groups,
    measure_words,
    sentences,
    title_echo,
)
from bot.models import (
    Analysis,
    Audience,
    ChangeType,
    CommitInput,
    FileChange,
    Importance,
    Insights,
    Recommendation,
    Risk,
)

BODY = "This change moves the cache lookup out of the decode loop. " * 3


def commit(
    sha: str, title: str = "Fix the cache (#1)", body: str = "", patch: str | None = None
) -> CommitInput:
    files = [FileChange(filename="pkg/cache.py", additions=1, patch=patch)] if patch else []
    return CommitInput(sha=sha, message=f"{title}\n\n{body}" if body else title, files=files)


def analysis(summary: str, importance: Importance = Importance.MEDIUM, **more: Any) -> Analysis:
    return Analysis(
        change_types=[ChangeType.BUGFIX],
        importance=importance,
        summary=summary,
        analyzer="rules",
        **more,
    )


@pytest.mark.parametrize(
    ("title", "summary", "echo"),
    [
        ("[Bugfix] Fix the cache (#12)", "Fix the cache", True),
        ("fix(core): fix the cache", "Fix the cache.", True),
        ("Fix the cache (#12)", "Fix the `cache`", True),
        ("Fix the cache (#12)", "Moves the lookup out of the decode loop.", False),
        ("Fix the cache (#12)", "Fix the cache: the lookup leaves the decode loop.", False),
    ],
)
def test_title_echo_is_a_summary_with_no_word_beyond_the_title(
    title: str, summary: str, echo: bool
) -> None:
    assert title_echo(commit("a", title, BODY), analysis(summary)) is echo


def test_title_echo_counts_only_commits_with_a_body_of_120_characters() -> None:
    entries = [
        Entry(commit("a", body=BODY), analysis("Fix the cache")),
        Entry(commit("b", body="Short body."), analysis("Fix the cache")),
        Entry(commit("c", body=BODY), analysis("Moves the lookup.")),
        # Trailers are not a body.
        Entry(commit("d", body="Signed-off-by: A Person <a@example.com>\n" * 4), analysis("x")),
    ]
    assert str(measure_words(entries).title_echo) == "1/2 = 50%"


def test_boilerplate_is_a_skeleton_shared_by_three_commits_with_only_paths_and_counts() -> None:
    def with_insight(sha: str, text: str) -> Entry:
        return Entry(
            commit(sha),
            analysis(f"Moves `lookup_{sha}`.", insights=Insights(architecture=text)),
        )

    entries = [
        with_insight("a", "Changes build files: `a/b.txt` (+1 −2)."),
        with_insight("b", "Changes build files: `c/d.txt` (+10 −0)."),
        with_insight("c", "Changes build files: `setup.py` (+4 −4)."),
        # The same skeleton with a name in it says something: not boilerplate.
        with_insight("d", "Changes build files: `torch_version`."),
        # Twice only: not yet a template.
        with_insight("e", "Removes `pkg/x.py` from the wheel."),
        with_insight("f", "Removes `pkg/y.py` from the wheel."),
    ]
    m = measure_words(entries)
    # 12 sentences: six summaries (one skeleton, each naming a function: not boilerplate) and
    # six insights, of which the first three are boilerplate.
    assert (m.boilerplate.hits, m.boilerplate.total) == (3, 12)
    # A sentence with no particular at all, repeated for three commits, is a template too.
    same = [Entry(commit(sha), analysis("No test changed.")) for sha in "abc"]
    assert str(measure_words(same).boilerplate) == "3/3 = 100%"


def test_facts_from_the_change_name_an_identifier_of_the_patch_not_in_the_title() -> None:
    patch = "@@ -1,2 +1,2 @@\n def lookup(key):\n-    return CACHE[key]\n+    return CACHE.get(key)"
    named = analysis("Fix the cache.", insights=Insights(architecture="Changes `lookup`."))
    title_only = analysis("Fix the cache.", insights=Insights(architecture="Changes `cache`."))
    invented = analysis("Fix the cache.", insights=Insights(architecture="Changes `evict_all`."))
    path_only = analysis(
        "Fix the cache.", insights=Insights(architecture="Changes `pkg/cache.py`.")
    )
    low = analysis("Changes `lookup`.", Importance.LOW)
    entries = [
        Entry(commit(sha, "Fix the cache", patch=patch), a)
        for sha, a in (
            ("a", named),
            ("b", title_only),
            ("c", invented),
            ("d", path_only),
            ("e", low),
        )
    ]
    facts = measure_words(entries).facts
    assert facts is not None and (facts.hits, facts.total) == (1, 4)
    # Without a patch (titles only) the measure cannot be taken.
    assert measure_words([Entry(commit("f"), named)]).facts is None


def test_nothing_to_say_is_a_medium_or_high_entry_without_insight_risk_or_recommendation() -> None:
    entries = [
        Entry(commit("a"), analysis("Moves the lookup.")),
        Entry(commit("b"), analysis("Moves it.", risks=[Risk(description="Removes `x`.")])),
        Entry(
            commit("c"),
            analysis(
                "Moves it.",
                recommendations=[Recommendation(audience=Audience.USERS, text="Drop `x`.")],
            ),
        ),
        Entry(commit("d"), analysis("Moves the lookup.", Importance.LOW)),
    ]
    assert str(measure_words(entries).nothing_to_say) == "1/3 = 33%"


@pytest.mark.parametrize(
    ("sentence", "misnamed"),
    [
        ("Changes configuration files: `pkg/ascend_config.py` (+3 −1).", True),
        ("修改了配置文件：`vllm_ascend/ascend_config.py` (+0 −1)。", True),
        ("Changes configuration files: `configs/model.yaml`.", False),
        ("Changes configuration files: `a.yaml` (+1 −1), `pkg/config.py` (+2 −0).", True),
        ("`pkg/settings.py` is a configuration file.", True),
        ("Stops reading the configuration key `mode` in `pkg/config.py`.", False),
        # A sentence that speaks of configuration files and names a script calls it none.
        ("Adds a `-f` flag to `tests/run.sh` that filters config files by name.", False),
    ],
)
def test_source_files_called_configuration(sentence: str, misnamed: bool) -> None:
    assert config_misnamed(sentence) is misnamed


@pytest.mark.parametrize(
    ("sentence", "english"),
    [
        ("移除了环境变量 `VLLM_USE_V1`。", False),
        ("修复了 `Qwen3` 在 NPU 上的 “illegal memory access”。", False),
        ("改动位于 `a.py`, `b.py` and 2 more。", True),
        ("Removes the flag `--x`.", True),
        ("影响 all requests。", True),
        ("新增 `src/pkg/mod.py`。", False),
    ],
)
def test_english_in_zh_cn_is_prose_outside_code_quotes_and_names(
    sentence: str, english: bool
) -> None:
    assert english_in_chinese(sentence) is english


def test_english_in_zh_cn_leaves_the_authors_marked_summary_aside() -> None:
    author = analysis(
        "Moves the lookup out of the loop.", insights=Insights(compatibility="移除了 `x`。")
    )
    ours = analysis("移除 `x`。", insights=Insights(compatibility="Removes `x` and 2 more."))
    m = measure_words([Entry(commit("a"), author, "zh-CN"), Entry(commit("b"), ours, "zh-CN")])
    assert str(m.english_in_zh) == "1/3 = 33%"
    assert measure_words([Entry(commit("a"), author)]).english_in_zh is None


def test_unsupported_claims_come_from_a_guard_when_there_is_one() -> None:
    entries = [Entry(commit("a"), analysis("Moves it.")), Entry(commit("b"), analysis("Moves."))]
    assert measure_words(entries).unsupported is None
    m = measure_words(entries, guard=lambda c, a: (1 if c.sha == "a" else 0, 2))
    assert str(m.unsupported) == "1/4 = 25%"


def test_groups_are_measured_apart_and_together() -> None:
    entries = [
        Entry(commit("a", body=BODY), analysis("Fix the cache"), group="day 1"),
        Entry(commit("b", body=BODY), analysis("Moves the lookup."), group="day 2"),
    ]
    groups = measure_groups(entries)
    assert str(groups["day 1"].title_echo) == "1/1 = 100%"
    assert str(groups["day 2"].title_echo) == "0/1 = 0%"
    assert str(groups[""].title_echo) == "1/2 = 50%"


def test_sentences_split_at_ends_but_never_inside_code_or_quotations() -> None:
    assert sentences("Calls `a.b()`. Then stops! 然后结束。好") == [
        "Calls `a.b()`.",
        "Then stops!",
        "然后结束。",
        "好",
    ]
    assert sentences("新增章节“7. Cost (`a. B`)”。Adds “x. Y”.") == [
        "新增章节“7. Cost (`a. B`)”。",
        "Adds “x. Y”.",
    ]
