"""Bring your own algorithm (issue 25): the documented contract, `check_algorithm` against deliberately broken
algorithms, errors naming the algorithm, round and seed from `run`, `sweep` (every local backend) and the CLI,
plugins, re-registration in a notebook, the truth barrier and the callable `banditviz.sweep` module."""

from __future__ import annotations

import importlib
import io
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

import banditviz
from banditviz import AlgorithmError, check_algorithm, register
from banditviz.algorithms import ALGORITHMS, Played
from banditviz.cli import main

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "examples"))


@pytest.fixture
def example(registry):
    """The README's example algorithm (examples/greedy_pareto.py), registered afresh."""
    module = importlib.reload(importlib.import_module("greedy_pareto"))
    return module.GreedyPareto


def _broken(base: type, name: str, **methods) -> str:
    """``base`` with ``methods`` replaced, registered as ``name``."""
    register(name, paper="test", task="regret", kinds=("means",), params=base.spec.params, replace=True)(
        type(name, (base,), methods))
    return name


def _select(value):
    def select(self, t):
        return value if t == 3 else super(type(self), self).select(t)
    return select


def _estimates_k1(self):
    state = super(type(self), self).state()
    state.estimates = state.estimates[:, :1]
    return state


def _status_seven(self):
    state = super(type(self), self).state()
    state.status = np.full(self.K, 7)
    return state


def _unsavable(self):
    state = super(type(self), self).state()
    state.extras = {"model": object()}
    return state


def _mutating_update(self, arm, reward):
    super(type(self), self).update(arm, reward)
    reward *= 0.0


def _raises_at_7(self, t):
    if t == 7:
        raise ZeroDivisionError("division by zero")
    return super(type(self), self).select(t)


def _global_rng(self, t):
    self.t = t
    return int(np.random.default_rng().integers(self.K)) if t > self.K else t - 1


def _state_side_effect(self):
    self.sums[0] += 1.0  # changes the sample means that select reads
    return super(type(self), self).state()


class _WrongLoop:
    """A fast loop that plays arm 0 every round (not what the Python class plays)."""

    compiled = False

    def supports(self, kind, params, snapshots):
        return True

    def play(self, alg, rewards, horizon, snap_at):
        arms = np.zeros(horizon, dtype=np.int64)
        return Played(arms=arms, rewards=np.stack([rewards.take(0) for _ in range(horizon)]),
                      snapshots=[alg.state() for _ in snap_at])


BROKEN = {  # name: (replaced methods, a piece of the one sentence expected)
    "arm_float": ({"select": _select(2.9)}, "failed at round 3 (seed 0): select returned 2.9 (float); expected an "
                                            "integer arm index in [0, 4)"),
    "arm_text": ({"select": _select("3")}, "failed at round 3 (seed 0): select returned '3' (str)"),
    "arm_none": ({"select": _select(None)}, "failed at round 3 (seed 0): select returned None (NoneType)"),
    "arm_bool": ({"select": _select(True)}, "failed at round 3 (seed 0): select returned True (bool)"),
    "arm_range": ({"select": _select(4)}, "failed at round 3 (seed 0): select returned 4 (int)"),
    "estimates_k1": ({"state": _estimates_k1}, "failed at round 1 (seed 0): state().estimates is an array of shape "
                                               "(4, 1) and dtype float64, expected a float array of shape (4, 2)"),
    "status_seven": ({"state": _status_seven}, "failed at round 1 (seed 0): state().status holds [7], expected "
                                               "codes 0..3"),
    "mutates_reward": ({"update": _mutating_update}, "failed at round 1 (seed 0): ValueError: output array is "
                                                     "read-only"),
    "raises": ({"select": _raises_at_7}, "failed at round 7 (seed 0): ZeroDivisionError: division by zero"),
    "global_rng": ({"select": _global_rng}, "is not reproducible on the means instance 'MOL-TS Figure 1, round 1': "
                                            "seed 0 played differently the second time"),
    "state_side_effect": ({"state": _state_side_effect}, "plays differently when state() is called"),
    "unsavable": ({"state": _unsavable}, "trace cannot be saved"),
}


@pytest.mark.parametrize("name", list(BROKEN))
def test_check_algorithm_rejects_each_broken_algorithm_with_its_sentence(example, name):
    methods, expected = BROKEN[name]
    found = check_algorithm(_broken(example, name, **methods), horizon=60)
    assert len(found) == 1 and expected in found[0] and name in found[0], found


def test_check_algorithm_rejects_a_fast_loop_that_plays_other_arms(example):
    register("wrong_loop", paper="test", task="regret", kinds=("means",), params=example.spec.params,
             loop=_WrongLoop())(type("WrongLoop", (example,), {}))
    found = check_algorithm("wrong_loop", horizon=60)
    assert len(found) == 1 and "wrong_loop's fast loop differs from its Python loop" in found[0], found


def test_the_readme_example_keeps_the_contract(example):
    assert check_algorithm("greedy_pareto") == []
    assert check_algorithm(example, params={"epsilon": 0.5}, seeds=(3,)) == []


