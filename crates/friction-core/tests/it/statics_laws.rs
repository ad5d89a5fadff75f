//! Acceptance checks that follow from the formulas for every static and composite law: oddness,
//! limits, the listed peak values, continuity where claimed, finite output, and the library
//! examples.

#![allow(clippy::unwrap_used)] // tests may panic on a broken invariant

use friction_core::model::{FrictionModel, ModelEntry};
use friction_core::registry::find;
use friction_core::statics::{self, lugre_shape, ENTRIES, MAX_SWITCHES};
use proptest::prelude::*;

fn build(id: &str, overrides: &[(&str, f64)]) -> Box<dyn FrictionModel> {
    let e = find(id).unwrap_or_else(|| panic!("unknown id {id}"));
    let vals: Vec<f64> = e
        .info
        .params
        .iter()
        .map(|p| {
            overrides
                .iter()
                .find(|(k, _)| *k == p.key)
                .map(|(_, v)| *v)
                .unwrap_or(p.default)
        })
        .collect();
    (e.build)(&vals).unwrap_or_else(|err| panic!("{id}: {err}"))
}

fn f(m: &dyn FrictionModel, v: f64) -> f64 {
    let x = vec![0.0; m.n_states()];
    m.force(v, 0.0, &x)
}

const IDS: [&str; 28] = [
    "coulomb",
    "bernard",
    "threlfall",
    "threlfall-modified",
    "rooney-deravi",
    "ambrosio",
    "karnopp",
    "bengisu-akay",
    "armstrong",
    "hollars",
    "andersson",
    "wojewoda",
    "awrejcewicz",
    "specker",
    "linear-stiction",
    "brown-mcphee",
    "tustin",
    "bo-pavelescu",
    "hess-soom",
    "popp-stelter",
    "coulomb-viscous",
    "av",
    "cs",
    "cvs",
    "dv",
    "sd",
    "sv",
    "stribeck",
];

#[test]
fn registry_holds_every_id_in_the_issue_order() {
    let ids: Vec<&str> = ENTRIES.iter().map(|e| e.info.id).collect();
    assert_eq!(ids, IDS);
    let prov: Vec<&str> = ENTRIES
        .iter()
        .filter(|e| e.info.provisional)
        .map(|e| e.info.id)
        .collect();
    assert_eq!(prov, ["hollars", "wojewoda", "awrejcewicz", "popp-stelter"]);
    for e in ENTRIES {
        assert!(
            statics::switching_for(e.info.id, &[]).is_some(),
            "{}",
            e.info.id
        );
    }
}

#[test]
fn every_law_is_odd_in_v_and_fe() {
    let vs = [1e-7, 3e-5, 1e-4, 5e-4, 1e-3, 7e-3, 0.05, 0.1, 1.0, 30.0];
    let fes = [0.0, 0.3, 1.2, 5.0, 20.0];
    for id in IDS {
        let m = build(id, &[]);
        let n = m.n_states();
        for &v in &vs {
            for &fe in &fes {
                for xs in [0.0, 0.02, 0.7] {
                    let x = vec![xs; n];
                    let mx: Vec<f64> = x.iter().map(|a| -a).collect();
                    let a = m.force(v, fe, &x);
                    let b = m.force(-v, -fe, &mx);
                    assert!(
                        (a + b).abs() <= 1e-12 * a.abs().max(1.0),
                        "{id}: F({v},{fe}) = {a}, F(-v,-fe) = {b}"
                    );
                }
            }
        }
    }
}

#[test]
fn printed_composites_are_not_odd() {
    for id in ["av", "sd", "sv"] {
        let m = build(id, &[("printed", 1.0)]);
        let x = vec![0.0; m.n_states()];
        // the constant μ_s F_N = 7.5 N keeps F positive for slow negative velocities
        assert!(m.force(-1e-3, 0.0, &x) > 0.0, "{id}");
        assert!((m.force(0.0, 0.0, &x) - 7.5).abs() < 1e-12, "{id}");
    }
}

