//! Parameter descriptions of the FrBD family (FRBD.md §3–§5, Table I of the letter).
//!
//! Normalised stiffnesses k̄ are per unit normal load, hence in 1/m; dampings c̄ in s/m. The
//! ranges are those the issue asks for: k̄ up to 1e9 1/m, τ down to 1e-7 s.

use crate::params::{spec, ParamSpec};
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
pub const K0: ParamSpec = spec(
    "k0",
    "Bristle stiffness",
    "k̄_0",
    "1/m",
    SIGMA0_TABLE_I,
    1e-3,
    1e9,
    true,
);
/// Series spring k̄0 of the GKV model (Table I mapped through §5).
pub const K0_GKV: ParamSpec = spec(
    "k0",
    "Series stiffness",
    "k̄_0",
    "1/m",
    GKV_K0_DEFAULT,
    1e-3,
    1e9,
    true,
);
/// Maxwell-branch spring k̄1 of the GM model.
pub const K1: ParamSpec = spec(
    "k1",
    "Branch stiffness",
    "k̄_1",
    "1/m",
    GM_K1_DEFAULT,
    1e-3,
    1e9,
    true,
);
/// Kelvin–Voigt element spring k̄1 of the GKV model.
pub const K1_GKV: ParamSpec = spec(
    "k1",
    "Element stiffness",
    "k̄_1",
    "1/m",
    GKV_K1_DEFAULT,
    1e-3,
    1e9,
    true,
);
/// Relaxation time τ1 = c̄1/k̄1 of the first Maxwell branch.
pub const TAU1: ParamSpec = spec(
    "tau1",
    "Relaxation time",
    "τ_1",
    "s",
    GAMMA1_TABLE_I,
    1e-7,
    1e3,
    true,
);
/// Dashpot c̄1 of the first Kelvin–Voigt element.
pub const C1: ParamSpec = spec(
    "c1",
    "Element damping",
    "c̄_1",
    "s/m",
    GKV_C1_DEFAULT,
    1e-9,
    1e9,
    true,
);
/// Bristle dashpot σ̄1 of the Kelvin–Voigt bristle (companion paper); 0 gives the elastic bristle.
pub const C0: ParamSpec = spec(
    "c0",
    "Bristle damping",
    "σ̄_1",
    "s/m",
    SIGMA1_TABLE_I,
    0.0,
    1e9,
    false,
);
/// Regularisation ε of |v|_ε = √(v² + ε); Table I uses 0.
pub const EPS: ParamSpec = spec("eps", "Regularisation", "ε", "m²/s²", 0.0, 0.0, 1.0, false);
/// Normal load p; not in Table I, 1 N makes F numerically equal to f.
pub const P: ParamSpec = spec("p", "Normal load", "p", "N", 1.0, 1e-6, 1e6, true);
/// σ0 of the differential form (5), n = 1.
pub const SIGMA0: ParamSpec = spec(
    "sigma0",
    "Micro-stiffness",
    "σ_0",
    "1/m",
    SIGMA0_TABLE_I,
    1e-3,
    1e9,
    true,
);
/// σ1 of the differential form (5), n = 1.
pub const SIGMA1: ParamSpec = spec(
    "sigma1",
    "Micro-damping",
    "σ_1",
    "s/m",
    SIGMA1_TABLE_I,
    1e-9,
    1e9,
    true,
);
/// γ1 of the differential form (5), n = 1.
pub const GAMMA1: ParamSpec = spec(
    "gamma1",
    "Relaxation time of (5)",
    "γ_1",
    "s",
    GAMMA1_TABLE_I,
    1e-7,
    1e3,
    true,
);

/// μ_s, μ_d, v_S, δ_S, ε, p: the parameters every FrBD model shares, in registry order.
pub const CONTACT: [ParamSpec; 6] = [
    Stribeck::PARAMS[0],
    Stribeck::PARAMS[1],
    Stribeck::PARAMS[2],
    Stribeck::PARAMS[3],
    EPS,
    P,
];
