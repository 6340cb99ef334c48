"""Multi-objective linear contextual bandits minimising Pareto regret (MOL-TS: Park, Ann & Oh, NeurIPS 2025).

* ``mol_ts``: MOL-TS, Algorithm 1: M Gaussian samples per objective shared by all arms, each arm
  takes its best sample per objective (optimistic sampling, Eq. 2), then a uniform pick from the
  effective Pareto front of the sampled vectors (Eq. 3).  ``mol_ts_m1`` is the paper's M = 1 ablation.
* ``mol_ucb``: MOGLM-UCB of Lu et al. (IJCAI 2019) specialised to the linear model (MOL-TS Sec. 6 baselines).
* ``mol_eps_greedy``: MOL-epsilon-greedy (MOL-TS Sec. 6 baselines).
* ``oracle_effective`` / ``oracle_pareto`` / ``random_arm``: our reference policies (not in the
  paper, D21).  The two oracles read the true means of the round, which the engine hands only to classes
  with ``sees_truth = True`` (``problem.params["true_means"]``).

All learners share one ridge estimate with one Gram matrix for the L objectives (MOL-TS Sec. 4), updated by
Sherman-Morrison (`SharedRidge`, which also keeps the estimates and widths of fixed features): a round costs
O(K d L M + d^3) plus the front computation.
Every `RoundState` also carries theta_hat, the widths ||x_a||_{V^{-1}}, log det V and tr V^{-1} (our drawing).
Defaults (our decision): lambda = 1, delta = 0.05, R = the instance's noise sigma (D4); M from Theorem 2 (D2);
the exploration scale c = gamma = alpha c_{1,t}(delta) with alpha = 0.1 (D1: **our calibration, not the
paper's value**; conclusions depend on it, alpha = 1 is the theory radius).

Decision (spec silent), the identity context: on a fixed-means instance (kind "means", issue 26) every learner here
sees one-hot contexts x_a = e_a (d = K), so that theta^(l) is the vector of the arms' means in objective l: the
K-armed bandit as the special case of the linear model that the MOL-TS setting (Sec. 2, contexts x_{t,a} in R^d)
contains, as the authors' linear analysis reads it. The ridge then keeps per arm the shrunk mean B_a / (n_a + lambda)
and the width 1 / sqrt(n_a + lambda); the radius c_{1,t} uses d = K; every parameter keeps its default. V stays
diagonal (a one-hot Sherman-Morrison step changes one diagonal entry), so MOL-TS samples with its diagonal's square
root, which is its Cholesky factor exactly. The result is the same run, bit for bit, as on the "linear" instance
with features I_K and theta = the means (tested). Up to `MAX_IDENTITY_ARMS` arms (V is K x K).

Decision (spec silent): a `RoundState` shows what the algorithm saw when it chose the arm of round t
(theta_hat_t, V_t and the round-t contexts), so that the samples, boxes and fronts explain the pull;
``counts`` include the pull.  Boxes are cubes of half-width (radius) ||x||_{V^{-1}} (our drawing): the radius is
c for MOL-TS, gamma_t for MOL-UCB and the theory radius c_{1,t}(delta) for epsilon-greedy.
"""

from __future__ import annotations

import numpy as np

from ... import pareto, words
from .._contextual_loop import MOL_EPS_GREEDY_LOOP, MOL_TS_LOOP, MOL_UCB_LOOP
from ..base import ACTIVE, CANDIDATE, Algorithm, Param, Problem, RoundState, register
from ..estimators import SharedRidge
from .core import confidence_radius, theorem2_samples
from .front import EffectiveFrontSampler
from .sampling import cholesky_lower, optimistic_scores, sample_thetas

PAPER = "Park, Ann & Oh (NeurIPS 2025)"
KINDS = ("contextual", "linear", "means")
MAX_IDENTITY_ARMS = 500
def _indices(mask: np.ndarray) -> tuple[int, ...]:
    return tuple(int(i) for i in np.flatnonzero(mask))


def _hull(vectors: np.ndarray) -> np.ndarray | None:
    """Drawing of the effective front of ``vectors``: the 2-D upper-hull polyline or the 3-D efficient facets."""
    if vectors.shape[1] == 2:
        return pareto.upper_hull_2d(vectors)
    if vectors.shape[1] == 3:
        return pareto.efficient_facets_3d(vectors)
    return None


