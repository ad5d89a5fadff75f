//! The Rodas4 integrator on problems with known solutions: order, error control, stiffness,
//! event location and the arrow-structured (Schur) factorisation.

#![allow(clippy::unwrap_used)]

use friction_core::integrate::rodas::{EventAction, Method, Options, Point, Rodas, System};

/// y'' = −y as \[y, y'\], with events y − 0.5 and y' (maxima), recording located event times.
struct Oscillator {
    events: Vec<(usize, f64)>,
}

impl System for Oscillator {
    fn dim(&self) -> usize {
        2
    }
    fn rhs(&self, y: &[f64], dy: &mut [f64]) {
        dy[0] = y[1];
        dy[1] = -y[0];
    }
    fn n_events(&self) -> usize {
        2
    }
    fn events(&self, y: &[f64], g: &mut [f64]) {
        g[0] = y[0] - 0.5;
        g[1] = y[1];
    }
    fn on_event(&mut self, t: f64, index: usize, _rising: bool, _y: &mut [f64]) -> EventAction {
        self.events.push((index, t));
        EventAction::Continue
    }
}

#[test]
fn fixed_step_order_is_four() {
    let mut solver = Rodas::new();
    let sys = Oscillator { events: vec![] };
    let mut errs = vec![];
    for n in [20usize, 40, 80] {
        let mut y = [0.0, 1.0];
        solver.integrate_fixed(&sys, &mut y, 2.0, n);
        errs.push(((y[0] - 2f64.sin()).powi(2) + (y[1] - 2f64.cos()).powi(2)).sqrt());
    }
    for w in errs.windows(2) {
        let order = (w[0] / w[1]).log2();
        assert!(
            (3.6..4.6).contains(&order),
            "observed order {order} from {errs:?}"
        );
    }
}

/// y' = y², y(0) = 1: y = 1/(1 − t), a nonlinear problem with a closed form (order conditions
/// beyond the linear ones).
struct Riccati;

impl System for Riccati {
    fn dim(&self) -> usize {
        1
    }
    fn rhs(&self, y: &[f64], dy: &mut [f64]) {
        dy[0] = y[0] * y[0];
    }
    fn jacobian(&self, y: &[f64], jac: &mut [f64]) -> bool {
        jac[0] = 2.0 * y[0];
        true
    }
}

/// Observed orders of the fixed-step method on the oscillator and on the Riccati equation.
fn observed_orders(method: Method, steps: [usize; 3]) -> Vec<f64> {
    let mut solver = Rodas::with_method(method);
    let mut orders = vec![];
    let mut errs = vec![];
    for n in steps {
        let mut y = [0.0, 1.0];
        solver.integrate_fixed(&Oscillator { events: vec![] }, &mut y, 2.0, n);
        errs.push(((y[0] - 2f64.sin()).powi(2) + (y[1] - 2f64.cos()).powi(2)).sqrt());
    }
    orders.extend(errs.windows(2).map(|w| (w[0] / w[1]).log2()));
    errs.clear();
    for n in steps {
        let mut y = [1.0];
        solver.integrate_fixed(&Riccati, &mut y, 0.5, n);
        errs.push((y[0] - 2.0).abs());
    }
    orders.extend(errs.windows(2).map(|w| (w[0] / w[1]).log2()));
    orders
}

#[test]
fn rodas5p_fixed_step_order_is_five() {
    // orders[0..2]: the linear oscillator, where Rodas5P happens to reach order 6;
    // orders[2..4]: the nonlinear Riccati equation, which shows the classical order 5.
    let orders = observed_orders(Method::Rodas5P, [10, 20, 40]);
    for &o in &orders[..2] {
        assert!((4.6..6.6).contains(&o), "observed orders {orders:?}");
    }
    for &o in &orders[2..] {
        assert!((4.6..5.6).contains(&o), "observed orders {orders:?}");
    }
    // The same problems separate the methods: Rodas4 shows order 4 on both (approached from
    // below on the Riccati equation at these step counts).
    let orders4 = observed_orders(Method::Rodas4, [10, 20, 40]);
    for &o in &orders4 {
        assert!((3.3..4.6).contains(&o), "Rodas4 orders {orders4:?}");
    }
}

