//! Section IV-B of the FrBD letter: passivity-based tracking control of a one-joint robot arm
//! with FrBD joint friction and a friction-state observer (the letter, eqs. 26–28).
//!
//! Plant (26), with a revolute joint and gravity torque g(q) = G·cos q:
//!   m q̈ = −c q̇ − G cos q − F + U,   F = p·f(x) from an FrBD_{n+1}-GM or -GKV model driven by
//!   v = q̇ (the letter feeds the joint velocity straight into the bristle model, i.e. a unit
//!   lever arm: rad and m are the same number, torques are in N·m).
//! Control law (27; lost in our copy, so derived: the Slotine–Li form that gives the letter's
//! closed loop), with q̃ = q − q_d:
//!   q̇_r = q̇_d − λ q̃,  s = q̇ − q̇_r = q̃̇ + λ q̃,
//!   U = m q̈_r + c q̇_r + G cos q + F̂ − k1 s,  F̂ = p·f(x̂).
//! Observer (28, DERIVED): the model's own equations at v = q̇ with −k2·s added to the bristle
//! velocity ż. Because each FrBD model is affine in its additive input (ẋ = A(v)x + b·v), the
//! injection is −k2·s·b with b = ẋ(v = 1, x = 0), which works for GM and GKV alike.
//! With F̃ = F − F̂ the closed loop is m ṡ = −(c + k1)s − F̃ and the friction error x̃ = x − x̂
//! follows the model driven by k2·s, so W = ½ m s² + V(x̃)/k2 (V the model's storage function)
//! obeys dW/dt = −(c + k1)s² − D(q̇, x̃)/k2 ≤ −k1 s², D the model's dissipation rate.
//!
//! No numeric values for this example exist in our copy of the letter. Every value
//! below is therefore a parameter with a range, and its default is our choice, picked so that the
//! friction-induced tracking error without compensation is plainly visible at the default gains.
//!
//! `observer=0` switches the compensation off: F̂ ≡ 0 and the estimate x̂ stays at its initial
//! value. W is still reported (with that frozen x̂) but is then no Lyapunov function.

use crate::frbd::{Frbd, Passive};
use crate::integrate::linear::LinearModel;
use crate::integrate::rodas::{Options, Point, Rodas, SolveError, System};
use crate::params::ParamError;

mod arm;
pub use arm::{Arm, Reference, PARAMS, TEND};

/// Relative tolerance of the runs; the Lyapunov checks of the tests rely on it.
pub const RTOL: f64 = 1e-8;
/// Absolute tolerance, scaled per state (bristle deflections by their size 1/k̄).
pub const ATOL: f64 = 1e-8;
/// Step budget: a run that needs more is reported as a solver error instead of freezing the page.
pub const MAX_STEPS: usize = 400_000;
/// Settling band as a fraction of the reference amplitude |q_a| (the usual 2 % criterion).
pub const SETTLE_FRACTION: f64 = 0.02;
/// Friction modes faster than this \[1/s\] at the start are stepped through their initial layer
/// before the adaptive solver takes over ([`RobotLoop::settle_layer`]).
///
/// Why: a deflection z0 (or ẑ0) out of equilibrium with a Kelvin–Voigt element of retardation
/// time c̄/(k̄0 + k̄) ~ 1e-18 s starts a transient the solver can neither resolve (its step
/// floor is 1e-17 s at t = 0) nor step over within its error test: it stopped with "step size
/// underflow at t = 0 s" for about 7 % of random legal sets (every one of them had a mode above
/// 3e14 1/s, and every one ran from z0 = ẑ0 = 0). Modes above 1e12 1/s settle within 1e-11 s,
/// far below any output spacing (≥ 5e-7 s).
pub const LAYER_RATE: f64 = 1e12;
/// Implicit Euler steps of 1/[`LAYER_RATE`] through the initial layer: a mode at
/// [`LAYER_RATE`] keeps 2⁻⁸ of its offset (the solver handles that), one at 1e14 1/s 1e-16.
pub const LAYER_STEPS: usize = 8;

