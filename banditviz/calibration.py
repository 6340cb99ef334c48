"""Empirical calibration: does each identification and risk-averse algorithm, at its defaults, keep its delta on
every preset the app offers it?

`measure` plays ``seeds`` runs of one (algorithm, preset) pair, until the algorithm stops or ``cap`` samples
(a fixed-budget algorithm spends ``budget`` samples), and counts wrong answers:

* identify: the answer is not an eps-accurate Pareto set (success condition (3) of Kim, Iyengar & Zeevi;
  eps is the algorithm's ``eps`` parameter, 0 when it has none, i.e. the exact Pareto set);
* risk-averse: simple regret r >= epsilon (Nonaga et al., error event of Theorems B.7 / B.9).

A run that reaches the cap without stopping has given no answer: it is counted apart (``stopped``), not as an
error (decision ours: delta bounds the probability of a wrong answer). ``holds`` is the one-sided binomial test
of "error rate <= delta" at level ALPHA (None for a fixed-budget algorithm, which states no delta).
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np

from .algorithms.base import ALGORITHMS, AlgorithmSpec
from .algorithms.pfiwr.core import pfi_success
from .experiments.ramgape import fast_run
from .guarantees import warnings_for
from .instances import PRESETS, Instance, preset
from .pareto import mean_variance
from .simulate import run

ALPHA = 0.01
TASKS = ("identify", "risk-averse")


@dataclass(frozen=True)
class Calibration:
    algorithm: str
    preset: str
    runs: int
    errors: int
    stopped: int
    mean_samples: float
    delta: float | None
    warnings: tuple[str, ...]

    @property
    def p_value(self) -> float | None:
        """P(Binomial(runs, delta) >= errors): small means the error rate is above delta."""
        return None if self.delta is None else binomial_upper_tail(self.runs, self.delta, self.errors)

    @property
    def holds(self) -> bool | None:
        return None if self.delta is None else self.p_value >= ALPHA


def binomial_upper_tail(n: int, p: float, k: int) -> float:
    """P(X >= k) for X ~ Binomial(n, p), summed exactly."""
    return float(sum(math.comb(n, j) * p**j * (1 - p) ** (n - j) for j in range(max(k, 0), n + 1)))


def delta_of(spec: AlgorithmSpec) -> float | None:
    """The confidence delta the defaults promise; None for a fixed-budget algorithm."""
    defaults = spec.defaults()
    if "delta" not in defaults or defaults.get("regime", "confidence") != "confidence":
        return None
    return float(defaults["delta"])


def offered_pairs() -> Iterator[tuple[str, str, Instance]]:
    """(algorithm, preset, instance) for every identification or risk-averse algorithm and every preset of a kind
    it runs on (presets that cannot be built here, such as NoC without its data, are skipped)."""
    for pname in PRESETS:
        try:
            inst = preset(pname)
        except ValueError:
            continue
        for name in sorted(ALGORITHMS):
            spec = ALGORITHMS[name]
            if spec.task in TASKS and inst.kind in spec.kinds:
                yield name, pname, inst


def wrong(instance: Instance, spec: AlgorithmSpec, recommendation: tuple[int, ...] | None) -> bool:
    """Whether an answer is wrong in the sense of the algorithm's guarantee (module docstring)."""
    if spec.task == "risk-averse":
        return mean_variance.simple_regret(instance, recommendation)["simple_regret"] >= spec.defaults()["epsilon"]
    return not pfi_success(instance.means, recommendation, spec.defaults().get("eps", 0.0))


def measure(instance: Instance, algorithm: str, seeds: int, cap: int, budget: int, name: str = "",
            **params: Any) -> Calibration:
    """``seeds`` runs of ``algorithm`` (defaults, or ``params``) on ``instance`` (``name``: the preset's)."""
    spec = ALGORITHMS[algorithm]
    fixed_confidence = delta_of(spec) is not None
    horizon = cap if fixed_confidence else budget
    errors = stopped = 0
    samples = []
    for seed in range(seeds):
        if spec.task == "risk-averse":
            fast = fast_run(instance, algorithm, horizon, seed, **params)
            done, rec, used = fast.stopped, fast.recommendation, fast.samples
        else:
            tr = run(instance, algorithm, horizon, seed, snapshots=0, **params)
            done, rec, used = tr.stopped_at is not None, tr.recommendation, tr.rounds
        answered = done or not fixed_confidence
        stopped += done
        errors += bool(answered and wrong(instance, spec, rec))
        samples.append(used)
    return Calibration(algorithm, name, seeds, errors, stopped, float(np.mean(samples)), delta_of(spec),
                       warnings_for(instance, spec, params))
