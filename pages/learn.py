"""Learn: a guided lesson in five steps, each with a small live figure and a "try it" control.

Every control keeps its position when the user opens another page and comes back (``persist_state="session"``:
Streamlit otherwise drops the value of a widget that a run does not draw)."""

import numpy as np
import streamlit as st

import banditviz
from banditviz import figures, pareto
from banditviz.instances import uniform_box
from banditviz_app import charts, runs, state

state.inside_app()  # a page opened alone (legacy pages/ mode) hands over to app.py

st.markdown("## Learn: Pareto bandits in five steps")


def preview(instance: banditviz.Instance, key: str, unit_square: bool = False) -> None:
    fig = figures.instance_preview(instance).update_layout(title_font_size=20)
    if unit_square:  # fixed axes, so that moving an arm moves the point, not the axes
        fig.update_layout(xaxis_range=[-0.02, 1.02], yaxis_range=[-0.02, 1.02])
    charts.show(fig, key=key)


def step_dominance() -> None:
    """Step 1: when one reward vector dominates another."""
    text, fig_col = st.columns([2, 3], gap="large")
    text.markdown("Each arm gives a reward vector; here two objectives, both to maximise. Arm **A dominates** arm "
                  "**B** when A is at least as good on every objective and strictly better on one: B then lies in "
                  "the box below and to the left of A.")
    bx = text.slider("Try it: B's objective 1", 0.0, 1.0, 0.4, 0.05, key="learn_bx", persist_state="session")
    by = text.slider("Try it: B's objective 2", 0.0, 1.0, 0.3, 0.05, key="learn_by", persist_state="session")
    pair = banditviz.Instance.from_means([[0.6, 0.5], [bx, by]], sigma=0.5, arm_names=["A", "B"], name="A and B")
    dom = pareto.dominated_by(pair.means)  # dom[i, j]: j dominates i
    verdict = "A dominates B" if dom[1, 0] else "B dominates A" if dom[0, 1] else "neither dominates the other"
    text.markdown(f"### {verdict}.")
    with fig_col:
        fig = figures.instance_preview(pair).update_layout(xaxis_range=[-0.02, 1.02], yaxis_range=[-0.02, 1.02])
        fig.add_shape(type="rect", x0=-0.02, y0=-0.02, x1=0.6, y1=0.5, line_width=0, layer="below",
                      fillcolor="rgba(120,120,120,0.15)")
        fig.add_annotation(x=0.3, y=0.06, text="A dominates every arm in this box", showarrow=False)
        charts.show(fig, key="learn_dominance")


def step_pareto_front() -> None:
    """Step 2: the Pareto front of a random cloud of arms."""
    text, fig_col = st.columns([2, 3], gap="large")
    text.markdown("The **Pareto front** is the set of arms that no other arm dominates: the best trade-offs. "
                  "There is no single best arm, so a learner must find, or play, the whole front.")
    K = text.slider("Try it: number of arms", 3, 40, 12, key="learn_K", persist_state="session")
    seed = text.number_input("seed of the random arms", 0, 10_000, 1, key="learn_seed", persist_state="session")
    cloud = uniform_box(K, 2, seed=int(seed), sigma=0.5)
    text.markdown(f"### {len(cloud.pareto_set)} of {K} arms are on the Pareto front.")
    with fig_col:
        preview(cloud, "learn_front", unit_square=True)


def at_last_frame(fig):
    """The animated figure opened on its last frame (the boxes and the regret curve up to the chosen round)."""
    last = fig.frames[-1]
    for index, data in zip(last.traces, last.data, strict=True):
        fig.data[index].update(data)
    if fig.layout.sliders:
        fig.layout.sliders[0].active = len(fig.frames) - 1
    return fig


def step_confidence_boxes() -> None:
    """Step 3: confidence boxes shrink as arms are pulled."""
    st.markdown("The learner never sees the true means, only noisy rewards. Around each estimate it keeps a "
                "**confidence box**: the true mean lies inside with high probability. More pulls, smaller box "
                "(the width shrinks like 1 / sqrt(pulls)). Here every arm is pulled in turn; drag the slider and "
                "compare the boxes after 10 rounds and after 2000 (▶ replays the rounds up to that point).")
    T = st.select_slider("Try it: rounds played", [10, 20, 50, 100, 200, 500, 1000, 2000], 50, key="learn_T",
                         persist_state="session")
    default = banditviz.preset("default")
    trace = runs.cached_run(state.compact_json(default), "uniform", "{}", int(T), 0, min(int(T), 30))
    snap = trace.snapshots[-1]
    widths = np.asarray(snap.upper) - np.asarray(snap.lower)
    pulls = np.asarray(snap.counts)
    st.markdown(f"### After {snap.t:,} rounds each arm was pulled {int(pulls.min()):,} to {int(pulls.max()):,} "
                f"times; its boxes are {np.mean(widths):.3f} wide on average.")
    charts.show(at_last_frame(figures.animate(trace, max_frames=30)), key="learn_boxes")


