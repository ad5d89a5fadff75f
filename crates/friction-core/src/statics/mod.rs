//! Static and composite friction laws: F = F(v, F_e) (\[T\] §5–6, \[C\], the library).
//!
//! Every law here is a [`FrictionModel`] with no internal state, except the three composite laws
//! DV, SD and SV of \[C\], whose printed force depends on the displacement X: they carry X as their
//! single state (dX/dt = v, X(0) = 0), so the same scenario schema drives them, and
//! Armstrong-Hélouvry's seven-parameter model, a hybrid stick/slip model with pre-sliding, lag
//! and dwell states and a discrete mode changed by its switching functions (see [`armstrong`]).
//!
//! Laws are written once as a [`StaticLaw`] (force as a function of `v` \[m/s\] and `F_e` \[N\]) and
//! turned into a [`FrictionModel`] by the `static_model!` macro. Solvers with event location can ask for
//! the switching functions of any law of this family through [`switching_for`]: each returned
//! function changes sign exactly on one switching surface (a kink or a jump of the law).

use crate::model::{FrictionModel, ModelEntry, ModelInfo};
use crate::params::{ParamError, ParamSpec};

pub mod ambrosio;
pub mod andersson;
pub mod armstrong;
pub mod av;
pub mod awrejcewicz;
pub mod bengisu_akay;
pub mod bernard;
pub mod bo_pavelescu;
pub mod brown_mcphee;
pub mod coulomb;
pub mod coulomb_viscous;
pub mod cs;
pub mod cvs;
pub mod dv;
pub mod hess_soom;
pub mod hollars;
pub mod karnopp;
pub mod linear_stiction;
pub mod popp_stelter;
pub mod rooney_deravi;
pub mod sd;
pub mod specker;
pub mod stribeck;
pub mod sv;
pub mod threlfall;
pub mod threlfall_modified;
pub mod tustin;
pub mod wojewoda;

/// Largest number of switching functions any law of this family reports.
pub const MAX_SWITCHES: usize = 4;

/// A static friction law F(v, F_e): the force \[N\] as a function of the relative velocity
/// `v` \[m/s\] and the external tangential force `fe` \[N\] (used only by stick branches).
pub trait StaticLaw {
    /// Static description (id, name, parameters).
    fn info(&self) -> &'static ModelInfo;

    /// Friction force F \[N\]; finite for every finite input.
    fn force(&self, v: f64, fe: f64) -> f64;

    /// Writes the law's switching functions at (v, F_e) into `g` and returns how many there are.
    ///
    /// Each g_i changes sign on exactly one switching surface of the law (a jump or a kink), so an
    /// event-locating solver can stop there. Smooth laws return 0.
    fn switching(&self, _v: f64, _fe: f64, _g: &mut [f64; MAX_SWITCHES]) -> usize {
        0
    }
}

/// An even Stribeck curve g(v) \[N\]: the magnitude of steady sliding friction without any viscous
/// term, from F_s at v = 0 towards F_C. The auxiliary laws of \[T\] §5.1–5.3 and the library's
/// Stribeck law implement it so dynamic models can take any of them as their steady-state curve.
pub trait StribeckCurve {
    /// g(v) \[N\], even in v.
    fn curve(&self, v: f64) -> f64;
}

/// Force of a Stribeck-type law with an exact stick at v = 0 (the auxiliary laws of \[T\]
/// §5.1–5.3): F_e is held up to F_s while v = 0, otherwise F = sgn(v)·g(v) + viscous \[N\].
pub fn stribeck_force(v: f64, fe: f64, fs: f64, g: f64, viscous: f64) -> f64 {
    if v == 0.0 {
        stick(fe, fs)
    } else {
        g * sgn(v) + viscous
    }
}

