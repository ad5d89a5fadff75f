//! Dynamic (state) friction models of the thesis (CATALOG §4) and the library's stateful models
//! (CATALOG §6), one model per file. Bristle deflections are states in metres; discrete states
//! (bond counters, modes) sit in the state vector with zero derivative.

mod common;
pub mod dahl;
pub mod lugre;

use crate::model::ModelEntry;

/// Registry entries of this family, in display order.
pub static ENTRIES: &[ModelEntry] = &[dahl::ENTRY, lugre::ENTRY];
