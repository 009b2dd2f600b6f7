"""A change of layout alone (spacing, wrapping, comments) runs the same code: low, and no
regression test asked (flash-attention 766ed201, "[CuTe] Fix lint failure"), built as clones."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from bot.analysis.facts.layout import same_code
from bot.analysis.facts.modules import module_tree, trees_kept
from bot.analysis.rules import analyze
from bot.analysis.unshipped import _blank_only
from bot.models import Analysis, FileChange, Importance
from tests.clones import second_commit

pytestmark = pytest.mark.usefixtures("environ_clean", "keep_test_logging")

MODULE = (
    "class Backward:\n"
    "    def apply_score_mod(self, n_block, m_block):\n"
    '        """Apply the score modification."""\n'
    "        # With 2CTA, partition_C must see the full cluster tile so each CTA \n"
    "        tile = self.tile_n * self.cta_group_size\n"
    "        offset = make_offset(\n"
    "            (n_block * tile, m_block * self.tile_m), tile\n"
    "        )\n"
    "        return offset\n"
)
REFORMATTED = MODULE.replace("each CTA \n", "each CTA\n").replace(
    "make_offset(\n            (n_block * tile, m_block * self.tile_m), tile\n        )",
    "make_offset((n_block * tile, m_block * self.tile_m), tile)",
)
KERNEL = (
    "__global__ void scale(float* x, int n) {\n"
    "  int i = blockIdx.x * blockDim.x + threadIdx.x;  // one thread an element\n"
    "  if (i < n) { x[i] = x[i] * 2.0f; }\n"
    "}\n"
)


def _analysis(tmp_path: Path, path: str, before: str, after: str, title: str) -> Analysis:
    _, commit = second_commit(tmp_path, {path: before}, {path: after}, title)
    return analyze(commit)


def _asks_for_a_test(analysis: Analysis) -> bool:
    return any("regression test" in r.text for r in analysis.recommendations)


def test_a_python_reformat_is_low_and_asks_for_no_test(tmp_path: Path) -> None:
    analysis = _analysis(
        tmp_path, "pkg/cute/flash_bwd.py", MODULE, REFORMATTED, "[CuTe] Fix lint failure"
    )
    assert analysis.importance is Importance.LOW
    assert not _asks_for_a_test(analysis)


def test_a_python_indent_or_a_value_is_code(tmp_path: Path) -> None:
    # the same tokens, one line taken out of its block: Python's indent is code
    dedented = MODULE.replace("        return offset\n", "    return offset\n")
    analysis = _analysis(
        tmp_path, "pkg/cute/flash_bwd.py", MODULE, dedented, "[CuTe] Fix lint failure"
    )
    assert analysis.importance is Importance.MEDIUM
    assert _asks_for_a_test(analysis)


def test_a_cuda_rewrap_is_low_and_a_changed_constant_is_not(tmp_path: Path) -> None:
    rewrapped = KERNEL.replace(
        "  if (i < n) { x[i] = x[i] * 2.0f; }\n", "  if (i < n) {\n    x[i] = x[i] * 2.0f;\n  }\n"
    ).replace("// one thread an element", "// one thread per element")
    low = _analysis(tmp_path / "a", "csrc/scale.cu", KERNEL, rewrapped, "Fix formatting")
    assert low.importance is Importance.LOW
    assert not _asks_for_a_test(low)
    changed = rewrapped.replace("2.0f", "3.0f")
    medium = _analysis(tmp_path / "b", "csrc/scale.cu", KERNEL, changed, "Fix formatting")
    assert medium.importance is Importance.MEDIUM


# aiodns 924b981 "Reformat code and normalize end-of-line characters": a formatter's quotes and
# wrapping, a linter's `elif` after a `return`, a `MANIFEST.in`'s last blank line and a
# release workflow's trailing spaces
RESOLVER = (
    "import re\n\n\n"
    "def query_type(name):\n"
    '    if name == "A":\n'
    "        return 1\n"
    '    elif name == "AAAA":\n'
    "        return 28\n"
    "    else:\n"
    '        raise ValueError("invalid query type: {}".format(name))\n\n\n'
    "def version(text):\n"
    "    return re.search(r\"__version__\\s+=\\s+'(.+?)'\", text).group(1)\n"
)
RESOLVER_RESTYLED = (
    "import re\n\n\n"
    "def query_type(name):\n"
    "    if name == 'A':\n"
    "        return 1\n\n"
    "    if name == 'AAAA':\n"
    "        return 28\n\n"
    "    raise ValueError('invalid query type: {}'.format(name))\n\n\n"
    "def version(text):\n"
    "    return re.search(\n"
    "        r\"__version__\\s+=\\s+'(.+?)'\",\n"
    "        text,\n"
    "    ).group(1)\n"
)
MANIFEST = "include LICENSE\nrecursive-exclude * __pycache__\n\n"
RELEASE = (
    "on:\n  push:\n    tags: ['*']\njobs:\n  publish:\n    runs-on: ubuntu-latest\n"
    "    steps:\n      - uses: actions/download-artifact@v4\n          \n"
    "      - uses: pypa/gh-action-pypi-publish@release/v1\n"
)


def test_a_formatters_and_linters_rewrite_into_the_same_code_is_low(tmp_path: Path) -> None:
    before = {
        "aiodns/__init__.py": RESOLVER,
        "MANIFEST.in": MANIFEST,
        ".github/workflows/release.yml": RELEASE,
    }
    after = {
        "aiodns/__init__.py": RESOLVER_RESTYLED,
        "MANIFEST.in": MANIFEST.rstrip("\n") + "\n",
        ".github/workflows/release.yml": RELEASE.replace("          \n", "\n"),
    }
    _, commit = second_commit(
        tmp_path, before, after, "Reformat code and normalize end-of-line characters (#155)"
    )
    assert analyze(commit).importance is Importance.LOW
    assert same_code(_modified("m.py", RESOLVER, RESOLVER_RESTYLED))
    # a block that does not end by leaving: what its `else` held runs only without it
    assert not same_code(
        _modified(
            "m.py",
            RESOLVER.replace("        return 1\n", "        log(1)\n"),
            RESOLVER_RESTYLED.replace("        return 1\n", "        log(1)\n"),
        )
    )


def _modified(path: str, before: str, after: str) -> FileChange:
    return FileChange(filename=path, status="modified", patch="@@", before=before, after=after)


# argon2-cffi a1d48eb "docs: fix nitpicky build": an enum's members' docstrings moved to the docs
MEMBERS = (
    "from enum import Enum\n\n\n"
    "class Type(Enum):\n"
    '    """Enum of Argon2 variants."""\n\n'
    "    D = 0\n"
    '    r"""\n    Argon2\\ **d** is faster and uses data-depending memory access.\n    """\n'
    "    I = 1\n"
    '    r"""\n    Argon2\\ **i** uses data-independent memory access.\n    """\n'
    "    ID = 2\n"
    '    r"""\n    Argon2\\ **id** is a hybrid.\n\n    .. versionadded:: 16.3.0\n    """\n'
    + "".join(f"\n\ndef helper_{i}(value):\n    return value + {i}\n" for i in range(8))
)


def test_an_attributes_docstrings_are_no_code(tmp_path: Path) -> None:
    stripped = MEMBERS
    for doc in MEMBERS.split('    r"""\n')[1:]:
        stripped = stripped.replace('    r"""\n' + doc.split('"""\n')[0] + '"""\n', "")
    assert '"""\n    I = 1' not in stripped
    analysis = _analysis(tmp_path, "src/argon2/low_level.py", MEMBERS, stripped, "docs: fix build")
    assert analysis.importance is Importance.LOW


