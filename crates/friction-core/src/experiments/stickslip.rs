//! The 1-DoF Rabinowicz stick-slip benchmark (CATALOG §7.1): a block on a moving belt, tied to a
//! wall by a spring, run with any [`FrictionModel`].
//!
//! Equation of motion (thesis eq. 6.32): m ẍ = −k x − F, with F the model output driven by the
//! relative velocity v = ẋ − v_b and the external force F_e = −k x; x(0) = 0, ẋ(0) = v_b (the block
//! starts stuck), model states at their virgin value.
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

use crate::integrate::rodas::{EventAction, Method, Options, Point, Rodas, SolveError, System};
use crate::model::FrictionModel;
use crate::params::{spec, ParamError, ParamSpec};

/// View parameters, thesis Table 6.1 defaults, in the order [`run`] expects them.
pub const PARAMS: [ParamSpec; 7] = [
    spec("m", "Mass of the block", "m", "kg", 1.0, 1e-3, 1e3, true),
    spec(
        "kspring",
        "Spring stiffness",
        "k",
        "N/m",
        2.0,
        1e-3,
        1e6,
        true,
    ),
    spec("vb", "Belt speed", "v_b", "m/s", 0.1, 1e-4, 10.0, true),
    // the models' own specs: the view drives their μ_s and μ_k with one value
    crate::dynamics::common::MUS,
    crate::dynamics::common::MUK,
    spec(
        "g",
        "Gravity acceleration",
        "g",
        "m/s²",
        9.81,
        0.01,
        100.0,
        false,
    ),
    spec(
        "tend",
        "Simulation time",
        "t_end",
        "s",
        40.0,
        0.01,
        1000.0,
        false,
    ),
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
        })
    }

    /// Normal force F_N = m g \[N\], the value the view passes to the models' `fn` key.
    pub fn normal_force(&self) -> f64 {
        self.m * self.g
    }
}

/// Scalar results of one run.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Metrics {
    /// Time of the first peak of the friction force on the block, −F, before the first
    /// x-maximum (ERRATA §1 #4 definition of breakaway) \[s\]; NaN if none.
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

/// Mode of the driver: free ODE, a Filippov slide on a surface v = v* (the stick is v* = 0), or
/// a one-sided slip of a law that jumps at v = 0.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Mode {
    /// Plain ODE (state models, continuous static laws).
    Free,
    /// Filippov sliding mode: relative velocity held exactly at v* (v* = 0: a stick); F = F_e.
    Slide(f64),
    /// Slipping in direction ±1; F is taken on that side of v = 0.
    Slip(i8),
}

/// The stick: the sliding mode on v = 0.
const STICK: Mode = Mode::Slide(0.0);

/// One-sided probe velocity for the limits F(0±) [m/s]: far below any physical scale and far
/// above the float resolution of v around v_b.
const V_PROBE: f64 = 1e-14;

/// One-sided probe offset at a surface v*: [`V_PROBE`] at 0, a few ulps of v* elsewhere.
#[inline]
fn probe(vs: f64) -> f64 {
    V_PROBE.max(16.0 * f64::EPSILON * vs.abs())
}

// Event indices of the closed loop.
const EV_XDOT: usize = 0;
const EV_VZERO: usize = 1;
const EV_STICK_HI: usize = 2;
const EV_STICK_LO: usize = 3;
const EV_MODEL: usize = 4;

struct ClosedLoop<'a> {
    model: &'a dyn FrictionModel,
    st: LoopState,
}

/// Everything of the closed loop but the model: kept between the pieces of a paused run.
#[derive(Debug, Clone)]
struct LoopState {
    /// Scratch for the model's switching functions while probing a surface.
    gscratch: std::cell::RefCell<Vec<f64>>,
    /// Scratch for analytic partials: \[∂ż/∂z | ∂ż/∂v | ∂F/∂z\], ∂ż/∂z diagonal (n_states) for
    /// separable models, dense (nz × nz) otherwise; sized by [`partials_len`].
    partials: std::cell::RefCell<Vec<f64>>,
    b: Bench,
    ns: usize,
    nsw: usize,
    mode: Mode,
    out: StickSlipRun,
    maxima: Vec<(f64, f64)>,
    minima: Vec<(f64, f64)>,
    /// The law jumps at v = 0 and gets the exact stick / one-sided slip treatment.
    sticks: bool,
}

