"""banditviz.datasets: local folder, cache, download from a local HTTP server (never the network), checksum and
offline errors; the NoC preset and experiment configs go through it, and the app says so when it is missing."""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import http.server
import shutil
import threading
from pathlib import Path

import numpy as np
import pytest

import banditviz as bv
from banditviz import datasets
from banditviz.sweep import load_config

ROOT = Path(__file__).resolve().parents[2]
NOC = datasets.DATASETS["noc"]
UNREACHABLE = "http://127.0.0.1:1/noc_CM_log.csv"  # port 1: connection refused at once


@pytest.fixture
def offline(tmp_path, monkeypatch) -> Path:
    """No BANDITVIZ_DATA, an empty cache in tmp_path; returns the cache folder."""
    monkeypatch.delenv(datasets.ENV_FOLDER, raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    return tmp_path / "cache" / "banditviz"


@pytest.fixture(scope="module")
def local_copy() -> Path:
    return datasets.fetch("noc", download=False)  # BANDITVIZ_DATA, set by tests/conftest.py


@pytest.fixture
def server(tmp_path):
    """A static HTTP server on 127.0.0.1 serving tmp_path/www; yields (folder, base URL, request log)."""
    www = tmp_path / "www"
    www.mkdir()
    hits: list[str] = []

    class Handler(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args) -> None:
            hits.append(self.path)

    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Handler, directory=str(www)))
    thread = threading.Thread(target=httpd.serve_forever, args=(0.05,), daemon=True)
    thread.start()
    try:
        yield www, f"http://127.0.0.1:{httpd.server_address[1]}", hits
    finally:
        httpd.shutdown()
        httpd.server_close()


def test_the_local_folder_holds_the_pinned_bytes(local_copy):
    assert hashlib.sha256(local_copy.read_bytes()).hexdigest() == NOC.sha256
    assert bv.preset("noc").K == 259


def test_download_is_checked_cached_and_not_repeated(offline, local_copy, server):
    www, base, hits = server
    shutil.copy(local_copy, www / NOC.filename)
    path = datasets.fetch("noc", url=f"{base}/{NOC.filename}")
    assert path == offline / NOC.filename and datasets.sha256_of(path) == NOC.sha256
    assert hits == [f"/{NOC.filename}"]
    assert datasets.fetch("noc", url=f"{base}/{NOC.filename}") == path and len(hits) == 1  # from the cache
    assert list(offline.iterdir()) == [path]  # no partial file left behind


def test_a_download_with_other_bytes_is_refused_and_not_kept(offline, server):
    www, base, _ = server
    (www / NOC.filename).write_text("width;complexity;fifo;multiplier;energy;inv_runtime\n1;1;1;1;1;1\n")
    with pytest.raises(datasets.DatasetUnavailable, match="sha256"):
        datasets.fetch("noc", url=f"{base}/{NOC.filename}")
    assert not (offline / NOC.filename).exists()


def test_offline_and_not_cached_is_a_clear_error(offline):
    with pytest.raises(datasets.DatasetUnavailable) as info:
        datasets.fetch("noc", url=UNREACHABLE, timeout=5)
    message = str(info.value)
    assert "'noc'" in message and UNREACHABLE in message and datasets.ENV_FOLDER in message and "csv_path" in message
    assert isinstance(info.value, OSError) and isinstance(info.value, ValueError)
    with pytest.raises(datasets.DatasetUnavailable, match="downloads are off"):
        datasets.fetch("noc", download=False)


def test_a_corrupted_local_copy_is_refused(tmp_path, monkeypatch):
    (tmp_path / NOC.filename).write_text("not the NoC data\n")
    monkeypatch.setenv(datasets.ENV_FOLDER, str(tmp_path))
    with pytest.raises(datasets.DatasetUnavailable, match="sha256"):
        datasets.fetch("noc", download=False)


def test_an_explicit_path_and_a_file_url(offline, local_copy, tmp_path):
    assert datasets.fetch("noc", path=local_copy) == local_copy
    with pytest.raises(datasets.DatasetUnavailable, match="no file"):
        datasets.fetch("noc", path=tmp_path / "missing.csv")
    assert datasets.sha256_of(datasets.fetch("noc", url=local_copy.as_uri())) == NOC.sha256
    with pytest.raises(ValueError, match="unknown name"):
        datasets.fetch("nope")


