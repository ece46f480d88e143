"""Secrecy audit of the m217 roles of part 2: what `bansha status --as`, the feedback of `bansha
resolve` and `bansha export` let each reader know.

> 每次技能可发动时，技能持有者会得到可发动技能的所有发动状态 / 附加这些状态特效时，角色会得知…
> 特别的，[翻牌]技能都会公示以下内容：1，是否有角色翻牌 2，是否有角色出局 3，技能上说明的其他应公示内容。

The scenarios of tests/scenarios/m217 are stored event by event in a database of their own and read
back through the command line. Every intermediate state is also read through ``player_view`` (what
``bansha status --as`` prints), so statuses that only live through a night are seen too.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import msgspec
import pytest
from bansha.authoring import scenario
from bansha.engine.engine import Game
from bansha.show.views import player_view
from bansha.store.store import Store

M217 = Path(__file__).parents[1] / "scenarios" / "m217"

# the roles audited, with the scenarios that play them
ROLES = {
    "狼王": ["300", "301"], "恐怖分子": ["302", "303"], "狼兄": ["304", "305", "306"],
    "狼弟": ["304", "307", "315"], "幼狼": ["308", "309", "311", "316"], "狼鸦之爪": ["312", "313"],
    "噬时狼妃": ["340", "341", "342", "343"], "蛊医": ["345", "346"], "恶灵骑士": ["350", "351"],
    "撑杆僵尸": ["355", "356"], "黑蝙蝠": ["360", "361", "362", "363"], "狼学者": ["365"],
    "隐狼": ["380", "381", "382", "383"], "幽灵": ["390", "391"], "双面人": ["400", "401", "402", "403"],
    "宗教老爷爷": ["410", "411", "412"], "猎人": ["420", "421", "422"], "太阳": ["425", "426", "427", "428"],
    "乌鸦": ["430"], "面包师": ["435", "436", "437"], "侍从": ["440", "441"], "花匠": ["445"],
    "潜行者": ["450"], "隐者": ["460", "461", "462"], "灵能": ["463"], "白猫": ["464", "465"],
    "小女孩": ["466"], "天师": ["467"], "大蒜": ["468", "469"], "摄魂师": ["470"], "熊": ["471", "472"],
    "占星师": ["500", "501", "502", "503"], "镜": ["510", "511", "512", "513", "514", "515"],
    "赌徒": ["520", "521", "522", "523", "524", "525"], "丘比特": ["540", "541", "542", "545", "557"],
    "影子": ["549", "550", "551", "552", "553"], "暗恋者": ["575", "576", "577", "578"],
    "复仇者": ["580", "581", "582", "583", "584", "585", "608"], "粉丝": ["570", "571", "572"],
}


def path_of(number: str) -> Path:
    (path,) = M217.glob(f"{number}-*.toml")
    return path


def events_of(path: Path, phases: int | None = None, open_last: bool = False):
    """The scenario's setup and the events it stores (refused ones left out), up to ``phases``
    phases; ``open_last``: the last phase is left open (its actions sent, not resolved)."""
    sc = scenario.load(path)
    if phases is not None:
        sc.phases = sc.phases[:phases]
    if open_last:
        sc.phases[-1].resolve = False
    for ph in sc.phases:
        ph.expect = None  # only the events matter here; the scenario itself checks its expectations
    game = scenario.run(sc, path.parent)
    setup = scenario.setup_of(sc, path.parent)
    # what the game accepted, in order (a refused event is never applied)
    return setup, list(game.applied)


def store(cli, number: str, phases: int | None = None, open_last: bool = False) -> Game:
    """Store scenario ``number`` as game ``g`` in the CLI's database; returns the game."""
    setup, evs = events_of(path_of(number), phases, open_last)
    # stored as a copied game is, in one transaction (appending one by one would replay n times)
    Store(cli.db).import_raw("g", msgspec.json.encode(setup), [msgspec.json.encode(ev) for ev in evs])
    return cli.load()


def view(cli, player: str) -> dict:
    return json.loads(cli.ok("status", "g", "--as", player, "--json").output)


def resolve(cli) -> dict:
    return json.loads(cli.ok("resolve", "g", "--yes", "--json").output)


def every_state(number: str):
    """Each state the scenario passes through (after each of its events), with the game."""
    setup, evs = events_of(path_of(number))
    game = Game(setup)
    yield game
    for ev in evs:
        game.apply(ev)
        yield game


# statuses a holder is never told of, whoever gives them (docs/rulings/m217.md: non-negative
# statuses are told only where the holder's own role gives them; 诡辩 "不会通知发动者任何情况")
UNTOLD = {"坚韧": {"猎魔人"}, "隐身": {"隐者"}, "出人票": set(), "诡辩": set(), "流血": set(),
          "守护": {"灵鹿", "士兵"}, "不死": {"九尾狐", "太阳", "粉丝", "恶灵骑士", "复仇者"}, "黑情侣": set()}


def camp_told(game, name: str) -> bool:
    return not game.player(name).data.get("m217.camp-untold")


def _playing_audited_roles() -> list[str]:
    """Every m217 scenario from 300 on in which one of the audited roles is dealt."""
    out = []
    for path in sorted(M217.glob("*.toml")):
        number = path.name.split("-")[0]
        if int(number) >= 300 and {p.role for p in scenario.load(path).players} & set(ROLES):
            out.append(number)
    return out


