"""TEST-ONLY stand-in roles for 新日暮里 (M217): never shipped, never dealt by the real manifest.

The board's machinery names sources that no role of this document provides: the chain's first
stage 阴谋家<煽动> and 雪狼's modification of a disguise (roles of other boards, named by the document
but not described), and the statuses [霸道], [寡言] and [流血] (no role of this document gives
them). Each stand-in below plays that source just enough for a scenario of tests/m217/scenarios/ to
drive the machinery; its docstring says what it stands for. Every other piece of the machinery is
played by the real roles (plugins/m217/*). Registered in-process by tests/m217/conftest.py under the
plugin name ``m217.standins`` and used by tests/m217/m217-standins.toml.
"""

from bansha import Role, Skill, hookimpl
from bansha_m217_helpers import give
from bansha_m217_rules import settle

# ------------------------------------------------------------------ the chain's first stage


def incite(res, a):
    """Stands in for 阴谋家<煽动> (a role of another board, TEST-ONLY): tonight a ball that
    reaches the first target is kicked on to the second."""
    res.data.setdefault("煽动", {})[a.targets[0]] = a.targets[1]


def incite_stage(res, action, ball):
    return res.data.get("煽动", {}).get(ball, ball)


# --------------------------------------------------------------------------- statuses


def overbear(res, a):
    """TEST-ONLY source of [霸道] (no role of this document gives it): until the next noon ends."""
    give(res, a.targets[0], "霸道", until=f"noon {res.game.day}", source="霸道")


def taciturn(res, a):
    """TEST-ONLY source of [寡言] (no role of this document gives it): until the next noon ends."""
    give(res, a.targets[0], "寡言", until=f"noon {res.game.day}", source="寡言")


def bleed(res, a):
    """TEST-ONLY source of [流血] (no role of this document gives it): permanent."""
    give(res, a.targets[0], "流血", source="流血")


# ------------------------------------------------------------------------- disguises


def remodel(res, a):
    """Stands in for 雪狼's modification of a disguise (a role of another board, named by the
    document's example, TEST-ONLY): the final target's 表面身份 (and 表面阵营) become the given ones.
    > （如：隐狼获取了一个表面身份，又被雪狼修改，因为雪狼的修改发动靠后的缘故，被查验显示的是雪狼修改的身份）"""
    if settle(res, a):
        for t in a.targets:
            give(res, t, "伪装", source="雪狼", **_seen(a.args))


def _seen(args):
    return {k: args[k] for k in ("camp", "role") if args.get(k)}


def night(name, step, effect, tags=("指定",), **kw):
    return Skill(name=name, phases=("night",), step=step, tags=tags, effect=effect,
                 rule=effect.__doc__ or "", **kw)


ROLES = [
    Role(name="煽动者", camp="三方阵营", skills=(night("煽动", "早夜1", incite, tags=(), targets=2),)),
    Role(name="霸主", camp="村民阵营", skills=(night("霸道", "早夜8", overbear, may_target_self=True),)),
    Role(name="寡言者", camp="村民阵营", skills=(night("寡言", "早夜8", taciturn),)),
    Role(name="放血者", camp="狼人阵营", skills=(night("放血", "早夜8", bleed),)),
    Role(name="雪狼替身", camp="狼人阵营", skills=(
        night("修改", "早夜8", remodel, args={"camp": "表面阵营", "role": "表面身份"}),)),
]


@hookimpl
def bansha_roles():
    return ROLES


@hookimpl
def bansha_step_handlers():
    # the real stages 时间逆流 (plugins/m217/time-consort), 交换 (m217-magician) and 反射
    # (m217-mirror) are their roles' handlers; only the first stage has no role on this board
    return {"m217.chain.煽动": incite_stage}
