"""The compiled Gaussian noise streams draw what numpy's generators draw (common random numbers depend on it)."""

import numba
import numpy as np
import pytest

from banditviz import Instance, _noise, seeding
from banditviz.environment import Environment
from banditviz.rewards import RewardBuffer


def numpy_streams(seed: int, K: int) -> list[np.random.Generator]:
    """The engine's definition of arm k's noise stream: ``default_rng(SeedSequence(seed).spawn(3)[0].spawn(K)[k])``."""
    return [np.random.default_rng(s) for s in np.random.SeedSequence(seed).spawn(3)[0].spawn(K)]


@pytest.mark.parametrize("seed", [0, 7, 2**40 + 1])
def test_streams_draw_numpys_standard_normals(seed):
    """20,000 draws an arm over 20 arms: the ziggurat's tail (|z| beyond its last layer) is reached too."""
    K, n = 20, 20_000
    streams = _noise.seed(seeding.words(np.random.SeedSequence(seed).spawn(3)[0], K))
    tail = 0
    for arm, rng in enumerate(numpy_streams(seed, K)):
        ours = np.empty((n // 2, 2))
        _noise.fill_standard(streams, arm, ours)
        theirs = rng.standard_normal((n // 2, 2))
        assert np.array_equal(ours, theirs), arm
        tail += int((np.abs(theirs) > _noise.ziggurat_nor_r).sum())
    assert tail > 10


def test_seeded_streams_hold_numpys_pcg64_state():
    parent = np.random.SeedSequence(3).spawn(3)[0]
    streams = _noise.seed(seeding.words(parent, 5))
    for s, rng in zip(streams, numpy_streams(3, 5), strict=True):
        state = rng.bit_generator.state["state"]
        assert (int(s[0]) << 64 | int(s[1]), int(s[2]) << 64 | int(s[3])) == (state["state"], state["inc"])


@pytest.mark.parametrize("kind", ["means", "linear"])
def test_environment_rewards_are_numpys_draws(kind):
    """`Environment.pull`, `draws` and the buffered `RewardBuffer` all give mean + sigma z from numpy's streams."""
    means = np.array([[0.2, 0.9], [0.5, 0.5], [0.8, 0.1]])
    inst = (Instance.from_means(means, sigma=0.3) if kind == "means"
            else Instance.from_linear(np.eye(3), means, sigma=0.3))
    z = [rng.standard_normal((600, 2)) for rng in numpy_streams(11, 3)]
    env = Environment(inst, 11)
    assert env.normal_streams is not None
    assert np.array_equal(np.array([env.pull(1) for _ in range(300)]), inst.means[1] + 0.3 * z[1][:300])
    assert np.array_equal(env.draws(2, 600), z[2])
    rew = RewardBuffer(Environment(inst, 11), 1000, expected=1)
    got = rew.take_many(np.array([0] * 450 + [1, 0]))
    assert np.array_equal(got[:450], inst.means[0] + 0.3 * z[0][:450])
    assert np.array_equal(got[450:], inst.means[[1, 0]] + 0.3 * np.array([z[1][0], z[0][450]]))


def test_other_noise_keeps_numpys_generators():
    inst = Instance.from_means([[0.2, 0.9], [0.5, 0.5]], noise="bernoulli")
    env = Environment(inst, 4)
    assert env.normal_streams is None
    assert np.array_equal(env.draws(1, 50), numpy_streams(4, 2)[1].random((50, 2)))


@pytest.fixture
def interpreted(monkeypatch):
    """`_noise` run by the interpreter (its compiled functions swapped for their Python source), so that a
    constant can be changed."""
    for name in dir(_noise):
        f = getattr(_noise, name)
        if isinstance(f, numba.core.registry.CPUDispatcher):
            monkeypatch.setattr(_noise, name, f.py_func)
    with np.errstate(over="ignore"):
        yield monkeypatch


@pytest.mark.parametrize("broken", [None, ("U58", np.uint64(59)), ("MULT_LO", _noise.MULT_LO + np.uint64(2))],
                         ids=["as written", "rotation by the top 5 bits", "multiplier off by 2"])
def test_the_comparison_sees_a_broken_generator(interpreted, broken):
    """The broken variants (run interpreted, as written they agree) draw other numbers."""
    if broken:
        interpreted.setattr(_noise, *broken)
    streams = _noise.seed(seeding.words(np.random.SeedSequence(5).spawn(3)[0], 1))
    ours = np.empty((200, 1))
    _noise.fill_standard(streams, 0, ours)
    assert np.array_equal(ours, numpy_streams(5, 1)[0].standard_normal((200, 1))) == (broken is None)