SCENARIOS = _playing_audited_roles()


def test_every_audited_role_is_played_by_its_scenarios():
    for role, numbers in ROLES.items():
        for number in numbers:
            assert number in SCENARIOS
            assert role in {p.role for p in scenario.load(path_of(number)).players}, (role, number)


@pytest.mark.parametrize("number", SCENARIOS)
def test_views_hold_only_what_their_holder_may_know(number):
    """In every state of the scenario, for every player: the view's own card is his own, the
    statuses listed are told ones, and it names no other player's role outside his feedback,
    the announcements and what his own role tells (partners, cards, 翻牌)."""
    for game in every_state(number):
        for name, p in game.players.items():
            v = player_view(game, name)
            you = v["you"]
            assert you["role"] == p.role
            if camp_told(game, name):
                assert you["camp"] == p.camp
            else:
                assert you["camp"].startswith("不得知"), (number, name, you["camp"])
            for st in you["statuses"]:
                base = st.split(" (")[0].split(":")[0]
                # a non-negative status is shown when his own role gives it, or a skill he acquired does
                # (影子/复仇者 holding 九尾, 长寿之命 …: "那个技能所有涉及到原身份的名词都会改为发动者自己")
                mine = any(s.name == base and s.source in p.acquired for s in p.statuses)
                assert base not in UNTOLD or p.role in UNTOLD[base] or mine, (number, game.label, name, st)
            # no other player's role in what the view adds (its own extras), but for a 双面人's cards
            extras = {k: val for k, val in you.items() if k not in ("name", "role", "camp", "setup", "底牌", "置顶")}
            text = json.dumps(extras, ensure_ascii=False)
            for q in game.players.values():
                if q.name != name and len(q.role) > 1 and q.role != p.role:
                    assert f"{q.name}：{q.role}" not in text and f"{q.name}是{q.role}" not in text, (number, name, text)


# skills whose names the document's announcements carry: [日不落], [目标角色被诽谤], [熊咆哮了],
# [命运洪流不可阻挡], [时光回溯]
ANNOUNCED_SKILLS = {"日不落", "诽谤", "咆哮", "命运洪流", "时光倒流"}


def announced_roles(line: str) -> set[str]:
    return set(re.findall(r"实际身份为(\S+?)。", line))


@pytest.mark.parametrize("number", SCENARIOS)
def test_announcements_name_no_role_but_a_card_shown_and_export_holds_only_them(bansha_cli, number):
    """> 翻牌技能也不公示发动的什么技能以及发动目标。 An announcement names a role only in a
    [翻牌] line; no private line (feedback) is ever in the thread, and `bansha export` md/bbcode
    holds the announcements and nothing else."""
    game = store(bansha_cli, number)
    roles = {p.role for p in game.players.values()} - {"熊"}  # 熊咆哮了 is the bear's own public line
    skills = {sk for p in game.players.values() for sk in game.skills_of(p) if len(sk) > 1}
    for _, line in game.announcements:
        shown = announced_roles(line)
        named = {r for r in roles if r in line and len(r) > 1 and not any(r in s for s in shown)}
        named -= {"狼人", "村民", "三方", "黑情侣"}  # camps of a game-over line
        assert not named, line
        bare = re.sub(r"实际身份为\S+?。", "", line)
        used = {sk for sk in skills if sk in bare} - ANNOUNCED_SKILLS
        assert not used, line  # "其他类型的技能，除非另有说明，否则一律不公示"
    md = bansha_cli.ok("export", "g", "--format", "md").output
    bb = bansha_cli.ok("export", "g", "--format", "bbcode").output
    body_md = [line[2:] for line in md.splitlines() if line.startswith("- ")]
    body_bb = [line[3:] for line in bb.splitlines() if line.startswith("[*]")]
    # player-given text is escaped in an export (issue 11): the lines are the announcements, escaped
    from bansha.show.views import escape_bbcode, escape_md

    assert body_md == [escape_md(t) for _, t in game.announcements]
    assert body_bb == [escape_bbcode(t) for _, t in game.announcements]
    private = {t for lines in game.feedback.values() for _, t in lines} - {t for _, t in game.announcements}
    for line in private:
        assert line not in md and line not in bb


def lines(fb: dict, name: str) -> list[str]:
    return fb.get(name, [])


def told(v: dict) -> str:
    """What a view tells its player beyond his own card and the public list of players."""
    you = {k: val for k, val in v["you"].items() if k not in ("name", "role")}
    return json.dumps([you, v["feedback"], v["announcements"], v["facts"]], ensure_ascii=False)


# ----------------------------------------------------------------------------- 不定阵营


