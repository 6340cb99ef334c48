"""Where a run's guarantee does not hold: one plain sentence per reason, "no guarantee here: <why>".

`warnings_for` is pure (instance, algorithm, parameters in; sentences out): it asks the algorithm's own check,
declared with it (``register(..., guarantee=...)``, beside the learner). `banditviz.simulate.run` records them in
``trace.info["warnings"]``; the app shows them on Watch, Compare and Papers, the CLI on stderr. Each check states
the paper's condition that the instance or the parameters break; the calibration table in README.md
(``benchmarks/calibration.py``) is where the measured consequences are. `lambda_note` is MTE2LO's caption line.
"""

from __future__ import annotations

from typing import Any

from .algorithms.base import AlgorithmSpec, get_algorithm
from .instances import Instance
from .pareto import lambda_min
from .presets.lexmoslb import suggested_lambda

PREFIX = "no guarantee here: "


def warnings_for(instance: Instance, algorithm: str | AlgorithmSpec, params: dict[str, Any] | None = None
                 ) -> tuple[str, ...]:
    """Every reason why ``algorithm`` with ``params`` (defaults filled in) has no guarantee on ``instance``."""
    spec = algorithm if isinstance(algorithm, AlgorithmSpec) else get_algorithm(algorithm)
    if spec.guarantee is None:
        return ()
    return tuple(PREFIX + why for why in spec.guarantee(instance, spec.validate(dict(params or {}))))


def lambda_note(instance: Instance) -> str | None:
    """The caption line of a fixed-means instance under a lexicographic algorithm (LexMOSLB, claim (5)): lambda_min and
    the lambda MTE2LO takes when none is set; None for a contextual instance."""
    if instance.means is None:
        return None
    smallest = lambda_min(instance.means)[0]
    return (f"λ_min = {smallest:.4g}: the smallest trade-off λ satisfying claim (5) on this instance (MTE²LO "
            f"keeps the optimal arm only with λ ≥ λ_min); MTE²LO's default here is λ = "
            f"{suggested_lambda(instance.means):.4g}.")
