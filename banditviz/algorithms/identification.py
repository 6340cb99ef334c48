"""Shared machinery of the Pareto set identification algorithms (PFIwR, LinPSI).

* `features_of`: arm features from the `Problem` (K x h for linear instances; canonical e_k for fixed
  means, the reduction of LinPSI Sec. 3.2, Alg. 2 "Relation to EGE-SH" and PFIwR Sec. 3).
* `dominance_matrix`, `empirical_gaps`: the primitives of LinPSI Sec. 2.1 on estimated means.
* `BatchedIdentifier`: an identification algorithm that plans its pulls a batch (phase, racing round)
  at a time.  The engine drives it pull by pull: ``select`` pops the next planned arm, ``update``
  accumulates, and the batch is processed right after its last pull.  It keeps the per-arm status
  (active / accepted / rejected), estimates, confidence boxes and the events of the last batch, and
  builds the `RoundState` only when the engine asks for one.
* `BatchLoop` (`BATCHES`): their `Loop`, which plays each stretch of planned pulls at once.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .. import words
from ..pareto import pareto_mask, psi_gaps
from .base import ACCEPTED, ACTIVE, REJECTED, Algorithm, Param, Played, Problem, RoundState

ID_KINDS = ("means", "linear")
BUDGET = Param("budget", 0, "total pulls T of the fixed budget (0: the run's horizon)", low=0, high=10_000_000)


def features_of(problem: Problem) -> np.ndarray:
    """K x h features: the instance's (linear kind) or the canonical basis (fixed means)."""
    if problem.context is None:
        return np.eye(problem.K)
    return np.asarray(problem.context, dtype=float)


def dominance_matrix(mu: np.ndarray) -> np.ndarray:
    """Mm[i, j] = M(i, j) = max_c (mu_i - mu_j)(c) (LinPSI Sec. 2.1); m(i, j) = -Mm[i, j]."""
    Mm = mu[:, None, 0] - mu[None, :, 0]
    for c in range(1, mu.shape[1]):
        np.maximum(Mm, mu[:, None, c] - mu[None, :, c], out=Mm)
    return Mm