def test_avenger_knows_his_enemy_but_not_the_camp_he_joined(bansha_cli):
    """> 其将变为你的仇人，你得知仇人是谁，并加入仇人对立的阵营并跟随变动…但不得知加入了什么阵营。
    580: at noon 1 庚 (女巫, 村民) becomes 丙's enemy: 丙 joins 狼人阵营 untold. Before, his view shows
    不定阵营 (his card's); after, it names his enemy and no camp."""
    store(bansha_cli, "580", phases=1, open_last=True)
    assert view(bansha_cli, "丙")["you"]["camp"] == "不定阵营"
    out = resolve(bansha_cli)
    assert "寻仇：庚成为了你的仇人，你获得了仅针对仇人的[不死]状态。" in out["feedback"]["丙"]
    assert not any("阵营" in t for t in out["feedback"]["丙"])
    assert bansha_cli.load().player("丙").camp == "狼人阵营"
    you = view(bansha_cli, "丙")["you"]
    assert you["仇人"] == "庚"
    assert "狼人阵营" not in json.dumps(you, ensure_ascii=False)
    assert you["camp"].startswith("不得知")
    shown = bansha_cli.ok("status", "g", "--as", "丙").output
    assert "狼人阵营" not in shown and "庚" in shown
    assert "丙" not in json.dumps(view(bansha_cli, "庚")["you"], ensure_ascii=False)  # the enemy is told nothing


def test_avenger_drawn_camp_and_later_changes_stay_untold(bansha_cli):
    """> （若为三方或不定，则从狼或好人随机选一）… 但不得知加入了什么阵营。 585: the enemy is 不定; the
    drawn camp, and the change that follows the enemy's, are in no line and not in his view."""
    game = store(bansha_cli, "585")
    assert (game.player("丙").camp, game.player("丁").camp) == ("村民阵营", "狼人阵营")
    for avenger in ("丙", "丁"):
        you = view(bansha_cli, avenger)["you"]
        assert you["camp"].startswith("不得知")
        assert not any(c in json.dumps(you, ensure_ascii=False) for c in ("狼人阵营", "村民阵营"))
        assert not any("阵营" in t for _, t in game.feedback[avenger])


def test_shadow_is_told_its_host_and_camp_not_the_hosts_role(bansha_cli):
    """> 影子选择一名角色作为附身对象，并转入相同阵营 … 当该角色出局时，获得该角色的全部技能
    550: 卯 附身 戊 (预言家). Until 戊 leaves, nothing 卯 reads names 预言家; the host is told nothing."""
    store(bansha_cli, "550", phases=1)
    v = view(bansha_cli, "卯")
    assert v["you"]["camp"] == "村民阵营"
    assert "预言家" not in json.dumps(v, ensure_ascii=False)
    assert [f["text"] for f in v["feedback"]] == ["附身：你附身了戊。", "你的阵营转变为村民阵营。"]
    assert "卯" not in json.dumps(view(bansha_cli, "戊")["you"], ensure_ascii=False)
    assert not any("附身" in f["text"] for f in view(bansha_cli, "戊")["feedback"])


def test_secret_admirer_and_beloved(bansha_cli):
    """> 距离你电梯楼最远的角色为你的暗恋对象…你加入暗恋对象所在的阵营并跟随变动。
    > 情书…然后你和主人在当天正午任何时候互相发送一条不超过50字的信息
    575: 甲 learns his beloved 辛 (a name, not its role) and his camp; 辛 learns nothing.
    578: the beloved 戊 reads the letter without its sender's name."""
    store(bansha_cli, "575", phases=1)
    v = view(bansha_cli, "甲")
    assert v["you"]["暗恋对象"] == "辛" and v["you"]["camp"] == "狼人阵营"
    assert "狼巫" not in json.dumps(v, ensure_ascii=False)
    beloved = view(bansha_cli, "辛")
    assert "甲" not in json.dumps(beloved["you"], ensure_ascii=False)
    assert not any("暗恋" in f["text"] or "甲" in f["text"] for f in beloved["feedback"])


def test_love_letter_reaches_the_beloved_without_its_senders_name(bansha_cli):
    store(bansha_cli, "578", phases=3)
    beloved = view(bansha_cli, "戊")
    assert "情书：今晚月色真美" in [f["text"] for f in beloved["feedback"]]
    assert not any("甲" in f["text"] for f in beloved["feedback"])
    assert "甲" not in json.dumps(beloved["you"], ensure_ascii=False)
    for other in ("丙", "丁", "己"):
        assert not any("情书" in f["text"] or "回信" in f["text"] for f in view(bansha_cli, other)["feedback"])
    md = bansha_cli.ok("export", "g", "--format", "md").output
    assert "月色" not in md and "风也温柔" not in md


def test_fan_knows_the_idol_by_name_the_idol_knows_nothing(bansha_cli):
    """> 粉丝需选择一个角色支持，该角色称为偶像，并转入相同阵营 — 570: 乙 follows 甲 (狼巫)."""
    store(bansha_cli, "570", phases=1)
    fan = view(bansha_cli, "乙")
    assert fan["you"]["偶像"] == "甲" and fan["you"]["camp"] == "狼人阵营"
    assert fan["you"]["statuses"] == ["不死"]
    assert "狼巫" not in json.dumps(fan, ensure_ascii=False)
    idol = view(bansha_cli, "甲")
    assert "乙" not in json.dumps(idol["you"], ensure_ascii=False)
    assert not any("乙" in f["text"] or "偶像" in f["text"] for f in idol["feedback"])


