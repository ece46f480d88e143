"""A board whose ``[post] new_thread`` names a phase: ``bansha forum push`` opens that phase's
post as a new thread (Discuz! X's ``newthread``) in the game thread's forum, once — a ``kill -9``
before or after the forum took it, then push again, leaves one thread, found by its token among
the forum's threads (``forumdisplay``) — and ``bansha forum pull`` reads the next phase's votes
from that thread without ``--thread``."""

from __future__ import annotations

import json

import pytest
from bansha.store.store import open_store
from forumserver import discuz_site

from .game import (
    DEMO,
    DIRECTOR,
    TID,
    bansha,
    link,
    new_game,
    play,
    site_with_players,
    uid_of,
)
from .test_push_kill import _push

TEMPLATE = DEMO.parents[1] / "templates/qisha-xia.toml"


def _board(tmp_path):
    """qisha-xia's board file with the night's post opening the day's vote thread."""
    path = tmp_path / "board.toml"
    text = TEMPLATE.read_text(encoding="utf-8").replace(
        "[post]\n", '[post]\nnew_thread = ["night"]\nthread_title = "【{board}】{next} 投票帖（{phase}公告）"\n', 1)
    assert "new_thread" in text
    path.write_text(text, encoding="utf-8")
    return path


def _linked(tmp_path, site, base):
    db = new_game(tmp_path)
    play(db, 3)  # day 1, its run-off, night 1: night 1's post is the one to push
    link(db, tmp_path, site, base)
    return db


def _opened(site):
    return {tid: t for tid, t in site.threads.items() if tid != TID}


def test_push_opens_the_phase_thread_once_and_pull_reads_its_votes(tmp_path):
    board = _board(tmp_path)
    site = site_with_players()
    with discuz_site(site) as base:
        db = _linked(tmp_path, site, base)
        preview = bansha("forum", "push", "g", "--template", str(board), db=db)
        assert "新主题帖" in preview and "投票帖" in preview and not _opened(site)
        bansha("forum", "push", "g", "--yes", "--template", str(board), db=db)
        opened = _opened(site)
        assert len(opened) == 1
        (tid, t), = opened.items()
        assert t["authorid"] == DIRECTOR and t["fid"] == site.threads[TID]["fid"] and t["subject"] == "【七杀·侠】第2天 白天 投票帖（第1天 夜晚公告）"
        assert "〔编号 " in t["posts"][0]["message"]
        assert len(site.threads[TID]["posts"]) == 1  # no reply in the game's thread
        row, = [r for r in open_store(str(db)).outbox("g") if r.key.startswith("post:")]
        assert row.state == "sent" and row.remote == str(tid)
        # pushing again opens nothing
        assert "都已发送" in bansha("forum", "push", "g", "--yes", "--template", str(board), db=db)
        assert len(_opened(site)) == 1
        # a vote posted in the new thread is what pull reads, with no --thread
        site.reply(tid, uid_of(4), "投票对象：黑二\n投票理由：见发言")
        site.reply(TID, uid_of(5), "投票对象：赤\n投票理由：错帖")
        out = bansha("forum", "pull", "g", db=db)
        assert f"投票帖 tid {tid}" in out
        data = json.loads(bansha("forum", "pull", "g", "--yes", "--json", db=db))
        assert "黑二" in json.dumps(data["votes"], ensure_ascii=False)
        assert "错帖" not in json.dumps(data["votes"], ensure_ascii=False)


def test_without_new_thread_pull_reads_the_linked_thread(tmp_path):
    site = site_with_players()
    with discuz_site(site) as base:
        db = _linked(tmp_path, site, base)
        bansha("forum", "push", "g", "--yes", db=db)
        assert not _opened(site)
        assert f"投票帖 tid {TID}" in bansha("forum", "pull", "g", db=db)


