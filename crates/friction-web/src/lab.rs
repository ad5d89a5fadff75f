//! `Lab`: one page's scenario, its computation spread over animation frames, and its plot.
//!
//! The page only wires DOM events to [`Lab::set`] and calls [`Lab::frame`] from
//! `requestAnimationFrame`; every key, label, range, default and number shown comes from the core.

use friction_core::experiments::bench_view::{self, BenchModel};
use friction_core::experiments::curve::{self, CurveResult};
use friction_core::experiments::hysteresis::{HysteresisConfig, HysteresisRun, Loop};
use friction_core::experiments::relaxation::{self, Curve, RelaxationConfig};
use friction_core::experiments::robot_arm::{Arm, RobotPieces, RobotRun};
use friction_core::experiments::stickslip::{Bench, BenchRun, StickSlipRun, Workspace};
use friction_core::frbd::Frbd;
use friction_core::params::{fmt_num, ParamError};
use friction_core::scenario::{ControlKind, Scenario, View};
use friction_plot::curve::curve_chart;
use friction_plot::figure::shared_legend;
use friction_plot::frbd::{hysteresis_chart, relaxation_chart};
use friction_plot::stickslip::{all_charts_slotted, Slotted};
use friction_plot::{make_legend_room, stable_range, ChartSpec, Series, PALETTE};
use serde::Serialize;
use wasm_bindgen::prelude::*;
use web_sys::HtmlCanvasElement;

use crate::draw::Surface;
use crate::PROVISIONAL;
use crate::{to_js, JsParamError};

/// Steps integrated between two looks at the clock (≈ 0.05 ms each for the default model).
const STEPS_CHUNK: usize = 400;
/// Solver steps of a stick-slip run between clock checks: a few milliseconds in the browser
/// even for the bristle model (about 5 µs a step there).
const BENCH_CHUNK: usize = 1000;

enum Job {
    Hysteresis {
        cfg: HysteresisConfig,
        run: Box<HysteresisRun>,
        done: bool,
    },
    Relaxation {
        cfg: RelaxationConfig,
        curves: Vec<Curve>,
    },
    /// The curve/explorer views: one model's curve per unit of work (state models settle at
    /// every velocity, which can take long), so the page paints between models.
    Curve {
        values: Vec<f64>,
        models: Vec<Box<dyn friction_core::model::FrictionModel>>,
        result: Box<CurveResult>,
    },
    /// The stick-slip benchmark, advanced [`BENCH_CHUNK`] solver steps at a time (a long
    /// `tend` with a switching model takes seconds); wall times are measured here, the core
    /// has no clock.
    StickSlip {
        bench: Bench,
        models: Vec<BenchModel>,
        ws: Box<Workspace>,
        /// The run in progress and the compute time spent on it so far \[ms\].
        current: Option<Box<(BenchRun, f64)>>,
        /// (index into `models`, run, wall time in ms: the compute time of its pieces) per
        /// finished model; a run stopped at its step budget is kept up to the stop, a model
        /// that failed with nothing to show has no entry.
        runs: Vec<(usize, StickSlipRun, f64)>,
        /// Why runs stopped early, one message per model.
        errors: Vec<String>,
        /// The model being computed (or `models.len()` when all are done).
        next: usize,
    },
    /// The robot-arm loop, advanced in pieces like the stick-slip runs.
    Robot {
        arm: Arm,
        model: Box<Frbd>,
        /// The run in progress, advanced [`BENCH_CHUNK`] steps at a time.
        pieces: Option<Box<RobotPieces>>,
        run: Option<Box<RobotRun>>,
        error: Option<String>,
    },
    Failed(String),
}

impl Job {
    fn new(s: &Scenario) -> Job {
        match s.view() {
            View::Hysteresis => match s.hysteresis_config() {
                Ok(cfg) => Job::Hysteresis {
                    run: Box::new(HysteresisRun::new(&cfg)),
                    cfg,
                    done: false,
                },
                Err(e) => Job::Failed(e.to_string()),
            },
            View::Relaxation => match s.relaxation_config() {
                Ok(cfg) => Job::Relaxation {
                    cfg,
                    curves: Vec::new(),
                },
                Err(e) => Job::Failed(e.to_string()),
            },
            // generic views: the same call the CLI makes (view values in ViewDef order)
            View::Robot => match s.robot_config() {
                Ok((arm, model)) => Job::Robot {
                    arm,
                    model: Box::new(model),
                    pieces: None,
                    run: None,
                    error: None,
                },
                Err(e) => Job::Failed(e.to_string()),
            },
            View::Model(d) if d.name == "curve" || d.name == "explorer" => {
                let values: Vec<f64> = d
                    .params
                    .iter()
                    .map(|p| s.view_value(p.key).unwrap_or(p.default))
                    .collect();
                // validate the view values once (curve::run checks them) on the first model
                let built = s.build_models().and_then(|m| {
                    let first = m.first().map(|_| 1).unwrap_or(0);
                    curve::run(&values, &m[..first]).map(|r| (m, r))
                });
                match built {
                    Ok((models, mut r)) => {
                        r.blocks.clear();
                        Job::Curve {
                            values,
                            models,
                            result: Box::new(r),
                        }
                    }
                    Err(e) => Job::Failed(e.to_string()),
                }
            }
            View::Model(d) if d.name == "stickslip" => match bench_view::from_scenario(s) {
                Ok((bench, models)) => Job::StickSlip {
                    bench,
                    models,
                    ws: Box::default(),
                    current: None,
                    runs: Vec::new(),
                    errors: Vec::new(),
                    next: 0,
                },
                Err(e) => Job::Failed(e.to_string()),
            },
            View::Model(d) => Job::Failed(format!(
                "view={} is not available on the page in this build",
                d.name
            )),
        }
    }

