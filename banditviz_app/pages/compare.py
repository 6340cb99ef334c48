"""Compare: several algorithms on the current instance, many seeds, the same noise for every algorithm."""

import time

import pandas as pd
import streamlit as st

import banditviz
from banditviz import figures, fronts, guarantees, limits, words
from banditviz_app import charts, forms, plugins, runs, state

# Up to the app's horizon cap: a fixed-confidence identification comparison needs tens of thousands of samples
# (GEGE-FC about 23,000, APE about 40,000 on the NoC data). Large comparisons run in local worker processes
# (`runs.sweep_backend`), with a progress bar and a Cancel button.
MAX_COMPARE_HORIZON = state.APP_MAX_HORIZON
MAX_COMPARE_SEEDS = 200

setting = state.current()
inst = setting.instance
st.markdown("## Compare algorithms")
st.caption(f"Instance **{state.plain(inst.name or 'custom')}** ({inst.K} arms, {words.count(inst.L, 'objective')}). "
           "Every algorithm runs at its paper defaults unless you add settings; seed s gives every algorithm the same "
           "noise for the same arm pull.")

algs = forms.compatible(inst.kind)
same_task = [setting.algorithm, *(n for n, s in algs.items()
                                  if s.task == algs[setting.algorithm].task and n != setting.algorithm)]
last = st.session_state.get("compare_request")  # the form shows the last comparison of this instance, if any
last = last if last and last[0] == setting.instance_json else None
with st.form("compare_form"):
    chosen = st.multiselect("Algorithms", list(algs), format_func=lambda n: forms.labelled(n, algs[n].paper),
                            key=forms.seeded(f"compare_algs_{inst.kind}", list(last[1]) if last else same_task[:4]))
    c1, c2 = st.columns(2)
    n_seeds = forms.number_field("Seeds (runs per algorithm)", "compare_seeds", last[2] if last else 5, whole=True,
                                 container=c1)
    horizon = forms.number_field("Horizon T", "compare_T", last[3] if last else min(setting.horizon, 2000),
                                 whole=True, container=c2)
    settings = st.text_area("Also run these settings (one a line: name key=value ...)", key="compare_settings",
                            placeholder="pareto_ucb1 alpha=0.5", height=68,
                            help="The same algorithm several times with other parameters, e.g. "
                                 "`mo_epsilon_greedy epsilon=0.05` and `mo_epsilon_greedy epsilon=0.3`; each is "
                                 "named by the parameters it changes.")
    if st.form_submit_button("Run the comparison", type="primary"):
        try:
            st.session_state["compare_request"] = (
                setting.instance_json, tuple(chosen), limits.check_int("seeds", n_seeds, 1, MAX_COMPARE_SEEDS),
                limits.check_int("horizon", horizon, 10, MAX_COMPARE_HORIZON),
                runs.parse_settings(settings, algs))
        except ValueError as exc:
            state.show_error(exc, "Not run, the last comparison is kept")



def cancel() -> None:
    """Stop the running comparison: its click interrupts the run at its next progress report (large runs, in
    worker processes, report every half second): no further run starts and the runs inside worker processes stop;
    the form's values, the instance and earlier results are kept."""
    st.session_state["compare_request"] = None
    st.session_state["compare_cancelled"] = True


request = st.session_state.get("compare_request")
if st.session_state.pop("compare_cancelled", False):
    st.info("The comparison was cancelled; change the settings or run it again.", icon=":material/cancel:")
if request is None or request[0] != setting.instance_json or not (request[1] or request[4]):  # of its instance
    st.info("Pick algorithms and press **Run the comparison**.")
    st.stop()
_, chosen, n_seeds, horizon, variants = request
entries = runs.sweep_entries(chosen) + variants
for name in chosen:  # every algorithm runs at its defaults here
    plugins.truth_note(name)
    for warning in guarantees.warnings_for(inst, name):
        st.warning(f"**{name}**: {warning}")
running = st.empty()
with running.container():
    bar = st.progress(0.0, text="Running...")
    st.button("Cancel", key="compare_cancel", on_click=cancel, icon=":material/stop_circle:")
started = time.monotonic()