impl<'a> ClosedLoop<'a> {
    /// The loop in free mode with all scratch sized for `model` (nothing allocates later).
    fn new(model: &'a dyn FrictionModel, b: &Bench) -> Self {
        ClosedLoop {
            model,
            st: LoopState {
                partials: std::cell::RefCell::new(vec![0.0; partials_len(model)]),
                gscratch: std::cell::RefCell::new(vec![0.0; model.n_switches()]),
                b: *b,
                ns: model.n_states(),
                nsw: model.n_switches(),
                mode: Mode::Free,
                out: StickSlipRun::default(),
                maxima: Vec::new(),
                minima: Vec::new(),
                sticks: false,
            },
        }
    }

    #[inline]
    fn fe(&self, y: &[f64]) -> f64 {
        -self.st.b.k * y[0]
    }

    /// The range of forces a static law can supply at rest for external force fe: spanned by
    /// the one-sided limits F(0⁻), F(0⁺) and the capacity of the law's own stick branch at
    /// v = 0 (Karnopp's min(|F_e|, F_s) sgn F_e), probed with a large external force so that the
    /// range has a margin that crosses zero at release rather than touching it. The same at a
    /// sliding surface v* ≠ 0 (probes v* ± δ, capacity at v*) with the model state z.
    fn limits_at(&self, vs: f64, fe: f64, z: &[f64]) -> (f64, f64) {
        let d = probe(vs);
        let a = self.model.force(vs - d, fe, z);
        let b = self.model.force(vs + d, fe, z);
        let big = 1e3 * (1.0 + fe.abs() + a.abs() + b.abs());
        let c = self.model.force(vs, -big, z);
        let d = self.model.force(vs, big, z);
        (a.min(b).min(c).min(d), a.max(b).max(c).max(d))
    }

    fn limits(&self, fe: f64, z: &[f64]) -> (f64, f64) {
        self.limits_at(0.0, fe, z)
    }

    /// Whether the law is discontinuous at v = v* for this fe and state (Coulomb, SD at v = 0
    /// yes; tanh and a Karnopp window of finite width no: those run as plain ODEs).
    fn jumps_at(&self, vs: f64, fe: f64, z: &[f64]) -> bool {
        let (lo, hi) = self.limits_at(vs, fe, z);
        let scale = self
            .model
            .force(vs + 1e-3, fe, z)
            .abs()
            .max(self.model.force(vs - 1e-3, fe, z).abs())
            .max(f64::MIN_POSITIVE);
        (hi - lo).abs() > 1e-7 * scale
    }

    fn jumps(&self, fe: f64, z: &[f64]) -> bool {
        self.st.sticks && self.jumps_at(0.0, fe, z)
    }

