"""Real instances from public multi-objective datasets (`banditviz.datasets`): the four datasets shipped with
VOPy (SNW, DiscBrake, VehicleSafety with 3 objectives, Fairness), each citing the paper it comes from.

Arms and means (our decision, following how VOPy's ``Dataset`` classes prepare the same files): one arm per row
(a design); its mean vector is the row's objectives oriented for maximisation as VOPy orients them (VOPy negates
SNW's area and Fairness' disparate impact; DiscBrake's and VehicleSafety's objectives are stored negated), then
standardised per objective to zero mean and unit (population) standard deviation, as VOPy's output scaler does.
Standardising puts objectives measured in different units (kg, seconds, accuracy) on one scale, so a single
Gaussian noise level sigma fits all of them; sigma = 0.1, a tenth of each objective's spread across designs, is our
choice (VOPy's own experiments set their noise per study). Objectives that are minimised in the source are
labelled 'min', so the app draws them in their natural orientation (standardised units).
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from .. import datasets
from ..instances import Instance, register_preset

# preset -> (dataset, number of input columns, objective names, columns VOPy negates, directions, paper)
TITLES = {"snw": "SNW sorting networks", "disc_brake": "DiscBrake", "vehicle_safety": "VehicleSafety",
          "fairness": "Fairness (ROAD)"}
REAL = {
    "snw": ("vopy_snw", 3, ("area", "throughput"), (0,), ("min", "max"), "Zuluaga, Milder & Pueschel (DAC 2012)"),
    "disc_brake": ("vopy_disc_brake", 4, ("mass", "stopping time"), (), ("min", "min"),
                   "Tanabe & Ishibuchi (ASC 2020)"),
    "vehicle_safety": ("vopy_vehicle_safety", 5, ("mass", "acceleration", "toe-board intrusion"), (),
                       ("min", "min", "min"), "Liao, Li, Yang, Zhang & Li (SMO 2008)"),
    "fairness": ("vopy_fairness", 2, ("disparate impact", "accuracy"), (0,), ("min", "max"),
                 "Grari, Laugel, Hashimoto, Lamprier & Detyniecki (ICLR 2024)"),
}


@lru_cache(maxsize=len(REAL))
def real_means(key: str) -> np.ndarray:
    """The standardised, maximisation-oriented objectives of preset ``key`` (one row per design)."""
    dataset, inputs, names, negate, _, _ = REAL[key]
    rows = np.loadtxt(datasets.fetch(dataset), delimiter=",", skiprows=1, ndmin=2)
    y = rows[:, inputs:].copy()
    if y.shape[1] != len(names):
        raise ValueError(f"dataset {dataset!r}: expected {len(names)} objective columns, got {y.shape[1]}")
    y[:, list(negate)] *= -1.0
    return (y - y.mean(axis=0)) / y.std(axis=0)


def _register(key: str) -> None:
    dataset, inputs, names, _, directions, paper = REAL[key]
    ds = datasets.DATASETS[dataset]
    description = (f"{ds.description}. One arm per design; means are the objectives standardised (zero mean, unit "
                   f"standard deviation, as VOPy prepares them), Gaussian noise sigma = 0.1. Source: {ds.source}. "
                   f"Licence: {ds.licence}.")

    def build(sigma: float = 0.1) -> Instance:
        return Instance.from_means(real_means(key), sigma=sigma, objective_names=names, directions=directions,
                                   name=TITLES[key], description=description)

    register_preset(key, paper=paper, dims=len(names), description=description)(build)


for _key in REAL:
    _register(_key)
