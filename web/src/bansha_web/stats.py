"""The director's statistics page (``GET /d/stats``): the finished games of the director's own
(the store's owner: every game), per board and table, as ``bansha stats`` counts them
(``bansha_sim.realstats``: which games count, win rates per camp and per role with 95 %
intervals, lengths, causes of exit), with a bar chart drawn here as inline SVG (no script);
``POST /d/stats`` adds the simulated rates of one table beside them (``compare_sim``) and marks
where they disagree."""

from __future__ import annotations

import asyncio
import hashlib
import json
import threading
from typing import Any

from bansha.door.forms import excerpt, parse_int
from bansha.engine.model import GameError
from litestar import Request, get, post
from litestar.response import Template
from markupsafe import Markup, escape

#: at most this many games simulated for one comparison (100 qisha-xia games: ~1.2 s of CPU)
MAX_SIM_GAMES = 500
DEFAULT_SIM_GAMES = 200


def group_id(s: dict) -> str:
    """A table's stable id in a form: its board, seats and house rules."""
    raw = json.dumps([s["ruleset"], s["seats"], s["options"]], sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(raw.encode()).hexdigest()[:16]


def board_name(ruleset: str) -> str:
    from bansha.engine.registry import find_manifest

    try:
        return find_manifest(ruleset).name or ruleset
    except GameError:
        return ruleset


def summaries(store, names: list[str]) -> list[dict[str, Any]]:
    """The counted games among ``names``, one summary per board and table (realstats)."""
    from bansha_sim.realstats import collect, summary

    out = []
    for key, g in sorted(collect(store, names=names).items()):
        s = summary(key, g)
        s["id"] = group_id(s)
        s["board"] = board_name(s["ruleset"])
        s["options_shown"] = options_shown(s["ruleset"], s["options"])
        out.append(s)
    return out


def options_shown(ruleset: str, options: dict[str, Any]) -> list[tuple[str, str]]:
    """A table's house rules as a person reads them: (label, value) by ``options.label_of``
    and ``value_label``, never the option's id."""
    from bansha.engine.options import label_of, value_label
    from bansha.engine.registry import find_manifest

    try:
        manifest = find_manifest(ruleset)
    except GameError:
        return [(k, str(v)) for k, v in options.items()]
    return [(label_of(manifest, k), value_label(manifest, k, v)) if k in manifest.options else (k, str(v))
            for k, v in options.items()]


def causes_zh(causes: dict[str, int]) -> list[tuple[str, int]]:
    from bansha.show.explain import cause

    return [(cause(k, "zh"), n) for k, n in causes.items()]


def pct(p: float) -> str:
    return f"{p * 100:.1f}%"


def rate_chart(rows: list[dict[str, Any]], title: str) -> Markup:
    """A horizontal bar chart of rates with their 95 % intervals as whiskers: per row ``label``,
    ``p``/``low``/``high`` (0–1) and, when simulated, ``sim`` (the same three) drawn as a second,
    grey bar, and ``flag`` (the two disagree). Every text is escaped; only numbers are
    formatted into the markup."""
    left, width, right = 130, 320, 60
    bar, gap = 14, 10
    row_h = bar * 2 + 4 + gap if any(r.get("sim") for r in rows) else bar + gap
    top = 18
    height = top + row_h * len(rows) + 22
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" class="chart" viewBox="0 0 {left + width + right} {height}" '
             f'width="100%" role="img" aria-label="{escape(title)}"><title>{escape(title)}</title>']
    for tick in (0, 25, 50, 75, 100):
        x = left + width * tick / 100
        parts.append(f'<line x1="{x:.1f}" y1="{top - 4}" x2="{x:.1f}" y2="{height - 18}" stroke="#ddd" stroke-width="1"/>'
                     f'<text x="{x:.1f}" y="{height - 4}" font-size="11" text-anchor="middle" fill="#555">{tick}%</text>')

    def one(y: float, p: float, lo: float, hi: float, fill: str, what: str) -> str:
        x0, x1 = left + width * lo, left + width * hi
        mid = y + bar / 2
        return (f'<g><title>{escape(what)}</title>'
                f'<rect x="{left}" y="{y:.1f}" width="{max(width * p, 0.5):.1f}" height="{bar}" fill="{fill}"/>'
                f'<line x1="{x0:.1f}" y1="{mid:.1f}" x2="{x1:.1f}" y2="{mid:.1f}" stroke="#222" stroke-width="1.5"/>'
                f'<line x1="{x0:.1f}" y1="{y + 2:.1f}" x2="{x0:.1f}" y2="{y + bar - 2:.1f}" stroke="#222" stroke-width="1.5"/>'
                f'<line x1="{x1:.1f}" y1="{y + 2:.1f}" x2="{x1:.1f}" y2="{y + bar - 2:.1f}" stroke="#222" stroke-width="1.5"/>'
                f'<text x="{left + width + 4}" y="{y + bar - 3:.1f}" font-size="11" fill="#222">'
                f'{escape(pct(p))}</text></g>')

    for i, r in enumerate(rows):
        y = top + i * row_h
        label = str(r["label"])
        parts.append(f'<text x="{left - 6}" y="{y + bar - 3}" font-size="12" text-anchor="end" fill="#111">'
                     f'{escape(label)}{"  ≠" if r.get("flag") else ""}</text>')
        parts.append(one(y, r["p"], r["low"], r["high"], "#3a7bd5",
                         f"{label} 真实 {pct(r['p'])} [{pct(r['low'])}, {pct(r['high'])}]"))
        sim = r.get("sim")
        if sim:
            parts.append(one(y + bar + 4, sim["p"], sim["low"], sim["high"], "#aaa",
                             f"{label} 模拟 {pct(sim['p'])} [{pct(sim['low'])}, {pct(sim['high'])}]"))
    parts.append("</svg>")
    return Markup("".join(parts))