@pytest.mark.parametrize("when", ["before", "after"])
def test_kill_9_during_the_new_thread_then_push_again_opens_one_thread(tmp_path, when):
    board = _board(tmp_path)
    site = site_with_players()
    with discuz_site(site) as base:
        db = _linked(tmp_path, site, base)
        template = ("--template", str(board))
        assert _push(db, site, ("newthread", when), template) is None
        assert len(_opened(site)) == (1 if when == "after" else 0)
        out = _push(db, site, None, template)
        opened = _opened(site)
        assert len(opened) == 1
        (tid, _t), = opened.items()
        rows = open_store(str(db)).outbox("g")
        assert all(r.state == "sent" for r in rows)
        assert [r.remote for r in rows if r.key.startswith("post:")] == [str(tid)]
        if when == "after":
            assert "已在论坛上" in out.stdout


@pytest.mark.parametrize(("old", "new", "said"), [("{next} 投票帖", "{winner} 投票帖", "winner"),
                                                 ('new_thread = ["night"]', 'new_thread = ["黑夜"]', "new_thread 里的阶段 黑夜")])
def test_a_bad_new_thread_setting_is_refused_and_nothing_sent(tmp_path, old, new, said):
    from clirun import run_main

    board = tmp_path / "bad.toml"
    board.write_text(_board(tmp_path).read_text(encoding="utf-8").replace(old, new), encoding="utf-8")
    site = site_with_players()
    with discuz_site(site) as base:
        db = _linked(tmp_path, site, base)
        code, out, err = run_main(["forum", "push", "g", "--yes", "--template", str(board), "--db", str(db)])
        assert code == 2 and said in out + err and "Traceback" not in out + err
        assert not _opened(site) and open_store(str(db)).outbox("g") == []


def test_a_corrected_thread_post_is_a_correction_reply_in_its_own_thread(tmp_path):
    board = _board(tmp_path)
    site = site_with_players()
    with discuz_site(site) as base:
        db = _linked(tmp_path, site, base)
        bansha("forum", "push", "g", "--yes", "--template", str(board), db=db)
        (tid, t), = _opened(site).items()
        bansha("amend", "g", "act", "黑二", "杀人", "士三", "--phase", "第1天 夜晚", "--yes", db=db)
        bansha("forum", "push", "g", "--phase", "第1天 夜晚", "--yes", "--template", str(board), db=db)
        assert list(_opened(site)) == [tid]  # no second thread
        assert len(site.threads[TID]["posts"]) == 1  # nothing in the game's thread
        fix = t["posts"][1:]
        assert len(fix) == 1 and fix[0]["authorid"] == DIRECTOR and "【更正】" in fix[0]["message"] and "士三" in fix[0]["message"]


@pytest.mark.parametrize("deep_pages", [None, 3])
def test_a_new_thread_begun_then_buried_under_others_is_found_or_nothing_is_sent(tmp_path, monkeypatch, deep_pages):
    """A push killed after the forum took its new thread, then 35 threads by others posted
    before the push is run again: at 10 a page the game's thread is on page 4, past the 3
    pages read for a thread never begun. A send that was begun is looked for through the
    whole list (up to ``DEEP_PAGES``) and is not opened twice; where the list goes on past
    those pages, nothing at all is sent and the director is told why (``deep_pages`` = 3)."""
    from bansha_forum.door import push
    from clirun import run_main

    if deep_pages is not None:
        monkeypatch.setattr(push, "DEEP_PAGES", deep_pages)
    board = _board(tmp_path)
    site = site_with_players()
    with discuz_site(site) as base:
        db = _linked(tmp_path, site, base)
        template = ("--template", str(board))
        assert _push(db, site, ("newthread", "after"), template) is None
        assert len(_opened(site)) == 1
        for i in range(35):
            site.new_thread(5000 + i, uid_of(1 + i % 12), f"闲聊 {i}", "路过")
        pms = list(site.pms)
        code, out, err = run_main(["forum", "push", "g", "--yes", *template, "--db", str(db)])
        mine = [t for tid, t in _opened(site).items() if t["authorid"] == DIRECTOR]
        assert len(mine) == 1, mine  # never a second thread
        if deep_pages is None:
            assert code == 0 and "已在论坛上" in out, out + err
            assert all(r.state == "sent" for r in open_store(str(db)).outbox("g"))
        else:
            assert code == 2 and "前 3 页里没有找到" in err and "什么也没有发送" in err, out + err
            assert site.pms == pms


