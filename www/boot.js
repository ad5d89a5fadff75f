// A classic script: runs even where the module loader cannot. In a frame with an opaque origin
// (sandbox="allow-scripts" without allow-same-origin) on a server that sends no
// Access-Control-Allow-Origin header, the module scripts and the wasm fetch are refused (they need
// CORS there). This loads the same bindings and wasm as classic scripts instead
// (scripts/classic-build.sh) and app.js as a classic script; if even that fails, it says in the
// frame what the host page must change.
(function () {
  if (self.origin !== "null") return; // a page with an origin: the normal loader works

  function showHelp(error) {
    const status = document.getElementById("status");
    if (!status || window.wasmBindings) return;
    status.hidden = false;
    status.className = "error";
    status.textContent = "This embedded Friction Lab cannot load: its frame is sandboxed without " +
      "allow-same-origin and its server sends no Access-Control-Allow-Origin header. The page " +
      "embedding it should add allow-same-origin to the iframe's sandbox attribute (the Embed " +
      "button's snippet has it), or the server should send Access-Control-Allow-Origin: *." +
      (error ? ` (${error.message || error})` : "");
  }

  function load(src) {
    return new Promise((resolve, reject) => {
      const s = document.createElement("script");
      s.src = src;
      s.onload = resolve;
      s.onerror = () => reject(new Error(`could not load ${src}`));
      document.head.append(s);
    });
  }

  addEventListener("DOMContentLoaded", async () => {
    // a server that answers cross-origin requests serves the modules: nothing to do
    try {
      const r = await fetch(location.href, { method: "HEAD", mode: "cors", cache: "no-store" });
      if (r.ok) return;
    } catch { /* no CORS header: the module loader fails, take the classic path */ }
    if (window.wasmBindings) return;
    const glue = document.querySelector('link[rel="modulepreload"][href*="friction-web-"]');
    const app = document.querySelector('script[type="module"][src*="app-"]');
    if (!glue || !app) { showHelp(); return; }
    try {
      await load(glue.getAttribute("href").replace(/\.js$/, "-classic.js"));
      const b64 = self.frictionLabWasm;
      const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
      delete self.frictionLabWasm;
      // `wasm_bindgen` is the no-modules glue's global
      // eslint-disable-next-line no-undef
      await wasm_bindgen({ module_or_path: bytes });
      // eslint-disable-next-line no-undef
      window.wasmBindings = wasm_bindgen;
      performance.mark("fl-classic-loaded");
      await load(app.getAttribute("src")); // app.js starts at once: the bindings are there
    } catch (e) {
      showHelp(e);
    }
  });
})();
