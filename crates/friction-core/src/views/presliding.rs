//! `view=presliding`: a block on fixed ground under a slow periodic force u(t) below the
//! breakaway force, m ẍ = u(t) − F (Canudas de Wit et al. 1995, Fig. 2): the displacement
//! against the force and against time, for one to four registry models. LuGre is spring-like
//! with slope σ0 for small forces and hysteretic near breakaway; a static law with stiction
//! holds x = 0 exactly. Each model's run advances [`stickslip::unit_steps`] solver steps at a
//! time (GMS with 1000 elements: 0.3 ms a step).

use crate::experiments::stickslip::forced::{ForcedRun, ForcedSeries, Forcing, Push};
use crate::experiments::stickslip::{self, StickSlipError, Workspace, MAX_STEPS};
use crate::integrate::rodas::SolveError;
use crate::job::{
    change_hint, changed_values, columns, sig, undefined_notes, BuiltModel, Example, Inputs, Job,
    Lesson, Output, Readout, ViewDef, ViewKind,
};
use crate::model::short_labels;
use crate::params::{
    check_all, fmt_cell, values_or_defaults, ParamError, ParamSpec, PLACEHOLDER_NOTE,
};
use crate::views::lessons::{LUGRE, THESIS};

/// The view's parameters, in the order [`Presliding::from_values`] reads them.
pub const PARAMS: [ParamSpec; 5] = [
    crate::experiments::stickslip::MASS,
    ParamSpec {
        key: "wave",
        name: "Applied force: 0 = sine, 1 = triangle",
        symbol: "wave",
        unit: "",
        default: 0.0,
        min: 0.0,
        max: 1.0,
        log: false,
    },
    // below the Coulomb level F_C = 0.981 N of the registry defaults, so that no default law
    // slides; LuGre (F_s = 1.4715 N) already draws an open loop
    ParamSpec {
        key: "amp",
        name: "Force amplitude",
        symbol: "u_0",
        unit: "N",
        default: 0.9,
        min: 1e-6,
        max: 1e6,
        log: true,
    },
    ParamSpec {
        key: "freq",
        name: "Force frequency",
        symbol: "f",
        unit: "Hz",
        default: 0.1,
        min: 1e-3,
        max: 1e3,
        log: true,
    },
    ParamSpec {
        key: "cycles",
        name: "Periods",
        symbol: "n",
        unit: "",
        default: 2.0,
        min: 1.0,
        max: 20.0,
        log: false,
    },
];

/// The model values of Canudas de Wit, Olsson, Åström & Lischinsky (1995) that differ from the
/// registry's (thesis Table 7.1): F_N = 10 N with μ_k = 0.1 and μ_s = 0.15 gives their F_C = 1 N
/// and F_s = 1.5 N, and their σ2 = 0.4 N·s/m (σ0 = 1e5 N/m, σ1 = √1e5 N·s/m and v_S = 1 mm/s
/// are the registry's already). The example of the force-driven views (`fn` is shared with Dahl,
/// so its F_C is 1 N too).
pub const LUGRE_1995: [(&str, f64); 2] = [("fn", 10.0), ("sigma2", 0.4)];

/// The view.
pub static VIEW: ViewDef = ViewDef {
    name: "presliding",
    title: "Pre-sliding displacement (force-driven block)",
    caption: "Pre-sliding per model (first loading, last period)",
    kind: ViewKind::Models,
    params: &PARAMS,
    max_models: 4,
    // Canudas de Wit et al. 1995 (F_C = 1 N, F_s = 1.5 N, σ2 = 0.4 N·s/m; σ0, σ1, v_S are the
    // registry's Table 7.1 values, the same as the paper's), with Dahl beside it
    default_models: &["lugre", "dahl"],
    default_values: &LUGRE_1995,
    metrics: Some("stiffness_N_per_m,x_max_m,x_min_m,drift_m,v_max_m_per_s,steps"),
    panels: 2,
    key_controls: &["amp", "freq", "model"],
    presets: Some(crate::job::Presets {
        heading: "Class scenarios",
        list: class_presets,
    }),
    example: Example {
        query: "view=presliding&model=lugre&amp=1.2",
        csv: "t_s,u_N,x_m,v_m_per_s,F_N",
    },
    lesson: LESSON,
    job: |s: &dyn Inputs| {
        let p = Presliding::from_values(&s.view_values())?;
        let models = s.build_models()?;
        let changed = changed_values(&VIEW, s, &models);
        let mut job = PreslidingJob::new(p, models);
        job.changed = changed;
        Ok(Box::new(job))
    },
    ..ViewDef::BASE
};