#[test]
fn limits_at_large_velocity() {
    // (id, expected F(v) at v = 50 m/s), F_C = 0.981 N for the thesis models
    let fc = 0.981;
    let v = 50.0;
    let cases: [(&str, f64); 28] = [
        ("coulomb", fc),
        ("bernard", fc),
        ("threlfall", fc),
        ("threlfall-modified", fc),
        ("rooney-deravi", fc),
        ("ambrosio", fc),
        ("karnopp", fc),
        ("bengisu-akay", fc),
        // sliding state (see below): zero dwell, so F_S = F_S,a = 0.5·0.4905 N; F_v = 0.01 N·s/m
        (
            "armstrong",
            fc + 0.01 * v + 0.24525 / (1.0 + (v / 1e-3) * (v / 1e-3)),
        ),
        ("hollars", fc),
        ("andersson", fc + 0.1 * v),
        ("wojewoda", fc),
        ("awrejcewicz", 1.4715),
        ("specker", fc + 0.1 * v),
        ("linear-stiction", fc),
        ("brown-mcphee", fc + 0.1 * v * (4.0f64 * 9.81).tanh()),
        ("tustin", fc),
        ("bo-pavelescu", fc),
        ("hess-soom", fc + 0.4905 / (1.0 + 2.5e9) + 0.1 * v),
        (
            "popp-stelter",
            fc + 0.4905 / (1.0 + 1000.0 * v) + 0.1 * v * v,
        ),
        ("coulomb-viscous", fc + 0.1 * v),
        ("av", 7.5 + 0.5 * v),
        ("cs", 6.0),
        ("cvs", 6.0 + 0.5 * v),
        ("dv", 0.5 * v),
        ("sd", 7.5),
        ("sv", 7.5 + 0.5 * v),
        ("stribeck", 15.0),
    ];
    for (id, want) in cases {
        let m = build(id, &[]);
        // Armstrong-Hélouvry is hybrid: its zero state is the stick mode (F = σ0 x_p = 0), so it
        // is read in steady slip instead: x = [x_p, t_2, v_L = v, mode = +1].
        let got = if id == "armstrong" {
            m.force(v, 0.0, &[0.0, 0.0, v, 1.0])
        } else {
            f(m.as_ref(), v)
        };
        assert!(
            (got - want).abs() <= 1e-9 * want.abs().max(1.0),
            "{id}: F({v}) = {got}, want {want}"
        );
    }
    // DV/SD/SV: the Dahl term saturates at F_c = 6 N for large |X|
    for (id, want) in [("dv", 6.0 + 0.5 * v), ("sd", 13.5), ("sv", 13.5 + 0.5 * v)] {
        let m = build(id, &[]);
        let got = m.force(v, 0.0, &[1e3]);
        assert!((got - want).abs() < 1e-9, "{id}: {got} vs {want}");
    }
}

#[test]
fn listed_peak_values() {
    let (fc, fs) = (0.981, 1.4715);
    let th = build("threlfall", &[]);
    assert!((f(th.as_ref(), 1e-3) / fc - 0.950_212_931_632_136).abs() < 1e-12);
    let tm = build("threlfall-modified", &[]);
    assert!((f(tm.as_ref(), 1e-3) - fc).abs() < 1e-12);
    assert!(
        (f(tm.as_ref(), 5e-3) - fc).abs() < 1e-12,
        "capped beyond v0"
    );
    let ls = build("linear-stiction", &[]);
    assert!((f(ls.as_ref(), 1e-3) - fs).abs() < 1e-12);
    assert!((f(ls.as_ref(), 2e-3) - fc).abs() < 1e-12);
    let sp = build("specker", &[]);
    let vsp = std::f64::consts::FRAC_1_SQRT_2 * 1e-3;
    assert!((f(sp.as_ref(), vsp) - fs).abs() < 1e-12);
    // Specker: the global maximum is < 0.1 % above F_s, just past v_Sp
    let peak = (1..4000)
        .map(|i| f(sp.as_ref(), i as f64 * 1e-6))
        .fold(0.0, f64::max);
    assert!(peak >= fs && peak < fs * 1.001, "{peak}");
    let bm = build("brown-mcphee", &[("sigma", 0.0)]);
    let want = fc * 4f64.tanh() + (fs - fc);
    assert!((f(bm.as_ref(), 1e-3) - want).abs() < 1e-12);
    assert!((want - 1.470_842).abs() < 1e-6);
    // slope at 0: (4F_C + (16/9)(F_s − F_C))/v_t = 4796 N·s/m
    let slope = f(bm.as_ref(), 1e-9) / 1e-9;
    assert!((slope - 4796.0).abs() < 1.0, "{slope}");
    // Bengisu–Akay: F(0) = 0, slope ξαF_C at 0, peak below F_s
    let ba = build("bengisu-akay", &[]);
    assert_eq!(f(ba.as_ref(), 0.0), 0.0);
    let s = f(ba.as_ref(), 1e-10) / 1e-10;
    assert!((s / (1.5 * 1e4 * fc) - 1.0).abs() < 1e-4, "{s}");
    let bpk = (1..5000)
        .map(|i| f(ba.as_ref(), i as f64 * 1e-6))
        .fold(0.0, f64::max);
    assert!(bpk < fs && bpk > fc, "{bpk}");
    // Rooney–Deravi: tanh(1) below v0, jump to F_C beyond (printed gain 1)
    let rd = build("rooney-deravi", &[]);
    assert!((f(rd.as_ref(), 1e-3) - fc * 1f64.tanh()).abs() < 1e-12);
    let ru = build("rooney-deravi", &[("branched", 0.0)]);
    assert!(
        (f(ru.as_ref(), 2e-3) - fc * 2f64.tanh()).abs() < 1e-12,
        "unbranched"
    );
    let rd3 = build("rooney-deravi", &[("gt", 3.0)]);
    assert!((f(rd3.as_ref(), 1e-3) / fc - 3f64.tanh()).abs() < 1e-12);
    // Ambrósio: dead zone and ramp slope F_C/(v1 − v0) = 1090 N·s/m
    let am = build("ambrosio", &[]);
    assert_eq!(f(am.as_ref(), 9e-5), 0.0);
    assert!(((f(am.as_ref(), 6e-4) - f(am.as_ref(), 5e-4)) / 1e-4 - 1090.0).abs() < 1e-6);
    // Andersson: peak ≈ 0.97 F_s for k_t v_s = 10 (only k_t v_s ≫ 1 nears F_s), without
    // the viscous term
    let an = build("andersson", &[("kv", 0.0)]);
    let apk = (1..5000)
        .map(|i| f(an.as_ref(), i as f64 * 1e-6))
        .fold(0.0, f64::max);
    assert!((apk / fs - 0.97).abs() < 0.01, "{}", apk / fs);
    // Slope at 0 is μ_s F_N k_t + k_v
    let an = build("andersson", &[]);
    let s = f(an.as_ref(), 1e-12) / 1e-12;
    assert!((s / (fs * 1e4 + 0.1) - 1.0).abs() < 1e-6, "{s}");
}

