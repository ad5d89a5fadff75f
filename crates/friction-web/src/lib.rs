//! The wasm boundary of Friction Lab: thin wrappers that hand the page the core's scenario schema
//! and experiments, and draw the core's charts. No physics lives here; errors become JS `Error`s
//! carrying the core's message (key, value, allowed range).
//!
//! Drawing follows measurements of plotters-canvas in headless Chromium, where a full redraw took
//! 3–9 ms (mostly text layout and wide lines) and an overlay of path calls 0.3–3 ms: axes, text
//! and legend are drawn by plotters on a background canvas only when they change; the curves are
//! stroked on a transparent overlay with plain path calls, decimated to about one point per device
//! pixel.

mod ctx2d;
mod draw;
mod fitdraw;
mod lab;

pub use fitdraw::FitCharts;
pub use lab::{Lab, Painter, ViewJob};

/// The flag text every UI shows next to a model whose formula was not recoverable from its source.
pub use friction_core::model::PROVISIONAL;

use friction_core::experiments::hysteresis;
use friction_core::params::ParamError;
use friction_core::scenario::Scenario;

/// The page's canvas as the backend type the SVG export also draws through
/// (`friction_plot::backend`, which also measures each distinct text once): the chart code is
/// compiled once for both.
pub(crate) type Canvas = friction_plot::backend::EitherBackend<'static, ctx2d::Ctx2dBackend>;
use serde::Serialize;
use wasm_bindgen::prelude::*;
use web_sys::HtmlCanvasElement;

/// Installs the panic hook so a Rust panic shows up as a readable console error.
#[wasm_bindgen(start)]
pub fn start() {
    console_error_panic_hook::set_once();
    friction_plot::backend::set_text_measurer(measure_text);
}

/// This module's compiled `WebAssembly.Module`: the page sends it to its view worker, which
/// instantiates the same code without fetching or compiling it again.
#[wasm_bindgen(js_name = compiledModule)]
pub fn wasm_module() -> JsValue {
    wasm_bindgen::module()
}

/// A 2-d context for measuring text: a canvas outside the document on the page, an
/// `OffscreenCanvas` in the view worker (which has no document, and runs the chart code once to
/// compile it before the page needs it).
enum Measurer {
    Page(web_sys::CanvasRenderingContext2d),
    Worker(web_sys::OffscreenCanvasRenderingContext2d),
}

impl Measurer {
    fn new() -> Option<Measurer> {
        if let Some(doc) = web_sys::window().and_then(|w| w.document()) {
            let c: HtmlCanvasElement = doc.create_element("canvas").ok()?.dyn_into().ok()?;
            return Some(Measurer::Page(c.get_context("2d").ok()??.dyn_into().ok()?));
        }
        let c = web_sys::OffscreenCanvas::new(1, 1).ok()?;
        Some(Measurer::Worker(
            c.get_context("2d").ok()??.dyn_into().ok()?,
        ))
    }

    fn measure(&self, font: &str, text: &str) -> Option<web_sys::TextMetrics> {
        match self {
            Measurer::Page(ctx) => {
                ctx.set_font(font);
                ctx.measure_text(text).ok()
            }
            Measurer::Worker(ctx) => {
                ctx.set_font(font);
                ctx.measure_text(text).ok()
            }
        }
    }
}

thread_local! {
    /// Measuring text on a context outside the document lays out nothing.
    static MEASURER: Option<Measurer> = Measurer::new();
}

