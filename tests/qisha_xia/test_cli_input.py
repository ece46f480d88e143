"""七杀·侠 through the CLI: bad input is refused with one line, exit code 2, and the stored game
unchanged (docs/rulings/qisha-xia.md, "Refusals")."""

import pytest

TABLE = [("黑一", "黑侠"), ("黑二", "黑侠"), ("黑三", "黑侠"), ("暗", "暗侠"), ("幻", "幻侠"), ("白", "白侠"),
         ("赤", "赤侠"), ("光", "光侠"), ("银", "银侠"), ("龙", "龙侠"), ("士一", "侠士"), ("士二", "侠士"),
         ("士三", "侠士"), ("士四", "侠士"), ("士五", "侠士"), ("青一", "青侠"), ("青二", "青侠"),
         ("青三", "青侠"), ("青四", "青侠"), ("青五", "青侠")]
NAMES = [n for n, _ in TABLE]


@pytest.fixture
def cli(bansha_cli, tmp_path):
    deal = tmp_path / "deal.toml"
    deal.write_text("".join(f'[[players]]\nname = "{n}"\nrole = "{r}"\n' for n, r in TABLE), encoding="utf-8")
    bansha_cli.ok("new", "g", "--ruleset", "qisha-xia", "--deal", deal)
    return bansha_cli


def ok(cli, *args):
    cli.ok(*args)


def refused(cli, args, message):
    cli.refused(*args, message=message)


DAY1 = [
    (("act", "g", "黑一", "杀人", "士一"), "杀人"),  # a night privilege by day
    (("act", "g", "白", "救治", "士一"), "救治"),
    (("act", "g", "幻", "幻觉一", "士一", "士二"), "幻觉一"),
    (("act", "g", "幻", "幻觉三"), "幻觉三需要楼层号"),
    (("act", "g", "幻", "幻觉三", "--arg", "post=-3"), "正整数"),  # "多少楼之后（含此楼）": a post number
    (("act", "g", "幻", "幻觉三", "--arg", "post=0"), "正整数"),
    (("act", "g", "幻", "幻觉三", "--arg", "post=3", "--arg", "floor=4"), "没有参数floor"),
    (("act", "g", "士一", "杀人", "士二"), "杀人"),
    (("vote", "g", "士一", "无名", "--post", "1"), "无名"),
    (("vote", "g", "士一", "士二", "--post", "1", "--change"), "还没有投票，无从改票"),
]


@pytest.mark.parametrize(("args", "message"), DAY1)
def test_bad_input_by_day(cli, args, message):
    refused(cli, args, message)


NIGHT1 = [
    (("act", "g", "黑一", "杀人", "黑一"), "不得自杀"),
    (("act", "g", "黑一", "杀人", "黑二"), "不得自杀"),
    (("act", "g", "光", "接收", "光"), "不得接收自己"),
    (("act", "g", "幻", "幻觉一", "幻", "士一"), "除自己以外"),
    (("act", "g", "幻", "幻觉二", "幻"), "除自己以外"),
    (("act", "g", "幻", "幻觉一", "士一", "士一"), "两个不同的人"),
    (("act", "g", "幻", "幻觉三", "--arg", "post=3"), "幻觉三"),  # a day privilege by night
    (("act", "g", "银", "救治", "士一"), "模仿"),
    # R-D3: reflect= names a living member of the group that uses the privilege
    (("act", "g", "黑一", "杀人", "士一", "--arg", "reflect=士二"), "不是共同行使杀人的成员"),
    (("act", "g", "黑一", "杀人", "士一", "--arg", "reflect=暗"), "不是共同行使杀人的成员"),
    (("act", "g", "白", "救治", "士一", "--arg", "reflect=士二"), "不是共同行使救治的成员（白）"),
    (("act", "g", "黑一", "杀人", "士一", "--arg", "refelct=黑二"), "没有参数refelct"),
    (("act", "g", "光", "接收", "士一", "--arg", "reflect=光"), "没有参数reflect"),
    (("act", "g", "青一", "杀人", "士一"), "没有任何特权"),
    (("act", "g", "士一", "验人", "士二"), "验人"),
    (("act", "g", "赤", "验人", "士一", "士二"), "验人需要1个目标，给了2个"),
    (("vote", "g", "士一", "士二", "--post", "1"), "第1天 夜晚不投票"),
]


