//! The n = 1 mapping between the rheological parameters and (σ0, σ1, γ1) of the differential form
//! f + γ1·ḟ = σ0·z + σ1·ż (letter eq. 5; our derivation from the Laplace form, checked
//! symbolically).
//!
//! GM: σ0 = k̄0, σ1 = τ1(k̄0 + k̄1), γ1 = τ1. GKV: γ1 = c̄1/(k̄0 + k̄1), σ0 = k̄0k̄1/(k̄0 + k̄1),
//! σ1 = c̄1k̄0/(k̄0 + k̄1). A (σ0, σ1, γ1) that maps to a non-positive stiffness is rejected: both
//! rheologies need σ1 > σ0·γ1 (an instantaneous stiffness σ1/γ1 above the static one σ0).

use super::spec;
use crate::params::{fmt_num, ParamError};

fn check_sigma(s0: f64, s1: f64, g1: f64) -> Result<(), ParamError> {
    spec::SIGMA0.check(s0)?;
    spec::SIGMA1.check(s1)?;
    spec::GAMMA1.check(g1)?;
    if s1 <= s0 * g1 {
        return Err(ParamError::relation(
            &[("sigma1", s1), ("sigma0", s0), ("gamma1", g1)],
            format!(
                "non-physical: needs σ1 > σ0·γ1 = {} (else the branch stiffness k̄1 = σ1/γ1 − σ0 \
                 would be ≤ 0)",
                fmt_num(s0 * g1)
            ),
        ));
    }
    Ok(())
}

/// Checks a value the triple maps to; the error names the triple with its values (the value
/// out of range is none of the keys given).
fn in_range(
    (s0, s1, g1): (f64, f64, f64),
    value: f64,
    spec: &crate::params::ParamSpec,
    what: &str,
) -> Result<(), ParamError> {
    if spec.check(value).is_err() {
        return Err(ParamError::relation(
            &[("sigma1", s1), ("sigma0", s0), ("gamma1", g1)],
            format!(
                "maps to {what} = {} outside {}",
                fmt_num(value),
                spec.range_text()
            ),
        ));
    }
    Ok(())
}

/// GM (k̄0, k̄1, τ1) from (σ0, σ1, γ1): k̄0 = σ0, k̄1 = σ1/γ1 − σ0, τ1 = γ1.
pub fn gm_from_sigma(s0: f64, s1: f64, g1: f64) -> Result<(f64, f64, f64), ParamError> {
    check_sigma(s0, s1, g1)?;
    let k1 = s1 / g1 - s0;
    in_range((s0, s1, g1), k1, &spec::K1, "k̄1 = σ1/γ1 − σ0")?;
    Ok((s0, k1, g1))
}

/// (σ0, σ1, γ1) of a GM n = 1 model.
pub fn gm_to_sigma(k0: f64, k1: f64, tau1: f64) -> (f64, f64, f64) {
    (k0, tau1 * (k0 + k1), tau1)
}

/// GKV (k̄0, k̄1, c̄1) from (σ0, σ1, γ1): k̄0 = σ1/γ1, k̄1 = σ0k̄0/(k̄0 − σ0), c̄1 = γ1(k̄0 + k̄1).
pub fn gkv_from_sigma(s0: f64, s1: f64, g1: f64) -> Result<(f64, f64, f64), ParamError> {
    check_sigma(s0, s1, g1)?;
    let k0 = s1 / g1;
    let k1 = s0 * k0 / (k0 - s0);
    let c1 = g1 * (k0 + k1);
    in_range((s0, s1, g1), k0, &spec::K0_GKV, "k̄0 = σ1/γ1")?;
    in_range((s0, s1, g1), k1, &spec::K1_GKV, "k̄1 = σ0k̄0/(k̄0 − σ0)")?;
    in_range((s0, s1, g1), c1, &spec::C1, "c̄1 = γ1(k̄0 + k̄1)")?;
    Ok((k0, k1, c1))
}

/// (σ0, σ1, γ1) of a GKV n = 1 model.
pub fn gkv_to_sigma(k0: f64, k1: f64, c1: f64) -> (f64, f64, f64) {
    let s = k0 + k1;
    (k0 * k1 / s, c1 * k0 / s, c1 / s)
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    fn rel(a: f64, b: f64) -> f64 {
        (a - b).abs() / b.abs()
    }

    #[test]
    fn table_i_maps_to_the_spec_values() {
        let (k0, k1, t1) = gm_from_sigma(1e4, 64.5, 1e-3).unwrap();
        assert_eq!((k0, t1), (1e4, 1e-3));
        assert!(rel(k1, 5.45e4) < 1e-12);
        let (k0, k1, c1) = gkv_from_sigma(1e4, 64.5, 1e-3).unwrap();
        assert!(rel(k0, 64500.0) < 1e-12);
        assert!(rel(k1, 11834.862385321) < 1e-10);
        assert!(rel(c1, 76.334862385321) < 1e-10);
    }

    #[test]
    fn mappings_round_trip() {
        for &(s0, s1, g1) in &[(1e4, 64.5, 1e-3), (3.0, 10.0, 0.5), (1e8, 500.0, 1e-6)] {
            let (a, b, c) = gm_from_sigma(s0, s1, g1).unwrap();
            let back = gm_to_sigma(a, b, c);
            assert!(rel(back.0, s0) < 1e-12 && rel(back.1, s1) < 1e-12 && rel(back.2, g1) < 1e-12);
            let (a, b, c) = gkv_from_sigma(s0, s1, g1).unwrap();
            let back = gkv_to_sigma(a, b, c);
            assert!(rel(back.0, s0) < 1e-9 && rel(back.1, s1) < 1e-9 && rel(back.2, g1) < 1e-9);
        }
    }

    #[test]
    fn non_physical_sets_are_rejected_with_reason() {
        let e = gm_from_sigma(1e4, 5.0, 1e-3).unwrap_err();
        assert_eq!(e.key, "sigma1");
        assert!(e.reason.contains("non-physical"), "{e}");
        assert!(gkv_from_sigma(1e4, 10.0, 1e-3).is_err());
        assert!(gm_from_sigma(f64::NAN, 64.5, 1e-3).is_err());
    }
}
