"""Words on the last held-out repositories (pallets/jinja, pallets/quart): a requirement
list reflowed, a `# type: ignore` dropped; each a clone shaped like the commit."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.cli.claim_check import Verdict
from bot.cli.claims_eval import entry_text
from bot.models import Importance
from tests.clones import checked_entry

pytestmark = pytest.mark.usefixtures("environ_clean", "keep_test_logging")


def test_a_requirement_list_reflowed_is_no_new_requirement(tmp_path: Path) -> None:
    # jinja 51dbd89: `dependencies = ["MarkupSafe>=2.0"]` written over three lines
    head = '[project]\nname = "pkg"\nrequires-python = ">={v}"\n'
    before = head.format(v="3.8") + 'dependencies = ["MarkupSafe>=2.0"]\n'
    after = head.format(v="3.9") + 'dependencies = [\n    "MarkupSafe>=2.0"\n]\n'
    analysis, verdicts = checked_entry(
        tmp_path,
        {"pyproject.toml": before, "pkg/app.py": "X = 1\n"},
        {"pyproject.toml": after, "pkg/app.py": "X = 1\n"},
        "drop support for Python 3.8",
    )
    text = entry_text(analysis)
    assert "markupsafe" not in text.lower()
    assert "`python>=3.9` (was `>=3.8`)" in text
    assert all(v is Verdict.TRUE for v in verdicts)


def test_a_type_ignore_dropped_is_no_place_of_a_fix(tmp_path: Path) -> None:
    # quart a078901: `response.headers.update(headers)  # type: ignore[arg-type]` lost its
    # comment; the entry said "The fix is in …, `Quart.make_response`"
    helpers = "".join(f"\n    def h{i}(self):\n        return {i}\n" for i in range(15))
    before = (
        "class Quart:\n    def make_response(self, response, headers):\n"
        "        if response is None:\n"
        '            raise TypeError("""The response value must be either (body, status),\n'
        '                or (body, headers)""")\n'
        "        response.headers.update(headers)  # type: ignore[arg-type]\n"
        "        return response\n" + helpers
    )
    after = before.replace("  # type: ignore[arg-type]", "").replace("return 14", "return -14")
    analysis, verdicts = checked_entry(
        tmp_path, {"pkg/app.py": before}, {"pkg/app.py": after}, "Fix typing errors"
    )
    text = entry_text(analysis)
    assert "make_response" not in text
    assert all(v is Verdict.TRUE for v in verdicts)
    # a `#` inside a string is no comment: that edit is one
    quoted = before.replace("  # type: ignore[arg-type]", "").replace(
        "return response\n", "return response or '#x'\n"
    )
    edited, _ = checked_entry(
        tmp_path / "quoted",
        {"pkg/app.py": quoted},
        {"pkg/app.py": quoted.replace("'#x'", "'#y'")},
        "Fix the response",
    )
    assert "make_response" in entry_text(edited)


def test_a_move_from_poetry_to_pep_621_keeps_what_it_required(tmp_path: Path) -> None:
    # quart 171c4a7: `[tool.poetry.dependencies]` became `[project]`'s `dependencies`;
    # "Requires `python>=3.9`, `blinker>=1.6`, `click>=8.0`, `flask>=3.0`." was false
    before = (
        '[tool.poetry]\nname = "pkg"\n\n[tool.poetry.dependencies]\npython = ">=3.9"\n'
        'aiofiles = "*"\nblinker = ">=1.6"\nclick = ">=8.0.0"\n'
        'importlib_metadata = { version = "*", python = "<3.10" }\n'
        'werkzeug = { version = ">=3.0.0", optional = true }\n'
    )
    after = (
        '[project]\nname = "pkg"\nrequires-python = ">=3.9"\ndependencies = [\n'
        '    "aiofiles",\n    "blinker>=1.6",\n    "click>=8.0",\n'
        '    "importlib-metadata; python_version < \'3.10\'",\n    "werkzeug>=3.1",\n]\n'
    )
    analysis, verdicts = checked_entry(
        tmp_path,
        {"pyproject.toml": before, "pkg/app.py": "X = 1\n"},
        {"pyproject.toml": after, "pkg/app.py": "X = 1\n"},
        "Switch to flit and pallets' standards",
    )
    text = entry_text(analysis)
    assert "python>=3.9" not in text and "blinker" not in text and "click>=8.0" not in text
    assert "`werkzeug>=3.1` (was `>=3.0.0`)" in text
    assert all(v is Verdict.TRUE for v in verdicts)


