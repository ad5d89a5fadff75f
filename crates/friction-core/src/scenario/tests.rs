#![allow(clippy::unwrap_used)]

use super::frbd::{join, KEYS};
use super::*;
use crate::experiments::robot_arm;
use crate::params::ParamSpec;
use proptest::prelude::*;

#[test]
fn default_prints_only_the_version_and_parses_back() {
    let s = Scenario::default();
    assert_eq!(s.to_query(), "v=1");
    assert_eq!(Scenario::parse("v=1").unwrap(), s);
    assert_eq!(Scenario::parse("").unwrap(), s);
    assert_eq!(Scenario::parse("?").unwrap(), s);
}

#[test]
fn explicit_default_values_are_omitted() {
    let s = Scenario::parse("?v=1&view=hysteresis&k0=1e4&tau=0.001&freqs=25,50,100").unwrap();
    assert_eq!(s.to_query(), "v=1");
}

#[test]
fn values_print_in_key_order_with_exact_floats() {
    let s =
        Scenario::parse("freqs=10,1000&mus=1.25&n=2&k=1e5,3&tau=0.1,1e-7&model=frbd-gm").unwrap();
    assert_eq!(
        s.to_query(),
        "v=1&n=2&k=100000,3&tau=0.1,0.0000001&mus=1.25&freqs=10,1000"
    );
    assert_eq!(s.n(), 2);
    assert_eq!(s.get("tau").unwrap(), "0.1,0.0000001");
}

#[test]
fn errors_name_key_value_and_range() {
    // reported in key order, whatever the link's
    let e = Scenario::parse("k0=-3&bogus=1&vs=abc").unwrap_err();
    assert_eq!(e.len(), 3, "{e:?}");
    assert_eq!(e[1].key, "k0");
    assert!(e[1].to_string().contains("-3") && e[1].to_string().contains("≤ k0 ≤"));
    assert_eq!(e[0].key, "bogus");
    assert!(e[0].reason.contains("unknown key"));
    assert_eq!(e[2].key, "vs");
}

#[test]
fn list_lengths_follow_n() {
    let e = Scenario::parse("n=2&k=1e4").unwrap_err();
    assert_eq!(e[0].key, "k");
    assert!(e[0].reason.contains("exactly 2"), "{}", e[0]);
    let e = Scenario::parse("n=1&tau=1,2").unwrap_err();
    assert_eq!(e[0].key, "tau");
    assert!(Scenario::parse("n=11").is_err());
    assert!(Scenario::parse("n=10").is_ok());
    assert!(Scenario::parse("model=frbd-kv&n=1").is_err());
    assert!(Scenario::parse("model=frbd-kv&tau=1").is_err());
    assert!(Scenario::parse("model=frbd-gkv&c=3").is_ok());
    assert!(Scenario::parse("view=relaxation&vmean=0.1").is_err());
    assert!(Scenario::parse("freqs=1,2,3,4,5,6,7,8").is_err());
    assert!(Scenario::parse("freqs=2000").is_err());
    assert!(Scenario::parse("funit=rad&freqs=2000").is_ok());
}

#[test]
fn set_n_resizes_lists_and_keeps_set_values() {
    let mut s = Scenario::default();
    s.set("k", "2e4").unwrap();
    s.set("n", "3").unwrap();
    assert_eq!(s.get("k").unwrap(), "20000,54500,54500");
    assert_eq!(s.get("tau").unwrap(), "0.001,0.001,0.001");
    s.set("view", "relaxation").unwrap();
    assert_eq!(s.get("tau").unwrap(), "1,0.1,0.01");
    let before = s.clone();
    assert!(s.set("k", "1,2").is_err());
    assert_eq!(s, before, "a failed set must leave the scenario unchanged");
}

