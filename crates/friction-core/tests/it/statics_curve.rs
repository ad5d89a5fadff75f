//! The curve experiment (`view=curve` / `view=explorer`): CSV shape, agreement with direct
//! evaluation, the quasi-steady curve of state models, and the composite paper's figures.

#![allow(clippy::unwrap_used)] // tests may panic on a broken invariant

use friction_core::experiments::curve::{self, composite_figure, Sweep};
use friction_core::model::FrictionModel;
use friction_core::params::ParamSpec;
use friction_core::registry::find;
use friction_core::scenario::{ControlKind, Scenario};
use friction_core::views::curve::{CURVE as CURVE_VIEW, EXPLORER as EXPLORER_VIEW};

fn model(id: &str) -> Box<dyn FrictionModel> {
    find(id).unwrap().build_default().unwrap()
}

#[test]
fn views_declare_their_parameters() {
    let curve = ["vmin", "vmax", "npts", "fe", "sweep", "xmax"];
    for v in [&CURVE_VIEW, &EXPLORER_VIEW] {
        let keys: Vec<&str> = v.params.iter().map(|p| p.key).collect();
        assert_eq!(keys[..6], curve);
        assert_eq!(v.max_models, 4);
    }
    // the explorer shares the normal force and friction coefficients across overlaid models
    let shared: Vec<&str> = EXPLORER_VIEW.params[6..].iter().map(|p| p.key).collect();
    assert_eq!(shared, ["fn", "mus", "muk"]);
    assert_eq!(CURVE_VIEW.params.len(), 6);
    assert_eq!(CURVE_VIEW.name, "curve");
    assert_eq!(EXPLORER_VIEW.name, "explorer");
}

#[test]
fn single_model_csv_is_v_f_and_matches_the_law() {
    let m = vec![model("linear-stiction")];
    let r = curve::run(&[-0.004, 0.004, 9.0], &m).unwrap();
    let csv = r.to_csv();
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(lines[0], "v,F");
    assert_eq!(lines.len(), 10);
    for l in &lines[1..] {
        let mut it = l.split(',').map(|s| s.parse::<f64>().unwrap());
        let (v, f) = (it.next().unwrap(), it.next().unwrap());
        assert_eq!(f, m[0].force(v, 0.0, &[]));
    }
    assert_eq!(lines[5], "0,0");
    assert!(lines[4].starts_with("-0.001,-1.471"), "{}", lines[4]);
}

#[test]
fn several_models_get_a_model_column() {
    let ms = vec![model("coulomb"), model("karnopp"), model("stribeck")];
    let r = curve::run(&[-1.0, 1.0, 5.0, 0.5], &ms).unwrap();
    let csv = r.to_csv();
    // Karnopp's stick set adds two columns, filled at v = 0, and two rows for the edges of its
    // window, which lie between grid points
    assert!(
        csv.starts_with("model,v,F,F_stick_lo,F_stick_hi\ncoulomb,-1,"),
        "{csv}"
    );
    assert_eq!(csv.lines().count(), 1 + 15 + 2);
    assert!(
        csv.contains("karnopp,-0.00009999999999999999,,-1.4715,1.4715\n"),
        "{csv}"
    );
    // the stick branch sees F_e: Karnopp at v = 0 returns F_e = 0.5 N
    assert!(csv.contains("karnopp,0,0.5,-1.4715,1.4715\n"), "{csv}");
    assert!(csv.contains("coulomb,0,0,,\n"), "{csv}");
    // without a stick branch in the set the CSV keeps its two columns
    let r = curve::run(&[-1.0, 1.0, 5.0, 0.5], &[model("coulomb"), model("lugre")]).unwrap();
    assert!(r.blocks.iter().all(|b| b.stick.is_empty()));
    assert!(r.to_csv().starts_with("model,v,F\ncoulomb,-1,"));
}

