//# allFunctionsCalledOnLoad
// (The line above is V8's compile hint, and must stay the file's first: most of this file runs
// at load, and compiled lazily its functions took 5-26 ms of the load's tasks, issue 39.)
// Wiring only: builds the controls the core describes, sends every change to the wasm `Lab`,
// and draws in requestAnimationFrame. Keys, labels, ranges, defaults and every number shown come
// from the core through wasm. Nothing from the URL is ever inserted as HTML (textContent only).

/** The iframe sandbox the Embed snippet offers: scripts on the frame's own origin (it fetches its
 * wasm from there, so a plain static server needs no CORS header) and popups for the link out. */
const EMBED_SANDBOX = "allow-scripts allow-same-origin allow-popups allow-popups-to-escape-sandbox";
/** How many of the view's key controls (the core's `keyControls`) a compact embed shows by default. */
const EMBED_DEFAULT_CONTROLS = 3;
const SLIDER_STEPS = 1000; // slider positions; arrows move 10, Shift+arrows 1, PageUp/Down 100
const FIRST_BUDGET_MS = 3; // compute time inside the frame of an input event
const LATER_BUDGET_MS = 8; // per frame while refining
const WARM_WAIT_MS = 1000; // the longest the first computing waits for the painter's warm-up
// The URL is written once input has been quiet this long, not while a slider moves:
// history.replaceState blocked the main thread for 1–48 ms per call in Chromium here, long
// enough to hold up the next input's frame (it was the tail of the frame times).
const URL_QUIET_MS = 250;
// sessionStorage key of the link written as the page was unloaded, for the reload that follows
const RELOAD_KEY = "friction-lab:unload-url";

const $ = (id) => document.getElementById(id);

/** Lays the page out now, in the current task: DOM built outside an animation frame (the
 * readout of a load, the lesson's module) would otherwise be laid out in the next frame, with
 * that frame's computing and drawing (15-40 ms more in tasks over 50 ms at load, issue 39). */
function layoutHere() {
  void document.body.offsetHeight;
}

/** The link's core part (for the `Lab`) and its page keys: layout and embedding, not physics, named
 * by the core (`pageKeys`: `embed`, `controls`, `show` = the embed strip's control keys, `origin` =
 * the host origins the postMessage API obeys, `lesson=1` opens the lesson, `panels` = the chart
 * panels an embed shows, 1-based, e.g. `panels=5`), which the CLI ignores. */
function splitQuery(search, pageKeys) {
  const core = [];
  const page = {};
  for (const part of search.replace(/^\?/, "").split("&")) {
    if (!part) continue;
    const eq = part.indexOf("=");
    let key = eq < 0 ? part : part.slice(0, eq);
    key = decodeOr(key.replace(/\+/g, " "));
    if (pageKeys.includes(key)) page[key] = eq < 0 ? "" : part.slice(eq + 1);
    else core.push(part);
  }
  return { core: core.join("&"), page };
}

/** decodeURIComponent that keeps a malformed escape as it is instead of throwing. */
function decodeOr(text) {
  try { return decodeURIComponent(text); } catch { return text; }
}

function numText(x) {
  // four significant digits for values picked on a slider; the number box takes any value
  if (!Number.isFinite(x)) return "";
  return String(Number(x.toPrecision(4)));
}

/** Slider position ↔ value, linear or logarithmic over [lo, hi]. */
function scaleFor(c, value) {
  let lo = c.min, hi = c.max;
  if (c.integer) {
    // a count: one slider position per whole number of the enforced range
    const steps = Math.max(1, Math.round(hi - lo));
    return {
      lo, hi, log: false, steps,
      toValue: (p) => lo + Math.round(p),
      toPos: (v) => Math.round(Math.min(Math.max(v, lo), hi) - lo),
    };
  }
  if (c.log) {
    if (lo <= 0) lo = hi * 1e-9;
    return {
      lo, hi, log: true, steps: SLIDER_STEPS,
      toValue: (p) => 10 ** (Math.log10(lo) + (p / SLIDER_STEPS) * (Math.log10(hi) - Math.log10(lo))),
      toPos: (v) => Math.round(((Math.log10(Math.max(v, lo)) - Math.log10(lo)) / (Math.log10(hi) - Math.log10(lo))) * SLIDER_STEPS),
    };
  }
  // A linear allowed range far wider than the value (v_mean in [-10, 10] m/s around 0.015) would
  // make the slider useless: slide over a window around the value; the number box takes the
  // whole allowed range, and the window re-centres when a value is committed.
  const span = hi - lo;
  const v = Number.isFinite(value) ? value : (lo + hi) / 2;
  const s = Math.max(Math.abs(v), span * 1e-3);
  if (span > 20 * s) {
    lo = Math.max(c.min, v - 2 * s);
    hi = Math.min(c.max, v + 2 * s);
  }
  return {
    lo, hi, log: false, steps: SLIDER_STEPS,
    toValue: (p) => lo + (p / SLIDER_STEPS) * (hi - lo),
    toPos: (x) => Math.round(((Math.min(Math.max(x, lo), hi) - lo) / (hi - lo)) * SLIDER_STEPS),
  };
}

/** Sets an element's text only when it differs: an unchanged read-out then leaves the page's
 * layout clean, so a slider step costs one layout per frame, not a rebuilt table's. */
function setText(el, text) {
  if (el.textContent !== text) el.textContent = text;
}

/** Brings a table to `columns` (its head) and `rows` (first cell a row header), reusing its
 * cells and touching only those whose text changed. */
function syncTable(table, columns, rows) {
  syncRow(table.tHead, 0, columns, true);
  const body = table.tBodies[0];
  while (body.rows.length > rows.length) body.deleteRow(-1);
  rows.forEach((cells, r) => syncRow(body, r, cells, false));
}

function syncRow(section, r, cells, head) {
  let tr = section.rows[r];
  if (!tr) { tr = document.createElement("tr"); section.append(tr); }
  while (tr.cells.length > cells.length) tr.deleteCell(-1);
  cells.forEach((text, i) => {
    const tag = head || i === 0 ? "TH" : "TD";
    let cell = tr.cells[i];
    if (!cell || cell.tagName !== tag) {
      const fresh = document.createElement(tag.toLowerCase());
      if (tag === "TH") fresh.scope = head ? "col" : "row";
      if (cell) cell.replaceWith(fresh); else tr.append(fresh);
      cell = fresh;
    }
    setText(cell, text);
  });
}

/** The page's view worker (www/view-worker.js): computes the Lab's jobs off the main thread on
 * the same wasm module, and sends snapshots the Lab draws. None where a worker cannot start (a
 * frame with an opaque origin, a page whose bindings' file is unknown): the Lab then computes
 * every job itself, between frames, as it does for a job's first few milliseconds anyway. */
class ViewWorker {
  /** A worker for `bindings`, or null. `onMessage(data)` gets its snapshots and answers;
   * `onGone(error)` is called once if it fails. With `warm` it first runs the chart code once,
   * for a page that draws on its own canvases (a painter runs that code in its own thread). */
  static start(bindings, onMessage, onGone, warm) {
    const w = ViewWorker.spawn(bindings, (glue) => ({
      message: { op: "init", glue, module: bindings.compiledModule(), warm: warm ? location.search.replace(/^\?/, "") : null },
    }));
    return w && new ViewWorker(w, onMessage, onGone);
  }

  /** A www/view-worker.js on `bindings`, sent the `message` of `init(glue)` (transferring its
   * `transfer`, if any), or null. */
  static spawn(bindings, init) {
    const inline = window.frictionLabInline?.viewWorkerUrl;
    const glue = window.frictionLabGlue?.get(bindings);
    if (typeof Worker !== "function" || !bindings.compiledModule) return null;
    // a worker from the page's own URL needs an origin; the single file's, from a blob URL,
    // runs from file:// too
    if (!inline && (self.origin === "null" || !glue)) return null;
    let w;
    try {
      w = new Worker(inline ? window.frictionLabInline.viewWorkerUrl() : new URL("./view-worker.js", document.baseURI));
      const { message, transfer = [] } = init(glue);
      w.postMessage(message, transfer);
    } catch (e) {
      console.warn("view worker not started:", e);
      w?.terminate();
      return null;
    }
    return w;
  }

  constructor(worker, onMessage, onGone) {
    this.w = worker;
    this.asked = new Map(); // id → resolve, reject of a question (a phenomena row, a CSV)
    this.nextId = 0;
    const gone = (error) => {
      if (!this.w) return;
      this.stop();
      onGone(error);
    };
    worker.onmessage = (e) => {
      if (this.w !== worker) return; // a message sent before the worker was stopped
      const m = e.data;
      if (m.op === "failed") gone(m.error);
      else if (m.op === "answer") {
        const p = this.asked.get(m.id);
        this.asked.delete(m.id);
        if (p) { if (m.error) p.reject(new Error(m.error)); else p.resolve(m.result); }
      } else onMessage(m);
    };
    worker.onerror = (e) => { e.preventDefault?.(); gone(e.message || "the view worker stopped"); };
  }

  post(message) { this.w?.postMessage(message); }

  /** Asks the worker `{op, ...args}`; resolves to its answer. */
  ask(op, args) {
    const id = ++this.nextId;
    return new Promise((resolve, reject) => {
      if (!this.w) { reject(new Error("the view worker stopped")); return; }
      this.asked.set(id, { resolve, reject });
      this.post({ op, id, ...args });
    });
  }

  /** One row of the phenomena matrix, computed in the worker. */
  phenomenaRow(model) { return this.ask("phenomena", { model }); }

  stop() {
    this.w?.terminate();
    this.w = null;
    for (const p of this.asked.values()) p.reject(new Error("the view worker stopped"));
    this.asked.clear();
  }
}

/** The plot's painter: a view worker (www/view-worker.js) holding the page's two canvases,
 * transferred, and drawing what the Lab sends (`Lab.takePaint`). A canvas drawn on the main
 * thread is rasterised in the task of the frame that drew it, which at load made tasks over
 * 50 ms (issue 39); in the painter the drawing and its raster are the worker's. None where a
 * worker cannot start (a frame with an opaque origin): the Lab then draws on the canvases. */
