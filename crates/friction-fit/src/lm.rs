//! One optimiser run: bounded Levenberg–Marquardt from one start, in unbounded variables θ.
//!
//! How bounds are kept: each free parameter p in [lo, hi] is written through a [`Transform`]
//! of θ, and the `levenberg-marquardt` crate (a port of MINPACK's lmder, the algorithm of
//! scipy's `method='lm'`) minimises over θ. A parameter that must not fall below another
//! (μ_s ≥ μ_k, FrBD's μ_s ≥ μ_d) is moved as its excess over that one when both are free
//! ([`Vars`]), so the optimiser never steps into values the model refuses: a refused value is
//! a wall of large residuals, and the optimiser stopped at it (μ_s = μ_k, R² 0.46 on the
//! tribometer record). The Jacobian in θ is a forward difference of the model output, taken on
//! one branch of the model at each sample: where a perturbed run switches an element (GMS
//! stick/slip) across a sample, the output jumps there and the difference from the other side
//! is used (`Driver::branches`).
//!
//! Why this crate and not `argmin` or `faer`: `levenberg-marquardt` is MINPACK's proven
//! algorithm (scaled trust region), small, and its nalgebra types give the SVD the report
//! needs; `argmin` has no bounded LM either and brings a framework for what is one call here;
//! `faer` is a faster linear algebra for large matrices, while ours are m × p with p ≤ ~10.

use std::cell::{Cell, RefCell};

use levenberg_marquardt::{LeastSquaresProblem, LevenbergMarquardt};
use nalgebra::{storage::Owned, DMatrix, DVector, Dyn};

use crate::eval::{Evaluator, Transform};
use crate::spec::{FitSpec, ORDERED};

/// The map between the optimiser's unbounded θ and the free parameters p.
#[derive(Debug, Clone)]
pub struct Vars {
    tr: Vec<Transform>,
    /// For a parameter moved as its excess over another free one: that one's index.
    base: Vec<Option<usize>>,
    hi: Vec<f64>,
}

impl Vars {
    /// The map for `spec`'s free parameters, with `p0` the start (it picks each transform's
    /// form, see [`Transform::new`]).
    pub fn new(spec: &FitSpec, p0: &[f64]) -> Vars {
        let specs = spec.free_specs();
        let k = specs.len();
        let base: Vec<Option<usize>> = (0..k)
            .map(|j| {
                ORDERED
                    .iter()
                    .filter(|(up, _)| *up == specs[j].key)
                    .find_map(|(_, low)| specs.iter().position(|s| s.key == *low))
            })
            .collect();
        let tr = (0..k)
            .map(|j| match base[j] {
                Some(c) => {
                    let span = (spec.hi[j] - spec.lo[c]).max(0.0);
                    Transform::new(0.0, span, false, (p0[j] - p0[c]).max(0.0))
                }
                None => Transform::new(spec.lo[j], spec.hi[j], specs[j].log, p0[j]),
            })
            .collect();
        Vars {
            tr,
            base,
            hi: spec.hi.clone(),
        }
    }

    /// Number of variables.
    pub fn len(&self) -> usize {
        self.tr.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.tr.is_empty()
    }

    /// The free parameters at θ, always inside their bounds and their order.
    pub fn to_p(&self, theta: &[f64]) -> Vec<f64> {
        let mut p: Vec<f64> = self
            .tr
            .iter()
            .zip(theta)
            .map(|(t, &th)| t.to_p(th))
            .collect();
        for j in 0..p.len() {
            if let Some(c) = self.base[j] {
                p[j] = (p[c] + p[j]).min(self.hi[j]);
            }
        }
        p
    }

    /// θ of the free parameters `p` (an excess below zero is taken as zero).
    pub fn to_theta(&self, p: &[f64]) -> Vec<f64> {
        (0..p.len())
            .map(|j| match self.base[j] {
                Some(c) => self.tr[j].to_theta((p[j] - p[c]).max(0.0)),
                None => self.tr[j].to_theta(p[j]),
            })
            .collect()
    }
}

/// Relative reduction of the sum of squares below which a run has converged: a change of
/// 10⁻⁷ of it is a thousandth of what one standard error of any parameter changes it by on
/// a record of 10,000 samples (1/m), so a finer optimum would not show in the report.
pub const FTOL: f64 = 1e-7;
/// Relative change of θ below which a run has converged.
pub const XTOL: f64 = 1e-7;

/// Forward-difference step in θ.
const THETA_STEP: f64 = 1e-4;

/// The last Jacobian: where it was taken, the residuals there, the matrix, and how many
/// Broyden updates it has had since it was taken by differences.
type Secant = (DVector<f64>, DVector<f64>, DMatrix<f64>, usize);

/// One model run in θ: where, its residuals, its branch at each sample.
type Run = (DVector<f64>, DVector<f64>, Vec<u64>);

/// What a model run reports to the fit's progress callback: the residual RMS of this run and
/// its free values; `false` back cancels.
pub type Report<'e> = &'e mut dyn FnMut(f64, &[f64]) -> bool;

struct Problem<'e, 'a> {
    ev: RefCell<&'e mut Evaluator<'a>>,
    vars: &'e Vars,
    theta: DVector<f64>,
    m: usize,
    /// Residuals where the model rejects the values: large, so the step is refused.
    penalty: f64,
    report: RefCell<Report<'e>>,
    cancelled: Cell<bool>,
    /// Model runs left before the run stops at its best point so far.
    budget: Cell<usize>,
    /// The best point so far: θ and its sum of squares.
    best: RefCell<(DVector<f64>, f64)>,
    /// The last residuals and where they were computed: the optimiser asks for the Jacobian at
    /// the point whose residuals it has just had, which saves one model run per Jacobian.
    last: RefCell<Option<Run>>,
    /// Jacobians between two by finite differences are Broyden's rank-one updates (0: every
    /// one by differences).
    broyden: usize,
    /// The last Jacobian, where it was taken and its residuals, and how many updates it has had.
    jac: RefCell<Option<Secant>>,
}

