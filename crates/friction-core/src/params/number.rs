//! Decimal text to `f64`, exactly as `str::parse::<f64>` does it (same texts accepted, same bits),
//! without the standard library's 17 KB table of powers of five.
//!
//! Why our own: the page's wasm carries every byte of code it can reach, and `f64::from_str` (the
//! Eisel–Lemire tables and their code) was ~15 KB of it gzipped (bench/results/wasm-size.md).
//! Numbers of at most 19 significant digits with a decimal exponent within ±22 whose digits fit
//! in 53 bits are one exact multiplication or division (Clinger's fast path); every other number
//! is rounded from exact big-integer arithmetic. `tests` compares it with `str::parse` bit for bit.

/// Significant digits kept: a value halfway between two doubles has at most 767 of them, so the
/// digits past 768 only say "more than the 768 written", kept as one extra nonzero digit.
const MAX_DIGITS: usize = 768;

/// The text as `f64`, or `None` where `text.parse::<f64>()` is an error.
///
/// Accepts what the standard library accepts: an optional sign, then `inf`, `infinity` or `nan`
/// (any case) or digits with an optional `.` and an optional exponent `e`/`E` with optional sign;
/// no spaces. The value is the nearest double (ties to even), ±inf beyond the largest.
pub fn parse_f64(text: &str) -> Option<f64> {
    let b = text.as_bytes();
    let (negative, body) = match b.first() {
        Some(b'-') => (true, &b[1..]),
        Some(b'+') => (false, &b[1..]),
        _ => (false, b),
    };
    let magnitude = if body.first().is_some_and(u8::is_ascii_digit) || body.first() == Some(&b'.') {
        number(body)?
    } else if body.eq_ignore_ascii_case(b"inf") || body.eq_ignore_ascii_case(b"infinity") {
        f64::INFINITY
    } else if body.eq_ignore_ascii_case(b"nan") {
        f64::NAN
    } else {
        return None;
    };
    Some(if negative { -magnitude } else { magnitude })
}

/// An unsigned decimal number `digits [. digits] [e [sign] digits]`, at least one mantissa digit.
fn number(b: &[u8]) -> Option<f64> {
    // on the stack: the fit worker parses every number of a record here
    let mut buf = [0u8; MAX_DIGITS + 1];
    let mut n = 0;
    // decimal exponent of the last kept digit's place, before the written exponent
    let mut exp10: i64 = 0;
    let mut any_digit = false;
    let mut dropped_nonzero = false;
    let mut i = 0;
    let mut after_point = false;
    while i < b.len() {
        let c = b[i];
        if c.is_ascii_digit() {
            any_digit = true;
            let d = c - b'0';
            if n == 0 && d == 0 {
                if after_point {
                    exp10 -= 1;
                }
            } else if n < MAX_DIGITS {
                buf[n] = d;
                n += 1;
                if after_point {
                    exp10 -= 1;
                }
            } else {
                dropped_nonzero |= d != 0;
                if !after_point {
                    exp10 += 1;
                }
            }
        } else if c == b'.' && !after_point {
            after_point = true;
        } else {
            break;
        }
        i += 1;
    }
    if !any_digit {
        return None;
    }
    if i < b.len() {
        if b[i] != b'e' && b[i] != b'E' {
            return None;
        }
        i += 1;
        let negative = match b.get(i) {
            Some(b'-') => {
                i += 1;
                true
            }
            Some(b'+') => {
                i += 1;
                false
            }
            _ => false,
        };
        if i == b.len() {
            return None;
        }
        let mut e: i64 = 0;
        for &c in &b[i..] {
            if !c.is_ascii_digit() {
                return None;
            }
            // the standard library stops reading the exponent's digits once it is 65536 or more;
            // so must we, for the same value on every text
            if e < 0x10000 {
                e = e * 10 + i64::from(c - b'0');
            }
        }
        exp10 += if negative { -e } else { e };
    }
    if dropped_nonzero {
        buf[n] = 1;
        n += 1;
        exp10 -= 1;
    }
    while n > 0 && buf[n - 1] == 0 {
        n -= 1;
        exp10 += 1;
    }
    if n == 0 {
        return Some(0.0);
    }
    Some(value(&buf[..n], exp10))
}

