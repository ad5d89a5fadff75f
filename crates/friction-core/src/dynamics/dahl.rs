//! Dahl (1968): the first bristle model, a rate-independent pre-sliding hysteresis (\[T\] §7.1).
//!
//! State form for α = 1 (thesis eq. 7.4–7.5): F = σ0 z, dz/dt = v − σ0|v| z / F_C, and for a
//! general shape exponent α (eq. 7.1–7.2):
//! dF/dt = σ0 v |1 − (F/F_C) sgn v|^α sgn(1 − (F/F_C) sgn v). Steady state F = F_C sgn v. The
//! state is z = F/σ0 \[m\] so every bristle model shares the same state scale.

use super::common::{self, FN, MUK, SIGMA0};
use crate::model::{Category, FrictionModel, ModelEntry, ModelInfo};
use crate::params::{ParamError, ParamSpec};

const PARAMS: [ParamSpec; 4] = [
    MUK,
    FN,
    SIGMA0,
    ParamSpec {
        key: "alpha",
        name: "Shape exponent",
        symbol: "α",
        unit: "",
        default: 1.0,
        min: 0.1,
        max: 5.0,
        log: false,
    },
];

static INFO: ModelInfo = ModelInfo {
    id: "dahl",
    name: "Dahl (1968)",
    category: Category::Dynamic,
    provisional: false,
    params: &PARAMS,
};

/// Registry entry.
pub static ENTRY: ModelEntry = ModelEntry { info: &INFO, build };

/// Dahl model: Coulomb level F_C = μ_k F_N \[N\], rest stiffness σ0 \[N/m\], shape exponent α \[-\].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Dahl {
    /// Coulomb level F_C \[N\].
    pub fc: f64,
    /// Rest stiffness σ0 \[N/m\].
    pub sigma0: f64,
    /// Shape exponent α \[-\].
    pub alpha: f64,
}

fn build(values: &[f64]) -> Result<Box<dyn FrictionModel>, ParamError> {
    let v = common::check(&PARAMS, values)?;
    Ok(Box::new(Dahl {
        fc: v[0] * v[1],
        sigma0: v[2],
        alpha: v[3],
    }))
}

impl FrictionModel for Dahl {
    fn info(&self) -> &'static ModelInfo {
        &INFO
    }
    fn n_states(&self) -> usize {
        1
    }
    fn derivative(&self, v: f64, _fe: f64, x: &[f64], dx: &mut [f64]) {
        let r = 1.0 - self.sigma0 * x[0] / self.fc * common::sgn(v);
        dx[0] = if self.alpha == 1.0 {
            v * r
        } else {
            v * r.abs().powf(self.alpha) * common::sgn(r)
        };
    }
    fn force(&self, _v: f64, _fe: f64, x: &[f64]) -> f64 {
        self.sigma0 * x[0]
    }
    fn state_scale(&self, _i: usize) -> f64 {
        self.fc / self.sigma0
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
        // ż = v |r|^α sgn r with r = 1 − σ0 z sgn(v)/F_C; ∂r/∂v = 0 off v = 0.
        let s = common::sgn(v);
        let r = 1.0 - self.sigma0 * x[0] / self.fc * s;
        let drdz = -self.sigma0 * s / self.fc;
        if self.alpha == 1.0 {
            dzdz[0] = v * drdz;
            dzdv[0] = r;
        } else {
            if r == 0.0 && self.alpha < 1.0 {
                return None;
            }
            let ra = r.abs().powf(self.alpha);
            dzdz[0] = v * self.alpha * ra / r.abs() * drdz;
            dzdv[0] = ra * common::sgn(r);
        }
        dfdz[0] = self.sigma0;
        Some(0.0)
    }
}
