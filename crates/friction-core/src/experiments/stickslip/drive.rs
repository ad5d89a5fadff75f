//! What pushes the block besides friction: the belt and spring of the benchmark, or an applied
//! force u(t) on fixed ground ([`Forcing`]). Below both the closed loop that integrates the block
//! (`closed_loop.rs`) and the force-driven runs (`forced.rs`), which both read it: kept in
//! either, the two files would import each other.

use std::f64::consts::TAU;

/// What pushes the block besides friction, and so the external force F_e the model sees.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) enum Drive {
    /// The benchmark: the spring to the wall, F_e = −k x, the belt at v_b; y = \[x, ẋ, z…\].
    Belt,
    /// An applied force on fixed ground (k = 0, v_b = 0 in the loop's [`Bench`]): F_e = u(t),
    /// with the time carried as the state y\[2\]; y = \[x, ẋ, t, z…\]. The run stops where x
    /// reaches the second value, if there is one.
    Force(Forcing, Option<f64>),
}

impl Drive {
    /// Number of states before the model's: x, ẋ (and t for a forced block).
    pub(super) fn head(self) -> usize {
        match self {
            Drive::Belt => 2,
            Drive::Force(..) => 3,
        }
    }
}

/// The applied force u(t) \[N\].
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Forcing {
    /// u = ρ t, ρ \[N/s\].
    Ramp {
        /// Force rate ρ \[N/s\].
        rate: f64,
    },
    /// u = A sin(2π f t).
    Sine {
        /// Amplitude A \[N\].
        amp: f64,
        /// Frequency f \[Hz\].
        freq: f64,
    },
    /// A triangle through the same zeros and extremes as the sine: rising at 4 A f from 0 to A
    /// at t = 1/(4f), falling to −A at 3/(4f), back to 0 at 1/f.
    Triangle {
        /// Amplitude A \[N\].
        amp: f64,
        /// Frequency f \[Hz\].
        freq: f64,
    },
}

impl Forcing {
    /// u(t) \[N\].
    pub fn at(&self, t: f64) -> f64 {
        match *self {
            Forcing::Ramp { rate } => rate * t,
            Forcing::Sine { amp, freq } => amp * (TAU * freq * t).sin(),
            Forcing::Triangle { amp, freq } => {
                let s = (freq * t).fract();
                if s < 0.25 {
                    4.0 * amp * s
                } else if s < 0.75 {
                    amp * (2.0 - 4.0 * s)
                } else {
                    amp * (4.0 * s - 4.0)
                }
            }
        }
    }

    /// du/dt \[N/s\] (one-sided at a triangle's corners).
    pub fn slope(&self, t: f64) -> f64 {
        match *self {
            Forcing::Ramp { rate } => rate,
            Forcing::Sine { amp, freq } => amp * TAU * freq * (TAU * freq * t).cos(),
            Forcing::Triangle { amp, freq } => {
                let s = (freq * t).fract();
                if (0.25..0.75).contains(&s) {
                    -4.0 * amp * freq
                } else {
                    4.0 * amp * freq
                }
            }
        }
    }

    /// Whether u has corners (where du/dt jumps) that the solver should step onto.
    pub(super) fn has_corners(&self) -> bool {
        matches!(self, Forcing::Triangle { .. })
    }

    /// A function whose zeros are the corners: cos(2π f t) is 0 at t = 1/(4f), 3/(4f), …
    pub(super) fn corner_function(&self, t: f64) -> f64 {
        match *self {
            Forcing::Triangle { freq, .. } => (TAU * freq * t).cos(),
            _ => 1.0,
        }
    }
}