/// Everything derived from one closed-loop state at time t (one CSV row).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Sample {
    /// Time \[s\].
    pub t: f64,
    /// Joint angle q \[rad\].
    pub q: f64,
    /// Reference q_d \[rad\].
    pub qd: f64,
    /// Joint velocity q̇ \[rad/s\].
    pub qdot: f64,
    /// Control torque U \[N·m\].
    pub u: f64,
    /// Joint friction F \[N·m\].
    pub f: f64,
    /// Estimated friction F̂ \[N·m\] (0 with the observer off).
    pub fhat: f64,
    /// Sliding variable s = q̃̇ + λ q̃ \[rad/s\].
    pub s: f64,
    /// Lyapunov function W = ½ m s² + V(x − x̂)/k2 \[J\].
    pub w: f64,
}

/// The closed loop as an ODE in y = \[t, q, q̇, x (d states), x̂ (d states)\].
///
/// Time is a state because the solver's systems are autonomous.
#[derive(Debug)]
pub struct RobotLoop<'a> {
    arm: Arm,
    /// Borrowed for one-shot runs, owned by a run the page carries out in pieces.
    model: std::borrow::Cow<'a, Frbd>,
    /// Bristle-state dimension d = n + 1.
    d: usize,
    /// Input vector b of ẋ = A(v)x + b v: where the observer injects −k2 s.
    b: Vec<f64>,
    /// Absolute-tolerance scale of each bristle state.
    xscale: Vec<f64>,
    /// Scratch for x − x̂ when W is evaluated (outside the solver's stepping).
    diff: Vec<f64>,
    out: Option<RobotRun>,
}

