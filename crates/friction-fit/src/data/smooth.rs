//! A displacement read by an encoder comes in steps (the tribometer's x in steps of 0.1 µm):
//! where the body hardly moves, the cubic spline through such samples gives a velocity that
//! chatters between ± one step per sample interval, a reversal at every step. Before such a
//! record drives the models, x is smoothed by a local quadratic fitted by least squares over
//! ±w around each sample (a Savitzky–Golay filter on the record's own, possibly uneven, times).
//!
//! The width is chosen from the data: w is the time in which the record's typical speed covers
//! [`QUANTA`] steps (so that one step of the encoder changes the local slope by at most about
//! 1/[`QUANTA`] of the typical speed), at least [`MIN_SAMPLES`] samples each side and at most
//! 1/[`MAX_FRACTION`] of the typical time between reversals (so the filter does not round off a
//! reversal). A record whose x is not quantised (its differences are not whole multiples of
//! one step) is left as it is.

/// Encoder steps the typical speed covers in the half-width w.
pub const QUANTA: f64 = 20.0;
/// Fewest samples each side of the window.
pub const MIN_SAMPLES: usize = 2;
/// The half-width is at most this fraction of the median time between reversals.
pub const MAX_FRACTION: f64 = 20.0;

/// Whether and how a displacement-only record's x is smoothed (`smooth=` in the fit query).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub enum Smooth {
    /// Smooth a quantised x with a width chosen from the data (the default).
    #[default]
    Auto,
    /// Never smooth.
    Off,
    /// Smooth with this half-width \[s\].
    Width(f64),
}

/// What the smoothing did, for the report.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Smoothing {
    /// The encoder step found \[m\] (0 when the width was given and x is not quantised).
    pub quantum: f64,
    /// Half-width w of the window \[s\].
    pub half_width: f64,
    /// Samples each side at the median sample interval.
    pub samples: usize,
}

/// The step of a quantised x: the smallest nonzero |Δx|, when at least 95 % of the differences
/// are whole multiples of it (within 1 %) and at least one in ten is zero or one step; `None`
/// for a record that is not quantised.
pub fn quantum(x: &[f64]) -> Option<f64> {
    let d: Vec<f64> = x.windows(2).map(|w| (w[1] - w[0]).abs()).collect();
    let scale = x.iter().fold(0.0_f64, |a, b| a.max(b.abs()));
    let nonzero: Vec<f64> = d.iter().copied().filter(|&a| a > 1e-12 * scale).collect();
    if nonzero.len() < 10 {
        return None;
    }
    let mut sorted = nonzero.clone();
    sorted.sort_by(f64::total_cmp);
    // the 1st percentile: robust to a rare odd difference
    let q = sorted[sorted.len() / 100];
    if q <= 0.0 {
        return None;
    }
    let whole = d
        .iter()
        .filter(|&&a| {
            let r = a / q;
            (r - r.round()).abs() < 0.01
        })
        .count();
    let small = d.iter().filter(|&&a| a / q < 1.5).count();
    (whole as f64 >= 0.95 * d.len() as f64 && small * 10 >= d.len()).then_some(q)
}

fn median(mut a: Vec<f64>) -> f64 {
    if a.is_empty() {
        return 0.0;
    }
    a.sort_by(f64::total_cmp);
    a[a.len() / 2]
}

/// The half-width \[s\] for a quantised `x` at times `t` with step `q`, and the samples each side.
fn width(t: &[f64], x: &[f64], q: f64) -> (f64, usize) {
    let dt = median(t.windows(2).map(|w| w[1] - w[0]).collect());
    let speeds: Vec<f64> = t
        .windows(2)
        .zip(x.windows(2))
        .filter(|(_, xw)| (xw[1] - xw[0]).abs() > 1.5 * q)
        .map(|(tw, xw)| ((xw[1] - xw[0]) / (tw[1] - tw[0])).abs())
        .collect();
    let v_typ = median(speeds);
    let mut w = if v_typ > 0.0 { QUANTA * q / v_typ } else { 0.0 };
    w = w.max(MIN_SAMPLES as f64 * dt);
    let stroke = super::motion::reversal_times(t, x, 5.0 * q);
    if stroke.len() >= 3 {
        let gap = median(stroke.windows(2).map(|a| a[1] - a[0]).collect());
        w = w.min((gap / MAX_FRACTION).max(MIN_SAMPLES as f64 * dt));
    }
    (w, (w / dt).round().max(1.0) as usize)
}

