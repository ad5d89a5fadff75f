//! Unit tests of the benchmark driver and its closed loop.
use super::*;
use crate::integrate::rodas::{EventAction, Point, System};
use proptest::prelude::*;

fn bench_model(id: &str) -> Box<dyn FrictionModel> {
    let e = crate::registry::find(id).expect("registered");
    build_for_bench(e, &Bench::TABLE_6_1).expect("defaults build")
}

/// Signs of the loop's events plus the branch selectors that are no switching function
/// (sgn v, sgn Σ z, sgn ż0: Leuven's |v|, sgn F_h and hold test) at y.
fn pattern(sys: &ClosedLoop<'_>, y: &[f64]) -> Vec<i8> {
    let mut g = vec![0.0; sys.n_events()];
    sys.events(y, &mut g);
    let mut d = vec![0.0; sys.st.ns];
    let v = y[1] - sys.st.b.vb;
    sys.model.derivative(v, sys.fe(y), &y[2..], &mut d);
    g.extend([v, y[3..].iter().sum(), d[0]]);
    g.iter()
        .map(|&a| (a > 0.0) as i8 - (a < 0.0) as i8)
        .collect()
}

/// Compares `ClosedLoop::jacobian` with central differences of `rhs` column by column,
/// skipping columns whose stencil straddles a kink; returns the number of columns compared.
fn check_jacobian(sys: &ClosedLoop<'_>, y: &[f64]) -> Result<usize, TestCaseError> {
    let n = sys.dim();
    let nc = n - sys.n_frozen();
    let mut jac = vec![f64::NAN; nc * nc];
    prop_assert!(sys.jacobian(y, &mut jac), "no analytic Jacobian at {y:?}");
    let mut f0 = vec![0.0; n];
    sys.rhs(y, &mut f0);
    // Size of each row's terms: its value plus every input's first-order effect at the
    // input's own size (what rounding the inputs moves it by).
    let mag: Vec<f64> = (0..nc)
        .map(|i| (0..nc).fold(f0[i].abs(), |a, j| a + (jac[i * nc + j] * y[j]).abs()))
        .collect();
    let p0 = pattern(sys, y);
    let (mut fp, mut fm) = (vec![0.0; n], vec![0.0; n]);
    let mut compared = 0;
    for j in 0..nc {
        // ẋ is steered on the scale of v = ẋ − v_b (the kinks sit at |v| ~ 1e-5).
        let size = if j == 1 {
            (y[1] - sys.st.b.vb).abs().max(1e-5)
        } else {
            y[j].abs().max(sys.scale(j))
        };
        let (mut yp, mut ym) = (y.to_vec(), y.to_vec());
        yp[j] += 1e-6 * size;
        ym[j] -= 1e-6 * size;
        if pattern(sys, &yp) != p0 || pattern(sys, &ym) != p0 {
            continue;
        }
        sys.rhs(&yp, &mut fp);
        sys.rhs(&ym, &mut fm);
        let h = yp[j] - ym[j];
        compared += 1;
        for i in 0..nc {
            let fd = (fp[i] - fm[i]) / h;
            let an = jac[i * nc + j];
            prop_assert!(
                (fd - an).abs() <= 1e-5 * fd.abs().max(an.abs()) + 64.0 * f64::EPSILON * mag[i] / h,
                "J[{i}][{j}] at y={y:?}: fd {fd} analytic {an}"
            );
        }
    }
    Ok(compared)
}

fn velocity() -> impl Strategy<Value = f64> {
    prop_oneof![-2e-5f64..2e-5, -5e-3f64..5e-3, -0.5f64..0.5]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// The separable path (diagonal block from `partials`) for Gonthier.
    #[test]
    fn gonthier_closed_loop_jacobian_matches_central_differences(
        x in -1.0f64..1.0,
        v in velocity(),
        zr in -2.0f64..2.0,
        sdw in 0.0f64..1.0,
    ) {
        let m = bench_model("gonthier");
        let sys = ClosedLoop::new(m.as_ref(), &Bench::TABLE_6_1, Drive::Belt);
        let y = [x, sys.st.b.vb + v, zr * m.state_scale(0), sdw];
        let compared = check_jacobian(&sys, &y)?;
        prop_assume!(compared > 0);
    }

    /// The dense path (`partials_dense`) for Leuven, with elements inside and beyond their
    /// limits (held when pushed outwards).
    #[test]
    fn leuven_closed_loop_jacobian_matches_central_differences(
        x in -1.0f64..1.0,
        v in velocity(),
        zr in -1.0f64..1.0,
        u in proptest::collection::vec(-1.2f64..1.2, 4),
    ) {
        let m = bench_model("leuven");
        let sys = ClosedLoop::new(m.as_ref(), &Bench::TABLE_6_1, Drive::Belt);
        let mut g = vec![0.0; 4];
        m.switches(0.0, 0.0, &[0.0; 5], &mut g);
        let mut y = vec![x, sys.st.b.vb + v, zr * m.state_scale(0)];
        // g_i = |ζ_i| − Δ_i, so at ζ = 0 the limits are −g.
        y.extend((0..4).map(|i| -u[i] * g[i]));
        let compared = check_jacobian(&sys, &y)?;
        prop_assume!(compared > 0);
    }
}

