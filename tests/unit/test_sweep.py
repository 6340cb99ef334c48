"""Sweeps: the table equals direct runs, compiled loops change nothing, and every backend returns the same table."""

import importlib
import json

import numpy as np
import pandas as pd
import pytest

import banditviz
from banditviz import Instance, run
from banditviz.instances import random_contextual, uniform_box
from banditviz.pareto import mean_variance
from banditviz.sweep import load_config, normalise_seeds, plan, recorded_rounds, spread, summary, write_parquet


# ---------------------------------------------------------------------- the table
def test_recorded_rounds():
    assert recorded_rounds(10, 3).tolist() == [3, 6, 9, 10]
    assert recorded_rounds(9, 3).tolist() == [3, 6, 9]
    assert recorded_rounds(2, 5).tolist() == [2]


def test_regret_table_matches_direct_runs_and_compiled_loops_change_nothing():
    inst = {"box": uniform_box(6, 2, seed=1), "default": "default"}
    algs = ["pareto_ucb1", ("mo_epsilon_greedy", {"epsilon": 0.2})]
    table = banditviz.sweep(inst, algs, [3, 8], 130, record_every=40)
    assert list(table.columns) == ["instance", "algorithm", "params", "seed", "round", "cum_pareto_regret",
                                   "cum_effective_regret", "cum_reward_1", "cum_reward_2", "pulls"]
    assert len(table) == 2 * 2 * 2 * 4  # instances x algorithms x seeds x rounds {40, 80, 120, 130}
    row = table[(table.instance == "default") & (table.algorithm == "mo_epsilon_greedy") & (table.seed == 8)]
    assert row["params"].iloc[0] == json.dumps({"epsilon": 0.2})
    trace = run(banditviz.preset("default"), "mo_epsilon_greedy", 130, 8, epsilon=0.2)
    assert np.array_equal(row["round"], [40, 80, 120, 130])
    assert np.array_equal(row["cum_pareto_regret"], np.cumsum(trace.metrics["pareto_regret"])[[39, 79, 119, 129]])
    assert [len(job.seeds) for job in plan(inst, algs, [3, 8], 130)] == [2] * 4  # compiled runs: one job per algorithm
    pd.testing.assert_frame_equal(table, banditviz.sweep(inst, algs, [3, 8], 130, record_every=40, batch=False))


def test_contextual_instances_run_unbatched_with_per_round_regrets():
    inst = random_contextual(4, d=2, L=2, seed=0)
    name = next(n for n, s in banditviz.ALGORITHMS.items() if s.task == "regret" and "contextual" in s.kinds)
    table = banditviz.sweep(inst, name, 2, 60, record_every=30)
    trace = run(inst, name, 60, 1, snapshots=0)
    last = table[(table.seed == 1) & (table["round"] == 60)]
    assert last["cum_pareto_regret"].iloc[0] == np.sum(trace.metrics["pareto_regret"])


def test_identification_rows_one_per_run():
    inst = Instance.from_distributions([{"family": "beta", "a": 2.0, "b": 2.0}, {"family": "uniform", "low": 0.0,
                                        "high": 0.6}, {"family": "bernoulli", "p": 0.3}], name="three")
    table = banditviz.sweep(inst, "ramgape_b", 3, 200)
    assert len(table) == 3 and "round" not in table
    for _, row in table.iterrows():
        trace = run(inst, "ramgape_b", 200, int(row.seed), snapshots=0)
        assert row.stopping_time == trace.rounds and row.stopped == (trace.stopped_at is not None)
        assert row.recommended == ",".join(map(str, sorted(trace.recommendation)))
        assert row.correct == (set(trace.recommendation) == set(mean_variance.pareto_set(inst)))
        assert row.cum_pareto_regret == pytest.approx(np.sum(trace.metrics["pareto_regret"]))


