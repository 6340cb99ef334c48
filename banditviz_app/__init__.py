"""UI helpers shared by the Streamlit pages (session state, URL encoding, forms, cached runs).

This package imports Streamlit; the simulation package `banditviz` never does.
"""
