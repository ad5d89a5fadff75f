//! Armstrong-Hélouvry seven-parameter model (\[T\] §6.2) as a hybrid state model: pre-sliding
//! spring, dwell-dependent breakaway, steady sliding law, the Rabinowicz benchmark and finite
//! output. Defaults: F_C = μ_k F_N = 0.981 N, F_S,∞ = (μ_s − μ_k) F_N = 0.4905 N,
//! F_S,a = 0.5 F_S,∞, σ0 = 1e5 N/m, F_v = 0.01 N·s/m, v_s = 1e-3 m/s, τ_L = 1e-3 s, γ = 1 s.

#![allow(clippy::unwrap_used)] // tests may panic on a broken invariant

use friction_core::experiments::settle::settle;
use friction_core::experiments::stickslip::{build_for_bench, run_bench, Bench, Workspace};
use friction_core::integrate::implicit_euler::StateStepper;
use friction_core::model::FrictionModel;
use friction_core::registry::find;
use friction_core::statics::armstrong::{Armstrong, MODE, SW_BREAKAWAY, T2, VL, XP};
use friction_core::statics::FromValues;
use proptest::prelude::*;

const FC: f64 = 0.981;
const FS_INF: f64 = 0.4905;
const FSA: f64 = 0.5 * FS_INF;
const SIGMA0: f64 = 1e5;
const GAMMA: f64 = 1.0;
const FV: f64 = 0.01;

/// Closed form of the breakaway force F_C + F_S(γ, t_2) at the defaults.
fn breakaway(t2: f64) -> f64 {
    FC + FSA + (FS_INF - FSA) * t2 / (t2 + GAMMA)
}

fn default_model() -> Armstrong {
    Armstrong::from_values(&[]).unwrap()
}

/// Bisection for the root of a function increasing through zero on \[lo, hi\].
fn root(f: impl Fn(f64) -> f64, mut lo: f64, mut hi: f64) -> f64 {
    assert!(f(lo) < 0.0 && f(hi) > 0.0);
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if f(mid) < 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    0.5 * (lo + hi)
}

#[test]
fn registry_entry_builds_the_hybrid_model() {
    let e = find("armstrong").unwrap();
    assert_eq!(e.info.category.as_str(), "static-stiction");
    let keys: Vec<&str> = e.info.params.iter().map(|p| p.key).collect();
    assert_eq!(
        keys,
        [
            "mus",
            "muk",
            "fn",
            "sigma0",
            "fv",
            "vs",
            "taul",
            "gamma",
            "fsa_ratio"
        ]
    );
    let m = e.build_default().unwrap();
    assert_eq!((m.n_states(), m.n_discrete(), m.n_switches()), (4, 1, 2));
    let mut x = [9.0; 4];
    m.initial_state(&mut x);
    assert_eq!(
        x, [0.0; 4],
        "virgin state: stuck, no displacement, no dwell"
    );
}

#[test]
fn parameters_are_validated_with_key_and_range() {
    let e = find("armstrong").unwrap();
    let err = (e.build)(&[0.1, 0.15]).err().unwrap();
    assert_eq!(err.key, "mus", "μ_s < μ_k would make F_S,∞ negative");
    let err = (e.build)(&[0.15, 0.1, 9.81, 1e5, 0.1, 1e-3, -1.0])
        .err()
        .unwrap();
    assert_eq!(err.key, "taul");
    let err = (e.build)(&[0.15, 0.1, 9.81, 1e5, 0.1, 1e-3, 1e-3, 1.0, 1.5])
        .err()
        .unwrap();
    assert_eq!(err.key, "fsa_ratio");
    assert!(err.to_string().contains("fsa_ratio"), "{err}");
}

