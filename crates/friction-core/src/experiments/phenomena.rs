//! The computed phenomena matrix: which friction phenomena a model shows, decided by running it.
//!
//! Works on any [`FrictionModel`] (static laws, laws with a displacement state, bristle models),
//! through prescribed-motion and driven-mass experiments. Model states are integrated with
//! implicit Euler (Newton with a finite-difference Jacobian, step halving when Newton fails),
//! which is L-stable, so stiff bristle states need no tiny steps; dynamic models with switches
//! (slip, saturation, held bristles) go through the event-locating Rosenbrock solver instead,
//! which applies their discrete updates ([`StateStepper::advance`], in
//! [`crate::integrate::implicit_euler`]). The flags describe the model
//! *at the parameters it was built with*.
//!
//! Experiments (SI units; prescribed-motion experiments pass F_e = 0, so the stick branches of
//! F_e-dependent laws only act in the ramp experiment):
//! * **Stiction**: a 1 kg body at rest, pushed by a slow ramp F_e = r·t (up to 3× the largest
//!   steady friction of the sweep, over 2 s). Each step solves m(v' − v)/Δt = F_e − F(v', F_e, x)
//!   for v' by bisection, so a jump of F at v = 0 acts as a set-valued stick law, and the force
//!   actually applied is F_e − m(v' − v)/Δt. Breakaway: the first step past 5 % of the ramp where m·a > 2 % of F_e, both now and on average
//!   over the last 25.6 ms or one period of the body ringing on the model's pre-sliding stiffness,
//!   whichever is longer (so a stuck body ringing on a pre-sliding spring is not taken for sliding).
//!   F_hold = largest force before breakaway; F_kin = smallest force while sliding afterwards
//!   (F_e frozen, second half of a 1 s run). Stiction ⇔ F_hold > 1.02·F_kin.
//! * **Stribeck**: the steady curve |F_ss(v)| on 91 log-spaced speeds 1e-7…100 m/s (state models
//!   slide 10 m at each speed first, see [`SETTLE_SLIP`]); Stribeck ⇔ some drop below the running maximum > 0.1 %.
//!   A model whose force never settles at constant v (the bristle model's saw-tooth) is read by
//!   its mean over 50 mm of slip after a 10 mm run-in, from the virgin state at every speed; if
//!   even that does not finish, stiction, Stribeck and viscous are [`Flag::Undetermined`].
//! * **Viscous growth**: |F_ss(100 m/s)| − |F_ss(10 m/s)| > 0.1 % of |F_ss(10 m/s)|.
//! * **Pre-sliding**: v = V sin(ωt) (V = 0.1 mm/s, ω = 0.2π rad/s, 0.32 mm of travel) up to its
//!   first reversal; the secant slope |F − F_rev|/δ after the reversal is measured at δ = 2e-6 m
//!   and δ = 2e-8 m. Finite slope ⇔ nonzero and the two estimates agree within 3×. Velocity laws
//!   give a secant slope that grows without bound as δ shrinks (10× here, for a linear
//!   regularisation; 100× for a jump).
//! * **Hysteresis** (frictional lag / memory): v = V sin(ωt), ω = 2π rad/s, V ∈ {1 mm/s, 0.1 m/s};
//!   loop area ∮F dv over the second period, normalised by its bounding box; hysteresis ⇔ > 1 %.
//! * **Stick-slip** needs the Rabinowicz benchmark: supplied by the caller as a hook, else
//!   [`Flag::NotRun`].

use super::settle::{mean_force, settle, SETTLE_SLIP};
use crate::integrate::implicit_euler::StateStepper;
use crate::model::{FrictionModel, ModelEntry};

/// Outcome of one phenomenon test.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Flag {
    /// The experiment shows the phenomenon.
    Yes,
    /// The experiment ran and does not show it.
    No,
    /// The experiment was not run (stick-slip without the benchmark hook).
    NotRun,
    /// The experiment ran but cannot decide: the model did not reach a steady state within
    /// the solver's budget (the bristle model's saw-tooth force, which snaps every millimetre).
    Undetermined,
}

