"""The summary a description gives: the sentence that says what the change does, cut at a
sentence or item boundary, never the title again (bodies shaped like the replay days')."""

from __future__ import annotations

import pytest

from bot.analysis.messages import description_paragraphs
from bot.analysis.rules import analyze
from bot.analysis.signals import read_signals
from bot.analysis.summary import entry_summary, summary_from
from bot.models import CommitInput, FileChange


def summary(body: str, title: str = "Fix the loader (#5)", limit: int = 400) -> str | None:
    return summary_from(description_paragraphs(body, items=True), title, limit=limit)


BULLETS = (
    "- Cleans up `pyproject.toml`, removing old configs and updating ruff configs to also check "
    "import sorting\n- Updates `Makefile` to just call `ruff` in `make quality` and `make style`\n"
    "- Removes `black`, `flake8`, and `isort` from dev dependencies\n"
    "- Updates dev docs description of `make quality` command\n"
    "- Moves the pre-commit hooks to ruff's own hooks and drops the isort hook that came with "
    "them, since ruff now sorts imports the same way\n"
    "- Reformats every file that ruff formats differently from black, which is most of them"
)


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        # The author's story is not the summary; the sentence that says what it does is.
        (
            "I found my way here while debugging a hang in the scheduler. This PR moves the "
            "barrier after the KV transfer so that every rank reaches it.",
            "This PR moves the barrier after the KV transfer so that every rank reaches it.",
        ),
        (
            "While exploring the project, I noticed that several examples no longer run. "
            "This PR updates them to use `SamplingParams`.",
            "This PR updates them to use `SamplingParams`.",
        ),
        # Greetings, pointers and side notes are skipped.
        (
            "Hi team, thanks for the reviews!\n\nhttps://github.com/o/r/pull/9\n\n"
            "Note: this builds on #1807.\n\nAdds a `-f` flag that filters config files by name.",
            "Adds a `-f` flag that filters config files by name.",
        ),
        # A bullet list with no full stop is cut at an item boundary, not given up on (the
        # item that only updates docs is none of the summary: what users get is).
        (
            BULLETS,
            "Cleans up `pyproject.toml`, removing old configs and updating ruff configs to "
            "also check import sorting; Updates `Makefile` to just call `ruff` in `make "
            "quality` and `make style`; Removes `black`, `flake8`, and `isort` from dev "
            "dependencies; Moves the pre-commit hooks to ruff's own hooks and drops the isort "
            "hook that came with them, since ruff now sorts imports the same way.",
        ),
        # A lead-in brings its items, with or without its colon.
        (
            "Currently, the processor is initialised even for data-free recipes.\n"
            "This updates pre-processing to\n- wrap initialisation in a try/except\n"
            "- error only when a dataset needs it",
            "This updates pre-processing to: wrap initialisation in a try/except; error only "
            "when a dataset needs it.",
        ),
        # A sentence that only points at the change gives way to the one with its facts.
        (
            "When two requests share a chunk, the one with 1 token is taken for a decode "
            "request and raises an error. This PR fixes the issue.",
            "When two requests share a chunk, the one with 1 token is taken for a decode "
            "request and raises an error.",
        ),
        # Template headings and their test sections are not the description.
        (
            "### What this PR does / why we need it?\nMakes the KV pool initialise lazily on "
            "decode nodes.\n\n### How was this patch tested?\nCI passed with 8 cards.",
            "Makes the KV pool initialise lazily on decode nodes.",
        ),
        # What the change does beats the scene it sets, even when the scene comes first.
        (
            "Currently `untie_word_embeddings` leaves both embeddings on one storage. "
            "Previously this was harmless.\n\nDelete the parameter before registering it "
            "again, so that the offload cache allocates fresh storage.",
            "Delete the parameter before registering it again, so that the offload cache "
            "allocates fresh storage.",
        ),
        # A hard-wrapped sentence whose next line looks like a heading ("Step3p7):") goes
        # on; the issue it points at is not part of it.
        (
            "### What this PR does / why we need it?\nFix VIT crash when enabling FC1/FC2 on "
            "Ascend NPU for VL models (e.g.\nStep3p7):\n  #10500\n\nvLLM precomputes the "
            "inputs outside the forward context.",
            "Fix VIT crash when enabling FC1/FC2 on Ascend NPU for VL models (e.g. Step3p7).",
        ),
        # A label before the sentence is not part of it.
        (
            "RFC: https://github.com/o/r/issues/4629 Reason: Eliminate duplicate code in "
            "`mla_cp.py` and `attention_cp.py`.",
            "Eliminate duplicate code in `mla_cp.py` and `attention_cp.py`.",
        ),
        # flash-attention 46b2ae32: a squashed branch's review steps are no summary, and a
        # pointer before what the change does leaves the words that say it
        (
            "* follow up to #2666: fixing the layouts in the sm100 hd256 kernels and removing "
            "the temporary fix of calling .contiguous everywhere\n\n* respond to PR comments\n\n"
            "* respond to PR comments-2: move to utils file\n\n* Add tests",
            "Fixing the layouts in the sm100 hd256 kernels and removing the temporary fix of "
            "calling .contiguous everywhere.",
        ),
    ],
)
def test_the_summary_is_the_sentence_that_says_what_the_change_does(
    body: str, expected: str
) -> None:
    assert summary(body) == expected


