"""Instances of the MOL-TS paper (MOL-TS Sec. 6 and Fig. 1) and two small contextual demos that draw well.

* ``mol_ts_main``: the main experiment (Fig. 2): K = 50, d = 5, L = 4, T = 10^4 (the instance does not
  carry T; our CI-sized ``paper_main_small`` is this instance at T = 2,000).
* ``mol_ts_fig3`` ... ``mol_ts_fig12``: the Appendix F settings (MOL-TS App. F); Fig. 11 is the linear
  (non-contextual) one, whose K contexts are drawn once.
* ``mol_ts_2d`` (K = 10, d = 3, L = 2) and ``mol_ts_3d`` (K = 15, d = 4, L = 3): small contextual instances.
* ``mol_ts_figure1``: the toy example of Figure 1 (MOL-TS Fig. 1), one fixed-means instance per round.

Generation (our decision, the paper is silent): theta^(l) ~ N(0, I_d) normalised to norm 1, contexts uniform in
the unit ball (re-drawn every round), noise N(0, 1). ``seed`` is the instance id (the paper uses 10
instances, ids 0-9); the run's seed then fixes the context and noise streams.
"""

from __future__ import annotations

import numpy as np

from .. import limits
from ..instances import PRESETS, Instance, random_contextual, random_linear, register_preset

PAPER = "Park, Ann & Oh, Thompson Sampling for Multi-Objective Linear Contextual Bandit (NeurIPS 2025)"
HORIZON = 10_000  # the paper's T (MOL-TS Sec. 6)

# figure: (K, d, L, contextual) -- MOL-TS App. F
SETTINGS = {
    2: (50, 5, 4, True), 3: (50, 10, 4, True), 4: (100, 5, 4, True), 5: (100, 10, 4, True),
    6: (100, 15, 4, True), 7: (200, 10, 4, True), 8: (200, 15, 4, True), 9: (50, 5, 8, True),
    10: (100, 10, 8, True), 11: (100, 10, 4, False), 12: (200, 15, 8, True),
}

# Figure 1 fixture (MOL-TS Fig. 1): rows are arms a(1)..a(4), one block per round.  OUR synthetic data, consistent
# with everything the paper's text says about the figure (the vectors are only in the image).
FIGURE1_ROUNDS = (
    ((0.2, 1.0), (0.4, 0.4), (1.0, 0.2), (0.1, 0.1)),
    ((0.8, 0.1), (0.1, 0.8), (0.2, 0.2), (0.5, 0.5)),
    ((0.2, 0.9), (0.9, 0.2), (0.4, 0.4), (0.1, 0.1)),
)
# arms played (0-based) by the two agents of Figure 1: agent 1 plays a(2), a(4), a(3); agent 2 a(1), a(4), a(2)
FIGURE1_AGENTS = {"agent 1": (1, 3, 2), "agent 2": (0, 3, 1)}


def _setting(name: str, figure: int, seed: int) -> Instance:
    K, d, L, contextual = SETTINGS[figure]
    seed = limits.check_int("seed", seed, 0, limits.MAX_SEED)
    if contextual:
        inst = random_contextual(K, d, L, seed=seed, sigma=1.0)
    else:
        inst = random_linear(K, d, L, seed=seed, sigma=1.0)
    return inst.with_changes(name=f"MOL-TS Fig. {figure} (instance {seed})", description=PRESETS[name].description)


def _describe(figure: int) -> str:
    K, d, L, contextual = SETTINGS[figure]
    kind = ("contextual: fresh contexts every round" if contextual
            else "linear (non-contextual): K contexts drawn once and reused; PFIwR runs only here (our decision)")
    return (f"MOL-TS paper, Fig. {figure}: K = {K} arms, d = {d} features, L = {L} objectives, {kind}; "
            f"unit-norm theta, contexts uniform in the unit ball, Gaussian noise sigma = 1; the paper runs "
            f"T = {HORIZON:,} rounds on 10 instances (seed = instance id 0-9).")


def _register_figure(name: str, figure: int) -> None:
    L = SETTINGS[figure][2]

    @register_preset(name, paper=PAPER, description=_describe(figure), dims=L if L <= 3 else None)
    def build(seed: int = 0) -> Instance:
        return _setting(name, figure, seed)


_register_figure("mol_ts_main", 2)
for _fig in range(3, 13):
    _register_figure(f"mol_ts_fig{_fig}", _fig)


@register_preset("mol_ts_2d", paper=PAPER, dims=2,
                 description="Small contextual instance in 2D: K = 10, d = 3, L = 2, fresh contexts every round; "
                             "instance 3 (the default) has strongly conflicting objectives, so each round shows "
                             "several Pareto arms of which only some are on the effective front.")
def mol_2d(seed: int = 3) -> Instance:
    inst = random_contextual(10, 3, 2, seed=limits.check_int("seed", seed, 0, limits.MAX_SEED))
    return inst.with_changes(name=f"MOL-TS 2D (instance {seed})", description=PRESETS["mol_ts_2d"].description)


@register_preset("mol_ts_3d", paper=PAPER, dims=3,
                 description="Small contextual instance in 3D: K = 15, d = 4, L = 3, fresh contexts every round; "
                             "about 7 Pareto arms and 5 effective-front arms per round for instance 4 (the default).")
def mol_3d(seed: int = 4) -> Instance:
    inst = random_contextual(15, 4, 3, seed=limits.check_int("seed", seed, 0, limits.MAX_SEED))
    return inst.with_changes(name=f"MOL-TS 3D (instance {seed})", description=PRESETS["mol_ts_3d"].description)


@register_preset("mol_ts_figure1", paper=PAPER, dims=2,
                 description="Figure 1's toy example (our synthetic vectors, MOL-TS Fig. 1), one round at a time: four "
                             "arms; in rounds 1 and 3 a Pareto-optimal arm is beaten by a mixture of two others. "
                             "Agent 1 plays a(2), a(4), a(3) (total 1.3, 1.3), agent 2 a(1), a(4), a(2) "
                             "(total 1.6, 1.7): both have Pareto regret 0, only agent 2 has effective regret 0.")
def mol_figure1(round: int = 1) -> Instance:  # noqa: A002 (the paper's word)
    r = limits.check_int("round", round, 1, len(FIGURE1_ROUNDS))
    return Instance.from_means(np.array(FIGURE1_ROUNDS[r - 1]), noise="gaussian", sigma=0.1,
                               arm_names=[f"a({i})" for i in range(1, 5)],
                               name=f"MOL-TS Figure 1, round {r}", description=PRESETS["mol_ts_figure1"].description)