impl Problem<'_, '_> {
    /// The residuals at θ and the model's branch at each sample (all `u64::MAX` where the
    /// model rejects the values), or `None` when the caller cancelled.
    fn run(&self, theta: &DVector<f64>) -> Option<(DVector<f64>, Vec<u64>)> {
        if self.budget.get() == 0 {
            return None;
        }
        self.budget.set(self.budget.get() - 1);
        let p = self.vars.to_p(theta.as_slice());
        let mut r = DVector::zeros(self.m);
        let mut ev = self.ev.borrow_mut();
        let branches = if ev.residuals(&p, r.as_mut_slice()).is_err() {
            r.fill(self.penalty);
            vec![u64::MAX; self.m]
        } else {
            ev.branches().to_vec()
        };
        drop(ev);
        let ssr = r.norm_squared();
        if ssr < self.best.borrow().1 {
            *self.best.borrow_mut() = (theta.clone(), ssr);
        }
        let rms = (ssr / self.m as f64).sqrt();
        if !(self.report.borrow_mut())(rms, &p) {
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
    /// another branch than the base run (see `Driver::branches`): there the forward
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
        if let Some(j) = self.update(&r0) {
            return Some(j);
        }
        let j = self.differences(r0.clone(), b0)?;
        *self.jac.borrow_mut() = Some((self.theta.clone(), r0, j.clone(), 0));
        Some(j)
    }
}

impl Problem<'_, '_> {
    /// Broyden's rank-one update J + (Δr − J Δθ) Δθᵀ / |Δθ|² of the last Jacobian to the
    /// current θ with residuals `r`, if updates are on and the last differences are recent.
    fn update(&self, r: &DVector<f64>) -> Option<DMatrix<f64>> {
        let mut jac = self.jac.borrow_mut();
        let (th0, r_old, j, n) = jac.as_mut()?;
        if *n >= self.broyden {
            return None;
        }
        let dth = &self.theta - &*th0;
        let nn = dth.norm_squared();
        if nn == 0.0 {
            return Some(j.clone());
        }
        let dr = r - &*r_old;
        let resid = dr - &*j * &dth;
        *j += resid * dth.transpose() / nn;
        *th0 = self.theta.clone();
        *r_old = r.clone();
        *n += 1;
        Some(j.clone())
    }

    /// The Jacobian by forward differences at θ, whose residuals and branches are `r0`, `b0`.
    fn differences(&self, r0: DVector<f64>, b0: Vec<u64>) -> Option<DMatrix<f64>> {
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

/// Where one optimiser run ended.
#[derive(Debug, Clone, PartialEq)]
pub struct Outcome {
    /// Free values there.
    pub p: Vec<f64>,
    /// Weighted sum of squared residuals there (∞ where the model rejects them).
    pub ssr: f64,
    /// Why the optimiser stopped (MINPACK's reasons).
    pub termination: String,
    /// Whether the optimiser reports success.
    pub converged: bool,
}

/// Runs Levenberg–Marquardt on `ev` from the free values `p0` with at most `iterations`
/// Jacobians' worth of model runs (each k + 1 runs), ending at the best point it saw; `None`
/// when `report` cancelled.
pub fn minimise(
    ev: &mut Evaluator<'_>,
    vars: &Vars,
    p0: &[f64],
    iterations: usize,
    report: Report<'_>,
) -> Option<Outcome> {
    minimise_with(ev, vars, p0, iterations, 0, report)
}

/// [`minimise`] with `broyden` Jacobians of Broyden's rank-one updates between two by finite
/// differences: an iteration then costs one model run instead of k + 1, for the final run on a
/// long record, which starts near the optimum where the Jacobian changes little.
pub fn minimise_with(
    ev: &mut Evaluator<'_>,
    vars: &Vars,
    p0: &[f64],
    iterations: usize,
    broyden: usize,
    report: Report<'_>,
) -> Option<Outcome> {
    let d = ev.data();
    let m = d.len();
    let fscale = d.f.iter().fold(0.0_f64, |a, b| a.max(b.abs())).max(1e-300);
    let k = vars.len();
    let theta0 = DVector::from_vec(vars.to_theta(p0));
    let problem = Problem {
        ev: RefCell::new(&mut *ev),
        vars,
        theta: theta0.clone(),
        m,
        penalty: 1e6 * fscale,
        report: RefCell::new(report),
        cancelled: Cell::new(false),
        budget: Cell::new(iterations * (k + 1) + 1),
        best: RefCell::new((theta0, f64::INFINITY)),
        last: RefCell::new(None),
        broyden,
        jac: RefCell::new(None),
    };
    let lm = LevenbergMarquardt::new()
        .with_ftol(FTOL)
        .with_xtol(XTOL)
        .with_patience(iterations.max(1) * 4);
    let (problem, out) = lm.minimize(problem);
    if problem.cancelled.get() {
        return None;
    }
    let exhausted = problem.budget.get() == 0;
    let (theta, ssr) = problem.best.borrow().clone();
    let p = vars.to_p(theta.as_slice());
    Some(Outcome {
        p,
        ssr,
        termination: if exhausted {
            format!("stopped after {iterations} iterations' model runs")
        } else {
            format!("{:?}", out.termination)
        },
        converged: !exhausted && out.termination.was_successful(),
    })
}
