"""Issue 21, item 4: a player's page in the board's words and in the order a player needs it:
what I learned since the last phase closed and what I may do now first, the history newest
first, last words written on the page when owed, the role card without the engine's notes."""

from __future__ import annotations

import html
import re

from bansha.engine.model import ActEvent, ResolveEvent, VoteEvent
from webhelpers import SEATS, csrf_of, setup_of, to_night


def text(page: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html.unescape(page)))


def test_after_dawn_the_new_feedback_comes_first_and_the_history_is_newest_first(web):
    to_night(web.store)
    web.store.append("g1", ActEvent(phase="night 1", actor="赤", skill="验人", targets=["黑二"]))
    web.store.append("g1", ActEvent(phase="night 1", actor="黑二", skill="杀人", targets=["士一"]))
    web.store.append("g1", ResolveEvent(phase="night 1"))
    t = text(web.client().get(f"/p/{web.links['g1']['赤']}").text)
    # 黑二是黑侠 is the news of 第1天 夜晚, above the vote form of 第2天 白天
    news = t.index("新消息（第1天 夜晚之后）")
    assert news < t.index("黑二是黑侠。") < t.index("投票")
    assert t.index("公告：士一出局") < t.index("投票")
    # the history: the newest phase first, and no engine label anywhere a person reads
    history = t[t.index("公告（最新在前）"):]
    assert history.index("第1天 夜晚") < history.index("第1天 白天")
    for raw in ("day 1", "night 1", "day 2"):
        assert raw not in t


def test_last_words_are_written_on_the_page_when_owed(tmp_path):
    """七杀·侠 with the house rule day_out_last_words (docs/rulings/qisha-xia.md: "`true` gives a
    player voted out last words until the next night closes"): the voted-out 黑一 is owed last
    words until 第1天 夜晚 closes; the page offers the form, the engine records them and they are
    published with that phase's announcement."""
    from bansha.store.store import open_store
    from bansha_web.app import Throttle, create_app
    from bansha_web.tokens import Tokens
    from litestar.testing import TestClient

    store = open_store(str(tmp_path / "g.db"))
    setup = setup_of()
    setup.options = {"day_out_last_words": True}
    store.create("g", setup)
    link = Tokens(store).new_player("g", "黑一")
    for n, _ in SEATS[3:]:
        store.append("g", lambda g, n=n: VoteEvent(phase=g.label, voter=n, target="黑一"))
    store.append("g", lambda g: ResolveEvent(phase=g.label))
    with TestClient(create_app(store, Tokens(store), throttle=Throttle(limit=1000))) as c:
        page = c.get(f"/p/{link}").text
        assert "遗言（请在第1天 夜晚结束前写下）" in text(page) and 'id="last-words"' in page
        assert "投票" not in text(page)[text(page).index("遗言"):text(page).index("你的反馈")]
        r = c.post(f"/p/{link}/words", data={"_csrf_token": csrf_of(page), "text": "我是好人<script>"})
        assert r.status_code == 200 and "已记录遗言" in r.text and "<script>" not in r.text
        assert 'id="last-words"' not in r.text  # recorded: no form any more
        r = c.post(f"/p/{link}/words", data={"_csrf_token": csrf_of(page), "text": "再说一次"})
        assert r.status_code == 422  # the engine's refusal, one line
    store.append("g", lambda g: ResolveEvent(phase=g.label))
    assert any("我是好人<script>" in t for _, t in store.load("g").announcements)
    store.close()


def test_a_role_card_carries_the_rule_and_not_the_engines_notes(tmp_path):
    from bansha.show.views import card_text

    rule = ("占星师 — 新日暮里 (M217), 三方阵营 ①.\n\n> 占星[早夜][指定] ——选择范围：一个任意角色。\n"
            "> 胜利条件：猜对全部。\n\n占星 resolves at night step (2). Readings: docs/rulings/m217.md, --arg 马甲=身份.\n")
    assert card_text(rule) == "占星[早夜][指定] ——选择范围：一个任意角色。\n胜利条件：猜对全部。"
    assert card_text("黑侠（3人）也即杀手。") == "黑侠（3人）也即杀手。"


def test_the_vote_preselects_nothing_and_asks_the_floor_where_the_board_reads_it(web):
    page = web.client().get(f"/p/{web.links['g1']['士一']}").text
    form = page[page.index('id="vote"'):]
    form = form[:form.index("</form>")]
    assert re.search(r'<option value="" selected>请选择</option>', form)
    assert '<select name="target" aria-label="投票" required>' in form
    assert 'name="post"' in form  # 七杀·侠's 幻觉三 reads floor numbers (vote.post = "warn")
    assert form.index("黑一") < form.index("弃权")  # the abstain word last, never first


def test_abstaining_is_a_choice_made_on_purpose(web):
    c = web.client()
    base = f"/p/{web.links['g1']['士二']}"
    r = c.post(base + "/vote", data={"_csrf_token": csrf_of(c.get(base).text), "target": ""})
    assert r.status_code == 422 and "请选择投票对象" in r.text and web.store.load("g1").ballots == []
    r = c.post(base + "/vote", data={"_csrf_token": csrf_of(r.text), "target": "弃权"})
    assert r.status_code == 200 and [(b.voter, b.target) for b in web.store.load("g1").ballots] == [("士二", "弃权")]


def test_a_sent_skill_keeps_its_withdraw_button_until_withdrawn(web):
    """A skill sent this phase that ``seat_choices`` no longer offers (光侠's 接收: used already
    this phase) can still be withdrawn by its sender until the phase closes (``unact``): the page
    shows 撤回 for it, the button withdraws it, and the form to send it comes back."""
    to_night(web.store)
    c = web.client()
    base = f"/p/{web.links['g1']['光']}"
    page = c.get(base).text
    assert "提交接收" in page and "撤回接收" not in page
    r = c.post(base + "/act", data={"_csrf_token": csrf_of(page), "skill": "接收", "target": "士二"})
    assert r.status_code == 200 and "已提交：接收 士二" in r.text
    assert "撤回接收" in r.text  # the answer's own state
    sent = c.get(base).text
    assert "撤回接收" in sent and "提交接收" not in sent
    r = c.post(base + "/unact", data={"_csrf_token": csrf_of(sent), "skill": "接收"})
    assert r.status_code == 200 and "已撤回：接收" in r.text
    assert [a.skill for a in web.store.load("g1").actions if a.actor == "光"] == []
    back = c.get(base).text
    assert "提交接收" in back and "撤回接收" not in back
    # resolved: the phase closed, nothing to withdraw any more
    c.post(base + "/act", data={"_csrf_token": csrf_of(back), "skill": "接收", "target": "士二"})
    web.store.append("g1", ResolveEvent(phase="night 1"))
    assert "撤回接收" not in c.get(base).text
