//! Bernard (1974): linear regularisation F = F_C clip(k_l v, −1, 1) (\[T\] eq. 6.1).
//!
//! Replaces the Coulomb jump by a ramp of slope F_C k_l so explicit solvers can step through
//! v = 0. No stiction: |F| ≤ F_C. Switching surfaces (kinks): |v| = 1/k_l.

use super::{checked, static_model, Cat, FromValues, StaticLaw, FN, MAX_SWITCHES, MUK};
use crate::model::ModelInfo;
use crate::params::{ParamError, ParamSpec};

const PARAMS: [ParamSpec; 3] = [
    MUK,
    FN,
    ParamSpec {
        key: "kl",
        name: "Transition coefficient",
        symbol: "k_l",
        unit: "s/m",
        default: 2000.0,
        min: 1e-3,
        max: 1e9,
        log: true,
    },
];

/// Registry description; default k_l = 2000 s/m is \[T\] Table 6.2.
pub static INFO: ModelInfo = ModelInfo {
    id: "bernard",
    name: "Bernard (1974)",
    category: Cat::StaticNoStiction,
    provisional: false,
    params: &PARAMS,
};

/// Bernard law: Coulomb level F_C \[N\], transition coefficient k_l \[s/m\].
#[derive(Debug, Clone, Copy)]
pub struct Bernard {
    fc: f64,
    kl: f64,
}

impl FromValues for Bernard {
    fn from_values(values: &[f64]) -> Result<Self, ParamError> {
        let [muk, fnorm, kl] = checked(&PARAMS, values)?;
        Ok(Bernard {
            fc: muk * fnorm,
            kl,
        })
    }
}

impl StaticLaw for Bernard {
    fn info(&self) -> &'static ModelInfo {
        &INFO
    }
    fn force(&self, v: f64, _fe: f64) -> f64 {
        self.fc * (self.kl * v).clamp(-1.0, 1.0)
    }
    fn switching(&self, v: f64, _fe: f64, g: &mut [f64; MAX_SWITCHES]) -> usize {
        g[0] = v.abs() - 1.0 / self.kl;
        1
    }
}
static_model!(Bernard);
