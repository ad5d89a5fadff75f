//! The models a sampled run steps with: one throughout, or rebuilt through the registry entry
//! wherever the record's normal load changes ([`Loaded`]).

use crate::model::{FrictionModel, ModelEntry};
use crate::params::ParamError;

/// A model whose normal load follows the record: its registry entry, its other values and the
/// load at each sample.
#[derive(Clone, Copy)]
pub struct Loaded<'a> {
    /// The model's registry entry (rebuilt through its `build` where the load changes).
    pub entry: &'a ModelEntry,
    /// Every parameter's value in `info.params` order; the load's own value is replaced.
    pub values: &'a [f64],
    /// Index of the normal-load parameter (F_N, `fn`, or FrBD's `p`) in `values`.
    pub index: usize,
    /// Normal load at each sample \[N\].
    pub normal: &'a [f64],
}

/// The models a run uses: for each interval the one it is stepped with, for each sample the
/// one whose force is reported there.
pub(super) trait Models {
    /// Makes interval k's model current; true when it differs from interval k − 1's.
    fn to_interval(&mut self, k: usize) -> Result<bool, ParamError>;
    /// Makes sample k's model current.
    fn to_sample(&mut self, k: usize) -> Result<(), ParamError>;
    /// The current interval's model.
    fn interval(&self) -> &dyn FrictionModel;
    /// The model of the interval before the current one (the current one at the start).
    fn previous(&self) -> &dyn FrictionModel;
    /// The current sample's model.
    fn sample(&self) -> &dyn FrictionModel;
}

/// One model throughout.
pub(super) struct Fixed<'m>(pub(super) &'m dyn FrictionModel);

impl Models for Fixed<'_> {
    fn to_interval(&mut self, _k: usize) -> Result<bool, ParamError> {
        Ok(false)
    }
    fn to_sample(&mut self, _k: usize) -> Result<(), ParamError> {
        Ok(())
    }
    fn interval(&self) -> &dyn FrictionModel {
        self.0
    }
    fn previous(&self) -> &dyn FrictionModel {
        self.0
    }
    fn sample(&self) -> &dyn FrictionModel {
        self.0
    }
}

/// A model built at the load it was built for \[N\].
type AtLoad = (f64, Box<dyn FrictionModel>);

/// Models rebuilt where the load changes (a constant load builds each role once per run).
pub(super) struct Rebuilt<'a> {
    load: Loaded<'a>,
    values: Vec<f64>,
    over: AtLoad,
    prev: Option<AtLoad>,
    at: AtLoad,
}

impl<'a> Rebuilt<'a> {
    pub(super) fn new(load: Loaded<'a>) -> Result<Rebuilt<'a>, ParamError> {
        let mut values = load.values.to_vec();
        let n0 = load
            .normal
            .first()
            .copied()
            .unwrap_or(load.values[load.index]);
        let n1 = load.normal.get(1).copied().unwrap_or(n0);
        let mut build = |fnv: f64| -> Result<AtLoad, ParamError> {
            values[load.index] = fnv;
            Ok((fnv, (load.entry.build)(&values)?))
        };
        let over = build(0.5 * (n0 + n1))?;
        let at = build(n0)?;
        Ok(Rebuilt {
            load,
            values,
            over,
            prev: None,
            at,
        })
    }

    fn build(&mut self, fnv: f64) -> Result<AtLoad, ParamError> {
        self.values[self.load.index] = fnv;
        Ok((fnv, (self.load.entry.build)(&self.values)?))
    }
}

impl Models for Rebuilt<'_> {
    fn to_interval(&mut self, k: usize) -> Result<bool, ParamError> {
        let n = self.load.normal;
        let mean = 0.5 * (n[k] + n[k + 1]);
        if mean == self.over.0 {
            self.prev = None;
            return Ok(false);
        }
        let next = self.build(mean)?;
        self.prev = Some(std::mem::replace(&mut self.over, next));
        Ok(true)
    }
    fn to_sample(&mut self, k: usize) -> Result<(), ParamError> {
        let nk = self.load.normal[k];
        if nk != self.at.0 {
            self.at = self.build(nk)?;
        }
        Ok(())
    }
    fn interval(&self) -> &dyn FrictionModel {
        self.over.1.as_ref()
    }
    fn previous(&self) -> &dyn FrictionModel {
        self.prev
            .as_ref()
            .map_or(self.over.1.as_ref(), |p| p.1.as_ref())
    }
    fn sample(&self) -> &dyn FrictionModel {
        self.at.1.as_ref()
    }
}
