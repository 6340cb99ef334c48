"""Watch: one algorithm on the current instance, played round by round in the browser.

The figure and its playback bar on the left, the explanation of the round on screen beside it, the
per-arm table of that same round below; all of them follow the one player (`banditviz_app.player`).
"""

import json
from dataclasses import replace

import streamlit as st

import banditviz
from banditviz import figures, guarantees, words
from banditviz.figures import explain
from banditviz_app import charts, downloads, forms, player, plugins, runs, state, upload

PLAYER = "bv_watch"
NO_RACE = "(no race)"
# Static style. Normal: the page starts below Streamlit's header, so the figure's title is not hidden under it.
# Presentation mode (app-wide) is styled by app.py.
PAGE_CSS = "<style>[data-testid='stMainBlockContainer']{padding-top:3.6rem}</style>"


def preview(instance: banditviz.Instance, height: int) -> None:
    """The instance's true means, Pareto front and effective front (`figures.instance_preview`), drawn where the
    run's figure comes, at its height; nothing for an instance the preview cannot draw."""
    try:
        fig = figures.instance_preview(instance)
    except ValueError:
        return
    fig.update_layout(height=height)
    charts.show(fig, key="watch_preview")


def race_picker(setting: state.Setting) -> str | None:
    """The race menu: a second algorithm for the setting's instance (the link's at a session's first run), or None."""
    rivals = [NO_RACE, *(n for n in forms.compatible(setting.instance.kind) if n != setting.algorithm)]
    linked = st.session_state.get(state.RACE)
    if "watch_race" not in st.session_state and linked:  # first run of the page: the link's rival
        if linked in rivals:
            st.session_state["watch_race"] = linked
        else:
            st.warning(f"race={state.plain(linked)} in the link is not an algorithm that can race "
                       f"{state.plain(setting.algorithm)} on this instance: no race.")
    if st.session_state.get("watch_race") not in rivals:
        st.session_state["watch_race"] = NO_RACE  # the rival no longer fits the instance, or is now the algorithm
    rival = st.selectbox("Race against", rivals, key="watch_race",
                         help="A second algorithm on the same instance, horizon and seed, so it sees the same "
                              "noise; drawn beside the first and played by the same controls. The link keeps it.")
    rival = None if rival == NO_RACE else rival
    st.session_state[state.RACE] = rival
    if rival:
        defaults = banditviz.get_algorithm(rival).defaults()
        st.caption(f"B = {state.plain(rival)} with its paper defaults"
                   + (": " + ", ".join(f"{state.plain(k)} = {v}" for k, v in defaults.items()) if defaults else "")
                   + ".")
    return rival


def played_caption(setting: state.Setting, logged: upload.Logged | None) -> str:
    """What the figure plays: the setting's instance, or the logged run's (the setting is kept), and the keys."""
    keys = "Keys: space plays or pauses, the arrows step."
    if logged:
        inst = logged.trace.instance
        return (f"The logged run's {words.count(inst.K, 'arm')} and {words.count(inst.L, 'objective')}; your "
                f"instance **{state.plain(setting.instance.name or 'custom')}** is kept (remove the file to watch "
                f"it again; races are for simulated runs). {keys}")
    inst = setting.instance
    return (f"Instance **{state.plain(inst.name or 'custom')}**: {words.count(inst.K, 'arm')}, "
            f"{words.count(inst.L, 'objective')} ({inst.kind}); change it on the Design page. {keys}")


setting = state.current()
inst = setting.instance
left, right = st.columns([0.74, 0.26], gap="small")

with right:
    present = state.presenting()
    if not present:  # in presentation mode, the toggle is in app.py's bar above the page
        st.markdown("**Watch an algorithm learn**")
        state.presentation_toggle("watch_present")
        st.html(PAGE_CSS)
    heading = st.empty()  # the figure's title where its layout hides it (presentation mode, a phone)
    player.explanation(PLAYER)
    legend = st.empty()  # and its legends
    about = st.empty()  # what is played: the instance (or the logged run) and the keys
    notes = st.container()  # the run's guarantee warnings (and lambda_min for a lexicographic run), once it is known
    race_box = st.container()  # the race menu, drawn once the algorithm and any logged run are known
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
    logged = upload.logged_run()  # a run of the user's own code, played instead of the setting's (which is kept)
    with race_box:
        rival = None if logged else race_picker(setting)
    about.caption(played_caption(setting, logged))

