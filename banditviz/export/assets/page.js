// An exported run (banditviz/export/page.py): draws the figure held in the page, without its frames' sizes, into
// the chart's container, adds its frames (the player, player.js, then drives them) and keeps it as large as its
// container, which the player sizes.
(function () {
  const gd = document.getElementById('bv-chart');
  const spec = JSON.parse(document.getElementById('bv-figure').textContent);
  const config = JSON.parse(gd.dataset.config);
  window.Plotly.newPlot(gd, spec.data, spec.layout, config).then(() => window.Plotly.addFrames(gd, spec.frames));
  new ResizeObserver(() => { if (gd._fullLayout) window.Plotly.Plots.resize(gd); }).observe(gd);
})();
