"""The verdicts read the shipped results, and every check can fail: each is run on its deliberately broken variants'
results (their own shipped runs in place of the algorithm's) and must reject them. The counts the Papers page shows
are the verdicts', and a claim with a part we cannot check is never counted as reproduced."""

from __future__ import annotations

import dataclasses

import numpy as np
import pandas as pd
import pytest

from banditviz import claims, reproduce
from banditviz.claims import common, lexmoslb, molts, pfiwr, ramgape, stats
from banditviz.claims.common import Pick, substitute


@pytest.fixture(scope="module")
def results():
    return {name: reproduce.load(name) for name in reproduce.shipped()}


CHECKED = [(c.paper, c.key) for c in claims.CLAIMS if c.check is not None and c.kind == "check"]
VARIANTS = [(c.paper, c.key, i) for c in claims.CLAIMS for i in range(len(c.variants))]


def test_every_claim_gets_a_verdict_of_the_allowed_kinds(results):
    for paper in claims.PAPERS:
        table = claims.verdict_table(paper, results)
        assert list(table.columns) == list(claims.COLUMNS)
        assert set(table["Verdict"]) <= set(claims.VERDICTS) - {"not computed"}, "every result is shipped"
        checked = table[table["Verdict"].isin(["reproduced", "not reproduced", "partly checked"])]
        assert checked["Ours"].str.len().gt(0).all() and checked["Runs"].notna().all()
        failed = table[table["Verdict"] == "not reproduced"]
        assert failed["Note"].str.len().gt(0).all(), "a claim that did not reproduce must say why"


@pytest.mark.parametrize(("paper", "key"), CHECKED, ids=[f"{p}-{k}" for p, k in CHECKED])
def test_every_checked_claim_names_a_broken_variant(paper, key):
    assert claims.claim(paper, key).variants, f"{paper} {key}: no broken variant shows the check can fail"


@pytest.mark.parametrize(("paper", "key", "index"), VARIANTS, ids=[f"{p}-{k}-{i}" for p, k, i in VARIANTS])
def test_every_check_rejects_its_broken_variant(paper, key, index, results):
    claim = claims.claim(paper, key)
    found = claim.variants[index].outcome(claim, results)
    assert found is not None and not found.holds, f"{claim.claim}: accepts {claim.variants[index].label}"


def test_the_counts_are_the_verdicts_and_partly_checked_is_not_reproduced(results):
    counts = claims.counts(results)
    assert sum(counts.values()) == len(claims.CLAIMS)
    tables = pd.concat([claims.verdict_table(p, results) for p in claims.PAPERS])
    partial = {c.claim for c in claims.CLAIMS if c.partly}
    assert not set(tables.loc[tables["Verdict"] == "reproduced", "Claim"]) & partial
    assert counts["partly checked"] == (tables["Verdict"] == "partly checked").sum() > 0


def test_stand_in_claims_are_at_best_partly_checked(results):
    table = claims.verdict_table("pfiwr", results)
    stand_in = table[table["Claim"].str.startswith(("Table 1", "Fig. 3"))]
    assert len(stand_in) == 6
    assert set(stand_in["Verdict"]) <= {"partly checked", "not reproduced"}
    assert stand_in["Note"].str.contains("not the paper's SW-LLVM").all()


def test_a_claim_without_its_results_is_not_given_a_verdict():
    table = claims.verdict_table("pfiwr", {})
    assert set(table["Verdict"]) == {"not computed"}


def test_table1_counts_wrong_answers_of_a_fast_and_wrong_pfiwr(results):
    """PFIwR Table 1, eps = 1: the success condition (3) is part of the claim, not only the sample counts."""
    table = pfiwr.table1(results[pfiwr.LLVM]).set_index(["eps", "Algorithm"])
    assert table.loc[("1", "PFIwR"), "Correct"] == "0/100"
    assert claims.verdict(claims.claim("pfiwr", "table1-1"), results)["Verdict"] == "not reproduced"
    assert table["Paper (SW-LLVM)"].tolist()[:2] == ["15,389 ± 299", "12,846 ± 820"]


def test_exp1_table_is_computed_from_the_shipped_runs(results):
    r = results[ramgape.EXP1]
    table = ramgape.exp1_table(r).set_index("Algorithm")
    ours = common.final(r.table).groupby("algorithm")["stopping_time"].mean()
    assert table.loc["RAMGapEc", "Mean stopping time (± s.e.)"].startswith(f"{ours['ramgape_c']:,.0f}")
    assert table["Runs"].sum() == len(common.final(r.table))


def test_the_reimplementation_numbers_are_consistency_not_verdicts(results):
    """RAMGapE Exp. 1's four means from our C re-implementation are shown apart and move with the runs."""
    assert not [c for c in claims.CLAIMS if "re-implementation" in c.reported]
    table = claims.consistency("ramgape", results)
    assert len(table) == 5 and set(table["Agrees"]) == {"yes"}
    r = results[ramgape.EXP1]
    slow = r.table.assign(stopping_time=(r.table["stopping_time"] * 1.2).round().astype(r.table["stopping_time"].dtype))
    slower = claims.consistency("ramgape", {**results, r.name: dataclasses.replace(r, table=slow)})
    assert (slower["Agrees"].iloc[:4] == "no").all()


