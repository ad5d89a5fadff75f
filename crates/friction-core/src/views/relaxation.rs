//! `view=relaxation`: the FrBD letter's Fig. 4, the force from rest at constant sliding velocity
//! for the orders 1..n of one model (one curve for the n = 0 models).

use crate::experiments::driven::UNIT_WORK;
use crate::experiments::relaxation::{self, Curve, RelaxationConfig};
use crate::integrate::linear::LinearModel;
use crate::job::{
    columns, sig, undefined_notes, Example, FrbdView, Inputs, Job, Lesson, Output, Readout,
    ViewDef, ViewKind,
};
use crate::params::{fmt_cell, fmt_num, ParamError};
use crate::views::lessons::{FRBD, GM};

/// The view.
pub static VIEW: ViewDef = ViewDef {
    name: "relaxation",
    title: "Relaxation at constant velocity (Fig. 4)",
    caption: "Relaxation curves",
    kind: ViewKind::Frbd(FrbdView::Relaxation),
    metrics: Some("curve,f_end,steady,fmax"),
    key_controls: &["vrel", "k0", "tau"],
    presets: Some(crate::job::Presets {
        heading: "Class scenarios",
        list: class_presets,
    }),
    example: Example {
        query: "view=relaxation&tend=30",
        csv: "t,F_n1,F_n2,F_n3",
    },
    lesson: LESSON,
    job: |s| Ok(Box::new(RelaxationJob::new(config(s)?))),
    ..ViewDef::BASE
};

/// What the page's lesson box says about `view=relaxation`.
const LESSON: Lesson = Lesson {
    text: &[
        "At a constant sliding velocity the bristles of a FrBD model load up and the force \
         relaxes to its steady sliding value.",
        "The plot draws one curve for each order from 1 up to the chosen n (n = 3 gives the \
         curves n = 1, 2, 3, as in Fig. 4), so you see what each extra Maxwell branch adds: \
         a slower time constant in the approach.",
        "Try n = 1 against n = 3, or a faster sliding velocity: with Stribeck weakening the \
         force relaxes to a lower level.",
    ],
    equation: GM,
    references: &[FRBD],
    schematic: None,
    notes: &[],
};

/// The experiment: orders 1..=n of the model (one curve for n = 0 models).
pub fn config(s: &dyn Inputs) -> Result<RelaxationConfig, ParamError> {
    let n = s.order();
    let models = if n == 0 {
        vec![(s.frbd_kind().name().to_string(), s.frbd(0)?)]
    } else {
        (1..=n)
            .map(|m| Ok((format!("n = {m}"), s.frbd(m)?)))
            .collect::<Result<Vec<_>, ParamError>>()?
    };
    Ok(RelaxationConfig {
        models,
        v: s.num("vrel"),
        t_end: s.num("tend"),
        points: relaxation::DEFAULT_POINTS,
    })
}

/// Solver steps of a curve per unit of work for a model of few states (a curve has up to
/// 400,000).
pub const STEPS_CHUNK: usize = 20_000;

/// Solver steps per unit for `m`: [`STEPS_CHUNK`], fewer for a high order, whose every step
/// costs in proportion to its states (order 10: 5,818 steps, 3 ms natively).
pub fn chunk(m: &dyn LinearModel) -> usize {
    STEPS_CHUNK.min(2 * UNIT_WORK / m.dim().max(1))
}

/// The curves, [`chunk`] solver steps per unit of work.
pub struct RelaxationJob {
    cfg: RelaxationConfig,
    curves: Vec<Curve>,
    run: Option<relaxation::CurveRun>,
}

impl RelaxationJob {
    /// A job for `cfg` (nothing computed yet).
    pub fn new(cfg: RelaxationConfig) -> RelaxationJob {
        RelaxationJob {
            cfg,
            curves: Vec::new(),
            run: None,
        }
    }
}