def report(done: int, total: int) -> None:
    elapsed = time.monotonic() - started
    left = f", about {elapsed * (total - done) / done:,.0f} s left" if 0 < done < total else ""
    bar.progress(done / max(total, 1), f"{done} / {total} runs, {elapsed:,.0f} s{left}")


try:
    table = runs.label_settings(runs.cached_sweep(setting.instance_json, entries, n_seeds, horizon, progress=report))
except ValueError as exc:
    running.empty()
    state.show_error(exc)
    st.stop()
except banditviz.AlgorithmError as exc:
    running.empty()
    plugins.show_algorithm_error(exc)
    st.stop()
running.empty()


def regret_tab(curves) -> None:
    """Mean cumulative regret curves of the algorithms that record the chosen metric."""
    metrics = [c for c in curves.columns if c not in ("algorithm", "seed", "round")]
    c1, c2, c3 = st.columns([2, 1, 1])
    metric = c1.selectbox("Metric", metrics, format_func=figures.metric_label, key="compare_metric",
                          persist_state="session")
    log_x = c2.checkbox("log rounds", key="compare_logx", persist_state="session")
    log_y = c3.checkbox("log regret", key="compare_logy", persist_state="session")
    shown = curves[curves.groupby("algorithm")[metric].transform(lambda v: v.notna().any())]
    missing = [a for a in pd.unique(curves["algorithm"]) if a not in set(shown["algorithm"])]
    if missing:
        st.caption(f"Not drawn ({figures.metric_label(metric)} is not recorded for them): {', '.join(missing)}.")
    charts.show(figures.regret_curves(shown, metric=metric, log_x=log_x, log_y=log_y), key="compare_curves")


def stopping_tab(stops) -> None:
    left, right = st.columns(2)
    with left:
        charts.show(figures.sample_complexity_chart(stops), key="compare_sc")
    with right:
        charts.show(figures.success_rate_chart(stops), key="compare_success")


def fronts_tab() -> None:
    """Empirical attainment surfaces of the estimated fronts (drawn on request: it replays the runs)."""
    st.caption("Each run's estimated front: the sample means of the pulled arms that no other one dominates, at "
               "the end of the run. The p% attainment surface bounds what at least p% of the runs reached.")
    obj = (0, 1)
    if inst.L > 2:
        c1, c2 = st.columns(2)
        names = list(range(inst.L))
        x = c1.selectbox("x objective", names, 0, format_func=lambda o: inst.objective_names[o], key="compare_eaf_x",
                         persist_state="session")
        y = c2.selectbox("y objective", [o for o in names if o != x], format_func=lambda o: inst.objective_names[o],
                         key="compare_eaf_y", persist_state="session")
        obj = (x, y)
    if st.session_state.get("compare_eaf") != request and not st.button("Draw the attainment surfaces",
                                                                       key="compare_eaf_draw"):
        return
    st.session_state["compare_eaf"] = request
    with st.spinner("Replaying the runs for their final estimates..."):
        per_alg = runs.cached_fronts(setting.instance_json, entries, n_seeds, horizon)
    charts.show(figures.eaf_chart(per_alg, inst, obj), key="compare_eaf_chart")


curves, stops = runs.curve_frame(table), runs.stopping_frame(table)
views = {}  # only the views these algorithms have: regret curves (regret-type), stopping times (identification)
if len(curves.columns) > 3 and not curves.empty:
    views["Regret curves"] = lambda: regret_tab(curves)
if not stops.empty:
    views["Sample complexity and success"] = lambda: stopping_tab(stops)
if fronts.has_estimated_front(inst) and inst.L >= 2:
    views["Estimated fronts over seeds"] = fronts_tab
for tab, draw in zip(forms.tabs(list(views), "compare_tab"), views.values(), strict=True):
    with tab:
        draw()

st.subheader("Summary")
st.dataframe(runs.readable(runs.summary(table), inst), hide_index=True, key="compare_summary")
c1, c2 = st.columns(2)
# The files are made when a button is clicked (deferred), not with every run of the page.
c1.download_button("Summary (CSV)", lambda table=table: runs.readable(runs.summary(table), inst).to_csv(index=False),
                   "compare_summary.csv", "text/csv")
c2.download_button("Every run, every recorded round (CSV)",
                   lambda table=table: runs.readable(table, inst).to_csv(index=False), "compare_runs.csv", "text/csv")
