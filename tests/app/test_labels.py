"""Selectbox labels of algorithms and presets: whole names, short balanced citations."""

from __future__ import annotations

import pytest

import banditviz
from banditviz_app.forms import cite, labelled


def balanced(text: str) -> bool:
    depth = 0
    for ch in text:
        depth += {"(": 1, ")": -1}.get(ch, 0)
        if depth < 0:
            return False
    return depth == 0


@pytest.mark.parametrize("paper, short", [
    ("Kone, Kaufmann & Richert (AISTATS 2025)", "Kone et al. (AISTATS 2025)"),
    ("baseline (uniform allocation, LinPSI Sec. 5)", "baseline (uniform allocation, LinPSI Sec. 5)"),
    ("baseline (uniform allocation)", "baseline (uniform allocation)"),
    ("Drugan & Nowé (IJCNN 2013)", "Drugan & Nowé (IJCNN 2013)"),
    ("Park, Ann & Oh, Thompson Sampling for Multi-Objective Linear Contextual Bandit (NeurIPS 2025)",
     "Park et al. (NeurIPS 2025)"),
    ("Lu et al. (IJCAI 2019), as the baseline of Park, Ann & Oh (NeurIPS 2025)", "Lu et al. (IJCAI 2019)"),
    ("Nonaga et al., Risk-Averse Best Arm Set Identification (RAMGapE)", "Nonaga et al. (RAMGapE)"),
])
def test_citations_are_short_and_balanced(paper, short):
    assert cite(paper) == short


def test_every_registered_label_keeps_its_name_and_is_balanced():
    entries = [(n, s.paper) for n, s in banditviz.ALGORITHMS.items()] + \
              [(n, s.paper) for n, s in banditviz.PRESETS.items()]
    for name, paper in entries:
        label = labelled(name, paper)
        assert label.startswith(f"{name} — ") and balanced(label), label
        assert label.split(" — ", 1)[1].split()[0] == paper.split()[0].rstrip(","), label  # first author or word
