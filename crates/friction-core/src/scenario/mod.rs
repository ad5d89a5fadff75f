//! The scenario schema: one typed description of what to run, printed and parsed as a query string.
//!
//! The page and the CLI both go through this module, so it is the single source of truth for
//! parameter names (keys), defaults and ranges.
//!
//! Query-string rules:
//! * optional leading `?`, `&`-separated `key=value` pairs, `+` and percent-decoding;
//! * `v=1` is the schema version (printed first; any other version is an error);
//! * a key given twice is an error (the lenient parser reports it and uses the last value);
//! * keys that do not apply to the chosen view or model are errors, and so are unknown keys;
//! * lists (`k`, `tau`, `c`) must have exactly `n` entries, `freqs` 1..=7;
//! * `sigma0`, `sigma1`, `gamma1` are the alternative input of the n = 1 GM/GKV models by the
//!   differential form (5); they exclude `k0`, `k`, `tau` and `c` in the same query;
//! * printing omits every value equal to its default, so `Scenario::default()` prints `v=1`.
//!
//! Defaults depend on the view and model (e.g. `n` is 1 for the hysteresis loops and 3 for the
//! relaxation figure; the GKV stiffnesses are Table I mapped through FRBD.md §5). A value that
//! was never set follows the defaults when the view, model or `n` changes.

mod generic;
pub mod query;

use generic::Generic;
pub use generic::MODEL_VIEWS;

use std::collections::BTreeMap;

use crate::experiments::hysteresis::{self, FreqUnit, HysteresisConfig};
use crate::experiments::relaxation::{self, RelaxationConfig};
use crate::experiments::robot_arm::{self, Arm};
use crate::frbd::{self, spec, Contact, Frbd, Kind};
use crate::params::{fmt_num, ParamError, ParamSpec};

/// A view that runs registry models (static, dynamic, FrBD) through one experiment.
///
/// The view's own parameters sit beside the selected models' parameters in the query string.
/// When a view parameter has the same key as a model parameter (e.g. the stick-slip benchmark's
/// `mus`), the view's value is passed to the model, so the benchmark's μ_s drives every model.
#[derive(Debug, Clone, Copy)]
pub struct ViewDef {
    /// Stable value of the `view=` key, e.g. `"stickslip"`.
    pub name: &'static str,
    /// Human title, e.g. `"Rabinowicz stick-slip benchmark"`.
    pub title: &'static str,
    /// The view's own parameters (ranges, defaults), in display order.
    pub params: &'static [ParamSpec],
    /// How many models can be overlaid (`model=a,b,c`), at least 1.
    pub max_models: usize,
    /// Model parameter keys the view derives itself (e.g. the normal force `fn` = m·g in the
    /// benchmark); they are neither shown nor accepted in the query string for this view.
    pub derived_model_keys: &'static [&'static str],
}

/// Schema version printed as `v=1`.
pub const VERSION: &str = "1";
/// Largest `n` the query string accepts (the page offers 0..=[`PAGE_MAX_N`]).
pub const MAX_N: usize = 10;
/// Largest `n` the page's control offers.
pub const PAGE_MAX_N: usize = 5;

/// The views of this schema: the two FrBD figures, and the generic model-driven views
/// (`curve`, `explorer`, `stickslip`) defined by a [`ViewDef`] listed in [`MODEL_VIEWS`].
#[derive(Debug, Clone, Copy)]
pub enum View {
    /// Fig. 3: hysteresis loops at several frequencies.
    Hysteresis,
    /// Fig. 4: relaxation at constant velocity for orders 1..n.
    Relaxation,
    /// §IV-B: tracking control of a robot joint with FrBD friction and an observer.
    Robot,
    /// A generic view running registry models (`model=a,b,c` and their parameter keys).
    Model(&'static ViewDef),
}

impl PartialEq for View {
    fn eq(&self, other: &View) -> bool {
        self.name() == other.name()
    }
}
impl Eq for View {}

impl View {
    /// The FrBD views, in display order.
    pub const ALL: [View; 3] = [View::Hysteresis, View::Relaxation, View::Robot];

