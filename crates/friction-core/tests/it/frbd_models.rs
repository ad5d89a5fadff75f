//! FrBD model properties: steady state (eq. 14), the (σ0, σ1, γ1) equivalence of GM and GKV,
//! storage/dissipation identity, passivity, boundedness, stiff extremes, and the stepper's order.

#![allow(clippy::unwrap_used, clippy::needless_range_loop)]

use crate::common;

use common::RefModel;
use friction_core::experiments::energy;
use friction_core::experiments::hysteresis::{self, HysteresisConfig};
use friction_core::frbd::{self, Contact, Frbd, Passive};
use friction_core::integrate::linear::{LinearModel, Sdirk2};
use friction_core::registry;
use friction_core::stribeck::Stribeck;
use proptest::prelude::*;

fn contact(eps: f64) -> Contact {
    Contact {
        stribeck: Stribeck::TABLE_I,
        eps,
        p: 2.5,
    }
}

fn gm(n: usize, eps: f64) -> Frbd {
    let k: Vec<f64> = (0..n).map(|i| 3e4 * (i + 1) as f64).collect();
    let tau: Vec<f64> = (0..n).map(|i| 1e-3 * 10f64.powi(-(i as i32))).collect();
    Frbd::Gm(frbd::Gm::new(contact(eps), 2e4, &k, &tau).unwrap())
}

fn gkv(n: usize, eps: f64) -> Frbd {
    let k: Vec<f64> = (0..n).map(|i| 3e4 * (i + 1) as f64).collect();
    let c: Vec<f64> = (0..n).map(|i| 50.0 / (i + 1) as f64).collect();
    Frbd::Gkv(frbd::Gkv::new(contact(eps), 2e4, &k, &c).unwrap())
}

/// Runs constant v for a long time (L-stable, stiffly accurate: the discrete fixed point is the
/// exact equilibrium, and large steps damp every mode).
fn settle(m: &Frbd, v: f64) -> Vec<f64> {
    let mut x = vec![0.0; m.dim()];
    let mut st = Sdirk2::new(m.dim());
    for _ in 0..2000 {
        st.step(m, 0.05, v, v, &mut x);
    }
    // then large steps: R(hλ)^400 < 1e-17 for every mode down to λ = 1e-3/s (the slowest of
    // the random sets below). Not larger: GKV's f = k̄0·(z − Σz_i) loses k̄0·η·ulp(v) per step.
    for _ in 0..400 {
        st.step(m, 100.0, v, v, &mut x);
    }
    x
}

#[test]
fn steady_state_is_eq_14_for_gm_and_gkv_of_any_order() {
    for eps in [0.0, 1e-6] {
        for n in 0..=4 {
            for v in [0.01, -0.02, 0.3] {
                let expect = 2.5 * Stribeck::TABLE_I.steady(v, eps);
                let m = gm(n, eps);
                let x = settle(&m, v);
                assert!(
                    (m.output(v, &x) - expect).abs() < 1e-10 * expect.abs(),
                    "GM n={n}"
                );
                // GM: branch forces vanish, z = f/k̄0
                for fi in &x[1..] {
                    assert!(fi.abs() < 1e-10);
                }
                assert!((x[0] - expect / 2.5 / 2e4).abs() < 1e-12);
                let m = gkv(n, eps);
                let x = settle(&m, v);
                assert!(
                    (m.output(v, &x) - expect).abs() < 1e-10 * expect.abs(),
                    "GKV n={n}"
                );
                // GKV: z_i = f/k̄_i
                for i in 0..n {
                    let zi = expect / 2.5 / (3e4 * (i + 1) as f64);
                    assert!((x[i + 1] - zi).abs() < 1e-10 * zi.abs());
                }
            }
        }
    }
    // elastic and KV bristles too
    for m in [
        Frbd::Elastic(frbd::Elastic::new(contact(0.0), 1e4).unwrap()),
        Frbd::Kv(frbd::Kv::new(contact(0.0), 1e4, 64.5).unwrap()),
    ] {
        let x = settle(&m, 0.01);
        assert!((m.output(0.01, &x) - 2.5 * Stribeck::TABLE_I.mu(0.01)).abs() < 1e-10);
    }
}

