//! Profile-likelihood intervals: for a parameter the linearised interval cannot bound (a
//! near-singular Jacobian, a value on a bound), the values it can take while the others are
//! re-fitted and the sum of squares stays within the 95 % limit.
//!
//! Why: the linearised interval p̂ ± t·SE is a statement about the Jacobian at one point; where
//! the Jacobian is near-singular it says "±∞" or crosses zero for a parameter that cannot be
//! negative, while the data may still bound it on one side (σ₁ ≤ 40 N·s/m on the tribometer
//! record). The profile asks the model itself.
//!
//! How: on the reduced record of the search (every d-th sample), the optimum is re-fitted, then
//! the parameter is stepped away from it on each side (×/÷ 3 per step for a scale, a twentieth
//! of its box for a coefficient), the others re-fitted from the previous step by a few
//! Levenberg–Marquardt iterations, until the sum of squares rises by χ²₁(0.95)·s²·m′/m (s² the
//! full record's residual variance, m′/m the share of its samples the reduced record holds, so
//! the limit is that of the full record), or the parameter reaches its bound (no limit on that
//! side). The crossing is interpolated linearly between the last two steps.

use crate::data::Data;
use crate::eval::Evaluator;
use crate::lm::{self, Vars};
use crate::spec::FitSpec;

/// χ²₁ 95 % quantile.
const CHI2_95: f64 = 3.841_458_820_694_124;
/// Most steps on each side.
const STEPS: usize = 10;
/// Step factor of a scale parameter (ten steps span 4.8 decades).
const FACTOR: f64 = 3.0;
/// Bisections of the step where the sum of squares crosses the limit.
const BISECTIONS: usize = 2;
/// Iterations of a full re-fit (at a crossing and in the bisections).
const FINE_ITERATIONS: usize = 8;
/// Levenberg–Marquardt iterations per step (Jacobians' worth of model runs, with Broyden's
/// updates between Jacobians by differences: the others move little from step to step).
const ITERATIONS: usize = 6;

/// One end of a profile interval.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum End {
    /// The sum of squares reaches the limit here.
    At(f64),
    /// Still inside the limit here, where the profile stopped stepping.
    Beyond(f64),
    /// Inside the limit up to the parameter's bound: no limit on this side.
    Bound,
}

/// A profile interval.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Interval {
    /// Lower end.
    pub lo: End,
    /// Upper end.
    pub hi: End,
}

/// The profile interval of free parameter `c` of `spec` at the optimum `p` on `data`, where the
/// full record's residual variance is `s2` and `share` = m′/m; `runs` counts model runs, and
/// `go` is asked after each (false cancels: `None`).
pub fn interval(
    spec: &FitSpec,
    data: &Data,
    p: &[f64],
    c: usize,
    s2: f64,
    share: f64,
    go: &mut dyn FnMut() -> bool,
) -> Option<Interval> {
    let mut ev = Evaluator::new(spec, data);
    ev.set_rtol(crate::fit::rtol_search(spec));
    // the reduced record's own optimum
    let vars = Vars::new(spec, p);
    let mut cb = |_: f64, _: &[f64]| go();
    let base = lm::minimise(&mut ev, &vars, p, 6, &mut cb)?;
    if !base.ssr.is_finite() {
        return Some(Interval {
            lo: End::Bound,
            hi: End::Bound,
        });
    }
    let limit = base.ssr + CHI2_95 * s2 * share;
    // the others free, c fixed at each step's value
    let mut sub = spec.clone();
    let i = spec.free[c];
    sub.fix(i);
    let sub = sub;
    let lo_b = spec.lo[c];
    let hi_b = spec.hi[c];
    let scale =
        spec.param(i).log && lo_b > 0.0 || base.p[c] > 0.0 && lo_b >= 0.0 && hi_b / base.p[c] > 1e3;
    let run = |up: bool, go: &mut dyn FnMut() -> bool| {
        side(&sub, data, c, i, &base, (limit, lo_b, hi_b), scale, up, go)
    };
    let (lo, hi) = both_sides(&run, go)?;
    Some(Interval { lo, hi })
}

/// One side of a profile: `run(up, go)`.
type SideFn<'a> = dyn Fn(bool, &mut dyn FnMut() -> bool) -> Option<End> + Sync + 'a;

/// The two sides of a profile, `run(up, go)` each: natively on two threads at once (their
/// model runs are independent, and a profile is most of the report's cost), reporting to `go`
/// on the caller's thread; in the page's worker one after the other.
fn both_sides(run: &SideFn<'_>, go: &mut dyn FnMut() -> bool) -> Option<(End, End)> {
    #[cfg(not(target_arch = "wasm32"))]
    {
        use std::sync::atomic::{AtomicBool, Ordering};
        use std::sync::mpsc;
        let stop = AtomicBool::new(false);
        let (tx, rx) = mpsc::channel::<()>();
        std::thread::scope(|sc| {
            let side_on = |up: bool, tx: mpsc::Sender<()>| {
                let stop = &stop;
                move || {
                    let mut tick = || tx.send(()).is_ok() && !stop.load(Ordering::Relaxed);
                    run(up, &mut tick)
                }
            };
            let upper = sc.spawn(side_on(true, tx.clone()));
            let lower = sc.spawn(side_on(false, tx));
            // every model run of either side, until both are done (their senders dropped)
            for () in rx {
                if !go() {
                    stop.store(true, Ordering::Relaxed);
                }
            }
            let hi = upper.join().ok().flatten();
            let lo = lower.join().ok().flatten();
            if stop.load(Ordering::Relaxed) {
                return None;
            }
            Some((lo?, hi?))
        })
    }
    #[cfg(target_arch = "wasm32")]
    {
        let hi = run(true, go)?;
        let lo = run(false, go)?;
        Some((lo, hi))
    }
}

