//! Awrejcewicz, Grzelczyk & Pyryev (2008), friction depending on F_e — **provisional: formula not
//! recoverable from the source** (\[T\] eq. 6.23 is garbled).
//!
//! Our best guess: F = F_s sgn(v) for |v| ≥ v_0; inside the window
//! F = min(|F_e|, F_s) sgn(F_e)·(1 − |A|) + F_s A, a blend from the stick value to ±F_s.
//! The step A has two readings of the garbled (6.23), chosen by the parameter `astep`:
//! 0 (default) A = (3/2)(v/v_0) − ½(v/v_0)³ (odd cubic); 1 (the tokens fit it too) the smoothstep
//! A = sgn(v)(3u² − 2u³), u = |v|/v_0. Both reach ±1 at |v| = v_0, so F is continuous there.
//! No Coulomb level. Odd in the pair (v, F_e). v_0 = 1e-4 m/s is a placeholder.
//! Switching surfaces: |v| = v_0 (kink), |F_e| = F_s inside the window (kink).

use super::{
    checked, sgn, static_model, stick, vel, Cat, FromValues, StaticLaw, FN, MAX_SWITCHES, MUS,
};
use crate::model::ModelInfo;
use crate::params::{ParamError, ParamSpec};

const PARAMS: [ParamSpec; 4] = [
    MUS,
    FN,
    vel("v0", "Window half-width (placeholder)", "v_0", 1e-4),
    ParamSpec {
        key: "astep",
        name: "Step reading: 0 = odd cubic, 1 = smoothstep",
        symbol: "A",
        unit: "",
        default: 0.0,
        min: 0.0,
        max: 1.0,
        log: false,
    },
];

/// Registry description (provisional).
pub static INFO: ModelInfo = ModelInfo {
    id: "awrejcewicz",
    name: "Awrejcewicz, Grzelczyk & Pyryev (2008) — provisional",
    category: Cat::StaticStiction,
    provisional: true,
    params: &PARAMS,
};

/// Provisional Awrejcewicz law: F_s \[N\], window v_0 \[m/s\], step reading (cubic or smoothstep).
#[derive(Debug, Clone, Copy)]
pub struct Awrejcewicz {
    fs: f64,
    v0: f64,
    smoothstep: bool,
}

impl FromValues for Awrejcewicz {
    fn from_values(values: &[f64]) -> Result<Self, ParamError> {
        let [mus, fnorm, v0, astep] = checked(&PARAMS, values)?;
        Ok(Awrejcewicz {
            fs: mus * fnorm,
            v0,
            smoothstep: astep >= 0.5,
        })
    }
}

impl Awrejcewicz {
    /// The signed step A(v) ∈ \[−1, 1\] on the window.
    fn step(&self, v: f64) -> f64 {
        let u = v / self.v0;
        if self.smoothstep {
            let a = u.abs();
            sgn(v) * a * a * (3.0 - 2.0 * a)
        } else {
            1.5 * u - 0.5 * u * u * u
        }
    }
}

impl StaticLaw for Awrejcewicz {
    fn info(&self) -> &'static ModelInfo {
        &INFO
    }
    fn force(&self, v: f64, fe: f64) -> f64 {
        if v.abs() >= self.v0 {
            return self.fs * sgn(v);
        }
        let a = self.step(v);
        stick(fe, self.fs) * (1.0 - a.abs()) + self.fs * a
    }
    fn switching(&self, v: f64, fe: f64, g: &mut [f64; MAX_SWITCHES]) -> usize {
        g[0] = v.abs() - self.v0;
        g[1] = fe.abs() - self.fs;
        2
    }
}
static_model!(Awrejcewicz);
