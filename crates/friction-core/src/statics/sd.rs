//! SD, static + Dahl (\[C\] eq. 10):
//! F = μ_s F_N \[sgn Ẋ\] + F_fc(1 − e^{−σ|X|/F_fc}) sgn(Ẋ).
//!
//! As printed the μ_s F_N term is a constant (not odd; it pushes the body when Ẋ < 0): by default
//! it is read as μ_s F_N sgn(Ẋ) (`printed = 1` restores the constant). The displacement X is
//! this model's single state (dX/dt = Ẋ, X(0) = 0); the Dahl term is the virgin curve from X = 0,
//! without reversal memory. F_fc = μ_c F_N (Table 1's "μ_c = 6" read as 6 N).
//! Switching surface: Ẋ = 0 (jump).

use super::{
    checked, dahl_virgin, sgn, Cat, FromValues, Switching, C_FN, C_MUK, C_MUS, C_PRINTED, C_SIGMA,
    MAX_SWITCHES,
};
use crate::model::{FrictionModel, ModelInfo};
use crate::params::{ParamError, ParamSpec};

const PARAMS: [ParamSpec; 5] = [C_MUS, C_MUK, C_FN, C_SIGMA, C_PRINTED];

/// Registry description.
pub static INFO: ModelInfo = ModelInfo {
    id: "sd",
    name: "SD: static + Dahl (Djidda Mahamat et al. 2025)",
    category: Cat::Composite,
    provisional: false,
    params: &PARAMS,
};

/// SD law: F_s, F_fc \[N\], σ \[N/m\], printed/intended switch; state `[X]` \[m\].
#[derive(Debug, Clone, Copy)]
pub struct Sd {
    fs: f64,
    fc: f64,
    sigma: f64,
    printed: bool,
}

impl FromValues for Sd {
    fn from_values(values: &[f64]) -> Result<Self, ParamError> {
        let [mus, muc, fnorm, sigma, printed] = checked(&PARAMS, values)?;
        Ok(Sd {
            fs: mus * fnorm,
            fc: muc * fnorm,
            sigma,
            printed: printed >= 0.5,
        })
    }
}

impl FrictionModel for Sd {
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
        let st = if self.printed {
            self.fs
        } else {
            self.fs * sgn(v)
        };
        super::finite(st + dahl_virgin(pos, self.fc, self.sigma) * sgn(v))
    }
}

impl Switching for Sd {
    fn switching(&self, v: f64, _fe: f64, _x: &[f64], g: &mut [f64; MAX_SWITCHES]) -> usize {
        g[0] = v;
        1
    }
}
