"""The per-arm generators seeded at once equal numpy's spawned children (common random numbers depend on it)."""

import numpy as np
import pytest

from banditviz import seeding

SEEDS = [0, 1, 5, 123456789, 2**32 - 1, 2**32, 2**64 + 3, 2**200 + 17, np.int64(7)]


@pytest.mark.parametrize("seed", SEEDS, ids=str)
@pytest.mark.parametrize("depth", [0, 1, 2])
def test_children_words_equal_numpy_spawn(seed, depth):
    """Any parent: the root (spawn key ()), the engine's noise stream (0,), deeper ones."""
    parent = np.random.SeedSequence(seed)
    for i in range(depth):
        parent = parent.spawn(3)[i]
    words = seeding.children_words(parent, 300)
    fresh = np.random.SeedSequence(parent.entropy, spawn_key=parent.spawn_key)
    assert np.array_equal(words, np.array([c.generate_state(4, np.uint64) for c in fresh.spawn(300)]))


def test_children_draw_what_numpy_children_draw():
    ours = seeding.generators(seeding.words(np.random.SeedSequence(11).spawn(3)[0], 40))
    theirs = [np.random.default_rng(s) for s in np.random.SeedSequence(11).spawn(3)[0].spawn(40)]
    for a, b in zip(ours, theirs, strict=True):
        assert np.array_equal(a.standard_normal(50), b.standard_normal(50)) and a.random() == b.random()


def test_the_comparison_sees_one_step_of_the_hash_skipped(monkeypatch):
    """The broken variant: the pool's hash constant one multiplication behind gives other words."""
    parent = np.random.SeedSequence(3).spawn(3)[0]
    good = seeding.children_words(parent, 8)
    monkeypatch.setattr(seeding, "INIT_A", seeding.INIT_A * seeding.MULT_A & seeding.MASK)
    assert not np.array_equal(seeding.children_words(parent, 8), good)


def test_other_parents_use_numpy_and_are_refused_by_the_vectorised_hash():
    parent = np.random.SeedSequence([1, 2, 3])
    assert seeding.generators(seeding.words(parent, 2))[1].random() == np.random.default_rng(
        np.random.SeedSequence([1, 2, 3]).spawn(2)[1]).random()
    with pytest.raises(ValueError, match="parent"):
        seeding.children_words(np.random.SeedSequence([1, 2, 3]), 2)