#[test]
fn rodas5p_error_control_and_stiffness() {
    let mut solver = Rodas::with_method(Method::Rodas5P);
    let mut prev = f64::INFINITY;
    for rtol in [1e-5, 1e-7, 1e-9] {
        let mut sys = Oscillator { events: vec![] };
        let mut y = [0.0, 1.0];
        let opts = Options {
            rtol,
            atol: rtol,
            ..Options::default()
        };
        solver
            .integrate(&mut sys, 0.0, &mut y, 10.0, &opts)
            .unwrap();
        let err = (y[0] - 10f64.sin()).abs().max((y[1] - 10f64.cos()).abs());
        assert!(err < 200.0 * rtol, "rtol {rtol}: error {err}");
        assert!(err < prev, "error did not fall with the tolerance");
        prev = err;
    }
    // Prothero–Robinson, λ = −1e6: y' = λ (y − sin t) + cos t, y = sin t. L-stability keeps the
    // step count small and the stiff component does not ring.
    struct Pr;
    impl System for Pr {
        fn dim(&self) -> usize {
            2
        }
        fn rhs(&self, y: &[f64], dy: &mut [f64]) {
            // y[1] is time, so the system is autonomous.
            dy[0] = -1e6 * (y[0] - y[1].sin()) + y[1].cos();
            dy[1] = 1.0;
        }
    }
    let mut y = [0.0, 0.0];
    let st = solver
        .integrate(&mut Pr, 0.0, &mut y, 10.0, &Options::default())
        .unwrap();
    assert!((y[0] - 10f64.sin()).abs() < 1e-7, "y(10) = {}", y[0]);
    assert!(st.steps < 2000, "{st:?}");
}

#[test]
fn error_control_tracks_the_tolerance() {
    let mut solver = Rodas::new();
    let mut prev = f64::INFINITY;
    for rtol in [1e-5, 1e-7, 1e-9] {
        let mut sys = Oscillator { events: vec![] };
        let mut y = [0.0, 1.0];
        let opts = Options {
            rtol,
            atol: rtol,
            ..Options::default()
        };
        let st = solver
            .integrate(&mut sys, 0.0, &mut y, 10.0, &opts)
            .unwrap();
        let err = (y[0] - 10f64.sin()).abs().max((y[1] - 10f64.cos()).abs());
        assert!(err < 200.0 * rtol, "rtol {rtol}: error {err}");
        assert!(err < prev, "error did not fall with the tolerance");
        prev = err;
        assert!(st.steps > 0 && st.fevals > st.steps);
    }
}

#[test]
fn events_are_located_to_high_accuracy() {
    let mut solver = Rodas::new();
    let mut sys = Oscillator { events: vec![] };
    let mut y = [0.0, 1.0];
    // Event times can only be as accurate as the solution itself (error/ẏ), so ask for 1e-11.
    let opts = Options {
        rtol: 1e-11,
        atol: 1e-11,
        ..Options::default()
    };
    solver.integrate(&mut sys, 0.0, &mut y, 7.0, &opts).unwrap();
    let pi = std::f64::consts::PI;
    let want = [
        (0, pi / 6.0),
        (1, pi / 2.0),
        (0, 5.0 * pi / 6.0),
        (1, 1.5 * pi),
        (0, 2.0 * pi + pi / 6.0),
    ];
    assert_eq!(sys.events.len(), want.len(), "{:?}", sys.events);
    for (got, w) in sys.events.iter().zip(want) {
        assert_eq!(got.0, w.0);
        assert!((got.1 - w.1).abs() < 1e-10, "event {:?} vs {:?}", got, w);
    }
}

/// Prothero–Robinson: y' = λ (y − cos t) − sin t, y(0) = 1, solution cos t; time is a state.
struct Prothero {
    lambda: f64,
}

