//! `view=stickslip`: the Rabinowicz benchmark (thesis §6.3) with one to four
//! registry models, each built with the view's μ_s, μ_k and the derived normal force F_N = m·g,
//! advanced [`stickslip::unit_steps`] solver steps at a time (a long `t_end` with a switching
//! model takes seconds; GMS with 1000 elements 0.5 ms a step). Run times are measured with the caller's clock: the core has none.

use crate::experiments::stickslip::{
    self, Bench, BenchRun, StickSlipError, StickSlipRun, Workspace, MAX_STEPS, PARAMS,
};
use crate::integrate::rodas::SolveError;
use crate::job::{
    change_hint, changed_values, columns, sig, undefined_notes, BuiltModel, Example, Job, Lesson,
    Output, Readout, Table, ViewDef, ViewKind,
};
use crate::model::short_labels;
use crate::params::{fmt_num, PLACEHOLDER_NOTE};
use crate::views::lessons::THESIS;
use crate::views::table65;

/// The view.
pub static VIEW: ViewDef = ViewDef {
    name: "stickslip",
    title: "Rabinowicz stick-slip benchmark",
    caption: "Benchmark metrics per model (40 s run unless t_end is changed)",
    kind: ViewKind::Models,
    params: &PARAMS,
    max_models: 4,
    // the thesis compares models on the benchmark: a dynamic one beside the plain Coulomb law
    default_models: &["lugre", "coulomb"],
    derived_model_keys: &["fn"],
    derive: Some(|v| vec![("fn", v[0] * v[5])]),
    metrics: Some("metric,value,unit"),
    panels: 6,
    key_controls: &["vb", "kspring", "model"],
    presets: Some(crate::job::Presets {
        heading: "Class scenarios",
        list: class_presets,
    }),
    example: Example {
        query: "view=stickslip&model=lugre&tend=40",
        csv: "t,x,xdot,F",
    },
    lesson: LESSON,
    job: |s| {
        let bench = Bench::from_values(&s.view_values())?;
        let models = s.build_models()?;
        let changed = changed_values(&VIEW, s, &models);
        let mut job = StickSlipJob::new(bench, models);
        job.changed = changed;
        Ok(Box::new(job))
    },
    ..ViewDef::BASE
};

/// What the page's lesson box says about `view=stickslip`.
const LESSON: Lesson = Lesson {
    text: &[
        "A block of mass m rests on a belt moving at v_b and is held back by a spring of \
         stiffness k; friction between block and belt drags it along (the thesis' \
         Rabinowicz benchmark, m ẍ = −k x − F with v = ẋ − v_b).",
        "When static friction exceeds sliding friction the block sticks to the belt until \
         the spring pulls hard enough, then slips back: the saw-tooth in x and the jumps in \
         F are stick-slip.",
        "Compare LuGre with Coulomb: without a static peak the block settles into steady \
         sliding. A slower belt gives longer sticks.",
    ],
    equation: concat!(
        "<math display=\"block\"><mi>m</mi><mover><mi>x</mi><mo>¨</mo></mover><mo>=</mo><mo>−</mo>",
        "<mi>k</mi><mi>x</mi><mo>−</mo><mi>F</mi><mo>(</mo><mi>v</mi><mo>)</mo><mo>,</mo>",
        "<mspace width=\"1em\"/><mi>v</mi><mo>=</mo><mover><mi>x</mi><mo>˙</mo></mover><mo>−</mo>",
        "<msub><mi>v</mi><mi>b</mi></msub></math>"
    ),
    references: &[THESIS],
    schematic: Some("stickslip"),
    notes: &[
        "The thesis times each model's run in MATLAB (Table 6.5); the table beside the plot \
         shows those cited times next to this browser's for the models you run.",
        PLACEHOLDER_NOTE,
    ],
};

/// One benchmark run per selected model, in pieces.
pub struct StickSlipJob {
    bench: Bench,
    models: Vec<BuiltModel>,
    ws: Box<Workspace>,
    /// The run in progress and the compute time spent on it so far \[ms\].
    current: Option<Box<(BenchRun, f64)>>,
    /// (index into `models`, run, compute time in ms) per finished model; a run stopped at its
    /// step budget is kept up to the stop, a model that failed with nothing to show has none.
    runs: Vec<(usize, StickSlipRun, f64)>,
    /// Why runs stopped early, one message per model.
    errors: Vec<String>,
    /// The run in progress as far as it got, while the caller holds the job at its budget
    /// ([`Job::hold`]).
    held: Option<(usize, StickSlipRun, f64)>,
    /// The model being computed (`models.len()` when all are done).
    next: usize,
    /// Per model, the values changed from their defaults ([`changed_values`]): what a run the
    /// solver could not finish names as the keys to change.
    changed: Vec<Vec<String>>,
}

impl StickSlipJob {
    /// A job for the benchmark and models (nothing computed yet).
    pub fn new(bench: Bench, models: Vec<BuiltModel>) -> StickSlipJob {
        StickSlipJob {
            bench,
            models,
            ws: Box::default(),
            current: None,
            runs: Vec::new(),
            errors: Vec::new(),
            held: None,
            next: 0,
            changed: Vec::new(),
        }
    }

