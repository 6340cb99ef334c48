"""Monte Carlo sweeps: every (instance, algorithm, seed) with common random numbers, as one tidy table.

``sweep(instances, algorithms, seeds, horizon, backend=...)`` runs each combination with the engine
(`simulate.run`, which plays an algorithm in a compiled loop when it has one: same numbers) and returns
a pandas DataFrame:

* regret-type algorithms: one row per run and recorded round (every ``record_every`` rounds and the
  last round played), with columns ``instance, algorithm, params, seed, round`` and the cumulative
  value ``cum_<metric>`` of every per-round metric the engine records (``cum_pareto_regret``,
  ``cum_effective_regret``, the lexicographic regrets, the expected reward per objective
  ``cum_reward_<i>``...), the value at that round of a level metric (`LEVEL_METRICS`: ``estimation_error``)
  and ``pulls``, each arm's number of pulls so far joined by commas (``parse_pulls`` reads it back as a matrix);
* identification algorithms (tasks in `IDENTIFICATION_TASKS`): one row per run with ``stopping_time``
  (rounds played: the stopping round, or the horizon when the algorithm did not stop), ``stopped``,
  ``correct`` (the recommended set equals the true Pareto set; strict dominance for "risk-averse",
  RAMGapE Sec. 2), ``recommended`` (arm indices joined by commas; missing when nothing is recommended),
  the task's recommendation metrics of the final answer (``error``, ``simple_regret``), the
  ``cum_<metric>`` totals and ``pulls``; with ``curves=True``, one such row per run and recorded round, holding the
  recommendation metrics at that round (the per-run columns repeated).

``params`` is the JSON of the algorithm's full parameter set (paper defaults included). Backends:
``"serial"``, ``"threads"`` (threads of this process: no start-up, no pickling; parallel where the runs are in
compiled loops, which release the GIL), ``"processes"`` (local cores) and ``"dask"`` (a ``dask.distributed``
scheduler address, or a LocalCluster started for the sweep). Work is cut into jobs of a few seeds each; every job is
deterministic and the jobs' rows are concatenated in job order, so every backend returns the same frame.
Worker processes start from a fresh interpreter (forkserver) and do not run the caller's main script (a script, or
Streamlit's app script, whose algorithms must then live in an importable module: a sweep refuses ``__main__``'s).

This module is callable: ``banditviz.sweep(...)`` is ``banditviz.sweep.sweep(...)``, and the module's other names
(``banditviz.sweep.read_metadata``...) stay reachable beside it.

One module per topic: `jobs` (one job's rows), `plan` (arguments and jobs), `backends`, `runner` (`sweep`),
`tables` (summary, Parquet, provenance) and `config` (TOML configs).
"""

import sys
import types

from .backends import BACKENDS, HEARTBEAT
from .config import GENERATORS, SweepConfig, load_config, parse_config
from .jobs import IDENTIFICATION_TASKS, LEVEL_METRICS, Job, parse_pulls, pull_counts, recorded_rounds, run_job
from .plan import normalise_algorithms, normalise_instances, normalise_seeds, plan, spread
from .runner import sweep
from .tables import provenance, read_metadata, summary, write_parquet

__all__ = ["BACKENDS", "GENERATORS", "HEARTBEAT", "IDENTIFICATION_TASKS", "LEVEL_METRICS", "Job", "SweepConfig",
           "load_config", "normalise_algorithms", "normalise_instances", "normalise_seeds", "parse_config",
           "parse_pulls", "plan", "provenance", "pull_counts", "read_metadata", "recorded_rounds", "run_job", "spread",
           "summary", "sweep", "write_parquet"]


class _CallableModule(types.ModuleType):
    """This module's type: calling it runs `sweep` (the package exports the module, not a function that hid it)."""

    def __call__(self, *args, **kwargs):
        return sweep(*args, **kwargs)

    __call__.__doc__ = sweep.__doc__


sys.modules[__name__].__class__ = _CallableModule
