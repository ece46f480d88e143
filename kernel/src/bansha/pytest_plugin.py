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
        from .scenario import run_file

        run_file(self.path)

    def repr_failure(self, excinfo, style=None):
        from .model import GameError
        from .scenario import Mismatch

        if isinstance(excinfo.value, Mismatch | GameError):
            kind = "mismatch" if isinstance(excinfo.value, Mismatch) else "invalid scenario"
            return f"{self.path.name}: {kind}\n{excinfo.value}"
        return super().repr_failure(excinfo, style=style)

    def reportinfo(self):
        return self.path, 0, f"scenario {self.path.name}"


@pytest.fixture
def bansha_plugin():
    """Register in-process plugins for one test: ``bansha_plugin("name", module)``."""
    from . import registry

    added: list[str] = []

    def register(name: str, plugin: object) -> None:
        registry.register_local(name, plugin)
        added.append(name)

    yield register
    for name in added:
        registry.LOCAL_PLUGINS.pop(name, None)
    registry._RULESETS.clear()