def _buried(tmp_path, monkeypatch, site, base):
    """A new thread begun and taken by the forum, then buried under 35 others, past the pages
    push reads back (``DEEP_PAGES`` = 3): push stops and asks the director."""
    from bansha_forum.door import push

    monkeypatch.setattr(push, "DEEP_PAGES", 3)
    board = _board(tmp_path)
    db = _linked(tmp_path, site, base)
    template = ("--template", str(board))
    assert _push(db, site, ("newthread", "after"), template) is None
    for i in range(35):
        site.new_thread(5000 + i, uid_of(1 + i % 12), f"闲聊 {i}", "路过")
    return db, template


def test_the_director_names_the_buried_thread_and_push_marks_it_sent_after_checking_its_token(tmp_path, monkeypatch):
    from clirun import run_main

    site = site_with_players()
    with discuz_site(site) as base:
        db, template = _buried(tmp_path, monkeypatch, site, base)
        (tid, _t), = [(k, t) for k, t in _opened(site).items() if t["authorid"] == DIRECTOR]
        pms = list(site.pms)
        # a thread that is not it (another's, without the token) is refused, nothing recorded or sent
        code, out, err = run_main(["forum", "push", "g", "--yes", *template, "--found", "5003", "--db", str(db)])
        assert code == 2 and "tid 5003 不是本局的新主题帖" in err and "什么也没有记录" in err, out + err
        assert site.pms == pms and [r.state for r in open_store(str(db)).outbox("g") if r.key.startswith("post:")] == ["sending"]
        # without --yes it is refused, as is --found beside --not-on-forum
        code, out, err = run_main(["forum", "push", "g", *template, "--found", str(tid), "--db", str(db)])
        assert code == 2 and "--found 须与 --yes 一起使用" in err
        code, out, err = run_main(["forum", "push", "g", "--yes", *template, "--found", str(tid), "--not-on-forum", "--db", str(db)])
        assert code == 2 and "不能同时使用" in err
        # its address, as the director copies it from the browser
        code, out, err = run_main(["forum", "push", "g", "--yes", *template, "--found",
                                   f"{base}forum.php?mod=viewthread&tid={tid}", "--db", str(db)])
        assert code == 0 and "已在论坛上" in out, out + err
        assert len([t for t in _opened(site).values() if t["authorid"] == DIRECTOR]) == 1  # never a second thread
        rows = open_store(str(db)).outbox("g")
        assert all(r.state == "sent" for r in rows)
        assert [r.remote for r in rows if r.key.startswith("post:")] == [str(tid)]
        # said again, with nothing begun, it does not apply
        code, out, err = run_main(["forum", "push", "g", "--yes", *template, "--found", str(tid), "--db", str(db)])
        assert code == 2 and "没有曾开始发送而未确认的新主题帖：--found 不适用" in err


def test_the_director_says_the_begun_thread_is_not_there_and_push_sends_it_once(tmp_path, monkeypatch):
    from clirun import run_main

    site = site_with_players()
    with discuz_site(site) as base:
        db, template = _buried(tmp_path, monkeypatch, site, base)
        (tid, _t), = [(k, t) for k, t in _opened(site).items() if t["authorid"] == DIRECTOR]
        del site.threads[tid]  # the forum lost it (a moderator deleted it): the director looked
        code, out, err = run_main(["forum", "push", "g", "--yes", *template, "--db", str(db)])
        assert code == 2 and "--not-on-forum" in err  # the refusal names the way out
        code, out, err = run_main(["forum", "push", "g", "--yes", *template, "--not-on-forum", "--db", str(db)])
        assert code == 0, out + err
        mine = [t for t in _opened(site).values() if t["authorid"] == DIRECTOR]
        assert len(mine) == 1
        rows = open_store(str(db)).outbox("g")
        assert all(r.state == "sent" for r in rows)
        # push again: nothing to send, nothing sent twice
        code, out, err = run_main(["forum", "push", "g", "--yes", *template, "--not-on-forum", "--db", str(db)])
        assert code == 2 and "--not-on-forum 不适用" in err
        assert len([t for t in _opened(site).values() if t["authorid"] == DIRECTOR]) == 1