def test_and_n_more_counts_every_module_that_imports_anew(tmp_path: Path) -> None:
    # quart 171c4a7's shape: 7 modules import a name from another module now, two of them
    # the library's `testing/` helpers; the sentence said "and 3 more"
    old = "from werkzeug.utils import cached_property\n\n\ndef f{i}(x):\n    return x\n"
    new = old.replace("from werkzeug.utils import", "from functools import")
    files = [f"pkg/m{i}.py" for i in range(5)] + ["pkg/testing/app.py", "pkg/testing/conn.py"]
    analysis, _ = checked_entry(
        tmp_path,
        {f: old.format(i=i) for i, f in enumerate(files)},
        {f: new.format(i=i) for i, f in enumerate(files)},
        "Use the standard library's cached_property",
    )
    assert "and 5 more now import `cached_property` from `functools`" in entry_text(analysis)


def test_a_typing_name_from_another_standard_home_is_no_move(tmp_path: Path) -> None:
    # quart 171c4a7, frozenlist 0726dc8 (pyupgrade: `typing.Awaitable` →
    # `collections.abc.Awaitable`): "… and 5 more now import `Awaitable` from
    # `collections.abc`", a sentence a reader of trio's and frozenlist's days skipped
    old = "from typing import Awaitable\n\n\ndef f{i}(x: Awaitable) -> Awaitable:\n    return x\n"
    new = old.replace("from typing import", "from collections.abc import")
    files = [f"pkg/m{i}.py" for i in range(3)]
    analysis, _ = checked_entry(
        tmp_path,
        {f: old.format(i=i) for i, f in enumerate(files)},
        {f: new.format(i=i) for i, f in enumerate(files)},
        "Drop Python 3.8 typing",
    )
    assert "import" not in entry_text(analysis)


ENTRY = (
    "## Version 0.20.1\n\nUnreleased\n\n"
    "- Flask backport: Fix signing key selection order when key rotation is enabled\n"
    "  via ``SECRET_KEY_FALLBACKS``.\n"
    "  <https://github.com/pallets/flask/security/advisories/GHSA-4grg-w6v8-c28g>\n\n"
)
SESSIONS = (
    "class Sessions:\n    def serializer(self, app):\n"
    "        keys = [app.secret_key]\n        keys.extend(app.fallbacks)\n        return keys\n"
    + "".join(f"\n    def h{i}(self):\n        return {i}\n" for i in range(10))
)
FIXED = SESSIONS.replace(
    "        keys = [app.secret_key]\n        keys.extend(app.fallbacks)\n",
    "        keys = [*app.fallbacks]\n        keys.append(app.secret_key)\n",
)


def test_the_changelog_entry_is_the_description_a_title_alone_lacks(tmp_path: Path) -> None:
    # quart 8a0e4c4: the message only repeats the title; the entry the commit adds to
    # CHANGES.md names the fix and the advisory, which makes it a security fix
    analysis, _ = checked_entry(
        tmp_path,
        {"CHANGES.md": "## Version 0.20.0\n\n- Older.\n", "pkg/sessions.py": SESSIONS},
        {"CHANGES.md": ENTRY + "## Version 0.20.0\n\n- Older.\n", "pkg/sessions.py": FIXED},
        "secret key rotation: fix key list ordering (#432)\n\n"
        "secret key rotation: fix key list ordering (#432)",
    )
    assert analysis.summary.startswith("Flask backport: Fix signing key selection order")
    assert "GHSA-4grg-w6v8-c28g" in analysis.summary and "https://" not in analysis.summary
    assert analysis.importance is Importance.HIGH


