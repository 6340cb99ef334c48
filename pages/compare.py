"""Compare: several algorithms on the current instance, many seeds, the same noise for every algorithm."""

import streamlit as st

from banditviz import figures
from banditviz_app import forms, runs, state

MAX_COMPARE_HORIZON = 20_000
MAX_COMPARE_SEEDS = 50

setting = state.current()
inst = setting.instance
st.markdown("## Compare algorithms")
st.caption(f"Instance **{state.plain(inst.name or 'custom')}** ({inst.K} arms, {inst.L} objectives). Every algorithm "
           "runs at its paper defaults; seed s gives every algorithm the same noise for the same arm pull.")

algs = forms.compatible(inst.kind)
same_task = [n for n, s in algs.items() if s.task == algs[setting.algorithm].task]
with st.form("compare_form"):
    chosen = st.multiselect("Algorithms", list(algs), default=same_task[:4], key=f"compare_algs_{inst.kind}",
                            format_func=lambda n: f"{n} ({algs[n].paper.split(',')[0]})")
    c1, c2 = st.columns(2)
    n_seeds = c1.number_input("Seeds (runs per algorithm)", 1, MAX_COMPARE_SEEDS, 5, key="compare_seeds")
    horizon = c2.number_input("Horizon T", 10, MAX_COMPARE_HORIZON, min(setting.horizon, 2000), step=100,
                              key="compare_T")
    if st.form_submit_button("Run the comparison", type="primary"):
        st.session_state["compare_request"] = (tuple(chosen), int(n_seeds), int(horizon))

request = st.session_state.get("compare_request")
if request is None or not request[0]:
    st.info("Pick algorithms and press **Run the comparison**.")
    st.stop()
chosen, n_seeds, horizon = request
bar = st.progress(0.0, text="Running...")


def report(done: int, total: int) -> None:
    bar.progress(done / max(total, 1), f"{done} / {total} runs")


try:
    table = runs.cached_sweep(setting.instance_json, runs.sweep_entries(chosen), n_seeds, horizon, progress=report)
except ValueError as exc:
    state.show_error(exc)
    st.stop()
bar.empty()

curves, stops = runs.curve_frame(table), runs.stopping_frame(table)
metrics = [c for c in curves.columns if c not in ("algorithm", "seed", "round")]
tab_curves, tab_stop = st.tabs(["Regret curves", "Sample complexity and success"])
with tab_curves:
    if metrics and not curves.empty:
        c1, c2, c3 = st.columns([2, 1, 1])
        metric = c1.selectbox("Metric", metrics, key="compare_metric")
        log_x = c2.checkbox("log rounds", key="compare_logx")
        log_y = c3.checkbox("log regret", key="compare_logy")
        st.plotly_chart(figures.regret_curves(curves, metric=metric, log_x=log_x, log_y=log_y),
                        key="compare_curves")
    else:
        st.info("Identification algorithms: see their stopping times and success rates in the next tab.")
with tab_stop:
    if stops.empty:
        st.info("None of these algorithms recommends a set, so there is no stopping time or success rate.")
    else:
        left, right = st.columns(2)
        left.plotly_chart(figures.sample_complexity_chart(stops), key="compare_sc")
        right.plotly_chart(figures.success_rate_chart(stops), key="compare_success")

st.subheader("Summary")
st.dataframe(runs.summary(table), hide_index=True, key="compare_summary")
c1, c2 = st.columns(2)
c1.download_button("Summary (CSV)", runs.summary(table).to_csv(index=False), "compare_summary.csv", "text/csv")
c2.download_button("Every run, every recorded round (CSV)", table.to_csv(index=False), "compare_runs.csv",
                   "text/csv")