impl<'a> RobotLoop<'a> {
    /// Sets up the loop for `model` (GM or GKV; any n). Allocates once, here.
    pub fn new(arm: Arm, model: &'a Frbd) -> RobotLoop<'a> {
        Self::with_model(arm, std::borrow::Cow::Borrowed(model))
    }

    fn with_model(arm: Arm, owned_or_not: std::borrow::Cow<'a, Frbd>) -> RobotLoop<'a> {
        let model: &Frbd = &owned_or_not;
        let d = model.dim();
        let zero = vec![0.0; d];
        let mut b = vec![0.0; d];
        // ẋ(v = 1, x = 0) = b exactly, since the models are affine in the additive input
        model.rhs(1.0, &zero, &mut b);
        let xscale = match model {
            // z ~ f/k̄0; branch forces f_i are normalised forces of order μ
            Frbd::Gm(g) => std::iter::once(1.0 / g.k0())
                .chain(g.k().iter().map(|_| 1.0))
                .collect(),
            // every element deflection is ~ f/k̄_i
            Frbd::Gkv(g) => std::iter::once(1.0 / g.k0())
                .chain(g.k().iter().map(|k| 1.0 / k))
                .collect(),
            Frbd::Elastic(_) | Frbd::Kv(_) => vec![1e-4; d],
        };
        RobotLoop {
            arm,
            model: owned_or_not,
            d,
            b,
            xscale,
            diff: zero,
            out: None,
        }
    }

    /// Initial state \[0, q0, q̇0, z0, 0…, ẑ0, 0…\].
    pub fn initial_state(&self) -> Vec<f64> {
        let mut y = vec![0.0; 3 + 2 * self.d];
        y[1] = self.arm.q0;
        y[2] = self.arm.dq0;
        y[3] = self.arm.z0;
        y[3 + self.d] = self.arm.zhat0;
        y
    }

    /// Steps the friction states of plant and observer through the initial layer of modes
    /// faster than [`LAYER_RATE`] (at v = q̇0), with the arm held; returns the layer's length
    /// \[s\], 0 (and `y` unchanged) when there is no such mode.
    ///
    /// Implicit Euler is exact enough here: it damps each fast mode monotonically to its
    /// equilibrium, and the slow ones move as they would over the 8 ps. Holding q, q̇ meanwhile
    /// errs by q̇·8 ps in q (≤ 1e-9 rad in range); the friction impulse of the layer,
    /// ~F/|λ|, is as small.
    pub fn settle_layer(&self, y: &mut [f64]) -> f64 {
        let v = y[2];
        if self.model.max_rate(v) <= LAYER_RATE {
            return 0.0;
        }
        let d = self.d;
        let eta = 1.0 / LAYER_RATE;
        let s = self.sliding(y);
        let mut r = vec![0.0; d];
        let mut out = vec![0.0; d];
        for _ in 0..LAYER_STEPS {
            r.copy_from_slice(&y[3..3 + d]);
            self.model.solve_stage(v, eta, &r, &mut out);
            y[3..3 + d].copy_from_slice(&out);
            if self.arm.observer {
                // the observer's input is q̇ − k2·s: the same solve with −η·k2·s·b moved into r
                for i in 0..d {
                    r[i] = y[3 + d + i] - eta * self.arm.k2 * s * self.b[i];
                }
                self.model.solve_stage(v, eta, &r, &mut out);
                y[3 + d..].copy_from_slice(&out);
            }
        }
        let t_layer = LAYER_STEPS as f64 * eta;
        y[0] += t_layer;
        t_layer
    }

    /// (s, q̈_r-dependent control U, F, F̂) at state y.
    #[inline]
    fn control(&self, y: &[f64]) -> (f64, f64, f64, f64) {
        let a = &self.arm;
        let (t, q, qdot) = (y[0], y[1], y[2]);
        let (qd, qd_dot, qd_ddot) = a.reference.eval(t);
        let e = q - qd;
        let edot = qdot - qd_dot;
        let s = edot + a.lambda * e;
        let qr_dot = qd_dot - a.lambda * e;
        let qr_ddot = qd_ddot - a.lambda * edot;
        let x = &y[3..3 + self.d];
        let f = self.model.output(qdot, x);
        let fhat = if a.observer {
            self.model.output(qdot, &y[3 + self.d..])
        } else {
            0.0
        };
        let u = a.m * qr_ddot + a.c * qr_dot + a.gload * q.cos() + fhat - a.k1 * s;
        (s, u, f, fhat)
    }

    /// Lyapunov function W = ½ m s² + V(x − x̂)/k2 \[J\] at state y.
    pub fn lyapunov(&mut self, y: &[f64]) -> f64 {
        let (s, ..) = self.control(y);
        self.lyapunov_with(y, s)
    }

    fn lyapunov_with(&mut self, y: &[f64], s: f64) -> f64 {
        let d = self.d;
        for i in 0..d {
            self.diff[i] = y[3 + i] - y[3 + d + i];
        }
        0.5 * self.arm.m * s * s + self.model.storage(&self.diff) / self.arm.k2
    }

    /// The rate dW/dt the theory predicts at state y: −(c + k1)s² − D(q̇, x − x̂)/k2 \[W\].
    pub fn lyapunov_rate_theory(&mut self, y: &[f64]) -> f64 {
        let (s, ..) = self.control(y);
        let d = self.d;
        for i in 0..d {
            self.diff[i] = y[3 + i] - y[3 + d + i];
        }
        -(self.arm.c + self.arm.k1) * s * s - self.model.dissipation(y[2], &self.diff) / self.arm.k2
    }

    /// Sliding variable s \[rad/s\] at state y.
    pub fn sliding(&self, y: &[f64]) -> f64 {
        self.control(y).0
    }

    /// All reported quantities at state y.
    pub fn sample(&mut self, y: &[f64]) -> Sample {
        let (s, u, f, fhat) = self.control(y);
        Sample {
            t: y[0],
            q: y[1],
            qd: self.arm.reference.eval(y[0]).0,
            qdot: y[2],
            u,
            f,
            fhat,
            s,
            w: self.lyapunov_with(y, s),
        }
    }
}

impl System for RobotLoop<'_> {
    fn dim(&self) -> usize {
        3 + 2 * self.d
    }

    fn rhs(&self, y: &[f64], dy: &mut [f64]) {
        let a = &self.arm;
        let d = self.d;
        let (q, qdot) = (y[1], y[2]);
        let (s, u, f, _) = self.control(y);
        dy[0] = 1.0;
        dy[1] = qdot;
        dy[2] = (-a.c * qdot - a.gload * q.cos() - f + u) / a.m;
        let (x, xh) = y[3..].split_at(d);
        let (dx, dxh) = dy[3..].split_at_mut(d);
        self.model.rhs(qdot, x, dx);
        if a.observer {
            self.model.rhs(qdot, xh, dxh);
            for (o, b) in dxh.iter_mut().zip(&self.b) {
                *o -= a.k2 * s * b;
            }
        } else {
            dxh.fill(0.0);
        }
    }

    fn scale(&self, i: usize) -> f64 {
        if i < 3 {
            1.0
        } else {
            self.xscale[(i - 3) % self.d]
        }
    }

    fn observe(&mut self, _t: f64, y: &[f64], _point: Point) {
        let smp = self.sample(y);
        if let Some(o) = self.out.as_mut() {
            o.push(&smp);
        }
    }
}

/// Time series of one run (one entry per accepted solver step) and its metrics.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct RobotRun {
    /// Time \[s\].
    pub t: Vec<f64>,
    /// Joint angle q \[rad\].
    pub q: Vec<f64>,
    /// Reference q_d \[rad\].
    pub qd: Vec<f64>,
    /// Joint velocity q̇ \[rad/s\].
    pub qdot: Vec<f64>,
    /// Control torque U \[N·m\].
    pub u: Vec<f64>,
    /// Joint friction F \[N·m\].
    pub f: Vec<f64>,
    /// Estimated friction F̂ \[N·m\].
    pub fhat: Vec<f64>,
    /// Sliding variable s \[rad/s\].
    pub s: Vec<f64>,
    /// Lyapunov function W \[J\].
    pub w: Vec<f64>,
    /// Scalar results (filled by [`run`]).
    pub metrics: Metrics,
}

