"""Learn: a guided lesson in five steps, each with a small live figure and a "try it" control.

Every control keeps its position when the user opens another page and comes back (``persist_state="session"``:
Streamlit otherwise drops the value of a widget that a run does not draw)."""

import numpy as np
import plotly.graph_objects as go
import streamlit as st

import banditviz
from banditviz import figures, limits
from banditviz.instances import uniform_box
from banditviz_app import fold, forms, lesson, runs, state

st.markdown("## Learn: Pareto bandits in five steps")
fold.style()
SHADES = ("rgba(120,120,120,0.18)", "rgba(70,130,180,0.14)")  # step 1's boxes: the first arm's, the second's
UNIT_Y = [-0.02, 1.1]  # the unit square's y range, with room above for the label of an arm at 1


def preview(instance: banditviz.Instance, key: str, unit_square: bool = False) -> None:
    fig = figures.instance_preview(instance).update_layout(title_font_size=20)
    if unit_square:  # fixed axes, so that moving an arm moves the point, not the axes
        fig.update_layout(xaxis_range=[-0.02, 1.02], yaxis_range=UNIT_Y)
    with fold.box("learn"):
        fold.show(fig, key=key)


def step_dominance() -> None:
    """Step 1: when one reward vector dominates another."""
    text, fig_col = st.columns([2, 3], gap="large")
    text.markdown("Each arm gives a reward vector; here two objectives, both to maximise. Arm **A dominates** arm "
                  "**B** when A is at least as good on every objective and strictly better on one: B then lies in "
                  "the box below and to the left of A.")
    bx = text.slider("Try it: B's objective 1", 0.0, 1.0, 0.4, 0.05, key="learn_bx", persist_state="session")
    by = text.slider("Try it: B's objective 2", 0.0, 1.0, 0.3, 0.05, key="learn_by", persist_state="session")
    points = {"A": (0.6, 0.5), "B": (float(bx), float(by))}
    pair = banditviz.Instance.from_means(list(points.values()), sigma=0.5, arm_names=list(points), name="A and B")
    verdict, shades = lesson.dominance(points)
    text.markdown(f"### {verdict}")
    with fig_col:
        fig = figures.instance_preview(pair).update_layout(xaxis_range=[-0.02, 1.02], yaxis_range=UNIT_Y)
        for i, shade in enumerate(shades):  # under the points, named in the legend (never written over a point)
            x, y = shade.corner
            fig.add_trace(go.Scatter(x=[-0.02, x, x, -0.02, -0.02], y=[-0.02, -0.02, y, y, -0.02], fill="toself",
                                     mode="lines", line_width=0, fillcolor=SHADES[i], name=shade.label,
                                     hoverinfo="skip"))
            fig.data = (fig.data[-1], *fig.data[:-1])
        with fold.box("learn"):
            fold.show(fig, key="learn_dominance")


def step_pareto_front() -> None:
    """Step 2: the Pareto front of a random cloud of arms."""
    text, fig_col = st.columns([2, 3], gap="large")
    text.markdown("The **Pareto front** is the set of arms that no other arm dominates: the best trade-offs. "
                  "There is no single best arm, so a learner must find, or play, the whole front.")
    K = text.slider("Try it: number of arms", 3, 40, 12, key="learn_K", persist_state="session")
    typed = forms.number_field("seed of the random arms", "learn_seed", 1, whole=True, container=text,
                               persist_state="session", help="A whole number from 0 to 10,000.")
    try:
        seed = limits.check_int("seed of the random arms", typed, 0, 10_000)
    except ValueError as exc:
        text.error(f"{exc}; the arms of seed 1 are shown", icon=":material/error:")
        seed = 1
    cloud = uniform_box(K, 2, seed=seed, sigma=0.5)
    text.markdown(f"### {lesson.front_sentence(len(cloud.pareto_set), K)}")
    with fig_col:
        preview(cloud, "learn_front", unit_square=True)


def step_confidence_boxes() -> None:
    """Step 3: confidence boxes shrink as arms are pulled."""
    text, fig_col = st.columns([2, 3], gap="large")
    text.markdown("The learner never sees the true means, only noisy rewards. Around each estimate it keeps a "
                  "**confidence box**: the true mean lies inside with high probability. More pulls, smaller box "
                  "(the width shrinks like one over the square root of the pulls). Here every arm is pulled in "
                  "turn: compare the boxes after 10 rounds and after 2,000.")
    T = text.select_slider("Try it: rounds played", [10, 20, 50, 100, 200, 500, 1000, 2000], 50, key="learn_T",
                           persist_state="session")
    default = banditviz.preset("default")
    trace = runs.cached_run(state.compact_json(default), "uniform", "{}", int(T), 0, 1)
    snap = trace.snapshots[-1]
    widths = np.asarray(snap.upper) - np.asarray(snap.lower)
    text.markdown(f"### {lesson.boxes_sentence(snap.t, np.asarray(snap.counts), widths)}")
    with fig_col, fold.box("learn"):
        fold.show(figures.confidence_boxes(trace), key="learn_boxes")


