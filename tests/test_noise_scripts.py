"""What is said of private wiring, and scripts beside the package (issue 27, xmltodict and
bidict readers): a top-level script the wheel does not hold is low and asks for no test
(bidict 9beb69f's `cachegrind.py`, xmltodict cc54376's `ez_setup.py`); a Python 2 shim
taken out with the surface kept is internal (xmltodict ec7d5b6); what a private name takes,
or what a private call is passed, is unsaid on a medium entry (bidict 3032e9f)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.analysis.facts.parses import Parses
from bot.analysis.root_modules import shipped_root_files
from bot.analysis.rules import analyze
from bot.cli.clone import unresolved
from bot.models import Analysis, Importance
from tests.clones import second_commit

pytestmark = pytest.mark.usefixtures("environ_clean", "keep_test_logging")

SETUP = "from setuptools import setup\n\nsetup(name='xmltodict', py_modules=['xmltodict'])\n"
MODULE = "def parse(text):\n    return text.split()\n"
EZ = (
    "import optparse\n\n\ndef _parse_args():\n    parser = optparse.OptionParser()\n"
    "    parser.add_option('--to-dir', help='Directory to save (and re-use) package')\n"
    "    return parser.parse_args()\n"
)


def _analysis(tmp_path: Path, before: dict, after: dict, title: str) -> Analysis:  # type: ignore[type-arg]
    _, commit = second_commit(tmp_path, before, after, title)
    return analyze(commit)


def _said(a: Analysis) -> str:
    insights = a.insights.model_dump_json() if a.insights else ""
    return " ".join([a.summary, insights, *(r.text for r in a.recommendations)])


def test_a_fix_of_a_script_the_wheel_does_not_hold_is_low_and_asks_no_test(
    tmp_path: Path,
) -> None:
    before = {"setup.py": SETUP, "xmltodict.py": MODULE, "ez_setup.py": EZ}
    after = {"ez_setup.py": EZ.replace("re-use", "reuse")}
    a = _analysis(tmp_path, before, after, "Fix misspellings found by codespell")
    assert a.importance is Importance.LOW
    assert "regression test" not in _said(a)


def test_the_module_the_wheel_holds_stays_shipped(tmp_path: Path) -> None:
    before = {"setup.py": SETUP, "xmltodict.py": MODULE, "ez_setup.py": EZ}
    after = {"xmltodict.py": MODULE.replace("split()", "split(',')")}
    a = _analysis(tmp_path, before, after, "Fix parse splitting on commas")
    assert a.importance is not Importance.LOW


@pytest.mark.parametrize(
    ("texts", "held"),
    [
        ({"setup.py": SETUP}, {"xmltodict.py"}),
        ({"setup.py": "from setuptools import setup\nsetup(packages=['pkg'])\n"}, set()),
        (
            {
                "setup.py": "from setuptools import setup\nsetup(packages=['p'], scripts=['run.py'])\n"
            },
            {"run.py"},
        ),
        (
            {
                "pyproject.toml": '[project]\nname = "bidict"\n[tool.uv.build-backend]\n'
                'module-root = ""\n[build-system]\nbuild-backend = "uv_build"\n'
            },
            {"bidict.py"},
        ),
        (
            {
                "pyproject.toml": '[project]\nname = "my-lib"\n[build-system]\nbuild-backend = "flit_core.buildapi"\n'
            },
            {"my_lib.py"},
        ),
        ({"setup.cfg": "[options]\npy_modules = one\n    two\n"}, {"one.py", "two.py"}),
    ],
)
def test_the_top_files_a_wheel_holds_as_its_packaging_says(
    texts: dict[str, str], held: set[str]
) -> None:
    assert shipped_root_files(texts, Parses()) == frozenset(held)


@pytest.mark.parametrize(
    "texts",
    [
        # setuptools' own discovery: any top module may ship
        {"setup.py": "from setuptools import setup\nsetup(name='x')\n"},
        {"setup.py": "from setuptools import setup\nsetup(**options)\n"},
        {"setup.py": "from setuptools import setup\nsetup(py_modules=MODULES)\n"},
        {"pyproject.toml": '[build-system]\nbuild-backend = "hatchling.build"\n'},
    ],
)
def test_a_wheel_the_packaging_does_not_spell_out_is_unknown(texts: dict[str, str]) -> None:
    assert shipped_root_files(texts, Parses()) is None


def test_a_python2_shim_taken_out_with_the_surface_kept_is_low(tmp_path: Path) -> None:
    before = {
        "setup.py": SETUP,
        "xmltodict.py": "try:\n    _unicode = unicode\nexcept NameError:\n    _unicode = str\n\n\n"
        "def parse(text):\n    if isinstance(text, _unicode):\n        text = text.encode()\n"
        "    return text\n",
    }
    after = {
        "xmltodict.py": "def parse(text):\n    if isinstance(text, str):\n"
        "        text = text.encode()\n    return text\n"
    }
    a = _analysis(tmp_path, before, after, "Get rid of Python 2 basestring and unicode")
    assert a.importance is Importance.LOW


BASE = (
    "class Base:\n"
    "    def copy(self):\n        return self._from_other(self.__class__, self)\n\n"
    "    @staticmethod\n    def _from_other(bt, other):\n        return bt(other)\n\n"
    "    def put(self, key, val, on_dup=None):\n        return key\n"
)


def test_a_private_signature_and_what_a_private_call_is_passed_are_unsaid(
    tmp_path: Path,
) -> None:
    after_text = (
        BASE.replace("self._from_other(self.__class__, self)", "self._from_other(self)")
        .replace(
            "@staticmethod\n    def _from_other(bt, other)",
            "@classmethod\n    def _from_other(cls, other)",
        )
        .replace("return bt(other)", "return cls(other)")
        .replace("on_dup=None", "on_dup=None, strict=False")
    )
    a = _analysis(
        tmp_path, {"pkg/base.py": BASE}, {"pkg/base.py": after_text}, "Add a strict mode to put"
    )
    assert a.importance is not Importance.LOW
    said = _said(a)
    assert "`strict=False`" in said  # the public method's new parameter is still said
    assert "_from_other` no longer takes" not in said
    assert "became" not in said


def test_a_title_word_types_no_feature_speedup_or_docs_in_the_dev_tools(tmp_path: Path) -> None:
    # bidict cf817df "Drop redundant uv dev dependency": a dev dependency, no speed-up
    before = {
        "pyproject.toml": '[project]\nname = "x"\n[dependency-groups]\ndev = ["uv", "ruff"]\n',
        "x.py": MODULE,
    }
    after = {"pyproject.toml": '[project]\nname = "x"\n[dependency-groups]\ndev = ["ruff"]\n'}
    a = _analysis(tmp_path, before, after, "Drop redundant uv dev dependency")
    assert a.importance is Importance.LOW
    assert not {"performance", "feature", "docs"} & {t.value for t in a.change_types}


def test_a_title_typo_word_beside_a_spell_checker_setting_is_no_docs(tmp_path: Path) -> None:
    before = {
        ".pre-commit-config.yaml": "repos: []\n",
        "x.py": MODULE,
        "_typos.toml": "[default]\n",
    }
    after = {
        ".pre-commit-config.yaml": "repos:\n- repo: https://github.com/adhtruong/mirrors-typos\n"
        "  rev: v1.0\n  hooks:\n  - id: typos\n",
        "_typos.toml": "[default]\nextend-ignore-re = []\n",
    }
    a = _analysis(tmp_path, before, after, "add back 'typos' pre-commit hook")
    assert "docs" not in {t.value for t in a.change_types}


def test_a_sha_no_commit_of_the_clone_has_is_unresolved(tmp_path: Path) -> None:
    root, commit = second_commit(tmp_path, {"x.py": MODULE}, {"x.py": MODULE + "\n"}, "Touch")
    gone = "85ee8232ba14430ffbf221ea8fb7965ab3f50029"
    assert unresolved(root, [commit.sha, commit.sha[:7].upper(), gone]) == {gone}


def test_classifiers_a_setup_py_adds_are_said_before_a_respaced_tox_ini(tmp_path: Path) -> None:
    # xmltodict 8c39893: its only words were "`tox.ini` parses to the same settings …"
    setup = "from setuptools import setup\n\nsetup(name='x', classifiers=[\n{}])\n"
    old = "    'Programming Language :: Python :: 3.10',\n"
    new = old + "    'Programming Language :: Python :: 3.11',\n"
    before = {"setup.py": setup.format(old), "tox.ini": "[tox]\nenvlist = py310 \n", "x.py": MODULE}
    after = {"setup.py": setup.format(new), "tox.ini": "[tox]\nenvlist = py310\n"}
    a = _analysis(tmp_path, before, after, "Add support for python 3.11")
    assert "`Programming Language :: Python :: 3.11`" in a.summary
    assert "tox.ini" not in a.summary
