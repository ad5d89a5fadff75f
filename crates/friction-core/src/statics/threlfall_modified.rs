//! Threlfall modified (Marques et al. 2016): F = F_C min((1 − e^{−3|v|/v_0})/(1 − e⁻³), 1) sgn(v)
//! (\[T\] eq. 6.4).
//!
//! The normalisation makes F(v_0) = F_C exactly; the cap for |v| > v_0 is our
//! reconstruction (without it the law would overshoot to 1.0524 F_C). \[T\]'s fastest model
//! without stiction. Switching surfaces (kinks): |v| = v_0.

use super::{checked, sgn, static_model, vel, Cat, FromValues, StaticLaw, FN, MAX_SWITCHES, MUK};
use crate::model::ModelInfo;
use crate::params::{ParamError, ParamSpec};

const PARAMS: [ParamSpec; 3] = [MUK, FN, vel("v0", "Velocity threshold", "v_0", 1e-3)];

/// Registry description; default v_0 = 1e-3 m/s is \[T\] Table 6.2.
pub static INFO: ModelInfo = ModelInfo {
    id: "threlfall-modified",
    name: "Threlfall modified (Marques et al. 2016)",
    category: Cat::StaticNoStiction,
    provisional: false,
    params: &PARAMS,
};

/// Modified Threlfall law: Coulomb level F_C \[N\], threshold velocity v_0 \[m/s\].
#[derive(Debug, Clone, Copy)]
pub struct ThrelfallModified {
    fc: f64,
    v0: f64,
}

impl FromValues for ThrelfallModified {
    fn from_values(values: &[f64]) -> Result<Self, ParamError> {
        let [muk, fnorm, v0] = checked(&PARAMS, values)?;
        Ok(ThrelfallModified {
            fc: muk * fnorm,
            v0,
        })
    }
}

impl StaticLaw for ThrelfallModified {
    fn info(&self) -> &'static ModelInfo {
        &INFO
    }
    fn force(&self, v: f64, _fe: f64) -> f64 {
        let a = v.abs();
        let shape = if a >= self.v0 {
            1.0
        } else {
            (-(-3.0 * a / self.v0).exp_m1()) / (-(-3.0f64).exp_m1())
        };
        self.fc * shape.min(1.0) * sgn(v)
    }
    fn switching(&self, v: f64, _fe: f64, g: &mut [f64; MAX_SWITCHES]) -> usize {
        g[0] = v.abs() - self.v0;
        1
    }
}
static_model!(ThrelfallModified);
