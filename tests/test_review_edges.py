"""Edges a reviewer found in this stop's rules, each shaped like a commit a user could push:
a deployed application that installs itself, a resource leak, a placeholder in a code span,
settings equal only to Python, a re-raise rewritten as a narrowing, a pin moved out of a
requirements file."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.analysis.facts.layout import same_settings
from bot.analysis.messages import roles_as_code
from bot.cli.claims_eval import entry_text
from bot.models import FileChange, Importance
from tests.clones import checked_entry

pytestmark = pytest.mark.usefixtures("environ_clean", "keep_test_logging")

_APP = "".join(f"def view_{i}(request):\n    return {i}\n\n\n" for i in range(6))


def test_an_application_that_installs_itself_still_requires_its_pins(tmp_path: Path) -> None:
    # a deployed application's `requirements.txt`: `-e .` beside its runtime pins, no test tool
    pins = "-e .\nflask==3.0.0\nurllib3=={}\n"
    analysis, _ = checked_entry(
        tmp_path,
        {"requirements.txt": pins.format("2.2.1"), "app/views.py": _APP},
        {"requirements.txt": pins.format("2.2.2"), "app/views.py": _APP.replace("6", "7")},
        "Bump urllib3 to 2.2.2 to fix CVE-2024-37891",
    )
    assert "Requires `urllib3==2.2.2`" in entry_text(analysis)
    assert analysis.importance is Importance.HIGH


def test_a_resource_leaked_near_a_secret_is_no_security_fix(tmp_path: Path) -> None:
    loader = (
        "def load_credentials(path):\n    handle = open(path)\n{close}"
        "    data = handle.read()\n    return data.split()\n"
    )
    more = "".join(f"def step_{i}(x):\n    return x + {i}\n\n\n" for i in range(5))
    analysis, _ = checked_entry(
        tmp_path,
        {"pkg/auth.py": more + loader.format(close="")},
        {
            "pkg/auth.py": more.replace("x + 4", "x - 4")
            + loader.format(close="    handle.close()\n    handle = open(path)\n")
        },
        "Fix leaked file descriptor when loading credentials",
    )
    assert analysis.importance is not Importance.HIGH
    assert "another origin" not in entry_text(analysis)


def test_a_placeholder_in_a_code_span_is_no_myst_role() -> None:
    assert roles_as_code("Use `{name}` or `{id}` in the template.") == (
        "Use `{name}` or `{id}` in the template."
    )
    assert roles_as_code("Fix {meth}`Converter.hook`.") == "Fix `Converter.hook`."


@pytest.mark.parametrize(
    ("path", "before", "after"),
    [
        ("pyproject.toml", "[tool.x]\ndebug = true\n", "[tool.x]\ndebug = 1\n"),
        ("pyproject.toml", "[tool.x]\nratio = 1\n", "[tool.x]\nratio = 1.0\n"),
    ],
)
def test_settings_equal_only_to_python_are_not_the_same(path: str, before: str, after: str) -> None:
    change = FileChange(filename=path, status="modified", patch="@@", before=before, after=after)
    assert not same_settings(change)


def test_a_re_raise_rewritten_as_a_narrowing_raises_nothing_new(tmp_path: Path) -> None:
    body = "".join(f"def step_{i}(x):\n    return x + {i}\n\n\n" for i in range(4))
    before = body + (
        "def run(job):\n    try:\n        return job()\n"
        "    except KeyboardInterrupt:\n        log('stopped')\n        raise\n"
    )
    after = body.replace("x + 3", "x - 3") + (
        "def run(job):\n    try:\n        return job()\n"
        "    except BaseException as exc:\n        log('stopped')\n"
        "        if isinstance(exc, KeyboardInterrupt):\n            raise exc\n"
        "        return None\n"
    )
    analysis, _ = checked_entry(
        tmp_path, {"pkg/run.py": before}, {"pkg/run.py": after}, "Stop quietly on errors"
    )
    assert "may now raise `KeyboardInterrupt`" not in entry_text(analysis)


def test_a_pin_moved_out_of_a_requirements_file_moves_no_metadata(tmp_path: Path) -> None:
    project = '[project]\nname = "app"\nversion = "1.0"\ndependencies = [\n{deps}]\n'
    analysis, _ = checked_entry(
        tmp_path,
        {
            "requirements.txt": "flask==3.0.0\nrequests==2.31.0\n",
            "pyproject.toml": project.format(deps=""),
            "app/views.py": _APP,
        },
        {
            "requirements.txt": "flask==3.0.0\n",
            "pyproject.toml": project.format(deps='    "requests==2.31.0",\n'),
            "app/views.py": _APP.replace("6", "7"),
        },
        "Declare requests in the project",
    )
    assert "Moves the package metadata" not in entry_text(analysis)
