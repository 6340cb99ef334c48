"""Serving more than one process can: two `streamlit run app.py` processes behind nginx with `deploy/nginx.conf`, all
on 127.0.0.1 (the ports replaced by free ones). Each browser (here: a light visitor with its cookie jar) must stick
to one process: its page requests and its websocket are answered by one process, its Watch page works there
(figure, Run with its seed), and a reconnection takes its session up again (its seed kept), which only the process
holding the session can do. Both processes get browsers. A variant of the configuration without the sticky hash
(nginx's round robin) is checked too, and must be caught.

Skipped, saying why, when Debian's nginx is not installed (``make test`` installs it).
"""

from __future__ import annotations

import contextlib
import http.cookiejar
import re
import secrets
import shutil
import signal
import socket
import subprocess
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.browser.conftest import ROOT, free_port, streamlit_server
from tests.load.light_client import Visitor, figure_title

pytestmark = pytest.mark.load
CONF = ROOT / "deploy" / "nginx.conf"
NGINX = shutil.which("nginx") or shutil.which("nginx", path="/usr/sbin")  # /usr/sbin: not on a user's PATH
BROWSERS = 4  # each opens Watch, presses Run, reconnects
SPREAD = 20  # browsers that only load the page: both processes get some (all on one: 2 in a million)


def nginx_conf(backends: list[int], port: int, sticky: bool = True) -> str:
    """`deploy/nginx.conf` with its processes' ports and its own port replaced (``sticky=False``: without the hash,
    the broken variant)."""
    text = CONF.read_text()
    servers = re.findall(r"^ *server 127\.0\.0\.1:\d+;\n", text, flags=re.M)
    assert len(servers) == len(backends), servers
    text = text.replace("".join(servers), "".join(f"        server 127.0.0.1:{p};\n" for p in backends))
    text = re.sub(r"listen 8080;", f"listen 127.0.0.1:{port};", text)
    if not sticky:
        text = re.sub(r"^ *hash \$bv_server consistent;\n", "", text, flags=re.M)
    return text


@contextlib.contextmanager
def nginx(conf: str) -> Iterator[str]:
    """nginx in the foreground with ``conf``, in a prefix of its own; yields its URL; stops it."""
    port = int(re.search(r"listen 127\.0\.0\.1:(\d+);", conf).group(1))
    with tempfile.TemporaryDirectory(prefix="bv-nginx-") as prefix:
        Path(prefix).chmod(0o755)
        for sub in ("logs", "tmp", "cache"):
            (Path(prefix) / sub).mkdir(mode=0o777)
            (Path(prefix) / sub).chmod(0o777)  # nginx's workers run as another user when root starts it
        (Path(prefix) / "nginx.conf").write_text(conf)
        proc = subprocess.Popen([NGINX, "-p", prefix, "-c", f"{prefix}/nginx.conf",
                                 "-g", "daemon off;"], stderr=subprocess.PIPE, start_new_session=True)
        try:
            deadline = time.monotonic() + 20
            while True:
                with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), timeout=1):
                    break
                if proc.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(f"nginx did not start: {proc.stderr.read().decode()[-2000:]}")
                time.sleep(0.1)
            yield f"http://127.0.0.1:{port}"
        finally:
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()


class Browser:
    """A cookie jar and the process (``X-Served-By``) each of its requests reached (none: a static file nginx kept)."""

    def __init__(self, url: str) -> None:
        self.url, self.jar, self.served = url, http.cookiejar.CookieJar(), []
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar))

    def get(self, path: str) -> bytes:
        with self.opener.open(self.url + path, timeout=60) as r:
            if r.headers["X-Served-By"]:
                self.served.append(r.headers["X-Served-By"])
            return r.read()

    def load_page(self) -> None:
        """The requests a browser makes before its websocket: the page, its first script, the health check."""
        html = self.get("/").decode()
        self.get("/" + re.search(r'src="\.?/?(static/js/[^"]+\.js)"', html).group(1))
        self.get("/_stcore/health")

    def cookie(self) -> str:
        return "; ".join(f"{c.name}={c.value}" for c in self.jar)

    def visitor(self, query: dict[str, str] | None = None, session_id: str = "") -> Visitor:
        v = Visitor(self.url, query, timeout=180, headers={"Cookie": self.cookie()}, session_id=session_id)
        self.served.append(v.ws.response.headers["X-Served-By"])
        return v


def test_each_browser_sticks_to_one_process_and_works():
    if NGINX is None:
        pytest.skip("nginx is not installed (make test installs Debian's nginx; or apt-get install nginx)")
    secret = {"STREAMLIT_SERVER_COOKIE_SECRET": secrets.token_hex(16)}  # one secret: each accepts another's cookies
    ports = [free_port(), free_port()]
    with contextlib.ExitStack() as stack:
        for p in ports:
            stack.enter_context(streamlit_server(port=p, env=secret))
        with nginx(nginx_conf(ports, free_port(), sticky=False)) as url:  # the broken variant
            loose = Browser(url)
            for _ in range(3):
                loose.load_page()
            assert len(set(loose.served)) > 1, loose.served  # round robin: not sticky, caught
        with nginx(nginx_conf(ports, free_port())) as url:
            browsers = [Browser(url) for _ in range(BROWSERS)]
            for i, b in enumerate(browsers):
                b.load_page()
                b.load_page()
                v = b.visitor({"preset": "default", "alg": "pareto_ucb1", "T": "400", "seed": "0"})
                page = v.open()
                assert page.figure is not None and "seed 0" in figure_title(page)
                page = v.press(page, "Run", {"Seed": 500 + i})
                assert f"seed {500 + i}" in figure_title(page) and f"seed={500 + i}" in page.query
                session = v.session_id
                v.close()
                again = b.visitor(session_id=session)  # reconnects: its session, on its process
                resumed = again.open()
                again.close()
                assert again.session_id == session and f"seed {500 + i}" in figure_title(resumed), (i, resumed.query)
                b.load_page()
                assert len(set(b.served)) == 1, (i, b.served)
            spread = [Browser(url) for _ in range(SPREAD)]
            for b in spread:
                b.load_page()
                assert len(set(b.served)) == 1, b.served
    reached = {b.served[0] for b in browsers + spread}
    assert reached == {f"127.0.0.1:{p}" for p in ports}, reached  # both processes serve browsers