def test_lovers_know_each_other_by_name_only_and_nobody_else_knows(bansha_cli):
    """> [情侣]状态…获得该状态时，与另外一位情侣共群，并得知是[真爱情侣]还是[虚情情侣]
    540: 丁 links 庚 (女巫) and 辛 (骑士)."""
    game = store(bansha_cli, "540", phases=1)
    for me, other, role in (("庚", "辛", "骑士"), ("辛", "庚", "女巫")):
        you = view(bansha_cli, me)["you"]
        assert you["情侣"] == [f"真爱情侣：{other}"] and you["group"] == [other]
        assert role not in json.dumps(view(bansha_cli, me), ensure_ascii=False)
    for name in game.players:
        if name not in ("庚", "辛", "丁"):
            text = json.dumps(view(bansha_cli, name), ensure_ascii=False)
            assert "情侣" not in text, name


# ----------------------------------------------------------------------------- 狼人阵营


def test_wolf_brothers_know_each_other_and_nobody_else_knows_them(bansha_cli):
    """> 与狼弟互知不共群 — 304: 甲 狼兄, 乙 狼弟 (disguised), 丙 狼巫 (群内)."""
    game = store(bansha_cli, "304", phases=1)
    assert view(bansha_cli, "甲")["you"]["狼弟"] == "乙"
    assert view(bansha_cli, "乙")["you"]["狼兄"] == "甲"
    assert "group" not in view(bansha_cli, "乙")["you"]  # 不共群
    assert view(bansha_cli, "甲")["you"]["group"] == ["丙"]
    for name in game.players:
        if name not in ("甲", "乙"):
            v = view(bansha_cli, name)
            assert "狼弟" not in json.dumps(v, ensure_ascii=False) and "狼兄" not in json.dumps(v, ensure_ascii=False), name
            assert "乙" not in v["you"].get("group", []), name


def test_raven_claw_is_known_to_the_pack_only_once_the_opening_is_over(bansha_cli):
    """> 开局阶段结束后，若狼鸦之爪属于狼人阵营，所有[群内]狼都知晓狼鸦之爪是谁。
    312: 甲 狼鸦之爪, 乙 幼狼 and 丙 狼巫 [群内], 丁 石像鬼 [接刀]."""
    store(bansha_cli, "312", phases=0)
    assert bansha_cli.load().label == "opening"
    for name in ("甲", "乙", "丙", "丁"):
        assert "狼鸦之爪" not in told(view(bansha_cli, name)), name
    out = resolve(bansha_cli)
    assert out["phase"] == "opening"
    assert [t for t in lines(out["feedback"], "乙") if "狼鸦之爪" in t] == ["狼鸦之爪是甲。"]
    assert [t for t in lines(out["feedback"], "丙") if "狼鸦之爪" in t] == ["狼鸦之爪是甲。"]
    for name in ("甲", "丁", "戊"):
        assert not any("狼鸦之爪" in t for t in lines(out["feedback"], name)), name
        assert "狼鸦之爪" not in told(view(bansha_cli, name))
    assert view(bansha_cli, "乙")["you"]["狼鸦之爪"] == "甲"
    assert "group" not in view(bansha_cli, "甲")["you"]  # not [群内]: it knows nothing of the pack
    assert not any("狼鸦之爪" in t for t in out["announcement"])


def test_hidden_wolf_effects_three_and_five_tell_names_only_to_its_camp(bansha_cli):
    """> 3，知晓所有和自己[实际阵营]相同角色的马甲名单 / 5，让所有和自己[实际阵营]相同角色知晓你的马甲
    380: 甲 chooses 2, 3, 5: he reads 乙、丙、丁 (names, no roles); the wolves read 甲's name; the
    village nothing. His disguise (effect 2) is nobody's to see but his."""
    game = store(bansha_cli, "380", phases=1)
    me = view(bansha_cli, "甲")
    assert me["you"]["同阵营马甲"] == "乙、丙、丁"
    assert "狼巫" not in json.dumps(me, ensure_ascii=False) and "石像鬼" not in json.dumps(me, ensure_ascii=False)
    assert "伪装" not in " ".join(me["you"]["statuses"])  # the disguise status is not told
    for name in game.players:
        text = json.dumps(view(bansha_cli, name), ensure_ascii=False)
        if name in ("乙", "丙", "丁"):
            assert "隐狼的马甲是甲。" in text and "同阵营马甲" not in text
        elif name != "甲":
            assert "隐狼" not in text and "伪装" not in text, name


def test_wolf_cub_inspire_is_told_to_the_pack_and_not_announced(bansha_cli):
    """> 激励<强制>——当幼狼并非因红牌罚下而出局时，下一个[深夜]阶段，狼人的[杀人]获得[迅捷1]。"""
    game = store(bansha_cli, "308", phases=2)
    for name in game.players:
        inspired = any("激励" in t for _, t in game.feedback.get(name, []))
        assert inspired == (name in ("乙", "丙")), name
    assert not any("激励" in t or "迅捷" in t for _, t in game.announcements)


def test_blast_announces_the_card_and_the_exits_not_the_skill_or_its_target(bansha_cli):
    """> 翻牌技能也不公示发动的什么技能以及发动目标。 302: 甲 (恐怖分子) 爆破 乙 (狼王) at noon 1."""
    store(bansha_cli, "302", phases=2)
    game = bansha_cli.load()
    assert game.label == "noon 1"
    noon = [t for ph, t in game.announcements if ph == "noon 1"]
    assert noon[:3] == ["甲翻牌，实际身份为恐怖分子。", "甲出局。", "乙出局。"]
    assert not any("爆破" in t or "狼王" in t or "暴击" in t for t in noon)
    md = bansha_cli.ok("export", "g", "--format", "md").output
    assert "爆破" not in md and "遗言必须强制留空" not in md