    fn done(&self) -> bool {
        match self {
            Job::Hysteresis { done, .. } => *done,
            Job::Relaxation { cfg, curves } => curves.len() >= cfg.models.len(),
            Job::StickSlip { models, next, .. } => *next >= models.len(),
            Job::Curve { models, result, .. } => result.blocks.len() >= models.len(),
            Job::Robot { run, error, .. } => run.is_some() || error.is_some(),
            Job::Failed(_) => true,
        }
    }

    /// A count that changes whenever the drawable output does, for jobs whose output grows in
    /// whole pieces (finished stick-slip runs); `None`: redraw every frame.
    fn output_version(&self) -> Option<usize> {
        match self {
            Job::StickSlip { runs, errors, .. } => Some(runs.len() + errors.len()),
            _ => None,
        }
    }

    /// Computes until `budget_ms` has passed (at least one chunk).
    fn advance(&mut self, budget_ms: f64) {
        let t0 = now();
        match self {
            Job::Hysteresis { run, done, .. } => {
                while !*done {
                    *done = run.advance(STEPS_CHUNK);
                    if now() - t0 >= budget_ms {
                        break;
                    }
                }
            }
            Job::Relaxation { cfg, curves } => {
                // relaxation::run is not resumable inside a curve: one curve is the unit of work
                while curves.len() < cfg.models.len() {
                    let one = RelaxationConfig {
                        models: vec![cfg.models[curves.len()].clone()],
                        ..cfg.clone()
                    };
                    curves.extend(relaxation::run(&one));
                    if now() - t0 >= budget_ms {
                        break;
                    }
                }
            }
            Job::StickSlip {
                bench,
                models,
                ws,
                current,
                runs,
                errors,
                next,
            } => {
                while *next < models.len() {
                    let i = *next;
                    let (e, m) = &models[i];
                    let t = now();
                    let started = match current.take() {
                        Some(c) => Ok(*c),
                        None => BenchRun::start(ws, bench, m.as_ref()).map(|r| (r, 0.0)),
                    };
                    match started {
                        Ok((mut run, ms)) => match run.advance(ws, m.as_ref(), BENCH_CHUNK) {
                            Ok(Some(r)) => {
                                runs.push((i, r, ms + (now() - t)));
                                *next += 1;
                            }
                            Ok(None) => *current = Some(Box::new((run, ms + (now() - t)))),
                            Err(err) => {
                                // the panels keep what was computed up to the stop (if
                                // anything), and the other models still run
                                if let Some(r) = run.partial(ws) {
                                    runs.push((i, r, ms + (now() - t)));
                                }
                                errors.push(format!("{}: {err}", e.info.name));
                                *next += 1;
                            }
                        },
                        Err(err) => {
                            errors.push(format!("{}: {err}", e.info.name));
                            *next += 1;
                        }
                    }
                    if now() - t0 >= budget_ms {
                        break;
                    }
                }
            }
            Job::Curve {
                values,
                models,
                result,
            } => {
                while result.blocks.len() < models.len() {
                    let i = result.blocks.len();
                    match curve::run(values, &models[i..=i]) {
                        Ok(r) => result.blocks.extend(r.blocks),
                        // validated in Job::new: cannot fail here; stop rather than loop
                        Err(_) => break,
                    }
                    if now() - t0 >= budget_ms {
                        break;
                    }
                }
            }
            Job::Robot {
                arm,
                model,
                pieces,
                run,
                error,
            } => {
                while run.is_none() && error.is_none() {
                    let mut p = match pieces.take() {
                        Some(p) => p,
                        None => match RobotPieces::start(arm, model) {
                            Ok(p) => Box::new(p),
                            Err(e) => {
                                *error = Some(e.to_string());
                                break;
                            }
                        },
                    };
                    match p.advance(BENCH_CHUNK) {
                        Ok(Some(r)) => *run = Some(Box::new(r)),
                        Ok(None) => *pieces = Some(p),
                        Err(e) => {
                            // the message says why it stopped; the panels show how far it got
                            *run = p.partial().map(Box::new);
                            *error = Some(e.to_string());
                        }
                    }
                    if now() - t0 >= budget_ms {
                        break;
                    }
                }
            }
            Job::Failed(_) => {}
        }
    }

