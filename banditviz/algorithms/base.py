"""The algorithm contract, `RoundState`, the fast-loop protocol and the registry.

An algorithm is constructed with its parameters, then driven by the engine:
``reset(problem, rng)`` once, then each round t = 1, 2, ..., horizon ``select(t) -> arm`` and
``update(arm, reward)``; ``state()`` is called only at snapshot rounds, after that round's update, and must not
change what the algorithm does next. The contract, checked by `banditviz.check_algorithm`:

* ``select(t)`` returns an arm index: a Python or numpy integer (not a bool, a float or a string) in [0, K);
* ``update(arm, reward)`` receives the arm played and its reward, a read-only float array of the instance's reward
  dimension (L objectives, maximised orientation; one sample for a risk-averse instance): copy it to keep it;
* ``state()`` returns a `RoundState` whose ``estimates``, ``lower`` and ``upper`` are float K x L arrays, ``status``
  K codes of `STATUS_NAMES` (`ACTIVE`, `ACCEPTED`, `REJECTED`, `CANDIDATE`), ``counts`` K integers, ``front`` arm
  indices (`check_state`);
* the same seed gives the same run: draw randomness only from the ``rng`` given to ``reset``;
* ``reset`` may refuse a problem or parameters it cannot play with a ValueError naming the field (bad input, passed on
  as is); any other exception, or a breach, is the algorithm's fault (`banditviz.simulate.AlgorithmError`).

An algorithm sees only the `Problem`: never the true means. The one exception is a reference oracle, a class that
declares ``sees_truth = True``: the engine then hands it the round's true means (``problem.params["true_means"]``)
and marks its trace (``trace.info["sees_truth"]``), which every page shows.

An algorithm may declare a fast way to play its runs, ``register(..., loop=...)``: an object with `Loop`'s
``supports`` and ``play`` (a compiled round loop, or one that plays planned pulls batch by batch), which the engine
uses instead of calling ``select``/``update`` round by round and which must give the same `Trace`, bit for bit.
It may also declare where the guarantee of its paper does not hold, ``register(..., guarantee=...)``.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, ClassVar, Protocol

import numpy as np

STATUS_NAMES = ("active", "accepted", "rejected", "candidate")
ACTIVE, ACCEPTED, REJECTED, CANDIDATE = range(4)
TASKS = ("identify", "regret", "lexicographic", "risk-averse")
KINDS = ("means", "linear", "contextual", "distributions")


class Problem:
    """What a learner may know about an instance.

    ``context`` is the K x d matrix of arm features for the current round: constant for a
    linear instance, refreshed by the engine before every ``select`` for a contextual one, and
    None for instances without features. ``sigma`` is the noise scale the learner is told
    (the sub-Gaussian constant R of the papers).
    """

    def __init__(
        self,
        *,
        K: int,
        L: int,
        kind: str,
        horizon: int,
        noise: str,
        sigma: float,
        objective_names: tuple[str, ...],
        context: np.ndarray | None = None,
        params: dict[str, Any] | None = None,
    ) -> None:
        self.K = K
        self.L = L
        self.kind = kind
        self.horizon = horizon
        self.noise = noise
        self.sigma = sigma
        self.objective_names = objective_names
        self.context = context
        self.params = dict(params or {})

    @property
    def d(self) -> int | None:
        return None if self.context is None else int(self.context.shape[1])


@dataclass
class RoundState:
    """What a picture needs at one round (after the update of round ``t``).

    ``estimates``, ``lower`` and ``upper`` are K x L in the maximised orientation (NaN where the
    algorithm has no value yet); ``status`` holds one code of `STATUS_NAMES` per arm; ``front`` is
    the algorithm's current estimated front; ``extras`` carries algorithm-specific arrays (design
    weights, samples, phase...) and ``events`` one plain-English sentence per thing that happened.
    """

    t: int
    estimates: np.ndarray
    lower: np.ndarray
    upper: np.ndarray
    status: np.ndarray
    front: tuple[int, ...]
    pulled: int | None
    counts: np.ndarray
    extras: dict[str, Any] = field(default_factory=dict)
    events: tuple[str, ...] = ()

    @property
    def status_names(self) -> list[str]:
        return [STATUS_NAMES[s] for s in self.status]


@dataclass
class Played:
    """The rounds a fast loop played (`Loop.play`), as the round-by-round engine records them.

    ``arms`` (t,) and ``rewards`` (t x the instance's reward dimension) of rounds 1..t; ``snapshots``: the
    algorithm's ``state()`` after each round of ``snap_at`` played and, when ``snap_at`` is not empty, after the round
    it stopped in; ``changes``, for an algorithm that recommends every round: ``(round, recommendation)`` at round 1
    and at every round where the recommendation changed (the engine scores each recommendation once); ``metrics``,
    from a loop that plays contextual runs: the per-round metrics the engine records for them
    (`banditviz.metrics.pulled_regrets`), one array each, in that order, and ``truth``: the true means (K x L) at
    each snapshot round.
    """

    arms: np.ndarray
    rewards: np.ndarray
    snapshots: list[RoundState] = field(default_factory=list)
    changes: list[tuple[int, tuple[int, ...] | None]] = field(default_factory=list)
    metrics: dict[str, np.ndarray] = field(default_factory=dict)
    truth: list[np.ndarray] = field(default_factory=list)


class Loop(Protocol):
    """A fast way to play an algorithm's runs, declared with it (``register(..., loop=...)``).

    ``compiled``: True when `play` runs in compiled code that releases the GIL (runs on several threads then go side
    by side). The engine calls ``supports(kind, params, snapshots)`` with the run's instance kind (its contexts never
    move, or it is "contextual": the loop then draws the contexts from the environment's stream and returns the
    per-round metrics), validated parameters and number of snapshots; if True,
    ``play(alg, rewards, horizon, snap_at)`` with ``alg`` built and reset, the run's `banditviz.rewards.RewardBuffer`
    (the only way to pull an arm; its ``env`` holds a contextual run's streams), the horizon and the snapshot rounds
    (ascending). `play` leaves ``alg.done`` and ``alg.recommendation`` as the round-by-round
    loop would, and returns `Played`.
    """

    compiled: bool

    def supports(self, kind: str, params: dict[str, Any], snapshots: int) -> bool: ...

    def play(self, alg: Algorithm, rewards: Any, horizon: int, snap_at: np.ndarray) -> Played: ...


@dataclass(frozen=True)
class Param:
    """One algorithm parameter: default, allowed range and one-line help for the app's forms.

    A default of None marks an optional number: None (computed by the algorithm) or a value in range.
    ``low_open`` makes the lower bound exclusive (the paper needs the value > low).
    """

    name: str
    default: Any
    help: str
    low: float | None = None
    high: float | None = None
    choices: tuple[Any, ...] | None = None
    low_open: bool = False

    @property
    def type(self) -> type:
        return type(self.default) if self.default is not None else float

    def validate(self, value: Any, owner: str) -> Any:
        """Return ``value`` coerced to the parameter's type, or raise ValueError naming it."""
        where = f"{owner} parameter '{self.name}'"
        if value is None and self.default is None:
            return None  # an optional number: None lets the algorithm compute it (see its help)
        if self.choices is not None:
            if value not in self.choices:
                raise ValueError(f"{where}: must be one of {list(self.choices)}, got {value!r}")
            return value
        kind = self.type
        if kind is bool:
            if not isinstance(value, (bool, np.bool_)):
                raise ValueError(f"{where}: must be true or false, got {value!r}")
            return bool(value)
        if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, float, np.integer, np.floating)):
            raise ValueError(f"{where}: must be a number, got {value!r}")
        if kind is int:
            if not math.isfinite(float(value)) or float(value) != math.floor(float(value)):
                raise ValueError(f"{where}: must be a whole number, got {value!r}")
            value = int(value)
        else:
            value = float(value)
            if not math.isfinite(value):
                raise ValueError(f"{where}: must be a finite number, got {value!r}")
        if self.low is not None and (value <= self.low if self.low_open else value < self.low):
            raise ValueError(f"{where}: must be {'>' if self.low_open else '>='} {self.low}, got {value!r}")
        if self.high is not None and value > self.high:
            raise ValueError(f"{where}: must be <= {self.high}, got {value!r}")
        return value


