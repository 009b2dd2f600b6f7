"""A branch's merge is told by what its net change proves (issue 27, backoff 31d973f "Merge
branch 'add-exception-to-details'"): the keyword its calls of the handlers now pass, read in
a decorator's wrapper too; "Lands the branch" only where nothing else can be said."""

from __future__ import annotations

from pathlib import Path

from bot.analysis.rules import analyze
from bot.analysis.signals import read_signals
from bot.analysis.titles import merged_message
from bot.cli.claim_check import Verdict
from bot.cli.claims import Kind
from bot.cli.evaluation import git_history
from bot.models import Analysis, CommitInput
from tests.clones import _git, commit_files, verdicts_of

# backoff's shape: `retry_exception` returns a wrapper whose calls of `_call_handlers` hand
# each handler a `details` dict built from the keywords (`**details`, then `exception=e`).
_RETRY = (
    "import functools\n\n\n"
    "def _call_handlers(hdlrs, target, **extra):\n"
    "    details = {'target': target}\n"
    "    details.update(extra)\n"
    "    for hdlr in hdlrs:\n"
    "        hdlr(details)\n\n\n"
    "def retry_exception(target, exception, on_backoff, on_giveup, tries):\n"
    "    @functools.wraps(target)\n"
    "    def retry(*args, **kwargs):\n"
    "        details = {'args': args, 'kwargs': kwargs}\n"
    "        for attempt in range(tries):\n"
    "            try:\n"
    "                return target(*args, **kwargs)\n"
    "            except exception as e:\n"
    "                if attempt == tries - 1:\n"
    "                    _call_handlers(on_giveup, target, **details{giveup})\n"
    "                    raise\n"
    "                _call_handlers(on_backoff, target, **details,\n"
    "                               wait=attempt{backoff})\n"
    "        return None\n\n"
    "    return retry\n"
)
_TEST = (
    "from pkg._sync import retry_exception\n\n\n"
    "def test_handlers_get_the_exception():\n"
    "    seen = []\n\n"
    "    def boom():\n"
    "        raise ValueError('x')\n\n"
    "    wrapped = retry_exception(boom, ValueError, [seen.append], [seen.append], 2)\n"
    "    try:\n"
    "        wrapped()\n"
    "    except ValueError:\n"
    "        pass\n"
    "    assert all(isinstance(d['exception'], ValueError) for d in seen)\n"
)
_README = (
    "Event handlers\n--------------\n\n"
    "Each handler is called with a ``details`` dict: the target, its args and kwargs.\n"
)
_README_MORE = _README + (
    "In the case of ``retry_exception``, the exception is also available at the\n"
    "*exception* key in the ``details`` dict passed to the handlers.\n"
)


def _merged(
    tmp_path: Path, base: dict[str, str | None], branch: dict[str, str | None]
) -> tuple[Path, CommitInput, Analysis]:
    """A real `--no-ff` merge of branch `add-exception-to-details` (holding `branch`'s files)
    into `main` (holding `base`'s), read as `digest --git` reads a first-parent merge, with
    the rules' analysis of it."""
    root = tmp_path / "repo"
    root.mkdir()
    _git(root, "init", "-q", "-b", "main")
    commit_files(root, base, "Initial layout")
    _git(root, "checkout", "-q", "-b", "add-exception-to-details")
    commit_files(root, branch, "Add exception field to details")
    _git(root, "checkout", "-q", "main")
    _git(
        root,
        "merge",
        "-q",
        "--no-ff",
        "add-exception-to-details",
        "-m",
        "Merge branch 'add-exception-to-details'",
    )
    commits = [c for _, c in git_history(root, merges=True) if c.parents > 1]
    assert len(commits) == 1
    return root, commits[0], analyze(commits[0])


def _passed(commit: CommitInput) -> list[tuple[str, str, str, str, str | None]]:
    """The keywords the merge's facts say its functions' calls now pass (or pass no more)."""
    landed = merged_message(commit.message)
    sig = read_signals(commit.model_copy(update={"message": landed or commit.message}))
    return sorted((k.path, k.name, k.callee, k.arg, k.now) for k in sig.facts.keywords_changed)


