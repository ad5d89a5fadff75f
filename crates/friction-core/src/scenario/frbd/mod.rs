//! The FrBD letter's schema (`view=hysteresis|relaxation|robot`): model `frbd-gm|frbd-gkv|
//! frbd-elastic|frbd-kv`, order `n`, branch lists (`k`, `tau`, `c`), the alternative input by the
//! differential form (5) (`sigma0`, `sigma1`, `gamma1`, n = 1 only), the contact keys, and each
//! view's own keys (loop velocity and frequencies, relaxation velocity, the robot's arm and
//! controller).
//!
//! Defaults depend on the view and model (e.g. `n` is 1 for the hysteresis loops and 3 for the
//! relaxation figure; the GKV stiffnesses are Table I mapped through the letter's form (5)). A
//! value that was never set follows the defaults when the view, model or `n` changes.
//!
//! Why this file is long (over 600 lines): the FrBD letter's keys, each with its parse, print,
//! range and control side by side, so that a key's rules are read in one place.

use super::map::Map;

mod controls;

use super::{MAX_N, RHEO_KEYS, SIGMA_KEYS};
use crate::experiments::hysteresis::{self, FreqUnit};
use crate::experiments::relaxation;
use crate::experiments::robot_arm;
use crate::frbd::{self, spec, Contact, Frbd, Kind};
use crate::job::FrbdView;
use crate::params::{fmt_num, ParamError, ParamSpec};

#[derive(Debug, Clone, PartialEq)]
enum Val {
    Num(f64),
    List(Vec<f64>),
}

/// Order of printing, and every key the schema knows besides `v`.
pub(crate) const KEYS: [&str; 37] = [
    "view", "model", "n", "k0", "k", "tau", "c", "c0", "sigma0", "sigma1", "gamma1", "mus", "mud",
    "vs", "delta", "eps", "p", "vmean", "vamp", "freqs", "funit", "vrel", "tend", "observer",
    "ref", "m", "cv", "gload", "ks", "kobs", "lambda", "qamp", "qfreq", "q0", "dq0", "z0", "zhat0",
];
/// Keys of the robot view besides `tend`: its two switches, then [`robot_arm::PARAMS`].
const ROBOT_KEYS: [&str; 14] = [
    "observer", "ref", "m", "cv", "gload", "ks", "kobs", "lambda", "qamp", "qfreq", "q0", "dq0",
    "z0", "zhat0",
];
/// `observer=0|1`: whether the friction estimate F̂ is fed forward (stored as 0/1).
const OBSERVER_SPEC: ParamSpec = ParamSpec {
    key: "observer",
    name: "Friction observer",
    symbol: "",
    unit: "",
    default: 1.0,
    min: 0.0,
    max: 1.0,
    log: false,
};
/// `ref=sine|step`: the reference trajectory (stored as 0 = sine, 1 = step).
const REF_SPEC: ParamSpec = ParamSpec {
    key: "ref",
    name: "Reference",
    symbol: "",
    unit: "",
    default: 0.0,
    min: 0.0,
    max: 1.0,
    log: false,
};
/// Query text of a robot switch value (`ref` prints as a word).
fn switch_text(key: &str, x: f64) -> String {
    match key {
        "ref" if x == 1.0 => "step".into(),
        "ref" => "sine".into(),
        _ => fmt_num(x),
    }
}
/// Keys whose value changes the controls: the model and `n` choose the branch lists, `funit`
/// the range and symbol of `freqs`, `freqs` the number of its fields, and `ref` whether the
/// reference has a frequency.
const STRUCTURAL_KEYS: [&str; 5] = ["model", "n", "funit", "freqs", "ref"];

const N_SPEC: ParamSpec = ParamSpec {
    key: "n",
    name: "Number of branches",
    symbol: "n",
    unit: "",
    default: 1.0,
    min: 0.0,
    max: MAX_N as f64,
    log: false,
};

/// One FrBD scenario: view, model, order and every parameter (see the module docs).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct FrbdScenario {
    view: FrbdView,
    /// The view's `view=` name (for messages).
    view_name: &'static str,
    model: Kind,
    n: Option<usize>,
    funit: FreqUnit,
    /// (σ0, σ1, γ1) when the n = 1 model is given by the differential form (5).
    sigma: Option<[f64; 3]>,
    /// Explicitly set values that differ from their defaults.
    vals: Map<&'static str, Val>,
}

