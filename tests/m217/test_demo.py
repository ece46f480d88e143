"""The m217 demo (rulesets/m217/bansha_m217/demos/m217-demo.toml): it is a scenario file, but it
lives beside the manifest, not below a folder named ``scenarios``, so pytest does not collect it
by itself. Here it is played as a scenario (every phase's [phases.expect] is checked, and its log
is replayed from scratch), through `bansha demo --ruleset m217`, and its deal is checked against
the document's 14-seat table."""

import re
import tomllib
from collections import Counter
from pathlib import Path

from bansha.authoring.scenario import run_file
from bansha.cli.cli import app
from bansha.engine.deal import holds
from bansha.engine.registry import find_manifest
from typer.testing import CliRunner

DEMO = Path(__file__).resolve().parents[2] / "rulesets/m217/bansha_m217/demos/m217-demo.toml"


def test_the_demo_plays_as_a_scenario():
    game = run_file(DEMO)
    assert game.winner == ["村民阵营"]
    assert [p.name for p in game.players.values() if p.camp == "狼人阵营" and p.alive] == []
    # it reaches the third day and shows the board's signature lines
    lines = [line for _, line in game.announcements]
    for needed in ("巫被诽谤。", "投票出局：巫；其他原因出局：无。", "投票出局：猎；其他原因出局：鬼。", "骑翻牌，实际身份为骑士。"):
        assert needed in lines


def test_bansha_demo_prints_the_game():
    r = CliRunner().invoke(app, ["demo", "--ruleset", "m217"])
    out = r.output
    assert r.exit_code == 0, out
    assert out.startswith("新日暮里 — ")
    assert re.search(r"^  13 镜 +镜 +三方阵营$", out, re.M)  # the deal, seat by seat, in aligned columns
    assert "[镜] 反射：[交换]→学" in out and "（公开） 学出局。" in out
    assert "[猎] 你可以留下遗言" in out
    assert "（公开） 游戏结束，村民阵营胜利。" in out and "\n游戏结束：村民阵营\n" in out
    # then the last phase's thread post, as `bansha post` writes it
    post = out.split("--- bansha post GAME --phase ", 1)[1]
    assert "【新日暮里】第3天 正午公告" in post and "游戏结束，村民阵营胜利。" in post and "【座位表】" in post
    assert post.rstrip().endswith("游戏结束。")


def test_the_demo_deal_is_a_deal_of_the_table():
    """狼人 4, 验人系 1, 强神 3, 弱神 4, 三方 1, 不定 1, and the table's constraints (one of
    狼王/恐怖分子/狼兄 …)."""
    script = tomllib.loads(DEMO.read_text(encoding="utf-8"))
    roles = [p["role"] for p in script["players"]]
    (table,) = [t for t in find_manifest("m217").tables if t.seats == len(roles) == 14]
    pool_of = {r: pool.name for pool in table.pools for r in pool.roles}
    assert Counter(pool_of[r] for r in roles) == {pool.name: pool.draw for pool in table.pools}
    assert len(set(roles)) == len(roles)
    assert all(holds(c, roles) for c in table.constraints)
