"""Facts in a Python file's diff: definitions, exports, settings, warnings, registrations."""

from __future__ import annotations

import re

from bot.analysis.facts.records import NameKind, Registry
from bot.analysis.facts.scan import FileReading, Hunk, Side, side_at

_DEF = re.compile(r"^([ \t]*)(?:async[ \t]+def|def|class)[ \t]+([A-Za-z_]\w*)")
_JIT = re.compile(r"triton\.(?:jit|autotune|heuristics)|\w+\.jit")
# The lines of a hunk that open or close a definition: a `def` or `class` line (groups 2-4),
# a decorator (group 5; after a JIT one a kernel follows), or code at the left margin (ends the
# definitions above it, unless it continues them: `else:`, a bracket, a comment).
# (Each pattern searches text with a newline in front and starts with it: a literal start is
# searched for fast, where `^` would be tried at every character.)
_EVENT = re.compile(
    r"\n([+\- ])(?:([ \t]*)(async[ \t]+def|def|class)[ \t]+([A-Za-z_]\w*)"
    r"|[ \t]*@([\w.]+)"
    r"|(?!else\b|elif\b|except\b|finally\b)(?=[^\s#@)\]}'\"]))"
)

_ALL_ITEM = re.compile(r"""^\s*["']([A-Za-z]\w*)["'],?\s*$""")
_IMPORT = re.compile(r"^from\s+\S+\s+import\s+\(?([\w\s,]*)\)?\s*$")
_IMPORT_ITEM = re.compile(r"^\s+([A-Za-z]\w*)(?:\s+as\s+\w+)?,?\s*$")

# Reads of an environment variable, with the default the line gives it.
_ENV_READ = re.compile(
    r"""(?:environ(?:\.get)?\s*[\[(]|getenv\(|env_(?:bool|int|str|float|list)\()\s*"""
    r"""["']([A-Z][A-Z0-9_]{2,})["'](?:\s*,\s*([^)\]\n]{1,40}))?(\]\s*=(?!=))?"""
)
_ENV_TABLE = re.compile(r"""^([+-])\s*["']([A-Z][A-Z0-9_]{3,})["']\s*:""", re.MULTILINE)
_FLAG = re.compile(
    r"""(?:add_argument|click\.option|typer\.Option)\(\s*(?:["']-\w["']\s*,\s*)?["'](--[\w-]+)["']"""
    r"""([^\n]*)"""
)
_FLAG_DEFAULT = re.compile(r"default\s*=\s*([^,)]+)")
# `.get("key", default)` on a configuration (a file named for configuration, or a receiver
# that is one: `additional_config.get`, `self.cfg.get`).
_CONFIG_GET = re.compile(
    r"""\.get\(\s*["']([A-Za-z][\w]{2,})["'](?:\s*,\s*([^()\n]{1,40}?|\{\}|\[\]|\(\)))?\s*\)"""
)
# What a call is made on or named: the dotted name just before a position.
_RECEIVER = re.compile(r"[\w.]*$")
_CONFIG_RECEIVER = re.compile(r"(?:config|cfg|conf|options|settings)$", re.IGNORECASE)
_CONFIG_FILE = re.compile(r"(config|args|envs?|settings|options)", re.IGNORECASE)
_CONFIG_FIELD = re.compile(
    r"^([+-]) {4}([a-z][a-z0-9_]{2,})\s*:\s*[\w\[\], |.\"']+?=\s*(.+?)\s*$", re.MULTILINE
)

