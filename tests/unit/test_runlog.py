"""Bring your own runs (issue 25): a logged run read into a Trace (`Trace.from_log`, format `banditviz.runlog`).

A run saved by banditviz, written as a log and read back, has the same arms, rewards, metrics and snapshots bit for
bit and draws the same frames (a minimised objective included); bad logs are refused with a sentence naming the field,
the row and what is allowed; without the true means, no regret is recorded and nothing is drawn as the truth."""

from __future__ import annotations

import io
import json
from dataclasses import replace
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import banditviz
from banditviz import Instance, Trace, cli, limits, runlog
from banditviz.cli import main
from banditviz.figures import animate, explain
from banditviz.figures.animate import UNKNOWN_TRUTH
from banditviz.figures.objective_space import BOX_LABEL, CUT_LABEL, TRUE_MEAN_LABEL

ROOT = Path(__file__).resolve().parents[2]
BOTH = Instance.from_means([[0.9, 0.2], [0.5, 0.5], [0.2, 0.9], [0.3, 0.3]], sigma=0.3,
                           objective_names=("speed", "cost"), directions=("max", "min"), name="two ways")


def same_run(a: Trace, b: Trace) -> bool:
    """Arms, rewards, metrics of the arm pulled (a log does not carry identification's per-round error), the outcome
    and every snapshot array equal bit for bit (NaN where NaN), fronts and pulls equal."""
    if not (np.array_equal(a.arms, b.arms) and np.array_equal(a.rewards, b.rewards)
            and a.metrics.keys() - {"error"} == b.metrics.keys() and len(a.snapshots) == len(b.snapshots)
            and (a.recommendation, a.stopped_at) == (b.recommendation, b.stopped_at)):
        return False
    if not all(np.array_equal(a.metrics[k], b.metrics[k]) for k in b.metrics):
        return False
    return all(s.t == r.t and s.front == r.front and s.pulled == r.pulled
               and all(np.array_equal(getattr(s, k), getattr(r, k), equal_nan=True)
                       for k in ("estimates", "lower", "upper", "status", "counts"))
               for s, r in zip(a.snapshots, b.snapshots, strict=True))


@pytest.mark.parametrize("algorithm", ["pareto_ucb1", "gege_fb"])
def test_a_saved_run_written_as_a_log_reads_back_the_same_and_draws_the_same_frames(algorithm, tmp_path):
    trace = banditviz.run(BOTH, algorithm, 300, seed=2, snapshots=40)
    trace.save(tmp_path / "run.npz")
    saved = Trace.load(tmp_path / "run.npz")
    saved.to_log(tmp_path / "run.csv")
    back = Trace.from_log(tmp_path / "run.csv")
    assert back.truth_known and back.instance == BOTH and back.algorithm == algorithm and back.seed == 2
    assert same_run(saved, back)
    carried = replace(saved, metrics={k: v for k, v in saved.metrics.items() if k != "error"})  # what a log carries
    assert animate(carried, controls=False).to_dict()["frames"] == animate(back, controls=False).to_dict()["frames"]
    # the comparison can fail: one upper bound of a minimised objective changed in the log is seen
    text = (tmp_path / "run.csv").read_text()
    cells = text.splitlines()
    head = cells[2].split(",")
    col = head.index("upper[1][cost]")
    row = next(i for i, line in enumerate(cells[3:], 3) if line.split(",")[col] not in ("", "inf"))
    fields = cells[row].split(",")
    fields[col] = repr(float(fields[col]) + 0.25)
    cells[row] = ",".join(fields)
    assert not same_run(saved, Trace.from_log("\n".join(cells)))


def test_bounds_of_a_minimised_objective_are_swapped_with_the_sign():
    log = ("# {\"directions\": [\"max\", \"min\"]}\nround,arm,reward[a],reward[b],"
           + ",".join(f"{k}[{a}][{o}]" for k in ("estimate", "lower", "upper") for a in range(2) for o in "ab")
           + "\n1,0,1.0,3.0,1.0,3.0,,,0.5,2.0,,,1.5,4.0,,\n2,1,0.0,5.0,1.0,3.0,0.0,5.0,0.5,2.0,-1,4,1.5,4.0,1,6\n")
    snap = Trace.from_log(log).snapshots[0]
    # natural: cost estimate 3 in [2, 4]; maximised: -3 in [-4, -2]
    assert snap.estimates[0].tolist() == [1.0, -3.0]
    assert snap.lower[0].tolist() == [0.5, -4.0] and snap.upper[0].tolist() == [1.5, -2.0]
    assert np.isnan(snap.estimates[1]).all()


