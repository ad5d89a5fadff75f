//! The scenario schema: one typed description of what to run, printed and parsed as a query string.
//!
//! The page and the CLI both go through this module, so it is the single source of truth for
//! parameter names (keys), defaults and ranges. A scenario is a view ([`ViewDef`], from
//! `crate::views::ALL`) and the values of its schema: the FrBD letter's (`frbd.rs`) or the
//! registry models' (`generic.rs`). It implements [`Inputs`], from which the view builds its job.
//!
//! Query-string rules:
//! * optional leading `?`, `&`-separated `key=value` pairs, `+` and percent-decoding;
//! * `v=1` is the schema version (printed first; any other version is an error);
//! * a key given twice is an error (the lenient parser reports it and uses the last value);
//! * keys that do not apply to the chosen view or model are errors, and so are unknown keys;
//! * lists (`k`, `tau`, `c`) must have exactly `n` entries, `freqs` 1..=7;
//! * `sigma0`, `sigma1`, `gamma1` are the alternative input of the n = 1 GM/GKV models by the
//!   differential form (5); they exclude `k0`, `k`, `tau` and `c` in the same query;
//! * printing omits every value equal to its default, so `Scenario::default()` prints `v=1`;
//! * a generic view's link without `model=` shows the view's example
//!   (`ViewDef::default_models` with `ViewDef::default_values`), as its tab does, so that
//!   `friction-lab 'view=X'` and the page's `?view=X` agree; a link that names `model=` runs
//!   those models with their registry defaults, as links always have.
//!
//! Why this file is long (over 600 lines): one schema's parse, print and whole-link check, which
//! share the canonical key order and the rules that put keys back; split, each part would re-derive
//! them.

mod control;
mod frbd;
mod generic;
mod map;

pub use control::{Control, ControlKind, Group, Role, SIGMA_TOGGLE};
pub mod query;

use frbd::FrbdScenario;
use generic::Generic;

use crate::experiments::hysteresis::{FreqUnit, HysteresisConfig};
use crate::experiments::relaxation::RelaxationConfig;
use crate::experiments::robot_arm::Arm;
use crate::frbd::{Frbd, Kind};
use crate::job::{BuiltModel, Inputs, Job, Preset, ViewDef, ViewKind};
use crate::model::ModelEntry;
use crate::params::{fmt_num, ParamError};

/// Schema version printed as `v=1`.
pub const VERSION: &str = "1";
/// Largest `n` the query string accepts, and the page's control offers (the range a control
/// shows is the range enforced).
pub const MAX_N: usize = 10;
/// Keys of the FrBD schema given as a triple (the form (5)).
pub(crate) const SIGMA_KEYS: [&str; 3] = ["sigma0", "sigma1", "gamma1"];
/// Keys the form (5) replaces (their controls carry [`Role::Rheo`]).
pub(crate) const RHEO_KEYS: [&str; 5] = ["k0", "k", "tau", "c", "c0"];

/// Keys of a link that set the page's layout and embedding, not the scenario (`embed=1`, the
/// embed strip's `controls=0` and `show=`, the postMessage API's `origin=`, `lesson=1`, an
/// embed's chart `panels=`, the course kit's `lock=`, `hide=` and `theme=`, the fit workspace's
/// query `fit=`): the page reads them itself (`www/app.js` asks for this list) and the CLI runs
/// a link that carries them, saying it ignores them; [`Scenario::parse`] passes over them.
pub const PAGE_KEYS: [&str; 10] = [
    "embed", "controls", "show", "origin", "lesson", "panels", "lock", "hide", "theme", "fit",
];

/// The views the schema knows (the unit tests swap in their own generic view).
#[cfg(not(test))]
fn all_views() -> &'static [&'static ViewDef] {
    crate::views::ALL
}
#[cfg(test)]
fn all_views() -> &'static [&'static ViewDef] {
    tests::TEST_VIEWS
}

/// Every view's name and title, also those this build leaves out (the `view` control's options).
#[cfg(not(test))]
fn view_names() -> &'static [crate::views::ViewName] {
    crate::views::CATALOG
}
#[cfg(test)]
fn view_names() -> Vec<crate::views::ViewName> {
    all_views()
        .iter()
        .map(|v| crate::views::ViewName {
            name: v.name,
            title: v.title,
            models: matches!(v.kind, ViewKind::Models),
            derived: v.derived_model_keys,
            outside: None,
        })
        .collect()
}

