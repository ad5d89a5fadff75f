//! `view=hysteresis`: the FrBD letter's Fig. 3, steady friction–velocity loops of one FrBD model
//! at several frequencies of v(t) = v_mean + v_amp·cos(ω t).

use crate::experiments::hysteresis::{HysteresisConfig, HysteresisRun};
use crate::frbd::spec;
use crate::job::{
    columns, sig, undefined_notes, Example, FrbdView, Inputs, Job, Lesson, Output, Preset, Presets,
    Readout, ViewDef, ViewKind,
};
use crate::params::{fmt_cell, fmt_num, ParamError};
use crate::views::lessons::{FRBD, GM};

/// How the loops' peak and minimum forces are found, as the readout states it.
pub const PEAK_METHOD: &str = "Peak F and min F: the extremes of the integrator's steady cycle \
    (L-stable SDIRK2 at ≥ 400 steps a cycle, more for a stiff model), each refined by the \
    parabola through the extreme step and its two neighbours (within 1e-5 of the continuous \
    solution's extremes found by an independent dense integration).";

/// The view.
pub static VIEW: ViewDef = ViewDef {
    name: "hysteresis",
    title: "Frictional-lag hysteresis (Fig. 3)",
    caption: "Steady-cycle metrics per frequency",
    kind: ViewKind::Frbd(FrbdView::Hysteresis),
    metrics: Some("freq,fmax,fmin,area,energy"),
    key_controls: &["vs", "k0", "tau", "freqs"],
    presets: Some(Presets {
        heading: "Scenarios",
        list: class_presets,
    }),
    example: Example {
        query: "view=hysteresis&freqs=25,50,100",
        csv: "freq,t,v,F",
    },
    lesson: LESSON,
    job: |s| Ok(Box::new(HysteresisJob::new(config(s)?))),
    ..ViewDef::BASE
};

/// What the page's lesson box says about `view=hysteresis`.
const LESSON: Lesson = Lesson {
    text: &[
        "A FrBD model treats the contact as bristles whose deflection z is a small \
         viscoelastic solid: a spring k̄0 in parallel with n spring–damper branches, sliding \
         with a Stribeck friction coefficient μ(v).",
        "The plot shows the friction force against velocity while the velocity swings \
         v = v_mean + v_amp cos ωt: the force lags the velocity, so each frequency traces a \
         loop, and the faster the swing the wider the loop.",
        "Try raising the Stribeck velocity v_S: the loops flatten, because μ(v) stays near \
         μ_s when v_S is far above the speeds reached. Use Lock axes to compare two settings \
         on the same scale.",
    ],
    equation: GM,
    references: &[FRBD],
    schematic: None,
    notes: &[],
};

/// The two readings under which Fig. 3's claims both hold (the peak force falls with frequency
/// while the loops broaden), found with the frequency sweep (`views/sweep.rs`, its notes and
/// `tests/it/prescribed.rs`): the letter's printed σ0 = k̄1 with f in Hz, or Table I's mapping with
/// ω in rad/s and a mean velocity of 0.02 m/s. Every key the figure depends on is set, so a
/// preset gives the same picture whatever was set before.
pub fn fig3_presets() -> Vec<Preset> {
    let common = |k0: f64, k1: f64, funit: &str, vmean: &str| {
        vec![
            ("model", "frbd-gm".to_string()),
            ("n", "1".to_string()),
            ("k0", fmt_num(k0)),
            ("k", fmt_num(k1)),
            ("tau", fmt_num(spec::GAMMA1_TABLE_I)),
            ("funit", funit.to_string()),
            ("freqs", "25,50,100".to_string()),
            ("vmean", vmean.to_string()),
            ("vamp", "0.01".to_string()),
        ]
    };
    vec![
        Preset {
            id: "fig3-printed",
            label: "σ0 = k̄1 as printed, f in Hz",
            name: "Fig. 3 with the letter's printed σ0 = k̄1".to_string(),
            description: "k̄0 = 54500 N/m, k̄1 = 10000 N/m, v = 0.015 + 0.01 cos 2πft, f = 25, 50, \
                          100 Hz: the peak falls and the loops broaden"
                .to_string(),
            query: common(54500.0, 10000.0, "hz", "0.015"),
        },
        Preset {
            id: "fig3-rad",
            label: "Table I, ω in rad/s",
            name: "Fig. 3 with Table I read as ω in rad/s".to_string(),
            description: "Table I mapped through FRBD.md §5, v = 0.02 + 0.01 cos ωt, ω = 25, 50, \
                          100 rad/s: the peak falls and the loops broaden"
                .to_string(),
            query: common(spec::K0.default, spec::K1.default, "rad", "0.02"),
        },
    ]
}

/// Fig. 3's two readings, then the Stribeck velocity at both ends of what the loops show: strong
/// weakening (the loops bend down as |v| grows) and almost none (the loops flatten to a spread of
/// 10⁻⁴ N, which the axes' offset note makes readable).
pub fn class_presets() -> Vec<Preset> {
    let mut out = fig3_presets();
    out.push(Preset::new(
        "strong-weakening",
        "Stribeck weakening (v_S = 0.001)",
        "Hysteresis with strong Stribeck weakening, v_S = 0.001 m/s",
        "v_S far below the sliding speed: the friction falls to its sliding value and the \
         loops bend down",
        &[("vs", "0.001")],
    ));
    out.push(Preset::new(
        "no-weakening",
        "no weakening (v_S = 8.11)",
        "Hysteresis with almost no Stribeck weakening, v_S = 8.11 m/s",
        "v_S far above the sliding speed: μ stays at μ_s and the loops shrink to a spread of \
         about 10⁻⁴ N",
        &[("vs", "8.11")],
    ));
    out
}

