//! Every dynamic model at prescribed velocity: steady states (GMS: Σ k_i s_i = F_ss sgn v;
//! Gonthier: the F_max cap binds), pre-sliding slopes from the virgin state and after a reversal
//! (2σ0 for Dahl and LuGre, not σ0), bounded states,
//! the LuGre passivity condition, and the library's LuGre belt example.

#![allow(clippy::unwrap_used)]

use friction_core::experiments::settle::mean_force;
use friction_core::integrate::implicit_euler::StateStepper;
use friction_core::integrate::rodas::{EventAction, Options, Rodas, System};
use friction_core::model::FrictionModel;
use friction_core::registry::find;
use proptest::prelude::*;

/// A model driven by a prescribed velocity profile v(t); the last state is ∫F v dt (supplied
/// energy) and time is carried as a state so the profile can depend on it.
struct Driven<'a> {
    model: &'a dyn FrictionModel,
    v: &'a dyn Fn(f64) -> f64,
    n: usize,
}

impl System for Driven<'_> {
    // Layout [t, E, model states…] so the model's discrete states are the trailing ones.
    fn dim(&self) -> usize {
        self.n + 2
    }
    fn rhs(&self, y: &[f64], dy: &mut [f64]) {
        let v = (self.v)(y[0]);
        self.model.derivative(v, 0.0, &y[2..], &mut dy[2..]);
        dy[0] = 1.0;
        dy[1] = self.model.force(v, 0.0, &y[2..]) * v;
    }
    fn scale(&self, i: usize) -> f64 {
        if i >= 2 {
            self.model.state_scale(i - 2)
        } else {
            1.0
        }
    }
    fn n_frozen(&self) -> usize {
        self.model.n_discrete()
    }
    fn n_events(&self) -> usize {
        self.model.n_switches()
    }
    fn events(&self, y: &[f64], g: &mut [f64]) {
        let v = (self.v)(y[0]);
        self.model.switches(v, 0.0, &y[2..], g);
    }
    fn on_event(&mut self, _t: f64, i: usize, rising: bool, y: &mut [f64]) -> EventAction {
        let v = (self.v)(y[0]);
        self.model.on_switch(i, rising, v, 0.0, &mut y[2..]);
        EventAction::Reset
    }
}

/// Runs `model` from its virgin state under v(t) until `tend`; returns (states, F(tend), energy).
fn drive(model: &dyn FrictionModel, v: &dyn Fn(f64) -> f64, tend: f64) -> (Vec<f64>, f64, f64) {
    let n = model.n_states();
    let mut y = vec![0.0; n + 2];
    model.initial_state(&mut y[2..]);
    let mut sys = Driven { model, v, n };
    let opts = Options {
        rtol: 1e-10,
        atol: 1e-10,
        hmax: 0.05,
        ..Options::default()
    };
    Rodas::new()
        .integrate(&mut sys, 0.0, &mut y, tend, &opts)
        .unwrap_or_else(|e| panic!("{}: {e}", model.info().id));
    let f = model.force(v(tend), 0.0, &y[2..]);
    (y[2..].to_vec(), f, y[1])
}

fn build(id: &str, over: &[(&str, f64)]) -> Box<dyn FrictionModel> {
    let e = find(id).unwrap_or_else(|| panic!("{id} not registered"));
    e.build_with(over)
        .unwrap_or_else(|err| panic!("{id}: {err}"))
}

const FC: f64 = 0.981;
const FS: f64 = 1.4715;
const SIGMA2: f64 = 0.1;
const VS: f64 = 1e-3;

fn gauss(v: f64) -> f64 {
    FC + (FS - FC) * (-(v / VS) * (v / VS)).exp()
}