#[test]
fn stick_force_is_the_presliding_spring() {
    let m = default_model();
    let mut dx = [0.0; 4];
    for xp in [-1.2e-5, -3e-6, 0.0, 4e-7, 1.1e-5] {
        let x = [xp, 0.3, 0.0, 0.0];
        let h = 1e-9;
        let slope = (m.force(0.0, 0.0, &[xp + h, 0.3, 0.0, 0.0]) - m.force(0.0, 0.0, &x)) / h;
        assert!((slope - SIGMA0).abs() < 1e-6 * SIGMA0, "dF/dx_p = {slope}");
        // independent of v and F_e while stuck
        assert_eq!(m.force(3e-3, -5.0, &x), SIGMA0 * xp);
        // x_p follows the displacement, the dwell clock runs
        m.derivative(2.5e-4, 0.0, &x, &mut dx);
        assert_eq!((dx[XP], dx[T2], dx[MODE]), (2.5e-4, 1.0, 0.0));
    }
    // driven at constant v from rest: F = σ0 v t exactly until breakaway (Euler is exact here)
    let v = 1e-3;
    let mut x = [0.0; 4];
    let h = 1e-5;
    for k in 1..=10 {
        m.derivative(v, 0.0, &x, &mut dx);
        for i in 0..4 {
            x[i] += h * dx[i];
        }
        let want = SIGMA0 * v * k as f64 * h;
        assert!((m.force(v, 0.0, &x) - want).abs() < 1e-12, "step {k}");
    }
}

#[test]
fn stiction_excess_has_the_closed_form() {
    let m = default_model();
    for t2 in [0.0, 0.1, 1.0, 3.0, 40.0, 1e6] {
        let want = breakaway(t2);
        assert!(
            (m.breakaway(t2) - want).abs() < 1e-14,
            "t2 = {t2}: {} vs {want}",
            m.breakaway(t2)
        );
    }
    // limits: F_C + F_S,a at zero dwell, μ_s F_N after an infinite one
    assert!((m.breakaway(0.0) - 1.22625).abs() < 1e-14);
    assert!((m.breakaway(f64::INFINITY) - 1.4715).abs() < 1e-14);
    assert!((m.breakaway(GAMMA) - (FC + 0.75 * FS_INF)).abs() < 1e-14);
}

/// Rest for `dwell` seconds, then move at v0 until the breakaway switch fires; returns
/// (the largest stick force seen, the force the closed form predicts, mode afterwards).
fn dwell_then_push(m: &Armstrong, dwell: f64, v0: f64) -> (f64, f64, f64) {
    let mut x = [0.0; 4];
    let mut dx = [0.0; 4];
    let mut g = [0.0; 2];
    let h = 1e-6;
    // the dwell: v = 0, only t_2 (and v_L, which stays 0) change
    let n_dwell = (dwell / h).round() as usize;
    x[T2] = n_dwell as f64 * h;
    let mut f_max: f64 = 0.0;
    for _ in 0..10_000_000 {
        m.switches(v0, 0.0, &x, &mut g);
        let before = g[SW_BREAKAWAY];
        m.derivative(v0, 0.0, &x, &mut dx);
        for i in 0..4 {
            x[i] += h * dx[i];
        }
        m.switches(v0, 0.0, &x, &mut g);
        if before > 0.0 && g[SW_BREAKAWAY] <= 0.0 {
            m.on_switch(SW_BREAKAWAY, false, v0, 0.0, &mut x);
            break;
        }
        f_max = f_max.max(m.force(v0, 0.0, &x).abs());
    }
    // independent prediction: σ0 v0 t_b = F_C + F_S(γ, dwell + t_b)
    let tb = root(
        |t| SIGMA0 * v0 * t - breakaway(n_dwell as f64 * h + t),
        0.0,
        1.0,
    );
    (f_max, SIGMA0 * v0 * tb, x[MODE])
}

#[test]
fn breakaway_rises_with_dwell_time() {
    let m = default_model();
    let v0 = 1e-3;
    let mut last = 0.0;
    for dwell in [0.0, 0.5, 2.0, 10.0] {
        let (f_brk, want, mode) = dwell_then_push(&m, dwell, v0);
        // one Euler step of the spring is σ0 v0 h = 1e-4 N
        assert!(
            (f_brk - want).abs() < 1.5e-4,
            "dwell {dwell}: breakaway {f_brk}, closed form {want}"
        );
        assert!(
            f_brk > last + 0.01,
            "dwell {dwell}: {f_brk} not above {last}"
        );
        assert_eq!(mode, 1.0, "slips in the direction of the push");
        last = f_brk;
    }
    // long dwell: close to the long-dwell breakaway μ_s F_N
    assert!((last - 1.4715).abs() < 0.03, "{last}");
}

