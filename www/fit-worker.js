// The fit workspace's Web Worker: loads the fit wasm (crates/friction-fit-web, built by Trunk as
// a worker) and answers {id, op, ...} messages with {id, ok, result | error}. A running fit
// posts {id, progress: {runs, rms, stage, forces?, text}} after every model run (forces: the
// model's force at the best point so far, at most once a second). Cancel terminates the whole
// worker.
/* global wasm_bindgen, importScripts */
if (typeof wasm_bindgen === "undefined") importScripts("./friction-fit-web.js");
const ready = wasm_bindgen({ module_or_path: self.frictionFitWasm ?? "./friction-fit-web_bg.wasm" });

onmessage = async (event) => {
  const { id, op, text, query } = event.data;
  try {
    await ready;
    let result;
    if (op === "models") {
      result = JSON.parse(wasm_bindgen.models());
    } else if (op === "units") {
      result = JSON.parse(wasm_bindgen.unitChoices());
    } else if (op === "inspect") {
      result = JSON.parse(wasm_bindgen.inspect(text, query || ""));
    } else if (op === "parse") {
      result = JSON.parse(wasm_bindgen.parseRecord(text, query || ""));
    } else if (op === "read") {
      result = JSON.parse(wasm_bindgen.readRecord(text, query || ""));
    } else if (op === "plan") {
      result = JSON.parse(wasm_bindgen.plan(text, query));
    } else if (op === "example") {
      result = wasm_bindgen.exampleCsv(query);
    } else if (op === "fit") {
      const progress = (runs, rms, stage, forces, line) =>
        postMessage({ id, progress: { runs, rms, stage, forces, text: line } });
      result = JSON.parse(wasm_bindgen.fit(text, query, progress));
    } else {
      throw new Error(`unknown request ${op}`);
    }
    postMessage({ id, ok: true, result });
  } catch (e) {
    postMessage({ id, ok: false, error: String(e && e.message ? e.message : e) });
  }
};
