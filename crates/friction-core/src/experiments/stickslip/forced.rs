//! A block on fixed ground pushed by an applied force u(t): m ẍ = u(t) − F, with F the model
//! output driven by v = ẋ and the external force F_e = u(t) (what the stick branch of a static
//! law holds against). No belt, no spring: the benchmark's closed loop with k = 0, v_b = 0 and
//! the time as a state (the solver integrates autonomous systems), so static laws that jump at
//! v = 0 get the same exact Filippov stick, dynamic models the same stiff integration of their
//! states. The block starts at rest, x = 0, model states virgin, u(0) = 0.
//!
//! Used by the pre-sliding view (a slow periodic force below breakaway, Canudas de Wit et al.
//! 1995, Fig. 2) and the breakaway view (ramps u = ρ t, the same paper's Fig. 4).

use super::closed_loop::{ClosedLoop, LoopState};
use super::drive::Drive;
pub use super::drive::Forcing;
use super::{method_at, resume_bounded, Bench, StickSlipError, Workspace, ATOL, MAX_STEPS, RTOL};
use crate::integrate::rodas::{Options, SolveError};
use crate::model::FrictionModel;

/// The time series of one forced run.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ForcedSeries {
    /// Time \[s\].
    pub t: Vec<f64>,
    /// Applied force u \[N\].
    pub u: Vec<f64>,
    /// Displacement x \[m\].
    pub x: Vec<f64>,
    /// Velocity v = ẋ \[m/s\].
    pub v: Vec<f64>,
    /// Friction force F \[N\] (the model output; the force on the block is −F).
    pub force: Vec<f64>,
    /// Accepted solver steps.
    pub steps: usize,
    /// Whether the run ended where x reached its stop ([`Push::x_stop`])
    /// rather than at its end time.
    pub stopped: bool,
}

/// The breakaway of one ramp u = ρ t. The thesis defines the breakaway force as "the maximum
/// friction force value" (\[T\] §5.1); under a ramp that is the friction peak
/// at which the block leaves the static state, so F_b is the largest local maximum of F(t) over
/// the run (a point after which F falls by more than 1e-6 relative), where it first occurs.
/// The largest F of the whole run would not do: once the block slides, a viscous term grows
/// past any stiction peak. A law without a peak (Coulomb, Dahl: F rises to a plateau) gets its
/// largest value instead, where F first comes within 1e-6 of it (Dahl's approach to F_C is
/// asymptotic: the exact maximum falls on any step of the plateau), flagged
/// [`Breakaway::no_peak`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Breakaway {
    /// Force rate ρ \[N/s\].
    pub rate: f64,
    /// Breakaway force F_b \[N\].
    pub force: f64,
    /// When F_b was reached \[s\].
    pub time: f64,
    /// Applied force then, ρ t \[N\] (above F_b by m ẍ).
    pub applied: f64,
    /// Displacement then \[m\].
    pub x: f64,
    /// Whether the block slid its stop distance before the ramp's end time.
    pub slid: bool,
    /// Whether F had no local maximum in the run (F_b is then its largest value).
    pub no_peak: bool,
}

/// Relative fall after a value that makes it a peak of F(t): above the solver's noise (rtol
/// 1e-8), far below any stiction peak.
const PEAK_FALL: f64 = 1e-6;

impl Breakaway {
    /// F_b of a ramp's series (NaN fields for an empty one).
    pub fn of(rate: f64, r: &ForcedSeries) -> Breakaway {
        let f = &r.force;
        let tol = |v: f64| PEAK_FALL * v.abs().max(f64::MIN_POSITIVE);
        // `top`: the highest point of the current rise (its first index on a plateau)
        let (mut top, mut rising) = (0, true);
        let mut peak: Option<usize> = None;
        for i in 0..f.len() {
            if f[i] > f[top] + tol(f[top]) {
                (top, rising) = (i, true);
            } else if f[i] < f[top] - tol(f[top]) {
                if rising && peak.is_none_or(|p| f[top] > f[p] + tol(f[p])) {
                    peak = Some(top);
                }
                (top, rising) = (i, false);
            }
        }
        let most = f.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let best = peak.or_else(|| f.iter().position(|&v| v >= most - tol(most)));
        let at = |v: &[f64]| best.map_or(f64::NAN, |i| v[i]);
        Breakaway {
            rate,
            force: at(f),
            time: at(&r.t),
            applied: at(&r.u),
            x: at(&r.x),
            slid: r.stopped,
            no_peak: peak.is_none(),
        }
    }
}

