"""``bansha balance BOARD --target P --knob …``: search the settings of a board for those whose
camp wins closest to P (docs/balance.md "Searching for a fair board").

Every combination of the knobs' values is a candidate: the table (``seats=…``), a house rule
(``mafia=1,2``), an edit of the table (``pool:弱神=,-白猫``, ``draw:弱神=3,4``, ``fixed:黑侠=2,3``,
``role:龙侠=龙侠,侠士``: bansha_sim.boards). A combination the board cannot deal (cards that do
not fill the table) is left out and said. The candidates play in rounds on the same seeds (a
round of ``--batch`` games each: seeds S+n … of every candidate still running, so the candidates
are compared on common random numbers); after each round a candidate stops

- **off target** once its 99 % Wilson interval excludes the target;
- **fair** once its 98 % Wilson interval lies within the target ± ``--tolerance``: the two
  one-sided tests of equivalence at 1 % each (TOST), clearly among the best;
- **done** at ``--games``.

The default budget (``--games`` 20,000) lets an exactly fair candidate be called fair: at a rate
of 0.5 the 98 % interval is ± 0.02 wide at 3,383 games, and its centre wanders (a candidate at
the target ends fair after about 6,000 games on average); the old default of 2,000 could never
call one fair (4,142 games for the 99 % interval alone).

The state (each candidate's games and wins) is written after every round to ``--state``; a run
with the same arguments and state file carries on where the last one stopped (the games of a
candidate are its seeds in order, so the result is the one an uninterrupted run gives).
"""

from __future__ import annotations

import itertools
import json
import os
import re
from pathlib import Path
from typing import Any

import typer
from bansha.cli.help import App
from bansha.cli.table import path_of
from bansha.text.messages import extend

from . import cli as _sim_cli  # noqa: F401  (simulate's catalogue keys: h_sim_seats, h_sim_plot, …)
from .stats import Z95, wilson

Z99 = 2.5758293035489004
#: the two one-sided tests of equivalence at 1 % each: the 98 % two-sided interval
Z98 = 2.3263478740408408
#: the default budget of games a candidate (``--games``)
MAX_GAMES = 20_000

