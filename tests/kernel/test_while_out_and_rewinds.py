"""Two generic extensions made for 新日暮里's 钟 and the last shot: a skill declared
``while_out`` may be used by a holder who has left the game (and only such a skill), and
several ``res.rewind`` asked for in one resolution make one rewind to the earliest moment
asked for, with every ``keep`` applied."""

from pathlib import Path

import pytest
from bansha import Role, Skill, hookimpl
from bansha.engine.engine import Game, resolve_deaths
from bansha.engine.model import ActEvent, GameError, PlayerSetup, ResolveEvent, Setup
from bansha.engine.registry import find_manifest

TOY = (Path(__file__).parent / "toy.toml").read_text(encoding="utf-8")


def last_shot(res, a):
    res.kill(a.targets[0], kind="枪", by=a.actor, action=a, rule="猎手.shot")
    resolve_deaths(res)


def turn_back(name):
    def effect(res, a):
        def keep(game):
            game.data.setdefault("kept", []).append(name)
            game.player(a.actor).uses["回溯"] = 0

        res.rewind(f"night {res.game.day - 1}" if name == "early" else f"day {res.game.day}", "start", keep)

    return effect


class Extra:
    @hookimpl
    def bansha_roles():
        return [
            Role(name="猎手", camp="好人", skills=(
                Skill(name="开枪", phases=("day",), immediate=True, while_out=True, effect=last_shot),
                Skill(name="看", phases=("day",), immediate=True),
            )),
            Role(name="早钟", camp="好人", skills=(
                Skill(name="回溯", phases=("night",), step="kill", targets=0, uses=1, effect=turn_back("early")),)),
            Role(name="晚钟", camp="好人", skills=(
                Skill(name="回溯", phases=("night",), step="kill", targets=0, uses=1, effect=turn_back("late")),)),
        ]


def game(tmp_path, bansha_plugin, roles):
    bansha_plugin("extra", Extra)
    text = TOY.replace('id = "toy"', 'id = "toy-extra"').replace(
        '"平民" = "toy" }', '"平民" = "toy", "猎手" = "extra", "早钟" = "extra", "晚钟" = "extra" }')
    path = tmp_path / "toy.toml"
    path.write_text(text, encoding="utf-8")
    m = find_manifest(str(path))
    return Game(Setup(ruleset=m.id, manifest=m, players=[PlayerSetup(name=n, role=r) for n, r in roles]))


ROLES = [("甲", "刀手"), ("乙", "刀手"), ("丙", "猎手"), ("丁", "早钟"), ("戊", "晚钟"), ("己", "平民"), ("庚", "平民")]


def test_a_while_out_skill_is_used_after_leaving_the_game(tmp_path, bansha_plugin):
    g = game(tmp_path, bansha_plugin, ROLES)
    g.apply(ResolveEvent(phase="day 1"))
    g.apply(ActEvent(phase="night 1", actor="甲", skill="刀", targets=["丙"]))
    g.apply(ResolveEvent(phase="night 1"))
    assert not g.player("丙").alive
    # only the while_out skill: the dead hunter may not use 看
    with pytest.raises(GameError, match="out of the game"):
        g.apply(ActEvent(phase="day 2", actor="丙", skill="看"))
    g.apply(ActEvent(phase="day 2", actor="丙", skill="开枪", targets=["乙"]))
    assert not g.player("乙").alive
    # a dead player with no while_out skill still cannot act
    g.apply(ResolveEvent(phase="day 2"))
    g.apply(ActEvent(phase="night 2", actor="甲", skill="刀", targets=["己"]))
    g.apply(ResolveEvent(phase="night 2"))
    with pytest.raises(GameError, match="己 is out of the game and cannot act"):
        g.apply(ActEvent(phase="day 3", actor="己", skill="开枪", targets=["甲"]))


def test_two_rewinds_in_one_resolution_make_one_to_the_earliest_moment(tmp_path, bansha_plugin):
    g = game(tmp_path, bansha_plugin, ROLES)
    g.apply(ResolveEvent(phase="day 1"))
    g.apply(ResolveEvent(phase="night 1"))
    g.apply(ResolveEvent(phase="day 2"))
    # 晚钟 asks for the start of day 2, 早钟 (later in the step) for the start of night 1
    g.apply(ActEvent(phase="night 2", actor="戊", skill="回溯"))
    g.apply(ActEvent(phase="night 2", actor="丁", skill="回溯"))
    g.apply(ResolveEvent(phase="night 2"))
    assert g.label == "night 1"
    assert g.data["kept"] == ["late", "early"]
    assert g.player("丁").uses["回溯"] == 0 and g.player("戊").uses["回溯"] == 0