def test_identification_curves_hold_the_recommendation_metric_at_each_recorded_round():
    inst = banditviz.preset("risk_averse_table1")
    curves = banditviz.sweep(inst, "ramgape_b", [2], 300, record_every=100, curves=True)
    per_run = banditviz.sweep(inst, "ramgape_b", [2], 300)
    trace = run(inst, "ramgape_b", 300, 2, snapshots=0)
    assert curves["round"].tolist() == [100, 200, 300]
    assert np.array_equal(curves["simple_regret"], trace.metrics["simple_regret"][[99, 199, 299]])
    assert np.array_equal(curves["cum_pareto_regret"], np.cumsum(trace.metrics["pareto_regret"])[[99, 199, 299]])
    last = curves.iloc[[-1]].drop(columns="round").reset_index(drop=True)
    pd.testing.assert_frame_equal(last, per_run)
    pd.testing.assert_frame_equal(summary(curves), summary(per_run))


def test_mixed_table_summary_by_hand():
    table = pd.DataFrame({
        "instance": ["a"] * 4 + ["a"] * 2, "algorithm": ["x"] * 4 + ["y"] * 2, "params": ["{}"] * 6,
        "seed": [0, 0, 1, 1, 0, 1], "round": [5, 10, 5, 10, np.nan, np.nan],
        "cum_pareto_regret": [1.0, 2.0, 1.0, 4.0, 5.0, 7.0],
        "stopping_time": [np.nan] * 4 + [30, 50], "stopped": [np.nan] * 4 + [True, False],
        "correct": [np.nan] * 4 + [True, False],
    })
    out = summary(table).set_index("algorithm")
    assert out.loc["x", "runs"] == 2 and out.loc["x", "cum_pareto_regret_mean"] == 3.0
    assert out.loc["x", "cum_pareto_regret_sd"] == pytest.approx(np.sqrt(2.0))
    assert out.loc["y", "stopping_time_mean"] == 40 and out.loc["y", "success_rate"] == 0.5


def test_progress_counts_runs_and_parquet_round_trips(tmp_path):
    calls = []
    path = tmp_path / "r.parquet"
    table = banditviz.sweep("default", ["uniform", "pareto_ts"], 3, 50, progress=lambda d, n: calls.append((d, n)),
                            out=path)
    assert calls[0] == (0, 6) and calls[-1] == (6, 6) and [d for d, _ in calls] == sorted(d for d, _ in calls)
    pd.testing.assert_frame_equal(pd.read_parquet(path), table)
    assert [p.name for p in tmp_path.iterdir()] == ["r.parquet"]  # no temporary file left behind


def test_jobs_run_round_robin_over_groups_and_the_table_keeps_its_order():
    """Every stretch of the sweep holds each (instance, algorithm) group's share: the time estimate holds when the
    groups cost differently; the table is in the jobs' order whatever order they ran in."""
    insts = {"small": random_contextual(3, d=2, seed=0), "large": random_contextual(9, d=2, seed=1)}
    jobs = plan(insts, ["random_arm", "oracle_pareto"], 3, 20)  # runs without a fast loop: one seed a job
    order = spread(jobs)
    assert sorted(order) == list(range(12))
    groups = [(jobs[i].label, jobs[i].spec.name) for i in order]
    assert len(set(groups[:4])) == 4 and groups[:4] == groups[4:8] == groups[8:]
    table = banditviz.sweep(insts, ["random_arm", "oracle_pareto"], 3, 20, record_every=10)
    assert table[["instance", "algorithm", "seed"]].drop_duplicates().values.tolist() == [
        [label, alg, seed] for label in insts for alg in ("random_arm", "oracle_pareto") for seed in range(3)]


def test_a_mixed_table_keeps_its_types_through_parquet(tmp_path):
    path = tmp_path / "mixed.parquet"
    table = banditviz.sweep(banditviz.preset("psi_synthetic", K=8), ["uniform", "gege_fb"], 2, 100, out=path)
    assert table["round"].dtype == "Int64" and table["stopping_time"].dtype == "Int64"
    assert table["correct"].dtype == "boolean"
    assert table["correct"].isna().tolist() == (table["algorithm"] == "uniform").tolist()
    pd.testing.assert_frame_equal(pd.read_parquet(path), table)