extend({
    "h_balance": ("在板子允许的设置中搜索胜率最接近目标的那些（序贯检验，可中断后继续，可用 Ray）。",
                  "Search a board's settings for those whose camp wins closest to the target (sequential tests, resumable, Ray-ready)."),
    "h_bal_target": ("目标胜率", "the target win rate"),
    "h_bal_camp": ("看哪个阵营的胜率（默认：清单中的第一个阵营）", "whose win rate (default: the manifest's first camp)"),
    "h_bal_knob": ("KEY=V1,V2,…（seats=8..12、房规、pool:牌池、draw:牌池、fixed:角色、role:角色）",
                   "KEY=V1,V2,… (seats=8..12, a house rule, pool:POOL, draw:POOL, fixed:ROLE, role:ROLE)"),
    "h_bal_games": ("每个候选最多进行多少局", "at most this many games a candidate"),
    "h_bal_batch": ("每轮每个候选进行的局数", "games a candidate plays each round"),
    "h_bal_tol": ("98% 区间落在目标 ± 此值以内即停止（公平，两个单侧等价检验各 1%）",
                  "stop (fair) once the 98 % interval lies within target ± this (two one-sided equivalence tests at 1 % each)"),
    "bal_tolerance": ("--tolerance 应大于 0 且小于 1", "--tolerance must be above 0 and below 1"),
    "h_bal_state": ("状态文件：每轮后写入，同样的参数再次运行时接着进行", "state file: written after each round, a run with the same arguments carries on"),
    "h_bal_top": ("报告最好的几个候选", "how many of the best candidates to report"),
    "bal_knob": ("--knob {knob}：应为 KEY=V1,V2,…", "--knob {knob}: expected KEY=V1,V2,…"),
    "bal_no_camp": ("没有阵营 {camp}（有：{camps}）", "no camp {camp} (there are: {camps})"),
    "bal_target": ("--target 应在 0 到 1 之间", "--target must be from 0 to 1"),
    "bal_none": ("没有一个候选能发牌：{why}", "no candidate can be dealt: {why}"),
    "bal_range": ("--knob …={spec}：范围应从小到大，至多 {most} 个值", "--knob …={spec}: a range runs upwards, at most {most} values"),
    "bal_state_bad": ("--state {file}：不是 bansha balance 写的状态文件", "--state {file}: not a state file bansha balance wrote"),
    "bal_state_unreadable": ("--state {file}：无法读取：{why}", "--state {file}: cannot read: {why}"),
    "bal_state_dir": ("--state {file}：是文件夹；应为状态文件的路径", "--state {file}: is a folder; give the state file's path"),
    "bal_knob_seats": ("--knob {knob}：seats 的值应为整数（如 seats=8..12 或 seats=8,10）", "--knob {knob}: seats takes whole numbers (seats=8..12 or seats=8,10)"),
    "bal_state": ("--state {file}：状态文件属于另一次搜索（参数不同）", "--state {file}: the state file is another search's (other arguments)"),
    "bal_head": ("{ruleset}：{camp} 的胜率，目标 {target}，{n} 个候选（{invalid} 个不能发牌），策略 {policy}",
                 "{ruleset}: {camp}'s win rate, target {target}, {n} candidates ({invalid} cannot be dealt), policy {policy}"),
    "bal_cand": ("候选", "candidate"),
    "bal_games": ("局数", "games"),
    "bal_rate": ("胜率 [95%]", "rate [95 %]"),
    "bal_status": ("状态", "status"),
    "bal_off": ("偏离目标", "off target"),
    "bal_fair": ("公平", "fair"),
    "bal_done": ("达到局数上限", "reached --games"),
    "bal_running": ("进行中", "running"),
})


#: the most values a ``--knob`` range A..B gives
MAX_RANGE = 100


def parse_values(spec: str) -> list[Any]:
    from .cli import _value

    if re.fullmatch(r"-?\d{1,18}\.\.-?\d{1,18}", spec):
        a, b = map(int, spec.split(".."))
        if not 0 <= b - a < MAX_RANGE:  # a range is a few table sizes, never a list of billions
            from bansha.text.messages import say

            from .cli import Refused

            raise Refused(say("bal_range", None, spec=spec, most=MAX_RANGE))
        return list(range(a, b + 1))
    return [_value(v) for v in spec.split(",")]


def candidates(ref: str, seats: int, options: dict, knobs: list[tuple[str, list]]) -> list[dict]:
    """Every combination of the knobs' values: {"label", "board", "seats", "options"}."""
    from .boards import is_edit

    out = []
    for combo in itertools.product(*[[(k, v) for v in vals] for k, vals in knobs]):
        s, opts, edits = seats, dict(options), []
        for k, v in combo:
            if k == "seats":
                s = int(v)
            elif is_edit(k):
                if v not in ("", None):
                    edits.append((k, str(v)))
            else:
                opts[k] = v
        board = (ref, tuple(edits)) if edits else ref
        label = " ".join(f"{k}={v}" for k, v in combo) or ref
        out.append({"label": label, "board": board, "seats": s, "options": opts})
    return out


def _read_state(state: Path) -> dict:
    """A state file as a previous round wrote it; a folder, an unreadable file or one that is
    not such a file is one line naming it (never the JSON decoder's English)."""
    from bansha.door.files import os_why, read_text
    from bansha.engine.model import GameError
    from bansha.text.messages import say

    from .cli import Refused

    try:
        saved = json.loads(read_text(state))
    except GameError:
        raise
    except (ValueError, UnicodeDecodeError):
        raise Refused(say("bal_state_bad", None, file=state)) from None
    except OSError as exc:
        raise Refused(say("bal_state_unreadable", None, file=state, why=os_why(exc))) from None
    if not isinstance(saved, dict) or not isinstance(saved.get("candidates"), list) or not all(
            isinstance(c, dict) and isinstance(c.get("label"), str) and isinstance(c.get("n"), int)
            and isinstance(c.get("wins"), int) for c in saved["candidates"]):
        raise Refused(say("bal_state_bad", None, file=state))
    return saved


