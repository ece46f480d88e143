"""新日暮里 through the CLI: bad input to every skill of the roles built in part 2 is refused with
one line naming what and why, exit code 2, and the stored game unchanged (docs/cli.md).

Each row of ``ROWS`` is (table, set-up, command, message): a fresh game is dealt from the table
(``DEALS``, 14 seats), the set-up is played (a phase label such as ``"night 1"`` resolves up to that
phase, anything else is a command that must succeed), then the command must be refused with a line
containing the message. Commands are written without the game's name (``act 甲 占星 乙`` is
``bansha act g 甲 占星 乙``)."""

import re

import pytest

NAMES = ["甲", "乙", "丙", "丁", "戊", "己", "庚", "辛", "壬", "癸", "子", "丑", "寅", "卯"]
DEALS = {
    "A": ["占星师", "黑蝙蝠", "乌鸦", "面包师", "侍从", "花匠", "潜行者", "隐者", "灵能", "小女孩", "天师",
          "摄魂师", "赌徒", "企鹅"],
    "B": ["狼王", "恐怖分子", "噬时狼妃", "蛊医", "恶灵骑士", "撑杆僵尸", "狼学者", "隐狼", "幽灵", "猎人",
          "企鹅", "预言家", "女巫", "乌鸦"],
    "C": ["双面人", "宗教老爷爷", "太阳", "白猫", "大蒜", "熊", "镜", "丘比特", "狼巫", "企鹅", "预言家",
          "女巫", "猎人", "乌鸦"],
    "D": ["狼兄", "狼弟", "幼狼", "狼鸦之爪", "影子", "暗恋者", "粉丝", "复仇者", "企鹅", "预言家", "女巫",
          "猎人", "乌鸦", "花匠"],
    # 大蒜 乙 voted out at noon 1 silences 甲 丙 丁 and 卯 (上下两层四人) through night 2
    "E": ["赌徒", "大蒜", "面包师", "潜行者", "镜", "狼鸦之爪", "狼巫", "企鹅", "预言家", "女巫", "猎人",
          "乌鸦", "天师", "花匠"],
    "F": ["丘比特", "复仇者", "太阳", "花匠", "花匠", "狼巫", "幽灵", "恶灵骑士", "企鹅", "预言家", "女巫",
          "猎人", "乌鸦", "白猫"],
}
PHASE = re.compile(r"^(opening|dusk \d+|night \d+|dawn \d+|noon \d+|extra-noon \d+)$")
LONG21 = "一二三四五六七八九十" * 2 + "一"
LONG51 = "一二三四五六七八九十" * 5 + "一"
GARLIC = ["noon 1", "vote 甲 乙 --post 1", "night 2"]  # deal E: 甲 丙 丁 卯 under 沉默 tonight
SUN_OUT = ["night 2", "act 己 杀人 丙", "extra-noon 2"]  # deal F: 太阳 丙 out at night 2
LOVERS = ["act 甲 丘比特之箭 乙 丙", "dusk 1"]  # deal F: 复仇者 乙 (不定) and 丙, a pair that chooses a knife
LETTER = ["noon 1", "act 己 情书 --arg text=你好"]  # deal D: 暗恋者 己 writes to 寅

