"""Words on held-out aio-libs/aiohttp (first read at a375109): an intersphinx role quoted from
the changelog reads as the name it links; a clone shaped like the commit."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.cli.claims_eval import entry_text
from tests.clones import checked_entry

pytestmark = pytest.mark.usefixtures("environ_clean", "keep_test_logging")

_CHANGES = "=========\nChangelog\n=========\n\n{items}3.13.2 (2025-10-28)\n===================\n"
_ITEM = (
    "- Fixed a crash (:external+python:exc:`~http.cookies.CookieError`) in the cookie parser"
    " when receiving\n  cookies containing ASCII control characters -- by :user:`bdraco`.\n\n"
)
_COOKIES = "def parse_cookie_header(header):\n    return {}\n"


def test_an_intersphinx_role_reads_as_its_name(tmp_path: Path) -> None:
    # aiohttp edb2724 (its release notes) quoted "(:external+python`CookieError`)": a role
    # whose domain names an inventory (`external+python`) kept its domain as text
    analysis, _ = checked_entry(
        tmp_path,
        {"CHANGES.rst": _CHANGES.format(items=""), "aiohttp/_cookie_helpers.py": _COOKIES},
        {
            "CHANGES.rst": _CHANGES.format(items=_ITEM),
            "aiohttp/_cookie_helpers.py": _COOKIES.replace("{}", "dict(header=header)"),
        },
        "Fix cookie parser crash on control characters",
    )
    text = entry_text(analysis)
    assert "Fixed a crash (`CookieError`) in the cookie parser" in text
    assert "external" not in text