@dataclass(frozen=True)
class AlgorithmSpec:
    """A registry entry: what the app needs to list, describe and build an algorithm, and how the engine plays it.

    ``loop`` plays ``cls``'s rules: a spec whose class is replaced (a deliberately broken variant) drops it.
    ``guarantee(instance, params)``: the reasons, one sentence each, why the paper's guarantee does not hold for
    this instance and these (validated) parameters (`banditviz.guarantees.warnings_for`).
    """

    name: str
    cls: type[Algorithm]
    paper: str
    task: str
    kinds: tuple[str, ...]
    params: tuple[Param, ...]
    summary: str
    recommends_every_round: bool = False
    loop: Loop | None = None
    guarantee: Callable[[Any, dict[str, Any]], list[str]] | None = None

    def defaults(self) -> dict[str, Any]:
        return {p.name: p.default for p in self.params}

    def validate(self, params: dict[str, Any]) -> dict[str, Any]:
        """Paper defaults overridden by ``params``, each checked against its range."""
        known = {p.name: p for p in self.params}
        unknown = sorted(set(params) - set(known))
        if unknown:
            raise ValueError(
                f"{self.name}: unknown parameter(s) {unknown}; allowed: {sorted(known) or 'none'}"
            )
        out = self.defaults()
        for key, value in params.items():
            out[key] = known[key].validate(value, self.name)
        return out

    def make(self, **params: Any) -> Algorithm:
        return self.cls(**self.validate(params))


