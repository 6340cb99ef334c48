"""Fingerprint everything banditviz computes, to show that a reorganisation changed nothing.

``python tests/fingerprint.py OUT [STEPS]`` writes ``OUT/fingerprint.json`` (one SHA-256 per item) and
``OUT/traces/`` (every run's trace, saved), or only the comma-separated STEPS anew (runs, paper_runs, registry,
fast_loops, warnings, figures, sweeps, results); ``python tests/fingerprint.py --compare BEFORE AFTER`` says which
items differ and loads every trace saved in BEFORE with the current code (a trace saved before a move still loads
after it).

The items: every registered algorithm on every preset it runs on (snapshots or none, the compiled loop or the
Python classes: arms, rewards, metrics, snapshots, recommendation, stopping round, info, through `Trace.save`);
which runs have a fast loop; the guarantee warnings of every (algorithm, preset); the registry and the presets'
names; the animated figures' JSON of a few runs; the risk-averse fast runs, Experiment 2's shipped traces, the
lexicographic round-noise runs, the front attainment runs, a calibration, a sweep on every backend but Dask;
every shipped result's table and one recomputed cell of each.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
os.environ.setdefault("BANDITVIZ_DATA", str(ROOT.parent / "shared" / "data"))



def horizon(instance) -> int:
    """Rounds of each run: enough for every loop's paths (stops, snapshots), fewer where a round is slow."""
    if instance.kind == "distributions":
        return 1500
    if instance.kind == "contextual":
        return 200 if instance.K <= 15 else 30
    return 300 if instance.K <= 50 else 100 if instance.K <= 100 else 20


FIGURE_RUNS = [("default", "pareto_ucb1"), ("default_3d", "pareto_ts"), ("mol_ts_2d", "mol_ts"),
               ("risk_averse_table1", "ramgape_c"), ("lexicographic_lambda_10", "mte2lo"), ("pfi_toy", "pfiwr"),
               ("psi_gap_example", "ape")]


def digest(*parts: bytes | str) -> str:
    h = hashlib.sha256()
    for part in parts:
        h.update(part.encode() if isinstance(part, str) else part)
        h.update(b"\0")
    return h.hexdigest()


def array_digest(a: np.ndarray) -> str:
    if a.dtype == object:  # the items, not their addresses
        return digest("O", str(a.shape), json.dumps([repr(x) for x in a.ravel().tolist()]))
    a = np.ascontiguousarray(a)
    return digest(a.dtype.str, str(a.shape), a.tobytes())


def trace_digest(trace, path: Path) -> str:
    """The saved file's contents (the JSON metadata and every array, bit for bit; not the zip's timestamps)."""
    trace.save(path)
    with np.load(path, allow_pickle=False) as z:
        return digest(*(f"{k}:{array_digest(z[k])}" for k in sorted(z.files)))


def value_digest(value) -> str:
    """Any nested result (arrays, frames, dataclasses, dicts in their order, floats by their bits)."""
    import dataclasses

    import pandas as pd

    def walk(v):
        if isinstance(v, np.ndarray):
            yield "A" + array_digest(v)
        elif isinstance(v, pd.DataFrame):
            yield "F" + str(list(v.columns)) + str(list(v.dtypes.astype(str)))
            for c in v.columns:
                yield from walk(v[c].to_numpy())
        elif dataclasses.is_dataclass(v) and not isinstance(v, type):
            yield "D" + type(v).__name__
            for f in dataclasses.fields(v):
                yield f.name
                yield from walk(getattr(v, f.name))
        elif isinstance(v, dict):
            for k, x in v.items():
                yield "K" + repr(k)
                yield from walk(x)
        elif isinstance(v, (list, tuple)):
            yield "L" + str(len(v))
            for x in v:
                yield from walk(x)
        elif isinstance(v, (float, np.floating)):
            yield "f" + np.float64(v).tobytes().hex()
        elif hasattr(v, "to_dict") and callable(v.to_dict):  # an Instance
            yield "I" + json.dumps(v.to_dict(), sort_keys=True)
        else:
            yield "v" + repr(v)

    return digest(*walk(value))


