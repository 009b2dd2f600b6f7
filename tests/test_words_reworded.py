"""Words that change without the thing changing (issue 27): a warning whose message is only
reworded is not added, and a requirement pinned for the dev tools or an extra is not what
the package requires."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.analysis.facts import read_facts
from bot.analysis.facts.records import ExtraRequirement
from bot.analysis.rules import analyze
from bot.cli.claim_check import Verdict
from bot.cli.claims_eval import entry_text
from tests.clones import checked_entry, second_commit, verdicts_of

pytestmark = pytest.mark.usefixtures("environ_clean", "keep_test_logging")

# pathspec 92a9066 "Improve debugging": `match_files` warned before, in other words
_UTIL = '''import warnings


def match_file(patterns, file):
    return any(p.match(file) for p in patterns)


def match_files(patterns, files):
    """DEPRECATED: use match_file with a loop."""
    warnings.warn((
{words}
    ), DeprecationWarning, stacklevel=2)
    return {{f for f in files if match_file(patterns, f)}}
{extra}'''
_OLD = '''        "util.match_files() is deprecated. Use util.match_file() with a "
        "loop for better results."'''
_NEW = '''        f"{__name__}.match_files() is deprecated. Use {__name__}.match_file() with "
        f"a loop for better results."'''
_ITER = """

def iter_tree(root):
    warnings.warn("iter_tree() is deprecated. Use iter_tree_files().", DeprecationWarning)
    return []
"""


def test_a_deprecation_warning_only_reworded_is_not_added(tmp_path: Path) -> None:
    before = {"pathspec/__init__.py": "", "pathspec/util.py": _UTIL.format(words=_OLD, extra="")}
    after = {"pathspec/util.py": _UTIL.format(words=_NEW, extra="")}
    analysis, verdicts = checked_entry(tmp_path, before, after, "Improve debugging")
    assert "deprecation warning" not in entry_text(analysis)
    assert Verdict.FALSE not in verdicts


def test_a_warning_in_a_function_that_had_none_is_added_beside_a_reworded_one(
    tmp_path: Path,
) -> None:
    before = {"pathspec/__init__.py": "", "pathspec/util.py": _UTIL.format(words=_OLD, extra="")}
    after = {"pathspec/util.py": _UTIL.format(words=_NEW, extra=_ITER)}
    analysis, verdicts = checked_entry(tmp_path, before, after, "Improve debugging")
    text = entry_text(analysis)
    assert "deprecation warning: “iter_tree() is deprecated" in text
    assert "match_files() is deprecated" not in text
    assert Verdict.FALSE not in verdicts


# deepdiff 9c8968f "8.1.0": `setup.py` reads `requirements.txt` into `install_requires` and
# `requirements-cli.txt` into the `cli` extra; `requirements-dev3.8.txt` it reads not at all
_SETUP = """from setuptools import setup


def get_reqs(filename):
    with open(filename, "r") as reqs_file:
        return reqs_file.readlines()


reqs = get_reqs("requirements.txt")
cli_reqs = get_reqs("requirements-cli.txt")

