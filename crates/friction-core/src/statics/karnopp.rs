//! Karnopp (1985): velocity window with a stick branch driven by F_e (\[T\] eq. 6.7).
//!
//! Outside the window (|v| ≥ v_0) F = F_C sgn(v); inside, the velocity "is considered null" and
//! friction balances the external force up to the breakaway level: F = min(|F_e|, F_s) sgn(F_e).
//! Odd in the pair: F(−v, −F_e) = −F(v, F_e). v_0 is not in the seed (Table 6.4 is missing): the
//! default 1e-4 m/s is a placeholder, not from \[T\].
//! Switching surfaces: |v| = v_0 (jump), and inside the window |F_e| = F_s (kink).

use super::{
    checked, sgn, static_model, stick, vel, Cat, FromValues, StaticLaw, FN, MAX_SWITCHES, MUK, MUS,
};
use crate::model::ModelInfo;
use crate::params::{ParamError, ParamSpec};

const PARAMS: [ParamSpec; 4] = [
    MUS,
    MUK,
    FN,
    vel(
        "v0",
        "Window half-width (placeholder, not from [T])",
        "v_0",
        1e-4,
    ),
];

/// Registry description.
pub static INFO: ModelInfo = ModelInfo {
    id: "karnopp",
    name: "Karnopp (1985)",
    category: Cat::StaticStiction,
    provisional: false,
    params: &PARAMS,
};

/// Karnopp law: F_s, F_C \[N\], window half-width v_0 \[m/s\].
#[derive(Debug, Clone, Copy)]
pub struct Karnopp {
    fs: f64,
    fc: f64,
    v0: f64,
}

impl FromValues for Karnopp {
    fn from_values(values: &[f64]) -> Result<Self, ParamError> {
        let [mus, muk, fnorm, v0] = checked(&PARAMS, values)?;
        Ok(Karnopp {
            fs: mus * fnorm,
            fc: muk * fnorm,
            v0,
        })
    }
}

impl StaticLaw for Karnopp {
    fn info(&self) -> &'static ModelInfo {
        &INFO
    }
    fn force(&self, v: f64, fe: f64) -> f64 {
        if v.abs() >= self.v0 {
            self.fc * sgn(v)
        } else {
            stick(fe, self.fs)
        }
    }
    fn switching(&self, v: f64, fe: f64, g: &mut [f64; MAX_SWITCHES]) -> usize {
        g[0] = v.abs() - self.v0;
        g[1] = fe.abs() - self.fs;
        2
    }
}
static_model!(Karnopp);
