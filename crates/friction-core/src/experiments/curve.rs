//! The curve experiment behind the `curve` and `explorer` views: F against v (or against the
//! displacement X) for up to four models.
//!
//! * `sweep = 0` (v): F(v, F_e) on `npts` evenly spaced velocities in \[vmin, vmax\]. Static laws are
//!   evaluated directly. Models with state (DV/SD/SV, bristle models) give their quasi-steady
//!   curve: from the point nearest v = 0 outwards, each point after sliding
//!   [`SETTLE_SLIP`] metres at that velocity.
//! * `sweep = 1` (x): the composite paper's displacement sweep (\[C\] Figs 5–7): two branches from the
//!   virgin state at X = 0, one forwards and one backwards, each following \[C\]'s kinematics
//!   |Ẋ| = t(t+1), |X| = t³/3 + t²/2, up to |X| = xmax, with sgn Ẋ = sgn X (the paper's figures
//!   show negative shifts its monotonic profile cannot produce). The default
//!   xmax = 14/3 m is the profile at t = 2 s ("from zero to two seconds"), where SV reaches ≈ ±16.4 N
//!   (the figure text says ≈ ±17). The states are integrated along the path, so any model works.
//!
//! F_e (`fe`) is passed to every evaluation; it only matters for laws with a stick branch.
//!
//! Such a law holds any force up to its breakaway level while it sticks, whatever the one F_e of
//! the sweep: the F–v curve at that F_e shows a single value at v = 0 (Karnopp's peaks at F_C, not
//! F_s), so each block also carries the law's stick set, the forces F(v, F_e) spans as F_e runs
//! over all values, at every velocity of the sweep where that is an interval (v = 0, or the whole
//! of Karnopp's window |v| < v_0, whose edges are located by bisection).
//!
//! Why this file is long (over 600 lines): the curve experiment's settling, sweep and resumable
//! units over up to four models are one job's state.

use super::driven::unit_steps_of;
use super::settle::{Averaging, Settling, SETTLE_SLIP};
use crate::integrate::implicit_euler::StateStepper;
use crate::model::FrictionModel;
use crate::params::{fmt_num, ParamError, ParamSpec};

/// View parameters, in the order [`run`] expects their values.
pub const PARAMS: [ParamSpec; 6] = [
    ParamSpec {
        key: "vmin",
        name: "Lowest velocity",
        symbol: "v_min",
        unit: "m/s",
        default: -0.01,
        min: -100.0,
        max: 100.0,
        log: false,
    },
    ParamSpec {
        key: "vmax",
        name: "Highest velocity",
        symbol: "v_max",
        unit: "m/s",
        default: 0.01,
        min: -100.0,
        max: 100.0,
        log: false,
    },
    // not `n`: a view key shared with a model key drives that model (ViewDef), and `n` is the
    // bristle/Leuven/GMS element count
    ParamSpec {
        key: "npts",
        name: "Number of points",
        symbol: "n_pts",
        unit: "",
        default: 801.0,
        min: 3.0,
        max: 20001.0,
        log: false,
    },
    ParamSpec {
        key: "fe",
        name: "External force (stick branches)",
        symbol: "F_e",
        unit: "N",
        default: 0.0,
        min: -1e6,
        max: 1e6,
        log: false,
    },
    ParamSpec {
        key: "sweep",
        name: "Sweep: 0 = velocity, 1 = displacement",
        symbol: "sweep",
        unit: "",
        default: 0.0,
        min: 0.0,
        max: 1.0,
        log: false,
    },
    ParamSpec {
        key: "xmax",
        name: "Largest displacement (displacement sweep)",
        symbol: "X_max",
        unit: "m",
        default: 14.0 / 3.0,
        min: 1e-9,
        max: 1e3,
        log: true,
    },
];

/// What the horizontal axis is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Sweep {
    /// Relative velocity v \[m/s\].
    Velocity,
    /// Displacement X \[m\].
    Displacement,
}

