//! The FrBD family of the letter (Romano et al., arXiv:2601.13799): generalized-Maxwell (GM) and
//! generalized-Kelvin–Voigt (GKV) bristles of any order n, and the companion paper's elastic and
//! Kelvin–Voigt bristles (n = 0).
//!
//! Every model is linear in its state for a given velocity (ẋ = A(v)x + b·v; eqs. 12–13), so the
//! models implement [`crate::integrate::linear::LinearModel`] with an exact O(n) implicit stage
//! solve, besides the generic [`FrictionModel`] interface used by closed-loop solvers. Each model
//! also exposes its storage function V(x) (letter eqs. 17, 20) and dissipation rate, so that
//! `dV/dt = F·v − D(v, x)` can be checked along any trajectory.

pub mod elastic;
pub mod gkv;
pub mod gm;
pub mod kv;
pub mod mapping;
pub mod spec;

use crate::integrate::linear::LinearModel;
use crate::model::{FrictionModel, ModelEntry, ModelInfo};
use crate::params::ParamError;
use crate::stribeck::{abs_eps, Stribeck};

pub use elastic::Elastic;
pub use gkv::Gkv;
pub use gm::Gm;
pub use kv::Kv;

/// Registry entries of this family, in display order.
pub static ENTRIES: &[ModelEntry] = &[
    ModelEntry {
        info: &gm::INFO,
        build: gm::build,
    },
    ModelEntry {
        info: &gkv::INFO,
        build: gkv::build,
    },
    ModelEntry {
        info: &elastic::INFO,
        build: elastic::build,
    },
    ModelEntry {
        info: &kv::INFO,
        build: kv::build,
    },
];

/// The contact data every FrBD model shares: Stribeck law, regularisation ε and normal load p.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Contact {
    /// Friction law μ(v).
    pub stribeck: Stribeck,
    /// Regularisation ε \[m²/s²\] of |v|_ε.
    pub eps: f64,
    /// Normal load p \[N\]; the output is F = p·f.
    pub p: f64,
}

impl Default for Contact {
    fn default() -> Self {
        Contact {
            stribeck: Stribeck::TABLE_I,
            eps: 0.0,
            p: 1.0,
        }
    }
}

impl Contact {
    /// Validated contact data from `[mus, mud, vs, delta, eps, p]` (the order of [`spec::CONTACT`]).
    pub fn from_values(v: &[f64]) -> Result<Contact, ParamError> {
        for (s, x) in spec::CONTACT.iter().zip(v) {
            s.check(*x)?;
        }
        if v.len() < spec::CONTACT.len() {
            return Err(ParamError::new("p", "", "missing contact parameters"));
        }
        Ok(Contact {
            stribeck: Stribeck {
                mu_s: v[0],
                mu_d: v[1],
                v_s: v[2],
                delta: v[3],
            },
            eps: v[4],
            p: v[5],
        })
    }

    /// Inversion gain a(v) = |v|_ε / μ(v) [m/s]: the rate at which the bristle force relaxes.
    ///
    /// It is ≥ 0 and vanishes at v = 0 when ε = 0, which makes z marginally stable there; the
    /// implicit stage solves divide by 1 + a·(…) only, so this is harmless.
    #[inline]
    pub fn gain(&self, v: f64) -> f64 {
        abs_eps(v, self.eps) / self.stribeck.mu(v)
    }

    /// Steady-state friction force F = p·sgn_ε(v)·μ(v) \[N\] (letter eq. 14).
    #[inline]
    pub fn steady_force(&self, v: f64) -> f64 {
        self.p * self.stribeck.steady(v, self.eps)
    }
}

/// Storage function and dissipation rate of a passive model (letter §III, Lemma III.3).
pub trait Passive {
    /// Stored energy V(x) \[J\] (eq. 17 for GM, eq. 20 for GKV).
    fn storage(&self, x: &[f64]) -> f64;
    /// Dissipation rate D(v, x) ≥ 0 \[W\], such that dV/dt = F·v − D along solutions.
    fn dissipation(&self, v: f64, x: &[f64]) -> f64;
}

/// Which FrBD model (the `model=` key of the scenario).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Kind {
    /// FrBD_{n+1}-GM, eq. (12).
    Gm,
    /// FrBD_{n+1}-GKV, eq. (13).
    Gkv,
    /// Elastic bristle FrBD_1 (companion paper).
    Elastic,
    /// Kelvin–Voigt bristle FrBD_1-KV (companion paper).
    Kv,
}

impl Kind {
    /// All kinds, in display order.
    pub const ALL: [Kind; 4] = [Kind::Gm, Kind::Gkv, Kind::Elastic, Kind::Kv];

    /// Registry id, also the value of `model=`.
    pub fn id(self) -> &'static str {
        match self {
            Kind::Gm => "frbd-gm",
            Kind::Gkv => "frbd-gkv",
            Kind::Elastic => "frbd-elastic",
            Kind::Kv => "frbd-kv",
        }
    }

    /// Parses a registry id.
    pub fn from_id(id: &str) -> Option<Kind> {
        Kind::ALL.into_iter().find(|k| k.id() == id)
    }

    /// Published name.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Gm => gm::INFO.name,
            Kind::Gkv => gkv::INFO.name,
            Kind::Elastic => elastic::INFO.name,
            Kind::Kv => kv::INFO.name,
        }
    }

    /// Whether the rheology has n Maxwell / Kelvin–Voigt branches (GM, GKV) or none (n = 0).
    pub fn has_branches(self) -> bool {
        matches!(self, Kind::Gm | Kind::Gkv)
    }
}

