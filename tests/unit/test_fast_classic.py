"""The compiled loop of the classic baselines gives `simulate.run`'s Trace bit for bit (arms, rewards,
metrics, snapshots with their events and extras), on every noise, prior and instance kind it serves."""

import numpy as np
import pytest

from banditviz import Instance, preset, run
from banditviz.environment import Environment
from banditviz.fast_classic import CODES, supports
from banditviz.instances import random_linear, uniform_box

CLASSIC = [("uniform", {}), ("pareto_ucb1", {}), ("pareto_ts", {}), ("pareto_ts", {"prior": "gaussian"}),
           ("pareto_ts", {"prior": "bernoulli"}), ("mo_epsilon_greedy", {"epsilon": 0.3})]
INSTANCES = {
    "gaussian": uniform_box(6, 2, seed=1, sigma=0.5),
    "bernoulli": Instance.from_means(np.random.default_rng(2).uniform(0.1, 0.9, (5, 3)), noise="bernoulli"),
    "beta": Instance.from_means([[0.2, 0.7], [0.5, 0.4], [0.6, 0.1], [0.3, 0.3]], noise="beta"),
    "linear": random_linear(7, d=3, L=2, seed=4),
    "one objective, 0/1 ties": Instance.from_means([[0.5], [0.5], [0.2]], noise="bernoulli"),
}


def assert_same_trace(fast, slow):
    assert np.array_equal(fast.arms, slow.arms)
    assert np.array_equal(fast.rewards, slow.rewards)
    assert fast.metrics.keys() == slow.metrics.keys()
    for key in fast.metrics:
        assert np.array_equal(fast.metrics[key], slow.metrics[key])
    assert (fast.recommendation, fast.stopped_at, fast.params) == (slow.recommendation, slow.stopped_at, slow.params)
    assert [s.t for s in fast.snapshots] == [s.t for s in slow.snapshots]
    for a, b in zip(fast.snapshots, slow.snapshots, strict=True):
        assert (a.front, a.pulled, a.events) == (b.front, b.pulled, b.events)
        for key in ("estimates", "lower", "upper", "status", "counts"):
            assert np.array_equal(getattr(a, key), getattr(b, key), equal_nan=True), key
        assert a.extras.keys() == b.extras.keys()
        for key in a.extras:
            assert np.array_equal(a.extras[key], b.extras[key], equal_nan=True), key


@pytest.mark.parametrize("kind", list(INSTANCES))
@pytest.mark.parametrize("name,params", CLASSIC)
def test_compiled_run_equals_the_python_engine_bit_for_bit(kind, name, params):
    """Long enough for several reward refills per arm (blocks of 256) and every snapshot kind (early, late)."""
    inst = INSTANCES[kind]
    for seed, snapshots in ((3, 0), (11, 25)):
        fast = run(inst, name, 1300, seed, snapshots=snapshots, **params)
        slow = run(inst, name, 1300, seed, snapshots=snapshots, compiled=False, **params)
        assert_same_trace(fast, slow)


def test_the_comparison_sees_one_draw_out_of_place(monkeypatch):
    """The broken variant: the compiled loop with one extra policy draw (or one reward skipped) differs."""
    inst, name = INSTANCES["gaussian"], "pareto_ucb1"
    slow = run(inst, name, 400, 5, snapshots=0, compiled=False)
    from banditviz import environment, fast_classic

    real = environment.Environment.__init__

    def shifted(self, instance, seed):
        real(self, instance, seed)
        self.policy_rng.random()

    monkeypatch.setattr(environment.Environment, "__init__", shifted)
    assert not np.array_equal(run(inst, name, 400, 5, snapshots=0).arms, slow.arms)
    monkeypatch.setattr(environment.Environment, "__init__", real)
    real_take = fast_classic._Rewards.refill

    def skip_first(self, arm):
        real_take(self, arm)
        self.pos[arm] = 1 if self.avail[arm] == environment.BLOCK else 0

    monkeypatch.setattr(fast_classic._Rewards, "refill", skip_first)
    assert not np.array_equal(run(inst, name, 400, 5, snapshots=0).rewards, slow.rewards)


@pytest.mark.parametrize("inst", [*INSTANCES.values(), preset("risk_averse_easy"), Instance.from_distributions(
    [{"family": "bernoulli", "p": 0.3}, {"family": "uniform", "low": 0.2, "high": 0.9}])], ids=str)
def test_several_blocks_at_once_equal_block_after_block(inst):
    """The refills draw n blocks in one call: the same numbers as n calls (the engine's order)."""
    one, many = Environment(inst, 7), Environment(inst, 7)
    for arm in range(inst.K):
        assert np.array_equal(np.concatenate([one._block(arm) for _ in range(3)]), many._block(arm, 3))


def test_which_runs_are_compiled():
    assert set(CODES) == {"uniform", "pareto_ucb1", "pareto_ts", "mo_epsilon_greedy"}
    assert supports("pareto_ucb1", "means") and supports("uniform", "linear")
    assert not supports("pareto_ucb1", "contextual") and not supports("mol_ts", "linear")
