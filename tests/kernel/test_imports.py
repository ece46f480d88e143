"""The kernel's layers and its import graph (issues 9 and 35).

- Each kernel module imports alone in a fresh interpreter.
- No module imports another that imports it back, counting imports inside functions and
  type-only imports (``if TYPE_CHECKING:``) too: a reader follows those all the same.
- Each layer imports only the layers below it, as the table ``LAYERS`` says — the same table
  docs/architecture.md "The kernel's layers" shows.
- The plugins' own modules (m217's rules and cards, every board's helpers) import in one
  direction too.
"""

import ast
import subprocess
import sys
from pathlib import Path

import bansha
import pytest

PACKAGE = Path(bansha.__file__).parent
PLUGINS = Path(__file__).resolve().parents[2] / "plugins"

#: layer -> the layers it may import. A layer is a subpackage of bansha; ``entrypoints`` (plugin
#: discovery: it imports nothing of bansha) is a layer of one module, and ``top`` is the ways in
#: from outside: ``bansha/__init__.py`` (the role author's names), ``start.py`` (the command)
#: and ``pytest_plugin.py`` (pytest's, which runs the command).
LAYERS: dict[str, set[str]] = {
    "entrypoints": set(),
    "text": set(),
    "door": {"text"},
    "engine": {"text", "door", "entrypoints"},
    "homebrew": {"engine", "door", "text"},
    "store": {"engine", "door", "text", "entrypoints"},
    "show": {"engine", "text"},
    "authoring": {"show", "engine", "door", "text"},
    "cli": {"authoring", "show", "store", "homebrew", "engine", "door", "text", "entrypoints"},
    "top": {"cli", "authoring", "show", "store", "homebrew", "engine", "door", "text", "entrypoints"},
}
TOP = {"bansha", "bansha.start", "bansha.pytest_plugin"}


def module_name(path: Path, root: Path) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


MODULES = sorted(module_name(p, PACKAGE.parent) for p in PACKAGE.rglob("*.py"))


def layer_of(module: str) -> str:
    if module in TOP:
        return "top"
    return module.split(".")[1]


def _resolve(base: str, level: int, here: str, is_package: bool) -> str:
    if not level:
        return base
    parts = here.split(".") if is_package else here.split(".")[:-1]
    parts = parts[: len(parts) - (level - 1)]
    return ".".join([*parts, base] if base else parts)


def imports_in(source: str, here: str, known: set[str], is_package: bool = False) -> set[str]:
    """The modules of ``known`` that ``source`` (the module ``here``) imports anywhere: at the
    top, inside functions, under ``if TYPE_CHECKING:``. ``from P import m`` is the module
    ``P.m`` where that is one, else ``P`` itself."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom):
            base = _resolve(node.module or "", node.level, here, is_package)
            for a in node.names:
                sub = f"{base}.{a.name}"
                if sub in known:
                    found.add(sub)
                elif base in known:
                    found.add(base)
        elif isinstance(node, ast.Import):
            for a in node.names:
                name = a.name
                while name and name not in known:  # import bansha.engine.model as m
                    name = name.rpartition(".")[0]
                if name:
                    found.add(name)
    found.discard(here)
    return found


def source_of(module: str) -> tuple[str, bool]:
    path = PACKAGE.parent.joinpath(*module.split("."))
    init = path / "__init__.py"
    if init.exists():
        return init.read_text(encoding="utf-8"), True
    return path.with_suffix(".py").read_text(encoding="utf-8"), False


def kernel_graph() -> dict[str, set[str]]:
    out = {}
    for m in MODULES:
        text, is_package = source_of(m)
        out[m] = imports_in(text, m, set(MODULES), is_package)
    return out


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Every cycle a depth-first walk meets (each at least once)."""
    found: list[list[str]] = []
    done: set[str] = set()

    def walk(node: str, path: list[str]) -> None:
        for nxt in sorted(graph.get(node, ())):
            if nxt in path:
                found.append(path[path.index(nxt):] + [nxt])
            elif nxt not in done:
                walk(nxt, [*path, nxt])
        done.add(node)

    for m in sorted(graph):
        if m not in done:
            walk(m, [m])
    return found


