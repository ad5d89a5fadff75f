//! Specker, Buchholz & Dietmayer (2014): Coulomb (tanh) + Stribeck bump + viscous
//! (reconstructed from \[T\] eq. 6.24–6.28).
//!
//! F = F_C tanh(v/v_0) + (F_s − F_C tanh(v_Sp/v_0) − c v_Sp)(v/v_Sp) e^{(1 − (v/v_Sp)²)/2} + c v.
//! Built so that F(v_Sp) = F_s exactly (the global maximum is < 0.1 % above, just past v_Sp:
//! the tanh and viscous terms still rise there). Defaults follow (6.28) v_S ≈ 4 v_0 ≈ √2 v_Sp with
//! v_S = 1e-3 m/s (the thesis' Stribeck velocity): v_0 = 2.5e-4, v_Sp = 7.0711e-4 m/s; c = 0.1
//! N·s/m. Placeholders, not from \[T\]. Odd and C^∞: no switching surface.

use super::{checked, static_model, vel, visc, Cat, FromValues, StaticLaw, FN, MUK, MUS};
use crate::model::ModelInfo;
use crate::params::{ParamError, ParamSpec};

const PARAMS: [ParamSpec; 6] = [
    MUS,
    MUK,
    FN,
    vel("v0", "Transition velocity (placeholder)", "v_0", 2.5e-4),
    vel(
        "vsp",
        "Stribeck peak velocity (placeholder)",
        "v_Sp",
        std::f64::consts::FRAC_1_SQRT_2 * 1e-3,
    ),
    visc("c", "Viscous coefficient (placeholder)", "c", 0.1),
];

/// Registry description.
pub static INFO: ModelInfo = ModelInfo {
    id: "specker",
    name: "Specker, Buchholz & Dietmayer (2014)",
    category: Cat::StaticStiction,
    provisional: false,
    params: &PARAMS,
};

/// Specker law: F_s, F_C \[N\], v_0, v_Sp \[m/s\], c \[N·s/m\].
#[derive(Debug, Clone, Copy)]
pub struct Specker {
    fc: f64,
    v0: f64,
    vsp: f64,
    c: f64,
    amp: f64,
}

impl FromValues for Specker {
    fn from_values(values: &[f64]) -> Result<Self, ParamError> {
        let [mus, muk, fnorm, v0, vsp, c] = checked(&PARAMS, values)?;
        let (fs, fc) = (mus * fnorm, muk * fnorm);
        Ok(Specker {
            fc,
            v0,
            vsp,
            c,
            amp: fs - fc * (vsp / v0).tanh() - c * vsp,
        })
    }
}

impl StaticLaw for Specker {
    fn info(&self) -> &'static ModelInfo {
        &INFO
    }
    fn force(&self, v: f64, _fe: f64) -> f64 {
        let r = v / self.vsp;
        // e^{(1 − r²)/2} underflows to 0 for huge r; r·0 = 0, finite.
        let bump = if r.abs() > 1e150 {
            0.0
        } else {
            r * (0.5 * (1.0 - r * r)).exp()
        };
        self.fc * (v / self.v0).tanh() + self.amp * bump + self.c * v
    }
}
static_model!(Specker);