_DEPRECATION = re.compile(
    r"DeprecationWarning|FutureWarning|@deprecated|warn_deprecated|deprecate\w*\("
    r"|is deprecated|will be removed"
)
# Code that deprecates (outside string literals), and a warning call whose message says so.
_DEPRECATING_CODE = re.compile(
    r"DeprecationWarning|FutureWarning|@deprecated\b|warn_deprecated\(|\bdeprecate\w*\("
)
_WARNING_CALL = re.compile(r"\bwarn(?:ings\.warn|ing|ing_once)?\(|\.warn\(")
_SAYS_DEPRECATED = re.compile(
    r"deprecat|will be removed|removed in|no longer (?:be )?supported|in favou?r of"
    r"|future (?:version|release)",
    re.IGNORECASE,
)
_STRING = re.compile(r""""(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'""")
_EXPLICIT = re.compile(r"@deprecated\b|warn_deprecated\(|\bdeprecate\w*\(")
_QUOTED = re.compile(r""""([^"\n]{2,160})"|'([^'\n]{2,160})'""")
_REPLACEMENT = re.compile(
    r"\b(?:please use|use|in favou?r of|replaced by|switch to|instead use|migrate to)\s+"
    r"(`?)(--[\w-]+|[A-Za-z_][\w.]*(?:\(\))?)\1",
    re.IGNORECASE,
)
_NOT_A_REPLACEMENT = frozenset({"the", "a", "an", "it", "this", "that", "instead", "of"})

# Registries: a call that registers a name, and what it registers by its own name.
_REGISTER = re.compile(r"""(?:register\w*|custom_op)\(\s*(?:\w+\s*=\s*)?["']([\w.:/-]+)["']""")
_REGISTER_TABLE = re.compile(r"""^([+-])\s*["']([A-Z]\w{2,})["']\s*:\s*\(""", re.MULTILINE)
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
    for hunk in file_hunks:
        _definitions(hunk, reading, tests=tests)
        if name == "__init__.py":
            _exports(hunk, reading)
    if user_facing:
        _settings(name, "\n".join(h.text for h in file_hunks), reading)
        _deprecations(file_hunks, reading)


_CODE = re.compile(r"[ \t]*[^\s#]")


def _changes(text: str, sign: str, start: int, until: int) -> bool:
    """Whether `text[start:until]` has a line of code (not blank, not a comment) on side
    `sign`; lines start after a newline. Searched in place: no copy of the stretch."""
    at = text.find(f"\n{sign}", start, until)
    while at >= 0:
        if _CODE.match(text, at + 2):
            return True
        at = text.find(f"\n{sign}", at + 2, until)
    return False


def _settings(name: str, patch: str, reading: FileReading) -> None:
    """Variables, flags, keys, fields and registrations read on added and removed lines (a
    whole-patch search, gated by a substring test: most patches hold none)."""

    def on(position: int) -> Side | None:
        sign = side_at(patch, position)
        return reading.side(sign) if sign in "+-" else None

    if "env" in patch:
        for m in _ENV_READ.finditer(patch):
            # `os.environ["X"] = …` sets it for a child process: not a setting it reads.
            if not m.group(3) and (side := on(m.start())):
                side.env[m.group(1)] = (m.group(2) or "").strip() or None
        if name.startswith("env"):
            for m in _ENV_TABLE.finditer(patch):
                reading.side(m.group(1)).env.setdefault(m.group(2), None)
    if "--" in patch and ("add_argument" in patch or "ption(" in patch):
        for m in _FLAG.finditer(patch):
            if side := on(m.start()):
                default = _FLAG_DEFAULT.search(m.group(2))
                side.flags[m.group(1)] = default.group(1).strip() if default else None
    config_file = bool(_CONFIG_FILE.search(name))
    if ".get(" in patch:
        for m in _CONFIG_GET.finditer(patch):
            receiver = _before(patch, m.start()).rsplit(".", 1)[-1]
            if (config_file or _CONFIG_RECEIVER.search(receiver)) and (side := on(m.start())):
                side.keys[m.group(1)] = (m.group(2) or "").strip() or None
    if config_file:
        for m in _CONFIG_FIELD.finditer(patch):
            reading.side(m.group(1)).fields[m.group(2)] = m.group(3)
    if "egist" in patch or "custom_op" in patch:
        for m in _REGISTER.finditer(patch):
            call = patch[m.start() : patch.index("(", m.start())]
            via = _before(patch, m.start()) + call
            if not _NOT_A_REGISTRY.search(via) and (side := on(m.start())):
                side.registrations[m.group(1)] = (registry_of(via), via)
        if "registry" in name:
            for m in _REGISTER_TABLE.finditer(patch):
                reading.side(m.group(1)).registrations.setdefault(
                    m.group(2), (Registry.MODEL, name)
                )


