//! Prescribed motion: the steady cycle of any registry model under a sinusoidal velocity
//! v(t) = v_mean + v_amp·cos(ωt) or displacement x(t) = x_amp·sin(ωt), with the loop metrics of
//! the FrBD letter's Fig. 3 (`super::hysteresis`).
//!
//! How each model is stepped:
//! * FrBD models go through [`HysteresisRun`], the hysteresis view's own run (L-stable SDIRK2 on
//!   their linear structure), so their loops equal that view's to the last bit.
//! * Other models with state are stepped from sample to sample by [`IntervalStepper`] under
//!   the analytic cosine ([`super::driven`]: the event-locating Rosenbrock solver with the time
//!   as an extra state, so switches that fire when v passes through zero are located exactly;
//!   implicit Euler for hybrid static-stiction laws and where the solver gives up, counted as
//!   fallbacks). The fit's model runs ([`super::sampled`]) step the same way under sampled
//!   velocities.
//! * Static laws are evaluated at the samples: their loop is the law itself, the loop-free
//!   reference.
//!
//! Every run starts from the virgin state (`initial_state`) at t = 0. FrBD models then jump to
//! the periodic state of their (affine) cycle map ([`HysteresisRun`]); the others repeat cycles
//! until the largest change of F between two consecutive cycles is below `tol`·max|F|, or give
//! up after `max_cycles` and flag the cycle as not periodic
//! (models whose force depends on the travelled distance, as the composite laws' Dahl term in
//! X does under a velocity with a mean, never repeat).
//!
//! F_e = 0 throughout, as in the other prescribed-motion experiments: stick branches of laws
//! that depend on an external force do not act.
//!
//! Why this file is long (over 600 lines): the velocity and displacement drives, the cycle's fixed
//! point and the loop metrics share one resumable stepper and its state.

use super::driven::{unit_steps_of, IntervalStepper, Velocity, UNIT_WORK};
use super::hysteresis::{
    loop_integrals, FreqUnit, HysteresisConfig, HysteresisRun, Loop, MAX_CYCLES, TOL,
};
use crate::frbd::Frbd;
use crate::integrate::rodas::Options;
use crate::model::FrictionModel;
use crate::params::ParamSpec;

use std::f64::consts::PI;

/// Samples per cycle of the models stepped here (the FrBD models take the hysteresis view's
/// choice, at least as many).
pub const SAMPLES: usize = 400;

/// Most continuous states of one model drawn and printed (GMS may have 1000 elements).
pub const MAX_STATES: usize = 12;

/// `excite`: which quantity is prescribed (0/1 switch, `params::SWITCHES`).
pub const EXCITE: ParamSpec = ParamSpec {
    key: "excite",
    name: "Excitation",
    symbol: "excite",
    unit: "",
    default: 0.0,
    min: 0.0,
    max: 1.0,
    log: false,
};
/// `vmean` of the prescribed-motion views: the hysteresis view's key and range, but 0 by
/// default. A reversing velocity shows every model's loop whatever its Stribeck velocity: the
/// dynamic models' defaults (v_S = 1 mm/s) sit at their Coulomb level all along Fig. 3's
/// 0.015 ± 0.01 m/s, which suits the FrBD models (v_S = 10 mm/s).
pub const VMEAN: ParamSpec = ParamSpec {
    default: 0.0,
    ..super::hysteresis::VMEAN
};
/// `xamp`: displacement amplitude of the displacement excitation.
pub const XAMP: ParamSpec = ParamSpec {
    key: "xamp",
    name: "Displacement amplitude",
    symbol: "x_amp",
    unit: "m",
    default: 2e-5,
    min: 1e-9,
    max: 1.0,
    log: true,
};
/// `rad`: whether the frequencies are angular (0/1 switch, `params::SWITCHES`).
pub const RAD: ParamSpec = ParamSpec {
    key: "rad",
    name: "Frequency unit",
    symbol: "rad",
    unit: "",
    default: 0.0,
    min: 0.0,
    max: 1.0,
    log: false,
};

/// What is prescribed.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Excitation {
    /// v(t) = v_mean + v_amp·cos(ωt) \[m/s\] (the hysteresis view's input).
    Velocity {
        /// Mean velocity \[m/s\].
        v_mean: f64,
        /// Velocity amplitude \[m/s\].
        v_amp: f64,
    },
    /// x(t) = x_amp·sin(ωt) \[m\], i.e. v(t) = x_amp·ω·cos(ωt): pre-sliding loops.
    Displacement {
        /// Displacement amplitude \[m\].
        x_amp: f64,
    },
}

