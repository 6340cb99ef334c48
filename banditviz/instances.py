"""The `Instance` model: immutable, validated, JSON round-trip; generators; the preset registry.

Four kinds:

* ``means``: fixed mean vectors (K x L);
* ``linear``: features (K x d) times parameters theta (d x L), means = features @ theta; with
  ``context_noise`` r > 0 the learner sees fresh contexts X_{k,t} = x_k + r U_{k,t} every round (U uniform
  in the unit ball, so E[X_{k,t}] = x_k and the means stay features @ theta), the setting of Kim, Iyengar &
  Zeevi, "Pareto Front Identification with Regret Minimization", Sec. 2 (PFIwR; the uniform-ball noise is our decision);
* ``contextual``: parameters theta (d x L) and fresh contexts (K x d) every round drawn from a
  seeded distribution (our decision for MOL-TS: uniform in the unit ball by default);
* ``distributions``: per-arm scalar distributions on [0, 1] whose objectives are the mean
  (maximise) and the scaled mean-variance risk xi = (sigma^2 - rho mu) / (3 + rho) (minimise),
  RAMGapE Sec. 2. Internally objectives are maximised, so the risk is stored negated.

Noise for ``means``/``linear``: Gaussian N(0, sigma^2) per objective, Bernoulli (means in [0, 1]),
or Beta with mean mu and concentration c (Beta(c mu, c (1 - mu)), means in (0, 1)).
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from . import limits, pareto
from ._contexts import CONTEXTS, draw_contexts

SCHEMA_VERSION = 1
KINDS = ("means", "linear", "contextual", "distributions")
# the field of each kind that gives its number of arms and of objectives, named by a message refusing either
_ARMS_FROM = {"means": "means", "linear": "features", "contextual": "n_arms", "distributions": "distributions"}
_OBJECTIVES_FROM = {"means": "means", "linear": "theta", "contextual": "theta", "distributions": "distributions"}
NOISES = ("gaussian", "bernoulli", "beta")
FAMILIES = {"beta": ("a", "b"), "bernoulli": ("p",), "uniform": ("low", "high")}
_FIELDS = (
    "schema_version", "kind", "name", "means", "features", "theta", "n_arms", "context",
    "distributions", "rho", "context_noise", "noise", "sigma", "concentration", "objective_names", "directions",
    "arm_names", "description",
)


def _array(name: str, value: Any, ndim: int) -> np.ndarray:
    """A finite float array of ``ndim`` dimensions, or ValueError naming the field."""
    try:
        if not (isinstance(value, np.ndarray) and value.dtype.kind in "fiu"):
            cells = np.array(value, dtype=object).ravel()
            if not all(isinstance(c, (int, float, np.integer, np.floating)) and not isinstance(c, bool)
                       for c in cells):
                raise ValueError
        arr = np.array(value, dtype=float)
    except (TypeError, ValueError, OverflowError):
        raise ValueError(f"{name}: must be a {ndim}-D array of numbers") from None
    if arr.ndim != ndim or 0 in arr.shape:
        raise ValueError(f"{name}: must be a non-empty {ndim}-D array of numbers, got shape {arr.shape}")
    if not np.all(np.isfinite(arr)):
        raise ValueError(f"{name}: every entry must be a finite number (no NaN or infinity)")
    if np.abs(arr).max() > 1e6:
        raise ValueError(f"{name}: entries must lie in [-1e6, 1e6]")
    arr.setflags(write=False)
    return arr


def _positive(name: str, value: Any, high: float = 1e6) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)):
        raise ValueError(f"{name}: must be a number in (0, {high:g}], got {value!r}")
    value = float(value)
    if not (math.isfinite(value) and 0 < value <= high):
        raise ValueError(f"{name}: must be a number in (0, {high:g}], got {value!r}")
    return value


def _names(name: str, value: Any, n: int, default: Callable[[int], str]) -> tuple[str, ...]:
    if value is None:
        return tuple(default(i) for i in range(n))
    if isinstance(value, str) or not isinstance(value, (list, tuple)) or len(value) != n:
        raise ValueError(f"{name}: must be a list of {n} strings")
    out = []
    for v in value:
        if not isinstance(v, str) or not 0 < len(v) <= 60:
            raise ValueError(f"{name}: each entry must be a string of 1 to 60 characters, got {v!r}")
        out.append(v)
    return tuple(out)


def _beta_variance(a: float, b: float) -> float:
    return a * b / ((a + b) * (a + b) * (a + b + 1))


def _distribution(i: int, spec: Any) -> dict[str, Any]:
    """Validate one arm's reward distribution on [0, 1]."""
    where = f"distributions[{i}]"
    if not isinstance(spec, dict) or spec.get("family") not in FAMILIES:
        raise ValueError(f"{where}: must be an object with 'family' one of {sorted(FAMILIES)}")
    keys = FAMILIES[spec["family"]]
    extra = sorted(set(spec) - set(keys) - {"family"})
    if extra:
        raise ValueError(f"{where}: unknown field(s) {extra} for family {spec['family']!r}; allowed {list(keys)}")
    out: dict[str, Any] = {"family": spec["family"]}
    for k in keys:
        if k not in spec:
            raise ValueError(f"{where}.{k}: missing")
        v = spec[k]
        if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v):
            raise ValueError(f"{where}.{k}: must be a finite number, got {v!r}")
        out[k] = float(v)
    fam = out["family"]
    if fam == "beta" and not (0 < out["a"] <= 1e4 and 0 < out["b"] <= 1e4):
        raise ValueError(f"{where}: beta parameters a and b must be in (0, 1e4]")
    if fam == "bernoulli" and not 0 <= out["p"] <= 1:
        raise ValueError(f"{where}.p: must be in [0, 1]")
    if fam == "uniform" and not 0 <= out["low"] < out["high"] <= 1:
        raise ValueError(f"{where}: uniform needs 0 <= low < high <= 1")
    return out


