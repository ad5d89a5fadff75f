//! Analytic partials of Gonthier (`partials`, separable) and Leuven (`partials_dense`, coupled)
//! against central differences of `derivative` and `force` at random states and velocities.
//!
//! A point is skipped when the difference stencil straddles a kink, i.e. when any switching
//! function or branch selector (signs of v, F_h, ż for Leuven's hold test) differs between the
//! centre and a perturbed point: there the one-sided partials are right and the central
//! difference is not.

#![allow(clippy::unwrap_used)]

use friction_core::model::FrictionModel;
use friction_core::registry::find;
use proptest::prelude::*;

fn build(id: &str, over: &[(&str, f64)]) -> Box<dyn FrictionModel> {
    let e = find(id).unwrap();
    e.build_with(over)
        .unwrap_or_else(|err| panic!("{id}: {err}"))
}

/// Signs of everything that selects a branch of `m` at (v, x): its switching functions plus
/// the model-specific `extra` selectors.
fn pattern(
    m: &dyn FrictionModel,
    v: f64,
    x: &[f64],
    extra: &dyn Fn(f64, &[f64]) -> Vec<f64>,
) -> Vec<i8> {
    let mut g = vec![0.0; m.n_switches()];
    m.switches(v, 0.0, x, &mut g);
    g.extend(extra(v, x));
    g.iter()
        .map(|&a| (a > 0.0) as i8 - (a < 0.0) as i8)
        .collect()
}

/// The analytic partials of `m` at (v, x), whichever hook the model provides, as a dense
/// nz × nz ∂ẋ/∂x, ∂ẋ/∂v, ∂F/∂x and ∂F/∂v.
fn analytic(m: &dyn FrictionModel, v: f64, x: &[f64]) -> (Vec<f64>, Vec<f64>, Vec<f64>, f64) {
    let n = m.n_states();
    let nz = n - m.n_discrete();
    let (mut dzdv, mut dfdz) = (vec![0.0; n], vec![0.0; n]);
    if m.separable() {
        let mut diag = vec![0.0; n];
        let dfdv = m
            .partials(v, 0.0, x, &mut diag, &mut dzdv, &mut dfdz)
            .unwrap();
        let mut dense = vec![0.0; nz * nz];
        for i in 0..nz {
            dense[i * nz + i] = diag[i];
        }
        (dense, dzdv, dfdz, dfdv)
    } else {
        let mut dense = vec![0.0; nz * nz];
        let dfdv = m
            .partials_dense(v, 0.0, x, &mut dense, &mut dzdv, &mut dfdz)
            .unwrap();
        (dense, dzdv, dfdz, dfdv)
    }
}

/// Central differences of (ẋ, F) in the direction `dir` (None: along v) with step h, or `None`
/// if the stencil straddles a kink.
fn central(
    m: &dyn FrictionModel,
    v: f64,
    x: &[f64],
    dir: Option<usize>,
    h: f64,
    extra: &dyn Fn(f64, &[f64]) -> Vec<f64>,
) -> Option<(Vec<f64>, f64)> {
    let n = m.n_states();
    let at = |s: f64| {
        let mut xs = x.to_vec();
        let mut vs = v;
        match dir {
            Some(j) => xs[j] += s,
            None => vs += s,
        }
        (vs, xs)
    };
    let (vp, xp) = at(h);
    let (vm, xm) = at(-h);
    let p0 = pattern(m, v, x, extra);
    if pattern(m, vp, &xp, extra) != p0 || pattern(m, vm, &xm, extra) != p0 {
        return None;
    }
    let (mut dp, mut dm) = (vec![0.0; n], vec![0.0; n]);
    m.derivative(vp, 0.0, &xp, &mut dp);
    m.derivative(vm, 0.0, &xm, &mut dm);
    let d: Vec<f64> = dp
        .iter()
        .zip(&dm)
        .map(|(a, b)| (a - b) / (2.0 * h))
        .collect();
    let f = (m.force(vp, 0.0, &xp) - m.force(vm, 0.0, &xm)) / (2.0 * h);
    Some((d, f))
}