_RADIUS_PARAMS = (
    Param("c_mode", "scaled", "exploration scale: alpha * c_1t ('scaled'), c_1t of Theorem 2 ('theory') or c",
          choices=("scaled", "theory", "constant")),
    Param("alpha", 0.1, "multiplier of c_1t in 'scaled' mode (our calibration 0.1; 1 = theory)",
          low=0.0, high=100.0),
    Param("c", 1.0, "the constant scale in 'constant' mode", low=0.0, high=100.0),
)
_RIDGE_PARAMS = (
    Param("lam", 1.0, "ridge regulariser lambda (our decision for MOL-TS)", low=1e-6, high=1e6),
    Param("delta", 0.05, "confidence level delta of c_1t (our decision for MOL-TS)", low=1e-9, high=0.999),
)


class _MOLinear(Algorithm):
    """Shared state of the linear learners: ridge estimate, the round's contexts, estimates and widths."""

    sees_truth = False
    vector_name = ("estimate", "estimates")  # one arm's vector that the algorithm compares, and several

    def reset(self, problem: Problem, rng: np.random.Generator) -> None:
        if problem.kind not in KINDS:
            raise ValueError(f"problem: {self.spec.name} runs on instance kinds {list(KINDS)}, not {problem.kind!r}")
        if problem.kind == "means" and problem.K > MAX_IDENTITY_ARMS:
            raise ValueError(f"number of arms K: the identity contexts of a 'means' instance need K <= "
                             f"{MAX_IDENTITY_ARMS} for {self.spec.name} (d = K), got {problem.K}")
        self.identity = problem.kind == "means"  # one-hot contexts x_a = e_a (module docstring)
        self.problem, self.rng = problem, rng
        self.K, self.L = problem.K, problem.L
        self.ridge: SharedRidge | None = None  # built at the first round, when the contexts (and d) are known
        self.counts = np.zeros(self.K, dtype=np.int64)
        self.t, self.last, self.radius = 0, None, 0.0
        self.events: list[str] = []

    def c1(self, t: int) -> float:
        """c_{1,t}(delta) for this problem (R = the noise sigma the learner is told)."""
        p = self.params
        return confidence_radius(t, self.d, self.L, p.get("lam", 1.0), p.get("delta", 0.05), self.problem.sigma)

    def scale(self, t: int) -> float:
        """The exploration scale of D1: alpha c_{1,t}, c_{1,t} or the constant c."""
        mode = self.params["c_mode"]
        if mode == "constant":
            return self.params["c"]
        return self.c1(t) * (self.params["alpha"] if mode == "scaled" else 1.0)

    def _observe(self, t: int) -> None:
        """Read the round's contexts; point estimates x' theta_hat and widths ||x||_{V^{-1}} (our drawing)."""
        self.t = t
        if self.ridge is None or not self.identity:
            self.X = np.eye(self.K) if self.identity else np.asarray(self.problem.context, dtype=float)
        if self.ridge is None:
            self.d = self.X.shape[1]
            moving = self.problem.kind == "contextual" or self.problem.params.get("context_noise")
            self.fixed = self.identity or not moving
            self.ridge = SharedRidge(self.d, self.L, self.params.get("lam", 1.0), self.X if self.fixed else None)
        self.theta_hat, self.V_inv = self.ridge.theta.copy(), self.ridge.V_inv.copy()
        seen = None if self.fixed else self.X  # fixed features: the ridge keeps their estimates and widths
        self.estimates = self.ridge.predict(seen)
        self.widths = self.ridge.widths(seen)
        self.events = []

    def _pick(self, mask: np.ndarray, what: str) -> int:
        """A uniform arm of ``mask`` (uniform over arms, not weights: D9), with the sentence saying why."""
        members = np.flatnonzero(mask)
        arm = int(members[self.rng.integers(members.size)])
        if members.size == self.K:
            self.events.append(f"arm {arm} drawn uniformly from all {self.K} arms")
        elif members.size == 1:
            self.events.append(f"arm {arm}, the only arm of {what}")
        else:
            self.events.append(f"arm {arm} drawn uniformly from the {members.size} arms of {what}")
        return arm

    def update(self, arm: int, reward: np.ndarray) -> None:
        self.ridge.update(self.X[arm], np.asarray(reward, dtype=float))
        self.counts[arm] += 1
        self.last = arm

    def ranked(self) -> np.ndarray:
        """The vectors the algorithm compared this round (samples, UCB vectors or estimates)."""
        return self.estimates

    def front_mask(self, vectors: np.ndarray) -> np.ndarray:
        """The algorithm's current front of ``vectors`` (status CANDIDATE)."""
        return pareto.pareto_mask(vectors)

    def effective_mask(self, vectors: np.ndarray) -> np.ndarray:
        """The effective Pareto front of ``vectors`` (computed at snapshot rounds only, unless cached)."""
        return pareto.effective_pareto_mask(vectors)

    def state(self) -> RoundState:
        vectors = self.ranked()
        front = self.front_mask(vectors)
        half = self.radius * self.widths[:, None]
        extras = {
            "pareto_front": _indices(pareto.pareto_mask(vectors)),
            "effective_front": _indices(self.effective_mask(vectors)),
            "hull": _hull(vectors),
            "radius": self.radius,
            "widths": self.widths.copy(),
            "theta_hat": self.theta_hat,
            "log_det_V": float(-np.linalg.slogdet(self.V_inv)[1]),
            "trace_V_inv": float(np.trace(self.V_inv)),
        }
        extras.update(self.extras())
        return RoundState(
            t=self.t, estimates=self.estimates.copy(), lower=self.estimates - half, upper=self.estimates + half,
            status=np.where(front, CANDIDATE, ACTIVE).astype(np.int8), front=_indices(front), pulled=self.last,
            counts=self.counts.copy(), extras=extras,
            events=(*self.events, self._fronts_sentence(extras["pareto_front"], extras["effective_front"])),
        )

    def _fronts_sentence(self, pareto_front: tuple[int, ...], effective_front: tuple[int, ...]) -> str:
        """Why the two fronts differ: the Pareto-optimal arms that a mixture of other arms dominates."""
        one, many = self.vector_name
        n, on = len(pareto_front), len(effective_front)
        if n == 1:
            out = f"the only Pareto-optimal {one} is on the effective front"
        elif on == n:
            out = f"all {n} Pareto-optimal {many} are on the effective front"
        else:
            out = f"{on} of the {n} Pareto-optimal {many} {words.verb(on)} on the effective front"
        beaten = sorted(set(pareto_front) - set(effective_front))
        if beaten:
            out += (f"; {words.arms(beaten)} {words.verb(len(beaten))} Pareto optimal but beaten by a mixture of "
                    "other arms")
        return out

    def extras(self) -> dict:
        return {}