def distribution_moments(spec: dict[str, Any]) -> tuple[float, float]:
    """Mean and variance of one arm's distribution."""
    fam = spec["family"]
    if fam == "beta":
        a, b = spec["a"], spec["b"]
        return a / (a + b), _beta_variance(a, b)
    if fam == "bernoulli":
        p = spec["p"]
        return p, p * (1 - p)
    lo, hi = spec["low"], spec["high"]
    return (lo + hi) / 2, (hi - lo) * (hi - lo) / 12


@dataclass(frozen=True, eq=False)
class Instance:
    """An immutable, validated bandit instance. Build it with the ``from_*`` constructors."""

    kind: str
    means: np.ndarray | None
    features: np.ndarray | None = None
    theta: np.ndarray | None = None
    n_arms: int | None = None
    context: str = "uniform_ball"
    context_noise: float = 0.0
    distributions: tuple[dict[str, Any], ...] = ()
    rho: float = 0.01
    noise: str = "gaussian"
    sigma: float = 1.0
    concentration: float = 2.0
    objective_names: tuple[str, ...] = ()
    directions: tuple[str, ...] = ()
    arm_names: tuple[str, ...] = ()
    name: str = ""
    description: str = ""
    _cache: dict[str, Any] = field(default_factory=dict, repr=False, compare=False)

    # ------------------------------------------------------------------ constructors
    @classmethod
    def from_means(
        cls, means: Any, noise: str = "gaussian", sigma: float = 1.0, *, concentration: float = 2.0,
        objective_names: Any = None, directions: Any = None, arm_names: Any = None, name: str = "",
        description: str = "",
    ) -> Instance:
        """Fixed mean vectors (K x L, maximised) with the given noise model."""
        m = _array("means", means, 2)
        return cls._build("means", m, noise=noise, sigma=sigma, concentration=concentration,
                          objective_names=objective_names, directions=directions, arm_names=arm_names,
                          name=name, description=description)

    @classmethod
    def from_linear(
        cls, features: Any, theta: Any, sigma: float = 1.0, *, noise: str = "gaussian", context_noise: float = 0.0,
        objective_names: Any = None, directions: Any = None, arm_names: Any = None, name: str = "",
        description: str = "",
    ) -> Instance:
        """Linear model: features (K x d), theta (d x L), means = features @ theta.

        ``context_noise`` r in [0, 1]: 0 (default) shows the learner the fixed features; r > 0 shows fresh
        contexts x_k + r U_{k,t} each round (U uniform in the unit ball; PFIwR Sec. 2).
        """
        if isinstance(context_noise, bool) or not isinstance(context_noise, (int, float, np.integer, np.floating)) \
                or not 0 <= float(context_noise) <= 1:
            raise ValueError(f"context_noise: must be a number in [0, 1], got {context_noise!r}")
        X = _array("features", features, 2)
        th = _array("theta", theta, 2)
        limits.check_int("features: number of columns d", X.shape[1], 1, limits.MAX_DIM)
        if th.shape[0] != X.shape[1]:
            raise ValueError(f"theta: must have d = {X.shape[1]} rows (one per column of features), "
                             f"got {th.shape[0]}")
        m = linear_means(X, th)
        return cls._build("linear", m, features=X, theta=th, noise=noise, sigma=sigma,
                          context_noise=float(context_noise),
                          objective_names=objective_names, directions=directions, arm_names=arm_names,
                          name=name, description=description)

    @classmethod
    def from_contextual(
        cls, theta: Any, n_arms: int, sigma: float = 1.0, *, context: str = "uniform_ball",
        objective_names: Any = None, directions: Any = None, arm_names: Any = None, name: str = "",
        description: str = "",
    ) -> Instance:
        """Contextual linear model (MOL-TS Sec. 3.2): theta (d x L); K fresh contexts each round."""
        th = _array("theta", theta, 2)
        limits.check_int("theta: number of rows d", th.shape[0], 1, limits.MAX_DIM)
        K = limits.check_int("n_arms", n_arms, 2, limits.MAX_ARMS)
        if context not in CONTEXTS:
            raise ValueError(f"context: must be one of {list(CONTEXTS)}, got {context!r}")
        return cls._build("contextual", None, theta=th, n_arms=K, context=context, noise="gaussian",
                          sigma=sigma, objective_names=objective_names, directions=directions,
                          arm_names=arm_names, name=name, description=description, L=th.shape[1])

    @classmethod
    def from_distributions(
        cls, distributions: Any, rho: float = 0.01, *, arm_names: Any = None, name: str = "",
        description: str = "",
    ) -> Instance:
        """Per-arm scalar distributions on [0, 1]; objectives mean and risk xi (RAMGapE Sec. 2)."""
        if not isinstance(distributions, (list, tuple)):
            raise ValueError("distributions: must be a list with one distribution per arm")
        limits.check_int("distributions: number of arms", len(distributions), 2, limits.MAX_ARMS)
        dists = tuple(_distribution(i, d) for i, d in enumerate(distributions))
        if isinstance(rho, bool) or not isinstance(rho, (int, float)) or not (0 <= rho <= 1e3):
            raise ValueError(f"rho: must be a number in [0, 1000], got {rho!r}")
        mom = np.array([distribution_moments(d) for d in dists])
        xi = (mom[:, 1] - rho * mom[:, 0]) / (3 + rho)
        m = np.column_stack([mom[:, 0], -xi])
        m.setflags(write=False)
        return cls._build("distributions", m, distributions=dists, rho=float(rho), noise="distribution",
                          sigma=0.5, objective_names=("mean μ", "risk ξ"), directions=("max", "min"),
                          arm_names=arm_names, name=name, description=description)

    @classmethod
    def _build(cls, kind: str, means: np.ndarray | None, *, noise: str, sigma: float,
               objective_names: Any, directions: Any, arm_names: Any, L: int | None = None,
               **kw: Any) -> Instance:
        K = int(means.shape[0]) if means is not None else int(kw["n_arms"])
        L = int(means.shape[1]) if means is not None else int(L)  # type: ignore[arg-type]
        limits.check_int(f"{_ARMS_FROM[kind]}: number of arms K", K, 2, limits.MAX_ARMS)
        limits.check_int(f"{_OBJECTIVES_FROM[kind]}: number of objectives L", L, 1, limits.MAX_OBJECTIVES)
        if kind in ("means", "linear"):
            if noise not in NOISES:
                raise ValueError(f"noise: must be one of {list(NOISES)}, got {noise!r}")
            if noise == "bernoulli" and (means.min() < 0 or means.max() > 1):  # type: ignore[union-attr]
                raise ValueError("means: Bernoulli noise needs every mean in [0, 1]")
            if noise == "beta" and (means.min() <= 0 or means.max() >= 1):  # type: ignore[union-attr]
                raise ValueError("means: Beta noise needs every mean strictly inside (0, 1)")
        if noise == "gaussian":
            sigma = _positive("sigma", sigma, 1e3)
        elif noise in ("bernoulli", "beta"):
            sigma = 0.5  # sub-Gaussian constant of a variable in [0, 1]
        if "concentration" in kw:
            kw["concentration"] = _positive("concentration", kw["concentration"], 1e4)
        if directions is None:
            directions = ("max",) * L
        if not isinstance(directions, (list, tuple)):
            raise ValueError(f"directions: must be a list of {L} entries, each 'max' or 'min', got {directions!r}")
        directions = tuple(directions)
        if len(directions) != L or any(d not in ("max", "min") for d in directions):
            raise ValueError(f"directions: must be a list of {L} entries, each 'max' or 'min'")
        inst = cls(
            kind=kind, means=means, noise=noise, sigma=float(sigma),
            objective_names=_names("objective_names", objective_names, L, lambda i: f"objective {i + 1}"),
            directions=directions,
            arm_names=_names("arm_names", arm_names, K, lambda i: f"arm {i}"),
            **kw,
        )
        if not isinstance(inst.name, str) or len(inst.name) > 200:
            raise ValueError("name: must be a string of at most 200 characters")
        if not isinstance(inst.description, str) or len(inst.description) > 5000:
            raise ValueError("description: must be a string of at most 5000 characters")
        return inst

    # ------------------------------------------------------------------ shape and truth
    @property
    def K(self) -> int:
        return len(self.arm_names)

    @property
    def L(self) -> int:
        return len(self.objective_names)

    @property
    def d(self) -> int | None:
        if self.features is not None:
            return int(self.features.shape[1])
        return None if self.theta is None else int(self.theta.shape[0])

    @property
    def reward_dim(self) -> int:
        """Length of one observed reward: L, or 1 for scalar distributions."""
        return 1 if self.kind == "distributions" else self.L

    def _cached(self, key: str, fn: Callable[[], Any]) -> Any:
        if key not in self._cache:
            self._cache[key] = fn()
        return self._cache[key]

    def _require_means(self, what: str) -> np.ndarray:
        if self.means is None:
            raise ValueError(f"{what}: a contextual instance has no fixed means; use the means of a round")
        return self.means

    @property
    def pareto_set(self) -> tuple[int, ...]:
        m = self._require_means("pareto_set")
        return self._cached("P", lambda: tuple(int(i) for i in np.flatnonzero(pareto.pareto_mask(m))))

    @property
    def effective_set(self) -> tuple[int, ...]:
        m = self._require_means("effective_set")
        return self._cached("C", lambda: tuple(int(i) for i in np.flatnonzero(pareto.effective_pareto_mask(m))))

    @property
    def pareto_gaps(self) -> np.ndarray:
        return self._cached("gapP", lambda: pareto.pareto_gap(self._require_means("pareto_gaps")))

    @property
    def effective_gaps(self) -> np.ndarray:
        return self._cached("gapC", lambda: pareto.effective_gap(self._require_means("effective_gaps")))

    @property
    def psi_gaps(self) -> np.ndarray:
        return self._cached("gapPSI", lambda: pareto.psi_gaps(self._require_means("psi_gaps")))

    def display(self, values: np.ndarray) -> np.ndarray:
        """Values in the user's orientation: objectives marked 'min' are negated back."""
        sign = np.array([-1.0 if d == "min" else 1.0 for d in self.directions])
        return np.asarray(values) * sign

    def with_changes(self, **changes: Any) -> Instance:
        """A new validated instance with some JSON fields replaced."""
        data = self.to_dict()
        data.update(changes)
        return Instance.from_dict(data)

    # ------------------------------------------------------------------ JSON
    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"schema_version": SCHEMA_VERSION, "kind": self.kind, "name": self.name}
        if self.kind == "means":
            out["means"] = self.means.tolist()  # type: ignore[union-attr]
        if self.kind == "linear":
            out["features"] = self.features.tolist()  # type: ignore[union-attr]
        if self.kind in ("linear", "contextual"):
            out["theta"] = self.theta.tolist()  # type: ignore[union-attr]
        if self.context_noise:
            out["context_noise"] = self.context_noise
        if self.kind == "contextual":
            out.update(n_arms=self.K, context=self.context)
        if self.kind == "distributions":
            out.update(distributions=[dict(d) for d in self.distributions], rho=self.rho)
        else:
            out.update(noise=self.noise, sigma=self.sigma, objective_names=list(self.objective_names),
                       directions=list(self.directions))
            if self.noise == "beta":
                out["concentration"] = self.concentration
        out.update(arm_names=list(self.arm_names), description=self.description)
        return out

    def to_json(self) -> str:
        """Lossless JSON (floats written with repr precision)."""
        return json.dumps(self.to_dict(), indent=1, allow_nan=False)

    @classmethod
    def from_dict(cls, data: Any) -> Instance:
        if not isinstance(data, dict):
            raise ValueError(f"instance JSON: must be an object, got {type(data).__name__}")
        unknown = sorted(str(k) for k in set(data) - set(_FIELDS))
        if unknown:
            raise ValueError(f"instance JSON: unknown field(s) {unknown}; allowed {list(_FIELDS)}")
        version = data.get("schema_version", SCHEMA_VERSION)
        if version != SCHEMA_VERSION:
            raise ValueError(f"schema_version: must be {SCHEMA_VERSION}, got {version!r}")
        kind = data.get("kind")
        if kind not in KINDS:
            raise ValueError(f"kind: must be one of {list(KINDS)}, got {kind!r}")
        allowed = {
            "means": {"means", "noise", "sigma", "concentration", "objective_names", "directions"},
            "linear": {"features", "theta", "context_noise", "noise", "sigma", "objective_names", "directions"},
            "contextual": {"theta", "n_arms", "context", "noise", "sigma", "objective_names", "directions"},
            "distributions": {"distributions", "rho"},
        }[kind] | {"schema_version", "kind", "name", "arm_names", "description"}
        extra = sorted(set(data) - allowed)
        if extra:
            raise ValueError(f"instance JSON: field(s) {extra} do not apply to kind {kind!r}")
        for key in {"means": ["means"], "linear": ["features", "theta"], "contextual": ["theta", "n_arms"],
                    "distributions": ["distributions"]}[kind]:
            if key not in data:
                raise ValueError(f"{key}: missing (required for kind {kind!r})")
        common = {k: data.get(k) for k in ("arm_names",)}
        common.update(name=data.get("name", ""), description=data.get("description", ""))
        for key in ("name", "description"):
            if not isinstance(common[key], str):
                raise ValueError(f"{key}: must be a string")
        labels = {k: data.get(k) for k in ("objective_names", "directions")}
        if kind == "means":
            return cls.from_means(data["means"], noise=data.get("noise", "gaussian"),
                                  sigma=data.get("sigma", 1.0), concentration=data.get("concentration", 2.0),
                                  **labels, **common)
        if kind == "linear":
            return cls.from_linear(data["features"], data["theta"], sigma=data.get("sigma", 1.0),
                                   noise=data.get("noise", "gaussian"), context_noise=data.get("context_noise", 0.0),
                                   **labels, **common)
        if kind == "contextual":
            if data.get("noise", "gaussian") != "gaussian":
                raise ValueError("noise: a contextual instance supports only 'gaussian'")
            return cls.from_contextual(data["theta"], data["n_arms"], sigma=data.get("sigma", 1.0),
                                       context=data.get("context", "uniform_ball"), **labels, **common)
        return cls.from_distributions(data["distributions"], rho=data.get("rho", 0.01), **common)

    @classmethod
    def from_json(cls, text: str | bytes) -> Instance:
        """Parse and validate; any problem is a ValueError that says what is wrong."""
        if isinstance(text, bytes):
            if len(text) > limits.MAX_UPLOAD_BYTES:
                raise ValueError(f"instance JSON: larger than {limits.MAX_UPLOAD_BYTES:,} bytes")
            try:
                text = text.decode("utf-8")
            except UnicodeDecodeError:
                raise ValueError("instance JSON: not UTF-8 text (is this a JSON file?)") from None
        if not isinstance(text, str):
            raise ValueError(f"instance JSON: must be text, got {type(text).__name__}")
        if len(text) > limits.MAX_UPLOAD_BYTES:
            raise ValueError(f"instance JSON: larger than {limits.MAX_UPLOAD_BYTES:,} bytes")

        def reject_constant(name: str) -> None:
            raise ValueError(f"instance JSON: {name} is not allowed; use finite numbers")

        try:
            data = json.loads(text, parse_constant=reject_constant)
        except RecursionError:
            raise ValueError("instance JSON: nested too deeply") from None
        except json.JSONDecodeError as exc:
            raise ValueError(f"instance JSON: not valid JSON ({exc.msg} at line {exc.lineno})") from None
        try:
            return cls.from_dict(data)
        except RecursionError:
            raise ValueError("instance JSON: nested too deeply") from None

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Instance) and self.to_json() == other.to_json()

    def __hash__(self) -> int:
        return hash(self.to_json())


