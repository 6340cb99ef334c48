"""Figures: structure of the animated figure against the snapshots and the core Pareto math,
JSON size limits, the lexicographic / risk-averse / contextual layouts, and the static charts."""

from __future__ import annotations

import base64
import math

import numpy as np
import pandas as pd
import plotly.graph_objects as go
import pytest

import banditviz as bv
from banditviz import instances, pareto
from banditviz.algorithms.base import ACCEPTED, ACTIVE, CANDIDATE, REJECTED, STATUS_NAMES, RoundState
from banditviz.figures import (
    STATUS_COLORS,
    animate,
    instance_preview,
    pull_counts,
    race,
    regret_curves,
    sample_complexity_chart,
    success_rate_chart,
)
from banditviz.figures import geometry as geo
from banditviz.figures.curves import MAX_CURVE_POINTS
from banditviz.figures.frames import frame_indices, num
from banditviz.figures.layouts import every_path, value_at
from banditviz.figures.objective_space import BOX_LABEL, CUT_LABEL, TRUE_MEAN_LABEL
from banditviz.figures.palette import rgba
from banditviz.figures.playback import SPEEDS
from banditviz.figures.static import wilson_interval

# ---------------------------------------------------------------------------------------------- helpers


def moving(fig_dict: dict, n: int) -> dict[str, list[dict]]:
    """Frame n's trace dicts keyed by the name of the base trace they update (a name may repeat)."""
    frame = fig_dict["frames"][n]
    out: dict[str, list[dict]] = {}
    for idx, data in zip(frame["traces"], frame["data"], strict=True):
        base = fig_dict["data"][idx]
        out.setdefault(base["name"], []).append({**base, **data})
    return out


def arr(values) -> np.ndarray:
    """Coordinates as floats (NaN for gaps) from a list, an array or a Plotly typed-array spec."""
    if isinstance(values, dict):
        return np.frombuffer(base64.b64decode(values["bdata"]), dtype=np.dtype(values["dtype"])).astype(float)
    return np.array([np.nan if v is None else v for v in values], dtype=float)


def polygons(x, y) -> list[np.ndarray]:
    """Split a None-separated polyline into its pieces (each m x 2)."""
    pts = np.column_stack([arr(x), arr(y)])
    out, cur = [], []
    for p in pts:
        if np.isnan(p).any():
            if cur:
                out.append(np.array(cur))
            cur = []
        else:
            cur.append(p)
    if cur:
        out.append(np.array(cur))
    return out


def polygons3(trace: dict) -> list[np.ndarray]:
    """The NaN-separated pieces of a 3-D polyline trace (each m x 3)."""
    pts = np.column_stack([arr(trace["x"]), arr(trace["y"]), arr(trace["z"])])
    cuts = np.flatnonzero(np.isnan(pts).any(axis=1))
    pieces = [piece[~np.isnan(piece).any(axis=1)] for piece in np.split(pts, cuts)]
    return [piece for piece in pieces if len(piece)]


def view(fig_dict: dict, axis: str) -> np.ndarray:
    lay = fig_dict["layout"]
    return np.array([lay[f"xaxis{axis}"]["range"], lay[f"yaxis{axis}"]["range"]])


def oriented(snap: RoundState, arm: int, objectives=(0, 1), signs=(1.0, 1.0)) -> list[tuple[float, float]]:
    """(low, high) of one arm's box per drawn objective in display orientation, NaN as unbounded."""
    out = []
    for j, o in enumerate(objectives):
        lo, hi = snap.lower[arm, o], snap.upper[arm, o]
        lo = -math.inf if math.isnan(lo) else lo
        hi = math.inf if math.isnan(hi) else hi
        out.append(tuple(sorted((lo * signs[j], hi * signs[j]))))
    return out


def clipped(snap: RoundState, arm: int, ranges: np.ndarray, signs=(1.0, 1.0)) -> tuple[tuple, tuple, tuple, tuple]:
    """Independently: one arm's box clipped to the view ((x0, x1), (y0, y1)), and which of its sides are in the view
    ((left, right), (bottom, top))."""
    (x0, x1), (y0, y1) = oriented(snap, arm, signs=signs)
    clip = ((max(x0, ranges[0, 0]), min(x1, ranges[0, 1])), (max(y0, ranges[1, 0]), min(y1, ranges[1, 1])))
    return clip[0], clip[1], (x0 >= ranges[0, 0], x1 <= ranges[0, 1]), (y0 >= ranges[1, 0], y1 <= ranges[1, 1])


def expected_boxes(snap: RoundState, ranges: np.ndarray, signs=(1.0, 1.0)) -> np.ndarray:
    """Independently: every drawn arm's box clipped to the view, rows (xmin, xmax, ymin, ymax), sorted; a box over
    the whole view (every side cut) has no fill, only its marks."""
    rows = [[*x, *y] for arm in range(snap.estimates.shape[0]) if np.isfinite(snap.estimates[arm, :2]).all()
            for x, y, horizontal, vertical in [clipped(snap, arm, ranges, signs)] if any(horizontal + vertical)]
    return np.array(sorted(rows))


def expected_sides(snap: RoundState, ranges: np.ndarray, arms) -> list[tuple]:
    """Independently: the in-view sides of the boxes of ``arms`` (each side as sorted end points), sorted."""
    sides = []
    for arm in arms:
        (cx0, cx1), (cy0, cy1), (left, right), (bottom, top) = clipped(snap, arm, ranges)
        for keep, side in ((bottom, ((cx0, cy0), (cx1, cy0))), (top, ((cx0, cy1), (cx1, cy1))),
                           (left, ((cx0, cy0), (cx0, cy1))), (right, ((cx1, cy0), (cx1, cy1)))):
            if keep:
                sides.append(side)
    return sorted(sides)


