// The Watch player (banditviz_app/player.py): plays an animated figure's frames in the page, and writes the
// explanation and the per-arm table of the frame on screen. Runs in the page itself (st.html with
// unsafe_allow_javascript), once per rerun of the page; `document.currentScript` is this script's element.
(function () {
  const me = document.currentScript.closest('[data-testid="stHtml"]') || document;
  const bar = me.querySelector('[data-bv-player]');
  if (!bar) return;
  const key = bar.dataset.bvPlayer;
  const bv = window.__bv = window.__bv || {players: {}, memory: {}};
  if (bv.players[key]) bv.players[key].dispose();

  const SPEEDS = JSON.parse(bar.dataset.speeds);
  const TICKS = Number(bar.dataset.ticks);
  const run = bar.dataset.run;
  // What a rerun of the page keeps: the round on screen, playing or not, the speed (a new run starts again).
  const kept = bv.memory[key] && bv.memory[key].run === run ? bv.memory[key] : null;
  const newRun = !!bv.memory[key] && !kept;  // the page had another run before: bring the new one into view
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

  const speed = kept ? kept.speed : bar.dataset.speed;
  // A visitor whose system asks for reduced motion is not played a run unasked: the player waits for play.
  const still = window.matchMedia && window.matchMedia('(prefers-reduced-motion: reduce)').matches;
  const p = {frame: kept ? kept.frame : 0, n: 0, playing: false, ms: SPEEDS[speed], timer: null, gen: 0,
             meta: null, alive: true, autoplay: kept ? kept.playing : bar.dataset.autoplay === '1' && !still,
             motion: null,
             drawn: 0, clock: {frame: 0, t: 0}, seen: new Map(), shown: new Map()};
  bv.players[key] = p;
  const remember = () => { bv.memory[key] = {run, frame: p.frame, playing: p.playing, speed: bar.querySelector('select').value}; };
  bar.querySelector('select').value = speed;

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

  // The bar, the explanation and the table of the frame on screen; each panel is stamped with the frame it shows,
  // so that one a rerun has replaced (empty) is written again (`stale`).
  function drawText() {
    const i = p.frame, m = p.meta;
    const slider = bar.querySelector('input[type=range]');
    slider.max = String(Math.max(0, p.n - 1));
    slider.value = String(i);
    const label = 'round ' + roundOf(i) + (p.meta && p.meta.rounds ? ' of ' + p.meta.rounds[p.n - 1] : '');
    bar.querySelector('.bv-round').textContent = label;
    slider.setAttribute('aria-valuetext', label);
    bar.querySelector('[data-bv=play]').textContent = p.playing ? '\u275a\u275a pause' : '\u25b6 play';
    if (!m) return;
    const ex = find('.bv-explain');
    if (ex) {
      ex.querySelector('.bv-at').textContent = 'Round ' + roundOf(i);
      ex.querySelector('.bv-phase').textContent = m.phase ? m.phase[i] : '';
      const ul = ex.querySelector('ul');
      ul.replaceChildren(...((m.explain && m.explain[i]) || []).map((s) => el('li', s)));
      ex.dataset.frame = run + ':' + i;
    }
    const tb = find('.bv-table');
    if (tb && m.table) {
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
      tb.dataset.frame = run + ':' + i;
    }
  }
  const stale = () => [find('.bv-explain'), find('.bv-table')].some((e) => e && e.dataset.frame !== run + ':' + p.frame);

  // A trace updated by a frame's values: nested objects (marker, line) merged, arrays and plain values replaced.
  const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v) && !ArrayBuffer.isView(v);
  const holds = (trace, values) => Object.keys(values).every((k) => (isObject(values[k])
    ? isObject(trace[k]) && holds(trace[k], values[k]) : JSON.stringify(trace[k]) === JSON.stringify(values[k])));
  function merged(trace, values) {
    const out = Object.assign({}, trace);
    Object.keys(values).forEach((k) => {
      out[k] = isObject(values[k]) && isObject(trace[k]) ? merged(trace[k], values[k]) : values[k];
    });
    return out;
  }

  // Frame i drawn whole: its traces' values merged into the chart's data and drawn by Plotly.react, Plotly's own
  // full drawing path (every mark of every changed trace is drawn again: points, lines, fills, texts, bar colours,
  // an emptied trace's marks removed). Plotly.animate's fast path leaves some of them as they were (a bar's
  // colours, an emptied trace's points), so it is never used.
  // A chart Streamlit has just drawn (not by this player) that already holds frame i's values is not drawn again: a
  // new 2-D chart is drawn at its first frame, and drawing it again delayed the first motion by a whole redraw.
  function draw(gd, i) {
    const frame = gd._transitionData._frameHash ? gd._transitionData._frameHash[String(i)]
      : gd._transitionData._frames[i];
    if (!frame || !window.Plotly) return Promise.resolve();
    if (p.seen.get(gd) !== gd.data && frame.traces.every((t, j) => holds(gd.data[t], frame.data[j] || {}))) {
      return Promise.resolve();
    }
    const data = gd.data.slice();
    frame.traces.forEach((t, j) => { data[t] = merged(gd.data[t], frame.data[j] || {}); });
    keepCameras(gd);
    return window.Plotly.react(gd, data, gd.layout);
  }
  // Each 3-D scene drawn from the camera the person has turned it to: Plotly holds a turn in the scene and writes it
  // to the layout only when the drag ends, so a frame drawn from the layout during a drag (a playing run) turned
  // the scene back, and the run could not be turned while it played.
  function keepCameras(gd) {
    const full = gd._fullLayout;
    Object.keys(full).filter((k) => /^scene\d*$/.test(k) && full[k]._scene).forEach((k) => {
      gd.layout[k] = Object.assign({}, gd.layout[k], {camera: full[k]._scene.getCamera()});
    });
  }

  // Draw frame i on every chart of the container; resolves when Plotly has drawn it. The explanation and the table
  // are written once the charts are drawn: written before, they would make Plotly's measuring of its texts lay the
  // whole page out again (a forced layout in every frame).
  // A draw Plotly refuses is tried once more (a chart Streamlit replaces meanwhile is drawn by the next look, `sync`);
  // a chart on the page that refuses it again is reported in the console and keeps the frame it shows, and the page
  // says that frame: the words never run ahead of the picture.
  function show(i) {
    const frame = p.frame = Math.max(0, Math.min(i, p.n - 1));
    remember();
    const jobs = charts().map((gd) => {
      const attempt = () => new Promise((r) => r(draw(gd, frame)));
      const drawn = attempt().catch(() => attempt()).then(() => true, (e) => {
        if (!gd.isConnected) return true;
        console.error('banditviz player: round ' + roundOf(frame) + ' (frame ' + frame + ') was not drawn: ' +
          ((e && e.message) || e));
        return false;
      });
      // Plotly's promise can stay pending when Streamlit redraws the chart meanwhile: wait at most 2 s.
      return Promise.race([drawn, new Promise((r) => setTimeout(() => r(true), 2000))]).then((ok) => {
        if (ok) { p.seen.set(gd, gd.data); p.shown.set(gd, frame); }
        return ok || !p.shown.has(gd) ? null : p.shown.get(gd);
      });
    });
    if (!jobs.length) drawText();
    return Promise.all(jobs).then((kept) => {
      const back = kept.find((f) => f !== null);
      if (back !== undefined && p.frame === frame) { p.frame = back; remember(); }  // unless another frame was asked
      if (p.alive) drawText();
    });
  }
  // Resolves once the browser has painted what is drawn now (the next animation frame has run its paint).
  const painted = () => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));

  // lead: how many milliseconds of playing time have already passed (p.ms: the next frame is due at once)
  function setPlaying(on, lead = 0) {
    p.playing = on;
    p.gen += 1;
    clearTimeout(p.timer);
    drawText();
    remember();
    if (on) {
      p.clock = {frame: p.frame, t: performance.now() - lead};
      loop(p.gen);
    }
  }

  // The run advances one frame every p.ms milliseconds; frames that are due while the previous one is
  // still being drawn are skipped (a slow redraw keeps the pace instead of slowing it down). Each frame drawn is
  // painted before the next is drawn: drawn back to back (the fastest speed on a slow machine), frames were computed
  // and replaced before the browser could paint them (a 3-D run painted 6 frames/s at the fastest speed, 9 at fast).
  async function loop(gen) {
    if (!p.alive || gen !== p.gen) return;
    if (p.frame >= p.n - 1) { setPlaying(false); return; }
    const due = p.clock.frame + Math.floor((performance.now() - p.clock.t) / p.ms);
    if (due > p.frame) {
      await show(Math.min(due, p.n - 1));
      p.drawn += 1;
      if (p.motion === null) p.motion = performance.now();
      if (!p.alive || gen !== p.gen) return;
      await painted();
      if (!p.alive || gen !== p.gen) return;
    }
    const next = p.clock.t + (p.frame + 1 - p.clock.frame) * p.ms;
    p.timer = setTimeout(() => loop(gen), Math.max(0, next - performance.now()));
  }

  function play(lead = 0) {
    if (p.n < 2) return;
    if (p.frame >= p.n - 1) { show(0); lead = 0; }  // play at the end starts again from the first round
    setPlaying(true, lead);
  }
  const pause = () => setPlaying(false);
  const step = (d) => { pause(); show(p.frame + d); };
  const actions = {
    play: () => (p.playing ? pause() : play()), back: () => step(-1), fwd: () => step(1),
    restart: () => { pause(); show(0); play(); }, end: () => { pause(); show(p.n - 1); },
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
    remember();
    e.target.blur();
  });
  bar.querySelector('input[type=range]').addEventListener('input', (e) => {
    const want = Number(e.target.value);  // read before pause() redraws the bar
    pause();
    show(want);
  });

  // The chart's container is sized (the chart stretches to it, drawn with height="stretch"): in presentation mode
  // (layouts.fill) to the room left at the top of the page down to the playback bar, within the figure's heights; else
  // to the figure's own height, or on a narrow chart (a phone) to the stacked layouts' height. Then the figure takes
  // the layout (meta.layouts) for its width (portrait below portrait_below px, narrow below narrow_below) and height
  // (the tallest not taller than the chart). Where that layout hides the figure's own title and legends, the page
  // shows them ([data-bv-part]). A camera is compared not: once drawn, it is the user's to turn.
  const valueAt = (obj, path) => path.split('.').reduce((o, k) => (o == null ? undefined : o[k]), obj);
  const layoutAt = (obj, path) => valueAt(obj, path.replace(/\[(\d+)\]/g, '.$1'));
  // a path a layout sets to null is Plotly's default, which Plotly's relayout writes by deleting it (undefined)
  const same = (a, b) => (a ?? null) === (b ?? null) || JSON.stringify(a) === JSON.stringify(b);
  function fit(gd) {
    const m = metaOf(gd), L = m && m.layouts, h = host();
    if (!L || !window.Plotly) return;
    const hs = L.heights, width = gd._fullLayout.width;
    const kind = width < L.portrait_below ? 'portrait' : width < L.narrow_below ? 'narrow' : 'wide';
    if (h) {
      // the screen's height under the chart's top, less the controls below it
      const main = h.closest('[data-testid="stMain"]');
      const top = h.getBoundingClientRect().top + (main ? main.scrollTop : 0);
      const below = bar.getBoundingClientRect().bottom - h.getBoundingClientRect().bottom;
      const screen = window.innerHeight - top - below - 8;
      // presenting: the chart fills the screen; else its own height, less on a short screen (a laptop's 768 px);
      // never shorter than the shortest layout it carries
      const room = Math.round(kind === 'portrait' ? L.stacked_height
        : Math.max(hs[0], Math.min(L.fill ? hs[hs.length - 1] : L.base_height, screen)));
      h.classList.add('bv-fit');  // the chart fills its container's height
      if (h.style.height !== room + 'px') h.style.height = room + 'px';
    }
    const k = Math.max(0, hs.filter((x) => x <= gd._fullLayout.height).length - 1);
    const want = L[kind][k];
    const differs = (k) => !k.includes('camera') && !same(layoutAt(gd.layout, k), want[k]);
    const own = want['legend.visible'] !== false;
    // A legend placed in the container's coordinates reserves its room above the panels, and Plotly keeps that
    // reservation when the legend is then hidden (the stacked layout's panels started 260 px down): release it.
    const reserved = gd._fullLayout._reservedMargin;
    const stale = !own && reserved && reserved.legend && Object.keys(reserved.legend).length > 0;
    if (stale) reserved.legend = {};
    if (stale || Object.keys(want).some(differs)) window.Plotly.relayout(gd, want);
    document.querySelectorAll('[data-bv-part][data-bv-for="' + key + '"]').forEach((e) => { e.hidden = own; });
  }

  // Brings a new run's chart into view (the page stays where the form was after Run).
  function reveal() {
    const h = host();
    const top = h ? h.getBoundingClientRect().top : 0;
    if (h && (top < 0 || top > window.innerHeight / 2)) h.scrollIntoView({block: 'start'});
  }

  // The same run's frames (rounds, words, tables): a chart Streamlit draws again, or at another height (presentation
  // mode), is the same run, and keeps the round on screen.
  const content = (m) => JSON.stringify(m ? [m.rounds, m.explain, m.phase, m.table] : null);
  // A chart that is new (Streamlit replaced it, or a new run) or drawn again by Streamlit (its traces went back to
  // frame 0) is drawn at the frame on screen; panels a rerun replaced are written again.
  function sync() {
    if (!p.alive) return;
    const gds = charts();
    if (!gds.length) return;
    gds.forEach(fit);
    const meta = metaOf(gds[0]);
    const n = gds[0]._transitionData._frames.length;
    if (meta !== p.meta || n !== p.n) {
      const first = p.meta === null;
      const another = !first && (n !== p.n || content(meta) !== content(p.meta));
      p.meta = meta;
      if (another || p.frame >= n) p.frame = 0;  // another run in the same player: from its start
      p.n = n;
      drawTicks();
      show(p.frame);
      if (first && newRun) reveal();
      if (first && p.autoplay) {  // the first screen moves at once: frame 1 is due now
        p.autoplay = false;
        play(p.ms);
      }
      return;
    }
    if (gds.some((gd) => p.seen.get(gd) !== gd.data) && !p.playing) show(p.frame);
    else if (stale()) drawText();
  }
  let queued = false;
  const observer = new MutationObserver(() => {
    if (queued) return;
    queued = true;
    requestAnimationFrame(() => { queued = false; sync(); });
  });
  const watchPage = () => {
    const main = document.querySelector('[data-testid="stMain"]') || document.body;
    observer.observe(main, {childList: true, subtree: true});
  };
  watchPage();
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
