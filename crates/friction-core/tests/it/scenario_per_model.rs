//! Per-model keys (`<model id>.<key>`) through the real scenario schema (unit tests see only
//! test views): fields for parameters that differ between the selected models, overrides,
//! round trips and errors.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use friction_core::scenario::Scenario;

/// The value selected model `i` runs with for `key`.
fn runs_with(s: &Scenario, i: usize, key: &str) -> f64 {
    let e = s.models()[i];
    let k = e.info.params.iter().position(|p| p.key == key).unwrap();
    s.model_values(e)[k]
}

#[test]
fn models_whose_parameters_differ_get_a_field_each_under_their_own_key() {
    // LuGre's σ0 is 1e5 N/m, the library's rational LuGre's 45 089: one shared field showed
    // 1e5 while the rational model ran with its own default.
    let s = Scenario::parse("view=stickslip&model=lugre,lugre-rational").unwrap();
    let controls = s.controls();
    let field = |key: &str| controls.iter().find(|c| c.key == key);
    assert!(field("sigma0").is_none());
    let (a, b) = (
        field("lugre.sigma0").unwrap(),
        field("lugre-rational.sigma0").unwrap(),
    );
    assert_eq!((a.value.as_str(), b.value.as_str()), ("100000", "45089"));
    assert!(a.label.starts_with("LuGre — ") && b.label.starts_with("LuGre with rational g(v) — "));
    assert_eq!(runs_with(&s, 1, "sigma0"), 45089.0);
    // Identical parameters (the view's μ_s, and keys with the same spec) stay shared.
    assert!(field("mus").is_some() && field("lugre.mus").is_none());
    let s = Scenario::parse("view=stickslip&model=lugre,leuven").unwrap();
    assert!(s.controls().iter().any(|c| c.key == "sigma0"));
    assert!(!s.controls().iter().any(|c| c.key.contains('.')));
}

#[test]
fn a_models_own_value_overrides_the_shared_one_and_round_trips() {
    let mut s = Scenario::parse("view=stickslip&model=lugre,lugre-rational").unwrap();
    s.set("lugre-rational.sigma0", "5e4").unwrap();
    assert_eq!(s.get("lugre-rational.sigma0").unwrap(), "50000");
    assert_eq!(s.get("lugre.sigma0").unwrap(), "100000");
    let q = s.to_query();
    assert_eq!(
        q,
        "v=1&view=stickslip&model=lugre,lugre-rational&lugre-rational.sigma0=50000"
    );
    assert_eq!(Scenario::parse(&q).unwrap(), s);
    // A shared value applies to every model without its own; the own value wins wherever it
    // stands in the link, and is kept even when equal to the model's default.
    let q = "view=stickslip&model=lugre,lugre-rational&lugre.sigma0=1e5&sigma0=2e5";
    let s = Scenario::parse(q).unwrap();
    assert_eq!(runs_with(&s, 0, "sigma0"), 1e5);
    assert_eq!(runs_with(&s, 1, "sigma0"), 2e5);
    assert_eq!(
        s.to_query(),
        "v=1&view=stickslip&model=lugre,lugre-rational&sigma0=200000&lugre.sigma0=100000"
    );
    assert_eq!(Scenario::parse(&s.to_query()).unwrap(), s);
    // An own value equal to what the model takes anyway is not printed.
    let s = Scenario::parse("view=stickslip&model=lugre,lugre-rational&lugre.sigma0=1e5").unwrap();
    assert_eq!(
        s.to_query(),
        "v=1&view=stickslip&model=lugre,lugre-rational"
    );
    // Deselecting the model drops its own values.
    let mut s = Scenario::parse("view=stickslip&model=lugre,bristle&bristle.sigma0=2000").unwrap();
    s.set("model", "lugre").unwrap();
    assert_eq!(s.to_query(), "v=1&view=stickslip&model=lugre");
}

#[test]
fn own_keys_are_checked_against_their_model_and_errors_name_them() {
    let base = "view=stickslip&model=lugre,bristle";
    let err = |q: &str| Scenario::parse(&format!("{base}&{q}")).unwrap_err()[0].clone();
    let e = err("bristle.sigma0=-1");
    assert_eq!(e.key, "bristle.sigma0");
    assert!(e.reason.contains("sigma0"), "{}", e.reason);
    assert!(err("dahl.sigma0=1")
        .reason
        .contains("not among the selected models: lugre,bristle"));
    assert!(err("lugre.mus=0.2").reason.contains("for every model"));
    assert!(err("lugre.nope=1").reason.contains("not a parameter"));
    assert!(err("lugre.fn=1").reason.contains("for every model"));
    // The bristle model's own range applies, not LuGre's.
    assert!(Scenario::parse(&format!("{base}&bristle.sigma0=2000")).is_ok());
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(48))]

    /// Any two benchmark models with any own values in range: the link reproduces the scenario,
    /// and every field shows the value its model runs with.
    #[test]
    fn per_model_links_round_trip_and_fields_show_what_runs(
        a in 0usize..64,
        b in 0usize..64,
        fracs in proptest::collection::vec(0.0f64..=1.0, 24),
    ) {
        let ids: Vec<&str> = friction_core::registry::registry().map(|e| e.info.id).collect();
        let (a, b) = (ids[a % ids.len()], ids[b % ids.len()]);
        let Ok(mut s) = Scenario::parse(&format!("view=stickslip&model={a},{b}")) else {
            return Ok(());
        };
        let own: Vec<_> = s.controls().into_iter().filter(|c| c.key.contains('.')).collect();
        for (c, f) in own.iter().zip(&fracs) {
            let x = if c.log {
                (c.min.ln() + f * (c.max.ln() - c.min.ln())).exp()
            } else {
                c.min + f * (c.max - c.min)
            };
            // cross-parameter rules (e.g. μ_s ≥ μ_k) may refuse a value: then nothing changes
            let _ = s.set(c.key, &format!("{x}"));
        }
        let q = s.to_query();
        let back = Scenario::parse(&q);
        proptest::prop_assert_eq!(back.as_ref().ok(), Some(&s), "{}", q);
        for c in s.controls() {
            proptest::prop_assert_eq!(s.get(c.key), Some(c.value.clone()), "{}", c.key);
            if let Some((id, key)) = c.key.split_once('.') {
                let i = s.models().iter().position(|e| e.info.id == id).unwrap();
                let shown: f64 = c.value.parse().unwrap();
                proptest::prop_assert_eq!(shown, runs_with(&s, i, key), "{}", c.key);
            }
        }
    }
}

