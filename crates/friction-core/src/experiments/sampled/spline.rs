//! The natural cubic spline that turns a measured displacement into a driving velocity.

use crate::experiments::driven::Velocity;

/// A natural cubic spline through samples (t_k, x_k): C² between the samples, zero curvature
/// at both ends. Its derivative is the velocity of a displacement-driven run.
///
/// Why a spline and not differences: a velocity differenced from x per sample and ramped
/// between samples has corners at every sample and lags or leads by half a sample; the
/// spline's derivative is continuous and its x passes through every sample, so the model
/// travels exactly the measured displacement.
#[derive(Debug, Clone, PartialEq)]
pub struct Spline {
    t: Vec<f64>,
    x: Vec<f64>,
    /// Second derivatives at the samples \[m/s²\].
    m2: Vec<f64>,
}

impl Spline {
    /// The spline through `x` \[m\] at the increasing times `t` \[s\] (same length; fewer than
    /// three samples give the straight line or a point).
    pub fn new(t: &[f64], x: &[f64]) -> Spline {
        let n = t.len().min(x.len());
        let mut m2 = vec![0.0; n];
        if n >= 3 {
            // tridiagonal system for the inner second derivatives (Thomas algorithm)
            let mut c = vec![0.0; n];
            let mut d = vec![0.0; n];
            for k in 1..n - 1 {
                let (h0, h1) = (t[k] - t[k - 1], t[k + 1] - t[k]);
                let rhs = 6.0 * ((x[k + 1] - x[k]) / h1 - (x[k] - x[k - 1]) / h0);
                let diag = 2.0 * (h0 + h1) - h0 * c[k - 1];
                c[k] = h1 / diag;
                d[k] = (rhs - h0 * d[k - 1]) / diag;
            }
            for k in (1..n - 1).rev() {
                m2[k] = d[k] - c[k] * m2[k + 1];
            }
        }
        Spline {
            t: t[..n].to_vec(),
            x: x[..n].to_vec(),
            m2,
        }
    }

    /// The velocity \[m/s\] on interval k as a [`Velocity::Poly`] starting at `t0` = t_k.
    pub fn velocity(&self, k: usize, t0: f64) -> Velocity {
        let (t, x, m2) = (&self.t, &self.x, &self.m2);
        if k + 1 >= t.len() {
            return Velocity::Poly {
                t0,
                v0: 0.0,
                a1: 0.0,
                a2: 0.0,
            };
        }
        let h = t[k + 1] - t[k];
        Velocity::Poly {
            t0,
            v0: (x[k + 1] - x[k]) / h - h * (2.0 * m2[k] + m2[k + 1]) / 6.0,
            a1: m2[k],
            a2: (m2[k + 1] - m2[k]) / (2.0 * h),
        }
    }

    /// The velocity \[m/s\] at every sample.
    pub fn velocities(&self) -> Vec<f64> {
        let n = self.t.len();
        (0..n)
            .map(|k| {
                if n < 2 {
                    0.0
                } else if k + 1 < n {
                    self.velocity(k, self.t[k]).at(self.t[k])
                } else {
                    self.velocity(k - 1, self.t[k - 1]).at(self.t[k])
                }
            })
            .collect()
    }
}