impl Excitation {
    /// (v_mean, v_amp) of v(t) = v_mean + v_amp·cos(ωt) at angular frequency `omega`.
    pub fn velocity_terms(&self, omega: f64) -> (f64, f64) {
        match *self {
            Excitation::Velocity { v_mean, v_amp } => (v_mean, v_amp),
            Excitation::Displacement { x_amp } => (0.0, x_amp * omega),
        }
    }

    /// Whether the displacement is prescribed.
    pub fn is_displacement(&self) -> bool {
        matches!(self, Excitation::Displacement { .. })
    }
}

/// The excitation and how cycles are resolved and judged steady.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Drive {
    /// What is prescribed.
    pub excitation: Excitation,
    /// Unit of the frequencies.
    pub unit: FreqUnit,
    /// Samples per cycle (models stepped here; FrBD models choose theirs, see [`SAMPLES`]).
    pub samples: usize,
    /// Periodicity tolerance (relative to max|F|), as [`HysteresisConfig::tol`].
    pub tol: f64,
    /// Cycles after which a run stops and its cycle is flagged as not periodic.
    pub max_cycles: usize,
}

impl Drive {
    /// A drive with the hysteresis view's tolerance and cycle limit.
    pub fn new(excitation: Excitation, unit: FreqUnit) -> Drive {
        Drive {
            excitation,
            unit,
            samples: SAMPLES,
            tol: TOL,
            max_cycles: MAX_CYCLES,
        }
    }
}

/// How the peak and trough forces of a cycle are found ([`CycleMetrics::fmax`]), as the readouts
/// state it.
pub const PEAK_METHOD: &str = "Peak F and min F: the extremes of F over the continuous steady \
    cycle, not over the output samples (a stiff model's peak falls between them: the largest \
    sample can lie percents below it). Models with state: along the solver's dense output (the \
    cubic Hermite interpolant of every accepted step, sampled and refined by golden-section \
    search; a step across a switch the solver did not stop at counts with its ends only); \
    static laws: F(v(t)) refined between samples by golden-section search; FrBD models: the \
    parabola through the extreme step of the hysteresis integrator (≥ 400 steps a cycle) and \
    its neighbours.";

/// Metrics of one steady cycle (as [`super::hysteresis::LoopMetrics`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CycleMetrics {
    /// Largest F over the cycle \[N\], on the continuous solution ([`PEAK_METHOD`]).
    pub fmax: f64,
    /// Smallest F over the cycle \[N\], likewise.
    pub fmin: f64,
    /// Loop area ∮F dv \[N·m/s\]: positive when F is higher while v increases.
    pub area: f64,
    /// Energy per cycle ∮F·v dt = ∮F dx \[J\].
    pub energy: f64,
    /// Cycles integrated.
    pub cycles: usize,
    /// Solver steps taken.
    pub steps: usize,
    /// Sample intervals the event-locating solver gave up on (implicit Euler took them).
    pub fallbacks: usize,
    /// Largest change of F between the last two cycles \[N\] (infinite after one cycle of a
    /// model with state, 0 for a static law): a drift that adds up to about `delta`·v_amp of
    /// spurious loop area, so a loop thinner than that has no reliable orientation.
    pub delta: f64,
}

impl CycleMetrics {
    /// Loop area beyond which its sign is not an artefact of the remaining drift (twice the
    /// drift's contribution for the velocity amplitude `v_amp`) or of round-off (1e-9 of the
    /// loop's bounding box).
    pub fn area_resolution(&self, v_amp: f64) -> f64 {
        let va = v_amp.abs();
        2.0 * self.delta * va + 1e-9 * (self.fmax - self.fmin).abs() * 2.0 * va
    }
}

/// One model's last cycle at one frequency, sampled at `samples + 1` equally spaced times.
#[derive(Debug, Clone, PartialEq)]
pub struct Cycle {
    /// Frequency in the drive's unit.
    pub freq: f64,
    /// Angular frequency \[rad/s\].
    pub omega: f64,
    /// Time within the cycle \[s\], 0 to one period inclusive.
    pub t: Vec<f64>,
    /// Displacement since the start of the cycle \[m\] (x_amp·sin(ωt) for a displacement
    /// excitation, v_mean·t + v_amp·sin(ωt)/ω for a velocity excitation).
    pub x: Vec<f64>,
    /// Velocity \[m/s\].
    pub v: Vec<f64>,
    /// Friction force F \[N\].
    pub f: Vec<f64>,
    /// The model's continuous states at the samples (at most [`MAX_STATES`]), `states[i][k]`.
    pub states: Vec<Vec<f64>>,
    /// F of the first cycle from the virgin state, at the same times (its first quarter is the
    /// virgin curve of a displacement excitation).
    pub first: Vec<f64>,
    /// Metrics.
    pub metrics: CycleMetrics,
    /// Whether the cycle repeated to the tolerance.
    pub converged: bool,
}