#[test]
fn stick_branches_use_the_external_force() {
    let (fc, fs) = (0.981, 1.4715);
    let k = build("karnopp", &[]);
    assert_eq!(k.force(5e-5, 1.0, &[]), 1.0);
    assert!((k.force(5e-5, -3.0, &[]) + fs).abs() < 1e-12);
    assert!((k.force(1e-4, -3.0, &[]) - fc).abs() < 1e-12);
    for id in ["tustin", "bo-pavelescu", "hess-soom", "popp-stelter"] {
        let m = build(id, &[]);
        assert_eq!(m.force(0.0, 1.0, &[]), 1.0, "{id}");
        assert!((m.force(0.0, 9.0, &[]) - fs).abs() < 1e-12, "{id}");
        assert!(
            (m.force(1e-9, 9.0, &[]) - fs).abs() < 1e-5,
            "{id}: continuous peak"
        );
    }
    let cv = build("coulomb-viscous", &[]);
    assert!(
        (cv.force(0.0, 9.0, &[]) - fc).abs() < 1e-12,
        "capped by F_C as printed"
    );
    // CS: undefined cases closed as (5.1): stick saturates at F_s; sliding ignores F_ex
    let cs = build("cs", &[]);
    assert_eq!(cs.force(0.0, 3.0, &[]), 3.0);
    assert_eq!(cs.force(0.0, -30.0, &[]), -7.5);
    assert!((cs.force(1e-9, 0.0, &[]) - 7.5).abs() < 1e-9);
    assert!((cs.force(0.1, 0.0, &[]) - (6.0 + 1.5 / std::f64::consts::E)).abs() < 1e-12);
    // Awrejcewicz: stick value at v = 0, ±F_s at the window edge, both step readings
    for astep in [0.0, 1.0] {
        let a = build("awrejcewicz", &[("astep", astep)]);
        assert_eq!(a.force(0.0, 1.0, &[]), 1.0);
        assert!((a.force(0.0, 10.0, &[]) - fs).abs() < 1e-12);
        assert!((a.force(1e-4 * (1.0 - 1e-12), -1.0, &[]) - fs).abs() < 1e-9);
        assert!((a.force(2e-4, -1.0, &[]) - fs).abs() < 1e-12);
    }
}

