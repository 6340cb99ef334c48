"""A verdict for every claim of the five papers, computed from the shipped results (`banditviz.reproduce`).

One module per paper (named as everywhere in the package): `pfiwr`, `linpsi`, `molts`, `lexmoslb`, `ramgape`; each
holds its ``CLAIMS``, its ``SENSITIVITY`` tables (a verdict under each plausible value of a decision the paper leaves
open) and, where we have one, its ``CONSISTENCY`` rows (numbers of our own re-implementations, never counted as the
paper's). `common` holds what they share (the verdict rules are in its docstring), `stats` the tests and slope fits.
"""

from __future__ import annotations

import pandas as pd

from . import lexmoslb, linpsi, molts, pfiwr, ramgape
from .common import (
    COLUMNS,
    VERDICTS,
    Claim,
    Consistency,
    Outcome,
    Results,
    Sensitivity,
    consistency_table,
    outcome,
    sensitivity_table,
    verdict,
)
from .common import verdict_table as _table

MODULES = (pfiwr, linpsi, molts, lexmoslb, ramgape)
PAPERS = tuple(m.PAPER for m in MODULES)  # "pfiwr", "linpsi", "molts", "lexmoslb", "ramgape"
CLAIMS: tuple[Claim, ...] = tuple(c for m in MODULES for c in m.CLAIMS)
SENSITIVITY: tuple[Sensitivity, ...] = tuple(s for m in MODULES for s in getattr(m, "SENSITIVITY", ()))
CONSISTENCY: tuple[Consistency, ...] = tuple(c for m in MODULES for c in getattr(m, "CONSISTENCY", ()))

__all__ = ["CLAIMS", "COLUMNS", "CONSISTENCY", "PAPERS", "SENSITIVITY", "VERDICTS", "Claim", "Outcome",
           "claim", "consistency", "counts", "outcome", "sensitivity", "tally", "verdict", "verdict_table"]


def claim(paper: str, key: str) -> Claim:
    """The claim ``key`` of ``paper`` (ValueError naming the paper's keys if unknown)."""
    found = [c for c in CLAIMS if c.paper == paper and c.key == key]
    if not found:
        raise ValueError(f"claim: no {key!r} in {paper}; known: {[c.key for c in CLAIMS if c.paper == paper]}")
    return found[0]


def verdict_table(paper: str, results: Results) -> pd.DataFrame:
    """The verdicts of one paper's claims, in their order."""
    return _table(tuple(c for c in CLAIMS if c.paper == paper), results)


def consistency(paper: str, results: Results) -> pd.DataFrame:
    """Our re-implementations' numbers against the shipped runs (not verdicts, not counted)."""
    return consistency_table(tuple(c for c in CONSISTENCY if c.paper == paper), results)


def sensitivity(paper: str, results: Results) -> list[tuple[Sensitivity, pd.DataFrame]]:
    """Each decision of ``paper`` with its table of verdicts under every plausible value."""
    return [(s, sensitivity_table(s, CLAIMS, results)) for s in SENSITIVITY if s.paper == paper]


def counts(results: Results) -> dict[str, int]:
    """How many claims get each verdict, over the five papers (the Papers page's summary)."""
    return tally([verdict_table(p, results) for p in PAPERS])


def tally(tables: list[pd.DataFrame]) -> dict[str, int]:
    """How many rows of verdict ``tables`` hold each verdict."""
    found = pd.concat(tables)["Verdict"].value_counts()
    return {v: int(found.get(v, 0)) for v in VERDICTS}