#[test]
fn steady_states_at_constant_velocity() {
    let sg = |v: f64| v.signum();
    type Expect = Box<dyn Fn(f64) -> f64>;
    type Case = (&'static str, Vec<(&'static str, f64)>, Expect, f64);
    let cases: Vec<Case> = vec![
        ("dahl", vec![], Box::new(move |v| FC * sg(v)), 5.0),
        ("dankowicz", vec![], Box::new(move |v| FC * sg(v)), 5.0),
        ("bliman-sorine", vec![], Box::new(move |v| FC * sg(v)), 5.0),
        (
            "bliman-sorine-2",
            vec![],
            Box::new(move |v| FC * sg(v)),
            20.0,
        ),
        (
            "lugre",
            vec![],
            Box::new(move |v| gauss(v) * sg(v) + SIGMA2 * v),
            5.0,
        ),
        (
            "elasto-plastic",
            vec![],
            Box::new(move |v: f64| (FC + (FS - FC) * (-(v / VS).abs()).exp()) * sg(v) + SIGMA2 * v),
            5.0,
        ),
        (
            "gms",
            vec![],
            Box::new(move |v| gauss(v) * sg(v) + SIGMA2 * v),
            5.0,
        ),
        // Gonthier: the F_max cap binds at every speed for Table 7.1, giving the Gaussian curve;
        // reaching it takes several τ_dw = 2 s.
        (
            "gonthier",
            vec![],
            Box::new(move |v| gauss(v) * sg(v) + SIGMA2 * v),
            60.0,
        ),
        (
            "leuven",
            vec![],
            Box::new(move |v| gauss(v) * sg(v) + SIGMA2 * v),
            5.0,
        ),
        ("liang", vec![], Box::new(move |v| FC * sg(v)), 5.0),
        (
            "reset-integrator",
            vec![],
            Box::new(move |v| FC * sg(v)),
            5.0,
        ),
        (
            "maxwell",
            vec![("mu", 0.1)],
            Box::new(move |v| FC * sg(v)),
            5.0,
        ),
        (
            "modified-stribeck",
            vec![("mus", 0.15), ("muk", 0.1), ("vs", VS), ("bv", SIGMA2)],
            Box::new(move |v| gauss(v) * sg(v) + SIGMA2 * v),
            5.0,
        ),
        (
            "lugre-rational",
            vec![("mus", 0.15), ("muk", 0.1), ("vs", VS), ("sigma2", SIGMA2)],
            Box::new(move |v: f64| {
                (FC + (FS - FC) / (1.0 + (v / VS).powi(2))) * sg(v) + SIGMA2 * v
            }),
            5.0,
        ),
    ];
    for (id, over, expect, tend) in cases {
        let m = build(id, &over);
        for v in [-0.05, -0.002, 0.0015, 0.01, 0.3] {
            let (_, f, _) = drive(m.as_ref(), &move |_| v, tend);
            let want = expect(v);
            assert!(
                (f - want).abs() < 2e-3 * want.abs().max(0.1),
                "{id} at v = {v}: F = {f}, expected {want}"
            );
        }
    }
}

#[test]
fn bristle_model_slides_near_the_coulomb_level_and_is_reproducible() {
    let m = build("bristle", &[]);
    // Samples of the force over a long slide (a saw-tooth: a loose check; the mean level is
    // checked below).
    let n = m.n_states();
    let mut acc = 0.0;
    let mut count = 0;
    let mut first = None;
    for k in 1..=20 {
        let (y, f, _) = drive(m.as_ref(), &|_| 0.01, 0.5 * k as f64);
        assert!(f.abs() <= FS * (1.0 + 1e-9), "bristle force {f} above F_s");
        if k == 20 {
            first = Some(y[..n].to_vec());
        }
        if k > 4 {
            acc += f;
            count += 1;
        }
    }
    let mean = acc / count as f64;
    assert!((mean - FC).abs() < 0.15 * FC, "mean sliding force {mean}");
    let (y2, _, _) = drive(m.as_ref(), &|_| 0.01, 10.0);
    assert_eq!(first.unwrap(), y2[..n].to_vec(), "same seed, same run");
}

#[test]
fn many_bristles_slide_at_the_coulomb_level() {
    // The time-averaged bond deflection is δ_s − Δ/3 (a bristle re-bonded by uΔ takes a time
    // ∝ u to climb back), so Δ = 3 (F_s − F_C)/σ0 slides at F_C; with Δ/4, the untimed
    // average, the model slid 14 % below it. 50 bristles, read over tens of teeth by the
    // curve view's own mean.
    for (mus, over) in [(0.15, 0.03), (0.3, 0.05)] {
        let m = build("bristle", &[("n", 50.0), ("mus", mus)]);
        let mut x = vec![0.0; m.n_states()];
        m.initial_state(&mut x);
        let mut st = StateStepper::new(m.n_states());
        let f = mean_force(m.as_ref(), &mut st, 0.01, 0.0, &mut x).unwrap();
        assert!(
            (f - FC).abs() < over * FC,
            "μ_s = {mus}: mean sliding force {f}, F_C = {FC}"
        );
    }
}