def decide(c: dict, target: float, tol: float, max_games: int) -> str:
    p, lo, hi = wilson(c["wins"], c["n"], Z99)
    if c["n"] and (hi < target or lo > target):
        return "off"
    # equivalence: each one-sided test at 1 % (TOST), the 98 % interval within target ± tol
    _, lo, hi = wilson(c["wins"], c["n"], Z98)
    if c["n"] and lo >= target - tol and hi <= target + tol:
        return "fair"
    if c["n"] >= max_games:
        return "done"
    return "running"


def search(cands: list[dict], camp: str, target: float, tol: float, max_games: int, batch: int, seed: int,
           policy: str, days: int, jobs: int = 1, ray=None, state: Path | None = None, args_key: str = "",
           progress=None) -> list[dict]:
    from .run import run_specs

    if state is not None and state.exists():
        saved = _read_state(state)
        if saved.get("args") != args_key:
            raise ValueError(f"state:{state}")
        done = {c["label"]: c for c in saved["candidates"]}
        for c in cands:
            if c["label"] in done:
                c["n"], c["wins"] = done[c["label"]]["n"], done[c["label"]]["wins"]
    for c in cands:
        c.setdefault("n", 0)
        c.setdefault("wins", 0)
        c["status"] = decide(c, target, tol, max_games)
    while True:
        active = [c for c in cands if c["status"] == "running"]
        if not active:
            break
        specs = [(c["board"], c["seats"], range(seed + c["n"], seed + min(c["n"] + batch, max_games)), policy,
                  c["options"], days) for c in active]
        for c, recs in zip(active, run_specs(specs, jobs, ray), strict=True):
            c["n"] += len(recs)
            c["wins"] += sum(camp in r["winners"] and not r["draw"] for r in recs)
            c["status"] = decide(c, target, tol, max_games)
        if state is not None:
            tmp = state.with_suffix(state.suffix + ".tmp")
            tmp.write_text(json.dumps({"args": args_key, "candidates": [
                {"label": c["label"], "n": c["n"], "wins": c["wins"]} for c in cands]}, ensure_ascii=False),
                encoding="utf-8")
            os.replace(tmp, state)  # whole or not at all: an interrupted write leaves the last round's
        if progress:
            progress(cands)
    for c in cands:
        p, lo, hi = wilson(c["wins"], c["n"], Z95)
        c["rate"] = {"p": p, "low": lo, "high": hi}
    return sorted(cands, key=lambda c: (abs(c["rate"]["p"] - target), -c["n"], c["label"]))


balance = App()


