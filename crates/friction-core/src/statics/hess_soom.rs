//! Hess & Soom (1990), "Lorentzian": F = \[F_C + (F_s − F_C)/(1 + (v/v_S)²)\] sgn(v) + c_v v for
//! v ≠ 0, stick branch min(|F_e|, F_s) sgn(F_e) at v = 0 (\[T\] eq. 5.4, 5.7).
//!
//! An auxiliary Stribeck curve with viscous growth ([`HessSoom::curve`]). v_S = 1e-3 m/s and
//! c_v = 0.1 N·s/m (the thesis' σ2) are placeholders. Switching surfaces: v = 0 (jump),
//! |F_e| = F_s at v = 0.

use super::{
    checked, static_model, vel, visc, Cat, FromValues, StaticLaw, FN, MAX_SWITCHES, MUK, MUS,
};
use crate::model::ModelInfo;
use crate::params::{ParamError, ParamSpec};

const PARAMS: [ParamSpec; 5] = [
    MUS,
    MUK,
    FN,
    vel("vs", "Stribeck velocity (placeholder)", "v_S", 1e-3),
    visc("cv", "Viscous coefficient (placeholder)", "c_v", 0.1),
];

/// Registry description.
pub static INFO: ModelInfo = ModelInfo {
    id: "hess-soom",
    name: "Hess & Soom (1990)",
    category: Cat::Auxiliary,
    provisional: false,
    params: &PARAMS,
};

/// Hess–Soom law: F_s, F_C \[N\], v_S \[m/s\], c_v \[N·s/m\].
#[derive(Debug, Clone, Copy)]
pub struct HessSoom {
    fs: f64,
    fc: f64,
    vs: f64,
    cv: f64,
}

impl HessSoom {
    /// The Stribeck part F_C + (F_s − F_C)/(1 + (v/v_S)²) \[N\] (even in v, without viscous term).
    pub fn curve(&self, v: f64) -> f64 {
        let r = v / self.vs;
        let lorentz = if r.abs() > 1e150 {
            0.0
        } else {
            1.0 / (1.0 + r * r)
        };
        self.fc + (self.fs - self.fc) * lorentz
    }
}

impl FromValues for HessSoom {
    fn from_values(values: &[f64]) -> Result<Self, ParamError> {
        let [mus, muk, fnorm, vs, cv] = checked(&PARAMS, values)?;
        Ok(HessSoom {
            fs: mus * fnorm,
            fc: muk * fnorm,
            vs,
            cv,
        })
    }
}

impl StaticLaw for HessSoom {
    fn info(&self) -> &'static ModelInfo {
        &INFO
    }
    fn force(&self, v: f64, fe: f64) -> f64 {
        super::stribeck_force(v, fe, self.fs, self.curve(v), self.cv * v)
    }
    fn switching(&self, v: f64, fe: f64, g: &mut [f64; MAX_SWITCHES]) -> usize {
        super::stribeck_switching(v, fe, self.fs, g)
    }
}
static_model!(HessSoom);

impl super::StribeckCurve for HessSoom {
    fn curve(&self, v: f64) -> f64 {
        HessSoom::curve(self, v)
    }
}
