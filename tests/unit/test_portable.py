"""Every preset and generator is the same instance, bit for bit, on every machine.

The checksums below are sha256 digests of the float64 little-endian bytes of an instance's means,
features and theta (those it has). They were computed once; a machine whose LAPACK, BLAS or vector math
library splits a factorisation, orders a sum or rounds a power differently would change them. The
constructions avoid all three (see `instances.linear_means`, `instances.sample_contexts`,
`presets.pfiwr.equicorrelated_normal`, `presets.linpsi.least_squares`).
"""

from __future__ import annotations

import hashlib
from functools import lru_cache
from pathlib import Path

import numpy as np
import pytest

import banditviz as bv
from banditviz.instances import (
    PRESETS,
    concave_front,
    convex_front,
    linear_means,
    random_contextual,
    random_linear,
    sample_contexts,
    uniform_box,
)
from banditviz.presets.linpsi import least_squares, noc_arrays
from banditviz.presets.pfiwr import equicorrelated_normal
from banditviz.presets.ramgape import random_pairs

NOC_DIGEST = "593c6fe50b3e365a649f8f72a2f7f7f86d106306e8425d06a49ef812b2295960"  # features and theta of the NoC fit
NOC_CSV = Path(__file__).resolve().parents[2].parent / "shared" / "data" / "noc_CM_log.csv"


def digest(*arrays: np.ndarray | None) -> str:
    h = hashlib.sha256()
    for a in arrays:
        if a is not None:
            h.update(np.ascontiguousarray(a, dtype="<f8").tobytes())
    return h.hexdigest()


def instance_digest(inst: bv.Instance) -> str:
    return digest(inst.means, inst.features, inst.theta)


# (preset, keyword arguments) -> digest
PRESET_DIGESTS: dict[tuple[str, tuple[tuple[str, object], ...]], str] = {
    ('default', ()): "957fe8fb96a0cda8fee57fd16722de1d548ad7c38e386ac342883fbd7c25a1f9",
    ('default_3d', ()): "debf2de9423b6b1642405abe57ef9e121dbfea69d7a0de7b78a3a117f5953b4f",
    ('risk_averse_table1', ()): "05582e20b846ea0b9f618a732619809a5ffff25648ac2bc7488bb6887e722e80",
    ('risk_averse_table2', ()): "d0f229183be411041419a3c570cb3c8350962d7f97f4d6a8b1dc223670c31d79",
    ('risk_averse_table3', ()): "c21ec0cd683169a33fc22fb2be5a71952669bbe28c98e9911d3a04ebf4135cd3",
    ('risk_averse_random', ()): "158b7b20b760d1a533aa70a380a9c8c3b8c1163eba08b53f8046e1ffc4eb4356",
    ('risk_averse_easy', ()): "ddabe27ee0f00198efde589acc34f46316af9f113a925595822cedf2302c36d8",
    ('mol_ts_main', ()): "fdb2c4ecc025d643082b9db3d134fa96e739c24e4beb1dc41468a73c4fce4336",
    ('mol_ts_fig3', ()): "6c5b4a3989d834a1bb2d82361d009bdeda3f7f7dfa7e87522e7a7a8f2cefa2d1",
    ('mol_ts_fig4', ()): "fdb2c4ecc025d643082b9db3d134fa96e739c24e4beb1dc41468a73c4fce4336",
    ('mol_ts_fig5', ()): "6c5b4a3989d834a1bb2d82361d009bdeda3f7f7dfa7e87522e7a7a8f2cefa2d1",
    ('mol_ts_fig6', ()): "b48256be95deb824800e45d9724018e545fa92ea0c46128f9959ed7bd8d805bf",
    ('mol_ts_fig7', ()): "6c5b4a3989d834a1bb2d82361d009bdeda3f7f7dfa7e87522e7a7a8f2cefa2d1",
    ('mol_ts_fig8', ()): "b48256be95deb824800e45d9724018e545fa92ea0c46128f9959ed7bd8d805bf",
    ('mol_ts_fig9', ()): "abda2572c1f36cede18fc9e938999ac8b3c6ba33c2ffd88a09287ac9aaad2f10",
    ('mol_ts_fig10', ()): "cbfe87cba598d249a300c106047970cc0f2dbb85032d8200bcf6753582cac784",
    ('mol_ts_fig11', ()): "84394cd56f4cb480ce772ac29656dfaeafd75d754fed0d691e0dec75f4afe023",
    ('mol_ts_fig12', ()): "5d20f962f1377c1b0cb9bee69b4089a70c19de120ed1034f3792d886061e47cf",
    ('mol_ts_2d', ()): "301d4e104f3d2f64a6c39eed66975a6a2d9deacf64f5932afee4be4dcefbe35b",
    ('mol_ts_3d', ()): "74ef4d0a5923c0968143d80ff601ca3bd047544fde08a440fa151784b2eb70d5",
    ('mol_ts_figure1', ()): "6c382b62fd9c33c28ac3d801eb976a08565f0b404624fe2e4630afbe9f7b2eb6",
    ('lexicographic_lambda_0.1', ()): "eab4c2fa4debffaee534843b2d244fef4eef888a03fc46bfb30e47363e385d6b",
    ('lexicographic_lambda_10', ()): "7030c4ac73696377bfcfe1336ad51c3ddc32e35a6e37f293b8b757d50b99a5e4",
    ('psi_synthetic', ()): "2d892d8a22aa8d15fb0037aa483cda9558981d391bcda1c2c037ce9b9be2121f",
    ('psi_gap_example', ()): "431c118d9d890b0580843812d169908ec4065d32864b9e32791fc15b397be0f8",
    ('pfi_toy', ()): "d48504b7fd742906cf289b82690c9cafa37b2ef521656ec86157c3235cf64635",
    ('pfi_sensitivity', ()): "04d15ea31ac1b2a84658c7ffc97320727b0359f1e448041ac93d90d81333eeb3",
    ('pfi_mab', ()): "4e18474614a6b395f64b78163c17696555c168aab939460d31b1b7c66926469b",
    ('pfi_llvm_like', ()): "c2c111cda55aaa22da688607d5574defd5f88414a6a956c8cdf857a0934fa8dc",
    ('snw', ()): "0e710d4de193c7d10070fb332fa03c1ef6fad1bb1e29f8c2cd3a3d292a288e2c",
    ('disc_brake', ()): "9bcc74663bfff4aec4d594f53eb6e9c949f50a1db2d28fbd6060ab19059eefc9",
    ('vehicle_safety', ()): "f99016a4afa851a6699216ff2604be4b5a50eba25c2bd48b37e5f0aeebc50caa",
    ('fairness', ()): "0fa654b16a7ab1cae32f51711c2c89c3a8eb580c8c98635e2572ed8c4ebb94c8",
    ('pfi_sensitivity', (('seed', 1),)): "603673a2911ed66008b563edf79281694197c6dceabc6c42d7953735a93de3f4",
    ('pfi_sensitivity', (('seed', 2),)): "ff4bc213696a4620117600d5a3a193dd4424b2105f1f662244378ac025072d81",
    ('psi_synthetic', (('K', 8),)): "8afe694e39f0e320d731b18f73ba0e5cb73210f9dd67e116ef7ee1a4c578a953",
    ('psi_synthetic', (('K', 64),)): "467cf4598a97506d89189661fdf4047878c897275d79a76a4932b0b75eed6d85",
    ('risk_averse_table3', (('pattern', 1),)): "1f1e3a1c0d649ca2310d9399bad875118d208e549995f2775ef1d6e7cfdcfa2a",
    ('risk_averse_table3', (('pattern', 46),)): "7dc6d899a6068d9181dfaa7bac58ef938556ba531bc31c8b911171374d0ddaba",
    ('risk_averse_table3', (('pattern', 50),)): "5d0dcd311f7b27cc43c9236726a035e11e88801ce1ba5db000b578a93f81a044",
    ('mol_ts_fig11', (('seed', 3),)): "6a6904a4a40dc3c221291fe29e23077cf2520f8f6a8cf4ee5cc0aab0ed5f994c",
}