PLAIN = "round,arm,reward[a],reward[b]\n1,0,1.0,0.0\n2,1,0.0,1.0\n3,0,0.5,0.5\n4,2,0.2,0.2\n"
BAD_LOGS = [
    ("round,arm,reward[a]\n1,0,1\n3,1,0\n", "round: row 2 (line 3 of the file) has '3', expected 2"),
    ("round,arm,reward[a]\n1,2.9,1\n", "arm: row 1 (line 2 of the file) has '2.9'; allowed an arm index"),
    ('# {"arms": 3}\nround,arm,reward[a]\n1,0,1\n2,3,1\n', "arm: row 2 (line 4 of the file) has '3'; allowed an arm "
                                                           "index, a whole number in [0, 2]"),
    ("round,arm,reward[a]\n1,None,1\n", "arm: row 1 (line 2 of the file) has 'None'"),
    ("round,arm,reward[a]\n1,0,x\n", "reward[a]: row 1 (line 2 of the file) has 'x'; allowed a finite number"),
    ("round,arm,reward[a]\n1,0,\n", "reward[a]: row 1 (line 2 of the file) has ''; allowed a finite number"),
    ("round,arm,reward[a]\n1,0,inf\n", "reward[a]: row 1 (line 2 of the file) has 'inf'; allowed a finite number"),
    ("round,reward[a]\n1,0\n", "columns: no 'arm' column"),
    ("round,arm,score\n1,0,1\n", "reward columns: none; name one column reward[<objective>]"),
    ("round,arm,reward[a],regret\n1,0,1,0\n", "columns: ['regret'] not understood"),
    ("round,arm,reward[a],reward[a]\n1,0,1,1\n", "columns: a column name appears twice"),
    ("round,arm,reward[a]\n", "rows: the log has no round"),
    ("round,arm,reward[a],estimate[0][a]\n1,1,1,0.5\n", "estimate[<arm>][<objective>] columns: give all 2 or none; "
                                                       "missing ['estimate[1][a]']"),
    ("round,arm,reward[a],status[0],status[1]\n1,0,1,active,done\n",
     "status[1]: row 1 (line 2 of the file) has 'done'; allowed ['active', 'accepted', 'rejected', 'candidate']"),
    ("round,arm,reward[a],front\n1,0,1,0 7\n", "front: row 1 (line 2 of the file) has '0 7'; allowed distinct arm "
                                               "indices in [0, 2)"),
    ("round,arm,reward[a],lower[0][a],lower[1][a],upper[0][a],upper[1][a]\n1,0,1,2,0,1,1\n",
     "lower[0][a]: row 1 (line 2 of the file) is above upper[0][a]"),
    ("round,arm,reward[a],estimate[0][a],estimate[1][a]\n1,0,1,inf,\n",
     "estimate[0][a]: row 1 (line 2 of the file) has 'inf'; allowed a number, or empty for no value yet"),
    ("# banditviz-log v2\nround,arm,reward[a]\n1,0,1\n", "header: format version 2 is not supported"),
    ("# {arms: 2}\nround,arm,reward[a]\n1,0,1\n", "header: the '#' lines must hold one JSON object"),
    ('# {"truth": 1}\nround,arm,reward[a]\n1,0,1\n', "header: unknown key(s) ['truth']"),
    ('# {"means": [[1], [2], [3]]}\nround,arm,reward[a]\n1,0,1\n', "header: means must be 2 rows (arms) of 1 numbers"),
    ('# {"means": [[1], [2]], "instance": {}}\nround,arm,reward[a]\n1,0,1\n', "header: give the truth once"),
    ('# {"directions": ["max", "up"]}\n' + PLAIN, "header: directions must be a list of 2 entries"),
    ('# {"seed": -1}\nround,arm,reward[a]\n1,0,1\n', "header: seed: must be a whole number in [0, 4294967295]"),
    ('# {"horizon": 0}\nround,arm,reward[a]\n1,0,1\n', "header: horizon: must be a whole number in [1, "),
    ('# {"task": "win"}\nround,arm,reward[a]\n1,0,1\n', "header: task must be one of"),
    ('# {"instance": ' + json.dumps(BOTH.to_dict()) + '}\n' + PLAIN,
     "header: the instance has 4 arms, the log 3"),
    (b"round,arm,reward[a]\n1,0,\xff\n", "log: not UTF-8 text"),
    ('# {"recommendation": [0, 5]}\n' + PLAIN, "header: recommendation must be a list of arm indices in [0, 3)"),
    ('# {"stopped_at": 2}\n' + PLAIN, "header: stopped_at must be the last round logged (4) or absent"),
]