def expected_marks(snap: RoundState, ranges: np.ndarray) -> list[tuple]:
    """Independently: (arm, direction as a triangle's angle from up, position along the edge: the estimate's) of
    each mark of a side the view cuts."""
    marks = []
    for arm in range(snap.estimates.shape[0]):
        if not np.isfinite(snap.estimates[arm, :2]).all():
            continue
        _, _, (left, right), (bottom, top) = clipped(snap, arm, ranges)
        ex, ey = snap.estimates[arm, :2]
        for inside, name, along in ((left, 270, ey), (right, 90, ey), (bottom, 180, ex), (top, 0, ex)):
            if not inside:
                marks.append((arm, name, along))
    return sorted(marks)


def rgba_alpha(colour: str) -> float:
    return float(colour.rsplit(",", 1)[1].rstrip(")"))


def drawn_boxes(traces: list[dict]) -> np.ndarray:
    rows = []
    for t in traces:
        x = arr(t["x"])
        if x.size == 1 and np.isnan(x[0]):  # the legend entry, x = [None]
            continue
        for poly in polygons(t["x"], t["y"]):
            assert poly.shape == (5, 2) and np.allclose(poly[0], poly[-1])
            rows.append([poly[:, 0].min(), poly[:, 0].max(), poly[:, 1].min(), poly[:, 1].max()])
    return np.array(sorted(rows))


def tolerance(fig_dict: dict, axis: str = "3") -> float:
    """Rounding of the drawn coordinates: 1e-4 of the smallest axis span (to the power of ten below)."""
    r = view(fig_dict, axis)
    return 1.01e-4 * 10 ** math.floor(math.log10(float(np.min(r[:, 1] - r[:, 0]))))


@pytest.fixture(scope="module")
def ucb_trace():
    return bv.run(bv.preset("default"), "pareto_ucb1", 2000, seed=1)


@pytest.fixture(scope="module")
def ucb_fig(ucb_trace):
    return animate(ucb_trace).to_dict()


# ---------------------------------------------------------------------------------------------- palette


def test_palette_has_every_status_and_overlay_with_distinct_colours():
    keys = set(STATUS_NAMES) | {"pulled", "true", "front", "hull"}
    assert keys <= set(STATUS_COLORS)
    assert len({STATUS_COLORS[k] for k in keys}) == len(keys)


# ---------------------------------------------------------------------------------------------- frames


def test_frame_indices_keep_ends_and_the_dense_early_profile():
    idx = frame_indices(1000, 300)
    assert len(idx) == 300 and idx[0] == 0 and idx[-1] == 999 and np.all(np.diff(idx) > 0)
    assert frame_indices(40, 300).tolist() == list(range(40))


def test_num_rounds_and_turns_nan_into_gaps():
    assert num([[0.123456, np.nan], [-1.5, 2.0]], 3) == [0.123, None, -1.5, 2.0]
    assert geo.decimals_for(np.array([[0.0, 1.0], [0.0, 0.05]])) == 6


def test_frames_slider_and_controls(ucb_trace, ucb_fig):
    assert len(ucb_fig["frames"]) == len(ucb_trace.snapshots) == 200
    steps = ucb_fig["layout"]["sliders"][0]["steps"]
    assert [s["label"] for s in steps] == [str(s.t) for s in ucb_trace.snapshots]
    menus = ucb_fig["layout"]["updatemenus"]
    labels = [b["label"] for m in menus for b in m["buttons"]]
    assert any("play" in lab for lab in labels) and any("pause" in lab for lab in labels)
    assert sum("speed" in lab for lab in labels) == len(SPEEDS)  # the player's speeds (one table)
    # every frame drawn whole: Plotly's fast path (redraw False) leaves a bar's colours and an emptied trace's marks
    assert all(b["args"][1]["frame"]["redraw"] is True for m in menus for b in m["buttons"])


def test_max_frames_subsamples_snapshots(ucb_trace):
    d = animate(ucb_trace, max_frames=50).to_dict()
    rounds = [int(s["label"]) for s in d["layout"]["sliders"][0]["steps"]]
    assert len(d["frames"]) == 50 and rounds[0] == 1 and rounds[-1] == 2000
    assert rounds[1] - rounds[0] < rounds[-1] - rounds[-2]  # dense early, sparse late


@pytest.mark.parametrize("n", [0, 3, 12, 60, 199])
def test_every_box_is_drawn_clipped_to_the_view_its_fill_fading_as_it_widens(ucb_trace, ucb_fig, n):
    """From round 1 on every arm with an estimate has its box drawn, clipped to the view: a closed rectangle in one of
    the fill traces, the fainter the wider the box (its largest extent as a share of the view: <= 15%, <= 40%, more).
    """
    fills = [t for t in moving(ucb_fig, n).get(BOX_LABEL, []) if t.get("fill") == "toself"]
    assert [rgba_alpha(t["fillcolor"]) for t in fills] == sorted((rgba_alpha(t["fillcolor"]) for t in fills),
                                                                 reverse=True)
    r = view(ucb_fig, "3")
    want = expected_boxes(ucb_trace.snapshots[n], r)
    np.testing.assert_allclose(drawn_boxes(fills), want, atol=tolerance(ucb_fig))
    span = r[:, 1] - r[:, 0]
    for level, t in enumerate(fills):
        for box in drawn_boxes([t]):
            width = max((box[1] - box[0]) / span[0], (box[3] - box[2]) / span[1])
            assert level == (0 if width <= 0.15 else 1 if width <= 0.4 else 2), (box, width)
    if n < 10:  # early: every box is wider than the view: each of the n + 1 arms seen has 4 marks, or a fill
        marks = moving(ucb_fig, n)[CUT_LABEL][0]["customdata"]
        assert {a for a in range(10) if marks.count(a) == 4} | {a for a in range(10) if a in marks} == set(range(n + 1))


