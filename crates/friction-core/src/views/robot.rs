//! `view=robot`: the FrBD letter's §IV-B, tracking control of a one-joint arm with FrBD joint
//! friction, a Slotine–Li law and a friction observer. The letter gives no numbers for it: every
//! default is this lab's choice.

use crate::experiments::robot_arm::{self, Arm, Metrics, RobotPieces, RobotRun};
use crate::frbd::Frbd;
use crate::integrate::linear::LinearModel;
use crate::job::{
    columns, sig, undefined_notes, Example, FrbdView, Inputs, Job, Lesson, Output, Readout,
    ViewDef, ViewKind,
};
use crate::params::{fmt_cell, fmt_num, ParamError};
use crate::views::lessons::FRBD;

/// The view.
pub static VIEW: ViewDef = ViewDef {
    name: "robot",
    title: "Robot-arm tracking with a friction observer (§IV-B)",
    caption: "Tracking metrics of the closed loop",
    kind: ViewKind::Frbd(FrbdView::Robot),
    metrics: Some("metric,value,unit"),
    panels: 4,
    key_controls: &["observer", "kobs", "qamp"],
    presets: Some(crate::job::Presets {
        heading: "Class scenarios",
        list: class_presets,
    }),
    example: Example {
        query: "view=robot&observer=0",
        csv: "t,q,qd,qdot,U,F,Fhat,W",
    },
    lesson: LESSON,
    job: |s| {
        let (arm, model) = config(s)?;
        Ok(Box::new(RobotJob::new(arm, model)))
    },
    ..ViewDef::BASE
};

/// What the page's lesson box says about `view=robot`.
const LESSON: Lesson = Lesson {
    text: &[
        "A robot joint driven by a motor torque U has FrBD friction F in its bearing; a \
         controller tracks a reference angle q_d(t) and an observer estimates the unmeasured \
         friction state and feeds its force F̂ forward.",
        "The panels show the angle and its reference, the tracking error, the friction and \
         its estimate, and the torque.",
        "Switch the observer off: without compensation the joint sticks at each reversal of \
         the motion and the tracking error grows. The letter gives no numbers for this \
         example, so every value here is this program's choice.",
    ],
    equation: concat!(
        "<math display=\"block\"><mi>m</mi><mover><mi>q</mi><mo>¨</mo></mover><mo>=</mo><mo>−</mo>",
        "<mi>c</mi><mover><mi>q</mi><mo>˙</mo></mover><mo>−</mo><mi>g</mi><mo>(</mo><mi>q</mi><mo>)</mo>",
        "<mo>−</mo><mi>F</mi><mo>+</mo><mi>U</mi><mo>,</mo><mspace width=\"1em\"/><mi>U</mi><mo>=</mo>",
        "<mi>m</mi><msub><mover><mi>q</mi><mo>¨</mo></mover><mi>r</mi></msub><mo>+</mo><mi>c</mi>",
        "<msub><mover><mi>q</mi><mo>˙</mo></mover><mi>r</mi></msub><mo>+</mo><mi>g</mi><mo>(</mo><mi>q</mi>",
        "<mo>)</mo><mo>+</mo><mover><mi>F</mi><mo>^</mo></mover><mo>−</mo><msub><mi>k</mi><mn>1</mn></msub>",
        "<mi>s</mi></math>"
    ),
    references: &[FRBD],
    schematic: Some("robot"),
    notes: &[],
};

/// Accepted solver steps per unit of work for a first-order model. The page checks its frame
/// budget between units: at 1000 steps the first unit of a page load (its wasm code not yet
/// compiled, V8 compiles on first call) took 45-95 ms, and with the layout and paint of that
/// frame made tasks of up to 140 ms; 250 steps are ~1 ms natively, ~3 ms warm in wasm.
pub const STEPS_CHUNK: usize = 250;

