//! Bengisu & Akay (1994): F = F_C sgn(v)(1 − e^{−α|v|})\[1 + (ξ − 1)e^{−β|v|}\], ξ = F_s/F_C
//! (the \[T\] product form of eq. 6.8–6.9).
//!
//! A smooth Stribeck curve without a velocity window. F(0) = 0 and F → F_C; the peak reaches F_s
//! only when α ≫ β, so it is below F_s in general. α and β are not in the seed: the defaults
//! α = 1e4 s/m, β = 1e3 s/m (a Stribeck decay on the thesis' v_S = 1 mm/s scale, peak ≈ 0.875 F_s)
//! are placeholders, not from \[T\]. No switching surface (C¹).

use super::{checked, sgn, static_model, Cat, FromValues, StaticLaw, FN, MUK, MUS};
use crate::model::ModelInfo;
use crate::params::{ParamError, ParamSpec};

const fn rate(key: &'static str, name: &'static str, symbol: &'static str, d: f64) -> ParamSpec {
    ParamSpec {
        key,
        name,
        symbol,
        unit: "s/m",
        default: d,
        min: 1e-3,
        max: 1e9,
        log: true,
    }
}

const PARAMS: [ParamSpec; 5] = [
    MUS,
    // ξ = μ_s/μ_k: the shared range's end μ_k = 0 could never run, so it ends above it
    ParamSpec { min: 1e-6, ..MUK },
    FN,
    rate("alpha", "Rise rate (placeholder, not from [T])", "α", 1e4),
    rate("beta", "Decay rate (placeholder, not from [T])", "β", 1e3),
];

/// Registry description.
pub static INFO: ModelInfo = ModelInfo {
    id: "bengisu-akay",
    name: "Bengisu & Akay (1994)",
    category: Cat::StaticStiction,
    provisional: false,
    params: &PARAMS,
};

/// Bengisu–Akay law: F_C \[N\], ratio ξ = F_s/F_C \[-\], rates α, β \[s/m\].
#[derive(Debug, Clone, Copy)]
pub struct BengisuAkay {
    fc: f64,
    xi: f64,
    alpha: f64,
    beta: f64,
}

impl FromValues for BengisuAkay {
    fn from_values(values: &[f64]) -> Result<Self, ParamError> {
        let [mus, muk, fnorm, alpha, beta] = checked(&PARAMS, values)?;
        Ok(BengisuAkay {
            fc: muk * fnorm,
            xi: mus / muk,
            alpha,
            beta,
        })
    }
}

impl StaticLaw for BengisuAkay {
    fn info(&self) -> &'static ModelInfo {
        &INFO
    }
    fn force(&self, v: f64, _fe: f64) -> f64 {
        let a = v.abs();
        let rise = -(-self.alpha * a).exp_m1();
        let bump = 1.0 + (self.xi - 1.0) * (-self.beta * a).exp();
        self.fc * sgn(v) * rise * bump
    }
}
static_model!(BengisuAkay);
