"""The metric curves up to the current round (`Curves`) and the pull counts per arm (`Pulls`) of the animated figure.

Decision (ours): the curves are, for the regret task, the cumulative Pareto and effective Pareto regret; for
identification, the number of undecided (active) arms and the 0/1 error of the recommendation; lexicographic, the
cumulative general regret of each objective (LexMOSLB Fig. 2); risk-averse, the simple regret. A logged run without
its true means (`Trace.from_log`) has no regret: its curves are the mean reward observed so far in each drawn
objective (what the log knows; in the objective's own orientation), unless it logged statuses that decide arms (then
the undecided arms, as identification).
"""

from __future__ import annotations

import numpy as np

from ..algorithms.base import ACTIVE
from .frames import Context, Panel, frame_indices, num, status_of
from .objective_space import STATUS_RGB
from .palette import INK, STATUS_COLORS

ROUND_LINE_REACH = 10  # the current round's line, in plain y ranges: past the top of any the curves' legend raises
MAX_CURVE_POINTS = 60  # per frame: a growing curve thinned to this many points (else frames grow as n^2)
# Curves of one run: black, then the series colours (a lexicographic run has up to five objectives).
CURVE_COLORS = ("#000000", "#0072B2", "#D55E00", "#009E73", "#CC79A7")


def legend2_px(font: int) -> tuple[float, float, float, float]:
    """The curves' legend at ``font`` px: a row, the line sample, a character, the padding (measured against the drawn
    legend at 16 px: 24, 46, 6.5 and 10 px; a row and a character grow with the font)."""
    return 1.5 * font, 46.0, 6.5 * font / 16, 10.0


def curve_series(ctx: Context, task: str) -> tuple[str, list[tuple[str, np.ndarray]]]:
    """The panel title and the named curves (one value per frame) for the trace's task."""
    tr = ctx.trace
    rounds = np.array([ctx.snap(n).t for n in range(len(ctx.idx))])
    at = np.clip(rounds, 1, max(tr.rounds, 1)) - 1

    def cum(name: str) -> np.ndarray:
        return np.cumsum(tr.metrics[name])[at] if len(tr.metrics[name]) else np.zeros(len(at))

    def inst(name: str) -> np.ndarray:
        return np.asarray(tr.metrics[name], dtype=float)[at]

    undecided = ("arms still undecided", np.array([(status_of(ctx.snap(n)) == ACTIVE).sum()
                                                   for n in range(len(ctx.idx))], dtype=float))
    m = tr.metrics
    if not tr.truth_known and not (status_of(ctx.snap(len(ctx.idx) - 1)) != ACTIVE).any():
        return "mean reward so far", _mean_rewards(ctx, at)
    if task == "identify":
        series = [undecided] + ([("error (1 = wrong set)", inst("error"))] if "error" in m else [])
        return "undecided, error", series
    if task == "lexicographic":
        lex = sorted((k for k in m if k.startswith("lex_regret_")), key=lambda k: int(k.rsplit("_", 1)[1]))
        if lex:
            return "cumulative regret", [(f"objective {k.rsplit('_', 1)[1]}", cum(k)) for k in lex]
    if task == "risk-averse" and "simple_regret" in m:
        return "simple regret", [("simple regret", inst("simple_regret"))]
    named = [("pareto_regret", "Pareto regret"), ("effective_regret", "effective Pareto regret")]
    series = [(label, cum(k)) for k, label in named if k in m]
    if series:
        return "cumulative regret", series
    return "undecided arms", [undecided]


def _mean_rewards(ctx: Context, at: np.ndarray) -> list[tuple[str, np.ndarray]]:
    """The mean reward observed over rounds 1..t+1 (``at`` = t) in each drawn objective, in its own orientation."""
    tr = ctx.trace
    names = tr.instance.objective_names
    means = np.cumsum(tr.rewards[:, list(ctx.objectives)], axis=0) / np.arange(1, tr.rounds + 1)[:, None]
    return [(names[o], means[at, i] * ctx.signs[i]) for i, o in enumerate(ctx.objectives)]


