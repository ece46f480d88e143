"""Issue 21, item 3: the forms offer only what the rules allow, from the one answer to "what
may this seat do now" (bansha.engine.choices): exact targets, exact counts (checkboxes where several
are chosen), choices for argument values, no form for a seat without a usable skill, no
preselected vote. The engine still checks everything (a forged value is its one-line refusal)."""

from __future__ import annotations

import html
import re

from bansha.engine.choices import seat_choices, vote_choices
from bansha.engine.model import PlayerSetup, Setup
from bansha.engine.registry import find_manifest
from webhelpers import csrf_of, to_night


def forms_of(page: str) -> dict[str, dict]:
    """Each skill form of a player's page: its targets (select options or checkboxes), whether
    they are checkboxes, and each argument's offered values (None: a text field)."""
    out = {}
    for form in re.findall(r'<form method="post" action="[^"]*/act".*?</form>', page, re.S):
        skill = html.unescape(re.search(r'name="skill" value="([^"]*)"', form).group(1))
        boxes = [html.unescape(v) for v in re.findall(r'type="checkbox" name="target" value="([^"]*)"', form)]
        sel = re.search(r'<select name="target"[^>]*>(.*?)</select>', form, re.S)
        options = [html.unescape(t) for t in re.findall(r"<option>([^<]*)</option>", sel.group(1))] if sel else []
        args = {}
        for k, body in re.findall(r'<select name="arg_([^"]+)"[^>]*>(.*?)</select>', form, re.S):
            args[html.unescape(k)] = [html.unescape(t) for t in re.findall(r"<option>([^<]*)</option>", body)]
        for k in re.findall(r'<input name="arg_([^"]+)"', form):
            args[html.unescape(k)] = None
        out[skill] = {"targets": boxes or options, "boxes": bool(boxes), "args": args}
    return out


def test_every_form_is_what_the_seat_may_do_now(web):
    to_night(web.store)
    g = web.store.load("g1")
    c = web.client()
    for name in g.players:
        forms = forms_of(c.get(f"/p/{web.links['g1'][name]}").text)
        choices = {ch.skill: ch for ch in seat_choices(g, name)}
        assert set(forms) == set(choices), name  # a form for each usable skill, none other
        for skill, ch in choices.items():
            assert forms[skill]["targets"] == ch.targets, (name, skill)
            assert forms[skill]["boxes"] == (ch.max_targets > 1), (name, skill)
            assert forms[skill]["args"] == ch.args, (name, skill)
    page = lambda n: forms_of(c.get(f"/p/{web.links['g1'][n]}").text)  # noqa: E731
    # 黑侠: "不得自杀"; his partners are not offered either (kill_teammate_allowed = false)
    assert not {"黑一", "黑二", "黑三"} & set(page("黑一")["杀人"]["targets"])
    assert "光" not in page("光")["接收"]["targets"]
    assert all("幻" not in f["targets"] for f in page("幻").values())
    assert "杀人" not in page("青一")  # a neutral 青侠 has no kill to send
    assert page("士一") == {}  # 侠士: no skill, no form


def test_a_forged_choice_is_still_the_engines_refusal(web):
    to_night(web.store)
    c = web.client()
    base = f"/p/{web.links['g1']['黑一']}"
    r = c.post(base + "/act", data={"_csrf_token": csrf_of(c.get(base).text), "skill": "杀人", "target": "黑一"})
    assert r.status_code == 422 and web.store.load("g1").actions == []


def test_the_vote_form_is_vote_choices(web):
    g = web.store.load("g1")
    page = web.client().get(f"/p/{web.links['g1']['士一']}").text
    form = page[page.index('id="vote"'):]
    offered = [html.unescape(t) for t in re.findall(r"<option>([^<]*)</option>", form[:form.index("</select>")])]
    assert offered == vote_choices(g, "士一")


M217 = [("甲", "宗教老爷爷"), ("乙", "狼弟"), ("丙", "企鹅"), ("丁", "女巫"), ("戊", "灵鹿"), ("己", "摄梦人"),
        ("庚", "狼学者"), ("辛", "狼王"), ("壬", "预言家"), ("癸", "猎人"), ("子", "乌鸦"), ("丑", "熊"),
        ("寅", "小女孩"), ("卯", "粉丝")]


def test_m217_opening_counts_and_argument_values(tmp_path):
    """> 异端[开局]…（宗教老爷爷）: exactly the count the rule asks, as checkboxes, not 99 drop-downs;
    > 潜藏[开局][黄昏]<强制>——[常驻]：游戏开局，狼弟可以设置自己的全部表面伪装: camp and role are
    choices of the table's camps and roles, not free text."""
    from bansha.store.store import open_store
    from bansha_web.app import Throttle, create_app
    from bansha_web.tokens import Tokens
    from litestar.testing import TestClient

    m = find_manifest("m217")
    store = open_store(str(tmp_path / "m.db"))
    store.create("m", Setup(ruleset=m.id, manifest=m, players=[PlayerSetup(name=n, role=r) for n, r in M217], seed=1,
                            dealt_by="test"))
    links = Tokens(store).new_players("m", [n for n, _ in M217])
    g = store.load("m")
    with TestClient(create_app(store, Tokens(store), throttle=Throttle(limit=1000))) as c:
        for name in ("甲", "乙"):
            page = c.get(f"/p/{links[name]}").text
            forms = forms_of(page)
            for ch in seat_choices(g, name):
                assert forms[ch.skill]["targets"] == ch.targets and forms[ch.skill]["args"] == ch.args
                if ch.max_targets > 1:
                    assert forms[ch.skill]["boxes"] and page.count('name="target"') < 40
        heresy = forms_of(c.get(f"/p/{links['甲']}").text)["异端"]
        assert heresy["boxes"] and len(heresy["targets"]) == 13  # one checkbox a seat, no drop-downs
        hide = forms_of(c.get(f"/p/{links['乙']}").text)["潜藏"]
        assert "狼人阵营" in hide["args"]["camp"] and "村民阵营" in hide["args"]["camp"]
        assert "狼王" in hide["args"]["role"] and hide["args"]["armed"] == ["是", "否"]  # selects, not free text
    store.close()


