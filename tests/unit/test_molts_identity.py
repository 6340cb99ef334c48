"""MOL-TS and its baselines on a fixed-means instance through the identity context (issue 26): the same run, bit
for bit, as on the linear instance with one-hot features and theta = the means, which the learners already run
(a variant that samples with the wrong scale is caught by the same comparison); on the default preset MOL-TS
plays the Pareto-optimal arm off the hull far less than MOL-UCB does and has the lower effective regret."""

from __future__ import annotations

import numpy as np
import pytest

import banditviz
from banditviz.algorithms.molts import learners

ALGS = ("mol_ts", "mol_ts_m1", "mol_ucb", "mol_eps_greedy", "oracle_effective", "oracle_pareto", "random_arm")


def identity_linear(inst: banditviz.Instance) -> banditviz.Instance:
    data = {k: v for k, v in inst.to_dict().items() if k != "means"}
    return banditviz.Instance.from_dict({**data, "kind": "linear", "features": np.eye(inst.K).tolist(),
                                         "theta": inst.means.tolist()})


def same(a, b) -> bool:
    return (np.array_equal(a.arms, b.arms) and np.array_equal(a.rewards, b.rewards)
            and all(np.array_equal(a.metrics[k], b.metrics[k]) for k in a.metrics)
            and all(np.array_equal(x.estimates, y.estimates) and np.array_equal(x.upper, y.upper)
                    for x, y in zip(a.snapshots, b.snapshots, strict=True)))


@pytest.mark.parametrize("alg", ALGS)
def test_a_means_instance_is_the_linear_instance_with_one_hot_features(alg):
    inst = banditviz.preset("default")
    assert "means" in banditviz.get_algorithm(alg).kinds
    means_run = banditviz.run(inst, alg, 400, seed=7, snapshots=6)
    linear_run = banditviz.run(identity_linear(inst), alg, 400, seed=7, snapshots=6, compiled=False)
    assert same(means_run, linear_run)


def test_a_wrong_sampling_scale_is_caught(monkeypatch):
    """The naive variant: sampling with V^{-1}'s diagonal instead of its square root (the variance as the sd)."""
    inst = banditviz.preset("default")
    linear_run = banditviz.run(identity_linear(inst), "mol_ts", 400, seed=7, snapshots=6, compiled=False)

    def wrong(self, c):
        z = self.rng.standard_normal((self.L, self.M, self.d))
        return self.ridge.theta.T[:, None, :] + c * (z * np.diag(self.ridge.V_inv))

    monkeypatch.setattr(learners.MOLTS, "sample_parameters", wrong)  # the linear run was made before
    assert not same(banditviz.run(inst, "mol_ts", 400, seed=7, snapshots=6), linear_run)


def test_mol_ts_aims_at_the_effective_front_of_a_plain_instance():
    """default: arm 2 is Pareto optimal but off the convex hull. Over 5 seeds of 2,000 rounds MOL-TS pulls it in
    a few percent of the rounds, MOL-UCB (the plain Pareto front of its UCB vectors) in about a third."""
    inst = banditviz.preset("default")
    off_hull = sorted(set(inst.pareto_set) - set(inst.effective_set))
    assert off_hull == [2]
    share, regret = {}, {}
    for alg in ("mol_ts", "mol_ucb"):
        runs = [banditviz.run(inst, alg, 2000, seed=s, snapshots=0) for s in range(5)]
        share[alg] = np.mean([np.mean(r.arms == 2) for r in runs])
        regret[alg] = np.mean([r.metrics["effective_regret"].sum() for r in runs])
    assert share["mol_ts"] < 0.1 < 0.25 < share["mol_ucb"], share
    assert regret["mol_ts"] < 0.7 * regret["mol_ucb"], regret


def test_too_many_arms_for_the_identity_context_is_refused_by_name():
    K = learners.MAX_IDENTITY_ARMS + 1
    inst = banditviz.Instance.from_means(np.random.default_rng(0).random((K, 2)).tolist(), sigma=0.5)
    with pytest.raises(ValueError, match="number of arms K"):
        banditviz.run(inst, "mol_ts", 5, seed=0, snapshots=0)
