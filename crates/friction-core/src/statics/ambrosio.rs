//! Ambrósio (2003): dead zone + linear ramp (\[T\] eq. 6.6).
//!
//! F = 0 for |v| < v_0 (keeps F from flipping direction near rest), a linear ramp to F_C on
//! \[v_0, v_1\], then F_C sgn(v). Switching surfaces (kinks): |v| = v_0 and |v| = v_1.

use super::{checked, sgn, static_model, vel, Cat, FromValues, StaticLaw, FN, MAX_SWITCHES, MUK};
use crate::model::ModelInfo;
use crate::params::{ParamError, ParamSpec};

const PARAMS: [ParamSpec; 4] = [
    MUK,
    FN,
    vel("v0", "Lower velocity tolerance", "v_0", 1e-4),
    vel("v1", "Upper velocity tolerance", "v_1", 1e-3),
];

/// Registry description; defaults v_0 = 1e-4, v_1 = 1e-3 m/s are \[T\] Table 6.2.
pub static INFO: ModelInfo = ModelInfo {
    id: "ambrosio",
    name: "Ambrósio (2003)",
    category: Cat::StaticNoStiction,
    provisional: false,
    params: &PARAMS,
};

/// Ambrósio law: F_C \[N\], dead-zone edge v_0 and full-level velocity v_1 > v_0 \[m/s\].
#[derive(Debug, Clone, Copy)]
pub struct Ambrosio {
    fc: f64,
    v0: f64,
    v1: f64,
}

impl FromValues for Ambrosio {
    fn from_values(values: &[f64]) -> Result<Self, ParamError> {
        let [muk, fnorm, v0, v1] = checked(&PARAMS, values)?;
        if v1 <= v0 {
            return Err(ParamError::relation(
                &[("v1", v1), ("v0", v0)],
                "needs v1 > v0",
            ));
        }
        Ok(Ambrosio {
            fc: muk * fnorm,
            v0,
            v1,
        })
    }
}

impl StaticLaw for Ambrosio {
    fn info(&self) -> &'static ModelInfo {
        &INFO
    }
    fn force(&self, v: f64, _fe: f64) -> f64 {
        let a = v.abs();
        let shape = if a < self.v0 {
            0.0
        } else if a <= self.v1 {
            (a - self.v0) / (self.v1 - self.v0)
        } else {
            1.0
        };
        self.fc * shape * sgn(v)
    }
    fn switching(&self, v: f64, _fe: f64, g: &mut [f64; MAX_SWITCHES]) -> usize {
        g[0] = v.abs() - self.v0;
        g[1] = v.abs() - self.v1;
        2
    }
}
static_model!(Ambrosio);
