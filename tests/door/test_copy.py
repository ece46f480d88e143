"""``bansha db copy`` of a game linked to its forum: the copy carries the outbox (each message's
state and where it went), the link and the PMs already pulled, so that pushing and pulling from
the copy sends nothing again and records nothing twice. Before, the copy held the events alone:
its push planned every message again (found on the forum only by reading it back) and its pull
proposed every PM again."""

from __future__ import annotations

import json

import pytest
from bansha.store.store import open_store
from clirun import run_main
from forumserver import discuz_site

from .game import DIRECTOR, TID, bansha, link, new_game, play, site_with_players, uid_of


@pytest.fixture(params=["sqlite", "postgresql"])
def dst(request, tmp_path):
    if request.param == "sqlite":
        yield str(tmp_path / "copy.db")
        return
    from pgschema import pg_schema

    with pg_schema("copy") as url:
        yield url


def test_a_copied_game_keeps_its_outbox_link_and_pulled_pms(tmp_path, dst):
    db = new_game(tmp_path)
    play(db, 2)  # day 1 and its run-off: night 1 now
    site = site_with_players()
    with discuz_site(site) as base:
        link(db, tmp_path, site, base)
        assert "发送完毕" in bansha("forum", "push", "g", "--yes", db=db)
        site.pm(uid_of(2), DIRECTOR, "技能：杀人 目标：士一")
        assert json.loads(bansha("forum", "pull", "g", "--yes", "--json", db=db))["recorded"] == 1
        sent = (list(site.threads[TID]["posts"]), list(site.pms))
        src = open_store(db)
        rows = src.outbox("g")
        assert rows and all(r.state == "sent" and r.remote for r in rows)

        code, out, err = run_main(["db", "copy", str(db), dst, "g"])
        assert code == 0, out + err
        assert out.strip() == f"已复制 g（{len(src.events('g'))}条事件），发件箱{len(rows)}条，记录2条"
        copy = open_store(dst)
        assert copy.outbox("g") == rows  # every field: key, order, message, state, remote, tries, time
        keys = ["forum.link.g", "forum.pulled.g"]
        assert copy.get_meta(keys) == src.get_meta(keys)
        # from the copy: nothing goes out again, nothing is recorded twice
        again = bansha("forum", "push", "g", "--yes", db=dst)
        assert "本次发出 0 条" in again and (site.threads[TID]["posts"], site.pms) == sent
        assert "已记录 0 条行动" in bansha("forum", "pull", "g", "--yes", db=dst)
        assert len(copy.events("g")) == len(src.events("g"))