#[test]
fn library_examples() {
    // The library's example: x = 0.1 cos(4πt), v = −0.4π sin(4πt), N = 100 N
    let c = build("coulomb", &[("muk", 0.15), ("fn", 100.0)]);
    let s = build("stribeck", &[]);
    let mut peak: f64 = 0.0;
    for i in 0..1000 {
        let t = i as f64 * 1e-3;
        let v =
            -2.0 * std::f64::consts::PI * 2.0 * 0.1 * (2.0 * std::f64::consts::PI * 2.0 * t).sin();
        let fcv = c.force(v, 0.0, &[]);
        if v == 0.0 {
            assert_eq!(fcv, 0.0);
        } else {
            assert!((fcv.abs() - 15.0).abs() < 1e-12);
        }
        let fsv = s.force(v, 0.0, &[]);
        assert!(fsv.abs() <= 25.0 + 1e-12 && (v == 0.0 || fsv.abs() >= 15.0));
        peak = peak.max(fsv.abs());
    }
    assert!(peak > 24.9, "{peak}");
    assert!((s.force(0.1, 0.0, &[]) - 18.679).abs() < 5e-4);
    assert!((s.force(0.1, 0.0, &[]) - (15.0 + 10.0 / std::f64::consts::E)).abs() < 1e-12);
    // README viscous term b_v·v (odd), not the code's b_v|v|
    let sb = build("stribeck", &[("bv", 2.0)]);
    assert!((sb.force(-1.0, 0.0, &[]) + sb.force(1.0, 0.0, &[])).abs() < 1e-12);
    // the LuGre rational shape: G(0) = F_s, G(v_s) = (F_s + F_C)/2 for any α
    assert_eq!(lugre_shape(0.0, 0.4, 0.6, 3.5e-3, 2.0), 0.6);
    assert!((lugre_shape(-3.5e-3, 0.4, 0.6, 3.5e-3, 1.3) - 0.5).abs() < 1e-12);
}

#[test]
fn continuous_laws_have_no_jumps() {
    // ids whose law claims continuity in v at fixed F_e, with their velocity scale
    let cases = [
        ("bernard", 1e-3),
        ("threlfall", 1e-3),
        ("threlfall-modified", 1e-3),
        ("rooney-deravi-gt30", 1e-3),
        ("ambrosio", 1e-3),
        ("bengisu-akay", 1e-3),
        ("hollars", 1e-3),
        ("andersson", 1e-3),
        ("awrejcewicz", 1e-4),
        ("specker", 1e-3),
        ("linear-stiction", 3e-3),
        ("brown-mcphee", 1e-3),
    ];
    for (name, scale) in cases {
        let m = if name == "rooney-deravi-gt30" {
            build("rooney-deravi", &[("gt", 30.0)])
        } else {
            build(name, &[])
        };
        let n = 200_000;
        let h = 4.0 * scale / n as f64;
        let mut prev = m.force(-2.0 * scale, 0.3, &[]);
        let mut worst: f64 = 0.0;
        for i in 1..=n {
            let v = -2.0 * scale + i as f64 * h;
            let cur = m.force(v, 0.3, &[]);
            worst = worst.max((cur - prev).abs());
            prev = cur;
        }
        // a jump would show as a step comparable with F_C ≈ 1 N
        assert!(worst < 2e-3, "{name}: largest step {worst}");
    }
}

#[test]
fn switching_functions_bracket_every_jump() {
    for e in ENTRIES {
        let m = e.build_default().unwrap_or_else(|err| panic!("{err}"));
        let sw = statics::switching_for(e.info.id, &[]).unwrap().unwrap();
        let n = m.n_states();
        let scale = 0.2;
        let steps = 400_000;
        let h = 2.0 * scale / steps as f64;
        let x = vec![0.01; n];
        let mut g0 = [0.0; MAX_SWITCHES];
        let mut g1 = [0.0; MAX_SWITCHES];
        let mut v0 = -scale;
        let mut f0 = m.force(v0, 0.2, &x);
        let mut k0 = sw.switching(v0, 0.2, &x, &mut g0);
        for i in 1..=steps {
            let v1 = -scale + i as f64 * h;
            let f1 = m.force(v1, 0.2, &x);
            let k1 = sw.switching(v1, 0.2, &x, &mut g1);
            assert_eq!(k0, k1);
            // slope bound of the smooth parts: 1e5 N·s/m is far above every default law
            if (f1 - f0).abs() > 1e5 * h + 1e-9 {
                let bracketed = (0..k1)
                    .any(|j| (g0[j] <= 0.0) != (g1[j] <= 0.0) || g1[j] == 0.0 || g0[j] == 0.0);
                assert!(
                    bracketed,
                    "{}: jump {f0} → {f1} at v ≈ {v1} without a sign change",
                    e.info.id
                );
            }
            v0 = v1;
            f0 = f1;
            k0 = k1;
            g0 = g1;
        }
        let _ = v0;
    }
}

