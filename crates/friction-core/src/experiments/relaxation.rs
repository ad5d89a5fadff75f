//! Fig. 4 of the letter: relaxation of the GM models of order 1..n at constant sliding velocity.

use crate::params::ParamSpec;

/// Constant sliding velocity of the relaxation experiment.
pub const VREL: ParamSpec = ParamSpec {
    key: "vrel",
    name: "Sliding velocity",
    symbol: "v",
    unit: "m/s",
    default: 0.01,
    min: -10.0,
    max: 10.0,
    log: false,
};
/// End time; ≥ 30 s shows the 6.45 s slow mode of the τ1 = 1 s branch settle (slow eigenvalue
/// −k̄0/(τ1(k̄0 + k̄1)), not −1/τ1).
pub const TEND: ParamSpec = ParamSpec {
    key: "tend",
    name: "End time",
    symbol: "t_end",
    unit: "s",
    default: 30.0,
    min: 1e-4,
    max: 1e4,
    log: true,
};

/// Default relaxation time \[s\] of branch i (0-based) of n in Fig. 4: 1, 0.1, 0.01, … s.
///
/// Decades reach τ's minimum (1e-7 s) at the eighth branch; beyond n = 8 the n times are
/// spread evenly in log between 1 and 1e-7 s instead, so that every legal n has valid,
/// distinct defaults while n ≤ 8 keep their decades (n = 1..3 are the letter's).
pub fn default_tau(i: usize, n: usize) -> f64 {
    const DECADES: usize = 7;
    if n <= DECADES + 1 {
        10f64.powi(-(i as i32))
    } else {
        // the clamp only absorbs a pow() that rounds the last time below the minimum
        10f64
            .powf(-(i as f64) * DECADES as f64 / (n - 1) as f64)
            .max(crate::frbd::spec::TAU1.min)
    }
}

use crate::frbd::Frbd;
use crate::integrate::linear::{LinearModel, Sdirk2};

/// Number of log-spaced output times by default.
pub const DEFAULT_POINTS: usize = 400;
/// First output time as a fraction of the end time (six decades).
pub const T_START_FRACTION: f64 = 1e-6;
/// Most steps per curve: stiff parameter sets stay stable beyond it, just less accurate.
pub const MAX_STEPS: usize = 400_000;

/// What to run: one or more models (e.g. GM orders 1, 2, 3) at one constant velocity.
#[derive(Debug, Clone, PartialEq)]
pub struct RelaxationConfig {
    /// (legend label, model) pairs.
    pub models: Vec<(String, Frbd)>,
    /// Constant sliding velocity \[m/s\].
    pub v: f64,
    /// End time \[s\].
    pub t_end: f64,
    /// Number of log-spaced samples in \[t_end·1e-6, t_end\].
    pub points: usize,
}

/// One relaxation curve F(t) from rest.
#[derive(Debug, Clone, PartialEq)]
pub struct Curve {
    /// Legend label, e.g. `"n = 2"`.
    pub label: String,
    /// Log-spaced times \[s\].
    pub t: Vec<f64>,
    /// Friction force F(t) \[N\].
    pub f: Vec<f64>,
    /// Steady-state force p·sgn_ε(v)·μ(v) \[N\] (eq. 14, the same for every n).
    pub steady: f64,
}

/// Log-spaced times from `t_end·1e-6` to `t_end`.
pub fn time_grid(t_end: f64, points: usize) -> Vec<f64> {
    let n = points.max(2);
    let t0 = t_end * T_START_FRACTION;
    (0..n)
        .map(|i| t0 * (t_end / t0).powf(i as f64 / (n - 1) as f64))
        .collect()
}

/// Runs every model from rest at constant v; substeps keep h·|λ|max ≤ 0.25 within a total of
/// [`MAX_STEPS`] per curve.
pub fn run(cfg: &RelaxationConfig) -> Vec<Curve> {
    cfg.models
        .iter()
        .map(|(label, m)| {
            let mut r = CurveRun::new(cfg, m);
            while !r.advance(cfg, m, usize::MAX) {}
            r.finish(label, m, cfg.v)
        })
        .collect()
}

/// One relaxation curve in pieces (the same numbers as [`run`]): a curve is up to
/// [`MAX_STEPS`] solver steps, about 0.2 s natively, too long for one unit of a page's frame.
#[derive(Debug, Clone)]
pub struct CurveRun {
    grid: Vec<f64>,
    rate: f64,
    shrink: f64,
    x: Vec<f64>,
    st: Sdirk2,
    f: Vec<f64>,
    t: f64,
}

impl CurveRun {
    /// The run of `m` under `cfg` from rest; computes nothing yet.
    pub fn new(cfg: &RelaxationConfig, m: &Frbd) -> CurveRun {
        let grid = time_grid(cfg.t_end, cfg.points);
        let rate = m.rate_bound(cfg.v);
        // budget the steps over the decades in proportion to what accuracy asks for
        let want: f64 = grid
            .iter()
            .scan(0.0, |prev, &g| {
                let d = g - *prev;
                *prev = g;
                Some((d * rate / 0.25).ceil().max(1.0))
            })
            .sum();
        CurveRun {
            f: Vec::with_capacity(grid.len()),
            grid,
            rate,
            shrink: (MAX_STEPS as f64 / want).min(1.0),
            x: vec![0.0; m.dim()],
            st: Sdirk2::new(m.dim()),
            t: 0.0,
        }
    }

    /// Advances through output times until about `steps` solver steps are taken (at least one
    /// output time); returns whether the curve is complete.
    pub fn advance(&mut self, cfg: &RelaxationConfig, m: &Frbd, steps: usize) -> bool {
        let mut taken = 0usize;
        while let Some(&g) = self.grid.get(self.f.len()) {
            if taken >= steps {
                break;
            }
            let d = g - self.t;
            let sub = ((d * self.rate / 0.25 * self.shrink).ceil().max(1.0)) as usize;
            let h = d / sub as f64;
            // decided once per interval: the check costs a Stribeck evaluation per step
            let monotone = Sdirk2::needs_monotone(m, h, cfg.v);
            for _ in 0..sub {
                self.st.step_with(m, h, cfg.v, cfg.v, &mut self.x, monotone);
            }
            taken = taken.saturating_add(sub);
            self.t = g;
            self.f.push(m.output(cfg.v, &self.x));
        }
        self.f.len() >= self.grid.len()
    }

    /// The finished curve.
    pub fn finish(self, label: &str, m: &Frbd, v: f64) -> Curve {
        Curve {
            label: label.to_string(),
            t: self.grid,
            f: self.f,
            steady: m.contact().steady_force(v),
        }
    }
}