impl System for Prothero {
    fn dim(&self) -> usize {
        2
    }
    fn rhs(&self, y: &[f64], dy: &mut [f64]) {
        dy[0] = self.lambda * (y[0] - y[1].cos()) - y[1].sin();
        dy[1] = 1.0;
    }
}

#[test]
fn stiff_problem_needs_few_steps_and_stays_accurate() {
    let mut solver = Rodas::new();
    let mut sys = Prothero { lambda: -1e6 };
    let mut y = [1.0, 0.0];
    let st = solver
        .integrate(&mut sys, 0.0, &mut y, 10.0, &Options::default())
        .unwrap();
    assert!((y[0] - 10f64.cos()).abs() < 1e-7, "y = {}", y[0]);
    // An explicit method would need > 1e6 steps (stability bound h < 2/|λ|).
    assert!(st.steps < 2000, "{st:?}");
}

/// x' = −x + Σ z_i / n, z_i' = −(i+1) (z_i − x): arrow-shaped; checked against the dense path.
struct Arrow {
    n: usize,
    structured: bool,
}

impl System for Arrow {
    fn dim(&self) -> usize {
        1 + self.n
    }
    fn rhs(&self, y: &[f64], dy: &mut [f64]) {
        let s: f64 = y[1..].iter().sum();
        dy[0] = -y[0] + s / self.n as f64 + 1.0;
        for i in 0..self.n {
            dy[1 + i] = -((i + 1) as f64) * 100.0 * (y[1 + i] - y[0]);
        }
    }
    fn dense_head(&self) -> Option<usize> {
        self.structured.then_some(1)
    }
    fn observe(&mut self, _t: f64, _y: &[f64], _p: Point) {}
}

#[test]
fn schur_factorisation_matches_dense() {
    let mut solver = Rodas::new();
    let mut out = vec![];
    for structured in [false, true] {
        let mut sys = Arrow { n: 30, structured };
        let mut y = vec![0.0; 31];
        solver
            .integrate(&mut sys, 0.0, &mut y, 2.0, &Options::default())
            .unwrap();
        out.push(y);
    }
    for (a, b) in out[0].iter().zip(&out[1]) {
        assert!((a - b).abs() < 1e-7, "{a} vs {b}");
    }
    // Steady state x = 1/(1 − 1) is unbounded; instead check x(2) against the reduced ODE
    // x' = 1 (z ≈ x): x ≈ 2 minus the lag of the fast modes.
    assert!((out[1][0] - 2.0).abs() < 0.05, "{}", out[1][0]);
}

/// `inner` padded with constant states up to `dim`, so that it runs through the general
/// (pivoted LU) path instead of the fixed-size explicit-inverse one.
struct Padded {
    inner: Arrow,
    dim: usize,
}

impl System for Padded {
    fn dim(&self) -> usize {
        self.dim
    }
    fn rhs(&self, y: &[f64], dy: &mut [f64]) {
        let n = self.inner.dim();
        self.inner.rhs(&y[..n], &mut dy[..n]);
        dy[n..].fill(0.0);
    }
    fn observe(&mut self, _t: f64, _y: &[f64], _p: Point) {}
}

/// Every size of the fixed-size path (up to 7 continuous states, Leuven's default) gives the
/// general path's solution.
#[test]
fn fixed_size_path_matches_general_path() {
    let mut solver = Rodas::new();
    for d in 2..=7 {
        let mut small = Arrow {
            n: d - 1,
            structured: false,
        };
        let mut y = vec![0.0; d];
        solver
            .integrate(&mut small, 0.0, &mut y, 2.0, &Options::default())
            .unwrap();
        let mut padded = Padded {
            inner: Arrow {
                n: d - 1,
                structured: false,
            },
            dim: 9,
        };
        let mut yp = vec![0.0; 9];
        solver
            .integrate(&mut padded, 0.0, &mut yp, 2.0, &Options::default())
            .unwrap();
        for (a, b) in y.iter().zip(&yp) {
            assert!((a - b).abs() < 1e-6, "size {d}: {a} vs {b}");
        }
        assert!((y[0] - 2.0).abs() < 0.05, "size {d}: x(2) = {}", y[0]);
    }
}