/// The values of a scenario, in the schema of its view.
#[derive(Debug, Clone, PartialEq)]
enum Body {
    /// An FrBD view's model, order and values.
    Frbd(FrbdScenario),
    /// A registry-model view's models and values.
    Models(Generic),
}

/// One typed scenario: the view and the values of its schema (see the module docs).
#[derive(Debug, Clone)]
pub struct Scenario {
    view: &'static ViewDef,
    body: Body,
}

impl PartialEq for Scenario {
    fn eq(&self, other: &Scenario) -> bool {
        self.view.name == other.view.name && self.body == other.body
    }
}

impl Default for Scenario {
    fn default() -> Self {
        let view = all_views()[0];
        let mut f = FrbdScenario::default();
        if let ViewKind::Frbd(v) = view.kind {
            f.set_view(v, view.name);
        }
        Scenario {
            view,
            body: Body::Frbd(f),
        }
    }
}

/// The view named `value` in this build, or an error that says which views there are.
fn view_def(value: &str) -> Result<&'static ViewDef, ParamError> {
    all_views()
        .iter()
        .find(|v| v.name == value)
        .ok_or_else(|| {
            if let Some(why) = crate::views::catalog(value).and_then(|v| v.outside) {
                ParamError::new("view", value, why)
            } else if crate::views::left_out(value) {
                // the page loads the module with every view before it gets here
                let runs: Vec<&str> = all_views().iter().map(|v| v.name).collect();
                let runs = runs.join(", ");
                ParamError::new("view", value, format!("not in this build (it runs {runs})"))
            } else {
                let names: Vec<&str> = view_names()
                    .iter()
                    .filter(|v| !v.runs_outside())
                    .map(|v| v.name)
                    .collect();
                ParamError::new("view", value, format!("allowed: {}", names.join(", ")))
            }
        })
        .copied()
}

/// The links that open a model with its values (`model=lugre&mus=0.3&…`, a fit's result) in
/// every view that takes registry models, in the page's order: `(view, link)` with the link a
/// whole query (`v=1&view=curve&model=lugre&mus=0.3&…`). A key the view derives itself (the
/// benchmark's `fn` = m·g) is left out of its link, where it would be refused.
pub fn model_links(model_query: &str) -> Vec<(&'static crate::views::ViewName, String)> {
    let pairs = query::pairs(model_query);
    crate::views::CATALOG
        .iter()
        .filter(|v| v.models)
        .map(|v| {
            let mut link = format!("v={VERSION}&view={}", v.name);
            for (k, val) in pairs
                .iter()
                .filter(|(k, _)| !v.derived.contains(&k.as_str()))
            {
                link.push('&');
                link.push_str(&query::encode(k));
                link.push('=');
                link.push_str(&query::encode(val));
            }
            (v, link)
        })
        .collect()
}

/// Sorts `pairs` by key, stably. An insertion sort: a link has a handful of keys, finding a
/// repeated key is quadratic anyway, and std's sorts cost the page's wasm ~13 KB
/// (bench/results/wasm-size.md).
fn sort_by_key_text(pairs: &mut [(String, String)]) {
    for i in 1..pairs.len() {
        let mut j = i;
        while j > 0 && pairs[j - 1].0 > pairs[j].0 {
            pairs.swap(j - 1, j);
            j -= 1;
        }
    }
}

/// Whether a key as given (`mus`, `lugre.mus`) names the key `k` of a rule.
fn names(given: &str, k: &str) -> bool {
    given == k || given.split_once('.').is_some_and(|(_, own)| own == k)
}

