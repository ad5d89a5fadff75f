//! FrBD_{n+1}-GM (letter eq. 12): a bristle spring k̄0 in parallel with n Maxwell branches.
//!
//! State x = [z, f_1, …, f_n]: bristle deflection z \[m\] and branch forces per unit load f_i \[-\].
//! ż = v − a(v)·f, ḟ_i = −f_i/τ_i + k̄_i·ż, with f = k̄0·z + Σ f_i and a(v) = |v|_ε/μ(v);
//! output F = p·f \[N\].

use super::{check_list, spec, Contact, Passive};
use crate::integrate::linear::LinearModel;
use crate::model::{Category, FrictionModel, ModelInfo};
use crate::params::{ParamError, ParamSpec};

/// Registry description; the scalar parameters describe the n = 1 form.
pub static INFO: ModelInfo = ModelInfo {
    id: "frbd-gm",
    name: "FrBD-GM, generalized Maxwell bristle (Romano et al.)",
    category: Category::Frbd,
    provisional: false,
    params: &PARAMS,
};

static PARAMS: [ParamSpec; 9] = [
    spec::K0,
    spec::K1,
    spec::TAU1,
    spec::CONTACT[0],
    spec::CONTACT[1],
    spec::CONTACT[2],
    spec::CONTACT[3],
    spec::CONTACT[4],
    spec::CONTACT[5],
];

/// Registry builder: `[k0, k1, tau1, mus, mud, vs, delta, eps, p]`.
pub fn build(v: &[f64]) -> Result<Box<dyn FrictionModel>, ParamError> {
    Ok(Box::new(from_values(v)?))
}

/// The model [`build`] builds, as its own type.
pub fn from_values(v: &[f64]) -> Result<Gm, ParamError> {
    let v = crate::params::values_or_defaults(&PARAMS, v);
    Gm::new(Contact::from_values(&v[3..])?, v[0], &[v[1]], &[v[2]])
}

/// Generalized-Maxwell FrBD model of any order n ≥ 0 (n = 0 is the elastic bristle).
#[derive(Debug, Clone, PartialEq)]
pub struct Gm {
    contact: Contact,
    k0: f64,
    k: Vec<f64>,
    tau: Vec<f64>,
    /// k̄0 + Σ k̄_i: instantaneous stiffness, cached for the rate bound.
    k_total: f64,
    /// max 1/τ_i \[1/s\], cached for the rate bound (the stepper asks for it every step).
    inv_tau_max: f64,
}

impl Gm {
    /// Validated model: `k` = k̄_1..k̄_n \[1/m\], `tau` = τ_1..τ_n \[s\] (same length).
    pub fn new(contact: Contact, k0: f64, k: &[f64], tau: &[f64]) -> Result<Gm, ParamError> {
        spec::K0.check(k0)?;
        check_list("k", &spec::K1, k)?;
        check_list("tau", &spec::TAU1, tau)?;
        if k.len() != tau.len() {
            return Err(ParamError::new(
                "tau",
                &tau.len().to_string(),
                format!("needs one τ per branch: {} values", k.len()),
            ));
        }
        Ok(Gm {
            contact,
            k0,
            k: k.to_vec(),
            tau: tau.to_vec(),
            k_total: k0 + k.iter().sum::<f64>(),
            inv_tau_max: tau.iter().fold(0.0_f64, |m, &t| m.max(1.0 / t)),
        })
    }

    /// Builds the n = 1 model from (σ0, σ1, γ1) of the letter's differential form (5).
    pub fn from_sigma(contact: Contact, s0: f64, s1: f64, g1: f64) -> Result<Gm, ParamError> {
        let (k0, k1, tau1) = super::mapping::gm_from_sigma(s0, s1, g1)?;
        Gm::new(contact, k0, &[k1], &[tau1])
    }

    /// Number of Maxwell branches n.
    pub fn n(&self) -> usize {
        self.k.len()
    }
    /// Contact data.
    pub fn contact(&self) -> &Contact {
        &self.contact
    }
    /// k̄0 \[1/m\].
    pub fn k0(&self) -> f64 {
        self.k0
    }
    /// k̄_1..k̄_n \[1/m\].
    pub fn k(&self) -> &[f64] {
        &self.k
    }
    /// τ_1..τ_n \[s\].
    pub fn tau(&self) -> &[f64] {
        &self.tau
    }

    /// Normalised bristle force f = k̄0·z + Σ f_i \[-\].
    #[inline]
    fn f(&self, x: &[f64]) -> f64 {
        self.k0 * x[0] + x[1..].iter().sum::<f64>()
    }
}

impl LinearModel for Gm {
    fn dim(&self) -> usize {
        self.k.len() + 1
    }

    fn rhs(&self, v: f64, x: &[f64], dx: &mut [f64]) {
        let w = v - self.contact.gain(v) * self.f(x);
        dx[0] = w;
        for i in 0..self.k.len() {
            dx[i + 1] = -x[i + 1] / self.tau[i] + self.k[i] * w;
        }
    }

    /// Exact solve of x = r + η·(A(v)x + b v): each branch is eliminated in terms of ż, leaving
    /// one scalar equation whose denominator 1 + a·E is ≥ 1 for every η ≥ 0 and every v.
    fn solve_stage(&self, v: f64, eta: f64, r: &[f64], x: &mut [f64]) {
        let a = self.contact.gain(v);
        let mut s_r = self.k0 * r[0];
        let mut e = self.k0;
        for i in 0..self.k.len() {
            let d = self.tau[i] / (self.tau[i] + eta);
            s_r += r[i + 1] * d;
            e += self.k[i] * d;
        }
        let w = (v - a * s_r) / (1.0 + a * eta * e);
        x[0] = r[0] + eta * w;
        for i in 0..self.k.len() {
            let d = self.tau[i] / (self.tau[i] + eta);
            x[i + 1] = (r[i + 1] + eta * self.k[i] * w) * d;
        }
    }

    fn output(&self, _v: f64, x: &[f64]) -> f64 {
        self.contact.p * self.f(x)
    }

    fn rate_bound(&self, v: f64) -> f64 {
        self.contact.gain(v) * self.k_total + self.inv_tau_max
    }
}

impl Passive for Gm {
    fn storage(&self, x: &[f64]) -> f64 {
        let p = self.contact.p;
        let mut s = 0.5 * p * self.k0 * x[0] * x[0];
        for i in 0..self.k.len() {
            s += 0.5 * p * x[i + 1] * x[i + 1] / self.k[i];
        }
        s
    }

    fn dissipation(&self, v: f64, x: &[f64]) -> f64 {
        let p = self.contact.p;
        let f = self.f(x);
        let mut d = p * self.contact.gain(v) * f * f;
        for i in 0..self.k.len() {
            d += p * x[i + 1] * x[i + 1] / (self.tau[i] * self.k[i]);
        }
        d
    }
}

super::impl_friction_model!(Gm, INFO);