class PlotPainter {
  /** A painter on canvases `bg` and `fg`, or null (they are then untouched). `onPainted(m)` gets
   * its answers; `onGone(error)` is called once if it fails. It first computes the link `warm`
   * ({query, panels}) ahead of the page; `onWarmed()` is called when the page may compute. */
  static start(bindings, bg, fg, onPainted, onGone, warm, onWarmed) {
    if (!bindings.Painter || typeof bg.transferControlToOffscreen !== "function") return null;
    const w = ViewWorker.spawn(bindings, (glue) => {
      const paint = { bg: bg.transferControlToOffscreen(), fg: fg.transferControlToOffscreen() };
      return { message: { op: "init", glue, module: bindings.compiledModule(), paint, warm }, transfer: [paint.bg, paint.fg] };
    });
    return w && new PlotPainter(w, onPainted, onGone, onWarmed);
  }

  constructor(worker, onPainted, onGone, onWarmed) {
    this.w = worker;
    // the Lab whose drawings count: a Lab replaced (the other module) may still be answered
    this.epoch = 0;
    this.sent = 0;
    const gone = (error) => {
      if (!this.w) return;
      this.w.terminate();
      this.w = null;
      onGone(error);
    };
    worker.onmessage = (e) => {
      const m = e.data;
      if (m.op === "failed") gone(m.error);
      else if (m.op === "painted" && m.epoch === this.epoch) onPainted(m);
      else if (m.op === "warmed") onWarmed();
    };
    worker.onerror = (e) => { e.preventDefault?.(); gone(e.message || "the plot's painter stopped"); };
  }

  /** Stops the warm-up, if it still runs. */
  unwarm() {
    this.w?.postMessage({ op: "unwarm" });
  }

  /** Sends the Lab's drawing, if it has one; returns its number (answers say which they
   * answer), or 0. */
  pump(lab) {
    const r = this.w && lab.takePaint();
    if (!r) return 0;
    this.w.postMessage({ op: "paint", epoch: this.epoch, n: ++this.sent, nums: r.nums, texts: r.texts }, [r.nums.buffer]);
    return this.sent;
  }
}

class Page {
  constructor(bindings) {
    this.b = bindings;
    const { core, page } = splitQuery(location.search, bindings.pageKeys());
    this.embed = page.embed === "1";
    this.pageKeys = page; // read by the explain modules (lesson=1)
    this.showControls = page.controls !== "0";
    // decodeOr: a malformed escape in a hand-edited link is reported below, never a dead page
    this.show = page.show ? decodeOr(page.show).split(",").map((k) => k.trim()).filter((k) => k) : null;
    this.origins = page.origin ? decodeOr(page.origin).split(",").map((o) => o.trim()).filter((o) => o) : null;
    this.course = courseOptions(page);
    this.groupOpen = new Map(); // collapsible groups the user opened or closed, by group id
    // a view that runs outside the core's views (the fit workspace) is shown in place of the
    // plot and controls; the Lab stays on the view it has (the default one for such a link)
    this.outside = bindings.outsideView?.(core) || null;
    this.lab = new bindings.Lab(this.outside ? "v=1" : core);
    // an embed's choice of panels; the full page always shows them all (a bad list is reported
    // with the link's other errors and changes nothing)
    if (this.embed && page.panels) this.lab.setPanels(decodeOr(page.panels));
    // the same Lab, for the painter to compute ahead of the page (`PlotPainter`)
    this.warmLink = { query: this.outside ? "v=1" : core, panels: this.embed && page.panels ? decodeOr(page.panels) : null };
    this.warming = false; // the first computing waits for the painter's warm-up
    this.warmDone = new Promise((resolve) => { this.warmEnded = resolve; });
    this.pending = new Map();
    this.scheduled = false;
    this.inputStamp = null;
    this.shownStamp = null;
    this.urlAtOnce = false; // the next URL write is not deferred (a view switch)
    this.urlTimer = null;
    this.userChanged = false;
    this.signature = "";
    this.sigmaMode = this.lab.sigmaForm();
    this.lastProgress = "";
    this.readoutTimer = null;
    // Lab.rehearse's task before a first drawing's frame (rehearseSoon)
    this.rehearsalTimer = null;
    // Lab.fitCanvases's task after the plot changed size
    this.fitTimer = null;
    this.jobDone = false;
    this.numbersDone = false;
    this.liveTimer = null;
    this.models = bindings.modelList();
    this.modelById = new Map(this.models.map((m) => [m.id, m]));
    this.phenoRows = new Map(); // phenomena rows computed so far (the core's, cached per page)
    this.phenoBusy = false;
    this.presetView = null; // the view whose presets are shown
    this.structural = new Set(); // keys whose change changes the controls (the core says which)
    this.worker = null;
    this.workerTried = false;
    this.painter = null;
    this.drawnWait = null; // an input's drawing sent to the painter: {n, start}
    window.frictionLab = this; // for the e2e tests and the frame-time benchmark
  }

  /** Hands the Lab's jobs to a view worker on the current bindings, when one can start. Not
   * while the page loads: on two cores a worker starting then made the default view's first
   * complete loops ~50-100 ms later (bench/browser/frames.mjs); the first link's job runs on the
   * page until its end or for its first 1.5 s, and the worker takes over from there. */
  startWorker() {
    this.workerTried = true;
    this.worker = ViewWorker.start(this.b, (m) => {
      if (m.op !== "snapshot") return;
      try {
        if (this.lab.receive(m.nums, m.texts)) this.schedule();
      } catch (e) {
        console.warn("view worker snapshot not read:", e);
      }
    }, (error) => {
      console.warn("view worker failed; computing on the page:", error);
      this.worker = null;
      this.lab.workerGone();
      this.schedule();
    }, !this.painter);
    if (this.worker) this.lab.useWorker();
  }

  /** The data on the plot as CSV (the CLI's for the same link): the Lab's, or the view
   * worker's when the plot shows its job (a long run's CSV stays there until asked for). */
  async csv() {
    const job = this.lab.workerJob();
    if (job === undefined || !this.worker) return this.lab.csv();
    return this.worker.ask("csv", { job });
  }

  /** Sends the Lab's requests (a new job, keep computing, a cancel) to the view worker. */
  pumpWorker() {
    if (!this.worker) return;
    for (let r = this.lab.takeRequest(); r; r = this.lab.takeRequest()) this.worker.post(r);
  }

  start() {
    setTimeout(() => { if (!this.workerTried) this.startWorker(); }, 1500);
    const root = document.documentElement;
    root.classList.toggle("embed", this.embed);
    root.classList.toggle("no-controls", !this.showControls);
    $("status").hidden = true;
    if (this.embed) {
      $("open-full").hidden = false;
      $("open-full").href = this.fullUrl(false);
      $("open-full").addEventListener("click", (ev) => this.openFull(ev));
    }
    this.showLinkErrors([...this.lab.errors(), ...this.pageErrors(), ...this.courseErrors()]);
    this.startCourse();
    this.painter = PlotPainter.start(this.b, $("plot"), $("loops"), (m) => this.painted(m), (e) => this.painterGone(e),
      this.warmLink, () => this.warmed());
    // The painter computes the link first, ahead of the page, and the page's first computing
    // waits for it (for WARM_WAIT_MS at most): the wasm it runs is then compiled, off this
    // thread. Compiled in the first computing's frame it made tasks of 50-70 ms at load (issue 39).
    if (this.painter) {
      this.warming = true;
      this.warmTimer = setTimeout(() => this.warmed(), WARM_WAIT_MS);
    } else {
      this.warmEnded();
    }
    // with a painter the plot's size comes with the ResizeObserver's first call, after layout
    if (!this.painter) this.lab.attach($("plot"), $("loops"));
    // one call of the schema for both (its first call compiles, 7.5 ms of the load's first task)
    const controls = this.lab.controls();
    this.buildTabs(controls);
    this.buildControls(controls);
    this.syncExtras();
    this.wireButtons();
    if (this.outside) this.showOutside(this.pageKeys.fit ?? "");
    // lesson, plot tools, export (www/explain/, ES modules). Loaded dynamically: in a frame with an
    // opaque origin on a server without CORS, boot.js runs this file as a classic script, where a
    // static import is a syntax error and a module fetch is refused; the figure then works without them.
    this.explain = null;
    if (document.currentScript === null) {
      import("./explain/explain.js")
        .then((m) => m.explainReady(this).then(() => m))
        // after the painter's warm-up: the lesson's first layout looks its fonts up through
        // the browser process, and with the warm-up's computing beside it on two cores it made
        // tasks of 100-190 ms (issue 39)
        .then((m) => this.warmDone.then(() => m))
        .then(({ attachExplain }) => {
          this.explain = attachExplain(this);
          this.explain?.syncView();
          // the lesson's and the tools' layout in a task of its own, not in the next frame's
          // (attaching and laying out in one task took 35-55 ms at load)
          setTimeout(layoutHere, 0);
        })
        .catch((e) => console.warn("plot tools not loaded:", e));
    }
    // Before a first drawing, the canvases take their size, and the browser allocates their
    // pixels, in a task before the frame that draws: with that frame's drawing it made tasks
    // over 50 ms at load (issue 39).
    new ResizeObserver(() => {
      // read after layout: no layout of its own
      if (this.painter) this.lab.usePainter($("plot").clientWidth, $("plot").clientHeight, devicePixelRatio);
      else this.lab.resized();
      this.schedule();
      clearTimeout(this.fitTimer);
      this.fitTimer = setTimeout(() => {
        // an error here is the drawing's, and the drawing reports it
        try { this.lab.fitCanvases(); } catch { /* drawn at the next frame */ }
      }, 0);
    }).observe($("plot-box"));
    // the throttled URL write of a change made just before a reload, a navigation or a tab
    // switch would never run: write it when the page is hidden
    addEventListener("pagehide", () => this.flushUrl(true));
    addEventListener("pageshow", (e) => { if (e.persisted) forgetUnloadUrl(); });
    document.addEventListener("visibilitychange", () => {
      if (document.visibilityState === "hidden") this.flushUrl(false);
    });
    // Back and Forward between views (a view switch pushes an entry): load that entry's link
    addEventListener("popstate", () => {
      const { core, page } = splitQuery(location.search, this.b.pageKeys());
      this.loadQuery(core, page);
    });
    // embed-api.js, a classic script (see index.html), answers a course page's postMessage commands
    if (this.embed && window.frictionLabApi) this.api = window.frictionLabApi.install(this, this.origins);
    // The first frame after load only lays out and paints the page just built. Together, the
    // forced layout and the first compute and draw of six panels made one task of 200-300 ms on a
    // slow machine (issue 18). The first computing then runs in a task of its own, not in a frame:
    // its first unit compiles the solver's wasm (lazily, at the first call), and a frame's paint
    // with it made tasks over 50 ms (issue 39). Drawing starts in the frames after it.
    requestAnimationFrame(() => setTimeout(() => {
      this.loadFramePassed = true;
      if (!this.scheduled) this.tick();
    }, 0));
  }

