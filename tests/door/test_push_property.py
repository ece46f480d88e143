"""The state space of push: a seeded simulated game of every shipped board, each seat bound to a
uid, pushed through the stand-in after every phase it resolves, with the forum failing at a
random write (the connection dropped before the forum takes it, or after it took it and before
it answers), then pushed again: every message of every phase on the forum exactly once, each PM
at the uid bound to its player's seat and holding that player's block of ``bansha pm`` and
nothing else, the outbox holding each one's id."""

from __future__ import annotations

import random

import pytest
from bansha.engine.history import replay
from bansha.engine.model import GameError, ResolveEvent
from bansha.store.store import open_store
from bansha_sim.play import play_game
from clirun import quiet
from forumserver import DiscuzStandIn, discuz_site

BOARDS = [("mafia-basic", 7, 3), ("light-shadow", 12, 5), ("qisha-xia", 20, 2), ("m217", 14, 4)]


@pytest.mark.parametrize("ruleset,seats,seed", BOARDS)
def test_every_phase_of_a_simulated_game_is_pushed_once_to_the_bound_uids(tmp_path, ruleset, seats, seed):
    from bansha.engine.board import load_board
    from bansha_forum import posts
    from bansha_forum.door import push as pushing
    from bansha_forum.door.discuz import Discuz
    from bansha_forum.door.link import Link, save_link

    r = play_game(ruleset, seats, seed, "random", keep=True, day_limit=6)
    setup = r["setup"]
    uid = {}
    for i, ps in enumerate(setup.players, start=1):
        ps.uid = uid[ps.name] = str(2000 + i)
    store = open_store(tmp_path / "g.db", logger=quiet)
    store.create("g", setup)
    site = DiscuzStandIn()
    site.add_user(1, "导演")
    for ps in setup.players:
        site.add_user(int(uid[ps.name]), ps.name)
    site.new_thread(77, 1, "主帖", "游戏主帖")
    cookies = tmp_path / "cookies.txt"
    cookies.write_text(site.login_cookie(1), encoding="utf-8")
    rng = random.Random(f"{ruleset}/{seed}")
    phases = 0
    with discuz_site(site) as base:
        link = Link(site=base, cookies=str(cookies), thread="77", uid="1", username="导演", interval=0)
        save_link(store, "g", link)
        for ev in r["events"]:
            store.append("g", ev)
            if not isinstance(ev, ResolveEvent) or ev.window:
                continue
            phases += 1
            g, label, msgs, skipped = pushing.plan(store, "g", link)
            assert not skipped  # every seat bound
            # the forum fails once at a random write of this push
            writes = sum(1 for m in msgs)
            at, when = rng.randint(1, writes + 1), rng.choice(["before", "after"])
            seen = []

            def fail(n, module, w, at=at, when=when, seen=seen):
                if module in ("sendreply", "sendpm") and w == "before":
                    seen.append(n)
                return len(seen) == at and w == when

            site.hook = fail
            forum = Discuz(base, str(cookies))
            try:
                pushing.send(store, "g", link, forum, msgs, g.lang, lambda s: None)
            except GameError:
                pass
            finally:
                forum.close()
                site.hook = None
            forum = Discuz(base, str(cookies))
            try:
                pushing.send(store, "g", link, forum, pushing.plan(store, "g", link)[2], g.lang, lambda s: None)
            finally:
                forum.close()
            # every message once, each PM at its bound uid with its player's block only
            on_forum = [p["message"] for p in site.threads[77]["posts"]] + [p["message"] for p in site.pms]
            rows = store.outbox("g")
            for row in rows:
                m = pushing.Message.of(row.message)
                assert row.state == "sent" and row.remote
                assert sum(m.token in text for text in on_forum) == 1, (ruleset, row.key)
            g2, told = replay(store.setup("g"), store.events("g"))
            board = load_board(g2.manifest.id, None, lang=g2.lang)
            for b in posts.pms(g2, board, label, told):
                key = f"pm:{label}:{b['seat']}"
                sent = next(p for p in site.pms if pushing.token_of("g", key) in p["message"])
                assert str(sent["msgtoid"]) == uid[b["player"]], (ruleset, key)
                text = sent["message"]
                for line in b["lines"]:
                    assert DiscuzStandIn._html(line) in text
                others = {n for n in uid if n != b["player"]}
                for other in posts.pms(g2, board, label, told):
                    if other["player"] in others:
                        for line in other["lines"]:
                            if line not in b["lines"]:
                                assert DiscuzStandIn._html(line) not in text, (ruleset, key, line)
    assert phases >= 2
    assert sum("〔编号 " in p["message"] for p in site.pms) + sum("〔编号 " in p["message"] for p in site.threads[77]["posts"]) == len(store.outbox("g"))
