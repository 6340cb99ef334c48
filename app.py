"""banditviz app entry point (placeholder until the multipage app lands): shows the default instance."""

import streamlit as st

import banditviz

st.set_page_config(page_title="banditviz", layout="wide")
st.title("banditviz")
inst = banditviz.preset("default")
st.write(inst.description)
st.dataframe({name: inst.means[:, j] for j, name in enumerate(inst.objective_names)})
