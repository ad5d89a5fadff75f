//! Armstrong-Hélouvry (1994) seven-parameter model as a hybrid state model: a pre-sliding spring
//! while stuck, a Stribeck law with frictional lag while slipping, and stiction that rises with
//! the dwell time (\[T\] §6.2, reconstructed from Armstrong-Hélouvry et al. 1994 / Olsson et
//! al. 1998).
//!
//! Stick: F = σ0 x_p, with x_p \[m\] the displacement since sticking (dx_p/dt = v).
//! Slip: F = \[F_C + F_v|v| + F_S(γ, t_2)/(1 + (v_L/v_s)²)\] sgn(v), with the stiction excess
//! F_S(γ, t_2) = F_S,a + (F_S,∞ − F_S,a) t_2/(t_2 + γ) \[N\] and t_2 \[s\] the dwell time of the last
//! stick.
//!
//! **Frictional lag (approximation):** the source uses the pure delay v_L(t) = v(t − τ_L), which
//! needs a history buffer that a [`FrictionModel`] (state in caller-owned slices, no memory of
//! past inputs) cannot hold. Here v_L is a first-order lag state, τ_L dv_L/dt = v − v_L: it has
//! the same mean delay τ_L for slow signals but smears a step over ~τ_L instead of shifting it.
//! With τ_L = 0 the undelayed v is used and v_L is inert.
//!
//! Switching (events, located by the solver through [`FrictionModel::switches`]):
//! * switch 0, stick → slip when σ0|x_p| rises through the breakaway force F_C + F_S(γ, t_2);
//!   the slip direction is sgn(x_p); t_2 then stays frozen during the slip.
//! * switch 1, slip → stick when v passes through 0 (v·direction falls through 0); x_p and t_2
//!   restart from 0.
//!
//! At breakaway v_L ≈ 0 (the body was stuck), so the slip force starts at F_C + F_S(γ, t_2): the
//! force is continuous there, and drops towards F_C + F_v|v| as v_L grows.
//!
//! State x = [x_p \[m\], t_2 \[s\], v_L \[m/s\], mode]: mode (the one discrete state) is 0 in stick and
//! the slip direction ±1 in slip. The force is odd under (v, F_e, x) → (−v, −F_e, −x) because
//! stick is read as |mode| < 0.5 and the dwell as |t_2|.
//!
//! Parameters: F_C = μ_k F_N and the long-dwell breakaway F_C + F_S,∞ = μ_s F_N, so the
//! stick-slip view's μ_s, μ_k, F_N drive the model; σ0 = 1e5 N/m as the bristle stiffness of
//! Table 7.1. Table 6.4 (the source's defaults for this family) is on a missing page, so F_v,
//! v_s, τ_L, γ and F_S,a/F_S,∞ are placeholders: F_v = 0.01 N·s/m (0.1 N·s/m, the other laws'
//! placeholder, damps the Rabinowicz oscillation into steady sliding after two cycles, because
//! the Stribeck dip at v_s = 1 mm/s is far too narrow to feed it at v_b = 0.1 m/s),
//! v_s = 1e-3 m/s, τ_L = 1 ms, γ = 1 s, F_S,a = 0.5 F_S,∞.
//!
//! Numerics: the stick phase is an undamped spring, so in a closed loop the body rings at
//! √(σ0/m) while stuck (≈ 316 rad/s in the benchmark) and an adaptive solver must follow it;
//! with τ_L = 0 the slip force at v → 0 re-sticks at once and the benchmark chatters (the
//! solver runs out of steps), so keep τ_L > 0 for closed-loop runs.

use super::{checked, sgn, Cat, FromValues, Switching, FN, MAX_SWITCHES, MUK, MUS};
use crate::model::{FrictionModel, ModelInfo};
use crate::params::{ParamError, ParamSpec};

