//! The 1-DoF Rabinowicz stick-slip benchmark (\[T\] §6.3): a block on a moving belt, tied to a
//! wall by a spring, run with any [`FrictionModel`].
//!
//! Equation of motion (thesis eq. 6.32): m ẍ = −k x − F, with F the model output driven by the
//! relative velocity v = ẋ − v_b and the external force F_e = −k x; x(0) = 0, ẋ(0) = v_b (the block
//! starts stuck), model states at their virgin value.
//!
//! Two keys reach the published variants of the rig: `vrel0`, the initial relative velocity
//! v(0) = ẋ(0) − v_b (0, the thesis' stuck start, by default; −v_b starts the block at rest), and
//! `spring` = 0, which removes the spring, the only applied force: m ẍ = −F with F_e = 0 (a block
//! dropped onto the belt).
//!
//! Why a hybrid driver: state models are integrated as one stiff ODE \[x, ẋ, z…\] with the model's
//! switching functions as events. Static laws (no state) that jump at v = 0 (Coulomb) cannot be
//! integrated as an ODE at all — the force chatters between ±F_C. For them the driver runs an
//! event-driven stick phase (ẍ = 0 with F = F_e) while F_e lies between the one-sided limits
//! F(0⁻, F_e) and F(0⁺, F_e), and slip phases with F evaluated on the side of the slip direction.
//! Laws that are continuous at v = 0 (every regularised law, Karnopp's window) run as plain ODEs.
//!
//! The stick is the special case v* = 0 of a Filippov sliding mode: wherever the law's force
//! jumps across a velocity switching surface v = v* and the acceleration points into the surface
//! from both sides (F(v*⁻) < F_e < F(v*⁺)), the driver holds v = v* exactly (ẍ = 0, the belt
//! speed being constant) with F = F_e, the one value that keeps it there, until F_e leaves the
//! interval of the one-sided limits; the block then leaves on the side the field points to.
//! Laws with a state (SD/SV's displacement X) keep integrating it during the slide with v = v*.
//! Surfaces v* ≠ 0 are found from the model's switching functions (Rooney–Deravi's |v| = v_0).
//!
//! Why this file is long (over 600 lines): the benchmark's driver for every model (stepping, stick
//! detection, results, resumable units); the closed loop, the drive and the force-driven block are
//! files of their own.

use super::driven::{unit_steps_of, UNIT_WORK};
use crate::integrate::meter;
use crate::integrate::rodas::{Method, Options, Rodas, SolveError, System};
use crate::model::FrictionModel;
use crate::params::{ParamError, ParamSpec};
use closed_loop::*;
use drive::Drive;

/// The block's mass m \[kg\], shared by the views of a block (stick-slip, pre-sliding,
/// breakaway).
pub const MASS: ParamSpec = ParamSpec {
    key: "m",
    name: "Mass of the block",
    symbol: "m",
    unit: "kg",
    default: 1.0,
    min: 1e-3,
    max: 1e3,
    log: true,
};

/// View parameters, thesis Table 6.1 defaults, in the order [`run`] expects them.
pub const PARAMS: [ParamSpec; 9] = [
    MASS,
    ParamSpec {
        key: "kspring",
        name: "Spring stiffness",
        symbol: "k",
        unit: "N/m",
        default: 2.0,
        min: 1e-3,
        max: 1e6,
        log: true,
    },
    ParamSpec {
        key: "vb",
        name: "Belt speed",
        symbol: "v_b",
        unit: "m/s",
        default: 0.1,
        min: 1e-4,
        max: 10.0,
        log: true,
    },
    // the models' own specs: the view drives their μ_s and μ_k with one value
    crate::dynamics::common::MUS,
    crate::dynamics::common::MUK,
    ParamSpec {
        key: "g",
        name: "Gravity acceleration",
        symbol: "g",
        unit: "m/s²",
        default: 9.81,
        min: 0.01,
        max: 100.0,
        log: false,
    },
    ParamSpec {
        key: "tend",
        name: "Simulation time",
        symbol: "t_end",
        unit: "s",
        default: 40.0,
        min: 0.01,
        max: 1000.0,
        log: false,
    },
    // relative, not ẋ(0) itself: its default (0, the thesis' stuck start) then holds for any v_b
    ParamSpec {
        key: "vrel0",
        name: "Initial velocity relative to the belt (−v_b: block at rest)",
        symbol: "v(0)",
        unit: "m/s",
        default: 0.0,
        min: -10.0,
        max: 10.0,
        log: false,
    },
    // 0/1 switch (`params::SWITCHES`)
    ParamSpec {
        key: "spring",
        name: "Spring: 0 = none (F_e = 0), 1 = to the wall",
        symbol: "spring",
        unit: "",
        default: 1.0,
        min: 0.0,
        max: 1.0,
        log: false,
    },
];