impl Flag {
    /// `"1"`, `"0"`, `"not run"` or `"n/a"` (CSV and page text).
    pub fn as_str(self) -> &'static str {
        match self {
            Flag::Yes => "1",
            Flag::No => "0",
            Flag::NotRun => "not run",
            Flag::Undetermined => "n/a",
        }
    }
    fn of(b: bool) -> Flag {
        if b {
            Flag::Yes
        } else {
            Flag::No
        }
    }
}

/// Column names of the matrix, in order.
pub const PHENOMENA: [&str; 6] = [
    "stiction",
    "stribeck",
    "viscous",
    "presliding",
    "hysteresis",
    "stickslip",
];

/// The criterion of each column in [`PHENOMENA`] order, in words (the module docs give the
/// experiments in full), so that the page states it next to its column.
pub const CRITERIA: [&str; 6] = [
    "holds a ramped force more than 2 % above its sliding friction before breaking away",
    "steady |F| drops by more than 0.1 % somewhere as |v| grows (1e-7 to 100 m/s)",
    "steady |F| grows by more than 0.1 % from 10 to 100 m/s",
    "finite, consistent stiffness dF/dx just after a motion reversal",
    "a loop in F against v under a sinusoidal velocity, area over 1 % of its box",
    "the 40 s Rabinowicz benchmark re-sticks (|v| ≤ 2 % of v_b) at least twice after slips \
     reaching v_b/2, the last time in the second half",
];

/// The phenomena of one model, with the measured figures behind each flag.
#[derive(Debug, Clone, PartialEq)]
pub struct Phenomena {
    /// Holds |F_e| above its kinetic level before breaking away.
    pub stiction: Flag,
    /// |F| decreases on some interval of |v| > 0.
    pub stribeck: Flag,
    /// |F| still grows at high |v|.
    pub viscous: Flag,
    /// Finite slope dF/dx at a motion reversal.
    pub presliding: Flag,
    /// A loop in the F–v plane under a sinusoidal velocity.
    pub hysteresis: Flag,
    /// Stick-slip in the Rabinowicz benchmark.
    pub stick_slip: Flag,
    /// Largest friction before breakaway \[N\].
    pub f_hold: f64,
    /// Smallest friction while sliding after breakaway \[N\].
    pub f_kin: f64,
    /// Largest relative drop of |F_ss| below its running maximum \[-\].
    pub stribeck_drop: f64,
    /// Relative growth of |F_ss| from 10 to 100 m/s \[-\].
    pub viscous_rise: f64,
    /// Secant slopes \[N/m\] after a reversal, at δ = 2e-6 m and δ = 2e-8 m.
    pub reversal_slopes: (f64, f64),
    /// Largest normalised F–v loop area \[-\].
    pub loop_area: f64,
}

impl Phenomena {
    /// The six flags in [`PHENOMENA`] order.
    pub fn flags(&self) -> [Flag; 6] {
        [
            self.stiction,
            self.stribeck,
            self.viscous,
            self.presliding,
            self.hysteresis,
            self.stick_slip,
        ]
    }
}

/// The speeds of the steady sweep: 91 points, 10 per decade, 1e-7 … 100 m/s.
fn sweep_speeds() -> impl Iterator<Item = f64> {
    (0..=90).map(|k| 10f64.powf(-7.0 + k as f64 / 10.0))
}

/// |mean F| over [`MEAN_WINDOW`](super::settle::MEAN_WINDOW) of slip after [`MEAN_RUN_IN`](super::settle::MEAN_RUN_IN) at every sweep speed, each from
/// the virgin state: the steady level of a model whose force never settles at constant v (the
/// bristle model's saw-tooth, each bristle snapping and re-bonding). Starting every speed from the
/// same state keeps the levels comparable: a rate-independent model gives the same level at
/// every speed rather than window-to-window noise that would read as a Stribeck drop. `None`
/// if a slide does not finish.
fn mean_sweep(m: &dyn FrictionModel) -> Option<Vec<(f64, f64)>> {
    let mut st = StateStepper::new(m.n_states());
    let mut x = vec![0.0; m.n_states()];
    sweep_speeds()
        .map(|v| {
            m.initial_state(&mut x);
            Some((v, mean_force(m, &mut st, v, 0.0, &mut x)?.abs()))
        })
        .collect()
}

