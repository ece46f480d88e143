"""``bansha forum push`` against the Discuz! X stand-in: the preview lists every message with its
recipient and uid and sends nothing; --yes sends the phase's reply and each bound player's PM
once, to the uid bound at sign-up; pushing again sends nothing; GBK and UTF-8 sites; flood
control waited out; a forum refusal stops the push saying what went out; the cookies never
printed nor stored."""

from __future__ import annotations

import sqlite3

import pytest
from bansha.store.store import open_store
from clirun import run_main
from forumserver import discuz_site

from .game import (
    DIRECTOR,
    TID,
    bansha,
    cookies_file,
    link,
    linked,
    new_game,
    play,
    site_with_players,
    uid_of,
)


def _sent(site):
    replies = [p for p in site.threads[TID]["posts"][1:]]
    return replies, list(site.pms)


@pytest.mark.parametrize("charset", ["UTF-8", "GBK"])
def test_push_previews_then_sends_each_message_once_to_its_bound_uid(tmp_path, charset):
    db = new_game(tmp_path)
    play(db, 3)  # day 1, its run-off, night 1
    site = site_with_players(charset)
    with discuz_site(site) as base:
        cookies = cookies_file(tmp_path, site)
        out = bansha("forum", "link", "g", "--site", base, "--cookies", str(cookies), "--thread", str(TID), "--interval", "0", db=db)
        assert "导演" in out and "uid 1" in out
        preview = bansha("forum", "push", "g", db=db)
        assert "主帖回复" in preview and "短消息 → 7号 赤（uid 1007）" in preview and "加 --yes 发送" in preview
        assert site.pms == [] and len(site.threads[TID]["posts"]) == 1  # a preview sends nothing
        out = bansha("forum", "push", "g", "--yes", db=db)
        assert "发送完毕" in out
        replies, pms = _sent(site)
        assert len(replies) == 1 and replies[0]["authorid"] == DIRECTOR and "〔编号 " in replies[0]["message"]
        # each PM to the seat's bound uid, holding that player's feedback only
        names = {uid_of(i): n for i, n in enumerate([p for p in site.users.values()][1:], start=1)}
        assert pms and all(p["msgfromid"] == DIRECTOR for p in pms)
        assert len({p["msgtoid"] for p in pms}) == len(pms)
        for p in pms:
            assert names[p["msgtoid"]][0] in p["message"]  # the greeting names its reader
        chi = next(p for p in pms if p["msgtoid"] == uid_of(7))  # 赤 checked 黑二
        assert "黑二" in chi["message"]
        # again: nothing more goes out, and the outbox says where each went
        again = bansha("forum", "push", "g", "--yes", db=db)
        assert "本次发出 0 条" in again and _sent(site) == (replies, pms)
        rows = sqlite3.connect(db).execute("SELECT state, remote FROM outbox").fetchall()
        assert rows and all(s == "sent" and r for s, r in rows)
        # the cookie never printed nor stored
        secret = cookies.read_text().split("auth=")[1].strip()
        assert secret not in out + preview + again
        assert secret.encode() not in db.read_bytes()


def test_a_seat_without_a_bound_uid_gets_no_pm(tmp_path):
    db = tmp_path / "games.db"
    deal = tmp_path / "deal.toml"
    from .game import SCRIPT

    deal.write_text("".join(f'[[players]]\nname = "{p["name"]}"\nrole = "{p["role"]}"\n' + (f'uid = "{uid_of(i)}"\n' if p["name"] != "赤" else "")
                            for i, p in enumerate(SCRIPT["players"], start=1)), encoding="utf-8")
    bansha("new", "g", "--ruleset", "qisha-xia", "--deal", str(deal), db=db)
    play(db, 3)
    site = site_with_players()
    with discuz_site(site) as base:
        link(db, tmp_path, site, base)
        out = bansha("forum", "push", "g", "--yes", db=db)
    assert "不发送：7号 赤 没有绑定论坛 uid" in out
    assert uid_of(7) not in {p["msgtoid"] for p in site.pms} and site.pms


def test_flood_control_is_waited_out_and_a_refusal_stops_the_push(tmp_path):
    db = new_game(tmp_path)
    play(db, 3)
    site = site_with_players(flood=0.3)
    with discuz_site(site) as base:
        link(db, tmp_path, site, base)
        # the forum freezes one recipient after the second PM: the push stops there and says so
        del site.users[uid_of(7)]
        code, out, err = run_main(["forum", "push", "g", "--yes", "--db", str(db)])
        assert code == 2 and "论坛拒绝了（sendpm）：抱歉，用户不存在或被冻结" in err and "已停止：已发出 1、" in out
        assert "等待" in out  # the forum's flood control answered and waited out
        site.add_user(uid_of(7), "赤")
        out = bansha("forum", "push", "g", "--yes", db=db)
    assert "发送完毕" in out
    assert len({p["msgtoid"] for p in site.pms}) == len(site.pms)


