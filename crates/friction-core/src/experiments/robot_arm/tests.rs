#![allow(clippy::unwrap_used)]

use super::*;
use crate::frbd::{Contact, Gkv, Gm};
use proptest::prelude::*;

/// Table I GM (n = 1) through the n = 1 mapping to the letter's form (5).
fn gm() -> Frbd {
    Frbd::Gm(Gm::from_sigma(Contact::default(), 1e4, 64.5, 1e-3).unwrap())
}

/// Table I GKV (n = 1): the same dynamics as [`gm`] in the other rheology.
fn gkv() -> Frbd {
    Frbd::Gkv(Gkv::from_sigma(Contact::default(), 1e4, 64.5, 1e-3).unwrap())
}

fn gm3() -> Frbd {
    Frbd::Gm(
        Gm::new(
            Contact::default(),
            1e4,
            &[5.45e4, 1e4, 2e4],
            &[1e-3, 1e-2, 0.1],
        )
        .unwrap(),
    )
}

/// Integrates the loop to each time of `times` and returns the states there (the run's own
/// output has no bristle states).
fn states_at(arm: &Arm, model: &Frbd, times: &[f64]) -> Vec<Vec<f64>> {
    let mut sys = RobotLoop::new(*arm, model);
    let mut y = sys.initial_state();
    let mut solver = Rodas::new();
    let opts = Options {
        rtol: RTOL,
        atol: ATOL,
        ..Options::default()
    };
    let mut t = 0.0;
    let mut out = Vec::new();
    for &tk in times {
        solver.integrate(&mut sys, t, &mut y, tk, &opts).unwrap();
        t = tk;
        out.push(y.clone());
    }
    out
}

/// Largest rise of W between consecutive samples, relative to W(0).
fn max_rel_rise(r: &RobotRun) -> f64 {
    r.metrics.w_max_rise.max(0.0) / r.metrics.w0
}

#[test]
fn defaults_are_valid_and_keys_unique() {
    for p in PARAMS.iter().chain([&TEND]) {
        assert!(p.check(p.default).is_ok(), "{}", p.key);
    }
    let mut keys: Vec<&str> = PARAMS.iter().map(|p| p.key).collect();
    keys.sort_unstable();
    keys.dedup();
    assert_eq!(keys.len(), PARAMS.len());
    assert!(Arm::defaults().is_ok());
}

#[test]
fn lyapunov_function_never_increases_with_the_observer() {
    for (name, model) in [("gm", gm()), ("gkv", gkv()), ("gm n=3", gm3())] {
        for step in [false, true] {
            let mut arm = Arm::defaults().unwrap();
            arm.q0 = 0.2;
            arm.z0 = -2e-4;
            arm.zhat0 = 1e-4;
            if step {
                arm.reference = Reference::Step { amp: 0.5 };
            }
            let r = run(&arm, &model).unwrap();
            assert!(r.t.len() > 100);
            assert!(
                max_rel_rise(&r) < 1e-7,
                "{name} step={step}: W rose by {:e} of W0",
                max_rel_rise(&r)
            );
            assert!(
                r.metrics.w_end < 1e-6 * r.metrics.w0,
                "{name}: {:?}",
                r.metrics
            );
        }
    }
}