impl Default for FrbdScenario {
    fn default() -> Self {
        FrbdScenario {
            view: FrbdView::Hysteresis,
            view_name: "hysteresis",
            model: Kind::Gm,
            n: None,
            funit: FreqUnit::Hz,
            sigma: None,
            vals: Map::new(),
        }
    }
}

fn static_key(key: &str) -> Option<&'static str> {
    KEYS.iter().copied().find(|k| *k == key)
}

fn parse_list(key: &str, text: &str, elem: &ParamSpec) -> Result<Vec<f64>, ParamError> {
    let mut out = Vec::new();
    for (i, piece) in text.split(',').enumerate() {
        if i >= 64 {
            return Err(ParamError::new(key, text, "too many values"));
        }
        let x = crate::params::parse_f64(piece.trim())
            .filter(|x| elem.check(*x).is_ok() && crate::params::representable(piece, *x));
        match x {
            Some(x) => out.push(x),
            None => {
                return Err(ParamError::new(
                    key,
                    text,
                    format!(
                        "value {} \"{}\" is not a number in {} ≤ {key} ≤ {}",
                        i + 1,
                        piece.trim(),
                        fmt_num(elem.min),
                        fmt_num(elem.max)
                    ),
                ))
            }
        }
    }
    Ok(out)
}

pub(crate) fn join(xs: &[f64]) -> String {
    xs.iter().map(|x| fmt_num(*x)).collect::<Vec<_>>().join(",")
}

impl FrbdScenario {
    /// Sets one of (σ0, σ1, γ1) of the form (5), the others kept as they are in effect (given,
    /// or the current n = 1 model mapped); the rheological values give way to the triple. The
    /// triple is checked with the rest of the change (`Scenario::check`): one of the three alone
    /// may be non-physical with the current other two while the three given together are fine.
    fn apply_sigma(&mut self, key: &str, value: &str) -> Result<(), ParamError> {
        let mut base = self
            .sigma_now()
            .ok_or_else(|| ParamError::new(key, value, self.sigma_unavailable()))?;
        let (i, sp) = match key {
            "sigma0" => (0, spec::SIGMA0),
            "sigma1" => (1, spec::SIGMA1),
            _ => (2, spec::GAMMA1),
        };
        base[i] = sp.parse(value)?;
        self.sigma = Some(base);
        for rk in RHEO_KEYS {
            self.vals.remove(rk);
        }
        Ok(())
    }

    /// Prints every non-default value in a fixed key order (floats in their shortest
    /// round-trip form) through `push`; `view` only where it is not the default view.
    pub(crate) fn print(&self, push: &mut dyn FnMut(&str, String)) {
        for key in KEYS {
            match key {
                "view" if self.view != FrbdView::Hysteresis => push(key, self.view_name.into()),
                "model" if self.model != Kind::Gm => push(key, self.model.id().into()),
                "n" => {
                    if let Some(n) = self.n {
                        push(key, n.to_string())
                    }
                }
                "funit" if self.funit != FreqUnit::Hz => push(key, self.funit.as_str().into()),
                "sigma0" | "sigma1" | "gamma1" => {
                    if let Some(sg) = self.sigma {
                        let i = SIGMA_KEYS.iter().position(|k| *k == key).unwrap_or(0);
                        push(key, fmt_num(sg[i]));
                    }
                }
                "observer" | "ref" => {
                    if let Some(Val::Num(x)) = self.vals.get(key) {
                        push(key, switch_text(key, *x));
                    }
                }
                _ => match self.vals.get(key) {
                    Some(Val::Num(x)) => push(key, fmt_num(*x)),
                    Some(Val::List(xs)) => push(key, join(xs)),
                    None => {}
                },
            }
        }
    }