/// Switching functions of those laws: the sign change of v and the breakaway |F_e| = F_s.
pub fn stribeck_switching(v: f64, fe: f64, fs: f64, g: &mut [f64; MAX_SWITCHES]) -> usize {
    g[0] = v;
    g[1] = fe.abs() - fs;
    2
}

/// Switching functions of a law of this family, for event location (see [`switching_for`]).
pub trait Switching {
    /// Writes the switching functions at (v, F_e, state x) into `g`; returns how many.
    fn switching(&self, v: f64, fe: f64, x: &[f64], g: &mut [f64; MAX_SWITCHES]) -> usize;
}

/// Implements [`FrictionModel`] and [`Switching`] for a [`StaticLaw`] with no state.
macro_rules! static_model {
    ($t:ty) => {
        impl $crate::model::FrictionModel for $t {
            fn info(&self) -> &'static $crate::model::ModelInfo {
                $crate::statics::StaticLaw::info(self)
            }
            fn force(&self, v: f64, fe: f64, _x: &[f64]) -> f64 {
                $crate::statics::finite($crate::statics::StaticLaw::force(self, v, fe))
            }
            // The law's switching surfaces, so that solvers stop on them (and the stick-slip
            // driver can detect sliding modes on jumps away from v = 0).
            fn n_switches(&self) -> usize {
                let mut g = [0.0; $crate::statics::MAX_SWITCHES];
                $crate::statics::StaticLaw::switching(self, 0.0, 0.0, &mut g)
            }
            fn switches(&self, v: f64, fe: f64, _x: &[f64], g: &mut [f64]) {
                let mut a = [0.0; $crate::statics::MAX_SWITCHES];
                let n = $crate::statics::StaticLaw::switching(self, v, fe, &mut a).min(g.len());
                g[..n].copy_from_slice(&a[..n]);
            }
        }
        impl $crate::statics::Switching for $t {
            fn switching(
                &self,
                v: f64,
                fe: f64,
                _x: &[f64],
                g: &mut [f64; $crate::statics::MAX_SWITCHES],
            ) -> usize {
                $crate::statics::StaticLaw::switching(self, v, fe, g)
            }
        }
    };
}
pub(crate) use static_model;

/// A law that can be built from a value slice in `ModelInfo::params` order.
pub trait FromValues: Sized {
    /// Validates the values (missing trailing values take their defaults) and builds the law.
    fn from_values(values: &[f64]) -> Result<Self, ParamError>;
}

fn build_model<L: FromValues + FrictionModel + 'static>(
    values: &[f64],
) -> Result<Box<dyn FrictionModel>, ParamError> {
    Ok(Box::new(L::from_values(values)?))
}

fn build_switching<L: FromValues + Switching + 'static>(
    values: &[f64],
) -> Result<Box<dyn Switching>, ParamError> {
    Ok(Box::new(L::from_values(values)?))
}

/// Builds the switching-function object of a law of this family from the same values as its model.
pub type SwitchingBuildFn = fn(&[f64]) -> Result<Box<dyn Switching>, ParamError>;

macro_rules! entries {
    ($($m:ident :: $t:ident),* $(,)?) => {
        /// Registry entries of this family, in the stable id order of the issue.
        pub static ENTRIES: &[ModelEntry] = &[
            $(ModelEntry { info: &$m::INFO, build: build_model::<$m::$t> }),*
        ];
        /// Switching-function builders, in the same order as [`ENTRIES`].
        pub static SWITCHING: &[(&str, SwitchingBuildFn)] = &[
            $(($m::INFO.id, build_switching::<$m::$t>)),*
        ];
    };
}

