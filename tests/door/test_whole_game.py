"""A whole qisha-xia game run through the forum: every night action is a PM a player sends the
director, every vote a post in the day's vote thread; the director runs only ``forum pull
--yes``, ``resolve --yes`` and ``forum push --yes`` — no action typed, no PM pasted — and the
game ends as the demo's script (typed by hand) ends it; each phase's PMs reach the bound uids,
exactly the blocks ``bansha pm`` makes; pulling twice records nothing twice."""

from __future__ import annotations

import json

from clirun import run_main
from forumserver import discuz_site

from .game import (
    DIRECTOR,
    SCRIPT,
    TID,
    bansha,
    link,
    new_game,
    site_with_players,
    uid_of,
)

UID = {p["name"]: uid_of(i) for i, p in enumerate(SCRIPT["players"], start=1)}


def test_a_whole_game_pulled_and_pushed_through_the_forum(tmp_path):
    db = new_game(tmp_path)
    site = site_with_players(charset="GBK")
    with discuz_site(site) as base:
        link(db, tmp_path, site, base)
        for k, phase in enumerate(SCRIPT["phases"]):
            label = phase["phase"]
            if phase.get("actions"):
                for a in phase["actions"]:
                    text = f"{label}\n技能：{a['skill']} 目标：{'、'.join(a.get('targets', []))}"
                    if a.get("args"):
                        text += "\n参数：" + " ".join(f"{x}={y}" for x, y in a["args"].items())
                    site.pm(UID[a["actor"]], DIRECTOR, text)
                site.pm(UID["士五"], DIRECTOR, "导演你好，今晚我没有技能可用吧？")  # no action: listed, never dropped
                preview = bansha("forum", "pull", "g", db=db)
                assert "读不出行动" in preview and f"加 --yes 记录可记录的 {len(phase['actions'])} 条" in preview
                out = bansha("forum", "pull", "g", "--yes", db=db)
                assert f"已记录 {len(phase['actions'])} 条行动" in out, out
                again = bansha("forum", "pull", "g", "--yes", db=db)  # pulling twice records nothing twice
                assert "没有新的短消息" in again and "已记录 0 条行动" in again
            thread = None
            if phase.get("votes"):
                thread = 100 + k
                day = label.split()[-1]
                site.new_thread(thread, DIRECTOR, f"第{day}天投票帖", f"第{day}天 投票帖，请按格式投票")
                posted = {}
                for v in phase["votes"]:
                    if v.get("change"):
                        _pid, when, first = posted[v["voter"]]
                        head = f"{v['voter']} 发表于 {site._shown(when)}"
                        site.reply(thread, UID[v["voter"]], f"[quote]{head}\n投票对象：{first}[/quote]\n改票对象：{v['target']}")
                    else:
                        pid = site.reply(thread, UID[v["voter"]], f"投票对象：{v['target']}\n投票理由：见发言")
                        posted[v["voter"]] = (pid, site.threads[thread]["posts"][-1]["dbdateline"], v["target"])
                out = bansha("forum", "pull", "g", "--thread", str(thread), "--yes", db=db)
                assert "写入" in out, out
                again = bansha("forum", "pull", "g", "--thread", str(thread), "--yes", db=db)
                assert "写入 0 票" in again, again
            out = bansha("resolve", "g", "--yes", db=db)
            for line in phase.get("announcement", []):
                assert line in out, (label, line)
            before = list(site.pms)
            pushed = bansha("forum", "push", "g", "--yes", db=db)
            assert "发送完毕" in pushed
            # the PMs of the phase: the blocks `bansha pm` makes, each at its seat's bound uid
            blocks = json.loads(bansha("pm", "g", "--json", db=db))
            new = [p for p in site.pms if p not in before]
            assert sorted(p["msgtoid"] for p in new) == sorted(UID[b["player"]] for b in blocks)
            for b in blocks:
                got = next(p for p in new if p["msgtoid"] == UID[b["player"]])
                assert all(line in got["message"] for line in b["lines"])
            again = bansha("forum", "push", "g", "--yes", db=db)
            assert "本次发出 0 条" in again
    assert "光明获胜。" in out and "游戏结束：光明" in out
    # one reply a phase in the game's thread, each once
    replies = site.threads[TID]["posts"][1:]
    assert len(replies) == len(SCRIPT["phases"]) and all(r["authorid"] == DIRECTOR for r in replies)
    code, out, err = run_main(["status", "g", "--db", str(db)])
    assert "结束：光明" in out