@pytest.mark.parametrize(
    ("patch", "blank"),
    [
        ("@@ -2,3 +2,2 @@\n b\n c\n-", True),  # the file's last blank line
        ("@@ -2,3 +2,3 @@\n b\n-c  \n+c", True),  # trailing spaces
        ("@@ -1,4 +1,3 @@\n a\n-\n b\n c", False),  # a blank line between two may end a block
        ("@@ -2,3 +2,3 @@\n b\n-c d\n+cd", False),
    ],
)
def test_blank_lines_at_a_files_end_change_nothing(patch: str, blank: bool) -> None:
    change = FileChange(filename="MANIFEST.in", status="modified", patch=patch)
    assert _blank_only(change) is blank


# A typing-only commit's shapes (annotations and `typing` imports added, docstrings written,
# a helper's locals renamed, an `elif` after a `return` made an `if`, a helper moved up)
TYPED_BEFORE = (
    "import os\n\n\n"
    "class Store:\n"
    "    def get(self, key, default=None):\n"
    "        try:\n"
    "            return self._load(key)\n"
    "        except KeyError as error:\n"
    "            if default is None:\n"
    "                raise error\n"
    "            elif key:\n"
    "                return default\n"
    "            return None\n\n"
    "    def _load(self, key):\n"
    "        found = os.environ[key]\n"
    "        return found.strip()\n\n\n"
    "def main(argv):\n"
    "    return _parse(argv)\n\n\n"
    "def _parse(items):\n"
    "    out = [item.lower() for item in items]\n"
    "    return out\n"
)
TYPED_AFTER = (
    '"""A store of settings."""\n\n'
    "import os\n"
    "from typing import Optional, List\n\n\n"
    "def _parse(items: List[str]) -> List[str]:\n"
    "    lowered = [item.lower() for item in items]\n"
    "    return lowered\n\n\n"
    "class Store:\n"
    '    """Settings by key."""\n\n'
    "    def get(self, key: str, default: Optional[str] = None) -> Optional[str]:\n"
    '        """The value of `key`."""\n'
    "        try:\n"
    "            return self._load(key)\n"
    "        except KeyError as exc:\n"
    "            if default is None:\n"
    "                raise exc\n"
    "            if key:\n"
    "                return default\n"
    "            return None\n\n"
    "    def _load(self, key: str) -> str:\n"
    "        value: str = os.environ[key]\n"
    "        return value.strip()\n\n\n"
    "def main(argv: List[str]) -> List[str]:\n"
    "    return _parse(argv)\n"
)


