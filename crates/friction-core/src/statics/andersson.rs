//! Andersson, Söderberg & Björklund (2007):
//! F = F_N\[μ_k + (μ_s − μ_k)e^{−(|v|/v_s)^i}\] tanh(k_t v) + k_v v (\[T\] §6.2, reconstructed).
//!
//! A smooth Stribeck law in which tanh replaces sgn. The stiction peak approaches F_s only for
//! k_t v_s ≫ 1 (≥ 0.97 F_s needs k_t v_s ≳ 10, by direct evaluation). Table 6.4 is missing,
//! so v_s = 1e-3 m/s, i = 2, k_t = 1e4 s/m (k_t v_s = 10) and k_v = 0.1 N·s/m (the thesis' σ2) are
//! placeholders, not from \[T\]. No switching surface (C^∞ for even i, C¹ for i = 1).

use super::{checked, static_model, vel, visc, Cat, FromValues, StaticLaw, FN, MUK, MUS};
use crate::model::ModelInfo;
use crate::params::{ParamError, ParamSpec};

const PARAMS: [ParamSpec; 7] = [
    MUS,
    MUK,
    FN,
    vel("vs", "Stribeck velocity (placeholder)", "v_s", 1e-3),
    ParamSpec {
        key: "i",
        name: "Stribeck shape exponent (placeholder)",
        symbol: "i",
        unit: "",
        default: 2.0,
        min: 0.1,
        max: 10.0,
        log: false,
    },
    ParamSpec {
        key: "kt",
        name: "tanh steepness (placeholder)",
        symbol: "k_t",
        unit: "s/m",
        default: 1e4,
        min: 1e-3,
        max: 1e9,
        log: true,
    },
    visc("kv", "Viscous coefficient (placeholder)", "k_v", 0.1),
];

/// Registry description.
pub static INFO: ModelInfo = ModelInfo {
    id: "andersson",
    name: "Andersson, Söderberg & Björklund (2007)",
    category: Cat::StaticStiction,
    provisional: false,
    params: &PARAMS,
};

/// Andersson law: F_s, F_C \[N\], v_s \[m/s\], exponent i \[-\], k_t \[s/m\], k_v \[N·s/m\].
#[derive(Debug, Clone, Copy)]
pub struct Andersson {
    fs: f64,
    fc: f64,
    vs: f64,
    i: f64,
    kt: f64,
    kv: f64,
}

impl FromValues for Andersson {
    fn from_values(values: &[f64]) -> Result<Self, ParamError> {
        let [mus, muk, fnorm, vs, i, kt, kv] = checked(&PARAMS, values)?;
        Ok(Andersson {
            fs: mus * fnorm,
            fc: muk * fnorm,
            vs,
            i,
            kt,
            kv,
        })
    }
}

impl StaticLaw for Andersson {
    fn info(&self) -> &'static ModelInfo {
        &INFO
    }
    fn force(&self, v: f64, _fe: f64) -> f64 {
        let level = self.fc + (self.fs - self.fc) * (-(v.abs() / self.vs).powf(self.i)).exp();
        level * (self.kt * v).tanh() + self.kv * v
    }
}
static_model!(Andersson);
