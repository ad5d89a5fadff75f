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
//!
//! A record may also give the normal load at each sample ([`Loaded`]): the model is then
//! rebuilt through its registry entry wherever the load changes, so the load enters each model
//! exactly as its own formulas take it (LuGre scales only its Stribeck levels, FrBD its whole
//! force). Over an interval the load is held at the mean of its two samples: a model's
//! parameters are constant while it is stepped (a load linear in time would mean a rebuilt
//! model at every stage of the solver, inside a loop that does not allocate); the interval's
//! mean is the midpoint rule of the linear interpolant, second order for states that relax
//! slower than a sample interval, while a state that relaxes faster (LuGre's bristles while
//! sliding) follows the mean, half an interval behind: an error of at most half the load's
//! relative change per interval (`tests/it/sampled_load.rs`). The force at a sample is that of
//! the sample's own load. The state
//! carries over a change of load; a switch that the change of load crosses (a GMS element
//! whose spring force now exceeds its lower breakaway level) fires at the sample.

mod load;
mod spline;
#[cfg(test)]
mod tests;

pub use load::Loaded;
pub use spline::Spline;

use super::driven::{IntervalStepper, Velocity};
use crate::integrate::rodas::Options;
use crate::model::FrictionModel;
use crate::params::ParamError;
use load::{Fixed, Models, Rebuilt};