def linear_means(features: np.ndarray, theta: np.ndarray) -> np.ndarray:
    """features @ theta, the same bits on every machine: a BLAS product's summation order (and its use of
    fused multiply-add) depends on the CPU's kernel, so the products are added feature by feature in a
    fixed order with plain (correctly rounded) elementwise operations."""
    X, th = np.asarray(features, dtype=float), np.asarray(theta, dtype=float)
    m = X[:, 0, None] * th[0]
    for j in range(1, X.shape[1]):
        m = m + X[:, j, None] * th[j]
    m.setflags(write=False)
    return m


# ---------------------------------------------------------------------- generators (seeded)
def _rng(seed: int) -> np.random.Generator:
    return np.random.default_rng(limits.check_int("seed", seed, 0, limits.MAX_SEED))


def uniform_box(K: int, L: int = 2, seed: int = 0, *, low: float = 0.0, high: float = 1.0,
                noise: str = "gaussian", sigma: float = 0.5) -> Instance:
    """K mean vectors drawn uniformly in [low, high]^L."""
    K = limits.check_int("K", K, 2, limits.MAX_ARMS)
    L = limits.check_int("L", L, 1, limits.MAX_OBJECTIVES)
    if not low < high:
        raise ValueError(f"low, high: need low < high, got {low} and {high}")
    m = _rng(seed).uniform(low, high, size=(K, L))
    return Instance.from_means(m, noise=noise, sigma=sigma, name=f"uniform box K={K} L={L} seed={seed}")


