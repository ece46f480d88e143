"""Issue 20, items 1 and 2, through the real CLI: `status` (the director's to-do list and a
player's own view) lists what `act` accepts (choices.py asks the engine's own check), and the
live tally is the count `resolve` makes (choices.count_votes: weights, forced votes)."""

import json

from test_votes_import import M217, XIA

#: seed 5 deals 午马 宗教老爷爷, 未羊 蛊医 (with 卯兔 辰龙 秋月 in the 狼人 group)
M217_SEED = "5"
HERETICS = ["子鼠", "丑牛", "寅虎", "卯兔", "辰龙", "巳蛇", "未羊"]


def pending(cli, game="g"):
    return json.loads(cli.ok("status", game, "--json").output)["loop"]["pending"]


def test_m217_bewitch_listed_and_no_kill_on_the_first_night(bansha_cli):
    """> 蛊惑[指定][早夜]—— 选择范围：任意一名角色，并选择狼人/强神/弱神
    > 杀人[夜晚][指定]——选择目标：任意一名角色，第一晚不可使用。"""
    cli = bansha_cli
    cli.ok("new", "g", "--ruleset", "m217", "--players", M217, "--seed", M217_SEED)
    cli.ok("act", "g", "午马", "异端", *HERETICS)
    cli.ok("resolve", "g", "--yes")
    cli.ok("resolve", "g", "--yes")
    assert cli.load().label == "night 1"
    todo = pending(cli)
    bewitch = [s for s in todo if s["skill"] == "蛊惑"]
    assert [s["player"] for s in bewitch] == ["未羊"]
    assert bewitch[0]["targets"][:3] == ["子鼠", "丑牛", "寅虎"] and len(bewitch[0]["targets"]) == 14
    assert bewitch[0]["args"] == {"category": ["狼人", "强神", "弱神"]}
    assert not [s for s in todo if s["skill"] == "杀人"]          # 第一晚不可使用
    cli.refused("act", "g", "卯兔", "杀人", "子鼠", message="第一晚")
    out = cli.ok("status", "g").output
    assert "未羊 蛊惑 目标1人：14人" in out and "--arg category=狼人|强神|弱神" in out
    # the wolf's own view: 蛊惑 with its range, no 杀人
    mine = cli.ok("status", "g", "--as", "未羊").output
    assert "蛊惑 选择范围：子鼠、丑牛" in mine and "选择范围：\n" not in mine and "杀人" not in mine
    assert "同组: 卯兔、辰龙、秋月" in mine and "group:" not in mine and "uses:" not in mine
    wolf = json.loads(cli.ok("status", "g", "--as", "卯兔", "--json").output)["you"]
    assert "杀人" not in [c["skill"] for c in wolf.get("choices", [])]
    # what is listed is accepted
    cli.ok("act", "g", "未羊", "蛊惑", "子鼠", "--arg", "category=狼人")
    # the second night: 杀人 is open to the group, each target listed, the wolves' too
    for _ in range(5):  # night 1, dawn 1, noon 1, dusk 2 -> night 2
        cli.ok("resolve", "g", "--yes")
        if cli.load().label == "night 2":
            break
    kills = [s for s in pending(cli) if s["skill"] == "杀人"]
    assert kills and all(s["group"] == "狼人" for s in kills)
    cli.ok("act", "g", kills[0]["player"], "杀人", kills[0]["targets"][0])
    assert not [s for s in pending(cli) if s["skill"] == "杀人"]   # the group has acted


def test_qisha_xia_ranges_are_what_act_accepts(bansha_cli):
    """> 幻觉只能对除自己以外的人使用 (幻侠, seat 烧卖); > 青侠…初始…无任何特权 (水饺 …)."""
    cli = bansha_cli
    cli.ok("new", "g", "--ruleset", "qisha-xia", "--players", XIA, "--seed", "11")
    cli.ok("resolve", "g", "--yes")
    todo = pending(cli)
    one = next(s for s in todo if s["skill"] == "幻觉一")
    assert one["player"] == "烧卖" and "烧卖" not in one["targets"] and len(one["targets"]) == 19
    assert (one["min_targets"], one["max_targets"]) == (2, 2)
    cli.refused("act", "g", "烧卖", "幻觉一", "烧卖", "水饺", message="除自己以外")
    # a neutral 青侠 has no privilege: not listed as owing anything
    cyan = {"水饺", "汤圆", "月饼", "麻花", "锅贴"}
    assert not [s for s in todo if s["player"] in cyan]
    assert "幻觉一 选择范围：水饺、包子、馄饨、油条" in cli.ok("status", "g", "--as", "烧卖").output
    # the 黑侠's kill, sent by one member: no member is listed for it any more
    cli.ok("act", "g", "包子", "杀人", "面条")
    assert not [s for s in pending(cli) if s["skill"] == "杀人"]
    todo_lines = cli.ok("status", "g").output.split("可用技能（尚未提交）：")[1].splitlines()
    assert not [line for line in todo_lines if line.split()[:1] in (["水饺"], ["油条"], ["凉皮"])]
    mine = json.loads(cli.ok("status", "g", "--as", "油条", "--json").output)["you"]
    kill = next(c for c in mine["choices"] if c["skill"] == "杀人")
    assert kill["group_acted"] and not kill["submitted"]