def test_a_cookie_that_is_no_login_is_refused_in_one_line(tmp_path):
    db = new_game(tmp_path)
    site = site_with_players()
    bad = tmp_path / "cookies.txt"
    bad.write_text("cdb_auth=nobody\n", encoding="utf-8")
    with discuz_site(site) as base:
        code, out, err = run_main(["forum", "link", "g", "--site", base, "--cookies", str(bad), "--thread", str(TID), "--db", str(db)])
    assert code == 2 and "cookie 文件没有登录论坛" in err and "Traceback" not in err and "nobody" not in err
    code, out, err = run_main(["forum", "push", "g", "--db", str(db)])
    assert code == 2 and "还没有连接论坛" in err


def test_a_substituted_seat_gets_no_pm_and_a_gbk_site_refuses_what_it_cannot_write_before_sending(tmp_path):
    db = new_game(tmp_path)
    play(db, 2)  # night 1 now
    bansha("ruling", "g", "substitute", "赤", "--text", "新来的", db=db)
    bansha("act", "g", "新来的", "验人", "黑二", db=db)
    bansha("ruling", "g", "announce", "--text", "今晚月色真好🌙", db=db)
    bansha("resolve", "g", "--yes", db=db)
    site = site_with_players("GBK")
    with discuz_site(site) as base:
        link(db, tmp_path, site, base)
        assert "不发送：7号 新来的 没有绑定论坛 uid" in bansha("forum", "push", "g", db=db)
        code, out, err = run_main(["forum", "push", "g", "--yes", "--db", str(db)])
        assert code == 2 and "论坛的编码 GBK 写不出的字符：🌙" in err, err
        assert site.pms == [] and len(site.threads[TID]["posts"]) == 1  # nothing went out
        assert sqlite3.connect(db).execute("SELECT COUNT(*) FROM outbox").fetchone()[0] == 0  # nor was recorded


def test_the_apis_login_writes_a_cookies_file_only_the_director_reads_and_keeps_no_password(tmp_path, monkeypatch):
    db = new_game(tmp_path)
    site = site_with_players()
    site.users[DIRECTOR] = ("导演", "s3cret-pw")
    cookies = tmp_path / "bbs.txt"
    with discuz_site(site) as base:
        monkeypatch.setenv("BANSHA_FORUM_PASSWORD", "wrong")
        code, out, err = run_main(["forum", "login", "--site", base, "--username", "导演", "--cookies", str(cookies)])
        assert code == 2 and "论坛拒绝了（login）：登录失败" in err and not cookies.exists()
        monkeypatch.setenv("BANSHA_FORUM_PASSWORD", "s3cret-pw")
        code, out, err = run_main(["forum", "login", "--site", base, "--username", "导演", "--cookies", str(cookies)])
        assert code == 0 and "已登录" in out and "uid 1" in out and "s3cret-pw" not in out + err, err
        assert cookies.stat().st_mode & 0o777 == 0o600 and "cdb_auth=" in cookies.read_text()
        bansha("forum", "link", "g", "--site", base, "--cookies", str(cookies), "--thread", str(TID), db=db)
    assert b"s3cret-pw" not in db.read_bytes() and "s3cret-pw" not in cookies.read_text()


def test_one_push_at_a_time_and_a_killed_ones_lease_is_taken_over(tmp_path):
    import json as _json
    import os
    import socket
    import subprocess
    import sys

    from bansha.store.store import open_store

    with linked(tmp_path) as (db, site, base):
        store = open_store(db)
        # a push running in a live process of this machine (this test's own): refused, nothing sent
        store.set_meta({"forum.pushing.g": _json.dumps({"host": socket.gethostname(), "pid": os.getpid(), "since": 0})})
        code, out, err = run_main(["forum", "push", "g", "--yes", "--db", str(db)])
        assert code == 2 and "另一个推送正在发送这局游戏的消息" in err and site.pms == []
        # its process gone (a kill -9): the next push takes the lease over and sends
        dead = subprocess.Popen([sys.executable, "-c", "pass"])
        dead.wait()
        store.set_meta({"forum.pushing.g": _json.dumps({"host": socket.gethostname(), "pid": dead.pid, "since": 0})})
        out = bansha("forum", "push", "g", "--yes", db=db)
        assert "发送完毕" in out and site.pms
        assert store.get_meta(["forum.pushing.g"]) == {}  # released when done


