// The page's wasm loader, a classic script that runs while the page parses (www/index.html).
//
// The page is two wasm modules of the same code: the first runs the FrBD letter's views (the
// default view's, the smaller download), the second every view. Their hashed file names, and the
// first's views, are <meta> elements above this script (scripts/classic-build.sh). A link to a
// view the first module leaves out loads the second only; any other link the first only. The
// module itself has the last word: app.js asks it (`linkNeedsFull`, `viewNeedsFull`) and moves
// to the second module when a link, a tab or Back needs it, through `frictionLabLoadFull` below.
//
// Classic, not a module: in a frame with an opaque origin (sandbox="allow-scripts" without
// allow-same-origin) on a server that sends no Access-Control-Allow-Origin header, module
// scripts and the wasm fetch are refused (they need CORS there). This script then loads the
// second module's bindings and wasm as classic scripts instead and app.js as a classic script; if
// even that fails, it says in the frame what the host page must change.
//
// The single file (friction-lab.html, scripts/single-file.mjs) carries the second module's
// classic bindings and its wasm inline (`self.frictionLabWasm`): this script starts it from
// there, with no request at all, and `frictionLabLoadFull` hands back the same bindings.

// `theme=light|dark` in the link forces a colour scheme (style.css: html.theme-light/-dark);
// `auto` or none follows the system's. Set here, while the page parses, so nothing flashes.
(function () {
  const m = /(?:^|[?&])theme=(light|dark)(?:&|$)/.exec(location.search);
  if (m) document.documentElement.classList.add(`theme-${m[1]}`);
})();

(function () {
  const meta = (name) => document.querySelector(`meta[name="${name}"]`)?.getAttribute("content") ?? "";
  const FIRST = meta("friction-lab-first");
  const FULL = meta("friction-lab-full");
  const FIRST_VIEWS = meta("friction-lab-first-views").split(",");

  function status(text) {
    const el = document.getElementById("status");
    if (!el) return;
    el.hidden = false;
    el.className = "error";
    el.textContent = text;
  }
  function whenParsed(f) {
    if (document.readyState === "loading") addEventListener("DOMContentLoaded", f, { once: true }); else f();
  }

  /** The view a link names (its last `view=` value, decoded and trimmed), or null. A name
   * decoded differently from the core's reading only costs the other module: app.js checks. */
  function linkView(search) {
    let view = null;
    for (const part of search.replace(/^\?/, "").split("&")) {
      const eq = part.indexOf("=");
      if (eq < 0 || part.slice(0, eq) !== "view") continue;
      try { view = decodeURIComponent(part.slice(eq + 1).replace(/\+/g, " ")).trim(); } catch { view = ""; }
    }
    return view;
  }

  /** Loads a module (its glue file name) and resolves to its bindings; the wasm is fetched
   * beside the glue, not after it. */
  function load(glue) {
    if (!/^[\w.-]+\.js$/.test(glue)) return Promise.reject(new Error(`no such module "${glue}" in this build`));
    // absolute URLs: in an opaque-origin frame this script counts as cross-origin, and a
    // relative specifier of its import() would resolve against about:blank
    const url = (f) => new URL(f, document.baseURI).href;
    const wasm = fetch(url(glue.replace(/\.js$/, "_bg.wasm")));
    wasm.catch(() => {}); // reported through the import or the init below, not as unhandled
    return import(url(glue)).then(async (m) => {
      await m.default({ module_or_path: wasm });
      glues.set(m, url(glue));
      return m;
    });
  }

  /** The bindings' glue file, by bindings: app.js's view worker imports the same one. */
  const glues = new WeakMap();
  window.frictionLabGlue = glues;

  let full = null;
  /** The second module's bindings, loaded once (a failed load may be tried again). */
  window.frictionLabLoadFull = () => {
    full ??= load(FULL);
    full.catch(() => { full = null; });
    return full;
  };

  function started(bindings) {
    window.wasmBindings = bindings;
    dispatchEvent(new CustomEvent("frictionlab:started"));
  }
  function failed(error) {
    whenParsed(() => status("Friction Lab could not start: the WebAssembly module failed to load (" +
      String(error && error.message ? error.message : error) + "). Try reloading, or use a current browser."));
    console.warn("wasm load failed", error);
  }

  /** The single file: the bindings and wasm are already on the page. The start waits until the
   * page is parsed, so app.js (inlined at the end of the body) runs as it does as a module. */
  function inlinePath() {
    const bytes = Uint8Array.from(atob(self.frictionLabWasm), (c) => c.charCodeAt(0));
    delete self.frictionLabWasm;
    document.documentElement.classList.add("single-file");
    // `wasm_bindgen` is the no-modules glue's global
    // eslint-disable-next-line no-undef
    const bindings = wasm_bindgen({ module_or_path: bytes }).then(async () => {
      await new Promise(whenParsed);
      // eslint-disable-next-line no-undef
      return wasm_bindgen;
    });
    window.frictionLabLoadFull = () => bindings;
    bindings.then(started, failed);
  }

  function modulePath() {
    const view = linkView(location.search);
    const bindings = view !== null && !FIRST_VIEWS.includes(view) ? window.frictionLabLoadFull() : load(FIRST);
    bindings.then(started, failed);
  }

  if (typeof self.frictionLabWasm === "string") { inlinePath(); return; }
  if (self.origin !== "null") { modulePath(); return; }

  // an opaque origin: a server that answers cross-origin requests serves the modules
  function showHelp(error) {
    if (window.wasmBindings) return;
    status("This embedded Friction Lab cannot load: its frame is sandboxed without " +
      "allow-same-origin and its server sends no Access-Control-Allow-Origin header. The page " +
      "embedding it should add allow-same-origin to the iframe's sandbox attribute (the Embed " +
      "button's snippet has it), or the server should send Access-Control-Allow-Origin: *." +
      (error ? ` (${error.message || error})` : ""));
  }
  function script(src) {
    return new Promise((resolve, reject) => {
      const s = document.createElement("script");
      s.src = src;
      s.onload = resolve;
      s.onerror = () => reject(new Error(`could not load ${src}`));
      document.head.append(s);
    });
  }
  (async () => {
    try {
      const r = await fetch(location.href, { method: "HEAD", mode: "cors", cache: "no-store" });
      if (r.ok) { modulePath(); return; }
    } catch { /* no CORS header: the module loader fails, take the classic path */ }
    await new Promise(whenParsed);
    const app = document.querySelector('script[type="module"][src*="app-"]');
    if (!FULL || !app) { showHelp(); return; }
    try {
      // the second module: this frame could not fetch it later
      await script(`./${FULL.replace(/\.js$/, "-classic.js")}`);
      const b64 = self.frictionLabWasm;
      const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
      delete self.frictionLabWasm;
      // `wasm_bindgen` is the no-modules glue's global
      // eslint-disable-next-line no-undef
      await wasm_bindgen({ module_or_path: bytes });
      // eslint-disable-next-line no-undef
      window.wasmBindings = wasm_bindgen;
      performance.mark("fl-classic-loaded");
      await script(app.getAttribute("src")); // app.js starts at once: the bindings are there
    } catch (e) {
      showHelp(e);
    }
  })();
})();
