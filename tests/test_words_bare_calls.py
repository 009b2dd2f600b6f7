"""A bare call is resolved by the caller's scope, and a hunk that only adds annotations is no
place a fix lies (tomlkit 62a6708, "fix: Invalid serialization when overwriting out-of-order
table key": `OutOfOrderTableProxy.__setitem__` began `from .items import item` and called
`item(it)`, a value converter; the entry said it "now calls `item`, which raises
`NonExistentKey` when `idx is None`" — `Container.item`, a method of the same file — and "The
fix is in `OutOfOrderTableProxy.__init__`", which had only gained annotations)."""

from __future__ import annotations

from pathlib import Path

from bot.analysis.rules import analyze
from bot.cli.claims_eval import entry_text
from bot.cli.evaluation import git_history, with_sides
from bot.models import Analysis
from tests.clones import _git, commit_files

ITEMS = "def item(value):\n    return value\n"
CONTAINER = """class NonExistentKey(KeyError):
    pass


class Container:
    def __init__(self):
        self._map = {}

    def item(self, key):
        idx = self._map.get(key)
        if idx is None:
            raise NonExistentKey(key)
        return idx


class Proxy:
    def __init__(self, container, indices):
        self._container = container
        self._tables = []
        self._tables_map = {}

    def __setitem__(self, key, item):
        if self._tables:
            self._tables[0][key] = item
        else:
            self._container[key] = item
"""
FIXED = CONTAINER.replace(
    "        self._tables = []\n        self._tables_map = {}\n",
    "        self._tables: list[dict] = []\n        self._tables_map: dict[str, list[int]] = {}\n",
).replace(
    """    def __setitem__(self, key, item):
        if self._tables:
            self._tables[0][key] = item
        else:
            self._container[key] = item
""",
    """    def __setitem__(self, key, value):
        IMPORT

        def _is_table(it):
            return isinstance(item(it), dict)

        if self._tables and not _is_table(value):
            for table in self._tables:
                if any(not _is_table(v) for v in table.values()):
                    table[key] = value
                    break
            else:
                self._tables[0][key] = value
        elif self._tables:
            self._tables[0][key] = value
        else:
            self._container[key] = value
""",
)
TITLE = "fix: Invalid serialization when overwriting out-of-order table key"


def _analysis(tmp_path: Path, *, top: bool, tested: bool = False) -> Analysis:
    """The fix with `item` imported inside the method, or (`top`) at the module's top; with
    `tested`, a test added beside it."""
    fixed = FIXED.replace("        IMPORT\n", "" if top else "        from .items import item\n")
    if top:
        fixed = "from .items import item\n\n\n" + fixed
    root = tmp_path / "repo"
    root.mkdir(parents=True)
    _git(root, "init", "-q", "-b", "main")
    commit_files(root, {"pkg/items.py": ITEMS, "pkg/container.py": CONTAINER}, "Initial")
    test = "def test_overwrite():\n    assert True\n"
    commit_files(
        root,
        {"pkg/container.py": fixed, **({"tests/test_proxy.py": test} if tested else {})},
        TITLE,
    )
    ((_, commit),) = with_sides(root, git_history(root, branch="HEAD~1..HEAD"))
    return analyze(commit)


def test_an_imported_function_is_not_the_method_of_the_same_name(tmp_path: Path) -> None:
    for top in (False, True):
        text = entry_text(_analysis(tmp_path / str(top), top=top))
        assert "NonExistentKey" not in text, text
        assert "calls `item`" not in text, text


def test_a_function_that_only_gained_annotations_is_not_where_the_fix_is(tmp_path: Path) -> None:
    for tested in (False, True):
        text = entry_text(_analysis(tmp_path / str(tested), top=False, tested=tested))
        assert "Proxy.__init__" not in text, text
        assert "Proxy.__setitem__" in text, text
