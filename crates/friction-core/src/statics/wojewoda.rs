//! Wojewoda, Stefański, Wiercigroch & Kapitaniak (2008), hysteretic static model — **provisional:
//! formula not recoverable from the source** (\[T\] §6.2).
//!
//! What survives: three branches — sticking, sliding while accelerating on an upper curve F_u
//! (slope set by a), sliding while decelerating on a lower curve F_l (slope set by b) — selected
//! by sgn(v·v̇). **Best guess (decision, ours):** F_u = sgn(v)\[F_C + (F_s − F_C)e^{−a|v|}\],
//! F_l = sgn(v)\[F_C + (F_s − F_C)e^{−b|v|}\] with b > a (so F_l < F_u); the branch is chosen by
//! comparing |v| with a low-pass filtered speed: accelerating iff |v| ≥ |v_f|, where the single
//! state v_f obeys dv_f/dt = (v − v_f)/τ_w (a law F(v, F_e) alone cannot know v̇). The stick
//! branch is represented as in Karnopp by a window |v| < v_0 with F = min(|F_e|, F_s) sgn(F_e),
//! instead of the source's elastic F = k x. All parameters besides μ_s, μ_k, F_N are placeholders.
//! Switching surfaces: |v| = v_0 (jump), |v| = |v_f| (jump between branches), |F_e| = F_s.

use super::{checked, sgn, stick, vel, Cat, FromValues, Switching, FN, MAX_SWITCHES, MUK, MUS};
use crate::model::{FrictionModel, ModelInfo};
use crate::params::{ParamError, ParamSpec};

const fn rate(key: &'static str, name: &'static str, symbol: &'static str, d: f64) -> ParamSpec {
    ParamSpec {
        key,
        name,
        symbol,
        unit: "s/m",
        default: d,
        min: 1e-3,
        max: 1e9,
        log: true,
    }
}

const PARAMS: [ParamSpec; 7] = [
    MUS,
    MUK,
    FN,
    rate("a", "Upper-curve decay rate (placeholder)", "a", 500.0),
    rate("b", "Lower-curve decay rate (placeholder)", "b", 2000.0),
    ParamSpec {
        key: "tau",
        name: "Acceleration-detection time constant (placeholder)",
        symbol: "τ_w",
        unit: "s",
        default: 0.01,
        min: 1e-6,
        max: 100.0,
        log: true,
    },
    vel("v0", "Stick window half-width (placeholder)", "v_0", 1e-4),
];

/// Registry description (provisional).
pub static INFO: ModelInfo = ModelInfo {
    id: "wojewoda",
    name: "Wojewoda et al. (2008) — provisional",
    category: Cat::StaticStiction,
    provisional: true,
    params: &PARAMS,
};

/// Provisional Wojewoda law; state `[v_f]` (filtered velocity \[m/s\]).
#[derive(Debug, Clone, Copy)]
pub struct Wojewoda {
    fs: f64,
    fc: f64,
    a: f64,
    b: f64,
    tau: f64,
    v0: f64,
}

impl FromValues for Wojewoda {
    fn from_values(values: &[f64]) -> Result<Self, ParamError> {
        let [mus, muk, fnorm, a, b, tau, v0] = checked(&PARAMS, values)?;
        Ok(Wojewoda {
            fs: mus * fnorm,
            fc: muk * fnorm,
            a,
            b,
            tau,
            v0,
        })
    }
}

impl FrictionModel for Wojewoda {
    fn info(&self) -> &'static ModelInfo {
        &INFO
    }
    fn n_states(&self) -> usize {
        1
    }
    fn derivative(&self, v: f64, _fe: f64, x: &[f64], dx: &mut [f64]) {
        dx[0] = super::finite((v - x[0]) / self.tau);
    }
    fn force(&self, v: f64, fe: f64, x: &[f64]) -> f64 {
        if v.abs() < self.v0 {
            return stick(fe, self.fs);
        }
        let accelerating = v.abs() >= x.first().copied().unwrap_or(0.0).abs();
        let rate = if accelerating { self.a } else { self.b };
        sgn(v) * (self.fc + (self.fs - self.fc) * (-rate * v.abs()).exp())
    }
}

impl Switching for Wojewoda {
    fn switching(&self, v: f64, fe: f64, x: &[f64], g: &mut [f64; MAX_SWITCHES]) -> usize {
        g[0] = v.abs() - self.v0;
        g[1] = v.abs() - x.first().copied().unwrap_or(0.0).abs();
        g[2] = fe.abs() - self.fs;
        3
    }
}