# generator call -> digest
GENERATOR_DIGESTS: dict[str, str] = {
    'uniform_box(12, 3, seed=1)': "99eb824bf2169ac872316e7838feaa46f35c98290bb7d794092290dba7862ca0",
    'concave_front(12, 3, seed=1)': "16d50c16bb73455e9d29255be0d0fff5e5c465b3dcb22e060ae4041c41bb2eac",
    'convex_front(12, 3, seed=1)': "da2e769a147a675eb577e11c91c221ce1b18bedd34f39084c3d8b5898949517f",
    'random_linear(20, 4, 3, seed=1)': "6a4bfc2fda407d5ee2370315b4e6cd1e238688b1f056dfe14c7472e676ad5921",
    'random_contextual(15, 4, 3, seed=1)': "7d7d71ff28245ca9de5b46170508911bdfcbd6373abf1f635406bb9fdc76a07d",
    'sample_contexts(rng 0, 9, 1, uniform_ball)': "3743ba9f6b74a9fc8525a698f44e12684a1a11b17f0079d51c13825be0e05445",
    'sample_contexts(rng 0, 9, 3, uniform_ball)': "a79d21b9fdc818fb5a1d7d48ba96e2a968434e79b0911bfb230214e71c785411",
    'sample_contexts(rng 0, 9, 7, uniform_ball)': "37750f1474a405a0b9276c205c6e73e2395b99d7d1e38e2177ad5a3cf7dcc629",
    'sample_contexts(rng 0, 9, 1, unit_sphere)': "5787782ff0e125c2475a4fceb07369d2b4ccfef0b4711d41a56da7440e459b63",
    'sample_contexts(rng 0, 9, 3, unit_sphere)': "34630a343b5f0cf30a64035198893451604e75dc340828c82e8c7f904e4bd44c",
    'sample_contexts(rng 0, 9, 7, unit_sphere)': "57cdf5e187371cf071bb3125b86caf662fe001eb7574dd5946bf8c697a1f4a1a",
    'sample_contexts(rng 0, 9, 1, clipped)': "4128850df7175f94d3f102ac79df3e0552c4fb854c0ff56a3257d20fed5a7a44",
    'sample_contexts(rng 0, 9, 3, clipped)': "bfbcce746a82d753133f36ee6dba473062093876b6573804d047ce961ad175e6",
    'sample_contexts(rng 0, 9, 7, clipped)': "57cdf5e187371cf071bb3125b86caf662fe001eb7574dd5946bf8c697a1f4a1a",
    'random_pairs(20, seed=3)': "b4fe935d907dba5ed5b2173c7ce6cf902a853e8ab96bc401b4087869b27dbdb6",
    'equicorrelated_normal(rng 0, 10, 10, 0.5)': "f727cb68109bfeacfd7766aa8f2d0e263d5e51ff75d5bd5e8bb860bf4ca98264",
}