ROWS = [
    # ------------------------------------------------------------- anyone
    ("A", ["night 1"], "act 无名 占星 乙", "没有玩家 无名"),
    ("A", ["night 1"], "act 甲 杀人 乙", "甲（占星师）没有技能 杀人"),
    ("A", ["night 1"], "act 甲 占星 乙 --arg 乙", "--arg 乙：应为 键=值"),
    # ------------------------------------------------------------- 占星师
    ("A", [], "act 甲 占星 乙", "占星在night使用，不在opening"),
    ("A", ["night 1"], "act 甲 占星", "占星需要1到2个目标，给了0个"),
    ("A", ["night 1"], "act 甲 占星 乙 丙 丁", "占星需要1到2个目标，给了3个"),
    ("A", ["night 1"], "act 甲 占星 乙 丙", "the second target must be out of the game"),
    ("A", ["night 1"], "act 甲 占星 乙 乙", "the second target must be out of the game"),
    ("A", ["night 1"], "act 甲 占星 无名", "没有玩家 无名（占星的目标）"),
    ("A", ["ruling remove 丙", "night 1"], "act 甲 占星 丙", "the first target is a player in the game"),
    ("A", ["ruling remove 甲", "night 1"], "act 甲 占星 乙", "甲已出局，不能行动"),
    ("A", ["night 1"], "act 甲 占星 乙 --arg x=1", "占星: unknown --arg x (占星 takes no --arg)"),
    ("A", ["night 1"], "act 甲 命运洪流 --arg 乙=黑蝙蝠", "命运洪流在noon使用，不在night"),
    ("A", ["noon 1"], "act 甲 命运洪流", "命运洪流 needs a list"),
    ("A", ["noon 1"], "act 甲 命运洪流 --arg 无名=预言家", "命运洪流: unknown player '无名' in the list"),
    ("A", ["noon 1"], "act 甲 命运洪流 --arg 乙=大法师", "命运洪流: unknown identity '大法师' for 乙"),
    ("A", ["noon 1"], "act 甲 命运洪流 乙 --arg 乙=黑蝙蝠", "命运洪流需要0个目标，给了1个"),
    # ------------------------------------------------------------- 黑蝙蝠
    ("A", ["dusk 1"], "act 乙 庇护 丙", "庇护在night使用，不在dusk"),
    ("A", ["night 1"], "act 乙 庇护", "庇护需要1个目标，给了0个"),
    ("A", ["night 1"], "act 乙 庇护 丙 丁", "庇护需要1个目标，给了2个"),
    ("A", ["night 1"], "act 乙 庇护 无名", "没有玩家 无名（庇护的目标）"),
    ("A", ["night 1"], "act 乙 庇护 丙 --arg a=b", "庇护: unknown --arg a"),
    ("A", ["night 1", "act 乙 庇护 丙", "night 2"], "act 乙 庇护 丙", "庇护不得连续两个night对同一人（丙）使用"),
    ("A", ["night 1"], "act 乙 反弹 丙", "反弹 is <强制>: nobody sends it"),
    # ------------------------------------------------------------- 乌鸦
    ("A", ["dusk 1"], "act 丙 诽谤 丁", "诽谤在night使用，不在dusk"),
    ("A", ["night 1"], "act 丙 诽谤", "诽谤需要1个目标，给了0个"),
    ("A", ["night 1"], "act 丙 诽谤 丁 戊", "诽谤需要1个目标，给了2个"),
    ("A", ["ruling remove 丙", "night 1"], "act 丙 诽谤 丁", "丙已出局，不能行动"),
    ("A", ["night 1"], "act 丙 诽谤 丁 --arg a=b", "诽谤: unknown --arg a"),
    # ------------------------------------------------------------- 面包师
    ("A", ["dusk 1"], "act 丁 芬芳 甲 乙 丙 丁", "芬芳在night使用，不在dusk"),
    ("A", ["night 1"], "act 丁 芬芳", "芬芳需要1到99个目标，给了0个"),
    ("A", ["night 1"], "act 丁 芬芳 甲 丙", "芬芳 takes 4 consecutive living players"),
    ("A", ["night 1"], "act 丁 芬芳 甲 乙 丙 丁 戊 己", "芬芳 takes 4 consecutive living players"),
    ("A", ["night 1"], "act 丁 芬芳 甲 甲 乙 丙", "芬芳 takes 4 consecutive living players"),
    ("A", ["night 1", "act 丁 芬芳 甲 乙 丙 丁", "night 2"], "act 丁 芬芳 甲 乙 丙 丁", "丁的芬芳已没有使用次数"),
    ("E", GARLIC, "act 丙 芬芳 丙 丁 戊", "丙处于沉默状态，不能使用芬芳"),
    # ------------------------------------------------------------- 侍从
    ("A", ["dusk 1"], "act 戊 替死 甲", "替死在night使用，不在dusk"),
    ("A", ["night 1"], "act 戊 替死", "替死需要1个目标，给了0个"),
    ("A", ["night 1"], "act 戊 替死 戊", "替死不能以自己为目标"),
    ("A", ["night 1", "act 戊 替死 甲", "night 2"], "act 戊 替死 甲", "替死: 甲 has been chosen already"),
    # ------------------------------------------------------------- 花匠
    ("A", [], "act 己 玫瑰", "玫瑰需要1个目标，给了0个"),
    ("A", [], "act 己 玫瑰 甲 乙", "玫瑰需要1个目标，给了2个"),
    ("A", ["act 己 玫瑰 甲"], "act 己 玫瑰 乙", "己的玫瑰已没有使用次数"),
    ("A", ["ruling remove 甲"], "act 己 玫瑰 甲", "甲已出局，不能成为玫瑰的目标"),
    ("F", ["act 丁 玫瑰 戊"], "act 戊 玫瑰 丁", "玫瑰: 丁 gave you the last 玫瑰 and cannot be chosen"),
    ("F", ["night 1", "act 壬 冰冻 丁", "dawn 1"], "act 丁 玫瑰 戊", "丁处于冰冻状态，不能使用玫瑰"),
    ("E", GARLIC, "act 卯 玫瑰 戊", "卯处于沉默状态，不能使用玫瑰"),
    # ------------------------------------------------------------- 潜行者
    ("A", ["night 1"], "act 庚 潜行 甲", "潜行: 甲 is not whom 庚 voted for"),
    ("A", ["noon 1", "vote 庚 丙 --post 1", "night 2"], "act 庚 潜行", "潜行需要1个目标，给了0个"),
    ("A", ["noon 1", "vote 庚 丙 --post 1", "night 2"], "act 庚 潜行 丙", "丙已出局，不能成为潜行的目标"),
    ("E", GARLIC, "act 丁 潜行 乙", "丁处于沉默状态，不能使用潜行"),
    # ------------------------------------------------------------- 隐者
    ("A", ["dusk 1"], "act 辛 脱下隐身衣 甲", "脱下隐身衣在night使用，不在dusk"),
    ("A", ["night 1"], "act 辛 脱下隐身衣", "脱下隐身衣需要1个目标，给了0个"),
    ("A", ["night 1", "act 辛 脱下隐身衣 甲", "night 2"], "act 辛 脱下隐身衣 甲", "[隐身衣]尚有效才能发动"),
    ("A", ["night 1"], "act 辛 隐身衣", "隐身衣不需发送：按其规则自动生效"),
    # ------------------------------------------------------------- 灵能
    ("A", ["night 1"], "act 壬 感知 甲", "感知: 选择范围：任意一名已出局角色 (甲 is in the game)"),
    ("A", ["ruling remove 甲", "night 1"], "act 壬 感知", "感知需要1个目标，给了0个"),
    ("A", ["ruling remove 甲", "dusk 1"], "act 壬 感知 甲", "感知在night使用，不在dusk"),
    # ------------------------------------------------------------- 小女孩
    ("A", ["dusk 1"], "act 癸 窥视 --arg point=深夜", "窥视在night使用，不在dusk"),
    ("A", ["night 1"], "act 癸 窥视", "窥视 needs --arg point="),
    ("A", ["night 1"], "act 癸 窥视 --arg point=中午", "窥视 needs --arg point="),
    ("A", ["night 1"], "act 癸 窥视 --arg point=早夜99", "窥视 needs --arg point="),
    ("A", ["night 1"], "act 癸 窥视 甲 --arg point=深夜", "窥视需要0个目标，给了1个"),
    ("A", ["night 1"], "act 癸 窥视 --arg point=深夜 --arg x=1", "窥视: unknown --arg x (窥视 takes --arg point=…)"),
    # ------------------------------------------------------------- 天师
    ("A", ["dusk 1"], "act 子 通天 --arg question=狼人有几个", "通天在night使用，不在dusk"),
    ("A", ["night 1"], "act 子 通天", "通天 needs --arg question="),
    ("A", ["night 1"], "act 子 通天 --arg question=", "通天 needs --arg question="),
    ("A", ["night 1"], f"act 子 通天 --arg question={LONG21}", "通天: 询问导演任何20字以内的问题"),
    ("A", ["night 1"], "act 子 通天 甲 --arg question=狼人有几个", "通天需要0个目标，给了1个"),
    ("A", ["night 1", "act 子 通天 --arg question=乙是狼吗", "night 2"], "act 子 通天 --arg question=丙是狼吗",
     "子的通天已没有使用次数"),
    # ------------------------------------------------------------- 摄魂师
    ("A", ["dusk 1"], "act 丑 摄魂 甲", "摄魂在night使用，不在dusk"),
    ("A", ["night 1"], "act 丑 摄魂", "摄魂需要1个目标，给了0个"),
    ("A", ["night 1"], "act 丑 摄魂 无名", "没有玩家 无名（摄魂的目标）"),
    # ------------------------------------------------------------- 赌徒 (and its 骰子)
    ("A", ["dusk 1"], "act 寅 赌博", "赌博在night使用，不在dusk"),
    ("A", ["night 1"], "act 寅 赌博 甲", "赌博需要0个目标，给了1个"),
    ("A", ["night 1"], "act 寅 赌博 --arg 杀人=无名", "赌博: the target of 杀人 must be a player in the game"),
    ("A", ["night 1"], "act 寅 赌博 --arg 吃饭=甲", "赌博: --arg 吃饭=… is not a prize with a target"),
    ("A", ["night 1"], "act 寅 大奖", "大奖 needs --arg prize="),
    ("A", ["night 1"], "act 寅 大奖 --arg prize=彩票", "大奖 needs --arg prize="),
    ("A", ["night 1"], "act 寅 大奖 --arg prize=7", "大奖 needs --arg prize="),
    ("A", ["night 1"], "act 寅 大奖 --arg prize=杀人", "大奖: 杀人 takes one target"),
    ("A", ["night 1"], "act 寅 大奖 甲 --arg prize=免疫", "大奖: 免疫 takes no target"),
    ("A", ["night 1", "act 寅 大奖 --arg prize=免疫"], "act 寅 大奖 --arg prize=出人票", "寅的大奖已没有使用次数"),
    ("A", ["night 1"], "act 寅 杀人 甲", "寅（赌徒）没有技能 杀人"),  # a die's skill not rolled
    ("A", ["night 1"], "act 寅 冰冻 甲", "寅（赌徒）没有技能 冰冻"),
    # ------------------------------------------------------------- 狼王
    ("B", ["dusk 1"], "act 甲 冲锋 乙", "冲锋在night使用，不在dusk"),
    ("B", ["night 1"], "act 甲 冲锋", "冲锋需要1个目标，给了0个"),
    ("B", ["night 1", "act 甲 冲锋 乙"], "act 甲 冲锋 丙", "甲在night 1已经使用过冲锋（要更改请先 unact 撤回）"),
    ("B", ["night 1", "act 甲 冲锋 乙", "night 2"], "act 甲 冲锋 丙", "冲锋: 报复 has no use left"),
    ("B", ["night 1"], "act 甲 报复 乙", "报复在dawn/dusk使用，不在night"),
    ("B", ["dusk 1"], "act 甲 报复 乙", "报复 is [亡语]"),
    ("B", ["ruling remove 甲", "dawn 1"], "act 甲 报复 乙", "报复 is [亡语]"),
    ("B", ["night 1", "act 子 冰冻 甲", "dawn 1"], "act 甲 报复 乙", "甲处于冰冻状态，不能使用报复"),
    # ------------------------------------------------------------- 恐怖分子
    ("B", ["night 1"], "act 乙 爆破 丙", "爆破在noon使用，不在night"),
    ("B", ["noon 1"], "act 乙 爆破", "爆破需要1个目标，给了0个"),
    ("B", ["noon 1"], "act 乙 爆破 丙 丁", "爆破需要1个目标，给了2个"),
    ("B", ["noon 1"], "act 乙 爆破 无名", "没有玩家 无名（爆破的目标）"),
    ("B", ["ruling remove 乙", "noon 1"], "act 乙 爆破 丙", "乙已出局，不能行动"),
    # ------------------------------------------------------------- 噬时狼妃
    ("B", ["dusk 1"], "act 丙 时间逆流 甲", "时间逆流在night使用，不在dusk"),
    ("B", ["night 1"], "act 丙 时间逆流", "时间逆流需要1个目标，给了0个"),
    ("B", ["night 1"], "act 丙 时间逆流 甲 --arg a=b", "时间逆流: unknown --arg a"),
    # ------------------------------------------------------------- 蛊医
    ("B", ["dusk 1"], "act 丁 蛊惑 甲 --arg category=狼人", "蛊惑在night使用，不在dusk"),
    ("B", ["night 1"], "act 丁 蛊惑 甲", "蛊惑: choose a category with --arg category=狼人|强神|弱神"),
    ("B", ["night 1"], "act 丁 蛊惑 甲 --arg category=平民", "蛊惑: choose a category"),
    ("B", ["night 1"], "act 丁 蛊惑 --arg category=狼人", "蛊惑需要1个目标，给了0个"),
    ("B", ["night 1"], "act 丁 蛊惑 甲 --arg category=狼人 --arg x=1", "蛊惑: unknown --arg x"),
    # ------------------------------------------------------------- 恶灵骑士
    ("B", ["night 1"], "act 戊 主宰黑夜", "主宰黑夜 is <强制>: nobody sends it"),
    ("B", ["night 1"], "act 戊 邪恶 甲", "邪恶 is <强制>: nobody sends it"),
    # ------------------------------------------------------------- 撑杆僵尸
    ("B", ["dusk 1"], "act 己 跳跃", "跳跃在night使用，不在dusk"),
    ("B", ["night 1"], "act 己 跳跃 甲", "跳跃需要0个目标，给了1个"),
    ("B", ["night 1"], "act 己 跳跃 --arg a=b", "跳跃: unknown --arg a"),
    ("B", ["night 1", "act 己 跳跃", "night 2"], "act 己 跳跃", "己的跳跃已没有使用次数"),
    # ------------------------------------------------------------- 狼学者
    ("B", ["dusk 1"], "act 庚 诡辩 甲 --arg role=狼王", "诡辩在night使用，不在dusk"),
    ("B", ["night 1"], "act 庚 诡辩 甲", "诡辩: guess an identity of this board with --arg role="),
    ("B", ["night 1"], "act 庚 诡辩 甲 --arg role=平民", "诡辩: guess an identity of this board"),
    ("B", ["night 1"], "act 庚 诡辩 --arg role=狼王", "诡辩需要1个目标，给了0个"),
    # ------------------------------------------------------------- 隐狼
    ("B", ["dusk 1"], "act 辛 伪装 --arg effects=1,3,4", "伪装在opening使用，不在dusk"),
    ("B", [], "act 辛 伪装", "伪装: choose three different effects of 1-5"),
    ("B", [], "act 辛 伪装 --arg effects=1,2", "伪装: choose three different effects of 1-5"),
    ("B", [], "act 辛 伪装 --arg effects=1,3,3", "伪装: choose three different effects of 1-5"),
    ("B", [], "act 辛 伪装 --arg effects=1,3,6", "伪装: choose three different effects of 1-5"),
    ("B", [], "act 辛 伪装 --arg effects=a,b,c", "伪装: choose three different effects of 1-5"),
    ("B", [], "act 辛 伪装 --arg effects=1,3,4 --arg camp=狼人阵营", "伪装: camp set a disguise, which is effect 2"),
    ("B", [], "act 辛 伪装 --arg effects=1,2,4", "伪装 effect 2: give the disguise"),
    ("B", [], "act 辛 伪装 --arg effects=1,2,4 --arg camp=火星阵营", "伪装: 表面阵营 must be one of"),
    ("B", [], "act 辛 伪装 --arg effects=1,2,4 --arg role=大法师", "伪装: 表面身份 大法师 is not a role of this board"),
    ("B", [], "act 辛 伪装 --arg effects=1,2,4 --arg armed=也许", "伪装: 表面带刀 is 是 or 否"),
    ("B", [], "act 辛 伪装 --arg effects=1,3,4 --arg x=1", "伪装: unknown --arg x"),
    ("B", [], "act 辛 伪装 甲 --arg effects=1,3,4", "伪装需要0个目标，给了1个"),
    # ------------------------------------------------------------- 幽灵
    ("B", ["night 1"], "act 壬 附体 甲", "附体在dusk使用，不在night"),
    ("B", ["dusk 1"], "act 壬 附体", "附体需要1个目标，给了0个"),
    ("B", ["dusk 1"], "act 壬 附体 甲 乙", "附体需要1个目标，给了2个"),
    ("B", ["ruling remove 壬", "dusk 1"], "act 壬 附体 甲", "壬已出局，不能行动"),
    ("B", ["dusk 1"], "act 壬 夺舍", "夺舍: 连续两个游戏日[附体]的结算目标皆为同一个角色后"),
    ("F", ["dusk 1", "act 庚 附体 甲", "dusk 2", "act 庚 附体 甲", "dusk 3"], "act 庚 夺舍 甲",
     "夺舍需要0个目标，给了1个"),
    # ------------------------------------------------------------- 猎人
    ("B", ["night 1"], "act 癸 最后一枪 甲", "最后一枪在dawn/dusk使用，不在night"),
    ("B", ["dusk 1"], "act 癸 最后一枪 甲", "最后一枪 is [亡语]"),
    ("B", ["ruling remove 癸", "dawn 1"], "act 癸 最后一枪 甲", "最后一枪 is [亡语]"),
    # ------------------------------------------------------------- 双面人
    ("C", [], "act 甲 双面 --arg top=鬼", "双面: --arg top=狼|神|"),
    ("C", [], "act 甲 双面 --arg top=狼 --arg x=1", "双面: unknown --arg x (双面 takes --arg top=…)"),
    ("C", [], "act 甲 双面 甲 --arg top=狼", "双面不能以自己为目标"),
    ("C", ["dusk 1"], "act 甲 双面 --arg top=狼", "双面在opening使用，不在dusk"),
    ("C", [], "act 甲 生死逆转 乙", "生死逆转在dusk使用，不在opening"),
    ("C", ["dusk 1"], "act 甲 生死逆转", "生死逆转需要1个目标，给了0个"),
    ("C", ["ruling remove 甲", "dusk 1"], "act 甲 生死逆转 乙", "甲已出局，不能行动"),
    ("C", ["dusk 1", "act 甲 生死逆转 乙", "dusk 2"], "act 甲 生死逆转 丙", "甲的生死逆转已没有使用次数"),
    # ------------------------------------------------------------- 宗教老爷爷
    ("C", ["dusk 1"], "act 乙 异端 甲 丙 丁 戊 己 庚 辛", "异端在opening使用，不在dusk"),
    ("C", [], "act 乙 异端", "异端需要1到99个目标，给了0个"),
    ("C", [], "act 乙 异端 甲", "异端: choose exactly 7 different players other than yourself"),
    ("C", [], "act 乙 异端 甲 甲 丁 戊 己 庚 辛", "异端: choose exactly 7 different players"),
    ("C", [], "act 乙 异端 甲 丙 丁 戊 己 庚 乙", "异端不能以自己为目标"),
    ("C", [], "act 乙 异端 甲 丙 丁 戊 己 庚 无名", "没有玩家 无名（异端的目标）"),
    ("C", [], "act 乙 异端处决", "异端处决不需发送：按其规则自动生效"),
    # ------------------------------------------------------------- 太阳
    ("C", ["noon 1"], "act 丙 日", "日不需发送：按其规则自动生效"),
    ("C", ["noon 1"], "act 丙 日不落 甲", "日不落在extra-noon使用，不在noon"),
    ("F", SUN_OUT, "act 丙 日不落", "日不落需要1到99个目标，给了0个"),
    ("F", SUN_OUT, "act 丙 日不落 甲 乙 丁 戊 己 庚 辛", "日不落: at most 6 players (half of the 13 living)"),
    ("F", SUN_OUT, "act 丙 日不落 甲 甲", "日不落: 甲 is named twice"),
    ("F", SUN_OUT, "act 丙 日不落 丙", "丙已出局，不能成为日不落的目标"),
    ("F", SUN_OUT, "act 丙 日不落 甲 --arg x=1", "日不落: unknown --arg x"),
    ("F", SUN_OUT, "act 甲 日不落 乙", "甲（丘比特）没有技能 日不落"),
    # ------------------------------------------------------------- 白猫, 大蒜, 熊 (standing, triggered)
    ("C", [], "act 丁 猫有九命", "猫有九命不需发送：按其规则自动生效"),
    ("C", [], "act 戊 熏臭", "熏臭不需发送：按其规则自动生效"),
    ("C", ["dusk 1"], "act 己 咆哮", "咆哮不需发送：按其规则自动生效"),
    # ------------------------------------------------------------- 镜
    ("C", ["dusk 1"], "act 庚 镜像 --arg skill=预言", "镜像在dawn使用，不在dusk"),
    ("C", ["dawn 1"], "act 庚 镜像", "镜像 needs --arg skill=… (skills used on 庚: none yet)"),
    ("C", ["dawn 1"], "act 庚 镜像 --arg skill=吃饭", "镜像: '吃饭' has not been used on 庚"),
    ("C", ["dawn 1"], "act 庚 镜像 甲 --arg skill=预言", "镜像需要0个目标，给了1个"),
    ("C", ["night 1"], "act 庚 反射", "反射不需发送：按其规则自动生效"),
    ("C", ["night 1"], "act 庚 折镜 甲", "折镜在dusk使用，不在night"),
    ("C", ["dusk 1"], "act 庚 折镜", "折镜需要1个目标，给了0个"),
    ("C", ["dusk 1"], "act 庚 折镜 甲 --arg x=1", "折镜: unknown --arg x"),
    # ------------------------------------------------------------- 丘比特, 情侣
    ("C", ["dusk 1"], "act 辛 丘比特之箭 甲 乙", "丘比特之箭在opening使用，不在dusk"),
    ("C", [], "act 辛 丘比特之箭 甲", "丘比特之箭需要2个目标，给了1个"),
    ("C", [], "act 辛 丘比特之箭 甲 乙 丙", "丘比特之箭需要2个目标，给了3个"),
    ("C", [], "act 辛 丘比特之箭 甲 甲", "丘比特之箭: 选择范围：任意两名角色 (two different players)"),
    ("C", [], "act 辛 丘比特之箭 甲 无名", "没有玩家 无名（丘比特之箭的目标）"),
    ("C", ["ruling remove 甲"], "act 辛 丘比特之箭 甲 乙", "甲已出局，不能成为丘比特之箭的目标"),
    ("C", [], "act 辛 连新情侣 甲 乙", "连新情侣在dusk/night/dawn/noon使用，不在opening"),
    ("F", LOVERS, "act 甲 连新情侣 丁 戊", "连新情侣: 获得后可以立刻选择连新情侣"),
    ("C", [], "act 辛 情侣选刀 甲", "辛（丘比特）没有技能 情侣选刀"),
    ("F", LOVERS, "act 乙 情侣选刀", "情侣选刀需要1个目标，给了0个"),
    ("F", LOVERS, "act 乙 情侣选刀 丁", "情侣选刀: 情侣内部两人选择一人 — choose yourself or your lover"),
    ("F", [*LOVERS, "act 乙 情侣选刀 乙"], "act 丙 情侣选刀 丙", "情侣选刀: only the lovers of a 不定 pair that has not chosen yet"),
    # ------------------------------------------------------------- 影子
    ("D", ["dusk 1"], "act 戊 附身 甲", "附身在opening使用，不在dusk"),
    ("D", [], "act 戊 附身", "附身需要1个目标，给了0个"),
    ("D", [], "act 戊 附身 甲 乙", "附身需要1个目标，给了2个"),
    ("D", [], "act 戊 附身 戊", "附身不能以自己为目标"),
    ("D", [], "act 戊 附身 无名", "没有玩家 无名（附身的目标）"),
    ("D", ["ruling remove 甲"], "act 戊 附身 甲", "甲已出局，不能成为附身的目标"),
    # ------------------------------------------------------------- 暗恋者, 情书对象
    ("D", [], "act 己 跨越千里 甲", "跨越千里: the farthest player is 寅; there is nothing to choose"),
    ("D", ["night 1"], "act 己 情书 --arg text=你好", "情书在noon使用，不在night"),
    ("D", ["noon 1"], "act 己 情书", "情书: --arg text=… of 1 to 50 characters"),
    ("D", ["noon 1"], "act 己 情书 --arg text=", "情书: --arg text=… of 1 to 50 characters"),
    ("D", ["noon 1"], f"act 己 情书 --arg text={LONG51}", "情书: --arg text=… of 1 to 50 characters"),
    ("D", ["noon 1"], "act 己 情书 甲 --arg text=你好", "情书需要0个目标，给了1个"),
    ("D", ["noon 1"], "act 己 情书 --arg text=你好 --arg x=1", "情书: unknown --arg x"),
    ("D", LETTER, "act 己 情书 --arg text=再见", "己在noon 1已经使用过情书（要更改请先 unact 撤回）"),
    ("D", ["noon 3"], "act 己 情书 --arg text=你好", "情书 is first sent in the first 2 noons"),
    ("D", ["noon 1"], "act 寅 回信 --arg text=你好", "寅（乌鸦）没有技能 回信"),
    ("D", LETTER, "act 寅 回信 --arg text=", "回信: --arg text=… of 1 to 50 characters"),
    ("D", LETTER, f"act 寅 回信 --arg text={LONG51}", "回信: --arg text=… of 1 to 50 characters"),
    ("D", LETTER, "act 寅 回信 甲 --arg text=你好", "回信需要0个目标，给了1个"),
    ("D", [*LETTER, "act 寅 回信 --arg text=嗯"], "act 寅 回信 --arg text=嗯嗯", "寅在noon 1已经使用过回信（要更改请先 unact 撤回）"),
    # ------------------------------------------------------------- 粉丝
    ("D", ["dusk 1"], "act 庚 追随 甲", "追随在opening使用，不在dusk"),
    ("D", [], "act 庚 追随", "追随需要1个目标，给了0个"),
    ("D", [], "act 庚 追随 庚", "追随不能以自己为目标"),
    ("D", [], "act 庚 追随 甲 乙", "追随需要1个目标，给了2个"),
    ("D", ["ruling remove 甲"], "act 庚 追随 甲", "甲已出局，不能成为追随的目标"),
    # ------------------------------------------------------------- 复仇者
    ("D", [], "act 辛 寻仇", "寻仇不需发送：按其规则自动生效"),
    ("D", ["night 1"], "act 辛 雪恨", "雪恨不需发送：按其规则自动生效"),
    # ------------------------------------------------------------- 狼兄, 狼弟
    ("D", ["night 1"], "act 甲 暴怒 丙", "暴怒 is [0：狼弟出局时]: it has no use until 狼弟 has left the game"),
    ("D", ["noon 1"], "act 甲 齐心", "齐心不需发送：按其规则自动生效"),
    ("D", ["dusk 1"], "act 乙 潜藏 --arg camp=村民阵营", "潜藏在opening使用，不在dusk"),
    ("D", [], "act 乙 潜藏 --arg camp=火星阵营", "潜藏: 火星阵营 is not a camp of this board"),
    ("D", [], "act 乙 潜藏 --arg role=大法师", "潜藏: 表面身份 大法师 is not a role of this board"),
    ("D", [], "act 乙 潜藏 --arg armed=也许", "潜藏: armed is 是 or 否"),
    ("D", [], "act 乙 潜藏 --arg x=1", "潜藏: unknown --arg x (潜藏 takes --arg camp=…、--arg role=…、--arg armed=…)"),
    ("D", [], "act 乙 潜藏 甲", "潜藏需要0个目标，给了1个"),
    ("D", ["night 1"], "act 乙 继承 丙", "继承 is [0：获得群内标签时]: it has no use until 狼弟 has the [群内] tag"),
    ("D", ["noon 1"], "act 乙 齐心", "齐心不需发送：按其规则自动生效"),
    # ------------------------------------------------------------- 幼狼
    ("D", ["night 1"], "act 丙 激励", "激励不需发送：按其规则自动生效"),
    ("D", ["dusk 1"], "act 丙 牺牲", "牺牲在night使用，不在dusk"),
    ("D", ["night 1"], "act 丙 牺牲 甲", "牺牲需要0个目标，给了1个"),
    ("D", ["night 1"], "act 丙 牺牲 --arg after=吃饭", "牺牲: after must be 最先 or a rule of (20)"),
    ("D", ["night 1"], "act 丙 牺牲 --arg x=1", "牺牲: unknown --arg x"),
    # ------------------------------------------------------------- 狼鸦之爪
    ("D", ["night 1"], "act 丁 夜之锋刃 甲", "夜之锋刃: 若狼人阵营存活人数为2及以下 (more are in the game)"),
    ("D", ["dusk 1"], "act 丁 夜之锋刃 甲", "夜之锋刃在night使用，不在dusk"),
]


