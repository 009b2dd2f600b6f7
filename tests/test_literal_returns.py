"""Breaks proven from whole files at both revisions: a public function's literal result of a
case of another type, and an extra dropped from the package's metadata."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot.cli.claim_check import Verdict
from tests.clones import checked_entry

pytestmark = pytest.mark.usefixtures("environ_clean", "keep_test_logging")

# pathspec 92a9066, cut down: `PathSpec.match_file` returned what `util.match_file` did
# (`False` where no pattern matched) and now the first of `util.check_match_file`'s pair
UTIL = (
    "def match_file(patterns, file):\n"
    '    """Matches the file to the patterns."""\n'
    "    matched = False\n"
    "    for pattern in patterns:\n"
    "        if pattern.include is not None:\n"
    "            if pattern.match_file(file) is not None:\n"
    "                matched = pattern.include\n"
    "    return matched\n"
)
UTIL_AFTER = UTIL + (
    "\n\ndef check_match_file(patterns, file):\n"
    '    """Check the file against the patterns."""\n'
    "    out_include = None\n"
    "    out_index = None\n"
    "    for index, pattern in patterns:\n"
    "        if pattern.include is not None and pattern.match_file(file) is not None:\n"
    "            out_include = pattern.include\n"
    "            out_index = index\n"
    "    return out_include, out_index\n"
)
SPEC = (
    "from . import util\n"
    "from .util import match_file\n\n\n"
    "class PathSpec(object):\n"
    "    def __init__(self, patterns):\n"
    "        self.patterns = list(patterns)\n\n"
    "    _match_file = staticmethod(match_file)\n\n"
    "    def match_file(self, file, separators=None):\n"
    '        """Returns True if *file* matched; otherwise, False."""\n'
    "        norm_file = util.normalize_file(file, separators=separators)\n"
    "        return self._match_file(self.patterns, norm_file)\n"
)
SPEC_AFTER = (
    "from . import util\n"
    "from .util import match_file\n\n\n"
    "class PathSpec(object):\n"
    "    def __init__(self, patterns):\n"
    "        self.patterns = list(patterns)\n\n"
    "    _match_file = staticmethod(util.check_match_file)\n\n"
    "    def match_file(self, file, separators=None):\n"
    '        """Returns True if *file* matched; otherwise, False."""\n'
    "        norm_file = util.normalize_file(file, separators)\n"
    "        include, _index = self._match_file(enumerate(self.patterns), norm_file)\n"
    "        return include\n"
)


@pytest.mark.parametrize(
    ("util_after", "spec_after", "said"),
    [
        (UTIL_AFTER, SPEC_AFTER, True),
        # the new helper starts from `False` too: the same result where nothing matched
        (UTIL_AFTER.replace("out_include = None", "out_include = False"), SPEC_AFTER, False),
        # a loop over a module's constant runs: no case where it runs no time is proven
        (
            UTIL_AFTER.replace("for index, pattern in patterns:", "for index, pattern in RULES:"),
            SPEC_AFTER,
            False,
        ),
        # a private method is no caller's
        (
            UTIL_AFTER,
            SPEC_AFTER.replace("def match_file(self", "def _match_one(self"),
            False,
        ),
    ],
)
def test_a_public_method_returning_none_where_it_returned_false_is_breaking(
    tmp_path: Path, util_after: str, spec_after: str, said: bool
) -> None:
    before = (
        SPEC
        if "_match_one" not in spec_after
        else SPEC.replace("def match_file(self", "def _match_one(self")
    )
    analysis, verdicts = checked_entry(
        tmp_path,
        # (pathspec's `__init__.py` hands out `PathSpec`: `from .pathspec import PathSpec`)
        {
            "pathspec/__init__.py": "from .pathspec import PathSpec\n",
            "pathspec/util.py": UTIL,
            "pathspec/pathspec.py": before,
        },
        {"pathspec/util.py": util_after, "pathspec/pathspec.py": spec_after},
        "Improve debugging",
    )
    risks = [r for r in analysis.risks if "where it returned" in r.description]
    assert bool(risks) is said
    assert analysis.breaking is said
    if said:
        assert risks[0].description == (
            "`PathSpec.match_file` now returns `None` where it returned `False`."
        )
        assert risks[0].consequence is not None and "`False`" in risks[0].consequence
        assert analysis.importance.value == "high"
    assert Verdict.FALSE not in verdicts


CHECK = (
    "def is_ignored(path, rules):\n"
    "    if not path:\n"
    "        return False\n"
    "    return any(rule.match(path) for rule in rules)\n"
)


@pytest.mark.parametrize(
    ("after", "breaking", "said"),
    [
        (
            CHECK.replace("return False", "return"),
            True,
            "`is_ignored` now returns `None` where it returned `False` (when `not path`)",
        ),
        (
            CHECK.replace("return False", "return []"),
            True,
            "`is_ignored` now returns `[]` where it returned `False` (when `not path`)",
        ),
        # the same type, the other value: behaviour, said, no break
        (
            CHECK.replace("return False", "return True"),
            False,
            "`is_ignored` now returns `True` where it returned `False` (when `not path`)",
        ),
        # `0` and `False` compare equal: no type a caller tells apart
        (CHECK.replace("return False", "return 0"), False, None),
        # another condition is another case: nothing proven of this one
        (
            CHECK.replace(
                "if not path:\n        return False", "if path is None:\n        return None"
            ),
            False,
            None,
        ),
    ],
)
def test_a_literal_returned_under_the_same_if_changed(
    tmp_path: Path, after: str, breaking: bool, said: str | None
) -> None:
    analysis, verdicts = checked_entry(
        tmp_path,
        {"ignore/__init__.py": "", "ignore/rules.py": CHECK},
        {"ignore/rules.py": after},
        "Tidy the empty path case",
    )
    assert analysis.breaking is breaking
    # (every sentence of the entry: its risks, insights and summary)
    text = json.dumps(analysis.model_dump(mode="json"), ensure_ascii=False)
    if said is None:
        assert "where it returned" not in text
    else:
        assert said in text
    assert Verdict.FALSE not in verdicts


# deepdiff 724938d: the `setup.py` read its extras from requirements files; the new
# `pyproject.toml` declares no `optimize`
SETUP = (
    "from setuptools import setup\n\n\n"
    "def get_reqs(filename):\n"
    "    with open(filename) as reqs_file:\n"
    "        return reqs_file.readlines()\n\n\n"
    'reqs = get_reqs("requirements.txt")\n'
    'cli_reqs = get_reqs("requirements-cli.txt")\n'
    'optimize_reqs = get_reqs("requirements-optimize.txt")\n\n'
    "setup(\n"
    "    name='deepdiff',\n"
    "    version='8.4.2',\n"
    "    packages=['deepdiff'],\n"
    "    install_requires=reqs,\n"
    "    extras_require={\n"
    '        "cli": cli_reqs,\n'
    '        "optimize": optimize_reqs,\n'
    "    },\n"
    ")\n"
)
PYPROJECT = (
    "[build-system]\n"
    'requires = ["flit_core >=3.11,<4"]\n'
    'build-backend = "flit_core.buildapi"\n\n'
    "[project]\n"
    'name = "deepdiff"\n'
    'version = "8.4.2"\n'
    'dependencies = ["orderly-set>=5.3.0,<6"]\n\n'
    "[project.optional-dependencies]\n"
    'cli = ["click~=8.1.0", "pyyaml~=6.0.0"]\n'
)


@pytest.mark.parametrize(
    ("pyproject", "said"),
    [
        (PYPROJECT, True),
        # the extra declared again: nothing lost
        (PYPROJECT + 'optimize = ["orjson"]\n', False),
    ],
)
def test_an_extra_setup_py_declared_by_name_and_dropped_is_breaking(
    tmp_path: Path, pyproject: str, said: bool
) -> None:
    before: dict[str, str | None] = {
        "deepdiff/__init__.py": "",
        "setup.py": SETUP,
        "requirements.txt": "orderly-set==5.3.0\n",
        "requirements-cli.txt": "click==8.1.8\npyyaml==6.0.2\n",
        "requirements-optimize.txt": "orjson\n",
    }
    after: dict[str, str | None] = {
        "setup.py": None,
        "requirements.txt": None,
        "requirements-cli.txt": None,
        "requirements-optimize.txt": None,
        "pyproject.toml": pyproject,
    }
    analysis, verdicts = checked_entry(
        tmp_path, before, after, "Convert legacy setuptools use to pyproject.toml"
    )
    risks = [r for r in analysis.risks if "extra" in r.description]
    assert bool(risks) is said
    if said:
        assert analysis.breaking
        assert risks[0].description == "Removes the extra `optimize`."
        assert risks[0].consequence == (
            "`pip install deepdiff[optimize]` no longer installs `orjson` (pip only warns)."
        )
    else:
        assert "optimize" not in " ".join(r.description for r in analysis.risks)
    assert Verdict.FALSE not in verdicts