@pytest.mark.parametrize("n", [0, 12, 30, 60, 199])
def test_box_outlines_are_their_sides_in_the_view_and_cut_sides_are_marked(ucb_trace, ucb_fig, n):
    """Each status's outline trace holds exactly its arms' in-view sides (open where the view cuts a box); each cut
    side has a triangle on the view's edge, at the middle of the box along it, pointing the way the box goes on, in
    the arm's status colour; the pulled arm's box is outlined again, in the pulled colour."""
    snap, frame, r = ucb_trace.snapshots[n], moving(ucb_fig, n), view(ucb_fig, "3")
    seen = np.isfinite(snap.estimates).all(axis=1)
    outlines = [t for t in frame[BOX_LABEL] if t.get("fill") != "toself"]
    for t in outlines:
        status = [k for k, c in STATUS_COLORS.items() if t["line"]["color"] == rgba(c, 0.9)][0]
        arms = [a for a in np.flatnonzero(seen) if STATUS_NAMES[snap.status[a]] == status]
        drawn = sorted(tuple(sorted((tuple(a), tuple(b)))) for line in polygons(t["x"], t["y"])
                       for a, b in zip(line[:-1], line[1:], strict=True))  # each side of each polyline
        want = expected_sides(snap, r, arms)
        assert len(drawn) == len(want)
        for got, exp in zip(drawn, want, strict=True):
            np.testing.assert_allclose(np.array(got), np.array(exp), atol=tolerance(ucb_fig))
    mine = frame["box of the arm pulled"][0]
    assert sum(len(line) - 1 for line in polygons(mine["x"], mine["y"])) == len(expected_sides(snap, r, [snap.pulled]))
    marks = frame[CUT_LABEL][0]
    along = [y if a in (90, 270) else x for x, y, a in zip(marks["x"], marks["y"], marks["marker"]["angle"],
                                                            strict=True)]
    got = sorted(zip(marks["customdata"], marks["marker"]["angle"], along, strict=True))
    want = expected_marks(snap, r)
    assert [g[:2] for g in got] == [w[:2] for w in want]
    np.testing.assert_allclose([g[2] for g in got], [w[2] for w in want], atol=tolerance(ucb_fig))
    assert marks["marker"]["color"] == [STATUS_COLORS[STATUS_NAMES[snap.status[a]]] for a in marks["customdata"]]


def test_boxes_inside_the_view_are_exactly_the_bounds(ucb_trace, ucb_fig):
    snap = ucb_trace.snapshots[-1]
    r = view(ucb_fig, "3")
    inside = np.all((snap.lower > r[:, 0]) & (snap.upper < r[:, 1]), axis=1)
    assert inside.sum() >= 3
    drawn = drawn_boxes([t for t in moving(ucb_fig, 199)[BOX_LABEL] if t.get("fill") == "toself"])
    for a in np.flatnonzero(inside):
        box = np.array([snap.lower[a, 0], snap.upper[a, 0], snap.lower[a, 1], snap.upper[a, 1]])
        assert np.abs(drawn - box).max(axis=1).min() <= tolerance(ucb_fig)


@pytest.mark.parametrize("n", [3, 40, 199])
def test_front_and_hull_traces_equal_the_core_pareto_math(ucb_trace, ucb_fig, n):
    snap = ucb_trace.snapshots[n]
    seen = np.isfinite(snap.estimates).all(axis=1)
    est = snap.estimates[seen]
    tr = moving(ucb_fig, n)
    tol = tolerance(ucb_fig)
    stair = tr["estimated Pareto front"][0]
    sx, sy = pareto.pareto_staircase_2d(est)
    np.testing.assert_allclose(arr(stair["x"]), sx, atol=tol)
    np.testing.assert_allclose(arr(stair["y"]), sy, atol=tol)
    hull = tr["estimated effective front"][0]
    pts = np.column_stack([arr(hull["x"]), arr(hull["y"])])
    np.testing.assert_allclose(pts, est[pareto.upper_hull_2d(est)], atol=tol)
    # independent: the chain's vertices are the effective Pareto arms, the staircase corners the Pareto arms
    eff = est[pareto.effective_pareto_mask(est)]
    assert sorted(map(tuple, np.round(pts, 3))) == sorted(map(tuple, np.round(eff, 3)))
    corners = {tuple(p) for p in np.round(np.column_stack([sx, sy]), 3)}
    assert {tuple(p) for p in np.round(est[pareto.pareto_mask(est)], 3)} <= corners


def test_estimates_status_colours_and_pulled_arm(ucb_trace, ucb_fig):
    for n in (5, 100, 199):
        snap = ucb_trace.snapshots[n]
        est = moving(ucb_fig, n)["estimated mean"][0]
        np.testing.assert_allclose(arr(est["x"]), snap.estimates[:, 0], atol=tolerance(ucb_fig))
        assert est["marker"]["color"] == [STATUS_COLORS[STATUS_NAMES[s]] for s in snap.status]
        ring = moving(ucb_fig, n)["arm pulled at this round"][0]
        np.testing.assert_allclose(arr(ring["x"]), [snap.estimates[snap.pulled, 0]], atol=tolerance(ucb_fig))
        bars = moving(ucb_fig, n)["pulls per arm"][0]
        assert bars["y"] == snap.counts.tolist()


def test_regret_curve_grows_to_the_current_round(ucb_trace, ucb_fig):
    n = 120
    curve = moving(ucb_fig, n)["Pareto regret"][0]
    rounds = [s.t for s in ucb_trace.snapshots[:n + 1]]
    x = curve["x"]  # thinned to at most MAX_CURVE_POINTS snapshot rounds, first and current kept
    assert len(x) <= MAX_CURVE_POINTS and x[0] == rounds[0] and x[-1] == rounds[-1] and set(x) <= set(rounds)
    assert x == sorted(x)
    np.testing.assert_allclose(arr(curve["y"]), np.cumsum(ucb_trace.metrics["pareto_regret"])[np.array(x) - 1],
                               atol=1e-4)
    line = moving(ucb_fig, n)["current round"][0]
    assert line["x"] == [rounds[-1]] * 2


