"""光影传说 v1.3: the board's manifest (light-shadow.toml), its forum template (templates/) and demo, found
through the ``bansha.rulesets`` entry point. Installing this distribution installs every rule
and role plugin the manifest names."""