#[test]
fn sigma_input_maps_and_rejects_non_physical_sets() {
    let s = Scenario::parse("sigma0=1e4&sigma1=64.5&gamma1=0.001").unwrap();
    assert_eq!(s.get("k0").unwrap(), "10000");
    let k1: f64 = s.get("k").unwrap().parse().unwrap();
    assert!((k1 - 5.45e4).abs() < 1e-6);
    let e = Scenario::parse("sigma1=5").unwrap_err();
    assert_eq!(e[0].key, "sigma1");
    assert!(e[0].reason.contains("non-physical"), "{}", e[0]);
    let e = Scenario::parse("sigma1=70&k0=3").unwrap_err();
    assert_eq!(e[0].key, "k0");
    assert!(e[0].reason.contains("conflicts"));
    let e = Scenario::parse("n=2&sigma0=1").unwrap_err();
    assert_eq!(e[0].key, "sigma0");
    assert!(Scenario::parse("model=frbd-elastic&sigma0=1").is_err());
    // the triple is applied together: σ0 alone would be non-physical with the default σ1
    assert!(Scenario::parse("sigma0=1e5&sigma1=1000&gamma1=0.001").is_ok());
    // GM → GKV keeps the same (σ0, σ1, γ1)
    let mut s = Scenario::parse("sigma1=80").unwrap();
    s.set("model", "frbd-gkv").unwrap();
    assert_eq!(s.get("sigma1").unwrap(), "80");
    // changing a rheological value leaves the form (5)
    s.set("k0", "7e4").unwrap();
    assert!(!s.to_query().contains("sigma"));
    // and n ≠ 1 turns σ into explicit values
    let mut s = Scenario::parse("sigma1=80").unwrap();
    s.set("n", "2").unwrap();
    assert!(s.get("sigma0").is_none());
    let k: Vec<f64> = s
        .get("k")
        .unwrap()
        .split(',')
        .map(|x| x.parse().unwrap())
        .collect();
    assert!((k[0] - (80.0 / 1e-3 - 1e4)).abs() < 1e-6);
}

#[test]
fn repeated_keys_are_errors_and_lenient_uses_the_last() {
    assert!(Scenario::parse("mus=1.2&mus=1.3").is_err());
    let (s, e) = Scenario::parse_lenient("mus=1.2&mus=1.3&vs=-1&zz=3");
    assert_eq!(e.len(), 3);
    assert_eq!(s.get("mus").unwrap(), "1.3");
    assert_eq!(s.get("vs").unwrap(), "0.01");
}

#[test]
fn controls_follow_view_and_model() {
    let s = Scenario::default();
    let keys: Vec<&str> = s.controls().iter().map(|c| c.key).collect();
    assert!(keys.contains(&"freqs") && keys.contains(&"tau") && keys.contains(&"sigma0"));
    assert!(!keys.contains(&"c") && !keys.contains(&"vrel"));
    let vs = s.controls().into_iter().find(|c| c.key == "vs").unwrap();
    assert_eq!(vs.label, "Stribeck velocity v_S [m/s]");
    assert_eq!(vs.value, "0.01");
    let s = Scenario::parse("view=relaxation&model=frbd-kv").unwrap();
    let keys: Vec<&str> = s.controls().iter().map(|c| c.key).collect();
    assert!(keys.contains(&"c0") && keys.contains(&"tend") && !keys.contains(&"n"));
    assert!(!keys.contains(&"sigma0") && !keys.contains(&"freqs"));
    for c in s.controls() {
        assert!(s.get(c.key).is_some(), "{}", c.key);
    }
}

#[test]
fn every_model_and_view_builds_by_default() {
    for v in ["hysteresis", "relaxation"] {
        for m in ["frbd-gm", "frbd-gkv", "frbd-elastic", "frbd-kv"] {
            let s = Scenario::parse(&format!("view={v}&model={m}")).unwrap();
            s.build_model().unwrap();
            assert_eq!(Scenario::parse(&s.to_query()).unwrap(), s);
        }
    }
}

