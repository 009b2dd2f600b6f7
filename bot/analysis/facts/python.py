"""Facts in a Python file's diff: definitions, exports, settings, warnings, registrations."""

from __future__ import annotations

import re

from bot.analysis.facts.records import NameKind, Registry
from bot.analysis.facts.scan import FileReading, Hunk

_DEF = re.compile(r"^([ \t]*)(?:async[ \t]+def|def|class)[ \t]+([A-Za-z_]\w*)")
_JIT = re.compile(r"^\s*@(?:triton\.(?:jit|autotune|heuristics)|\w+\.jit)\b")
# Lines at the left margin that do not end a definition above them.
_KEEPS_SCOPE = ("#", "@", ")", "]", "}", '"', "'", "else", "elif", "except", "finally")

_ALL_ITEM = re.compile(r"""^\s*["']([A-Za-z]\w*)["'],?\s*$""")
_IMPORT = re.compile(r"^from\s+\S+\s+import\s+\(?([\w\s,]*)\)?\s*$")
_IMPORT_ITEM = re.compile(r"^\s+([A-Za-z]\w*)(?:\s+as\s+\w+)?,?\s*$")

# Reads of an environment variable, with the default the line gives it.
_ENV_READ = re.compile(
    r"""(?:environ(?:\.get)?\s*[\[(]|getenv\(|env_(?:bool|int|str|float|list)\()\s*"""
    r"""["']([A-Z][A-Z0-9_]{2,})["'](?:\s*,\s*([^)\]\n]{1,40}))?(\]\s*=(?!=))?"""
)
_ENV_TABLE = re.compile(r"""^\s*["']([A-Z][A-Z0-9_]{3,})["']\s*:""")
_FLAG = re.compile(
    r"""(?:add_argument|click\.option|typer\.Option)\(\s*(?:["']-\w["']\s*,\s*)?["'](--[\w-]+)["']"""
    r"""([^\n]*)"""
)
_FLAG_DEFAULT = re.compile(r"default\s*=\s*([^,)]+)")
# `.get("key", default)` on a configuration (a file named for configuration, or a receiver
# that is one: `additional_config.get`, `self.cfg.get`).
_CONFIG_GET = re.compile(
    r"""(\w*)\.get\(\s*["']([A-Za-z][\w]{2,})["'](?:\s*,\s*([^()\n]{1,40}?|\{\}|\[\]|\(\)))?\s*\)"""
)
_CONFIG_RECEIVER = re.compile(r"(?:config|cfg|conf|options|settings)$", re.IGNORECASE)
_CONFIG_FILE = re.compile(r"(config|args|envs?|settings|options)", re.IGNORECASE)
_CONFIG_FIELD = re.compile(r"^ {4}([a-z][a-z0-9_]{2,})\s*:\s*[\w\[\], |.\"']+?=\s*(.+?)\s*$")

_DEPRECATION = re.compile(
    r"DeprecationWarning|FutureWarning|@deprecated|warn_deprecated|deprecate\w*\("
    r"|is deprecated|will be removed"
)
_QUOTED = re.compile(r""""([^"\n]{2,160})"|'([^'\n]{2,160})'""")
_REPLACEMENT = re.compile(
    r"\b(?:please use|use|in favou?r of|replaced by|switch to|instead use|migrate to)\s+"
    r"(`?)(--[\w-]+|[A-Za-z_][\w.]*(?:\(\))?)\1",
    re.IGNORECASE,
)
_NOT_A_REPLACEMENT = frozenset({"the", "a", "an", "it", "this", "that", "instead", "of"})

# Registries: a call that registers a name, and what it registers by its own name.
_REGISTER = re.compile(
    r"""@?([\w.]*register\w*|custom_op)\(\s*(?:\w+\s*=\s*)?["']([\w.:/-]+)["']"""
)
_REGISTER_TABLE = re.compile(r"""^\s*["']([A-Z]\w{2,})["']\s*:\s*\(""")
# torch.nn's and Python's own "register" calls register no capability.
_NOT_A_REGISTRY = re.compile(
    r"(?:^|\.)(?:register_(?:buffer|parameter|module|full_backward_hook|\w*hook|\w*_pre_hook"
    r"|load_state_dict\w*|state_dict\w*|pytree_node|fake|autograd|kernel|at_fork|dataclass)"
    r"|atexit\.register)$"
)