/// A resumable run of one model at one frequency.
pub struct CycleRun {
    freq: f64,
    omega: f64,
    vm: f64,
    va: f64,
    inner: Inner,
}

enum Inner {
    Frbd(Box<HysteresisRun>),
    Stepped(Box<Stepped>),
    Static(Box<Cycle>),
}

impl CycleRun {
    /// Prepares the run of `m` at `freq` (in the drive's unit); `frbd` is the same model as the
    /// FrBD enum when it is one (its loop then comes from [`HysteresisRun`]).
    pub fn new(m: &dyn FrictionModel, frbd: Option<&Frbd>, drive: &Drive, freq: f64) -> CycleRun {
        let omega = drive.unit.omega(freq);
        let (vm, va) = drive.excitation.velocity_terms(omega);
        let inner = if let Some(model) = frbd {
            let mut cfg = HysteresisConfig::new(model.clone());
            cfg.v_mean = vm;
            cfg.v_amp = va;
            cfg.freqs = vec![freq];
            cfg.unit = drive.unit;
            cfg.tol = drive.tol;
            cfg.max_cycles = drive.max_cycles;
            Inner::Frbd(Box::new(HysteresisRun::new(&cfg)))
        } else if m.n_states() == 0 {
            Inner::Static(Box::new(static_cycle(
                m,
                drive.samples,
                freq,
                omega,
                vm,
                va,
            )))
        } else {
            Inner::Stepped(Box::new(Stepped::new(m, drive, omega, vm, va)))
        };
        CycleRun {
            freq,
            omega,
            vm,
            va,
            inner,
        }
    }

    /// Advances by at most `budget` units (solver steps of an FrBD model, sample intervals of
    /// the others); true when the steady cycle is found (or the run gave up).
    pub fn advance(&mut self, m: &dyn FrictionModel, budget: usize) -> bool {
        self.advance_capped(m, budget, unit_steps_of(m, 1))
    }

    /// [`CycleRun::advance`] with its own cap on solver steps per call (a sample interval that
    /// needs more is continued by the next call, with the same steps as an uncut one).
    pub fn advance_capped(&mut self, m: &dyn FrictionModel, budget: usize, steps: usize) -> bool {
        match &mut self.inner {
            Inner::Frbd(r) => r.advance(budget),
            Inner::Stepped(s) => s.advance(m, budget, steps.max(1)),
            Inner::Static(_) => true,
        }
    }

    /// The finished cycle (once [`CycleRun::advance`] returned true), else the last complete
    /// cycle so far (not yet periodic), if any.
    pub fn cycle(&self) -> Option<Cycle> {
        match &self.inner {
            Inner::Frbd(r) => {
                let l = r.loops().first().cloned().or_else(|| r.current())?;
                Some(self.cycle_of(l))
            }
            Inner::Stepped(s) => s.cycle(self.freq, self.omega),
            Inner::Static(c) => Some((**c).clone()),
        }
    }

    fn cycle_of(&self, l: Loop) -> Cycle {
        let x =
            l.t.iter()
                .map(|&t| displacement(t, self.omega, self.vm, self.va))
                .collect();
        let m = l.metrics;
        Cycle {
            freq: self.freq,
            omega: self.omega,
            x,
            t: l.t,
            v: l.v,
            f: l.f,
            states: l.states.into_iter().take(MAX_STATES).collect(),
            first: l.first,
            metrics: CycleMetrics {
                fmax: m.fmax,
                fmin: m.fmin,
                area: m.area,
                energy: m.energy,
                cycles: m.cycles,
                steps: m.steps,
                fallbacks: 0,
                delta: m.delta,
            },
            converged: l.converged,
        }
    }
}

/// Runs `m` at `freq` to its steady cycle (`None` only if not even one cycle was integrated).
pub fn run(m: &dyn FrictionModel, frbd: Option<&Frbd>, drive: &Drive, freq: f64) -> Option<Cycle> {
    let mut r = CycleRun::new(m, frbd, drive, freq);
    while !r.advance(m, usize::MAX) {}
    r.cycle()
}

