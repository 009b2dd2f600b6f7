"""What one commit says (message, pull request, file names, patches, the changed files' whole
texts where fetched), for the fact guard's look-ups: whole names, paths, flags and numbers as
the author wrote them.

Every look-up is a plain substring search with the boundaries checked by hand, and nothing is
indexed ahead: a regular expression or a word set over a 300 KB diff costs tens of
milliseconds, a `str.find` a fraction of one.
"""

from __future__ import annotations

import keyword
import math
import re
from collections.abc import Iterator
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation
from fnmatch import fnmatchcase
from functools import cached_property
from itertools import islice

from bot.models import CommitInput

# A number at a position of the text, with its unit if it is a factor or a percentage.
_NUMBER_AT = re.compile(
    r"(\d{1,3}(?:,\d{3})+|\d{1,15})(?![\d,])(\.\d{1,8})?(?!\d)[ \t]?(%|×|x(?![a-z0-9_]))?"
)
# A number as a claim writes it: sign, digits, decimals, then anything (its unit).
_CLAIMED = re.compile(r"[~≈+\-−±]?(\d{1,3}(?:,\d{3})+|\d{1,15})(\.\d{1,8})?(.*)", re.DOTALL)
_VERSION = re.compile(r"v?\d+(?:\.\d+){2,}[\w.+-]*")
_SEPARATORS = re.compile(r"\.|::|->")
_NAME_CHARS = re.compile(r"[a-z0-9_]+")
# Words of code that say nothing about the commit (`self.x` is supported by `x`).
_KEYWORDS = frozenset(k.lower() for k in keyword.kwlist) | {
    *("self", "cls", "this", "null", "nil", "new", "const", "let", "var", "auto", "void"),
    *("int", "float", "str", "bool"),
}
# How many occurrences of a number's whole part are read for its roundings.
_MAX_HITS = 2_000
# An integer up to this, with no unit, is a count ("two files", "3 tests"): never checked.
SMALL = 10
_ORDINALS = ("", "st", "nd", "rd", "th")
# A unit's spellings (folded): a claim's `2 s` is the commit's `2 seconds`.
_UNITS: dict[str, tuple[str, ...]] = {
    **dict.fromkeys(
        ("s", "sec", "secs", "second", "seconds", "秒"),
        ("seconds", "second", "secs", "sec", "s", "秒"),
    ),
    **dict.fromkeys(
        ("ms", "millisecond", "milliseconds", "毫秒"), ("milliseconds", "millisecond", "ms", "毫秒")
    ),
    **dict.fromkeys(
        ("min", "mins", "minute", "minutes", "分钟"), ("minutes", "minute", "mins", "min", "分钟")
    ),
    **dict.fromkeys(
        ("h", "hr", "hrs", "hour", "hours", "小时"), ("hours", "hour", "hrs", "hr", "h", "小时")
    ),
    **dict.fromkeys(("token", "tokens"), ("tokens", "token")),
}


# Typographic variants of what a name or number is written with: full-width letters and
# digits, the hyphens that are not U+002D, the spaces that are not U+0020 (a model writes
# `Qwen3‑Next` with U+2011, "2 GB" with U+202F).
_TYPOGRAPHIC: dict[int, str] = str.maketrans(
    {
        **{c: chr(c - 0xFEE0) for c in range(0xFF01, 0xFF5F) if chr(c - 0xFEE0).isalnum()},
        **dict.fromkeys(map(ord, "\u2010\u2011\u2012\u2212\ufe63\uff0d"), "-"),
        **dict.fromkeys(map(ord, "\u00a0\u2007\u2009\u200a\u202f\u3000"), " "),
    }
)


_VARIANT = re.compile("[" + "".join(map(chr, sorted(_TYPOGRAPHIC))) + "]")


def typographic(text: str) -> str:
    """`text` with the typographic variants of letters, digits, hyphens and spaces folded to
    their ASCII forms (CJK punctuation stays: it ends clauses and sentences). Only the
    variants are replaced: `str.translate` takes 10 ms over a 300 KB diff with any non-ASCII."""
    if text.isascii():
        return text
    return _VARIANT.sub(lambda m: _TYPOGRAPHIC[ord(m.group())], text)


