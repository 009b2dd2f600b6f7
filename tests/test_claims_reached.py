"""The claims checker on raises a function now reaches, a raise's class changed, a class no
subclass of another, module metadata gone and a title's break the code does not show: a
true and a false claim each, on clones shaped like xmltodict c986d2d, 25b61a4, 8861d29,
7364427."""

from __future__ import annotations

import subprocess
from pathlib import Path

from bot.cli.claim_check import Verdict
from bot.cli.claims import Kind
from tests.clones import commit_files, verdicts_of

# xmltodict's `parse` before c986d2d: entity hooks that raise nothing
PARSE = (
    "from xml.parsers import expat\n\n\n"
    "def parse(xml_input, disable_entities=True):\n"
    "    parser = expat.ParserCreate()\n"
    "    if disable_entities:\n"
    "{hooks}"
    "    parser.Parse(xml_input, True)\n"
)
QUIET = "        parser.DefaultHandler = lambda x: None\n"
FORBID = (
    "        def _forbid_entities(*_args, **_kwargs):\n"
    '            raise {raised}("{message}")\n\n'
    "        parser.EntityDeclHandler = _forbid_entities\n"
)
RAISED = "`parse` now raises `{raised}`, when `disable_entities` holds, as it does by default."
RETYPED = (
    "`parse` now raises `{new}` (was `{old}`) from `parser.EntityDeclHandler`, when "
    "`disable_entities`."
)
UNCAUGHT = (
    "Code that wraps `parse` in `except {old}` now lets it through: `{new}` is no subclass "
    "of `{old}`."
)


def _clone(
    tmp_path: Path, before: dict[str, str | None], after: dict[str, str | None]
) -> tuple[Path, str]:
    root = tmp_path / "xmltodict"
    root.mkdir(parents=True)
    subprocess.run(["git", "init", "-q", "-b", "main", str(root)], check=True)
    for key, value in (("user.name", "Ada"), ("user.email", "ada@example.com")):
        subprocess.run(["git", "-C", str(root), "config", key, value], check=True)
    commit_files(root, dict(before), "Initial layout")
    return root, commit_files(root, dict(after), "fix: the change")


def _forbidding(raised: str, message: str) -> str:
    return PARSE.format(hooks=FORBID.format(raised=raised, message=message))


def test_a_raise_now_reached_through_a_hook_under_the_default_test(tmp_path: Path) -> None:
    # c986d2d: `parse` sets `parser.EntityDeclHandler` to a closure raising ExpatError
    message = "xmltodict.parse(): entities are disabled"
    root, sha = _clone(
        tmp_path,
        {"xmltodict.py": PARSE.format(hooks=QUIET)},
        {"xmltodict.py": _forbidding("expat.ExpatError", message)},
    )
    said = RAISED.format(raised=f'expat.ExpatError("{message}")')
    assert verdicts_of(root, sha, said) == [(Kind.RAISES_REACHED, Verdict.TRUE)]
    # another message, or another class, is not what the code raises
    wrong = RAISED.format(raised='expat.ExpatError("entities are disabled")')
    assert verdicts_of(root, sha, wrong) == [(Kind.RAISES_REACHED, Verdict.FALSE)]
    other = RAISED.format(raised=f'ValueError("{message}")')
    assert verdicts_of(root, sha, other) == [(Kind.RAISES_REACHED, Verdict.FALSE)]


def test_a_raise_the_parent_module_already_gave_is_not_new(tmp_path: Path) -> None:
    message = "entities are disabled"
    source = _forbidding("ValueError", message)
    root, sha = _clone(tmp_path, {"xmltodict.py": source}, {"xmltodict.py": source + "\n\nX = 1\n"})
    said = RAISED.format(raised=f'ValueError("{message}")')
    assert verdicts_of(root, sha, said) == [(Kind.RAISES_REACHED, Verdict.FALSE)]


