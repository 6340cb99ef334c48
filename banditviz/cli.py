"""Command line: ``python -m banditviz {run, sweep, export, list, check, view}`` (also installed as ``banditviz``).

* ``run``: one (instance, algorithm, seed) run; prints a summary and writes the trace.
* ``export``: one run (or a race of two) as an offline page that plays as Watch does, or a video (MP4, GIF).
* ``sweep``: a Monte Carlo sweep described by a TOML config (see ``experiments/``) with a progress
  bar on stderr; writes the tidy results table as Parquet.
* ``list``: the algorithm, preset and generator names the other commands accept.
* ``check``: `banditviz.check_algorithm` on registered algorithms (an outside one loaded with ``--plugin``).
* ``view``: a run logged by one's own code (`Trace.from_log`, format in `banditviz.runlog`) or a saved trace:
  prints what it holds and opens the app's Watch page on it (``streamlit run app.py``, the file handed over by
  `runlog.VIEW_ENV`), or with ``--html OUT`` writes the self-contained HTML page that plays it as Watch does (as
  ``export`` does).

Every command loads the outside algorithms first (`banditviz.plugins`: entry points, ``BANDITVIZ_PLUGINS``,
``--plugin MODULE``); a plugin that fails to import is reported on stderr and the command goes on.

Conventions: results go to stdout, progress and messages to stderr; ``--json`` on any command prints one
JSON document on stdout instead of text; ``--version`` prints the installed version. Exit status
(``EXIT_CODES``): 0 done; 2 usage, a mistake in the command line or its input (unknown name, bad value,
unreadable config), one ``error: ...`` line and never a traceback; 1 error, the command was right but could not
complete (a dataset neither local nor downloadable, an output that cannot be written, an algorithm that failed: its
name, round and seed; ``check`` found a breach); 130 interrupted.
"""

from __future__ import annotations

import argparse
import dataclasses
import importlib.metadata
import json
import os
import subprocess
import sys
import tempfile
import textwrap
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any, TextIO

import numpy as np

from . import ALGORITHMS, PRESETS, Instance, preset, runlog
from .conformance import check_algorithm
from .plugins import ENV_VAR as PLUGINS_ENV
from .plugins import load_plugins
from .simulate import AlgorithmError, run
from .sweep import BACKENDS, GENERATORS, load_config, provenance, summary, write_parquet
from .trace import Trace

EXIT_CODES = {0: "done", 1: "error: the command could not complete (missing data, unwritable output)",
              2: "usage: a mistake in the command line or its input", 130: "interrupted"}
CONFIG_EXAMPLE = """\
  # experiments/my_sweep.toml
  description = "Pareto UCB1 against uniform allocation"
  horizon = 10000            # rounds per run
  seeds = 200                # seeds 0..199 (or a list: [0, 5, 9])
  record_every = 100         # optional: rounds between rows of the table
  curves = false             # optional: identification runs also get a row per recorded round

  [[instances]]
  preset = "default"         # a preset name (python -m banditviz list)

  [[instances]]
  label = "box K=20"         # optional name in the table
  generator = "uniform_box"  # or a generator with its arguments
  args = { K = 20, L = 2, seed = 0 }

  # [[instances]]
  # file = "my_instance.json"  # or an instance exported from the app (path relative to this file)

  [[algorithms]]
  name = "pareto_ucb1"

  [[algorithms]]
  name = "mo_epsilon_greedy"
  params = { epsilon = 0.05 }  # paper defaults for anything not given
"""


# ---------------------------------------------------------------------- progress
class ProgressBar:
    """A text progress bar on a stream: redrawn in place on a terminal, one line per tenth otherwise."""

    def __init__(self, stream: TextIO = sys.stderr, width: int = 30) -> None:
        self.stream, self.width = stream, width
        self.start = time.monotonic()
        self.tty = stream.isatty()
        self.last_tenth = -1

    def __call__(self, done: int, total: int) -> None:
        frac = done / total if total else 1.0
        tenth = int(frac * 10)
        if not self.tty and tenth == self.last_tenth:
            return
        self.last_tenth = tenth
        elapsed = time.monotonic() - self.start
        eta = f"{elapsed / frac - elapsed:5.0f}s" if 0 < frac < 1 else "    -"
        filled = int(frac * self.width)
        line = (f"[{'#' * filled}{'.' * (self.width - filled)}] {done}/{total} runs {frac:4.0%}"
                f"  elapsed {elapsed:5.0f}s  eta {eta}")
        self.stream.write(("\r" + line) if self.tty else line + "\n")
        if self.tty and done == total:
            self.stream.write("\n")
        self.stream.flush()