def step_effective_front() -> None:
    """Step 4: the effective (convex) front versus the Pareto front (MOL-TS paper, Fig. 1)."""
    text, fig_col = st.columns([2, 3], gap="large")
    text.markdown("An arm can be on the Pareto front yet never be the best choice for any weighting of the "
                  "objectives: a **mixture** of two other arms beats it. The **effective front** keeps only the "
                  "arms on the upper convex hull. The four arms of the MOL-TS paper's Figure 1 (our vectors):")
    rnd = text.radio("Round of the example", [e.round for e in lesson.EXAMPLES], horizontal=True, key="learn_round",
                     persist_state="session")
    example = next(e for e in lesson.EXAMPLES if e.round == rnd)
    name = banditviz.preset("mol_ts_figure1", round=rnd).arm_names[example.arm]
    move = text.slider(f"Try it: move {name} along the diagonal", 0.05, 0.95, example.start, 0.05,
                       key=f"learn_move_{rnd}", persist_state="session",
                       help=f"Sets both objectives of {name} to this value.")
    if example.note:
        text.caption(example.note)
    moved = lesson.example_instance(example, move)
    text.markdown(f"### {lesson.effective_sentence(moved, example.arm)}")
    with fig_col:
        preview(moved, "learn_effective", unit_square=True)


def step_pareto_regret() -> None:
    """Step 5: what Pareto regret measures."""
    text, fig_col = st.columns([2, 3], gap="large")
    text.markdown("The **Pareto regret** of a pull is the arm's Pareto gap: the smallest amount to add to all its "
                  "objectives so that no arm dominates it. Front arms cost 0. Summed over rounds, it tells how much "
                  "a learner paid for pulling dominated arms.")
    default = banditviz.preset("default")
    arm = text.selectbox("Try it: pick an arm", range(default.K), format_func=lambda i: default.arm_names[i],
                         key="learn_arm", persist_state="session")
    heading, cost = lesson.gap_sentences(default, arm, state.plain(default.arm_names[arm]))
    text.markdown(f"### {heading}")
    text.markdown(cost)
    horizon = text.select_slider("Try it: rounds", [1000, 5000, 20000], 1000, key="learn_regret_T",
                                 persist_state="session")
    table = runs.cached_sweep(state.compact_json(default), runs.sweep_entries(["pareto_ucb1", "uniform"]), 5,
                              int(horizon))
    curves = runs.curve_frame(table)
    text.markdown(lesson.growth_sentence(curves, int(horizon)))
    with fig_col:  # the picked arm (on a projector: the screen's height), then the curves
        picked = figures.instance_preview(default).update_layout(title_font_size=20, height=420)
        means = default.display(default.means)[arm]
        picked.add_scatter(x=[means[0]], y=[means[1]], mode="markers", name=f"picked: {default.arm_names[arm]}",
                           marker={"size": 30, "symbol": "circle-open", "color": "#d62728", "line": {"width": 4}})
        picked.update_layout(showlegend=not state.presenting())  # on a projector its 6 rows would squash the plot
        with fold.box("learn"):
            fold.show(picked, key="learn_picked")
        fig = figures.regret_curves(curves, metric="pareto_regret")
        fig.update_layout(title_text=f"cumulative Pareto regret, 5 seeds, {int(horizon):,} rounds", title_font_size=20,
                          height=420)
        with fold.box("learn_second"):
            fold.show(fig, key="learn_regret")


STEPS = {"1 Dominance": step_dominance, "2 Pareto front": step_pareto_front,
         "3 Confidence boxes": step_confidence_boxes, "4 Effective front": step_effective_front,
         "5 Pareto regret": step_pareto_regret}
# One step at a time (a radio, not tabs): a Plotly figure drawn inside a hidden tab lays out at zero width.
choice = st.radio("Step", list(STEPS), horizontal=True, key="learn_step", persist_state="session",
                  label_visibility="collapsed")
STEPS[choice]()
