// The Design page's arms canvas (banditviz_app/arms_canvas.py), a Streamlit custom component v2 (in the page, no
// iframe): the arms of a two-objective fixed-means instance, its Pareto front, its effective front and every arm's
// gaps, which follow while an arm is dragged (bvGeometry, prepended to this file, computes them in the page).
// Drag an arm to move it, click empty space to add one, click an arm to select it; Delete removes the selected arm,
// the arrow keys move it (Shift: ten times further), Escape unselects, Ctrl+Z undoes and Ctrl+Y (or Ctrl+Shift+Z)
// redoes. An edit reaches Python once, when the pointer is released, as the trigger "edit": the whole table of means
// (display orientation), the arm names and the token of the instance it was made on; undo and redo as the trigger
// "history". Names are written with textContent, never parsed as HTML.
const SVGNS = 'http://www.w3.org/2000/svg';
const MARGIN = {l: 76, r: 24, t: 18, b: 64};
const kept = new Map();  // per component: the selected arm's name, kept across reruns while an arm has that name

function el(tag, attrs, parent, ns) {
  const e = ns ? document.createElementNS(SVGNS, tag) : document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
  if (parent) parent.appendChild(e);
  return e;
}

// Round ticks covering [lo, hi] (about five).
function ticks(lo, hi) {
  const raw = (hi - lo) / 5;
  const mag = Math.pow(10, Math.floor(Math.log10(raw)));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * mag).find((s) => s >= raw);
  const out = [];
  for (let v = Math.ceil(lo / step) * step; v <= hi + step * 1e-9; v += step) out.push(Math.round(v / step) * step);
  return {values: out, digits: Math.max(0, -Math.floor(Math.log10(step) + 1e-9))};
}

// The axes' ranges: the points' box, padded by 12% (at least 0.1 when all points share a coordinate).
function ranges(points) {
  return [0, 1].map((j) => {
    const v = points.map((p) => p[j]);
    const lo = Math.min(...v), hi = Math.max(...v);
    const pad = Math.max((hi - lo) * 0.12, 0.1);
    return [lo - pad, hi + pad];
  });
}

const fmt = (v) => (Math.abs(v) < 5e-4 ? '0' : v.toFixed(3));

