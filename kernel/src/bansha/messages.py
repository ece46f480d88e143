"""The kernel's message catalogue: every refusal and every label the kernel and the CLI print,
by key, in Chinese (``zh``) and English (``en``), ``str.format`` placeholders.

A board chooses its language in its manifest (``language``, default ``zh``: the shipped boards
are Chinese forum games); ``Game.msg`` and ``Ruleset.msg`` render a key in it. Before any
board is known (a usage error, an unknown ruleset) ``BANSHA_LANG`` decides, else ``zh``.
Rule plugins write their own board-specific text; this module names no role.

Nothing here is imported that the smallest command does not need: a dict and ``os``."""

from __future__ import annotations

import os
from typing import Any

LANGUAGES = ("zh", "en")
DEFAULT = "zh"

#: key -> (zh, en)
CATALOGUE: dict[str, tuple[str, str]] = {
    # --------------------------------------------------------------- the CLI's own refusals
    "error": ("错误：{message}", "error: {message}"),
    "kv_expected": ("{flag} {pair}：应为 键=值", "{flag} {pair}: expected KEY=VALUE"),
    "no_players": ("--players：没有给出玩家名", "--players: no player names given"),
    "no_players_in_file": ("{file}：名单文件里没有玩家名", "{file}: no player names in the roster file"),
    "roster_unreadable": ("{file}：无法读取名单：{why}", "{file}: cannot read the roster: {why}"),
    "roster_encoding": ("{file}：名单不是 UTF-8 或 GB18030 编码的文本（第{byte}字节无法解码）",
                        "{file}: the roster is neither UTF-8 nor GB18030 text (byte {byte} cannot be decoded)"),
    "roster_skipped": ("{file}：第{line}行以 # 开头，作为注释跳过：{text}",
                       "{file}: line {line} starts with #, skipped as a comment: {text}"),
    "deal_unreadable": ("{file}：无法读取发牌文件：{why}", "{file}: cannot read the deal: {why}"),
    "deal_no_name": ("{where}.name：玩家需要名字", "{where}.name: a player needs a name"),
    "deal_seats": ("{file}：键 players：{count}个座位，但规则 {ruleset} 的桌型是 {sizes} 人",
                   "{file}: key players: {count} seats, but ruleset {ruleset} has tables for {sizes}"),
    "deal_table": ("{file}：键 players：发牌与 {seats} 人桌的配置不符：{why}",
                   "{file}: key players: the deal does not match the table for {seats}: {why}"),
    "deal_count": ("{role} 发了{got}张，桌上只有{want}张", "{role} dealt {got} times, the table has {want}"),
    "deal_numbered": ("{role}{number} 发了两次", "{role}{number} is dealt twice"),
    "format": ("--format {fmt}：应为 md、bbcode 或 json", "--format {fmt}: expected md, bbcode or json"),
    "markdown_json": ("--markdown 与 --json 不能同时使用", "--markdown and --json cannot be used together"),
    "seed_range": ("--seed {seed}：种子应为 0 到 2^63−1 之间的整数", "--seed {seed}: a seed is an integer from 0 to 2^63−1"),
    "post_number": ("--post {post}：帖子楼层应为正整数", "--post {post}: a post number is a positive integer"),
    "unknown_role_any": ("没有角色 {name}（所有已安装的规则中）", "unknown role {name} in any installed ruleset"),
    "unknown_role_in": ("规则 {ruleset} 中没有角色 {name}", "unknown role {name} in ruleset {ruleset}"),
    "no_demo": ("规则 {ruleset} 没有演示脚本", "ruleset {ruleset} has no demo script"),
    "demo_broken": ("演示脚本 {file} 不再按原样进行：{why}", "the demo script {file} no longer plays as written: {why}"),
    "plugin_command": ("{dist} 的命令 {name} 无法加载：{why}", "command {name} of {dist} cannot be loaded: {why}"),
    "plugin_command_kind": ("{dist} 的命令 {name}：{value} 既不是 typer.Typer 也不是函数",
                            "command {name} of {dist}: {value} is neither a typer.Typer nor a function"),
    "an_unknown_dist": ("未知的发行包", "an unknown distribution"),
    # ------------------------------------------------------------------- click's usage errors
    "usage_missing_argument": ("缺少参数 {param}", "missing argument {param}"),
    "usage_missing_option": ("缺少选项 {param}", "missing option {param}"),
    "usage_no_such_option": ("没有选项 {option}", "no such option {option}"),
    "usage_no_such_command": ("没有命令 {command}", "no such command {command}"),
    "usage_did_you_mean": ("（是否想用 {command}？）", " (did you mean {command}?)"),
    "usage_bad_value": ("{param} 的值无效：{value}", "invalid value for {param}: {value}"),
    "usage_option_value": ("选项 {option} 需要一个值", "option {option} requires a value"),
    "usage_extra": ("多余的参数：{args}", "unexpected extra argument(s): {args}"),
    "usage_other": ("用法错误：{message}", "usage error: {message}"),
    # ------------------------------------------------------------------------------- names
    "name_empty": ("{what}：名字为空（去掉空白和不可见字符后什么也不剩）",
                   "{what}: the name is empty (nothing is left once blanks and invisible characters are removed)"),
    "name_too_long": ("{what} {name}：名字有{count}个字符，最多{max}个", "{what} {name}: {count} characters, at most {max}"),
    "name_reserved": ("{what} {name}：{name} 是本规则的保留词（弃权等），不能作为名字",
                      "{what} {name}: {name} is a reserved word of the ruleset (its abstention word …) and cannot be a name"),
    "name_dash": ("{what} {name}：名字不能以 - 开头（会被当作选项）", "{what} {name}: a name may not start with - (it reads as an option)"),
    "name_comma": ("{what} {name}：逗号分隔的名单中名字不能含逗号", "{what} {name}: a name in a comma-separated list may not hold a comma"),
    "name_twice": ("{what}：{first} 与 {second} 是同一个名字（规范化后相同）",
                   "{what}: {first} and {second} are the same name once normalised"),
    "name_repeated": ("{what}：{name} 出现了两次", "{what}: {name} is given twice"),
    "what_player": ("玩家名", "player name"),
    "what_game": ("游戏名", "game name"),
    "what_roster": ("名单", "the roster"),
    # ------------------------------------------------------------------------- house rules
    "option_unknown": ("--option {key}：规则 {ruleset} 没有房规 {key}（房规：{known}）",
                       "--option {key}: ruleset {ruleset} has no house rule {key} (house rules: {known})"),
    "option_bad": ("{source} {key}={value}：{allowed}", "{source} {key}={value}: {allowed}"),
    "option_type_bad": ("{where}：房规 {key} 的类型 {type} 未知（可用：{types}）",
                        "{where}: house rule {key} has an unknown type {type} (types: {types})"),
    "option_default_bad": ("{where}：房规 {key} 的默认值 {value} 不合其类型：{allowed}",
                           "{where}: house rule {key}'s default {value} does not fit its type: {allowed}"),
    "allowed_bool": ("应为 true 或 false", "expected true or false"),
    "allowed_int": ("应为整数", "expected an integer"),
    "allowed_int_range": ("应为 {min} 到 {max} 之间的整数", "expected an integer from {min} to {max}"),
    "allowed_number": ("应为数字", "expected a number"),
    "allowed_str": ("应为文字", "expected text"),
    "allowed_choice": ("可选：{choices}", "expected one of {choices}"),
    "allowed_list": ("应为列表，元素可选：{choices}", "expected a list of {choices}"),
    "allowed_list_any": ("应为文字列表", "expected a list of text"),
    "allowed_time": ("应为 YYYY-MM-DD HH:MM 格式的时间或留空", "expected a time as YYYY-MM-DD HH:MM, or empty"),
    "allowed_table": ("应为表", "expected a table"),
    "no_manifest_id": ("{file}：清单缺少 id", "{file}: the manifest has no id"),
    # ------------------------------------------------------------------------------ engine
    "no_house_rule": ("规则 {ruleset} 没有房规 {key}（房规：{known}）", "ruleset {ruleset} has no house rule {key} (house rules: {known})"),
    "needs_camp": ("玩家 {name}：本规则中角色 {role} 需要指定阵营", "player {name}: role {role} needs a camp in this ruleset"),
    "named_twice": ("玩家 {name} 出现了两次", "player {name} is named twice"),
    "bad_phase": ("阶段 {text}：应为阶段名和数字，例如 “day 1”", "phase {text}: expected a name and a number, like 'day 1'"),
    "unknown_player": ("没有玩家 {name}", "unknown player {name}"),
    "no_skill": ("{name}（{role}）没有技能 {skill}", "{name} ({role}) has no skill {skill}"),
    "game_over": ("游戏已结束（{result}）", "the game is over ({result})"),
    "draw": ("平局", "draw"),
    "won": ("{camps}胜利", "{camps} won"),
    "wrong_phase": ("阶段不对：{phase} 已结束或尚未开始；当前是 {label}", "wrong phase: {phase} is closed or not open; the game is at {label}"),
    "actor_out": ("{name}已出局，不能行动", "{name} is out of the game and cannot act"),
    "not_sent": ("{skill}不需发送：按其规则自动生效", "{skill} is not sent: it applies by itself when its rule says"),
    "skill_phase": ("{skill}在{phases}使用，不在{phase}", "{skill} is used in {phases}, not in {phase}"),
    "under_status": ("{name}处于{status}状态，不能使用{skill}", "{name} is under {status} and cannot use {skill}"),
    "no_uses": ("{actor}的{skill}已没有使用次数", "{actor} has no use of {skill} left"),
    "used_already": ("{name}在{label}已经使用过{skill}（要更改请先 unact 撤回）",
                     "{name} has already used {skill} in {label} (withdraw it with unact to change it)"),
    "target_count": ("{skill}需要{want}个目标，给了{got}个", "{skill} takes {want} target(s), got {got}"),
    "target_range": ("{lo}到{hi}", "{lo} to {hi}"),
    "repeat_target": ("{skill}不得连续两个{phase}对同一人（{target}）使用", "{skill} may not be used on {target} two {phase}s running"),
    "unknown_target": ("没有玩家 {name}（{skill}的目标）", "unknown player {name} as target of {skill}"),
    "target_out": ("{name}已出局，不能成为{skill}的目标", "{name} is out of the game and cannot be targeted by {skill}"),
    "target_self": ("{skill}不能以自己为目标", "{skill} may not target oneself"),
    "answered_at_once": ("{skill}已即时回答，不能撤回", "{skill} was answered at once and cannot be withdrawn"),
    "nothing_to_withdraw": ("{name}在{label}没有可撤回的{skill}", "{name} has no {skill} to withdraw in {label}"),
    "no_vote_phase": ("{label}不投票", "no vote is taken in {label}"),
    "voter_out": ("{name}已出局，不能投票", "{name} is out of the game and cannot vote"),
    "vote_target_out": ("{name}已出局，不能被投票", "{name} is out of the game and cannot be voted for"),
    "runoff_target": ("{label}只能投{names}", "{label} is between {names} only"),
    "runoff_abstain": ("{label}不能弃权：请投{names}", "no abstention in {label}: vote for {names}"),
    "no_vote_to_change": ("{name}还没有投票，无从改票", "{name} has no vote to change"),
    "changes_used": ("{name}已改票{changes}次", "{name} has already changed their vote {changes} time(s)"),
    "late_change": ("{name}在{label}最后一小时内不能改票", "{name} may not change a vote in the last hour of {label}"),
    "voted_already": ("{name}已经投过票（改票请加 --change）", "{name} has already voted (use --change to change the vote)"),
    "post_required": ("{name}的投票需要注明楼层（--post N）：本规则按楼层判断投票", "{name}'s vote needs its post number (--post N): this board reads post numbers"),
    "post_missing": ("{name}的投票没有注明楼层（--post N）：按楼层判断的规则视其为最早的楼层", "{name}'s vote has no post number (--post N): rules that read post numbers take it as the earliest post"),
    "or": ("或", " or "),
    "and": ("和", " and "),
    "over_only_announce": ("游戏已结束：只能发布公告，不能 {kind}", "the game is over: only an announcement can follow, not {kind}"),
    "already_out": ("{name}已出局", "{name} is already out of the game"),
    "announce_needs_text": ("公告需要内容：--text", "an announcement needs --text"),
    "substitute_bad": ("替补名 {name} 为空、已在场上或是弃权用词", "substitute name {name} is empty, already playing or the abstention word"),
    "unknown_ruling": ("没有裁定 {kind}（可用：{kinds}）", "unknown ruling {kind} (kinds: {kinds})"),
    "no_moment": ("无法回到 {to} 的 {point}：本局没有这个时刻", "cannot turn back to the {point} of {to}: no such moment in this game"),
    "lw_not_owed": ("{name}没有遗言", "{name} is owed no last words"),
    "lw_recorded": ("{name}的遗言已经记录", "{name}'s last words are already recorded"),
    "lw_empty": ("遗言需要内容：--text", "last words need --text"),
    "lw_too_long": ("{name}的遗言有{count}个字，最多{max}个字", "{name}'s last words have {count} characters, at most {max}"),
    # ------------------------------------------------------------------------ registry, deal
    "unknown_ruleset": ("没有规则 {ref}（已安装：{known}）", "unknown ruleset {ref} (installed: {known})"),
    "unknown_phase": ("规则 {ruleset} 中没有阶段 {name}", "unknown phase {name} in ruleset {ruleset}"),
    "unknown_camp": ("规则 {ruleset} 中没有阵营 {name}", "unknown camp {name} in ruleset {ruleset}"),
    "no_table": ("规则 {ruleset} 没有 {seats} 人的桌型（桌型：{sizes}）", "ruleset {ruleset} has no table for {seats} players (tables: {sizes})"),
    "constraints": ("桌型的发牌约束无法同时满足", "the table's deal constraints cannot all hold"),
    "deal_twice": ("有玩家名出现了两次", "a player name is given twice"),
    "table_cards": ("{seats}人桌发出{cards}张身份牌", "table for {seats} deals {cards} roles"),
    "none": ("无", "none"),
    # ------------------------------------------------- a manifest's own errors (its author's)
    "m_not_installed": ("规则 {ruleset}：插件 {name} 未安装（{group} 组中没有入口 {name}）", "ruleset {ruleset}: plugin {name} is not installed (no entry point {name} in group {group})"),
    "m_no_role": ("规则 {ruleset}：键 roles.{role}：插件 {plugin} 没有声明角色 {role}", "ruleset {ruleset}: key roles.{role}: plugin {plugin} declares no role {role}"),
    "m_skill_phase": ("{where}：角色 {role}，技能 {skill}：没有阶段 {phase}", "{where}: role {role}, skill {skill}: unknown phase {phase}"),
    "m_skill_step": ("{where}：键 skills.{skill}.step：{step} 不是阶段 {phase} 的步骤", "{where}: key skills.{skill}.step: step {step} is not a step of phase {phase}"),
    "m_handler": ("{where}：键 phases.{phase}.steps.{step}：没有处理器 {handler}", "{where}: key phases.{phase}.steps.{step}: unknown handler {handler}"),
    "m_lw_phase": ("{where}：键 last_words.owed：没有阶段 {phase}", "{where}: key last_words.owed: unknown phase {phase}"),
    "m_vote_post": ("{where}：键 vote.post：{value} 应为 optional、warn 或 required", "{where}: key vote.post: {value} is not optional, warn or required"),
    "m_common": ("{where}：键 common：{name} 不是本规则的角色", "{where}: key common: {name} is not a role of the ruleset"),
    "m_skills": ("{where}：键 skills.{name}：本规则没有角色拥有此技能", "{where}: key skills.{name}: no role of the ruleset has it"),
    "m_rewind": ("{where}：键 rewind：{moment} 不是某阶段的 phase:start 或 phase:resolve", "{where}: key rewind: {moment} is not phase:start or phase:resolve of a phase"),
    "m_table_camp": ("{where}：键 tables.camps：没有阵营 {camp}", "{where}: key tables.camps: unknown camp {camp}"),
    "m_table_role": ("{where}：键 tables：没有角色 {role}", "{where}: key tables: unknown role {role}"),
    "m_where": ("规则 {ruleset}", "ruleset {ruleset}"),
    "not_toml": ("{file}：不是有效的 TOML：{why}", "{file}: not valid TOML: {why}"),
    "manifest_unreadable": ("{file}：无法读取清单：{why}", "{file}: cannot read the manifest: {why}"),
    "extends_kind": ("{file}：键 extends：应为规则的 id 或清单路径", "{file}: key extends: expected the id or path of a ruleset"),
    "extends_unknown": ("{file}：extends 的规则 {ref} 不存在（已安装：{known}）", "{file}: extends unknown ruleset {ref} (installed: {known})"),
    "extends_cycle": ("{file}：extends {ref} 形成循环", "{file}: extends {ref} in a cycle"),
    # ------------------------------------------------------- the kernel's rulings (bansha rulings)
    "ruling_remove": ("PLAYER [--text 理由]：取消玩家参赛资格（出局）", "PLAYER [--text reason]: take a player out of the game (disqualification)"),
    "ruling_announce": ("--text 内容：发布公告", "--text TEXT: announce free text"),
    "ruling_answer": ("PLAYER --text 回答：导演对玩家提问的回答", "PLAYER --text ANSWER: the director's answer to a player's question"),
    "ruling_substitute": ("PLAYER --text 新名字：替补接手该座位", "PLAYER --text NEW_NAME: a substitute takes over the seat"),
    "ruling_draw": ("以平局结束游戏", "end the game as a draw"),
    # ------------------------------------------------------------------------- CLI labels
    "l_recorded": ("已记录：{text}", "recorded: {text}"),
    "l_replaces": ("取代：{text}", "replaces: {text}"),
    "l_withdrawn": ("已撤回：{text}（{label}）", "withdrawn: {text} ({label})"),
    "l_vote": ("投票：{voter} → {target}（{label}）", "vote: {voter} -> {target} ({label})"),
    "l_vote_warning": ("  注意：{text}", "  warning: {text}"),
    "l_ruling": ("裁定 {kind} 已记录（{label}）", "ruling {kind} recorded ({label})"),
    "l_public": ("（公开）", "(public)"),
    "l_game_over": ("游戏结束：{result}", "game over: {result}"),
    "l_now": ("当前：{label}", "now: {label}"),
    "l_seats": ("座位 {seats}", "seats {seats}"),
    "l_scores": ("得分：{scores}", "scores: {scores}"),
    "l_not_finished": ("未结束", "not finished"),
    "l_new": ("游戏 {game}：{ruleset}，{count}名玩家（{dealt}），当前 {label}", "game {game}: {ruleset}, {count} players ({dealt}), now {label}"),
    "l_seed": ("种子 {seed}", "seed {seed}"),
    "l_over": ("结束：{winner}", "over: {winner}"),
    "l_you": ("你：{text}", "you: {text}"),
    "l_players": ("玩家：{text}", "players: {text}"),
    "l_alive": ("存活", "alive"),
    "l_out": ("出局", "out"),
    "l_out_mark": ("（出局）", " (out)"),
    "l_statuses": ("状态 {text}", "statuses {text}"),
    "l_uses": ("次数 {text}", "uses {text}"),
    "l_acted": ("行动 {text}", "acted {text}"),
    "l_voted": ("投票 {text}", "voted {text}"),
    "l_last_words": ("遗言：{player}（{out}出局；{until}结束前）", "last words: {player} (out in {out}; until {until} closes)"),
    "l_recorded_mark": ("已记录", "recorded"),
    "l_undone": ("已撤销：{kind} {text}", "undone: {kind} {text}"),
    "l_common": ("（所有玩家的技能，不发牌）", "(every player's skills, not dealt)"),
    "l_role": ("{role}（{alias}）— {ruleset}，阵营 {camp}", "{role} ({alias}) — {ruleset}, camp {camp}"),
    "l_by_deal": ("由发牌决定", "by the deal"),
    "l_skill": ("技能 {skill}（{alias}）于{phases}，步骤 {step}，优先级 {priority}，{targets}个目标",
                "skill {skill} ({alias}) in {phases}, step {step}, priority {priority}, {targets} target(s)"),
    "l_at_once": ("即时", "at once"),
    "l_skill_uses": ("，{uses}次", ", {uses} use(s)"),
    "l_skill_tags": ("，标签 {tags}", ", tags {tags}"),
    "l_scenarios": ("{passed}个通过，{failed}个失败", "{passed} passed, {failed} failed"),
    "l_invalid": ("，{invalid}个无效", ", {invalid} invalid"),
}


def lang_of(value: str | None = None) -> str:
    """A language code: ``value`` if the catalogue has it, else ``BANSHA_LANG``, else ``zh``."""
    for v in (value, os.environ.get("BANSHA_LANG", "").strip().lower()[:2]):
        if v in LANGUAGES:
            return v
    return DEFAULT


def say(key: str, lang: str | None = None, /, **fields: Any) -> str:
    """The message ``key`` in ``lang`` (``None``: ``BANSHA_LANG`` or ``zh``) with its fields."""
    zh, en = CATALOGUE[key]
    return (en if lang_of(lang) == "en" else zh).format(**fields)


def join(items, lang: str | None = None) -> str:
    """A list for text output: 、 between items in Chinese, ", " in English (never a repr)."""
    return ("、" if lang_of(lang) == "zh" else ", ").join(str(i) for i in items)


def num(value: Any) -> str:
    """A number for text output: 35.0 is 35."""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)
