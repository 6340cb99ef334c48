"""Widgets generated from the algorithm registry: a picker grouped by task and a form per algorithm, and the
number field every page uses.

Widget state follows one pattern: a widget's key is seeded from the session's setting when it is absent
(first time on a page), so leaving a page and coming back shows the current setting, not a stale widget.

Number fields keep what the person typed (`number_field`). Streamlit's number input, given a range, marks a
typed value outside it as invalid and keeps the previous value, which a button then uses without a word in
the page; an integer input cuts 5.7 to 5; the default format shows 0.004 as 0.00. So every number field has no
range in the widget, is a float input (integer fields too) shown with "%g", and the value as typed goes to the
validators (`Param.validate`, `limits.check_int`, the instance's own checks), whose message names the field.
"""

from __future__ import annotations

import re
from typing import Any

import streamlit as st

import banditviz
from banditviz.algorithms.base import TASKS, AlgorithmSpec, Param, is_external

from . import state

TASK_LABELS = {
    "identify": "Identify the Pareto front",
    "regret": "Minimise regret",
    "lexicographic": "Lexicographic objectives",
    "risk-averse": "Risk-averse (mean-variance)",
}


_AUTHORS = re.compile(r"(\b[^\W\d][\w\-]*)(?:, [^\W\d][\w\-]*)+ & [^\W\d][\w\-]*")


def _top_level(text: str) -> tuple[list[str], list[str]]:
    """``text`` split at its ", " outside parentheses, and its outermost parenthesised groups."""
    parts, groups, depth, start, opened = [], [], 0, 0, 0
    for i, ch in enumerate(text):
        if ch == "(":
            depth, opened = depth + 1, (i if depth == 0 else opened)
        elif ch == ")" and depth:
            depth -= 1
            if depth == 0:
                groups.append(text[opened:i + 1])
        elif text.startswith(", ", i) and depth == 0:
            parts.append(text[start:i])
            start = i + 2
    return parts + [text[start:]], groups


def cite(paper: str) -> str:
    """A short, balanced citation of a registry ``paper`` string for a selectbox label.

    Three or more authors become "First et al."; then the text up to its first top-level comma, with
    the first top-level parenthesised group (venue, year) added when that part has none:
    "Kone, Kaufmann & Richert (AISTATS 2025)" -> "Kone et al. (AISTATS 2025)",
    "baseline (uniform allocation, LinPSI Sec. 5)" stays whole (its comma is inside the parentheses).
    """
    text = _AUTHORS.sub(r"\1 et al.", paper.strip())
    parts, groups = _top_level(text)
    head = parts[0]
    if "(" not in head and groups:
        head += " " + groups[0]
    return head


def labelled(name: str, paper: str) -> str:
    """``name — short citation`` for a selectbox of algorithms or presets; an algorithm from outside the package
    (a plugin, `banditviz.plugins`) is marked as external."""
    spec = banditviz.ALGORITHMS.get(name)
    external = " (external)" if spec is not None and spec.paper == paper and is_external(spec) else ""
    return f"{name}{external} — {cite(paper)}"


def seeded(key: str, value: Any) -> str:
    """Seed widget ``key`` with ``value`` unless the widget already holds a value; returns the key."""
    if key not in st.session_state:
        st.session_state[key] = value
    return key


def tabs(labels: list[str], key: str) -> list:
    """`st.tabs` that reopen on the tab the user chose last, also after a visit to another page (Streamlit drops
    the state of tabs that a run does not draw), and rerun when the user switches (each tab's ``.open`` says
    whether to draw it). The choice is copied to ``<key>_kept`` on every run; the default stays fixed while the tabs
    are on screen (it is part of the widget's identity)."""
    kept, opened = f"{key}_kept", f"{key}_opened"
    if key not in st.session_state:  # first drawn, or back from another page
        st.session_state[opened] = st.session_state.get(kept)
    default = st.session_state[opened]
    drawn = st.tabs(labels, key=key, default=default if default in labels else None, on_change="rerun")
    st.session_state[kept] = st.session_state[key]
    return drawn


def compatible(kind: str) -> dict[str, AlgorithmSpec]:
    """Registered algorithms that run on instances of ``kind``."""
    return {n: s for n, s in banditviz.ALGORITHMS.items() if kind in s.kinds}