/// The double nearest `digits × 10^exp10` (digits: no leading or trailing zero, at most 769).
fn value(digits: &[u8], exp10: i64) -> f64 {
    // decimal point position: the value lies in [10^(point-1), 10^point)
    let point = digits.len() as i64 + exp10;
    if point > 310 {
        return f64::INFINITY;
    }
    if point < -324 {
        return 0.0;
    }
    if digits.len() <= 19 {
        let w = digits.iter().fold(0u64, |w, &d| w * 10 + u64::from(d));
        if w <= 1 << 53 && (-22..=22).contains(&exp10) {
            // w and 10^|exp10| are exact doubles: one correctly rounded operation
            let p = POW10[exp10.unsigned_abs() as usize];
            return if exp10 < 0 {
                w as f64 / p
            } else {
                w as f64 * p
            };
        }
    }
    let mut d = Big::from_digits(digits);
    if exp10 >= 0 {
        d.mul_pow10(exp10 as u32);
        let bits = d.bit_len();
        if bits <= 64 {
            return round(d.low64(), 0, false);
        }
        let shift = bits - 64;
        let top = d.shr_to_u64(shift);
        return round(top, shift as i64, d.any_below(shift));
    }
    // digits / 10^-exp10: a quotient of 55 or 56 bits and whether a remainder is left
    let mut s = Big::from_u32(1);
    s.mul_pow10(exp10.unsigned_abs() as u32);
    let k = i64::from(s.bit_len()) - i64::from(d.bit_len()) + 55;
    if k >= 0 {
        d.shl(k as u32);
    } else {
        s.shl((-k) as u32);
    }
    let mut q: u64 = 0;
    for bit in (0..57).rev() {
        let mut t = s.clone();
        t.shl(bit);
        if d.cmp(&t) != std::cmp::Ordering::Less {
            d.sub(&t);
            q |= 1 << bit;
        }
    }
    round(q, -k, !d.is_zero())
}

/// 10^0 ..= 10^22, each an exact double.
const POW10: [f64; 23] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16,
    1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
];

/// The double nearest `(m + δ) × 2^e2`, where δ is 0, or in (0, 1) if `sticky` (ties to even).
fn round(m: u64, e2: i64, sticky: bool) -> f64 {
    if m == 0 {
        return 0.0;
    }
    let len = i64::from(64 - m.leading_zeros());
    // bits to drop: down to 53, more below the smallest subnormal's place 2^-1074
    let shift = (len - 53).max(-1074 - e2);
    if shift <= 0 {
        return compose(m << -shift, e2 + shift);
    }
    let (mut mant, low, half) = if shift >= 65 {
        (0, 0, 1u128)
    } else {
        let s = shift as u32;
        let low = u128::from(m) & ((1u128 << s) - 1);
        ((u128::from(m) >> s) as u64, low, 1u128 << (s - 1))
    };
    // shift >= 65 leaves m below half of the kept unit: rounds down (low = 0 < half stands in)
    let up = low > half || (low == half && (sticky || mant & 1 == 1));
    let mut e = e2 + shift;
    if up {
        mant += 1;
        if mant == 1 << 53 {
            mant >>= 1;
            e += 1;
        }
    }
    compose(mant, e)
}

/// `mant × 2^e` for `mant < 2^53`, where a mantissa below 2^52 means `e` = -1074 (subnormal).
fn compose(mant: u64, e: i64) -> f64 {
    if mant == 0 {
        return 0.0;
    }
    if mant < 1 << 52 {
        return f64::from_bits(mant);
    }
    let biased = e + 52 + 1023;
    if biased >= 2047 {
        return f64::INFINITY;
    }
    f64::from_bits(((biased as u64) << 52) | (mant & ((1 << 52) - 1)))
}

/// A non-negative big integer, 32-bit limbs, least significant first.
#[derive(Clone)]
struct Big(Vec<u32>);

impl Big {
    fn from_u32(x: u32) -> Big {
        Big(vec![x])
    }

    fn from_digits(digits: &[u8]) -> Big {
        let mut b = Big(Vec::with_capacity(digits.len() / 9 + 2));
        for chunk in digits.chunks(9) {
            let mut v = 0u32;
            let mut scale = 1u32;
            for &d in chunk {
                v = v * 10 + u32::from(d);
                scale *= 10;
            }
            b.mul_add(scale, v);
        }
        b
    }

    /// self = self × m + a.
    fn mul_add(&mut self, m: u32, a: u32) {
        let mut carry = u64::from(a);
        for limb in &mut self.0 {
            let t = u64::from(*limb) * u64::from(m) + carry;
            *limb = t as u32;
            carry = t >> 32;
        }
        if carry > 0 {
            self.0.push(carry as u32);
        }
    }

    fn mul_pow10(&mut self, mut e: u32) {
        while e >= 9 {
            self.mul_add(1_000_000_000, 0);
            e -= 9;
        }
        self.mul_add(10u32.pow(e), 0);
    }

    fn trim(&mut self) {
        while self.0.last() == Some(&0) {
            self.0.pop();
        }
    }