    /// Every view this build knows: the FrBD views, then [`MODEL_VIEWS`].
    pub fn all() -> Vec<View> {
        let mut v = View::ALL.to_vec();
        v.extend(model_views().iter().map(|d| View::Model(d)));
        v
    }
    /// Value of `view=`.
    pub fn name(self) -> &'static str {
        match self {
            View::Hysteresis => "hysteresis",
            View::Relaxation => "relaxation",
            View::Robot => "robot",
            View::Model(d) => d.name,
        }
    }
    /// Human title.
    pub fn title(self) -> &'static str {
        match self {
            View::Hysteresis => "Frictional-lag hysteresis (Fig. 3)",
            View::Relaxation => "Relaxation at constant velocity (Fig. 4)",
            View::Robot => "Robot-arm tracking with a friction observer (§IV-B)",
            View::Model(d) => d.title,
        }
    }
    fn from_name(s: &str) -> Option<View> {
        View::all().into_iter().find(|v| v.name() == s)
    }
}

#[cfg(not(test))]
fn model_views() -> &'static [&'static ViewDef] {
    MODEL_VIEWS
}
#[cfg(test)]
fn model_views() -> &'static [&'static ViewDef] {
    tests::TEST_VIEWS
}

/// How the page should render a control.
#[derive(Debug, Clone, PartialEq)]
pub enum ControlKind {
    /// One number in \[min, max\].
    Number,
    /// Comma-separated numbers, each in \[min, max\], at most `max_len` of them.
    List {
        /// Longest allowed list.
        max_len: usize,
    },
    /// One of a fixed set of (value, label) options.
    Choice {
        /// (query value, label) pairs.
        options: Vec<(&'static str, &'static str)>,
    },
}

/// One control the page shows for the current scenario.
#[derive(Debug, Clone, PartialEq)]
pub struct Control {
    /// Query-string key.
    pub key: &'static str,
    /// Label with symbol and unit, e.g. `"Stribeck velocity v_S [m/s]"`.
    pub label: String,
    /// Unit ("" when dimensionless).
    pub unit: &'static str,
    /// Smallest allowed value (per element for lists).
    pub min: f64,
    /// Largest allowed value (per element for lists).
    pub max: f64,
    /// Whether a slider should be logarithmic.
    pub log: bool,
    /// Current value as text (lists comma-separated).
    pub value: String,
    /// Kind of control.
    pub kind: ControlKind,
    /// Group heading ("experiment", "model", "form (5)", "friction law").
    pub group: &'static str,
}

#[derive(Debug, Clone, PartialEq)]
enum Val {
    Num(f64),
    List(Vec<f64>),
}

