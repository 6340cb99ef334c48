"""What the Watch player prints beside the figure, one entry per animation frame (`fig.layout.meta["bv"]`).

Plain text only (the player sets it with ``textContent``): per frame, the sentences saying what was
pulled and why and which arms changed status (`RoundState.events`, the pulled arm, and the status
changes since the previous frame, since frames may skip snapshots), a short phase name, and a compact
per-arm table.

Decisions (ours):
* The table cell of an objective is "estimate ± half-width" of the confidence interval
  ((upper - lower) / 2, "±∞" when a side is unbounded, "–" before the first estimate), in the user's
  orientation (a minimised objective shown as the user entered it); only the drawn objectives appear,
  so that the table fits a 1366 x 768 screen.
* Phases: the batch algorithms (GEGE, EGE, APE, ...; `identification`) name their batch and pull within
  it, GEGE's batches (its paper's "rounds") as samples of its G-optimal design (Kone, Kaufmann &
  Richert, AISTATS 2025, Alg. 1); PFIwR its exploration or exploitation phase (PFIwR Sec. 4); the
  lexicographic algorithms their stage. "Round" means one time step t only (`banditviz.words`).
* While no arm has an estimate (what the figure and the table draw then: no estimate, no box), the
  phase says "no estimates yet" and the round at which the first ones come: the end of the current
  batch for a batch algorithm, else the first snapshot that has one.
* Every explanation line is a sentence (capital letter, full stop), whatever the algorithm wrote.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from .. import words
from ..algorithms.base import STATUS_NAMES, RoundState
from ..trace import Trace


def _cell(v: float) -> str:
    return "–" if not math.isfinite(v) else f"{v:.3f}"


def status_changes(before: RoundState | None, now: RoundState) -> list[str]:
    """One sentence per kind of status change since ``before`` (the previous frame's snapshot), e.g.
    "Arms 4 and 5 became rejected (were active)."."""
    if before is None:
        return []
    old, new = np.asarray(before.status), np.asarray(now.status)
    changed = old != new
    out = []
    for was, became in sorted({(int(o), int(n)) for o, n in zip(old[changed], new[changed], strict=True)}):
        arms = np.flatnonzero(changed & (old == was) & (new == became)).tolist()
        out.append(words.sentence(f"{words.arms(arms)} became {STATUS_NAMES[became]} "
                                  f"({words.verb(len(arms), 'was', 'were')} {STATUS_NAMES[was]})"))
    return out


def sentences(now: RoundState, before: RoundState | None) -> list[str]:
    """What was pulled and why, and what changed status, at the round of snapshot ``now``."""
    events = [words.sentence(e) for e in now.events if e]
    out = []
    p = now.pulled
    if p is not None and not any(f"arm {p}" in e.lower() for e in events):
        out.append(f"Round {now.t:,}: arm {p} pulled.")
    out += events
    out += status_changes(before, now)
    return out or [f"Round {now.t:,}: nothing recorded."]


def first_estimate_round(snaps: Sequence[RoundState]) -> int | None:
    """Round of the first snapshot that has an estimate (of some arm, in some objective)."""
    return next((s.t for s in snaps if np.isfinite(s.estimates).any()), None)


def phase(snap: RoundState, first_estimates: int | None, horizon: int | None = None) -> str:
    """Short phase name of the algorithm at ``snap`` ("" when it has none), and "no estimates yet" while no arm
    has an estimate (saying so when the first would come after the run's ``horizon``)."""
    ex = snap.extras
    text, first = "", first_estimates
    if "round_size" in ex and "round" in ex:  # a batch algorithm: its batch number is in extras["round"]
        r, size = int(ex["round"]), int(ex["round_size"])
        pulls = int(ex.get("pulls_in_round", 0))
        what = "sampling the G-optimal design" if "design" in ex else "sampling the active arms"
        text = f"{what}, batch {r}" + (f" (pull {pulls:,} of {size:,})" if 0 < pulls < size else "")
        if pulls:
            first = snap.t - pulls + size  # the batch's estimates come with its last pull
    elif ex.get("phase") in ("explore", "exploit") and "T0" in ex:
        T0 = int(ex["T0"])
        text = (f"forced exploration, {words.rounds(1, T0)}" if ex["phase"] == "explore"
                else f"exploitation, after round {T0:,}")
    elif isinstance(ex.get("stage"), str):
        text = ex["stage"] + (f", stage {int(ex['stage_index'])}" if "stage_index" in ex else "")
    if np.isfinite(snap.estimates).any():
        return text
    when = "no estimates yet" + (f", the first come at round {first:,}" if first is not None and first > snap.t
                                 else "")
    if first is not None and horizon is not None and first > horizon:
        when += f", after this run's {horizon:,} rounds"
    return f"{text}: {when}" if text else when


def table(trace: Trace, snap_index: int, objectives: Sequence[int]) -> list[list[str]]:
    """Per arm: status, pulls, "estimate ± half-width" (the estimate alone for a logged run without bounds) and the
    true value of each drawn objective."""
    inst, snap = trace.instance, trace.snapshots[snap_index]
    sign = np.array([-1.0 if inst.directions[o] == "min" else 1.0 for o in objectives])
    est = snap.estimates[:, objectives] * sign
    half = (snap.upper[:, objectives] - snap.lower[:, objectives]) / 2
    truth = trace.truth_at(snap_index)
    rows = []
    for a in range(inst.K):
        row = [str(a), STATUS_NAMES[int(snap.status[a])], str(int(snap.counts[a]))]
        for j in range(len(objectives)):
            e, h = float(est[a, j]), float(half[a, j])
            width = f" ± {'∞' if not math.isfinite(h) else f'{h:.3f}'}" if trace.gives_bounds else ""
            row.append("–" if not math.isfinite(e) else f"{e:.3f}{width}")
        if truth is not None:
            row += [_cell(float(v)) for v in np.asarray(truth)[a, list(objectives)] * sign]
        rows.append(row)
    return rows


def columns(trace: Trace, objectives: Sequence[int]) -> list[str]:
    names = [trace.instance.objective_names[o] for o in objectives]
    truth = [f"true {n}" for n in names] if trace.truth_at(0) is not None else []
    return ["arm", "status", "pulls", *[f"{n}: estimate ± half-width" for n in names], *truth]


def meta(trace: Trace, idx: Sequence[int], rounds: Sequence[int], objectives: Sequence[int],
         redraw: bool) -> dict[str, Any]:
    """The player's data of a one-trace animation whose frame n shows snapshot ``idx[n]`` at round ``rounds[n]``."""
    snaps = trace.snapshots
    first = first_estimate_round(snaps)
    explain = [sentences(snaps[i], snaps[idx[n - 1]] if n else None) for n, i in enumerate(idx)]
    return {"rounds": [int(r) for r in rounds], "explain": explain,
            "phase": [phase(snaps[i], first, trace.horizon) for i in idx],
            "table": {"columns": columns(trace, objectives), "rows": [table(trace, int(i), objectives) for i in idx]},
            "redraw": bool(redraw)}


def _side(trace: Trace, idx: Sequence[int], n: int, first: int | None) -> tuple[list[str], str]:
    """Sentences and phase of one side of a race at frame ``n`` (a held snapshot says so)."""
    snaps = trace.snapshots
    now = snaps[idx[n]]
    if n and idx[n] == idx[n - 1]:
        said = [f"Stopped at round {trace.stopped_at:,}." if trace.stopped_at is not None and idx[n] == len(snaps) - 1
                else f"Nothing new recorded since round {now.t:,}."]
    else:
        said = sentences(now, snaps[idx[n - 1]] if n else None)
    return said, phase(now, first, trace.horizon)


def race_meta(a: Trace, b: Trace, ia: Sequence[int], ib: Sequence[int], rounds: Sequence[int],
              objectives: Sequence[int], redraw: bool) -> dict[str, Any]:
    """`meta` of a race: sentences and phases prefixed "A: " and "B: ", one table row per arm with both
    runs' status, pulls and estimate (the estimates of the drawn objectives, in parentheses)."""
    fa, fb = first_estimate_round(a.snapshots), first_estimate_round(b.snapshots)
    explain, phases, rows = [], [], []
    for n in range(len(rounds)):
        (sa, pa), (sb, pb) = _side(a, ia, n, fa), _side(b, ib, n, fb)
        explain.append([f"A: {x}" for x in sa] + [f"B: {x}" for x in sb])
        phases.append(" · ".join(f"{k}: {v}" for k, v in (("A", pa), ("B", pb)) if v))
        ta, tb = table(a, int(ia[n]), objectives), table(b, int(ib[n]), objectives)
        m = len(objectives)
        rows.append([[ra[0], ra[1], ra[2], _pair(ra[3:3 + m]), rb[1], rb[2], _pair(rb[3:3 + m]), *ra[3 + m:]]
                     for ra, rb in zip(ta, tb, strict=True)])
    names = [a.instance.objective_names[o] for o in objectives]
    truth = [f"true {n}" for n in names] if a.truth_at(0) is not None else []
    cols = ["arm", "A status", "A pulls", "A estimate", "B status", "B pulls", "B estimate", *truth]
    return {"rounds": [int(r) for r in rounds], "explain": explain, "phase": phases,
            "table": {"columns": cols, "rows": rows}, "redraw": bool(redraw)}


def _pair(cells: Sequence[str]) -> str:
    """Estimates of several objectives in one cell, without their half-widths: "(0.512, 0.301)"."""
    return "–" if any(c == "–" for c in cells) else "(" + ", ".join(c.split(" ± ")[0] for c in cells) + ")"


# ---------------------------------------------------------------------------------------------- the run's outcome
REGRET_WORDS = {"pareto_regret": "cumulative Pareto regret", "effective_regret": "cumulative effective Pareto regret"}


def outcome(trace: Trace) -> str:
    """How a run ended, in plain text: the rounds played (or the stopping round), the recommended set and whether it
    is the true Pareto set, the total regrets, and `regret_note` where the effective regret exceeds the Pareto
    regret."""
    inst = trace.instance
    if trace.stopped_at is not None:
        text = f"{trace.algorithm} stopped at round {trace.stopped_at:,}"
    else:
        text = f"{trace.algorithm} played {words.count(trace.rounds, 'round')}"
    if trace.recommendation is not None:
        text += "; recommended: " + (words.listed(inst.arm_names[i] for i in trace.recommendation) or "no arm")
        if inst.kind != "contextual" and trace.truth_known:
            right = set(trace.recommendation) == set(inst.pareto_set)
            text += " (the true Pareto set)" if right else " (not the true Pareto set)"
    totals = [f"{label} {float(trace.metrics[key].sum()):.4g}" for key, label in REGRET_WORDS.items()
              if key in trace.metrics]
    text += ("; " + ", ".join(totals) if totals else "") + "."
    note = regret_note(trace)
    return f"{text} {note}" if note else text


def regret_note(trace: Trace, tol: float = 1e-9) -> str | None:
    """Why the effective Pareto regret exceeds the Pareto regret, where it does (None otherwise).

    A pull's effective gap is never below its Pareto gap (MOL-TS Def. 3 and 6: a mixture of arms includes each arm
    alone). The difference comes from pulls of arms that no arm beats on every objective (Pareto gap 0) but a mixture
    of other arms does (effective gap > 0), named with their effective gap, and from dominated arms lying farther
    below the convex hull than below the Pareto front.
    """
    m = trace.metrics
    if "pareto_regret" not in m or "effective_regret" not in m:
        return None
    par, eff = np.asarray(m["pareto_regret"], dtype=float), np.asarray(m["effective_regret"], dtype=float)
    total_p, total_e = float(par.sum()), float(eff.sum())
    if total_e - total_p <= tol * max(1.0, total_e):
        return None
    off = (par <= tol) & (eff > tol)
    n, cost, rest = int(off.sum()), float(eff[off].sum()), total_e - total_p - float(eff[off].sum())
    text = f"Why the effective Pareto regret ({total_e:.4g}) is above the Pareto regret ({total_p:.4g}):"
    if n and trace.snapshot_means is None:  # fixed means: the same arms every round
        arms = sorted({int(a) for a in np.asarray(trace.arms)[off]})
        gaps = words.listed(f"{trace.instance.effective_gaps[a]:.3g}" for a in arms)
        who = words.listed(trace.instance.arm_names[a] for a in arms)
        one = len(arms) == 1
        text += (f" {n:,} of the {words.count(trace.rounds, 'pull')} went to {who}, which no single arm beats on every "
                 f"objective but a mixture of other arms does, by {gaps} ({'its' if one else 'their'} effective "
                 f"{words.noun(len(arms), 'gap')}): those pulls cost nothing in Pareto regret and {cost:.4g} in "
                 "effective regret.")
    elif n:
        text += (f" in {n:,} of the {words.count(trace.rounds, 'round')}, no single arm of that round beat the pulled "
                 f"arm on every objective, but a mixture of other arms did: those pulls cost nothing in Pareto regret "
                 f"and {cost:.4g} in effective regret.")
    if rest > tol * max(1.0, total_e):
        share = f"The other {rest:.4g} come" if n else f"All of the difference ({rest:.4g}) comes"
        text += (f" {share} from pulls of dominated arms, which lie farther below the effective front (the convex "
                 "hull) than below the Pareto front.")
    return text
