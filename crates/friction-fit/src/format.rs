//! Numbers as the report and the notes write them. A leaf: every module that words a message
//! uses it, and it uses none of them.

use friction_core::params::parse_f64;

/// Numbers as people read them: four significant digits.
pub fn num(x: f64) -> String {
    if !x.is_finite() {
        return if x > 0.0 {
            "∞".into()
        } else if x < 0.0 {
            "−∞".into()
        } else {
            "NaN".into()
        };
    }
    let a = x.abs();
    if a != 0.0 && !(1e-3..1e5).contains(&a) {
        format!("{x:.3e}")
    } else {
        parse_f64(&format!("{x:.3e}")).map_or_else(|| x.to_string(), |r| r.to_string())
    }
}

/// A unit of a rotary record: metres read as radians and newtons as newton-metres
/// (`N/m` → `N·m/rad`, `m/s` → `rad/s`).
pub fn unit_of(unit: &str, rotary: bool) -> String {
    if !rotary {
        return unit.to_string();
    }
    let c: Vec<char> = unit.chars().collect();
    let mut out = String::new();
    for (i, &ch) in c.iter().enumerate() {
        let alone = |j: Option<&char>| j.is_none_or(|x| !x.is_alphabetic());
        if ch == 'm' && alone(i.checked_sub(1).and_then(|j| c.get(j))) && alone(c.get(i + 1)) {
            out.push_str("rad");
        } else if ch == 'N' {
            out.push_str("N·m");
        } else {
            out.push(ch);
        }
    }
    out
}
