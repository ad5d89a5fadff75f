//! Generalized Maxwell-Slip (Lampaert, Al-Bender & Swevers 2003; Al-Bender et al. 2005), \[T\]
//! §7.1 eq. 7.36. With an even F_ss the slip law's fixed point for v < 0 is unstable (an element
//! slipping backwards runs off to −∞; the library's GMS has the same defect), so the law is written
//! odd; and the deflection form matches the force form only with a C_i and s_i per element.
//!
//! N elastic elements in parallel, all driven by v. Element i (stiffness k_i, weight α_i, Σα = 1)
//! sticks, dz_i/dt = v, until |k_i z_i| reaches α_i F_ss(v); it then slips,
//! dz_i/dt = C_i (sgn v − z_i/s_i(v)), with s_i = α_i F_ss(v)/k_i and C_i = α_i C/k_i (the odd slip
//! law: stable for both signs of v), until v passes through zero. A held element whose limit
//! falls below its deflection while the motion does not load it (a drop of the normal load, or
//! of F_ss with |v|) relaxes back onto the limit at the slip law's rate C/F_ss and keeps sticking. F = Σ (k_i z_i + σ_i dz_i/dt) +
//! σ2 v, so the steady state is F_ss(v) sgn v + σ2 v with
//! F_ss(v) = F_C + (F_s − F_C) e^{−|v/v_S|^δ}.
//!
//! Pattern (no defaults in the seed; documented parameters): equal stiffness k_i = σ0/N and
//! damping σ_i = σ1/N; weights α_i ∝ i^q (q = 1: the elements slip one after another, giving a
//! smooth virgin curve). The element modes (0 stick, ±1 slip direction) are discrete states.
//!
//! The friction library's form (`generalized_maxwell_slip_model`) gives each element its own
//! stiffness k_i, damping b_i and fraction ν_i (Σν_i = 1) instead: the optional lists `ki`, `bi`,
//! `nui` ([`LISTS`]), N values each, replace the pattern list by list (σ0, σ1 and q then only shape
//! the lists left unset). The fractions are the weights α_i above; they must sum to 1 within
//! [`NU_SUM_TOL`] and are used as given, so the steady state is Σν_i·F_ss(v) sgn v + σ2 v.

use super::common::{self, FN, MUK, MUS, SIGMA0, SIGMA1, SIGMA2, VS};
use crate::model::{Category, FrictionModel, ListParams, ModelEntry, ModelInfo};
use crate::params::{fmt_num, ParamError, ParamSpec};

/// Largest element count.
pub const MAX_ELEMENTS: usize = 1000;

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
        key: "c",
        name: "Attraction parameter",
        symbol: "C",
        unit: "N/s",
        default: 1e3,
        min: 1e-6,
        max: 1e9,
        log: true,
    },
    ParamSpec {
        key: "n",
        name: "Number of elements",
        symbol: "N",
        unit: "",
        default: 10.0,
        min: 1.0,
        max: MAX_ELEMENTS as f64,
        log: true,
    },
    ParamSpec {
        key: "q",
        name: "Weight exponent (α_i ∝ i^q)",
        symbol: "q",
        unit: "",
        default: 1.0,
        min: 0.0,
        max: 4.0,
        log: false,
    },
];

/// The per-element lists, in the order of [`Gms::k`], [`Gms::damp`], [`Gms::alpha`]; `default`
/// is unused (an unset list is derived).
const ELEMENTS: [ParamSpec; 3] = [
    ParamSpec {
        key: "ki",
        name: "Element stiffnesses (unset: σ0/N each)",
        symbol: "k_i",
        unit: "N/m",
        default: 1e4,
        min: 1e-6,
        max: 1e10,
        log: true,
    },
    ParamSpec {
        key: "bi",
        name: "Element damping (unset: σ1/N each)",
        symbol: "b_i",
        unit: "N·s/m",
        default: 31.622_776_601_683_793,
        min: 0.0,
        max: 1e6,
        log: false,
    },
    ParamSpec {
        key: "nui",
        name: "Element fractions, Σ = 1 (unset: ∝ i^q)",
        symbol: "ν_i",
        unit: "",
        default: 0.1,
        min: 1e-9,
        max: 1.0,
        log: false,
    },
];

