//! Gonthier, McPhee, Lange & Piedbœuf (2004), \[T\] §7.1: a LuGre-like bristle blended between
//! stick and slip by s = e^{−(v/v_S)²}, with a dwell-time state that raises the stiction cap.
//!
//! dz/dt = s v + (1 − s)(F_C dir(v, v0) − σ0 z)/σ1; ds_dw/dt = (s − s_dw)/τ_dw when s ≥ s_dw, else
//! (s − s_dw)/τ_b with τ_b = σ1/σ0; F_b = σ0 z + σ1 dz/dt; F_max = F_C + (F_s − F_C) s_dw;
//! F = clip(F_b, ±F_max) + σ2 v. Default v0 = v_S/100 (not in Table 7.1).

use super::common::{self, FN, MUK, MUS, SIGMA0, SIGMA1, SIGMA2, VS};
use crate::model::{Category, FrictionModel, ModelEntry, ModelInfo};
use crate::params::{ParamError, ParamSpec};

const PARAMS: [ParamSpec; 9] = [
    MUS,
    MUK,
    FN,
    SIGMA0,
    // the slip law divides by σ1: the shared range's end σ1 = 0 could never run
    ParamSpec {
        min: 1e-6,
        ..SIGMA1
    },
    SIGMA2,
    VS,
    ParamSpec {
        key: "v0",
        name: "Direction tolerance",
        symbol: "v_0",
        unit: "m/s",
        default: 1e-5,
        min: 1e-12,
        max: 1.0,
        log: true,
    },
    ParamSpec {
        key: "taudw",
        name: "Dwell-time constant",
        symbol: "τ_dw",
        unit: "s",
        default: 2.0,
        min: 1e-6,
        max: 1e4,
        log: true,
    },
];

static INFO: ModelInfo = ModelInfo {
    id: "gonthier",
    name: "Gonthier et al. (2004)",
    category: Category::Dynamic,
    provisional: false,
    params: &PARAMS,
};

/// Registry entry.
pub static ENTRY: ModelEntry = ModelEntry { info: &INFO, build };

/// Gonthier model; forces N, σ0 N/m, σ1 and σ2 N·s/m, v_S and v0 m/s, τ_dw s.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Gonthier {
    /// Static level F_s \[N\].
    pub fs: f64,
    /// Coulomb level F_C \[N\].
    pub fc: f64,
    /// Stiffness σ0 \[N/m\].
    pub sigma0: f64,
    /// Damping σ1 \[N·s/m\].
    pub sigma1: f64,
    /// Viscous σ2 \[N·s/m\].
    pub sigma2: f64,
    /// Stribeck velocity v_S \[m/s\].
    pub vs: f64,
    /// Direction tolerance v0 \[m/s\].
    pub v0: f64,
    /// Dwell-time constant τ_dw \[s\].
    pub taudw: f64,
}

fn build(values: &[f64]) -> Result<Box<dyn FrictionModel>, ParamError> {
    let v = common::check(&PARAMS, values)?;
    common::check_mus_ge_muk(v[0], v[1])?;
    Ok(Box::new(Gonthier {
        fs: v[0] * v[2],
        fc: v[1] * v[2],
        sigma0: v[3],
        sigma1: v[4],
        sigma2: v[5],
        vs: v[6],
        v0: v[7],
        taudw: v[8],
    }))
}

impl Gonthier {
    /// dir(v, v0): sgn v outside |v| ≤ v0, a C¹ cubic inside (7.42).
    pub fn dir(&self, v: f64) -> f64 {
        if v.abs() > self.v0 {
            common::sgn(v)
        } else {
            let r = v / self.v0;
            1.5 * r - 0.5 * r * r * r
        }
    }

    #[inline]
    fn s(&self, v: f64) -> f64 {
        let r = v / self.vs;
        (-r * r).exp()
    }

    #[inline]
    fn zdot(&self, v: f64, z: f64) -> f64 {
        self.zdot_s(v, z, self.s(v))
    }

    /// ż0 with s = s(v) already known (one exponential per evaluation instead of three).
    #[inline]
    fn zdot_s(&self, v: f64, z: f64, s: f64) -> f64 {
        s * v + (1.0 - s) * (self.fc * self.dir(v) - self.sigma0 * z) / self.sigma1
    }

    /// ṡ_dw: relaxes towards s at 1/τ_dw while rising, at σ0/σ1 = 1/τ_b while falling.
    #[inline]
    fn dwell_rate(&self, s: f64, sdw: f64) -> f64 {
        let d = s - sdw;
        if d >= 0.0 {
            d / self.taudw
        } else {
            d * self.sigma0 / self.sigma1
        }
    }

    /// clip(F_b, ±F_max) + σ2 v.
    #[inline]
    fn clipped(&self, v: f64, fb: f64, sdw: f64) -> f64 {
        // A state outside the physical range (dwell beyond its bounds, e.g. while a solver tries a
        // step) can make F_max negative or NaN; f64::clamp would panic there, so bound it at 0.
        let fm = self.fmax(sdw).max(0.0);
        fb.clamp(-fm, fm) + self.sigma2 * v
    }