/// Slope dF/dx over a small displacement at slow speed, after `pre` (seconds at `vpre`).
fn slope(id: &str, vpre: f64, pre: f64, vrev: f64) -> f64 {
    let m = build(id, &[]);
    let profile = move |t: f64| if t < pre { vpre } else { vrev };
    // Two displacements 1e-8 m and 2e-8 m into the new motion; σ1 ż terms cancel in the difference.
    let t1 = pre + 1e-8 / vrev.abs();
    let t2 = pre + 2e-8 / vrev.abs();
    let (_, f1, _) = drive(m.as_ref(), &profile, t1);
    let (_, f2, _) = drive(m.as_ref(), &profile, t2);
    (f2 - f1) / (vrev * (t2 - t1))
}

#[test]
fn presliding_slopes_from_virgin_state_and_after_reversal() {
    let s0 = 1e5;
    for id in ["dahl", "lugre", "elasto-plastic", "gonthier"] {
        let k = slope(id, 0.0, 0.0, 1e-7);
        assert!((k - s0).abs() < 0.01 * s0, "{id} virgin slope {k}");
    }
    // 2σ0 (not σ0) for Dahl after steady sliding, σ0 for elasto-plastic. For LuGre the
    // reversal slope is σ0 (1 + g(v_old)/g(v_new)): 2σ0 when g is the same on both sides, here
    // (sliding at 10 v_S, reversing at 0.01 v_S) σ0 (1 + F_C/F_s) ≈ 1.67 σ0.
    let lugre = s0 * (1.0 + gauss(0.01) / gauss(1e-5));
    for (id, want) in [("dahl", 2.0 * s0), ("lugre", lugre), ("elasto-plastic", s0)] {
        let k = slope(id, 0.01, 0.2, -1e-5);
        assert!(
            (k - want).abs() < 0.02 * want,
            "{id} reversal slope {k}, want {want}"
        );
    }
    let k = slope("maxwell", 0.0, 0.0, 1e-5);
    assert!((k - 1e3).abs() < 1.0, "maxwell slope {k}");
}

#[test]
fn lugre_passivity_condition() {
    let e = find("lugre").unwrap();
    let _ = e;
    use friction_core::dynamics::lugre::LuGre;
    let table = LuGre {
        fs: FS,
        fc: FC,
        sigma0: 1e5,
        sigma1: 1e5f64.sqrt(),
        sigma2: 0.1,
        vs: VS,
    };
    // [T] Table 7.1: the benchmark set violates σ2 > σ1 (F_s − F_C)/F_C (158 > 0.1).
    assert!(!table.passive());
    assert!(LuGre {
        sigma2: 200.0,
        ..table
    }
    .passive());
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// Bounded states: from the virgin state the elastic force σ0 z never exceeds F_s (LuGre,
    /// elasto-plastic) or F_C (Dahl) under any velocity history; and with the passivity
    /// condition met, LuGre never returns more energy than it stored: ∫F v dt ≥ σ0 z²/2.
    #[test]
    fn bounded_states_and_passivity(amps in prop::collection::vec(-0.05f64..0.05, 6), sigma2 in prop::bool::ANY) {
        let profile = move |t: f64| {
            let k = ((t / 0.01) as usize).min(amps.len() - 1);
            amps[k] * (1.0 + (t * 700.0).sin()) * 0.5
        };
        for (id, cap) in [("dahl", FC), ("lugre", FS), ("elasto-plastic", FS)] {
            let m = build(id, &[]);
            let (z, _, _) = drive(m.as_ref(), &profile, 0.06);
            prop_assert!((1e5 * z[0]).abs() <= cap * (1.0 + 1e-6), "{} z = {}", id, z[0]);
        }
        let over = if sigma2 { vec![("sigma2", 200.0)] } else { vec![("sigma1", 0.0)] };
        let m = build("lugre", &over);
        let (z, _, energy) = drive(m.as_ref(), &profile, 0.06);
        let stored = 0.5 * 1e5 * z[0] * z[0];
        prop_assert!(energy >= stored - 1e-9, "supplied {} < stored {}", energy, stored);
    }
}

