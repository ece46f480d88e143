"""The kernel registers a plugin module without pluggy's per-name lookups
(``_PluginManager._register_module``, ``parse_hookspec_opts``, start-up): every installed
ruleset's plugin manager holds the same hook specifications and implementations, with the
same options and argument names, in the same call order as pluggy's own ``register`` gives;
and what that path does not handle goes to pluggy."""

import types

import pluggy
import pytest
from bansha import hookimpl
from bansha.engine import builtins, hookspecs
from bansha.engine.registry import ROLE_GROUP, Ruleset, _PluginManager, installed_manifests
from bansha.entrypoints import entry_points


def _impls(pm: pluggy.PluginManager) -> dict[str, list[tuple]]:
    """Each hook's spec, then its implementations in pluggy's call order (reversed)."""
    def spec(s):
        return s and (s.function, s.argnames, s.kwargnames, s.kwargdefaults, s.opts)

    return {name: [spec(caller.spec), *((i.plugin_name, i.plugin, i.function, i.argnames, i.kwargnames, i.opts)
                                        for i in caller.get_hookimpls())]
            for name, caller in vars(pm.hook).items() if isinstance(caller, pluggy.HookCaller)}


@pytest.mark.parametrize("ruleset", sorted(installed_manifests()))
def test_a_rulesets_hooks_are_pluggys(ruleset):
    m = installed_manifests()[ruleset]
    rs = Ruleset(m)
    plain = pluggy.PluginManager("bansha")  # pluggy's own register, step by step as Ruleset
    plain.add_hookspecs(hookspecs)
    plain.register(builtins, name="bansha.builtins")
    eps = {ep.name: ep for ep in entry_points(ROLE_GROUP)}
    for name in sorted(set(m.roles.values()) | set(m.rules)):
        plain.register(eps[name].load(), name=name)
    ours, theirs = _impls(rs.pm), _impls(plain)
    assert ours == theirs
    assert max(map(len, ours.values())) >= 3  # a hook with several implementations: an order to keep


def _module(name: str, **attrs) -> types.ModuleType:
    mod = types.ModuleType(name)
    vars(mod).update(attrs)
    return mod


def test_what_the_fast_path_does_not_handle_is_pluggys():
    @hookimpl(tryfirst=True)
    def bansha_setup_game(game):
        return "first"

    @hookimpl
    def bansha_roles():
        return []

    class Holder:  # a marked object that is not a plain function: pluggy's lookup skips it
        bansha_impl = {}

    @hookimpl
    def bansha_no_such_hook():
        pass

    modules = [_module("a", bansha_setup_game=bansha_setup_game, bansha_roles=bansha_roles),
               _module("odd", bansha_roles=Holder()),
               _module("typo", bansha_no_such_hook=bansha_no_such_hook)]
    ours, plain = _PluginManager("bansha"), pluggy.PluginManager("bansha")
    for pm in ours, plain:
        pm.add_hookspecs(hookspecs)
        for mod in modules:
            assert pm.register(mod) == mod.__name__
        pm.set_blocked("blocked")
        assert pm.register(_module("blocked", bansha_roles=bansha_roles)) is None
        with pytest.raises(ValueError, match="already registered"):
            pm.register(_module("a"))
        with pytest.raises(pluggy.PluginValidationError):  # the misspelt hook is pending
            pm.check_pending()
    assert _impls(ours) == _impls(plain)
    impl = ours.hook.bansha_setup_game.get_hookimpls()[-1]
    assert impl.plugin_name == "a" and impl.tryfirst and impl.opts["specname"] is None and impl.argnames == ("game",)


def test_a_pluggy_without_the_insides_the_fast_path_uses_registers_its_own_way(monkeypatch):
    """A pluggy of another release (``_PLUGGY_INSIDES`` false) registers every plugin through
    its own ``register``: the same manager, not an error."""
    from bansha.engine import registry

    m = installed_manifests()["m217"]
    fast = _impls(Ruleset(m).pm)
    monkeypatch.setattr(registry, "_PLUGGY_INSIDES", False)
    monkeypatch.setattr(_PluginManager, "_register_module", None)  # never reached
    assert _impls(Ruleset(m).pm) == fast
