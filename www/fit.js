// The fit workspace (view=fit, the core's views::FIT): a record dropped or picked (read here,
// never uploaded) is plotted at once; its columns, units, sign and time window are chosen beside
// it; a model's parameters (free, start, bounds), starts, hold-out and tskip make the fit query
// the page's link carries (view=fit&fit=QUERY). The fit runs in a Web Worker (fit-worker.js and
// the fit wasm) with its stage and the model's live curve; the report's texts are placed as
// friction-fit words them. The charts are the main wasm's (FitCharts), the links into the views
// the core's (modelViewLinks). Wiring only: no fit wording, no number formatting, no view list.
const $ = (id) => document.getElementById(id);
// this page's own file (index.html or the single file friction-lab.html), for its links
const pageFile = () => location.pathname.split("/").pop() || "./";

const CHARTS = 5; // FitCharts.count(), known before the main wasm is asked
// the two-column layout's media query (fit.css, as style.css's for the views)
const WIDE = "(min-width: 900px), (orientation: landscape) and (min-width: 600px)";

const TEMPLATE = `
<section id="fit-workspace" class="fitws" hidden aria-label="Fit a model to data">
  <p id="fit-message" class="error fit-message" role="alert" hidden></p>
  <div class="fitws-side">
    <section class="fitws-card fitws-data" aria-labelledby="fit-data-h">
      <h2 id="fit-data-h">Data</h2>
      <div class="fit-input">
        <label id="fit-drop" class="fit-drop" for="fit-file">Drop a file here, or <span class="fit-pick">choose one</span>
          <input type="file" id="fit-file" accept=".csv,.tsv,.txt,.dat,text/csv,text/tab-separated-values,text/plain">
        </label>
        <div class="fit-example">
          <button type="button" id="fit-example">Example data</button>
          <label class="inline"><input type="checkbox" id="fit-example-n"> varying normal load</label>
        </div>
      </div>
      <p class="hint">The file is read by this page only: nothing is uploaded.</p>
      <p id="fit-relink" class="hint fit-relink" hidden>The link set the model and settings below; choose its data file again (files are never uploaded).</p>
      <div id="fit-columns" hidden>
        <div class="fit-table-wrap">
          <table id="fit-cols"><caption id="fit-cols-caption"></caption>
            <thead><tr><th scope="col">column</th><th scope="col">read as</th><th scope="col">unit</th></tr></thead><tbody></tbody></table>
        </div>
        <div class="fit-row">
          <label class="inline"><input type="checkbox" id="fit-flip"> flip the sign of F</label>
          <label class="inline">from t = <input type="text" inputmode="decimal" id="fit-tmin" placeholder="start"> s</label>
          <label class="inline">to <input type="text" inputmode="decimal" id="fit-tmax" placeholder="end"> s</label>
        </div>
      </div>
      <ul id="fit-record" class="fit-lines"></ul>
    </section>
    <section class="fitws-card fitws-model" aria-labelledby="fit-model-h">
      <h2 id="fit-model-h">Model</h2>
      <label class="fit-model-pick">Model <select id="fit-model"></select></label>
      <div class="fit-table-wrap">
        <table id="fit-params">
          <thead><tr><th scope="col">fit</th><th scope="col">parameter</th><th scope="col">start or value</th><th scope="col">lower bound</th><th scope="col">upper bound</th></tr></thead>
          <tbody></tbody></table>
      </div>
      <p class="hint">An empty start is read off the record (the value in italics); an empty value of a fixed parameter is its default.</p>
      <ul id="fit-plan" class="fit-lines"></ul>
      <div class="fit-row">
        <label class="inline">starts <input type="number" id="fit-starts" min="1" max="20" step="1" placeholder="auto"></label>
        <label class="inline">hold out <select id="fit-holdout"><option value="">nothing</option><option value="0.3">the last 30 %</option></select></label>
        <label class="inline">skip the first <input type="text" inputmode="decimal" id="fit-tskip" placeholder="0"> s</label>
      </div>
      <div class="fit-run-row">
        <button type="button" id="fit-run" class="primary" disabled>Fit</button>
        <button type="button" id="fit-cancel" hidden>Cancel</button>
        <span id="fit-progress" role="status"></span>
      </div>
    </section>
  </div>
  <div class="fitws-main">
    <div id="fit-charts" class="fit-charts" hidden>${[...Array(CHARTS).keys()].map((i) =>
      `<div class="fit-chart" id="fit-chart-${i}" role="img" hidden><canvas aria-hidden="true"></canvas><canvas aria-hidden="true"></canvas></div>`).join("")}</div>
    <section id="fit-result" class="fitws-card fit-result" hidden aria-labelledby="fit-result-h">
      <h2 id="fit-result-h">Result</h2>
      <p id="fit-summary" class="fit-summary"></p>
      <p id="fit-poor" class="fit-poor" hidden></p>
      <ul id="fit-verdicts" class="fit-verdicts"></ul>
      <div class="fit-table-wrap">
        <table id="fit-table"><caption>Fitted parameters</caption>
          <thead><tr><th scope="col">parameter</th><th scope="col">value</th><th scope="col">std. error</th><th scope="col">95 % interval</th><th scope="col">unit</th></tr></thead><tbody></tbody></table>
      </div>
      <p id="fit-holdout-line" hidden></p>
      <p id="fit-load" hidden></p>
      <p id="fit-figures" class="hint"></p>
      <details id="fit-corr-box"><summary>Correlation matrix</summary><div class="fit-table-wrap"><table id="fit-corr"></table></div></details>
      <details><summary>The record and how it was read</summary><ul id="fit-report-record" class="fit-lines"></ul></details>
      <div class="fit-links">
        <p>Open the fitted model in</p>
        <ul id="fit-views"></ul>
        <p><a id="fit-again" href="./">Link to this fit</a> (its settings, starting at the fitted values)</p>
        <button type="button" id="fit-csv">Export fit and residuals (CSV)</button>
      </div>
    </section>
  </div>
</section>`;

