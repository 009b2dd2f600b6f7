"""A module public by its name is its users' only where its package hands it out: its
`__init__.py` imports from it or binds it under an exported name, it is a package of one
module, or a documentation page names it. soupsieve b8701de ("Build patterns and regexes
lazily in css_parser") stopped setting `SpecialPseudoPattern.re_pseudo_name` in
`soupsieve/css_parser.py`, a module `soupsieve/__init__.py` imports only as `cp`, left out of
its `__all__`: internal, never "Code that uses … fails", never breaking."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.analysis.facts.exposure import internal_modules, is_document
from bot.cli.claim_check import Verdict
from bot.cli.claims_eval import entry_text
from bot.models import Importance
from tests.clones import checked_entry

pytestmark = pytest.mark.usefixtures("environ_clean", "keep_test_logging")

# soupsieve/__init__.py at b8701de's parent, cut to what decides
SOUPSIEVE_INIT = (
    "from .__meta__ import __version__, __version_info__  # noqa: F401\n"
    "from . import css_parser as cp\n"
    "from . import css_match as cm\n"
    "from .util import DEBUG, SelectorSyntaxError  # noqa: F401\n\n"
    "__all__ = (\n"
    "    'DEBUG', 'SelectorSyntaxError', 'SoupSieve',\n"
    "    'closest', 'compile', 'filter', 'iselect',\n"
    "    'match', 'select', 'select_one'\n"
    ")\n\n"
    "SoupSieve = cm.SoupSieve\n"
)
PARSER = "soupsieve/css_parser.py"


@pytest.mark.parametrize(
    ("init", "documents", "internal"),
    [
        # imported only as `cp`, which `__all__` leaves out: the package's insides
        (SOUPSIEVE_INIT, [], True),
        # ... unless a documentation page shows it (Sphinx's `autoclass::`)
        (SOUPSIEVE_INIT, [".. autoclass:: soupsieve.css_parser.CSSParser\n"], False),
        # a file name in a developer's guide is no interface (soupsieve's development.md)
        (SOUPSIEVE_INIT, ["`css_parser.py` | Contains the CSS selector parser.\n"], True),
        # bound under a name `__all__` lists
        (SOUPSIEVE_INIT.replace("'DEBUG',", "'cp', 'DEBUG',"), [], False),
        # imported from (wrapt's `from .wrappers import ObjectProxy`)
        ("from .css_parser import CSSParser\n", [], False),
        ("from soupsieve.css_parser import CSSParser\n", [], False),
        # bound public, no `__all__` to say otherwise
        ("from . import css_parser\n", [], False),
        # bound private
        ("from . import css_parser as _cp\n", [], True),
        # an empty `__init__.py` hands out nothing
        ("", [], True),
        # a lazy loader's table names it
        ("_LAZY = {'CSSParser': '.css_parser'}\n", [], False),
        # a docstring's prose is no table
        ('"""Uses css_parser to read selectors."""\n', [], True),
        # not parsed: unknown, the name decides
        ("from . import (\n", [], False),
    ],
)
def test_a_module_is_internal_unless_its_package_hands_it_out(
    init: str, documents: list[str], internal: bool
) -> None:
    found = internal_modules([PARSER], {"soupsieve/__init__.py": init}, documents)
    assert (found == (PARSER,)) is internal


def test_what_no_package_file_decides_keeps_its_name() -> None:
    # the package's `__init__.py` not read; a top-level module (a package of one module:
    # tabulate's `tabulate.py`, under `src/` too); a private module (said so already); a
    # package's own `__init__.py`; a `__main__.py`
    inits = {"pkg/__init__.py": ""}
    paths = ["other/mod.py", "tabulate.py", "src/natsort.py", "pkg/_impl.py"]
    paths += ["pkg/__init__.py", "pkg/__main__.py"]
    assert internal_modules(paths, inits, []) == ()


def test_documents_are_pages_not_changelogs() -> None:
    assert is_document("docs/api.rst")
    assert is_document("README.md")
    assert not is_document("CHANGELOG.md")
    assert not is_document("docs/changes.rst")
    assert not is_document("soupsieve/css_parser.py")


# soupsieve/css_parser.py at b8701de's parent, cut to the class whose attribute goes
SPECIAL = (
    "import re\n\n\n"
    "class SpecialPseudoPattern:\n"
    "    def __init__(self, patterns):\n"
    "        self.patterns = {}\n"
    "        for p in patterns:\n"
    "            self.patterns[p[0]] = p\n"
    "        self.matched_name = None\n"
    "        self.re_pseudo_name = re.compile(r':[a-z-]+', re.I)\n\n"
    "    def match(self, selector, index):\n"
    "        pseudo = self.re_pseudo_name.match(selector, index)\n"
    "        self.matched_name = pseudo\n"
    "        return pseudo\n"
)
SPECIAL_AFTER = (
    "import re\n\n"
    "RE_PSEUDO_NAME = re.compile(r':[a-z-]+', re.I)\n\n\n"
    "class SpecialPseudoPattern:\n"
    "    def __init__(self, patterns):\n"
    "        self.patterns = {}\n"
    "        for p in patterns:\n"
    "            self.patterns[p[0]] = p\n"
    "        self.matched_name = None\n\n"
    "    def match(self, selector, index):\n"
    "        pseudo = RE_PSEUDO_NAME.match(selector, index)\n"
    "        self.matched_name = pseudo\n"
    "        return pseudo\n"
)


@pytest.mark.parametrize(
    ("init", "breaking"),
    [
        (SOUPSIEVE_INIT, False),
        # the same class handed out by the package: its callers lose the attribute
        (SOUPSIEVE_INIT + "from .css_parser import SpecialPseudoPattern\n", True),
    ],
)
def test_an_attribute_gone_from_an_internal_module_is_said_internal(
    tmp_path: Path, init: str, breaking: bool
) -> None:
    before = {
        "soupsieve/__init__.py": init,
        "soupsieve/css_match.py": "class SoupSieve:\n    pass\n",
        PARSER: SPECIAL,
    }
    analysis, verdicts = checked_entry(
        tmp_path, before, {PARSER: SPECIAL_AFTER}, "Build patterns and regexes lazily (#296)"
    )
    said = entry_text(analysis)
    assert analysis.breaking is breaking
    assert ("Code that uses `SpecialPseudoPattern.re_pseudo_name` fails" in said) is breaking
    assert ("internal to `soupsieve.css_parser`" in said) is not breaking
    if not breaking:
        assert analysis.risks == []
        assert analysis.importance is not Importance.HIGH
    assert Verdict.FALSE not in verdicts