    /// Applies one key (not `v` or `view`, which the scenario handles); on error the caller
    /// drops the copy it applied to.
    pub(crate) fn apply(&mut self, key: &str, value: &str) -> Result<(), ParamError> {
        match key {
            "model" => {
                let m = Kind::from_id(value).ok_or_else(|| {
                    ParamError::new(
                        key,
                        value,
                        "allowed: frbd-gm, frbd-gkv, frbd-elastic, frbd-kv",
                    )
                })?;
                if self.view == FrbdView::Robot && !m.has_branches() {
                    return Err(ParamError::new(
                        key,
                        value,
                        "view=robot allowed: frbd-gm, frbd-gkv (the letter's plant and its GKV \
                         analogue)",
                    ));
                }
                let old = self.clone();
                self.model = m;
                if !m.has_branches() {
                    self.n = None;
                }
                self.after_structure_change(&old);
                Ok(())
            }
            "n" => {
                let n = value
                    .parse::<usize>()
                    .ok()
                    .filter(|n| *n <= MAX_N)
                    .ok_or_else(|| {
                        ParamError::new(key, value, format!("allowed: integer 0 ≤ n ≤ {MAX_N}"))
                    })?;
                if !self.model.has_branches() && n != 0 {
                    return Err(ParamError::new(
                        key,
                        value,
                        format!("{} has no branches: n must be 0", self.model.id()),
                    ));
                }
                let old = self.clone();
                self.n = Some(n);
                self.after_structure_change(&old);
                Ok(())
            }
            "funit" => {
                self.funit = FreqUnit::parse(value)
                    .ok_or_else(|| ParamError::new(key, value, "allowed: hz, rad"))?;
                Ok(())
            }
            "sigma0" | "sigma1" | "gamma1" => self.apply_sigma(key, value),
            _ => {
                let k = static_key(key).ok_or_else(|| {
                    ParamError::new(
                        key,
                        value,
                        format!("unknown key; known keys: v, {}", KEYS.join(", ")),
                    )
                })?;
                self.applies(k)
                    .map_err(|why| ParamError::new(k, value, why))?;
                if self.sigma.is_some() && RHEO_KEYS.contains(&k) {
                    self.materialize_sigma();
                }
                if k == "observer" || k == "ref" {
                    let x = match (k, value) {
                        ("observer", "0") | ("ref", "sine") => 0.0,
                        ("observer", "1") | ("ref", "step") => 1.0,
                        ("observer", _) => {
                            return Err(ParamError::new(k, value, "allowed: 0 (off), 1 (on)"))
                        }
                        _ => return Err(ParamError::new(k, value, "allowed: sine, step")),
                    };
                    self.vals.insert(k, Val::Num(x));
                } else if let Some(elem) = self.list_elem(k) {
                    let xs = parse_list(k, value, &elem)?;
                    let (lo, hi) = self.list_len(k);
                    if xs.len() < lo || xs.len() > hi {
                        let want = if lo == hi {
                            format!("exactly {lo} (n = {lo})")
                        } else {
                            format!("{lo} to {hi}")
                        };
                        return Err(ParamError::new(
                            k,
                            value,
                            format!("has {} values, needs {want}", xs.len()),
                        ));
                    }
                    self.vals.insert(k, Val::List(xs));
                } else if let Some(sp) = self.num_spec(k) {
                    let x = sp.parse(value)?;
                    self.vals.insert(k, Val::Num(x));
                }
                Ok(())
            }
        }
    }

    /// After view/model/n changed: keep (σ0, σ1, γ1) only where they still apply, otherwise turn
    /// them into the equivalent rheological values of the previous state.
    fn after_structure_change(&mut self, old: &FrbdScenario) {
        if self.sigma.is_some() && self.sigma_unavailable_reason().is_some() {
            self.sigma = None;
            if old.model == self.model {
                self.vals.insert("k0", Val::Num(old.num("k0")));
                self.vals.insert("k", Val::List(old.list("k")));
                let rk = if self.model == Kind::Gkv { "c" } else { "tau" };
                self.vals.insert(rk, Val::List(old.list(rk)));
            }
        }
    }

    fn materialize_sigma(&mut self) {
        if self.sigma.is_some() {
            let k0 = self.num("k0");
            let k = self.list("k");
            let rk = if self.model == Kind::Gkv { "c" } else { "tau" };
            let r = self.list(rk);
            self.sigma = None;
            self.vals.insert("k0", Val::Num(k0));
            self.vals.insert("k", Val::List(k));
            self.vals.insert(rk, Val::List(r));
        }
    }