/// What the page's lesson box says about `view=presliding`.
const LESSON: Lesson = Lesson {
    text: &[
        "Below the breakaway force a real contact does not slide but deforms: the block \
         creeps a few micrometres back and forth, elastically, with a small hysteresis.",
        "The plot shows the displacement under a slowly oscillating applied force; a \
         dynamic model (LuGre, Dahl) shows this pre-sliding, a static law cannot.",
        "Push the force amplitude towards μ_s F_N: the loops widen and the block starts to \
         drift.",
    ],
    equation: LUGRE,
    references: &[THESIS],
    schematic: Some("stickslip"),
    notes: &[PLACEHOLDER_NOTE],
};

/// Validated settings.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Presliding {
    /// Mass m \[kg\].
    pub m: f64,
    /// The applied force.
    pub forcing: Forcing,
    /// Amplitude u_0 \[N\].
    pub amp: f64,
    /// Frequency f \[Hz\].
    pub freq: f64,
    /// Whole periods run.
    pub cycles: usize,
}

impl Presliding {
    /// Checks view values in [`PARAMS`] order (missing trailing ones take defaults); the number
    /// of periods is rounded.
    pub fn from_values(values: &[f64]) -> Result<Presliding, ParamError> {
        let v = values_or_defaults(&PARAMS, values);
        check_all(&PARAMS, &v)?;
        let (amp, freq) = (v[2], v[3]);
        Ok(Presliding {
            m: v[0],
            forcing: if v[1] >= 0.5 {
                Forcing::Triangle { amp, freq }
            } else {
                Forcing::Sine { amp, freq }
            },
            amp,
            freq,
            cycles: v[4].round() as usize,
        })
    }

    /// End time \[s\].
    pub fn tend(&self) -> f64 {
        self.cycles as f64 / self.freq
    }
}

/// What the readout and `--metrics` give per model.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PreslidingMetrics {
    /// Largest and smallest displacement \[m\].
    pub x_max: f64,
    /// Smallest displacement \[m\].
    pub x_min: f64,
    /// Initial stiffness du/dx: the slope of the first loading between u_0/20 and u_0/10 \[N/m\]
    /// (a difference, so that the lag of x behind u, σ1 ẋ/σ0, cancels); ∞ while x = 0.
    pub stiffness: f64,
    /// x(t_end) − x(t_end − 1/f): the drift over the last period \[m\].
    pub drift: f64,
    /// Largest |ẋ| \[m/s\].
    pub v_max: f64,
    /// Accepted solver steps.
    pub steps: usize,
}

/// Value of `ys` where `xs` first reaches `level` (rising), interpolated linearly.
fn at_first(xs: &[f64], ys: &[f64], level: f64) -> f64 {
    match xs.iter().position(|&x| x >= level) {
        Some(0) => ys[0],
        Some(i) => {
            let w = (level - xs[i - 1]) / (xs[i] - xs[i - 1]);
            ys[i - 1] + w * (ys[i] - ys[i - 1])
        }
        None => f64::NAN,
    }
}

/// The metrics of one run.
pub fn metrics(p: &Presliding, r: &ForcedSeries) -> PreslidingMetrics {
    let fold = |f: fn(f64, f64) -> f64, init: f64| r.x.iter().copied().fold(init, f);
    let t_end = r.t.last().copied().unwrap_or(0.0);
    let x_end = r.x.last().copied().unwrap_or(f64::NAN);
    PreslidingMetrics {
        x_max: fold(f64::max, f64::NEG_INFINITY),
        x_min: fold(f64::min, f64::INFINITY),
        stiffness: {
            let dx = at_first(&r.u, &r.x, 0.1 * p.amp) - at_first(&r.u, &r.x, 0.05 * p.amp);
            if dx == 0.0 {
                f64::INFINITY
            } else {
                0.05 * p.amp / dx
            }
        },
        drift: x_end - at_first(&r.t, &r.x, t_end - 1.0 / p.freq),
        v_max: r.v.iter().fold(0.0, |a, v| a.max(v.abs())),
        steps: r.steps,
    }
}

/// A failed run's message, naming the keys to change when the solver could not finish it: the
/// values `changed` from their defaults, then the view's usual advice.
fn run_error(e: &StickSlipError, changed: &[String]) -> String {
    match e {
        StickSlipError::Solver(SolveError::TooManySteps { t }) => format!(
            "the run needs more than {MAX_STEPS} solver steps (stopped at t = {t:.4} s): {}",
            change_hint(
                changed,
                "run fewer periods (cycles) or a faster force (freq)"
            )
        ),
        StickSlipError::Solver(SolveError::StepTooSmall { t }) => format!(
            "step size underflow at t = {t} s (the run is too stiff for the solver's smallest \
             step): {}",
            change_hint(changed, "select another model")
        ),
        e => e.to_string(),
    }
}