/// The breakaway points of one model, in rate order (stops at a failed ramp).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct BreakawayCurve {
    /// Index of the model among the selected ones.
    pub model: usize,
    /// One point per finished rate.
    pub points: Vec<Breakaway>,
}

/// What a forced run does: block mass, applied force, duration, step cap and optional stop,
/// by name because four numbers in a row are easy to swap.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Push {
    /// Block mass m \[kg\].
    pub m: f64,
    /// The applied force F_a(t).
    pub forcing: Forcing,
    /// End time \[s\].
    pub tend: f64,
    /// Largest step \[s\] (the output is sampled no coarser than this).
    pub hmax: f64,
    /// With `Some(d)` the run ends where the displacement x reaches d \[m\] (located as an event).
    pub x_stop: Option<f64>,
}

/// A forced run carried out in pieces (the page's frame budget), taking the same steps
/// however it is cut; the model and workspace must be the ones it started with.
#[derive(Debug, Clone)]
pub struct ForcedRun {
    st: LoopState,
    y: Vec<f64>,
    opts: Options,
    forcing: Forcing,
    tend: f64,
    x_stop: Option<f64>,
}

impl ForcedRun {
    /// Sets up the block at rest under `push.forcing` and starts the integrator in `ws`.
    pub fn start(
        ws: &mut Workspace,
        push: &Push,
        model: &dyn FrictionModel,
    ) -> Result<Self, StickSlipError> {
        let Push {
            m,
            forcing,
            tend,
            hmax,
            x_stop,
        } = *push;
        // the benchmark's plant without spring and belt (μ and g are not used by the loop)
        let plant = Bench {
            m,
            k: 0.0,
            vb: 0.0,
            mus: 0.0,
            muk: 0.0,
            g: 0.0,
            tend,
            // no spring (the applied force is the only one) and a block at rest
            spring: false,
            v0: 0.0,
        };
        let ns = model.n_states();
        let nsw = model.n_switches();
        let drive = Drive::Force(forcing, x_stop);
        let mut sys = ClosedLoop::new(model, &plant, drive);
        let h = drive.head();
        let mut y = vec![0.0; h + ns];
        model.initial_state(&mut y[h..]);
        let fe0 = forcing.at(0.0);
        // As on the belt, laws without switches of their own that jump at v = 0 get the exact
        // stick; here also those whose jump appears only once a state has moved (DV's
        // F_c(1 − e^{−σ|X|/F_c}) sgn v is continuous at X = 0): they are probed at the virgin
        // state and one state scale away from it. Without the stick such a law chatters across
        // v = 0 at every step once it comes to rest (DV under a sine took 5 M steps in 3 s).
        let moved: Vec<f64> = (0..ns).map(|i| y[h + i] + model.state_scale(i)).collect();
        sys.st.sticks = (ns == 0 || (nsw == 0 && model.n_discrete() == 0))
            && (sys.jumps_at(0.0, fe0, &y[h..]) || sys.jumps_at(0.0, fe0, &moved));
        if sys.st.sticks {
            sys.st.mode = sys.decide_at_rest(fe0, &y[h..]);
        }
        let opts = Options {
            rtol: ws.tolerance.unwrap_or(RTOL),
            atol: ws.tolerance.unwrap_or(ATOL),
            h0: 1e-6 * hmax.min(1.0),
            hmax,
            max_steps: MAX_STEPS,
            predictive: false,
        };
        ws.solver.set_method(method_at(model, opts.rtol));
        ws.solver
            .begin(&mut sys, 0.0, &mut y, tend, &opts)
            .map_err(StickSlipError::Solver)?;
        Ok(ForcedRun {
            st: sys.st,
            y,
            opts,
            forcing,
            tend,
            x_stop,
        })
    }

