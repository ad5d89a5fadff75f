//! Parameter descriptions of the FrBD family (the letter's eqs. 5, 12, 13 and Table I).
//!
//! Normalised stiffnesses k̄ are per unit normal load, hence in 1/m; dampings c̄ in s/m. The
//! ranges are those the issue asks for: k̄ up to 1e9 1/m, τ down to 1e-7 s.

use crate::params::ParamSpec;
use crate::stribeck::Stribeck;

/// Table I: σ0 \[1/m\].
pub const SIGMA0_TABLE_I: f64 = 1e4;
/// Table I: σ1 \[s/m\].
pub const SIGMA1_TABLE_I: f64 = 64.5;
/// Table I: γ1 \[s\].
pub const GAMMA1_TABLE_I: f64 = 1e-3;

/// GM k̄1 mapped from Table I: σ1/γ1 − σ0 = 5.45e4 1/m.
pub const GM_K1_DEFAULT: f64 = SIGMA1_TABLE_I / GAMMA1_TABLE_I - SIGMA0_TABLE_I;
/// GKV k̄0 mapped from Table I: σ1/γ1 = 6.45e4 1/m.
pub const GKV_K0_DEFAULT: f64 = SIGMA1_TABLE_I / GAMMA1_TABLE_I;
/// GKV k̄1 mapped from Table I: σ0·k̄0/(k̄0 − σ0) ≈ 11834.86 1/m.
pub const GKV_K1_DEFAULT: f64 = SIGMA0_TABLE_I * GKV_K0_DEFAULT / (GKV_K0_DEFAULT - SIGMA0_TABLE_I);
/// GKV c̄1 mapped from Table I: γ1·(k̄0 + k̄1) ≈ 76.3349 s/m.
pub const GKV_C1_DEFAULT: f64 = GAMMA1_TABLE_I * (GKV_K0_DEFAULT + GKV_K1_DEFAULT);

/// Bristle (parallel) spring k̄0 of the GM model and of the elastic bristle; σ0 of Table I.
pub const K0: ParamSpec = ParamSpec {
    key: "k0",
    name: "Bristle stiffness",
    symbol: "k̄_0",
    unit: "1/m",
    default: SIGMA0_TABLE_I,
    min: 1e-3,
    max: 1e9,
    log: true,
};
/// Series spring k̄0 of the GKV model (Table I mapped through the letter's form (5)).
pub const K0_GKV: ParamSpec = ParamSpec {
    key: "k0",
    name: "Series stiffness",
    symbol: "k̄_0",
    unit: "1/m",
    default: GKV_K0_DEFAULT,
    min: 1e-3,
    max: 1e9,
    log: true,
};
/// Maxwell-branch spring k̄1 of the GM model.
pub const K1: ParamSpec = ParamSpec {
    key: "k1",
    name: "Branch stiffness",
    symbol: "k̄_1",
    unit: "1/m",
    default: GM_K1_DEFAULT,
    min: 1e-3,
    max: 1e9,
    log: true,
};
/// Kelvin–Voigt element spring k̄1 of the GKV model.
pub const K1_GKV: ParamSpec = ParamSpec {
    key: "k1",
    name: "Element stiffness",
    symbol: "k̄_1",
    unit: "1/m",
    default: GKV_K1_DEFAULT,
    min: 1e-3,
    max: 1e9,
    log: true,
};
/// Relaxation time τ1 = c̄1/k̄1 of the first Maxwell branch.
pub const TAU1: ParamSpec = ParamSpec {
    key: "tau1",
    name: "Relaxation time",
    symbol: "τ_1",
    unit: "s",
    default: GAMMA1_TABLE_I,
    min: 1e-7,
    max: 1e3,
    log: true,
};
/// Dashpot c̄1 of the first Kelvin–Voigt element.
pub const C1: ParamSpec = ParamSpec {
    key: "c1",
    name: "Element damping",
    symbol: "c̄_1",
    unit: "s/m",
    default: GKV_C1_DEFAULT,
    min: 1e-9,
    max: 1e9,
    log: true,
};
/// Bristle dashpot σ̄1 of the Kelvin–Voigt bristle (companion paper); 0 gives the elastic bristle.
pub const C0: ParamSpec = ParamSpec {
    key: "c0",
    name: "Bristle damping",
    symbol: "σ̄_1",
    unit: "s/m",
    default: SIGMA1_TABLE_I,
    min: 0.0,
    max: 1e9,
    log: false,
};
/// Regularisation ε of |v|_ε = √(v² + ε); Table I uses 0.
pub const EPS: ParamSpec = ParamSpec {
    key: "eps",
    name: "Regularisation",
    symbol: "ε",
    unit: "m²/s²",
    default: 0.0,
    min: 0.0,
    max: 1.0,
    log: false,
};
/// Normal load p; not in Table I, 1 N makes F numerically equal to f.
pub const P: ParamSpec = ParamSpec {
    key: "p",
    name: "Normal load",
    symbol: "p",
    unit: "N",
    default: 1.0,
    min: 1e-6,
    max: 1e6,
    log: true,
};
/// σ0 of the differential form (5), n = 1.
pub const SIGMA0: ParamSpec = ParamSpec {
    key: "sigma0",
    name: "Micro-stiffness",
    symbol: "σ_0",
    unit: "1/m",
    default: SIGMA0_TABLE_I,
    min: 1e-3,
    max: 1e9,
    log: true,
};
/// σ1 of the differential form (5), n = 1.
pub const SIGMA1: ParamSpec = ParamSpec {
    key: "sigma1",
    name: "Micro-damping",
    symbol: "σ_1",
    unit: "s/m",
    default: SIGMA1_TABLE_I,
    min: 1e-9,
    max: 1e9,
    log: true,
};
/// γ1 of the differential form (5), n = 1.
pub const GAMMA1: ParamSpec = ParamSpec {
    key: "gamma1",
    name: "Relaxation time of (5)",
    symbol: "γ_1",
    unit: "s",
    default: GAMMA1_TABLE_I,
    min: 1e-7,
    max: 1e3,
    log: true,
};

/// μ_s, μ_d, v_S, δ_S, ε, p: the parameters every FrBD model shares, in registry order.
pub const CONTACT: [ParamSpec; 6] = [
    Stribeck::PARAMS[0],
    Stribeck::PARAMS[1],
    Stribeck::PARAMS[2],
    Stribeck::PARAMS[3],
    EPS,
    P,
];
