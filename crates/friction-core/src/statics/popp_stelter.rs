//! Popp & Stelter (1990) — **provisional: formula not recoverable from the source** (\[T\]
//! eq. 5.8 is garbled).
//!
//! Our best reading of the rational law with two curve-fitting parameters:
//! F = \[F_C + (F_s − F_C)/(1 + κ1|v|)\] sgn(v) + κ2 v|v| for v ≠ 0 (κ2 v² written odd), and the
//! stick branch min(|F_e|, F_s) sgn(F_e) at v = 0. κ1 = 1000 s/m and κ2 = 0.1 N·s²/m² are
//! placeholders. Switching surfaces: v = 0 (jump), |F_e| = F_s at v = 0.

use super::{checked, static_model, Cat, FromValues, StaticLaw, FN, MAX_SWITCHES, MUK, MUS};
use crate::model::ModelInfo;
use crate::params::{ParamError, ParamSpec};

const PARAMS: [ParamSpec; 5] = [
    MUS,
    MUK,
    FN,
    ParamSpec {
        key: "kappa1",
        name: "Curve-fitting parameter 1 (placeholder)",
        symbol: "κ1",
        unit: "s/m",
        default: 1000.0,
        min: 0.0,
        max: 1e9,
        log: false,
    },
    ParamSpec {
        key: "kappa2",
        name: "Curve-fitting parameter 2 (placeholder)",
        symbol: "κ2",
        unit: "N·s²/m²",
        default: 0.1,
        min: 0.0,
        max: 1e6,
        log: false,
    },
];

/// Registry description (provisional).
pub static INFO: ModelInfo = ModelInfo {
    id: "popp-stelter",
    name: "Popp & Stelter (1990) — provisional",
    category: Cat::Auxiliary,
    provisional: true,
    params: &PARAMS,
};

/// Provisional Popp–Stelter law: F_s, F_C \[N\], κ1 \[s/m\], κ2 \[N·s²/m²\].
#[derive(Debug, Clone, Copy)]
pub struct PoppStelter {
    fs: f64,
    fc: f64,
    k1: f64,
    k2: f64,
}

impl PoppStelter {
    /// The Stribeck part F_C + (F_s − F_C)/(1 + κ1|v|) \[N\] (even in v).
    pub fn curve(&self, v: f64) -> f64 {
        self.fc + (self.fs - self.fc) / (1.0 + self.k1 * v.abs())
    }
}

impl FromValues for PoppStelter {
    fn from_values(values: &[f64]) -> Result<Self, ParamError> {
        let [mus, muk, fnorm, k1, k2] = checked(&PARAMS, values)?;
        Ok(PoppStelter {
            fs: mus * fnorm,
            fc: muk * fnorm,
            k1,
            k2,
        })
    }
}

impl StaticLaw for PoppStelter {
    fn info(&self) -> &'static ModelInfo {
        &INFO
    }
    fn force(&self, v: f64, fe: f64) -> f64 {
        super::stribeck_force(v, fe, self.fs, self.curve(v), self.k2 * v * v.abs())
    }
    fn switching(&self, v: f64, fe: f64, g: &mut [f64; MAX_SWITCHES]) -> usize {
        super::stribeck_switching(v, fe, self.fs, g)
    }
}
static_model!(PoppStelter);

impl super::StribeckCurve for PoppStelter {
    fn curve(&self, v: f64) -> f64 {
        PoppStelter::curve(self, v)
    }
}