const NO_WORKER = "The fit runs in a Web Worker, which this page could not start here (a sandboxed frame or a " +
  "browser setting may forbid it): open Friction Lab in a tab of its own to fit data.";

// ----- the worker -----
let worker = null;
let nextId = 1;
const pending = new Map();

function startWorker() {
  try {
    // the single file (friction-lab.html) makes its worker from inlined code (a blob URL)
    worker = new Worker(window.frictionLabInline?.fitWorkerUrl() ?? "./fit-worker.js");
  } catch {
    // an opaque-origin (sandboxed) frame refuses the worker at once
    worker = null;
    throw new Error(NO_WORKER);
  }
  worker.onmessage = (e) => {
    const p = pending.get(e.data.id);
    if (!p) return;
    if (e.data.progress) {
      p.onProgress?.(e.data.progress);
      return;
    }
    pending.delete(e.data.id);
    if (e.data.ok) p.resolve(e.data.result); else p.reject(new Error(e.data.error));
  };
  worker.onerror = (e) => {
    e.preventDefault();
    for (const p of pending.values()) p.reject(new Error(NO_WORKER));
    pending.clear();
    worker = null;
  };
}

function ask(op, args = {}, onProgress) {
  const id = nextId++;
  return new Promise((resolve, reject) => {
    if (!worker) startWorker();
    pending.set(id, { resolve, reject, onProgress });
    worker.postMessage({ id, op, ...args });
  });
}

// ----- state: what the fit query says, and what is loaded -----
/** The fit query as the workspace's inputs hold it (strings as typed). `free` null: the
 * model's usual set, which the core cuts to what the record shows. */
function emptyState() {
  return {
    model: "lugre", free: null, tie: [], values: new Map(), lo: new Map(), hi: new Map(),
    starts: "", holdout: "", tskip: "",
    cols: "", units: "", flip: false, tmin: "", tmax: "", smooth: "",
    extra: [], // keys the workspace has no input for (guess, …): kept as the link gave them
  };
}