    /// The panels of the view: for each, the chart of what is ready (finished loops, then the
    /// loop being refined) and the legend of what will be there when done. Views with several
    /// panels (e.g. a stick-slip benchmark) return one entry per panel.
    fn panels(&self) -> Vec<(ChartSpec, Vec<Series>)> {
        if let Job::StickSlip { models, runs, .. } = self {
            if runs.is_empty() {
                return Vec::new();
            }
            let names: Vec<&str> = models.iter().map(|(e, _)| e.info.name).collect();
            let shorts = short_names(&names);
            // each curve keeps its model's slot, so colours match the legend below
            let labelled: Vec<Slotted<'_>> = runs
                .iter()
                .map(|(i, r, _)| (*i, shorts[*i].as_str(), r))
                .collect();
            // the legend lists every selected model, also those still running
            let legend: Vec<Series> = models
                .iter()
                .enumerate()
                .map(|(i, _)| Series {
                    label: shorts[i].clone(),
                    color: PALETTE[i % PALETTE.len()],
                    points: Vec::new(),
                    dashed: false,
                })
                .collect();
            return all_charts_slotted(&labelled)
                .into_iter()
                .map(|c| (c, legend.clone()))
                .collect();
        }
        if let Job::Robot { run, .. } = self {
            let Some(r) = run else {
                return Vec::new();
            };
            return friction_plot::robot::all_charts(r)
                .into_iter()
                .map(|c| {
                    let legend = c.series.iter().map(empty).collect();
                    (c, legend)
                })
                .collect();
        }
        self.chart().into_iter().collect()
    }

    /// The chart of a one-panel view and its legend.
    fn chart(&self) -> Option<(ChartSpec, Vec<Series>)> {
        match self {
            Job::Hysteresis { cfg, run, done } => {
                let mut loops: Vec<Loop> = run.loops().to_vec();
                if !done {
                    loops.extend(run.current());
                }
                let spec = hysteresis_chart(cfg, &loops);
                let mut legend: Vec<Series> = cfg
                    .freqs
                    .iter()
                    .enumerate()
                    .map(|(i, f)| Series {
                        label: format!("{} {}", fmt_num(*f), cfg.unit.label()),
                        color: PALETTE[i % PALETTE.len()],
                        points: Vec::new(),
                        dashed: false,
                    })
                    .collect();
                legend.extend(spec.series.iter().filter(|s| s.dashed).map(empty));
                Some((spec, legend))
            }
            Job::Relaxation { cfg, curves } => {
                if curves.is_empty() {
                    return None;
                }
                let spec = relaxation_chart(curves);
                let mut legend: Vec<Series> = cfg
                    .models
                    .iter()
                    .enumerate()
                    .map(|(i, (label, _))| Series {
                        label: label.clone(),
                        color: PALETTE[i % PALETTE.len()],
                        points: Vec::new(),
                        dashed: false,
                    })
                    .collect();
                legend.extend(spec.series.iter().filter(|s| s.dashed).map(empty));
                Some((spec, legend))
            }
            Job::Curve { models, result, .. } => {
                if result.blocks.is_empty() {
                    return None;
                }
                let spec = curve_chart(result);
                // every selected model in the legend, also those still computing
                let legend = models
                    .iter()
                    .enumerate()
                    .map(|(i, m)| Series {
                        // the same label friction_plot::curve gives the series
                        label: if m.info().provisional && !m.info().name.contains("provisional") {
                            format!("{} (provisional)", m.info().name)
                        } else {
                            m.info().name.to_string()
                        },
                        color: PALETTE[i % PALETTE.len()],
                        points: Vec::new(),
                        dashed: false,
                    })
                    .collect();
                Some((spec, legend))
            }
            // several panels each, built by `panels`
            Job::StickSlip { .. } | Job::Robot { .. } | Job::Failed(_) => None,
        }
    }
}

/// Short legend label for the six small stick-slip panels: the name before its citation
/// ("LuGre (Canudas de Wit et al. 1995)" → "LuGre"), keeping the provisional mark.
/// Legend labels for the selected models: each name up to its first " (" or ", " (where the
/// authors and year or the variant begin), longer where that would give two selected models
/// the same label (Bliman & Sorine first and second order: "…, first order"), and " (prov.)"
/// for provisional models.
fn short_names(names: &[&str]) -> Vec<String> {
    let cut = |name: &str, seps: &[&str]| -> String {
        let base = base_name(name);
        let end = seps
            .iter()
            .filter_map(|p| base.find(p))
            .min()
            .unwrap_or(base.len());
        let mut s = base[..end].to_string();
        if base.len() != name.len() {
            s.push_str(" (prov.)");
        }
        s
    };
    let levels: [&[&str]; 3] = [&[" (", ", "], &[" ("], &[]];
    let mut labels: Vec<String> = names.iter().map(|n| cut(n, levels[0])).collect();
    for seps in &levels[1..] {
        let clash: Vec<bool> = (0..labels.len())
            .map(|i| (0..labels.len()).any(|j| j != i && labels[j] == labels[i]))
            .collect();
        for (i, _) in clash.iter().enumerate().filter(|(_, c)| **c) {
            labels[i] = cut(names[i], seps);
        }
    }
    labels
}

