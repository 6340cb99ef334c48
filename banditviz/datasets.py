"""Public datasets behind the real-data presets, fetched on first use (in the style of scikit-learn's fetchers).

Each dataset is named with its source (paper, authors, public URL, licence) and pinned by the sha256 of its
bytes. Small files with a permissive licence are shipped in ``banditviz/data`` (`fetch` returns them); the
others are fetched: `fetch` looks for the file, in this order:

1. an explicit ``path`` (the user's own copy; not checksummed, the preset checks its format);
2. the folder named by the ``BANDITVIZ_DATA`` environment variable (checksummed);
3. the user's cache directory, ``$XDG_CACHE_HOME/banditviz`` (default ``~/.cache/banditviz``; checksummed);
4. the public origin, downloaded with a timeout into the cache (checksummed before it is kept).

When none of these works (offline and not cached), `DatasetUnavailable` (both an OSError and a ValueError,
so the app shows it as any bad input) names the dataset, the URL and how to provide the file.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path

ENV_FOLDER = "BANDITVIZ_DATA"
PACKAGE_DATA = Path(__file__).resolve().parent / "data"
TIMEOUT = 20.0
MAX_BYTES = 10_000_000


@dataclass(frozen=True)
class Dataset:
    """A public file: where it comes from, what it is, and the sha256 its bytes must have."""

    name: str
    filename: str
    url: str
    sha256: str
    source: str  # paper and authors
    licence: str
    description: str
    shipped: bool = False  # inside the package (banditviz/data), never downloaded


VOPY = ("shipped in the VOPy 0.2.0 package (Bilkent CYBORG, github.com/Bilkent-CYBORG/VOPy, "
        "vopy/datasets/data/)")
VOPY_LICENCE = "MIT (VOPy), see banditviz/data/LICENSE-VOPy.txt"


def _vopy(name: str, sha256: str, source: str, description: str) -> Dataset:
    return Dataset(name=f"vopy_{name}", filename=f"vopy_{name}.csv", url="https://github.com/Bilkent-CYBORG/VOPy",
                   sha256=sha256, source=f"{source}; {VOPY}", licence=VOPY_LICENCE, description=description,
                   shipped=True)


DATASETS: dict[str, Dataset] = {
    "noc": Dataset(
        name="noc",
        filename="noc_CM_log.csv",
        url="https://raw.githubusercontent.com/cyrille-kone/linear_psi/main/data/noc_CM_log.csv",
        sha256="6df784c53d285d8e83a4467a5d2732779b78ea45101e82e7b5cf4b998f2870f4",
        source="Almer, Topham & Franke, 'A learning-based approach to the automated design of MPSoC networks' "
               "(ARCS 2011), as redistributed with the code of Kone, Kaufmann & Richert, 'Bandit Pareto set "
               "identification in a multi-output linear model' (AISTATS 2025, Section 4)",
        licence="no licence stated by the redistributing repository; public research data, fetched, not shipped",
        description="Network-on-Chip designs: 259 rows 'width;complexity;fifo;multiplier;energy;inv_runtime'",
    ),
    "vopy_snw": _vopy("snw", "7076479ff46ab3956d1c9fd8b572f7c7bb773571c84cb39412bd72eccaca8c6d",
                      "Zuluaga, Milder & Pueschel, 'Computer generation of streaming sorting networks' (DAC 2012)",
                      "Sorting network designs: 206 rows, 3 inputs, objectives area and throughput"),
    "vopy_disc_brake": _vopy("disc_brake", "02e4cf497fc2030a5a0fefac34e8c803f9723f9bc5b4f6fd6a769c50ba527f27",
                             "Tanabe & Ishibuchi, 'An easy-to-use real-world multi-objective optimization problem "
                             "suite' (Applied Soft Computing 2020), disc brake design",
                             "Disc brake designs: 128 rows, 4 inputs, objectives mass and stopping time (negated)"),
    "vopy_vehicle_safety": _vopy("vehicle_safety", "4bd3a21d38a476c86bb803595c6649969c3e23d6057ccc54663a7ea276c72358",
                                 "Liao, Li, Yang, Zhang & Li, 'Multiobjective optimization for crash safety design "
                                 "of vehicles using stepwise regression model' (Struct. Multidisc. Optim. 2008); "
                                 "Tanabe & Ishibuchi (2020)",
                                 "Vehicle crash designs: 500 rows, 5 member thicknesses, objectives mass, "
                                 "acceleration and toe-board intrusion (negated)"),
    "vopy_fairness": _vopy("fairness", "69a0846bf10dd4e733d93ebae2529e1ba08b000d024118a472c4d3cb23ea2786",
                           "Grari, Laugel, Hashimoto, Lamprier & Detyniecki, 'On the fairness ROAD: robust "
                           "optimization for adversarial debiasing' (ICLR 2024)",
                           "ROAD hyperparameter settings: 200 rows, 2 inputs, objectives disparate impact and "
                           "accuracy"),
}


class DatasetUnavailable(OSError, ValueError):
    """The dataset could not be found locally, nor downloaded, nor did its bytes have the pinned checksum."""


def cache_dir() -> Path:
    """The user's cache folder for banditviz data: ``$XDG_CACHE_HOME/banditviz`` or ``~/.cache/banditviz``."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "banditviz"


