"""The tables of docs/balance.md from the runs' JSON (``bansha simulate … --json``): per camp
the wins and the Wilson interval, the summary line, the causes of death, per role the seats at
the end, win and survival rates.

    python docs/balance/render.py docs/balance/m217-random.json [LOAD]
"""

from __future__ import annotations

import json
import sys


def pct(x: float) -> str:
    return f"{100 * x:.1f} %"


def render(d: dict, load: str = "") -> str:
    out = ["| camp | wins | rate [95 % Wilson] |", "| --- | --- | --- |"]
    for camp, n in d["wins"].items():
        r = d["rates"][camp]
        out.append(f"| {camp} | {n} | {pct(r['p'])} [{100 * r['low']:.1f}, {100 * r['high']:.1f}] |")
    g = d["games"]
    causes = ", ".join(f"{k} {v}" for k, v in sorted(d["causes"].items(), key=lambda kv: -kv[1])) or "none"
    mean = f"mean length {d['mean_days']:.2f} days" if d.get("mean_days") is not None else "no game finished"
    out += ["", f"{g} games (seeds {d['seed']}…{d['seed'] + g - 1}), draws {d['draws']}, unfinished "
            f"{d['unfinished']} (day limit {d['day_limit']}), stuck {d.get('stuck', 0)}, {mean}; "
            f"{d['games_per_second']:.1f} games/s with --jobs 2{(' at a load average of ' + load) if load else ''}. "
            f"Causes of death: {causes}.", ""]
    out += ["| role | seats at the end | win rate | survival |", "| --- | --- | --- | --- |"]
    for role, r in sorted(d["roles"].items()):
        out.append(f"| {role} | {r['n']} | {pct(r['win_rate'])} | {pct(r['survival_rate'])} |")
    return "\n".join(out)


if __name__ == "__main__":
    print(render(json.load(open(sys.argv[1])), sys.argv[2] if len(sys.argv) > 2 else ""))
