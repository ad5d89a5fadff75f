// Plot tools: Fit, Lock, zoom and pan (wheel, drag, pinch, double-click to fit) and a hover/tap
// read-out of the nearest point. Wiring only: which ranges the axes take and the read-out text
// come from the wasm Lab (lab.rs, friction-plot); this file forwards pointer events to it.

const $ = (id) => document.getElementById(id);
const WHEEL_RATE = 0.0015; // zoom factor per wheel delta pixel: e^(0.0015·100) ≈ 1.16 per notch
const HOVER_RADIUS = 24; // CSS px within which a point is read out

/** Adds the toolbar under the plot and the pointer handlers; `page` is app.js's Page. */
export function attachPlotTools(page) {
  const box = $("plot-box");
  const bar = document.createElement("div");
  bar.className = "plot-tools";
  bar.id = "plot-tools";
  const fit = document.createElement("button");
  fit.type = "button";
  fit.id = "fit-axes";
  fit.textContent = "Fit";
  fit.title = "Fit the axes to the data (also: double-click the plot)";
  const lockLabel = document.createElement("label");
  lockLabel.className = "inline";
  const lock = document.createElement("input");
  lock.type = "checkbox";
  lock.id = "lock-axes";
  lockLabel.append(lock, " Lock axes");
  lockLabel.title = "Keep the axes as they are, even when data leave them";
  const hint = document.createElement("span");
  hint.className = "hint";
  hint.textContent = "wheel or pinch: zoom · drag: pan · double-click: fit";
  const read = document.createElement("output");
  read.id = "plot-readout";
  read.className = "plot-readout";
  read.setAttribute("aria-live", "off");
  bar.append(fit, lockLabel, hint, read);
  box.after(bar);

  const lab = () => page.lab;
  const redraw = () => { page.schedule(); };
  const local = (ev) => {
    const r = box.getBoundingClientRect();
    return [ev.clientX - r.left, ev.clientY - r.top];
  };
  fit.addEventListener("click", () => { lab().fit(); redraw(); });
  lock.addEventListener("change", () => { lab().setLocked(lock.checked); redraw(); });
  box.addEventListener("dblclick", (ev) => { ev.preventDefault(); lab().fit(); redraw(); });
  box.addEventListener("wheel", (ev) => {
    const [x, y] = local(ev);
    const dy = ev.deltaMode === 1 ? ev.deltaY * 16 : ev.deltaY;
    const axis = ev.shiftKey ? "x" : ev.altKey ? "y" : "xy";
    if (lab().zoom(x, y, Math.exp(dy * WHEEL_RATE), axis)) { ev.preventDefault(); redraw(); }
  }, { passive: false });

  // one pointer drags (pan), two pinch (zoom about their midpoint)
  const down = new Map();
  let pinch = null;
  box.style.touchAction = "none";
  box.addEventListener("pointerdown", (ev) => {
    down.set(ev.pointerId, local(ev));
    box.setPointerCapture(ev.pointerId);
    if (down.size === 2) {
      const [a, b] = [...down.values()];
      pinch = Math.hypot(a[0] - b[0], a[1] - b[1]);
    }
    if (ev.pointerType !== "mouse") showNearest(ev);
  });
  const up = (ev) => { down.delete(ev.pointerId); if (down.size < 2) pinch = null; };
  box.addEventListener("pointerup", up);
  box.addEventListener("pointercancel", up);
  let hoverQueued = null;
  const showNearest = (ev) => {
    const p = local(ev);
    if (hoverQueued) { hoverQueued = p; return; }
    hoverQueued = p;
    requestAnimationFrame(() => {
      const [x, y] = hoverQueued;
      hoverQueued = null;
      read.textContent = lab().nearest(x, y, HOVER_RADIUS) ?? "";
    });
  };
  box.addEventListener("pointermove", (ev) => {
    const prev = down.get(ev.pointerId);
    if (!prev) { showNearest(ev); return; }
    const p = local(ev);
    down.set(ev.pointerId, p);
    if (down.size === 2 && pinch) {
      const [a, b] = [...down.values()];
      const d = Math.hypot(a[0] - b[0], a[1] - b[1]);
      if (d > 0 && lab().zoom((a[0] + b[0]) / 2, (a[1] + b[1]) / 2, pinch / d, "xy")) redraw();
      pinch = d;
    } else if (down.size === 1 && lab().pan(prev[0], prev[1], p[0] - prev[0], p[1] - prev[1])) {
      redraw();
    }
  });
  box.addEventListener("pointerleave", () => { if (!down.size) read.textContent = ""; });
  return { sync: () => { lock.checked = lab().locked(); } };
}
