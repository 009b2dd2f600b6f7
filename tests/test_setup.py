"""What a new user meets when running the tests from a clone and nothing else."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

from tests.support import ROOT

# One test of each kind of reference material: labels and replay days, GitHub's heading
# fixtures, and a day posted through the fake GitHub (its API description, GraphQL schema
# and example payloads).
SAMPLE = [
    "tests/test_golden.py",
    "tests/test_render.py::test_anchor_rules_match_githubs_fixtures",
    "tests/test_publish.py::test_the_day_is_posted_as_a_discussion_at_its_cutoff",
]


def _clone_files() -> list[str]:
    """The files a clone has: those git tracks, and new ones it does not ignore (so the test
    means the same before the work is committed)."""
    listed = subprocess.run(
        ["git", "ls-files", "--cached", "--others", "--exclude-standard", "-z"],
        cwd=ROOT,
        capture_output=True,
        check=True,
    ).stdout.decode()
    return [name for name in listed.split("\0") if name and (ROOT / name).is_file()]


def test_the_suite_runs_from_a_clone_alone(tmp_path: Path) -> None:
    # Nothing beside the copy: no ../shared, and no variable naming a place for it.
    clone = tmp_path / "alone" / "commit-digest"
    for name in _clone_files():
        (clone / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / name, clone / name)
    env = {k: v for k, v in os.environ.items() if not k.startswith("COMMIT_DIGEST_")}
    env.pop("TEST_DATABASE_URL", None)
    env["PYTHONPATH"] = str(clone)  # the copy's `bot` and `tests`, not the checkout's
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:xdist", *SAMPLE],
        cwd=clone,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert re.search(r"\b\d+ passed\b", done.stdout)
    assert " failed" not in done.stdout and " error" not in done.stdout


def test_nothing_reads_the_material_beside_the_clone() -> None:
    # The reference material comes with the clone (tests/reference/); a path out of the
    # repository in a test, a benchmark, the docs' generator or a command of RESULTS.md
    # would work on this project's machines only.
    outside = re.compile(r"\.\./shared|COMMIT_DIGEST_SHARED|parents?\[\d\]\s*/\s*\"shared\"")
    offenders = [
        name
        for name in _clone_files()
        if name.startswith(("tests/", "bench/", "docs/", "bot/", ".ci/"))
        and name.endswith((".py", ".md", "run"))
        and name != "tests/test_setup.py"
        and not name.startswith("tests/reference/")
        and outside.search((ROOT / name).read_text(encoding="utf-8", errors="replace"))
    ]
    assert offenders == []