def test_a_release_list_or_the_authors_own_words_leave_the_changelog_unread(
    tmp_path: Path,
) -> None:
    release = "## Version 2.0\n\n" + "".join(f"- Change {i}.\n" for i in range(8))
    analysis, _ = checked_entry(
        tmp_path / "release",
        {"CHANGES.md": "- Older.\n", "pkg/sessions.py": SESSIONS},
        {"CHANGES.md": release + "- Older.\n", "pkg/sessions.py": FIXED},
        "Release 2.0",
    )
    # a release's items are no description of one change: they are said as its notes
    assert not analysis.summary.startswith("Change 0")
    assert analysis.summary.startswith("`CHANGES.md` lists 8 new items:")
    # the one item the commit adds to its changelog is the author's words for users: it is
    # the summary before a body's own statement of the change (issue 27)
    described, _ = checked_entry(
        tmp_path / "described",
        {"CHANGES.md": "- Older.\n", "pkg/sessions.py": SESSIONS},
        {"CHANGES.md": ENTRY + "- Older.\n", "pkg/sessions.py": FIXED},
        "Fix key order\n\nThe fallbacks are tried before the current key now.",
    )
    assert described.summary.startswith(
        "Flask backport: Fix signing key selection order when key rotation is enabled via"
    )
    assert "The fallbacks are tried" not in described.summary


def test_a_merge_lands_its_changelog_entry_and_its_advisory(tmp_path: Path) -> None:
    # jinja 220e67a "Merge branch 'stable'": the branch's one CHANGES.rst item, with Sphinx's
    # `:ghsa:` role, is what the merge lands: a security fix, high
    rst = "Version 3.1.5\n-------------\n\n-   Older.\n"
    entry = (
        "Version 3.1.6\n-------------\n\nReleased 2025-03-05\n\n"
        "-   The ``|attr`` filter does not bypass the environment's attribute lookup,\n"
        "    allowing the sandbox to apply its checks. :ghsa:`cpwx-vrp4-4pq7`\n\n"
    )
    analysis, _ = checked_entry(
        tmp_path,
        {"CHANGES.rst": rst, "pkg/filters.py": SESSIONS},
        {"CHANGES.rst": entry + rst, "pkg/filters.py": FIXED},
        "Merge branch 'stable'",
    )
    assert "GHSA-cpwx-vrp4-4pq7" in analysis.summary and ":ghsa:" not in analysis.summary
    assert analysis.importance is Importance.HIGH


@pytest.mark.parametrize(
    ("title", "floors"),
    [
        # jinja 49c48a0, quart 07d1b7e: no "drop" a rule reads, the floor raised all the same
        ("drop end of life python versions (#2096)", ("3.9", "3.10")),
        ("Update the support Python versions", ("3.9", "3.11")),
        # jinja 05f5d74, a merge by its two parents: the floor is no claim of the diff's
        (
            "Merge pull request #2093 from x/uv\n\nUpdated dependency management to uv",
            ("3.8", "3.9"),
        ),
    ],
)
def test_a_python_floor_raised_is_breaking_whatever_the_title(
    tmp_path: Path, title: str, floors: tuple[str, str]
) -> None:
    project = '[project]\nname = "pkg"\nrequires-python = ">={v}"\n'
    analysis, verdicts = checked_entry(
        tmp_path,
        {"pyproject.toml": project.format(v=floors[0]), "pkg/app.py": "X = 1\n"},
        {"pyproject.toml": project.format(v=floors[1]), "pkg/app.py": "X = 1\n"},
        title,
    )
    assert analysis.breaking and analysis.importance is Importance.HIGH
    risks = " ".join(r.description for r in analysis.risks)
    assert f"install only on `python>={floors[1]}` (was `>={floors[0]}`)" in risks
    assert all(v is Verdict.TRUE for v in verdicts)