def step_effective_front() -> None:
    """Step 4: the effective (convex) front versus the Pareto front (MOL-TS paper, Fig. 1)."""
    text, fig_col = st.columns([2, 3], gap="large")
    text.markdown("An arm can be on the Pareto front yet never be the best choice for any weighting of the "
                  "objectives: a **mixture** of two other arms beats it. The **effective front** keeps only the "
                  "arms on the upper convex hull. The four arms of the MOL-TS paper's Figure 1 (our vectors):")
    rnd = text.radio("Round of the example", [1, 2, 3], horizontal=True, key="learn_round", persist_state="session")
    example = banditviz.preset("mol_ts_figure1", round=rnd)
    move = text.slider("Try it: move a(2) along the diagonal", 0.05, 0.95, float(example.means[1, 0]), 0.05,
                       key=f"learn_move_{rnd}", persist_state="session",
                       help="Sets both objectives of a(2) to this value.")
    means = np.array(example.means)
    means[1] = [move, move]
    moved = example.with_changes(means=means.tolist(), name=f"Figure 1, round {rnd}")
    on_p, on_c = 1 in moved.pareto_set, 1 in moved.effective_set
    text.markdown(f"### a(2) is {'on' if on_p else 'off'} the Pareto front and {'on' if on_c else 'off'} the "
                  f"effective front (effective gap {moved.effective_gaps[1]:.3f}).")
    with fig_col:
        preview(moved, "learn_effective", unit_square=True)


def growth_sentence(curves, horizon: int) -> str:
    """How each algorithm's mean cumulative regret grew in the first and the second half of the rounds,
    read from the drawn curves (so the words say what the figure shows)."""
    parts = []
    for algorithm, rows in curves.groupby("algorithm", sort=False):
        total = rows.groupby("round")["pareto_regret"].mean().cumsum()
        half = float(total[total.index <= horizon // 2].iloc[-1])
        second = float(total.iloc[-1]) - half
        if second < 0.8 * half:
            trend = "grows ever more slowly: it has found the front and pulls it more and more"
        elif second > 1.2 * half:
            trend = "grows faster and faster"
        else:
            trend = "grows linearly: it keeps paying for dominated arms"
        parts.append(f"**{algorithm}** paid {half:.1f} in the first {horizon // 2:,} rounds and {second:.1f} in "
                     f"the last {horizon - horizon // 2:,}: its regret {trend}.")
    return "  \n".join(parts)


def step_pareto_regret() -> None:
    """Step 5: what Pareto regret measures."""
    text, fig_col = st.columns([2, 3], gap="large")
    text.markdown("The **Pareto regret** of a pull is the arm's Pareto gap: the smallest amount to add to all its "
                  "objectives so that no arm dominates it. Front arms cost 0. Summed over rounds, it tells how much "
                  "a learner paid for pulling dominated arms.")
    default = banditviz.preset("default")
    arm = text.selectbox("Try it: pick an arm", range(default.K), format_func=lambda i: default.arm_names[i],
                         key="learn_arm", persist_state="session")
    gap, name = default.pareto_gaps[arm], state.plain(default.arm_names[arm])
    if gap > 0:
        text.markdown(f"### {name} is dominated: Pareto gap **{gap:.3f}**")
        text.markdown(f"Adding {gap:.3f} to both of its objectives lifts it onto the front (effective gap "
                      f"{default.effective_gaps[arm]:.3f}); each pull of {name} adds {gap:.3f} to the regret.")
    else:
        text.markdown(f"### {name} is on the Pareto front: gap **0**")
        text.markdown(f"Pulling it costs no Pareto regret (its effective gap, against the convex hull, is "
                      f"{default.effective_gaps[arm]:.3f}).")
    horizon = text.select_slider("Try it: rounds", [1000, 5000, 20000], 1000, key="learn_regret_T",
                                 persist_state="session")
    table = runs.cached_sweep(state.compact_json(default), runs.sweep_entries(["pareto_ucb1", "uniform"]), 5,
                              int(horizon))
    curves = runs.curve_frame(table)
    text.markdown(growth_sentence(curves, int(horizon)))
    with fig_col:
        picked = figures.instance_preview(default).update_layout(title_font_size=20, height=420)
        means = default.display(default.means)[arm]
        picked.add_scatter(x=[means[0]], y=[means[1]], mode="markers", name=f"picked: {default.arm_names[arm]}",
                           marker={"size": 30, "symbol": "circle-open", "color": "#d62728", "line": {"width": 4}})
        charts.show(picked, key="learn_picked")
        fig = figures.regret_curves(curves, metric="pareto_regret")
        fig.update_layout(title_text=f"cumulative Pareto regret, 5 seeds, {int(horizon):,} rounds", title_font_size=20,
                          height=420)
        charts.show(fig, key="learn_regret")


STEPS = {"1 Dominance": step_dominance, "2 Pareto front": step_pareto_front,
         "3 Confidence boxes": step_confidence_boxes, "4 Effective front": step_effective_front,
         "5 Pareto regret": step_pareto_regret}
# One step at a time (a radio, not tabs): a Plotly figure drawn inside a hidden tab lays out at zero width.
choice = st.radio("Step", list(STEPS), horizontal=True, key="learn_step", persist_state="session",
                  label_visibility="collapsed")
STEPS[choice]()