/// Quasi-steady |F_ss(v)| on the sweep speeds, and whether every speed settled ([`settle`]);
/// where one did not, the mean levels of [`mean_sweep`] if those finish.
fn steady_sweep(m: &dyn FrictionModel) -> (Vec<(f64, f64)>, bool) {
    if !m.settles() {
        // the end points would be random samples of a saw-tooth (and 10 m slides of it cost
        // seconds): straight to the means
        if let Some(means) = mean_sweep(m) {
            return (means, true);
        }
    }
    let (sweep, settled) = endpoint_sweep(m);
    if settled {
        return (sweep, true);
    }
    match mean_sweep(m) {
        Some(means) => (means, true),
        None => (sweep, false),
    }
}

/// |F| at the end of each speed's slide, carrying the state from speed to speed.
fn endpoint_sweep(m: &dyn FrictionModel) -> (Vec<(f64, f64)>, bool) {
    let mut st = StateStepper::new(m.n_states());
    let mut x = vec![0.0; m.n_states()];
    m.initial_state(&mut x);
    let mut all = true;
    let sweep = sweep_speeds()
        .map(|v| {
            all &= settle(m, &mut st, v, 0.0, &mut x, SETTLE_SLIP);
            (v, m.force(v, 0.0, &x).abs())
        })
        .collect();
    (sweep, all)
}

/// Steps of the ramp's mean-acceleration window (25.6 ms at Δt = 0.1 ms).
const RAMP_WINDOW: usize = 256;

/// Result of the ramp experiment: (F_hold, F_kin). `k_pre` \[N/m\] is the model's pre-sliding
/// stiffness (the virgin reversal slope): the mean-acceleration window spans at least one period
/// of the body ringing on it.
fn ramp(m: &dyn FrictionModel, f_top: f64, k_pre: f64) -> (f64, f64) {
    let mass = 1.0;
    let dt = 1e-4;
    let t_ramp = 2.0;
    let rate = f_top / t_ramp;
    let mut st = StateStepper::new(m.n_states());
    let mut x = vec![0.0; m.n_states()];
    m.initial_state(&mut x);
    let mut v = 0.0;
    let mut f_hold: f64 = 0.0;
    let mut fe = 0.0;
    let n_ramp = (t_ramp / dt) as usize;
    let mut broke = false;
    // A body on an undamped pre-sliding spring rings at √(k_pre/m) during the ramp (the bristle
    // model's default 1e3 N/m: 32 rad/s, period 0.2 s): averaged over less than a period, the
    // ringing reads as a breakaway (it did, at 0.25 N of 1.47 N).
    let window = if k_pre > 0.0 && k_pre.is_finite() {
        let period = 2.0 * std::f64::consts::PI * (mass / k_pre).sqrt();
        RAMP_WINDOW
            .max((period / dt).ceil() as usize)
            .min(n_ramp / 4)
    } else {
        RAMP_WINDOW
    };
    // velocities of the last `window` steps, for the mean acceleration over that window
    let mut hist = vec![0.0f64; window];
    for k in 1..=n_ramp {
        fe = rate * k as f64 * dt;
        let (vn, f) = implicit_mass_step(m, mass, v, fe, &x, dt);
        st.advance(m, vn, fe, &mut x, dt);
        let v_then = hist[k % window];
        hist[k % window] = vn;
        v = vn;
        // the first 5 % of the ramp is start-up: a regularised law needs a few m/S to track F_e.
        // A stuck body on an undamped pre-sliding spring (Armstrong-Hélouvry) rings at
        // √(σ0/m) ≈ 316 rad/s with |m a| of a few mN: the mean acceleration over the window
        // (longer than one period) must exceed the threshold too.
        let mean_acc = mass * (vn - v_then) / (window as f64 * dt);
        if k > n_ramp / 20 && mass * (fe - f) > 0.02 * fe + 1e-12 && mean_acc > 0.02 * fe + 1e-12 {
            broke = true;
            break;
        }
        f_hold = f_hold.max(f.abs());
    }
    if !broke {
        return (f_hold, f_hold);
    }
    let n_post = (1.0 / dt) as usize;
    let mut f_kin = f64::INFINITY;
    for k in 0..n_post {
        let (vn, f) = implicit_mass_step(m, mass, v, fe, &x, dt);
        st.advance(m, vn, fe, &mut x, dt);
        v = vn;
        if k >= n_post / 2 {
            f_kin = f_kin.min(f.abs());
        }
    }
    (f_hold, f_kin)
}

