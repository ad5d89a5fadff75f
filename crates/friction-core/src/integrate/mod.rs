//! Integrators: stiffness-proof steppers for prescribed-velocity and closed-loop runs.
//!
//! [`linear`] exploits that the FrBD models are linear in their state once v(t) is prescribed
//! (open loop: hysteresis, relaxation, energy account). Closed-loop runs, where v depends on the
//! state, go through the generic [`crate::model::FrictionModel`] interface and an adaptive stiff
//! solver ([`rodas`]); the FrBD models implement both interfaces, and in both the model holds only
//! parameters, the caller owns the state and the solver owns its scratch. [`implicit_euler`]
//! steps the states of any model at prescribed velocity (the phenomena matrix, the curve view).
//! `linalg` holds the dense linear algebra both implicit solvers share (and the hysteresis loops' fixed point); [`meter`] counts their
//! work, so that tests can bound a unit of work without a clock.

pub mod implicit_euler;
pub(crate) mod linalg;
pub mod linear;
pub mod meter;
pub mod rodas;
pub(crate) mod separable;
