//! Liang, Fillmore & Ma (2012), extended bristle model, one tangential axis (\[T\] §7.1).
//!
//! F = σ0 z + σ1 dz/dt. The bristle follows the body (dz/dt = v) until |z| reaches z_max, then is
//! held at z_max sgn v; z_max = F_s/σ0 while |v| ≤ v0 (stick) and F_C/σ0 above. When |v| rises
//! through v0 with F_C/σ0 < |z|, z is projected onto (F_C/σ0) sgn v (an event with a state
//! reset), so F falls from up to F_s to F_C.

use super::common::{self, FN, MUK, MUS, SIGMA0, SIGMA1};
use crate::model::{Category, FrictionModel, ModelEntry, ModelInfo};
use crate::params::{ParamError, ParamSpec};

const PARAMS: [ParamSpec; 6] = [
    MUS,
    MUK,
    FN,
    SIGMA0,
    SIGMA1,
    ParamSpec {
        key: "v0",
        name: "Stick/slip velocity threshold",
        symbol: "v_0",
        unit: "m/s",
        default: 1e-3,
        min: 1e-12,
        max: 10.0,
        log: true,
    },
];

static INFO: ModelInfo = ModelInfo {
    id: "liang",
    name: "Liang, Fillmore & Ma (2012)",
    category: Category::Dynamic,
    provisional: false,
    params: &PARAMS,
};

/// Registry entry.
pub static ENTRY: ModelEntry = ModelEntry { info: &INFO, build };

/// Liang model; forces N, σ0 N/m, σ1 N·s/m, v0 m/s.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Liang {
    /// Static level F_s \[N\].
    pub fs: f64,
    /// Coulomb level F_C \[N\].
    pub fc: f64,
    /// Stiffness σ0 \[N/m\].
    pub sigma0: f64,
    /// Damping σ1 \[N·s/m\].
    pub sigma1: f64,
    /// Threshold v0 \[m/s\].
    pub v0: f64,
}

fn build(values: &[f64]) -> Result<Box<dyn FrictionModel>, ParamError> {
    let v = common::check(&PARAMS, values)?;
    common::check_mus_ge_muk(v[0], v[1])?;
    Ok(Box::new(Liang {
        fs: v[0] * v[2],
        fc: v[1] * v[2],
        sigma0: v[3],
        sigma1: v[4],
        v0: v[5],
    }))
}

impl Liang {
    /// Deflection limit z_max(v) \[m\].
    pub fn zmax(&self, v: f64) -> f64 {
        if v.abs() > self.v0 {
            self.fc / self.sigma0
        } else {
            self.fs / self.sigma0
        }
    }

    #[inline]
    fn zdot(&self, v: f64, z: f64) -> f64 {
        if z.abs() >= self.zmax(v) && v * z > 0.0 {
            0.0
        } else {
            v
        }
    }
}

impl FrictionModel for Liang {
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
        self.sigma0 * x[0] + self.sigma1 * self.zdot(v, x[0])
    }
    fn derivative_and_force(&self, v: f64, _fe: f64, x: &[f64], dx: &mut [f64]) -> f64 {
        let zd = self.zdot(v, x[0]);
        dx[0] = zd;
        self.sigma0 * x[0] + self.sigma1 * zd
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
        // Piecewise: ż = v, or 0 while held at z_max(v) (constant on each side of v0).
        let held = x[0].abs() >= self.zmax(v) && v * x[0] > 0.0;
        let dv = if held { 0.0 } else { 1.0 };
        dzdz[0] = 0.0;
        dzdv[0] = dv;
        dfdz[0] = self.sigma0;
        Some(self.sigma1 * dv)
    }
    fn n_switches(&self) -> usize {
        2
    }
    fn switches(&self, v: f64, _fe: f64, x: &[f64], g: &mut [f64]) {
        g[0] = x[0].abs() - self.zmax(v);
        g[1] = v.abs() - self.v0;
    }
    fn on_switch(&self, index: usize, rising: bool, v: f64, _fe: f64, x: &mut [f64]) -> bool {
        // On |v| rising through v0 the limit is the kinetic one, whichever side of the switch
        // the landing point fell on.
        let zm = if index == 1 && rising {
            self.fc / self.sigma0
        } else {
            self.zmax(v)
        };
        let out = x[0].abs() >= zm && (index == 0 || (index == 1 && rising));
        if out {
            let s = if index == 1 {
                common::sgn(v)
            } else {
                common::sgn(x[0])
            };
            x[0] = zm * s;
        }
        out
    }
}
