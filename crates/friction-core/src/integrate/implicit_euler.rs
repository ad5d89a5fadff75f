//! Implicit-Euler stepper for the states of any [`FrictionModel`] at prescribed velocity and
//! external force ([`StateStepper`]), as the phenomena matrix and the curve view drive them.
//!
//! Implicit Euler (Newton with a finite-difference Jacobian, step halving when Newton fails) is
//! L-stable, so stiff bristle states need no tiny steps, and it needs nothing of a model but its
//! derivative. It knows nothing of switches, though: a dynamic model with switches (slip,
//! saturation, held bristles) is slid through the event-locating [`Rodas`] solver instead
//! ([`StateStepper::advance`]), which applies the model's discrete updates; implicit Euler
//! remains the fallback when that solver gives up, so a value is always returned.

use super::linalg::{lu_factor, lu_solve};
use super::rodas::{EventAction, Options, Point, Rodas, System};
use crate::model::{Category, FrictionModel};

/// Implicit-Euler integrator for model states; scratch is allocated once, never while stepping
/// (the dense Newton matrix at the first step that needs one: never for a separable law).
pub struct StateStepper {
    n: usize,
    y: Vec<f64>,
    f: Vec<f64>,
    fp: Vec<f64>,
    yp: Vec<f64>,
    /// Newton matrix I − dt·∂f/∂x, factored in place; n × n once a law that is not separable
    /// needs it, empty until then (GMS with 1000 elements would zero 8 MB for nothing: 7 ms of
    /// its first unit in wasm, at the page's load).
    jac: Vec<f64>,
    /// Row swaps of the factored `jac`.
    piv: Vec<usize>,
    rhs: Vec<f64>,
    x0: Vec<f64>,
    /// Switching functions at the end of the last [`StateStepper::advance`] (empty before it).
    gsw: Vec<f64>,
    /// Switching functions at the start of the current one.
    gnow: Vec<f64>,
    /// Solver steps taken by [`StateStepper::advance`] so far.
    solver_steps: usize,
    /// Switching functions at the end of the previous step (hybrid laws only).
    gprev: [f64; HYBRID_MAX],
    have_g: bool,
    /// Adaptive solver scratch for the slides through the event-locating solver
    /// ([`StateStepper::slide_begin`]).
    rodas: Rodas,
    /// The slide in progress: its length \[s\], first step \[s\] and ∫F dt if asked for.
    slide_t: f64,
    slide_h0: f64,
    integral: Option<ForceIntegral>,
    /// The [`StateStepper::advance`] in progress: its v \[m/s\], F_e \[N\] and dt \[s\].
    pending: Option<(f64, f64, f64)>,
}

/// Where a slide started by [`StateStepper::slide_begin`] stands.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Slide {
    /// Cut at the step cap; resume it.
    Running,
    /// Finished; the mean force \[N\] if it was asked for.
    Done(Option<f64>),
    /// The solver gave up or the state stopped being finite; `x` is back at the start.
    Failed,
}

/// Solver settings of every slide: tolerances well below the curves' resolution, and a step
/// budget after which the implicit-Euler fallback takes over.
const SLIDE_OPTS: Options = Options {
    rtol: 1e-7,
    atol: 1e-9,
    h0: 0.0,
    hmax: f64::INFINITY,
    max_steps: 20_000,
    predictive: false,
};

/// Solver steps one [`StateStepper`] may spend in [`StateStepper::advance`] (about 0.1 s natively)
/// before it steps on with implicit Euler, switches ignored: bounds a row's time when an
/// experiment drives a model far outside its range (a model that snaps every millimetre, as the
/// bristle model does, pushed to metres of slip would take minutes). Modified Stribeck, the
/// busiest of the others, uses about 92 000 in its ramp.
const ADVANCE_BUDGET: usize = 100_000;

/// Newton solves one [`StateStepper::step`] may spend halving a step Newton cannot take. Ten
/// halvings deep, a step where Newton fails everywhere cost 2047 solves (30 iterations, a dense
/// Jacobian each): 1.2 s in one unit of a prescribed-motion fallback (Liang at 10 kHz). Where
/// halving helps, a few levels suffice.
const SUBSTEP_BUDGET: u32 = 64;