/// One model's curve.
#[derive(Debug, Clone)]
pub struct CurveBlock {
    /// Model id.
    pub model: &'static str,
    /// Published name (with "provisional" where the model is).
    pub name: &'static str,
    /// Provisional flag of the model.
    pub provisional: bool,
    /// (v or X, F) points in increasing abscissa.
    pub points: Vec<(f64, f64)>,
    /// Stick set (v \[m/s\], F_lo \[N\], F_hi \[N\]) in increasing v: at each velocity where the law
    /// can hold any force in \[F_lo, F_hi\] depending on F_e; empty for laws without a stick
    /// branch and for the displacement sweep. See [`stick_set`].
    pub stick: Vec<(f64, f64, f64)>,
}

/// Result of the curve experiment.
#[derive(Debug, Clone)]
pub struct CurveResult {
    /// The abscissa.
    pub sweep: Sweep,
    /// One block per model, in the order given.
    pub blocks: Vec<CurveBlock>,
}

/// Values of [`PARAMS`] that reproduce \[C\]'s figure for a composite model (F_ex = 15 N):
/// F–v on \[−1, 1\] m/s for AV/CS/CVS (Figs 2–4), the displacement sweep for DV/SD/SV (Figs 5–7).
pub fn composite_figure(model_id: &str) -> Option<[f64; 6]> {
    match model_id {
        "av" | "cs" | "cvs" => Some([-1.0, 1.0, 801.0, 15.0, 0.0, 14.0 / 3.0]),
        "dv" | "sd" | "sv" => Some([-1.0, 1.0, 801.0, 15.0, 1.0, 14.0 / 3.0]),
        _ => None,
    }
}

/// Validated settings of a curve run (from the view's values in [`PARAMS`] order).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Settings {
    /// Lowest and highest velocity \[m/s\].
    pub v_range: (f64, f64),
    /// Number of points.
    pub points: usize,
    /// External force F_e \[N\].
    pub fe: f64,
    /// The abscissa.
    pub sweep: Sweep,
    /// Largest displacement of the displacement sweep \[m\].
    pub xmax: f64,
}

impl Settings {
    /// Checks `view_values` in [`PARAMS`] order (missing ones take defaults); computes nothing.
    pub fn from_values(view_values: &[f64]) -> Result<Settings, ParamError> {
        let mut p = [0.0; 6];
        for (i, s) in PARAMS.iter().enumerate() {
            p[i] = s.check(view_values.get(i).copied().unwrap_or(s.default))?;
        }
        let [vmin, vmax, n, fe, sweep, xmax] = p;
        if vmax <= vmin {
            return Err(ParamError::relation(
                &[("vmin", vmin), ("vmax", vmax)],
                "needs vmin < vmax",
            ));
        }
        Ok(Settings {
            v_range: (vmin, vmax),
            points: n.round() as usize,
            fe,
            sweep: if sweep >= 0.5 {
                Sweep::Displacement
            } else {
                Sweep::Velocity
            },
            xmax,
        })
    }
}

/// One model's curve under `s`: a [`CurveRun`] taken to its end in one call.
pub fn run_one(s: &Settings, m: &dyn FrictionModel) -> CurveBlock {
    let mut run = CurveRun::new(s, m);
    while !run.advance(m, usize::MAX) {}
    run.block(m)
}

/// Runs the view: `view_values` in [`PARAMS`] order (missing ones take defaults), 1–4 models.
pub fn run(
    view_values: &[f64],
    models: &[Box<dyn FrictionModel>],
) -> Result<CurveResult, ParamError> {
    let s = Settings::from_values(view_values)?;
    if models.is_empty() || models.len() > 4 {
        return Err(ParamError::new(
            "model",
            &models.len().to_string(),
            "give 1 to 4 models",
        ));
    }
    let blocks = models.iter().map(|m| run_one(&s, m.as_ref())).collect();
    Ok(CurveResult {
        sweep: s.sweep,
        blocks,
    })
}

