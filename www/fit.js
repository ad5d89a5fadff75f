// The Fit panel: fit any model to a record dropped on the page or picked with a file input (read
// locally, never uploaded), or to example data. Parsing and fitting run in a Web Worker
// (fit-worker.js + the fit wasm); charts are drawn by the main wasm (drawFitChart). Wiring only:
// every number comes from friction-fit.
const $ = (id) => document.getElementById(id);

const PANEL = `
<section id="fit-panel" class="panel fit-panel" hidden aria-labelledby="fit-title">
  <h2 id="fit-title">Fit a model to measured data</h2>
  <p class="hint">A CSV or TSV file with a header t, x, v, F (x or v may be missing; units in the header such as
  <code>F [mN]</code>, SI otherwise) and optionally N, the normal load the model then runs with. The file is read
  by this page only: nothing is uploaded.</p>
  <div class="fit-input">
    <label id="fit-drop" class="fit-drop" for="fit-file">Drop a file here, or <span class="fit-pick">choose one</span>
      <input type="file" id="fit-file" accept=".csv,.tsv,.txt,text/csv,text/tab-separated-values">
    </label>
    <button type="button" id="fit-example">Try with example data</button>
    <label><input type="checkbox" id="fit-example-n"> with a varying normal load</label>
    <span id="fit-record" role="status"></span>
  </div>
  <p id="fit-units" class="fit-units">Units of columns whose header gives none:</p>
  <p id="fit-message" class="error" role="alert" hidden></p>
  <div class="fit-setup">
    <label>Model <select id="fit-model"></select></label>
    <table id="fit-params"><thead><tr><th>free</th><th>parameter</th><th>start / fixed value</th><th>lower bound</th><th>upper bound</th></tr></thead><tbody></tbody></table>
    <label>starting points <input type="number" id="fit-starts" min="1" max="20" value="1"></label>
    <label>leave out the first <input type="number" id="fit-tskip" min="0" value="0" step="any"> s (start-up transient)</label>
    <button type="button" id="fit-run" disabled>Fit</button>
    <button type="button" id="fit-cancel" hidden>Cancel</button>
    <span id="fit-progress" role="status"></span>
  </div>
  <div id="fit-result" hidden>
    <table id="fit-table"><caption>Fitted parameters</caption><thead><tr><th>parameter</th><th>value</th><th>std. error</th><th>95 % interval</th><th>unit</th></tr></thead><tbody></tbody></table>
    <p id="fit-load" hidden></p>
    <p id="fit-summary"></p>
    <ul id="fit-verdicts" class="notes"></ul>
    <details><summary>Correlation matrix</summary><table id="fit-corr"></table></details>
    <p>
      <label>Open these parameters in <select id="fit-view">
        <option value="prescribed">prescribed motion</option><option value="curve">F–v curve</option>
        <option value="stickslip">stick-slip</option><option value="presliding">pre-sliding</option>
        <option value="breakaway">breakaway</option></select></label>
      <a id="fit-open" href="./">open</a>
      <button type="button" id="fit-csv">Export fit and residuals (CSV)</button>
    </p>
    <div class="fit-charts">${[0, 1, 2, 3, 4].map((i) => `<canvas id="fit-chart-${i}" class="fit-chart" role="img" aria-label="fit chart ${i}"></canvas>`).join("")}</div>
  </div>
</section>`;

let worker = null;
let nextId = 1;
const pending = new Map();
let models = [];
let record = null; // { text, units, data }
let lastInput = null; // the last text given (loaded or not), read again when a unit is chosen
let lastFit = null;

const NO_WORKER = "The fit runs in a Web Worker, which this page could not start here (a sandboxed frame or a " +
  "browser setting may forbid it): open Friction Lab in a tab of its own to fit data.";

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
    showError(NO_WORKER);
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

function showError(msg) {
  const m = $("fit-message");
  m.textContent = msg;
  m.hidden = !msg;
}