export default function (component) {
  const {data, parentElement, setTriggerValue, key} = component;
  let root = parentElement.querySelector('.bv-canvas');
  if (!root) {
    root = el('div', {class: 'bv-canvas'}, parentElement);
    el('div', {class: 'bv-canvas-head', 'aria-live': 'polite'}, root);
    el('svg', {class: 'bv-canvas-svg', tabindex: '0', role: 'application',
               'aria-label': 'Arms of the instance: drag an arm to move it, click empty space to add one, ' +
                             'select an arm and press Delete to remove it'}, root, true);
    el('div', {class: 'bv-canvas-legend'}, root);
    el('div', {class: 'bv-canvas-note'}, root);
    el('table', {class: 'bv-canvas-gaps'}, el('div', {class: 'bv-canvas-scroll'}, root));
  }
  const svg = root.querySelector('svg');
  const head = root.querySelector('.bv-canvas-head');
  const note = root.querySelector('.bv-canvas-note');
  const table = root.querySelector('table');
  const colors = data.colors;
  const sign = data.signs;  // display = maximised * sign, per objective
  const prev = kept.get(key);
  const s = {
    points: data.points.map((p) => p.slice()),  // display orientation
    names: data.names.slice(),
    selected: prev && prev.selected !== null && data.names.includes(prev.selected) ?
      data.names.indexOf(prev.selected) : null,
    range: ranges(data.points),
    drag: null,
  };
  const remember = () => kept.set(key, {selected: s.selected === null ? null : s.names[s.selected]});
  remember();
  root.dataset.token = data.token;

  const width = () => Math.max(320, Math.round(root.clientWidth || 600));
  // In presentation mode (data.fit) the plot takes the screen's height below its top, less the legend's room.
  let height = data.height;
  const fitHeight = () => Math.max(300, Math.round(window.innerHeight - svg.getBoundingClientRect().top - 64));
  const px = (x, w) => MARGIN.l + (x - s.range[0][0]) / (s.range[0][1] - s.range[0][0]) * (w - MARGIN.l - MARGIN.r);
  const py = (y) => MARGIN.t + (s.range[1][1] - y) / (s.range[1][1] - s.range[1][0]) * (height - MARGIN.t - MARGIN.b);
  // A pointer position in data units, rounded to a thousandth of the axis's span (a round number in the table).
  function toData(evt) {
    const box = svg.getBoundingClientRect();
    const w = width();
    const fx = (evt.clientX - box.left - MARGIN.l) / (w - MARGIN.l - MARGIN.r);
    const fy = (evt.clientY - box.top - MARGIN.t) / (height - MARGIN.t - MARGIN.b);
    return [fx * (s.range[0][1] - s.range[0][0]) + s.range[0][0], s.range[1][1] - fy * (s.range[1][1] - s.range[1][0])]
      .map((v, j) => roundTo(v, j));
  }
  function roundTo(v, j) {
    const span = s.range[j][1] - s.range[j][0];
    const step = Math.pow(10, Math.floor(Math.log10(span)) - 2);
    return Number((Math.round(v / step) * step).toFixed(Math.max(0, 2 - Math.floor(Math.log10(span)))));
  }
  const maximised = () => s.points.map((p) => [p[0] * sign[0], p[1] * sign[1]]);

  function send(what) {
    remember();
    setTriggerValue('edit', {token: data.token, what, means: s.points, names: s.names});
  }

  function draw() {
    const w = width();
    if (data.fit) height = fitHeight();
    svg.setAttribute('viewBox', `0 0 ${w} ${height}`);
    svg.setAttribute('width', w);
    svg.setAttribute('height', height);
    svg.replaceChildren();
    const g = analyseDisplay();
    // axes, grid and ticks
    const x0 = MARGIN.l, x1 = w - MARGIN.r, y0 = MARGIN.t, y1 = height - MARGIN.b;
    el('rect', {x: x0, y: y0, width: x1 - x0, height: y1 - y0, class: 'bv-plot', 'data-bv': 'plot'}, svg, true);
    const tx = ticks(...s.range[0]), ty = ticks(...s.range[1]);
    tx.values.forEach((v) => {
      el('line', {x1: px(v, w), x2: px(v, w), y1: y0, y2: y1, class: 'bv-grid'}, svg, true);
      el('text', {x: px(v, w), y: y1 + 22, class: 'bv-tick', 'text-anchor': 'middle'}, svg, true).textContent =
        v.toFixed(tx.digits);
    });
    ty.values.forEach((v) => {
      el('line', {x1: x0, x2: x1, y1: py(v), y2: py(v), class: 'bv-grid'}, svg, true);
      el('text', {x: x0 - 8, y: py(v) + 5, class: 'bv-tick', 'text-anchor': 'end'}, svg, true).textContent =
        v.toFixed(ty.digits);
    });
    el('text', {x: (x0 + x1) / 2, y: height - 10, class: 'bv-axis', 'text-anchor': 'middle'}, svg, true)
      .textContent = data.axes[0];
    el('text', {x: 20, y: (y0 + y1) / 2, class: 'bv-axis', 'text-anchor': 'middle',
                transform: `rotate(-90 20 ${(y0 + y1) / 2})`}, svg, true).textContent = data.axes[1];
    // the fronts, then the arms
    const line = (pts, cls, colour) => el('polyline', {
      points: pts.map((p) => `${px(p[0], w)},${py(p[1])}`).join(' '), class: cls, stroke: colour, fill: 'none',
      'data-bv': cls}, svg, true);
    line(g.staircase, 'bv-front', colors.front);
    line(g.hull, 'bv-hull', colors.hull);
    s.points.forEach((p, i) => {
      const cls = g.effective[i] ? 'hull' : g.pareto[i] ? 'front' : 'rejected';
      const grp = el('g', {class: 'bv-arm' + (i === s.selected ? ' bv-selected' : ''), 'data-arm': i,
                           'data-class': cls, transform: `translate(${px(p[0], w)},${py(p[1])})`}, svg, true);
      if (i === s.selected) el('circle', {r: 16, class: 'bv-ring'}, grp, true);
      if (cls === 'front') el('path', {d: 'M0,-11 L11,0 L0,11 L-11,0 Z', fill: colors.front}, grp, true);
      else el('circle', {r: 9, fill: colors[cls]}, grp, true);
      if (data.labels) {  // many arms: named on hover only, as in the Plotly preview
        el('text', {y: i === s.selected ? -21 : -15, 'text-anchor': 'middle', class: 'bv-label'}, grp, true)
          .textContent = s.names[i];
      }
      el('title', {}, grp, true).textContent = `${s.names[i]}: (${fmt(p[0])}, ${fmt(p[1])}), Pareto gap ` +
        `${fmt(g.paretoGap[i])}, effective gap ${fmt(g.effectiveGap[i])}`;
    });
    const nP = g.pareto.filter(Boolean).length, nC = g.effective.filter(Boolean).length;
    head.textContent = `${nP} Pareto-optimal arm${nP === 1 ? '' : 's'}, ${nC} on the effective front`;
    drawTable(g);
  }

  // The geometry in display orientation (bvGeometry works on maximised means).
  function analyseDisplay() {
    const g = bvGeometry.analyse(maximised());
    const back = (pts) => pts.map((p) => [p[0] * sign[0], p[1] * sign[1]]);
    return {...g, staircase: back(g.staircase), hull: back(g.hull)};
  }

  function drawTable(g) {
    table.replaceChildren();
    const headRow = el('tr', {}, el('thead', {}, table));
    ['arm', data.columns[0], data.columns[1], 'front', 'Pareto gap', 'effective gap']
      .forEach((h) => { el('th', {scope: 'col'}, headRow).textContent = h; });
    const body = el('tbody', {}, table);
    s.points.forEach((p, i) => {
      const tr = el('tr', {'data-arm': i, class: i === s.selected ? 'bv-selected' : ''}, body);
      const front = g.effective[i] ? 'effective' : g.pareto[i] ? 'Pareto only' : 'dominated';
      [s.names[i], fmt(p[0]), fmt(p[1]), front, fmt(g.paretoGap[i]), fmt(g.effectiveGap[i])]
        .forEach((v) => { el('td', {}, tr).textContent = v; });
    });
  }

  function freshName() {
    const taken = new Set(s.names);
    for (let k = s.points.length; ; k++) if (!taken.has(`arm ${k}`)) return `arm ${k}`;
  }

  function say(text) { note.textContent = text; }

  svg.onpointerdown = (evt) => {
    if (evt.button !== 0) return;
    svg.focus({preventScroll: true});
    const arm = evt.target.closest('[data-arm]');
    if (arm) {
      const i = Number(arm.dataset.arm);
      s.drag = {arm: i, x: evt.clientX, y: evt.clientY, moved: false};
      svg.setPointerCapture(evt.pointerId);
      evt.preventDefault();
    } else if (evt.target.closest('[data-bv="plot"], .bv-front, .bv-hull, .bv-grid')) {
      s.names.push(freshName());
      s.points.push(toData(evt));
      s.selected = s.points.length - 1;
      say(`Added ${s.names[s.selected]}.`);
      draw();
      send('add');
    }
  };
  svg.onpointermove = (evt) => {
    const d = s.drag;
    if (!d) return;
    if (!d.moved && Math.hypot(evt.clientX - d.x, evt.clientY - d.y) < 3) return;
    d.moved = true;
    s.points[d.arm] = toData(evt);
    s.selected = d.arm;
    draw();
  };
  svg.onpointerup = (evt) => {
    const d = s.drag;
    if (!d) return;
    s.drag = null;
    if (svg.hasPointerCapture(evt.pointerId)) svg.releasePointerCapture(evt.pointerId);
    if (d.moved) {
      say(`Moved ${s.names[d.arm]}.`);
      send('move');
    } else {
      s.selected = s.selected === d.arm ? null : d.arm;
      remember();
      say(s.selected === null ? '' : `${s.names[d.arm]} selected: Delete removes it, the arrow keys move it.`);
      draw();
    }
  };
  svg.onkeydown = (evt) => {
    const ctrl = evt.ctrlKey || evt.metaKey;
    if (ctrl && (evt.key === 'z' || evt.key === 'Z' || evt.key === 'y')) {
      setTriggerValue('history', evt.key === 'y' || evt.shiftKey ? 'redo' : 'undo');
      evt.preventDefault();
      return;
    }
    const i = s.selected;
    if (evt.key === 'Escape') { s.selected = null; remember(); say(''); draw(); return; }
    if (i === null) return;
    if (evt.key === 'Delete' || evt.key === 'Backspace') {
      evt.preventDefault();
      if (s.points.length <= 2) { say('An instance needs at least 2 arms.'); return; }
      const name = s.names[i];
      s.points.splice(i, 1);
      s.names.splice(i, 1);
      s.selected = null;
      say(`Removed ${name}.`);
      draw();
      send('remove');
      return;
    }
    const step = {ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, 1], ArrowDown: [0, -1]}[evt.key];
    if (!step) return;
    evt.preventDefault();
    const by = evt.shiftKey ? 0.1 : 0.01;
    s.points[i] = s.points[i].map((v, j) => roundTo(v + step[j] * by * (s.range[j][1] - s.range[j][0]), j));
    draw();
    send('move');
  };

  // the legend: what each mark is
  const legend = root.querySelector('.bv-canvas-legend');
  legend.replaceChildren();
  [['hull', 'on the effective front (convex hull)'], ['front', 'Pareto optimal, not on the effective front'],
   ['rejected', 'dominated']].forEach(([cls, text]) => {
    const item = el('span', {class: 'bv-key'}, legend);
    el('span', {class: 'bv-swatch bv-swatch-' + cls, style: `background:${colors[cls]}`}, item);
    item.appendChild(document.createTextNode(text));
  });
  [['front', 'Pareto front', 'solid'], ['hull', 'effective front (convex hull)', 'dotted']].forEach(([c, text, st]) => {
    const item = el('span', {class: 'bv-key'}, legend);
    el('span', {class: 'bv-stroke', style: `border-top:4px ${st} ${colors[c]}`}, item);
    item.appendChild(document.createTextNode(text));
  });

  draw();
  const redraw = () => { if (!s.drag) draw(); };
  const resize = new ResizeObserver(redraw);
  resize.observe(root);
  window.addEventListener('resize', redraw);
  return () => { resize.disconnect(); window.removeEventListener('resize', redraw); };
}
