"""A change proven internal (no public name, signature or default changes; no fix claimed) is
low and says so, and the claims checker verifies the sentence with its own reading: shaped
like structlog 19ad6c7e ("dev: refactor column re-creation"), pluggy eb70fb9b ("expand test
coverage and drop dead code for wrappers") and multidict 99e3f3b3 ("Drop _Impl helper class,
move all logic to MultiDict itself"), built as clones."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.cli.claim_check import Verdict
from bot.cli.claims import Kind
from tests.clones import second_commit, verdicts_of

pytestmark = pytest.mark.usefixtures("environ_clean", "keep_test_logging")


def test_the_checker_reads_the_surface_itself(tmp_path: Path) -> None:
    root, commit = second_commit(
        tmp_path,
        {"pkg/api.py": "def run(x):\n    return _go(x)\n\n\ndef _go(x):\n    return x\n"},
        {"pkg/api.py": "def run(x, y=1):\n    return _go(x)\n\n\ndef _go(x):\n    return -x\n"},
        "refactor",
    )
    said = "no public name, signature or default changes in `pkg/api.py`."
    assert verdicts_of(root, commit.sha, f"Internal only: {said}") == [
        (Kind.INTERNAL, Verdict.FALSE)
    ]
    assert verdicts_of(
        root, commit.sha, f"Internal only: changes only the private `_go`; {said}"
    ) == [(Kind.INTERNAL, Verdict.FALSE), (Kind.PRIVATE_ONLY, Verdict.FALSE)]
    assert verdicts_of(root, commit.sha, "Internal only: " + said.replace("api", "gone")) == [
        (Kind.INTERNAL, Verdict.FALSE)
    ]
