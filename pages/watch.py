"""Watch: one algorithm on the current instance, animated round by round, with a round inspector."""

import numpy as np
import pandas as pd
import streamlit as st
import streamlit.components.v1 as components

import banditviz
from banditviz import guarantees
from banditviz_app import charts, forms, runs, state

state.inside_app()  # a page opened alone (legacy pages/ mode) hands over to app.py

# Presses the figure's own play button once its frames are loaded: the first screen of a session moves by
# itself (a fixed script with no user data; the component's iframe shares the page's origin). The 1.5 s wait
# lets Streamlit finish drawing the chart: an animation started during that redraw cannot be paused
# (measured in Chromium: pause then has no effect).
AUTOPLAY = """<script>
function press(triesLeft) {
  const gd = window.parent.document.querySelector('.js-plotly-plot');
  const frames = gd && gd._transitionData && gd._transitionData._frames;
  const button = gd && gd.querySelector('.updatemenu-button');
  if (frames && frames.length > 1 && button) {
    setTimeout(() => button.dispatchEvent(new MouseEvent('click', {bubbles: true})), 1500);
  } else if (triesLeft > 0) {
    setTimeout(() => press(triesLeft - 1), 250);
  }
}
press(120);
</script>"""

setting = state.current()
inst = setting.instance
st.markdown("## Watch an algorithm learn")
st.caption(f"Instance **{state.plain(inst.name or 'custom')}**: {inst.K} arms, {inst.L} objectives "
           f"({inst.kind}). Change it on the Design page. ▶ play, ❚❚ pause and the round slider are under the figure.")
notes = st.container()  # the run's guarantee warnings (and lambda_min for a lexicographic run), once it is known

with st.expander("Algorithm, parameters, horizon and seed", expanded=False):
    name = forms.algorithm_picker(inst.kind, setting.algorithm, key="watch")
    spec = banditviz.get_algorithm(name)
    with st.form("watch_form", border=False):
        params = forms.params_form_fields(spec, setting.params if name == setting.algorithm else {}, "watch_p")
        horizon, seed = forms.horizon_seed_fields(setting, "watch")
        submitted = st.form_submit_button("Run", type="primary")
    if submitted:
        try:
            setting = state.set_run(algorithm=name, params=params, horizon=horizon, seed=seed)
        except ValueError as exc:
            state.show_error(exc)

try:
    with st.spinner("Running..."):
        trace = runs.run_setting(setting)
        fig = runs.animation(setting)
except ValueError as exc:
    state.show_error(exc)
    st.stop()

with notes:
    for warning in trace.info.get("warnings", ()):
        st.warning(warning)
    note = guarantees.lambda_note(inst)
    if banditviz.get_algorithm(trace.algorithm).task == "lexicographic" and note:
        st.caption(note)

charts.show(fig, key="watch_figure")
if not st.session_state.get("watch_autoplayed"):
    st.session_state["watch_autoplayed"] = True
    components.html(AUTOPLAY, height=0)

outcome = f"Played {trace.rounds:,} rounds"
if trace.stopped_at is not None:
    outcome += f", stopped at round {trace.stopped_at:,}"
if trace.recommendation is not None:
    names = ", ".join(inst.arm_names[i] for i in trace.recommendation)
    outcome += f"; recommended: {names}"
    if runs.correct(trace) == 1.0:
        outcome += " (the true Pareto set)"
    elif runs.correct(trace) == 0.0:
        outcome += " (not the true Pareto set)"
totals = {label: trace.metrics[key].sum() for key, label in runs.REGRET_LABELS.items() if key in trace.metrics}
if totals:
    outcome += "; " + ", ".join(f"{label} {value:.4g}" for label, value in totals.items())
st.markdown(state.plain(outcome + "."))



@st.fragment
def round_inspector(trace: banditviz.Trace) -> None:
    """A table of the arms at one snapshot round and what the algorithm said it did (reruns only itself)."""
    inst = trace.instance
    st.subheader("Round inspector")
    rounds = trace.snapshot_rounds.tolist()
    pick = st.select_slider("Round", options=rounds, value=rounds[-1], key=f"watch_round_{rounds[-1]}_{len(rounds)}")
    snap, truth = trace.snapshots[rounds.index(pick)], trace.truth_at(rounds.index(pick))
    table = pd.DataFrame({"arm": list(inst.arm_names), "status": snap.status_names, "pulls": snap.counts})
    for j, obj in enumerate(inst.objective_names):
        table[f"estimate {obj}"] = inst.display(snap.estimates)[:, j]
        table[f"width {obj}"] = snap.upper[:, j] - snap.lower[:, j]
        if truth is not None:
            table[f"true {obj}"] = inst.display(truth)[:, j]
    table["pulled now"] = np.arange(inst.K) == (snap.pulled if snap.pulled is not None else -1)
    numbers = {c: st.column_config.NumberColumn(c, format="%.3f") for c in table.columns[3:-1]}
    st.dataframe(table, hide_index=True, key="watch_table", column_config=numbers)
    st.markdown(f"**What {state.plain(trace.algorithm)} did at round {pick}:**")
    for sentence in snap.events or ("(no event recorded at this round)",):
        st.text("• " + sentence)


round_inspector(trace)
st.download_button("Download the trace (CSV)", runs.tidy(trace).to_csv(index=False),
                   file_name=f"trace_{trace.algorithm}_seed{trace.seed}.csv", mime="text/csv")
