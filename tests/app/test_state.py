"""The app's pure helpers: URL encoding of a setting, the arm table, the run summary, markdown escaping."""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import banditviz
from banditviz.instances import uniform_box
from banditviz_app import runs, state, table


def test_preset_setting_round_trips_through_the_url():
    s = state.Setting(instance=banditviz.preset("default_3d"), source={"preset": "default_3d"},
                      algorithm="mo_epsilon_greedy", params={"epsilon": 0.3}, horizon=500, seed=9)
    q = state.to_query(s)
    assert q == {"preset": "default_3d", "alg": "mo_epsilon_greedy", "p": '{"epsilon":0.3}', "T": "500", "seed": "9"}
    back = state.from_query(q)
    assert back.instance == s.instance and (back.algorithm, back.horizon, back.seed) == ("mo_epsilon_greedy", 500, 9)
    assert back.params == {"epsilon": 0.3}


def test_generated_and_custom_instances_round_trip():
    gen = {"K": 7, "L": 3, "seed": 4, "sigma": 0.2}
    s = state.Setting(instance=state.build_generated("concave_front", gen), source={"gen": "concave_front", "gp": gen})
    q = state.to_query(s)
    assert "inst" not in q and q["gen"] == "concave_front"
    assert state.from_query(q).instance == banditviz.instances.concave_front(7, 3, seed=4, sigma=0.2)
    custom = banditviz.Instance.from_means([[0.1, 0.2], [0.3, 0.05]], sigma=0.7, arm_names=["a&b", "c"])
    q = state.to_query(state.Setting(instance=custom))
    assert state.from_query(q).instance == custom  # lossless: floats written with repr precision


def test_default_parameters_are_left_out_of_the_link():
    s = state.Setting(instance=banditviz.preset("default"), source={"preset": "default"},
                      algorithm="mo_epsilon_greedy", params={"epsilon": 0.1})
    assert "p" not in state.to_query(s)


def test_too_large_instances_are_not_put_in_the_link():
    big = banditviz.instances.uniform_box(400, 3, seed=1)
    assert "inst" not in state.to_query(state.Setting(instance=big))


@pytest.mark.parametrize("query, field", [
    ({"T": "0"}, "T"), ({"T": "1e9"}, "T"), ({"seed": "-1"}, "seed"), ({"seed": "x"}, "seed"),
    ({"gen": "nope"}, "gen"), ({"gen": "uniform_box", "gp": '{"K": 1}'}, "K"),
    ({"gen": "uniform_box", "gp": '{"evil": 1}'}, "gp"), ({"p": "[1]"}, "p"), ({"p": "{"}, "p"),
    ({"alg": "ramgape_b"}, "algorithm"),  # risk-averse: scalar distributions only (MOL-TS now runs on means)
])
def test_bad_query_values_raise_value_errors_naming_the_key(query, field):
    with pytest.raises(ValueError, match=field):
        state.from_query(query)


def test_table_round_trip_keeps_orientation_and_labels():
    inst = banditviz.Instance.from_means([[0.2, -0.4], [0.6, -0.1], [0.5, -0.9]], noise="gaussian", sigma=0.3,
                                         directions=["max", "min"], objective_names=["gain", "cost"])
    frame = table.to_table(inst)
    assert frame["cost"].tolist() == ["0.4", "0.1", "0.9"]  # shown as the user sees it
    assert table.from_table(frame, inst) == inst
    frame.loc[1, "gain"] = 0.75
    edited = table.from_table(frame, inst)
    assert edited.means[1, 0] == 0.75 and edited.sigma == 0.3 and edited.directions == ("max", "min")


def test_table_added_and_removed_rows():
    inst = banditviz.preset("default")
    frame = table.to_table(inst)
    grown = pd.concat([frame, pd.DataFrame([{table.NAME: None, "objective 1": 0.5, "objective 2": 0.5}])],
                      ignore_index=True)
    new = table.from_table(grown, inst)
    assert new.K == inst.K + 1 and new.arm_names[-1] == f"arm {inst.K}"
    assert table.from_table(frame.drop(index=[0, 1]).reset_index(drop=True), inst).K == inst.K - 2


@pytest.mark.parametrize("cell, message", [(None, "row 3"), ("abc", "row 3"), (float("inf"), "column 'objective 2'")])
def test_table_bad_cell_names_row_and_column(cell, message):
    inst = banditviz.preset("default")
    frame = table.to_table(inst).astype({"objective 2": object})
    frame.loc[2, "objective 2"] = cell
    with pytest.raises(ValueError, match=message):
        table.from_table(frame, inst)


@pytest.mark.parametrize(("typed", "value"), [("0.1", 0.1), (".1", 0.1), ("1e-3", 0.001), ("-0.25", -0.25),
                                             ("3", 3.0), (" 0.5 ", 0.5), ("2E2", 200.0)])
def test_table_keeps_a_typed_number_as_typed(typed, value):
    """A typed cell is read as typed (a number editor read "1e-3" as -13 and ".1" as 1), and no other cell moves:
    the unedited cells of a generated instance keep their exact 16-digit values."""
    inst = uniform_box(6, 2, seed=3, sigma=0.5)
    shown = table.to_table(inst)
    frame = shown.copy()
    frame.loc[2, "objective 1"] = typed
    new = table.from_table(frame, inst, shown=shown)
    assert new.means[2, 0] == value
    keep = np.ones(inst.means.shape, dtype=bool)
    keep[2, 0] = False
    np.testing.assert_array_equal(new.means[keep], inst.means[keep])
    assert shown.loc[0, "objective 1"] == f"{inst.means[0, 0]:.6g}"  # shown with 6 significant digits


