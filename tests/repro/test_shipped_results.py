"""Shipped results are what their configs (or, for runs above the sweep's limits, their scripts) compute today."""

import dataclasses
import json

import pandas as pd
import pytest

from banditviz import claims, reproduce
from banditviz.claims import ramgape
from banditviz.datasets import DatasetUnavailable
from banditviz.reproduce import EXPERIMENTS_DIR
from banditviz.sweep import load_config

# One cell per result to recompute: (instance index, algorithm index, number of seeds), sized to run in seconds.
CELLS = {
    "pfiwr_sensitivity": (0, 2, 1),  # p = 0.9, the run that stops first
    "pfiwr_sensitivity_cbeta": (0, 2, 1),  # p = 0.9 at c_beta = 0.0025
    "pfiwr_estimation": (1, 0, 2),  # estimator (10) at rho = 0.9
    "pfiwr_llvm_like": (0, 5, 2),  # PFIMulti at eps = 1
    "pfiwr_llvm_cbeta": (0, 8, 2),  # PFIwR at eps = 1, c_beta = 0.0025
    "pfiwr_llvm_fast_wrong": (0, 0, 2),  # PFIwR at eps = 1e-4, c_beta = 0.0005
    "pfiwr_rate_eps": (0, 5, 2),  # eps = 0.3
    "pfiwr_rate_eps_wide": (0, 5, 1),  # eps = 1
    "pfiwr_rate_p": (0, 4, 2),  # p = 0.5
    "pfiwr_rate_p_wide": (0, 4, 1),
    "pfiwr_rate_d": (0, 0, 2),  # d = 4
    "pfiwr_rate_d_wide": (0, 0, 1),
    "linpsi_synthetic_fixed_budget": (4, 0, 3),  # GEGE at K = 128
    "linpsi_noc_fixed_budget": (0, 0, 3),
    "linpsi_noc_fixed_confidence": (0, 0, 1),
    "linpsi_synthetic_fixed_confidence": (0, 0, 1),
    "linpsi_rate_budget": (1, 9, 2),  # GEGE at K = 128, T = 11,110
    "linpsi_rate_rounds": (5, 10, 1),  # the uncapped GEGE at Delta_1 = 0.05 / 32
    "molts_main": (3, 0, 1),
    "molts_main_alpha": (0, 9, 1),  # random arm
    "molts_appendix_f": (0, 2, 1),  # MOL-UCB, Fig. 3 instance 0
    "molts_appendix_f_linear": (0, 4, 1),  # PFIwR, Fig. 11 instance 0
    "molts_rate_d": (0, 0, 1),
    "lexmoslb_lambda_0.1": (0, 1, 1),  # MTE2LO
    "lexmoslb_lambda_10": (0, 3, 1),  # OFUL
    "ramgape_exp1": (7, 0, 1),  # RAMGapEc on pattern 8
    "ramgape_exp3": (0, 0, 2),
    "ramgape_exp4": (0, 0, 1),
}


@pytest.fixture(scope="module")
def results():
    return {name: reproduce.load(name) for name in reproduce.shipped()}


def test_results_are_shipped_for_every_paper(results):
    papers = {c.paper for c in claims.CLAIMS if c.results and all(name in results for name in c.results)}
    assert papers == set(claims.PAPERS)


SWEEPS = [name for name in reproduce.shipped() if "generator" not in reproduce.load(name).meta]