impl Job for RelaxationJob {
    fn advance(&mut self, _: &dyn Fn() -> f64) {
        if let Some((label, m)) = self.cfg.models.get(self.curves.len()) {
            let cfg = &self.cfg;
            let run = self
                .run
                .get_or_insert_with(|| relaxation::CurveRun::new(cfg, m));
            if run.advance(cfg, m, chunk(m)) {
                if let Some(r) = self.run.take() {
                    self.curves.push(r.finish(label, m, cfg.v));
                }
            }
        }
    }
    fn done(&self) -> bool {
        self.curves.len() >= self.cfg.models.len()
    }
    fn progress(&self) -> (usize, usize) {
        (self.curves.len(), self.cfg.models.len())
    }
    fn budget_hint(&self) -> String {
        "lower tend or the order n".into()
    }
    fn output(&self) -> Output<'_> {
        if self.curves.is_empty() {
            return Output::Empty;
        }
        Output::Relaxation {
            cfg: &self.cfg,
            curves: &self.curves,
        }
    }
    fn readout(&self) -> Readout {
        let rows: Vec<Vec<String>> = self
            .curves
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
            columns: columns(&[
                "model",
                "F at first sample [N]",
                "F at t_end [N]",
                "steady state [N]",
            ]),
            rows,
            notes: self.metric_notes(),
            definitions: Vec::new(),
            summary,
        }
    }
    fn metric_notes(&self) -> Vec<String> {
        self.curves
            .iter()
            .flat_map(|c| {
                let values = [
                    ("f_end", c.f.last().copied().unwrap_or(f64::NAN)),
                    ("steady", c.steady),
                    (
                        "fmax",
                        c.f.iter().copied().fold(f64::NEG_INFINITY, f64::max),
                    ),
                ];
                undefined_notes(&c.label, &values, |_, _| None)
            })
            .collect()
    }
    fn csv(&self, metrics: bool) -> String {
        let curves = &self.curves;
        let mut out = String::new();
        if metrics {
            out.push_str("curve,f_end,steady,fmax\n");
            for c in curves {
                let fmax = c.f.iter().copied().fold(f64::NEG_INFINITY, f64::max);
                let fend = c.f.last().copied().unwrap_or(f64::NAN);
                out.push_str(&format!(
                    "{},{},{},{}\n",
                    c.label,
                    fmt_cell(fend),
                    fmt_cell(c.steady),
                    fmt_cell(fmax)
                ));
            }
            return out;
        }
        // one shared log time grid: a column per order (`t,F` for a single curve)
        if curves.len() == 1 {
            out.push_str("t,F\n");
        } else {
            let cols: Vec<String> = (1..=curves.len()).map(|m| format!("F_n{m}")).collect();
            out.push_str(&format!("t,{}\n", cols.join(",")));
        }
        let rows = curves.first().map_or(0, |c| c.t.len());
        for k in 0..rows {
            out.push_str(&fmt_num(curves[0].t[k]));
            for c in curves {
                out.push(',');
                out.push_str(&fmt_num(c.f[k]));
            }
            out.push('\n');
        }
        out
    }
}

/// Named scenarios for a class: the order's effect and the sliding speed's.
pub fn class_presets() -> Vec<crate::job::Preset> {
    use crate::job::Preset;
    vec![
        Preset::new(
            "one-branch",
            "n = 1 only",
            "Relaxation with one branch (n = 1)",
            "a single Maxwell branch: one time constant, the force settles once",
            &[("model", "frbd-gm"), ("n", "1")],
        ),
        Preset::new(
            "three-branches",
            "n = 1, 2, 3",
            "Relaxation for the orders 1, 2 and 3 (Fig. 4)",
            "each added branch adds a slower time constant: the curves for n = 1, 2, 3 part",
            &[("model", "frbd-gm"), ("n", "3")],
        ),
        Preset::new(
            "fast-sliding",
            "fast sliding",
            "Relaxation at a ten times faster sliding velocity",
            "v_rel = 0.1 m/s: Stribeck weakening lowers the level the force relaxes to",
            &[("model", "frbd-gm"), ("n", "3"), ("vrel", "0.1")],
        ),
    ]
}
