//! Fig. 3 of the letter: frictional-lag hysteresis under an oscillating sliding velocity.
//!
//! Each loop is the periodic orbit of the discretised model: one cycle from the virgin state
//! (its F is the virgin curve) with `dim` side trajectories that give the affine cycle map,
//! then the cycle from the map's fixed point. Repeating cycles until they stop changing took 7
//! to 20 cycles for Fig. 3 and did not finish within 400 where a Maxwell time is long.
//!
//! Why this file is long (over 600 lines): the loops, their shooting fixed point and the loop
//! integrals are one resumable job.

use crate::params::ParamSpec;

/// Unit of the excitation frequencies (the letter writes "ω = 25 Hz", which is ambiguous).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum FreqUnit {
    /// f in Hz: v = v_mean + v_amp·cos(2πf·t).
    #[default]
    Hz,
    /// ω in rad/s: v = v_mean + v_amp·cos(ω·t).
    Rad,
}

impl FreqUnit {
    /// Query-string value.
    pub fn as_str(self) -> &'static str {
        match self {
            FreqUnit::Hz => "hz",
            FreqUnit::Rad => "rad",
        }
    }
    /// Parses a query-string value.
    pub fn parse(s: &str) -> Option<FreqUnit> {
        match s {
            "hz" => Some(FreqUnit::Hz),
            "rad" => Some(FreqUnit::Rad),
            _ => None,
        }
    }
    /// Angular frequency \[rad/s\] of a frequency given in this unit.
    pub fn omega(self, f: f64) -> f64 {
        match self {
            FreqUnit::Hz => 2.0 * std::f64::consts::PI * f,
            FreqUnit::Rad => f,
        }
    }
    /// Short unit label for legends.
    pub fn label(self) -> &'static str {
        match self {
            FreqUnit::Hz => "Hz",
            FreqUnit::Rad => "rad/s",
        }
    }
}

/// Mean sliding velocity v_mean (assumed 1.5·v_S: our copy of the letter gives no value).
pub const VMEAN: ParamSpec = ParamSpec {
    key: "vmean",
    name: "Mean velocity",
    symbol: "v_mean",
    unit: "m/s",
    default: 0.015,
    min: -10.0,
    max: 10.0,
    log: false,
};
/// Velocity amplitude v_amp (assumed v_S: our copy of the letter gives no value).
pub const VAMP: ParamSpec = ParamSpec {
    key: "vamp",
    name: "Velocity amplitude",
    symbol: "v_amp",
    unit: "m/s",
    default: 0.01,
    min: 0.0,
    max: 10.0,
    log: false,
};
/// One excitation frequency in Hz (up to 1 kHz).
pub const FREQ_HZ: ParamSpec = ParamSpec {
    key: "freqs",
    name: "Frequencies",
    symbol: "f",
    unit: "Hz",
    default: 25.0,
    min: 0.1,
    max: 1000.0,
    log: true,
};
/// One excitation frequency in rad/s (up to 2π·1 kHz).
pub const FREQ_RAD: ParamSpec = ParamSpec {
    key: "freqs",
    name: "Frequencies",
    symbol: "ω",
    unit: "rad/s",
    default: 25.0,
    min: 0.1,
    max: 2000.0 * std::f64::consts::PI,
    log: true,
};
/// Default frequency list of Fig. 3.
pub const DEFAULT_FREQS: [f64; 3] = [25.0, 50.0, 100.0];
/// At most this many loops are overlaid (one palette colour each).
pub const MAX_FREQS: usize = 7;

use crate::frbd::{Frbd, Passive};
use crate::integrate::linalg::{lu_factor, lu_solve};
use crate::integrate::linear::{LinearModel, Sdirk2, GAMMA};

/// Fewest samples (= steps) per cycle: the CLI prints every sample, at least 400 per loop.
pub const MIN_STEPS_PER_CYCLE: usize = 400;
/// Most steps per cycle the automatic choice takes (beyond it, L-stability keeps very stiff
/// parameter sets bounded but not 1e-4 accurate).
pub const MAX_STEPS_PER_CYCLE: usize = 20_000;

