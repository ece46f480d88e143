"""``game.hook`` (registry.FastHooks) answers every call as pluggy's ``pm.hook`` does: the same
results in the same order (firstresult, tryfirst/trylast, implementations taking some of the
arguments), the same fallbacks (wrappers, a call missing an argument, monitored calls), and it
hears plugins registered after its first call."""

import warnings

import pytest
from bansha import hookimpl
from bansha.engine import hookspecs
from bansha.engine.registry import _PluginManager
from pluggy import HookCallError


def manager(*plugins):
    pm = _PluginManager("bansha")
    pm.add_hookspecs(hookspecs)
    for i, plugin in enumerate(plugins):
        pm.register(plugin, name=f"p{i}")
    return pm


class Calls:
    """Plugins that log their calls: ``log`` is shared, each appends its name."""

    def __init__(self):
        self.log = []

    def plugin(self, name, answer=None, **opts):
        log = self.log

        class P:
            @hookimpl(**opts)
            def bansha_validate_action(game, action):
                log.append(name)
                return answer

            @hookimpl(**opts)
            def bansha_identity(game, player):
                log.append(name)
                return answer

            @hookimpl(**opts)
            def bansha_stop_kill(kill):  # takes one of the spec's two arguments
                log.append(name)
                return answer

        P.__name__ = name
        return P


def both(pm, hook, **kw):
    """The pluggy answer and the fast one, each with the implementations it called, in order."""
    calls = []
    for relay in (pm.hook, pm.fast):
        log = pm.log
        del log[:]
        calls.append((getattr(relay, hook)(**kw), list(log)))
    return calls


@pytest.fixture
def calls():
    return Calls()


def with_log(pm, calls):
    pm.log = calls.log
    return pm


def test_no_implementation(calls):
    pm = with_log(manager(), calls)
    assert pm.fast.bansha_validate_action(game=1, action=2) == [] == pm.hook.bansha_validate_action(game=1, action=2)
    assert pm.fast.bansha_identity(game=1, player=2) is None


def test_results_and_order_match_pluggy(calls):
    pm = with_log(manager(calls.plugin("a", "A"), calls.plugin("b"), calls.plugin("c", "C", tryfirst=True),
                          calls.plugin("d", "D", trylast=True), calls.plugin("e", "E")), calls)
    (slow, slow_log), (fast, fast_log) = both(pm, "bansha_validate_action", game=1, action=2)
    assert fast == slow == ["C", "E", "A", "D"] and fast_log == slow_log == ["c", "e", "b", "a", "d"]
    # firstresult: the first answer that is not None, and nobody after it is called
    (slow, slow_log), (fast, fast_log) = both(pm, "bansha_identity", game=1, player=2)
    assert fast == slow == "C" and fast_log == slow_log == ["c"]
    # an implementation taking some of the arguments gets those
    (slow, slow_log), (fast, fast_log) = both(pm, "bansha_stop_kill", res=1, kill=2)
    assert fast == slow == "C"


def test_one_implementation(calls):
    pm = with_log(manager(calls.plugin("a", "A")), calls)
    assert both(pm, "bansha_validate_action", game=1, action=2) == [(["A"], ["a"])] * 2
    assert both(pm, "bansha_identity", game=1, player=2) == [("A", ["a"])] * 2
    pm2 = with_log(manager(calls.plugin("b")), calls)
    assert both(pm2, "bansha_validate_action", game=1, action=2) == [([], ["b"])] * 2


def test_a_plugin_registered_later_is_heard(calls):
    pm = with_log(manager(calls.plugin("a", "A")), calls)
    assert pm.fast.bansha_validate_action(game=1, action=2) == ["A"]
    pm.register(calls.plugin("b", "B"), name="late")
    assert pm.fast.bansha_validate_action(game=1, action=2) == ["B", "A"]
    pm.unregister(name="late")
    assert pm.fast.bansha_validate_action(game=1, action=2) == ["A"]


def test_an_implementation_replaced_after_loading_is_called(calls):
    pm = with_log(manager(calls.plugin("a", "A")), calls)
    assert pm.fast.bansha_identity(game=1, player=2) == "A"
    (impl,) = pm.hook.bansha_identity.get_hookimpls()
    impl.function = lambda game, player: "watched"
    assert pm.fast.bansha_identity(game=1, player=2) == "watched"


def test_wrappers_go_through_pluggy(calls):
    class Wrapper:
        @hookimpl(wrapper=True)
        def bansha_identity(game, player):
            got = yield
            return f"[{got}]"

    pm = with_log(manager(calls.plugin("a", "A"), Wrapper), calls)
    assert pm.fast.bansha_identity(game=1, player=2) == "[A]" == pm.hook.bansha_identity(game=1, player=2)


def test_a_missing_argument_is_pluggys_warning_and_error(calls):
    pm = with_log(manager(calls.plugin("a", "A")), calls)
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        with pytest.raises(HookCallError):
            pm.fast.bansha_identity(game=1)
    assert any("player" in str(w.message) for w in seen)
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        assert pm.fast.bansha_stop_kill(kill=1) == "A"  # the implementation does not need ``res``
    assert any("res" in str(w.message) for w in seen)


def test_monitored_calls_are_seen(calls):
    pm = with_log(manager(calls.plugin("a", "A")), calls)
    seen = []
    undo = pm.add_hookcall_monitoring(lambda name, impls, kw: seen.append(name), lambda *a: None)
    pm.fast.bansha_identity(game=1, player=2)
    pm.fast.bansha_game_view(game=1)  # no implementation: still a call pluggy would report
    undo()
    pm.fast.bansha_identity(game=1, player=2)
    assert seen == ["bansha_identity", "bansha_game_view"]


def test_an_unknown_hook_is_an_attribute_error():
    with pytest.raises(AttributeError):
        manager().fast.bansha_no_such_hook  # noqa: B018


def test_a_game_calls_its_ruleset_s_fast_hooks():
    from bansha.engine.deal import deal
    from bansha.engine.engine import Game
    from bansha.engine.model import Setup
    from bansha.engine.registry import find_manifest, ruleset_for

    m = find_manifest("qisha-xia")
    rs = ruleset_for(m)
    names = [f"P{i:02d}" for i in range(1, 21)]
    game = Game(Setup(ruleset=m.id, manifest=m, players=deal(rs, names, 1), seed=1))
    assert game.hook is rs.hooks is rs.pm.fast
