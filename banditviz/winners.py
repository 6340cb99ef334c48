"""Who wins a comparison: one plain sentence per view of a sweep (the Compare page, issue 26).

The runs of a comparison share their noise seed by seed (common random numbers: seed s gives every algorithm the
same noise for the same arm pull), so the fair question is whether one algorithm beats the other *on the same
seeds*: the sentence compares the best algorithm with the next best on the per-seed differences, by a **paired
t-test** (two-sided, at the 5% level: `scipy.stats.ttest_rel`), and says on how many seeds the best one is ahead.

Decisions (no paper covers this): the paired t-test rather than Wilcoxon's signed-rank test, because the page's
default of 5 seeds cannot reach p < 0.05 with a two-sided exact signed-rank test (its smallest p is 2/32), while the
t-test can; a difference the same on every seed (zero spread, as against a deterministic rule) holds without a test;
fewer than two seeds are not tested. Regret: the final cumulative value of each run (its last recorded round), lower
is better. Sample complexity: the stopping time of the runs that stopped, fewer is better, paired on the seeds where
both stopped; the algorithms none of whose runs stopped are not ranked.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy import stats

from . import words

ALPHA = 0.05
TEST = "paired t-test on the seeds, which share their noise"


@dataclass(frozen=True)
class Verdict:
    """The best of a comparison against the next best (lower is better), over the seeds both have."""

    best: str
    next_best: str
    best_mean: float
    next_mean: float
    seeds: int  # seeds with a value for both
    ahead_on: int  # seeds on which ``best`` is strictly lower
    p: float | None  # the paired t-test's p-value; None when not tested (fewer than 2 seeds, or zero spread)
    holds: bool  # the difference holds across seeds

    @property
    def difference(self) -> float:
        return self.next_mean - self.best_mean


def paired(values: pd.DataFrame) -> Verdict | None:
    """The verdict of a (seed x algorithm) table of values, lower is better (NaN: no value for that run).

    The best is the lowest mean over each algorithm's own seeds; the next best the second lowest. None when fewer
    than two algorithms have a value."""
    means = values.mean(axis=0, skipna=True).dropna().sort_values(kind="stable")
    if len(means) < 2:
        return None
    best, other = str(means.index[0]), str(means.index[1])
    both = values[[best, other]].dropna()
    d = (both[other] - both[best]).to_numpy(dtype=float)
    n, ahead = len(d), int((d > 0).sum())
    if n < 2:
        p, holds = None, False
    elif np.ptp(d) == 0:  # the same difference on every seed: holds when it is not zero
        p, holds = None, bool(d[0] > 0)
    else:
        p = float(stats.ttest_rel(both[other].to_numpy(float), both[best].to_numpy(float)).pvalue)
        holds = p < ALPHA and d.mean() > 0
    return Verdict(best, other, float(means.iloc[0]), float(means.iloc[1]), n, ahead, p, holds)


def _number(x: float) -> str:
    return f"{x:,.0f}" if abs(x) >= 100 else f"{x:.3g}"


def _sentence(v: Verdict, lead: str, unit: str) -> str:
    """"<best> <lead>: <mean> against <mean> for <next> (...), <difference> (<percent>) <unit>; <seeds>; <test>."""
    share = f" ({v.difference / v.next_mean:.0%})" if v.next_mean > 0 else ""
    seeds = f"ahead on {v.ahead_on} of {words.count(v.seeds, 'seed')}"
    if v.seeds < 2:
        test = "one seed cannot say whether it holds across seeds: run more seeds"
    elif v.p is None:
        test = ("the same difference on every seed, so it holds across seeds" if v.holds
                else "no difference on any seed")
    elif v.holds:
        test = f"the difference holds across seeds ({TEST}: p = {v.p:.2g})"
    else:
        test = f"the difference may be chance ({TEST}: p = {v.p:.2g}, not below {ALPHA:g}); more seeds would tell"
    return (f"{v.best} {lead}: {_number(v.best_mean)} against {_number(v.next_mean)} for {v.next_best}, "
            f"{_number(v.difference)}{share} {unit}; {seeds}; {test}.")


def final_values(table: pd.DataFrame, metric: str) -> pd.DataFrame:
    """(seed x algorithm) table of each run's final cumulative ``metric`` (``cum_<metric>`` at its last recorded
    round), for a sweep table (`banditviz.sweep.sweep`)."""
    column = f"cum_{metric}"
    if column not in table:
        raise ValueError(f"metric: the table records no {column!r}; it has {sorted(table.columns)}")
    rows = table[table["round"].notna() & table[column].notna()] if "round" in table else table.iloc[0:0]
    last = rows.sort_values("round", kind="stable").groupby(["seed", "algorithm"], sort=True)[column].last()
    return last.unstack("algorithm")


def regret_sentence(table: pd.DataFrame, metric: str, label: str) -> str | None:
    """Who has the lowest final cumulative ``metric`` (named ``label``), by how much, and whether it holds across
    seeds; None when fewer than two algorithms record it."""
    v = paired(final_values(table, metric))
    return None if v is None else _sentence(v, f"has the lowest final {label}", "less")


def samples_sentence(stops: pd.DataFrame) -> str | None:
    """Who stops after the fewest samples (``stops``: algorithm, seed, stopped_at, correct; `Compare`'s stopping
    frame), by how much, whether it holds across seeds and how often it is right; None when fewer than two
    algorithms have a run that stopped."""
    values = stops.pivot_table(index="seed", columns="algorithm", values="stopped_at", aggfunc="first", dropna=False)
    v = paired(values.astype(float))
    if v is None:
        return None
    runs = stops[stops["algorithm"] == v.best]
    stopped = runs["stopped_at"].notna()
    right = int(runs.loc[stopped, "correct"].astype(bool).sum())
    tail = f" It answered correctly in {right} of its {words.count(int(stopped.sum()), 'stopped run')}"
    tail += f", and {int((~stopped).sum())} of its runs did not stop." if (~stopped).any() else "."
    return _sentence(v, "stops after the fewest samples", "fewer") + tail
