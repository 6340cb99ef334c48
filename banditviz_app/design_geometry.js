// The Pareto geometry of two maximised objectives, computed in the page while an arm is dragged on the Design
// page (banditviz_app/arms_canvas.py): the same definitions as banditviz.pareto, which the browser tests check it
// against on the same points.
//   paretoMask: no other arm dominates it (MOL-TS Def. 1, 2; duplicates all kept)  = pareto.pareto_mask
//   paretoGap: max(0, max_b min_l (mu_b - mu_a)) (MOL-TS Def. 3)                  = pareto.pareto_gap
//   effectiveMask: the monotone upper chain over the distinct Pareto points, collinear points kept, a point popped
//     only when it lies below a chord by more than 1e-9 * max(1, max |mu|) (MOL-TS Def. 5) = pareto.effective_pareto_mask
//   effectiveGap: min over w in {e1, e2, the exact chain's edge normals} of max_b w.mu_b - w.mu_a, rounding noise
//     (8 * 2 * eps * scale) snapped to 0 (MOL-TS Def. 6)                          = pareto.effective_gap
//   staircase, hullChain: the polylines the preview draws (pareto.pareto_staircase_2d, pareto.upper_hull_2d).
const bvGeometry = (function () {
  const EPS = 2.220446049250313e-16;

  const dominates = (b, a) => b[0] >= a[0] && b[1] >= a[1] && (b[0] > a[0] || b[1] > a[1]);

  function paretoMask(mu) {
    return mu.map((a) => !mu.some((b) => dominates(b, a)));
  }

  function paretoGap(mu) {
    return mu.map((a) => Math.max(0, Math.max(...mu.map((b) => Math.min(b[0] - a[0], b[1] - a[1])))));
  }

  const scale = (mu) => Math.max(1, ...mu.map((r) => Math.max(Math.abs(r[0]), Math.abs(r[1]))));

  // The distinct Pareto points, objective 1 ascending (objective 2 descending), and for each a key "x,y".
  function front(mu) {
    const P = paretoMask(mu);
    const seen = new Map();
    mu.forEach((r, i) => { if (P[i]) seen.set(r[0] + ',' + r[1], r); });
    return Array.from(seen.values()).sort((p, q) => p[0] - q[0] || q[1] - p[1]);
  }

  // Monotone chain over sorted Pareto points (banditviz.pareto.hulls.upper_chain): indices kept.
  function upperChain(pts, tolAbs) {
    const stack = [];
    pts.forEach(([cx, cy], i) => {
      while (stack.length >= 2) {
        const [ax, ay] = pts[stack[stack.length - 2]];
        const [bx, by] = pts[stack[stack.length - 1]];
        const cross = (bx - ax) * (cy - ay) - (by - ay) * (cx - ax);
        if (cross > tolAbs * Math.min(cx - ax, ay - cy)) stack.pop(); else break;
      }
      stack.push(i);
    });
    return stack.map((i) => pts[i]);
  }

  function effectiveMask(mu) {
    const chain = new Set(upperChain(front(mu), 1e-9 * scale(mu)).map((r) => r[0] + ',' + r[1]));
    const P = paretoMask(mu);
    return mu.map((r, i) => P[i] && chain.has(r[0] + ',' + r[1]));
  }

  function effectiveGap(mu) {
    const U = front(mu);
    const chain = upperChain(U, 0);
    const W = [[1, 0], [0, 1]];
    for (let i = 1; i < chain.length; i++) {
      const w = [-(chain[i][1] - chain[i - 1][1]), chain[i][0] - chain[i - 1][0]];
      if (w[0] > 0 && w[1] > 0) W.push([w[0] / (w[0] + w[1]), w[1] / (w[0] + w[1])]);
    }
    const err = 8 * 2 * EPS * scale(mu);
    return mu.map((a) => {
      let g = Infinity;
      for (const w of W) {
        const h = Math.max(...U.map((b) => w[0] * b[0] + w[1] * b[1]));
        g = Math.min(g, h - (w[0] * a[0] + w[1] * a[1]));
      }
      g = Math.max(g, 0);
      return g <= err ? 0 : g;
    });
  }

  // The Pareto staircase (x, y pairs) from the extreme front points, objective 1 ascending.
  function staircase(mu) {
    const F = front(mu);
    const out = [];
    F.forEach((p, i) => {
      if (i > 0) out.push([F[i - 1][0], p[1]]);
      out.push(p);
    });
    return out;
  }

  function hullChain(mu) {
    return upperChain(front(mu), 1e-9 * scale(mu));
  }

  // Everything the preview draws, for the maximised means ``mu`` (K x 2).
  function analyse(mu) {
    return {pareto: paretoMask(mu), effective: effectiveMask(mu), paretoGap: paretoGap(mu),
            effectiveGap: effectiveGap(mu), staircase: staircase(mu), hull: hullChain(mu)};
  }

  return {paretoMask, paretoGap, effectiveMask, effectiveGap, staircase, hullChain, analyse};
})();
globalThis.bvGeometry = bvGeometry;
