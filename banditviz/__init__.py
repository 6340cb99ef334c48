"""banditviz: watch multi-objective (Pareto) bandit algorithms learn, round by round.

The package never imports Streamlit: everything the app shows can be produced from Python.
"""

from . import presets  # noqa: F401  (fills PRESETS)
from .algorithms import ALGORITHMS, Problem, RoundState, get_algorithm
from .instances import PRESETS, Instance, preset
from .simulate import run
from .sweep import sweep
from .trace import Trace

__all__ = ["ALGORITHMS", "PRESETS", "Instance", "Problem", "RoundState", "Trace", "get_algorithm", "preset", "run",
           "sweep"]