function currentModel() {
  return models.find((m) => m.id === $("fit-model").value);
}

function fillParams() {
  const m = currentModel();
  const body = $("fit-params").querySelector("tbody");
  body.replaceChildren();
  for (const p of m.params) {
    const tr = document.createElement("tr");
    tr.dataset.key = p.key;
    const unit = p.unit ? ` [${p.unit}]` : "";
    tr.innerHTML = `<td><input type="checkbox" class="fit-free" aria-label="fit ${p.key}" ${p.fittable ? "" : "disabled"}></td>
      <td>${p.name} ${p.symbol}${unit}</td>
      <td><input type="text" class="fit-value" value="${p.default}" aria-label="${p.key} value"></td>
      <td><input type="text" class="fit-lo" value="${p.min}" aria-label="${p.key} lower bound"></td>
      <td><input type="text" class="fit-hi" value="${p.max}" aria-label="${p.key} upper bound"></td>`;
    body.appendChild(tr);
  }
  markLoad();
}

// With a column N in the record, the model's load (fn, FrBD's p) comes from it: its field is left
// empty (a value typed there is sent and wins, with the fit's warning).
function markLoad() {
  const key = currentModel()?.load;
  const input = key && $("fit-params").querySelector(`tr[data-key="${key}"] .fit-value`);
  if (!input) return;
  const spec = currentModel().params.find((p) => p.key === key);
  if (record?.data.hasN) {
    if (input.value.trim() === String(spec.default)) input.value = "";
    input.placeholder = "from column N";
  } else {
    if (input.value.trim() === "") input.value = String(spec.default);
    input.placeholder = "";
  }
}

// The fit query from the table: every value, free keys, bounds where tightened.
function fitQuery() {
  const m = currentModel();
  const parts = [`model=${m.id}`];
  const free = [];
  for (const tr of $("fit-params").querySelectorAll("tbody tr")) {
    const key = tr.dataset.key;
    const spec = m.params.find((p) => p.key === key);
    const value = tr.querySelector(".fit-value").value.trim();
    // an empty load field: the record's column N gives it
    if (!(value === "" && key === m.load && record?.data.hasN)) parts.push(`${key}=${encodeURIComponent(value)}`);
    if (tr.querySelector(".fit-free").checked) {
      free.push(key);
      const lo = tr.querySelector(".fit-lo").value.trim();
      const hi = tr.querySelector(".fit-hi").value.trim();
      if (lo !== "" && Number(lo) !== spec.min) parts.push(`lo.${key}=${encodeURIComponent(lo)}`);
      if (hi !== "" && Number(hi) !== spec.max) parts.push(`hi.${key}=${encodeURIComponent(hi)}`);
    }
  }
  parts.push(`free=${free.join(",")}`);
  parts.push(`starts=${encodeURIComponent($("fit-starts").value)}`);
  parts.push(`tskip=${encodeURIComponent($("fit-tskip").value)}`);
  return parts.join("&");
}

// `t=ms;x=mm` from the unit chooser (the parser applies it to columns without a unit only).
function unitQuery() {
  return [...$("fit-units").querySelectorAll("select")].map((s) => `${s.dataset.key}=${s.value}`).join(";");
}

function fillUnits(choices) {
  const box = $("fit-units");
  for (const c of choices) {
    const sel = Object.assign(document.createElement("select"), { id: `fit-unit-${c.key}` });
    sel.dataset.key = c.key;
    sel.replaceChildren(...c.units.map((u) => new Option(u, u)));
    sel.addEventListener("change", () => { if (lastInput) useText(lastInput.text, lastInput.label); });
    const label = document.createElement("label");
    label.append(`${c.key} `, sel);
    box.append(" ", label);
  }
}