    fn is_zero(&self) -> bool {
        self.0.iter().all(|&l| l == 0)
    }

    fn bit_len(&self) -> u32 {
        match self.0.iter().rposition(|&l| l != 0) {
            Some(i) => i as u32 * 32 + 32 - self.0[i].leading_zeros(),
            None => 0,
        }
    }

    fn shl(&mut self, n: u32) {
        let (limbs, bits) = ((n / 32) as usize, n % 32);
        if bits > 0 {
            let mut carry = 0u32;
            for limb in &mut self.0 {
                let v = *limb;
                *limb = (v << bits) | carry;
                carry = v >> (32 - bits);
            }
            if carry > 0 {
                self.0.push(carry);
            }
        }
        if limbs > 0 {
            self.0.splice(0..0, std::iter::repeat_n(0, limbs));
        }
    }

    /// Bit `i` (0 beyond the top).
    fn bit(&self, i: u32) -> u64 {
        self.0
            .get((i / 32) as usize)
            .map_or(0, |&l| u64::from((l >> (i % 32)) & 1))
    }

    /// The 64 bits from bit `shift` up.
    fn shr_to_u64(&self, shift: u32) -> u64 {
        (0..64).fold(0, |v, i| v | (self.bit(shift + i) << i))
    }

    fn low64(&self) -> u64 {
        self.shr_to_u64(0)
    }

    /// Whether any bit below bit `n` is set.
    fn any_below(&self, n: u32) -> bool {
        (0..n).any(|i| self.bit(i) == 1)
    }

    fn cmp(&self, other: &Big) -> std::cmp::Ordering {
        let (mut a, mut b) = (self.clone(), other.clone());
        a.trim();
        b.trim();
        a.0.len()
            .cmp(&b.0.len())
            .then_with(|| a.0.iter().rev().cmp(b.0.iter().rev()))
    }

    /// self -= other (other ≤ self).
    fn sub(&mut self, other: &Big) {
        let mut borrow = 0i64;
        for (i, limb) in self.0.iter_mut().enumerate() {
            let o = i64::from(other.0.get(i).copied().unwrap_or(0));
            let t = i64::from(*limb) - o - borrow;
            *limb = t.rem_euclid(1 << 32) as u32;
            borrow = i64::from(t < 0);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::parse_f64;

    fn same(text: &str) {
        let want = text.parse::<f64>().ok();
        let got = parse_f64(text);
        match (want, got) {
            (None, None) => {}
            (Some(w), Some(g)) if w.to_bits() == g.to_bits() || (w.is_nan() && g.is_nan()) => {
                assert_eq!(w.is_sign_negative(), g.is_sign_negative(), "{text}");
            }
            _ => panic!("{text}: std {want:?}, ours {got:?}"),
        }
    }

    /// A small deterministic generator (xorshift64*), so a failure names its text.
    struct Rng(u64);
    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 >> 12;
            self.0 ^= self.0 << 25;
            self.0 ^= self.0 >> 27;
            self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
        }
        fn below(&mut self, n: u64) -> u64 {
            self.next() % n
        }
    }

    #[test]
    fn syntax_matches_std() {
        for t in [
            "",
            "+",
            "-",
            ".",
            "e",
            "1e",
            "1e+",
            "e5",
            ".e5",
            "1.e5",
            ".5",
            "5.",
            "-.5e-3",
            "+1",
            "1_0",
            " 1",
            "1 ",
            "0x10",
            "1e5.5",
            "1..2",
            "--1",
            "+-1",
            "inf",
            "-inf",
            "+INF",
            "Infinity",
            "-infinity",
            "infinit",
            "nan",
            "NaN",
            "-nan",
            "+nan",
            "nan1",
            "in",
            "1E5",
            "1e-5",
            "00001",
            "0.000",
            "-0",
            "-0.0e10",
            "0e999999999999999999999",
            "1e999999999999",
            "1e-999999999999",
            "١",
            "1é",
        ] {
            same(t);
        }
    }

