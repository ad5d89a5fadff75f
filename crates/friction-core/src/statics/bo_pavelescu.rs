//! Bo & Pavelescu (1982): F = \[F_C + (F_s − F_C)e^{−α|v|^δ}\] sgn(v) for v ≠ 0, stick branch
//! min(|F_e|, F_s) sgn(F_e) at v = 0 (\[T\] eq. 5.4, 5.6).
//!
//! An auxiliary Stribeck curve ([`BoPavelescu::curve`]). No v_S appears: α \[(s/m)^δ\] sets the
//! scale. Defaults δ = 2 and α = 1e6 (s/m)² (i.e. v_S = 1 mm/s) are placeholders.
//! Switching surfaces: v = 0 (jump), |F_e| = F_s at v = 0.

use super::{checked, static_model, Cat, FromValues, StaticLaw, FN, MAX_SWITCHES, MUK, MUS};
use crate::model::ModelInfo;
use crate::params::{ParamError, ParamSpec};

const PARAMS: [ParamSpec; 5] = [
    MUS,
    MUK,
    FN,
    ParamSpec {
        key: "alpha",
        name: "Shape factor (placeholder)",
        symbol: "α_BP",
        unit: "(s/m)^δ",
        default: 1e6,
        min: 1e-9,
        max: 1e30,
        log: true,
    },
    ParamSpec {
        key: "delta",
        name: "Geometry exponent (placeholder)",
        symbol: "δ_BP",
        unit: "",
        default: 2.0,
        min: 0.1,
        max: 10.0,
        log: false,
    },
];

/// Registry description.
pub static INFO: ModelInfo = ModelInfo {
    id: "bo-pavelescu",
    name: "Bo & Pavelescu (1982)",
    category: Cat::Auxiliary,
    provisional: false,
    params: &PARAMS,
};

/// Bo–Pavelescu law: F_s, F_C \[N\], α \[(s/m)^δ\], δ \[-\].
#[derive(Debug, Clone, Copy)]
pub struct BoPavelescu {
    fs: f64,
    fc: f64,
    alpha: f64,
    delta: f64,
}

impl BoPavelescu {
    /// The Stribeck curve magnitude F_C + (F_s − F_C)e^{−α|v|^δ} \[N\] (even in v).
    pub fn curve(&self, v: f64) -> f64 {
        self.fc + (self.fs - self.fc) * (-self.alpha * v.abs().powf(self.delta)).exp()
    }
}

impl FromValues for BoPavelescu {
    fn from_values(values: &[f64]) -> Result<Self, ParamError> {
        let [mus, muk, fnorm, alpha, delta] = checked(&PARAMS, values)?;
        Ok(BoPavelescu {
            fs: mus * fnorm,
            fc: muk * fnorm,
            alpha,
            delta,
        })
    }
}

impl StaticLaw for BoPavelescu {
    fn info(&self) -> &'static ModelInfo {
        &INFO
    }
    fn force(&self, v: f64, fe: f64) -> f64 {
        super::stribeck_force(v, fe, self.fs, self.curve(v), 0.0)
    }
    fn switching(&self, v: f64, fe: f64, g: &mut [f64; MAX_SWITCHES]) -> usize {
        super::stribeck_switching(v, fe, self.fs, g)
    }
}
static_model!(BoPavelescu);

impl super::StribeckCurve for BoPavelescu {
    fn curve(&self, v: f64) -> f64 {
        BoPavelescu::curve(self, v)
    }
}