/// A registry name without its " — provisional" suffix (the flag text follows it).
fn base_name(name: &str) -> &str {
    name.trim_end_matches(" — provisional")
}

fn empty(s: &Series) -> Series {
    Series {
        points: Vec::new(),
        ..s.clone()
    }
}

fn now() -> f64 {
    web_sys::window()
        .and_then(|w| w.performance())
        .map(|p| p.now())
        .unwrap_or(0.0)
}

/// Four significant digits, exponent form outside 1e-3..1e5.
fn sig(x: f64) -> String {
    if !x.is_finite() {
        return "—".into();
    }
    if x == 0.0 {
        return "0".into();
    }
    let a = x.abs();
    if (1e-3..1e5).contains(&a) {
        let d = (3 - a.log10().floor() as i32).clamp(0, 6) as usize;
        format!("{x:.d$}")
    } else {
        format!("{x:.3e}")
    }
}

#[derive(Serialize)]
struct ControlOut {
    key: &'static str,
    label: String,
    unit: &'static str,
    min: f64,
    max: f64,
    log: bool,
    value: String,
    kind: &'static str,
    max_len: usize,
    options: Vec<(&'static str, &'static str)>,
    group: &'static str,
}

#[derive(Serialize)]
struct Status {
    done: bool,
    progress: (usize, usize),
    background: bool,
    error: Option<String>,
}

#[derive(Serialize)]
struct Readout {
    columns: Vec<&'static str>,
    rows: Vec<Vec<String>>,
    notes: Vec<String>,
    summary: String,
}

/// (x range, y range) of one panel.
type Axes = ((f64, f64), (f64, f64));

/// One page's state: the scenario, its computation and its plot.
#[wasm_bindgen]
pub struct Lab {
    scenario: Scenario,
    errors: Vec<ParamError>,
    job: Job,
    surface: Option<Surface>,
    /// Axis ranges per panel, kept while the data stay inside them.
    axes: Vec<Option<Axes>>,
    tighten: bool,
    /// The axes were cleared (a link loaded, a reset, a new view): the finished picture fits
    /// its own data, whatever ranges the partial frames before it kept, so that a link shows
    /// the same axes and legend corner however its computation was spread over frames.
    fit_final: bool,
    /// The overlay shows the final state of the current job.
    drawn_final: bool,
    /// [`Job::output_version`] of the last drawing: a job whose output has not changed since
    /// is not drawn again while it computes (six panels of long runs take a while to draw).
    drawn_output: Option<usize>,
}

#[wasm_bindgen]
impl Lab {
    /// Reads a query string leniently: every bad or unknown key is kept in [`Lab::errors`] and
    /// falls back to its default; the rest applies.
    #[wasm_bindgen(constructor)]
    pub fn new(query: &str) -> Lab {
        let (scenario, errors) = Scenario::parse_lenient(query);
        let job = Job::new(&scenario);
        Lab {
            scenario,
            errors,
            job,
            surface: None,
            axes: Vec::new(),
            tighten: false,
            fit_final: true,
            drawn_final: false,
            drawn_output: None,
        }
    }

    /// The keys rejected when the query string was read: `[{key, value, reason, message}]`.
    pub fn errors(&self) -> JsValue {
        to_js(
            &self
                .errors
                .iter()
                .map(JsParamError::from)
                .collect::<Vec<_>>(),
        )
    }

    /// Controls of the current view and model, in order: `[{key, label, unit, min, max, log,
    /// value, kind: "number"|"list"|"choice", max_len, options: [\[value, label\]], group}]`.
    pub fn controls(&self) -> JsValue {
        let out: Vec<ControlOut> = self
            .scenario
            .controls()
            .into_iter()
            .map(|c| {
                let (kind, max_len, options) = match c.kind {
                    ControlKind::Number => ("number", 1, Vec::new()),
                    ControlKind::List { max_len } => ("list", max_len, Vec::new()),
                    ControlKind::Choice { options } => ("choice", 1, options),
                };
                ControlOut {
                    key: c.key,
                    label: c.label,
                    unit: c.unit,
                    min: c.min,
                    max: c.max,
                    log: c.log,
                    value: c.value,
                    kind,
                    max_len,
                    options,
                    group: c.group,
                }
            })
            .collect();
        to_js(&out)
    }

