"""The import arrows point one way, with no circle: app -> figures -> engine -> learners -> model (ARCHITECTURE.md).

Model: instances, their environment and presets, the Pareto geometry. Learners: `banditviz.algorithms` (with their
fast loops and kernels). Engine: simulate, trace, metrics and what runs many simulations or reproduces the papers.
Figures draw traces. The CLI, the export of a run (a page or a video made of figures) and the package root sit on top;
the app (``banditviz_app``, its pages, ``app.py``) above everything. Every module of ``banditviz`` and
``banditviz_app`` is read with `ast`. A failure names the module and the import. The nevers: the model imports no
learner and no engine module, a learner no engine module and not the environment (the truth, or the rewards buffer
that holds it), nothing outside the app imports Streamlit. No module imports, through any chain, itself; importing
``a.b.c`` from outside package ``a.b`` also runs ``a/b/__init__.py``, so that counts as importing it. A private name
(``_name``) is used only in its module, and a private module (``pkg/_mod.py``) only inside ``pkg``.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
PACKAGES = ("banditviz", "banditviz_app")
MODEL, LEARNERS, ENGINE, FIGURES, TOP, APP = range(6)
LAYER_NAMES = ("model", "learners", "engine", "figures", "top", "app")
MODEL_MODULES = {"instances", "words", "environment", "rewards", "_noise", "_contexts", "limits", "seeding", "datasets",
                 "pareto", "presets"}
ENGINE_MODULES = {"simulate", "trace", "metrics", "sweep", "fronts", "guarantees", "experiments", "calibration",
                  "reproduce", "claims", "results", "conformance", "plugins", "runlog", "recorder", "winners"}
TRUTH = {"banditviz.environment", "banditviz.rewards"}


def layer(module: str) -> int:
    """Layer of a dotted module name of the two packages."""
    parts = module.split(".")
    if parts[0] == "banditviz_app":
        return APP
    if len(parts) == 1 or parts[1] in ("cli", "__main__", "export"):
        return TOP
    head = parts[1]
    if head == "figures":
        return FIGURES
    if head == "algorithms":
        return LEARNERS
    if head in ENGINE_MODULES:
        return ENGINE
    if head in MODEL_MODULES:
        return MODEL
    raise AssertionError(f"{module}: say in tests/unit/test_layers.py which layer it belongs to")


def module_name(path: Path) -> str:
    rel = path.relative_to(REPO).with_suffix("")
    return ".".join(rel.parts[:-1] if rel.name == "__init__" else rel.parts)


def is_module(dotted: str) -> bool:
    path = REPO / Path(*dotted.split("."))
    return path.with_suffix(".py").exists() or path.is_dir()


def imports(module: str, source: str, is_package: bool) -> dict[str, set[str]]:
    """Modules of the two packages (and streamlit) imported by ``source``, each with the names taken from it."""
    package = module.split(".") if is_package else module.split(".")[:-1]
    out: dict[str, set[str]] = {}
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            for a in node.names:
                if a.name.split(".")[0] in (*PACKAGES, "streamlit"):
                    out.setdefault(a.name, set())
        elif isinstance(node, ast.ImportFrom):
            if node.level == 0:
                target = node.module or ""
                if target.split(".")[0] not in (*PACKAGES, "streamlit"):
                    continue
            else:
                base = package[: len(package) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            for alias in node.names:
                sub = f"{target}.{alias.name}"
                if target.split(".")[0] != "streamlit" and is_module(sub):
                    out.setdefault(sub, set())
                else:
                    out.setdefault(target, set()).add(alias.name)
    return out


def private_uses(module: str, source: str) -> set[str]:
    """``alias._name`` read through the name of an imported module of the two packages."""
    package = module.split(".")[:-1]
    aliases = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            aliases |= {a.asname or a.name for a in node.names if a.name.split(".")[0] in PACKAGES}
        elif isinstance(node, ast.ImportFrom):
            target = node.module if node.level == 0 else ".".join(
                package[: len(package) - node.level + 1] + ([node.module] if node.module else []))
            aliases |= {a.asname or a.name for a in node.names
                        if (target or "").split(".")[0] in PACKAGES and is_module(f"{target}.{a.name}")}
    return {f"{node.value.id}.{node.attr}" for node in ast.walk(ast.parse(source))
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in aliases
            and node.attr.startswith("_") and not node.attr.startswith("__")}


def violations(module: str, deps: dict[str, set[str]], source: str = "") -> list[str]:
    bad = []
    for dep, names in sorted(deps.items()):
        root = dep.split(".")[0]
        if root == "streamlit":
            if layer(module) != APP:
                bad.append(f"{module} imports streamlit (only the app may)")
            continue
        if layer(dep) > layer(module):
            bad.append(f"{module} ({LAYER_NAMES[layer(module)]}) imports {dep} ({LAYER_NAMES[layer(dep)]})")
        if layer(module) == LEARNERS and dep in TRUTH:
            bad.append(f"{module}: a learner imports {dep} (the truth)")
        private = [n for n in names if n.startswith("_") and not n.startswith("__")]
        if private:
            bad.append(f"{module} imports private names {private} of {dep}")
        parent, _, leaf = dep.rpartition(".")
        if leaf.startswith("_") and not leaf.startswith("__") and not module.startswith(parent + "."):
            bad.append(f"{module} imports {dep}, private to {parent}")
    bad += [f"{module} reads the private {use}" for use in sorted(private_uses(module, source))]
    return bad


def all_modules() -> dict[str, tuple[str, dict[str, set[str]]]]:
    """Every module of the two packages: its source and its imports."""
    out = {}
    for package in PACKAGES:
        for path in sorted((REPO / package).rglob("*.py")):
            name, source = module_name(path), path.read_text()
            out[name] = (source, imports(name, source, path.name == "__init__.py"))
    return out


def edges(module: str, deps: dict[str, set[str]]) -> set[str]:
    """What importing ``module`` runs: each module it imports and, of each, the packages above it that are not
    above ``module`` (those are already being imported when ``module`` runs)."""
    out = set()
    for dep in deps:
        if dep.split(".")[0] == "streamlit":
            continue
        parts = dep.split(".")
        for i in range(1, len(parts) + 1):
            above = ".".join(parts[:i])
            if above == dep or not module.startswith(above + "."):
                out.add(above)
    out.discard(module)
    return out


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The import circles of ``graph`` (module -> modules it runs): its strongly connected components of more than
    one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    found = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                found.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


MODULES = all_modules()


@pytest.mark.parametrize("module", sorted(MODULES))
def test_imports_point_down_and_keep_private_names_private(module) -> None:
    source, deps = MODULES[module]
    assert not violations(module, deps, source)


def test_no_import_circle() -> None:
    graph = {name: edges(name, deps) for name, (_, deps) in MODULES.items()}
    assert not cycles(graph)


@pytest.mark.parametrize(("module", "source"), [
    ("banditviz.presets.lexmoslb", "from ..algorithms.lexmoslb.core import lambda_min"),  # model -> learners
    ("banditviz.pareto", "from .metrics import RECOMMENDATION_METRICS"),  # model -> engine
    ("banditviz.algorithms.ramgape._loop", "from ... import simulate"),  # learners -> engine (the old fast_risk)
    ("banditviz.simulate", "from .figures import animate"),  # engine -> figures
    ("banditviz.algorithms.pfiwr.learners", "from ...environment import Environment"),  # the truth
    ("banditviz.algorithms.classic._loop", "from ...rewards import RewardBuffer"),  # the truth, buffered
    ("banditviz.instances", "import streamlit as st"),  # streamlit outside the app
    ("banditviz.algorithms._linear_loop", "from .classic._loop import take"),  # a private module of classic
    ("banditviz.algorithms._linear_loop", "from ._kernels import _unknown"),  # a private name
    ("banditviz.simulate", "from . import environment\nenvironment._draw"),  # a private attribute
])
def test_a_forbidden_import_is_caught(module, source) -> None:
    """The checker itself: each of these would be a violation."""
    assert violations(module, imports(module, source, is_package=False), source)


def test_an_import_circle_is_caught() -> None:
    """The circle this layout removed (fast_risk imported simulate back), one within a layer, and one through a
    package's ``__init__`` (lexmoslb's, had it imported its learners, which import the linear loop)."""
    graph = {name: edges(name, deps) for name, (_, deps) in MODULES.items()}
    back = edges("banditviz.algorithms.ramgape._loop", imports("banditviz.algorithms.ramgape._loop",
                                                                "from ... import simulate", False))
    assert cycles({**graph, "banditviz.algorithms.ramgape._loop": graph["banditviz.algorithms.ramgape._loop"] | back})
    assert cycles({**graph, "banditviz.pareto": graph["banditviz.pareto"] | {"banditviz.instances"}})
    init = edges("banditviz.algorithms.lexmoslb", imports("banditviz.algorithms.lexmoslb", "from . import learners",
                                                          True))
    assert cycles({**graph, "banditviz.algorithms.lexmoslb": init})
