//! SV, static + viscous + Dahl (\[C\] eq. 11):
//! F = μ_s F_N \[sgn Ẋ\] + μ_v Ẋ + F_fc(1 − e^{−σ|X|/F_fc}) sgn(Ẋ).
//!
//! \[C\]'s preferred model. As for SD, the constant μ_s F_N is read as μ_s F_N sgn(Ẋ) by default
//! (`printed = 1` restores it); X is the single state (dX/dt = Ẋ, X(0) = 0); F_fc = μ_c F_N.
//! Switching surface: Ẋ = 0 (jump).

use super::{
    checked, dahl_virgin, sgn, Cat, FromValues, Switching, C_FN, C_MUK, C_MUS, C_MUV, C_PRINTED,
    C_SIGMA, MAX_SWITCHES,
};
use crate::model::{FrictionModel, ModelInfo};
use crate::params::{ParamError, ParamSpec};

const PARAMS: [ParamSpec; 6] = [C_MUS, C_MUV, C_MUK, C_FN, C_SIGMA, C_PRINTED];

/// Registry description.
pub static INFO: ModelInfo = ModelInfo {
    id: "sv",
    name: "SV: static + viscous + Dahl (Djidda Mahamat et al. 2025)",
    category: Cat::Composite,
    provisional: false,
    params: &PARAMS,
};

/// SV law: F_s, F_fc \[N\], μ_v \[N·s/m\], σ \[N/m\], printed/intended switch; state `[X]` \[m\].
#[derive(Debug, Clone, Copy)]
pub struct Sv {
    fs: f64,
    muv: f64,
    fc: f64,
    sigma: f64,
    printed: bool,
}

impl FromValues for Sv {
    fn from_values(values: &[f64]) -> Result<Self, ParamError> {
        let [mus, muv, muc, fnorm, sigma, printed] = checked(&PARAMS, values)?;
        Ok(Sv {
            fs: mus * fnorm,
            muv,
            fc: muc * fnorm,
            sigma,
            printed: printed >= 0.5,
        })
    }
}

impl FrictionModel for Sv {
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
        super::finite(st + self.muv * v + dahl_virgin(pos, self.fc, self.sigma) * sgn(v))
    }
}

impl Switching for Sv {
    fn switching(&self, v: f64, _fe: f64, _x: &[f64], g: &mut [f64; MAX_SWITCHES]) -> usize {
        g[0] = v;
        1
    }
}