/// The library's LuGre belt example (\[L\] form: v′ = v_b − ẋ, m ẍ = F(v′) − k x), m = 5 kg,
/// k = 5e3 N/m, belt 0.1 m/s, N = m g, rational LuGre with the example parameters; the block
/// starts at rest.
struct Belt {
    model: Box<dyn FrictionModel>,
}

impl System for Belt {
    fn dim(&self) -> usize {
        3
    }
    fn rhs(&self, y: &[f64], dy: &mut [f64]) {
        let vr = 0.1 - y[1];
        let f = self.model.force(vr, 0.0, &y[2..]);
        dy[0] = y[1];
        dy[1] = (f - 5e3 * y[0]) / 5.0;
        self.model.derivative(vr, 0.0, &y[2..], &mut dy[2..]);
    }
    fn scale(&self, i: usize) -> f64 {
        if i == 2 {
            1e-5
        } else {
            1.0
        }
    }
    fn n_events(&self) -> usize {
        1
    }
    fn events(&self, y: &[f64], g: &mut [f64]) {
        g[0] = y[1];
    }
    fn on_event(&mut self, _t: f64, _i: usize, _r: bool, _y: &mut [f64]) -> EventAction {
        EventAction::Continue
    }
    fn observe(&mut self, _t: f64, _y: &[f64], _p: friction_core::integrate::rodas::Point) {}
}

#[test]
fn library_lugre_belt_example_shape() {
    let mut sys = Belt {
        model: build("lugre-rational", &[("fn", 5.0 * 9.81)]),
    };
    struct Rec {
        inner: Belt,
        maxima: Vec<(f64, f64)>,
        last_v: f64,
    }
    impl System for Rec {
        fn dim(&self) -> usize {
            3
        }
        fn rhs(&self, y: &[f64], dy: &mut [f64]) {
            self.inner.rhs(y, dy)
        }
        fn scale(&self, i: usize) -> f64 {
            self.inner.scale(i)
        }
        fn n_events(&self) -> usize {
            1
        }
        fn events(&self, y: &[f64], g: &mut [f64]) {
            self.inner.events(y, g)
        }
        fn on_event(&mut self, t: f64, _i: usize, rising: bool, y: &mut [f64]) -> EventAction {
            if !rising {
                self.maxima.push((t, y[0]));
            }
            EventAction::Continue
        }
        fn observe(&mut self, _t: f64, y: &[f64], _p: friction_core::integrate::rodas::Point) {
            self.last_v = y[1];
        }
    }
    let mut rec = Rec {
        inner: Belt {
            model: std::mem::replace(&mut sys.model, build("dahl", &[])),
        },
        maxima: vec![],
        last_v: 0.0,
    };
    let mut y = [0.0, 0.0, 0.0];
    Rodas::new()
        .integrate(&mut rec, 0.0, &mut y, 1.0, &Options::default())
        .unwrap();
    assert!(rec.maxima.len() >= 3, "{:?}", rec.maxima);
    for &(_, x) in &rec.maxima {
        assert!((0.006..0.010).contains(&x), "peak {x} m not near 8 mm");
    }
    let n = rec.maxima.len();
    let period = (rec.maxima[n - 1].0 - rec.maxima[0].0) / (n - 1) as f64;
    assert!((0.15..0.25).contains(&period), "period {period} s");
    let _ = rec.last_v;
}

