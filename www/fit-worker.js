// The Fit panel's Web Worker: loads the fit wasm (crates/friction-fit-web, built by Trunk as a
// worker) and answers {id, op, ...} messages with {id, ok, result | error}. A running fit posts
// {id, progress: {runs, rms}} after every model run. Cancel terminates the whole worker.
// In the single file (friction-lab.html) this code comes in a blob after the inlined glue and
// the wasm's bytes (`self.frictionFitWasm`), and loads nothing.
/* global wasm_bindgen, importScripts */
if (typeof wasm_bindgen === "undefined") importScripts("./friction-fit-web.js");
const ready = wasm_bindgen({ module_or_path: self.frictionFitWasm ?? "./friction-fit-web_bg.wasm" });

onmessage = async (event) => {
  const { id, op } = event.data;
  try {
    await ready;
    let result;
    if (op === "models") {
      result = JSON.parse(wasm_bindgen.models());
    } else if (op === "units") {
      result = JSON.parse(wasm_bindgen.unitChoices());
    } else if (op === "parse") {
      result = JSON.parse(wasm_bindgen.parseRecord(event.data.text, event.data.units || ""));
    } else if (op === "example") {
      result = wasm_bindgen.exampleCsv(event.data.query);
    } else if (op === "fit") {
      const progress = (runs, rms) => postMessage({ id, progress: { runs, rms } });
      result = JSON.parse(wasm_bindgen.fit(event.data.text, event.data.units || "", event.data.query, progress));
    } else {
      throw new Error(`unknown request ${op}`);
    }
    postMessage({ id, ok: true, result });
  } catch (e) {
    postMessage({ id, ok: false, error: String(e && e.message ? e.message : e) });
  }
};