  /** Replaces the whole state by a link's (Back/Forward): a fresh `Lab`, its controls and plot.
   * A link to a view this module leaves out first loads the module that has it. */
  loadQuery(core, page = {}) {
    const outside = this.b.outsideView?.(core);
    if (outside) {
      this.outside = outside;
      this.showOutside(page.fit ?? "");
      return;
    }
    if (this.outside) this.hideOutside();
    if (this.b.linkNeedsFull?.(core)) {
      this.upgrade().then(() => this.loadQuery(core), (e) => this.upgradeFailed(e));
      return;
    }
    this.replaceLab(core);
  }

  // ----- a view that runs outside the core's views: the fit workspace (www/fit.js) -----
  /** Shows the workspace of `this.outside` in place of the plot and controls, with the fit
   * query `fit` of a link (undefined: as it was). */
  showOutside(fit) {
    document.documentElement.classList.add("outside");
    this.syncTabs();
    const ws = window.frictionLabFit;
    if (ws) {
      ws.open(fit === undefined ? null : decodeOr(fit), this);
      return;
    }
    // fit.js, a module after this one, may not have run yet; after the page's load event it
    // never will (a frame that refuses module scripts)
    let done = false;
    const later = () => {
      if (done || !this.outside) return;
      done = true;
      if (window.frictionLabFit) { this.showOutside(fit); return; }
      const status = $("status");
      status.hidden = false;
      status.className = "error";
      status.textContent = "The fit workspace could not be loaded on this page; the other views work.";
    };
    if (document.readyState === "complete") later();
    else {
      addEventListener("frictionlab:fit", later, { once: true });
      addEventListener("load", later, { once: true });
    }
  }

  hideOutside() {
    this.outside = null;
    document.documentElement.classList.remove("outside");
    window.frictionLabFit?.close();
    this.syncTabs();
    this.lab.resized();
    this.schedule();
  }

  /** The workspace's query changed: the link follows once input is quiet. */
  fitChanged() {
    if (!this.outside) return;
    this.userChanged = true;
    clearTimeout(this.urlTimer);
    this.urlTimer = setTimeout(() => this.writeUrl(), URL_QUIET_MS);
  }

  /** The link of the workspace: its view and its fit query. */
  outsideQuery() {
    const q = window.frictionLabFit?.query() ?? "";
    return `v=1&view=${this.outside}${q ? `&fit=${encodeURIComponent(q)}` : ""}`;
  }

  /** Moves the page, once, onto the module with every view (www/index.html): a fresh `Lab`
   * there from this one's link, so the state carries over. Resolves when it is in place. */
  upgrade(view = null) {
    this.upgrading ??= (async () => {
      const status = $("status");
      const title = view && [...$("view-select").options].find((o) => o.value === view)?.textContent;
      status.className = "";
      status.textContent = title ? `Loading “${title}”…` : "Loading the other views…";
      status.hidden = false;
      const full = await loadFull();
      status.hidden = true;
      if (this.pending.size > 0) this.applyPending();
      const core = this.lab.query();
      this.b = full;
      window.wasmBindings = full; // the fit workspace draws through it too
      this.replaceLab(core);
    })();
    this.upgrading.catch(() => { this.upgrading = null; }); // a later attempt may succeed
    return this.upgrading;
  }

  upgradeFailed(e) {
    this.leftOutside = false;
    const status = $("status");
    status.hidden = false;
    status.className = "error";
    status.textContent = `The other views could not be loaded (${e && e.message ? e.message : e}); this one still works. Try again, or reload.`;
    this.syncTabs(); // the tab and the menu show the view that is still shown
    console.warn(e);
  }

  replaceLab(core) {
    this.pending.clear();
    this.commitPending = false;
    clearTimeout(this.urlTimer);
    const view = this.lab.view();
    const chosen = this.lab.panelChoice();
    this.worker?.stop();
    this.lab.free?.();
    this.lab = new this.b.Lab(core);
    this.startWorker();
    // the same view on the other module (or Back to it) keeps the embed's panels
    if (chosen && this.lab.view() === view) this.lab.setPanels(chosen);
    this.sigmaMode = this.lab.sigmaForm();
    this.attachPlot();
    this.showLinkErrors(this.lab.errors());
    this.buildControls();
    this.syncTabs();
    this.syncExtras();
    this.lastProgress = "";
    this.schedule();
  }

  /** "Open in Friction Lab" in a frame without `allow-popups` would be a dead link: when the
   * browser refuses the new tab, the link is shown to copy instead. */
  openFull(ev) {
    const url = this.fullUrl(false);
    let w = null;
    try { w = window.open(url, "_blank"); } catch { w = null; }
    ev.preventDefault();
    if (w) {
      try { w.opener = null; } catch { /* cross-origin: nothing to cut */ }
      return;
    }
    const box = $("messages");
    $("message-list").replaceChildren();
    const li = document.createElement("li");
    const input = document.createElement("input");
    input.type = "text";
    input.readOnly = true;
    input.value = url;
    input.setAttribute("aria-label", "Link to the full page");
    li.append("This frame may not open new tabs. Copy the link: ", input);
    $("message-list").append(li);
    box.querySelector("p").hidden = true;
    $("known-keys").hidden = true;
    box.hidden = false;
    input.focus({ preventScroll: true });
    input.select();
  }

  // ----- messages about a bad link -----
  /** Mistakes in the page keys of the link (the core reports its own keys'): a `show=` key the
   * view has no control for, an `origin=` entry that is not an origin. Nothing is dropped: an
   * unknown `show=` key shows nothing anyway, and a bad origin matches no sender (dropping it
   * could leave an empty allow-list, which obeys every origin). */
  pageErrors() {
    if (!this.embed) return [];
    const errors = [];
    if (this.show) {
      const known = this.lab.controls().map((c) => c.key).filter((k) => k !== "view");
      const bad = this.show.filter((k) => !known.includes(k));
      if (bad.length) {
        errors.push({ key: "show", value: bad.join(","), reason: `not a control of this view; known keys: ${known.join(", ")}` });
      }
    }
    const isOrigin = (o) => { try { return new URL(o).origin === o && o !== "null"; } catch { return false; } };
    const badOrigins = (this.origins ?? []).filter((o) => !isOrigin(o));
    if (badOrigins.length) {
      errors.push({ key: "origin", value: badOrigins.join(","), reason: "not an origin: write scheme, host and port only, such as https://course.example.org" });
    }
    return errors;
  }

  showLinkErrors(errors) {
    const box = $("messages");
    const badge = $("link-badge");
    box.querySelector("p").hidden = false;
    if (!errors.length) { box.hidden = true; badge.hidden = true; return; }
    const list = $("message-list");
    list.replaceChildren();
    let known = "";
    for (const e of errors) {
      const li = document.createElement("li");
      const key = document.createElement("code");
      key.textContent = e.key;
      // the core's reason for an unknown key ends with every known key: only the bad key is
      // named in the list, the known ones go behind the disclosure below it
      const cut = e.reason.indexOf("; known keys: ");
      if (cut >= 0) known = e.reason.slice(cut + "; known keys: ".length);
      li.append(key, ` = “${e.value}”: ${cut >= 0 ? e.reason.slice(0, cut) : e.reason}`);
      li.dataset.key = e.key;
      list.append(li);
    }
    $("known-keys").hidden = !known;
    $("known-keys-list").textContent = known;
    const close = () => {
      box.hidden = true;
      badge.setAttribute("aria-expanded", "false");
    };
    $("dismiss-messages").onclick = () => {
      close();
      badge.hidden = true;
    };
    if (this.embed) {
      // in front of students the figure stays clear: a small badge opens the list on demand
      box.hidden = true;
      badge.hidden = false;
      badge.textContent = `⚠ ${errors.length} link setting${errors.length > 1 ? "s" : ""} ignored`;
      badge.onclick = () => {
        box.hidden = !box.hidden;
        badge.setAttribute("aria-expanded", String(!box.hidden));
      };
    } else {
      box.hidden = false;
    }
  }

  // ----- view tabs -----
  buildTabs(all = this.lab.controls()) {
    const view = all.find((c) => c.key === "view");
    const tabs = $("tabs");
    tabs.replaceChildren();
    if (!view) return;
    const select = $("view-select");
    select.replaceChildren(...view.options.map(([value, label]) => {
      const o = document.createElement("option");
      o.value = value;
      o.textContent = label;
      return o;
    }));
    select.addEventListener("change", () => this.change("view", select.value, true));
    // a view that runs outside the core's views (the fit workspace) is a tab of the title row,
    // still owned by the one tab list
    const apart = $("tabs-apart");
    apart?.replaceChildren();
    const owned = [];
    const buttons = view.options.map(([value, label]) => {
      const b = document.createElement("button");
      b.type = "button";
      b.setAttribute("role", "tab");
      b.id = `tab-${value}`;
      b.dataset.view = value;
      b.textContent = label;
      b.addEventListener("click", () => this.change("view", value, true));
      if (apart && this.b.viewRunsOutside?.(value)) {
        apart.append(b);
        owned.push(b.id);
      } else {
        tabs.append(b);
      }
      return b;
    });
    if (owned.length) tabs.setAttribute("aria-owns", owned.join(" "));
    apart?.addEventListener("keydown", (ev) => tabs.dispatchEvent(new KeyboardEvent("keydown", ev)));
    tabs.addEventListener("keydown", (ev) => {
      const i = buttons.indexOf(document.activeElement);
      if (i < 0 || !["ArrowLeft", "ArrowRight"].includes(ev.key)) return;
      const next = buttons[(i + (ev.key === "ArrowRight" ? 1 : buttons.length - 1)) % buttons.length];
      next.focus();
      next.click();
      ev.preventDefault();
    });
    this.syncTabs();
  }