@balance.command(help="h_balance")
def balance_command(
    board: str = typer.Argument(..., help="h_ruleset_ref"),
    target: float = typer.Option(0.5, "--target", help="h_bal_target"),
    camp: str = typer.Option(None, "--camp", help="h_bal_camp"),
    knob: list[str] = typer.Option([], "--knob", help="h_bal_knob"),
    seats: int = typer.Option(None, "--seats", help="h_sim_seats"),
    option: list[str] = typer.Option([], "--option", help="h_option"),
    games: int = typer.Option(MAX_GAMES, "--games", help="h_bal_games"),
    batch: int = typer.Option(200, "--batch", help="h_bal_batch"),
    tolerance: float = typer.Option(0.02, "--tolerance", help="h_bal_tol"),
    seed: int = typer.Option(0, "--seed", help="h_sim_seed"),
    policy: str = typer.Option("random", "--policy", help="h_sim_policy"),
    jobs: int = typer.Option(None, "--jobs", help="h_sim_jobs"),
    ray: str = typer.Option(None, "--ray", help="h_sim_ray"),
    days: int = typer.Option(30, "--days", help="h_sim_days"),
    state: Path = typer.Option(None, "--state", help="h_bal_state", parser=path_of),
    top: int = typer.Option(5, "--top", help="h_bal_top"),
    plot: Path = typer.Option(None, "--plot", help="h_sim_plot", parser=path_of),
    as_json: bool = typer.Option(False, "--json", help="h_json"),
) -> None:
    """Search a board's settings for those closest to the target."""
    from bansha.cli.cli import fail
    from bansha.engine.model import GameError

    from .cli import Refused

    seen: list[str | None] = [None]
    try:
        _balance(board, target, camp, knob, seats, option, games, batch, tolerance, seed, policy, jobs, ray, days,
                 state, top, plot, as_json, seen)
    except (Refused, GameError, ValueError) as exc:
        fail(str(exc), as_json, seen[0])


def _balance(board, target, camp, knob, seats, option, games, batch, tolerance, seed, policy, jobs, ray, days,
             state, top, plot, as_json, seen):
    from bansha.engine.model import GameError
    from bansha.engine.registry import checked_ruleset
    from bansha.text.messages import join, say

    from .cli import MAX_COUNT, Refused, _kv
    from .play import new_game
    from .policies import load_policy

    for flag, n in (("--games", games), ("--batch", batch), ("--days", days), ("--jobs", jobs), ("--top", top)):
        if n is not None and n < 1:
            raise Refused(say("sim_at_least", None, flag=flag))
        if n is not None and n > MAX_COUNT:
            raise Refused(say("sim_at_most", None, flag=flag, most=MAX_COUNT))
    if not 0 <= target <= 1:
        raise Refused(say("bal_target", None))
    if not 0 < tolerance < 1:
        raise Refused(say("bal_tolerance", None))
    if plot is not None and plot.suffix.lower() not in (".png", ".svg"):
        raise Refused(say("sim_plot_ext", None, file=plot))
    knobs = []
    for k in knob:
        key, sep, vals = k.partition("=")
        if not sep or not key:
            raise Refused(say("bal_knob", None, knob=k))
        values = parse_values(vals)
        if key == "seats" and not all(isinstance(v, int) and not isinstance(v, bool) for v in values):
            raise Refused(say("bal_knob_seats", None, knob=k))
        knobs.append((key, values))
    if state is not None and state.is_dir():
        raise Refused(say("bal_state_dir", None, file=state))
    opts = _kv(option, "--option")
    from importlib.metadata import entry_points

    names = sorted(ep.name for ep in entry_points(group="bansha.policies"))
    if policy not in names:
        raise Refused(say("sim_policy", None, name=policy, known=join(names, None)))
    load_policy(policy)
    rs = checked_ruleset(board)  # the one validator, as `new` checks the board
    m = rs.manifest
    lang = seen[0] = m.language
    ref = board if (board.endswith(".toml") or "/" in board) else m.id
    camps = [c.name for c in m.camps]
    camp = camp or camps[0]
    if camp not in camps:
        raise Refused(say("bal_no_camp", lang, camp=camp, camps=join(camps, lang)))
    seats = seats or m.tables[0].seats
    cands, invalid = [], []
    for c in candidates(ref, seats, opts, knobs):
        try:
            new_game(c["board"], c["seats"], seed, c["options"])
        except (GameError, ValueError, TypeError) as exc:
            invalid.append((c["label"], str(exc)))
            continue
        cands.append(c)
    if not cands:
        raise Refused(say("bal_none", lang, why=invalid[0][1] if invalid else "—"))
    args_key = json.dumps([ref, camp, target, tolerance, games, batch, seed, policy, days, opts, knobs],
                          ensure_ascii=False, default=str)
    try:
        ranked = search(cands, camp, target, tolerance, games, batch, seed, policy, days,
                        jobs=jobs or os.cpu_count() or 1, ray=(None if ray is None else ("" if ray == "local" else ray)),
                        state=state, args_key=args_key)
    except ValueError as exc:
        if str(exc).startswith("state:"):
            raise Refused(say("bal_state", lang, file=state)) from None
        raise
    out = {"ruleset": m.id, "camp": camp, "target": target, "tolerance": tolerance, "policy": policy,
           "max_games": games, "batch": batch, "seed": seed,
           "invalid": [{"label": label, "why": why} for label, why in invalid],
           "candidates": [{k: c[k] for k in ("label", "seats", "options", "n", "wins", "rate", "status")} | {
               "board": c["board"] if isinstance(c["board"], str) else {"ref": c["board"][0], "edits": dict(c["board"][1])}}
               for c in ranked]}
    out["best"] = out["candidates"][:top]
    if plot is not None:
        aliases = {r.name: r.alias for r in rs.roles.values() if r.alias}
        aliases.update({c.name: c.alias for c in m.camps if c.alias})
        _plot(plot, ranked[:max(top, 10)], target, m.id, aliases.get(camp, camp), aliases)
        out["plot"] = str(plot)
    if as_json:
        typer.echo(json.dumps(out, ensure_ascii=False, indent=1))
        return
    from rich.console import Console
    from rich.table import Table

    con = Console()
    con.print("[bold]" + say("bal_head", lang, ruleset=m.id, camp=camp, target=target, n=len(cands),
                               invalid=len(invalid), policy=policy) + "[/bold]")
    t = Table(say("bal_cand", lang), say("bal_games", lang), say("bal_rate", lang), say("bal_status", lang))
    for c in ranked[:top]:
        r = c["rate"]
        t.add_row(c["label"], str(c["n"]), f"{r['p'] * 100:5.1f} % [{r['low'] * 100:5.1f}, {r['high'] * 100:5.1f}]",
                  say({"off": "bal_off", "fair": "bal_fair", "done": "bal_done"}.get(c["status"], "bal_running"), lang))
    con.print(t)


