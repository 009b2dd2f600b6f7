"""What a shipped function now logs as a warning or an error, with its message: aiodns
c856d44 ("Fallback to `sock_state_cb` if `event_thread` creation fails") moved the channel's
creation into a new helper that catches the failure and logs why it falls back; its entry
said only that the dev tools pin `pytest-asyncio`. A clone shaped like the commit, every
sentence checked against it."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.cli.claim_check import Verdict
from bot.cli.claims import Kind
from bot.cli.claims_eval import entry_text
from tests.clones import checked_entry, second_commit, verdicts_of

pytestmark = pytest.mark.usefixtures("environ_clean", "keep_test_logging")

BEFORE = """import pycares


class DNSResolver:
    def __init__(self, loop=None, **kwargs):
        self.loop = loop
        self._timeout = kwargs.pop("timeout", None)
        if pycares.ares_threadsafety():
            self._channel = pycares.Channel(event_thread=True, timeout=self._timeout)
        else:
            self._channel = pycares.Channel(sock_state_cb=self._cb, timeout=self._timeout)

    def _cb(self, fd, readable, writable):
        pass
"""

AFTER = """import logging
import sys

import pycares

_LOGGER = logging.getLogger(__name__)


class DNSResolver:
    def __init__(self, loop=None, **kwargs):
        self.loop = loop
        self._timeout = kwargs.pop("timeout", None)
        self._event_thread, self._channel = self._make_channel()

    def _make_channel(self):
        if pycares.ares_threadsafety():
            try:
                return True, pycares.Channel(event_thread=True, timeout=self._timeout)
            except pycares.AresError as e:
                if sys.platform == "linux":
                    _LOGGER.warning(
                        "Failed to create a DNS resolver channel with automatic monitoring of "
                        "resolver configuration changes, this usually means the system ran "
                        "out of inotify watches. Falling back to socket state callback. "
                        "Consider increasing the system inotify watch limit: %s",
                        e,
                    )
                else:
                    _LOGGER.warning("Falling back to socket state callback: %s", e)
        return False, pycares.Channel(sock_state_cb=self._cb, timeout=self._timeout)

    def _cb(self, fd, readable, writable):
        pass
