//! `Lab`: one page's scenario, its job spread over animation frames, and its plot.
//!
//! The page only wires DOM events to [`Lab::set`] and calls [`Lab::frame`] from
//! `requestAnimationFrame`. What to compute, the numbers and the charts come from the core's job
//! and `friction_plot::panels`; this file runs each frame through the rules of [`policy`] (the
//! wait budget, the deferred first drawing, the axes, the legends) and keeps the canvases.

use friction_core::params::ParamError;
use friction_core::scenario::Scenario;
use friction_plot::{data_bounds, ChartSpec, PlotTransform, Series};
use serde::Serialize;
use std::cell::{Cell, RefCell};
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use web_sys::HtmlCanvasElement;

use crate::draw::Surface;

mod engine;
mod export;
mod painter;
mod plot;
mod policy;
mod remote;
mod snapshot;
mod tools;
mod wire;
mod worker;

pub use painter::Painter;
pub use worker::ViewJob;

use crate::{to_js, JsParamError};
use engine::{Engine, Panels};
use plot::Plot;
use policy::{Axes, DrawDeferral, LegendPlan, StableAxes, FIRST_DRAWING_SLICE_MS};
use remote::{Remote, Request};
use snapshot::Snapshot;
use wire::{ControlOut, JobState, Status, TableOut, TicksOut};

/// How long the main thread computes a job itself when a view worker runs it too \[ms of
/// computing\]: a light job (a slider step of the default view) finishes here and is drawn in
/// the frame of its input, as fast as without a worker; a heavy one goes on growing from the
/// worker's snapshots, and the main thread only draws. Until the worker's first snapshot of the
/// job the main thread goes on (at load the worker is still starting).
pub(crate) const HANDOFF_MS: f64 = 24.0;

thread_local! {
    /// The clock of the page or of the worker (`performance` of either global scope).
    static PERFORMANCE: Option<web_sys::Performance> =
        js_sys::Reflect::get(&js_sys::global(), &"performance".into())
            .ok()
            .and_then(|p| p.dyn_into().ok());
}

/// Milliseconds on `performance.now()`, on the page and in a worker.
pub(crate) fn now() -> f64 {
    PERFORMANCE.with(|p| p.as_ref().map_or(0.0, |p| p.now()))
}

/// Which output was drawn last: the main thread's job (its [`Job::output_version`]) or a
/// snapshot of the worker's (its number).
#[derive(Clone, Copy, Debug, PartialEq)]
enum Drawn {
    Here(Option<usize>),
    Worker(usize),
}

/// The panels shown (the reader's choice of [`Lab::set_panels`] of all), kept per output.
struct Shown {
    all: Rc<Panels>,
    panels: Rc<Panels>,
}

/// One page's state: the scenario, its computation and its plot.
#[wasm_bindgen]
pub struct Lab {
    scenario: Scenario,
    errors: Vec<ParamError>,
    /// The job computed on the main thread: all of it without a view worker, its first
    /// [`HANDOFF_MS`] with one (then `None` once the worker's picture has caught up).
    here: Option<Engine>,
    /// Main-thread computing time of the current job \[ms\].
    here_ms: f64,
    /// The view worker, when the page has one.
    remote: Option<Remote>,
    /// The plot: the page's canvases, or the painter worker's.
    plot: Option<Plot>,
    /// The axis ranges shown, and why they stay put.
    axes: StableAxes,
    /// The overlay shows the final state of the current job.
    drawn_final: bool,
    /// Which frames only draw (a surface's first drawing, left to it by the frame before).
    deferral: DrawDeferral,
    /// The last output drawn: an output that has not changed since is not drawn again while
    /// the job computes (six panels of long runs take a while to draw).
    drawn_output: Option<Drawn>,
    /// The panels shown, built once per output and choice.
    shown: RefCell<Option<Shown>>,
    /// The current job's output was drawn; and the frame that drew it first has not told the
    /// page yet.
    drawn_job: bool,
    first_drawing: Cell<bool>,
    /// The frame left a first drawing, or the rest of one, to the next: the page may call
    /// [`Lab::rehearse`] before it.
    rehearse_due: Cell<bool>,
    /// The panels an embed shows (`panels=`, 0-based, ascending): a lecturer's frame of a few
    /// hundred pixels shows the one chart the lesson is about rather than six unreadable ones.
    /// Dropped when the view changes ([`Lab::set`]).
    panel_choice: Option<Vec<usize>>,
}

