"""What the browser drew of a chart, compared with a frame's data computed in Python.

`read(page, selector)` runs `drawn_state.js` in the page: per trace, the SVG marks Plotly drew (points, line and
fill paths, texts, bars with their colours) in pixels of the trace's plot area, or the WebGL objects' own data for a
3-D trace. `mismatches(expected, drawn)` compares them with the traces a frame should show (`expected_traces`: the
figure's traces with the frame's data merged in, as the player merges them), and returns one sentence per
difference: a point, text or bar missing, extra or elsewhere, a colour that differs, a line or fill drawn elsewhere
than its data (checked both ways on samples every 2 px, within the plot area, so Plotly's line simplification and
clipping are allowed for), a trace's marks left from an earlier frame.
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np

READER = (Path(__file__).with_name("drawn_state.js")).read_text()
TOL_PX = 1.6  # a point, a bar's top or a line drawn this close to its data counts as drawn there (SVG rounds to 0.01)
TOL_3D = 2e-3  # 3-D: positions (data units relative to the view's span) are rounded to 1e-3 in the frames
NAMED = {"white": (255, 255, 255), "black": (0, 0, 0)}


def read(page, selector: str) -> list[dict] | None:
    """The drawn state of the chart matching ``selector`` (None while it is not drawn)."""
    return page.evaluate(READER, selector)


# ------------------------------------------------------------------------------------------ expected
def _is_obj(v) -> bool:
    return isinstance(v, dict)


def merged(trace: dict, values: dict) -> dict:
    """``trace`` updated by a frame's ``values``: nested dicts merged, lists and plain values replaced."""
    out = dict(trace)
    for k, v in values.items():
        out[k] = merged(trace[k], v) if _is_obj(v) and _is_obj(trace.get(k)) else v
    return out


def expected_traces(fig: dict, frame: int) -> list[dict]:
    """The traces frame ``frame`` of ``fig`` (a figure as a dict, `go.Figure.to_dict()`) shows."""
    data = [dict(t) for t in fig["data"]]
    f = fig["frames"][frame]
    for t, values in zip(f["traces"], f["data"], strict=True):
        data[t] = merged(data[t], {k: v for k, v in values.items() if k != "type"})
    return data


# ------------------------------------------------------------------------------------------ colours
def rgb(colour) -> tuple[int, int, int] | None:
    """A CSS colour (``#rrggbb``, ``rgb()``, ``rgba()``, a few names) as (r, g, b); None for none/transparent."""
    if colour is None:
        return None
    c = str(colour).strip().lower()
    if c in NAMED:
        return NAMED[c]
    if c.startswith("#") and len(c) == 7:
        return tuple(int(c[i:i + 2], 16) for i in (1, 3, 5))
    m = re.match(r"rgba?\(([^)]*)\)", c)
    if m:
        parts = [float(v) for v in m.group(1).split(",")]
        if len(parts) == 4 and parts[3] == 0:
            return None
        return tuple(int(round(v)) for v in parts[:3])
    return None


def _colour_at(value, i: int):
    return value[i] if isinstance(value, list) else value


# ------------------------------------------------------------------------------------------ geometry
def _px(values, ax: dict, vertical: bool) -> np.ndarray:
    r0, r1 = ax["range"]
    v = np.array([np.nan if x is None else float(x) for x in values], dtype=float)
    frac = (v - r0) / (r1 - r0)
    return (1 - frac) * ax["length"] if vertical else frac * ax["length"]


def _runs(x: np.ndarray, y: np.ndarray) -> list[np.ndarray]:
    """Polylines of points split at missing values (Plotly's gaps)."""
    out, cur = [], []
    for a, b in zip(x, y, strict=True):
        if np.isfinite(a) and np.isfinite(b):
            cur.append((a, b))
        elif cur:
            out.append(np.array(cur))
            cur = []
    if cur:
        out.append(np.array(cur))
    return out


