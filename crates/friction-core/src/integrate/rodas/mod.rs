//! Adaptive stiff integrator for closed-loop runs: Rodas4 (Hairer & Wanner) or Rodas5P
//! (Steinebach) with error control and event location.
//!
//! Why Rodas4: the bristle models are stiff (eigenvalues down to −5e4 s⁻¹ at σ0 = 1e5) and the
//! benchmark asks for rtol = 1e-8, so the method must be L-stable (no ringing of the fast modes)
//! and of high enough order that tight tolerances stay cheap. Rodas4 is stiffly accurate,
//! L-stable, order 4 with an embedded order-3 estimate, and needs one LU per step and no Newton
//! iteration. The systems here are tiny (3–5 states, ~100 for GMS), so a dense LU is cheap.
//!
//! Switches (Karnopp window, reset-integrator saturation, bristle re-bonding, …) make the
//! right-hand side non-smooth. A step that straddles a switch would be rejected many times, so
//! the [`System`] exposes switching functions g_i(y): after every accepted step their signs are
//! compared, the earliest root is located on the cubic Hermite interpolant, the integrator then
//! steps exactly to that time and calls [`System::on_event`], which may change the state
//! (projection, re-bonding) or a discrete mode of the system.
//!
//! All scratch lives in [`Rodas`] and is sized once per dimension, so stepping never allocates.
//!
//! This file holds the public API and the step-size loop; the coefficients are in `tableau`,
//! one Rosenbrock step (Jacobian, factorisation, stages, error estimate) in `step`, event
//! location and switching in `events`, Rodas5P's error power in `root5`, and the dense linear
//! algebra, shared with [`crate::integrate::implicit_euler`], in `integrate/linalg.rs`.
//!
//! Why this file is long (over 600 lines): the step-size loop, the dense output and the resumable
//! API share the controller's state; one step, events and the tableaux are already files of their
//! own.

// Index loops mirror the tableau and LU formulas; `!(x > 0)` comparisons are deliberate so that
// NaN takes the failure branch.
#![allow(clippy::needless_range_loop, clippy::neg_cmp_op_on_partial_ord)]

mod events;
mod root5;
mod step;
mod tableau;

pub use events::{EventAction, Point};

use events::sgn;
pub(crate) use step::ARROW_MIN;
use tableau::{Tableau, MAX_STAGES, RODAS4, RODAS5P};

/// A first-order autonomous ODE system y' = f(y) with optional switching functions.
pub trait System {
    /// Number of continuous states.
    fn dim(&self) -> usize;

    /// Writes f(y) into `dy`.
    fn rhs(&self, y: &[f64], dy: &mut [f64]);

    /// Writes the Jacobian ∂f/∂y row-major into `jac` (dim × dim) and returns `true`, or returns
    /// `false` to let the integrator use finite differences.
    fn jacobian(&self, _y: &[f64], _jac: &mut [f64]) -> bool {
        false
    }

    /// Typical magnitude of state `i`: it sets the absolute tolerance (atol × scale) and the
    /// finite-difference increment, so states of very different size (x ~ 1 m, bristle
    /// deflection ~ 1e-5 m) are controlled to the same relative accuracy.
    fn scale(&self, _i: usize) -> f64 {
        1.0
    }

    /// `true` when [`System::scale_at`] depends on the state: the integrator then takes the
    /// scales afresh at the start of every step (from the step's initial state) instead of
    /// once per run.
    fn scales_vary(&self) -> bool {
        false
    }

    /// [`System::scale`] of state `i` at state `y`, for a system whose [`scales_vary`]
    /// (`System::scales_vary`): what an error in state `i` costs can depend on where the
    /// solution is (a creeping block's velocity before breakaway).
    ///
    /// [`scales_vary`]: System::scales_vary
    fn scale_at(&self, i: usize, _y: &[f64]) -> f64 {
        self.scale(i)
    }