ALGORITHMS: dict[str, AlgorithmSpec] = {}


def register(
    name: str,
    *,
    paper: str,
    task: str,
    kinds: tuple[str, ...],
    params: tuple[Param, ...] = (),
    summary: str = "",
    recommends_every_round: bool = False,
    loop: Loop | None = None,
    guarantee: Callable[[Any, dict[str, Any]], list[str]] | None = None,
    replace: bool = False,
):
    """Class decorator adding an algorithm to `ALGORITHMS` under ``name``, with its fast `Loop` and its guarantee's
    conditions if it has them (`AlgorithmSpec`).

    ``task`` is one of `TASKS`, ``kinds`` a tuple of `KINDS` (the instance kinds it runs on). A name already taken
    is refused unless ``replace`` is True or the class is the same one defined again (same module and qualified
    name: a notebook cell run twice), which then replaces the entry."""
    if task not in TASKS:
        raise ValueError(f"task: must be one of {TASKS}, got {task!r}")
    bad = set(kinds) - set(KINDS)
    if bad:
        raise ValueError(f"kinds: must be among {KINDS}, got {sorted(bad)}")
    if loop is not None and not all(callable(getattr(loop, m, None)) for m in ("supports", "play")):
        raise ValueError("loop: must have supports(kind, params, snapshots) and play(alg, rewards, horizon, snap_at)")

    def wrap(cls: type[Algorithm]) -> type[Algorithm]:
        taken = ALGORITHMS.get(name)
        if taken is not None and not replace and _where(taken.cls) != _where(cls):
            raise ValueError(f"algorithm {name!r} is already registered by {_where(taken.cls)}; choose another name "
                             f"for {_where(cls)}, or pass replace=True to register(...)")
        spec = AlgorithmSpec(name, cls, paper, task, tuple(kinds), tuple(params),
                             summary or (cls.__doc__ or "").strip().split("\n")[0],
                             recommends_every_round, loop, guarantee)
        cls.spec = spec
        ALGORITHMS[name] = spec
        return cls

    return wrap


def _where(cls: type) -> str:
    return f"{cls.__module__}.{cls.__qualname__}"


def is_external(spec: AlgorithmSpec) -> bool:
    """True for an algorithm registered from outside the package (a plugin, a notebook)."""
    return not spec.cls.__module__.startswith("banditviz.")


class Algorithm:
    """Base class: stores validated parameters; subclasses implement the contract (module doc)."""

    spec: ClassVar[AlgorithmSpec]
    sees_truth: ClassVar[bool] = False  # a reference oracle, given the true means (module doc)
    done: bool = False
    recommendation: tuple[int, ...] | None = None

    def __init__(self, **params: Any) -> None:
        self.params = params

    def reset(self, problem: Problem, rng: np.random.Generator) -> None:
        raise NotImplementedError

    def select(self, t: int) -> int:
        raise NotImplementedError

    def update(self, arm: int, reward: np.ndarray) -> None:
        raise NotImplementedError

    def state(self) -> RoundState:
        raise NotImplementedError


def get_algorithm(name: str) -> AlgorithmSpec:
    """The registry entry for ``name``, or ValueError listing the known names."""
    try:
        return ALGORITHMS[name]
    except KeyError:
        raise ValueError(f"algorithm: unknown name {name!r}; known: {sorted(ALGORITHMS)}") from None


def check_state(state: Any, K: int, L: int, t: int) -> str | None:
    """What is wrong with ``state`` as the `RoundState` of round ``t`` on K arms and L objectives, or None."""
    if not isinstance(state, RoundState):
        return f"state() returned {type(state).__name__}, expected a RoundState"
    if not isinstance(state.t, (int, np.integer)) or state.t != t:
        return f"state().t is {state.t!r}, expected the round {t}"
    for key in ("estimates", "lower", "upper"):
        value = getattr(state, key)
        if not isinstance(value, np.ndarray) or value.shape != (K, L) or value.dtype.kind != "f":
            return f"state().{key} is {_describe(value)}, expected a float array of shape ({K}, {L})"
    for key, kinds in (("status", "iu"), ("counts", "iu")):
        value = getattr(state, key)
        if not isinstance(value, np.ndarray) or value.shape != (K,) or value.dtype.kind not in kinds:
            return f"state().{key} is {_describe(value)}, expected an integer array of shape ({K},)"
    if ((state.status < 0) | (state.status >= len(STATUS_NAMES))).any():
        return f"state().status holds {sorted(set(state.status.tolist()))}, expected codes 0..{len(STATUS_NAMES) - 1}"
    if not all(isinstance(a, (int, np.integer)) and 0 <= a < K for a in state.front):
        return f"state().front is {state.front!r}, expected arm indices in [0, {K})"
    return None


def _describe(value: Any) -> str:
    if isinstance(value, np.ndarray):
        return f"an array of shape {value.shape} and dtype {value.dtype}"
    return f"a {type(value).__name__}"