def test_same_code_reads_the_shared_parses_and_leaves_them_as_parsed() -> None:
    """`same_code` compares copies of `module_tree`'s statements (hoisting, docstrings,
    annotations and exits set aside in place, locals renamed and named back): the trees every
    other reader of the texts shares come out as they were parsed, and asking again answers
    the same."""
    change = _modified("store.py", TYPED_BEFORE, TYPED_AFTER)
    assert change.sides is not None
    with trees_kept():
        trees = [module_tree(text) for text in change.sides]
        parsed = [ast.dump(t, include_attributes=True) for t in trees]
        for _ in range(2):
            assert same_code(change, typing=True, imports=True, renamed=True)
            assert not same_code(change)  # (the annotations are code without `typing`)
            assert [module_tree(text) for text in change.sides] == trees
            assert [ast.dump(t, include_attributes=True) for t in trees] == parsed
        # a statement changed is still told apart, the shared trees read as they are
        changed = _modified("store.py", TYPED_BEFORE, TYPED_AFTER.replace("lower", "upper"))
        assert not same_code(changed, typing=True, imports=True, renamed=True)
        assert [ast.dump(t, include_attributes=True) for t in trees] == parsed


def test_same_code_counts_statements_first_and_still_erases_what_a_checker_reads() -> None:
    """A statement more (a `return`, a call) is other code at once; a change that only moves
    or drops what `same_code` sets aside (an `elif` after a `return`, a `TYPE_CHECKING`
    block's import, an `@overload`, a `cast`) is still the same code."""
    base = "def f(x):\n    if x:\n        return 1\n    elif x is None:\n        return 2\n    return 3\n"
    assert not same_code(_modified("m.py", base, base.replace("return 3", "log(x)\n    return 3")))
    assert not same_code(_modified("m.py", base, base.replace("return 3", "pass")), typing=True)
    flat = base.replace("    elif", "    if")
    assert same_code(_modified("m.py", base, flat))
    checked = "from typing import TYPE_CHECKING\n\nif TYPE_CHECKING:\n    import os\n\n" + base
    assert same_code(_modified("m.py", base, checked), typing=True, imports=True)
    assert not same_code(_modified("m.py", base, checked))
    loaded = "from __future__ import annotations\n\nfrom typing import overload\n\n"
    over = f"{loaded}@overload\ndef f(x: int) -> int: ...\n\n\n{base}"
    assert same_code(_modified("m.py", loaded + base, over), typing=True, imports=True)
    cast = base.replace("return 3", 'cast(str, "x")\n    return 3')
    typed = "from typing import cast\n\n"
    assert same_code(_modified("m.py", typed + base, typed + cast), typing=True)
    # an assignment more is code; one annotated anew, or a `typing` name imported for it, is not
    assert not same_code(_modified("m.py", base, "y = 1\n" + base), typing=True, imports=True)
    annotated = "from typing import Final\n\nLIMIT: Final = 3\n"
    assert same_code(_modified("m.py", "LIMIT = 3\n", annotated), typing=True, imports=True)
    assert not same_code(_modified("m.py", "LIMIT = 3\n", annotated))