    /// [`System::scale_at`] of every continuous state at once (`scales` holds one per state),
    /// for a system that can share the work between them (what the state says about its
    /// regime is read once per step, not once per state).
    fn scales_at(&self, y: &[f64], scales: &mut [f64]) {
        for (i, sc) in scales.iter_mut().enumerate() {
            *sc = self.scale_at(i, y);
        }
    }

    /// The value state `i` is measured from by the relative tolerance: its error is weighted
    /// by atol × [`System::scale`] + rtol × |y_i − origin|. 0 (plain |y_i|) unless the state
    /// moves about a known offset: the block's ẋ about the belt speed, where what the friction
    /// law sees, and what its instabilities amplify, is the relative velocity ẋ − v_b.
    fn rtol_origin(&self, _i: usize) -> f64 {
        0.0
    }

    /// Number of trailing states that are discrete (modes, counters): their derivative is zero
    /// and only [`System::on_event`] changes them, so they are kept out of the linear algebra and
    /// the error norm.
    fn n_frozen(&self) -> usize {
        0
    }

    /// `Some(p)` when the Jacobian of the continuous states is arrow-shaped: states from `p` on
    /// depend only on themselves and the first `p` states. The integrator then factors a p × p
    /// Schur complement instead of the whole matrix (GMS with 100 elements stays cheap).
    fn dense_head(&self) -> Option<usize> {
        None
    }

    /// Number of switching functions.
    fn n_events(&self) -> usize {
        0
    }

    /// Writes the switching functions g_i(y) into `g`; an event happens where one changes sign.
    fn events(&self, _y: &[f64], _g: &mut [f64]) {}

    /// Called at a located event `index` at time `t`, with `y` the state there. `rising` is
    /// `true` when g went from negative to positive. The system may change `y` or its own mode.
    fn on_event(&mut self, _t: f64, _index: usize, _rising: bool, _y: &mut [f64]) -> EventAction {
        EventAction::Continue
    }

    /// Called at the start, after every accepted step and on both sides of every event, so the
    /// system can record output (it knows its own mode, which the state alone does not tell).
    fn observe(&mut self, _t: f64, _y: &[f64], _point: Point) {}
}

/// A system seen through `dyn System`, so that with the `dyn-solver` feature the step code is
/// compiled once for all system types (the page's wasm size) instead of once per type; the
/// arithmetic is the same, only the calls into the system are indirect.
#[cfg(feature = "dyn-solver")]
struct Dyn<'a, S: ?Sized>(&'a mut S);

/// [`Dyn`] for the shared borrow of [`Rodas::integrate_fixed`].
#[cfg(feature = "dyn-solver")]
struct DynRef<'a, S: ?Sized>(&'a S);

#[cfg(feature = "dyn-solver")]
macro_rules! forward_system {
    ($($on_event:tt)*) => {
        fn dim(&self) -> usize {
            self.0.dim()
        }
        fn rhs(&self, y: &[f64], dy: &mut [f64]) {
            self.0.rhs(y, dy)
        }
        fn jacobian(&self, y: &[f64], jac: &mut [f64]) -> bool {
            self.0.jacobian(y, jac)
        }
        fn scale(&self, i: usize) -> f64 {
            self.0.scale(i)
        }
        fn scales_vary(&self) -> bool {
            self.0.scales_vary()
        }
        fn scale_at(&self, i: usize, y: &[f64]) -> f64 {
            self.0.scale_at(i, y)
        }
        fn scales_at(&self, y: &[f64], scales: &mut [f64]) {
            self.0.scales_at(y, scales)
        }
        fn rtol_origin(&self, i: usize) -> f64 {
            self.0.rtol_origin(i)
        }
        fn n_frozen(&self) -> usize {
            self.0.n_frozen()
        }
        fn dense_head(&self) -> Option<usize> {
            self.0.dense_head()
        }
        fn n_events(&self) -> usize {
            self.0.n_events()
        }
        fn events(&self, y: &[f64], g: &mut [f64]) {
            self.0.events(y, g)
        }
        $($on_event)*
    };
}

