//! The model's force under the record's motion for given parameter values: the one place a fit
//! runs a model ([`Evaluator`]), the weights of the samples ([`weights`]) and the unbounded
//! variables the optimiser moves ([`Transform`]).

use friction_core::experiments::sampled::{Driver, Loaded};
use friction_core::integrate::rodas::Options;

use crate::data::Data;
use crate::spec::FitSpec;

/// The weight of each sample in the fit: the file's `w` column (1 without), 0 within `tskip` of
/// the start and in the hold-out part at the end ([`holdout_start`]).
pub fn weights(spec: &FitSpec, data: &Data) -> Vec<f64> {
    let t0 = data.t.first().copied().unwrap_or(0.0);
    let cut = holdout_start(spec, data);
    (0..data.len())
        .map(|k| {
            if data.t[k] - t0 < spec.tskip || k >= cut {
                0.0
            } else {
                data.w.as_ref().map_or(1.0, |w| w[k])
            }
        })
        .collect()
}

/// The first sample of the hold-out part: the last `holdout` fraction of the record's time span
/// (the record's length when there is none).
pub fn holdout_start(spec: &FitSpec, data: &Data) -> usize {
    let n = data.len();
    if spec.holdout <= 0.0 || n == 0 {
        return n;
    }
    let (a, b) = (data.t[0], data.t[n - 1]);
    let cut = b - spec.holdout * (b - a);
    data.t.partition_point(|&t| t < cut)
}

/// Solver tolerances of a fit's model runs: loose while the fit searches, tighter at the end.
///
/// Why not the core's default for sampled runs (rtol 1e-10): on a 40,000-sample record a run
/// there takes about 1 s, and a fit makes hundreds. The residuals a fit minimises are at the
/// level of the measurement noise (10⁻³ of the force and more); the solver's error at 1e-7 is
/// four decades below it, and the optimiser's finite differences (a step of 10⁻⁴ in θ, about
/// 10⁻⁴ of the force) stay clear of it.
pub fn options(rtol: f64) -> Options {
    Options {
        rtol,
        atol: 1e-2 * rtol,
        ..friction_core::experiments::sampled::OPTIONS
    }
}

/// Runs the model under the record's velocity for given free-parameter values.
pub struct Evaluator<'a> {
    spec: &'a FitSpec,
    data: &'a Data,
    sqrt_w: Vec<f64>,
    driver: Driver,
    values: Vec<f64>,
    /// Index of the normal-load parameter when the record's column N drives it, and the load
    /// the model runs with ([`crate::load`]).
    load: Option<(usize, Vec<f64>)>,
    /// Model runs so far.
    pub runs: usize,
}

impl<'a> Evaluator<'a> {
    /// An evaluator of `spec` on `data`, with solver tolerances `opts`.
    pub fn new(spec: &'a FitSpec, data: &'a Data) -> Evaluator<'a> {
        let sqrt_w = weights(spec, data).iter().map(|a| a.sqrt()).collect();
        // a refused plan (a free load) never gets here: the fit refuses it first
        let load = crate::load::plan(spec, data)
            .ok()
            .and_then(|l| l.index.zip(l.normal));
        Evaluator {
            spec,
            data,
            sqrt_w,
            driver: Driver::new(),
            values: spec.values.clone(),
            load,
            runs: 0,
        }
    }

    /// Sets the solver's relative tolerance of the runs that follow ([`options`]).
    pub fn set_rtol(&mut self, rtol: f64) {
        self.driver.set_options(options(rtol));
    }

    /// The solver's relative tolerance.
    pub fn rtol(&self) -> f64 {
        self.driver.options().rtol
    }

    /// The record.
    pub fn data(&self) -> &'a Data {
        self.data
    }

    /// Every parameter's value with the free ones set to `p`.
    pub fn all_values(&self, p: &[f64]) -> Vec<f64> {
        let mut v = self.spec.values.clone();
        for (&i, &x) in self.spec.free.iter().zip(p) {
            v[i] = x;
        }
        self.spec.apply_ties(&mut v);
        v
    }

    /// The model's force (plus the offset) at every sample for free values `p`, or the model's
    /// message when it rejects them (a cross-parameter rule such as μ_s ≥ μ_k).
    pub fn forces(&mut self, p: &[f64], out: &mut [f64]) -> Result<(), String> {
        for (&i, &x) in self.spec.free.iter().zip(p) {
            self.values[i] = x;
        }
        self.spec.apply_ties(&mut self.values);
        self.run_values(out)
    }

    /// The force at every sample for all parameter values `all` (`FitSpec::values` order, the
    /// offset last), whatever is free: a fit's best point so far, drawn while it runs.
    pub fn forces_of(&mut self, all: &[f64], out: &mut [f64]) -> Result<(), String> {
        self.values.copy_from_slice(all);
        self.run_values(out)
    }

    fn run_values(&mut self, out: &mut [f64]) -> Result<(), String> {
        let n = self.spec.n_model();
        let d = self.data;
        if let Some((index, normal)) = &self.load {
            let load = Loaded {
                entry: self.spec.entry,
                values: &self.values[..n],
                index: *index,
                normal,
            };
            self.runs += 1;
            if d.x_drive {
                self.driver.forces_from_x_loaded(&load, &d.t, &d.x, out)
            } else {
                self.driver.forces_loaded(&load, &d.t, &d.v, out)
            }
            .map_err(|e| e.to_string())?;
        } else {
            let m = (self.spec.entry.build)(&self.values[..n]).map_err(|e| e.to_string())?;
            self.runs += 1;
            if d.x_drive {
                self.driver.forces_from_x(m.as_ref(), &d.t, &d.x, out);
            } else {
                self.driver.forces(m.as_ref(), &d.t, &d.v, out);
            }
        }
        let offset = self.values[n];
        if offset != 0.0 {
            for f in out.iter_mut() {
                *f += offset;
            }
        }
        if out.iter().all(|a| a.is_finite()) {
            Ok(())
        } else {
            Err("the model's force is not finite for these values".into())
        }
    }

    /// The model's branch at each sample of the last run ([`Driver::branches`]).
    pub fn branches(&self) -> &[u64] {
        self.driver.branches()
    }

    /// Weighted residuals √w (F_model − F) for free values `p`.
    pub fn residuals(&mut self, p: &[f64], out: &mut [f64]) -> Result<(), String> {
        self.forces(p, out)?;
        for ((r, f), w) in out.iter_mut().zip(&self.data.f).zip(&self.sqrt_w) {
            *r = (*r - f) * w;
        }
        Ok(())
    }

    /// The weighted sum of squared residuals for free values `p` (∞ where the model rejects
    /// them); `scratch` holds the residuals afterwards.
    pub fn ssr(&mut self, p: &[f64], scratch: &mut [f64]) -> f64 {
        match self.residuals(p, scratch) {
            Ok(()) => scratch.iter().map(|a| a * a).sum(),
            Err(_) => f64::INFINITY,
        }
    }
}