    /// Sets one key from text; a rejected value throws an `Error` naming the key, the value and
    /// the allowed range, and leaves everything unchanged.
    pub fn set(&mut self, key: &str, value: &str) -> Result<(), JsError> {
        let before = self.scenario.clone();
        self.scenario
            .set(key, value)
            .map_err(|e| JsError::new(&e.to_string()))?;
        if self.scenario != before {
            // a new view starts from fresh axes; a changed value inside one is the user's
            // interaction, where the axes stay put
            self.fit_final = self.scenario.view() != before.view();
            if self.fit_final {
                self.axes.clear();
            }
            self.job = Job::new(&self.scenario);
            self.invalidate();
        }
        Ok(())
    }

    /// Current value of a key as text (`undefined` when it does not apply).
    pub fn get(&self, key: &str) -> Option<String> {
        self.scenario.get(key)
    }

    /// The canonical query string (`v=1`, defaults omitted, floats round-trip).
    pub fn query(&self) -> String {
        self.scenario.to_query()
    }

    /// Name of the current view (`hysteresis`, `relaxation`).
    pub fn view(&self) -> String {
        self.scenario.view().name().into()
    }

    /// Human title of the current view.
    #[wasm_bindgen(js_name = viewTitle)]
    pub fn view_title(&self) -> String {
        self.scenario.view().title().into()
    }

    /// Binds the plot to a background and an overlay canvas of the same CSS size.
    pub fn attach(&mut self, bg: HtmlCanvasElement, fg: HtmlCanvasElement) -> Result<(), JsError> {
        self.surface = Some(Surface::new(bg, fg)?);
        self.invalidate();
        Ok(())
    }

    /// The canvases changed size: the next frame redraws.
    pub fn resized(&mut self) {
        self.invalidate();
    }

    /// A control was released or committed: the next frame may also shrink the axes to the data.
    pub fn commit(&mut self) {
        self.tighten = true;
        self.invalidate();
    }

    /// Whether the next [`Lab::frame`] has anything to do.
    #[wasm_bindgen(js_name = needsFrame)]
    pub fn needs_frame(&self) -> bool {
        !self.drawn_final
    }

    /// The next frame redraws everything.
    fn invalidate(&mut self) {
        self.drawn_final = false;
        self.drawn_output = None;
    }

    /// Computes for up to `budget_ms`, then draws what is ready. Returns `{done, progress:
    /// \[finished, total\], background, error}`; call again next frame while `done` is false.
    pub fn frame(&mut self, budget_ms: f64) -> Result<JsValue, JsError> {
        if !self.job.done() {
            self.job.advance(budget_ms);
        }
        let done = self.job.done();
        let mut background = false;
        let version = self.job.output_version();
        let changed = done || version.is_none() || version != self.drawn_output;
        let panels = if changed {
            self.job.panels()
        } else {
            Vec::new()
        };
        if let (Some(surface), false) = (self.surface.as_mut(), panels.is_empty()) {
            self.drawn_output = version;
            let tighten = self.tighten && done;
            if self.fit_final && done {
                self.axes.clear();
                self.fit_final = false;
            }
            self.axes.resize(panels.len(), None);
            let legends: Vec<&[Series]> = panels.iter().map(|(_, l)| l.as_slice()).collect();
            let shared = shared_legend(&legends);
            let frames: Vec<ChartSpec> = panels
                .iter()
                .zip(self.axes.iter_mut())
                .map(|((spec, legend), axes)| {
                    let (xlo, xhi, ylo, yhi) = data_bounds(&spec.series);
                    let x = if spec.x_log {
                        spec.x_range
                    } else {
                        stable_range(axes.map(|a| a.0), xlo, xhi, tighten)
                    };
                    let y = stable_range(axes.map(|a| a.1), ylo, yhi, tighten);
                    // the frame draws only the legend entries; their data only steer the
                    // legend corner
                    let series = legend
                        .iter()
                        .map(|l| {
                            let mut l = l.clone();
                            if let Some(d) = spec.series.iter().find(|s| s.label == l.label) {
                                l.points.clone_from(&d.points);
                            }
                            l
                        })
                        .collect();
                    let mut frame = ChartSpec {
                        x_range: x,
                        y_range: y,
                        series,
                        ..spec.clone()
                    };
                    // adds room only while the legend would cover data, so a kept range
                    // (which already has the room) does not move; a shared legend sits above
                    // the panels and needs none
                    if shared.is_none() {
                        make_legend_room(&mut frame);
                    }
                    *axes = Some((x, frame.y_range));
                    frame
                })
                .collect();
            if tighten {
                self.tighten = false;
            }
            let list: Vec<(&ChartSpec, &[Series])> = frames
                .iter()
                .zip(&panels)
                .map(|(f, (spec, _))| (f, spec.series.as_slice()))
                .collect();
            background = surface.draw_panels(&list, shared.as_deref())?;
        }
        self.drawn_final = done;
        let progress = match &self.job {
            Job::Hysteresis { run, .. } => run.progress(),
            Job::Relaxation { cfg, curves } => (curves.len(), cfg.models.len()),
            Job::Curve { models, result, .. } => (result.blocks.len(), models.len()),
            Job::StickSlip { models, next, .. } => (*next, models.len()),
            Job::Robot { run, .. } => (usize::from(run.is_some()), 1),
            Job::Failed(_) => (0, 0),
        };
        let error = match &self.job {
            Job::Failed(e) => Some(e.clone()),
            Job::StickSlip { errors, .. } if !errors.is_empty() => Some(errors.join(" ")),
            Job::Robot { error, .. } => error.clone(),
            _ => None,
        };
        Ok(to_js(&Status {
            done,
            progress,
            background,
            error,
        }))
    }

