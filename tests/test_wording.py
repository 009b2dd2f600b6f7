"""What the rules write, in both languages: the catalogue's two instances, and every zh-CN
sentence of the replay days Chinese, with names in code spans and the author's words quoted."""

from __future__ import annotations

import re
from dataclasses import fields

import pytest
from markdown_it import MarkdownIt

from bot.analysis.phrases import EN, ZH, AnalysisPhrases, sentence
from bot.analysis.rules import analyze
from bot.analysis.signals import read_signals
from bot.analysis.wording import breaking_risks, codes, statements
from bot.models import Analysis, CommitInput, FileChange
from tests.support import replay_day, replay_index, whole_commit

_CJK = re.compile(r"[\u3400-\u9fff]")
# What may stay Latin in a Chinese sentence: code spans, quotations (the author's words),
# placeholders, paths, URLs, and names (capitalised words, acronyms, words with digits).
_NOT_PROSE = re.compile(r"`[^`]*`|“[^”]*”|\{\w+\}|https?://\S+|[\w.-]+/[\w./-]+")
_LOWER_WORD = re.compile(r"(?<![\w.-])[a-z]{2,}(?![\w-])")


def _strings(p: AnalysisPhrases) -> list[str]:
    out: list[str] = []
    for f in fields(p):
        value = getattr(p, f.name)
        if isinstance(value, str):
            out.append(value)
        elif isinstance(value, tuple):
            # a tuple of texts, or of (key, text) pairs: the key is an identifier, not prose
            out += [v[1] if isinstance(v, tuple) else v for v in value]
        else:
            out += [s for pair in value.values() for s in pair]
    return out


def english_words(text: str) -> list[str]:
    return _LOWER_WORD.findall(_NOT_PROSE.sub(" ", text))


def test_the_catalogue_has_an_english_and_a_chinese_instance_of_one_shape() -> None:
    assert type(EN) is type(ZH)
    for text in _strings(ZH):
        assert not english_words(text), text
    for text in _strings(EN):
        assert not _CJK.search(text), text
    # Every placeholder of a phrase is the same in both languages.
    for f in fields(AnalysisPhrases):
        en, zh = getattr(EN, f.name), getattr(ZH, f.name)
        if isinstance(en, str):
            assert set(re.findall(r"\{\w+\}", en)) == set(re.findall(r"\{\w+\}", zh)), f.name


def test_a_clause_becomes_a_sentence_in_each_language() -> None:
    assert sentence(EN, "removes `x`") == "Removes `x`."
    assert sentence(EN, "reverts “Fix it.”") == "Reverts “Fix it.”"
    assert sentence(ZH, "移除了 `x`") == "移除了 `x`。"


def _analyses(language: str) -> list[Analysis]:
    return [
        analyze(CommitInput.from_github(raw, repo=day["repo"]), language=language)
        for day in replay_index()
        for raw in replay_day(day["repo"], day["date"])["commits"]
    ]


def test_every_chinese_sentence_of_the_replay_days_is_chinese() -> None:
    seen = 0
    for a in _analyses("zh-CN"):
        texts = [r.description for r in a.risks]
        texts += [t for r in a.risks for t in (r.consequence, r.mitigation) if t]
        texts += [r.text for r in a.recommendations]
        if a.insights is not None:
            texts += [t for t in a.insights.model_dump().values() if t]
        # The summary is the analyser's own when it holds Chinese (the author's English
        # summary is marked as the original by the digest).
        if _CJK.search(a.summary):
            texts.append(a.summary)
        for text in texts:
            seen += 1
            assert _CJK.search(text), text
            assert not english_words(text), text
    # (the tests a change adds are no insight, nor a medium entry's list of private names:
    # fewer sentences than the 150 before)
    assert seen > 130


@pytest.mark.parametrize("language", ["en", "zh-CN"])
def test_no_sentence_is_left_empty_or_unfinished(language: str) -> None:
    end = "。" if language == "zh-CN" else "."
    for a in _analyses(language):
        sentences = [r.text for r in a.recommendations] + [r.description for r in a.risks]
        for text in sentences:
            assert text.endswith((end, "”", '"')), text
            assert "{" not in text and "None" not in text, text


def _clauses(commit: CommitInput) -> str:
    """Every statement of fact the rules would write about the commit, in English."""
    return " ".join(s.clause for s in statements(read_signals(commit), EN))


