//! Friction Lab core: friction models from the research literature, integrators that stay
//! stable when the models are stiff, and the experiments of the source papers.
//!
//! This crate is pure Rust: no web, plotting or I/O dependency, so the same code runs in the
//! native tests and benchmarks, the CLI and the browser page.
//!
//! Units are SI throughout: velocities in m/s, forces in N, displacements in m, times in s.
//! Sign convention (`CATALOG.md` §0.3): `v` is the relative velocity of the body against the
//! counter-surface and `F` is the model output; the force acting on the body is `−F`.

pub mod dynamics;
pub mod experiments;
pub mod frbd;
pub mod integrate;
pub mod job;
pub mod model;
pub mod params;
pub mod registry;
pub mod scenario;
pub mod statics;
pub mod stribeck;
pub mod views;
