"""The merge GitHub makes of a security advisory's temporary private fork ("Merge commit from
fork") is a security fix; high where its shipped code guards input; the claims checker
verifies the sentence from the commit's parents and title."""

from __future__ import annotations

from pathlib import Path

from bot.analysis.rules import analyze
from bot.cli.claim_check import Verdict
from bot.cli.claims import Kind
from bot.cli.evaluation import git_history
from bot.models import Analysis, ChangeType, Importance
from tests.clones import _git, commit_files, verdicts_of

_SAID = "A security advisory's fix (merged from its private fork)."
# a pattern that backtracks without end on a long run of digits, then one that does not,
# and a bound on the input's length (the shape of the ReDoS fixes advisories publish)
_BEFORE = (
    "import re\n\n"
    '_NUMBER = re.compile(r"(\\d+)+x")\n\n\n'
    "def parse(text: str) -> list[str]:\n"
    "    return _NUMBER.findall(text)\n"
)
_AFTER = (
    "import re\n\n"
    '_NUMBER = re.compile(r"\\d+x")\n'
    "MAX_LENGTH = 10000\n\n\n"
    "def parse(text: str) -> list[str]:\n"
    "    if len(text) > MAX_LENGTH:\n"
    '        raise ValueError("input too long")\n'
    "    return _NUMBER.findall(text)\n"
)
# the same file with only its docstring reworded: no input guarded
_REWORDED = _BEFORE.replace(
    "def parse(text: str) -> list[str]:\n",
    'def parse(text: str) -> list[str]:\n    """Numbers."""\n',
)


def _merge(tmp_path: Path, after: dict[str, str], title: str) -> tuple[Path, str, Analysis]:
    root = tmp_path / "repo"
    root.mkdir()
    _git(root, "init", "-q", "-b", "main")
    commit_files(root, {"pkg/__init__.py": _BEFORE}, "Initial layout")
    _git(root, "checkout", "-q", "-b", "ghsa-xxxx")
    commit_files(root, after, "Avoid catastrophic backtracking")
    _git(root, "checkout", "-q", "main")
    _git(root, "merge", "-q", "--no-ff", "ghsa-xxxx", "-m", title)
    merges = [c for _, c in git_history(root, merges=True) if c.parents > 1]
    assert len(merges) == 1
    return root, merges[0].sha, analyze(merges[0])


def test_an_advisory_merge_changing_a_pattern_is_a_high_security_fix(tmp_path: Path) -> None:
    root, sha, analysis = _merge(tmp_path, {"pkg/__init__.py": _AFTER}, "Merge commit from fork")
    assert analysis.change_types[0] is ChangeType.SECURITY
    assert analysis.importance is Importance.HIGH
    assert analysis.summary == _SAID
    assert verdicts_of(root, sha, analysis.summary) == [(Kind.ADVISORY, Verdict.TRUE)]


def test_an_advisory_merge_guarding_nothing_is_not_high(tmp_path: Path) -> None:
    _, _, analysis = _merge(tmp_path, {"pkg/__init__.py": _REWORDED}, "Merge commit from fork")
    assert analysis.change_types[0] is ChangeType.SECURITY
    assert analysis.importance is not Importance.HIGH


def test_another_merge_title_is_no_advisory(tmp_path: Path) -> None:
    root, sha, analysis = _merge(
        tmp_path, {"pkg/__init__.py": _AFTER}, "Merge pull request #12 from ada/faster-parse"
    )
    assert analysis.summary != _SAID
    assert ChangeType.SECURITY not in analysis.change_types
    # the checker reads the title: this merge is no advisory's
    assert verdicts_of(root, sha, _SAID) == [(Kind.ADVISORY, Verdict.FALSE)]


def test_the_title_on_a_commit_of_one_parent_is_no_advisory(tmp_path: Path) -> None:
    root = tmp_path / "repo"
    root.mkdir()
    _git(root, "init", "-q", "-b", "main")
    commit_files(root, {"pkg/__init__.py": _BEFORE}, "Initial layout")
    sha = commit_files(root, {"pkg/__init__.py": _AFTER}, "Merge commit from fork")
    (_, commit), *_ = git_history(root, branch="HEAD~1..HEAD")
    assert analyze(commit).summary != _SAID
    assert verdicts_of(root, sha, _SAID) == [(Kind.ADVISORY, Verdict.FALSE)]
