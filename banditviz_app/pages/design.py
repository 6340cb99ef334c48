"""Design: build the instance (table of arms, generators, presets, noise), preview its fronts, import/export JSON."""

import hashlib

import pandas as pd
import streamlit as st

import banditviz
from banditviz import figures
from banditviz.instances import NOISES
from banditviz_app import arm_picker, arms_canvas, fold, forms, history, state, table

st.markdown("## Design an instance")
fold.style()
CANVAS = "design_canvas"
PICKER = "design_picker"
SELECTED_ROW = "#fff1c2"  # the gaps table's row of the arm selected in the 3-D preview (the player's pulled row)
CURRENT = "(current)"  # the preset box's entry for the current instance when it is not a preset


def replace_instance(make, source: dict, what: str = "Not applied, the instance is unchanged") -> bool:
    """Build a new instance with ``make()``; on ValueError show it, keep the current instance, return False."""
    try:
        state.set_instance(make(), source)
    except ValueError as exc:
        state.show_error(exc, what)
        return False
    return True


def apply_edit(make, inst: banditviz.Instance) -> bool:
    """`replace_instance` for a change of ``inst`` itself: the result is a custom instance named after ``inst``."""
    return replace_instance(lambda: state.as_edit(make(), inst), {})


def take_canvas_edit() -> None:
    """Callback of the canvas's ``edit`` trigger: keep the edit for this run to apply (`apply_canvas_edit`)."""
    st.session_state["design_canvas_edit"] = st.session_state[CANVAS]["edit"]


def take_canvas_history() -> None:
    """Callback of the canvas's ``history`` trigger (Ctrl+Z, Ctrl+Y)."""
    history.request(st.session_state[CANVAS]["history"])


def apply_canvas_edit() -> None:
    """The arms placed, moved or removed on the canvas since the last run, as an edit of the current instance. An
    edit made before the previous canvas edit's instance reached the page carries that edit's starting token: it is
    accepted while the current instance is the one the previous edit made."""
    payload = st.session_state.pop("design_canvas_edit", None)
    if payload is None:
        return
    inst = state.current().instance
    before, after = st.session_state.get("design_canvas_chain", (None, None))
    also = (before,) if before is not None and after == arms_canvas.token(inst) else ()
    if apply_edit(lambda: arms_canvas.edited(payload, inst, also), inst):
        st.session_state["design_canvas_chain"] = (payload.get("token"), arms_canvas.token(state.current().instance))


def take_pick(what: str) -> None:
    """Callback of the 3-D picker's ``select`` and ``remove`` triggers: keep the payload for this run to apply."""
    st.session_state["design_pick"] = (what, st.session_state[PICKER][what])


def take_pick_history() -> None:
    """Callback of the 3-D picker's ``history`` trigger (Ctrl+Z, Ctrl+Y)."""
    history.request(st.session_state[PICKER]["history"])


def apply_pick() -> None:
    """The arm selected in the 3-D preview, or removed (Delete), since the last run."""
    pick = st.session_state.pop("design_pick", None)
    if pick is None:
        return
    what, payload = pick
    inst = state.current().instance
    arm_picker.keep_camera(payload)
    try:
        arm = arm_picker.chosen(payload, inst)
    except ValueError as exc:
        state.show_error(exc, "Not applied, the instance is unchanged")
        return
    if what == "remove" and arm is not None:
        if apply_edit(lambda: arm_picker.without(inst, arm), inst):
            arm_picker.select(inst, None)
    else:
        arm_picker.select(inst, arm)


def name_and_description(inst: banditviz.Instance) -> None:
    """The instance's name and description as the user types them (kept through later edits, `state.as_edit`). The
    fields are keyed by what they show, so an edit that renames the instance ("custom (from ...)") shows the new name;
    a change typed here is applied at the top of the next run (`apply_rename`)."""
    tag = hashlib.sha1(f"{inst.name}\0{inst.description}".encode()).hexdigest()[:10]
    keys = (f"design_name_{tag}", f"design_description_{tag}")
    box = st.expander("Name and description", icon=":material/edit_note:")
    c1, c2 = box.columns([2, 3])
    c1.text_input("Instance name", inst.name, max_chars=200, key=keys[0], on_change=take_rename, args=keys,
                  help="Shown in the link, the sidebar, the figures' titles and the exported JSON.")
    c2.text_area("Description", inst.description, max_chars=5000, height=68, key=keys[1], on_change=take_rename,
                 args=keys, help="What the instance shows (for a class: its point in a sentence).")


