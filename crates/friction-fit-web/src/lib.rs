//! The page's fit worker: reads a dropped record, generates example data and runs a fit, all
//! inside a Web Worker (`www/fit-worker.js` loads this module), so the page stays responsive and
//! the record never leaves the machine. Results cross as JSON strings; the texts the page shows
//! (summary, verdicts, notes, formatted numbers) come from `friction-fit` as they are.
//!
//! Why a crate of its own: nalgebra and the optimiser would add to the main page's wasm, which
//! every visitor loads; this one is fetched only when the fit workspace opens. No physics here:
//! everything is `friction-fit` and the core.

use friction_core::registry;
use friction_fit::data::{self, Data};
use friction_fit::{spec, ExampleSpec, FitError, FitSpec};
use serde_json::{json, Value};
use wasm_bindgen::prelude::*;

/// Installs the panic hook so a Rust panic shows up as a readable console error.
#[wasm_bindgen(start)]
pub fn start() {
    console_error_panic_hook::set_once();
}

/// Every model with its parameters (key, symbol, unit, default, range, log, fittable), the key
/// a record's column N drives (`load`) and the parameters fitted when none are named
/// (`defaultFree`, before the record cuts them to what it shows), as JSON.
#[wasm_bindgen]
pub fn models() -> String {
    let list: Vec<Value> = registry::registry()
        .map(|e| {
            json!({
                "id": e.info.id,
                "name": e.info.name,
                "load": friction_fit::load::load_index(e).map(|i| e.info.params[i].key),
                "defaultFree": spec::default_free(e).iter().map(|&i| e.info.params[i].key).collect::<Vec<_>>(),
                "params": e.info.params.iter().chain(std::iter::once(&spec::OFFSET)).map(|p| json!({
                    "key": p.key, "symbol": p.symbol, "unit": p.unit, "name": p.name,
                    "default": p.default, "min": p.min, "max": p.max, "log": p.log,
                    "fittable": p.key == "offset" || spec::fittable(p),
                })).collect::<Vec<_>>(),
            })
        })
        .collect();
    Value::Array(list).to_string()
}

fn data_json(d: &Data) -> Value {
    json!({
        "t": d.t, "x": d.x, "v": d.v, "f": d.f, "notes": d.notes, "n": d.len(),
        "unitless": d.unitless, "hasN": d.normal.is_some(), "rotary": d.rotary,
        "forceUnit": d.force_unit(),
        "columns": d.columns.iter().map(|(k, h)| json!({"key": k, "header": h})).collect::<Vec<_>>(),
    })
}

/// The units a column without one in its header may be given, per column key, as JSON.
#[wasm_bindgen(js_name = unitChoices)]
pub fn unit_choices() -> String {
    let list: Vec<Value> = data::UNIT_CHOICES
        .iter()
        .map(|(k, us)| json!({ "key": k, "units": us }))
        .collect();
    Value::Array(list).to_string()
}

/// The read options of a fit query (cols, units, flip, tmin, tmax, smooth); the model keys are
/// not checked here (a record is read before a model is chosen).
fn read_options(query: &str) -> Result<data::ReadOptions, JsError> {
    let q = if query.contains("model=") {
        query.to_string()
    } else {
        format!("model=coulomb&free=muk&{query}")
    };
    // only the record's keys matter here: other keys of the query are checked by the fit
    let only: String = friction_core::scenario::query::pairs(&q)
        .into_iter()
        .filter(|(k, _)| {
            matches!(
                k.as_str(),
                "cols" | "units" | "flip" | "tmin" | "tmax" | "smooth" | "model"
            )
        })
        .map(|(k, v)| format!("{k}={}", friction_core::scenario::query::encode(&v)))
        .collect::<Vec<_>>()
        .join("&");
    let spec = FitSpec::parse(&format!("{only}&free=offset"), &[]).map_err(|e| JsError::new(&e))?;
    Ok(spec.read)
}

