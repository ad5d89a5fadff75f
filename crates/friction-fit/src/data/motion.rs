//! Reversals of a record's motion, counted on its displacement with hysteresis: a direction
//! change counts only once the motion has gone back by a set distance from the turning point.
//!
//! Why on x and not on the sign of v: a quantised or noisy signal changes sign at every step of
//! the encoder while the body rests (the tribometer gave 1,271 "reversals" for 100 real ones);
//! a reversal that matters to a friction model moves the body back by more than a step.

/// Times \[s\] of the turning points of `x` at times `t`: where the motion, having gone one way,
/// goes back by more than `dmin` \[m\]. The first direction is the first move beyond `dmin`.
pub fn reversal_times(t: &[f64], x: &[f64], dmin: f64) -> Vec<f64> {
    let mut out = Vec::new();
    let Some(&x0) = x.first() else { return out };
    // direction: +1 up, -1 down, 0 not yet known; `ext` the extreme in the current direction
    let (mut dir, mut ext, mut t_ext) = (0.0_f64, x0, t[0]);
    let mut lo = x0;
    let mut hi = x0;
    for (k, &xk) in x.iter().enumerate() {
        if dir == 0.0 {
            lo = lo.min(xk);
            hi = hi.max(xk);
            if xk - lo > dmin {
                dir = 1.0;
                ext = xk;
                t_ext = t[k];
            } else if hi - xk > dmin {
                dir = -1.0;
                ext = xk;
                t_ext = t[k];
            }
            continue;
        }
        if (xk - ext) * dir > 0.0 {
            ext = xk;
            t_ext = t[k];
        } else if (ext - xk) * dir > dmin {
            out.push(t_ext);
            dir = -dir;
            ext = xk;
            t_ext = t[k];
        }
    }
    out
}

/// The hysteresis for counting reversals of `x`: five encoder steps of a quantised record, else
/// 1/1000 of the range of x (and never zero).
pub fn reversal_distance(x: &[f64]) -> f64 {
    let (lo, hi) = x
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), &v| {
            (a.min(v), b.max(v))
        });
    let range = (hi - lo).max(0.0);
    let q = super::smooth::quantum(x).map_or(0.0, |q| 5.0 * q);
    q.max(1e-3 * range).max(1e-300)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_quantised_triangle_wave_has_its_own_reversals_only() {
        let q = 1e-7;
        let t: Vec<f64> = (0..4000).map(|k| k as f64 * 0.005).collect();
        // triangle of period 4 s with dwells, plus one-step chatter during the dwells
        let x: Vec<f64> = t
            .iter()
            .enumerate()
            .map(|(k, &t)| {
                let p = t % 4.0;
                let a = if p < 1.0 {
                    0.0
                } else if p < 2.0 {
                    p - 1.0
                } else if p < 3.0 {
                    1.0
                } else {
                    4.0 - p
                };
                let chatter = if k % 7 == 0 { q } else { 0.0 };
                ((1e-4 * a + chatter) / q).round() * q
            })
            .collect();
        let r = reversal_times(&t, &x, reversal_distance(&x));
        // 5 periods: a turn at each top and each bottom after the first rise
        assert_eq!(r.len(), 9, "{r:?}");
    }
}
