"""Guarantee warnings (`banditviz.guarantees`): what they say, where the run records them, and MTE2LO's lambda."""

from __future__ import annotations

import io

import numpy as np
import pytest

import banditviz as bv
from banditviz import cli, guarantees
from banditviz.pareto import lambda_min
from banditviz.presets.lexmoslb import suggested_lambda

TABLE_01, TABLE_10 = "lexicographic_lambda_0.1", "lexicographic_lambda_10"


def test_mte2lo_default_lambda_comes_from_the_instance() -> None:
    """The paper's lambda for its Table 1 instances, lambda_min of claim (5) for any other fixed means."""
    assert suggested_lambda(bv.preset(TABLE_01).means) == 0.1
    assert suggested_lambda(bv.preset(TABLE_10).means) == 10.0
    other = bv.preset("default")
    assert suggested_lambda(other.means) == lambda_min(other.means)[0] > 0
    for name, lam in ((TABLE_10, 10.0), ("default", lambda_min(other.means)[0])):
        tr = bv.run(bv.preset(name), "mte2lo", 60, snapshots=1)
        assert tr.params["lam"] is None and tr.snapshots[-1].extras["lambda"] == lam
        assert tr.info["warnings"] == []


def test_lambda_below_lambda_min_is_warned_and_saved_with_the_trace(tmp_path) -> None:
    tr = bv.run(bv.preset(TABLE_10), "mte2lo", 60, snapshots=1, lam=0.1)
    (warning,) = tr.info["warnings"]
    assert warning.startswith("no guarantee here: ") and "1.237" in warning and "Proposition 1" in warning
    assert bv.Trace.load(tr.save(tmp_path / "t.npz")).info == tr.info
    assert guarantees.warnings_for(bv.preset(TABLE_10), "mte2lo", {"lam": 1.2369}) == ()
    assert guarantees.warnings_for(bv.preset(TABLE_01), "mte2lo", {"lam": 0.05}) != ()  # lambda_min = 0.0506


def test_contextual_mte2lo_says_claim_5_is_not_checked() -> None:
    (warning,) = bv.run(bv.preset("mol_ts_2d"), "mte2lo", 20, snapshots=0).info["warnings"]
    assert "contextual" in warning


def test_lambda_note_names_lambda_min() -> None:
    assert "1.237" in guarantees.lambda_note(bv.preset(TABLE_10))
    assert guarantees.lambda_note(bv.preset("mol_ts_2d")) is None


def test_cli_run_prints_the_warnings_on_stderr(capsys) -> None:
    out = io.StringIO()
    assert cli.main(["run", "--instance", TABLE_10, "--algorithm", "mte2lo", "--horizon", "30",
                     "--param", "lam=0.1", "--out", ""], out=out) == 0
    err = capsys.readouterr().err
    assert "warning: no guarantee here" in err and "no guarantee" not in out.getvalue()


@pytest.mark.parametrize("name", sorted(bv.ALGORITHMS))
def test_every_algorithm_gets_a_tuple_of_sentences(name) -> None:
    spec = bv.ALGORITHMS[name]
    inst = {"distributions": bv.preset("risk_averse_easy"), "contextual": bv.preset("mol_ts_2d")}.get(
        spec.kinds[0], bv.preset("default"))
    out = guarantees.warnings_for(inst, name)
    assert isinstance(out, tuple) and all(w.startswith(guarantees.PREFIX) for w in out)
    assert np.all([isinstance(w, str) for w in out])


def test_pal_width_is_warned_where_the_noise_makes_it_too_tight(tmp_path) -> None:
    """PAL's code width sqrt(ln(K L t^2 pi^2 / (6 delta)) / 5 x^T V^-1 x) is 1 / (sigma sqrt(10)) times PAL's
    (Zuluaga et al. 2013, Thm. 1): warned at sigma = 1 (pfi_sensitivity, pfi_mab: errors above delta measured), not
    on the low-noise presets where PAL kept delta = 0.01 (0 of 20 runs wrong each); the bound itself, 1 / sqrt(10),
    is where the widths are equal."""
    for name in ("pfi_sensitivity", "pfi_mab"):
        (warning,) = guarantees.warnings_for(bv.preset(name), "pal_linear")
        assert warning.startswith(guarantees.PREFIX) and "sigma = 1" in warning and "0.32 times" in warning
    for name in ("psi_synthetic", "psi_gap_example", "pfi_toy", "mol_ts_figure1"):
        assert bv.preset(name).sigma <= 0.25 and guarantees.warnings_for(bv.preset(name), "pal_linear") == ()
    edge = 1 / np.sqrt(10)
    assert guarantees.warnings_for(bv.preset("pfi_mab", sigma=edge), "pal_linear") == ()
    assert guarantees.warnings_for(bv.preset("pfi_mab", sigma=edge * 1.001), "pal_linear") != ()
    tr = bv.run(bv.preset("pfi_mab"), "pal_linear", 30, snapshots=0)
    assert tr.info["warnings"] == list(guarantees.warnings_for(bv.preset("pfi_mab"), "pal_linear"))
    assert bv.Trace.load(tr.save(tmp_path / "t.npz")).info == tr.info
