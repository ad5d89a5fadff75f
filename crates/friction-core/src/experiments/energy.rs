//! Energy account of a run (letter Lemma III.3): supplied work ∫F·v dt, storage V(x), dissipated
//! energy ∫D dt, and the passivity residual ∫F·v dt − (V(t) − V(0)), which must never be negative
//! beyond round-off and discretisation error.

use crate::frbd::Passive;
use crate::integrate::linear::{LinearModel, Sdirk2, GAMMA};

/// Energy time series sampled after every step.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct EnergyAccount {
    /// Time \[s\] (first sample at t = 0).
    pub t: Vec<f64>,
    /// Supplied work ∫₀ᵗ F·v dt \[J\].
    pub work: Vec<f64>,
    /// Storage V(x(t)) \[J\].
    pub storage: Vec<f64>,
    /// Dissipated energy ∫₀ᵗ D dt \[J\], by the same stage quadrature as the work.
    pub dissipated: Vec<f64>,
}

impl EnergyAccount {
    /// Passivity residual ∫F·v dt − (V(t) − V(0)) at sample `i` \[J\].
    pub fn residual(&self, i: usize) -> f64 {
        self.work[i] - (self.storage[i] - self.storage[0])
    }

    /// Smallest passivity residual over the run \[J\].
    pub fn min_residual(&self) -> f64 {
        (0..self.t.len())
            .map(|i| self.residual(i))
            .fold(f64::INFINITY, f64::min)
    }

    /// Largest |residual − dissipated| over the run \[J\]: how well the storage/dissipation
    /// identity dV/dt = F·v − D holds along the discrete trajectory.
    pub fn identity_error(&self) -> f64 {
        (0..self.t.len())
            .map(|i| (self.residual(i) - self.dissipated[i]).abs())
            .fold(0.0, f64::max)
    }
}

/// Integrates `m` from state `x0` under velocity `v(t)` with `steps` equal steps up to `t_end`,
/// keeping the energy account.
pub fn account<M: LinearModel + Passive + ?Sized>(
    m: &M,
    v: &dyn Fn(f64) -> f64,
    x0: &[f64],
    t_end: f64,
    steps: usize,
) -> EnergyAccount {
    let steps = steps.max(1);
    let h = t_end / steps as f64;
    let mut x = x0.to_vec();
    let mut st = Sdirk2::new(m.dim());
    let mut acc = EnergyAccount {
        t: Vec::with_capacity(steps + 1),
        work: Vec::with_capacity(steps + 1),
        storage: Vec::with_capacity(steps + 1),
        dissipated: Vec::with_capacity(steps + 1),
    };
    acc.t.push(0.0);
    acc.work.push(0.0);
    acc.storage.push(m.storage(&x));
    acc.dissipated.push(0.0);
    let (mut w, mut d) = (0.0, 0.0);
    for k in 0..steps {
        let t = k as f64 * h;
        let (v1, v2) = (v(t + GAMMA * h), v(t + h));
        w += st.step(m, h, v1, v2, &mut x).work;
        let (b1, b2) = st.weights();
        d += h * (b1 * m.dissipation(v1, st.stage1()) + b2 * m.dissipation(v2, &x));
        acc.t.push(t + h);
        acc.work.push(w);
        acc.storage.push(m.storage(&x));
        acc.dissipated.push(d);
    }
    acc
}