def _before(text: str, position: int) -> str:
    """The dotted name that ends just before `position` (`self.cfg` before `.get(`)."""
    match = _RECEIVER.search(text, max(0, position - 80), position)
    return match.group(0) if match else ""


def _deprecations(file_hunks: list[Hunk], reading: FileReading) -> None:
    """Deprecation warnings the change adds; one reworded is not new (as many are taken off
    as the change removes)."""
    added: list[str] = []
    gone: list[str] = []
    for hunk in file_hunks:
        if not _DEPRECATION.search(hunk.text):
            continue
        for index, (sign, text) in enumerate(hunk.lines):
            if sign == " " or text.lstrip().startswith("#"):
                continue
            code = _STRING.sub('""', text)
            if not (_DEPRECATING_CODE.search(code) or _WARNING_CALL.search(code)):
                continue
            message = _warning_text(hunk, index)
            # A warning that says nothing of a removal is not a deprecation, whatever it raises.
            if _EXPLICIT.search(code) or _SAYS_DEPRECATED.search(message):
                (added if sign == "+" else gone).append(message)
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
    qualified name, kind), moved only at the lines that open or close one (`_EVENT`); git's
    hunk heading names the top-level one a hunk starts in.
    """
    text = "\n" + hunk.text
    stacks: dict[str, list[tuple[int, str, NameKind]]] = {"+": [], "-": []}
    top = _DEF.match(hunk.heading)
    if top:
        entry = (0, top.group(2), _kind(hunk.heading, None))
        stacks["+"].append(entry)
        stacks["-"].append(entry)
    jit = {"+": False, "-": False}
    done = 0

    def note_changes(until: int) -> None:
        for s in "+-":
            if stacks[s] and _changes(text, s, done, until):
                reading.changed.setdefault(stacks[s][-1][1], stacks[s][-1][2])

    for m in _EVENT.finditer(text):
        sign = m.group(1)
        end = text.find("\n", m.start() + 1)
        end = len(text) if end < 0 else end
        note_changes(m.start())
        done = end
        sides = ("+", "-") if sign == " " else (sign,)
        if m.group(5):
            # A decorator belongs to the definition below it, not to the one above.
            if _JIT.fullmatch(m.group(5)):
                for s in sides:
                    jit[s] = True
            continue
        if not m.group(4):
            # Code at the left margin: the definitions above it have ended.
            for s in sides:
                stacks[s].clear()
            continue
        indent, keyword, short = len(m.group(2)), m.group(3), m.group(4)
        for s in sides:
            stack = stacks[s]
            while stack and stack[-1][0] >= indent:
                stack.pop()
            parent = stack[-1] if stack else None
            if parent is not None and parent[2] is not NameKind.CLASS:
                # A function nested in a function belongs to it.
                stack.append((indent, parent[1], parent[2]))
                continue
            qualified = f"{parent[1]}.{short}" if parent else short
            kind = _kind(keyword, parent[2] if parent else None)
            if jit[s] and kind is NameKind.FUNCTION:
                kind = NameKind.KERNEL
            jit[s] = False
            stack.append((indent, qualified, kind))
            if sign != " ":
                reading.side(s).defs[qualified] = (kind, text[m.start() + 2 : end].strip())
                if tests and short.startswith("test") and s == "+":
                    reading.plus.tests.append(qualified)
    note_changes(len(text))


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