    /// Drops values that no longer apply, resizes lists to n, forgets values equal to defaults.
    pub(crate) fn normalize(&mut self) {
        if self.n == Some(self.default_n()) {
            self.n = None;
        }
        let keys: Vec<&'static str> = self.vals.keys().copied().collect();
        for k in keys {
            if self.applies(k).is_err() {
                self.vals.remove(k);
                continue;
            }
            let n = self.n_eff();
            let def_list = self.default_list(k);
            match self.vals.get_mut(k) {
                Some(Val::List(xs)) if k != "freqs" => {
                    if xs.len() > n {
                        xs.truncate(n);
                    }
                    while xs.len() < n {
                        xs.push(def_list[xs.len()]);
                    }
                }
                _ => {}
            }
            // a value carried over from another view may lie outside this view's range
            // (relaxation's tend may be shorter than the robot's shortest run)
            if let (Some(Val::Num(x)), Some(sp)) = (self.vals.get(k), self.num_spec(k)) {
                if sp.check(*x).is_err() {
                    self.vals.remove(k);
                    continue;
                }
            }
            let is_default = match self.vals.get(k) {
                Some(Val::List(xs)) => *xs == def_list,
                Some(Val::Num(x)) => self.num_spec(k).is_some_and(|s| s.default == *x),
                None => false,
            };
            if is_default {
                self.vals.remove(k);
            }
        }
    }

    /// Cross-key validation: element ranges under the current unit and model, and that the
    /// models can be built.
    pub(crate) fn validate(&self) -> Result<(), ParamError> {
        if let Some(Val::List(xs)) = self.vals.get("freqs") {
            let sp = self.freq_spec();
            for x in xs {
                if sp.check(*x).is_err() {
                    return Err(ParamError::relation_text(
                        &[("freqs", &join(xs)), ("funit", self.funit.as_str())],
                        format!(
                            "value {} outside {} ≤ freqs ≤ {} ({})",
                            fmt_num(*x),
                            fmt_num(sp.min),
                            fmt_num(sp.max),
                            sp.unit
                        ),
                    ));
                }
            }
        }
        if self.view == FrbdView::Robot {
            let v: Vec<f64> = robot_arm::PARAMS.iter().map(|s| self.num(s.key)).collect();
            robot_arm::Arm::from_values(
                &v,
                self.num("tend"),
                self.num("ref") == 1.0,
                self.num("observer") == 1.0,
            )?;
            return robot_arm::check_model(&self.build_model()?);
        }
        self.build_model().map(|_| ())
    }

    /// Current value of `key` as text (lists comma-separated), or `None` for an unknown key or
    /// one that does not apply to the current view and model.
    pub(crate) fn get(&self, key: &str) -> Option<String> {
        match key {
            "model" => Some(self.model.id().into()),
            "n" => Some(self.n_eff().to_string()),
            "funit" => self
                .applies("funit")
                .ok()
                .map(|_| self.funit.as_str().into()),
            "sigma0" | "sigma1" | "gamma1" => {
                let i = SIGMA_KEYS.iter().position(|k| *k == key)?;
                self.sigma_now().map(|s| fmt_num(s[i]))
            }
            "observer" | "ref" => {
                self.applies(key).ok()?;
                Some(switch_text(key, self.num(key)))
            }
            _ => {
                let k = static_key(key)?;
                self.applies(k).ok()?;
                if self.list_elem(k).is_some() {
                    Some(join(&self.list(k)))
                } else {
                    Some(fmt_num(self.num(k)))
                }
            }
        }
    }

    // ----- typed accessors -----

    /// Whether the n = 1 model is given by (σ0, σ1, γ1).
    pub(crate) fn uses_sigma_form(&self) -> bool {
        self.sigma.is_some()
    }
    /// The model kind.
    pub(crate) fn model(&self) -> Kind {
        self.model
    }
    /// Order n (number of branches) in effect.
    pub(crate) fn n(&self) -> usize {
        self.n_eff()
    }
    /// Unit of `freqs`.
    pub(crate) fn freq_unit(&self) -> FreqUnit {
        self.funit
    }

    /// Switches to another FrBD view: values of keys that exist in both carry over; the robot
    /// view takes only the models with branches.
    pub(crate) fn set_view(&mut self, view: FrbdView, name: &'static str) {
        let old = self.clone();
        self.view = view;
        self.view_name = name;
        if view == FrbdView::Robot && !self.model.has_branches() {
            // the observer construction covers GM and GKV only
            self.model = Kind::Gm;
            self.n = None;
        }
        self.after_structure_change(&old);
    }

    /// Takes over a scalar value from another schema where this one has the key and it is in
    /// range (the rest keeps its default).
    pub(crate) fn carry(&mut self, key: &str, x: f64) {
        if let Some(sk) = static_key(key) {
            if self.num_spec(sk).is_some_and(|s| s.check(x).is_ok()) {
                self.vals.insert(sk, Val::Num(x));
            }
        }
    }

