"""Why a SQLite database file cannot be opened, in words that name the path (SQLite says only
"unable to open database file")."""

from __future__ import annotations

import os
from pathlib import Path

from sqlalchemy.engine import make_url


def sqlite_path(database_url: str) -> Path | None:
    """The file of a `sqlite:///PATH` URL; None for another engine or an in-memory database."""
    url = make_url(database_url)
    name = url.database
    if url.get_backend_name() != "sqlite" or not name or name == ":memory:":
        return None
    if name.startswith("file:"):
        return None
    return Path(name)


def unopenable(path: Path) -> str | None:
    """What stops SQLite from opening or creating `path`, or None when nothing visible does."""
    folder = path.parent
    if path.is_dir():
        return f"{path} is a directory, not a database file"
    if not folder.exists():
        return f"the folder {folder} does not exist"
    if not folder.is_dir():
        return f"{folder} is not a folder"
    try:
        # O_CREAT without truncation: an existing database is left as it is.
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    except FileNotFoundError:
        # The folder exists, yet no file can be made in it: /proc, /sys and the like.
        return f"{path} cannot be created: the folder {folder} does not accept new files"
    except OSError as exc:
        return f"{path}: {exc.strerror or type(exc).__name__}"
    os.close(fd)
    # SQLite also writes a journal (or WAL) file beside the database.
    if not os.access(folder, os.W_OK | os.X_OK):
        return f"the folder {folder} is not writable (SQLite writes its journal beside the file)"
    return None
