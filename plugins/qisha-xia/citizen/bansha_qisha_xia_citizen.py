"""侠士 — 七杀·侠 1.9.

> 侠士（5人）也即水民，不互知，无任何特权，仅参与白天的讨论、投票。
"""

from bansha import Role, hookimpl

CITIZEN = Role(name="侠士", alias="citizen", camp="光明",
               rule="侠士（5人）也即水民，不互知，无任何特权，仅参与白天的讨论、投票。")


@hookimpl
def bansha_roles():
    return [CITIZEN]
