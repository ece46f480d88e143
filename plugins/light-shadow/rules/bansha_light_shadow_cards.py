"""光影传说 (light-shadow): the board's cards for homebrew roles (kernel/src/bansha/homebrew/homebrew.py).

``bansha_light_shadow_rules`` gives them through ``bansha_cards``. They read the mage web's
results of the day (``res.data["protected"]``, ``res.data["disrupted"]``, docs/rulings/
light-shadow.md §5, §6) as the board's roles do.

| card | parameters | 光影传说 |
| --- | --- | --- |
| 辨别 | — | 国王's: "上帝将直接回馈国王技能对象玩家所属的国家" — the [伪装后的] country, "不告诉你" when the sender is disrupted or the target protected |
"""

from __future__ import annotations

from bansha import Card, Fact


def discern(res, a, target: str) -> None:
    """> 上帝将直接回馈国王技能对象玩家所属的国家。但是，对于猎人，国王只能知道其伪装后的国家属性。

    What 国王's own ``discern`` does (plugins/light-shadow/king, kept self-contained there: it is
    docs/plugins.md's whole example of a role module); tests/homebrew plays 国王's scenarios on
    both and compares."""
    if a.actor in res.data.get("disrupted", ()) or target in res.data.get("protected", ()):
        res.feedback(a.actor, f"辨别{target}：不告诉你。")
        return
    # checks read the surface identity ("伪装后的国家属性")
    camp = res.game.surface(res.game.player(target))["camp"]
    res.feedback(a.actor, f"{target}是{camp}的。", Fact(player=target, what="camp", value=camp, by=a.skill))


CARDS = [
    Card("辨别", lambda res, a, who, p: discern(res, a, who), text="回馈目标（伪装后）所属的国家；被干扰或目标受保护时不告诉你",
         does=("check",)),
]