def _retry(giveup: str = "", backoff: str = "") -> str:
    return _RETRY.replace("{giveup}", giveup).replace("{backoff}", backoff)


def _both(giveup: str = "", backoff: str = "") -> dict[str, str | None]:
    """The sync module and its async twin (as backoff's `_sync.py` and `_async.py`)."""
    written = _retry(giveup, backoff)
    sync = written.replace("{pad}", " " * 31)
    twin = (
        written.replace("{pad}", " " * 37)
        .replace("def _call_handlers", "async def _call_handlers")
        .replace("        hdlr(details)", "        await hdlr(details)")
        .replace("    def retry(", "    async def retry(")
        .replace("return target(", "return await target(")
        .replace("_call_handlers(on_", "await _call_handlers(on_")
        .replace(
            "                               wait=", "                                     wait="
        )
    )
    return {"pkg/_sync.py": sync, "pkg/_async.py": twin}


def test_a_merge_says_the_keyword_its_handlers_calls_now_pass(tmp_path: Path) -> None:
    root, commit, analysis = _merged(
        tmp_path,
        {"pkg/__init__.py": "", **_both(), "README.rst": _README},
        {
            **_both(giveup=", exception=e", backoff=",\n{pad}exception=e"),
            "tests/test_retry.py": _TEST,
            "README.rst": _README_MORE,
        },
    )
    # (a medium entry, as backoff's was: its whole entry is read)
    assert analysis.importance.value == "medium", analysis
    assert "Lands the branch" not in analysis.summary
    assert "`retry_exception`" in analysis.summary
    assert "now passes `exception=e` to `_call_handlers`" in analysis.summary
    assert _passed(commit) == [
        ("pkg/_async.py", "retry_exception", "_call_handlers", "exception", "e"),
        ("pkg/_sync.py", "retry_exception", "_call_handlers", "exception", "e"),
    ]
    # the checker, reading the clone, finds the claim true (the wrapper's calls are its)
    assert verdicts_of(root, commit.sha, analysis.summary) == [(Kind.PASSES, Verdict.TRUE)]
    # and a keyword the branch did not add, or a callee it did not pass it, is false
    for false in (
        "`retry_exception` now passes `exception=exc` to `_call_handlers`.",
        "`retry_exception` now passes `wait=attempt` to `_call_handlers`.",
    ):
        assert verdicts_of(root, commit.sha, false) == [(Kind.PASSES, Verdict.FALSE)], false


def test_a_keyword_some_call_passed_already_is_not_said_new(tmp_path: Path) -> None:
    # the give-up call passed `exception=e` at the parent: the branch only spreads it
    _, commit, analysis = _merged(
        tmp_path,
        {"pkg/__init__.py": "", **_both(giveup=", exception=e"), "README.rst": _README},
        {
            **_both(giveup=", exception=e", backoff=",\n{pad}exception=e"),
            "README.rst": _README_MORE,
        },
    )
    assert _passed(commit) == []
    assert "now passes `exception=e`" not in analysis.summary


def test_calls_changed_beyond_one_keyword_are_not_said_to_pass_it(tmp_path: Path) -> None:
    # the back-off call's other keyword changed too: more than a keyword gained
    changed = {
        path: text.replace("wait=attempt", "wait=attempt + 1") if text else text
        for path, text in _both(giveup=", exception=e", backoff=",\n{pad}exception=e").items()
    }
    _, commit, analysis = _merged(
        tmp_path,
        {"pkg/__init__.py": "", **_both(), "README.rst": _README},
        {**changed, "README.rst": _README_MORE},
    )
    assert analysis.importance.value == "medium"
    assert _passed(commit) == []
    assert "now passes `exception=e`" not in analysis.summary


def test_a_merge_with_nothing_to_say_still_lands_its_branch(tmp_path: Path) -> None:
    # only comments: no fact of the code, whatever its size
    _, _, analysis = _merged(
        tmp_path,
        {"pkg/__init__.py": "", **_both()},
        {
            path: (text or "").replace(
                "    return retry\n", "    # the wrapper\n    return retry\n"
            )
            for path, text in _both().items()
        },
    )
    assert analysis.summary == "Lands the branch `add-exception-to-details`."
