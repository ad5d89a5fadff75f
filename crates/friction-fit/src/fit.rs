//! The fit: bounded Levenberg–Marquardt on the model's output under the measured velocity.
//!
//! How bounds are kept: each free parameter p in [lo, hi] is written as
//! p = lo + (hi − lo)(1 + sin θ)/2 (in ln p for parameters whose range spans decades), and the
//! `levenberg-marquardt` crate (a port of MINPACK's lmder) minimises over the unbounded θ. The
//! Jacobian in θ is a forward difference of the model output (the models give no parameter
//! partials), taken on one branch of the model at each sample: where a perturbed run switches
//! an element (GMS stick/slip) across a sample, the output jumps there and the difference from
//! the other side is used (`Driver::branches`). The confidence intervals do not use θ: at the optimum the Jacobian is taken again
//! in the original parameters by central differences, and the covariance is s²(JᵀJ)⁻¹ with
//! s² = SSR/(m − p) (see [`crate::report`]).
//!
//! Why this crate and not `argmin` or `faer`: `levenberg-marquardt` is MINPACK's proven
//! algorithm (scaled trust region, the same as scipy's `method='lm'`), small, and its nalgebra
//! types give the SVD the report needs; `argmin` has no bounded LM either and brings a framework
//! for what is one call here; `faer` is a faster linear algebra for large matrices, while ours
//! are m × p with p ≤ ~10.

use std::cell::{Cell, RefCell};

use friction_core::experiments::sampled::{Driver, Loaded};
use levenberg_marquardt::{LeastSquaresProblem, LevenbergMarquardt};
use nalgebra::{storage::Owned, DMatrix, DVector, Dyn};

use crate::data::Data;
use crate::spec::FitSpec;

/// Progress of a running fit, for a read-out and Cancel.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Progress {
    /// Model runs so far (one per residual vector; a Jacobian takes one per free parameter).
    pub runs: usize,
    /// Starting point being fitted (0-based) and how many there are.
    pub start: usize,
    /// Number of starting points.
    pub starts: usize,
    /// Residual RMS of the best point so far \[N\].
    pub rms: f64,
}

/// The weight of each sample: the file's `w` column (1 without), 0 within `tskip` of the start.
pub fn weights(spec: &FitSpec, data: &Data) -> Vec<f64> {
    let t0 = data.t.first().copied().unwrap_or(0.0);
    (0..data.len())
        .map(|k| {
            if data.t[k] - t0 < spec.tskip {
                0.0
            } else {
                data.w.as_ref().map_or(1.0, |w| w[k])
            }
        })
        .collect()
}

/// Runs the model under the record's velocity for given free-parameter values.
pub struct Evaluator<'a> {
    spec: &'a FitSpec,
    data: &'a Data,
    sqrt_w: Vec<f64>,
    driver: Driver,
    values: Vec<f64>,
    /// Index of the normal-load parameter when the record's column N drives it
    /// ([`crate::load`]).
    load: Option<usize>,
    /// Model runs so far.
    pub runs: usize,
}