@pytest.mark.parametrize(("text", "message"), BAD_LOGS, ids=[m.split(":")[0] + str(i) for i, (_, m) in
                                                              enumerate(BAD_LOGS)])
def test_a_bad_log_is_refused_with_its_sentence(text, message):
    with pytest.raises(ValueError) as info:
        Trace.from_log(text)
    assert message in str(info.value)


def test_a_log_larger_than_the_limit_is_refused(monkeypatch):
    monkeypatch.setattr(limits, "MAX_LOG_BYTES", 40)
    with pytest.raises(ValueError, match="log: larger than 40 bytes"):
        Trace.from_log(PLAIN)


def empirical_means(arms: np.ndarray, rewards: np.ndarray, K: int, t: int) -> np.ndarray:
    """Brute force: each arm's mean reward over rounds 1..t (NaN if never pulled)."""
    out = np.full((K, rewards.shape[1]), np.nan)
    for a in range(K):
        mine = rewards[:t][arms[:t] == a]
        if len(mine):
            out[a] = mine.sum(axis=0) / len(mine)
    return out


def test_without_the_true_means_the_log_is_drawn_from_what_it_knows():
    rng = np.random.default_rng(1)
    arms = rng.integers(0, 4, 500)
    rewards = rng.normal(size=(500, 2))
    text = "round,arm,reward[a],reward[b]\n" + "".join(
        f"{t + 1},{a},{float(r[0])!r},{float(r[1])!r}\n" for t, (a, r) in enumerate(zip(arms, rewards, strict=True)))
    trace = Trace.from_log(text)
    assert not trace.truth_known and trace.truth_at(0) is None
    assert trace.metrics == {}  # absent, not zero
    assert len(trace.snapshots) == limits.MAX_SNAPSHOTS and trace.snapshots[-1].t == 500
    for s in trace.snapshots[::37]:
        np.testing.assert_allclose(s.estimates, empirical_means(arms, rewards, 4, s.t), rtol=1e-12)
        assert s.counts.tolist() == np.bincount(arms[:s.t], minlength=4).tolist()
        assert np.isnan(s.lower).all() and s.pulled == arms[s.t - 1]
    fig = animate(trace, controls=False)
    names = {d.name for d in fig.data}
    assert TRUE_MEAN_LABEL not in names and "true Pareto front" not in names
    shown = {d.name for d in fig.data if d.showlegend is not False}
    assert BOX_LABEL not in shown and CUT_LABEL not in shown  # no bounds logged: no box, none named
    cut_marks = [f["data"][i] for f in fig.to_dict()["frames"] for i, d in enumerate(f["data"]) if "angle" in
                 d.get("marker", {})]
    assert cut_marks and not any(m["x"] for m in cut_marks)
    last = explain.table(trace, len(trace.snapshots) - 1, (0, 1))[0]
    assert last[3] == f"{empirical_means(arms, rewards, 4, 500)[0, 0]:.3f}"  # an estimate with no "±"
    assert fig.layout.title.subtitle.text == UNKNOWN_TRUTH
    assert any("mean reward so far" in (a.text or "") for a in fig.layout.annotations)
    # the same log given its true means draws the truth and the regret: the checks above can fail
    known = Trace.from_log(text, {"means": [[0, 0], [1, 1], [0.5, 0.2], [0.1, 0.9]]})
    fig = animate(known, controls=False)
    assert TRUE_MEAN_LABEL in {d.name for d in fig.data} and "pareto_regret" in known.metrics
    with_bounds = animate(banditviz.run(BOTH, "pareto_ucb1", 50, snapshots=5), controls=False)
    assert BOX_LABEL in {d.name for d in with_bounds.data if d.showlegend is not False}
    assert not any("mean reward so far" in (a.text or "") for a in fig.layout.annotations)


