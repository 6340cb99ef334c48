"""`banditviz_app.stored`: the Papers page's values kept on disk under a fingerprint of the package's files."""

from __future__ import annotations

import os
import pickle

import pytest

from banditviz import claims, reproduce
from banditviz_app import stored
from banditviz_app.papers import PAPERS


@pytest.fixture
def cache(tmp_path, monkeypatch):
    """An empty cache, and a package of two files (its fingerprint computed afresh in each test)."""
    monkeypatch.setenv("BANDITVIZ_CACHE", str(tmp_path / "cache"))
    package = tmp_path / "package"
    package.mkdir()
    (package / "a.py").write_text("A = 1\n")
    (package / "data.csv").write_text("x\n1\n")
    stored.fingerprint.cache_clear()
    yield tmp_path / "cache" / "papers", (package,)
    stored.fingerprint.cache_clear()


def counting(value):
    calls = []

    def make():
        calls.append(1)
        return value
    return make, calls


def test_a_value_is_computed_once_then_read_from_disk(cache):
    folder, roots = cache
    make, calls = counting({"table": [1, 2, 3]})
    assert stored.kept("verdicts x", make, roots) == {"table": [1, 2, 3]}
    assert stored.kept("verdicts x", make, roots) == {"table": [1, 2, 3]}
    assert len(calls) == 1
    [fingerprint] = [p.name for p in folder.iterdir()]
    assert fingerprint == stored.fingerprint(roots)
    assert [p.suffix for p in (folder / fingerprint).iterdir()] == [".pickle"]  # no temporary file left


@pytest.mark.parametrize("change", ["edit", "add", "rename"])
def test_any_change_to_a_file_of_the_package_computes_again(cache, change):
    _, roots = cache
    [package] = roots
    before = stored.fingerprint(roots)
    make, calls = counting(1)
    stored.kept("v", make, roots)
    if change == "edit":
        (package / "a.py").write_text("A = 2\n")
    elif change == "add":
        (package / "b.py").write_text("")
    else:
        (package / "data.csv").rename(package / "data2.csv")
    stored.fingerprint.cache_clear()  # a server reads the files once; the next server sees the change
    assert stored.fingerprint(roots) != before
    stored.kept("v", make, roots)
    assert len(calls) == 2


def test_the_fingerprint_is_the_files_not_their_times(cache):
    _, roots = cache
    before = stored.fingerprint(roots)
    os.utime(roots[0] / "a.py", (0, 0))
    stored.fingerprint.cache_clear()
    assert stored.fingerprint(roots) == before


def test_an_unwritable_cache_or_an_unreadable_file_costs_the_computation_not_the_value(cache, tmp_path, monkeypatch):
    folder, roots = cache
    make, calls = counting([1.5])
    stored.kept("v", make, roots)
    [path] = (folder / stored.fingerprint(roots)).iterdir()
    path.write_bytes(b"not a pickle")
    assert stored.kept("v", make, roots) == [1.5] and len(calls) == 2
    assert pickle.loads(path.read_bytes()) == [1.5]  # written again
    blocked = tmp_path / "a file"
    blocked.write_text("")
    monkeypatch.setenv("BANDITVIZ_CACHE", str(blocked))  # its papers/ cannot be made
    assert stored.kept("v", make, roots) == [1.5] and len(calls) == 3


def test_a_value_pickle_refuses_is_returned_and_not_stored(cache):
    folder, roots = cache
    value = {"f": lambda: 1}
    assert stored.kept("v", lambda: value, roots) is value
    assert not list((folder / stored.fingerprint(roots)).iterdir())


def test_old_fingerprints_are_removed_all_but_the_latest(cache):
    folder, roots = cache
    folder.mkdir(parents=True)
    for i in range(6):
        old = folder / f"old{i}"
        old.mkdir()
        os.utime(old, (1_000 + i, 1_000 + i))
    stored.kept("v", lambda: 1, roots)
    kept = sorted(p.name for p in folder.iterdir())
    assert kept == sorted(["old5", "old4", "old3", stored.fingerprint(roots)]) and len(kept) == stored.KEEP


def test_the_papers_values_read_back_equal_to_computed(tmp_path, monkeypatch):
    """A verdict table, a sensitivity table and a figure of the shipped results, as the page keeps them."""
    monkeypatch.setenv("BANDITVIZ_CACHE", str(tmp_path))
    results = {name: reproduce.load(name) for name in reproduce.shipped()}
    paper = PAPERS[0]
    figure = paper.figures[0]
    makers = {"verdicts": lambda: claims.verdict_table(paper.key, results),
              "sensitivity": lambda: [t for _, t in claims.sensitivity(paper.key, results)],
              "figure": lambda: figure.draw(results[figure.result].table, results[figure.result])}
    for name, make in makers.items():
        made = stored.kept(name, make)
        read = stored.kept(name, lambda name=name: pytest.fail(f"{name} computed twice"))
        if name == "figure":
            assert read.to_dict() == made.to_dict()
        elif name == "sensitivity":
            assert len(read) == len(made) > 0 and all(a.equals(b) for a, b in zip(read, made, strict=True))
        else:
            assert read.equals(made)
