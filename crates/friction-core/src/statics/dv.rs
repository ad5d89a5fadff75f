//! DV, Dahl + viscous (\[C\] eqs. 8–9):
//! F = μ_v Ẋ + F_c(1 − e^{−σ|X|/F_c}) sgn(Ẋ), sgn(0) = 0.
//!
//! The exponential is the closed-form Dahl virgin curve from X = 0, so the law is an algebraic
//! function of the displacement X and the velocity Ẋ: it has no reversal memory. X is carried as
//! this model's single state (dX/dt = Ẋ, X(0) = 0) so any scenario can drive it. F_c = μ_c F_N
//! with Table 1's "μ_c = 6" read as F_c = 6 N.
//! Switching surface: Ẋ = 0 (jump of 2F_c(1 − e^{−σ|X|/F_c})).

use super::{
    checked, dahl_virgin, sgn, Cat, FromValues, Switching, C_FN, C_MUK, C_MUV, C_SIGMA,
    MAX_SWITCHES,
};
use crate::model::{FrictionModel, ModelInfo};
use crate::params::{ParamError, ParamSpec};

const PARAMS: [ParamSpec; 4] = [C_MUV, C_MUK, C_FN, C_SIGMA];

/// Registry description.
pub static INFO: ModelInfo = ModelInfo {
    id: "dv",
    name: "DV: Dahl + viscous (Djidda Mahamat et al. 2025)",
    category: Cat::Composite,
    provisional: false,
    params: &PARAMS,
};

/// DV law: μ_v \[N·s/m\], F_c \[N\], σ \[N/m\]; state `[X]` \[m\].
#[derive(Debug, Clone, Copy)]
pub struct Dv {
    muv: f64,
    fc: f64,
    sigma: f64,
}

impl FromValues for Dv {
    fn from_values(values: &[f64]) -> Result<Self, ParamError> {
        let [muv, muc, fnorm, sigma] = checked(&PARAMS, values)?;
        Ok(Dv {
            muv,
            fc: muc * fnorm,
            sigma,
        })
    }
}

impl FrictionModel for Dv {
    fn info(&self) -> &'static ModelInfo {
        &INFO
    }
    fn n_states(&self) -> usize {
        1
    }
    fn derivative(&self, v: f64, _fe: f64, _x: &[f64], dx: &mut [f64]) {
        dx[0] = v;
    }
    fn force(&self, v: f64, _fe: f64, x: &[f64]) -> f64 {
        let pos = x.first().copied().unwrap_or(0.0);
        super::finite(self.muv * v + dahl_virgin(pos, self.fc, self.sigma) * sgn(v))
    }
}

impl Switching for Dv {
    fn switching(&self, v: f64, _fe: f64, _x: &[f64], g: &mut [f64; MAX_SWITCHES]) -> usize {
        g[0] = v;
        1
    }
}
