//! The experiments of the source papers, reused by tests, benchmarks, the CLI and the page.

pub mod bench_view;
pub mod curve;
pub mod driven;
pub mod energy;
pub mod hysteresis;
pub mod phenomena;
pub mod prescribed;
pub mod relaxation;
pub mod robot_arm;
pub mod sampled;
pub mod settle;
pub mod stickslip;
