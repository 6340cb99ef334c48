"""Bring your own runs (issue 25): a logged run read into a Trace (`Trace.from_log`, format `banditviz.runlog`).

A run saved by banditviz, written as a log and read back, has the same arms, rewards, metrics and snapshots bit for
bit and draws the same frames (a minimised objective included); bad logs are refused with a sentence naming the field,
the row and what is allowed; without the true means, no regret is recorded and nothing is drawn as the truth."""

from __future__ import annotations

import json
from dataclasses import replace

import numpy as np
import pytest

import banditviz
from banditviz import Instance, Trace, limits, runlog
from banditviz.cli import main
from banditviz.figures import animate, explain
from banditviz.figures.animate import UNKNOWN_TRUTH
from banditviz.figures.objective_space import BOX_LABEL, CUT_LABEL, TRUE_MEAN_LABEL

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
    assert main(["view", str(tmp_path / "run.csv")]) == 0
    out = capsys.readouterr().out
    assert "true means unknown" in out and "pulls      0:2 1:1 2:1" in out
    html = (tmp_path / "run.html").read_text()
    assert "mean reward so far" in html and "<script src=\"https://cdn.plot.ly" not in html
    (tmp_path / "bad.csv").write_text("round,arm,reward[a]\n1,0,x\n")
    assert main(["view", str(tmp_path / "bad.csv"), "--html", ""]) == 2
    assert "error: reward[a]: row 1 (line 2 of the file) has 'x'" in capsys.readouterr().err


def test_the_log_format_is_documented_where_a_user_finds_it():
    doc = runlog.__doc__
    for word in ("round", "arm", "reward[<objective>]", "estimate[<arm>][<objective>]", "status[<arm>]", "front",
                 "means", "instance", "banditviz-log v1"):
        assert word in doc