# ---------------------------------------------------------------------- helpers
def _value(text: str) -> Any:
    """A command-line value: JSON when it parses (numbers, true/false, lists), else the text itself."""
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        return text


def _pairs(items: Sequence[str] | None, option: str) -> dict[str, Any]:
    out = {}
    for item in items or ():
        key, sep, value = item.partition("=")
        if not sep or not key:
            raise ValueError(f"{option}: expected key=value, got {item!r}")
        out[key] = _value(value)
    return out


def _instance(name: str, args: dict[str, Any]) -> Instance:
    """A preset name, a generator name (with ``args``) or a path to an instance JSON file."""
    try:
        if name in PRESETS:
            return preset(name, **args)
        if name in GENERATORS:
            return GENERATORS[name](**args)
    except TypeError as exc:
        raise ValueError(f"--instance-arg: {exc}") from None
    path = Path(name)
    if path.suffix == ".json" or path.exists():
        if args:
            raise ValueError("--instance-arg: only a preset or a generator takes arguments")
        try:
            return Instance.from_json(path.read_bytes())
        except OSError as exc:
            raise ValueError(f"--instance: cannot read {name!r} ({exc.strerror})") from None
    raise ValueError(f"--instance: {name!r} is neither a preset ({', '.join(sorted(PRESETS))}), a generator "
                     f"({', '.join(sorted(GENERATORS))}) nor a JSON file")


def _fmt(x: float) -> str:
    return f"{x:.4g}"


def _json(out: TextIO, document: dict[str, Any]) -> None:
    out.write(json.dumps(document, indent=1, default=str) + "\n")


def _say(stream: TextIO | None, line: str) -> None:
    """A message for the person watching (stderr), never mixed into the results on stdout."""
    if stream is not None:
        stream.write(line + "\n")
        stream.flush()


def version() -> str:
    try:
        return importlib.metadata.version("banditviz")
    except importlib.metadata.PackageNotFoundError:  # run from a checkout without installing
        return "unknown (not installed)"


# ---------------------------------------------------------------------- commands
def cmd_run(args: argparse.Namespace, out: TextIO) -> int:
    inst = _instance(args.instance, _pairs(args.instance_arg, "--instance-arg"))
    params = _pairs(args.param, "--param")
    start = time.perf_counter()
    trace = run(inst, args.algorithm, args.horizon, args.seed, snapshots=args.snapshots, **params)
    elapsed = time.perf_counter() - start
    for warning in trace.info.get("warnings", ()):
        _say(sys.stderr, f"warning: {warning}")
    lines = [
        f"instance   {inst.name or args.instance}  (K={inst.K}, L={inst.L}, kind={inst.kind})",
        f"algorithm  {trace.algorithm}  {json.dumps(trace.params, sort_keys=True)}",
        f"seed       {trace.seed}",
        f"rounds     {trace.rounds} of {trace.horizon}"
        + (f"  (stopped at round {trace.stopped_at})" if trace.stopped_at else "")
        + f"  in {elapsed:.2f} s",
    ]
    if trace.recommendation is not None:
        verdict = ""
        if inst.means is not None:
            verdict = "  correct" if set(trace.recommendation) == set(inst.pareto_set) else \
                f"  wrong (true Pareto set: {list(inst.pareto_set)})"
        lines.append(f"recommends {list(trace.recommendation)}{verdict}")
    for name in trace.metrics:
        lines.append(f"cumulative {name}: {_fmt(float(np.sum(trace.metrics[name])))}")
    pulls = np.bincount(trace.arms, minlength=inst.K)
    lines.append("pulls      " + " ".join(f"{k}:{n}" for k, n in enumerate(pulls)))
    if args.out:
        path = Path(args.out)
        if path.suffix == ".npz":
            trace.save(path)
        elif path.suffix == ".parquet":
            write_parquet(trace.to_frame(), path)
        else:
            raise ValueError(f"--out: must end in .npz or .parquet, got {args.out!r}")
        lines.append(f"trace      written to {path}")
    if args.json:
        _json(out, {"instance": inst.name or args.instance, "K": inst.K, "L": inst.L, "kind": inst.kind,
                    "algorithm": trace.algorithm, "params": trace.params, "seed": trace.seed,
                    "horizon": trace.horizon, "rounds": trace.rounds, "stopped_at": trace.stopped_at,
                    "seconds": elapsed,
                    "recommendation": None if trace.recommendation is None else [int(i) for i in trace.recommendation],
                    "pareto_set": None if inst.means is None else [int(i) for i in inst.pareto_set],
                    "cumulative": {n: float(np.sum(v)) for n, v in trace.metrics.items()},
                    "pulls": pulls.tolist(), "out": str(args.out) if args.out else None,
                    "warnings": list(trace.info.get("warnings", ()))})
    else:
        out.write("\n".join(lines) + "\n")
    return 0