def plot_label(c: dict, aliases: dict[str, str]) -> str:
    """A candidate's settings as a plot labels it: each name the board gives an ASCII alias (a
    role, a camp) written as the alias."""
    label = c["label"]
    for name in sorted(aliases, key=len, reverse=True):
        label = label.replace(name, aliases[name])
    return label


def _plot(path: Path, ranked: list[dict], target: float, rid: str, camp_alias: str, aliases: dict | None = None):
    import matplotlib

    matplotlib.use("Agg")
    # an SVG's labels as text, not glyph outlines: searchable, and drawn in the reader's fonts
    matplotlib.rcParams["svg.fonttype"] = "none"
    import matplotlib.pyplot as plt

    aliases = aliases or {}
    fig, ax = plt.subplots(figsize=(9, 0.4 * len(ranked) + 1.5))
    ys = list(range(len(ranked)))[::-1]
    ps = [c["rate"]["p"] for c in ranked]
    err = [[max(0.0, p - c["rate"]["low"]) for p, c in zip(ps, ranked, strict=True)],
           [max(0.0, c["rate"]["high"] - p) for p, c in zip(ps, ranked, strict=True)]]
    ax.errorbar(ps, ys, xerr=err, fmt="o", capsize=3)
    ax.axvline(target, color="grey", linestyle="--")
    # labelled by their settings, a role's name by its ASCII alias (a machine without a CJK
    # font still draws it), with the games played
    ax.set_yticks(ys, [f"{plot_label(c, aliases)} (n={c['n']})" for c in ranked])
    ax.set_xlabel("win rate (95 % Wilson)")
    ax.set_xlim(0, 1)
    fig.suptitle(f"{rid}: {camp_alias}'s win rate, the candidates closest to {target}")
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)