/// One implicit step of m v̇ = F_e − F: returns (v', force actually applied).
fn implicit_mass_step(
    m: &dyn FrictionModel,
    mass: f64,
    v: f64,
    fe: f64,
    x: &[f64],
    dt: f64,
) -> (f64, f64) {
    let g = |w: f64| mass * (w - v) - dt * (fe - m.force(w, fe, x));
    let mut span = dt * (fe.abs() + 1.0) / mass;
    let (mut lo, mut hi) = (v - span, v + span);
    let mut tries = 0;
    while !(g(lo) <= 0.0 && g(hi) >= 0.0) && tries < 200 {
        span *= 2.0;
        lo = v - span;
        hi = v + span;
        tries += 1;
    }
    // 1e-14 of the bracket: velocity errors ~1e-18 m/s, ~50 halvings instead of ~1000 near 0
    let tol = 1e-14 * (hi - lo);
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if mid <= lo || mid >= hi || hi - lo <= tol {
            break;
        }
        if g(mid) <= 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    // the end of the final bracket nearer to a root
    let w = if g(lo).abs() <= g(hi).abs() { lo } else { hi };
    (w, fe - mass * (w - v) / dt)
}

/// Force along v = V sin(ωt) from t = 0, `n_per_period` samples per period for `periods`
/// periods (both ends included); writes (v, F) pairs into `out`.
fn sine_run(
    m: &dyn FrictionModel,
    vamp: f64,
    w: f64,
    periods: usize,
    n_per_period: usize,
    out: &mut Vec<(f64, f64)>,
) {
    let mut st = StateStepper::new(m.n_states());
    let mut x = vec![0.0; m.n_states()];
    m.initial_state(&mut x);
    let period = 2.0 * std::f64::consts::PI / w;
    let dt = period / n_per_period as f64;
    out.clear();
    out.push((0.0, m.force(0.0, 0.0, &x)));
    for k in 1..=periods * n_per_period {
        let t = k as f64 * dt;
        let v = vamp * (w * t).sin();
        st.advance(m, v, 0.0, &mut x, dt);
        out.push((v, m.force(v, 0.0, &x)));
    }
}

/// Reversal slopes [N/m]: |F − F(reversal)|/δ after the first reversal of v = V sin(ωt), for
/// the displacements δ = 2e-6 m and 2e-8 m travelled back from the reversal point.
fn reversal_slopes(m: &dyn FrictionModel) -> (f64, f64) {
    // slow, so a damping term σ1·ż stays small against the elastic σ0·δ at δ = 2e-8 m
    let vamp = 1e-4;
    let w = 0.2 * std::f64::consts::PI;
    let tr = std::f64::consts::PI / w;
    let mut st = StateStepper::new(m.n_states());
    let mut x = vec![0.0; m.n_states()];
    m.initial_state(&mut x);
    let vel = |t: f64| vamp * (w * t).sin();
    let n_coarse = 4000;
    let dtc = tr / n_coarse as f64;
    for k in 1..=n_coarse {
        st.advance(m, vel((k as f64 - 0.5) * dtc), 0.0, &mut x, dtc);
    }
    let f_rev = m.force(0.0, 0.0, &x);
    // time after the reversal at which the body is δ back: V(1 − cos(ωτ))/ω = δ
    let back = |d: f64| (1.0 - d * w / vamp).acos() / w;
    let mut t = tr;
    let mut slopes = [0.0; 2];
    for (i, d) in [2e-8, 2e-6].into_iter().enumerate() {
        let t_end = tr + back(d);
        let n = 500;
        let dt = (t_end - t) / n as f64;
        for k in 1..=n {
            let tm = t + (k as f64 - 0.5) * dt;
            st.advance(m, vel(tm), 0.0, &mut x, dt);
        }
        t = t_end;
        slopes[i] = (m.force(vel(t), 0.0, &x) - f_rev).abs() / d;
    }
    (slopes[1], slopes[0])
}