def algorithm_picker(kind: str, current: str, key: str = "alg") -> str:
    """Task, then algorithm (only those that run on ``kind``); the help names the paper."""
    algs = compatible(kind)
    tasks = [t for t in TASKS if any(s.task == t for s in algs.values())]
    task_key = f"{key}_task_{kind}"
    task = st.selectbox("Task", tasks, format_func=TASK_LABELS.get,
                        key=seeded(task_key, algs[current].task if current in algs else tasks[0]))
    names = [n for n, s in algs.items() if s.task == task]
    alg_key = f"{key}_{kind}_{task}"
    if st.session_state.get(alg_key) not in names:
        st.session_state[alg_key] = current if current in names else names[0]
    name = st.selectbox("Algorithm", names, key=alg_key,
                        format_func=lambda n: labelled(n, algs[n].paper),
                        help="Each algorithm is listed with the paper it comes from.")
    st.caption(f"**{name}** — {algs[name].summary}  \n_Paper: {algs[name].paper}_")
    return name


def _param_help(spec: AlgorithmSpec, p: Param) -> str:
    opening = "(" if p.low_open else "["
    rng = f" Range {opening}{p.low:g}, {p.high:g}]." if p.low is not None and p.high is not None else ""
    default = "automatic (paper formula)" if p.default is None else repr(p.default)
    return f"{p.help}.{rng} Paper default: {default} ({spec.paper})."


def number_field(label: str, key: str, value: float | None, *, whole: bool = False, container: Any = st,
                 **kw: Any) -> float | int | None:
    """A number input that keeps what the person typed (see the module docstring): no range, a float widget shown
    with "%g", seeded with ``value``. Returns the typed number, an int when ``whole`` and the number is whole (the
    caller's validator refuses 5.7 for a whole number, naming the field), or None for an empty field."""
    seeded(key, None if value is None else float(value))
    if isinstance(st.session_state[key], int) and not isinstance(st.session_state[key], bool):
        st.session_state[key] = float(st.session_state[key])  # set as an int (a test, an older session)
    typed = container.number_input(label, key=key, format="%g", step=1.0 if whole else None, **kw)
    if typed is None or not whole or not float(typed).is_integer():
        return typed
    return int(typed)


def param_widget(spec: AlgorithmSpec, p: Param, value: Any, key: str) -> Any:
    """One input for one parameter: selectbox for choices, checkbox for bools, `number_field` otherwise."""
    label, helptext = p.name, _param_help(spec, p)
    if p.choices is not None:
        seeded(key, value)
        return st.selectbox(label, list(p.choices), key=key, help=helptext)
    if p.type is bool:
        seeded(key, value)
        return st.checkbox(label, key=key, help=helptext)
    return number_field(label, key, value, whole=p.type is int, help=helptext,
                        placeholder="automatic" if p.default is None else None)


def params_form_fields(spec: AlgorithmSpec, params: dict[str, Any], key: str) -> dict[str, Any]:
    """Widgets for every parameter of ``spec`` (inside a form); returns the values that are set."""
    values = spec.validate({k: v for k, v in params.items() if k in {p.name for p in spec.params}})
    out = {}
    cols = st.columns(2) if len(spec.params) > 1 else [st.container()]
    for i, p in enumerate(spec.params):
        with cols[i % len(cols)]:
            v = param_widget(spec, p, values[p.name], f"{key}_{spec.name}_{p.name}")
        if v is not None:
            out[p.name] = v
    return out


def horizon_seed_fields(setting: state.Setting, key: str) -> tuple[Any, Any]:
    """The horizon and seed as typed (`state.check_run` says what is wrong with them)."""
    c1, c2 = st.columns(2)
    horizon = number_field("Horizon T (rounds)", f"{key}_T", setting.horizon, whole=True, container=c1,
                           help=f"A whole number from 1 to {state.APP_MAX_HORIZON:,}. Identification algorithms "
                                "may stop earlier.")
    seed = number_field("Seed", f"{key}_seed", setting.seed, whole=True, container=c2,
                        help="A whole number from 0 to 2^32 - 1. Same seed, same noise: the run is reproducible "
                             "bit for bit.")
    return horizon, seed