/// Order of printing, and every key the schema knows besides `v`.
const KEYS: [&str; 37] = [
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
const SIGMA_KEYS: [&str; 3] = ["sigma0", "sigma1", "gamma1"];
const RHEO_KEYS: [&str; 5] = ["k0", "k", "tau", "c", "c0"];

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

/// One typed FrBD scenario: view, model, order and every parameter (see the module docs).
#[derive(Debug, Clone, PartialEq)]
pub struct Scenario {
    view: View,
    model: Kind,
    n: Option<usize>,
    funit: FreqUnit,
    /// (σ0, σ1, γ1) when the n = 1 model is given by the differential form (5).
    sigma: Option<[f64; 3]>,
    /// Explicitly set values that differ from their defaults.
    vals: BTreeMap<&'static str, Val>,
    /// Models and values of a generic view (empty unless `view` is [`View::Model`]).
    generic: Generic,
}

impl Default for Scenario {
    fn default() -> Self {
        Scenario {
            view: View::Hysteresis,
            model: Kind::Gm,
            n: None,
            funit: FreqUnit::Hz,
            sigma: None,
            vals: BTreeMap::new(),
            generic: Generic::default(),
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
        let x = piece
            .trim()
            .parse::<f64>()
            .ok()
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

fn join(xs: &[f64]) -> String {
    xs.iter().map(|x| fmt_num(*x)).collect::<Vec<_>>().join(",")
}

impl Scenario {
    /// Strict parse (CLI): any error makes the whole query invalid; all errors are returned.
    pub fn parse(query: &str) -> Result<Scenario, Vec<ParamError>> {
        let (s, errs) = Scenario::parse_lenient(query);
        if errs.is_empty() {
            Ok(s)
        } else {
            Err(errs)
        }
    }

    /// Lenient parse (page): every bad, unknown or repeated key is reported and keeps its
    /// default (a repeated key uses its last value); the rest applies.
    pub fn parse_lenient(query: &str) -> (Scenario, Vec<ParamError>) {
        let mut errs = Vec::new();
        let mut given: Vec<(String, String)> = Vec::new();
        for (k, v) in query::pairs(query) {
            if let Some(slot) = given.iter_mut().find(|(gk, _)| *gk == k) {
                errs.push(ParamError::new(
                    &k,
                    &v,
                    "given more than once (the last value is used)",
                ));
                slot.1 = v;
            } else {
                given.push((k, v));
            }
        }
        let get = |k: &str| {
            given
                .iter()
                .find(|(gk, _)| gk == k)
                .map(|(_, v)| v.as_str())
        };
        let mut s = Scenario::default();
        if let Some(v) = get("v") {
            if v != VERSION {
                errs.push(ParamError::new(
                    "v",
                    v,
                    "unsupported schema version (this build reads v=1)",
                ));
            }
        }
        for key in ["view", "model", "n", "funit"] {
            if let Some(v) = get(key) {
                if let Err(e) = s.set(key, v) {
                    errs.push(e);
                }
            }
        }
        // (σ0, σ1, γ1) are applied together: one alone may be non-physical with the defaults of
        // the other two while the triple is fine.
        // (generic views pass these keys to their models, e.g. LuGre's σ0)
        let frbd_view = !matches!(s.view, View::Model(_));
        let sig: Vec<(&str, &str)> = SIGMA_KEYS
            .iter()
            .filter(|_| frbd_view)
            .filter_map(|k| get(k).map(|v| (*k, v)))
            .collect();
        let mut skip: Vec<&str> = vec!["v", "view", "model", "n", "funit"];
        if frbd_view {
            skip.extend(SIGMA_KEYS);
        }
        if !sig.is_empty() {
            for rk in RHEO_KEYS {
                if let Some(v) = get(rk) {
                    errs.push(ParamError::new(
                        rk,
                        v,
                        "conflicts with sigma0/sigma1/gamma1: give the rheological parameters \
                         or the form (5), not both",
                    ));
                    skip.push(rk);
                }
            }
            match s.with_sigma(&sig) {
                Ok(t) => s = t,
                Err(mut e) => errs.append(&mut e),
            }
        }
        // Keys for one model (`lugre.sigma0`) after the shared ones: they override a shared
        // value for their model, whatever the order in the link.
        let (own, shared): (Vec<_>, Vec<_>) = given.iter().partition(|(k, _)| k.contains('.'));
        for (k, v) in shared.into_iter().chain(own) {
            if skip.contains(&k.as_str()) {
                continue;
            }
            if let Err(e) = s.set(k, v) {
                errs.push(e);
            }
        }
        (s, errs)
    }

    fn with_sigma(&self, sig: &[(&str, &str)]) -> Result<Scenario, Vec<ParamError>> {
        if let View::Model(d) = self.view {
            let (k, v) = sig[0];
            return Err(vec![ParamError::new(
                k,
                v,
                format!("not used by view={}", d.name),
            )]);
        }
        let mut t = self.clone();
        let mut base = match t.sigma_now() {
            Some(b) => b,
            None => {
                let (k, v) = sig[0];
                return Err(vec![ParamError::new(k, v, t.sigma_unavailable())]);
            }
        };
        let mut errs = Vec::new();
        for (k, v) in sig {
            let sp = match *k {
                "sigma0" => (0, spec::SIGMA0),
                "sigma1" => (1, spec::SIGMA1),
                _ => (2, spec::GAMMA1),
            };
            match sp.1.parse(v) {
                Ok(x) => base[sp.0] = x,
                Err(e) => errs.push(e),
            }
        }
        if !errs.is_empty() {
            return Err(errs);
        }
        t.sigma = Some(base);
        for rk in RHEO_KEYS {
            t.vals.remove(rk);
        }
        t.validate().map_err(|e| vec![e])?;
        Ok(t)
    }

    /// Prints the scenario: `v=1` then every non-default value, in a fixed key order, with
    /// floats in their shortest round-trip form.
    pub fn to_query(&self) -> String {
        let mut out = format!("v={VERSION}");
        let mut push = |k: &str, v: String| {
            out.push('&');
            out.push_str(k);
            out.push('=');
            out.push_str(&query::encode(&v));
        };
        if let View::Model(d) = self.view {
            push("view", d.name.to_string());
            self.generic.print(d, &mut |k, v| push(k, v));
            return out;
        }
        for key in KEYS {
            match key {
                "view" if self.view != View::Hysteresis => push(key, self.view.name().into()),
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
        out
    }

    /// Sets one control from its text; on error `self` is unchanged.
    ///
    /// Changing `view`, `model` or `n` keeps every explicitly set value that still applies and
    /// resizes explicit lists to the new `n` (new entries take their defaults). Setting a
    /// rheological key while (σ0, σ1, γ1) are in use first converts them to k̄0, k̄, τ or c̄.
    pub fn set(&mut self, key: &str, value: &str) -> Result<(), ParamError> {
        let mut t = self.clone();
        t.apply(key, value.trim())?;
        t.normalize();
        t.validate()?;
        *self = t;
        Ok(())
    }

    fn apply(&mut self, key: &str, value: &str) -> Result<(), ParamError> {
        match key {
            "v" if value == VERSION => Ok(()),
            "v" => Err(ParamError::new(
                "v",
                value,
                "unsupported schema version (this build reads v=1)",
            )),
            "view" => {
                let v = View::from_name(value).ok_or_else(|| {
                    let names: Vec<&str> = View::all().iter().map(|v| v.name()).collect();
                    ParamError::new(key, value, format!("allowed: {}", names.join(", ")))
                })?;
                let old = self.clone();
                self.switch_view(v);
                if v == View::Robot && !self.model.has_branches() {
                    // the observer construction covers GM and GKV only
                    self.model = Kind::Gm;
                    self.n = None;
                }
                self.after_structure_change(&old);
                Ok(())
            }
            _ if matches!(self.view, View::Model(_)) => {
                let View::Model(d) = self.view else {
                    return Ok(());
                };
                self.generic.apply(d, key, value)
            }
            "model" => {
                let m = Kind::from_id(value).ok_or_else(|| {
                    ParamError::new(
                        key,
                        value,
                        "allowed: frbd-gm, frbd-gkv, frbd-elastic, frbd-kv",
                    )
                })?;
                if self.view == View::Robot && !m.has_branches() {
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
            "sigma0" | "sigma1" | "gamma1" => {
                *self = self
                    .with_sigma(&[(key, value)])
                    .map_err(|mut e| e.remove(0))?;
                Ok(())
            }
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
    fn after_structure_change(&mut self, old: &Scenario) {
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
    fn normalize(&mut self) {
        if let View::Model(d) = self.view {
            self.generic.normalize(d);
            return;
        }
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
    fn validate(&self) -> Result<(), ParamError> {
        if let View::Model(d) = self.view {
            return self.generic.build(d, &[]).map(|_| ());
        }
        if let Some(Val::List(xs)) = self.vals.get("freqs") {
            let sp = self.freq_spec();
            for x in xs {
                if sp.check(*x).is_err() {
                    return Err(ParamError::new(
                        "freqs",
                        &join(xs),
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
        if self.view == View::Robot {
            return self.robot_config().map(|_| ());
        }
        self.build_model().map(|_| ())
    }

    /// Current value of `key` as text (lists comma-separated), or `None` for an unknown key or
    /// one that does not apply to the current view and model.
    pub fn get(&self, key: &str) -> Option<String> {
        match key {
            "v" => Some(VERSION.into()),
            "view" => Some(self.view.name().into()),
            _ if matches!(self.view, View::Model(_)) => match self.view {
                View::Model(d) => self.generic.get(d, key),
                _ => None,
            },
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

    /// The controls the page shows for the current view and model, in display order.
    pub fn controls(&self) -> Vec<Control> {
        let mut out = Vec::new();
        let choice = |key: &'static str, label: &str, options, group, value: String| Control {
            key,
            label: label.into(),
            unit: "",
            min: 0.0,
            max: 0.0,
            log: false,
            value,
            kind: ControlKind::Choice { options },
            group,
        };
        out.push(choice(
            "view",
            "View",
            View::all().iter().map(|v| (v.name(), v.title())).collect(),
            "experiment",
            self.view.name().into(),
        ));
        if let View::Model(d) = self.view {
            out.extend(self.generic.controls(d));
            return out;
        }
        let num = |s: &Scenario, key: &'static str, sp: ParamSpec, group: &'static str| Control {
            key,
            label: sp.label(),
            unit: sp.unit,
            min: sp.min,
            max: sp.max,
            log: sp.log,
            value: s.get(key).unwrap_or_default(),
            kind: if s.list_elem(key).is_some() {
                ControlKind::List {
                    max_len: s.list_len(key).1,
                }
            } else {
                ControlKind::Number
            },
            group,
        };
        match self.view {
            View::Hysteresis => {
                out.push(num(self, "vmean", hysteresis::VMEAN, "experiment"));
                out.push(num(self, "vamp", hysteresis::VAMP, "experiment"));
                out.push(num(self, "freqs", self.freq_spec(), "experiment"));
                out.push(choice(
                    "funit",
                    "Frequency unit",
                    vec![("hz", "f in Hz"), ("rad", "ω in rad/s")],
                    "experiment",
                    self.funit.as_str().into(),
                ));
            }
            View::Relaxation | View::Model(_) => {
                out.push(num(self, "vrel", relaxation::VREL, "experiment"));
                out.push(num(self, "tend", relaxation::TEND, "experiment"));
            }
            View::Robot => {
                out.push(choice(
                    "observer",
                    "Friction observer",
                    vec![("1", "on: F̂ fed forward"), ("0", "off: no compensation")],
                    "experiment",
                    self.get("observer").unwrap_or_default(),
                ));
                out.push(choice(
                    "ref",
                    "Reference q_d(t)",
                    vec![("sine", "sine q_a sin 2πf_d t"), ("step", "set-point q_a")],
                    "experiment",
                    self.get("ref").unwrap_or_default(),
                ));
                let group = |k: &str| match k {
                    "m" | "cv" | "gload" => "arm",
                    "ks" | "kobs" | "lambda" => "controller",
                    "qamp" | "qfreq" => "experiment",
                    _ => "initial state",
                };
                // the reference's own values first, so that "experiment" is one group
                let (exp, rest): (Vec<ParamSpec>, Vec<ParamSpec>) = robot_arm::PARAMS
                    .into_iter()
                    .filter(|sp| !(sp.key == "qfreq" && self.num("ref") == 1.0))
                    .partition(|sp| group(sp.key) == "experiment");
                for sp in exp {
                    out.push(num(self, sp.key, sp, "experiment"));
                }
                out.push(num(self, "tend", robot_arm::TEND, "experiment"));
                for sp in rest {
                    out.push(num(self, sp.key, sp, group(sp.key)));
                }
            }
        }
        let kinds: Vec<Kind> = Kind::ALL
            .into_iter()
            .filter(|k| self.view != View::Robot || k.has_branches())
            .collect();
        out.push(choice(
            "model",
            "Model",
            kinds.iter().map(|k| (k.id(), k.name())).collect(),
            "model",
            self.model.id().into(),
        ));
        if self.model.has_branches() {
            let mut c = num(self, "n", N_SPEC, "model");
            c.max = PAGE_MAX_N as f64;
            out.push(c);
        }
        for k in RHEO_KEYS {
            if self.applies(k).is_ok() {
                let sp = self.list_elem(k).or_else(|| self.num_spec(k));
                if let Some(sp) = sp {
                    let mut c = num(self, k, sp, "model");
                    if self.list_elem(k).is_some() {
                        c.label = format!(
                            "{} {} [{}] (list, one per branch)",
                            sp.name,
                            sp.symbol.replace("_1", "_i"),
                            sp.unit
                        );
                    }
                    out.push(c);
                }
            }
        }
        if self.sigma_unavailable_reason().is_none() {
            for (k, sp) in [
                ("sigma0", spec::SIGMA0),
                ("sigma1", spec::SIGMA1),
                ("gamma1", spec::GAMMA1),
            ] {
                out.push(num(self, k, sp, "form (5)"));
            }
        }
        for sp in spec::CONTACT {
            out.push(num(self, sp.key, sp, "friction law"));
        }
        out
    }

    // ----- typed accessors -----

    /// The view.
    pub fn view(&self) -> View {
        self.view
    }
    /// The model kind.
    pub fn model(&self) -> Kind {
        self.model
    }
    /// Order n (number of branches) in effect.
    pub fn n(&self) -> usize {
        self.n_eff()
    }
    /// Unit of `freqs`.
    pub fn freq_unit(&self) -> FreqUnit {
        self.funit
    }
    /// Excitation frequencies (in [`Scenario::freq_unit`]).
    pub fn freqs(&self) -> Vec<f64> {
        self.list("freqs")
    }
    /// Mean and amplitude of the hysteresis velocity \[m/s\].
    pub fn velocity_mean_amp(&self) -> (f64, f64) {
        (self.num("vmean"), self.num("vamp"))
    }
    /// Relaxation velocity \[m/s\] and end time \[s\].
    pub fn relaxation_v_tend(&self) -> (f64, f64) {
        (self.num("vrel"), self.num("tend"))
    }

    /// Registry models selected in a generic view (empty for the FrBD views).
    pub fn models(&self) -> Vec<&'static crate::model::ModelEntry> {
        match self.view {
            View::Model(_) => self.generic.entries(),
            _ => Vec::new(),
        }
    }

    /// Value of a generic view's own parameter (its default when unset).
    pub fn view_value(&self, key: &str) -> Option<f64> {
        let View::Model(d) = self.view else {
            return None;
        };
        d.params
            .iter()
            .find(|p| p.key == key)
            .map(|p| self.generic.value(p))
    }

    /// Parameter values for one selected model of a generic view, in its `params` order.
    pub fn model_values(&self, e: &crate::model::ModelEntry) -> Vec<f64> {
        self.model_values_derived(e, &[])
    }

    /// As [`Scenario::model_values`], with values for the view's derived keys (e.g. the
    /// benchmark's `fn` = m·g); a derived key missing from `derived` takes the model default.
    pub fn model_values_derived(
        &self,
        e: &crate::model::ModelEntry,
        derived: &[(&str, f64)],
    ) -> Vec<f64> {
        match self.view {
            View::Model(d) => self.generic.model_values(d, e, derived),
            _ => e.info.params.iter().map(|p| p.default).collect(),
        }
    }

    /// Builds the selected models of a generic view with the scenario's values.
    pub fn build_models(&self) -> Result<Vec<Box<dyn crate::model::FrictionModel>>, ParamError> {
        self.build_models_derived(&[])
    }

    /// As [`Scenario::build_models`], with values for the view's derived keys.
    pub fn build_models_derived(
        &self,
        derived: &[(&str, f64)],
    ) -> Result<Vec<Box<dyn crate::model::FrictionModel>>, ParamError> {
        match self.view {
            View::Model(d) => self.generic.build(d, derived),
            _ => Ok(Vec::new()),
        }
    }

    /// Switches the view; values of keys that exist in both views carry over, the rest of
    /// the view being left returns to its defaults (so what is printed is all there is).
    fn switch_view(&mut self, v: View) {
        let was_model = matches!(self.view, View::Model(_));
        match (was_model, v) {
            (false, View::Model(d)) => {
                let mut g = Generic::default();
                for (k, x) in &self.vals {
                    if let Val::Num(x) = x {
                        let _ = g.apply(d, k, &fmt_num(*x));
                    }
                }
                *self = Scenario::default();
                self.generic = g;
            }
            (true, View::Model(d)) => {
                let old = std::mem::take(&mut self.generic);
                self.generic.models = old.models.clone();
                if old.models.len() > d.max_models {
                    self.generic.models.truncate(d.max_models);
                }
                for (k, x) in &old.values {
                    let _ = self.generic.apply(d, k, &fmt_num(*x));
                }
                for ((id, k), x) in &old.own {
                    let _ = self.generic.apply(d, &format!("{id}.{k}"), &fmt_num(*x));
                }
            }
            (true, _) => {
                let old = std::mem::take(&mut self.generic);
                *self = Scenario::default();
                for (k, x) in &old.values {
                    if let Some(sk) = static_key(k) {
                        if self.num_spec(sk).is_some_and(|s| s.check(*x).is_ok()) {
                            self.vals.insert(sk, Val::Num(*x));
                        }
                    }
                }
            }
            (false, _) => {}
        }
        self.view = v;
    }

    /// Contact data (Stribeck law, ε, p).
    pub fn contact(&self) -> Result<Contact, ParamError> {
        let v: Vec<f64> = spec::CONTACT.iter().map(|s| self.num(s.key)).collect();
        Contact::from_values(&v)
    }

    /// The model of order n described by the scenario.
    pub fn build_model(&self) -> Result<Frbd, ParamError> {
        self.build_order(self.n_eff())
    }

    /// The model with the first `m ≤ n` branches (Fig. 4 overlays orders 1..n).
    pub fn build_order(&self, m: usize) -> Result<Frbd, ParamError> {
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

    /// The hysteresis experiment this scenario describes (any view: it uses the velocity and
    /// frequency keys or their defaults).
    pub fn hysteresis_config(&self) -> Result<HysteresisConfig, ParamError> {
        let mut cfg = HysteresisConfig::new(self.build_model()?);
        cfg.v_mean = self.num("vmean");
        cfg.v_amp = self.num("vamp");
        cfg.freqs = self.list("freqs");
        cfg.unit = self.funit;
        Ok(cfg)
    }

    /// The relaxation experiment: orders 1..=n of the model (one curve for n = 0 models).
    pub fn relaxation_config(&self) -> Result<RelaxationConfig, ParamError> {
        let n = self.n_eff();
        let models = if n == 0 {
            vec![(self.model.name().to_string(), self.build_order(0)?)]
        } else {
            (1..=n)
                .map(|m| Ok((format!("n = {m}"), self.build_order(m)?)))
                .collect::<Result<Vec<_>, ParamError>>()?
        };
        Ok(RelaxationConfig {
            models,
            v: self.num("vrel"),
            t_end: self.num("tend"),
            points: relaxation::DEFAULT_POINTS,
        })
    }

    /// The robot experiment: arm, controller and initial state, and the joint-friction model.
    pub fn robot_config(&self) -> Result<(Arm, Frbd), ParamError> {
        let v: Vec<f64> = robot_arm::PARAMS.iter().map(|s| self.num(s.key)).collect();
        let arm = Arm::from_values(
            &v,
            self.num("tend"),
            self.num("ref") == 1.0,
            self.num("observer") == 1.0,
        )?;
        let model = self.build_model()?;
        robot_arm::check_model(&model)?;
        Ok((arm, model))
    }

    // ----- defaults and key metadata -----

    fn default_n(&self) -> usize {
        match (self.model.has_branches(), self.view) {
            (false, _) | (_, View::Model(_)) => 0,
            (true, View::Hysteresis) => 1,
            (true, View::Relaxation) => 3,
            (true, View::Robot) => 1,
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
            "vmean" | "vamp" | "freqs" | "funit" => self.view == View::Hysteresis,
            "vrel" => self.view == View::Relaxation,
            "tend" => matches!(self.view, View::Relaxation | View::Robot),
            _ if ROBOT_KEYS.contains(&key) => self.view == View::Robot,
            _ => true,
        };
        if ok {
            Ok(())
        } else if matches!(key, "k" | "tau" | "c" | "c0") {
            Err(format!("not a parameter of model={}", m.id()))
        } else {
            Err(format!("not used by view={}", self.view.name()))
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

    /// (σ0, σ1, γ1) in effect: the given ones, or the current n = 1 model mapped through §5.
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
            "tend" if self.view == View::Robot => robot_arm::TEND,
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
            View::Relaxation => relaxation::default_tau(i, self.n_eff()),
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

    fn num(&self, key: &str) -> f64 {
        if let (Some(_), "k0") = (self.sigma, key) {
            return self.mapped_rheo().0;
        }
        match self.vals.get(key) {
            Some(Val::Num(x)) => *x,
            _ => self.num_spec(key).map_or(f64::NAN, |s| s.default),
        }
    }

    fn list(&self, key: &str) -> Vec<f64> {
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

#[cfg(test)]
mod tests;