def runs(out: dict, traces: Path) -> None:
    import banditviz as bv
    from banditviz.datasets import DatasetUnavailable

    for pname in sorted(bv.PRESETS):
        try:
            inst = bv.preset(pname)
        except DatasetUnavailable:
            continue
        for name in sorted(bv.ALGORITHMS):
            spec = bv.ALGORITHMS[name]
            if inst.kind not in spec.kinds:
                continue
            T = horizon(inst)
            for snaps, compiled in ((0, True), (12, True), (0, False)):
                key = f"run/{pname}/{name}/s{snaps}/{'c' if compiled else 'py'}"
                try:
                    tr = bv.run(inst, name, T, seed=1, snapshots=snaps, compiled=compiled)
                except ValueError as exc:  # a budget below the algorithm's minimum: the message is the result
                    out[key] = digest(f"ValueError: {exc}")
                    continue
                out[key] = trace_digest(tr, traces / (key.replace("/", "__") + ".npz"))


def fast_loops(out: dict) -> None:
    import banditviz as bv
    from banditviz import simulate

    for name in sorted(bv.ALGORITHMS):
        for kind in ("means", "linear", "contextual", "distributions"):
            out[f"fast/{name}/{kind}"] = digest(str(simulate.has_fast_loop(name, kind)),
                                                str(simulate.has_compiled_loop(name, kind)))


def warnings(out: dict) -> None:
    import banditviz as bv
    from banditviz import guarantees
    from banditviz.datasets import DatasetUnavailable

    for pname in sorted(bv.PRESETS):
        try:
            inst = bv.preset(pname)
        except DatasetUnavailable:
            continue
        out[f"lambda_note/{pname}"] = digest(repr(guarantees.lambda_note(inst)))
        for name in sorted(bv.ALGORITHMS):
            if inst.kind in bv.ALGORITHMS[name].kinds:
                out[f"warnings/{pname}/{name}"] = digest(repr(guarantees.warnings_for(inst, name)))


def registry(out: dict) -> None:
    import banditviz as bv

    for name, spec in bv.ALGORITHMS.items():  # in registration order
        out[f"registry/{name}"] = digest(repr((spec.name, spec.cls.__name__, spec.paper, spec.task, spec.kinds,
                                               spec.params, spec.summary, spec.recommends_every_round)))
    out["registry/order"] = digest(repr(list(bv.ALGORITHMS)))
    out["presets/names"] = digest(repr(sorted(bv.PRESETS)))


def figures(out: dict) -> None:
    import banditviz as bv
    from banditviz import figures as fig

    traces = {}
    for pname, name in FIGURE_RUNS:
        inst = bv.preset(pname)
        T = horizon(inst)
        traces[pname] = tr = bv.run(inst, name, T, seed=2, snapshots=40)
        out[f"figure/animate/{pname}/{name}"] = digest(fig.animate(tr).to_json())
        out[f"figure/animate_small/{pname}/{name}"] = digest(fig.animate(tr, max_frames=10, height=500).to_json())
        out[f"figure/preview/{pname}"] = digest(fig.instance_preview(inst).to_json())
        out[f"figure/pulls/{pname}/{name}"] = digest(fig.pull_counts(tr).to_json())
    rival = bv.run(bv.preset("default"), "pareto_ts", 300, seed=2, snapshots=40)
    out["figure/race/default"] = digest(fig.race(traces["default"], rival).to_json())


def paper_runs(out: dict, traces: Path) -> None:
    import banditviz as bv
    from banditviz import calibration, fronts
    from banditviz.experiments import lexmoslb, ramgape

    table1 = bv.preset("risk_averse_table1")
    for name in sorted(n for n, s in bv.ALGORITHMS.items() if s.task == "risk-averse"):
        r = ramgape.fast_run(table1, name, 20_000, seed=3, checkpoints=[100, 1000, 20_000])
        out[f"fast_run/{name}"] = value_digest(r)
        out[f"fast_run/{name}/regret"] = value_digest(r.simple_regret())
    out["regret_curves"] = value_digest(ramgape.regret_curves(table1, "ramgape_b", 2000, range(3), step=200))
    for pattern in ramgape.EXP2_PATTERNS:
        tr = ramgape.experiment2_trace(pattern)
        out[f"experiment2/{pattern}"] = trace_digest(tr, traces / f"experiment2_{pattern}.npz")
    state = ramgape.state_from_stats(table1, "ramgape_c", 50, np.full(10, 5), np.linspace(1, 3, 10),
                                       np.linspace(1, 6, 10))
    out["state_from_stats"] = value_digest(state)
    lex = bv.preset("lexicographic_lambda_10")
    for name in ("ste2lo", "mte2lo", "pf_lex", "oful"):
        arms = lexmoslb.round_noise_run(lex, name, 500, seed=4)
        out[f"round_noise/{name}"] = value_digest((arms, lexmoslb.general_regret(lex, arms)))
    out["fronts"] = value_digest(fronts.run_fronts(bv.preset("default"), [("pareto_ucb1", {}), ("pfiwr", {})],
                                                   [0, 1], 300))
    out["calibration"] = value_digest(calibration.measure(bv.preset("pfi_toy"), "pfiwr", 3, 3000, 3000, "pfi_toy"))
    out["calibration/risk"] = value_digest(calibration.measure(table1, "ramgape_c", 2, 20_000, 20_000, "t1"))


