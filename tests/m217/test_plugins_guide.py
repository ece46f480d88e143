"""docs/plugins.md, "Writing a role for 新日暮里 (m217)", checked against the code: every handler
convention it lists is one the rules plugin (or a role plugin) really calls, every convention the
rules call is listed, every helper it names is in bansha_m217_helpers or bansha_m217_rules, and every
handler it names as provided by a role is provided."""

import re
from pathlib import Path

import bansha_m217_helpers
import bansha_m217_rules
from bansha.engine.registry import find_manifest, ruleset_for

ROOT = Path(__file__).parents[2]
GUIDE = (ROOT / "docs" / "plugins.md").read_text(encoding="utf-8").split("## Writing a role for 新日暮里 (m217)")[1]
SOURCES = "".join(p.read_text(encoding="utf-8") for p in sorted(ROOT.glob("plugins/m217/*/bansha_m217_*.py")))


def _conventions_called() -> set[str]:
    """The prefixes the plugins look handlers up by: startswith("m217.x.") / handlers.get(f"m217.x.{…}")."""
    called = set(re.findall(r'(?:startswith|handlers_under)\(f?"(m217\.[a-z-]+)\.', SOURCES))
    called |= set(re.findall(r'handlers(?:\.get\(|\[)f"(m217\.[a-z-]+)\.\{', SOURCES))
    called |= set(re.findall(r'f"(m217\.[a-z-]+)\.\{[^}]+\}" in handlers', SOURCES))
    called |= {m for m in re.findall(r'handlers\.get\("(m217\.[a-z-]+)"\)', SOURCES)}
    return called


def _conventions_listed() -> set[str]:
    table = GUIDE.split("### Handler conventions")[1].split("### Tests")[0]
    return {re.sub(r"\.<[a-z]+>.*", "", m) for m in re.findall(r"^\| `(m217\.[^`(]+)\(", table, re.M)}


def test_every_convention_listed_is_called_and_every_called_is_listed():
    called, listed = _conventions_called(), _conventions_listed()
    assert {"m217.at", "m217.win", "m217.hold-end", "m217.refresh"} <= called
    assert listed == called


def test_every_helper_named_exists():
    table = GUIDE.split("### The helpers")[1].split("### Handler conventions")[0]
    names = re.findall(r"^\| `([a-z_]+)\(", table, re.M)
    assert len(names) >= 12
    for name in [*names, "identity", "forced_on", "armed", "window", "exit_of", "active"]:
        assert callable(getattr(bansha_m217_helpers, name, None) or getattr(bansha_m217_rules, name)), name


def test_every_handler_named_is_provided():
    handlers = ruleset_for(find_manifest("m217")).handlers
    named = set(re.findall(r"`(m217\.[a-z-]+(?:\.[^`.<(*\s]+)*)`", GUIDE))
    assert {"m217.shield.跳跃", "m217.refresh.九尾", "m217.chain.交换", "m217.win.镜", "m217.at.黄昏4.熊"} <= named
    assert sorted(n for n in named if n not in handlers) == []