/// Karnopp's curve at F_e = 0 never leaves ±F_C, but the law sticks with any force up to
/// F_s = 1.4715 N inside its window |v| < v_0 = 1e-4 m/s: the curve data carry that band, with
/// its edges at the window's edges whatever the grid.
#[test]
fn karnopp_curve_carries_its_stick_band_up_to_fs() {
    let r = curve::run(&[], &[model("karnopp")]).unwrap();
    let b = &r.blocks[0];
    let fmax = b.points.iter().map(|p| p.1.abs()).fold(0.0, f64::max);
    assert_eq!(
        fmax, 0.981_000_000_000_000_1,
        "the curve itself peaks at F_C"
    );
    assert!(!b.stick.is_empty());
    for &(v, lo, hi) in &b.stick {
        assert!(v.abs() < 1e-4, "{v}");
        assert_eq!((lo, hi), (-1.4715, 1.4715));
    }
    let (first, last) = (b.stick[0].0, b.stick[b.stick.len() - 1].0);
    assert!(first > -1e-4 && first < -1e-4 * (1.0 - 1e-12), "{first}");
    assert!(last < 1e-4 && last > 1e-4 * (1.0 - 1e-12), "{last}");
    assert!(b.stick.iter().any(|s| s.0 == 0.0));
    assert!(b.stick.windows(2).all(|w| w[1].0 > w[0].0));
    // the CSV gives the band edges rows of their own, with F empty
    let csv = r.to_csv();
    assert!(csv.starts_with("v,F,F_stick_lo,F_stick_hi\n-0.01,-0.9810000000000001,,\n"));
    assert!(csv.contains("\n0,0,-1.4715,1.4715\n"), "{csv}");
    assert!(
        csv.contains("\n0.00009999999999999999,,-1.4715,1.4715\n"),
        "{csv}"
    );
}

/// The laws with an exact stick at v = 0 (Tustin and the other auxiliary laws, CS/CVS, the
/// Coulomb–viscous law up to F_C) get the vertical segment at v = 0, also on a grid without
/// v = 0; the composite laws with their F_s, Coulomb + viscous with its F_C.
#[test]
fn exact_stick_laws_get_the_segment_at_zero_on_any_grid() {
    for (id, fs) in [
        ("tustin", 1.4715),
        ("bo-pavelescu", 1.4715),
        ("hess-soom", 1.4715),
        ("popp-stelter", 1.4715),
        ("coulomb-viscous", 0.981),
        ("cs", 7.5),
        ("cvs", 7.5),
    ] {
        for npts in [801.0, 800.0] {
            let r = curve::run(&[-0.01, 0.01, npts], &[model(id)]).unwrap();
            let st = &r.blocks[0].stick;
            assert_eq!(st.len(), 1, "{id} {npts}: {st:?}");
            let (v, lo, hi) = st[0];
            assert_eq!(v, 0.0);
            assert!(
                (lo + fs).abs() < 1e-12 && (hi - fs).abs() < 1e-12,
                "{id}: {lo} {hi}"
            );
        }
    }
    // Awrejcewicz blends from the stick value to ±F_s across its window: a wedge closing at ±v_0
    let r = curve::run(&[], &[model("awrejcewicz")]).unwrap();
    let st = &r.blocks[0].stick;
    let zero = st.iter().find(|s| s.0 == 0.0).unwrap();
    assert!((zero.1 + 1.4715).abs() < 1e-12 && (zero.2 - 1.4715).abs() < 1e-12);
    let edge = st.last().unwrap();
    assert!(edge.2 - edge.1 < 1e-6 && edge.0 > 0.99e-4, "{edge:?}");
    // no stick branch, no stick set; and none on the displacement sweep
    for id in [
        "coulomb",
        "stribeck",
        "lugre",
        "dahl",
        "armstrong",
        "specker",
    ] {
        let r = curve::run(&[-0.01, 0.01, 101.0], &[model(id)]).unwrap();
        assert!(r.blocks[0].stick.is_empty(), "{id}");
    }
    let r = curve::run(&composite_figure("sd").unwrap(), &[model("cs")]).unwrap();
    assert!(r.blocks[0].stick.is_empty());
}

#[test]
fn errors_name_the_key() {
    let m = vec![model("coulomb")];
    let e = curve::run(&[0.1, 0.1], &m).unwrap_err();
    assert_eq!(
        e.keys(),
        ["vmin", "vmax"],
        "a rule between the two names both"
    );
    assert_eq!(curve::run(&[f64::NAN], &m).unwrap_err().key, "vmin");
    let five: Vec<_> = (0..5).map(|_| model("coulomb")).collect();
    assert_eq!(curve::run(&[], &five).unwrap_err().key, "model");
    assert_eq!(curve::run(&[], &[]).unwrap_err().key, "model");
}

