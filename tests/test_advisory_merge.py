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


def _squashed(tmp_path: Path, after: dict[str, str], title: str) -> tuple[Path, str, Analysis]:
    """The advisory's fork squashed onto main: one parent, the fork's commits in its body."""
    root = tmp_path / "repo"
    root.mkdir()
    _git(root, "init", "-q", "-b", "main")
    commit_files(root, {"pkg/__init__.py": _BEFORE, "tests/test_parse.py": "x = 1\n"}, "Initial")
    message = f"{title}\n\n* Fix inefficient pattern\n\nFound by @someone\n\n* Fix lint"
    sha = commit_files(root, after, message)
    (_, commit), *_ = git_history(root, branch="HEAD~1..HEAD")
    assert commit.parents == 1
    return root, sha, analyze(commit)


# soupsieve eb43976's shape: a pattern constant whose quoted group loses its inner `+`
_PATTERN_BEFORE = 'VALUE = r\'(?:"(?:\\\\.|[^\\\\"]+)*?")\'\nATTR = f"={VALUE}"\n'
_PATTERN_AFTER = _PATTERN_BEFORE.replace("]+)*?", "])*?")


def test_a_squashed_advisory_merge_of_shipped_code_is_a_security_fix(tmp_path: Path) -> None:
    root, sha, analysis = _squashed(tmp_path, {"pkg/__init__.py": _AFTER}, "Merge commit from fork")
    assert analysis.change_types[0] is ChangeType.SECURITY
    assert analysis.importance is Importance.HIGH
    assert analysis.summary == _SAID
    assert verdicts_of(root, sha, analysis.summary) == [(Kind.ADVISORY, Verdict.TRUE)]


def test_a_squashed_advisory_merge_unnesting_a_pattern_says_which(tmp_path: Path) -> None:
    root = tmp_path / "repo"
    root.mkdir()
    _git(root, "init", "-q", "-b", "main")
    commit_files(root, {"pkg/css.py": _PATTERN_BEFORE}, "Initial")
    sha = commit_files(root, {"pkg/css.py": _PATTERN_AFTER}, "Merge commit from fork\n\n* Fix")
    (_, commit), *_ = git_history(root, branch="HEAD~1..HEAD")
    analysis = analyze(commit)
    # no `re.compile` changed, no bound, no check: the nested repeat gone is what guards
    assert analysis.importance is Importance.HIGH
    assert analysis.change_types[0] is ChangeType.SECURITY
    assert analysis.insights is not None and analysis.insights.security is not None
    said = "It takes a nested repeat (`+)*`) out of the pattern `VALUE` (`pkg/css.py`)."
    assert analysis.insights.security.startswith(said)
    assert verdicts_of(root, sha, analysis.summary) == [(Kind.ADVISORY, Verdict.TRUE)]


def test_a_pattern_keeping_its_nested_repeat_is_not_said_unnested(tmp_path: Path) -> None:
    # the same constant, only renamed inside: the repeat stays nested
    kept = _PATTERN_BEFORE.replace("VALUE", "QUOTED")
    root = tmp_path / "repo"
    root.mkdir()
    _git(root, "init", "-q", "-b", "main")
    commit_files(root, {"pkg/css.py": _PATTERN_BEFORE}, "Initial")
    commit_files(root, {"pkg/css.py": kept}, "Merge commit from fork")
    (_, commit), *_ = git_history(root, branch="HEAD~1..HEAD")
    analysis = analyze(commit)
    assert analysis.importance is not Importance.HIGH
    assert "nested repeat" not in str(analysis.insights)


def test_a_squashed_advisory_title_on_tests_alone_is_no_security_fix(tmp_path: Path) -> None:
    root, sha, analysis = _squashed(
        tmp_path, {"tests/test_parse.py": "x = 2\n"}, "Merge commit from fork"
    )
    assert analysis.summary != _SAID
    assert ChangeType.SECURITY not in analysis.change_types
    # the checker reads the changed paths: one parent and no shipped code is no advisory's
    assert verdicts_of(root, sha, _SAID) == [(Kind.ADVISORY, Verdict.FALSE)]


def test_another_title_on_a_commit_of_one_parent_is_no_advisory(tmp_path: Path) -> None:
    root, sha, analysis = _squashed(tmp_path, {"pkg/__init__.py": _AFTER}, "Avoid backtracking")
    assert analysis.summary != _SAID
    assert verdicts_of(root, sha, _SAID) == [(Kind.ADVISORY, Verdict.FALSE)]
