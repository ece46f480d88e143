"""Route tests of `bansha serve` with Litestar's test client: the player's page is the
player's view, submissions go through the engine (its refusal shown as one line), the director's
console shows the table, who acted, the tally, previews on a copy and resolves."""

from __future__ import annotations

import html
import re

from bansha.show.views import player_view
from webhelpers import NIGHT1, SEATS, csrf_of, to_night


def text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def test_player_page_is_the_players_view(web):
    c = web.client()
    r = c.get(f"/p/{web.links['g1']['赤']}")
    assert r.status_code == 200
    assert r.headers["content-type"].startswith("text/html")
    t = text(r.text)
    assert "赤侠" in t and "光明" in t and "验人" not in t  # day 1: no night skill offered
    assert "投票" in t and "第1天 白天" in t and "day 1" not in t
    view = player_view(web.store.load("g1"), "赤")
    for p in view["players"]:
        assert p["name"] in t


def test_player_submits_and_withdraws_a_night_action(web):
    to_night(web.store)
    c = web.client()
    base = f"/p/{web.links['g1']['赤']}"
    page = c.get(base).text
    assert "提交验人" in page
    r = c.post(base + "/act", data={"_csrf_token": csrf_of(page), "skill": "验人", "target": "黑二"})
    assert r.status_code == 200, r.text
    assert "已提交：验人 黑二" in r.text
    g = web.store.load("g1")
    assert [(a.actor, a.skill, a.targets) for a in g.actions] == [("赤", "验人", ["黑二"])]
    r = c.post(base + "/unact", data={"_csrf_token": csrf_of(r.text), "skill": "验人"})
    assert r.status_code == 200 and "已撤回：验人" in r.text
    assert web.store.load("g1").actions == []


def test_a_refused_submission_shows_the_engines_line_and_stores_nothing(web):
    to_night(web.store)
    c = web.client()
    base = f"/p/{web.links['g1']['赤']}"
    page = c.get(base).text
    before = web.store.last_seq("g1")
    r = c.post(base + "/act", data={"_csrf_token": csrf_of(page), "skill": "验人", "target": "无此人"})
    assert r.status_code == 422
    assert "没有玩家 无此人" in html.unescape(r.text)
    assert "Traceback" not in r.text
    assert web.store.last_seq("g1") == before


def test_player_votes_and_changes_the_vote(web):
    c = web.client()
    base = f"/p/{web.links['g1']['士一']}"
    r = c.post(base + "/vote", data={"_csrf_token": csrf_of(c.get(base).text), "target": "黑一"})
    assert r.status_code == 200 and "已投票：黑一" in r.text
    r = c.post(base + "/vote", data={"_csrf_token": csrf_of(r.text), "target": "黑二"})
    assert r.status_code in (200, 422)
    ballots = [(b.voter, b.target) for b in web.store.load("g1").ballots]
    assert ballots[0] == ("士一", "黑一")


def test_htmx_request_gets_the_fragment_only(web):
    to_night(web.store)
    c = web.client()
    base = f"/p/{web.links['g1']['赤']}"
    r = c.post(base + "/act", data={"_csrf_token": csrf_of(c.get(base).text), "skill": "验人", "target": "黑二"},
               headers={"HX-Request": "true"})
    assert r.status_code == 200 and "<html" not in r.text and "已提交" in r.text


def test_console_lists_games_and_shows_the_table(web):
    c = web.client(login=True)
    r = c.get("/d")
    assert r.status_code == 200 and "g1" in r.text and "g2" in r.text
    t = text(c.get("/d/g/g1").text)
    for n, role in [("黑一", "黑侠"), ("龙", "龙侠"), ("青五", "青侠")]:
        assert n in t and role in t
    assert "未行动 20" in t or "未行动" in t


