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
    ("A", ["night 1"], "act 无名 占星 乙", "unknown player '无名'"),
    ("A", ["night 1"], "act 甲 杀人 乙", "甲 (占星师) has no skill '杀人'"),
    ("A", ["night 1"], "act 甲 占星 乙 --arg 乙", "expected KEY=VALUE"),
    # ------------------------------------------------------------- 占星师
    ("A", [], "act 甲 占星 乙", "占星 is used in night, not in opening"),
    ("A", ["night 1"], "act 甲 占星", "占星 takes 1 to 2 target(s), got 0"),
    ("A", ["night 1"], "act 甲 占星 乙 丙 丁", "占星 takes 1 to 2 target(s), got 3"),
    ("A", ["night 1"], "act 甲 占星 乙 丙", "占星：第二个目标须已出局（一个已出局任意角色），丙仍在场上"),
    ("A", ["night 1"], "act 甲 占星 乙 乙", "占星：第二个目标须已出局（一个已出局任意角色），乙仍在场上"),
    ("A", ["night 1"], "act 甲 占星 无名", "unknown player '无名' as target of 占星"),
    ("A", ["ruling remove 丙", "night 1"], "act 甲 占星 丙", "占星：第一个目标须为场上角色（一个任意角色），第二个须已出局（一个已出局任意角色）"),
    ("A", ["ruling remove 甲", "night 1"], "act 甲 占星 乙", "甲 is out of the game and cannot act"),
    ("A", ["night 1"], "act 甲 占星 乙 --arg x=1", "占星：没有参数 --arg x（占星可用：不带 --arg）"),
    ("A", ["night 1"], "act 甲 命运洪流 --arg 乙=黑蝙蝠", "命运洪流 is used in noon, not in night"),
    ("A", ["noon 1"], "act 甲 命运洪流", "命运洪流须给出名单：每名角色一个 --arg 马甲=身份"),
    ("A", ["noon 1"], "act 甲 命运洪流 --arg 无名=预言家", "命运洪流：名单中没有名为“无名”的角色"),
    ("A", ["noon 1"], "act 甲 命运洪流 --arg 乙=大法师", "命运洪流：乙的身份“大法师”不是本版的身份"),
    ("A", ["noon 1"], "act 甲 命运洪流 乙 --arg 乙=黑蝙蝠", "命运洪流 takes 0 target(s), got 1"),
    # ------------------------------------------------------------- 黑蝙蝠
    ("A", ["dusk 1"], "act 乙 庇护 丙", "庇护 is used in night, not in dusk"),
    ("A", ["night 1"], "act 乙 庇护", "庇护 takes 1 target(s), got 0"),
    ("A", ["night 1"], "act 乙 庇护 丙 丁", "庇护 takes 1 target(s), got 2"),
    ("A", ["night 1"], "act 乙 庇护 无名", "unknown player '无名' as target of 庇护"),
    ("A", ["night 1"], "act 乙 庇护 丙 --arg a=b", "庇护：没有参数 --arg a（庇护可用：不带 --arg）"),
    ("A", ["night 1", "act 乙 庇护 丙", "night 2"], "act 乙 庇护 丙", "庇护 may not be used on 丙 two nights running"),
    ("A", ["night 1"], "act 乙 反弹 丙", "反弹是<强制>技能：无需发动，夜晚第(18)步自动结算"),
    # ------------------------------------------------------------- 乌鸦
    ("A", ["dusk 1"], "act 丙 诽谤 丁", "诽谤 is used in night, not in dusk"),
    ("A", ["night 1"], "act 丙 诽谤", "诽谤 takes 1 target(s), got 0"),
    ("A", ["night 1"], "act 丙 诽谤 丁 戊", "诽谤 takes 1 target(s), got 2"),
    ("A", ["ruling remove 丙", "night 1"], "act 丙 诽谤 丁", "丙 is out of the game and cannot act"),
    ("A", ["night 1"], "act 丙 诽谤 丁 --arg a=b", "诽谤：没有参数 --arg a（诽谤可用：不带 --arg）"),
    # ------------------------------------------------------------- 面包师
    ("A", ["dusk 1"], "act 丁 芬芳 甲 乙 丙 丁", "芬芳 is used in night, not in dusk"),
    ("A", ["night 1"], "act 丁 芬芳", "芬芳 takes 1 to 99 target(s), got 0"),
    ("A", ["night 1"], "act 丁 芬芳 甲 丙", "芬芳须选择电梯楼中连续的4名存活角色（存活人数/4，四舍五入）"),
    ("A", ["night 1"], "act 丁 芬芳 甲 乙 丙 丁 戊 己", "芬芳须选择电梯楼中连续的4名存活角色（存活人数/4，四舍五入）"),
    ("A", ["night 1"], "act 丁 芬芳 甲 甲 乙 丙", "芬芳须选择电梯楼中连续的4名存活角色（存活人数/4，四舍五入）"),
    ("A", ["night 1", "act 丁 芬芳 甲 乙 丙 丁", "night 2"], "act 丁 芬芳 甲 乙 丙 丁", "丁 has no use of 芬芳 left"),
    ("E", GARLIC, "act 丙 芬芳 丙 丁 戊", "丙 is under 沉默 and cannot use 芬芳"),
    # ------------------------------------------------------------- 侍从
    ("A", ["dusk 1"], "act 戊 替死 甲", "替死 is used in night, not in dusk"),
    ("A", ["night 1"], "act 戊 替死", "替死 takes 1 target(s), got 0"),
    ("A", ["night 1"], "act 戊 替死 戊", "替死 may not target oneself"),
    ("A", ["night 1", "act 戊 替死 甲", "night 2"], "act 戊 替死 甲", "替死：甲已被选择过（每名玩家仅可被选择一次）"),
    # ------------------------------------------------------------- 花匠
    ("A", [], "act 己 玫瑰", "玫瑰 takes 1 target(s), got 0"),
    ("A", [], "act 己 玫瑰 甲 乙", "玫瑰 takes 1 target(s), got 2"),
    ("A", ["act 己 玫瑰 甲"], "act 己 玫瑰 乙", "己 has no use of 玫瑰 left"),
    ("A", ["ruling remove 甲"], "act 己 玫瑰 甲", "甲 is out of the game and cannot be targeted by 玫瑰"),
    ("F", ["act 丁 玫瑰 戊"], "act 戊 玫瑰 丁", "玫瑰：上一枝玫瑰由丁送给你，不能选择丁"),
    ("F", ["night 1", "act 壬 冰冻 丁", "dawn 1"], "act 丁 玫瑰 戊", "丁 is under 冰冻 and cannot use 玫瑰"),
    ("E", GARLIC, "act 卯 玫瑰 戊", "卯 is under 沉默 and cannot use 玫瑰"),
    # ------------------------------------------------------------- 潜行者
    ("A", ["night 1"], "act 庚 潜行 甲", "潜行：甲不是庚前一天的投票对象（当天投票对象）"),
    ("A", ["noon 1", "vote 庚 丙 --post 1", "night 2"], "act 庚 潜行", "潜行 takes 1 target(s), got 0"),
    ("A", ["noon 1", "vote 庚 丙 --post 1", "night 2"], "act 庚 潜行 丙", "丙 is out of the game and cannot be targeted"),
    ("E", GARLIC, "act 丁 潜行 乙", "丁 is under 沉默 and cannot use 潜行"),
    # ------------------------------------------------------------- 隐者
    ("A", ["dusk 1"], "act 辛 脱下隐身衣 甲", "脱下隐身衣 is used in night, not in dusk"),
    ("A", ["night 1"], "act 辛 脱下隐身衣", "脱下隐身衣 takes 1 target(s), got 0"),
    ("A", ["night 1", "act 辛 脱下隐身衣 甲", "night 2"], "act 辛 脱下隐身衣 甲", "[隐身衣]尚有效才能发动"),
    ("A", ["night 1"], "act 辛 隐身衣", "隐身衣 is not sent: it applies by itself"),
    # ------------------------------------------------------------- 灵能
    ("A", ["night 1"], "act 壬 感知 甲", "感知：选择范围：任意一名已出局角色（甲仍在场上）"),
    ("A", ["ruling remove 甲", "night 1"], "act 壬 感知", "感知 takes 1 target(s), got 0"),
    ("A", ["ruling remove 甲", "dusk 1"], "act 壬 感知 甲", "感知 is used in night, not in dusk"),
    # ------------------------------------------------------------- 小女孩
    ("A", ["dusk 1"], "act 癸 窥视 --arg point=深夜", "窥视 is used in night, not in dusk"),
    ("A", ["night 1"], "act 癸 窥视", "窥视须给出 --arg point=<夜晚的一步（早夜1、早夜2、早夜3、早夜4、早夜5、早夜6、早夜7、早夜8、午夜9、午夜10、午夜11、午夜12a、午夜12b、午夜13、午夜14a、午夜15a、深夜14b、深夜15b、凌晨16、凌晨17、凌晨18、出局19、出局20）或一个时段（早夜/午夜/深夜/凌晨）>"),
    ("A", ["night 1"], "act 癸 窥视 --arg point=中午", "窥视须给出 --arg point=<夜晚的一步（早夜1、早夜2、早夜3、早夜4、早夜5、早夜6、早夜7、早夜8、午夜9、午夜10、午夜11、午夜12a、午夜12b、午夜13、午夜14a、午夜15a、深夜14b、深夜15b、凌晨16、凌晨17、凌晨18、出局19、出局20）或一个时段（早夜/午夜/深夜/凌晨）>"),
    ("A", ["night 1"], "act 癸 窥视 --arg point=早夜99", "窥视须给出 --arg point=<夜晚的一步（早夜1、早夜2、早夜3、早夜4、早夜5、早夜6、早夜7、早夜8、午夜9、午夜10、午夜11、午夜12a、午夜12b、午夜13、午夜14a、午夜15a、深夜14b、深夜15b、凌晨16、凌晨17、凌晨18、出局19、出局20）或一个时段（早夜/午夜/深夜/凌晨）>"),
    ("A", ["night 1"], "act 癸 窥视 甲 --arg point=深夜", "窥视 takes 0 target(s), got 1"),
    ("A", ["night 1"], "act 癸 窥视 --arg point=深夜 --arg x=1", "窥视：没有参数 --arg x（窥视可用：--arg point=…）"),
    # ------------------------------------------------------------- 天师
    ("A", ["dusk 1"], "act 子 通天 --arg question=狼人有几个", "通天 is used in night, not in dusk"),
    ("A", ["night 1"], "act 子 通天", "通天须给出 --arg question=…"),
    ("A", ["night 1"], "act 子 通天 --arg question=", "通天须给出 --arg question=…"),
    ("A", ["night 1"], f"act 子 通天 --arg question={LONG21}", "通天: 询问导演任何20字以内的问题"),
    ("A", ["night 1"], "act 子 通天 甲 --arg question=狼人有几个", "通天 takes 0 target(s), got 1"),
    ("A", ["night 1", "act 子 通天 --arg question=乙是狼吗", "night 2"], "act 子 通天 --arg question=丙是狼吗",
     "子 has no use of 通天 left"),
    # ------------------------------------------------------------- 摄魂师
    ("A", ["dusk 1"], "act 丑 摄魂 甲", "摄魂 is used in night, not in dusk"),
    ("A", ["night 1"], "act 丑 摄魂", "摄魂 takes 1 target(s), got 0"),
    ("A", ["night 1"], "act 丑 摄魂 无名", "unknown player '无名' as target of 摄魂"),
    # ------------------------------------------------------------- 赌徒 (and its 骰子)
    ("A", ["dusk 1"], "act 寅 赌博", "赌博 is used in night, not in dusk"),
    ("A", ["night 1"], "act 寅 赌博 甲", "赌博 takes 0 target(s), got 1"),
    ("A", ["night 1"], "act 寅 赌博 --arg 杀人=无名", "赌博：杀人的目标须为场上角色，而不是“无名”"),
    ("A", ["night 1"], "act 寅 赌博 --arg 吃饭=甲", "赌博：--arg 吃饭=… 不是需要目标的奖项（杀人、通灵、沉默）"),
    ("A", ["night 1"], "act 寅 大奖", "大奖须给出 --arg prize=出人票|杀人|通灵|免疫|沉默|大奖"),
    ("A", ["night 1"], "act 寅 大奖 --arg prize=彩票", "大奖须给出 --arg prize=出人票|杀人|通灵|免疫|沉默|大奖"),
    ("A", ["night 1"], "act 寅 大奖 --arg prize=7", "大奖须给出 --arg prize=出人票|杀人|通灵|免疫|沉默|大奖"),
    ("A", ["night 1"], "act 寅 大奖 --arg prize=杀人", "大奖：杀人须指定1个目标"),
    ("A", ["night 1"], "act 寅 大奖 甲 --arg prize=免疫", "大奖：免疫不指定目标"),
    ("A", ["night 1", "act 寅 大奖 --arg prize=免疫"], "act 寅 大奖 --arg prize=出人票", "寅 has no use of 大奖 left"),
    ("A", ["night 1"], "act 寅 杀人 甲", "寅 (赌徒) has no skill '杀人'"),  # a die's skill not rolled
    ("A", ["night 1"], "act 寅 冰冻 甲", "寅 (赌徒) has no skill '冰冻'"),
    # ------------------------------------------------------------- 狼王
    ("B", ["dusk 1"], "act 甲 冲锋 乙", "冲锋 is used in night, not in dusk"),
    ("B", ["night 1"], "act 甲 冲锋", "冲锋 takes 1 target(s), got 0"),
    ("B", ["night 1", "act 甲 冲锋 乙"], "act 甲 冲锋 丙", "甲 has already used 冲锋 in night 1"),
    ("B", ["night 1", "act 甲 冲锋 乙", "night 2"], "act 甲 冲锋 丙", "冲锋：报复已没有次数（若报复有次数时，消耗1点报复次数）"),
    ("B", ["night 1"], "act 甲 报复 乙", "报复 is used in dawn/dusk, not in night"),
    ("B", ["dusk 1"], "act 甲 报复 乙", "报复是[亡语]技能：在持有者出局后的第一个晨曦/黄昏发动"),
    ("B", ["ruling remove 甲", "dawn 1"], "act 甲 报复 乙", "报复是[亡语]技能：在持有者出局后的第一个晨曦/黄昏发动"),
    ("B", ["night 1", "act 子 冰冻 甲", "dawn 1"], "act 甲 报复 乙", "甲 is under 冰冻 and cannot use 报复"),
    # ------------------------------------------------------------- 恐怖分子
    ("B", ["night 1"], "act 乙 爆破 丙", "爆破 is used in noon, not in night"),
    ("B", ["noon 1"], "act 乙 爆破", "爆破 takes 1 target(s), got 0"),
    ("B", ["noon 1"], "act 乙 爆破 丙 丁", "爆破 takes 1 target(s), got 2"),
    ("B", ["noon 1"], "act 乙 爆破 无名", "unknown player '无名' as target of 爆破"),
    ("B", ["ruling remove 乙", "noon 1"], "act 乙 爆破 丙", "乙 is out of the game and cannot act"),
    # ------------------------------------------------------------- 噬时狼妃
    ("B", ["dusk 1"], "act 丙 时间逆流 甲", "时间逆流 is used in night, not in dusk"),
    ("B", ["night 1"], "act 丙 时间逆流", "时间逆流 takes 1 target(s), got 0"),
    ("B", ["night 1"], "act 丙 时间逆流 甲 --arg a=b", "时间逆流：没有参数 --arg a（时间逆流可用：不带 --arg）"),
    # ------------------------------------------------------------- 蛊医
    ("B", ["dusk 1"], "act 丁 蛊惑 甲 --arg category=狼人", "蛊惑 is used in night, not in dusk"),
    ("B", ["night 1"], "act 丁 蛊惑 甲", "蛊惑：须用 --arg category=狼人|强神|弱神 选择类别"),
    ("B", ["night 1"], "act 丁 蛊惑 甲 --arg category=平民", "蛊惑：须用 --arg category=狼人|强神|弱神 选择类别"),
    ("B", ["night 1"], "act 丁 蛊惑 --arg category=狼人", "蛊惑 takes 1 target(s), got 0"),
    ("B", ["night 1"], "act 丁 蛊惑 甲 --arg category=狼人 --arg x=1", "蛊惑：没有参数 --arg x（蛊惑可用：--arg category=…）"),
    # ------------------------------------------------------------- 恶灵骑士
    ("B", ["night 1"], "act 戊 主宰黑夜", "主宰黑夜是<强制>技能：无需发动，夜晚第(18)步自动结算"),
    ("B", ["night 1"], "act 戊 邪恶 甲", "邪恶是<强制>技能：无需发动，夜晚第(18)步自动结算"),
    # ------------------------------------------------------------- 撑杆僵尸
    ("B", ["dusk 1"], "act 己 跳跃", "跳跃 is used in night, not in dusk"),
    ("B", ["night 1"], "act 己 跳跃 甲", "跳跃 takes 0 target(s), got 1"),
    ("B", ["night 1"], "act 己 跳跃 --arg a=b", "跳跃：没有参数 --arg a（跳跃可用：不带 --arg）"),
    ("B", ["night 1", "act 己 跳跃", "night 2"], "act 己 跳跃", "己 has no use of 跳跃 left"),
    # ------------------------------------------------------------- 狼学者
    ("B", ["dusk 1"], "act 庚 诡辩 甲 --arg role=狼王", "诡辩 is used in night, not in dusk"),
    ("B", ["night 1"], "act 庚 诡辩 甲", "诡辩：须用 --arg role=… 猜测本版的一个身份"),
    ("B", ["night 1"], "act 庚 诡辩 甲 --arg role=平民", "诡辩：须用 --arg role=… 猜测本版的一个身份"),
    ("B", ["night 1"], "act 庚 诡辩 --arg role=狼王", "诡辩 takes 1 target(s), got 0"),
    # ------------------------------------------------------------- 隐狼
    ("B", ["dusk 1"], "act 辛 伪装 --arg effects=1,3,4", "伪装 is used in opening, not in dusk"),
    ("B", [], "act 辛 伪装", "伪装：须从1-5中选择三项不同效果（--arg effects=1,2,4）"),
    ("B", [], "act 辛 伪装 --arg effects=1,2", "伪装：须从1-5中选择三项不同效果（--arg effects=1,2,4）"),
    ("B", [], "act 辛 伪装 --arg effects=1,3,3", "伪装：须从1-5中选择三项不同效果（--arg effects=1,2,4）"),
    ("B", [], "act 辛 伪装 --arg effects=1,3,6", "伪装：须从1-5中选择三项不同效果（--arg effects=1,2,4）"),
    ("B", [], "act 辛 伪装 --arg effects=a,b,c", "伪装：须从1-5中选择三项不同效果（--arg effects=1,2,4）"),
    ("B", [], "act 辛 伪装 --arg effects=1,3,4 --arg camp=狼人阵营", "伪装：camp用于设定伪装，属于效果2（未选择效果2）"),
    ("B", [], "act 辛 伪装 --arg effects=1,2,4", "伪装效果2：须给出伪装（--arg camp=… role=… armed=是|否）"),
    ("B", [], "act 辛 伪装 --arg effects=1,2,4 --arg camp=火星阵营", "伪装：表面阵营须为狼人阵营、村民阵营、三方阵营、不定阵营、黑情侣阵营之一"),
    ("B", [], "act 辛 伪装 --arg effects=1,2,4 --arg role=大法师", "伪装：表面身份大法师不是本版的身份"),
    ("B", [], "act 辛 伪装 --arg effects=1,2,4 --arg armed=也许", "伪装：表面带刀须为是或否"),
    ("B", [], "act 辛 伪装 --arg effects=1,3,4 --arg x=1", "伪装：没有参数 --arg x（伪装可用：--arg effects=…、--arg camp=…、--arg role=…、--arg armed=…）"),
    ("B", [], "act 辛 伪装 甲 --arg effects=1,3,4", "伪装 takes 0 target(s), got 1"),
    # ------------------------------------------------------------- 幽灵
    ("B", ["night 1"], "act 壬 附体 甲", "附体 is used in dusk, not in night"),
    ("B", ["dusk 1"], "act 壬 附体", "附体 takes 1 target(s), got 0"),
    ("B", ["dusk 1"], "act 壬 附体 甲 乙", "附体 takes 1 target(s), got 2"),
    ("B", ["ruling remove 壬", "dusk 1"], "act 壬 附体 甲", "壬 is out of the game and cannot act"),
    ("B", ["dusk 1"], "act 壬 夺舍", "夺舍：连续两个游戏日[附体]的结算目标皆为同一个角色后"),
    ("F", ["dusk 1", "act 庚 附体 甲", "dusk 2", "act 庚 附体 甲", "dusk 3"], "act 庚 夺舍 甲",
     "夺舍 takes 0 target(s), got 1"),
    # ------------------------------------------------------------- 猎人
    ("B", ["night 1"], "act 癸 最后一枪 甲", "最后一枪 is used in dawn/dusk, not in night"),
    ("B", ["dusk 1"], "act 癸 最后一枪 甲", "最后一枪是[亡语]技能：在猎人出局后的第一个晨曦/黄昏发动"),
    ("B", ["ruling remove 癸", "dawn 1"], "act 癸 最后一枪 甲", "最后一枪是[亡语]技能：在猎人出局后的第一个晨曦/黄昏发动"),
    # ------------------------------------------------------------- 双面人
    ("C", [], "act 甲 双面 --arg top=鬼", "双面：须给出 --arg top=狼|神|"),
    ("C", [], "act 甲 双面 --arg top=狼 --arg x=1", "双面：没有参数 --arg x（双面可用：--arg top=…）"),
    ("C", [], "act 甲 双面 甲 --arg top=狼", "双面 may not target oneself"),
    ("C", ["dusk 1"], "act 甲 双面 --arg top=狼", "双面 is used in opening, not in dusk"),
    ("C", [], "act 甲 生死逆转 乙", "生死逆转 is used in dusk, not in opening"),
    ("C", ["dusk 1"], "act 甲 生死逆转", "生死逆转 takes 1 target(s), got 0"),
    ("C", ["ruling remove 甲", "dusk 1"], "act 甲 生死逆转 乙", "甲 is out of the game and cannot act"),
    ("C", ["dusk 1", "act 甲 生死逆转 乙", "dusk 2"], "act 甲 生死逆转 丙", "甲 has no use of 生死逆转 left"),
    # ------------------------------------------------------------- 宗教老爷爷
    ("C", ["dusk 1"], "act 乙 异端 甲 丙 丁 戊 己 庚 辛", "异端 is used in opening, not in dusk"),
    ("C", [], "act 乙 异端", "异端 takes 1 to 99 target(s), got 0"),
    ("C", [], "act 乙 异端 甲", "异端：须选择除自己以外恰好7名不同角色（一半，小数上取整）"),
    ("C", [], "act 乙 异端 甲 甲 丁 戊 己 庚 辛", "异端：须选择除自己以外恰好7名不同角色（一半，小数上取整）"),
    ("C", [], "act 乙 异端 甲 丙 丁 戊 己 庚 乙", "异端 may not target oneself"),
    ("C", [], "act 乙 异端 甲 丙 丁 戊 己 庚 无名", "unknown player '无名' as target of 异端"),
    ("C", [], "act 乙 异端处决", "异端处决 is not sent: it applies by itself"),
    # ------------------------------------------------------------- 太阳
    ("C", ["noon 1"], "act 丙 日", "日 is not sent: it applies by itself"),
    ("C", ["noon 1"], "act 丙 日不落 甲", "日不落 is used in extra-noon, not in noon"),
    ("F", SUN_OUT, "act 丙 日不落", "日不落 takes 1 to 99 target(s), got 0"),
    ("F", SUN_OUT, "act 丙 日不落 甲 乙 丁 戊 己 庚 辛", "日不落：至多6名角色（存活的13人的一半）"),
    ("F", SUN_OUT, "act 丙 日不落 甲 甲", "日不落：甲被指定了两次（选择范围：不同的角色）"),
    ("F", SUN_OUT, "act 丙 日不落 丙", "丙 is out of the game and cannot be targeted by 日不落"),
    ("F", SUN_OUT, "act 丙 日不落 甲 --arg x=1", "日不落：没有参数 --arg x（日不落可用：不带 --arg）"),
    ("F", SUN_OUT, "act 甲 日不落 乙", "甲 (丘比特) has no skill '日不落'"),
    # ------------------------------------------------------------- 白猫, 大蒜, 熊 (standing, triggered)
    ("C", [], "act 丁 猫有九命", "猫有九命 is not sent: it applies by itself"),
    ("C", [], "act 戊 熏臭", "熏臭 is not sent: it applies by itself"),
    ("C", ["dusk 1"], "act 己 咆哮", "咆哮 is not sent: it applies by itself"),
    # ------------------------------------------------------------- 镜
    ("C", ["dusk 1"], "act 庚 镜像 --arg skill=预言", "镜像 is used in dawn, not in dusk"),
    ("C", ["dawn 1"], "act 庚 镜像", "镜像须给出 --arg skill=…（对庚发动过的技能：暂无）"),
    ("C", ["dawn 1"], "act 庚 镜像 --arg skill=吃饭", "镜像：未曾有人对庚发动“吃饭”（对其发动过的技能：暂无）"),
    ("C", ["dawn 1"], "act 庚 镜像 甲 --arg skill=预言", "镜像 takes 0 target(s), got 1"),
    ("C", ["night 1"], "act 庚 反射", "反射 is not sent: it applies by itself"),
    ("C", ["night 1"], "act 庚 折镜 甲", "折镜 is used in dusk, not in night"),
    ("C", ["dusk 1"], "act 庚 折镜", "折镜 takes 1 target(s), got 0"),
    ("C", ["dusk 1"], "act 庚 折镜 甲 --arg x=1", "折镜：没有参数 --arg x（折镜可用：不带 --arg）"),
    # ------------------------------------------------------------- 丘比特, 情侣
    ("C", ["dusk 1"], "act 辛 丘比特之箭 甲 乙", "丘比特之箭 is used in opening, not in dusk"),
    ("C", [], "act 辛 丘比特之箭 甲", "丘比特之箭 takes 2 target(s), got 1"),
    ("C", [], "act 辛 丘比特之箭 甲 乙 丙", "丘比特之箭 takes 2 target(s), got 3"),
    ("C", [], "act 辛 丘比特之箭 甲 甲", "丘比特之箭：选择范围：任意两名角色（须为两名不同角色）"),
    ("C", [], "act 辛 丘比特之箭 甲 无名", "unknown player '无名' as target of 丘比特之箭"),
    ("C", ["ruling remove 甲"], "act 辛 丘比特之箭 甲 乙", "甲 is out of the game and cannot be targeted"),
    ("C", [], "act 辛 连新情侣 甲 乙", "连新情侣 is used in dusk/night/dawn/noon, not in opening"),
    ("F", LOVERS, "act 甲 连新情侣 丁 戊", "连新情侣：获得后可以立刻选择连新情侣——仅限获得后的第一个阶段"),
    ("C", [], "act 辛 情侣选刀 甲", "辛 (丘比特) has no skill '情侣选刀'"),
    ("F", LOVERS, "act 乙 情侣选刀", "情侣选刀 takes 1 target(s), got 0"),
    ("F", LOVERS, "act 乙 情侣选刀 丁", "情侣选刀：情侣内部两人选择一人——目标为自己或自己的情侣"),
    ("F", [*LOVERS, "act 乙 情侣选刀 乙"], "act 丙 情侣选刀 丙", "情侣选刀：只有尚未作出选择、含不定阵营的情侣才能发动"),
    # ------------------------------------------------------------- 影子
    ("D", ["dusk 1"], "act 戊 附身 甲", "附身 is used in opening, not in dusk"),
    ("D", [], "act 戊 附身", "附身 takes 1 target(s), got 0"),
    ("D", [], "act 戊 附身 甲 乙", "附身 takes 1 target(s), got 2"),
    ("D", [], "act 戊 附身 戊", "附身 may not target oneself"),
    ("D", [], "act 戊 附身 无名", "unknown player '无名' as target of 附身"),
    ("D", ["ruling remove 甲"], "act 戊 附身 甲", "甲 is out of the game and cannot be targeted by 附身"),
    # ------------------------------------------------------------- 暗恋者, 情书对象
    ("D", [], "act 己 跨越千里 甲", "跨越千里：距离最远的角色只有寅，无需选择（若有2人…二选一）"),
    ("D", ["night 1"], "act 己 情书 --arg text=你好", "情书 is used in noon, not in night"),
    ("D", ["noon 1"], "act 己 情书", "情书：须给出1至50字的 --arg text=…（不超过50字）"),
    ("D", ["noon 1"], "act 己 情书 --arg text=", "情书：须给出1至50字的 --arg text=…（不超过50字）"),
    ("D", ["noon 1"], f"act 己 情书 --arg text={LONG51}", "情书：须给出1至50字的 --arg text=…（不超过50字）"),
    ("D", ["noon 1"], "act 己 情书 甲 --arg text=你好", "情书 takes 0 target(s), got 1"),
    ("D", ["noon 1"], "act 己 情书 --arg text=你好 --arg x=1", "情书：没有参数 --arg x（情书可用：--arg text=…）"),
    ("D", LETTER, "act 己 情书 --arg text=再见", "己 has already used 情书 in noon 1"),
    ("D", ["noon 3"], "act 己 情书 --arg text=你好", "情书须在前2个正午首次发动（在前2个正午阶段，可以发动此技能）"),
    ("D", ["noon 1"], "act 寅 回信 --arg text=你好", "寅 (乌鸦) has no skill '回信'"),
    ("D", LETTER, "act 寅 回信 --arg text=", "回信：须给出1至50字的 --arg text=…（不超过50字）"),
    ("D", LETTER, f"act 寅 回信 --arg text={LONG51}", "回信：须给出1至50字的 --arg text=…（不超过50字）"),
    ("D", LETTER, "act 寅 回信 甲 --arg text=你好", "回信 takes 0 target(s), got 1"),
    ("D", [*LETTER, "act 寅 回信 --arg text=嗯"], "act 寅 回信 --arg text=嗯嗯", "寅 has already used 回信 in noon 1"),
    # ------------------------------------------------------------- 粉丝
    ("D", ["dusk 1"], "act 庚 追随 甲", "追随 is used in opening, not in dusk"),
    ("D", [], "act 庚 追随", "追随 takes 1 target(s), got 0"),
    ("D", [], "act 庚 追随 庚", "追随 may not target oneself"),
    ("D", [], "act 庚 追随 甲 乙", "追随 takes 1 target(s), got 2"),
    ("D", ["ruling remove 甲"], "act 庚 追随 甲", "甲 is out of the game and cannot be targeted by 追随"),
    # ------------------------------------------------------------- 复仇者
    ("D", [], "act 辛 寻仇", "寻仇 is not sent: it applies by itself"),
    ("D", ["night 1"], "act 辛 雪恨", "雪恨 is not sent: it applies by itself"),
    # ------------------------------------------------------------- 狼兄, 狼弟
    ("D", ["night 1"], "act 甲 暴怒 丙", "暴怒为[0：狼弟出局时]：狼弟出局之前没有可用次数"),
    ("D", ["noon 1"], "act 甲 齐心", "齐心 is not sent: it applies by itself"),
    ("D", ["dusk 1"], "act 乙 潜藏 --arg camp=村民阵营", "潜藏 is used in opening, not in dusk"),
    ("D", [], "act 乙 潜藏 --arg camp=火星阵营", "潜藏：火星阵营不是本版的阵营"),
    ("D", [], "act 乙 潜藏 --arg role=大法师", "潜藏：表面身份大法师不是本版的身份"),
    ("D", [], "act 乙 潜藏 --arg armed=也许", "潜藏：armed须为是或否"),
    ("D", [], "act 乙 潜藏 --arg x=1", "潜藏：没有参数 --arg x（潜藏可用：--arg camp=…、--arg role=…、--arg armed=…）"),
    ("D", [], "act 乙 潜藏 甲", "潜藏 takes 0 target(s), got 1"),
    ("D", ["night 1"], "act 乙 继承 丙", "继承为[0：获得群内标签时]：狼弟获得[群内]标签之前没有可用次数"),
    ("D", ["noon 1"], "act 乙 齐心", "齐心 is not sent: it applies by itself"),
    # ------------------------------------------------------------- 幼狼
    ("D", ["night 1"], "act 丙 激励", "激励 is not sent: it applies by itself"),
    ("D", ["dusk 1"], "act 丙 牺牲", "牺牲 is used in night, not in dusk"),
    ("D", ["night 1"], "act 丙 牺牲 甲", "牺牲 takes 0 target(s), got 1"),
    ("D", ["night 1"], "act 丙 牺牲 --arg after=吃饭", "牺牲：after须为最先或第(20)步的规则之一：杀人、时波混乱、日月合击、夜之锋刃、邪恶、反弹、摄梦、猎杀、追猎、伏击、捕杀、共舞、命不久矣、毒药、暴毙"),
    ("D", ["night 1"], "act 丙 牺牲 --arg x=1", "牺牲：没有参数 --arg x（牺牲可用：--arg after=…）"),
    # ------------------------------------------------------------- 狼鸦之爪
    ("D", ["night 1"], "act 丁 夜之锋刃 甲", "夜之锋刃：若狼人阵营存活人数为2及以下（目前多于2人）"),
    ("D", ["dusk 1"], "act 丁 夜之锋刃 甲", "夜之锋刃 is used in night, not in dusk"),
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
    bansha_cli.refused("act", "g", "丙", "芬芳", "丙", "丁", "戊", message="丙 is under 沉默")


def test_the_ghosts_by_arg_is_not_an_unknown_arg(bansha_cli):
    """``--arg by=幽灵`` is taken by every skill ([操纵夺舍]); without the control it is refused by
    the 幽灵's rule, not as an unknown --arg."""
    play(bansha_cli, "A", ["night 1"])
    r = bansha_cli.refused("act", "g", "丙", "诽谤", "丁", "--arg", "by=甲", message="[操纵夺舍]")
    assert "unknown --arg" not in r.output
