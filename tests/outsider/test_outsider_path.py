"""The outsider's path of docs/plugins.md "Outside this repository" and "Publishing", followed
literally: the workspace's distributions a 新日暮里 author needs (the kernel, bansha-m217 with its
rules and 60 roles, bansha-mafia-basic, bansha-sim) are built into a wheelhouse with `uv build
--wheel`, and their third-party wheels added with `pip wheel`; from then on every install is
`--no-index --find-links wheelhouse` (never an index, never the workspace's sources). In a fresh
environment an author scaffolds a role and a variant, adds the role to the 弱神 pool in a few
lines, builds both into the wheelhouse, installs them into a second fresh environment, and
plays, tests and simulates the variant there. Then the boards fail one at a time: the role
uninstalled (`rulesets` marks the variant), the variant's base uninstalled (the variant is
refused by name, the other board plays on), and a homebrew board with a misspelt text field
(refused by `board show`).

Slow (~70 wheel builds and ~15 downloads or cache hits): one test. Needs uv, and pip with an
index for the third-party wheels (or pip's cache)."""

import os
import shutil
import subprocess
import sys
import tomllib
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

VARIANT_EDITS = """
[roles]
"白昼学者" = "community.day-scholar"

[[edits]]
pool = "弱神"
add = ["白昼学者"]
draw = 5

[[edits]]
pool = "强神"
remove = ["钟"]
draw = 2
"""


def _needed() -> list[Path]:
    """The folders of the kernel, bansha-m217, every distribution it depends on, and bansha-sim."""
    folders = {}
    for pyproject in [ROOT / "kernel/pyproject.toml", ROOT / "sim/pyproject.toml",
                      *ROOT.glob("rulesets/*/pyproject.toml"), *ROOT.glob("plugins/*/*/pyproject.toml")]:
        folders[tomllib.loads(pyproject.read_text(encoding="utf-8"))["project"]["name"]] = pyproject.parent
    board = tomllib.loads((ROOT / "rulesets/m217/pyproject.toml").read_text(encoding="utf-8"))["project"]
    return [folders[name] for name in {"bansha", "bansha-sim", "bansha-m217", "bansha-mafia-basic", *board["dependencies"],
                                       *_deps("rulesets/mafia-basic/pyproject.toml")}]


def _deps(pyproject: str) -> list[str]:
    return tomllib.loads((ROOT / pyproject).read_text(encoding="utf-8"))["project"]["dependencies"]


#: what the installs read: nothing but the wheelhouse (no index, no find-links of the machine's)
NO_INDEX_ENV = ("UV_INDEX", "UV_DEFAULT_INDEX", "UV_EXTRA_INDEX_URL", "UV_FIND_LINKS", "PIP_")