def test_added_names_are_what_a_reader_can_use() -> None:
    """A new class stands for its methods, and private helpers are not news beside it."""
    patch = (
        "@@ -10,0 +11,14 @@ class Existing:\n"
        "+class ShortRequestFirstConfig:\n"
        "+    def __init__(self, threshold: int) -> None:\n"
        "+        self.threshold = threshold\n"
        "+\n"
        "+    def _validate_config(self) -> None:\n"
        "+        assert self.threshold > 0\n"
        "+\n"
        "+    def enabled(self) -> bool:\n"
        "+        return self.threshold > 0\n"
        "+\n"
        "+\n"
        "+def _shard_missing(name: str) -> bool:\n"
        "+    return not name\n"
    )
    commit = CommitInput(
        sha="a" * 40,
        message="Add a scheduling policy (#1)",
        files=[
            FileChange(filename="pkg/core/config.py", status="modified", additions=14, patch=patch)
        ],
    )
    architecture = _clauses(commit)
    assert "`ShortRequestFirstConfig`" in architecture
    for hidden in ("__init__", "_validate_config", ".enabled", "_shard_missing"):
        assert hidden not in architecture, architecture


def test_a_private_helper_is_named_when_nothing_public_was_added() -> None:
    patch = "@@ -3,0 +4,2 @@ def load():\n+def _is_missing_v_shard(name):\n+    return not name\n"
    commit = CommitInput(
        sha="b" * 40,
        message="Fix the loader (#2)",
        files=[FileChange(filename="pkg/loader.py", status="modified", additions=2, patch=patch)],
    )
    assert "`_is_missing_v_shard`" in _clauses(commit)


@pytest.mark.parametrize("language", ["en", "zh-CN"])
def test_the_old_default_is_advised_only_when_a_user_can_write_it(language: str) -> None:
    """ "Set X to V" is advice a user can follow only when V is a value (a number, a quoted
    string, a boolean, none), not a name from the code such as a constant."""
    patch = (
        "@@ -3,3 +3,3 @@ class Settings(BaseModel):\n"
        "-    title: str = DEFAULT_TITLE\n"
        "+    title: str = 'Daily digest'\n"
        "-    batch: int = 8\n"
        "+    batch: int = 16\n"
        "-    mode: str = 'fast'\n"
        "+    mode: str = FAST_MODE\n"
    )
    commit = CommitInput(
        sha="a" * 40,
        message="Settings: new defaults",
        files=[FileChange(filename="pkg/config.py", status="modified", additions=3, patch=patch)],
    )
    mitigations = {
        next(name for name in ("title", "batch", "mode") if f"`{name}`" in r.description): (
            r.mitigation
        )
        for r in analyze(commit, language=language).risks
        if "`" in r.description
    }
    assert mitigations.keys() == {"title", "batch", "mode"}, mitigations
    assert mitigations["title"] is None
    assert mitigations["batch"] and "`8`" in mitigations["batch"]
    assert mitigations["mode"] and "`'fast'`" in mitigations["mode"]


def test_whole_files_give_a_medium_change_something_to_say_beyond_its_title() -> None:
    before = (
        "def load(path, mode=1):\n    return path\n\n\n"
        "class Ledger:\n    def record(self, x):\n        return self.db.run(x)\n"
    )
    after = (
        "def load(path, *, strict=False):\n    if not path:\n        raise ValueError(path)\n"
        "    return path\n\n\nclass Ledger:\n    def record(self, x):\n"
        "        return self._upsert(x)\n\n    def _upsert(self, x):\n"
        "        return self.db.run(x)\n"
    )
    commit = CommitInput(
        sha="a" * 40,
        message="Fix the loader crash on an empty path",
        files=[
            FileChange(
                filename="pkg/io.py",
                before=before,
                after=after,
                additions=6,
                deletions=2,
                patch="@@ -1,2 +1,3 @@\n-def load(path, mode=1):\n+def load(path, *, strict=False):\n"
                "+    if not path:\n+        raise ValueError(path)\n     return path",
            )
        ],
    )
    said = {s.clause for s in statements(read_signals(commit), EN)}
    # one function's losses and gains: one sentence
    assert (
        "`load` no longer takes the parameter `mode=1` and gains the parameter `strict=False`"
        in said
    )
    # a new exception its one new guard at the top of the body raises: said with when
    assert "`load` now raises `ValueError` when `not path`" in said
    assert "`load` may now raise `ValueError`" not in said
    assert "`Ledger.record` now calls `_upsert`" in said