def test_true_means_in_the_header_give_the_regret_in_the_rewards_orientation():
    # cost is minimised: arm 1 (speed 0, cost 1) is beaten by arm 0 (speed 1, cost 0) by 1 on both objectives
    log = '# {"directions": ["max", "min"], "means": [[1, 0], [0, 1]]}\nround,arm,reward[speed],reward[cost]\n' \
          "1,0,1.1,0.2\n2,1,0.1,0.9\n3,1,-0.2,1.3\n"
    trace = Trace.from_log(log)
    assert trace.metrics["pareto_regret"].tolist() == [0.0, 1.0, 1.0]
    assert trace.rewards[:, 1].tolist() == [-0.2, -0.9, -1.3]  # maximised inside the trace
    flipped = Trace.from_log(log.replace('"min"', '"max"'))
    assert flipped.metrics["pareto_regret"].tolist() == [0.0, 0.0, 0.0]  # with cost maximised nothing is beaten


def test_a_side_json_gives_the_header_and_must_agree_with_it(tmp_path):
    side = tmp_path / "truth.json"
    side.write_text(json.dumps({"algorithm": "mine", "means": [[1, 0], [0, 1], [0.5, 0.5]]}))
    trace = Trace.from_log(PLAIN, side)
    assert trace.algorithm == "mine" and trace.truth_known
    with pytest.raises(ValueError, match="header: 'algorithm' differs between the file's header and the side JSON"):
        Trace.from_log('# {"algorithm": "other"}\n' + PLAIN, side)


def test_view_prints_the_run_and_writes_its_figure(tmp_path, capsys):
    (tmp_path / "run.csv").write_text(PLAIN)
    assert main(["view", str(tmp_path / "run.csv"), "--html", str(tmp_path / "run.html")]) == 0
    out = capsys.readouterr().out
    assert "true means unknown" in out and "pulls      0:2 1:1 2:1" in out
    html = (tmp_path / "run.html").read_text()
    assert "mean reward so far" in html and "<script src=\"https://cdn.plot.ly" not in html
    (tmp_path / "bad.csv").write_text("round,arm,reward[a]\n1,0,x\n")
    assert main(["view", str(tmp_path / "bad.csv"), "--html", ""]) == 2
    assert "error: reward[a]: row 1 (line 2 of the file) has 'x'" in capsys.readouterr().err


def test_view_without_html_opens_the_app_with_the_file_handed_over(tmp_path, capsys, monkeypatch):
    started = []

    def fake_run(argv, env, cwd, check):  # instead of starting a server: what it would be started with
        started.append((argv, env, cwd))
        return type("Done", (), {"returncode": 0})()

    monkeypatch.setattr(cli.subprocess, "run", fake_run)
    monkeypatch.setenv(runlog.VIEW_HEADER_ENV, "/stale.json")
    (tmp_path / "run.csv").write_text(PLAIN)
    assert main(["view", str(tmp_path / "run.csv"), "--port", "8599", "--plugin", "my_module"]) == 0
    assert "app        http://localhost:8599/ (Watch plays" in capsys.readouterr().out
    (argv, env, cwd), = started
    assert argv[1:4] == ["-m", "streamlit", "run"] and Path(argv[4]) == ROOT / "app.py" and argv[-1] == "8599"
    assert env[runlog.VIEW_ENV] == str(tmp_path / "run.csv") and runlog.VIEW_HEADER_ENV not in env
    assert env["BANDITVIZ_PLUGINS"].endswith("my_module")
    # a saved trace is handed over as its log; a bad file never starts the app
    trace = banditviz.run(BOTH, "pareto_ucb1", 50, seed=1)
    trace.save(tmp_path / "trace.npz")
    assert main(["view", str(tmp_path / "trace.npz"), "--header", str(tmp_path / "run.csv")]) == 2  # header: log only
    assert main(["view", str(tmp_path / "trace.npz")]) == 0
    assert same_run(trace, Trace.from_log(started[-1][1][runlog.VIEW_ENV]))
    (tmp_path / "bad.csv").write_text("round,arm,reward[a]\n1,0,x\n")
    assert main(["view", str(tmp_path / "bad.csv")]) == 2 and len(started) == 2


def test_the_log_format_is_documented_where_a_user_finds_it():
    doc = runlog.__doc__
    for word in ("round", "arm", "reward[<objective>]", "estimate[<arm>][<objective>]", "status[<arm>]", "front",
                 "means", "instance", "banditviz-log v1"):
        assert word in doc


# ---------------------------------------------------------------- npz and Parquet forms, the Recorder
BINARY = ("npz", "parquet")


