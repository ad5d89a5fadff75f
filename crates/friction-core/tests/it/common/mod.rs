//! An independent reference integrator for the FrBD tests: classical RK4 on the model equations
//! written out here again (not through the crate's models), with a fixed tiny step.

#![allow(dead_code, missing_docs, clippy::needless_range_loop)]

/// Stribeck law of Table I written independently.
pub fn mu(v: f64, mus: f64, mud: f64, vs: f64, delta: f64) -> f64 {
    mud + (mus - mud) * (-(v.abs() / vs).powf(delta)).exp()
}

/// Right-hand side of GM (eq. 12) or GKV (eq. 13), Table I friction law, ε and p given.
#[derive(Clone, Debug)]
pub struct RefModel {
    pub gkv: bool,
    pub k0: f64,
    pub k: Vec<f64>,
    /// τ_i for GM, c̄_i for GKV.
    pub r: Vec<f64>,
    pub eps: f64,
    pub p: f64,
}

impl RefModel {
    pub fn gm(k0: f64, k: &[f64], tau: &[f64]) -> Self {
        RefModel {
            gkv: false,
            k0,
            k: k.to_vec(),
            r: tau.to_vec(),
            eps: 0.0,
            p: 1.0,
        }
    }
    pub fn gkv(k0: f64, k: &[f64], c: &[f64]) -> Self {
        RefModel {
            gkv: true,
            k0,
            k: k.to_vec(),
            r: c.to_vec(),
            eps: 0.0,
            p: 1.0,
        }
    }
    pub fn f(&self, x: &[f64]) -> f64 {
        if self.gkv {
            self.k0 * (x[0] - x[1..].iter().sum::<f64>())
        } else {
            self.k0 * x[0] + x[1..].iter().sum::<f64>()
        }
    }
    pub fn rhs(&self, v: f64, x: &[f64], dx: &mut [f64]) {
        let a = (v * v + self.eps).sqrt() / mu(v, 1.5, 1.0, 0.01, 2.0);
        let f = self.f(x);
        let zd = v - a * f;
        dx[0] = zd;
        for i in 0..self.k.len() {
            dx[i + 1] = if self.gkv {
                (f - self.k[i] * x[i + 1]) / self.r[i]
            } else {
                -x[i + 1] / self.r[i] + self.k[i] * zd
            };
        }
    }
    /// One classical RK4 step.
    pub fn rk4(&self, t: f64, h: f64, vel: &dyn Fn(f64) -> f64, x: &mut [f64]) {
        let d = x.len();
        let mut k1 = vec![0.0; d];
        let mut k2 = vec![0.0; d];
        let mut k3 = vec![0.0; d];
        let mut k4 = vec![0.0; d];
        let mut y = vec![0.0; d];
        self.rhs(vel(t), x, &mut k1);
        for i in 0..d {
            y[i] = x[i] + 0.5 * h * k1[i];
        }
        self.rhs(vel(t + 0.5 * h), &y, &mut k2);
        for i in 0..d {
            y[i] = x[i] + 0.5 * h * k2[i];
        }
        self.rhs(vel(t + 0.5 * h), &y, &mut k3);
        for i in 0..d {
            y[i] = x[i] + h * k3[i];
        }
        self.rhs(vel(t + h), &y, &mut k4);
        for i in 0..d {
            x[i] += h / 6.0 * (k1[i] + 2.0 * k2[i] + 2.0 * k3[i] + k4[i]);
        }
    }
}

/// Reference steady loop at angular frequency ω: RK4 with `n` steps per cycle from rest until
/// the cycle-to-cycle change is below 1e-12 relative; returns (fmax, fmin, area, energy) and F.
pub fn reference_loop(
    m: &RefModel,
    vm: f64,
    va: f64,
    omega: f64,
    n: usize,
) -> ([f64; 4], Vec<f64>) {
    let period = 2.0 * std::f64::consts::PI / omega;
    let h = period / n as f64;
    let vel = move |t: f64| vm + va * (omega * t).cos();
    let mut x = vec![0.0; m.k.len() + 1];
    let mut prev = vec![f64::INFINITY; n];
    let mut cur = vec![0.0; n];
    for _cycle in 0..2000 {
        for k in 0..n {
            cur[k] = m.p * m.f(&x);
            m.rk4(k as f64 * h, h, &vel, &mut x);
        }
        let d = cur
            .iter()
            .zip(&prev)
            .fold(0.0_f64, |a, (x, y)| a.max((x - y).abs()));
        std::mem::swap(&mut cur, &mut prev);
        if d < 1e-12 {
            break;
        }
    }
    let f = prev;
    let mut area = 0.0;
    let mut energy = 0.0;
    for k in 0..n {
        let t = k as f64 * h;
        area += f[k] * (-va * omega * (omega * t).sin()) * h;
        energy += f[k] * vel(t) * h;
    }
    let fmax = f.iter().copied().fold(f64::MIN, f64::max);
    let fmin = f.iter().copied().fold(f64::MAX, f64::min);
    ([fmax, fmin, area, energy], f)
}
