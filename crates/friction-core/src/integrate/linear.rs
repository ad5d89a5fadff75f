//! An L-stable, second-order implicit stepper for models that are linear in their state at a
//! prescribed velocity: ẋ = A(v(t))·x + b·v(t).
//!
//! The method is the two-stage, stiffly accurate SDIRK of Alexander (γ = 1 − 1/√2):
//!
//! ```text
//! X1 = x + γh·g(t + γh, X1)
//! X2 = x + (1 − γ)h·g(t + γh, X1) + γh·g(t + h, X2),   x_next = X2
//! ```
//!
//! Why this method: it is L-stable (stiff modes are damped, not mirrored as with the trapezoid
//! rule, so k̄ up to 1e9 1/m and τ down to 1e-7 s stay bounded for any h), second order for
//! time-varying v (a zero-order hold on v would be first order), and each stage is one linear
//! solve. Because A(v) of the FrBD models is "diagonal plus rank one" (an arrowhead), the model
//! solves the stage exactly in O(n) ([`LinearModel::solve_stage`]); no matrix is formed. At
//! ε = 0 and v = 0 the z-direction is singular (a = 0), but every stage denominator has the form
//! 1 + (non-negative terms), so the solve is defined for every v and every h ≥ 0.
//!
//! The stepper owns only scratch (three vectors of the model's dimension, allocated once); the
//! model holds parameters and the caller owns the state, so one stepper can serve many runs and
//! [`Sdirk2::step`] never allocates.

use std::f64::consts::FRAC_1_SQRT_2;

/// A model whose state equation is affine in the state for a given velocity v \[m/s\].
pub trait LinearModel {
    /// Dimension of the state.
    fn dim(&self) -> usize;
    /// ẋ = g(v, x) = A(v)·x + b·v.
    fn rhs(&self, v: f64, x: &[f64], dx: &mut [f64]);
    /// Solves x = r + η·g(v, x) for x exactly (η ≥ 0 \[s\]); `r` and `x` have length `dim()`.
    fn solve_stage(&self, v: f64, eta: f64, r: &[f64], x: &mut [f64]);
    /// Output force F(v, x) \[N\].
    fn output(&self, v: f64, x: &[f64]) -> f64;
    /// An upper estimate of the fastest decay rate |λ|max of A(v) \[1/s\], for choosing h when
    /// accuracy (not stability, which needs nothing) matters.
    fn rate_bound(&self, v: f64) -> f64;
}

/// The SDIRK parameter γ = 1 − 1/√2 (L-stable, order 2).
pub const GAMMA: f64 = 1.0 - FRAC_1_SQRT_2;

/// Scratch of the two-stage SDIRK stepper.
#[derive(Debug, Clone)]
pub struct Sdirk2 {
    r: Vec<f64>,
    x1: Vec<f64>,
}

/// What one step supplied, by the method's own quadrature (weights 1 − γ and γ at the stages).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct StepWork {
    /// ∫ F·v dt over the step \[J\].
    pub work: f64,
    /// Output F at the end of the step \[N\].
    pub force: f64,
}

impl Sdirk2 {
    /// Scratch for models of dimension `dim`.
    pub fn new(dim: usize) -> Sdirk2 {
        Sdirk2 {
            r: vec![0.0; dim],
            x1: vec![0.0; dim],
        }
    }

    /// The first stage value X1 of the last step (state at t + γh), for energy quadratures.
    pub fn stage1(&self) -> &[f64] {
        &self.x1
    }

    /// Advances `x` by `h` \[s\]; `v1` = v(t + γh) and `v2` = v(t + h) are the stage velocities.
    ///
    /// Taking velocities rather than a closure keeps the stepper usable with tabulated inputs
    /// (the hysteresis loop reuses one table of cosines for every cycle).
    #[inline]
    pub fn step<M: LinearModel + ?Sized>(
        &mut self,
        m: &M,
        h: f64,
        v1: f64,
        v2: f64,
        x: &mut [f64],
    ) -> StepWork {
        let eta = GAMMA * h;
        m.solve_stage(v1, eta, x, &mut self.x1);
        // k1 = (X1 − x)/η, so x + (1 − γ)h·k1 = x + ((1 − γ)/γ)·(X1 − x).
        let c = (1.0 - GAMMA) / GAMMA;
        for ((r, &xi), &x1) in self.r.iter_mut().zip(x.iter()).zip(self.x1.iter()) {
            *r = xi + c * (x1 - xi);
        }
        m.solve_stage(v2, eta, &self.r, x);
        let f1 = m.output(v1, &self.x1);
        let f2 = m.output(v2, x);
        StepWork {
            work: h * ((1.0 - GAMMA) * f1 * v1 + GAMMA * f2 * v2),
            force: f2,
        }
    }

    /// Integrates from `t0` over `steps` equal steps of size `h` with velocity `v(t)`; returns the
    /// supplied work ∫F·v dt \[J\].
    pub fn run<M: LinearModel + ?Sized>(
        &mut self,
        m: &M,
        v: &dyn Fn(f64) -> f64,
        t0: f64,
        h: f64,
        steps: usize,
        x: &mut [f64],
    ) -> f64 {
        let mut w = 0.0;
        for k in 0..steps {
            let t = t0 + k as f64 * h;
            w += self.step(m, h, v(t + GAMMA * h), v(t + h), x).work;
        }
        w
    }
}
