"""The Design page's arm table: an instance's means as an editable frame, and back (pure, no Streamlit).

The table shows objectives in the user's orientation (`Instance.display`); a column marked "min" is
negated back when the instance is rebuilt. Only fixed-means instances are edited cell by cell; the other
kinds are generated, loaded from a preset or imported as JSON.

The means are text (`cell`): a typed cell is read as typed ("0.1", ".1", "1e-3", "-0.25", "3"), never through
a number editor that drops characters. A cell shows at most 6 significant digits; a cell whose text is still
the one shown for its row keeps the exact value it stood for, so that editing one cell never rounds the others.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

import banditviz

NAME = "arm name"


def cell(value: float) -> str:
    """A mean as the table shows it: the shortest text that reads back as the number, up to 6 significant digits
    ("0.15", "1e-06", "0.636962")."""
    return f"{value:.6g}"


def to_table(instance: banditviz.Instance) -> pd.DataFrame:
    """One row per arm: its name, then one text column per objective (display orientation)."""
    values = instance.display(instance.means)
    frame = pd.DataFrame([[cell(float(v)) for v in row] for row in values], columns=list(instance.objective_names),
                         dtype=object)
    frame.insert(0, NAME, list(instance.arm_names))
    frame.attrs["means"] = np.asarray(values, dtype=float).tolist()  # the exact values the cells stand for
    return frame


def _exact(shown: pd.DataFrame, column: str) -> np.ndarray:
    """The exact values of one objective column of a drawn table (its cells read back, if it does not carry them)."""
    means = shown.attrs.get("means")
    if means is None:
        return np.array([number(v) for v in shown[column]], dtype=float)
    return np.asarray(means)[:, list(shown.columns).index(column) - 1]


def number(text: object) -> float:
    """A typed cell as a number ("0.1", ".5", "1e-3", " -0.25 ", "3"; a number as itself); NaN when it is not
    one."""
    if isinstance(text, (int, float)) and not isinstance(text, bool):
        return float(text)
    try:
        return float(str(text).strip())
    except ValueError:
        return float("nan")


def from_table(frame: pd.DataFrame, base: banditviz.Instance,
               shown: pd.DataFrame | None = None) -> banditviz.Instance:
    """Rebuild a fixed-means instance from an edited table, keeping ``base``'s noise and labels.

    ``shown``: the table as first drawn (`to_table` of the instance it was drawn for, ``base``'s by default); a
    cell whose text is unchanged from ``shown``'s at the same row label keeps ``shown``'s exact value.
    Raises ValueError that names the row and column of an empty or invalid cell.
    """
    shown = to_table(base) if shown is None else shown
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
        cells = np.array([number(v) for v in frame[col]], dtype=float)
        if col in shown.columns:
            same = [i for i, r in enumerate(frame.index) if r in shown.index and frame.at[r, col] == shown.at[r, col]]
            cells[same] = _exact(shown, col)[[shown.index.get_loc(frame.index[i]) for i in same]]
        bad = np.flatnonzero(~np.isfinite(cells))
        if bad.size:
            raise ValueError(f"table: row {bad[0] + 1} ({names[bad[0]]}), column '{col}' is empty or not a "
                             "finite number; type a number there, such as 0.25, -1 or 1e-3 (a point, not a comma)")
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