/// Normalised loop area ∮F dv of the second period.
fn loop_area(pts: &[(f64, f64)], n_per_period: usize) -> f64 {
    let last = &pts[pts.len() - 1 - n_per_period..];
    let mut area = 0.0;
    let (mut fmin, mut fmax, mut vmin, mut vmax) = (f64::MAX, f64::MIN, f64::MAX, f64::MIN);
    for w in last.windows(2) {
        area += 0.5 * (w[0].1 + w[1].1) * (w[1].0 - w[0].0);
    }
    for &(v, f) in last {
        fmin = fmin.min(f);
        fmax = fmax.max(f);
        vmin = vmin.min(v);
        vmax = vmax.max(v);
    }
    let bbox = (fmax - fmin) * (vmax - vmin);
    if bbox > 0.0 {
        (area / bbox).abs()
    } else {
        0.0
    }
}

/// Runs every experiment on `m` (stick-slip is [`Flag::NotRun`]). A model whose steady sweep
/// does not settle gets [`Flag::Undetermined`] for what rests on it: Stribeck and viscous
/// growth, and stiction (the ramp's height comes from the sweep; it is not run).
pub fn detect(m: &dyn FrictionModel) -> Phenomena {
    let (sweep, settled) = steady_sweep(m);
    let fmax = sweep.iter().map(|p| p.1).fold(0.0, f64::max);
    let mut runmax: f64 = 0.0;
    let mut drop: f64 = 0.0;
    for &(_, f) in &sweep {
        runmax = runmax.max(f);
        if runmax > 0.0 {
            drop = drop.max((runmax - f) / runmax);
        }
    }
    let f10 = sweep[80].1;
    let f100 = sweep[90].1;
    let rise = if f10 > 0.0 {
        (f100 - f10) / f10
    } else if f100 > 0.0 {
        f64::INFINITY
    } else {
        0.0
    };
    // ramp to 3× the steady level seen up to 1 m/s (viscous growth beyond is not stiction)
    let f_ref = sweep
        .iter()
        .filter(|p| p.0 <= 1.0)
        .map(|p| p.1)
        .fold(0.0, f64::max)
        .max(fmax * 1e-3);
    let (s1, s2) = reversal_slopes(m);
    let (f_hold, f_kin) = if settled {
        ramp(m, 3.0 * f_ref.max(1e-9), s1)
    } else {
        (f64::NAN, f64::NAN)
    };
    let presl =
        s1 > 0.0 && s1.is_finite() && s2.is_finite() && s2 / s1 < 3.0 && s2 / s1 > 1.0 / 3.0;
    let mut pts = Vec::with_capacity(2 * 4000 + 1);
    let mut area: f64 = 0.0;
    for vamp in [1e-3, 0.1] {
        sine_run(m, vamp, 2.0 * std::f64::consts::PI, 2, 4000, &mut pts);
        area = area.max(loop_area(&pts, 4000));
    }
    let from_sweep = |f: Flag| if settled { f } else { Flag::Undetermined };
    Phenomena {
        stiction: from_sweep(Flag::of(f_hold > 1.02 * f_kin && f_hold > 0.0)),
        stribeck: from_sweep(Flag::of(drop > 1e-3)),
        viscous: from_sweep(Flag::of(rise > 1e-3)),
        presliding: Flag::of(presl),
        hysteresis: Flag::of(area > 0.01),
        stick_slip: Flag::NotRun,
        f_hold,
        f_kin,
        stribeck_drop: drop,
        viscous_rise: rise,
        reversal_slopes: (s1, s2),
        loop_area: area,
    }
}