def test_m217_tally_counts_the_heretic_executioner_s_votes(bansha_cli):
    """> 异端处决[强制]——每有一个异端出局，你的票权+1 — 午马 votes with 3 after two heretics left."""
    cli = bansha_cli
    cli.ok("new", "g", "--ruleset", "m217", "--players", M217, "--seed", M217_SEED)
    cli.ok("act", "g", "午马", "异端", *HERETICS)
    cli.ok("resolve", "g", "--yes")                       # -> dusk 1
    cli.ok("ruling", "g", "remove", "子鼠", "--text", "红牌")
    cli.ok("ruling", "g", "remove", "丑牛", "--text", "红牌")
    for _ in range(3):                           # dusk 1, night 1, dawn 1 -> noon 1
        cli.ok("resolve", "g", "--yes")
    assert cli.load().label == "noon 1"
    for voter in ("午马", "申猴", "酉鸡", "戌狗"):
        cli.ok("vote", "g", voter, "辰龙")
    cli.ok("vote", "g", "亥猪", "寅虎")
    out = cli.ok("status", "g").output
    assert "票数（仅导演可见，公告只公布结果）：辰龙 6，寅虎 1" in out
    assert "按当前票数：辰龙出局" in out
    vote = json.loads(cli.ok("status", "g", "--json").output)["loop"]["vote"]
    assert vote["tally"][0] == {"player": "辰龙", "votes": 6} and vote["public_counts"] is False
    # the player's view holds no count; whom the seat may vote for (a change: it has voted)
    assert "辰龙 6" not in cli.ok("status", "g", "--as", "申猴").output
    mine = json.loads(cli.ok("status", "g", "--as", "春风", "--json").output)["you"]
    assert mine["vote"][0] == "寅虎" and "子鼠" not in mine["vote"] and mine["vote"][-1] == "弃权"
    assert "春风" in vote["not_voted"] and "申猴" not in vote["not_voted"]
    res = json.loads(cli.ok("resolve", "g", "--yes", "--json").output)
    # the noon announces the top-voted; he leaves at 黄昏 (1) (option vote_out = 黄昏)
    assert res["out"] == [] and "辰龙为最高票。" in res["announcement"]
    assert cli.load().out[res["next"]] == ["辰龙"]


def test_qisha_xia_tally_follows_the_forced_votes(bansha_cli):
    """> 幻觉一：使得此2人在接下来的白天的投票强制与幻侠一致 — 水饺 and 包子 vote 馄饨, their
    votes count for 油条 (烧卖's): 馄饨 9, not 11. The threshold is whole votes (40% of 19: 8)."""
    cli = bansha_cli
    cli.ok("new", "g", "--ruleset", "qisha-xia", "--players", XIA, "--seed", "11")
    cli.ok("resolve", "g", "--yes")                       # day 1 -> night 1
    cli.ok("act", "g", "烧卖", "幻觉一", "水饺", "包子")
    cli.ok("act", "g", "包子", "杀人", "面条")
    cli.ok("resolve", "g", "--yes")                       # -> day 2, 面条 out
    assert cli.load().label == "day 2"
    cli.ok("vote", "g", "烧卖", "油条")
    for voter in ("水饺", "包子", "豆浆", "煎饼", "春卷", "汤圆", "粽子", "月饼", "麻花", "锅贴", "花卷"):
        cli.ok("vote", "g", voter, "馄饨")
    out = cli.ok("status", "g").output
    assert "票数：馄饨 9，油条 3" in out
    assert "出局门槛：最高票须达存活人数的 40%（8 票）" in out and "7.6" not in out
    assert "按当前票数：馄饨出局" in out
    res = json.loads(cli.ok("resolve", "g", "--yes", "--json").output)
    assert res["out"] == ["馄饨"]