/// What to run: one model, the velocity v(t) = v_mean + v_amp·cos(ω t), and the frequencies.
#[derive(Debug, Clone, PartialEq)]
pub struct HysteresisConfig {
    /// The friction model.
    pub model: Frbd,
    /// Mean velocity \[m/s\].
    pub v_mean: f64,
    /// Velocity amplitude \[m/s\].
    pub v_amp: f64,
    /// Frequencies, in `unit`.
    pub freqs: Vec<f64>,
    /// Unit of `freqs`.
    pub unit: FreqUnit,
    /// Steps per cycle; 0 chooses them from the model's stiffness (see [`steps_per_cycle`]).
    pub steps_per_cycle: usize,
    /// Periodicity tolerance: the loop is done when the largest change of F the next cycle
    /// would make is below `tol`·max|F|. The computed periodic state meets it to round-off;
    /// where it cannot be computed, cycles are repeated until they do.
    pub tol: f64,
    /// Give up (and flag the loop as not converged) after this many cycles.
    pub max_cycles: usize,
}

impl HysteresisConfig {
    /// Fig. 3 defaults around a model: v = 0.015 + 0.01·cos(2πf t), f = 25, 50, 100 Hz.
    pub fn new(model: Frbd) -> HysteresisConfig {
        HysteresisConfig {
            model,
            v_mean: VMEAN.default,
            v_amp: VAMP.default,
            freqs: DEFAULT_FREQS.to_vec(),
            unit: FreqUnit::Hz,
            steps_per_cycle: 0,
            tol: TOL,
            max_cycles: MAX_CYCLES,
        }
    }
}

/// Metrics of one steady loop.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LoopMetrics {
    /// Largest F over the cycle \[N\] (refined between samples by a parabola).
    pub fmax: f64,
    /// Smallest F over the cycle \[N\].
    pub fmin: f64,
    /// Loop area ∮F dv \[N·m/s\].
    pub area: f64,
    /// Energy dissipated per cycle ∮F·v dt \[J\] (the storage returns to its value).
    pub energy: f64,
    /// ∫F·v dt − ΔV summed over the run's trajectories \[J\]: the first cycle from rest, then
    /// the cycles from the periodic state; ≥ 0 by passivity, each term on its own.
    pub passivity_residual: f64,
    /// Cycles integrated.
    pub cycles: usize,
    /// Steps taken, the first cycle's side trajectories included.
    pub steps: usize,
    /// Largest change of F the next cycle would make \[N\] (infinite after one cycle): for a
    /// loop from the computed periodic state a bound from the cycle map, otherwise the change
    /// between the last two cycles. A drift that adds up to about `delta`·v_amp of spurious
    /// loop area.
    pub delta: f64,
}

/// One loop: the last integrated cycle at one frequency.
#[derive(Debug, Clone, PartialEq)]
pub struct Loop {
    /// Frequency in the configured unit.
    pub freq: f64,
    /// Angular frequency \[rad/s\].
    pub omega: f64,
    /// Time within the cycle \[s\], from 0 to one period inclusive.
    pub t: Vec<f64>,
    /// Velocity v(t) \[m/s\].
    pub v: Vec<f64>,
    /// Friction force F(t) \[N\].
    pub f: Vec<f64>,
    /// The model's states at the same samples, one vector per state (`states[i][k]`).
    pub states: Vec<Vec<f64>>,
    /// F at the same sample times of the first cycle, from the virgin (zero) state: its first
    /// quarter is the virgin curve of a displacement excitation.
    pub first: Vec<f64>,
    /// Metrics of this cycle.
    pub metrics: LoopMetrics,
    /// Whether the loop is periodic to the tolerance (`metrics.delta`).
    pub converged: bool,
}

/// Default periodicity tolerance ([`HysteresisConfig::tol`]).
pub const TOL: f64 = 1e-6;
/// Default cycle limit ([`HysteresisConfig::max_cycles`]).
pub const MAX_CYCLES: usize = 400;

