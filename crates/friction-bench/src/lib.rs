//! Benchmarks of Friction Lab's stiff solver against compiled peers (diffsol), kept out of the
//! product crates: the core stays free of dependencies and this crate is never shipped.
//!
//! [`Belt`] is the 40 s Rabinowicz benchmark (thesis Table 6.1: a block on a belt at v_b, tied
//! to the wall by a spring) written as a plain ODE y = \[x, ẋ, z…\] from the core's public
//! [`FrictionModel`] interface only — the same right-hand side and the same analytic partials
//! that the core's closed loop hands its Rodas solver — so both solvers integrate the identical
//! system. The discrete updates of a model (GMS's mode flips) are applied by the caller at the
//! roots of [`Belt::switches`].

use friction_core::experiments::stickslip::Bench;
use friction_core::model::FrictionModel;
use std::cell::{Cell, RefCell};

/// The benchmark's closed loop for an external solver: m ẍ = −k x − F(v, z), ż = f(v, z) with
/// v = ẋ − v_b and F_e = −k x.
pub struct Belt<'a> {
    model: &'a dyn FrictionModel,
    m: f64,
    k: f64,
    vb: f64,
    /// y\[1\] is the relative velocity v = ẋ − v_b instead of ẋ (so that the relative tolerance
    /// of that state refers to v, as the core's error norm does).
    vrel: bool,
    /// The core's absolute-tolerance scale of the velocity ([`Bench::velocity_scale`]).
    vscale: f64,
    ns: usize,
    nz: usize,
    /// Partials scratch \[∂ż/∂z | ∂ż/∂v | ∂F/∂z\], each `ns` long.
    partials: RefCell<Vec<f64>>,
    /// Scratch of the difference fallback: f(y), f(y + εv), y + εv.
    fd: RefCell<Vec<f64>>,
    /// Right-hand-side evaluations so far (the work measure of the tables).
    pub rhs_calls: Cell<usize>,
    /// Jacobian–vector products so far.
    pub jvp_calls: Cell<usize>,
}

impl<'a> Belt<'a> {
    /// The loop for `model` on bench `b`; `None` when the model has no state, or coupled
    /// continuous states (neither is needed for the compared models).
    pub fn new(model: &'a dyn FrictionModel, b: &Bench) -> Option<Self> {
        Self::with_coordinates(model, b, false)
    }

    /// As [`Belt::new`], with y\[1\] = v = ẋ − v_b when `vrel` (else ẋ).
    pub fn with_coordinates(model: &'a dyn FrictionModel, b: &Bench, vrel: bool) -> Option<Self> {
        let ns = model.n_states();
        let nz = ns - model.n_discrete().min(ns);
        if nz == 0 || !(model.separable() || nz == 1) {
            return None;
        }
        let n = 2 + ns;
        Some(Belt {
            model,
            m: b.m,
            k: b.spring_rate(),
            vb: b.vb,
            vrel,
            vscale: if model.micro_slip() {
                b.velocity_scale(model)
            } else {
                1.0
            },
            ns,
            nz,
            partials: RefCell::new(vec![0.0; 3 * ns]),
            fd: RefCell::new(vec![0.0; 3 * n]),
            rhs_calls: Cell::new(0),
            jvp_calls: Cell::new(0),
        })
    }

    /// Dimension of y.
    pub fn dim(&self) -> usize {
        2 + self.ns
    }

    /// Initial state: x = 0, ẋ = v_b (stuck start), virgin model states.
    pub fn initial(&self, y: &mut [f64]) {
        y[0] = 0.0;
        y[1] = if self.vrel { 0.0 } else { self.vb };
        self.model.initial_state(&mut y[2..]);
    }

    /// Absolute tolerance per state for `atol`, scaled as the core's solver scales it (x by 1,
    /// ẋ by 1 or, for a [micro-slip](FrictionModel::micro_slip) law, by
    /// [`Bench::velocity_scale`], model states by their typical magnitude, discrete modes by 1).
    /// The core also measures ẋ's relative tolerance from v_b for such a law; diffsol cannot,
    /// but in the coordinates of [`Belt::with_coordinates`] (y\[1\] = v) its norm is the same.
    pub fn atol(&self, atol: f64) -> Vec<f64> {
        (0..self.dim())
            .map(|i| {
                if i == 1 {
                    atol * self.vscale
                } else if i < 2 || i - 2 >= self.nz {
                    atol
                } else {
                    atol * self.model.state_scale(i - 2)
                }
            })
            .collect()
    }

