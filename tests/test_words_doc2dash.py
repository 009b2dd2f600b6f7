"""Words on held-out hynek/doc2dash (read at a375109 and after): an older changelog item only
wrapped anew keeps the commit's own item; a clone shaped like the commit."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.clones import checked_entry

pytestmark = pytest.mark.usefixtures("environ_clean", "keep_test_logging")

_CHANGELOG = (
    "# Changelog\n\n## [Unreleased]\n\n### Added\n\n{added}"
    "### Fixed\n\n{fixed}\n\n## [3.0.0] - 2022-09-13\n\n- First.\n"
)
_OLD_ONE_LINE = (
    "- The table of contents-generation for *pydoctor*-based documentation has been restored."
    " [#133](https://github.com/hynek/doc2dash/pull/133)\n"
)
_OLD_WRAPPED = (
    "- The table of contents-generation for *pydoctor*-based documentation has been restored.\n"
    "  [#133](https://github.com/hynek/doc2dash/pull/133)\n"
)
_NEW = (
    "- Support for 2x icons using the `--icon-2x` option.\n"
    "  [#200](https://github.com/hynek/doc2dash/pull/200)\n\n\n"
)
_MAIN = (
    "import click\n\n\n@click.command()\n"
    '@click.option("--icon", type=click.Path(exists=True))\n{option}'
    "def main(icon, {param}):\n    return icon\n"
)


def test_an_older_item_wrapped_anew_keeps_the_commits_own_item(tmp_path: Path) -> None:
    # doc2dash 94f9279 "Add support for 2x icons (#200)" (its body a squash's steps): the
    # changelog's older #133 item was wrapped anew, read as a rewrite, so the entry said only
    # "`main`, `prepare_docset` gain the parameter `icon_2x`"
    analysis, _ = checked_entry(
        tmp_path,
        {
            "CHANGELOG.md": _CHANGELOG.format(added="", fixed=_OLD_ONE_LINE),
            "src/doc2dash/__main__.py": _MAIN.format(option="", param="index_page=None"),
        },
        {
            "CHANGELOG.md": _CHANGELOG.format(added=_NEW, fixed=_OLD_WRAPPED),
            "src/doc2dash/__main__.py": _MAIN.format(
                option='@click.option("--icon-2x", type=click.Path(exists=True))\n',
                param="icon_2x, index_page=None",
            ),
        },
        "Add support for 2x icons (#200)\n\n* Add support for 2x icons\n\nFixes #130\n\n"
        "* Add PR#\n\n* Rephrase",
    )
    assert "support for 2x icons using the `--icon-2x` option" in analysis.summary
    assert "pydoctor" not in analysis.summary


def test_an_older_item_reworded_is_still_no_entry_of_the_commit(tmp_path: Path) -> None:
    # the same item with its words changed is an old change's rewrite: no entry is read
    analysis, _ = checked_entry(
        tmp_path,
        {
            "CHANGELOG.md": _CHANGELOG.format(added="", fixed=_OLD_ONE_LINE),
            "src/doc2dash/__main__.py": _MAIN.format(option="", param="index_page=None"),
        },
        {
            "CHANGELOG.md": _CHANGELOG.format(
                added="", fixed=_OLD_WRAPPED.replace("has been restored", "works again")
            ),
            "src/doc2dash/__main__.py": _MAIN.format(option="", param="index_page=1"),
        },
        "Tidy the changelog",
    )
    assert "works again" not in analysis.summary
