//! Dynamic (state) friction models of the thesis (\[T\] §7.1) and the friction library's stateful
//! models, one model per file. Bristle deflections are states in metres; discrete states
//! (bond counters, modes) sit in the state vector with zero derivative.

pub mod bliman_sorine;
pub mod bliman_sorine_2;
pub mod bristle;
pub(crate) mod common;
pub mod dahl;
pub mod dankowicz;
pub mod elasto_plastic;
pub mod gms;
pub mod gonthier;
pub mod leuven;
pub mod liang;
pub mod lugre;
pub mod lugre_rational;
pub mod maxwell;
pub mod modified_stribeck;
pub mod reset_integrator;

use crate::model::ModelEntry;

/// Registry entries of this family, in display order.
pub static ENTRIES: &[ModelEntry] = &[
    dahl::ENTRY,
    bristle::ENTRY,
    reset_integrator::ENTRY,
    bliman_sorine::ENTRY,
    bliman_sorine_2::ENTRY,
    lugre::ENTRY,
    dankowicz::ENTRY,
    leuven::ENTRY,
    elasto_plastic::ENTRY,
    gms::ENTRY,
    gonthier::ENTRY,
    liang::ENTRY,
    maxwell::ENTRY,
    modified_stribeck::ENTRY,
    lugre_rational::ENTRY,
];
