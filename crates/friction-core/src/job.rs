//! The contract of a view: what a view is ([`ViewDef`]), what it reads ([`Inputs`]) and the
//! resumable computation it starts ([`Job`]), with its typed results ([`Output`]) and its table
//! of numbers ([`Readout`]).
//!
//! Why one contract: the CLI loops a job to its end and prints its CSV; the page advances the
//! same job a few milliseconds per animation frame and draws what is ready. Neither knows which
//! view it runs; `crate::views` lists the implementations and `crate::scenario` parses a query
//! string into [`Inputs`]. This module sits below both, so a new view is one file in `views/`
//! and one line in its list.
//!
//! The core has no clock: jobs that report run times take one from the caller
//! (`advance(clock)`, milliseconds).

use crate::experiments::curve::CurveResult;
use crate::experiments::hysteresis::{FreqUnit, HysteresisConfig, Loop};
use crate::experiments::prescribed::{Cycle, Excitation, SweepPoint};
use crate::experiments::relaxation::{Curve, RelaxationConfig};
use crate::experiments::robot_arm::RobotRun;
use crate::experiments::stickslip::forced::{BreakawayCurve, ForcedSeries};
use crate::experiments::stickslip::StickSlipRun;
use crate::frbd::{Frbd, Kind};
use crate::model::{FrictionModel, ModelEntry, ModelInfo};
use crate::params::{fmt_num, ParamError, ParamSpec};

/// Which schema a view's query string follows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ViewKind {
    /// The FrBD letter's figures: `model=frbd-gm|frbd-gkv|frbd-elastic|frbd-kv`, the order `n`,
    /// branch lists (`k`, `tau`, `c`), the form (5) and the view's own keys.
    Frbd(FrbdView),
    /// Registry models (`model=a,b,c`) with their parameter keys, beside the view's own.
    Models,
}

/// The three views of the FrBD letter (their keys are part of the FrBD schema).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FrbdView {
    /// Fig. 3: hysteresis loops at several frequencies.
    Hysteresis,
    /// Fig. 4: relaxation at constant velocity for orders 1..n.
    Relaxation,
    /// §IV-B: tracking control of a robot joint with FrBD friction and an observer.
    Robot,
}

/// Builds a view's job from validated inputs; it computes nothing yet.
pub type JobFn = fn(&dyn Inputs) -> Result<Box<dyn Job>, ParamError>;

/// Values of the model parameters a view derives itself from its own values (given in
/// [`ViewDef::params`] order), e.g. the benchmark's normal force `fn` = m·g.
pub type DeriveFn = fn(&[f64]) -> Vec<(&'static str, f64)>;

/// A view: its query key, title, parameters, lesson, example and the job it runs.
///
/// A view parameter with the same key as a model parameter (the benchmark's `mus`) drives every
/// selected model with the view's value. A view's literal names what is its own and takes the
/// rest from [`ViewDef::BASE`] (`..ViewDef::BASE`): no models to choose beyond one, no view
/// parameters, no derived keys, no `--metrics`, no presets, no phenomena matrix.
#[derive(Debug, Clone, Copy)]
pub struct ViewDef {
    /// Stable value of the `view=` key, e.g. `"stickslip"`.
    pub name: &'static str,
    /// Human title, e.g. `"Rabinowicz stick-slip benchmark"`.
    pub title: &'static str,
    /// Caption of the view's table of numbers on the page.
    pub caption: &'static str,
    /// Which schema the view's query string follows.
    pub kind: ViewKind,
    /// The view's own parameters (ranges, defaults), in display order ([`ViewKind::Models`]).
    pub params: &'static [ParamSpec],
    /// How many models can be overlaid (`model=a,b,c`), at least 1.
    pub max_models: usize,
    /// Registry ids of the models the view opens on: its example, chosen for what the view
    /// teaches (the force-driven views on LuGre beside Dahl, the sweep on LuGre against FrBD-GM,
    /// the curve views on a stiction/Stribeck/viscous set). A tab and a link without `model=`
    /// show it alike (`friction-lab 'view=X'` and the page's `?view=X`); empty: the registry's
    /// first model (Coulomb). A link that names `model=` runs those models with their own
    /// defaults, as it always has.
    pub default_models: &'static [&'static str],
    /// The example's values of model parameters that differ from the registry defaults (the
    /// 1995 LuGre paper's F_C = 1 N, σ2 = 0.4 N·s/m), as `(key, value)`: a key the default models
    /// share sets all of them, `<model id>.<key>` one. They are the defaults of those keys while
    /// [`ViewDef::default_models`] are shown (the link omits them, the page's fields show them);
    /// once models are chosen, each model takes its registry defaults again. Never a view
    /// parameter or a derived key (a unit test checks).
    pub default_values: &'static [(&'static str, f64)],
    /// Model parameter keys the view derives itself (e.g. the normal force `fn` = m·g in the
    /// benchmark); they are neither shown nor accepted in the query string for this view.
    pub derived_model_keys: &'static [&'static str],
    /// Values of the derived keys from the view's values (`None`: the model defaults).
    pub derive: Option<DeriveFn>,
    /// The header of the view's `--metrics` CSV (`None`: the CLI refuses `--metrics` for it).
    /// The CLI's help prints it; a test checks it against the example's output.
    pub metrics: Option<&'static str>,
    /// How many chart panels the view draws (`friction_plot::panels` of a finished job): the
    /// page gives a view of several panels a taller plot area before the first one is drawn.
    pub panels: usize,
    /// Keys of the view's most-used controls, most used first (e.g. v_S, k̄_0, τ_i and the
    /// frequencies of the FrBD loops): the page shows them first, above the other groups, and
    /// a compact embed shows the first three unless the embedding page chooses (`show=`).
    pub key_controls: &'static [&'static str],
    /// Whether the page offers the phenomena matrix of every registered model under this view.
    pub phenomena: bool,
    /// Ready-made settings the view offers as buttons (`None`: none).
    pub presets: Option<Presets>,
    /// The CLI's example of the view (its `--help` prints one per view).
    pub example: Example,
    /// What the page's lesson box says about the view (`www/explain/lessons.json` is written
    /// from it).
    pub lesson: Lesson,
    /// Builds the view's job.
    pub job: JobFn,
}

