//! Leuven model (Swevers et al. 2000; Lampaert, Swevers & Al-Bender 2002), \[T\] §7.1 in the 2002
//! form: the state equation is driven by F_h, not by a virgin curve F_d(z), whose steady level
//! would be F_b + s(v) and so drop to ≈ 0 after a reversal from sliding. PROVISIONAL: the
//! hysteresis-function layout is reconstructed.
//!
//! dz/dt = v \[1 − sgn(F_h/s(v)) |F_h/s(v)|^n\] = v − |v| sgn(F_h) |F_h/S(v)|^n (S = |s|, so the
//! expression is defined at v = 0), F = F_h(z) + σ1 dz/dt + σ2 v, s(v) = sgn v [F_C + (F_s − F_C)
//! e^{−(|v|/v_S)^δ}]. The hysteresis force F_h with non-local memory is realised, as in the 2002
//! revision, by N Maxwell-slip elements driven by z: element i deflects with dz/dt until
//! |ζ_i| = Δ_i, F_h = Σ k_i ζ_i. Decisions (not in the sources available): k_i = σ0/N,
//! Δ_i = (i/N) Δ_max with Σ k_i Δ_i = 1.2 F_s, so F_h can always reach the Stribeck level and the
//! virgin stiffness is σ0.

use super::common::{self, FN, MUK, MUS, SIGMA0, SIGMA1, SIGMA2, VS};
use crate::model::{Category, FrictionModel, ModelEntry, ModelInfo};
use crate::params::{ParamError, ParamSpec};

/// Relative depth of the switching surfaces inside the element limits (see `switches`).
const LIMIT_MARGIN: f64 = 1e-9;

const PARAMS: [ParamSpec; 11] = [
    MUS,
    MUK,
    FN,
    SIGMA0,
    SIGMA1,
    SIGMA2,
    VS,
    ParamSpec {
        key: "delta",
        name: "Stribeck exponent",
        symbol: "δ",
        unit: "",
        default: 2.0,
        min: 0.1,
        max: 10.0,
        log: false,
    },
    ParamSpec {
        key: "nexp",
        name: "Transition exponent",
        symbol: "n",
        unit: "",
        default: 2.0,
        min: 0.5,
        max: 10.0,
        log: false,
    },
    ParamSpec {
        key: "n",
        name: "Hysteresis elements",
        symbol: "N",
        unit: "",
        default: 4.0,
        min: 1.0,
        max: 50.0,
        log: false,
    },
    ParamSpec {
        key: "hmax",
        name: "Hysteresis capacity / F_s",
        symbol: "F_h,max/F_s",
        unit: "",
        default: 1.2,
        min: 1.01,
        max: 10.0,
        log: false,
    },
];

static INFO: ModelInfo = ModelInfo {
    id: "leuven",
    name: "Leuven (Swevers et al. 2000, Lampaert et al. 2002)",
    category: Category::Dynamic,
    provisional: true,
    params: &PARAMS,
};

/// Registry entry.
pub static ENTRY: ModelEntry = ModelEntry { info: &INFO, build };

/// Leuven model with Maxwell-slip hysteresis.
#[derive(Debug, Clone, PartialEq)]
pub struct Leuven {
    /// Static level F_s \[N\].
    pub fs: f64,
    /// Coulomb level F_C \[N\].
    pub fc: f64,
    /// Damping σ1 \[N·s/m\].
    pub sigma1: f64,
    /// Viscous σ2 \[N·s/m\].
    pub sigma2: f64,
    /// Stribeck velocity v_S \[m/s\].
    pub vs: f64,
    /// Stribeck exponent δ \[-\].
    pub delta: f64,
    /// Transition exponent n \[-\].
    pub nexp: f64,
    /// Element stiffnesses k_i \[N/m\].
    pub k: Vec<f64>,
    /// Element slip deflections Δ_i \[m\].
    pub lim: Vec<f64>,
}

fn build(values: &[f64]) -> Result<Box<dyn FrictionModel>, ParamError> {
    let v = common::check(&PARAMS, values)?;
    common::check_mus_ge_muk(v[0], v[1])?;
    common::check_whole("n", v[9])?;
    let n = v[9] as usize;
    let fs = v[0] * v[2];
    let ki = v[3] / n as f64;
    // Σ k_i (i/N) Δmax = ki Δmax (N+1)/2 = hmax F_s.
    let dmax = 2.0 * v[10] * fs / (ki * (n as f64 + 1.0));
    Ok(Box::new(Leuven {
        fs,
        fc: v[1] * v[2],
        sigma1: v[4],
        sigma2: v[5],
        vs: v[6],
        delta: v[7],
        nexp: v[8],
        k: vec![ki; n],
        lim: (1..=n).map(|i| dmax * i as f64 / n as f64).collect(),
    }))
}

impl Leuven {
    /// Stribeck magnitude S(v) = |s(v)| \[N\].
    pub fn stribeck(&self, v: f64) -> f64 {
        self.fc + (self.fs - self.fc) * self.stribeck_exp(v).0
    }

    fn fh(&self, zeta: &[f64]) -> f64 {
        self.k.iter().zip(zeta).map(|(k, z)| k * z).sum()
    }

    /// e^{−(|v|/v_S)^δ} and (|v|/v_S)^δ, shared by S(v) and its derivative.
    #[inline]
    fn stribeck_exp(&self, v: f64) -> (f64, f64) {
        let r = (v / self.vs).abs();
        let e = if self.delta == 2.0 {
            r * r
        } else {
            r.powf(self.delta)
        };
        ((-e).exp(), e)
    }

    fn zdot(&self, v: f64, fh: f64) -> f64 {
        self.zdot_s(v, fh, self.stribeck(v))
    }