def test_time_consort_learns_skill_names_and_the_senders_learn_nothing(bansha_cli):
    """> 那些技能的结算目标全部改为发动者自己，且不知晓，若成功反弹技能，噬时狼妃会知道所有被反弹的技能名称
    340: 甲 turns back 己's 通灵, 辛's 毒药, 丑's 冰冻 aimed at 戊."""
    store(bansha_cli, "340", phases=1, open_last=True)
    out = resolve(bansha_cli)
    mine = lines(out["feedback"], "甲")
    assert sorted(t for t in mine if "时间逆流" in t) == sorted(
        ["时间逆流反弹了[通灵]。", "时间逆流反弹了[毒药]。", "时间逆流反弹了[冰冻]。"])
    for t in mine:
        assert not any(n in t for n in ("己", "辛", "丑")), t  # names of skills, not of their senders
    for name in ("己", "辛", "丑", "戊"):
        assert not any("时间逆流" in t or "反弹" in t for t in lines(out["feedback"], name)), name
    assert not any("时间逆流" in t or "反弹" in t for t in out["announcement"])


def test_gu_doctor_is_told_only_a_wrong_guess_without_a_name(bansha_cli):
    """> 若被选择的角色本身不属于被选择的身份类别，则蛊医立即收到通知，然后失去该技能。"""
    game = store(bansha_cli, "346")
    told = [t for _, t in game.feedback.get("甲", []) if "蛊惑" in t]
    assert all(t.startswith("蛊惑：结算目标不属于[") for t in told)
    for t in told:
        assert not any(n in t for n in game.players if n != "甲"), t
    for name in game.players:
        if name != "甲":
            assert not any("蛊惑" in t for _, t in game.feedback.get(name, [])), name
    assert not any("蛊惑" in t for _, t in game.announcements)


def test_ghost_rider_learns_village_skill_names_and_only_the_first_source(bansha_cli):
    """> 恶灵骑士会获得反馈：今晚村民阵营对你进行操作过的技能名（包括非指定）。
    > PS：…恶灵骑士会得知谁第一个对自己使用了技能，但是不会知道之后的技能来源
    350 night 2: 戊 预言, 寅 狡黠, 辛 毒药, 丑 冰冻 and the wolves' 黑暗侦测/杀人 on 甲."""
    store(bansha_cli, "350", phases=3, open_last=True)
    out = resolve(bansha_cli)
    mine = lines(out["feedback"], "甲")
    assert "主宰黑夜：今晚村民阵营对你使用了[预言]、[狡黠]、[毒药]、[冰冻]。" in mine
    assert "邪恶 选择范围：辛。" in mine
    names = set(bansha_cli.load().players) - {"甲"}
    named = {n for t in mine for n in names if n in t}
    assert named <= {"辛"}, mine  # the counter's one target, no other source
    for name in ("戊", "寅", "辛", "丑"):
        assert not any("主宰黑夜" in t or "邪恶" in t for t in lines(out["feedback"], name)), name
    assert not any("邪恶" in t or "主宰黑夜" in t for t in out["announcement"])


def test_pole_zombie_jump_is_told_to_nobody(bansha_cli):
    """> 跳跃[夜晚]<限定> —— …使当晚除验人系以外的[指定]技能对僵尸阵营无效 (no line for anyone)."""
    game = store(bansha_cli, "355")
    for name in game.players:
        assert not any("跳跃" in t for _, t in game.feedback.get(name, [])), name
    assert not any("跳跃" in t for _, t in game.announcements)


def test_black_bat_shelter_is_untold_and_the_rebound_names_only_the_first_attacker(bansha_cli):
    """> 庇护…结算目标获得[坚韧]，持续至当晚结束。 / PS：黑蝙蝠会得知谁第一个对自己的庇护目标进行了攻击。
    360 night 2: 甲 shelters 戊; 辛 poisons him first, then the pack's 杀人."""
    store(bansha_cli, "360", phases=1, open_last=True)
    game = bansha_cli.load()
    assert "坚韧" not in json.dumps(view(bansha_cli, "戊"), ensure_ascii=False)
    out = resolve(bansha_cli)
    assert not any("坚韧" in t or "庇护" in t for t in lines(out["feedback"], "戊"))
    bat = lines(out["feedback"], "甲")
    assert "反弹 选择范围：辛。" in bat
    assert not any(n in t for t in bat for n in set(game.players) - {"甲", "辛"})
    assert not any("反弹" in t or "庇护" in t for t in lines(out["feedback"], "辛"))
    assert not any("反弹" in t or "庇护" in t or "坚韧" in t for t in out["announcement"])


def test_wolf_scholar_is_told_nothing_and_his_extra_vote_is_not_shown(bansha_cli):
    """> 无论猜测结果如何，这个技能不会通知发动者任何情况。 365: 乙 guesses 戊 预言家 (right)."""
    game = store(bansha_cli, "365")
    assert not any(any(w in t for w in ("诡辩", "迷魂", "票")) for _, t in game.feedback.get("乙", []))
    you = view(bansha_cli, "乙")["you"]
    assert not any("诡辩" in s for s in you["statuses"])
    assert any(s.name == "诡辩" for s in game.player("乙").statuses)  # he has the vote, untold
    assert not any("诡辩" in t for _, t in game.announcements)


