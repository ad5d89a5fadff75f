//! Fig. 4 of the letter: relaxation of the GM models of order 1..n at constant sliding velocity.

use crate::params::ParamSpec;

/// Constant sliding velocity of the relaxation experiment.
pub const VREL: ParamSpec = ParamSpec {
    key: "vrel",
    name: "Sliding velocity",
    symbol: "v",
    unit: "m/s",
    default: 0.01,
    min: -10.0,
    max: 10.0,
    log: false,
};
/// End time; ≥ 30 s shows the 6.45 s slow mode of the τ1 = 1 s branch settle (ERRATA #10).
pub const TEND: ParamSpec = ParamSpec {
    key: "tend",
    name: "End time",
    symbol: "t_end",
    unit: "s",
    default: 30.0,
    min: 1e-4,
    max: 1e4,
    log: true,
};

/// Default relaxation time of branch i (0-based) in Fig. 4: 1, 0.1, 0.01, … s.
pub fn default_tau(i: usize) -> f64 {
    10f64.powi(-(i as i32))
}