    fn fb(&self, v: f64, z: f64) -> f64 {
        self.sigma0 * z + self.sigma1 * self.zdot(v, z)
    }

    fn fmax(&self, sdw: f64) -> f64 {
        self.fc + (self.fs - self.fc) * sdw
    }

    /// d dir/dv: 0 outside |v| ≤ v0 (sgn is flat there), (3/2)(1 − r²)/v0 on the cubic.
    #[inline]
    fn ddir(&self, v: f64) -> f64 {
        if v.abs() > self.v0 {
            0.0
        } else {
            let r = v / self.v0;
            1.5 * (1.0 - r * r) / self.v0
        }
    }
}

impl FrictionModel for Gonthier {
    fn info(&self) -> &'static ModelInfo {
        &INFO
    }
    fn n_states(&self) -> usize {
        2
    }
    fn derivative(&self, v: f64, _fe: f64, x: &[f64], dx: &mut [f64]) {
        let s = self.s(v);
        dx[0] = self.zdot_s(v, x[0], s);
        dx[1] = self.dwell_rate(s, x[1]);
    }
    fn force(&self, v: f64, _fe: f64, x: &[f64]) -> f64 {
        self.clipped(v, self.fb(v, x[0]), x[1])
    }
    // The closed loop needs both at every stage: share s(v) and ż0 (same arithmetic as the
    // separate calls, so the values are bit-identical).
    fn derivative_and_force(&self, v: f64, _fe: f64, x: &[f64], dx: &mut [f64]) -> f64 {
        let s = self.s(v);
        let zd = self.zdot_s(v, x[0], s);
        dx[0] = zd;
        dx[1] = self.dwell_rate(s, x[1]);
        self.clipped(v, self.sigma0 * x[0] + self.sigma1 * zd, x[1])
    }
    // ż0 depends on (v, z0) only and ṡ_dw on (v, s_dw) only: the Jacobian is diagonal in the
    // states, so the closed loop can use `partials` instead of differencing both columns.
    fn separable(&self) -> bool {
        true
    }
    // Each branch below is the one `derivative`/`force` take at the same point (d ≥ 0 for the
    // dwell rate, |v| > v0 for sgn, |F_b| ≤ F_max for the unclipped force), so on a kink the
    // partials are the one-sided ones of the branch the value itself comes from.
    fn partials(
        &self,
        v: f64,
        _fe: f64,
        x: &[f64],
        dzdz: &mut [f64],
        dzdv: &mut [f64],
        dfdz: &mut [f64],
    ) -> Option<f64> {
        let (z, sdw) = (x[0], x[1]);
        // s = e^{−(v/v_S)²}, s' = −2 v s / v_S².
        let s = self.s(v);
        let ds = -2.0 * v * s / (self.vs * self.vs);
        let slip = (self.fc * self.dir(v) - self.sigma0 * z) / self.sigma1;
        // ż0 = s v + (1 − s)·slip.
        let dz0dz = -(1.0 - s) * self.sigma0 / self.sigma1;
        let dz0dv = ds * v + s - ds * slip + (1.0 - s) * self.fc * self.ddir(v) / self.sigma1;
        // ṡ_dw = (s − s_dw)·rate with rate 1/τ_dw for s ≥ s_dw, else σ0/σ1.
        let rate = if s - sdw >= 0.0 {
            1.0 / self.taudw
        } else {
            self.sigma0 / self.sigma1
        };
        dzdz[0] = dz0dz;
        dzdz[1] = -rate;
        dzdv[0] = dz0dv;
        dzdv[1] = ds * rate;
        // F = clip(F_b, ±F_max) + σ2 v with F_b = σ0 z + σ1 ż0 and F_max = max(F_C + (F_s −
        // F_C) s_dw, 0): inside the band F follows F_b; clipped it follows ±F_max (which is
        // flat in s_dw once the bound at 0 is active).
        let fb = self.sigma0 * z + self.sigma1 * self.zdot_s(v, z, s);
        let fm_raw = self.fmax(sdw);
        let fm = fm_raw.max(0.0);
        if fb.abs() <= fm {
            dfdz[0] = self.sigma0 + self.sigma1 * dz0dz;
            dfdz[1] = 0.0;
            Some(self.sigma1 * dz0dv + self.sigma2)
        } else {
            dfdz[0] = 0.0;
            dfdz[1] = if fm_raw > 0.0 {
                common::sgn(fb) * (self.fs - self.fc)
            } else {
                0.0
            };
            Some(self.sigma2)
        }
    }
    fn state_scale(&self, i: usize) -> f64 {
        if i == 0 {
            self.fc / self.sigma0
        } else {
            1.0
        }
    }
    fn n_switches(&self) -> usize {
        3
    }
    // The clip of (7.47), the rate switch of (7.45) and the edge of dir() are kinks.
    fn switches(&self, v: f64, _fe: f64, x: &[f64], g: &mut [f64]) {
        g[0] = self.fb(v, x[0]).abs() - self.fmax(x[1]);
        g[1] = self.s(v) - x[1];
        g[2] = v.abs() - self.v0;
    }
}