def _front_points(K: int, L: int, seed: int, power: float) -> np.ndarray:
    """Points on the positive orthant of the unit L_p sphere (p = power), with a dominated share."""
    rng = _rng(seed)
    g = np.abs(rng.normal(size=(K, L))) + 1e-3
    pts = g / np.linalg.norm(g, ord=power, axis=1, keepdims=True)
    shrink = np.where(rng.random(K) < 0.3, rng.uniform(0.6, 0.95, K), 1.0)  # ~30% dominated
    return pts * shrink[:, None]


def concave_front(K: int, L: int = 2, seed: int = 0, *, noise: str = "gaussian", sigma: float = 0.5) -> Instance:
    """Pareto arms on a concave (quarter-circle) front, so that the effective front is the whole front."""
    K = limits.check_int("K", K, 2, limits.MAX_ARMS)
    L = limits.check_int("L", L, 2, limits.MAX_OBJECTIVES)
    return Instance.from_means(_front_points(K, L, seed, 2.0), noise=noise, sigma=sigma,
                               name=f"concave front K={K} L={L} seed={seed}")


def convex_front(K: int, L: int = 2, seed: int = 0, *, noise: str = "gaussian", sigma: float = 0.5) -> Instance:
    """Pareto arms on a convex (L_1/2 ball) front: only its ends are effective Pareto optimal."""
    K = limits.check_int("K", K, 2, limits.MAX_ARMS)
    L = limits.check_int("L", L, 2, limits.MAX_OBJECTIVES)
    return Instance.from_means(_front_points(K, L, seed, 0.5), noise=noise, sigma=sigma,
                               name=f"convex front K={K} L={L} seed={seed}")