def cmd_sweep(args: argparse.Namespace, out: TextIO) -> int:
    config = load_config(args.config)
    overrides = {}
    if args.seeds is not None:
        overrides["seeds"] = tuple(range(args.seeds))
    if args.horizon is not None:
        overrides["horizon"] = args.horizon
    config = dataclasses.replace(config, **overrides)
    backend = args.backend or ("dask" if args.scheduler else "processes")
    log = None if args.quiet else sys.stderr
    _say(log, f"{Path(args.config).name}: {len(config.instances)} instance(s) x {len(config.algorithms)} "
              f"algorithm(s) x {len(config.seeds)} seed(s), horizon {config.horizon}, backend {backend}")
    progress = None if args.quiet else ProgressBar()
    start = time.perf_counter()
    table = config.run(backend=backend, workers=args.workers, scheduler=args.scheduler,
                       batch=not args.no_batch, progress=progress)
    write_parquet(table, args.out, provenance(args.config, config.seeds, config.horizon))
    _say(log, f"{len(table)} rows written to {args.out} in {time.perf_counter() - start:.1f} s")
    result = summary(table)
    if args.json:
        _json(out, {"out": str(args.out), "rows": len(table), "summary": json.loads(result.to_json(orient="records"))})
    else:
        out.write(result.to_string(index=False, float_format=_fmt) + "\n")
    return 0


def cmd_export(args: argparse.Namespace, out: TextIO) -> int:
    from . import export

    if args.trace:
        if args.algorithm or args.instance_arg or args.param:
            raise ValueError("--trace: the run is the saved trace's; leave out --algorithm, --instance-arg and --param")
        try:
            trace = Trace.load(args.trace)
        except OSError as exc:
            raise ValueError(f"--trace: cannot read {args.trace!r} ({exc.strerror or exc})") from None
    elif not args.algorithm:
        raise ValueError("--algorithm: required (or --trace, a run saved by: python -m banditviz run)")
    else:
        inst = _instance(args.instance, _pairs(args.instance_arg, "--instance-arg"))
        trace = run(inst, args.algorithm, args.horizon, args.seed, snapshots=args.snapshots,
                    **_pairs(args.param, "--param"))
    rival = None
    if args.race:
        rival = run(trace.instance, args.race, trace.horizon, trace.seed, snapshots=len(trace.snapshots) or 200)
    start = time.perf_counter()
    try:
        path = export.save(args.out, trace, rival, present=args.present, width=args.width, height=args.height,
                           speed=args.speed)
    except ValueError as exc:  # the API names its arguments; the command line names its options
        raise ValueError("--" + str(exc).replace("path:", "out:", 1)) from None
    elapsed = time.perf_counter() - start
    if args.json:
        _json(out, {"out": str(path), "bytes": path.stat().st_size, "seconds": elapsed})
    else:
        out.write(f"{path} written ({path.stat().st_size / 1e6:.1f} MB) in {elapsed:.1f} s\n")
    return 0