#[test]
fn analytic_partials_match_finite_differences() {
    for (id, over) in [
        ("gms", vec![("n", 5.0)]),
        ("bristle", vec![]),
        ("dahl", vec![]),
        ("dahl", vec![("alpha", 2.0)]),
        ("dahl", vec![("alpha", 0.5)]),
        ("dahl", vec![("alpha", 1.5)]),
        ("lugre", vec![]),
        ("lugre-rational", vec![]),
        ("lugre-rational", vec![("alpha", 1.5)]),
        ("dankowicz", vec![]),
        ("bliman-sorine", vec![]),
        ("maxwell", vec![]),
        ("liang", vec![]),
        ("reset-integrator", vec![]),
        ("modified-stribeck", vec![]),
        ("elasto-plastic", vec![]),
        ("bliman-sorine-2", vec![]),
    ] {
        let m = build(id, &over);
        let n = m.n_states();
        let nz = n - m.n_discrete();
        // States with mixed modes: drive a while so some GMS elements slip, then reverse
        // (states inside their limits) or not (states held at a limit, transition regions).
        for (tend, v) in [
            (0.0102, -0.0031),
            (0.0102, 0.0007),
            (0.0099, 0.0007),
            (0.0003, 0.0007),
        ] {
            // Dahl with α < 1 has |r|^(α−1) → ∞ at steady sliding (r → 0): no finite
            // difference resolves it there.
            if id == "dahl" && over.iter().any(|&(_, a)| a < 1.0) && tend == 0.0099 {
                continue;
            }
            let (x, _, _) = drive(
                m.as_ref(),
                &|t: f64| 0.004 * (1.0 - 2.0 * (t > 0.01) as i32 as f64),
                tend,
            );
            let (mut dzdz, mut dzdv, mut dfdz) = (vec![0.0; n], vec![0.0; n], vec![0.0; n]);
            let dfdv = m
                .partials(v, 0.0, &x, &mut dzdz, &mut dzdv, &mut dfdz)
                .unwrap();
            let mut d0 = vec![0.0; n];
            let mut d1 = vec![0.0; n];
            m.derivative(v, 0.0, &x, &mut d0);
            let f0 = m.force(v, 0.0, &x);
            let hv = 1e-9;
            let mut dv1 = vec![0.0; n];
            m.derivative(v + hv, 0.0, &x, &mut dv1);
            let fv = m.force(v + hv, 0.0, &x);
            assert!(
                ((fv - f0) / hv - dfdv).abs() < 1e-3 * dfdv.abs().max(1.0),
                "{id} dF/dv"
            );
            for i in 0..nz {
                assert!(
                    ((dv1[i] - d0[i]) / hv - dzdv[i]).abs() < 1e-4 * dzdv[i].abs().max(1.0),
                    "{id} dz/dv {i}"
                );
                let mut xp = x.clone();
                let hz = 1e-6 * m.state_scale(i);
                xp[i] += hz;
                m.derivative(v, 0.0, &xp, &mut d1);
                let fz = m.force(v, 0.0, &xp);
                assert!(
                    ((d1[i] - d0[i]) / hz - dzdz[i]).abs() < 1e-4 * dzdz[i].abs().max(1.0),
                    "{id} {over:?} t={tend} v={v} x={x:?} dz/dz {i}: fd {} analytic {}",
                    (d1[i] - d0[i]) / hz,
                    dzdz[i]
                );
                assert!(
                    ((fz - f0) / hz - dfdz[i]).abs() < 1e-4 * dfdz[i].abs().max(1.0),
                    "{id} dF/dz {i}"
                );
            }
        }
    }
}

#[test]
fn derivative_and_force_matches_the_separate_calls() {
    for e in friction_core::registry::registry() {
        let m = e.build_default().unwrap();
        let n = m.n_states();
        for (tend, v) in [(0.0102, -0.0031), (0.0099, 0.0007), (0.0003, 0.2)] {
            let (x, _, _) = drive(
                m.as_ref(),
                &|t: f64| 0.004 * (1.0 - 2.0 * (t > 0.01) as i32 as f64),
                tend,
            );
            let (mut d0, mut d1) = (vec![0.0; n], vec![0.0; n]);
            m.derivative(v, 0.3, &x, &mut d0);
            let f0 = m.force(v, 0.3, &x);
            let f1 = m.derivative_and_force(v, 0.3, &x, &mut d1);
            assert_eq!(f0.to_bits(), f1.to_bits(), "{} F", e.info.id);
            for i in 0..n {
                assert_eq!(d0[i].to_bits(), d1[i].to_bits(), "{} dx {i}", e.info.id);
            }
        }
    }
}