    /// The numbers next to the plot, computed by the core: `{columns, rows, notes, summary}`
    /// (rows of text cells, one per finished loop or curve; `summary` is one sentence for the
    /// live region).
    pub fn readout(&self) -> JsValue {
        let r = match &self.job {
            Job::Hysteresis { cfg, run, .. } => {
                let mut notes = Vec::new();
                let rows: Vec<Vec<String>> = run
                    .loops()
                    .iter()
                    .map(|l| {
                        let m = &l.metrics;
                        if !l.converged {
                            notes.push(format!(
                                "{} {}: not periodic to tolerance after {} cycles",
                                fmt_num(l.freq),
                                cfg.unit.label(),
                                m.cycles
                            ));
                        }
                        vec![
                            format!("{} {}", fmt_num(l.freq), cfg.unit.label()),
                            sig(m.fmax),
                            sig(m.fmin),
                            sig(m.area),
                            sig(m.energy),
                            sig(m.passivity_residual),
                        ]
                    })
                    .collect();
                let summary = rows
                    .iter()
                    .map(|r| {
                        format!(
                            "At {}: peak F {} N, min F {} N, loop area {} N·m/s, energy per \
                             cycle {} J, passivity residual {} J.",
                            r[0], r[1], r[2], r[3], r[4], r[5]
                        )
                    })
                    .collect::<Vec<_>>()
                    .join(" ");
                Readout {
                    columns: vec![
                        "frequency",
                        "peak F [N]",
                        "min F [N]",
                        "loop area ∮F dv [N·m/s]",
                        "energy per cycle [J]",
                        "passivity residual [J]",
                    ],
                    rows,
                    notes,
                    summary,
                }
            }
            Job::Relaxation { curves, .. } => {
                let rows: Vec<Vec<String>> = curves
                    .iter()
                    .map(|c| {
                        let first = c.f.first().copied().unwrap_or(f64::NAN);
                        let last = c.f.last().copied().unwrap_or(f64::NAN);
                        vec![c.label.clone(), sig(first), sig(last), sig(c.steady)]
                    })
                    .collect();
                let summary = rows
                    .iter()
                    .map(|r| {
                        format!(
                            "{}: F starts at {} N and reaches {} N; steady state {} N.",
                            r[0], r[1], r[2], r[3]
                        )
                    })
                    .collect::<Vec<_>>()
                    .join(" ");
                Readout {
                    columns: vec![
                        "model",
                        "F at first sample [N]",
                        "F at t_end [N]",
                        "steady state [N]",
                    ],
                    rows,
                    notes: Vec::new(),
                    summary,
                }
            }
            Job::Curve { result, .. } => {
                let rows: Vec<Vec<String>> = result
                    .blocks
                    .iter()
                    .map(|b| {
                        let fs = b.points.iter().map(|p| p.1).filter(|f| f.is_finite());
                        let lo = fs.clone().fold(f64::INFINITY, f64::min);
                        let hi = fs.fold(f64::NEG_INFINITY, f64::max);
                        vec![b.name.to_string(), sig(lo), sig(hi)]
                    })
                    .collect();
                let summary = rows
                    .iter()
                    .map(|r| format!("{}: F from {} N to {} N.", r[0], r[1], r[2]))
                    .collect::<Vec<_>>()
                    .join(" ");
                let notes = result
                    .blocks
                    .iter()
                    .filter(|b| b.provisional)
                    .map(|b| format!("{}: {PROVISIONAL}", base_name(b.name)))
                    .collect();
                Readout {
                    columns: vec!["model", "min F [N]", "max F [N]"],
                    rows,
                    notes,
                    summary,
                }
            }
            Job::StickSlip {
                models,
                runs,
                errors,
                ..
            } => {
                let rows: Vec<Vec<String>> = runs
                    .iter()
                    .map(|(i, r, ms)| {
                        let e = models[*i].0;
                        let m = r.metrics();
                        vec![
                            e.info.name.to_string(),
                            sig(m.breakaway_time),
                            sig(m.breakaway_force),
                            sig(m.x_min),
                            sig(m.x_max),
                            sig(m.period),
                            m.steps.to_string(),
                            sig(*ms),
                        ]
                    })
                    .collect();
                let summary = rows
                    .iter()
                    .map(|r| {
                        format!(
                            "{}: breakaway at {} s with {} N; x between {} and {} m; period {} s;                              {} steps in {} ms.",
                            r[0], r[1], r[2], r[3], r[4], r[5], r[6], r[7]
                        )
                    })
                    .collect::<Vec<_>>()
                    .join(" ");
                let mut notes: Vec<String> = models
                    .iter()
                    .filter(|(e, _)| e.info.provisional)
                    .map(|(e, _)| format!("{}: {PROVISIONAL}", base_name(e.info.name)))
                    .collect();
                notes.extend(errors.iter().cloned());
                Readout {
                    columns: vec![
                        "model",
                        "breakaway time [s]",
                        "breakaway force −F [N]",
                        "x min (after 1st max) [m]",
                        "x max [m]",
                        "period (last cycle) [s]",
                        "steps",
                        "wall time in this browser [ms]",
                    ],
                    rows,
                    notes,
                    summary,
                }
            }
            Job::Robot {
                arm, run, error, ..
            } => robot_readout(arm, run.as_deref(), error.as_deref()),
            Job::Failed(e) => Readout {
                columns: Vec::new(),
                rows: Vec::new(),
                notes: vec![e.clone()],
                summary: e.clone(),
            },
        };
        to_js(&r)
    }