def test_table_refuses_a_comma_and_says_how_to_type_a_number():
    inst = banditviz.preset("default")
    frame = table.to_table(inst)
    frame.loc[1, "objective 2"] = "0,1"
    with pytest.raises(ValueError, match=r"row 2 \(arm 1\), column 'objective 2'.*a point, not a comma"):
        table.from_table(frame, inst)


def test_table_rejects_one_arm_and_duplicate_names():
    inst = banditviz.preset("default")
    with pytest.raises(ValueError, match="at least 2 arms"):
        table.from_table(table.to_table(inst).head(1), inst)
    frame = table.to_table(inst)
    frame.loc[1, table.NAME] = "arm 0"
    with pytest.raises(ValueError, match="own name"):
        table.from_table(frame, inst)


def test_change_objectives_adds_and_drops_columns():
    inst = banditviz.preset("default")
    three = table.change_objectives(inst, 3)
    assert three.L == 3 and np.all(three.means[:, 2] == 0.5) and np.array_equal(three.means[:, :2], inst.means)
    assert table.change_objectives(three, 2) == inst.with_changes(objective_names=["objective 1", "objective 2"])


def test_curve_frame_gives_back_the_sweep_cumulative_values():
    table = pd.DataFrame({"algorithm": ["a"] * 3 + ["b"] * 2, "seed": [0, 0, 0, 1, 1],
                          "round": pd.array([10, 20, 25, 10, 20], dtype="Int64"),
                          "cum_pareto_regret": [1.0, 1.5, 4.0, 2.0, 2.0]})
    curves = runs.curve_frame(table)
    assert curves["pareto_regret"].tolist() == [1.0, 0.5, 2.5, 2.0, 0.0]  # increments, by hand
    again = curves.groupby(["algorithm", "seed"])["pareto_regret"].cumsum()
    assert again.tolist() == table["cum_pareto_regret"].tolist()


def test_stopping_frame_from_a_real_sweep():
    inst = banditviz.preset("pfi_mab")
    table = runs.run_sweep(inst, ["gege_fc", "pareto_ucb1"], 2, 3000)
    stops = runs.stopping_frame(table)
    assert stops["algorithm"].tolist() == ["gege_fc", "gege_fc"]  # the regret algorithm has no stopping time
    for seed in (0, 1):
        trace = banditviz.run(inst, "gege_fc", 3000, seed, snapshots=0)
        row = stops[stops["seed"] == seed].iloc[0]
        assert row["stopped_at"] == trace.stopped_at
        assert row["correct"] == (set(trace.recommendation) == set(inst.pareto_set))
    assert runs.curve_frame(table)["algorithm"].unique().tolist() == ["pareto_ucb1"]


def test_plain_escapes_markdown_and_html():
    text = state.plain("**x** <b>y</b> [l](u) `c`")
    assert "**" not in text.replace("\\*", "") and "<b>" not in text and "](" not in text.replace("\\]\\(", "")


def test_every_paper_figure_reads_a_result_with_a_sweep_config():
    from banditviz_app import papers

    root = Path(__file__).resolve().parents[2]
    from banditviz import claims

    assert [p.key for p in papers.PAPERS] == list(claims.PAPERS)
    for paper in papers.PAPERS:
        for name in [f.result for f in paper.figures] + [n for c in paper.charts for n in c.results]:
            assert (root / "experiments" / f"{name}.toml").is_file(), name
        assert paper.live in {f.result for f in paper.figures}


def test_add_random_arm_stays_in_the_bounding_box():
    inst = banditviz.preset("default")
    grown = table.add_random_arm(inst)
    assert grown.K == inst.K + 1 and np.array_equal(grown.means[:-1], inst.means)
    assert np.all(grown.means[-1] >= inst.means.min(axis=0)) and np.all(grown.means[-1] <= inst.means.max(axis=0))
    assert grown == table.add_random_arm(inst)  # reproducible


def test_large_comparisons_run_on_local_processes_with_the_serial_results(monkeypatch):
    assert runs.sweep_backend("means", ["pareto_ucb1", "uniform"], 1, 1000) == "serial"
    assert runs.sweep_backend("means", ["random_arm"], 100, 10_000) == "processes"  # no fast loop: Python
    cores = "threads" if (os.cpu_count() or 1) > 1 else "serial"
    assert runs.sweep_backend("means", ["mol_ts"], 100, 10_000) == cores  # MOL-TS on one-hot contexts: compiled
    assert runs.sweep_backend("means", ["pareto_ucb1", "pareto_ts", "uniform"], 50, 20_000) == cores  # compiled
    assert runs.sweep_backend("linear", ["mol_ucb", "mol_eps_greedy"], 50, 20_000) == cores  # compiled
    assert runs.sweep_backend("means", ["gege_fb", "gege_fc", "pfiwr"], 50, 20_000) == "serial"  # batch-wise: GIL
    assert runs.sweep_backend("linear", ["gege_fb", "pfiwr"], 50, 20_000) == "processes"  # PFIwR: Python here
    entries = runs.sweep_entries(["pareto_ucb1", "uniform"])
    inst_json = state.compact_json(banditviz.preset("default"))
    serial = runs.cached_sweep(inst_json, entries, 3, 300)
    monkeypatch.setattr(runs, "PROCESSES_FROM", 1)
    monkeypatch.setattr(runs, "_SWEEPS", type(runs._SWEEPS)())
    calls = []
    parallel = runs.cached_sweep(inst_json, entries, 3, 300, progress=lambda done, total: calls.append(done))
    pd.testing.assert_frame_equal(serial, parallel)
    assert calls and calls[-1] == 6
