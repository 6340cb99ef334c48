"""Client-side playback of an animated figure: controls, the round's explanation and the per-arm table.

The figure (`banditviz.figures.animate` or `race` with ``controls=False``) carries its frames, named
"0".."n-1", and ``layout.meta["bv"]``: the round of each frame, the explanation sentences and phase of
each frame, the per-arm table of each frame, whether a frame needs a full redraw (3-D), and the layouts to
choose from by the chart's width and height (the server knows neither). A script
placed with ``st.html(..., unsafe_allow_javascript=True)`` (it runs in the page itself) drives the chart
(``Plotly.animate`` in 2-D; in 3-D one ``Plotly.restyle`` of what the frame changes, 3-4x faster than
animate, which redraws the whole scene) and fills the explanation and the table for the frame on screen: play, pause,
step, restart, speed, slider and keyboard never wait for the server.

The script is a fixed text with no user data in it; arm and objective names reach the page only through
the figure's meta and are written with ``textContent``, never parsed as HTML.

Decisions: the chart is found again on every step (Streamlit may replace its element), a
`MutationObserver` on the player's container notices a replaced chart or a re-rendered one (whose traces
went back to frame 0) and redraws the frame on screen; one keyboard listener serves every player on the
page (space plays or pauses, the arrow keys step), and is ignored while the focus is in a text field.
Each player is registered by its key, so a rerun that runs the script again replaces the player instead
of adding a second one.
"""

from __future__ import annotations

import hashlib
import re

import streamlit as st

# Milliseconds per frame of each speed (the default run has 200 frames: 100 s slow, 4 s fastest).
SPEEDS = (("slow", 500), ("normal", 150), ("fast", 50), ("fastest", 20))
DEFAULT_SPEED = "normal"
TICKS = 7  # round labels under the slider

_KEY = re.compile(r"^[a-z][a-z0-9_]*$")

CSS = """
<style>
.bv-bar{display:flex;align-items:center;gap:.4rem;flex-wrap:wrap;font-size:1.05rem;color:#111418}
.bv-bar button{font-size:1.1rem;min-width:2.6rem;height:2.4rem;border:1px solid #8a93a3;border-radius:.4rem;
  background:#fff;color:#111418;cursor:pointer;padding:0 .5rem}
.bv-bar button:hover{background:#eef1f6}
.bv-bar button:focus-visible,.bv-bar select:focus-visible,.bv-slider input:focus-visible{outline:3px solid #1d4ed8}
.bv-bar select{font-size:1rem;height:2.4rem;border:1px solid #8a93a3;border-radius:.4rem;background:#fff;color:#111418}
.bv-round{font-weight:700;font-size:1.25rem;margin-left:.4rem;font-variant-numeric:tabular-nums}
.bv-slider{position:relative;flex:1 1 18rem;padding:0 10px 1.4rem 10px;margin-left:.4rem}
.bv-slider input{width:100%;margin:0;accent-color:#1d4ed8;height:1.6rem}
.bv-ticks{position:absolute;left:10px;right:10px;top:1.6rem;height:1.4rem;font-size:.95rem;color:#2b3038}
.bv-ticks span{position:absolute;transform:translateX(-50%);white-space:nowrap}
.bv-ticks span::before{content:"";position:absolute;left:50%;top:-.35rem;height:.3rem;border-left:1px solid #2b3038}
.bv-explain{font-size:1.1rem;line-height:1.45;color:#111418}
.bv-explain .bv-phase{font-weight:700;margin:.1rem 0 .3rem 0}
.bv-explain .bv-at{font-size:1.25rem;font-weight:700;font-variant-numeric:tabular-nums}
.bv-explain ul{margin:.2rem 0 0 1.1rem;padding:0}
.bv-table{overflow-x:auto}
.bv-table table{border-collapse:collapse;font-size:.95rem;color:#111418;font-variant-numeric:tabular-nums}
.bv-table th,.bv-table td{border-bottom:1px solid #c9ced8;padding:.15rem .55rem;text-align:right;white-space:nowrap}
.bv-table th{background:#eef1f6;position:sticky;top:0}
.bv-table td:first-child,.bv-table th:first-child{text-align:left}
.bv-table tr.bv-pulled td{background:#fff1c2;font-weight:700}
.bv-fit{flex:0 0 auto!important;min-height:0!important}
.bv-fit [data-testid=stElementContainer],.bv-fit [data-testid=stFullScreenFrame],.bv-fit [data-testid=stPlotlyChart]{
  flex:1 1 0;min-height:0;height:100%}
</style>
"""

