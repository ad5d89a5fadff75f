//! Any model's states under a prescribed velocity, one sample interval at a time: the stepping
//! shared by the prescribed-motion cycles ([`super::prescribed`], an analytic cosine) and the
//! fit's model runs ([`super::sampled`], measured samples interpolated between sample times).
//!
//! How an interval is stepped:
//! * hybrid static-stiction laws (a discrete stick/slip mode, Armstrong-Hélouvry) keep the
//!   implicit-Euler stepper whose mode updates they were validated with ([`SUBSTEPS`] sub-steps);
//! * every other model with state goes through the event-locating Rosenbrock solver ([`Rodas`])
//!   with the time as an extra state, so that v(t) varies continuously inside a step and
//!   switches (Maxwell-slip saturation, GMS stick/slip, bristle snaps, reversals) are located
//!   exactly; separable models (GMS, bristles) get the two-evaluation arrow Jacobian
//!   (`integrate::separable::arrow_jacobian`) instead of one column per element;
//! * where the solver gives up on an interval, implicit Euler takes it
//!   ([`StateStepper::advance`]) and it is counted as a fallback.
//!
//! F_e = 0 throughout: stick branches of laws that depend on an external force do not act.
//!
//! Peaks between samples: on request ([`IntervalStepper::track_extremes`]) the stepper also
//! follows the largest and smallest force along the solver's continuous solution
//! ([`Extremes`]): the output samples of a cycle miss a peak that lies between them (LuGre
//! with σ0 = 1e6 N/m at 400 samples a cycle: 2.7 % low).
//!
//! Why this file is long (over 600 lines): `IntervalStepper` is one state machine (Rodas per
//! interval with events, the arrow Jacobian, implicit-Euler fallbacks) whose parts share its
//! scratch.

use crate::integrate::implicit_euler::{hybrid, StateStepper};
use crate::integrate::rodas::{EventAction, Options, Point, Rodas, SolveError, System};
use crate::model::FrictionModel;

/// Sub-steps per interval of the implicit-Euler stepper (hybrid laws, fallbacks).
pub const SUBSTEPS: usize = 4;

/// Solver steps per unit of work for a model with few states: a few milliseconds.
pub const UNIT_STEPS: usize = 2_000;

/// Solver steps per unit of work for a model with `n_states` states: [`UNIT_STEPS`] scaled down
/// as a step's cost grows with the state count (GMS with 1000 elements: 31 steps).
pub fn unit_steps(n_states: usize) -> usize {
    (UNIT_STEPS * 16 / (16 + n_states)).max(1)
}

/// Work of one unit \[state-steps of [`crate::integrate::meter`]\]: [`UNIT_STEPS`] steps of a
/// model with no state, about 3 ms natively.
pub const UNIT_WORK: usize = UNIT_STEPS * 16;

/// Solver steps per unit of work for `m` driven by a system of `extra` more states (the closed
/// loop's x and ẋ: 2): [`unit_steps`], and fewer for a model whose Jacobian is dense, where a
/// step also costs a factorisation growing as n³ (a Leuven model with 50 elements: 45 steps).
pub fn unit_steps_of(m: &dyn FrictionModel, extra: usize) -> usize {
    let n = m.n_states() + extra;
    let dense = if m.separable() {
        0
    } else {
        crate::integrate::meter::dense(m.n_states() - m.n_discrete().min(m.n_states()))
    };
    (UNIT_WORK / (16 + n + dense)).max(1)
}

/// A prescribed velocity v(τ) \[m/s\] over one interval starting at `t0`, or over all time.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Velocity {
    /// v = mean + amp·cos(ω τ) (the prescribed-motion views).
    Cosine {
        /// Mean \[m/s\].
        mean: f64,
        /// Amplitude \[m/s\].
        amp: f64,
        /// Angular frequency ω \[rad/s\].
        omega: f64,
    },
    /// v = v0 + s·(a1 + a2·s) with s = τ − t0: samples of v interpolated linearly (a2 = 0), or
    /// the derivative of a cubic interpolant of sampled displacements.
    Poly {
        /// Start of the interval \[s\].
        t0: f64,
        /// v at t0 \[m/s\].
        v0: f64,
        /// Slope \[m/s²\].
        a1: f64,
        /// Curvature \[m/s³\].
        a2: f64,
    },
}