def _unit_columns(rng: np.random.Generator, d: int, L: int) -> np.ndarray:
    th = rng.normal(size=(d, L))
    return th / np.linalg.norm(th, axis=0, keepdims=True)


def random_linear(K: int, d: int = 2, L: int = 2, seed: int = 0, *, sigma: float = 0.5) -> Instance:
    """Linear instance: features uniform in the unit ball, each theta column of norm 1."""
    K = limits.check_int("K", K, 2, limits.MAX_ARMS)
    d = limits.check_int("d", d, 1, limits.MAX_DIM)
    L = limits.check_int("L", L, 1, limits.MAX_OBJECTIVES)
    rng = _rng(seed)
    X = sample_contexts(rng, K, d, "uniform_ball")
    return Instance.from_linear(X, _unit_columns(rng, d, L), sigma=sigma,
                                name=f"linear K={K} d={d} L={L} seed={seed}")


def random_contextual(K: int, d: int = 5, L: int = 2, seed: int = 0, *, sigma: float = 1.0,
                      context: str = "uniform_ball") -> Instance:
    """Contextual instance (our decision for MOL-TS): theta columns N(0, I) normalised to norm 1."""
    d = limits.check_int("d", d, 1, limits.MAX_DIM)
    L = limits.check_int("L", L, 1, limits.MAX_OBJECTIVES)
    th = _unit_columns(_rng(seed), d, L)
    return Instance.from_contextual(th, K, sigma=sigma, context=context,
                                    name=f"contextual K={K} d={d} L={L} seed={seed}")


