"""The Streamlit app: its pages (`pages/`, one file per page) and the helpers they share (session state, URL encoding,
forms, cached runs).

This package imports Streamlit; the simulation package `banditviz` never does.
"""
