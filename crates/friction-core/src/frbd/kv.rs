//! Kelvin–Voigt-bristle FrBD_1-KV (companion paper, arXiv:2602.09429), the "LuGre-like" model.
//!
//! The bristle force is f = σ̄0·z + σ̄1·ż; inverting the friction characteristic at the current v
//! gives ż = (v − a(v)·σ̄0·z)/(1 + a(v)·σ̄1) with a = |v|_ε/μ(v), and F = p·f \[N\]. Unlike LuGre it
//! is passive for every σ̄1 ≥ 0 (LuGre is not: Barabanov & Ortega). Here σ̄0 is the key `k0`, σ̄1 the
//! key `c0`.

use super::{spec, Contact, Passive};
use crate::integrate::linear::LinearModel;
use crate::model::{Category, FrictionModel, ModelInfo};
use crate::params::{ParamError, ParamSpec};

/// Registry description. Provisional: the companion paper's printed form was not recoverable
/// (its full text was not available); this is our derivation, a Newton step at the current v.
pub static INFO: ModelInfo = ModelInfo {
    id: "frbd-kv",
    name: "FrBD-KV, Kelvin–Voigt bristle (Romano et al.)",
    category: Category::Frbd,
    provisional: true,
    params: &PARAMS,
};

static PARAMS: [ParamSpec; 8] = [
    spec::K0,
    spec::C0,
    spec::CONTACT[0],
    spec::CONTACT[1],
    spec::CONTACT[2],
    spec::CONTACT[3],
    spec::CONTACT[4],
    spec::CONTACT[5],
];

/// Registry builder: `[k0, c0, mus, mud, vs, delta, eps, p]`.
pub fn build(v: &[f64]) -> Result<Box<dyn FrictionModel>, ParamError> {
    Ok(Box::new(from_values(v)?))
}

/// The model [`build`] builds, as its own type.
pub fn from_values(v: &[f64]) -> Result<Kv, ParamError> {
    let v = crate::params::values_or_defaults(&PARAMS, v);
    Kv::new(Contact::from_values(&v[2..])?, v[0], v[1])
}

/// Kelvin–Voigt bristle: one state z \[m\].
#[derive(Debug, Clone, PartialEq)]
pub struct Kv {
    contact: Contact,
    k0: f64,
    c0: f64,
}

impl Kv {
    /// Validated model: stiffness σ̄0 = `k0` \[1/m\], damping σ̄1 = `c0` \[s/m\].
    pub fn new(contact: Contact, k0: f64, c0: f64) -> Result<Kv, ParamError> {
        spec::K0.check(k0)?;
        spec::C0.check(c0)?;
        Ok(Kv { contact, k0, c0 })
    }
    /// Contact data.
    pub fn contact(&self) -> &Contact {
        &self.contact
    }
    /// σ̄0 \[1/m\].
    pub fn k0(&self) -> f64 {
        self.k0
    }
    /// σ̄1 \[s/m\].
    pub fn c0(&self) -> f64 {
        self.c0
    }
    #[inline]
    fn zdot(&self, v: f64, z: f64) -> f64 {
        let a = self.contact.gain(v);
        (v - a * self.k0 * z) / (1.0 + a * self.c0)
    }
}

impl LinearModel for Kv {
    fn dim(&self) -> usize {
        1
    }
    fn rhs(&self, v: f64, x: &[f64], dx: &mut [f64]) {
        dx[0] = self.zdot(v, x[0]);
    }
    fn solve_stage(&self, v: f64, eta: f64, r: &[f64], x: &mut [f64]) {
        let a = self.contact.gain(v);
        let q = 1.0 + a * self.c0;
        x[0] = (r[0] * q + eta * v) / (q + eta * a * self.k0);
    }
    fn output(&self, v: f64, x: &[f64]) -> f64 {
        self.contact.p * (self.k0 * x[0] + self.c0 * self.zdot(v, x[0]))
    }
    fn rate_bound(&self, v: f64) -> f64 {
        let a = self.contact.gain(v);
        a * self.k0 / (1.0 + a * self.c0)
    }
}

impl Passive for Kv {
    fn storage(&self, x: &[f64]) -> f64 {
        0.5 * self.contact.p * self.k0 * x[0] * x[0]
    }
    fn dissipation(&self, v: f64, x: &[f64]) -> f64 {
        let zd = self.zdot(v, x[0]);
        let f = self.k0 * x[0] + self.c0 * zd;
        self.contact.p * (self.contact.gain(v) * f * f + self.c0 * zd * zd)
    }
}

super::impl_friction_model!(Kv, INFO);
