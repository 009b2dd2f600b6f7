"""The packaging files whose metadata is read by its format's rules: one list for the facts
that read them (`facts/packaging.py`) and for the sources that fetch them whole
(`sources.py`), which cannot import each other (`facts` imports `sources`)."""

from __future__ import annotations

# `setup.py` is code (what it declares is known only by running it) and a lock file is the
# resolver's, never read.
PACKAGING_FILES = ("pyproject.toml", "setup.cfg")

# The files at the top that say what a wheel holds (`root_modules.shipped_root_files`)
ROOT_METADATA = ("pyproject.toml", "setup.cfg", "setup.py")
