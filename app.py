"""banditviz: Streamlit entry point (``streamlit run app.py``).

Navigation over the five pages in ``banditviz_app/pages/``; the landing page is Watch, which runs the default
algorithm on the default instance at once, so the first screen already shows an animated run.
The session's setting is read from the URL on the first run and written back after every run,
so the address bar always holds a link that reproduces what is on screen.

Presentation mode (a toggle in the sidebar and on Watch, ``present=1`` in the link) is app-wide: this script
styles every page for a projector (no sidebar, header or toolbar, larger text) and, since the sidebar is hidden,
draws a compact bar of page links and the toggle at the top of every page. The link keeps ``present=1`` on every
page (`state.sync_url`).

Navigation (decision): the pages live in ``banditviz_app/pages/``, not in a ``pages/`` folder beside this script,
which Streamlit would run as a legacy multipage app (a page without this script) until a session reaches
`st.navigation`. The app draws its own links; every page's address (``/design``, ``/compare?...``) opens the full
app on that page.
"""

import logging

import streamlit as st

from banditviz import AlgorithmError
from banditviz_app import charts, plugins, serving, state

# Static styles (no user content). Normal: less empty space above the page, so the figure fits a projector screen.
NORMAL_CSS = "<style>[data-testid='stMainBlockContainer']{padding-top:2.5rem;padding-bottom:2rem}</style>"
# Presentation mode: no sidebar, header or toolbar, larger text (every rem-sized text grows by 20 px / 16 px), the
# whole width; the bar of page links small and in one line.
PRESENT_CSS = ("<style>[data-testid='stSidebar'],[data-testid='stSidebarCollapsedControl'],[data-testid='stHeader'],"
               "[data-testid='stToolbar'],[data-testid='stExpandSidebarButton']{display:none!important}"
               "html{font-size:20px}[data-testid='stMainBlockContainer']{padding-top:.8rem!important;"
               "padding-bottom:2rem;max-width:100%!important}.bv-explain{font-size:1.3rem}"
               ".st-key-bv_present_bar{gap:.2rem 1rem;font-size:.8rem}"
               ".st-key-bv_present_bar p{font-size:.8rem}.st-key-bv_present_bar a{padding:0 .3rem}</style>")

st.set_page_config(page_title="banditviz: watch Pareto bandits learn", page_icon="🎯", layout="wide")
plugins.load()  # outside algorithms (entry points, BANDITVIZ_PLUGINS), once per server process
state.init_session()
# As markdown, not st.html: on a first load st.html's style applied 0.3-0.7 s after the page's first elements (its
# code loads on demand), markdown's within about 0.4 s, often with them (measured in headless Chromium).
st.markdown(PRESENT_CSS if state.presenting() else NORMAL_CSS, unsafe_allow_html=True)
state.sync_url()  # now, as well as at the end: a page may stop early (st.stop)

PAGES = [
    st.Page("banditviz_app/pages/watch.py", title="Watch", icon=":material/play_circle:", default=True),
    st.Page("banditviz_app/pages/design.py", title="Design", icon=":material/edit:"),
    st.Page("banditviz_app/pages/compare.py", title="Compare", icon=":material/bar_chart:"),
    st.Page("banditviz_app/pages/papers.py", title="Papers", icon=":material/description:"),
    st.Page("banditviz_app/pages/learn.py", title="Learn", icon=":material/school:"),
]
page = st.navigation(PAGES, position="hidden")

if state.presenting():  # no sidebar at all (not even for a moment before the style applies): the page links and
    # the way out of presentation mode, in one line above the page
    with st.container(key="bv_present_bar", horizontal=True, vertical_alignment="center"):
        for p in PAGES:
            st.page_link(p)
        state.presentation_toggle("app_present")
    state.show_setting_in(None)
else:
    with st.sidebar:
        with st.container(key="bv_nav"):
            for p in PAGES:
                st.page_link(p)
        state.presentation_toggle("app_present")
        st.divider()
        state.show_setting_in(st.empty())  # redrawn whenever the page changes the setting

for message in state.pop_url_messages():
    st.warning(message, icon=":material/link_off:")
plugins.report_failures()
charts.fit_narrow_screens()
try:
    page.run()
except AlgorithmError as exc:  # the algorithm's fault (a plugin's, often), not the page's
    plugins.show_algorithm_error(exc)
except Exception as exc:  # a bug, not bad input (pages show those as ValueErrors): a message, never a traceback
    logging.getLogger("banditviz").exception("page %s failed", page.title)
    st.error(f"Something went wrong on this page ({type(exc).__name__}: {exc}). Your instance is kept: change a "
             "setting, or reload the page.", icon=":material/error:")
state.sync_url()
serving.settle()  # once per process, after its first run: later runs' garbage collections skip the modules