  syncTabs() {
    const v = this.outside ?? this.lab.view();
    for (const b of [...$("tabs").children, ...($("tabs-apart")?.children ?? [])]) {
      const on = b.dataset.view === v;
      b.setAttribute("aria-selected", String(on));
      b.tabIndex = on ? 0 : -1;
    }
    $("view-select").value = v;
    $("view-title").textContent = this.lab.viewTitle();
  }

  // ----- controls -----
  controlSignature(list) {
    return list.map((c) => `${c.key}:${c.kind}:${c.label}:${c.kind === "list" ? c.value.split(",").length : ""}:${c.options.map((o) => o[0]).join("/")}`).join("|");
  }

  buildControls(all = this.lab.controls()) {
    const form = $("controls");
    this.signature = this.controlSignature(all);
    const hadFocus = document.activeElement && form.contains(document.activeElement) ? document.activeElement.id : null;
    form.replaceChildren();
    this.widgets = new Map();
    this.structural = new Set(all.filter((c) => c.structural).map((c) => c.key));
    const hasSigma = all.some((c) => c.role === "sigma");
    if (!hasSigma) this.sigmaMode = false;
    const list = all.filter((c) => c.key !== "view");
    const byKey = (k) => list.find((c) => c.key === k);
    // the core names the view's most-used controls: they come first, the rest in collapsible
    // groups; a compact embed shows only those the host chose (`show=`) or the first few
    const keys = this.lab.keyControls();
    const first = (this.embed ? (this.show ?? keys.slice(0, EMBED_DEFAULT_CONTROLS)) : keys).map(byKey).filter((c) => c);
    const rest = this.embed ? [] : list.filter((c) => !keys.includes(c.key));
    let toggled = this.embed; // the embed strip has no room for the form (5) switch
    const add = (box, c) => {
      if (c.role === "rheo" && hasSigma && !toggled) {
        // the toggle sits just above the fields it swaps
        box.append(this.sigmaToggle());
        toggled = true;
      }
      const row = c.kind === "multi" ? this.makeModels(c)
        : c.kind === "choice" ? this.makeChoice(c) : c.kind === "list" ? this.makeList(c) : this.makeRow(c);
      if (c.role) row.dataset.role = c.role;
      box.append(row);
    };
    if (first.length) {
      const box = document.createElement("fieldset");
      box.className = "group key";
      box.dataset.group = "key";
      if (!this.embed) {
        const legend = document.createElement("legend");
        legend.textContent = "most used";
        box.append(legend);
      }
      for (const c of first) add(box, c);
      form.append(box);
    }
    // groups start closed where the screen is small, open elsewhere; a user's choice is kept
    const small = matchMedia("(max-width: 599px), (max-height: 500px)").matches;
    let group = null, box = null;
    for (const c of rest) {
      if (c.group !== group) {
        group = c.group;
        box = document.createElement("details");
        box.className = "group";
        box.dataset.group = group;
        box.open = this.groupOpen.get(group) ?? !small;
        const id = group;
        box.addEventListener("toggle", () => this.groupOpen.set(id, box.open));
        const summary = document.createElement("summary");
        summary.textContent = c.group_label;
        box.append(summary);
        form.append(box);
      }
      add(box, c);
    }
    this.showSigmaMode();
    this.applyLock();
    if (hadFocus && $(hadFocus)) $(hadFocus).focus({ preventScroll: true });
  }

  /** Shows the fields of the core's role "rheo" or those of role "sigma" (two inputs of the same
   * model), never both, and hides a heading left without a visible field. */
  showSigmaMode() {
    const form = $("controls");
    for (const r of form.querySelectorAll(".ctl[data-role]")) {
      r.hidden = r.dataset.role === "rheo" ? this.sigmaMode : !this.sigmaMode;
    }
    for (const g of form.querySelectorAll(".group")) {
      g.hidden = ![...g.querySelectorAll(":scope > .ctl")].some((r) => !r.hidden);
    }
  }

  sigmaToggle() {
    const label = document.createElement("label");
    label.className = "inline toggle";
    const cb = document.createElement("input");
    cb.type = "checkbox";
    cb.id = "sigma-mode";
    cb.checked = this.sigmaMode;
    cb.addEventListener("change", () => {
      this.sigmaMode = cb.checked;
      this.showSigmaMode();
    });
    label.append(cb, ` ${this.b.sigmaToggleText()}`);
    return label;
  }

  makeChoice(c) {
    const row = document.createElement("div");
    row.className = "ctl choice";
    const id = `c-${c.key}`;
    const label = document.createElement("label");
    label.htmlFor = id;
    label.textContent = c.label;
    const sel = document.createElement("select");
    sel.id = id;
    for (const [value, text] of c.options) {
      const o = document.createElement("option");
      o.value = value;
      o.textContent = text;
      sel.append(o);
    }
    sel.value = c.value;
    sel.addEventListener("change", () => this.change(c.key, sel.value, true));
    const err = this.errorSlot(c.key);
    row.append(label, sel, err);
    this.widgets.set(c.key, { c, set: (v) => { sel.value = v; }, err });
    return row;
  }

  /** Up to `max_len` model selects (the first always set, the others optional), written as
   * `model=a,b,c`; the core's note on a selected model (a formula it could not recover) is shown
   * beside them. */
  makeModels(c) {
    const row = document.createElement("div");
    row.className = "ctl models";
    row.dataset.key = "model";
    const head = document.createElement("div");
    head.textContent = c.label;
    head.id = "models-label";
    row.append(head);
    const selects = [];
    const prov = document.createElement("div");
    prov.id = "provisional-flags";
    const read = () => {
      const ids = selects.map((s) => s.value).filter((v) => v);
      this.change("model", [...new Set(ids)].join(","), true);
    };
    for (let i = 0; i < c.max_len; i++) {
      const sel = document.createElement("select");
      sel.id = i === 0 ? "c-model" : `c-model-${i}`;
      sel.setAttribute("aria-labelledby", "models-label");
      sel.setAttribute("aria-label", `model ${i + 1}`);
      if (i > 0) {
        const none = document.createElement("option");
        none.value = "";
        none.textContent = "(none)";
        sel.append(none);
      }
      for (const [value, text] of c.options) {
        const o = document.createElement("option");
        o.value = value;
        o.textContent = text;
        sel.append(o);
      }
      sel.addEventListener("change", read);
      selects.push(sel);
      row.append(sel);
    }
    const err = this.errorSlot("model");
    row.append(prov, err);
    const set = (v) => {
      const ids = v.split(",");
      selects.forEach((s, i) => {
        s.value = ids[i] ?? "";
        s.classList.toggle("unused", i > 0 && !ids[i]);
      });
      prov.replaceChildren(...ids.map((id) => this.modelById.get(id)?.note).filter((n) => n).map((note) => {
        const p = document.createElement("p");
        p.className = "prov";
        p.textContent = note;
        return p;
      }));
    };
    set(c.value);
    this.widgets.set("model", { c, set, err });
    return row;
  }

  // ----- what the view adds around its plot: presets, the phenomena matrix, plot height -----
  syncExtras() {
    this.explain?.syncView();
    const layout = this.lab.viewLayout();
    this.syncPresets();
    this.applyLock(); // presets are rebuilt per view
    $("phenomena-panel").hidden = !layout.phenomena;
    // views with several chart panels get the taller plot area
    document.documentElement.classList.toggle("multi", layout.panels > 1);
    document.documentElement.style.setProperty("--panels", String(layout.panels));
  }

  syncPresets() {
    const view = this.lab.view();
    // built once per view: rebuilding would take the focus from the button just pressed
    if (view === this.presetView) return;
    this.presetView = view;
    const box = $("presets");
    const p = this.b.presets(view);
    box.replaceChildren();
    box.hidden = !p || !p.presets.length;
    if (box.hidden) return;
    box.append(`${p.heading}:`);
    for (const preset of p.presets) {
      const b = document.createElement("button");
      b.type = "button";
      b.dataset.preset = preset.id;
      b.textContent = preset.label;
      b.setAttribute("aria-label", preset.name);
      b.title = preset.description;
      b.addEventListener("click", () => {
        for (const [k, v] of preset.query) this.change(k, v, true);
      });
      box.append(b);
    }
  }

  startPhenomena() {
    const panel = $("phenomena-panel");
    if (!panel.open || this.phenoBusy) return;
    const table = $("phenomena-table");
    if (!table.tHead.rows.length) {
      const head = document.createElement("tr");
      for (const c of ["model", ...this.b.phenomenaColumns(), "flag"]) {
        const th = document.createElement("th");
        th.scope = "col";
        th.textContent = c;
        head.append(th);
      }
      table.tHead.append(head);
    }
    this.phenoBusy = true;
    // one row per task so input and painting run in between; rows are cached for the page
    const next = () => {
      const todo = this.models.find((m) => !this.phenoRows.has(m.id));
      if (!todo || !panel.open) {
        this.phenoBusy = false;
        $("phenomena-status").textContent = todo ? "paused (panel closed)" : `${this.phenoRows.size} models.`;
        return;
      }
      $("phenomena-status").textContent = `computing ${todo.name} (${this.phenoRows.size + 1}/${this.models.length})…`;
      const failed = (e) => ({ id: todo.id, name: todo.base_name, flags: [], flag: "", note: e.message });
      const done = (row) => {
        this.phenoRows.set(todo.id, row);
        this.renderPhenomenaRow(row);
        setTimeout(next, 0);
      };
      // a row takes up to a few hundred ms: in the view worker when there is one
      if (this.worker) {
        this.worker.phenomenaRow(todo.id).then(done, (e) => done(failed(e)));
        return;
      }
      let row;
      try { row = this.b.phenomenaRow(todo.id); } catch (e) { row = failed(e); }
      done(row);
    };
    setTimeout(next, 0);
  }

