"""GitHub's own limits that the offline clone path mirrors too, apart from the HTTP client."""

# GitHub lists at most 3,000 files of a commit, 300 per page.
MAX_COMMIT_FILES = 3000
