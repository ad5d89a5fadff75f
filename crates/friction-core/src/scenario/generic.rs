//! The part of a scenario for the generic model-driven views (`view=curve|explorer|stickslip`):
//! a [`ViewDef`], one or more registry models (`model=a,b,c`) and one value per parameter key.
//!
//! A key shared by several selected models (e.g. `mus`) takes one value for all of them; a view
//! parameter with the same key as a model parameter drives the models too (see [`ViewDef`]).
//! Unset keys keep each model's own default.

use std::collections::BTreeMap;

use super::{Control, ControlKind, ViewDef};
use crate::model::{self, FrictionModel, ModelEntry};
use crate::params::{fmt_num, ParamError, ParamSpec};

/// The generic views this build knows.
pub static MODEL_VIEWS: &[&ViewDef] = &[
    &crate::experiments::curve::CURVE_VIEW,
    &crate::experiments::curve::EXPLORER_VIEW,
    &crate::experiments::stickslip::STICKSLIP_VIEW,
];

/// Selected models and explicitly set values of a generic view.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct Generic {
    /// Registry ids; empty means the default (the first registry model).
    pub models: Vec<&'static str>,
    /// Explicit values that differ from their defaults.
    pub values: BTreeMap<&'static str, f64>,
}

impl Generic {
    pub fn entries(&self) -> Vec<&'static ModelEntry> {
        if self.models.is_empty() {
            model::registry().take(1).collect()
        } else {
            self.models
                .iter()
                .filter_map(|id| model::find(id))
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
                out.extend(e.info.params.iter().filter(|p| p.key == key).copied());
            }
        }
        out
    }

    /// Keys in display order: the view's parameters, then each model's, without repeats.
    pub fn keys(&self, def: &ViewDef) -> Vec<ParamSpec> {
        let mut out: Vec<ParamSpec> = Vec::new();
        let models = self.entries();
        let all = def.params.iter().chain(
            models
                .iter()
                .flat_map(|e| e.info.params.iter())
                .filter(|p| !def.derived_model_keys.contains(&p.key)),
        );
        for p in all {
            if !out.iter().any(|q| q.key == p.key) {
                out.push(*p);
            }
        }
        out
    }

    pub fn apply(&mut self, def: &ViewDef, key: &str, value: &str) -> Result<(), ParamError> {
        if key == "model" {
            let mut ids = Vec::new();
            for id in value.split(',').map(str::trim) {
                let e = model::find(id).ok_or_else(|| {
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
            return Ok(());
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

    pub fn normalize(&mut self, def: &ViewDef) {
        if self.models.len() == 1
            && self.entries().first().map(|e| e.info.id)
                == model::registry().next().map(|e| e.info.id)
        {
            self.models.clear();
        }
        let keys: Vec<&'static str> = self.values.keys().copied().collect();
        for k in keys {
            let specs = self.specs(def, k);
            let x = self.values[k];
            if specs.is_empty() || specs.iter().all(|s| s.default == x) {
                self.values.remove(k);
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
                    self.value(p)
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
            .map(|e| (e.build)(&self.model_values(def, e, derived)))
            .collect()
    }

    pub fn get(&self, def: &ViewDef, key: &str) -> Option<String> {
        if key == "model" {
            let ids: Vec<&str> = self.entries().iter().map(|e| e.info.id).collect();
            return Some(ids.join(","));
        }
        let s = *self.specs(def, key).first()?;
        Some(fmt_num(self.value(&s)))
    }

    pub fn print(&self, def: &ViewDef, push: &mut dyn FnMut(&str, String)) {
        if !self.models.is_empty() {
            push("model", self.models.join(","));
        }
        for s in self.keys(def) {
            if let Some(x) = self.values.get(s.key) {
                push(s.key, fmt_num(*x));
            }
        }
    }

    pub fn controls(&self, def: &ViewDef) -> Vec<Control> {
        let mut out = vec![Control {
            key: "model",
            label: if def.max_models > 1 {
                format!("Models (up to {}, comma-separated)", def.max_models)
            } else {
                "Model".into()
            },
            unit: "",
            min: 0.0,
            max: 0.0,
            log: false,
            value: self.get(def, "model").unwrap_or_default(),
            kind: ControlKind::Choice {
                options: model::registry()
                    .map(|e| (e.info.id, e.info.name))
                    .collect(),
            },
            group: "model",
        }];
        for s in self.keys(def) {
            let group = if def.params.iter().any(|p| p.key == s.key) {
                "experiment"
            } else {
                "model"
            };
            let (label, kind) = match crate::params::switch(s.key) {
                Some((label, options)) => (
                    label.to_string(),
                    ControlKind::Choice {
                        options: options.to_vec(),
                    },
                ),
                None => (s.label(), ControlKind::Number),
            };
            out.push(Control {
                key: s.key,
                label,
                unit: s.unit,
                min: s.min,
                max: s.max,
                log: s.log,
                value: fmt_num(self.value(&s)),
                kind,
                group,
            });
        }
        out
    }
}