#[cfg(feature = "dyn-solver")]
impl<S: System + ?Sized> System for Dyn<'_, S> {
    forward_system! {
        fn on_event(&mut self, t: f64, index: usize, rising: bool, y: &mut [f64]) -> EventAction {
            self.0.on_event(t, index, rising, y)
        }
        fn observe(&mut self, t: f64, y: &[f64], point: Point) {
            self.0.observe(t, y, point)
        }
    }
}

/// Never called with a `&mut` system: [`Rodas::integrate_fixed`] fires no events.
#[cfg(feature = "dyn-solver")]
impl<S: System + ?Sized> System for DynRef<'_, S> {
    forward_system! {}
}

/// Tolerances and limits.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Options {
    /// Relative tolerance.
    pub rtol: f64,
    /// Absolute tolerance (multiplied by [`System::scale`] per state).
    pub atol: f64,
    /// Initial step \[s\]; 0 picks one from the tolerances.
    pub h0: f64,
    /// Largest step \[s\] (also bounds how far apart output points can be).
    pub hmax: f64,
    /// Maximum number of step attempts before giving up.
    pub max_steps: usize,
    /// Gustafsson's predictive step-size control (Hairer & Wanner's RODAS with PRED = 1): after
    /// an accepted step the next step is the smaller of the plain 0.9/err^q proposal and one
    /// extrapolated from the last two errors. Where the error grows step after step (a
    /// breakaway out of stick, v growing exponentially) the plain control lags and every other
    /// step is rejected: elasto-plastic on the stick-slip benchmark at tol 1e-6 had 171
    /// rejections in 638 steps, 67 with it, and 7 % fewer right-hand sides.
    pub predictive: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            rtol: 1e-8,
            atol: 1e-8,
            h0: 0.0,
            hmax: f64::INFINITY,
            max_steps: 2_000_000,
            predictive: false,
        }
    }
}

/// Work counters of one integration.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Stats {
    /// Accepted steps.
    pub steps: usize,
    /// Rejected steps.
    pub rejected: usize,
    /// Right-hand-side evaluations (finite-difference Jacobians included).
    pub fevals: usize,
    /// Jacobian evaluations.
    pub jevals: usize,
    /// LU decompositions.
    pub lus: usize,
    /// Located events.
    pub events: usize,
}

/// Why an integration stopped early.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum SolveError {
    /// The step size fell below the resolution of the time axis at time `t`.
    StepTooSmall {
        /// Time reached.
        t: f64,
    },
    /// More than `Options::max_steps` step attempts.
    TooManySteps {
        /// Time reached.
        t: f64,
    },
    /// Invalid options or dimensions.
    BadInput(&'static str),
}

impl std::fmt::Display for SolveError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SolveError::StepTooSmall { t } => write!(f, "step size underflow at t = {t} s"),
            SolveError::TooManySteps { t } => write!(f, "too many steps, stopped at t = {t} s"),
            SolveError::BadInput(s) => write!(f, "bad solver input: {s}"),
        }
    }
}

impl std::error::Error for SolveError {}

/// Which Rosenbrock method [`Rodas`] runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Method {
    /// Rodas4 (Hairer & Wanner): 6 stages, order 4 (3 embedded). The default.
    #[default]
    Rodas4,
    /// Rodas5P (Steinebach 2023): 8 stages, order 5 (4 embedded), stiffly accurate and
    /// L-stable like Rodas4. At rtol = 1e-8 its higher order needs far fewer steps to resolve
    /// the lightly damped bristle ringing, which outweighs the two extra stages.
    Rodas5P,
}

impl Method {
    /// Stages of one step (right-hand-side evaluations and solves): what a step costs, for the
    /// work meter and for sizing units of work.
    pub fn stages(self) -> usize {
        self.tableau().s
    }

