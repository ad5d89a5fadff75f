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
const BISECTIONS: usize = 3;
/// Levenberg–Marquardt iterations per step.
const ITERATIONS: usize = 8;

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
    let k = p.len();
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
    let lo_b = spec.lo[c];
    let hi_b = spec.hi[c];
    let scale =
        spec.param(i).log && lo_b > 0.0 || base.p[c] > 0.0 && lo_b >= 0.0 && hi_b / base.p[c] > 1e3;
    // the sum of squares with c at `value`, the others re-fitted from `others` (updated)
    let mut refit = |value: f64, others: &mut Vec<f64>| -> Option<f64> {
        sub.values[i] = value;
        let mut e = Evaluator::new(&sub, data);
        e.set_rtol(crate::fit::rtol_search(spec));
        if others.is_empty() {
            let mut r = vec![0.0; data.len()];
            if !go() {
                return None;
            }
            return Some(e.ssr(&[], &mut r));
        }
        let v = Vars::new(&sub, others);
        let mut cb = |_: f64, _: &[f64]| go();
        let out = lm::minimise(&mut e, &v, others, ITERATIONS, &mut cb)?;
        if out.ssr.is_finite() {
            *others = out.p;
        }
        Some(out.ssr)
    };
    let mut side = |up: bool| -> Option<End> {
        let (mut prev_v, mut prev_s) = (base.p[c], base.ssr);
        let mut others: Vec<f64> = (0..k).filter(|&j| j != c).map(|j| base.p[j]).collect();
        let step_lin = 0.05 * (hi_b - lo_b).min(4.0 * base.p[c].abs().max(1e-12));
        for _ in 0..STEPS {
            let next = if scale && prev_v > 0.0 {
                if up {
                    prev_v * FACTOR
                } else if prev_v / FACTOR < 1e-3 * base.p[c] {
                    // three decades below the optimum: the bound itself (σ₁ = 0)
                    lo_b
                } else {
                    prev_v / FACTOR
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
            let ssr = refit(next, &mut others)?;
            if ssr > limit {
                // bisect the crossing between the last value inside and this one
                let (mut a, mut b) = (prev_v, next);
                let (mut sa, mut sb) = (prev_s, ssr);
                let mut keep = others.clone();
                for _ in 0..BISECTIONS {
                    let mid = if scale && a > 0.0 && b > 0.0 {
                        (a * b).sqrt()
                    } else {
                        0.5 * (a + b)
                    };
                    let mut o = keep.clone();
                    let sm = refit(mid, &mut o)?;
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
            prev_v = next;
            prev_s = ssr;
        }
        Some(End::Beyond(prev_v))
    };
    let hi = side(true)?;
    let lo = side(false)?;
    Some(Interval { lo, hi })
}
