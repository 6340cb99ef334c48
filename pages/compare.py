"""Compare: several algorithms on the current instance, many seeds, the same noise for every algorithm."""

import pandas as pd
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
try:
    traces = runs.run_many(setting.instance_json, chosen, range(n_seeds), horizon,
                           progress=lambda done, total: bar.progress(done / total, f"{done} / {total} runs"))
except ValueError as exc:
    state.show_error(exc)
    st.stop()
bar.empty()

frame = pd.concat([runs.tidy(t) for t in traces], ignore_index=True)
per_run = pd.DataFrame([runs.run_row(t) for t in traces])
metrics = [m for m in traces[0].metrics if m in frame.columns]
tab_curves, tab_stop = st.tabs(["Regret curves", "Sample complexity and success"])
with tab_curves:
    if metrics:
        c1, c2, c3 = st.columns([2, 1, 1])
        metric = c1.selectbox("Metric", metrics, key="compare_metric")
        log_x = c2.checkbox("log rounds", key="compare_logx")
        log_y = c3.checkbox("log regret", key="compare_logy")
        st.plotly_chart(figures.regret_curves(frame, metric=metric, log_x=log_x, log_y=log_y), key="compare_curves")
    else:
        st.info("These runs record no per-round metric.")
with tab_stop:
    answered = per_run[per_run["correct"].notna()]
    if answered.empty:
        st.info("None of these algorithms recommends a set, so there is no stopping time or success rate.")
    else:
        left, right = st.columns(2)
        left.plotly_chart(figures.sample_complexity_chart(answered), key="compare_sc")
        right.plotly_chart(figures.success_rate_chart(answered), key="compare_success")

st.subheader("Summary")
st.dataframe(runs.summary(per_run), hide_index=True, key="compare_summary")
c1, c2 = st.columns(2)
c1.download_button("Per-run table (CSV)", per_run.to_csv(index=False), "compare_runs.csv", "text/csv")
curves = frame.groupby(["algorithm", "round"], sort=False)[metrics].mean().reset_index() if metrics else frame
c2.download_button("Mean per-round curves (CSV)", curves.to_csv(index=False), "compare_curves.csv", "text/csv")