# the player sizes the chart: to the screen, down to the playback bar, in presentation mode (one of heights)
height, heights = (runs.PRESENT_HEIGHT, runs.PRESENT_HEIGHTS) if present else (runs.WATCH_HEIGHT, runs.WATCH_HEIGHTS)
skeleton = None  # while the figure is being made: the first place of the left column (a busy server says so)
said = None  # in it, what the page waits for


def waiting(message: str) -> None:
    """Say what the page waits for, in a box as tall as the figure where the figure will be, above the instance's
    arms and fronts (`preview`, drawn once: never a blank page while the run computes). Drawn only when the page
    waits, so that a rerun of a figure already made replaces nothing on screen before the figure itself."""
    global skeleton, said
    if skeleton is None:
        skeleton = left.empty()
        box = skeleton.container(height=height, border=True)
        said = box.empty()
        if not logged:
            with box:
                preview(inst, height - 90)
    said.caption(message)


try:
    if logged:
        trace, chart = logged.trace, upload.animation(logged, height, heights, present)
    else:
        chart = (runs.race(setting, rival, height, heights, present, waiting) if rival
                 else runs.animation(setting, height, heights, present, waiting))
        trace = runs.run_setting(setting)
except ValueError as exc:
    if skeleton:
        skeleton.empty()
    with left:
        state.show_error(exc)
    st.stop()
except banditviz.AlgorithmError as exc:  # the algorithm's fault, named with its round and seed
    if skeleton:
        skeleton.empty()
    with left:
        plugins.show_algorithm_error(exc)
    st.stop()

with heading:  # shown by the player where the figure's layout hides its own (at once in presentation mode)
    player.heading(PLAYER, chart.parts, shown=present)
with legend:
    player.legend(PLAYER, chart.parts, shown=present)

with notes:
    if logged:
        upload.notes(trace)
    else:
        plugins.truth_note(trace.algorithm)
    for warning in trace.info.get("warnings", ()):
        st.warning(warning)
    note = guarantees.lambda_note(inst)
    if not logged and banditviz.get_algorithm(trace.algorithm).task == "lexicographic" and note:
        st.caption(note)

with skeleton or left:  # the skeleton's place, if there is one
    player.heading(PLAYER, chart.parts, shown=present, phone=True)
with left:
    with player.chart_container(PLAYER):
        charts.show_prepared(chart, key="watch_figure", height="stretch")  # the player sizes its container
    # The first screen of a session plays by itself.
    first = not st.session_state.get("watch_autoplayed")
    # the run, not its height: turning presentation mode on or off keeps the round on screen and the playing
    run_id = json.dumps([logged.run_id if logged else state.to_query(setting), rival])
    player.controls(PLAYER, run_id=run_id, autoplay=first)
    st.session_state["watch_autoplayed"] = True
    player.legend(PLAYER, chart.parts, shown=present, phone=True)


with right:  # how the run ended (and why its effective regret exceeds its Pareto regret, where it does)
    st.markdown(state.plain(explain.outcome(trace)))
    rival_trace = runs.run_setting(replace(setting, algorithm=rival, params={})) if rival else None
    if rival_trace:
        st.markdown(state.plain(explain.outcome(rival_trace)))

st.markdown("**The arms at the round on screen**")
player.table(PLAYER)
st.download_button("Download the trace (CSV)", lambda trace=trace: runs.tidy(trace).to_csv(index=False),  # on click
                   file_name=f"trace_{trace.algorithm}_seed{trace.seed}.csv", mime="text/csv")
downloads.offer(trace, rival_trace, run_id, present)