@pytest.mark.slow
def test_every_registered_algorithm_keeps_the_contract():
    assert {name: found for name in ALGORITHMS if (found := check_algorithm(name))} == {}


def test_run_names_algorithm_round_and_seed_and_chains_the_cause(example):
    _broken(example, "raises", select=_raises_at_7)
    with pytest.raises(AlgorithmError, match=r"^algorithm raises failed at round 7 \(seed 5\): ZeroDivisionError"
                       ) as info:
        banditviz.run(banditviz.preset("default"), "raises", 50, seed=5)
    assert isinstance(info.value.__cause__, ZeroDivisionError)
    assert (info.value.algorithm, info.value.round, info.value.seed) == ("raises", 7, 5)


def test_a_reward_array_cannot_be_zeroed_through_update(example):
    """Before: an update that mutated its reward zeroed trace.rewards without a word."""
    _broken(example, "mutates_reward", update=_mutating_update)
    with pytest.raises(AlgorithmError, match="read-only"):
        banditviz.run(banditviz.preset("default"), "mutates_reward", 20)
    trace = banditviz.run(banditviz.preset("default"), "greedy_pareto", 20)
    assert (trace.rewards != 0).all()


@pytest.mark.parametrize("backend", ["serial", "threads", "processes"])
def test_sweep_names_the_failing_algorithm_on_every_backend(registry, tmp_path, monkeypatch, backend):
    """A module-level plugin (importable by the workers): the worker's own error comes back, not BrokenProcessPool."""
    (tmp_path / "failing_plugin.py").write_text(textwrap.dedent("""
        from greedy_pareto import GreedyPareto
        from banditviz import register

        @register("fails_at_9", paper="test", task="regret", kinds=("means",), params=GreedyPareto.spec.params,
                  replace=True)
        class FailsAt9(GreedyPareto):
            def select(self, t):
                if t == 9:
                    raise KeyError("boom")
                return super().select(t)
    """))
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setenv("PYTHONPATH", f"{tmp_path}:{ROOT / 'examples'}")
    sys.modules.pop("failing_plugin", None)  # registered afresh for each backend
    importlib.import_module("failing_plugin")
    with pytest.raises(AlgorithmError, match=r"algorithm fails_at_9 failed at round 9 \(seed 4\): KeyError: 'boom'"):
        banditviz.sweep("default", ["fails_at_9"], [4], 30, backend=backend, workers=1)


def test_a_process_sweep_of_an_algorithm_defined_in_main_says_why(example):
    _broken(example, "in_main")
    ALGORITHMS["in_main"].cls.__module__ = "__main__"
    with pytest.raises(ValueError, match=r"in_main is defined in __main__ .* workers cannot import"):
        banditviz.sweep("default", ["in_main"], 2, 30, backend="processes", workers=1)


def test_register_replaces_the_same_class_and_refuses_another(registry):
    def define():
        @register("notebook_alg", paper="test", task="regret", kinds=("means",))
        class Mine(banditviz.Algorithm):
            pass
        return Mine

    first, second = define(), define()  # a notebook cell run twice
    assert first is not second and ALGORITHMS["notebook_alg"].cls is second
    with pytest.raises(ValueError, match=r"'notebook_alg' is already registered by .*define.<locals>.Mine; choose "
                                         r"another name for .*Other, or pass replace=True"):
        register("notebook_alg", paper="test", task="regret", kinds=("means",))(type("Other", (second,), {}))
    other = register("notebook_alg", paper="test", task="regret", kinds=("means",), replace=True)(
        type("Other", (second,), {}))
    assert ALGORITHMS["notebook_alg"].cls is other
    with pytest.raises(ValueError, match="already registered"):
        register("pareto_ucb1", paper="test", task="regret", kinds=("means",))(type("Mine", (second,), {}))


def test_plugins_load_from_the_variable_and_the_cli_and_failures_are_reported(registry, tmp_path, monkeypatch):
    (tmp_path / "my_plugin.py").write_text(textwrap.dedent("""
        from greedy_pareto import GreedyPareto
        from banditviz import register
        register("from_plugin", paper="test", task="regret", kinds=("means",), params=GreedyPareto.spec.params)(
            type("FromPlugin", (GreedyPareto,), {}))
    """))
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setenv("BANDITVIZ_PLUGINS", "my_plugin, no_such_plugin")
    failures = banditviz.load_plugins()
    assert "from_plugin" in ALGORITHMS and banditviz.algorithms.base.is_external(ALGORITHMS["from_plugin"])
    assert not banditviz.algorithms.base.is_external(ALGORITHMS["pareto_ucb1"])
    assert len(failures) == 1 and "'no_such_plugin' (from BANDITVIZ_PLUGINS)" in failures[0]
    monkeypatch.delenv("BANDITVIZ_PLUGINS")
    del ALGORITHMS["from_plugin"], sys.modules["my_plugin"]
    out = io.StringIO()
    assert main(["run", "--plugin", "my_plugin", "--algorithm", "from_plugin", "--horizon", "30", "--out", ""],
                out=out) == 0
    assert "algorithm  from_plugin" in out.getvalue()