/// The error reported for the given key `k` (value `v`) that the rule `e` put back: the rule,
/// with every other key it involves, quoted where this change gave it, else with the value the
/// rule saw (marked as the default in a link).
fn blame(
    e: &ParamError,
    involved: &[(String, String)],
    k: &str,
    v: &str,
    given: &[(String, String)],
    link: bool,
) -> ParamError {
    let mut others: Vec<(String, String)> = Vec::new();
    for (i, x) in involved {
        if names(k, i) {
            continue;
        }
        let entry = match given.iter().find(|(g, _)| names(g, i)) {
            Some((g, gv)) => (g.clone(), format!("\"{gv}\"")),
            None if link && !x.contains(" (from ") => (i.clone(), format!("{x} (default)")),
            None => (i.clone(), x.clone()),
        };
        if !others.iter().any(|(o, _)| *o == entry.0) {
            others.push(entry);
        }
    }
    let mut out = ParamError::new(k, v, e.reason.clone());
    out.others = others;
    out
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

    /// The scenario a preset of `view` sets, from the view's defaults: its link is
    /// [`Scenario::to_query`] of it (the CLI's `--presets`, the page's preset buttons).
    pub fn of_preset(view: &ViewDef, p: &Preset) -> Result<Scenario, Vec<ParamError>> {
        let mut q = format!("view={}", view.name);
        for (k, v) in &p.query {
            q.push('&');
            q.push_str(&query::encode(k));
            q.push('=');
            q.push_str(&query::encode(v));
        }
        Scenario::parse(&q)
    }

    /// Lenient parse (page): the link applied as one change to the defaults
    /// ([`Scenario::set_all`]'s rules): every bad, unknown or repeated key is reported and keeps
    /// its default (a repeated key uses its last value), every key a rule between several values
    /// had to reset is reported with the rule, and the rest applies. The scenario returned
    /// always builds its job. Page-only keys ([`PAGE_KEYS`]) are passed over.
    pub fn parse_lenient(query: &str) -> (Scenario, Vec<ParamError>) {
        Scenario::default().change(query::pairs(query), true)
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
        match &self.body {
            Body::Frbd(f) => f.print(&mut push),
            Body::Models(g) => {
                push("view", self.view.name.to_string());
                g.print(self.view, &mut push);
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
        let mut errs = self.set_all(&[(key.to_string(), value.to_string())]);
        if errs.is_empty() {
            Ok(())
        } else {
            Err(errs.remove(0))
        }
    }

    /// Sets several keys as one change (the page's presets, the embed API's `set`; a link is
    /// the same from the defaults): every key is applied first, each checked on its own, then
    /// the rules between values are checked against the values this change gives and the
    /// current ones of the keys it leaves out, so the outcome never depends on the order of the
    /// keys. A key refused on its own keeps its current value; where a rule fails, the keys of
    /// this change it involves are put back (the one whose return satisfies the rule, first in
    /// the rule's order, or else all of them), each reported with the rule and the other keys'
    /// values. Returns one error per key not applied; the scenario left builds its job.
    pub fn set_all(&mut self, pairs: &[(String, String)]) -> Vec<ParamError> {
        let (s, errs) = self.change(pairs.to_vec(), false);
        *self = s;
        errs
    }

    /// [`Scenario::set_all`] (`link`: false) and [`Scenario::parse_lenient`] (`link`: true, from
    /// the defaults: `view` keeps the schema's default model, page keys are passed over, values
    /// not given are described as defaults).
    fn change(&self, mut pairs: Vec<(String, String)>, link: bool) -> (Scenario, Vec<ParamError>) {
        let mut errs = Vec::new();
        // the one order everything is applied and reported in, whatever the link's (stable: a
        // repeated key keeps its last value)
        sort_by_key_text(&mut pairs);
        let mut given: Vec<(String, String)> = Vec::new();
        let mut hidden: Vec<(String, String)> = Vec::new();
        for (k, v) in pairs {
            let v = v.trim().to_string();
            if link && PAGE_KEYS.contains(&k.as_str()) {
                continue;
            }
            if k.chars().any(crate::params::invisible) {
                hidden.push((k, v));
                continue;
            }
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
        let mut dropped: Vec<String> = Vec::new();
        let mut resets: Vec<ParamError> = Vec::new();
        // each round puts back at least one key: at most one round per key, and one more
        let (s, key_errs) = loop {
            let (s, key_errs, applied) = self.apply_pairs(&given, &dropped);
            let Err(e) = s.check() else {
                break (s, key_errs);
            };
            let involved = s.involved(&e);
            // the change's keys of the rule, in the rule's order
            let mut cands: Vec<String> = Vec::new();
            for (i, _) in &involved {
                for k in applied.iter().filter(|k| names(k, i)) {
                    if !cands.contains(k) {
                        cands.push(k.clone());
                    }
                }
            }
            let pick: Vec<String> = if cands.is_empty() {
                // a rule none of this change's keys is part of (a model whose defaults do not
                // run in this view): the change's values go back, then its choice of model,
                // then its view
                let tiers: [&dyn Fn(&str) -> bool; 3] = [
                    &|k| !matches!(k, "v" | "view" | "model" | "n" | "funit"),
                    &|k| k != "view",
                    &|_| true,
                ];
                let tier = tiers
                    .iter()
                    .map(|t| applied.iter().filter(|k| t(k)).cloned().collect::<Vec<_>>())
                    .find(|t| !t.is_empty());
                match tier {
                    Some(t) => t,
                    // nothing of the change left to put back: what it started from fails
                    None => {
                        errs.extend(key_errs);
                        errs.extend(resets);
                        errs.push(e);
                        return (s, errs);
                    }
                }
            } else {
                let same_rule = |f: &ParamError| {
                    let (a, b) = (f.keys(), e.keys());
                    a.len() == b.len() && a.iter().all(|k| b.contains(k))
                };
                let one = cands.iter().find(|c| {
                    let mut d = dropped.clone();
                    d.push((*c).clone());
                    let (t, _, _) = self.apply_pairs(&given, &d);
                    t.check().map_or_else(|f| !same_rule(&f), |()| true)
                });
                match one {
                    Some(c) => vec![c.clone()],
                    None => cands.clone(),
                }
            };
            let applied_pairs: Vec<(String, String)> = given
                .iter()
                .filter(|(k, _)| applied.contains(k))
                .cloned()
                .collect();
            for k in &pick {
                let v = given
                    .iter()
                    .find(|(gk, _)| gk == k)
                    .map_or("", |(_, v)| v.as_str());
                resets.push(if cands.contains(k) {
                    blame(&e, &involved, k, v, &applied_pairs, link)
                } else {
                    ParamError::new(k, v, format!("the rest does not run with it: {e}"))
                });
            }
            dropped.extend(pick);
        };
        for (k, v) in hidden {
            let plain: String = k
                .chars()
                .filter(|c| !crate::params::invisible(*c))
                .collect();
            let hint = if !plain.is_empty() && s.get(&plain).is_some() {
                format!("; did you mean {plain}?")
            } else {
                String::new()
            };
            errs.push(ParamError::new(
                &k,
                &v,
                format!(
                    "a key with a control or invisible character (shown %-escaped) is no key \
                     of this view{hint}"
                ),
            ));
        }
        errs.extend(key_errs);
        errs.extend(resets);
        (s, errs)
    }

    /// `self` with the pairs of `given` not in `dropped` applied, each on its own (no rule
    /// between values is checked), in the order: `v`, `view`, the keys that decide which keys
    /// exist (`model`, `n`, `funit`), the shared keys, the per-model ones (`lugre.sigma0`
    /// overrides a shared `sigma0` however the link orders them). Returns the scenario, the
    /// errors of keys refused on their own and the keys applied.
    fn apply_pairs(
        &self,
        given: &[(String, String)],
        dropped: &[String],
    ) -> (Scenario, Vec<ParamError>, Vec<String>) {
        let rank = |k: &str| match k {
            "v" => 0,
            "view" => 1,
            "model" => 2,
            "n" => 3,
            "funit" => 4,
            _ if k.contains('.') => 6,
            _ => 5,
        };
        let kept: Vec<&(String, String)> =
            given.iter().filter(|(k, _)| !dropped.contains(k)).collect();
        // rank by rank, each in the given (key) order
        let live: Vec<&(String, String)> = (0..=6)
            .flat_map(|r| kept.iter().copied().filter(move |(k, _)| rank(k) == r))
            .collect();
        let mut s = self.clone();
        let mut errs = Vec::new();
        let mut applied = Vec::new();
        for (k, v) in &live {
            // the form (5) and the rheological inputs describe the same n = 1 model: one change
            // gives one or the other (which would win would depend on the order), whatever
            // becomes of the form (5)'s keys
            if matches!(s.body, Body::Frbd(_))
                && RHEO_KEYS.contains(&k.as_str())
                && given.iter().any(|(g, _)| SIGMA_KEYS.contains(&g.as_str()))
            {
                errs.push(ParamError::new(
                    k,
                    v,
                    "conflicts with sigma0/sigma1/gamma1: give the rheological parameters \
                     or the form (5), not both",
                ));
                continue;
            }
            let mut t = s.clone();
            let r = if k == "view" {
                view_def(v).map(|d| t.switch_view(d))
            } else {
                t.apply(k, v)
            };
            match r {
                Ok(()) => {
                    s = t;
                    applied.push(k.clone());
                }
                Err(e) => errs.push(e),
            }
        }
        s.normalize();
        (s, errs, applied)
    }

    /// Whether the scenario runs as far as can be known without computing: its models build
    /// and its view's job takes its values (the rules between values: v_min < v_max, μ_s ≥ μ_k).
    fn check(&self) -> Result<(), ParamError> {
        self.validate()?;
        self.job().map(|_| ())
    }

    /// The keys an error is about, each with its value as the rule saw it: the error's own,
    /// and for a key the view derives from its own (the benchmark's `fn` = m·g) those too.
    fn involved(&self, e: &ParamError) -> Vec<(String, String)> {
        let mut out: Vec<(String, String)> = Vec::new();
        let own = std::iter::once((e.key.clone(), e.value.clone())).chain(e.others.clone());
        for (k, x) in own {
            let from = self.derived_from(&k);
            if from.is_empty() {
                out.push((k, x));
            } else {
                out.push((k, format!("{x} (from {})", from.join(", "))));
                for f in from {
                    let x = self.get(f).unwrap_or_default();
                    out.push((f.to_string(), x));
                }
            }
        }
        out
    }

    /// The view's keys a derived model key (`fn` = m·g) depends on: those whose change changes
    /// it (empty for any other key).
    fn derived_from(&self, key: &str) -> Vec<&'static str> {
        let Some(derive) = self.view.derive else {
            return Vec::new();
        };
        if !self.view.derived_model_keys.contains(&key) {
            return Vec::new();
        }
        let base = self.view_values();
        let at = |v: &[f64]| {
            derive(v)
                .into_iter()
                .find(|(k, _)| *k == key)
                .map(|(_, x)| x.to_bits())
        };
        let x0 = at(&base);
        self.view
            .params
            .iter()
            .enumerate()
            .filter(|(i, _)| {
                let mut v = base.clone();
                v[*i] = if v[*i] == 0.0 { 1.0 } else { 2.0 * v[*i] };
                at(&v) != x0
            })
            .map(|(_, p)| p.key)
            .collect()
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
                self.switch_view(view_def(value)?);
                Ok(())
            }
            _ => match &mut self.body {
                Body::Frbd(f) => f.apply(key, value),
                Body::Models(g) => g.apply(self.view, key, value),
            },
        }
    }

    /// Switches the view; values of keys that exist in both views carry over, the rest of
    /// the view being left returns to its defaults (so what is printed is all there is).
    /// Models the user chose carry over; a view left on its example opens on the new view's.
    fn switch_view(&mut self, v: &'static ViewDef) {
        let body = match (&self.body, v.kind) {
            (Body::Frbd(f), ViewKind::Frbd(fv)) => {
                let mut f = f.clone();
                f.set_view(fv, v.name);
                Body::Frbd(f)
            }
            (Body::Frbd(f), ViewKind::Models) => {
                let mut g = Generic::example_of(v);
                for (k, x) in f.scalars() {
                    let _ = g.apply(v, k, &fmt_num(x));
                }
                Body::Models(g)
            }
            (Body::Models(old), ViewKind::Models) => {
                let mut g = if old.example.is_some() {
                    Generic::example_of(v)
                } else {
                    let mut models = old.models.clone();
                    models.truncate(v.max_models);
                    Generic {
                        models,
                        ..Generic::default()
                    }
                };
                for (k, x) in &old.values {
                    let _ = g.apply(v, k, &fmt_num(*x));
                }
                for ((id, k), x) in &old.own {
                    let _ = g.apply(v, &format!("{id}.{k}"), &fmt_num(*x));
                }
                g.lists.clone_from(&old.lists);
                Body::Models(g)
            }
            (Body::Models(old), ViewKind::Frbd(fv)) => {
                let mut f = FrbdScenario::default();
                for (k, x) in &old.values {
                    f.carry(k, *x);
                }
                f.set_view(fv, v.name);
                Body::Frbd(f)
            }
        };
        self.view = v;
        self.body = body;
    }

    /// Drops values that no longer apply, resizes lists to n, forgets values equal to defaults.
    fn normalize(&mut self) {
        match &mut self.body {
            Body::Frbd(f) => f.normalize(),
            Body::Models(g) => g.normalize(self.view),
        }
    }

    /// Cross-key validation: element ranges under the current unit and model, and that the
    /// models build with the values the view's job gives them.
    fn validate(&self) -> Result<(), ParamError> {
        match &self.body {
            Body::Frbd(f) => f.validate(),
            Body::Models(g) => g.build(self.view, &self.derived()).map(|_| ()),
        }
    }

    /// The view's derived model values (the benchmark's `fn` = m·g).
    fn derived(&self) -> Vec<(&'static str, f64)> {
        self.view
            .derive
            .map(|d| d(&self.view_values()))
            .unwrap_or_default()
    }

    /// Current value of `key` as text (lists comma-separated), or `None` for an unknown key or
    /// one that does not apply to the current view and model.
    pub fn get(&self, key: &str) -> Option<String> {
        match key {
            "v" => Some(VERSION.into()),
            "view" => Some(self.view.name.into()),
            _ => match &self.body {
                Body::Frbd(f) => f.get(key),
                Body::Models(g) => g.get(self.view, key),
            },
        }
    }

    /// The controls the page shows for the current view and model, in display order.
    pub fn controls(&self) -> Vec<Control> {
        let mut out = vec![Control {
            key: "view",
            label: "View".into(),
            unit: "",
            min: 0.0,
            max: 0.0,
            log: false,
            integer: false,
            value: self.view.name.into(),
            kind: ControlKind::Choice {
                options: view_names()
                    .iter()
                    .map(|v| (v.name, v.title.to_string()))
                    .collect(),
            },
            group: Group::EXPERIMENT,
            role: Role::Plain,
            structural: true,
        }];
        match &self.body {
            Body::Frbd(f) => out.extend(f.controls()),
            Body::Models(g) => out.extend(g.controls(self.view)),
        }
        out
    }

    /// Whether the n = 1 model is given by the form (5), `sigma0`, `sigma1`, `gamma1` (the page
    /// then shows those fields in place of the rheological ones).
    pub fn uses_sigma_form(&self) -> bool {
        match &self.body {
            Body::Frbd(f) => f.uses_sigma_form(),
            Body::Models(_) => false,
        }
    }

    /// The same view and model choice with every other value at its default (the page's
    /// "Reset to paper defaults"; the view's example where it is shown).
    pub fn defaults(&self) -> Scenario {
        let mut q = format!("v={VERSION}&view={}", self.view.name);
        if !self.on_example() {
            if let Some(m) = self.get("model") {
                q.push_str("&model=");
                q.push_str(&m);
            }
        }
        Scenario::parse_lenient(&q).0
    }

    /// Whether a registry-model view shows its example (no models chosen, no `model=` in the
    /// link): its [`ViewDef::default_models`] with their [`ViewDef::default_values`].
    pub fn on_example(&self) -> bool {
        matches!(&self.body, Body::Models(g) if g.example.is_some())
    }

    /// The view.
    pub fn view(&self) -> &'static ViewDef {
        self.view
    }

    /// The view's job for these values (nothing is computed until it is advanced).
    pub fn job(&self) -> Result<Box<dyn Job>, ParamError> {
        (self.view.job)(self)
    }

    /// The FrBD model kind (FrBD views; frbd-gm elsewhere).
    pub fn model(&self) -> Kind {
        match &self.body {
            Body::Frbd(f) => f.model(),
            Body::Models(_) => Kind::Gm,
        }
    }

    /// Order n (number of branches) in effect (FrBD views; 0 elsewhere).
    pub fn n(&self) -> usize {
        self.order()
    }

    /// Registry models selected in a registry-model view (empty for the FrBD views).
    pub fn models(&self) -> Vec<&'static ModelEntry> {
        match &self.body {
            Body::Models(g) => g.entries(),
            Body::Frbd(_) => Vec::new(),
        }
    }

    /// Value of a registry-model view's own parameter (its default when unset).
    pub fn view_value(&self, key: &str) -> Option<f64> {
        let Body::Models(g) = &self.body else {
            return None;
        };
        self.view
            .params
            .iter()
            .find(|p| p.key == key)
            .map(|p| g.value(p))
    }

    /// Parameter values for one selected model, in its `params` order.
    pub fn model_values(&self, e: &ModelEntry) -> Vec<f64> {
        self.model_values_derived(e, &[])
    }

    /// As [`Scenario::model_values`], with values for the view's derived keys (e.g. the
    /// benchmark's `fn` = m·g); a derived key missing from `derived` takes the model default.
    pub fn model_values_derived(&self, e: &ModelEntry, derived: &[(&str, f64)]) -> Vec<f64> {
        match &self.body {
            Body::Models(g) => g.model_values(self.view, e, derived),
            Body::Frbd(_) => e.info.params.iter().map(|p| p.default).collect(),
        }
    }

    /// The selected models, each built once with the scenario's and the view's values.
    pub fn build_models(&self) -> Result<Vec<BuiltModel>, ParamError> {
        let Body::Models(g) = &self.body else {
            return Ok(Vec::new());
        };
        let derived = self.derived();
        g.entries()
            .into_iter()
            .map(|e| Ok((e, g.build_entry(self.view, e, &derived)?)))
            .collect()
    }

    /// The FrBD model of order n described by the scenario.
    pub fn build_model(&self) -> Result<Frbd, ParamError> {
        self.frbd(self.order())
    }

    /// The hysteresis experiment this scenario describes (any FrBD view).
    pub fn hysteresis_config(&self) -> Result<HysteresisConfig, ParamError> {
        crate::views::hysteresis::config(self)
    }

    /// The relaxation experiment: orders 1..=n of the model (one curve for n = 0 models).
    pub fn relaxation_config(&self) -> Result<RelaxationConfig, ParamError> {
        crate::views::relaxation::config(self)
    }

    /// The robot experiment: arm, controller and initial state, and the joint-friction model.
    pub fn robot_config(&self) -> Result<(Arm, Frbd), ParamError> {
        crate::views::robot::config(self)
    }
}