def test_ghost_sees_its_targets_night_the_village_target_is_not_told(bansha_cli):
    """> 获知结算目标当晚所有操作和所有反馈（实时反馈）…若附体到实际阵营为[狼人阵营]的玩家，则立刻互知身份
    390: 甲 (幽灵) possesses 戊 (通灵师) at dusk 1, then 乙 (狼巫) at dusk 2."""
    store(bansha_cli, "390", phases=2, open_last=True)
    out = resolve(bansha_cli)
    assert "附体（戊）：操作[通灵]→乙" in lines(out["feedback"], "甲")
    assert not any("己" in t for t in lines(out["feedback"], "甲"))  # another player's night is not his
    assert not any("附体" in t or "幽灵" in t for t in lines(out["feedback"], "戊"))
    assert "甲" not in told(view(bansha_cli, "戊"))
    out = resolve(bansha_cli)  # noon 1
    out = resolve(bansha_cli)  # dusk 2 with no 附体 sent here: nothing told to anyone
    assert not any("附体" in t for ts in out["feedback"].values() for t in ts)


def test_two_faced_sees_his_cards_nobody_else_does(bansha_cli):
    """> 游戏开始前随机获得未出场的一狼一神作为底牌…当前置顶神牌，表面身份为当前置顶身份
    400: 甲's cards 石像鬼 and 骑士. He is not [群内] and is told nothing of the pack."""
    game = store(bansha_cli, "400", phases=2)
    you = view(bansha_cli, "甲")["you"]
    assert you["底牌"] == "石像鬼（狼）、骑士（神）" and "group" not in you
    for name in game.players:
        if name != "甲":
            text = json.dumps(view(bansha_cli, name), ensure_ascii=False)
            assert "底牌" not in text and "双面" not in text, name
    assert not any("双面" in t or "置顶" in t for _, t in game.announcements)


# ----------------------------------------------------------------------------- 村民阵营 (弱神)


def noon_or_night_lines(game, label: str) -> list[str]:
    return [t for ph, t in game.announcements if ph == label]


def test_last_shot_announces_the_exit_not_the_hunter(bansha_cli):
    """> 最后一枪[晨曦][黄昏][指定] — 420: 丁 (猎人, out at night 2) shoots 甲 at dawn 2."""
    store(bansha_cli, "420", phases=4)
    game = bansha_cli.load()
    for _, t in game.announcements:
        assert "最后一枪" not in t and "猎人" not in t and "致死伤害" not in t, t
    assert not any("丁" in t or "最后一枪" in t for _, t in game.feedback["甲"])


def test_sun_announcements_and_its_undying_are_the_suns_own(bansha_cli):
    """> 太阳出局时，公示[日不落] / [常驻]：游戏日白天获得[不死]状态。 425: 丁 (太阳) is killed at night 2."""
    game = store(bansha_cli, "425", phases=1)
    assert view(bansha_cli, "丁")["you"]["statuses"][0].startswith("不死")
    for name in game.players:
        if name != "丁":
            assert "不死" not in " ".join(view(bansha_cli, name)["you"]["statuses"]), name
    game = store_more(bansha_cli, "425", phases=2)
    night = noon_or_night_lines(game, "night 2")
    assert {"丁翻牌，实际身份为太阳。", "日不落。", "丁出局。"} <= set(night)
    assert set(night) - {"丁翻牌，实际身份为太阳。", "日不落。", "丁出局。"} == {"乙被诽谤。"}
    assert not any("甲" in t or "杀人" in t for t in night)  # not who killed him


def store_more(cli, number: str, phases: int) -> Game:
    """The same scenario stored afresh, further on."""
    cli.db.unlink()
    return store(cli, number, phases)


def test_slander_is_announced_once_without_the_crows(bansha_cli):
    """> 公示[目标角色被诽谤] / 多个诽谤诽谤同一人时，只公示一次诽谤 — 430: 丁 and 癸 (乌鸦) on 戊."""
    game = store(bansha_cli, "430", phases=2)
    night = noon_or_night_lines(game, "night 1")
    assert night == ["戊被诽谤。"]
    for name in game.players:
        if name not in ("丁", "癸"):
            assert not any("诽谤" in t for _, t in game.feedback.get(name, [])), name


def test_bread_is_told_to_the_wolves_holding_a_bound_skill_only(bansha_cli):
    """> 当夜[狼人阵营]所有持有符合条件技能的角色会收到通知 — 435 night 2: 丁 gives bread to 寅卯甲乙."""
    store(bansha_cli, "435", phases=2, open_last=True)
    out = resolve(bansha_cli)
    told_ = {n for n, ts in out["feedback"].items() if any("面包" in t for t in ts)}
    assert told_ == {"甲", "乙"}  # not 丙 (石像鬼: 查验 is [午夜]), not the baker, not the bread's holders
    assert not any("面包" in t or "芬芳" in t for t in out["announcement"])