@pytest.mark.parametrize(
    "name",
    ["retry - extending a numeric `retry` with an object keeps the limit", "``", "`lead", "plain"],
)
def test_a_name_with_backquotes_is_one_code_span_as_commonmark_reads_it(name: str) -> None:
    # A JS test's name is a string as written; backquotes in it must not end the span.
    tokens = MarkdownIt("commonmark").parseInline(codes(EN, [name]))[0].children or []
    assert [(t.type, t.content) for t in tokens] == [("code_inline", name)]


def _said(commit: CommitInput) -> list[str]:
    return [s.clause for s in statements(read_signals(commit), EN)]


def test_a_call_that_follows_a_helper_made_public_is_the_rename_said_once() -> None:
    # 06dd4c0 (merge 'walkday2'): `_readable_discussions` became `readable_discussions`;
    # `sent_place` calls it as before, `Poster.hidden_since` calls it anew.
    places = (
        "async def {name}(client, repo):\n    return await client.get(repo, 'discussions')\n\n\n"
        "async def sent_place(client, repo):\n    return await {name}(client, repo)\n"
    )
    poster = (
        "{imports}class Poster:\n    async def hidden_since(self, repo):\n"
        "        return await {call}(self.client, repo)\n"
    )
    said = _said(
        whole_commit(
            (
                "pkg/places.py",
                places.format(name="_readable_discussions"),
                places.format(name="readable_discussions"),
            ),
            (
                "pkg/poster.py",
                poster.format(imports="from pkg.gone import hidden\n\n\n", call="hidden"),
                poster.format(
                    imports="from pkg.places import readable_discussions\n\n\n",
                    call="readable_discussions",
                ),
            ),
        )
    )
    renamed = "renames `_readable_discussions` to `readable_discussions` in `pkg/places.py`"
    assert said.count(renamed) == 1
    # the caller that only follows the rename makes no new call, nor drops one
    assert not [c for c in said if "`sent_place`" in c]
    assert "`Poster.hidden_since` now calls `readable_discussions`" in said
    # the rename said before the call it explains
    assert said.index(renamed) < said.index(
        "`Poster.hidden_since` now calls `readable_discussions`"
    )


def test_the_callees_of_the_same_callers_are_one_sentence() -> None:
    # a76b597 (merge 'speed'): `python_sides` calls `keep_units` and `kept_units` anew, and
    # no longer calls `read_units` nor `parse`.
    before = (
        "def read_units(text):\n    return text\n\n\ndef parse(text):\n    return text\n\n\n"
        "def python_sides(old, new):\n    return read_units(old), parse(new)\n"
    )
    after = (
        "def keep_units(text):\n    return text\n\n\ndef kept_units(text):\n    return text\n\n\n"
        "def python_sides(old, new):\n    return kept_units(old) or keep_units(new)\n"
    )
    said = _said(whole_commit(("pkg/pyedit.py", before, after)))
    calls = [c for c in said if " calls " in c]
    assert calls == [
        "`python_sides` now calls `keep_units` and `kept_units`",
        "`python_sides` no longer calls `parse` and `read_units`",
    ]


def test_callees_of_different_callers_stay_apart() -> None:
    before = "def a():\n    return 1\n\n\ndef b():\n    return 2\n"
    after = (
        "def x():\n    return 0\n\n\ndef y():\n    return 0\n\n\n"
        "def a():\n    return x()\n\n\ndef b():\n    return y()\n"
    )
    calls = [c for c in _said(whole_commit(("pkg/m.py", before, after))) if " calls " in c]
    assert calls == ["`a` now calls `x`", "`b` now calls `y`"]