#[test]
fn steady_sliding_matches_the_slip_law() {
    let m = default_model();
    let mut st = StateStepper::new(4);
    // sliding with the dwell of the last stick frozen at t_2 = 2 s: F_S(1 s, 2 s) = F_S,a + (F_S,∞ −
    // F_S,a)·2/3 = 0.40875 N; the lag state settles at v_L = v
    let fs = FSA + (FS_INF - FSA) * 2.0 / 3.0;
    assert!((fs - 0.40875).abs() < 1e-12);
    for v in [2e-4f64, 1e-3, 5e-3, 0.1, -7e-4, -0.03] {
        let mut x = [0.0, 2.0, 0.0, v.signum()];
        settle(&m, &mut st, v, 0.0, &mut x, 1.0);
        let want = (FC + FV * v.abs() + fs / (1.0 + (v / 1e-3) * (v / 1e-3))) * v.signum();
        let got = m.force(v, 0.0, &x);
        assert!((got - want).abs() < 1e-9, "v = {v}: F = {got}, want {want}");
        assert_eq!(x[T2], 2.0, "dwell frozen while slipping");
        assert!((x[VL] - v).abs() < 1e-12 * v.abs().max(1e-3));
    }
    // from rest at constant v: stick, breakaway, then steady slip with the dwell that stick took
    let v = 2e-3;
    let mut x = [0.0; 4];
    settle(&m, &mut st, v, 0.0, &mut x, 1.0);
    assert_eq!(x[MODE], 1.0);
    let t2 = x[T2];
    // σ0 v t_2 reached F_C + F_S(t_2): t_2 ≈ 6.2 ms (up to one of settle's geometric steps)
    assert!(t2 > 5e-3 && t2 < 0.05, "dwell {t2}");
    let want = FC + FV * v + (breakaway(t2) - FC) / (1.0 + 4.0);
    assert!((m.force(v, 0.0, &x) - want).abs() < 1e-9);
}

#[test]
fn slip_to_stick_when_v_passes_zero_resets_presliding_and_dwell() {
    let m = default_model();
    let mut x = [3e-6, 4.0, -2e-4, -1.0];
    let mut g = [0.0; 2];
    m.switches(-1e-4, 0.0, &x, &mut g);
    assert!(g[1] > 0.0);
    m.switches(1e-6, 0.0, &x, &mut g);
    assert!(g[1] < 0.0, "v·direction falls through 0");
    assert!(m.on_switch(1, false, 0.0, 0.0, &mut x));
    assert_eq!((x[XP], x[T2], x[MODE]), (0.0, 0.0, 0.0));
    assert_eq!(x[VL], -2e-4, "the lag state is continuous");
    assert_eq!(m.force(0.0, 0.0, &x), 0.0);
    // in stick neither switch can fire spuriously
    assert!(!m.on_switch(1, false, 0.0, 0.0, &mut x));
    m.switches(0.0, 0.0, &x, &mut g);
    assert!(g[0] > 0.0 && g[1] > 0.0);
}

#[test]
fn zero_lag_uses_the_undelayed_velocity() {
    let e = find("armstrong").unwrap();
    let m = (e.build)(&[0.15, 0.1, 9.81, 1e5, 0.1, 1e-3, 0.0]).unwrap();
    let v = 1e-3;
    // v_L state is ignored (and inert) with τ_L = 0
    let x = [0.0, 0.0, 123.0, 1.0];
    let want = FC + 0.1 * v + FSA / 2.0; // F_v = 0.1 given
    assert!((m.force(v, 0.0, &x) - want).abs() < 1e-12);
    let mut dx = [1.0; 4];
    m.derivative(v, 0.0, &x, &mut dx);
    assert_eq!(dx, [0.0; 4]);
}

