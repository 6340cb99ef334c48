"""Seeded reward sampling with common random numbers.

One seed fixes three independent streams (``SeedSequence(seed).spawn(3)``, PFIwR Alg. 1
"Reproducibility"): the arms' noise, the contexts, and the policy's own randomness. The noise
stream is split further into one stream per arm, consumed in blocks: the n-th pull of arm a gets
the same noise whatever the algorithm did before, so two algorithms run with one seed see the same
noise for the same pull. Contexts are drawn one K x d block per round, in round order.
"""

from __future__ import annotations

import numpy as np

from . import _noise, seeding
from ._contexts import linear_predictions
from .instances import Instance, sample_contexts

BLOCK = 256


class Environment:
    """Draws rewards for an `Instance`; knows the truth, which the learner never sees."""

    def __init__(self, instance: Instance, seed: int) -> None:
        self.instance = instance
        noise_ss, context_ss, policy_ss = np.random.SeedSequence(seed).spawn(3)
        self.policy_rng = np.random.default_rng(policy_ss)
        self.context_rng = np.random.default_rng(context_ss)  # the contexts' stream (compiled loops draw from it)
        words = seeding.words(noise_ss, instance.K)  # arm k's stream: default_rng(noise_ss.spawn(K)[k])
        # Gaussian noise only draws standard normals: the streams are then compiled PCG64 states (`_noise`)
        normal = instance.kind != "distributions" and instance.noise == "gaussian"
        self.normal_streams = _noise.seed(words) if normal else None
        self._arm_rngs = None if normal else seeding.generators(words)
        self._buffers: list[np.ndarray | None] = [None] * instance.K
        self._pos = np.zeros(instance.K, dtype=np.int64)
        self.context: np.ndarray | None = instance.features
        self.means: np.ndarray | None = instance.means
        self.moving = instance.kind == "contextual" or instance.context_noise > 0  # contexts change every round
        if instance.context_noise > 0:  # the learner never sees the mean contexts x_k, only noisy draws
            self.next_round()

    def next_round(self) -> None:
        """Draw this round's contexts (when they move) and the reward means they imply."""
        inst = self.instance
        if inst.kind == "contextual":
            self.context = sample_contexts(self.context_rng, inst.K, inst.d, inst.context)  # type: ignore[arg-type]
        elif inst.context_noise > 0:
            ball = sample_contexts(self.context_rng, inst.K, inst.d, "uniform_ball")  # type: ignore[arg-type]
            self.context = inst.features + inst.context_noise * ball
        else:
            return
        self.means = np.empty((inst.K, inst.L))
        linear_predictions(self.context, inst.theta, self.means)  # summed in order, no BLAS (`_contexts`)

    def draws(self, arm: int, n: int) -> np.ndarray:
        """The next ``n`` raw draws of ``arm``'s stream (standard normals, uniforms or samples), as rows.

        numpy's `Generator` samplers keep no state between calls, so one call of n + m draws equals a call of n
        then one of m: buffers of any size see the same stream.
        """
        inst = self.instance
        if self.normal_streams is not None:
            out = np.empty((n, inst.L))
            _noise.fill_standard(self.normal_streams, arm, out)
            return out
        rng = self._arm_rngs[arm]  # type: ignore[index]
        if inst.kind == "distributions":
            spec = inst.distributions[arm]
            fam = spec["family"]
            if fam == "beta":
                return rng.beta(spec["a"], spec["b"], size=(n, 1))
            if fam == "bernoulli":
                return (rng.random((n, 1)) < spec["p"]).astype(float)
            return rng.uniform(spec["low"], spec["high"], size=(n, 1))
        if inst.noise == "bernoulli":
            return rng.random((n, inst.L))
        mu = inst.means[arm]  # type: ignore[index]
        c = inst.concentration
        return rng.beta(c * mu, c * (1 - mu), size=(n, inst.L))

    def _draw(self, arm: int) -> np.ndarray:
        pos = self._pos[arm] % BLOCK
        if pos == 0:
            self._buffers[arm] = self.draws(arm, BLOCK)
        self._pos[arm] += 1
        return self._buffers[arm][pos]  # type: ignore[index]

    def pull(self, arm: int) -> np.ndarray:
        """One observed reward vector (length `Instance.reward_dim`) for ``arm`` at this round."""
        return self.observe(arm, self._draw(arm))

    def fill(self, arm: int, out: np.ndarray) -> None:
        """``out`` (a C-contiguous n x `Instance.reward_dim` block) gets ``arm``'s next n rewards, the same as n
        `pull` calls; Gaussian noise is drawn and scaled in place (sigma z, then + mean: `observe`'s sums)."""
        if self.normal_streams is None:
            out[:] = self.observe(arm, self.draws(arm, len(out)))
            return
        _noise.fill(self.normal_streams, arm, out, self.instance.sigma, self.means[arm])  # type: ignore[index]

    def observe(self, arm: int, raw: np.ndarray) -> np.ndarray:
        """The rewards of ``arm`` that raw draws give (one draw, or a block of them as rows)."""
        inst = self.instance
        if inst.kind == "distributions" or inst.noise == "beta":
            return raw.copy()
        if inst.noise == "bernoulli":
            return (raw < self.means[arm]).astype(float)  # type: ignore[index]
        return self.means[arm] + inst.sigma * raw  # type: ignore[index]
