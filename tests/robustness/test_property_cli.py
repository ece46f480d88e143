"""A property of the whole command line (issue 11): whatever a director types, bansha exits 0 or
2, never with a traceback; a refusal is one line (one JSON object with --json) and leaves the
database file byte-identical.

hypothesis generates names (CJK, full width, zero-width and control characters, BOMs, the
boards' reserved words, a leading ``-``, commas), house-rule values, ``--arg`` values, post
numbers, seeds and roster files, for all three shipped boards, and drives ``bansha.cli.cli.main``
in-process (the real entry point: click's usage errors included), plus a few real subprocess
runs. ``derandomize=True``: every run tries the same examples, so CI is deterministic; a
failure prints the reproducing blob (``print_blob``)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from clirun import LIBRARY_ENGLISH, run_main, settled_bytes
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

BOARDS = {
    "light-shadow": [f"光{i}" for i in range(1, 13)],
    "qisha-xia": [f"侠{i:02d}" for i in range(1, 21)],
    "m217": [f"新{i:02d}" for i in range(1, 15)],
}
SETTINGS = settings(max_examples=150, derandomize=True, deadline=None, print_blob=True,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])

# pieces a new user (or a pasted forum post) brings: invisible characters, full width,
# the boards' reserved words, what the command line reads specially
PIECES = st.sampled_from(["\u200b", "\ufeff", "\u200d", "\x00", "\x07", "\t", " ", "　", "-", "--", ",", "，", "#",
                          "弃权", "无", "Ａ", "A", "é", "e\u0301", "[/list]", "**", "\\", "'", '"', "=", "１２", "0",
                          "-1", "true", "1", "9" * 20, "梦见", "光1", "侠01", "新01"])
TEXT = st.lists(st.one_of(PIECES, st.text(st.characters(codec="utf-8", exclude_categories=["Cs"]), max_size=4)),
                max_size=5).map("".join)


@pytest.fixture(scope="module")
def templates(tmp_path_factory):
    """One stored game of each board, copied for every example."""
    root = tmp_path_factory.mktemp("templates")
    made = {}
    for board, names in BOARDS.items():
        db = root / f"{board}.db"
        code, out, err = run_main(["new", "g", "--ruleset", board, "--players", ",".join(names), "--db", str(db)])
        assert code == 0, (out, err)
        made[board] = db
    return made


def check(argv: list[str], db: Path) -> None:
    before = settled_bytes(db)
    code, out, err = run_main([*argv, "--db", str(db)])
    assert code in (0, 2), (argv, code, out, err)
    assert "Traceback" not in out + err, (argv, out, err)
    if code == 2:
        lines = [line for line in (out + err).splitlines() if line.strip()]
        assert len(lines) == 1, (argv, out, err)
        assert not [w for w in LIBRARY_ENGLISH if w in lines[0]], (argv, lines[0])  # one language (issue 22)
        assert settled_bytes(db) == before, argv


BOARD = st.sampled_from(sorted(BOARDS))


@SETTINGS
@given(board=BOARD, game=TEXT, extra=st.lists(TEXT, max_size=3), option=st.tuples(st.sampled_from(
    ["start_time", "double_questions_day", "block_order", "weekend_extension", "win", "chain", "nosuch", ""]), TEXT),
    seed=st.one_of(st.integers(-5, 5), st.integers(2**63 - 3, 2**63 + 3), TEXT), as_json=st.booleans())
def test_new_with_generated_names_options_and_seeds(tmp_path, board, game, extra, option, seed, as_json):
    names = BOARDS[board][: len(BOARDS[board]) - len(extra)] + extra
    argv = ["new", game, "--ruleset", board, "--players", ",".join(names), "--seed", str(seed), "--option", f"{option[0]}={option[1]}"]
    check([*argv, *(["--json"] if as_json else [])], tmp_path / f"new-{board}.db")


@SETTINGS
@given(board=BOARD, data=st.binary(max_size=200), encoding=st.sampled_from(["utf-8", "utf-8-sig", "gb18030", "utf-16", "raw"]))
def test_new_from_generated_roster_files(tmp_path, board, data, encoding):
    roster = tmp_path / "roster.txt"
    names = "\n".join(BOARDS[board])
    roster.write_bytes(data if encoding == "raw" else (data.decode("latin-1") + "\n" + names).encode(encoding, "replace"))
    check(["new", "r", "--ruleset", board, "--players", str(roster)], tmp_path / f"roster-{board}.db")


@SETTINGS
@given(board=BOARD, command=st.sampled_from(["act", "unact", "vote", "ruling", "status", "export", "log", "undo", "resolve"]),
       who=st.one_of(TEXT, st.sampled_from(["光1", "侠01", "新01", "梦见\u200b", "光１"])), what=TEXT, target=TEXT,
       arg=st.tuples(TEXT, TEXT), post=TEXT, as_json=st.booleans())
def test_commands_on_a_game_with_generated_args(tmp_path, templates, board, command, who, what, target, arg, post, as_json):
    db = tmp_path / f"{board}.db"
    shutil.copyfile(templates[board], db)
    argv = {
        "act": ["act", "g", who, what, target, "--arg", f"{arg[0]}={arg[1]}"],
        "unact": ["unact", "g", who, what],
        "vote": ["vote", "g", who, target, "--post", post],
        "ruling": ["ruling", "g", what or "announce", who, "--text", target, "--arg", f"{arg[0]}={arg[1]}"],
        "status": ["status", "g", "--as", who],
        "export": ["export", "g", "--format", what],
        "log": ["log", "g", what],
        "undo": ["undo", what or "g"],
        "resolve": ["resolve", what or "g"],
    }[command]
    check([*argv, *(["--json"] if as_json else [])], db)


@pytest.mark.parametrize("argv", [
    ["new", "g\u200b", "--ruleset", "qisha-xia", "--players", "无,侠02", "--option", "start_time=tomorrow"],
    ["new", "g", "--ruleset", "m217", "--players", ",".join(BOARDS["m217"]), "--seed", str(2**63)],
    ["vote", "g", "新01", "新02", "--post", "0"],
    ["bogus-command", "--json"],
])
def test_real_subprocess_refusals_are_one_line(tmp_path, templates, argv):
    db = tmp_path / "m217.db"
    shutil.copyfile(templates["m217"], db)
    before = settled_bytes(db)
    r = subprocess.run([sys.executable, "-m", "bansha.cli.cli", *argv, "--db", str(db)], capture_output=True, text=True, timeout=60)
    assert r.returncode == 2, r
    assert len([line for line in (r.stdout + r.stderr).splitlines() if line.strip()]) == 1, r
    assert "Traceback" not in r.stderr and settled_bytes(db) == before


# ------------------------------------------------------------- files a person writes (issue 22)
#
# Each file kind starts from a real file and is changed by hypothesis: a value replaced by one
# of another type, range or shape (a template reaching into Python, a clock time no day has,
# nesting 100 deep), a line inserted, a BOM, bytes that are no UTF-8, a cut. Whatever comes
# out, the command exits 0 or 2 without a traceback, and a refusal is one line with the store
# byte-identical.

FILE_SETTINGS = settings(max_examples=40, derandomize=True, deadline=None, print_blob=True,
                         suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
ROOT = Path(__file__).resolve().parents[2]
M217_BOARD = __import__("bansha.engine.board", fromlist=["board_file"]).board_file("m217").read_text(encoding="utf-8")  # the installed board
M217_THREAD = (ROOT / "tests" / "loop" / "threads" / "m217-noon1.txt").read_text(encoding="utf-8")
#: TOML values of every kind a person might write where another belongs
TOML_VALUES = st.one_of(
    st.sampled_from(['"{board.__class__.__mro__}"', '"{nosuch}"', '"{"', '"}"', '"{name[0]}"', '"{day!r}"', '"{phase:>{board}}"',
                     '"25:99"', '"24:00"', '"次日 23:59"', '["Friday"]', '["周五"]', '"most"', '"top"', '"none"', "-60", "1441",
                     "-1", "0", "1", "5.0", "0.5", "nan", "inf", "true", '"fr"', '"coinflip"', "[]", "{}", "{ a = 1 }",
                     "[1, \"a\"]", "[[[[[[1]]]]]]", "[" * 100 + "]" * 100, '"' + "长" * 300 + '"', "1979-05-27T07:32:00Z",
                     '"\\u0000"', '"\\ud800"', "9" * 30, '"弃权"', '"无"', '"runoff"', '"extra-noon"']),
    st.integers(-2**70, 2**70).map(str),
    TEXT.map(lambda t: '"' + t.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'))


@st.composite
def mutated(draw, text: str, keys: list[str] | None = None) -> bytes:
    """``text`` with a few of its ``key = value`` lines (or new ones) given drawn values, maybe a
    line of noise, a BOM, bytes that are no UTF-8 or a cut."""
    lines = text.splitlines()
    assigned = [i for i, line in enumerate(lines) if "=" in line and not line.lstrip().startswith("#")]
    for _ in range(draw(st.integers(0, 3))):
        value = draw(TOML_VALUES)
        if assigned and draw(st.booleans()):
            i = draw(st.sampled_from(assigned))
            lines[i] = lines[i].split("=", 1)[0] + "= " + value
        else:
            key = draw(st.sampled_from(keys or ["colour", "x"]))
            lines.insert(draw(st.integers(0, len(lines))), f"{key} = {value}")
    if draw(st.integers(0, 5)) == 0:
        lines.insert(draw(st.integers(0, len(lines))), draw(st.sampled_from(["[post", "[[players]]", "x y", "=", "[clock.noon]", "\x00"])))
    data = "\n".join(lines).encode("utf-8", "surrogatepass")
    kind = draw(st.integers(0, 7))
    if kind == 0:
        data = "\ufeff".encode() + data
    elif kind == 1:
        at = draw(st.integers(0, len(data)))
        data = data[:at] + draw(st.sampled_from([b"\xba", b"\xff\xfe", b"\xe4\xb8"])) + data[at:]
    elif kind == 2:
        data = data[: draw(st.integers(0, len(data)))]
    return data


@pytest.fixture(scope="module")
def noon(templates, tmp_path_factory):
    """The M217 game at its first vote (noon 1), where a thread, a template and actions apply."""
    db = tmp_path_factory.mktemp("noon") / "noon.db"
    settled_bytes(templates["m217"])  # the WAL checkpointed: the copy holds the game
    shutil.copyfile(templates["m217"], db)
    for _ in range(4):
        code, out, err = run_main(["resolve", "g", "--yes", "--db", str(db)])
        assert code == 0, (out, err)
    return db


def on_a_copy(tmp_path, source: Path) -> Path:
    db = tmp_path / "copy.db"
    settled_bytes(source)  # the WAL checkpointed: the copy holds every write
    shutil.copyfile(source, db)
    return db


@FILE_SETTINGS
@given(data=st.data(), command=st.sampled_from(["post", "pm", "votes"]), as_json=st.booleans())
def test_generated_board_templates(tmp_path, noon, data, command, as_json):
    db = on_a_copy(tmp_path, noon)
    template = tmp_path / "b.toml"
    template.write_bytes(data.draw(mutated(M217_BOARD, ["title", "sections", "late", "close", "extend_on", "vote_counts", "typos"])))
    thread = tmp_path / "t.txt"
    thread.write_text(M217_THREAD, encoding="utf-8")
    argv = {"post": ["post", "g"], "pm": ["pm", "g", "--all"], "votes": ["votes", "import", "g", str(thread), "--dry-run"]}[command]
    check([*argv, "--template", str(template), *(["--json"] if as_json else [])], db)


@FILE_SETTINGS
@given(data=st.data(), as_json=st.booleans())
def test_generated_manifests_that_extend_a_board(tmp_path, templates, data, as_json):
    db = on_a_copy(tmp_path, templates["m217"])
    table = data.draw(st.sampled_from(["", "[vote]", "[options]", "[texts]", "[last_words]", "[skills]", "[[tables]]"]))
    keys = {"": ["language", "first_day", "name", "rules", "colour"], "[vote]": ["changes", "tie", "threshold", "post", "abstain"],
            "[options]": ["tie", "chain", "nosuch", "win"], "[texts]": ["out", "counts", "win", "runoff", "nobody_out"],
            "[last_words]": ["max_chars", "text", "kind"], "[skills]": ["x"], "[[tables]]": ["seats"]}[table]
    base = f'id = "m217-p"\nextends = "m217"\nname = "变体"\n{table}\n'
    manifest = tmp_path / "v.toml"
    manifest.write_bytes(data.draw(mutated(base, keys)))
    check(["new", "h", "--ruleset", str(manifest), "--players", ",".join(BOARDS["m217"]), *(["--json"] if as_json else [])], db)


@FILE_SETTINGS
@given(data=st.data())
def test_generated_deal_files(tmp_path, templates, data):
    from bansha.store.store import Store

    db = on_a_copy(tmp_path, templates["m217"])
    seats = Store(templates["m217"]).setup("g").players
    text = "\n".join(f'[[players]]\nname = "{p.name}"\nrole = "{p.role}"' for p in seats)
    deal = tmp_path / "deal.toml"
    deal.write_bytes(data.draw(mutated(text, ["name", "role", "camp", "hat"])))
    extra = data.draw(st.sampled_from([[], ["--players", ",".join(BOARDS["m217"])], ["--seed", "-1"]]))
    check(["new", "h", "--ruleset", "m217", "--deal", str(deal), *extra], db)


THREAD_TIMES = st.one_of(
    st.tuples(st.integers(2023, 2025), st.integers(0, 13), st.integers(0, 32), st.integers(0, 27), st.integers(0, 61), st.integers(0, 61))
    .map(lambda t: "{}-{}-{} {}:{:02d}:{:02d}".format(*t)),
    st.sampled_from(["2024-13-45 27:61:00", "2024-5-6 20:00:05", "2024-02-30 00:00", "9999-99-99 99:99:99"]))
THREAD_FLOORS = st.one_of(st.integers(0, 40).map(lambda n: f"{n}#"), st.sampled_from(["楼主", "沙发", "板凳", "地板", "9" * 23 + "#", "0#", "-1#"]))


@FILE_SETTINGS
@given(posts=st.lists(st.tuples(st.sampled_from([*BOARDS["m217"], "导演", "路人", ""]), THREAD_TIMES, THREAD_FLOORS,
                                st.sampled_from(["投票对象", "改票对象", "投票理由", "弃权"]), st.one_of(st.sampled_from(BOARDS["m217"]), TEXT)),
                      min_size=1, max_size=6),
       close=st.one_of(st.none(), st.sampled_from(["21:00", "25:99", "24:00", "2024-05-06 21:00", "x"])),
       accept=st.one_of(st.none(), st.integers(-1, 10**12).map(str)), as_json=st.booleans())
def test_generated_vote_threads(tmp_path, noon, posts, close, accept, as_json):
    db = on_a_copy(tmp_path, noon)
    thread = tmp_path / "t.txt"
    thread.write_text("\n".join(f"{who}\n发表于 {time} | 只看该作者\n{floor}\n{key}：{what}\n" for who, time, floor, key, what in posts),
                      encoding="utf-8", errors="surrogatepass")
    argv = ["votes", "import", "g", str(thread), *(["--close", close] if close else []), *(["--accept", accept] if accept else [])]
    check([*argv, *(["--json"] if as_json else [])], db)


@FILE_SETTINGS
@given(data=st.data(), kind=st.sampled_from(["toml", "csv"]), as_json=st.booleans())
def test_generated_action_files(tmp_path, noon, data, kind, as_json):
    db = on_a_copy(tmp_path, noon)
    path = tmp_path / f"a.{kind}"
    if kind == "toml":
        base = 'actions = [\n  { actor = "新01", skill = "刀", targets = ["新02"] },\n]\n[[actions]]\nactor = "新03"\nskill = "查"\n'
        path.write_bytes(data.draw(mutated(base, ["actor", "skill", "targets", "args", "phase", "withdraw", "hat"])))
    else:
        rows = data.draw(st.lists(st.lists(st.one_of(TEXT, st.sampled_from(BOARDS["m217"]), st.just("x=" + "9" * 5000)), max_size=5),
                                  max_size=4))
        path.write_text("\n".join(",".join(r) for r in rows), encoding="utf-8", errors="surrogatepass")
    check(["act", "g", "--file", str(path), *(["--json"] if as_json else [])], db)


@FILE_SETTINGS
@given(data=st.data())
def test_generated_scenario_files(tmp_path, data):
    """``scenario run`` holds no store: a run exits 0, 1 or 2 and ``--json`` is one object."""
    import json

    source = (ROOT / "tests" / "kernel" / "scenarios" / "night-kill-heal.toml").read_text(encoding="utf-8")
    source = source.replace('ruleset = "../toy.toml"', f'ruleset = "{(ROOT / "tests" / "kernel" / "toy.toml").as_posix()}"')
    path = tmp_path / "s.toml"
    path.write_bytes(data.draw(mutated(source, ["seed", "phase", "ruleset", "options", "hat"])))
    code, out, err = run_main(["scenario", "run", str(path), "--json"])
    assert code in (0, 1, 2) and "Traceback" not in out + err, (out, err)
    report = json.loads(out)
    assert (code == 2) == ("error" in report) and (code != 2 or report["code"] == 2), out