def columns(text: str) -> tuple[dict, dict]:
    """The header and columns of a CSV log, as the npz and Parquet forms hold them (numbers as numbers)."""
    head, table = runlog._parse(text)
    data = {}
    for c in table.columns:
        cells = table.frame[c].str.strip()
        numbers = pd.to_numeric(cells.where(cells != "", "nan"), errors="coerce")
        all_numbers = numbers.notna().sum() == (cells != "").sum()
        data[c] = numbers.to_numpy(copy=True) if all_numbers else cells.to_numpy(dtype=str)
    return head, data


@pytest.mark.parametrize("form", BINARY)
@pytest.mark.parametrize("algorithm", ["pareto_ucb1", "gege_fb"])
def test_a_run_written_as_an_npz_or_parquet_log_reads_back_the_same(algorithm, form, tmp_path):
    trace = banditviz.run(BOTH, algorithm, 300, seed=2, snapshots=40)
    path = tmp_path / f"run.{form}"
    content = trace.to_log(path)
    assert isinstance(content, bytes) and path.read_bytes() == content
    back = Trace.from_log(path)
    assert back.truth_known and back.instance == BOTH and back.algorithm == algorithm and same_run(trace, back)
    assert same_run(trace, Trace.from_log(content)) and same_run(trace, Trace.from_log(trace.to_log(format="csv")))
    # the comparison can fail: one upper bound of the minimised objective changed in the file is seen
    head, data = runlog._columns(trace)
    column = data["upper[1][cost]"]
    column[np.flatnonzero(np.isfinite(column))[3]] += 0.25
    assert not same_run(trace, Trace.from_log(runlog.FORMATS[form](head, data)))


def npz(**arrays) -> bytes:
    buffer = io.BytesIO()
    np.savez(buffer, **arrays)
    return buffer.getvalue()


BAD_BINARY = [
    (lambda h, d: d.update(arm=np.array([0, 2.9, 0, 2])), "arm: row 2 has 2.9; allowed an arm index"),
    (lambda h, d: d["reward[a]"].__setitem__(2, np.nan), "reward[a]: row 3 has nan; allowed a finite number"),
    (lambda h, d: d.update(round=np.array([1, 2, 4, 4])), "round: row 3 has 4, expected 3"),
    (lambda h, d: d.update({"status[0]": np.array(["active", "", "", "done"]),
                            **{f"status[{a}]": np.array(["active", "", "", "active"]) for a in (1, 2)}}),
     "status[0]: row 4 has 'done'; allowed ['active', 'accepted', 'rejected', 'candidate']"),
    (lambda h, d: d.update(regret=np.zeros(4)), "columns: ['regret'] not understood"),
    (lambda h, d: h.update(means=[[1.0]]), "header: means must be 3 rows (arms) of 2 numbers"),
]


@pytest.mark.parametrize("form", BINARY)
@pytest.mark.parametrize(("change", "message"), BAD_BINARY, ids=[m.split(":")[0] + str(i) for i, (_, m) in
                                                                  enumerate(BAD_BINARY)])
def test_a_bad_npz_or_parquet_log_is_refused_with_its_sentence(form, change, message):
    head, data = columns(PLAIN)
    assert Trace.from_log(runlog.FORMATS[form](head, data)).rounds == 4  # the file as written is good
    change(head, data)
    with pytest.raises(ValueError) as info:
        Trace.from_log(runlog.FORMATS[form](head, data))
    assert message in str(info.value)


def test_what_only_a_binary_log_can_get_wrong_is_named():
    head, data = columns(PLAIN)
    cases = [
        (npz(**data, format=np.array("banditviz-log v2")), "header: format version 2 is not supported"),
        (npz(**data, format=np.array("my-log")), "header: the 'format' entry must be 'banditviz-log v1'"),
        (npz(**data, header=np.array("{arms: 3}")), "header: the 'header' entry must hold one JSON object"),
        (npz(**{**data, "arm": np.array([0, 1, 0])}), "arm: an npz column must be a 1-D array as long as 'round' "
                                                      "(4), got shape (3,)"),
        (npz(**data, extra=np.array([{}, {}, {}, {}], dtype=object)), "log: an npz log holds numbers and text only"),
        (b"PK\x03\x04 not a zip", "log: not a readable npz file"),
        (b"PAR1 not parquet", "log: not a readable Parquet file"),
    ]
    for content, message in cases:
        with pytest.raises(ValueError) as info:
            Trace.from_log(content)
        assert message in str(info.value), content[:40]


