//! Any registry model driven by a sampled velocity: the force at each sample time of a measured
//! (or generated) record v(t_k), with v interpolated linearly between the samples.
//!
//! Why here: fitting a model to measured data (the `friction-fit` crate) needs the model's
//! output under the measured motion, and the core already steps every model under a prescribed
//! velocity ([`super::prescribed`]); this is the same stepping with a piecewise-linear v(t)
//! instead of a cosine, so the two agree in how each kind of model is integrated:
//! * static laws are evaluated at the samples;
//! * hybrid static-stiction laws (a discrete stick/slip mode) keep the implicit-Euler stepper
//!   whose mode updates they were validated with (four sub-steps per interval);
//! * every other model with state, FrBD included, goes through the event-locating Rosenbrock
//!   solver ([`Rodas`]) interval by interval, with the time as an extra state so that v(t)
//!   varies continuously inside a step and switches are located exactly; where it gives up,
//!   implicit Euler takes the interval ([`StateStepper::advance`]) and it is counted.
//!
//! Every run starts from the virgin state (`initial_state`) at the first sample, F_e = 0.

use crate::integrate::implicit_euler::{hybrid, StateStepper};
use crate::integrate::rodas::{EventAction, Options, Rodas, SolveError, System};
use crate::model::FrictionModel;

/// Solver tolerances per interval: tighter than the prescribed-motion views' because a fit
/// differentiates the output with respect to the parameters by finite differences, and the
/// adaptive step choice adds noise of about `rtol` to it.
pub const OPTIONS: Options = Options {
    rtol: 1e-10,
    atol: 1e-12,
    h0: 0.0,
    hmax: f64::INFINITY,
    max_steps: 20_000,
};

/// Sub-steps per interval of the implicit-Euler stepper (hybrid laws, fallbacks).
const SUBSTEPS: usize = 4;

/// Work done by one run.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct RunStats {
    /// Accepted solver steps.
    pub steps: usize,
    /// Intervals the event-locating solver gave up on (implicit Euler took them).
    pub fallbacks: usize,
}

/// Reusable solver scratch for driving models by sampled velocities.
pub struct Driver {
    rodas: Rodas,
    y: Vec<f64>,
    y0: Vec<f64>,
    g: Vec<f64>,
    branches: Vec<u64>,
}

impl Default for Driver {
    fn default() -> Self {
        Driver::new()
    }
}

impl Driver {
    /// Empty scratch; it is sized on first use.
    pub fn new() -> Driver {
        Driver {
            rodas: Rodas::new(),
            y: Vec::new(),
            y0: Vec::new(),
            g: Vec::new(),
            branches: Vec::new(),
        }
    }

    /// The branch of the model at each sample of the last [`Driver::forces`] run: a hash of
    /// its discrete states (GMS element modes, bond counters) and of the signs of its switching
    /// functions there; 0 throughout for models without either.
    ///
    /// Why: a model's output can jump where it switches (a GMS element that starts to slip
    /// drops its damping force σ_i·v), so the force at a sample is a discontinuous function of
    /// the parameters wherever a switch moves across that sample. A difference quotient is a
    /// derivative only between two runs on the same branch at that sample; this is how a
    /// caller tells.
    pub fn branches(&self) -> &[u64] {
        &self.branches
    }

    fn mark(&mut self, m: &dyn FrictionModel, k: usize, v: f64) {
        let nd = m.n_discrete();
        let ne = m.n_switches();
        if nd == 0 && ne == 0 {
            return;
        }
        let x = &self.y[1..];
        // FNV-1a over the discrete states' bits and the switching functions' signs
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        let mut eat = |b: u64| {
            h ^= b;
            h = h.wrapping_mul(0x0100_0000_01b3);
        };
        for a in &x[x.len() - nd..] {
            eat(a.to_bits());
        }
        self.g.resize(ne, 0.0);
        m.switches(v, 0.0, x, &mut self.g);
        for a in &self.g {
            eat(u64::from(a.is_sign_negative()) + 2 * u64::from(*a == 0.0));
        }
        self.branches[k] = h;
    }