/// Most switching functions a hybrid law may have for [`StateStepper`] to apply its updates.
const HYBRID_MAX: usize = 4;

/// Number of switching functions whose discrete updates [`StateStepper`] applies (0 = none).
///
/// Why only static-stiction laws with discrete states (Armstrong-Hélouvry): their stick/slip mode
/// is part of the law and changes only through `on_switch`, so without the updates the law would
/// never leave its initial mode. Dynamic models keep their behaviour in the phenomena matrix
/// unchanged.
pub(crate) fn hybrid(m: &dyn FrictionModel) -> usize {
    let k = m.n_switches();
    if m.n_discrete() > 0 && k <= HYBRID_MAX && m.info().category == Category::StaticStiction {
        k
    } else {
        0
    }
}

impl StateStepper {
    /// Scratch for a model with `n` states.
    pub fn new(n: usize) -> Self {
        StateStepper {
            n,
            y: vec![0.0; n],
            f: vec![0.0; n],
            fp: vec![0.0; n],
            yp: vec![0.0; n],
            jac: Vec::new(),
            piv: vec![0; n],
            rhs: vec![0.0; n],
            x0: vec![0.0; n],
            gsw: Vec::new(),
            gnow: Vec::new(),
            solver_steps: 0,
            gprev: [0.0; HYBRID_MAX],
            have_g: false,
            rodas: Rodas::new(),
            slide_t: 0.0,
            slide_h0: 0.0,
            integral: None,
            pending: None,
        }
    }

    /// Advances `x` by `dt` \[s\] at constant `v`, `fe`: x ← x + dt·f(v, fe, x_new).
    ///
    /// For a hybrid law (a static-stiction law with a discrete mode) a switching function that
    /// changed sign since the end of the previous step triggers the law's discrete update at the
    /// end of this step (the event is not located inside the step: an error of at most one step).
    pub fn step(&mut self, m: &dyn FrictionModel, v: f64, fe: f64, x: &mut [f64], dt: f64) {
        if self.n == 0 || dt <= 0.0 {
            return;
        }
        let k = hybrid(m);
        if k > 0 && !self.have_g {
            m.switches(v, fe, x, &mut self.gprev[..k]);
            self.have_g = true;
        }
        let mut budget = SUBSTEP_BUDGET;
        self.substep(m, v, fe, x, dt, 0, &mut budget);
        if k > 0 {
            let mut g = [0.0; HYBRID_MAX];
            m.switches(v, fe, x, &mut g[..k]);
            let mut changed = false;
            for (i, (&before, &after)) in self.gprev.iter().zip(&g).take(k).enumerate() {
                if (before > 0.0) != (after > 0.0) {
                    changed |= m.on_switch(i, after > 0.0, v, fe, x);
                }
            }
            if changed {
                m.switches(v, fe, x, &mut g[..k]);
            }
            self.gprev = g;
        }
    }

    /// Advances `x` by `dt` \[s\] at constant `v`, `fe`, like [`StateStepper::step`], but a
    /// dynamic model with switches (Maxwell and GMS slip, reset integrator, Leuven, Liang, …)
    /// goes through the adaptive stiff solver, which locates its switches and applies their
    /// discrete updates.
    ///
    /// Implicit Euler knows nothing of switches: at a step across one Newton fails and the step
    /// is halved ten times, at every step while a state sits on its limit, so one phenomena row
    /// took 12 s (Maxwell), 36 s (Liang) or minutes (Leuven). If the solver gives up, implicit
    /// Euler takes the step, so a value is always returned.
    pub fn advance(&mut self, m: &dyn FrictionModel, v: f64, fe: f64, x: &mut [f64], dt: f64) {
        if !self.advance_begin(m, v, fe, x, dt) {
            let mut unlimited = usize::MAX;
            while !self.advance_resume(m, x, &mut unlimited) {}
        }
    }

