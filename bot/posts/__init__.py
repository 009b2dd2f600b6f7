"""Bringing GitHub in line with the posts the App means to have: a pure reconcile, the channels."""
