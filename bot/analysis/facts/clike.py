"""Facts in a C, C++, CUDA or Ascend C file's diff: functions, kernels, classes, operators."""

from __future__ import annotations

import re

from bot.analysis.facts.records import NameKind, Registry
from bot.analysis.facts.scan import FileReading, Hunk

_TEMPLATE_ARGS = r"(?:<[^<>()]*(?:<[^<>()]*>[^<>()]*)*>)?"
_QUALIFIED = rf"[A-Za-z_]\w*{_TEMPLATE_ARGS}(?:::~?[A-Za-z_]\w*{_TEMPLATE_ARGS})*"
# A function defined or declared at the left margin: a return type, then its name and `(`.
_FUNCTION = re.compile(
    r"^(?:template\s*<[^>]*>\s*)?"
    r"((?:[\w:<>,\[\]*&]+\s+)+?)[*&]*\s*"
    rf"({_QUALIFIED})\s*\("
)
_NOT_A_TYPE = re.compile(
    r"^(?:return|if|else|for|while|switch|case|do|goto|typedef|using|namespace|delete|new"
    r"|throw|sizeof|co_return|static_assert|alignas|alignof|decltype|__attribute__|defined)\b"
)
_CLASS = re.compile(
    r"^(?:template\s*<[^>]*>\s*)?(?:class|struct)\s+(?:\w+\s+)*?([A-Za-z_]\w*)\s*(?:final\s*)?"
    r"(?::[^;]*)?\{?\s*$"
)
_TEST = re.compile(r"^\s*TEST(?:_F|_P)?\(\s*(\w+)\s*,\s*(\w+)\s*\)")
# Operators registered with PyTorch (`m.def("name(Tensor x) -> Tensor")`) or with the CANN
# operator registry (`OP_ADD(Name)`).
_TORCH_OP = re.compile(r"""\b(\w+)\.def\(\s*"([A-Za-z_]\w*)\(""")
_OP_ADD = re.compile(r"^\s*OP_ADD\(\s*(\w+)\s*\)")
_GETENV = re.compile(r"""getenv\(\s*"([A-Z][A-Z0-9_]{2,})"\s*\)""")
_PLAIN = re.compile(r"<[^<>]*>")
# Lines read ahead for the `{` or `;` that ends a function's head: a body or a declaration.
_HEAD_LINES = 12
# Attributes between a function's return type and its name (`__global__ void
# __launch_bounds__(256) kernel(…)`): never the name.
_ATTRIBUTE = re.compile(
    r"\b__(?:launch_bounds|cluster_dims|attribute|declspec)__\s*\((?:[^()]|\([^()]*\))*\)\s*"
)


def _name(raw: str) -> str:
    """`Foo<T>::bar` is read as `Foo::bar`."""
    while "<" in raw:
        stripped = _PLAIN.sub("", raw)
        if stripped == raw:
            break
        raw = stripped
    return raw


def _definition(text: str) -> tuple[str, NameKind, bool] | None:
    """The function, kernel or class a left-margin line defines or declares: its name,
    kind, and whether other files can see it (not `static`)."""
    if not text or text[0] in " \t#/*{}" or _NOT_A_TYPE.match(text):
        return None
    text = _ATTRIBUTE.sub("", text)
    if "(" in text:
        match = _FUNCTION.match(text)
        if match and not _NOT_A_TYPE.match(match.group(2)):
            prefix = match.group(1)
            name = _name(match.group(2))
            kind = NameKind.KERNEL if "__global__" in prefix else NameKind.FUNCTION
            if "::" in name and kind is NameKind.FUNCTION:
                kind = NameKind.METHOD
            return name, kind, "static " not in f"{prefix} " and not prefix.startswith("static")
    if text.startswith(("class", "struct", "template")) and not text.rstrip().endswith(";"):
        match = _CLASS.match(text)
        if match:
            return match.group(1), NameKind.CLASS, True
    return None


def _declared_only(lines: tuple[tuple[str, str], ...], start: int, sign: str) -> bool:
    """Whether the function head starting at `lines[start]` ends with `;` before any `{`, on
    the lines of its side: a declaration or an explicit instantiation (`template void
    f<int>(…);`), not a definition. A head the hunk cuts before either is taken as read."""
    depth = 0
    seen = 0
    for side, text in lines[start:]:
        if side not in (" ", sign):
            continue
        for char in text.split("//", 1)[0]:
            if char in "([":
                depth += 1
            elif char in ")]":
                depth -= 1
            elif depth <= 0 and char in "{;":
                return char == ";"
        seen += 1
        if seen >= _HEAD_LINES:
            break
    return False


def read_clike(
    path: str, file_hunks: list[Hunk], reading: FileReading, *, user_facing: bool, tests: bool
) -> None:
    """Fill `reading` from a C-family file's hunks (see `python.read_python`)."""
    for hunk in file_hunks:
        enclosing = _definition(hunk.heading)
        current = {"+": enclosing, "-": enclosing}
        for index, (sign, text) in enumerate(hunk.lines):
            sides = ("+", "-") if sign == " " else (sign,)
            found = _definition(text)
            if found and found[1] is not NameKind.CLASS and _declared_only(hunk.lines, index, sign):
                found = None
            if found:
                for s in sides:
                    current[s] = found
                if sign != " " and found[2]:
                    reading.side(sign).defs[found[0]] = (found[1], text.strip())
                continue
            if text.startswith("}"):
                for s in sides:
                    current[s] = None
                continue
            if sign == " " or not text.strip():
                continue
            inside = current[sign]
            if inside:
                reading.changed.setdefault(inside[0], inside[1])
            side = reading.side(sign)
            if tests and (test := _TEST.match(text)) and sign == "+":
                reading.plus.tests.append(f"{test.group(1)}.{test.group(2)}")
            if not user_facing:
                continue
            if ".def(" in text:
                for m in _TORCH_OP.finditer(text):
                    side.registrations[m.group(2)] = (Registry.OPERATOR, f"{m.group(1)}.def")
            if text.lstrip().startswith("OP_ADD") and (op := _OP_ADD.match(text)):
                side.registrations[op.group(1)] = (Registry.OPERATOR, "OP_ADD")
            if "getenv" in text:
                for m in _GETENV.finditer(text):
                    side.env[m.group(1)] = None
