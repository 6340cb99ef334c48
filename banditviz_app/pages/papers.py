"""Papers: each paper's figures redrawn from the shipped results, a verdict for every claim, the decisions they rest on,
the theorems' rates measured, and a live rerun."""

import pandas as pd
import plotly.graph_objects as go
import streamlit as st

from banditviz import claims, guarantees, reproduce
from banditviz.claims import lexmoslb, linpsi, molts, pfiwr, ramgape
from banditviz.experiments.ramgape import EXP2_PATTERNS, experiment2_trace
from banditviz.figures import animate
from banditviz_app import charts, forms, state, stored
from banditviz_app.papers import PAPERS

# text symbols (DejaVu Sans has them) rather than emoji, which a machine without an emoji font draws as boxes
VERDICT_ICONS = {"reproduced": "✓ reproduced", "not reproduced": "✗ not reproduced",
                 "partly checked": "◐ partly checked", "qualitative only": "○ qualitative only",
                 "data unavailable": "– data unavailable", "not computed": "… not computed"}
WIDE = {c: st.column_config.TextColumn(width="large") for c in ("Claim", "Ours", "Note", "Rejects")}


@st.cache_resource(max_entries=32)
def shipped_results() -> dict[str, reproduce.Result]:
    """Every shipped result, read once per server (the files are part of the package and never change)."""
    return {name: reproduce.load(name) for name in reproduce.shipped()}


@st.cache_resource(max_entries=64)
def shipped_figure(paper_key: str, title: str) -> go.Figure:
    """A figure of the shipped results, built once (the figure builders take seconds; `stored` keeps it)."""
    paper = next(p for p in PAPERS if p.key == paper_key)
    figure = next(f for f in paper.figures if f.title == title)

    def draw() -> go.Figure:
        result = shipped_results()[figure.result]
        return figure.draw(result.table, result)
    return stored.kept(f"figure {paper_key} {title}", draw)


@st.cache_resource(max_entries=64)
def shipped_chart(paper_key: str, title: str) -> go.Figure:
    paper = next(p for p in PAPERS if p.key == paper_key)
    chart = next(c for c in paper.charts if c.title == title)
    return stored.kept(f"chart {paper_key} {title}", lambda: chart.draw(shipped_results()))


@st.cache_resource(max_entries=8)
def exp2_figure(pattern: int) -> go.Figure:
    """RAMGapEc's boxes at stopping in Exp. 2's ``pattern``, animated from the shipped trace, built once per server."""
    return animate(experiment2_trace(pattern, "ramgape_c"))


@st.cache_resource(max_entries=8)
def computed_verdicts(paper_key: str) -> pd.DataFrame:
    """The verdict table of one paper, computed from the shipped results once (`stored` keeps it)."""
    return stored.kept(f"verdicts {paper_key}", lambda: claims.verdict_table(paper_key, shipped_results()))


def shipped_verdicts(paper_key: str) -> pd.DataFrame:
    table = computed_verdicts(paper_key).copy()
    table["Verdict"] = table["Verdict"].map(VERDICT_ICONS)
    return table


@st.cache_resource(max_entries=8)
def shipped_sensitivity(paper_key: str) -> list[tuple[str, str, pd.DataFrame]]:
    """Each open decision of the paper (its name and note) with its verdicts under every plausible value."""
    return stored.kept(f"sensitivity {paper_key}", lambda: [
        (item.decision, item.note, table) for item, table in claims.sensitivity(paper_key, shipped_results())])


def verdict_counts() -> dict[str, int]:
    """How many claims get each verdict over the five papers (the same tables as below)."""
    return claims.tally([computed_verdicts(p.key) for p in PAPERS])


def provenance(result: reproduce.Result) -> str:
    meta = result.meta
    command = meta.get("generator", "python -m banditviz sweep")
    command = f"`python {command}`" if command.endswith(".py") else f"`{command} experiments/{meta['config_name']}`"
    return f"Shipped result, {result.scale()}; computed by banditviz {meta['version']} with {command}."


def show_verdicts(paper_key: str) -> None:
    st.dataframe(shipped_verdicts(paper_key), hide_index=True, key=f"papers_verdicts_{paper_key}",
                 column_config={**WIDE, "Verdict": st.column_config.TextColumn(width="medium")})


def show_figures(paper, results: dict[str, reproduce.Result]) -> None:
    for figure in paper.figures:
        st.markdown(f"**{figure.title}**")
        result = results.get(figure.result)
        if result is None:
            st.info(f"Not shipped yet. Compute it with `python -m banditviz sweep experiments/{figure.result}.toml "
                    f"--out {figure.result}.parquet`.")
            continue
        st.caption(provenance(result))
        charts.show(shipped_figure(paper.key, figure.title), key=f"papers_fig_{figure.title}")


