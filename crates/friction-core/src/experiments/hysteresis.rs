//! Fig. 3 of the letter: frictional-lag hysteresis under an oscillating sliding velocity.

use crate::params::ParamSpec;

/// Unit of the excitation frequencies (the letter writes "ω = 25 Hz", which is ambiguous).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum FreqUnit {
    /// f in Hz: v = v_mean + v_amp·cos(2πf·t).
    #[default]
    Hz,
    /// ω in rad/s: v = v_mean + v_amp·cos(ω·t).
    Rad,
}

impl FreqUnit {
    /// Query-string value.
    pub fn as_str(self) -> &'static str {
        match self {
            FreqUnit::Hz => "hz",
            FreqUnit::Rad => "rad",
        }
    }
    /// Parses a query-string value.
    pub fn parse(s: &str) -> Option<FreqUnit> {
        match s {
            "hz" => Some(FreqUnit::Hz),
            "rad" => Some(FreqUnit::Rad),
            _ => None,
        }
    }
    /// Angular frequency [rad/s] of a frequency given in this unit.
    pub fn omega(self, f: f64) -> f64 {
        match self {
            FreqUnit::Hz => 2.0 * std::f64::consts::PI * f,
            FreqUnit::Rad => f,
        }
    }
    /// Short unit label for legends.
    pub fn label(self) -> &'static str {
        match self {
            FreqUnit::Hz => "Hz",
            FreqUnit::Rad => "rad/s",
        }
    }
}

/// Mean sliding velocity v_mean (FRBD.md §8 assumption: 1.5·v_S).
pub const VMEAN: ParamSpec = ParamSpec {
    key: "vmean",
    name: "Mean velocity",
    symbol: "v_mean",
    unit: "m/s",
    default: 0.015,
    min: -10.0,
    max: 10.0,
    log: false,
};
/// Velocity amplitude v_amp (FRBD.md §8 assumption: v_S).
pub const VAMP: ParamSpec = ParamSpec {
    key: "vamp",
    name: "Velocity amplitude",
    symbol: "v_amp",
    unit: "m/s",
    default: 0.01,
    min: 0.0,
    max: 10.0,
    log: false,
};
/// One excitation frequency in Hz (up to 1 kHz).
pub const FREQ_HZ: ParamSpec = ParamSpec {
    key: "freqs",
    name: "Frequencies",
    symbol: "f",
    unit: "Hz",
    default: 25.0,
    min: 0.1,
    max: 1000.0,
    log: true,
};
/// One excitation frequency in rad/s (up to 2π·1 kHz).
pub const FREQ_RAD: ParamSpec = ParamSpec {
    key: "freqs",
    name: "Frequencies",
    symbol: "ω",
    unit: "rad/s",
    default: 25.0,
    min: 0.1,
    max: 2000.0 * std::f64::consts::PI,
    log: true,
};
/// Default frequency list of Fig. 3.
pub const DEFAULT_FREQS: [f64; 3] = [25.0, 50.0, 100.0];
/// At most this many loops are overlaid (one palette colour each).
pub const MAX_FREQS: usize = 7;
