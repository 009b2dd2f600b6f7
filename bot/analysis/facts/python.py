"""Facts in a Python file's diff: definitions, exports, settings, warnings, registrations."""

from __future__ import annotations

import re

from bot.analysis.facts.records import NameKind, Registry
from bot.analysis.facts.scan import FileReading, Hunk, Side, side_at

_DEF = re.compile(r"^([ \t]*)(?:async[ \t]+def|def|class)[ \t]+([A-Za-z_]\w*)")
# Decorators that make a function a GPU kernel; `cute.jit` marks a device helper, not one.
_JIT = re.compile(r"triton\.(?:jit|autotune|heuristics)|cute\.kernel|(?!cute\.)\w+\.jit")
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
_ALL_LINE = re.compile(r"^__all__\s*\+?=")
_QUOTED_NAME = re.compile(r"""["']([A-Za-z_]\w*)["']""")
# `from m import a, b as c` (its names may continue in brackets on the next lines) and
# `import m.n as o`, at any indentation (under `if TYPE_CHECKING:` or in a `try:`).
_FROM_IMPORT = re.compile(r"^[ \t]*from[ \t]+(\.*[\w.]*)[ \t]+import[ \t]+([^#]*)")
_PLAIN_IMPORT = re.compile(r"^[ \t]*import[ \t]+([\w., \t]+?)[ \t]*(?:#.*)?$")
_BOUND = re.compile(r"^([A-Za-z_]\w*)(?:\s+as\s+([A-Za-z_]\w*))?$")
_MODULE_GETATTR = re.compile(r"^def[ \t]+__getattr__[ \t]*\(")
# Where a package's source tree starts, above its top-level package.
_SOURCE_ROOTS = frozenset({"src", "lib", "python"})

