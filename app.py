"""banditviz: Streamlit entry point (``streamlit run app.py``).

Navigation over the five pages in ``pages/``; the landing page is Watch, which runs the default
algorithm on the default instance at once, so the first screen already shows an animated run.
The session's setting is read from the URL on the first run and written back after every run,
so the address bar always holds a link that reproduces what is on screen.
"""

import logging

import streamlit as st

from banditviz_app import state

st.set_page_config(page_title="banditviz: watch Pareto bandits learn", page_icon="🎯", layout="wide")
# Static style (no user content): less empty space above the page, so the figure fits a projector screen.
st.html("<style>[data-testid='stMainBlockContainer']{padding-top:2.5rem;padding-bottom:2rem}</style>")
state.init_session()

PAGES = [
    st.Page("pages/watch.py", title="Watch", icon=":material/play_circle:", default=True),
    st.Page("pages/design.py", title="Design", icon=":material/edit:"),
    st.Page("pages/compare.py", title="Compare", icon=":material/bar_chart:"),
    st.Page("pages/papers.py", title="Papers", icon=":material/description:"),
    st.Page("pages/learn.py", title="Learn", icon=":material/school:"),
]
page = st.navigation(PAGES)

with st.sidebar:
    setting = state.current()
    st.markdown("**Current setting**")
    st.caption(f"Instance: {state.plain(setting.instance.name or 'custom')} — {setting.instance.K} arms, "
               f"{setting.instance.L} objectives ({setting.instance.kind})")
    st.caption(f"Algorithm: {setting.algorithm}, T = {setting.horizon:,}, seed {setting.seed}")
    if set(state.to_query(setting)) & {"preset", "gen", "inst"}:
        st.caption("The address bar holds a link to this setting: paste it anywhere to reproduce the run.")
    else:
        st.caption("This instance is too large for a link: export its JSON on the Design page to share it.")

if "bv_url_error" in st.session_state:
    st.error(st.session_state.pop("bv_url_error"), icon=":material/error:")
try:
    page.run()
except Exception as exc:  # a bug, not bad input (pages show those as ValueErrors): a message, never a traceback
    logging.getLogger("banditviz").exception("page %s failed", page.title)
    st.error(f"Something went wrong on this page ({type(exc).__name__}: {exc}). Your instance is kept: change a "
             "setting, or reload the page.", icon=":material/error:")
state.sync_url()
