"""A parameter's new default that stands for the old value where nothing else is set is no
changed default: shaped on cattrs 0c226c29 "Extract use_alias from converter by default"."""

from __future__ import annotations

from pathlib import Path

from bot.cli.claim_check import Verdict
from tests.clones import checked_entry

_GEN = '''from typing import Literal


def make_dict_structure_fn_from_attrs(
    cl,
    converter,
    _cattrs_forbid_extra_keys: bool | Literal["from_converter"] = "from_converter",
    _cattrs_use_alias: {annotation} = {default},
):
    """Generate a specialized dict structuring function for a list of attributes."""
    if _cattrs_forbid_extra_keys == "from_converter":
        _cattrs_forbid_extra_keys = getattr(converter, "forbid_extra_keys", False)
{fallback}    return (cl, _cattrs_forbid_extra_keys, _cattrs_use_alias)


def make_dict_structure_fn(
    cl,
    converter,
    _cattrs_forbid_extra_keys: bool | Literal["from_converter"] = "from_converter",
    _cattrs_use_alias: {annotation} = {default},
):
    """Generate a specialized dict structuring function for an attrs class."""
    return make_dict_structure_fn_from_attrs(
        cl,
        converter,
        _cattrs_forbid_extra_keys=_cattrs_forbid_extra_keys,
        _cattrs_use_alias=_cattrs_use_alias,
    )
'''
_OLD = _GEN.format(annotation="bool", default="False", fallback="")
_NEW = _GEN.format(
    annotation='bool | Literal["from_converter"]',
    default='"from_converter"',
    fallback=(
        '    if _cattrs_use_alias == "from_converter":\n'
        "        # BaseConverter doesn't have it so we're careful.\n"
        '        _cattrs_use_alias = getattr(converter, "use_alias", False)\n'
    ),
)


def _called(source: str, converter: object) -> tuple[object, ...]:
    space: dict[str, object] = {}
    exec(compile(source, "gen.py", "exec"), space)
    both = (space["make_dict_structure_fn"], space["make_dict_structure_fn_from_attrs"])
    return tuple(f("C", converter) for f in both)  # type: ignore[operator]


def test_a_sentinel_default_that_falls_back_to_the_old_value_is_no_break(
    tmp_path: Path,
) -> None:
    # Python's rule, run: a converter without the new setting gets the old value from both
    class BaseConverter:
        pass

    assert _called(_NEW, BaseConverter()) == _called(_OLD, BaseConverter())
    before = {"src/cattrs/__init__.py": "", "src/cattrs/gen/__init__.py": _OLD}
    after = {"src/cattrs/gen/__init__.py": _NEW}
    message = "Extract use_alias from converter by default (#660)"
    analysis, verdicts = checked_entry(tmp_path, before, after, message)
    assert not analysis.breaking
    assert analysis.importance.value != "high"
    assert not analysis.risks
    assert "Changes default behaviour" not in str(analysis.insights)
    assert Verdict.FALSE not in verdicts


def test_a_sentinel_that_falls_back_to_another_value_still_changes_the_default(
    tmp_path: Path,
) -> None:
    new = _NEW.replace('"use_alias", False)', '"use_alias", True)')

    class BaseConverter:
        pass

    assert _called(new, BaseConverter()) != _called(_OLD, BaseConverter())
    before = {"src/cattrs/__init__.py": "", "src/cattrs/gen/__init__.py": _OLD}
    after = {"src/cattrs/gen/__init__.py": new}
    analysis, _ = checked_entry(tmp_path, before, after, "Use aliases by default (#660)")
    assert analysis.breaking