    /// At a located crossing of model switch `j` (state y): the surface velocity v* if the
    /// force jumps there and the field points into it from both sides (a sliding mode).
    fn sliding_surface(&self, j: usize, y: &[f64]) -> Option<f64> {
        let fe = self.fe(y);
        let z = &y[2..];
        let v = y[1] - self.st.b.vb;
        let mut g = self.st.gscratch.borrow_mut();
        let gj = |vv: f64, g: &mut Vec<f64>| {
            self.model.switches(vv, fe, z, g);
            g[j]
        };
        // Bracket the surface in v at frozen (F_e, z): the located point is within round-off
        // of it; a switch that does not depend on v has no bracket and is no velocity surface.
        let w = 1e-8 * (1.0 + v.abs());
        let (mut a, mut b) = (v - w, v + w);
        let (ga, gb) = (gj(a, &mut g), gj(b, &mut g));
        if ga == 0.0 || gb == 0.0 || ga.signum() == gb.signum() {
            return None;
        }
        // Cheap gate before bisecting: a continuous law changes little across the bracket.
        let (fa, fb) = (self.model.force(a, fe, z), self.model.force(b, fe, z));
        if fa == fb {
            return None;
        }
        for _ in 0..100 {
            let c = 0.5 * (a + b);
            if b - a <= probe(c) || c <= a || c >= b {
                break;
            }
            let gc = gj(c, &mut g);
            if gc == 0.0 {
                a = c;
                b = c;
                break;
            }
            if gc.signum() == ga.signum() {
                a = c;
            } else {
                b = c;
            }
        }
        let vs = 0.5 * (a + b);
        if !self.jumps_at(vs, fe, z) {
            return None;
        }
        let d = probe(vs);
        let (lo, hi) = (
            self.model.force(vs - d, fe, z),
            self.model.force(vs + d, fe, z),
        );
        // Sliding: m ẍ = F_e − F is > 0 below the surface and < 0 above it.
        (lo < fe && fe < hi).then_some(vs)
    }

    /// Friction force F for state y under the current mode.
    fn force(&self, y: &[f64]) -> f64 {
        let fe = self.fe(y);
        let v = y[1] - self.st.b.vb;
        match self.st.mode {
            Mode::Slide(_) => fe,
            Mode::Slip(d) => {
                let d = d as f64;
                let ve = if v * d > 0.0 { v } else { d * V_PROBE };
                self.model.force(ve, fe, &y[2..])
            }
            Mode::Free => self.model.force(v, fe, &y[2..]),
        }
    }

    /// Decides stick or slip at v = 0 from the one-sided accelerations.
    fn decide_at_rest(&self, fe: f64, z: &[f64]) -> Mode {
        let (lo, hi) = self.limits(fe, z);
        if fe - hi > 0.0 {
            Mode::Slip(1)
        } else if fe - lo < 0.0 {
            Mode::Slip(-1)
        } else {
            STICK
        }
    }

    fn record(&mut self, t: f64, y: &[f64]) {
        let f = self.force(y);
        let xdd = match self.st.mode {
            Mode::Slide(_) => 0.0,
            _ => (-self.st.b.k * y[0] - f) / self.st.b.m,
        };
        self.st.out.t.push(t);
        self.st.out.x.push(y[0]);
        self.st.out.xdot.push(y[1]);
        self.st.out.xddot.push(xdd);
        self.st.out.force.push(f);
        self.st.out.v.push(y[1] - self.st.b.vb);
    }
}

