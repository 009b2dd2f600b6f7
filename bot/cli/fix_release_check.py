"""Whether a fix an entry says mends code no release had did: every line of a shipped file it
removes or changes is new in the parent against each version tag that lacks the commit
(`git diff` of the two trees, not the analyser's `git blame`)."""

from __future__ import annotations

import ast
import difflib
import itertools
import re
from collections.abc import Callable, Iterator
from pathlib import Path

from bot.cli.clone_release import version_tags
from bot.cli.git import CloneError, run_git
from bot.cli.package_meta import top_modules

_HUNK = re.compile(r"^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@")
# a run of an edited line shorter than this (`pos`, `)`) is in any file: it tells nothing
_MIN_WORD = 8
# what no user runs, by its folder or name: tests, docs, dotfiles, root files (but a module
# the package names, `_modules`)
_NOT_SHIPPED = re.compile(r"(^|/)(tests?|docs?|\.[^/]+)/|^[^/]+$")
_METADATA = ("setup.py", "setup.cfg", "pyproject.toml")
# a metadata line every release commit sets, that no fix mends
_VERSION = re.compile(r"""^\s*["']?version["']?\s*[=:]""")
# a table (section) header, and the tables whose keys reach a user's install: PEP 621's,
# Poetry's and setuptools' in a `pyproject.toml`, `[metadata]`/`[options…]` in a `setup.cfg`
_HEADER = re.compile(r"^\s*\[\[?\s*([^\]]+?)\s*\]")
_INSTALLED = re.compile(r"^(?:project|build-system|tool\.(?:poetry|setuptools)|metadata|options)\b")


def _diff(path: Path, *args: str) -> str | None:
    try:
        done = run_git(path, "diff", "--no-color", "--no-ext-diff", "-U0", *args, timeout=120)
    except CloneError:
        return None
    return done.stdout if done.returncode == 0 else None


def _show(path: Path, rev: str, name: str) -> str | None:
    """The text of `name` at `rev`; None where it is not there or git failed."""
    try:
        done = run_git(path, "show", f"{rev}:{name}", timeout=60)
    except CloneError:
        return None
    return done.stdout if done.returncode == 0 else None


def _modules(path: Path, rev: str) -> set[str]:
    """The single top-level modules the package's metadata at `rev` installs (`py_modules`,
    or the module its own name makes): `distro.py` at the root ships where they name it."""
    found: set[str] = set()
    for name in _METADATA:
        text = _show(path, rev, name)
        if text is not None:
            found |= top_modules(name, text)
    return found


def _shipped(name: str, modules: set[str]) -> bool:
    """A file users run or install by: not under tests, docs or a dot-folder, and not at the
    root unless it is a module the package names or the package's metadata (its
    requirements reach every install)."""
    if name in _METADATA:
        return True
    if "/" not in name and name.endswith(".py") and name[:-3] in modules:
        return True
    return not _NOT_SHIPPED.search(name)


def _code(name: str, text: str | None) -> str | None:
    """What a file runs, to compare: a Python file's tree without docstrings (a comment, a
    docstring re-wrapped, layout are no code), another's text; None where it is not there."""
    if text is None or not name.endswith(".py"):
        return text
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError):
        return text
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if (
            isinstance(node, ast.Module | ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef)
            and isinstance(body, list)
            and body
            and isinstance(body[0], ast.Expr)
            and isinstance(body[0].value, ast.Constant)
            and isinstance(body[0].value.value, str)
        ):
            node.body = body[1:] or [ast.Pass()]
    return ast.dump(tree)


def _removed(path: Path, parent: str, sha: str) -> dict[str, set[int]] | None:
    """The parent's line numbers the commit removes, by the parent's path, in shipped files
    whose code it changes; None: git failed."""
    text = _diff(path, "--no-renames", parent, sha)
    if text is None:
        return None
    modules = _modules(path, parent)
    out = _removed_lines(text, modules)
    kept: dict[str, set[int]] = {}
    for name, numbers in out.items():
        before = _show(path, parent, name)
        if _code(name, before) == _code(name, _show(path, sha, name)):
            continue
        lines = _installed_lines(name, before or "", numbers) if name in _METADATA else numbers
        if lines:
            kept[name] = lines
    return kept


def _installed_lines(name: str, text: str, lines: set[int]) -> set[int]:
    """Those of a metadata file's `lines` (numbered from 1) that say what an install gets:
    not its version, and in a `pyproject.toml` (`setup.cfg`) under a table of `_INSTALLED`."""
    table = ""
    out: set[int] = set()
    for number, line in enumerate(text.split("\n"), 1):
        if (m := _HEADER.match(line)) and name != "setup.py":
            table = m[1].strip('" ')
            continue
        if number not in lines or _VERSION.match(line):
            continue
        if name == "setup.py" or _INSTALLED.match(table):
            out.add(number)
    return out


