// Static figures on a narrow screen (banditviz_app/charts.py): a figure's title, panel titles and legend entries are
// written for a laptop; on a phone they ran past the chart's edge and were cut. Where one does, its words are put on
// more lines (at spaces, measured in the text's own font) and the top margin grows by the title's added lines; the
// texts as written are kept, so a wider chart gets them back. A legend in columns whose entries would run into each
// other is put in one column. Charts a player drives (Watch's: their layouts carry their own narrow forms) are left
// alone. Installed once per page; it looks at the charts twice a second.
// No '<' before a letter or '/' in this file (written \x3c): Streamlit's sanitiser drops such a script.
(function () {
  if (window.__bvNarrow) return;
  window.__bvNarrow = true;
  const canvas = document.createElement('canvas').getContext('2d');
  const LINE = 1.25;  // a wrapped line's height, in font sizes
  const BREAK = /\x3cbr\s*\/?>/gi;  // a kept line break (split and replace ignore the g flag's position)
  const linesOf = (s) => String(s).split(BREAK);

  const plain = (s) => String(s).replace(/\x3c[^>]*>/g, '');
  const widthOf = (s, font) => { canvas.font = font; return canvas.measureText(plain(s)).width; };

  // ``text`` on lines no wider than ``room`` px (a word wider than room stands alone), kept breaks kept.
  function wrap(text, room, font) {
    return linesOf(text).map((para) => {
      const lines = [];
      let line = '';
      para.split(' ').forEach((word) => {
        const next = line ? line + ' ' + word : word;
        if (line && widthOf(next, font) > room) { lines.push(line); line = word; } else line = next;
      });
      lines.push(line);
      return lines.join('\x3cbr>');
    }).join('\x3cbr>');
  }
  const lines = (s) => linesOf(s).length;
  const fontOf = (el) => { const c = getComputedStyle(el); return `${c.fontSize} ${c.fontFamily}`; };
  const sizeOf = (el) => parseFloat(getComputedStyle(el).fontSize);

  function fit(gd) {
    const fl = gd._fullLayout;
    if (!fl || !gd.layout || gd.closest('.bv-fit') || !window.Plotly) return;  // a player's chart: its own layouts
    const box = gd.getBoundingClientRect(), width = Math.round(Math.min(fl.width, box.width)), edge = 6;
    const seen = gd.__bvNarrow;
    if (!box.width) return;  // hidden (a closed tab): fitted when shown
    // laid out wider than its box: caught between its container's resize and its own (its texts stand where the wider
    // layout put them, and an entry at a row's end would get one word a line): a later look fits it; a chart still
    // wider after four looks (2 s) stays so, and its texts are fitted to its box
    gd.__bvWider = fl.width > box.width + 1 ? (gd.__bvWider || 0) + 1 : 0;
    if (gd.__bvWider && gd.__bvWider < 4) return;
    if (seen && seen.layout === gd.layout && seen.width === width && seen.laid === fl.width && holds(gd, seen)) return;
    // the figure as written, kept in its layout: Streamlit redraws a chart after a relayout from a copy of its layout
    const own = gd.layout.__bvOwn || (gd.layout.__bvOwn = {  // a new figure: its texts as written
      title: gd.layout.title && gd.layout.title.text, top: (gd.layout.margin && gd.layout.margin.t) || fl.margin.t,
      notes: (gd.layout.annotations || []).map((a) => a.text), names: gd.data.map((t) => t.name),
      legend: {...gd.layout.legend}});
    // laid: the width it was laid out at (a chart fitted as it stood, wider than its box, is fitted again once it has
    // taken its box's width: its entries were measured where the wider layout put them)
    gd.__bvNarrow = {width, laid: fl.width, own, layout: gd.layout};
    const one = oneColumn(gd, own);
    if (one != null && (gd.layout.legend.entrywidth === 1) !== one) {  // the columns first, the texts at the next look
      gd.__bvNarrow.width = null;
      window.Plotly.relayout(gd, {'legend.entrywidth': one ? 1 : own.legend.entrywidth});
      return;
    }
    const fitted = (text, room, font) => (widthOf(text, font) > room ? wrap(text, room, font) : text);
    const layout = {}, names = {}, wanted = {};
    const title = gd.querySelector('.gtitle');
    if (own.title && title) {
      const text = fitted(own.title, width - 2 * edge, fontOf(title));
      layout['title.text'] = text;
      layout['margin.t'] = own.top + (lines(text) - lines(own.title)) * LINE * sizeOf(title);
    }
    gd.querySelectorAll('g.annotation').forEach((g) => {
      const i = Number(g.getAttribute('data-index')), t = g.querySelector('text'), a = fl.annotations[i];
      if (!t || !a || own.notes[i] == null) return;
      // where it stands (px from the chart's left), and the room its anchor leaves it
      const at = a.xref === 'paper' ? fl._size.l + a.x * fl._size.w : t.getBoundingClientRect().left - box.left;
      const room = a.xanchor === 'left' ? width - at - edge : a.xanchor === 'right' ? at - edge
        : 2 * Math.min(at, width - at) - 2 * edge;
      layout[`annotations[${i}].text`] = fitted(own.notes[i], Math.max(80, room), fontOf(t));
    });
    gd.querySelectorAll('g.legend g.traces').forEach((g) => {
      const t = g.querySelector('text.legendtext'), d = g.__data__ && g.__data__[0] && g.__data__[0].trace;
      if (!t || !d || own.names[d.index] == null) return;
      const written = one ? String(own.names[d.index]).replace(BREAK, ' ') : own.names[d.index];
      const want = fitted(written, box.right - t.getBoundingClientRect().left - edge, fontOf(t));
      wanted[d.index] = want;
      if (want !== d.name) names[d.index] = want;
    });
    Object.assign(gd.__bvNarrow, {texts: layout, names: wanted});
    const changed = Object.fromEntries(Object.entries(layout).filter(([k, v]) => at(gd, k) !== v));
    const idx = Object.keys(names).map(Number);
    const done = Object.keys(changed).length ? window.Plotly.relayout(gd, changed) : Promise.resolve();
    done.then(() => idx.length && window.Plotly.restyle(gd, {name: idx.map((i) => names[i])}, idx))
      .catch(() => { gd.__bvNarrow = null; });  // refused (a chart being redrawn): the next look fits it again
  }

  const at = (gd, path) => path.replace(/\[(\d+)\]/g, '.$1').split('.')
    .reduce((o, p) => (o == null ? o : o[p]), gd.layout);
  // The chart still shows the texts last fitted to it (a redraw from its figure as written would have put them back).
  const holds = (gd, seen) => Object.entries(seen.texts || {}).every(([k, v]) => at(gd, k) === v)
    && Object.entries(seen.names || {}).every(([i, name]) => !gd.data[i] || gd.data[i].name === name);

  // A legend in columns (entrywidthmode 'fraction', as Learn's confidence boxes): true when an entry's text, as
  // written, is wider than its column (it would run into the next column's entry), false when all fit, null for any
  // other legend. In one column, a name's breaks (written for half a column) are put back as spaces.
  function oneColumn(gd, own) {
    const lg = gd._fullLayout.legend, share = own.legend.entrywidth, t = gd.querySelector('g.legend text.legendtext');
    if (!lg || !t || lg.orientation !== 'h' || own.legend.entrywidthmode !== 'fraction' || !(share > 0 && share < 1)) {
      return null;
    }
    const room = lg._maxWidth * share - (lg.itemwidth + lg.indentation + 10), font = fontOf(t);
    const shown = Array.from(gd.querySelectorAll('g.legend g.traces'), (g) => g.__data__[0].trace.index);
    const widest = Math.max(...shown.map((i) => own.names[i]).filter((n) => n != null)
      .flatMap(linesOf).map((line) => widthOf(line, font)));
    return widest > room;
  }

  setInterval(() => document.querySelectorAll('.js-plotly-plot').forEach((gd) => {
    try { fit(gd); } catch (e) { /* a chart being replaced: the next look fits it */ }
  }), 500);
})();
