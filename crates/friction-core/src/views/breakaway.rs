//! `view=breakaway`: the breakaway force against the rate of force application (Canudas de Wit
//! et al. 1995, Fig. 4; the thesis' "varying breakaway force", \[T\] §2.2). A block on fixed
//! ground is pushed by ramps u(t) = ρ t, m ẍ = u − F, for log-spaced rates ρ between ρ_min and
//! ρ_max (the schema has scalar keys only: `ratemin`, `ratemax`, `nrates`); one (model, rate)
//! run per unit of work.
//!
//! Breakaway force, as the thesis defines it (\[T\] §5.1): "the maximum friction
//! force value", the level required to leave the static state. Each ramp runs until the block
//! has slid `xslide` (gross sliding; well beyond any model's pre-sliding range by default) or u
//! reaches `umax`; F_b is the friction peak of that run ([`Breakaway::of`]). A law without a
//! stiction peak gets its largest F, and the readout says so.

use crate::experiments::stickslip::forced::{
    Breakaway, BreakawayCurve, ForcedRun, ForcedSeries, Forcing, Push,
};
use crate::experiments::stickslip::{self, StickSlipError, Workspace, MAX_STEPS};
use crate::integrate::rodas::SolveError;
use crate::job::{
    change_hint, changed_values, columns, sig, BuiltModel, Example, Inputs, Job, Lesson, Output,
    Readout, ViewDef, ViewKind,
};
use crate::model::short_labels;
use crate::params::{check_all, values_or_defaults, ParamError, ParamSpec, PLACEHOLDER_NOTE};
use crate::views::lessons::{LUGRE, THESIS};

/// The view's parameters, in the order [`Ramps::from_values`] reads them.
pub const PARAMS: [ParamSpec; 6] = [
    stickslip::MASS,
    ParamSpec {
        key: "ratemin",
        name: "Slowest force rate",
        symbol: "ρ_min",
        unit: "N/s",
        default: 0.1,
        min: 1e-3,
        max: 1e6,
        log: true,
    },
    ParamSpec {
        key: "ratemax",
        name: "Fastest force rate",
        symbol: "ρ_max",
        unit: "N/s",
        default: 30.0,
        min: 1e-3,
        max: 1e6,
        log: true,
    },
    ParamSpec {
        key: "nrates",
        name: "Rates (log-spaced)",
        symbol: "n_ρ",
        unit: "",
        default: 12.0,
        min: 1.0,
        max: 40.0,
        log: false,
    },
    ParamSpec {
        key: "umax",
        name: "Largest applied force (end of a ramp)",
        symbol: "u_max",
        unit: "N",
        default: 10.0,
        min: 1e-6,
        max: 1e6,
        log: true,
    },
    ParamSpec {
        key: "xslide",
        name: "Sliding distance that ends a ramp",
        symbol: "x_slide",
        unit: "m",
        default: 0.01,
        min: 1e-9,
        max: 10.0,
        log: true,
    },
];

/// The view.
pub static VIEW: ViewDef = ViewDef {
    name: "breakaway",
    title: "Breakaway force against force rate",
    caption: "Breakaway force per model and rate",
    kind: ViewKind::Models,
    params: &PARAMS,
    max_models: 4,
    default_models: &["lugre", "dahl"],
    default_values: &crate::views::presliding::LUGRE_1995,
    panels: 2,
    key_controls: &["ratemin", "ratemax", "model"],
    presets: Some(crate::job::Presets {
        heading: "Class scenarios",
        list: class_presets,
    }),
    example: Example {
        query: "view=breakaway&model=lugre&nrates=6",
        csv: "rate_N_per_s,breakaway_force_N,time_s,applied_force_N,x_m,slid,no_peak",
    },
    lesson: LESSON,
    job: |s: &dyn Inputs| {
        let r = Ramps::from_values(&s.view_values())?;
        let models = s.build_models()?;
        let changed = changed_values(&VIEW, s, &models);
        let mut job = BreakawayJob::new(r, models);
        job.changed = changed;
        Ok(Box::new(job))
    },
    ..ViewDef::BASE
};

/// What the page's lesson box says about `view=breakaway`.
const LESSON: Lesson = Lesson {
    text: &[
        "The breakaway force is the largest friction force before the block starts to \
         slide. For dynamic models it depends on how fast the applied force rises.",
        "The plot shows the breakaway force against the force rate: LuGre's falls as the \
         rate grows, a static law's stays at μ_s F_N.",
        "Compare LuGre with Dahl, which has no static peak at all.",
    ],
    equation: LUGRE,
    references: &[THESIS],
    schematic: None,
    notes: &[PLACEHOLDER_NOTE],
};

/// How the breakaway force is defined, with its source (the page shows it under the table).
pub const DEFINITION: &str = "Breakaway force F_b: \"the maximum friction force value\", the \
    level of force required to leave the static state (thesis §5.1 and §1.3; CATALOG §1 #2). \
    Each ramp u = ρ t runs until the block has slid x_slide (gross sliding) or u reaches u_max; \
    F_b is the friction peak of the run: the largest local maximum of F(t), where it first \
    occurs (not the largest F of the whole run: once the block slides, a viscous term can grow \
    past the peak), located among the solver's accepted steps (at most 1/200 of the ramp \
    apart; steps 1000 times shorter change it by less than 1e-4).";