def _removed_lines(text: str, modules: set[str]) -> dict[str, set[int]]:
    """The parent's line numbers a `git diff -U0` removes, by the parent's path, in shipped
    files (`_shipped`)."""
    out: dict[str, set[int]] = {}
    name: str | None = None
    for line in text.split("\n"):
        if line.startswith("--- "):
            name = line[6:] if line.startswith("--- a/") else None
        elif (m := _HUNK.match(line)) and name and _shipped(name, modules):
            start, count = int(m[1]), int(m[2] or "1")
            if count:
                out.setdefault(name, set()).update(range(start, start + count))
    return out


def _removed_runs(path: Path, parent: str, sha: str, names: set[str]) -> list[list[str]]:
    """The runs of lines the commit removes from the files `names`, each run the `-` lines
    that follow one another in a hunk, stripped, blank ones aside."""
    text = _diff(path, "--no-renames", parent, sha) or ""
    runs: list[list[str]] = [[]]
    name: str | None = None
    for line in text.split("\n"):
        if line.startswith("--- "):
            name = line[6:] if line.startswith("--- a/") else None
        elif line.startswith("-") and name in names:
            if stripped := line[1:].strip():
                runs[-1].append(stripped)
            continue
        if runs[-1]:
            runs.append([])
    return [run for run in runs if run]


def _holding(
    path: Path, rev: str, asked: list[str], keep: Callable[[str], bool]
) -> Iterator[list[str]]:
    """The lines, stripped, of each file of `rev` holding any of `asked` that `keep` takes."""
    args = ["grep", "-l", "-F"]
    for text in asked:
        args += ["-e", text]
    # grepped now (a CloneError is the caller's at the call), each file read as it is reached
    found = run_git(path, *args, rev)
    names = [n for hit in found.stdout.split("\n") if (n := hit.partition(":")[2]) and keep(n)]
    return (
        [t for line in (_show(path, rev, n) or "").split("\n") if (t := line.strip())]
        for n in names
    )


def _pairs_in(path: Path, rev: str, asked: list[str], skip: set[str]) -> set[tuple[str, str]]:
    """The pairs of lines one after the other in the files of `rev` (but `skip`) holding `asked`."""
    files = _holding(path, rev, asked, lambda name: name not in skip)
    return {pair for lines in files for pair in itertools.pairwise(lines)}


def _held(
    path: Path, tag: str, runs: list[list[str]], modules: set[str], *, parent: str, fixed: set[str]
) -> str | None:
    """Two removed lines that follow one another in a run (one of 12 characters or more,
    neither under 8) that a shipped file of the tag holds one after the other, or a lone
    removed line of 40 or more it holds: found by `git grep -F`, then read line by line (the
    checker's own reading; the analyser compares texts with their spaces taken out). A lone
    common line (`out_index: Optional[int] = None`, in a module the release had beside the
    new backend it fixes: python-pathspec 3ef1451) tells nothing of where the code came from."""
    pairs = [
        (a, b)
        for run in runs
        for a, b in itertools.pairwise(run)
        if min(len(a), len(b)) >= 8 and max(len(a), len(b)) >= 12
    ]
    singles = [run[0] for run in runs if len(run) == 1 and len(run[0]) >= 40]
    asked = list(dict.fromkeys([*(t for pair in pairs for t in pair), *singles]))
    if not asked:
        return None
    try:
        files = _holding(path, f"refs/tags/{tag}", asked, lambda name: _shipped(name, modules))
        # lines the parent still holds outside the files fixed were copied from there, not
        # moved: the fixed copy is new (python-pathspec 3ef1451: the hyperscan backend, new
        # after v0.12.1, began as a copy of the loop the simple backend keeps)
        copied = _pairs_in(path, parent, asked, fixed)
    except CloneError:
        return None
    pairs = [p for p in pairs if p not in copied]
    for lines in files:
        follows = set(itertools.pairwise(lines))
        if pair := next((p for p in pairs if p in follows), None):
            return f"{pair[0]} / {pair[1]}"
        if single := next((t for t in singles if t in set(lines)), None):
            return single
    return None


def _new_against(path: Path, tag: str, parent: str, name: str) -> set[int] | None:
    """The parent's line numbers of `name` that the tag's tree does not have as they are."""
    text = _diff(path, f"refs/tags/{tag}", parent, "--", name)
    if text is None:
        return None
    out: set[int] = set()
    for line in text.split("\n"):
        if m := _HUNK.match(line):
            start, count = int(m[3]), int(m[4] or "1")
            out.update(range(start, start + count))
    return out


def _hunks(
    path: Path, parent: str, sha: str, name: str
) -> list[tuple[list[tuple[int, str]], list[str]]]:
    """The removed lines (with the parent's numbers) and the added lines of each hunk of
    `git diff -U0` of `name`."""
    out: list[tuple[list[tuple[int, str]], list[str]]] = []
    number = 0
    for line in (_diff(path, "--no-renames", parent, sha, "--", name) or "").split("\n"):
        if m := _HUNK.match(line):
            out.append(([], []))
            number = int(m[1])
        elif out and line.startswith("-") and not line.startswith("--- "):
            out[-1][0].append((number, line[1:]))
            number += 1
        elif out and line.startswith("+") and not line.startswith("+++ "):
            out[-1][1].append(line[1:])
    return out