#[test]
fn parameters_are_validated_with_key_and_range() {
    let e: &ModelEntry = find("linear-stiction").unwrap();
    let err = (e.build)(&[0.15, 0.1, 9.81, 2e-3, 1e-3]).err().unwrap();
    assert_eq!(err.key, "v1");
    let err = (e.build)(&[f64::NAN]).err().unwrap();
    assert_eq!(err.key, "mus");
    assert!(err.to_string().contains("≤ mus ≤"), "{err}");
    let err = (find("ambrosio").unwrap().build)(&[0.1, 9.81, 1e-3, 1e-4])
        .err()
        .unwrap();
    assert_eq!(err.key, "v1");
    let err = (find("bengisu-akay").unwrap().build)(&[0.15, 0.0])
        .err()
        .unwrap();
    assert_eq!(err.key, "muk");
    let err = (find("bernard").unwrap().build)(&[0.1, 9.81, -1.0])
        .err()
        .unwrap();
    assert_eq!(err.key, "kl");
}

fn wild() -> impl Strategy<Value = f64> {
    prop_oneof![
        -1e3f64..1e3,
        -1e-3f64..1e-3,
        Just(0.0),
        Just(-0.0),
        Just(1e300),
        Just(-1e300),
        Just(f64::MAX),
        Just(f64::MIN_POSITIVE),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]
    #[test]
    fn output_is_finite_for_any_finite_input(
        idx in 0usize..28,
        seed in 0.0f64..1.0,
        v in wild(),
        fe in wild(),
        x in wild(),
    ) {
        let e = &ENTRIES[idx];
        // parameters: a point of the allowed box picked from `seed`
        let vals: Vec<f64> = e.info.params.iter().enumerate().map(|(i, p)| {
            let t = (seed * (i as f64 + 1.7) * 7.31).fract();
            if p.log && p.min > 0.0 { (p.min.ln() + t * (p.max.ln() - p.min.ln())).exp() } else { p.min + t * (p.max - p.min) }
        }).collect();
        if let Ok(m) = (e.build)(&vals) {
            let xs = vec![x; m.n_states()];
            let out = m.force(v, fe, &xs);
            prop_assert!(out.is_finite(), "{}: F({v}, {fe}, {x}) = {out} with {vals:?}", e.info.id);
            let mut dx = vec![0.0; m.n_states()];
            m.derivative(v, fe, &xs, &mut dx);
            prop_assert!(dx.iter().all(|d| d.is_finite()));
            // oddness in (v, F_e, state) holds for any valid parameters (printed AV/SD/SV excepted)
            let printed = e.info.params.iter().position(|p| p.key == "printed").map(|i| vals[i] >= 0.5).unwrap_or(false);
            if !printed && v.abs() < 1e6 && fe.abs() < 1e6 && x.abs() < 1e6 {
                let mx = vec![-x; m.n_states()];
                let back = m.force(-v, -fe, &mx);
                prop_assert!((out + back).abs() <= 1e-9 * out.abs().max(1.0), "{}: {out} vs {back}", e.info.id);
            }
        }
    }
}

#[test]
fn auxiliary_laws_serve_as_stribeck_curves() {
    use friction_core::statics::{bo_pavelescu, hess_soom, popp_stelter, stribeck, tustin};
    use friction_core::statics::{FromValues, StribeckCurve};
    let vals = [0.15, 0.1, 9.81];
    let curves: Vec<(&str, Box<dyn StribeckCurve>)> = vec![
        (
            "tustin",
            Box::new(tustin::Tustin::from_values(&vals).unwrap()),
        ),
        (
            "bo-pavelescu",
            Box::new(bo_pavelescu::BoPavelescu::from_values(&vals).unwrap()),
        ),
        (
            "hess-soom",
            Box::new(hess_soom::HessSoom::from_values(&vals).unwrap()),
        ),
        (
            "popp-stelter",
            Box::new(popp_stelter::PoppStelter::from_values(&vals).unwrap()),
        ),
        (
            "stribeck",
            Box::new(stribeck::Stribeck::from_values(&vals).unwrap()),
        ),
    ];
    for (id, c) in curves {
        assert!((c.curve(0.0) - 1.4715).abs() < 1e-12, "{id}");
        assert!(
            (c.curve(1e3) - 0.981).abs() < 1e-3,
            "{id}: {}",
            c.curve(1e3)
        );
        for v in [1e-4, 1e-3, 0.02] {
            assert_eq!(c.curve(v), c.curve(-v), "{id}");
            assert!(c.curve(v) < 1.4715 && c.curve(v) > 0.981, "{id}");
        }
    }
}
