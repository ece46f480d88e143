"""``bansha stats [BOARD]``: the finished games of a store, their win rates per camp and per role
with intervals, lengths and causes of exit; ``--compare-sim`` plays the same board at the same
table with policies and says where the real games disagree (docs/simulate.md "Real games").

A game counts when it has ended (a camp won, or a draw) and no player was removed or
substituted by the director (``bansha ruling remove|substitute``: the seat's play is not the
game's). The simulator's own stored games (``--keep``: ``sim-…``) are not real games and are
left out too. Games are grouped by board and table (ruleset, seats and house rules).
"""

from __future__ import annotations

import json
import math
from typing import Any

import typer
from bansha.cli.help import App
from bansha.text.messages import extend

from .stats import aggregate, holm, seat_records, wilson

extend({
    "h_stats": ("统计游戏库中已结束的真实游戏：各阵营、各角色的胜率（95% 区间）、天数、出局原因。",
                "The finished real games of a store: win rates per camp and per role (95 % intervals), lengths, causes of exit."),
    "h_stats_board": ("只统计这个规则（id 或清单文件）", "only this ruleset (an id or a manifest file)"),
    "h_stats_compare": ("在同样的桌型上模拟，并标出与真实胜率不符之处", "simulate the same table and flag where the real rates disagree"),
    "h_stats_sim_games": ("--compare-sim 模拟的局数", "games simulated for --compare-sim"),
    "h_stats_policy": ("--compare-sim 所用的策略", "the policy of --compare-sim"),
    "st_head": ("{ruleset}，{seats}人桌{options}：已结束 {games} 局", "{ruleset} at {seats} seats{options}: {games} finished games"),
    "st_skipped": ("未计入：未结束 {unfinished} 局，有玩家被移除或替换 {removed} 局，模拟保存的 {sim} 局",
                   "left out: {unfinished} unfinished, {removed} with a removed or substituted player, {sim} kept by the simulator"),
    "st_none": ("没有已结束的真实游戏", "no finished real game"),
    "st_real": ("真实胜率 [95%]", "real rate [95 %]"),
    "st_sim": ("模拟胜率 [95%]（{n} 局，{policy}）", "simulated [95 %] ({n} games, {policy})"),
    "st_flag": ("差异", "differs"),
    "st_disagree": ("不符", "disagrees"),
    "st_lengths": ("平均 {mean} 天；游戏天数：{lengths}", "mean {mean} days; length in days: {lengths}"),
    "st_causes": ("出局原因：{causes}", "causes of exit: {causes}"),
})


def record_of(game) -> dict[str, Any]:
    """A stored game as the simulator's record (``play.play_game``)."""
    winners = list(game.winner or [])
    causes: dict[str, int] = {}
    for _, _, kind in game.exits:  # as the simulator counts them (``Game.exits``)
        causes[kind] = causes.get(kind, 0) + 1
    return {"seed": game.setup.seed, "winners": winners, "draw": bool(game.draw),
            "unfinished": game.winner is None and not game.draw, "stuck": False, "days": game.day,
            "players": seat_records(game),
            "causes": causes}


def collect(store, board: str | None = None, names: list[str] | None = None) -> dict[tuple, dict]:
    """Per (ruleset, seats, options): the records of the counted games, and what was left out.
    ``names``: only these games of the store (the web console: a director's own)."""
    from bansha.engine.model import RulingEvent
    from bansha.engine.registry import find_manifest

    want = find_manifest(board).id if board else None
    groups: dict[tuple, dict] = {}
    for name in (store.names() if names is None else names):
        setup = store.setup(name)
        if want is not None and setup.ruleset != want:
            continue
        key = (setup.ruleset, len(setup.players), json.dumps(setup.options, sort_keys=True, ensure_ascii=False))
        g = groups.setdefault(key, {"records": [], "names": [], "unfinished": 0, "removed": 0, "sim": 0,
                                    "language": setup.manifest.language,
                                    "camps": [c.name for c in setup.manifest.camps], "options": setup.options})
        if name.startswith("sim-"):
            g["sim"] += 1
            continue
        if any(isinstance(ev, RulingEvent) and ev.kind in ("remove", "substitute") for ev in store.events(name)):
            g["removed"] += 1
            continue
        game = store.load(name)
        r = record_of(game)
        if r["unfinished"]:
            g["unfinished"] += 1
            continue
        g["records"].append(r)
        g["names"].append(name)
    return groups


