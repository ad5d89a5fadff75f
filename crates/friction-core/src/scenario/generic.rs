//! The part of a scenario for the generic model-driven views (`view=curve|explorer|stickslip`):
//! a [`ViewDef`], one or more registry models (`model=a,b,c`) and one value per parameter key.
//!
//! A key shared by several selected models (e.g. `mus`) takes one value for all of them; a view
//! parameter with the same key as a model parameter drives the models too (see [`ViewDef`]).
//! `<model id>.<key>` (e.g. `lugre-rational.sigma0`) sets one model's value over the shared
//! one. Unset keys keep each model's own default. Where the selected models' parameters with a
//! key differ in default, unit or symbol (the bristle model's σ0 is 1e3 N/m, LuGre's 1e5;
//! Specker's v_0 is a transition velocity, Karnopp's a window), the controls offer one field per
//! model under its `<model id>.<key>`, so that every field shows the value its model runs with.
//!
//! A model with per-element list parameters (`registry::lists`: GMS's `ki`, `bi`, `nui`) takes
//! each as a comma-separated list; an unset list is derived by the model from its scalars, and
//! its field shows the derived values. A list equal to what the model would derive is forgotten,
//! as a scalar equal to its default is.
//!
//! Why this file is long (over 600 lines): the rule that makes a key shared or per model runs
//! through parse, print and the controls alike; one file keeps the three in step.

use super::map::Map;
use std::sync::OnceLock;

use super::{Control, ControlKind, Group, Role};
use crate::job::ViewDef;
use crate::model::{FrictionModel, ListParams, ModelEntry};
use crate::params::{fmt_num, ParamError, ParamSpec};
use crate::registry;

/// Selected models and explicitly set values of a generic view.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct Generic {
    /// Registry ids; empty means the first registry model.
    pub models: Vec<&'static str>,
    /// `Some` while the view's example is shown (no `model=` given): `models` are then the
    /// view's [`ViewDef::default_models`] and these its [`ViewDef::default_values`], the
    /// defaults of their keys (not printed in the link). `None` once models are chosen: each
    /// model takes its registry defaults, as a link with `model=` always has.
    pub example: Option<&'static [(&'static str, f64)]>,
    /// Explicit values that differ from their defaults, for every selected model with the key.
    pub values: Map<&'static str, f64>,
    /// Explicit values for one model, `(model id, key)` (query key `<model id>.<key>`), over
    /// `values`; kept only where they differ from what the model would take without them.
    pub own: Map<(&'static str, &'static str), f64>,
    /// Explicit per-element lists of the selected models that have list parameters (GMS's
    /// `ki`, `bi`, `nui`); kept only where they differ from what the model would derive.
    pub lists: Map<&'static str, Vec<f64>>,
}

/// Longest list the page gets a field for: it draws one slider per element (the list keys
/// still take up to the model's own limit in links and on the CLI).
const LIST_FIELD_MAX: usize = 64;

/// `xs` as a query value: comma-separated round-trip numbers.
fn join(xs: &[f64]) -> String {
    xs.iter().map(|x| fmt_num(*x)).collect::<Vec<_>>().join(",")
}

/// Parses a comma-separated list for `spec` (each element in its range), at most `max_len`
/// values; errors name `key` and the offending element.
fn parse_list(
    key: &str,
    spec: &ParamSpec,
    text: &str,
    max_len: usize,
) -> Result<Vec<f64>, ParamError> {
    let mut out = Vec::new();
    for (i, piece) in text.split(',').enumerate() {
        if i >= max_len {
            return Err(ParamError::new(
                key,
                text,
                format!("more than {max_len} values"),
            ));
        }
        match crate::params::parse_f64(piece.trim()).filter(|x| spec.check(*x).is_ok()) {
            Some(x) => out.push(x),
            None => {
                return Err(ParamError::new(
                    key,
                    text,
                    format!(
                        "value {} \"{}\" is not a number in {}",
                        i + 1,
                        piece.trim(),
                        spec.range_text()
                    ),
                ))
            }
        }
    }
    Ok(out)
}

