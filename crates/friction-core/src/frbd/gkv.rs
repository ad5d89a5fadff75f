//! FrBD_{n+1}-GKV (letter eq. 13): a spring k̄0 in series with n Kelvin–Voigt elements.
//!
//! State x = [z, z_1, …, z_n]: total deflection z \[m\] and element deflections z_i \[m\].
//! f = k̄0·(z − Σ z_j), ż = v − a(v)·f, ż_i = (f − k̄_i·z_i)/c̄_i; output F = p·f \[N\].

use super::{check_list, spec, Contact, Passive};
use crate::integrate::linear::LinearModel;
use crate::model::{Category, FrictionModel, ModelInfo};
use crate::params::{ParamError, ParamSpec};

/// Registry description; the scalar parameters describe the n = 1 form (defaults: Table I
/// mapped through the letter's form (5), so the default GKV gives the same loops as the default
/// GM).
pub static INFO: ModelInfo = ModelInfo {
    id: "frbd-gkv",
    name: "FrBD-GKV, generalized Kelvin–Voigt bristle (Romano et al.)",
    category: Category::Frbd,
    provisional: false,
    params: &PARAMS,
};

static PARAMS: [ParamSpec; 9] = [
    spec::K0_GKV,
    spec::K1_GKV,
    spec::C1,
    spec::CONTACT[0],
    spec::CONTACT[1],
    spec::CONTACT[2],
    spec::CONTACT[3],
    spec::CONTACT[4],
    spec::CONTACT[5],
];

/// Registry builder: `[k0, k1, c1, mus, mud, vs, delta, eps, p]`.
pub fn build(v: &[f64]) -> Result<Box<dyn FrictionModel>, ParamError> {
    Ok(Box::new(from_values(v)?))
}

/// The model [`build`] builds, as its own type.
pub fn from_values(v: &[f64]) -> Result<Gkv, ParamError> {
    let v = crate::params::values_or_defaults(&PARAMS, v);
    Gkv::new(Contact::from_values(&v[3..])?, v[0], &[v[1]], &[v[2]])
}

/// Generalized-Kelvin–Voigt FrBD model of any order n ≥ 0.
#[derive(Debug, Clone, PartialEq)]
pub struct Gkv {
    contact: Contact,
    k0: f64,
    k: Vec<f64>,
    c: Vec<f64>,
    /// Σ (k̄0 + k̄_i)/c̄_i \[1/s\]: bounds the elements' share of |λ|max, cached for the stepper.
    el_sum: f64,
}

impl Gkv {
    /// Validated model: `k` = k̄_1..k̄_n \[1/m\], `c` = c̄_1..c̄_n \[s/m\] (same length).
    pub fn new(contact: Contact, k0: f64, k: &[f64], c: &[f64]) -> Result<Gkv, ParamError> {
        spec::K0_GKV.check(k0)?;
        check_list("k", &spec::K1_GKV, k)?;
        check_list("c", &spec::C1, c)?;
        if k.len() != c.len() {
            return Err(ParamError::new(
                "c",
                &c.len().to_string(),
                format!("needs one c̄ per element: {} values", k.len()),
            ));
        }
        Ok(Gkv {
            contact,
            k0,
            k: k.to_vec(),
            c: c.to_vec(),
            el_sum: k.iter().zip(c).map(|(k, c)| (k0 + k) / c).sum(),
        })
    }

    /// Builds the n = 1 model from (σ0, σ1, γ1) of the letter's differential form (5).
    pub fn from_sigma(contact: Contact, s0: f64, s1: f64, g1: f64) -> Result<Gkv, ParamError> {
        let (k0, k1, c1) = super::mapping::gkv_from_sigma(s0, s1, g1)?;
        Gkv::new(contact, k0, &[k1], &[c1])
    }

    /// Number of Kelvin–Voigt elements n.
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
    /// c̄_1..c̄_n \[s/m\].
    pub fn c(&self) -> &[f64] {
        &self.c
    }

    #[inline]
    fn f(&self, x: &[f64]) -> f64 {
        self.k0 * (x[0] - x[1..].iter().sum::<f64>())
    }
}

impl LinearModel for Gkv {
    fn dim(&self) -> usize {
        self.k.len() + 1
    }

    fn rhs(&self, v: f64, x: &[f64], dx: &mut [f64]) {
        let f = self.f(x);
        dx[0] = v - self.contact.gain(v) * f;
        for i in 0..self.k.len() {
            dx[i + 1] = (f - self.k[i] * x[i + 1]) / self.c[i];
        }
    }

    /// Exact solve of x = r + η·(A(v)x + b v): elements are eliminated in terms of f, leaving
    /// one scalar equation with denominator 1 + k̄0·(G + η·a) ≥ 1.
    fn solve_stage(&self, v: f64, eta: f64, r: &[f64], x: &mut [f64]) {
        let a = self.contact.gain(v);
        let mut g = 0.0;
        let mut rr = r[0];
        for i in 0..self.k.len() {
            let den = self.c[i] + eta * self.k[i];
            g += eta / den;
            rr -= r[i + 1] * self.c[i] / den;
        }
        let den = 1.0 + self.k0 * (g + eta * a);
        let f = self.k0 * (rr + eta * v) / den;
        // ż = v − a·f, written without the cancellation of the two large η·a terms (else z
        // would lose k̄0·η·ulp(v) per step when h is large)
        let zd = (v * (1.0 + self.k0 * g) - a * self.k0 * rr) / den;
        x[0] = r[0] + eta * zd;
        for i in 0..self.k.len() {
            x[i + 1] = (r[i + 1] * self.c[i] + eta * f) / (self.c[i] + eta * self.k[i]);
        }
    }

    fn output(&self, _v: f64, x: &[f64]) -> f64 {
        self.contact.p * self.f(x)
    }

    fn rate_bound(&self, v: f64) -> f64 {
        let el = (0..self.k.len()).fold(0.0_f64, |m, i| m.max((self.k0 + self.k[i]) / self.c[i]));
        self.contact.gain(v) * self.k0 + el
    }

    /// |λ|max = max D/(2V) over states; (f − k̄_i z_i)² ≤ (k̄0 + k̄_i)(k̄0 e0² + k̄_i z_i²) bounds
    /// each element's term, and they add up: n equal elements in series relax together at up to
    /// n·(k̄0 + k̄_i)/c̄_i, beyond `rate_bound`'s largest single element.
    fn max_rate(&self, v: f64) -> f64 {
        self.contact.gain(v) * self.k0 + self.el_sum
    }
}

impl Passive for Gkv {
    fn storage(&self, x: &[f64]) -> f64 {
        let p = self.contact.p;
        let e0 = x[0] - x[1..].iter().sum::<f64>();
        let mut s = 0.5 * p * self.k0 * e0 * e0;
        for i in 0..self.k.len() {
            s += 0.5 * p * self.k[i] * x[i + 1] * x[i + 1];
        }
        s
    }

    fn dissipation(&self, v: f64, x: &[f64]) -> f64 {
        let p = self.contact.p;
        let f = self.f(x);
        let mut d = p * self.contact.gain(v) * f * f;
        for i in 0..self.k.len() {
            let zd = (f - self.k[i] * x[i + 1]) / self.c[i];
            d += p * self.c[i] * zd * zd;
        }
        d
    }
}

super::impl_friction_model!(Gkv, INFO);