def show_charts(paper, results: dict[str, reproduce.Result]) -> None:
    """The figures over several results: the rates (measured points, fitted and theoretical lines) and summaries."""
    for chart in paper.charts:
        st.markdown(f"**{chart.title}**")
        missing = [name for name in chart.results if name not in results]
        if missing:
            st.info(f"Not shipped yet: {', '.join(missing)} (see `experiments/`).")
            continue
        st.caption(provenance(results[chart.results[0]])
                   + (f" Also: {', '.join(chart.results[1:])}." if len(chart.results) > 1 else ""))
        charts.show(shipped_chart(paper.key, chart.title), key=f"papers_chart_{chart.title}")


def show_tables(paper_key: str, results: dict[str, reproduce.Result]) -> None:
    """The papers' tables redrawn from shipped results: PFIwR Table 1 (on the LLVM-like stand-in) and RAMGapE's
    Experiment 1 stopping times."""
    tables = {"pfiwr": (pfiwr.LLVM, pfiwr.table1,
                        "**Table 1, on the LLVM-like stand-in (not the paper's data)**: samples to stop, mean ± sd. "
                        "The paper's column is measured on SW-LLVM, ours on a synthetic instance of the same shape: "
                        "compare the relations between the algorithms, not the numbers."),
              "ramgape": (ramgape.EXP1, ramgape.exp1_table,
                          "**Exp. 1: stopping times (fixed confidence, eps = 0.1, delta = 0.05)**. The paper prints no "
                          "numbers for it; the reference column is our own independent re-implementation of its "
                          "pseudo-code (10 runs per pattern), averaged over the same patterns as ours.")}
    if paper_key == "linpsi":
        runtimes = linpsi.runtime_table()
        if runtimes is not None:
            st.markdown("**Table 2: runtime of one GEGE run**, the paper's (an ARM laptop, its own instances) beside "
                        "ours (CPU ms of GEGE alone, `benchmarks/linpsi_table2.py`, our instances): not comparable, "
                        "so no verdict.")
            st.dataframe(runtimes, hide_index=True, key="papers_table_linpsi")
    if paper_key not in tables:
        return
    name, build, text = tables[paper_key]
    st.markdown(text)
    result = results.get(name)
    if result is None:
        st.info(f"Not shipped yet. Compute it with `python -m banditviz sweep experiments/{name}.toml "
                f"--out {name}.parquet`.")
        return
    st.caption(provenance(result))
    st.dataframe(build(result), hide_index=True, key=f"papers_table_{paper_key}")


def show_decisions(paper_key: str, results: dict[str, reproduce.Result]) -> None:
    """Each decision the paper leaves open that a verdict rests on: the verdicts under every plausible value."""
    found = shipped_sensitivity(paper_key)
    if not found:
        return
    st.markdown("**Decisions made visible**: the verdicts above that rest on a choice the paper leaves open, under "
                "each plausible value (the first row is ours).")
    for decision, note, table in found:
        st.markdown(f"*{decision}*" + (f": {note}" if note else ""))
        st.dataframe(table, hide_index=True, key=f"papers_sensitivity_{paper_key}_{decision}")
    if paper_key == "pfiwr":
        st.markdown("*The smallest c_beta that keeps PFIwR's error within delta = 0.1 on each instance*, and the "
                    "samples it then needs (the paper's are on SW-LLVM, the stand-in's own data):")
        st.dataframe(pfiwr.cbeta_table(results), hide_index=True, key="papers_cbeta")


def show_consistency(paper_key: str, results: dict[str, reproduce.Result]) -> None:
    table = claims.consistency(paper_key, results)
    if table.empty:
        return
    st.markdown("**Consistency with our re-implementation** (numbers of our own independent code, not the paper's: "
                "not verdicts, not counted)")
    st.dataframe(table, hide_index=True, key=f"papers_consistency_{paper_key}")


def show_extras(paper_key: str) -> None:
    """The worked examples that need no sweep: MOL-TS's and LexMOSLB's Fig. 1 and RAMGapE's Experiment 2 traces."""
    if paper_key == "molts":
        st.markdown("**Fig. 1 toy**: two agents over three rounds of a 4-arm, 2-objective contextual instance "
                    "(the Figure 1 preset); only agent 2 always plays on the effective Pareto front.")
        st.dataframe(molts.figure1_agents(), hide_index=True, key="papers_mol_fig1")
    if paper_key == "lexmoslb":
        chain, kept = lexmoslb.figure1_cascades()
        st.markdown("**Fig. 1 as a worked example**: arms x* = (0.5, 0.5), x = (0.45, 0.9), z = (0, 0), every "
                    "confidence interval of half-width 0.1; x* is lexicographically optimal.")
        names = ("x*", "x", "z")
        rows = [{"filter": "chain (STE2LO, PF-LEX)" if c is chain else "LOAF (MTE2LO, lambda = 8, W = 0.1)",
                 "after objective 1": ", ".join(names[k] for k in c.sets[0]),
                 "after objective 2": ", ".join(names[k] for k in c.sets[1])} for c in (chain, kept)]
        st.dataframe(pd.DataFrame(rows), hide_index=True, key="papers_lex_fig1")
    if paper_key == "ramgape":
        st.markdown("**Exp. 2: RAMGapEc's confidence boxes at stopping (eps = 0)**, from the traces shipped with "
                    "the package (10^7 samples and more; play to watch the boxes shrink near the front).")
        pattern = st.radio("Pattern", EXP2_PATTERNS, horizontal=True, key="papers_exp2_pattern",
                           persist_state="session")
        try:
            charts.show(exp2_figure(int(pattern)), key="papers_exp2")
        except (ValueError, OSError) as exc:
            state.show_error(exc, "Experiment 2 trace")


