//! The few statistics a fit report needs: Student's t quantile (for 95 % intervals with few
//! degrees of freedom) and a small seeded random-number generator for example data.
//!
//! Why hand-written: a t quantile is thirty lines on top of the incomplete beta function, and
//! `statrs` would pull a second linear-algebra crate and `rand` into the page's worker; the
//! generator must give the same noise on every platform for a given seed (PCG32, O'Neill 2014).

/// ln Γ(x) for x > 0 (Lanczos, g = 7, 9 terms: about 15 digits).
fn ln_gamma(x: f64) -> f64 {
    const G: [f64; 9] = [
        0.999_999_999_999_809_9,
        676.520_368_121_885_1,
        -1_259.139_216_722_402_8,
        771.323_428_777_653_1,
        -176.615_029_162_140_6,
        12.507_343_278_686_905,
        -0.138_571_095_265_720_12,
        9.984_369_578_019_572e-6,
        1.505_632_735_149_311_6e-7,
    ];
    if x < 0.5 {
        // reflection
        let pi = std::f64::consts::PI;
        return (pi / (pi * x).sin()).ln() - ln_gamma(1.0 - x);
    }
    let x = x - 1.0;
    let mut a = G[0];
    let t = x + 7.5;
    for (i, g) in G.iter().enumerate().skip(1) {
        a += g / (x + i as f64);
    }
    0.5 * (2.0 * std::f64::consts::PI).ln() + (x + 0.5) * t.ln() - t + a.ln()
}

/// Continued fraction of the incomplete beta function (modified Lentz).
fn beta_cf(a: f64, b: f64, x: f64) -> f64 {
    let tiny = 1e-300;
    let (qab, qap, qam) = (a + b, a + 1.0, a - 1.0);
    let mut c = 1.0;
    let mut d = 1.0 - qab * x / qap;
    if d.abs() < tiny {
        d = tiny;
    }
    d = 1.0 / d;
    let mut h = d;
    for m in 1..300 {
        let m = m as f64;
        let m2 = 2.0 * m;
        let aa = m * (b - m) * x / ((qam + m2) * (a + m2));
        d = 1.0 + aa * d;
        d = if d.abs() < tiny { tiny } else { d };
        c = 1.0 + aa / c;
        c = if c.abs() < tiny { tiny } else { c };
        d = 1.0 / d;
        h *= d * c;
        let aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2));
        d = 1.0 + aa * d;
        d = if d.abs() < tiny { tiny } else { d };
        c = 1.0 + aa / c;
        c = if c.abs() < tiny { tiny } else { c };
        d = 1.0 / d;
        let del = d * c;
        h *= del;
        if (del - 1.0).abs() < 1e-15 {
            break;
        }
    }
    h
}

/// Regularised incomplete beta function I_x(a, b).
pub fn inc_beta(a: f64, b: f64, x: f64) -> f64 {
    if x <= 0.0 {
        return 0.0;
    }
    if x >= 1.0 {
        return 1.0;
    }
    let ln_front = ln_gamma(a + b) - ln_gamma(a) - ln_gamma(b) + a * x.ln() + b * (1.0 - x).ln();
    if x < (a + 1.0) / (a + b + 2.0) {
        ln_front.exp() * beta_cf(a, b, x) / a
    } else {
        1.0 - ln_front.exp() * beta_cf(b, a, 1.0 - x) / b
    }
}

/// P(T ≤ t) for Student's t with `df` degrees of freedom.
pub fn t_cdf(t: f64, df: f64) -> f64 {
    let tail = 0.5 * inc_beta(0.5 * df, 0.5, df / (df + t * t));
    if t >= 0.0 {
        1.0 - tail
    } else {
        tail
    }
}

