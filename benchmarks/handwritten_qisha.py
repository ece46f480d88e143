"""A hand-written, straight-line resolver of a qisha-xia (七杀·侠) first night: what the engine
and the ten plugins do at ``night 1``, written as one function with no hooks, no steps and no
trace, to time the engine against (issue 15: one night through the plugins at most 3 times
this). bench_resolve.py checks it against the engine on 300 random nights before timing it.

It reads the game (the night's actions, as submitted) and changes nothing. ``feedback=True``
also writes what the night tells (the checks' answers, 银侠's learning, the absorbed 青侠's
lines, the dawn announcement); ``feedback=False`` is the bare one: who is out.

The first night only: the 龙侠's charges are read from the game, but nobody holds a learned
(acquired) skill yet, so 暗侠's is the only block, and every 青侠 is neutral."""

from __future__ import annotations

#: "黑侠与白侠吸收能力相同；赤侠与暗侠的吸收能力相同；黑侠、白侠的吸收能力强于赤侠与暗侠"
STRENGTH = {"黑侠": 2, "白侠": 2, "赤侠": 1, "暗侠": 1}
LEARNABLE = ("救治", "验人", "阻止", "杀人")


def night(game, feedback: bool = True):
    """(who is out in order, {player: lines told}, public lines) of the open first night."""
    players = game.players
    actions = game.actions
    assert game.label == "night 1" and not any(a.acquired for a in actions)
    camp = {n: p.camp for n, p in players.items()}
    groups = {n: p.groups for n, p in players.items()}
    alive = [n for n, p in players.items() if p.alive]
    dragon = next((n for n in alive if players[n].role == "龙侠"), None)
    charges = players[dragon].data["qisha-xia.charges"] if dragon else 0
    targets = {a.seq: list(a.chosen) for a in actions}
    void: set[int] = set()

    def member(a):  # who a reflection sends it back to (R-D3)
        named = a.args.get("reflect")
        return named if named in [n for n in alive if a.group and a.group in groups[n]] else a.actor

    def hits(name, a):  # a block on ``name`` voids ``a`` (its sender, or one of its group)
        return a.actor == name or bool(a.group and a.group in groups[name])

    reception = next((a for a in actions if a.skill == "接收"), None)
    received_pair = (reception.actor, reception.targets[0]) if reception else None

    # blocks, decided before anything is routed: where the block lands depends on the 龙侠's
    # charges, which depend on what the block voids
    blocks = [a for a in actions if a.skill == "阻止"]
    blocked, blocked_seqs, standing = set(), set(), {}
    if blocks:
        (b,) = blocks

        def landing(voided):
            left = charges
            for a in sorted(actions, key=lambda a: a.seq):
                if a.seq in voided or a.skill == "接收":
                    continue
                for t in a.targets:
                    if dragon is not None and t == dragon and left > 0:
                        left -= 1
                        if a is b:
                            return member(a)
                        break
            t = b.targets[0]
            return received_pair[0] if received_pair and t == received_pair[1] else t

        land = landing(set())
        for _ in range(2):
            standing = {b.seq: land} if camp[land] != camp[b.actor] else {}
            hit = {a.seq for a in actions for t in standing.values() if hits(t, a)}
            again = landing(hit)
            if again == land:
                break
            land = again
        for t in standing.values():
            blocked.add(t)
            for a in actions:
                if a.seq not in void and hits(t, a):
                    void.add(a.seq)
                    blocked_seqs.add(a.seq)

    # routing: reflected by the 龙侠, else received by 光侠, slot by slot, in submission order
    reflected = {}
    for a in actions:
        if a.seq in void or a.skill == "接收" or not a.targets:
            continue
        ts = targets[a.seq]
        for slot in range(len(ts)):
            if dragon is not None and ts[slot] == dragon and a.seq not in reflected and charges > 0:
                charges -= 1
                ts[slot] = reflected[a.seq] = member(a)
            elif (reception is not None and a is not reception and (reception.seq not in void or a.skill == "阻止")
                  and ts[slot] == reception.targets[0]):
                ts[slot] = reception.actor

    # absorption: the strongest privilege on a neutral 青侠, unless tied
    absorbed = {}
    for q in alive:
        if players[q].data.get("qisha-xia.qing") != "中立":
            continue
        on = [a for a in actions if a.seq not in void and a.group in STRENGTH and q in targets[a.seq]]
        if on:
            top = max(STRENGTH[a.group] for a in on)
            strongest = [a for a in on if STRENGTH[a.group] == top]
            if len(strongest) == 1:
                absorbed[q] = strongest[0].group
                void.add(strongest[0].seq)

    live = [a for a in actions if a.seq not in void]
    healed = {targets[a.seq][0] for a in live if a.skill == "救治"}
    kills = [a for a in live if a.skill == "杀人"]

    def identity(n):
        state = players[n].data.get("qisha-xia.qing")
        return f"青侠（{state}）" if state else players[n].role

    told: dict[str, list[str]] = {}
    if feedback:
        def tell(n, line):
            told.setdefault(n, []).append(line)

        for a in actions:
            if a.skill != "验人":
                continue
            checkers = [n for n in alive if a.group in groups[n]] if a.group else [a.actor]
            if a.seq in void:
                if a.seq in blocked_seqs:
                    for n in checkers:
                        tell(n, "验人失败")
                continue
            if a.seq in reflected:
                m = reflected[a.seq]
                tell(a.chosen[0], f"{m}是{identity(m)}。")
                for n in checkers:
                    tell(n, "验人失败")
            else:
                seen = identity(targets[a.seq][0])
                for n in checkers:
                    tell(n, f"{a.chosen[0]}是{seen}。")

    out, public = [], []
    for a in kills:
        t = targets[a.seq][0]
        if t in out:
            continue
        if t in healed and (a.seq not in reflected or game.option("reflected_kill_healable")):
            continue
        out.append(t)
        if feedback:
            public.append(f"{t}出局，身份是{identity(t)}。")
    if not feedback:
        return out, told, public

    for s in (n for n, p in players.items() if p.role == "银侠"):
        if s in out or not players[s].alive:
            continue
        took = {a.skill for a in live if s in targets[a.seq] and a.skill != "阻止"}
        if s in blocked:
            took.add("阻止")
        for skill in LEARNABLE:
            if skill in took:
                tell(s, f"你学会了{skill}。")
    joined: dict[str, list[str]] = {}
    for q, group in absorbed.items():
        if q in out:
            continue
        mates = [n for n in alive if n not in out and (group in groups[n] or group in joined.get(n, ()))]
        joined.setdefault(q, []).append(group)
        tell(q, f"你被{group}吸收，成为{group}。")
        for m in mates:
            tell(m, f"{q}被吸收，成为{group}。")
    if not out:
        public.append("昨夜无人出局。")
    return out, told, public