/// A text's box \[px\] as the canvas draws it (the font string plotters-canvas sets): the
/// advance width, and the font's ascent plus descent (the line box plotters' own `<span>`
/// measurement reads, without laying out the page for every tick label: a layout per label
/// was the tail of the frame times and most of a robot link's first frame).
///
/// A number (a tick label: digits, sign, point, exponent) is measured as the sum of its
/// characters' advances, each measured once per font: a chart's first drawing has dozens of
/// distinct tick labels, and shaping each for the first time was a third of the robot view's
/// first drawing (canvas `measureText` 18-37 ms of 60-100 ms). Digits and these signs do not
/// kern, so the sum is the string's advance.
fn measure_text(family: &str, style: &str, size: f64, text: &str) -> Option<(u32, u32)> {
    let font = format!("{style} {size}px {family}");
    let (w, h) = if !text.is_empty() && text.chars().all(numeric_glyph) {
        let mut w = 0.0;
        for c in text.chars() {
            w += glyph(&font, c)?.0;
        }
        (w, glyph(&font, '0')?.1)
    } else {
        measure_box(&font, text)?
    };
    (w.is_finite() && h.is_finite() && h > 0.0).then(|| (w.round() as u32, h.round() as u32))
}

/// Characters of a number as the tick labels write it.
fn numeric_glyph(c: char) -> bool {
    c.is_ascii_digit() || ".-−+e×⁻⁰¹²³⁴⁵⁶⁷⁸⁹ ".contains(c)
}

/// Characters' boxes \[px\] by font string, then character.
type GlyphCache = std::collections::HashMap<String, std::collections::HashMap<char, (f64, f64)>>;

thread_local! {
    /// One character's box per font, kept for every redraw of the tick labels.
    static GLYPHS: std::cell::RefCell<GlyphCache> = std::cell::RefCell::default();
}

/// One character's advance and the font's line box \[px\], measured once per font (a hit
/// allocates nothing: it runs for every character of every tick label of a redraw).
fn glyph(font: &str, c: char) -> Option<(f64, f64)> {
    if let Some(b) = GLYPHS.with(|g| g.borrow().get(font).and_then(|m| m.get(&c)).copied()) {
        return Some(b);
    }
    let b = measure_box(font, c.encode_utf8(&mut [0; 4]))?;
    GLYPHS.with(|g| {
        let mut g = g.borrow_mut();
        // a page uses a handful of fonts; a zoom cycling through sizes must not grow it forever
        if g.len() >= 64 {
            g.clear();
        }
        g.entry(font.to_string()).or_default().insert(c, b);
    });
    Some(b)
}

/// The advance width and the font's ascent plus descent of `text` \[px\].
fn measure_box(font: &str, text: &str) -> Option<(f64, f64)> {
    MEASURER.with(|m| {
        let m = m.as_ref()?.measure(font, text)?;
        Some((
            m.width(),
            m.font_bounding_box_ascent() + m.font_bounding_box_descent(),
        ))
    })
}

/// One rejected key of a query string, as the page shows it.
#[derive(Debug, Clone, Serialize)]
pub struct JsParamError {
    /// The key as given, control and invisible characters %-escaped (`vs%0D`).
    pub key: String,
    /// The value as given (shortened by the core, escaped as the key).
    pub value: String,
    /// Why, with the allowed range; for a rule between several keys, the rule and the other
    /// keys with their values.
    pub reason: String,
    /// Every key the error is about: `key`, then the other keys of a rule between several.
    pub keys: Vec<String>,
    /// The whole sentence, e.g. `k0 = "-5" is not valid (allowed: 0.001 ≤ k0 ≤ 1000000000)`.
    pub message: String,
}

impl From<&ParamError> for JsParamError {
    fn from(e: &ParamError) -> Self {
        use friction_core::params::shown;
        JsParamError {
            key: shown(&e.key).into_owned(),
            value: shown(&e.value).into_owned(),
            reason: e.explanation(),
            keys: e
                .keys()
                .into_iter()
                .map(|k| shown(k).into_owned())
                .collect(),
            message: e.to_string(),
        }
    }
}

/// The keys of a link that set the page's layout and embedding rather than the scenario
/// (`friction_core::scenario::PAGE_KEYS`): the page takes them out of the link it hands the
/// `Lab`, and the CLI ignores them.
#[wasm_bindgen(js_name = pageKeys)]
pub fn page_keys() -> Vec<String> {
    friction_core::scenario::PAGE_KEYS
        .iter()
        .map(|k| k.to_string())
        .collect()
}

