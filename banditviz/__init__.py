"""banditviz: watch multi-objective (Pareto) bandit algorithms learn, round by round.

The package never imports Streamlit: everything the app shows can be produced from Python. ARCHITECTURE.md (at
the repository's root) draws the layout: model, learners, engine, figures, app, and which way the imports point.

References. Each paper has one name: the key below, in docstrings, and the same word in lower case (``pfiwr``,
``linpsi``, ``molts``, ``lexmoslb``, ``ramgape``; MOL-TS without its hyphen) for its learners' package, its presets'
module, its claims and its results. Docstrings cite the papers by these keys, with the paper's own section (Sec.),
definition (Def.), algorithm (Alg.), equation (eq.), figure (Fig.) or appendix (App.) numbers; "our decision (KEY)"
marks a choice the paper leaves open, made as its authors most plausibly would:

* PFIwR: W. Kim, G. Iyengar and A. Zeevi, "Pareto Front Identification with Regret Minimization".
* LinPSI: C. Kone, E. Kaufmann and L. Richert, "Bandit Pareto Set Identification in a Multi-Output Linear
  Model", AISTATS 2025 (arXiv:2507.04255).
* MOL-TS: S. Park, H. Ann and M. Oh, "Thompson Sampling for Multi-Objective Linear Contextual Bandit",
  NeurIPS 2025.
* LexMOSLB: "Multiobjective Stochastic Linear Bandits under Lexicographic Ordering" (anonymous submission).
* RAMGapE: S. Nonaga, K. Tabata, Y. Mizuno and T. Komatsuzaki, "Risk-Averse Best Arm Set Identification with
  Fixed Budget and Fixed Confidence".
"""

from . import (
           presets,  # noqa: F401  (fills PRESETS)
           sweep,  # the module, callable as its function (banditviz.sweep(...), banditviz.sweep.read_metadata)
)
from .algorithms import ALGORITHMS, Param, Problem, RoundState, get_algorithm, register
from .algorithms.base import ACCEPTED, ACTIVE, CANDIDATE, REJECTED, STATUS_NAMES, Algorithm
from .conformance import check_algorithm
from .instances import PRESETS, Instance, preset
from .plugins import load_plugins
from .recorder import Recorder
from .simulate import AlgorithmError, run
from .trace import Trace

__all__ = ["ACCEPTED", "ACTIVE", "ALGORITHMS", "CANDIDATE", "PRESETS", "REJECTED", "STATUS_NAMES", "Algorithm",
           "AlgorithmError", "Instance", "Param", "Problem", "Recorder", "RoundState", "Trace", "check_algorithm",
           "get_algorithm", "load_plugins", "preset", "register", "run", "sweep"]
