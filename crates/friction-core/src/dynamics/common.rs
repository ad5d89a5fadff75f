//! Parameter descriptions shared by the thesis dynamic models (thesis Tables 6.1 and 7.1), so
//! that one benchmark view drives every model with the same keys.

use crate::params::ParamSpec;
pub(crate) use crate::stribeck::sgn;

/// μ_s, static friction coefficient (Table 6.1: 0.15).
pub(crate) const MUS: ParamSpec = ParamSpec {
    key: "mus",
    name: "Static friction coefficient",
    symbol: "μ_s",
    unit: "",
    default: 0.15,
    min: 0.0,
    max: 10.0,
    log: false,
};
/// μ_k, kinetic friction coefficient (Table 6.1: 0.1).
pub(crate) const MUK: ParamSpec = ParamSpec {
    key: "muk",
    name: "Kinetic friction coefficient",
    symbol: "μ_k",
    unit: "",
    default: 0.1,
    min: 1e-6,
    max: 10.0,
    log: false,
};
/// F_N, normal force (benchmark: m g = 9.81 N).
pub(crate) const FN: ParamSpec = ParamSpec {
    key: "fn",
    name: "Normal force",
    symbol: "F_N",
    unit: "N",
    default: 9.81,
    min: 1e-6,
    max: 1e6,
    log: true,
};
/// σ0, bristle stiffness (Table 7.1: 1e5 N/m).
pub(crate) const SIGMA0: ParamSpec = ParamSpec {
    key: "sigma0",
    name: "Bristle stiffness",
    symbol: "σ_0",
    unit: "N/m",
    default: 1e5,
    min: 1e-3,
    max: 1e10,
    log: true,
};
/// σ1, bristle damping (Table 7.1: √1e5 N·s/m).
pub(crate) const SIGMA1: ParamSpec = ParamSpec {
    key: "sigma1",
    name: "Bristle damping",
    symbol: "σ_1",
    unit: "N·s/m",
    default: 316.227_766_016_837_9,
    min: 0.0,
    max: 1e6,
    log: false,
};
/// σ2, viscous coefficient (Table 7.1: 0.1 N·s/m).
pub(crate) const SIGMA2: ParamSpec = ParamSpec {
    key: "sigma2",
    name: "Viscous coefficient",
    symbol: "σ_2",
    unit: "N·s/m",
    default: 0.1,
    min: 0.0,
    max: 1e4,
    log: false,
};
/// v_S, Stribeck velocity (Table 7.1: 1e-3 m/s).
pub(crate) const VS: ParamSpec = ParamSpec {
    key: "vs",
    name: "Stribeck velocity",
    symbol: "v_S",
    unit: "m/s",
    default: 1e-3,
    min: 1e-8,
    max: 10.0,
    log: true,
};

/// Checks all values against their specs and, if `mus`/`muk` are at the given indices,
/// that μ_s ≥ μ_k (the stiction level can not be below the Coulomb level).
pub(crate) fn check(
    specs: &[ParamSpec],
    values: &[f64],
) -> Result<Vec<f64>, crate::params::ParamError> {
    let v = crate::params::values_or_defaults(specs, values);
    crate::params::check_all(specs, &v)?;
    Ok(v)
}

/// Rejects μ_s < μ_k with an error naming `mus`.
pub(crate) fn check_mus_ge_muk(mus: f64, muk: f64) -> Result<(), crate::params::ParamError> {
    if mus < muk {
        Err(crate::params::ParamError::relation(
            &[("mus", mus), ("muk", muk)],
            "needs mus ≥ muk",
        ))
    } else {
        Ok(())
    }
}

/// Rejects a non-integer count (element number, seed) with an error naming `key`.
pub(crate) fn check_whole(key: &str, value: f64) -> Result<(), crate::params::ParamError> {
    if value.fract() != 0.0 {
        Err(crate::params::ParamError::new(
            key,
            &crate::params::fmt_num(value),
            "must be a whole number",
        ))
    } else {
        Ok(())
    }
}

/// r^δ for a Stribeck shape exponent δ, with the usual δ = 1 and δ = 2 done by multiplication:
/// `powf` costs tens of nanoseconds and the benchmark evaluates it at every solver stage.
#[inline]
pub(crate) fn shape_pow(r: f64, delta: f64) -> f64 {
    if delta == 2.0 {
        r * r
    } else if delta == 1.0 {
        r
    } else {
        r.powf(delta)
    }
}

/// e^{−e} for e ≥ 0. Exactly 0 where the exponential underflows anyway (e > 746): libm takes a
/// slow underflow path there, which is where every Stribeck term sits during gross slip.
#[inline]
pub(crate) fn exp_neg(e: f64) -> f64 {
    if e > 746.0 {
        0.0
    } else {
        (-e).exp()
    }
}