def test_console_waiting_and_tally_are_the_engines(web):
    """未行动 counts only seats that may do something now; the tally is the count resolve makes.
    > 幻觉一：在任意一晚对除自己以外的2个人使用，使得此2人在接下来的白天的投票强制与幻侠一致（他们的实际投票无效）"""
    from bansha.engine.model import ActEvent, ResolveEvent, VoteEvent

    to_night(web.store)
    g = web.store.load("g1")
    c = web.client(login=True)
    page = c.get("/d/g/g1").text
    can = [n for n in g.players if seat_choices(g, n)]
    assert re.search(r'未行动 <span id="waiting-count">(\d+)</span>', page).group(1) == str(len(can))
    assert len(can) < 20  # 侠士 and the neutral 青侠 have nothing to send at night
    web.store.append("g1", ActEvent(phase="night 1", actor="幻", skill="幻觉一", targets=["士一", "士二"]))
    web.store.append("g1", ResolveEvent(phase="night 1"))
    for voter, target in [("幻", "黑一"), ("士一", "黑二"), ("士二", "黑二"), ("士三", "黑二")]:
        web.store.append("g1", lambda g, v=voter, t=target: VoteEvent(phase=g.label, voter=v, target=t))
    t = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html.unescape(c.get("/d/g/g1").text)))
    # 士一 and 士二 vote with 幻: 黑一 3, 黑二 1 — a plain count of ballots would say 黑二 3
    assert "黑一 3（幻、士一、士二）" in t and "黑二 1（士三）" in t, t[t.index("票数"):t.index("票数") + 200]


def test_a_status_not_told_removes_no_form_of_the_players_page(web):
    """A `no_cast` status the player was not told (docs/security.md: a page holds only what its
    reader may know) leaves their forms as they were: the form's absence would tell them; the
    director's console, which knows, offers nothing."""
    from bansha.engine.model import Status
    from bansha_web.logic import usable_skills

    to_night(web.store)
    g = web.store.load("g1")
    before = usable_skills(g, "赤")
    assert [s["name"] for s in before] == ["验人"]
    g.player("赤").statuses.append(Status(name="被阻止", told=False, data={"no_cast": True}))
    assert seat_choices(g, "赤") == []  # the engine's answer: 赤 cannot cast now
    assert [s["name"] for s in usable_skills(g, "赤")] == ["验人"]  # the page's: as if untold
    assert usable_skills(g, "赤", director=True) == []
    assert any(st.name == "被阻止" for st in g.player("赤").statuses)  # the game itself untouched
    g.player("赤").statuses[-1].told = True
    assert usable_skills(g, "赤") == []  # told: the form goes


def test_the_amend_form_offers_no_more_target_boxes_than_seats():
    """宗教老爷爷's 异端 declares up to 99 targets: the console's amend form had 99 drop-downs on a
    14-seat table. It offers at most one a seat; the engine's replay still checks the count."""
    from bansha.engine.engine import Game
    from bansha.engine.registry import ruleset_for
    from bansha_web.logic import amend_choices

    m = find_manifest("m217")
    cast = [(n, r) for n, r in M217]
    if all(r != "宗教老爷爷" for _, r in cast):
        cast[-1] = (cast[-1][0], "宗教老爷爷")
    rs = ruleset_for(m)
    g = Game(Setup(ruleset=m.id, manifest=m, players=[PlayerSetup(name=n, role=r) for n, r in cast], seed=1))
    assert max(s.max_targets or 0 for r in rs.roles.values() for s in r.skills) >= 99  # the declared range
    assert amend_choices(g)["max_targets"] == len(cast) == 14


def test_reflect_is_a_choice_of_the_group_that_may_be_left_out(web):
    """> 龙侠反弹杀人时被反弹的黑侠（未明确指定则反弹发送者）: the 黑侠's 杀人 form offers the group's
    living members as a select, which may be left as it is (not a required field, not free
    text); sent as it is, the action is the sender's own."""
    to_night(web.store)
    g = web.store.load("g1")
    blacks = [n for n, p in g.players.items() if "黑侠" in p.groups and p.alive]
    c = web.client()
    page = c.get(f"/p/{web.links['g1'][blacks[0]]}").text
    assert forms_of(page)["杀人"]["args"]["reflect"] == blacks
    assert '<select name="arg_reflect">' in page and "（不指定）" in page
    target = next(n for n in g.players if n not in blacks)
    r = c.post(f"/p/{web.links['g1'][blacks[0]]}/act",
               data={"_csrf_token": csrf_of(page), "skill": "杀人", "target": target, "arg_reflect": ""})
    assert r.status_code == 200, r.text
    assert [(a.actor, a.targets, a.args) for a in web.store.load("g1").actions if a.skill == "杀人"] == [(blacks[0], [target], {})]