/// Steps per cycle for a model and excitation: enough that h·|λ|max ≤ 0.25 along the cycle
/// (h·|λ| is what limits the accuracy of the stiff components), at least
/// [`MIN_STEPS_PER_CYCLE`], at most [`MAX_STEPS_PER_CYCLE`], rounded up to a multiple of 8.
pub fn steps_per_cycle(model: &Frbd, v_mean: f64, v_amp: f64, omega: f64) -> usize {
    let rate = (0..=16)
        .map(|i| {
            let v = v_mean + v_amp * (std::f64::consts::PI * i as f64 / 16.0).cos();
            model.rate_bound(v)
        })
        .fold(0.0_f64, f64::max);
    let period = 2.0 * std::f64::consts::PI / omega;
    let n = (rate * period / STIFF_HL).ceil();
    let n = if n.is_finite() && n < MAX_STEPS_PER_CYCLE as f64 {
        n as usize
    } else {
        MAX_STEPS_PER_CYCLE
    };
    n.clamp(MIN_STEPS_PER_CYCLE, MAX_STEPS_PER_CYCLE)
        .div_ceil(8)
        * 8
}

const STIFF_HL: f64 = 0.25;

/// The integration state of the loop being refined.
#[derive(Debug, Clone)]
struct Current {
    freq: f64,
    omega: f64,
    h: f64,
    x: Vec<f64>,
    stepper: Sdirk2,
    /// v at the stage times (k + γ)h and (k + 1)h of one cycle: the same for every cycle.
    v1: Vec<f64>,
    v2: Vec<f64>,
    /// [`Sdirk2::needs_monotone`] for each step of the cycle, decided once.
    monotone: Vec<bool>,
    f_cur: Vec<f64>,
    f_prev: Vec<f64>,
    /// States at the samples of the cycle being integrated and of the last complete one,
    /// sample-major (`dim` values per sample).
    s_cur: Vec<f64>,
    s_prev: Vec<f64>,
    /// F of the first cycle (filled when it completes).
    first: Vec<f64>,
    /// Step index within the cycle.
    k: usize,
    /// The states of the `dim` trajectories started at x0 + e_i (x0: the first cycle's start)
    /// that run beside the first cycle (row i): they give the cycle map's matrix. Emptied when
    /// the first cycle ends.
    basis: Vec<f64>,
    /// max over the cycle's samples of |F(x0 + e_i) − F(x0)|: how much a change of the cycle's
    /// start in direction i can move F at any sample \[N per unit of state\].
    gain: Vec<f64>,
    /// Whether the cycle being integrated started from the computed periodic state.
    shot: bool,
    cycles: usize,
    steps: usize,
    work: f64,
    last_delta: f64,
}

/// A resumable hysteresis run: spend a step budget per call (e.g. per animation frame).
#[derive(Debug, Clone)]
pub struct HysteresisRun {
    cfg: HysteresisConfig,
    next: usize,
    cur: Option<Current>,
    done: Vec<Loop>,
}

impl HysteresisRun {
    /// Prepares the run; nothing is integrated yet.
    pub fn new(cfg: &HysteresisConfig) -> HysteresisRun {
        HysteresisRun {
            cfg: cfg.clone(),
            next: 0,
            cur: None,
            done: Vec::new(),
        }
    }

    /// Integrates at most `max_steps` steps; returns `true` when every loop is finished.
    pub fn advance(&mut self, max_steps: usize) -> bool {
        let mut budget = max_steps;
        loop {
            let Some(c) = self.cur.as_mut() else {
                if self.next >= self.cfg.freqs.len() {
                    return true;
                }
                self.cur = Some(self.start(self.cfg.freqs[self.next]));
                self.next += 1;
                continue;
            };
            if budget == 0 {
                return false;
            }
            // a step of the first cycle may overshoot the budget by its side trajectories
            budget = budget.saturating_sub(run_steps(&self.cfg.model, c, budget));
            if c.k == 0 && c.cycles > 0 {
                let converged = c.cycles >= 2 && c.last_delta <= self.cfg.tol * scale(&c.f_prev);
                if converged || c.cycles >= self.cfg.max_cycles {
                    if let Some(c) = self.cur.take() {
                        let l = self.make_loop(&c, converged);
                        self.done.push(l);
                    }
                }
            }
        }
    }

