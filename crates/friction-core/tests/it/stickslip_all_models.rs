//! Every registered model (static, dynamic, FrbD) finishes the 40 s benchmark at rtol = 1e-8,
//! the view validates its parameters, builders reject bad values by key, and the outputs agree
//! with the equation of motion.

#![allow(clippy::unwrap_used)]

use friction_core::experiments::stickslip::{
    build_for_bench, metrics_csv, run, run_bench, to_csv, Bench, BenchRun, Workspace, PARAMS,
};
use friction_core::model::Category;
use friction_core::registry::registry;
use friction_core::views::stickslip::VIEW as STICKSLIP_VIEW;
use proptest::prelude::*;

#[test]
fn every_model_finishes_the_benchmark() {
    let b = Bench::TABLE_6_1;
    let mut ws = Workspace::default();
    let mut n = 0;
    for e in registry() {
        let model = build_for_bench(e, &b).unwrap_or_else(|err| panic!("{}: {err}", e.info.id));
        let r = run_bench(&mut ws, &b, model.as_ref())
            .unwrap_or_else(|err| panic!("{} did not finish: {err}", e.info.id));
        assert_eq!(*r.t.last().unwrap(), 40.0, "{}", e.info.id);
        let m = r.metrics();
        assert!(
            m.steps > 0 && m.breakaway_time.is_finite(),
            "{}: {m:?}",
            e.info.id
        );
        assert!(
            r.x.iter().chain(&r.force).all(|v| v.is_finite()),
            "{}",
            e.info.id
        );
        // Equation of motion: m ẍ = −k x − F at every recorded point.
        for i in 0..r.t.len() {
            let res = r.xddot[i] + 2.0 * r.x[i] + r.force[i];
            assert!(
                res.abs() < 1e-9,
                "{} residual {res} at t = {}",
                e.info.id,
                r.t[i]
            );
        }
        if e.info.category == Category::Dynamic {
            n += 1;
        }
    }
    assert_eq!(n, 15, "all 15 dynamic ids registered");
}

#[test]
fn dynamic_ids_in_the_issue_order() {
    let ids: Vec<&str> = friction_core::dynamics::ENTRIES
        .iter()
        .map(|e| e.info.id)
        .collect();
    assert_eq!(
        ids,
        [
            "dahl",
            "bristle",
            "reset-integrator",
            "bliman-sorine",
            "bliman-sorine-2",
            "lugre",
            "dankowicz",
            "leuven",
            "elasto-plastic",
            "gms",
            "gonthier",
            "liang",
            "maxwell",
            "modified-stribeck",
            "lugre-rational"
        ]
    );
    for e in friction_core::dynamics::ENTRIES {
        assert_eq!(
            e.info.provisional,
            matches!(e.info.id, "dankowicz" | "leuven"),
            "{}",
            e.info.id
        );
    }
}

#[test]
fn view_parameters_and_outputs() {
    assert_eq!(STICKSLIP_VIEW.name, "stickslip");
    let keys: Vec<&str> = STICKSLIP_VIEW.params.iter().map(|p| p.key).collect();
    // (new keys go last: `derive` reads m and g by position)
    assert_eq!(
        keys,
        ["m", "kspring", "vb", "mus", "muk", "g", "tend", "vrel0", "spring"]
    );
    assert_eq!(STICKSLIP_VIEW.derived_model_keys, ["fn"]);
    let defaults: Vec<f64> = PARAMS.iter().map(|p| p.default).collect();
    assert_eq!(defaults, [1.0, 2.0, 0.1, 0.15, 0.1, 9.81, 40.0, 0.0, 1.0]);
    let err = run(
        &[1.0, -2.0],
        &*build_for_bench(
            friction_core::registry::find("lugre").unwrap(),
            &Bench::TABLE_6_1,
        )
        .unwrap(),
    )
    .unwrap_err();
    assert!(err.to_string().contains("kspring"), "{err}");
    let model = build_for_bench(
        friction_core::registry::find("lugre").unwrap(),
        &Bench::TABLE_6_1,
    )
    .unwrap();
    let r = run(&[1.0, 2.0, 0.1, 0.15, 0.1, 9.81, 2.0], model.as_ref()).unwrap();
    let csv = to_csv(&r);
    assert!(csv.starts_with("t,x,xdot,F\n0,0,0.1,"), "{}", &csv[..40]);
    assert_eq!(csv.lines().count(), r.t.len() + 1);
    let mcsv = metrics_csv(&r.metrics());
    assert!(mcsv.contains("breakaway_time,") && mcsv.contains("period,"));
}