  renderPhenomenaRow(r) {
    const tr = document.createElement("tr");
    tr.dataset.model = r.id;
    const th = document.createElement("th");
    th.scope = "row";
    th.textContent = r.name;
    tr.append(th);
    const n = this.b.phenomenaColumns().length;
    if (r.flags.length) {
      for (const f of r.flags) {
        const td = document.createElement("td");
        td.textContent = f === "1" ? "✓ 1" : f === "0" ? "0" : f;
        tr.append(td);
      }
    } else {
      const td = document.createElement("td");
      td.colSpan = n;
      td.textContent = r.note ?? "";
      tr.append(td);
    }
    const flag = document.createElement("td");
    flag.className = r.flag ? "prov" : "";
    flag.textContent = r.flag;
    tr.append(flag);
    $("phenomena-table").tBodies[0].append(tr);
  }

  errorSlot(key) {
    const err = document.createElement("div");
    err.className = "err";
    err.id = `err-${key}`;
    err.setAttribute("aria-live", "polite");
    return err;
  }

  /** A range slider paired with a number box; `onValue(text, commit)` receives new values. */
  makeSlider(c, id, labelText, value, onValue) {
    const row = document.createElement("div");
    row.className = "ctl number";
    const label = document.createElement("label");
    label.htmlFor = `${id}-r`;
    label.textContent = labelText;
    label.title = `allowed: ${c.min} … ${c.max}${c.unit ? " " + c.unit : ""}${c.log ? " (logarithmic slider)" : ""}`;
    const range = document.createElement("input");
    range.type = "range";
    range.id = `${id}-r`;
    range.min = "0";
    range.step = "1";
    const num = document.createElement("input");
    num.type = "number";
    num.id = `${id}-n`;
    num.step = c.integer ? "1" : "any";
    num.min = String(c.min);
    num.max = String(c.max);
    num.setAttribute("aria-label", `${labelText}, exact value`);
    const unit = document.createElement("span");
    unit.className = "unit";
    unit.textContent = c.unit;
    let scale = scaleFor(c, Number(value));
    range.max = String(scale.steps);
    const show = (text, moveSlider = true) => {
      num.value = text;
      num.removeAttribute("aria-invalid");
      const x = Number(text);
      if (moveSlider) {
        if (!scale.log && (x < scale.lo || x > scale.hi)) scale = scaleFor(c, x);
        range.value = String(scale.toPos(x));
      }
      range.setAttribute("aria-valuetext", this.valueText(text, c.unit));
    };
    show(value);
    const fromSlider = () => {
      const x = scale.toValue(Number(range.value));
      const text = c.integer ? String(x) : numText(x);
      show(text, false);
      onValue(text, false);
    };
    range.addEventListener("input", fromSlider);
    range.addEventListener("change", () => {
      scale = scaleFor(c, Number(num.value));
      range.value = String(scale.toPos(Number(num.value)));
      this.commit();
    });
    range.addEventListener("keydown", (ev) => {
      const p = Number(range.value);
      const small = ev.shiftKey || c.integer ? 1 : 10;
      const big = c.integer ? Math.max(1, Math.round(scale.steps / 10)) : 100;
      const to = {
        ArrowRight: p + small, ArrowUp: p + small, ArrowLeft: p - small, ArrowDown: p - small,
        PageUp: p + big, PageDown: p - big, Home: 0, End: scale.steps,
      }[ev.key];
      if (to === undefined) return;
      ev.preventDefault();
      range.value = String(Math.min(scale.steps, Math.max(0, to)));
      this.inputStamp = ev.timeStamp;
      fromSlider();
    });
    range.addEventListener("keyup", (ev) => {
      if (["ArrowRight", "ArrowUp", "ArrowLeft", "ArrowDown", "PageUp", "PageDown", "Home", "End"].includes(ev.key)) this.commit();
    });
    num.addEventListener("change", () => {
      if (num.value.trim() === "") return;
      onValue(num.value.trim(), true);
    });
    row.append(label, range, num, unit);
    return { row, show, num };
  }

  makeRow(c) {
    const err = this.errorSlot(c.key);
    const s = this.makeSlider(c, `c-${c.key}`, c.label, c.value, (text, commit) => this.change(c.key, text, commit));
    s.row.append(err);
    s.row.dataset.key = c.key;
    this.widgets.set(c.key, { c, set: (v) => s.show(v), err, num: s.num });
    return s.row;
  }

  makeList(c) {
    // One slider per element plus a text box for the whole list (which can change its length).
    const box = document.createElement("div");
    box.className = "ctl list";
    box.dataset.key = c.key;
    const head = document.createElement("label");
    head.htmlFor = `c-${c.key}-text`;
    head.textContent = c.label;
    const text = document.createElement("input");
    text.type = "text";
    text.id = `c-${c.key}-text`;
    text.value = c.value;
    text.setAttribute("aria-describedby", `c-${c.key}-hint`);
    const hint = document.createElement("span");
    hint.className = "hint";
    hint.id = `c-${c.key}-hint`;
    hint.textContent = `comma-separated, at most ${c.max_len} values`;
    // a one-element list is fully served by its slider and number box
    if (c.max_len === 1) { head.htmlFor = `c-${c.key}-0-r`; text.hidden = true; hint.hidden = true; }
    text.addEventListener("change", () => this.change(c.key, text.value, true));
    const err = this.errorSlot(c.key);
    box.append(head, text, hint);
    const values = c.value.split(",");
    const sliders = values.map((v, i) => {
      const name = c.items[i] ?? `#${i + 1}`;
      const s = this.makeSlider(c, `c-${c.key}-${i}`, `${name}`, v, (t, commit) => {
        const cur = (this.pending.get(c.key) ?? this.lab.get(c.key) ?? c.value).split(",");
        cur[i] = t;
        this.change(c.key, cur.join(","), commit);
      });
      s.row.classList.add("elem");
      s.row.querySelector("input[type=range]").setAttribute("aria-label", `${c.label}: ${name}`);
      // an embed hides the list's heading to save a line: its first entry then carries the
      // heading's words instead of the bare symbol (style.css picks the span)
      if (i === 0) {
        const short = Object.assign(document.createElement("span"), { className: "item-short", textContent: name });
        const full = Object.assign(document.createElement("span"), { className: "item-full", textContent: c.entry });
        s.row.querySelector("label").replaceChildren(short, full);
      }
      box.append(s.row);
      return s;
    });
    box.append(err);
    this.widgets.set(c.key, {
      c, err, num: text,
      set: (v) => {
        text.value = v;
        v.split(",").forEach((x, i) => sliders[i]?.show(x));
      },
    });
    return box;
  }

  // ----- changes -----
  change(key, value, commit) {
    if (this.isLocked(key)) return; // a locked exercise: only the host's `set` changes it
    if (key === "view" && this.b.viewRunsOutside?.(value)) {
      if (this.outside === value) return;
      if (!this.embed) {
        this.flushUrl(false);
        this.pushNext = true;
      }
      this.outside = value;
      this.userChanged = true;
      this.showOutside(undefined);
      this.writeUrl();
      return;
    }
    if (key === "view" && this.outside) {
      // back from the workspace: a new history entry, whichever view the Lab is on
      if (!this.embed) {
        this.flushUrl(false);
        this.pushNext = true;
        this.urlAtOnce = true;
      }
      this.hideOutside();
      this.userChanged = true;
      if (value === this.lab.view()) {
        this.writeUrl();
        return;
      }
      // the fit link's entry is written: the view switch below only pushes its own (also
      // when it first loads the second module and comes back here)
      this.leftOutside = true;
    }
    if (key === "view" && this.b.viewNeedsFull?.(value)) {
      // the view is in the page's second module: switch once it is loaded
      this.upgrade(value).then(() => this.change(key, value, commit), (e) => this.upgradeFailed(e));
      return;
    }
    // (an embedded frame shares the host's history: there it only replaces its entry)
    const left = key === "view" && this.leftOutside;
    if (left) this.leftOutside = false;
    if (key === "view" && value !== this.lab.view() && !this.embed && !left) {
      // a view switch is a new history entry (Back returns to the view left); the entry left
      // first gets the latest state of that view
      this.flushUrl(false);
      this.pushNext = true;
      this.urlAtOnce = true;
    }
    this.userChanged = true;
    if (this.inputStamp === null) this.inputStamp = performance.now();
    this.pending.set(key, value);
    if (commit) this.commitPending = true;
    this.respond();
  }

  commit() {
    this.commitPending = true;
    this.schedule();
  }

  schedule() {
    if (this.scheduled) return;
    this.scheduled = true;
    requestAnimationFrame(() => { this.frameBusy = false; this.tick(); });
  }

  /** Input: if nothing was computed since the last frame, respond now (the result is painted in
   * the coming frame); otherwise coalesce into the next animation frame, so at most one
   * recompute runs per frame and frames never queue behind the pointer. */
  respond() {
    if (this.scheduled || this.frameBusy) { this.schedule(); return; }
    this.frameBusy = true;
    requestAnimationFrame(() => { this.frameBusy = false; });
    this.tick();
  }