/// How far the fractions ν_i may sum from 1: hand-typed thirds (0.333333 × 3) pass, a
/// forgotten element does not.
pub const NU_SUM_TOL: f64 = 1e-6;

/// The optional per-element lists k_i \[N/m\], b_i \[N·s/m\], ν_i \[-\] (looked up by
/// `registry::lists`).
pub static LISTS: ListParams = ListParams {
    specs: &ELEMENTS,
    max_len: MAX_ELEMENTS,
    build: |values, lists| Ok(Box::new(assemble(values, lists)?)),
    resolve: |values, lists| {
        let g = assemble(values, lists)?;
        Ok(vec![g.k, g.damp, g.alpha])
    },
};

static INFO: ModelInfo = ModelInfo {
    id: "gms",
    name: "Generalized Maxwell-Slip (Al-Bender et al. 2005)",
    category: Category::Dynamic,
    provisional: false,
    params: &PARAMS,
};

/// Registry entry.
pub static ENTRY: ModelEntry = ModelEntry { info: &INFO, build };

/// GMS model with its per-element constants.
#[derive(Debug, Clone, PartialEq)]
pub struct Gms {
    /// Static level F_s \[N\].
    pub fs: f64,
    /// Coulomb level F_C \[N\].
    pub fc: f64,
    /// Viscous σ2 \[N·s/m\].
    pub sigma2: f64,
    /// Stribeck velocity v_S \[m/s\].
    pub vs: f64,
    /// Stribeck exponent δ \[-\].
    pub delta: f64,
    /// Attraction C \[N/s\].
    pub c: f64,
    /// Element stiffnesses k_i \[N/m\].
    pub k: Vec<f64>,
    /// Element damping σ_i \[N·s/m\].
    pub damp: Vec<f64>,
    /// Element weights α_i \[-\], Σ = 1.
    pub alpha: Vec<f64>,
}

fn build(values: &[f64]) -> Result<Box<dyn FrictionModel>, ParamError> {
    Ok(Box::new(assemble(values, &[])?))
}

/// The model from its scalar values and, per [`ELEMENTS`] entry, an explicit list or `None`
/// (derived: σ0/N, σ1/N, ∝ i^q). Explicit lists must have N values in range, the fractions
/// must sum to 1; errors name the list's key.
fn assemble(values: &[f64], lists: &[Option<&[f64]>]) -> Result<Gms, ParamError> {
    let v = common::check(&PARAMS, values)?;
    common::check_mus_ge_muk(v[0], v[1])?;
    common::check_whole("n", v[9])?;
    let n = v[9] as usize;
    let list = |j: usize, derived: &dyn Fn(usize) -> f64| -> Result<Vec<f64>, ParamError> {
        let Some(xs) = lists.get(j).copied().flatten() else {
            return Ok((0..n).map(derived).collect());
        };
        let spec = &ELEMENTS[j];
        let text = || xs.iter().map(|x| fmt_num(*x)).collect::<Vec<_>>().join(",");
        if xs.len() != n {
            return Err(ParamError::relation_text(
                &[(spec.key, &text()), ("n", &n.to_string())],
                format!(
                    "{} values for N = {n} elements: give one per element (or none: derived)",
                    xs.len()
                ),
            ));
        }
        for (i, &x) in xs.iter().enumerate() {
            if spec.check(x).is_err() {
                return Err(ParamError::new(
                    spec.key,
                    &text(),
                    format!(
                        "value {} ({}) outside {}",
                        i + 1,
                        fmt_num(x),
                        spec.range_text()
                    ),
                ));
            }
        }
        Ok(xs.to_vec())
    };
    let w: Vec<f64> = (1..=n).map(|i| (i as f64).powf(v[10])).collect();
    let sum: f64 = w.iter().sum();
    let alpha = list(2, &|i| w[i] / sum)?;
    let total: f64 = alpha.iter().sum();
    if (total - 1.0).abs() > NU_SUM_TOL {
        let text = alpha
            .iter()
            .map(|x| fmt_num(*x))
            .collect::<Vec<_>>()
            .join(",");
        return Err(ParamError::new(
            ELEMENTS[2].key,
            &text,
            format!(
                "the fractions ν_i must sum to 1 within {NU_SUM_TOL:e}; they sum to {}",
                fmt_num(total)
            ),
        ));
    }
    Ok(Gms {
        fs: v[0] * v[2],
        fc: v[1] * v[2],
        sigma2: v[5],
        vs: v[6],
        delta: v[7],
        c: v[8],
        k: list(0, &|_| v[3] / n as f64)?,
        damp: list(1, &|_| v[4] / n as f64)?,
        alpha,
    })
}

