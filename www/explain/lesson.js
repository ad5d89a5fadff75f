// The view's lesson (text, equation, references from the core) above the plot, collapsible, with
// a schematic drawn here for the stick-slip and robot views. Hidden in embed mode unless the
// link has lesson=1. The MathML comes from the core's static lesson table, never from the URL.

const $ = (id) => document.getElementById(id);
const SVG_NS = "http://www.w3.org/2000/svg";

function el(tag, attrs = {}, text) {
  const e = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  if (text !== undefined) e.textContent = text;
  return e;
}

/** Block on a moving belt, held by a spring to a wall: m ẍ = −k x − F, v = ẋ − v_b. */
function stickSlipSchematic() {
  const s = el("svg", { viewBox: "0 0 420 150", class: "schematic", role: "img", "aria-label": "Schematic: a block of mass m on a belt moving at speed v_b, tied to a wall by a spring of stiffness k; friction F acts between block and belt" });
  s.append(el("rect", { x: 10, y: 20, width: 14, height: 80, fill: "#888" })); // wall
  for (let i = 0; i < 6; i++) s.append(el("line", { x1: 10, y1: 24 + 13 * i, x2: 2, y2: 32 + 13 * i, stroke: "#888" }));
  // spring: a zig-zag from the wall to the block
  let d = "M24 60 L60 60";
  for (let i = 0; i < 8; i++) d += ` L${68 + i * 10} ${i % 2 ? 48 : 72}`;
  d += " L148 60 L170 60";
  s.append(el("path", { d, fill: "none", stroke: "#0072b2", "stroke-width": 2 }));
  s.append(el("text", { x: 96, y: 40, "font-size": 13, fill: "#0072b2" }, "k"));
  s.append(el("rect", { x: 170, y: 32, width: 80, height: 56, fill: "#e6f0f8", stroke: "#222", "stroke-width": 1.5 }));
  s.append(el("text", { x: 204, y: 65, "font-size": 15 }, "m"));
  s.append(el("line", { x1: 210, y1: 24, x2: 270, y2: 24, stroke: "#222", "marker-end": "url(#arrow)" }));
  s.append(el("text", { x: 272, y: 28, "font-size": 12 }, "x"));
  // belt on two rollers
  s.append(el("rect", { x: 60, y: 90, width: 330, height: 16, rx: 8, fill: "#ddd", stroke: "#555" }));
  s.append(el("circle", { cx: 68, cy: 98, r: 8, fill: "#fff", stroke: "#555" }));
  s.append(el("circle", { cx: 382, cy: 98, r: 8, fill: "#fff", stroke: "#555" }));
  s.append(el("line", { x1: 300, y1: 128, x2: 370, y2: 128, stroke: "#d55e00", "stroke-width": 2, "marker-end": "url(#arrow)" }));
  s.append(el("text", { x: 300, y: 145, "font-size": 12, fill: "#d55e00" }, "belt speed v_b"));
  s.append(el("text", { x: 60, y: 125, "font-size": 12 }, "friction F between block and belt"));
  const defs = el("defs");
  const m = el("marker", { id: "arrow", viewBox: "0 0 10 10", refX: 9, refY: 5, markerWidth: 7, markerHeight: 7, orient: "auto-start-reverse" });
  m.append(el("path", { d: "M0 0 L10 5 L0 10 z", fill: "context-stroke" }));
  defs.append(m);
  s.prepend(defs);
  return s;
}

