// The postMessage API of an embedded Friction Lab (`embed=1`), for course pages on any origin.
// A classic script, not a module: it must load in a frame with an opaque origin too.
//
// Events, posted to the parent window only: {source: "friction-lab", version: 1, type, …}
//   ready   {view, query}             once, when the page is running
//   state   {view, query}             whenever the state (its canonical query) changed
//   resize  {height, width}           the height [CSS px] the frame would like for its width
// and, with the same height, the LMS convention Canvas and Moodle resize an iframe on (also to
// the parent only, and only to the origin= hosts): {subject: "lti.frameResize", height}
//   reply   {id, cmd, ok, …}          the answer to a command, carrying the command's id
// Commands, from the parent: {target: "friction-lab", id, cmd, …}
//   set   {values: {key: value, …}}   → reply {ok, errors: [{key, keys, message}], view, query}
//                                       (one change, in any order; `keys`: every key a refusal
//                                       involves; `panels: "5"` chooses the chart panels shown, "" all)
//   get   {keys?: [key, …]}           → reply {ok, view, query, values: {key: value}}
//                                       (values.panels: the chosen panels, "" all)
//   reset {}                          → reply {ok, view, query}
//   view  {view: name}                → reply as for set
// Anything else (not an object, another target, no cmd) is ignored. With `origin=a,b` in the
// frame's link only those host origins are obeyed and events go only to them.
(function () {
  const PROTOCOL = "friction-lab";

  function install(page, origins) {
    if (window.parent === window) return null;
    const targets = origins && origins.length ? origins : ["*"];
    const post = (msg, to = targets) => {
      for (const t of to) {
        try { window.parent.postMessage({ source: PROTOCOL, version: 1, ...msg }, t); } catch { /* bad origin string */ }
      }
    };
    const snapshot = () => ({ view: page.lab.view(), query: page.lab.query() });
    let lastState = page.lab.query();
    const api = {
      /** Posts a `state` event when the canonical query changed since the last one. */
      state() {
        const s = snapshot();
        if (s.query === lastState) return;
        lastState = s.query;
        post({ type: "state", ...s });
      },
    };

    // the height the frame would like: everything but the plot as laid out (the strip, the
    // plot tools, the link; what a small frame scrolls inside the figure counted too), and a
    // plot about as tall as a figure of its width (taller for several panels). A frame set to
    // that height shows it all without scrolling, with the plot at the height asked for it.
    let lastHeight = 0;
    const measure = () => {
      const de = document.documentElement;
      const width = de.clientWidth;
      const stage = document.getElementById("stage");
      const plotBox = document.getElementById("plot-box");
      if (!stage || !plotBox) return;
      const hidden = Math.max(0, stage.scrollHeight - stage.clientHeight);
      const fixed = de.clientHeight + hidden - plotBox.getBoundingClientRect().height;
      const panels = page.lab.viewLayout().panels;
      const plot = Math.max(200, Math.round(width * (panels > 2 ? 0.9 : 0.62)));
      const height = Math.round(fixed + plot);
      if (height === lastHeight) return;
      lastHeight = height;
      post({ type: "resize", height, width });
      // Canvas, and Moodle with its LTI message handling, set the frame's height from this
      for (const t of targets) {
        try { window.parent.postMessage({ subject: "lti.frameResize", height }, t); } catch { /* bad origin string */ }
      }
    };
    const ro = new ResizeObserver(measure);
    ro.observe(document.documentElement);
    ro.observe(document.getElementById("controls"));
    // the plot tools arrive under the plot after the start, and a view's panel count changes it
    ro.observe(document.getElementById("plot-box"));

    const apply = async (values) => {
      const errors = [];
      // a view the page's first module leaves out: load the one that has it first
      if (typeof values.view === "string" && page.b.viewNeedsFull?.(values.view)) {
        try { await page.upgrade(); } catch (e) { return [{ key: "view", message: `could not load the view (${e.message || e})` }]; }
      }
      // every key but `panels` is one change (the core's, as for a link): their order does not
      // matter; the panels are chosen after it, among those of the view it leaves
      const keys = Object.keys(values).filter((k) => k !== "panels");
      const refused = page.lab.setMany(keys, keys.map((k) => String(values[k])));
      for (const e of refused) errors.push({ key: e.key, keys: e.keys, message: e.message });
      if ("panels" in values) {
        // page layout, not a model key: the frame's choice of chart panels ("" = all)
        if (!page.lab.setPanels(String(values.panels))) {
          const e = page.lab.errors().at(-1);
          errors.push({ key: "panels", keys: ["panels"], message: `panels = "${e.value}": ${e.reason}` });
        }
      }
      page.syncExtras();
      page.afterExternalChange();
      return errors;
    };

    addEventListener("message", async (ev) => {
      if (ev.source !== window.parent) return;
      if (origins && origins.length && !origins.includes(ev.origin)) return;
      const m = ev.data;
      if (!m || typeof m !== "object" || m.target !== PROTOCOL || typeof m.cmd !== "string") return;
      const to = [ev.origin === "null" ? "*" : ev.origin];
      const reply = (body) => post({ type: "reply", id: m.id ?? null, cmd: m.cmd, ...body }, to);
      if (m.cmd === "set" || m.cmd === "view") {
        const values = m.cmd === "view" ? { view: m.view } : m.values;
        if (!values || typeof values !== "object" || Array.isArray(values)) {
          reply({ ok: false, errors: [{ key: "", message: `${m.cmd} needs ${m.cmd === "view" ? "a view name" : "values: {key: value}"}` }] });
          return;
        }
        const errors = await apply(values);
        reply({ ok: errors.length === 0, errors, ...snapshot() });
      } else if (m.cmd === "get") {
        const keys = Array.isArray(m.keys) ? m.keys.map(String) : page.lab.controls().map((c) => c.key);
        const values = {};
        for (const k of keys) {
          const v = page.lab.get(k);
          if (v !== undefined) values[k] = v;
        }
        // the one page key `set` takes, so that what a host set it can read back
        if (!Array.isArray(m.keys) || keys.includes("panels")) values.panels = page.lab.panelChoice();
        reply({ ok: true, values, ...snapshot() });
      } else if (m.cmd === "reset") {
        page.resetDefaults();
        reply({ ok: true, ...snapshot() });
      } else {
        reply({ ok: false, errors: [{ key: "", message: `unknown command "${m.cmd}" (set, get, reset, view)` }] });
      }
    });
    post({ type: "ready", ...snapshot() });
    measure();
    return api;
  }

  window.frictionLabApi = { install };
})();