    fn start(&self, freq: f64) -> Current {
        let m = &self.cfg.model;
        let omega = self.cfg.unit.omega(freq);
        let n = if self.cfg.steps_per_cycle > 0 {
            self.cfg.steps_per_cycle
        } else {
            steps_per_cycle(m, self.cfg.v_mean, self.cfg.v_amp, omega)
        };
        let h = 2.0 * std::f64::consts::PI / omega / n as f64;
        let vel = |t: f64| self.cfg.v_mean + self.cfg.v_amp * (omega * t).cos();
        let v1: Vec<f64> = (0..n).map(|k| vel((k as f64 + GAMMA) * h)).collect();
        let v2 = (0..n).map(|k| vel((k + 1) as f64 * h)).collect();
        let monotone = v1
            .iter()
            .map(|&v| Sdirk2::needs_monotone(m, h, v))
            .collect();
        let mut x = vec![0.0; m.dim()];
        crate::model::FrictionModel::initial_state(m, &mut x);
        let mut f_cur = vec![0.0; n + 1];
        f_cur[0] = m.output(vel(0.0), &x);
        let dim = m.dim();
        let mut s_cur = vec![0.0; (n + 1) * dim];
        s_cur[..dim].copy_from_slice(&x);
        let mut basis = Vec::with_capacity(dim * dim);
        let mut gain = vec![0.0; dim];
        let mut e = x.clone();
        for (i, g) in gain.iter_mut().enumerate() {
            e[i] += 1.0;
            *g = (m.output(vel(0.0), &e) - f_cur[0]).abs();
            basis.extend_from_slice(&e);
            e[i] = x[i];
        }
        Current {
            freq,
            omega,
            h,
            x,
            stepper: Sdirk2::new(m.dim()),
            v1,
            v2,
            monotone,
            f_cur,
            f_prev: vec![0.0; n + 1],
            s_cur,
            s_prev: vec![0.0; (n + 1) * dim],
            first: vec![0.0; n + 1],
            k: 0,
            basis,
            gain,
            shot: false,
            cycles: 0,
            steps: 0,
            work: 0.0,
            last_delta: f64::INFINITY,
        }
    }

    /// Loops finished so far, in frequency order.
    pub fn loops(&self) -> &[Loop] {
        &self.done
    }

    /// The loop being refined, as of its last complete cycle (not yet periodic).
    pub fn current(&self) -> Option<Loop> {
        let c = self.cur.as_ref()?;
        (c.cycles > 0).then(|| self.make_loop(c, false))
    }

    /// (loops finished, loops in total).
    pub fn progress(&self) -> (usize, usize) {
        (self.done.len(), self.cfg.freqs.len())
    }

    /// The configuration.
    pub fn config(&self) -> &HysteresisConfig {
        &self.cfg
    }

    fn make_loop(&self, c: &Current, converged: bool) -> Loop {
        let m = &self.cfg.model;
        let n = c.v1.len();
        let (vm, va, w, h) = (self.cfg.v_mean, self.cfg.v_amp, c.omega, c.h);
        let t: Vec<f64> = (0..=n).map(|k| k as f64 * h).collect();
        let v: Vec<f64> = t.iter().map(|&t| vm + va * (w * t).cos()).collect();
        // the last completed cycle (run_steps swaps it into f_prev)
        let f = c.f_prev.clone();
        let (area, energy) = loop_integrals(&t[..n], &v[..n], &f[..n], h, w, va);
        let (fmax, fmin) = extrema(&f[..n]);
        let dim = m.dim();
        let states = (0..dim)
            .map(|i| c.s_prev.iter().skip(i).step_by(dim).copied().collect())
            .collect();
        Loop {
            freq: c.freq,
            omega: c.omega,
            t,
            v,
            f,
            states,
            first: c.first.clone(),
            metrics: LoopMetrics {
                fmax,
                fmin,
                area,
                energy,
                passivity_residual: c.work - m.storage(&c.x),
                cycles: c.cycles,
                steps: c.steps,
                delta: c.last_delta,
            },
            converged,
        }
    }
}

