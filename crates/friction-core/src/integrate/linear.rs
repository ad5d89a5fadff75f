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
//! L-stability does not make the method monotone: its stability function
//! R(−x) = (1 − (1 − 2γ)x)/(1 + γx)² is negative for x = h|λ| > 1 + √2 (down to −0.207 at x ≈ 8.2),
//! so a step that does not resolve the fastest mode overshoots the mode's equilibrium. The
//! elastic bristle's exact solution never leaves |F| ≤ p·μ_max, yet such capped steps printed
//! 1.2·p·μ_max. Those steps are taken as two implicit Euler substeps instead (γh, then (1 − γ)h):
//! each is a convex combination of the state and the frozen equilibrium mode by mode, and it
//! satisfies the discrete dissipation inequality V(x⁺) − V(x) ≤ η·(F·v − D)(x⁺), so the bounds of
//! the letter's Lemma III.2 hold step by step. First order only, but no linear method of higher
//! order is unconditionally monotone (Bolley–Crouzeix), and these steps were not accurate
//! anyway; resolved steps are the SDIRK2 step, bit for bit.
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
    /// A guaranteed upper bound of |λ|max of A(v) \[1/s\]: it decides which steps must be
    /// monotone ([`MONOTONE_HL`]). The default is [`LinearModel::rate_bound`], for models where
    /// that estimate is already a bound.
    fn max_rate(&self, v: f64) -> f64 {
        self.rate_bound(v)
    }
}

/// Largest h·|λ|max at which the SDIRK2 step is monotone: 1/(1 − 2γ) = 1 + √2, where its
/// stability function R(−x) = (1 − (1 − 2γ)x)/(1 + γx)² reaches zero. Equivalently, the
/// extrapolation to the second stage, x + ((1 − γ)/γ)·(X1 − x), stays between x and X1's
/// equilibrium for every mode.
pub const MONOTONE_HL: f64 = 1.0 + std::f64::consts::SQRT_2;

/// The SDIRK parameter γ = 1 − 1/√2 (L-stable, order 2).
pub const GAMMA: f64 = 1.0 - FRAC_1_SQRT_2;

/// Scratch of the two-stage SDIRK stepper.
#[derive(Debug, Clone)]
pub struct Sdirk2 {
    r: Vec<f64>,
    x1: Vec<f64>,
    /// Weight of the first stage in the last step's quadrature (1 − γ, or γ for a step taken as
    /// two implicit Euler substeps); the end state has the rest.
    b1: f64,
    b2: f64,
}

/// What one step supplied, by the method's own quadrature (stage weights: [`Sdirk2::weights`]).
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
            b1: 1.0 - GAMMA,
            b2: GAMMA,
        }
    }

    /// The first stage value X1 of the last step (state at t + γh), for energy quadratures.
    pub fn stage1(&self) -> &[f64] {
        &self.x1
    }

    /// Quadrature weights (first stage, end of step) of the last step, as fractions of h: an
    /// integral over the step is h·(b1·g(t + γh, X1) + b2·g(t + h, x_next)), consistent with
    /// [`StepWork::work`].
    pub fn weights(&self) -> (f64, f64) {
        (self.b1, self.b2)
    }

    /// Whether a step of size `h` \[s\] with first-stage velocity `v1` \[m/s\] does not resolve
    /// the fastest mode well enough for SDIRK2 to be monotone, so [`Sdirk2::step`] takes it as
    /// two implicit Euler substeps.
    ///
    /// The first stage is an implicit Euler step, monotone for any h; only the extrapolation to
    /// the second stage can overshoot, and only where h·|λ(v1)| > [`MONOTONE_HL`].
    #[inline]
    pub fn needs_monotone<M: LinearModel + ?Sized>(m: &M, h: f64, v1: f64) -> bool {
        h * m.max_rate(v1) > MONOTONE_HL
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
        let monotone = Self::needs_monotone(m, h, v1);
        self.step_with(m, h, v1, v2, x, monotone)
    }

    /// [`Sdirk2::step`] with its choice of method made by the caller: `monotone` must be
    /// [`Sdirk2::needs_monotone`]`(m, h, v1)` (or `true`). Callers that repeat the same steps
    /// (the hysteresis cycle's table, the relaxation's constant v) decide once, since the check
    /// costs a Stribeck evaluation per step.
    #[inline]
    pub fn step_with<M: LinearModel + ?Sized>(
        &mut self,
        m: &M,
        h: f64,
        v1: f64,
        v2: f64,
        x: &mut [f64],
        monotone: bool,
    ) -> StepWork {
        // O(n) with no factorisation: about a state-step per state
        super::meter::add(x.len());
        let eta = GAMMA * h;
        m.solve_stage(v1, eta, x, &mut self.x1);
        if monotone {
            m.solve_stage(v2, h - eta, &self.x1, x);
            (self.b1, self.b2) = (GAMMA, 1.0 - GAMMA);
        } else {
            // k1 = (X1 − x)/η, so x + (1 − γ)h·k1 = x + ((1 − γ)/γ)·(X1 − x).
            let c = (1.0 - GAMMA) / GAMMA;
            for ((r, &xi), &x1) in self.r.iter_mut().zip(x.iter()).zip(self.x1.iter()) {
                *r = xi + c * (x1 - xi);
            }
            m.solve_stage(v2, eta, &self.r, x);
            (self.b1, self.b2) = (1.0 - GAMMA, GAMMA);
        }
        let f1 = m.output(v1, &self.x1);
        let f2 = m.output(v2, x);
        StepWork {
            work: h * (self.b1 * f1 * v1 + self.b2 * f2 * v2),
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