/// The `p` quantile (0.5 < p < 1) of Student's t with `df` ≥ 1 degrees of freedom, by
/// bisection on [`t_cdf`] (to 1e-12).
pub fn t_quantile(p: f64, df: f64) -> f64 {
    let (mut lo, mut hi) = (0.0_f64, 1.0_f64);
    while t_cdf(hi, df) < p && hi < 1e12 {
        hi *= 2.0;
    }
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if t_cdf(mid, df) < p {
            lo = mid;
        } else {
            hi = mid;
        }
        if hi - lo <= 1e-12 * hi {
            break;
        }
    }
    0.5 * (lo + hi)
}

/// PCG32 (XSH-RR) with Box–Muller normals: reproducible noise for a seed on every platform.
#[derive(Debug, Clone)]
pub struct Pcg {
    state: u64,
    inc: u64,
    spare: Option<f64>,
}

impl Pcg {
    /// A generator for `seed` (stream fixed).
    pub fn new(seed: u64) -> Pcg {
        let mut r = Pcg {
            state: 0,
            inc: (0xda3e_39cb_94b9_5bdb << 1) | 1,
            spare: None,
        };
        r.next_u32();
        r.state = r.state.wrapping_add(seed);
        r.next_u32();
        r
    }

    /// Next 32 random bits.
    pub fn next_u32(&mut self) -> u32 {
        let old = self.state;
        self.state = old
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(self.inc);
        let xorshifted = (((old >> 18) ^ old) >> 27) as u32;
        let rot = (old >> 59) as u32;
        xorshifted.rotate_right(rot)
    }

    /// Uniform in (0, 1).
    pub fn uniform(&mut self) -> f64 {
        let hi = u64::from(self.next_u32()) << 21;
        let lo = u64::from(self.next_u32()) >> 11;
        ((hi | lo) as f64 + 0.5) / (1u64 << 53) as f64
    }

    /// Standard normal.
    pub fn normal(&mut self) -> f64 {
        if let Some(s) = self.spare.take() {
            return s;
        }
        let (u1, u2) = (self.uniform(), self.uniform());
        let r = (-2.0 * u1.ln()).sqrt();
        let a = 2.0 * std::f64::consts::PI * u2;
        self.spare = Some(r * a.sin());
        r * a.cos()
    }
}

const PRIMES: [u32; 12] = [2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37];

/// Element `i` (≥ 1) of the Halton sequence in dimension `dim` (the `dim`-th prime as its
/// base), in (0, 1): quasi-random points that fill a box evenly, the same on every run.
pub fn halton(i: u32, dim: usize) -> f64 {
    let base = PRIMES[dim % PRIMES.len()];
    let (mut f, mut r, mut i) = (1.0, 0.0, i);
    while i > 0 {
        f /= f64::from(base);
        r += f * f64::from(i % base);
        i /= base;
    }
    r
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Table values of t_{0.975} (any statistics table; scipy.stats.t.ppf gives the same).
    #[test]
    fn t_quantiles_match_tables() {
        for (df, q) in [
            (1.0, 12.706_204_736_174_7),
            (2.0, 4.302_652_729_749_464),
            (5.0, 2.570_581_835_636_314),
            (10.0, 2.228_138_851_986_274),
            (30.0, 2.042_272_456_301_238),
            // z + (z³ + z)/(4ν) for ν = 1e6, z = 1.959963985 (the next term is 1e-12)
            (1e6, 1.959_966_357_3),
        ] {
            let got = t_quantile(0.975, df);
            assert!((got - q).abs() < 1e-8 * q, "df {df}: {got} vs {q}");
        }
    }

    #[test]
    fn normals_have_unit_variance() {
        let mut r = Pcg::new(7);
        let n = 200_000;
        let (mut s, mut s2) = (0.0, 0.0);
        for _ in 0..n {
            let z = r.normal();
            s += z;
            s2 += z * z;
        }
        let mean = s / n as f64;
        let var = s2 / n as f64 - mean * mean;
        assert!(
            mean.abs() < 0.01 && (var - 1.0).abs() < 0.01,
            "{mean} {var}"
        );
        assert_eq!(Pcg::new(3).next_u32(), Pcg::new(3).next_u32());
        assert_ne!(Pcg::new(3).next_u32(), Pcg::new(4).next_u32());
    }
}
