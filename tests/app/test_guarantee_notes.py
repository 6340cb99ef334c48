"""Guarantee warnings on the pages: Watch (under the caption, with lambda_min for a lexicographic run) and Compare."""

from __future__ import annotations

from .test_compare import run_compare
from .test_pages import open_page, warnings


def test_watch_warns_when_lambda_is_below_lambda_min_and_shows_lambda_min():
    at = open_page("watch", {"preset": "lexicographic_lambda_10", "alg": "mte2lo", "T": "80", "seed": "0",
                             "p": '{"lam": 0.1}'})
    assert any(w.startswith("no guarantee here") and "1.237" in w for w in warnings(at)), warnings(at)
    assert any("λ_min = 1.237" in c.value for c in at.caption)


def test_watch_at_the_instance_lambda_has_no_warning():
    at = open_page("watch", {"preset": "lexicographic_lambda_10", "alg": "mte2lo", "T": "80", "seed": "0"})
    assert not warnings(at)


def test_compare_warns_per_chosen_algorithm():
    at = run_compare("mol_ts_2d", "mol_ts", ["mol_ts", "mte2lo"])
    assert [w for w in warnings(at) if "no guarantee here" in w and w.startswith("**mte2lo**")], warnings(at)
