"""Issue 21 in a real browser, on SQLite and on PostgreSQL: the server restarts mid-game and
the pages that stayed open go on working; nothing fails silently (a request that reaches no
server, a refused form, a revoked link each say so on the page, in Chinese, with what to do).

Chromium through Playwright, as test_e2e_browser.py; skipped locally without it, failing under CI."""

from __future__ import annotations

import asyncio

from test_e2e_browser import LONG_WAIT, _launch, _need_browser
from webhelpers import SEATS, Serve


def test_a_restart_mid_game_keeps_every_open_page_working(any_store):
    _need_browser()
    serve = Serve(any_store).start()
    try:
        asyncio.run(_restart(serve))
    finally:
        serve.stop()


DEAL = "\n".join(f'[[players]]\nname = "{n}"\nrole = "{r}"' for n, r in SEATS)


async def _restart(serve: Serve):
    from bansha.store.store import open_store
    from playwright.async_api import async_playwright, expect

    errors: list[str] = []
    async with async_playwright() as p:
        browser, user_data = await _launch(p)
        try:
            d_ctx = await browser.new_context(viewport={"width": 1280, "height": 900}, locale="zh-CN")
            d_ctx.set_default_timeout(LONG_WAIT)
            d = await d_ctx.new_page()
            d.on("pageerror", lambda e: errors.append(str(e)))
            await d.goto(serve.login)
            # a refused creation: said on the form, kept as typed, nothing stored
            await d.fill("input[name=name]", "r0")
            await d.select_option("select[name=ruleset]", "qisha-xia")
            await d.fill("textarea[name=roster]", "\n".join(["弃权", *(n for n, _ in SEATS[1:])]))
            await d.click("text=创建并发牌")
            await expect(d.locator("p.error")).to_contain_text("弃权")
            assert await d.input_value("input[name=name]") == "r0"
            assert await d.input_value("select[name=ruleset]") == "qisha-xia"
            # created from a pasted deal file: 303 to the console, the links once, with the host
            await d.fill("input[name=name]", "r1")
            await d.fill("textarea[name=roster]", "")
            await d.click("summary:has-text('发牌文件')")
            await d.fill("textarea[name=deal_text]", DEAL)
            await d.click("text=创建并发牌")
            await d.wait_for_url(f"{serve.base}/d/g/r1")
            links = {}
            for li in await d.query_selector_all("section.links li"):
                name = (await li.inner_text()).split("：")[0].strip()
                links[name] = (await (await li.query_selector("input")).get_attribute("value")).rsplit("/p/", 1)[1]
            assert sorted(links) == sorted(n for n, _ in SEATS)
            assert (await d.input_value("#links-all-text")).count(f"{serve.base}/p/") == 20
            await d.reload()  # no second game, no links shown again
            assert await d.locator("section.links").count() == 0
            with open_store(serve.db) as store:
                assert store.names() == ["r1"]
            await expect(d.locator("h2[data-label]")).to_have_text("第1天 白天")
            p_ctx = await browser.new_context(viewport={"width": 390, "height": 844}, locale="zh-CN", is_mobile=True)
            p_ctx.set_default_timeout(LONG_WAIT)
            pg = await p_ctx.new_page()
            pg.on("pageerror", lambda e: errors.append(str(e)))
            await pg.goto(f"{serve.base}/p/{links['士一']}")
            vote = pg.locator("#live form#vote")
            # no vote is preselected: one tap does not abstain
            assert await vote.locator("select[name=target]").input_value() == ""
            assert "day 1" not in await pg.inner_text("body")

            # the server goes away: a submission says so on the page
            serve.stop()
            await vote.locator("select[name=target]").select_option("黑一")
            await vote.locator("button").click()
            await expect(pg.locator("#said .error")).to_contain_text("无法连接服务器", timeout=LONG_WAIT)
            await expect(pg.locator("#said .error")).to_contain_text("没有保存")  # and it was not
            with open_store(serve.db) as store:
                assert store.load("r1").ballots == []

            # back, on the same store: the notice says so by itself, then the open page's next
            # submission succeeds, no reload
            serve.start()
            await expect(pg.locator("#said .notice")).to_contain_text("已重新连接服务器", timeout=LONG_WAIT)
            await expect(pg.locator("#said .error")).to_have_count(0)
            # the notice asks for the vote again (the page may have been redrawn from the server's
            # state on reconnecting, which holds no vote): choose and send it once more
            await vote.locator("select[name=target]").select_option("黑一")
            await vote.locator("button").click()
            await expect(pg.locator("#said .message")).to_contain_text("已投票：黑一", timeout=LONG_WAIT)
            with open_store(serve.db) as store:
                assert [(b.voter, b.target) for b in store.load("r1").ballots] == [("士一", "黑一")]
            # the director's console, open since before the restart, sees it and resolves
            await expect(d.locator("#state")).to_contain_text("黑一 1（士一）", timeout=LONG_WAIT)
            await d.click("#resolve")
            await expect(d.locator("#said .message")).to_contain_text("已结算第1天 白天；现在是第1天 夜晚", timeout=LONG_WAIT)
            # the player's page follows by itself, in the board's words; the old "已投票" is gone with its phase
            await expect(pg.locator("#phase")).to_have_text("第1天 夜晚", timeout=LONG_WAIT)
            await expect(pg.locator("#said .message")).to_have_count(0, timeout=LONG_WAIT)

            # a forged form is refused on the page, in words, with what to do
            red = await (await browser.new_context(viewport={"width": 390, "height": 844}, locale="zh-CN")).new_page()
            red.on("pageerror", lambda e: errors.append(str(e)))
            await red.goto(f"{serve.base}/p/{links['赤']}")
            form = red.locator("form", has=red.locator("input[name=skill][value='验人']")).first
            await form.locator("select[name=target]").select_option("黑二")
            await red.evaluate("document.querySelectorAll('input[name=_csrf_token]').forEach(e => e.value = 'forged')")
            await form.locator("button").click()
            await expect(red.locator("#said .error")).to_contain_text("请刷新本页", timeout=LONG_WAIT)
            # after the reload it names, the same choice goes through
            await red.reload()
            form = red.locator("form", has=red.locator("input[name=skill][value='验人']")).first
            await form.locator("select[name=target]").select_option("黑二")
            await form.locator("button").click()
            await expect(red.locator("#said .message")).to_contain_text("已提交：验人 黑二", timeout=LONG_WAIT)

            # a new link for 士一: the old page's live channel is closed and the page says why
            await d.click("#seat-11 form[action$='/link'] button")  # 士一 sits 11th
            await expect(d.locator("#links")).to_contain_text("士一")
            await expect(pg.locator("#said .error")).to_contain_text("请向导演索取新链接", timeout=LONG_WAIT)
            # undo names what it removes and asks first
            await d.click("#undo")
            await expect(d.locator("#undo-confirm")).to_contain_text("赤 验人 黑二")
            with open_store(serve.db) as store:
                assert [a.actor for a in store.load("r1").actions] == ["赤"]
            await d.click("#undo-confirm-button")
            await expect(d.locator("#said .message")).to_contain_text("已撤销：", timeout=LONG_WAIT)
            with open_store(serve.db) as store:
                assert store.load("r1").actions == []
            assert not errors, errors
        finally:
            await browser.close()
            import shutil

            shutil.rmtree(user_data, ignore_errors=True)