async function useText(text, label) {
  lastInput = { text, label };
  try {
    const units = unitQuery();
    const data = await ask("parse", { text, units });
    record = { text, units, data };
    showError("");
    const chosen = data.unitless.filter((k) => $(`fit-unit-${k}`))
      .map((k) => `${k} in ${$(`fit-unit-${k}`).value}`);
    const notes = [...(chosen.length ? [`no unit in the header: ${chosen.join(", ")}`] : []), ...data.notes];
    $("fit-record").textContent = `${label}: ${data.n} samples${notes.length ? ` (${notes.join("; ")})` : ""}`;
    $("fit-run").disabled = false;
    markLoad();
  } catch (e) {
    // a bad file changes nothing: the previous record and result stay
    showError(`${label}: ${e.message}`);
  }
}

async function readFile(file) {
  if (!file) return;
  await useText(await file.text(), file.name);
}

function fmt(x) {
  if (x === null || x === undefined) return "∞";
  const a = Math.abs(x);
  return a !== 0 && (a < 1e-3 || a >= 1e5) ? x.toExponential(3) : String(Number(x.toPrecision(4)));
}

function linkHref(report) {
  // this page's own file (index.html or the single file friction-lab.html)
  return `${location.pathname.split("/").pop() || "./"}?v=1&view=${$("fit-view").value}&${report.link}`;
}

function drawCharts(res) {
  const b = window.wasmBindings;
  if (!b?.drawFitChart) return;
  const d = res.data;
  for (let i = 0; i < 5; i++) {
    b.drawFitChart($(`fit-chart-${i}`), i, d.t, d.x, d.v, d.f, res.fitted);
  }
}

function showResult(res) {
  lastFit = res;
  const r = res.report;
  const body = $("fit-table").querySelector("tbody");
  body.replaceChildren();
  for (const p of r.parameters) {
    const tr = document.createElement("tr");
    if (p.verdicts.length) tr.className = "flagged";
    tr.innerHTML = `<td>${p.symbol}</td><td>${fmt(p.value)}</td><td>${fmt(p.se)}</td>
      <td>[${p.ci95[0] === null ? "−∞" : fmt(p.ci95[0])}, ${fmt(p.ci95[1])}]</td><td>${p.unit}</td>`;
    body.appendChild(tr);
  }
  $("fit-load").hidden = !r.normal_load;
  $("fit-load").textContent = r.normal_load ? `Normal load: ${r.normal_load}.` : "";
  $("fit-summary").textContent = `Residual RMS ${fmt(r.rms)} N, R² ${r.r2 === null ? "–" : r.r2.toFixed(6)}, ` +
    `scaled condition number ${fmt(r.condition_number)}, ${r.samples} samples, ${r.model_runs} model runs.`;
  const verdicts = [...new Set([...r.parameters.flatMap((p) => p.verdicts), ...r.notes])];
  $("fit-verdicts").replaceChildren(...(verdicts.length ? verdicts : ["Every free parameter is determined by this data."])
    .map((v) => Object.assign(document.createElement("li"), { textContent: v })));
  // the good verdict reads as a pass, not in the warnings' colour
  $("fit-verdicts").classList.toggle("pass", !verdicts.length);
  const corr = $("fit-corr");
  corr.replaceChildren();
  const head = document.createElement("tr");
  head.innerHTML = `<th></th>${r.parameters.map((p) => `<th>${p.symbol}</th>`).join("")}`;
  corr.appendChild(head);
  r.parameters.forEach((p, i) => {
    const tr = document.createElement("tr");
    tr.innerHTML = `<th>${p.symbol}</th>${r.correlation[i].map((c) => `<td>${c === null ? "–" : c.toFixed(3)}</td>`).join("")}`;
    corr.appendChild(tr);
  });
  $("fit-open").href = linkHref(r);
  $("fit-result").hidden = false;
  drawCharts(res);
}

