//! Tustin (1947): F = \[F_C + (F_s − F_C)e^{−|v|/v_S}\] sgn(v) for v ≠ 0, and the stick branch
//! min(|F_e|, F_s) sgn(F_e) at v = 0 (\[T\] eq. 5.4–5.5, reconstructed standard form).
//!
//! An auxiliary Stribeck curve usable inside other models ([`Tustin::curve`]). The stick branch is
//! the printed exact v = 0 test (no window). v_S = 1e-3 m/s (the thesis' Stribeck velocity) is a
//! placeholder. Switching surfaces: v = 0 (jump), |F_e| = F_s at v = 0.

use super::{checked, static_model, vel, Cat, FromValues, StaticLaw, FN, MAX_SWITCHES, MUK, MUS};
use crate::model::ModelInfo;
use crate::params::{ParamError, ParamSpec};

const PARAMS: [ParamSpec; 4] = [
    MUS,
    MUK,
    FN,
    vel("vs", "Stribeck velocity (placeholder)", "v_S", 1e-3),
];

/// Registry description.
pub static INFO: ModelInfo = ModelInfo {
    id: "tustin",
    name: "Tustin (1947)",
    category: Cat::Auxiliary,
    provisional: false,
    params: &PARAMS,
};

/// Tustin law: F_s, F_C \[N\], v_S \[m/s\].
#[derive(Debug, Clone, Copy)]
pub struct Tustin {
    fs: f64,
    fc: f64,
    vs: f64,
}

impl Tustin {
    /// The Stribeck curve magnitude F_C + (F_s − F_C)e^{−|v|/v_S} \[N\] (even in v).
    pub fn curve(&self, v: f64) -> f64 {
        self.fc + (self.fs - self.fc) * (-v.abs() / self.vs).exp()
    }
}

impl FromValues for Tustin {
    fn from_values(values: &[f64]) -> Result<Self, ParamError> {
        let [mus, muk, fnorm, vs] = checked(&PARAMS, values)?;
        Ok(Tustin {
            fs: mus * fnorm,
            fc: muk * fnorm,
            vs,
        })
    }
}

impl StaticLaw for Tustin {
    fn info(&self) -> &'static ModelInfo {
        &INFO
    }
    fn force(&self, v: f64, fe: f64) -> f64 {
        super::stribeck_force(v, fe, self.fs, self.curve(v), 0.0)
    }
    fn switching(&self, v: f64, fe: f64, g: &mut [f64; MAX_SWITCHES]) -> usize {
        super::stribeck_switching(v, fe, self.fs, g)
    }
}
static_model!(Tustin);

impl super::StribeckCurve for Tustin {
    fn curve(&self, v: f64) -> f64 {
        Tustin::curve(self, v)
    }
}