def registry_of(callee: str) -> Registry:
    """What a registering call adds to, read from its name."""
    low = callee.lower()
    if "model" in low or "arch" in low:
        return Registry.MODEL
    if "backend" in low or "attn" in low or "attention" in low:
        return Registry.BACKEND
    if "op" in low.rsplit(".", 1)[-1].split("_") or "custom_op" in low or "library" in low:
        return Registry.OPERATOR
    return Registry.OTHER


def read_python(
    path: str, file_hunks: list[Hunk], reading: FileReading, *, user_facing: bool, tests: bool
) -> None:
    """Fill `reading` from a Python file's hunks. `user_facing`: code the package ships, whose
    settings, warnings and registrations users meet; `tests`: a test file."""
    name = path.rsplit("/", 1)[-1]
    init = name == "__init__.py"
    config_file = bool(_CONFIG_FILE.search(name))
    env_table = name.startswith("env")
    registry_file = "registry" in name
    added: list[str] = []
    gone: list[str] = []
    for hunk in file_hunks:
        _definitions(hunk, reading, tests=tests)
        if init:
            _exports(hunk, reading)
        if not user_facing:
            continue
        for index, (sign, text) in enumerate(hunk.lines):
            if sign == " " or not text.strip():
                continue
            side = reading.side(sign)
            if "env" in text:
                for m in _ENV_READ.finditer(text):
                    if not m.group(3):  # `os.environ["X"] = …` sets it for a child process
                        side.env[m.group(1)] = (m.group(2) or "").strip() or None
                if env_table and (m2 := _ENV_TABLE.match(text)):
                    side.env.setdefault(m2.group(1), None)
            if "--" in text and ("add_argument" in text or "ption(" in text):
                for m in _FLAG.finditer(text):
                    default = _FLAG_DEFAULT.search(m.group(2))
                    side.flags[m.group(1)] = default.group(1).strip() if default else None
            if ".get(" in text:
                for m in _CONFIG_GET.finditer(text):
                    if config_file or _CONFIG_RECEIVER.search(m.group(1)):
                        side.keys[m.group(2)] = (m.group(3) or "").strip() or None
            if config_file and (field := _CONFIG_FIELD.match(text)):
                side.fields[field.group(1)] = field.group(2)
            if "egist" in text or "custom_op" in text:
                for m in _REGISTER.finditer(text):
                    if not _NOT_A_REGISTRY.search(m.group(1)):
                        via = m.group(1).lstrip("@")
                        side.registrations[m.group(2)] = (registry_of(via), via)
            if registry_file and (row := _REGISTER_TABLE.match(text)):
                side.registrations.setdefault(row.group(1), (Registry.MODEL, name))
            if _DEPRECATION.search(text) and not text.lstrip().startswith("#"):
                message = _warning_text(hunk, index)
                if sign == "+":
                    added.append(message)
                else:
                    gone.append(message)
    # A warning reworded is not a new one: as many are taken off as the change removes.
    for message in added[len(gone) :]:
        reading.deprecations.append((message[:160], _replacement(message)))


def _warning_text(hunk: Hunk, index: int) -> str:
    """The message of the warning raised at line `index`: the string literals of that line,
    or of the lines of the same call just above it."""
    sign = hunk.lines[index][0]
    parts: list[str] = []
    for back in range(index, max(-1, index - 5), -1):
        line_sign, text = hunk.lines[back]
        if line_sign not in (sign, " "):
            continue
        found = [m.group(1) or m.group(2) for m in _QUOTED.finditer(text)]
        if found:
            parts = found + parts
        elif parts or "warn" in text or "raise" in text:
            break
    return "".join(parts).strip() or hunk.lines[index][1].strip()


