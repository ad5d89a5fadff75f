//! The benchmark's end point converges with the solver tolerance: at every tolerance of the
//! work–precision ladder the error of x(40) against a tight run stays within a small multiple of
//! the tolerance, so no tolerance lands on a different stick-slip history.

#![allow(clippy::unwrap_used)]

use friction_core::experiments::stickslip::{build_for_bench, run_bench, Bench, Workspace};

/// x(40) \[m\] of `id` on the benchmark at rtol = atol = `tol`, with its located event count.
fn end_point(id: &str, tol: f64) -> (f64, usize) {
    let b = Bench::TABLE_6_1;
    let e = friction_core::registry::find(id).unwrap();
    let model = build_for_bench(e, &b).unwrap();
    let mut ws = Workspace {
        tolerance: Some(tol),
        ..Workspace::default()
    };
    let r = run_bench(&mut ws, &b, model.as_ref()).unwrap();
    (*r.x.last().unwrap(), r.metrics().events)
}

/// GMS on Rodas4 (its method then) ended 4e-4 m from the reference at 2e-8, 5e-7 and 1e-6
/// (1e-8: 2.7e-8) with the same event count, and on Rodas5P 1e-4–2e-3 m at every tolerance. At
/// the first stick (t ≈ 10.03 s) a 58 ms step crossing v = 0 passed its error test (0.74)
/// without resolving the Stribeck peak it crossed (|v| < v_S = 1e-3 m/s, a few ms), and the
/// landing step on the event, 0.84 of it, failed with err ≈ 7e6 but was used anyway: the ten
/// elements stuck 6.5 ms late, at v = +1.9e-3 m/s, and every later slip moved by up to 0.4 s.
#[test]
fn gms_end_point_error_follows_the_tolerance() {
    let (x_ref, ev_ref) = end_point("gms", 1e-11);
    for tol in [1e-8, 2e-8, 5e-8, 5e-7, 1e-6] {
        let (x, ev) = end_point("gms", tol);
        let err = (x - x_ref).abs();
        assert!(
            err < 10.0 * tol,
            "tol {tol:e}: |x(40) − x_ref| = {err:.2e} m ({ev} events, reference {ev_ref})"
        );
    }
}

/// LuGre and elasto-plastic stick by micro-slip: at rest the relative velocity v = ẋ − v_b is
/// ~1e-6 m/s, and the first breakaway (the Stribeck curve's negative slope) amplifies its error
/// ~1000×. While the solver weighed the velocity's error against |ẋ| ≈ v_b and 1 m/s, that
/// error went unseen: x(40) was 84 tol off at tol 1e-6 for LuGre and 146 tol at 5e-7 for
/// elasto-plastic (38 and 54 tol at 1e-8). Weighed against |v| and v_b/10 the worst is 11 tol.
#[test]
fn micro_slip_end_point_error_follows_the_tolerance() {
    for id in ["lugre", "elasto-plastic"] {
        let (x_ref, _) = end_point(id, 1e-11);
        for tol in [1e-8, 1e-7, 5e-7, 1e-6] {
            let (x, _) = end_point(id, tol);
            let err = (x - x_ref).abs();
            assert!(
                err < 15.0 * tol,
                "{id} at tol {tol:e}: |x(40) − x_ref| = {err:.2e} m"
            );
        }
    }
}

/// Issue 39: each model of the diffsol comparison delivers the end-point accuracy it is asked
/// for, from 1e-5 to 1e-10: |x(40) − x_ref| within 3 tol, x_ref a run at 1e-12. Elasto-plastic,
/// its velocity error weighed from a tenth of v_b, delivered 4.5 tol at 1e-5 and 11 tol at
/// 1e-10 (1.1e-9: a user asking for 1e-10 got 1e-9); from a hundredth, 0.15–0.7 tol here.
#[test]
fn benchmark_models_deliver_the_tolerance_they_are_asked_for() {
    for id in ["lugre", "dahl", "elasto-plastic", "gms"] {
        let (x_ref, _) = end_point(id, 1e-12);
        for tol in [1e-5, 1e-6, 1e-7, 1e-8, 1e-9, 1e-10] {
            let (x, _) = end_point(id, tol);
            let err = (x - x_ref).abs();
            assert!(
                err <= 3.0 * tol,
                "{id} at tol {tol:e}: |x(40) − x_ref| = {err:.2e} m = {:.1} tol",
                err / tol
            );
        }
    }
}

/// Issue 39: elasto-plastic runs Rodas5P at tolerances looser than 1e-8 too (Rodas4 took 40–50 %
/// more steps there), with its creep velocity weighed at a third of the hundredth of v_b
/// (`micro_slip_scale_at`). Without that weight Rodas5P's long creep steps delivered 3.7 tol
/// at 5e-6, 3.8 at 2e-6 and 5.4 at 5e-7; with it 2.2, 0.64 and 0.69 (0.16–0.17 at 5e-8, 2e-8).
/// Its elastic band (α = 0) is weighed 1000 times looser there (`ELASTIC_LOOSENING`): 1.7, 0.5
/// and 0.7 tol at 5e-6, 2e-6, 5e-7, in 13 % fewer steps at 1e-7.
#[test]
fn elasto_plastic_creep_weight_keeps_loose_tolerances_calibrated() {
    let (x_ref, _) = end_point("elasto-plastic", 1e-12);
    for tol in [5e-6, 2e-6, 5e-7, 2e-7, 5e-8, 2e-8] {
        let (x, _) = end_point("elasto-plastic", tol);
        let err = (x - x_ref).abs();
        assert!(
            err <= 3.0 * tol,
            "elasto-plastic at tol {tol:e}: |x(40) − x_ref| = {err:.2e} m = {:.1} tol",
            err / tol
        );
    }
}
