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
///
/// Built only from checked values (`from_values`): the fields are private because the rate uses
/// constants derived from them at construction, which an edited field would leave stale.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ElastoPlastic {
    /// Static level F_s \[N\].
    fs: f64,
    /// Coulomb level F_C \[N\].
    fc: f64,
    /// Stiffness σ0 \[N/m\].
    sigma0: f64,
    /// Damping σ1 \[N·s/m\].
    sigma1: f64,
    /// Viscous σ2 \[N·s/m\].
    sigma2: f64,
    /// Stribeck velocity v_S \[m/s\].
    vs: f64,
    /// Stribeck exponent i \[-\].
    i: f64,
    /// Breakaway deflection z_ba \[m\].
    zba: f64,
    /// 1/v_S and 1/σ0, so that a stage of the benchmark divides twice instead of four times
    /// (the divisions lie on the chain v → F_ss → z_ss → α → ż that sets a stage's latency).
    inv_vs: f64,
    inv_sigma0: f64,
    /// The blend's phase and width as affine functions of e = e^{−|v/v_S|^i} (see `zdot`):
    /// π/2 (z_ba + F_C/σ0) \[m\], π/2 (F_s − F_C)/σ0 \[m\], F_C/σ0 − z_ba \[m\], (F_s − F_C)/σ0 \[m\].
    phase0: f64,
    phase_e: f64,
    width0: f64,
    width_e: f64,
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
            phase0: std::f64::consts::FRAC_PI_2 * (v[8] + v[1] * v[2] / v[3]),
            phase_e: std::f64::consts::FRAC_PI_2 * (v[0] * v[2] - v[1] * v[2]) / v[3],
            width0: v[1] * v[2] / v[3] - v[8],
            width_e: (v[0] * v[2] - v[1] * v[2]) / v[3],
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

    /// ż = v − α(z, v) σ0 |v| z / F_ss(v) \[m/s\], arranged for a short chain of dependent
    /// operations, which sets what a solver stage costs (issue 39): the blend's phase is
    /// formed from e^{−|v/v_S|^i} in one multiply-add each for its numerator and denominator
    /// (z_ss, its midpoint with z_ba and the width folded into constants), and α's ½ sin + ½ is
    /// folded into ż, so that after the sine one multiply-subtract is left. Equal to the
    /// plain formula to round-off (test `fused_rate_and_force_are_the_definition`).
    #[inline]
    fn zdot(&self, v: f64, z: f64) -> f64 {
        self.rate_and_force(v, z).0
    }

    /// (ż \[m/s\], F = σ0 z + σ1 ż + σ2 v \[N\]) with F formed beside ż rather than from it:
    /// ż = b − a·s with s the blend's sine (or u's share), and F = (σ0 z + σ2 v + σ1 b) −
    /// (σ1 a)·s, so that F, which the closed loop's acceleration waits for, is one
    /// multiply-subtract past the sine instead of three operations past ż (a solver stage's
    /// chain, issue 39). Equal to σ0 z + σ1 ż + σ2 v to round-off (test
    /// `fused_rate_and_force_are_the_definition`).
    #[inline(always)]
    fn rate_and_force(&self, v: f64, z: f64) -> (f64, f64) {
        let base = self.sigma0 * z + self.sigma2 * v;
        // In the elastic band (every stick) α = 0 whatever F_ss is, and ż = v − 0·u = v to
        // the bit: the exponential of F_ss, a third of a stage's cost there, is skipped.
        if self.elastic(z, v) {
            return (v, base + self.sigma1 * v);
        }
        let e = common::exp_neg(common::shape_pow((v * self.inv_vs).abs(), self.i));
        let fss = self.fc + (self.fs - self.fc) * e;
        // The reciprocal runs beside the sine instead of after it.
        let u = self.sigma0 * v.abs() * z * (1.0 / fss);
        let base = base + self.sigma1 * v;
        if z.abs() >= fss * self.inv_sigma0 {
            return (v - u, base - self.sigma1 * u);
        }
        // φ = π (|z| − (z_ss + z_ba)/2) / (z_ss − z_ba), z_ss = (F_C + (F_s − F_C) e)/σ0.
        let num = std::f64::consts::PI * z.abs() - self.phase0 - self.phase_e * e;
        let width = self.width0 + self.width_e * e;
        let half_u = 0.5 * u;
        let s1_half_u = self.sigma1 * half_u;
        let sin = blend_sin(num / width);
        (
            (v - half_u) - half_u * sin,
            (base - s1_half_u) - s1_half_u * sin,
        )
    }

    /// Whether α(z, v) = 0 without F_ss: opposite signs, or |z| within the elastic band.
    #[inline]
    fn elastic(&self, z: f64, v: f64) -> bool {
        common::sgn(v) != common::sgn(z) || z.abs() <= self.zba
    }
}