/// The forces model `m` can supply at velocity `v` \[m/s\] in state `x` as F_e ranges over all
/// values: (F_lo, F_hi) \[N\] where they differ (a stick branch), else `None`.
///
/// Every stick branch here is monotone in F_e (a clamp to the breakaway level, or a blend of one),
/// so the ends are its limits F_e → ∓∞, probed at ∓`f64::MAX` (finite, so within the
/// [`FrictionModel`] contract).
pub fn stick_interval(m: &dyn FrictionModel, v: f64, x: &[f64]) -> Option<(f64, f64)> {
    let lo = m.force(v, -f64::MAX, x);
    let hi = m.force(v, f64::MAX, x);
    (lo.is_finite() && hi.is_finite() && lo < hi).then_some((lo, hi))
}

/// The stick set of `m` over the sweep velocities `vs` (increasing), with the settled states
/// `states` (`n_states` per velocity, empty for a law without state): the interval of
/// [`stick_interval`] at every sweep velocity and at v = 0 (absent from a grid with an even
/// number of points), and at each edge of a stick band (Karnopp's |v| < v_0), located by
/// bisection between the last velocity inside and the first outside, so that the band's width
/// does not depend on the grid.
pub fn stick_set(m: &dyn FrictionModel, vs: &[f64], states: &[f64]) -> Vec<(f64, f64, f64)> {
    let ns = m.n_states();
    let state = |i: usize| &states[(i * ns).min(states.len())..((i + 1) * ns).min(states.len())];
    // (v, index of the grid point whose state it uses)
    let mut probes: Vec<(f64, usize)> = vs.iter().enumerate().map(|(i, &v)| (v, i)).collect();
    if let (Some(&first), Some(&last)) = (vs.first(), vs.last()) {
        if first < 0.0 && last > 0.0 && !vs.contains(&0.0) {
            let at = vs.partition_point(|&v| v < 0.0);
            let near = if at > 0 && vs[at - 1].abs() < vs[at].abs() {
                at - 1
            } else {
                at
            };
            probes.insert(at, (0.0, near));
        }
    }
    let inside: Vec<Option<(f64, f64)>> = probes
        .iter()
        .map(|&(v, i)| stick_interval(m, v, state(i)))
        .collect();
    if inside.iter().all(Option::is_none) {
        return Vec::new();
    }
    let mut out = Vec::new();
    for k in 0..probes.len() {
        let (v, i) = probes[k];
        // an edge towards the previous probe, before this point
        if k > 0 && inside[k].is_some() && inside[k - 1].is_none() {
            if let Some(e) = band_edge(m, v, probes[k - 1].0, state(i)) {
                out.push(e);
            }
        }
        if let Some((lo, hi)) = inside[k] {
            out.push((v, lo, hi));
        }
        if k + 1 < probes.len() && inside[k].is_some() && inside[k + 1].is_none() {
            if let Some(e) = band_edge(m, v, probes[k + 1].0, state(i)) {
                out.push(e);
            }
        }
    }
    out
}

/// The velocity nearest `outside` up to which the stick interval persists, starting from
/// `inside` (which has one), with its interval; `None` when that is `inside` itself (a stick
/// at a single velocity, v = 0).
fn band_edge(
    m: &dyn FrictionModel,
    inside: f64,
    outside: f64,
    x: &[f64],
) -> Option<(f64, f64, f64)> {
    let (mut a, mut b) = (inside, outside);
    let mut best = None;
    for _ in 0..200 {
        let c = 0.5 * (a + b);
        if c == a || c == b {
            break;
        }
        match stick_interval(m, c, x) {
            Some((lo, hi)) => {
                a = c;
                best = Some((c, lo, hi));
            }
            None => b = c,
        }
    }
    best
}

/// t at which \[C\]'s profile has travelled `x`: t³/3 + t²/2 = x (Newton, monotone for t ≥ 0).
fn profile_time(x: f64) -> f64 {
    let mut t = x.cbrt().max(1e-3);
    for _ in 0..60 {
        let g = t * t * t / 3.0 + t * t / 2.0 - x;
        let d = t * t + t;
        if d <= 0.0 {
            break;
        }
        let nt = (t - g / d).max(0.0);
        if (nt - t).abs() <= 1e-15 * t.max(1e-300) {
            t = nt;
            break;
        }
        t = nt;
    }
    t
}

