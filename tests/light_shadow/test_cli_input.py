"""光影传说 through the CLI: bad input is refused with one line, exit code 2, and the stored game
unchanged (docs/rulings/light-shadow.md: "a refused action uses up nothing")."""

import pytest

LIGHT = [("梦见", "国王"), ("卡片", "皇后"), ("阿木", "骑士"), ("小雨", "刺客"), ("青石", "法师"), ("白鹭", "猎人")]
SHADOW = [("黑猫", "国王"), ("夜莺", "皇后"), ("铁山", "骑士"), ("影子", "刺客"), ("紫烟", "法师"), ("乌鸦", "猎人")]
GUESS = ["--arg", "黑猫=国王", "--arg", "夜莺=皇后", "--arg", "铁山=骑士", "--arg", "影子=刺客", "--arg", "紫烟=法师", "--arg", "乌鸦=猎人"]
KING_Q = ["--arg", "camp=影之国", "--arg", "role=国王"]


@pytest.fixture
def cli(bansha_cli, tmp_path):
    deal = tmp_path / "deal.toml"
    deal.write_text("".join(f'[[players]]\nname = "{n}"\nrole = "{r}"\ncamp = "{c}"\n'
                            for c, side in (("光之国", LIGHT), ("影之国", SHADOW)) for n, r in side), encoding="utf-8")
    bansha_cli.ok("new", "g", "--ruleset", "light-shadow", "--deal", deal)
    return bansha_cli


def ok(cli, *args):
    cli.ok(*args)


def refused(cli, args, message):
    cli.refused(*args, message=message)


DAY0 = [
    (("act", "g", "梦见", "猜测", *GUESS), "第零天不允许进行猜测"),
    (("act", "g", "梦见", "询问", "黑猫", *KING_Q), "国王没有任何询问的机会"),
    (("act", "g", "卡片", "询问", "黑猫", *KING_Q), "皇后没有任何询问的机会"),
    (("act", "g", "阿木", "询问", "黑猫", "--arg", "role=国王"), "询问"),
    (("act", "g", "阿木", "询问", "黑猫", "--arg", "camp=影之国", "--arg", "role=法师", "--arg", "number=1"), "编号"),
    (("act", "g", "梦见", "辨别", "梦见"), "辨别"),
    (("act", "g", "卡片", "真视", "卡片"), "真视"),
    (("act", "g", "青石", "巫术", "青石"), "巫术"),
    (("act", "g", "小雨", "窥探", "--arg", "role=国王"), "窥探"),
    (("act", "g", "小雨", "窥探", "--arg", "role=皇后"), "窥探"),
    (("act", "g", "白鹭", "伪装", "黑猫"), "伪装"),
    (("act", "g", "白鹭", "伪装", "黑猫", "--arg", "camp=影之国", "--arg", "role=法师", "--arg", "number=2"), "伪装"),
    (("act", "g", "梦见", "追击", "黑猫"), "追击"),
    (("act", "g", "阿木", "追击"), "追击需要1个目标，给了0个"),
    (("vote", "g", "阿木", "黑猫"), "第0天不投票"),
    # an --arg the skill does not take
    (("act", "g", "阿木", "询问", "黑猫", *KING_Q, "--arg", "numbr=1"), "询问没有参数numbr"),
    (("act", "g", "梦见", "辨别", "黑猫", "--arg", "camp=影之国"), "辨别没有参数camp"),
    (("act", "g", "阿木", "追击", "黑猫", "--arg", "role=国王"), "追击没有参数role"),
    (("act", "g", "小雨", "窥探", "--arg", "role=骑士", "--arg", "camp=影之国"), "窥探没有参数camp"),
    (("act", "g", "白鹭", "伪装", "黑猫", "--arg", "camp=影之国", "--arg", "role=骑士", "--arg", "x=1"), "伪装没有参数x"),
    # values outside their range
    (("act", "g", "阿木", "询问", "黑猫", "--arg", "camp=火之国", "--arg", "role=国王"), "询问"),
    (("act", "g", "阿木", "询问", "黑猫", "--arg", "camp=影之国", "--arg", "role=厨师"), "询问"),
    (("act", "g", "小雨", "窥探", "--arg", "role=厨师"), "窥探"),
    (("act", "g", "白鹭", "伪装", "黑猫", "--arg", "camp=火之国", "--arg", "role=骑士"), "伪装"),
]


@pytest.mark.parametrize(("args", "message"), DAY0)
def test_bad_input_on_day_0(cli, args, message):
    refused(cli, args, message)


def test_used_up_questions_and_skills(cli):
    ok(cli, "act", "g", "阿木", "询问", "黑猫", *KING_Q)
    ok(cli, "act", "g", "阿木", "询问", "夜莺", "--arg", "camp=影之国", "--arg", "role=皇后")
    refused(cli, ("act", "g", "阿木", "询问", "铁山", "--arg", "camp=影之国", "--arg", "role=骑士"), "询问")
    ok(cli, "act", "g", "阿木", "追击", "黑猫")
    refused(cli, ("act", "g", "阿木", "追击", "夜莺"), "追击")
    ok(cli, "act", "g", "青石", "巫术", "黑猫")
    refused(cli, ("act", "g", "青石", "询问", "黑猫", *KING_Q), "不得有其使用技能")
    ok(cli, "resolve", "g", "--yes")  # day 1: one question each
    ok(cli, "act", "g", "阿木", "询问", "黑猫", *KING_Q)
    refused(cli, ("act", "g", "阿木", "询问", "夜莺", "--arg", "camp=影之国", "--arg", "role=皇后"), "只有1次询问")


def test_guess_rules_and_game_over(cli):
    ok(cli, "resolve", "g", "--yes")
    wrong = [*GUESS[:-4], "--arg", "紫烟=猎人", "--arg", "乌鸦=法师"]
    refused(cli, ("act", "g", "阿木", "猜测", "--arg", "黑猫=国王"), "猜测")
    refused(cli, ("act", "g", "阿木", "猜测", *GUESS[:-2], "--arg", "阿木=猎人"), "猜测")
    ok(cli, "act", "g", "阿木", "猜测", *wrong)
    refused(cli, ("act", "g", "阿木", "猜测", *GUESS), "猜测")
    refused(cli, ("act", "g", "阿木", "询问", "黑猫", *KING_Q), "今天已经进行了猜测")
    refused(cli, ("unact", "g", "阿木", "猜测"), "猜测")
    ok(cli, "act", "g", "小雨", "猜测", *GUESS)
    refused(cli, ("act", "g", "梦见", "辨别", "黑猫"), "游戏已结束")
    refused(cli, ("resolve", "g", "--yes"), "游戏已结束")


def test_disqualified_player_and_target(cli):
    ok(cli, "ruling", "g", "remove", "黑猫", "--text", "犯规")
    refused(cli, ("act", "g", "黑猫", "辨别", "梦见"), "黑猫")
    refused(cli, ("act", "g", "阿木", "追击", "黑猫"), "黑猫")
    refused(cli, ("act", "g", "阿木", "询问", "黑猫", *KING_Q), "黑猫")
    refused(cli, ("ruling", "g", "remove", "黑猫"), "黑猫")