@register("mol_ts", paper=PAPER, task="regret", kinds=KINDS,
          params=(Param("M", 0, "samples per objective; 0 = Theorem 2's ceil(1 - log L / log 0.85)", low=0, high=64),
                  *_RADIUS_PARAMS, *_RIDGE_PARAMS),
          summary="MOL-TS: optimistic Thompson samples per objective, uniform arm of their effective Pareto front.",
          loop=MOL_TS_LOOP)
class MOLTS(_MOLinear):
    """MOL-TS (Algorithm 1): theta~ ~ N(theta_hat, c^2 V^{-1}), M per objective shared across arms (MOL-TS Alg. 1).

    mu~_{a}^(l) = max_m x_a' theta~_m^(l) (Eq. 2); a_t uniform over the effective Pareto front of mu~ (Eq. 3).
    Sampling: theta~ = theta_hat + c S z with V^{-1} = S S' (Cholesky of the symmetrised Sherman-Morrison
    inverse), z ~ N(0, I_d); M L d standard normals are drawn per round; the arithmetic is compiled in a fixed order
    (`sampling`), shared with the compiled loops (`.._linear_loop.mol_ts_arm`).  The pick: for L <= 2 one uniform
    index into the whole front (monotone chain); for L >= 3 the first effective arm of a random order of the
    Pareto front (`EffectiveFrontSampler`: the same uniform law, exact, ~6x cheaper), and the whole front is
    computed only at snapshot rounds, for the picture.
    """

    vector_name = ("sampled vector", "sampled vectors")

    def reset(self, problem: Problem, rng: np.random.Generator) -> None:
        super().reset(problem, rng)
        self.M = self.params.get("M", 1) or theorem2_samples(self.L)
        self.sampler = EffectiveFrontSampler(self.L) if self.L >= 3 else None

    def sample_parameters(self, c: float) -> np.ndarray:
        """M samples per objective, shape (L, M, d), each ~ N(theta_hat^(l), c^2 V^{-1})."""
        V_inv = self.ridge.V_inv
        z = self.rng.standard_normal((self.L, self.M, self.d))
        if self.identity:  # V^{-1} diagonal: its Cholesky factor is the diagonal's square root (O(d), not O(d^3))
            return self.ridge.theta.T[:, None, :] + c * (z * np.sqrt(np.diag(V_inv)))
        S = np.empty((self.d, self.d))
        if not cholesky_lower(V_inv, S):
            raise np.linalg.LinAlgError("V^{-1} is not positive definite")
        out = np.empty_like(z)
        sample_thetas(self.ridge.theta, S, z, c, out)
        return out

    def select(self, t: int) -> int:
        self._observe(t)
        self.radius = self.scale(t)
        self.theta_samples = self.sample_parameters(self.radius)
        self.samples = np.empty((self.K, self.L))  # the winners' scores
        self.winner = np.empty((self.K, self.L), dtype=np.int64)
        optimistic_scores(np.ascontiguousarray(self.X, dtype=float), self.theta_samples, self.samples, self.winner)
        best = "the best of " if self.M > 1 else ""
        what = (f"the effective Pareto front of the sampled vectors ({best}M = {words.count(self.M, 'sample')} per "
                f"objective, sampling scale {self.radius:.3g})")
        if self.sampler is None:  # L <= 2: the whole front by the monotone chain is cheap
            self.effective = pareto.effective_pareto_mask(self.samples)
            return self._pick(self.effective, what)
        self.effective = None  # computed only if a snapshot asks for it
        arm = self.sampler.draw(self.samples, self.rng)
        self.events.append(f"arm {arm} drawn uniformly from {what}")
        return arm

    def ranked(self) -> np.ndarray:
        return self.samples

    def front_mask(self, vectors: np.ndarray) -> np.ndarray:
        return self.effective_mask(vectors)

    def effective_mask(self, vectors: np.ndarray) -> np.ndarray:
        if self.effective is None:
            self.effective = pareto.effective_pareto_mask(self.samples)
        return self.effective

    def extras(self) -> dict:
        return {"samples": self.samples.copy(), "theta_samples": self.theta_samples.copy(),
                "winning_sample": self.winner.copy(), "M": self.M}


