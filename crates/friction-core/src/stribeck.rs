//! The Stribeck law of the FrBD letter and the regularised absolute value and sign (Romano et al.,
//! arXiv:2601.13799).
//!
//! These are the building blocks of the FrBD models and of the steady-state reference curve the
//! page draws under the hysteresis loops.

use crate::params::ParamSpec;

/// Regularised absolute value |y|_ε = √(y² + ε), with ε ≥ 0 \[unit of y²\].
///
/// It satisfies |y|_ε ≥ |y|, the hypothesis of the letter's boundedness lemma.
#[inline]
pub fn abs_eps(y: f64, eps: f64) -> f64 {
    if eps == 0.0 {
        y.abs()
    } else {
        (y * y + eps).sqrt()
    }
}

/// sgn(x) with sgn(0) = 0; NaN gives 0 too, so the event search of the solver
/// never counts a switching function that is not finite as crossed.
#[inline]
pub fn sgn(x: f64) -> f64 {
    if x > 0.0 {
        1.0
    } else if x < 0.0 {
        -1.0
    } else {
        0.0
    }
}

/// Regularised sign sgn_ε(y) = y / |y|_ε, with sgn_0(0) := 0 (the letter leaves 0/0).
#[inline]
pub fn sgn_eps(y: f64, eps: f64) -> f64 {
    let d = abs_eps(y, eps);
    if d == 0.0 {
        0.0
    } else {
        y / d
    }
}

/// Parameters of the Stribeck law μ(v) = μ_d + (μ_s − μ_d)·exp(−(|v|/v_S)^δ_S).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Stribeck {
    /// Static friction coefficient μ_s \[-\].
    pub mu_s: f64,
    /// Dynamic (Coulomb) friction coefficient μ_d \[-\].
    pub mu_d: f64,
    /// Stribeck velocity v_S \[m/s\].
    pub v_s: f64,
    /// Stribeck exponent δ_S \[-\].
    pub delta: f64,
}

impl Stribeck {
    /// Parameter descriptions, in field order; defaults are Table I of the FrBD letter.
    pub const PARAMS: [ParamSpec; 4] = [
        ParamSpec {
            key: "mus",
            name: "Static friction coefficient",
            symbol: "μ_s",
            unit: "",
            default: 1.5,
            min: 1e-3,
            max: 10.0,
            log: false,
        },
        ParamSpec {
            key: "mud",
            name: "Dynamic friction coefficient",
            symbol: "μ_d",
            unit: "",
            default: 1.0,
            min: 1e-3,
            max: 10.0,
            log: false,
        },
        ParamSpec {
            key: "vs",
            name: "Stribeck velocity",
            symbol: "v_S",
            unit: "m/s",
            default: 0.01,
            min: 1e-6,
            max: 10.0,
            log: true,
        },
        ParamSpec {
            key: "delta",
            name: "Stribeck exponent",
            symbol: "δ_S",
            unit: "",
            default: 2.0,
            min: 0.1,
            max: 10.0,
            log: false,
        },
    ];

    /// Table I of the FrBD letter: μ_s = 1.5, μ_d = 1, v_S = 0.01 m/s, δ_S = 2.
    pub const TABLE_I: Stribeck = Stribeck {
        mu_s: 1.5,
        mu_d: 1.0,
        v_s: 0.01,
        delta: 2.0,
    };

    /// Friction coefficient μ(v) \[-\]; even in v, between min(μ_s, μ_d) and max(μ_s, μ_d).
    #[inline]
    pub fn mu(&self, v: f64) -> f64 {
        let r = v.abs() / self.v_s;
        let e = if self.delta == 2.0 {
            r * r
        } else {
            r.powf(self.delta)
        };
        self.mu_d + (self.mu_s - self.mu_d) * (-e).exp()
    }

    /// Steady-state friction coefficient f = sgn_ε(v)·μ(v) (letter eq. 14).
    #[inline]
    pub fn steady(&self, v: f64, eps: f64) -> f64 {
        sgn_eps(v, eps) * self.mu(v)
    }
}

impl Default for Stribeck {
    fn default() -> Self {
        Self::TABLE_I
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stribeck_limits_and_value_at_vs() {
        let s = Stribeck::TABLE_I;
        assert_eq!(s.mu(0.0), 1.5);
        assert!((s.mu(1.0) - 1.0).abs() < 1e-12);
        // μ(v_S) = μ_d + (μ_s − μ_d)/e = 1 + 0.5/e = 1.18394 for Table I (Fig. 4's level).
        assert!((s.mu(0.01) - 1.183_939_720_585_721).abs() < 1e-12);
        assert_eq!(s.mu(-0.003), s.mu(0.003));
    }

    #[test]
    fn regularisations() {
        assert_eq!(sgn_eps(0.0, 0.0), 0.0);
        assert_eq!(sgn_eps(-2.0, 0.0), -1.0);
        assert!(abs_eps(0.0, 1e-6) > 0.0);
        assert!(abs_eps(0.3, 1e-6) >= 0.3);
        assert!(sgn_eps(1e-3, 1e-6).abs() < 1.0);
    }
}