def test_figure_passes_plotly_validation(ucb_trace):
    fig = animate(ucb_trace, max_frames=15)
    go.Figure(fig.to_dict())  # full validation of every frame: raises on a bad attribute


@pytest.mark.parametrize("algorithm", ["uniform", "pareto_ucb1", "pareto_ts", "mo_epsilon_greedy"])
def test_default_watch_run_is_under_2_mb(algorithm):
    tr = bv.run(bv.preset("default"), algorithm, 2000, seed=0, snapshots=200)
    fig = animate(tr)
    assert len(fig.frames) == 200
    assert len(fig.to_json()) < 2_000_000


# ---------------------------------------------------------------------------------------------- 3-D


@pytest.fixture(scope="module")
def trace_3d():
    return bv.run(bv.preset("default_3d"), "pareto_ts", 1500, seed=3)


def test_3d_cuboids_facets_and_front(trace_3d):
    d = animate(trace_3d).to_dict()
    assert all(b["args"][1]["frame"]["redraw"] for b in d["layout"]["updatemenus"][0]["buttons"])
    r = np.array([d["layout"]["scene"][f"{a}axis"]["range"] for a in "xyz"])
    tol = 1.01e-3 * 10 ** math.floor(math.log10(float(np.min(r[:, 1] - r[:, 0]))))
    shown = frame_indices(len(trace_3d.snapshots), len(d["frames"]))  # a frame's snapshot (a budget may thin them)
    for n in (20, len(d["frames"]) - 1):
        snap = trace_3d.snapshots[shown[n]]
        tr = moving(d, n)
        seen = np.isfinite(snap.estimates).all(axis=1)
        edges = [np.array(e) for t in tr[BOX_LABEL] for p in polygons3(t)  # every cuboid, open where the view cuts it
                 for e in zip(p[:-1], p[1:], strict=True)]
        want = 0
        for a in np.flatnonzero(seen):
            faces = np.r_[snap.lower[a] >= r[:, 0], snap.upper[a] <= r[:, 1]].astype(int)
            # an edge along axis b lies on one face of each other axis: drawn when both are in the view
            want += sum(faces[(b + 1) % 3 + 3 * s1] * faces[(b + 2) % 3 + 3 * s2]
                        for b in range(3) for s1 in (0, 1) for s2 in (0, 1))
        assert len(edges) == want > 0
        for seg in edges:
            assert seg.shape == (2, 3) and (np.abs(seg[0] - seg[1]) > 1e-9).sum() == 1  # one axis-parallel edge
            assert ((seg >= r[:, 0] - tol) & (seg <= r[:, 1] + tol)).all()
        inside = np.flatnonzero(seen & ((snap.lower >= r[:, 0]) & (snap.upper <= r[:, 1])).all(axis=1))
        corners = {tuple(np.round(p, 3)) for seg in edges for p in seg}
        for a in inside:  # a cuboid in the view: its two extreme corners are drawn where its bounds are
            for corner in (snap.lower[a], snap.upper[a]):
                assert min(np.abs(np.array(c) - corner).max() for c in corners) <= tol
        ok = np.flatnonzero(seen)
        facets = tr["estimated effective front"][0]
        got = np.column_stack([facets["i"], facets["j"], facets["k"]])
        want = ok[pareto.efficient_facets_3d(snap.estimates[ok])]
        assert sorted(map(tuple, np.sort(got, axis=1))) == sorted(map(tuple, np.sort(want, axis=1)))
        front = tr["estimated Pareto front"][0]
        pts = np.column_stack([arr(front["x"]), arr(front["y"]), arr(front["z"])])
        np.testing.assert_allclose(pts, snap.estimates[ok][pareto.pareto_mask(snap.estimates[ok])], atol=tol)


def test_3d_k30_run_keeps_to_the_json_budget_and_starts_with_cuboids_hidden():
    """30 cuboids every frame: the frame budget thins the 200 snapshots (to 69 measured) to stay under 2 MB."""
    tr = bv.run(instances.uniform_box(30, 3), "pareto_ucb1", 2000, seed=0, snapshots=200)
    fig = animate(tr)
    assert 60 <= len(fig.frames) < 200 and len(fig.to_json()) < 2_000_000
    boxes = [t for t in fig.to_dict()["data"] if t.get("legendgroup") == "boxes"]
    assert len(boxes) >= 2 and all(t["visible"] == "legendonly" for t in boxes)


def test_3d_few_arms_show_cuboids(trace_3d):
    boxes = [t for t in animate(trace_3d, max_frames=5).to_dict()["data"] if t.get("legendgroup") == "boxes"]
    assert boxes and all(t.get("visible", True) is True for t in boxes)


def test_3d_figure_passes_plotly_validation(trace_3d):
    go.Figure(animate(trace_3d, max_frames=10).to_dict())


# ---------------------------------------------------------------------------------------------- L > 3


def test_chosen_pair_of_four_objectives():
    tr = bv.run(instances.uniform_box(8, 4), "pareto_ucb1", 300, seed=0, snapshots=30)
    d = animate(tr, objectives=(0, 2)).to_dict()
    assert d["layout"]["xaxis3"]["title"]["text"] == "objective 1"
    assert d["layout"]["yaxis3"]["title"]["text"] == "objective 3"
    snap = tr.snapshots[-1]
    est = moving(d, len(d["frames"]) - 1)["estimated mean"][0]
    np.testing.assert_allclose(arr(est["y"]), snap.estimates[:, 2], atol=1e-3)
    stair = moving(d, len(d["frames"]) - 1)["estimated Pareto front"][0]
    sx, _ = pareto.pareto_staircase_2d(snap.estimates[:, [0, 2]])
    np.testing.assert_allclose(arr(stair["x"]), sx, atol=1e-3)
    assert "scene" in animate(tr, objectives=(1, 2, 3)).to_dict()["layout"]