    /// Takes up to `max_steps` more accepted steps (fewer once a unit's work is done,
    /// `resume_bounded`); the finished series once the end time (or the stop) is
    /// reached.
    pub fn advance(
        &mut self,
        ws: &mut Workspace,
        model: &dyn FrictionModel,
        max_steps: usize,
    ) -> Result<Option<ForcedSeries>, StickSlipError> {
        let stand_in = LoopState::empty(&self.st.b);
        let lent = std::mem::replace(&mut self.st, stand_in);
        let mut sys = ClosedLoop { model, st: lent };
        let done = resume_bounded(&mut ws.solver, &mut sys, &mut self.y, &self.opts, max_steps);
        // the series is complete between pieces (the page reads it, `partial` takes it)
        sys.flush();
        self.st = sys.st;
        let done = match done {
            // The solver's last step before t_end may leave a gap below its smallest step
            // (1e-14 |t|) but above its end test (1e-12 h) when an event put t off the hmax
            // grid (a triangle's corners): the run has reached its end up to rounding.
            Err(SolveError::StepTooSmall { t }) if self.tend - t <= 1e-12 * self.tend => true,
            other => other.map_err(StickSlipError::Solver)?,
        };
        if !done {
            return Ok(None);
        }
        Ok(Some(self.take_output(ws)))
    }

    /// What was computed before [`ForcedRun::advance`] failed; `None` with fewer than two
    /// points.
    pub fn partial(&mut self, ws: &Workspace) -> Option<ForcedSeries> {
        let out = self.take_output(ws);
        (out.t.len() >= 2).then_some(out)
    }

    /// A copy of the series so far, the run left as it is: what a caller that pauses the run
    /// shows (the CLI and the page at their budgets, through `Job::hold`); `None` with fewer
    /// than two points. A copy, not a loan: a forced run's series is short next to a 40 s
    /// stick-slip run's, and this is taken once per stop.
    pub fn snapshot(&self, ws: &Workspace) -> Option<ForcedSeries> {
        let out = &self.st.out;
        (out.t.len() >= 2).then(|| ForcedSeries {
            u: out.t.iter().map(|&t| self.forcing.at(t)).collect(),
            t: out.t.clone(),
            x: out.x.clone(),
            v: out.xdot.clone(),
            force: out.force.clone(),
            steps: ws.solver.stats().steps,
            stopped: false,
        })
    }

    fn take_output(&mut self, ws: &Workspace) -> ForcedSeries {
        // ended by the stop event, not by the end time (nor by a failure: see `partial`)
        let x_end = self.st.out.x.last().copied().unwrap_or(0.0);
        let stopped = self.time() < self.tend && self.x_stop.is_some_and(|d| x_end >= 0.999 * d);
        let run = std::mem::take(&mut self.st.out);
        ForcedSeries {
            u: run.t.iter().map(|&t| self.forcing.at(t)).collect(),
            t: run.t,
            x: run.x,
            v: run.xdot,
            force: run.force,
            steps: ws.solver.stats().steps,
            stopped,
        }
    }

    /// Simulated time reached so far \[s\].
    pub fn time(&self) -> f64 {
        self.st.out.t.last().copied().unwrap_or(0.0)
    }
}

/// Runs a forced block to its end in one call (see [`ForcedRun::start`]).
pub fn run_forced(push: &Push, model: &dyn FrictionModel) -> Result<ForcedSeries, StickSlipError> {
    let mut ws = Workspace::default();
    let mut run = ForcedRun::start(&mut ws, push, model)?;
    loop {
        if let Some(out) = run.advance(&mut ws, model, usize::MAX)? {
            return Ok(out);
        }
    }
}
