//! The page's fit worker: parses a dropped record, generates example data and runs a fit, all
//! inside a Web Worker (`www/fit-worker.js` loads this module), so the page stays responsive and
//! the record never leaves the machine. Results cross as JSON strings.
//!
//! Why a crate of its own: nalgebra and the optimiser would add to the main page's wasm, which
//! every visitor loads; this one is fetched only when the Fit panel is opened. No physics here:
//! everything is `friction-fit` and the core.

use friction_core::registry;
use friction_fit::{spec::fittable, Data, ExampleSpec, FitError, FitSpec};
use serde_json::{json, Value};
use wasm_bindgen::prelude::*;

/// Installs the panic hook so a Rust panic shows up as a readable console error.
#[wasm_bindgen(start)]
pub fn start() {
    console_error_panic_hook::set_once();
}

/// Every model with its parameters (key, symbol, unit, default, range, log, fittable), as JSON.
#[wasm_bindgen]
pub fn models() -> String {
    let list: Vec<Value> = registry::registry()
        .map(|e| {
            json!({
                "id": e.info.id,
                "name": e.info.name,
                // the key a record's column N drives (fn, FrBD's p)
                "load": friction_fit::load::load_index(e).map(|i| e.info.params[i].key),
                "params": e.info.params.iter().map(|p| json!({
                    "key": p.key, "symbol": p.symbol, "unit": p.unit, "name": p.name,
                    "default": p.default, "min": p.min, "max": p.max, "log": p.log,
                    "fittable": fittable(p),
                })).collect::<Vec<_>>(),
            })
        })
        .collect();
    Value::Array(list).to_string()
}

fn data_json(d: &Data) -> Value {
    json!({
        "t": d.t, "x": d.x, "v": d.v, "f": d.f, "notes": d.notes, "n": d.len(),
        "unitless": d.unitless, "hasN": d.normal.is_some(),
    })
}

/// The units a column without one in its header may be given, per column key, as JSON.
#[wasm_bindgen(js_name = unitChoices)]
pub fn unit_choices() -> String {
    let list: Vec<Value> = friction_fit::data::UNIT_CHOICES
        .iter()
        .map(|(k, us)| json!({ "key": k, "units": us }))
        .collect();
    Value::Array(list).to_string()
}

/// `t=ms;x=mm` (the page's unit chooser) as the parser's (key, unit) pairs.
fn unit_pairs(units: &str) -> Vec<(&str, &str)> {
    units
        .split(';')
        .filter_map(|kv| kv.split_once('='))
        .collect()
}

fn parse(text: &str, units: &str) -> Result<Data, JsError> {
    friction_fit::data::parse_filling(text, &unit_pairs(units))
        .map_err(|e| JsError::new(&e.to_string()))
}

/// Parses a record (CSV/TSV text) with `units` (`t=ms;x=mm`, for columns whose header gives
/// none); the error names the line.
#[wasm_bindgen(js_name = parseRecord)]
pub fn parse_record(text: &str, units: &str) -> Result<String, JsError> {
    Ok(data_json(&parse(text, units)?).to_string())
}

/// Example data for an example query (`model=…&KEY=…&noise=…&seed=…`), as CSV text.
#[wasm_bindgen(js_name = exampleCsv)]
pub fn example_csv(query: &str) -> Result<String, JsError> {
    let spec = ExampleSpec::parse(query).map_err(|e| JsError::new(&e))?;
    let (d, _) = spec.generate().map_err(|e| JsError::new(&e))?;
    Ok(d.to_csv())
}

/// Fits `query` to the record `text` (read with `units`, as [`parse_record`]); `progress` is called with the number of model runs so
/// far and the best residual RMS (Cancel terminates the worker). Returns the report, the data,
/// the fitted force and the CSV of fit and residuals as JSON.
#[wasm_bindgen]
pub fn fit(
    text: &str,
    units: &str,
    query: &str,
    progress: &js_sys::Function,
) -> Result<String, JsError> {
    let data = parse(text, units)?;
    let spec = FitSpec::parse(query, &[]).map_err(|e| JsError::new(&e))?;
    let report = friction_fit::run(&spec, &data, &mut |p| {
        let _ = progress.call2(
            &JsValue::NULL,
            &JsValue::from(p.runs as f64),
            &JsValue::from(p.rms),
        );
        true
    })
    .map_err(|e| match e {
        FitError::Cancelled => JsError::new("fit cancelled"),
        FitError::Bad(s) => JsError::new(&s),
    })?;
    Ok(json!({
        "report": report.json(),
        "text": report.text(),
        "data": data_json(&data),
        "fitted": report.fitted,
        "csv": report.csv(&data),
    })
    .to_string())
}