def test_a_bare_name_two_changed_files_define_is_said_with_its_file() -> None:
    # e14d911 (merge 'lighter'): `command` of `bot/cli/register.py` lost `manifest_path`, and
    # `bot/cli/evaluation.py`, also changed, has a `command` of its own.
    register = "def command(settings, *, {params}):\n    return settings\n"
    evaluation = "def command(settings):\n    return {value}\n"
    said = _said(
        whole_commit(
            (
                "pkg/cli/register.py",
                register.format(params="repo, manifest_path=MANIFEST"),
                register.format(params="repo"),
            ),
            (
                "pkg/cli/evaluation.py",
                evaluation.format(value="1"),
                evaluation.format(value="2"),
            ),
        )
    )
    assert (
        "`command` in `pkg/cli/register.py` no longer takes the parameter `manifest_path=MANIFEST`"
        in said
    )


@pytest.mark.parametrize(
    ("name", "shown"),
    [
        # a word every command-line tool uses: alone it says not which
        ("main", "`main` in `pkg/tool.py`"),
        # a name of its own: the name is enough
        ("load_manifest", "`load_manifest`"),
    ],
)
def test_a_generic_name_is_said_with_its_file(name: str, shown: str) -> None:
    source = "def {name}(argv{extra}):\n    return argv\n"
    said = _said(
        whole_commit(
            (
                "pkg/tool.py",
                source.format(name=name, extra=""),
                source.format(name=name, extra=", *, quiet=False"),
            )
        )
    )
    assert f"{shown} gains the parameter `quiet=False`" in said


def test_a_call_that_follows_a_public_rename_is_only_the_rename() -> None:
    # 0c132d1: `AlertLedger.fold_periods` became `AlertLedger.folds`; `rearm_folds` calls it
    # by its new name, which is no new call.
    ledger = "class AlertLedger:\n    def {name}(self, repo):\n        return repo.periods\n"
    jobs = "def rearm_folds(ledger, repo):\n    return ledger.{name}(repo)\n"
    said = _said(
        whole_commit(
            ("pkg/ledger.py", ledger.format(name="fold_periods"), ledger.format(name="folds")),
            ("pkg/jobs.py", jobs.format(name="fold_periods"), jobs.format(name="folds")),
        )
    )
    # (a public method renamed in a class callers meet is said once, as a breaking risk:
    # callers of the old name fail)
    rename = "renames `AlertLedger.fold_periods` to `AlertLedger.folds` in `pkg/ledger.py`"
    assert said.count(rename) == 0
    assert not [c for c in said if "calls" in c]
    commit = whole_commit(
        ("pkg/ledger.py", ledger.format(name="fold_periods"), ledger.format(name="folds")),
        ("pkg/jobs.py", jobs.format(name="fold_periods"), jobs.format(name="folds")),
    )
    risks = [r.description for r in breaking_risks(commit, read_signals(commit), EN)]
    assert risks == [f"{rename[0].upper()}{rename[1:]}."]


def test_the_file_and_the_joined_callees_in_chinese() -> None:
    before = "def main(argv):\n    return argv\n"
    after = (
        "def keep(x):\n    return x\n\n\ndef kept(x):\n    return x\n\n\n"
        "def main(argv, *, quiet=False):\n    return keep(argv) or kept(argv)\n"
    )
    said = [
        s.clause for s in statements(read_signals(whole_commit(("pkg/tool.py", before, after))), ZH)
    ]
    assert "`pkg/tool.py` 中的 `main` 新增参数 `quiet=False`" in said
    assert "`pkg/tool.py` 中的 `main` 现在调用 `keep` 和 `kept`" in said


# c82acf3 of encode/starlette: every `TestClient` method lost `allow_redirects=None`, and
# `follow_redirects` went from `None` to httpx's own default in each.
_CLIENT = """\
class TestClient:
    def request(self, method, url, *, {params}):
        return method

    def get(self, url, *, {params}):
        return url

    def options(self, url, *, {params}):
        return url

    def head(self, url, *, {params}):
        return url
"""
_BEFORE = _CLIENT.format(params="allow_redirects=None, follow_redirects=None")
_AFTER = _CLIENT.format(params="follow_redirects=USE_CLIENT_DEFAULT")
_METHODS = ("request", "get", "options", "head")


def _client_commit() -> CommitInput:
    return whole_commit(("starlette/testclient.py", _BEFORE, _AFTER))


