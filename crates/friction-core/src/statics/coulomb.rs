//! Coulomb friction F = μ_k F_N sgn(v) (\[T\] §6.1; also the library's `coulomb_model`).
//!
//! The baseline of every comparison: discontinuous at v = 0 with sgn(0) = 0, so it cannot hold a
//! body at rest by itself. The library's law is the same formula, so one id serves both.
//! Switching surface: v = 0 (jump of 2 F_C).

use super::{checked, sgn, static_model, Cat, FromValues, StaticLaw, FN, MAX_SWITCHES, MUK};
use crate::model::ModelInfo;
use crate::params::{ParamError, ParamSpec};

const PARAMS: [ParamSpec; 2] = [MUK, FN];

/// Registry description.
pub static INFO: ModelInfo = ModelInfo {
    id: "coulomb",
    name: "Coulomb",
    category: Cat::StaticNoStiction,
    provisional: false,
    params: &PARAMS,
};

/// Coulomb law with Coulomb level F_C = μ_k F_N \[N\].
#[derive(Debug, Clone, Copy)]
pub struct Coulomb {
    fc: f64,
}

impl FromValues for Coulomb {
    fn from_values(values: &[f64]) -> Result<Self, ParamError> {
        let [muk, fnorm] = checked(&PARAMS, values)?;
        Ok(Coulomb { fc: muk * fnorm })
    }
}

impl StaticLaw for Coulomb {
    fn info(&self) -> &'static ModelInfo {
        &INFO
    }
    fn force(&self, v: f64, _fe: f64) -> f64 {
        self.fc * sgn(v)
    }
    fn switching(&self, v: f64, _fe: f64, g: &mut [f64; MAX_SWITCHES]) -> usize {
        g[0] = v;
        1
    }
}
static_model!(Coulomb);