/// Solver steps between two looks at the clock (≈ 0.05 ms each for the default model).
pub const STEPS_CHUNK: usize = 400;

/// The experiment the inputs describe (any FrBD view: the velocity and frequency keys or their
/// defaults).
pub fn config(s: &dyn Inputs) -> Result<HysteresisConfig, ParamError> {
    let mut cfg = HysteresisConfig::new(s.frbd(s.order())?);
    cfg.v_mean = s.num("vmean");
    cfg.v_amp = s.num("vamp");
    cfg.freqs = s.list("freqs");
    cfg.unit = s.freq_unit();
    Ok(cfg)
}

/// The loops, refined [`STEPS_CHUNK`] steps at a time.
pub struct HysteresisJob {
    cfg: HysteresisConfig,
    run: Box<HysteresisRun>,
    done: bool,
}

impl HysteresisJob {
    /// A job for `cfg` (nothing computed yet).
    pub fn new(cfg: HysteresisConfig) -> HysteresisJob {
        HysteresisJob {
            run: Box::new(HysteresisRun::new(&cfg)),
            cfg,
            done: false,
        }
    }
}

impl Job for HysteresisJob {
    fn advance(&mut self, _: &dyn Fn() -> f64) {
        if !self.done {
            self.done = self.run.advance(STEPS_CHUNK);
        }
    }
    fn done(&self) -> bool {
        self.done
    }
    fn progress(&self) -> (usize, usize) {
        self.run.progress()
    }
    fn budget_hint(&self) -> String {
        "give fewer frequencies (freqs) or a lower order n".into()
    }
    fn output(&self) -> Output<'_> {
        let mut loops = self.run.loops().to_vec();
        if !self.done {
            loops.extend(self.run.current());
        }
        Output::Hysteresis {
            cfg: &self.cfg,
            loops,
        }
    }
    fn readout(&self) -> Readout {
        let unit = self.cfg.unit.label();
        let mut notes = Vec::new();
        let rows: Vec<Vec<String>> = self
            .run
            .loops()
            .iter()
            .map(|l| {
                let m = &l.metrics;
                if !l.converged {
                    notes.push(format!(
                        "{} {unit}: not periodic to tolerance after {} cycles",
                        fmt_num(l.freq),
                        m.cycles
                    ));
                }
                vec![
                    format!("{} {unit}", fmt_num(l.freq)),
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
                    "At {}: peak F {} N, min F {} N, loop area {} N·m/s, energy per cycle {} J, \
                     passivity residual {} J.",
                    r[0], r[1], r[2], r[3], r[4], r[5]
                )
            })
            .collect::<Vec<_>>()
            .join(" ");
        notes.extend(self.metric_notes());
        Readout {
            columns: columns(&[
                "frequency",
                "peak F [N]",
                "min F [N]",
                "loop area ∮F dv [N·m/s]",
                "energy per cycle [J]",
                "passivity residual [J]",
            ]),
            rows,
            notes,
            definitions: vec![PEAK_METHOD.to_string()],
            summary,
        }
    }
    fn metric_notes(&self) -> Vec<String> {
        let unit = self.cfg.unit.label();
        self.run
            .loops()
            .iter()
            .flat_map(|l| {
                let m = &l.metrics;
                let values = [
                    ("fmax", m.fmax),
                    ("fmin", m.fmin),
                    ("area", m.area),
                    ("energy", m.energy),
                ];
                undefined_notes(&format!("{} {unit}", fmt_num(l.freq)), &values, |_, _| None)
            })
            .collect()
    }
    fn warnings(&self) -> Vec<String> {
        self.run
            .loops()
            .iter()
            .filter(|l| !l.converged)
            .map(|l| {
                format!(
                    "the {} loop was not periodic after {} cycles",
                    fmt_num(l.freq),
                    l.metrics.cycles
                )
            })
            .collect()
    }
    fn csv(&self, metrics: bool) -> String {
        let mut out = String::new();
        if metrics {
            out.push_str("freq,fmax,fmin,area,energy\n");
            for l in self.run.loops() {
                let m = l.metrics;
                out.push_str(&format!(
                    "{},{},{},{},{}\n",
                    fmt_num(l.freq),
                    fmt_cell(m.fmax),
                    fmt_cell(m.fmin),
                    fmt_cell(m.area),
                    fmt_cell(m.energy)
                ));
            }
        } else {
            out.push_str("freq,t,v,F\n");
            for l in self.run.loops() {
                for k in 0..l.t.len() {
                    out.push_str(&format!(
                        "{},{},{},{}\n",
                        fmt_num(l.freq),
                        fmt_num(l.t[k]),
                        fmt_num(l.v[k]),
                        fmt_num(l.f[k])
                    ));
                }
            }
        }
        out
    }
}
