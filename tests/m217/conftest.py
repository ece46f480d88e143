"""Registers the TEST-ONLY stand-in roles of standins.py for the scenarios under scenarios/."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

import standins  # noqa: E402
from bansha.engine import registry  # noqa: E402

registry.register_local("m217.standins", standins)
