"""Instance validation, JSON round trip, generators and presets."""

import json

import numpy as np
import pytest

from banditviz import PRESETS, Instance, preset
from banditviz.instances import (
    concave_front,
    convex_front,
    random_contextual,
    random_linear,
    sample_contexts,
    uniform_box,
)


@pytest.mark.parametrize(
    ("build", "field"),
    [
        (lambda: Instance.from_means([[0.1, np.nan], [0.2, 0.3]]), "means"),
        (lambda: Instance.from_means([[0.1, 0.2]]), "number of arms K"),
        (lambda: Instance.from_means([0.1, 0.2, 0.3]), "means"),
        (lambda: Instance.from_means([[0.1, 0.2], [0.3]]), "means"),
        (lambda: Instance.from_means([[0.1, 0.2], [0.3, 0.4]], sigma=-1.0), "sigma"),
        (lambda: Instance.from_means([[0.1, 0.2], [0.3, 0.4]], sigma=0.0), "sigma"),
        (lambda: Instance.from_means([[0.1, 1.2], [0.3, 0.4]], noise="bernoulli"), "means"),
        (lambda: Instance.from_means([[0.0, 0.5], [0.3, 0.4]], noise="beta"), "means"),
        (lambda: Instance.from_means([[0.1, 0.2], [0.3, 0.4]], noise="cauchy"), "noise"),
        (lambda: Instance.from_means([[0.1, 0.2], [0.3, 0.4]], directions=["up", "max"]), "directions"),
        (lambda: Instance.from_means([[0.1, 0.2], [0.3, 0.4]], arm_names=["a"]), "arm_names"),
        (lambda: Instance.from_linear(np.ones((3, 2)), np.ones((3, 2))), "theta"),
        (lambda: Instance.from_contextual(np.ones((2, 2)), n_arms=1), "n_arms"),
        (lambda: Instance.from_contextual(np.ones((2, 2)), n_arms=3, context="cube"), "context"),
        (lambda: Instance.from_distributions([{"family": "beta", "a": 1, "b": 1}]), "distributions"),
        (lambda: Instance.from_distributions([{"family": "bernoulli", "p": 1.5}] * 2), "distributions[0].p"),
        (lambda: Instance.from_distributions([{"family": "gamma", "k": 1}] * 2), "distributions[0]"),
    ],
)
def test_bad_input_names_the_field(build, field):
    with pytest.raises(ValueError, match=field.replace("[", r"\[").replace("]", r"\]")):
        build()


@pytest.mark.parametrize(
    ("text", "field"),
    [
        ("[1, 2]", "must be an object"),
        ('{"kind": "means", "means": [[1, 2], [3, 4]], "colour": "red"}', "unknown field"),
        ('{"kind": "wavy"}', "kind"),
        ('{"kind": "means"}', "means: missing"),
        ('{"kind": "means", "means": [[1, 2], [3, NaN]]}', "NaN is not allowed"),
        ('{"kind": "means", "means": [[1, 2], [3, "4"]], "sigma": 1}', "means"),
        ('{"kind": "means", "means": [[1, 2], [3, 4]], "sigma": "1"}', "sigma"),
        ('{"kind": "means", "means": [[1, 2], [3, 4]], "schema_version": 7}', "schema_version"),
        ('{"kind": "means", "means": [[1, 2], [3, 4]], "rho": 0.1}', "do not apply"),
        ("{not json", "not valid JSON"),
        ("[" * 100000 + "]" * 100000, "nested too deeply|not valid JSON"),
    ],
)
def test_bad_json_names_the_problem(text, field):
    with pytest.raises(ValueError, match=field):
        Instance.from_json(text)


def test_binary_upload_is_a_value_error():
    with pytest.raises(ValueError, match="UTF-8"):
        Instance.from_json(b"\x89PNG\r\n\x1a\n\xff\xfe")


def _examples():
    yield preset("default")
    yield uniform_box(7, 3, seed=4, noise="bernoulli")
    yield Instance.from_means([[0.2, 0.3], [0.6, 0.1]], noise="beta", concentration=5.0,
                              objective_names=["speed", "cost"], directions=["max", "min"], arm_names=["a", "b"])
    yield random_linear(6, d=3, L=2, seed=2)
    yield random_contextual(5, d=4, L=3, seed=1, context="unit_sphere")
    yield Instance.from_distributions([{"family": "beta", "a": 0.6462, "b": 0.4308},
                                       {"family": "bernoulli", "p": 0.3},
                                       {"family": "uniform", "low": 0.1, "high": 0.7}], rho=0.01)