def test_a_python_floor_lowered_or_a_ceiling_is_no_break(tmp_path: Path) -> None:
    project = '[project]\nname = "pkg"\nrequires-python = "{v}"\n'
    analysis, _ = checked_entry(
        tmp_path,
        {"pyproject.toml": project.format(v=">=3.9"), "pkg/app.py": "X = 1\n"},
        {"pyproject.toml": project.format(v=">=3.8"), "pkg/app.py": "X = 1\n"},
        "Support Python 3.8 again",
    )
    assert not analysis.breaking


def test_a_requirement_is_said_as_written_with_its_whole_specifier(tmp_path: Path) -> None:
    # click 7e72456: `flit_core<4` became `flit_core>=3.11,<4`; starlette 278e33e pins
    # `typing_extensions`: the sentence must quote what the file writes
    project = '[build-system]\nrequires = ["flit_core{spec}"]\n'
    pins = "typing_extensions=={v}\nruff==0.11.2\n"
    analysis, verdicts = checked_entry(
        tmp_path,
        {"pyproject.toml": project.format(spec="<4"), "requirements.txt": pins.format(v="4.12.2")},
        {
            "pyproject.toml": project.format(spec=">=3.11,<4"),
            "requirements.txt": pins.format(v="4.13.2"),
        },
        "Bump flit_core and typing_extensions",
    )
    text = entry_text(analysis)
    assert "`flit_core>=3.11,<4` (was `<4`)" in text
    assert "`typing_extensions==4.13.2` (was `==4.12.2`)" in text
    assert verdicts and all(v is Verdict.TRUE for v in verdicts)


def test_a_poetry_python_floor_is_a_requirement_the_checker_reads(tmp_path: Path) -> None:
    # quart 24a72b9 "Drop support for Python3.8": Poetry's `python = ">=3.8"` → `">=3.9"`
    poetry = '[tool.poetry]\nname = "pkg"\n\n[tool.poetry.dependencies]\npython = ">={v}"\n'
    analysis, verdicts = checked_entry(
        tmp_path,
        {"pyproject.toml": poetry.format(v="3.8"), "pkg/app.py": "X = 1\n"},
        {"pyproject.toml": poetry.format(v="3.9"), "pkg/app.py": "X = 1\n"},
        "Drop support for Python3.8 and support Python 3.13",
    )
    assert "Requires `python>=3.9` (was `>=3.8`)." in entry_text(analysis)
    assert analysis.breaking
    assert verdicts and all(v is Verdict.TRUE for v in verdicts)


def test_sphinx_roles_in_a_changelog_entry_read_as_code(tmp_path: Path) -> None:
    # click 3bb230d: "Fix :meth:`HelpFormatter.write_usage` emitting …" read as
    # "meth:`HelpFormatter.write_usage` emitting …"
    entry = (
        "-   Fix :meth:`HelpFormatter.write_usage` emitting only a blank line for\n"
        "    :class:`~click.formatting.TextWrapper`. :issue:`3360` :pr:`3434`\n"
    )
    analysis, _ = checked_entry(
        tmp_path,
        {"CHANGES.rst": "-   Older.\n", "pkg/sessions.py": SESSIONS},
        {"CHANGES.rst": entry + "-   Older.\n", "pkg/sessions.py": FIXED},
        "WIP: Fix write_usage (#3434)",
    )
    assert analysis.summary.startswith(
        "Fix `HelpFormatter.write_usage` emitting only a blank line for `TextWrapper`."
    )
    # (the roles' numbers after the item's words are its links, not its words)
    assert ":issue:" not in analysis.summary and "3360" not in analysis.summary
