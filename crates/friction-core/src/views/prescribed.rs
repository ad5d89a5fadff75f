//! `view=prescribed`: steady loops of any registry model under a prescribed sinusoidal velocity
//! (v = v_mean + v_amp·cos ωt, the hysteresis view's input) or displacement (x = x_amp·sin ωt,
//! pre-sliding loops), for up to four models at the first frequency or one model at up to four
//! frequencies (`f1`..`f4`, 0 = unused). The experiment is `experiments::prescribed`; FrBD
//! models run through the hysteresis view's own integrator, so their loops equal that view's.
//!
//! Why four scalar keys rather than a list like the hysteresis view's `freqs`: the registry-model
//! schema has scalar keys only, and each key is already a field, a slider and a link value with
//! its range checked where it enters; a list kind there would touch parsing, printing, the page's
//! controls and the per-model keys for one view. Four loops are what one chart shows legibly.
//!
//! CSV (SI units): `t` \[s\] within the cycle, `x` \[m\] displacement since its start, `v` \[m/s\],
//! `F` \[N\], then the model's continuous states `s1`, `s2`, … (their own units; empty where a
//! model has fewer), with a leading `model` column when several models are shown and a `freq`
//! column when several frequencies are.

use crate::experiments::hysteresis::{FreqUnit, VAMP};
use crate::experiments::prescribed::{
    Cycle, CycleRun, Drive, Excitation, EXCITE, PEAK_METHOD, RAD, VMEAN, XAMP,
};
use crate::frbd::Frbd;
use crate::job::{
    columns, sig, undefined_notes, BuiltModel, Example, Inputs, Job, Lesson, Output, Readout,
    ViewDef, ViewKind,
};
use crate::model::{short_labels, Category, FrictionModel};
use crate::params::{fmt_cell, fmt_num, ParamError, ParamSpec, PLACEHOLDER_NOTE};
use crate::views::lessons::{FRBD, LUGRE, THESIS};

/// Frequency keys: `f1` is always used, `f2`..`f4` when not 0 and one model is selected.
pub const FREQS: [ParamSpec; 4] = [
    ParamSpec {
        key: "f1",
        name: "Frequency 1",
        symbol: "f_1",
        unit: "Hz or rad/s",
        default: 25.0,
        min: 1e-3,
        max: 1e4,
        log: true,
    },
    ParamSpec {
        key: "f2",
        name: "Frequency 2 (0: none)",
        symbol: "f_2",
        unit: "Hz or rad/s",
        default: 50.0,
        min: 0.0,
        max: 1e4,
        log: true,
    },
    ParamSpec {
        key: "f3",
        name: "Frequency 3 (0: none)",
        symbol: "f_3",
        unit: "Hz or rad/s",
        default: 100.0,
        min: 0.0,
        max: 1e4,
        log: true,
    },
    ParamSpec {
        key: "f4",
        name: "Frequency 4 (0: none)",
        symbol: "f_4",
        unit: "Hz or rad/s",
        default: 0.0,
        min: 0.0,
        max: 1e4,
        log: true,
    },
];

/// The view's keys, in display order.
pub const PARAMS: [ParamSpec; 9] = [
    EXCITE, VMEAN, VAMP, XAMP, RAD, FREQS[0], FREQS[1], FREQS[2], FREQS[3],
];

/// The view.
pub static VIEW: ViewDef = ViewDef {
    name: "prescribed",
    title: "Prescribed motion: loops of any model",
    caption: "Steady-cycle metrics per loop",
    kind: ViewKind::Models,
    params: &PARAMS,
    max_models: 4,
    default_models: &["lugre"],
    metrics: Some("model,freq,fmax,fmin,area,energy,cycles,converged"),
    panels: 3,
    key_controls: &["vamp", "f1", "model"],
    presets: Some(crate::job::Presets {
        heading: "Class scenarios",
        list: class_presets,
    }),
    example: Example {
        query: "view=prescribed&model=lugre&excite=1",
        csv: "freq,t,x,v,F,s1",
    },
    lesson: LESSON,
    job: |s| Ok(Box::new(PrescribedJob::new(s)?)),
    ..ViewDef::BASE
};