impl<'a> Evaluator<'a> {
    /// An evaluator of `spec` on `data`.
    pub fn new(spec: &'a FitSpec, data: &'a Data) -> Evaluator<'a> {
        let sqrt_w = weights(spec, data).iter().map(|a| a.sqrt()).collect();
        Evaluator {
            spec,
            data,
            sqrt_w,
            driver: Driver::new(),
            values: spec.values.clone(),
            // a refused plan (a free load) never gets here: `optimise` refuses it first
            load: crate::load::plan(spec, data).ok().and_then(|l| l.index),
            runs: 0,
        }
    }

    /// Every parameter's value with the free ones set to `p`.
    pub fn all_values(&self, p: &[f64]) -> Vec<f64> {
        let mut v = self.spec.values.clone();
        for (&i, &x) in self.spec.free.iter().zip(p) {
            v[i] = x;
        }
        v
    }

    /// The model's force at every sample for free values `p`, or the model's message when it
    /// rejects them (a cross-parameter rule such as μ_s ≥ μ_k).
    pub fn forces(&mut self, p: &[f64], out: &mut [f64]) -> Result<(), String> {
        for (&i, &x) in self.spec.free.iter().zip(p) {
            self.values[i] = x;
        }
        let d = self.data;
        if let (Some(index), Some(normal)) = (self.load, d.normal.as_deref()) {
            let load = Loaded {
                entry: self.spec.entry,
                values: &self.values,
                index,
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
            let m = (self.spec.entry.build)(&self.values).map_err(|e| e.to_string())?;
            self.runs += 1;
            if d.x_drive {
                self.driver.forces_from_x(m.as_ref(), &d.t, &d.x, out);
            } else {
                self.driver.forces(m.as_ref(), &d.t, &d.v, out);
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

/// Forward-difference step in θ.
const THETA_STEP: f64 = 1e-4;

/// One model run in θ: where, its residuals, its branch at each sample.
type Run = (DVector<f64>, DVector<f64>, Vec<u64>);

struct Problem<'e, 'a> {
    ev: RefCell<&'e mut Evaluator<'a>>,
    tr: Vec<Transform>,
    theta: DVector<f64>,
    m: usize,
    /// Residuals where the model rejects the values: large, so the step is refused.
    penalty: f64,
    progress: RefCell<&'e mut dyn FnMut(&Progress) -> bool>,
    cancelled: Cell<bool>,
    best: Cell<f64>,
    start: usize,
    starts: usize,
    /// The last residuals and where they were computed: the optimiser asks for the Jacobian at
    /// the point whose residuals it has just had, which saves one model run per Jacobian.
    last: RefCell<Option<Run>>,
}

impl Problem<'_, '_> {
    fn p_of(&self, theta: &DVector<f64>) -> Vec<f64> {
        self.tr
            .iter()
            .zip(theta.iter())
            .map(|(t, &th)| t.to_p(th))
            .collect()
    }

    /// The residuals at θ and the model's branch at each sample (all `u64::MAX` where the
    /// model rejects the values), or `None` when the caller cancelled.
    fn run(&self, theta: &DVector<f64>) -> Option<(DVector<f64>, Vec<u64>)> {
        let p = self.p_of(theta);
        let mut r = DVector::zeros(self.m);
        let mut ev = self.ev.borrow_mut();
        let branches = if ev.residuals(&p, r.as_mut_slice()).is_err() {
            r.fill(self.penalty);
            vec![u64::MAX; self.m]
        } else {
            ev.branches().to_vec()
        };
        let rms = (r.norm_squared() / self.m as f64).sqrt();
        if rms < self.best.get() {
            self.best.set(rms);
        }
        let go = (self.progress.borrow_mut())(&Progress {
            runs: ev.runs,
            start: self.start,
            starts: self.starts,
            rms: self.best.get(),
        });
        if !go {
            self.cancelled.set(true);
            return None;
        }
        Some((r, branches))
    }
}

impl LeastSquaresProblem<f64, Dyn, Dyn> for Problem<'_, '_> {
    type ResidualStorage = Owned<f64, Dyn>;
    type JacobianStorage = Owned<f64, Dyn, Dyn>;
    type ParameterStorage = Owned<f64, Dyn>;

    fn set_params(&mut self, x: &DVector<f64>) {
        self.theta.copy_from(x);
    }

    fn params(&self) -> DVector<f64> {
        self.theta.clone()
    }

    fn residuals(&self) -> Option<DVector<f64>> {
        let (r, b) = self.run(&self.theta)?;
        *self.last.borrow_mut() = Some((self.theta.clone(), r.clone(), b));
        Some(r)
    }

    /// Forward differences in θ, taken backward at the samples where the forward run is on
    /// another branch than the base run (see [`Driver::branches`]): there the forward
    /// difference measures a jump of the output, not its slope.
    fn jacobian(&self) -> Option<DMatrix<f64>> {
        let cached = self
            .last
            .borrow()
            .as_ref()
            .filter(|(th, _, _)| *th == self.theta)
            .map(|(_, r, b)| (r.clone(), b.clone()));
        let (r0, b0) = match cached {
            Some(rb) => rb,
            None => self.run(&self.theta)?,
        };
        let k = self.theta.len();
        let mut j = DMatrix::zeros(self.m, k);
        for c in 0..k {
            let mut th = self.theta.clone();
            th[c] += THETA_STEP;
            let (up, bu) = self.run(&th)?;
            let mut col = (up - &r0) / THETA_STEP;
            if bu != b0 {
                th[c] = self.theta[c] - THETA_STEP;
                let (dn, bd) = self.run(&th)?;
                let back = (&r0 - dn) / THETA_STEP;
                for i in 0..self.m {
                    if bu[i] == b0[i] {
                        continue;
                    }
                    col[i] = if bd[i] == b0[i] {
                        back[i]
                    } else if bd[i] == bu[i] {
                        // the base run is the odd one (a switch exactly at the sample, such
                        // as a reversal): the two perturbed runs share a branch
                        0.5 * (col[i] + back[i])
                    } else if back[i].abs() < col[i].abs() {
                        back[i]
                    } else {
                        col[i]
                    };
                }
            }
            j.set_column(c, &col);
        }
        Some(j)
    }
}

/// Why a fit did not give a result.
#[derive(Debug, Clone, PartialEq)]
pub enum FitError {
    /// The caller cancelled it.
    Cancelled,
    /// Fewer samples than free parameters + 1, or the model rejects every start.
    Bad(String),
}

impl std::fmt::Display for FitError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            FitError::Cancelled => f.write_str("fit cancelled"),
            FitError::Bad(s) => f.write_str(s),
        }
    }
}

/// The optimum found: free values, model runs, the optimiser's stop reason.
#[derive(Debug, Clone, PartialEq)]
pub struct Optimum {
    /// Fitted free-parameter values.
    pub p: Vec<f64>,
    /// Sum of squared (weighted) residuals there \[N²\].
    pub ssr: f64,
    /// Model runs in all starts.
    pub runs: usize,
    /// Why the optimiser stopped (MINPACK's reasons), of the best start.
    pub termination: String,
    /// Whether the optimiser reports success.
    pub converged: bool,
    /// SSR reached from each starting point.
    pub start_ssr: Vec<f64>,
}

/// Fits `spec` to `data`; `progress` is called after every model run and cancels the fit
/// when it returns false.
pub fn optimise(
    spec: &FitSpec,
    data: &Data,
    progress: &mut dyn FnMut(&Progress) -> bool,
) -> Result<Optimum, FitError> {
    crate::load::plan(spec, data).map_err(FitError::Bad)?;
    let k = spec.free.len();
    let m = data.len();
    let counted = weights(spec, data).iter().filter(|&&w| w > 0.0).count();
    if counted <= k {
        return Err(FitError::Bad(format!(
            "{counted} samples (with nonzero weight, after tskip) cannot determine {k} free \
             parameters"
        )));
    }
    let specs = spec.free_specs();
    let tr: Vec<Transform> = (0..k)
        .map(|c| {
            Transform::new(
                spec.lo[c],
                spec.hi[c],
                specs[c].log,
                spec.values[spec.free[c]],
            )
        })
        .collect();
    let fscale = data
        .f
        .iter()
        .fold(0.0_f64, |a, b| a.max(b.abs()))
        .max(1e-300);
    let mut ev = Evaluator::new(spec, data);
    let mut best: Option<(Vec<f64>, f64, String, bool)> = None;
    let mut start_ssr = Vec::new();
    let starts = crate::starts::points(spec, &tr, &mut ev, m, progress)?;
    let n_starts = starts.len();
    for (s, th0) in starts.into_iter().enumerate() {
        let problem = Problem {
            ev: RefCell::new(&mut ev),
            tr: tr.clone(),
            theta: DVector::from_vec(th0),
            m,
            penalty: 1e6 * fscale,
            progress: RefCell::new(&mut *progress),
            cancelled: Cell::new(false),
            best: Cell::new(f64::INFINITY),
            start: s,
            starts: n_starts,
            last: RefCell::new(None),
        };
        let lm = LevenbergMarquardt::new()
            .with_ftol(1e-12)
            .with_xtol(1e-10)
            .with_patience(200);
        let (problem, report) = lm.minimize(problem);
        if problem.cancelled.get() {
            return Err(FitError::Cancelled);
        }
        let p = problem.p_of(&problem.theta);
        drop(problem);
        let mut r = vec![0.0; m];
        let ssr = match ev.residuals(&p, &mut r) {
            Ok(()) => r.iter().map(|a| a * a).sum::<f64>(),
            Err(_) => f64::INFINITY,
        };
        start_ssr.push(ssr);
        if best.as_ref().is_none_or(|b| ssr < b.1) {
            best = Some((
                p,
                ssr,
                format!("{:?}", report.termination),
                report.termination.was_successful(),
            ));
        }
    }
    let (p, ssr, termination, converged) = best.ok_or(FitError::Bad("no start".into()))?;
    if !ssr.is_finite() {
        return Err(FitError::Bad(format!(
            "{} rejects every parameter set the fit tried",
            spec.entry.info.id
        )));
    }
    Ok(Optimum {
        p,
        ssr,
        runs: ev.runs,
        termination,
        converged,
        start_ssr,
    })
}

/// Central-difference Jacobian ∂r/∂p of the weighted residuals in the original parameters at
/// `p` (one-sided at a bound), m × k column-major as nalgebra stores it.
///
/// Per sample, a side whose run is on another branch of the model there than the run at `p`
/// (an element switching across the sample, [`Driver::branches`]) is left out: the derivative
/// is that of the branch the optimum lies on, so a jump of the output does not pass for a
/// steep slope and shrink the intervals.
pub fn jacobian_at(spec: &FitSpec, data: &Data, p: &[f64]) -> Result<DMatrix<f64>, String> {
    let mut ev = Evaluator::new(spec, data);
    let (m, k) = (data.len(), p.len());
    let mut j = DMatrix::zeros(m, k);
    let mut rp = vec![0.0; m];
    let mut rm = vec![0.0; m];
    let mut r0 = vec![0.0; m];
    ev.residuals(p, &mut r0)?;
    let b0 = ev.branches().to_vec();
    for c in 0..k {
        let s = &spec.entry.info.params[spec.free[c]];
        let h = REL_STEP * p[c].abs().max(1e-9 * (spec.hi[c] - spec.lo[c])).max(1e-300);
        let mut q = p.to_vec();
        // central where both sides are valid values of the model, one-sided otherwise (a
        // bound, or a cross-parameter rule such as μ_s ≥ μ_k)
        q[c] = (p[c] + h).min(s.max);
        let up = ev.residuals(&q, &mut rp).is_ok().then_some(q[c]);
        let bu = ev.branches().to_vec();
        q[c] = (p[c] - h).max(s.min);
        let dn = ev.residuals(&q, &mut rm).is_ok().then_some(q[c]);
        let bd = ev.branches().to_vec();
        if up.is_none() && dn.is_none() {
            return Err(format!(
                "{}: the model rejects every value near {}",
                s.key, p[c]
            ));
        }
        for i in 0..m {
            let fwd = up.map(|u| (rp[i] - r0[i]) / (u - p[c]));
            let back = dn.map(|d| (r0[i] - rm[i]) / (p[c] - d));
            let same_up = up.is_some() && bu[i] == b0[i];
            let same_dn = dn.is_some() && bd[i] == b0[i];
            // both sides on one branch: central, even when the run at p is the odd one (a
            // switch exactly at the sample, such as a reversal)
            let central = up.is_some() && dn.is_some() && (bu[i] == bd[i] || same_up && same_dn);
            j[(i, c)] = match (central, same_up, same_dn, up, dn) {
                (true, _, _, Some(u), Some(d)) => (rp[i] - rm[i]) / (u - d),
                (_, true, false, ..) => fwd.unwrap_or(0.0),
                (_, false, true, ..) => back.unwrap_or(0.0),
                // both sides cross a switch (or one is invalid and the other crosses): the
                // smaller quotient is the nearer to a slope
                _ => match (fwd, back) {
                    (Some(a), Some(b)) => {
                        if a.abs() < b.abs() {
                            a
                        } else {
                            b
                        }
                    }
                    (Some(a), None) | (None, Some(a)) => a,
                    (None, None) => 0.0,
                },
            };
        }
    }
    Ok(j)
}

/// Relative step of the central differences at the optimum: branch-aware differencing
/// (see [`jacobian_at`]) keeps the switches' jumps out, so the step only balances truncation
/// against the solver's tolerance (`sampled::OPTIONS`, rtol 1e-10).
const REL_STEP: f64 = 1e-5;
