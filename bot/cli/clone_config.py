"""A clone's own `.github/commit-digest.yml` at the branch tip, read as the App reads it, with
the command line's flags over it, and where each setting came from."""

from __future__ import annotations

import subprocess
from dataclasses import dataclass, field
from pathlib import Path

import yaml

from bot.repo_config import (
    CONFIG_PATH,
    MAX_CONFIG_BYTES,
    ConfigError,
    RepoConfig,
    default_config,
    parse_with_origin,
)

FILE, FLAG, DEFAULT = "file", "flag", "default"
# The settings a digest of a clone takes from the file, in the footer's order (`weekly`: the
# roll-up's weekday and cutoff, for the week only).
SETTINGS = ("timezone", "cutoff", "language", "exclude", "title", "weekly")


@dataclass(frozen=True)
class Flags:
    """What the command line sets; None: not given."""

    timezone: str | None = None
    cutoff: str | None = None
    language: str | None = None


@dataclass(frozen=True)
class CloneSettings:
    config: RepoConfig
    # Each of SETTINGS: FILE, FLAG or DEFAULT.
    sources: dict[str, str] = field(default_factory=dict)
    # Why the file was rejected (then the defaults stand in for it), or None.
    error: str | None = None
    # The ref the file was read at, and whether it has the file.
    ref: str = "HEAD"
    found: bool = False
    # The file's unknown keys, left out ("`languagee` (did you mean `language`?)").
    ignored: tuple[str, ...] = ()


def _blob(path: Path, ref: str) -> bytes | None:
    """The file's bytes at `ref` (at most one byte past the parser's limit), or None where
    the tree has no such path; ConfigError where it is not a regular file."""
    listed = subprocess.run(
        ["git", "-C", str(path), "ls-tree", "-z", ref, "--", CONFIG_PATH],
        capture_output=True,
        check=False,
    )
    entry = listed.stdout.split(b"\0")[0]
    if listed.returncode != 0 or not entry:
        return None
    mode, kind, oid = entry.split(b"\t")[0].split(b" ")[:3]
    if kind != b"blob" or mode not in (b"100644", b"100755"):
        raise ConfigError(f"{CONFIG_PATH} is not a file at {ref}")
    with subprocess.Popen(
        ["git", "-C", str(path), "cat-file", "blob", oid.decode()],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
    ) as proc:
        assert proc.stdout is not None
        content = proc.stdout.read(MAX_CONFIG_BYTES + 1)
        proc.kill()
    return content


def _written(content: bytes) -> set[str]:
    """The top-level keys the (valid) file sets."""
    data = yaml.safe_load(content.decode("utf-8"))
    return {str(k) for k in data} if isinstance(data, dict) else set()


def clone_settings(
    path: Path, ref: str, flags: Flags, *, default_language: str = "en"
) -> CloneSettings:
    """The file at `ref` (or the defaults, where it is missing or rejected) under `flags`."""
    error = None
    config = default_config(default_language)
    written: set[str] = set()
    found = True
    ignored: tuple[str, ...] = ()
    try:
        content = _blob(path, ref)
        found = content is not None
        if content is not None:
            config, origin = parse_with_origin(content, default_language=default_language)
            ignored = origin.ignored
            written = _written(content)
    except ConfigError as exc:
        error = str(exc)
    in_file = {
        "timezone": "timezone" in written,
        "cutoff": "cutoff" in written,
        "language": "language" in written,
        "exclude": bool(config.exclude.authors or config.exclude.paths or config.exclude.messages),
        "title": config.publish.title is not None,
        "weekly": "weekly" in written,
    }
    given = {"timezone": flags.timezone, "cutoff": flags.cutoff, "language": flags.language}
    update = {k: v for k, v in given.items() if v is not None}
    sources = {
        name: FLAG if name in update else FILE if in_file[name] else DEFAULT for name in SETTINGS
    }
    return CloneSettings(config.model_copy(update=update), sources, error, ref, found, ignored)
