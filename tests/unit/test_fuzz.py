"""Hostile input: arbitrary JSON into `Instance.from_json`, parameters at and beyond their ranges.

Only ValueError (with a message) may come out; anything else is a bug.
"""

import json
import math

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from banditviz import ALGORITHMS, Instance, preset, run
from banditviz.instances import KINDS

json_scalars = st.one_of(
    st.none(), st.booleans(), st.integers(min_value=-(10**30), max_value=10**30),
    st.floats(allow_nan=False, allow_infinity=False), st.sampled_from([1e308, -1e308, 1e-308, 5e-324, 0.0]),
    st.text(max_size=20), st.sampled_from(["NaN", "inf", "-Infinity", "1e999", ""]),
)
json_values = st.recursive(json_scalars, lambda inner: st.one_of(
    st.lists(inner, max_size=6), st.dictionaries(st.text(max_size=12), inner, max_size=6)), max_leaves=40)
numbers = st.one_of(st.floats(allow_nan=True, allow_infinity=True), st.integers(-(10**20), 10**20),
                    st.sampled_from(["0.5", None, [], True]))
matrix = st.lists(st.lists(numbers, min_size=0, max_size=4), min_size=0, max_size=5)
fields = {
    "schema_version": st.one_of(st.just(1), json_scalars), "kind": st.one_of(st.sampled_from(KINDS), json_scalars),
    "means": st.one_of(matrix, json_values), "features": matrix, "theta": matrix,
    "n_arms": st.one_of(st.integers(-5, 5000), json_scalars), "noise": st.one_of(
        st.sampled_from(["gaussian", "bernoulli", "beta"]), json_scalars),
    "sigma": numbers, "rho": numbers, "context": st.one_of(st.sampled_from(["uniform_ball", "cube"]), json_scalars),
    "distributions": st.lists(st.one_of(st.fixed_dictionaries(
        {"family": st.sampled_from(["beta", "bernoulli", "uniform", "gamma"]), "a": numbers, "b": numbers}),
        json_values), max_size=4),
    "objective_names": st.one_of(st.lists(st.text(max_size=70), max_size=4), json_scalars),
    "directions": st.lists(st.sampled_from(["max", "min", "up"]), max_size=4),
    "arm_names": st.one_of(st.lists(st.text(max_size=70), max_size=6), json_scalars),
    "name": json_scalars, "description": json_scalars, "concentration": numbers,
}
structured = st.fixed_dictionaries({}, optional=fields)


def _only_value_error(text: str) -> None:
    try:
        inst = Instance.from_json(text)
    except ValueError as exc:
        assert str(exc), "a ValueError must say what is wrong"
        return
    # Accepted: it must be a valid instance that round-trips exactly.
    assert Instance.from_json(inst.to_json()) == inst
    assert inst.K >= 2 and inst.L >= 1


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(json_values)
def test_arbitrary_json_values(value):
    _only_value_error(json.dumps(value))


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(structured)
def test_instance_shaped_json(value):
    _only_value_error(json.dumps(value))


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=300))
def test_arbitrary_bytes(blob):
    _only_value_error(blob)  # type: ignore[arg-type]


@pytest.mark.parametrize("text", [
    '{"kind": "means", "means": [[1e400, 0], [0, 1]]}',
    '{"kind": "means", "means": [[Infinity, 0], [0, 1]]}',
    '{"kind": "means", "means": [[1, 0], [0, 1]], "sigma": 1e-400}',
    '{"kind": "contextual", "theta": [[1, 0]], "n_arms": 1e9}',
    '{"kind": "means", "means": ' + "[" * 5000 + "]" * 5000 + "}",
    '{"kind": "means", "means": [[1, 0], [0, 1]], "arm_names": ["<script>alert(1)</script>", "b"]}',
])
def test_edge_cases(text):
    _only_value_error(text)


