"""The console's director tools beyond acting and resolving: amend a closed phase with its
diff (the CLI's `bansha amend` code), rulings of the ruleset's kinds, a deadline every server
process shows, new games with house rules or from a deal file; the tokens in the store.
Each form is also tried with a player's token and without the director's cookie."""

from __future__ import annotations

import html
import json
import re
import subprocess
import sys

from bansha.engine.history import named_diff
from bansha.engine.model import ActEvent, AmendEvent, ResolveEvent, RulingEvent, VoteEvent
from webhelpers import SEATS, csrf_of, to_night


def text(page: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", page))


def options_of(page: str, select_name: str, form_id: str | None = None) -> list[str]:
    """The values a <select> offers (inside the form ``form_id`` when given)."""
    if form_id:
        page = page[page.index(f'id="{form_id}"'):]
        page = page[:page.index("</form>")]
    m = re.search(rf'<select name="{select_name}"[^>]*>(.*?)</select>', page, re.S)
    assert m, select_name
    return [html.unescape(v if v is not None else t) for v, t in
            ((re.search(r'value="([^"]*)"', o).group(1) if 'value="' in o else None, t)
             for o, t in re.findall(r"<option([^>]*)>([^<]*)</option>", m.group(1)))]


def night_one_kill(store):
    """Night 1: only 黑二 kills 士一, resolved; day 2 now."""
    to_night(store)
    store.append("g1", lambda g: ActEvent(phase=g.label, actor="黑二", skill="杀人", targets=["士一"]))
    store.append("g1", lambda g: ResolveEvent(phase=g.label))
    assert not store.load("g1").player("士一").alive


def cli_json(db: str, *args) -> dict:
    out = subprocess.run([sys.executable, "-m", "bansha.cli.cli", *args, "--db", db, "--json"], capture_output=True,
                         text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)


# ---------------------------------------------------------------------------- amend

def test_amend_shows_the_clis_diff_then_writes_it_on_confirm(web):
    night_one_kill(web.store)
    c = web.client(login=True)
    page = c.get("/d/g/g1").text
    assert options_of(page, "phase", "amend-form") == ["night 1", "day 1"]  # values; shown as the board names them
    assert "第1天 夜晚" in page[page.index('id="amend-form"'):]  # closed phases only, latest first
    assert "白\t救治" in options_of(page, "act", "amend-form")
    seq = web.store.last_seq("g1")
    form = {"_csrf_token": csrf_of(page), "phase": "night 1", "kind": "act", "act": "白\t救治", "target": ["士一", ""]}
    r = c.post("/d/g/g1/amend", data=form)
    assert r.status_code == 200, r.text
    assert "修正预览：第1天 夜晚 · 白 救治 士一" in text(r.text)
    assert web.store.last_seq("g1") == seq  # a preview stores nothing
    # the same diff as the CLI's `bansha amend … --json` (a real process, nothing written)
    cli = cli_json(str(web.tmp / "games.db"), "amend", "g1", "act", "白", "救治", "士一", "--phase", "night 1")
    diff = cli["changes"]
    assert cli["written"] is False and diff["alive"] == {"士一": {"was": False, "now": True}}
    shown = html.unescape(r.text)
    # its lines with their phases as the board names them, as `bansha amend` prints them
    named = named_diff(diff, web.store.load("g1").named)
    assert named != diff and not re.search(r"\b(night|day) \d", text(r.text))
    for name, d in named["feedback"].items():
        for line in d["removed"]:
            assert f"[{name}] − {line}" in shown
        for line in d["added"]:
            assert f"[{name}] + {line}" in shown
    for line in named["announcement"]["removed"]:
        assert f"（公告）− {line}" in shown
    assert "存活：士一 出局 → 存活" in text(r.text)
    # confirm: the form the preview offers, posted back
    r2 = c.post("/d/g/g1/amend", data={**form, "_csrf_token": csrf_of(r.text), "confirm": "1"})
    assert r2.status_code == 200 and "已写入修正（第1天 夜晚）" in r2.text
    last = web.store.events("g1")[-1]
    assert isinstance(last, AmendEvent) and last.record == diff and last.event.actor == "白"
    assert web.store.load("g1").player("士一").alive


def test_a_refused_amendment_is_the_engines_line_and_stores_nothing(web):
    night_one_kill(web.store)
    c = web.client(login=True)
    page = c.get("/d/g/g1").text
    seq = web.store.last_seq("g1")
    # 赤 has no 杀人; a phase that is not closed; a kind that is not offered
    for form in ({"phase": "night 1", "kind": "act", "act": "赤\t杀人", "target": "黑二", "confirm": "1"},
                 {"phase": "night 2", "kind": "act", "act": "赤\t验人", "target": "黑二", "confirm": "1"},
                 {"phase": "night 1", "kind": "drop", "confirm": "1"}):
        r = c.post("/d/g/g1/amend", data={"_csrf_token": csrf_of(page), **form})
        assert r.status_code == 422, form
        assert 'class="error"' in r.text and "Traceback" not in r.text
        assert len(re.findall(r'class="error"[^>]*>([^<]*)<', r.text)) == 1
    assert web.store.last_seq("g1") == seq


# --------------------------------------------------------------------------- rulings

def test_rulings_offer_the_rulesets_kinds_and_are_stored_escaped(web):
    c = web.client(login=True)
    page = c.get("/d/g/g1").text
    kinds = options_of(page, "kind", "ruling-form")
    assert kinds == list(web.store.load("g1").ruleset.ruling_kinds)
    # the same list as `bansha rulings qisha-xia --json`
    out = subprocess.run([sys.executable, "-m", "bansha.cli.cli", "rulings", "qisha-xia", "--json"], capture_output=True,
                         text=True, timeout=60)
    assert list(json.loads(out.stdout)) == kinds
    evil = "<script>alert(1)</script>"
    r = c.post("/d/g/g1/ruling", data={"_csrf_token": csrf_of(page), "kind": "announce", "text": evil})
    assert r.status_code == 200 and "已记录裁定 公告" in r.text
    assert evil not in r.text and html.escape(evil) in r.text
    ev = web.store.events("g1")[-1]
    assert isinstance(ev, RulingEvent) and ev.kind == "announce" and ev.text == evil
    # a player's page shows the announcement, escaped too
    p = c.get(f"/p/{web.links['g1']['赤']}").text
    assert html.escape(evil) in p and evil not in p
    # a disqualification through the form: the player is out
    r = c.post("/d/g/g1/ruling", data={"_csrf_token": csrf_of(r.text), "kind": "remove", "player": "青五", "text": "违规"})
    assert r.status_code == 200, r.text
    assert not web.store.load("g1").player("青五").alive


def test_a_ruling_kind_not_offered_is_refused_and_stores_nothing(web):
    c = web.client(login=True)
    page = c.get("/d/g/g1").text
    seq = web.store.last_seq("g1")
    for form in ({"kind": "bogus"}, {"kind": "remove", "player": "nobody"}, {"kind": "announce", "data": "no-equals"}):
        r = c.post("/d/g/g1/ruling", data={"_csrf_token": csrf_of(page), **form})
        assert r.status_code == 422 and 'class="error"' in r.text, form
    assert web.store.last_seq("g1") == seq


# -------------------------------------------------------------------------- deadline

def test_a_deadline_is_shown_on_the_console_and_every_players_page_by_every_process(web):
    from bansha.store.store import open_store
    from bansha_web.app import Throttle, create_app
    from bansha_web.tokens import Tokens
    from litestar.testing import TestClient

    c = web.client(login=True)
    page = c.get("/d/g/g1").text
    assert "截止：（未设定）" in text(page)
    r = c.post("/d/g/g1/deadline", data={"_csrf_token": csrf_of(page), "at": "2026-12-02T22:00"})
    assert r.status_code == 200 and "截止：2026-12-02 22:00" in text(r.text)
    assert "截止：2026-12-02 22:00" in text(c.get(f"/p/{web.links['g1']['赤']}").text)
    # a second server on the same store (another process) shows it too, to the same links
    other = open_store(str(web.tmp / "games.db"))
    with TestClient(create_app(other, Tokens(other), throttle=Throttle(limit=1000))) as c2:
        assert "截止：2026-12-02 22:00" in text(c2.get(f"/p/{web.links['g1']['龙']}").text)
    other.close()
    # resolving the phase lapses it; a bad time is refused with one line
    to_night(web.store)
    assert "截止：" not in text(c.get(f"/p/{web.links['g1']['赤']}").text)
    r = c.post("/d/g/g1/deadline", data={"_csrf_token": csrf_of(page), "at": "tomorrow"})
    assert r.status_code == 422 and "YYYY-MM-DD HH:MM" in r.text


# -------------------------------------------------------------------------- new games

def test_a_new_game_with_house_rules_from_the_option_types(web):
    c = web.client(login=True)
    page = c.get("/d").text
    # the fields come from [option_types]: a bool offers true/false, a choice its values
    assert options_of(page, "opt_qisha-xia_kill_teammate_allowed") == ["true", "false"]
    assert options_of(page, "opt_qisha-xia_block_order") == ["暗侠-first", "submission"]
    assert 'name="opt_mafia-basic_mafia" value="0" min="0" max="19"' in page
    roster = "\n".join(n for n, _ in SEATS)
    base = {"_csrf_token": csrf_of(page), "ruleset": "qisha-xia", "roster": roster, "seed": "3",
            "opt_qisha-xia_kill_teammate_allowed": "true", "opt_qisha-xia_block_order": "暗侠-first",
            "opt_qisha-xia_start_time": "2026-12-01 20:00"}
    r = c.post("/d/new", data={**base, "name": "house"})
    assert r.status_code == 200, r.text
    # only the rules changed from their defaults are stored, as `--option` would store them
    assert web.store.setup("house").options == {"kill_teammate_allowed": True, "start_time": "2026-12-01 20:00"}
    assert web.store.load("house").options["kill_teammate_allowed"] is True
    # a value the type refuses: one line (check_options'), nothing created
    r = c.post("/d/new", data={**base, "name": "bad", "opt_qisha-xia_block_order": "random"})
    assert r.status_code == 422 and "block_order" in r.text and "bad" not in web.store.names()
    r = c.post("/d/new", data={**base, "name": "bad", "ruleset": "mafia-basic", "opt_mafia-basic_mafia": "99"})
    assert r.status_code == 422 and "mafia" in text(r.text) and "bad" not in web.store.names()


def test_a_new_game_from_a_deal_file_uploaded_or_pasted(web):
    c = web.client(login=True)
    page = c.get("/d").text
    deal = "".join(f'[[players]]\nname = "{n}"\nrole = "{r}"\n' for n, r in SEATS)
    r = c.post("/d/new", data={"_csrf_token": csrf_of(page), "name": "dealt", "ruleset": "qisha-xia", "seed": "0"},
               files={"deal": ("deal.toml", deal.encode(), "text/plain")})
    assert r.status_code == 200, r.text
    g = web.store.load("dealt")
    assert [(p.name, p.role) for p in sorted(g.players.values(), key=lambda p: p.seat)] == SEATS
    assert web.store.setup("dealt").dealt_by == "发牌文件"
    r = c.post("/d/new", data={"_csrf_token": csrf_of(page), "name": "pasted", "ruleset": "qisha-xia",
                               "deal_text": deal})
    assert r.status_code == 200 and "pasted" in web.store.names()
    # a deal naming a role the ruleset does not have: one line naming the key, nothing created
    bad = deal.replace('role = "龙侠"', 'role = "火侠"')
    r = c.post("/d/new", data={"_csrf_token": csrf_of(page), "name": "baddeal", "ruleset": "qisha-xia", "deal_text": bad})
    assert r.status_code == 422 and "players[9]" in r.text and "baddeal" not in web.store.names()


# ------------------------------------------------------------------ the tokens' home

def test_tokens_live_in_the_store_so_a_second_server_process_shares_them(web):
    from bansha.store.store import open_store
    from bansha_web.app import Throttle, create_app
    from bansha_web.tokens import Tokens
    from litestar.testing import TestClient

    other = open_store(str(web.tmp / "games.db"))
    with TestClient(create_app(other, Tokens(other), throttle=Throttle(limit=1000))) as c2:
        old = web.links["g1"]["赤"]
        assert c2.get(f"/p/{old}").status_code == 200
        assert c2.get(f"/login/{web.director}").status_code == 200  # the director's link too
        c = web.client(login=True)
        page = c.get("/d/g/g1").text
        r = c.post("/d/g/g1/link", data={"_csrf_token": csrf_of(page), "player": "赤"})
        new = re.search(r"/p/([A-Za-z0-9_-]{40,})", r.text).group(1)
        assert c2.get(f"/p/{old}").status_code == 404  # revoked in one process, refused by the other
        assert c2.get(f"/p/{new}").status_code == 200
    other.close()


# ------------------------------------------------------------------------- attacks

NEW_FORMS = [("/d/g/g1/amend", {"phase": "day 1", "kind": "vote", "voter": "赤", "vote_target": "黑一", "confirm": "1"}),
             ("/d/g/g1/ruling", {"kind": "announce", "text": "x"}),
             ("/d/g/g1/deadline", {"at": "2026-12-02 22:00"}),
             ("/d/new", {"name": "x", "ruleset": "qisha-xia", "roster": "\n".join(n for n, _ in SEATS)})]


def test_a_players_token_and_csrf_cannot_reach_the_new_director_forms(web):
    to_night(web.store)
    seq, names = web.store.last_seq("g1"), web.store.names()
    player = web.client()
    tok = web.links["g1"]["赤"]
    csrf = csrf_of(player.get(f"/p/{tok}").text)  # a valid CSRF token of the player's own session
    for path, form in NEW_FORMS:
        r = player.post(path, data={"_csrf_token": csrf, **form})
        assert r.status_code == 403, path
        # the player's token as a cookie, a field or a header names no director
        player.cookies.set("bansha_director", tok)
        r = player.post(path, data={"_csrf_token": csrf, "token": tok, **form}, headers={"Authorization": f"Bearer {tok}"})
        assert r.status_code == 403, path
        player.cookies.delete("bansha_director")
        # and under the player's own prefix these forms do not exist
        assert player.post(f"/p/{tok}/{path.rsplit('/', 1)[1]}", data={"_csrf_token": csrf, **form}).status_code in (404, 405)
    assert web.store.last_seq("g1") == seq and web.store.names() == names
    assert web.store.get_meta(["web.deadline.g1"]) == {}


def test_the_new_director_forms_need_csrf_and_post(web):
    c = web.client(login=True)
    page = c.get("/d/g/g1").text
    seq = web.store.last_seq("g1")
    for path, form in NEW_FORMS:
        assert c.post(path, data=form).status_code == 403, path  # no CSRF token
        assert c.post(path, data={"_csrf_token": csrf_of(page) + "x", **form}).status_code == 403, path
        assert c.get(path, params=form).status_code in (404, 405), path  # a GET changes nothing
    assert web.store.last_seq("g1") == seq and web.store.get_meta(["web.deadline.g1"]) == {}


def test_pages_render_from_the_cached_state_without_changing_it(web):
    """Every page renders from Store.peek's shared state: none may change it."""
    import msgspec

    def state(g):
        return msgspec.to_builtins({"players": list(g.players.values()), "actions": g.actions, "ballots": g.ballots,
                                    "feedback": g.feedback, "announcements": g.announcements, "data": g.data,
                                    "label": g.label, "uses": [p.uses for p in g.players.values()]})

    night_one_kill(web.store)
    web.store.append("g1", lambda g: VoteEvent(phase=g.label, voter="赤", target="黑二"))
    shared = web.store.peek("g1")
    before = state(shared)
    c = web.client(login=True)
    page = c.get("/d/g/g1").text
    for name in web.links["g1"]:
        assert c.get(f"/p/{web.links['g1'][name]}").status_code == 200
        assert c.get(f"/p/{web.links['g1'][name]}/view").status_code == 200
    assert web.store.peek("g1") is shared  # nothing was written: still the same object, never copied
    assert c.post("/d/g/g1/preview", data={"_csrf_token": csrf_of(page)}).status_code == 200
    assert c.post("/d/g/g1/amend", data={"_csrf_token": csrf_of(page), "phase": "night 1", "kind": "act",
                                         "act": "白\t救治", "target": "士一"}).status_code == 200
    assert state(shared) == before
    assert state(shared) == state(web.store.load("g1"))  # and equal to what the log replays to


def test_the_cached_state_after_every_write_is_what_the_log_replays_to(web):
    """Each write copies the cached state (engine.copies.copy_game shares the history and copies the
    players, their statuses, actions and ballots field by field): after every event of two
    played days the copy chain equals a fresh replay, statuses and uses included."""
    import msgspec
    from bansha.engine.model import VoteEvent
    from bansha.store.store import open_store
    from webhelpers import NIGHT1

    def state(g):
        return msgspec.to_builtins({"players": list(g.players.values()), "actions": g.actions, "ballots": g.ballots,
                                    "feedback": g.feedback, "announcements": g.announcements, "data": g.data,
                                    "label": g.label, "out": g.out, "last_use": list(g.last_use.items())})

    replay = open_store(str(web.tmp / "games.db"), cache=False)
    steps = [lambda g: VoteEvent(phase=g.label, voter="赤", target="黑一"),
             lambda g: VoteEvent(phase=g.label, voter="龙", target="黑一"), lambda g: ResolveEvent(phase=g.label)]
    steps += [lambda g, a=a, s=s, t=t: ActEvent(phase=g.label, actor=a, skill=s, targets=t) for a, s, t in NIGHT1]
    steps += [lambda g: ResolveEvent(phase=g.label), lambda g: VoteEvent(phase=g.label, voter="赤", target="黑二"),
              lambda g: ResolveEvent(phase=g.label)]
    first = state(web.store.peek("g1"))
    kept = []
    for step in steps:
        g, _ = web.store.append("g1", step, shared=True)
        assert state(g) == state(replay.load("g1"))
        kept.append((g, state(g)))
    # and no later write changed a state handed out before (each write worked on its own copy)
    assert all(state(old) == snap for old, snap in kept)
    # the players' records did change on the way (uses spent, someone out): compared, not idle
    assert state(g)["players"] != first["players"] and not all(p.alive for p in g.players.values())
    assert [p["uses"] for p in state(g)["players"]] != [p["uses"] for p in first["players"]]
    replay.close()