/// Any FrBD model, so that experiments and the page can hold one without generics.
#[derive(Debug, Clone, PartialEq)]
pub enum Frbd {
    /// Generalized Maxwell.
    Gm(Gm),
    /// Generalized Kelvin–Voigt.
    Gkv(Gkv),
    /// Elastic bristle.
    Elastic(Elastic),
    /// Kelvin–Voigt bristle.
    Kv(Kv),
}

macro_rules! each {
    ($self:expr, $m:ident => $e:expr) => {
        match $self {
            Frbd::Gm($m) => $e,
            Frbd::Gkv($m) => $e,
            Frbd::Elastic($m) => $e,
            Frbd::Kv($m) => $e,
        }
    };
}

impl Frbd {
    /// Which model this is.
    pub fn kind(&self) -> Kind {
        match self {
            Frbd::Gm(_) => Kind::Gm,
            Frbd::Gkv(_) => Kind::Gkv,
            Frbd::Elastic(_) => Kind::Elastic,
            Frbd::Kv(_) => Kind::Kv,
        }
    }

    /// Contact data (Stribeck law, ε, p).
    pub fn contact(&self) -> &Contact {
        each!(self, m => m.contact())
    }

    /// The model the registry entry `id` of this family builds from `values` (its `params`
    /// order), as the enum the FrBD experiments take; `None` for an id outside the family.
    pub fn from_registry(id: &str, values: &[f64]) -> Option<Result<Frbd, ParamError>> {
        Some(match Kind::from_id(id)? {
            Kind::Gm => gm::from_values(values).map(Frbd::Gm),
            Kind::Gkv => gkv::from_values(values).map(Frbd::Gkv),
            Kind::Elastic => elastic::from_values(values).map(Frbd::Elastic),
            Kind::Kv => kv::from_values(values).map(Frbd::Kv),
        })
    }
}

impl LinearModel for Frbd {
    fn dim(&self) -> usize {
        each!(self, m => m.dim())
    }
    fn rhs(&self, v: f64, x: &[f64], dx: &mut [f64]) {
        each!(self, m => m.rhs(v, x, dx))
    }
    fn solve_stage(&self, v: f64, eta: f64, r: &[f64], x: &mut [f64]) {
        each!(self, m => m.solve_stage(v, eta, r, x))
    }
    fn output(&self, v: f64, x: &[f64]) -> f64 {
        each!(self, m => m.output(v, x))
    }
    fn rate_bound(&self, v: f64) -> f64 {
        each!(self, m => m.rate_bound(v))
    }
    fn max_rate(&self, v: f64) -> f64 {
        each!(self, m => m.max_rate(v))
    }
}

impl Passive for Frbd {
    fn storage(&self, x: &[f64]) -> f64 {
        each!(self, m => m.storage(x))
    }
    fn dissipation(&self, v: f64, x: &[f64]) -> f64 {
        each!(self, m => m.dissipation(v, x))
    }
}

impl FrictionModel for Frbd {
    fn info(&self) -> &'static ModelInfo {
        each!(self, m => m.info())
    }
    fn n_states(&self) -> usize {
        self.dim()
    }
    fn derivative(&self, v: f64, _fe: f64, x: &[f64], dx: &mut [f64]) {
        self.rhs(v, x, dx)
    }
    fn force(&self, v: f64, _fe: f64, x: &[f64]) -> f64 {
        self.output(v, x)
    }
}

/// Implements [`FrictionModel`] for a concrete FrBD model through its [`LinearModel`] methods.
macro_rules! impl_friction_model {
    ($t:ty, $info:expr) => {
        impl $crate::model::FrictionModel for $t {
            fn info(&self) -> &'static $crate::model::ModelInfo {
                &$info
            }
            fn n_states(&self) -> usize {
                $crate::integrate::linear::LinearModel::dim(self)
            }
            fn derivative(&self, v: f64, _fe: f64, x: &[f64], dx: &mut [f64]) {
                $crate::integrate::linear::LinearModel::rhs(self, v, x, dx)
            }
            fn force(&self, v: f64, _fe: f64, x: &[f64]) -> f64 {
                $crate::integrate::linear::LinearModel::output(self, v, x)
            }
        }
    };
}
pub(crate) use impl_friction_model;

/// Checks every element of a list parameter against `spec`; the error names the list key.
pub(crate) fn check_list(
    key: &str,
    spec: &crate::params::ParamSpec,
    xs: &[f64],
) -> Result<(), ParamError> {
    for (i, &x) in xs.iter().enumerate() {
        if spec.check(x).is_err() {
            return Err(ParamError::new(
                key,
                &crate::params::fmt_num(x),
                format!(
                    "element {} out of range: allowed {} ≤ {key} ≤ {}",
                    i + 1,
                    crate::params::fmt_num(spec.min),
                    crate::params::fmt_num(spec.max)
                ),
            ));
        }
    }
    Ok(())
}