/// One forced run per selected model, in pieces.
pub struct PreslidingJob {
    p: Presliding,
    models: Vec<BuiltModel>,
    ws: Box<Workspace>,
    current: Option<Box<ForcedRun>>,
    /// (index into `models`, series) per finished model (a stopped run up to its stop).
    runs: Vec<(usize, ForcedSeries)>,
    errors: Vec<String>,
    next: usize,
    /// Per model, the values changed from their defaults ([`changed_values`]).
    changed: Vec<Vec<String>>,
    /// While the caller holds the job ([`Job::hold`]): (index into `models`, a copy of the
    /// run in progress).
    held: Option<(usize, ForcedSeries)>,
}

impl PreslidingJob {
    /// The finished runs, then the held run in progress (if any).
    fn shown(&self) -> impl Iterator<Item = &(usize, ForcedSeries)> {
        self.runs.iter().chain(self.held.iter())
    }

    /// A job for the settings and models (nothing computed yet).
    pub fn new(p: Presliding, models: Vec<BuiltModel>) -> PreslidingJob {
        PreslidingJob {
            p,
            models,
            ws: Box::default(),
            current: None,
            runs: Vec::new(),
            errors: Vec::new(),
            next: 0,
            changed: Vec::new(),
            held: None,
        }
    }
}