    #[test]
    fn hard_values_match_std() {
        for t in [
            "2.2250738585072011e-308",
            "2.2250738585072012e-308",
            "4.9406564584124654e-324",
            "2.4703282292062327e-324",
            "2.4703282292062328e-324",
            "2.47032822920623272e-324",
            "1.7976931348623157e308",
            "1.7976931348623158e308",
            "1.7976931348623159e308",
            "179769313486231580793728971405303415079934132710037826936173778980444968292764750946649017977587207096330286416692887910946555547851940402630657488671505820681908902000708383676273854845817711531764475730270069855571366959622842914819860834936475292719074168444365510704342711559699508093042880177904174497791.9999999999999999999999999999999999999999999999999999999999999999999999",
            "9007199254740993",
            "9007199254740992.5",
            "9007199254740993.0000000000000000000000000000000000001",
            "0.1",
            "0.30000000000000004",
            "123456789012345678901234567890",
            "1e23",
            "8.98846567431158e307",
            "5e-324",
            "1e-400",
            "7.2057594037927933e16",
            "0.000000000000000000000000000000000000000000000000000000000000001",
        ] {
            same(t);
            same(&format!("-{t}"));
        }
        // a halfway point between two subnormals written in full, then nudged past it
        let half = format!("{:.1100}", f64::from_bits(3) * 0.5);
        same(&half);
        same(&format!("{half}1"));
        let long = format!("{}{}", "1".repeat(800), "e-500");
        same(&long);
        // the exponent is read until it passes 65535 (70000 here: 0, not 1), as std reads it
        same(&format!("0.{}1e700001", "0".repeat(700_000)));
        same(&format!("0.{}1e70001", "0".repeat(70_000)));
        same(&format!("{}e-700001", "1".repeat(700_002)));
    }

    #[test]
    fn random_doubles_round_trip_as_std() {
        let mut r = Rng(0x9E37_79B9_7F4A_7C15);
        for _ in 0..200_000 {
            let x = f64::from_bits(r.next());
            if !x.is_finite() {
                continue;
            }
            same(&format!("{x}"));
            same(&format!("{x:e}"));
            same(&format!("{x:.3e}"));
            let p = r.below(20) as usize;
            same(&format!("{x:.p$e}"));
            // halfway between x and its neighbour: 17+ digits, the slow path's ties
            let y = f64::from_bits(x.to_bits() + 1);
            if y.is_finite() {
                let mid = (x / 2.0) + (y / 2.0);
                same(&format!("{mid:.40e}"));
            }
        }
    }

    /// `b` in decimal.
    fn decimal(b: &super::Big) -> String {
        let mut limbs = b.0.clone();
        let mut chunks = Vec::new();
        while limbs.iter().any(|&l| l != 0) {
            let mut rem = 0u64;
            for l in limbs.iter_mut().rev() {
                let cur = (rem << 32) | u64::from(*l);
                *l = (cur / 1_000_000_000) as u32;
                rem = cur % 1_000_000_000;
            }
            chunks.push(rem);
        }
        let mut out = chunks.pop().map_or("0".to_string(), |c| c.to_string());
        for c in chunks.iter().rev() {
            out.push_str(&format!("{c:09}"));
        }
        out
    }

    #[test]
    fn exact_ties_and_their_neighbours_match_std() {
        use super::Big;
        let mut r = Rng(777);
        for _ in 0..20_000 {
            let bits = r.next() >> 1;
            let x = f64::from_bits(bits);
            if !x.is_finite() || bits >> 52 == 0 {
                continue;
            }
            // x = m·2^e; the midpoint to the next double is (2m + 1)·2^(e-1)
            let m = (bits & ((1 << 52) - 1)) | (1 << 52);
            let e = (bits >> 52) as i64 - 1075;
            let mut d = {
                let mut b = Big(vec![0]);
                let v = 2 * m + 1;
                b.0 = vec![v as u32, (v >> 32) as u32];
                b
            };
            let (digits, exp10) = if e >= 1 {
                d.shl((e - 1) as u32);
                (decimal(&d), 0)
            } else {
                let k = (1 - e) as u32;
                for _ in 0..k {
                    d.mul_add(5, 0);
                }
                (decimal(&d), -(k as i64))
            };
            same(&format!("{digits}e{exp10}"));
            same(&format!("{digits}1e{}", exp10 - 1));
            let below = {
                let mut t = digits.into_bytes();
                let mut i = t.len() - 1;
                while t[i] == b'0' {
                    t[i] = b'9';
                    i -= 1;
                }
                t[i] -= 1;
                String::from_utf8(t).expect("ascii")
            };
            same(&format!("{below}9e{}", exp10 - 1));
        }
    }

    #[test]
    fn random_texts_match_std() {
        let mut r = Rng(12345);
        let alphabet = b"0123456789.eE+-";
        for _ in 0..300_000 {
            let n = 1 + r.below(30) as usize;
            let mut s: String = (0..n)
                .map(|_| {
                    let n = if r.below(4) == 0 { 15 } else { 10 };
                    let i = r.below(n);
                    alphabet[i as usize] as char
                })
                .collect();
            if r.below(3) == 0 {
                s.push('e');
                s.push_str(&(r.below(700) as i64 - 350).to_string());
            }
            same(&s);
        }
    }
}