    /// ż with S(v) already known.
    #[inline]
    fn zdot_s(&self, v: f64, fh: f64, s: f64) -> f64 {
        let r = (fh / s).abs();
        let p = if self.nexp == 2.0 {
            r * r
        } else {
            r.powf(self.nexp)
        };
        v - v.abs() * common::sgn(fh) * p
    }
}

impl FrictionModel for Leuven {
    fn info(&self) -> &'static ModelInfo {
        &INFO
    }
    fn n_states(&self) -> usize {
        1 + self.k.len()
    }
    fn derivative(&self, v: f64, fe: f64, x: &[f64], dx: &mut [f64]) {
        self.derivative_and_force(v, fe, x, dx);
    }
    fn force(&self, v: f64, _fe: f64, x: &[f64]) -> f64 {
        let fh = self.fh(&x[1..]);
        fh + self.sigma1 * self.zdot(v, fh) + self.sigma2 * v
    }
    // The closed loop needs both at every stage: F_h, S(v) (an exponential) and ż once.
    fn derivative_and_force(&self, v: f64, _fe: f64, x: &[f64], dx: &mut [f64]) -> f64 {
        let zeta = &x[1..];
        let fh = self.fh(zeta);
        let zd = self.zdot(v, fh);
        dx[0] = zd;
        for i in 0..self.k.len() {
            let held = zeta[i].abs() >= self.lim[i] && zd * zeta[i] > 0.0;
            dx[1 + i] = if held { 0.0 } else { zd };
        }
        fh + self.sigma1 * zd + self.sigma2 * v
    }
    // Every element's rate depends on F_h = Σ k_i ζ_i, so the states are coupled: the solver
    // gets the full matrix here instead of differencing 1 + N columns per step.
    fn partials_dense(
        &self,
        v: f64,
        _fe: f64,
        x: &[f64],
        dzdz: &mut [f64],
        dzdv: &mut [f64],
        dfdz: &mut [f64],
    ) -> Option<f64> {
        let nz = 1 + self.k.len();
        if x.len() < nz || dzdz.len() < nz * nz || dzdv.len() < nz || dfdz.len() < nz {
            return None;
        }
        let zeta = &x[1..nz];
        let fh = self.fh(zeta);
        let (ex, e) = self.stribeck_exp(v);
        let s = self.fc + (self.fs - self.fc) * ex;
        // ż = v − |v| sgn(F_h) p with p = r^n, r = |F_h|/S(v).
        let r = (fh / s).abs();
        let p = if self.nexp == 2.0 {
            r * r
        } else {
            r.powf(self.nexp)
        };
        // ∂ż/∂F_h = −|v| n r^{n−1}/S: unbounded at F_h = 0 for n < 1 (let the solver difference).
        let rn1 = if self.nexp == 2.0 {
            r
        } else {
            r.powf(self.nexp - 1.0)
        };
        let dzdfh = -v.abs() * self.nexp * rn1 / s;
        if !dzdfh.is_finite() {
            return None;
        }
        // ∂ż/∂v = 1 − sgn(F_h) sgn(v) p (1 − n Q/S), with |v| S'(v) = sgn(v) Q and
        // Q = −(F_s − F_C) δ e^{−(|v|/v_S)^δ} (|v|/v_S)^δ, finite at v = 0 for every δ.
        let q = -(self.fs - self.fc) * self.delta * ex * e;
        let dzd_v = 1.0 - common::sgn(fh) * common::sgn(v) * p * (1.0 - self.nexp * q / s);
        // The value `derivative` decides the hold test with (same arithmetic).
        let zd = self.zdot_s(v, fh, s);
        dzdz[..nz * nz].fill(0.0);
        // Row 0 (z) and every sliding element follow ż; a held element (at its limit and
        // pushed outwards, the same test as `derivative`) has a zero row. Column 0 stays zero:
        // nothing depends on z itself.
        for i in 0..nz {
            let held = i > 0 && {
                let zi = zeta[i - 1];
                zi.abs() >= self.lim[i - 1] && zd * zi > 0.0
            };
            if held {
                dzdv[i] = 0.0;
                continue;
            }
            dzdv[i] = dzd_v;
            let row = &mut dzdz[i * nz..(i + 1) * nz];
            for (d, k) in row[1..].iter_mut().zip(&self.k) {
                *d = k * dzdfh;
            }
        }
        // F = F_h + σ1 ż + σ2 v.
        dfdz[0] = 0.0;
        for (d, k) in dfdz[1..nz].iter_mut().zip(&self.k) {
            *d = k * (1.0 + self.sigma1 * dzdfh);
        }
        Some(self.sigma1 * dzd_v + self.sigma2)
    }
    fn state_scale(&self, _i: usize) -> f64 {
        self.fc / self.k.iter().sum::<f64>()
    }
    fn n_switches(&self) -> usize {
        self.k.len()
    }
    fn switches(&self, _v: f64, _fe: f64, x: &[f64], g: &mut [f64]) {
        for i in 0..self.k.len() {
            // The surface sits a billionth inside the limit, so that an element held on its
            // limit reads definitely outside: rounding in the stages moves it by an ulp
            // either way, and with the surface on the limit itself every ulp was a crossing
            // (10⁵ events in a 40 s run at some tolerances). Entering projects onto the limit.
            g[i] = x[1 + i].abs() - self.lim[i] * (1.0 - LIMIT_MARGIN);
        }
    }
    fn on_switch(&self, index: usize, rising: bool, _v: f64, _fe: f64, x: &mut [f64]) -> bool {
        if rising {
            x[1 + index] = self.lim[index] * common::sgn(x[1 + index]);
        }
        rising
    }
}