    /// Why model `i`'s run failed, with what to change: a run out of steps or below the
    /// solver's smallest step at a range's end names the values changed from their defaults.
    fn run_error(&self, i: usize, err: &StickSlipError) -> String {
        let changed = self.changed.get(i).map_or(&[][..], Vec::as_slice);
        let usual = "shorten t_end (tend) or soften the spring k (kspring)";
        match err {
            StickSlipError::Solver(SolveError::TooManySteps { t }) => format!(
                "the run needs more than {MAX_STEPS} solver steps (stopped at t = {t:.4} s of \
                 {} s): {}",
                fmt_num(self.bench.tend),
                change_hint(changed, usual)
            ),
            StickSlipError::Solver(SolveError::StepTooSmall { t }) => format!(
                "step size underflow at t = {t} s (the run is too stiff for the solver's \
                 smallest step): {}",
                change_hint(changed, "select another model")
            ),
            e => e.to_string(),
        }
    }

    /// The finished runs, then the held run in progress (if any).
    fn shown(&self) -> impl Iterator<Item = &(usize, StickSlipRun, f64)> {
        self.runs.iter().chain(self.held.iter())
    }

    fn labels(&self) -> Vec<String> {
        let infos: Vec<_> = self.models.iter().map(|(e, _)| e.info).collect();
        short_labels(&infos)
    }

    /// A finished run's metrics with its compute time.
    fn metrics(r: &StickSlipRun, ms: f64) -> stickslip::Metrics {
        let mut m = r.metrics();
        m.wall_time_s = Some(ms / 1000.0);
        m
    }
}