def sample_contexts(rng: np.random.Generator, K: int, d: int, kind: str) -> np.ndarray:
    """K contexts in the unit ball (our decision for MOL-TS): uniform in the ball, on the sphere, or clipped Gaussian.

    Uniform in the ball: a uniform direction times a radius with P(r <= s) = s^d, drawn as the largest of
    d uniforms (same law as u^(1/d)); numpy's power ufunc is vectorised per CPU (SVML on AVX-512), so
    u^(1/d) would not give the same bits on every machine."""
    out = np.empty((K, d))
    draw_contexts(rng, CONTEXTS.index(kind), out)  # compiled: numpy's draws and sums (`_contexts`)
    return out


# ---------------------------------------------------------------------- presets
@dataclass(frozen=True)
class Preset:
    """A named instance builder (a paper's setting, or a demo)."""

    name: str
    build: Callable[..., Instance]
    paper: str
    description: str
    dims: int | None = None  # number of objectives drawn, for the app's 2D/3D filter


PRESETS: dict[str, Preset] = {}


def register_preset(name: str, *, paper: str, description: str, dims: int | None = None):
    """Decorator adding an instance builder to `PRESETS`."""
    def wrap(fn: Callable[..., Instance]) -> Callable[..., Instance]:
        if name in PRESETS:
            raise ValueError(f"preset {name!r} is registered twice")
        PRESETS[name] = Preset(name, fn, paper, description, dims)
        return fn
    return wrap


