//! The friction library's LuGre variant (`lugre_model`): a rational Stribeck shape.
//!
//! dz/dt = v − |v| z / g(v), g(v) = a1 + a2/(1 + (|v|/v_s)^α) \[m\], a1 = μ_c N/σ0,
//! a2 = (μ_s − μ_c) N/σ0, F = σ0 z + σ1 dz/dt + σ2 v. Defaults: the library's `lugre_example`.

use super::common::{self, FN};
use crate::model::{Category, FrictionModel, ModelEntry, ModelInfo};
use crate::params::{ParamError, ParamSpec};

const PARAMS: [ParamSpec; 8] = [
    ParamSpec {
        key: "mus",
        name: "Static coefficient",
        symbol: "μ_s",
        unit: "",
        default: 0.598,
        min: 0.0,
        max: 10.0,
        log: false,
    },
    ParamSpec {
        key: "muk",
        name: "Coulomb coefficient",
        symbol: "μ_c",
        unit: "",
        default: 0.40,
        min: 1e-6,
        max: 10.0,
        log: false,
    },
    FN,
    ParamSpec {
        key: "vs",
        name: "Stribeck velocity",
        symbol: "v_s",
        unit: "m/s",
        default: 3.5e-3,
        min: 1e-8,
        max: 10.0,
        log: true,
    },
    ParamSpec {
        key: "sigma0",
        name: "Stiffness",
        symbol: "σ_0",
        unit: "N/m",
        default: 45.089e3,
        min: 1e-3,
        max: 1e10,
        log: true,
    },
    ParamSpec {
        key: "sigma1",
        name: "Damping",
        symbol: "σ_1",
        unit: "N·s/m",
        default: 2.6234e3,
        min: 0.0,
        max: 1e6,
        log: false,
    },
    ParamSpec {
        key: "sigma2",
        name: "Viscous damping",
        symbol: "σ_2",
        unit: "N·s/m",
        default: 0.0,
        min: 0.0,
        max: 1e4,
        log: false,
    },
    ParamSpec {
        key: "alpha",
        name: "Shape parameter",
        symbol: "α",
        unit: "",
        default: 2.0,
        min: 0.1,
        max: 10.0,
        log: false,
    },
];

static INFO: ModelInfo = ModelInfo {
    id: "lugre-rational",
    name: "LuGre with rational g(v) (friction library)",
    category: Category::Dynamic,
    provisional: false,
    params: &PARAMS,
};

/// Registry entry.
pub static ENTRY: ModelEntry = ModelEntry { info: &INFO, build };

/// Library LuGre: a1, a2 \[m\], σ0 \[N/m\], σ1, σ2 \[N·s/m\], v_s \[m/s\], α \[-\].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LuGreRational {
    /// Coulomb deflection a1 = μ_c N/σ0 \[m\].
    pub a1: f64,
    /// Stiction excess a2 = (μ_s − μ_c) N/σ0 \[m\].
    pub a2: f64,
    /// Stribeck velocity v_s \[m/s\].
    pub vs: f64,
    /// Stiffness σ0 \[N/m\].
    pub sigma0: f64,
    /// Damping σ1 \[N·s/m\].
    pub sigma1: f64,
    /// Viscous σ2 \[N·s/m\].
    pub sigma2: f64,
    /// Shape exponent α \[-\].
    pub alpha: f64,
}

fn build(values: &[f64]) -> Result<Box<dyn FrictionModel>, ParamError> {
    let v = common::check(&PARAMS, values)?;
    common::check_mus_ge_muk(v[0], v[1])?;
    Ok(Box::new(LuGreRational {
        a1: v[1] * v[2] / v[4],
        a2: (v[0] - v[1]) * v[2] / v[4],
        vs: v[3],
        sigma0: v[4],
        sigma1: v[5],
        sigma2: v[6],
        alpha: v[7],
    }))
}

impl LuGreRational {
    /// Stribeck deflection g(v) \[m\].
    #[inline]
    pub fn g(&self, v: f64) -> f64 {
        let s = v.abs() / self.vs;
        let p = if self.alpha == 2.0 {
            s * s
        } else {
            s.powf(self.alpha)
        };
        self.a1 + self.a2 / (1.0 + p)
    }

    #[inline]
    fn zdot(&self, v: f64, z: f64) -> f64 {
        v - v.abs() * z / self.g(v)
    }
}

impl FrictionModel for LuGreRational {
    fn info(&self) -> &'static ModelInfo {
        &INFO
    }
    fn n_states(&self) -> usize {
        1
    }
    fn derivative(&self, v: f64, _fe: f64, x: &[f64], dx: &mut [f64]) {
        dx[0] = self.zdot(v, x[0]);
    }
    fn force(&self, v: f64, _fe: f64, x: &[f64]) -> f64 {
        self.sigma0 * x[0] + self.sigma1 * self.zdot(v, x[0]) + self.sigma2 * v
    }
    fn derivative_and_force(&self, v: f64, _fe: f64, x: &[f64], dx: &mut [f64]) -> f64 {
        let zd = self.zdot(v, x[0]);
        dx[0] = zd;
        self.sigma0 * x[0] + self.sigma1 * zd + self.sigma2 * v
    }
    fn state_scale(&self, _i: usize) -> f64 {
        self.a1
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
        // ż = v − |v| z / g(v), g = a1 + a2/(1 + s^α), s = |v|/v_S:
        // g' = −a2 α s^{α−1} sgn(v) / (v_S (1 + s^α)²).
        let z = x[0];
        let g = self.g(v);
        let s = v.abs() / self.vs;
        let (p, dp) = if self.alpha == 2.0 {
            (s * s, 2.0 * s)
        } else if s == 0.0 {
            (0.0, if self.alpha > 1.0 { 0.0 } else { return None })
        } else {
            let p = s.powf(self.alpha);
            (p, self.alpha * p / s)
        };
        let dg = -self.a2 * dp * common::sgn(v) / (self.vs * (1.0 + p) * (1.0 + p));
        let dd = -v.abs() / g;
        let dv = 1.0 - z * (common::sgn(v) / g - v.abs() * dg / (g * g));
        dzdz[0] = dd;
        dzdv[0] = dv;
        dfdz[0] = self.sigma0 + self.sigma1 * dd;
        Some(self.sigma1 * dv + self.sigma2)
    }
}