#[test]
fn builders_reject_bad_values_by_key() {
    for e in friction_core::dynamics::ENTRIES {
        for (i, p) in e.info.params.iter().enumerate() {
            let mut v: Vec<f64> = e.info.params.iter().map(|p| p.default).collect();
            for bad in [f64::NAN, p.max * 10.0 + 1.0, p.min - 1.0] {
                v[i] = bad;
                match (e.build)(&v) {
                    Err(err) => assert!(!err.key.is_empty(), "{}", e.info.id),
                    Ok(_) => panic!("{}: {} = {bad} accepted", e.info.id, p.key),
                }
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(32))]

    /// Any in-range parameter set builds or is rejected with a key, and the model's outputs stay
    /// finite for any finite input.
    #[test]
    fn random_parameters_never_panic(fracs in prop::collection::vec(0.0f64..=1.0, 12), v in -10.0f64..10.0, fe in -100.0f64..100.0) {
        for e in friction_core::dynamics::ENTRIES {
            let vals: Vec<f64> = e.info.params.iter().zip(fracs.iter().cycle()).map(|(p, f)| {
                let x = if p.log && p.min > 0.0 {
                    (p.min.ln() + f * (p.max.ln() - p.min.ln())).exp()
                } else {
                    p.min + f * (p.max - p.min)
                };
                if matches!(p.key, "n" | "seed" | "form") { x.round().min(if p.key == "n" { 20.0 } else { p.max }) } else { x }
            }).collect();
            if let Ok(m) = (e.build)(&vals) {
                let n = m.n_states();
                let mut x = vec![0.0; n];
                m.initial_state(&mut x);
                let mut dx = vec![0.0; n];
                m.derivative(v, fe, &x, &mut dx);
                prop_assert!(dx.iter().all(|d| d.is_finite()), "{} derivative", e.info.id);
                prop_assert!(m.force(v, fe, &x).is_finite(), "{} force", e.info.id);
            }
        }
    }
}

#[test]
fn switching_models_finish_at_tight_tolerance_without_a_rejection_storm() {
    // A switch where the right-hand side jumps (the edge of Karnopp's stick window, the reset
    // integrator's release) is crossed cleanly only by a step that lands on it: at tol 1e-12
    // a step across the jump rarely passes the error test. Before the stepper landed after
    // such rejections, Karnopp took 57 000 steps and 36 000 rejections here (4 400 and 230
    // now).
    let b = Bench::TABLE_6_1;
    for id in ["karnopp", "reset-integrator"] {
        let e = friction_core::registry::find(id).unwrap();
        let model = build_for_bench(e, &b).unwrap();
        let mut end = Vec::new();
        for tol in [1e-10, 1e-12] {
            let r = run_at(&b, model.as_ref(), tol, id);
            let m = r.metrics();
            assert!(
                m.steps + m.rejected < 20_000,
                "{id} at tol {tol}: {} steps, {} rejected",
                m.steps,
                m.rejected
            );
            end.push(*r.x.last().unwrap());
        }
        // Karnopp's end point converges only about linearly in the tolerance (its window
        // edges): 1e-10 is within a few 1e-6 of 1e-12.
        assert!(
            (end[0] - end[1]).abs() < 2e-5,
            "{id}: x(40) {} at 1e-10 vs {} at 1e-12",
            end[0],
            end[1]
        );
    }
}

#[test]
fn micro_slip_laws_deliver_the_tolerance_they_are_asked_for() {
    // LuGre and elasto-plastic creep before breakaway at |v| far below the error norm's
    // velocity scale; with Rodas5P at loose tolerances that creep error grew into end-point
    // errors of 6-14 times the tolerance (elasto-plastic 1.4e-5 m at 1e-6), so the run did not
    // deliver what was asked. `method_at` gives LuGre Rodas4 there; elasto-plastic keeps
    // Rodas5P with a tighter weight on its creep velocity (`micro_slip_scale_at`).
    let b = Bench::TABLE_6_1;
    for id in ["lugre", "elasto-plastic"] {
        let e = friction_core::registry::find(id).unwrap();
        let model = build_for_bench(e, &b).unwrap();
        let end = |tol: f64| *run_at(&b, model.as_ref(), tol, id).x.last().unwrap();
        let x_ref = end(1e-12);
        for tol in [1e-6, 5e-7, 2e-7] {
            let err = (end(tol) - x_ref).abs();
            assert!(
                err <= 3.0 * tol,
                "{id} at tol {tol}: x(40) off by {err:.2e} m from the 1e-12 run"
            );
        }
    }
}

#[test]
fn leuven_elements_held_on_their_limits_do_not_chatter() {
    // Held elements sit on their limits and rounding moves them by an ulp either way; with the
    // switching surface on the limit itself every ulp was a crossing: 34 000 to 115 000
    // events in a 40 s run at these tolerances (30 at 1e-8), and 50-150x the run time.
    let b = Bench::TABLE_6_1;
    let e = friction_core::registry::find("leuven").unwrap();
    let model = build_for_bench(e, &b).unwrap();
    for tol in [3e-7, 1e-6, 2e-6, 3e-6, 5e-6] {
        let m = run_at(&b, model.as_ref(), tol, "leuven").metrics();
        assert!(m.events < 100, "tol {tol}: {} events", m.events);
    }
}

#[test]
fn a_run_cut_into_pieces_is_the_same_run() {
    // The page advances a run a few hundred steps per frame; the series, the metrics and the
    // step counts must not depend on where it was cut.
    let b = Bench::TABLE_6_1;
    for id in ["lugre", "karnopp", "gms", "reset-integrator", "bristle"] {
        let e = friction_core::registry::find(id).unwrap();
        let model = build_for_bench(e, &b).unwrap();
        let whole = run_bench(&mut Workspace::default(), &b, model.as_ref()).unwrap();
        let mut ws = Workspace::default();
        let mut run = BenchRun::start(&mut ws, &b, model.as_ref()).unwrap();
        let mut pieces = 0;
        let cut = loop {
            pieces += 1;
            let before = run.time();
            if let Some(r) = run.advance(&mut ws, model.as_ref(), 37).unwrap() {
                break r;
            }
            assert!(run.time() > before, "{id}: a piece made no progress");
        };
        assert!(pieces > 10, "{id}: only {pieces} pieces");
        assert_eq!(whole.t, cut.t, "{id}");
        assert_eq!(whole.x, cut.x, "{id}");
        assert_eq!(whole.force, cut.force, "{id}");
        assert_eq!(whole.metrics(), cut.metrics(), "{id}");
    }
}

#[test]
fn a_run_over_the_step_budget_says_what_to_change() {
    use friction_core::experiments::stickslip::{StickSlipError, MAX_STEPS};
    use friction_core::integrate::rodas::SolveError;
    let msg = StickSlipError::Solver(SolveError::TooManySteps { t: 338.9 }).to_string();
    assert!(msg.contains("tend") && msg.contains("kspring"), "{msg}");
    assert!(msg.contains(&MAX_STEPS.to_string()), "{msg}");
    // A stiff spring over a long run reaches the budget; the run computed so far is kept for
    // the page, with metrics over the span it covers.
    let b = Bench {
        k: 1e6,
        tend: 1000.0,
        ..Bench::TABLE_6_1
    };
    let e = friction_core::registry::find("liang").unwrap();
    let model = build_for_bench(e, &b).unwrap();
    let mut ws = Workspace::default();
    let mut run = BenchRun::start(&mut ws, &b, model.as_ref()).unwrap();
    let err = loop {
        match run.advance(&mut ws, model.as_ref(), 1_000_000) {
            Ok(None) => {}
            Ok(Some(_)) => panic!("finished within the budget"),
            Err(e) => break e.to_string(),
        }
    };
    assert!(err.contains("kspring"), "{err}");
    let part = run.partial(&ws).expect("a partial run");
    let t_end = *part.t.last().unwrap();
    assert!(t_end > 1.0 && t_end < b.tend, "stopped at {t_end}");
    assert!(err.contains(&format!("{t_end:.4}")), "{err} / {t_end}");
    let m = part.metrics();
    assert!(
        m.steps > MAX_STEPS / 2 && m.breakaway_time.is_finite(),
        "{m:?}"
    );
    assert!(run.partial(&ws).is_none(), "taken once");
}

/// The benchmark run of `model` at rtol = atol = `tol` (`id` names it if it fails).
fn run_at(
    b: &Bench,
    model: &dyn friction_core::model::FrictionModel,
    tol: f64,
    id: &str,
) -> friction_core::experiments::stickslip::StickSlipRun {
    let mut ws = Workspace {
        tolerance: Some(tol),
        ..Workspace::default()
    };
    run_bench(&mut ws, b, model).unwrap_or_else(|err| panic!("{id} at tol {tol}: {err}"))
}