/// Relative tolerance of the benchmark runs (thesis Table 6.1).
pub const RTOL: f64 = 1e-8;
/// Absolute tolerance (thesis Table 6.1); scaled per state by `FrictionModel::state_scale`.
pub const ATOL: f64 = 1e-8;

/// Validated benchmark settings.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Bench {
    /// Mass m \[kg\].
    pub m: f64,
    /// Spring stiffness k \[N/m\].
    pub k: f64,
    /// Belt speed v_b \[m/s\].
    pub vb: f64,
    /// Static coefficient μ_s \[-\] (passed to the models; used here only for F_N reporting).
    pub mus: f64,
    /// Kinetic coefficient μ_k \[-\].
    pub muk: f64,
    /// Gravity g \[m/s²\].
    pub g: f64,
    /// End time \[s\].
    pub tend: f64,
    /// Initial relative velocity v(0) = ẋ(0) − v_b \[m/s\] (0: the block starts stuck).
    pub v0: f64,
    /// Whether the spring ties the block to the wall; without it no force but friction acts
    /// (F_e = 0).
    pub spring: bool,
}

impl Bench {
    /// Table 6.1 of the thesis.
    pub const TABLE_6_1: Bench = Bench {
        m: 1.0,
        k: 2.0,
        vb: 0.1,
        mus: 0.15,
        muk: 0.1,
        g: 9.81,
        tend: 40.0,
        v0: 0.0,
        spring: true,
    };

    /// Validates view values given in [`PARAMS`] order (missing trailing values take defaults).
    pub fn from_values(values: &[f64]) -> Result<Bench, ParamError> {
        let v = crate::params::values_or_defaults(&PARAMS, values);
        crate::params::check_all(&PARAMS, &v)?;
        Ok(Bench {
            m: v[0],
            k: v[1],
            vb: v[2],
            mus: v[3],
            muk: v[4],
            g: v[5],
            tend: v[6],
            v0: v[7],
            spring: v[8] >= 0.5,
        })
    }

    /// Stiffness of the spring acting on the block \[N/m\]: k, or 0 without the spring.
    pub fn spring_rate(&self) -> f64 {
        if self.spring {
            self.k
        } else {
            0.0
        }
    }

    /// Normal force F_N = m g \[N\], the value the view passes to the models' `fn` key.
    pub fn normal_force(&self) -> f64 {
        self.m * self.g
    }

    /// Absolute-tolerance scale of the block's velocity on the belt for a
    /// [micro-slip](FrictionModel::micro_slip) law \[m/s\]: the law's
    /// [fraction](FrictionModel::micro_slip_scale) of the belt speed, a tenth for LuGre and a
    /// hundredth for elasto-plastic (1 without a belt speed). The solver then weighs the
    /// velocity's error by atol × this + rtol × |ẋ − v_b|, so that the relative velocity the
    /// law sees is resolved in the stick, where it is tiny beside v_b; otherwise by
    /// atol × 1 m/s + rtol × |ẋ|, about 1.1 atol there, blind to the error that the first
    /// breakaway (the negative slope of the Stribeck curve) amplifies ~1000×. LuGre's x(40) at
    /// tol 1e-6 was 8.4e-5 m off (now 3.3e-7). Measured against diffsol at v_b, v_b/3, v_b/10
    /// and v_b/30: v_b/10 had the best median ratio for LuGre
    /// (bench/results/diffsol_stickslip_2026-12-04-2.txt); elasto-plastic's error ran over
    /// the tolerance there (issue 39, bench/results/diffsol_stickslip_2026-12-07.txt).
    pub fn velocity_scale(&self, model: &dyn FrictionModel) -> f64 {
        let s = model.micro_slip_scale() * self.vb.abs();
        if s > 0.0 && s.is_finite() {
            s
        } else {
            1.0
        }
    }
}