def test_as_it_does_by_default_needs_the_default_true(tmp_path: Path) -> None:
    message = "entities are disabled"
    off = _forbidding("ValueError", message).replace(
        "disable_entities=True", "disable_entities=False"
    )
    root, sha = _clone(tmp_path, {"xmltodict.py": PARSE.format(hooks=QUIET)}, {"xmltodict.py": off})
    said = RAISED.format(raised=f'ValueError("{message}")')
    assert verdicts_of(root, sha, said) == [(Kind.RAISES_REACHED, Verdict.FALSE)]


def test_a_message_built_at_run_time_is_unverifiable(tmp_path: Path) -> None:
    after = PARSE.format(
        hooks="        def _forbid(*a):\n            raise ValueError(MESSAGE)\n\n"
        "        parser.EntityDeclHandler = _forbid\n"
    )
    root, sha = _clone(
        tmp_path, {"xmltodict.py": PARSE.format(hooks=QUIET)}, {"xmltodict.py": after}
    )
    said = RAISED.format(raised='ValueError("entities are disabled")')
    assert verdicts_of(root, sha, said) == [(Kind.RAISES_REACHED, Verdict.UNVERIFIABLE)]


def test_a_raise_reached_through_a_helper_with_an_f_string(tmp_path: Path) -> None:
    # f98c90f: `unparse` → `_emit` → `_validate_name`, whose f-string message has a hole
    before = "def _emit(key):\n    return key\n\n\ndef unparse(d):\n    return _emit(d)\n"
    after = (
        "def _validate_name(value, kind):\n"
        "    if not isinstance(value, str):\n"
        '        raise ValueError(f"{kind} name must be a string")\n\n\n'
        "def _emit(key):\n    _validate_name(key, 'element')\n    return key\n\n\n"
        "def unparse(d):\n    return _emit(d)\n"
    )
    root, sha = _clone(tmp_path, {"xmltodict.py": before}, {"xmltodict.py": after})
    said = (
        '`unparse` now raises `ValueError("{…} name must be a string")`, or with 4 other messages.'
    )
    assert verdicts_of(root, sha, said) == [(Kind.RAISES_REACHED, Verdict.TRUE)]
    # `_emit` is reached from `unparse`, not the other way round
    unreached = '`_validate_name` now raises `ValueError("{…} name must be a list")`.'
    assert verdicts_of(root, sha, unreached) == [(Kind.RAISES_REACHED, Verdict.FALSE)]


def test_a_raise_retyped_from_a_hook_and_no_subclass(tmp_path: Path) -> None:
    # 25b61a4: the closure now raises ValueError where it raised expat.ExpatError
    root, sha = _clone(
        tmp_path,
        {
            "xmltodict.py": _forbidding(
                "expat.ExpatError", "xmltodict.parse(): entities are disabled"
            )
        },
        {"xmltodict.py": _forbidding("ValueError", "entities are disabled")},
    )
    said = RETYPED.format(new="ValueError", old="expat.ExpatError")
    assert verdicts_of(root, sha, said) == [(Kind.RAISES_RETYPED, Verdict.TRUE)]
    backwards = RETYPED.format(new="expat.ExpatError", old="ValueError")
    assert verdicts_of(root, sha, backwards) == [(Kind.RAISES_RETYPED, Verdict.FALSE)]
    # Python's own hierarchy: ValueError does not derive from expat.ExpatError; a
    # UnicodeDecodeError derives from ValueError
    uncaught = UNCAUGHT.format(new="ValueError", old="expat.ExpatError")
    assert verdicts_of(root, sha, uncaught) == [(Kind.NOT_SUBCLASS, Verdict.TRUE)]
    caught = UNCAUGHT.format(new="UnicodeDecodeError", old="ValueError")
    assert verdicts_of(root, sha, caught) == [(Kind.NOT_SUBCLASS, Verdict.FALSE)]


