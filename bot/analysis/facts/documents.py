"""Facts in settings files (YAML, TOML, INI) and documents (Markdown): values and headings."""

from __future__ import annotations

import re
from collections.abc import Iterator

from bot.analysis.facts.scan import FileReading, Hunk
from bot.analysis.messages import fences

# `key: value`, `key = value`, `- key: value`: a short scalar value on one line.
_VALUE = re.compile(
    r"^([+-])[ \t]*(?:-[ \t]+)?([A-Za-z_][\w.-]*)[ \t]*[:=][ \t]*"
    r"([^\s#|>{\[&*$][^#\n]{0,38}?)[ \t]*$",
    re.MULTILINE,
)
_HEADING = re.compile(r"^#{1,6}[ \t]+(.+?)[ \t#]*$")
# A setext heading's underline (`Title` over `=====` is level 1, over `-----` level 2).
_SETEXT = re.compile(r"^ {0,3}(=+|-+)[ \t]*$")
# reStructuredText's adornments: a title over a line of one punctuation character repeated.
_ADORNMENT = re.compile(r"^([=\-~^*+#'\"_:.])\1{2,}[ \t]*$")
# A code fence: closed only by a run of its own character at least as long, with nothing
# after it (a ```` ````{tip} ```` block holds ```` ```python ```` blocks).
_FENCE_RUN = re.compile(r"^ {0,3}(`{3,}|~{3,})(.*)$")
# Lines a setext underline cannot turn into a heading: a list item, a quote, a table row, an
# ATX heading, indented code, a fence.
_NOT_PARAGRAPH = re.compile(r"^(?: {4}|\t| {0,3}(?:[-*+>|#]|\d+[.)])(?:[ \t]|$)| {0,3}(?:```|~~~))")
# A "heading" that is a shell comment or a sentence left in a code block, not a title.
_NOT_A_TITLE = re.compile(r"[=|$]|[:.]$|^[a-z]")
# A title wrapped whole in one emphasis or code marker (`**Usage**`, `_Notes_`, `` `cli` ``)
_WRAPPED = re.compile(r"(\*{1,3}|_{1,3}|`+)(.+)\1")


# A pre-commit config's hook source (`- repo: URL`, its `rev:` below) and a GitHub Actions
# step's pin (`uses: owner/name/path@ref  # v1.2.3`).
_PRE_COMMIT = re.compile(r"(?:^|/)\.pre-commit-config\.ya?ml$")
_WORKFLOWS = re.compile(r"(?:^|/)(?:\.github/|action\.ya?ml$)")
_HOOK_REPO = re.compile(r"^[ \t]*(?:-[ \t]+)?repo:[ \t]*[\"']?([^\s\"'#]+)")
_ITEM = re.compile(r"^[ \t]*-[ \t]+\S")
_REV = re.compile(r"^[ \t]*(?:-[ \t]+)?rev:")
_USES = re.compile(
    r"^[ \t]*(?:-[ \t]+)?uses:[ \t]*[\"']?([\w.-]+/[\w.-]+)(?:/[^@\s\"']*)?@([^\s\"'#]+)[\"']?"
    r"(?:[ \t]+#[ \t]*(\S+))?[ \t]*$"
)
_COMMIT_SHA = re.compile(r"^[0-9a-f]{40}$")
# names of pins: a kind word, a space, the hook or action (no YAML key has a space)
HOOK = "hook"
ACTION = "action"


def _hook_name(url: str) -> str:
    """`https://github.com/astral-sh/ruff-pre-commit` → `astral-sh/ruff-pre-commit`."""
    name = re.sub(r"^\w+://", "", url).removesuffix(".git").rstrip("/")
    return name.removeprefix("github.com/")