/// What the page's lesson box says about `view=prescribed`.
const LESSON: Lesson = Lesson {
    text: &[
        "Here the motion is prescribed (a velocity v = v_mean + v_amp cos ωt or a \
         displacement x = x_amp sin ωt) and the friction force of any model is computed \
         along it.",
        "The panels show steady loops of F against v and against x and the models' states: \
         the area of a loop in F–x is the energy lost per cycle.",
        "Overlay LuGre and the Generalized Maxwell-Slip model, or switch to displacement \
         driving to see the pre-sliding loop.",
    ],
    equation: LUGRE,
    references: &[THESIS, FRBD],
    schematic: None,
    notes: &[PLACEHOLDER_NOTE],
};

/// Solver steps (FrBD models) or sample intervals (the others) per unit of work.
pub const FRBD_CHUNK: usize = 400;
/// Sample intervals per unit of work for the models stepped by the event-locating solver.
pub const STEP_CHUNK: usize = 100;

/// The excitation the inputs describe (any view with `excite`, `vmean`, `vamp`, `xamp`, `rad`).
pub fn drive(s: &dyn Inputs) -> Drive {
    let excitation = if s.num("excite") >= 0.5 {
        Excitation::Displacement {
            x_amp: s.num("xamp"),
        }
    } else {
        Excitation::Velocity {
            v_mean: s.num("vmean"),
            v_amp: s.num("vamp"),
        }
    };
    let unit = if s.num("rad") >= 0.5 {
        FreqUnit::Rad
    } else {
        FreqUnit::Hz
    };
    Drive::new(excitation, unit)
}

/// The selected models as the FrBD enum where they are FrBD models (run through the hysteresis
/// view's integrator), in [`Inputs::build_models`] order.
pub fn frbd_models(s: &dyn Inputs, models: &[BuiltModel]) -> Result<Vec<Option<Frbd>>, ParamError> {
    models
        .iter()
        .zip(s.model_values())
        .map(|((e, _), values)| Frbd::from_registry(e.info.id, &values).transpose())
        .collect()
}

/// Units of work per [`CycleRun::advance`] for a model: fewer for models with many states, whose
/// every step costs in proportion (GMS with 1000 elements took 1 s per 100 sample intervals).
pub fn chunk(frbd: Option<&Frbd>, m: &dyn FrictionModel) -> usize {
    if frbd.is_some() {
        FRBD_CHUNK
    } else {
        (STEP_CHUNK * 16 / (16 + m.n_states())).max(1)
    }
}

/// The loops of the selected models, one run after another.
pub struct PrescribedJob {
    drive: Drive,
    models: Vec<BuiltModel>,
    frbd: Vec<Option<Frbd>>,
    /// (model index, frequency) of every loop, in slot order.
    tasks: Vec<(usize, f64)>,
    /// Legend label of every slot.
    labels: Vec<String>,
    /// Whether the slots are frequencies of one model (else models at `f1`).
    by_freq: bool,
    finished: Vec<Cycle>,
    current: Option<Box<CycleRun>>,
}

impl PrescribedJob {
    /// The job the inputs describe (nothing computed yet).
    pub fn new(s: &dyn Inputs) -> Result<PrescribedJob, ParamError> {
        let drive = drive(s);
        let models = s.build_models()?;
        let frbd = frbd_models(s, &models)?;
        let f: Vec<f64> = FREQS.iter().map(|p| s.num(p.key)).collect();
        let by_freq = models.len() == 1;
        let unit = drive.unit.label();
        let (tasks, labels): (Vec<(usize, f64)>, Vec<String>) = if by_freq {
            let mut seen: Vec<f64> = Vec::new();
            for x in f {
                if x > 0.0 && !seen.contains(&x) {
                    seen.push(x);
                }
            }
            seen.iter()
                .map(|&x| ((0, x), format!("{} {unit}", fmt_num(x))))
                .unzip()
        } else {
            let infos: Vec<_> = models.iter().map(|(e, _)| e.info).collect();
            let tasks = (0..models.len()).map(|i| (i, f[0])).collect();
            (tasks, short_labels(&infos))
        };
        Ok(PrescribedJob {
            drive,
            models,
            frbd,
            tasks,
            labels,
            by_freq,
            finished: Vec::new(),
            current: None,
        })
    }