impl Velocity {
    /// v at time `tau` \[s\].
    #[inline]
    pub fn at(&self, tau: f64) -> f64 {
        match *self {
            Velocity::Cosine { mean, amp, omega } => mean + amp * (omega * tau).cos(),
            Velocity::Poly { t0, v0, a1, a2 } => {
                let s = tau - t0;
                if a2 == 0.0 {
                    v0 + a1 * s
                } else {
                    v0 + s * (a1 + a2 * s)
                }
            }
        }
    }

    /// v at sub-step point t0 + x·dt, computed from the offset where the velocity is given
    /// relative to the interval (no round-off of t0 + x·dt − t0).
    #[inline]
    fn sub(&self, t0: f64, x: f64, dt: f64) -> f64 {
        match *self {
            Velocity::Cosine { .. } => self.at(t0 + x * dt),
            Velocity::Poly { v0, a1, a2, .. } => {
                if a2 == 0.0 {
                    v0 + a1 * x * dt
                } else {
                    let s = x * dt;
                    v0 + s * (a1 + a2 * s)
                }
            }
        }
    }
}

/// A model under a prescribed velocity, with the time τ as the leading state so that the
/// solver sees v vary inside its steps and locates the switches that depend on it.
struct Driven<'a> {
    m: &'a dyn FrictionModel,
    vel: Velocity,
    /// Typical size of τ's steps \[s\] (the error control's scale of the leading state).
    tau_scale: f64,
    /// Where the force's extremes along the solution are followed, if asked.
    track: Option<&'a mut Extremes>,
}

/// Candidate stretches kept per extreme: the stretch holding the largest force sample and its
/// neighbours, whose shared end may be that sample (the true peak then lies in either).
const CANDIDATES: usize = 3;

/// Interior points sampled per stretch before refining (θ = 1/4, 1/2, 3/4).
const INTERIOR: usize = 3;

/// Golden-section steps refining an extreme: they shrink its bracket (half a stretch) to
/// 0.618⁴⁰ ≈ 4e-9 of it.
const GOLDEN_STEPS: usize = 40;

/// One stretch of the solver's solution between two consecutive accepted points, kept as the
/// ends of its cubic Hermite dense output, with the best force sample on it.
#[derive(Debug, Clone, Default)]
struct Stretch {
    vel: Option<Velocity>,
    y0: Vec<f64>,
    f0: Vec<f64>,
    y1: Vec<f64>,
    f1: Vec<f64>,
    /// sign·F of the best of the stretch's samples, and its θ.
    best: f64,
    theta: f64,
    /// Whether the interpolant follows the model inside the stretch ([`SMOOTH`]); where it
    /// does not, only the stretch's ends count.
    smooth: bool,
}

/// Largest disagreement, relative to the state's rate over the stretch, between the time
/// derivative of the cubic Hermite interpolant and the model's own derivative at three interior
/// points, for the interpolant to be trusted between the ends. A smooth, resolved step agrees
/// to its truncation error (far below this); a step across a switch the solver did not stop
/// at (Liang's bristle released as |v| falls through v_0, where ż jumps from 0 to v) disagrees
/// by the jump, and F on such an interpolant picked the wrong branch: 21 % too low a trough.
const SMOOTH: f64 = 0.1;

/// The largest and smallest friction force along the continuous solution of a driven model:
/// every accepted solver step is a stretch of cubic Hermite dense output (the interpolant the
/// solver locates its events on, from the states and their derivatives at both ends, O(h⁴)),
/// sampled at its ends and three interior points; the stretches holding the best samples are
/// kept and their extremes refined by golden-section search when asked
/// ([`Extremes::take`]). A state changed by an event starts a new stretch, and a stretch
/// whose interpolant does not follow the model inside it (a switch the solver stepped across)
/// counts with its ends only (its interpolant, differentiated, must match the model's derivative
/// to 0.1 of the state's rate).
#[derive(Debug, Clone, Default)]
pub struct Extremes {
    /// The last accepted point and its derivative, while a stretch can start there.
    last: Option<(Vec<f64>, Vec<f64>)>,
    last_vel: Option<Velocity>,
    /// Candidate stretches for the maximum and the minimum, best first.
    top: [Vec<Stretch>; 2],
    scratch: Vec<f64>,
    rate: Vec<f64>,
    model_rate: Vec<f64>,
    dy: Vec<f64>,
}