  applyPending() {
    let structural = false;
    // one change, whatever the order the inputs came in (a preset sets several keys): the core
    // checks the rules between values against all of them together
    const keys = [...this.pending.keys()];
    const errors = this.lab.setMany(keys, keys.map((k) => this.pending.get(k)));
    for (const key of keys) {
      const w = this.widgets.get(key);
      const e = errors.find((x) => x.key === key);
      if (w && e) {
        w.err.textContent = e.message;
        w.num?.setAttribute("aria-invalid", "true");
      } else if (w) {
        w.err.textContent = "";
        w.num?.removeAttribute("aria-invalid");
      }
      if (this.structural.has(key)) structural = true;
    }
    this.pending.clear();
    this.commitPending = false;
    return structural;
  }

  syncControls(structural) {
    const list = this.lab.controls();
    const sig = this.controlSignature(list);
    if (structural || sig !== this.signature) {
      if (sig !== this.signature) this.buildControls();
      this.syncTabs();
      this.syncExtras();
    }
    const active = document.activeElement;
    for (const c of list) {
      const w = this.widgets.get(c.key);
      if (!w || w.err.textContent) continue;
      // leave the control being typed into alone
      if (active && w.num === active) continue;
      w.set(c.value);
    }
  }

  tick() {
    this.scheduled = false;
    const t0 = performance.now();
    const hadInput = this.pending.size > 0 || this.commitPending;
    if (hadInput) {
      const committing = this.commitPending;
      const structural = this.applyPending();
      // while a slider moves only its own widget changes; everything is re-read on commit
      if (structural || committing) this.syncControls(structural);
    }
    // At load nothing computes before the painter's warm-up ends (100 ms of its computing, or
    // the wait's end), an input's job neither: computing beside the warm-up, the input's first
    // frame compiled the same code on this thread and took 60-75 ms (bench/browser/main-thread.mjs).
    if (this.warming) {
      if (hadInput) this.scheduleUrl();
      return;
    }
    const t1 = performance.now();
    // The first frame of a load draws nothing (the lab gives a surface's first drawing the next
    // frame to itself), so it computes as long as a refining frame rather than an input's.
    const st = this.lab.frame(hadInput ? FIRST_BUDGET_MS : LATER_BUDGET_MS);
    // after the frame: a job the frame finished on the page is not sent, only a new one
    this.pumpWorker();
    const sent = this.painter?.pump(this.lab) ?? 0;
    if (st.rehearse) this.rehearseSoon();
    if (window.frictionLabBench && hadInput) {
      performance.measure("fl-controls", { start: t0, end: t1 });
      performance.measure("fl-frame", { start: t1, end: performance.now() });
    }
    // the first input since a job of an input was last shown, to the drawing of one: with the view
    // worker a heavy job's picture comes frames after its input (bench/browser/main-thread.mjs)
    if (this.inputStamp !== null && this.shownStamp === null) this.shownStamp = this.inputStamp;
    if (st.first_drawing && this.shownStamp !== null) {
      performance.measure("fl-input-to-shown", { start: this.shownStamp, end: performance.now() });
      this.shownStamp = null;
    }
    if (this.inputStamp !== null) {
      const start = this.inputStamp;
      this.inputStamp = null;
      // a drawing sent to the painter is drawn when it answers
      if (sent) this.drawnWait = { n: sent, start };
      else this.inputDrawn(start);
    }
    this.showStatus(st, hadInput);
    $("refining").hidden = st.done;
    // a long computation says how far it is and when it will stop, so a heavy link explains
    // itself while it draws
    if (!st.done) {
      $("refining").textContent = st.spent_s >= 1
        ? `computing… ${st.progress[0]} of ${st.progress[1]} done, ${Math.round(st.spent_s)} s (stops at ${Math.round(st.budget_s)} s)`
        : "refining…";
    }
    const prog = `${st.progress[0]}/${st.progress[1]}:${st.done}`;
    if (prog !== this.lastProgress || hadInput) {
      this.lastProgress = prog;
      if (hadInput) {
        // a slider's step shows its numbers with its picture, in the frame of its input
        clearTimeout(this.readoutTimer);
        this.readoutTimer = null;
        this.showReadout(st.done);
      } else if (this.readoutTimer === null) {
        // Otherwise the numbers are laid out in a task of their own, after this frame: at load,
        // the table's first layout (each new font size resolved through the browser process,
        // 15-40 ms here) with a frame's computing and drawing made tasks over 50 ms (issue 39).
        this.readoutSoon();
      }
    }
    if (st.done && !this.firstDone) {
      this.firstDone = true;
      if (!this.workerTried) this.startWorker();
      performance.mark("fl-first-loops");
    }
    // the numbers are final with the job; with a painter, the picture once the painter has
    // shown it
    this.numbersDone = st.done;
    this.jobDone = st.done && !st.painting;
    // the page says it is done once the numbers of the finished picture are shown too
    if (this.readoutTimer === null) this.markDone();
    if (!st.done || this.lab.needsFrame()) this.schedule();
    if (hadInput) this.scheduleUrl();
    if (window.frictionLabBench && hadInput) performance.measure("fl-tick", { start: t0, end: performance.now() });
  }

  /** Shows the numbers in a task after this frame, and lays the table out in the task after
   * that (with the numbers' DOM, 35-55 ms in one task at load); the page then says whether it is
   * done. Numbers of a later state that came meanwhile are shown the same way first. */
  readoutSoon() {
    this.readoutTimer = setTimeout(() => {
      const shown = this.lastProgress;
      this.showReadout(this.numbersDone);
      this.readoutTimer = setTimeout(() => {
        this.readoutTimer = null;
        layoutHere();
        if (shown !== this.lastProgress) this.readoutSoon();
        else this.markDone();
      }, 0);
    }, 0);
  }

  /** The plot on the Lab: the painter's canvases at their size now, or the page's own. */
  attachPlot() {
    this.drawnWait = null;
    if (this.painter) {
      this.painter.epoch++;
      this.lab.usePainter($("plot").clientWidth, $("plot").clientHeight, devicePixelRatio);
    } else {
      this.lab.attach($("plot"), $("loops"));
    }
  }

  /** The painter's answer: the picture it shows, where its panels went (the plot's tools), and
   * the input's first drawing shown. */
  painted(m) {
    let first = false;
    try {
      first = this.lab.painted(m.nums);
    } catch (e) {
      console.warn("the painter's answer not read:", e);
      return;
    }
    if (first && this.shownStamp !== null) {
      performance.measure("fl-input-to-shown", { start: this.shownStamp, end: performance.now() });
      this.shownStamp = null;
    }
    if (this.drawnWait && m.n >= this.drawnWait.n) {
      // drawn when the painter's drawing ended, not when the page heard of it (after its own frame)
      const end = Math.min(performance.now(), m.at - performance.timeOrigin);
      this.inputDrawn(this.drawnWait.start, end);
      this.drawnWait = null;
    }
    // the next frame says whether the picture is the finished job's (data-done)
    this.schedule();
  }

  /** Measures an input's time to its drawing (`fl-input-to-drawn`: drawn on the page, or the
   * painter's drawing ended, `end`) and, for the frame-time benchmark, to the page's frame after
   * it is heard of. */
  inputDrawn(start, end = performance.now()) {
    performance.measure("fl-input-to-drawn", { start, end: Math.max(start, end) });
    if (window.frictionLabBench) {
      // a message posted from the next rAF is handled after that frame's layout and paint
      requestAnimationFrame(() => {
        const ch = new MessageChannel();
        ch.port1.onmessage = () => performance.measure("fl-input-to-painted", { start, end: performance.now() });
        ch.port2.postMessage(0);
      });
    }
  }

  /** The first computing waits no longer for the painter's warm-up. */
  stopWarming() {
    this.warming = false;
    this.warmEnded();
    clearTimeout(this.warmTimer);
    // a warm-up still running would compete with the page's computing
    this.painter?.unwarm();
  }

  /** The painter's warm-up has run (or was waited for long enough): the first computing starts. */
  warmed() {
    if (!this.warming) return;
    this.stopWarming();
    // in this task, not in a frame (see the end of `start`); before the load's first frame
    // has passed, its own task computes first
    if (this.loadFramePassed && !this.scheduled) this.tick();
  }

  /** The painter failed: the page draws on fresh canvases (the old ones belong to the worker). */
  painterGone(error) {
    this.stopWarming();
    console.warn("plot painter failed; drawing on the page:", error);
    this.painter = null;
    this.drawnWait = null;
    for (const id of ["plot", "loops"]) {
      const old = $(id);
      old.replaceWith(old.cloneNode(false));
    }
    this.lab.attach($("plot"), $("loops"));
    this.schedule();
  }

  /** Lays out the coming first drawing in tasks of their own, before the frame that draws it:
   * `Lab.rehearse` takes the chart code's compiling, new font sizes and first text shaping out
   * of that frame, which with them made main-thread tasks over 50 ms at load (issue 39). */
  rehearseSoon() {
    if (this.rehearsalTimer !== null) return;
    const step = () => {
      this.rehearsalTimer = null;
      // an error here is the drawing's, and the drawing reports it
      let more = false;
      try { more = this.lab.rehearse(); } catch { more = false; }
      if (more) this.rehearsalTimer = setTimeout(step, 0);
    };
    this.rehearsalTimer = setTimeout(step, 0);
  }

  /** Tells the tests and the course page's API (`data-done`, `data-ready`) whether the picture
   * and the numbers shown are of a finished job. */
  markDone() {
    const root = document.documentElement;
    if (this.jobDone) root.dataset.ready = "1";
    root.dataset.done = this.jobDone ? "1" : "0";
  }

  /** The job's error or budget stop above the plot; a stop offers to keep computing. A message
   * from an earlier job goes once a new one runs without one. */
  showStatus(st, hadInput) {
    const status = $("status");
    if (!st.error) {
      if (hadInput && !status.hidden) { status.hidden = true; status.replaceChildren(); }
      return;
    }
    if (status.dataset.text === st.error && !status.hidden) return;
    status.dataset.text = st.error;
    status.hidden = false;
    status.replaceChildren(st.error);
    if (st.stopped) {
      const more = document.createElement("button");
      more.type = "button";
      more.id = "keep-computing";
      more.textContent = "Keep computing";
      more.addEventListener("click", () => {
        this.lab.keepComputing();
        status.hidden = true;
        status.replaceChildren();
        // computing again: not done until the job ends or stops again
        document.documentElement.dataset.done = "0";
        this.schedule();
      });
      status.append(" ", more);
    }
  }