def view(s: dict[str, Any]) -> dict[str, Any]:
    """What the page shows of one summary (and its comparison, if simulated): rows and charts."""
    sim = s.get("sim")
    camps = []
    for c, r in s["rates"].items():
        row = {"label": c, "wins": s["wins"].get(c, 0), "p": r["p"], "low": r["low"], "high": r["high"]}
        if sim and c in sim["rates"]:
            q = sim["rates"][c]
            row["sim"] = {"p": q["p"], "low": q["low"], "high": q["high"]}
            row["flag"] = q["disagrees"]
        camps.append(row)
    roles = []
    for role, r in s["roles"].items():
        row = {"label": role, "n": r["n"], "wins": r["wins"], "p": r["win_rate"], "low": r["low"], "high": r["high"]}
        if sim and role in sim["roles"]:
            q = sim["roles"][role]
            row["sim"] = {"p": q["win_rate"], "low": q["low"], "high": q["high"]}
            row["flag"] = q["disagrees"]
        roles.append(row)
    return {**s, "camp_rows": camps, "role_rows": roles, "causes_zh": causes_zh(s["causes"]),
            "camp_chart": rate_chart(camps, f"{s['board']} 各阵营胜率（95% 区间）") if s["games"] else None,
            "role_chart": rate_chart(roles, f"{s['board']} 各角色胜率（95% 区间）") if s["games"] else None}


def policies() -> list[str]:
    from importlib.metadata import entry_points

    return sorted(ep.name for ep in entry_points(group="bansha.policies"))


def routes(site) -> list:
    """``GET /d/stats`` and ``POST /d/stats`` (a comparison with the simulator)."""
    from .director import field

    store = site.store
    # one simulation at a time per process: CPU for the pages (on the site: a test holds it)
    simulating = site.simulating = threading.Semaphore(1)

    def ctx(who: str, groups: list[dict], error: str = "", message: str = "", form: dict | None = None) -> dict:
        return {"director": who, "groups": [view(s) for s in groups], "error": error, "message": message,
                "policies": policies(), "max_games": MAX_SIM_GAMES,
                "form": form or {"games": str(DEFAULT_SIM_GAMES), "policy": "random", "group": ""}}

    async def collected(who: str) -> list[dict]:
        # off the event loop: a store of many games is read and replayed here
        return await asyncio.to_thread(lambda: summaries(store, site.own_games(who)))

    @get("/d/stats")
    async def stats_page(request: Request) -> Template:
        who = await site.run(lambda: site.director(request))
        return Template(template_name="stats.html", context=ctx(who, await collected(who)))

    @post("/d/stats")
    async def stats_compare(request: Request) -> Template:
        """The simulated rates of one table beside its real ones (``realstats.compare_sim``):
        at most MAX_SIM_GAMES games, in a worker thread, one simulation at a time."""
        from bansha_sim.realstats import compare_sim

        who = await site.run(lambda: site.director(request))
        form = await request.form()
        groups = await collected(who)
        kept = {"games": field(form, "games", "模拟局数", 100), "policy": field(form, "policy", "策略", 100),
                "group": field(form, "group", "桌型", 100)}
        try:
            games = parse_int(kept["games"], "模拟局数", "zh", 1, MAX_SIM_GAMES)
            if kept["policy"] not in policies():
                raise GameError(f"策略 {excerpt(kept['policy'])}：请从列表中选择（{'、'.join(policies())}）")
            chosen = next((s for s in groups if s["id"] == kept["group"] and s["games"]), None)
            if chosen is None:
                raise GameError("没有这个桌型的已结束游戏：请回到统计页重新选择")
            if not simulating.acquire(blocking=False):
                raise GameError("已有一个模拟在运行：请稍后再试")
            try:
                chosen["sim"] = await asyncio.to_thread(compare_sim, chosen, games, kept["policy"])
            finally:
                simulating.release()
        except GameError as exc:
            return Template(template_name="stats.html", context=ctx(who, groups, error=str(exc), form=kept),
                            status_code=422)
        message = f"已模拟 {chosen['board']} {chosen['seats']}人桌 {games} 局（策略 {kept['policy']}）"
        return Template(template_name="stats.html", context=ctx(who, groups, message=message, form=kept))

    return [stats_page, stats_compare]