def test_cli_check_and_run_report_a_broken_algorithm_without_traceback(example, capsys):
    _broken(example, "arm_float", select=_select(2.9))
    assert main(["check", "greedy_pareto", "--horizon", "40"], out=io.StringIO()) == 0
    out = io.StringIO()
    assert main(["check", "arm_float", "--horizon", "40"], out=out) == 1
    assert "arm_float: 1 breach(es)" in out.getvalue() and "select returned 2.9" in out.getvalue()
    assert main(["run", "--algorithm", "arm_float", "--out", ""], out=io.StringIO()) == 1
    err = capsys.readouterr().err
    assert err.startswith("error: algorithm arm_float failed at round 3 (seed 0)") and "Traceback" not in err


def test_only_declared_oracles_see_the_truth_and_their_traces_say_so(example, tmp_path):
    seen = {}

    def reset(self, problem, rng):
        self.problem = problem
        super(type(self), self).reset(problem, rng)

    def select(self, t):
        seen[type(self).__name__] = seen.get(type(self).__name__, False) or "true_means" in self.problem.params
        return super(type(self), self).select(t)

    for name, oracle in (("peeker", False), ("declared_oracle", True)):
        register(name, paper="test", task="regret", kinds=("means",), params=example.spec.params)(
            type(name, (example,), {"reset": reset, "select": select, "sees_truth": oracle}))
    inst = banditviz.preset("default")
    peeker, oracle = banditviz.run(inst, "peeker", 30), banditviz.run(inst, "declared_oracle", 30)
    assert seen == {"peeker": False, "declared_oracle": True}
    assert "sees_truth" not in peeker.info and oracle.info["sees_truth"] is True
    assert banditviz.Trace.load(oracle.save(tmp_path / "o.npz")).info["sees_truth"] is True
    assert banditviz.run(banditviz.preset("mol_ts_2d"), "oracle_pareto", 30).info["sees_truth"] is True


def test_sweep_is_a_callable_module():
    """Before: banditviz.sweep the function hid the module (banditviz.sweep.read_metadata: AttributeError)."""
    from banditviz.sweep import read_metadata, sweep

    assert banditviz.sweep.read_metadata is read_metadata
    assert banditviz.sweep.__doc__.startswith("Monte Carlo sweeps")
    assert banditviz.sweep("default", ["pareto_ucb1"], 2, 40).equals(sweep("default", ["pareto_ucb1"], 2, 40))


def test_the_contract_is_exported():
    for name in ("Algorithm", "RoundState", "Param", "register", "ACTIVE", "ACCEPTED", "REJECTED", "CANDIDATE",
                 "STATUS_NAMES", "check_algorithm", "AlgorithmError", "load_plugins"):
        assert name in banditviz.__all__ and hasattr(banditviz, name)


def test_the_readme_skeleton_runs_and_keeps_the_contract(registry):
    text = (ROOT / "README.md").read_text().split("## Your own algorithm", 1)[1]
    code = text.split("```python\n", 1)[1].split("```", 1)[0]
    scope: dict = {"banditviz": banditviz}
    exec(compile(code, "README.md", "exec"), scope)
    assert scope["trace"].rounds == 2000 and check_algorithm("mine") == []


@pytest.mark.parametrize("field, change, message", [
    ("rewards", lambda t: t.rewards[:5], r"rewards: must have one row of 2 per round played \(10\), got shape "
                                         r"\(5, 2\)"),
    ("arms", lambda t: t.arms + 10, r"arms: must be arm indices in \[0, 10\), got values from"),
    ("arms", lambda t: t.arms.astype(float), "arms: must be a 1-d integer array"),
    ("metrics", lambda t: {"pareto_regret": t.metrics["pareto_regret"][:3]}, r"metrics\['pareto_regret'\]: must hold"),
])
def test_a_trace_refuses_arrays_that_do_not_describe_one_run(field, change, message):
    """Before: a Trace took 10 arms with 1,500 reward rows and drew it."""
    import dataclasses

    trace = banditviz.run(banditviz.preset("default"), "pareto_ucb1", 10)
    with pytest.raises(ValueError, match=message):
        dataclasses.replace(trace, **{field: change(trace)})


def test_a_value_error_in_reset_is_bad_input_and_other_faults_in_reset_are_named(example):
    def refuse(self, problem, rng):
        raise ValueError("budget: too small")

    def crash(self, problem, rng):
        raise IndexError("oops")

    _broken(example, "refuses", reset=refuse)
    _broken(example, "crashes", reset=crash)
    with pytest.raises(ValueError, match="^budget: too small$"):
        banditviz.run(banditviz.preset("default"), "refuses", 20)
    with pytest.raises(AlgorithmError, match=r"crashes failed in reset, before round 1 \(seed 0\): IndexError"):
        banditviz.run(banditviz.preset("default"), "crashes", 20)
