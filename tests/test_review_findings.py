"""A reviewer's counter-examples to this stop's rules and facts (advisory ids, words fixed,
comments, inert annotations, tables, conditions, Poetry tables, a refusing `__getattr__`):
each input once gave a false or misleading entry, and now gives the right one."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.cli.claims_eval import entry_text
from bot.models import Importance
from tests.clones import checked_entry

pytestmark = pytest.mark.usefixtures("environ_clean", "keep_test_logging")

# lines enough for a change of some reach
PAD = "".join(f"\n\ndef step_{n}(value):\n    return value + {n}\n" for n in range(8))

DEPENDABOT = """Bumps [jinja2](https://github.com/pallets/jinja) from 3.1.2 to 3.1.3.

Release notes

3.1.3
This is a fix release for the 3.1.x feature branch.

Fix for GHSA-h5c8-rqwp-cp95. You are affected if you are using xmlattr and passing user
input as attribute keys.
"""


def test_dependabot_bump_of_a_docs_requirement_is_no_security_fix(tmp_path: Path) -> None:
    analysis, _ = checked_entry(
        tmp_path,
        {"requirements/docs.txt": "sphinx==7.2.6\njinja2==3.1.2\n", "acme/__init__.py": "X = 1\n"},
        {"requirements/docs.txt": "sphinx==7.2.6\njinja2==3.1.3\n"},
        "Bump jinja2 from 3.1.2 to 3.1.3 in /requirements\n\n" + DEPENDABOT,
    )
    assert analysis.importance is not Importance.HIGH


def test_a_cve_said_not_to_affect_the_package_is_no_security_fix(tmp_path: Path) -> None:
    changes = "# Changes\n\n## Unreleased\n\n{new}- Old entry.\n"
    analysis, _ = checked_entry(
        tmp_path,
        {
            "pyproject.toml": '[project]\nname = "acme"\ndependencies = [\n    "cryptography>=41",\n]\n',
            "CHANGES.md": changes.format(new=""),
            "acme/__init__.py": "X = 1\n",
        },
        {
            "pyproject.toml": '[project]\nname = "acme"\ndependencies = [\n    "cryptography>=42",\n]\n',
            "CHANGES.md": changes.format(
                new="- Require cryptography 42. acme is not affected by CVE-2023-50782, but"
                " scanners flag the old pin.\n"
            ),
        },
        "Raise the cryptography minimum",
    )
    assert analysis.importance is not Importance.HIGH


def test_fixing_code_that_parses_docstrings_is_a_fix(tmp_path: Path) -> None:
    analysis, _ = checked_entry(
        tmp_path,
        {
            "acme/parse.py": "import re\n\n\ndef sections(doc):\n    return re.split(r'\\n(?=Args:)', doc)\n"
            + PAD
        },
        {
            "acme/parse.py": "import re\n\n\ndef sections(doc):\n"
            "    return re.split(r'\\n\\s*(?=Args:|Returns:)', doc)\n" + PAD
        },
        "Fix docstring parsing of Google-style sections",
    )
    assert analysis.importance is not Importance.LOW


PAGE = '''def error_page(message):
    return f"""<style>
    body {{{{ color: {colour}; }}}}
    </style>
    <p>{{message}}</p>"""


def title(message):
    return message.{case}()
'''


def test_an_edit_after_a_hash_in_a_multiline_string_is_an_edit(tmp_path: Path) -> None:
    analysis, _ = checked_entry(
        tmp_path,
        {"acme/page.py": PAGE.format(colour="#333", case="upper") + PAD},
        {"acme/page.py": PAGE.format(colour="#c00", case="title") + PAD},
        "Fix the error page",
    )
    text = entry_text(analysis)
    # said now: "No test changed with this fix of `title`: ask for a regression test."
    assert "error_page" in text


USER = """from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from acme.models import User
"""
# functions enough that the change is not a tiny tweak
LOADERS = "".join(
    f"\n\ndef load_{n}(user: {{ann}}, key: str) -> {{ann}}:\n    user.touch({n}, key)\n    return user\n"
    for n in range(12)
)


def test_unquoting_an_annotation_imported_only_for_type_checking_is_not_inert(
    tmp_path: Path,
) -> None:
    # `def load_0(user: User)` raises NameError on import: User exists only for type checkers
    analysis, _ = checked_entry(
        tmp_path,
        {"acme/api.py": USER + LOADERS.format(ann='"User"')},
        {"acme/api.py": USER + LOADERS.format(ann="User")},
        "Unquote type annotations",
    )
    assert analysis.importance is not Importance.LOW


def test_a_key_moved_into_the_literal_is_not_gained(tmp_path: Path) -> None:
    analysis, verdicts = checked_entry(
        tmp_path,
        {
            "acme/reg.py": 'HANDLERS = {\n    "json": 1,\n    "yaml": 2,\n}\nHANDLERS["toml"] = 3\n'
            + PAD
        },
        {"acme/reg.py": 'HANDLERS = {\n    "json": 1,\n    "yaml": 2,\n    "toml": 3,\n}\n' + PAD},
        "Register toml in the literal",
    )
    # said now, and the checker calls it true: '`HANDLERS` gains the key `"toml"`.'
    assert "gains the key" not in entry_text(analysis), verdicts


def test_an_if_turned_into_an_early_return_tests_nothing_new(tmp_path: Path) -> None:
    analysis, _ = checked_entry(
        tmp_path,
        {
            "acme/f.py": "def send(msg):\n    if msg:\n        print(msg)\n        print('sent')\n"
            + PAD
        },
        {
            "acme/f.py": "def send(msg):\n    if not msg:\n        return\n"
            "    print(msg)\n    print('sent')\n" + PAD
        },
        "Refactor send with an early return",
    )
    # said now: "`send` now tests `not msg` (was `msg`)." (the same behaviour)
    assert "now tests `not msg`" not in entry_text(analysis)


TOOLS = '[project]\nname = "acme"\nrequires-python = ">=3.8"\n\n[tool.ruff]\nrequired-version = "{ruff}"\n'


def test_a_tools_required_version_is_no_requirement(tmp_path: Path) -> None:
    analysis, verdicts = checked_entry(
        tmp_path,
        {"pyproject.toml": TOOLS.format(ruff=">=0.5.0"), "acme/__init__.py": "X = 1\n"},
        {"pyproject.toml": TOOLS.format(ruff=">=0.8.0")},
        "Require a newer ruff",
    )
    # said now (the checker calls it false): "Requires `required-version>=0.8.0` (was `>=0.5.0`)."
    assert "required-version>=" not in entry_text(analysis), verdicts


HATCH = '[project]\nname = "acme"\nrequires-python = ">=3.8"\n\n[tool.hatch.envs.docs]\npython = "{py}"\n'


def test_a_docs_environments_python_is_no_floor_of_the_package(tmp_path: Path) -> None:
    analysis, _ = checked_entry(
        tmp_path,
        {"pyproject.toml": HATCH.format(py=">=3.8"), "acme/__init__.py": "X = 1\n"},
        {"pyproject.toml": HATCH.format(py=">=3.12")},
        "Build the docs on 3.12",
    )
    # said now, high and breaking: "Releases from this commit on install only on
    # `python>=3.12` (was `>=3.8`)"
    assert not analysis.breaking
    assert analysis.importance is not Importance.HIGH


RUNNER = (
    "class {name}:\n    def run(self):\n        return 1\n\n    def stop(self):\n        return 2\n"
)
REFUSED = """

def __getattr__(name):
    if name == "OldRunner":
        raise AttributeError("OldRunner was removed in 3.0: use Runner")
    raise AttributeError(name)
"""


def test_a_name_getattr_refuses_is_still_removed(tmp_path: Path) -> None:
    analysis, _ = checked_entry(
        tmp_path,
        {"acme/core.py": RUNNER.format(name="OldRunner") + PAD},
        {"acme/core.py": RUNNER.format(name="Runner") + PAD + REFUSED},
        "Rename OldRunner to Runner",
    )
    # said now, low: "Adds `Runner` to `acme/core.py`." (without the __getattr__ the entry
    # says "Removes `OldRunner`, …" and is medium); the class is the same code under its new
    # name, so its going is said as the rename it is
    said = entry_text(analysis)
    assert "Removes `OldRunner`" in said or "Renames `OldRunner` to `Runner`" in said


ROUTES = """from fastapi import APIRouter

router = APIRouter()


def read_item(item_id: {kind}, q: str | None = None):
    return {{"item_id": item_id, "q": q}}


router.add_api_route("/items/{{item_id}}", read_item)
"""


def test_an_endpoint_registered_by_a_call_keeps_its_annotations(tmp_path: Path) -> None:
    # FastAPI validates `item_id` by its annotation: `str` → `int` turns "abc" into a 422
    endpoints = "".join(ROUTES.replace("read_item", f"read_item_{n}") for n in range(6))
    analysis, _ = checked_entry(
        tmp_path,
        {"acme/routes.py": endpoints.format(kind="str")},
        {"acme/routes.py": endpoints.format(kind="int")},
        "Fix type hints of the item routes",
    )
    assert analysis.importance is not Importance.LOW