def test_sensitivity_tables_start_with_our_value_and_show_every_shipped_one(results):
    for paper in claims.PAPERS:
        for item, table in claims.sensitivity(paper, results):
            assert len(table) == len(item.values), item.decision
            main = claims.verdict_table(paper, results).set_index("Claim")
            for key in item.claims:
                text = claims.claim(paper, key).claim
                assert table[text].iloc[0].startswith(main.loc[text, "Verdict"] + ":")


def test_the_ridge_lambda_moves_the_fig1_ratio(results):
    """PFIwR Fig. 1: with ridge's lambda = p lambda_t the two estimators coincide (ratio ~1)."""
    item = next(s for s in pfiwr.SENSITIVITY if s.decision.startswith("ridge"))
    built = dict(item.values)["43.19 = p lambda_t at n = 2,000"](results)
    ratios = pfiwr._ratios(built[pfiwr.EST])
    assert all(abs(v - 1) < 0.05 for v in ratios.values())


def test_the_smallest_c_beta_within_delta_is_measured_per_instance(results):
    table = pfiwr.cbeta_table(results)
    for (inst, eps), rows in table.groupby(["Instance", "eps"]):
        marked = rows[rows["Smallest within delta"] != ""]
        assert len(marked) <= 1, (inst, eps)
        if len(marked):
            c = marked["c_beta"].iloc[0]
            assert (rows.loc[rows["c_beta"] < c, "Within delta"] == "no").all()
            assert marked["Wrong"].iloc[0] <= 0.1 * marked["Runs"].iloc[0]


def test_substitute_puts_the_variant_in_the_subjects_place(results):
    r = results[pfiwr.SENS]
    swapped = substitute(r, Pick("pfiwr", {"p": 0.9}), Pick("pfiwr", {"p": 0.5}))
    a = common.runs_of(swapped.table, "pfiwr", p=0.9)["stopping_time"].tolist()
    assert a == common.runs_of(r.table, "pfiwr", p=0.5)["stopping_time"].tolist()
    assert len(swapped.table) == len(r.table) - len(r.table[Pick("pfiwr", {"p": 0.9}).mask(r.table)]) + \
        len(r.table[Pick("pfiwr", {"p": 0.5}).mask(r.table)])
    with pytest.raises(ValueError, match="no runs"):
        substitute(r, Pick("pfiwr", {"p": 0.7}), Pick("pfiwr", {"p": 0.5}))
    few = dataclasses.replace(r, table=r.table[r.table["seed"] < 3])  # a variant run with fewer seeds
    swapped = substitute(r, Pick("pfiwr", {"p": 0.9}), Pick("pfiwr", {"p": 0.5}), few)
    assert sorted(common.runs_of(swapped.table, "pfiwr", p=0.9)["seed"].unique()) == [0, 1, 2]
    more = dataclasses.replace(r, table=r.table.assign(seed=r.table["seed"] + 100))
    with pytest.raises(ValueError, match="instances and seeds"):
        substitute(r, Pick("pfiwr", {"p": 0.9}), Pick("pfiwr", {"p": 0.5}), more)


def test_figure1_worked_examples():
    chain, kept = lexmoslb.figure1_cascades()
    assert chain.sets == ((0, 1), (1,)) and kept.sets == ((0, 1), (0, 1))
    agents = molts.figure1_agents().set_index("agent")
    assert agents.loc["agent 1", "effective Pareto regret"] == pytest.approx(0.35, abs=1e-9)


# ---------------------------------------------------------------------- the statistics
def test_slope_fit_recovers_a_known_exponent_with_a_deterministic_interval():
    rng = np.random.default_rng(1)
    x = np.array([1.0, 2, 4, 8, 16, 32])
    samples = [x_ ** 1.5 * rng.lognormal(0, 0.1, 200) for x_ in x]
    fit = stats.fit_points(x, samples)
    assert fit.low < 1.5 < fit.high and fit.high - fit.low < 0.05
    assert stats.fit_points(x, samples).text() == fit.text()  # the bootstrap is seeded
    semilog = stats.fit_points(x, [np.exp(-0.3 * x_) * rng.lognormal(0, 0.05, 100) for x_ in x], log_x=False)
    assert semilog.slope == pytest.approx(-0.3, abs=0.01)
    assert fit.line(1.5)[-1] / fit.line(1.5)[0] == pytest.approx(32**1.5)


def test_paired_fit_and_tests():
    t = np.array([1000.0, 2000, 4000, 8000])
    rows = np.array([t**0.5 * s for s in (1.0, 1.1, 0.9, 1.2)])
    assert stats.fit_paired(t, rows).slope == pytest.approx(0.5)
    assert stats.sign_test(np.zeros(10), np.ones(10))[:2] == (10, 10)
    assert stats.sign_test(np.r_[np.zeros(8), np.ones(2) * 2], np.ones(10))[2] > stats.LEVEL  # 8/10: p = 0.055
    assert stats.welch_less(np.full(5, 1.0), np.full(5, 2.0)) == 0.0  # constant samples compare their values
    assert stats.errors_within(0, 100, 0.1) == 1.0 and stats.errors_within(30, 100, 0.1) < 1e-4