impl ViewDef {
    /// What a view does not have unless it says so; its name, title, caption, kind, panels, key
    /// controls, example, lesson and job are its own (the list's test fails on a view that
    /// leaves one of them here: an empty name, example or lesson, a job that fails).
    pub const BASE: ViewDef = ViewDef {
        name: "",
        title: "",
        caption: "",
        kind: ViewKind::Models,
        params: &[],
        max_models: 1,
        default_models: &[],
        default_values: &[],
        derived_model_keys: &[],
        derive: None,
        metrics: None,
        panels: 1,
        key_controls: &[],
        phenomena: false,
        presets: None,
        example: Example { query: "", csv: "" },
        lesson: Lesson {
            text: &[],
            equation: "",
            references: &[],
            schematic: None,
            notes: &[],
        },
        job: |_| Ok(Box::new(Failed("this view has no job".into()))),
    };
}

/// A runnable CLI example of a view: the query and the header of the CSV it prints (a test
/// runs every example through the CLI and compares the header).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Example {
    /// The query string, e.g. `"view=relaxation&tend=30"`.
    pub query: &'static str,
    /// The first line of the CSV it prints, e.g. `"t,F_n1,F_n2,F_n3"`.
    pub csv: &'static str,
}

/// One source document, as a student would cite it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Reference {
    /// The full reference in words (authors, title, where, year).
    pub text: &'static str,
    /// Where to read it (empty when the seed gives none).
    pub link: &'static str,
}

/// The lesson of one view, for a second-year engineering student: what the model is, what the
/// plot shows and what to try, the governing equation and the source it comes from.
///
/// Why in the core, in the view's definition: the page and any other front end show the same
/// text, and a test can check that every view has one naming its source. The equations are
/// MathML (which browsers render without any script or font download).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Lesson {
    /// Two to four sentences: the model, the plot, what to try and why.
    pub text: &'static [&'static str],
    /// The governing equation as a MathML `<math>` element.
    pub equation: &'static str,
    /// The sources the view follows.
    pub references: &'static [Reference],
    /// A drawing the page adds: `"stickslip"` (block, spring, belt), `"robot"` (the joint).
    pub schematic: Option<&'static str>,
    /// Notes that belong to the view once rather than to every label (placeholders, cited
    /// figures).
    pub notes: &'static [&'static str],
}