    /// The explicitly set scalar values (for another schema to take over).
    pub(crate) fn scalars(&self) -> Vec<(&'static str, f64)> {
        self.vals
            .iter()
            .filter_map(|(k, v)| match v {
                Val::Num(x) => Some((*k, *x)),
                Val::List(_) => None,
            })
            .collect()
    }

    /// Contact data (Stribeck law, ε, p).
    pub(crate) fn contact(&self) -> Result<Contact, ParamError> {
        let v: Vec<f64> = spec::CONTACT.iter().map(|s| self.num(s.key)).collect();
        Contact::from_values(&v)
    }

    /// The model of order n described by the scenario.
    pub(crate) fn build_model(&self) -> Result<Frbd, ParamError> {
        self.build_order(self.n_eff())
    }

    /// The model with the first `m ≤ n` branches (Fig. 4 overlays orders 1..n).
    pub(crate) fn build_order(&self, m: usize) -> Result<Frbd, ParamError> {
        let c = self.contact()?;
        let m = m.min(self.n_eff());
        let pre = |k: &str| {
            let mut v = self.list(k);
            v.truncate(m);
            v
        };
        Ok(match self.model {
            Kind::Gm => {
                if let (Some([s0, s1, g1]), 1) = (self.sigma, m) {
                    Frbd::Gm(frbd::Gm::from_sigma(c, s0, s1, g1)?)
                } else {
                    Frbd::Gm(frbd::Gm::new(c, self.num("k0"), &pre("k"), &pre("tau"))?)
                }
            }
            Kind::Gkv => {
                if let (Some([s0, s1, g1]), 1) = (self.sigma, m) {
                    Frbd::Gkv(frbd::Gkv::from_sigma(c, s0, s1, g1)?)
                } else {
                    Frbd::Gkv(frbd::Gkv::new(c, self.num("k0"), &pre("k"), &pre("c"))?)
                }
            }
            Kind::Elastic => Frbd::Elastic(frbd::Elastic::new(c, self.num("k0"))?),
            Kind::Kv => Frbd::Kv(frbd::Kv::new(c, self.num("k0"), self.num("c0"))?),
        })
    }

    // ----- defaults and key metadata -----

    fn default_n(&self) -> usize {
        match (self.model.has_branches(), self.view) {
            (false, _) => 0,
            (true, FrbdView::Hysteresis) => 1,
            (true, FrbdView::Relaxation) => 3,
            (true, FrbdView::Robot) => 1,
        }
    }

    fn n_eff(&self) -> usize {
        self.n.unwrap_or_else(|| self.default_n())
    }

    /// Why a key does not apply to the current view and model.
    fn applies(&self, key: &str) -> Result<(), String> {
        let m = self.model;
        let ok = match key {
            "k" => m.has_branches(),
            "tau" => m == Kind::Gm,
            "c" => m == Kind::Gkv,
            "c0" => m == Kind::Kv,
            "vmean" | "vamp" | "freqs" | "funit" => self.view == FrbdView::Hysteresis,
            "vrel" => self.view == FrbdView::Relaxation,
            "tend" => matches!(self.view, FrbdView::Relaxation | FrbdView::Robot),
            _ if ROBOT_KEYS.contains(&key) => self.view == FrbdView::Robot,
            _ => true,
        };
        if ok {
            Ok(())
        } else if matches!(key, "k" | "tau" | "c" | "c0") {
            Err(format!("not a parameter of model={}", m.id()))
        } else {
            Err(format!("not used by view={}", self.view_name))
        }
    }

    fn sigma_unavailable_reason(&self) -> Option<String> {
        if !self.model.has_branches() {
            Some(format!(
                "only for frbd-gm and frbd-gkv with n = 1 (model is {})",
                self.model.id()
            ))
        } else if self.n_eff() != 1 {
            Some(format!(
                "only for n = 1 (n is {}); set n=1 first",
                self.n_eff()
            ))
        } else {
            None
        }
    }

    fn sigma_unavailable(&self) -> String {
        self.sigma_unavailable_reason().unwrap_or_default()
    }

