"""The kernel's message catalogue: every refusal and every label the kernel and the CLI print,
by key, in Chinese (``zh``) and English (``en``), ``str.format`` placeholders.

A board chooses its language in its manifest (``language``, default ``zh``: the shipped boards
are Chinese forum games); ``Game.msg`` and ``Ruleset.msg`` render a key in it. Before any
board is known (a usage error, an unknown ruleset) ``BANSHA_LANG`` decides, else ``zh``; the
help every command prints (``h_…`` keys, ``text``) is said before any board, so in it too.
Rule plugins write their own board-specific text; this module names no role. A distribution
that adds a command adds the keys of its help with ``extend``.

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
    # ------------------------------------------------------------ the store (store.py and its
    # backends): said before any board is known, so in BANSHA_LANG (else Chinese)
    "st_newer": ("由更新版本的 bansha 建立（数据库版本 {found}），本版本最多读取版本 {known}",
                 "made by a newer bansha (schema {found}), this one reads up to {known}"),
    "st_timeout_env": ("BANSHA_DB_TIMEOUT={value}：应为秒数", "BANSHA_DB_TIMEOUT={value}: expected seconds"),
    "st_no_backend": ("没有处理 {scheme}:// 地址的数据库后端（已安装：{known}）；PostgreSQL 需要安装 bansha-store-postgres",
                      "no store backend for {scheme}:// URLs (installed: {known}); PostgreSQL needs the bansha-store-postgres distribution"),
    "st_meta_key": ("记录键 {key}：应带应用前缀，例如 'web.…'", "meta key {key}: expected an application's prefix, e.g. 'web.…'"),
    "st_event_kind": ("游戏 {name}，第{seq}条事件：未知的事件类型 {kind}：由更新版本的 bansha 写入？本版本最多读取版本 {known}",
                      "game {name}, event {seq}: unknown event type {kind}: made by a newer bansha? this one reads up to schema {known}"),
    "st_event_corrupt": ("游戏 {name}，第{seq}条事件已损坏：{why}", "game {name}, event {seq} is corrupt: {why}"),
    "st_setup_corrupt": ("游戏 {name}：保存的开局设置已损坏：{why}", "game {name}: its stored set-up is corrupt: {why}"),
    "st_unknown_game": ("没有游戏 {name}", "unknown game {name}"),
    "st_no_replay": ("游戏 {name}，第{seq}条事件无法重放：{why}", "game {name}, event {seq} no longer replays: {why}"),
    "st_gave_up": ("游戏 {name}：等待 {seconds} 秒后放弃：其他写入者一直在修改它（BANSHA_DB_TIMEOUT）",
                   "game {name}: gave up after {seconds} s: other writers kept changing it (BANSHA_DB_TIMEOUT)"),
    "st_no_undo": ("游戏 {name} 没有可撤销的事件", "game {name} has no event to undo"),
    "st_no_records": ("{backend} 后端不保存游戏以外的记录", "the {backend} backend keeps no records beside the games"),
    "st_db_empty": ("--db 为空：请给出数据库文件（或 postgresql:// 地址）", "--db is empty: give a database file (or a postgresql:// URL)"),
    "st_is_dir": ("{path} 是文件夹，不是游戏数据库", "{path} is a directory, not a game database"),
    "st_no_folder": ("{path}：无法建立文件夹 {folder}：{why}", "{path}: cannot create its folder {folder}: {why}"),
    "st_cannot_open": ("{path}：无法打开数据库文件：{why}", "{path}: cannot open the database file: {why}"),
    "st_locked": ("{where}数据库被其他写入者锁住超过 {seconds} 秒（BANSHA_DB_TIMEOUT）；什么也没有写入",
                  "{where}the database stayed locked by other writers for {seconds} s (BANSHA_DB_TIMEOUT); nothing was written"),
    "st_read_only": ("{where}数据库只读；什么也没有写入", "{where}the database is read-only; nothing was written"),
    "st_not_a_db": ("{where}不是 bansha 的游戏数据库（{why}）", "{where}not a bansha game database ({why})"),
    "st_cannot_open_db": ("{where}无法打开数据库文件（{why}）", "{where}cannot open the database file ({why})"),
    "st_empty_file": ("{path}：空的 SQLite 文件，没有 bansha 的表", "{path}: an empty SQLite file without bansha's tables"),
    "st_layout": ("{path}：未知的表结构（{tables}）：不是 bansha 的数据库，或由更新版本的 bansha 建立；本版本最多读取版本 {known}",
                  "{path}: unknown table layout ({tables}): not a bansha store, or made by a newer bansha; this one reads up to schema {known}"),
    "st_old_schema": ("{path}：数据库版本 {found}；本版本的 bansha 使用版本 {known}：请运行 `bansha db upgrade --db {path}`（保留每一局游戏）",
                      "{path}: a store of schema {found}; this bansha uses schema {known}: run `bansha db upgrade --db {path}` (it keeps every game)"),
    "st_exists": ("游戏 {name} 已存在", "game {name} already exists"),
    "st_copy_missing": ("{src}：没有游戏 {names}", "{src}: no game {names}"),
    "st_copy_clash": ("{dst} 已有游戏 {names}：什么也没有复制", "{dst} already has game {names}: nothing copied"),
    "st_doing_reading": ("读取", "reading"),
    "st_doing_writing": ("写入", "writing"),
    "st_doing_creating_store": ("建立数据库", "creating the store"),
    "st_doing_upgrading": ("升级数据库", "upgrading the store"),
    "st_doing_creating_game": ("建立游戏", "creating a game"),
    "st_doing_undoing": ("撤销", "undoing"),
    "st_doing_listing": ("列出游戏", "listing games"),
    "st_doing_dropping": ("删除表", "dropping the tables"),
    "st_pg_unreachable": ("无法连接 PostgreSQL {where}：{why}", "cannot reach PostgreSQL at {where}: {why}"),
    "st_pg_closed": ("PostgreSQL {where}：数据库已关闭", "PostgreSQL at {where}: the store is closed"),
    "st_pg_locked": ("PostgreSQL {where}{what}：游戏被其他写入者锁住超过 {seconds} 秒（BANSHA_DB_TIMEOUT）；什么也没有写入",
                     "PostgreSQL at {where}{what}: the game stayed locked by other writers for {seconds} s (BANSHA_DB_TIMEOUT); nothing was written"),
    "st_pg_cannot_write": ("PostgreSQL {where}{what}：无法写入：{why}；什么也没有写入",
                           "PostgreSQL at {where}{what}: cannot write: {why}; nothing was written"),
    "st_pg_other": ("PostgreSQL {where}{what}：{why}", "PostgreSQL at {where}{what}: {why}"),
    "st_pg_layout": ("PostgreSQL {where}：有 games/events 表却没有 bansha_meta：不是 bansha 的数据库，或由更新版本的 bansha 建立；本版本最多读取版本 {known}",
                     "PostgreSQL at {where}: tables games/events without bansha_meta: not a bansha store, or made by a newer bansha; this one reads up to schema {known}"),
    "st_pg_old_schema": ("PostgreSQL {where}：数据库版本 {found}；本版本的 bansha 使用版本 {known}：请运行 `bansha db upgrade`",
                         "PostgreSQL at {where}: a store of schema {found}; this bansha uses schema {known}: run `bansha db upgrade`"),
    # ------------------------------------------------------ the CLI's help (`bansha … --help`)
    # typer is given the key (``help="h_new"``); the command classes of cli_help.py look it up
    # when a help page is printed, so a command that is not asked for its help formats nothing
    "h_help_option": ("显示本帮助并退出。", "Show this message and exit."),
    "h_app": ("bansha：论坛版杀的导演引擎。", "bansha: the director's engine for forum social-deduction games (版杀)."),
    "h_role_app": ("已安装规则中的角色。", "Roles of the installed rulesets."),
    "h_scenario_app": ("场景文件（docs/scenarios.md）。", "Scenario files (docs/scenarios.md)."),
    "h_db_app": ("游戏数据库：版本、升级、在数据库之间复制游戏。", "The game store: schema version, upgrade, copying games between stores."),
    "h_votes_app": ("读取（Discuz!）投票帖。", "The vote thread (Discuz!) read back."),
    # options and arguments many commands share
    "h_db": ("游戏数据库：SQLite 文件（默认在用户数据目录）或 postgresql:// 地址",
             "game database: a SQLite file (default: the user data dir) or a postgresql:// URL"),
    "h_json": ("输出 JSON", "print JSON"),
    "h_game": ("游戏名", "the game's name"),
    "h_ruleset_ref": ("规则 id 或清单路径", "ruleset id or manifest path"),
    "h_ruleset_id": ("规则 id", "ruleset id"),
    "h_option": ("房规 键=值", "house rule KEY=VALUE"),
    "h_arg": ("技能参数 键=值", "a skill argument KEY=VALUE"),
    "h_player": ("玩家名", "the player"),
    "h_skill": ("技能名或别名", "the skill, by name or alias"),
    "h_template": ("版面文件（默认：规则自带的）", "a board file (default: the ruleset's)"),
    # the catalogue of rules
    "h_rulesets": ("列出已安装的规则。", "List installed rulesets."),
    "h_roles": ("列出某个规则（或所有已安装规则）的角色。", "List the roles of a ruleset (or of every installed ruleset)."),
    "h_roles_ruleset": ("规则 id（默认：所有已安装的规则）", "ruleset id (default: all installed)"),
    "h_roles_markdown": ("以 Markdown 列出每个角色和技能及其参数（docs/roles/）",
                         "every role and skill with its arguments, as Markdown (docs/roles/)"),
    "h_rulings": ("规则接受的导演裁定种类（`bansha ruling GAME KIND …`）。",
                  "The kinds of director's ruling a ruleset takes (`bansha ruling GAME KIND …`)."),
    "h_role_show": ("角色的规则原文，以及每个技能和它的参数。", "The rule text of a role and each skill with its arguments."),
    "h_role_name": ("角色名或别名", "the role, by name or alias"),
    # a game
    "h_new": ("建立一局游戏：按清单和种子发牌（或按 --deal 的发牌文件）。",
              "Create a game, dealing roles from the manifest with the seed (or from --deal)."),
    "h_new_players": ("名单文件（每行一个名字）或以逗号分隔的玩家名", "a roster file (a name a line) or names, comma-separated"),
    "h_new_seed": ("所有随机选择的种子", "seed of every random choice"),
    "h_new_deal": ("TOML 发牌文件：[[players]] name、role、camp、setup", "a TOML deal: [[players]] name, role, camp, setup"),
    "h_act": ("记录 PLAYER 在当前阶段的行动（立即检查）。用 --file 则记录一个阶段的全部行动。",
              "Record PLAYER's action for the current phase (checked at once), or with --file a phase's actions."),
    "h_act_targets": ("目标玩家", "the targets"),
    "h_act_phase": ("这条私信所属的阶段（默认：当前阶段）；已结束的阶段会被拒绝",
                    "the phase the PM was sent for (default: the current one); a closed phase is refused"),
    "h_act_file": ("记录文件中的每个行动，全部记录或全不记录（TOML 的 actions 列表，或 CSV：actor,skill,targets,args）",
                   "record every action of a file, all or nothing (TOML 'actions' list or CSV actor,skill,targets,args)"),
    "h_unact": ("撤回 PLAYER 在当前阶段的 SKILL 行动。", "Withdraw PLAYER's action of SKILL in the current phase."),
    "h_vote": ("在当前阶段记录一票（或弃权）。", "Record a vote (or 弃权) in the current phase."),
    "h_voter": ("投票的玩家", "the voter"),
    "h_vote_target": ("被投票的玩家，或 弃权", "the player voted for, or 弃权"),
    "h_vote_post": ("论坛楼层（正整数；全角数字也算数字）", "forum post number (a positive integer; full-width digits are digits)"),
    "h_vote_change": ("这是一次改票", "this is a vote change"),
    "h_vote_proxy": ("由导演为投票人代投", "entered by the director for the voter (代投)"),
    "h_vote_late": ("在投票的最后一小时内发出", "posted in the last hour of the vote"),
    "h_resolve": ("结束当前阶段，按清单的顺序结算，并进入下一阶段。", "Close the current phase, resolve it in the manifest's order and advance."),
    "h_ruling": ("记录导演的裁定（取消资格、公告、回答、替补、平局）。",
                 "Record a director's ruling (disqualification, free text, an answer, a substitute, a draw)."),
    "h_ruling_kind": ("remove | announce | answer | substitute | draw，或规则增加的种类（bansha rulings RULESET）",
                      "remove | announce | answer | substitute | draw, or a kind the ruleset adds (bansha rulings RULESET)"),
    "h_ruling_player": ("裁定涉及的玩家", "the player it concerns"),
    "h_ruling_text": ("公告、回答、理由或替补的名字", "announcement, answer, reason or the substitute's name"),
    "h_ruling_arg": ("给规则的附加数据 键=值", "extra data for the rules KEY=VALUE"),
    "h_status": ("导演视图，或用 --as 看某个玩家的视图。", "The director's view, or with --as one player's view."),
    "h_status_as": ("该玩家的视图", "one player's view"),
    "h_log": ("游戏的事件；用 --explain 显示每个结算步骤的判定过程。",
              "The game's events, and with --explain the ruling trace of every resolution step."),
    "h_log_explain": ("每个步骤的判定过程", "the ruling trace of every step"),
    "h_undo": ("撤销游戏的最后一个事件（或用 --to PHASE 撤销该阶段之后的所有事件）。",
               "Drop the game's last event (or with --to PHASE every event after that phase)."),
    "h_undo_to": ("撤销 PHASE 结算之后的所有事件", "drop every event after PHASE was resolved"),
    "h_export": ("可直接发到论坛的公告（Markdown 或 Discuz! BBCode），或以 JSON 输出整局游戏。",
                 "Forum-ready announcements (Markdown or Discuz! BBCode), or the whole game as JSON."),
    "h_export_format": ("md | bbcode | json", "md | bbcode | json"),
    "h_export_json": ("以 JSON 输出整局游戏（同 --format json）", "the whole game as JSON (--format json)"),
    "h_games": ("列出已保存的游戏。", "List stored games."),
    "h_demo": ("把 RULESET 的演示脚本从头到尾进行一遍，显示每个阶段的结果。",
               "Play a scripted game of RULESET end to end, printing each phase's results."),
    "h_scenario_run": ("运行场景文件：全部通过时退出码为 0，有不符时为 1，有无效文件时为 2。",
                       "Run scenario files: exit 0 when all pass, 1 on a mismatch, 2 on an invalid file."),
    "h_scenario_paths": ("场景文件或文件夹", "scenario files or folders"),
    "h_scenario_verbose": ("列出每个通过的文件", "name every passing file"),
    # the store (cli_db.py)
    "h_db_info": ("数据库的后端、版本和游戏数。", "The store's backend, schema version and number of games."),
    "h_db_upgrade": ("把旧版本的数据库就地升级到本版本 bansha 的结构，在一个事务中完成。",
                     "Migrate an older store to this bansha's schema, in place, in one transaction."),
    "h_db_copy": ("把游戏从 SRC 逐个事件复制到 DST（每局游戏一个事务）。DST 中已有的游戏在复制任何内容之前即被拒绝。",
                  "Copy games from SRC to DST event for event (each game in one transaction). A game\n"
                  "already in DST is refused before anything is copied."),
    "h_db_copy_src": ("复制的来源：SQLite 文件或 postgresql:// 地址", "the store to copy from: a SQLite file or a postgresql:// URL"),
    "h_db_copy_dst": ("复制的目标（不存在时新建）", "the store to copy to (created when new)"),
    "h_db_copy_games": ("要复制的游戏（默认：所有游戏）", "the games to copy (default: every game)"),
    # the director's loop (cli_loop.py)
    "h_votes_import": ("读取 Discuz! 投票帖，记录其中的投票和改票（楼层和时间）。每一票都经引擎检查；"
                       "显示已记录、被拒绝（及原因）和待确认的内容。",
                       "Read a Discuz! vote thread and record its votes and changes (floor and time), each\n"
                       "checked by the engine; print what is recorded, rejected (and why) and proposed."),
    "h_votes_source": ("从论坛页面复制的帖子文本（- 表示标准输入）", "the thread's text as copied from the forum page (- : stdin)"),
    "h_votes_accept": ("把这一楼只差一个字的笔误按建议的名字记录", "record this floor's one-character typo as the name proposed"),
    "h_votes_close": ("截止时间（帖子第一天的 HH:MM，或 YYYY-MM-DD HH:MM）；默认：版面的时钟，或楼主的关门时间",
                      "the deadline (HH:MM on the thread's first day, or YYYY-MM-DD HH:MM); default: the board's clock, or the 楼主's 关门时间"),
    "h_votes_dry_run": ("只显示表格，什么也不记录", "print the table only; record nothing"),
    "h_post": ("该阶段的帖子：标题、出局、遗言、投票、公告、座位、截止时间。",
               "The phase's thread post: title, deaths, last words, votes, announcements, seats, deadline."),
    "h_post_phase": ("阶段（默认：最后结算的阶段），例如 'noon 2' 或 '第2天 正午'",
                     "the phase (default: the last resolved), e.g. 'noon 2' or '第2天 正午'"),
    "h_post_format": ("bbcode | md | text", "bbcode | md | text"),
    "h_post_template": ("带排版的版面文件（默认：规则自带的）", "a board file with the layout (default: the ruleset's)"),
    "h_post_json": ("以 JSON 输出帖子的各部分", "print the post's parts as JSON"),
    "h_pm": ("该阶段每个玩家的私信（短消息），每个收件人一段。",
             "Each player's private message (短消息) for the phase, one block per recipient."),
    "h_pm_phase": ("阶段（默认：最后结算的阶段）", "the phase (default: the last resolved)"),
    "h_pm_player": ("只输出这个玩家的私信", "one player's message"),
    "h_pm_format": ("text | bbcode | json", "text | bbcode | json"),
    "h_pm_all": ("每个玩家一段，包括没有收到任何内容的玩家", "a block for every player, also those told nothing"),
    "h_pm_json": ("输出 JSON（同 --format json）", "print JSON (as --format json)"),
    "h_amend": ("更正已结束的阶段：插入或撤回一项输入，并重放其后的一切。"
                "按玩家显示删去和新增的反馈，删去和新增的公告，以及存活情况的变化；--yes 把它作为更正事件写入。",
                "Correct a closed phase: insert or withdraw an input and replay everything after it.\n"
                "Prints, per player, the feedback lines removed and added, the announcement lines removed\n"
                "and added and who is alive differently; --yes writes it as an amendment event."),
    "h_amend_kind": ("插入或撤回的内容", "what is inserted or withdrawn"),
    "h_amend_words": ("act：PLAYER SKILL [TARGET…]；unact：PLAYER SKILL；vote：VOTER TARGET",
                      "act: PLAYER SKILL [TARGET…]; unact: PLAYER SKILL; vote: VOTER TARGET"),
    "h_amend_phase": ("要更正的已结束阶段，例如 'night 1' 或 '第1天 夜晚'", "the closed phase to correct, e.g. 'night 1' or '第1天 夜晚'"),
    "h_amend_arg": ("act：技能参数 键=值", "act: a skill argument KEY=VALUE"),
    "h_amend_post": ("vote：论坛楼层", "vote: the forum floor number"),
    "h_amend_change": ("vote：改票", "vote: a vote change"),
    "h_amend_proxy": ("vote：由导演代投", "vote: entered by the director (代投)"),
    "h_amend_late": ("vote：在最后一小时内发出", "vote: posted in the last hour"),
    "h_amend_yes": ("写入更正（不加则只显示会改变什么）", "write the amendment (without it: only print what changes)"),
}


def extend(entries: dict[str, tuple[str, str]]) -> None:
    """Add a plugin's own keys (``{key: (zh, en)}``, e.g. the help of the command it adds) to
    the catalogue, so that ``say`` and ``text`` find them. A key the catalogue already holds
    with other words is refused: two distributions may not say one key differently."""
    for key, words in entries.items():
        old = CATALOGUE.setdefault(key, words)
        if old != words:
            raise ValueError(f"message key {key!r} is already in the catalogue with other words")


def text(value: str | None, lang: str | None = None) -> str | None:
    """A help text for typer: the catalogue's words when ``value`` is a key, else ``value``
    itself (a plugin command's own literal help, which has no translation)."""
    words = CATALOGUE.get(value) if value else None
    if words is None:
        return value
    return words[1] if lang_of(lang) == "en" else words[0]


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
