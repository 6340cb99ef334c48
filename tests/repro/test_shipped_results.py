"""Shipped results are what their configs compute today, and verdicts are computed from them (never typed in)."""

import dataclasses
import json

import pandas as pd
import pytest

from banditviz import reproduce, verdicts
from banditviz.datasets import DatasetUnavailable
from banditviz.reproduce import EXPERIMENTS_DIR
from banditviz.sweep import load_config

# One cell per result to recompute: (instance index, algorithm index, number of seeds), sized to run in seconds.
CELLS = {
    "pfiwr_sensitivity": (0, 2, 1),  # p = 0.9, the run that stops first
    "pfiwr_estimation": (1, 0, 2),  # estimator (10) at rho = 0.9
    "psi_synthetic_fixed_budget": (4, 0, 3),  # GEGE at K = 128
    "psi_noc_fixed_budget": (0, 0, 3),
    "psi_noc_fixed_confidence": (0, 0, 1),
    "psi_synthetic_fixed_confidence": (0, 0, 1),
    "mol_ts_main": (3, 0, 1),
    "lexicographic_lambda_0.1": (0, 1, 1),  # MTE2LO
    "lexicographic_lambda_10": (0, 3, 1),  # OFUL
    "risk_averse_exp1": (7, 0, 1),  # RAMGapEc on pattern 8
    "pfiwr_llvm_like": (0, 5, 2),  # PFIMulti at eps = 1
    "risk_averse_exp3": (0, 0, 2),
    "risk_averse_exp4": (0, 0, 1),
}


@pytest.fixture(scope="module")
def results():
    return {name: reproduce.load(name) for name in reproduce.shipped()}


def test_results_are_shipped_for_every_paper(results):
    papers = {c.paper for c in verdicts.CLAIMS if c.result in results}
    assert papers == {"000", "001", "002", "003", "004"}


@pytest.mark.parametrize("name", reproduce.shipped())
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


def test_every_claim_gets_a_verdict_of_the_allowed_kinds(results):
    for paper in ("000", "001", "002", "003", "004"):
        table = verdicts.verdict_table(paper, results)
        assert list(table.columns) == list(verdicts.COLUMNS)
        assert set(table["Verdict"]) <= set(verdicts.VERDICTS)
        checked = table[table["Verdict"].isin(["reproduced", "not reproduced"])]
        assert checked["Ours"].str.len().gt(0).all() and checked["Runs"].notna().all()
        failed = table[table["Verdict"] == "not reproduced"]
        assert failed["Note"].str.len().gt(0).all(), "a claim that did not reproduce must say why"


def _swap(table: pd.DataFrame, column: str, a: str, b: str) -> pd.DataFrame:
    swapped = table.copy()
    swapped.loc[table[column] == a, column] = b
    swapped.loc[table[column] == b, column] = a
    return swapped


def _verdict(claim_prefix: str, paper: str, results) -> str:
    table = verdicts.verdict_table(paper, results)
    return table.loc[table["Claim"].str.startswith(claim_prefix), "Verdict"].iloc[0]


def _swap_flips(results, name: str, paper: str, claim: str, column: str, a: str, b: str) -> None:
    """Swapping two labels of ``column`` in the result ``name`` turns the claim's verdict around."""
    r = results[name]
    swapped = dataclasses.replace(r, table=_swap(r.table, column, a, b))
    after = _verdict(claim, paper, {**results, name: swapped})
    assert {_verdict(claim, paper, results), after} == {"reproduced", "not reproduced"}


def test_verdicts_follow_the_numbers_not_the_labels(results):
    """A broken variant of each checked family (labels swapped, answers spoiled) must change the verdict."""
    if "pfiwr_sensitivity" in results:
        r = results["pfiwr_sensitivity"]
        claim = "Fig. 2: a smaller p stops later"
        assert _verdict(claim, "000", results) == "reproduced"
        slow, fast = (r.table["params"][r.table["params"].str.contains(f'"p": {p},')].iloc[0] for p in (0.1, 0.9))
        broken = {**results, r.name: dataclasses.replace(r, table=_swap(r.table, "params", slow, fast))}
        assert _verdict(claim, "000", broken) == "not reproduced"
    if "pfiwr_estimation" in results:
        _swap_flips(results, "pfiwr_estimation", "000", "Fig. 1: the proposed estimator gains more",
                    "instance", "rho = 0", "rho = 0.9")
        r = results["pfiwr_estimation"]
        claim = "Fig. 1: both estimators' errors fall"
        last = r.table["round"] == r.config.horizon
        grown = r.table.assign(estimation_error=r.table["estimation_error"].where(~last, 10.0))
        assert _verdict(claim, "000", results) == "reproduced"
        assert _verdict(claim, "000", {**results, r.name: dataclasses.replace(r, table=grown)}) == "not reproduced"
    # the NoC verdict is computed from the table even where the NoC data are absent
    for name, paper, claim, a, b in (
            ("psi_noc_fixed_confidence", "001", "Fig. 4 (NoC): GEGE needs significantly", "gege_fc", "ape"),
            ("psi_synthetic_fixed_confidence", "001", "Fig. 2: GEGE's sample count is flat in K", "gege_fc", "ape"),
            ("risk_averse_exp4", "004", "Exp. 4 (K = 100): RAMGapE and RA-LUCB are clearly ahead", "ramgape_b", "egp"),
            ("risk_averse_exp1", "004", "Exp. 1: RAMGapEc stops much sooner", "ramgape_c", "ra_round_robin"),
            ("pfiwr_llvm_like", "000", "Table 1, eps = 0.01 (LLVM-like stand-in)", "pfiwr", "pfimulti"),
            ("mol_ts_main", "002", "Fig. 2: optimistic sampling", "mol_ts", "mol_ts_m1")):
        if name in results:
            _swap_flips(results, name, paper, claim, "algorithm", a, b)
    if "risk_averse_exp3" in results:
        r = results["risk_averse_exp3"]
        claim = "Exp. 3 (K = 10): RAMGapE returns the Pareto set"
        spoiled = r.table.assign(correct=r.table["correct"].where(r.table["algorithm"] != "ramgape_b", False))
        before = _verdict(claim, "004", results)
        after = _verdict(claim, "004", {**results, r.name: dataclasses.replace(r, table=spoiled)})
        assert (before, after) == ("reproduced", "not reproduced")


