//! Friction Lab core: friction models from the research literature, integrators that stay
//! stable when the models are stiff, and the experiments of the source papers.
//!
//! This crate is pure Rust: no web, plotting or I/O dependency, so the same code runs in the
//! native tests and benchmarks, the CLI and the browser page.
//!
//! Units are SI throughout: velocities in m/s, forces in N, displacements in m, times in s.
//! Sign convention (the thesis' eq. 6.32, m ẍ = −k x − F): `v` is the relative velocity of the
//! body against the counter-surface and `F` is the model output; the force acting on the body is
//! `−F`. The thesis prints no sign for `v`; we take v = ẋ − v_b on a belt.
//!
//! Sources named in comments: \[T\] is F. M. G. Novais, "A critical analysis on friction force
//! models in dynamical systems", MSc thesis, Universidade do Minho (2024); \[C\] the composite-law
//! paper of Djidda Mahamat et al., Open Journal of Applied Sciences (2025); "the library" is
//! jchristopherson/friction v1.1.1 (Fortran 2018); "the letter" is Romano, Aamo, Åslund & Frisk,
//! "Linear viscoelastic rheological FrBD models", arXiv:2601.13799, and "the companion paper"
//! their arXiv:2602.09429. Where our copy of a source was garbled or missing, the model's file
//! says what was reconstructed and from where.

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