SCRIPT = r"""
<script>
(function () {
  const me = document.currentScript.closest('[data-testid="stHtml"]') || document;
  const bar = me.querySelector('[data-bv-player]');
  if (!bar) return;
  const key = bar.dataset.bvPlayer;
  const bv = window.__bv = window.__bv || {players: {}};
  if (bv.players[key]) bv.players[key].dispose();

  const SPEEDS = JSON.parse(bar.dataset.speeds);
  const TICKS = Number(bar.dataset.ticks);
  const find = (sel) => document.querySelector(sel + '[data-bv-for="' + key + '"]');
  const host = () => document.querySelector('.st-key-' + key);
  const charts = () => {
    const h = host();
    // drawn, not purged (a chart Streamlit is replacing has lost its event emitter), and holding frames
    return h ? Array.from(h.querySelectorAll('.js-plotly-plot')).filter((gd) => gd.isConnected && gd._fullLayout &&
      typeof gd.emit === 'function' && gd._transitionData && gd._transitionData._frames &&
      gd._transitionData._frames.length) : [];
  };
  const metaOf = (gd) => (gd.layout && gd.layout.meta && gd.layout.meta.bv) || null;

  const p = {frame: 0, n: 0, playing: false, ms: SPEEDS[bar.dataset.speed], timer: null, gen: 0, meta: null,
             alive: true, autoplay: bar.dataset.autoplay === '1', motion: null, drawn: 0, clock: {frame: 0, t: 0},
             seen: new Map()};
  bv.players[key] = p;

  const el = (tag, text, cls) => {
    const e = document.createElement(tag);
    if (text !== undefined) e.textContent = text;
    if (cls) e.className = cls;
    return e;
  };
  const cell = (v) => (typeof v === 'number' ? (Number.isInteger(v) ? String(v) : v.toFixed(3))
                       : typeof v === 'boolean' ? (v ? 'yes' : '') : v === null ? '' : String(v));
  const roundOf = (i) => (p.meta && p.meta.rounds ? p.meta.rounds[i] : i);

  function drawTicks() {
    const box = bar.querySelector('.bv-ticks');
    box.replaceChildren();
    if (p.n < 2) return;
    const shown = new Set();
    for (let k = 0; k < TICKS; k++) {
      const i = Math.round(k * (p.n - 1) / (TICKS - 1));
      if (shown.has(i)) continue;
      shown.add(i);
      const s = el('span', String(roundOf(i)));
      s.style.left = (100 * i / (p.n - 1)) + '%';
      box.appendChild(s);
    }
  }

  function drawText() {
    const i = p.frame, m = p.meta;
    const slider = bar.querySelector('input[type=range]');
    slider.max = String(Math.max(0, p.n - 1));
    slider.value = String(i);
    const label = 'round ' + roundOf(i) + (p.meta && p.meta.rounds ? ' of ' + p.meta.rounds[p.n - 1] : '');
    bar.querySelector('.bv-round').textContent = label;
    slider.setAttribute('aria-valuetext', label);
    bar.querySelector('[data-bv=play]').textContent = p.playing ? '\u275a\u275a pause' : '\u25b6 play';
    const ex = find('.bv-explain');
    if (ex) {
      ex.querySelector('.bv-at').textContent = 'Round ' + roundOf(i);
      ex.querySelector('.bv-phase').textContent = m && m.phase ? m.phase[i] : '';
      const ul = ex.querySelector('ul');
      ul.replaceChildren(...((m && m.explain && m.explain[i]) || []).map((s) => el('li', s)));
    }
    const tb = find('.bv-table');
    if (tb && m && m.table) {
      const cols = m.table.columns;
      const head = el('tr');
      cols.forEach((c) => head.appendChild(el('th', c)));
      const pulledCol = cols.indexOf('pulled now');
      const body = (m.table.rows[i] || []).map((row) => {
        const tr = el('tr');
        row.forEach((v) => tr.appendChild(el('td', cell(v))));
        if (pulledCol >= 0 && row[pulledCol] === true) tr.className = 'bv-pulled';
        return tr;
      });
      const t = el('table');
      t.appendChild(el('thead')).appendChild(head);
      t.appendChild(el('tbody')).replaceChildren(...body);
      tb.querySelector('.bv-table-body').replaceChildren(t);
    }
  }

  // Attribute paths of a trace dict ('marker.color'), arrays and plain values as leaves.
  function flatten(obj, prefix, out) {
    Object.keys(obj).forEach((k) => {
      const v = obj[k], path = prefix + k;
      const leaf = v === null || typeof v !== 'object' || Array.isArray(v) || ArrayBuffer.isView(v);
      if (leaf) out[path] = v;
      else flatten(v, path + '.', out);
    });
    return out;
  }
  const valueAt = (trace, path) => path.split('.').reduce((o, k) => (o == null ? undefined : o[k]), trace);
  const same = (a, b) => a === b || JSON.stringify(a) === JSON.stringify(b);

  // Frame i applied by one Plotly.restyle of the values it changes (what Plotly.animate with redraw does,
  // about 3-4x faster in 3-D scenes, which animate redraws whole): every trace the frame moves and whose drawn
  // value differs, each path set to the frame's value (null, Plotly's "default", where a trace had none).
  function restyle(gd, i) {
    const frame = gd._transitionData._frameHash ? gd._transitionData._frameHash[String(i)]
      : gd._transitionData._frames[i];
    if (!frame) return Promise.resolve();
    const traces = [], flats = [], paths = new Set();
    frame.traces.forEach((t, j) => {
      const flat = flatten(frame.data[j] || {}, '', {});
      delete flat.type;
      const changed = Object.keys(flat).filter((k) => !same(valueAt(gd.data[t], k), flat[k]));
      if (!changed.length) return;
      traces.push(t);
      flats.push(flat);
      changed.forEach((k) => paths.add(k));
    });
    if (!traces.length) return Promise.resolve();
    const update = {};
    paths.forEach((k) => {
      update[k] = traces.map((t, j) => {
        const v = k in flats[j] ? flats[j][k] : valueAt(gd.data[t], k);
        return v === undefined ? null : v;
      });
    });
    return window.Plotly.restyle(gd, update, traces);
  }

  // Streamlit draws its chart again with Plotly.react, at times with a copy of the figure it took before fit()
  // relaid it out (on a first load: its copy at the measured width, then the relaid one), and fit() relays it out
  // again at each new size. A Plotly.react or Plotly.relayout that runs while a frame is being animated draws the
  // panels it moves with their 2-D axes where they were before (y tick labels ~22 px right of their axis, x tick
  // labels under the panel below): a chart drawn so during a frame is drawn whole again once the frame is drawn.
  const layouts = new WeakMap();  // chart -> its Plotly.react and Plotly.relayout calls ended since the player met it
  const relaid = (gd) => {
    if (!layouts.has(gd)) {
      layouts.set(gd, 0);
      const count = () => layouts.set(gd, layouts.get(gd) + 1);
      gd.on('plotly_react', count);
      gd.on('plotly_relayout', count);
    }
    return layouts.get(gd);
  };

  // Draw frame i on every chart of the container; resolves when Plotly has drawn it. Frames that need a
  // full redraw (3-D scenes: meta.redraw) are restyled; the others are animated (Plotly's fast path).
  function show(i) {
    p.frame = Math.max(0, Math.min(i, p.n - 1));
    drawText();
    const redraw = !!(p.meta && p.meta.redraw);
    const opts = {frame: {duration: 0, redraw: false}, transition: {duration: 0}, mode: 'immediate'};
    const jobs = charts().map((gd) => {
      if (!window.Plotly) return Promise.resolve();
      const before = relaid(gd);
      const work = redraw ? restyle(gd, p.frame) : window.Plotly.animate(gd, [String(p.frame)], opts);
      // Plotly's promise can stay pending when Streamlit redraws the chart meanwhile: wait at most 2 s.
      const drawn = Promise.resolve(work).catch(() => {});
      return Promise.race([drawn, new Promise((r) => setTimeout(r, 2000))])
        .then(() => (!redraw && relaid(gd) !== before && gd.isConnected ? window.Plotly.redraw(gd) : null))
        .catch(() => {})
        .then(() => p.seen.set(gd, gd.data));
    });
    return Promise.all(jobs);
  }

  // lead: how many milliseconds of playing time have already passed (p.ms: the next frame is due at once)
  function setPlaying(on, lead = 0) {
    p.playing = on;
    p.gen += 1;
    clearTimeout(p.timer);
    drawText();
    if (on) {
      p.clock = {frame: p.frame, t: performance.now() - lead};
      loop(p.gen);
    }
  }

  // The run advances one frame every p.ms milliseconds; frames that are due while the previous one is
  // still being drawn are skipped (a slow 3-D redraw keeps the pace instead of slowing it down).
  async function loop(gen) {
    if (!p.alive || gen !== p.gen) return;
    if (p.frame >= p.n - 1) { setPlaying(false); return; }
    const due = p.clock.frame + Math.floor((performance.now() - p.clock.t) / p.ms);
    if (due > p.frame) {
      await show(Math.min(due, p.n - 1));
      p.drawn += 1;
      if (p.motion === null) p.motion = performance.now();
      if (!p.alive || gen !== p.gen) return;
    }
    const next = p.clock.t + (p.frame + 1 - p.clock.frame) * p.ms;
    p.timer = setTimeout(() => loop(gen), Math.max(0, next - performance.now()));
  }

  function play(lead = 0) {
    if (p.n < 2) return;
    if (p.frame >= p.n - 1) show(0);  // play at the end starts again
    setPlaying(true, lead);
  }
  const pause = () => setPlaying(false);
  const step = (d) => { pause(); show(p.frame + d); };
  const actions = {
    play: () => (p.playing ? pause() : play()), back: () => step(-1), fwd: () => step(1),
    restart: () => { pause(); show(0); }, end: () => { pause(); show(p.n - 1); },
  };
  p.actions = actions;
  p.show = show;

  bar.querySelectorAll('button[data-bv]').forEach((b) => b.addEventListener('click', (e) => {
    e.preventDefault();
    actions[b.dataset.bv]();
  }));
  bar.querySelector('select').addEventListener('change', (e) => {
    p.ms = SPEEDS[e.target.value];
    p.clock = {frame: p.frame, t: performance.now()};
    e.target.blur();
  });
  bar.querySelector('input[type=range]').addEventListener('input', (e) => {
    const want = Number(e.target.value);  // read before pause() redraws the bar
    pause();
    show(want);
  });

  // A figure with several heights (presentation mode) fills the screen down to the playback bar: its container is
  // sized (the chart stretches to it) to the room left at the top of the page, within the heights. Then the figure
  // takes the layout (meta.layouts) for its width ("narrow" below narrow_below px) and height (the tallest not
  // taller than the chart). A camera is compared not: once drawn, it is the user's to turn.
  const layoutAt = (obj, path) => valueAt(obj, path.replace(/\[(\d+)\]/g, '.$1'));
  function fit(gd) {
    const m = metaOf(gd), L = m && m.layouts, h = host();
    if (!L || !window.Plotly) return;
    const hs = L.heights;
    if (hs.length > 1 && h) {
      const main = h.closest('[data-testid="stMain"]');
      const top = h.getBoundingClientRect().top + (main ? main.scrollTop : 0);
      const below = bar.getBoundingClientRect().bottom - h.getBoundingClientRect().bottom;
      const room = Math.round(Math.max(hs[0], Math.min(hs[hs.length - 1], window.innerHeight - top - below - 8)));
      h.classList.add('bv-fit');  // the chart (drawn with height="stretch") fills its container's height
      if (h.style.height !== room + 'px') h.style.height = room + 'px';
    }
    const k = Math.max(0, hs.filter((x) => x <= gd._fullLayout.height).length - 1);
    const want = (gd._fullLayout.width < L.narrow_below ? L.narrow : L.wide)[k];
    const differs = (k) => !k.includes('camera') && !same(layoutAt(gd.layout, k), want[k]);
    if (Object.keys(want).some(differs)) window.Plotly.relayout(gd, want);
  }

  // A chart that is new (Streamlit replaced it, or a new run) or re-rendered (its traces were reset).
  function sync() {
    if (!p.alive) return;
    const gds = charts();
    if (!gds.length) return;
    gds.forEach(fit);
    const meta = metaOf(gds[0]);
    const n = gds[0]._transitionData._frames.length;
    if (meta !== p.meta || n !== p.n) {
      const fresh = p.meta === null;
      p.meta = meta;
      p.n = n;
      drawTicks();
      if (fresh && p.frame === 0) {  // a new chart already draws frame 0
        drawText();
        gds.forEach((gd) => p.seen.set(gd, gd.data));
      } else {
        p.frame = 0;
        show(0);
      }
      if (fresh && p.autoplay) {  // the first screen moves at once: frame 1 is due now
        p.autoplay = false;
        play(p.ms);
      }
      return;
    }
    if (gds.some((gd) => p.seen.get(gd) !== gd.data) && !p.playing) show(p.frame);
  }
  let queued = false;
  const observer = new MutationObserver(() => {
    if (queued) return;
    queued = true;
    requestAnimationFrame(() => { queued = false; sync(); });
  });
  const watchHost = () => {
    const h = host();
    if (h) observer.observe(h, {childList: true, subtree: true});
    else if (p.alive) setTimeout(watchHost, 100);
  };
  watchHost();
  // Frames can arrive without a DOM change (Plotly.addFrames): look every 50 ms until the first chart is
  // there (autoplay starts at once), then every 500 ms.
  let poll = setInterval(() => {
    sync();
    if (p.n > 0) { clearInterval(poll); poll = setInterval(sync, 500); }
  }, 50);

  p.dispose = () => {
    p.alive = false;
    p.gen += 1;
    clearTimeout(p.timer);
    clearInterval(poll);
    observer.disconnect();
    if (bv.players[key] === p) delete bv.players[key];
  };
  sync();

  if (!bv.keys) {
    bv.keys = true;
    document.addEventListener('keydown', (e) => {
      const t = e.target;
      if (e.altKey || e.ctrlKey || e.metaKey) return;
      if (t && (t.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(t.tagName)) &&
          !(t.tagName === 'INPUT' && t.type === 'range' && t.closest('[data-bv-player]'))) return;
      const name = {' ': 'play', ArrowLeft: 'back', ArrowRight: 'fwd', Home: 'restart', End: 'end'}[e.key];
      if (!name) return;
      const live = Object.values(bv.players).filter((q) => q.alive && q.n > 0);
      if (!live.length) return;
      e.preventDefault();
      live.forEach((q) => q.actions[name]());
    }, true);
  }
})();
</script>
"""


