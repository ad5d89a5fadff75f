//! Integrators: stiffness-proof steppers for prescribed-velocity and closed-loop runs.

pub mod adaptive;