impl RobotRun {
    fn push(&mut self, s: &Sample) {
        self.t.push(s.t);
        self.q.push(s.q);
        self.qd.push(s.qd);
        self.qdot.push(s.qdot);
        self.u.push(s.u);
        self.f.push(s.f);
        self.fhat.push(s.fhat);
        self.s.push(s.s);
        self.w.push(s.w);
    }

    fn reserve(&mut self, n: usize) {
        for v in [
            &mut self.t,
            &mut self.q,
            &mut self.qd,
            &mut self.qdot,
            &mut self.u,
            &mut self.f,
            &mut self.fhat,
            &mut self.s,
            &mut self.w,
        ] {
            v.reserve(n);
        }
    }

    /// Tracking error q̃ = q − q_d at sample i \[rad\].
    pub fn error(&self, i: usize) -> f64 {
        self.q[i] - self.qd[i]
    }
}

/// Scalar results of one run.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Metrics {
    /// |q̃| at t_end \[rad\].
    pub final_error: f64,
    /// max |q̃| over the run \[rad\].
    pub max_error: f64,
    /// RMS of q̃ over the second half of the run \[rad\]: the steady tracking error.
    pub rms_error_late: f64,
    /// First time after which |q̃| stays within [`SETTLE_FRACTION`]·|q_a| \[s\]; NaN if |q̃| is
    /// outside the band at t_end.
    pub settling_time: f64,
    /// Settling band \[rad\].
    pub settle_band: f64,
    /// W at t = 0 and at t_end \[J\].
    pub w0: f64,
    /// W at t_end \[J\].
    pub w_end: f64,
    /// Largest increase of W between consecutive samples \[J\] (≤ 0 up to solver error when the
    /// observer is on).
    pub w_max_rise: f64,
    /// max |U| \[N·m\].
    pub max_torque: f64,
    /// max |F − F̂| over the second half of the run \[N·m\].
    pub max_fhat_error_late: f64,
    /// Accepted solver steps.
    pub steps: usize,
    /// Rejected solver steps.
    pub rejected: usize,
}