/// Accepted solver steps per unit for an FrBD model of order `n`: [`STEPS_CHUNK`] scaled down as
/// a step's cost grows with the states (order 10: 153 steps, about 3 ms natively).
pub fn chunk(n: usize) -> usize {
    STEPS_CHUNK * 16 / (16 + n.saturating_sub(1))
}

/// The experiment: arm, controller and initial state, and the joint-friction model.
pub fn config(s: &dyn Inputs) -> Result<(Arm, Frbd), ParamError> {
    let v: Vec<f64> = robot_arm::PARAMS.iter().map(|p| s.num(p.key)).collect();
    let arm = Arm::from_values(
        &v,
        s.num("tend"),
        s.num("ref") == 1.0,
        s.num("observer") == 1.0,
    )?;
    let model = s.frbd(s.order())?;
    robot_arm::check_model(&model)?;
    Ok((arm, model))
}

/// The closed loop, advanced [`chunk`] steps at a time.
pub struct RobotJob {
    arm: Arm,
    model: Box<Frbd>,
    pieces: Option<Box<RobotPieces>>,
    run: Option<Box<RobotRun>>,
    /// The run in progress as far as it got, while the caller holds the job at its budget
    /// ([`Job::hold`]).
    held: Option<Box<RobotRun>>,
    error: Option<String>,
}

impl RobotJob {
    /// A job for the arm and model (nothing computed yet).
    pub fn new(arm: Arm, model: Frbd) -> RobotJob {
        RobotJob {
            arm,
            model: Box::new(model),
            pieces: None,
            run: None,
            held: None,
            error: None,
        }
    }

    /// The finished run, or the run in progress while the caller holds the job.
    fn shown(&self) -> Option<&RobotRun> {
        self.run.as_deref().or(self.held.as_deref())
    }
}

impl Job for RobotJob {
    fn advance(&mut self, _: &dyn Fn() -> f64) {
        if self.done() {
            return;
        }
        // a held run takes its series back before it goes on
        self.hold(false);
        let mut p = match self.pieces.take() {
            Some(p) => p,
            None => match RobotPieces::start(&self.arm, &self.model) {
                Ok(p) => Box::new(p),
                Err(e) => {
                    self.error = Some(e.to_string());
                    return;
                }
            },
        };
        match p.advance(chunk(self.model.dim())) {
            Ok(Some(r)) => self.run = Some(Box::new(r)),
            Ok(None) => self.pieces = Some(p),
            Err(e) => {
                // the message says why it stopped; the panels show how far it got
                self.run = p.partial().map(Box::new);
                self.error = Some(e.to_string());
            }
        }
    }
    fn done(&self) -> bool {
        self.run.is_some() || self.error.is_some()
    }
    fn progress(&self) -> (usize, usize) {
        (usize::from(self.run.is_some()), 1)
    }
    fn budget_hint(&self) -> String {
        "lower tend".into()
    }
    fn hold(&mut self, held: bool) {
        // the run in progress lends its series while held and takes it back to go on
        if let (Some(r), Some(p)) = (self.held.take(), self.pieces.as_deref_mut()) {
            p.give_back(*r);
        }
        if held {
            if let Some(p) = self.pieces.as_deref_mut() {
                self.held = p.partial().map(Box::new);
            }
        }
    }
    fn output(&self) -> Output<'_> {
        match self.shown() {
            Some(r) => Output::Robot(r),
            None => Output::Empty,
        }
    }
    fn error(&self) -> Option<String> {
        self.error.clone()
    }
    fn readout(&self) -> Readout {
        let mut r = readout(&self.arm, self.shown(), self.error.as_deref());
        r.notes.extend(self.metric_notes());
        r
    }
    fn metric_notes(&self) -> Vec<String> {
        let Some(r) = self.shown() else {
            return Vec::new();
        };
        let values: Vec<(&str, f64)> = metric_rows(&r.metrics)
            .iter()
            .map(|(k, x, _)| (*k, *x))
            .collect();
        undefined_notes("robot", &values, |k, _| why_undefined(k))
    }
    fn csv(&self, metrics: bool) -> String {
        let Some(r) = self.shown() else {
            return String::new();
        };
        if metrics {
            return metrics_csv(&r.metrics);
        }
        let mut out = String::from("t,q,qd,qdot,U,F,Fhat,W\n");
        for i in 0..r.t.len() {
            out.push_str(&format!(
                "{},{},{},{},{},{},{},{}\n",
                fmt_num(r.t[i]),
                fmt_num(r.q[i]),
                fmt_num(r.qd[i]),
                fmt_num(r.qdot[i]),
                fmt_num(r.u[i]),
                fmt_num(r.f[i]),
                fmt_num(r.fhat[i]),
                fmt_num(r.w[i])
            ));
        }
        out
    }
}