def test_no_subclass_follows_the_module_own_classes(tmp_path: Path) -> None:
    classes = (
        "class ParseError(ValueError):\n    pass\n\n\n"
        "class EntitiesError(ParseError):\n    pass\n\n\n"
    )
    source = classes + _forbidding("EntitiesError", "entities are disabled")
    root, sha = _clone(
        tmp_path, {"xmltodict.py": PARSE.format(hooks=QUIET)}, {"xmltodict.py": source}
    )
    derived = UNCAUGHT.format(new="EntitiesError", old="ValueError")
    assert verdicts_of(root, sha, derived) == [(Kind.NOT_SUBCLASS, Verdict.FALSE)]
    apart = UNCAUGHT.format(new="EntitiesError", old="KeyError")
    assert verdicts_of(root, sha, apart) == [(Kind.NOT_SUBCLASS, Verdict.TRUE)]
    # a class of a third-party module is not followed
    third = source.replace("from xml.parsers import expat", "from lxml import etree")
    root2, sha2 = _clone(tmp_path / "b", {"xmltodict.py": source}, {"xmltodict.py": third})
    unknown = UNCAUGHT.format(new="ValueError", old="etree.XMLSyntaxError")
    assert verdicts_of(root2, sha2, unknown) == [(Kind.NOT_SUBCLASS, Verdict.UNVERIFIABLE)]


METADATA = '__author__ = "Martin Blech"\n__version__ = "0.14.2"\n__license__ = "MIT"\n\n\ndef parse(x):\n    return x\n'


def test_metadata_gone_from_the_module(tmp_path: Path) -> None:
    # 8861d29: the version moves to pyproject.toml
    root, sha = _clone(
        tmp_path,
        {"xmltodict.py": METADATA},
        {
            "xmltodict.py": METADATA.replace('__version__ = "0.14.2"\n', "").replace(
                '__license__ = "MIT"\n', ""
            ),
            "pyproject.toml": '[project]\nname = "xmltodict"\nversion = "0.14.2"\n',
        },
    )
    said = "Reading `xmltodict.__version__`, `xmltodict.__license__` now raises `AttributeError`."
    assert verdicts_of(root, sha, said) == [
        (Kind.METADATA_GONE, Verdict.TRUE),
        (Kind.METADATA_GONE, Verdict.TRUE),
    ]
    kept = "Reading `xmltodict.__author__` now raises `AttributeError`."
    assert verdicts_of(root, sha, kept) == [(Kind.METADATA_GONE, Verdict.FALSE)]
    # the "removes … from FILE" kind reads a dunder as any assigned name
    removed = "Removes `__version__`, `__author__` from `xmltodict.py`."
    assert verdicts_of(root, sha, removed) == [
        (Kind.REMOVES, Verdict.TRUE),
        (Kind.REMOVES, Verdict.FALSE),
    ]


def test_metadata_served_by_a_module_getattr_is_unverifiable(tmp_path: Path) -> None:
    lazy = (
        METADATA.replace('__version__ = "0.14.2"\n', "")
        + "\n\ndef __getattr__(name):\n    raise AttributeError(name)\n"
    )
    root, sha = _clone(tmp_path, {"xmltodict.py": METADATA}, {"xmltodict.py": lazy})
    said = "Reading `xmltodict.__version__` now raises `AttributeError`."
    assert verdicts_of(root, sha, said) == [(Kind.METADATA_GONE, Verdict.UNVERIFIABLE)]


SETUP = (
    "from setuptools import setup\n\n"
    "setup(\n"
    '    name="xmltodict",\n'
    '    python_requires="{python}",\n'
    '    py_modules=["xmltodict"],\n'
    ")\n"
)
KEPT = (
    "The title marks this change as breaking (`refactor!`); the code removes no public name "
    "from the modules it ships and the Python requirement is unchanged (`>=3.9`)."
)


def test_a_title_break_the_code_does_not_show(tmp_path: Path) -> None:
    # 7364427: ez_setup.py goes (not shipped: `py_modules` lists `xmltodict` alone); the
    # module loses a private alias and an import only
    module = "from collections import OrderedDict\n\n_dict = OrderedDict\n\n\ndef parse(x):\n    return x\n"
    root, sha = _clone(
        tmp_path,
        {
            "setup.py": SETUP.format(python=">=3.9"),
            "ez_setup.py": "def use_setuptools():\n    pass\n",
            "xmltodict.py": module,
        },
        {
            "setup.py": SETUP.format(python=">=3.9") + "\n",
            "ez_setup.py": None,
            "xmltodict.py": "def parse(x):\n    return x\n",
        },
    )
    assert verdicts_of(root, sha, KEPT) == [
        (Kind.NO_NAME_REMOVED, Verdict.TRUE),
        (Kind.PYTHON_KEPT, Verdict.TRUE),
    ]


