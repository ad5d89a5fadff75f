//! The scenario schema: one typed description of what to run, printed and parsed as a query string.
//!
//! The page and the CLI both go through this module, so it is the single source of truth for
//! parameter names (keys), defaults and ranges.

use crate::params::ParamSpec;

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
