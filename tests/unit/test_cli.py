"""Command line: help, one run, a sweep end to end (subprocess, progress bar, Parquet), errors, configs."""

import dataclasses
import io
import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import banditviz
from banditviz import Trace, datasets, run
from banditviz.cli import CONFIG_EXAMPLE, ProgressBar, main
from banditviz.sweep import load_config

ROOT = Path(__file__).resolve().parents[2]
TINY = """
description = "tiny"
horizon = 60
seeds = 3
record_every = 20
[[instances]]
preset = "default"
[[algorithms]]
name = "pareto_ucb1"
[[algorithms]]
name = "mo_epsilon_greedy"
params = { epsilon = 0.2 }
"""


def _main(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    return main(list(argv), out=out), out.getvalue()


@pytest.mark.parametrize("argv,expected", [
    (["--help"], ["run", "sweep", "list"]),
    (["run", "--help"], ["--algorithm", "--param", "Trace.load", "examples"]),
    (["sweep", "--help"], ["--scheduler", "--workers", "[[instances]]", "[[algorithms]]", "experiments/",
                           "read_parquet"]),
])
def test_help_explains_each_command(argv, expected, capsys):
    with pytest.raises(SystemExit) as exit_:
        main(argv)
    assert exit_.value.code == 0
    text = capsys.readouterr().out
    for word in expected:
        assert word in text


def test_no_command_prints_help(capsys):
    assert main([]) == 2
    assert "start here" in capsys.readouterr().out


def test_run_prints_a_summary_and_writes_the_trace(tmp_path):
    path = tmp_path / "t.npz"
    code, text = _main("run", "--algorithm", "mo_epsilon_greedy", "--param", "epsilon=0.3", "--horizon", "300",
                       "--seed", "4", "--out", str(path))
    assert code == 0
    expected = run(banditviz.preset("default"), "mo_epsilon_greedy", 300, 4, epsilon=0.3)
    saved = Trace.load(path)
    assert np.array_equal(saved.arms, expected.arms) and saved.params == {"epsilon": 0.3}
    assert f"cumulative pareto_regret: {np.sum(expected.metrics['pareto_regret']):.4g}" in text
    assert "rounds     300 of 300" in text and str(path) in text


def test_run_with_a_generator_and_a_parquet_trace(tmp_path):
    path = tmp_path / "t.parquet"
    code, _ = _main("run", "--instance", "uniform_box", "--instance-arg", "K=4", "--instance-arg", "seed=2",
                    "--algorithm", "uniform", "--horizon", "40", "--out", str(path))
    assert code == 0
    frame = pd.read_parquet(path)
    assert len(frame) == 40 and frame["arm"].tolist() == [t % 4 for t in range(40)]


@pytest.mark.parametrize("argv,match", [
    (["run", "--algorithm", "nope"], "unknown name"),
    (["run", "--algorithm", "uniform", "--instance", "nowhere"], "neither a preset"),
    (["run", "--algorithm", "uniform", "--param", "novalue"], "key=value"),
    (["run", "--algorithm", "uniform", "--instance", "uniform_box", "--instance-arg", "Q=1"], "--instance-arg"),
    (["run", "--algorithm", "uniform", "--out", "t.txt"], "--out"),
    (["sweep", "missing.toml", "--out", "r.parquet"], "cannot read"),
])
def test_mistakes_print_one_error_line(argv, match, capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert main(argv, out=io.StringIO()) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and match in err and "Traceback" not in err


def test_sweep_end_to_end_in_a_subprocess(tmp_path):
    """`python -m banditviz sweep` with two worker processes: progress on stderr, the API's table on disk."""
    cfg = tmp_path / "tiny.toml"
    cfg.write_text(TINY)
    out = tmp_path / "results.parquet"
    proc = subprocess.run([sys.executable, "-m", "banditviz", "sweep", str(cfg), "--out", str(out), "--workers", "2"],
                          capture_output=True, text=True, timeout=240, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr
    assert "6/6 runs 100%" in proc.stderr and "backend processes" in proc.stderr
    assert "cum_pareto_regret_mean" in proc.stdout and "backend" not in proc.stdout
    expected = banditviz.sweep("default", ["pareto_ucb1", ("mo_epsilon_greedy", {"epsilon": 0.2})], 3, 60,
                               record_every=20)
    pd.testing.assert_frame_equal(pd.read_parquet(out), expected)


def test_sweep_overrides_and_serial_backend(tmp_path, capsys):
    cfg = tmp_path / "tiny.toml"
    cfg.write_text(TINY)
    out = tmp_path / "r.parquet"
    code, text = _main("sweep", str(cfg), "--out", str(out), "--backend", "serial", "--seeds", "2",
                       "--horizon", "40", "--no-batch", "--json")
    assert code == 0
    table = pd.read_parquet(out)
    assert sorted(table.seed.unique()) == [0, 1] and table["round"].max() == 40
    assert "2 seed(s), horizon 40, backend serial" in capsys.readouterr().err
    document = json.loads(text)
    assert document["rows"] == len(table) and {r["algorithm"] for r in document["summary"]} == {
        "pareto_ucb1", "mo_epsilon_greedy"}


def test_version_and_usage_errors(capsys):
    with pytest.raises(SystemExit) as exit_:
        main(["--version"])
    assert exit_.value.code == 0 and capsys.readouterr().out.startswith("banditviz ")
    with pytest.raises(SystemExit) as exit_:
        main(["run", "--horizon", "many", "--algorithm", "uniform"])
    assert exit_.value.code == 2 and "invalid int value" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["--help"])
    assert "exit status: 0 done, 1 error" in capsys.readouterr().out


def test_run_and_list_as_json(tmp_path):
    code, text = _main("run", "--algorithm", "uniform", "--horizon", "30", "--seed", "2", "--out", "", "--json")
    document = json.loads(text)
    expected = run(banditviz.preset("default"), "uniform", 30, 2)
    assert code == 0 and document["rounds"] == 30
    assert document["pulls"] == np.bincount(expected.arms, minlength=10).tolist()
    assert document["cumulative"]["pareto_regret"] == pytest.approx(np.sum(expected.metrics["pareto_regret"]))
    code, text = _main("list", "--json")
    document = json.loads(text)
    assert code == 0 and "pareto_ucb1" in document["algorithms"] and document["presets"]["vehicle_safety"]["dims"] == 3


def test_a_missing_dataset_is_an_error_not_a_usage_mistake(tmp_path, monkeypatch, capsys):
    monkeypatch.delenv(datasets.ENV_FOLDER, raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.setitem(datasets.DATASETS, "noc", dataclasses.replace(datasets.DATASETS["noc"],
                                                                      url="http://127.0.0.1:1/noc.csv"))
    assert main(["run", "--instance", "noc", "--algorithm", "uniform", "--out", ""], out=io.StringIO()) == 1
    err = capsys.readouterr().err
    assert err.startswith("error: dataset 'noc'") and "Traceback" not in err


def test_progress_bar_without_a_terminal_prints_one_line_per_tenth():
    stream = io.StringIO()
    bar = ProgressBar(stream)
    for done in range(0, 201):
        bar(done, 200)
    lines = stream.getvalue().splitlines()
    assert len(lines) == 11 and lines[-1].startswith("[" + "#" * 30 + "] 200/200 runs 100%")


def test_list_names_algorithms_presets_and_generators():
    code, text = _main("list")
    assert code == 0
    for name in ("pareto_ucb1", "default", "uniform_box"):
        assert f"  {name}:" in text


def test_the_config_example_of_the_help_is_valid(tmp_path):
    cfg = tmp_path / "example.toml"
    cfg.write_text(CONFIG_EXAMPLE)
    config = load_config(cfg)
    assert list(config.instances) == ["default", "box K=20"] and config.runs == 2 * 2 * 200


@pytest.mark.parametrize("path", sorted((ROOT / "experiments").glob("*.toml")), ids=lambda p: p.name)
def test_every_ready_experiment_config_is_valid(path):
    """A sweep's config loads; one played by its own script (experiments/<name>.py: RAMGapE Exp. 2, whose runs exceed
    the sweep's horizon limit) is a TOML file with a description, and the sweep refuses it with a reason."""
    if path.with_suffix(".py").exists():
        import tomllib

        assert tomllib.loads(path.read_text(encoding="utf-8"))["description"]
        with pytest.raises(ValueError, match="horizon"):
            load_config(path)
        return
    config = load_config(path)
    assert config.description and config.runs >= 1