/// A view's list of ready-made settings (the explorer's composite paper figures), defined in the
/// core so that the page and the CLI offer the same ones.
#[derive(Debug, Clone, Copy)]
pub struct Presets {
    /// Heading of the list, e.g. `"Composite paper figures"`.
    pub heading: &'static str,
    /// The presets, in display order.
    pub list: fn() -> Vec<Preset>,
}

/// One ready-made setting: the values it applies and the texts that describe it.
#[derive(Debug, Clone, PartialEq)]
pub struct Preset {
    /// Stable id (the model it shows), e.g. `"sv"`.
    pub id: &'static str,
    /// Short button text, e.g. `"SV"`.
    pub label: &'static str,
    /// What the button does, as a screen reader announces it.
    pub name: String,
    /// The figure in words (the page's tooltip), e.g. `"… : F against velocity on [-1, 1] m/s,
    /// Fex = 15 N"`.
    pub description: String,
    /// The (key, value) pairs to set, in order (the model first, then the view's values).
    pub query: Vec<(&'static str, String)>,
}

impl Preset {
    /// A preset from string pairs (the values as the link writes them).
    pub fn new(
        id: &'static str,
        label: &'static str,
        name: &str,
        description: &str,
        query: &[(&'static str, &str)],
    ) -> Preset {
        Preset {
            id,
            label,
            name: name.to_string(),
            description: description.to_string(),
            query: query.iter().map(|&(k, v)| (k, v.to_string())).collect(),
        }
    }
}

/// What a view reads from a parsed, validated query string (implemented by `Scenario`).
pub trait Inputs {
    /// The view's own parameter `key` (its default when unset); NaN for an unknown key.
    fn num(&self, key: &str) -> f64;
    /// A list parameter (`freqs`, `k`, `tau`, `c`) in effect.
    fn list(&self, key: &str) -> Vec<f64>;
    /// Unit of `freqs` (FrBD views).
    fn freq_unit(&self) -> FreqUnit;
    /// The FrBD model family (FrBD views).
    fn frbd_kind(&self) -> Kind;
    /// Order n in effect (FrBD views).
    fn order(&self) -> usize;
    /// The FrBD model with its first `m ≤ n` branches (FrBD views).
    fn frbd(&self, m: usize) -> Result<Frbd, ParamError>;
    /// The view's values in [`ViewDef::params`] order.
    fn view_values(&self) -> Vec<f64>;
    /// Registry models selected in a [`ViewKind::Models`] view, each built once with the
    /// query's values and the view's derived values.
    fn build_models(&self) -> Result<Vec<BuiltModel>, ParamError>;
    /// The values each model of [`Inputs::build_models`] is built with, in its `params` order
    /// (a view that runs an FrBD model through the FrBD experiments rebuilds it from them).
    fn model_values(&self) -> Vec<Vec<f64>>;
}

/// A selected registry entry and its model built with the query's values.
pub type BuiltModel = (&'static ModelEntry, Box<dyn FrictionModel>);

/// A resumable computation of one view, advanced in small units of work.
///
/// The CLI calls [`Job::advance`] until [`Job::done`]; the page calls it until its frame
/// budget is spent and draws [`Job::output`] between frames. A job gives the same results
/// however its work was cut.
pub trait Job {
    /// Does one unit of work (a chunk of solver steps, one curve); `clock` returns
    /// milliseconds, for the run times some views report.
    fn advance(&mut self, clock: &dyn Fn() -> f64);
    /// Whether all work is done.
    fn done(&self) -> bool;
    /// (finished, total) units a user would count (loops, curves, models).
    fn progress(&self) -> (usize, usize);
    /// A count that changes whenever the drawable output does, for jobs whose output grows in
    /// whole pieces (finished stick-slip runs); `None`: the output may change at every unit.
    fn output_version(&self) -> Option<usize> {
        None
    }
    /// What is ready to draw, with the legend of what will be there when done.
    fn output(&self) -> Output<'_>;
    /// The numbers beside the plot.
    fn readout(&self) -> Readout;
    /// Why the job stopped early or computed nothing (the page's status line, the CLI's error).
    fn error(&self) -> Option<String> {
        None
    }
    /// The caller stopped the job at its budget (`true`) or lets it go on (`false`). While held,
    /// [`Job::output`], [`Job::readout`] and [`Job::csv`] also show the work in progress (a run
    /// cut where it is), so that "the plot shows what was computed" holds for a job whose
    /// output otherwise grows in whole runs. Nothing is lost: going on resumes the same run.
    fn hold(&mut self, _held: bool) {}
    /// What to change when the job is stopped at its caller's budget before it is done (the
    /// CLI's wall-clock budget, the page's): completes "stopped after … (budget): …".
    fn budget_hint(&self) -> String {
        "select fewer models or a shorter run".into()
    }
    /// Notes for the CLI's stderr about a finished job (loops that did not converge).
    fn warnings(&self) -> Vec<String> {
        Vec::new()
    }
    /// Why cells of the metrics ([`Job::csv`] with `metrics`) are empty: one sentence per run
    /// and quantity it does not define (no breakaway, fewer than two maxima for a period, not
    /// settled by t_end), naming the CSV's metric. The readout's notes carry them too; the CLI
    /// prints them on stderr under `--metrics`.
    fn metric_notes(&self) -> Vec<String> {
        Vec::new()
    }
    /// The CLI's CSV: the data, or with `metrics` the view's metrics (only where
    /// [`ViewDef::metrics`]).
    fn csv(&self, metrics: bool) -> String;
    /// A second table some views show (the stick-slip view's run times beside Table 6.5).
    fn timings(&self) -> Option<Table> {
        None
    }
}

/// The typed results of a job, for the chart builders (`friction-plot`).
#[derive(Debug)]
pub enum Output<'a> {
    /// Nothing to draw (yet).
    Empty,
    /// Hysteresis loops: the finished ones, then the one being refined.
    Hysteresis {
        /// The experiment.
        cfg: &'a HysteresisConfig,
        /// Finished loops, then the loop in progress.
        loops: Vec<Loop>,
    },
    /// Relaxation curves computed so far, and the labels of all of them.
    Relaxation {
        /// The experiment (its `models` give the legend).
        cfg: &'a RelaxationConfig,
        /// Finished curves.
        curves: &'a [Curve],
    },
    /// Curves of the curve/explorer views computed so far.
    Curve {
        /// Every selected model, in legend order.
        models: Vec<&'static ModelInfo>,
        /// The finished curves.
        result: &'a CurveResult,
    },
    /// Stick-slip runs finished so far.
    StickSlip {
        /// Legend label of every selected model.
        labels: Vec<String>,
        /// (model index, run) of each finished run.
        runs: Vec<(usize, &'a StickSlipRun)>,
    },
    /// The robot-arm run (up to its stop when it stopped early).
    Robot(&'a RobotRun),
    /// Force-driven runs under a periodic force (pre-sliding) finished so far.
    Presliding {
        /// Legend label of every selected model.
        labels: Vec<String>,
        /// (model index, run) of each finished run.
        runs: Vec<(usize, &'a ForcedSeries)>,
    },
    /// Breakaway force against force rate, one curve per selected model (its points so far).
    Breakaway {
        /// Legend label of every selected model.
        labels: Vec<String>,
        /// One curve per selected model, in model order.
        curves: &'a [BreakawayCurve],
    },
    /// Steady cycles under a prescribed velocity or displacement.
    Prescribed {
        /// What is prescribed.
        excitation: Excitation,
        /// Unit of the frequencies.
        unit: FreqUnit,
        /// Legend label of every loop slot: the selected models, or the frequencies of one.
        labels: Vec<String>,
        /// (slot, cycle): the finished cycles, then the one being refined.
        cycles: Vec<(usize, Cycle)>,
    },
    /// Loop metrics against frequency.
    Sweep {
        /// Unit of the frequencies.
        unit: FreqUnit,
        /// The swept range (lowest, highest frequency).
        range: (f64, f64),
        /// Legend label of every selected model.
        labels: Vec<String>,
        /// (model index, points computed so far) per model that has any.
        points: Vec<(usize, &'a [SweepPoint])>,
    },
}

/// A table of text cells with a caption.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Table {
    /// Caption above the table.
    pub caption: String,
    /// Column headings with units.
    pub columns: Vec<String>,
    /// Rows of text cells.
    pub rows: Vec<Vec<String>>,
}

/// The numbers beside a view's plot, computed by the core.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Readout {
    /// Column headings with units.
    pub columns: Vec<String>,
    /// One row per finished loop, curve or run.
    pub rows: Vec<Vec<String>>,
    /// Warnings under the table (provisional models, runs stopped early, loops not periodic):
    /// the page shows them in its warning style.
    pub notes: Vec<String>,
    /// What the numbers mean and how they are computed (the breakaway force's definition, how
    /// a peak is found, the experiment's setting): the page shows them in the normal text
    /// colour, so that a definition does not read as an error.
    pub definitions: Vec<String>,
    /// The same numbers as one or more sentences (the page's live region).
    pub summary: String,
}

impl Readout {
    /// A readout of just a message (a job that computed nothing).
    pub fn message(text: &str) -> Readout {
        Readout {
            notes: vec![text.to_string()],
            summary: text.to_string(),
            ..Readout::default()
        }
    }
}

/// A job that only reports why nothing can be computed.
pub struct Failed(pub String);

impl Job for Failed {
    fn advance(&mut self, _: &dyn Fn() -> f64) {}
    fn done(&self) -> bool {
        true
    }
    fn progress(&self) -> (usize, usize) {
        (0, 0)
    }
    fn output(&self) -> Output<'_> {
        Output::Empty
    }
    fn readout(&self) -> Readout {
        Readout::message(&self.0)
    }
    fn error(&self) -> Option<String> {
        Some(self.0.clone())
    }
    fn csv(&self, _: bool) -> String {
        String::new()
    }
}

/// Four significant digits, exponent form outside 1e-3..1e5 (the page's numbers).
pub fn sig(x: f64) -> String {
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

/// The notes for the undefined metrics of one run ([`Job::metric_notes`]): the metrics of
/// `metrics` that are not finite numbers (their CSV cells are empty), gathered by the reason
/// `why` gives for their name and value (`None`: not defined by the run so far), as
/// `"LuGre: period empty: fewer than two maxima of x in the run"`.
pub fn undefined_notes(
    label: &str,
    metrics: &[(&str, f64)],
    why: impl Fn(&str, f64) -> Option<&'static str>,
) -> Vec<String> {
    let mut groups: Vec<(&'static str, Vec<&str>)> = Vec::new();
    for (name, x) in metrics {
        if x.is_finite() {
            continue;
        }
        let reason = why(name, *x).unwrap_or("not defined by the run so far");
        match groups.iter_mut().find(|(r, _)| *r == reason) {
            Some((_, names)) => names.push(name),
            None => groups.push((reason, vec![name])),
        }
    }
    groups
        .into_iter()
        .map(|(reason, names)| format!("{label}: {} empty: {reason}", names.join(", ")))
        .collect()
}

/// The values a scenario changed from their defaults, per selected model: the view's keys, then
/// the model's own (those the view sets or derives left out), each as `key = value (default d)`.
/// A run the solver cannot finish (a step cap, a step size underflow) owes its stiffness or its
/// length to them at a range's end (a regularisation velocity of 1e-9 m/s, a stiffness of 1e9
/// N/m): its message offers them as the keys to change ([`change_hint`]).
pub fn changed_values(view: &ViewDef, s: &dyn Inputs, models: &[BuiltModel]) -> Vec<Vec<String>> {
    let shown = |k: &str, x: f64, d: f64| format!("{k} = {} (default {})", fmt_num(x), fmt_num(d));
    let own: Vec<String> = view
        .params
        .iter()
        .zip(s.view_values())
        .filter(|(p, x)| *x != p.default)
        .map(|(p, x)| shown(p.key, x, p.default))
        .collect();
    models
        .iter()
        .zip(s.model_values())
        .map(|((e, _), values)| {
            let mut out = own.clone();
            for (p, x) in e.info.params.iter().zip(values) {
                let view_key = view.params.iter().any(|q| q.key == p.key)
                    || view.derived_model_keys.contains(&p.key);
                if !view_key && x != p.default {
                    out.push(shown(p.key, x, p.default));
                }
            }
            out
        })
        .collect()
}

/// What to change when the solver could not finish a run: the values `changed` from their
/// defaults ([`changed_values`]), then the view's usual advice `otherwise` (alone where nothing
/// was changed).
pub fn change_hint(changed: &[String], otherwise: &str) -> String {
    if changed.is_empty() {
        otherwise.to_string()
    } else {
        format!(
            "values changed from their defaults: {}; move them toward their defaults, or \
             {otherwise}",
            changed.join(", ")
        )
    }
}

/// Column headings as owned strings.
pub fn columns(names: &[&str]) -> Vec<String> {
    names.iter().map(|s| s.to_string()).collect()
}
