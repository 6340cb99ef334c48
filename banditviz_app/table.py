"""The Design page's arm table: an instance's means as an editable frame, and back (pure, no Streamlit).

The table shows objectives in the user's orientation (`Instance.display`); a column marked "min" is
negated back when the instance is rebuilt. Only fixed-means instances are edited cell by cell; the other
kinds are generated, loaded from a preset or imported as JSON.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

import banditviz

NAME = "arm name"


def to_table(instance: banditviz.Instance) -> pd.DataFrame:
    """One row per arm: its name, then one column per objective (display orientation)."""
    values = instance.display(instance.means)
    frame = pd.DataFrame(values, columns=list(instance.objective_names))
    frame.insert(0, NAME, list(instance.arm_names))
    return frame


def from_table(frame: pd.DataFrame, base: banditviz.Instance) -> banditviz.Instance:
    """Rebuild a fixed-means instance from an edited table, keeping ``base``'s noise and labels.

    Raises ValueError that names the row and column of an empty or invalid cell.
    """
    objectives = list(base.objective_names)
    if list(frame.columns) != [NAME, *objectives]:
        raise ValueError(f"table: columns must be {[NAME, *objectives]}")
    if len(frame) < 2:
        raise ValueError("table: an instance needs at least 2 arms")
    names = []
    for i, name in enumerate(frame[NAME].tolist()):
        if not isinstance(name, str) or not name.strip():
            names.append(f"arm {i}")
        else:
            names.append(name.strip())
    values = np.empty((len(frame), len(objectives)))
    for j, col in enumerate(objectives):
        cells = pd.to_numeric(frame[col], errors="coerce").to_numpy(dtype=float)
        bad = np.flatnonzero(~np.isfinite(cells))
        if bad.size:
            raise ValueError(f"table: row {bad[0] + 1} ({names[bad[0]]}), column '{col}' is empty or not a "
                             "finite number; type a number there")
        values[:, j] = cells
    if len(set(names)) != len(names):
        raise ValueError("arm name: each arm needs its own name")
    data = base.to_dict()
    data.update(means=base.display(values).tolist(), arm_names=names)
    return banditviz.Instance.from_dict(data)


def change_objectives(instance: banditviz.Instance, L: int, fill: float = 0.5) -> banditviz.Instance:
    """The instance with ``L`` objectives: extra columns filled with ``fill``, surplus columns dropped."""
    data = instance.to_dict()
    means = np.asarray(instance.means)
    if L > instance.L:
        means = np.column_stack([means, np.full((instance.K, L - instance.L), fill)])
        names = [*instance.objective_names, *(f"objective {j + 1}" for j in range(instance.L, L))]
        directions = [*instance.directions, *(["max"] * (L - instance.L))]
    else:
        means, names, directions = means[:, :L], instance.objective_names[:L], instance.directions[:L]
    data.update(means=means.tolist(), objective_names=list(names), directions=list(directions))
    return banditviz.Instance.from_dict(data)


def add_random_arm(instance: banditviz.Instance) -> banditviz.Instance:
    """The instance with one more arm, uniform in the bounding box of the current means (seeded by K, so the
    same instance always gets the same new arm)."""
    means = np.asarray(instance.means)
    rng = np.random.default_rng(instance.K)
    new = rng.uniform(means.min(axis=0), means.max(axis=0))
    data = instance.to_dict()
    data.update(means=np.vstack([means, new]).tolist(), arm_names=[*instance.arm_names, f"arm {instance.K}"])
    return banditviz.Instance.from_dict(data)