/// Σ c_k u^k, k = 0 … 11, by Estrin's scheme: a few independent products instead of Horner's
/// chain of eleven dependent ones (the blend's sine is on the chain of every plastic solver stage).
#[inline]
fn estrin12(c: &[f64; 12], u: f64) -> f64 {
    let u2 = u * u;
    let u4 = u2 * u2;
    let u8 = u4 * u4;
    let q0 = (c[0] + c[1] * u) + (c[2] + c[3] * u) * u2;
    let q1 = (c[4] + c[5] * u) + (c[6] + c[7] * u) * u2;
    let q2 = (c[8] + c[9] * u) + (c[10] + c[11] * u) * u2;
    (q0 + q1 * u4) + q2 * u8
}

/// sin φ for |φ| ≤ π/2, the range of the blend's phase, by its Taylor series to φ²¹ (the
/// first term left out is below 1.3e-18) summed by [`estrin12`] in φ²: libm's call sat on the
/// chain of every plastic solver stage (issue 39; 15 → 11 ns a call in a dependent chain,
/// micro-benchmark). Within 2ε of `f64::sin` there (test `blend_sin_is_the_sine`).
#[inline]
fn blend_sin(x: f64) -> f64 {
    // ±1/(2k+1)!, k = 0 … 10, and a zero (one polynomial shape for sine and cosine; adding
    // 0·u ≥ 0 leaves every sum as it was)
    const C: [f64; 12] = [
        1.0,
        -1.0 / 6.0,
        1.0 / 120.0,
        -1.0 / 5040.0,
        1.0 / 362_880.0,
        -1.0 / 39_916_800.0,
        1.0 / 6_227_020_800.0,
        -1.0 / 1_307_674_368_000.0,
        1.0 / 355_687_428_096_000.0,
        -1.0 / 121_645_100_408_832_000.0,
        1.0 / 51_090_942_171_709_440_000.0,
        0.0,
    ];
    x * estrin12(&C, x * x)
}

