"""Seeds as a leading axis: many runs of one non-contextual algorithm in a single numpy loop.

`run_batched(instance, spec, params, seeds, horizon, record_every)` plays S seeds at once and returns,
for every seed, the cumulative regrets at the recorded rounds: exactly (bit for bit) what
`simulate.run` gives seed by seed, because the batched loop reproduces the engine's random numbers:

* **Rewards.** `BatchedEnvironment` keeps one `Environment` per seed and fills each (seed, arm) buffer
  with that environment's own block of ``BLOCK`` draws (per-arm streams of ``SeedSequence(seed).spawn(3)``),
  so the n-th pull of arm a of seed s gets the engine's n-th draw; the reward transform is the engine's.
* **Policy randomness** (third stream). Two exact routes, chosen by each batched algorithm:

  - `EmulatedStreams` reproduces ``Generator.integers(n)`` and ``Generator.random()`` of numpy's PCG64
    vectorised over seeds, from the raw 64-bit outputs (``bit_generator.random_raw``): ``random()`` is
    ``(x >> 11) * 2**-53``; ``integers(n)`` is Lemire's bounded draw on a 32-bit word (``(u * n) >> 32``,
    redrawn while the low word is below ``2**32 mod n``), where 32-bit words come in pairs from one
    64-bit output (low half first, the high half kept for the next call, as PCG64's ``next_uint32``
    does), and ``integers(1)`` consumes nothing. Equality with the engine is tested.
  - `GeneratorStreams` calls each seed's own ``Generator`` (one call per seed and draw): exact by
    construction for any distribution, used where emulation is not worth it (Pareto TS: numpy's normal
    ziggurat and Beta-via-Gamma samplers).

* **Arithmetic.** Every estimate is computed with the same elementwise operations, in the same order,
  as the engine's algorithm, so IEEE rounding gives the same bits; cumulative regrets are running sums
  in round order, as ``np.cumsum`` computes them.

An algorithm opts in by subclassing `BatchedAlgorithm` and decorating the class with
``@batched("<registered name>")``; batched implementations exist for algorithms that never stop early
on fixed-mean instances (kinds "means", "linear", "distributions"). The four classic baselines of
`banditviz.algorithms.classic` are provided here.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any, ClassVar

import numpy as np

from .algorithms.base import AlgorithmSpec, Problem
from .environment import BLOCK, Environment
from .instances import Instance
from .metrics import arm_regrets
from .simulate import make_problem

BATCH_KINDS = ("means", "linear", "distributions")
MAX_BUFFER_BYTES = 64 * 2**20  # reward buffers of one batch (S x K x BLOCK x reward_dim floats)
_U32 = np.uint64(0xFFFFFFFF)
_TWO32 = np.uint64(2**32)
_SHIFT32 = np.uint64(32)
_DOUBLE = 1.0 / 9007199254740992.0  # 2**-53, numpy's next_double scale


# ---------------------------------------------------------------------- policy randomness
class GeneratorStreams:
    """The seeds' own policy generators, called one seed at a time (exact for any distribution)."""

    def __init__(self, rngs: Sequence[np.random.Generator]) -> None:
        self.rngs = list(rngs)

    def integers(self, n: np.ndarray) -> np.ndarray:
        """``rngs[s].integers(n[s])`` for every seed s."""
        return np.array([rng.integers(int(k)) for rng, k in zip(self.rngs, n, strict=True)], dtype=np.int64)

    def random(self) -> np.ndarray:
        return np.array([rng.random() for rng in self.rngs])

    def standard_normal(self, shape: tuple[int, ...]) -> np.ndarray:
        return np.stack([rng.standard_normal(shape) for rng in self.rngs])

    def beta(self, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        return np.stack([rng.beta(x, y) for rng, x, y in zip(self.rngs, a, b, strict=True)])


class EmulatedStreams:
    """``Generator.integers(n)`` and ``Generator.random()`` of PCG64 generators, vectorised over seeds.

    Holds a window of each generator's raw 64-bit output (refilled from ``bit_generator.random_raw``)
    and its pending 32-bit half (``has_uint32``/``uinteger`` of the PCG64 state), so the draws equal
    those the generators would have made, call for call. The generators must not be used elsewhere.
    """

    def __init__(self, rngs: Sequence[np.random.Generator], window: int = 4096) -> None:
        self.rngs = list(rngs)
        for rng in self.rngs:
            if not isinstance(rng.bit_generator, np.random.PCG64):
                raise ValueError(f"rngs: emulation needs PCG64 generators, got {type(rng.bit_generator).__name__}")
        states = [rng.bit_generator.state for rng in self.rngs]
        self.rows = np.arange(len(self.rngs))
        self.window = window
        self.raw = np.stack([rng.bit_generator.random_raw(window) for rng in self.rngs])
        self.ptr = np.zeros(len(self.rngs), dtype=np.int64)
        self.budget = window  # words every seed can still take without a refill
        self.has32 = np.array([bool(st["has_uint32"]) for st in states])
        self.high = np.array([st["uinteger"] for st in states], dtype=np.uint64)

    def _reserve(self) -> None:
        """Make sure every seed has an unread word: each call takes at most one, so slide after ``window`` calls."""
        if self.budget == 0:
            for s, rng in enumerate(self.rngs):
                used = int(self.ptr[s])
                self.raw[s] = np.concatenate([self.raw[s, used:], rng.bit_generator.random_raw(used)])
            self.budget = self.window
            self.ptr[:] = 0
        self.budget -= 1

    def _next64(self, want: np.ndarray | None = None) -> np.ndarray:
        """The next raw word of every seed; only the seeds in ``want`` (default: all) consume it."""
        self._reserve()
        word = self.raw[self.rows, self.ptr]
        self.ptr += 1 if want is None else want
        return word

    def _next32(self, want: np.ndarray) -> np.ndarray:
        """PCG64's ``next_uint32`` for the seeds in ``want``: the pending high half, else the low half of a new word."""
        fresh = want > self.has32
        word = self._next64(fresh)
        out = np.where(fresh, word & _U32, self.high)
        self.high = np.where(fresh, word >> _SHIFT32, self.high)
        self.has32 ^= want
        return out

    def integers(self, n: np.ndarray) -> np.ndarray:
        """``rngs[s].integers(n[s])`` for every seed s (1 <= n < 2**32; ``integers(1)`` draws nothing)."""
        n = np.asarray(n, dtype=np.uint64)
        threshold = _TWO32 % n  # Lemire's rejection bound; 0 when n = 1, so those seeds never redraw
        m = self._next32(n > 1) * n
        reject = (m & _U32) < threshold
        while reject.any():  # probability < n / 2**32 per draw
            m = np.where(reject, self._next32(reject) * n, m)
            reject &= (m & _U32) < threshold
        return (m >> _SHIFT32).astype(np.int64)

    def random(self) -> np.ndarray:
        """``rngs[s].random()`` for every seed s: ``(word >> 11) * 2**-53``."""
        return (self._next64() >> np.uint64(11)).astype(np.float64) * _DOUBLE


# ---------------------------------------------------------------------- rewards
class BatchedEnvironment:
    """The engine's `Environment` for S seeds at once (fixed means only): ``pull(arms) -> (S, reward_dim)``."""

    def __init__(self, instance: Instance, seeds: Sequence[int]) -> None:
        if instance.kind not in BATCH_KINDS:
            raise ValueError(f"instance: batched runs need fixed means (kinds {list(BATCH_KINDS)}), "
                             f"not {instance.kind!r}")
        self.instance = instance
        self.envs = [Environment(instance, int(s)) for s in seeds]
        S, K, R = len(self.envs), instance.K, instance.reward_dim
        self.buffers = np.empty((S, K, BLOCK, R))
        self.pulls = np.zeros((S, K), dtype=np.int64)
        self.rows = np.arange(S)

    @property
    def policy_rngs(self) -> list[np.random.Generator]:
        return [env.policy_rng for env in self.envs]

    def pull(self, arms: np.ndarray) -> np.ndarray:
        """One reward per seed: seed s pulls ``arms[s]`` (mirrors `Environment.pull`)."""
        inst = self.instance
        pos = self.pulls[self.rows, arms]
        self.pulls[self.rows, arms] = pos + 1
        pos %= BLOCK
        if not pos.all():  # some (seed, arm) starts a new block
            for s in np.flatnonzero(pos == 0):
                self.buffers[s, arms[s]] = self.envs[s]._block(int(arms[s]))
        raw = self.buffers[self.rows, arms, pos]
        if inst.kind == "distributions" or inst.noise == "beta":
            return raw
        if inst.noise == "bernoulli":
            return (raw < inst.means[arms]).astype(float)  # type: ignore[index]
        return inst.means[arms] + inst.sigma * raw  # type: ignore[index]


# ---------------------------------------------------------------------- algorithms
class BatchedAlgorithm:
    """Base class: one algorithm's state for S seeds; ``select(t) -> arms (S,)``, ``update(arms, rewards)``.

    ``streams`` names the policy-randomness route (`EmulatedStreams` or `GeneratorStreams`); the
    subclass receives an instance of it built on the seeds' policy generators.
    """

    name: ClassVar[str]
    streams: ClassVar[type] = GeneratorStreams

    def __init__(self, problem: Problem, n_seeds: int, rng: EmulatedStreams | GeneratorStreams,
                 params: dict[str, Any]) -> None:
        self.K, self.L, self.sigma = problem.K, problem.L, problem.sigma
        self.problem, self.S, self.rng, self.params = problem, n_seeds, rng, params

    @classmethod
    def supports(cls, instance: Instance, params: dict[str, Any]) -> bool:
        """Whether the batched loop reproduces the engine for these inputs (override to restrict)."""
        return True

    def select(self, t: int) -> np.ndarray:
        raise NotImplementedError

    def update(self, arms: np.ndarray, rewards: np.ndarray) -> None:
        raise NotImplementedError


BATCHED: dict[str, type[BatchedAlgorithm]] = {}


def batched(name: str) -> Callable[[type[BatchedAlgorithm]], type[BatchedAlgorithm]]:
    """Class decorator: ``cls`` is the batched implementation of the registered algorithm ``name``."""
    def wrap(cls: type[BatchedAlgorithm]) -> type[BatchedAlgorithm]:
        if name in BATCHED:
            raise ValueError(f"batched implementation of {name!r} is registered twice")
        cls.name = name
        BATCHED[name] = cls
        return cls
    return wrap


def pareto_masks(vectors: np.ndarray) -> np.ndarray:
    """`pareto.pareto_mask` of each leading slice: (S, K, L) -> bool (S, K), by the same comparisons.

    G[i, j] = "j >= i in every objective"; j dominates i iff G[i, j] and not G[j, i]. The work runs on
    a seeds-last copy so that every comparison covers contiguous (K, K, S) blocks.
    """
    v = np.ascontiguousarray(vectors.transpose(2, 1, 0))  # (L, K, S)
    ge = np.greater_equal(v[0][None], v[0][:, None])  # [i, j, s]
    tmp = np.empty_like(ge)
    for col in v[1:]:
        ge &= np.greater_equal(col[None], col[:, None], out=tmp)
    np.greater(ge, ge.transpose(1, 0, 2), out=tmp)
    return ~tmp.any(axis=1).T


class BatchedEmpirical(BatchedAlgorithm):
    """Batched `_Empirical`: per-seed running sums and counts, initial round robin, uniform front pick."""

    def __init__(self, problem: Problem, n_seeds: int, rng: Any, params: dict[str, Any]) -> None:
        super().__init__(problem, n_seeds, rng, params)
        self.counts = np.zeros((n_seeds, self.K), dtype=np.int64)
        self.sums = np.zeros((n_seeds, self.K, self.L))
        self.rows = np.arange(n_seeds)

    def update(self, arms: np.ndarray, rewards: np.ndarray) -> None:
        self.counts[self.rows, arms] += 1
        self.sums[self.rows, arms] += rewards

    @property
    def means(self) -> np.ndarray:
        """Empirical means; used only after the initial round robin, when every count is >= 1."""
        return self.sums / self.counts[:, :, None]

    def initial(self, t: int) -> np.ndarray | None:
        """Round robin until every arm has one pull (the same round for every seed)."""
        return np.full(self.S, t - 1, dtype=np.int64) if t <= self.K else None

    def pick_front(self, vectors: np.ndarray) -> np.ndarray:
        """Per seed, the ``rng.integers(len(front))``-th arm of the Pareto front of ``vectors[s]``."""
        rank = np.cumsum(pareto_masks(vectors), axis=1)  # rank[s, -1] is the size of seed s's front
        return np.argmax(rank > self.rng.integers(rank[:, -1])[:, None], axis=1)


@batched("uniform")
class BatchedUniform(BatchedEmpirical):
    """Round robin: arm (t - 1) mod K for every seed (no policy randomness)."""

    streams = EmulatedStreams

    def select(self, t: int) -> np.ndarray:
        return np.full(self.S, (t - 1) % self.K, dtype=np.int64)


@batched("pareto_ucb1")
class BatchedParetoUCB1(BatchedEmpirical):
    """Pareto UCB1 (Drugan & Nowé 2013): index mu_hat + sqrt(2 ln(t (L K)^{1/4}) / n_i), front picked uniformly."""

    streams = EmulatedStreams

    def select(self, t: int) -> np.ndarray:
        arms = self.initial(t)
        if arms is not None:
            return arms
        radius = np.sqrt(2 * np.log(t * (self.L * self.K) ** 0.25) / self.counts)  # counts >= 1 here
        return self.pick_front(self.means + radius[:, :, None])


@batched("pareto_ts")
class BatchedParetoTS(BatchedEmpirical):
    """Pareto Thompson sampling (Yahyaa & Manderick 2015); draws come from each seed's own generator."""

    streams = GeneratorStreams

    def __init__(self, problem: Problem, n_seeds: int, rng: Any, params: dict[str, Any]) -> None:
        super().__init__(problem, n_seeds, rng, params)
        prior = params["prior"]
        if prior == "auto":
            prior = "bernoulli" if problem.noise in ("bernoulli", "beta") else "gaussian"
        self.prior = prior

    def select(self, t: int) -> np.ndarray:
        arms = self.initial(t)
        if arms is not None:
            return arms
        n = self.counts[:, :, None]
        if self.prior == "gaussian":
            mean = self.sums / (n + 1)
            samples = mean + self.sigma / np.sqrt(n + 1) * self.rng.standard_normal((self.K, self.L))
        else:
            s = np.clip(self.sums, 0, n)
            samples = self.rng.beta(1 + s, 1 + n - s)
        return self.pick_front(samples)


@batched("mo_epsilon_greedy")
class BatchedMOEpsilonGreedy(BatchedEmpirical):
    """Multi-objective epsilon-greedy (Drugan & Nowé 2013): one uniform draw, then an arm draw, per seed."""

    streams = EmulatedStreams

    def select(self, t: int) -> np.ndarray:
        arms = self.initial(t)
        if arms is not None:
            return arms
        explore = self.rng.random() < self.params["epsilon"]
        rank = np.cumsum(pareto_masks(self.means), axis=1)
        j = self.rng.integers(np.where(explore, self.K, rank[:, -1]))
        return np.where(explore, j, np.argmax(rank > j[:, None], axis=1))


# ---------------------------------------------------------------------- the loop
def batch_size(instance: Instance) -> int:
    """Most seeds whose reward buffers fit in `MAX_BUFFER_BYTES`."""
    per_seed = instance.K * BLOCK * instance.reward_dim * 8
    return max(1, MAX_BUFFER_BYTES // per_seed)


def can_batch(spec: AlgorithmSpec, instance: Instance, params: dict[str, Any]) -> bool:
    """True when ``spec`` has a batched implementation that reproduces the engine on ``instance``."""
    cls = BATCHED.get(spec.name)
    return cls is not None and instance.kind in BATCH_KINDS and cls.supports(instance, spec.validate(params))


def play(
    instance: Instance, spec: AlgorithmSpec, params: dict[str, Any], seeds: Sequence[int], horizon: int
) -> Iterator[np.ndarray]:
    """Yield the arms (one per seed) pulled at rounds 1, 2, ..., horizon, as `simulate.run` would pull them."""
    if not can_batch(spec, instance, params):
        raise ValueError(f"algorithm: {spec.name} has no batched implementation for {instance.kind!r} instances")
    cls = BATCHED[spec.name]
    env = BatchedEnvironment(instance, seeds)
    alg = cls(make_problem(instance, horizon, instance.features), len(env.envs), cls.streams(env.policy_rngs),
              spec.validate(params))
    for t in range(1, horizon + 1):
        arms = alg.select(t)
        alg.update(arms, env.pull(arms))
        yield arms


def run_batched(
    instance: Instance,
    spec: AlgorithmSpec,
    params: dict[str, Any],
    seeds: Sequence[int],
    recorded: np.ndarray,
    on_round: Callable[[int], None] | None = None,
) -> dict[str, np.ndarray]:
    """Cumulative regrets (name -> (S, len(recorded))) of ``spec`` on ``instance`` for each seed.

    ``recorded`` holds increasing rounds, the last one being the horizon; the value at round r is the
    sum of the instantaneous regrets of rounds 1..r, as ``np.cumsum(simulate.run(...).metrics[name])``.
    ``on_round(t)`` is called after every round (progress reporting).
    """
    gaps = arm_regrets(instance, spec.task)
    names = list(gaps)
    table = np.stack([gaps[k] for k in names], axis=1)  # (K, metrics)
    total = np.zeros((len(seeds), len(names)))
    out = np.empty((len(names), len(seeds), len(recorded)))
    col = 0
    for t, arms in enumerate(play(instance, spec, params, seeds, int(recorded[-1])), start=1):
        total += table[arms]
        if t == recorded[col]:
            out[:, :, col] = total.T
            col += 1
        if on_round is not None:
            on_round(t)
    return dict(zip(names, out, strict=True))