/// x(t) − x(0) of v = vm + va·cos(ωt).
fn displacement(t: f64, w: f64, vm: f64, va: f64) -> f64 {
    vm * t + va * (w * t).sin() / w
}

/// The sample times of one cycle and the velocity there.
///
/// Where a sample falls on a quarter turn the cosine is exactly 0, not the ±1e-17 that
/// cos(ωt) rounds to: a law that jumps at v = 0 (Coulomb's sgn v) then takes its middle value
/// there, which is what the periodic rectangle rule of [`metrics`] needs at a jump. With the
/// rounded cosine the jump sample took either side's value depending on the frequency, and
/// Coulomb's loop area (zero) came out as 0 or ±3.1e-4 N·m/s from one frequency to the next.
fn samples(n: usize, w: f64, vm: f64, va: f64) -> (Vec<f64>, Vec<f64>) {
    let h = 2.0 * PI / w / n as f64;
    let t: Vec<f64> = (0..=n).map(|k| k as f64 * h).collect();
    let quarter = |k: usize| n > 0 && (4 * k) % n == 0 && ((4 * k) / n) % 2 == 1;
    let v = t
        .iter()
        .enumerate()
        .map(|(k, &t)| vm + va * if quarter(k) { 0.0 } else { (w * t).cos() })
        .collect();
    (t, v)
}

/// The metrics of a periodic sampled cycle (`f` has n + 1 samples, the last = the first of the
/// next cycle): the periodic trapezoid rule, as [`HysteresisRun`] computes them. The extremes
/// here are the extreme samples, which the callers refine on the continuous solution (the
/// parabola through three samples that refines the FrBD models' smooth peaks overshoots where
/// a switch makes F jump: Liang's F_C → F_s by half a newton).
fn metrics(t: &[f64], v: &[f64], f: &[f64], w: f64, va: f64) -> (f64, f64, f64, f64) {
    let n = f.len() - 1;
    let (area, energy) = loop_integrals(&t[..n], &v[..n], &f[..n], t[1] - t[0], w, va);
    let fmax = f[..n].iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let fmin = f[..n].iter().copied().fold(f64::INFINITY, f64::min);
    (fmax, fmin, area, energy)
}

/// Golden-section steps refining a static law's extreme between two samples: 0.618⁶⁰ ≈ 3e-13
/// of their spacing.
const STATIC_GOLDEN_STEPS: usize = 60;

/// The largest (`sign` = 1) or smallest (−1) F of a static law over the continuous cycle:
/// F(v(t)) searched by golden sections between the neighbours of the extreme sample `k` (a
/// jump of the law, as Coulomb's at v = 0, is approached from its higher side).
fn static_extreme(
    m: &dyn FrictionModel,
    t: &[f64],
    f: &[f64],
    w: f64,
    vm: f64,
    va: f64,
    sign: f64,
) -> f64 {
    let n = f.len() - 1;
    let k = (0..n).fold(0, |b, i| if sign * f[i] > sign * f[b] { i } else { b });
    let h = t[1] - t[0];
    let g = |tau: f64| sign * m.force(vm + va * (w * tau).cos(), 0.0, &[]);
    let (mut a, mut b) = (t[k] - h, t[k] + h);
    let r = 0.5 * (5f64.sqrt() - 1.0);
    let mut c = b - r * (b - a);
    let mut d = a + r * (b - a);
    let (mut fc, mut fd) = (g(c), g(d));
    for _ in 0..STATIC_GOLDEN_STEPS {
        if fc >= fd {
            b = d;
            d = c;
            fd = fc;
            c = b - r * (b - a);
            fc = g(c);
        } else {
            a = c;
            c = d;
            fc = fd;
            d = a + r * (b - a);
            fd = g(d);
        }
    }
    let best = [sign * f[k], fc, fd]
        .into_iter()
        .filter(|x| x.is_finite())
        .fold(f64::NEG_INFINITY, f64::max);
    sign * best
}

/// The larger of a sampled extreme and one found on the continuous solution (NaN: none).
fn outer(sampled: f64, dense: f64, sign: f64) -> f64 {
    if dense.is_finite() && sign * dense > sign * sampled {
        dense
    } else {
        sampled
    }
}