/** A one-link arm on a motor joint: torque U, angle q, friction F in the bearing. */
function robotSchematic() {
  const s = el("svg", { viewBox: "0 0 420 170", class: "schematic", role: "img", "aria-label": "Schematic: a single robot link turning about a motor joint; the motor torque U drives the angle q, friction F acts in the joint, gravity loads the link" });
  s.append(el("rect", { x: 40, y: 120, width: 120, height: 20, fill: "#888" })); // base
  s.append(el("circle", { cx: 100, cy: 110, r: 22, fill: "#e6f0f8", stroke: "#222", "stroke-width": 1.5 }));
  s.append(el("text", { x: 94, y: 115, "font-size": 13 }, "U"));
  const a = -20 * Math.PI / 180;
  const x2 = 100 + 190 * Math.cos(a), y2 = 110 + 190 * Math.sin(a);
  s.append(el("line", { x1: 100, y1: 110, x2, y2, stroke: "#0072b2", "stroke-width": 10, "stroke-linecap": "round" }));
  s.append(el("circle", { cx: x2, cy: y2, r: 9, fill: "#0072b2" }));
  s.append(el("text", { x: x2 - 10, y: y2 - 16, "font-size": 13 }, "m"));
  s.append(el("line", { x1: 100, y1: 110, x2: 250, y2: 110, stroke: "#999", "stroke-dasharray": "4 3" }));
  s.append(el("path", { d: "M170 110 A70 70 0 0 0 163 80", fill: "none", stroke: "#222" }));
  s.append(el("text", { x: 176, y: 100, "font-size": 13 }, "q"));
  s.append(el("text", { x: 8, y: 104, "font-size": 12, fill: "#d55e00" }, "friction F"));
  s.append(el("text", { x: 30, y: 160, "font-size": 12 }, "motor joint: torque U, observer estimate F̂"));
  s.append(el("line", { x1: x2, y1: y2 + 12, x2, y2: y2 + 50, stroke: "#555", "marker-end": "url(#arrow-r)" }));
  s.append(el("text", { x: x2 + 6, y: y2 + 46, "font-size": 12 }, "g"));
  const defs = el("defs");
  const m = el("marker", { id: "arrow-r", viewBox: "0 0 10 10", refX: 9, refY: 5, markerWidth: 7, markerHeight: 7, orient: "auto-start-reverse" });
  m.append(el("path", { d: "M0 0 L10 5 L0 10 z", fill: "#555" }));
  defs.append(m);
  s.prepend(defs);
  return s;
}

const SCHEMATICS = { stickslip: stickSlipSchematic, robot: robotSchematic };

let table = null;

/** The core's lesson table, fetched once rather than carried in the page's wasm (its size); the
 * file is generated from the core and checked against it (crates/friction-cli/tests/
 * www_lessons.rs). The single file (friction-lab.html) carries it inline: it fetches nothing. */
export function lessonTable() {
  const inline = window.frictionLabInline?.lessons;
  table ??= inline ? Promise.resolve(inline) : fetch(new URL("./lessons.json", import.meta.url))
    .then((r) => (r.ok ? r.json() : Promise.reject(new Error(`HTTP ${r.status}`))));
  return table;
}

export function attachLesson(page) {
  const box = document.createElement("details");
  box.id = "lesson";
  box.className = "lesson";
  const forced = page.pageKeys?.lesson === "1";
  if (forced) box.classList.add("forced");
  // hidden in an embed unless lesson=1, also before explain.css has arrived (its rule says the same)
  if (page.embed && !forced) box.hidden = true;
  // closed (one line) so the plot stays in view; lesson=1 opens it, also in embed mode
  box.open = forced;
  const summary = document.createElement("summary");
  summary.textContent = "About this view";
  const body = document.createElement("div");
  box.append(summary, body);
  $("view-title").after(box);
  let lessons = null;
  // Its summary line shows at once, before the lessons arrive (every view the core runs has
  // one; `sync` hides the box for a view without): the plot then changes size once, when this
  // module attaches, not again at the lessons' arrival; each change redraws every panel, a task
  // over 50 ms at load (issue 39). An open lesson (lesson=1) waits for its text: `explainReady`.
  lessonTable()
    .then((all) => { lessons = all; sync(); })
    .catch((e) => console.warn("lessons not loaded:", e));
  let shown = null;
  const sync = () => {
    if (!lessons) return;
    const view = page.lab.view();
    if (view === shown) return;
    shown = view;
    const l = Object.hasOwn(lessons, view) ? lessons[view] : null;
    box.hidden = !l || (page.embed && !forced);
    if (!l) return;
    const nodes = l.text.map((t) => { const p = document.createElement("p"); p.textContent = t; return p; });
    const eq = document.createElement("div");
    eq.className = "equation";
    // static MathML from the core's lesson table (not from the URL)
    eq.append(new DOMParser().parseFromString(`<div>${l.equation}</div>`, "text/html").body.firstChild);
    const parts = [...nodes, eq];
    if (l.schematic && SCHEMATICS[l.schematic]) parts.push(SCHEMATICS[l.schematic]());
    for (const n of l.notes) { const p = document.createElement("p"); p.className = "hint"; p.textContent = n; parts.push(p); }
    const refs = document.createElement("p");
    refs.className = "reference";
    refs.append("Source: ");
    l.references.forEach((r, i) => {
      if (i) refs.append("; ");
      refs.append(r.text);
      if (r.link) {
        const a = document.createElement("a");
        a.href = r.link;
        a.textContent = r.link.replace(/^https:\/\//, "");
        a.target = "_blank";
        a.rel = "noopener";
        refs.append(" — ", a);
      }
    });
    parts.push(refs);
    body.replaceChildren(...parts);
  };
  return { sync };
}
