//! Starting points of a fit with `starts` > 1: the given values, then the best points of a
//! coarse pre-search.
//!
//! Why a pre-search: the sum of squares of a model with elements that stick or slip (GMS)
//! is a staircase in its parameters: where a parameter moves an element's breakaway across a
//! reversal the loops change at once, and from the defaults the local descent runs down a
//! step into the μ_s = μ_k corner (R² 0.84) while the truth lies one cliff away (μ_s just
//! above the default 0.15). Levenberg–Marquardt cannot see a cliff; points spread over the
//! whole parameter box (σ0 over decades, μ_s in [0, 10]) almost never land in the narrow
//! valley of the truth. So the pre-search evaluates the sum of squares (one model run each) at
//! [`LOCAL`] quasi-random points within a factor [`FACTOR`] of the given values and at
//! [`GLOBAL`] points over the whole box, and the best of them start the optimiser: cheaper
//! than one optimiser run (a few hundred model runs), and model-agnostic.

use crate::fit::{Evaluator, FitError, Progress, Transform};
use crate::spec::FitSpec;

/// Pre-search points near the given values.
pub const LOCAL: u32 = 64;
/// Pre-search points over the whole box (the central 80 % of each θ).
pub const GLOBAL: u32 = 64;
/// The local points lie within ×/÷ this factor of each given value.
pub const FACTOR: f64 = 4.0;

const PRIMES: [u32; 12] = [2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37];

/// Element `i` (≥ 1) of the Halton sequence in `base`, in (0, 1).
fn halton(i: u32, base: u32) -> f64 {
    let (mut f, mut r, mut i) = (1.0, 0.0, i);
    while i > 0 {
        f /= f64::from(base);
        r += f * f64::from(i % base);
        i /= base;
    }
    r
}

/// Point `s` of the sequence over the whole box, in θ (the central 80 % of the bounds).
fn global(s: u32, k: usize) -> Vec<f64> {
    (0..k)
        .map(|j| {
            let r = halton(s, PRIMES[j % PRIMES.len()]);
            (std::f64::consts::PI * 0.8 * (r - 0.5)).clamp(-1.5, 1.5)
        })
        .collect()
}

/// Point `s` near the given values `p0`: p0 × FACTOR^(2u − 1) inside the bounds (a value at
/// zero or its lower bound takes the whole box's point instead), in θ.
fn local(s: u32, spec: &FitSpec, tr: &[Transform], p0: &[f64]) -> Vec<f64> {
    let far = global(s, tr.len());
    (0..tr.len())
        .map(|j| {
            let u = halton(s, PRIMES[j % PRIMES.len()]);
            if p0[j] > 0.0 && p0[j] > spec.lo[j] {
                let p = (p0[j] * FACTOR.powf(2.0 * u - 1.0)).clamp(spec.lo[j], spec.hi[j]);
                tr[j].to_theta(p)
            } else {
                far[j]
            }
        })
        .collect()
}

/// The starting points in θ: the given values first, then, for `starts` > 1, the
/// `starts` − 1 best pre-search points (those the model accepts), best first. `progress` is
/// called after each pre-search run (start 0) and cancels when it returns false.
pub fn points(
    spec: &FitSpec,
    tr: &[Transform],
    ev: &mut Evaluator<'_>,
    m: usize,
    progress: &mut dyn FnMut(&Progress) -> bool,
) -> Result<Vec<Vec<f64>>, FitError> {
    let p0: Vec<f64> = spec.free.iter().map(|&i| spec.values[i]).collect();
    let given: Vec<f64> = tr.iter().zip(&p0).map(|(t, &p)| t.to_theta(p)).collect();
    if spec.starts <= 1 {
        return Ok(vec![given]);
    }
    let candidates = (1..=LOCAL)
        .map(|s| local(s, spec, tr, &p0))
        .chain((1..=GLOBAL).map(|s| global(s, tr.len())));
    let mut scored: Vec<(f64, Vec<f64>)> = Vec::new();
    let mut r = vec![0.0; m];
    let mut best = f64::INFINITY;
    for th in candidates {
        let p: Vec<f64> = tr.iter().zip(&th).map(|(t, &x)| t.to_p(x)).collect();
        if let Ok(()) = ev.residuals(&p, &mut r) {
            let ssr: f64 = r.iter().map(|a| a * a).sum();
            if ssr.is_finite() {
                best = best.min(ssr);
                scored.push((ssr, th));
            }
        }
        let go = progress(&Progress {
            runs: ev.runs,
            start: 0,
            starts: spec.starts,
            rms: (best / m as f64).sqrt(),
        });
        if !go {
            return Err(FitError::Cancelled);
        }
    }
    scored.sort_by(|a, b| a.0.total_cmp(&b.0));
    let mut out = vec![given];
    out.extend(scored.into_iter().take(spec.starts - 1).map(|(_, th)| th));
    Ok(out)
}