@pytest.mark.parametrize("form", BINARY)
def test_an_npz_or_parquet_log_larger_than_the_limit_is_refused(form, monkeypatch, tmp_path):
    content = runlog.FORMATS[form](*columns(PLAIN))
    assert Trace.from_log(content).rounds == 4
    monkeypatch.setattr(limits, "MAX_LOG_DECODED_BYTES", 100)  # the file is small; its columns, uncompressed, not
    with pytest.raises(ValueError, match="log: its (arrays|columns) take more than 100 bytes uncompressed"):
        Trace.from_log(content)
    monkeypatch.setattr(limits, "MAX_LOG_BYTES", 100)
    (tmp_path / f"run.{form}").write_bytes(content)
    with pytest.raises(ValueError, match="is larger than 100 bytes"):
        Trace.from_log(tmp_path / f"run.{form}")


def test_view_reads_an_npz_log_and_still_a_saved_trace(tmp_path, capsys):
    trace = banditviz.run(BOTH, "pareto_ucb1", 50, seed=1)
    trace.to_log(tmp_path / "log.npz")
    trace.save(tmp_path / "trace.npz")
    for name in ("log.npz", "trace.npz"):
        assert main(["view", str(tmp_path / name), "--html", ""]) == 0
        assert "run        pareto_ucb1, seed 1: 50 rounds" in capsys.readouterr().out


def readme_recorder_example() -> str:
    text = (ROOT / "README.md").read_text().split("## Your own runs", 1)[1]
    return next(block.split("```", 1)[0] for block in text.split("```python\n")[1:] if "Recorder(" in block)


def test_the_readme_recorder_example_writes_the_log_it_recorded(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    scope: dict = {}
    exec(compile(readme_recorder_example(), "README.md", "exec"), scope)
    trace, rec = scope["trace"], scope["rec"]
    back = Trace.from_log(tmp_path / "my_run.parquet")
    assert same_run(trace, back) and same_run(trace, rec.trace()) and trace.rounds == 300
    assert trace.algorithm == "mine" and not trace.truth_known
    # every tenth round's estimates are each arm's mean reward so far, computed here from the arms and rewards
    assert [s.t for s in trace.snapshots] == list(range(10, 301, 10))
    cost = -trace.rewards[:, 1]  # the trace holds the minimised cost negated; the log as observed
    for s in trace.snapshots:
        for a in range(3):
            pulled = trace.arms[: s.t] == a
            assert s.estimates[a].tolist() == pytest.approx([trace.rewards[: s.t][pulled, 0].mean(),
                                                             -cost[: s.t][pulled].mean()])
            assert s.counts[a] == pulled.sum()
    rec.save(tmp_path / "again.csv")
    assert same_run(trace, Trace.from_log(tmp_path / "again.csv"))


def test_the_recorder_refuses_a_bad_round_at_once_and_a_bad_log_when_saved(tmp_path):
    rec = banditviz.Recorder(arms=3, objectives=["a", "b"])
    with pytest.raises(ValueError, match="rows: nothing recorded yet"):
        rec.trace()
    rec.record(1, 0, [1.0, 0.0], status=["active", "accepted", 2])
    for args, kwargs, message in [
        ((3, 0, [1, 1]), {}, r"round: expected 2 \(the rounds 1, 2, 3, ... in order\), got 3"),
        ((2, 2.9, [1, 1]), {}, r"arm: round 2 gave 2.9; allowed an integer in \[0, 3\)"),
        ((2, 3, [1, 1]), {}, r"arm: round 2 gave 3"),
        ((2, 0, [1]), {}, r"reward: round 2 gave 1 values; expected one per objective \['a', 'b'\]"),
        ((2, 0, [1, 1]), {"estimates": np.zeros((3, 1))}, r"estimates: round 2 gave shape \(3, 1\)"),
        ((2, 0, [1, 1]), {"status": ["active"]}, r"status: round 2 gave 1 statuses; expected one per arm \(3\)"),
    ]:
        with pytest.raises(ValueError, match=message):
            rec.record(*args, **kwargs)
    assert rec.trace().snapshots[0].status.tolist() == [0, 1, 2]  # the refused rounds left nothing
    rec.record(2, 1, [np.inf, 0.0])
    with pytest.raises(ValueError, match="reward\\[a\\]: row 2 has inf; allowed a finite number"):
        rec.save(tmp_path / "bad.csv")
    assert not (tmp_path / "bad.csv").exists()
