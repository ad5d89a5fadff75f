//! Elastic-bristle FrBD_1 (companion paper, arXiv:2602.09429): ż = v − a(v)·k̄0·z, F = p·k̄0·z.
//!
//! With LuGre written as ż = v − σ0|v|z/g(v), g a force, this is LuGre's z-equation with
//! σ0 = p·k̄0 and g(v) = p·μ(v) (not μ/σ0, which holds only with g in metres), and no σ1ż or σ2v
//! term in the output.

use super::{spec, Contact, Passive};
use crate::integrate::linear::LinearModel;
use crate::model::{Category, FrictionModel, ModelInfo};
use crate::params::{ParamError, ParamSpec};

/// Registry description.
pub static INFO: ModelInfo = ModelInfo {
    id: "frbd-elastic",
    name: "FrBD elastic bristle, n = 0 (Romano et al.)",
    category: Category::Frbd,
    provisional: false,
    params: &PARAMS,
};

static PARAMS: [ParamSpec; 7] = [
    spec::K0,
    spec::CONTACT[0],
    spec::CONTACT[1],
    spec::CONTACT[2],
    spec::CONTACT[3],
    spec::CONTACT[4],
    spec::CONTACT[5],
];

/// Registry builder: `[k0, mus, mud, vs, delta, eps, p]`.
pub fn build(v: &[f64]) -> Result<Box<dyn FrictionModel>, ParamError> {
    Ok(Box::new(from_values(v)?))
}

/// The model [`build`] builds, as its own type.
pub fn from_values(v: &[f64]) -> Result<Elastic, ParamError> {
    let v = crate::params::values_or_defaults(&PARAMS, v);
    Elastic::new(Contact::from_values(&v[1..])?, v[0])
}

/// Elastic bristle: one state z \[m\].
#[derive(Debug, Clone, PartialEq)]
pub struct Elastic {
    contact: Contact,
    k0: f64,
}

impl Elastic {
    /// Validated model with bristle stiffness k̄0 \[1/m\].
    pub fn new(contact: Contact, k0: f64) -> Result<Elastic, ParamError> {
        spec::K0.check(k0)?;
        Ok(Elastic { contact, k0 })
    }
    /// Contact data.
    pub fn contact(&self) -> &Contact {
        &self.contact
    }
    /// k̄0 \[1/m\].
    pub fn k0(&self) -> f64 {
        self.k0
    }
}

impl LinearModel for Elastic {
    fn dim(&self) -> usize {
        1
    }
    fn rhs(&self, v: f64, x: &[f64], dx: &mut [f64]) {
        dx[0] = v - self.contact.gain(v) * self.k0 * x[0];
    }
    fn solve_stage(&self, v: f64, eta: f64, r: &[f64], x: &mut [f64]) {
        x[0] = (r[0] + eta * v) / (1.0 + eta * self.contact.gain(v) * self.k0);
    }
    fn output(&self, _v: f64, x: &[f64]) -> f64 {
        self.contact.p * self.k0 * x[0]
    }
    fn rate_bound(&self, v: f64) -> f64 {
        self.contact.gain(v) * self.k0
    }
}

impl Passive for Elastic {
    fn storage(&self, x: &[f64]) -> f64 {
        0.5 * self.contact.p * self.k0 * x[0] * x[0]
    }
    fn dissipation(&self, v: f64, x: &[f64]) -> f64 {
        let f = self.k0 * x[0];
        self.contact.p * self.contact.gain(v) * f * f
    }
}

super::impl_friction_model!(Elastic, INFO);
