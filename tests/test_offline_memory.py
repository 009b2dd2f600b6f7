"""Offline, a patch over GitHub's limits is never read whole: a commit adding a 50 MB file
costs the digest far less than 250 MB, and the commit's other patches are still read."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from bot.cli.clone import files_with_patches
from bot.cli.clone_files import MAX_PATCH_BYTES
from tests.clones import _git

pytestmark = pytest.mark.slow

WHEN = "2026-06-22T10:00:00Z"
# The peak is the process's own high-water mark (VmHWM, KiB), not `ru_maxrss`: Linux keeps
# `ru_maxrss` across exec, so a child of a large pytest worker would report the worker's size.
MEASURE = """
import re, sys
from bot.__main__ import main
code = main(["digest", "--git", sys.argv[1], "--day", "2026-06-22"])
with open("/proc/self/status") as status:
    peak_kb = re.search(r"VmHWM:\\s*(\\d+) kB", status.read()).group(1)
print("PEAK", peak_kb, "CODE", code, file=sys.stderr)
"""


@pytest.fixture(scope="module")
def huge(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """A clone whose one commit of the day adds a 50 MB text file beside a small source
    change (`compute_checksum`)."""
    root = tmp_path_factory.mktemp("huge") / "widgets"
    root.mkdir()
    _git(root, "init", "-q", "-b", "main")
    (root / "api.py").write_text("def old():\n    return 1\n")
    _git(root, "add", "-A")
    _git(root, "commit", "-q", "-m", "Initial layout")
    line = "x" * 99 + "\n"
    with (root / "data.csv").open("w") as out:
        for _ in range(50 * 1024 * 1024 // len(line)):
            out.write(line)
    (root / "api.py").write_text(
        "def old():\n    return 1\n\n\ndef compute_checksum(data: bytes) -> int:\n"
        "    return sum(data) % 65536\n"
    )
    _git(root, "add", "-A")
    _git(root, "commit", "-q", "-m", "Add the checksum and its data (#12)")
    return root, _git(root, "rev-parse", "HEAD")


def test_the_huge_patch_is_left_out_and_the_small_one_read(huge: tuple[Path, str]) -> None:
    root, sha = huge
    (files,) = files_with_patches(root, [sha]).values()
    by_name = {f.filename: f for f in files}
    assert by_name["data.csv"].patch is None  # over GitHub's 500 KB: GitHub gives none
    assert by_name["data.csv"].additions > MAX_PATCH_BYTES // 100
    assert "compute_checksum" in (by_name["api.py"].patch or "")


def test_the_offline_digest_of_a_50_mb_commit_stays_under_250_mb(huge: tuple[Path, str]) -> None:
    root, _ = huge
    done = subprocess.run(
        [sys.executable, "-c", MEASURE, str(root)],
        capture_output=True,
        text=True,
        check=False,
        cwd=Path(__file__).resolve().parent.parent,
        # A bare environment: nothing the suite's other tests set (an LLM, tracing) weighs in.
        env={k: os.environ[k] for k in ("PATH", "HOME", "LANG", "TMPDIR") if k in os.environ},
    )
    (line,) = [x for x in done.stderr.splitlines() if x.startswith("PEAK")]
    _, peak_kb, _, code = line.split()
    assert code == "0", done.stderr[-2000:]
    assert "compute_checksum" in done.stdout
    assert int(peak_kb) < 250 * 1024, f"peak {int(peak_kb) // 1024} MB: {done.stderr[-1500:]}"