def _builds() -> dict[tuple[str, tuple[tuple[str, object], ...]], bv.Instance]:
    out = {}
    for name in PRESETS:
        if name != "noc":
            out[(name, ())] = bv.preset(name)
    for seed in (1, 2):
        out[("pfi_sensitivity", (("seed", seed),))] = bv.preset("pfi_sensitivity", seed=seed)
    for K in (8, 64):
        out[("psi_synthetic", (("K", K),))] = bv.preset("psi_synthetic", K=K)
    for pattern in (1, 46, 50):
        out[("risk_averse_table3", (("pattern", pattern),))] = bv.preset("risk_averse_table3", pattern=pattern)
    out[("mol_ts_fig11", (("seed", 3),))] = bv.preset("mol_ts_fig11", seed=3)
    return out


@lru_cache(maxsize=1)
def _generators() -> dict[str, np.ndarray | tuple[np.ndarray | None, ...]]:
    out: dict[str, np.ndarray | tuple[np.ndarray | None, ...]] = {}
    for fn in (uniform_box, concave_front, convex_front):
        inst = fn(12, 3, seed=1)
        out[f"{fn.__name__}(12, 3, seed=1)"] = (inst.means,)
    inst = random_linear(20, 4, 3, seed=1)
    out["random_linear(20, 4, 3, seed=1)"] = (inst.means, inst.features, inst.theta)
    out["random_contextual(15, 4, 3, seed=1)"] = (random_contextual(15, 4, 3, seed=1).theta,)
    for kind in ("uniform_ball", "unit_sphere", "gaussian_clipped"):
        for d in (1, 3, 7):
            key = f"sample_contexts(rng 0, 9, {d}, {kind.removeprefix('gaussian_')})"
            out[key] = (sample_contexts(np.random.default_rng(0), 9, d, kind),)
    out["random_pairs(20, seed=3)"] = (np.array(random_pairs(20, seed=3)),)
    out["equicorrelated_normal(rng 0, 10, 10, 0.5)"] = (equicorrelated_normal(np.random.default_rng(0), 10, 10, 0.5),)
    return out


@pytest.mark.parametrize("key", list(PRESET_DIGESTS), ids=lambda k: f"{k[0]}{dict(k[1]) or ''}")
def test_preset_is_the_same_bit_for_bit(key) -> None:
    name, kwargs = key
    assert instance_digest(bv.preset(name, **dict(kwargs))) == PRESET_DIGESTS[key]


def test_every_preset_has_a_pinned_checksum() -> None:
    pinned = {name for name, _ in PRESET_DIGESTS} | {"noc"}
    assert set(PRESETS) <= pinned, f"pin the checksum of {sorted(set(PRESETS) - pinned)} here"


@pytest.mark.parametrize("call", list(GENERATOR_DIGESTS))
def test_generator_is_the_same_bit_for_bit(call) -> None:
    assert digest(*_generators()[call]) == GENERATOR_DIGESTS[call]


@pytest.mark.skipif(not NOC_CSV.is_file(), reason="NoC data not found next to the repository")
def test_noc_fit_is_the_same_bit_for_bit() -> None:
    X, theta, raw = noc_arrays(NOC_CSV)
    assert digest(X, theta) == NOC_DIGEST
    np.testing.assert_allclose(theta, np.linalg.lstsq(X, raw[:, 4:], rcond=None)[0], rtol=0, atol=1e-10)


def test_portable_constructions_agree_with_numpy() -> None:
    """The fixed-order products and the scalar Cholesky solve agree with BLAS/LAPACK to rounding."""
    rng = np.random.default_rng(5)
    X, theta = rng.normal(size=(30, 6)), rng.normal(size=(6, 3))
    np.testing.assert_allclose(linear_means(X, theta), X @ theta, rtol=0, atol=1e-12)
    Y = rng.normal(size=(30, 2))
    np.testing.assert_allclose(least_squares(X, Y), np.linalg.lstsq(X, Y, rcond=None)[0], rtol=0, atol=1e-12)


def test_equicorrelated_draws_have_the_asked_covariance() -> None:
    draws = equicorrelated_normal(np.random.default_rng(0), 5, 40_000, 0.5)
    np.testing.assert_allclose(np.cov(draws.T), 0.5 * np.eye(5) + 0.5, rtol=0, atol=0.03)
