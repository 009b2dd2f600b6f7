"""Words on python-attrs/cattrs's HISTORY.md (MyST): a role in braces is the name it shows,
a line of only issue links says nothing, "**Potentially breaking**" is the author's mark;
each a clone shaped like the commit."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.cli.claim_check import Verdict
from bot.models import Importance
from tests.clones import checked_entry

pytestmark = pytest.mark.usefixtures("environ_clean", "keep_test_logging")

_HISTORY = (
    "# History\n\n```{currentmodule} cattrs\n```\n\n"
    "This project adheres to [Calendar Versioning](https://calver.org/).\n\n"
    "{items}"
    "## 24.1.1 (2024-09-11)\n\n"
    "- Fix {meth}`BaseConverter.register_structure_hook_factory` with a callable.\n"
    "  ([#578](https://github.com/python-attrs/cattrs/pull/578))\n"
)
_CONVERTERS = (
    "from typing import Any, Callable, overload\n\n\n"
    "class StructureHandlerNotFoundError(Exception):\n    pass\n\n\n"
    "class BaseConverter:\n"
    "    def __init__(self):\n        self._hooks = {{}}\n\n"
    "    def register_structure_hook(self, cl: Any, func: {hint}) -> None:\n"
    "        self._hooks[cl] = func\n\n"
    "    def get_structure_hook(self, cl: Any) -> Callable[..., Any]:\n"
    "{lookup}"
)
_LAZY = "        return lambda value: self._hooks[cl](value, cl)\n"
_EAGER = (
    "        hook = self._hooks.get(cl)\n"
    "        if hook is None:\n"
    "            raise StructureHandlerNotFoundError(f'Unsupported type: {cl!r}')\n"
    "        handler = hook\n"
    "        seen = [cl]\n"
    "        if len(seen) > 1:\n"
    "            raise RuntimeError('cycle')\n"
    "        return lambda value: handler(value, cl)\n"
)


def test_a_myst_role_is_the_name_it_shows_and_an_issue_line_no_words(tmp_path: Path) -> None:
    # cattrs bf46025: "Fix {meth}`BaseConverter.register_structure_hook` and {meth}`…` type
    # hints." followed by a line "([#581](…) [#582](…))"; the summary kept "{meth}" and
    # ended "(`#581` `#582`)."
    item = (
        "## 24.1.2 (UNRELEASED)\n\n"
        "- Fix {meth}`BaseConverter.register_structure_hook` and "
        "{meth}`BaseConverter.register_unstructure_hook` type hints.\n"
        "  ([#581](https://github.com/python-attrs/cattrs/issues/581) "
        "[#582](https://github.com/python-attrs/cattrs/pull/582))\n\n"
    )
    analysis, verdicts = checked_entry(
        tmp_path,
        {
            "HISTORY.md": _HISTORY.replace("{items}", ""),
            "src/cattrs/converters.py": _CONVERTERS.format(hint="Callable", lookup=_LAZY),
        },
        {
            "HISTORY.md": _HISTORY.replace("{items}", item),
            "src/cattrs/converters.py": _CONVERTERS.format(
                hint="Callable[[Any, type], Any]", lookup=_LAZY
            ),
        },
        "Fix `BaseConverter.register_{un,}structure_hook` type signature (#582)",
    )
    assert analysis.summary.startswith(
        "Fix `BaseConverter.register_structure_hook` and "
        "`BaseConverter.register_unstructure_hook` type hints."
    ), analysis.summary
    assert "{meth}" not in analysis.summary and "#581" not in analysis.summary
    assert all(v is Verdict.TRUE for v in verdicts)


def test_an_item_marked_potentially_breaking_is_the_author_s_mark(tmp_path: Path) -> None:
    # cattrs e536258 "Raise errors for missing structure handlers more eagerly (#577)": its
    # item opens "**Potentially breaking**:"; the entry was medium, typed "other", no risk
    item = (
        "## 24.2.0 (UNRELEASED)\n\n"
        "- **Potentially breaking**: The converters raise "
        "{class}`StructureHandlerNotFoundError` more eagerly (on hook creation, instead of "
        "on hook use).\n  This helps surfacing problems with missing hooks sooner.\n"
        "  ([#577](https://github.com/python-attrs/cattrs/pull/577))\n\n"
    )
    analysis, _ = checked_entry(
        tmp_path,
        {
            "HISTORY.md": _HISTORY.replace("{items}", ""),
            "src/cattrs/converters.py": _CONVERTERS.format(hint="Callable", lookup=_LAZY),
        },
        {
            "HISTORY.md": _HISTORY.replace("{items}", item),
            "src/cattrs/converters.py": _CONVERTERS.format(hint="Callable", lookup=_EAGER),
        },
        "Raise errors for missing structure handlers more eagerly (#577)",
    )
    assert analysis.breaking
    assert analysis.importance is Importance.HIGH
    said = " ".join(r.description for r in analysis.risks)
    assert "breaking in `HISTORY.md`" in said
    assert "`StructureHandlerNotFoundError` more eagerly" in said
    assert "{class}" not in analysis.summary