@pytest.mark.parametrize("inst", list(_examples()), ids=lambda i: i.kind + ":" + i.name)
def test_json_round_trip_is_exact(inst):
    back = Instance.from_json(inst.to_json())
    assert back == inst
    assert back.to_json() == inst.to_json()
    for attr in ("means", "features", "theta"):
        a, b = getattr(inst, attr), getattr(back, attr)
        assert (a is None and b is None) or np.array_equal(a, b)
    assert json.loads(inst.to_json())["schema_version"] == 1


def test_instances_are_immutable():
    inst = preset("default")
    with pytest.raises(ValueError):
        inst.means[0, 0] = 5.0
    with pytest.raises(AttributeError):
        inst.sigma = 3.0  # type: ignore[misc]


def test_linear_means_are_features_times_theta():
    inst = random_linear(9, d=3, L=2, seed=5)
    np.testing.assert_allclose(inst.means, inst.features @ inst.theta)
    np.testing.assert_allclose(np.linalg.norm(inst.theta, axis=0), 1.0)
    assert np.linalg.norm(inst.features, axis=1).max() <= 1 + 1e-12


def test_distribution_objectives_are_mean_and_negated_risk():
    a, b, rho = 0.6462, 0.4308, 0.01
    inst = Instance.from_distributions([{"family": "beta", "a": a, "b": b}, {"family": "bernoulli", "p": 0.25}],
                                       rho=rho)
    mu = a / (a + b)
    var = a * b / ((a + b) ** 2 * (a + b + 1))
    xi = (var - rho * mu) / (3 + rho)
    np.testing.assert_allclose(inst.means[0], [mu, -xi])
    np.testing.assert_allclose(inst.means[1], [0.25, -(0.25 * 0.75 - rho * 0.25) / (3 + rho)])
    np.testing.assert_allclose(inst.display(inst.means)[:, 1], [xi, (0.1875 - 0.0025) / 3.01])
    assert inst.reward_dim == 1


def test_generators_are_seeded_and_shaped():
    for gen in (uniform_box, concave_front, convex_front):
        a, b, c = gen(12, 3, seed=1), gen(12, 3, seed=1), gen(12, 3, seed=2)
        assert a == b and a != c and a.means.shape == (12, 3)
    conc = concave_front(40, 2, seed=0)
    conv = convex_front(40, 2, seed=0)
    # On a concave front every Pareto arm is effective; on a convex one only a few are.
    assert set(conc.effective_set) == set(conc.pareto_set)
    assert len(conv.effective_set) < len(conv.pareto_set) / 2


@pytest.mark.parametrize("kind", ["uniform_ball", "unit_sphere", "gaussian_clipped"])
def test_contexts_lie_in_the_unit_ball(kind):
    X = sample_contexts(np.random.default_rng(0), 500, 4, kind)
    norms = np.linalg.norm(X, axis=1)
    assert norms.max() <= 1 + 1e-12
    if kind == "unit_sphere":
        np.testing.assert_allclose(norms, 1.0)
    if kind == "uniform_ball":  # P(|x| <= r) = r^d
        assert abs(np.mean(norms <= 0.5) - 0.5**4) < 0.03


def test_default_preset_has_a_pareto_arm_off_the_effective_front():
    inst = preset("default")
    assert inst.pareto_set == (0, 1, 2, 3, 4)
    assert inst.effective_set == (0, 1, 3, 4)
    assert inst.effective_gaps[2] > 0 == inst.pareto_gaps[2]
    assert "default" in PRESETS and "default_3d" in PRESETS
    assert preset("default_3d").L == 3


def test_unknown_preset_lists_known_names():
    with pytest.raises(ValueError, match="known"):
        preset("nope")


def test_contextual_instance_has_no_fixed_means():
    inst = random_contextual(5, d=3, L=2)
    assert inst.means is None and inst.K == 5 and inst.L == 2 and inst.d == 3
    with pytest.raises(ValueError, match="contextual"):
        _ = inst.pareto_set