impl Job for PreslidingJob {
    fn budget_hint(&self) -> String {
        change_hint(
            self.changed.get(self.next).map_or(&[][..], Vec::as_slice),
            "select fewer models or run fewer periods (cycles)",
        )
    }
    fn hold(&mut self, held: bool) {
        self.held = if held {
            let run = self.current.as_deref();
            run.and_then(|r| r.snapshot(&self.ws))
                .map(|r| (self.next, r))
        } else {
            None
        };
    }
    fn advance(&mut self, _: &dyn Fn() -> f64) {
        self.held = None;
        let i = self.next;
        let Some((e, m)) = self.models.get(i) else {
            return;
        };
        let p = &self.p;
        let started = match self.current.take() {
            Some(c) => Ok(*c),
            None => {
                let push = Push {
                    m: p.m,
                    forcing: p.forcing,
                    tend: p.tend(),
                    hmax: 1.0 / (200.0 * p.freq),
                    x_stop: None,
                };
                ForcedRun::start(&mut self.ws, &push, m.as_ref())
            }
        };
        let mut run = match started {
            Ok(run) => run,
            Err(err) => {
                self.errors.push(format!(
                    "{}: {}",
                    e.info.name,
                    run_error(&err, self.changed.get(i).map_or(&[][..], Vec::as_slice))
                ));
                self.next += 1;
                return;
            }
        };
        // the block adds x and ẋ to the model's states
        match run.advance(&mut self.ws, m.as_ref(), stickslip::unit_steps(m.as_ref())) {
            Ok(Some(r)) => {
                self.runs.push((i, r));
                self.next += 1;
            }
            Ok(None) => self.current = Some(Box::new(run)),
            Err(err) => {
                if let Some(r) = run.partial(&self.ws) {
                    self.runs.push((i, r));
                }
                self.errors.push(format!(
                    "{}: {}",
                    e.info.name,
                    run_error(&err, self.changed.get(i).map_or(&[][..], Vec::as_slice))
                ));
                self.next += 1;
            }
        }
    }
    fn done(&self) -> bool {
        self.next >= self.models.len()
    }
    fn progress(&self) -> (usize, usize) {
        (self.next, self.models.len())
    }
    fn output_version(&self) -> Option<usize> {
        Some(self.runs.len() + self.errors.len() + usize::from(self.held.is_some()))
    }
    fn output(&self) -> Output<'_> {
        if self.shown().next().is_none() {
            return Output::Empty;
        }
        let infos: Vec<_> = self.models.iter().map(|(e, _)| e.info).collect();
        Output::Presliding {
            labels: short_labels(&infos),
            runs: self.shown().map(|(i, r)| (*i, r)).collect(),
        }
    }
    fn error(&self) -> Option<String> {
        (!self.errors.is_empty()).then(|| self.errors.join(" "))
    }
    fn readout(&self) -> Readout {
        let stiff = |k: f64| {
            if k.is_infinite() {
                "∞ (x = 0)".to_string()
            } else {
                sig(k)
            }
        };
        let rows: Vec<Vec<String>> = self
            .shown()
            .map(|(i, r)| {
                let m = metrics(&self.p, r);
                vec![
                    self.models[*i].0.info.name.to_string(),
                    stiff(m.stiffness),
                    sig(m.x_max),
                    sig(m.x_min),
                    sig(m.drift),
                    sig(m.v_max),
                    m.steps.to_string(),
                ]
            })
            .collect();
        let summary = rows
            .iter()
            .map(|r| {
                format!(
                    "{}: du/dx = {} N/m between u_0/20 and u_0/10; x between {} and {} m; drift {} m over the \
                     last period; largest speed {} m/s.",
                    r[0], r[1], r[3], r[2], r[4], r[5]
                )
            })
            .collect::<Vec<_>>()
            .join(" ");
        let definitions = vec![format!(
            "u(t) = {} with u_0 = {} N, f = {} Hz, {} period(s); block of {} kg at rest at \
             x = 0, model states virgin. du/dx: slope of the first loading between u_0/20 and \
             u_0/10 (LuGre: σ0 for small forces, Canudas de Wit et al. 1995, Fig. 2).",
            match self.p.forcing {
                Forcing::Triangle { .. } => "a triangle through the zeros of u_0 sin(2π f t)",
                _ => "u_0 sin(2π f t)",
            },
            sig(self.p.amp),
            sig(self.p.freq),
            self.p.cycles,
            sig(self.p.m)
        )];
        let mut notes: Vec<String> = Vec::new();
        notes.extend(
            self.models
                .iter()
                .filter_map(|(e, _)| e.info.provisional_note()),
        );
        notes.extend(self.errors.iter().cloned());
        notes.extend(self.metric_notes());
        Readout {
            columns: columns(&[
                "model",
                "du/dx, u₀/20 to u₀/10 [N/m]",
                "x max [m]",
                "x min [m]",
                "drift, last period [m]",
                "max |ẋ| [m/s]",
                "steps",
            ]),
            rows,
            notes,
            definitions,
            summary,
        }
    }
    fn metric_notes(&self) -> Vec<String> {
        let infos: Vec<_> = self.models.iter().map(|(e, _)| e.info).collect();
        let labels = short_labels(&infos);
        self.shown()
            .flat_map(|(i, r)| {
                let m = metrics(&self.p, r);
                let values = [
                    ("stiffness_N_per_m", m.stiffness),
                    ("x_max_m", m.x_max),
                    ("x_min_m", m.x_min),
                    ("drift_m", m.drift),
                    ("v_max_m_per_s", m.v_max),
                ];
                undefined_notes(&labels[*i], &values, |k, x| match k {
                    "stiffness_N_per_m" if x.is_infinite() => Some(
                        "x did not move between u = u_0/20 and u_0/10: the slope du/dx is \
                         infinite (no pre-sliding displacement; the readout shows ∞)",
                    ),
                    "stiffness_N_per_m" => Some("the force did not reach u_0/10 in the run"),
                    "drift_m" => Some("the run is shorter than one period of the force"),
                    _ => None,
                })
            })
            .collect()
    }
    fn csv(&self, metrics_only: bool) -> String {
        let multi = self.models.len() > 1;
        let mut out = String::new();
        let lead = if multi { "model," } else { "" };
        if metrics_only {
            out.push_str(&format!(
                "{lead}stiffness_N_per_m,x_max_m,x_min_m,drift_m,v_max_m_per_s,steps\n"
            ));
        } else {
            out.push_str(&format!("{lead}t_s,u_N,x_m,v_m_per_s,F_N\n"));
        }
        for (i, r) in self.shown() {
            let id = if multi {
                format!("{},", self.models[*i].0.info.id)
            } else {
                String::new()
            };
            if metrics_only {
                let m = metrics(&self.p, r);
                out.push_str(&format!(
                    "{id}{},{},{},{},{},{}\n",
                    fmt_cell(m.stiffness),
                    fmt_cell(m.x_max),
                    fmt_cell(m.x_min),
                    fmt_cell(m.drift),
                    fmt_cell(m.v_max),
                    m.steps
                ));
                continue;
            }
            for k in 0..r.t.len() {
                out.push_str(&format!(
                    "{id}{},{},{},{},{}\n",
                    r.t[k], r.u[k], r.x[k], r.v[k], r.force[k]
                ));
            }
        }
        out
    }
}

/// Named scenarios for a class: bristle models against each other below breakaway.
pub fn class_presets() -> Vec<crate::job::Preset> {
    use crate::job::Preset;
    vec![
        Preset::new(
            "lugre-dahl",
            "LuGre vs Dahl, Table 7.1",
            "Pre-sliding: LuGre against Dahl with the thesis' Table 7.1 values",
            "below breakaway both move a little, elastically, with a hysteresis loop; F_C = \
             0.981 N, σ2 = 0.1 N·s/m (the view opens on the 1995 paper's F_C = 1 N, σ2 = 0.4)",
            &[("model", "lugre,dahl")],
        ),
        Preset::new(
            "near-breakaway",
            "near breakaway",
            "LuGre pushed close to breakaway",
            "a force amplitude near μ_s F_N: the displacement grows and drifts",
            &[("model", "lugre"), ("amp", "1.4")],
        ),
    ]
}