/// The metrics as `metric,value,unit` rows (an empty settling time: not settled by t_end).
fn metrics_csv(m: &Metrics) -> String {
    let mut s = String::from("metric,value,unit\n");
    for (k, v, u) in metric_rows(m) {
        s.push_str(&format!("{k},{},{u}\n", fmt_cell(v)));
    }
    s
}

/// Why a robot metric can be undefined (its CSV cell then empty).
fn why_undefined(name: &str) -> Option<&'static str> {
    (name == "settling_time").then_some(
        "|q̃| is outside the settling band (settle_band) at t_end: not settled in the run",
    )
}

/// (name, value, unit) of the metrics, in the CSV's order.
fn metric_rows(m: &Metrics) -> [(&'static str, f64, &'static str); 12] {
    [
        ("final_error", m.final_error, "rad"),
        ("max_error", m.max_error, "rad"),
        ("rms_error_second_half", m.rms_error_late, "rad"),
        ("settling_time", m.settling_time, "s"),
        ("settle_band", m.settle_band, "rad"),
        ("w0", m.w0, "J"),
        ("w_end", m.w_end, "J"),
        ("w_max_rise", m.w_max_rise, "J"),
        ("max_torque", m.max_torque, "N·m"),
        ("max_fhat_error_second_half", m.max_fhat_error_late, "N·m"),
        ("steps", m.steps as f64, ""),
        ("rejected", m.rejected as f64, ""),
    ]
}

/// The view's numbers: one row for the run.
fn readout(arm: &Arm, run: Option<&RobotRun>, error: Option<&str>) -> Readout {
    let mut notes: Vec<String> = error.map(str::to_string).into_iter().collect();
    let mut definitions = Vec::new();
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
            definitions.push(
                "Observer off: W is reported with the estimate frozen at ẑ₀ and is no Lyapunov \
                 function here."
                    .to_string(),
            );
        }
    }
    definitions.push(
        "The letter gives no numbers for this example: every default is this lab's choice."
            .to_string(),
    );
    Readout {
        columns: columns(&[
            "observer",
            "final |q̃| [rad]",
            "max |q̃| [rad]",
            "RMS q̃, 2nd half [rad]",
            "settling time [s]",
            "W(0) [J]",
            "W(t_end) [J]",
            "max |U| [N·m]",
            "steps",
        ]),
        rows,
        notes,
        definitions,
        summary,
    }
}

/// Named scenarios for a class: the observer's effect on tracking.
pub fn class_presets() -> Vec<crate::job::Preset> {
    use crate::job::Preset;
    vec![
        Preset::new(
            "observer-on",
            "observer on",
            "Tracking with the friction observer fed forward",
            "the observer's estimate F̂ cancels most of the friction: small tracking error",
            &[("observer", "1"), ("ref", "sine")],
        ),
        Preset::new(
            "observer-off",
            "observer off",
            "Tracking without friction compensation",
            "no compensation: the joint sticks at each reversal and lags the reference",
            &[("observer", "0"), ("ref", "sine")],
        ),
        Preset::new(
            "set-point",
            "set-point step",
            "A set-point step with the observer",
            "a step to q_a: the error settles while friction holds the arm near its target",
            &[("observer", "1"), ("ref", "step")],
        ),
    ]
}