    /// Writes into `f` the force \[N\] of `m` at the sample times `t` \[s\] (increasing) under the
    /// velocity `v` \[m/s\] given at those times. `t`, `v` and `f` have the same length.
    pub fn forces(
        &mut self,
        m: &dyn FrictionModel,
        t: &[f64],
        v: &[f64],
        f: &mut [f64],
    ) -> RunStats {
        let n = t.len().min(v.len()).min(f.len());
        let mut stats = RunStats::default();
        self.branches.clear();
        self.branches.resize(n, 0);
        if n == 0 {
            return stats;
        }
        let ns = m.n_states();
        if ns == 0 {
            for k in 0..n {
                f[k] = m.force(v[k], 0.0, &[]);
            }
            return stats;
        }
        self.y.clear();
        self.y.resize(1 + ns, 0.0);
        m.initial_state(&mut self.y[1..]);
        self.y0.clone_from(&self.y);
        let mut stepper = StateStepper::new(ns);
        let is_hybrid = hybrid(m) > 0;
        f[0] = m.force(v[0], 0.0, &self.y[1..]);
        self.mark(m, 0, v[0]);
        for k in 0..n - 1 {
            let (t0, t1) = (t[k], t[k + 1]);
            let h = t1 - t0;
            // NaN takes this branch too
            if h.is_nan() || h <= 0.0 {
                f[k + 1] = m.force(v[k + 1], 0.0, &self.y[1..]);
                self.mark(m, k + 1, v[k + 1]);
                continue;
            }
            let slope = (v[k + 1] - v[k]) / h;
            if is_hybrid {
                let dt = h / SUBSTEPS as f64;
                for j in 1..=SUBSTEPS {
                    let vj = v[k] + slope * j as f64 * dt;
                    stepper.step(m, vj, 0.0, &mut self.y[1..], dt);
                }
            } else {
                self.y[0] = t0;
                self.y0.copy_from_slice(&self.y);
                let mut sys = Linear {
                    m,
                    t0,
                    v0: v[k],
                    slope,
                    h,
                };
                let opts = Options { h0: h, ..OPTIONS };
                let result = self.rodas.integrate(&mut sys, t0, &mut self.y, t1, &opts);
                // an event within round-off of the interval's end leaves nothing to step
                let finished = match result {
                    Ok(_) => true,
                    Err(SolveError::StepTooSmall { t }) => t1 - t <= 1e-9 * h,
                    Err(_) => false,
                };
                stats.steps += self.rodas.stats().steps;
                if !finished || !self.y.iter().all(|a| a.is_finite()) {
                    self.y.copy_from_slice(&self.y0);
                    let dt = h / SUBSTEPS as f64;
                    for j in 0..SUBSTEPS {
                        let vj = v[k] + slope * (j as f64 + 0.5) * dt;
                        stepper.advance(m, vj, 0.0, &mut self.y[1..], dt);
                    }
                    stats.fallbacks += 1;
                }
            }
            self.y[0] = t1;
            f[k + 1] = m.force(v[k + 1], 0.0, &self.y[1..]);
            self.mark(m, k + 1, v[k + 1]);
        }
        stats
    }
}

/// A model under v(τ) = v0 + slope·(τ − t0) on one interval, with τ as the leading state.
struct Linear<'a> {
    m: &'a dyn FrictionModel,
    t0: f64,
    v0: f64,
    slope: f64,
    h: f64,
}

impl Linear<'_> {
    #[inline]
    fn v(&self, tau: f64) -> f64 {
        self.v0 + self.slope * (tau - self.t0)
    }
}

impl System for Linear<'_> {
    fn dim(&self) -> usize {
        1 + self.m.n_states()
    }
    fn rhs(&self, y: &[f64], dy: &mut [f64]) {
        dy[0] = 1.0;
        self.m.derivative(self.v(y[0]), 0.0, &y[1..], &mut dy[1..]);
    }
    fn scale(&self, i: usize) -> f64 {
        if i == 0 {
            self.h
        } else {
            self.m.state_scale(i - 1)
        }
    }
    fn n_frozen(&self) -> usize {
        self.m.n_discrete()
    }
    fn dense_head(&self) -> Option<usize> {
        self.m.separable().then_some(1)
    }
    fn n_events(&self) -> usize {
        self.m.n_switches()
    }
    fn events(&self, y: &[f64], g: &mut [f64]) {
        self.m.switches(self.v(y[0]), 0.0, &y[1..], g);
    }
    fn on_event(&mut self, _t: f64, index: usize, rising: bool, y: &mut [f64]) -> EventAction {
        let v = self.v(y[0]);
        if self.m.on_switch(index, rising, v, 0.0, &mut y[1..]) {
            EventAction::Reset
        } else {
            EventAction::Continue
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::experiments::hysteresis::FreqUnit;
    use crate::experiments::prescribed::{self, Drive, Excitation};

    /// The same cosine velocity, sampled finely, gives the prescribed-motion view's first cycle
    /// (an independent path: the view integrates the exact cosine).
    #[test]
    fn sampled_cosine_matches_the_prescribed_view() {
        let e = crate::registry::find("lugre").expect("lugre");
        let m = e.build_default().expect("builds");
        let drive = Drive::new(
            Excitation::Velocity {
                v_mean: 0.0,
                v_amp: 0.01,
            },
            FreqUnit::Hz,
        );
        let c = prescribed::run(m.as_ref(), None, &drive, 1.0).expect("cycle");
        // 4000 samples per cycle: linear interpolation of the cosine is then within 3e-7 m/s
        let n = 4000;
        let t: Vec<f64> = (0..=n).map(|k| k as f64 / n as f64).collect();
        let v: Vec<f64> = t
            .iter()
            .map(|&t| 0.01 * (2.0 * std::f64::consts::PI * t).cos())
            .collect();
        let mut f = vec![0.0; t.len()];
        Driver::new().forces(m.as_ref(), &t, &v, &mut f);
        let scale = c.first.iter().fold(0.0_f64, |a, b| a.max(b.abs()));
        for (i, &tc) in c.t.iter().enumerate() {
            let k = (tc * n as f64).round() as usize;
            assert!(
                (f[k] - c.first[i]).abs() <= 1e-3 * scale,
                "t = {tc}: {} vs {}",
                f[k],
                c.first[i]
            );
        }
    }

    /// A static law is its formula at the samples.
    #[test]
    fn static_law_is_evaluated_at_the_samples() {
        let m = crate::registry::find("stribeck")
            .expect("stribeck")
            .build_default()
            .expect("builds");
        let t = [0.0, 1.0, 2.0];
        let v = [-0.1, 0.05, 0.3];
        let mut f = [0.0; 3];
        Driver::new().forces(m.as_ref(), &t, &v, &mut f);
        for k in 0..3 {
            assert_eq!(f[k], m.force(v[k], 0.0, &[]));
        }
    }
}