#[test]
fn lyapunov_rate_matches_storage_and_dissipation_and_is_below_minus_k1_s2() {
    for model in [gm(), gkv(), gm3()] {
        let mut arm = Arm::defaults().unwrap();
        arm.q0 = -0.3;
        arm.dq0 = 1.0;
        arm.z0 = 3e-4;
        arm.zhat0 = -1e-4;
        let times: Vec<f64> = (1..=40).map(|i| 0.0173 * i as f64).collect();
        let ys = states_at(&arm, &model, &times);
        let mut sys = RobotLoop::new(arm, &model);
        let mut f = vec![0.0; sys.dim()];
        let mut yp = f.clone();
        let mut ym = f.clone();
        let mut checked = 0;
        for y in &ys {
            sys.rhs(y, &mut f);
            // dW/dt along the vector field by a central difference of W (exact for the
            // quadratic part); this uses only W, not the identity being tested
            let h = 1e-7;
            for i in 0..y.len() {
                yp[i] = y[i] + h * f[i];
                ym[i] = y[i] - h * f[i];
            }
            let wdot = (sys.lyapunov(&yp) - sys.lyapunov(&ym)) / (2.0 * h);
            let theory = sys.lyapunov_rate_theory(y);
            let s = sys.sliding(y);
            let scale = theory.abs().max(1e-12);
            assert!(
                (wdot - theory).abs() < 1e-4 * scale + 1e-10,
                "dW/dt {wdot:e} vs −(c+k1)s² − D/k2 = {theory:e}"
            );
            assert!(wdot <= -arm.k1 * s * s + 1e-4 * scale + 1e-10, "{wdot:e}");
            checked += 1;
        }
        assert_eq!(checked, 40);
    }
}

#[test]
fn tracking_error_vanishes_with_the_observer_and_stays_without() {
    for model in [gm(), gkv()] {
        for step in [false, true] {
            let mut arm = Arm::defaults().unwrap();
            arm.q0 = 0.3;
            if step {
                arm.reference = Reference::Step { amp: 0.8 };
            }
            let e0 = (arm.q0 - arm.reference.eval(0.0).0).abs();
            let on = run(&arm, &model).unwrap().metrics;
            arm.observer = false;
            let off = run(&arm, &model).unwrap().metrics;
            assert!(on.final_error < 1e-6 * e0, "observer on: {on:?}");
            assert!(on.settling_time.is_finite());
            // the uncompensated loop keeps an error of order F/(k1 λ) ≈ 0.02 rad
            assert!(off.rms_error_late > 1e-3, "observer off: {off:?}");
            assert!(off.rms_error_late > 1e4 * on.rms_error_late);
            assert!(off.max_fhat_error_late > 0.5);
        }
    }
}

#[test]
fn frictionless_loop_matches_the_closed_form_of_s() {
    // p and k2 at their smallest: F and the injected observer error are ~1e-6 of the torques
    let c = Contact {
        p: 1e-6,
        ..Contact::default()
    };
    let model = Frbd::Gm(Gm::from_sigma(c, 1e4, 64.5, 1e-3).unwrap());
    let mut arm = Arm::defaults().unwrap();
    arm.k2 = 1e-6;
    arm.z0 = 0.0;
    arm.zhat0 = 0.0;
    arm.q0 = 0.4;
    arm.dq0 = -2.0;
    arm.c = 1.5;
    arm.m = 2.0;
    arm.tend = 2.0;
    let r = run(&arm, &model).unwrap();
    let s0 = r.s[0];
    assert!(s0.abs() > 1.0);
    let rate = (arm.c + arm.k1) / arm.m;
    for (t, s) in r.t.iter().zip(&r.s) {
        let exact = s0 * (-rate * t).exp();
        assert!((s - exact).abs() < 1e-6 * s0.abs(), "t={t}: {s} vs {exact}");
    }
}

#[test]
fn invalid_parameters_are_rejected_naming_the_key() {
    let mut v: Vec<f64> = PARAMS.iter().map(|p| p.default).collect();
    for (i, bad) in [(0, -1.0), (3, 0.0), (4, f64::NAN), (5, 1e9), (10, 1.0)] {
        let mut w = v.clone();
        w[i] = bad;
        let e = Arm::from_values(&w, 10.0, false, true).unwrap_err();
        assert_eq!(e.key, PARAMS[i].key);
    }
    let e = Arm::from_values(&v, 0.0, false, true).unwrap_err();
    assert_eq!(e.key, "tend");
    v[1] = f64::INFINITY;
    assert_eq!(Arm::from_values(&v, 1.0, true, true).unwrap_err().key, "cv");
    let el = Frbd::Elastic(crate::frbd::Elastic::new(Contact::default(), 1e4).unwrap());
    match run(&Arm::defaults().unwrap(), &el) {
        Err(RobotError::Param(e)) => assert_eq!(e.key, "model"),
        other => panic!("{other:?}"),
    }
}

