"""Papers: each paper's experiment, scaled down to run in seconds, next to what the paper reports."""

import streamlit as st

import banditviz
from banditviz import guarantees
from banditviz_app import runs, state
from banditviz_app.papers import PAPERS

state.inside_app()  # a page opened alone (legacy pages/ mode) hands over to app.py

st.markdown("## The papers")
st.caption("Each section runs a scaled-down version of the paper's experiment (a few seeds, a short horizon) "
           "with the algorithms and presets registered for that paper. Full-size runs go through the CLI.")

for paper in PAPERS:
    st.header(paper.title, divider="gray")
    st.markdown(f"**Setting.** {paper.setting}  \n_{paper.authors}_")
    preset_name = paper.run_preset()
    algorithms = paper.algorithms(banditviz.preset(preset_name).kind) if preset_name else []
    listed = ", ".join(n for n, s in banditviz.ALGORITHMS.items() if paper.matches(s.paper)) or "none yet"
    st.caption(f"Registered algorithms: {listed}. Presets: {', '.join(paper.preset_names()) or 'none yet'}.")
    left, right = st.columns(2)
    with left:
        st.markdown("**Scaled-down run**")
        if not algorithms:
            st.info("This paper's algorithms or presets are not registered yet.")
        else:
            st.caption(f"Preset {preset_name}, T = {paper.horizon:,}, {paper.seeds} seeds: "
                       + ", ".join(algorithms) + ".")
            for name in algorithms:
                for warning in guarantees.warnings_for(banditviz.preset(preset_name), name,
                                                                 paper.params.get(name, {})):
                    st.warning(f"**{name}**: {warning}")
            ran_key = f"papers_ran_{paper.key}"
            if st.button("Run the scaled-down experiment", key=f"papers_run_{paper.key}"):
                st.session_state[ran_key] = True
            if st.session_state.get(ran_key):
                instance_json = state.compact_json(banditviz.preset(preset_name))
                bar = st.progress(0.0)

                def report(done: int, total: int, bar=bar) -> None:
                    bar.progress(done / max(total, 1), f"{done} / {total} runs")

                try:
                    entries = runs.sweep_entries(algorithms, paper.params)
                    table = runs.summary(runs.cached_sweep(instance_json, entries, paper.seeds, paper.horizon,
                                                           progress=report))
                    bar.empty()
                    shown = ["algorithm", "runs", *(c for c in paper.columns if c in table.columns)]
                    st.dataframe(table[shown], hide_index=True, key=f"papers_table_{paper.key}")
                except ValueError as exc:
                    state.show_error(exc)
    with right:
        st.markdown("**What the paper reports**")
        st.markdown(paper.reported)
    st.markdown("Full-size run:")
    st.code(paper.command(), language="bash")