impl Job for StickSlipJob {
    fn advance(&mut self, clock: &dyn Fn() -> f64) {
        // a held run takes its series back before it goes on
        self.hold(false);
        let i = self.next;
        let Some((e, m)) = self.models.get(i) else {
            return;
        };
        let t = clock();
        let started = match self.current.take() {
            Some(c) => Ok(*c),
            None => BenchRun::start(&mut self.ws, &self.bench, m.as_ref()).map(|r| (r, 0.0)),
        };
        match started {
            // the closed loop adds x and ẋ to the model's states
            Ok((mut run, ms)) => {
                match run.advance(&mut self.ws, m.as_ref(), stickslip::unit_steps(m.as_ref())) {
                    Ok(Some(r)) => {
                        self.runs.push((i, r, ms + (clock() - t)));
                        self.next += 1;
                    }
                    Ok(None) => self.current = Some(Box::new((run, ms + (clock() - t)))),
                    Err(err) => {
                        // the panels keep what was computed up to the stop (if anything), and the
                        // other models still run
                        if let Some(r) = run.partial(&self.ws) {
                            self.runs.push((i, r, ms + (clock() - t)));
                        }
                        let msg = self.run_error(i, &err);
                        self.errors.push(format!("{}: {msg}", e.info.name));
                        self.next += 1;
                    }
                }
            }
            Err(err) => {
                let msg = self.run_error(i, &err);
                self.errors.push(format!("{}: {msg}", e.info.name));
                self.next += 1;
            }
        }
    }
    fn done(&self) -> bool {
        self.next >= self.models.len()
    }
    fn hold(&mut self, held: bool) {
        // the run in progress lends its series while held and takes it back to go on
        if let (Some((_, r, _)), Some(c)) = (self.held.take(), self.current.as_deref_mut()) {
            c.0.give_back(r);
        }
        if held {
            if let Some((run, ms)) = self.current.as_deref_mut() {
                self.held = run.partial(&self.ws).map(|r| (self.next, r, *ms));
            }
        }
    }
    fn progress(&self) -> (usize, usize) {
        (self.next, self.models.len())
    }
    fn budget_hint(&self) -> String {
        // the model in progress: a value at a range's end may make it too stiff to finish
        change_hint(
            self.changed.get(self.next).map_or(&[][..], Vec::as_slice),
            "lower tend or select fewer models (a stiff model, e.g. a large sigma0, takes many \
             solver steps)",
        )
    }
    fn output_version(&self) -> Option<usize> {
        Some(self.runs.len() + self.errors.len() + usize::from(self.held.is_some()))
    }
    fn output(&self) -> Output<'_> {
        if self.shown().next().is_none() {
            return Output::Empty;
        }
        Output::StickSlip {
            labels: self.labels(),
            runs: self.shown().map(|(i, r, _)| (*i, r)).collect(),
        }
    }
    fn error(&self) -> Option<String> {
        (!self.errors.is_empty()).then(|| self.errors.join(" "))
    }
    fn readout(&self) -> Readout {
        let rows: Vec<Vec<String>> = self
            .shown()
            .map(|(i, r, ms)| {
                let m = r.metrics();
                vec![
                    self.models[*i].0.info.name.to_string(),
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
                    "{}: breakaway at {} s with {} N; x between {} and {} m; period {} s; {} \
                     steps in {} ms.",
                    r[0], r[1], r[2], r[3], r[4], r[5], r[6], r[7]
                )
            })
            .collect::<Vec<_>>()
            .join(" ");
        let mut notes: Vec<String> = self
            .models
            .iter()
            .filter_map(|(e, _)| e.info.provisional_note())
            .collect();
        notes.extend(self.errors.iter().cloned());
        notes.extend(self.metric_notes());
        Readout {
            columns: columns(&[
                "model",
                "breakaway time [s]",
                "breakaway force −F [N]",
                "x min (after 1st max) [m]",
                "x max [m]",
                "period (last cycle) [s]",
                "steps",
                "wall time in this browser [ms]",
            ]),
            rows,
            notes,
            definitions: Vec::new(),
            summary,
        }
    }
    fn metric_notes(&self) -> Vec<String> {
        let labels = self.labels();
        self.shown()
            .flat_map(|(i, r, ms)| {
                let m = Self::metrics(r, *ms);
                let values: Vec<(&str, f64)> = m.rows().iter().map(|(k, x, _)| (*k, *x)).collect();
                undefined_notes(&labels[*i], &values, |k, _| {
                    stickslip::Metrics::why_undefined(k)
                })
            })
            .collect()
    }
    fn csv(&self, metrics: bool) -> String {
        let multi = self.models.len() > 1;
        let mut out = String::new();
        for (k, (i, r, ms)) in self.shown().enumerate() {
            let csv = if metrics {
                stickslip::metrics_csv(&Self::metrics(r, *ms))
            } else {
                stickslip::to_csv(r)
            };
            let mut lines = csv.lines();
            let head = lines.next().unwrap_or_default();
            if !multi {
                out.push_str(head);
                out.push('\n');
            } else if k == 0 {
                out.push_str(&format!("model,{head}\n"));
            }
            for l in lines {
                if multi {
                    out.push_str(self.models[*i].0.info.id);
                    out.push(',');
                }
                out.push_str(l);
                out.push('\n');
            }
        }
        out
    }
    fn timings(&self) -> Option<Table> {
        // a run stopped at its step budget has no run time to compare
        let time_text = |r: &StickSlipRun, ms: f64| match r.t.last() {
            Some(&t) if t < self.bench.tend => format!("stopped at t = {} s", sig(t)),
            _ => sig(ms),
        };
        let measured = |id: &str| {
            self.shown()
                .find(|(i, _, _)| self.models[*i].0.info.id == id)
                .map(|(_, r, ms)| time_text(r, *ms))
        };
        let mut rows = Vec::new();
        // only the models run here: the thesis' other rows carry no comparison, the caption
        // names them
        for row in table65::TABLE_6_5 {
            let Some(time) = measured(row.id) else {
                continue;
            };
            let mut r = vec![row.name.to_string()];
            r.push(time);
            for t in row.times {
                r.push(t.map_or("DNC".to_string(), |t| format!("{t:.4}")));
            }
            rows.push(r);
        }
        for (i, run, ms) in self.shown() {
            let e = self.models[*i].0;
            if !table65::TABLE_6_5.iter().any(|r| r.id == e.info.id) {
                let mut r = vec![e.info.name.to_string(), time_text(run, *ms)];
                r.extend(std::iter::repeat_n("not in Table 6.5".to_string(), 4));
                rows.push(r);
            }
        }
        let others: Vec<&str> = table65::TABLE_6_5
            .iter()
            .filter(|row| measured(row.id).is_none())
            .map(|row| row.name)
            .collect();
        let caption = if others.is_empty() {
            table65::CAPTION.to_string()
        } else {
            format!(
                "{} Table 6.5 also times {} (select them to compare).",
                table65::CAPTION,
                others.join(", ")
            )
        };
        Some(Table {
            caption,
            columns: columns(&[
                "model",
                "this browser, 40 s run [ms]",
                "MATLAB ode45 [s]",
                "MATLAB ode15s [s]",
                "MATLAB ode23s [s]",
                "MATLAB ode78 [s]",
            ]),
            rows,
        })
    }
}

/// Named scenarios for a class: which models stick and slip, and the belt speed's effect.
pub fn class_presets() -> Vec<crate::job::Preset> {
    use crate::job::Preset;
    vec![
        Preset::new(
            "lugre-dahl",
            "LuGre vs Dahl",
            "Stick-slip: LuGre against Dahl",
            "two bristle models: LuGre's static friction above its sliding friction makes the \
             block stick and slip; Dahl, with no static peak, lets it oscillate about the \
             Coulomb level (the view opens on LuGre against Coulomb)",
            &[("model", "lugre,dahl")],
        ),
        Preset::new(
            "slow-belt",
            "slow belt",
            "Stick-slip of LuGre on a slow belt",
            "v_b = 0.01 m/s: long sticks, sudden slips",
            &[("model", "lugre"), ("vb", "0.01")],
        ),
        Preset::new(
            "fast-belt",
            "fast belt",
            "LuGre on a fast belt",
            "v_b = 1 m/s: the block never re-sticks, the oscillation dies out",
            &[("model", "lugre"), ("vb", "1")],
        ),
    ]
}