def upward(graph: dict[str, set[str]]) -> list[tuple[str, str]]:
    """The imports the layer table does not allow: (importer, imported)."""
    return sorted((m, n) for m, targets in graph.items() for n in targets
                  if layer_of(n) != layer_of(m) and layer_of(n) not in LAYERS[layer_of(m)])


def plugin_graph() -> dict[str, set[str]]:
    """The plugins' modules (``plugins/<ruleset>/<folder>/*.py``, tests left out) and which of
    them each imports."""
    files = {p.stem: p for p in PLUGINS.glob("*/*/*.py")}
    return {name: imports_in(p.read_text(encoding="utf-8"), name, set(files)) for name, p in files.items()}


# -- the checks can fail


def test_the_graph_is_read_from_real_imports():
    graph = kernel_graph()
    assert "bansha.engine.model" in graph["bansha.engine.engine"]
    assert "bansha.engine.builtins" in graph["bansha.engine.registry"]
    assert "bansha.engine.engine" in graph["bansha.store.store"]
    # a type-only import counts: hookspecs names the engine's types through engine/protocols.py
    assert "bansha.engine.protocols" in graph["bansha.engine.hookspecs"]
    # the m217 rules import their helpers, and so do the cards
    plugins = plugin_graph()
    assert "bansha_m217_helpers" in plugins["bansha_m217_rules"]
    assert "bansha_m217_helpers" in plugins["bansha_m217_cards"]


def test_a_circle_and_an_upward_import_are_found():
    known = {"bansha.engine.a", "bansha.engine.b", "bansha.text.messages", "bansha.cli.cli"}
    a = imports_in("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from bansha.engine.b import X\n",
                   "bansha.engine.a", known)
    b = imports_in("def f():\n    from .a import Y\n", "bansha.engine.b", known)
    assert a == {"bansha.engine.b"} and b == {"bansha.engine.a"}
    assert cycles({"bansha.engine.a": a, "bansha.engine.b": b}) == [["bansha.engine.a", "bansha.engine.b", "bansha.engine.a"]]
    t = imports_in("import bansha.cli.cli\n", "bansha.text.messages", known)
    assert upward({"bansha.text.messages": t}) == [("bansha.text.messages", "bansha.cli.cli")]


def test_the_layer_table_is_an_order():
    assert cycles({k: v for k, v in LAYERS.items()}) == []
    assert {layer_of(m) for m in MODULES} == set(LAYERS)  # a new folder is placed in the table


# -- the kernel and the plugins


def test_no_kernel_module_imports_one_that_imports_it_back():
    assert cycles(kernel_graph()) == []


def test_each_layer_imports_only_the_layers_below_it():
    assert upward(kernel_graph()) == []


def test_the_layers_packages_import_nothing():
    # ``import bansha.engine.model`` runs bansha/engine/__init__.py first: kept empty of
    # imports, it costs nothing and closes no circle (bansha/__init__.py imports only when a
    # name is first asked for, inside its __getattr__)
    for m in MODULES:
        text, is_package = source_of(m)
        if is_package:
            top_level = [n for n in ast.parse(text).body if isinstance(n, ast.Import | ast.ImportFrom)
                         and (n.level or (getattr(n, "module", "") or "").startswith("bansha")
                              or any(a.name.startswith("bansha") for a in n.names))]
            assert top_level == [], m


def test_no_plugin_module_imports_one_that_imports_it_back():
    assert cycles(plugin_graph()) == []


@pytest.mark.parametrize("module", [m for m in MODULES if m != "bansha"])
def test_each_kernel_module_imports_alone(module):
    r = subprocess.run([sys.executable, "-c", f"import {module}"], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr


def test_a_role_authors_names_are_bansha_s_and_each_where_it_is_defined():
    # docs/plugins.md "What a role imports": ``from bansha import …`` of each, lazily
    r = subprocess.run([sys.executable, "-c", "import sys, bansha.start; before = set(sys.modules)\n"
                        "from bansha import *\nimport bansha\n"
                        "assert set(bansha.__all__) == set(bansha._WHERE), bansha.__all__\n"
                        "for name in bansha.__all__:\n"
                        "    assert getattr(bansha, name) is getattr(sys.modules[bansha._WHERE[name]], name), name\n"
                        "assert not any(m.startswith('bansha.') for m in before - {'bansha.start'}), before"],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