def fold(text: str) -> str:
    """`text` with its ASCII letters lowercased (names are ASCII; CJK has no case): twice as
    fast as `str.lower` on a large diff, and the same for the commit and the claims."""
    return text.encode("utf-8", "surrogatepass").lower().decode("utf-8", "surrogatepass")


def _joins(char: str, inner: str = "") -> bool:
    return char.isascii() and (char.isalnum() or char == "_" or char in inner)


def _decimal(whole: str, fraction: str | None) -> Decimal | None:
    try:
        return Decimal(whole.replace(",", "") + (fraction or ""))
    except InvalidOperation:
        return None


def _rounds_to(value: Decimal, claimed: Decimal, places: int) -> bool:
    """Whether `value` is `claimed`, or rounds to it at the claim's decimal places."""
    try:
        return abs(value).quantize(Decimal(1).scaleb(-places), ROUND_HALF_UP) == claimed
    except InvalidOperation:
        return False


class Ground:
    """One commit's own text, lowercased, and the paths of its files."""

    def __init__(self, commit: CommitInput) -> None:
        parts = [commit.repo, commit.message]
        pr = commit.pull_request
        if pr is not None:
            parts += [f"#{pr.number}", pr.title, pr.body, *pr.labels]
        for f in commit.files:
            # The whole files where fetched: a name defined in a changed file, outside its
            # hunks, is the change's too.
            parts += [f.filename, f.previous_filename or "", f.patch or ""]
            parts += [f.before or "", f.after or ""]
        self.text = fold(typographic("\n".join(parts)))
        self._patches = [f.patch for f in commit.files if f.patch]
        self.paths = tuple(
            fold(p) for f in commit.files for p in (f.filename, f.previous_filename) if p
        )
        self._stats = frozenset(
            [commit.additions, commit.deletions, commit.additions + commit.deletions]
            + [len(commit.files)]
            + [n for f in commit.files for n in (f.additions, f.deletions, f.changes)]
        )

    def _hits(self, token: str) -> Iterator[int]:
        start = 0
        while (at := self.text.find(token, start)) >= 0:
            yield at
            start = at + 1

    def occurs(self, token: str, inner: str = "", *, word: bool = False) -> bool:
        """Whether `token` (folded) is in the commit as a whole: not as part of a longer
        name (`foo` is not in `foobar`; with `inner="-"`, `a-b` is not in `a-b-c`), or with
        `word`, as one word of a snake_case name too (`moe` in `fused_moe`)."""
        if not token:
            return True
        text, size = self.text, len(token)

        def joins(char: str) -> bool:
            return _joins(char, inner) and not (word and char == "_")

        head, tail = joins(token[0]), joins(token[-1])
        for at in self._hits(token):
            before = text[at - 1] if at else " "
            after = text[at + size] if at + size < len(text) else " "
            if not (head and joins(before)) and not (tail and joins(after)):
                return True
        return False

    def leads(self, token: str) -> bool:
        """Whether a name starts with `token` and goes on with no digit (`sm90` in `sm90a`,
        not in `sm900`)."""
        text, size = self.text, len(token)
        for at in self._hits(token):
            before = text[at - 1] if at else " "
            after = text[at + size] if at + size < len(text) else " "
            if not _joins(before) and not after.isdigit():
                return True
        return False

    def after(self, phrase: str, size: int = 24) -> Iterator[str]:
        """The text that follows each occurrence of `phrase`."""
        for at in self._hits(phrase):
            yield self.text[at + len(phrase) : at + len(phrase) + size]

    def path(self, token: str) -> bool:
        """A path the commit names: a file, a suffix or folder of one, a glob over them, or
        a path written in its text."""
        p = fold(token).removeprefix("./").strip("/")
        if not p:
            return True
        if "*" in p or "?" in p:
            return any(
                fnmatchcase(f, p) or fnmatchcase(f, f"*/{p}") or fnmatchcase(f, f"{p}/*")
                for f in self.paths
            )
        return any(
            f == p or f.endswith(f"/{p}") or f.startswith(f"{p}/") or f"/{p}/" in f"/{f}"
            for f in self.paths
        ) or self.occurs(p, inner="/.")

    def name(self, token: str, *, word: bool = False) -> bool:
        """An identifier: as written, or each part of a dotted name (`a.b.c`); a glob part
        (`_flashmla_*`) must match some name of the commit. With `word`, a part without `_`
        may be one word of a snake_case name (prose's `MoE` is `fused_moe`'s)."""
        low = fold(token)
        if self.occurs(low):
            return True
        parts = [p for p in _SEPARATORS.split(low) if p]
        return all(self._part(p, word=word and "_" not in p) for p in parts)

    def _part(self, part: str, *, word: bool) -> bool:
        bare = part.strip("*")
        if part in _KEYWORDS or len(bare) < 2:
            return True
        if "*" in part:
            return any(fnmatchcase(m, part) for m in _NAME_CHARS.findall(self._around(bare)) if m)
        return self.occurs(part, word=word)

    def _around(self, piece: str) -> str:
        """The names of the text that contain `piece`, separated by spaces."""
        found = []
        for at in self._hits(piece):
            start = at
            while start and _joins(self.text[start - 1]):
                start -= 1
            end = at + len(piece)
            while end < len(self.text) and _joins(self.text[end]):
                end += 1
            found.append(self.text[start:end])
            if len(found) > 200:
                break
        return " ".join(found)

    def flag(self, token: str) -> bool:
        """A command-line flag, as `--a-b`, `a-b` (a config key) or `a_b` (the option's
        attribute, as argparse and click name it)."""
        name = fold(token.lstrip("-").split("=", 1)[0])
        return (
            not name
            or self.occurs(f"--{name}", inner="-")
            or self.occurs(name, inner="-")
            or self.occurs(name.replace("-", "_"))
        )

    def number(self, token: str) -> bool:
        """A number as the author wrote it: the same figure (2.30 is 2.3; 2.3 rounds 2.31),
        a factor as a percentage or back (2.3x is 230 % or 130 %); counts up to SMALL pass."""
        low = fold(token)
        if self.occurs(low):
            return True
        if _VERSION.fullmatch(low):
            return self.occurs(low.removeprefix("v"))
        m = _CLAIMED.fullmatch(low)
        value = _decimal(m.group(1), m.group(2)) if m else None
        if m is None or value is None:
            return True
        places = len(m.group(2) or ".") - 1
        unit = m.group(3).strip().replace("×", "x")
        if unit in ("x", "%"):
            return self._scaled(value, places, unit)
        if not places and value <= SMALL and unit in _ORDINALS:
            return True
        if not places and int(value) in self._stats:
            return True
        candidates = [value] + ([value * 1000] if unit == "k" else [])
        return any(self._plain(v, places) for v in candidates)

    def _plain(self, value: Decimal, places: int) -> bool:
        half = Decimal(5).scaleb(-places - 1)
        low, high = math.floor(value - half), math.floor(value + half)
        for whole in {max(low, 0), max(high, 0)}:
            for found, _ in self._numbers_at(str(whole)):
                if _rounds_to(found, value, places):
                    return True
        return False

    def _numbers_at(self, digits: str) -> Iterator[tuple[Decimal, str]]:
        """The commit's numbers whose whole part is `digits`, with their unit, hunk headers
        (`@@ -35,7 +35,9 @@`) aside."""
        text = self.text
        forms = {digits, f"{int(digits):,}"}
        for form in forms:
            # Bounded: a `0` or a `1` may occur thousands of times in a large diff.
            for at in islice(self._hits(form), _MAX_HITS):
                if at and (_joins(text[at - 1]) or text[at - 1] in ".,"):
                    continue
                if text.startswith("@@", text.rfind("\n", 0, at) + 1):
                    continue
                m = _NUMBER_AT.match(text, at)
                if m is None or m.group(1).replace(",", "") != digits:
                    continue
                found = _decimal(m.group(1), m.group(2))
                if found is not None:
                    yield found, (m.group(3) or "").replace("×", "x")

    @cached_property
    def _factors(self) -> tuple[tuple[Decimal, str], ...]:
        """Every number of the commit written as a factor or a percentage (`2.3x`, `15 %`)."""
        text, found = self.text, []
        for unit in ("%", "×", "x"):
            for at in self._hits(unit):
                end = at - 1 if at and text[at - 1] in " \t" else at
                start = end
                while start and (text[start - 1].isdigit() or text[start - 1] in ".,"):
                    start -= 1
                if start == end or (start and _joins(text[start - 1])):
                    continue
                m = _NUMBER_AT.match(text, start)
                if m is not None and m.group(3):
                    value = _decimal(m.group(1), m.group(2))
                    if value is not None:
                        found.append((value, m.group(3).replace("×", "x")))
        return tuple(found)

    def _scaled(self, value: Decimal, places: int, unit: str) -> bool:
        for found, its in self._factors:
            if its == unit:
                forms = [found]
            elif unit == "%":  # a factor of the commit, claimed as a percentage
                forms = [found * 100, (found - 1) * 100]
            else:
                forms = [found / 100, 1 + found / 100]
            if any(_rounds_to(f, value, places) for f in forms):
                return True
        return False

    def option_value(self, name: str, value: str, span: int = 200) -> bool:
        """Whether an option `name` (`--a-b`, `a_b`) is followed, within `span` characters, by
        `value` as a whole word: `--quantization=mxfp4` needs `mxfp4` given to that option."""
        base = fold(name.lstrip("-"))
        want = fold(value).strip("'\"")
        if not want:
            return True
        for form in {base, base.replace("-", "_"), base.replace("_", "-")}:
            for at in self._hits(form):
                window = self.text[at + len(form) : at + len(form) + span]
                start = 0
                while (i := window.find(want, start)) >= 0:
                    before = window[i - 1] if i else " "
                    end = i + len(want)
                    after = window[end] if end < len(window) else " "
                    if not _joins(before, "-") and not _joins(after, "-"):
                        return True
                    start = i + 1
        return False

    def quantity(self, number: str, unit: str) -> bool:
        """Whether the commit writes `number` with `unit` (`2 MB`, `2MB`, `2-MB`), or a
        figure that rounds to it; a number with a unit is a measure, never a count."""
        value = _decimal(number, None) if "." not in number else _decimal(*number.split(".", 1))
        if value is None:
            return True
        places = len(number.split(".", 1)[1]) if "." in number else 0
        units = _UNITS.get(fold(unit), (fold(unit),))
        for digits in {str(int(value)), str(int(value) + 1), str(max(int(value) - 1, 0))}:
            for at in islice(self._hits(digits), _MAX_HITS):
                if at and (_joins(self.text[at - 1]) or self.text[at - 1] in ".,"):
                    continue
                m = _NUMBER_AT.match(self.text, at)
                if m is None or m.group(1).replace(",", "") != digits:
                    continue
                found = _decimal(m.group(1), m.group(2))
                if found is None or not _rounds_to(found, value, places):
                    continue
                rest = self.text[at + len(m.group(1)) + len(m.group(2) or "") :][:24]
                rest = rest.lstrip(" -\t")
                if any(rest.startswith(u) and not _joins(rest[len(u) : len(u) + 1]) for u in units):
                    return True
        return False

    def quote(self, text: str) -> bool:
        """Whether `text` (a quoted message) is in the commit whole, spaces aside."""
        want = " ".join(fold(typographic(text)).split())
        return not want or want in self._spaced

    @cached_property
    def _spaced(self) -> str:
        return " ".join(self.text.split())

    def in_patches(self, text: str) -> bool:
        """Whether `text` is written whole in the change's patches (not its message or pull
        request, where an instruction to a model would be planted)."""
        want = " ".join(fold(typographic(text)).split())
        return any(want in " ".join(fold(typographic(p)).split()) for p in self._patches)
