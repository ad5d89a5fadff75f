//! The page's fit worker: reads a dropped record, generates example data and runs a fit, all
//! inside a Web Worker (`www/fit-worker.js` loads this module), so the page stays responsive and
//! the record never leaves the machine. Results cross as JSON strings; the texts the page shows
//! (summary, verdicts, notes, formatted numbers) come from `friction-fit` as they are, or are
//! put together here from its pieces: the page words and formats nothing itself.
//!
//! Why a crate of its own: nalgebra and the optimiser would add to the main page's wasm, which
//! every visitor loads; this one is fetched only when the fit workspace opens. No physics here:
//! everything is `friction-fit` and the core. The functions below return `Result<Value,
//! String>` and are tested natively; the `#[wasm_bindgen]` wrappers only turn them into JSON
//! text and JS errors.

use friction_core::registry;
use friction_fit::data::{self, columns, Data};
use friction_fit::format::num;
use friction_fit::{eval, guess, load, spec, ExampleSpec, FitError, FitSpec, Report};
use serde_json::{json, Value};
use wasm_bindgen::prelude::*;

/// Installs the panic hook so a Rust panic shows up as a readable console error.
#[wasm_bindgen(start)]
pub fn start() {
    console_error_panic_hook::set_once();
}

fn js(r: Result<Value, String>) -> Result<String, JsError> {
    r.map(|v| v.to_string()).map_err(|e| JsError::new(&e))
}

/// Every model with its parameters (key, symbol, unit, default, range, log, fittable, and the
/// default and range as the report writes numbers), the key a record's column N drives
/// (`load`) and the parameters fitted when none are named (`defaultFree`, before the record
/// cuts them to what it shows), as JSON.
#[wasm_bindgen]
pub fn models() -> String {
    models_json().to_string()
}

fn models_json() -> Value {
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
                    "text": {"default": num(p.default), "min": num(p.min), "max": num(p.max)},
                })).collect::<Vec<_>>(),
            })
        })
        .collect();
    Value::Array(list)
}

/// The rows of the record table the page shows beside its charts: how many samples over which
/// time, which file column gave each quantity, and what the reader derived or assumed.
fn record_lines(d: &Data) -> Vec<String> {
    let mut out = Vec::new();
    if let (Some(a), Some(b)) = (d.t.first(), d.t.last()) {
        out.push(format!(
            "{} samples from t = {} s to {} s",
            d.len(),
            num(*a),
            num(*b)
        ));
    }
    let cols: Vec<String> = d
        .columns
        .iter()
        .map(|(k, h)| format!("{k} ← {h}"))
        .collect();
    if !cols.is_empty() {
        out.push(format!("columns: {}", cols.join(", ")));
    }
    out.extend(d.notes.iter().cloned());
    out
}

fn data_json(d: &Data) -> Value {
    json!({
        "t": d.t, "x": d.x, "v": d.v, "f": d.f, "notes": d.notes, "n": d.len(),
        "unitless": d.unitless, "hasN": d.normal.is_some(), "rotary": d.rotary,
        "forceUnit": d.force_unit(),
        "columns": d.columns.iter().map(|(k, h)| json!({"key": k, "header": h})).collect::<Vec<_>>(),
        "record": record_lines(d),
    })
}

/// The units a column without one in its header may be given, per column key (every quantity
/// but the weights), as JSON.
#[wasm_bindgen(js_name = unitChoices)]
pub fn unit_choices() -> String {
    unit_choices_json().to_string()
}

fn unit_choices_json() -> Value {
    let list: Vec<Value> = columns::ALL
        .iter()
        .filter(|c| **c != columns::Col::W)
        .map(|c| json!({ "key": c.key(), "units": c.choices() }))
        .collect();
    Value::Array(list)
}

/// What each column key stands for, in the reader's order, for the column chooser's menu:
/// `[{key, name}]`.
fn quantities_json() -> Value {
    let name = |c: columns::Col| match c {
        columns::Col::T => "time",
        columns::Col::X => "displacement or angle",
        columns::Col::V => "velocity",
        columns::Col::F => "friction force or torque",
        columns::Col::N => "normal load",
        columns::Col::W => "weight",
    };
    columns::ALL
        .iter()
        .map(|&c| json!({ "key": c.key(), "name": name(c) }))
        .collect()
}

/// The read options of a fit query (cols, units, flip, tmin, tmax, smooth); the model keys are
/// not checked here (a record is read before a model is chosen).
fn read_options(query: &str) -> Result<data::ReadOptions, String> {
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
    let spec = FitSpec::parse(&format!("{only}&free=offset"), &[])?;
    Ok(spec.read)
}