#[test]
fn gm_and_gkv_from_the_same_sigma_give_the_same_loops() {
    for (s0, s1, g1) in [(1e4, 64.5, 1e-3), (3e3, 10.0, 2e-3)] {
        let a = Frbd::Gm(frbd::Gm::from_sigma(Contact::default(), s0, s1, g1).unwrap());
        let b = Frbd::Gkv(frbd::Gkv::from_sigma(Contact::default(), s0, s1, g1).unwrap());
        let la = hysteresis::run(&HysteresisConfig::new(a));
        let lb = hysteresis::run(&HysteresisConfig::new(b));
        for (x, y) in la.iter().zip(&lb) {
            for (fa, fb) in x.f.iter().zip(&y.f) {
                assert!((fa - fb).abs() < 1e-9, "{fa} vs {fb}");
            }
            assert!((x.metrics.area - y.metrics.area).abs() < 1e-9 * x.metrics.area.abs());
        }
    }
}

#[test]
fn peak_force_decreases_with_frequency_as_in_fig_3() {
    let m = Frbd::Gm(frbd::Gm::new(Contact::default(), 1e4, &[5.45e4], &[1e-3]).unwrap());
    let loops = hysteresis::run(&HysteresisConfig::new(m));
    let peaks: Vec<f64> = loops.iter().map(|l| l.metrics.fmax).collect();
    assert!(peaks[0] > peaks[1] && peaks[1] > peaks[2], "{peaks:?}");
    for l in &loops {
        assert!(l.t.len() > 400);
        assert!(l.metrics.energy > 0.0 && l.metrics.passivity_residual > 0.0);
    }
}

fn multisine(amps: &[f64], freqs: &[f64], mean: f64) -> impl Fn(f64) -> f64 {
    let amps = amps.to_vec();
    let freqs = freqs.to_vec();
    move |t: f64| {
        mean + amps
            .iter()
            .zip(&freqs)
            .map(|(a, f)| a * (2.0 * std::f64::consts::PI * f * t + f).sin())
            .sum::<f64>()
    }
}

#[test]
fn storage_dissipation_identity_holds_along_trajectories() {
    let v = multisine(&[0.02, 0.01, 0.005], &[7.0, 31.0, 120.0], 0.002);
    for m in [gm(3, 0.0), gkv(3, 1e-6), gm(0, 0.0)] {
        let acc = energy::account(&m, &v, &vec![0.0; m.dim()], 0.2, 40_000);
        let scale = acc.work.iter().fold(0.0_f64, |a, w| a.max(w.abs()));
        let err = acc.identity_error();
        assert!(err < 1e-6 * scale, "identity error {err} vs scale {scale}");
        assert!(acc.min_residual() > -1e-9 * scale);
        // and the identity is second-order: halving h divides the error by ~4
        let acc2 = energy::account(&m, &v, &vec![0.0; m.dim()], 0.2, 80_000);
        let ratio = err / acc2.identity_error();
        assert!(ratio > 3.0, "ratio {ratio}");
    }
}

#[test]
fn sdirk2_converges_with_order_two_against_rk4() {
    let omega = 2.0 * std::f64::consts::PI * 50.0;
    let vel = move |t: f64| 0.015 + 0.01 * (omega * t).cos();
    let r = RefModel::gm(1e4, &[5.45e4, 2e4], &[1e-3, 3e-4]);
    let t_end = 0.02;
    let mut xr = vec![0.0; 3];
    let nr = 100_000;
    for k in 0..nr {
        r.rk4(
            k as f64 * t_end / nr as f64,
            t_end / nr as f64,
            &vel,
            &mut xr,
        );
    }
    let fr = r.f(&xr);
    let m =
        Frbd::Gm(frbd::Gm::new(Contact::default(), 1e4, &[5.45e4, 2e4], &[1e-3, 3e-4]).unwrap());
    let mut errs = Vec::new();
    for steps in [200usize, 400, 800, 1600] {
        let mut x = vec![0.0; 3];
        Sdirk2::new(3).run(&m, &vel, 0.0, t_end / steps as f64, steps, &mut x);
        errs.push((m.output(0.0, &x) - fr).abs());
    }
    let orders: Vec<f64> = errs.windows(2).map(|w| (w[0] / w[1]).log2()).collect();
    eprintln!("errors {errs:?} orders {orders:?}");
    for p in orders {
        assert!((1.8..2.3).contains(&p), "observed order {p}");
    }
}