class Curves(Panel):
    """The metric curves up to the current round, and a vertical line at that round."""

    def __init__(self, ctx: Context, task: str, axis: int, domain, dash: str = "solid",
                 marks_round: bool = True) -> None:
        self.ctx, self.a, self.domain, self.dash, self.marks_round = ctx, axis, domain, dash, marks_round
        self.prefix, self.listed = "", True  # a race names its runs' curves ("A: ") or lists one run's only
        self.title, self.series = curve_series(ctx, task)
        self.rounds = np.array([ctx.snap(n).t for n in range(len(ctx.idx))], dtype=float)
        vals = np.concatenate([v for _, v in self.series])
        lo, hi = min(0.0, float(np.nanmin(vals))), float(np.nanmax(vals))
        self.yrange = [lo, hi * 1.08 if hi > 0 else 1.0]
        self.xmax = float(ctx.rounds[-1])
        self.x_title = "round t"

    def _ref(self) -> dict:
        return {"xaxis": f"x{self.a}", "yaxis": f"y{self.a}"}

    def styles(self) -> list[dict]:
        out = []
        for i, (name, _) in enumerate(self.series):
            label = self.prefix + name
            out.append({"type": "scatter", "mode": "lines", "name": label, "legendgroup": label,
                        "showlegend": self.listed,
                        "line": {"color": CURVE_COLORS[i % len(CURVE_COLORS)], "width": 4, "dash": self.dash},
                        "hovertemplate": "round %{x}: %{y:.3g}<extra>" + label + "</extra>", "legend": "legend2",
                        **self._ref()})
        if self.marks_round:
            out.append({"type": "scatter", "mode": "lines", "name": "current round", "showlegend": False,
                        "line": {"color": STATUS_COLORS["pulled"], "width": 2, "dash": "dot"}, "hoverinfo": "skip",
                        **self._ref()})
        return out

    def data(self, n: int) -> list[dict]:
        keep = frame_indices(n + 1, MAX_CURVE_POINTS)
        x = self.rounds[keep].astype(int).tolist()
        out = [{"x": x, "y": num(v[keep])} for _, v in self.series]
        if self.marks_round:  # to the top of any range `legend_place` gives (the axis clips the rest)
            t = int(self.ctx.rounds[n])
            lo, hi = self.yrange
            out.append({"x": [t, t], "y": [lo, lo + (hi - lo) * ROUND_LINE_REACH]})
        return out

    def legend_place(self, width: float, panels: float) -> tuple[str, float, list[float]]:
        """Where its legend goes when its panel is ``width`` px wide and shares ``panels`` px of height with the pulls
        below: the top corner ("left" or "right") whose curves stay lower under the legend's box (estimated from its
        entries, `legend2_px`), the panel's height and its y range. Where the curves reach into the box in its corner,
        the legend takes its room from both panels alike and the range rises until they pass under it: no curve is
        hidden, and the curves keep the height the pulls have. Otherwise the two panels are equal, the range plain.
        """
        row, sample, char, pad = legend2_px(self.ctx.text.legend)
        names = [self.prefix + name for name, _ in self.series] if self.listed else []
        box_w = min(1.0, (sample + char * max(map(len, names), default=0) + pad) / width)
        legend = row * len(names) + pad + 4  # and a curve's 4 px line below it
        vals = np.array([v for _, v in self.series], dtype=float)
        x = self.rounds / (self.xmax * 1.02)
        lo, top = self.yrange
        reach = {corner: np.nanmax(vals[:, under], initial=lo)  # the highest curve point under the box
                 for corner, under in (("left", x <= box_w + 0.02), ("right", x >= 1 - box_w))}
        corner = "right" if reach["right"] < reach["left"] else "left"
        clear = reach[corner]
        if clear <= top - legend / (panels / 2) * (top - lo):
            return corner, panels / 2, [lo, top]
        height = (panels + legend) / 2
        share = min(legend / height, 0.8)  # a legend taller than the two panels: the curves keep a fifth
        return corner, height, [lo, round(float(max(top, (clear - share * lo) / (1 - share))), 6)]

    def axes(self) -> dict:
        """Its axes, and its own legend inside its top-left corner (a page's layouts move it: `legend_place`)."""
        xd, yd = self.domain
        return {f"xaxis{self.a}": {"domain": list(xd), "anchor": f"y{self.a}", "title": {"text": self.x_title},
                                   "range": [0, self.xmax * 1.02]},
                f"yaxis{self.a}": {"domain": list(yd), "anchor": f"x{self.a}", "range": self.yrange},
                # rows without Plotly's gap between groups: five objectives' entries fit a 1366x768 panel
                "legend2": {"x": xd[0] + 0.01, "y": yd[1], "xanchor": "left", "yanchor": "top",
                            "bgcolor": "rgba(255,255,255,0.85)", "font": {"size": self.ctx.text.legend, "color": INK},
                            "traceorder": "normal", "tracegroupgap": 0}}


class Pulls(Panel):
    """Pull counts per arm, bars coloured by status, the pulled arm outlined."""

    def __init__(self, ctx: Context, axis: int, domain) -> None:
        self.ctx, self.a, self.domain = ctx, axis, domain
        self.ymax = float(max(np.max(ctx.snap(n).counts) for n in range(len(ctx.idx)))) * 1.1 or 1.0

    def styles(self) -> list[dict]:
        return [{"type": "bar", "name": "pulls per arm", "showlegend": False, "xaxis": f"x{self.a}",
                 "yaxis": f"y{self.a}", "hovertemplate": "arm %{x}: %{y} pulls<extra></extra>"}]

    def data(self, n: int) -> list[dict]:
        snap = self.ctx.snap(n)
        status = status_of(snap)
        width = [0.0] * self.ctx.K
        if snap.pulled is not None:
            width[snap.pulled] = 4.0
        return [{"x": list(range(self.ctx.K)), "y": np.asarray(snap.counts).astype(int).tolist(),
                 "marker": {"color": [STATUS_RGB[s] for s in status],
                            "line": {"color": STATUS_COLORS["pulled"], "width": width}}}]

    def axes(self) -> dict:
        xd, yd = self.domain
        K = self.ctx.K
        # every how many arms are labelled: the page's layout (`layouts.arm_step`, for the panel's width)
        return {f"xaxis{self.a}": {"domain": list(xd), "anchor": f"y{self.a}", "title": {"text": "arm"},
                                   "range": [-0.6, K - 0.4]},
                f"yaxis{self.a}": {"domain": list(yd), "anchor": f"x{self.a}", "range": [0, self.ymax]}}
