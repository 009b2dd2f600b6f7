"""What a new user meets when running the tests from a clean clone."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path


def test_tests_without_the_reference_material_say_where_it_was_looked_for(tmp_path: Path) -> None:
    missing = tmp_path / "shared"
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests/test_days.py"],
        cwd=Path(__file__).parent.parent,
        env={**os.environ, "COMMIT_DIGEST_SHARED": str(missing)},
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 4
    assert f"the reference material is not in {missing}" in done.stdout + done.stderr
    assert "COMMIT_DIGEST_SHARED" in done.stdout + done.stderr