    fn tableau(self) -> &'static Tableau {
        match self {
            Method::Rodas4 => &RODAS4,
            Method::Rodas5P => &RODAS5P,
        }
    }
}

/// The Rosenbrock integrator ([`Method`]) and its scratch (reuse one value across runs to avoid allocation).
#[derive(Debug, Default, Clone)]
pub struct Rodas {
    /// Full state length.
    n: usize,
    /// Integrated (continuous) states: the leading `nc`; the rest are frozen.
    nc: usize,
    /// Dense head of an arrow-structured Jacobian (0 = dense).
    p: usize,
    jac: Vec<f64>,
    lu: Vec<f64>,
    piv: Vec<usize>,
    dinv: Vec<f64>,
    /// Explicit inverse of the factored matrix (dense n ≤ [`step::SMALL`] or Schur head): a solve is
    /// then one small mat-vec, which beats pivoted substitution several times over at n = 3.
    inv: Vec<f64>,
    /// `true` when `inv` is in use.
    use_inv: bool,
    /// System::scale(i), cached because the scale never changes during a run (or, when
    /// [`System::scales_vary`], taken afresh at the start of each step).
    scales: Vec<f64>,
    /// [`System::scales_vary`] of the system being integrated.
    scales_vary: bool,
    /// System::rtol_origin(i), cached likewise.
    origins: Vec<f64>,
    k: Vec<f64>,
    f0: Vec<f64>,
    f1: Vec<f64>,
    ytmp: Vec<f64>,
    ynew: Vec<f64>,
    yev: Vec<f64>,
    /// The interpolant's event point, kept as the fallback landing.
    yint: Vec<f64>,
    fev: Vec<f64>,
    g0: Vec<f64>,
    g1: Vec<f64>,
    gtmp: Vec<f64>,
    /// Switching functions at the step's start and at the earliest root found so far
    /// (event location, `events.rs`).
    gzero: Vec<f64>,
    gbest: Vec<f64>,
    /// Crossed switches and their linear root estimates (event location).
    order: Vec<(f64, usize)>,
    sign: Vec<i8>,
    stats: Stats,
    method: Method,
    /// Where a paused integration stands.
    progress: Progress,
}

/// The loop variables of an integration between [`Rodas::resume`] calls.
#[derive(Debug, Default, Clone, Copy)]
struct Progress {
    t: f64,
    tend: f64,
    h: f64,
    hmax: f64,
    restart: bool,
    reject_last: bool,
    attempts: usize,
    /// Size of the last accepted step and its error (at least 1e-2) to the power q, for the
    /// predictive control (hacc = 0: none since the start or the last event).
    hacc: f64,
    erracc_q: f64,
}

impl Rodas {
    /// An integrator with empty scratch (sized on first use), running Rodas4.
    pub fn new() -> Self {
        Self::default()
    }

    /// An integrator running `method`.
    pub fn with_method(method: Method) -> Self {
        Rodas {
            method,
            ..Self::default()
        }
    }

    /// Switches the method for the next integration (scratch is kept).
    pub fn set_method(&mut self, method: Method) {
        self.method = method;
    }

    /// The method in use.
    pub fn method(&self) -> Method {
        self.method
    }

