"""The help every command prints is in the catalogue's words (messages.py, cli_help.py):
Chinese by default, English with ``BANSHA_LANG=en``, like the refusals; every help text of
every command (``serve`` and ``simulate`` included) exists in both languages."""

import os
import re
import subprocess
import sys
import unicodedata

import pytest
import typer
from bansha.cli import cli
from bansha.cli.help import typer_app
from bansha.text.messages import CATALOGUE, extend, text
from typer.testing import CliRunner

CJK = re.compile(r"[\u4e00-\u9fff]")
KEY = re.compile(r"\bh_[a-z_]+\b")


def bansha(*args: str, lang: str | None = None) -> str:
    env = {k: v for k, v in os.environ.items() if k != "BANSHA_LANG"}
    if lang is not None:
        env["BANSHA_LANG"] = lang
    env["COLUMNS"] = "80"
    r = subprocess.run([sys.executable, "-m", "bansha.cli.cli", *args], capture_output=True, text=True, env=env, timeout=60)
    assert r.returncode == 0 and not r.stderr, r.stderr
    return r.stdout


def flat(s: str) -> str:
    """Without any whitespace: a wrapped text is found whichever lines it was broken into."""
    return re.sub(r"\s+", "", s)


def said(key: str, lang: str) -> str:
    return flat(text(key, lang))


@pytest.mark.parametrize("lang", [None, "zh", "en"])
def test_bansha_help_is_in_bansha_lang(lang):
    out = bansha("--help", lang=lang)
    shown, other = ("en", "zh") if lang == "en" else ("zh", "en")
    assert said("h_app", shown) in flat(out) and said("h_app", other) not in flat(out)
    assert text("h_help_option", shown) in out and text("h_help_option", other) not in out
    # the list of commands: each kernel command beside its summary in the language
    if shown == "zh":
        assert re.search(r"^  status +导演视图，或用 --as 看某个玩家的视图$", out, re.M), out
        assert re.search(r"^  resolve +结束当前阶段，按清单的顺序结算，并进入下一阶段$", out, re.M), out
        commands_part = out.split("Commands:")[1]
        assert "..." not in commands_part  # a Chinese summary is its first sentence, never cut by click
    else:
        assert re.search(r"^  status +The director's view, or with --as one player's view\.$", out, re.M), out
        assert re.search(r"^  resolve +Close the current phase, resolve it in the manifest's order\.\.\.$", out, re.M), out
    assert not KEY.search(out), out


@pytest.mark.parametrize("lang", [None, "en"])
def test_status_help_is_in_bansha_lang(lang):
    out = bansha("status", "--help", lang=lang)
    shown, other = ("en", "zh") if lang == "en" else ("zh", "en")
    for key in ("h_status", "h_game", "h_status_as", "h_db", "h_json"):
        assert said(key, shown) in flat(out), (key, out)
    for key in ("h_status", "h_status_as", "h_db"):
        assert said(key, other) not in flat(out), (key, out)
    assert text("h_help_option", shown) in out
    if shown == "en":
        assert not CJK.search(out), out
    else:
        assert re.search(r"^  --as <str>  该玩家的视图$", out, re.M), out
    assert not KEY.search(out), out


@pytest.fixture
def whole_app():
    """Every command with its parameters, the plugins' (serve, simulate) among them."""
    whole = typer_app(cli.commands)
    for name, obj in cli.plugin_commands(None).items():
        cli._add_plugin_command(whole, name, obj)
    return whole


def commands(group, path=()):
    """(path, click command) of every command and group under ``group``."""
    yield path, group
    for name, sub in getattr(group, "commands", {}).items():
        yield from commands(sub, (*path, name))


def test_every_help_text_exists_in_both_languages(whole_app):
    tree = typer.main.get_group(whole_app)
    seen = {path for path, _ in commands(tree)}
    assert {("serve",), ("simulate",), ("db", "copy"), ("votes", "import"), ("role", "show")} <= seen
    missing = []
    for path, cmd in commands(tree):
        where = " ".join(("bansha", *path))
        helps = [(where, cmd.help)] + [(f"{where} {p.name}", getattr(p, "help", None)) for p in cmd.params]
        for at, key in helps:
            words = CATALOGUE.get(key)
            if words is None:
                missing.append(f"{at}: {key!r} is not a catalogue key")
                continue
            zh, en = words
            if not zh.strip() or not en.strip():
                missing.append(f"{at}: {key} is empty in a language")
            elif zh == en and not zh.isascii():
                missing.append(f"{at}: {key}'s English is its Chinese")
            elif zh != en and zh.isascii():
                missing.append(f"{at}: {key}'s Chinese is English")
            # the same words in both only for a list of literal values: md | bbcode | json
    assert not missing, "\n".join(missing)


def columns(line: str) -> int:
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in line)


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_every_help_page_is_in_one_language_and_fits_the_terminal(whole_app, lang):
    runner = CliRunner()
    tree = typer.main.get_group(whole_app)
    for path, cmd in commands(tree):
        r = runner.invoke(whole_app, [*path, "--help"], env={"BANSHA_LANG": lang, "COLUMNS": "80"})
        assert r.exit_code == 0, r.output
        out = r.output
        assert not KEY.search(out), (path, out)
        assert flat(text(cmd.help, lang)) in flat(out), (path, out)
        for p in cmd.params:
            if getattr(p, "help", None):
                assert flat(text(p.help, lang)) in flat(out), (path, p.name, out)
        # click's width is 78 columns here: a Chinese line is wrapped by columns, not characters
        wide = [line for line in out.splitlines() if columns(line) > 80]
        assert not wide, (path, wide)
        if lang == "zh":
            assert "显示本帮助并退出。" in out
        else:
            assert "Show this message and exit." in out


def test_a_plugin_may_add_keys_but_not_say_a_key_differently():
    extend({"h_json": CATALOGUE["h_json"]})  # the same words again: nothing changes
    with pytest.raises(ValueError, match="h_json"):
        extend({"h_json": ("打印", "print")})
    assert CATALOGUE["h_json"] == ("输出 JSON", "print JSON")
    # a literal help (an out-of-tree command's own words) is printed as it is
    assert text("Say hello to each living player.") == "Say hello to each living player."


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_list_of_commands_is_built_without_their_parameters(whole_app, monkeypatch, lang):
    """`bansha --help` lists every command and group with the summary its own page gives,
    from stand-ins that hold no parameters (cli_help.listing_app: building them was most of its cost)."""
    monkeypatch.setenv("BANSHA_LANG", lang)
    listed = typer.main.get_group(cli.app_for(["--help"]))
    real = typer.main.get_group(whole_app)
    assert set(listed.commands) == set(real.commands) and len(listed.commands) >= 24
    for name, cmd in listed.commands.items():
        assert cmd.params == [], name
        assert cmd.get_short_help_str(60) == real.commands[name].get_short_help_str(60), name
    # an unknown name: the list, for its neighbours; a known one: that command alone
    assert {c.name for c in cli.app_for(["statu"]).registered_commands} >= {"status", "act", "vote"}
    assert [c.name for c in cli.app_for(["status", "g"]).registered_commands] == ["status"]
    assert [g.name for g in cli.app_for(["db", "info"]).registered_groups] == ["db"]
