"""The offline digest of a local clone analyses as the App does: patches for every analyser,
the clone's own `.github/commit-digest.yml` at the branch tip under the flags, the weekly
roll-up."""

from __future__ import annotations

import re
from datetime import UTC, date, datetime, time
from pathlib import Path

import pytest

from bot.__main__ import main
from bot.analysis import AnalysisResult, RulesAnalyzer
from bot.analysis.narrative import Narrator
from bot.cli.clone import files_of, files_with_patches
from bot.cli.offline import offline_digest
from bot.cli.offline_week import offline_week
from bot.digest.render import render
from bot.jobs.digest_build import shown_commits
from bot.models import CommitInput, Digest, SettingsSources
from bot.repo_config import default_config
from bot.store.digests import DayCommit
from bot.web.payloads import PushEvent
from tests.clones import _commit, _config, _digest, _git, _write, repo
from tests.mermaid import mermaid_blocks, parse_xychart
from tests.support import webhook_payload

__all__ = ["repo"]  # the clone fixture

pytestmark = pytest.mark.usefixtures("environ_clean", "keep_test_logging")


def _footer(text: str) -> str:
    return text.rsplit("\n---\n", 1)[-1]


# --- patches ---------------------------------------------------------------------------------


def test_the_rules_read_the_patch_offline(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out, _ = _digest(capsys, "--git", str(repo), "--day", "2026-06-22")
    (line,) = [x for x in out.splitlines() if "Small tidy-up" in x and x.startswith("- ")]
    # The function is in the patch only: neither the title nor the message names it.
    assert "`compute_checksum(data) -> int`" in line


def test_a_merge_is_read_against_its_first_parent(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _git(repo, "checkout", "-q", "-b", "feature")
    _write(repo, "widgets/store.py", "class WidgetStore:\n    pass\n")
    _commit(repo, "Add a store", when="2026-06-24T09:00:00Z")
    _git(repo, "checkout", "-q", "main")
    merge_args = ("merge", "-q", "--no-ff", "-m", "Merge branch 'feature'", "feature")
    _git(repo, *merge_args, when="2026-06-24T10:00:00Z")
    merge = _git(repo, "rev-parse", "HEAD")
    (files,) = files_with_patches(repo, [merge]).values()
    assert [(f.filename, f.status, f.additions) for f in files] == [
        ("widgets/store.py", "added", 2)
    ]
    out, _ = _digest(capsys, "--git", str(repo), "--day", "2026-06-24")
    assert "`WidgetStore`" in out


def test_a_merge_counts_the_authors_of_what_it_brings(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # humanize 31acb37 "Handle en_GB and en_US locale (#230)": a merge button pressed by
    # one maintainer lands two people's commits; the day read "1 contributor"
    _git(repo, "checkout", "-q", "-b", "feature")
    _write(repo, "widgets/store.py", "class WidgetStore:\n    pass\n")
    _commit(repo, "Add a store", when="2026-06-24T08:00:00Z", author="Grace")
    _write(repo, "widgets/store.py", "class WidgetStore:\n    size = 0\n")
    _commit(repo, "Size the store", when="2026-06-24T09:00:00Z", author="Linus")
    _git(repo, "checkout", "-q", "main")
    merge_args = ("merge", "-q", "--no-ff", "-m", "Merge branch 'feature'", "feature")
    _git(repo, *merge_args, when="2026-06-24T10:00:00Z")
    out, _ = _digest(capsys, "--git", str(repo), "--day", "2026-06-24")
    assert "**1 commit**" in out
    assert "· 3 contributors" in out
    # counted, never named (nor pinged)
    assert "Grace" not in out and "Linus" not in out and "@" not in out.split("\n---\n")[0]


def test_online_a_merge_push_counts_the_same_contributors() -> None:
    """Online, the push payload of a merge lists the commits it brings (`commits[]`, each
    with its `author`), each stored as a row of its own: the header counts the same three as
    the offline digest of the same merge."""
    payload = webhook_payload("push/payload")
    people = [("Grace", "grace"), ("Linus", "linus"), ("Ada", "ada")]
    titles = ["Add a store", "Size the store", "Merge pull request #7 from grace/feature"]
    payload["commits"] = [
        {
            "id": f"{i + 1:040x}",
            "message": title,
            "timestamp": "2026-06-24T10:00:00Z",
            "url": f"https://github.com/acme/widgets/commit/{i + 1:040x}",
            "author": {"name": name, "email": f"{login}@example.com", "username": login},
        }
        for i, ((name, login), title) in enumerate(zip(people, titles, strict=True))
    ]
    push = PushEvent.model_validate(payload)
    landed = datetime(2026, 6, 24, 10, tzinfo=UTC)
    rows = [
        DayCommit(
            sha=c.id,
            title=c.title,
            message=c.message,
            url=c.url,
            author_name=c.author.name,
            author_login=c.author.username,
            landed_at=landed,
            state="pending",
            last_error=None,
            details=None,
            published_part=None,
            analysis=None,
            fallback_reason=None,
        )
        for c in push.commits
    ]
    config = default_config()
    shown, _ = shown_commits(config, rows)
    digest = Digest(
        repo="acme/widgets",
        day=date(2026, 6, 24),
        language="en",
        timezone="UTC",
        cutoff=time(0, 0),
        title="Daily digest",
        commits=tuple(shown),
    )
    header = render(digest)[0].body
    assert "· 3 contributors" in header
    assert "@grace" not in header and "@linus" not in header


def test_one_git_log_reads_what_each_commit_read_alone_reads(repo: Path) -> None:
    _git(repo, "mv", "docs/guide.md", "docs/manual.md")
    _write(repo, "docs/manual.md", "# Guide\n\nHow to use widgets.\nAnd more.\n")
    (repo / "widgets" / "logo.png").write_bytes(bytes(range(256)))
    _commit(repo, "Rename the guide, add a logo", when="2026-06-23T10:00:00Z")
    (repo / "widgets" / "api.py").unlink()
    _commit(repo, "Drop the API", when="2026-06-23T11:00:00Z")
    _commit(repo, "An empty commit", when="2026-06-23T12:00:00Z")
    shas = _git(repo, "rev-list", "--reverse", "HEAD").split()
    together = files_with_patches(repo, shas)
    for sha in shas:
        alone = files_of(repo, sha, with_patches=True)
        key = sorted(alone, key=lambda f: f.filename)
        assert sorted(together[sha], key=lambda f: f.filename) == key, sha
    renamed = {f.filename: f for f in together[shas[3]]}
    assert renamed["docs/manual.md"].status == "renamed"
    assert renamed["docs/manual.md"].previous_filename == "docs/guide.md"
    assert renamed["widgets/logo.png"].patch is None
    assert together[shas[4]][0].status == "removed"
    assert together[shas[5]] == []


def test_a_path_git_quotes_is_read_on_its_own(repo: Path) -> None:
    _write(repo, 'odd "name"\tfile.py', "def quoted_name():\n    pass\n")
    sha = _commit(repo, "An odd file name", when="2026-06-23T10:00:00Z")
    (files,) = files_with_patches(repo, [sha]).values()
    assert [f.filename for f in files] == ['odd "name"\tfile.py']
    assert files[0].additions == 2


def test_no_patch_past_githubs_diff_limit_of_a_file(repo: Path) -> None:
    # GitHub shows (and its API gives) no diff of a file over 20,000 lines or 500 KB.
    _write(repo, "data/big.txt", "".join(f"row {i}\n" for i in range(20_001)))
    _write(repo, "data/wide.txt", ("x" * 1_000 + "\n") * 600)
    _write(repo, "data/small.txt", "".join(f"row {i}\n" for i in range(19_000)))
    sha = _commit(repo, "Add data", when="2026-06-23T10:00:00Z")
    (files,) = files_with_patches(repo, [sha]).values()
    by_name = {f.filename: f for f in files}
    assert by_name["data/big.txt"].patch is None and by_name["data/big.txt"].additions == 20_001
    assert by_name["data/wide.txt"].patch is None
    assert by_name["data/small.txt"].patch is not None


# --- the clone's config ------------------------------------------------------------------


def test_the_file_at_the_branch_tip_sets_zone_language_title_and_exclude(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _config(
        repo,
        "timezone: Asia/Shanghai\nlanguage: zh-CN\n"
        'publish:\n  title: "Widgets on {date}"\nexclude:\n  authors: [Bot Writer]\n',
    )
    out, _ = _digest(capsys, "--git", str(repo), "--day", "2026-06-23")
    # 20:00 UTC on 06-22 is 04:00 on 06-23 in Shanghai; its author is excluded, so only the
    # config commit (05:00 in Shanghai) is listed.
    assert "## Widgets on 2026-06-23" in out
    assert "Configure the digest" in out and "Write the guide" not in out
    assert "本日共 1 个提交" in out
    footer = _footer(out)
    assert "时间为 Asia/Shanghai 时间" in footer
    assert "按 `.github/commit-digest.yml` 排除的提交（1）：按作者 1。" in footer
    assert (
        "设置：时区、语言、排除规则、标题来自 `main` 上的 `.github/commit-digest.yml`；"
        "截止时间为默认值。"
    ) in footer


def test_flags_override_the_file(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _config(repo, 'timezone: Asia/Shanghai\nlanguage: zh-CN\ncutoff: "09:00"\n')
    out, _ = _digest(
        capsys, "--git", str(repo), "--day", "2026-06-23", "--tz", "UTC", "--lang", "en"
    )
    # The day 06-23 ends at 09:00 UTC: it holds the commits of 06-22 from 10:00 on.
    assert "Small tidy-up" in out and "Write the guide" in out and "Configure" in out
    assert "Times are in UTC; the day ends at 09:00." in out
    assert (
        "Settings: cutoff from `.github/commit-digest.yml` at `main`; "
        "zone, language from the command line; exclude, title by default."
    ) in _footer(out)
    out, _ = _digest(capsys, "--git", str(repo), "--day", "2026-06-22", "--cutoff", "00:00")
    assert "时间为 Asia/Shanghai 时间；每日截止于 00:00。" in out
    assert "截止时间来自命令行" in out


def test_a_file_only_in_the_work_tree_or_on_another_branch_is_not_read(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _write(repo, ".github/commit-digest.yml", "language: zh-CN\n")  # not committed
    out, _ = _digest(capsys, "--git", str(repo), "--day", "2026-06-22")
    assert "Daily digest" in out
    assert "by default; there is no `.github/commit-digest.yml` at `main`." in out
    _git(repo, "checkout", "-q", "-b", "other")
    _commit(repo, "Chinese digests", when="2026-06-22T21:00:00Z")
    out, _ = _digest(capsys, "--git", str(repo), "--day", "2026-06-22", "--branch", "other")
    assert "每日更新报告" in out and "语言来自 `other` 上的 `.github/commit-digest.yml`" in out
    # The tip of main, not what is checked out, is read for main.
    out, _ = _digest(capsys, "--git", str(repo), "--day", "2026-06-22", "--branch", "main")
    assert "Daily digest" in out


def test_a_rejected_file_is_one_line_and_the_defaults(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _config(repo, "timezone: Mars/Olympus\nlanguage: zh-CN\n")
    out, err = _digest(capsys, "--git", str(repo), "--day", "2026-06-22")
    (warning,) = [line for line in err.splitlines() if "commit-digest.yml" in line]
    assert "`timezone`" in warning and "Mars/Olympus" in warning
    assert "using the defaults" in warning
    assert "Daily digest" in out and "Times are in UTC" in out
    footer = _footer(out)
    assert "was rejected, so the defaults stand in for it" in footer
    # The line names the file once.
    (line,) = [x for x in footer.splitlines() if "was rejected" in x]
    assert line.count("commit-digest.yml") == 1 and "Mars/Olympus" in line
    _config(repo, "timezone: [unclosed\n", when="2026-06-22T22:00:00Z")
    out, err = _digest(capsys, "--git", str(repo), "--day", "2026-06-22")
    assert "YAML syntax error" in err and "Times are in UTC" in out


def test_an_empty_day_still_says_where_its_settings_came_from(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out, _ = _digest(capsys, "--git", str(repo), "--day", "2026-06-21", "--lang", "en")
    assert "No commits landed on 2026-06-21." in out
    assert "language from the command line" in out


# --- the week --------------------------------------------------------------------------------


def test_week_prints_the_weekly_roll_up_of_the_clone(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _config(repo, "weekly:\n  weekday: wednesday\n")
    out, err = _digest(capsys, "--git", str(repo), "--week", "2026-06-22")
    # Weeks end at Wednesday's cutoff: Wednesday 06-17 to Tuesday 06-23 (UTC days).
    assert "<!-- commit-digest:acme/widgets:week-2026-06-17:part-1 -->" in out
    assert "2026-06-17" in out and "2026-06-23" in out
    counts = re.search(r"\| Commits \| (\d+) \| (\S+) \|", out)
    assert counts is not None and counts.groups() == ("4", "0")
    assert "`Ada` (3)" in out and "`Bot Writer` (1)" in out
    assert "not posted" not in out and "no commit was analysed again" not in out
    assert "Settings: weekly from `.github/commit-digest.yml` at `main`; zone," in out
    assert "4 commits of the week 2026-06-17 to 2026-06-23 in acme/widgets" in err
    # The same Mermaid chart as the posted roll-up: the four commits on their days.
    [chart] = [parse_xychart(source) for source in mermaid_blocks(out)]
    assert sum(chart.bars[0]) == 4
    _write(repo, "widgets/api.py", "def old():\n    return 2\n")
    _commit(repo, "Return two", when="2026-06-25T10:00:00Z")
    out, _ = _digest(capsys, "--git", str(repo), "--week", "2026-06-30")
    # The next week holds one commit, and is compared with this one.
    assert "week-2026-06-24" in out and "| Commits | 1 | 4 | −3 |" in out


def test_week_and_day_do_not_go_together(capsys: pytest.CaptureFixture[str], repo: Path) -> None:
    with pytest.raises(SystemExit):
        main(["digest", "--git", str(repo), "--day", "2026-06-22", "--week", "2026-06-22"])
    assert "not allowed with argument" in capsys.readouterr().err
    assert main(["digest", "--git", str(repo), "--week", "22/06/2026"]) == 2
    assert "--week must be YYYY-MM-DD" in capsys.readouterr().err


async def test_a_commit_the_analyser_fails_on_is_listed_not_analysed(repo: Path) -> None:
    class Failing(RulesAnalyzer):
        async def analyze(self, commit: CommitInput, *, language: str) -> AnalysisResult:
            if commit.title.startswith("Small tidy-up"):
                raise ValueError("a description over 300 characters")
            return await super().analyze(commit, language=language)

    digest, parts = await offline_digest(repo, Failing(), day=date(2026, 6, 22))
    by_title = {c.title: c for c in digest.commits}
    assert by_title["Small tidy-up (#12)"].analysis is None
    assert by_title["Small tidy-up (#12)"].not_analysed == "analysis failed: ValueError"
    assert by_title["Write the guide (#13)"].analysis is not None
    assert "analysis failed: ValueError" in parts[-1].body


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--cutoff", "25:00"], "--cutoff must be HH:MM on a 24-hour clock"),
        (["--tz", "Mars/Olympus"], "--tz must be an IANA time zone"),
    ],
)
def test_a_bad_flag_is_one_line(
    repo: Path, capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    assert main(["digest", "--git", str(repo), *args]) == 2
    err = capsys.readouterr().err.strip()
    assert message in err and "\n" not in err


# --- a period not over yet -------------------------------------------------------------------


async def test_a_day_not_over_says_it_holds_the_commits_so_far(repo: Path) -> None:
    config = default_config()
    sources = SettingsSources("main", {"timezone": "default"})
    during = datetime(2026, 6, 22, 15, 30, tzinfo=UTC)
    _, parts = await offline_digest(
        repo, RulesAnalyzer(), day=date(2026, 6, 22), settings_from=sources, now=during
    )
    assert "Not over yet: this holds the commits up to 2026-06-22 15:30 UTC" in parts[-1].body
    after = datetime(2026, 6, 23, 0, 0, tzinfo=UTC)
    _, parts = await offline_digest(
        repo,
        RulesAnalyzer(),
        day=date(2026, 6, 22),
        config=config,
        settings_from=sources,
        now=after,
    )
    assert "Not over yet" not in parts[-1].body


async def test_a_week_not_over_shows_its_days_to_come_as_such(repo: Path) -> None:
    config = default_config()
    sources = SettingsSources("main", {"weekly": "default"})
    # Tuesday 2026-06-23, 08:00 UTC: the week of Monday 06-22 has begun, the days after today
    # have not.
    now = datetime(2026, 6, 23, 8, 0, tzinfo=UTC)
    post, _ = await offline_week(
        repo,
        RulesAnalyzer(),
        Narrator(None),
        branch="main",
        day=date(2026, 6, 22),
        config=config,
        settings_from=sources,
        now=now,
    )
    assert "(2026-06-24): still to come" in post.body
    assert "(2026-06-28): still to come" in post.body
    assert "(2026-06-23): still to come" not in post.body
    assert "Not over yet: this holds the commits up to 2026-06-23 08:00 UTC" in post.body