const PARAMS: [ParamSpec; 9] = [
    MUS,
    MUK,
    FN,
    ParamSpec {
        key: "sigma0",
        name: "Pre-sliding stiffness (Table 7.1 σ0)",
        symbol: "σ_0",
        unit: "N/m",
        default: 1e5,
        min: 1e-3,
        max: 1e12,
        log: true,
    },
    super::visc("fv", "Viscous coefficient (placeholder)", "F_v", 0.01),
    super::vel("vs", "Stribeck velocity (placeholder)", "v_s", 1e-3),
    ParamSpec {
        key: "taul",
        name: "Frictional lag time (placeholder; first-order lag for the delay)",
        symbol: "τ_L",
        unit: "s",
        default: 1e-3,
        min: 0.0,
        max: 10.0,
        log: false,
    },
    ParamSpec {
        key: "gamma",
        name: "Dwell time constant of rising stiction (placeholder)",
        symbol: "γ",
        unit: "s",
        default: 1.0,
        min: 1e-6,
        max: 1e6,
        log: true,
    },
    ParamSpec {
        key: "fsa_ratio",
        name: "Stiction excess after zero dwell, F_S,a / F_S,∞ (placeholder)",
        symbol: "F_S,a/F_S,∞",
        unit: "",
        default: 0.5,
        min: 0.0,
        max: 1.0,
        log: false,
    },
];

/// Registry description.
pub static INFO: ModelInfo = ModelInfo {
    id: "armstrong",
    name: "Armstrong-Hélouvry (1994), seven-parameter",
    category: Cat::StaticStiction,
    provisional: false,
    params: &PARAMS,
};

/// Index of the pre-sliding displacement x_p \[m\] in the state.
pub const XP: usize = 0;
/// Index of the dwell time t_2 \[s\] in the state.
pub const T2: usize = 1;
/// Index of the lagged velocity v_L \[m/s\] in the state.
pub const VL: usize = 2;
/// Index of the mode (0 stick, ±1 slip direction) in the state.
pub const MODE: usize = 3;

/// Switch index of stick → slip (breakaway).
pub const SW_BREAKAWAY: usize = 0;
/// Switch index of slip → stick (v through 0).
pub const SW_STICK: usize = 1;

/// The seven-parameter model: F_C, F_S,a, F_S,∞ \[N\], σ0 \[N/m\], F_v \[N·s/m\], v_s \[m/s\],
/// τ_L, γ \[s\].
#[derive(Debug, Clone, Copy)]
pub struct Armstrong {
    fc: f64,
    fsa: f64,
    fs_inf: f64,
    sigma0: f64,
    fv: f64,
    vs: f64,
    taul: f64,
    gamma: f64,
}

impl FromValues for Armstrong {
    fn from_values(values: &[f64]) -> Result<Self, ParamError> {
        let [mus, muk, fnorm, sigma0, fv, vs, taul, gamma, ratio] = checked(&PARAMS, values)?;
        if mus < muk {
            return Err(ParamError::relation(
                &[("mus", mus), ("muk", muk)],
                "needs mus ≥ muk (the long-dwell breakaway μ_s F_N includes F_C = μ_k F_N)",
            ));
        }
        let fs_inf = (mus - muk) * fnorm;
        Ok(Armstrong {
            fc: muk * fnorm,
            fsa: ratio * fs_inf,
            fs_inf,
            sigma0,
            fv,
            vs,
            taul,
            gamma,
        })
    }
}

/// Whether `mode` (any finite or infinite value) reads as stick.
#[inline]
fn sticking(mode: f64) -> bool {
    mode.is_nan() || mode.abs() < 0.5
}

impl Armstrong {
    /// Coulomb level F_C \[N\].
    pub fn fc(&self) -> f64 {
        self.fc
    }

    /// Stiction excess F_S(γ, t_2) = F_S,a + (F_S,∞ − F_S,a)·t_2/(t_2 + γ) \[N\] after a dwell `t2` \[s\].
    pub fn stiction_excess(&self, t2: f64) -> f64 {
        let t2 = t2.abs();
        // t2/(t2 + γ) written so that t2 = ∞ gives 1, not NaN
        let rise = 1.0 / (1.0 + self.gamma / t2);
        let rise = if rise.is_finite() { rise } else { 0.0 };
        self.fsa + (self.fs_inf - self.fsa) * rise
    }