/// Scalar results of one run.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Metrics {
    /// Time of the first peak of the friction force on the block, −F, before the first
    /// x-maximum \[s\]; NaN if none. Breakaway is the peak friction: with a Stribeck peak below F_s
    /// it comes before the ideal 7.3575 s, not after (checked by an independent LSODA run).
    pub breakaway_time: f64,
    /// That peak friction on the block, −F \[N\].
    pub breakaway_force: f64,
    /// Position at breakaway \[m\].
    pub breakaway_x: f64,
    /// Time of the first local maximum of x \[s\] (NaN if none).
    pub first_xmax_time: f64,
    /// First local maximum of x \[m\].
    pub first_xmax: f64,
    /// Largest x over the run \[m\].
    pub x_max: f64,
    /// Smallest x after the first maximum (the oscillation's lower extreme) \[m\]; NaN if none.
    pub x_min: f64,
    /// Time between the last two x-maxima \[s\] (NaN with fewer than two).
    pub period: f64,
    /// Number of x-maxima found.
    pub n_maxima: usize,
    /// Accepted steps.
    pub steps: usize,
    /// Rejected steps.
    pub rejected: usize,
    /// Right-hand-side evaluations.
    pub fevals: usize,
    /// Located events (switches, stick/slip transitions, velocity zeros).
    pub events: usize,
    /// Wall time of the run \[s\]; `None` here because the core has no clock (wasm) — callers
    /// that can time the run fill it in.
    pub wall_time_s: Option<f64>,
}

impl Metrics {
    /// (name, value, unit) in the order of [`metrics_csv`]; counts as numbers, an unknown wall
    /// time as NaN (an empty cell).
    pub fn rows(&self) -> [(&'static str, f64, &'static str); 14] {
        [
            ("breakaway_time", self.breakaway_time, "s"),
            ("breakaway_force", self.breakaway_force, "N"),
            ("breakaway_x", self.breakaway_x, "m"),
            ("first_xmax_time", self.first_xmax_time, "s"),
            ("first_xmax", self.first_xmax, "m"),
            ("x_max", self.x_max, "m"),
            ("x_min", self.x_min, "m"),
            ("period", self.period, "s"),
            ("n_maxima", self.n_maxima as f64, ""),
            ("steps", self.steps as f64, ""),
            ("rejected", self.rejected as f64, ""),
            ("fevals", self.fevals as f64, ""),
            ("events", self.events as f64, ""),
            ("wall_time", self.wall_time_s.unwrap_or(f64::NAN), "s"),
        ]
    }

    /// Why the metric `name` can be undefined in a run (its CSV cell then empty).
    pub fn why_undefined(name: &str) -> Option<&'static str> {
        Some(match name {
            "breakaway_time" | "breakaway_force" | "breakaway_x" => {
                "the friction force on the block has no peak before the first maximum of x \
                 (no breakaway in the run)"
            }
            "first_xmax_time" | "first_xmax" => "x has no local maximum in the run",
            "x_min" => "x has no minimum after its first maximum in the run",
            "period" => "fewer than two maxima of x in the run (n_maxima), so no period",
            "wall_time" => "the run was not timed",
            _ => return None,
        })
    }
}

/// Time series and metrics of one benchmark run.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct StickSlipRun {
    /// Time \[s\].
    pub t: Vec<f64>,
    /// Position x \[m\].
    pub x: Vec<f64>,
    /// Velocity ẋ \[m/s\].
    pub xdot: Vec<f64>,
    /// Acceleration ẍ \[m/s²\].
    pub xddot: Vec<f64>,
    /// Model output F \[N\] of m ẍ = −k x − F.
    pub force: Vec<f64>,
    /// Relative velocity v = ẋ − v_b \[m/s\].
    pub v: Vec<f64>,
    /// Scalar results.
    pub metrics: Option<Metrics>,
}

