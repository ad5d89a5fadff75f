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
//! relative change per interval (`tests/sampled_load.rs`). The force at a sample is that of
//! the sample's own load. The state
//! carries over a change of load; a switch that the change of load crosses (a GMS element
//! whose spring force now exceeds its lower breakaway level) fires at the sample.

use super::driven::{IntervalStepper, Velocity};
use crate::integrate::rodas::Options;
use crate::model::{FrictionModel, ModelEntry};
use crate::params::ParamError;

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

/// A model whose normal load follows the record: its registry entry, its other values and the
/// load at each sample.
#[derive(Clone, Copy)]
pub struct Loaded<'a> {
    /// The model's registry entry (rebuilt through its `build` where the load changes).
    pub entry: &'a ModelEntry,
    /// Every parameter's value in `info.params` order; the load's own value is replaced.
    pub values: &'a [f64],
    /// Index of the normal-load parameter (F_N, `fn`, or FrBD's `p`) in `values`.
    pub index: usize,
    /// Normal load at each sample \[N\].
    pub normal: &'a [f64],
}

/// The models a run uses: for each interval the one it is stepped with, for each sample the
/// one whose force is reported there.
trait Models {
    /// Makes interval k's model current; true when it differs from interval k − 1's.
    fn to_interval(&mut self, k: usize) -> Result<bool, ParamError>;
    /// Makes sample k's model current.
    fn to_sample(&mut self, k: usize) -> Result<(), ParamError>;
    /// The current interval's model.
    fn interval(&self) -> &dyn FrictionModel;
    /// The model of the interval before the current one (the current one at the start).
    fn previous(&self) -> &dyn FrictionModel;
    /// The current sample's model.
    fn sample(&self) -> &dyn FrictionModel;
}

/// One model throughout.
struct Fixed<'m>(&'m dyn FrictionModel);

impl Models for Fixed<'_> {
    fn to_interval(&mut self, _k: usize) -> Result<bool, ParamError> {
        Ok(false)
    }
    fn to_sample(&mut self, _k: usize) -> Result<(), ParamError> {
        Ok(())
    }
    fn interval(&self) -> &dyn FrictionModel {
        self.0
    }
    fn previous(&self) -> &dyn FrictionModel {
        self.0
    }
    fn sample(&self) -> &dyn FrictionModel {
        self.0
    }
}

/// A model built at the load it was built for \[N\].
type AtLoad = (f64, Box<dyn FrictionModel>);

/// Models rebuilt where the load changes (a constant load builds each role once per run).
struct Rebuilt<'a> {
    load: Loaded<'a>,
    values: Vec<f64>,
    over: AtLoad,
    prev: Option<AtLoad>,
    at: AtLoad,
}

impl<'a> Rebuilt<'a> {
    fn new(load: Loaded<'a>) -> Result<Rebuilt<'a>, ParamError> {
        let mut values = load.values.to_vec();
        let n0 = load
            .normal
            .first()
            .copied()
            .unwrap_or(load.values[load.index]);
        let n1 = load.normal.get(1).copied().unwrap_or(n0);
        let mut build = |fnv: f64| -> Result<AtLoad, ParamError> {
            values[load.index] = fnv;
            Ok((fnv, (load.entry.build)(&values)?))
        };
        let over = build(0.5 * (n0 + n1))?;
        let at = build(n0)?;
        Ok(Rebuilt {
            load,
            values,
            over,
            prev: None,
            at,
        })
    }

    fn build(&mut self, fnv: f64) -> Result<AtLoad, ParamError> {
        self.values[self.load.index] = fnv;
        Ok((fnv, (self.load.entry.build)(&self.values)?))
    }
}

impl Models for Rebuilt<'_> {
    fn to_interval(&mut self, k: usize) -> Result<bool, ParamError> {
        let n = self.load.normal;
        let mean = 0.5 * (n[k] + n[k + 1]);
        if mean == self.over.0 {
            self.prev = None;
            return Ok(false);
        }
        let next = self.build(mean)?;
        self.prev = Some(std::mem::replace(&mut self.over, next));
        Ok(true)
    }
    fn to_sample(&mut self, k: usize) -> Result<(), ParamError> {
        let nk = self.load.normal[k];
        if nk != self.at.0 {
            self.at = self.build(nk)?;
        }
        Ok(())
    }
    fn interval(&self) -> &dyn FrictionModel {
        self.over.1.as_ref()
    }
    fn previous(&self) -> &dyn FrictionModel {
        self.prev
            .as_ref()
            .map_or(self.over.1.as_ref(), |p| p.1.as_ref())
    }
    fn sample(&self) -> &dyn FrictionModel {
        self.at.1.as_ref()
    }
}