def test_the_noc_experiments_load_through_the_dataset():
    for name in ("linpsi_noc_fixed_budget.toml", "linpsi_noc_fixed_confidence.toml"):
        assert load_config(ROOT / "experiments" / name).instances["NoC"].K == 259


def load_preset_on_design_page(name: str, dims: str):
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    at.query_params.update({"preset": "default", "alg": "pareto_ucb1", "T": "100", "seed": "0"})
    at.run()
    at.switch_page("banditviz_app/pages/design.py").run()
    at.radio(key="design_dims").set_value(dims).run()
    at.selectbox(key="design_preset").set_value(name).run()
    return at.button(key="design_load").click().run()


def test_the_design_page_says_when_the_noc_data_is_missing(offline, monkeypatch):
    monkeypatch.setitem(datasets.DATASETS, "noc", dataclasses.replace(NOC, url=UNREACHABLE))
    at = load_preset_on_design_page("noc", "2D")
    assert not at.exception
    assert any("'noc'" in e.value and UNREACHABLE in e.value for e in at.error), [e.value for e in at.error]
    assert at.session_state["bv_setting"].source == {"preset": "default"}


REAL = {"snw": ("vopy_snw", 3, (-1, 1)), "disc_brake": ("vopy_disc_brake", 4, (1, 1)),
        "vehicle_safety": ("vopy_vehicle_safety", 5, (1, 1, 1)), "fairness": ("vopy_fairness", 2, (-1, 1))}


def brute_force_front(y: list[list[float]]) -> tuple[int, ...]:
    """Indices of rows no other row weakly dominates with one strict improvement (maximisation), by loops."""
    def dominates(a, b):
        return all(x >= z for x, z in zip(a, b, strict=True)) and any(x > z for x, z in zip(a, b, strict=True))
    return tuple(i for i, row in enumerate(y) if not any(dominates(other, row) for other in y))


@pytest.mark.parametrize("key", sorted(REAL))
def test_real_presets_keep_vopy_orientation_and_standardise(key):
    dataset, inputs, signs = REAL[key]
    path = datasets.fetch(dataset)
    assert path.parent == datasets.PACKAGE_DATA and datasets.sha256_of(path) == datasets.DATASETS[dataset].sha256
    lines = path.read_text().strip().splitlines()[1:]
    oriented = [[s * float(v) for s, v in zip(signs, line.split(",")[inputs:], strict=True)] for line in lines]
    inst = bv.preset(key)
    assert inst.K == len(lines) and inst.L == len(signs) == bv.PRESETS[key].dims
    assert inst.pareto_set == brute_force_front(oriented)
    y = np.array(oriented)
    np.testing.assert_allclose(inst.means, (y - y.mean(0)) / y.std(0), atol=1e-12)
    np.testing.assert_allclose(inst.means.std(0), 1.0, atol=1e-12)


def test_a_shipped_file_with_other_bytes_is_refused(tmp_path, monkeypatch):
    shutil.copy(datasets.PACKAGE_DATA / "vopy_snw.csv", tmp_path / "vopy_snw.csv")
    with open(tmp_path / "vopy_snw.csv", "a") as f:
        f.write("0,0,0,0,0\n")
    monkeypatch.setattr(datasets, "PACKAGE_DATA", tmp_path)
    with pytest.raises(datasets.DatasetUnavailable, match="sha256"):
        datasets.fetch("vopy_snw")


def test_the_design_page_loads_a_real_3d_instance():
    at = load_preset_on_design_page("vehicle_safety", "3D")
    assert not at.exception and not at.error, [e.value for e in at.error]
    assert at.session_state["bv_setting"].instance.L == 3 and at.session_state["bv_setting"].instance.K == 500


def test_a_sweep_config_offline_names_the_instance_and_the_dataset(offline, monkeypatch):
    monkeypatch.setitem(datasets.DATASETS, "noc", dataclasses.replace(NOC, url=UNREACHABLE))
    with pytest.raises(datasets.DatasetUnavailable, match=r"instances\[0\]: dataset 'noc'"):
        load_config(ROOT / "experiments" / "linpsi_noc_fixed_budget.toml")