def preset(name: str, **kwargs: Any) -> Instance:
    """Build the preset ``name`` (ValueError listing the known names if unknown)."""
    if name not in PRESETS:
        raise ValueError(f"preset: unknown name {name!r}; known: {sorted(PRESETS)}")
    return PRESETS[name].build(**kwargs)


DEFAULT_MEANS = (
    (0.95, 0.15), (0.85, 0.50), (0.60, 0.55), (0.45, 0.80), (0.15, 0.92),
    (0.70, 0.35), (0.40, 0.45), (0.30, 0.70), (0.55, 0.20), (0.20, 0.30),
)


@register_preset("default", paper="banditviz", dims=2,
                 description="Ten arms in 2D: five Pareto optimal, one of them (arm 2) not on the "
                             "effective (convex) front; Gaussian noise sigma = 0.5.")
def default_instance() -> Instance:
    return Instance.from_means(DEFAULT_MEANS, noise="gaussian", sigma=0.5, name="default",
                               description=PRESETS["default"].description)


@register_preset("default_3d", paper="banditviz", dims=3,
                 description="Twelve arms on and below a concave front in 3D; Gaussian noise sigma = 0.5.")
def default_3d_instance() -> Instance:
    inst = concave_front(12, 3, seed=3, sigma=0.5)
    return inst.with_changes(name="default 3D", description=PRESETS["default_3d"].description)