def two_proportions(k1: float, n1: float, k2: float, n2: float) -> float:
    """The two-sided p-value of the difference of two proportions (pooled normal test); a
    role's seats come at their effective size (``stats.clustered``), so k and n may be
    fractional."""
    if not n1 or not n2:
        return 1.0
    p = (k1 + k2) / (n1 + n2)
    se = math.sqrt(p * (1 - p) * (1 / n1 + 1 / n2))
    if se == 0:
        return 1.0
    z = abs(k1 / n1 - k2 / n2) / se
    return math.erfc(z / math.sqrt(2))


def summary(key: tuple, g: dict) -> dict[str, Any]:
    ruleset, seats, _ = key
    recs = g["records"]
    agg = aggregate(recs, g["camps"])
    # per role: the seats' rate with the interval of stats.clustered (a game's seats win together)
    roles = {role: {k: r[k] for k in ("n", "wins", "win_rate", "low", "high", "n_eff", "survival_rate")}
             for role, r in agg["roles"].items()}
    return {"ruleset": ruleset, "seats": seats, "options": g["options"], "games": len(recs), "names": g["names"],
            "left_out": {"unfinished": g["unfinished"], "removed": g["removed"], "sim": g["sim"]},
            "wins": agg["wins"], "rates": agg["rates"], "draws": agg["draws"], "mean_days": agg["mean_days"],
            "days": agg["days"], "roles": roles, "causes": agg["causes"]}


def compare_sim(s: dict, games: int, policy: str, jobs: int = 1, alpha: float = 0.05) -> dict[str, Any]:
    """The same board and table simulated; per camp and role, the simulated rate and whether the
    real one differs from it: a two-proportion test of each row, the rows of a group tested
    together at ``alpha`` (5 %) by Holm's step-down rule (``stats.holm``: the chance that any
    row of a board that agrees is marked 不符 is at most ``alpha``, where testing each row at 5 %
    marked one in a few runs of the simulator against itself). ``p_value``: the row's own;
    ``p_adjusted``: Holm's, which ``disagrees`` compares with ``alpha``."""
    from .run import run

    recs = run(s["ruleset"], s["seats"], games, 0, policy, dict(s["options"]), 30, jobs=jobs)
    agg = aggregate(recs, list(s["rates"]))
    out = {"games": games, "policy": policy, "alpha": alpha, "correction": "holm", "rates": {}, "roles": {}}
    rows = []
    for c in s["rates"]:
        k = agg["wins"].get(c, 0)
        p, lo, hi = wilson(k, games)
        out["rates"][c] = {"p": p, "low": lo, "high": hi,
                           "p_value": two_proportions(s["wins"].get(c, 0), s["games"], k, games)}
        rows.append(out["rates"][c])
    for role, r in s["roles"].items():
        sr = agg["roles"].get(role)
        if sr is None:
            continue
        pv = two_proportions(r["win_rate"] * r["n_eff"], r["n_eff"], sr["win_rate"] * sr["n_eff"], sr["n_eff"])
        out["roles"][role] = {"win_rate": sr["win_rate"], "low": sr["low"], "high": sr["high"], "p_value": pv}
        rows.append(out["roles"][role])
    for row, adj in zip(rows, holm([row["p_value"] for row in rows]), strict=True):
        row["p_adjusted"] = adj
        row["disagrees"] = adj < alpha
    return out


stats = App()


