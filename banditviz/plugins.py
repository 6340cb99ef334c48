"""Outside algorithms: the modules that register them, imported by the app and the CLI.

A plugin is an importable module that registers algorithms (`banditviz.algorithms.register`) when imported. The app
and the CLI import, in this order, the modules of the entry-point group ``banditviz.algorithms`` (a package declares
``[project.entry-points."banditviz.algorithms"] mine = "my_package.algorithms"``), those named in the environment
variable ``BANDITVIZ_PLUGINS`` (comma-separated module names) and those given on the command line (``--plugin``).
A sweep's worker processes (and Dask workers) import a plugin by themselves: a job names its algorithm's class by
module, which unpickling imports (decision: no loading step in the workers; the module must be importable there).
"""

from __future__ import annotations

import importlib
import importlib.metadata
import os
from collections.abc import Iterable

ENTRY_POINT_GROUP = "banditviz.algorithms"
ENV_VAR = "BANDITVIZ_PLUGINS"


def plugin_modules(modules: Iterable[str] = ()) -> list[tuple[str, str]]:
    """``(where it was named, what to import)``: the entry points, then ``BANDITVIZ_PLUGINS``, then ``modules``."""
    named = [(f"entry point {ep.name!r}", ep.value) for ep in importlib.metadata.entry_points(group=ENTRY_POINT_GROUP)]
    named += [(ENV_VAR, m.strip()) for m in os.environ.get(ENV_VAR, "").split(",") if m.strip()]
    return named + [("--plugin", m) for m in modules]


def load_plugins(modules: Iterable[str] = ()) -> list[str]:
    """Import every plugin (`plugin_modules`); returns one sentence per plugin that failed to import (the others
    are loaded all the same). Importing a module twice does nothing the second time."""
    failures = []
    for where, target in plugin_modules(modules):
        module, _, attr = target.partition(":")
        try:
            loaded = importlib.import_module(module)
            if attr:
                getattr(loaded, attr)
        except Exception as exc:  # a plugin's fault must not stop the app or the CLI: reported instead
            failures.append(f"plugin {target!r} (from {where}) could not be loaded: {type(exc).__name__}: {exc}")
    return failures
