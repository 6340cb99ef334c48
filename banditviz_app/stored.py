"""Values the Papers page computes from the shipped results, kept on disk between servers.

A first visit to Papers built every paper's verdict table (for the headline count), the open paper's sensitivity
tables and its figures: ~8 s on this machine after each server start, with a class waiting. They depend only on the
package's own files (its code and its shipped results) and the libraries that draw them, so they are computed once
and stored under a fingerprint of all of those (`fingerprint`): any change to a file of the package or of this app,
or to a library's version, gives a new fingerprint, and the values are computed again. Nothing else reads
or writes these files.

Where: ``papers/`` in banditviz's cache (``$BANDITVIZ_CACHE``, else ``~/.cache/banditviz``: where Experiment 2's
computed traces go too). A directory that cannot be written (or a stored file that cannot be read) costs the
computation, never the page: the value is then computed and returned as before. The fingerprints of the last `KEEP`
versions are kept; older ones are removed.
"""

from __future__ import annotations

import functools
import hashlib
import os
import pickle
import shutil
import sys
import tempfile
from collections.abc import Callable
from importlib import metadata
from pathlib import Path
from typing import TypeVar

import banditviz
from banditviz.experiments.ramgape import cache_dir

V = TypeVar("V")
KEEP = 4  # fingerprints kept side by side (several checkouts may share one cache)
LIBRARIES = ("numpy", "pandas", "plotly", "scipy", "pyarrow")
SOURCES = (Path(banditviz.__file__).resolve().parent, Path(__file__).resolve().parent)  # the package and this app


def _files(root: Path) -> list[Path]:
    return sorted(p for p in root.rglob("*") if p.is_file() and "__pycache__" not in p.parts)


@functools.cache
def fingerprint(roots: tuple[Path, ...] = SOURCES) -> str:
    """A digest of every file under ``roots`` (its path and bytes, in sorted order), Python's and the libraries'
    versions: computed once per process (the package's files do not change while a server runs)."""
    digest = hashlib.sha256()
    for root in roots:
        for path in _files(root):
            digest.update(str(path.relative_to(root.parent)).encode() + b"\0" + path.read_bytes() + b"\0")
    for name in LIBRARIES:
        try:
            digest.update(f"{name} {metadata.version(name)}\0".encode())
        except metadata.PackageNotFoundError:
            digest.update(f"{name} absent\0".encode())
    digest.update(sys.version.encode())
    return digest.hexdigest()[:24]


def kept(name: str, make: Callable[[], V], roots: tuple[Path, ...] = SOURCES) -> V:
    """The value stored as ``name`` under the fingerprint of ``roots``, else ``make()``, stored for the next server
    (written whole or not at all: a temporary file renamed into place)."""
    folder = cache_dir() / "papers" / fingerprint(roots)
    path = folder / f"{hashlib.sha256(name.encode()).hexdigest()[:24]}.pickle"  # any name: a title may hold a '/'
    try:
        with path.open("rb") as f:
            return pickle.load(f)
    except (OSError, pickle.UnpicklingError, EOFError, AttributeError, ImportError, TypeError, ValueError):
        pass  # not stored yet, or unreadable: computed again
    value = make()
    _store(value, folder, path)
    return value


def _store(value: object, folder: Path, path: Path) -> None:
    """``value`` pickled at ``path``; nothing when the folder cannot be written (the value is still returned)."""
    temporary = None
    try:
        fresh = not folder.exists()
        folder.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=folder, suffix=".tmp", delete=False) as f:
            temporary = Path(f.name)
            pickle.dump(value, f, protocol=pickle.HIGHEST_PROTOCOL)
        os.replace(temporary, path)
        if fresh:
            _prune(folder.parent, keep=folder.name)
    except (OSError, pickle.PicklingError, AttributeError, TypeError):  # unwritable, or a value pickle refuses
        if temporary is not None:
            temporary.unlink(missing_ok=True)


def _prune(parent: Path, keep: str) -> None:
    """Remove all but the `KEEP` most recently made fingerprint directories (``keep`` among them)."""
    others = sorted((p for p in parent.iterdir() if p.is_dir() and p.name != keep),
                    key=lambda p: p.stat().st_mtime, reverse=True)
    for old in others[KEEP - 1:]:
        shutil.rmtree(old, ignore_errors=True)