/// x smoothed as `how` says, and what was done (`None`: x unchanged).
pub fn apply(t: &[f64], x: &[f64], how: Smooth) -> (Vec<f64>, Option<Smoothing>) {
    let (q, w) = match how {
        Smooth::Off => return (x.to_vec(), None),
        Smooth::Auto => match quantum(x) {
            Some(q) => {
                let (w, _) = width(t, x, q);
                (q, w)
            }
            None => return (x.to_vec(), None),
        },
        Smooth::Width(w) if w > 0.0 => (quantum(x).unwrap_or(0.0), w),
        Smooth::Width(_) => return (x.to_vec(), None),
    };
    let dt = median(t.windows(2).map(|w| w[1] - w[0]).collect());
    let samples = if dt > 0.0 {
        (w / dt).round() as usize
    } else {
        0
    };
    (
        local_quadratic(t, x, w),
        Some(Smoothing {
            quantum: q,
            half_width: w,
            samples,
        }),
    )
}

/// The value at each sample of the least-squares quadratic through the samples within ±`w` of
/// it (a line where the window holds fewer than four samples, the sample itself where it holds
/// one).
pub fn local_quadratic(t: &[f64], x: &[f64], w: f64) -> Vec<f64> {
    let n = t.len();
    let mut out = vec![0.0; n];
    let (mut lo, mut hi) = (0usize, 0usize);
    for k in 0..n {
        while t[k] - t[lo] > w {
            lo += 1;
        }
        while hi + 1 < n && t[hi + 1] - t[k] <= w {
            hi += 1;
        }
        let m = hi - lo + 1;
        if m < 3 {
            out[k] = x[k];
            continue;
        }
        // normal equations in s = (t - t_k)/w, which keeps them well scaled
        let mut sp = [0.0; 5];
        let mut sx = [0.0; 3];
        for j in lo..=hi {
            let s = (t[j] - t[k]) / w;
            let mut p = 1.0;
            for (i, a) in sp.iter_mut().enumerate() {
                *a += p;
                if i < 3 {
                    sx[i] += p * x[j];
                }
                p *= s;
            }
        }
        out[k] = if m >= 4 {
            // value at s = 0 of the quadratic: first component of the 3 × 3 solve
            let a = [
                [sp[0], sp[1], sp[2]],
                [sp[1], sp[2], sp[3]],
                [sp[2], sp[3], sp[4]],
            ];
            solve3(a, sx).map_or(x[k], |c| c[0])
        } else {
            let det = sp[0] * sp[2] - sp[1] * sp[1];
            if det.abs() > 0.0 {
                (sx[0] * sp[2] - sx[1] * sp[1]) / det
            } else {
                x[k]
            }
        };
    }
    out
}

/// Cramer's rule for a 3 × 3 system; `None` when it is singular.
fn solve3(a: [[f64; 3]; 3], b: [f64; 3]) -> Option<[f64; 3]> {
    let det = |m: [[f64; 3]; 3]| {
        m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1])
            - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0])
            + m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0])
    };
    let d = det(a);
    if d.abs() < 1e-300 {
        return None;
    }
    let mut out = [0.0; 3];
    for (c, o) in out.iter_mut().enumerate() {
        let mut m = a;
        for r in 0..3 {
            m[r][c] = b[r];
        }
        *o = det(m) / d;
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_quadratic_is_kept_exactly() {
        let t: Vec<f64> = (0..50)
            .map(|k| k as f64 * 0.01 + 0.003 * (k % 3) as f64)
            .collect();
        let x: Vec<f64> = t.iter().map(|&t| 1.0 + 2.0 * t - 3.0 * t * t).collect();
        let y = local_quadratic(&t, &x, 0.05);
        for (a, b) in x.iter().zip(&y) {
            assert!((a - b).abs() < 1e-12, "{a} {b}");
        }
    }

    #[test]
    fn quantised_sine_is_found_and_smoothed() {
        let q = 1e-7;
        let t: Vec<f64> = (0..4000).map(|k| k as f64 * 0.005).collect();
        let truth: Vec<f64> = t.iter().map(|&t| 1e-4 * (t * 1.5).sin()).collect();
        let x: Vec<f64> = truth.iter().map(|&a| (a / q).round() * q).collect();
        assert_eq!(quantum(&x).map(|a| (a / q).round()), Some(1.0));
        let (y, how) = apply(&t, &x, Smooth::Auto);
        let how = how.expect("smoothed");
        assert!(how.half_width > 0.0);
        let err = |a: &[f64]| {
            a.iter()
                .zip(&truth)
                .map(|(a, b)| (a - b).powi(2))
                .sum::<f64>()
                .sqrt()
        };
        assert!(err(&y) < err(&x), "{} {}", err(&y), err(&x));
        // a smooth, unquantised record is left alone
        assert!(quantum(&truth).is_none());
    }
}
