"""What the browser said while a test ran: console errors, uncaught page errors and requests off the machine, in every
context a `ConsoleLog` watches. Every log's errors are also kept in order in `SEEN`: a failed test's report lists those
seen while it ran, so that an error behind a wrong picture is seen when the test failed on the picture first."""

from __future__ import annotations

import urllib.parse

# Streamlit's frontend, opened at a page's own address (/design), first looks for the server under that path
# (/design/_stcore/health, /design/_stcore/host-config), then at the root: those two 404s are its probe, not a fault.
# Why they cannot be avoided here (checked in Streamlit 1.67's bundle): the candidate base URLs are the address's
# path and its parent (at most two), taken from `window.location` unless `window.__streamlit.BACKEND_BASE_URL` is
# set before the bundle loads, which only a page embedding Streamlit can do; the server's own index.html has no
# such hook, and `server.baseUrlPath` would move the whole app (not acceptable). Answering 200 under /design would
# make the frontend take /design as its base (its stream and assets would then 404), and Chromium logs any failed
# request as a console error, which no script in the page can silence.
BASE_PATH_PROBES = ("/_stcore/health", "/_stcore/host-config")
LOCAL_HOSTS = ("127.0.0.1", "localhost", "[::1]", "::1")
SEEN: list[str] = []  # every error any log recorded, in order


def off_machine(url: str) -> bool:
    """Whether a request for ``url`` would leave the machine (data:, blob: and local addresses do not)."""
    parts = urllib.parse.urlparse(url)
    return parts.scheme in ("http", "https", "ws", "wss") and parts.hostname not in LOCAL_HOSTS


class ConsoleLog:
    """Every console error, uncaught page error and request that leaves the machine, in the browser contexts it
    watches. A request off the machine is recorded when it is made, whether or not it would succeed (offline, it
    fails and Chromium logs a console error too; online, it succeeds silently)."""

    def __init__(self) -> None:
        self.errors: list[str] = []
        self.off_machine: list[str] = []

    def watch(self, context) -> None:
        context.on("console", self._console)
        context.on("weberror", self._page_error)
        context.on("request", self._request)

    def _page_error(self, error) -> None:
        stack = (getattr(error.error, "stack", "") or "").splitlines()[1:4]  # where it was thrown (the first frames)
        self._add(f"uncaught page error: {error.error}" + ("\n  " + "\n  ".join(stack) if stack else ""))

    def _request(self, request) -> None:
        if off_machine(request.url):
            self.off_machine.append(request.url)
            self._add(f"request off the machine: {request.url}")

    def _console(self, message) -> None:
        if message.type != "error":
            return
        url = message.location.get("url", "")
        path = urllib.parse.urlparse(url).path
        if message.text.startswith("Failed to load resource") and path.endswith(BASE_PATH_PROBES) \
                and path.count("/") > 2:
            return
        self._add(f"console error: {message.text} (at {url})")

    def _add(self, error: str) -> None:
        self.errors.append(error)
        SEEN.append(error)