impl CurveResult {
    /// CSV: header `v,F` (or `x,F` for the displacement sweep), with a leading `model` column
    /// when more than one model is shown; numbers in round-trip form.
    ///
    /// When a shown law has a stick set, two columns `F_stick_lo,F_stick_hi` follow, filled
    /// where the law sticks and empty elsewhere; a stick velocity that is no point of the curve
    /// (v = 0 of an even grid, a band edge) gets a row of its own with `F` empty. Without a stick
    /// set the CSV keeps its two columns.
    pub fn to_csv(&self) -> String {
        let xname = match self.sweep {
            Sweep::Velocity => "v",
            Sweep::Displacement => "x",
        };
        let multi = self.blocks.len() > 1;
        let sticks = self.blocks.iter().any(|b| !b.stick.is_empty());
        let mut s = String::new();
        if multi {
            s.push_str("model,");
        }
        s.push_str(xname);
        s.push_str(",F");
        if sticks {
            s.push_str(",F_stick_lo,F_stick_hi");
        }
        s.push('\n');
        for b in &self.blocks {
            let mut row = |a: f64, f: Option<f64>, st: Option<(f64, f64)>| {
                if multi {
                    s.push_str(b.model);
                    s.push(',');
                }
                s.push_str(&fmt_num(a));
                s.push(',');
                if let Some(f) = f {
                    s.push_str(&fmt_num(f));
                }
                if sticks {
                    s.push(',');
                    if let Some((lo, hi)) = st {
                        s.push_str(&fmt_num(lo));
                        s.push(',');
                        s.push_str(&fmt_num(hi));
                    } else {
                        s.push(',');
                    }
                }
                s.push('\n');
            };
            // merge the two sequences, both increasing in v
            let mut k = 0;
            for &(a, f) in &b.points {
                while k < b.stick.len() && b.stick[k].0 < a {
                    row(b.stick[k].0, None, Some((b.stick[k].1, b.stick[k].2)));
                    k += 1;
                }
                if k < b.stick.len() && b.stick[k].0 == a {
                    row(a, Some(f), Some((b.stick[k].1, b.stick[k].2)));
                    k += 1;
                } else {
                    row(a, Some(f), None);
                }
            }
            for &(v, lo, hi) in &b.stick[k..] {
                row(v, None, Some((lo, hi)));
            }
        }
        s
    }
}

/// One model's curve computed in pieces ([`CurveRun::advance`]), with the same points as
/// [`run_one`]: the page and the CLI's budget need units of work of bounded length, and one
/// model's whole curve is not (a bristle model settling 10 m at each of 20,001 velocities takes
/// minutes).
pub struct CurveRun {
    sweep: Sweep,
    /// Abscissae of the velocity sweep.
    vs: Vec<f64>,
    /// Points computed so far (velocity sweep: the slots `lo..=hi` are filled).
    out: Vec<(f64, f64)>,
    /// Filled range of `out` (velocity sweep), empty while `lo > hi`.
    lo: usize,
    hi: usize,
    /// Velocity sweep: the point nearest v = 0, the direction (0: up, 1: down) and the next
    /// index; displacement sweep: the branch (0: backwards, 1: forwards) and the next sub-step.
    i0: usize,
    phase: usize,
    next: i64,
    x: Vec<f64>,
    /// Velocity sweep of a model with state: the settled state at every point (for the stick
    /// set, as in [`run_one`]).
    states: Vec<f64>,
    st: StateStepper,
    /// Velocity sweep: the slide of the point in progress, cut at a step cap per call.
    work: Option<PointWork>,
    /// Displacement sweep: a sub-step begun and cut at its step cap.
    sub_open: bool,
    /// Displacement sweep: the finished backward branch and the one in progress.
    neg: Vec<(f64, f64)>,
    cur: Vec<(f64, f64)>,
    fe: f64,
    xmax_t: f64,
    half: usize,
    done: bool,
}

/// The slide of a velocity point in progress: the mean force of a model that does not settle
/// (and, if that slide gives up, the settle that follows), or a settle.
#[derive(Debug, Clone)]
enum PointWork {
    Mean(Averaging),
    Settle(Settling),
}