def read_settings(file_hunks: list[Hunk], reading: FileReading, after: str | None = None) -> None:
    """Scalar values on each side; a key met twice on one side is ambiguous (a list of
    mappings repeats its keys) and is left out. A pre-commit hook's `rev` is keyed by the
    `repo` above it and an action's pin by the action (`hook NAME`, `action NAME`); with the
    file's text at the commit, an action a step there still pins at the old ref moved at
    some steps only, which no "from … to" of the file says (each step pins its own)."""
    hooks = bool(_PRE_COMMIT.search(reading.path))
    actions = bool(_WORKFLOWS.search(reading.path))
    for hunk in file_hunks:
        repo = {"-": "", "+": ""}
        for side, text in hunk.lines:
            found = _HOOK_REPO.match(text) if hooks else None
            if found or (hooks and _ITEM.match(text)):
                # (an entry that does not open with its `repo:` names no hook for its `rev`)
                for s in ("-", "+") if side == " " else (side,):
                    repo[s] = _hook_name(found.group(1)) if found else ""
            if side == " ":
                continue
            values = reading.side(side).values
            if hooks and repo[side] and _REV.match(text):
                m = _VALUE.match(side + text)
                if m:
                    key = f"{HOOK} {repo[side]}"
                    value = m.group(3).strip().strip("\"'")
                    values[key] = None if key in values else value
                continue
            pin = _USES.match(text) if actions else None
            if pin:
                key, value = _pin_of(pin)
                # one action used by several steps at one version is one pin
                values[key] = value if values.get(key, value) == value else None
                continue
            m = _VALUE.match(side + text)
            if m:
                # an empty string stays as written (`''`): a bare nothing would be said as
                # an empty code span, which swallows the rest of the line
                raw = m.group(3).strip()
                key, value = m.group(2), raw.strip("\"'") or raw
                values[key] = None if key in values else value
    if actions and after is not None:
        still = set(_action_pins(after))
        for key, old in reading.minus.values.items():
            if key in reading.plus.values and key.startswith(ACTION + " ") and (key, old) in still:
                reading.plus.values[key] = None


def _action_pins(text: str) -> Iterator[tuple[str, str]]:
    """(`action NAME`, its ref or, for a commit's sha, the version its comment names) of
    each step of a workflow's text."""
    for line in text.splitlines():
        pin = _USES.match(line)
        if pin:
            yield _pin_of(pin)


def _pin_of(pin: re.Match[str]) -> tuple[str, str]:
    """A `uses:` line's key and ref: for a commit's sha, the version its comment names."""
    ref, comment = pin.group(2), pin.group(3)
    return f"{ACTION} {pin.group(1)}", comment if comment and _COMMIT_SHA.match(ref) else ref


def read_document_whole(before: str, after: str, reading: FileReading) -> None:
    """Markdown headings of the whole file at the parent and at the commit, outside code
    blocks: a heading whose title the file already had ("Fixed" under each release) is no
    new section, nor is one nested under a new section (`_opening`)."""
    # The parent's titles are read generously (a reStructuredText file renamed to `.md`
    # had its titles over `~~~` too): a title it had in any form is no new section.
    had = [
        title for _, title in _headings(before.splitlines(), adornments=True) if title is not None
    ]
    reading.minus.sections.extend(had)
    headings = _headings(after.splitlines())
    known = set(had)
    lost = known - {title for _, title in headings}
    reading.plus.sections.extend(
        _opening(
            [(level, title, title is not None and title not in known) for level, title in headings],
            lost,
        )
    )
    _prose_under(after.splitlines(), reading)


def _prose_under(lines: list[str], reading: FileReading) -> None:
    """The first paragraph of prose under each heading in `lines` (a list, a table, a code
    block or the next heading ends the search): what a new "Limitations" section says."""
    for i, line in enumerate(lines):
        if not (line.startswith("#") and _HEADING.match(line)):
            continue
        title = _title(line)
        if title is None or title in reading.plus.section_texts:
            continue
        said: list[str] = []
        for text in lines[i + 1 :]:
            stripped = text.strip()
            if not stripped:
                if said:
                    break
                continue
            if _NOT_PARAGRAPH.match(text) or stripped.startswith(("|", "<", "!", "[")):
                break
            said.append(stripped)
        if said:
            reading.plus.section_texts[title] = " ".join(said)


def _headings(lines: list[str], *, adornments: bool = False) -> list[tuple[int, str | None]]:
    """Each heading outside code blocks and front matter: its level and its title (None: not
    a title). ATX (`# Title`) and setext (`Title` over `===` or `---`); with `adornments`,
    a title over any reStructuredText adornment too."""
    out: list[tuple[int, str | None]] = []
    fence: str | None = None  # the open code block's opening run
    start = _after_front_matter(lines)
    underline = _ADORNMENT if adornments else _SETEXT
    for i in range(start, len(lines)):
        line = lines[i]
        run = _FENCE_RUN.match(line)
        if fence is not None:
            if run and not run.group(2).strip() and run.group(1).startswith(fence):
                fence = None
        # before the fence test: reStructuredText's `~~~~` under a title is no code fence
        elif i > start and underline.match(line) and _paragraph(lines[i - 1]):
            level = 1 if line.strip()[0] == "=" else 2
            out.append((level, _title_text(lines[i - 1].strip())))
        elif run:
            fence = run.group(1)
        elif line.startswith("#") and _HEADING.match(line):
            out.append((_level(line), _title(line)))
    return out