@pytest.mark.parametrize(
    "body",
    [
        # The title again is no summary.
        "Fix the loader.",
        "- fix the loader",
        # Only pointers, placeholders and thanks.
        "Fixes #123\n\nhttps://github.com/o/r/pull/9\n\nThanks so much!",
        '"please provide a brief summary"',
        "This reverts commit fb9fdcdbe4f193cddf793dfab9e5666950f3fe4b.",
        # the review's steps
        "* address review comments\n* Apply suggestions from code review",
        # a stacking tool's lines (flash-attention 41789154, ghstack)
        "stack-info: PR: https://github.com/o/r/pull/2536, branch: drisspg/stack/38",
        "ghstack-source-id: 5d3f2a\nPull Request resolved: https://github.com/o/r/pull/7",
        "",
    ],
)
def test_no_summary_when_the_description_says_nothing_more(body: str) -> None:
    assert summary(body) is None


def test_a_sentence_is_never_cut_and_a_list_stops_at_an_item() -> None:
    long = "This PR adds " + "a very long clause, " * 40 + "and ends here."
    assert summary(long, limit=200) is None
    cut = summary(BULLETS, limit=200)
    assert cut is not None and len(cut) <= 200
    assert cut.endswith("make style`.") and cut.count(";") == 1
    two = "Adds the scheduler. " + "It tracks free memory per device and reserves it. " * 4
    assert summary(two, limit=120) == (
        "Adds the scheduler. It tracks free memory per device and reserves it."
    )


def test_a_lower_case_sentence_starts_with_a_capital_unless_it_opens_with_a_name() -> None:
    assert summary("when the dataset is large, the loader uses 8 workers.") == (
        "When the dataset is large, the loader uses 8 workers."
    )
    assert summary("vllm hadacore kernels are used for group size 128.") == (
        "vllm hadacore kernels are used for group size 128."
    )


def test_a_squashed_branch_is_summarised_by_its_first_commit() -> None:
    # flash-attention 940cd968 and 2409214a: GitHub's squashed message lists each commit; the
    # later ones are the branch's fixes ("add dk gemm"), or its tests' own changes
    title = "[Cute,Bwd,Sm100] add sparse MLA (Deepseek v4) backward kernels (#2621)"
    steps = (
        "* add backward sparse mla kernels\n\n* add dk gemm\n\n* fix dq errors\n\n* update tests"
    )
    sig = read_signals(CommitInput(sha="a" * 40, message=f"{title}\n\n{steps}"))
    assert summary_from(sig.description_items, title, limit=400) is None
    title = "[CuTe, SM100] Fix FP8 e4m3 accuracy: make max_offset dtype-aware (#2717)"
    body = (
        "* [CuTe, SM100] Make FP8 max_offset dtype-aware\n\nmax_offset=8 puts P at 4096, past "
        "e4m3fn's 448 ceiling, so the largest probabilities saturate.\n\n"
        "* [CuTe, Tests] Unrot the FP8 dtype path\n\nRunning the suite has bit-rotted:\n"
        "- the test sets requires_grad on fp8 tensors, which the interface now rejects."
    )
    sig = read_signals(CommitInput(sha="b" * 40, message=f"{title}\n\n{body}"))
    said = summary_from(sig.description_items, title, limit=400) or ""
    assert said.startswith("max_offset=8 puts P at 4096")