def test_console_creates_a_game_and_shows_each_link_once(web):
    c = web.client(login=True)
    page = c.get("/d").text
    roster = "\n".join(n for n, _ in SEATS)
    r = c.post("/d/new", data={"_csrf_token": csrf_of(page), "name": "g3", "ruleset": "qisha-xia", "roster": roster, "seed": "5"})
    assert r.status_code == 200, r.text
    links = re.findall(r'value="[^"]*/p/([A-Za-z0-9_-]+)"', r.text)
    assert len(links) == 20
    assert web.tokens.player(links[0])[0] == "g3"
    assert "g3" in web.store.names()
    # a second look at the console shows no link (only hashes are kept)
    assert not re.findall(r"/p/[A-Za-z0-9_-]{40,}", c.get("/d/g/g3").text)


def test_bad_new_game_is_one_line(web):
    c = web.client(login=True)
    page = c.get("/d").text
    r = c.post("/d/new", data={"_csrf_token": csrf_of(page), "name": "g4", "ruleset": "qisha-xia", "roster": "甲\n乙", "seed": "x"})
    assert r.status_code == 422 and "应为整数" in r.text and "Traceback" not in r.text
    r = c.post("/d/new", data={"_csrf_token": csrf_of(page), "name": "g4", "ruleset": "nope", "roster": "甲\n乙", "seed": "1"})
    assert r.status_code == 422 and 'class="error"' in r.text and "g4" not in web.store.names()


def test_director_acts_for_anyone_previews_then_resolves(web):
    to_night(web.store)
    c = web.client(login=True)
    page = c.get("/d/g/g1").text
    assert "验人" in page  # 赤侠's legal skill offered
    for actor, skill, targets in NIGHT1:
        r = c.post("/d/g/g1/act", data={"_csrf_token": csrf_of(page), "player": actor, "skill": skill, "target": targets})
        assert r.status_code == 200, r.text
        page = r.text
    assert "已行动 6" in text(page)
    seq = web.store.last_seq("g1")
    r = c.post("/d/g/g1/preview", data={"_csrf_token": csrf_of(page)})
    assert r.status_code == 200
    assert "预览：第1天 夜晚" in r.text and "士一出局，身份是侠士。" in r.text and "黑二是黑侠。" in r.text
    assert " is out" not in r.text and " on 士一" not in r.text  # the preview's trace in the board's words
    assert web.store.last_seq("g1") == seq and web.store.load("g1").label == "night 1"  # nothing stored
    r = c.post("/d/g/g1/resolve", data={"_csrf_token": csrf_of(r.text), "phase": "night 1"})
    assert r.status_code == 200 and "已结算第1天 夜晚" in r.text
    g = web.store.load("g1")
    assert g.label == "day 2" and not g.player("士一").alive
    # each player's page shows exactly that player's feedback
    for name, line in [("赤", "黑二是黑侠。"), ("银", "你学会了阻止。"), ("青一", "你被白侠吸收，成为白侠。")]:
        t = c.get(f"/p/{web.links['g1'][name]}").text
        assert line in t
    assert "黑二是黑侠。" not in c.get(f"/p/{web.links['g1']['银']}").text


def test_resolve_of_a_phase_already_closed_is_refused(web):
    c = web.client(login=True)
    page = c.get("/d/g/g1").text
    r = c.post("/d/g/g1/resolve", data={"_csrf_token": csrf_of(page), "phase": "day 1"})
    assert r.status_code == 200
    r = c.post("/d/g/g1/resolve", data={"_csrf_token": csrf_of(page), "phase": "day 1"})  # a double click
    assert r.status_code == 422 and "没有结算任何阶段" in r.text
    assert web.store.load("g1").label == "night 1"


