//! Rooney & Deravi (1982): tanh regularisation, F = F_C tanh(g_t v/v_0) for |v| ≤ v_0 and
//! F_C sgn(v) beyond (\[T\] eq. 6.5).
//!
//! The scale factor inside tanh did not survive extraction of \[T\]: it is the parameter
//! g_t ("tanh gain", default 1 as printed, which leaves a jump from 0.7616 F_C to F_C at v_0;
//! g_t ≥ 3 makes the jump < 1 %). The parameter `branched` selects the printed two-branch law (1,
//! default) or the unbranched alternative F_C tanh(g_t v/v_0) for every v (0), the other reading
//! of the garbled text. Switching surfaces: |v| = v_0 (jump unless g_t is large; none unbranched).

use super::{checked, sgn, static_model, vel, Cat, FromValues, StaticLaw, FN, MAX_SWITCHES, MUK};
use crate::model::ModelInfo;
use crate::params::{ParamError, ParamSpec};

const PARAMS: [ParamSpec; 5] = [
    MUK,
    FN,
    vel("v0", "Velocity tolerance", "v_0", 1e-3),
    ParamSpec {
        key: "gt",
        name: "tanh gain (not recoverable from [T])",
        symbol: "g_t",
        unit: "",
        default: 1.0,
        min: 0.01,
        max: 100.0,
        log: true,
    },
    ParamSpec {
        key: "branched",
        name: "Law: 1 = two branches as printed, 0 = tanh everywhere",
        symbol: "branched",
        unit: "",
        default: 1.0,
        min: 0.0,
        max: 1.0,
        log: false,
    },
];

/// Registry description; default v_0 = 1e-3 m/s is \[T\] Table 6.2.
pub static INFO: ModelInfo = ModelInfo {
    id: "rooney-deravi",
    name: "Rooney & Deravi (1982)",
    category: Cat::StaticNoStiction,
    provisional: false,
    params: &PARAMS,
};

/// Rooney–Deravi law: F_C \[N\], tolerance v_0 \[m/s\], tanh gain g_t \[-\], branch choice.
#[derive(Debug, Clone, Copy)]
pub struct RooneyDeravi {
    fc: f64,
    v0: f64,
    gt: f64,
    branched: bool,
}

impl FromValues for RooneyDeravi {
    fn from_values(values: &[f64]) -> Result<Self, ParamError> {
        let [muk, fnorm, v0, gt, branched] = checked(&PARAMS, values)?;
        Ok(RooneyDeravi {
            fc: muk * fnorm,
            v0,
            gt,
            branched: branched >= 0.5,
        })
    }
}

impl StaticLaw for RooneyDeravi {
    fn info(&self) -> &'static ModelInfo {
        &INFO
    }
    fn force(&self, v: f64, _fe: f64) -> f64 {
        if !self.branched || v.abs() <= self.v0 {
            self.fc * (self.gt * v / self.v0).tanh()
        } else {
            self.fc * sgn(v)
        }
    }
    fn switching(&self, v: f64, _fe: f64, g: &mut [f64; MAX_SWITCHES]) -> usize {
        if !self.branched {
            return 0;
        }
        g[0] = v.abs() - self.v0;
        1
    }
}
static_model!(RooneyDeravi);