impl Inputs for Scenario {
    fn num(&self, key: &str) -> f64 {
        match &self.body {
            Body::Frbd(f) => f.num(key),
            Body::Models(_) => self.view_value(key).unwrap_or(f64::NAN),
        }
    }
    fn list(&self, key: &str) -> Vec<f64> {
        match &self.body {
            Body::Frbd(f) => f.list(key),
            Body::Models(_) => Vec::new(),
        }
    }
    fn freq_unit(&self) -> FreqUnit {
        match &self.body {
            Body::Frbd(f) => f.freq_unit(),
            Body::Models(_) => FreqUnit::Hz,
        }
    }
    fn frbd_kind(&self) -> Kind {
        self.model()
    }
    fn order(&self) -> usize {
        match &self.body {
            Body::Frbd(f) => f.n(),
            Body::Models(_) => 0,
        }
    }
    fn frbd(&self, m: usize) -> Result<Frbd, ParamError> {
        match &self.body {
            Body::Frbd(f) => f.build_order(m),
            Body::Models(_) => Err(ParamError::new("view", self.view.name, "not an FrBD view")),
        }
    }
    fn view_values(&self) -> Vec<f64> {
        match &self.body {
            Body::Models(g) => self.view.params.iter().map(|p| g.value(p)).collect(),
            Body::Frbd(_) => Vec::new(),
        }
    }
    fn build_models(&self) -> Result<Vec<BuiltModel>, ParamError> {
        Scenario::build_models(self)
    }
    fn model_values(&self) -> Vec<Vec<f64>> {
        let Body::Models(g) = &self.body else {
            return Vec::new();
        };
        let derived = self.derived();
        g.entries()
            .into_iter()
            .map(|e| g.model_values(self.view, e, &derived))
            .collect()
    }
}

#[cfg(test)]
mod tests;
