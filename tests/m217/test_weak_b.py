"""弱神 group weak-b (熊, 隐者 and the two handler kinds of ``bansha_m217_rules.chain`` they use)
beyond what a scenario file can state: how many times a line is announced, a disguise read by
the bear (a 隐狼's disguise), and the order of the step handlers."""

from pathlib import Path

from bansha import Role, Skill, hookimpl
from bansha.authoring import scenario

HERE = Path(__file__).parent
M217 = HERE.parents[0] / "scenarios" / "m217"
FILLERS = ["预言家", "通灵师", "女巫", "骑士", "魔术师", "灵鹿", "猎魔人", "企鹅", "狐狸", "通灵师"]


def play(tmp_path, ruleset: str, seats: list[tuple[str, str]], phases: str):
    path = tmp_path / "sc.toml"
    players = ", ".join(f'{{ name = "{n}", role = "{r}" }}' for n, r in seats)
    path.write_text(f'ruleset = "{ruleset}"\ntitle = "t"\nplayers = [{players}]\n{phases}', encoding="utf-8")
    return scenario.run_file(path)


def announced(game, label):
    return [line for lb, line in game.announcements if lb == label]


def test_two_roaring_bears_are_announced_twice_without_a_name(tmp_path):
    """> PS：多个[咆哮]技能存在时，所有咆哮分别判定，可能会有多次[熊咆哮了]的公示，但不知道对应的是哪头熊。"""
    seats = [("甲", "熊"), ("乙", "狼巫"), ("丙", "熊"), ("丁", "熊"), ("戊", "石像鬼"), ("己", "预言家"),
             ("庚", "通灵师"), ("辛", "女巫")]
    game = play(tmp_path, "m217", seats, '[[phases]]\nphase = "noon 1"\nresolve = false\n')
    # 甲 and 丙 sit beside the 狼巫 乙; 丁 sits between 丙 and 戊 (石像鬼, 狼人阵营) — three roars
    assert announced(game, "noon 1").count("熊咆哮了。") == 3
    assert not any(n in line for line in announced(game, "noon 1") for n in "甲丙丁")


def test_one_bear_beside_a_wolf_one_not(tmp_path):
    """> 所有咆哮分别判定 / 如无狼人阵营…则无事发生。"""
    seats = [("甲", "熊"), ("乙", "狼巫"), ("丙", "预言家"), ("丁", "熊"), ("戊", "通灵师"), ("己", "女巫")]
    game = play(tmp_path, "m217", seats, '[[phases]]\nphase = "noon 1"\nresolve = false\n')
    assert announced(game, "noon 1").count("熊咆哮了。") == 1


def test_the_bear_reads_the_surface_camp(tmp_path):
    """> 若熊电梯上下两侧有[表面阵营]为[狼人阵营]的角色 — a 隐狼 disguised as 村民阵营 (伪装 effect 2)
    is not smelt; undisguised beside the bear, it is."""
    seats = [("甲", "熊"), ("乙", "隐狼"), ("丙", "预言家"), ("丁", "通灵师"), ("戊", "狼巫"), ("己", "女巫")]
    disguise = ('[[phases]]\nphase = "opening"\nactions = [{ actor = "乙", skill = "伪装", '
                'args = { effects = "2,3,5", camp = "村民阵营", role = "预言家" } }]\n')
    noon = '[[phases]]\nphase = "noon 1"\nresolve = false\n'
    game = play(tmp_path, "m217", seats, disguise + noon)
    assert "熊咆哮了。" not in announced(game, "noon 1")
    game = play(tmp_path, "m217", seats, noon)
    assert "熊咆哮了。" in announced(game, "noon 1")


class Probe:
    """A TEST-ONLY plugin with one handler of each kind and a [指定] skill at 早夜2."""

    @hookimpl
    def bansha_roles(self):
        def effect(res, a):
            res.feedback(a.actor, f"effect on {a.targets}")

        return [Role(name="探针", camp="村民阵营", skills=(
            Skill(name="探", phases=("night",), step="早夜2", may_target_self=True, tags=("指定",), effect=effect),))]

    @hookimpl
    def bansha_step_handlers(self):
        def at(res):
            for p in res.game.players.values():
                if p.role == "探针":
                    res.feedback(p.name, f"at {res.step}")

        def cast(res, a):
            res.feedback(a.actor, f"cast, chosen {a.chosen}, the chain not yet run: {a.targets == a.chosen}")

        return {"m217.at.早夜2.探针": at, "m217.cast.探": cast}


def test_step_triggers_run_first_and_cast_handlers_before_the_chain(tmp_path, bansha_plugin):
    """``m217.at.<step>.<role>(res)`` runs at the start of its step, ``m217.cast.<skill>(res, a)``
    when an action that is not blocked is cast, before the targeting chain settles it."""
    bansha_plugin("test.probe", Probe())
    manifest = tmp_path / "probe.toml"
    manifest.write_text('extends = "m217"\nid = "m217-probe"\nname = "probe"\nalias = []\n'
                        '[roles]\n"探针" = "test.probe"\n', encoding="utf-8")
    seats = [("甲", "探针"), ("乙", "狼巫"), ("丙", "隐者"), *zip("丁戊己庚", FILLERS, strict=False)]
    game = play(tmp_path, str(manifest), seats,
                '[[phases]]\nphase = "night 1"\nactions = [{ actor = "甲", skill = "探", targets = ["丙"] }]\n')
    lines = [t for _, t in game.feedback["甲"]]
    # 丙 is 隐者 (隐身): the chain drops him, so the effect never runs — but the cast handler did
    assert lines == ["at 早夜2", "cast, chosen ['丙'], the chain not yet run: True"]