/// The matrix: one row per model id.
#[derive(Debug, Clone)]
pub struct Matrix {
    /// (model id, phenomena) in registry order.
    pub rows: Vec<(&'static str, Phenomena)>,
}

/// Hook that runs the Rabinowicz stick-slip benchmark on a registry entry.
pub type StickSlipHook<'a> = &'a dyn Fn(&ModelEntry) -> bool;

/// Computes the matrix for `entries` with default parameters; `stick_slip` runs the benchmark.
/// An entry whose defaults do not build is skipped.
pub fn matrix<'a>(
    entries: impl IntoIterator<Item = &'a ModelEntry>,
    stick_slip: Option<StickSlipHook<'_>>,
) -> Matrix {
    let mut rows = Vec::new();
    for e in entries {
        let Ok(m) = e.build_default() else { continue };
        let mut p = detect(m.as_ref());
        if let Some(h) = stick_slip {
            p.stick_slip = Flag::of(h(e));
        }
        rows.push((e.info.id, p));
    }
    Matrix { rows }
}

impl Matrix {
    /// CSV: `model,stiction,stribeck,viscous,presliding,hysteresis,stickslip` with 1/0/not run.
    pub fn to_csv(&self) -> String {
        let mut s = String::from("model");
        for c in PHENOMENA {
            s.push(',');
            s.push_str(c);
        }
        s.push('\n');
        for (id, p) in &self.rows {
            s.push_str(id);
            for f in p.flags() {
                s.push(',');
                s.push_str(f.as_str());
            }
            s.push('\n');
        }
        s
    }

    /// The row of `id`, if computed.
    pub fn row(&self, id: &str) -> Option<&Phenomena> {
        self.rows.iter().find(|r| r.0 == id).map(|r| &r.1)
    }
}

/// \[C\] Table 2 claims (1 = has the property) in [`PHENOMENA`] order:
/// stiction, Stribeck, viscous, pre-sliding, hysteresis, stick-slip ("rising static friction",
/// 0 for all six, is not tested: no experiment here measures dwell time).
pub const COMPOSITE_TABLE2: [(&str, [bool; 6]); 6] = [
    ("av", [true, true, true, true, true, true]),
    ("cs", [true, true, false, true, true, true]),
    ("cvs", [true, true, true, true, true, false]),
    ("dv", [true, false, true, true, true, false]),
    ("sd", [true, false, false, true, true, true]),
    ("sv", [true, false, true, true, true, true]),
];

/// One disagreement between \[C\] Table 2 and the computed matrix.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Disagreement {
    /// Model id.
    pub model: &'static str,
    /// Phenomenon (a [`PHENOMENA`] name).
    pub phenomenon: &'static str,
    /// What \[C\] claims.
    pub paper: bool,
}

/// Every cell where the computed flag contradicts \[C\] Table 2 (cells not run are skipped).
///
/// Where the computed matrix contradicts Table 2 (default parameters, intended odd reading), and
/// why the paper is wrong there — the test `statics_phenomena` pins exactly this list:
/// * AV, CS, CVS pre-sliding and hysteresis: these laws are functions of Ẋ (and F_ex) only, so F
///   is single-valued in v (no F–v loop) and jumps at a reversal (no finite dF/dx).
/// * DV, SD, SV pre-sliding and hysteresis: the Dahl term is the closed-form virgin curve of |X|
///   times sgn(Ẋ), so F jumps by twice that term at every reversal, and without reversal memory
///   the F–v loop stays below 1 % of its bounding box.
/// * DV stiction: F(0) = 0 and nothing else holds a load at rest.
/// * SD, SV stiction: μ_s F_N holds F_s at rest, but sliding friction is *higher* (μ_s F_N plus the
///   growing Dahl term), so there is no static level above a kinetic one.
///
/// Every other claimed cell agrees (stick-slip awaits the benchmark hook).
pub fn composite_disagreements(m: &Matrix) -> Vec<Disagreement> {
    let mut out = Vec::new();
    for (id, claims) in COMPOSITE_TABLE2 {
        let Some(p) = m.row(id) else { continue };
        for (k, flag) in p.flags().into_iter().enumerate() {
            let computed = match flag {
                Flag::Yes => true,
                Flag::No => false,
                Flag::NotRun | Flag::Undetermined => continue,
            };
            if computed != claims[k] {
                out.push(Disagreement {
                    model: id,
                    phenomenon: PHENOMENA[k],
                    paper: claims[k],
                });
            }
        }
    }
    out
}
