//! CVS, Coulomb + viscous + static (\[C\] eq. 7): F = sgn(F_ex) min(|F_ex|, F_s) at
//! Ẋ = 0; μ_c F_N sgn(Ẋ) + μ_v Ẋ + C_1 + C_2 for Ẋ ≠ 0.
//!
//! Decisions: μ_c read with F_N as in CS; C_1 + C_2 = (F_s − F_c)e^{−(Ẋ/Ẋ_s)²} sgn(Ẋ) (amplitude
//! tied, Ẋ_t = Ẋ). Exact Ẋ = 0 stick test as printed (no window).
//! Switching surfaces: Ẋ = 0 (jump), |F_ex| = F_s at Ẋ = 0.

use super::{
    c1_c2, checked, sgn, static_model, stick, Cat, FromValues, StaticLaw, C_FN, C_MUK, C_MUS,
    C_MUV, C_XS, MAX_SWITCHES,
};
use crate::model::ModelInfo;
use crate::params::{ParamError, ParamSpec};

const PARAMS: [ParamSpec; 5] = [C_MUS, C_MUK, C_FN, C_MUV, C_XS];

/// Registry description.
pub static INFO: ModelInfo = ModelInfo {
    id: "cvs",
    name: "CVS: Coulomb + viscous + static (Djidda Mahamat et al. 2025)",
    category: Cat::Composite,
    provisional: false,
    params: &PARAMS,
};

/// CVS law: F_s, F_c \[N\], μ_v \[N·s/m\], Ẋ_s \[m/s\].
#[derive(Debug, Clone, Copy)]
pub struct Cvs {
    fs: f64,
    fc: f64,
    muv: f64,
    xs: f64,
}

impl FromValues for Cvs {
    fn from_values(values: &[f64]) -> Result<Self, ParamError> {
        let [mus, muc, fnorm, muv, xs] = checked(&PARAMS, values)?;
        Ok(Cvs {
            fs: mus * fnorm,
            fc: muc * fnorm,
            muv,
            xs,
        })
    }
}

impl StaticLaw for Cvs {
    fn info(&self) -> &'static ModelInfo {
        &INFO
    }
    fn force(&self, v: f64, fe: f64) -> f64 {
        if v == 0.0 {
            stick(fe, self.fs)
        } else {
            self.fc * sgn(v) + self.muv * v + c1_c2(v, self.fs - self.fc, self.xs)
        }
    }
    fn switching(&self, v: f64, fe: f64, g: &mut [f64; MAX_SWITCHES]) -> usize {
        g[0] = v;
        g[1] = fe.abs() - self.fs;
        2
    }
}
static_model!(Cvs);