/// Solver tolerances per interval: tighter than the prescribed-motion views' because a fit
/// differentiates the output with respect to the parameters by finite differences, and the
/// adaptive step choice adds noise of about `rtol` to it.
pub const OPTIONS: Options = Options {
    rtol: 1e-10,
    atol: 1e-12,
    h0: 0.0,
    hmax: f64::INFINITY,
    max_steps: 20_000,
    predictive: false,
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
    g_new: Vec<f64>,
    branches: Vec<u64>,
    opts: Options,
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
            g_new: Vec::new(),
            branches: Vec::new(),
            opts: OPTIONS,
        }
    }

    /// Sets the solver tolerances of the runs that follow ([`OPTIONS`] until then).
    pub fn set_options(&mut self, opts: Options) {
        self.opts = opts;
    }

    /// The solver tolerances the runs use.
    pub fn options(&self) -> Options {
        self.opts
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
        // one model throughout: nothing to build, so no error
        self.run(&mut Fixed(m), &t[..n], v, &mut f[..n], |k, t0, h| {
            linear(v, k, t0, h)
        })
        .unwrap_or_default()
    }

    /// As [`Driver::forces`], with the model's normal load following `load.normal` (see the
    /// module documentation); the model's message when it rejects a load.
    pub fn forces_loaded(
        &mut self,
        load: &Loaded<'_>,
        t: &[f64],
        v: &[f64],
        f: &mut [f64],
    ) -> Result<RunStats, ParamError> {
        let n = t.len().min(v.len()).min(f.len()).min(load.normal.len());
        let mut models = Rebuilt::new(*load)?;
        self.run(&mut models, &t[..n], v, &mut f[..n], |k, t0, h| {
            linear(v, k, t0, h)
        })
    }

    /// As [`Driver::forces_from_x`], with the model's normal load following `load.normal`.
    pub fn forces_from_x_loaded(
        &mut self,
        load: &Loaded<'_>,
        t: &[f64],
        x: &[f64],
        f: &mut [f64],
    ) -> Result<RunStats, ParamError> {
        let n = t.len().min(x.len()).min(f.len()).min(load.normal.len());
        let s = Spline::new(&t[..n], &x[..n]);
        let v = s.velocities();
        let mut models = Rebuilt::new(*load)?;
        self.run(&mut models, &t[..n], &v, &mut f[..n], |k, t0, _| {
            s.velocity(k, t0)
        })
    }

    /// Writes into `f` the force \[N\] of `m` at the sample times `t` \[s\] (increasing) when the
    /// displacement `x` \[m\] is given at those times instead of the velocity: x is interpolated
    /// by a natural cubic spline ([`Spline`]) and the model is driven by its derivative, which
    /// varies continuously inside each interval (no velocity differenced per sample and held
    /// or ramped). `t`, `x` and `f` have the same length.
    pub fn forces_from_x(
        &mut self,
        m: &dyn FrictionModel,
        t: &[f64],
        x: &[f64],
        f: &mut [f64],
    ) -> RunStats {
        let n = t.len().min(x.len()).min(f.len());
        let s = Spline::new(&t[..n], &x[..n]);
        let v = s.velocities();
        self.run(&mut Fixed(m), &t[..n], &v, &mut f[..n], |k, t0, _| {
            s.velocity(k, t0)
        })
        .unwrap_or_default()
    }

    /// Fires the switches that a change of load between two intervals crossed at sample
    /// velocity `v`: those whose function has another sign under the new model than under the
    /// old, for the same state (what the solver's event location does for a crossing in time).
    fn fire_load_switches(&mut self, models: &dyn Models, v: f64) {
        let (old, new) = (models.previous(), models.interval());
        let ne = new.n_switches();
        if ne == 0 {
            return;
        }
        self.g.resize(ne, 0.0);
        self.g_new.resize(ne, 0.0);
        old.switches(v, 0.0, &self.y[1..], &mut self.g);
        new.switches(v, 0.0, &self.y[1..], &mut self.g_new);
        for j in 0..ne {
            let (a, b) = (self.g[j], self.g_new[j]);
            if a != 0.0 && (b == 0.0 || (a < 0.0) != (b < 0.0)) {
                new.on_switch(j, a < 0.0, v, 0.0, &mut self.y[1..]);
            }
        }
    }

    /// The run behind every drive: `v[k]` is the velocity at sample k (for the force there),
    /// `vel(k, t_k, h)` the velocity over interval k.
    fn run(
        &mut self,
        models: &mut dyn Models,
        t: &[f64],
        v: &[f64],
        f: &mut [f64],
        vel: impl Fn(usize, f64, f64) -> Velocity,
    ) -> Result<RunStats, ParamError> {
        let n = t.len();
        let stats = RunStats::default();
        self.branches.clear();
        self.branches.resize(n, 0);
        if n == 0 {
            return Ok(stats);
        }
        let ns = models.interval().n_states();
        if ns == 0 {
            for k in 0..n {
                models.to_sample(k)?;
                f[k] = models.sample().force(v[k], 0.0, &[]);
            }
            return Ok(stats);
        }
        self.y.clear();
        self.y.resize(1 + ns, 0.0);
        models.interval().initial_state(&mut self.y[1..]);
        // the solver's scratch is kept from run to run (a fit makes hundreds)
        let mut st = match self.st.take() {
            Some(mut st) => {
                st.prepare(models.interval());
                st
            }
            None => IntervalStepper::new(models.interval()),
        };
        models.to_sample(0)?;
        f[0] = models.sample().force(v[0], 0.0, &self.y[1..]);
        self.mark(models.sample(), 0, v[0]);
        for k in 0..n - 1 {
            let (t0, t1) = (t[k], t[k + 1]);
            let h = t1 - t0;
            if models.to_interval(k)? {
                self.fire_load_switches(&*models, v[k]);
            }
            models.to_sample(k + 1)?;
            // NaN takes this branch too
            if h.is_nan() || h <= 0.0 {
                f[k + 1] = models.sample().force(v[k + 1], 0.0, &self.y[1..]);
                self.mark(models.sample(), k + 1, v[k + 1]);
                continue;
            }
            st.step(
                models.interval(),
                vel(k, t0, h),
                h,
                &mut self.y,
                (t0, t1, h),
                &self.opts,
            );
            f[k + 1] = models.sample().force(v[k + 1], 0.0, &self.y[1..]);
            self.mark(models.sample(), k + 1, v[k + 1]);
        }
        let stats = RunStats {
            steps: st.steps,
            fallbacks: st.fallbacks,
        };
        self.st = Some(st);
        Ok(stats)
    }
}

/// The velocity over interval k of samples `v` interpolated linearly.
fn linear(v: &[f64], k: usize, t0: f64, h: f64) -> Velocity {
    Velocity::Poly {
        t0,
        v0: v[k],
        a1: (v[k + 1] - v[k]) / h,
        a2: 0.0,
    }
}