    /// The coefficients of the method in use.
    #[inline]
    fn tab(&self) -> &'static Tableau {
        self.method.tableau()
    }

    /// Sizes the scratch for `n` states (the leading `nc` continuous, arrow head `p`, 0 = dense)
    /// and `ne` switching functions; reallocates only when a size changed, so that a reused
    /// integrator does not allocate.
    fn resize(&mut self, n: usize, nc: usize, p: usize, ne: usize) {
        self.p = p;
        if self.n != n || self.nc != nc {
            self.n = n;
            self.nc = nc;
            self.jac = vec![0.0; nc * nc];
            self.lu = vec![0.0; nc * nc];
            self.piv = vec![0; nc];
            self.dinv = vec![0.0; nc];
            self.inv = vec![0.0; nc * nc];
            self.scales = vec![0.0; nc];
            self.origins = vec![0.0; nc];
            self.k = vec![0.0; nc * MAX_STAGES];
            self.f0 = vec![0.0; n];
            self.f1 = vec![0.0; n];
            self.ytmp = vec![0.0; n];
            self.ynew = vec![0.0; n];
            self.yev = vec![0.0; n];
            self.yint = vec![0.0; n];
            self.fev = vec![0.0; n];
        }
        if self.g0.len() != ne {
            self.g0 = vec![0.0; ne];
            self.g1 = vec![0.0; ne];
            self.gtmp = vec![0.0; ne];
            self.gzero = vec![0.0; ne];
            self.gbest = vec![0.0; ne];
            self.order = Vec::with_capacity(ne);
            self.sign = vec![0; ne];
        }
    }

    /// Prepares a run of `sys`: picks the Jacobian layout (dense or arrow), sizes the scratch
    /// and caches the state scales.
    fn setup<S: System + ?Sized>(&mut self, sys: &S, n: usize, ne: usize) {
        let nc = n - sys.n_frozen().min(n - 1);
        // Up to ARROW_MIN states the dense fixed-size path beats the Schur complement.
        let p = sys
            .dense_head()
            .filter(|&p| p < nc && nc > ARROW_MIN)
            .unwrap_or(0);
        self.resize(n, nc, p, ne);
        for (i, sc) in self.scales.iter_mut().enumerate() {
            *sc = sys.scale(i);
        }
        self.scales_vary = sys.scales_vary();
        for (i, o) in self.origins.iter_mut().enumerate() {
            *o = sys.rtol_origin(i);
        }
    }

    /// Integrates with fixed steps (no error control, no events); for order tests.
    pub fn integrate_fixed<S: System + ?Sized>(
        &mut self,
        sys: &S,
        y: &mut [f64],
        t_span: f64,
        n_steps: usize,
    ) -> Stats {
        #[cfg(feature = "dyn-solver")]
        return self.integrate_fixed_impl::<dyn System + '_>(&DynRef(sys), y, t_span, n_steps);
        #[cfg(not(feature = "dyn-solver"))]
        self.integrate_fixed_impl(sys, y, t_span, n_steps)
    }

    fn integrate_fixed_impl<S: System + ?Sized>(
        &mut self,
        sys: &S,
        y: &mut [f64],
        t_span: f64,
        n_steps: usize,
    ) -> Stats {
        let n = sys.dim();
        self.setup(sys, n, 0);
        self.stats = Stats::default();
        let h = t_span / n_steps.max(1) as f64;
        let opts = Options::default();
        for _ in 0..n_steps {
            sys.rhs(y, &mut self.f0);
            self.stats.fevals += 1;
            self.jacobian(sys, y);
            self.decompose(h);
            self.attempt(sys, y, h, &opts);
            y.copy_from_slice(&self.ynew);
            self.stats.steps += 1;
        }
        self.stats
    }

    /// Integrates `sys` from `t0` to `tend`, overwriting `y`; calls [`System::observe`] at the
    /// start, after every accepted step and on both sides of every event.
    pub fn integrate<S>(
        &mut self,
        sys: &mut S,
        t0: f64,
        y: &mut [f64],
        tend: f64,
        opts: &Options,
    ) -> Result<Stats, SolveError>
    where
        S: System + ?Sized,
    {
        self.begin(sys, t0, y, tend, opts)?;
        while !self.resume(sys, y, opts, usize::MAX)? {}
        Ok(self.stats)
    }

    /// Starts an integration that [`Rodas::resume`] carries out in pieces, so that a caller
    /// with a frame budget (the page) can pause it; the steps taken are the same as
    /// [`Rodas::integrate`]'s, however it is cut.
    pub fn begin<S>(
        &mut self,
        sys: &mut S,
        t0: f64,
        y: &mut [f64],
        tend: f64,
        opts: &Options,
    ) -> Result<(), SolveError>
    where
        S: System + ?Sized,
    {
        #[cfg(feature = "dyn-solver")]
        return self.begin_impl::<dyn System + '_>(&mut Dyn(sys), t0, y, tend, opts);
        #[cfg(not(feature = "dyn-solver"))]
        self.begin_impl(sys, t0, y, tend, opts)
    }

    fn begin_impl<S>(
        &mut self,
        sys: &mut S,
        t0: f64,
        y: &mut [f64],
        tend: f64,
        opts: &Options,
    ) -> Result<(), SolveError>
    where
        S: System + ?Sized,
    {
        let n = sys.dim();
        if y.len() != n || n == 0 {
            return Err(SolveError::BadInput(
                "state length differs from System::dim",
            ));
        }
        if !(tend > t0) || !(opts.rtol > 0.0) || !(opts.atol > 0.0) {
            return Err(SolveError::BadInput(
                "need tend > t0 and positive tolerances",
            ));
        }
        let ne = sys.n_events();
        if sys.n_frozen() >= n {
            return Err(SolveError::BadInput("no continuous state"));
        }
        self.setup(sys, n, ne);
        self.stats = Stats::default();
        let hmax = opts.hmax.min(tend - t0);
        let h = if opts.h0 > 0.0 {
            opts.h0
        } else {
            1e-6 * (tend - t0)
        }
        .min(hmax);
        sys.observe(t0, y, Point::Start);
        self.progress = Progress {
            t: t0,
            tend,
            h,
            hmax,
            restart: true,
            reject_last: false,
            attempts: 0,
            hacc: 0.0,
            erracc_q: 0.0,
        };
        Ok(())
    }

    /// Continues the integration started by [`Rodas::begin`] for at most `max_steps` accepted
    /// steps; true when it has finished (reached its end or an event stopped it). `sys`, `y`
    /// and `opts` must be the ones it started with.
    pub fn resume<S>(
        &mut self,
        sys: &mut S,
        y: &mut [f64],
        opts: &Options,
        max_steps: usize,
    ) -> Result<bool, SolveError>
    where
        S: System + ?Sized,
    {
        #[cfg(feature = "dyn-solver")]
        return self.resume_impl::<dyn System + '_>(&mut Dyn(sys), y, opts, max_steps);
        #[cfg(not(feature = "dyn-solver"))]
        self.resume_impl(sys, y, opts, max_steps)
    }

    fn resume_impl<S>(
        &mut self,
        sys: &mut S,
        y: &mut [f64],
        opts: &Options,
        max_steps: usize,
    ) -> Result<bool, SolveError>
    where
        S: System + ?Sized,
    {
        let Progress {
            mut t,
            tend,
            mut h,
            hmax,
            mut restart,
            mut reject_last,
            mut attempts,
            mut hacc,
            mut erracc_q,
        } = self.progress;
        if !(t < tend) {
            return Ok(true);
        }
        let ne = self.sign.len();
        let steps0 = self.stats.steps;
        while t < tend {
            if self.stats.steps - steps0 >= max_steps {
                self.progress = Progress {
                    t,
                    tend,
                    h,
                    hmax,
                    restart,
                    reject_last,
                    attempts,
                    hacc,
                    erracc_q,
                };
                return Ok(false);
            }
            if restart {
                sys.events(y, &mut self.g0);
                for (s, g) in self.sign.iter_mut().zip(&self.g0) {
                    *s = sgn(*g);
                }
                restart = false;
            }
            sys.rhs(y, &mut self.f0);
            self.f0[self.nc..].fill(0.0);
            self.stats.fevals += 1;
            if self.scales_vary {
                sys.scales_at(y, &mut self.scales);
            }
            self.jacobian(sys, y);
            // Whether a landing on an event from this point already failed its error test.
            let mut landing_failed = false;
            // Repeat until accepted.
            loop {
                let last = t + h >= tend || tend - (t + h) < 1e-12 * h;
                if last {
                    h = tend - t;
                }
                attempts += 1;
                if attempts > opts.max_steps {
                    return Err(SolveError::TooManySteps { t });
                }
                if h < 1e-14 * t.abs().max(1e-3) {
                    return Err(SolveError::StepTooSmall { t });
                }
                let err = if self.decompose(h) {
                    self.attempt(sys, y, h, opts)
                } else {
                    f64::INFINITY
                };
                // One power per attempt: the predictive factor reuses err^q and the last
                // accepted step's (powf was 6 % of a Rodas5P step on the benchmark).
                let q = self.tab().q;
                let err_q = err_pow(q, err);
                let mut fac = factor_of(err, err_q);
                if err <= 1.0 {
                    if opts.predictive {
                        if hacc > 0.0 {
                            fac = fac.min(predicted_factor(h / hacc, erracc_q, err_q));
                        }
                        hacc = h;
                        erracc_q = if err >= 1e-2 { err_q } else { err_pow(q, 1e-2) };
                    }
                    let hnew = if reject_last { h.min(h * fac) } else { h * fac };
                    reject_last = false;
                    self.stats.steps += 1;
                    let t1 = if last { tend } else { t + h };
                    // Events between t and t1?
                    if ne > 0 {
                        sys.events(&self.ynew, &mut self.g1);
                        let mut first: Option<(usize, f64)> = None;
                        let mut crossed = false;
                        for i in 0..ne {
                            let s1 = sgn(self.g1[i]);
                            if self.sign[i] != 0 && s1 != 0 && s1 != self.sign[i] {
                                crossed = true;
                            }
                        }
                        if crossed {
                            sys.rhs(&self.ynew, &mut self.f1);
                            self.f1[self.nc..].fill(0.0);
                            self.stats.fevals += 1;
                            first = self.locate(sys, y, h);
                        }
                        if let Some((idx, th)) = first {
                            // Step exactly to the event with a fresh step of size th·h and
                            // refine its time from that accurate landing. Only if no accurate
                            // landing reaches the far side is the interpolant point (on the far
                            // side by construction, but only cubic-accurate) used instead.
                            let he0 = (th * h).max(1e-15 * t.abs().max(1.0));
                            self.yint.copy_from_slice(&self.yev);
                            let ok = self.decompose(he0);
                            let err_e = if ok {
                                self.attempt(sys, y, he0, opts)
                            } else {
                                f64::INFINITY
                            };
                            let landing_ok = err_e <= 1.0;
                            if !landing_ok && !landing_failed {
                                // The landing fails its own error test although the longer
                                // step passed: that step's estimate was blind to a feature it
                                // did not resolve (GMS slipping into a stick crosses the
                                // Stribeck peak, |v| < v_S = 1e-3 m/s, in a few ms; a 58 ms
                                // step passed with err 0.74, its landing at 0.84 of it had
                                // err 7e6 and v = +1.9e-3 m/s, still "on the far side"), and
                                // the switch would be decided on a wrong state. Reject the
                                // step and retry shorter, once; a second failure lands on the
                                // interpolant as below.
                                landing_failed = true;
                                self.stats.steps -= 1;
                                self.stats.rejected += 1;
                                h = he0 * step_factor(self.tab().q, err_e);
                                reject_last = true;
                                continue;
                            }
                            let (mut he, mut far_ok) = if landing_ok {
                                self.refine_event(sys, y, idx, he0, h, opts)
                            } else {
                                (he0, false)
                            };
                            if !far_ok {
                                self.ynew.copy_from_slice(&self.yint);
                                (he, far_ok) = self.refine_event(sys, y, idx, he0, h, opts);
                                if !far_ok {
                                    self.ynew.copy_from_slice(&self.yint);
                                    he = he0;
                                }
                            }
                            y.copy_from_slice(&self.ynew);
                            t += he;
                            if self.fire_events(sys, t, y, idx) == EventAction::Stop {
                                {
                                    self.progress.t = t;
                                    self.progress.tend = t;
                                    return Ok(true);
                                }
                            }
                            h = hnew.min(h).min(hmax).max(1e-12);
                            // the next step starts afresh past a switch
                            hacc = 0.0;
                            break;
                        }
                        for i in 0..ne {
                            let s1 = sgn(self.g1[i]);
                            if s1 != 0 {
                                self.sign[i] = s1;
                            }
                        }
                    }
                    y.copy_from_slice(&self.ynew);
                    t = t1;
                    sys.observe(t, y, Point::Step);
                    h = hnew.min(hmax);
                    break;
                } else {
                    self.stats.rejected += 1;
                    let landing = if reject_last {
                        self.land_after_reject(sys, y, h, opts)
                    } else {
                        None
                    };
                    match landing {
                        Some((he, idx)) => {
                            y.copy_from_slice(&self.ynew);
                            t += he;
                            self.stats.steps += 1;
                            if self.fire_events(sys, t, y, idx) == EventAction::Stop {
                                {
                                    self.progress.t = t;
                                    self.progress.tend = t;
                                    return Ok(true);
                                }
                            }
                            reject_last = false;
                            h = h.min(hmax);
                            hacc = 0.0;
                            break;
                        }
                        None => {
                            h *= if reject_last { fac.min(0.1) } else { fac };
                            reject_last = true;
                        }
                    }
                }
            }
        }
        self.progress.t = t;
        Ok(true)
    }

    /// The side (−1, 0, +1) of each event function as the last run left it armed: a crossing
    /// the run located but did not fire (its landing fell within round-off of the run's end)
    /// still shows the side it came from.
    pub fn event_sides(&self) -> &[i8] {
        &self.sign
    }

    /// Counters of the current or last integration.
    pub fn stats(&self) -> Stats {
        self.stats
    }
}