async function runFit() {
  if (!record) return;
  showError("");
  $("fit-run").disabled = true;
  $("fit-cancel").hidden = false;
  $("fit-progress").textContent = "fitting…";
  try {
    const res = await ask("fit", { text: record.text, units: record.units, query: fitQuery() }, (p) => {
      $("fit-progress").textContent = `fitting… ${p.runs} model runs, best residual RMS ${fmt(p.rms)} N`;
    });
    $("fit-progress").textContent = "done";
    showResult(res);
  } catch (e) {
    $("fit-progress").textContent = "";
    showError(e.message);
  } finally {
    $("fit-run").disabled = false;
    $("fit-cancel").hidden = true;
  }
}

function cancelFit() {
  // the wasm runs without yielding: stopping the worker is the way to stop it
  worker?.terminate();
  worker = null;
  for (const p of pending.values()) p.reject(new Error("fit cancelled"));
  pending.clear();
  $("fit-progress").textContent = "cancelled";
}

async function exampleData() {
  const m = currentModel();
  const values = [...$("fit-params").querySelectorAll("tbody tr")]
    .map((tr) => [tr.dataset.key, tr.querySelector(".fit-value").value.trim()])
    // an empty field (the load, given by a record's column N) takes the model's default
    .filter(([, v]) => v !== "")
    .map(([k, v]) => `${k}=${encodeURIComponent(v)}`);
  const varying = $("fit-example-n").checked;
  try {
    const query = [`model=${m.id}`, ...values, "noise=0.01", "seed=1", ...(varying ? ["nvar=0.3"] : [])];
    const csv = await ask("example", { query: query.join("&") });
    await useText(csv, `example data from ${m.id} (1 % noise${varying ? ", normal load ±30 %" : ""})`);
  } catch (e) {
    showError(e.message);
  }
}

function exportCsv() {
  if (!lastFit) return;
  const a = document.createElement("a");
  a.href = URL.createObjectURL(new Blob([lastFit.csv], { type: "text/csv" }));
  a.download = `fit-${lastFit.report.model}.csv`;
  a.click();
  setTimeout(() => URL.revokeObjectURL(a.href), 1000);
}

async function open() {
  const panel = $("fit-panel");
  panel.hidden = !panel.hidden;
  $("fit-toggle").setAttribute("aria-expanded", String(!panel.hidden));
  if (panel.hidden || models.length) return;
  try {
    models = await ask("models");
    fillUnits(await ask("units"));
    $("fit-model").replaceChildren(...models.map((m) => new Option(m.name, m.id)));
    $("fit-model").value = "lugre";
    fillParams();
  } catch (e) {
    showError(e.message);
  }
}

function install() {
  const actions = document.querySelector("header .actions");
  const button = Object.assign(document.createElement("button"), { type: "button", id: "fit-toggle", textContent: "Fit data" });
  button.setAttribute("aria-expanded", "false");
  button.setAttribute("aria-controls", "fit-panel");
  actions?.appendChild(button);
  document.querySelector("main")?.insertAdjacentHTML("beforebegin", PANEL);
  button.addEventListener("click", open);
  $("fit-model").addEventListener("change", fillParams);
  $("fit-file").addEventListener("change", (e) => readFile(e.target.files[0]));
  const drop = $("fit-drop");
  drop.addEventListener("dragover", (e) => { e.preventDefault(); drop.classList.add("over"); });
  drop.addEventListener("dragleave", () => drop.classList.remove("over"));
  drop.addEventListener("drop", (e) => {
    e.preventDefault();
    drop.classList.remove("over");
    readFile(e.dataTransfer.files[0]);
  });
  $("fit-example").addEventListener("click", exampleData);
  $("fit-run").addEventListener("click", runFit);
  $("fit-cancel").addEventListener("click", cancelFit);
  $("fit-csv").addEventListener("click", exportCsv);
  $("fit-view").addEventListener("change", () => { if (lastFit) $("fit-open").href = linkHref(lastFit.report); });
}

install();
