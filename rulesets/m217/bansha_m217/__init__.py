"""新日暮里 (M217): the board's manifest (m217.toml), its forum template (templates/) and demo, found
through the ``bansha.rulesets`` entry point. Installing this distribution installs every rule
and role plugin the manifest names."""