/// Validated ramp settings.
#[derive(Debug, Clone, PartialEq)]
pub struct Ramps {
    /// Mass m \[kg\].
    pub m: f64,
    /// Force rates ρ \[N/s\], increasing.
    pub rates: Vec<f64>,
    /// Largest applied force u_max \[N\]: a ramp's end time is u_max/ρ.
    pub umax: f64,
    /// Sliding distance that ends a ramp \[m\].
    pub xslide: f64,
}

impl Ramps {
    /// Checks view values in [`PARAMS`] order (missing trailing ones take defaults); the count
    /// is rounded, and several rates need ρ_max > ρ_min.
    pub fn from_values(values: &[f64]) -> Result<Ramps, ParamError> {
        let v = values_or_defaults(&PARAMS, values);
        check_all(&PARAMS, &v)?;
        let [m, lo, hi, n, umax, xslide]: [f64; 6] = v
            .try_into()
            .expect("values_or_defaults returns one value per spec");
        let n = n.round() as usize;
        if n > 1 && hi <= lo {
            return Err(ParamError::relation(
                &[("ratemin", lo), ("ratemax", hi), ("nrates", n as f64)],
                "needs ratemin < ratemax for several rates",
            ));
        }
        let rates = (0..n)
            .map(|k| match k {
                0 => lo,
                k if k + 1 == n => hi,
                k => lo * (hi / lo).powf(k as f64 / (n - 1) as f64),
            })
            .collect();
        Ok(Ramps {
            m,
            rates,
            umax,
            xslide,
        })
    }
}

/// One ramp per (model, rate), [`stickslip::unit_steps`] solver steps per unit of work: a ramp
/// can take hundreds of thousands of steps (a stiff law at a slow rate ran 20 s in one piece),
/// so runs are cut into pieces the caller's budget can stop.
pub struct BreakawayJob {
    ramps: Ramps,
    models: Vec<BuiltModel>,
    ws: Box<Workspace>,
    curves: Vec<BreakawayCurve>,
    errors: Vec<String>,
    /// (model, rate) of the next run.
    next: (usize, usize),
    /// The run of `next` when it has started and not finished.
    current: Option<Box<ForcedRun>>,
    /// Per model, the values changed from their defaults ([`changed_values`]).
    changed: Vec<Vec<String>>,
}

impl BreakawayJob {
    /// A job for the ramps and models (nothing computed yet).
    pub fn new(ramps: Ramps, models: Vec<BuiltModel>) -> BreakawayJob {
        let curves = (0..models.len())
            .map(|model| BreakawayCurve {
                model,
                points: Vec::new(),
            })
            .collect();
        BreakawayJob {
            ramps,
            models,
            ws: Box::default(),
            curves,
            errors: Vec::new(),
            next: (0, 0),
            current: None,
            changed: Vec::new(),
        }
    }

    /// The finished curves.
    pub fn curves(&self) -> &[BreakawayCurve] {
        &self.curves
    }

    /// Advances the ramp of model `i` at `rate` by one chunk: `Some` once it has finished.
    fn ramp(&mut self, i: usize, rate: f64) -> Result<Option<ForcedSeries>, StickSlipError> {
        let m = self.models[i].1.as_ref();
        let mut run = match self.current.take() {
            Some(run) => run,
            None => {
                let tend = self.ramps.umax / rate;
                let push = Push {
                    m: self.ramps.m,
                    forcing: Forcing::Ramp { rate },
                    tend,
                    hmax: tend / 200.0,
                    x_stop: Some(self.ramps.xslide),
                };
                Box::new(ForcedRun::start(&mut self.ws, &push, m)?)
            }
        };
        // the block adds x and ẋ to the model's states
        let out = run.advance(&mut self.ws, m, stickslip::unit_steps(m))?;
        if out.is_none() {
            self.current = Some(run);
        }
        Ok(out)
    }
}