@register("mol_ts_m1", paper=PAPER, task="regret", kinds=KINDS, params=(*_RADIUS_PARAMS, *_RIDGE_PARAMS),
          summary="MOL-TS without optimistic sampling (M = 1): the paper's ablation (Fig. 2, right column).",
          loop=MOL_TS_LOOP)
class MOLTSNoOptimism(MOLTS):
    """MOL-TS with M = 1: one plain Thompson sample per objective (MOL-TS Sec. 6); otherwise unchanged."""


@register("mol_ucb", paper="Lu et al. (IJCAI 2019), as the baseline of " + PAPER, task="regret", kinds=KINDS,
          params=(*_RADIUS_PARAMS, *_RIDGE_PARAMS),
          summary="MOL-UCB: uniform arm of the plain Pareto front of the UCB vectors (box corners).",
          loop=MOL_UCB_LOOP)
class MOLUCB(_MOLinear):
    """MOL-UCB (MOL-TS Sec. 6): U_a = x_a' theta_hat + gamma_t ||x_a||_{V^{-1}} per objective, gamma_t = alpha c_1t."""

    vector_name = ("optimistic vector", "optimistic vectors")

    def select(self, t: int) -> int:
        self._observe(t)
        self.radius = self.scale(t)
        self.ucb = self.estimates + self.radius * self.widths[:, None]
        return self._pick(pareto.pareto_mask(self.ucb), f"the Pareto front of the optimistic vectors (upper "
                                                        f"confidence bounds, confidence radius {self.radius:.3g})")

    def ranked(self) -> np.ndarray:
        return self.ucb

    def extras(self) -> dict:
        return {"samples": self.ucb.copy()}


