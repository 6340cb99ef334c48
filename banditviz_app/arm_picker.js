// The Design page's arm picker for the 3-D preview (banditviz_app/arm_picker.py), a Streamlit custom component v2
// with no element of its own: it listens to the Plotly preview chart inside `.st-key-<box>`. A click selects the arm
// whose marker is under the pointer (the trigger "select" with the arm's index, each marker's customdata[2]); a click
// on empty space unselects (index -1). A press that moves more than DRAG px before its release rotates the scene and
// selects nothing: Plotly's own 3-D "click" event fires when the button goes down over a marker, so a rotation that
// starts on an arm would select it. The arm under the pointer is found by projecting every arm's mean through the
// scene's camera (as Plotly places its hover label), not by Plotly's picking, which returns the effective front's
// surface for an arm behind it. With an arm selected, Delete (or Backspace) asks for its removal (the trigger
// "remove"), Escape unselects; Ctrl+Z undoes and Ctrl+Y (or Ctrl+Shift+Z) redoes (the trigger "history"). Only keys
// pressed on the page itself or on the preview count: those typed in a field or the arm table are theirs.
const DRAG = 5;  // px: a press that moves further is a rotation, not a click
const NEAR = 12;  // px: how far from a marker's centre a click still selects it (the markers' radius is 5 px)

// The arm whose marker is nearest (clientX, clientY) within NEAR px, or null.
function armAt(gd, clientX, clientY) {
  const scene = gd._fullLayout && gd._fullLayout.scene && gd._fullLayout.scene._scene;
  if (!scene || !scene.glplot || !gd._fullData) return null;
  const cam = scene.glplot.cameraParams, s = scene.dataScale, box = scene.glplot.canvas.getBoundingClientRect();
  const mul = (m, v) => [0, 1, 2, 3].map((r) => m[r] * v[0] + m[4 + r] * v[1] + m[8 + r] * v[2] + m[12 + r] * v[3]);
  let best = null, nearest = NEAR;
  gd._fullData.forEach((t) => {
    if (t.type !== 'scatter3d' || t.visible !== true || !t.customdata) return;
    Array.from(t.customdata).forEach((c, k) => {
      const arm = c && c[2];
      if (!Number.isInteger(arm)) return;
      const p = mul(cam.projection, mul(cam.view, mul(cam.model, [t.x[k] * s[0], t.y[k] * s[1], t.z[k] * s[2], 1])));
      const d = Math.hypot(box.left + (0.5 + 0.5 * p[0] / p[3]) * box.width - clientX,
                           box.top + (0.5 - 0.5 * p[1] / p[3]) * box.height - clientY);
      if (d <= nearest) { best = arm; nearest = d; }
    });
  });
  return best;
}

export default function (component) {
  const {data, setTriggerValue} = component;
  let gd = null;
  let press = null;  // {x, y, moved} while a button is down on the chart
  const down = (e) => {  // on the scene only (not the chart's toolbar or legend)
    press = e.target.closest && e.target.closest('.gl-container') ? {x: e.clientX, y: e.clientY, moved: false} : null;
  };
  const move = (e) => {
    if (press && Math.hypot(e.clientX - press.x, e.clientY - press.y) > DRAG) press.moved = true;
  };
  const up = (e) => {
    const p = press;
    press = null;
    if (!p || p.moved || !gd) return;  // a rotation (or a press that began elsewhere)
    const arm = armAt(gd, e.clientX, e.clientY);
    setTriggerValue('select', {arm: arm === null ? -1 : arm, token: data.token, camera: camera()});
  };
  function attach() {
    const found = document.querySelector('.st-key-' + data.box + ' .js-plotly-plot');
    if (found === gd || !found) return;
    detach();
    gd = found;
    gd.addEventListener('pointerdown', down, true);
    window.addEventListener('pointermove', move, true);
    window.addEventListener('pointerup', up, true);
  }
  function detach() {
    if (!gd) return;
    gd.removeEventListener('pointerdown', down, true);
    window.removeEventListener('pointermove', move, true);
    window.removeEventListener('pointerup', up, true);
    gd = null;
  }
  // The scene's camera as the user turned it: the page draws the preview again with it (a new chart would start from
  // the figure's own camera).
  const camera = () => {
    const scene = gd && gd._fullLayout && gd._fullLayout.scene && gd._fullLayout.scene._scene;
    return scene && typeof scene.getCamera === 'function' ? scene.getCamera() : null;
  };
  const key = (e) => {  // keys pressed on the page itself or on the preview (not in the tables or a field)
    const t = e.target;
    if (t && t !== document.body && !(t.closest && t.closest('.st-key-' + data.box))) return;
    if ((e.ctrlKey || e.metaKey) && (e.key === 'z' || e.key === 'Z' || e.key === 'y')) {
      e.preventDefault();
      setTriggerValue('history', e.key === 'y' || e.shiftKey ? 'redo' : 'undo');
      return;
    }
    if (data.selected < 0 || e.altKey || e.ctrlKey || e.metaKey) return;
    if (e.key === 'Delete' || e.key === 'Backspace') {
      e.preventDefault();
      setTriggerValue('remove', {arm: data.selected, token: data.token, camera: camera()});
    } else if (e.key === 'Escape') {
      setTriggerValue('select', {arm: -1, token: data.token, camera: camera()});
    }
  };
  document.addEventListener('keydown', key);
  attach();
  const watch = setInterval(attach, 300);  // the chart arrives after this script, and a rerun may replace it
  return () => {
    clearInterval(watch);
    document.removeEventListener('keydown', key);
    detach();
  };
}
