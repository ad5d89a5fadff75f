//! The shape-preserving cubic that turns a measured displacement into a driving velocity.

use crate::experiments::driven::Velocity;

/// The natural cubic spline through samples (t_k, x_k), with its slopes at the samples limited
/// where x is monotone so that it does not overshoot there (Hyman's filter, 1983): a cubic
/// Hermite interpolant, C¹, through every sample. Where no slope needs limiting (a smooth
/// motion) it is the natural spline itself, C²; its derivative is the velocity of a
/// displacement-driven run.
///
/// Why a spline and not differences: a velocity differenced from x per sample and ramped
/// between samples has corners at every sample and lags or leads by half a sample; the
/// spline's derivative is continuous and its x passes through every sample, so the model
/// travels exactly the measured displacement. Why the filter: an encoder's position moves in
/// steps, and the plain natural spline overshoots at each step, so its velocity changed sign
/// between samples where the body only moved one way, and a model whose state follows the
/// direction of motion (GMS elements, LuGre's |v|) reversed at every step of a dwell. Limiting
/// the slope at a sample to 3× the smaller neighbouring secant (0 where a neighbour is flat) keeps
/// each interval monotone (Fritsch & Carlson 1980); at a true turn (secants of opposite sign)
/// the spline's own slope stays.
#[derive(Debug, Clone, PartialEq)]
pub struct Spline {
    t: Vec<f64>,
    x: Vec<f64>,
    /// Slope dx/dt at each sample \[m/s\].
    d: Vec<f64>,
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
        let secant = |k: usize| (x[k + 1] - x[k]) / (t[k + 1] - t[k]);
        // a difference below 1e-9 of the travel counts as flat: two samples either side of a
        // symmetric turn differ by the round-off of the integration that made them (1e-13 of
        // the value seen), and its sign is noise; an encoder's step is far coarser
        let (lo, hi) = x[..n]
            .iter()
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(l, h), &v| {
                (l.min(v), h.max(v))
            });
        let flat = 1e-9 * (hi - lo);
        let filter_secant = |k: usize| {
            let dx = x[k + 1] - x[k];
            if dx.abs() <= flat {
                0.0
            } else {
                dx / (t[k + 1] - t[k])
            }
        };
        // the natural spline's slope at each sample
        let mut d: Vec<f64> = (0..n)
            .map(|k| {
                if n < 2 {
                    0.0
                } else if k + 1 < n {
                    let h = t[k + 1] - t[k];
                    secant(k) - h * (2.0 * m2[k] + m2[k + 1]) / 6.0
                } else {
                    let h = t[k] - t[k - 1];
                    secant(k - 1) + h * (m2[k - 1] + 2.0 * m2[k]) / 6.0
                }
            })
            .collect();
        // Hyman's filter where x is monotone around the sample (at the ends: its one interval)
        for (k, dk) in d.iter_mut().enumerate() {
            let (left, right) = (
                (k > 0).then(|| filter_secant(k - 1)),
                (k + 1 < n).then(|| filter_secant(k)),
            );
            let (a, b) = match (left, right) {
                (Some(a), Some(b)) => (a, b),
                (Some(a), None) | (None, Some(a)) => (a, a),
                (None, None) => continue,
            };
            if a * b < 0.0 {
                continue; // a turn: the spline's own slope
            }
            // one flat interval between secants of opposite signs is a turn that fell
            // symmetrically between two samples (a smooth motion's extremum), not an
            // encoder's rest: the spline's own slope there too
            let beyond = if b == 0.0 && k + 2 < n {
                Some(filter_secant(k + 1) * a)
            } else if a == 0.0 && k >= 2 {
                Some(filter_secant(k - 2) * b)
            } else {
                None
            };
            if beyond.is_some_and(|p| p < 0.0) {
                continue;
            }
            let limit = 3.0 * a.abs().min(b.abs());
            *dk = if a == 0.0 || b == 0.0 || *dk * a < 0.0 {
                0.0
            } else {
                dk.signum() * dk.abs().min(limit)
            };
        }
        Spline {
            t: t[..n].to_vec(),
            x: x[..n].to_vec(),
            d,
        }
    }

    /// The velocity \[m/s\] on interval k as a [`Velocity::Poly`] starting at `t0` = t_k.
    pub fn velocity(&self, k: usize, t0: f64) -> Velocity {
        let (t, x, d) = (&self.t, &self.x, &self.d);
        if k + 1 >= t.len() {
            return Velocity::Poly {
                t0,
                v0: 0.0,
                a1: 0.0,
                a2: 0.0,
            };
        }
        let h = t[k + 1] - t[k];
        let s = (x[k + 1] - x[k]) / h;
        // x = x_k + d_k τ + c2 τ² + c3 τ³ on the interval
        let c2 = (3.0 * s - 2.0 * d[k] - d[k + 1]) / h;
        let c3 = (d[k] + d[k + 1] - 2.0 * s) / (h * h);
        Velocity::Poly {
            t0,
            v0: d[k],
            a1: 2.0 * c2,
            a2: 3.0 * c3,
        }
    }

    /// The velocity \[m/s\] at every sample.
    pub fn velocities(&self) -> Vec<f64> {
        self.d.clone()
    }
}