def test_director_vote_tally_undo_and_new_link(web):
    c = web.client(login=True)
    page = c.get("/d/g/g1").text
    for voter in ["士一", "士二"]:
        page = c.post("/d/g/g1/vote", data={"_csrf_token": csrf_of(page), "player": voter, "target": "黑一"}).text
    assert "黑一 2（士一、士二）" in text(page)
    # undo names what it removes and asks; nothing is removed until confirmed
    page = c.post("/d/g/g1/undo", data={"_csrf_token": csrf_of(page)}).text
    assert "将撤销最后一个事件 #2：第1天 白天：士二 投 黑一（代投）" in text(page)
    assert web.store.last_seq("g1") == 2
    # a player's vote arrives meanwhile: the confirmation of #2 removes nothing
    web.store.append("g1", lambda g: __import__("bansha.engine.model").engine.model.VoteEvent(phase=g.label, voter="士三", target="黑一"))
    r = c.post("/d/g/g1/undo", data={"_csrf_token": csrf_of(page), "seq": "2"})
    assert r.status_code == 422 and "最后一个事件已经变了" in r.text and web.store.last_seq("g1") == 3
    page = c.post("/d/g/g1/undo", data={"_csrf_token": csrf_of(page), "seq": "3"}).text
    assert "已撤销：#3 第1天 白天：士三 投 黑一" in text(page)
    page = c.post("/d/g/g1/undo", data={"_csrf_token": csrf_of(page), "seq": "2"}).text
    assert "黑一 1（士一）" in text(page)
    old = web.links["g1"]["龙"]
    r = c.post("/d/g/g1/link", data={"_csrf_token": csrf_of(page), "player": "龙"})
    new = re.findall(r'/p/([A-Za-z0-9_-]{40,})', r.text)
    assert len(set(new)) == 1 and new[0] != old  # the link, the "copy all" text and the PM sheet
    assert f"http://testserver.local/p/{new[0]}" in r.text  # with the host: a link to paste as it is
    assert c.get(f"/p/{old}").status_code == 404
    assert c.get(f"/p/{new[0]}").status_code == 200


def test_console_trace_posts_and_pms(web):
    to_night(web.store)
    from bansha.engine.model import ActEvent, ResolveEvent

    for actor, skill, targets in NIGHT1:
        web.store.append("g1", ActEvent(phase="night 1", actor=actor, skill=skill, targets=targets))
    web.store.append("g1", ResolveEvent(phase="night 1"))
    c = web.client(login=True)
    t = c.get("/d/g/g1").text
    assert "裁定记录" in t and "士一出局，身份是侠士。" in t and "data-copy-button" in t
    assert "黑二是黑侠。" in t  # 赤's PM
    # the ruling trace in the board's words, as `bansha log --explain` says it (explain.trace_lines)
    assert "士一出局" in t and " is out" not in t and " on 士一" not in t and "[kill]" not in t


def test_unknown_game_and_bad_input_are_pages_not_tracebacks(web):
    c = web.client(login=True)
    r = c.get("/d/g/nope")
    assert r.status_code == 404 and "nope" in r.text and "Traceback" not in r.text
    page = c.get("/d/g/g1").text
    r = c.post("/d/g/g1/act", data={"_csrf_token": csrf_of(page), "player": "无此人", "skill": "x"})
    assert r.status_code == 422 and "没有玩家" in r.text
    r = c.post("/d/g/g1/act", data={"_csrf_token": csrf_of(page), "player": "赤", "skill": "验人", "target": "黑二", "arg_x": "1"})
    assert r.status_code == 422 and "Traceback" not in r.text


def test_serve_command_is_registered(tmp_path):
    import subprocess

    out = subprocess.run(["bansha", "serve", "--help"], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0 and "--port" in out.stdout


def test_serve_with_a_bad_store_is_one_line(tmp_path):
    import subprocess

    out = subprocess.run(["bansha", "serve", "--db", str(tmp_path)], capture_output=True, text=True, timeout=60)
    assert out.returncode == 2
    assert out.stderr.startswith("错误：") and len(out.stderr.strip().splitlines()) == 1
    assert "Traceback" not in out.stderr