impl Metrics {
    fn compute(r: &RobotRun, amp: f64) -> Metrics {
        let n = r.t.len();
        let mut m = Metrics {
            settle_band: (SETTLE_FRACTION * amp.abs()).max(1e-9),
            ..Metrics::default()
        };
        if n == 0 {
            return m;
        }
        let tend = r.t[n - 1];
        let half = r.t.partition_point(|&t| t < 0.5 * tend).min(n - 1);
        let mut sq = 0.0;
        let mut dt_sum = 0.0;
        for i in 0..n {
            let e = r.error(i).abs();
            m.max_error = m.max_error.max(e);
            m.max_torque = m.max_torque.max(r.u[i].abs());
            if i > half {
                // trapezoid on the solver's uneven grid, so dense step clusters do not dominate
                let dt = r.t[i] - r.t[i - 1];
                let e0 = r.error(i - 1);
                sq += 0.5 * dt * (e0 * e0 + e * e);
                dt_sum += dt;
            }
            if i >= half {
                m.max_fhat_error_late = m.max_fhat_error_late.max((r.f[i] - r.fhat[i]).abs());
            }
        }
        m.rms_error_late = if dt_sum > 0.0 {
            (sq / dt_sum).sqrt()
        } else {
            r.error(n - 1).abs()
        };
        // when W falls at every step this is the smallest fall (negative): how monotone it is
        m.w_max_rise =
            r.w.windows(2)
                .map(|p| p[1] - p[0])
                .fold(f64::NEG_INFINITY, f64::max);
        if n < 2 {
            m.w_max_rise = 0.0;
        }
        m.final_error = r.error(n - 1).abs();
        m.settling_time = match (0..n).rev().find(|&i| r.error(i).abs() > m.settle_band) {
            None => r.t[0],
            Some(i) if i == n - 1 => f64::NAN,
            Some(i) => r.t[i + 1],
        };
        m.w0 = r.w[0];
        m.w_end = r.w[n - 1];
        m
    }
}

/// Why a run failed.
#[derive(Debug, Clone, PartialEq)]
pub enum RobotError {
    /// A parameter was rejected.
    Param(ParamError),
    /// The integrator gave up.
    Solver(SolveError),
}

