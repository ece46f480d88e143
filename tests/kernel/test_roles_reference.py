"""docs/roles/<ruleset>.md is the output of `bansha roles RULESET --markdown`: every role, every
skill with its step, uses, tags and documented arguments. Regenerate it when a plugin changes:
    uv run bansha roles m217 --markdown > docs/roles/m217.md
"""

from pathlib import Path

import pytest
from bansha.cli.cli import app
from typer.testing import CliRunner

DOCS = Path(__file__).parents[2] / "docs" / "roles"


@pytest.mark.parametrize("ruleset", ["light-shadow", "qisha-xia", "m217"])
def test_the_roles_reference_is_current(ruleset):
    r = CliRunner().invoke(app, ["roles", ruleset, "--markdown"])
    assert r.exit_code == 0, r.output
    doc = (DOCS / f"{ruleset}.md").read_text(encoding="utf-8")
    assert doc == r.output, f"docs/roles/{ruleset}.md is stale: run uv run bansha roles {ruleset} --markdown"


def test_every_documented_argument_is_in_the_reference():
    from bansha.engine.registry import find_manifest, ruleset_for

    doc = (DOCS / "m217.md").read_text(encoding="utf-8")
    rs = ruleset_for(find_manifest("m217"))
    for role in rs.roles.values():
        assert f"## {role.name} (" in doc
        for s in role.skills:
            for k in s.args:
                assert f"`--arg {k}=…`" in doc, (role.name, s.name, k)
