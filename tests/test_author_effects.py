"""The author's own words of what changes for a user, and names said for what they are:
a pull request's title under GitHub's merge line (mistune #467 "fix(table): reject a
non-delimiter second row instead of eating it"), a figure with its scope and "No behaviour
change" in a commit's body (tomlkit 86f4562 "~4x faster rendering a 50-key inline table,
~40x at 800 keys."), a "Limitations" section a README gains (tomlkit de68fd0), and a public
name bound to another (pydash 6692b46 `extend = assign`). Clones shaped like the commits,
every sentence checked against them."""

from __future__ import annotations

from pathlib import Path

from bot.analysis.summary import effect_sentences, says_effect
from bot.cli.claim_check import Verdict
from tests.clones import checked_entry

TABLE = '''"""Tables."""
ALIGN_NONE = None


def parse_table(text):
    """Parse a table."""
    rows = text.splitlines()
    if len(rows) < 2:
        return None
    return {check}
'''


def _table(*, after: bool) -> dict[str, str | None]:
    check = "rows if set(rows[1]) <= set('|-: ') else None" if after else "rows"
    return {"src/md/table.py": TABLE.format(check=check)}


def test_a_merge_says_the_pull_requests_title_where_it_says_the_effect(tmp_path: Path) -> None:
    message = (
        "Merge pull request #467 from someone/fix/table-delimiter-validation\n\n"
        "fix(table): reject a non-delimiter second row instead of eating it"
    )
    analysis, verdicts = checked_entry(tmp_path, _table(after=False), _table(after=True), message)
    assert analysis.summary == "Reject a non-delimiter second row instead of eating it."
    assert all(v is Verdict.TRUE for v in verdicts)


RENDER = '''"""Rendering."""


def render(items):
    """Render the items."""
    {body}
'''

BODY = """Render inline tables in O(n) instead of O(n^2)

InlineTable.as_string() recomputed, on every separator comma, two tail scans.
Precompute the needed facts in a single pass instead. The render is now O(n).

No behaviour change: the precomputed predicates are exactly equivalent to the
tail scans. Round-trip output is byte-identical, verified by a differential.
~4x faster rendering a 50-key inline table, ~40x at 800 keys.
"""


def test_a_figure_with_its_scope_and_no_behaviour_change_are_quoted(tmp_path: Path) -> None:
    before = {
        "CHANGELOG.md": "# Change Log\n\n## [Unreleased]\n\n## [0.1.0]\n\n- First.\n",
        "pkg/render.py": RENDER.format(body="return ', '.join(map(str, items))"),
    }
    after = {
        "CHANGELOG.md": "# Change Log\n\n## [Unreleased]\n\n- Speed up rendering of inline"
        " tables with many keys.\n\n## [0.1.0]\n\n- First.\n",
        "pkg/render.py": RENDER.format(body="return ','.join(str(i) for i in items)"),
    }
    analysis, verdicts = checked_entry(tmp_path, before, after, BODY)
    insights = analysis.insights
    assert insights is not None
    assert insights.performance == (
        "The commit message says: “~4x faster rendering a 50-key inline table, ~40x at 800 keys.”"
    )
    assert insights.compatibility is not None
    assert "“No behaviour change: the precomputed predicates are exactly equivalent to the" in (
        insights.compatibility
    )
    assert all(v is Verdict.TRUE for v in verdicts)


def test_effect_sentences_leave_out_motivation_and_figures_of_no_measure() -> None:
    said = effect_sentences(
        (
            "Currently the parser is 10x slower than it should be?",  # a question
            "We had 3 reports of this from 5 users.",  # numbers of no speed or size
            "The cache makes lookups 30% faster on large files.",
        )
    )
    assert said == [("performance", "The cache makes lookups 30% faster on large files.")]
    assert says_effect("a tab no longer makes the definition a code block")
    assert not says_effect("Add DD_MARKER_RE to def_list")


README_BEFORE = "# tomlkit\n\nA TOML library.\n\n## Installation\n\npip install tomlkit\n"
README_AFTER = (
    "# tomlkit\n\nA TOML library.\n\n## Limitations\n\n"
    "`tomlkit` preserves the original layout of a document, with one exception: a\n"
    "sub-table that extends an array of tables out of order is normalized into the\n"
    "array's last element when the document is re-serialized.\n\n"
    "## Installation\n\npip install tomlkit\n"
)
CONTAINER = '''"""Container."""


def append(body, key, item):
    """Append `item` under `key`."""
    {extra}body.append((key, item))
    return body
'''


def test_a_limitations_section_a_readme_gains_is_quoted(tmp_path: Path) -> None:
    before = {"README.md": README_BEFORE, "tomlkit/container.py": CONTAINER.format(extra="")}
    after = {
        "README.md": README_AFTER,
        "tomlkit/container.py": CONTAINER.format(
            extra="if key is None:\n        return body\n    "
        ),
    }
    analysis, verdicts = checked_entry(
        tmp_path, before, after, "Fix ParseError when a sub-table extends an array of tables"
    )
    assert analysis.insights is not None and analysis.insights.compatibility is not None
    assert (
        "`README.md` gains a section “Limitations”: “`tomlkit` preserves the original layout"
        " of a document, with one exception: a sub-table that extends an array of tables out"
        " of order is normalized into the array's last element when the document is"
        " re-serialized.”"
    ) in analysis.insights.compatibility
    assert all(v is Verdict.TRUE for v in verdicts)


OBJECTS = '''"""Objects."""


def assign(obj, *sources):
    """Assigns own properties of `sources` to `obj`."""
    for source in sources:
        obj.update(source)
    return obj
{more}

def keys(obj):
    """Creates a list of the keys of `obj`."""
    return list(obj)
'''


def _objects(*, after: bool) -> dict[str, str | None]:
    names = "assign, keys, extend" if after else "assign, keys"
    return {
        "pydash/__init__.py": f'"""pydash."""\nfrom .objects import {names}\n',
        "pydash/objects.py": OBJECTS.format(more="\n\nextend = assign\n" if after else ""),
    }


def test_a_name_bound_to_another_is_said_as_its_alias(tmp_path: Path) -> None:
    analysis, verdicts = checked_entry(
        tmp_path, _objects(after=False), _objects(after=True), "Add extend."
    )
    assert analysis.summary == "Adds `extend`, an alias of `assign`, to `pydash/objects.py`."
    assert all(v is Verdict.TRUE for v in verdicts)


def test_a_function_made_an_alias_of_another_is_no_new_name(tmp_path: Path) -> None:
    # pydash ccf1fd0 "find_key() = find_last_key()": `def find_last_key` becomes
    # `find_last_key = find_key`; the name was there already
    before = _objects(after=False)
    before["pydash/objects.py"] = OBJECTS.format(
        more='\n\ndef extend(obj, *sources):\n    """Extend."""\n    return assign(obj, *sources)\n'
    )
    analysis, verdicts = checked_entry(
        tmp_path, before, _objects(after=True), "extend() = assign()."
    )
    assert "an alias of" not in str(analysis.model_dump())
    assert all(v is Verdict.TRUE for v in verdicts)
