"""Issue 21, item 3: the forms offer only what the rules allow, from the one answer to "what
may this seat do now" (bansha.choices): exact targets, exact counts (checkboxes where several
are chosen), choices for argument values, no form for a seat without a usable skill, no
preselected vote. The engine still checks everything (a forged value is its one-line refusal)."""

from __future__ import annotations

import html
import re

from bansha.choices import seat_choices, vote_choices
from bansha.model import PlayerSetup, Setup
from bansha.registry import find_manifest
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
    from bansha.store import open_store
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
        hidden = {ch.skill: ch for ch in seat_choices(g, "乙")}
        for ch in hidden.values():
            for k in ("camp", "role"):
                if k in ch.args:
                    assert ch.args[k], (ch.skill, k)  # a closed set, offered as a select
    store.close()
