//! The friction library's modified Stribeck model (`modified_stribeck_model`): a Maxwell element
//! whose slip limit follows the Stribeck curve, written as a continuous-time state model.
//!
//! Library (discrete): δ ← sgn(ζ) min(|ζ|, g(v)), ζ = Δx + δ, g(v) = a1 + a2 e^{−(v/v_s)²},
//! a1 = μ_c N/k, a2 = (μ_s − μ_c) N/k; F = k δ + b_v v. Continuous form used here:
//! dδ/dt = v below the limit; beyond it (|δ| > g(v)) a stiff pull-back is added,
//! dδ/dt = v − |v| (|δ| − g(v)) sgn δ /(η g(v)), η = 1e-3, so δ tracks a moving limit as the
//! discrete clamp does (within ~0.1 % of g) and the right-hand side stays continuous (a hard
//! switch here is a sliding mode and would chatter); the output is clipped to g(v).
//!
//! The pull-back acts whatever the direction of motion, as the library's clamp does: after a
//! reversal into a falling limit (|v| rising past v_s) an element still beyond g(v) is pulled
//! onto it while it unloads. Pulling back only while loading (v δ > 0) left δ up to a2 above the
//! limit, and the force up to k·a2 = (μ_s − μ_c) N too high once the element crossed back.

use super::common::{self, FN};
use crate::model::{Category, FrictionModel, ModelEntry, ModelInfo};
use crate::params::{ParamError, ParamSpec};

const PARAMS: [ParamSpec; 6] = [
    ParamSpec {
        key: "mus",
        name: "Static coefficient",
        symbol: "μ_s",
        unit: "",
        default: 0.25,
        min: 0.0,
        max: 10.0,
        log: false,
    },
    ParamSpec {
        key: "muk",
        name: "Coulomb coefficient",
        symbol: "μ_c",
        unit: "",
        default: 0.15,
        min: 1e-6,
        max: 10.0,
        log: false,
    },
    ParamSpec {
        key: "vs",
        name: "Stribeck velocity",
        symbol: "v_s",
        unit: "m/s",
        default: 0.1,
        min: 1e-8,
        max: 10.0,
        log: true,
    },
    ParamSpec {
        key: "bv",
        name: "Viscous damping",
        symbol: "b_v",
        unit: "N·s/m",
        default: 0.0,
        min: 0.0,
        max: 1e4,
        log: false,
    },
    ParamSpec {
        key: "k",
        name: "Stiffness",
        symbol: "k",
        unit: "N/m",
        default: 1e4,
        min: 1e-6,
        max: 1e10,
        log: true,
    },
    FN,
];

/// Relative relaxation length of the saturated element.
const ETA: f64 = 1e-3;

static INFO: ModelInfo = ModelInfo {
    id: "modified-stribeck",
    name: "Modified Stribeck elasto-slip element (friction library)",
    category: Category::Dynamic,
    provisional: false,
    params: &PARAMS,
};

/// Registry entry.
pub static ENTRY: ModelEntry = ModelEntry { info: &INFO, build };

/// Modified Stribeck element: a1, a2 \[m\], v_s \[m/s\], b_v \[N·s/m\], k \[N/m\].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ModifiedStribeck {
    /// Coulomb deflection a1 \[m\].
    pub a1: f64,
    /// Stiction excess deflection a2 \[m\].
    pub a2: f64,
    /// Stribeck velocity v_s \[m/s\].
    pub vs: f64,
    /// Viscous b_v \[N·s/m\].
    pub bv: f64,
    /// Stiffness k \[N/m\].
    pub k: f64,
}

fn build(values: &[f64]) -> Result<Box<dyn FrictionModel>, ParamError> {
    let v = common::check(&PARAMS, values)?;
    common::check_mus_ge_muk(v[0], v[1])?;
    Ok(Box::new(ModifiedStribeck {
        a1: v[1] * v[5] / v[4],
        a2: (v[0] - v[1]) * v[5] / v[4],
        vs: v[2],
        bv: v[3],
        k: v[4],
    }))
}

impl ModifiedStribeck {
    /// Slip limit g(v) \[m\].
    pub fn g(&self, v: f64) -> f64 {
        let r = v / self.vs;
        self.a1 + self.a2 * common::exp_neg(r * r)
    }

    /// dδ/dt \[m/s\] at velocity `v` \[m/s\], state `d` and limit `g` \[m\]: v inside the limit,
    /// pulled back onto it beyond, in either direction of motion (the library clamps both ways).
    #[inline]
    fn pull_back(v: f64, d: f64, g: f64) -> f64 {
        if d.abs() > g {
            v - v.abs() * (d.abs() - g) * common::sgn(d) / (ETA * g)
        } else {
            v
        }
    }
}

impl FrictionModel for ModifiedStribeck {
    fn info(&self) -> &'static ModelInfo {
        &INFO
    }
    fn n_states(&self) -> usize {
        1
    }
    fn derivative(&self, v: f64, _fe: f64, x: &[f64], dx: &mut [f64]) {
        let d = x[0];
        let g = self.g(v);
        dx[0] = Self::pull_back(v, d, g);
    }
    fn force(&self, v: f64, _fe: f64, x: &[f64]) -> f64 {
        // a solver's trial at a non-finite v makes g NaN, where f64::clamp panics (found by the
        // fuzz run): bounded at 0, the force stays NaN through b_v v and the step is rejected
        let g = self.g(v).max(0.0);
        self.k * x[0].clamp(-g, g) + self.bv * v
    }
    fn derivative_and_force(&self, v: f64, _fe: f64, x: &[f64], dx: &mut [f64]) -> f64 {
        let d = x[0];
        let g = self.g(v);
        dx[0] = Self::pull_back(v, d, g);
        self.k * d.clamp(-g.max(0.0), g.max(0.0)) + self.bv * v
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
        // Beyond the limit ż = v − |v| q/η with q = δ/g − sgn δ; g' = −2 a2 r e^{−r²}/v_s.
        let d = x[0];
        let g = self.g(v);
        let r = v / self.vs;
        let dg = -2.0 * self.a2 * r * common::exp_neg(r * r) / self.vs;
        if d.abs() > g {
            let q = d / g - common::sgn(d);
            dzdz[0] = -v.abs() / (ETA * g);
            dzdv[0] = 1.0 - common::sgn(v) * q / ETA + v.abs() * d * dg / (ETA * g * g);
        } else {
            dzdz[0] = 0.0;
            dzdv[0] = 1.0;
        }
        // F = k clamp(δ, −g, g) + b_v v.
        if d.abs() > g {
            dfdz[0] = 0.0;
            Some(self.k * common::sgn(d) * dg + self.bv)
        } else {
            dfdz[0] = self.k;
            Some(self.bv)
        }
    }
    fn n_switches(&self) -> usize {
        1
    }
    // Beyond the limit the pull-back's |v| has a kink where v changes sign.
    fn switches(&self, v: f64, _fe: f64, _x: &[f64], g: &mut [f64]) {
        g[0] = v;
    }
}