/// `<model id>.<key>` for every registry parameter, built once (controls carry `&'static str`
/// keys).
fn qualified(id: &str, key: &str) -> Option<&'static str> {
    static TABLE: OnceLock<Vec<(&'static str, &'static str, String)>> = OnceLock::new();
    TABLE
        .get_or_init(|| {
            registry::registry()
                .flat_map(|e| {
                    e.info
                        .params
                        .iter()
                        .map(move |p| (e.info.id, p.key, format!("{}.{}", e.info.id, p.key)))
                })
                .collect()
        })
        .iter()
        .find(|(i, k, _)| *i == id && *k == key)
        .map(|(_, _, q)| q.as_str())
}

impl Generic {
    /// The example of view `def`: its default models (the registry's first where it names
    /// none) with its default values.
    pub fn example_of(def: &ViewDef) -> Generic {
        let models = def
            .default_models
            .iter()
            .filter_map(|id| registry::find(id).map(|e| e.info.id))
            .take(def.max_models)
            .collect();
        Generic {
            models,
            example: Some(def.default_values),
            ..Generic::default()
        }
    }

    /// The default of model `id`'s parameter `p`: the example's value where it sets one
    /// (`<id>.<key>` before `<key>`), else the registry's.
    fn default_of(&self, id: &str, p: &ParamSpec) -> f64 {
        let Some(values) = self.example else {
            return p.default;
        };
        values
            .iter()
            .find(|(k, _)| k.split_once('.') == Some((id, p.key)))
            .or_else(|| values.iter().find(|(k, _)| *k == p.key))
            .map_or(p.default, |&(_, x)| x)
    }

    /// Model `e`'s parameter `p` with the default it has in this scenario ([`Self::default_of`]).
    fn spec_of(&self, e: &ModelEntry, p: &ParamSpec) -> ParamSpec {
        ParamSpec {
            default: self.default_of(e.info.id, p),
            ..*p
        }
    }

    /// The selected model with list parameter `key`, its lists and the list's position.
    fn list_spec(&self, key: &str) -> Option<(&'static ModelEntry, &'static ListParams, usize)> {
        self.entries().into_iter().find_map(|e| {
            let l = registry::lists(e.info.id)?;
            let j = l.specs.iter().position(|p| p.key == key)?;
            Some((e, l, j))
        })
    }

    /// The explicit lists for `l`, in its `specs` order (`None`: derived).
    fn explicit_lists(&self, l: &ListParams) -> Vec<Option<&[f64]>> {
        l.specs
            .iter()
            .map(|p| self.lists.get(p.key).map(Vec::as_slice))
            .collect()
    }

    /// The view's derived model values (as `Scenario::derived`), from this body's values.
    fn derived(&self, def: &ViewDef) -> Vec<(&'static str, f64)> {
        let view: Vec<f64> = def.params.iter().map(|p| self.value(p)).collect();
        def.derive.map(|d| d(&view)).unwrap_or_default()
    }

    /// The lists model `e` runs with (explicit or derived); `None` without lists or when the
    /// values do not build.
    fn resolved_lists(&self, def: &ViewDef, e: &ModelEntry) -> Option<Vec<Vec<f64>>> {
        let l = registry::lists(e.info.id)?;
        let values = self.model_values(def, e, &self.derived(def));
        (l.resolve)(&values, &self.explicit_lists(l)).ok()
    }

    /// Sets list `j` of `l` from its text (`key` as given, for errors); empty text unsets it.
    fn apply_list(
        &mut self,
        key: &str,
        l: &'static ListParams,
        j: usize,
        value: &str,
    ) -> Result<(), ParamError> {
        let spec = &l.specs[j];
        if value.trim().is_empty() {
            self.lists.remove(spec.key);
            return Ok(());
        }
        let xs = parse_list(key, spec, value, l.max_len)?;
        self.lists.insert(spec.key, xs);
        Ok(())
    }