/// The cubic Hermite interpolant of a stretch at θ ∈ \[0, 1\] (as the solver's).
fn hermite(s: &Stretch, th: f64, out: &mut [f64]) {
    let h = s.y1[0] - s.y0[0];
    let t2 = th * th;
    let t3 = t2 * th;
    let h00 = 2.0 * t3 - 3.0 * t2 + 1.0;
    let h10 = t3 - 2.0 * t2 + th;
    let h01 = -2.0 * t3 + 3.0 * t2;
    let h11 = t3 - t2;
    for (i, o) in out.iter_mut().enumerate() {
        *o = h00 * s.y0[i] + h10 * h * s.f0[i] + h01 * s.y1[i] + h11 * h * s.f1[i];
    }
}

/// The time derivative of the cubic Hermite interpolant of a stretch at θ.
fn hermite_rate(s: &Stretch, th: f64, out: &mut [f64]) {
    let h = s.y1[0] - s.y0[0];
    let t2 = th * th;
    let d00 = 6.0 * t2 - 6.0 * th;
    let d10 = 3.0 * t2 - 4.0 * th + 1.0;
    let d01 = -6.0 * t2 + 6.0 * th;
    let d11 = 3.0 * t2 - 2.0 * th;
    for (i, o) in out.iter_mut().enumerate() {
        *o = (d00 * s.y0[i] + d01 * s.y1[i]) / h + d10 * s.f0[i] + d11 * s.f1[i];
    }
}

/// Whether the interpolant of `s` follows `m` between its ends ([`SMOOTH`]); `a`, `b`, `c`:
/// scratch of the state's length.
// `!(x <= y)`: a NaN derivative fails the test
#[allow(clippy::neg_cmp_op_on_partial_ord)]
fn follows(
    m: &dyn FrictionModel,
    s: &Stretch,
    a: &mut [f64],
    b: &mut [f64],
    c: &mut [f64],
) -> bool {
    let h = s.y1[0] - s.y0[0];
    let n = m.n_states();
    let nc = n - m.n_discrete().min(n);
    for k in 1..=INTERIOR {
        let th = k as f64 / (INTERIOR + 1) as f64;
        hermite(s, th, a);
        hermite_rate(s, th, b);
        let v = s.vel.map_or(f64::NAN, |vel| vel.at(a[0]));
        m.derivative(v, 0.0, &a[1..], &mut c[1..]);
        for i in 1..=nc {
            let rate = s.f0[i]
                .abs()
                .max(s.f1[i].abs())
                .max((s.y1[i] - s.y0[i]).abs() / h)
                .max(1e-300);
            if !((b[i] - c[i]).abs() <= SMOOTH * rate) {
                return false;
            }
        }
    }
    true
}

/// F on a stretch at θ; the velocity is the prescribed one at the interpolated time.
fn force_on(m: &dyn FrictionModel, s: &Stretch, th: f64, scratch: &mut [f64]) -> f64 {
    hermite(s, th, scratch);
    let v = s.vel.map_or(f64::NAN, |vel| vel.at(scratch[0]));
    m.force(v, 0.0, &scratch[1..])
}

impl Extremes {
    /// Forgets everything seen (a new cycle).
    pub fn reset(&mut self) {
        self.last = None;
        self.top[0].clear();
        self.top[1].clear();
    }

    /// An accepted point (τ, states) of the solution under `vel`; `joined`: the solution is
    /// continuous from the last point to this one (not the start of an interval or an event).
    fn point(&mut self, m: &dyn FrictionModel, vel: Velocity, y: &[f64], joined: bool) {
        self.dy.resize(y.len(), 0.0);
        self.dy[0] = 1.0;
        m.derivative(vel.at(y[0]), 0.0, &y[1..], &mut self.dy[1..]);
        let n = m.n_states();
        // discrete states stay put between events
        for d in &mut self.dy[1 + n - m.n_discrete().min(n)..] {
            *d = 0.0;
        }
        if let (true, Some((y0, f0))) = (joined, self.last.take()) {
            if y[0] > y0[0] && self.last_vel == Some(vel) {
                let s = Stretch {
                    vel: Some(vel),
                    y0,
                    f0,
                    y1: y.to_vec(),
                    f1: self.dy.clone(),
                    best: 0.0,
                    theta: 0.0,
                    smooth: false,
                };
                self.offer(m, s);
            }
        }
        self.last = Some((y.to_vec(), self.dy.clone()));
        self.last_vel = Some(vel);
    }