def _check_key(key: str) -> str:
    if not _KEY.match(key):
        raise ValueError(f"key: must be lower-case letters, digits and underscores, got {key!r}")
    return key


def chart_container(key: str):
    """The container the chart goes in: the player drives every animated chart inside it."""
    return st.container(key=_check_key(key))


def controls(key: str, run_id: str, *, autoplay: bool = False) -> None:
    """The playback bar under the chart of ``chart_container(key)``, and the script that drives it.

    ``run_id`` names what is drawn (a new value restarts the player); ``autoplay`` plays at once.
    """
    speeds = "{" + ",".join(f'"{name}":{ms}' for name, ms in SPEEDS) + "}"
    options = "".join(f'<option value="{name}"{" selected" if name == DEFAULT_SPEED else ""}>speed: {name}</option>'
                      for name, _ in SPEEDS)
    run = hashlib.sha1(run_id.encode()).hexdigest()[:12]
    body = (
        f"{CSS}<div class='bv-bar' data-bv-player='{_check_key(key)}' data-run='{run}' data-ticks='{TICKS}' "
        f"data-autoplay='{int(autoplay)}' data-speed='{DEFAULT_SPEED}' data-speeds='{speeds}'>"
        "<button data-bv='restart' title='Restart (Home)' aria-label='restart'>&#x21BA; restart</button>"
        "<button data-bv='back' title='One frame back (left arrow)' aria-label='one frame back'>&#x25C0; step</button>"
        "<button data-bv='play' title='Play or pause (space)' aria-label='play or pause'>&#x25B6; play</button>"
        "<button data-bv='fwd' title='One frame forward (right arrow)' aria-label='one frame forward'>step &#x25B6;"
        "</button>"
        f"<select aria-label='speed'>{options}</select><span class='bv-round'></span>"
        "<div class='bv-slider'><input type='range' min='0' max='0' step='1' value='0' "
        "aria-label='frame'><div class='bv-ticks'></div></div></div>"
    )
    st.html(body + SCRIPT, unsafe_allow_javascript=True)


def explanation(key: str) -> None:
    """The panel beside the chart where the player writes the round on screen, its phase and sentences."""
    st.html(f"{CSS}<div class='bv-explain' data-bv-for='{_check_key(key)}'><div class='bv-at'></div>"
            "<div class='bv-phase'></div><ul></ul></div>")


def table(key: str) -> None:
    """The per-arm table of the round on screen (filled by the player)."""
    st.html(f"{CSS}<div class='bv-table' data-bv-for='{_check_key(key)}'><div class='bv-table-body'></div></div>")