# Reads of an environment variable, with the default the line gives it.
_ENV_READ = re.compile(
    r"""(?:environ(?:\.get)?\s*[\[(]|getenv\(|env_(?:bool|int|str|float|list)\()\s*"""
    r"""["']([A-Z][A-Z0-9_]{2,})["'](?:\s*,\s*([^)\]\n]{1,40}))?(\]\s*=(?!=))?"""
)
_ENV_TABLE = re.compile(r"""^([+-])\s*["']([A-Z][A-Z0-9_]{3,})["']\s*:""", re.MULTILINE)
# A call may open on one line and name its flag on the next (each line of a patch starts
# with its side).
_FLAG = re.compile(
    r"""(?:add_argument|addoption|click\.option|typer\.Option)\((?:\s|\n[+\- ])*"""
    r"""(?:["']-\w["']\s*,(?:\s|\n[+\- ])*)?["'](--[\w-]+)["']([^\n]*)"""
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
# In a configuration module a generic holder of data (a stored JSON value, a row, a payload)
# is read as well as the configuration: a key read from it is no key users write.
_DATA_RECEIVER = re.compile(
    r"(?:value|values|data|d|payload|row|item|obj|raw|body|result|response|resp|record"
    r"|entry|stored|blob|doc|json|state|cache|meta|metadata|info)",
    re.IGNORECASE,
)
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
# "Use Python's built-in 'http.HTTPStatus' instead", "Use the 'Accept.from_header' method":
# a quoted code name a few words after the verb.
_QUOTED_REPLACEMENT = re.compile(
    r"\b(?:please use|use|in favou?r of|replaced by|switch to|instead use|migrate to)"
    r"(?:\s+[\w'-]+){0,4}?\s+([`'\"])(--[\w-]+|[A-Za-z_][\w.]*(?:\(\))?)\1",
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
    package = _package(path) if name == "__init__.py" else None
    for hunk in file_hunks:
        _definitions(hunk, reading, tests=tests)
        _imports(hunk, reading, package)
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
        return reading.side(sign) if sign in "+- " else None

    if "env" in patch:
        for m in _ENV_READ.finditer(patch):
            # `os.environ["X"] = …` sets it for a child process: not a setting it reads.
            if not m.group(3) and (side := on(m.start())):
                side.env[m.group(1)] = (m.group(2) or "").strip() or None
        if name.startswith("env"):
            for m in _ENV_TABLE.finditer(patch):
                reading.side(m.group(1)).env.setdefault(m.group(2), None)
    if "--" in patch and ("add_argument" in patch or "ption(" in patch):
        # Each side read on its own: a call opened on a context line may name its flag on a
        # removed line and again on an added one.
        for drop in "+-":
            text = _without(patch, drop)
            for m in _FLAG.finditer(text):
                sign = side_at(text, m.start(1))
                default = _FLAG_DEFAULT.search(m.group(2))
                reading.side(sign).flags[m.group(1)] = default.group(1).strip() if default else None
    config_file = bool(_CONFIG_FILE.search(name))
    if ".get(" in patch:
        for m in _CONFIG_GET.finditer(patch):
            receiver = _before(patch, m.start()).rsplit(".", 1)[-1]
            named = bool(_CONFIG_RECEIVER.search(receiver))
            in_module = config_file and not _DATA_RECEIVER.fullmatch(receiver)
            if (named or in_module) and (side := on(m.start())):
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


def reads_key(key: str, patch: str) -> bool:
    """Whether an added or context line of a Python patch reads configuration key `key`:
    `cfg["key"]`, `.get("key"`, `"key" in cfg`, `getattr(cfg, "key"`, or `cfg.key`."""
    if key not in patch:
        return False
    k = re.escape(key)
    read = re.compile(
        rf"""\[\s*["']{k}["']\s*\]|\.get\(\s*["']{k}["']|["']{k}["']\s+(?:not\s+)?in\b"""
        rf"""|getattr\(\s*[\w.()]+\s*,\s*["']{k}["']|\.{k}\b"""
    )
    return read.search(_without(patch, "-")) is not None


def _without(patch: str, sign: str) -> str:
    """The patch without the lines of one side: the other side and the context, as text."""
    return "\n".join(line for line in patch.split("\n") if not line.startswith(sign))


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
        reading.deprecations.append((cut_message(message), _replacement(message)))


def cut_message(message: str, limit: int = 160) -> str:
    """A warning's message as quoted: a long one cut at the last word that fits, and "…"."""
    if len(message) <= limit:
        return message
    head = message[: limit - 1]
    space = head.rfind(" ")
    return (head[:space] if space > limit // 2 else head).rstrip(" ,;:") + "…"


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
    quoted = _QUOTED_REPLACEMENT.search(message)
    if quoted:
        return quoted.group(2).rstrip(".")
    for m in _REPLACEMENT.finditer(message):
        name = m.group(2).rstrip(".")
        if message[m.end() : m.end() + 2] == "'s":
            # "Use Python's …": a possessive is a word of the sentence, not a name
            continue
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
                # (its comment aside: a `# noqa` reworded on the `def` line edits no code)
                reading.side(s).defs[qualified] = (kind, _code_only(text[m.start() + 2 : end]))
                if tests and short.startswith("test") and s == "+":
                    reading.plus.tests.append(qualified)
    note_changes(len(text))


def _code_only(line: str) -> str:
    """A line without its trailing comment (a `#` outside a string literal), stripped."""
    quote = ""
    escaped = False
    for at, char in enumerate(line):
        if quote:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == quote:
                quote = ""
        elif char in "'\"":
            quote = char
        elif char == "#":
            return line[:at].strip()
    return line.strip()


def _kind(line: str, parent: NameKind | None) -> NameKind:
    if line.lstrip().startswith("class"):
        return NameKind.CLASS
    return NameKind.METHOD if parent is NameKind.CLASS else NameKind.FUNCTION


def _package(path: str) -> str:
    """The dotted name of the package whose `__init__.py` is at `path` (`src/` dropped)."""
    parts = path.split("/")[:-1]
    while len(parts) > 1 and parts[0] in _SOURCE_ROOTS:
        parts = parts[1:]
    return ".".join(parts)


def _imports(hunk: Hunk, reading: FileReading, package: str | None) -> None:
    """Names the import lines bind, on each side (a context line's on both); for a
    package's `__init__.py` (`package`: its dotted name), what it exports: its `__all__`
    items and the names it imports from itself (a relative import, or one from inside the
    package, at the left margin). `from typing import Any` in a package binds `pkg.Any`, but
    nobody imports it from there: it is not the package's interface."""
    # per side, the import whose bracketed names continue: (module, at the left margin)
    open_from: dict[str, tuple[str, bool] | None] = {"+": None, "-": None}
    for sign, text in hunk.lines:
        sides = ("+", "-") if sign == " " else (sign,)
        bound: list[str] = []
        aliased: dict[str, str] = {}
        module = ""
        top = not text[:1].isspace()
        if text.lstrip().startswith("from "):
            match = _FROM_IMPORT.match(text)
            if match is None:
                continue
            module, names = match.group(1), match.group(2)
            bound, aliased = _bound(names), _aliased(names)
            for s in sides:
                open_from[s] = (module, top) if "(" in names and ")" not in names else None
        elif text.lstrip().startswith("import "):
            match = _PLAIN_IMPORT.match(text)
            if match:
                # `import a.b` binds `a`; `import a.b as c` binds `c` (a name bound, never
                # an export: the module stays "")
                for raw in match.group(1).split(","):
                    dotted, _, alias = raw.strip().partition(" as ")
                    bound.append(alias.strip() or dotted.split(".", 1)[0])
        elif opened := next((open_from[s] for s in sides if open_from[s]), None):
            module, top = opened
            bound, aliased = _bound(text), _aliased(text)
            if ")" in text:
                for s in sides:
                    open_from[s] = None
        elif package is not None:
            if text.startswith("def") and _MODULE_GETATTR.match(text) and sign != "-":
                reading.plus.lazy = True
            if _ALL_LINE.match(text):
                for s in sides:
                    reading.side(s).exports.update(_QUOTED_NAME.findall(text))
            elif item := _ALL_ITEM.match(text):
                for s in sides:
                    reading.side(s).exports.add(item.group(1))
            continue
        for s in sides:
            side = reading.side(s)
            side.aliases.update(aliased)
            for n in bound:
                side.imports[n] = module
                # Only a module-level import is part of the interface (one in a function
                # binds a local name; one under `if TYPE_CHECKING:` binds none at run time).
                exported = package is not None and top and _within(module, package)
                if exported and not n.startswith("_"):
                    side.exports.add(n)


def _bound(names: str) -> list[str]:
    """The names `a, b as c` binds: `a`, `c`."""
    out = []
    for item in names.strip().strip("()").split(","):
        match = _BOUND.match(item.strip().rstrip(")").strip())
        if match:
            out.append(match.group(2) or match.group(1))
    return out


def _aliased(names: str) -> dict[str, str]:
    """The names `a, b as c` binds under another: `c` -> `b`."""
    out = {}
    for item in names.strip().strip("()").split(","):
        match = _BOUND.match(item.strip().rstrip(")").strip())
        if match and match.group(2) and match.group(2) != match.group(1):
            out[match.group(2)] = match.group(1)
    return out


def _within(module: str, package: str) -> bool:
    """Whether `module` (as an import line writes it) is inside `package`."""
    if module.startswith("."):
        return True
    suffixes = package.split(".")
    # The package's dotted name as its users import it: the whole path, or from where an
    # unrecognised source root ends (`python/sglang/srt` is `sglang.srt`).
    return any(
        module == (name := ".".join(suffixes[i:])) or module.startswith(name + ".")
        for i in range(len(suffixes) - 1 if len(suffixes) > 1 else 1)
    )