/// One side of the profile of free parameter `c` (index `i` into the values; `sub` has it
/// fixed, the others free) from the re-fitted optimum `base`: where the sum of squares crosses
/// `limit` going up (`up`) or down within the bounds [lo_b, hi_b], stepping by factors where
/// `scale`.
#[allow(clippy::too_many_arguments)]
fn side(
    sub: &FitSpec,
    data: &Data,
    c: usize,
    i: usize,
    base: &lm::Outcome,
    (limit, lo_b, hi_b): (f64, f64, f64),
    scale: bool,
    up: bool,
    go: &mut dyn FnMut() -> bool,
) -> Option<End> {
    let mut sub = sub.clone();
    let k = base.p.len();
    // the sum of squares with c at `value`, the others re-fitted from `others` (updated)
    let mut refit = |value: f64, others: &mut Vec<f64>, fine: bool| -> Option<f64> {
        sub.values[i] = value;
        let mut e = Evaluator::new(&sub, data);
        e.set_rtol(crate::fit::rtol_search(&sub));
        if others.is_empty() {
            let mut r = vec![0.0; data.len()];
            if !go() {
                return None;
            }
            return Some(e.ssr(&[], &mut r));
        }
        let v = Vars::new(&sub, others);
        let mut cb = |_: f64, _: &[f64]| go();
        // stepping: a few iterations with Broyden's updates; at a crossing, a full re-fit, so
        // that a re-fit cut short does not pass for a rise of the sum of squares (which would
        // make the interval too narrow)
        let out = if fine {
            lm::minimise_with(&mut e, &v, others, FINE_ITERATIONS, 3, &mut cb)?
        } else {
            lm::minimise_with(&mut e, &v, others, ITERATIONS, 3, &mut cb)?
        };
        if out.ssr.is_finite() {
            *others = out.p;
        }
        Some(out.ssr)
    };
    {
        let (mut prev_v, mut prev_s) = (base.p[c], base.ssr);
        let mut others: Vec<f64> = (0..k).filter(|&j| j != c).map(|j| base.p[j]).collect();
        let mut step_lin = 0.05 * (hi_b - lo_b).min(4.0 * base.p[c].abs().max(1e-12));
        let mut factor = FACTOR;
        for _ in 0..STEPS {
            let next = if scale && prev_v > 0.0 {
                if up {
                    prev_v * factor
                } else if prev_v / factor < 1e-3 * base.p[c] {
                    // three decades below the optimum: the bound itself (σ₁ = 0)
                    lo_b
                } else {
                    prev_v / factor
                }
            } else if up {
                prev_v + step_lin
            } else {
                prev_v - step_lin
            };
            let (next, at_bound) = if up && next >= hi_b {
                (hi_b, true)
            } else if !up && next <= lo_b {
                (lo_b, true)
            } else {
                (next, false)
            };
            let inside = others.clone();
            let mut ssr = refit(next, &mut others, false)?;
            if ssr > limit {
                // a crossing? re-fit there in full from the last point inside first
                let mut o = inside.clone();
                let fine = refit(next, &mut o, true)?;
                if fine < ssr {
                    ssr = fine;
                    others = o;
                }
            }
            if ssr > limit {
                // bisect the crossing between the last value inside and this one
                let (mut a, mut b) = (prev_v, next);
                let (mut sa, mut sb) = (prev_s, ssr);
                let mut keep = inside;
                for _ in 0..BISECTIONS {
                    let mid = if scale && a > 0.0 && b > 0.0 {
                        (a * b).sqrt()
                    } else {
                        0.5 * (a + b)
                    };
                    let mut o = keep.clone();
                    let sm = refit(mid, &mut o, true)?;
                    if sm > limit {
                        (b, sb) = (mid, sm);
                    } else {
                        (a, sa, keep) = (mid, sm, o);
                    }
                }
                let f = ((limit - sa) / (sb - sa)).clamp(0.0, 1.0);
                return Some(End::At(a + f * (b - a)));
            }
            if at_bound {
                return Some(End::Bound);
            }
            // a step that used little of the room to the limit: the next one twice as long
            // (in ln p for a scale), so a flat side reaches its bound in a few steps
            if ssr - prev_s < 0.25 * (limit - prev_s) {
                factor *= factor;
                step_lin *= 2.0;
            }
            prev_v = next;
            prev_s = ssr;
        }
        Some(End::Beyond(prev_v))
    }
}