impl Gms {
    /// Steady-state level F_ss(v) \[N\] (even, positive).
    pub fn fss(&self, v: f64) -> f64 {
        let r = (v / self.vs).abs();
        self.fc + (self.fs - self.fc) * common::exp_neg(common::shape_pow(r, self.delta))
    }

    #[inline]
    fn zdot(&self, i: usize, mode: f64, v: f64, fss: f64, z: f64) -> f64 {
        let mode = mode_of(mode);
        if mode == 0.0 {
            // A held element whose limit fell below its deflection while the motion does
            // not load it (the record's normal load dropping between samples, or F_ss falling
            // with |v| faster than the motion unloads it) slips back onto the limit at the
            // slip law's own rate C/F_ss, so its force never exceeds α_i F_ss for longer than
            // the slip law's lag. Breaking loose instead (in the direction of v) drove its
            // force to the opposite limit at once: the tribometer's reversals read −1.8 N where
            // the rig held +2.5 N, R² 0.82 where the same element as Maxwell-slip reaches 0.99.
            // A projection onto the limit at an event did as well but fired millions of events
            // where F_ss falls continuously (80× the run time).
            let si = self.alpha[i] * fss / self.k[i];
            let over = z.abs() - si;
            if over > 0.0 {
                v - common::sgn(z) * self.c / fss * over
            } else {
                v
            }
        } else {
            // C_i (sgn v − z_i/|s_i|) with C_i = α_i C/k_i and |s_i| = α_i F_ss/k_i.
            let ci = self.alpha[i] * self.c / self.k[i];
            let si = self.alpha[i] * fss / self.k[i];
            ci * (mode - z / si)
        }
    }
}