    /// (σ0, σ1, γ1) in effect: the given ones, or the current n = 1 model mapped through form (5).
    fn sigma_now(&self) -> Option<[f64; 3]> {
        if self.sigma_unavailable_reason().is_some() {
            return None;
        }
        if let Some(s) = self.sigma {
            return Some(s);
        }
        let k0 = self.num("k0");
        let k1 = *self.list("k").first()?;
        let (a, b, c) = if self.model == Kind::Gkv {
            frbd::mapping::gkv_to_sigma(k0, k1, *self.list("c").first()?)
        } else {
            frbd::mapping::gm_to_sigma(k0, k1, *self.list("tau").first()?)
        };
        Some([a, b, c])
    }

    fn freq_spec(&self) -> ParamSpec {
        match self.funit {
            FreqUnit::Hz => hysteresis::FREQ_HZ,
            FreqUnit::Rad => hysteresis::FREQ_RAD,
        }
    }

    fn num_spec(&self, key: &str) -> Option<ParamSpec> {
        Some(match key {
            "k0" if self.model == Kind::Gkv => spec::K0_GKV,
            "k0" => spec::K0,
            "c0" => spec::C0,
            "vmean" => hysteresis::VMEAN,
            "vamp" => hysteresis::VAMP,
            "vrel" => relaxation::VREL,
            "tend" if self.view == FrbdView::Robot => robot_arm::TEND,
            "tend" => relaxation::TEND,
            "observer" => OBSERVER_SPEC,
            "ref" => REF_SPEC,
            _ => {
                return spec::CONTACT
                    .iter()
                    .chain(robot_arm::PARAMS.iter())
                    .copied()
                    .find(|s| s.key == key)
            }
        })
    }

    fn list_elem(&self, key: &str) -> Option<ParamSpec> {
        let rename = |mut s: ParamSpec, k: &'static str| {
            s.key = k;
            s
        };
        Some(match key {
            "k" if self.model == Kind::Gkv => rename(spec::K1_GKV, "k"),
            "k" => rename(spec::K1, "k"),
            "tau" => rename(spec::TAU1, "tau"),
            "c" => rename(spec::C1, "c"),
            "freqs" => self.freq_spec(),
            _ => return None,
        })
    }

    fn list_len(&self, key: &str) -> (usize, usize) {
        if key == "freqs" {
            (1, hysteresis::MAX_FREQS)
        } else {
            (self.n_eff(), self.n_eff())
        }
    }

    fn default_tau(&self, i: usize) -> f64 {
        match self.view {
            FrbdView::Relaxation => relaxation::default_tau(i, self.n_eff()),
            _ => spec::GAMMA1_TABLE_I,
        }
    }

    fn default_list(&self, key: &str) -> Vec<f64> {
        let n = self.n_eff();
        match key {
            "k" => vec![self.list_elem("k").map_or(0.0, |s| s.default); n],
            "tau" => (0..n).map(|i| self.default_tau(i)).collect(),
            // the GKV retardation times scale like the GM relaxation times of the same view
            "c" => (0..n)
                .map(|i| spec::GKV_C1_DEFAULT * self.default_tau(i) / spec::GAMMA1_TABLE_I)
                .collect(),
            "freqs" => hysteresis::DEFAULT_FREQS.to_vec(),
            _ => Vec::new(),
        }
    }

    pub(crate) fn num(&self, key: &str) -> f64 {
        if let (Some(_), "k0") = (self.sigma, key) {
            return self.mapped_rheo().0;
        }
        match self.vals.get(key) {
            Some(Val::Num(x)) => *x,
            _ => self.num_spec(key).map_or(f64::NAN, |s| s.default),
        }
    }

    pub(crate) fn list(&self, key: &str) -> Vec<f64> {
        if self.sigma.is_some() && matches!(key, "k" | "tau" | "c") {
            let (_, k1, r1) = self.mapped_rheo();
            return vec![if key == "k" { k1 } else { r1 }];
        }
        match self.vals.get(key) {
            Some(Val::List(xs)) => xs.clone(),
            _ => self.default_list(key),
        }
    }

    /// (k̄0, k̄1, τ1 or c̄1) from (σ0, σ1, γ1); NaN when they are non-physical (then
    /// `build_model` reports why).
    fn mapped_rheo(&self) -> (f64, f64, f64) {
        let Some([s0, s1, g1]) = self.sigma else {
            return (f64::NAN, f64::NAN, f64::NAN);
        };
        let r = if self.model == Kind::Gkv {
            frbd::mapping::gkv_from_sigma(s0, s1, g1)
        } else {
            frbd::mapping::gm_from_sigma(s0, s1, g1)
        };
        r.unwrap_or((f64::NAN, f64::NAN, f64::NAN))
    }
}