/// Runs every loop to completion.
pub fn run(cfg: &HysteresisConfig) -> Vec<Loop> {
    let mut r = HysteresisRun::new(cfg);
    while !r.advance(usize::MAX) {}
    r.done
}

/// Steady-state reference F = p·sgn_ε(v)·μ(v) over \[v_lo, v_hi\] (`points` ≥ 2 samples).
pub fn steady_curve(model: &Frbd, v_lo: f64, v_hi: f64, points: usize) -> Vec<(f64, f64)> {
    let n = points.max(2);
    let c = model.contact();
    (0..n)
        .map(|i| {
            let v = v_lo + (v_hi - v_lo) * i as f64 / (n - 1) as f64;
            (v, c.steady_force(v))
        })
        .collect()
}

/// Steps within the current cycle; returns steps used (a step of the first cycle counts once
/// per trajectory). Stops at the end of a cycle so that the caller can test periodicity. No
/// allocation.
fn run_steps(m: &Frbd, c: &mut Current, budget: usize) -> usize {
    let n = c.v1.len();
    let dim = c.x.len();
    let per_step = 1 + c.basis.len() / dim.max(1);
    let mut used = 0;
    while used < budget {
        let k = c.k;
        let (h, v1, v2, monotone) = (c.h, c.v1[k], c.v2[k], c.monotone[k]);
        let sw = c.stepper.step_with(m, h, v1, v2, &mut c.x, monotone);
        for (e, g) in c.basis.chunks_exact_mut(dim).zip(c.gain.iter_mut()) {
            let f = c.stepper.step_with(m, h, v1, v2, e, monotone).force;
            *g = g.max((f - sw.force).abs());
        }
        c.work += sw.work;
        c.f_cur[k + 1] = sw.force;
        c.s_cur[(k + 1) * dim..(k + 2) * dim].copy_from_slice(&c.x);
        c.k += 1;
        c.steps += per_step;
        used += per_step;
        if c.k == n {
            c.cycles += 1;
            c.k = 0;
            if c.shot {
                // the cycle map is affine, so the next cycle would move F at sample k by
                // G_k·(x(T) − x*), with |G_k,i| ≤ gain_i: a bound, without integrating it
                c.last_delta =
                    c.x.iter()
                        .zip(&c.s_cur[..dim])
                        .zip(&c.gain)
                        .map(|((a, b), g)| g * (a - b).abs())
                        .sum();
                c.shot = false;
            } else if c.cycles > 1 {
                c.last_delta = c
                    .f_cur
                    .iter()
                    .zip(&c.f_prev)
                    .fold(0.0_f64, |d, (a, b)| d.max((a - b).abs()));
            }
            std::mem::swap(&mut c.f_cur, &mut c.f_prev);
            c.f_cur[0] = c.f_prev[n];
            std::mem::swap(&mut c.s_cur, &mut c.s_prev);
            c.s_cur[..dim].copy_from_slice(&c.s_prev[n * dim..]);
            if c.cycles == 1 {
                c.first.copy_from_slice(&c.f_prev);
                shoot(m, c);
            }
            return used;
        }
    }
    used
}

