"""狼兄 and 狼弟 come together: a rule of the deal, which a scenario (explicit roles) cannot play.

> 与狼弟互知不共群，有狼兄必有狼弟。
> 与狼兄互知不共群，有狼弟必有狼兄。
> 【狼人阵营】16选4 狼王恐怖分子狼兄必有且只会有一个 有狼兄必有狼弟

The shipped table is the lead's (it deals from built roles); this test deals the wolves' pool of the
document with the constraints the two sentences need (``requires`` both ways, and ``exactly_one`` of
狼王/恐怖分子/狼兄) and checks every deal.
"""

import msgspec
from bansha.engine.deal import deal
from bansha.engine.model import Constraint, Pool, Table
from bansha.engine.registry import find_manifest, ruleset_for

WOLVES = ["狼王", "恐怖分子", "狼兄", "狼弟", "幼狼", "狼鸦之爪", "狼巫", "石像鬼"]


def test_brothers_are_dealt_together():
    rs = ruleset_for(find_manifest("m217"))
    table = Table(seats=4, pools=[Pool(name="狼人", roles=WOLVES, draw=4)], constraints=[
        Constraint(exactly_one=["狼王", "恐怖分子", "狼兄"]),
        Constraint(role="狼兄", requires="狼弟"),
        Constraint(role="狼弟", requires="狼兄"),
    ])
    rs.manifest = msgspec.structs.replace(rs.manifest, tables=[table])
    try:
        brothers = 0
        for seed in range(80):
            roles = [p.role for p in deal(rs, ["a", "b", "c", "d"], seed)]
            assert sum(roles.count(r) for r in ("狼王", "恐怖分子", "狼兄")) == 1
            assert ("狼兄" in roles) == ("狼弟" in roles)
            brothers += "狼兄" in roles
        assert brothers > 0
    finally:
        from bansha.engine import registry

        registry._RULESETS.clear()