    /// Samples stretch `s` and keeps it among the candidates of either extreme it may hold.
    fn offer(&mut self, m: &dyn FrictionModel, mut s: Stretch) {
        let len = s.y0.len();
        self.scratch.resize(len, 0.0);
        self.rate.resize(len, 0.0);
        self.model_rate.resize(len, 0.0);
        s.smooth = follows(
            m,
            &s,
            &mut self.scratch,
            &mut self.rate,
            &mut self.model_rate,
        );
        let mut samples = [(0.0, f64::NAN); INTERIOR + 2];
        for (k, p) in samples.iter_mut().enumerate() {
            let th = k as f64 / (INTERIOR + 1) as f64;
            // a rough stretch: its ends only
            if s.smooth || k == 0 || k == INTERIOR + 1 {
                *p = (th, force_on(m, &s, th, &mut self.scratch));
            }
        }
        for (which, sign) in [(0, 1.0), (1, -1.0)] {
            let (th, f) = samples.iter().copied().filter(|p| p.1.is_finite()).fold(
                (0.0, f64::NEG_INFINITY),
                |b, p| {
                    if sign * p.1 > b.1 {
                        (p.0, sign * p.1)
                    } else {
                        b
                    }
                },
            );
            if !f.is_finite() {
                continue;
            }
            let top = &mut self.top[which];
            if top.len() == CANDIDATES && top.last().is_some_and(|w| w.best >= f) {
                continue;
            }
            let mut c = s.clone();
            c.best = f;
            c.theta = th;
            let at = top.iter().position(|w| w.best < f).unwrap_or(top.len());
            top.insert(at, c);
            top.truncate(CANDIDATES);
        }
    }

    /// The largest and smallest F on the solution since the last call (NaN for none seen),
    /// each refined within its candidate stretches by golden-section search about the best
    /// sample; forgets them.
    pub fn take(&mut self, m: &dyn FrictionModel) -> (f64, f64) {
        let mut out = [f64::NAN; 2];
        for (which, sign) in [(0, 1.0), (1, -1.0)] {
            let mut best = f64::NEG_INFINITY;
            for s in &self.top[which] {
                if !s.smooth {
                    best = best.max(s.best);
                    continue;
                }
                self.scratch.resize(s.y0.len(), 0.0);
                let step = 1.0 / (INTERIOR + 1) as f64;
                let (mut a, mut b) = ((s.theta - step).max(0.0), (s.theta + step).min(1.0));
                let g = |th: f64, scratch: &mut [f64]| sign * force_on(m, s, th, scratch);
                let r = 0.5 * (5f64.sqrt() - 1.0);
                let mut c = b - r * (b - a);
                let mut d = a + r * (b - a);
                let mut fc = g(c, &mut self.scratch);
                let mut fd = g(d, &mut self.scratch);
                for _ in 0..GOLDEN_STEPS {
                    if fc >= fd {
                        b = d;
                        d = c;
                        fd = fc;
                        c = b - r * (b - a);
                        fc = g(c, &mut self.scratch);
                    } else {
                        a = c;
                        c = d;
                        fc = fd;
                        d = a + r * (b - a);
                        fd = g(d, &mut self.scratch);
                    }
                }
                for f in [s.best, fc, fd] {
                    if f.is_finite() && f > best {
                        best = f;
                    }
                }
            }
            if best.is_finite() {
                out[which] = sign * best;
            }
        }
        self.top[0].clear();
        self.top[1].clear();
        (out[0], out[1])
    }
}

impl System for Driven<'_> {
    fn dim(&self) -> usize {
        1 + self.m.n_states()
    }
    fn rhs(&self, y: &[f64], dy: &mut [f64]) {
        dy[0] = 1.0;
        self.m
            .derivative(self.vel.at(y[0]), 0.0, &y[1..], &mut dy[1..]);
    }
    fn scale(&self, i: usize) -> f64 {
        if i == 0 {
            self.tau_scale
        } else {
            self.m.state_scale(i - 1)
        }
    }
    fn n_frozen(&self) -> usize {
        self.m.n_discrete()
    }
    fn jacobian(&self, y: &[f64], jac: &mut [f64]) -> bool {
        // differences of a separable model's elements all at once (the τ column on its own)
        if !self.m.separable() {
            return false;
        }
        let nc = 1 + self.m.n_states() - self.m.n_discrete();
        let f = |y: &[f64], dy: &mut [f64]| self.rhs(y, dy);
        let scale = |i: usize| self.scale(i);
        crate::integrate::separable::arrow_jacobian(&f, &scale, y, 1, nc, jac);
        true
    }
    fn dense_head(&self) -> Option<usize> {
        // each element depends on itself and on v, i.e. on τ
        self.m.separable().then_some(1)
    }
    fn n_events(&self) -> usize {
        self.m.n_switches()
    }
    fn events(&self, y: &[f64], g: &mut [f64]) {
        self.m.switches(self.vel.at(y[0]), 0.0, &y[1..], g);
    }
    fn on_event(&mut self, _t: f64, index: usize, rising: bool, y: &mut [f64]) -> EventAction {
        let v = self.vel.at(y[0]);
        if self.m.on_switch(index, rising, v, 0.0, &mut y[1..]) {
            EventAction::Reset
        } else {
            EventAction::Continue
        }
    }
    fn observe(&mut self, _t: f64, y: &[f64], point: Point) {
        if let Some(track) = self.track.as_deref_mut() {
            // an event may change the state: the stretch before it ends there, and the one
            // after it starts from the changed state
            let joined = matches!(point, Point::Step | Point::EventBefore(_));
            track.point(self.m, self.vel, y, joined);
        }
    }
}

