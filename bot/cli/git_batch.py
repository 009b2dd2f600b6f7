"""Objects of a local clone read through long-lived `git cat-file` processes, one question
at a time: a day's commits ask hundreds of blobs, and a process each would cost more than
reading them.

`--batch-check` answers a blob's id and size, so a blob over a bound is never read;
`--batch` answers its bytes. Each process starts when it is first asked and ends with
`close` (or the `with` block); one that fails is stopped, and the next question starts a
fresh one.
"""

from __future__ import annotations

import contextlib
import subprocess
from collections.abc import Callable
from pathlib import Path
from types import TracebackType
from typing import IO, TypeVar

T = TypeVar("T")


class CatFile:
    """A clone's `git cat-file --batch-check` and `--batch` processes."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._procs: dict[str, subprocess.Popen[bytes]] = {}

    def __enter__(self) -> CatFile:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.close()

    def close(self) -> None:
        """End the processes (git ends at the end of its input)."""
        for mode in list(self._procs):
            self._stop(mode, kill=False)

    def info(self, name: str) -> tuple[str, str, int] | None:
        """(object id, type, size) of an object name (`REV:path`, an id); None where git has
        no such object (`<name> missing`, `ambiguous`) or the name cannot be asked (a line
        break in it)."""
        if "\n" in name:
            return None
        return self._ask("--batch-check", name, lambda out: _header(out.readline()))

    def read(self, oid: str) -> tuple[str, bytes] | None:
        """(type, bytes) of an object; None where git has no such object."""
        if "\n" in oid:
            return None

        def answer(out: IO[bytes]) -> tuple[str, bytes] | None:
            found = _header(out.readline())
            if found is None:
                return None
            _, kind, size = found
            data = out.read(size + 1)
            if len(data) != size + 1:
                raise OSError("git cat-file --batch ended in the middle of an object")
            return kind, data[:size]

        return self._ask("--batch", oid, answer)

    def _ask(self, mode: str, name: str, answer: Callable[[IO[bytes]], T]) -> T:
        line = name.encode() + b"\n"  # (UnicodeEncodeError, a ValueError, before git is asked)
        proc = self._procs.get(mode) or self._start(mode)
        assert proc.stdin is not None and proc.stdout is not None
        try:
            proc.stdin.write(line)
            proc.stdin.flush()
            return answer(proc.stdout)
        except BaseException:
            # an answer half read leaves the next one out of step: start afresh
            self._stop(mode, kill=True)
            raise

    def _start(self, mode: str) -> subprocess.Popen[bytes]:
        proc = subprocess.Popen(
            ["git", "-C", str(self.path), "cat-file", mode],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
        )
        self._procs[mode] = proc
        return proc

    def _stop(self, mode: str, *, kill: bool) -> None:
        proc = self._procs.pop(mode)
        if kill:
            proc.kill()
        # (closing stdin is git's end of input; closing stdout too lets a killed or stuck
        # git end on a broken pipe)
        for stream in (proc.stdin, proc.stdout):
            if stream is not None:
                with contextlib.suppress(OSError):
                    stream.close()
        proc.wait()


def _header(line: bytes) -> tuple[str, str, int] | None:
    """`<oid> <type> <size>` as (oid, type, size); None for `<name> missing` and the like.
    OSError where git ended (no line at all)."""
    if not line.endswith(b"\n"):
        raise OSError("git cat-file ended")
    parts = line[:-1].split(b" ")
    if len(parts) != 3 or not parts[2].isdigit():
        return None
    return parts[0].decode("ascii", "replace"), parts[1].decode("ascii", "replace"), int(parts[2])
