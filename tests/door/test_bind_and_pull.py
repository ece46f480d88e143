"""Players bound to forum uids (sign-up's ``authorid``, a roster line's ``uid=…``, a deal's
``uid``; one account one seat), and pull's promises: a PM that names no action or is refused
is listed, never dropped; a PM from a uid bound to no seat is not read as anyone's; an action
already in the log (a pull killed between recording and keeping its pmids) is not recorded
again; a late PM is marked and recorded only when named."""

from __future__ import annotations

import json

from bansha.store.store import open_store
from clirun import run_main, settled_bytes
from forumserver import discuz_site

from .game import (
    DIRECTOR,
    SCRIPT,
    bansha,
    link,
    new_game,
    play,
    site_with_players,
    uid_of,
)

NAMES = [p["name"] for p in SCRIPT["players"]]


def test_signup_records_each_authorid_and_new_binds_it_to_the_seat(tmp_path):
    site = site_with_players()
    site.new_thread(9, DIRECTOR, "【七杀·侠】报名帖", "报名请回复“报名”")
    for i in range(1, len(NAMES) + 1):
        site.reply(9, uid_of(i), "报名")
    roster = tmp_path / "roster.txt"
    with discuz_site(site) as base:
        code, out, err = run_main(["signup", f"{base}forum.php?mod=viewthread&tid=9", "--ruleset", "qisha-xia", "--out", str(roster)])
    assert code == 0 and "名单已写入" in out, err
    lines = roster.read_text(encoding="utf-8").splitlines()
    assert lines[0] == f"{NAMES[0]} uid={uid_of(1)}" and len(lines) == 20
    db = tmp_path / "games.db"
    bansha("new", "g", "--ruleset", "qisha-xia", "--players", str(roster), "--seed", "3", db=db)
    seats = open_store(db).setup("g").players
    assert {p.name: p.uid for p in seats} == {n: str(uid_of(i)) for i, n in enumerate(NAMES, start=1)}


def test_one_account_on_two_seats_is_refused_and_nothing_is_stored(tmp_path):
    roster = tmp_path / "roster.txt"
    roster.write_text("".join(f"{n} uid={1001 if i < 2 else 1000 + i}\n" for i, n in enumerate(NAMES)), encoding="utf-8")
    db = tmp_path / "games.db"
    bansha("new", "other", "--ruleset", "qisha-xia", "--players", ",".join(NAMES), db=db)
    before = settled_bytes(db)
    code, out, err = run_main(["new", "g", "--ruleset", "qisha-xia", "--players", str(roster), "--db", str(db)])
    assert code == 2 and "论坛 uid 1001 出现在两个座位" in err
    assert settled_bytes(db) == before
    deal = tmp_path / "deal.toml"
    deal.write_text("".join(f'[[players]]\nname = "{p["name"]}"\nrole = "{p["role"]}"\nuid = "7"\n' for p in SCRIPT["players"]), encoding="utf-8")
    code, out, err = run_main(["new", "g", "--ruleset", "qisha-xia", "--deal", str(deal), "--db", str(db)])
    assert code == 2 and "论坛 uid 7 出现在两个座位" in err


def test_pull_lists_what_it_cannot_record_and_records_nothing_twice(tmp_path):
    db = new_game(tmp_path)
    play(db, 2)  # day 1 and its run-off: night 1 now
    site = site_with_players()
    site.add_user(4242, "路人")
    with discuz_site(site) as base:
        link(db, tmp_path, site, base, interval=None)
        site.pm(uid_of(2), DIRECTOR, "技能：杀人 目标：士一")            # 黑二's kill
        site.pm(uid_of(7), DIRECTOR, "验人,黑二")                      # 赤's check as a CSV line
        site.pm(uid_of(11), DIRECTOR, "技能：杀人 目标：黑一")           # 士一 holds no such skill
        site.pm(uid_of(12), DIRECTOR, "今晚好安静")                     # no action
        site.pm(4242, DIRECTOR, "技能：杀人 目标：士二")                 # bound to no seat
        out = bansha("forum", "pull", "g", db=db)
        assert "→ 黑二 杀人 士一" in out and "→ 赤 验人 黑二" in out
        assert "不接受：" in out and "读不出行动" in out and "未读：4242" in out
        assert "加 --yes 记录可记录的 2 条" in out
        before = len(open_store(db).events("g"))
        data = json.loads(bansha("forum", "pull", "g", "--yes", "--json", db=db))
        assert data["recorded"] == 2 and len(open_store(db).events("g")) == before + 2
        # a pull killed after recording and before keeping the pmids: the actions are in the log already
        open_store(db).set_meta({"forum.pulled.g": None})
        out = bansha("forum", "pull", "g", "--yes", db=db)
        assert out.count("已在记录中") == 2 and "已记录 0 条行动" in out
        assert len(open_store(db).events("g")) == before + 2
        # a new PM from 赤 changing the check is pulled next time, alone
        site.pm(uid_of(7), DIRECTOR, "技能：验人 目标：士三")
        out = bansha("forum", "pull", "g", "--yes", db=db)
        assert "短消息 " in out and "赤 验人 士三" in out and "已记录 1 条行动" in out


def test_a_late_pm_is_marked_and_recorded_only_when_named(tmp_path):
    db = tmp_path / "games.db"
    deal = tmp_path / "deal.toml"
    deal.write_text("".join(f'[[players]]\nname = "{p["name"]}"\nrole = "{p["role"]}"\nuid = "{uid_of(i)}"\n'
                            for i, p in enumerate(SCRIPT["players"], start=1)), encoding="utf-8")
    # day 1 from Wednesday 2024-05-01 20:00; after its run-off, night 1 closes Saturday 20:00
    bansha("new", "g", "--ruleset", "qisha-xia", "--deal", str(deal), "--option", "start_time=2024-05-01 20:00", db=db)
    play(db, 2)
    site = site_with_players()
    import datetime as dt

    late = dt.datetime(2024, 5, 4, 20, 30, tzinfo=dt.timezone(dt.timedelta(hours=8))).timestamp()
    with discuz_site(site) as base:
        link(db, tmp_path, site, base, interval=None)
        pmid = site.pm(uid_of(2), DIRECTOR, "技能：杀人 目标：士一", when=late)
        out = bansha("forum", "pull", "g", "--yes", db=db)
        assert "【迟到】" in out and "已记录 0 条行动" in out
        open_store(db).set_meta({"forum.pulled.g": None})
        out = bansha("forum", "pull", "g", "--yes", "--pm", str(pmid), db=db)
        assert "已记录 1 条行动" in out