def take_rename(name_key: str, description_key: str) -> None:
    """Callback of the name and description fields: keep what they hold for this run to apply."""
    st.session_state["design_rename"] = (st.session_state[name_key], st.session_state[description_key])


def apply_rename() -> None:
    """The name and description typed since the last run, given to the current instance (an empty name refused)."""
    typed = st.session_state.pop("design_rename", None)
    if typed is None:
        return
    name, description = typed[0].strip(), typed[1].strip()
    if not name:
        state.show_error(ValueError("name: type a name, such as 'lecture 3: a Pareto arm off the hull'"),
                         "Not renamed")
        return
    inst = state.current().instance
    replace_instance(lambda: inst.with_changes(name=name, description=description), {})


def edit_means(inst: banditviz.Instance) -> None:
    """Objectives count, noise model and the table of arms of a fixed-means instance."""
    c1, c2, c3 = st.columns(3)
    L = c1.radio("Objectives", [2, 3], index=0 if inst.L == 2 else 1, horizontal=True,
                 key=f"design_L_{state.version()}", disabled=inst.L > 3)
    if inst.L <= 3 and L != inst.L and apply_edit(lambda: table.change_objectives(inst, L), inst):
        st.rerun()
    noise = c2.selectbox("Noise", NOISES, index=NOISES.index(inst.noise), key=f"design_noise_{state.version()}")
    sigma = forms.number_field("sigma (Gaussian)", f"design_sigma_{state.version()}", inst.sigma, container=c3,
                               disabled=noise != "gaussian",
                               help="The noise's standard deviation: a number in (0, 1000].")
    changed = noise != inst.noise or (noise == "gaussian" and sigma != inst.sigma)
    if changed and apply_edit(lambda: inst.with_changes(noise=noise, sigma=sigma), inst):
        st.rerun()
    # The editor's state holds its edits relative to the table it was first drawn with (`base`). Streamlit drops
    # that state when the user opens another page, so a fresh editor starts from the current instance.
    editor = f"design_editor_{state.version()}"
    stored = st.session_state.get("design_table")
    if stored is None or stored[0] != editor or editor not in st.session_state:
        stored = (editor, table.to_table(inst))
        st.session_state["design_table"] = stored
    base = stored[1]
    # The means are text cells (`table`): a number cell's editor drops the "e" of 1e-3 and the first keys typed
    # while it opens (".1" then read as 1), so what was typed is read by `table.from_table`, which names a bad cell.
    config = {table.NAME: st.column_config.TextColumn(table.NAME, max_chars=60)}
    config.update({o: st.column_config.TextColumn(o, alignment="right", max_chars=40) for o in inst.objective_names})
    edited = st.data_editor(base, num_rows="dynamic", key=editor,
                            column_config=config, hide_index=True)
    st.caption("Edit a cell, add a row at the bottom, or select rows and delete them; the preview follows.")
    if st.button("Add a random arm", key="design_add_random"):
        apply_edit(lambda: table.add_random_arm(inst), inst)
        st.rerun()
    if not edited.equals(base):
        try:
            new = table.from_table(edited, inst, shown=base)
            if new != inst:
                state.set_instance(state.as_edit(new, inst), {}, from_table=True)
        except ValueError as exc:
            state.show_error(exc, "Table not applied, the instance is unchanged")


