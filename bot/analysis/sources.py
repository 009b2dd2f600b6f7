"""Which changed files are worth reading whole at both revisions, and within what bounds."""

from __future__ import annotations

import re

from bot.analysis.paths import language_of
from bot.models import FileChange

# Files read whole a commit: the parses stay within the rules' 50 ms a commit, and online the
# blobs ride on one GraphQL query, whose cost and response size grow with each alias.
MAX_SOURCE_FILES = 12
# Bytes of one side of one file: GitHub's GraphQL `Blob.text` is cut beyond about 512 KB
# (`isTruncated`), and a file that large is generated or vendored more often than written.
MAX_SOURCE_BYTES = 512 * 1024
# Bytes of all sides of a commit's files together, so one commit's memory stays bounded.
MAX_COMMIT_SOURCE_BYTES = 4 * 1024 * 1024

# Generated or vendored code: its definitions are nobody's change (protobuf, minified, lock).
_GENERATED = re.compile(
    r"(?:_pb2(?:_grpc)?\.pyi?|\.pb\.(?:cc|h)|\.min\.js|\.generated\.\w+)$|(?:^|/)(?:vendor|third_party|_vendor)/"
)


def worth_reading(files: list[FileChange]) -> list[FileChange]:
    """The changed files to read whole, at most `MAX_SOURCE_FILES`: code a parser reads, not
    generated or vendored; the rest keep their patch."""
    wanted = [
        f
        for f in files
        if language_of(f.filename) is not None and not _GENERATED.search(f.filename)
    ]
    return wanted[:MAX_SOURCE_FILES]