fn to_js<T: Serialize>(x: &T) -> JsValue {
    x.serialize(&serde_wasm_bindgen::Serializer::json_compatible())
        .unwrap_or(JsValue::NULL)
}

/// Joins several core errors into one JS error message (one sentence each).
fn js_error(errs: &[ParamError]) -> JsError {
    let msg = errs
        .iter()
        .map(|e| e.to_string())
        .collect::<Vec<_>>()
        .join("; ");
    JsError::new(&msg)
}

#[derive(Serialize)]
struct LoopOut {
    freq: f64,
    omega: f64,
    v: Vec<f64>,
    f: Vec<f64>,
    fmax: f64,
    fmin: f64,
    area: f64,
    energy: f64,
    passivity_residual: f64,
    converged: bool,
}

/// Runs the hysteresis experiment of a query string (strict: any bad key is a JS `Error`
/// naming it) and returns `{query, loops: [{freq, omega, v, f, fmax, fmin, area, energy,
/// passivity_residual, converged}]}`.
///
/// No page code calls it: the page goes through [`Lab`], which spreads the work over animation
/// frames. It stays because the e2e suite (`tests/e2e/page.test.js`) checks the page's read-out
/// against it: the core's numbers for the same link, by a path that shares none of `Lab`'s.
#[wasm_bindgen(js_name = hysteresisLoops)]
pub fn hysteresis_loops(query: &str) -> Result<JsValue, JsError> {
    let s = Scenario::parse(query).map_err(|e| js_error(&e))?;
    let cfg = s.hysteresis_config().map_err(|e| js_error(&[e]))?;
    let loops: Vec<LoopOut> = hysteresis::run(&cfg)
        .into_iter()
        .map(|l| LoopOut {
            freq: l.freq,
            omega: l.omega,
            fmax: l.metrics.fmax,
            fmin: l.metrics.fmin,
            area: l.metrics.area,
            energy: l.metrics.energy,
            passivity_residual: l.metrics.passivity_residual,
            converged: l.converged,
            v: l.v,
            f: l.f,
        })
        .collect();
    #[derive(Serialize)]
    struct Out {
        query: String,
        loops: Vec<LoopOut>,
    }
    Ok(to_js(&Out {
        query: s.to_query(),
        loops,
    }))
}

/// Parses a query string leniently and returns `{query, errors: [{key, value, reason,
/// message}]}`: the canonical query of what applies, and one entry per rejected key.
#[wasm_bindgen(js_name = checkQuery)]
pub fn check_query(query: &str) -> JsValue {
    let (s, errs) = Scenario::parse_lenient(query);
    #[derive(Serialize)]
    struct Out {
        query: String,
        errors: Vec<JsParamError>,
    }
    to_js(&Out {
        query: s.to_query(),
        errors: errs.iter().map(JsParamError::from).collect(),
    })
}

#[derive(Serialize)]
struct ModelOut {
    id: &'static str,
    name: &'static str,
    /// The name as a list of models shows it (with "provisional" where the model is).
    label: String,
    /// The name without its provisional suffix, where a note says it instead.
    base_name: &'static str,
    category: &'static str,
    provisional: bool,
    /// "<base name>: provisional — …" for a provisional model, `null` otherwise.
    note: Option<String>,
}

/// Every registered model in `--list-models` order: `[{id, name, label, base_name, category,
/// provisional, note}]`, the texts from `friction_core::model::ModelInfo`'s one rule for
/// provisional models.
#[wasm_bindgen(js_name = modelList)]
pub fn model_list() -> JsValue {
    let out: Vec<ModelOut> = friction_core::registry::registry()
        .map(|e| ModelOut {
            id: e.info.id,
            name: e.info.name,
            label: e.info.label(),
            base_name: e.info.base_name(),
            category: e.info.category.as_str(),
            provisional: e.info.provisional,
            note: e.info.provisional_note(),
        })
        .collect();
    to_js(&out)
}

