"""`IOError`, `EnvironmentError` and `socket.error` are `OSError` in Python 3: a raise or an
`except` that swaps one for another changes nothing a caller meets."""

from __future__ import annotations

from pathlib import Path

from bot.analysis.rules import analyze
from tests.clones import second_commit

# boltons 675afd8's shape (pyupgrade --py3-plus): `raise IOError` → `raise OSError`,
# `except socket.error` → `except OSError`
BEFORE = (
    "import socket\n\n\nclass Spooled:\n    def truncate(self, size=None):\n"
    "        if size is not None and size < 0:\n"
    '            raise IOError("Invalid negative size: %d" % size)\n'
    "        return size\n\n\ndef send(sock, data):\n    try:\n"
    "        return sock.send(data)\n    except socket.error:\n        return 0\n\n\n"
    "def load(path):\n    try:\n        return open(path).read()\n"
    "    except EnvironmentError:\n        return ''\n"
)
AFTER = (
    BEFORE.replace("raise IOError", "raise OSError")
    .replace("except socket.error", "except OSError")
    .replace("except EnvironmentError", "except OSError")
)


def test_a_renamed_builtin_exception_of_the_same_class_is_no_change(tmp_path: Path) -> None:
    _, commit = second_commit(
        tmp_path,
        {"spool/io.py": BEFORE},
        {"spool/io.py": AFTER},
        "Upgrade Python syntax with pyupgrade --py3-plus",
    )
    analysis = analyze(commit)
    said = analysis.model_dump_json()
    assert "OSError" not in said and "IOError" not in said, said