@pytest.mark.parametrize("name", SWEEPS)
def test_shipped_result_matches_its_config_and_a_fresh_recomputation(name, results):
    result = results[name]
    config_file = EXPERIMENTS_DIR / result.meta["config_name"]
    if config_file.exists():  # from a source tree: the config computes what it computed then (text may differ)
        current, shipped_config = load_config(config_file), result.full_config
        assert dataclasses.replace(current, description="") == dataclasses.replace(shipped_config, description=""), \
            f"{name}: the config changed since the result was computed"
    assert result.meta["version"] not in ("", "unknown")
    seeds = tuple(json.loads(result.meta["seeds"]))
    assert sorted(result.table["seed"].unique()) == sorted(seeds)
    labels = list(result.table["instance"].unique())
    if "instances" in result.meta:  # scaled down by instances: the first ones of the config, and only those
        shipped_labels = json.loads(result.meta["instances"])
        assert labels == shipped_labels
        assert shipped_labels == list(result.full_config.instances)[:len(shipped_labels)]
        assert len(shipped_labels) < len(result.full_config.instances) and "instances" in result.scale()
    instance_index, algorithm, n_seeds = CELLS.get(name, (0, 0, 1))
    try:
        instance = list(result.config.instances)[instance_index]
    except DatasetUnavailable as exc:
        pytest.skip(f"{name}: {exc}")
    shipped, fresh = reproduce.recompute(result, instance, algorithm, seeds[:n_seeds])
    assert len(shipped) > 0
    pd.testing.assert_frame_equal(shipped, fresh)


def test_a_doctored_result_fails_the_recomputation(results):
    result = results["pfiwr_sensitivity"]
    table = result.table.copy()
    table.loc[table.index[-1], "stopping_time"] += 1
    doctored = dataclasses.replace(result, table=table)
    last = table.iloc[-1]
    algorithm = next(i for i, (_, p) in enumerate(result.config.algorithms) if p["p"] == json.loads(last.params)["p"])
    shipped, fresh = reproduce.recompute(doctored, last.instance, algorithm, (int(last.seed),))
    with pytest.raises(AssertionError):
        pd.testing.assert_frame_equal(shipped, fresh)


def test_a_result_made_by_a_script_is_what_its_script_computes(results):
    """RAMGapE Exp. 2 (runs above the sweep's horizon limit) is written by experiments/ramgape_exp2.py: one of its
    runs recomputed with the script's own function gives the same row."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("ramgape_exp2", EXPERIMENTS_DIR / "ramgape_exp2.py")
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    result = results[ramgape.EXP2]
    assert result.meta["generator"] == "experiments/ramgape_exp2.py"
    row = result.table[(result.table["instance"] == "pattern 46") & (result.table["algorithm"] == "ramgape_c")
                       & (result.table["seed"] == 1)].iloc[0]
    fresh = script.run_cell("pattern 46", {"pattern": 46}, "ramgape_c", {"epsilon": 0.0}, 1,
                            int(result.meta["horizon"]))
    assert {k: row[k] for k in fresh} == fresh


def test_scale_reads_the_config_text_without_building_its_instances(results):
    r = results["pfiwr_estimation"]
    unbuildable = r.meta["config"].replace('generator = "pfi_estimation"', 'preset = "no_such_preset"')
    meta = {**r.meta, "config": unbuildable, "seeds": "[0, 1]", "horizon": "500"}
    expected = "scaled: 2 of 10 runs per point (1/5), horizon 500 of 2,000 (1/4)"
    assert dataclasses.replace(r, meta=meta).scale() == expected


def test_scale_names_the_instances_left_out(results):
    r = results["ramgape_exp3"]
    meta = {**r.meta, "instances": json.dumps(list(r.table["instance"].unique()))}
    assert "instances" not in dataclasses.replace(r, meta=meta).scale()  # every instance: nothing left out
    two = dataclasses.replace(results["pfiwr_estimation"], meta={**results["pfiwr_estimation"].meta,
                                                                  "instances": json.dumps(["rho = 0"])})
    assert two.scale().startswith("scaled: the first 1 of 2 instances (1/2)")
    assert list(two.config.instances) == ["rho = 0"]


def test_mean_and_standard_error_text():
    from banditviz.claims.common import pm

    assert pm([1.0, 2.0, 3.0]) == "2.00 ± 0.58"
    assert pm([48000.0, 50000.0]) == "49,000 ± 1,000"
    assert pm([0.5]) == "0.500 ± 0"
    assert pm([2920.0000000000005, 2920.0, 2920.0]) == "2,920 ± 0"  # float residue, not a spread
    assert pm([2920.0, 2921.0]) == "2,920 ± 0.50"