  showReadout(done) {
    if (this.course.hideValues) { this.showHiddenReadout(); return; }
    const r = this.lab.readout();
    syncTable($("readout-table"), r.columns, r.rows);
    setText($("readout-caption"), r.caption);
    this.showTimings();
    // definitions (what a number means, how it is found) in the text colour, then warnings
    const items = [...r.definitions.map((t) => ["def", t]), ...r.notes.map((t) => ["warn", t])];
    const notes = $("readout-notes");
    const key = items.map(([k, t]) => `${k}:${t}`).join("\n");
    if (notes.dataset.key !== key) {
      notes.dataset.key = key;
      notes.replaceChildren(...items.map(([k, t]) => {
        const li = document.createElement("li");
        li.className = k;
        li.textContent = t;
        return li;
      }));
    }
    const label = `${this.lab.viewTitle()}. ${r.summary}`;
    if ($("plot").getAttribute("aria-label") !== label) $("plot").setAttribute("aria-label", label);
    if (done) {
      clearTimeout(this.liveTimer);
      // announce once the hand stops, not on every slider step
      this.liveTimer = setTimeout(() => { $("live").textContent = r.summary; }, 700);
    }
  }

  showTimings() {
    const table = $("timing-table");
    const t = this.lab.timings();
    table.hidden = !t.columns.length;
    if (table.hidden) return;
    setText($("timing-caption"), t.caption);
    syncTable(table, t.columns, t.rows);
  }

  // ----- URL, sharing, embedding -----
  /** The page keys of a link: `embed=1`, then `controls=0` or the strip's `show=` keys (only
   * when they differ from the view's default), the API's `origin=` allow-list and the chosen
   * `panels=` (empty: all). */
  pageSuffix(embed, controls, show = this.show, origins = this.origins, panels = this.lab.panelChoice(), course = this.course) {
    let s = "";
    if (embed) s += "&embed=1";
    if (embed && !controls) s += "&controls=0";
    if (embed && controls && show) s += `&show=${show.map(encodeURIComponent).join(",")}`;
    if (embed && panels) s += `&panels=${panels}`;
    if (embed && origins) s += `&origin=${origins.map(encodeURIComponent).join(",")}`;
    if (embed && this.pageKeys?.lesson === "1") s += "&lesson=1";
    return s + this.courseSuffix(course);
  }

