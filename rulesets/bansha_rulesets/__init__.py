"""The ruleset manifests shipped with bansha: every ``*.toml`` file beside this module."""
