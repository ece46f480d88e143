"""``bansha simulate``: a board's balance by Monte Carlo (docs/simulate.md).

Imported only when ``bansha simulate`` is typed (or the top-level help is asked for): the
workers, rich, matplotlib and Ray are imported in the command's body.

The entry point ``simulate`` is a typer app of one command, so that its help is given by
catalogue keys (added to the kernel's catalogue by ``extend``, or the kernel's own:
``h_ruleset_ref``, ``h_option``): ``bansha simulate --help`` speaks ``BANSHA_LANG``, else
Chinese, like the kernel's commands.
"""

from __future__ import annotations

import json
import os
import re
import sys
import time
from pathlib import Path
from typing import Any

import typer
from bansha.cli.help import App
from bansha.cli.table import path_of
from bansha.text.messages import extend

extend({
    "h_simulate": ("让策略扮演玩家，进行 GAMES 局 RULESET 的游戏，并报告平衡性。",
                   "Play GAMES games of RULESET with policies as players and report the balance."),
    "h_sim_boards": ("规则 id 或清单文件；给出多个时，在同样的种子上逐一比较",
                     "ruleset ids or manifest files; given several, they are compared on the same seeds"),
    "sim_compare": ("与 {first} 的配对差（同样的种子）：{diffs}", "paired difference vs {first} (same seeds): {diffs}"),
    "sim_pp_both": ("{camp} {diff} 个百分点 [{low}, {high}]（不配对 [{ulow}, {uhigh}]）",
                    "{camp} {diff} pp [{low}, {high}] (unpaired [{ulow}, {uhigh}])"),
    "h_sim_seats": ("桌型人数（默认：清单中的第一个桌型）", "table size (default: the manifest's first table)"),
    "h_sim_games": ("进行多少局", "how many games"),
    "h_sim_seed": ("第 i 局以种子 S+i 发牌和进行", "game i is dealt and played with seed S+i"),
    "h_sim_jobs": ("工作进程数（默认：CPU 核数）", "worker processes (default: the cores)"),
    "h_sim_policy": ("random、informed，或已安装的 bansha.policies 插件", "random, informed, or an installed bansha.policies plugin"),
    "h_sim_vary": ("KEY=V1,V2,…：同样的种子在每个取值下各进行一遍", "KEY=V1,V2,…: the same seeds under each value"),
    "h_sim_keep": ("保存前 N 局（可用 status、log --explain 查看）", "store the first N games (open with status, log --explain)"),
    "h_sim_plot": ("FILE.png 或 FILE.svg：胜率和游戏长度的直方图", "FILE.png or FILE.svg: win rates and the length histogram"),
    "h_sim_json": ("以 JSON 输出结果", "print the result as JSON"),
    "h_sim_ray": ("以 Ray 任务运行：集群地址 ADDRESS，或 'local'", "run as Ray tasks: a cluster ADDRESS, or 'local'"),
    "h_sim_days": ("天数上限：超过后仍在进行的游戏算作未结束", "day limit: a game still going after it is unfinished"),
    "h_sim_db": ("游戏数据库文件（用于 --keep）", "game database file (for --keep)"),
    # refusals: said like the kernel's (bansha.cli.cli.fail); those of the command line itself
    # before any board is known (BANSHA_LANG, else Chinese), the others in the board's language
    "sim_at_most": ("{flag} 至多为 {most}", "{flag} must be at most {most}"),
    "sim_at_least": ("{flag} 至少为 1", "{flag} must be at least 1"),
    "sim_keep": ("--keep 应在 0 到 --games 之间", "--keep must be from 0 to --games"),
    "sim_plot_ext": ("--plot {file}：文件名应以 .png 或 .svg 结尾", "--plot {file}: the file must end in .png or .svg"),
    "sim_needs": ("{flag} 需要 {what}：pip install '{extra}'", "{flag} needs {what}: pip install '{extra}'"),
    "sim_policy": ("没有策略 {name}（已安装：{known}）", "unknown policy {name} (installed: {known})"),
    # the report (text): in the board's language
    "sim_head": ("{ruleset}，{seats}人桌，{games}局，策略 {policy}，种子 {first}…{last}",
                 "{ruleset} at {seats} seats, {games} games, policy {policy}, seeds {first}…{last}"),
    "sim_camp": ("阵营", "camp"),
    "sim_wins": ("胜局", "wins"),
    "sim_rate": ("胜率 [95% Wilson 区间]", "rate [95 % Wilson]"),
    "sim_ends": ("平局 {draws}，未结束 {unfinished}（天数上限 {limit}）", "draws {draws}, unfinished {unfinished} (day limit {limit})"),
    "sim_mean": ("，平均 {mean} 天", ", mean length {mean} days"),
    "sim_none_ended": ("，没有一局结束", ", no game finished"),
    "sim_lengths": ("游戏天数：{lengths}", "length in days: {lengths}"),
    "sim_length": ("{days}天 {count}局", "{days}: {count}"),
    "sim_role": ("角色", "role"),
    "sim_dealt": ("发牌次数", "seats dealt"),
    "sim_win_rate": ("胜率 [95% 区间，按局计]", "win rate [95 %, by game]"),
    "sim_survival": ("存活率", "survival"),
    "sim_causes": ("死因：{causes}", "causes of death: {causes}"),
    "sim_paired": ("与 {vary} 的配对差：{diffs}", "paired difference vs {vary}: {diffs}"),
    "sim_pp": ("{camp} {diff} 个百分点 [{low}, {high}]", "{camp} {diff} pp [{low}, {high}]"),
    "sim_speed": ("每秒 {rate} 局", "{rate} games/s"),
    "sim_vary": ("--vary {vary}：应为 KEY=V1,V2,…，至少两个取值", "--vary {vary}: expected KEY=V1,V2,… with two values or more"),
    "h_sim_effects": ("每个角色的作用：换成本阵营的普通角色（同样的种子）时各阵营胜率的配对变化，及其技能的使用次数",
                      "each role's effect: the paired change in each camp's rate when it is replaced by its camp's plain role (same seeds), and its skills' uses"),
    "sim_effects_alone": ("--role-effects 只用于一个板子，不能与 --vary 同用", "--role-effects takes one board and no --vary"),
    "sim_effects_head": ("角色作用（有该角色减去换成本阵营普通角色，同样的种子，95% 配对精确区间）",
                         "role effects (with the role minus with its camp's plain role, same seeds, 95 % exact paired interval)"),
    "sim_effects_none": ("没有可比较的角色：每个阵营都需要一个没有技能的普通角色", "no role to weigh: a camp needs a plain role (one with no skill)"),
    "sim_replaced": ("换成", "replaced by"),
    "sim_skill_uses": ("技能使用（每局次数，使用过的局数）", "skills used (per game, games used in)"),
    "sim_skill_use": ("{skill} {per_game}次/局（{games}局）", "{skill} {per_game}/game ({games} games)"),
    "sim_effect_pp": ("{diff} 个百分点 [{low}, {high}]", "{diff} pp [{low}, {high}]"),
})