/// |fd − an| within 1e-5 relative plus the round-off of the difference quotient: 64 ulps of
/// `mag`, the size of the differenced function's terms, divided by the step.
fn close(fd: f64, an: f64, mag: f64, h: f64) -> bool {
    (fd - an).abs() <= 1e-5 * fd.abs().max(an.abs()) + 64.0 * f64::EPSILON * mag / h
}

/// Checks every partial of `m` at (v, x) with central differences of step `hv` in v and
/// 1e-6 of each state's size; returns the number of directions compared.
fn check(
    m: &dyn FrictionModel,
    v: f64,
    x: &[f64],
    hv: f64,
    extra: &dyn Fn(f64, &[f64]) -> Vec<f64>,
) -> Result<usize, TestCaseError> {
    let nz = m.n_states() - m.n_discrete();
    let (dzdz, dzdv, dfdz, dfdv) = analytic(m, v, x);
    let mut d0 = vec![0.0; m.n_states()];
    m.derivative(v, 0.0, x, &mut d0);
    let f0 = m.force(v, 0.0, x);
    // Size of each function's terms: its value plus the first-order effect of every input at
    // its own size, i.e. what a relative rounding of the inputs moves it by (ṡ_dw = (s − s_dw)
    // σ0/σ1 is tiny near s = s_dw = 1 while its terms are σ0/σ1).
    let dmag: Vec<f64> = (0..nz)
        .map(|i| {
            (0..nz).fold(d0[i].abs() + (dzdv[i] * v).abs(), |a, j| {
                a + (dzdz[i * nz + j] * x[j]).abs()
            })
        })
        .collect();
    let fmag = (0..nz).fold(f0.abs() + (dfdv * v).abs(), |a, j| {
        a + (dfdz[j] * x[j]).abs()
    });
    let mut compared = 0;
    if let Some((d, f)) = central(m, v, x, None, hv, extra) {
        compared += 1;
        prop_assert!(
            close(f, dfdv, fmag, hv),
            "dF/dv at v={v} x={x:?}: fd {f} an {dfdv}"
        );
        for i in 0..nz {
            prop_assert!(
                close(d[i], dzdv[i], dmag[i], hv),
                "dx{i}/dv at v={v} x={x:?}: fd {} an {}",
                d[i],
                dzdv[i]
            );
        }
    }
    for j in 0..nz {
        let h = 1e-6 * m.state_scale(j).max(x[j].abs());
        if let Some((d, f)) = central(m, v, x, Some(j), h, extra) {
            compared += 1;
            prop_assert!(
                close(f, dfdz[j], fmag, h),
                "dF/dx{j} at v={v} x={x:?}: fd {f} an {}",
                dfdz[j]
            );
            for i in 0..nz {
                prop_assert!(
                    close(d[i], dzdz[i * nz + j], dmag[i], h),
                    "dx{i}/dx{j} at v={v} x={x:?}: fd {} an {}",
                    d[i],
                    dzdz[i * nz + j]
                );
            }
        }
    }
    Ok(compared)
}