/// [`blend_sin`] and cos φ (Taylor series to φ²², first term left out below 1e-19), for the
/// Jacobian's blend slopes. The cosine is within 2ε of `f64::cos` for |φ| ≤ π/2 (test
/// `blend_sin_cos_is_sine_and_cosine`).
#[inline]
fn blend_sin_cos(x: f64) -> (f64, f64) {
    // ±1/(2k)!, k = 0 … 11.
    const C: [f64; 12] = [
        1.0,
        -1.0 / 2.0,
        1.0 / 24.0,
        -1.0 / 720.0,
        1.0 / 40_320.0,
        -1.0 / 3_628_800.0,
        1.0 / 479_001_600.0,
        -1.0 / 87_178_291_200.0,
        1.0 / 20_922_789_888_000.0,
        -1.0 / 6_402_373_705_728_000.0,
        1.0 / 2_432_902_008_176_640_000.0,
        -1.0 / 1_124_000_727_777_607_680_000.0,
    ];
    (blend_sin(x), estrin12(&C, x * x))
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
        self.rate_and_force(v, x[0]).1
    }
    fn derivative_and_force(&self, v: f64, _fe: f64, x: &[f64], dx: &mut [f64]) -> f64 {
        let (zd, f) = self.rate_and_force(v, x[0]);
        dx[0] = zd;
        f
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
        let e = common::shape_pow(r, self.i);
        let de = if self.i == 1.0 {
            1.0
        } else if r == 0.0 {
            0.0
        } else {
            self.i * e / r
        };
        let ex = common::exp_neg(e);
        let fss = self.fc + (self.fs - self.fc) * ex;
        // Reciprocals, and the blend's sine and cosine from one polynomial evaluation: the
        // Jacobian is on the chain at the start of every solver step (issue 39).
        let inv_fss = 1.0 / fss;
        let dfss = -(self.fs - self.fc) * ex * de * common::sgn(v) * self.inv_vs;
        let u = self.sigma0 * v.abs() * z * inv_fss;
        let dudz = self.sigma0 * v.abs() * inv_fss;
        let dudv =
            self.sigma0 * z * (common::sgn(v) * inv_fss - v.abs() * dfss * inv_fss * inv_fss);
        let a = z.abs();
        let zss = fss * self.inv_sigma0;
        // outside the elastic band (returned above): α = 1 past z_ss, else the blend
        let (alpha, dadz, dadv) = if a >= zss {
            (1.0, 0.0, 0.0)
        } else {
            let w = zss - self.zba;
            let inv_w = 1.0 / w;
            let m = 0.5 * (zss + self.zba);
            let (sin, cos) = blend_sin_cos(std::f64::consts::PI * (a - m) * inv_w);
            let c = 0.5 * cos * std::f64::consts::PI;
            // ∂φ/∂z_ss · π⁻¹ = (−w/2 − (a − m))/w².
            (
                0.5 * sin + 0.5,
                c * inv_w * common::sgn(z),
                c * (-0.5 * w - (a - m)) * (inv_w * inv_w) * dfss * self.inv_sigma0,
            )
        };
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
    use std::f64::consts::FRAC_PI_2;

    fn law() -> ElastoPlastic {
        let values: Vec<f64> = PARAMS.iter().map(|p| p.default).collect();
        ElastoPlastic::from_values(&values)
    }

    proptest! {
        /// The polynomial sine of the blend against libm's over its range (and a little past
        /// it, where round-off can put the phase).
        #[test]
        fn blend_sin_is_the_sine(x in -1.0001 * FRAC_PI_2..1.0001 * FRAC_PI_2) {
            prop_assert!((blend_sin(x) - x.sin()).abs() <= 2.0 * f64::EPSILON, "x = {x}");
        }

        /// The Jacobian's sine and cosine against libm's over the blend's range.
        #[test]
        fn blend_sin_cos_is_sine_and_cosine(x in -1.0001 * FRAC_PI_2..1.0001 * FRAC_PI_2) {
            let (s, c) = blend_sin_cos(x);
            prop_assert!((s - x.sin()).abs() <= 2.0 * f64::EPSILON, "x = {x}");
            prop_assert!((c - x.cos()).abs() <= 2.0 * f64::EPSILON, "x = {x}");
        }

        /// ∂ż/∂z and ∂ż/∂v against central differences of ż in the blend and past it (both
        /// signs, creep and slip velocities).
        #[test]
        fn partials_are_the_rate_s_slopes(
            v in 1e-5f64..0.3,
            zf in 0.72f64..1.6,
            neg in proptest::bool::ANY,
            small in proptest::bool::ANY,
        ) {
            let m = law();
            let v = if small { v * 3e-3 } else { v };
            let s = if neg { -1.0 } else { 1.0 };
            // |z| from just past z_ba (0.7 F_C/σ0) to beyond z_ss, of v's sign.
            let (v, z) = (s * v, s * zf * m.fc / m.sigma0);
            let (mut dzdz, mut dzdv, mut dfdz) = ([0.0], [0.0], [0.0]);
            m.partials(v, 0.0, &[z], &mut dzdz, &mut dzdv, &mut dfdz).unwrap();
            let (hz, hv) = (1e-7 * z.abs(), 1e-7 * v.abs());
            let fd_z = (m.zdot(v, z + hz) - m.zdot(v, z - hz)) / (2.0 * hz);
            let fd_v = (m.zdot(v + hv, z) - m.zdot(v - hv, z)) / (2.0 * hv);
            // Away from the kink at |z| = z_ss (α reaches 1), where the two sides differ.
            let zss = m.fss(v) / m.sigma0;
            prop_assume!((z.abs() - zss).abs() > 1e-3 * zss);
            let (dz, dv) = (dzdz[0], dzdv[0]);
            prop_assert!(
                (fd_z - dz).abs() <= 1e-5 * dz.abs().max(1.0),
                "dz/dz at v = {v}, z = {z}: fd {fd_z}, analytic {dz}"
            );
            prop_assert!(
                (fd_v - dv).abs() <= 1e-5 * dv.abs().max(1.0),
                "dz/dv at v = {v}, z = {z}: fd {fd_v}, analytic {dv}"
            );
        }

        /// The rearranged ż against the law as written, v − α(z, v) σ0 |v| z / F_ss(v), and F
        /// as formed beside it against σ0 z + σ1 ż + σ2 v, over the stick, the creep, the
        /// blend, full adhesion and slip (both signs, with the Stribeck exponent 1 of the
        /// benchmark and others from 0.5 to 3).
        #[test]
        fn fused_rate_and_force_are_the_definition(
            v in -0.5f64..0.5,
            z in -1.6e-5f64..1.6e-5,
            small in proptest::bool::ANY,
            i in prop_oneof![Just(1.0), 0.5f64..3.0],
        ) {
            let mut m = law();
            m.i = i;
            // Creep velocities (|v| < v_S) half of the time.
            let v = if small { v * 4e-3 } else { v };
            let u = m.sigma0 * v.abs() * z / m.fss(v);
            let plain = v - m.alpha(z, v) * u;
            let fused = m.zdot(v, z);
            prop_assert!(
                (fused - plain).abs() <= 1e-13 * (v.abs() + u.abs()),
                "v = {v}, z = {z}: {fused} against {plain}"
            );
            let plain_f = m.sigma0 * z + m.sigma1 * fused + m.sigma2 * v;
            let (zd, f) = m.rate_and_force(v, z);
            prop_assert_eq!(fused.to_bits(), zd.to_bits());
            let scale = m.sigma0 * z.abs() + m.sigma1 * (v.abs() + u.abs()) + m.sigma2 * v.abs();
            prop_assert!(
                (f - plain_f).abs() <= 4.0 * f64::EPSILON * scale,
                "v = {v}, z = {z}: {f} against {plain_f}"
            );
        }

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