class Refused(Exception):
    """A refusal of the command, already in its words (the catalogue's)."""


#: the most games (days, jobs) one command asks for
MAX_COUNT = 10_000_000


def _value(v: str) -> Any:
    if re.fullmatch(r"-?\d{1,18}", v):  # longer: text, never a 5,000-digit int()
        return int(v)
    if re.fullmatch(r"-?\d{1,300}\.\d*", v):
        return float(v)
    return {"true": True, "false": False}.get(v, v)


def _kv(pairs: list[str], flag: str) -> dict[str, Any]:
    from bansha.text.messages import say

    out = {}
    for pair in pairs:
        k, sep, v = pair.partition("=")
        if not sep or not k:
            raise Refused(say("kv_expected", None, flag=flag, pair=pair))
        out[k] = _value(v)
    return out


simulate = App()


@simulate.command(help="h_simulate")
def simulate_command(
    ruleset: list[str] = typer.Argument(..., help="h_sim_boards"),
    seats: int = typer.Option(None, "--seats", help="h_sim_seats"),
    games: int = typer.Option(1000, "--games", help="h_sim_games"),
    seed: int = typer.Option(0, "--seed", help="h_sim_seed"),
    jobs: int = typer.Option(None, "--jobs", help="h_sim_jobs"),
    policy: str = typer.Option("random", "--policy", help="h_sim_policy"),
    option: list[str] = typer.Option([], "--option", help="h_option"),
    vary: str = typer.Option(None, "--vary", help="h_sim_vary"),
    keep: int = typer.Option(0, "--keep", help="h_sim_keep"),
    plot: Path = typer.Option(None, "--plot", help="h_sim_plot", parser=path_of),
    as_json: bool = typer.Option(False, "--json", help="h_sim_json"),
    ray: str = typer.Option(None, "--ray", help="h_sim_ray"),
    days: int = typer.Option(30, "--days", help="h_sim_days"),
    db: Path = typer.Option(None, "--db", envvar="BANSHA_DB", help="h_sim_db", parser=path_of),
    role_effects: bool = typer.Option(False, "--role-effects", help="h_sim_effects"),
) -> None:
    """Play GAMES games of RULESET with policies as players and report the balance."""
    from bansha.engine.model import GameError

    seen: list[str | None] = [None]  # the board's language, once the ruleset is known
    try:
        _simulate(ruleset, seats, games, seed, jobs, policy, option, vary, keep, plot, as_json, ray, days, db, seen,
                  role_effects)
    except (Refused, GameError, ValueError) as exc:
        from bansha.cli.cli import (
            fail,  # loaded: `bansha simulate` is reached through bansha.cli.cli
        )

        fail(str(exc), as_json, seen[0])  # one line 错误：…, or a JSON object; exit 2