impl System for ClosedLoop<'_> {
    fn dim(&self) -> usize {
        2 + self.st.ns
    }

    fn rhs(&self, y: &[f64], dy: &mut [f64]) {
        dy[0] = y[1];
        if self.st.ns > 0 && self.st.mode == Mode::Free {
            // One call, so models share the work (Stribeck exponentials, ż) between both.
            let v = y[1] - self.st.b.vb;
            let f = self
                .model
                .derivative_and_force(v, self.fe(y), &y[2..], &mut dy[2..]);
            dy[1] = (-self.st.b.k * y[0] - f) / self.st.b.m;
            return;
        }
        let v = match self.st.mode {
            Mode::Slide(vs) => {
                dy[1] = 0.0;
                vs
            }
            _ => {
                let f = self.force(y);
                dy[1] = (-self.st.b.k * y[0] - f) / self.st.b.m;
                y[1] - self.st.b.vb
            }
        };
        if self.st.ns > 0 {
            self.model.derivative(v, self.fe(y), &y[2..], &mut dy[2..]);
        }
    }

    fn jacobian(&self, y: &[f64], jac: &mut [f64]) -> bool {
        if self.st.mode != Mode::Free {
            return false;
        }
        let nz = self.st.ns - self.model.n_discrete().min(self.st.ns);
        if nz == 0 {
            return false;
        }
        // One continuous state is trivially separable (its ∂ż/∂z is a 1×1 diagonal).
        let separable = self.model.separable() || nz == 1;
        let nc = 2 + nz;
        let mut buf = self.st.partials.borrow_mut();
        let v = y[1] - self.st.b.vb;
        let fe = self.fe(y);
        let z = &y[2..];
        // Layout (see `partials_len`): separable [∂ż/∂z (ns) | ∂ż/∂v (ns) | ∂F/∂z (ns)], dense
        // [∂ż/∂z (nz × nz) | ∂ż/∂v (nz) | ∂F/∂z (nz)]. The scratch is sized for the model's
        // kind at construction; a mismatch (never expected) falls back to differencing.
        let dlen = if separable { self.st.ns } else { nz * nz };
        if buf.len() < dlen + 2 * self.st.ns.max(nz) {
            return false;
        }
        let (dzdz, rest) = buf.split_at_mut(dlen);
        let (dzdv, dfdz) = rest.split_at_mut(self.st.ns.max(nz));
        let dfdv = if separable {
            self.model.partials(v, fe, z, dzdz, dzdv, dfdz)
        } else {
            self.model.partials_dense(v, fe, z, dzdz, dzdv, dfdz)
        };
        let Some(dfdv) = dfdv else {
            return false;
        };
        // Rows/columns: x, ẋ, then the nz continuous model states (discrete ones are frozen and
        // kept out of the matrix). The model does not depend on F_e = −k x when it provides
        // partials, so the state rows have no x column.
        jac[..nc * nc].fill(0.0);
        let m = self.st.b.m;
        jac[1] = 1.0;
        jac[nc] = -self.st.b.k / m;
        jac[nc + 1] = -dfdv / m;
        for j in 0..nz {
            jac[nc + 2 + j] = -dfdz[j] / m;
            let r = (2 + j) * nc;
            jac[r + 1] = dzdv[j];
            if separable {
                jac[r + 2 + j] = dzdz[j];
            } else {
                jac[r + 2..r + 2 + nz].copy_from_slice(&dzdz[j * nz..(j + 1) * nz]);
            }
        }
        true
    }

    fn scale(&self, i: usize) -> f64 {
        if i < 2 {
            1.0
        } else {
            self.model.state_scale(i - 2)
        }
    }

    fn n_frozen(&self) -> usize {
        self.model.n_discrete()
    }

    // Non-separable models (Leuven) get no arrow structure: `jacobian` then fills the whole
    // continuous block from `partials_dense` and the integrator factors it densely.
    fn dense_head(&self) -> Option<usize> {
        self.model.separable().then_some(2)
    }

    fn n_events(&self) -> usize {
        EV_MODEL + self.st.nsw
    }

    fn events(&self, y: &[f64], g: &mut [f64]) {
        g[EV_XDOT] = y[1];
        let fe = self.fe(y);
        let v = y[1] - self.st.b.vb;
        match self.st.mode {
            Mode::Free => {
                g[EV_VZERO] = 1.0;
                g[EV_STICK_HI] = 1.0;
                g[EV_STICK_LO] = 1.0;
            }
            Mode::Slide(vs) => {
                let (lo, hi) = self.limits_at(vs, fe, &y[2..]);
                g[EV_VZERO] = 1.0;
                g[EV_STICK_HI] = hi - fe;
                g[EV_STICK_LO] = fe - lo;
            }
            Mode::Slip(d) => {
                g[EV_VZERO] = v * d as f64;
                g[EV_STICK_HI] = 1.0;
                g[EV_STICK_LO] = 1.0;
            }
        }
        if self.st.nsw > 0 {
            match self.st.mode {
                // Held on a surface: its own switch would sit at zero; the exits are the
                // EV_STICK_* functions.
                Mode::Slide(_) => g[EV_MODEL..].fill(1.0),
                _ => self.model.switches(v, fe, &y[2..], &mut g[EV_MODEL..]),
            }
        }
    }

    fn on_event(&mut self, _t: f64, index: usize, rising: bool, y: &mut [f64]) -> EventAction {
        match index {
            EV_XDOT => EventAction::Continue,
            EV_VZERO => {
                y[1] = self.st.b.vb;
                let fe = self.fe(y);
                self.st.mode = if self.jumps(fe, &y[2..]) {
                    self.decide_at_rest(fe, &y[2..])
                } else {
                    Mode::Free
                };
                EventAction::Reset
            }
            EV_STICK_HI | EV_STICK_LO => {
                let d = if index == EV_STICK_HI { 1 } else { -1 };
                // Leaving the stick of a law that jumps at 0 slips with one-sided forces until
                // the next rest; leaving any other surface is free motion.
                self.st.mode = match self.st.mode {
                    Mode::Slide(vs) if vs == 0.0 && self.st.sticks => Mode::Slip(d),
                    _ => Mode::Free,
                };
                EventAction::Reset
            }
            i => {
                let v = y[1] - self.st.b.vb;
                let fe = self.fe(y);
                let changed = self
                    .model
                    .on_switch(i - EV_MODEL, rising, v, fe, &mut y[2..]);
                if !changed && self.st.mode == Mode::Free && self.model.n_discrete() == 0 {
                    if let Some(vs) = self.sliding_surface(i - EV_MODEL, y) {
                        y[1] = self.st.b.vb + vs;
                        self.st.mode = Mode::Slide(vs);
                    }
                }
                EventAction::Reset
            }
        }
    }

    fn observe(&mut self, t: f64, y: &[f64], point: Point) {
        match point {
            Point::Start | Point::Step | Point::EventAfter(_) => self.record(t, y),
            Point::EventBefore(EV_XDOT) => {
                // ẋ crossed zero: an extremum of x; falling ẋ means a maximum.
                if let Some(&last) = self.st.out.xdot.last() {
                    if last > 0.0 {
                        self.st.maxima.push((t, y[0]));
                    } else {
                        self.st.minima.push((t, y[0]));
                    }
                }
            }
            Point::EventBefore(_) => self.record(t, y),
        }
    }
}