/// Velocities on every scale of the benchmark: inside Gonthier's v0 = 1e-5, around
/// v_S = 1e-3, and gross sliding.
fn velocity() -> impl Strategy<Value = f64> {
    prop_oneof![-2e-5f64..2e-5, -5e-3f64..5e-3, -0.5f64..0.5]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Gonthier: both branches of the dwell rate, the cubic and sgn parts of dir(), and the
    /// clipped and free force (F_b beyond ±F_max when |z| is large or s_dw small, including
    /// F_max held at 0). v0 up to v_S, so that the cubic's slope (weighted by 1 − s) matters.
    #[test]
    fn gonthier_partials_match_central_differences(
        v in velocity(),
        vr in -2.0f64..2.0,
        near_v0 in any::<bool>(),
        v0 in prop_oneof![Just(1e-5), 1e-4f64..1e-3],
        zr in -2.0f64..2.0,
        // Below s_dw = −F_C/(F_s − F_C) = −2 the bound F_max ≥ 0 is active (a solver's trial
        // state; the physical range is [0, 1]).
        sdw in prop_oneof![0.0f64..1.0, Just(1.0), -0.3f64..0.0, -3.0f64..-2.0],
        taudw in prop_oneof![Just(2.0), 1e-3f64..10.0],
    ) {
        let m = build("gonthier", &[("taudw", taudw), ("v0", v0)]);
        let v = if near_v0 { vr * v0 } else { v };
        // z in units of the Coulomb deflection F_C/σ0, so F_b spans the clip band and beyond.
        let x = [zr * m.state_scale(0), sdw];
        let none = |_: f64, _: &[f64]| Vec::new();
        let compared = check(m.as_ref(), v, &x, 1e-6 * v.abs().max(1e-5), &none)?;
        prop_assume!(compared > 0);
    }

    /// Leuven: sliding and held elements (beyond their limit and pushed outwards), both signs
    /// of F_h and v, several N, transition exponents n ≥ 1 and Stribeck exponents δ.
    #[test]
    fn leuven_partials_match_central_differences(
        v in velocity(),
        n in 1usize..6,
        nexp in prop_oneof![Just(2.0), 1.0f64..4.0],
        delta in prop_oneof![Just(2.0), 0.5f64..4.0],
        u in proptest::collection::vec(-1.2f64..1.2, 6),
        zr in -1.0f64..1.0,
    ) {
        let m = build("leuven", &[("n", n as f64), ("nexp", nexp), ("delta", delta)]);
        let mut g = vec![0.0; n];
        let zero = vec![0.0; 1 + n];
        m.switches(v, 0.0, &zero, &mut g);
        // g_i = |ζ_i| − Δ_i, so at ζ = 0 the limits are −g.
        let mut x = vec![zr * m.state_scale(0)];
        x.extend((0..n).map(|i| u[i] * -g[i]));
        // Branch selectors beyond the switches: sgn v (|v| in ż), sgn F_h (= sgn Σ ζ_i, the
        // k_i being equal), sgn ż (the hold test).
        let mm = m.as_ref();
        let extra = move |v: f64, x: &[f64]| {
            let mut d = vec![0.0; x.len()];
            mm.derivative(v, 0.0, x, &mut d);
            vec![v, x[1..].iter().sum(), d[0]]
        };
        let compared = check(mm, v, &x, 1e-6 * v.abs().max(1e-5), &extra)?;
        prop_assume!(compared > 0);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Gonthier and Leuven fuse `derivative_and_force` (shared exponential, ż, F_h) for the
    /// closed loop: it must return exactly the separate calls' values, or the loop and the
    /// Jacobian's branch choices would disagree.
    #[test]
    fn fused_derivative_and_force_is_bit_identical(
        v in velocity(),
        u in proptest::collection::vec(-2.0f64..2.0, 5),
        sdw in -0.5f64..1.5,
    ) {
        for (id, x) in [
            ("gonthier", vec![u[0] * 1e-5, sdw]),
            ("leuven", u.iter().map(|a| a * 1e-5).collect()),
        ] {
            let m = build(id, &[]);
            let n = m.n_states();
            let (mut d0, mut d1) = (vec![0.0; n], vec![0.0; n]);
            m.derivative(v, 0.0, &x, &mut d0);
            let f0 = m.force(v, 0.0, &x);
            let f1 = m.derivative_and_force(v, 0.0, &x, &mut d1);
            prop_assert_eq!(f0.to_bits(), f1.to_bits(), "{} F at v={} x={:?}", id, v, x);
            for i in 0..n {
                prop_assert_eq!(d0[i].to_bits(), d1[i].to_bits(), "{} dx{} at v={} x={:?}", id, i, v, x);
            }
        }
    }
}