@pytest.mark.parametrize("bad", [(0,), (0, 0), (0, 4), (0, 1, 2, 3), "ab", 5])
def test_bad_objectives_raise(bad):
    tr = bv.run(instances.uniform_box(8, 4), "uniform", 50, seed=0, snapshots=5)
    with pytest.raises(ValueError, match="objectives"):
        animate(tr, objectives=bad)


def test_bad_inputs_raise(ucb_trace):
    with pytest.raises(ValueError, match="trace"):
        animate("not a trace")
    with pytest.raises(ValueError, match="max_frames"):
        animate(ucb_trace, max_frames=1000)
    empty = bv.run(bv.preset("default"), "uniform", 20, seed=0, snapshots=0)
    with pytest.raises(ValueError, match="snapshots"):
        animate(empty)


# ---------------------------------------------------------------------------------------------- hand-built layouts


def _hand_trace(instance: bv.Instance, algorithm: str, metrics: dict, snaps: list[RoundState]) -> bv.Trace:
    T = snaps[-1].t
    return bv.Trace(instance=instance, algorithm=algorithm, params={}, seed=0, horizon=T,
                    arms=np.arange(T) % instance.K, rewards=np.zeros((T, instance.reward_dim)), metrics=metrics,
                    snapshots=snaps)


def _lex_trace() -> bv.Trace:
    """Five arms, three objectives; widths shrink and the filters drop arms objective by objective."""
    means = np.array([[0.9, 0.2, 0.5], [0.9, 0.6, 0.1], [0.5, 0.9, 0.9], [0.3, 0.3, 0.3], [0.88, 0.6, 0.4]])
    inst = bv.Instance.from_means(means, sigma=0.3, name="lex toy")
    rng = np.random.default_rng(0)
    snaps = []
    for t in (5, 50, 500):
        w = 1.0 / np.sqrt(t / 5)
        est = means + rng.normal(0, 0.05, means.shape)
        sets = ((0, 1, 4), (1, 4), (4,)) if t == 500 else ((0, 1, 2, 3, 4), (0, 1, 4), (1, 4))
        status = np.full(5, ACTIVE, dtype=np.int8)
        status[[a for a in range(5) if a not in sets[0]]] = REJECTED
        snaps.append(RoundState(t=t, estimates=est, lower=est - w, upper=est + w, status=status, front=sets[-1],
                                pulled=t % 5, counts=np.full(5, t // 5), extras={"filtered_sets": sets}))
    metrics = {f"lex_regret_{i + 1}": np.full(500, 0.01 * (i + 1)) for i in range(3)}
    return _hand_trace(inst, "hand_lex", metrics, snaps)


def test_lexicographic_layout_shows_one_strip_per_objective_with_the_filters():
    tr = _lex_trace()
    d = animate(tr).to_dict()
    assert {f"yaxis{a}" for a in (3, 4, 5)} <= set(d["layout"])
    for n, snap in enumerate(tr.snapshots):
        kept = moving(d, n)["interval kept by its filter"]
        out = moving(d, n)["interval filtered out"]
        for i in range(3):
            segs = polygons(kept[i]["x"], kept[i]["y"])
            assert sorted(int(s[0, 0]) for s in segs) == sorted(snap.extras["filtered_sets"][i])
            y_view = d["layout"][f"yaxis{3 + i}"]["range"]
            for s in segs if snap.t == 500 else []:  # narrow intervals: the bounds, clipped to the view
                a = int(s[0, 0])
                np.testing.assert_allclose(sorted(s[:, 1]), np.clip([snap.lower[a, i], snap.upper[a, i]], *y_view),
                                           atol=1e-3)
            dropped = {int(s[0, 0]) for s in polygons(out[i]["x"], out[i]["y"])}
            assert dropped == set(range(5)) - set(snap.extras["filtered_sets"][i])
    curves = moving(d, 2)
    assert {"objective 1", "objective 2", "objective 3"} <= set(curves)  # every objective's regret
    go.Figure(animate(tr).to_dict())


def _risk_trace() -> bv.Trace:
    inst = bv.Instance.from_distributions([{"family": "beta", "a": a, "b": b} for a, b in
                                           ((0.48, 0.12), (12, 12), (0.015, 0.035), (0.1069, 0.1306))], rho=0.5)
    snaps = []
    for t, beta in ((8, 0.3), (400, 0.05)):
        est = inst.means + 0.01
        status = np.array([ACCEPTED, CANDIDATE, REJECTED, ACTIVE], dtype=np.int8)
        snaps.append(RoundState(t=t, estimates=est, lower=est - beta, upper=est + beta, status=status, front=(0, 1),
                                pulled=1, counts=np.full(4, t // 4), extras={"m_t": 3, "p_t": 0, "V": np.ones(4)}))
    return _hand_trace(inst, "hand_risk", {"simple_regret": np.linspace(0.05, 0, 400)}, snaps)


def test_risk_averse_plane_draws_risk_minimised():
    tr = _risk_trace()
    d = animate(tr).to_dict()
    assert d["layout"]["yaxis3"]["title"]["text"].endswith("(minimised)")
    snap = tr.snapshots[-1]
    tr_n = moving(d, 1)
    est = tr_n["estimated mean"][0]
    np.testing.assert_allclose(arr(est["y"]), -snap.estimates[:, 1], atol=1e-5)  # xi, not -xi
    drawn = drawn_boxes([t for t in tr_n[BOX_LABEL] if t.get("fill") == "toself"])
    want = expected_boxes(snap, view(d, "3"), signs=(1.0, -1.0))
    np.testing.assert_allclose(drawn, want, atol=1e-5)
    arrow = [v for k, v in tr_n.items() if k.startswith("m<sub>t</sub>")][0][0]
    np.testing.assert_allclose(arr(arrow["x"]), snap.estimates[[3, 0], 0], atol=1e-5)
    assert "simple regret" in tr_n
    go.Figure(animate(tr).to_dict())


@pytest.mark.parametrize("present", [False, True], ids=["normal", "presenting"])
def test_every_layout_a_chart_can_take_sets_the_same_paths(ucb_trace, trace_3d, present):
    """A chart goes from one size's layout to another's (a phone turned, a window widened): each must set every path
    any other sets, or the chart keeps what the previous one put there (the stacked layout's strip domains and titles
    crushed the lexicographic strips on a laptop after a phone)."""
    page = {"controls": False, "height": 560, "present": present}  # as Watch draws them
    figs = [animate(tr, **page) for tr in (ucb_trace, trace_3d, _lex_trace(), _risk_trace())]
    figs += [race(a, b, **page) for a, b in ((ucb_trace, ucb_trace), (trace_3d, trace_3d))]
    for fig in figs:
        layouts = fig.layout.meta["bv"]["layouts"]
        every = [set(layout) for kind in ("wide", "narrow", "portrait") for layout in layouts[kind]]
        assert all(paths == every[0] for paths in every), fig.layout.title.text
        assert len(every) == 3 * len(layouts["heights"])


def test_a_path_a_layout_leaves_out_takes_the_figure_s_own_value():
    figure = {"margin": {"l": 60}, "annotations": [{"y": 0.2}, {"y": 0.9, "text": "pulls"}]}
    layouts = [{"margin.l": 20, "annotations[1].y": 0.5}, {"xaxis.nticks": 4}]
    every_path(layouts, figure)
    assert layouts == [{"margin.l": 20, "annotations[1].y": 0.5, "xaxis.nticks": None},
                       {"xaxis.nticks": 4, "annotations[1].y": 0.9, "margin.l": 60}]
    assert [value_at(figure, p) for p in ("annotations[0].y", "annotations[2].y", "margin.r", "margin.l.x")] == \
        [0.2, None, None, None]


# ------------------------------------------------------------------------ real traces of other tasks


@pytest.mark.skipif("ste2lo" not in bv.ALGORITHMS, reason="lexicographic algorithms not registered")
def test_real_lexicographic_trace():
    inst = bv.preset("lexicographic_lambda_0.1")
    tr = bv.run(inst, "ste2lo", 400, seed=0, snapshots=40)
    d = animate(tr).to_dict()
    assert f"yaxis{2 + min(inst.L, 5)}" in d["layout"]
    assert len(d["frames"]) == len(tr.snapshots)


@pytest.mark.skipif("ramgape_c" not in bv.ALGORITHMS, reason="risk-averse algorithms not registered")
def test_real_risk_averse_trace():
    tr = bv.run(bv.preset("risk_averse_easy"), "ramgape_c", 2000, seed=0, snapshots=40)
    d = animate(tr).to_dict()
    assert d["layout"]["yaxis3"]["title"]["text"].endswith("(minimised)")
    assert any(k.startswith("m<sub>t</sub>") for k in moving(d, len(d["frames"]) - 1))


@pytest.mark.skipif("mol_ts" not in bv.ALGORITHMS, reason="MOL-TS not registered")
def test_contextual_truth_moves_with_the_frames():
    tr = bv.run(bv.preset("mol_ts_2d"), "mol_ts", 200, seed=0, snapshots=20)
    d = animate(tr).to_dict()
    assert "contextual" in d["layout"]["title"]["subtitle"]["text"]
    for n in (0, len(d["frames"]) - 1):
        truth = moving(d, n)[TRUE_MEAN_LABEL][0]
        np.testing.assert_allclose(arr(truth["x"]), tr.truth_at(n)[:, 0], atol=1e-3)


# ---------------------------------------------------------------------------------------------- geometry


def test_geometry_rectangles_cuboids_and_orientation():
    lo, hi = np.array([[0.0, 1.0], [2.0, 3.0]]), np.array([[0.5, 2.0], [4.0, 3.5]])
    x, y = geo.rectangles(lo, hi)
    boxes = polygons(x, y)
    assert [b.min(axis=0).tolist() + b.max(axis=0).tolist() for b in boxes] == [[0, 1, 0.5, 2], [2, 3, 4, 3.5]]
    lo3, hi3 = np.array([[0.0, 0.0, 0.0]]), np.array([[1.0, 2.0, 3.0]])
    v = geo.cuboid_vertices(lo3, hi3)
    assert len({tuple(p) for p in v}) == 8
    assert v.min(axis=0).tolist() == [0, 0, 0] and v.max(axis=0).tolist() == [1, 2, 3]
    inside = np.ones((1, 3), dtype=bool)
    e, owner = geo.open_cuboid_edges(lo3, hi3, inside, inside)
    assert (owner == 0).all()
    segs = set()
    for a, b in zip(e[:-1], e[1:], strict=True):
        if not (np.isnan(a).any() or np.isnan(b).any()):
            assert np.sum(a != b) == 1  # every drawn segment is an edge along one axis
            segs.add(tuple(sorted((tuple(a), tuple(b)))))
    assert len(segs) == 12
    cut = np.array([[False, True, True]])  # its face x = lo cut by the view: the 4 edges on that face are gone
    assert len(geo.open_cuboid_edges(lo3, hi3, cut, inside)[0]) == 3 * 8
    lo2, hi2 = geo.oriented_bounds(np.array([[0.1, -0.3]]), np.array([[0.2, np.nan]]), np.array([1.0, -1.0]))
    assert lo2.tolist() == [[0.1, -np.inf]] and hi2.tolist() == [[0.2, 0.3]]


# ---------------------------------------------------------------------------------------------- static figures


def test_instance_preview_classes_and_gap_hover():
    inst = bv.preset("default")
    fig = instance_preview(inst)
    by = {t.name: t for t in fig.data}
    P, C = pareto.pareto_mask(inst.means), pareto.effective_pareto_mask(inst.means)
    eff = by["on the effective front (convex hull)"]
    assert sorted(eff.text) == sorted(inst.arm_names[i] for i in np.flatnonzero(C))
    mid = by["Pareto optimal, not on the effective front"]
    assert list(mid.text) == [inst.arm_names[i] for i in np.flatnonzero(P & ~C)] == ["arm 2"]
    dom = by["dominated"]
    sel = np.flatnonzero(~P)
    np.testing.assert_allclose(np.asarray(dom.customdata)[:, 0], pareto.pareto_gap(inst.means)[sel])
    np.testing.assert_allclose(np.asarray(dom.customdata)[:, 1], pareto.effective_gap(inst.means)[sel])
    sx, sy = pareto.pareto_staircase_2d(inst.means)
    np.testing.assert_allclose(by["Pareto front"].x, sx)
    assert "mesh3d" in {t.type for t in instance_preview(bv.preset("default_3d")).data}


def test_instance_preview_risk_and_contextual_and_errors():
    if "risk_averse_easy" in bv.PRESETS:
        inst = bv.preset("risk_averse_easy")
        fig = instance_preview(inst)
        assert fig.layout.yaxis.title.text.endswith("(minimised)")
        ys = np.concatenate([np.asarray(t.y, dtype=float) for t in fig.data if t.mode == "markers+text"])
        np.testing.assert_allclose(sorted(ys), sorted(-inst.means[:, 1]))  # drawn as xi, not -xi
    ctx = instances.random_contextual(6, d=3, L=2, seed=1)
    assert "sampled round" in instance_preview(ctx).layout.title.text
    with pytest.raises(ValueError, match="objectives"):
        instance_preview(bv.preset("default"), objectives=(0, 5))
    with pytest.raises(ValueError, match="instance"):
        instance_preview("default")


def _curves_frame() -> pd.DataFrame:
    rng = np.random.default_rng(0)
    rows = []
    for alg, scale in (("A", 1.0), ("B", 0.5)):
        for seed in range(3):
            for r in range(1, 51):
                rows.append({"algorithm": alg, "seed": seed, "round": r, "pareto_regret": scale * rng.random()})
    return pd.DataFrame(rows).sample(frac=1.0, random_state=1)  # order must not matter


def test_regret_curves_mean_and_standard_error_band():
    frame = _curves_frame()
    fig = regret_curves(frame, log_x=True, log_y=True)
    line = next(t for t in fig.data if t.name == "A (mean of 3 seeds)")
    band = next(t for t in fig.data if t.name == "A: ±1 standard error")
    assert sorted(t.name for t in fig.data if t.showlegend is not False) == ["A (mean of 3 seeds)",
                                                                             "B (mean of 3 seeds)"]
    assert band.legendgroup == line.legendgroup  # one legend entry per algorithm, which hides its band too
    cums = []
    for seed in range(3):
        sub = frame[(frame.algorithm == "A") & (frame.seed == seed)].sort_values("round")
        cums.append(np.cumsum(sub["pareto_regret"].to_numpy()))
    cums = np.array(cums)
    mean = cums.mean(axis=0)
    se = np.array([np.std(cums[:, k], ddof=1) / math.sqrt(3) for k in range(50)])
    np.testing.assert_allclose(line.y, mean)
    np.testing.assert_allclose(band.y[:50], mean + se)
    np.testing.assert_allclose(band.y[50:], (mean - se)[::-1])
    assert fig.layout.xaxis.type == "log" and fig.layout.yaxis.type == "log"
    with pytest.raises(ValueError, match="frame"):
        regret_curves(frame.drop(columns="seed"))
    with pytest.raises(ValueError, match="frame"):
        regret_curves(frame, metric="nope")


def test_wilson_interval_matches_the_textbook_value():
    lo, hi = wilson_interval(8, 10)  # Newcombe (1998), Table I: 0.4902 to 0.9433
    assert lo == pytest.approx(0.4902, abs=1e-4) and hi == pytest.approx(0.9433, abs=1e-4)
    assert wilson_interval(0, 5)[0] == pytest.approx(0.0, abs=1e-12)
    assert wilson_interval(5, 5)[1] == pytest.approx(1.0, abs=1e-12)


def test_sample_complexity_and_success_rate_charts():
    frame = pd.DataFrame({"algorithm": ["A"] * 4 + ["B"] * 3, "seed": [0, 1, 2, 3, 0, 1, 2],
                          "stopped_at": [100, 120, None, 90, 300, 310, 320],
                          "correct": [True, False, False, True, True, True, True]})
    sc = sample_complexity_chart(frame)
    assert sc.data[0].name == "A: 2 of 3 stopped runs correct, 1 did not stop"
    assert sorted(sc.data[0].x) == [90, 100, 120]
    sr = success_rate_chart(frame)
    assert list(sr.data[0].y) == [0.5, 1.0]
    lo, hi = wilson_interval(2, 4)
    assert sr.data[0].error_y.arrayminus[0] == pytest.approx(0.5 - lo)
    assert sr.data[0].error_y.array[0] == pytest.approx(hi - 0.5)
    with pytest.raises(ValueError, match="frame"):
        sample_complexity_chart(frame.drop(columns="correct"))


def test_pull_counts_bars(ucb_trace):
    fig = pull_counts(ucb_trace, round_index=100)
    snap = ucb_trace.snapshots[100]
    bars = fig.data[0]
    assert list(bars.y) == snap.counts.tolist()
    assert list(bars.marker.color) == [STATUS_COLORS[STATUS_NAMES[s]] for s in snap.status]
    starred = [int(x.rstrip("★")) for x in bars.x if x.endswith("★")]
    assert starred == list(bv.preset("default").pareto_set)
    with pytest.raises(ValueError, match="round_index"):
        pull_counts(ucb_trace, round_index=500)


def test_legend_lists_every_shape_even_when_the_first_frame_is_empty(ucb_trace):
    snaps = [RoundState(t=1, estimates=np.full((10, 2), np.nan), lower=np.full((10, 2), -np.inf),
                        upper=np.full((10, 2), np.inf), status=np.zeros(10, dtype=np.int8), front=(), pulled=None,
                        counts=np.zeros(10, dtype=np.int64))] + ucb_trace.snapshots[1:]
    tr = _hand_trace(bv.preset("default"), "pareto_ucb1", ucb_trace.metrics, snaps)
    d = animate(tr).to_dict()
    shown = [t["name"] for t in d["data"] if t.get("showlegend", True) and t.get("visible", True) is True]
    for name in (BOX_LABEL, "estimated Pareto front", "estimated effective front",
                 "arm pulled at this round", TRUE_MEAN_LABEL, "true Pareto front",
                 "Pareto regret", "effective Pareto regret", "active arm (undecided)"):
        assert shown.count(name) == 1, name
    groups = {t["name"]: t.get("legendgroup") for t in d["data"] if t.get("showlegend", True)}
    assert groups["Pareto regret"] != groups["effective Pareto regret"]  # toggled one at a time


def test_frames_read_as_plotly_objects_and_serialise_unchanged(ucb_trace):
    fig = animate(ucb_trace, max_frames=12)
    before = fig.to_dict()["frames"][5]
    traces = fig.frames[5].data  # validated on first read
    assert len(traces) == len(before["data"]) and traces[0].type == before["data"][0]["type"]
    assert fig.to_dict()["frames"][5] == before
    assert len(go.Figure(fig).frames) == 12


def test_user_text_is_shown_as_text_not_html():
    """Arm, objective and instance names go into the figures escaped (Plotly renders a subset of HTML)."""
    from banditviz import Instance, figures, run

    inst = Instance.from_means([[0.1, 0.9], [0.8, 0.2], [0.3, 0.3]], sigma=0.3, name="<i>mine</i>",
                               arm_names=["<b>bold</b>", "a&b", "c"], objective_names=["<a href='x'>o1</a>", "o2"])
    for fig in (figures.instance_preview(inst), figures.animate(run(inst, "pareto_ucb1", 50, seed=0, snapshots=5))):
        text = fig.to_json()
        assert "<b>bold</b>" not in text and "<i>mine</i>" not in text and "<a href" not in text
    assert "&lt;b&gt;bold" in figures.instance_preview(inst).to_json()


@pytest.mark.parametrize("L", [2, 3])
def test_many_arms_get_fewer_frames_so_the_figure_stays_near_5_mb(L):
    from banditviz import figures, run
    from banditviz.instances import uniform_box

    trace = run(uniform_box(1000, L, seed=0), "uniform", 1200, seed=0, snapshots=200)
    fig = figures.animate(trace)
    assert 5 <= len(fig.frames) < 200
    assert len(fig.to_json()) < 6_000_000


def _legend_places(trace: bv.Trace) -> list[dict]:
    fig = animate(trace, controls=False, heights=(520, 820))
    L = fig.layout.meta["bv"]["layouts"]
    return [L[w][k] for w in ("narrow", "wide") for k in range(len(L["heights"]))]


def test_curves_legend_sits_above_rising_curves_and_beside_falling_ones():
    """The curves' legend takes the top corner where the curves stay lower under it, and never lies on them: Pareto
    UCB1's cumulative regrets rise, so it stays left and, on the smaller charts, the y range rises past the plain one
    (the curves' top + 8%) while the curves' panel grows taller than the pulls' (by more than half on a short narrow
    chart); a shorter or narrower chart never needs less room. RAMGAPE-C's simple regret falls to 0: its legend goes
    right, over the low end, with the plain range and equal panels, at every size."""
    inst = bv.preset("default")
    rising = bv.run(inst, "pareto_ucb1", 2000, seed=0)
    plain = float(np.max(np.cumsum(rising.metrics["effective_regret"]))) * 1.08
    up = _legend_places(rising)
    assert {p["legend2.xanchor"] for p in up} == {"left"}
    tops = [p["yaxis.range"][1] for p in up]
    assert min(tops) >= plain - 1e-6 and tops[0] > plain * 1.5, (tops, plain)
    n = len(tops) // 2  # narrow at each height (520, 820, the figure's 860 px), then wide
    assert all(tops[i] >= tops[i + 1] and tops[n + i] >= tops[n + i + 1] for i in range(n - 1)), tops
    assert all(tops[i] >= tops[n + i] for i in range(n)), tops
    for p, top in zip(up, tops, strict=True):
        curves, pulls = (p[k][1] - p[k][0] for k in ("yaxis.domain", "yaxis2.domain"))
        assert curves > pulls + 0.01 if top > plain + 1e-6 else curves == pytest.approx(pulls, abs=1e-3), p
    falling = bv.run(bv.preset("risk_averse_table1"), "ramgape_c", 2000, seed=0)
    down = _legend_places(falling)
    assert {p["legend2.xanchor"] for p in down} == {"right"}
    top = float(np.max(falling.metrics["simple_regret"])) * 1.08
    assert [p["yaxis.range"][1] for p in down] == pytest.approx([top] * len(down))
    assert all(p["yaxis.domain"][1] - p["yaxis.domain"][0] == pytest.approx(p["yaxis2.domain"][1], abs=1e-3)
               for p in down)