    /// Starts [`StateStepper::advance`], to be carried out by [`StateStepper::advance_resume`]
    /// in pieces: one interval of a stiff switching model (a bristle model snapping many times)
    /// can take thousands of solver steps. True when it is already over (no solver run needed,
    /// or the solver refused and implicit Euler took the step).
    pub fn advance_begin(
        &mut self,
        m: &dyn FrictionModel,
        v: f64,
        fe: f64,
        x: &mut [f64],
        dt: f64,
    ) -> bool {
        self.pending = None;
        if self.n == 0 || dt.is_nan() || dt <= 0.0 {
            return true;
        }
        if m.n_switches() == 0 || hybrid(m) > 0 {
            self.step(m, v, fe, x, dt);
            return true;
        }
        if self.solver_steps >= ADVANCE_BUDGET {
            self.fallback_step(m, v, fe, x, dt);
            return true;
        }
        // Switches that depend on v (a sliding element re-sticks when v reverses) change sign
        // between intervals, where v jumps, not inside the solver's run at constant v: their
        // updates are applied here, as the hybrid laws' are in `step`.
        let k = m.n_switches();
        self.gnow.resize(k, 0.0);
        m.switches(v, fe, x, &mut self.gnow);
        if self.gsw.len() == k {
            for i in 0..k {
                let (before, after) = (self.gsw[i], self.gnow[i]);
                if before != 0.0 && after != 0.0 && (before > 0.0) != (after > 0.0) {
                    m.on_switch(i, after > 0.0, v, fe, x);
                }
            }
        }
        // the state is usually close to its track from the previous interval: try the whole
        // interval first (rejections shrink it)
        if self.slide_begin(m, v, fe, x, dt, dt, false) {
            self.pending = Some((v, fe, dt));
            false
        } else {
            self.advance_end(m, v, fe, x, dt, false);
            true
        }
    }

    /// Continues the step of [`StateStepper::advance_begin`] (same `m` and `x`) for at most
    /// `steps_left` solver steps (decremented by those taken); true when it is over. The steps
    /// are the same however it is cut.
    pub fn advance_resume(
        &mut self,
        m: &dyn FrictionModel,
        x: &mut [f64],
        steps_left: &mut usize,
    ) -> bool {
        let Some((v, fe, dt)) = self.pending else {
            return true;
        };
        let before = self.rodas.stats().steps;
        let r = self.slide_resume(m, v, fe, x, *steps_left);
        *steps_left = steps_left.saturating_sub(self.rodas.stats().steps - before);
        let solved = match r {
            Slide::Running => return false,
            Slide::Done(_) => true,
            Slide::Failed => false,
        };
        self.pending = None;
        self.advance_end(m, v, fe, x, dt, solved);
        true
    }

    /// The end of [`StateStepper::advance`]: implicit Euler where the solver gave up, and the
    /// switching functions the next interval compares against.
    fn advance_end(
        &mut self,
        m: &dyn FrictionModel,
        v: f64,
        fe: f64,
        x: &mut [f64],
        dt: f64,
        solved: bool,
    ) {
        self.solver_steps += self.rodas.stats().steps;
        if solved {
            let k = m.n_switches();
            self.gsw.resize(k, 0.0);
            m.switches(v, fe, x, &mut self.gsw);
        } else {
            self.fallback_step(m, v, fe, x, dt);
        }
    }

    /// Implicit Euler for a model with switches where the solver gave up or its budget is
    /// spent: a switch that rose during the step gets its discrete update at the end of it (an
    /// error of at most one step, as for the hybrid laws in [`StateStepper::step`]). Without
    /// it a bristle model never snapped again once the budget was spent, and its force grew
    /// without bound (1e58 N in a phenomena ramp at σ0 = 1e9).
    fn fallback_step(&mut self, m: &dyn FrictionModel, v: f64, fe: f64, x: &mut [f64], dt: f64) {
        let k = m.n_switches();
        if self.gsw.len() != k {
            self.gsw.resize(k, 0.0);
            m.switches(v, fe, x, &mut self.gsw);
        }
        self.step(m, v, fe, x, dt);
        self.gnow.resize(k, 0.0);
        m.switches(v, fe, x, &mut self.gnow);
        let mut changed = false;
        for i in 0..k {
            if self.gsw[i] <= 0.0 && self.gnow[i] > 0.0 {
                changed |= m.on_switch(i, true, v, fe, x);
            }
        }
        if changed {
            m.switches(v, fe, x, &mut self.gnow);
        }
        self.gsw.clone_from(&self.gnow);
    }

