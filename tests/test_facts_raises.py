"""What a caller now catches: multidict 6097b608's `_extend` raises `ValueError` where it
raised `TypeError`; attrs cbaef3f8's `deep_mapping` and structlog 8b3b2703's `ConsoleRenderer`
may now raise `ValueError`, each said with its message (bound to `msg` first, or holding names
in backquotes). Each a clone shaped like the commit, every sentence checked against it, and
false versions the checker refutes. argon2-cffi c1dfc95's `verify` raises `InvalidHashError`
where it raised `InvalidHash`, one class under two names: nothing said, and the checker
refutes the sentence."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.analysis.paths import module_paths
from bot.analysis.sources import MAX_MODULES, modules_named
from bot.cli.claim_check import Verdict
from bot.cli.claims import Kind, claims_in
from bot.cli.claims_eval import entry_claims, entry_text
from bot.cli.exception_names import class_of
from bot.models import FileChange
from tests.clones import checked_entry, second_commit, verdicts_of

pytestmark = pytest.mark.usefixtures("environ_clean", "keep_test_logging")

EXTEND = '''"""Multidict implementation."""


class MultiDict:
    """Dictionary with the support for duplicate keys."""

    def _extend(self, arg, kwargs, name, method):
        if arg:
            if not isinstance(arg, MultiDict):
                raise KeyError(name)
            if hasattr(arg, "keys"):
                arg = arg.items()
            if kwargs:
                arg = list(arg)
                arg.extend(list(kwargs.items()))
            items = []
{loop}
            method(items)
        method([(self._title(key), self._key(key), value) for key, value in kwargs.items()])
'''
LOOP_BEFORE = """            for item in arg:
                if not len(item) == 2:
                    raise TypeError(
                        "{} takes either dict or list of (key, value) "
                        "tuples".format(name)
                    )
                items.append((self._title(item[0]), self._key(item[0]), item[1]))"""
LOOP_AFTER = """            for pos, item in enumerate(arg):
                if not len(item) == 2:
                    raise ValueError(
                        f"multidict update sequence element #{pos}"
                        f"has length {len(item)}; 2 is required"
                    )
                items.append((self._title(item[0]), self._key(item[0]), item[1]))"""


def _extend(loop: str) -> dict[str, str | None]:
    return {
        "multidict/_multidict_py.py": EXTEND.format(loop=loop),
        "CHANGES/1101.feature.rst": "Optimized multidict creation and extending.\n",
    }


def test_an_exception_raised_instead_of_another_is_said_and_proven(tmp_path: Path) -> None:
    # the other raise stays: only the one that changed is said
    before, after = _extend(LOOP_BEFORE), _extend(LOOP_AFTER)
    root, commit = second_commit(tmp_path / "a", before, after, "Optimize multidict extending")
    analysis, verdicts = checked_entry(
        tmp_path / "b", before, after, "Optimize multidict extending (#1101)"
    )
    assert "`MultiDict._extend` now raises `ValueError` instead of `TypeError`." in (
        entry_text(analysis)
    )
    assert Kind.RAISES_INSTEAD in {c.kind for c in entry_claims(analysis)[0]}
    assert verdicts and all(v is Verdict.TRUE for v in verdicts)
    name = "`MultiDict._extend` now raises"
    cases = {
        f"{name} `ValueError` instead of `TypeError`.": Verdict.TRUE,
        # raised at the parent already / still raised / never raised
        f"{name} `KeyError` instead of `TypeError`.": Verdict.FALSE,
        f"{name} `ValueError` instead of `KeyError`.": Verdict.FALSE,
        f"{name} `ValueError` instead of `IndexError`.": Verdict.FALSE,
    }
    for sentence, verdict in cases.items():
        assert verdicts_of(root, commit.sha, sentence) == [(Kind.RAISES_INSTEAD, verdict)]


VALIDATORS = '''"""Commonly useful validators."""


@attrs(repr=False, slots=True, unsafe_hash=True)
class _DeepMapping:
    key_validator = attrib(validator={optional_key})
    value_validator = attrib(validator={optional_value})
    mapping_validator = attrib(default=None, validator=optional(is_callable()))

    def __call__(self, inst, attr, value):
        """
        We use a callable class to be able to change the ``__repr__``.
        """
        if self.mapping_validator is not None:
            self.mapping_validator(inst, attr, value)

        for key in value:
{calls}


def deep_mapping({params}):
    """
    A validator that performs deep validation of a dictionary.
    """
{check}
    return _DeepMapping(key_validator, value_validator, mapping_validator)
'''
CHECK = """    if key_validator is None and value_validator is None:
        msg = (
            "At least one of key_validator or value_validator must be provided"
        )
        raise ValueError(msg)
