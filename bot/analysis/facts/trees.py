"""Which parser reads one side of a whole file, chosen by the file's language and extension."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from bot.analysis.facts.cfile import clike_side
from bot.analysis.facts.gofile import go_side
from bot.analysis.facts.jsfile import script_side
from bot.analysis.facts.rustfile import rust_side
from bot.analysis.facts.scan import Side
from bot.analysis.paths import Language

SideReader = Callable[[str, Side], bool]


def side_reader(language: Language, path: str, *, tests: bool) -> SideReader:
    """The function that fills a `Side` from one revision's text of `path` (False when the
    text cannot be read); `tests`: the path is a test file's."""
    if language is Language.RUST:
        return partial(rust_side, tests=tests)
    if language is Language.GO:
        # `go test` reads tests from `_test.go` files only
        return partial(go_side, tests=path.endswith("_test.go"))
    if language in (Language.JAVASCRIPT, Language.TYPESCRIPT):
        return partial(
            script_side,
            grammar=grammar_of(language, path),
            tests=tests,
        )
    return partial(clike_side, tests=tests)


def grammar_of(language: Language, path: str) -> str:
    """The tree-sitter grammar (`sitter.py`) of a Rust, Go, JavaScript or TypeScript file:
    a `.tsx` file's JSX needs TypeScript's TSX grammar."""
    if language is Language.TYPESCRIPT:
        return "tsx" if path.endswith(".tsx") else "typescript"
    return language.value