#[test]
fn extreme_valid_parameters_return_instead_of_panicking() {
    let mut arm = Arm::defaults().unwrap();
    arm.m = 1e-3;
    arm.k1 = 1e4;
    arm.k2 = 1e4;
    arm.lambda = 1e3;
    arm.dq0 = 100.0;
    arm.tend = 0.05;
    let r = run(&arm, &gm());
    if let Ok(r) = r {
        assert!(r.t.iter().chain(&r.q).chain(&r.w).all(|x| x.is_finite()));
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 32, ..ProptestConfig::default() })]
    #[test]
    fn lyapunov_never_increases_for_random_gains_and_states(
        m in 0.1f64..10.0,
        c in 0.0f64..2.0,
        k1 in 0.5f64..50.0,
        lk2 in -2.0f64..1.0,
        lambda in 0.5f64..20.0,
        q0 in -1.0f64..1.0,
        dq0 in -2.0f64..2.0,
        z0 in -3e-4f64..3e-4,
        zhat0 in -3e-4f64..3e-4,
        use_gkv in any::<bool>(),
        step in any::<bool>(),
    ) {
        let mut arm = Arm::defaults().unwrap();
        arm.m = m;
        arm.c = c;
        arm.k1 = k1;
        arm.k2 = 10f64.powf(lk2);
        arm.lambda = lambda;
        arm.q0 = q0;
        arm.dq0 = dq0;
        arm.z0 = z0;
        arm.zhat0 = zhat0;
        arm.tend = 3.0;
        if step {
            arm.reference = Reference::Step { amp: 0.5 };
        }
        let model = if use_gkv { gkv() } else { gm() };
        let r = run(&arm, &model).unwrap();
        prop_assert!(max_rel_rise(&r) < 1e-7, "W rose by {:e} of W0", max_rel_rise(&r));
    }
}

#[test]
fn a_run_over_the_step_budget_says_what_to_change() {
    // 100 s of a 50 Hz reference (the top of both ranges) needs more steps than the budget.
    let mut arm = Arm::defaults().unwrap();
    arm.tend = 100.0;
    arm.reference = Reference::Sine {
        amp: arm.reference.amp(),
        freq: 50.0,
    };
    let msg = run(&arm, &gm()).unwrap_err().to_string();
    for key in ["tend", "qfreq", "400000"] {
        assert!(msg.contains(key), "{msg}");
    }
    // the page keeps what was computed up to the stop
    let mut pieces = RobotPieces::start(&arm, &gm()).unwrap();
    let err = loop {
        match pieces.advance(50_000) {
            Ok(None) => {}
            Ok(Some(_)) => panic!("finished within the budget"),
            Err(e) => break e.to_string(),
        }
    };
    assert_eq!(err, msg);
    let part = pieces.partial().expect("a partial run");
    let t_end = *part.t.last().unwrap();
    assert!(t_end > 1.0 && t_end < arm.tend, "stopped at {t_end}");
    assert!(err.contains(&format!("{t_end:.4}")), "{err} / {t_end}");
    // the budget counts attempts, rejected ones too
    assert!(part.metrics.steps + part.metrics.rejected >= MAX_STEPS * 9 / 10);
    assert!(part.metrics.max_error.is_finite() && part.metrics.w0 > 0.0);
    assert!(pieces.partial().is_none(), "taken once");
}

#[test]
fn a_run_cut_into_pieces_is_the_same_run() {
    let arm = Arm::defaults().unwrap();
    for model in [gm(), gkv()] {
        let whole = run(&arm, &model).unwrap();
        let mut pieces = RobotPieces::start(&arm, &model).unwrap();
        let mut n = 0;
        let cut = loop {
            n += 1;
            if let Some(r) = pieces.advance(29).unwrap() {
                break r;
            }
        };
        assert!(n > 10, "only {n} pieces");
        assert_eq!(whole.t, cut.t);
        assert_eq!(whole.q, cut.q);
        assert_eq!(whole.w, cut.w);
        assert_eq!(whole.metrics.steps, cut.metrics.steps);
    }
}