/// The unbounded variable θ of one free parameter.
///
/// Three forms, chosen from the bounds and the start value p₀:
/// * `Log`: ln p in [ln lo, ln hi] through a sine (ranges that span decades, lo > 0);
/// * `Sine`: p = lo + (hi − lo)(1 + sin θ)/2 when the range is not much wider than p₀;
/// * `Lower`: p = lo + s(√(θ² + 1) − 1), s = p₀ − lo, capped at hi, for a range far wider than
///   the value (σ₁ in [0, 10⁶] at 300, σ₂ in [0, 10⁴] at 0.1), where the sine would put p₀ so
///   close to its bottom that every step overshoots.
#[derive(Debug, Clone, Copy)]
pub enum Transform {
    /// ln p through a sine.
    Log {
        /// ln lo.
        a: f64,
        /// ln hi.
        b: f64,
    },
    /// p through a sine.
    Sine {
        /// lo.
        a: f64,
        /// hi.
        b: f64,
    },
    /// p from its lower bound, linear far from it.
    Lower {
        /// lo.
        lo: f64,
        /// hi (cap).
        hi: f64,
        /// Scale s \[unit of p\].
        s: f64,
    },
}

fn sine_to(a: f64, b: f64, theta: f64) -> f64 {
    (a + (b - a) * 0.5 * (1.0 + theta.sin())).clamp(a, b)
}

fn sine_from(a: f64, b: f64, u: f64) -> f64 {
    // a hair inside: at θ = ±π/2 dp/dθ = 0 would freeze the parameter
    (2.0 * (u - a) / (b - a) - 1.0)
        .clamp(-0.999_999, 0.999_999)
        .asin()
}

impl Transform {
    /// For bounds [lo, hi], start value `p0`, and whether the model marks the range logarithmic.
    pub fn new(lo: f64, hi: f64, log: bool, p0: f64) -> Transform {
        if log && lo > 0.0 {
            Transform::Log {
                a: lo.ln(),
                b: hi.ln(),
            }
        } else if hi - lo > 1e3 * (p0 - lo).abs().max(1e-300) && p0 > lo {
            Transform::Lower { lo, hi, s: p0 - lo }
        } else {
            Transform::Sine { a: lo, b: hi }
        }
    }

    /// p(θ), always inside the bounds.
    pub fn to_p(&self, theta: f64) -> f64 {
        match *self {
            Transform::Log { a, b } => sine_to(a, b, theta).exp(),
            Transform::Sine { a, b } => sine_to(a, b, theta),
            Transform::Lower { lo, hi, s } => {
                (lo + s * ((theta * theta + 1.0).sqrt() - 1.0)).min(hi)
            }
        }
    }

    /// θ(p).
    pub fn to_theta(&self, p: f64) -> f64 {
        match *self {
            Transform::Log { a, b } => sine_from(a, b, p.ln()),
            Transform::Sine { a, b } => sine_from(a, b, p),
            Transform::Lower { lo, s, .. } => {
                let q = 1.0 + (p - lo).max(1e-6 * s) / s;
                (q * q - 1.0).sqrt()
            }
        }
    }
}