/// The line of `text` that holds its header (1-based): the first that is neither empty nor a
/// `#` comment, as the reader finds it (after a byte-order mark). The reader's errors about the
/// header name this line or, when comments or empty lines come first, an earlier one (the csv
/// crate's position of the first record is where its reading began); its errors about rows
/// name later lines.
fn header_line(text: &str) -> usize {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    text.lines()
        .position(|l| {
            let l = l.trim();
            !l.is_empty() && !l.starts_with('#')
        })
        .map_or(0, |i| i + 1)
}

/// The header of a record and how each column would be read with `query`'s record keys
/// (`cols=`, `units=`), for the column chooser: `{fields: [{header, name, unit, col, named}],
/// notes, choices: [{key, units}], quantities: [{key, name}]}`.
#[wasm_bindgen]
pub fn inspect(text: &str, query: &str) -> Result<String, JsError> {
    js(inspect_json(text, query))
}

fn inspect_json(text: &str, query: &str) -> Result<Value, String> {
    let opts = read_options(query)?;
    let (fields, notes) = data::inspect(text, &opts).map_err(|e| e.to_string())?;
    let f: Vec<Value> = fields
        .iter()
        .map(|f| {
            json!({
                "header": f.header, "name": f.name, "unit": f.unit,
                "col": f.col.map(|c| c.key()), "named": f.named,
            })
        })
        .collect();
    Ok(json!({
        "fields": f, "notes": notes, "choices": unit_choices_json(), "quantities": quantities_json(),
    }))
}

/// Reads a record (CSV/TSV/space-separated text) with `query`'s record keys (`cols=`,
/// `units=`, `flip=`, `tmin=`, `tmax=`, `smooth=`); the error names the line.
#[wasm_bindgen(js_name = parseRecord)]
pub fn parse_record(text: &str, query: &str) -> Result<String, JsError> {
    let opts = read_options(query).map_err(|e| JsError::new(&e))?;
    let d = data::read(text, &opts).map_err(|e| JsError::new(&e.to_string()))?;
    Ok(data_json(&d).to_string())
}

/// The column chooser and the record in one answer: `inspect`'s fields, notes and choices,
/// then `data` (as `parseRecord` gives it) or `error: {message, header}` (`header`: the error
/// is about the header line, its columns or units, which the chooser can change; otherwise it
/// is about a row or the file as a whole). An error for a header that cannot be read at all
/// (an empty file, `cols=` naming no column) is thrown.
#[wasm_bindgen(js_name = readRecord)]
pub fn read_record(text: &str, query: &str) -> Result<String, JsError> {
    js(read_record_json(text, query))
}

fn read_record_json(text: &str, query: &str) -> Result<Value, String> {
    let mut out = inspect_json(text, query)?;
    let opts = read_options(query)?;
    match data::read(text, &opts) {
        Ok(d) => out["data"] = data_json(&d),
        Err(e) => {
            out["error"] = json!({"message": e.to_string(), "header": e.line > 0 && e.line <= header_line(text)})
        }
    }
    Ok(out)
}

/// What a fit of `query` would do with the record `text` before it runs: the free parameters
/// after the record has cut the model's usual set (`free`, `tied`, and `notes` saying why), the
/// start value of every parameter as the report writes numbers (`starts`: key → text; read off
/// the record unless given or `guess=0`), what was read off the record (`facts`), and what
/// becomes of a column N (`load`, `warnings`). A query the fit would refuse throws its message.
#[wasm_bindgen]
pub fn plan(text: &str, query: &str) -> Result<String, JsError> {
    js(plan_json(text, query))
}