def parse_path(d: str) -> list[np.ndarray]:
    """An SVG path's subpaths as polylines (M, L, H, V and Z, absolute, as Plotly writes them for lines and fills)."""
    subs, cur, at = [], [], (0.0, 0.0)
    for cmd, args in re.findall(r"([MLHVZmlhvz])([^MLHVZmlhvz]*)", d):
        nums = [float(v) for v in re.findall(r"-?\d*\.?\d+(?:e[-+]?\d+)?", args, re.I)]
        if cmd == "M":
            if cur:
                subs.append(np.array(cur))
            at = (nums[0], nums[1])
            cur = [at]
            nums = nums[2:]
            cmd = "L"  # further pairs after M are line-tos
        if cmd == "L":
            for k in range(0, len(nums) - 1, 2):
                at = (nums[k], nums[k + 1])
                cur.append(at)
        elif cmd == "H":
            for v in nums:
                at = (v, at[1])
                cur.append(at)
        elif cmd == "V":
            for v in nums:
                at = (at[0], v)
                cur.append(at)
        elif cmd in "Zz" and cur:
            cur.append(cur[0])
    if cur:
        subs.append(np.array(cur))
    return subs


def _segments(lines: list[np.ndarray]) -> np.ndarray:
    segs = [np.concatenate([p[:-1], p[1:]], axis=1) for p in lines if len(p) >= 2]
    segs += [np.concatenate([p, p], axis=1) for p in lines if len(p) == 1]
    return np.concatenate(segs) if segs else np.empty((0, 4))


