//! CS, Coulomb + static (\[C\] eqs. 5–6): F = F_ex if Ẋ = 0 ∧ |F_ex| < F_s;
//! μ_c F_N sgn(Ẋ) + C_1 + C_2 if Ẋ ≠ 0 ∧ |F_ex| ≥ F_s.
//!
//! Decisions on the printed defects: "μ_c sgn(Ẋ)" lacks F_N (read μ_c F_N sgn Ẋ); C_1 + C_2 =
//! (F_s − F_c)e^{−(Ẋ/Ẋ_s)²} sgn(Ẋ) (amplitude tied to F_s − F_c, Ẋ_t = Ẋ); the two undefined
//! cases are closed as in (5.1): Ẋ = 0 ∧ |F_ex| ≥ F_s gives F_s sgn(F_ex) (breakaway), and a
//! sliding body (Ẋ ≠ 0) keeps the sliding branch whatever F_ex. The stick test is the exact
//! Ẋ = 0 of the source (no window). Switching surfaces: Ẋ = 0 (jump), |F_ex| = F_s at Ẋ = 0.

use super::{
    c1_c2, checked, sgn, static_model, stick, Cat, FromValues, StaticLaw, C_FN, C_MUK, C_MUS, C_XS,
    MAX_SWITCHES,
};
use crate::model::ModelInfo;
use crate::params::{ParamError, ParamSpec};

const PARAMS: [ParamSpec; 4] = [C_MUS, C_MUK, C_FN, C_XS];

/// Registry description.
pub static INFO: ModelInfo = ModelInfo {
    id: "cs",
    name: "CS: Coulomb + static (Djidda Mahamat et al. 2025)",
    category: Cat::Composite,
    provisional: false,
    params: &PARAMS,
};

/// CS law: F_s, F_c \[N\], Ẋ_s \[m/s\].
#[derive(Debug, Clone, Copy)]
pub struct Cs {
    fs: f64,
    fc: f64,
    xs: f64,
}

impl FromValues for Cs {
    fn from_values(values: &[f64]) -> Result<Self, ParamError> {
        let [mus, muc, fnorm, xs] = checked(&PARAMS, values)?;
        Ok(Cs {
            fs: mus * fnorm,
            fc: muc * fnorm,
            xs,
        })
    }
}

impl StaticLaw for Cs {
    fn info(&self) -> &'static ModelInfo {
        &INFO
    }
    fn force(&self, v: f64, fe: f64) -> f64 {
        if v == 0.0 {
            stick(fe, self.fs)
        } else {
            self.fc * sgn(v) + c1_c2(v, self.fs - self.fc, self.xs)
        }
    }
    fn switching(&self, v: f64, fe: f64, g: &mut [f64; MAX_SWITCHES]) -> usize {
        g[0] = v;
        g[1] = fe.abs() - self.fs;
        2
    }
}
static_model!(Cs);