setup(
    name="deepdiff",
    packages=["deepdiff"],
    install_requires=reqs,
    extras_require={{"cli": cli_reqs}},{more}
)
"""
_PINS_BEFORE = {
    "requirements.txt": "orderly-set==5.2.2\n",
    "requirements-cli.txt": "click==8.1.7\npyyaml==6.0.1\n",
    "requirements-dev3.8.txt": "pytest==8.2.2\norjson==3.10.5\n",
}
_PINS_AFTER = {
    "requirements.txt": "orderly-set>=5.2.3,<6\n",
    "requirements-cli.txt": "click==8.1.7\npyyaml==6.0.2\n",
    "requirements-dev3.8.txt": "pytest==8.2.2\norjson==3.10.12\n",
}


@pytest.mark.parametrize("setup_changed", [True, False])
def test_a_requirements_file_is_said_as_whom_the_setup_feeds_it(
    tmp_path: Path, setup_changed: bool
) -> None:
    before = {
        "deepdiff/__init__.py": "",
        "setup.py": _SETUP.format(more=""),
        **_PINS_BEFORE,
    }
    after = dict(_PINS_AFTER)
    if setup_changed:
        after["setup.py"] = _SETUP.format(more='\n    package_data={"deepdiff": ["py.typed"]},')
    root, commit = second_commit(tmp_path, before, after, "8.1.0")
    facts = read_facts(commit)
    # the runtime pin alone is the package's; the dev tools' is theirs, the `cli` extra's its
    assert [(r.package, r.tools) for r in facts.requirements] == [
        ("orjson", True),
        ("orderly-set", False),
    ]
    assert facts.extras_changed == (
        ExtraRequirement("cli", "pyyaml==6.0.1", "pyyaml==6.0.2", "requirements-cli.txt"),
    )
    text = entry_text(analyze(commit))
    assert "Requires `orderly-set>=5.2.3,<6` (was `==5.2.2`)" in text
    assert "orjson" not in text
    assert "Requires `pyyaml" not in text and ", `pyyaml" not in text
    assert Verdict.FALSE not in [v for _, v in verdicts_of(root, commit.sha, text)]


def test_a_requirements_file_beside_requirements_written_out_is_no_install_s(
    tmp_path: Path,
) -> None:
    # a `setup.py` that lists its requirements itself reads no `requirements.txt`: `pip
    # install app` gets `click` unpinned, so the file's pin is no requirement of the package
    setup = 'from setuptools import setup\n\nsetup(name="app", install_requires=["click"])\n'
    before = {"app/__init__.py": "", "setup.py": setup, "requirements.txt": "click==8.1.7\n"}
    after = {"requirements.txt": "click==8.1.8\n"}
    analysis, verdicts = checked_entry(tmp_path, before, after, "Bump click")
    text = entry_text(analysis)
    assert "Requires `click" not in text and "`click==8.1.8` (was `==8.1.7`)" in text
    assert Verdict.FALSE not in verdicts


def test_a_requirements_file_is_the_package_s_where_no_metadata_says(tmp_path: Path) -> None:
    # a `setup.py` whose requirements come from elsewhere (a name bound at run time) says
    # nothing of `requirements.txt`: its pins stay what they were taken for
    setup = (
        "from setuptools import setup\nfrom app_build import REQS\n\n"
        'setup(name="app", install_requires=REQS)\n'
    )
    before = {"app/__init__.py": "", "setup.py": setup, "requirements.txt": "click==8.1.7\n"}
    after = {"requirements.txt": "click==8.1.8\n"}
    analysis, _ = checked_entry(tmp_path, before, after, "Bump click")
    assert "Requires `click==8.1.8` (was `==8.1.7`)" in entry_text(analysis)


# glom bc653da "Add Python 3.12": `setup.py` writes `install_requires` out (and gains a
# classifier), while `requirements.txt`, pip-compiled from `requirements.in` for the tox runs,
# moves its pins; 28 modules change beside them (past the files read whole)
_GLOM_SETUP = """from setuptools import setup

setup(name='glom',
      packages=['glom'],
      install_requires=['boltons>=19.3.0', 'attrs', 'face>=20.1.1'],
      classifiers=[{classifiers}])
"""
_COMPILED = "#\n# This file is autogenerated by pip-compile with Python 3.7\n# by the following command:\n#\n#    pip-compile requirements.in\n#\n"


def _glom_like(tmp_path: Path, setup: str) -> tuple[Path, str]:
    modules = {f"glom/m{i}.py": f"def f{i}(x):\n    return '%s' % x\n" for i in range(20)}
    before = {
        **modules,
        "setup.py": setup.format(classifiers="'Programming Language :: Python :: 3.11'"),
        "requirements.in": "attrs>=19.2.0\nboltons>=20.2.0\nface>=20.1.1\npytest>=6.2.5\n",
        "requirements.txt": _COMPILED + "attrs==23.1.0\nboltons==23.1.1\nface==22.0.0\n",
    }
    after = {
        **{name: text.replace("'%s' % x", "f'{x}'") for name, text in modules.items()},
        "setup.py": setup.format(
            classifiers="'Programming Language :: Python :: 3.11', "
            "'Programming Language :: Python :: 3.12'"
        ),
        "requirements.txt": _COMPILED + "attrs==24.2.0\nboltons==24.1.0\nface==24.0.0\n",
    }
    root, commit = second_commit(tmp_path, before, after, "Add Python 3.12 (#285)")
    text = entry_text(analyze(commit))
    assert Verdict.FALSE not in [v for _, v in verdicts_of(root, commit.sha, text)]
    return root, text


def test_pins_of_a_requirements_file_beside_requirements_written_out_are_no_requirement(
    tmp_path: Path,
) -> None:
    _, text = _glom_like(tmp_path, _GLOM_SETUP)
    assert "attrs==24.2.0" not in text and "face==24.0.0" not in text


def test_pins_of_a_requirements_file_the_setup_reads_stay_requirements(tmp_path: Path) -> None:
    reads = _GLOM_SETUP.replace(
        "install_requires=['boltons>=19.3.0', 'attrs', 'face>=20.1.1']",
        "install_requires=open('requirements.txt').read().splitlines()",
    ).replace("from setuptools", "# requirements.txt feeds it\nfrom setuptools")
    _, text = _glom_like(tmp_path, reads)
    assert "`attrs==24.2.0` (was `==23.1.0`)" in text
