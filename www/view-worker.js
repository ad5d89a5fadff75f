// The view worker: runs the page's jobs (friction-web's `ViewJob`, the same wasm as the page's,
// sent by the page as a compiled WebAssembly.Module) so that no computation blocks the page's
// input. The page draws; this only computes and sends snapshots (`ViewJob.snapshot`: the status,
// the tables and every panel's points as numbers in one transferred Float64Array and texts).
//
// Messages in: {op: "init", glue, module} (glue: the page's bindings' URL; absent in the single
// file, whose blob worker carries its classic bindings as `wasm_bindgen`), {op: "job", id,
// query, waited_ms}, {op: "more", id}, {op: "cancel", id} (stops job id or an older one),
// {op: "phenomena", id, model}, {op: "csv", id, job}.
// Messages out: {op: "ready"}, {op: "snapshot", nums, texts}, {op: "answer", id, result | error}
// (to "phenomena" and "csv"), {op: "failed", error}.
//
// Started as the page's painter instead (init with `paint: {bg, fg}`, the page's two canvases
// transferred), it draws the plot (friction-web's `Painter`): in {op: "paint", epoch, n, nums,
// texts} (drawing n of `Lab.takePaint`), out {op: "painted", epoch, n, nums, at} (`Lab.painted`;
// `at`: when the drawing ended, ms since the Unix epoch). With `warm: {query, panels}` in its
// init it first computes that link here for a while, then says {op: "warmed"} (see `warmPage`;
// {op: "unwarm"} stops it).
/* global wasm_bindgen */

// a slice of computing between two looks at the messages [ms]: a newer job or a cancel waits at
// most this long (plus one unit of the job's work, bounded by the core)
const SLICE_MS = 8;

let bindings = null;
let job = null;
let painter = null;
let drawing = null; // the newest drawing not yet drawn: {epoch, nums, texts}
const queue = []; // messages that came before the module was ready
const tick = new MessageChannel(); // a task per slice, without setTimeout's 4 ms clamping
let scheduled = false;

function schedule() {
  if (!scheduled && job) {
    scheduled = true;
    tick.port2.postMessage(0);
  }
}

tick.port1.onmessage = () => {
  scheduled = false;
  if (!job) return;
  try {
    if (job.run(SLICE_MS)) {
      const s = job.snapshot();
      postMessage({ op: "snapshot", nums: s.nums, texts: s.texts }, [s.nums.buffer]);
    }
    if (job.done()) return;
  } catch (e) {
    postMessage({ op: "failed", error: String(e && e.message ? e.message : e) });
    job = null;
    return;
  }
  schedule();
};

/** Runs the page's chart code once here, on a link like the page's first: V8 compiles a wasm
 * function when it is first called, on the calling thread, into the module both share, so the
 * page's first drawing finds it compiled instead of compiling it in its own frame. */
function warm(query) {
  // without OffscreenCanvas the chart code could not measure its text here
  if (typeof query !== "string" || typeof OffscreenCanvas !== "function") return;
  try {
    const lab = new bindings.Lab(query);
    lab.frame(20);
    lab.readout();
    lab.timings();
    lab.controls();
    lab.svg(640, 400);
    // and both sides of a snapshot: making one, and reading it
    const job = new bindings.ViewJob(query, 0, 0);
    job.run(5);
    const s = job.snapshot();
    lab.useWorker();
    lab.receive(s.nums, s.texts);
    job.free();
    lab.free();
  } catch (e) { /* a warm-up only */ }
}

// how long the painter computes the page's link before the page does [ms]
const WARM_MS = 100;
let warming = null; // the page's link computed here first: {lab, t0}
const warmTick = new MessageChannel();

/** Computes the page's link here first, in slices, and then says {op: "warmed"}: V8 compiles a
 * wasm function on the thread that first calls it, into the module both share, so the page's
 * first frames find the solver's, the models' and the drawing layout's code compiled. Compiled
 * in the page's first computing frame it made tasks of 50-70 ms at load (issue 39). The page
 * waits: computing on both threads at once made its first frame slower still (the two compete
 * for the same two cores and the same code). Each slice is a task of its own, so the page's
 * {op: "unwarm"} (it waited long enough) stops the warm-up between two. */