    /// Back to the paper defaults of the current view, keeping the view and its model choice.
    pub fn reset(&mut self) {
        let mut q = format!("v=1&view={}", self.scenario.view().name());
        if let Some(m) = self.scenario.get("model") {
            q.push_str("&model=");
            q.push_str(&m);
        }
        let (s, _) = Scenario::parse_lenient(&q);
        self.scenario = s;
        self.job = Job::new(&self.scenario);
        self.axes.clear();
        self.fit_final = true;
        self.invalidate();
    }

    /// Stick-slip view: run times in this browser next to the thesis' MATLAB times,
    /// `{caption, columns, rows}` (empty rows in other views). One row per model of Table 6.5;
    /// "this browser" is filled for the models of the current run.
    pub fn timings(&self) -> JsValue {
        #[derive(Serialize)]
        struct Out {
            caption: &'static str,
            columns: Vec<&'static str>,
            rows: Vec<Vec<String>>,
        }
        let mut rows = Vec::new();
        if let Job::StickSlip {
            models,
            runs,
            bench,
            ..
        } = &self.job
        {
            // a run stopped at its step budget has no run time to compare
            let time_text = |r: &StickSlipRun, ms: f64| match r.t.last() {
                Some(&t) if t < bench.tend => format!("stopped at t = {} s", sig(t)),
                _ => sig(ms),
            };
            let measured = |id: &str| {
                runs.iter()
                    .find(|(i, _, _)| models[*i].0.info.id == id)
                    .map(|(_, r, ms)| time_text(r, *ms))
            };
            for row in crate::table65::TABLE_6_5 {
                let mut r = vec![row.name.to_string()];
                r.push(measured(row.id).unwrap_or_else(|| "not run".into()));
                for t in row.times {
                    r.push(t.map_or("DNC".to_string(), |t| format!("{t:.4}")));
                }
                rows.push(r);
            }
            for (i, run, ms) in runs {
                let e = models[*i].0;
                if !crate::table65::TABLE_6_5.iter().any(|r| r.id == e.info.id) {
                    let mut r = vec![e.info.name.to_string(), time_text(run, *ms)];
                    r.extend(std::iter::repeat_n("not in Table 6.5".to_string(), 4));
                    rows.push(r);
                }
            }
        }
        to_js(&Out {
            caption: crate::table65::CAPTION,
            columns: vec![
                "model",
                "this browser, 40 s run [ms]",
                "MATLAB ode45 [s]",
                "MATLAB ode15s [s]",
                "MATLAB ode23s [s]",
                "MATLAB ode78 [s]",
            ],
            rows,
        })
    }

    /// The current chart as SVG (the same plotters chart functions, the axes shown on the
    /// page): one chart at `width` × `height`, or every panel of a multi-panel view in the
    /// page's grid (with its shared legend band where the panels have one).
    pub fn svg(&self, width: u32, height: u32) -> Result<String, JsError> {
        let charts: Vec<ChartSpec> = self
            .job
            .panels()
            .into_iter()
            .enumerate()
            .map(|(i, (spec, _))| {
                let axes = self.axes.get(i).copied().flatten();
                ChartSpec {
                    x_range: axes.map_or(spec.x_range, |a| a.0),
                    y_range: axes.map_or(spec.y_range, |a| a.1),
                    ..spec
                }
            })
            .collect();
        if charts.is_empty() {
            return Err(JsError::new("nothing to export yet"));
        }
        friction_plot::figure::figure_svg(&charts, (width.max(100), height.max(100)), (500, 380))
            .map_err(|e| JsError::new(&e.to_string()))
    }
}