/// Solver scratch and counters for stepping one model interval by interval.
pub struct IntervalStepper {
    rodas: Rodas,
    stepper: StateStepper,
    y0: Vec<f64>,
    hybrid: bool,
    /// Accepted Rosenbrock steps so far.
    pub steps: usize,
    /// Intervals the Rosenbrock solver gave up on (implicit Euler took them).
    pub fallbacks: usize,
    /// An interval begun in `rodas` and cut by a step cap ([`IntervalStepper::step_capped`]).
    open: bool,
    /// The implicit-Euler fallback of an interval under way: its next sub-step.
    fallback: Option<usize>,
    /// A fallback sub-step begun in `stepper` and cut by the cap.
    sub_open: bool,
    /// The force's extremes along the solution, when followed.
    track: Option<Extremes>,
    /// The side of each switch as the last interval's solver run left it armed (empty after
    /// a fallback or before the first interval).
    sides: Vec<i8>,
    /// Switching functions at the start of an interval (scratch).
    g: Vec<f64>,
}

impl IntervalStepper {
    /// Scratch for `m`.
    pub fn new(m: &dyn FrictionModel) -> IntervalStepper {
        let mut st = IntervalStepper {
            rodas: Rodas::new(),
            stepper: StateStepper::new(0),
            y0: Vec::new(),
            hybrid: false,
            steps: 0,
            fallbacks: 0,
            open: false,
            fallback: None,
            sub_open: false,
            track: None,
            sides: Vec::new(),
            g: Vec::new(),
        };
        st.prepare(m);
        st
    }

    /// Follows the largest and smallest force along the solver's continuous solution from now
    /// on ([`Extremes`]; read and restarted by [`IntervalStepper::take_extremes`]). Intervals
    /// taken by implicit Euler (hybrid laws, fallbacks) add nothing: their samples remain.
    pub fn track_extremes(&mut self) {
        self.track.get_or_insert_with(Extremes::default).reset();
    }

    /// The largest and smallest F along the solution since tracking started or since the last
    /// call (NaN where nothing was followed), and restarts.
    pub fn take_extremes(&mut self, m: &dyn FrictionModel) -> (f64, f64) {
        self.track
            .as_mut()
            .map_or((f64::NAN, f64::NAN), |t| t.take(m))
    }

    /// Makes the scratch ready for a new run of `m`, keeping the solver's allocations.
    pub fn prepare(&mut self, m: &dyn FrictionModel) {
        self.stepper = StateStepper::new(m.n_states());
        self.y0.clear();
        self.y0.resize(1 + m.n_states(), 0.0);
        self.hybrid = hybrid(m) > 0;
        self.steps = 0;
        self.fallbacks = 0;
        self.fallback = None;
        self.sub_open = false;
        self.sides.clear();
        if let Some(t) = &mut self.track {
            t.reset();
        }
    }

    /// Fires the switches whose function starts this interval on another side than the last
    /// run left it armed: a crossing located within round-off of that run's end, whose landing
    /// step was too short to take (the run ended there without firing it). A velocity reversal
    /// that falls on a sample does this, and every GMS element slipping through it then stayed
    /// on its limit against the motion for a whole stroke: a 25 Hz loop that never went
    /// positive after a change of σ0 by 1e-9 of itself, or in the browser's arithmetic.
    fn fire_carried(&mut self, m: &dyn FrictionModel, v: f64, y: &mut [f64]) {
        let k = m.n_switches();
        if k == 0 || self.sides.len() != k {
            return;
        }
        self.g.resize(k, 0.0);
        m.switches(v, 0.0, &y[1..], &mut self.g);
        for i in 0..k {
            let (was, now) = (self.sides[i], crate::stribeck::sgn(self.g[i]) as i8);
            if was != 0 && now != 0 && was != now {
                m.on_switch(i, was < 0, v, 0.0, &mut y[1..]);
            }
        }
    }