def test_failed_parquet_write_leaves_nothing(tmp_path):
    with pytest.raises(Exception):  # noqa: B017 (pyarrow's own error type)
        write_parquet(pd.DataFrame({"x": [object()]}), tmp_path / "bad.parquet")
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("kwargs,match", [
    ({"backend": "fibers"}, "backend"),
    ({"scheduler": "tcp://x:1"}, "scheduler"),
    ({"workers": 0}, "workers"),
    ({"record_every": 0}, "record_every"),
])
def test_bad_options_name_the_field(kwargs, match):
    with pytest.raises(ValueError, match=match):
        banditviz.sweep("default", "uniform", 2, 10, **kwargs)


@pytest.mark.parametrize("args,match", [
    (([], "uniform", 2, 10), "instances"),
    (("default", [], 2, 10), "algorithms"),
    (("default", "nope", 2, 10), "unknown name"),
    (("default", ("uniform", {"x": 1}), 2, 10), "unknown parameter"),
    (("default", ["uniform", "uniform"], 2, 10), "twice"),
    (("default", "uniform", [1, 1], 10), "distinct"),
    (("default", "uniform", 0, 10), "seeds"),
    (("default", "uniform", 2, 0), "horizon"),
    ((random_contextual(4, seed=0), "pareto_ucb1", 2, 10), "kinds"),
    (([uniform_box(3, seed=0), uniform_box(3, seed=0)], "uniform", 2, 10), "unique"),
])
def test_bad_arguments_name_the_field(args, match):
    with pytest.raises(ValueError, match=match):
        banditviz.sweep(*args)


def test_seed_forms():
    assert normalise_seeds(3) == (0, 1, 2)
    assert normalise_seeds(np.array([4, 2])) == (4, 2)
    with pytest.raises(ValueError, match="seeds"):
        normalise_seeds("12")


# ---------------------------------------------------------------------- backends
SMALL = ({"box": uniform_box(5, 2, seed=2)}, ["pareto_ucb1", "pareto_ts", "uniform"], [0, 1, 2, 7], 120)


@pytest.fixture(scope="module")
def serial_table():
    inst, algs, seeds, horizon = SMALL
    table = banditviz.sweep(inst, algs, seeds, horizon, record_every=30)
    unbatched = banditviz.sweep(inst, algs, seeds, horizon, record_every=30, batch=False)
    pd.testing.assert_frame_equal(table, unbatched)
    return table


@pytest.mark.timeout(120)
@pytest.mark.parametrize("backend", ["processes", "threads"])
def test_local_backends_give_the_serial_table(serial_table, backend):
    inst, algs, seeds, horizon = SMALL
    for batch in (True, False):
        table = banditviz.sweep(inst, algs, seeds, horizon, record_every=30, backend=backend, workers=2, batch=batch)
        pd.testing.assert_frame_equal(table, serial_table)


def test_threads_run_compiled_and_python_runs_side_by_side():
    linear = banditviz.preset("mol_ts_fig11")  # the compiled linear loop, 4 jobs on 2 threads
    entries = ["mol_ucb", ("mol_eps_greedy", {"exploit_set": "effective"})]  # the second plays in Python
    pd.testing.assert_frame_equal(banditviz.sweep(linear, entries, 8, 300, backend="threads", workers=2),
                                  banditviz.sweep(linear, entries, 8, 300))