#[wasm_bindgen]
impl Lab {
    /// Reads a query string leniently: every bad or unknown key is kept in [`Lab::errors`] and
    /// falls back to its default; the rest applies.
    #[wasm_bindgen(constructor)]
    pub fn new(query: &str) -> Lab {
        let (scenario, errors) = Scenario::parse_lenient(query);
        Lab {
            here: Some(Engine::new(&scenario)),
            here_ms: 0.0,
            remote: None,
            scenario,
            errors,
            plot: None,
            axes: StableAxes::new(),
            drawn_final: false,
            deferral: DrawDeferral::default(),
            drawn_output: None,
            shown: RefCell::new(None),
            drawn_job: false,
            first_drawing: Cell::new(false),
            rehearse_due: Cell::new(false),
            panel_choice: None,
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
    /// integer, value, kind: "number"|"list"|"choice"|"multi", max_len, options: [\[value, label\]],
    /// items, entry, group, group_label, role: ""|"rheo"|"sigma", structural}]` (see
    /// `friction_core::scenario::Control`).
    pub fn controls(&self) -> JsValue {
        let out: Vec<ControlOut> = self
            .scenario
            .controls()
            .into_iter()
            .map(ControlOut::of)
            .collect();
        to_js(&out)
    }

    /// Whether the n = 1 model is given by the form (5) (`sigma0`, `sigma1`, `gamma1`): the page
    /// then starts with those fields shown in place of the rheological ones.
    #[wasm_bindgen(js_name = sigmaForm)]
    pub fn sigma_form(&self) -> bool {
        self.scenario.uses_sigma_form()
    }

    /// Sets one key from text; a rejected value throws an `Error` naming the key, the value and
    /// the allowed range (or the rule it breaks with other values), and leaves everything
    /// unchanged.
    pub fn set(&mut self, key: &str, value: &str) -> Result<(), JsError> {
        let mut errs = self.set_pairs(vec![(key.to_string(), value.to_string())]);
        if errs.is_empty() {
            Ok(())
        } else {
            Err(JsError::new(&errs.remove(0).to_string()))
        }
    }

    /// Sets `keys[i]` to `values[i]` as one change (a preset, several inputs of one frame, the
    /// embed API's `set`): all are applied, then the rules between values are checked against
    /// them together, so their order does not matter (`Scenario::set_all`). Returns `[{key,
    /// value, reason, keys, message}]`, one per key not applied (it keeps its value); the rest
    /// applies.
    #[wasm_bindgen(js_name = setMany)]
    pub fn set_many(&mut self, keys: Vec<String>, values: Vec<String>) -> JsValue {
        let errs = self.set_pairs(keys.into_iter().zip(values).collect());
        to_js(&errs.iter().map(JsParamError::from).collect::<Vec<_>>())
    }

    /// [`Lab::set_many`] for Rust: the errors of the keys not applied.
    fn set_pairs(&mut self, pairs: Vec<(String, String)>) -> Vec<ParamError> {
        let before = self.scenario.clone();
        let errs = self.scenario.set_all(&pairs);
        if self.scenario != before {
            // a new view starts from fresh axes; a changed value inside one is the user's
            // interaction, where the axes stay put
            if self.scenario.view().name != before.view().name {
                self.axes.refit();
                self.panel_choice = None;
            } else {
                self.axes.value_changed();
            }
            self.new_job();
        }
        errs
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
        self.scenario.view().name.into()
    }

    /// Human title of the current view.
    #[wasm_bindgen(js_name = viewTitle)]
    pub fn view_title(&self) -> String {
        self.scenario.view().title.into()
    }

    /// What the current view needs of the page around its plot: `{panels, phenomena}` (the
    /// number of chart panels, whether the phenomena matrix is offered).
    #[wasm_bindgen(js_name = viewLayout)]
    pub fn view_layout(&self) -> JsValue {
        #[derive(Serialize)]
        struct Layout {
            panels: usize,
            phenomena: bool,
        }
        let v = self.scenario.view();
        to_js(&Layout {
            panels: self.chosen().map_or(v.panels, <[usize]>::len),
            phenomena: v.phenomena,
        })
    }

    /// Shows only the panels listed in `list` (1-based, comma-separated, as in `panels=2,5`;
    /// empty: all). A bad list is kept in [`Lab::errors`] with what is allowed, and changes
    /// nothing; returns whether the list applied.
    #[wasm_bindgen(js_name = setPanels)]
    pub fn set_panels(&mut self, list: &str) -> bool {
        let view = self.scenario.view();
        let choice = if list.trim().is_empty() {
            None
        } else {
            match parse_panels(list, view.panels) {
                Ok(c) => Some(c),
                Err(e) => {
                    self.errors.push(e);
                    return false;
                }
            }
        };
        if choice != self.panel_choice {
            self.panel_choice = choice;
            self.forget_panels();
            self.axes.panels_changed();
            self.invalidate();
        }
        true
    }

    /// The chosen panels as `panels=` writes them (`"2,5"`), or empty when all are shown.
    #[wasm_bindgen(js_name = panelChoice)]
    pub fn panel_choice(&self) -> String {
        self.chosen().map_or_else(String::new, |c| {
            c.iter()
                .map(|i| (i + 1).to_string())
                .collect::<Vec<_>>()
                .join(",")
        })
    }

    /// Titles of all the current output's panels, in order (the choices of `panels=`).
    #[wasm_bindgen(js_name = panelTitles)]
    pub fn panel_titles(&self) -> Vec<String> {
        self.all_panels()
            .iter()
            .map(|p| p.0.title.clone())
            .collect()
    }

    /// Keys of the current view's most-used controls, most used first (`ViewDef::key_controls`):
    /// the page shows them above the other groups and a compact embed shows the first three.
    #[wasm_bindgen(js_name = keyControls)]
    pub fn key_controls(&self) -> Vec<String> {
        self.scenario
            .view()
            .key_controls
            .iter()
            .map(|k| k.to_string())
            .collect()
    }

    /// Binds the plot to a background and an overlay canvas of the same CSS size.
    pub fn attach(&mut self, bg: HtmlCanvasElement, fg: HtmlCanvasElement) -> Result<(), JsError> {
        self.plot = Some(Plot::Here(Surface::new(bg, fg)?));
        self.invalidate();
        Ok(())
    }

    /// The plot is drawn by the page's painter worker, on canvases of `css_width` ×
    /// `css_height` CSS px at `dpr` device px per CSS px; the page calls it again when they
    /// change size. Each drawing is then a message ([`Lab::take_paint`]), and the picture is
    /// shown when the painter answers ([`Lab::painted`]).
    #[wasm_bindgen(js_name = usePainter)]
    pub fn use_painter(&mut self, css_width: u16, css_height: u16, dpr: f64) {
        // NaN goes to 1
        let dpr = if dpr >= 1.0 { dpr.min(16.0) } else { 1.0 };
        let css = (i32::from(css_width), i32::from(css_height));
        Plot::use_painter(&mut self.plot, css, dpr);
        self.invalidate();
    }

    /// The drawing to post to the painter worker, `{nums, texts}` (`nums` to transfer), or
    /// `null`.
    #[wasm_bindgen(js_name = takePaint)]
    pub fn take_paint(&mut self) -> JsValue {
        match self.plot.as_mut().and_then(Plot::take_paint) {
            Some(w) => w.to_js(),
            None => JsValue::NULL,
        }
    }

    /// The painter's answer to a drawing (`Painter::paint`): the picture is shown and the plot's
    /// tools read where its panels went. Returns whether it showed a job's output first.
    pub fn painted(&mut self, nums: Vec<f64>) -> Result<bool, JsError> {
        match self.plot.as_mut() {
            Some(p) => p
                .painted(&nums)
                .map_err(|e| JsError::new(&format!("the painter's answer did not read: {e}"))),
            None => Ok(false),
        }
    }

    /// The canvases changed size: the next frame redraws.
    pub fn resized(&mut self) {
        if let Some(Plot::Here(s)) = self.plot.as_mut() {
            s.resized();
        }
        self.invalidate();
    }

    /// Before a first drawing, sizes the canvases to the plot and allocates their pixels
    /// (`Surface::allocate`); the page calls it in a task of its own when the plot changes
    /// size, before the frame that draws.
    #[wasm_bindgen(js_name = fitCanvases)]
    pub fn fit_canvases(&mut self) -> Result<(), JsError> {
        match self.plot.as_mut() {
            Some(Plot::Here(s)) => s.allocate(),
            _ => Ok(()),
        }
    }

    /// Whether the next [`Lab::frame`] has anything to do.
    #[wasm_bindgen(js_name = needsFrame)]
    pub fn needs_frame(&self) -> bool {
        !self.drawn_final
    }

    /// Resumes a job stopped at its time budget where it stopped, with `MORE_BUDGET_MS` more.
    #[wasm_bindgen(js_name = keepComputing)]
    pub fn keep_computing(&mut self) {
        if let Some(e) = self.here.as_mut() {
            if e.keep_computing() {
                self.invalidate();
            }
        } else if let Some(r) = self.remote.as_mut() {
            if let Some(s) = r.snap.as_mut().filter(|s| s.id == r.id && s.state.stopped) {
                // computing again: not done until the worker says so
                s.state.stopped = false;
                s.state.done = false;
                s.state.error = None;
                r.outbox = Some(Request::More { id: r.id });
                self.invalidate();
            }
        }
    }

    /// The chosen panels, if a choice was made.
    fn chosen(&self) -> Option<&[usize]> {
        self.panel_choice.as_deref()
    }

    /// The snapshot shown: the worker's, once the main thread no longer computes the job.
    fn snap(&self) -> Option<&Snapshot> {
        match self.here {
            Some(_) => None,
            None => self.remote.as_ref().and_then(Remote::current),
        }
    }

    /// Every panel of the output shown (the main thread's job or the worker's snapshot of it).
    fn all_panels(&self) -> Rc<Panels> {
        match (&self.here, self.snap()) {
            (Some(e), _) => e.panels(),
            (None, Some(s)) => Rc::clone(&s.panels),
            (None, None) => Rc::default(),
        }
    }

    /// The panels shown: the reader's choice of [`Lab::all_panels`], built once per output.
    pub(crate) fn panels(&self) -> Rc<Panels> {
        let all = self.all_panels();
        let Some(c) = self.chosen().filter(|c| c.iter().any(|&i| i < all.len())) else {
            return all;
        };
        if let Some(s) = self
            .shown
            .borrow()
            .as_ref()
            .filter(|s| Rc::ptr_eq(&s.all, &all))
        {
            return Rc::clone(&s.panels);
        }
        let panels: Rc<Panels> = Rc::new(
            all.iter()
                .enumerate()
                .filter(|(i, _)| c.contains(i))
                .map(|(_, p)| p.clone())
                .collect(),
        );
        self.shown.replace(Some(Shown {
            all,
            panels: Rc::clone(&panels),
        }));
        panels
    }

    /// Drops the panels shown: the choice changed.
    fn forget_panels(&self) {
        self.shown.replace(None);
    }

    /// Replaces the job by the current scenario's, with a fresh budget: computed here, and
    /// asked of the worker when there is one.
    fn new_job(&mut self) {
        self.here = Some(Engine::new(&self.scenario));
        self.here_ms = 0.0;
        self.drawn_job = false;
        if let Some(r) = self.remote.as_mut() {
            r.id = r.id.wrapping_add(1);
            r.cancelled = false;
            r.outbox = Some(Request::Job {
                id: r.id,
                query: self.scenario.to_query(),
                waited_ms: 0.0,
            });
        }
        self.forget_panels();
        self.invalidate();
    }

    /// The next frame redraws everything.
    fn invalidate(&mut self) {
        self.drawn_final = false;
        self.drawn_output = None;
    }

    /// Computes for up to `budget_ms` (with a view worker: the main thread's share of the job
    /// only), then draws what is ready. Returns `{done, progress: \[finished, total\],
    /// background, error, stopped, spent_s, budget_s}`; call again next frame while `done` is
    /// false.
    pub fn frame(&mut self, budget_ms: f64) -> Result<JsValue, JsError> {
        self.hand_over();
        // the final picture is on screen and nothing asked for a redraw (a released slider)
        if self.drawn_final {
            let state = self.shows();
            if state.done {
                return Ok(self.status(state, false));
            }
        }
        let draw_only = self.deferral.draw_only_now();
        let never_drawn = self.plot.as_ref().is_some_and(Plot::never_drawn);
        let (key, first, just_stopped) = match self.here.as_mut() {
            Some(e) => {
                // the main thread's share, and more while the worker has sent nothing of this
                // job (at load it is still starting)
                let waiting = self.remote.as_ref().is_some_and(|r| r.current().is_none());
                let work =
                    !draw_only && (self.remote.is_none() || self.here_ms < HANDOFF_MS || waiting);
                let t0 = now();
                let c = e.compute(budget_ms, work, &now);
                self.here_ms += now() - t0;
                // the panels are built here, once for this output, when a first drawing is
                // deferred
                let first = c.any && never_drawn && !e.panels().is_empty();
                (Drawn::Here(e.output_version()), first, c.just_stopped)
            }
            None => (
                Drawn::Worker(self.remote.as_ref().map_or(0, |r| r.seq)),
                false,
                false,
            ),
        };
        if self
            .deferral
            .defer(first, just_stopped && self.plot.is_some())
        {
            // not done: the picture goes to the next frame
            self.rehearse_due.set(first);
            return Ok(self.status(self.shows().unfinished(), false));
        }
        // a stopped job is finished for the page: its picture is final
        let state = self.shows();
        let done = state.done;
        let mut background = false;
        let changed = done || key == Drawn::Here(None) || Some(key) != self.drawn_output;
        // A job of whole runs (a robot run) has nothing to draw until its first run ends: an
        // input's job shows its run in progress at its first drawing, as the worker's
        // snapshots do 15 ms later, so the input shows in its own frame (issue 39: the robot's
        // input -> shown median was 40-70 ms). Not at load: a surface's first drawing keeps
        // its rehearsal.
        let peek = changed
            && !self.drawn_job
            && self.plot.as_ref().is_some_and(|s| !s.never_drawn())
            && self
                .here
                .as_ref()
                .is_some_and(|e| !e.done() && !e.has_output());
        let peeking = |lab: &mut Lab, on: bool| {
            if let Some(e) = lab.here.as_mut().filter(|_| peek) {
                e.peek(on);
            }
        };
        peeking(self, true);
        let panels = if changed {
            self.panels()
        } else {
            Rc::default()
        };
        // the job computes on in whole runs; the panels built stay as drawn
        peeking(self, false);
        if let (Some(plot), false) = (self.plot.as_mut(), panels.is_empty()) {
            self.drawn_output = Some(key);
            let (frames, plan) = frames_for(&mut self.axes, &panels, done, plot.small());
            let list: Vec<(&ChartSpec, &[Series])> = frames
                .iter()
                .zip(panels.iter())
                .map(|(f, (spec, _))| (f, spec.series.as_slice()))
                .collect();
            let drawing = plot.draw_panels(&list, plan.band(), Some(FIRST_DRAWING_SLICE_MS))?;
            if !self.drawn_job {
                self.drawn_job = true;
                // drawn here: this frame shows it; sent to the painter: its answer does
                if !plot.mark_first() {
                    self.first_drawing.set(true);
                }
            }
            background = drawing.background;
            if !drawing.complete {
                // the rest of the panels in the next frame, which only draws; not done until
                // the picture is whole
                self.drawn_output = None;
                self.deferral.draw_next();
                self.drawn_final = false;
                self.rehearse_due.set(true);
                return Ok(self.status(state.unfinished(), background));
            }
        }
        self.drawn_final = done;
        Ok(self.status(state, background))
    }

    /// Lays out a first drawing still to come (`Surface::rehearse`) for up to
    /// `FIRST_DRAWING_SLICE_MS` (8 ms); returns whether there is more to lay out. The page calls it
    /// in tasks of its own while [`Lab::frame`]'s status says `rehearse`. Nothing it does
    /// changes what is drawn: the axes it lays out with are a copy.
    pub fn rehearse(&mut self) -> Result<bool, JsError> {
        if !self.plot.as_ref().is_some_and(Plot::first_drawing_due) {
            return Ok(false);
        }
        let panels = self.panels();
        if panels.is_empty() {
            return Ok(false);
        }
        let done = self.shows().done;
        let Some(plot) = self.plot.as_mut() else {
            return Ok(false);
        };
        let (frames, plan) = frames_for(&mut self.axes.clone(), &panels, done, plot.small());
        let list: Vec<(&ChartSpec, &[Series])> = frames
            .iter()
            .zip(panels.iter())
            .map(|(f, (spec, _))| (f, spec.series.as_slice()))
            .collect();
        match plot {
            Plot::Here(surface) => surface.rehearse(&list, plan.band(), FIRST_DRAWING_SLICE_MS),
            // the page's side of a painter's first drawing (layout, legend text, the message),
            // run once and dropped: its code compiles here, not in the first drawing's frame
            Plot::Painter(_) => {
                plot.rehearse_paint(&list, plan.band());
                Ok(false)
            }
        }
    }

    /// The state of the job shown: the main thread's, or the worker's snapshot of it.
    fn shows(&self) -> JobState {
        match (&self.here, self.snap()) {
            (Some(e), _) => e.state(),
            (None, Some(s)) => s.state.clone(),
            (None, None) => JobState::waiting(),
        }
    }

    /// What [`Lab::frame`] tells the page.
    fn status(&self, state: JobState, background: bool) -> JsValue {
        to_js(&Status {
            state,
            background,
            first_drawing: self.first_drawing.take(),
            painting: self.plot.as_ref().is_some_and(Plot::painting),
            rehearse: self.rehearse_due.take(),
        })
    }

    /// The numbers next to the plot, computed by the core: `{columns, rows, notes, definitions,
    /// summary}` (`notes` are warnings, `definitions` say what the numbers mean)
    /// (rows of text cells, one per finished loop or curve; `summary` is one sentence for the
    /// live region).
    pub fn readout(&self) -> JsValue {
        match (&self.here, self.snap()) {
            (Some(e), _) => to_js(&e.readout()),
            (None, Some(s)) => to_js(&s.readout),
            (None, None) => to_js(&TableOut::default()),
        }
    }

    /// Back to the paper defaults of the current view, keeping the view and its model choice.
    pub fn reset(&mut self) {
        self.scenario = self.scenario.defaults();
        self.new_job();
        self.axes.refit();
        self.invalidate();
    }

    /// A second table of the view, `{caption, columns, rows}` (empty in views without one): the
    /// stick-slip view's run times in this browser next to the thesis' MATLAB times.
    pub fn timings(&self) -> JsValue {
        match (&self.here, self.snap()) {
            (Some(e), _) => to_js(&e.timings()),
            (None, Some(s)) => to_js(&s.timings),
            (None, None) => to_js(&TableOut::default()),
        }
    }
}

/// Reads a `panels=` list: 1-based panel numbers from 1 to `n`, comma-separated; returns them
/// 0-based, ascending, each once.
fn parse_panels(list: &str, n: usize) -> Result<Vec<usize>, ParamError> {
    let bad = || {
        ParamError::new(
            "panels",
            list,
            format!("not a list of this view's panels: use numbers from 1 to {n}, comma-separated"),
        )
    };
    let mut out = Vec::new();
    for part in list.split(',') {
        let i: usize = part.trim().parse().map_err(|_| bad())?;
        if i == 0 || i > n {
            return Err(bad());
        }
        out.push(i - 1);
    }
    out.sort_unstable();
    out.dedup();
    Ok(out)
}

/// The frames of `panels` as they will be drawn (axes from `axes`, which remember them) and
/// where their legends go.
fn frames_for(
    axes: &mut StableAxes,
    panels: &Panels,
    done: bool,
    small: bool,
) -> (Vec<ChartSpec>, LegendPlan) {
    axes.start_drawing(done, panels.len());
    let legends: Vec<&[Series]> = panels.iter().map(|(_, l)| l.as_slice()).collect();
    let plan = LegendPlan::new(&legends, small);
    let frames = panels
        .iter()
        .enumerate()
        .map(|(i, (spec, legend))| {
            let entries = LegendPlan::entries(legend, spec);
            axes.frame(i, spec, entries, plan.own_legends())
        })
        .collect();
    (frames, plan)
}

#[cfg(test)]
mod tests {
    use friction_core::job::sig;
    use friction_core::model::short_labels;

    #[cfg(target_arch = "wasm32")]
    wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);

    // run by wasm-bindgen-test in Chromium (scripts/test.sh) and by a native `cargo test`
    #[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
    #[cfg_attr(not(target_arch = "wasm32"), test)]
    fn a_panels_list_names_panels_of_the_view_or_says_which_exist() {
        assert_eq!(super::parse_panels("5", 6).unwrap(), vec![4]);
        assert_eq!(super::parse_panels(" 3,1,3 ", 6).unwrap(), vec![0, 2]);
        for bad in ["0", "7", "x", "1,,2", "-1", "2.5"] {
            let e = super::parse_panels(bad, 6).unwrap_err();
            assert_eq!(e.key, "panels");
            assert!(e.reason.contains("from 1 to 6"), "{bad}: {}", e.reason);
        }
    }

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
        let info = |id| friction_core::registry::find(id).expect("registered").info;
        let (bs1, bs2) = (info("bliman-sorine"), info("bliman-sorine-2"));
        let (lugre, hollars) = (info("lugre"), info("hollars"));
        assert_eq!(
            short_labels(&[lugre, bs2, hollars]),
            ["LuGre", "Bliman & Sorine", "Hollars (prov.)"]
        );
        assert_eq!(
            short_labels(&[bs1, lugre, bs2]),
            [
                "Bliman & Sorine, first order",
                "LuGre",
                "Bliman & Sorine, second order"
            ]
        );
        // The same model twice: nothing tells them apart, the full name is used.
        assert_eq!(short_labels(&[lugre, lugre]), [lugre.name, lugre.name]);
    }
}