/// Step budget of one run: about 3 s natively (a 1000 s run with a stiff spring reaches it).
pub const MAX_STEPS: usize = 5_000_000;

/// Reusable workspace: the integrator scratch survives between runs (no re-allocation).
#[derive(Debug, Default, Clone)]
pub struct Workspace {
    /// The integrator; [`run_bench`] picks its method per model ([`method_for`]).
    pub solver: Rodas,
    /// Relative and absolute tolerance of the next runs in place of [`RTOL`] and [`ATOL`]
    /// (work–precision studies against other solvers); `None` keeps the thesis' values.
    pub tolerance: Option<f64>,
}

/// The integration method the benchmark uses for `model`.
///
/// Rodas5P (order 5) takes about half the steps of Rodas4 at rtol = 1e-8 and, checked against
/// rtol = 1e-10 reference runs, is as accurate or more on every model except the multi-element
/// Maxwell-slip structures (GMS, bristle, Leuven: more than three switching surfaces), where
/// its 40 s end point drifted 10–100× further from the reference than Rodas4's; those keep
/// Rodas4.
///
/// Laws without a state also keep Rodas4: the Filippov slides on surfaces v* ≠ 0 (Rooney–Deravi)
/// were validated with it, and with Rodas5P the exit from such a slide chattered at the corner of
/// the sliding interval. They are cheap either way.
pub fn method_for(model: &dyn FrictionModel) -> Method {
    if model.n_switches() > 3 || model.n_states() == 0 {
        Method::Rodas4
    } else {
        Method::Rodas5P
    }
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
    /// Sets up the closed loop at rest on the belt and starts the integrator in `ws`.
    pub fn start(
        ws: &mut Workspace,
        b: &Bench,
        model: &dyn FrictionModel,
    ) -> Result<Self, StickSlipError> {
        let ns = model.n_states();
        let nsw = model.n_switches();
        let mut sys = ClosedLoop::new(model, b);
        let mut y = vec![0.0; 2 + ns];
        y[0] = 0.0;
        y[1] = b.vb;
        model.initial_state(&mut y[2..]);
        // Laws without own switching logic that jump at v = 0 (Coulomb; SD/SV with their state
        // X) get the exact stick; state models with switches handle their surfaces themselves.
        sys.st.sticks =
            (ns == 0 || (nsw == 0 && model.n_discrete() == 0)) && sys.jumps_at(0.0, 0.0, &y[2..]);
        if sys.st.sticks {
            sys.st.mode = sys.decide_at_rest(0.0, &y[2..]);
        }
        let opts = Options {
            rtol: ws.tolerance.unwrap_or(RTOL),
            atol: ws.tolerance.unwrap_or(ATOL),
            h0: 1e-6,
            hmax: (b.tend / 200.0).max(1e-3),
            max_steps: MAX_STEPS,
        };
        ws.solver.set_method(method_for(model));
        ws.solver
            .begin(&mut sys, 0.0, &mut y, b.tend, &opts)
            .map_err(StickSlipError::Solver)?;
        Ok(BenchRun {
            st: sys.st,
            y,
            opts,
        })
    }

    /// Takes up to `max_steps` more accepted steps; the finished run (series and metrics) once
    /// the end is reached.
    pub fn advance(
        &mut self,
        ws: &mut Workspace,
        model: &dyn FrictionModel,
        max_steps: usize,
    ) -> Result<Option<StickSlipRun>, StickSlipError> {
        let stand_in = LoopState::empty(&self.st.b);
        let lent = std::mem::replace(&mut self.st, stand_in);
        let mut sys = ClosedLoop { model, st: lent };
        let done = ws
            .solver
            .resume(&mut sys, &mut self.y, &self.opts, max_steps);
        self.st = sys.st;
        if !done.map_err(StickSlipError::Solver)? {
            return Ok(None);
        }
        Ok(Some(self.take_output(ws)))
    }

    /// What was computed before [`BenchRun::advance`] failed (e.g. at the step budget): the
    /// series up to the last accepted step with metrics over that span; `None` if it holds
    /// fewer than two points. `ws` must be the workspace the run advanced in.
    pub fn partial(&mut self, ws: &Workspace) -> Option<StickSlipRun> {
        let out = self.take_output(ws);
        (out.t.len() >= 2).then_some(out)
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

impl LoopState {
    /// A stand-in while the real state is lent to a [`ClosedLoop`] (allocates nothing).
    fn empty(b: &Bench) -> Self {
        LoopState {
            partials: std::cell::RefCell::new(Vec::new()),
            gscratch: std::cell::RefCell::new(Vec::new()),
            b: *b,
            ns: 0,
            nsw: 0,
            mode: Mode::Free,
            out: StickSlipRun::default(),
            maxima: Vec::new(),
            minima: Vec::new(),
            sticks: false,
        }
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
    let rows: [(&str, String, &str); 14] = [
        ("breakaway_time", m.breakaway_time.to_string(), "s"),
        ("breakaway_force", m.breakaway_force.to_string(), "N"),
        ("breakaway_x", m.breakaway_x.to_string(), "m"),
        ("first_xmax_time", m.first_xmax_time.to_string(), "s"),
        ("first_xmax", m.first_xmax.to_string(), "m"),
        ("x_max", m.x_max.to_string(), "m"),
        ("x_min", m.x_min.to_string(), "m"),
        ("period", m.period.to_string(), "s"),
        ("n_maxima", m.n_maxima.to_string(), ""),
        ("steps", m.steps.to_string(), ""),
        ("rejected", m.rejected.to_string(), ""),
        ("fevals", m.fevals.to_string(), ""),
        ("events", m.events.to_string(), ""),
        (
            "wall_time",
            m.wall_time_s.map_or("NaN".to_string(), |w| w.to_string()),
            "s",
        ),
    ];
    let mut s = String::from("metric,value,unit\n");
    for (k, v, u) in rows {
        s.push_str(&format!("{k},{v},{u}\n"));
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

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn bench_model(id: &str) -> Box<dyn FrictionModel> {
        let e = crate::registry::find(id).expect("registered");
        build_for_bench(e, &Bench::TABLE_6_1).expect("defaults build")
    }

    /// Signs of the loop's events plus the branch selectors that are no switching function
    /// (sgn v, sgn Σ z, sgn ż0: Leuven's |v|, sgn F_h and hold test) at y.
    fn pattern(sys: &ClosedLoop<'_>, y: &[f64]) -> Vec<i8> {
        let mut g = vec![0.0; sys.n_events()];
        sys.events(y, &mut g);
        let mut d = vec![0.0; sys.st.ns];
        let v = y[1] - sys.st.b.vb;
        sys.model.derivative(v, sys.fe(y), &y[2..], &mut d);
        g.extend([v, y[3..].iter().sum(), d[0]]);
        g.iter()
            .map(|&a| (a > 0.0) as i8 - (a < 0.0) as i8)
            .collect()
    }

    /// Compares `ClosedLoop::jacobian` with central differences of `rhs` column by column,
    /// skipping columns whose stencil straddles a kink; returns the number of columns compared.
    fn check_jacobian(sys: &ClosedLoop<'_>, y: &[f64]) -> Result<usize, TestCaseError> {
        let n = sys.dim();
        let nc = n - sys.n_frozen();
        let mut jac = vec![f64::NAN; nc * nc];
        prop_assert!(sys.jacobian(y, &mut jac), "no analytic Jacobian at {y:?}");
        let mut f0 = vec![0.0; n];
        sys.rhs(y, &mut f0);
        // Size of each row's terms: its value plus every input's first-order effect at the
        // input's own size (what rounding the inputs moves it by).
        let mag: Vec<f64> = (0..nc)
            .map(|i| (0..nc).fold(f0[i].abs(), |a, j| a + (jac[i * nc + j] * y[j]).abs()))
            .collect();
        let p0 = pattern(sys, y);
        let (mut fp, mut fm) = (vec![0.0; n], vec![0.0; n]);
        let mut compared = 0;
        for j in 0..nc {
            // ẋ is steered on the scale of v = ẋ − v_b (the kinks sit at |v| ~ 1e-5).
            let size = if j == 1 {
                (y[1] - sys.st.b.vb).abs().max(1e-5)
            } else {
                y[j].abs().max(sys.scale(j))
            };
            let (mut yp, mut ym) = (y.to_vec(), y.to_vec());
            yp[j] += 1e-6 * size;
            ym[j] -= 1e-6 * size;
            if pattern(sys, &yp) != p0 || pattern(sys, &ym) != p0 {
                continue;
            }
            sys.rhs(&yp, &mut fp);
            sys.rhs(&ym, &mut fm);
            let h = yp[j] - ym[j];
            compared += 1;
            for i in 0..nc {
                let fd = (fp[i] - fm[i]) / h;
                let an = jac[i * nc + j];
                prop_assert!(
                    (fd - an).abs()
                        <= 1e-5 * fd.abs().max(an.abs()) + 64.0 * f64::EPSILON * mag[i] / h,
                    "J[{i}][{j}] at y={y:?}: fd {fd} analytic {an}"
                );
            }
        }
        Ok(compared)
    }

    fn velocity() -> impl Strategy<Value = f64> {
        prop_oneof![-2e-5f64..2e-5, -5e-3f64..5e-3, -0.5f64..0.5]
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(48))]

        /// The separable path (diagonal block from `partials`) for Gonthier.
        #[test]
        fn gonthier_closed_loop_jacobian_matches_central_differences(
            x in -1.0f64..1.0,
            v in velocity(),
            zr in -2.0f64..2.0,
            sdw in 0.0f64..1.0,
        ) {
            let m = bench_model("gonthier");
            let sys = ClosedLoop::new(m.as_ref(), &Bench::TABLE_6_1);
            let y = [x, sys.st.b.vb + v, zr * m.state_scale(0), sdw];
            let compared = check_jacobian(&sys, &y)?;
            prop_assume!(compared > 0);
        }

        /// The dense path (`partials_dense`) for Leuven, with elements inside and beyond their
        /// limits (held when pushed outwards).
        #[test]
        fn leuven_closed_loop_jacobian_matches_central_differences(
            x in -1.0f64..1.0,
            v in velocity(),
            zr in -1.0f64..1.0,
            u in proptest::collection::vec(-1.2f64..1.2, 4),
        ) {
            let m = bench_model("leuven");
            let sys = ClosedLoop::new(m.as_ref(), &Bench::TABLE_6_1);
            let mut g = vec![0.0; 4];
            m.switches(0.0, 0.0, &[0.0; 5], &mut g);
            let mut y = vec![x, sys.st.b.vb + v, zr * m.state_scale(0)];
            // g_i = |ζ_i| − Δ_i, so at ζ = 0 the limits are −g.
            y.extend((0..4).map(|i| -u[i] * g[i]));
            let compared = check_jacobian(&sys, &y)?;
            prop_assume!(compared > 0);
        }
    }

    /// Wraps the loop and records the range of Gonthier's dwell state at every accepted step
    /// and event: an earlier attempt at analytic partials drove it out of \[0, 1\].
    struct DwellWatch<'a> {
        inner: ClosedLoop<'a>,
        lo: f64,
        hi: f64,
    }

    impl System for DwellWatch<'_> {
        fn dim(&self) -> usize {
            self.inner.dim()
        }
        fn rhs(&self, y: &[f64], dy: &mut [f64]) {
            self.inner.rhs(y, dy)
        }
        fn jacobian(&self, y: &[f64], jac: &mut [f64]) -> bool {
            self.inner.jacobian(y, jac)
        }
        fn scale(&self, i: usize) -> f64 {
            self.inner.scale(i)
        }
        fn n_frozen(&self) -> usize {
            self.inner.n_frozen()
        }
        fn dense_head(&self) -> Option<usize> {
            self.inner.dense_head()
        }
        fn n_events(&self) -> usize {
            self.inner.n_events()
        }
        fn events(&self, y: &[f64], g: &mut [f64]) {
            self.inner.events(y, g)
        }
        fn on_event(&mut self, t: f64, index: usize, rising: bool, y: &mut [f64]) -> EventAction {
            self.inner.on_event(t, index, rising, y)
        }
        fn observe(&mut self, t: f64, y: &[f64], point: Point) {
            self.lo = self.lo.min(y[3]);
            self.hi = self.hi.max(y[3]);
            self.inner.observe(t, y, point)
        }
    }

    #[test]
    fn gonthier_dwell_state_stays_in_range_with_analytic_partials() {
        let m = bench_model("gonthier");
        let b = Bench::TABLE_6_1;
        let mut sys = DwellWatch {
            inner: ClosedLoop::new(m.as_ref(), &b),
            lo: f64::INFINITY,
            hi: f64::NEG_INFINITY,
        };
        let mut y = vec![0.0, b.vb, 0.0, 0.0];
        m.initial_state(&mut y[2..]);
        // The analytic path is the one under test.
        let mut jac = [0.0; 16];
        assert!(sys.jacobian(&y, &mut jac));
        let opts = Options {
            rtol: RTOL,
            atol: ATOL,
            h0: 1e-6,
            hmax: b.tend / 200.0,
            max_steps: 1_000_000,
        };
        let mut solver = Rodas::with_method(method_for(m.as_ref()));
        solver
            .integrate(&mut sys, 0.0, &mut y, b.tend, &opts)
            .unwrap();
        assert!(sys.inner.st.maxima.len() >= 3, "no stick-slip cycles");
        assert!(
            sys.lo >= -1e-9 && sys.hi <= 1.0 + 1e-9,
            "s_dw left [0, 1]: [{}, {}]",
            sys.lo,
            sys.hi
        );
    }
}