def test_an_interrupted_thread_sweep_starts_no_further_job(monkeypatch):
    sweep_module = importlib.import_module("banditviz.sweep.backends")  # where the backends call run_job
    started = []

    def counted(job, tick=None):
        started.append(job.seeds)
        return run_job(job, tick)

    run_job = sweep_module.run_job
    monkeypatch.setattr(sweep_module, "run_job", counted)

    def progress(done: int, total: int) -> None:
        if done:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):  # 8 jobs of one Python-loop run each, about 0.1 s a run
        banditviz.sweep("default", "pareto_ucb1", 8, 3_000, backend="threads", workers=2, batch=False,
                        progress=progress)
    assert 1 <= len(started) <= 4, started  # the first result stops it: at most the jobs already on a thread


@pytest.mark.timeout(180)
def test_dask_backend_on_a_local_cluster_gives_the_serial_table(serial_table):
    distributed = pytest.importorskip("distributed")
    inst, algs, seeds, horizon = SMALL
    with distributed.LocalCluster(n_workers=2, processes=True, threads_per_worker=1,
                                  dashboard_address=None) as cluster:
        table = banditviz.sweep(inst, algs, seeds, horizon, record_every=30, backend="dask",
                                scheduler=cluster.scheduler_address, batch=False)
        with distributed.Client(cluster) as client:
            batched = banditviz.sweep(inst, algs, seeds, horizon, record_every=30, backend="dask", scheduler=client)
    pd.testing.assert_frame_equal(table, serial_table)
    pd.testing.assert_frame_equal(batched, serial_table)


# ---------------------------------------------------------------------- configs
def test_config_from_toml(tmp_path):
    (tmp_path / "inst.json").write_text(uniform_box(4, 2, seed=9).to_json())
    cfg = tmp_path / "c.toml"
    cfg.write_text("""
horizon = 50
seeds = [4, 5]
record_every = 25
[[instances]]
preset = "default"
[[instances]]
generator = "uniform_box"
args = { K = 5, L = 3, seed = 1 }
[[instances]]
label = "mine"
file = "inst.json"
[[algorithms]]
name = "mo_epsilon_greedy"
params = { epsilon = 0.5 }
""")
    config = load_config(cfg)
    assert list(config.instances) == ["default", "uniform box K=5 L=3 seed=1", "mine"]
    assert config.instances["mine"] == uniform_box(4, 2, seed=9) and config.runs == 6
    table = config.run()
    expected = banditviz.sweep(config.instances, ("mo_epsilon_greedy", {"epsilon": 0.5}), [4, 5], 50, record_every=25)
    pd.testing.assert_frame_equal(table, expected)


@pytest.mark.parametrize("text,match", [
    ("horizon = 5\nseeds = 2\ninstances = []\n", "missing key 'algorithms'"),
    ("horizon = 5\nseeds = 2\ncolour = 1\ninstances = []\nalgorithms = []\n", "unknown key"),
    ("horizon = 5\nseeds = 2\n[[instances]]\npreset = 'nope'\n[[algorithms]]\nname = 'uniform'\n", r"instances\[0\]"),
    ("horizon = 5\nseeds = 2\n[[instances]]\npreset = 'default'\nfile = 'x.json'\n[[algorithms]]\nname = 'uniform'\n",
     "exactly one"),
    ("horizon = 5\nseeds = 2\n[[instances]]\ngenerator = 'uniform_box'\nargs = {Q = 1}\n[[algorithms]]\n"
     "name = 'uniform'\n", r"instances\[0\]\.args"),
    ("horizon = 5\nseeds = 2\n[[instances]]\nfile = 'missing.json'\n[[algorithms]]\nname = 'uniform'\n", "cannot read"),
    ("horizon = 5\nseeds = 2\n[[instances]]\npreset = 'default'\n[[algorithms]]\nparams = {}\n", "missing key 'name'"),
    ("horizon = 0\nseeds = 2\n[[instances]]\npreset = 'default'\n[[algorithms]]\nname = 'uniform'\n", "horizon"),
    ("horizon = [\n", "not valid TOML"),
])
def test_config_errors_name_the_key(tmp_path, text, match):
    cfg = tmp_path / "c.toml"
    cfg.write_text(text)
    with pytest.raises(ValueError, match=match):
        load_config(cfg)