def cmd_list(args: argparse.Namespace, out: TextIO) -> int:
    if args.json:
        _json(out, {"algorithms": {n: {"task": a.task, "kinds": list(a.kinds), "paper": a.paper,
                                       "params": {p.name: p.default for p in a.params}}
                                   for n, a in sorted(ALGORITHMS.items())},
                    "presets": {n: {"paper": p.paper, "dims": p.dims, "description": p.description}
                                for n, p in sorted(PRESETS.items())},
                    "generators": sorted(GENERATORS)})
        return 0
    out.write("algorithms (name: task; instance kinds; paper)\n")
    for name, spec in sorted(ALGORITHMS.items()):
        params = ", ".join(f"{p.name}={p.default!r}" for p in spec.params)
        out.write(f"  {name}: {spec.task}; {', '.join(spec.kinds)}; {spec.paper}\n")
        if params:
            out.write(f"      params: {params}\n")
    out.write("presets (usable as --instance NAME or preset = \"NAME\")\n")
    for name, p in sorted(PRESETS.items()):
        out.write(f"  {name}: {textwrap.shorten(p.description, 90)}\n")
    out.write("generators (--instance NAME --instance-arg K=20 ..., or generator = \"NAME\")\n")
    for name, fn in sorted(GENERATORS.items()):
        out.write(f"  {name}: {(fn.__doc__ or '').strip().splitlines()[0]}\n")
    return 0


def cmd_check(args: argparse.Namespace, out: TextIO) -> int:
    """`check_algorithm` on each named algorithm: one line per breach; exit 1 if any."""
    breaches = {name: check_algorithm(name, horizon=args.horizon) for name in args.algorithm}
    if args.json:
        _json(out, {"breaches": breaches})
    else:
        for name, found in breaches.items():
            out.write(f"{name}: " + ("keeps the contract" if not found else f"{len(found)} breach(es)") + "\n")
            out.writelines(f"  {line}\n" for line in found)
    return 1 if any(breaches.values()) else 0


def _read_run(path: str, header: str | None) -> Trace:
    """A saved trace (an .npz file that is not a log) or a log (CSV, npz or Parquet), with its side JSON."""
    if Path(path).suffix == ".npz" and not runlog.is_npz_log(path):
        if header:
            raise ValueError("--header: only for a log; a saved trace (.npz) holds its instance")
        try:
            return Trace.load(path)
        except (KeyError, json.JSONDecodeError, EOFError) as exc:
            raise ValueError(f"FILE: {path!r} is not a trace saved by banditviz ({exc})") from None
    return Trace.from_log(path, header)


def cmd_view(args: argparse.Namespace, out: TextIO) -> int:
    """Summary of a logged run (or a saved trace), then the app on it, or the page that plays it as Watch does
    (``--html``: `export.write_page`)."""
    from .export import write_page  # the figures only for this command: the others start faster without plotly

    trace = _read_run(args.file, args.header)
    inst = trace.instance
    pulls = np.bincount(trace.arms, minlength=inst.K)
    truth = "known" if trace.truth_known else "unknown: no regret, the figure draws the log's empirical means"
    lines = [f"run        {trace.algorithm}, seed {trace.seed}: {trace.rounds} rounds of {trace.horizon}",
             f"arms       {inst.K}; objectives {', '.join(inst.objective_names)} ({', '.join(inst.directions)})",
             f"true means {truth}", f"snapshots  {len(trace.snapshots)}",
             "pulls      " + " ".join(f"{k}:{n}" for k, n in enumerate(pulls))]
    lines += [f"cumulative {name}: {_fmt(float(np.sum(v)))}" for name, v in trace.metrics.items()]
    html = Path(args.html) if args.html else None
    if html is not None:
        write_page(html, trace, autoplay=False)  # offline: plotly.js inline, nothing fetched
        lines.append(f"figure     written to {html}")
    if args.json:
        _json(out, {"algorithm": trace.algorithm, "seed": trace.seed, "rounds": trace.rounds, "horizon": trace.horizon,
                    "K": inst.K, "objectives": list(inst.objective_names), "truth_known": trace.truth_known,
                    "snapshots": len(trace.snapshots), "pulls": pulls.tolist(),
                    "cumulative": {n: float(np.sum(v)) for n, v in trace.metrics.items()},
                    "html": None if html is None else str(html)})
    else:
        out.write("\n".join(lines) + "\n")
    return _open_app(args, trace, sys.stderr if args.json else out) if args.html is None else 0