entries!(
    coulomb::Coulomb,
    bernard::Bernard,
    threlfall::Threlfall,
    threlfall_modified::ThrelfallModified,
    rooney_deravi::RooneyDeravi,
    ambrosio::Ambrosio,
    karnopp::Karnopp,
    bengisu_akay::BengisuAkay,
    armstrong::Armstrong,
    hollars::Hollars,
    andersson::Andersson,
    wojewoda::Wojewoda,
    awrejcewicz::Awrejcewicz,
    specker::Specker,
    linear_stiction::LinearStiction,
    brown_mcphee::BrownMcPhee,
    tustin::Tustin,
    bo_pavelescu::BoPavelescu,
    hess_soom::HessSoom,
    popp_stelter::PoppStelter,
    coulomb_viscous::CoulombViscous,
    av::Av,
    cs::Cs,
    cvs::Cvs,
    dv::Dv,
    sd::Sd,
    sv::Sv,
    stribeck::Stribeck,
);

/// Builds the switching functions of the static/composite law `id` with `values` (params order);
/// `None` if `id` is not a law of this family.
pub fn switching_for(id: &str, values: &[f64]) -> Option<Result<Box<dyn Switching>, ParamError>> {
    SWITCHING
        .iter()
        .find(|(i, _)| *i == id)
        .map(|(_, b)| b(values))
}

/// Checks `values` against `specs` (a missing trailing value takes its default) and returns them.
pub(crate) fn checked<const N: usize>(
    specs: &[ParamSpec; N],
    values: &[f64],
) -> Result<[f64; N], ParamError> {
    let mut out = [0.0; N];
    for (i, s) in specs.iter().enumerate() {
        out[i] = s.check(values.get(i).copied().unwrap_or(s.default))?;
    }
    Ok(out)
}

/// sgn with sgn(0) = 0; NaN-free for finite input.
#[inline]
pub fn sgn(x: f64) -> f64 {
    if x > 0.0 {
        1.0
    } else if x < 0.0 {
        -1.0
    } else {
        0.0
    }
}

/// The stick branch of (5.1)/(5.4): min(|F_e|, F_max)·sgn(F_e).
#[inline]
pub fn stick(fe: f64, f_max: f64) -> f64 {
    // f64::clamp panics on a NaN or negative bound (a solver's non-finite trial state)
    let f_max = f_max.max(0.0);
    fe.clamp(-f_max, f_max)
}

/// Replaces a non-finite intermediate (overflow for huge inputs) by a finite bound.
#[inline]
pub(crate) fn finite(x: f64) -> f64 {
    if x.is_finite() {
        x
    } else if x.is_nan() {
        0.0
    } else {
        x.signum() * f64::MAX
    }
}

// Shared parameter specs. Keys `mus`, `muk`, `fn` are common to the thesis models so the
// stick-slip benchmark (which defines μ_s, μ_k and derives F_N = m g) drives all of them at once.

/// Static friction coefficient μ_s (thesis Table 6.1: 0.15).
pub const MUS: ParamSpec = ParamSpec {
    key: "mus",
    name: "Static friction coefficient",
    symbol: "μ_s",
    unit: "",
    default: 0.15,
    min: 0.0,
    max: 10.0,
    log: false,
};

/// Kinetic (Coulomb) friction coefficient μ_k (thesis Table 6.1: 0.1).
pub const MUK: ParamSpec = ParamSpec {
    key: "muk",
    name: "Kinetic friction coefficient",
    symbol: "μ_k",
    unit: "",
    default: 0.1,
    min: 0.0,
    max: 10.0,
    log: false,
};

/// Normal force F_N = m g (thesis benchmark: 9.81 N).
pub const FN: ParamSpec = ParamSpec {
    key: "fn",
    name: "Normal force",
    symbol: "F_N",
    unit: "N",
    default: 9.81,
    min: 0.0,
    max: 1e6,
    log: false,
};

/// A velocity parameter spec \[m/s\] spanning decades (thresholds, Stribeck velocities).
pub(crate) const fn vel(
    key: &'static str,
    name: &'static str,
    symbol: &'static str,
    default: f64,
) -> ParamSpec {
    ParamSpec {
        key,
        name,
        symbol,
        unit: "m/s",
        default,
        min: 1e-9,
        max: 100.0,
        log: true,
    }
}