@pytest.mark.parametrize("language", ["en", "zh-CN"])
def test_one_parameter_lost_by_several_methods_is_one_sentence(language: str) -> None:
    p = EN if language == "en" else ZH
    said = [s.clause for s in statements(read_signals(_client_commit()), p)]
    lost = [c for c in said if "allow_redirects" in c]
    # one sentence names the methods; none is said again on its own
    assert len(lost) == 1, lost
    assert all(f"`TestClient.{m}`" in lost[0] for m in _METHODS[:3]), lost
    assert p.more.format(shown="", count=1).strip() in lost[0]


@pytest.mark.parametrize("language", ["en", "zh-CN"])
def test_one_default_changed_in_several_methods_is_one_risk(language: str) -> None:
    risks = [
        r
        for r in analyze(_client_commit(), language=language).risks
        if "follow_redirects" in r.description
    ]
    assert len(risks) == 1, [r.description for r in risks]
    risk = risks[0]
    # the parameter once, by its own name, and each function it changed in (3 shown)
    assert "`follow_redirects`" in risk.description
    assert "(follow_redirects)" not in risk.description
    assert all(f"`TestClient.{m}`" in risk.description for m in _METHODS[:3])
    assert "`None`" in risk.description and "`USE_CLIENT_DEFAULT`" in risk.description
    # a parameter's `None` is "not given": passing it need not do what leaving it out did
    assert risk.mitigation is None


def test_a_grouped_default_a_user_can_write_is_advised_by_its_parameter() -> None:
    source = "def fetch(url, *, retries={v}):\n    return url\n\n\ndef post(url, *, retries={v}):\n    return url\n"
    commit = whole_commit(("pkg/net.py", source.format(v=1), source.format(v=3)))
    risks = [r for r in analyze(commit).risks if "retries" in r.description]
    assert [(r.description, r.mitigation) for r in risks] == [
        (
            "Changes the default of `retries` in `fetch`, `post` from `1` to `3`.",
            "Set `retries` to `1` to keep the old behaviour.",
        )
    ]


def test_a_default_changed_in_one_function_keeps_its_function() -> None:
    before = "def fetch(url, *, retries=1):\n    return url\n"
    after = "def fetch(url, *, retries=3):\n    return url\n"
    risks = analyze(whole_commit(("pkg/net.py", before, after))).risks
    assert [r.description for r in risks if "retries" in r.description] == [
        "Changes the default of `fetch(retries)` from `1` to `3`."
    ]


@pytest.mark.parametrize(
    ("language", "expected"),
    [
        (
            "en",
            "`Poster._issue` no longer takes the parameter `wanted` and gains the parameter `draft`",
        ),
        ("zh-CN", "`Poster._issue` 不再接受参数 `wanted`，并新增参数 `draft`"),
    ],
)
def test_a_function_that_loses_and_gains_parameters_is_one_sentence(
    language: str, expected: str
) -> None:
    # 2026-11-27 of this repository: `Poster._issue` lost `wanted` and gained `draft`
    before = "class Poster:\n    def _issue(self, repo, wanted):\n        return repo\n"
    # (the new parameter read: not the old one renamed, which is the same code)
    after = "class Poster:\n    def _issue(self, repo, draft):\n        return repo, draft\n"
    p = EN if language == "en" else ZH
    said = [
        s.clause
        for s in statements(read_signals(whole_commit(("pkg/poster.py", before, after))), p)
    ]
    assert [c for c in said if "_issue" in c] == [expected]


@pytest.mark.parametrize(
    ("language", "expected"),
    [
        ("en", "the parameter `fname` of `touch` is now `path`"),
        ("zh-CN", "`touch` 的参数 `fname` 改名为 `path`"),
    ],
)
def test_a_parameter_renamed_throughout_is_said_as_a_rename(language: str, expected: str) -> None:
    # tinydb ecdaf1e "docs: improve code documentation": `touch(fname, create_dirs)` became
    # `touch(path: str, create_dirs: bool)` with a docstring, each `fname` a `path`; the
    # entry said "`touch` no longer takes the parameter `fname` and gains the parameter `path`"
    before = (
        "import os\n\n\ndef touch(fname, create_dirs):\n    if create_dirs:\n"
        "        os.makedirs(os.path.dirname(fname))\n"
        "    if not os.path.exists(fname):\n        open(fname, 'a').close()\n"
    )
    after = (
        before.replace("fname, create_dirs)", "path: str, create_dirs: bool)")
        .replace("fname", "path")
        .replace(":\n    if create_dirs", ':\n    """Create a file."""\n    if create_dirs', 1)
    )
    p = EN if language == "en" else ZH
    said = [
        s.clause
        for s in statements(read_signals(whole_commit(("pkg/storages.py", before, after))), p)
    ]
    # (the test rewritten with the new name is said apart)
    assert [c for c in said if "fname" in c and "os.path" not in c] == [expected]


