"""Design: build the instance (table of arms, generators, presets, noise), preview its fronts, import/export JSON."""

import pandas as pd
import streamlit as st

import banditviz
from banditviz import figures
from banditviz.instances import NOISES
from banditviz_app import fold, forms, state, table

st.markdown("## Design an instance")
fold.style()


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


# The instance's sources and its arms on the left, its preview on the right: the figure starts at the top of the page
# (in presentation mode it fills the screen below the title, `fold`).
left, right = st.columns([5, 6], gap="large")
with left:
    start_preset, start_gen, start_file = forms.tabs(["Papers' presets", "Generate", "Import JSON"], "design_tab")
    current_preset = state.current().source.get("preset")
    with start_preset:
        shown_dims = {2: "2D", 3: "3D"}.get(banditviz.PRESETS[current_preset].dims, "any") if current_preset else "2D"
        dims = st.radio("Objectives drawn", ["2D", "3D", "any"], horizontal=True,
                        key=forms.seeded("design_dims", shown_dims), persist_state="session")
        wanted = {"2D": 2, "3D": 3}.get(dims)
        names = [n for n, p in banditviz.PRESETS.items() if wanted is None or p.dims == wanted]
        if current_preset in names:
            forms.seeded("design_preset", current_preset)
        name = st.selectbox("Preset", names, key="design_preset", persist_state="session",
                            format_func=lambda n: forms.labelled(n, banditviz.PRESETS[n].paper))
        if name is not None:
            st.caption(banditviz.PRESETS[name].description)
            if st.button("Load preset", key="design_load"):
                replace_instance(lambda: banditviz.preset(name), {"preset": name})
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
    if inst.kind == "means":
        edit_means(inst)
    else:
        st.info(f"A {inst.kind} instance is edited through its JSON (export, edit, import) or regenerated.")
    inst = state.current().instance
    title.subheader(f"Arms of {state.plain(inst.name or 'the custom instance')}")
    if inst.means is not None:
        pareto, effective = set(inst.pareto_set), set(inst.effective_set)
        gaps = pd.DataFrame({"arm": list(inst.arm_names),
                             "Pareto optimal": [i in pareto for i in range(inst.K)],
                             "effective front": [i in effective for i in range(inst.K)],
                             "Pareto gap": inst.pareto_gaps, "effective gap": inst.effective_gaps})
        st.dataframe(gaps, hide_index=True, key="design_gaps")
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
with right, fold.box("design"):
    try:
        preview = figures.instance_preview(inst, objectives=objectives).update_layout(title_font_size=18)
        fold.show(preview, key="design_preview")
    except ValueError as exc:
        state.show_error(exc)