fn num_key() -> impl Strategy<Value = (&'static str, f64)> {
    prop_oneof![
        (Just("k0"), 1e-3..1e9f64),
        (Just("mus"), 1e-3..10.0f64),
        (Just("mud"), 1e-3..10.0f64),
        (Just("vs"), 1e-6..10.0f64),
        (Just("delta"), 0.1..10.0f64),
        (Just("eps"), 0.0..1.0f64),
        (Just("p"), 1e-6..1e6f64),
        (Just("vmean"), -10.0..10.0f64),
        (Just("vamp"), 0.0..10.0f64),
        (Just("vrel"), -10.0..10.0f64),
        (Just("tend"), 1e-4..1e4f64),
        (Just("c0"), 0.0..1e9f64),
        (Just("sigma1"), 20.0..1e3f64),
        (Just("gamma1"), 1e-7..1e-3f64),
        (Just("m"), 1e-3..1e3f64),
        (Just("ks"), 1e-3..1e4f64),
        (Just("kobs"), 1e-6..1e4f64),
        (Just("qamp"), -10.0..10.0f64),
        (Just("zhat0"), -1e-2..1e-2f64),
        (Just("observer"), 0.0..=1.0f64),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn parse_print_round_trip_is_exact(
        view in prop::sample::select(vec!["hysteresis", "relaxation", "curve", "robot"]),
        model in prop::sample::select(vec!["frbd-gm", "frbd-gkv", "frbd-elastic", "frbd-kv"]),
        n in 0usize..=4,
        sets in prop::collection::vec(num_key(), 0..8),
        ks in prop::collection::vec(1e-3..1e9f64, 4),
        taus in prop::collection::vec(1e-7..1e3f64, 4),
        freqs in prop::collection::vec(0.1..1000.0f64, 1..=7),
    ) {
        let mut s = Scenario::default();
        let _ = s.set("view", view);
        let _ = s.set("model", model);
        if view == "curve" {
            let _ = s.set("model", &format!("{model},frbd-gkv"));
        }
        let _ = s.set("n", &n.to_string());
        let m = s.n();
        let _ = s.set("k", &join(&ks[..m.min(4)]));
        let _ = s.set("tau", &join(&taus[..m.min(4)]));
        let _ = s.set("c", &join(&taus[..m.min(4)]));
        let _ = s.set("freqs", &join(&freqs));
        for (k, x) in sets {
            let _ = s.set(k, &fmt_num(x));
        }
        let q = s.to_query();
        let back = Scenario::parse(&q);
        prop_assert_eq!(back.as_ref().ok(), Some(&s), "query {} -> {:?}", q, back);
        for c in s.controls() {
            prop_assert!(s.get(c.key).is_some());
        }
    }

    #[test]
    fn hostile_strings_never_panic(q in ".{0,200}") {
        let _ = Scenario::parse(&q);
        let (s, _) = Scenario::parse_lenient(&q);
        let _ = Scenario::parse(&s.to_query()).unwrap();
    }

    #[test]
    fn hostile_values_never_panic(
        key in prop::sample::select(KEYS.to_vec()),
        value in "[-+0-9eE.,%a-z&=?]{0,40}",
    ) {
        let mut s = Scenario::default();
        let before = s.clone();
        if s.set(key, &value).is_err() {
            prop_assert_eq!(&s, &before);
        }
        let _ = Scenario::parse(&format!("{key}={value}"));
    }
}

const fn p(key: &'static str, default: f64, min: f64, max: f64) -> ParamSpec {
    ParamSpec {
        key,
        name: "Test",
        symbol: "x",
        unit: "m/s",
        default,
        min,
        max,
        log: false,
    }
}
static CURVE_PARAMS: [ParamSpec; 2] = [p("vmax", 0.05, 1e-3, 1.0), p("mus", 1.5, 0.5, 3.0)];
static TEST_CURVE: ViewDef = ViewDef {
    name: "curve",
    title: "Test curve",
    caption: "",
    kind: crate::job::ViewKind::Models,
    params: &CURVE_PARAMS,
    max_models: 3,
    derived_model_keys: &["p"],
    key_controls: &["vmax"],
    job: |_| Ok(Box::new(crate::job::Failed("test view".into()))),
    ..ViewDef::BASE
};
/// Generic views seen by the unit tests (the build's list is `MODEL_VIEWS`).
pub(super) static TEST_VIEWS: &[&ViewDef] = &[
    &crate::views::hysteresis::VIEW,
    &crate::views::relaxation::VIEW,
    &crate::views::robot::VIEW,
    &TEST_CURVE,
];

#[test]
fn generic_view_selects_models_and_shares_keys() {
    let q = "view=curve&model=frbd-gm,frbd-kv&vmax=0.2&k0=2e4&mus=1.2";
    let s = Scenario::parse(q).unwrap();
    assert_eq!(
        s.to_query(),
        "v=1&view=curve&model=frbd-gm,frbd-kv&vmax=0.2&mus=1.2&k0=20000"
    );
    assert_eq!(Scenario::parse(&s.to_query()).unwrap(), s);
    assert_eq!(s.get("k0").unwrap(), "20000");
    assert_eq!(s.view_value("vmax"), Some(0.2));
    let models = s.models();
    assert_eq!(models.len(), 2);
    let vals = s.model_values(models[1]);
    assert_eq!(vals[0], 2e4); // frbd-kv k0
    assert_eq!(vals[2], 1.2); // frbd-kv mus (the view's value drives the model)
    assert_eq!(s.build_models().unwrap().len(), 2);
    let keys: Vec<&str> = s.controls().iter().map(|c| c.key).collect();
    assert_eq!(&keys[..5], &["view", "model", "vmax", "mus", "k0"]);
    assert!(!keys.contains(&"p") && keys.contains(&"c0") && keys.contains(&"tau1"));
    // errors
    assert_eq!(Scenario::parse("view=curve&p=2").unwrap_err()[0].key, "p");
    assert!(Scenario::parse("view=curve&model=nope").is_err());
    assert!(Scenario::parse("view=curve&model=frbd-gm,frbd-gkv,frbd-kv,frbd-elastic").is_err());
    assert!(Scenario::parse("view=curve&n=2").is_err());
    assert!(Scenario::parse("view=curve&sigma0=2").is_err());
    assert!(Scenario::parse("view=curve&model=frbd-gm&tau1=1").is_ok());
    assert!(Scenario::parse("view=curve&model=frbd-kv&tau1=1").is_err());
    assert!(
        Scenario::parse("view=curve&mus=5").is_err(),
        "the view's range is checked too"
    );
}

#[test]
fn shared_values_carry_over_between_views() {
    let mut s = Scenario::parse("mus=1.3&tau=0.002").unwrap();
    s.set("view", "curve").unwrap();
    assert_eq!(s.get("mus").unwrap(), "1.3");
    s.set("view", "hysteresis").unwrap();
    assert_eq!(s.get("mus").unwrap(), "1.3");
    assert_eq!(Scenario::parse(&s.to_query()).unwrap(), s);
}

#[test]
fn robot_view_keys_defaults_and_round_trip() {
    let s = Scenario::parse("view=robot").unwrap();
    assert_eq!(s.to_query(), "v=1&view=robot");
    let (arm, model) = s.robot_config().unwrap();
    assert_eq!(model.kind(), Kind::Gm);
    assert_eq!(s.n(), 1);
    assert!(arm.observer && arm.tend == robot_arm::TEND.default);
    // explicit defaults are omitted; switches print as words/0-1
    let q = "view=robot&observer=1&ref=sine&m=1&ks=10&tend=10";
    assert_eq!(Scenario::parse(q).unwrap().to_query(), "v=1&view=robot");
    let q = "v=1&view=robot&model=frbd-gkv&mus=1.2&tend=4&observer=0&ref=step&m=2&cv=0&ks=30\
             &kobs=0.2&lambda=2&qamp=-0.7&q0=0.1&dq0=-1&z0=0&zhat0=0.0001";
    let s = Scenario::parse(q).unwrap();
    assert_eq!(s.to_query(), q);
    assert_eq!(Scenario::parse(&s.to_query()).unwrap(), s);
    assert_eq!(s.get("ref").unwrap(), "step");
    assert_eq!(s.get("observer").unwrap(), "0");
    let (arm, model) = s.robot_config().unwrap();
    assert_eq!(model.kind(), Kind::Gkv);
    assert!(!arm.observer);
    assert_eq!(arm.reference, robot_arm::Reference::Step { amp: -0.7 });
    assert_eq!(
        (arm.m, arm.c, arm.k1, arm.k2, arm.lambda),
        (2.0, 0.0, 30.0, 0.2, 2.0)
    );
    assert_eq!(
        (arm.q0, arm.dq0, arm.z0, arm.zhat0, arm.tend),
        (0.1, -1.0, 0.0, 1e-4, 4.0)
    );
    // controls: every key has a value; the step reference hides the frequency
    let keys: Vec<&str> = s.controls().iter().map(|c| c.key).collect();
    assert!(keys.contains(&"observer") && keys.contains(&"ks") && !keys.contains(&"qfreq"));
    assert!(!keys.contains(&"vrel") && !keys.contains(&"freqs"));
    for c in s.controls() {
        assert!(s.get(c.key).is_some(), "{}", c.key);
    }
    let model = s.controls().into_iter().find(|c| c.key == "model").unwrap();
    assert!(matches!(model.kind, ControlKind::Choice { ref options } if options.len() == 2));
}

#[test]
fn robot_view_rejects_bad_values_naming_the_key() {
    for (q, key) in [
        ("view=robot&m=0", "m"),
        ("view=robot&ks=-1", "ks"),
        ("view=robot&kobs=abc", "kobs"),
        ("view=robot&tend=0.001", "tend"),
        ("view=robot&observer=2", "observer"),
        ("view=robot&ref=square", "ref"),
        ("view=robot&model=frbd-kv", "model"),
        ("view=robot&z0=1", "z0"),
        ("view=hysteresis&ks=3", "ks"),
        ("view=relaxation&observer=0", "observer"),
    ] {
        let e = Scenario::parse(q).unwrap_err();
        assert_eq!(e[0].key, key, "{q}: {e:?}");
        assert!(!e[0].reason.is_empty());
    }
    let e = Scenario::parse("view=robot&m=0").unwrap_err();
    assert!(e[0].reason.contains("≤ m ≤"), "{}", e[0]);
}

#[test]
fn switching_to_robot_keeps_shared_values_and_drops_the_rest() {
    let mut s = Scenario::parse("view=relaxation&model=frbd-kv&tend=0.001&mus=1.3").unwrap();
    s.set("view", "robot").unwrap();
    assert_eq!(s.model(), Kind::Gm);
    assert_eq!(s.get("mus").unwrap(), "1.3");
    assert_eq!(
        s.get("tend").unwrap(),
        "10",
        "out-of-range tend falls back to the default"
    );
    assert!(s.robot_config().is_ok());
    s.set("observer", "0").unwrap();
    s.set("view", "hysteresis").unwrap();
    assert_eq!(s.get("observer"), None);
    assert_eq!(Scenario::parse(&s.to_query()).unwrap(), s);
}

#[test]
fn rheological_and_form_5_fields_carry_their_roles() {
    let find = |s: &Scenario, key: &str| s.controls().into_iter().find(|c| c.key == key);
    // the KV bristle's damping describes the same bristle as σ1: hidden with the other
    // rheological inputs (the page's own list forgot it)
    let kv = Scenario::parse("model=frbd-kv").unwrap();
    let c0 = find(&kv, "c0").unwrap();
    assert_eq!((c0.role, c0.group), (Role::Rheo, Group::MODEL));
    let gkv = Scenario::parse("model=frbd-gkv").unwrap();
    for key in ["k0", "k", "c"] {
        assert_eq!(find(&gkv, key).unwrap().role, Role::Rheo, "{key}");
    }
    let s = Scenario::default();
    for key in ["k0", "k", "tau"] {
        assert_eq!(find(&s, key).unwrap().role, Role::Rheo, "{key}");
    }
    for key in ["view", "model", "n", "mus", "vmean", "freqs"] {
        assert_eq!(find(&s, key).unwrap().role, Role::Plain, "{key}");
    }
    // the form (5) fields, and only they, sit under their own heading
    for c in s.controls() {
        let sigma = ["sigma0", "sigma1", "gamma1"].contains(&c.key);
        assert_eq!(c.role == Role::Sigma, sigma, "{}", c.key);
        assert_eq!(c.group == Group::SIGMA, sigma, "{}", c.key);
    }
    assert_eq!(Role::Rheo.as_str(), "rheo");
    assert_eq!(Role::Sigma.as_str(), "sigma");
}

#[test]
fn the_scenario_says_when_it_uses_the_form_5() {
    let mut s = Scenario::default();
    assert!(!s.uses_sigma_form());
    s.set("sigma1", "80").unwrap();
    assert!(s.uses_sigma_form());
    // a rheological value turns the triple back into rheological values
    s.set("k0", "2e4").unwrap();
    assert!(!s.uses_sigma_form());
    let mut s = Scenario::parse("sigma0=1e4&sigma1=80&gamma1=1e-3").unwrap();
    assert!(s.uses_sigma_form());
    s.set("n", "2").unwrap();
    assert!(!s.uses_sigma_form(), "the form (5) is for n = 1 only");
    // a generic view's σ0 is a model parameter, not the form (5)
    let s = Scenario::parse("view=curve&model=lugre&sigma0=2e5").unwrap();
    assert!(!s.uses_sigma_form());
}

#[test]
fn list_fields_name_each_entry() {
    let s = Scenario::parse("n=3&freqs=1,2").unwrap();
    let items = |key: &str| match s
        .controls()
        .into_iter()
        .find(|c| c.key == key)
        .unwrap()
        .kind
    {
        ControlKind::List { items, .. } => items,
        k => panic!("{key} is {k:?}"),
    };
    assert_eq!(items("k"), ["k̄_1", "k̄_2", "k̄_3"]);
    assert_eq!(items("tau"), ["τ_1", "τ_2", "τ_3"]);
    assert_eq!(items("freqs"), ["f_1", "f_2"]);
}

#[test]
fn a_list_says_what_its_first_entry_is_for_a_strip_without_its_heading() {
    let entry = |query: &str, key: &str| {
        let c = Scenario::parse(query)
            .unwrap()
            .controls()
            .into_iter()
            .find(|c| c.key == key)
            .unwrap_or_else(|| panic!("{query}: no {key}"));
        match c.kind {
            ControlKind::List { entry, .. } => (c.label, entry),
            k => panic!("{key} is {k:?}"),
        }
    };
    let (label, first) = entry("n=3", "tau");
    assert_eq!(label, "Relaxation time τ_i [s] (list, one per branch)");
    assert_eq!(first, "Relaxation time τ_1 [s]");
    // a model's element list: the same words, the first element's symbol
    let (label, first) = entry("view=curve&model=gms&n=3", "ki");
    assert_eq!(label, "Element stiffnesses (unset: σ0/N each) k_i [N/m]");
    assert_eq!(first, "Element stiffnesses (unset: σ0/N each) k_1 [N/m]");
}

#[test]
fn the_model_field_of_an_overlay_view_says_how_many_models_it_takes() {
    let s = Scenario::parse("view=curve").unwrap();
    let c = s.controls().into_iter().find(|c| c.key == "model").unwrap();
    assert_eq!(c.label, "Models (up to 3)");
    assert!(c.structural);
    match c.kind {
        ControlKind::MultiChoice { options, max_len } => {
            assert_eq!(max_len, TEST_CURVE.max_models);
            // provisional models say so in the option itself
            let hollars = options.iter().find(|o| o.0 == "hollars").unwrap();
            assert_eq!(hollars.1, "Hollars (1994) — provisional");
            let leuven = options.iter().find(|o| o.0 == "leuven").unwrap();
            assert!(leuven.1.ends_with(" (provisional)"), "{}", leuven.1);
        }
        k => panic!("model is {k:?}"),
    }
}

#[test]
fn defaults_keep_the_view_and_model_and_nothing_else() {
    let s = Scenario::parse("view=relaxation&model=frbd-gkv&n=2&mus=1.2&tend=3").unwrap();
    let d = s.defaults();
    assert_eq!(d.to_query(), "v=1&view=relaxation&model=frbd-gkv");
    let g = Scenario::parse("view=curve&model=frbd-gm,frbd-kv&mus=1.2").unwrap();
    assert_eq!(
        g.defaults().to_query(),
        "v=1&view=curve&model=frbd-gm,frbd-kv"
    );
}