"""

REQUIRED = "key_validator, value_validator, mapping_validator=None"
OPTIONAL = "\n    key_validator=None, value_validator=None, mapping_validator=None\n"


CALLS_BEFORE = """            self.key_validator(inst, attr, key)
            self.value_validator(inst, attr, value[key])"""
CALLS_AFTER = """            if self.key_validator is not None:
                self.key_validator(inst, attr, key)
            if self.value_validator is not None:
                self.value_validator(inst, attr, value[key])"""


STUB_BEFORE = """from typing import overload

def deep_mapping(
    key_validator: _ValidatorType[_K],
    value_validator: _ValidatorType[_V],
    mapping_validator: _ValidatorType[_M] | None = ...,
) -> _ValidatorType[_M]: ...
"""
STUB_AFTER = """from typing import overload

@overload
def deep_mapping(
    key_validator: _ValidatorType[_K],
    value_validator: _ValidatorType[_V] | None = ...,
    mapping_validator: _ValidatorType[_M] | None = ...,
) -> _ValidatorType[_M]: ...
@overload
def deep_mapping(
    key_validator: _ValidatorType[_K] | None = ...,
    value_validator: _ValidatorType[_V] = ...,
    mapping_validator: _ValidatorType[_M] | None = ...,
) -> _ValidatorType[_M]: ...
"""


def _validators(params: str, check: str) -> str:
    optional = params == OPTIONAL
    validator = "optional(is_callable())" if optional else "is_callable()"
    return VALIDATORS.format(
        params=params,
        check=check,
        optional_key=validator,
        optional_value=validator,
        calls=CALLS_AFTER if optional else CALLS_BEFORE,
    )


def test_a_new_exception_is_said_with_the_message_a_local_name_holds(tmp_path: Path) -> None:
    before = {
        "src/attr/validators.py": _validators(REQUIRED, ""),
        "src/attr/validators.pyi": STUB_BEFORE,
    }
    after = {
        "src/attr/validators.py": _validators(OPTIONAL, CHECK),
        "src/attr/validators.pyi": STUB_AFTER,
        "changelog.d/1448.change.md": (
            "`attrs.validators.deep_mapping()` now allows to leave out either *key_validator* "
            "xor *value_validator*.\n"
        ),
        "tests/test_validators.py": (
            "import pytest\n\nfrom attr.validators import deep_mapping\n\n\n"
            "def test_no_validators():\n    with pytest.raises(ValueError):\n"
            "        deep_mapping()\n"
        ),
    }
    root, commit = second_commit(tmp_path / "a", before, after, "Make validators optional")
    analysis, verdicts = checked_entry(
        tmp_path / "b",
        before,
        after,
        "Make validators optional in deep_mapping (#1448)\n\nFixes #1246",
    )
    assert (
        "may now raise `ValueError` with “At least one of key_validator or value_validator "
        "must be provided”" in entry_text(analysis)
    )
    assert verdicts and all(v is Verdict.TRUE for v in verdicts)
    name = "`deep_mapping` may now raise `ValueError`"
    cases = {
        f"{name} with “At least one of key_validator or value_validator must be provided”.": (
            Verdict.TRUE
        ),
        f"{name} with “Both validators are missing”.": Verdict.FALSE,
    }
    for sentence, verdict in cases.items():
        assert verdicts_of(root, commit.sha, sentence) == [(Kind.MAY_RAISE, verdict)]


def test_a_name_bound_twice_or_a_parameter_is_no_message(tmp_path: Path) -> None:
    # `msg` bound twice, or a parameter: which string the raise gives is not known
    twice = CHECK.replace(
        "        raise", '        if mapping_validator:\n            msg = "x"\n        raise'
    )
    given = CHECK.replace("raise ValueError(msg)", "raise ValueError(key_validator)")
    for at, check in enumerate((twice, given)):
        root, commit = second_commit(
            tmp_path / str(at),
            {"src/attr/validators.py": _validators(REQUIRED, "")},
            {"src/attr/validators.py": _validators(OPTIONAL, check)},
            "Make validators optional in deep_mapping (#1448)",
        )
        sentence = (
            "`deep_mapping` may now raise `ValueError` with “At least one of key_validator or "
            "value_validator must be provided”."
        )
        assert verdicts_of(root, commit.sha, sentence) == [(Kind.MAY_RAISE, Verdict.FALSE)]


def test_the_claim_reads_the_exception_its_message_and_the_function() -> None:
    claims, loose = claims_in(
        "`ConsoleRenderer` in `src/structlog/dev.py` may now raise `ValueError` with "
        "“Cannot set both `pad_event` and `pad_event_to`.” `ConsoleRenderer` gains the "
        "parameter `pad_event_to`."
    )
    assert [(c.kind, c.name, c.path, c.old, c.new) for c in claims[:1]] == [
        (
            Kind.MAY_RAISE,
            "ConsoleRenderer",
            "src/structlog/dev.py",
            "ValueError",
            "Cannot set both `pad_event` and `pad_event_to`.",
        )
    ]
    assert [c.kind for c in claims[1:]] == [Kind.PARAM_NEW]
    assert loose == []


# argon2-cffi c1dfc95 ("Ruff life"): `verify` raises `InvalidHashError` where it raised
# `InvalidHash`, the module that defines both (`InvalidHash = InvalidHashError`) unchanged
ARGON2_ERRORS = '''"""Exceptions raised by argon2-cffi."""


class VerificationError(Exception):
    """Verification failed."""


class InvalidHashError(ValueError):
    """Raised if the hash is invalid before passing it to *Argon2*."""


{alias}
'''
HASHER = '''"""A password hasher."""

from ._utils import extract_parameters
from .exceptions import {name}


class PasswordHasher:
    """High level class to hash passwords with sensible defaults."""

    _header_to_type = {{"$argon2i": "I"}}

    def verify(self, hash, password):
        """Verify that *password* matches *hash*."""
        hash = hash.decode() if isinstance(hash, bytes) else hash
        try:
            hash_type = self._header_to_type[hash[:9]]
        except LookupError:
            raise {raised}

        return hash_type, extract_parameters(hash), password
'''
ALIAS = '''InvalidHash = InvalidHashError
"""Deprecated alias for :class:`InvalidHashError`."""'''
OTHER_CLASS = '''class InvalidHash(ValueError):
    """Raised if the hash is invalid, as it was."""'''


def _hasher(name: str, raised: str, alias: str = ALIAS) -> dict[str, str | None]:
    return {
        "src/argon2/exceptions.py": ARGON2_ERRORS.format(alias=alias),
        "src/argon2/_hasher.py": HASHER.format(name=name, raised=raised),
        "src/argon2/_utils.py": "def extract_parameters(hash):\n    return hash.split('$')\n",
    }


SAID = "`PasswordHasher.verify` now raises `InvalidHashError` instead of `InvalidHash`."


def test_an_exception_raised_by_its_other_name_is_no_new_exception(tmp_path: Path) -> None:
    # the module that binds both names is no file of the commit: it is read for it
    first = _hasher("InvalidHash", "InvalidHash()")
    after = _hasher("InvalidHashError", "InvalidHashError() from None")
    root, commit = second_commit(tmp_path / "a", first, after, "Ruff life")
    assert not any(f.filename.endswith("exceptions.py") for f in commit.files)
    assert [p for p, _ in commit.modules] == ["src/argon2/exceptions.py"]
    analysis, verdicts = checked_entry(tmp_path / "b", first, after, "Ruff life")
    text = entry_text(analysis)
    assert "InvalidHashError" not in text and "instead of" not in text
    assert all(v is Verdict.TRUE for v in verdicts)
    # the checker's own reading: one class under two names
    assert verdicts_of(root, commit.sha, SAID) == [(Kind.RAISES_INSTEAD, Verdict.FALSE)]


def test_an_exception_raised_instead_of_another_class_is_said(tmp_path: Path) -> None:
    # the same respelling where the old name is a class of its own: another exception
    first = _hasher("InvalidHash", "InvalidHash()", OTHER_CLASS)
    after = _hasher("InvalidHashError", "InvalidHashError() from None", OTHER_CLASS)
    root, commit = second_commit(tmp_path / "a", first, after, "Ruff life")
    analysis, verdicts = checked_entry(tmp_path / "b", first, after, "Ruff life")
    assert SAID in entry_text(analysis)
    assert verdicts and all(v is Verdict.TRUE for v in verdicts)
    assert verdicts_of(root, commit.sha, SAID) == [(Kind.RAISES_INSTEAD, Verdict.TRUE)]


def test_an_exception_from_a_module_not_read_is_said_of_nothing(tmp_path: Path) -> None:
    # imported from another package (not in the tree): not proven another class, not said
    first = _hasher("InvalidHash", "InvalidHash()")
    after = _hasher("InvalidHashError", "InvalidHashError() from None")
    for files in (first, after):
        text = files["src/argon2/_hasher.py"] or ""
        files["src/argon2/_hasher.py"] = text.replace("from .exceptions", "from argon3.errors")
    analysis, _ = checked_entry(tmp_path, first, after, "Ruff life")
    assert "InvalidHashError" not in entry_text(analysis)


def test_online_the_module_is_chosen_from_the_import_the_patch_shows(tmp_path: Path) -> None:
    """Online the module rides on the query that reads the changed file, so it is chosen
    before the file's texts are known: from the lines the patch shows. argon2-cffi c1dfc95's
    patch changes the import (`from .exceptions import InvalidHashError`): the same module
    as offline; an import the hunks leave out is not seen, and nothing is read."""
    first = _hasher("InvalidHash", "InvalidHash()")
    after = _hasher("InvalidHashError", "InvalidHashError() from None")
    _, commit = second_commit(tmp_path / "a", first, after, "Ruff life")
    patches = [f.model_copy(update={"before": None, "after": None}) for f in commit.files]
    assert modules_named(patches, patches_only=True) == modules_named(list(commit.files))
    assert modules_named(patches, patches_only=True)[0] == "src/argon2/exceptions.py"
    # both names imported at both revisions, the import far from the hunk: offline only
    both = "InvalidHash, InvalidHashError"
    first = _hasher(both, "InvalidHash()")
    after = _hasher(both, "InvalidHashError() from None")
    _, commit = second_commit(tmp_path / "b", first, after, "Ruff life")
    patches = [f.model_copy(update={"before": None, "after": None}) for f in commit.files]
    assert modules_named(list(commit.files))[0] == "src/argon2/exceptions.py"
    assert modules_named(patches, patches_only=True) == []


def test_the_modules_read_for_raised_names_are_few_and_of_the_tree() -> None:
    assert module_paths("src/argon2/_hasher.py", ".exceptions") == [
        "src/argon2/exceptions.py",
        "src/argon2/exceptions/__init__.py",
    ]
    assert module_paths("src/argon2/sub/x.py", "argon2.exceptions")[0] == (
        "src/argon2/exceptions.py"
    )
    assert module_paths("src/argon2/x.py", "argon3.errors") == []  # another package's

    def changed(name: str, old: str, new: str, module: str) -> FileChange:
        text = "from {m} import {e}\n\ndef f():\n    raise {e}()\n"
        return FileChange(
            filename=name,
            patch=f"@@ -4 +4 @@\n-    raise {old}()\n+    raise {new}()\n",
            before=text.format(m=module, e=old),
            after=text.format(m=module, e=new),
        )

    files = [changed(f"pkg/m{i}.py", "Old", "New", f".errors{i}") for i in range(4)]
    assert modules_named(files) == [
        path for i in range(MAX_MODULES) for path in module_paths("pkg/m.py", f".errors{i}")
    ]
    # a builtin swapped for a builtin, or a module the commit changes: nothing to read
    assert modules_named([changed("pkg/m.py", "KeyError", "ValueError", ".errors")]) == []
    errors = FileChange(filename="pkg/errors.py", patch="@@ -1 +1 @@\n-x\n+y\n")
    assert modules_named([changed("pkg/m.py", "Old", "New", ".errors"), errors]) == []


def test_the_checker_follows_only_what_python_binds_for_sure() -> None:
    tree = {
        "pkg/errors.py": "class E(ValueError):\n    pass\n\nF = E\n",
        "pkg/core.py": "from .errors import F as G\nfrom .errors import E\n",
        "pkg/maybe.py": "try:\n    from .errors import E\nexcept ImportError:\n    E = KeyError\n",
        "pkg/shadow.py": "ValueError = KeyError\n",
    }
    read = tree.get
    assert class_of(read, "pkg/core.py", "G") == class_of(read, "pkg/core.py", "E")
    assert class_of(read, "pkg/core.py", "E") == ("pkg/errors.py", "E")
    assert class_of(read, "pkg/maybe.py", "E") is None  # which one depends on the run
    assert class_of(read, "pkg/core.py", "KeyError") == ("builtins", "KeyError")
    assert class_of(read, "pkg/shadow.py", "ValueError") == ("builtins", "KeyError")


def test_a_class_renamed_that_keeps_its_old_name_is_raised_by_either(tmp_path: Path) -> None:
    # argon2-cffi 93850eb (the class renamed, its old name bound to it) and c1dfc95 (raised
    # by the new name) in one commit: a caller's `except InvalidHash` still catches it
    first = _hasher("InvalidHash", "InvalidHash()", "")
    first["src/argon2/exceptions.py"] = (first["src/argon2/exceptions.py"] or "").replace(
        "class InvalidHashError", "class InvalidHash"
    )
    after = _hasher("InvalidHashError", "InvalidHashError() from None")
    root, commit = second_commit(tmp_path / "a", first, after, "Add InvalidHashError")
    analysis, verdicts = checked_entry(tmp_path / "b", first, after, "Add InvalidHashError")
    assert "instead of" not in entry_text(analysis)
    assert all(v is Verdict.TRUE for v in verdicts)
    assert verdicts_of(root, commit.sha, SAID) == [(Kind.RAISES_INSTEAD, Verdict.FALSE)]