def _samples(segs: np.ndarray, step: float = 2.0) -> np.ndarray:
    out = []
    for x0, y0, x1, y1 in segs:
        n = max(1, int(np.hypot(x1 - x0, y1 - y0) // step))
        t = np.linspace(0, 1, n + 1)[:, None]
        out.append(np.array([x0, y0]) * (1 - t) + np.array([x1, y1]) * t)
    return np.concatenate(out) if out else np.empty((0, 2))


def _distance(points: np.ndarray, segs: np.ndarray) -> np.ndarray:
    """Each point's distance to the nearest segment."""
    if len(segs) == 0:
        return np.full(len(points), np.inf)
    p = points[:, None, :]
    a, b = segs[None, :, :2], segs[None, :, 2:]
    ab = b - a
    t = np.clip(((p - a) * ab).sum(-1) / np.maximum((ab * ab).sum(-1), 1e-12), 0, 1)
    return np.hypot(*np.moveaxis(p - (a + t[..., None] * ab), -1, 0)).min(axis=1)


def _inside(points: np.ndarray, w: float, h: float, pad: float = 0.0) -> np.ndarray:
    return ((points[:, 0] >= -pad) & (points[:, 0] <= w + pad) & (points[:, 1] >= -pad) & (points[:, 1] <= h + pad)
            if len(points) else np.zeros(0, dtype=bool))


def _same_lines(want: list[np.ndarray], got: list[np.ndarray], w: float, h: float,
                covered: np.ndarray | None = None) -> str:
    """'' when the drawn polylines ``got`` trace the data's ``want`` within the plot area (both ways), else why.
    ``covered``: (x, y, radius) of arrowhead markers, under which Plotly ends a line short (at the head's base)."""
    sw, sg = _segments(want), _segments(got)
    a, b = _samples(sw), _samples(sg)
    a, b = a[_inside(a, w, h, -TOL_PX)], b[_inside(b, w, h, -TOL_PX)]
    for x, y, r in covered if covered is not None else ():
        a = a[np.hypot(a[:, 0] - x, a[:, 1] - y) > r]
    off = _distance(b, sw) > TOL_PX
    if off.any():
        x, y = b[off][0]
        return f"drawn at ({x:.1f}, {y:.1f}) px, {_distance(b[off][:1], sw)[0]:.1f} px off its data"
    missing = _distance(a, sg) > TOL_PX
    if missing.any():
        x, y = a[missing][0]
        return f"data at ({x:.1f}, {y:.1f}) px not drawn ({int(missing.sum())} of {len(a)} samples)"
    return ""


def _match_points(want: np.ndarray, got: np.ndarray) -> tuple[list[tuple[int, int]], list[int], list[int]]:
    """Pairs (want index, got index) within TOL_PX, nearest first; and the unmatched indices of each side."""
    pairs, used = [], set()
    if len(want) and len(got):
        d = np.hypot(want[:, None, 0] - got[None, :, 0], want[:, None, 1] - got[None, :, 1])
        for i in np.argsort(d.min(axis=1), kind="stable"):
            for j in np.argsort(d[i], kind="stable"):
                if d[i, j] > TOL_PX:
                    break
                if j not in used:
                    pairs.append((int(i), int(j)))
                    used.add(int(j))
                    break
    matched = {i for i, _ in pairs}
    return pairs, [i for i in range(len(want)) if i not in matched], [j for j in range(len(got)) if j not in used]


# ------------------------------------------------------------------------------------------ per trace
def _shown(t: dict) -> bool:
    return t.get("visible", True) is True


def _scatter(t: dict, d: dict) -> list[str]:
    out = []
    x, y = d["x"], d["y"]
    w, h = x["length"], y["length"]
    mode = t.get("mode", "markers") if _shown(t) else ""
    xs, ys = t.get("x") or [], t.get("y") or []
    px, py = _px(xs, x, False), _px(ys, y, True)
    ok = np.isfinite(px) & np.isfinite(py)
    pts = np.column_stack([px, py])
    # Plotly draws a marker (and its text) only inside the axis ranges: one within TOL_PX of an edge may be either
    finite = np.nan_to_num(pts, nan=-1e9)
    allowed = ok & _inside(finite, w, h, TOL_PX)
    required = ok & _inside(finite, w, h, -TOL_PX)
    if d.get("groups", 0) > 1:
        out.append(f"{d['groups']} groups of marks drawn for one trace")
    # markers: positions and colours
    drawn_points = [p for p in d.get("points", []) if p["at"]]
    got = np.array([p["at"] for p in drawn_points], dtype=float).reshape(-1, 2)
    want_idx = np.flatnonzero(allowed) if "markers" in mode else np.zeros(0, dtype=int)
    pairs, missing, extra = _match_points(pts[want_idx], got)
    for i in missing:
        if required[want_idx[i]] and len(out) < 6:
            out.append(f"point {int(want_idx[i])} at {tuple(np.round(pts[want_idx[i]], 1))} px not drawn")
    for j in extra[:3]:
        out.append(f"a point drawn at {tuple(np.round(got[j], 1))} px with no data there")
    colour = (t.get("marker") or {}).get("color")
    symbol = (t.get("marker") or {}).get("symbol")
    for i, j in pairs:
        want = rgb(_colour_at(colour, int(want_idx[i]))) if colour is not None else None
        p = drawn_points[j]
        sym = _colour_at(symbol, int(want_idx[i])) if symbol is not None else ""
        got_c = rgb(p["stroke"] if str(sym).endswith("-open") else p["fill"])
        if want is not None and got_c != want:
            out.append(f"point {int(want_idx[i])} drawn in {got_c}, its data says {want}")
    # lines and fills
    want_lines = _runs(px, py) if "lines" in mode else []
    got_lines = [sub for ln in d.get("lines", []) for sub in parse_path(ln["d"])]
    why = _same_lines(want_lines, got_lines, w, h, _arrowheads(t, px, py))
    if why:
        out.append("line " + why)
    line_colour = rgb((t.get("line") or {}).get("color"))
    for ln in d.get("lines", []):
        if line_colour is not None and rgb(ln["stroke"]) != line_colour:
            out.append(f"line drawn in {rgb(ln['stroke'])}, its data says {line_colour}")
    fill = t.get("fill", "none") if _shown(t) else "none"
    want_fill = _runs(px, py) if fill == "toself" else []
    got_fill = [sub for f in d.get("fills", []) for sub in parse_path(f["d"])]
    why = _same_lines(want_fill, got_fill, w, h)
    if why:
        out.append("fill " + why)
    # texts: every text of a point well inside drawn, and no text drawn but those of points inside (as multisets)
    need = _texts(t, required) if "text" in mode else []
    may = _texts(t, allowed) if "text" in mode else []
    got_txt = [e["text"] for e in d.get("texts", []) if e["text"].strip()]
    if not (_within(need, got_txt) and _within(got_txt, may)):
        out.append(f"texts drawn {sorted(got_txt)[:12]}, its data says {sorted(need)[:12]}")
    return out


def _within(a: list[str], b: list[str]) -> bool:
    """Whether multiset ``a`` is contained in multiset ``b``."""
    rest = list(b)
    for x in a:
        if x not in rest:
            return False
        rest.remove(x)
    return True


def _arrowheads(t: dict, px: np.ndarray, py: np.ndarray) -> np.ndarray:
    """(x, y, size) of the points drawn as an arrowhead ("arrow" symbols, which end their line short)."""
    marker = t.get("marker") or {}
    symbol, size = marker.get("symbol"), marker.get("size", 6)
    heads = [(px[i], py[i], float(_colour_at(size, i))) for i in range(len(px))
             if "arrow" in str(_colour_at(symbol, i) or "") and np.isfinite(px[i]) and np.isfinite(py[i])]
    return np.array(heads, dtype=float).reshape(-1, 3)


def _texts(t: dict, area: np.ndarray) -> list[str]:
    """The non-empty texts of the points in ``area`` (a mask), as drawn (line breaks removed)."""
    template = t.get("texttemplate")
    n = len(area)
    if template == "%{customdata[0]}":
        cd = t.get("customdata") or []
        vals = [str(cd[i][0]) for i in range(n) if area[i]]
    else:
        text = t.get("text")
        vals = [text[i] if isinstance(text, list) else text for i in range(n) if area[i]]
    return [re.sub(r"<br\s*/?>", "", v) for v in vals if isinstance(v, str) and v.strip()]


def _bar(t: dict, d: dict) -> list[str]:
    out = []
    x, y = d["x"], d["y"]
    want_x = _px(t.get("x") or [], x, False)
    want_y = _px(t.get("y") or [], y, True)
    got = sorted(d.get("bars", []), key=lambda b: b["d"][0])
    if len(got) != len(want_x):
        return [f"{len(got)} bars drawn, its data has {len(want_x)}"]
    colours = (t.get("marker") or {}).get("color")
    widths = ((t.get("marker") or {}).get("line") or {}).get("width")
    order = np.argsort(want_x, kind="stable")
    for k, b in zip(order, got, strict=True):
        x0, top, _, x1 = b["d"][0], b["d"][2], b["d"][1], b["d"][3]
        if abs((x0 + x1) / 2 - want_x[k]) > TOL_PX:
            out.append(f"bar {k} drawn at x = {(x0 + x1) / 2:.1f} px, its data says {want_x[k]:.1f}")
        if abs(top - want_y[k]) > max(TOL_PX, 2.01):  # Plotly draws a bar of 0 at least 2 px tall... from the base
            out.append(f"bar {k} drawn to y = {top:.1f} px, its data says {want_y[k]:.1f} ({t['y'][k]})")
        want_c = rgb(_colour_at(colours, k)) if colours is not None else None
        if want_c is not None and rgb(b["fill"]) != want_c:
            out.append(f"bar {k} drawn in {rgb(b['fill'])}, its data says {want_c}")
        if widths is not None and abs(b["strokeWidth"] - float(_colour_at(widths, k))) > 0.5:
            out.append(f"bar {k} outlined {b['strokeWidth']} px, its data says {_colour_at(widths, k)}")
    return out


def _xyz(t: dict) -> np.ndarray:
    cols = [[np.nan if v is None else float(v) for v in (t.get(a) or [])] for a in "xyz"]
    n = min(map(len, cols)) if cols else 0
    return np.array([c[:n] for c in cols], dtype=float).T.reshape(-1, 3)


def _gl(t: dict, d: dict, span: np.ndarray) -> list[str]:
    out = []
    want = _xyz(t) if _shown(t) else np.empty((0, 3))
    tol = TOL_3D * span
    if t["type"] == "mesh3d":
        mesh = d.get("mesh")
        cells = [list(c) for c in zip(t.get("i") or [], t.get("j") or [], t.get("k") or [], strict=True)]
        if not _shown(t):
            return [f"mesh drawn ({mesh['triangles']} triangles) for a trace that is not shown"] \
                if mesh and mesh["triangles"] else []
        if mesh is None:
            return ["mesh not drawn"]
        pos = np.array(mesh["positions"], dtype=float).reshape(-1, 3)
        if pos.shape != want.shape or not np.all((np.abs(pos - want) <= tol) | (np.isnan(pos) & np.isnan(want))):
            out.append("mesh vertices differ from the frame's")
        if sorted(map(sorted, mesh["cells"])) != sorted(map(sorted, cells)):
            out.append(f"mesh triangles {mesh['cells'][:4]} differ from the frame's {cells[:4]}")
        return out
    gl = d.get("gl")
    mode = t.get("mode", "markers") if _shown(t) else ""
    if gl is None:
        return [f"{len(want)} points not drawn"] if len(want) and mode else []
    for part, on in (("markers", "markers" in mode), ("text", "text" in mode)):
        obj = gl.get(part)
        pts = want[np.all(np.isfinite(want), axis=1)] if on else np.empty((0, 3))
        got = np.array(obj["points"], dtype=float).reshape(-1, 3)[:obj["count"]] if obj else np.empty((0, 3))
        got = got[np.all(np.isfinite(got), axis=1)]  # a missing point is in the buffer, not drawn
        if got.shape != pts.shape or not np.all(np.abs(got - pts) <= tol):
            out.append(f"{part}: {len(got)} drawn, the frame has {len(pts)}"
                       + ("" if got.shape != pts.shape else " (elsewhere)"))
    line = gl.get("line")
    if "lines" in mode:
        got = np.array(line["points"], dtype=float).reshape(-1, 3) if line else np.empty((0, 3))
        same_nan = got.shape == want.shape and np.array_equal(np.isnan(got), np.isnan(want))
        if not same_nan or not np.all((np.abs(got - want) <= tol) | np.isnan(want)):
            out.append(f"lines: {len(got)} vertices drawn, the frame has {len(want)}")
    elif line and line["count"]:
        out.append("lines drawn for a trace without lines")
    data = gl.get("data") or {}
    if "markers" in mode and (t.get("marker") or {}).get("color") is not None:
        if (data.get("marker") or {}).get("color") != t["marker"]["color"]:
            out.append("marker colours differ from the frame's")
    if "text" in mode and gl.get("labels") is not None and _shown(t):
        text = t.get("text")
        want_txt = [text[i] for i in range(len(want)) if np.all(np.isfinite(want[i]))] if isinstance(text, list) \
            else []
        if list(gl["labels"])[:len(want_txt)] != want_txt:
            out.append(f"labels {list(gl['labels'])[:8]} differ from the frame's {want_txt[:8]}")
    return out


def mismatches(expected: list[dict], drawn: list[dict], spans: dict[str, np.ndarray] | None = None) -> list[str]:
    """Every difference between what the browser drew (`read`) and the traces a frame shows (`expected_traces`), one
    sentence each, naming the trace. ``spans``: each 3-D scene's view span per axis (data units), for tolerances."""
    if drawn is None:
        return ["no chart drawn"]
    if len(drawn) != len(expected):
        return [f"{len(drawn)} traces drawn, the figure has {len(expected)}"]
    out = []
    for i, (t, d) in enumerate(zip(expected, drawn, strict=True)):
        if t["type"] == "scatter":
            found = _scatter(t, d)
        elif t["type"] == "bar":
            found = _bar(t, d)
        else:
            span = (spans or {}).get(t.get("scene", "scene"), np.ones(3))
            found = _gl(t, d, span)
        out += [f"trace {i} ({t.get('name', t['type'])}): {why}" for why in found]
    return out