def play(cli, deal: str, setup: list[str]) -> None:
    path = cli.db.parent / "deal.toml"
    path.write_text("".join(f'[[players]]\nname = "{n}"\nrole = "{r}"\n' for n, r in zip(NAMES, DEALS[deal], strict=True)),
                    encoding="utf-8")
    cli.ok("new", "g", "--ruleset", "m217", "--deal", path)
    for step in setup:
        if PHASE.match(step):
            for _ in range(30):
                if cli.load().label == step:
                    break
                cli.ok("resolve", "g")
            assert cli.load().label == step, step
        else:
            cli.ok(*command(step))


def command(text: str) -> list[str]:
    verb, *rest = text.split(" ")
    return [verb, "g", *rest]


@pytest.mark.parametrize(("deal", "setup", "cmd", "message"), ROWS, ids=[r[2] for r in ROWS])
def test_bad_input_is_refused(bansha_cli, deal, setup, cmd, message):
    play(bansha_cli, deal, setup)
    bansha_cli.refused(*command(cmd), message=message)


def test_any_state_skills_are_sent_under_silence(bansha_cli):
    """> 赌博…在任何状态下都可以发动。 — 沉默 (大蒜<熏臭>) stops 面包师 beside him, not the 赌徒."""
    play(bansha_cli, "E", GARLIC)
    assert any(s.name == "沉默" for s in bansha_cli.load().players["甲"].statuses)
    bansha_cli.ok("act", "g", "甲", "赌博")
    bansha_cli.ok("act", "g", "甲", "大奖", "--arg", "prize=免疫")
    bansha_cli.refused("act", "g", "丙", "芬芳", "丙", "丁", "戊", message="丙处于沉默状态")


def test_the_ghosts_by_arg_is_not_an_unknown_arg(bansha_cli):
    """``--arg by=幽灵`` is taken by every skill ([操纵夺舍]); without the control it is refused by
    the 幽灵's rule, not as an unknown --arg."""
    play(bansha_cli, "A", ["night 1"])
    r = bansha_cli.refused("act", "g", "丙", "诽谤", "丁", "--arg", "by=甲", message="[操纵夺舍]")
    assert "unknown --arg" not in r.output
