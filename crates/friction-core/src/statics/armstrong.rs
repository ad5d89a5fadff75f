//! Armstrong-Hélouvry (1994), seven-parameter model: its sliding law with a stick branch
//! (CATALOG §3.3, reconstructed from Armstrong-Hélouvry et al. 1994 / Olsson et al. 1998).
//!
//! Slip: F = [F_C + F_v|v| + F_S(γ, t_2)/(1 + (v/v_s)²)] sgn(v), with the stiction excess
//! F_S(γ, t_2) = F_S,a + (F_S,∞ − F_S,a) t_2/(t_2 + γ).
//!
//! **Reduction (decision):** the full model is hybrid with memory (pre-sliding spring σ0 x_p,
//! frictional lag v(t − τ_L), dwell time t_2). This registry entry is its *static reduction*:
//! long dwell (t_2 → ∞, so F_S = F_S,∞), no lag (τ_L = 0), and the stick phase represented as in
//! Karnopp by a velocity window |v| < v_0 in which F = min(|F_e|, F_C + F_S,∞) sgn(F_e), i.e. the
//! breakaway level F_C + F_S. Pre-sliding, frictional lag and dwell are therefore *not*
//! reproduced (the computed phenomena matrix says so). F_S,∞ = F_s − F_C follows from the
//! benchmark's μ_s, μ_k; F_v = 0.1 N·s/m, v_s = 1e-3 m/s, v_0 = 1e-4 m/s are placeholders.
//! Switching surfaces: |v| = v_0 (jump), |F_e| = F_C + F_S inside the window (kink).

use super::{
    checked, sgn, static_model, stick, vel, visc, Cat, FromValues, StaticLaw, FN, MAX_SWITCHES,
    MUK, MUS,
};
use crate::model::ModelInfo;
use crate::params::{ParamError, ParamSpec};

const PARAMS: [ParamSpec; 6] = [
    MUS,
    MUK,
    FN,
    visc("fv", "Viscous coefficient (placeholder)", "F_v", 0.1),
    vel("vs", "Stribeck velocity (placeholder)", "v_s", 1e-3),
    vel("v0", "Stick window half-width (placeholder)", "v_0", 1e-4),
];

/// Registry description.
pub static INFO: ModelInfo = ModelInfo {
    id: "armstrong",
    name: "Armstrong-Hélouvry (1994), static reduction",
    category: Cat::StaticStiction,
    provisional: false,
    params: &PARAMS,
};

/// Static reduction of the seven-parameter model: F_C, F_S,∞ \[N\], F_v [N·s/m], v_s, v_0 [m/s].
#[derive(Debug, Clone, Copy)]
pub struct Armstrong {
    fc: f64,
    fs_excess: f64,
    fv: f64,
    vs: f64,
    v0: f64,
}

impl FromValues for Armstrong {
    fn from_values(values: &[f64]) -> Result<Self, ParamError> {
        let [mus, muk, fnorm, fv, vs, v0] = checked(&PARAMS, values)?;
        Ok(Armstrong {
            fc: muk * fnorm,
            fs_excess: (mus - muk) * fnorm,
            fv,
            vs,
            v0,
        })
    }
}

impl StaticLaw for Armstrong {
    fn info(&self) -> &'static ModelInfo {
        &INFO
    }
    fn force(&self, v: f64, fe: f64) -> f64 {
        if v.abs() < self.v0 {
            return stick(fe, (self.fc + self.fs_excess).max(0.0));
        }
        let r = v / self.vs;
        let lorentz = if r.abs() > 1e150 {
            0.0
        } else {
            1.0 / (1.0 + r * r)
        };
        (self.fc + self.fv * v.abs() + self.fs_excess * lorentz) * sgn(v)
    }
    fn switching(&self, v: f64, fe: f64, g: &mut [f64; MAX_SWITCHES]) -> usize {
        g[0] = v.abs() - self.v0;
        g[1] = fe.abs() - (self.fc + self.fs_excess);
        2
    }
}
static_model!(Armstrong);