def test_stand_in_death_is_announced_as_the_squires_exit_only(bansha_cli):
    """> 该玩家若当晚出局，侍从代替其出局。 440 night 2: the pack kills 辛; 丁 (侍从) dies instead."""
    store(bansha_cli, "440", phases=3, open_last=True)
    out = resolve(bansha_cli)
    assert out["announcement"][0] == "丁出局。"
    assert not any("辛" in t or "替死" in t or "侍从" in t for t in out["announcement"])
    assert not any("替死" in t or "丁" in t for t in lines(out["feedback"], "辛"))


def test_rose_is_told_to_its_holder_with_its_source_and_not_announced(bansha_cli):
    """> 该玩家立刻获得[玫瑰]并得到通知：你收到来自[技能来源]的玫瑰 — 445."""
    game = store(bansha_cli, "445")
    for name in game.players:
        for _, t in game.feedback.get(name, []):
            if "玫瑰" in t:
                assert t.startswith("你收到来自"), (name, t)
    assert not any("玫瑰" in t for _, t in game.announcements)


def test_stalker_kill_is_announced_as_an_exit_only(bansha_cli):
    """> 潜行[深夜][指定][限定] — 450 night 2: 丁 (潜行者) kills 己."""
    game = store(bansha_cli, "450", phases=3)
    assert noon_or_night_lines(game, "night 2") == ["己出局。"]
    assert not any("丁" in t or "潜行" in t for _, t in game.feedback["己"])


def test_cloak_given_away_is_not_shown_to_its_holder(bansha_cli):
    """> 脱下隐身衣…结算目标获得[隐身]状态，持续至下一个[黄昏]阶段结束。 (a non-negative status, not
    told: docs/rulings/m217.md) 462: 丙 gives 隐身 to 戊 at night 1; it lasts to dusk 2."""
    game = store(bansha_cli, "462", phases=2)
    assert game.label == "dawn 1"
    assert any(s.name == "隐身" for s in game.player("戊").statuses)
    v = view(bansha_cli, "戊")
    assert "隐身" not in told(v)
    mine = view(bansha_cli, "丙")["you"]["statuses"]
    assert not any("隐身" in s for s in mine)  # his cloak is gone (told: [隐身衣]失效)


def test_psychic_reads_a_camp_only_for_itself(bansha_cli):
    """> 感知…获知[结算目标]的[实际阵营]，反馈格式为[选择目标是XX阵营] — 463 night 2: 丙 on 甲."""
    store(bansha_cli, "463", phases=3, open_last=True)
    out = resolve(bansha_cli)
    assert "甲是狼人阵营" in lines(out["feedback"], "丙")
    others = [t for n, ts in out["feedback"].items() if n != "丙" for t in ts]
    assert not any("感知" in t or "甲是狼人阵营" in t for t in others + out["announcement"])


def test_white_cat_reveal_says_nothing_of_its_cause(bansha_cli):
    """> 猫有九命[强制][翻牌]——若白猫出局，白猫立刻翻牌并免于此次出局 — 465 (at night)."""
    game = store(bansha_cli, "465")
    for _, t in game.announcements:
        assert "猫有九命" not in t and "致死伤害" not in t, t


def test_little_girl_is_told_a_number_only(bansha_cli):
    """> 得知当晚(定义为黄昏开始之后)该时间点之前一共选择发动技能的人数。 466 night 2: three 小女孩."""
    game = store(bansha_cli, "466", phases=4)
    for girl in ("丙", "子", "丑"):
        peeks = [t for ph, t in game.feedback[girl] if ph == "night 2"]
        assert peeks and all(re.fullmatch(r"窥视：\S+之前一共有\d+人选择发动技能。", t) for t in peeks), peeks
        assert not any(n in t for t in peeks for n in game.players), peeks
    assert not any("窥视" in t for _, t in game.announcements)


def test_heavens_answer_goes_to_the_asker_only(bansha_cli):
    """> 天师可以询问导演…导演会在深夜结束后…反馈[是/否/无法回答] — 467."""
    game = store(bansha_cli, "467")
    for name in game.players:
        if game.player(name).role != "天师":
            assert not any("通天" in t for _, t in game.feedback.get(name, [])), name
    assert not any("通天" in t or "狼人阵营吗" in t for _, t in game.announcements)


def test_garlic_stink_is_told_to_its_four_neighbours_not_announced(bansha_cli):
    """> 大蒜于出局时，大蒜电梯楼上下两层四人获得…[沉默][缴械][迷魂] — 468 night 2: 乙 out."""
    game = store(bansha_cli, "468", phases=1)
    assert sorted(noon_or_night_lines(game, "night 2")) == sorted(["乙翻牌，实际身份为大蒜。", "乙出局。"])
    hit = {n for n, ts in game.feedback.items() if any(ph == "night 2" and "沉默" in t for ph, t in ts)}
    assert hit == {"丙", "丁", "甲", "壬"}


def test_soul_catcher_target_is_not_told_the_source_and_the_proclamation_is_the_text(bansha_cli):
    """> 结算目标于早夜结束后收到通知，结算目标可以让导演明天公布不超过50字的任意内容 — 470."""
    game = store(bansha_cli, "470", phases=3)
    for name in ("乙", "戊"):
        caught = [t for _, t in game.feedback[name] if "摄魂" in t]
        assert caught == ["你被摄魂：明天你可以让导演公布不超过50字的任意内容。"]
    for name in ("丙", "丁", "壬", "卯"):
        assert not any("摄魂" in t for _, t in game.feedback.get(name, [])), name
    noon = noon_or_night_lines(game, "noon 1")
    assert "熊咆哮了。" in noon  # 乙's text, as it is
    assert not any("摄魂" in t or "乙" in t or "丙" in t for t in noon)