/// Sub-steps between output points of the displacement sweep (as in [`run_one`]).
const DISP_SUB: usize = 8;

impl CurveRun {
    /// A run of `m` under `s`; computes nothing yet.
    pub fn new(s: &Settings, m: &dyn FrictionModel) -> CurveRun {
        let ns = m.n_states();
        let mut x = vec![0.0; ns];
        m.initial_state(&mut x);
        let n = s.points;
        let (vs, i0) = match s.sweep {
            Sweep::Velocity => {
                let (vmin, vmax) = s.v_range;
                let vs: Vec<f64> = (0..n)
                    .map(|i| vmin + (vmax - vmin) * i as f64 / (n - 1) as f64)
                    .collect();
                let i0 = (0..n)
                    .min_by(|&a, &b| vs[a].abs().total_cmp(&vs[b].abs()))
                    .unwrap_or(0);
                (vs, i0)
            }
            Sweep::Displacement => (Vec::new(), 0),
        };
        let half = (n / 2).max(1);
        CurveRun {
            sweep: s.sweep,
            out: vec![(0.0, 0.0); vs.len()],
            states: vec![0.0; vs.len() * ns],
            vs,
            lo: 1,
            hi: 0,
            i0,
            phase: 0,
            next: i0 as i64,
            x,
            st: StateStepper::new(ns),
            work: None,
            sub_open: false,
            neg: Vec::new(),
            cur: Vec::new(),
            fe: s.fe,
            xmax_t: profile_time(s.xmax),
            half,
            done: false,
        }
    }

    /// Whether the curve is complete.
    pub fn done(&self) -> bool {
        self.done
    }

    /// Computes up to `points` more points (at least one); returns whether the curve is done.
    /// A point of a model with state is one settle ([`super::settle::settle`]) or eight
    /// sub-steps (displacement sweep), taken [`unit_steps_of`] solver steps per call at most:
    /// a longer point is cut there, counts as one, and is finished by the next calls.
    pub fn advance(&mut self, m: &dyn FrictionModel, points: usize) -> bool {
        let mut left = points.max(1);
        while !self.done && left > 0 {
            match self.sweep {
                Sweep::Velocity => self.velocity_point(m, &mut left),
                Sweep::Displacement => {
                    let mut steps_left = unit_steps_of(m, 0);
                    self.displacement_point(m, &mut steps_left)
                }
            }
            left = left.saturating_sub(1);
        }
        self.done
    }

    fn velocity_point(&mut self, m: &dyn FrictionModel, left: &mut usize) {
        let n = self.vs.len();
        if m.n_states() == 0 {
            // a static law: direct evaluations, in index order, cheap enough in one go
            let x = &self.x;
            for (o, &v) in self.out.iter_mut().zip(&self.vs) {
                *o = (v, m.force(v, self.fe, x));
            }
            (self.lo, self.hi) = (0, n.saturating_sub(1));
            self.done = true;
            *left = 1;
            return;
        }
        let i = self.next;
        if i < 0 || i as usize >= n {
            if self.phase == 0 {
                // down from i0 again, from the state at v ≈ 0 (as `velocity_curve`)
                self.phase = 1;
                self.next = self.i0 as i64;
                m.initial_state(&mut self.x);
            } else {
                self.done = true;
            }
            return;
        }
        let i = i as usize;
        let v = self.vs[i];
        let (fe, cap) = (self.fe, unit_steps_of(m, 0));
        let mut work = match self.work.take() {
            Some(w) => w,
            // The steady level of a saw-tooth, from the virgin state at every speed so that
            // the levels are comparable (as in the phenomena matrix); the end of a 10 m slide
            // would be a random sample of it, and cost a second per point at 50 bristles.
            None if !m.settles() => {
                m.initial_state(&mut self.x);
                PointWork::Mean(Averaging::new(v, fe))
            }
            None => PointWork::Settle(Settling::new(v, fe, SETTLE_SLIP)),
        };
        // one piece of the slide per call: the point is finished by a later call
        let finished = match &mut work {
            PointWork::Mean(a) => match a.advance(m, &mut self.st, &mut self.x, cap) {
                None => None,
                Some(Some(f)) => Some(f),
                Some(None) => {
                    work = PointWork::Settle(Settling::new(v, fe, SETTLE_SLIP));
                    None
                }
            },
            PointWork::Settle(s) => s
                .advance(m, &mut self.st, &mut self.x, cap)
                .map(|_| m.force(v, fe, &self.x)),
        };
        let Some(f) = finished else {
            self.work = Some(work);
            return;
        };
        self.out[i] = (v, f);
        let ns = self.x.len();
        self.states[i * ns..(i + 1) * ns].copy_from_slice(&self.x);
        if self.lo > self.hi {
            (self.lo, self.hi) = (i, i);
        } else {
            self.lo = self.lo.min(i);
            self.hi = self.hi.max(i);
        }
        self.next += if self.phase == 0 { 1 } else { -1 };
    }