def test_a_squashed_branch_that_changed_course_is_not_summarised_by_its_first_step() -> None:
    # tomlkit df4afc6 "Fix: reject single keys that aren't strings (#416)": the first step
    # accepted ints as keys, the second throws TypeError "instead of casting to str"; the
    # entry's summary had been the first step, the opposite of the change
    title = "Fix: reject single keys that aren't strings (#416)"
    body = (
        "* Fix: accept ints as keys (interpret them as strings)\n\n"
        "* fix: throw type error instead of casting to str"
    )
    sig = read_signals(CommitInput(sha="c" * 40, message=f"{title}\n\n{body}"))
    said = summary_from(sig.description_items, title, limit=400) or ""
    assert "accept ints" not in said
    assert sig.turned
    # nor by a fact read from the code ("`SingleKey` may now raise `TypeError` …"): the
    # title says what the branch came to
    guard = (
        "@@ -380,3 +380,6 @@ class SingleKey(Key):\n         original=None,\n     ) -> None:\n"
        '+        if not isinstance(k, str):\n+            raise TypeError("Keys must be strings")\n'
        "+\n         if t is None:\n"
    )
    files = [FileChange(filename="pkg/items.py", additions=3, patch=guard)]
    made = analyze(CommitInput(sha="e" * 40, message=f"{title}\n\n{body}", files=files))
    assert made.summary.lower().startswith("reject single keys that aren't strings"), made.summary
    # a later step that only mends the first leaves it the summary
    body = "* Accept ints as keys, read as their decimal text\n\n* fix typo in the test"
    sig = read_signals(CommitInput(sha="d" * 40, message=f"{title}\n\n{body}"))
    said = summary_from(sig.description_items, title, limit=400) or ""
    assert said.startswith("Accept ints as keys")
    assert not sig.turned


@pytest.mark.parametrize(
    "body",
    [
        # pytest-asyncio ba8c0a1's and 2466be7's squashed steps
        "fix test\n\nmake it raise PytestDeprecationWarning instead\n\nadd changelog entry\n",
        "style: reformatting\n\ndocs: Add news fragment.\n",
        # pytest-asyncio ba8c0a1's last step: the changelog's release heading put back
        "fix test\n\nmake it raise PytestDeprecationWarning instead\n\nadd changelog entry\n\n"
        "docs: Changed release date of v0.25.0 to UNRELEASED.\n",
    ],
)
def test_the_changelogs_upkeep_is_no_summary(body: str) -> None:
    assert summary(body, "feat: Warn if asyncio test requests async pytest fixture") is None


def test_a_sentence_that_points_back_is_never_lifted_alone() -> None:
    # platformdirs 816747e "add site_bin_dir property": "This creates API inconsistency …",
    # third in its paragraph, is the gap the sentence before names, not the change; alone it
    # read as if the commit made the API inconsistent. 3f29817's "This adds the identical
    # overrides" names the overrides the sentence before shows.
    gap = (
        "Applications that install system-wide executables need a standard location that "
        "mirrors `user_bin_dir`. Currently, `user_bin_dir` provides `~/.local/bin` on Unix "
        "and `%LOCALAPPDATA%\\Programs` on Windows, but there's no corresponding site-wide "
        "equivalent. This creates API inconsistency since all other directory types (data, "
        "config, cache, state, log, runtime) have both user and site variants.\n\n"
        "The change also implements `use_site_for_root` support on Unix, allowing "
        "`user_bin_dir` to redirect to `site_bin_dir` when running as root."
    )
    said = summary(gap, limit=200)
    assert said is not None and not said.startswith("This")
    identical = (
        "macOS has the same `_site_data_dirs` properties but was missing the matching "
        "overrides. This adds the identical overrides to `_MacOSDefaults`."
    )
    assert summary(identical) == identical