def sweeps(out: dict) -> None:
    import banditviz as bv

    algs = ["pareto_ucb1", ("mo_epsilon_greedy", {"epsilon": 0.2}), "pfiwr", "gege_fb", "ste2lo"]
    for backend in ("serial", "threads", "processes"):
        table = bv.sweep(["default", "pfi_toy"], algs, 3, 400, backend=backend, workers=2)
        out[f"sweep/{backend}"] = value_digest(table)
    out["sweep/curves"] = value_digest(bv.sweep("risk_averse_easy", ["ramgape_c", "egp"], 2, 3000, curves=True))
    out["sweep/python"] = value_digest(bv.sweep("default", algs[:3], 2, 300, batch=False))


def results(out: dict) -> None:
    from banditviz import reproduce
    from banditviz.datasets import DatasetUnavailable

    try:
        from tests.repro.test_shipped_results import CELLS
    except ImportError:
        CELLS = {}
    for name in reproduce.shipped():
        result = reproduce.load(name)
        out[f"result/{name}/table"] = value_digest(result.table)
        out[f"result/{name}/meta"] = digest(json.dumps(result.meta, sort_keys=True))
        i, a, n = CELLS.get(name, (0, 0, 1))
        try:
            instance = list(result.config.instances)[i]
        except DatasetUnavailable:
            continue
        shipped, fresh = reproduce.recompute(result, instance, a, tuple(json.loads(result.meta["seeds"]))[:n])
        out[f"result/{name}/fresh"] = value_digest(fresh)
        out[f"result/{name}/same_as_shipped"] = digest(str(shipped.equals(fresh)))


STEPS = [("registry", registry), ("fast_loops", fast_loops), ("warnings", warnings), ("figures", figures),
         ("sweeps", sweeps), ("results", results)]


def write(folder: Path, only: set[str] | None = None) -> None:
    """All the items into ``folder``; with ``only``, those steps' items anew, the others kept from the file there."""
    traces = folder / "traces"
    traces.mkdir(parents=True, exist_ok=True)
    file = folder / "fingerprint.json"
    out: dict[str, str] = json.loads(file.read_text()) if only and file.exists() else {}
    for label, step in [("runs", lambda o: runs(o, traces)), ("paper_runs", lambda o: paper_runs(o, traces)),
                        *STEPS]:
        if only and label not in only:
            continue
        start = time.perf_counter()
        step(out)
        print(f"{label}: {time.perf_counter() - start:.1f} s, {len(out)} items", flush=True)
    file.write_text(json.dumps(out, indent=0, sort_keys=True))


def compare(before: Path, after: Path) -> int:
    import banditviz as bv

    a = json.loads((before / "fingerprint.json").read_text())
    b = json.loads((after / "fingerprint.json").read_text())
    differ = sorted(k for k in a.keys() & b.keys() if a[k] != b[k])
    only = sorted(a.keys() ^ b.keys())
    for k in differ:
        print("differs:", k)
    for k in only:
        print("only in", "before:" if k in a else "after:", k)
    loaded = 0
    for path in sorted((before / "traces").glob("*.npz")):
        old = bv.Trace.load(path)
        assert trace_digest(old, after / "reloaded.npz") == (
            a.get(path.stem.replace("__", "/")) or trace_digest(old, after / "reloaded.npz"))
        loaded += 1
    print(f"{len(a.keys() & b.keys())} items compared: {len(differ)} differ, {len(only)} in one only; "
          f"{loaded} traces saved before load now")
    return 1 if differ or only else 0


if __name__ == "__main__":
    if sys.argv[1] == "--compare":
        sys.exit(compare(Path(sys.argv[2]), Path(sys.argv[3])))
    write(Path(sys.argv[1]), set(sys.argv[2].split(",")) if len(sys.argv) > 2 else None)