@pytest.mark.parametrize(("args", "message"), NIGHT1)
def test_bad_input_by_night(cli, args, message):
    ok(cli, "resolve", "g", "--yes")  # day 1 → night 1
    refused(cli, args, message)


def test_reflect_may_name_any_living_member(cli):
    ok(cli, "resolve", "g", "--yes")
    ok(cli, "act", "g", "黑一", "杀人", "龙", "--arg", "reflect=黑三")
    ok(cli, "act", "g", "白", "救治", "士一", "--arg", "reflect=白")
    ok(cli, "resolve", "g", "--yes")
    assert not cli.load().players["黑三"].alive  # the named member was reflected
    ok(cli, "resolve", "g", "--yes")  # day 2
    refused(cli, ("act", "g", "黑一", "杀人", "士一", "--arg", "reflect=黑三"), "不是共同行使杀人的成员（黑一、黑二）")


def test_used_up_and_repeated_privileges(cli):
    ok(cli, "resolve", "g", "--yes")
    ok(cli, "act", "g", "幻", "幻觉一", "士一", "士二")
    refused(cli, ("act", "g", "幻", "幻觉二", "士三"), "同一晚")
    ok(cli, "act", "g", "白", "救治", "士一")
    ok(cli, "act", "g", "暗", "阻止", "士二")
    ok(cli, "act", "g", "光", "接收", "士三")
    ok(cli, "resolve", "g", "--yes")  # night 1
    ok(cli, "resolve", "g", "--yes")  # day 2
    refused(cli, ("act", "g", "幻", "幻觉一", "士三", "士四"), "只能使用一次")
    refused(cli, ("act", "g", "白", "救治", "士一"), "不得连续")
    refused(cli, ("act", "g", "暗", "阻止", "士二"), "不得连续")
    refused(cli, ("act", "g", "光", "接收", "士三"), "不得连续")
    ok(cli, "act", "g", "白", "救治", "白")  # 允许救自己


def test_votes_changes_and_the_dead(cli):
    ok(cli, "vote", "g", "士一", "士二", "--post", "1")
    ok(cli, "vote", "g", "士一", "士三", "--post", "2", "--change")
    refused(cli, ("vote", "g", "士一", "士四", "--post", "3", "--change"), "一次改票")
    ok(cli, "act", "g", "幻", "幻觉三", "--arg", "post=10")
    ok(cli, "resolve", "g", "--yes")
    refused(cli, ("act", "g", "幻", "幻觉三", "--arg", "post=5"), "幻觉三")  # night: wrong phase
    ok(cli, "act", "g", "黑一", "杀人", "士五")
    ok(cli, "resolve", "g", "--yes")
    refused(cli, ("vote", "g", "士五", "士一", "--post", "1"), "出局")
    refused(cli, ("vote", "g", "士一", "士五", "--post", "1"), "出局")
    refused(cli, ("act", "g", "幻", "幻觉三", "--arg", "post=5"), "只能使用一次")


def test_runoff_votes(cli):
    voters = [n for n in NAMES if n not in ("士一", "士二")]
    for i, v in enumerate(voters[:16]):
        ok(cli, "vote", "g", v, "士一" if i < 8 else "士二", "--post", str(i + 1))
    ok(cli, "resolve", "g", "--yes")  # → runoff 1
    refused(cli, ("vote", "g", "黑一", "士三", "--post", "1"), "高票对决")
    refused(cli, ("vote", "g", "黑一", "弃权", "--post", "1"), "不允许弃权")
    refused(cli, ("act", "g", "黑一", "杀人", "士三"), "杀人")
