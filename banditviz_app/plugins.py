"""Outside algorithms in the app: loaded once per server process (`banditviz.plugins`), their failures shown in the
page; an algorithm's own fault (`banditviz.AlgorithmError`) shown as its fault, naming it, the round and the seed."""

from __future__ import annotations

import streamlit as st

import banditviz


@st.cache_resource(show_spinner=False)
def load() -> tuple[str, ...]:
    """Import the plugins once per process; the sentences of those that failed (the app starts all the same)."""
    return tuple(banditviz.load_plugins())


def report_failures() -> None:
    for failure in load():
        st.warning(failure, icon=":material/extension_off:")


def show_algorithm_error(exc: banditviz.AlgorithmError) -> None:
    """The message of an algorithm that failed: whose fault, where, and that the instance is kept."""
    st.error(f"{exc}. The algorithm, not the page, failed: your instance is kept; check the algorithm with "
             f"`python -m banditviz check {exc.algorithm}`, or choose another one.", icon=":material/error:")


def truth_note(algorithm: str) -> None:
    """Say so when ``algorithm`` is a reference oracle: it is handed the true means (``sees_truth``), so its regret
    is a yardstick, not a learner's."""
    if getattr(banditviz.get_algorithm(algorithm).cls, "sees_truth", False):
        st.info(f"**{algorithm}** is an oracle: it is given the true means every round (it declares sees_truth), so "
                "it learns nothing; its regret is the yardstick the learners are measured against.",
                icon=":material/visibility:")
