// What the browser has drawn of a Plotly chart, trace by trace (the index in gd._fullData), read from the page:
// SVG marks for 2-D traces (points, lines, fills, texts, bars), the WebGL objects' own data for 3-D traces.
// Positions are in pixels of the trace's plot area (2-D) or in data units (3-D, the scene's scale undone). Used by
// tests/browser/drawn.py, which compares them with the frame's data computed in Python.
(sel) => {
  const gd = document.querySelector(sel);
  if (!gd || !gd._fullLayout || !gd._fullData) return null;
  const fl = gd._fullLayout;
  const num = (s) => Array.from(String(s || '').matchAll(/-?\d*\.?\d+(?:e[-+]?\d+)?/gi), (m) => Number(m[0]));
  const shown = (e) => e.isConnected && getComputedStyle(e).display !== 'none' && e.getAttribute('display') !== 'none';
  const style = (e) => { const s = getComputedStyle(e);
    return {fill: s.fill, stroke: s.stroke, strokeWidth: parseFloat(s.strokeWidth) || 0,
            opacity: parseFloat(s.opacity), fillOpacity: parseFloat(s.fillOpacity)}; };
  const axis = (a) => ({range: a.range.slice(), length: a._length});
  const translate = (e) => { const m = /translate\(([^,)]+)[ ,]+([^)]+)\)/.exec(e.getAttribute('transform') || '');
    return m ? [Number(m[1]), Number(m[2])] : null; };
  return gd._fullData.map((t, i) => {
    // every trace is read whatever its `visible`: what is drawn is the evidence (an emptied trace is not visible)
    const rec = {i, name: t.name, type: t.type, visible: t.visible};
    if (t.type === 'scatter' || t.type === 'bar') {
      rec.x = axis(fl[t.xaxis.replace('x', 'xaxis')]);
      rec.y = axis(fl[t.yaxis.replace('y', 'yaxis')]);
      // a trace's group is known by the data d3 bound to it (bar groups carry no uid in their class)
      const groups = Array.from(gd.querySelectorAll(t.type === 'bar' ? '.barlayer g.trace' : '.scatterlayer g.trace'))
        .filter((g) => g.__data__ && g.__data__[0] && g.__data__[0].trace && g.__data__[0].trace.uid === t.uid);
      rec.groups = groups.length;
      const g = groups[0];
      if (!g) return rec;
      if (t.type === 'bar') {
        rec.bars = Array.from(g.querySelectorAll('g.point path')).filter(shown).map((p) => ({
          d: num(p.getAttribute('d')), ...style(p)}));
        return rec;
      }
      rec.points = Array.from(g.querySelectorAll('g.points path.point')).filter(shown).map((p) => ({
        at: translate(p), ...style(p)}));
      rec.lines = Array.from(g.querySelectorAll('path.js-line')).filter(shown).map((p) => ({
        d: p.getAttribute('d') || '', ...style(p)}));
      rec.fills = Array.from(g.querySelectorAll('path.js-fill')).filter(shown).map((p) => ({
        d: p.getAttribute('d') || '', ...style(p)}));
      rec.texts = Array.from(g.querySelectorAll('g.textpoint text')).filter((e) => shown(e) && shown(e.parentNode))
        .map((e) => ({text: e.textContent, at: [Number(e.getAttribute('x')), Number(e.getAttribute('y'))],
                      fill: getComputedStyle(e).fill}));
      return rec;
    }
    const scene = fl[t.scene] && fl[t.scene]._scene;
    const obj = scene && scene.traces[t.uid];
    if (!obj) return rec;
    const scale = scene.dataScale;
    const unscale = (pts) => Array.from(pts || [], (p) => [p[0] / scale[0], p[1] / scale[1], p[2] / scale[2]]);
    rec.scale = scale;
    if (obj.mesh) {
      rec.mesh = {positions: unscale(obj.mesh.positions), cells: Array.from(obj.mesh.cells || [], (c) => Array.from(c)),
                  triangles: obj.mesh.triangleCount};
      return rec;
    }
    const gl = (o) => (o ? {points: unscale(o.points), count: o.pointCount !== undefined ? o.pointCount
                                                                                         : o.vertexCount} : null);
    rec.gl = {markers: gl(obj.scatterPlot), line: obj.linePlot ? {points: unscale(obj.linePlot.points),
                                                                  count: obj.linePlot.vertexCount} : null,
              text: gl(obj.textMarkers), labels: obj.textLabels || null, mode: obj.mode,
              data: obj.data ? {marker: obj.data.marker && {color: obj.data.marker.color},
                                line: obj.data.line && {color: obj.data.line.color},
                                text: obj.data.text, textfont: obj.data.textfont} : null};
    return rec;
  });
}