def _edited_runs(old: str, new: str) -> list[str]:
    """The text of `old` an edit into `new` (character by character) touches, as runs
    between spaces, each with its neighbours on one side back (or on) to the first run
    holding a letter: `self.include_uname = include_lsb` for `include_lsb`, never the run
    alone, which may stand anywhere. None where only spaces change."""
    if old.split() == new.split():
        return []
    runs = [(m.start(), m.end()) for m in re.finditer(r"\S+", old)]
    out: list[str] = []
    ops = difflib.SequenceMatcher(None, old, new, autojunk=False).get_opcodes()
    for op, i1, i2, _, _ in ops:
        if op == "equal":
            continue
        # the runs the edit touches (an insertion touches the runs it sits between)
        touched = [k for k, (a, b) in enumerate(runs) if a < max(i2, i1 + 1) and b >= i1]
        if not touched:
            continue
        first, last = touched[0], touched[-1]
        left = first - 1
        while left > 0 and not re.search(r"[A-Za-z]", old[runs[left][0] : runs[left][1]]):
            left -= 1
        right = last + 1
        while right < len(runs) - 1 and not re.search(
            r"[A-Za-z]", old[runs[right][0] : runs[right][1]]
        ):
            right += 1
        if left >= 0:
            out.append(old[runs[left][0] : runs[last][1]])
        if right < len(runs):
            out.append(old[runs[first][0] : runs[right][1]])
    return list(dict.fromkeys(out))


def _edit_at_tag(
    path: Path, tag: str, parent: str, sha: str, removed: dict[str, set[int]]
) -> str | None:
    """Where a line of the tag's copy of a fixed file holds text the fix edits: each removed
    line of `removed` (the parent's numbers, by path) paired with the added line of its hunk
    most like it, and the text the edit touches with its neighbours on either side
    (`_edited_runs`: of `_MIN_WORD` characters or more, short of the whole line) looked for
    in the tag's lines; None where none is there."""
    for name, numbers in sorted(removed.items()):
        at_tag = _show(path, f"refs/tags/{tag}", name)
        if at_tag is None:
            continue
        lines = [line.strip() for line in at_tag.split("\n")]
        for minus, plus in _hunks(path, parent, sha, name):
            for number, old in minus:
                if number not in numbers:
                    continue
                ratio, new = max(
                    ((difflib.SequenceMatcher(None, old, p).ratio(), p) for p in plus),
                    default=(0.0, None),
                )
                runs = _edited_runs(old, new) if new is not None and ratio >= 0.5 else []
                # (a whole line the release had elsewhere in the file, `f.unlink()`, is
                # asked where it stands, by `_new_against`: natsort 46484e4)
                for run in runs:
                    if run == old.strip() or len(run) < _MIN_WORD:
                        continue
                    if any(run in line for line in lines):
                        return f"`{name}` of `{tag}` holds “{run}”, which the commit edits"
    return None


def judged_fix(path: Path, sha: str, parent: str | None, tag: str) -> tuple[bool | None, str]:
    """(True: proven, False: disproven, None: not told; why) of "Fixes code added after
    `tag` (never released)": `tag` a version tag the parent reaches, and each parent's line
    the commit removes in a shipped file differs from every version tag lacking the commit,
    and `tag`'s copy of the file holds none of the text the commit's edit of it touches."""
    if parent is None:
        return False, "a root commit fixes nothing"
    versions = version_tags(path)
    if tag not in versions:
        return False, f"`{tag}` is no version tag of the clone"
    try:
        reached = run_git(path, "merge-base", "--is-ancestor", f"refs/tags/{tag}", parent)
        lacking = run_git(path, "tag", "--no-contains", sha)
    except CloneError:
        return None, "git failed"
    if reached.returncode != 0:
        return False, f"the parent does not reach `{tag}`"
    removed = _removed(path, parent, sha)
    if removed is None or lacking.returncode != 0:
        return None, "git failed"
    if not removed:
        return False, "the commit changes the code of no shipped file"
    for release in (t for t in lacking.stdout.split() if t in versions):
        for name, lines in removed.items():
            new = _new_against(path, release, parent, name)
            if new is None:
                return None, "git failed"
            if not lines <= new:
                return False, f"line {min(lines - new)} of `{name}` is as `{release}` has it"
    # the text a fix edits, as the release had it, on a line re-written after it for another
    # reason (tenacity 6a2a08b spaced `"types.TracebackType| None"`, in every release since
    # 2022, on a signature re-annotated after 9.1.4)
    edited = _edit_at_tag(path, tag, parent, sha, removed)
    if edited:
        return False, edited
    # a line moved to another file after the release is still the release's code
    runs = _removed_runs(path, parent, sha, set(removed))
    held = _held(path, tag, runs, _modules(path, tag), parent=parent, fixed=set(removed))
    if held:
        return False, f"a shipped file of `{tag}` holds “{held}”"
    return True, "every line it removes is new against each release that lacks it"