/// A solver may try states outside the physical range; the force must stay defined there
/// (Gonthier's F_max = F_C + (F_s − F_C)·s_dw turned negative once and `clamp` panicked).
#[test]
fn gonthier_force_is_defined_for_out_of_range_dwell_states() {
    let entry = friction_core::registry::find("gonthier").expect("registered");
    let m = entry.build_default().expect("defaults build");
    for sdw in [-10.0, -1e300, 2.0, f64::NAN] {
        for z in [0.0, 1e-3, -1e-3] {
            let f = m.force(0.01, 0.0, &[z, sdw]);
            assert!(!f.is_nan() || sdw.is_nan(), "sdw = {sdw}, z = {z}: F = {f}");
        }
    }
}

/// The friction library's modified Stribeck element clamps its state to the limit g(v) in both
/// directions, δ ← sgn(ζ)·min(|ζ|, g(v)) (the library's `modified_stribeck_model`). Loaded to g(0)
/// at low speed and then reversed to 0.3 m/s = 3 v_s within 0.1 mm of travel, the limit falls from
/// a1 + a2 to a1 while the element unloads: the discrete clamp pulls δ down with it, and the
/// continuous model must follow. Reference: the library's discrete update, stepped here at 0.1 µs.
#[test]
fn modified_stribeck_clamps_its_state_while_unloading_under_a_falling_limit() {
    let m = build("modified-stribeck", &[]);
    // defaults: μ_s = 0.25, μ_c = 0.15, v_s = 0.1 m/s, b_v = 0, k = 1e4 N/m, F_N = 9.81 N
    let (k, fc, vs) = (1e4, 0.15 * 9.81, 0.1);
    let (a1, a2) = (fc / k, 0.1 * 9.81 / k);
    let limit = |v: f64| a1 + a2 * (-(v / vs) * (v / vs)).exp();
    // 10 mm/s for 30 ms (saturates at g ≈ a1 + 0.99 a2 after 24 ms), then a linear ramp to
    // −0.3 m/s in 0.1 ms (15 µm of travel), then held.
    let (t1, ramp, v_load, v_back) = (0.03, 1e-4, 0.01, -0.3);
    let profile = move |t: f64| {
        if t <= t1 {
            v_load
        } else if t <= t1 + ramp {
            v_load + (v_back - v_load) * (t - t1) / ramp
        } else {
            v_back
        }
    };
    // the library's update with the exact travel of each step
    let dt = 1e-7;
    let reference = |tend: f64| {
        let (mut d, mut t) = (0.0f64, 0.0);
        let steps = (tend / dt).round() as usize;
        for _ in 0..steps {
            let (va, vb) = (profile(t), profile(t + dt));
            let mid = profile(t + 0.5 * dt);
            let travel = dt * (va + 4.0 * mid + vb) / 6.0;
            t += dt;
            let zeta = d + travel;
            d = zeta.signum() * zeta.abs().min(limit(vb));
        }
        k * d
    };
    // from 20 µs after the ramp (6 µm of travel: the continuous form relaxes onto the limit over
    // η g ≈ 0.15 µm) until the element has crossed to the other side
    for after in [2e-5, 5e-5, 1e-4, 2e-4, 3e-4, 5e-4, 8e-4, 1.2e-3] {
        let tend = t1 + ramp + after;
        let (_, f, _) = drive(m.as_ref(), &profile, tend);
        let want = reference(tend);
        assert!(
            (f - want).abs() < 1e-3 * fc,
            "{after} s after the reversal: F = {f} N, discrete clamp {want} N (F_C = {fc} N)"
        );
    }
    // The analytic partials hold beyond the limit while unloading too (the case the pull-back
    // now covers): δ = 1.2 g(v) at v = −0.2 m/s.
    let (v, d) = (-0.2, 1.2 * limit(-0.2));
    let (mut dzdz, mut dzdv, mut dfdz) = ([0.0], [0.0], [0.0]);
    let dfdv = m
        .partials(v, 0.0, &[d], &mut dzdz, &mut dzdv, &mut dfdz)
        .unwrap();
    let rate = |v: f64, d: f64| {
        let mut dx = [0.0];
        m.derivative(v, 0.0, &[d], &mut dx);
        dx[0]
    };
    let (hv, hd) = (1e-7, 1e-12);
    let fd_v = (rate(v + hv, d) - rate(v - hv, d)) / (2.0 * hv);
    let fd_d = (rate(v, d + hd) - rate(v, d - hd)) / (2.0 * hd);
    let fd_f = (m.force(v + hv, 0.0, &[d]) - m.force(v - hv, 0.0, &[d])) / (2.0 * hv);
    assert!(
        (fd_v - dzdv[0]).abs() < 1e-5 * dzdv[0].abs(),
        "dż/dv {fd_v} vs {}",
        dzdv[0]
    );
    assert!(
        (fd_d - dzdz[0]).abs() < 1e-5 * dzdz[0].abs(),
        "dż/dδ {fd_d} vs {}",
        dzdz[0]
    );
    assert!(
        (fd_f - dfdv).abs() < 1e-5 * dfdv.abs(),
        "dF/dv {fd_f} vs {dfdv}"
    );
    assert_eq!(dfdz[0], 0.0);
}

