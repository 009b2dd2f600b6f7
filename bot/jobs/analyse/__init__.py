"""The analysis jobs: fetch landed commits, pick each one's analyser, analyse and store."""
