"""A light visitor of a running ``streamlit run app.py``: Streamlit's own protocol over a websocket, no browser.

A browser talks to the server over one websocket (``/_stcore/stream``): it sends ``BackMsg`` protobufs (run the
script with this query string and these widget values) and receives ``ForwardMsg`` protobufs (the page's elements
as deltas, the new query string, the script's end). `Visitor` does the same from Python, so a load test can open
30 sessions on a 2-core machine and measure the server rather than 30 browsers. It keeps what a test needs: each
element by its place in the page, the query string the server wrote, and when the figure (the ``plotly_chart``
keyed `FIGURE_KEY`: not the instance's preview a waiting page shows first) arrived.

Decision: a visitor reports no widget values but those it changes (the browser reports all of them); a widget not
reported keeps its value in the session (every widget the Watch page's form uses is keyed or has its default), so
the script runs as it would for a browser.
"""

from __future__ import annotations

import json
import time
from contextlib import ExitStack
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlencode, urlsplit

from streamlit.proto.BackMsg_pb2 import BackMsg
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg
from websockets.sync.client import connect

FIGURE_KEY = "watch_figure"  # the key of Watch's figure (banditviz_app/pages/watch.py)


@dataclass
class Page:
    """What one script run sent: its elements by delta path, the query string it wrote, the figure's arrival."""

    elements: dict[tuple[int, ...], Any] = field(default_factory=dict)
    query: str | None = None
    first_at: float | None = None  # seconds after the request: the first element
    figure_at: float | None = None  # and the figure
    figure_clock: float | None = None  # when the figure came (time.perf_counter)
    figure: Any = None  # the PlotlyChart proto
    before_figure: list[str] = field(default_factory=list)  # the texts shown before the figure came, in order
    status: int | None = None  # ForwardMsg.ScriptFinishedStatus

    def of_type(self, kind: str) -> list[Any]:
        """The elements of one kind (``"markdown"``, ``"number_input"``, ...), in page order."""
        return [getattr(e, kind) for _, e in sorted(self.elements.items()) if e.WhichOneof("type") == kind]

    def texts(self) -> list[str]:
        """The markdown, caption and alert texts of the page (what a reader sees)."""
        out = [m.body for m in self.of_type("markdown")]
        return out + [a.body for a in self.of_type("alert")]


class Visitor:
    """One browser-less session of the app at ``base_url`` (``http://host:port``), opened on ``query``.

    ``headers``: sent with the websocket's opening request (a browser's cookies); ``session_id``: the session to take
    up again, as a browser does when its websocket reconnects (the server keeps a disconnected session a while)."""

    def __init__(self, base_url: str, query: dict[str, str] | None = None, timeout: float = 300.0,
                 headers: dict[str, str] | None = None, session_id: str = "") -> None:
        parts = urlsplit(base_url)
        self.query_string = urlencode(query or {})
        self.timeout = timeout
        self.page_hash = ""
        self.session_id = session_id
        # the protocol header carries, after "streamlit", an XSRF token (none here: "-") and the session to take up
        protocols = ["streamlit", "-", session_id] if session_id else ["streamlit"]
        self._open = ExitStack()
        self.ws = self._open.enter_context(connect(
            f"ws://{parts.netloc}/_stcore/stream", subprotocols=protocols, additional_headers=headers,
            max_size=None, open_timeout=timeout, close_timeout=2))

    def open(self) -> Page:
        """The first run of the page, as a browser's first visit asks for it."""
        return self.rerun([])

    def rerun(self, widget_states: list[Any]) -> Page:
        """Ask for a run with ``widget_states`` (``WidgetState`` protos) and collect what it sends until it ends."""
        msg = BackMsg()
        msg.rerun_script.query_string = self.query_string
        msg.rerun_script.page_script_hash = self.page_hash
        msg.rerun_script.widget_states.widgets.extend(widget_states)
        start = time.perf_counter()
        self.ws.send(msg.SerializeToString())
        return self._collect(start)

    def press(self, page: Page, button: str, numbers: dict[str, float] | None = None) -> Page:
        """Press the form button labelled ``button`` of ``page`` after typing ``numbers`` (label -> value) into the
        form's number inputs; the run that follows."""
        states = []
        for field_ in page.of_type("number_input"):
            if numbers and field_.label in numbers:
                state = BackMsg().rerun_script.widget_states.widgets.add()
                state.id = field_.id
                if field_.data_type == field_.INT:
                    state.int_value = int(numbers[field_.label])
                else:
                    state.double_value = float(numbers[field_.label])
                states.append(state)
        matches = [b for b in page.of_type("button") if b.label == button]
        if not matches:
            raise LookupError(f"no button {button!r} on the page")
        state = BackMsg().rerun_script.widget_states.widgets.add()
        state.id, state.trigger_value = matches[0].id, True
        states.append(state)
        return self.rerun(states)

    def _collect(self, start: float) -> Page:
        page = Page()
        deadline = time.monotonic() + self.timeout
        while True:
            data = self.ws.recv(timeout=max(0.1, deadline - time.monotonic()))
            msg = ForwardMsg()
            msg.ParseFromString(data)
            kind = msg.WhichOneof("type")
            if kind == "new_session":
                self.session_id = msg.new_session.initialize.session_id or self.session_id
                self.page_hash = msg.new_session.page_script_hash or self.page_hash
            elif kind == "navigation":
                self.page_hash = msg.navigation.page_script_hash or self.page_hash
            elif kind == "page_info_changed":
                page.query = msg.page_info_changed.query_string
                self.query_string = page.query
            elif kind == "delta" and msg.delta.WhichOneof("type") == "new_element":
                element = msg.delta.new_element
                page.elements[tuple(msg.metadata.delta_path)] = element
                if page.first_at is None:
                    page.first_at = time.perf_counter() - start
                if (element.WhichOneof("type") == "plotly_chart" and page.figure is None
                        and element.plotly_chart.id.endswith("-" + FIGURE_KEY)):
                    page.figure_clock = time.perf_counter()
                    page.figure_at = page.figure_clock - start
                    page.figure = element.plotly_chart
                elif element.WhichOneof("type") == "markdown" and page.figure is None:
                    page.before_figure.append(element.markdown.body)
            elif kind == "ref_hash":
                raise AssertionError("the server referred to a cached message this visitor never announced")
            elif kind == "script_finished":
                page.status = msg.script_finished
                if msg.script_finished != ForwardMsg.FINISHED_EARLY_FOR_RERUN:
                    return page

    def close(self) -> None:
        self._open.close()


def figure_title(page: Page) -> str:
    """The title text of the page's figure (its layout's title, or the one the player shows)."""
    spec = json.loads(page.figure.spec)
    return str(spec["layout"].get("meta", {}).get("bv", {}).get("title", ""))