@register("mol_eps_greedy", paper=PAPER + ", baseline", task="regret", kinds=KINDS,
          params=(Param("epsilon", 0.05, "probability of a uniformly random arm (MOL-TS Sec. 6)", low=0.0, high=1.0),
                  Param("exploit_set", "pareto", "exploit uniformly over the Pareto or the effective front "
                        "of the estimates", choices=("pareto", "effective")),
                  *_RIDGE_PARAMS),
          summary="MOL-epsilon-greedy: a random arm with probability epsilon, else one of the estimates' front.",
          loop=MOL_EPS_GREEDY_LOOP)
class MOLEpsGreedy(_MOLinear):
    """MOL-epsilon-greedy (MOL-TS Sec. 6 baselines): epsilon fixed; exploit over the plain Pareto front of x' theta_hat.

    One uniform number is drawn every round (explore or not), then one uniform index.
    """

    def select(self, t: int) -> int:
        self._observe(t)
        self.radius = self.c1(t)
        self.explored = bool(self.rng.random() < self.params["epsilon"])
        if self.explored:
            self.events.append(f"exploration (probability {self.params['epsilon']:g})")
            return self._pick(np.ones(self.K, dtype=bool), "all arms")
        which = "Pareto" if self.params["exploit_set"] == "pareto" else "effective Pareto"
        return self._pick(self.front_mask(self.estimates), f"the {which} front of the estimates")

    def front_mask(self, vectors: np.ndarray) -> np.ndarray:
        if self.params["exploit_set"] == "effective":
            return pareto.effective_pareto_mask(vectors)
        return pareto.pareto_mask(vectors)

    def extras(self) -> dict:
        return {"explored": self.explored}


class _Reference(_MOLinear):
    """Our reference policies: a uniform arm of a set; the RLS estimate is kept only for the picture."""

    what = "all arms"

    def candidates(self) -> np.ndarray:
        return np.ones(self.K, dtype=bool)

    def select(self, t: int) -> int:
        self._observe(t)
        self.radius = self.c1(t)
        self.mask = self.candidates()
        return self._pick(self.mask, self.what)

    def front_mask(self, vectors: np.ndarray) -> np.ndarray:
        return self.mask


class _Oracle(_Reference):
    """Knows the round's true means (``problem.params['true_means']``, given by the engine to such classes)."""

    sees_truth = True
    vector_name = ("true mean vector", "true mean vectors")

    def truth(self) -> np.ndarray:
        means = self.problem.params.get("true_means")
        if means is None:
            raise ValueError(f"problem: {self.spec.name} is an oracle and needs the engine to pass the true means")
        return np.asarray(means)

    def ranked(self) -> np.ndarray:
        return self.truth()


@register("oracle_effective", paper="reference policy (ours, not in the MOL-TS paper)", task="regret", kinds=KINDS,
          summary="Oracle-C: a uniform arm of the true effective Pareto front (effective regret 0).")
class OracleEffective(_Oracle):
    """Oracle-C (ours): uniform over the true C*_t; its effective Pareto regret is 0."""

    what = "the true effective Pareto front"

    def candidates(self) -> np.ndarray:
        return pareto.effective_pareto_mask(self.truth())


@register("oracle_pareto", paper="reference policy (ours, not in the MOL-TS paper)", task="regret", kinds=KINDS,
          summary="Oracle-P: a uniform arm of the true Pareto front (Pareto regret 0, effective regret > 0).")
class OraclePareto(_Oracle):
    """Oracle-P (ours): uniform over the true P*_t; its Pareto regret is 0 but not its effective regret."""

    what = "the true Pareto front"

    def candidates(self) -> np.ndarray:
        return pareto.pareto_mask(self.truth())


@register("random_arm", paper="reference policy (ours, not in the MOL-TS paper)", task="regret", kinds=KINDS,
          summary="Random: a uniform arm every round.")
class RandomArm(_Reference):
    """Random (ours): uniform over all arms."""
