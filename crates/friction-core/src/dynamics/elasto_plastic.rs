//! Elasto-plastic model (Dupont, Armstrong & Hayward 2000; \[T\] §7.1): LuGre with a purely
//! elastic band |z| ≤ z_ba, so sub-breakaway forces give true stick instead of drift.
//!
//! dz/dt = v − α(z, v) σ0 |v| z / F_ss(v), F = σ0 z + σ1 dz/dt + σ2 v,
//! F_ss(v) = F_C + (F_s − F_C) e^{−|v/v_S|^i}, z_ss = F_ss/σ0. α = 0 for |z| ≤ z_ba or when
//! sgn v ≠ sgn z, 1 for |z| ≥ z_ss, and the C¹ sine blend (7.34) between. Our choices (not in
//! \[T\]): i is the Stribeck exponent (Table 7.1: 1) and z_ba is a constant, default 0.7 F_C/σ0.

use super::common::{self, FN, MUK, MUS, SIGMA0, SIGMA1, SIGMA2, VS};
use crate::model::{Category, FrictionModel, ModelEntry, ModelInfo};
use crate::params::{ParamError, ParamSpec};

const PARAMS: [ParamSpec; 9] = [
    MUS,
    MUK,
    FN,
    SIGMA0,
    SIGMA1,
    SIGMA2,
    VS,
    ParamSpec {
        key: "i",
        name: "Stribeck exponent",
        symbol: "i",
        unit: "",
        default: 1.0,
        min: 0.1,
        max: 10.0,
        log: false,
    },
    ParamSpec {
        key: "zba",
        name: "Breakaway deflection",
        symbol: "z_ba",
        unit: "m",
        default: 6.867e-6,
        min: 0.0,
        max: 1.0,
        log: true,
    },
];

static INFO: ModelInfo = ModelInfo {
    id: "elasto-plastic",
    name: "Elasto-plastic (Dupont et al. 2000)",
    category: Category::Dynamic,
    provisional: false,
    params: &PARAMS,
};

/// Registry entry.
pub static ENTRY: ModelEntry = ModelEntry { info: &INFO, build };

/// Elasto-plastic model; forces N, σ0 N/m, σ1 and σ2 N·s/m, v_S m/s, z_ba m.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ElastoPlastic {
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
    /// Stribeck exponent i \[-\].
    pub i: f64,
    /// Breakaway deflection z_ba \[m\].
    pub zba: f64,
    /// 1/v_S and 1/σ0, so that a stage of the benchmark divides twice instead of four times
    /// (the divisions lie on the chain v → F_ss → z_ss → α → ż that sets a stage's latency).
    inv_vs: f64,
    inv_sigma0: f64,
}

impl ElastoPlastic {
    /// The law from checked values in the order of `PARAMS`.
    fn from_values(v: &[f64]) -> ElastoPlastic {
        ElastoPlastic {
            fs: v[0] * v[2],
            fc: v[1] * v[2],
            sigma0: v[3],
            sigma1: v[4],
            sigma2: v[5],
            vs: v[6],
            i: v[7],
            zba: v[8],
            inv_vs: 1.0 / v[6],
            inv_sigma0: 1.0 / v[3],
        }
    }
}

fn build(values: &[f64]) -> Result<Box<dyn FrictionModel>, ParamError> {
    let v = common::check(&PARAMS, values)?;
    common::check_mus_ge_muk(v[0], v[1])?;
    let m = ElastoPlastic::from_values(&v);
    if m.zba >= m.fc / m.sigma0 {
        return Err(ParamError::relation(
            &[
                ("zba", m.zba),
                ("muk", v[1]),
                ("fn", v[2]),
                ("sigma0", m.sigma0),
            ],
            format!(
                "needs zba < F_C/σ0 = muk·fn/sigma0 = {} m (Dupont: 0 < z_ba < min z_ss)",
                crate::params::fmt_num(m.fc / m.sigma0)
            ),
        ));
    }
    Ok(Box::new(m))
}

impl ElastoPlastic {
    /// Steady-state friction level F_ss(v) \[N\].
    pub fn fss(&self, v: f64) -> f64 {
        let r = (v * self.inv_vs).abs();
        let e = common::shape_pow(r, self.i);
        self.fc + (self.fs - self.fc) * common::exp_neg(e)
    }

    /// Adhesion map α(z, v) \[-\].
    pub fn alpha(&self, z: f64, v: f64) -> f64 {
        self.alpha_with(z, v, self.fss(v))
    }

    /// α(z, v) with F_ss(v) already known (the rate needs it too).
    #[inline]
    fn alpha_with(&self, z: f64, v: f64, fss: f64) -> f64 {
        if self.elastic(z, v) {
            return 0.0;
        }
        let a = z.abs();
        let zss = fss * self.inv_sigma0;
        if a >= zss {
            1.0
        } else {
            0.5 * (std::f64::consts::PI * (a - 0.5 * (zss + self.zba)) / (zss - self.zba)).sin()
                + 0.5
        }
    }

    #[inline]
    fn zdot(&self, v: f64, z: f64) -> f64 {
        // In the elastic band (every stick) α = 0 whatever F_ss is, and ż = v − 0·u = v to
        // the bit: the exponential of F_ss, a third of a stage's cost there, is skipped.
        if self.elastic(z, v) {
            return v;
        }
        let fss = self.fss(v);
        // The reciprocal is formed before the sine, so that the division runs beside it
        // instead of after it at the end of the stage's chain.
        let inv_fss = 1.0 / fss;
        v - self.alpha_with(z, v, fss) * self.sigma0 * v.abs() * z * inv_fss
    }