def test_a_link_around_a_code_span_is_quoted_as_its_words() -> None:
    # (platformdirs c69a552: the link's brackets and address were left around the span)
    body = (
        "The runtime directory is now created by\n"
        "[`lib/libc/gen/login_cap.c`](https://github.com/openbsd/src/blob/master/login_cap.c),\n"
        "which sets `/tmp/run/user/{uid}` as the default for OpenBSD users.\n"
    )
    said = summary(body)
    assert said is not None and "https://" not in said and "](" not in said
    assert "`lib/libc/gen/login_cap.c`, which sets" in said
    rst = "The runtime directory now follows `the OpenBSD manual <https://man.openbsd.org/>`_ at login."
    said = summary(rst)
    assert said is not None and "https://" not in said and "the OpenBSD manual at login" in said


def test_the_need_a_feature_answers_gives_way_to_what_it_brings() -> None:
    # platformdirs 2b934a7 "add use_site_for_root parameter": its first paragraph says what
    # callers "currently" get and have to do; the second, behind a gitmoji, says what the
    # change brings. 5e8fe0d's "This gap forced consumers to …" goes on with the gap.
    body = (
        "System daemons running as root currently get user directories under "
        "`/root/.local/...`, which is rarely the intended behavior. Callers have to detect "
        "uid 0 themselves.\n\n"
        "✨ The new `use_site_for_root` constructor parameter (defaulting to `False`) redirects "
        "all six `user_*_dir` properties to their `site_*_dir` equivalents when running as "
        "root on Unix."
    )
    said = summary(body, "✨ feat(api): add use_site_for_root parameter (#426)")
    assert said is not None and said.startswith("The new `use_site_for_root`")
    gap = (
        "Its `site_*` counterpart was missing. 🧩 This gap forced consumers to hardcode "
        "platform-specific paths or repurpose `site_data_dir`.\n\n"
        "Each platform's path follows its guidelines: `/var/lib` on Linux."
    )
    said = summary(gap, "feat(api): add site_state_dir")
    assert said is not None and said.startswith("Each platform's path")


def test_a_short_statement_brings_the_sentence_that_details_it() -> None:
    # platformdirs 7a47ac4: the paths per platform follow a short "This adds …" past a 📂
    body = (
        "This adds `site_applications_dir` following official platform conventions verified "
        "from documentation. 📂 On Linux it returns `/usr/share/applications` (via "
        "`$XDG_DATA_DIRS`), on macOS `/Applications`, on Windows `C:\\ProgramData\\Microsoft"
        "\\Windows\\Start Menu\\Programs`, and on Android it aliases to `user_applications_dir`."
    )
    said = summary(body, "feat(api): add site_applications_dir property (#442)")
    assert said is not None and said.startswith("This adds") and "`/Applications`" in said
    assert "📂" not in said


def test_a_changelog_item_s_credit_is_no_part_of_its_summary() -> None:
    # environs b9871ed, 2989e03: "… custom parsers (#121). Thanks hukkinj1 for reporting."
    said = entry_summary(
        [
            "- Fix deferred validation behavior for `dj_db_url`, `dj_email_url`, "
            "`dj_cache_url`, and custom parsers (#121).\nThanks hukkinj1 for reporting."
        ],
        "Fix deferred validation with dj_* and custom parsers (#176)",
        limit=400,
    )
    assert said is not None and said.endswith("custom parsers (#121).")


@pytest.mark.parametrize(
    "body",
    [
        # what the sentence introduces (a code block) is not shown
        "Examples of valid, not so rare statements in postgres dialect.\n\n```\n"
        "ALTER TABLE atable DETACH PARTITION atable_p00;\n```\n\n"
        "They fall into same class as `EXTENSION` added in below PR, so let's add them as "
        "well.\n\nIn the same rationale as https://github.com/o/r/issues/785",
        "The following statements now parse.\n\n```\nSELECT 1;\n```",
        "For example, a query with a trailing comment.",
    ],
)
def test_a_sentence_that_only_introduces_what_is_not_shown_is_no_summary(body: str) -> None:
    title = "Add `ATTACH`, `DETACH` to PostgreSQL keywords"
    assert summary(body, title) is None
    assert entry_summary(description_paragraphs(body, items=True), title, limit=400) is None


def test_a_sentence_that_introduces_a_list_brings_its_items() -> None:
    body = "The following names are deprecated.\n- `foo` is old\n- `bar` is old"
    assert summary(body, "Deprecate names") == (
        "The following names are deprecated: `foo` is old; `bar` is old."
    )