let state = emptyState();
let models = [];
let host = null; // app.js's Page: told when the query changes
let opened = false;
let file = null; // {text, name}: the record loaded (read without error)
let read = null; // the worker's answer for the loaded file: fields, choices, data
let charts = null; // the main wasm's FitCharts of the loaded record
let planned = null; // the worker's plan of the current query on the loaded record
let lastFit = null;
let running = false;
let firstFileKeepsRecordKeys = false; // a file after a link is read with the link's record keys

const RECORD_KEYS = ["cols", "units", "flip", "tmin", "tmax", "smooth"];

/** A value in the fit query: only what would break its syntax is escaped (the link encodes the
 * whole query once more), so `cols=t:Time,F:Friction` stays readable. */
function enc(v) { return String(v).replace(/[%&=+#\s]/g, encodeURIComponent); }

function model() { return models.find((m) => m.id === state.model); }

/** The free set as the inputs show it: the user's, or the plan's (the usual set cut by the
 * record), or the usual set before a record is loaded. */
function shownFree() {
  if (state.free) return state.free;
  if (planned) return new Set(planned.free);
  return new Set(model()?.defaultFree ?? []);
}

/** The record's keys of the query (what the reader needs). */
function recordQuery() {
  const parts = [];
  if (state.cols) parts.push(`cols=${enc(state.cols)}`);
  if (state.units) parts.push(`units=${enc(state.units)}`);
  if (state.flip) parts.push("flip=F");
  if (state.tmin.trim()) parts.push(`tmin=${enc(state.tmin.trim())}`);
  if (state.tmax.trim()) parts.push(`tmax=${enc(state.tmax.trim())}`);
  if (state.smooth) parts.push(`smooth=${enc(state.smooth)}`);
  return parts.join("&");
}

/** The whole fit query. */
function fitQuery() {
  const parts = [`model=${enc(state.model)}`];
  if (state.free) parts.push(`free=${[...state.free].join(",")}`);
  for (const [k, v] of state.values) if (v.trim()) parts.push(`${k}=${enc(v.trim())}`);
  const free = shownFree();
  for (const [prefix, map] of [["lo", state.lo], ["hi", state.hi]]) {
    for (const [k, v] of map) if (v.trim() && free.has(k)) parts.push(`${prefix}.${k}=${enc(v.trim())}`);
  }
  if (state.tie.length) parts.push(`tie=${state.tie.map(([a, b]) => `${a}:${b}`).join(",")}`);
  if (state.starts.trim()) parts.push(`starts=${enc(state.starts.trim())}`);
  if (state.holdout) parts.push(`holdout=${enc(state.holdout)}`);
  if (state.tskip.trim()) parts.push(`tskip=${enc(state.tskip.trim())}`);
  const rec = recordQuery();
  if (rec) parts.push(rec);
  for (const [k, v] of state.extra) parts.push(`${enc(k)}=${enc(v)}`);
  return parts.join("&");
}

/** A fit query (from a link) into the inputs' state; keys without an input are kept. */
function stateOf(query) {
  const s = emptyState();
  const dec = (t) => { try { return decodeURIComponent(t.replace(/\+/g, " ")); } catch { return t; } };
  const pairs = query.replace(/^\?/, "").split("&").filter((part) => part).map((part) => {
    const eq = part.indexOf("=");
    return [dec(eq < 0 ? part : part.slice(0, eq)).trim(), eq < 0 ? "" : dec(part.slice(eq + 1)).trim()];
  });
  s.model = pairs.findLast(([k]) => k === "model")?.[1] ?? "";
  const known = models.find((m) => m.id === s.model);
  for (const [key, value] of pairs) {
    if (key === "model") continue;
    else if (key === "free") s.free = new Set(value.split(",").map((k) => k.trim()).filter((k) => k));
    else if (key === "tie") s.tie = value.split(",").map((p) => p.split(":").map((k) => k.trim())).filter((p) => p.length === 2);
    else if (key.startsWith("lo.")) s.lo.set(key.slice(3), value);
    else if (key.startsWith("hi.")) s.hi.set(key.slice(3), value);
    else if (key === "flip" && value === "F") s.flip = true;
    else if (["starts", "holdout", "tskip", "cols", "units", "tmin", "tmax", "smooth"].includes(key)) s[key] = value;
    else if (known?.params.some((p) => p.key === key)) s.values.set(key, value);
    else s.extra.push([key, value]);
  }
  if (!known) {
    // an unknown model: the worker's message names it when the fit is asked for
    if (s.model) s.extra.unshift(["model", s.model]);
    s.model = "lugre";
  }
  return s;
}

function changed() {
  host?.fitChanged?.();
}

// ----- messages -----
function showError(msg) {
  const m = $("fit-message");
  m.textContent = msg;
  m.hidden = !msg;
}

function lines(ul, texts, cls) {
  ul.replaceChildren(...texts.filter((t) => t).map((t) => {
    const li = document.createElement("li");
    li.textContent = t;
    if (cls) li.className = cls;
    return li;
  }));
}

// ----- the parameter table -----
function fillModels() {
  const sel = $("fit-model");
  sel.replaceChildren(...models.map((m) => new Option(m.name, m.id)));
  sel.value = state.model;
}

function fillParams() {
  const m = model();
  const body = $("fit-params").tBodies[0];
  body.replaceChildren();
  if (!m) return;
  for (const p of m.params) {
    const tr = document.createElement("tr");
    tr.dataset.key = p.key;
    const cb = Object.assign(document.createElement("input"), { type: "checkbox", className: "fit-free" });
    cb.setAttribute("aria-label", `fit ${p.key}`);
    const name = document.createElement("th");
    name.scope = "row";
    const sym = Object.assign(document.createElement("span"), { className: "fit-sym", textContent: p.symbol });
    const unit = Object.assign(document.createElement("span"), { className: "unit", textContent: p.unit ? ` [${p.unit}]` : "" });
    const long = Object.assign(document.createElement("span"), { className: "fit-pname", textContent: p.name });
    name.append(sym, unit, long);
    name.title = `${p.key}: ${p.name}`;
    const input = (cls, label, map) => {
      const el = Object.assign(document.createElement("input"), { type: "text", className: cls, inputMode: "decimal" });
      el.setAttribute("aria-label", `${p.key} ${label}`);
      el.value = map.get(p.key) ?? "";
      el.addEventListener("change", () => {
        map.set(p.key, el.value);
        queryChanged();
      });
      return el;
    };
    const cells = [cb, name, input("fit-value", "start or value", state.values),
      input("fit-lo", "lower bound", state.lo), input("fit-hi", "upper bound", state.hi)];
    cells[3].placeholder = p.text.min;
    cells[4].placeholder = p.text.max;
    cb.addEventListener("change", () => {
      // from the usual set (cut by the record) to the user's own: what is shown is kept, ties
      // the plan made stay unless their parameter is freed
      const free = new Set(shownFree());
      if (!state.free) state.tie = planned ? planned.tied.map((t) => [...t]) : [];
      if (cb.checked) free.add(p.key); else free.delete(p.key);
      state.tie = state.tie.filter(([a]) => !free.has(a));
      state.free = free;
      queryChanged();
    });
    for (const c of cells) {
      if (c.tagName === "TH") { tr.append(c); continue; }
      const td = document.createElement("td");
      td.append(c);
      tr.append(td);
    }
    body.append(tr);
  }
  syncParams();
}

/** Free boxes, placeholders and what is enabled, from the state, the record and the plan. */
function syncParams() {
  const m = model();
  if (!m) return;
  const free = shownFree();
  const hasN = Boolean(read?.data?.hasN);
  for (const tr of $("fit-params").tBodies[0].rows) {
    const key = tr.dataset.key;
    const p = m.params.find((q) => q.key === key);
    const cb = tr.querySelector(".fit-free");
    const isLoad = key === m.load && hasN;
    cb.checked = free.has(key);
    cb.disabled = !p.fittable || (isLoad && !free.has(key));
    tr.classList.toggle("free", cb.checked);
    const value = tr.querySelector(".fit-value");
    // the start the fit would use, as the core writes it; the record's column N gives the load
    value.placeholder = isLoad ? "column N" : planned?.starts[key] ?? p.text.default;
    for (const b of tr.querySelectorAll(".fit-lo, .fit-hi")) b.disabled = !cb.checked;
  }
}

// ----- the column chooser -----
function fillColumns(r, name) {
  $("fit-columns").hidden = false;
  $("fit-cols-caption").textContent = name;
  const body = $("fit-cols").tBodies[0];
  body.replaceChildren();
  const units = new Map(state.units.split(",").filter((u) => u.includes(":")).map((u) => {
    const i = u.indexOf(":");
    return [u.slice(0, i).trim(), u.slice(i + 1).trim()];
  }));
  r.fields.forEach((f, i) => {
    const tr = document.createElement("tr");
    const th = Object.assign(document.createElement("th"), { scope: "row", textContent: f.header });
    const sel = document.createElement("select");
    sel.setAttribute("aria-label", `column ${f.header} read as`);
    sel.className = "fit-col";
    sel.dataset.index = String(i);
    sel.append(new Option("not used", ""), ...r.quantities.map((q) => new Option(`${q.key}: ${q.name}`, q.key)));
    sel.value = f.col ?? "";
    sel.addEventListener("change", () => chooseColumn(r, i, sel.value));
    const unitCell = document.createElement("td");
    const choices = r.choices.find((c) => c.key === f.col);
    if (f.unit) {
      unitCell.textContent = f.unit;
    } else if (f.col && choices) {
      // no unit in the header: chosen here (SI first)
      const us = document.createElement("select");
      us.className = "fit-unit";
      us.id = `fit-unit-${f.col}`;
      us.setAttribute("aria-label", `unit of ${f.header}`);
      us.append(...choices.units.map((u) => new Option(u, u)));
      us.value = units.get(f.col) ?? choices.units[0];
      us.addEventListener("change", () => {
        units.set(f.col, us.value);
        state.units = [...units].filter(([k, u]) => {
          const c = r.choices.find((x) => x.key === k);
          return c && u !== c.units[0];
        }).map(([k, u]) => `${k}:${u}`).join(",");
        recordChanged();
      });
      unitCell.append(us);
    }
    const td = document.createElement("td");
    td.append(sel);
    tr.append(th, td, unitCell);
    body.append(tr);
  });
}

/** Field `i` read as `col` ("" = not used): every field with a quantity is named in `cols=`
 * (by its header, or its number where the header would not survive the list's syntax), each
 * quantity from one field. */
function chooseColumn(r, i, col) {
  const assign = r.fields.map((f) => f.col ?? "");
  if (col) assign.forEach((c, j) => { if (c === col) assign[j] = ""; });
  assign[i] = col;
  const names = r.fields.map((f) => f.header);
  state.cols = assign.map((c, j) => {
    if (!c) return null;
    const h = names[j];
    const plain = !/[,:&]/.test(h) && names.filter((n) => n.toLowerCase() === h.toLowerCase()).length === 1 && h.trim() === h;
    return `${c}:${plain ? h : j + 1}`;
  }).filter((x) => x).join(",");
  recordChanged();
}

// ----- reading a record -----
/** Reads `text` with the state's record keys. A file the reader refuses at one of its rows, or
 * whose header cannot be read, changes nothing but the message; one refused for its columns or
 * units replaces the loaded record, so that the chooser can put it right. */
async function readText(text, name, isNew) {
  const keep = { ...state };
  if (isNew && !firstFileKeepsRecordKeys) for (const k of RECORD_KEYS) state[k] = emptyState()[k];
  firstFileKeepsRecordKeys = false;
  let r;
  try {
    r = await ask("read", { text, query: recordQuery() });
  } catch (e) {
    if (isNew) Object.assign(state, keep);
    showError(`${name}: ${e.message}`);
    return;
  }
  if (r.error && !r.error.header && isNew) {
    Object.assign(state, keep);
    showError(`${name}: ${r.error.message}`);
    return;
  }
  $("fit-relink").hidden = true;
  file = { text, name };
  read = r;
  fillColumns(r, name);
  syncRecordInputs();
  lastFit = null;
  $("fit-result").hidden = true;
  if (r.error) {
    showError(`${name}: ${r.error.message}`);
    read.data = null;
    loaded(null);
  } else {
    showError("");
    loaded(r.data);
    // one column (a phone): the charts of a new file come into view, once drawn (scrolled to
    // before, the browser's scroll anchoring would keep the content below them in place)
    if (isNew && !matchMedia(WIDE).matches) scrollToCharts = true;
  }
  changed();
}

function syncRecordInputs() {
  $("fit-flip").checked = state.flip;
  $("fit-tmin").value = state.tmin;
  $("fit-tmax").value = state.tmax;
}

/** The record as read (or none): its lines, its charts, the parameter table's load row. */
function loaded(data) {
  lines($("fit-record"), data ? data.record : []);
  $("fit-run").disabled = !data || running;
  charts?.free?.();
  charts = null;
  const b = window.wasmBindings;
  if (data && b?.FitCharts) {
    charts = new b.FitCharts(data.t, data.x, data.v, data.f, data.rotary);
    for (let i = 0; i < CHARTS; i++) {
      const [bg, fg] = $(`fit-chart-${i}`).querySelectorAll("canvas");
      charts.attach(i, bg, fg);
    }
  }
  $("fit-charts").hidden = !charts;
  drawCharts();
  syncParams();
  replan();
}

let drawQueued = false;
let scrollToCharts = false;
function drawCharts() {
  if (drawQueued) return;
  drawQueued = true;
  requestAnimationFrame(() => {
    drawQueued = false;
    if (!charts) return;
    for (let i = 0; i < CHARTS; i++) {
      const box = $(`fit-chart-${i}`);
      box.hidden = !charts.shows(i);
      box.setAttribute("aria-label", charts.title(i));
    }
    try {
      charts.draw();
    } catch (e) {
      showError(e.message);
    }
    if (scrollToCharts) $("fit-charts").scrollIntoView({ block: "start" });
    scrollToCharts = false;
  });
}

/** A record key changed: the loaded file is read again. */
function recordChanged() {
  if (file) readText(file.text, file.name, false);
  else changed();
}

// ----- the plan: what the fit would do with this record -----
let planSeq = 0;
async function replan() {
  const seq = ++planSeq;
  if (!file || !read?.data) {
    planned = null;
    lines($("fit-plan"), []);
    syncParams();
    return;
  }
  try {
    const p = await ask("plan", { text: file.text, query: fitQuery() });
    if (seq !== planSeq) return;
    planned = p;
    lines($("fit-plan"), [...p.notes, p.load, ...p.warnings]);
    if (!running) showError("");
  } catch (e) {
    if (seq !== planSeq) return;
    planned = null;
    lines($("fit-plan"), []);
    showError(e.message);
  }
  syncParams();
}

/** A model key changed: the link follows, the plan is made again. */
function queryChanged() {
  syncParams();
  changed();
  replan();
}

// ----- the fit -----
async function runFit() {
  if (!file || running) return;
  showError("");
  running = true;
  $("fit-run").disabled = true;
  $("fit-cancel").hidden = false;
  $("fit-progress").textContent = "";
  $("fit-result").hidden = true;
  charts?.clearModel();
  drawCharts();
  let first = true;
  try {
    const res = await ask("fit", { text: file.text, query: fitQuery() }, (p) => {
      $("fit-progress").textContent = p.text;
      if (first) $("fit-progress").scrollIntoView({ block: "nearest" });
      first = false;
      if (p.forces && charts) {
        charts.setLive(p.forces);
        drawCharts();
      }
    });
    $("fit-progress").textContent = "";
    showResult(res);
  } catch (e) {
    charts?.clearModel();
    drawCharts();
    $("fit-progress").textContent = "";
    showError(e.message);
  } finally {
    running = false;
    $("fit-run").disabled = !read?.data;
    $("fit-cancel").hidden = true;
  }
}

function cancelFit() {
  // the wasm runs without yielding: stopping the worker is the way to stop it
  worker?.terminate();
  worker = null;
  for (const p of pending.values()) p.reject(new Error("fit cancelled"));
  pending.clear();
}

function cell(tag, text) {
  const c = document.createElement(tag);
  c.textContent = text ?? "";
  return c;
}

function showResult(res) {
  lastFit = res;
  const r = res.report;
  charts?.setFitted(res.fitted, r.holdout?.from ?? undefined);
  drawCharts();
  $("fit-summary").textContent = r.summary;
  // a poor optimum is said first and apart; the other verdicts follow as the report lists them
  const poor = res.texts.poor;
  $("fit-poor").hidden = !poor;
  $("fit-poor").textContent = poor ?? "";
  $("fit-verdicts").replaceChildren(...r.verdicts.filter((v) => v.text !== poor).map((v) => {
    const li = cell("li", v.text);
    li.className = v.level === "ok" ? "ok" : "warn";
    return li;
  }));
  const body = $("fit-table").tBodies[0];
  body.replaceChildren(...r.parameters.map((p) => {
    const tr = document.createElement("tr");
    tr.dataset.key = p.key;
    if (p.verdicts.length || p.at_bound) tr.className = "flagged";
    const th = cell("th", p.symbol);
    th.scope = "row";
    tr.append(th, cell("td", p.text.value), cell("td", p.text.se), cell("td", p.text.ci95), cell("td", p.unit));
    return tr;
  }));
  $("fit-holdout-line").hidden = !res.texts.holdout;
  $("fit-holdout-line").textContent = res.texts.holdout ?? "";
  $("fit-load").hidden = !r.normal_load;
  $("fit-load").textContent = r.normal_load ?? "";
  $("fit-figures").textContent = res.texts.figures ?? "";
  const corr = $("fit-corr");
  const head = document.createElement("tr");
  head.append(cell("td", ""), ...r.parameters.map((p) => Object.assign(cell("th", p.symbol), { scope: "col" })));
  corr.replaceChildren(head, ...r.parameters.map((p, i) => {
    const tr = document.createElement("tr");
    tr.append(Object.assign(cell("th", p.symbol), { scope: "row" }), ...res.texts.correlation[i].map((c) => cell("td", c)));
    return tr;
  }));
  lines($("fit-report-record"), r.record);
  const links = window.wasmBindings?.modelViewLinks?.(r.link) ?? [];
  $("fit-views").replaceChildren(...links.map((l) => {
    const a = cell("a", l.title);
    a.href = `${pageFile()}?${l.query}`;
    a.dataset.view = l.view;
    const li = document.createElement("li");
    li.append(a);
    return li;
  }));
  $("fit-again").href = `${pageFile()}?v=1&view=fit&fit=${enc(r.fit_query)}`;
  $("fit-result").hidden = false;
}

function exportCsv() {
  if (!lastFit) return;
  const a = document.createElement("a");
  a.href = URL.createObjectURL(new Blob([lastFit.csv], { type: "text/csv" }));
  a.download = `fit-${lastFit.report.model}.csv`;
  a.click();
  setTimeout(() => URL.revokeObjectURL(a.href), 1000);
}

async function exampleData() {
  const m = model();
  const values = [...state.values].filter(([k, v]) => v.trim() && k !== "offset").map(([k, v]) => `${k}=${enc(v.trim())}`);
  const varying = $("fit-example-n").checked;
  try {
    const query = [`model=${m.id}`, ...values, "noise=0.01", "seed=1", ...(varying ? ["nvar=0.3"] : [])];
    const csv = await ask("example", { query: query.join("&") });
    await readText(csv, `example-${m.id}${varying ? "-n" : ""}.csv`, true);
  } catch (e) {
    showError(e.message);
  }
}

// ----- open, close, apply a link -----
function applyState() {
  $("fit-model").value = state.model;
  $("fit-starts").value = state.starts;
  $("fit-holdout").value = [...$("fit-holdout").options].some((o) => o.value === state.holdout) ? state.holdout : "";
  $("fit-tskip").value = state.tskip;
  syncRecordInputs();
  fillParams();
}

/** Shows the workspace with the fit query of a link (null: keep what it has). */
async function open(query, page) {
  host = page;
  $("fit-workspace").hidden = false;
  charts?.resized();
  drawCharts();
  try {
    if (!models.length) {
      models = await ask("models");
      fillModels();
    }
  } catch (e) {
    showError(e.message);
    return;
  }
  if (!opened || (query !== null && query !== fitQuery())) {
    const fresh = query ? stateOf(query) : emptyState();
    const recordKeysChanged = RECORD_KEYS.some((k) => fresh[k] !== state[k]);
    state = fresh;
    applyState();
    if (file && recordKeysChanged) readText(file.text, file.name, false);
    else replan();
    // a link with a record's keys: the file it was made with is asked for again
    if (!file && query && query.includes("=")) {
      $("fit-relink").hidden = false;
      firstFileKeepsRecordKeys = true;
    }
  }
  opened = true;
  document.documentElement.dataset.fitReady = "1";
}

function close() {
  $("fit-workspace").hidden = true;
}

function install() {
  document.querySelector("main")?.insertAdjacentHTML("afterend", TEMPLATE);
  $("fit-model").addEventListener("change", () => {
    state.model = $("fit-model").value;
    state.free = null;
    state.tie = [];
    state.values.clear();
    state.lo.clear();
    state.hi.clear();
    planned = null;
    // another model's result and curve would read as this one's
    lastFit = null;
    $("fit-result").hidden = true;
    charts?.clearModel();
    drawCharts();
    fillParams();
    queryChanged();
  });
  $("fit-file").addEventListener("change", async (e) => {
    const f = e.target.files[0];
    if (f) await readText(await f.text(), f.name, true);
    e.target.value = "";
  });
  const drop = $("fit-drop");
  drop.addEventListener("dragover", (e) => { e.preventDefault(); drop.classList.add("over"); });
  drop.addEventListener("dragleave", () => drop.classList.remove("over"));
  drop.addEventListener("drop", async (e) => {
    e.preventDefault();
    drop.classList.remove("over");
    const f = e.dataTransfer.files[0];
    if (f) await readText(await f.text(), f.name, true);
  });
  $("fit-flip").addEventListener("change", () => { state.flip = $("fit-flip").checked; recordChanged(); });
  for (const k of ["tmin", "tmax"]) $(`fit-${k}`).addEventListener("change", () => { state[k] = $(`fit-${k}`).value; recordChanged(); });
  $("fit-starts").addEventListener("change", () => { state.starts = $("fit-starts").value; queryChanged(); });
  $("fit-holdout").addEventListener("change", () => { state.holdout = $("fit-holdout").value; queryChanged(); });
  $("fit-tskip").addEventListener("change", () => { state.tskip = $("fit-tskip").value; queryChanged(); });
  $("fit-example").addEventListener("click", exampleData);
  $("fit-run").addEventListener("click", runFit);
  $("fit-cancel").addEventListener("click", cancelFit);
  $("fit-csv").addEventListener("click", exportCsv);
  new ResizeObserver(() => { charts?.resized(); drawCharts(); }).observe($("fit-charts"));
}

install();

/** What app.js calls: show the workspace with a link's fit query, hide it, read its query. */
window.frictionLabFit = { open, close, query: fitQuery };
dispatchEvent(new CustomEvent("frictionlab:fit"));