    /// Whether α(z, v) = 0 without F_ss: opposite signs, or |z| within the elastic band.
    #[inline]
    fn elastic(&self, z: f64, v: f64) -> bool {
        common::sgn(v) != common::sgn(z) || z.abs() <= self.zba
    }
}

impl FrictionModel for ElastoPlastic {
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
    /// A hundredth of v_b (issue 39): in the elastic stick (|z| < z_ba, α = 0) the block creeps
    /// slower than LuGre's, and at a tenth its x(40) error on the stick-slip benchmark was
    /// 1–11 times the tolerance asked for (1e-10 gave 1.1e-9, 5e-10 2.2e-9, 1e-5 4.5e-5). At a
    /// hundredth it is 0.3–2.6 times from 1e-5 to 1e-10 (v_b/30: up to 4.6, v_b/50: up to
    /// 3.7; v_b/200: up to 1.1 for another 10 % of steps), for 20–35 % more steps at a
    /// tolerance.
    fn micro_slip_scale(&self) -> f64 {
        0.01
    }
    fn micro_slip_scale_varies(&self) -> bool {
        true
    }
    /// A third of [`micro_slip_scale`](FrictionModel::micro_slip_scale) in the plastic creep
    /// before a breakaway (|z| past z_ba with v and z of one sign, |v| below v_S), the
    /// hundredth elsewhere: the creep is where the block's velocity error matters, since the
    /// Stribeck drop turns it into a shift of the breakaway. Measured on the stick-slip
    /// benchmark (x(40) against a 1e-12 run, issue 39): a tenth of v_b outside the creep and a
    /// hundredth in it was as calibrated as a hundredth everywhere, and with Rodas5P at
    /// tolerances looser than 1e-8 only a tighter weight in the creep brought the error back
    /// under 3 tol (a tighter weight in the elastic stick, the breakaway or the slip did not):
    /// a hundredth there gave up to 6.3 tol, a third of it 0.15–2.2 tol, a tenth 0.03–0.65
    /// tol for 10–15 % more steps. Closed loops use it where they need it (the benchmark's
    /// belt at tolerances looser than 1e-8).
    fn micro_slip_scale_at(&self, v: f64, x: &[f64]) -> f64 {
        if !self.elastic(x[0], v) && v.abs() < self.vs {
            0.3 * self.micro_slip_scale()
        } else {
            self.micro_slip_scale()
        }
    }
    /// α = 0 (|z| ≤ z_ba, or v and z of opposite signs): ż = v and F = σ0 z + (σ1 + σ2) v.
    fn elastic_at(&self, v: f64, x: &[f64]) -> bool {
        self.elastic(x[0], v)
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
        // ż = v − α(z, v) u with u = σ0 |v| z / F_ss(v); α's transition depends on z and,
        // through z_ss = F_ss/σ0, on v.
        let z = x[0];
        let r = (v * self.inv_vs).abs();
        if r == 0.0 && self.i < 1.0 {
            return None;
        }
        if self.elastic(z, v) {
            // α = 0 with zero derivatives: ż = v (the same values the general path gives).
            dzdz[0] = -0.0;
            dzdv[0] = 1.0;
            dfdz[0] = self.sigma0;
            return Some(self.sigma1 + self.sigma2);
        }
        let fss = self.fss(v);
        let e = common::shape_pow(r, self.i);
        let de = if self.i == 1.0 {
            1.0
        } else if r == 0.0 {
            0.0
        } else {
            self.i * e / r
        };
        let dfss = -(self.fs - self.fc) * common::exp_neg(e) * de * common::sgn(v) / self.vs;
        let u = self.sigma0 * v.abs() * z / fss;
        let dudz = self.sigma0 * v.abs() / fss;
        let dudv = self.sigma0 * z * (common::sgn(v) / fss - v.abs() * dfss / (fss * fss));
        let alpha = self.alpha_with(z, v, fss);
        let (mut dadz, mut dadv) = (0.0, 0.0);
        let a = z.abs();
        let zss = fss * self.inv_sigma0;
        // outside the elastic band (returned above): the blend's slopes where it is not 1
        if a < zss {
            let w = zss - self.zba;
            let m = 0.5 * (zss + self.zba);
            let c = 0.5 * (std::f64::consts::PI * (a - m) / w).cos() * std::f64::consts::PI;
            dadz = c / w * common::sgn(z);
            // ∂φ/∂z_ss · π⁻¹ = (−w/2 − (a − m))/w².
            dadv = c * (-0.5 * w - (a - m)) / (w * w) * dfss / self.sigma0;
        }
        let dd = -(dadz * u + alpha * dudz);
        let dv = 1.0 - (dadv * u + alpha * dudv);
        dzdz[0] = dd;
        dzdv[0] = dv;
        dfdz[0] = self.sigma0 + self.sigma1 * dd;
        Some(self.sigma1 * dv + self.sigma2)
    }
    fn n_switches(&self) -> usize {
        1
    }
    // α jumps where v changes sign while |z| > z_ba.
    fn switches(&self, v: f64, _fe: f64, _x: &[f64], g: &mut [f64]) {
        g[0] = v;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// `elastic_at` (what closed loops weigh loosely) is exactly where α is 0.
        #[test]
        fn elastic_at_is_where_alpha_vanishes(v in -2e-3f64..2e-3, z in -1.6e-5f64..1.6e-5) {
            let values: Vec<f64> = PARAMS.iter().map(|p| p.default).collect();
            let m = build(&values).unwrap();
            let e = ElastoPlastic::from_values(&values);
            prop_assert_eq!(e.alpha(z, v) == 0.0, m.elastic_at(v, &[z]));
        }
    }
}
