//! Any registry model driven by a sampled velocity: the force at each sample time of a measured
//! (or generated) record v(t_k), with v interpolated linearly between the samples.
//!
//! Why here: fitting a model to measured data (the `friction-fit` crate) needs the model's
//! output under the measured motion, and the core already steps every model under a prescribed
//! velocity: the intervals are stepped by [`IntervalStepper`] ([`super::driven`]), the stepping
//! of the prescribed-motion views with a piecewise-linear v(t) instead of a cosine, so the two
//! agree in how each kind of model is integrated (static laws are evaluated at the samples).
//!
//! Every run starts from the virgin state (`initial_state`) at the first sample, F_e = 0.

use super::driven::{IntervalStepper, Velocity};
use crate::integrate::rodas::Options;
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
    st: Option<IntervalStepper>,
    y: Vec<f64>,
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
            st: None,
            y: Vec::new(),
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
        let stats = RunStats::default();
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
        // the solver's scratch is kept from run to run (a fit makes hundreds)
        let mut st = match self.st.take() {
            Some(mut st) => {
                st.prepare(m);
                st
            }
            None => IntervalStepper::new(m),
        };
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
            let vel = Velocity::Poly {
                t0,
                v0: v[k],
                a1: (v[k + 1] - v[k]) / h,
                a2: 0.0,
            };
            st.step(m, vel, h, &mut self.y, (t0, t1, h), &OPTIONS);
            f[k + 1] = m.force(v[k + 1], 0.0, &self.y[1..]);
            self.mark(m, k + 1, v[k + 1]);
        }
        let stats = RunStats {
            steps: st.steps,
            fallbacks: st.fallbacks,
        };
        self.st = Some(st);
        stats
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
