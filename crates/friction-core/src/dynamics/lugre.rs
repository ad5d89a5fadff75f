//! LuGre (Canudas de Wit, Olsson, Åström & Lischinsky 1995), \[T\] §7.1.
//!
//! dz/dt = v − σ0 |v| z / g(v), g(v) = F_C + (F_s − F_C) e^{−(v/v_S)²},
//! F = σ0 z + σ1 dz/dt + σ2 v. Steady state g(v) sgn v + σ2 v. With the Table 7.1 values the
//! passivity condition σ2 > σ1 (F_s − F_C)/F_C is violated (158 > 0.1), as the thesis uses them.

use super::common::{self, FN, MUK, MUS, SIGMA0, SIGMA1, SIGMA2, VS};
use crate::model::{Category, FrictionModel, ModelEntry, ModelInfo};
use crate::params::{ParamError, ParamSpec};

const PARAMS: [ParamSpec; 7] = [MUS, MUK, FN, SIGMA0, SIGMA1, SIGMA2, VS];

static INFO: ModelInfo = ModelInfo {
    id: "lugre",
    name: "LuGre (Canudas de Wit et al. 1995)",
    category: Category::Dynamic,
    provisional: false,
    params: &PARAMS,
};

/// Registry entry.
pub static ENTRY: ModelEntry = ModelEntry { info: &INFO, build };

/// LuGre model with the Gaussian Stribeck curve; forces in N, σ0 N/m, σ1 and σ2 N·s/m, v_S m/s.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LuGre {
    /// Static level F_s = μ_s F_N \[N\].
    pub fs: f64,
    /// Coulomb level F_C = μ_k F_N \[N\].
    pub fc: f64,
    /// Bristle stiffness σ0 \[N/m\].
    pub sigma0: f64,
    /// Bristle damping σ1 \[N·s/m\].
    pub sigma1: f64,
    /// Viscous coefficient σ2 \[N·s/m\].
    pub sigma2: f64,
    /// Stribeck velocity v_S \[m/s\].
    pub vs: f64,
}

fn build(values: &[f64]) -> Result<Box<dyn FrictionModel>, ParamError> {
    let v = common::check(&PARAMS, values)?;
    common::check_mus_ge_muk(v[0], v[1])?;
    Ok(Box::new(LuGre {
        fs: v[0] * v[2],
        fc: v[1] * v[2],
        sigma0: v[3],
        sigma1: v[4],
        sigma2: v[5],
        vs: v[6],
    }))
}

impl LuGre {
    /// Stribeck curve g(v) \[N\].
    #[inline]
    pub fn g(&self, v: f64) -> f64 {
        let r = v / self.vs;
        self.fc + (self.fs - self.fc) * common::exp_neg(r * r)
    }

    /// Steady-state force g(v) sgn v + σ2 v \[N\].
    pub fn steady(&self, v: f64) -> f64 {
        self.g(v) * common::sgn(v) + self.sigma2 * v
    }

    /// Whether σ2 > σ1 (F_s − F_C)/F_C holds, roughly the condition for a passive map v → F.
    pub fn passive(&self) -> bool {
        self.sigma2 > self.sigma1 * (self.fs - self.fc) / self.fc
    }

    #[inline]
    fn zdot(&self, v: f64, z: f64) -> f64 {
        v - self.sigma0 * v.abs() * z / self.g(v)
    }
}

impl FrictionModel for LuGre {
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
    fn micro_slip(&self) -> bool {
        true
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
        // ż = v − σ0 |v| z / g(v), g' = −2 (F_s − F_C) e^{−r²} r / v_S with r = v/v_S.
        let z = x[0];
        let g = self.g(v);
        let r = v / self.vs;
        let dg = -2.0 * (self.fs - self.fc) * common::exp_neg(r * r) * r / self.vs;
        let dd = -self.sigma0 * v.abs() / g;
        let dv = 1.0 - self.sigma0 * z * (common::sgn(v) / g - v.abs() * dg / (g * g));
        dzdz[0] = dd;
        dzdv[0] = dv;
        dfdz[0] = self.sigma0 + self.sigma1 * dd;
        Some(self.sigma1 * dv + self.sigma2)
    }
}