impl std::fmt::Display for RobotError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RobotError::Param(e) => e.fmt(f),
            // Says what to change: only extreme settings (a fast reference over a long run,
            // very high gains) reach the step budget.
            RobotError::Solver(SolveError::TooManySteps { t }) => write!(
                f,
                "the loop needs more than {MAX_STEPS} solver steps (stopped at t = {t:.4} s): \
                 shorten t_end (tend), lower the reference frequency f_d (qfreq) or the gains \
                 k_1, k_2, λ (ks, kobs, lambda)"
            ),
            // What is left after the initial layer: a loop whose friction modes are too fast
            // for the solver's step floor; they come from stiffness against damping.
            RobotError::Solver(SolveError::StepTooSmall { t }) => write!(
                f,
                "step size underflow at t = {t} s: the loop is too stiff for the solver there; \
                 its fastest friction modes come from the stiffnesses k0, k against the \
                 relaxation times tau (frbd-gm) or dampings c (frbd-gkv): lower k0 or k, or \
                 raise tau or c"
            ),
            RobotError::Solver(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for RobotError {}

/// Checks that the friction model is one the observer construction covers (GM or GKV).
pub fn check_model(model: &Frbd) -> Result<(), ParamError> {
    match model {
        Frbd::Gm(_) | Frbd::Gkv(_) => Ok(()),
        other => Err(ParamError::new(
            "model",
            other.kind().id(),
            "view=robot needs frbd-gm or frbd-gkv (the letter's plant and its GKV analogue)",
        )),
    }
}

/// Runs the closed loop from t = 0 to t_end with the adaptive Rodas solver; one sample per
/// accepted step (plus t = 0).
pub fn run(arm: &Arm, model: &Frbd) -> Result<RobotRun, RobotError> {
    run_with(arm, model, RTOL, ATOL)
}

/// As [`run`] with explicit tolerances.
pub fn run_with(arm: &Arm, model: &Frbd, rtol: f64, atol: f64) -> Result<RobotRun, RobotError> {
    let mut run = RobotPieces::start_with(arm, model, rtol, atol)?;
    loop {
        if let Some(out) = run.advance(usize::MAX)? {
            return Ok(out);
        }
    }
}

/// A robot-arm run carried out in pieces, so that the page can pause between frames; the
/// pieces take exactly the steps of one [`run`] however the run is cut.
#[derive(Debug)]
pub struct RobotPieces {
    sys: RobotLoop<'static>,
    y: Vec<f64>,
    opts: Options,
    solver: Rodas,
    amp: f64,
}

impl RobotPieces {
    /// Sets up the loop (with its own copy of the model) at the tolerances of [`run`].
    pub fn start(arm: &Arm, model: &Frbd) -> Result<Self, RobotError> {
        Self::start_with(arm, model, RTOL, ATOL)
    }

    /// As [`RobotPieces::start`] with explicit tolerances.
    pub fn start_with(arm: &Arm, model: &Frbd, rtol: f64, atol: f64) -> Result<Self, RobotError> {
        check_model(model).map_err(RobotError::Param)?;
        let mut sys = RobotLoop::with_model(*arm, std::borrow::Cow::Owned(model.clone()));
        let mut out = RobotRun::default();
        out.reserve(4096);
        sys.out = Some(out);
        let mut y = sys.initial_state();
        // the run starts from the given state; after an initial layer (if any) from its end
        let y0 = y.clone();
        let t0 = sys.settle_layer(&mut y);
        if t0 > 0.0 {
            sys.observe(0.0, &y0, Point::Start);
        }
        // hmax keeps the output dense enough to draw a sine (≥ 40 points per period), but
        // never asks for more than 20 000 forced steps over the run
        let hmax = match arm.reference {
            Reference::Sine { freq, .. } => (1.0 / (40.0 * freq)).max(arm.tend / 20_000.0),
            Reference::Step { .. } => arm.tend / 400.0,
        };
        let opts = Options {
            rtol,
            atol,
            h0: 0.0,
            hmax: hmax.min(arm.tend / 200.0),
            max_steps: MAX_STEPS,
            predictive: false,
        };
        let mut solver = Rodas::new();
        solver
            .begin(&mut sys, t0, &mut y, arm.tend, &opts)
            .map_err(RobotError::Solver)?;
        Ok(RobotPieces {
            sys,
            y,
            opts,
            solver,
            amp: arm.reference.amp(),
        })
    }

    /// Takes up to `max_steps` more accepted steps; the finished run once the end is reached.
    pub fn advance(&mut self, max_steps: usize) -> Result<Option<RobotRun>, RobotError> {
        let done = self
            .solver
            .resume(&mut self.sys, &mut self.y, &self.opts, max_steps)
            .map_err(RobotError::Solver)?;
        if !done {
            return Ok(None);
        }
        Ok(Some(self.take_output()))
    }

    /// The run so far, metrics over that span; `None` (and nothing taken) if it holds fewer
    /// than two points. After [`RobotPieces::advance`] failed (e.g. at the step budget) it is
    /// what was computed: a run that stops at 80 s of 100 s still shows how the loop behaved. A
    /// caller that only pauses the run hands it back with [`RobotPieces::give_back`] before
    /// the run advances again (moving the series instead of copying up to 400,000 steps).
    pub fn partial(&mut self) -> Option<RobotRun> {
        (self.sys.out.as_ref().map_or(0, |o| o.t.len()) >= 2).then(|| self.take_output())
    }

    /// Takes back the series [`RobotPieces::partial`] gave, so that the run goes on where it
    /// was.
    pub fn give_back(&mut self, mut run: RobotRun) {
        run.metrics = Metrics::default();
        self.sys.out = Some(run);
    }

    fn take_output(&mut self) -> RobotRun {
        let stats = self.solver.stats();
        let mut out = self.sys.out.take().unwrap_or_default();
        out.metrics = Metrics::compute(&out, self.amp);
        out.metrics.steps = stats.steps;
        out.metrics.rejected = stats.rejected;
        out
    }
}

#[cfg(test)]
mod tests;
