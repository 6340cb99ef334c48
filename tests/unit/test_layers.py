"""The import arrows point one way: pages -> figures -> engine -> model, never back.

Model: algorithms, environment, instances, pareto, presets, risk and their helpers. Engine: simulate, trace,
metrics and the modules that run many simulations (sweeps, compiled loops, fronts, guarantees, reproduction
drivers). Figures draw traces. The CLI and the package root sit on top. Every ``banditviz`` module is read
with `ast`; an import of a higher layer, of streamlit, or of the environment (the truth) by an algorithm fails.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2] / "banditviz"
MODEL, ENGINE, FIGURES, TOP = range(4)
MODEL_MODULES = {"algorithms", "environment", "instances", "pareto", "presets", "risk", "design", "estimators",
                 "limits", "datasets", "fast_pareto", "fast_ape", "highs_lp", "seeding", "fast_noise"}
ENGINE_MODULES = {"simulate", "trace", "metrics", "sweep", "fast_classic", "fast_linear", "fast_pfiwr", "fast_risk",
                  "fronts", "guarantees", "lexicographic_repro", "calibration", "reproduce", "claims"}


def layer(module: str) -> int:
    """Layer of a dotted module name inside the package ("banditviz" itself is the top)."""
    parts = module.split(".")
    if len(parts) == 1 or parts[1] in ("cli", "__main__"):
        return TOP
    head = parts[1]
    if head == "figures":
        return FIGURES
    if head in ENGINE_MODULES:
        return ENGINE
    if head in MODEL_MODULES:
        return MODEL
    raise AssertionError(f"{module}: say in tests/unit/test_layers.py which layer it belongs to")


def module_name(path: Path) -> str:
    rel = path.relative_to(ROOT.parent).with_suffix("")
    parts = list(rel.parts[:-1] if rel.name == "__init__" else rel.parts)
    return ".".join(parts)


def imports(module: str, source: str, is_package: bool) -> set[str]:
    """Modules of this package (and streamlit) imported by ``source``, as dotted names."""
    package = module.split(".") if is_package else module.split(".")[:-1]
    out = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            out |= {a.name for a in node.names if a.name.split(".")[0] in ("banditviz", "streamlit")}
        elif isinstance(node, ast.ImportFrom):
            if node.level == 0:
                if node.module and node.module.split(".")[0] in ("banditviz", "streamlit"):
                    out.add(node.module)
                continue
            base = package[: len(package) - node.level + 1]
            target = ".".join(base + ([node.module] if node.module else []))
            for alias in node.names if node.module is None else [None]:
                sub = f"{target}.{alias.name}" if alias else target
                is_module = (ROOT.parent / Path(*sub.split("."))).with_suffix(".py").exists() or \
                    (ROOT.parent / Path(*sub.split("."))).is_dir()
                out.add(sub if is_module else target)
    return out


def violations(module: str, deps: set[str]) -> list[str]:
    bad = []
    for dep in sorted(deps):
        if dep.split(".")[0] == "streamlit":
            bad.append(f"{module} imports streamlit")
        elif layer(dep) > layer(module):
            bad.append(f"{module} (layer {layer(module)}) imports {dep} (layer {layer(dep)})")
        elif module.startswith("banditviz.algorithms") and dep == "banditviz.environment":
            bad.append(f"{module}: a learner imports the environment (the truth)")
    return bad


def all_modules() -> list[tuple[str, set[str]]]:
    return [(module_name(p), imports(module_name(p), p.read_text(), p.name == "__init__.py"))
            for p in sorted(ROOT.rglob("*.py"))]


@pytest.mark.parametrize(("module", "deps"), all_modules(), ids=lambda v: v if isinstance(v, str) else "")
def test_imports_point_down(module, deps) -> None:
    assert not violations(module, deps)


@pytest.mark.parametrize(("module", "source"), [
    ("banditviz.algorithms.lexicographic_repro", "from ..simulate import make_problem"),  # the old arrow
    ("banditviz.risk", "from .metrics import RECOMMENDATION_METRICS"),  # the old arrow
    ("banditviz.simulate", "from .figures import animate"),
    ("banditviz.algorithms.pfiwr", "from ..environment import Environment"),
    ("banditviz.instances", "import streamlit as st"),
])
def test_an_upward_import_is_caught(module, source) -> None:
    """The checker itself: each of these would be a violation."""
    assert violations(module, imports(module, source, is_package=False))