def test_a_public_name_removed_and_the_requirement_raised(tmp_path: Path) -> None:
    module = "def parse(x):\n    return x\n\n\ndef unparse(x):\n    return x\n"
    root, sha = _clone(
        tmp_path,
        {"setup.py": SETUP.format(python=">=3.6"), "xmltodict.py": module},
        {"setup.py": SETUP.format(python=">=3.9"), "xmltodict.py": "def parse(x):\n    return x\n"},
    )
    assert verdicts_of(root, sha, KEPT) == [
        (Kind.NO_NAME_REMOVED, Verdict.FALSE),
        (Kind.PYTHON_KEPT, Verdict.FALSE),
    ]


def test_what_raises_it_after_a_reached_raise(tmp_path: Path) -> None:
    # c986d2d: `parser.DefaultHandler` raises through a helper that calls the closure, where
    # the parent's lambda raised nothing; `parser.CommentHandler` is set to no raiser
    forbid = (
        "        def _forbid_entities(*_args, **_kwargs):\n"
        '            raise expat.ExpatError("entities are disabled")\n\n'
        "        def _forbid_default(text):\n"
        "            if text.startswith('<!ENTITY'):\n"
        "                _forbid_entities()\n\n"
        "        parser.DefaultHandler = _forbid_default\n"
        "        parser.EntityDeclHandler = _forbid_entities\n"
        "        parser.CommentHandler = lambda x: None\n"
    )
    before = PARSE.format(hooks=QUIET + "        parser.CommentHandler = lambda x: None\n")
    root, sha = _clone(
        tmp_path, {"xmltodict.py": before}, {"xmltodict.py": PARSE.format(hooks=forbid)}
    )
    reached = RAISED.format(raised='expat.ExpatError("entities are disabled")')
    hooks = "The hooks it sets raise it (`parser.DefaultHandler`, `parser.CommentHandler`)."
    quiet = (
        "At the parent `parser.DefaultHandler`, `parser.EntityDeclHandler` raised nothing: "
        "input `parse` accepted with its defaults may now fail."
    )
    assert verdicts_of(root, sha, f"{reached} {hooks} {quiet}") == [
        (Kind.RAISES_REACHED, Verdict.TRUE),
        (Kind.HOOK_RAISES, Verdict.TRUE),
        (Kind.HOOK_RAISES, Verdict.FALSE),
        (Kind.HOOK_QUIET, Verdict.TRUE),
        # the parent set no `parser.EntityDeclHandler`
        (Kind.HOOK_QUIET, Verdict.FALSE),
    ]
    # without a reached raise before it, "… raises it" says nothing checkable
    assert verdicts_of(root, sha, hooks) == []


def test_the_helper_that_raises_it(tmp_path: Path) -> None:
    before = "def _emit(key):\n    return key\n\n\ndef unparse(d):\n    return _emit(d)\n"
    after = (
        "def _emit(key):\n"
        "    if '<' in key:\n"
        '        raise ValueError("Invalid element name")\n'
        "    return key\n\n\n"
        "def _other(key):\n    return key\n\n\n"
        "def unparse(d):\n    return _emit(d)\n"
    )
    root, sha = _clone(tmp_path, {"xmltodict.py": before}, {"xmltodict.py": after})
    reached = '`unparse` now raises `ValueError("Invalid element name")`.'
    assert verdicts_of(root, sha, f"{reached} `_emit` raises it.") == [
        (Kind.RAISES_REACHED, Verdict.TRUE),
        (Kind.HOLDER_RAISES, Verdict.TRUE),
    ]
    assert verdicts_of(root, sha, f"{reached} `_other` raises it.") == [
        (Kind.RAISES_REACHED, Verdict.TRUE),
        (Kind.HOLDER_RAISES, Verdict.FALSE),
    ]