    /// Advances `y` = [τ, states of `m`] from `t0` to `t1` under `vel`; `h` is the interval's
    /// nominal length \[s\] (sub-steps, the solver's first step), `tau_scale` τ's error scale.
    /// Leaves y\[0\] = `t1`.
    pub fn step(
        &mut self,
        m: &dyn FrictionModel,
        vel: Velocity,
        tau_scale: f64,
        y: &mut [f64],
        span: (f64, f64, f64),
        opts: &Options,
    ) {
        let mut unlimited = usize::MAX;
        self.step_capped(m, vel, tau_scale, y, span, opts, &mut unlimited);
    }

    /// [`IntervalStepper::step`] with at most `steps_left` solver steps (decremented by those
    /// taken): false when the cap cut the interval, which the next call (with the same
    /// arguments) continues with the same steps an uncut one takes. The cap bounds a unit of
    /// work where one stiff interval takes thousands of steps (a 1.2 s unit in the fuzz).
    #[allow(clippy::too_many_arguments)]
    pub fn step_capped(
        &mut self,
        m: &dyn FrictionModel,
        vel: Velocity,
        tau_scale: f64,
        y: &mut [f64],
        (t0, t1, h): (f64, f64, f64),
        opts: &Options,
        steps_left: &mut usize,
    ) -> bool {
        if self.hybrid {
            let dt = h / SUBSTEPS as f64;
            for j in 1..=SUBSTEPS {
                let v = vel.sub(t0, j as f64, dt);
                self.stepper.step(m, v, 0.0, &mut y[1..], dt);
            }
        } else {
            if self.fallback.is_none() && !self.open {
                self.fire_carried(m, vel.at(t0), y);
            }
            if self.fallback.is_none() {
                let mut sys = Driven {
                    m,
                    vel,
                    tau_scale,
                    track: self.track.as_mut(),
                };
                let opts = Options { h0: h, ..*opts };
                let mut result = Ok(());
                if !self.open {
                    y[0] = t0;
                    self.y0.copy_from_slice(y);
                    result = self.rodas.begin(&mut sys, t0, y, t1, &opts);
                    self.open = result.is_ok();
                }
                if self.open {
                    let before = self.rodas.stats().steps;
                    let r = self.rodas.resume(&mut sys, y, &opts, *steps_left);
                    *steps_left = steps_left.saturating_sub(self.rodas.stats().steps - before);
                    match r {
                        Ok(false) => return false,
                        Ok(true) => {}
                        Err(e) => result = Err(e),
                    }
                    self.open = false;
                }
                // An event located within round-off of the interval's end (a reversal exactly
                // at a sample, where all GMS elements re-stick) leaves a remainder too short to
                // step: the state is already the state at t1.
                let finished = match result {
                    Ok(()) => true,
                    Err(SolveError::StepTooSmall { t }) => t1 - t <= 1e-9 * h,
                    Err(_) => false,
                };
                self.steps += self.rodas.stats().steps;
                if finished && y.iter().all(|a| a.is_finite()) {
                    self.sides.clear();
                    self.sides.extend_from_slice(self.rodas.event_sides());
                    y[0] = t1;
                    return true;
                }
                self.sides.clear();
                y.copy_from_slice(&self.y0);
                self.fallback = Some(0);
            }
            // the fallback's sub-steps are cut at the cap too: each may slide thousands of
            // steps before implicit Euler takes it (Liang at 10 kHz: 10 ms per interval)
            let dt = h / SUBSTEPS as f64;
            while let Some(j) = self.fallback.filter(|&j| j < SUBSTEPS) {
                if !self.sub_open {
                    let v = vel.sub(t0, j as f64 + 0.5, dt);
                    self.sub_open = !self.stepper.advance_begin(m, v, 0.0, &mut y[1..], dt);
                }
                if self.sub_open {
                    if !self.stepper.advance_resume(m, &mut y[1..], steps_left) {
                        return false;
                    }
                    self.sub_open = false;
                }
                self.fallback = Some(j + 1);
            }
            self.fallback = None;
            self.fallbacks += 1;
        }
        y[0] = t1;
        true
    }
}