#[test]
fn state_model_gives_its_steady_curve() {
    // Wojewoda (provisional) settles on its upper curve F_C + (F_s − F_C)e^{−a|v|}
    let m = vec![model("wojewoda")];
    let r = curve::run(&[-0.01, 0.01, 21.0], &m).unwrap();
    for &(v, f) in &r.blocks[0].points {
        if v.abs() >= 1e-4 {
            let want = v.signum() * (0.981 + 0.4905 * (-500.0 * v.abs()).exp());
            assert!((f - want).abs() < 1e-9, "v {v}: {f} vs {want}");
        }
    }
    assert!(r.blocks[0].provisional);
}

#[test]
fn composite_figures_reproduce_the_described_shapes() {
    // SV (Fig. 7): limits ≈ ±17 N (±16.38 at X = 14/3 m, t = 2 s), sharp jump at X = 0
    let p = composite_figure("sv").unwrap();
    let r = curve::run(&p, &[model("sv")]).unwrap();
    assert_eq!(r.sweep, Sweep::Displacement);
    let pts = &r.blocks[0].points;
    let want = 7.5 + 0.5 * 6.0 + 6.0 * (1.0 - (-5.0 * (14.0 / 3.0) / 6.0f64).exp());
    let (x0, f0) = pts[0];
    let (x1, f1) = pts[pts.len() - 1];
    assert!((x0 + 14.0 / 3.0).abs() < 1e-9 && (x1 - 14.0 / 3.0).abs() < 1e-9);
    assert!(
        (f1 - want).abs() < 1e-4 && (f0 + want).abs() < 1e-4,
        "{f0} {f1} {want}"
    );
    assert!((want - 16.377).abs() < 1e-3);
    let mid = pts.iter().position(|p| p.0 == 0.0).unwrap();
    assert!(pts[mid + 1].1 > 7.4 && pts[mid - 1].1 < -7.4, "jump at 0");
    // the abscissa increases monotonically
    assert!(pts.windows(2).all(|w| w[1].0 > w[0].0));
    // CS (Fig. 3): a drop from F_s + C near v = 0 to the plateau F_c = 6 N
    let r = curve::run(&composite_figure("cs").unwrap(), &[model("cs")]).unwrap();
    let last = r.blocks[0].points.last().unwrap();
    assert!((last.1 - (6.0 + 1.5 * (-100.0f64).exp())).abs() < 1e-9);
    assert!(composite_figure("coulomb").is_none());
}

#[test]
fn two_way_switches_are_choices_that_keep_their_0_1_query_values() {
    // every 0/1 parameter whose name spells out its two readings is a named switch
    let mut specs: Vec<ParamSpec> = friction_core::experiments::curve::PARAMS.to_vec();
    specs.extend_from_slice(&friction_core::experiments::stickslip::PARAMS);
    for e in friction_core::registry::registry() {
        specs.extend_from_slice(e.info.params);
    }
    for p in &specs {
        let two_way = p.min == 0.0 && p.max == 1.0 && p.name.contains("0 =");
        assert_eq!(
            two_way,
            friction_core::params::switch(p.key).is_some(),
            "{}: {}",
            p.key,
            p.name
        );
    }
    for (q, key, value) in [
        ("view=explorer&model=lugre&sweep=1", "sweep", "1"),
        ("view=explorer&model=reset-integrator", "form", "0"),
        ("view=stickslip&model=reset-integrator&form=1", "form", "1"),
    ] {
        let s = Scenario::parse(q).unwrap();
        let c = s.controls().into_iter().find(|c| c.key == key).unwrap();
        assert_eq!(c.value, value, "{q}");
        match c.kind {
            ControlKind::Choice { options } => {
                assert_eq!(options.iter().map(|o| o.0).collect::<Vec<_>>(), ["0", "1"]);
            }
            k => panic!("{q}: {key} is {k:?}"),
        }
        // the link keeps the number
        assert!(
            s.to_query().contains(&format!("{key}={value}")) || value == "0",
            "{q}"
        );
    }
}
