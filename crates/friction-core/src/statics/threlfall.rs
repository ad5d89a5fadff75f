//! Threlfall (1978): exponential regularisation F = F_C (1 − e^{−3|v|/v_0}) sgn(v)
//! (\[T\] eq. 6.2–6.3).
//!
//! The smooth, unbranched form: the piecewise-capped variant found in some surveys has a 5 % jump
//! at v_0 that makes stiff solvers chatter, so it is not offered.
//! F(v_0) = (1 − e⁻³) F_C = 0.950213 F_C. No switching surface (C⁰ at 0 with a slope jump only in
//! the derivative's sign, none in F).

use super::{checked, sgn, static_model, vel, Cat, FromValues, StaticLaw, FN, MUK};
use crate::model::ModelInfo;
use crate::params::{ParamError, ParamSpec};

const PARAMS: [ParamSpec; 3] = [MUK, FN, vel("v0", "Velocity threshold", "v_0", 1e-3)];

/// Registry description; default v_0 = 1e-3 m/s is \[T\] Table 6.2.
pub static INFO: ModelInfo = ModelInfo {
    id: "threlfall",
    name: "Threlfall (1978)",
    category: Cat::StaticNoStiction,
    provisional: false,
    params: &PARAMS,
};

/// Threlfall law: Coulomb level F_C \[N\], threshold velocity v_0 \[m/s\].
#[derive(Debug, Clone, Copy)]
pub struct Threlfall {
    fc: f64,
    v0: f64,
}

impl FromValues for Threlfall {
    fn from_values(values: &[f64]) -> Result<Self, ParamError> {
        let [muk, fnorm, v0] = checked(&PARAMS, values)?;
        Ok(Threlfall {
            fc: muk * fnorm,
            v0,
        })
    }
}

impl StaticLaw for Threlfall {
    fn info(&self) -> &'static ModelInfo {
        &INFO
    }
    fn force(&self, v: f64, _fe: f64) -> f64 {
        // −expm1 keeps full precision for |v| ≪ v_0.
        self.fc * (-(-3.0 * v.abs() / self.v0).exp_m1()) * sgn(v)
    }
}
static_model!(Threlfall);
