"""Commit Digest: a GitHub App that posts a daily digest of a repository's landed commits."""

__version__ = "0.1.0"
