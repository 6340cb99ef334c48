"""An outside package's algorithm reaches banditviz through its entry point (issue 25, "plugins everywhere"): the
package is installed by hand into a temporary directory (its module and a dist-info with ``entry_points.txt``, which
is all pip leaves of a wheel), and `load_plugins` registers its algorithm; a plugin named by ``BANDITVIZ_PLUGINS`` runs
in a process-pool sweep (in a fresh interpreter: the workers import it there) with the serial sweep's results."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import banditviz
from banditviz import ALGORITHMS
from banditviz.algorithms.base import is_external

ROOT = Path(__file__).resolve().parents[2]
ALGORITHM = '''
import numpy as np
from banditviz import ACTIVE, Algorithm, RoundState, register


@register("{name}", paper="outside package", task="regret", kinds=("means",))
class RoundRobin(Algorithm):
    """Every arm in turn; estimates are the mean rewards so far."""

    def reset(self, problem, rng):
        self.K, self.t = problem.K, 0
        self.counts, self.sums = np.zeros(problem.K, dtype=np.int64), np.zeros((problem.K, problem.L))

    def select(self, t):
        self.t = t
        return (t - 1) % self.K

    def update(self, arm, reward):
        self.counts[arm] += 1
        self.sums[arm] += reward

    def state(self):
        means = np.where(self.counts[:, None] > 0, self.sums / np.maximum(self.counts, 1)[:, None], np.nan)
        nan = np.full_like(means, np.nan)
        return RoundState(t=self.t, estimates=means, lower=nan, upper=nan, status=np.full(self.K, ACTIVE),
                          front=(), pulled=None, counts=self.counts.copy())
'''


def install(target: Path, module: str, name: str, entry_point: bool) -> None:
    """``module`` (registering ``name``) into ``target``, with a dist-info declaring it in the entry-point group when
    ``entry_point``: what ``pip install --target`` leaves of a wheel."""
    (target / f"{module}.py").write_text(ALGORITHM.format(name=name))
    if entry_point:
        info = target / f"{module}-0.1.dist-info"
        info.mkdir()
        (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {module}\nVersion: 0.1\n")
        (info / "entry_points.txt").write_text(f"[banditviz.algorithms]\n{name} = {module}\n")
        (info / "RECORD").write_text("")


def test_an_installed_package_registers_its_algorithm_through_its_entry_point(registry, tmp_path, monkeypatch):
    install(tmp_path, "outside_round_robin", "outside_rr", entry_point=True)
    assert banditviz.load_plugins() == [] and "outside_rr" not in ALGORITHMS  # not installed yet
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, "outside_round_robin", raising=False)
    assert banditviz.load_plugins() == []
    assert "outside_rr" in ALGORITHMS and is_external(ALGORITHMS["outside_rr"])
    trace = banditviz.run(banditviz.preset("default"), "outside_rr", 12)
    assert trace.arms.tolist() == [t % banditviz.preset("default").K for t in range(12)]
    assert banditviz.check_algorithm("outside_rr") == []
    sys.modules.pop("outside_round_robin", None)


SWEEP = textwrap.dedent("""
    import json, os, banditviz
    failures = banditviz.load_plugins()

    def table(backend):
        if backend != "dask":
            return banditviz.sweep("default", ["env_rr"], [1, 2], 40, backend=backend, workers=1)
        import distributed
        with distributed.LocalCluster(n_workers=1, processes=True, threads_per_worker=1,
                                      dashboard_address=None) as cluster:
            return banditviz.sweep("default", ["env_rr"], [1, 2], 40, backend="dask",
                                   scheduler=cluster.scheduler_address)

    if __name__ == "__main__":
        frames = [table(b) for b in (os.environ["BACKEND"], "serial")]
        print(json.dumps({"failures": failures, "rows": len(frames[0]), "same": frames[0].equals(frames[1]),
                          "regret": float(frames[0]["cum_pareto_regret"].sum())}))
""")


def sweep_in_a_fresh_interpreter(tmp_path: Path, plugins: str,
                                 backend: str = "processes") -> subprocess.CompletedProcess:
    """The sweep of a plugin's algorithm on ``backend`` (its workers in other processes) and serially, in a new
    interpreter whose only way to the plugin is ``BANDITVIZ_PLUGINS`` (and its directory on the path)."""
    script = tmp_path / "sweep_plugin.py"  # a file: Dask's and the pool's workers re-import the main module
    script.write_text(SWEEP)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path), str(ROOT)]), "BANDITVIZ_PLUGINS": plugins,
           "BACKEND": backend}
    return subprocess.run([sys.executable, str(script)], env=env, capture_output=True, text=True, timeout=300)


@pytest.mark.slow
@pytest.mark.parametrize("backend", ["processes", "dask"])
def test_a_process_sweep_runs_a_plugin_named_by_the_variable(tmp_path, backend):
    """On a process pool and on a local Dask cluster (processes), as serially."""
    if backend == "dask":
        pytest.importorskip("distributed")
    install(tmp_path, "env_round_robin", "env_rr", entry_point=False)
    done = sweep_in_a_fresh_interpreter(tmp_path, "env_round_robin", backend)
    assert done.returncode == 0, done.stderr[-2000:]
    result = json.loads(done.stdout.strip().splitlines()[-1])
    assert result["failures"] == [] and result["rows"] == 2 * 40 and result["same"] and result["regret"] > 0
    # the variable is what brought it: without it the sweep does not know the name
    done = sweep_in_a_fresh_interpreter(tmp_path, "", backend)
    assert done.returncode != 0 and "env_rr" in done.stderr
