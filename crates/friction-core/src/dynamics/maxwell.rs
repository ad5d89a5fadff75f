//! The friction library's Maxwell model (one elasto-slip element, `maxwell_model`), written as a
//! continuous-time state model.
//!
//! The library updates δ from the position history on every call, which breaks inside adaptive
//! solvers (rejected trial stages corrupt the history). Here dδ/dt = v while |δ| < Δ or the
//! motion unloads the element (v δ < 0), else 0; F = k δ with Δ = μ N/k. Saturation is an event
//! with an exact projection onto ±Δ, so the hysteresis loop is the library's.

use super::common::{self, FN};
use crate::model::{Category, FrictionModel, ModelEntry, ModelInfo};
use crate::params::{ParamError, ParamSpec};

const PARAMS: [ParamSpec; 3] = [
    ParamSpec {
        key: "k",
        name: "Stiffness",
        symbol: "k",
        unit: "N/m",
        default: 1e3,
        min: 1e-6,
        max: 1e10,
        log: true,
    },
    ParamSpec {
        key: "mu",
        name: "Friction coefficient",
        symbol: "μ_c",
        unit: "",
        default: 0.15,
        min: 1e-6,
        max: 10.0,
        log: false,
    },
    FN,
];

static INFO: ModelInfo = ModelInfo {
    id: "maxwell",
    name: "Maxwell elasto-slip element (friction library)",
    category: Category::Dynamic,
    provisional: false,
    params: &PARAMS,
};

/// Registry entry.
pub static ENTRY: ModelEntry = ModelEntry { info: &INFO, build };

/// Maxwell element: stiffness k \[N/m\], slip deflection Δ \[m\].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Maxwell {
    /// Stiffness k \[N/m\].
    pub k: f64,
    /// Slip deflection Δ = μ N/k \[m\].
    pub delta: f64,
}

fn build(values: &[f64]) -> Result<Box<dyn FrictionModel>, ParamError> {
    let v = common::check(&PARAMS, values)?;
    Ok(Box::new(Maxwell {
        k: v[0],
        delta: v[1] * v[2] / v[0],
    }))
}

impl FrictionModel for Maxwell {
    fn info(&self) -> &'static ModelInfo {
        &INFO
    }
    fn n_states(&self) -> usize {
        1
    }
    fn derivative(&self, v: f64, _fe: f64, x: &[f64], dx: &mut [f64]) {
        dx[0] = if x[0].abs() >= self.delta && v * x[0] > 0.0 {
            0.0
        } else {
            v
        };
    }
    fn force(&self, _v: f64, _fe: f64, x: &[f64]) -> f64 {
        self.k * x[0]
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
        // Piecewise: ż = v, or 0 while held at the slip limit.
        let held = x[0].abs() >= self.delta && v * x[0] > 0.0;
        dzdz[0] = 0.0;
        dzdv[0] = if held { 0.0 } else { 1.0 };
        dfdz[0] = self.k;
        Some(0.0)
    }
    fn n_switches(&self) -> usize {
        1
    }
    fn switches(&self, _v: f64, _fe: f64, x: &[f64], g: &mut [f64]) {
        g[0] = x[0].abs() - self.delta;
    }
    fn on_switch(&self, _index: usize, rising: bool, _v: f64, _fe: f64, x: &mut [f64]) -> bool {
        if rising {
            x[0] = self.delta * common::sgn(x[0]);
        }
        rising
    }
}
