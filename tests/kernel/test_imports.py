"""The kernel's modules import in one direction (issue 9): each imports alone in a fresh
interpreter, and no module imports another that imports it back, counting imports inside
functions too. Imports under ``if TYPE_CHECKING:`` never run and are left out: they only name
types for annotations (hookspecs.py names the engine's Game)."""

import ast
import subprocess
import sys
from pathlib import Path

import bansha
import pytest

PACKAGE = Path(bansha.__file__).parent
MODULES = sorted(p.stem for p in PACKAGE.glob("*.py"))


def _is_type_checking(node: ast.If) -> bool:
    t = node.test
    return (isinstance(t, ast.Name) and t.id == "TYPE_CHECKING") or (
        isinstance(t, ast.Attribute) and t.attr == "TYPE_CHECKING")


def imports_of(module: str) -> set[str]:
    """The kernel modules ``module`` imports when it runs (``__init__`` for ``bansha`` itself)."""
    tree = ast.parse((PACKAGE / f"{module}.py").read_text(encoding="utf-8"))
    found: set[str] = set()

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.If) and _is_type_checking(node):
            for child in node.orelse:
                visit(child)
            return
        if isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level == 1 or base == "bansha" or base.startswith("bansha."):
                target = base.removeprefix("bansha").lstrip(".") if node.level == 0 else base
                if target:
                    found.add(target.partition(".")[0])
                else:  # from . import a, b  /  from bansha import a
                    found.update(a.name for a in node.names if a.name in MODULES)
                    if not any(a.name in MODULES for a in node.names):
                        found.add("__init__")
        elif isinstance(node, ast.Import):
            for a in node.names:
                if a.name == "bansha":
                    found.add("__init__")
                elif a.name.startswith("bansha."):
                    found.add(a.name.split(".")[1])
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(tree)
    found.discard(module)
    return found


def test_the_graph_is_read_from_real_imports():
    # the check below can fail: these edges exist
    assert "engine" in imports_of("store") and "model" in imports_of("engine")
    assert "registry" in imports_of("engine") and "builtins" in imports_of("registry")
    assert "engine" not in imports_of("hookspecs")  # its engine import is under TYPE_CHECKING


def test_no_kernel_module_imports_one_that_imports_it_back():
    graph = {m: imports_of(m) for m in MODULES}
    cycles = []

    def walk(node: str, path: list[str]) -> None:
        for nxt in sorted(graph.get(node, ())):
            if nxt in path:
                cycles.append(path[path.index(nxt):] + [nxt])
            elif nxt not in done:
                walk(nxt, [*path, nxt])
        done.add(node)

    done: set[str] = set()
    for m in MODULES:
        if m not in done:
            walk(m, [m])
    assert cycles == []


@pytest.mark.parametrize("module", [m for m in MODULES if m != "__init__"])
def test_each_kernel_module_imports_alone(module):
    r = subprocess.run([sys.executable, "-c", f"import bansha.{module}"], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