#[test]
fn parameters_that_differ_only_in_range_stay_shared_within_every_range() {
    // μ_k and F_N have the same default for Specker, Karnopp and LuGre, different ranges.
    let s = Scenario::parse("view=curve&model=specker,karnopp,lugre").unwrap();
    let controls = s.controls();
    assert!(!controls
        .iter()
        .any(|c| c.key.ends_with(".muk") || c.key.ends_with(".fn")));
    let muk = controls.iter().find(|c| c.key == "muk").unwrap();
    for e in s.models() {
        let p = e.info.params.iter().find(|p| p.key == "muk").unwrap();
        assert!(
            p.min <= muk.min && muk.max <= p.max,
            "{}: {:?}",
            e.info.id,
            (muk.min, muk.max)
        );
    }
    // v0 has different defaults (Specker 2.5e-4 m/s, Karnopp 1e-4): one field each.
    assert!(controls.iter().any(|c| c.key == "specker.v0"));
    assert!(controls.iter().any(|c| c.key == "karnopp.v0"));
}

/// GMS's per-element lists through the schema: fields that show the derived lists, explicit
/// lists that round-trip, lists equal to the derived ones forgotten, errors naming the key.
#[test]
fn gms_element_lists_are_list_fields_showing_what_the_model_runs_with() {
    use friction_core::scenario::ControlKind;
    let s = Scenario::parse("view=curve&model=gms&n=3").unwrap();
    let controls = s.controls();
    let field = |key: &str| controls.iter().find(|c| c.key == key).unwrap();
    assert!(matches!(
        field("ki").kind,
        ControlKind::List { max_len: 64, .. }
    ));
    let third = 1e5 / 3.0;
    assert_eq!(field("ki").value, format!("{third},{third},{third}"));
    assert_eq!(
        field("nui").value,
        format!("{},{},{}", 1.0 / 6.0, 2.0 / 6.0, 3.0 / 6.0)
    );
    assert_eq!(s.get("bi"), Some(field("bi").value.clone()));
    // explicit lists round-trip; σ0 no longer shapes the stiffnesses
    let q = "view=curve&model=gms&n=3&ki=10000,50000,20000&nui=0.2,0.3,0.5";
    let s = Scenario::parse(q).unwrap();
    let printed = s.to_query();
    assert!(
        printed.contains("&ki=10000,50000,20000&nui=0.2,0.3,0.5"),
        "{printed}"
    );
    assert_eq!(Scenario::parse(&printed).unwrap(), s);
    let mut t = s.clone();
    t.set("sigma0", "2e5").unwrap();
    assert_eq!(t.get("ki").unwrap(), "10000,50000,20000");
    assert_eq!(t.get("gms.ki").unwrap(), "10000,50000,20000");
    t.set("ki", "").unwrap();
    assert_eq!(t.get("ki").unwrap(), format!("{0},{0},{0}", 2e5 / 3.0));
    // the job runs with them
    assert!(s.build_models().is_ok());
    // a list equal to the derived one is forgotten, as a default scalar is
    let s = Scenario::parse(&format!(
        "view=curve&model=gms&n=3&ki={third},{third},{third}"
    ))
    .unwrap();
    assert!(!s.to_query().contains("ki="), "{}", s.to_query());
    // errors name the key
    let errs = Scenario::parse("view=curve&model=gms&n=3&nui=0.5,0.3,0.1").unwrap_err();
    assert_eq!(errs[0].key, "nui");
    assert!(errs[0].reason.contains("sum to 1"), "{}", errs[0]);
    let errs = Scenario::parse("view=curve&model=gms&ki=1,2").unwrap_err();
    assert_eq!(errs[0].key, "ki");
    assert!(
        errs[0].reason.contains("2 values for N = 10"),
        "{}",
        errs[0]
    );
    let errs = Scenario::parse("view=curve&model=gms&n=2&bi=1,x").unwrap_err();
    assert_eq!(errs[0].key, "bi");
    // no list field for a model without lists, none for GMS beyond 64 elements
    let s = Scenario::parse("view=curve&model=lugre").unwrap();
    assert!(s.controls().iter().all(|c| c.key != "ki"));
    assert!(Scenario::parse("view=curve&model=lugre&ki=1").is_err());
    let s = Scenario::parse("view=curve&model=gms&n=100").unwrap();
    assert!(s.controls().iter().all(|c| c.key != "ki"));
}