    /// Starts a slide of `x` for `t` \[s\] at constant `v`, `fe` through the event-locating solver
    /// (first step `h0`, 0: the solver's own; with the mean force if `mean`), to be carried
    /// out by [`StateStepper::slide_resume`] in pieces: one slide of a stiff model (a bristle
    /// model snapping at σ0 = 1e9, GMS with 1000 elements) takes up to 20,000 solver steps,
    /// longer than a frame of the page may take. False, with `x` unchanged, if the solver refuses.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn slide_begin(
        &mut self,
        m: &dyn FrictionModel,
        v: f64,
        fe: f64,
        x: &mut [f64],
        t: f64,
        h0: f64,
        mean: bool,
    ) -> bool {
        let mut sys = ConstantVelocity {
            m,
            v,
            fe,
            integral: mean.then(ForceIntegral::default),
        };
        self.x0.copy_from_slice(x);
        self.slide_t = t;
        let ok = self
            .rodas
            .begin(&mut sys, 0.0, x, t, &Options { h0, ..SLIDE_OPTS })
            .is_ok();
        self.integral = sys.integral;
        self.slide_h0 = h0;
        ok
    }

    /// Continues the slide of [`StateStepper::slide_begin`] (same `m`, `v`, `fe`, `x`) for at
    /// most `max_steps` solver steps; the steps are the same however the slide is cut.
    pub(crate) fn slide_resume(
        &mut self,
        m: &dyn FrictionModel,
        v: f64,
        fe: f64,
        x: &mut [f64],
        max_steps: usize,
    ) -> Slide {
        let mut sys = ConstantVelocity {
            m,
            v,
            fe,
            integral: self.integral.take(),
        };
        let opts = Options {
            h0: self.slide_h0,
            ..SLIDE_OPTS
        };
        let r = self.rodas.resume(&mut sys, x, &opts, max_steps);
        self.integral = sys.integral;
        match r {
            Ok(false) => Slide::Running,
            Ok(true) if x.iter().all(|a| a.is_finite()) => {
                Slide::Done(self.integral.map(|i| i.sum / self.slide_t))
            }
            _ => {
                x.copy_from_slice(&self.x0);
                Slide::Failed
            }
        }
    }

    /// One implicit-Euler step of `dt` \[s\], or two half steps where Newton fails: halving
    /// ten times deep at most, and at most `budget` Newton solves in all, after which the last
    /// iterate is kept if finite, so that a model Newton cannot follow still advances.
    #[allow(clippy::too_many_arguments)]
    fn substep(
        &mut self,
        m: &dyn FrictionModel,
        v: f64,
        fe: f64,
        x: &mut [f64],
        dt: f64,
        depth: u32,
        budget: &mut u32,
    ) {
        *budget = budget.saturating_sub(1);
        if self.newton(m, v, fe, x, dt) || depth >= 10 || *budget == 0 {
            if self.y.iter().all(|a| a.is_finite()) {
                x.copy_from_slice(&self.y);
            }
            return;
        }
        self.substep(m, v, fe, x, 0.5 * dt, depth + 1, budget);
        self.substep(m, v, fe, x, 0.5 * dt, depth + 1, budget);
    }

    /// Newton on G(y) = y − x − dt f(y); leaves the iterate in `self.y`; true if converged.
    fn newton(&mut self, m: &dyn FrictionModel, v: f64, fe: f64, x: &[f64], dt: f64) -> bool {
        let n = self.n;
        self.x0.copy_from_slice(x);
        // an explicit predictor is unsafe for stiff states: start from x
        self.y.copy_from_slice(x);
        for _ in 0..30 {
            // two or three derivative evaluations: about a quarter of a Rosenbrock attempt
            super::meter::add((16 + n) / 4);
            m.derivative(v, fe, &self.y, &mut self.f);
            let mut gnorm = 0.0f64;
            for i in 0..n {
                self.rhs[i] = -(self.y[i] - self.x0[i] - dt * self.f[i]);
                gnorm = gnorm.max(self.rhs[i].abs());
            }
            if m.separable() {
                // Each continuous state's derivative depends on that state alone, so one
                // evaluation with every state moved gives the whole (diagonal) Jacobian, and the
                // solve is a division: O(n) where the dense path is O(n³) (GMS with 1000
                // elements spent 88 s per curve point there). The diagonal holds the same
                // numbers the column-by-column differences give; discrete states have ẋ = 0.
                let nz = n - m.n_discrete();
                self.yp.copy_from_slice(&self.y);
                for j in 0..nz {
                    self.yp[j] += 1e-7 * self.y[j].abs().max(1e-9);
                }
                m.derivative(v, fe, &self.yp, &mut self.fp);
                for i in 0..n {
                    let g = if i < nz {
                        let h = 1e-7 * self.y[i].abs().max(1e-9);
                        1.0 - dt * ((self.fp[i] - self.f[i]) / h)
                    } else {
                        1.0
                    };
                    if g == 0.0 || !g.is_finite() {
                        return false;
                    }
                    self.rhs[i] /= g;
                }
            } else {
                if self.jac.len() != n * n {
                    self.jac = vec![0.0; n * n];
                }
                for j in 0..n {
                    self.yp.copy_from_slice(&self.y);
                    let h = 1e-7 * self.y[j].abs().max(1e-9);
                    self.yp[j] += h;
                    m.derivative(v, fe, &self.yp, &mut self.fp);
                    for i in 0..n {
                        let d = (self.fp[i] - self.f[i]) / h;
                        self.jac[i * n + j] = if i == j { 1.0 } else { 0.0 } - dt * d;
                    }
                }
                super::meter::add(super::meter::dense(n));
                if !lu_factor(&mut self.jac, &mut self.piv, n) {
                    return false;
                }
                lu_solve(&self.jac, &self.piv, n, &mut self.rhs);
            }
            let mut dnorm = 0.0f64;
            let mut ynorm = 0.0f64;
            for i in 0..n {
                self.y[i] += self.rhs[i];
                dnorm = dnorm.max(self.rhs[i].abs());
                ynorm = ynorm.max(self.y[i].abs());
            }
            if !self.y.iter().all(|a| a.is_finite()) {
                return false;
            }
            if dnorm <= 1e-11 * ynorm + 1e-300 || gnorm == 0.0 {
                return true;
            }
        }
        false
    }
}