    /// Builds the selected model `e` with the scenario's values and lists (`derived`: the
    /// view's derived keys).
    pub fn build_entry(
        &self,
        def: &ViewDef,
        e: &ModelEntry,
        derived: &[(&str, f64)],
    ) -> Result<Box<dyn FrictionModel>, ParamError> {
        let values = self.model_values(def, e, derived);
        match registry::lists(e.info.id) {
            Some(l) if l.specs.iter().any(|p| self.lists.contains_key(p.key)) => {
                (l.build)(&values, &self.explicit_lists(l))
            }
            _ => (e.build)(&values),
        }
    }

    pub fn entries(&self) -> Vec<&'static ModelEntry> {
        if self.models.is_empty() {
            registry::registry().take(1).collect()
        } else {
            self.models
                .iter()
                .filter_map(|id| registry::find(id))
                .collect()
        }
    }

    /// Every spec with this key: the view's first, then the selected models' (not derived).
    fn specs(&self, def: &ViewDef, key: &str) -> Vec<ParamSpec> {
        let mut out: Vec<ParamSpec> = def
            .params
            .iter()
            .filter(|p| p.key == key)
            .copied()
            .collect();
        if !def.derived_model_keys.contains(&key) {
            for e in self.entries() {
                out.extend(
                    e.info
                        .params
                        .iter()
                        .filter(|p| p.key == key)
                        .map(|p| self.spec_of(e, p)),
                );
            }
        }
        out
    }

    /// Whether `key` is set by the view itself or derived by it (then never per model).
    fn view_owned(def: &ViewDef, key: &str) -> bool {
        def.params.iter().any(|p| p.key == key) || def.derived_model_keys.contains(&key)
    }

    /// Whether the selected models' parameters with this key differ in default, unit or symbol
    /// (a different quantity or a different reference value): each model then gets its own
    /// control, `<model id>.<key>`. Ranges alone may differ under one shared control, which
    /// offers their intersection (a shared value is checked against every model anyway).
    fn differs(&self, def: &ViewDef, key: &str) -> bool {
        if Self::view_owned(def, key) {
            return false;
        }
        let specs: Vec<ParamSpec> = self
            .entries()
            .iter()
            .filter_map(|e| {
                let p = e.info.params.iter().find(|p| p.key == key)?;
                Some(self.spec_of(e, p))
            })
            .collect();
        specs.windows(2).any(|w| {
            w[0].default != w[1].default || w[0].unit != w[1].unit || w[0].symbol != w[1].symbol
        })
    }

    /// The selected model `id` and its parameter `key`, if it may be set per model.
    fn own_spec(
        &self,
        def: &ViewDef,
        id: &str,
        key: &str,
    ) -> Option<(&'static ModelEntry, ParamSpec)> {
        if Self::view_owned(def, key) {
            return None;
        }
        let e = self.entries().into_iter().find(|e| e.info.id == id)?;
        let p = e.info.params.iter().find(|p| p.key == key)?;
        Some((e, self.spec_of(e, p)))
    }

    /// What model `e` runs with for its (non-view) parameter `p`.
    fn model_value(&self, e: &ModelEntry, p: &ParamSpec) -> f64 {
        self.own
            .get(&(e.info.id, p.key))
            .or_else(|| self.values.get(p.key))
            .copied()
            .unwrap_or_else(|| self.default_of(e.info.id, p))
    }

    /// Keys in display order: the view's parameters, then each model's, without repeats.
    pub fn keys(&self, def: &ViewDef) -> Vec<ParamSpec> {
        let mut out: Vec<ParamSpec> = Vec::new();
        let models = self.entries();
        let all = def.params.iter().copied().chain(
            models
                .iter()
                .flat_map(|e| e.info.params.iter().map(move |p| self.spec_of(e, p)))
                .filter(|p| !def.derived_model_keys.contains(&p.key)),
        );
        for p in all {
            if !out.iter().any(|q| q.key == p.key) {
                out.push(p);
            }
        }
        out
    }

    pub fn apply(&mut self, def: &ViewDef, key: &str, value: &str) -> Result<(), ParamError> {
        if key == "model" {
            let mut ids = Vec::new();
            for id in value.split(',').map(str::trim) {
                let e = registry::find(id).ok_or_else(|| {
                    ParamError::new(
                        "model",
                        value,
                        format!("unknown model id \"{id}\" (friction-lab --list-models)"),
                    )
                })?;
                if !ids.contains(&e.info.id) {
                    ids.push(e.info.id);
                }
            }
            if ids.is_empty() || ids.len() > def.max_models {
                return Err(ParamError::new(
                    "model",
                    value,
                    format!("view={} takes 1 to {} models", def.name, def.max_models),
                ));
            }
            self.models = ids;
            // chosen models run with their own defaults, as in a link that names them
            self.example = None;
            return Ok(());
        }
        if let Some((id, k)) = key.split_once('.') {
            return self.apply_own(def, key, id, k, value);
        }
        if let Some((_, l, j)) = self.list_spec(key) {
            return self.apply_list(key, l, j, value);
        }
        let specs = self.specs(def, key);
        let Some(first) = specs.first() else {
            let why = if def.derived_model_keys.contains(&key) {
                format!("derived by view={}, not settable", def.name)
            } else {
                format!(
                    "not a parameter of view={} or of the selected models",
                    def.name
                )
            };
            return Err(ParamError::new(key, value, why));
        };
        let x = first.parse(value)?;
        for s in &specs[1..] {
            s.check(x).map_err(|_| ParamError::out_of_range(s, value))?;
        }
        self.values.insert(first.key, x);
        Ok(())
    }

    /// Sets `<id>.<k>` = `value` for one selected model; errors name the whole key.
    fn apply_own(
        &mut self,
        def: &ViewDef,
        key: &str,
        id: &str,
        k: &str,
        value: &str,
    ) -> Result<(), ParamError> {
        let named = |mut e: ParamError| {
            e.key = key.to_string();
            e
        };
        // a list belongs to its one model anyway: `gms.ki` is `ki`
        if let Some((e, l, j)) = self.list_spec(k) {
            if e.info.id == id {
                return self.apply_list(key, l, j, value);
            }
        }
        let Some((e, p)) = self.own_spec(def, id, k) else {
            let ids: Vec<&str> = self.entries().iter().map(|e| e.info.id).collect();
            let why = if Self::view_owned(def, k) {
                format!("{k} is set by view={} for every model: use {k}=", def.name)
            } else if !ids.contains(&id) {
                format!("{id} is not among the selected models: {}", ids.join(","))
            } else {
                format!("{k} is not a parameter of {id}")
            };
            return Err(ParamError::new(key, value, why));
        };
        let x = p.parse(value).map_err(named)?;
        self.own.insert((e.info.id, p.key), x);
        Ok(())
    }

    pub fn normalize(&mut self, def: &ViewDef) {
        let keys: Vec<&'static str> = self.values.keys().copied().collect();
        for k in keys {
            let specs = self.specs(def, k);
            let x = self.values[k];
            if specs.is_empty() || specs.iter().all(|s| s.default == x) {
                self.values.remove(k);
            }
        }
        // After the shared values: a model's own value stays only where it changes something.
        let own: Vec<(&'static str, &'static str)> = self.own.keys().copied().collect();
        for (id, k) in own {
            let x = self.own[&(id, k)];
            let keep = self
                .own_spec(def, id, k)
                .is_some_and(|(_, p)| x != self.values.get(k).copied().unwrap_or(p.default));
            if !keep {
                self.own.remove(&(id, k));
            }
        }
        // Lists last (they derive from the scalars): dropped when no selected model has them or
        // when they equal what the model would derive.
        let keys: Vec<&'static str> = self.lists.keys().copied().collect();
        for k in keys {
            let keep = self.list_spec(k).is_some_and(|(e, l, j)| {
                let values = self.model_values(def, e, &self.derived(def));
                let unset = vec![None; l.specs.len()];
                (l.resolve)(&values, &unset).map_or(true, |d| d[j] != self.lists[k])
            });
            if !keep {
                self.lists.remove(k);
            }
        }
    }

    /// Value for `spec` (the view's value or the model's): explicit, else the spec's default.
    pub fn value(&self, spec: &ParamSpec) -> f64 {
        self.values.get(spec.key).copied().unwrap_or(spec.default)
    }

    /// Values for one model in its `params` order, with the scenario's overrides.
    ///
    /// A key the view declares itself (e.g. the benchmark's `mus`) takes the view's value even
    /// when unset, so the view's default (Table 6.1) drives every model, not each model's own.
    /// Derived keys take their value from `derived` (the model default if absent there).
    pub fn model_values(&self, def: &ViewDef, e: &ModelEntry, derived: &[(&str, f64)]) -> Vec<f64> {
        e.info
            .params
            .iter()
            .map(|p| {
                if def.derived_model_keys.contains(&p.key) {
                    derived
                        .iter()
                        .find(|(k, _)| *k == p.key)
                        .map_or(p.default, |d| d.1)
                } else if let Some(vp) = def.params.iter().find(|q| q.key == p.key) {
                    self.value(vp)
                } else {
                    self.model_value(e, p)
                }
            })
            .collect()
    }

    pub fn build(
        &self,
        def: &ViewDef,
        derived: &[(&str, f64)],
    ) -> Result<Vec<Box<dyn FrictionModel>>, ParamError> {
        self.entries()
            .into_iter()
            .map(|e| self.build_entry(def, e, derived))
            .collect()
    }

    pub fn get(&self, def: &ViewDef, key: &str) -> Option<String> {
        if key == "model" {
            let ids: Vec<&str> = self.entries().iter().map(|e| e.info.id).collect();
            return Some(ids.join(","));
        }
        let (id, k) = key.split_once('.').unwrap_or(("", key));
        if let Some((e, _, j)) = self.list_spec(k) {
            if id.is_empty() || id == e.info.id {
                return Some(join(&self.resolved_lists(def, e)?[j]));
            }
        }
        if let Some((id, k)) = key.split_once('.') {
            let (e, p) = self.own_spec(def, id, k)?;
            return Some(fmt_num(self.model_value(e, &p)));
        }
        let s = *self.specs(def, key).first()?;
        Some(fmt_num(self.value(&s)))
    }

    pub fn print(&self, def: &ViewDef, push: &mut dyn FnMut(&str, String)) {
        if self.example.is_none() {
            push(
                "model",
                self.entries()
                    .iter()
                    .map(|e| e.info.id)
                    .collect::<Vec<_>>()
                    .join(","),
            );
        }
        for s in self.keys(def) {
            if let Some(x) = self.values.get(s.key) {
                push(s.key, fmt_num(*x));
            }
        }
        for e in self.entries() {
            for p in e.info.params {
                if let Some(x) = self.own.get(&(e.info.id, p.key)) {
                    push(&format!("{}.{}", e.info.id, p.key), fmt_num(*x));
                }
            }
        }
        for e in self.entries() {
            for p in registry::lists(e.info.id).map_or(&[][..], |l| l.specs) {
                if let Some(xs) = self.lists.get(p.key) {
                    push(p.key, join(xs));
                }
            }
        }
    }

    pub fn controls(&self, def: &ViewDef) -> Vec<Control> {
        let options: Vec<(&'static str, String)> = registry::registry()
            .map(|e| (e.info.id, e.info.label()))
            .collect();
        let (label, kind) = if def.max_models > 1 {
            (
                format!("Models (up to {})", def.max_models),
                ControlKind::MultiChoice {
                    options,
                    max_len: def.max_models,
                },
            )
        } else {
            ("Model".to_string(), ControlKind::Choice { options })
        };
        let mut out = vec![Control {
            key: "model",
            label,
            unit: "",
            min: 0.0,
            max: 0.0,
            log: false,
            integer: false,
            value: self.get(def, "model").unwrap_or_default(),
            kind,
            group: Group::MODEL,
            role: Role::Plain,
            // the models decide which parameter fields exist
            structural: true,
        }];
        let control = |key: &'static str, s: &ParamSpec, value: f64, prefix: Option<&str>| {
            let group = if def.params.iter().any(|p| p.key == s.key) {
                Group::EXPERIMENT
            } else {
                Group::MODEL
            };
            let (label, kind) = match crate::params::switch(s.key) {
                Some((label, options)) => (
                    label.to_string(),
                    ControlKind::Choice {
                        options: options.iter().map(|(v, l)| (*v, l.to_string())).collect(),
                    },
                ),
                None => (s.label(), ControlKind::Number),
            };
            Control {
                key,
                label: match prefix {
                    Some(m) => format!("{m} — {label}"),
                    None => label,
                },
                unit: s.unit,
                min: s.min,
                max: s.max,
                log: s.log,
                integer: s.integer(),
                value: fmt_num(value),
                kind,
                group,
                role: Role::Plain,
                // a value never changes which fields the selected models have
                structural: false,
            }
        };
        for s in self.keys(def) {
            if !self.differs(def, s.key) {
                let mut c = control(s.key, &s, self.value(&s), None);
                let (lo, hi) = self
                    .specs(def, s.key)
                    .iter()
                    .fold((c.min, c.max), |(lo, hi), o| (lo.max(o.min), hi.min(o.max)));
                // (ranges with nothing in common cannot come from equal defaults; a view's own
                // key keeps its range then, and the check at `apply` names the model)
                if lo <= hi {
                    (c.min, c.max) = (lo, hi);
                }
                out.push(c);
                continue;
            }
            for e in self.entries() {
                if let Some(p) = e.info.params.iter().find(|p| p.key == s.key) {
                    let key = qualified(e.info.id, p.key).unwrap_or(p.key);
                    let mut c = control(key, p, self.model_value(e, p), Some(e.info.short_name()));
                    // the model's own value of a quantity the others also have, under the
                    // model's heading
                    c.group = model_group(e);
                    out.push(c);
                }
            }
        }
        // Per-element lists, showing what the model runs with (derived where unset).
        for e in self.entries() {
            let (Some(l), Some(lists)) = (registry::lists(e.info.id), self.resolved_lists(def, e))
            else {
                continue;
            };
            for (p, xs) in l.specs.iter().zip(&lists) {
                if xs.len() > LIST_FIELD_MAX {
                    continue;
                }
                out.push(Control {
                    key: p.key,
                    label: p.label(),
                    unit: p.unit,
                    min: p.min,
                    max: p.max,
                    log: p.log,
                    integer: p.integer(),
                    value: join(xs),
                    kind: ControlKind::List {
                        max_len: LIST_FIELD_MAX.min(l.max_len),
                        items: (1..=xs.len())
                            .map(|i| format!("{}_{i}", p.symbol.trim_end_matches("_i")))
                            .collect(),
                        entry: p.label().replacen(
                            p.symbol,
                            &format!("{}_1", p.symbol.trim_end_matches("_i")),
                            1,
                        ),
                    },
                    group: model_group(e),
                    role: Role::Plain,
                    // the element count n decides how many entries the lists have
                    structural: false,
                });
            }
        }
        let entries = self.entries();
        if entries.len() > 1 {
            // a key only one of the overlaid models has goes under that model's heading; then
            // the view's keys, the shared ones, and each model's, in model order
            // a view key that drives the models (the explorer's F_N, μ_s, μ_k) is shared too
            for c in out.iter_mut().filter(|c| {
                c.group == Group::EXPERIMENT
                    && entries
                        .iter()
                        .any(|e| e.info.params.iter().any(|p| p.key == c.key))
            }) {
                c.group = Group::SHARED;
            }
            for c in out
                .iter_mut()
                .filter(|c| c.group == Group::MODEL && c.key != "model")
            {
                let owners: Vec<_> = entries
                    .iter()
                    .filter(|e| e.info.params.iter().any(|p| p.key == c.key))
                    .collect();
                c.group = match owners.as_slice() {
                    [only] => model_group(only),
                    _ => Group::SHARED,
                };
            }
            let rank = |c: &Control| match c.group {
                _ if c.key == "model" => 0,
                g if g == Group::EXPERIMENT => 1,
                g if g == Group::SHARED => 2,
                g => 3 + entries.iter().position(|e| e.info.id == g.id).unwrap_or(0),
            };
            out.sort_by_key(rank);
        }
        out
    }
}

/// The heading of one overlaid model's own parameters: its id and short name.
fn model_group(e: &ModelEntry) -> Group {
    Group {
        id: e.info.id,
        label: e.info.short_name(),
    }
}
