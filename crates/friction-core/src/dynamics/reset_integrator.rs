//! Reset integrator (Haessig & Friedland 1991), \[T\] §7.1.
//!
//! dz/dt = 0 when (v > 0 ∧ z ≥ z0) ∨ (v < 0 ∧ z ≤ −z0), else v. Force, literature form (Olsson et
//! al. 1998, the default): F = (1 + a(z)) σ0 z + σ1 dz/dt with a(z) = a for |z| < z0, else 0.
//! Thesis form (7.10), `form = 1`: (1 + a)(σ0 z + σ1 dz/dt) for |z| < z0, σ0 z0 sgn z otherwise.
//! Decision (not in the seed): z0 = F_C/σ0, so the sliding force is F_C and the breakaway
//! (1 + a) F_C = 1.4911 N with a = 0.52.

use super::common::{self, FN, MUK, SIGMA0, SIGMA1};
use crate::model::{Category, FrictionModel, ModelEntry, ModelInfo};
use crate::params::{ParamError, ParamSpec};

const PARAMS: [ParamSpec; 6] = [
    MUK,
    FN,
    SIGMA0,
    SIGMA1,
    ParamSpec {
        key: "a",
        name: "Stiction coefficient",
        symbol: "a",
        unit: "",
        default: 0.52,
        min: 0.0,
        max: 10.0,
        log: false,
    },
    ParamSpec {
        key: "form",
        name: "Force law: 0 = literature, 1 = thesis (7.10)",
        symbol: "form",
        unit: "",
        default: 0.0,
        min: 0.0,
        max: 1.0,
        log: false,
    },
];

static INFO: ModelInfo = ModelInfo {
    id: "reset-integrator",
    name: "Reset integrator (Haessig & Friedland 1991)",
    category: Category::Dynamic,
    provisional: false,
    params: &PARAMS,
};

/// Registry entry.
pub static ENTRY: ModelEntry = ModelEntry { info: &INFO, build };

/// Reset integrator; z0 \[m\], σ0 \[N/m\], σ1 \[N·s/m\], a \[-\].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ResetIntegrator {
    /// Saturation deflection z0 = F_C/σ0 \[m\].
    pub z0: f64,
    /// Stiffness σ0 \[N/m\].
    pub sigma0: f64,
    /// Damping σ1 \[N·s/m\].
    pub sigma1: f64,
    /// Stiction coefficient a \[-\].
    pub a: f64,
    /// Thesis force form (7.10) instead of the literature form.
    pub thesis_form: bool,
}

fn build(values: &[f64]) -> Result<Box<dyn FrictionModel>, ParamError> {
    let v = common::check(&PARAMS, values)?;
    if v[5] != 0.0 && v[5] != 1.0 {
        return Err(ParamError::new(
            "form",
            &crate::params::fmt_num(v[5]),
            "must be 0 or 1",
        ));
    }
    Ok(Box::new(ResetIntegrator {
        z0: v[0] * v[1] / v[2],
        sigma0: v[2],
        sigma1: v[3],
        a: v[4],
        thesis_form: v[5] == 1.0,
    }))
}

impl ResetIntegrator {
    #[inline]
    fn zdot(&self, v: f64, z: f64) -> f64 {
        if (v > 0.0 && z >= self.z0) || (v < 0.0 && z <= -self.z0) {
            0.0
        } else {
            v
        }
    }
}

impl FrictionModel for ResetIntegrator {
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
        let z = x[0];
        let zd = self.zdot(v, z);
        let inside = z.abs() < self.z0;
        if self.thesis_form {
            if inside {
                (1.0 + self.a) * (self.sigma0 * z + self.sigma1 * zd)
            } else {
                self.sigma0 * self.z0 * common::sgn(z)
            }
        } else {
            let a = if inside { self.a } else { 0.0 };
            (1.0 + a) * self.sigma0 * z + self.sigma1 * zd
        }
    }
    fn state_scale(&self, _i: usize) -> f64 {
        self.z0
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
        let z = x[0];
        let held = (v > 0.0 && z >= self.z0) || (v < 0.0 && z <= -self.z0);
        let dv = if held { 0.0 } else { 1.0 };
        let inside = z.abs() < self.z0;
        dzdz[0] = 0.0;
        dzdv[0] = dv;
        if self.thesis_form {
            if inside {
                dfdz[0] = (1.0 + self.a) * self.sigma0;
                Some((1.0 + self.a) * self.sigma1 * dv)
            } else {
                dfdz[0] = 0.0;
                Some(0.0)
            }
        } else {
            let a = if inside { self.a } else { 0.0 };
            dfdz[0] = (1.0 + a) * self.sigma0;
            Some(self.sigma1 * dv)
        }
    }
    fn n_switches(&self) -> usize {
        2
    }
    fn switches(&self, v: f64, _fe: f64, x: &[f64], g: &mut [f64]) {
        g[0] = x[0].abs() - self.z0;
        g[1] = v;
    }
    fn on_switch(&self, index: usize, rising: bool, _v: f64, _fe: f64, x: &mut [f64]) -> bool {
        // Land exactly on the saturation so the held state does not creep past it.
        if index == 0 && rising {
            x[0] = self.z0 * common::sgn(x[0]);
            true
        } else {
            false
        }
    }
}