    /// The relative velocity v = ẋ − v_b at y.
    #[inline]
    fn v(&self, y: &[f64]) -> f64 {
        if self.vrel {
            y[1]
        } else {
            y[1] - self.vb
        }
    }

    /// dy/dt.
    pub fn rhs(&self, y: &[f64], dy: &mut [f64]) {
        self.rhs_calls.set(self.rhs_calls.get() + 1);
        let v = self.v(y);
        let fe = -self.k * y[0];
        let f = self
            .model
            .derivative_and_force(v, fe, &y[2..], &mut dy[2..]);
        dy[0] = if self.vrel { y[1] + self.vb } else { y[1] };
        dy[1] = (fe - f) / self.m;
    }

    /// J·w from the model's analytic partials (forward differences where the model declines
    /// them at this point, as the core's solver does).
    pub fn jvp(&self, y: &[f64], w: &[f64], out: &mut [f64]) {
        self.jvp_calls.set(self.jvp_calls.get() + 1);
        let v = self.v(y);
        let fe = -self.k * y[0];
        let ns = self.ns;
        let mut buf = self.partials.borrow_mut();
        let (dzdz, rest) = buf.split_at_mut(ns);
        let (dzdv, dfdz) = rest.split_at_mut(ns);
        let Some(dfdv) = self.model.partials(v, fe, &y[2..], dzdz, dzdv, dfdz) else {
            drop(buf);
            return self.jvp_differenced(y, w, out);
        };
        out[0] = w[1];
        let mut a = -self.k * w[0] - dfdv * w[1];
        for j in 0..self.nz {
            a -= dfdz[j] * w[2 + j];
            out[2 + j] = dzdv[j] * w[1] + dzdz[j] * w[2 + j];
        }
        out[1] = a / self.m;
        // discrete modes: zero derivative, no dependence
        out[2 + self.nz..].fill(0.0);
    }

    fn jvp_differenced(&self, y: &[f64], w: &[f64], out: &mut [f64]) {
        let n = self.dim();
        let mut buf = self.fd.borrow_mut();
        let (f0, rest) = buf.split_at_mut(n);
        let (f1, yt) = rest.split_at_mut(n);
        let wn = w.iter().fold(0.0_f64, |s, x| s.max(x.abs()));
        if wn == 0.0 {
            out.fill(0.0);
            return;
        }
        let yn = y.iter().fold(0.0_f64, |s, x| s.max(x.abs()));
        let eps = 1.5e-8 * (1.0 + yn) / wn;
        for i in 0..n {
            yt[i] = y[i] + eps * w[i];
        }
        self.rhs(y, f0);
        self.rhs(yt, f1);
        for i in 0..n {
            out[i] = (f1[i] - f0[i]) / eps;
        }
    }

    /// Number of the model's switching functions.
    pub fn n_switches(&self) -> usize {
        self.model.n_switches()
    }

    /// Whether the switches carry discrete updates (then they must stop the integration);
    /// otherwise they only mark kinks that step-size control can pass.
    pub fn switches_update(&self) -> bool {
        self.model.n_discrete() > 0
    }

    /// The model's switching functions at y.
    pub fn switches(&self, y: &[f64], g: &mut [f64]) {
        let v = self.v(y);
        self.model.switches(v, -self.k * y[0], &y[2..], g);
    }

    /// Applies the model's discrete update for switch `i` crossing in direction `rising`.
    pub fn on_switch(&self, i: usize, rising: bool, y: &mut [f64]) -> bool {
        let v = self.v(y);
        let fe = -self.k * y[0];
        self.model.on_switch(i, rising, v, fe, &mut y[2..])
    }
}

/// Median of `xs` (sorted in place); NaN when empty.
pub fn median(xs: &mut [f64]) -> f64 {
    if xs.is_empty() {
        return f64::NAN;
    }
    xs.sort_by(|a, b| a.total_cmp(b));
    let n = xs.len();
    if n % 2 == 1 {
        xs[n / 2]
    } else {
        0.5 * (xs[n / 2 - 1] + xs[n / 2])
    }
}