impl StickSlipRun {
    /// The metrics (always present after a successful [`run`]).
    pub fn metrics(&self) -> Metrics {
        self.metrics.unwrap_or(Metrics {
            breakaway_time: f64::NAN,
            breakaway_force: f64::NAN,
            breakaway_x: f64::NAN,
            first_xmax_time: f64::NAN,
            first_xmax: f64::NAN,
            x_max: f64::NAN,
            x_min: f64::NAN,
            period: f64::NAN,
            n_maxima: 0,
            steps: 0,
            rejected: 0,
            fevals: 0,
            events: 0,
            wall_time_s: None,
        })
    }
}

/// Why a run failed.
#[derive(Debug, Clone, PartialEq)]
pub enum StickSlipError {
    /// A view parameter was rejected.
    Param(ParamError),
    /// The integrator gave up.
    Solver(SolveError),
}

impl std::fmt::Display for StickSlipError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            StickSlipError::Param(e) => e.fmt(f),
            // Says what to change: only long runs with a stiff spring or a ringing model reach
            // the step budget.
            StickSlipError::Solver(SolveError::TooManySteps { t }) => write!(
                f,
                "the run needs more than {MAX_STEPS} solver steps (stopped at t = {t:.4} s): \
                 shorten t_end (tend) or soften the spring k (kspring)"
            ),
            StickSlipError::Solver(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for StickSlipError {}

/// Step budget of one run: about 3 s natively (a 1000 s run with a stiff spring reaches it).
pub const MAX_STEPS: usize = 5_000_000;

/// Reusable workspace: the integrator scratch survives between runs (no re-allocation).
#[derive(Debug, Default, Clone)]
pub struct Workspace {
    /// The integrator; [`run_bench`] picks its method per model and tolerance ([`method_at`]).
    pub solver: Rodas,
    /// Relative and absolute tolerance of the next runs in place of [`RTOL`] and [`ATOL`]
    /// (work–precision studies against other solvers); `None` keeps the thesis' values.
    pub tolerance: Option<f64>,
}

/// The integration method the benchmark uses for `model`.
///
/// Rodas5P (order 5) takes about half the steps of Rodas4 at rtol = 1e-8 and, checked against
/// tight reference runs, is as accurate or more on the models with a state. The multi-element
/// Maxwell-slip structures (GMS, bristle, Leuven) kept Rodas4 until event landings had to pass
/// their own error test: before, Rodas5P's GMS end point was 1e-4–2e-3 m off at every
/// tolerance (a landing that failed its error test by 1e7 was used); now, against its own
/// 1e-12 run, GMS is 4.4e-10 at 1e-8 (Rodas4 2.7e-8) in 1,935 steps (3,953), Leuven 3.0e-7
/// (3.6e-7) in 1,725 steps (2,993); the bristle model's end point converges under neither
/// (random re-bonding: the two methods' 1e-12 runs differ by 0.09 m), in 30 % fewer steps.
///
/// Laws without a state keep Rodas4: the Filippov slides on surfaces v* ≠ 0 (Rooney–Deravi)
/// were validated with it, and with Rodas5P the exit from such a slide chattered at the corner of
/// the sliding interval. They are cheap either way.
///
/// At the thesis' tolerances ([`RTOL`]); [`method_at`] for others.
pub fn method_for(model: &dyn FrictionModel) -> Method {
    method_at(model, RTOL)
}

/// Loosest relative tolerance at which a [micro-slip](FrictionModel::micro_slip) law is run
/// with Rodas5P; looser runs take Rodas4 ([`method_at`]).
pub const MICRO_SLIP_RODAS5P_RTOL: f64 = 1e-8;

/// The integration method for `model` at relative tolerance `rtol`: [`method_for`]'s choice,
/// except that a micro-slip law (LuGre, elasto-plastic) looser than
/// [`MICRO_SLIP_RODAS5P_RTOL`] takes Rodas4.
///
/// Why: before breakaway such a law creeps at |v| far below the velocity scale of the error
/// norm (v_b/10), so the error made there is weighted by the absolute tolerance alone; the
/// Stribeck drop then turns it into a phase shift. Rodas5P's long creep steps make that error
/// grow faster than the tolerance: on the 40 s benchmark (x(40) against a 1e-12 run) it
/// delivered 1.4e-5 at rtol = 1e-6 (elasto-plastic) and 4.6e-6 (LuGre), where Rodas4 delivers
/// 1.3e-6 and 1.7e-7 in 1.1 times the CPU time. From 2e-8 to 1e-6, at the same end-point
/// error, Rodas4 is 15–35 % faster than Rodas5P on LuGre and within ±10 % on elasto-plastic
/// (whose error it keeps near the tolerance asked for). At 1e-8 and tighter Rodas5P's order
/// pays again, and the page runs there. Dahl and GMS, with no creep of this kind, keep
/// Rodas5P: Rodas4 is 1.15–3 times slower on them at equal error.
///
/// The belt benchmark ([`BenchRun::start`]) overrides this for a law whose velocity scale
/// follows the state ([`FrictionModel::micro_slip_scale_varies`], elasto-plastic): it weighs
/// the creep's velocity error tighter at these tolerances and stays on Rodas5P, at 0.15–2.2
/// tol in 40–50 % fewer steps than Rodas4 (issue 39).
pub fn method_at(model: &dyn FrictionModel, rtol: f64) -> Method {
    if model.n_states() == 0 || (model.micro_slip() && rtol > MICRO_SLIP_RODAS5P_RTOL) {
        Method::Rodas4
    } else {
        Method::Rodas5P
    }
}

/// Solver steps per unit of work of a closed-loop run of `model` (the benchmark, and the
/// breakaway and pre-sliding views' driven loops): [`unit_steps_of`] for the loop's x and ẋ,
/// in steps of the method [`method_for`] picks (a Rodas5P step does 8 stages to Rodas4's 6, and
/// the work meter counts them).
pub fn unit_steps(model: &dyn FrictionModel) -> usize {
    (unit_steps_of(model, 2) * meter::STAGES_PER_STEP / method_for(model).stages()).max(1)
}

/// Runs the benchmark for `model` with view values in [`PARAMS`] order.
///
/// The model must have been built with the view's μ_s, μ_k and F_N = m g (the scenario layer
/// passes them). Returns the time series (every accepted step and both sides of each event)
/// and the metrics.
pub fn run(view_values: &[f64], model: &dyn FrictionModel) -> Result<StickSlipRun, StickSlipError> {
    let b = Bench::from_values(view_values).map_err(StickSlipError::Param)?;
    run_bench(&mut Workspace::default(), &b, model)
}

/// Length of [`ClosedLoop`]'s partials scratch: three vectors of n_states for a separable
/// model (or one continuous state), the dense nz × nz block plus two vectors otherwise. Sized
/// once per run, so the Jacobian never allocates; GMS with 200 states keeps its O(n) buffer.
fn partials_len(model: &dyn FrictionModel) -> usize {
    let ns = model.n_states();
    let nz = ns - model.n_discrete().min(ns);
    if model.separable() || nz <= 1 {
        3 * ns
    } else {
        nz * nz + 2 * ns
    }
}

/// Runs the benchmark with validated settings, reusing `ws`.
pub fn run_bench(
    ws: &mut Workspace,
    b: &Bench,
    model: &dyn FrictionModel,
) -> Result<StickSlipRun, StickSlipError> {
    let mut run = BenchRun::start(ws, b, model)?;
    loop {
        if let Some(out) = run.advance(ws, model, usize::MAX)? {
            return Ok(out);
        }
    }
}

/// Continues `solver` for at most `max_steps` accepted steps, in slices of an eighth of them, and
/// stops after the slice that brings the metered work ([`meter`]) to [`UNIT_WORK`]: a unit of a
/// law whose steps are mostly rejected or event landings (a Filippov slide of a static law)
/// would otherwise do several times a unit's work. The steps are the same however it is cut.
pub(crate) fn resume_bounded<S: System + ?Sized>(
    solver: &mut Rodas,
    sys: &mut S,
    y: &mut [f64],
    opts: &Options,
    max_steps: usize,
) -> Result<bool, SolveError> {
    if max_steps == usize::MAX {
        return solver.resume(sys, y, opts, max_steps);
    }
    let (w0, slice) = (meter::work(), max_steps.div_ceil(8).max(1));
    let mut left = max_steps;
    loop {
        let before = solver.stats().steps;
        let done = solver.resume(sys, y, opts, slice.min(left))?;
        left = left.saturating_sub(solver.stats().steps - before);
        if done || left == 0 || meter::work() - w0 >= UNIT_WORK as u64 {
            return Ok(done);
        }
    }
}

/// A benchmark run carried out in pieces, so that the page can pause between frames (a long
/// `tend` with a switching model takes seconds). The pieces take exactly the steps of one
/// [`run_bench`] call however the run is cut; the model is lent to every call rather than
/// held, and must be the one the run started with, as must the workspace.
#[derive(Debug, Clone)]
pub struct BenchRun {
    st: LoopState,
    y: Vec<f64>,
    opts: Options,
}

impl BenchRun {
    /// Sets up the closed loop (x = 0, v = v(0), virgin model states) and starts the integrator
    /// in `ws`.
    pub fn start(
        ws: &mut Workspace,
        b: &Bench,
        model: &dyn FrictionModel,
    ) -> Result<Self, StickSlipError> {
        let ns = model.n_states();
        let nsw = model.n_switches();
        let mut sys = ClosedLoop::new(model, b, Drive::Belt);
        let mut y = vec![0.0; 2 + ns];
        y[0] = 0.0;
        y[1] = b.vb + b.v0;
        model.initial_state(&mut y[2..]);
        // Laws without own switching logic that jump at v = 0 (Coulomb; SD/SV with their state
        // X) get the exact stick; state models with switches handle their surfaces themselves.
        sys.st.sticks =
            (ns == 0 || (nsw == 0 && model.n_discrete() == 0)) && sys.jumps_at(0.0, 0.0, &y[2..]);
        if sys.st.sticks {
            // F_e = −k·x(0) = 0; a moving start slips on its own side until v first reaches 0
            sys.st.mode = if b.v0 == 0.0 {
                sys.decide_at_rest(0.0, &y[2..])
            } else {
                Mode::Slip(if b.v0 > 0.0 { 1 } else { -1 })
            };
        }
        let opts = Options {
            rtol: ws.tolerance.unwrap_or(RTOL),
            atol: ws.tolerance.unwrap_or(ATOL),
            h0: 1e-6,
            hmax: (b.tend / 200.0).max(1e-3),
            max_steps: MAX_STEPS,
            predictive: sys.st.vrel,
        };
        // A law that weighs its creep on its own (elasto-plastic) keeps Rodas5P at loose
        // tolerances too: the creep error that sends other micro-slip laws to Rodas4 there
        // ([`method_at`]) is what the creep weight controls, in fewer steps.
        sys.st.creep_weight =
            sys.st.vrel && model.micro_slip_scale_varies() && opts.rtol > MICRO_SLIP_RODAS5P_RTOL;
        ws.solver.set_method(if sys.st.creep_weight {
            Method::Rodas5P
        } else {
            method_at(model, opts.rtol)
        });
        ws.solver
            .begin(&mut sys, 0.0, &mut y, b.tend, &opts)
            .map_err(StickSlipError::Solver)?;
        Ok(BenchRun {
            st: sys.st,
            y,
            opts,
        })
    }

    /// Takes up to `max_steps` more accepted steps (fewer once a unit's work is done,
    /// `resume_bounded`); the finished run (series and metrics) once the end is reached.
    pub fn advance(
        &mut self,
        ws: &mut Workspace,
        model: &dyn FrictionModel,
        max_steps: usize,
    ) -> Result<Option<StickSlipRun>, StickSlipError> {
        let stand_in = LoopState::empty(&self.st.b);
        let lent = std::mem::replace(&mut self.st, stand_in);
        let mut sys = ClosedLoop { model, st: lent };
        let done = resume_bounded(&mut ws.solver, &mut sys, &mut self.y, &self.opts, max_steps);
        // the series is complete between pieces (the page reads it, `partial` takes it)
        sys.flush();
        self.st = sys.st;
        if !done.map_err(StickSlipError::Solver)? {
            return Ok(None);
        }
        Ok(Some(self.take_output(ws)))
    }

    /// The run so far, with metrics over that span; `None` (and nothing taken) if it holds
    /// fewer than two points. `ws` must be the workspace the run advanced in. After
    /// [`BenchRun::advance`] failed (e.g. at the step budget) it is what was computed; a caller
    /// that only pauses the run (the page at its time budget) hands it back with
    /// [`BenchRun::give_back`] before the run advances again. Moving the series costs
    /// nothing; copying a 10⁶-step run took most of the frame in which the page stopped it.
    pub fn partial(&mut self, ws: &Workspace) -> Option<StickSlipRun> {
        (self.st.out.t.len() >= 2).then(|| self.take_output(ws))
    }

    /// Takes back the series [`BenchRun::partial`] gave, so that the run goes on where it was.
    pub fn give_back(&mut self, mut run: StickSlipRun) {
        run.metrics = None;
        self.st.out = run;
    }

    fn take_output(&mut self, ws: &Workspace) -> StickSlipRun {
        let mut out = std::mem::take(&mut self.st.out);
        let stats = ws.solver.stats();
        out.metrics = Some(metrics(&out, &self.st.maxima, &self.st.minima, stats));
        out
    }

    /// Simulated time reached so far \[s\].
    pub fn time(&self) -> f64 {
        self.st.out.t.last().copied().unwrap_or(0.0)
    }
}

fn metrics(
    out: &StickSlipRun,
    maxima: &[(f64, f64)],
    minima: &[(f64, f64)],
    stats: crate::integrate::rodas::Stats,
) -> Metrics {
    let (first_xmax_time, first_xmax) = maxima.first().copied().unwrap_or((f64::NAN, f64::NAN));
    let limit = if first_xmax_time.is_finite() {
        first_xmax_time
    } else {
        f64::INFINITY
    };
    let mut best = f64::NEG_INFINITY;
    let mut ib = None;
    for (i, (&t, &f)) in out.t.iter().zip(&out.force).enumerate() {
        if t > limit {
            break;
        }
        let b = -f;
        if ib.is_none() || b > best + 1e-12 * best.abs() {
            best = b;
            ib = Some(i);
        }
    }
    let (breakaway_time, breakaway_force, breakaway_x) = match ib {
        Some(i) => (out.t[i], -out.force[i], out.x[i]),
        None => (f64::NAN, f64::NAN, f64::NAN),
    };
    let x_max = out.x.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let x_min = minima
        .iter()
        .filter(|(t, _)| *t > limit)
        .map(|&(_, x)| x)
        .fold(f64::NAN, f64::min);
    let period = if maxima.len() >= 2 {
        maxima[maxima.len() - 1].0 - maxima[maxima.len() - 2].0
    } else {
        f64::NAN
    };
    Metrics {
        breakaway_time,
        breakaway_force,
        breakaway_x,
        first_xmax_time,
        first_xmax,
        x_max,
        x_min,
        period,
        n_maxima: maxima.len(),
        steps: stats.steps,
        rejected: stats.rejected,
        fevals: stats.fevals,
        events: stats.events,
        wall_time_s: None,
    }
}

/// The time series as CSV `t,x,xdot,F` (F = model output of m ẍ = −k x − F).
pub fn to_csv(run: &StickSlipRun) -> String {
    let mut s = String::with_capacity(run.t.len() * 64 + 16);
    s.push_str("t,x,xdot,F\n");
    for i in 0..run.t.len() {
        s.push_str(&format!(
            "{},{},{},{}\n",
            run.t[i], run.x[i], run.xdot[i], run.force[i]
        ));
    }
    s
}

/// The metrics as CSV `metric,value,unit`.
pub fn metrics_csv(m: &Metrics) -> String {
    let mut s = String::from("metric,value,unit\n");
    for (k, v, u) in m.rows() {
        s.push_str(&format!("{k},{},{u}\n", crate::params::fmt_cell(v)));
    }
    s
}

/// Builds a registry model for the benchmark: every parameter at its default except the keys the
/// view shares or derives (`mus`, `muk`, `fn` = m g), which take the benchmark's values.
pub fn build_for_bench(
    entry: &crate::model::ModelEntry,
    b: &Bench,
) -> Result<Box<dyn FrictionModel>, ParamError> {
    let values: Vec<f64> = entry
        .info
        .params
        .iter()
        .map(|p| match p.key {
            "mus" => b.mus,
            "muk" => b.muk,
            "fn" => b.normal_force(),
            _ => p.default,
        })
        .collect();
    (entry.build)(&values)
}

mod closed_loop;
mod drive;
pub mod forced;
#[cfg(test)]
mod tests;
