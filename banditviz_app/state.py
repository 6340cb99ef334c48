"""Per-session state of the app and its encoding in the URL (st.query_params).

The session holds one *current setting*: the instance, where it came from, the algorithm, its parameters,
the horizon and the seed. Pages read it with `current()` and change it only through `set_instance` /
`set_run`, which validate first: a bad value raises ValueError and the previous valid setting stays.

URL keys (decision, the issue only asks for "compact JSON or preset name + generator params"):
``preset`` (a preset name) or ``gen`` + ``gp`` (a generator name and its parameters as JSON) or ``inst``
(the instance's compact JSON); ``alg``; ``p`` (the parameters that differ from the paper defaults, JSON);
``seed``; ``T`` (the horizon).
"""

from __future__ import annotations

import json
import re
import threading
from dataclasses import dataclass, field, replace
from typing import Any

import streamlit as st

import banditviz
from banditviz import limits, words
from banditviz.sweep import GENERATORS  # the core's seeded generators, by name

DEFAULT_PRESET = "default"
DEFAULT_ALGORITHM = "pareto_ucb1"
DEFAULT_HORIZON = 2000
APP_MAX_HORIZON = 200_000  # the app's interactive cap; full-size runs go through the CLI
MAX_URL_INSTANCE_CHARS = 6000  # longer instances are not put in the link (export the JSON instead)
DEFAULT_FOR_KIND = {"means": "pareto_ucb1", "linear": "pareto_ucb1", "contextual": "mol_ts",
                    "distributions": "ramgape_b"}

GENERATOR_ARGS = {"K", "L", "d", "seed", "sigma"}
_KEY = "bv_setting"
PRESENT = "bv_present"  # presentation mode (every page), kept in the link as ``present=1``
RACE = "bv_race"  # the Watch page's rival algorithm (at its paper defaults), kept in the link as ``race=NAME``


@dataclass(frozen=True)
class Setting:
    """What one session is looking at: the instance, its source, and the run's algorithm, parameters, T, seed."""

    instance: banditviz.Instance
    source: dict[str, Any] = field(default_factory=dict)
    algorithm: str = DEFAULT_ALGORITHM
    params: dict[str, Any] = field(default_factory=dict)
    horizon: int = DEFAULT_HORIZON
    seed: int = 0

    @property
    def instance_json(self) -> str:
        return compact_json(self.instance)


def compact_json(instance: banditviz.Instance) -> str:
    """The instance's JSON without whitespace (the cache key and the ``inst`` URL value)."""
    return json.dumps(instance.to_dict(), separators=(",", ":"), allow_nan=False)


def build_generated(name: str, args: dict[str, Any]) -> banditviz.Instance:
    """Instance from one of the core's generators; ValueError names the bad field."""
    if name not in GENERATORS:
        raise ValueError(f"gen: unknown generator {name!r}; known: {sorted(GENERATORS)}")
    if not isinstance(args, dict) or set(args) - GENERATOR_ARGS:
        raise ValueError(f"gp: generator parameters must be an object with keys among {sorted(GENERATOR_ARGS)}")
    return GENERATORS[name](**args)


def default_algorithm(instance: banditviz.Instance) -> str:
    name = DEFAULT_FOR_KIND[instance.kind]
    if name in banditviz.ALGORITHMS:
        return name
    return next(n for n, s in banditviz.ALGORITHMS.items() if instance.kind in s.kinds)


def check_run(setting: Setting) -> Setting:
    """Validate the run part of a setting against the registry and the limits (ValueError if bad)."""
    spec = banditviz.get_algorithm(setting.algorithm)
    if setting.instance.kind not in spec.kinds:
        raise ValueError(f"algorithm: {spec.name} runs on instance kinds {list(spec.kinds)}, "
                         f"not on {setting.instance.kind!r}")
    spec.validate(setting.params)
    horizon = limits.check_int("horizon", setting.horizon, 1, APP_MAX_HORIZON)
    seed = limits.check_int("seed", setting.seed, 0, limits.MAX_SEED)
    limits.check_run_size(horizon, setting.instance.K, 200)
    return replace(setting, horizon=horizon, seed=seed)


def default_setting() -> Setting:
    return Setting(instance=banditviz.preset(DEFAULT_PRESET), source={"preset": DEFAULT_PRESET})


# ---------------------------------------------------------------------- URL
def _json_param(key: str, text: str) -> Any:
    if len(text) > limits.MAX_UPLOAD_BYTES:
        raise ValueError(f"{key}: longer than {limits.MAX_UPLOAD_BYTES:,} characters")
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise ValueError(f"{key}: not valid JSON ({exc.msg})") from None


