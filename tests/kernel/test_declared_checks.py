"""``for_skills``: a ``bansha_validate_action`` declared for some skills is asked only of
actions of those skills (``FastHooks.for_skill``), an undeclared one of every action, in
pluggy's order (LIFO by registration, tryfirst/trylast), so the same refusal wins."""

import pytest
from bansha import for_skills, hookimpl
from bansha.engine import hookspecs
from bansha.engine.registry import _PluginManager


def validator(log, name, answer=None, skills=None, **opts):
    def bansha_validate_action(game, action):
        log.append(name)
        return answer

    if skills is not None:
        bansha_validate_action = for_skills(*skills)(bansha_validate_action)

    class P:
        pass

    P.bansha_validate_action = staticmethod(hookimpl(**opts)(bansha_validate_action))
    P.__name__ = name
    return P


def manager(log):
    pm = _PluginManager("bansha")
    pm.add_hookspecs(hookspecs)
    plugins = [
        validator(log, "all", "ALL"),                                   # undeclared: every skill
        validator(log, "kill", "KILL", skills=("杀人",)),
        validator(log, "first", "FIRST", skills=("杀人", "查验"), tryfirst=True),
        validator(log, "last", "LAST", skills=("查验",), trylast=True),
        validator(log, "quiet", None, skills=("杀人",)),
        validator(log, "late", "LATE"),                                 # undeclared, registered last
    ]
    for i, plugin in enumerate(plugins):
        pm.register(plugin, name=f"p{i}")
    return pm


@pytest.mark.parametrize("skill, called", [
    ("杀人", ["first", "late", "quiet", "kill", "all"]),
    ("查验", ["first", "late", "all", "last"]),
    ("沉默", ["late", "all"]),
])
def test_only_the_concerned_in_pluggys_order(skill, called):
    log = []
    pm = manager(log)
    full = pm.hook.bansha_validate_action(game=None, action=None)
    order = list(log)
    del log[:]
    got = pm.fast.for_skill("bansha_validate_action", skill)(game=None, action=None)
    assert log == called == [n for n in order if n in called]  # pluggy's order, the others left out
    answers = {"all": "ALL", "kill": "KILL", "first": "FIRST", "last": "LAST", "late": "LATE"}
    assert got == [answers[n] for n in called if n in answers]
    assert got == [a for a in full if a in got]
    assert got[0] == "FIRST" if skill != "沉默" else got[0] == "LATE"  # the refusal shown: the first


def test_the_table_is_kept_and_forgotten_on_register():
    log = []
    pm = manager(log)
    call = pm.fast.for_skill("bansha_validate_action", "沉默")
    assert pm.fast.for_skill("bansha_validate_action", "沉默") is call
    pm.register(validator(log, "new", "NEW", skills=("沉默",)), name="p9")
    del log[:]
    assert pm.fast.for_skill("bansha_validate_action", "沉默")(game=None, action=None) == ["NEW", "LATE", "ALL"]


def test_all_checks_flag_calls_every_implementation(monkeypatch):
    monkeypatch.setenv("BANSHA_ALL_CHECKS", "1")
    log = []
    pm = manager(log)
    pm.fast.for_skill("bansha_validate_action", "沉默")(game=None, action=None)
    assert sorted(log) == ["all", "first", "kill", "last", "late", "quiet"]


def test_undeclared_everywhere_is_the_full_hook():
    log = []
    pm = _PluginManager("bansha")
    pm.add_hookspecs(hookspecs)
    pm.register(validator(log, "a", "A"), name="a")
    assert pm.fast.for_skill("bansha_validate_action", "杀人") is pm.fast.bansha_validate_action


def test_for_skills_needs_names():
    with pytest.raises(TypeError):
        for_skills()
    with pytest.raises(TypeError):
        for_skills("")