def _simulate(ruleset, seats, games, seed, jobs, policy, option, vary, keep, plot, as_json, ray, days, db, seen,
              role_effects=False):
    from bansha.engine.options import check_options
    from bansha.engine.registry import checked_ruleset, find_manifest
    from bansha.text.messages import join, say

    from .policies import load_policy
    from .run import run
    from .stats import aggregate, paired

    # the command line's own mistakes first: no board is known yet (BANSHA_LANG, else Chinese)
    for flag, n in (("--games", games), ("--days", days), ("--jobs", jobs)):
        if n is not None and n < 1:
            raise Refused(say("sim_at_least", None, flag=flag))
        if n is not None and n > MAX_COUNT:  # 99999999999 games: a list of seeds no memory holds
            raise Refused(say("sim_at_most", None, flag=flag, most=MAX_COUNT))
    if not 0 <= seed <= 2**63 - games:  # game i is played with seed S+i: each a game's seed
        raise Refused(say("seed_range", None, seed=seed))
    if keep < 0 or keep > games:
        raise Refused(say("sim_keep", None))
    if plot is not None and plot.suffix.lower() not in (".png", ".svg"):
        raise Refused(say("sim_plot_ext", None, file=plot))
    if plot is not None:  # before the games are played, not after
        import importlib.util

        if importlib.util.find_spec("matplotlib") is None:
            raise Refused(say("sim_needs", None, flag="--plot", what="matplotlib", extra="bansha-sim[plot]"))
    refs = list(ruleset) if isinstance(ruleset, (list, tuple)) else [ruleset]
    if role_effects and (vary or len(refs) > 1):
        raise Refused(say("sim_effects_alone", None))
    opts = _kv(option, "--option")
    vkey, values = None, []
    if vary:
        vkey, sep, vals = vary.partition("=")
        from .boards import is_edit as _is_edit

        # an edit's value may be empty (the board as it is): `--vary pool:弱神=,-白猫-熊`
        values = vals.split(",") if _is_edit(vkey) else [v for v in vals.split(",") if v]
        if not sep or not vkey or len(values) < 2:
            raise Refused(say("sim_vary", None, vary=vary))
    from importlib.metadata import entry_points

    policies = sorted(ep.name for ep in entry_points(group="bansha.policies"))
    if policy not in policies:
        raise Refused(say("sim_policy", None, name=policy, known=join(policies, None)))
    if ray is not None:
        os.environ.setdefault("RAY_ENABLE_UV_RUN_RUNTIME_ENV", "0")  # see run.py
        try:
            import ray as _ray  # noqa: F401
        except ImportError:
            raise Refused(say("sim_needs", None, flag="--ray", what="Ray", extra="bansha-sim[ray]")) from None
    from .boards import is_edit, manifest_of

    # a board: an installed ruleset's id, or a manifest file (kept as a path for the workers)
    boards = [r if (r.endswith(".toml") or "/" in r) else find_manifest(r).id for r in refs]
    m = find_manifest(refs[0])
    for b in boards:
        checked_ruleset(b)  # the one validator, as `new` checks the board
    lang = seen[0] = m.language  # from here on, the (first) board's language
    sizes = [t.seats for t in m.tables]
    if seats is None:
        seats = sizes[0]
    for b in boards:
        mb = manifest_of(b)
        bsizes = [t.seats for t in mb.tables]
        if seats not in bsizes:
            raise Refused(say("no_table", lang, ruleset=mb.id, seats=seats, sizes=join(bsizes, lang)))
    load_policy(policy)
    # an unknown house rule in the kernel's words (its values are checked by new_game below)
    check_options(m, {k: m.options[k] if k in m.options else v for k, v in opts.items()}, "--option", lang)
    if vkey is not None and not is_edit(vkey):
        check_options(m, {vkey: m.options.get(vkey)}, "--vary", lang)
    # variants: (label, board, options); label None for a single board
    variants: list[tuple[Any, Any, dict]] = [(None, boards[0], opts)]
    if len(boards) > 1:
        if vary:
            raise Refused(say("sim_vary", None, vary=vary))
        variants = [(ref, b, opts) for ref, b in zip(refs, boards, strict=True)]
        vkey = "board"
    elif vary and is_edit(vkey):
        variants = [(v, (boards[0], ((vkey, v),)) if v else boards[0], opts) for v in values]
    elif vary:
        variants = [(v, boards[0], {**opts, vkey: _value(v)}) for v in values]
    jobs = jobs or os.cpu_count() or 1
    camps = [c.name for c in m.camps]
    for _, b, _o in variants[1:]:
        camps += [c.name for c in manifest_of(b).camps if c.name not in camps]
    # a bad option value (or edit) is refused before any worker starts
    from .play import new_game

    for _, b, o in variants:
        new_game(b, seats, seed, o)

    show = not as_json and sys.stderr.isatty()
    results = []
    t0 = time.perf_counter()
    total = games * len(variants)
    if role_effects:
        from .effects import weighed_roles

        total += games * len(weighed_roles(boards[0], seats))
    progress = None
    bar = None
    if show:
        from rich.console import Console
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            Progress,
            TextColumn,
            TimeRemainingColumn,
        )

        bar = Progress(TextColumn(f"{m.id} ×{seats}"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                       transient=True, console=Console(stderr=True))
        bar.start()
        task = bar.add_task("games", total=total)

        def progress(k):
            bar.advance(task, k)
    try:
        for value, board, o in variants:
            tv = time.perf_counter()
            recs = run(board, seats, games, seed, policy, o, days, jobs=jobs,
                       ray=(None if ray is None else ("" if ray == "local" else ray)), progress=progress)
            agg = aggregate(recs, [c.name for c in manifest_of(board).camps])
            agg["seconds"] = time.perf_counter() - tv
            results.append((value, o, recs, agg))
        effects = None
        if role_effects:
            from .effects import role_effects as _effects

            effects = _effects(boards[0], seats, results[0][2], camps,
                               lambda b: run(b, seats, games, seed, policy, opts, days, jobs=jobs,
                                             ray=(None if ray is None else ("" if ray == "local" else ray)),
                                             progress=progress))
    finally:
        if bar is not None:
            bar.stop()
    seconds = time.perf_counter() - t0

    def summary(value, o, agg):
        d = {"ruleset": m.id if vkey != "board" else manifest_of(value).id, "seats": seats, "games": games, "policy": policy, "seed": seed,
             "options": o, "day_limit": days, **agg,
             "games_per_second": games / agg["seconds"] if agg["seconds"] else None}
        if vkey is not None:
            d["vary"] = {vkey: value}
        return d

    out: dict[str, Any]
    if vkey is None:
        out = summary(*results[0][:2], results[0][3])
    else:
        base = results[0][2]
        out = {"ruleset": m.id, "seats": seats, "games": games, "policy": policy, "seed": seed,
               "vary": vkey, "values": [], "seconds": seconds, "games_per_second": total / seconds}
        for value, o, recs, agg in results:
            s = summary(value, o, agg)
            s["paired_vs_first"] = {c: paired(base, recs, c) for c in camps
                                    if c in s["rates"] and c in results[0][3]["rates"]}
            out["values"].append(s)
    if effects is not None:
        out["role_effects"] = effects
    if keep:
        _keep(variants[0][1], seats, seed, policy, results[0][1], days, keep, db, m.id)
        out["kept"] = [f"sim-{m.id}-{seed + i}" for i in range(keep)]
    if plot is not None:
        _plot(plot, results, camps, m.id, seats, policy, vkey, {c.name: c.alias or c.name for c in m.camps}, effects,
              out.get("values"), boards[0])
        out["plot"] = str(plot)
    if as_json:
        typer.echo(json.dumps(out, ensure_ascii=False, indent=1))
    else:
        _report(out, results, camps, vkey, lang)
        if effects is not None:
            _report_effects(effects, camps, lang)


def _keep(rs_arg, seats, seed, policy, options, days, keep, db, rid):
    """Play the first ``keep`` games again (same seeds: the same games) and store them."""
    from bansha.store.store import Store

    from .play import play_game

    store = Store(db)
    for i in range(keep):
        r = play_game(rs_arg, seats, seed + i, policy, options, days, keep=True)
        name = f"sim-{rid}-{seed + i}"
        store.create(name, r["setup"])
        for ev in r["events"]:
            store.append(name, ev)


def _fmt_rate(r):
    return f"{r['p'] * 100:5.1f} %  [{r['low'] * 100:5.1f}, {r['high'] * 100:5.1f}]"


def _report(out, results, camps, vkey, lang=None):
    from bansha.show.explain import cause

    """The text report, in the board's language ``lang`` (the JSON's keys are the same in any)."""
    from bansha.text.messages import join, lang_of, say
    from rich.console import Console
    from rich.table import Table

    con = Console()
    if vkey is None:
        blocks = [out]
    else:
        blocks = out["values"]
    for b in blocks:
        head = say("sim_head", lang, ruleset=b["ruleset"], seats=b["seats"], games=b["games"], policy=b["policy"],
                   first=b["seed"], last=b["seed"] + b["games"] - 1)
        if vkey is not None:
            head += ("，" if lang_of(lang) == "zh" else ", ") + f"{vkey}={b['vary'][vkey]}"
        con.print(f"[bold]{head}[/bold]")
        t = Table(say("sim_camp", lang), say("sim_wins", lang), say("sim_rate", lang))
        for c, r in b["rates"].items():
            t.add_row(c, str(b["wins"][c]), _fmt_rate(r))
        con.print(t)
        md = b["mean_days"]
        # draws and unfinished always: with no game finished, the unfinished count says why
        con.print(say("sim_ends", lang, draws=b["draws"], unfinished=b["unfinished"], limit=b["day_limit"])
                  + (say("sim_mean", lang, mean=f"{md:.2f}") if md is not None else say("sim_none_ended", lang)))
        con.print(say("sim_lengths", lang, lengths=join((say("sim_length", lang, days=d, count=n) for d, n in b["days"].items()), lang)))
        t = Table(say("sim_role", lang), say("sim_dealt", lang), say("sim_win_rate", lang), say("sim_survival", lang))
        for role, s in b["roles"].items():
            # the interval counts the games the role's seats share (stats.clustered), not its seats
            t.add_row(role, str(s["n"]), _fmt_rate({"p": s["win_rate"], "low": s["low"], "high": s["high"]}),
                      f"{s['survival_rate'] * 100:.1f} %")
        con.print(t)
        # a kill's kind as the board says it: the kernel's "vote" is 投票出局 (bansha.show.explain)
        con.print(say("sim_causes", lang, causes=join((f"{cause(k, lang)} {n}" for k, n in b["causes"].items()), lang)))
        if vkey is not None and b is not blocks[0]:
            con.print(say("sim_paired", lang, vary=f"{vkey}={blocks[0]['vary'][vkey]}", diffs=join((
                say("sim_pp_both", lang, camp=c, diff=f"{d['diff'] * 100:+.1f}", low=f"{d['low'] * 100:+.1f}",
                    high=f"{d['high'] * 100:+.1f}", ulow=f"{d['unpaired_low'] * 100:+.1f}",
                    uhigh=f"{d['unpaired_high'] * 100:+.1f}")
                for c, d in b["paired_vs_first"].items()), lang)))
        con.print(say("sim_speed", lang, rate=f"{b['games_per_second']:.0f}") + "\n")


def _pp(d: dict, lang) -> str:
    from bansha.text.messages import say

    return say("sim_effect_pp", lang, diff=f"{d['diff'] * 100:+.1f}", low=f"{d['low'] * 100:+.1f}", high=f"{d['high'] * 100:+.1f}")


def _report_effects(effects: list[dict], camps: list[str], lang=None) -> None:
    """The role effects as one table: a row a role, a column a camp ("侦探 | 平民 | 市民 +6.0 个百分点
    [+4.0, +8.0] | …"), then the role's skills' uses."""
    from bansha.text.messages import join, say
    from rich.console import Console
    from rich.table import Table

    con = Console()
    con.print(f"[bold]{say('sim_effects_head', lang)}[/bold]")
    if not effects:
        con.print(say("sim_effects_none", lang))
        return
    t = Table(say("sim_role", lang), say("sim_replaced", lang), say("sim_dealt", lang), *camps, say("sim_skill_uses", lang))
    for e in effects:
        t.add_row(e["role"], e["replaced_by"], str(e["dealt"]), *(_pp(e["effects"][c], lang) for c in camps),
                  join((say("sim_skill_use", lang, skill=k, per_game=f"{u['per_game']:.2f}", games=u["games"])
                        for k, u in e["skills"].items()), lang))
    con.print(t)
    con.print("")


def _plot(path: Path, results, camps, rid, seats, policy, vkey, alias=None, effects=None, values=None, board=None):
    try:
        import matplotlib
    except ImportError:
        from bansha.text.messages import say

        raise Refused(say("sim_needs", None, flag="--plot", what="matplotlib", extra="bansha-sim[plot]")) from None
    matplotlib.use("Agg")
    # an SVG's labels as text, not glyph outlines: searchable, and drawn in the reader's fonts
    matplotlib.rcParams["svg.fonttype"] = "none"
    import matplotlib.pyplot as plt
    from matplotlib.ticker import MaxNLocator

    # the panels: the camps' rates, the lengths; the roles' win rates (the first board); with
    # --vary the paired differences to the first value; with --role-effects each role's effect
    pairs = [v for v in (values or [])[1:]]
    panels = 3 + bool(pairs) + bool(effects)
    fig, axes = plt.subplots(1, panels, figsize=(5.5 * panels, 4.5))
    ax1, ax2, ax3 = axes[0], axes[1], axes[2]
    width = 0.8 / len(results)
    for j, (value, _o, _recs, agg) in enumerate(results):
        xs = [i + j * width for i in range(len(camps))]
        ps = [agg["rates"][c]["p"] if c in agg["rates"] else 0.0 for c in camps]
        # (clamped: at p = 0 or 1 the interval's bound may differ from p by a rounding error)
        err = [[max(0.0, p - agg["rates"][c]["low"]) if c in agg["rates"] else 0.0 for c, p in zip(camps, ps, strict=True)],
               [max(0.0, agg["rates"][c]["high"] - p) if c in agg["rates"] else 0.0 for c, p in zip(camps, ps, strict=True)]]
        ax1.bar(xs, ps, width, yerr=err, capsize=3, label=f"{vkey}={value}" if vkey else None)
        ds = sorted(agg["days"])
        ax2.bar([d + j * width for d in ds], [agg["days"][d] for d in ds], width, label=f"{vkey}={value}" if vkey else None)
    # the camps' and roles' ASCII aliases: a machine without a CJK font still draws every label
    alias = alias or {}
    roles_alias = role_aliases(results[0][3]["roles"], board or rid)
    ax1.set_xticks([i + (len(results) - 1) * width / 2 for i in range(len(camps))],
                   [alias.get(c, c) for c in camps])
    ax1.set_ylim(0, 1)
    ax1.set_ylabel("win rate (95 % Wilson)")
    ax2.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax2.set_xlabel("length (days)")
    ax2.set_ylabel("games")
    roles = results[0][3]["roles"]
    names = list(roles)
    ys = range(len(names))
    ax3.barh(list(ys), [roles[r]["win_rate"] for r in names],
             xerr=[[max(0.0, roles[r]["win_rate"] - roles[r]["low"]) for r in names],
                   [max(0.0, roles[r]["high"] - roles[r]["win_rate"]) for r in names]], capsize=3)
    ax3.set_yticks(list(ys), [roles_alias.get(r, r) for r in names])
    ax3.set_xlim(0, 1)
    ax3.set_xlabel("role's win rate (95 %, by game)")
    n = 3
    if pairs:
        ax = axes[n]
        n += 1
        h = 0.8 / len(pairs)
        for j, v in enumerate(pairs):
            d = v["paired_vs_first"]
            cs = [c for c in camps if c in d]
            ax.barh([i + j * h for i in range(len(cs))], [d[c]["diff"] for c in cs], h,
                    xerr=[[d[c]["diff"] - d[c]["low"] for c in cs], [d[c]["high"] - d[c]["diff"] for c in cs]],
                    capsize=3, label=f"{vkey}={v['vary'][vkey]}")
        ax.set_yticks([i + (len(pairs) - 1) * h / 2 for i in range(len(camps))], [alias.get(c, c) for c in camps])
        ax.axvline(0, color="black", linewidth=0.8)
        ax.set_xlabel("paired difference vs the first (95 % exact)")
        ax.legend(fontsize="small")
    if effects:
        ax = axes[n]
        h = 0.8 / len(camps)
        for j, c in enumerate(camps):
            ds = [e["effects"][c] for e in effects]
            ax.barh([i + j * h for i in range(len(effects))], [d["diff"] for d in ds], h,
                    xerr=[[d["diff"] - d["low"] for d in ds], [d["high"] - d["diff"] for d in ds]],
                    capsize=3, label=alias.get(c, c))
        ax.set_yticks([i + (len(camps) - 1) * h / 2 for i in range(len(effects))],
                      [f"{e['alias']} -> {roles_alias.get(e['replaced_by'], e['replaced_by'])}" for e in effects])
        ax.axvline(0, color="black", linewidth=0.8)
        ax.set_xlabel("role effect on each camp's rate (95 % exact paired)")
        ax.legend(fontsize="small")
    if vkey:
        ax1.legend()
    fig.suptitle(f"{rid} at {seats} seats, policy {policy}")
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def role_aliases(roles, board) -> dict[str, str]:
    """Each role's ASCII alias (the ruleset's), for a plot's labels."""
    from bansha.engine.registry import ruleset_for

    from .boards import manifest_of

    rs = ruleset_for(manifest_of(board))
    return {r: (rs.roles[r].alias or r) if r in rs.roles else r for r in roles}
