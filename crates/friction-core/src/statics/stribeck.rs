//! The friction library's Stribeck law (`stribeck_model`) and its LuGre Stribeck shape
//! (`lugre_model`).
//!
//! F = sgn(v)\[μ_c N + (μ_s − μ_c)N e^{−(v/v_s)²}\] + b_v v. The library code multiplies the viscous
//! term by sgn(v) too (b_v|v|, not odd: a bug for v < 0); we implement the README form b_v v.
//! sgn(0) = 0 here, so F(0) = 0; the library returns ±μ_s N at ±0.0 (Fortran `sign`).
//! Defaults are the library example (μ_s 0.25, μ_c 0.15, v_s 0.1 m/s, b_v 0, N = 100 N), so
//! F(0.1) = 15 + 10/e = 18.679 N. Switching surface: v = 0 (jump of 2μ_s N).

use super::{checked, sgn, static_model, vel, visc, Cat, FromValues, StaticLaw, MAX_SWITCHES};
use crate::model::ModelInfo;
use crate::params::{ParamError, ParamSpec};

const PARAMS: [ParamSpec; 5] = [
    ParamSpec {
        default: 0.25,
        ..super::MUS
    },
    ParamSpec {
        default: 0.15,
        ..super::MUK
    },
    ParamSpec {
        default: 100.0,
        ..super::FN
    },
    vel("vs", "Stribeck velocity", "v_s", 0.1),
    visc("bv", "Viscous damping", "b_v", 0.0),
];

/// Registry description.
pub static INFO: ModelInfo = ModelInfo {
    id: "stribeck",
    name: "Stribeck (friction library)",
    category: Cat::Library,
    provisional: false,
    params: &PARAMS,
};

/// Library Stribeck law: F_s = μ_s N, F_C = μ_c N \[N\], v_s \[m/s\], b_v \[N·s/m\].
#[derive(Debug, Clone, Copy)]
pub struct Stribeck {
    fs: f64,
    fc: f64,
    vs: f64,
    bv: f64,
}

impl FromValues for Stribeck {
    fn from_values(values: &[f64]) -> Result<Self, ParamError> {
        let [mus, muc, n, vs, bv] = checked(&PARAMS, values)?;
        Ok(Stribeck {
            fs: mus * n,
            fc: muc * n,
            vs,
            bv,
        })
    }
}

impl StaticLaw for Stribeck {
    fn info(&self) -> &'static ModelInfo {
        &INFO
    }
    fn force(&self, v: f64, _fe: f64) -> f64 {
        let r = v / self.vs;
        sgn(v) * (self.fc + (self.fs - self.fc) * (-(r * r)).exp()) + self.bv * v
    }
    fn switching(&self, v: f64, _fe: f64, g: &mut [f64; MAX_SWITCHES]) -> usize {
        g[0] = v;
        1
    }
}
static_model!(Stribeck);

impl super::StribeckCurve for Stribeck {
    fn curve(&self, v: f64) -> f64 {
        let r = v / self.vs;
        self.fc + (self.fs - self.fc) * (-(r * r)).exp()
    }
}

/// The library's LuGre Stribeck shape as a force: G(v) = F_C + (F_s − F_C)/(1 + (|v|/v_s)^α) \[N\].
///
/// \[L\] writes it in metres, g = G/σ0 (a₁ = μ_c N/σ0, a₂ = (μ_s − μ_c)N/σ0, s = |v|/v_s); divide
/// by σ0 for that form. Even in v, between F_C and F_s, rational (not Gaussian) decay.
#[inline]
pub fn lugre_shape(v: f64, fc: f64, fs: f64, vs: f64, alpha: f64) -> f64 {
    let s = v.abs() / vs;
    let p = if alpha == 2.0 { s * s } else { s.powf(alpha) };
    if p.is_finite() {
        fc + (fs - fc) / (1.0 + p)
    } else {
        fc
    }
}
