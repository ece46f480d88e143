"""黑手党（基础）: the board's manifest (mafia-basic.toml), its forum template (templates/) and demo, found
through the ``bansha.rulesets`` entry point. Installing this distribution installs every rule
and role plugin the manifest names."""