def empirical_gaps(mu: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(gaps, S): the empirical PSI gaps of eq. (5) (j-index fix: our decision for LinPSI) and the empirical
    Pareto set of the rows of ``mu`` (Pareto dominance, our decision for LinPSI)."""
    S = pareto_mask(mu)
    return psi_gaps(mu, S), S


def halving_order(A: np.ndarray, gaps: np.ndarray, S: np.ndarray) -> np.ndarray:
    """Positions of the arms A sorted for keeping: by gap rounded to 12 decimals, then empirically optimal
    before dominated, then index (the exact tie-break key: our decision for LinPSI)."""
    return np.lexsort((A, ~S, np.round(gaps, 12)))


def fmt_set(arms: Any) -> str:
    """``{0, 2, 5}``, or "no arm" for the empty set."""
    return words.arm_set(arms)


class BatchedIdentifier(Algorithm):
    """Base of the batch-wise identification algorithms (see the module docstring).

    A pull only stores its reward; the batch's statistics are absorbed at once after its last pull
    (`absorb`), so a pull costs O(L).  Estimates and boxes therefore change at batch ends.
    """

    def reset(self, problem: Problem, rng: np.random.Generator) -> None:
        self.K, self.L, self.sigma = problem.K, problem.L, problem.sigma
        self.problem = problem
        self.rng = rng
        self.done = False
        self.recommendation = None
        self.counts = np.zeros(self.K, dtype=np.int64)
        self.estimates = np.full((self.K, self.L), np.nan)
        self.lower = np.full((self.K, self.L), -np.inf)
        self.upper = np.full((self.K, self.L), np.inf)
        self.status = np.full(self.K, ACTIVE, dtype=np.int8)
        self.batch = 0
        self.t = 0
        self.extras: dict[str, Any] = {}
        self.events: list[str] = []
        self.event_round = 0
        self._queue: list[int] = []
        self._planned = 0
        self._pos = 0
        self._closed: tuple[int, int, int] | None = None  # (batch, size, last arm) of the last closed batch

    # ------------------------------------------------------------------ engine contract
    def select(self, t: int) -> int:
        self.t = t
        return self._queue[self._pos]

    def update(self, arm: int, reward: np.ndarray) -> None:
        self._buf[self._pos] = reward
        self._pos += 1
        if self._pos == self._size and self._size == self._planned:
            arms = self._arms
            self.counts += np.bincount(arms, minlength=self.K)
            self._closed = (self.batch, self._size, int(arms[-1]))
            self.events = []
            self.event_round = self.t
            self.absorb(arms, self._buf)
            self.end_batch()

    def pending(self) -> np.ndarray:
        """The pulls still planned in the current batch, in order (the next `select` returns the first)."""
        return self._arms[self._pos:]

    def update_many(self, t: int, rewards: np.ndarray) -> None:
        """Rounds t - n + 1 .. t at once: the next n planned pulls got ``rewards`` (n x L); the same as n
        ``select``/``update`` calls (the engine's fast loop for batch-wise algorithms)."""
        n = len(rewards)
        self._buf[self._pos:self._pos + n - 1] = rewards[:-1]
        self._pos += n - 1
        self.update(self.select(t), rewards[-1])

    def state(self) -> RoundState:
        events = tuple(self.events) if self.event_round == self.t else ()
        counts, last = self.counts, None
        if self._pos > 0 and not self.done:
            counts = counts + np.bincount(self._arms[:self._pos], minlength=self.K)
            last = self._queue[self._pos - 1]
            events = (self.pull_sentence(last, self.batch, self._pos, self._planned),) + events
        elif self._closed is not None:
            batch, size, last = self._closed
            events = (self.pull_sentence(last, batch, size, size),) + events
        front = self.recommendation if self.recommendation is not None else ()
        extras = dict(self.extras)
        extras.update(round=self.batch, pulls_in_round=self._pos, round_size=self._planned)
        return RoundState(t=self.t, estimates=self.estimates.copy(), lower=self.lower.copy(),
                          upper=self.upper.copy(), status=self.status.copy(), front=tuple(front),
                          pulled=last, counts=counts.copy(), extras=extras, events=events)

    # ------------------------------------------------------------------ for subclasses
    def start_batch(self, sequence: np.ndarray, planned: int | None = None) -> None:
        """Plan the next batch of pulls (a non-empty arm sequence). ``planned`` (default: the sequence's length) is
        the batch's size when ``sequence`` is only its first pulls, those the run can still make: the run ends
        inside the batch, which then never ends (an estimate on part of its design would be one the algorithm
        never makes; GEGE's could not even be computed: its design's span not yet sampled)."""
        self._arms = np.asarray(sequence, dtype=np.int64)
        self._queue = self._arms.tolist()
        self._size = len(self._queue)
        self._planned = self._size if planned is None else int(planned)
        if not self._size:
            raise RuntimeError(f"{type(self).__name__}: planned an empty batch")
        self.batch += 1
        self._buf = np.empty((self._size, self.L))
        self._pos = 0

    def finish(self, recommendation: Any, why: str) -> None:
        self.done = True
        self.recommendation = tuple(sorted(int(a) for a in recommendation))
        self.events.append(f"stop: {why}; recommended Pareto set: {fmt_set(self.recommendation)}")

    def classify(self, accepted: Any, rejected: Any, reason: dict[int, str]) -> None:
        """Mark arms accepted / rejected, with one event sentence each."""
        for arms, status, verb, default in ((accepted, ACCEPTED, "accepted", "classified as Pareto optimal"),
                                            (rejected, REJECTED, "rejected", "classified as dominated")):
            arms = np.asarray(arms, dtype=np.int64).tolist()
            self.status[arms] = status
            self.events.extend(f"arm {a} {verb}: {reason.get(a, default)}" for a in arms)

    def absorb(self, arms: np.ndarray, rewards: np.ndarray) -> None:
        """Take in one finished batch: the pulled arms in order and their rewards (n x L)."""
        raise NotImplementedError

    def end_batch(self) -> None:
        raise NotImplementedError

    def pull_sentence(self, arm: int, batch: int, pos: int, size: int) -> str:
        return f"batch {batch}: arm {arm} pulled (pull {pos:,} of the {size:,} planned in this batch)"


class BatchLoop:
    """The `Loop` of the batch-wise identifiers (`BatchedIdentifier`): each stretch of planned pulls up to the batch's
    end (or a snapshot round, or the horizon) in one step, with the rewards of one pull each
    (`banditviz.rewards.RewardBuffer.take_many`); fixed features, any number of snapshots. The answer can change only
    at a batch's last pull, so the rounds of a stretch but its last keep the answer it started with."""

    compiled = False  # Python and numpy: runs on several threads take turns

    def supports(self, kind: str, params: dict[str, Any], snapshots: int) -> bool:
        return kind in ID_KINDS

    def play(self, alg: Algorithm, rewards: Any, horizon: int, snap_at: np.ndarray) -> Played:
        arms, got = np.empty(horizon, dtype=np.int64), np.empty((horizon, rewards.buf.shape[2]))
        states: list[RoundState] = []
        changes: list[tuple[int, tuple[int, ...] | None]] = []
        snap, ahead = set(snap_at.tolist()), snap_at.tolist()
        t = 0
        while t < horizon and not alg.done:
            while ahead and ahead[0] <= t:
                ahead.pop(0)
            planned = alg.pending()[:(ahead[0] if ahead else horizon) - t]
            n = len(planned)
            if t == 0 and n > 1:  # rounds 1..n-1 keep the answer before the stretch's last pull
                changes.append((1, alg.recommendation))
            stretch = rewards.take_many(planned)
            alg.update_many(t + n, stretch)
            arms[t:t + n], got[t:t + n] = planned, stretch
            t += n
            if not changes or alg.recommendation != changes[-1][1]:
                changes.append((t, alg.recommendation))
            if t in snap or (alg.done and snap):
                states.append(alg.state())
        return Played(arms[:t], got[:t], states, changes)


BATCHES = BatchLoop()


class EmpiricalIdentifier(BatchedIdentifier):
    """Unstructured baselines: per-arm reward sums and sample means (features ignored).  Their boxes are
    display-only and computed when a snapshot is taken: Hoeffding mu_hat_i +- sigma sqrt(2 log(2 L K /
    0.05) / T_i) (LinPSI Sec. 3) unless a subclass overrides `display_half`."""

    BOX_DELTA = 0.05

    def reset(self, problem: Problem, rng: np.random.Generator) -> None:
        super().reset(problem, rng)
        self.sums = np.zeros((self.K, self.L))
        self.active = np.arange(self.K)
        self.accepted: list[int] = []

    def absorb(self, arms: np.ndarray, rewards: np.ndarray) -> None:
        np.add.at(self.sums, arms, rewards)

    def sample_means(self) -> np.ndarray:
        """K x L sample means (NaN for arms never pulled)."""
        seen = self.counts > 0
        mu = np.full((self.K, self.L), np.nan)
        mu[seen] = self.sums[seen] / self.counts[seen, None]
        return mu

    def display_half(self) -> np.ndarray:
        return self.sigma * np.sqrt(2 * np.log(2 * self.L * self.K / self.BOX_DELTA) / np.maximum(self.counts, 1))

    def refresh_display(self) -> None:
        mu = self.sample_means()
        half = self.display_half()[:, None]
        seen = (self.counts > 0)[:, None]
        self.estimates = mu
        self.lower = np.where(seen, mu - half, -np.inf)
        self.upper = np.where(seen, mu + half, np.inf)

    def state(self) -> RoundState:
        self.refresh_display()
        return super().state()