def sha256_of(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _dataset(name: str) -> Dataset:
    if name not in DATASETS:
        raise ValueError(f"dataset: unknown name {name!r}; known: {sorted(DATASETS)}")
    return DATASETS[name]


def _how_to_provide(ds: Dataset) -> str:
    return (f"download {ds.url} yourself and put it, as {ds.filename}, in the folder named by {ENV_FOLDER} "
            f"or in {cache_dir()}, or pass its path (csv_path)")


def _checked(ds: Dataset, path: Path, where: str) -> Path:
    digest = sha256_of(path)
    if digest != ds.sha256:
        raise DatasetUnavailable(f"dataset {ds.name!r}: {path} ({where}) has sha256 {digest}, expected "
                                 f"{ds.sha256}; delete it or replace it with the file from {ds.url}")
    return path


def _download(ds: Dataset, url: str, target: Path, timeout: float) -> Path:
    """Fetch ``url`` into ``target`` atomically, keeping it only if its sha256 is the pinned one."""
    try:
        with urllib.request.urlopen(url, timeout=timeout) as response:
            data = response.read(MAX_BYTES + 1)
    except (urllib.error.URLError, OSError, ValueError) as exc:
        reason = getattr(exc, "reason", exc)
        raise DatasetUnavailable(f"dataset {ds.name!r} is not available offline and could not be downloaded from "
                                 f"{url} ({reason}); {_how_to_provide(ds)}") from None
    digest = hashlib.sha256(data).hexdigest()
    if len(data) > MAX_BYTES or digest != ds.sha256:
        raise DatasetUnavailable(f"dataset {ds.name!r}: the file downloaded from {url} has sha256 {digest}, "
                                 f"expected {ds.sha256}; not kept. {_how_to_provide(ds)}")
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=target.parent, suffix=".part")
    with os.fdopen(fd, "wb") as out:
        out.write(data)
    os.replace(tmp, target)
    return target


def fetch(name: str, *, path: str | os.PathLike[str] | None = None, download: bool = True,
          url: str | None = None, timeout: float = TIMEOUT) -> Path:
    """The local path of dataset ``name`` (see the module docstring for the search order).

    ``url`` overrides the public origin (a mirror); ``download=False`` never touches the network.
    """
    ds = _dataset(name)
    if ds.shipped and path is None:
        return _checked(ds, PACKAGE_DATA / ds.filename, "shipped with banditviz")
    if path is not None:
        local = Path(path)
        if not local.is_file():
            raise DatasetUnavailable(f"dataset {ds.name!r}: no file at {str(local)!r}")
        return local
    folder = os.environ.get(ENV_FOLDER)
    if folder and (Path(folder) / ds.filename).is_file():
        return _checked(ds, Path(folder) / ds.filename, ENV_FOLDER)
    cached = cache_dir() / ds.filename
    if cached.is_file():
        return _checked(ds, cached, "cache")
    if not download:
        raise DatasetUnavailable(f"dataset {ds.name!r} is not cached and downloads are off; {_how_to_provide(ds)}")
    return _download(ds, url or ds.url, cached, timeout)


def describe(name: str) -> str:
    """One line naming the dataset's source, origin and licence (for presets and the app)."""
    ds = _dataset(name)
    return f"{ds.description}. Source: {ds.source}. Origin: {ds.url}. Licence: {ds.licence}."
