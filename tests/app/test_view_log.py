"""A log handed to the app by ``python -m banditviz view`` (issue 25): Watch plays it, an upload replaces it, a bad one
is named in the page. Also: an npz or Parquet log uploaded on Watch is played as its CSV is."""

from __future__ import annotations

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

import banditviz
from banditviz import runlog
from tests.app.test_pages import APP, SMALL, charts, errors, watch_meta

LOG = banditviz.Instance.from_means([[0.9, 0.2], [0.5, 0.5], [0.2, 0.9]], sigma=0.2, objective_names=("speed", "cost"))


def watch() -> AppTest:
    at = AppTest.from_file(APP, default_timeout=180)
    at.query_params.update(SMALL)
    return at.run()


def infos(at: AppTest) -> list[str]:
    return [i.value for i in at.info]


def test_watch_plays_the_file_view_hands_over(tmp_path, monkeypatch):
    trace = banditviz.run(LOG, "pareto_ucb1", 120, seed=3, snapshots=20)
    trace.to_log(tmp_path / "mine.parquet")
    at = watch()
    simulated = watch_meta(at)
    monkeypatch.setenv(runlog.VIEW_ENV, str(tmp_path / "mine.parquet"))
    at = watch()
    assert not errors(at) and not at.exception
    assert any("Playing the logged run" in i and "120 rounds, 3 arms, 2 objectives" in i for i in infos(at)), infos(at)
    assert any("opened by `python -m banditviz view`" in c.value for c in at.caption)
    meta = watch_meta(at)
    assert meta != simulated and len(charts(at)) == 1
    # a bad file handed over is named in the page, and Watch plays the setting's run
    (tmp_path / "bad.csv").write_text("round,arm,reward[a]\n1,0,x\n")
    monkeypatch.setenv(runlog.VIEW_ENV, str(tmp_path / "bad.csv"))
    at = watch()
    assert any("reward[a]: row 1 (line 2 of the file) has 'x'" in e for e in errors(at)), errors(at)
    assert watch_meta(at) == simulated and not at.exception


@pytest.mark.parametrize("form", ["npz", "parquet"])
def test_an_npz_or_parquet_log_uploaded_on_watch_is_played(form):
    trace = banditviz.run(LOG, "pareto_ucb1", 120, seed=3, snapshots=20)
    at = watch()
    csv_at = watch()
    csv_at.get("file_uploader")[0].set_value(("run.csv", trace.to_log().encode(), "text/csv")).run()
    at.get("file_uploader")[0].set_value((f"run.{form}", trace.to_log(format=form), "application/octet-stream")).run()
    assert not errors(at) and not at.exception and any("Playing the logged run" in i for i in infos(at))
    assert watch_meta(at) == watch_meta(csv_at) != watch_meta(watch())
    assert np.array_equal(trace.arms, banditviz.Trace.from_log(trace.to_log(format=form)).arms)


def test_a_logged_run_is_described_as_itself_and_has_no_race():
    """While a log plays, the caption describes the log (not the session's instance) and no race menu is offered;
    removing the file brings back the setting's run and its race from the link."""
    trace = banditviz.run(LOG, "pareto_ucb1", 120, seed=3, snapshots=20)
    at = AppTest.from_file(APP, default_timeout=180)
    at.query_params.update({**SMALL, "race": "uniform"})
    at.run()
    assert at.selectbox(key="watch_race").value == "uniform"
    at.get("file_uploader")[0].set_value(("run.csv", trace.to_log().encode(), "text/csv")).run()
    captions = " ".join(c.value for c in at.caption)
    assert "The logged run's 3 arms and 2 objectives" in captions and "is kept" in captions, captions
    assert not [s for s in at.selectbox if s.key == "watch_race"] and not at.exception
    at.get("file_uploader")[0].set_value(None).run()
    assert at.selectbox(key="watch_race").value == "uniform" and "change it on the Design page" in " ".join(
        c.value for c in at.caption)