def _open_app(args: argparse.Namespace, trace: Trace, out: TextIO) -> int:
    """``streamlit run app.py`` with the file (and its side JSON, and the ``--plugin`` modules) handed to Watch by
    environment variables (a saved trace as its log, written to a temporary file); prints the URL and waits until
    the server stops (Ctrl+C)."""
    app = Path(__file__).resolve().parents[1] / "app.py"
    if not app.is_file():
        raise OSError(f"view: the app ({app}) is not beside the installed package; write the figure with --html OUT")
    env = {k: v for k, v in os.environ.items() if k != runlog.VIEW_HEADER_ENV}
    path = Path(args.file).resolve()
    if path.suffix == ".npz" and not runlog.is_npz_log(path):  # a saved trace: Watch opens logs
        path = Path(tempfile.mkdtemp(prefix="banditviz-view-")) / f"{path.stem}.log.npz"
        trace.to_log(path)
    env[runlog.VIEW_ENV] = str(path)
    if args.header:
        env[runlog.VIEW_HEADER_ENV] = str(Path(args.header).resolve())
    if args.plugin:
        env[PLUGINS_ENV] = ",".join(filter(None, [os.environ.get(PLUGINS_ENV, ""), *args.plugin]))
    out.write(f"app        http://localhost:{args.port}/ (Watch plays {args.file}; Ctrl+C to stop)\n")
    out.flush()
    try:
        done = subprocess.run([sys.executable, "-m", "streamlit", "run", str(app), "--server.port", str(args.port)],
                              env=env, cwd=app.parent, check=False)
    except KeyboardInterrupt:
        return 0
    return 0 if done.returncode in (0, -2, 130) else 1


# ---------------------------------------------------------------------- parser
def _run_options(p: argparse.ArgumentParser, required: bool) -> None:
    """The options that describe one run: instance, algorithm and its parameters, horizon, seed, snapshots."""
    p.add_argument("--instance", default="default",
                   help="preset name, generator name or instance JSON file (default: %(default)s)")
    p.add_argument("--instance-arg", action="append", metavar="KEY=VALUE",
                   help="argument of the preset or generator, e.g. K=20 (repeatable)")
    p.add_argument("--algorithm", required=required, help="registered name (see: python -m banditviz list)")
    p.add_argument("--param", action="append", metavar="KEY=VALUE",
                   help="algorithm parameter, e.g. epsilon=0.05 (repeatable; paper defaults otherwise)")
    p.add_argument("--horizon", type=int, default=2000, help="rounds at most (default: %(default)s)")
    p.add_argument("--seed", type=int, default=0, help="random seed (default: %(default)s)")
    p.add_argument("--snapshots", type=int, default=200,
                   help="round states kept for drawing, 0..300 (default: %(default)s)")


