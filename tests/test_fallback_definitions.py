"""A definition made only where an import fails is the fallback's, never the imported name's."""

from __future__ import annotations

from pathlib import Path

from bot.analysis.facts.fallbacks import fallbacks
from bot.cli.claim_check import Verdict
from tests.clones import checked_entry

# boltons urlutils' shape: `inet_pton` is socket's; the ctypes one only where that import fails
BEFORE = """import socket

try:
    from socket import inet_pton
except ImportError:
    import ctypes

    def inet_pton(address_family, ip_string):
        if address_family == socket.AF_INET:
            return ip_string
        raise socket.error("unknown address family")


def parse_host(host):
    try:
        inet_pton(socket.AF_INET, host)
    except (OSError, UnicodeEncodeError):
        return None
    return host
"""
AFTER = BEFORE.replace(
    'raise socket.error("unknown address family")',
    'raise ValueError("unknown address family: %r" % address_family)',
)


def test_a_fallback_definition_changes_as_the_fallback(tmp_path: Path) -> None:
    analysis, verdicts = checked_entry(
        tmp_path, {"net/urls.py": BEFORE}, {"net/urls.py": AFTER}, "Tidy up the url helpers"
    )
    said = analysis.model_dump_json()
    assert "The fallback `inet_pton` in `net/urls.py` may now raise `ValueError`" in said, said
    assert not analysis.summary.startswith("`inet_pton`"), said
    assert Verdict.FALSE not in verdicts, verdicts


def test_a_definition_before_a_later_import_of_its_name_is_a_fallback() -> None:
    text = (
        "def quote(s):\n    return s\n\n\ntry:\n    from ._speedups import quote\n"
        "except ImportError:\n    pass\n\n\ndef other():\n    return 1\n"
    )
    assert fallbacks(text) == {"quote"}
    assert fallbacks("def quote(s):\n    return s\n") == frozenset()


def test_a_fix_of_a_fallback_asks_for_the_fallbacks_test(tmp_path: Path) -> None:
    """prettytable 2606184: `init` is colorama's; the one a fix edits is only where it is
    missing."""
    before = (
        "try:\n    from colorama import init\nexcept ImportError:\n"
        "    # Do nothing if not installed\n    init = lambda: None\n\ninit()\n"
    )
    after = before.replace("    init = lambda: None\n", "    def init():\n        pass\n")
    analysis, verdicts = checked_entry(
        tmp_path,
        {"table/colors.py": before},
        {"table/colors.py": after},
        "fix: change init from lambda to function",
    )
    asked = " ".join(r.text for r in analysis.recommendations)
    assert "this fix of the fallback `init` in `table/colors.py`" in asked, asked
    assert Verdict.FALSE not in verdicts, verdicts