def test_an_outsider_installs_scaffolds_builds_and_plays_from_wheels(tmp_path):
    uv = shutil.which("uv")
    assert uv is not None, "uv is on PATH wherever the workspace is synced (README)"
    wheels = tmp_path / "wheels"

    def build(folder: Path) -> None:
        # one distribution per call (uv builds one package at a time); never its sources later
        subprocess.run([uv, "build", "--wheel", "-q", "-o", str(wheels), str(folder)], check=True,
                       capture_output=True, cwd=tmp_path)

    with ThreadPoolExecutor(max_workers=4) as pool:
        list(pool.map(build, _needed()))
    assert (wheels / "bansha_m217-0.1.0-py3-none-any.whl").exists()
    # Publishing, step 2: the third-party wheels, into the same folder (pip, from the index)
    builder = tmp_path / "builder"
    subprocess.run([uv, "venv", "-q", "--seed", "--python", sys.executable, str(builder)], check=True, cwd=tmp_path)
    fetched = subprocess.run([str(builder / "bin" / "python"), "-m", "pip", "wheel", "-q", "--wheel-dir", str(wheels),
                              "--find-links", str(wheels), "bansha-m217", "bansha-mafia-basic", "bansha-sim", "pytest",
                              "hatchling", "editables"], capture_output=True, text=True, cwd=tmp_path)
    assert fetched.returncode == 0, fetched.stderr
    local = {w.name.split("-")[0] for w in wheels.glob("*.whl")}
    assert {"msgspec", "pluggy", "typer", "structlog", "hatchling", "editables"} <= local, sorted(local)

    def fresh_env(name: str):
        venv = tmp_path / name
        subprocess.run([uv, "venv", "-q", "--python", sys.executable, str(venv)], check=True, cwd=tmp_path)
        env = {k: v for k, v in os.environ.items() if not k.startswith(("UV_PROJECT", "VIRTUAL_ENV", "BANSHA_", *NO_INDEX_ENV))}
        env.update(VIRTUAL_ENV=str(venv), BANSHA_CACHE_DIR=str(tmp_path / f"{name}-cache"), BANSHA_DB=str(tmp_path / f"{name}.db"))

        def install(*what: str) -> None:
            # Publishing, step 3: from the wheelhouse alone; no index, no workspace source is reachable
            subprocess.run([uv, "pip", "install", "-q", "--no-config", "--no-index", "--find-links", str(wheels), *what],
                           check=True, env=env, cwd=tmp_path)

        def run(*args: str, cwd: Path = tmp_path) -> subprocess.CompletedProcess:
            exe = venv / "bin" / args[0]
            return subprocess.run([str(exe), *args[1:]], capture_output=True, text=True, env=env, cwd=cwd)

        return install, run

    # 1. `pip install bansha-m217` is the whole board
    install, run = fresh_env("author")
    install("bansha-m217", "bansha-mafia-basic", "bansha-sim", "pytest")
    where = run("python", "-c", "import bansha, bansha_m217; print(bansha.__file__); print(bansha_m217.__file__)")
    assert where.returncode == 0 and all(str(tmp_path / "author") in line for line in where.stdout.splitlines()), where
    listed = run("bansha", "rulesets")
    assert listed.returncode == 0 and sorted(line.split()[0] for line in listed.stdout.splitlines()) == ["m217", "mafia-basic"], \
        listed.stdout + listed.stderr
    # the listing commands with one board of four installed
    assert run("bansha", "role", "show", "熊").returncode == 0
    roles = run("bansha", "roles")
    assert roles.returncode == 0 and "熊" in roles.stdout, roles.stderr

    # 2. scaffolds: a role for m217 and a variant of m217
    work = tmp_path / "work"
    work.mkdir()
    made = run("bansha", "role", "new", "白昼学者", "--board", "m217", "--alias", "day-scholar", "--dir", str(work))
    assert made.returncode == 0, made.stderr
    role = work / "bansha-community-day-scholar"
    made = run("bansha", "board", "new", "m217-scholar", "--extends", "m217", "--dir", str(work))
    assert made.returncode == 0, made.stderr
    board = work / "bansha-m217-scholar"
    # composing without copying: two edits add the role to 弱神 (and take 钟 out of 强神)
    manifest = board / "bansha_m217_scholar" / "m217-scholar.toml"
    manifest.write_text(manifest.read_text(encoding="utf-8") + VARIANT_EDITS, encoding="utf-8")
    pyproject = board / "pyproject.toml"
    pyproject.write_text(pyproject.read_text(encoding="utf-8").replace(
        '"bansha-m217"]', '"bansha-m217", "bansha-community-day-scholar"]'), encoding="utf-8")

    # 3. the role's own tests, installed editable as its README says
    install("-e", str(role))
    tested = run("python", "-m", "pytest", "-q", "-p", "no:cacheprovider", cwd=role)
    assert tested.returncode == 0 and "3 passed" in tested.stdout, tested.stdout + tested.stderr
    ran = run("bansha", "scenario", "run", "scenarios", cwd=role)
    assert ran.returncode == 0 and "1个通过，0个失败" in ran.stdout, ran.stdout + ran.stderr

    # 4. both built as wheels, installed into a fresh environment from wheels alone
    for folder in (role, board):
        subprocess.run([uv, "build", "--wheel", "-q", "-o", str(wheels), str(folder)], check=True, capture_output=True, cwd=tmp_path)
    install2, run2 = fresh_env("player")
    install2("bansha-m217-scholar", "bansha-mafia-basic", "bansha-sim", "pytest")
    shown = run2("bansha", "role", "show", "白昼学者", "--ruleset", "m217-scholar")
    assert shown.returncode == 0 and "白昼学者·查看" in shown.stdout, shown.stdout + shown.stderr
    diff = run2("bansha", "board", "diff", "m217", "m217-scholar")
    assert diff.returncode == 0, diff.stderr
    assert 'tables[14].pools[弱神].roles: +"白昼学者"' in diff.stdout.splitlines()
    assert "tables[14].pools[弱神].draw: 4 → 5" in diff.stdout.splitlines()
    # the variant's own tests, run from its folder against the installed wheels
    tested = run2("python", "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests", cwd=board)
    assert tested.returncode == 0 and "3 passed" in tested.stdout, tested.stdout + tested.stderr

    # 5. played from the CLI: a deal of the variant with the scholar in it, and its skill used
    names = ",".join(f"玩{i}" for i in range(1, 15))
    seed = next(s for s in range(200) if _deals_scholar(run2, s, names))
    status = run2("bansha", "status", f"g{seed}", "--json")
    seats = _seats(status.stdout)
    scholar = next(n for n, r in seats.items() if r == "白昼学者")
    other = next(n for n in seats if n != scholar)
    # 开局, 黄昏1 with nothing sent: the guard asks for --yes (docs/cli.md)
    played = [run2("bansha", "resolve", f"g{seed}", "--yes") for _ in range(2)]
    assert all(p.returncode == 0 for p in played), [p.stderr for p in played]
    acted = run2("bansha", "act", f"g{seed}", scholar, "白昼学者·查看", other)
    assert acted.returncode == 0, acted.stderr
    resolved = run2("bansha", "resolve", f"g{seed}")
    assert resolved.returncode == 0 and f"{other}的座位号是{list(seats).index(other) + 1}。" in resolved.stdout, resolved.stdout
    demo = run2("bansha", "demo", "--ruleset", "m217-scholar")
    assert demo.returncode == 0 and demo.stdout.startswith("新日暮里（m217-scholar） — "), demo.stderr

    # 6. simulated
    sim = run2("bansha", "simulate", "m217-scholar", "--games", "4", "--jobs", "1", "--json")
    assert sim.returncode == 0, sim.stderr
    import json

    report = json.loads(sim.stdout)
    assert report["ruleset"] == "m217-scholar" and report["games"] == 4 and report["seats"] == 14

    # 7. a board missing a plugin: marked by `rulesets`, naming the plugin
    subprocess.run([uv, "pip", "uninstall", "-q", "--python", str(tmp_path / "player" / "bin" / "python"), "bansha-community-day-scholar"],
                   check=True, cwd=tmp_path)
    listed = run2("bansha", "rulesets")
    assert listed.returncode == 0, listed.stderr
    marked = next(line for line in listed.stdout.splitlines() if line.startswith("m217-scholar"))
    assert "缺少插件" in marked and "community.day-scholar" in marked, marked
    assert "缺少" not in next(line for line in listed.stdout.splitlines() if line.startswith("m217\t"))
    refused = run2("bansha", "new", "ms", "--ruleset", "m217-scholar", "--players", names)
    assert refused.returncode == 2 and "pip install bansha-community-day-scholar" in refused.stderr, refused.stderr

    # 8. the variant's base removed: the variant is marked and refused by name; the others work
    subprocess.run([uv, "pip", "uninstall", "-q", "--python", str(tmp_path / "player" / "bin" / "python"), "bansha-m217"],
                   check=True, cwd=tmp_path)
    listed = run2("bansha", "rulesets")
    assert listed.returncode == 0 and "Traceback" not in listed.stderr, listed.stdout + listed.stderr
    assert any(line.startswith("mafia-basic") for line in listed.stdout.splitlines()), listed.stdout
    assert "bansha-m217" in next(line for line in listed.stdout.splitlines() if line.startswith("m217-scholar")), listed.stdout
    assert run2("bansha", "roles", "mafia-basic").returncode == 0
    assert run2("bansha", "demo", "--ruleset", "mafia-basic").returncode == 0
    assert run2("bansha", "new", "mb", "--ruleset", "mafia-basic", "--players", "甲,乙,丙,丁,戊").returncode == 0
    refused = run2("bansha", "new", "ms", "--ruleset", "m217-scholar", "--players", names)
    assert refused.returncode == 2 and len(refused.stderr.strip().splitlines()) == 1, refused.stderr
    assert "m217-scholar" in refused.stderr and "bansha-m217" in refused.stderr and "Traceback" not in refused.stderr

    # 9. a homebrew board with a misspelt text field: refused by `board show`, as `new` would
    brew = tmp_path / "brew.toml"
    brew.write_text((ROOT / "examples/homebrew-board/board.toml").read_text(encoding="utf-8")
                    .replace('text = "{chosen}属于{value}。"', 'text = "{chossen}属于{value}。"'), encoding="utf-8")
    assert "{chossen}" in brew.read_text(encoding="utf-8")
    shown = run("bansha", "board", "show", str(brew))
    assert shown.returncode == 2 and len(shown.stderr.strip().splitlines()) == 1, shown.stdout + shown.stderr
    assert "chossen" in shown.stderr and "Traceback" not in shown.stderr, shown.stderr


def _deals_scholar(run, seed: int, names: str) -> bool:
    made = run("bansha", "new", f"g{seed}", "--ruleset", "m217-scholar", "--players", names, "--seed", str(seed))
    assert made.returncode == 0, made.stderr
    return "白昼学者" in _seats(run("bansha", "status", f"g{seed}", "--json").stdout).values()


def _seats(status_json: str) -> dict[str, str]:
    import json

    data = json.loads(status_json)
    return {p["name"]: p["role"] for p in data["players"]}