    /// The selected model of a loop slot.
    fn model_of(&self, slot: usize) -> &BuiltModel {
        &self.models[self.tasks[slot].0]
    }
}

impl Job for PrescribedJob {
    fn advance(&mut self, _: &dyn Fn() -> f64) {
        let slot = self.finished.len();
        let Some(&(i, freq)) = self.tasks.get(slot) else {
            return;
        };
        let m = self.models[i].1.as_ref();
        let frbd = self.frbd[i].as_ref();
        let run = self
            .current
            .get_or_insert_with(|| Box::new(CycleRun::new(m, frbd, &self.drive, freq)));
        if run.advance(m, chunk(frbd, m)) {
            if let Some(c) = run.cycle() {
                self.finished.push(c);
            }
            self.current = None;
        }
    }
    fn done(&self) -> bool {
        self.finished.len() >= self.tasks.len()
    }
    fn progress(&self) -> (usize, usize) {
        (self.finished.len(), self.tasks.len())
    }
    fn output(&self) -> Output<'_> {
        let mut cycles: Vec<(usize, Cycle)> = self.finished.iter().cloned().enumerate().collect();
        if let Some(c) = self.current.as_ref().and_then(|r| r.cycle()) {
            cycles.push((self.finished.len(), c));
        }
        if cycles.is_empty() {
            return Output::Empty;
        }
        Output::Prescribed {
            excitation: self.drive.excitation,
            unit: self.drive.unit,
            labels: self.labels.clone(),
            cycles,
        }
    }
    fn readout(&self) -> Readout {
        let mut notes = Vec::new();
        let mut definitions = vec![PEAK_METHOD.to_string()];
        let rows: Vec<Vec<String>> = self
            .finished
            .iter()
            .enumerate()
            .map(|(slot, c)| {
                let m = &c.metrics;
                let label = &self.labels[slot];
                if !c.converged {
                    notes.push(format!(
                        "{label}: not periodic to tolerance after {} cycles (the last is shown)",
                        m.cycles
                    ));
                }
                if m.fallbacks > 0 {
                    notes.push(format!(
                        "{label}: the event-locating solver gave up on {} sample intervals; \
                         implicit Euler took them",
                        m.fallbacks
                    ));
                }
                vec![
                    label.clone(),
                    sig(m.fmax),
                    sig(m.fmin),
                    sig(m.area),
                    sig(m.energy),
                    m.cycles.to_string(),
                ]
            })
            .collect();
        let infos: Vec<_> = self.models.iter().map(|(e, _)| e.info).collect();
        let names = short_labels(&infos);
        let mut seen = Vec::new();
        for ((e, m), name) in self.models.iter().zip(&names) {
            if seen.contains(&e.info.id) {
                continue;
            }
            seen.push(e.info.id);
            notes.extend(e.info.provisional_note());
            if m.n_states() == 0 {
                definitions.push(format!(
                    "{name}: a static law, F = F(v) at every instant: its loop is the law itself"
                ));
            } else if e.info.category == Category::Frbd {
                definitions.push(format!(
                    "{name}: stepped by the hysteresis view's integrator (its numbers equal that \
                     view's)"
                ));
            }
        }
        if !self.by_freq {
            definitions.push(format!(
                "Several models: each at f1 = {} {} (f2..f4 apply to one model).",
                fmt_num(self.tasks.first().map_or(0.0, |t| t.1)),
                self.drive.unit.label()
            ));
        }
        let summary = rows
            .iter()
            .map(|r| {
                format!(
                    "{}: peak F {} N, min F {} N, loop area {} N·m/s, energy per cycle {} J \
                     after {} cycles.",
                    r[0], r[1], r[2], r[3], r[4], r[5]
                )
            })
            .collect::<Vec<_>>()
            .join(" ");
        notes.extend(self.metric_notes());
        Readout {
            columns: columns(&[
                if self.by_freq { "frequency" } else { "model" },
                "peak F [N]",
                "min F [N]",
                "loop area ∮F dv [N·m/s]",
                "energy per cycle ∮F dx [J]",
                "cycles",
            ]),
            rows,
            notes,
            definitions,
            summary,
        }
    }
    fn metric_notes(&self) -> Vec<String> {
        self.finished
            .iter()
            .enumerate()
            .flat_map(|(slot, c)| {
                let m = &c.metrics;
                let values = [
                    ("fmax", m.fmax),
                    ("fmin", m.fmin),
                    ("area", m.area),
                    ("energy", m.energy),
                ];
                undefined_notes(&self.labels[slot], &values, |_, _| None)
            })
            .collect()
    }
    fn warnings(&self) -> Vec<String> {
        self.finished
            .iter()
            .enumerate()
            .filter(|(_, c)| !c.converged)
            .map(|(slot, c)| {
                format!(
                    "the {} loop was not periodic after {} cycles",
                    self.labels[slot], c.metrics.cycles
                )
            })
            .collect()
    }
    fn csv(&self, metrics: bool) -> String {
        let mut out = String::new();
        if metrics {
            out.push_str("model,freq,fmax,fmin,area,energy,cycles,converged\n");
            for (slot, c) in self.finished.iter().enumerate() {
                let m = c.metrics;
                out.push_str(&format!(
                    "{},{},{},{},{},{},{},{}\n",
                    self.model_of(slot).0.info.id,
                    fmt_num(c.freq),
                    fmt_cell(m.fmax),
                    fmt_cell(m.fmin),
                    fmt_cell(m.area),
                    fmt_cell(m.energy),
                    m.cycles,
                    u8::from(c.converged)
                ));
            }
            return out;
        }
        let several_models = !self.by_freq && self.models.len() > 1;
        let several_freqs = self.by_freq && self.tasks.len() > 1;
        let states = self
            .finished
            .iter()
            .map(|c| c.states.len())
            .max()
            .unwrap_or(0);
        let mut head: Vec<String> = Vec::new();
        if several_models {
            head.push("model".into());
        }
        if several_freqs {
            head.push("freq".into());
        }
        head.extend(["t", "x", "v", "F"].map(String::from));
        head.extend((1..=states).map(|i| format!("s{i}")));
        out.push_str(&head.join(","));
        out.push('\n');
        for (slot, c) in self.finished.iter().enumerate() {
            for k in 0..c.t.len() {
                if several_models {
                    out.push_str(self.model_of(slot).0.info.id);
                    out.push(',');
                }
                if several_freqs {
                    out.push_str(&fmt_num(c.freq));
                    out.push(',');
                }
                out.push_str(&format!(
                    "{},{},{},{}",
                    fmt_num(c.t[k]),
                    fmt_num(c.x[k]),
                    fmt_num(c.v[k]),
                    fmt_num(c.f[k])
                ));
                for i in 0..states {
                    out.push(',');
                    if let Some(s) = c.states.get(i) {
                        out.push_str(&fmt_num(s[k]));
                    }
                }
                out.push('\n');
            }
        }
        out
    }
}

/// Named scenarios for a class: loops of two models under the same motion.
pub fn class_presets() -> Vec<crate::job::Preset> {
    use crate::job::Preset;
    vec![
        Preset::new(
            "lugre-gms",
            "LuGre vs GMS",
            "Velocity-driven loops: LuGre against Generalized Maxwell-Slip",
            "the same prescribed velocity: GMS's many elements give a smoother loop",
            &[("model", "lugre,gms"), ("excite", "0")],
        ),
        Preset::new(
            "displacement",
            "displacement-driven",
            "LuGre under a prescribed displacement",
            "x = x_amp sin ωt: the pre-sliding loop in F against x",
            &[("model", "lugre"), ("excite", "1")],
        ),
    ]
}
