"""The director's statistics page in a real browser (Chromium through Playwright, as
test_e2e_browser.py): the link from the games page, the chart drawn (its bars and whiskers laid
out with a size), the comparison form submitted and the simulated bars shown beside the real
ones, no script error. Skipped locally without Chromium; under CI that fails instead."""

from __future__ import annotations

import asyncio

from bansha.store.store import open_store
from bansha_sim.play import play_game
from test_e2e_browser import SHOTS, _launch, _need_browser


def test_the_statistics_page_and_its_chart_in_a_browser(server):
    _need_browser()
    store = open_store(server["db"])
    wins = 0
    for i in range(4):  # four finished games beside the server's open g1 (the owner sees all)
        r = play_game("mafia-basic", 10, i, "random", {"mafia": 1}, keep=True)
        store.create(f"done{i}", r["setup"])
        for ev in r["events"]:
            store.append(f"done{i}", ev)
        wins += "黑手党" in r["winners"]
    store.close()
    asyncio.run(_stats(server, wins))


async def _stats(server, wins):
    from playwright.async_api import async_playwright, expect

    errors: list[str] = []
    async with async_playwright() as p:
        browser, _ = await _launch(p)
        try:
            ctx = await browser.new_context(locale="zh-CN", viewport={"width": 390, "height": 844})
            ctx.set_default_timeout(60_000)
            d = await ctx.new_page()
            d.on("pageerror", lambda e: errors.append(str(e)))
            # every request the page makes answers (the browser's own favicon.ico is none of ours)
            d.on("response", lambda r: errors.append(f"{r.status} {r.url}")
                 if r.status >= 400 and not r.url.endswith("/favicon.ico") else None)
            await d.goto(server["login"])
            await d.click("#stats-link")
            await expect(d.locator("h2").first).to_contain_text("已结束 4 局")
            camp_row = d.locator("table.stats-camps tr", has_text="黑手党")
            await expect(camp_row).to_contain_text(f"{wins}")
            chart = d.locator("svg.chart").first
            box = await chart.bounding_box()
            assert box and box["width"] > 200 and box["height"] > 40  # laid out, phone width
            bars = chart.locator("rect")
            assert await bars.count() == 2  # one per camp: 黑手党, 市民
            widths = [float(await bars.nth(i).get_attribute("width")) for i in range(2)]
            assert abs(sum(widths) - 320) < 1  # the two rates add up to the whole (no draw here)
            await d.fill("#compare input[name=games]", "20")
            await d.click("#compare button")
            await expect(d.locator("#stats-message")).to_contain_text("已模拟")
            await expect(d.locator("table.stats-camps")).to_contain_text("模拟胜率 [95%]（20 局，random）")
            assert await d.locator("svg.chart").first.locator('rect[fill="#aaa"]').count() == 2
            if SHOTS:
                await d.screenshot(path=str(SHOTS / "stats.png"), full_page=True)
            assert errors == []
        finally:
            await browser.close()
