"""Algorithm families; importing this package fills `ALGORITHMS` (one module per family)."""

from . import classic  # noqa: F401
from . import mol  # noqa: F401
from . import risk_averse  # noqa: F401
from . import lexicographic  # noqa: F401
from . import gege, pfiwr, psi_baselines, psi_baselines_fc  # noqa: F401
from .base import ALGORITHMS, AlgorithmSpec, Param, Problem, RoundState, get_algorithm, register

__all__ = ["ALGORITHMS", "AlgorithmSpec", "Param", "Problem", "RoundState", "get_algorithm", "register"]