function warmPage(w) {
  if (!w || typeof w.query !== "string") return false;
  try {
    const lab = new bindings.Lab(w.query);
    if (typeof w.panels === "string") lab.setPanels(w.panels);
    lab.usePainter(640, 400, 1);
    warming = { lab, t0: performance.now() };
    warmTick.port2.postMessage(0);
    return true;
  } catch (e) {
    return false; // a warm-up only: the page computes as it would without it
  }
}

function unwarm() {
  if (!warming) return;
  warming.lab.free();
  warming = null;
  postMessage({ op: "warmed" });
}

warmTick.port1.onmessage = () => {
  const w = warming;
  if (!w) return;
  let more = false;
  try {
    const st = w.lab.frame(8);
    w.lab.rehearse();
    w.lab.takePaint();
    w.lab.readout();
    more = !st.done && performance.now() - w.t0 < WARM_MS;
  } catch (e) { /* a warm-up only */ }
  if (more) warmTick.port2.postMessage(0);
  else unwarm();
};

/** Draws the newest drawing, in a task of its own (drawings that came meanwhile are dropped but
 * the last), and answers in the task after: a canvas transferred to a worker sends its picture
 * (to the compositor and to the page's placeholder canvas) when the drawing task ends, so the
 * page, told after that, reads the new picture. */
const paintTick = new MessageChannel();
paintTick.port1.onmessage = (e) => {
  if (e.data !== 0) {
    postMessage({ op: "painted", ...e.data }, [e.data.nums.buffer]);
    return;
  }
  const d = drawing;
  drawing = null;
  try {
    const nums = painter.paint(d.nums, d.texts);
    // when the drawing ended, on a clock the page shares (its timeOrigin differs from ours)
    const at = performance.timeOrigin + performance.now();
    paintTick.port2.postMessage({ epoch: d.epoch, n: d.n, nums, at }, [nums.buffer]);
  } catch (err) {
    postMessage({ op: "failed", error: String(err && err.message ? err.message : err) });
  }
};

function handle(m) {
  if (m.op === "unwarm") {
    unwarm();
  } else if (m.op === "paint") {
    if (!painter) return;
    if (!drawing) paintTick.port2.postMessage(0);
    drawing = m;
  } else if (m.op === "job") {
    job?.free();
    job = new bindings.ViewJob(m.query, m.id, m.waited_ms ?? 0);
    schedule();
  } else if (m.op === "more") {
    if (job && job.id() === m.id) { job.keepComputing(); schedule(); }
  } else if (m.op === "cancel") {
    // this job or an older one (ids grow): the page finished it itself, or moved on
    if (job && job.id() <= m.id) { job.free(); job = null; }
  } else if (m.op === "csv") {
    // the data of the job the page shows (asked by its CSV export)
    answer(m.id, () => {
      if (!job || job.id() !== m.job) throw new Error("the data of this plot are no longer here: compute it again");
      return job.csv();
    });
  } else if (m.op === "phenomena") {
    answer(m.id, () => bindings.phenomenaRow(m.model));
  }
}

/** Answers the page's question `id` with what `compute` returns, or with the error it throws. */
function answer(id, compute) {
  try {
    postMessage({ op: "answer", id, result: compute() });
  } catch (e) {
    postMessage({ op: "answer", id, error: String(e && e.message ? e.message : e) });
  }
}

onmessage = async (event) => {
  const m = event.data;
  if (m.op !== "init") {
    if (bindings) handle(m); else queue.push(m);
    return;
  }
  try {
    const b = typeof wasm_bindgen !== "undefined" ? wasm_bindgen : await import(m.glue);
    await (b.default ?? b)({ module_or_path: m.module });
    bindings = b;
    if (m.paint) painter = new b.Painter(m.paint.bg, m.paint.fg);
    else warm(m.warm);
    postMessage({ op: "ready" });
    if (m.paint && !warmPage(m.warm)) postMessage({ op: "warmed" });
    for (const q of queue.splice(0)) handle(q);
  } catch (e) {
    postMessage({ op: "failed", error: String(e && e.message ? e.message : e) });
  }
};
