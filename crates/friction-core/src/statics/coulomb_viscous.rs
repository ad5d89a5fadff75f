//! Coulomb + linear viscous: F = F_C sgn(v) + c_v v for v ≠ 0, and min(|F_e|, F_C) sgn(F_e) at
//! v = 0 (\[T\] eq. 5.2).
//!
//! As printed, the stick branch is capped by F_C (not F_s): no stiction. c_v = 0.1 N·s/m (the
//! thesis' σ2) is a placeholder. Switching surfaces: v = 0 (jump), |F_e| = F_C at v = 0.

use super::{
    checked, sgn, static_model, stick, visc, Cat, FromValues, StaticLaw, FN, MAX_SWITCHES, MUK,
};
use crate::model::ModelInfo;
use crate::params::{ParamError, ParamSpec};

const PARAMS: [ParamSpec; 3] = [
    MUK,
    FN,
    visc("cv", "Viscous coefficient (placeholder)", "c_v", 0.1),
];

/// Registry description.
pub static INFO: ModelInfo = ModelInfo {
    id: "coulomb-viscous",
    name: "Coulomb + viscous",
    category: Cat::Auxiliary,
    provisional: false,
    params: &PARAMS,
};

/// Coulomb + viscous law: F_C \[N\], c_v \[N·s/m\].
#[derive(Debug, Clone, Copy)]
pub struct CoulombViscous {
    fc: f64,
    cv: f64,
}

impl FromValues for CoulombViscous {
    fn from_values(values: &[f64]) -> Result<Self, ParamError> {
        let [muk, fnorm, cv] = checked(&PARAMS, values)?;
        Ok(CoulombViscous {
            fc: muk * fnorm,
            cv,
        })
    }
}

impl StaticLaw for CoulombViscous {
    fn info(&self) -> &'static ModelInfo {
        &INFO
    }
    fn force(&self, v: f64, fe: f64) -> f64 {
        if v == 0.0 {
            stick(fe, self.fc)
        } else {
            self.fc * sgn(v) + self.cv * v
        }
    }
    fn switching(&self, v: f64, fe: f64, g: &mut [f64; MAX_SWITCHES]) -> usize {
        g[0] = v;
        g[1] = fe.abs() - self.fc;
        2
    }
}
static_model!(CoulombViscous);