def _param_values(p):
    if p.choices is not None:
        return list(p.choices) + ["__nope__", None]
    if isinstance(p.default, bool):
        return [True, False, 1, "yes"]
    vals = [p.default, -1, 0, 1, 10**9, math.inf, math.nan, "3", None]
    vals += [v for v in (p.low, p.high) if v is not None]
    vals += [p.low - 1 if p.low is not None else -1e9, p.high * 2 + 1 if p.high is not None else 1e12]
    return vals


def _instance_for(spec):
    kind = spec.kinds[0]
    if kind == "contextual":
        from banditviz.instances import random_contextual
        return random_contextual(5, d=3, L=2, seed=0)
    if kind == "linear":
        from banditviz.instances import random_linear
        return random_linear(6, d=2, L=2, seed=0)
    if kind == "distributions":
        return Instance.from_distributions([{"family": "beta", "a": 1 + i, "b": 2.0} for i in range(4)])
    return preset("default")


@pytest.mark.parametrize("name", sorted(ALGORITHMS))
def test_every_parameter_at_and_beyond_its_range(name):
    """Each parameter value either raises ValueError naming it, or gives a valid short run."""
    spec = ALGORITHMS[name]
    inst = _instance_for(spec)
    for p in spec.params:
        for value in _param_values(p):
            try:
                tr = run(inst, name, 40, seed=0, snapshots=3, **{p.name: value})
            except ValueError as exc:
                assert str(exc)
                continue
            assert 1 <= tr.rounds <= 40
            assert np.all((tr.arms >= 0) & (tr.arms < inst.K))


VALID = {
    "means": {"kind": "means", "means": [[1.0, 0.0], [0.0, 1.0]]},
    "linear": {"kind": "linear", "features": [[1.0, 0.0], [0.0, 1.0]], "theta": [[1.0, 0.5], [0.5, 1.0]]},
    "contextual": {"kind": "contextual", "theta": [[1.0, 0.5], [0.5, 1.0]], "n_arms": 3},
    "distributions": {"kind": "distributions", "distributions": [{"family": "beta", "a": 1.0, "b": 2.0},
                                                                  {"family": "bernoulli", "p": 0.3}]},
}
wrong_types = st.one_of(json_scalars, st.lists(json_scalars, max_size=4), st.dictionaries(
    st.sampled_from(["max", "min", "a", "family"]), json_scalars, max_size=3), json_values)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(sorted(VALID)), st.sampled_from(sorted(fields)), wrong_types)
def test_a_wrong_value_in_one_field_is_a_value_error_naming_it(kind, field, value):
    """Any JSON value (number, string, list, object, null) in any one field of a valid instance is either
    accepted as a valid instance or refused with a ValueError whose message names that field."""
    data = dict(VALID[kind], **{field: value})
    try:
        inst = Instance.from_dict(data)
    except ValueError as exc:
        assert field in str(exc), f"{field} = {value!r}: {exc}"
        return
    assert Instance.from_json(inst.to_json()) == inst


@pytest.mark.parametrize(("field", "value"), [("directions", 3), ("directions", {"max": 1, "min": 2}),
                                              ("directions", "maxmin"), ("objective_names", 2.5),
                                              ("arm_names", {"a": 1}), ("sigma", "0.5"), ("noise", ["gaussian"])])
def test_wrong_types_named(field, value):
    with pytest.raises(ValueError, match=field):
        Instance.from_json(json.dumps(dict(VALID["means"], **{field: value})))


@pytest.mark.parametrize(("kind", "field", "value"), [
    ("means", "means", [[0.1, 0.2]]), ("linear", "features", [[0, 0]]), ("contextual", "n_arms", 1),
    ("distributions", "distributions", [{"family": "bernoulli", "p": 0.3}])])
def test_a_single_arm_is_refused_naming_the_field_that_gives_the_arms(kind, field, value):
    """Found by the fuzz test above: a linear instance of one feature row was refused as "number of arms K", which
    does not say which field to mend."""
    with pytest.raises(ValueError, match=f"^{field}: "):
        Instance.from_dict(dict(VALID[kind], **{field: value}))
