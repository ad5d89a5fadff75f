//! Dankowicz (1999, ZAMM 79), PROVISIONAL: only the Dahl-type core could be recovered (the
//! thesis' section on it is missing from our copy).
//!
//! dz/dt = v (1 − (z/δ) sgn v), F = F_C z/δ, i.e. Dahl with σ0 = F_C/δ; δ \[m\] is the
//! characteristic pre-sliding length. The original's second (rate-and-state) variable, which
//! gives velocity weakening, is not recoverable from the sources, hence the provisional flag.

use super::common::{self, FN, MUK};
use crate::model::{Category, FrictionModel, ModelEntry, ModelInfo};
use crate::params::{ParamError, ParamSpec};

const PARAMS: [ParamSpec; 3] = [
    MUK,
    FN,
    ParamSpec {
        key: "delta",
        name: "Pre-sliding length",
        symbol: "δ",
        unit: "m",
        default: 9.81e-6,
        min: 1e-12,
        max: 1.0,
        log: true,
    },
];

static INFO: ModelInfo = ModelInfo {
    id: "dankowicz",
    name: "Dankowicz (1999), Dahl-type core",
    category: Category::Dynamic,
    provisional: true,
    params: &PARAMS,
};

/// Registry entry.
pub static ENTRY: ModelEntry = ModelEntry { info: &INFO, build };

/// Dankowicz core: Coulomb level F_C \[N\], pre-sliding length δ \[m\].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Dankowicz {
    /// Coulomb level F_C = μ_k F_N \[N\].
    pub fc: f64,
    /// Pre-sliding length δ \[m\].
    pub delta: f64,
}

fn build(values: &[f64]) -> Result<Box<dyn FrictionModel>, ParamError> {
    let v = common::check(&PARAMS, values)?;
    Ok(Box::new(Dankowicz {
        fc: v[0] * v[1],
        delta: v[2],
    }))
}

impl FrictionModel for Dankowicz {
    fn info(&self) -> &'static ModelInfo {
        &INFO
    }
    fn n_states(&self) -> usize {
        1
    }
    fn derivative(&self, v: f64, _fe: f64, x: &[f64], dx: &mut [f64]) {
        dx[0] = v * (1.0 - x[0] / self.delta * common::sgn(v));
    }
    fn force(&self, _v: f64, _fe: f64, x: &[f64]) -> f64 {
        self.fc * x[0] / self.delta
    }
    fn state_scale(&self, _i: usize) -> f64 {
        self.delta
    }
    fn partials(
        &self,
        v: f64,
        _fe: f64,
        x: &[f64],
        dzdz: &mut [f64],
        dzdv: &mut [f64],
        dfdz: &mut [f64],
    ) -> Option<f64> {
        // ż = v − |v| z/δ.
        dzdz[0] = -v.abs() / self.delta;
        dzdv[0] = 1.0 - common::sgn(v) * x[0] / self.delta;
        dfdz[0] = self.fc / self.delta;
        Some(0.0)
    }
}