def test_claims_without_a_result_are_not_given_a_verdict_they_did_not_earn():
    table = verdicts.verdict_table("000", {})
    assert set(table["Verdict"]) <= {"not computed", "qualitative only", "data unavailable"}
    stand_in = table[table["Claim"].str.contains("LLVM-like stand-in")]
    assert len(stand_in) == 6 and (stand_in["Verdict"] == "not computed").all()


def test_stand_in_claims_say_they_are_not_on_the_papers_data(results):
    table = verdicts.verdict_table("000", results)
    stand_in = table[table["Claim"].str.contains("LLVM-like stand-in")]
    assert len(stand_in) == 6
    assert stand_in["Note"].str.contains("fallback instance, not the paper's data").all()


def test_exp1_table_and_means_are_computed_from_the_shipped_runs(results):
    if "risk_averse_exp1" not in results:
        pytest.skip("Exp. 1 is not shipped")
    r = results["risk_averse_exp1"]
    table = verdicts.exp1_table(r).set_index("Algorithm")
    ours = verdicts.final(r.table).groupby("algorithm")["stopping_time"].mean()
    assert table.loc["RAMGapEc", "Mean stopping time (± s.e.)"].startswith(f"{ours['ramgape_c']:,.0f}")
    assert table["Runs"].sum() == len(verdicts.final(r.table))
    # every run 20% slower: the mean checks fail, the ratios between the algorithms do not move
    slow = r.table.assign(stopping_time=(r.table["stopping_time"] * 1.2).round().astype(r.table["stopping_time"].dtype))
    claim = "Exp. 1: mean stopping time of RAMGapEc"
    assert _verdict(claim, "004", results) == "reproduced"
    assert _verdict(claim, "004", {**results, r.name: dataclasses.replace(r, table=slow)}) == "not reproduced"


def test_table1_on_the_stand_in_is_computed_from_the_shipped_runs(results):
    if "pfiwr_llvm_like" not in results:
        pytest.skip("the LLVM-like stand-in is not shipped")
    r = results["pfiwr_llvm_like"]
    table = verdicts.table1(r)
    assert len(table) == 6 and set(table["Algorithm"]) == {"PFIwR", "PFIMulti"}
    assert table["Paper (SW-LLVM)"].tolist()[:2] == ["15,389 ± 299", "12,846 ± 820"]
    assert (table["Runs"] == r.runs_per_point).all()


def test_figure1_worked_example_chain_filter_loses_the_optimal_arm():
    chain, kept = verdicts.figure1_cascades()
    assert chain.sets == ((0, 1), (1,)) and kept.sets == ((0, 1), (0, 1))


def test_scale_reads_the_config_text_without_building_its_instances(results):
    r = results["pfiwr_estimation"]
    unbuildable = r.meta["config"].replace('generator = "pfi_estimation"', 'preset = "no_such_preset"')
    meta = {**r.meta, "config": unbuildable, "seeds": "[0, 1]", "horizon": "500"}
    expected = "scaled: 2 of 10 runs per point (1/5), horizon 500 of 2,000 (1/4)"
    assert dataclasses.replace(r, meta=meta).scale() == expected


def test_scale_names_the_instances_left_out(results):
    r = results["risk_averse_exp3"]
    meta = {**r.meta, "instances": json.dumps(list(r.table["instance"].unique()))}
    assert "instances" not in dataclasses.replace(r, meta=meta).scale()  # every instance: nothing left out
    two = dataclasses.replace(results["pfiwr_estimation"], meta={**results["pfiwr_estimation"].meta,
                                                                  "instances": json.dumps(["rho = 0"])})
    assert two.scale().startswith("scaled: the first 1 of 2 instances (1/2)")
    assert list(two.config.instances) == ["rho = 0"]


def test_mean_and_standard_error_text():
    assert verdicts.pm([1.0, 2.0, 3.0]) == "2.00 ± 0.58"
    assert verdicts.pm([48000.0, 50000.0]) == "49,000 ± 1,000"
    assert verdicts.pm([0.5]) == "0.500 ± 0"
    assert verdicts.pm([2920.0000000000005, 2920.0, 2920.0]) == "2,920 ± 0"  # float residue, not a spread
    assert verdicts.pm([2920.0, 2921.0]) == "2,920 ± 0.50"
