"""Per-round stochastic contexts of linear instances (PFIwR Sec. 2), per-objective reward and
per-arm pull columns of sweeps."""

import math

import numpy as np
import pandas as pd
import pytest

import banditviz
from banditviz import Instance
from banditviz.algorithms.pfiwr.core import lambda_t
from banditviz.environment import Environment
from banditviz.simulate import run
from banditviz.sweep import parse_pulls, pull_counts


def _noisy(r: float = 0.3) -> Instance:
    return banditviz.preset("pfi_sensitivity", context_noise=r)


def test_context_noise_is_off_by_default_and_round_trips():
    plain = banditviz.preset("pfi_sensitivity")
    assert plain.context_noise == 0 and "context_noise" not in plain.to_dict()
    noisy = _noisy()
    assert Instance.from_json(noisy.to_json()) == noisy and noisy.to_dict()["context_noise"] == 0.3
    assert noisy != plain and np.array_equal(noisy.means, plain.means)


@pytest.mark.parametrize("bad", [-0.1, 1.5, "x", True, float("nan")])
def test_bad_context_noise_names_the_field(bad):
    with pytest.raises(ValueError, match="context_noise"):
        Instance.from_linear([[1.0, 0.0], [0.0, 1.0]], [[1.0, 0.0], [0.0, 1.0]], context_noise=bad)


def test_context_noise_applies_only_to_linear_instances():
    data = banditviz.preset("default").to_dict()
    data["context_noise"] = 0.2
    with pytest.raises(ValueError, match="context_noise"):
        Instance.from_dict(data)


def test_contexts_have_mean_x_k_stay_in_the_unit_ball_and_drive_the_rewards():
    inst = _noisy()
    env = Environment(inst, seed=3)
    total = np.zeros_like(inst.features)
    n = 4000
    for _ in range(n):
        env.next_round()
        assert np.linalg.norm(env.context, axis=1).max() <= 1 + 1e-12
        assert np.linalg.norm(env.context - inst.features, axis=1).max() <= 0.3 + 1e-12
        in_order = [[sum(x[i] * th[i] for i in range(inst.d)) for th in inst.theta.T] for x in env.context]
        np.testing.assert_array_equal(env.means, in_order)  # X theta summed over d in order (no BLAS)
        total += env.context
    # E[U] = 0 and Var(U_j) = 1 / (d + 2) in the unit ball: the mean is within a few standard errors of x_k
    se = 0.3 / math.sqrt((inst.d + 2) * n)
    assert np.abs(total / n - inst.features).max() < 5 * se


def test_moving_contexts_skip_the_compiled_loop_and_keep_the_regret_on_the_mean_contexts():
    inst = _noisy()
    trace = run(inst, "uniform", 50, 0, snapshots=0)
    assert np.array_equal(trace.rewards, run(inst, "uniform", 50, 0, snapshots=0, compiled=False).rewards)
    fixed = run(banditviz.preset("pfi_sensitivity"), "uniform", 50, 0, snapshots=0)
    assert np.array_equal(trace.arms, fixed.arms) and not np.array_equal(trace.rewards, fixed.rewards)
    np.testing.assert_array_equal(trace.metrics["pareto_regret"], inst.pareto_gaps[trace.arms])


def test_pfiwr_fits_the_observed_contexts_and_averages_them():
    """Independent ridge fit (p lambda_t, no dropped round at p = 0.99) on the contexts the environment drew."""
    inst, n, seed, p = _noisy(), 60, 4, 0.99
    trace = run(inst, "pfiwr", n, seed, snapshots=n, p=p, c_beta=100.0, T0=10**6)  # nothing decided
    assert trace.rounds == n
    env = Environment(inst, seed)
    contexts = []
    for _ in range(n):
        env.next_round()
        contexts.append(env.context.copy())
    X = np.array([c[a] for c, a in zip(contexts, trace.arms, strict=True)])
    lam = lambda_t(n, inst.d, inst.L, 0.1)
    theta = np.linalg.solve(X.T @ X + p * lam * np.eye(inst.d), X.T @ trace.rewards)
    xbar = np.mean(contexts, axis=0)
    np.testing.assert_allclose(trace.snapshots[-1].estimates, xbar @ theta, rtol=1e-9, atol=1e-12)
    fixed = inst.features @ theta  # what a learner that ignored the drawn contexts would report
    assert np.abs(trace.snapshots[-1].estimates - fixed).max() > 1e-6


def test_pulls_and_rewards_columns_equal_direct_computation():
    inst = banditviz.preset("default")
    table = banditviz.sweep(inst, ["pareto_ucb1", "gege_fb"], [1, 2], 90, record_every=40)
    regret = table[table.algorithm == "pareto_ucb1"]
    for seed in (1, 2):
        trace = run(inst, "pareto_ucb1", 90, seed, snapshots=0)
        rows = regret[regret.seed == seed]
        rec = np.array([40, 80, 90])
        expected = np.stack([np.bincount(trace.arms[:r], minlength=inst.K) for r in rec])
        np.testing.assert_array_equal(parse_pulls(rows["pulls"]), expected)
        for i in range(inst.L):
            np.testing.assert_array_equal(rows[f"cum_reward_{i + 1}"], np.cumsum(inst.means[trace.arms, i])[rec - 1])
    ident = table[table.algorithm == "gege_fb"]
    for _, row in ident.iterrows():
        trace = run(inst, "gege_fb", 90, int(row.seed), snapshots=0)
        assert parse_pulls([row.pulls])[0].tolist() == np.bincount(trace.arms, minlength=inst.K).tolist()


def test_pull_counts_by_hand():
    counts = pull_counts(np.array([0, 2, 2, 1, 0]), 3, np.array([1, 3, 5]))
    assert counts.tolist() == [[1, 0, 0], [1, 0, 2], [2, 1, 2]]


def test_pulls_round_trip_through_parquet(tmp_path):
    table = banditviz.sweep("default", "uniform", 2, 30, out=tmp_path / "t.parquet")
    pd.testing.assert_frame_equal(pd.read_parquet(tmp_path / "t.parquet"), table)
    assert parse_pulls(table["pulls"]).sum(axis=1).tolist() == table["round"].tolist()


def test_cli_sweep_stores_its_provenance_in_the_parquet_metadata(tmp_path):
    from banditviz.cli import main
    from banditviz.sweep import read_metadata

    config = tmp_path / "c.toml"
    config.write_text('horizon = 40\nseeds = 3\n[[instances]]\npreset = "default"\n[[algorithms]]\nname = "uniform"\n')
    out = tmp_path / "r.parquet"
    assert main(["sweep", str(config), "--out", str(out), "--seeds", "2", "--quiet", "--backend", "serial"],
                out=open(tmp_path / "log", "w")) == 0
    meta = read_metadata(out)
    assert meta["config"] == config.read_text() and meta["config_name"] == "c.toml"
    assert meta["seeds"] == "[0, 1]" and meta["horizon"] == "40" and meta["version"]
    assert pd.read_parquet(out)["seed"].unique().tolist() == [0, 1]