/// The header of a record and how each column would be read with `query`'s record keys
/// (`cols=`, `units=`), for the column chooser: `{fields: [{header, name, unit, col, named}],
/// notes, choices: [{key, units}]}`.
#[wasm_bindgen]
pub fn inspect(text: &str, query: &str) -> Result<String, JsError> {
    let opts = read_options(query)?;
    let (fields, notes) = data::inspect(text, &opts).map_err(|e| JsError::new(&e.to_string()))?;
    let f: Vec<Value> = fields
        .iter()
        .map(|f| {
            json!({
                "header": f.header, "name": f.name, "unit": f.unit,
                "col": f.col.map(|c| c.key()), "named": f.named,
            })
        })
        .collect();
    Ok(json!({ "fields": f, "notes": notes, "choices": serde_json::from_str::<Value>(&unit_choices()).unwrap_or(Value::Null) }).to_string())
}

/// Reads a record (CSV/TSV/space-separated text) with `query`'s record keys (`cols=`,
/// `units=`, `flip=`, `tmin=`, `tmax=`, `smooth=`); the error names the line.
#[wasm_bindgen(js_name = parseRecord)]
pub fn parse_record(text: &str, query: &str) -> Result<String, JsError> {
    let opts = read_options(query)?;
    let d = data::read(text, &opts).map_err(|e| JsError::new(&e.to_string()))?;
    Ok(data_json(&d).to_string())
}

/// Example data for an example query (`model=…&KEY=…&noise=…&seed=…`), as CSV text.
#[wasm_bindgen(js_name = exampleCsv)]
pub fn example_csv(query: &str) -> Result<String, JsError> {
    let spec = ExampleSpec::parse(query).map_err(|e| JsError::new(&e))?;
    let (d, _) = spec.generate().map_err(|e| JsError::new(&e))?;
    Ok(d.to_csv())
}

/// Milliseconds between two live curves in the progress callback: a model run on the whole
/// record costs as much as one of the fit's, so a curve a second costs the fit a few percent.
const LIVE_MS: f64 = 1000.0;

/// Fits `query` to the record `text`; `progress(runs, rms, stage, forces)` is called after
/// every model run (`forces`: the model's force at every sample for the best values so far, at
/// most once a second, else `undefined`). Cancel terminates the worker. Returns the report
/// (JSON and text), the record, the fitted force, the CSV of fit and residuals, and the fitted
/// values (`values`: key → value, the offset included) as JSON.
#[wasm_bindgen]
pub fn fit(text: &str, query: &str, progress: &js_sys::Function) -> Result<String, JsError> {
    let spec = FitSpec::parse(query, &[]).map_err(|e| JsError::new(&e))?;
    let data = data::read(text, &spec.read).map_err(|e| JsError::new(&e.to_string()))?;
    let mut last = 0.0;
    let mut shown_rms = f64::INFINITY;
    let mut ev = friction_fit::eval::Evaluator::new(&spec, &data);
    ev.set_rtol(friction_fit::fit::RTOL_SEARCH);
    let mut forces = vec![0.0; data.len()];
    let report = friction_fit::run(&spec, &data, &mut |p| {
        let now = js_sys::Date::now();
        let mut live = JsValue::UNDEFINED;
        if now - last >= LIVE_MS && p.rms < shown_rms {
            last = now;
            shown_rms = p.rms;
            if ev.forces_of(&p.best, &mut forces).is_ok() {
                live = js_sys::Float64Array::from(forces.as_slice()).into();
            }
        }
        let args = js_sys::Array::of4(
            &JsValue::from(p.runs as f64),
            &JsValue::from(p.rms),
            &JsValue::from(p.stage.text()),
            &live,
        );
        let _ = progress.apply(&JsValue::NULL, &args);
        true
    })
    .map_err(|e| match e {
        FitError::Cancelled => JsError::new("fit cancelled"),
        FitError::Bad(s) => JsError::new(&s),
    })?;
    let mut values = serde_json::Map::new();
    for (k, v) in &report.all_values {
        values.insert((*k).to_string(), json!(v));
    }
    values.insert("offset".into(), json!(report.offset));
    Ok(json!({
        "report": report.json(),
        "text": report.text(),
        "data": data_json(&data),
        "fitted": report.fitted,
        "csv": report.csv(&data),
        "values": values,
    })
    .to_string())
}
