"""The words and shaded regions of the Learn page's steps, built from data alone (no Streamlit), so that each
sentence can be tested against the picture it describes.

Decisions (ours):
* Step 1 shades the box of the arm that dominates (the arms it dominates lie in it), both boxes when
  neither arm dominates, none when the two arms are equal; the shading is named in the legend, so that
  its words never lie on a point.
* Step 4's examples are the three rounds of the MOL-TS paper's Figure 1 (Park, Ann & Oh, NeurIPS 2025; our
  vectors, `banditviz.presets.molts`); the slider moves each round's middle arm along the diagonal. Each
  example opens with that arm Pareto optimal but off the effective front, the point of the step: where the
  paper's round puts it on the effective front (round 2's a(4) at (0.5, 0.5)), it starts at (0.35, 0.35)
  and the text says where the paper has it.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

import banditviz
from banditviz import pareto, words

# ---------------------------------------------------------------------------------------------- step 1


@dataclass(frozen=True)
class Shade:
    """A region of step 1's figure: everything below and to the left of ``corner``, named ``label``."""

    owner: str
    corner: tuple[float, float]
    label: str


def dominance(points: dict[str, tuple[float, float]]) -> tuple[str, list[Shade]]:
    """The verdict on two arms (both objectives maximised) and the boxes to shade: the box of the dominating arm,
    which holds the arm it dominates; both boxes when neither dominates; none when the arms are equal."""
    (a, pa), (b, pb) = points.items()
    means = np.array([pa, pb], dtype=float)
    dom = pareto.dominated_by(means)  # dom[i, j]: j dominates i
    if dom[1, 0] or dom[0, 1]:
        win, lose = (a, b) if dom[1, 0] else (b, a)
        return f"{win} dominates {lose}.", [Shade(win, points[win],
                                                   f"{win} dominates every other arm in this box, {lose} included")]
    if np.array_equal(means[0], means[1]):
        return f"{a} and {b} are equal: neither dominates the other.", []
    return ("Neither dominates the other: each is better on one objective, so neither lies in the other's box.",
            [Shade(name, p, f"{name}'s box: the arms {name} dominates") for name, p in points.items()])


# ---------------------------------------------------------------------------------------------- steps 2 and 3
def front_sentence(on_front: int, arms: int) -> str:
    """How many of the random arms are on the Pareto front."""
    if on_front == arms:
        return f"All {arms} arms are on the Pareto front."
    return f"{on_front} of {arms} arms {words.verb(on_front)} on the Pareto front."


def boxes_sentence(rounds: int, counts: np.ndarray, widths: np.ndarray) -> str:
    """Step 3: how often each arm was pulled after ``rounds`` rounds, and how wide its boxes are on average."""
    lo, hi = int(np.min(counts)), int(np.max(counts))
    pulled = words.times(lo) if lo == hi else f"{lo:,} to {hi:,} times"
    return (f"After {words.count(rounds, 'round')} each arm was pulled {pulled}; the boxes are "
            f"{float(np.mean(widths)):.3f} wide on average.")


# ---------------------------------------------------------------------------------------------- step 4
@dataclass(frozen=True)
class Example:
    """One example of step 4: a round of the paper's Figure 1, its movable arm and where that arm starts."""

    round: int
    arm: int
    start: float
    note: str


EXAMPLES = (
    Example(1, 1, 0.4, ""),
    Example(2, 3, 0.35, "The paper's round 2 has a(4) at (0.5, 0.5), on the effective front: drag it there."),
    Example(3, 2, 0.4, ""),
)


def example_instance(example: Example, position: float) -> banditviz.Instance:
    """The example's instance with its movable arm at (``position``, ``position``)."""
    base = banditviz.preset("mol_ts_figure1", round=example.round)
    means = np.array(base.means)
    means[example.arm] = [position, position]
    return base.with_changes(means=means.tolist(), name=f"Figure 1, round {example.round}")


def effective_sentence(instance: banditviz.Instance, arm: int) -> str:
    """Step 4: where ``arm`` stands with respect to both fronts, and why."""
    name = instance.arm_names[arm]
    on_p, on_c = arm in instance.pareto_set, arm in instance.effective_set
    gap, every = instance.effective_gaps[arm], "both objectives" if instance.L == 2 else "every objective"
    if on_p and on_c:
        return f"{name} is on both fronts: no other arm, and no mixture of other arms, beats it."
    if on_p:
        return (f"{name} is Pareto optimal, yet off the effective front: a mixture of other arms beats it by "
                f"{gap:.3f} on {every} (its effective gap).")
    return (f"{name} is dominated, so it is off both fronts (Pareto gap {instance.pareto_gaps[arm]:.3f}, "
            f"effective gap {gap:.3f}).")


# ---------------------------------------------------------------------------------------------- step 5
def gap_sentences(instance: banditviz.Instance, arm: int, name: str) -> tuple[str, str]:
    """Step 5: the picked arm's Pareto gap as a heading, and what a pull of it costs (the arm called ``name``)."""
    gap, effective = instance.pareto_gaps[arm], instance.effective_gaps[arm]
    if gap > 0:
        return (f"{name} is dominated: Pareto gap **{gap:.3f}**",
                f"Adding {gap:.3f} to every objective of {name} lifts it onto the front (its effective gap, "
                f"against the convex hull, is {effective:.3f}); each pull of {name} adds {gap:.3f} to the regret.")
    return (f"{name} is on the Pareto front: gap **0**",
            f"Pulling it costs no Pareto regret (its effective gap, against the convex hull, is {effective:.3f}).")


def growth_sentence(curves: pd.DataFrame, horizon: int) -> str:
    """How each algorithm's mean cumulative Pareto regret grew in the first and the second half of the rounds,
    read from the drawn curves (so the words say what the figure shows)."""
    parts, first, last = [], horizon // 2, horizon - horizon // 2
    for algorithm, rows in curves.groupby("algorithm", sort=False):
        total = rows.groupby("round")["pareto_regret"].mean().cumsum()
        half = float(total[total.index <= first].iloc[-1])
        second = float(total.iloc[-1]) - half
        if second < 0.8 * half:
            trend = "grows ever more slowly: it has found the front and pulls it more and more"
        elif second > 1.2 * half:
            trend = "grows faster and faster"
        else:
            trend = "grows linearly: it keeps paying for dominated arms"
        parts.append(f"**{algorithm}** paid {half:.1f} in the first {words.count(first, 'round')} and {second:.1f} "
                     f"in the last {words.count(last, 'round')}: its regret {trend}.")
    return "  \n".join(parts)
