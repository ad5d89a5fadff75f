//! The experiments of the source papers, reused by tests, benchmarks, the CLI and the page.

pub mod curve;
pub mod phenomena;
pub mod stickslip;