    /// Breakaway force F_C + F_S(γ, t_2) \[N\] after a dwell `t2` \[s\].
    pub fn breakaway(&self, t2: f64) -> f64 {
        self.fc + self.stiction_excess(t2)
    }

    /// Slip force \[F_C + F_v|v| + F_S(γ, t_2)/(1 + (v_L/v_s)²)\] sgn(v) \[N\].
    pub fn slip_force(&self, v: f64, t2: f64, vl: f64) -> f64 {
        let r = vl / self.vs;
        let lorentz = 1.0 / (1.0 + r * r);
        let lorentz = if lorentz.is_finite() { lorentz } else { 0.0 };
        (self.fc + self.fv * v.abs() + self.stiction_excess(t2) * lorentz) * sgn(v)
    }

    /// The velocity the Stribeck term sees: v_L, or v itself when τ_L = 0.
    #[inline]
    fn lagged(&self, v: f64, x: &[f64]) -> f64 {
        if self.taul > 0.0 {
            x[VL]
        } else {
            v
        }
    }
}

impl FrictionModel for Armstrong {
    fn info(&self) -> &'static ModelInfo {
        &INFO
    }

    fn n_states(&self) -> usize {
        4
    }

    fn derivative(&self, v: f64, _fe: f64, x: &[f64], dx: &mut [f64]) {
        let stick = sticking(x[MODE]);
        dx[XP] = if stick { super::finite(v) } else { 0.0 };
        dx[T2] = if stick { 1.0 } else { 0.0 };
        dx[VL] = if self.taul > 0.0 {
            super::finite((v - x[VL]) / self.taul)
        } else {
            0.0
        };
        dx[MODE] = 0.0;
    }

    fn force(&self, v: f64, _fe: f64, x: &[f64]) -> f64 {
        let f = if sticking(x[MODE]) {
            self.sigma0 * x[XP]
        } else {
            self.slip_force(v, x[T2], self.lagged(v, x))
        };
        super::finite(f)
    }

    fn state_scale(&self, i: usize) -> f64 {
        match i {
            XP => (self.breakaway(f64::INFINITY) / self.sigma0).max(1e-12),
            T2 => self.gamma,
            VL => self.vs,
            _ => 1.0,
        }
    }

    fn n_discrete(&self) -> usize {
        1
    }

    fn n_switches(&self) -> usize {
        2
    }

    fn switches(&self, v: f64, _fe: f64, x: &[f64], g: &mut [f64]) {
        // Each function is a constant +1 in the mode where it cannot fire, so a mode change never
        // makes the other one cross zero.
        if sticking(x[MODE]) {
            g[SW_BREAKAWAY] = super::finite(self.breakaway(x[T2]) - (self.sigma0 * x[XP]).abs());
            g[SW_STICK] = 1.0;
        } else {
            g[SW_BREAKAWAY] = 1.0;
            g[SW_STICK] = super::finite(v * x[MODE].signum());
        }
    }

    fn on_switch(&self, index: usize, rising: bool, v: f64, _fe: f64, x: &mut [f64]) -> bool {
        if rising {
            return false;
        }
        let stick = sticking(x[MODE]);
        match index {
            SW_BREAKAWAY if stick => {
                // slip in the direction the spring was loaded (that of v while it loaded)
                let d = sgn(x[XP]);
                x[MODE] = if d != 0.0 {
                    d
                } else if v < 0.0 {
                    -1.0
                } else {
                    1.0
                };
                true
            }
            SW_STICK if !stick => {
                x[MODE] = 0.0;
                x[XP] = 0.0;
                x[T2] = 0.0;
                true
            }
            _ => false,
        }
    }
}

impl Switching for Armstrong {
    fn switching(&self, v: f64, fe: f64, x: &[f64], g: &mut [f64; MAX_SWITCHES]) -> usize {
        if x.len() < 4 {
            return 0;
        }
        self.switches(v, fe, x, &mut g[..2]);
        2
    }
}
