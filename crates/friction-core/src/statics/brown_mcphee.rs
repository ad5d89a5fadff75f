//! Brown & McPhee (2016): F = F_C tanh(4v/v_t) + (F_s − F_C)(v/v_t)/(¼(v/v_t)² + ¾)²
//! + σ v tanh(4F_N/F_N,t) (\[T\] eq. 6.30–6.31).
//!
//! A continuous law with physically meaningful parameters: the static peak sits at v_t, where
//! F(v_t) = F_C tanh 4 + (F_s − F_C) when σ = 0. v_t, σ and F_N,t are not in the seed: the
//! defaults v_t = 1e-3 m/s, σ = 0.1 N·s/m and F_N,t = 1 N are placeholders, not from \[T\].
//! Odd, C^∞: no switching surface.

use super::{checked, static_model, vel, visc, Cat, FromValues, StaticLaw, FN, MUK, MUS};
use crate::model::ModelInfo;
use crate::params::{ParamError, ParamSpec};

const PARAMS: [ParamSpec; 6] = [
    MUS,
    MUK,
    FN,
    vel("vt", "Transition velocity (placeholder)", "v_t", 1e-3),
    visc("sigma", "Viscous coefficient (placeholder)", "σ", 0.1),
    ParamSpec {
        key: "fnt",
        name: "Transition normal force (placeholder)",
        symbol: "F_N,t",
        unit: "N",
        default: 1.0,
        min: 1e-9,
        max: 1e6,
        log: true,
    },
];

/// Registry description.
pub static INFO: ModelInfo = ModelInfo {
    id: "brown-mcphee",
    name: "Brown & McPhee (2016)",
    category: Cat::StaticStiction,
    provisional: false,
    params: &PARAMS,
};

/// Brown–McPhee law: F_s, F_C \[N\], v_t \[m/s\], viscous gain σ·tanh(4F_N/F_N,t) \[N·s/m\].
#[derive(Debug, Clone, Copy)]
pub struct BrownMcPhee {
    fs: f64,
    fc: f64,
    vt: f64,
    visc: f64,
}

impl FromValues for BrownMcPhee {
    fn from_values(values: &[f64]) -> Result<Self, ParamError> {
        let [mus, muk, fnorm, vt, sigma, fnt] = checked(&PARAMS, values)?;
        Ok(BrownMcPhee {
            fs: mus * fnorm,
            fc: muk * fnorm,
            vt,
            visc: sigma * (4.0 * fnorm / fnt).tanh(),
        })
    }
}

impl StaticLaw for BrownMcPhee {
    fn info(&self) -> &'static ModelInfo {
        &INFO
    }
    fn force(&self, v: f64, _fe: f64) -> f64 {
        let r = v / self.vt;
        // (¼r² + ¾)² overflows for |r| > 1e154; the term is then 0.
        let den = 0.25 * r * r + 0.75;
        let stiction = if den.is_finite() && den < 1e150 {
            r / (den * den)
        } else {
            0.0
        };
        self.fc * (4.0 * r).tanh() + (self.fs - self.fc) * stiction + self.visc * v
    }
}
static_model!(BrownMcPhee);