@stats.command(help="h_stats")
def stats_command(
    board: str = typer.Argument(None, help="h_stats_board"),
    db: str = typer.Option(None, "--db", envvar="BANSHA_DB", help="h_db"),
    compare: bool = typer.Option(False, "--compare-sim", help="h_stats_compare"),
    sim_games: int = typer.Option(1000, "--sim-games", help="h_stats_sim_games"),
    policy: str = typer.Option("random", "--policy", help="h_stats_policy"),
    as_json: bool = typer.Option(False, "--json", help="h_json"),
) -> None:
    """The finished real games of a store and their win rates."""
    from bansha.cli.cli import fail
    from bansha.engine.model import GameError

    try:
        _stats(board, db, compare, sim_games, policy, as_json)
    except (GameError, ValueError) as exc:
        fail(str(exc), as_json, None)


def _stats(board, db, compare, sim_games, policy, as_json):
    from bansha.store.store import open_store
    from bansha.text.messages import say

    from . import cli as _sim_cli  # noqa: F401  (the simulator's catalogue keys: sim_camp, …)

    if sim_games < 1:
        raise ValueError(say("sim_at_least", None, flag="--sim-games"))
    if compare:
        from .policies import load_policy

        load_policy(policy)
    if board is not None:
        from bansha.engine.registry import find_manifest

        find_manifest(board)  # an unknown board is refused before the store is read
    store = open_store(db, cache=False)
    groups = collect(store, board)
    out = []
    for key, g in sorted(groups.items()):
        s = summary(key, g)
        if compare and s["games"]:
            s["sim"] = compare_sim(s, sim_games, policy)
        s["language"] = g["language"]
        out.append(s)
    if as_json:
        typer.echo(json.dumps({"groups": [{k: v for k, v in s.items() if k != "language"} for s in out]},
                              ensure_ascii=False, indent=1))
        return
    _report(out)


def _pct(p, lo, hi):
    return f"{p * 100:5.1f} % [{lo * 100:5.1f}, {hi * 100:5.1f}]"


def _report(groups):
    from bansha.show.explain import cause
    from bansha.text.messages import join, say
    from rich.console import Console
    from rich.table import Table

    con = Console()
    if not groups:
        con.print(say("st_none", None))
    for s in groups:
        lang = s["language"]
        opts = "".join(f"，{k}={v}" for k, v in s["options"].items())
        con.print(f"[bold]{say('st_head', lang, ruleset=s['ruleset'], seats=s['seats'], options=opts, games=s['games'])}[/bold]")
        lo = s["left_out"]
        con.print(say("st_skipped", lang, unfinished=lo["unfinished"], removed=lo["removed"], sim=lo["sim"]))
        if not s["games"]:
            continue
        sim = s.get("sim")
        cols = [say("sim_camp", lang), say("sim_wins", lang), say("st_real", lang)]
        if sim:
            cols += [say("st_sim", lang, n=sim["games"], policy=sim["policy"]), say("st_flag", lang)]
        t = Table(*cols)
        for c, r in s["rates"].items():
            row = [c, str(s["wins"][c]), _pct(r["p"], r["low"], r["high"])]
            if sim:
                q = sim["rates"][c]
                row += [_pct(q["p"], q["low"], q["high"]), say("st_disagree", lang) if q["disagrees"] else ""]
            t.add_row(*row)
        con.print(t)
        cols = [say("sim_role", lang), say("sim_dealt", lang), say("sim_win_rate", lang)]
        if sim:
            cols += [say("st_sim", lang, n=sim["games"], policy=sim["policy"]), say("st_flag", lang)]
        t = Table(*cols)
        for role, r in s["roles"].items():
            row = [role, str(r["n"]), _pct(r["win_rate"], r["low"], r["high"])]
            if sim and role in sim["roles"]:
                q = sim["roles"][role]
                row += [_pct(q["win_rate"], q["low"], q["high"]), say("st_disagree", lang) if q["disagrees"] else ""]
            t.add_row(*row)
        con.print(t)
        lengths = join((say("sim_length", lang, days=d, count=n) for d, n in s["days"].items()), lang)
        con.print(say("st_lengths", lang, mean=f"{s['mean_days']:.2f}", lengths=lengths))
        con.print(say("st_causes", lang, causes=join((f"{cause(k, lang)} {n}" for k, n in s["causes"].items()), lang)) + "\n")