#[test]
fn stiff_extremes_stay_bounded_for_any_step() {
    // k̄ = 1e9, τ = 1e-7, ε = 0, 1 kHz excitation through v = 0, steps far beyond 1/|λ|
    let c = Contact::default();
    let models = [
        Frbd::Gm(frbd::Gm::new(c, 1e9, &[1e9, 1e9], &[1e-7, 1e3]).unwrap()),
        Frbd::Gkv(frbd::Gkv::new(c, 1e9, &[1e9], &[1e-9]).unwrap()),
        Frbd::Kv(frbd::Kv::new(c, 1e9, 1e9).unwrap()),
        Frbd::Elastic(frbd::Elastic::new(c, 1e9).unwrap()),
    ];
    let vel = |t: f64| 0.5 * (2.0 * std::f64::consts::PI * 1000.0 * t).cos();
    for m in &models {
        for h in [1e-9, 1.3e-5, 1e-3, 1.0] {
            let mut x = vec![0.0; m.dim()];
            let mut st = Sdirk2::new(m.dim());
            for k in 0..2000 {
                let t = k as f64 * h;
                st.step(m, h, vel(t + 0.3 * h), vel(t + h), &mut x);
                let f = m.output(vel(t + h), &x);
                assert!(
                    f.is_finite() && f.abs() <= 3.0,
                    "{:?} h={h} F={f}",
                    m.kind()
                );
            }
        }
    }
}

#[test]
fn at_rest_with_eps_zero_the_deflection_is_held_and_branches_relax() {
    let m = gm(2, 0.0);
    let mut x = vec![1e-5, 0.3, -0.2];
    let mut st = Sdirk2::new(3);
    for _ in 0..100 {
        st.step(&m, 1e-2, 0.0, 0.0, &mut x);
    }
    assert_eq!(x[0], 1e-5);
    assert!(x[1].abs() < 1e-12 && x[2].abs() < 1e-12);
}

#[test]
fn registry_entries_build_and_match_the_linear_form() {
    for id in ["frbd-gm", "frbd-gkv", "frbd-elastic", "frbd-kv"] {
        let e = registry::find(id).unwrap();
        let m = e.build_default().unwrap();
        assert_eq!(m.info().id, id);
        let n = m.n_states();
        let x: Vec<f64> = (0..n).map(|i| 1e-6 * (i as f64 + 1.0)).collect();
        let mut dx = vec![0.0; n];
        m.derivative(0.01, 0.0, &x, &mut dx);
        assert!(dx.iter().all(|d| d.is_finite()));
        assert!(m.force(0.01, 0.0, &x).is_finite());
        let mut bad: Vec<f64> = e.info.params.iter().map(|p| p.default).collect();
        bad[0] = -1.0;
        let err = (e.build)(&bad).err().unwrap();
        assert_eq!(err.key, "k0");
    }
    // the registry's GKV defaults are Table I mapped: the same loops as the GM defaults
    let a = registry::find("frbd-gm").unwrap().build_default().unwrap();
    let b = registry::find("frbd-gkv").unwrap().build_default().unwrap();
    let (mut xa, mut xb) = (vec![0.0; 2], vec![0.0; 2]);
    let (mut da, mut db) = (vec![0.0; 2], vec![0.0; 2]);
    for k in 0..20_000 {
        let v = 0.015 + 0.01 * (k as f64 * 1e-5 * 300.0).cos();
        a.derivative(v, 0.0, &xa, &mut da);
        b.derivative(v, 0.0, &xb, &mut db);
        for i in 0..2 {
            xa[i] += 1e-6 * da[i];
            xb[i] += 1e-6 * db[i];
        }
    }
    assert!((a.force(0.0, 0.0, &xa) - b.force(0.0, 0.0, &xb)).abs() < 1e-9);
}