  fullUrl(embed, controls = true, show = this.show, panels = this.lab.panelChoice(), course = this.course) {
    const base = location.href.split(/[?#]/)[0];
    if (this.outside) return `${base}?${this.outsideQuery()}`;
    return `${base}?${this.lab.query()}${this.pageSuffix(embed, controls, show, this.origins, panels, course)}`;
  }

  scheduleUrl() {
    if (!this.userChanged) return;
    clearTimeout(this.urlTimer);
    // a view switch gets its history entry at once
    if (this.urlAtOnce) this.writeUrl();
    else this.urlTimer = setTimeout(() => this.writeUrl(), URL_QUIET_MS);
  }

  /** Writes the URL now, with any input still waiting for its frame applied first. On unload
   * (`handOff`) the link is also left for a reload: Chromium fixes a reload's URL when the
   * reload starts, before `pagehide`, so the reloaded page would get the older one. */
  flushUrl(handOff) {
    if (this.pending.size > 0 || this.commitPending) this.tick();
    if (!this.userChanged) return;
    clearTimeout(this.urlTimer);
    const stale = location.search;
    this.writeUrl();
    if (handOff && location.search !== stale) {
      try {
        sessionStorage.setItem(RELOAD_KEY, JSON.stringify({ stale, fresh: location.search }));
      } catch { /* no storage (sandboxed host): a reload keeps the older link */ }
    }
  }

  writeUrl() {
    this.urlAtOnce = false;
    const url = this.outside ? `?${this.outsideQuery()}`
      : `?${this.lab.query()}${this.pageSuffix(this.embed, this.showControls)}`;
    const push = this.pushNext && url !== location.search;
    this.pushNext = false;
    try {
      if (push) history.pushState(null, "", url);
      else history.replaceState(null, "", url);
    } catch { /* sandboxed hosts may refuse: the state still works */ }
    this.api?.state();
    if (!$("share-panel").hidden) $("share-url").value = this.fullUrl(false);
    if (!$("embed-panel").hidden) this.fillEmbed();
  }

  /** The Embed panel's choice of strip controls: one box per control of the view, the core's
   * key controls first and the default ones ticked. */
  fillEmbedChoices() {
    const box = $("embed-show");
    const view = this.lab.view();
    if (box.dataset.view === view) return;
    box.dataset.view = view;
    const keys = this.lab.keyControls();
    const list = this.lab.controls().filter((c) => c.key !== "view" && c.role !== "sigma");
    const ordered = [...keys.map((k) => list.find((c) => c.key === k)).filter((c) => c), ...list.filter((c) => !keys.includes(c.key))];
    box.querySelectorAll("label").forEach((l) => l.remove());
    for (const c of ordered) {
      const label = document.createElement("label");
      label.className = "inline";
      const cb = document.createElement("input");
      cb.type = "checkbox";
      cb.value = c.key;
      cb.checked = keys.slice(0, EMBED_DEFAULT_CONTROLS).includes(c.key);
      cb.addEventListener("change", () => this.fillEmbed());
      label.append(cb, c.key);
      label.title = c.label;
      box.append(label);
    }
  }

  /** The Embed panel's choice of chart panels, for a view with several: one box per panel
   * title (the core's), the ones this page shows ticked. */
  fillPanelChoices() {
    const box = $("embed-panels");
    const titles = this.lab.panelTitles();
    const key = `${this.lab.view()}:${titles.join("|")}`;
    box.hidden = titles.length < 2;
    if (box.dataset.key === key) return;
    box.dataset.key = key;
    const chosen = this.lab.panelChoice().split(",").filter((p) => p);
    box.querySelectorAll("label").forEach((l) => l.remove());
    titles.forEach((title, i) => {
      const label = document.createElement("label");
      label.className = "inline";
      const cb = document.createElement("input");
      cb.type = "checkbox";
      cb.value = String(i + 1);
      cb.checked = !chosen.length || chosen.includes(cb.value);
      cb.addEventListener("change", () => this.fillEmbed());
      label.append(cb, title);
      box.append(label);
    });
  }

  fillEmbed() {
    this.fillEmbedChoices();
    this.fillPanelChoices();
    const ticked = [...$("embed-show").querySelectorAll("input:checked")].map((cb) => cb.value);
    const defaults = this.lab.keyControls().slice(0, EMBED_DEFAULT_CONTROLS);
    const controls = $("embed-controls").checked && ticked.length > 0;
    $("embed-show").hidden = !$("embed-controls").checked;
    const show = ticked.join(",") === defaults.join(",") ? null : ticked;
    // every panel (or none) ticked: the frame shows them all, and the link says nothing
    const boxes = [...$("embed-panels").querySelectorAll("input")];
    const picked = boxes.filter((cb) => cb.checked).map((cb) => cb.value);
    const panels = picked.length && picked.length < boxes.length ? picked.join(",") : "";
    const course = this.embedCourse();
    const url = this.fullUrl(true, controls, show, panels, course);
    const full = this.fullUrl(false, true, this.show, this.lab.panelChoice(), course);
    const title = `Friction Lab: ${this.lab.viewTitle()}`;
    const size = $("embed-size").value;
    // allow-same-origin keeps the frame on its own origin, so it loads its wasm from its own
    // server without CORS headers; the popups flags let "Open in Friction Lab" open a tab
    const sandbox = $("embed-sandbox").checked ? EMBED_SANDBOX : "";
    $("embed-code").value = embedSnippet(url, full, title, size, sandbox);
    // the same state for friction-lab.html uploaded beside the course page (relative links)
    const local = (u) => `${SINGLE_FILE}${u.slice(u.indexOf("?"))}`;
    $("embed-single").value = embedSnippet(local(url), local(full), title, size, sandbox);
    const preview = $("embed-preview");
    if (!preview.hidden) {
      let frame = preview.querySelector("iframe");
      if (!frame) { frame = document.createElement("iframe"); preview.append(frame); }
      frame.title = "Preview of the embedded figure";
      const [w, h] = frameSize(size);
      frame.width = String(w);
      frame.height = String(h);
      frame.style.aspectRatio = /:/.test(size) ? size.replace(":", "/") : "";
      frame.style.height = /:/.test(size) ? "auto" : "";
      frame.allowFullscreen = true;
      if ($("embed-sandbox").checked) frame.setAttribute("sandbox", EMBED_SANDBOX); else frame.removeAttribute("sandbox");
      if (frame.dataset.src !== url) { frame.dataset.src = url; frame.src = url; }
    }
  }

  resetDefaults() {
    this.pending.clear();
    this.lab.reset();
    for (const w of this.widgets.values()) w.err.textContent = "";
    this.afterExternalChange();
  }

  /** After values were set on the `Lab` directly (reset, the postMessage API): controls, plot
   * and link follow. */
  afterExternalChange() {
    this.userChanged = true;
    this.syncControls(true);
    this.commit();
    this.scheduleUrl();
  }


  // ----- the course kit (issue 37): locked exercises, hidden values, theme, snippets -----
  /** Mistakes in the course keys of the link: a `lock=` key that is no control of the view, a
   * `hide=` other than `values`, a `theme=` other than light, dark or auto. */
  courseErrors() {
    const c = this.course;
    const errors = [];
    if (c.lockKeys.length) {
      const known = this.lab.controls().map((x) => x.key);
      const bad = c.lockKeys.filter((k) => !known.some((x) => x === k || x.endsWith(`.${k}`)));
      if (bad.length) errors.push({ key: "lock", value: bad.join(","), reason: `not a control of this view (lock=1 locks them all); known keys: ${known.join(", ")}` });
    }
    const badHide = c.hide.filter((h) => h !== "values");
    if (badHide.length) errors.push({ key: "hide", value: badHide.join(","), reason: "hide= takes values only (the numbers beside the sliders and the read-outs)" });
    if (c.theme && !["light", "dark", "auto"].includes(c.theme)) {
      errors.push({ key: "theme", value: c.theme, reason: "theme= is light, dark or auto (the system's choice)" });
    }
    return errors;
  }

  /** What the course kit adds once: the lock notice, a full-screen button in an embed whose
   * frame allows it, the single file's own link hidden in the single file. */
  startCourse() {
    const root = document.documentElement;
    root.classList.toggle("hide-values", this.course.hideValues);
    root.classList.toggle("locked-all", this.course.lockAll);
    if (this.embed && document.fullscreenEnabled && !$("full-screen")) {
      const b = document.createElement("button");
      b.type = "button";
      b.id = "full-screen";
      b.className = "open-full";
      b.textContent = "Full screen";
      b.addEventListener("click", () => {
        if (document.fullscreenElement) document.exitFullscreen(); else root.requestFullscreen().catch(() => {});
      });
      $("open-full").before(b);
    }
  }

  /** True when the link locks `key` (`lock=1`: every key; `lock=vs`: vs, and `<model>.vs`). */
  isLocked(key) {
    const c = this.course;
    if (!c) return false;
    return c.lockAll || c.lockKeys.some((k) => k === key || key.endsWith(`.${k}`));
  }

  /** Disables the locked controls (after every rebuild): a disabled input takes no mouse, touch
   * or keyboard input and keeps showing its value. The host's `set` still changes the state. */
  applyLock() {
    if (!this.course || !this.widgets) return;
    for (const [key, w] of this.widgets) {
      const row = w.err.closest(".ctl");
      if (!row) continue;
      const locked = this.isLocked(key);
      row.classList.toggle("locked", locked);
      for (const el of row.querySelectorAll("input, select, button, textarea")) el.disabled = locked;
    }
    const all = this.course.lockAll;
    const view = this.isLocked("view");
    for (const b of $("tabs").querySelectorAll("button")) b.disabled = view;
    $("view-select").disabled = view;
    for (const b of $("presets").querySelectorAll("button")) b.disabled = all;
    $("reset-defaults").disabled = all;
    const sigma = $("sigma-mode");
    if (sigma) sigma.disabled = all;
    let note = $("lock-note");
    const any = all || this.course.lockKeys.length > 0;
    if (any && !note) {
      note = document.createElement("p");
      note.id = "lock-note";
      note.className = "hint lock-note";
      note.textContent = all ? "The controls are locked for this exercise." : "Some controls are locked for this exercise.";
    }
    if (any) $("controls").prepend(note);
  }

  /** A slider's spoken value: hidden with `hide=values`, so nothing in the page reads it out. */
  valueText(text, unit) {
    return this.course?.hideValues ? "value hidden" : `${text}${unit ? " " + unit : ""}`;
  }

  /** `hide=values`: the read-out's numbers are not written anywhere; the plot is described by
   * its title only. */
  showHiddenReadout() {
    const label = `${this.lab.viewTitle()} (values hidden for this exercise)`;
    if ($("plot").getAttribute("aria-label") !== label) $("plot").setAttribute("aria-label", label);
  }

  /** The course keys of a link: `lock=`, `hide=values`, `theme=` (auto, the default, unsaid). */
  courseSuffix(course = this.course) {
    if (!course) return "";
    let s = "";
    if (course.lockAll) s += "&lock=1";
    else if (course.lockKeys.length) s += `&lock=${course.lockKeys.map(encodeURIComponent).join(",")}`;
    if (course.hideValues) s += "&hide=values";
    if (course.theme === "light" || course.theme === "dark") s += `&theme=${course.theme}`;
    return s;
  }

  /** The Embed panel's exercise and theme choices as course options. */
  embedCourse() {
    return { lockAll: $("embed-lock").checked, lockKeys: [], hide: [], hideValues: $("embed-hide").checked, theme: $("embed-theme").value };
  }

  wireButtons() {
    $("reset-defaults").addEventListener("click", () => this.resetDefaults());
    $("phenomena-panel").addEventListener("toggle", () => this.startPhenomena());
    $("copy-link").addEventListener("click", async () => {
      const url = this.fullUrl(false);
      $("share-panel").hidden = false;
      $("share-url").value = url;
      $("share-url").select();
      try {
        await navigator.clipboard.writeText(url);
        $("share-note").textContent = "Link copied.";
      } catch {
        // no clipboard (sandboxed iframe, http page, permission): the selected box is the fallback
        $("share-note").textContent = "Copy the selected link with Ctrl+C / ⌘C.";
      }
    });
    $("embed-button").addEventListener("click", () => {
      const p = $("embed-panel");
      p.hidden = !p.hidden;
      $("embed-button").setAttribute("aria-expanded", String(!p.hidden));
      if (!p.hidden) this.fillEmbed();
    });
    $("embed-controls").addEventListener("change", () => this.fillEmbed());
    $("embed-size").addEventListener("change", () => this.fillEmbed());
    $("embed-preview-button").addEventListener("click", () => {
      const p = $("embed-preview");
      p.hidden = !p.hidden;
      $("embed-preview-button").setAttribute("aria-expanded", String(!p.hidden));
      if (p.hidden) p.replaceChildren();
      else this.fillEmbed();
    });
    $("embed-sandbox").addEventListener("change", () => this.fillEmbed());
    for (const id of ["embed-lock", "embed-hide", "embed-theme"]) $(id).addEventListener("change", () => this.fillEmbed());
    // #export-svg opens the export panel (www/explain/export.js)
  }
}

// ----- the course kit (issue 37) -----
/** The single file the build writes beside index.html (scripts/single-file.mjs). */
const SINGLE_FILE = "friction-lab.html";

/** The course keys of a link: `lock=1` (every control) or `lock=vs,k0` (those only),
 * `hide=values` (no parameter value or read-out number on the page), `theme=light|dark|auto`. */
function courseOptions(page) {
  const list = (v) => decodeOr(v ?? "").split(",").map((k) => k.trim()).filter((k) => k);
  const lock = list(page.lock);
  const lockAll = lock.includes("1");
  return {
    lockAll,
    lockKeys: lockAll ? [] : lock,
    hide: list(page.hide),
    hideValues: list(page.hide).includes("values"),
    theme: decodeOr(page.theme ?? "").trim(),
  };
}

/** Width and height [px] of an embed size: "800x500", or a ratio ("16:9") at 800 px wide. */
function frameSize(size) {
  const ratio = /^(\d+):(\d+)$/.exec(size);
  if (ratio) return [800, Math.round((800 * Number(ratio[2])) / Number(ratio[1]))];
  const [w, h] = size.split("x").map(Number);
  return [w, h];
}

/** The iframe snippet (with `title` and `allowfullscreen`) and a "Run full screen" link under
 * it. A ratio size ("16:9") fills the column's width at that ratio; the width and height
 * attributes stay for hosts that strip styles. */
function embedSnippet(src, full, title, size, sandbox) {
  const esc = (t) => t.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;");
  const [w, h] = frameSize(size);
  const style = /:/.test(size) ? `border:0;width:100%;height:auto;aspect-ratio:${size.replace(":", "/")}` : "border:0;max-width:100%";
  const sb = sandbox ? ` sandbox="${sandbox}"` : "";
  return `<iframe src="${esc(src)}" title="${esc(title)}" width="${w}" height="${h}" style="${style}" loading="lazy"${sb} allowfullscreen></iframe>\n` +
    `<p><a href="${esc(full)}" target="_blank" rel="noopener">Run full screen</a></p>`;
}

function forgetUnloadUrl() {
  try { sessionStorage.removeItem(RELOAD_KEY); } catch { /* no storage */ }
}

/** After a reload, the link the unloaded page wrote last (`Page.flushUrl`) if the reload started
 * from the one before it; the hand-off is used once, and only by a reload of that link. */
function restoreUnloadUrl() {
  const reload = performance.getEntriesByType("navigation")[0]?.type === "reload";
  if (!reload) {
    // a page's first use of sessionStorage opens it (4 ms at load): outside the page's first task
    setTimeout(forgetUnloadUrl, 0);
    return;
  }
  let saved = null;
  try { saved = JSON.parse(sessionStorage.getItem(RELOAD_KEY)); } catch { return; }
  forgetUnloadUrl();
  if (saved && saved.stale === location.search && typeof saved.fresh === "string") {
    try { history.replaceState(null, "", saved.fresh); } catch { /* sandboxed host */ }
  }
}

/** The page's second wasm module (every view), loaded on first need by www/boot.js, the page's
 * loader. Resolves to its bindings, the same API as the first module's. */
function loadFull() {
  return window.frictionLabLoadFull
    ? window.frictionLabLoadFull()
    : Promise.reject(new Error("this page has no loader for the other views"));
}

async function main(bindings) {
  try {
    restoreUnloadUrl();
    let b = bindings;
    // a link to a view the first module leaves out starts on the second one
    if (b.linkNeedsFull?.(splitQuery(location.search, b.pageKeys()).core)) {
      $("status").textContent = "Loading the views…";
      b = await loadFull();
      window.wasmBindings = b;
    }
    // The page is built in a task after this one: the parser's end (DOMContentLoaded) then lays
    // out the page before its controls exist, and the controls are laid out in a frame of their
    // own, before the first computing (which waits for the painter's warm-up).
    const page = new Page(b);
    setTimeout(() => {
      try { page.start(); } catch (e) { startFailed(e); }
    }, 0);
  } catch (e) {
    startFailed(e);
  }
}

/** Says on the page that it could not start, and why. */
function startFailed(e) {
  const status = $("status");
  status.hidden = false;
  status.className = "error";
  status.textContent = `Friction Lab could not start: ${e && e.message ? e.message : e}`;
  console.warn(e);
}

if (window.wasmBindings) {
  main(window.wasmBindings);
} else {
  addEventListener("frictionlab:started", () => main(window.wasmBindings), { once: true });
}