fn static_cycle(m: &dyn FrictionModel, n: usize, freq: f64, w: f64, vm: f64, va: f64) -> Cycle {
    let (t, v) = samples(n, w, vm, va);
    let f: Vec<f64> = v.iter().map(|&v| m.force(v, 0.0, &[])).collect();
    let (fmax, fmin, area, energy) = metrics(&t, &v, &f, w, va);
    let fmax = outer(fmax, static_extreme(m, &t, &f, w, vm, va, 1.0), 1.0);
    let fmin = outer(fmin, static_extreme(m, &t, &f, w, vm, va, -1.0), -1.0);
    Cycle {
        freq,
        omega: w,
        x: t.iter().map(|&t| displacement(t, w, vm, va)).collect(),
        first: f.clone(),
        t,
        v,
        f,
        states: Vec::new(),
        metrics: CycleMetrics {
            fmax,
            fmin,
            area,
            energy,
            cycles: 1,
            steps: 0,
            fallbacks: 0,
            delta: 0.0,
        },
        converged: true,
    }
}

/// Solver tolerances per sample interval: tight enough that a steady cycle repeats to well
/// below the periodicity tolerance.
const OPTIONS: Options = Options {
    rtol: 1e-8,
    atol: 1e-9,
    h0: 0.0,
    hmax: f64::INFINITY,
    max_steps: 20_000,
    predictive: false,
};

/// The integration of a model with state, a sample interval at a time.
struct Stepped {
    w: f64,
    vm: f64,
    va: f64,
    /// Sample spacing \[s\].
    h: f64,
    n: usize,
    /// [τ, model states].
    y: Vec<f64>,
    /// Continuous states kept per sample.
    keep: usize,
    st: IntervalStepper,
    tol: f64,
    max_cycles: usize,
    k: usize,
    cycles: usize,
    f_cur: Vec<f64>,
    f_prev: Vec<f64>,
    s_cur: Vec<f64>,
    s_prev: Vec<f64>,
    first: Vec<f64>,
    /// (F_max, F_min) of the last complete cycle along the solver's dense output (NaN where
    /// implicit Euler took it all).
    dense_prev: (f64, f64),
    last_delta: f64,
    done: bool,
    converged: bool,
}

impl Stepped {
    fn new(m: &dyn FrictionModel, drive: &Drive, w: f64, vm: f64, va: f64) -> Stepped {
        let n = drive.samples.max(8);
        let ns = m.n_states();
        let keep = (ns - m.n_discrete()).min(MAX_STATES);
        let mut y = vec![0.0; 1 + ns];
        m.initial_state(&mut y[1..]);
        let mut f_cur = vec![0.0; n + 1];
        f_cur[0] = m.force(vm + va, 0.0, &y[1..]);
        let mut s_cur = vec![0.0; (n + 1) * keep];
        s_cur[..keep].copy_from_slice(&y[1..1 + keep]);
        let mut st = IntervalStepper::new(m);
        st.track_extremes();
        Stepped {
            w,
            vm,
            va,
            h: 2.0 * PI / w / n as f64,
            n,
            y,
            keep,
            st,
            tol: drive.tol,
            max_cycles: drive.max_cycles,
            k: 0,
            cycles: 0,
            f_cur,
            f_prev: vec![0.0; n + 1],
            s_cur,
            s_prev: vec![0.0; (n + 1) * keep],
            first: vec![0.0; n + 1],
            dense_prev: (f64::NAN, f64::NAN),
            last_delta: f64::INFINITY,
            done: false,
            converged: false,
        }
    }

    #[inline]
    fn v(&self, t: f64) -> f64 {
        self.vm + self.va * (self.w * t).cos()
    }

    /// Integrates over at most `budget` sample intervals and `steps` solver steps; true when
    /// done. The step cap bounds a unit of work
    /// where one stiff interval takes thousands of steps (a 1.2 s unit in the fuzz); an interval
    /// cut by it resumes where it stopped, with the same steps as an uncut one.
    fn advance(&mut self, m: &dyn FrictionModel, budget: usize, steps: usize) -> bool {
        let mut used = 0;
        let mut steps_left = steps;
        // implicit Euler (hybrid laws, fallbacks) counts no solver step, and a step of many
        // rejections or event landings counts one: the meter bounds those, checked after each
        // interval or slice of an eighth of the steps
        let w0 = crate::integrate::meter::work();
        let slice = steps.div_ceil(8).max(1);
        while !self.done
            && used < budget
            && steps_left > 0
            && crate::integrate::meter::work() - w0 < UNIT_WORK as u64
        {
            let mut piece = slice.min(steps_left);
            let before = piece;
            let finished = self.interval(m, &mut piece);
            steps_left -= before - piece;
            if !finished {
                continue;
            }
            used += 1;
            if self.k == self.n {
                self.dense_prev = self.st.take_extremes(m);
                self.end_cycle();
            }
        }
        self.done
    }