/// Ends the first cycle by jumping to the periodic state of the discrete cycle map.
///
/// At a prescribed velocity the model is affine in its state and so is every SDIRK2 step (its
/// method choice depends on v only), so one cycle is x ↦ Φ(x) = Φ(x0) + M·(x − x0), with
/// M·e_i = Φ(x0 + e_i) − Φ(x0) from the trajectories that ran beside the first. The periodic
/// state solves (I − M)·(x* − x0) = Φ(x0) − x0: the loop the cycle-by-cycle iteration converges
/// to, without the tens of cycles a slowly decaying mode takes (7 to 20 for the letter's Fig. 3,
/// up to the cycle limit for long Maxwell times). Where I − M is singular (a mode that does
/// not decay, e.g. v ≡ 0), the loop is left to the cycle-by-cycle iteration.
fn shoot(m: &Frbd, c: &mut Current) {
    let dim = c.x.len();
    let basis = std::mem::take(&mut c.basis);
    if basis.len() != dim * dim {
        return;
    }
    let mut a = vec![0.0; dim * dim];
    for (i, e) in basis.chunks_exact(dim).enumerate() {
        for r in 0..dim {
            a[r * dim + i] = f64::from(u8::from(r == i)) - (e[r] - c.x[r]);
        }
    }
    // the cycle just ended, with its start x0, is in the `prev` buffers now
    let x0 = &c.s_prev[..dim];
    let mut d: Vec<f64> = c.x.iter().zip(x0).map(|(x, x0)| x - x0).collect();
    let mut piv = vec![0; dim];
    if !lu_factor(&mut a, &mut piv, dim) {
        return;
    }
    lu_solve(&a, &piv, dim, &mut d);
    let xs: Vec<f64> = x0.iter().zip(&d).map(|(x0, d)| x0 + d).collect();
    if !xs.iter().all(|x| x.is_finite()) {
        return;
    }
    // the passivity residual adds up each trajectory's own balance ∫F·v dt − ΔV
    c.work += m.storage(&xs) - m.storage(&c.x);
    let n = c.v2.len();
    c.f_cur[0] = m.output(c.v2[n - 1], &xs);
    c.s_cur[..dim].copy_from_slice(&xs);
    c.x = xs;
    c.shot = true;
}

fn scale(f: &[f64]) -> f64 {
    f.iter().fold(0.0_f64, |m, x| m.max(x.abs())).max(1e-300)
}

/// The loop area ∮F dv \[N·m/s\] and the energy per cycle ∮F v dt \[J\] of one periodic sampled
/// cycle of v = v_mean + `va` cos(`w` t) (`t`, `v`, `f` its n samples, `h` apart, without the
/// closing one), by the periodic trapezoid rule: spectrally accurate for smooth periodic
/// integrands. Shared with the prescribed-motion loops (`super::prescribed`).
pub(super) fn loop_integrals(
    t: &[f64],
    v: &[f64],
    f: &[f64],
    h: f64,
    w: f64,
    va: f64,
) -> (f64, f64) {
    let mut area = 0.0;
    let mut energy = 0.0;
    for k in 0..f.len() {
        area += f[k] * (-va * w * (w * t[k]).sin()) * h;
        energy += f[k] * v[k] * h;
    }
    (area, energy)
}

/// Max and min of periodic samples, refined by a parabola through the extreme sample and its
/// neighbours (third-order accurate in the sample spacing).
fn extrema(f: &[f64]) -> (f64, f64) {
    let n = f.len();
    if n < 3 {
        let mx = f.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let mn = f.iter().copied().fold(f64::INFINITY, f64::min);
        return (mx, mn);
    }
    let refine = |i: usize, sign: f64| {
        let (a, b, c) = (
            sign * f[(i + n - 1) % n],
            sign * f[i],
            sign * f[(i + 1) % n],
        );
        let den = a - 2.0 * b + c;
        let peak = if den < 0.0 {
            b - (c - a) * (c - a) / (8.0 * den)
        } else {
            b
        };
        sign * peak
    };
    let (mut imax, mut imin) = (0, 0);
    for i in 0..n {
        if f[i] > f[imax] {
            imax = i;
        }
        if f[i] < f[imin] {
            imin = i;
        }
    }
    (refine(imax, 1.0), refine(imin, -1.0))
}
