//! Hollars (1994) — **provisional: formula not recoverable from the source** (\[T\] §6.2).
//!
//! \[T\]'s section is on missing pages and no other source we had gives a "Hollars" law; \[T\] says
//! only that it is a stiction-class law that converged with every solver.
//! **Best guess (decision, ours):** the presumed source (SD/FAST, Hollars et al. 1994) regularises
//! Coulomb friction linearly in velocity, so we ship a Gaussian Stribeck curve with a linear
//! (Bernard-type) regularisation: F = clip(v/v_t, −1, 1)·\[F_C + (F_s − F_C) e^{−(v/v_s)²}\].
//! v_t = 1e-4 m/s and v_s = 1e-3 m/s are placeholders. Switching surfaces (kinks): |v| = v_t.

use super::{checked, static_model, vel, Cat, FromValues, StaticLaw, FN, MAX_SWITCHES, MUK, MUS};
use crate::model::ModelInfo;
use crate::params::{ParamError, ParamSpec};

const PARAMS: [ParamSpec; 5] = [
    MUS,
    MUK,
    FN,
    vel("vt", "Regularisation velocity (placeholder)", "v_t", 1e-4),
    vel("vs", "Stribeck velocity (placeholder)", "v_s", 1e-3),
];

/// Registry description (provisional).
pub static INFO: ModelInfo = ModelInfo {
    id: "hollars",
    name: "Hollars (1994) — provisional",
    category: Cat::StaticStiction,
    provisional: true,
    params: &PARAMS,
};

/// Provisional Hollars law: F_s, F_C \[N\], v_t, v_s \[m/s\].
#[derive(Debug, Clone, Copy)]
pub struct Hollars {
    fs: f64,
    fc: f64,
    vt: f64,
    vs: f64,
}

impl FromValues for Hollars {
    fn from_values(values: &[f64]) -> Result<Self, ParamError> {
        let [mus, muk, fnorm, vt, vs] = checked(&PARAMS, values)?;
        Ok(Hollars {
            fs: mus * fnorm,
            fc: muk * fnorm,
            vt,
            vs,
        })
    }
}

impl StaticLaw for Hollars {
    fn info(&self) -> &'static ModelInfo {
        &INFO
    }
    fn force(&self, v: f64, _fe: f64) -> f64 {
        let r = v / self.vs;
        let g = self.fc + (self.fs - self.fc) * (-(r * r)).exp();
        (v / self.vt).clamp(-1.0, 1.0) * g
    }
    fn switching(&self, v: f64, _fe: f64, g: &mut [f64; MAX_SWITCHES]) -> usize {
        g[0] = v.abs() - self.vt;
        1
    }
}
static_model!(Hollars);
