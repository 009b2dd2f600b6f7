"""The daily digest: rendering (pure), splitting within GitHub's limits, publishing."""