/// Reusable solver scratch for driving models by sampled velocities.
pub struct Driver {
    st: Option<IntervalStepper>,
    y: Vec<f64>,
    g: Vec<f64>,
    g_new: Vec<f64>,
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
            g_new: Vec::new(),
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
                &OPTIONS,
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

/// A natural cubic spline through samples (t_k, x_k): C² between the samples, zero curvature
/// at both ends. Its derivative is the velocity of a displacement-driven run.
///
/// Why a spline and not differences: a velocity differenced from x per sample and ramped
/// between samples has corners at every sample and lags or leads by half a sample; the
/// spline's derivative is continuous and its x passes through every sample, so the model
/// travels exactly the measured displacement.
#[derive(Debug, Clone, PartialEq)]
pub struct Spline {
    t: Vec<f64>,
    x: Vec<f64>,
    /// Second derivatives at the samples \[m/s²\].
    m2: Vec<f64>,
}

impl Spline {
    /// The spline through `x` \[m\] at the increasing times `t` \[s\] (same length; fewer than
    /// three samples give the straight line or a point).
    pub fn new(t: &[f64], x: &[f64]) -> Spline {
        let n = t.len().min(x.len());
        let mut m2 = vec![0.0; n];
        if n >= 3 {
            // tridiagonal system for the inner second derivatives (Thomas algorithm)
            let mut c = vec![0.0; n];
            let mut d = vec![0.0; n];
            for k in 1..n - 1 {
                let (h0, h1) = (t[k] - t[k - 1], t[k + 1] - t[k]);
                let rhs = 6.0 * ((x[k + 1] - x[k]) / h1 - (x[k] - x[k - 1]) / h0);
                let diag = 2.0 * (h0 + h1) - h0 * c[k - 1];
                c[k] = h1 / diag;
                d[k] = (rhs - h0 * d[k - 1]) / diag;
            }
            for k in (1..n - 1).rev() {
                m2[k] = d[k] - c[k] * m2[k + 1];
            }
        }
        Spline {
            t: t[..n].to_vec(),
            x: x[..n].to_vec(),
            m2,
        }
    }

    /// The velocity \[m/s\] on interval k as a [`Velocity::Poly`] starting at `t0` = t_k.
    pub fn velocity(&self, k: usize, t0: f64) -> Velocity {
        let (t, x, m2) = (&self.t, &self.x, &self.m2);
        if k + 1 >= t.len() {
            return Velocity::Poly {
                t0,
                v0: 0.0,
                a1: 0.0,
                a2: 0.0,
            };
        }
        let h = t[k + 1] - t[k];
        Velocity::Poly {
            t0,
            v0: (x[k + 1] - x[k]) / h - h * (2.0 * m2[k] + m2[k + 1]) / 6.0,
            a1: m2[k],
            a2: (m2[k + 1] - m2[k]) / (2.0 * h),
        }
    }

    /// The velocity \[m/s\] at every sample.
    pub fn velocities(&self) -> Vec<f64> {
        let n = self.t.len();
        (0..n)
            .map(|k| {
                if n < 2 {
                    0.0
                } else if k + 1 < n {
                    self.velocity(k, self.t[k]).at(self.t[k])
                } else {
                    self.velocity(k - 1, self.t[k - 1]).at(self.t[k])
                }
            })
            .collect()
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

    /// The spline's velocity integrates to the measured displacement over every interval (it
    /// passes through each sample) on an uneven grid, and is close to the exact derivative of
    /// a smooth motion.
    #[test]
    fn spline_velocity_travels_the_measured_displacement() {
        let w = 2.0 * std::f64::consts::PI;
        let t: Vec<f64> = (0..300)
            .map(|k| {
                let k = k as f64;
                k / 299.0 + 0.0005 * (7.0 * k).sin()
            })
            .collect();
        let x: Vec<f64> = t.iter().map(|&t| 1e-3 * (w * t).sin()).collect();
        let s = Spline::new(&t, &x);
        for k in 0..t.len() - 1 {
            let h = t[k + 1] - t[k];
            let Velocity::Poly { v0, a1, a2, .. } = s.velocity(k, t[k]) else {
                panic!("poly")
            };
            let dx = h * (v0 + h * (a1 / 2.0 + a2 * h / 3.0));
            assert!(
                (dx - (x[k + 1] - x[k])).abs() <= 1e-12 * 1e-3,
                "interval {k}: {dx} vs {}",
                x[k + 1] - x[k]
            );
        }
        // natural ends bend the first and last few intervals; inside, O(h²)
        let v = s.velocities();
        for k in 10..t.len() - 10 {
            let exact = 1e-3 * w * (w * t[k]).cos();
            assert!((v[k] - exact).abs() <= 1e-4 * 1e-3 * w, "t = {}", t[k]);
        }
    }

    /// A displacement-driven run equals the velocity-driven run of the same motion: LuGre under
    /// x = A sin(2πt) sampled at 400 points, against the exact velocity sampled at 4000.
    #[test]
    fn displacement_drive_matches_the_velocity_drive() {
        let m = crate::registry::find("lugre")
            .expect("lugre")
            .build_default()
            .expect("builds");
        let (a, w) = (2e-3, 2.0 * std::f64::consts::PI);
        let n = 400;
        let t: Vec<f64> = (0..=n).map(|k| k as f64 / n as f64).collect();
        let x: Vec<f64> = t.iter().map(|&t| a * (w * t).sin()).collect();
        let mut fx = vec![0.0; t.len()];
        Driver::new().forces_from_x(m.as_ref(), &t, &x, &mut fx);
        let fine = 10;
        let tf: Vec<f64> = (0..=n * fine)
            .map(|k| k as f64 / (n * fine) as f64)
            .collect();
        let vf: Vec<f64> = tf.iter().map(|&t| a * w * (w * t).cos()).collect();
        let mut ff = vec![0.0; tf.len()];
        Driver::new().forces(m.as_ref(), &tf, &vf, &mut ff);
        let scale = ff.iter().fold(0.0_f64, |a, b| a.max(b.abs()));
        // the natural end condition (zero curvature) holds while the sine's is zero too
        for k in 0..=n {
            assert!(
                (fx[k] - ff[k * fine]).abs() <= 2e-3 * scale,
                "t = {}: {} vs {}",
                t[k],
                fx[k],
                ff[k * fine]
            );
        }
    }
}