    /// The next point of the displacement sweep, or as much of it as `steps_left` solver
    /// steps allow (a sub-step of a stiff switching model, e.g. 50 bristles snapping, takes
    /// thousands): the next call continues it, with the same steps as an uncut one.
    fn displacement_point(&mut self, m: &dyn FrictionModel, steps_left: &mut usize) {
        let sign = if self.phase == 0 { -1.0 } else { 1.0 };
        if self.next == self.i0 as i64 && self.cur.is_empty() {
            // a branch starts from the virgin state
            m.initial_state(&mut self.x);
            self.cur.reserve(self.half + 1);
            self.cur.push((0.0, m.force(0.0, self.fe, &self.x)));
            self.next = 1;
        }
        let dt = self.xmax_t / (self.half * DISP_SUB) as f64;
        let total = (self.half * DISP_SUB) as i64;
        loop {
            let k = self.next;
            if k > total {
                break;
            }
            if !self.sub_open {
                let tm = (k as f64 - 0.5) * dt;
                self.sub_open =
                    !self
                        .st
                        .advance_begin(m, sign * tm * (tm + 1.0), self.fe, &mut self.x, dt);
            }
            if self.sub_open {
                if !self.st.advance_resume(m, &mut self.x, steps_left) {
                    return;
                }
                self.sub_open = false;
            }
            self.next += 1;
            if k as usize % DISP_SUB == 0 {
                let t = k as f64 * dt;
                let pos = t * t * t / 3.0 + t * t / 2.0;
                self.cur
                    .push((sign * pos, m.force(sign * t * (t + 1.0), self.fe, &self.x)));
                break;
            }
        }
        if self.next > total {
            if self.phase == 0 {
                self.neg = std::mem::take(&mut self.cur);
                self.phase = 1;
                self.next = self.i0 as i64;
            } else {
                self.done = true;
            }
        }
    }

    /// The points computed so far, in increasing abscissa (all of them once done).
    pub fn points(&self) -> Vec<(f64, f64)> {
        match self.sweep {
            Sweep::Velocity if self.lo <= self.hi => self.out[self.lo..=self.hi].to_vec(),
            Sweep::Velocity => Vec::new(),
            Sweep::Displacement => {
                let mut out: Vec<(f64, f64)> = if self.phase == 0 {
                    self.cur.iter().skip(1).rev().copied().collect()
                } else {
                    self.neg.iter().skip(1).rev().copied().collect()
                };
                if self.phase == 1 {
                    out.extend(self.cur.iter().copied());
                }
                out
            }
        }
    }

    /// The block of `m` with the points computed so far (its stick set once the velocity sweep
    /// is complete).
    pub fn block(&self, m: &dyn FrictionModel) -> CurveBlock {
        let info = m.info();
        let stick = if self.done && self.sweep == Sweep::Velocity {
            stick_set(m, &self.vs, &self.states)
        } else {
            Vec::new()
        };
        CurveBlock {
            model: info.id,
            name: info.name,
            provisional: info.provisional,
            points: self.points(),
            stick,
        }
    }
}
