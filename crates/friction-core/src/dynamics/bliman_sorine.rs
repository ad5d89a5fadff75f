//! Bliman & Sorine, first order (\[T\] §7.1, eq. 7.14): a rate-independent model written in the
//! path variable s = ∫|v| dt.
//!
//! In time: dF/dt = (f1 v − |v| F)/ε_f, i.e. Dahl with σ0 = f1/ε_f and F_C = f1. The state is the
//! force x_s = F \[N\]. Defaults (not in the seed): f1 = μ_k F_N, ε_f = F_C/σ0 of Table 7.1, so the
//! benchmark run equals Dahl's.

use super::common::{self, FN, MUK};
use crate::model::{Category, FrictionModel, ModelEntry, ModelInfo};
use crate::params::{ParamError, ParamSpec};

const PARAMS: [ParamSpec; 3] = [
    MUK,
    FN,
    ParamSpec {
        key: "epsf",
        name: "Characteristic slip length",
        symbol: "ε_f",
        unit: "m",
        default: 9.81e-6,
        min: 1e-12,
        max: 1.0,
        log: true,
    },
];

static INFO: ModelInfo = ModelInfo {
    id: "bliman-sorine",
    name: "Bliman & Sorine, first order (1991)",
    category: Category::Dynamic,
    provisional: false,
    params: &PARAMS,
};

/// Registry entry.
pub static ENTRY: ModelEntry = ModelEntry { info: &INFO, build };

/// First-order Bliman–Sorine: force level f1 = μ_k F_N \[N\], slip length ε_f \[m\].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BlimanSorine1 {
    /// Force level f1 \[N\].
    pub f1: f64,
    /// Slip length ε_f \[m\].
    pub epsf: f64,
}

fn build(values: &[f64]) -> Result<Box<dyn FrictionModel>, ParamError> {
    let v = common::check(&PARAMS, values)?;
    Ok(Box::new(BlimanSorine1 {
        f1: v[0] * v[1],
        epsf: v[2],
    }))
}

impl FrictionModel for BlimanSorine1 {
    fn info(&self) -> &'static ModelInfo {
        &INFO
    }
    fn n_states(&self) -> usize {
        1
    }
    fn derivative(&self, v: f64, _fe: f64, x: &[f64], dx: &mut [f64]) {
        dx[0] = (self.f1 * v - v.abs() * x[0]) / self.epsf;
    }
    fn force(&self, _v: f64, _fe: f64, x: &[f64]) -> f64 {
        x[0]
    }
    fn state_scale(&self, _i: usize) -> f64 {
        self.f1
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
        // ż = (f1 v − |v| z)/ε_f, F = z.
        dzdz[0] = -v.abs() / self.epsf;
        dzdv[0] = (self.f1 - common::sgn(v) * x[0]) / self.epsf;
        dfdz[0] = 1.0;
        Some(0.0)
    }
}
