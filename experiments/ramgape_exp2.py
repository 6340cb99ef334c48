"""Run RAMGapE's Experiment 2 (experiments/ramgape_exp2.toml) and write its table as a shipped result.

Each run needs 1e7 - 5e7 samples, above `banditviz.limits.MAX_HORIZON`, so the config is played here by the compiled
risk-averse loop (`banditviz.experiments.ramgape.fast_run`, the loop `banditviz.run` uses for these algorithms)
instead of `python -m banditviz sweep`. The table has the sweep's identification columns (one row per run: stopping
time, stopped, correct, recommended, pulls per arm) and the same provenance metadata, plus ``generator``.

    .venv/bin/python experiments/ramgape_exp2.py --out banditviz/results/ramgape_exp2.parquet
"""

from __future__ import annotations

import argparse
import json
import time
import tomllib
from pathlib import Path

import pandas as pd

from banditviz import preset
from banditviz.algorithms.base import get_algorithm
from banditviz.experiments.ramgape import fast_run
from banditviz.pareto import mean_variance as risk
from banditviz.sweep import normalise_seeds, provenance, write_parquet

CONFIG = Path(__file__).with_suffix(".toml")


def run_cell(label: str, args: dict, algorithm: str, params: dict, seed: int, cap: int) -> dict:
    """One run of the config: its row of the table."""
    inst = preset("risk_averse_table3", **args)
    run = fast_run(inst, algorithm, cap, seed, **params)
    rec = run.recommendation
    return {"instance": label, "algorithm": algorithm,
            "params": json.dumps(get_algorithm(algorithm).validate(params), sort_keys=True), "seed": seed,
            "stopping_time": run.samples, "stopped": run.stopped,
            "correct": set(rec) == set(risk.pareto_set(inst)), "recommended": ",".join(map(str, sorted(rec))),
            "pulls": ",".join(map(str, run.counts.tolist()))}


def table(config: dict) -> pd.DataFrame:
    rows = []
    for entry in config["instances"]:
        for alg in config["algorithms"]:
            for seed in normalise_seeds(config["seeds"]):
                t0 = time.process_time()
                rows.append(run_cell(entry["label"], entry["args"], alg["name"], alg["params"], seed,
                                     config["horizon"]))
                print(f"{entry['label']} {alg['name']} seed {seed}: {rows[-1]['stopping_time']:,} samples, "
                      f"{time.process_time() - t0:.1f} s cpu", flush=True)
    return pd.DataFrame(rows).astype({"stopping_time": "Int64", "stopped": "boolean", "correct": "boolean"})


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", required=True)
    args = ap.parse_args()
    config = tomllib.loads(CONFIG.read_text(encoding="utf-8"))
    seeds = normalise_seeds(config["seeds"])
    meta = {**provenance(CONFIG, seeds, config["horizon"]), "generator": f"experiments/{Path(__file__).name}"}
    write_parquet(table(config), args.out, meta)


if __name__ == "__main__":
    main()