/// A viscous coefficient spec \[N·s/m\], 0 allowed (drops the term).
pub(crate) const fn visc(
    key: &'static str,
    name: &'static str,
    symbol: &'static str,
    default: f64,
) -> ParamSpec {
    ParamSpec {
        key,
        name,
        symbol,
        unit: "N·s/m",
        default,
        min: 0.0,
        max: 1e6,
        log: false,
    }
}

/// Category helper re-exported for the law files.
pub(crate) use crate::model::Category as Cat;

// Composite laws of [C]: Table 1 constants F_N = 10, "μ_c = 6" (read as the Coulomb
// force F_c = 6 N, i.e. μ_c = 0.6 with F_N = 10 N), μ_s = 0.75, μ = 0.5 (read as the viscous
// coefficient μ_v [N·s/m]), Ẋ_s = 0.1 m/s, σ = 5 (asperity stiffness, read as N/m).

/// \[C\] static coefficient μ_s = 0.75.
pub(crate) const C_MUS: ParamSpec = ParamSpec {
    default: 0.75,
    ..MUS
};
/// \[C\] Coulomb coefficient: Table 1's "μ_c = 6" read as F_c = 6 N, so μ_c = 0.6.
pub(crate) const C_MUK: ParamSpec = ParamSpec {
    name: "Coulomb coefficient ([C] prints \"μ_c = 6\": read as F_c = 6 N)",
    symbol: "μ_c",
    default: 0.6,
    ..MUK
};
/// \[C\] normal force F_N = 10 N.
pub(crate) const C_FN: ParamSpec = ParamSpec {
    default: 10.0,
    ..FN
};
/// \[C\] viscous coefficient μ_v = 0.5 N·s/m (Table 1's "μ").
pub(crate) const C_MUV: ParamSpec = visc("muv", "Viscous coefficient ([C] \"μ\")", "μ_v", 0.5);
/// \[C\] Stribeck velocity limit Ẋ_s = 0.1 m/s.
pub(crate) const C_XS: ParamSpec = vel("xs", "Stribeck velocity limit", "Ẋ_s", 0.1);
/// \[C\] asperity stiffness σ = 5 N/m.
pub(crate) const C_SIGMA: ParamSpec = ParamSpec {
    key: "sigma",
    name: "Asperity stiffness",
    symbol: "σ",
    unit: "N/m",
    default: 5.0,
    min: 0.0,
    max: 1e9,
    log: false,
};
/// Switch for the non-odd μ_s F_N term of AV/SD/SV: 0 = intended odd reading, 1 = as printed.
pub(crate) const C_PRINTED: ParamSpec = ParamSpec {
    key: "printed",
    name: "Static term: 0 = μ_s F_N sgn(Ẋ) (intended), 1 = constant μ_s F_N (as printed)",
    symbol: "printed",
    unit: "",
    default: 0.0,
    min: 0.0,
    max: 1.0,
    log: false,
};

/// The Stribeck corrections of \[C\] eqs. 3–4 read with Ẋ_t = Ẋ and amplitude `amp`:
/// C_1 + C_2 = amp·e^{−(Ẋ/Ẋ_s)²}·sgn(Ẋ) \[N\].
#[inline]
pub(crate) fn c1_c2(v: f64, amp: f64, xs: f64) -> f64 {
    let r = v / xs;
    amp * (-(r * r)).exp() * sgn(v)
}

/// The Dahl virgin curve of \[C\] eqs. 8–11: F_c(1 − e^{−σ|X|/F_c}) \[N\] (0 when F_c = 0).
#[inline]
pub(crate) fn dahl_virgin(x: f64, fc: f64, sigma: f64) -> f64 {
    if fc <= 0.0 {
        0.0
    } else {
        -fc * (-sigma * x.abs() / fc).exp_m1()
    }
}

pub use stribeck::lugre_shape;