impl Job for BreakawayJob {
    fn budget_hint(&self) -> String {
        change_hint(
            self.changed.get(self.next.0).map_or(&[][..], Vec::as_slice),
            "select fewer models or rates (nrates), or raise the slowest rate (ratemin)",
        )
    }
    fn advance(&mut self, _: &dyn Fn() -> f64) {
        let (i, k) = self.next;
        let n = self.ramps.rates.len();
        if i >= self.models.len() {
            return;
        }
        let rate = self.ramps.rates[k];
        match self.ramp(i, rate) {
            Ok(None) => {}
            Ok(Some(r)) => {
                self.curves[i].points.push(Breakaway::of(rate, &r));
                self.next = if k + 1 < n { (i, k + 1) } else { (i + 1, 0) };
            }
            Err(err) => {
                let changed = self.changed.get(i).map_or(&[][..], Vec::as_slice);
                let msg = match err {
                    StickSlipError::Solver(SolveError::TooManySteps { t }) => format!(
                        "the ramp at ρ = {} N/s needs more than {MAX_STEPS} solver steps \
                         (stopped at t = {t:.4} s): {}",
                        sig(rate),
                        change_hint(
                            changed,
                            "raise the slowest rate (ratemin) or lower u_max (umax)"
                        )
                    ),
                    StickSlipError::Solver(SolveError::StepTooSmall { t }) => format!(
                        "the ramp at ρ = {} N/s: step size underflow at t = {t} s (too stiff \
                         for the solver's smallest step): {}",
                        sig(rate),
                        change_hint(changed, "select another model")
                    ),
                    e => format!("the ramp at ρ = {} N/s: {e}", sig(rate)),
                };
                self.errors
                    .push(format!("{}: {msg}", self.models[i].0.info.name));
                // the model's later (faster) ramps still run
                self.next = if k + 1 < n { (i, k + 1) } else { (i + 1, 0) };
            }
        }
    }
    fn done(&self) -> bool {
        self.next.0 >= self.models.len()
    }
    fn progress(&self) -> (usize, usize) {
        let n = self.ramps.rates.len();
        (self.next.0 * n + self.next.1, self.models.len() * n)
    }
    fn output(&self) -> Output<'_> {
        if self.curves.iter().all(|c| c.points.is_empty()) {
            return Output::Empty;
        }
        let infos: Vec<_> = self.models.iter().map(|(e, _)| e.info).collect();
        Output::Breakaway {
            labels: short_labels(&infos),
            curves: &self.curves,
        }
    }
    fn error(&self) -> Option<String> {
        (!self.errors.is_empty()).then(|| self.errors.join(" "))
    }
    fn readout(&self) -> Readout {
        let mut rows = Vec::new();
        let mut notes = Vec::new();
        let mut summary = Vec::new();
        for c in &self.curves {
            let name = self.models[c.model].0.info.name;
            for b in &c.points {
                rows.push(vec![
                    name.to_string(),
                    sig(b.rate),
                    sig(b.force),
                    sig(b.applied),
                    sig(b.time),
                    sig(b.x),
                    if b.slid { "x_slide" } else { "u_max" }.to_string(),
                ]);
            }
            let flat = c.points.iter().filter(|b| b.no_peak).count();
            if flat > 0 {
                notes.push(format!(
                    "{name}: at {flat} of {} rates F had no peak (it rose to the end of the ramp \
                     or to a plateau): its largest value is shown, and no displacement at \
                     breakaway is drawn.",
                    c.points.len()
                ));
            }
            if let (Some(a), Some(b)) = (c.points.first(), c.points.last()) {
                summary.push(format!(
                    "{name}: breakaway force {} N at {} N/s, {} N at {} N/s.",
                    sig(a.force),
                    sig(a.rate),
                    sig(b.force),
                    sig(b.rate)
                ));
            }
        }
        notes.extend(
            self.models
                .iter()
                .filter_map(|(e, _)| e.info.provisional_note()),
        );
        notes.extend(self.errors.iter().cloned());
        Readout {
            columns: columns(&[
                "model",
                "rate ρ [N/s]",
                "breakaway force F_b [N]",
                "applied force then [N]",
                "time [s]",
                "x then [m]",
                "ramp ended at",
            ]),
            rows,
            notes,
            definitions: vec![DEFINITION.to_string()],
            summary: summary.join(" "),
        }
    }
    fn csv(&self, _: bool) -> String {
        let multi = self.models.len() > 1;
        let lead = if multi { "model," } else { "" };
        let mut out = format!(
            "{lead}rate_N_per_s,breakaway_force_N,time_s,applied_force_N,x_m,slid,no_peak\n"
        );
        for c in &self.curves {
            let id = if multi {
                format!("{},", self.models[c.model].0.info.id)
            } else {
                String::new()
            };
            for b in &c.points {
                out.push_str(&format!(
                    "{id}{},{},{},{},{},{},{}\n",
                    b.rate,
                    b.force,
                    b.time,
                    b.applied,
                    b.x,
                    u8::from(b.slid),
                    u8::from(b.no_peak)
                ));
            }
        }
        out
    }
}

/// Named scenarios for a class: how breakaway depends on the rate the force rises.
pub fn class_presets() -> Vec<crate::job::Preset> {
    use crate::job::Preset;
    vec![
        Preset::new(
            "lugre-dahl",
            "LuGre vs Dahl, Table 7.1",
            "Breakaway force: LuGre against Dahl with the thesis' Table 7.1 values",
            "LuGre's breakaway force falls as the force rises faster; Dahl has no static peak \
             (the view opens on the 1995 paper's values)",
            &[("model", "lugre,dahl")],
        ),
        Preset::new(
            "lugre",
            "LuGre alone",
            "Breakaway force of LuGre against force rate",
            "the varying breakaway force of a dynamic friction model",
            &[("model", "lugre")],
        ),
    ]
}