#[test]
fn rabinowicz_benchmark_sticks_and_slips() {
    let b = Bench::TABLE_6_1;
    let model = build_for_bench(find("armstrong").unwrap(), &b).unwrap();
    let r = run_bench(&mut Workspace::default(), &b, model.as_ref()).unwrap();
    assert_eq!(*r.t.last().unwrap(), 40.0);
    let mt = r.metrics();
    // Expected breakaway: stuck from t = 0, the body follows the belt less the spring deflection,
    // so −F = σ0|x_p| = k x = k(v_b t − |F|/σ0), i.e. |F| = k v_b t/(1 + k/σ0), and the dwell is
    // t itself. It breaks when that reaches F_C + F_S(γ, t): μ_s m g·(dwell factor) with the
    // factor [F_C + F_S,a + (F_S,∞ − F_S,a) t/(t + γ)]/(μ_s m g) < 1.
    let (k, vb) = (b.k, b.vb);
    let tb = root(
        |t| k * vb * t / (1.0 + k / SIGMA0) - breakaway(t),
        1.0,
        20.0,
    );
    let f_expect = breakaway(tb);
    let factor = f_expect / (b.mus * b.m * b.g);
    assert!((tb - 7.21).abs() < 0.01, "t_b = {tb}");
    assert!(factor > 0.97 && factor < 0.985, "dwell factor {factor}");
    // the undamped pre-sliding spring rings with ~1e-3 N at √(σ0/m)
    assert!(
        (mt.breakaway_force - f_expect).abs() < 3e-3,
        "breakaway {} N, expected {f_expect} N",
        mt.breakaway_force
    );
    assert!((mt.breakaway_time - tb).abs() < 0.05, "{mt:?}");
    // stick-slip to the end: repeated x-maxima, each followed by a stick (v = 0 held for a while)
    assert!(mt.n_maxima >= 3, "{mt:?}");
    let late_stick =
        r.t.iter()
            .zip(&r.v)
            .filter(|(t, v)| **t > 30.0 && v.abs() < 1e-2)
            .count();
    assert!(late_stick > 10, "no stick phase after 30 s");
    assert!(r.x.iter().chain(&r.force).all(|a| a.is_finite()));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(32))]
    #[test]
    fn output_is_finite_for_random_parameters(
        u in proptest::collection::vec(0.0f64..1.0, 9),
        v in prop_oneof![-1e3f64..1e3, -1e-3f64..1e-3, Just(0.0), Just(1e300), Just(-1e300)],
        fe in -1e3f64..1e3,
        xs in proptest::collection::vec(prop_oneof![-1e2f64..1e2, -1e-5f64..1e-5, Just(1e300), Just(-1e300)], 4),
    ) {
        let e = find("armstrong").unwrap();
        let vals: Vec<f64> = e.info.params.iter().zip(&u).map(|(p, t)| {
            if p.log && p.min > 0.0 { (p.min.ln() + t * (p.max.ln() - p.min.ln())).exp() } else { p.min + t * (p.max - p.min) }
        }).collect();
        if let Ok(m) = (e.build)(&vals) {
            let mut x = xs.clone();
            let mut dx = [0.0; 4];
            let mut g = [0.0; 2];
            for mode in [x[3], 0.0, 1.0, -1.0] {
                x[3] = mode;
                prop_assert!(m.force(v, fe, &x).is_finite(), "{vals:?} {x:?}");
                m.derivative(v, fe, &x, &mut dx);
                prop_assert!(dx.iter().all(|d| d.is_finite()), "{vals:?} {x:?} {dx:?}");
                m.switches(v, fe, &x, &mut g);
                prop_assert!(g.iter().all(|d| d.is_finite()), "{vals:?} {x:?} {g:?}");
                for i in 0..4 {
                    prop_assert!(m.state_scale(i) > 0.0 && m.state_scale(i).is_finite());
                }
                let mut y = x.clone();
                for s in 0..2 {
                    m.on_switch(s, false, v, fe, &mut y);
                    prop_assert!(y.iter().all(|a| !a.is_nan()));
                    prop_assert!(m.force(v, fe, &y).is_finite());
                }
            }
        }
    }
}