/// A model driven at constant relative velocity `v` and external force `fe`, as an ODE system
/// for the adaptive solver (switches located as events, discrete states kept frozen).
struct ConstantVelocity<'a> {
    m: &'a dyn FrictionModel,
    v: f64,
    fe: f64,
    /// ∫F dt over the run when asked for ([`StateStepper::slide_begin`] with `mean`).
    integral: Option<ForceIntegral>,
}

/// ∫F dt by trapezoids between the points the solver reports: exact where F is linear in t
/// between events (the bristle model), and the jump at an event is not integrated across.
#[derive(Debug, Default, Clone, Copy)]
struct ForceIntegral {
    last: Option<(f64, f64)>,
    sum: f64,
}

impl System for ConstantVelocity<'_> {
    fn dim(&self) -> usize {
        self.m.n_states()
    }
    fn rhs(&self, y: &[f64], dy: &mut [f64]) {
        self.m.derivative(self.v, self.fe, y, dy);
    }
    fn scale(&self, i: usize) -> f64 {
        self.m.state_scale(i)
    }
    fn n_frozen(&self) -> usize {
        self.m.n_discrete()
    }
    fn jacobian(&self, y: &[f64], jac: &mut [f64]) -> bool {
        if !self.m.separable() {
            return false;
        }
        let nc = self.m.n_states() - self.m.n_discrete();
        let f = |y: &[f64], dy: &mut [f64]| self.m.derivative(self.v, self.fe, y, dy);
        let scale = |i: usize| self.m.state_scale(i);
        super::separable::arrow_jacobian(&f, &scale, y, 1, nc, jac);
        true
    }
    fn dense_head(&self) -> Option<usize> {
        // Separable: every state depends on itself only, a diagonal Jacobian, which the arrow
        // layout with a one-state head covers (the solver factors 1 × 1 instead of n × n).
        self.m.separable().then_some(1)
    }
    fn n_events(&self) -> usize {
        self.m.n_switches()
    }
    fn events(&self, y: &[f64], g: &mut [f64]) {
        self.m.switches(self.v, self.fe, y, g);
    }
    fn on_event(&mut self, _t: f64, index: usize, rising: bool, y: &mut [f64]) -> EventAction {
        if self.m.on_switch(index, rising, self.v, self.fe, y) {
            EventAction::Reset
        } else {
            EventAction::Continue
        }
    }
    fn observe(&mut self, t: f64, y: &[f64], point: Point) {
        let Some(acc) = self.integral.as_mut() else {
            return;
        };
        let f = self.m.force(self.v, self.fe, y);
        if let (Point::Step | Point::EventBefore(_), Some((t0, f0))) = (point, acc.last) {
            acc.sum += 0.5 * (f0 + f) * (t - t0);
        }
        acc.last = Some((t, f));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Category, ModelInfo};

    static TOY: ModelInfo = ModelInfo {
        id: "toy",
        name: "relaxing states",
        category: Category::Dynamic,
        provisional: false,
        params: &[],
    };

    /// n states relaxing to v/100 (ẋ_i = v − 100 x_i), each pulled by the one before it when
    /// `coupled` (− 10 x_(i−1)): a law that is not separable.
    struct Relax {
        n: usize,
        coupled: bool,
    }

    impl FrictionModel for Relax {
        fn info(&self) -> &'static ModelInfo {
            &TOY
        }
        fn force(&self, _v: f64, _fe: f64, x: &[f64]) -> f64 {
            x.iter().sum()
        }
        fn n_states(&self) -> usize {
            self.n
        }
        fn derivative(&self, v: f64, _fe: f64, x: &[f64], dx: &mut [f64]) {
            for i in 0..self.n {
                let pull = if self.coupled && i > 0 {
                    10.0 * x[i - 1]
                } else {
                    0.0
                };
                dx[i] = v - 100.0 * x[i] - pull;
            }
        }
        fn separable(&self) -> bool {
            !self.coupled
        }
    }

    /// 20 steps of 0.1 ms at v = 1 mm/s from rest, on `st`.
    fn run(st: &mut StateStepper, m: &Relax) -> Vec<f64> {
        let mut x = vec![0.0; m.n];
        for _ in 0..20 {
            st.step(m, 1e-3, 0.0, &mut x, 1e-4);
        }
        x
    }

    #[test]
    fn a_separable_law_never_allocates_the_dense_newton_matrix() {
        let m = Relax {
            n: 1000,
            coupled: false,
        };
        let mut st = StateStepper::new(m.n);
        let x = run(&mut st, &m);
        assert_eq!(st.jac.capacity(), 0, "n × n is 8 MB for 1000 states");
        // implicit Euler's own recurrence, x ← (x + dt v) / (1 + 100 dt), to Newton's tolerance
        let exact = (0..20).fold(0.0, |x, _| (x + 1e-4 * 1e-3) / (1.0 + 100.0 * 1e-4));
        for xi in x {
            assert!((xi - exact).abs() <= 1e-9 * exact, "{xi} against {exact}");
        }
    }

    #[test]
    fn a_dense_law_gets_its_newton_matrix_at_its_first_step_and_steps_as_before() {
        let m = Relax {
            n: 5,
            coupled: true,
        };
        let mut lazy = StateStepper::new(m.n);
        assert_eq!(lazy.jac.capacity(), 0);
        let x = run(&mut lazy, &m);
        assert_eq!(lazy.jac.len(), 25);
        // the same states as a stepper whose matrix was there from the start
        let mut eager = StateStepper::new(m.n);
        eager.jac = vec![0.0; 25];
        assert_eq!(x, run(&mut eager, &m));
        assert!(
            x[0] > 0.0 && x[1] < x[0],
            "the coupling pulls the second state down"
        );
    }
}