/// Wraps the loop and records the range of Gonthier's dwell state at every accepted step
/// and event: an earlier attempt at analytic partials drove it out of \[0, 1\].
struct DwellWatch<'a> {
    inner: ClosedLoop<'a>,
    lo: f64,
    hi: f64,
}

impl System for DwellWatch<'_> {
    fn dim(&self) -> usize {
        self.inner.dim()
    }
    fn rhs(&self, y: &[f64], dy: &mut [f64]) {
        self.inner.rhs(y, dy)
    }
    fn jacobian(&self, y: &[f64], jac: &mut [f64]) -> bool {
        self.inner.jacobian(y, jac)
    }
    fn scale(&self, i: usize) -> f64 {
        self.inner.scale(i)
    }
    fn n_frozen(&self) -> usize {
        self.inner.n_frozen()
    }
    fn dense_head(&self) -> Option<usize> {
        self.inner.dense_head()
    }
    fn n_events(&self) -> usize {
        self.inner.n_events()
    }
    fn events(&self, y: &[f64], g: &mut [f64]) {
        self.inner.events(y, g)
    }
    fn on_event(&mut self, t: f64, index: usize, rising: bool, y: &mut [f64]) -> EventAction {
        self.inner.on_event(t, index, rising, y)
    }
    fn observe(&mut self, t: f64, y: &[f64], point: Point) {
        self.lo = self.lo.min(y[3]);
        self.hi = self.hi.max(y[3]);
        self.inner.observe(t, y, point)
    }
}

#[test]
fn gonthier_dwell_state_stays_in_range_with_analytic_partials() {
    let m = bench_model("gonthier");
    let b = Bench::TABLE_6_1;
    let mut sys = DwellWatch {
        inner: ClosedLoop::new(m.as_ref(), &b, Drive::Belt),
        lo: f64::INFINITY,
        hi: f64::NEG_INFINITY,
    };
    let mut y = vec![0.0, b.vb, 0.0, 0.0];
    m.initial_state(&mut y[2..]);
    // The analytic path is the one under test.
    let mut jac = [0.0; 16];
    assert!(sys.jacobian(&y, &mut jac));
    let opts = Options {
        rtol: RTOL,
        atol: ATOL,
        h0: 1e-6,
        hmax: b.tend / 200.0,
        max_steps: 1_000_000,
        predictive: false,
    };
    let mut solver = Rodas::with_method(method_for(m.as_ref()));
    solver
        .integrate(&mut sys, 0.0, &mut y, b.tend, &opts)
        .unwrap();
    assert!(sys.inner.st.maxima.len() >= 3, "no stick-slip cycles");
    assert!(
        sys.lo >= -1e-9 && sys.hi <= 1.0 + 1e-9,
        "s_dw left [0, 1]: [{}, {}]",
        sys.lo,
        sys.hi
    );
}

/// What `ELASTIC_LOOSENING` relies on: while elasto-plastic stays in its elastic band (α = 0)
/// the loop keeps x − z − v_b t, step by step, to round-off, even with the band's errors
/// weighed 1000 times looser (long steps through the loading before the first creep); once the
/// creep has begun (α > 0) it no longer does, so the check can tell the two apart.
#[test]
fn elastic_band_keeps_the_loop_invariant_to_round_off() {
    let m = bench_model("elasto-plastic");
    let b = Bench::TABLE_6_1;
    let opts = Options {
        rtol: 1e-7,
        atol: 1e-7,
        h0: 1e-6,
        hmax: b.tend / 200.0,
        max_steps: 1_000_000,
        predictive: true,
    };
    let drift = |tend: f64| {
        let mut sys = ClosedLoop::new(m.as_ref(), &b, Drive::Belt);
        sys.st.creep_weight = true;
        let mut y = vec![0.0, b.vb, 0.0];
        let mut solver = Rodas::with_method(Method::Rodas5P);
        let stats = solver
            .integrate(&mut sys, 0.0, &mut y, tend, &opts)
            .unwrap();
        // x − z − v_b t starts at 0
        ((y[0] - y[2] - b.vb * tend).abs(), y[2], stats.steps)
    };
    // |z| reaches z_ba (6.867e-6 m) when k x = σ0 z_ba, near x = 0.34 m, t = 3.4 s.
    let (d, z, steps) = drift(3.0);
    assert!(z.abs() < 6.867e-6, "left the band: z = {z:e}");
    assert!(
        d < 1e-14,
        "x − z − v_b t drifted by {d:e} m in {steps} steps"
    );
    let (d, z, _) = drift(6.0);
    assert!(z.abs() > 6.867e-6, "no creep by 6 s: z = {z:e}");
    assert!(d > 1e-9, "creep (α > 0) kept x − z − v_b t: {d:e} m");
}