def show_warnings(result: reproduce.Result) -> None:
    """Why an algorithm of this experiment has no guarantee on its instance (each reason once)."""
    instance = next(iter(result.config.instances.values()))
    seen = set()
    for spec, params in result.config.algorithms:
        for warning in guarantees.warnings_for(instance, spec, params):
            if (spec.name, warning) not in seen:
                seen.add((spec.name, warning))
                st.warning(f"**{spec.name}**: {warning}")


def live_rerun(paper, results: dict[str, reproduce.Result]) -> None:
    result = results.get(paper.live)
    if result is None:
        return
    st.markdown("**Run it yourself, scaled down**")
    max_seeds = max(1, min(len(result.full_config.seeds), 50))
    seeds = st.number_input("Seeds", 1, max_seeds, min(paper.live_seeds, max_seeds), key=f"papers_seeds_{paper.key}",
                            persist_state="session")
    horizon = paper.live_horizon or result.config.horizon
    figure = next(f for f in paper.figures if f.result == paper.live)
    st.caption(f"Reruns {figure.title.split(':')[0]} with seeds 0..{int(seeds) - 1}, horizon {horizon:,}"
               + (f", the first {paper.live_instances} instances" if paper.live_instances else "")
               + "; the same shape should appear.")
    show_warnings(result)
    ran_key = f"papers_ran_{paper.key}"
    if st.button("Run the scaled-down experiment", key=f"papers_run_{paper.key}"):
        bar = st.progress(0.0)

        def report(done: int, total: int) -> None:
            bar.progress(done / max(total, 1), f"{done} / {total} runs")

        try:
            st.session_state[ran_key] = reproduce.rerun(result, int(seeds), horizon, paper.live_instances,
                                                        progress=report)
        except ValueError as exc:
            state.show_error(exc, "scaled-down run")
        bar.empty()
    table = st.session_state.get(ran_key)
    if table is not None:
        charts.show(figure.draw(table, result), key=f"papers_live_{paper.key}")


st.markdown("## The papers")
st.caption("Each paper's figures, redrawn by banditviz from the results shipped with the package (computed with "
           "the command line from the experiment configs in `experiments/`); a verdict for every claim, checked "
           "whole in the paper's setting against a tolerance fixed before the runs (each row gives its own and the "
           "broken variant it rejects); the decisions the verdicts rest on; the theorems' rates measured; and a "
           "scaled-down rerun you can start here.")
try:
    RESULTS = shipped_results()
    COUNTS = verdict_counts()
except (ValueError, OSError) as exc:
    state.show_error(exc, "shipped results")
    RESULTS, COUNTS = {}, {}
if COUNTS:
    st.markdown(f"**{sum(COUNTS.values())} claims**: " + ", ".join(
        f"{n} {verdict}" for verdict, n in COUNTS.items() if n) + ". \"Partly checked\" claims are not counted as "
        "reproduced; numbers of our own re-implementations are shown apart.")


def show_paper(paper) -> None:
    """One paper: its setting, verdicts and tables, rates, figures, worked examples and live rerun."""
    st.header(paper.title, divider="gray")
    st.caption(paper.reference)
    st.markdown(f"**Setting.** {paper.setting}")
    st.markdown("**Verdicts**")
    try:
        show_verdicts(paper.key)
        show_tables(paper.key, RESULTS)
        show_decisions(paper.key, RESULTS)
        show_consistency(paper.key, RESULTS)
        if paper.charts:
            st.markdown("**Rates and summaries**")
            show_charts(paper, RESULTS)
        show_figures(paper, RESULTS)
    except (ValueError, KeyError) as exc:
        state.show_error(exc, "verdicts")
    show_extras(paper.key)
    live_rerun(paper, RESULTS)


# one paper at a time, and only the open one drawn: the five at once were ~30 charts, 13-23 s of the browser's time a
# visit (a first visit 50-58 s) where one paper's take a third of that
for tab, paper in zip(forms.tabs([p.tab for p in PAPERS], "papers_tab"), PAPERS, strict=True):
    if tab.open:
        with tab:
            show_paper(paper)
