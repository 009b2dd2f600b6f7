"""Words on held-out aio-libs/aiohttp (first read at a375109): an intersphinx role quoted from
the changelog reads as the name it links; a clone shaped like the commit."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.cli.claim_check import Verdict
from bot.cli.claims_eval import entry_text
from bot.models import Importance
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


_PROTOCOL = (
    "import asyncio\n\n{errors}\n\nclass BaseProtocol(asyncio.Protocol):\n"
    "    def __init__(self):\n        self.transport = None\n\n"
    "    def pause_reading(self) -> None:\n"
    "        if self.transport is not None:\n"
    "            try:\n                self.transport.pause_reading()\n"
    "            except {caught}:\n                pass\n"
)


def test_a_tuple_of_exceptions_held_by_a_name_is_no_catch_lost(tmp_path: Path) -> None:
    # aiohttp 93a2b1c "Bound pipelined request queue per connection": "`pause_reading` no
    # longer catches `AttributeError`, `NotImplementedError` and 1 more", where the new
    # `PAUSE_RESUME_READING_ERRORS` is those three
    errors = "PAUSE_RESUME_READING_ERRORS = (AttributeError, NotImplementedError, RuntimeError)"
    analysis, _ = checked_entry(
        tmp_path,
        {
            "aiohttp/base_protocol.py": _PROTOCOL.format(
                errors="", caught="(AttributeError, NotImplementedError, RuntimeError)"
            )
        },
        {
            "aiohttp/base_protocol.py": _PROTOCOL.format(
                errors=errors, caught="PAUSE_RESUME_READING_ERRORS"
            )
        },
        "Bound pipelined request queue per connection (#12830)",
    )
    assert "catches" not in entry_text(analysis)


_PINS = "".join(
    f"{name}\n    # via -r requirements/doc.in\n"
    for name in (
        "markdown-it-py==3.0.0",
        "mdit-py-plugins==0.6.1",
        "myst-parser==4.0.1",
        "sphinxcontrib-mermaid==2.0.2",
    )
)


def test_docs_with_their_fragment_and_pins_ship_nothing(tmp_path: Path) -> None:
    # aiohttp 421eb60 "Render the threat model in the docs (#12615)": a `doc` fragment, the
    # contributors' list, the docs' requirement pins and the pip constraints file; it was
    # medium and said "Requires `markdown-it-py==3.0.0` …" as if users installed it
    before = {
        "CONTRIBUTORS.txt": "A. Author\n",
        "docs/index.rst": "aiohttp\n=======\n",
        "requirements/doc.txt": "sphinx==8.2.3\n",
        "requirements/constraints.txt": "sphinx==8.2.3\n",
        "aiohttp/__init__.py": '__version__ = "3.14.0"\n',
    }
    after = {
        "CHANGES/12549.doc.rst": "Added the threat model to the Sphinx documentation.\n",
        "CONTRIBUTORS.txt": "A. Author\nOmkar Kabde\n",
        "docs/index.rst": "aiohttp\n=======\n\n.. toctree::\n\n   threat_model\n",
        "docs/threat_model.md": "# Threat model\n\nWhat aiohttp defends against.\n",
        "requirements/doc.txt": _PINS + "sphinx==8.2.3\n",
        "requirements/constraints.txt": _PINS + "sphinx==8.2.3\n",
    }
    analysis, _ = checked_entry(tmp_path, before, after, "Render the threat model in the docs")
    assert analysis.importance is Importance.LOW
    assert "Requires" not in entry_text(analysis)


_RELEASE = (
    "3.13.3 (2026-06-01)\n===================\n\nBug fixes\n---------\n\n"
    "- Fixed a crash (:external+python:exc:`~http.cookies.CookieError`) in the cookie parser"
    " when receiving\n  cookies containing ASCII control characters -- by :user:`bdraco`.\n\n"
    "- Fixed the redirect of a request with a body -- by :user:`x`.\n\n"
    "- Fixed a leak of the connector on close -- by :user:`y`.\n\n"
    "- Fixed a race in the resolver -- by :user:`z`.\n\n\n"
)


def test_the_checker_reads_an_intersphinx_role_of_a_release_item_as_rendered(
    tmp_path: Path,
) -> None:
    # aiohttp edb2724 "Release 3.13.3": the release's lead item, said as rendered, was
    # refuted ("no new item says that"): the checker read the role's name as text too
    analysis, verdicts = checked_entry(
        tmp_path,
        {"CHANGES.rst": _CHANGES.format(items="")},
        {"CHANGES.rst": _CHANGES.format(items="").replace("3.13.2", _RELEASE + "3.13.2", 1)},
        "Release 3.13.3",
    )
    assert "“Fixed a crash (`CookieError`) in the cookie parser" in analysis.summary
    assert verdicts and all(v is Verdict.TRUE for v in verdicts)


def test_the_dev_tools_pins_are_not_what_the_package_requires(tmp_path: Path) -> None:
    # aiohttp 0a8c857 (speedups gain `aiofastnet`): "Requires … `aiohappyeyeballs==2.7.1`",
    # a pin new in `requirements/lint.txt` only; beside the package's own requirements the
    # dev tools' pins go unsaid, alone they are said as theirs (an extra's pin, here
    # `speedups`', is no requirement of the package's: the package's own is raised beside it)
    project = '[project]\nname = "aiohttp"\nversion = "3.15.0"\ndependencies = ["{own}"]\n\n'
    extras = "[project.optional-dependencies]\n"
    before = {
        "pyproject.toml": project.format(own="multidict>=4.5") + extras + 'speedups = ["Brotli"]\n',
        "requirements/lint.txt": "aiosignal==1.4.0\n",
    }
    after = {
        "pyproject.toml": project.format(own="multidict>=6.0")
        + extras
        + 'speedups = ["Brotli", "aiofastnet >= 0.19.0"]\n',
        "requirements/lint.txt": "aiohappyeyeballs==2.7.1\naiosignal==1.4.0\n",
    }
    analysis, _ = checked_entry(tmp_path / "both", before, after, "Add aiofastnet to speedups")
    text = entry_text(analysis)
    assert "`multidict>=6.0`" in text
    assert "aiohappyeyeballs" not in text
    assert "Requires `aiofastnet" not in text
    alone, _ = checked_entry(
        tmp_path / "alone",
        {"requirements/lint.txt": before["requirements/lint.txt"]},
        {"requirements/lint.txt": after["requirements/lint.txt"]},
        "Pin aiohappyeyeballs for the linters",
    )
    said = entry_text(alone)
    assert "The dev tools' requirement files pin `aiohappyeyeballs==2.7.1`" in said
    assert "Requires" not in said
