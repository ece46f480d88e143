"""The web tests' fixtures live in webhelpers.py (imported by name from the tests)."""

from webhelpers import server, web  # noqa: F401