/// Gustafsson's step-size factor after an accepted step whose error to the power q is `err_q`,
/// `ratio` times as long as the accepted step before it, whose error to the power q was
/// `erracc_q`: 0.9 · ratio · erracc_q / err_q² (= 0.9 · ratio · (erracc / err²)^q), kept within
/// [0.2, 6] like [`step_factor`].
fn predicted_factor(ratio: f64, erracc_q: f64, err_q: f64) -> f64 {
    let f = 0.9 * ratio * erracc_q / (err_q * err_q);
    if f.is_finite() {
        f.clamp(0.2, 6.0)
    } else {
        6.0
    }
}

/// err^q for an error `err` in units of the tolerance, clamped below at 1e-10 (the factor's cap
/// applies there anyway); q = 1/4 (Rodas4) by two square roots, q = 1/5 (Rodas5P) by
/// [`root5::fifth_root`] (`powf` was 5–6 % of an elasto-plastic stick-slip run).
#[inline]
fn err_pow(q: f64, err: f64) -> f64 {
    let e = err.max(1e-10);
    if q == 0.25 {
        e.sqrt().sqrt()
    } else if q == 0.2 {
        root5::fifth_root(e)
    } else {
        e.powf(q)
    }
}

/// [`step_factor`] from err and err^q already formed.
#[inline]
fn factor_of(err: f64, err_q: f64) -> f64 {
    if err.is_finite() {
        (0.9 / err_q).clamp(0.2, 6.0)
    } else {
        0.1
    }
}

/// The step-size factor after an attempt with error `err` (in units of the tolerance) of a
/// method whose error exponent is `q` (1/(order of the embedded estimate + 1)): 0.9/err^q,
/// kept within [0.2, 6]; 0.1 after a failed attempt (non-finite error).
fn step_factor(q: f64, err: f64) -> f64 {
    factor_of(err, err_pow(q, err))
}