    /// One sample interval [k h, (k + 1) h] of the cycle, or as much of it as `steps_left`
    /// solver steps allow (then false, and the next call continues it).
    fn interval(&mut self, m: &dyn FrictionModel, steps_left: &mut usize) -> bool {
        let (t0, t1) = (self.k as f64 * self.h, (self.k + 1) as f64 * self.h);
        let vel = Velocity::Cosine {
            mean: self.vm,
            amp: self.va,
            omega: self.w,
        };
        let period = 2.0 * PI / self.w;
        if !self.st.step_capped(
            m,
            vel,
            period,
            &mut self.y,
            (t0, t1, self.h),
            &OPTIONS,
            steps_left,
        ) {
            return false;
        }
        self.k += 1;
        let k = self.k;
        self.f_cur[k] = m.force(self.v(t1), 0.0, &self.y[1..]);
        let keep = self.keep;
        self.s_cur[k * keep..(k + 1) * keep].copy_from_slice(&self.y[1..1 + keep]);
        true
    }

    fn end_cycle(&mut self) {
        let n = self.n;
        self.cycles += 1;
        self.k = 0;
        if self.cycles > 1 {
            self.last_delta = self
                .f_cur
                .iter()
                .zip(&self.f_prev)
                .fold(0.0_f64, |d, (a, b)| d.max((a - b).abs()));
        }
        std::mem::swap(&mut self.f_cur, &mut self.f_prev);
        std::mem::swap(&mut self.s_cur, &mut self.s_prev);
        self.f_cur[0] = self.f_prev[n];
        let keep = self.keep;
        self.s_cur[..keep].copy_from_slice(&self.s_prev[n * keep..]);
        if self.cycles == 1 {
            self.first.copy_from_slice(&self.f_prev);
        }
        let scale = self
            .f_prev
            .iter()
            .fold(0.0_f64, |m, x| m.max(x.abs()))
            .max(1e-300);
        self.converged = self.cycles >= 2 && self.last_delta <= self.tol * scale;
        self.done = self.converged || self.cycles >= self.max_cycles;
    }

    fn cycle(&self, freq: f64, w: f64) -> Option<Cycle> {
        if self.cycles == 0 {
            return None;
        }
        let (t, v) = samples(self.n, w, self.vm, self.va);
        let f = self.f_prev.clone();
        let (fmax, fmin, area, energy) = metrics(&t, &v, &f, w, self.va);
        let fmax = outer(fmax, self.dense_prev.0, 1.0);
        let fmin = outer(fmin, self.dense_prev.1, -1.0);
        let keep = self.keep;
        let states = (0..keep)
            .map(|i| self.s_prev.iter().skip(i).step_by(keep).copied().collect())
            .collect();
        Some(Cycle {
            freq,
            omega: w,
            x: t.iter()
                .map(|&t| displacement(t, w, self.vm, self.va))
                .collect(),
            t,
            v,
            f,
            states,
            first: self.first.clone(),
            metrics: CycleMetrics {
                fmax,
                fmin,
                area,
                energy,
                cycles: self.cycles,
                steps: self.st.steps,
                fallbacks: self.st.fallbacks,
                delta: self.last_delta,
            },
            converged: self.converged,
        })
    }
}

/// `n` frequencies spaced evenly on a log scale from `fmin` to `fmax` (both included), each
/// rounded to six significant digits so that round values (25, 50, 100) come out exact.
pub fn log_grid(fmin: f64, fmax: f64, n: usize) -> Vec<f64> {
    let n = n.max(2);
    let (a, b) = (fmin.ln(), fmax.ln());
    (0..n)
        .map(|k| round6((a + (b - a) * k as f64 / (n - 1) as f64).exp()))
        .collect()
}

/// `x` rounded to six significant digits.
fn round6(x: f64) -> f64 {
    crate::params::parse_f64(&format!("{x:.5e}")).unwrap_or(x)
}

/// One frequency of a sweep: the metrics of its steady cycle.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SweepPoint {
    /// Frequency in the drive's unit.
    pub freq: f64,
    /// Velocity amplitude at this frequency \[m/s\].
    pub v_amp: f64,
    /// Metrics of the steady cycle.
    pub metrics: CycleMetrics,
    /// Whether the cycle repeated to the tolerance.
    pub converged: bool,
}
