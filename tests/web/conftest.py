"""The web tests' fixtures live in webhelpers.py (imported by name from the tests)."""

from webhelpers import any_store, server, web  # noqa: F401