history.apply_request()
apply_canvas_edit()
apply_pick()
apply_rename()
history.observe()
def presets_tab() -> None:
    """The papers' presets, drawn after this run's edits so that the box names the instance they made: a preset's
    name, or "<name> (current)" for an edited, generated or imported instance."""
    current_preset = state.current().source.get("preset")
    shown_dims = {2: "2D", 3: "3D"}.get(banditviz.PRESETS[current_preset].dims, "any") if current_preset else "2D"
    dims = st.radio("Objectives drawn", ["2D", "3D", "any"], horizontal=True,
                    key=forms.seeded("design_dims", shown_dims), persist_state="session")
    wanted = {"2D": 2, "3D": 3}.get(dims)
    names = [n for n, p in banditviz.PRESETS.items() if wanted is None or p.dims == wanted]
    shown = state.current().instance
    if current_preset is None:  # an edited, generated or imported instance: the box names it first
        names.insert(0, CURRENT)
    if st.session_state.get("design_preset_of") != shown:  # the instance changed: the box shows it
        st.session_state["design_preset_of"] = shown
        if current_preset is None or current_preset in names:
            st.session_state["design_preset"] = current_preset or CURRENT
    name = st.selectbox("Preset", names, key="design_preset", persist_state="session",
                        format_func=lambda n: f"{shown.name or 'custom'} (current)" if n == CURRENT
                        else forms.labelled(n, banditviz.PRESETS[n].paper))
    if name == CURRENT:
        st.caption(state.plain(shown.description) or "The current instance, not a preset.")
    elif name is not None:
        st.caption(banditviz.PRESETS[name].description)
        if st.button("Load preset", key="design_load") and replace_instance(lambda: banditviz.preset(name),
                                                                             {"preset": name}):
            st.rerun()  # the arms and the preview, drawn before, show the preset


# The instance's sources and its arms on the left, its preview on the right: the figure starts at the top of the page
# (in presentation mode it fills the screen below the title, `fold`).
left, right = st.columns([5, 6], gap="large")
with left:
    start_preset, start_gen, start_file = forms.tabs(["Papers' presets", "Generate", "Import JSON"], "design_tab")
    with start_gen:
        made = state.current().source  # the generator and parameters of the current instance, if it was generated
        gp = made.get("gp", {}) if "gen" in made else {}

        def gen_field(col, label: str, name: str, default, whole: bool = True):
            """One generator parameter as typed (the generator names a bad one), showing the current instance's
            value when it was generated."""
            return forms.number_field(label, f"design_gen_{name}", gp.get(name, default), whole=whole, container=col)

        gen = st.selectbox("Generator", list(state.GENERATORS),
                           key=forms.seeded("design_gen", made.get("gen", "uniform_box")),
                           help="The core's seeded generators (banditviz.instances).")
        c = [*st.columns(3), *st.columns(3)]
        args = {"K": gen_field(c[0], "arms K", "K", 8), "L": gen_field(c[1], "objectives L", "L", 2),
                "seed": gen_field(c[2], "seed", "seed", 0),
                "sigma": gen_field(c[3], "noise sigma", "sigma", 0.5, whole=False)}
        if gen in ("random_linear", "random_contextual"):
            args["d"] = gen_field(c[4], "features d", "d", 3)
        if st.button("Generate", key="design_generate"):
            replace_instance(lambda: state.build_generated(gen, args), {"gen": gen, "gp": args})
    with start_file:
        # No size cap on the widget: a file the browser itself refuses never reaches this script, which would leave
        # the previous file's message on screen. `from_json` refuses more than 1 MB, and the message names this file.
        upload = st.file_uploader("Instance JSON (at most 1 MB)", type=["json"], key="design_upload")
        if upload is not None:
            if st.session_state.get("design_upload_id") != upload.file_id:  # a new file: load it once
                st.session_state["design_upload_id"] = upload.file_id
                try:
                    state.set_instance(banditviz.Instance.from_json(upload.getvalue()), {})
                    st.session_state["design_upload_error"] = None
                except ValueError as exc:
                    st.session_state["design_upload_error"] = f"{upload.name}: {exc}"
            if st.session_state.get("design_upload_error"):  # shown as long as that file is the one chosen
                state.show_error(ValueError(st.session_state["design_upload_error"]),
                                 "Upload not loaded, the instance is unchanged")

    inst = state.current().instance
    title = st.empty()  # filled after the edits below, so it names the instance they made
    name_and_description(inst)
    if inst.kind == "means":
        edit_means(inst)
    else:
        st.info(f"A {inst.kind} instance is edited through its JSON (export, edit, import) or regenerated.")
    inst = state.current().instance
    title.subheader(f"Arms of {state.plain(inst.name or 'the custom instance')}")
    with start_preset:
        presets_tab()
    if inst.means is not None and not arms_canvas.supports(inst):  # the canvas shows its own, live
        pareto, effective = set(inst.pareto_set), set(inst.effective_set)
        gaps = pd.DataFrame({"arm": list(inst.arm_names),
                             "Pareto optimal": [i in pareto for i in range(inst.K)],
                             "effective front": [i in effective for i in range(inst.K)],
                             "Pareto gap": inst.pareto_gaps, "effective gap": inst.effective_gaps})
        # Short columns, gaps to 3 decimals: the five fit the left column at 1366 px, none cut off
        number = {"format": "%.3f", "width": "small"}
        picked = arm_picker.selected(inst) if arm_picker.supports(inst) else None
        shown = gaps.style.apply(lambda row: [f"background-color: {SELECTED_ROW}" if row.name == picked else ""
                                              for _ in row], axis=1) if picked is not None else gaps
        st.dataframe(shown, hide_index=True, key="design_gaps", column_config={
            "arm": st.column_config.TextColumn("arm", width="small"),
            "Pareto optimal": st.column_config.CheckboxColumn("Pareto", width="small"),
            "effective front": st.column_config.CheckboxColumn("effective", width="small"),
            "Pareto gap": st.column_config.NumberColumn("Pareto gap", **number),
            "effective gap": st.column_config.NumberColumn("effective gap", **number)})
        st.caption("Pareto gap: the smallest amount to add to every objective of an arm to make it non-dominated. "
                   "Effective gap: the same against the convex hull of the means (MOL-TS paper, Def. 6).")
    # The file is made when the button is clicked (deferred): a file made with the page would be dropped by the
    # next run while the browser still checks its address (a 404 in the console when the page changes at once).
    st.download_button("Export JSON", lambda inst=inst: inst.to_json(), file_name="instance.json",
                       mime="application/json", key="design_export")
    st.caption("Algorithm, horizon and seed are chosen on the Watch page; the address bar's link holds them all.")
    objectives = None
    if inst.L > 3:
        objectives = tuple(st.multiselect("Objectives to draw (2 or 3)", list(range(inst.L)), default=[0, 1],
                                          format_func=lambda j: inst.objective_names[j], max_selections=3,
                                          key="design_objectives", persist_state="session"))
