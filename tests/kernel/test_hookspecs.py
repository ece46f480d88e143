"""Every hook is documented: a docstring saying when it is called and what it may return, and
a row in docs/plugins.md (the datasette practice)."""

import inspect
from pathlib import Path

from bansha.engine import hookspecs

DOC = (Path(__file__).resolve().parents[2] / "docs" / "plugins.md").read_text(encoding="utf-8")
HOOKS = [name for name, fn in inspect.getmembers(hookspecs, inspect.isfunction) if name.startswith("bansha_")]


def test_there_are_hooks():
    assert "bansha_roles" in HOOKS and "bansha_stop_kill" in HOOKS


def test_every_hook_has_a_docstring_saying_when_and_what():
    for name in HOOKS:
        doc = inspect.getdoc(getattr(hookspecs, name)) or ""
        assert "Called" in doc, f"{name}: the docstring must say when it is called"
        assert "Return" in doc or "return" in doc, f"{name}: the docstring must say what it may return"


def test_every_hook_is_in_the_plugin_guide():
    missing = [name for name in HOOKS if f"`{name}(" not in DOC]
    assert not missing, f"docs/plugins.md does not document {missing}"


def test_a_misspelt_hook_is_an_error(bansha_plugin, tmp_path):
    import pytest
    from bansha import hookimpl
    from bansha.engine.model import GameError
    from bansha.engine.registry import find_manifest, ruleset_for

    class Misspelt:
        @hookimpl
        def bansha_role():  # not a hook
            return []

    bansha_plugin("misspelt", Misspelt)
    manifest = tmp_path / "m.toml"
    toy = (Path(__file__).parent / "toy.toml").read_text(encoding="utf-8")
    manifest.write_text(toy.replace('id = "toy"', 'id = "toy2"\nrules = ["misspelt"]'), encoding="utf-8")
    with pytest.raises(Exception, match="bansha_role"):
        ruleset_for(find_manifest(str(manifest)))
    assert GameError  # the loader's own errors are GameErrors; pluggy's is raised as is