/// The robot view's numbers: one row for the run, computed by the core.
fn robot_readout(arm: &Arm, run: Option<&RobotRun>, error: Option<&str>) -> Readout {
    let mut notes: Vec<String> = error.map(str::to_string).into_iter().collect();
    let mut rows = Vec::new();
    let mut summary = error.unwrap_or("Computing…").to_string();
    if let Some(r) = run {
        let m = &r.metrics;
        let obs = if arm.observer { "on" } else { "off" };
        let settle = if m.settling_time.is_finite() {
            sig(m.settling_time)
        } else {
            "not settled".to_string()
        };
        rows.push(vec![
            obs.to_string(),
            sig(m.final_error),
            sig(m.max_error),
            sig(m.rms_error_late),
            settle.clone(),
            sig(m.w0),
            sig(m.w_end),
            sig(m.max_torque),
            m.steps.to_string(),
        ]);
        summary = format!(
            "Observer {obs}: final tracking error {} rad, largest {} rad, RMS over the second \
             half {} rad, settling time (2 % band {} rad) {settle}; W falls from {} J to {} J.",
            sig(m.final_error),
            sig(m.max_error),
            sig(m.rms_error_late),
            sig(m.settle_band),
            sig(m.w0),
            sig(m.w_end),
        );
        if let (Some(e), Some(&t)) = (error, r.t.last()) {
            // a run stopped early: its numbers cover [0, t] only
            summary = format!("{e} Shown: the run up to t = {} s. {summary}", sig(t));
        }
        if arm.observer && m.w_max_rise > 1e-7 * m.w0 {
            notes.push(format!(
                "W rose by {} J between two steps: beyond the solver tolerance",
                sig(m.w_max_rise)
            ));
        }
        if !arm.observer {
            notes.push(
                "Observer off: W is reported with the estimate frozen at ẑ₀ and is no Lyapunov \
                 function here."
                    .to_string(),
            );
        }
    }
    notes.push(
        "The letter gives no numbers for this example: every default is this lab's choice."
            .to_string(),
    );
    Readout {
        columns: vec![
            "observer",
            "final |q̃| [rad]",
            "max |q̃| [rad]",
            "RMS q̃, 2nd half [rad]",
            "settling time [s]",
            "W(0) [J]",
            "W(t_end) [J]",
            "max |U| [N·m]",
            "steps",
        ],
        rows,
        notes,
        summary,
    }
}

/// Bounds of all finite points (x ≤ 0 kept: log axes do not use the x bounds).
fn data_bounds(series: &[Series]) -> (f64, f64, f64, f64) {
    let (mut xlo, mut xhi, mut ylo, mut yhi) = (
        f64::INFINITY,
        f64::NEG_INFINITY,
        f64::INFINITY,
        f64::NEG_INFINITY,
    );
    for s in series {
        for &(x, y) in &s.points {
            if x.is_finite() && y.is_finite() {
                xlo = xlo.min(x);
                xhi = xhi.max(x);
                ylo = ylo.min(y);
                yhi = yhi.max(y);
            }
        }
    }
    (xlo, xhi, ylo, yhi)
}

#[cfg(test)]
mod tests {
    use super::{short_names, sig};

    #[cfg(target_arch = "wasm32")]
    wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);

    // run by wasm-bindgen-test in Chromium (scripts/test.sh) and by a native `cargo test`
    #[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
    #[cfg_attr(not(target_arch = "wasm32"), test)]
    fn readout_numbers_have_four_significant_digits() {
        assert_eq!(sig(1.18374432), "1.184");
        assert_eq!(sig(0.0011133587), "0.001113");
        assert_eq!(sig(0.00063636), "6.364e-4");
        assert_eq!(sig(-12.5), "-12.50");
        assert_eq!(sig(0.0), "0");
        assert_eq!(sig(f64::NAN), "—");
    }

    #[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
    #[cfg_attr(not(target_arch = "wasm32"), test)]
    fn legend_labels_are_short_but_tell_the_selected_models_apart() {
        let name = |id| {
            friction_core::registry::find(id)
                .expect("registered")
                .info
                .name
        };
        let (bs1, bs2) = (name("bliman-sorine"), name("bliman-sorine-2"));
        let (lugre, hollars) = (name("lugre"), name("hollars"));
        assert_eq!(
            short_names(&[lugre, bs2, hollars]),
            ["LuGre", "Bliman & Sorine", "Hollars (prov.)"]
        );
        assert_eq!(
            short_names(&[bs1, lugre, bs2]),
            [
                "Bliman & Sorine, first order",
                "LuGre",
                "Bliman & Sorine, second order"
            ]
        );
        // The same model twice: nothing tells them apart, the full name is used.
        assert_eq!(short_names(&[lugre, lugre]), [lugre, lugre]);
    }
}