history.observe()  # the edits of the left column, so that Undo is offered at once


def preview(inst: banditviz.Instance, objectives) -> None:
    """The arms canvas for a two-objective fixed-means instance, the Plotly preview otherwise."""
    if arms_canvas.supports(inst):
        arms_canvas.show(inst, CANVAS, take_canvas_edit, take_canvas_history)
        return
    try:
        fig = figures.instance_preview(inst, objectives=objectives).update_layout(title_font_size=18)
    except ValueError as exc:
        state.show_error(exc)
        return
    if arm_picker.supports(inst):
        fig = arm_picker.pickable(fig, inst)
    fold.show(fig, key="design_preview")


with right:
    with fold.box("design"):  # the preview alone: in presentation mode it fills the screen below its top
        preview(inst, objectives)
    if arm_picker.supports(inst):  # outside the box, whose elements share its height (fold.css)
        arm_picker.show(inst, PICKER, "bv_fold_design", lambda: take_pick("select"), lambda: take_pick("remove"),
                        take_pick_history)
    buttons = st.container(horizontal=True, vertical_alignment="center")
    buttons.button("Undo", key="design_undo_button", icon=":material/undo:", on_click=history.request, args=("undo",),
                   disabled=not history.can("undo"), help="Undo the last change of the instance (Ctrl+Z on the plot)")
    buttons.button("Redo", key="design_redo_button", icon=":material/redo:", on_click=history.request, args=("redo",),
                   disabled=not history.can("redo"), help="Redo what was undone (Ctrl+Y on the plot)")
    picked = arm_picker.selected(inst) if arm_picker.supports(inst) else None
    if picked is not None:
        buttons.button(f"Remove {inst.arm_names[picked]}", key="design_remove_picked", icon=":material/delete:",
                       on_click=lambda: st.session_state.update(design_pick=(
                           "remove", {"arm": picked, "token": arms_canvas.token(inst)})),
                       help="Remove the arm selected in the preview (Delete on the page; Undo restores it)")
    if arm_picker.supports(inst) and not state.presenting():
        buttons.caption("Click an arm to select it (a drag turns the scene and selects nothing); Delete removes the "
                        "selected arm, Escape unselects, Ctrl+Z undoes.")
    if arms_canvas.supports(inst) and not state.presenting():
        buttons.caption("Drag an arm to move it, click empty space to add one, click an arm then press Delete to "
                        "remove it (the arrow keys move it). The arm table does all of this from the keyboard.")