def _replacement(message: str) -> str | None:
    """What a deprecation message says to use instead: a name in backticks or shaped like
    code (`--flag`, `snake_case`, `dotted.name`, `CamelCase`), not an English word."""
    for m in _REPLACEMENT.finditer(message):
        name = m.group(2).rstrip(".")
        if (
            m.group(1)
            or name.startswith("--")
            or any(c in name for c in "_.(")
            or (not name.islower() and name.lower() not in _NOT_A_REPLACEMENT)
        ):
            return name
    return None


def _definitions(hunk: Hunk, reading: FileReading, *, tests: bool) -> None:
    """Definitions added and removed, and those a changed line sits in, on each side.

    Each side keeps a stack of the definitions enclosing the current line (indentation,
    qualified name, kind); git's hunk heading names the top-level one a hunk starts in.
    """
    stacks: dict[str, list[tuple[int, str, NameKind]]] = {"+": [], "-": []}
    top = _DEF.match(hunk.heading)
    if top:
        entry = (0, top.group(2), _kind(hunk.heading, None))
        stacks["+"].append(entry)
        stacks["-"].append(entry)
    jit = {"+": False, "-": False}
    for sign, text in hunk.lines:
        stripped = text.lstrip()
        if not stripped:
            continue
        sides = ("+", "-") if sign == " " else (sign,)
        indent = len(text) - len(stripped)
        match = _DEF.match(text) if ("def " in text or "class " in text) else None
        if match:
            for s in sides:
                stack = stacks[s]
                while stack and stack[-1][0] >= indent:
                    stack.pop()
                parent = stack[-1] if stack else None
                kind = _kind(text, parent[2] if parent else None)
                if jit[s] and kind is NameKind.FUNCTION:
                    kind = NameKind.KERNEL
                jit[s] = False
                if parent is None:
                    qualified = match.group(2)
                elif parent[2] is NameKind.CLASS:
                    qualified = f"{parent[1]}.{match.group(2)}"
                else:
                    # A function nested in a function belongs to it.
                    stack.append((indent, parent[1], parent[2]))
                    continue
                stack.append((indent, qualified, kind))
                if sign != " ":
                    reading.side(s).defs[qualified] = (kind, stripped)
                    if tests and match.group(2).startswith("test") and s == "+":
                        reading.plus.tests.append(qualified)
            continue
        if stripped.startswith("@"):
            if _JIT.match(text):
                for s in sides:
                    jit[s] = True
            continue
        if indent == 0 and not stripped.startswith(_KEEPS_SCOPE):
            for s in sides:
                stacks[s].clear()
        if sign != " ":
            stack = stacks[sign]
            if stack:
                reading.changed.setdefault(stack[-1][1], stack[-1][2])


def _kind(line: str, parent: NameKind | None) -> NameKind:
    if line.lstrip().startswith("class"):
        return NameKind.CLASS
    return NameKind.METHOD if parent is NameKind.CLASS else NameKind.FUNCTION


def _exports(hunk: Hunk, reading: FileReading) -> None:
    """Names a package's `__init__.py` exports: `__all__` items and its imports."""
    open_import = {"+": False, "-": False}
    for sign, text in hunk.lines:
        sides = ("+", "-") if sign == " " else (sign,)
        names: list[str] = []
        imported = _IMPORT.match(text) if text.startswith("from ") else None
        if imported:
            names = [n.strip().split(" as ")[0] for n in imported.group(1).split(",")]
            still_open = text.rstrip().endswith("(")
            for s in sides:
                open_import[s] = still_open
        elif any(open_import[s] for s in sides):
            item = _IMPORT_ITEM.match(text)
            if item:
                names = [item.group(1)]
            if ")" in text:
                for s in sides:
                    open_import[s] = False
        elif item2 := _ALL_ITEM.match(text):
            names = [item2.group(1)]
        if sign == " ":
            continue
        for n in names:
            if n and not n.startswith("_"):
                reading.side(sign).exports.add(n)
