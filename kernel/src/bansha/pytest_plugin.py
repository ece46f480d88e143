"""pytest plugin (entry point ``pytest11``): scenario files are collected as test items.

Any ``*.toml`` file below a folder named ``scenarios`` is a scenario; a role package's tests
can therefore be scenario files alone. A mismatch prints expected versus actual and the
ruling trace of the phase.
"""

from __future__ import annotations

from pathlib import Path

import pytest


def pytest_collect_file(parent, file_path: Path):
    if file_path.suffix == ".toml" and "scenarios" in file_path.parts[:-1]:
        return ScenarioFile.from_parent(parent, path=file_path)
    return None


class ScenarioFile(pytest.File):
    def collect(self):
        yield ScenarioItem.from_parent(self, name=self.path.stem)


class ScenarioItem(pytest.Item):
    def runtest(self) -> None:
        from bansha.authoring.scenario import run_file

        run_file(self.path)

    def repr_failure(self, excinfo, style=None):
        from bansha.authoring.scenario import Mismatch
        from bansha.engine.model import GameError

        if isinstance(excinfo.value, Mismatch | GameError):
            kind = "mismatch" if isinstance(excinfo.value, Mismatch) else "invalid scenario"
            return f"{self.path.name}: {kind}\n{excinfo.value}"
        return super().repr_failure(excinfo, style=style)

    def reportinfo(self):
        return self.path, 0, f"scenario {self.path.name}"


@pytest.fixture
def bansha_plugin():
    """Register in-process plugins for one test: ``bansha_plugin("name", module)``."""
    from bansha.engine import registry

    added: list[str] = []

    def register(name: str, plugin: object) -> None:
        registry.register_local(name, plugin)
        added.append(name)

    yield register
    for name in added:
        registry.LOCAL_PLUGINS.pop(name, None)
    registry._RULESETS.clear()


class BanshaCli:
    """The ``bansha`` command in-process against a database of its own (``bansha_cli``)."""

    def __init__(self, db):
        from typer.testing import CliRunner

        self.db = db
        self._runner = CliRunner()

    def __call__(self, *args: str):
        from bansha.cli.cli import app

        return self._runner.invoke(app, [*map(str, args), "--db", str(self.db)])

    def ok(self, *args: str):
        """Run a command that must succeed; returns its result."""
        r = self(*args)
        assert r.exit_code == 0, r.output
        return r

    def events(self, game: str = "g") -> list:
        from bansha.store.store import Store

        return list(Store(self.db).events(game))

    def load(self, game: str = "g"):
        from bansha.store.store import Store

        return Store(self.db).load(game)

    def refused(self, *args: str, message: str, game: str = "g"):
        """Run a command that must be refused: exit code 2, one line naming ``message``, and
        the stored game unchanged."""
        before = self.events(game)
        r = self(*args)
        assert r.exit_code == 2, r.output
        assert message in r.output, r.output
        assert len([line for line in r.output.splitlines() if line.strip()]) == 1, r.output
        assert self.events(game) == before
        return r


@pytest.fixture
def bansha_cli(tmp_path):
    """``bansha_cli("new", "g", "--ruleset", …)`` runs the CLI on a fresh database;
    ``.ok(...)``, ``.refused(..., message=...)`` (exit 2, one line, game unchanged),
    ``.events()``, ``.load()``."""
    return BanshaCli(tmp_path / "games.db")
