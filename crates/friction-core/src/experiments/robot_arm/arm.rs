//! The robot arm's inputs: plant, gains, reference and initial state, validated by name.
//!
//! Kept apart from the closed loop (`super`) so that what a link can set is one short file.

use crate::params::{ParamError, ParamSpec};

/// View parameters, in display order and in the order [`Arm::from_values`] expects them.
///
/// All defaults are our choice (the letter gives none).
pub const PARAMS: [ParamSpec; 12] = [
    ParamSpec {
        key: "m",
        name: "Link inertia",
        symbol: "m",
        unit: "kg·m²",
        default: 1.0,
        min: 1e-3,
        max: 1e3,
        log: true,
    },
    ParamSpec {
        key: "cv",
        name: "Viscous joint damping",
        symbol: "c",
        unit: "N·m·s/rad",
        default: 0.5,
        min: 0.0,
        max: 1e3,
        log: false,
    },
    ParamSpec {
        key: "gload",
        name: "Gravity torque amplitude",
        symbol: "G",
        unit: "N·m",
        default: 2.0,
        min: 0.0,
        max: 1e3,
        log: false,
    },
    ParamSpec {
        key: "ks",
        name: "Tracking gain",
        symbol: "k_1",
        unit: "N·m·s/rad",
        default: 10.0,
        min: 1e-3,
        max: 1e4,
        log: true,
    },
    // 0.1: larger gains make F̂ overshoot to tens of N·m at the start (s(0) ≠ 0) and hide the
    // friction on the chart
    ParamSpec {
        key: "kobs",
        name: "Observer gain",
        symbol: "k_2",
        unit: "m/rad",
        default: 0.1,
        min: 1e-6,
        max: 1e4,
        log: true,
    },
    ParamSpec {
        key: "lambda",
        name: "Error bandwidth",
        symbol: "λ",
        unit: "1/s",
        default: 5.0,
        min: 1e-3,
        max: 1e3,
        log: true,
    },
    ParamSpec {
        key: "qamp",
        name: "Reference amplitude (sine) or set-point (step)",
        symbol: "q_a",
        unit: "rad",
        default: 0.5,
        min: -10.0,
        max: 10.0,
        log: false,
    },
    ParamSpec {
        key: "qfreq",
        name: "Reference frequency",
        symbol: "f_d",
        unit: "Hz",
        default: 0.5,
        min: 1e-3,
        max: 50.0,
        log: true,
    },
    ParamSpec {
        key: "q0",
        name: "Initial angle",
        symbol: "q_0",
        unit: "rad",
        default: 0.0,
        min: -10.0,
        max: 10.0,
        log: false,
    },
    ParamSpec {
        key: "dq0",
        name: "Initial velocity",
        symbol: "q̇_0",
        unit: "rad/s",
        default: 0.0,
        min: -100.0,
        max: 100.0,
        log: false,
    },
    ParamSpec {
        key: "z0",
        name: "Initial bristle deflection",
        symbol: "z_0",
        unit: "m",
        default: 1e-4,
        min: -1e-2,
        max: 1e-2,
        log: false,
    },
    ParamSpec {
        key: "zhat0",
        name: "Initial observer estimate",
        symbol: "ẑ_0",
        unit: "m",
        default: 0.0,
        min: -1e-2,
        max: 1e-2,
        log: false,
    },
];

/// End time of the robot run (its own default: a few reference periods).
pub const TEND: ParamSpec = ParamSpec {
    key: "tend",
    name: "End time",
    symbol: "t_end",
    unit: "s",
    default: 10.0,
    min: 0.01,
    max: 1000.0,
    log: true,
};

/// Reference trajectory q_d(t).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Reference {
    /// q_d = q_a sin(2π f_d t): the joint reverses every half period, where friction bites.
    Sine {
        /// Amplitude q_a \[rad\].
        amp: f64,
        /// Frequency f_d \[Hz\].
        freq: f64,
    },
    /// q_d = q_a for t ≥ 0: regulation to a set-point from q_0.
    Step {
        /// Set-point q_a \[rad\].
        amp: f64,
    },
}

impl Reference {
    /// (q_d, q̇_d, q̈_d) at time t \[rad, rad/s, rad/s²\].
    #[inline]
    pub fn eval(&self, t: f64) -> (f64, f64, f64) {
        match *self {
            Reference::Sine { amp, freq } => {
                let w = std::f64::consts::TAU * freq;
                let (sn, cs) = (w * t).sin_cos();
                (amp * sn, amp * w * cs, -amp * w * w * sn)
            }
            Reference::Step { amp } => (amp, 0.0, 0.0),
        }
    }

    /// Amplitude (sine) or set-point (step) \[rad\].
    pub fn amp(&self) -> f64 {
        match *self {
            Reference::Sine { amp, .. } | Reference::Step { amp } => amp,
        }
    }
}

/// Validated arm, controller and initial conditions (everything except the friction model).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Arm {
    /// Link inertia m \[kg·m²\].
    pub m: f64,
    /// Viscous damping c \[N·m·s/rad\].
    pub c: f64,
    /// Gravity torque amplitude G = m g₀ l \[N·m\] of g(q) = G cos q.
    pub gload: f64,
    /// Tracking gain k1 \[N·m·s/rad\].
    pub k1: f64,
    /// Observer gain k2 \[m/rad\] (with the unit lever arm: dimensionless).
    pub k2: f64,
    /// Error bandwidth λ \[1/s\].
    pub lambda: f64,
    /// Reference trajectory.
    pub reference: Reference,
    /// Initial angle q_0 \[rad\].
    pub q0: f64,
    /// Initial velocity q̇_0 \[rad/s\].
    pub dq0: f64,
    /// Initial bristle deflection z_0 \[m\] (the branch states start at 0).
    pub z0: f64,
    /// Initial observer estimate ẑ_0 \[m\] (its branch states start at 0).
    pub zhat0: f64,
    /// End time \[s\].
    pub tend: f64,
    /// Whether F̂ is fed forward (the observer runs); `false` shows the uncompensated loop.
    pub observer: bool,
}

impl Arm {
    /// Validates values given in [`PARAMS`] order (missing trailing values take defaults), the
    /// end time, the reference shape and the observer switch. Errors name the key and range.
    pub fn from_values(
        values: &[f64],
        tend: f64,
        step: bool,
        observer: bool,
    ) -> Result<Arm, ParamError> {
        let v = crate::params::values_or_defaults(&PARAMS, values);
        crate::params::check_all(&PARAMS, &v)?;
        TEND.check(tend)?;
        // named in PARAMS order: an index slip here would swap two physical quantities silently
        let [m, c, gload, k1, k2, lambda, amp, freq, q0, dq0, z0, zhat0]: [f64; 12] = v
            .try_into()
            .expect("values_or_defaults returns one value per spec");
        let reference = if step {
            Reference::Step { amp }
        } else {
            Reference::Sine { amp, freq }
        };
        Ok(Arm {
            m,
            c,
            gload,
            k1,
            k2,
            lambda,
            reference,
            q0,
            dq0,
            z0,
            zhat0,
            tend,
            observer,
        })
    }

    /// The defaults of [`PARAMS`] and [`TEND`], sine reference, observer on.
    pub fn defaults() -> Result<Arm, ParamError> {
        Arm::from_values(&[], TEND.default, false, true)
    }
}