impl FrictionModel for Gms {
    fn info(&self) -> &'static ModelInfo {
        &INFO
    }
    fn n_states(&self) -> usize {
        2 * self.k.len()
    }
    fn n_discrete(&self) -> usize {
        self.k.len()
    }
    fn separable(&self) -> bool {
        true
    }
    fn derivative(&self, v: f64, _fe: f64, x: &[f64], dx: &mut [f64]) {
        let n = self.k.len();
        let fss = self.fss(v);
        let (z, mode) = x.split_at(n);
        for i in 0..n {
            dx[i] = self.zdot(i, mode[i], v, fss, z[i]);
        }
        dx[n..].fill(0.0);
    }
    fn force(&self, v: f64, _fe: f64, x: &[f64]) -> f64 {
        let n = self.k.len();
        let fss = self.fss(v);
        let (z, mode) = x.split_at(n);
        let mut f = self.sigma2 * v;
        for i in 0..n {
            f += self.k[i] * z[i] + self.damp[i] * self.zdot(i, mode[i], v, fss, z[i]);
        }
        f
    }
    // The closed loop needs both at every stage: one F_ss (an exponential) and one ż_i per
    // element instead of two; same operations in the same order, so bit-identical.
    fn derivative_and_force(&self, v: f64, _fe: f64, x: &[f64], dx: &mut [f64]) -> f64 {
        let n = self.k.len();
        let fss = self.fss(v);
        let (z, mode) = x.split_at(n);
        let mut f = self.sigma2 * v;
        for i in 0..n {
            let zd = self.zdot(i, mode[i], v, fss, z[i]);
            dx[i] = zd;
            f += self.k[i] * z[i] + self.damp[i] * zd;
        }
        dx[n..].fill(0.0);
        f
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
        let n = self.k.len();
        let fss = self.fss(v);
        // F_ss'(v) = −(F_s − F_C) e^{−r^δ} δ r^{δ−1} sgn(v)/v_S, r = |v|/v_S.
        let r = (v / self.vs).abs();
        let dfss = if r == 0.0 {
            0.0
        } else {
            -(self.fs - self.fc)
                * common::exp_neg(common::shape_pow(r, self.delta))
                * self.delta
                * r.powf(self.delta - 1.0)
                * common::sgn(v)
                / self.vs
        };
        let (z, mode) = x.split_at(n);
        let mut dfdv = self.sigma2;
        for i in 0..n {
            let (dd, dv) = if mode_of(mode[i]) == 0.0 {
                let si = self.alpha[i] * fss / self.k[i];
                let over = z[i].abs() - si;
                if over > 0.0 {
                    // ż = v − sgn z (C/F_ss)(|z| − α F_ss/k): ∂/∂F_ss = sgn z C ((|z| − s)/F_ss² + α/(k F_ss))
                    let s = common::sgn(z[i]);
                    let dfs = s * self.c * (over / (fss * fss) + self.alpha[i] / (self.k[i] * fss));
                    (-self.c / fss, 1.0 + dfs * dfss)
                } else {
                    (0.0, 1.0)
                }
            } else {
                let ci = self.alpha[i] * self.c / self.k[i];
                let si = self.alpha[i] * fss / self.k[i];
                let dsi = self.alpha[i] * dfss / self.k[i];
                (-ci / si, ci * z[i] / (si * si) * dsi)
            };
            dzdz[i] = dd;
            dzdv[i] = dv;
            dfdz[i] = self.k[i] + self.damp[i] * dd;
            dfdv += self.damp[i] * dv;
        }
        Some(dfdv)
    }
    fn state_scale(&self, i: usize) -> f64 {
        let n = self.k.len();
        if i < n {
            (self.alpha[i] * self.fc / self.k[i]).max(1e-300)
        } else {
            1.0
        }
    }
    fn n_switches(&self) -> usize {
        self.k.len()
    }
    fn switches(&self, v: f64, _fe: f64, x: &[f64], g: &mut [f64]) {
        let n = self.k.len();
        let fss = self.fss(v);
        let (z, mode) = x.split_at(n);
        for i in 0..n {
            let m = mode_of(mode[i]);
            g[i] = if m == 0.0 {
                // breaks loose where it is past its limit and the motion loads it: the
                // smaller of the two, each in newtons (the second: the force the slip law's lag
                // C/F_ss adds at this speed)
                let past = (self.k[i] * z[i]).abs() - self.alpha[i] * fss;
                let loading = common::sgn(z[i]) * v * self.k[i] * fss / self.c;
                past.min(loading)
            } else {
                v * m
            };
        }
    }
    fn on_switch(&self, index: usize, rising: bool, v: f64, _fe: f64, x: &mut [f64]) -> bool {
        let n = self.k.len();
        let z = x[index];
        let m = &mut x[n + index];
        if mode_of(*m) != 0.0 {
            // v passed through zero: the element sticks where it is
            *m = 0.0;
            return true;
        }
        // a held element breaks loose only where it is past its limit *and* the motion loads
        // it (both parts of its switching function rose above zero): then v and z agree in
        // sign; one that re-stuck at its limit and is moved back by a hair crosses downwards
        let s = common::sgn(v);
        if !rising || s == 0.0 || s != common::sgn(z) {
            return false;
        }
        *m = s;
        true
    }
}

/// Reads a mode stored as a float (0 stick, ±1 slip), robust to round-off from solvers that do
/// not freeze discrete states.
#[inline]
fn mode_of(m: f64) -> f64 {
    if m > 0.5 {
        1.0
    } else if m < -0.5 {
        -1.0
    } else {
        0.0
    }
}