"""

PINS = "-e .\npytest==8.3.5\npytest-asyncio=={}\n"
SETUP = (
    'from setuptools import setup\n\nsetup(name="aiodns", install_requires=["pycares>=4.0.0"])\n'
)


def _files(code: str, asyncio: str | None) -> dict[str, str | None]:
    files: dict[str, str | None] = {"aiodns/__init__.py": code, "setup.py": SETUP}
    files["requirements.txt"] = PINS.format(asyncio) if asyncio else "-e .\npytest==8.3.5\n"
    return files


def test_a_new_helper_that_logs_why_it_falls_back_is_said_and_proven(tmp_path: Path) -> None:
    analysis, verdicts = checked_entry(
        tmp_path,
        _files(BEFORE, None),
        _files(AFTER, "0.26.0"),
        "Fallback to `sock_state_cb` if `event_thread` creation fails (#151)",
    )
    text = entry_text(analysis)
    assert analysis.summary.startswith(
        "`DNSResolver._make_channel` now logs a warning: “Failed to create a DNS resolver"
    )
    assert "“Falling back to socket state callback: %s”" in text
    # the dev tools' pin beside a change of shipped code is no summary
    assert "pytest-asyncio" not in analysis.summary
    assert verdicts and all(v is Verdict.TRUE for v in verdicts)


def test_a_message_the_function_logged_already_is_no_new_one(tmp_path: Path) -> None:
    before = AFTER.replace("monitoring of ", "monitoring of the ")
    analysis, _ = checked_entry(
        tmp_path, _files(before, None), _files(AFTER, None), "Reword a log message"
    )
    assert "now logs" not in entry_text(analysis)
    # and a logger's debug line, or a call on something not named for a logger, is none
    quiet = AFTER.replace("_LOGGER.warning(", "_LOGGER.debug(").replace("_LOGGER", "catalog")
    analysis, _ = checked_entry(tmp_path / "quiet", _files(BEFORE, None), _files(quiet, None), "x")
    assert "now logs" not in entry_text(analysis)


def test_the_checker_reads_what_a_function_logs(tmp_path: Path) -> None:
    root, commit = second_commit(tmp_path, _files(BEFORE, None), _files(AFTER, None), "Fall back")
    said = "Failed to create a DNS resolver channel with automatic monitoring…"
    assert verdicts_of(
        root, commit.sha, f"`DNSResolver._make_channel` now logs a warning: “{said}”."
    ) == [(Kind.LOGS, Verdict.TRUE)]
    assert verdicts_of(
        root, commit.sha, "`DNSResolver._make_channel` now logs an error: “Falling back to socket”."
    ) == [(Kind.LOGS, Verdict.FALSE)]
    assert verdicts_of(
        root, commit.sha, "`DNSResolver._cb` now logs a warning: “Falling back to socket…”."
    ) == [(Kind.LOGS, Verdict.FALSE)]


def test_a_call_added_beside_the_parents_says_the_keyword_it_passes(tmp_path: Path) -> None:
    """aiodns b6cce69 ("Use c-ares event thread when available"): `DNSResolver` kept its
    `pycares.Channel(sock_state_cb=…)` call and added one passing `event_thread=True`."""
    before = (
        "import pycares\n\n\nclass DNSResolver:\n    def __init__(self, **kwargs):\n"
        "        self._channel = pycares.Channel(sock_state_cb=self._cb, **kwargs)\n"
    )
    after = (
        "import pycares\n\n\nclass DNSResolver:\n    def __init__(self, **kwargs):\n"
        "        self._event_thread = pycares.ares_threadsafety()\n"
        "        if self._event_thread:\n"
        "            self._channel = pycares.Channel(event_thread=True, **kwargs)\n"
        "        else:\n"
        "            self._channel = pycares.Channel(sock_state_cb=self._cb, **kwargs)\n\n"
        "    def _get_future_callback(self):\n"
        "        return self._event_thread\n"
    )
    analysis, verdicts = checked_entry(
        tmp_path,
        {"aiodns/__init__.py": before},
        {"aiodns/__init__.py": after},
        "Use c-ares event thread when available (#145)",
    )
    # what the public class now does leads, before the private helper it adds
    assert analysis.summary == (
        "`DNSResolver` now passes `event_thread=True` to `pycares.Channel` when `self._event_thread`."
    )
    assert verdicts and all(v is Verdict.TRUE for v in verdicts)
    # the parent's call rewritten beside the added one: which is which is not known
    rewritten = after.replace("sock_state_cb=self._cb, ", "sock_state_cb=self._cb, x=1, ")
    analysis, _ = checked_entry(
        tmp_path / "b", {"aiodns/__init__.py": before}, {"aiodns/__init__.py": rewritten}, "x"
    )
    assert "passes" not in entry_text(analysis)


def test_a_function_moved_from_another_file_logs_nothing_new(tmp_path: Path) -> None:
    helper = (
        "import logging\n\n_LOGGER = logging.getLogger(__name__)\n\n\n"
        "def make_channel(timeout):\n    try:\n        return open_channel(timeout)\n"
        "    except OSError as e:\n"
        '        _LOGGER.warning("Falling back to socket state callback: %s", e)\n'
        "        return None\n"
    )
    analysis, _ = checked_entry(
        tmp_path,
        {"aiodns/channel.py": helper, "aiodns/__init__.py": "X = 1\n"},
        {"aiodns/channel.py": None, "aiodns/__init__.py": "X = 1\n\n\n" + helper},
        "Move the channel helper",
    )
    assert "now logs" not in entry_text(analysis)