fn plan_json(text: &str, query: &str) -> Result<Value, String> {
    let spec = FitSpec::parse(query, &[])?;
    let data = data::read(text, &spec.read).map_err(|e| e.to_string())?;
    let l = load::plan(&spec, &data)?;
    // as `friction_fit::fit::optimise` begins
    let w = eval::weights(&spec, &data);
    let facts = guess::facts(&data, &w, guess::load_of(&spec, &data));
    let (resolved, notes) = guess::resolve(&spec, &facts);
    let starts = if resolved.guess {
        guess::starts(&resolved, &facts)
    } else {
        resolved.values.clone()
    };
    let key = |i: usize| resolved.param(i).key;
    let mut start_text = serde_json::Map::new();
    for (i, v) in starts.iter().enumerate() {
        start_text.insert(key(i).to_string(), json!(num(*v)));
    }
    Ok(json!({
        "free": resolved.free.iter().map(|&i| key(i)).collect::<Vec<_>>(),
        "tied": resolved.tied.iter().map(|&(a, b)| json!([key(a), key(b)])).collect::<Vec<_>>(),
        "notes": notes,
        "starts": start_text,
        "facts": facts.line(),
        "load": l.line,
        "warnings": l.warnings,
    }))
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

/// A running fit's progress in words: its stage, the model runs so far and the best residual
/// RMS of the stage's record.
fn progress_text(p: &friction_fit::Progress, unit: &str) -> String {
    format!(
        "{}: {} model runs, best residual RMS {} {unit}",
        p.stage.text(),
        p.runs,
        num(p.rms)
    )
}

/// The texts of a report the page places beside its JSON: the correlation matrix as the text
/// report writes it (three decimals, `–` where undefined), its lines on the hold-out part and
/// on the fit's figures, and the verdict that calls the optimum poor (null when it is not).
fn report_texts(r: &Report) -> Value {
    let text = r.text();
    let line = |start: &str| {
        text.lines()
            .find(|l| l.starts_with(start))
            .map(str::to_string)
    };
    let corr: Vec<Vec<String>> = r
        .corr
        .iter()
        .map(|row| {
            row.iter()
                .map(|c| {
                    if c.is_finite() {
                        format!("{c:.3}")
                    } else {
                        "–".into()
                    }
                })
                .collect()
        })
        .collect();
    let poor = r
        .poor
        .first()
        .and_then(|reason| r.notes.iter().find(|n| n.contains(reason.as_str())));
    json!({
        "correlation": corr,
        "holdout": line("hold-out part"),
        "figures": line("residual RMS"),
        "poor": poor,
    })
}

/// Fits `query` to the record `text`; `progress(runs, rms, stage, forces, text)` is called after
/// every model run (`forces`: the model's force at every sample for the best values so far, at
/// most once a second, else `undefined`; `text`: the progress in words). Cancel terminates the
/// worker. Returns the report (JSON and text), the record, the fitted force, the CSV of fit and
/// residuals, the fitted values (`values`: key → value, the offset included) and the report's
/// further texts (`texts`: the correlation matrix, the hold-out and figures lines, the poor
/// optimum's verdict) as JSON.
#[wasm_bindgen]
pub fn fit(text: &str, query: &str, progress: &js_sys::Function) -> Result<String, JsError> {
    let spec = FitSpec::parse(query, &[]).map_err(|e| JsError::new(&e))?;
    let data = data::read(text, &spec.read).map_err(|e| JsError::new(&e.to_string()))?;
    let mut last = 0.0;
    let mut shown_rms = f64::INFINITY;
    let mut ev = friction_fit::eval::Evaluator::new(&spec, &data);
    ev.set_rtol(friction_fit::fit::RTOL_SEARCH);
    let mut forces = vec![0.0; data.len()];
    let unit = data.force_unit();
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
        let args = js_sys::Array::of5(
            &JsValue::from(p.runs as f64),
            &JsValue::from(p.rms),
            &JsValue::from(p.stage.text()),
            &live,
            &JsValue::from(progress_text(p, unit)),
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
        "texts": report_texts(&report),
        "data": data_json(&data),
        "fitted": report.fitted,
        "csv": report.csv(&data),
        "values": values,
    })
    .to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn example(q: &str) -> String {
        let spec = ExampleSpec::parse(q).expect("example query");
        spec.generate().expect("example data").0.to_csv()
    }

    #[test]
    fn every_unit_choice_reads() {
        let u = unit_choices_json();
        let keys: Vec<&str> = u
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|c| c["key"].as_str())
            .collect();
        assert_eq!(keys, ["t", "x", "v", "F", "N"]);
        for c in u.as_array().into_iter().flatten() {
            let col = columns::Col::of_key(c["key"].as_str().unwrap_or("")).expect("a column");
            for unit in c["units"].as_array().into_iter().flatten() {
                let unit = unit.as_str().unwrap_or("");
                assert!(col.factor(unit).is_some(), "{unit}");
            }
        }
    }

    #[test]
    fn a_header_error_is_told_apart_from_a_row_error() {
        // x in mm without a unit: the reader refuses the units, at the header
        let mut text = String::from("# comment\n\nt,x,v,F\n");
        for k in 0..40 {
            let t = k as f64 * 0.1;
            text.push_str(&format!(
                "{t},{},{},{}\n",
                1e3 * t.sin(),
                t.cos(),
                t.cos().signum()
            ));
        }
        assert_eq!(header_line(&text), 3);
        let r = read_record_json(&text, "").expect("the header reads");
        assert_eq!(r["fields"].as_array().map(Vec::len), Some(4));
        assert!(r["data"].is_null());
        assert_eq!(r["error"]["header"], json!(true), "{r}");
        // with the unit chosen it reads, and says what it read
        let r = read_record_json(&text, "units=x:mm").expect("reads");
        assert!(r["error"].is_null(), "{r}");
        assert_eq!(r["data"]["n"], json!(40));
        let lines = r["data"]["record"].to_string();
        assert!(
            lines.contains("40 samples from t = 0 s to 3.9 s"),
            "{lines}"
        );
        assert!(
            lines.contains("columns: t ← t, x ← x, v ← v, F ← F"),
            "{lines}"
        );
        // a row that is not a number: not the header's fault
        let bad = "t,v,F\n0,0,0\n1,x,1\n";
        let r = read_record_json(bad, "").expect("the header reads");
        assert_eq!(r["error"]["header"], json!(false), "{r}");
        assert!(r["error"]["message"]
            .as_str()
            .unwrap_or("")
            .starts_with("line 3:"));
        // a header naming no column the query asks for cannot be read at all
        assert!(read_record_json(bad, "cols=F:Friction").is_err());
    }

    #[test]
    fn the_plan_cuts_the_usual_set_as_the_fit_does() {
        // LuGre data at one speed amplitude without a Stribeck peak: the record cannot show σ2
        let csv = example("model=lugre&noise=0.01&seed=1");
        let p = plan_json(&csv, "model=lugre").expect("a plan");
        let free: Vec<&str> = p["free"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
            .collect();
        let spec = FitSpec::parse("model=lugre", &[]).expect("spec");
        let data = data::read(&csv, &spec.read).expect("data");
        let report = friction_fit::run(&spec, &data, &mut |_| true).expect("fit");
        let fitted: Vec<&str> = report.estimates.iter().map(|e| e.key).collect();
        assert_eq!(free, fitted, "{p}");
        // every note of the plan is in the report
        for n in p["notes"].as_array().into_iter().flatten() {
            let n = n.as_str().unwrap_or("");
            assert!(report.notes.iter().any(|r| r == n), "{n}");
        }
        assert!(p["starts"]["muk"].is_string() && p["starts"]["offset"].is_string());
        // a named free set is not cut
        let p = plan_json(&csv, "model=lugre&free=muk,sigma2").expect("plan");
        assert_eq!(p["free"], json!(["muk", "sigma2"]));
        assert_eq!(p["notes"], json!([]));
        // a query the fit refuses is refused here with the same words
        let e = plan_json(&csv, "model=lugre&free=zeta").expect_err("bad free");
        assert!(e.contains("zeta is not a parameter"), "{e}");
    }

    #[test]
    fn report_texts_are_the_text_reports() {
        let csv = example("model=dahl&noise=0.01&seed=2");
        let spec = FitSpec::parse("model=dahl&holdout=0.3", &[]).expect("spec");
        let data = data::read(&csv, &spec.read).expect("data");
        let r = friction_fit::run(&spec, &data, &mut |_| true).expect("fit");
        let t = report_texts(&r);
        let text = r.text();
        let hold = t["holdout"].as_str().expect("a hold-out line");
        assert!(text.contains(hold) && hold.starts_with("hold-out part (t ≥"));
        assert!(text.contains(t["figures"].as_str().expect("figures")));
        assert_eq!(t["correlation"][0][0], json!("1.000"));
        assert!(t["poor"].is_null());
        let k = r.estimates.len();
        assert_eq!(t["correlation"].as_array().map(Vec::len), Some(k));
    }

    #[test]
    fn models_carry_their_numbers_as_texts() {
        let m = models_json();
        let lugre = m
            .as_array()
            .into_iter()
            .flatten()
            .find(|e| e["id"] == "lugre")
            .expect("lugre");
        let sigma0 = lugre["params"]
            .as_array()
            .into_iter()
            .flatten()
            .find(|p| p["key"] == "sigma0")
            .expect("σ0");
        assert_eq!(sigma0["text"]["default"], json!(num(1e5)));
        let last = lugre["params"]
            .as_array()
            .and_then(|a| a.last())
            .expect("offset");
        assert_eq!(last["key"], "offset");
    }
}