def test_a_connection_lost_mid_push_stops_it_saying_what_went_out_and_the_next_push_finishes(tmp_path):
    with linked(tmp_path) as (db, site, base):
        writes = []

        def drop(n, module, when):  # the forum goes away at the third write, after taking it
            if module in ("sendreply", "sendpm") and when == "before":
                writes.append(n)
            return len(writes) == 3 and when == "before"

        site.hook = drop
        code, out, err = run_main(["forum", "push", "g", "--yes", "--json", "--db", str(db)])
        site.hook = None
        assert code == 2 and "无法连接论坛（sendpm）" in out + err, (out, err)
        assert '"error"' in out + err  # --json: the refusal as a JSON object
        assert "Traceback" not in err and len(site.pms) == 1  # the reply and one PM went out
        states = sqlite3.connect(db).execute("SELECT state FROM outbox ORDER BY n").fetchall()
        assert [s for (s,) in states][:3] == ["sent", "sent", "sending"]
        out = bansha("forum", "push", "g", "--yes", db=db)
    assert "发送完毕" in out
    tokens = [p["message"].rsplit("〔编号 ", 1)[1] for p in site.pms]
    assert len(tokens) == len(set(tokens))


def test_an_amendment_sends_its_correction_as_new_messages_and_resends_nothing(tmp_path):
    with linked(tmp_path) as (db, site, base):
        bansha("forum", "push", "g", "--yes", db=db)
        first = list(site.pms)
        replies = len(site.threads[TID]["posts"])
        bansha("amend", "g", "act", "赤", "验人", "青一", "--phase", "第1天 夜晚", "--yes", db=db)
        preview = bansha("forum", "push", "g", "--phase", "第1天 夜晚", db=db)
        assert "7号 赤（uid 1007）  待发送" in preview
        out = bansha("forum", "push", "g", "--phase", "第1天 夜晚", "--yes", db=db)
    new = [p for p in site.pms if p not in first]
    assert new and all("【更正】" in p["message"] for p in new)
    fix = next(p for p in new if p["msgtoid"] == uid_of(7))
    assert "撤回：" in fix["message"] and "更正为：" in fix["message"] and "青一" in fix["message"]
    assert site.pms[:len(first)] == first  # what went out is never sent again nor edited
    assert len(site.threads[TID]["posts"]) in (replies, replies + 1)
    assert "发送完毕" in out


def test_a_substitute_bound_by_its_ruling_gets_the_seats_pms_and_is_pulled(tmp_path):
    """``ruling substitute OLD --text NEW --arg uid=N`` binds the seat to the substitute's own
    account (``Game.uids``): the seat's PMs go there, its PMs are read from there, and the old
    player's account is the seat's no more. A uid another seat holds, or one that is no number,
    is refused and nothing is stored."""
    db = new_game(tmp_path)
    play(db, 2)  # night 1 now
    before = len(open_store(db).events("g"))
    for bad, says in (("1002", "论坛 uid 1002 出现在两个座位"), ("abc", "替补的论坛 uid 须为数字")):
        code, out, err = run_main(["ruling", "g", "substitute", "赤", "--text", "新来的", "--arg", f"uid={bad}", "--db", str(db)])
        assert code == 2 and says in err, (bad, out, err)
    assert len(open_store(db).events("g")) == before
    bansha("ruling", "g", "substitute", "赤", "--text", "新来的", "--arg", "uid=2007", db=db)
    site = site_with_players()
    site.add_user(2007, "新来的")
    with discuz_site(site) as base:
        link(db, tmp_path, site, base)
        site.pm(uid_of(7), DIRECTOR, "技能：验人 目标：黑一")   # the old 赤's account: no seat's now
        site.pm(2007, DIRECTOR, "技能：验人 目标：黑二")
        out = bansha("forum", "pull", "g", "--yes", db=db)
        assert "新来的 验人 黑二" in out and "黑一" not in out.split("未读")[0], out
        bansha("resolve", "g", "--yes", db=db)
        preview = bansha("forum", "push", "g", db=db)
        assert "7号 新来的（uid 2007）" in preview and "没有绑定" not in preview
        bansha("forum", "push", "g", "--yes", db=db)
        assert [p["msgtoid"] for p in site.pms].count(2007) == 1 and uid_of(7) not in [p["msgtoid"] for p in site.pms]