def _after_front_matter(lines: list[str]) -> int:
    """The index of the first line after a YAML front matter block (`---` … `---`)."""
    if lines and lines[0].strip() == "---":
        for i in range(1, len(lines)):
            if lines[i].strip() in ("---", "..."):
                return i + 1
    return 0


def _paragraph(line: str) -> bool:
    """A line of paragraph text, which an underline below makes a setext heading."""
    return bool(line.strip()) and not _NOT_PARAGRAPH.match(line) and not _ADORNMENT.match(line)


def _opening(headings: list[tuple[int, str | None, bool]], lost: set[str]) -> list[str]:
    """The new titles of (level, title, new) headings that open a section, not those nested
    under one just opened: a new release's "Fixed" is part of the release. A level-one
    heading is the document's title and opens none; a title that extends one the file lost
    (`0.38.3` → `0.38.3 (September 1, 2024)`) is that section's, reworded."""
    out: list[str] = []
    opened: int | None = None
    for level, title, new in headings:
        if opened is not None and level > opened:
            continue
        opened = None
        if new and title is not None and not any(_extends(title, old) for old in lost):
            out.append(title)
            opened = level if level > 1 else None
    return out


def _extends(title: str, old: str) -> bool:
    return title.startswith(old) and not title[len(old) : len(old) + 1].isalnum()


def _level(line: str) -> int:
    return len(line) - len(line.lstrip("#"))


def _title(line: str) -> str | None:
    match = _HEADING.match(line)
    return None if match is None else _title_text(match.group(1))


def _title_text(text: str) -> str | None:
    title = text.strip()
    # emphasis or code around the whole title (`**Usage**`, `` `cli` ``) is its styling; a
    # code span that only ends it ("Working Context for `xmltodict`") is part of it
    while (wrapped := _WRAPPED.fullmatch(title)) and wrapped.group(1) not in wrapped.group(2):
        title = wrapped.group(2).strip()
    return title if title and not _NOT_A_TITLE.search(title) else None


def read_document(file_hunks: list[Hunk], reading: FileReading) -> None:
    """Markdown headings on each side, outside code blocks (a hunk that starts inside one
    is read as if it did not: its headings may be a shell's comments, which the shape of a
    title tells apart); an added heading nested under one the hunk adds is part of it."""
    for hunk in file_hunks:
        if "#" not in hunk.text and not any(_ADORNMENT.match(t) for _, t in hunk.lines):
            continue
        fenced = {"+": False, "-": False}
        # the commit's side of the hunk: (level, title, added)
        after: list[tuple[int, str | None, bool]] = []
        before = ""  # the parent's side: the line above
        for sign, text in hunk.lines:
            sides = ("+", "-") if sign == " " else (sign,)
            if sign != "+":
                # a title the parent had over an underline is no new section, even if the
                # commit writes it `# Title`
                if not fenced["-"] and _ADORNMENT.match(text) and _paragraph(before):
                    title = _title_text(before.strip())
                    if title is not None:
                        reading.minus.sections.append(title)
                before = text
            if fences(text):
                for s in sides:
                    fenced[s] = not fenced[s]
                continue
            if not text.startswith("#") or not _HEADING.match(text):
                continue
            title = _title(text)
            if sign == "-":
                if not fenced["-"] and title is not None:
                    reading.minus.sections.append(title)
            elif not fenced["+"]:
                after.append((_level(text), title, sign == "+"))
        lost = set(reading.minus.sections) - {title for _, title, _ in after if title}
        reading.plus.sections.extend(_opening(after, lost))
        # (the lines the hunk adds, up to the first it keeps: what a new section says)
        added: list[str] = []
        for sign, text in hunk.lines:
            if sign == "+":
                added.append(text)
            elif added:
                _prose_under(added, reading)
                added = []
        _prose_under(added, reading)