def test_bear_roar_names_no_bear_and_no_wolf(bansha_cli):
    """> 下一个游戏日白天将公示熊咆哮了 / 但不知道对应的是哪头熊。 471, 472."""
    game = store(bansha_cli, "471")
    roars = [t for _, t in game.announcements if "咆哮" in t]
    assert roars and set(roars) == {"熊咆哮了。"}
    for name in game.players:
        assert not any("咆哮" in t for _, t in game.feedback.get(name, [])), name
    game = store_more(bansha_cli, "472", phases=None)  # the roar of noon 2 names nobody either
    assert {t for _, t in game.announcements if "咆哮" in t} == {"熊咆哮了。"}


# ----------------------------------------------------------------------------- 三方阵营


def test_grandpas_heretics_are_his_alone(bansha_cli):
    """> 游戏开局，选择一半的角色…作为异端。 410: 甲 chooses 乙丙丁子丑寅卯."""
    game = store(bansha_cli, "410")
    assert view(bansha_cli, "甲")["you"]["异端"] == "乙、丙、丁、子、丑、寅、卯"
    for name in game.players:
        if name != "甲":
            text = told(view(bansha_cli, name))
            assert "异端" not in text, name
    assert not any("异端" in t for _, t in game.announcements)


def test_astrologer_reads_are_his_and_the_torrent_announces_only_itself(bansha_cli):
    """> 若全部正确，则立刻公示[命运洪流不可阻挡]，所有被猜对的角色立刻获得[沉默]状态并收到通知
    502 noon 1: 壬 names 甲…庚 right."""
    game = store(bansha_cli, "502", phases=2)
    noon = noon_or_night_lines(game, "noon 1")
    assert "[命运洪流不可阻挡]" in noon
    for t in noon:
        assert not any(r in t for r in ("狼巫", "石像鬼", "预言家", "通灵师", "女巫", "壬")), t
    silenced = {n for n, ts in game.feedback.items() if any(ph == "noon 1" and "沉默" in t for ph, t in ts)}
    assert silenced <= {"甲", "乙", "丙", "丁", "己", "庚"} and silenced  # the guessed ones in the game


def test_mirror_learns_reflected_skills_and_their_new_targets_not_their_sources(bansha_cli):
    """> 镜获知当晚所有反射过的操作和对应玩家。（不知来源，可知哪个技能反射给谁）
    510 night 2: 甲's 杀人 and 戊's 预言 on 己 (镜)."""
    store(bansha_cli, "510", phases=1, open_last=True)
    out = resolve(bansha_cli)
    mirror = [t for t in lines(out["feedback"], "己") if t.startswith("反射")]
    assert sorted(mirror) == ["反射：[杀人]→庚", "反射：[预言]→卯"]
    assert not any("甲" in t or "戊" in t for t in lines(out["feedback"], "己"))
    for name in ("甲", "戊", "卯", "庚"):
        assert not any("反射" in t or "镜" in t for t in lines(out["feedback"], name)), name
    assert not any("反射" in t for t in out["announcement"])
    assert view(bansha_cli, "己")["you"]["曾对你使用过的技能"] == ["预言", "杀人"]


def test_gamblers_extra_vote_is_noted_by_the_director_only(bansha_cli):
    """> 骰子1，获得出人票加1票（此条可叠加，导演暗记） — 522: the status is not in his view and
    the vote's announcement gives no count."""
    game = store(bansha_cli, "522", phases=2)
    assert any(s.name == "出人票" for s in game.player("己").statuses)
    assert not any("出人票" in s for s in view(bansha_cli, "己")["you"]["statuses"])
    for _, t in game.announcements:
        assert "出人票" not in t and "票数" not in t and not re.search(r"\d+票", t), t


def test_a_dusk_death_is_seen_by_others_only_when_the_dusk_closes(bansha_cli):
    """> 在黄昏阶段出局的角色…会在黄昏阶段结束后通知 / 因此造成的出局立刻通知对应角色 — 623: 丁's 最后一枪 puts
    乙 out at dusk 2. Before the dusk closes every other view still shows 乙 in the game (his seat and
    no 选择范围 left out), 乙's own view shows him out; once it closes, everyone sees it (issue 10, item 6)."""
    game = store(bansha_cli, "623", phases=2)
    assert game.label == "dusk 2" and not game.player("乙").alive
    for name in game.players:
        seen = {p["name"]: p["alive"] for p in view(bansha_cli, name)["players"]}
        assert seen["乙"] is (name != "乙"), name
    assert view(bansha_cli, "乙")["you"]["alive"] is False
    assert "乙" in view(bansha_cli, "甲")["you"]["group"]  # his pack mate: not marked （出局） yet
    resolve(bansha_cli)
    assert "乙（出局）" in view(bansha_cli, "甲")["you"]["group"]
    for name in ("甲", "戊"):
        assert {p["name"]: p["alive"] for p in view(bansha_cli, name)["players"]}["乙"] is False