def test_a_grouped_default_shows_fewer_functions_rather_than_outgrow_the_headline() -> None:
    # c82acf3: the new default `httpx._client.USE_CLIENT_DEFAULT` is long; the risk leads the
    # day's headline only within its 160 characters (`digest/headline.py`)
    methods = ("request", "get", "options", "head", "post")
    source = "class TestClient:\n" + "".join(
        f"    def {m}(self, url, *, follow_redirects={{v}}):\n        return url\n\n"
        for m in methods
    )
    commit = whole_commit(
        (
            "starlette/testclient.py",
            source.format(v="None"),
            source.format(v="httpx._client.USE_CLIENT_DEFAULT"),
        )
    )
    (risk,) = [r for r in analyze(commit).risks if "follow_redirects" in r.description]
    assert len(risk.description) <= 160, risk.description
    assert "`TestClient.request`" in risk.description
    assert "more" in risk.description


def test_a_change_held_in_bodies_says_what_a_caller_now_meets_in_both_languages() -> None:
    # Ctrl-C handled, an exit code, a parameter made optional: none of it is a new name.
    before = "def command(argv, out):\n    return run(argv)\n"
    after = (
        "def command(argv, out=None):\n    try:\n        return run(argv)\n"
        "    except KeyboardInterrupt:\n        return 130\n"
    )
    commit = whole_commit(("pkg/cli.py", before, after))
    commit = commit.model_copy(update={"message": "cli: Ctrl-C ends it with one line"})
    said = [s.clause for s in statements(read_signals(commit), EN)]
    assert said[:2] == [
        "the parameter `out` of `command` in `pkg/cli.py` is now optional (default `None`)",
        "`command` in `pkg/cli.py` now catches `KeyboardInterrupt`",
    ]
    # `run(argv)` may have returned 130 already: no new value is proven
    assert not any("may now return" in s for s in said)
    assert analyze(commit).summary == sentence(EN, said[0])
    zh = [s.clause for s in statements(read_signals(commit), ZH)]
    assert "`pkg/cli.py` 中的 `command` 现在捕获 `KeyboardInterrupt`" in zh


def test_modules_moved_into_a_folder_are_said_with_the_folder_and_a_private_rename_last() -> None:
    moved = [
        FileChange(
            filename=f"pkg/runtime/{n}.py", status="renamed", previous_filename=f"pkg/{n}.py"
        )
        for n in ("clock", "logs")
    ]
    renamed = FileChange(
        filename="pkg/jobs/day.py", status="renamed", previous_filename="pkg/publish_period.py"
    )
    helper = "def _read(x):\n    return x + 1\n"
    commit = whole_commit(
        ("pkg/util.py", helper, helper.replace("_read", "_load")),
        ("pkg/app.py", "from pkg.clock import Clock\n", "from pkg.runtime.clock import Clock\n"),
    )
    commit = commit.model_copy(update={"files": [*moved, renamed, *commit.files]})
    said = [s.clause for s in statements(read_signals(commit), EN)]
    # with the names its importers now import from it: what moved, not only where
    assert (
        "the modules `pkg/clock.py`, `pkg/logs.py` now live in `pkg/runtime/`, with `Clock`" in said
    )
    assert "the module `pkg/publish_period.py` is now `pkg/jobs/day.py`" in said
    assert said[-1] == "renames `_read` to `_load` in `pkg/util.py`"


def test_a_public_annotation_retyped_is_said_with_both_types() -> None:
    before = "def template_filter(name: str | None = None) -> int:\n    return 1\n"
    after = "def template_filter(name: Callable | str | None = None) -> int:\n    return 1\n"
    said = [
        s.clause for s in statements(read_signals(whole_commit(("pkg/app.py", before, after))), EN)
    ]
    assert said == [
        "the parameter `name` of `template_filter` now takes `Callable | str | None` (was `str | None`)"
    ]
