"""Last words (遗言) as the kernel's mechanism the manifests configure: who is owed them by the
phase and kind of the exit, the limits (length, forbidden markup), the rules' own conditions
(M217's red card and [寡言]), `bansha status` listing who is owed and until when, and the
ruling that records them (docs/plugins.md "Last words")."""


import msgspec
import pytest
from bansha.authoring.scenario import Scenario, setup_of
from bansha.engine.engine import Game
from bansha.engine.model import ActEvent, GameError, ResolveEvent, RulingEvent, Status

M217 = [("甲", "狼巫"), ("乙", "狼巫"), ("丙", "石像鬼"), ("丁", "狼巫"), ("戊", "预言家"), ("己", "通灵师"),
        ("庚", "女巫"), ("辛", "骑士"), ("壬", "通灵师"), ("癸", "魔术师"), ("子", "灵鹿"), ("丑", "猎魔人"),
        ("寅", "企鹅"), ("卯", "狐狸")]


def game_of(ruleset, table, options=None):
    sc = msgspec.convert({"ruleset": ruleset, "title": "t", "options": options or {},
                          "players": [{"name": n, "role": r} for n, r in table]}, Scenario)
    return Game(setup_of(sc))


def to(game, label):
    while game.label != label:
        game.apply(ResolveEvent(phase=game.label))


def words(game, player, text):
    game.apply(RulingEvent(phase=game.label, kind="遗言", player=player, text=text))


@pytest.fixture
def m217():
    game = game_of("m217", M217)
    to(game, "night 1")
    game.apply(ActEvent(phase="night 1", actor="丑", skill="猎杀", targets=["甲"]))
    game.apply(ResolveEvent(phase="night 1"))
    return game


def test_silent_status_limits_last_words_to_five_characters(m217):
    # > [寡言]：……若需要发遗言，也只能最多发送5个字。
    m217.player("甲").statuses.append(Status(name="寡言", source="test"))
    with pytest.raises(GameError, match="寡言"):
        words(m217, "甲", "我是好人啊啊")
    words(m217, "甲", "我是好人啊")
    assert m217.last_words["甲"]["text"] == "我是好人啊"


def test_without_the_status_the_length_is_free(m217):
    words(m217, "甲", "我是好人啊啊啊啊啊啊")
    assert "甲的遗言：我是好人啊啊啊啊啊啊" in m217.held


def test_a_refused_record_changes_nothing(m217):
    with pytest.raises(GameError, match="Discuz"):
        words(m217, "甲", "[url=http://x]看这里[/url]")
    assert m217.last_words["甲"]["text"] is None and m217.held == []


def test_the_manifest_max_chars_limit(m217):
    m217.manifest.last_words.max_chars = 3  # a manifest limit, as a board could set
    try:
        with pytest.raises(GameError, match="最多3个字"):
            words(m217, "甲", "我是好人")
    finally:
        m217.manifest.last_words.max_chars = 0