fn model_strategy() -> impl Strategy<Value = Frbd> {
    (
        any::<bool>(),
        0usize..=3,
        1e2..1e6f64,
        prop::collection::vec((1e2..1e6f64, 1e-4..1e-1f64), 3),
        prop::sample::select(vec![0.0, 1e-6]),
        (1.0..2.0f64, 0.5..1.0f64, 1e-3..1e-1f64, 0.5..3.0f64),
    )
        .prop_map(|(is_gm, n, k0, br, eps, (mus, mud, vs, delta))| {
            let c = Contact {
                stribeck: Stribeck {
                    mu_s: mus,
                    mu_d: mud,
                    v_s: vs,
                    delta,
                },
                eps,
                p: 1.0,
            };
            let k: Vec<f64> = br[..n].iter().map(|b| b.0).collect();
            let r: Vec<f64> = br[..n].iter().map(|b| b.1).collect();
            if is_gm {
                Frbd::Gm(frbd::Gm::new(c, k0, &k, &r).unwrap())
            } else {
                let cc: Vec<f64> = k.iter().zip(&r).map(|(k, t)| k * t).collect();
                Frbd::Gkv(frbd::Gkv::new(c, k0, &k, &cc).unwrap())
            }
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(32))]

    #[test]
    fn passivity_residual_is_never_negative(
        m in model_strategy(),
        amps in prop::collection::vec(0.0..0.05f64, 3),
        freqs in prop::collection::vec(0.5..200.0f64, 3),
        mean in -0.02..0.02f64,
    ) {
        let v = multisine(&amps, &freqs, mean);
        let acc = energy::account(&m, &v, &vec![0.0; m.dim()], 0.1, 20_000);
        let scale = acc.work.iter().fold(1e-300_f64, |a, w| a.max(w.abs()));
        prop_assert!(acc.min_residual() >= -1e-9 * scale, "min residual {} scale {}", acc.min_residual(), scale);
        prop_assert!(acc.storage.iter().all(|s| s.is_finite() && *s >= 0.0));
    }

    #[test]
    fn steady_state_is_independent_of_n_and_tau(
        m in model_strategy(),
        v in prop_oneof![-1.0..-1e-4f64, 1e-4..1.0f64],
    ) {
        let x = settle(&m, v);
        let c = m.contact();
        let expect = c.steady_force(v);
        // GKV computes f = k̄0·(z − Σz_i) from states of size f·Σ1/k̄_i: round-off grows like
        // k̄0·Σ1/k̄_i (the state representation of eq. 13, not the integrator)
        let cond = match &m {
            Frbd::Gkv(g) => 1.0 + g.k0() * g.k().iter().map(|k| 1.0 / k).sum::<f64>(),
            _ => 1.0,
        };
        let err = (m.output(v, &x) - expect).abs();
        prop_assert!(err < (1e-9 + 1e-12 * cond) * expect.abs().max(1e-12), "err {} cond {}", err, cond);
        let _ = m.storage(&x);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(12))]

    /// Lemma III.2 in its simplest form: with a = |v|_ε/μ ≥ |v|/μ_max,
    /// dV/dt ≤ p·|v|·|f|·(1 − |f|/μ_max) ≤ p·μ_max·|v|/4, so V(t) ≤ V(0) + p·μ_max/4·∫|v| dt:
    /// no growth beyond that (plus one steady bristle's storage for coarse stiff steps), for
    /// any step size, including 7 steps per period.
    #[test]
    fn storage_obeys_the_boundedness_estimate_for_any_step(
        m in model_strategy(),
        amps in prop::collection::vec(0.0..0.05f64, 3),
        harmonics in prop::collection::vec(1u32..20, 3),
        mean in -0.02..0.02f64,
        steps_per_period in prop::sample::select(vec![7usize, 100, 2000]),
    ) {
        let freqs: Vec<f64> = harmonics.iter().map(|h| 5.0 * *h as f64).collect();
        let v = multisine(&amps, &freqs, mean);
        let n = 10 * steps_per_period;
        let acc = energy::account(&m, &v, &vec![0.0; m.dim()], 2.0, n);
        let st = m.contact().stribeck;
        let cap = m.contact().p * st.mu_s.max(st.mu_d) / 4.0;
        let mu2 = st.mu_s.max(st.mu_d).powi(2);
        let v_ss = 0.5 * m.contact().p * mu2 * match &m {
            Frbd::Gm(g) => 1.0 / g.k0(),
            Frbd::Gkv(g) => 1.0 / g.k0() + g.k().iter().map(|k| 1.0 / k).sum::<f64>(),
            _ => 0.0,
        };
        // ∫|v| dt with 64 trapezoid substeps per integrator step
        let mut int_v = 0.0;
        let h = 2.0 / n as f64;
        for k in 0..n {
            for j in 0..64 {
                let t0 = (k as f64 + j as f64 / 64.0) * h;
                int_v += 0.5 * (v(t0).abs() + v(t0 + h / 64.0).abs()) * h / 64.0;
            }
            // a coarse step on a stiff set may jump to the quasi-steady deflection at once,
            // ahead of the continuous estimate: allow the storage of a steady bristle, V_ss
            let bound = 1.01 * cap * int_v + v_ss;
            prop_assert!(acc.storage[k + 1].is_finite());
            prop_assert!(acc.storage[k + 1] <= bound,
                "t = {}: V = {} > bound {}", acc.t[k + 1], acc.storage[k + 1], bound);
        }
    }
}