/// GMS in the friction library's form takes explicit per-element lists k_i, b_i, ν_i; lists
/// equal to what the model derives (σ0/N, σ1/N, ν_i ∝ i^q) give the very same model: identical
/// forces and states, bit for bit, along a driven history with slips and a reversal.
#[test]
fn gms_explicit_element_lists_equal_to_the_derived_ones_give_identical_forces() {
    let e = find("gms").unwrap();
    let l = friction_core::registry::lists("gms").unwrap();
    for over in [vec![], vec![("n", 5.0), ("q", 2.0), ("sigma1", 40.0)]] {
        let vals = e.info.values_with(&over);
        let d = (l.resolve)(&vals, &[None, None, None]).unwrap();
        let derived = (e.build)(&vals).unwrap();
        let explicit = (l.build)(&vals, &[Some(&d[0]), Some(&d[1]), Some(&d[2])]).unwrap();
        let profile = |t: f64| 0.004 * (1.0 - 2.0 * (t > 0.01) as i32 as f64);
        for tend in [0.0003, 0.0099, 0.0102, 0.02] {
            let (xa, fa, ea) = drive(derived.as_ref(), &profile, tend);
            let (xb, fb, eb) = drive(explicit.as_ref(), &profile, tend);
            assert_eq!(fa.to_bits(), fb.to_bits(), "{over:?} F at {tend}");
            assert_eq!(ea.to_bits(), eb.to_bits(), "{over:?} energy at {tend}");
            assert!(xa.iter().zip(&xb).all(|(a, b)| a.to_bits() == b.to_bits()));
        }
    }
}

/// Explicit lists that differ element by element still slide at the steady state
/// Σν_i F_ss(v) sgn v + σ2 v = F_ss(v) sgn v + σ2 v (each element saturates at
/// ν_i F_ss whatever its k_i); bad lists are refused with the key named.
#[test]
fn gms_element_lists_keep_the_steady_state_and_are_validated() {
    let e = find("gms").unwrap();
    let l = friction_core::registry::lists("gms").unwrap();
    let vals: Vec<f64> = e
        .info
        .params
        .iter()
        .map(|p| if p.key == "n" { 3.0 } else { p.default })
        .collect();
    let (k, b, nu) = ([1e4, 5e4, 2e4], [100.0, 50.0, 0.0], [0.2, 0.3, 0.5]);
    let m = (l.build)(&vals, &[Some(&k), Some(&b), Some(&nu)]).unwrap();
    for v in [-0.002, 0.01] {
        let (_, f, _) = drive(m.as_ref(), &move |_| v, 5.0);
        let want = gauss(v) * v.signum() + SIGMA2 * v;
        assert!(
            (f - want).abs() < 2e-3 * want.abs(),
            "v = {v}: {f} vs {want}"
        );
    }
    let err = |lists: &[Option<&[f64]>]| (l.build)(&vals, lists).err().unwrap();
    let e1 = err(&[None, None, Some(&[0.2, 0.3, 0.4])]);
    assert_eq!(e1.key, "nui");
    assert!(
        e1.reason.contains("sum to 1") && e1.reason.contains("0.9"),
        "{e1}"
    );
    assert_eq!(err(&[Some(&[1e4, 1e4]), None, None]).key, "ki");
    assert_eq!(err(&[None, Some(&[1.0, -1.0, 1.0]), None]).key, "bi");
    // thirds typed by hand are close enough
    assert!((l.build)(&vals, &[None, None, Some(&[0.333333, 0.333333, 0.333334])]).is_ok());
}