def _link_instance(query: dict[str, str]) -> tuple[banditviz.Instance, dict[str, Any]]:
    if "inst" in query:
        return banditviz.Instance.from_json(query["inst"]), {}
    if "gen" in query:
        args = _json_param("gp", query.get("gp", "{}"))
        return build_generated(query["gen"], args), {"gen": query["gen"], "gp": args}
    name = query.get("preset", DEFAULT_PRESET)
    return banditviz.preset(name), {"preset": name}


def _link_params(query: dict[str, str], algorithm: str, refused: list[str]) -> dict[str, Any]:
    """The link's algorithm parameters, each kept when the algorithm accepts it alone and with the others."""
    if "p" not in query:
        return {}
    try:
        params = _json_param("p", query["p"])
        if not isinstance(params, dict):
            raise ValueError("p: algorithm parameters must be a JSON object")
    except ValueError as exc:
        refused.append(str(exc))
        return {}
    spec, kept = banditviz.get_algorithm(algorithm), {}
    for key, value in params.items():
        try:
            spec.validate({key: value})
            kept[key] = value
        except ValueError as exc:
            refused.append(f"p ({key}={value!r}): {exc}")
    try:
        spec.validate(kept)
    except ValueError as exc:
        refused.append(f"p: {exc}")
        return {}
    return kept


def read_query(query: dict[str, str]) -> tuple[Setting, list[str]]:
    """The setting a link encodes, keeping every part that is valid on its own.

    Each refused part (instance, algorithm, parameter, T, seed) is replaced by its default and reported in
    the returned list, one message per part naming the URL key, the value and why it was refused."""
    refused: list[str] = []
    try:
        inst, source = _link_instance(query)
    except ValueError as exc:
        refused.append(f"{exc} (the default instance is shown)")
        inst, source = banditviz.preset(DEFAULT_PRESET), {"preset": DEFAULT_PRESET}
    algorithm = query.get("alg", default_algorithm(inst))
    try:
        check_run(Setting(instance=inst, algorithm=algorithm))
    except ValueError as exc:
        refused.append(f"alg={algorithm!r}: {exc} (its default {default_algorithm(inst)} is used)")
        algorithm = default_algorithm(inst)
    params = _link_params(query, algorithm, refused)
    numbers = {}
    for key, default, high in (("T", DEFAULT_HORIZON, APP_MAX_HORIZON), ("seed", 0, limits.MAX_SEED)):
        try:
            numbers[key] = limits.check_int(key, query.get(key, default), 1 if key == "T" else 0, high)
        except ValueError as exc:
            refused.append(f"{exc} (the default {default:,} is used)")
            numbers[key] = default
    setting = Setting(instance=inst, source=source, algorithm=algorithm, params=params, horizon=numbers["T"],
                      seed=numbers["seed"])
    try:
        return check_run(setting), refused
    except ValueError as exc:
        refused.append(f"T={setting.horizon}: {exc} (the default {DEFAULT_HORIZON:,} is used)")
        return check_run(replace(setting, horizon=DEFAULT_HORIZON)), refused


def from_query(query: dict[str, str]) -> Setting:
    """The setting a link encodes (missing keys take the defaults); ValueError names the first bad key."""
    setting, refused = read_query(query)
    if refused:
        raise ValueError(refused[0])
    return setting


def to_query(setting: Setting) -> dict[str, str]:
    """The URL parameters of a setting (inverse of `from_query`)."""
    out: dict[str, str] = {}
    if "preset" in setting.source:
        out["preset"] = setting.source["preset"]
    elif "gen" in setting.source:
        out["gen"] = setting.source["gen"]
        out["gp"] = json.dumps(setting.source["gp"], separators=(",", ":"))
    elif len(setting.instance_json) <= MAX_URL_INSTANCE_CHARS:
        out["inst"] = setting.instance_json
    out["alg"] = setting.algorithm
    defaults = banditviz.get_algorithm(setting.algorithm).defaults()
    changed = {k: v for k, v in setting.params.items() if defaults.get(k) != v}
    if changed:
        out["p"] = json.dumps(changed, separators=(",", ":"))
    out["T"] = str(setting.horizon)
    out["seed"] = str(setting.seed)
    return out


# ---------------------------------------------------------------------- session
def init_session() -> None:
    """On a session's first run, read the setting from the URL: every valid part of the link is kept, and
    each refused part is reported (see `pop_url_messages`)."""
    if _KEY in st.session_state:
        return
    st.session_state[_KEY], refused = read_query(st.query_params.to_dict())
    st.session_state[PRESENT] = st.query_params.get("present") == "1"
    st.session_state[RACE] = st.query_params.get("race")  # checked against the instance by the Watch page
    if refused:
        st.session_state["bv_url_refused"] = refused
    st.session_state["bv_version"] = 0


def presenting() -> bool:
    """Whether the session is in presentation mode (no sidebar or toolbar, larger text, on every page)."""
    return bool(st.session_state.get(PRESENT))


