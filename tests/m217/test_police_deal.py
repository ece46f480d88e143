"""警察's first sentence is a rule of the deal, which a scenario (explicit roles) cannot play.

> 4、警察⑤ 该身份出现时，一个强神也会变为警察。
"""

from bansha.engine.deal import deal
from bansha.engine.registry import find_manifest, ruleset_for

STRONG = {"女巫", "骑士", "摄梦人", "魔术师", "灵鹿", "猎魔人", "企鹅", "九尾狐", "钟", "士兵", "范海辛",
          "奇迹商人", "纵火者", "子狐", "圣女"}


def test_a_police_deal_turns_one_strong_god_into_a_second_police():
    rs = ruleset_for(find_manifest("m217"))
    seats = rs.manifest.tables[0].seats
    names = [f"p{i}" for i in range(seats)]
    with_police = 0
    for seed in range(60):
        roles = [p.role for p in deal(rs, names, seed)]
        checkers = [r for r in roles if r in ("通灵师", "预言家", "狐狸", "警察")]
        strong = [r for r in roles if r in STRONG]
        if "警察" in roles:
            with_police += 1
            # the 验人系 draw is the one 警察; one of the 3 强神 drawn became the second 警察
            assert roles.count("警察") == 2 and len(strong) == 2 and len(checkers) == 2
        else:
            assert len(strong) == 3 and len(checkers) == 1
    assert with_police > 0
