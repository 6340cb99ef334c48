"""banditviz: Streamlit entry point (``streamlit run app.py``).

Navigation over the five pages in ``pages/``; the landing page is Watch, which runs the default
algorithm on the default instance at once, so the first screen already shows an animated run.
The session's setting is read from the URL on the first run and written back after every run,
so the address bar always holds a link that reproduces what is on screen.

Navigation (decision): Streamlit also treats a ``pages/`` folder beside the main script as a legacy
multipage app until a session reaches `st.navigation`; its automatic sidebar of raw file names is hidden
by ``client.showSidebarNavigation = false`` (.streamlit/config.toml), so the app draws its own links, and a
page opened alone in that mode hands over to this script (`state.inside_app`). Every page's address
(``/design``, ``/compare?...``) therefore opens the full app on that page.
"""

import logging

import streamlit as st

from banditviz_app import state

st.set_page_config(page_title="banditviz: watch Pareto bandits learn", page_icon="🎯", layout="wide")
# Static style (no user content): less empty space above the page, so the figure fits a projector screen.
st.html("<style>[data-testid='stMainBlockContainer']{padding-top:2.5rem;padding-bottom:2rem}</style>")
state.init_session()
state.sync_url()  # now, as well as at the end: a page may stop early (st.stop)

PAGES = [
    st.Page("pages/watch.py", title="Watch", icon=":material/play_circle:", default=True),
    st.Page("pages/design.py", title="Design", icon=":material/edit:"),
    st.Page("pages/compare.py", title="Compare", icon=":material/bar_chart:"),
    st.Page("pages/papers.py", title="Papers", icon=":material/description:"),
    st.Page("pages/learn.py", title="Learn", icon=":material/school:"),
]
page = st.navigation(PAGES, position="hidden")

with st.sidebar:
    with st.container(key="bv_nav"):
        for p in PAGES:
            st.page_link(p)
    st.divider()
    state.show_setting_in(st.empty())  # redrawn whenever the page changes the setting

for message in state.pop_url_messages():
    st.warning(message, icon=":material/link_off:")
try:
    page.run()
except Exception as exc:  # a bug, not bad input (pages show those as ValueErrors): a message, never a traceback
    logging.getLogger("banditviz").exception("page %s failed", page.title)
    st.error(f"Something went wrong on this page ({type(exc).__name__}: {exc}). Your instance is kept: change a "
             "setting, or reload the page.", icon=":material/error:")
state.sync_url()
