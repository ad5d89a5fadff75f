//! x^(1/5), the error power of Rodas5P's step-size control (q = 1/5), without libm's `powf`.
//!
//! Why: `powf` is general (any base, any exponent, its special cases) and was 5–6 % of an
//! elasto-plastic stick-slip run (issue 39), once per step attempt and on the chain from one
//! step's error to the next step's factorisation. The root here is a table lookup and a
//! degree-7 polynomial: x = 2^(5a + b) · m with m in [1, 2) falls in one of 32 mantissa
//! intervals of centre c_j, so x^(1/5) = 2^a · (2^b c_j)^(1/5) · (m/c_j)^(1/5), where the middle
//! factor comes from a table built at compile time and the last, with |m/c_j − 1| ≤ 1/65, from
//! its binomial series (the first term left out is below 6e-17). Within 4 ulp of libm's root
//! (test `fifth_root_is_powf`), so step sizes differ from the libm ones at round-off only.

/// Mantissa bits that pick the interval.
const BITS: u32 = 5;
/// Intervals of the mantissa.
const NJ: usize = 1 << BITS;

/// c_j = 1 + (j + ½)/32, the centre of mantissa interval j.
const fn centre(j: usize) -> f64 {
    1.0 + (j as f64 + 0.5) / NJ as f64
}

/// t^(1/5) for 1 ≤ t < 32 by Newton's iteration from above (monotone for x^5 − t, so it stops
/// when it no longer decreases: within an ulp or two of the root).
const fn const_root5(t: f64) -> f64 {
    let mut y = 2.0; // ≥ 32^(1/5)
    let mut i = 0;
    while i < 100 {
        let y2 = y * y;
        let next = y - (y2 * y2 * y - t) / (5.0 * y2 * y2);
        if !(next < y) {
            break;
        }
        y = next;
        i += 1;
    }
    y
}

/// (2^b c_j)^(1/5) at index 32 b + j, b = 0 … 4.
static ROOTS: [f64; 5 * NJ] = {
    let mut t = [0.0; 5 * NJ];
    let mut k = 0;
    while k < 5 * NJ {
        let b = k / NJ;
        t[k] = const_root5((1u64 << b) as f64 * centre(k % NJ));
        k += 1;
    }
    t
};

/// 1/c_j.
static RECIPROCALS: [f64; NJ] = {
    let mut t = [0.0; NJ];
    let mut j = 0;
    while j < NJ {
        t[j] = 1.0 / centre(j);
        j += 1;
    }
    t
};

/// x^(1/5) for normal finite x > 0 (the step control clamps its error to ≥ 1e-10 first);
/// +∞ for +∞. Relative error a few ulp.
#[inline]
pub(super) fn fifth_root(x: f64) -> f64 {
    if !(x < f64::INFINITY) {
        return x;
    }
    let bits = x.to_bits();
    // x normal and positive: no sign bit, biased exponent 1 … 2046
    let e = (bits >> 52) as i64 - 1023;
    let a = e.div_euclid(5);
    let b = (e - 5 * a) as usize;
    let j = ((bits >> (52 - BITS)) as usize) & (NJ - 1);
    let m = f64::from_bits((bits & ((1u64 << 52) - 1)) | 1.0f64.to_bits());
    let d = m * RECIPROCALS[j] - 1.0;
    // (1 + d)^(1/5) = Σ binom(1/5, k) d^k, k ≤ 7, by Estrin's scheme
    const C: [f64; 8] = [
        1.0,
        0.2,
        -0.08,
        0.048,
        -0.0336,
        0.025_536,
        -0.020_428_8,
        0.016_926_72,
    ];
    let d2 = d * d;
    let q0 = (C[0] + C[1] * d) + (C[2] + C[3] * d) * d2;
    let q1 = (C[4] + C[5] * d) + (C[6] + C[7] * d) * d2;
    let p = q0 + q1 * (d2 * d2);
    // 2^a: |a| ≤ 205 for a normal x, a normal power of two
    let scale = f64::from_bits(((a + 1023) as u64) << 52);
    scale * ROOTS[b * NJ + j] * p
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Relative distance of the fifth root from libm's, in ulp of the result. libm's is
    /// `powf(0.2)` corrected for 0.2 not being 1/5 in binary (it is 1/5 + 1.11e-17, which
    /// for x = 1e200 moves the power by 5e-15).
    fn ulps(x: f64) -> f64 {
        const EXCESS: f64 = 1.110_223_024_625_156_5e-17;
        let want = x.powf(0.2) * (1.0 - EXCESS * x.ln());
        (fifth_root(x) - want).abs() / (want * f64::EPSILON)
    }

    proptest! {
        /// Against libm over the errors the control sees (1e-10 up to a failed attempt's
        /// huge ones), logarithmically spread.
        #[test]
        fn fifth_root_is_powf(l in -10.0f64..300.0) {
            let x = 10f64.powf(l);
            prop_assert!(ulps(x) <= 4.0, "x = {x:e}: {} ulp", ulps(x));
        }

        /// Around 1, where the step-size factor is decided (0.9/err^q between its clamps).
        #[test]
        fn fifth_root_near_one(x in 1e-5f64..2e3) {
            prop_assert!(ulps(x) <= 4.0, "x = {x:e}: {} ulp", ulps(x));
        }
    }

    /// The edges of the table: powers of two (each exponent residue), interval boundaries and
    /// the control's floor, and the exact roots of fifth powers.
    #[test]
    fn fifth_root_at_table_edges() {
        for e in -40..40 {
            for j in 0..=NJ {
                let x = 2f64.powi(e) * (1.0 + j as f64 / NJ as f64);
                for x in [
                    x,
                    f64::from_bits(x.to_bits() - 1),
                    f64::from_bits(x.to_bits() + 1),
                ] {
                    assert!(ulps(x) <= 4.0, "x = {x:e}: {} ulp", ulps(x));
                }
            }
        }
        assert!(ulps(1e-10) <= 4.0);
        for k in 1..100 {
            let r = f64::from(k) / 10.0;
            let x = r * r * r * r * r;
            assert!((fifth_root(x) - r).abs() <= 4.0 * r * f64::EPSILON, "{r}^5");
        }
        assert_eq!(fifth_root(f64::INFINITY), f64::INFINITY);
        assert_eq!(fifth_root(1.0), 1.0);
    }
}