def build_parser() -> argparse.ArgumentParser:
    fmt = argparse.RawDescriptionHelpFormatter
    parser = argparse.ArgumentParser(
        prog="python -m banditviz", formatter_class=fmt,
        description="Run multi-objective (Pareto) bandit algorithms without the app.",
        epilog=textwrap.dedent("""\
            start here:
              python -m banditviz list                      names of algorithms, presets, generators
              python -m banditviz run --help                one run, printed summary, saved trace
              python -m banditviz sweep --help              many runs from a TOML config, Parquet table
              python -m banditviz export --help             a run as an offline page, a video or a GIF
              python -m banditviz check --help              does an algorithm of your own keep the contract?
              python -m banditviz view --help               a run logged by your own code, drawn

            examples:
              python -m banditviz run --algorithm pareto_ucb1 --horizon 5000
              python -m banditviz run --instance vehicle_safety --algorithm pareto_ucb1 --json --out ''
              python -m banditviz sweep experiments/classic_baselines.toml --out results.parquet
              python -m banditviz list --json

            Results go to stdout (text, or one JSON document with --json); progress and messages to stderr.
            exit status: 0 done, 1 error (the command could not complete: missing data, unwritable output),
                         2 usage (a mistake in the command line or its input), 130 interrupted.
            """))
    parser.add_argument("--version", action="version", version=f"banditviz {version()}")
    sub = parser.add_subparsers(dest="command", metavar="{run,sweep,export,list,check,view}")
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--plugin", action="append", metavar="MODULE", default=[],
                        help="import MODULE first, an outside module that registers algorithms (repeatable; also "
                             "the BANDITVIZ_PLUGINS variable, comma-separated, and the entry-point group "
                             "banditviz.algorithms)")

    p = sub.add_parser("run", formatter_class=fmt, parents=[common],
                       help="one run: print a summary and write the trace",
                       description="Play one algorithm on one instance with one seed.",
                       epilog=textwrap.dedent("""\
                           examples:
                             python -m banditviz run --algorithm pareto_ucb1 --horizon 5000
                             python -m banditviz run --instance uniform_box --instance-arg K=20 \\
                                 --algorithm mo_epsilon_greedy --param epsilon=0.05 --seed 3 --out run.parquet

                           The .npz trace reloads with banditviz.Trace.load(path); a .parquet trace holds
                           one row per round (arm, rewards, instantaneous regrets).
                           """))
    _run_options(p, required=True)
    p.add_argument("--out", default="trace.npz",
                   help="where to write the trace: .npz (full trace) or .parquet (per-round table); "
                        "empty string to skip (default: %(default)s)")
    p.add_argument("--json", action="store_true", help="print the summary as one JSON object")
    p.set_defaults(handler=cmd_run)

    p = sub.add_parser("sweep", formatter_class=fmt, parents=[common],
                       help="many runs from a TOML config, written as Parquet",
                       description=textwrap.dedent("""\
                           Run every (instance, algorithm, seed) of a config with common random numbers
                           (seed s gives every algorithm the same noise) and write one tidy table:
                           one row per run and recorded round with cumulative regrets (cum_*), or one
                           row per run for identification algorithms (stopping_time, correct, recommended).
                           Ready configs for each paper's full-size experiment are in experiments/.
                           """),
                       epilog="config format:\n" + CONFIG_EXAMPLE + textwrap.dedent("""
                           examples:
                             python -m banditviz sweep experiments/classic_baselines.toml --out results.parquet
                             python -m banditviz sweep my.toml --out r.parquet --seeds 10 --horizon 500   # quick try
                             python -m banditviz sweep my.toml --out r.parquet --scheduler tcp://10.0.0.5:8786

                           Read the result with pandas.read_parquet("results.parquet").
                           """))
    p.add_argument("config", help="TOML file describing the sweep (format below)")
    p.add_argument("--out", required=True,
                   help="Parquet file to write (atomically), with the config, seeds, horizon and package version "
                        "in its key-value metadata (banditviz.sweep.read_metadata)")
    p.add_argument("--backend", choices=BACKENDS,
                   help="where runs execute (default: dask with --scheduler, else processes)")
    p.add_argument("--workers", type=int,
                   help="processes (or LocalCluster workers for dask without --scheduler); default: all cores")
    p.add_argument("--scheduler", metavar="ADDR",
                   help="address of a running dask.distributed scheduler, e.g. tcp://10.0.0.5:8786; the "
                        "workers need banditviz installed")
    p.add_argument("--seeds", type=int, help="override the config: seeds 0..N-1")
    p.add_argument("--horizon", type=int, help="override the config's horizon")
    p.add_argument("--no-batch", action="store_true",
                   help="run every seed through the engine one by one (same numbers, slower)")
    p.add_argument("--quiet", action="store_true", help="no progress bar or messages on stderr")
    p.add_argument("--json", action="store_true", help="print the summary table as JSON records")
    p.set_defaults(handler=cmd_sweep)

    p = sub.add_parser("export", formatter_class=fmt, parents=[common],
                       help="a run as an offline page (HTML), a video (MP4) or a GIF",
                       description=textwrap.dedent("""\
                           One run (or a race of two on the same instance, horizon and seed) as one HTML file
                           that plays as the app's Watch page does with no server and no network (controls,
                           speeds, keys, explanation, per-arm table), or its animation as an MP4 or a GIF
                           (drawn by Chromium, encoded by ffmpeg: pip install 'banditviz[export]').
                           """),
                       epilog=textwrap.dedent("""\
                           examples:
                             python -m banditviz export --algorithm pareto_ucb1 --out run.html
                             python -m banditviz export --algorithm pareto_ucb1 --race pareto_ts --out race.html
                             python -m banditviz export --instance default_3d --algorithm pareto_ucb1 --out run.mp4
                             python -m banditviz export --trace trace.npz --out run.gif --width 1280 --height 720
                           """))
    _run_options(p, required=False)
    p.add_argument("--trace", help="a run saved by 'python -m banditviz run --out FILE.npz' (instead of running one)")
    p.add_argument("--race", metavar="ALGORITHM", help="a second algorithm raced against the first (paper defaults)")
    p.add_argument("--out", required=True, help="file to write: .html (a page), .mp4 or .gif (a video)")
    p.add_argument("--present", action=argparse.BooleanOptionalAction, default=None,
                   help="presentation mode: texts for a projector (default: on for a video, off for a page)")
    p.add_argument("--width", type=int, default=1920, help="video width in px, even (default: %(default)s)")
    p.add_argument("--height", type=int, default=1080, help="video height in px, even (default: %(default)s)")
    p.add_argument("--speed", default="normal", help="video speed, as in the app: slow, normal, fast or fastest "
                                                      "(default: %(default)s)")
    p.add_argument("--json", action="store_true", help="print where it was written as one JSON object")
    p.set_defaults(handler=cmd_export)

    p = sub.add_parser("list", parents=[common], help="algorithm, preset and generator names")
    p.add_argument("--json", action="store_true", help="print the names and their details as JSON")
    p.set_defaults(handler=cmd_list)

    p = sub.add_parser("check", parents=[common], help="check that algorithms keep the contract",
                       description="Play each algorithm on small instances and report every breach of the "
                                   "contract (banditviz.check_algorithm); exit status 1 if one is found.",
                       epilog="example: python -m banditviz check --plugin greedy_pareto greedy_pareto")
    p.add_argument("algorithm", nargs="+", help="registered names")
    p.add_argument("--horizon", type=int, default=200, help="rounds per run (default: %(default)s)")
    p.add_argument("--json", action="store_true", help="print the breaches as JSON")
    p.set_defaults(handler=cmd_check)

    p = sub.add_parser("view", formatter_class=fmt, parents=[common],
                       help="a run logged by your own code: summary, then the app on it (or an HTML figure)",
                       description="Read a run logged by your own code (a CSV, npz or Parquet log, format "
                                   "banditviz-log v1: round, arm, reward[<objective>] columns, optional estimates, "
                                   "bounds, status, front and a JSON header; see help(banditviz.runlog)) or a trace "
                                   "saved by banditviz (.npz), print what it holds and open the app's Watch page on "
                                   "it, or write its animated figure (--html).",
                       epilog=textwrap.dedent("""\
                           examples:
                             python -m banditviz view my_run.csv                 the app, Watch playing it
                             python -m banditviz view my_run.csv --header truth.json --html my_run.html

                           Without the true means (header key 'means' or 'instance') there is no regret: the
                           figure draws the log's empirical means and pull counts. On a running app, upload the
                           file on Watch ("Play a run you logged").
                           """))
    p.add_argument("file", help="a CSV, npz or Parquet log, or a trace saved by banditviz (.npz)")
    p.add_argument("--header", metavar="JSON", help="side JSON file with the header's keys (e.g. the true means)")
    p.add_argument("--html", metavar="OUT", help="write the animated figure to OUT instead of opening the app ('' for "
                                                 "the summary only)")
    p.add_argument("--port", type=int, default=8501, help="the app's port (default: %(default)s)")
    p.add_argument("--json", action="store_true", help="print the summary as one JSON object")
    p.set_defaults(handler=cmd_view)
    return parser


def main(argv: Sequence[str] | None = None, out: TextIO | None = None) -> int:
    """Entry point of ``python -m banditviz``; returns the exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help()
        return 2
    for failure in load_plugins(args.plugin):
        _say(sys.stderr, f"warning: {failure}")
    try:
        return args.handler(args, out or sys.stdout)
    except AlgorithmError as exc:  # the algorithm's fault, named with its round and seed: no traceback
        sys.stderr.write(f"error: {exc}\n")
        return 1
    except OSError as exc:  # before ValueError: DatasetUnavailable is both, and it is not a usage mistake
        sys.stderr.write(f"error: {exc}\n")
        return 1
    except ValueError as exc:
        sys.stderr.write(f"error: {exc}\n")
        return 2
    except KeyboardInterrupt:
        sys.stderr.write("\ninterrupted; nothing written\n")
        return 130
