//! Every view of this build, one file each, and their list.
//!
//! A view is a [`ViewDef`] (its keys, defaults and ranges) and a [`crate::job::Job`] (its
//! computation, readout and CSV); see `crate::job` for the contract. Adding a view: a file here
//! and a line in [`ALL`] (plus its chart builder in `friction-plot`, which the core cannot
//! hold).

pub mod breakaway;
pub mod curve;
pub mod hysteresis;
pub mod lessons;
pub mod prescribed;
pub mod presliding;
pub mod relaxation;
pub mod robot;
pub mod stickslip;
pub mod sweep;
pub mod table65;

use crate::job::ViewDef;

/// The views, in the order the page offers them; the first is the default.
pub static ALL: &[&ViewDef] = &[
    &hysteresis::VIEW,
    &relaxation::VIEW,
    &robot::VIEW,
    &curve::CURVE,
    &curve::EXPLORER,
    &stickslip::VIEW,
    &presliding::VIEW,
    &breakaway::VIEW,
    &prescribed::VIEW,
    &sweep::VIEW,
];