#[derive(Serialize)]
struct PresetOut {
    id: &'static str,
    label: &'static str,
    name: String,
    description: String,
    query: Vec<(&'static str, String)>,
}

/// The ready-made settings `view` offers (the explorer's composite paper figures): `{heading,
/// presets: [{id, label, name, description, query: [\[key, value\]]}]}`, or `null` for a view
/// without any. Defined by the core next to the view, so the CLI can list the same ones.
#[wasm_bindgen]
pub fn presets(view: &str) -> JsValue {
    #[derive(Serialize)]
    struct Out {
        heading: &'static str,
        presets: Vec<PresetOut>,
    }
    let Some(p) = friction_core::views::find(view).and_then(|v| v.presets) else {
        return JsValue::NULL;
    };
    let presets = (p.list)()
        .into_iter()
        .map(|p| PresetOut {
            id: p.id,
            label: p.label,
            name: p.name,
            description: p.description,
            query: p.query,
        })
        .collect();
    to_js(&Out {
        heading: p.heading,
        presets,
    })
}

/// Plain words for jargon: `[[term, meaning]]` (`friction_core::views::lessons::GLOSSARY`).
#[wasm_bindgen]
pub fn glossary() -> JsValue {
    to_js(&friction_core::views::lessons::GLOSSARY)
}

/// The criterion of each phenomena-matrix column, in words, in column order.
#[wasm_bindgen(js_name = phenomenaCriteria)]
pub fn phenomena_criteria() -> JsValue {
    to_js(&friction_core::experiments::phenomena::CRITERIA)
}

/// Text of the switch that shows the form (5) in place of the rheological inputs.
#[wasm_bindgen(js_name = sigmaToggleText)]
pub fn sigma_toggle_text() -> String {
    friction_core::scenario::SIGMA_TOGGLE.into()
}

#[cfg(feature = "full")]
#[derive(Serialize)]
struct PhenomenaOut {
    id: &'static str,
    /// The name without its provisional suffix: the row's flag column says it.
    name: &'static str,
    provisional: bool,
    /// "1", "0", "not run" per phenomenon, or empty when not computed on the page.
    flags: Vec<&'static str>,
    /// The provisional flag text for a provisional model, empty otherwise.
    flag: &'static str,
    note: Option<String>,
}

/// The names of the views this module serves: those it runs, then those that run outside the
/// core's views, which every module shows (the fit workspace). `www/index.html` names the first
/// module's, so that its loader picks the right module for a link before either is loaded; the
/// e2e tests compare.
#[wasm_bindgen(js_name = viewsInBuild)]
pub fn views_in_build() -> Vec<String> {
    let outside = friction_core::views::CATALOG
        .iter()
        .filter(|v| v.runs_outside())
        .map(|v| v.name);
    friction_core::views::ALL
        .iter()
        .map(|v| v.name)
        .chain(outside)
        .map(str::to_string)
        .collect()
}

/// Whether view `name` runs only in the page's second module (`friction-web-full`): this module
/// leaves it out, and the page fetches that one before it switches to the view. `false` for a
/// view this module runs and for a name that is no view (the scenario then explains).
#[wasm_bindgen(js_name = viewNeedsFull)]
pub fn view_needs_full(name: &str) -> bool {
    friction_core::views::left_out(name)
}

/// Whether the link `query` (its last `view=` value) names a view only the second module runs.
#[wasm_bindgen(js_name = linkNeedsFull)]
pub fn link_needs_full(query: &str) -> bool {
    friction_core::scenario::query::pairs(query)
        .into_iter()
        .rfind(|(k, _)| k == "view")
        .is_some_and(|(_, v)| friction_core::views::left_out(v.trim()))
}

/// Whether view `name` runs outside the core's views (the fit workspace, `view=fit`): the page
/// shows it in place of the plot and controls, and keeps its `Lab` on the view it had.
#[wasm_bindgen(js_name = viewRunsOutside)]
pub fn view_runs_outside(name: &str) -> bool {
    friction_core::views::catalog(name.trim()).is_some_and(|v| v.runs_outside())
}

/// The view the link `query` names (its last `view=` value) when that view runs outside the
/// core's views, else an empty string.
#[wasm_bindgen(js_name = outsideView)]
pub fn outside_view(query: &str) -> String {
    friction_core::scenario::query::pairs(query)
        .into_iter()
        .rfind(|(k, _)| k == "view")
        .map(|(_, v)| v.trim().to_string())
        .filter(|v| view_runs_outside(v))
        .unwrap_or_default()
}

/// Links that open a model with its values (`model=lugre&mus=0.3&…`, a fit's result) in every
/// view that takes registry models: `[{view, title, query}]`, `query` a whole link query
/// (`friction_core::scenario::model_links`: keys a view derives itself left out).
#[wasm_bindgen(js_name = modelViewLinks)]
pub fn model_view_links(model_query: &str) -> JsValue {
    #[derive(Serialize)]
    struct Link {
        view: &'static str,
        title: &'static str,
        query: String,
    }
    let out: Vec<Link> = friction_core::scenario::model_links(model_query)
        .into_iter()
        .map(|(v, query)| Link {
            view: v.name,
            title: v.title,
            query,
        })
        .collect();
    to_js(&out)
}

/// Column names of the phenomena matrix.
#[wasm_bindgen(js_name = phenomenaColumns)]
pub fn phenomena_columns() -> JsValue {
    to_js(&friction_core::experiments::phenomena::PHENOMENA)
}

/// One row of the phenomena matrix (default parameters; stick-slip from the 40 s benchmark):
/// `{id, name, provisional, flags, flag, note}`. One row takes up to ~0.25 s natively (bristle), so the page asks
/// for one row per frame and caches them.
#[cfg(feature = "full")]
#[wasm_bindgen(js_name = phenomenaRow)]
pub fn phenomena_row(id: &str) -> Result<JsValue, JsError> {
    use friction_core::experiments::{bench_view, phenomena};
    let e = friction_core::registry::find(id)
        .ok_or_else(|| JsError::new(&format!("unknown model id \"{id}\"")))?;
    let mut out = PhenomenaOut {
        id: e.info.id,
        name: e.info.base_name(),
        provisional: e.info.provisional,
        flags: Vec::new(),
        flag: if e.info.provisional { PROVISIONAL } else { "" },
        note: None,
    };
    let m = phenomena::matrix([e], Some(&bench_view::stick_slip_hook));
    match m.row(e.info.id) {
        Some(p) => out.flags = p.flags().iter().map(|f| f.as_str()).collect(),
        None => out.note = Some("does not build with its defaults".into()),
    }
    Ok(to_js(&out))
}

#[cfg(all(test, target_arch = "wasm32"))]
mod tests {
    use wasm_bindgen_test::*;

    wasm_bindgen_test_configure!(run_in_browser);

    #[wasm_bindgen_test]
    fn a_number_measured_by_its_characters_is_as_wide_as_measured_whole() {
        for font in [
            "normal 12px sans-serif",
            "normal 24px sans-serif",
            "bold 15px sans-serif",
        ] {
            for label in [
                "-0.05",
                "12345",
                "−2.5e-3",
                "1.5×10⁻³",
                "0",
                "100 000",
                "+7.25",
            ] {
                let whole = super::measure_box(font, label).expect("measured").0;
                let summed: f64 = label
                    .chars()
                    .map(|c| super::glyph(font, c).expect("measured").0)
                    .sum();
                assert!(
                    (whole - summed).abs() < 0.5,
                    "{font} {label:?}: whole {whole}, by characters {summed}"
                );
            }
        }
    }
}