def presentation_toggle(key: str, container: Any = st) -> bool:
    """A "Presentation mode" toggle bound to the session's mode: it shows the mode however it was last set (the
    link, another page's toggle) and sets it when clicked. Several pages may draw one, each with its own ``key``."""
    st.session_state[key] = presenting()  # before the widget is drawn, so it shows the session's mode

    def flip() -> None:  # runs before the next script run, so the whole app (app.py's style) sees the new mode
        st.session_state[PRESENT] = bool(st.session_state[key])

    return container.toggle("Presentation mode", key=key, on_change=flip,
                            help="For a projector: no sidebar or toolbar and larger text, on every page. The link "
                                 "keeps it (present=1).")


def pop_url_messages() -> list[str]:
    """The messages about the parts of the opening link that were refused (once; then forgotten)."""
    refused = st.session_state.pop("bv_url_refused", [])
    return [f"Part of this link was refused, the rest is kept: {r}" for r in refused]


def current() -> Setting:
    init_session()
    return st.session_state[_KEY]


def version() -> int:
    """Bumped each time the instance is replaced from outside the table, so the table editor resets."""
    return st.session_state.get("bv_version", 0)


def as_edit(instance: banditviz.Instance, base: banditviz.Instance) -> banditviz.Instance:
    """``instance``, an edit of ``base``, named as a custom instance: "custom (from <base>)" with a description
    saying so (a preset's or generator's name and description no longer describe it)."""
    if base.name.startswith("custom"):
        return instance.with_changes(name=base.name, description=base.description)
    origin = base.name or "an imported instance"
    return instance.with_changes(name=f"custom (from {origin})",
                                 description=f"Edited in the Design page, starting from {origin}.")


def set_instance(instance: banditviz.Instance, source: dict[str, Any], *, from_table: bool = False) -> None:
    """Make ``instance`` current; keep the algorithm if it fits the instance's kind, else take its default."""
    old = current()
    algorithm, params = old.algorithm, old.params
    if instance.kind not in banditviz.get_algorithm(algorithm).kinds:
        algorithm, params = default_algorithm(instance), {}
    st.session_state[_KEY] = check_run(replace(old, instance=instance, source=source, algorithm=algorithm,
                                               params=params))
    if not from_table:
        st.session_state["bv_version"] = version() + 1
    _changed()


def set_run(**changes: Any) -> Setting:
    """Change the algorithm, parameters, horizon or seed (validated first; ValueError keeps the old)."""
    new = check_run(replace(current(), **changes))
    st.session_state[_KEY] = new
    _changed()
    return new


_slots = threading.local()  # this script run's sidebar slot (each session's script runs in its own thread)


def show_setting_in(slot: Any) -> None:
    """Draw the current setting into ``slot`` (an `st.empty` in the sidebar) now and after every change of this
    run, so the sidebar always names what the page shows, even when the page stops early. ``None``: nowhere (no
    sidebar in presentation mode)."""
    _slots.sidebar = slot
    if slot is not None:
        _draw_setting()


def _draw_setting() -> None:
    slot = getattr(_slots, "sidebar", None)
    if slot is None:
        return
    setting = current()
    with slot.container():
        st.markdown("**Current setting**")
        st.caption(f"Instance: {plain(setting.instance.name or 'custom')} — {words.count(setting.instance.K, 'arm')}, "
                   f"{words.count(setting.instance.L, 'objective')} ({setting.instance.kind})")
        st.caption(f"Algorithm: {setting.algorithm}, T = {setting.horizon:,}, seed {setting.seed}")
        if set(to_query(setting)) & {"preset", "gen", "inst"}:
            st.caption("The address bar holds a link to this setting: paste it anywhere to reproduce the run.")
        else:
            st.caption("This instance is too large for a link: export its JSON on the Design page to share it.")


def _changed() -> None:
    sync_url()
    _draw_setting()


def sync_url() -> None:
    """Write the current setting into the address bar: after every change, and after each page run (a page
    switch may clear the query string)."""
    wanted = to_query(current())
    if st.session_state.get(PRESENT):
        wanted["present"] = "1"
    if st.session_state.get(RACE):
        wanted["race"] = st.session_state[RACE]
    if st.query_params.to_dict() != wanted:
        st.query_params.from_dict(wanted)


def show_error(exc: Exception, what: str = "") -> None:
    """A user-caused error as a message in the page (never a traceback); ``what`` says what was not done."""
    st.error(f"{what}: {exc}" if what else str(exc), icon=":material/error:")


_MARKDOWN_SPECIAL = re.compile(r"([\\`*_{}\[\]()#+\-.!|<>~$:])")


def plain(text: str) -> str:
    """User text (arm or instance names) escaped so that markdown shows it verbatim, never as markup."""
    return _MARKDOWN_SPECIAL.sub(r"\\\1", str(text))
