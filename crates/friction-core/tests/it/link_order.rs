//! A link means the same whatever the order of its keys, and always gives a scenario that runs
//! (issue 40); every refusal names its key (issue 39).
//!
//! The parsers tested are the ones the CLI (`Scenario::parse`) and the page (`Lab::new` is
//! `Scenario::parse_lenient`, the embed API's `set` and a preset `Scenario::set_all`) call. Links
//! are generated from the core's schema (`fuzzgen::legal_link`): every value legal on its own, with
//! no regard to the rules between values (μ_s ≥ μ_k, v_min < v_max, σ1 > σ0·γ1, z_ba < F_C/σ0),
//! which about half of them break.

use crate::fuzzgen;

use friction_core::params::ParamError;
use friction_core::scenario::Scenario;
use fuzzgen::{legal_link, link_text, shuffled, Rng};

/// What a parse gives: the canonical link of the scenario and every message, in its order.
fn lenient(q: &str) -> (String, Vec<String>) {
    let (s, errs) = Scenario::parse_lenient(q);
    (s.to_query(), errs.iter().map(|e| e.to_string()).collect())
}

/// The CLI's outcome: the scenario's link, or the refusal's messages.
fn strict(q: &str) -> Result<String, Vec<String>> {
    Scenario::parse(q)
        .map(|s| s.to_query())
        .map_err(|errs| errs.iter().map(|e| e.to_string()).collect())
}

/// Every key a refusal names, its rule's other keys included.
fn named(errs: &[ParamError]) -> Vec<String> {
    let mut keys: Vec<String> = errs
        .iter()
        .flat_map(|e| e.keys().into_iter().map(str::to_string))
        .collect();
    keys.sort();
    keys.dedup();
    keys
}

#[test]
fn every_order_of_a_legal_link_gives_the_same_outcome() {
    let (mut refused, mut reset) = (0, 0);
    for case in 0..300u64 {
        let mut r = Rng::new(40_000 + case);
        let link = legal_link(&mut r);
        let q = link_text(&link);
        let want_page = lenient(&q);
        let want_cli = strict(&q);
        if want_cli.is_err() {
            refused += 1;
        }
        if !want_page.1.is_empty() {
            reset += 1;
        }
        let (s, _) = Scenario::parse_lenient(&q);
        assert!(s.job().is_ok(), "{q}: the page's scenario does not run");
        for _ in 0..4 {
            let p = link_text(&shuffled(&mut r, &link));
            assert_eq!(lenient(&p), want_page, "page: {q}\n  reordered: {p}");
            assert_eq!(strict(&p), want_cli, "CLI: {q}\n  reordered: {p}");
        }
    }
    // the generator breaks the rules between values often enough for this to mean something
    assert!(
        refused > 60 && reset > 60,
        "{refused} refused, {reset} with resets of 300"
    );
}

/// A set of keys given at once (a preset, the embed API's `set {mus, muk}`) on a page already
/// showing a scenario: the same outcome in every order.
#[test]
fn set_all_does_not_depend_on_the_order_of_the_keys() {
    for case in 0..200u64 {
        let mut r = Rng::new(77_000 + case);
        let link = legal_link(&mut r);
        // the page shows the view (and models) of the link; the rest comes in one change
        let (head, rest): (Vec<_>, Vec<_>) = link
            .iter()
            .cloned()
            .partition(|(k, _)| k == "view" || k == "model");
        let (base, _) = Scenario::parse_lenient(&link_text(&head));
        let mut want = base.clone();
        let want_errs: Vec<String> = want.set_all(&rest).iter().map(|e| e.to_string()).collect();
        assert!(want.job().is_ok(), "{}: does not run", link_text(&link));
        for _ in 0..3 {
            let mut s = base.clone();
            let errs: Vec<String> = s
                .set_all(&shuffled(&mut r, &rest))
                .iter()
                .map(|e| e.to_string())
                .collect();
            assert_eq!(s.to_query(), want.to_query(), "{}", link_text(&link));
            assert_eq!(errs, want_errs, "{}", link_text(&link));
        }
    }
}

/// The issue's examples: refused by the CLI naming the keys involved and quoting only values the
/// link gave; on the page the nearest scenario that runs, with the reset keys listed.
#[test]
fn the_examples_of_the_issue_run_or_are_refused_naming_their_keys() {
    // the low end of the range past the default high end
    let q = "?v=1&view=curve&model=lugre&vmin=0.05";
    let e = Scenario::parse(q).unwrap_err();
    assert_eq!(named(&e), ["vmax", "vmin"]);
    assert_eq!(e[0].key, "vmin", "the key the link gave");
    let msg = e[0].to_string();
    assert!(msg.starts_with("vmin = \"0.05\""), "{msg}");
    assert!(msg.contains("vmax = 0.01 (default)"), "{msg}");
    let (s, errs) = Scenario::parse_lenient(q);
    assert!(s.job().is_ok());
    assert_eq!(errs.len(), 1);
    assert_eq!(
        s.to_query(),
        "v=1&view=curve&model=lugre",
        "vmin reset to its default"
    );

    // the same two values in both orders
    for q in [
        "view=curve&model=lugre&muk=0.5&mus=0.6",
        "view=curve&model=lugre&mus=0.6&muk=0.5",
    ] {
        let s = Scenario::parse(q).unwrap_or_else(|e| panic!("{q}: {e:?}"));
        assert_eq!(s.get("mus").unwrap(), "0.6");
        assert_eq!(s.get("muk").unwrap(), "0.5");
    }
    // one of them alone breaks the rule with the other's default: named, its default marked
    let e = Scenario::parse("view=curve&model=lugre&muk=0.5").unwrap_err();
    assert_eq!(named(&e), ["muk", "mus"]);
    assert_eq!(e[0].key, "muk");
    assert!(
        e[0].to_string().contains("mus = 0.15 (default)"),
        "{}",
        e[0]
    );
    // both given and breaking it: one refusal naming both, the other's value quoted as given
    let e = Scenario::parse("view=curve&model=lugre&mus=0.4&muk=0.5").unwrap_err();
    assert_eq!(named(&e), ["muk", "mus"]);
    assert!(e[0].to_string().contains("\"0.4\"") && e[0].to_string().contains("\"0.5\""));
    // the page keeps the one it can: μ_k reset to 0.1 keeps μ_s = 0.4 ≥ μ_k
    let (s, errs) = Scenario::parse_lenient("view=curve&model=lugre&muk=0.5&mus=0.4");
    assert_eq!(s.get("mus").unwrap(), "0.4");
    assert_eq!(s.get("muk").unwrap(), "0.1");
    assert_eq!(errs.len(), 1);
    assert_eq!(errs[0].key, "muk");

    // a value that maps out of range quotes itself, not ""
    let e = Scenario::parse("sigma1=5e7").unwrap_err();
    assert_eq!(e[0].key, "sigma1");
    assert_eq!(e[0].value, "5e7");
    assert_eq!(named(&e), ["gamma1", "sigma0", "sigma1"]);
    let (s, _) = Scenario::parse_lenient("sigma1=5e7");
    assert!(s.job().is_ok());
}

/// One test per class of refusal: each names its key (issue 39).
#[test]
fn every_class_of_refusal_names_its_key() {
    // a key with a control character: named, the character shown escaped
    let e = Scenario::parse("vs%0D=1").unwrap_err();
    assert_eq!(e.len(), 1);
    assert_eq!(e[0].key, "vs\r");
    let msg = e[0].to_string();
    assert!(msg.starts_with("vs%0D = \"1\""), "{msg}");
    assert!(msg.contains("did you mean vs?"), "{msg}");
    assert!(!msg.contains('\r'));
    // and an invisible one (a zero-width space), a form feed in the middle of a sweep link
    let e = Scenario::parse("view=curve&%E2%80%8Bvmin=1").unwrap_err();
    assert!(e[0].to_string().starts_with("%E2%80%8Bvmin = "), "{}", e[0]);
    let e = Scenario::parse("view=sweep&fmax%0C=3").unwrap_err();
    assert!(e[0].to_string().starts_with("fmax%0C = "), "{}", e[0]);
    // the page does not take them for the key they hide
    let (s, errs) = Scenario::parse_lenient("vs%0D=0.05");
    assert_eq!(s.get("vs").unwrap(), "0.01");
    assert_eq!(errs.len(), 1);

    // a duplicate key
    let e = Scenario::parse("view=curve&vmin=-1&vmin=-2").unwrap_err();
    assert_eq!(e.len(), 1);
    assert_eq!(e[0].key, "vmin");
    assert!(e[0].reason.contains("more than once"), "{}", e[0]);

    // an unknown key
    let e = Scenario::parse("view=curve&bogus=1").unwrap_err();
    assert_eq!(e[0].key, "bogus");
    assert!(e[0].to_string().starts_with("bogus = \"1\""));

    // a value out of its range
    let e = Scenario::parse("view=curve&npts=1e9").unwrap_err();
    assert_eq!(e[0].key, "npts");
    assert!(e[0].to_string().contains("≤ npts ≤"), "{}", e[0]);

    // a rule between keys: every key named, the link's own values quoted
    let e = Scenario::parse("view=sweep&fmin=50&fmax=20").unwrap_err();
    assert_eq!(named(&e), ["fmax", "fmin"]);
    let msg = e[0].to_string();
    assert!(msg.contains("\"50\"") && msg.contains("\"20\""), "{msg}");

    // two inputs of the same model: the conflict is named even where the other input is
    // refused too
    let e = Scenario::parse("view=hysteresis&sigma0=1e5&k0=1e5").unwrap_err();
    let keys: Vec<&str> = e.iter().map(|e| e.key.as_str()).collect();
    assert_eq!(keys, ["k0", "sigma0"], "{e:?}");
    assert!(e[0].reason.contains("conflicts with sigma0"), "{}", e[0]);

    // a key the view derives from others (the benchmark's fn = m·g) names those
    let e = Scenario::parse("view=stickslip&model=elasto-plastic&m=0.001").unwrap_err();
    let keys = named(&e);
    for k in ["m", "zba", "muk", "sigma0"] {
        assert!(keys.iter().any(|x| x == k), "{k} in {keys:?}");
    }
    assert_eq!(e[0].key, "m", "the key the link gave");

    // several bad keys: every one listed, not the first error only
    let (_, errs) =
        Scenario::parse_lenient("view=curve&model=lugre&bogus=1&npts=1e9&muk=0.5&vs%0D=1");
    let mut keys: Vec<&str> = errs.iter().map(|e| e.key.as_str()).collect();
    keys.sort_unstable();
    assert_eq!(keys, ["bogus", "muk", "npts", "vs\r"]);
}

/// A link copied from the page carries its layout keys: the parser passes over them.
#[test]
fn page_keys_are_passed_over() {
    let q = "view=curve&model=lugre&embed=1&show=vs,mus&panels=1&controls=0&origin=https%3A%2F%2Fa.example&lesson=1";
    let s = Scenario::parse(q).unwrap();
    assert_eq!(s.to_query(), "v=1&view=curve&model=lugre");
}

/// A run the solver cannot finish at a range's end (a step size underflow, a step cap, the page's
/// time budget) names the values changed from their defaults as the keys to change (issue 40
/// item 5): the messages used to say "step size underflow at t = …" with no key, or to shorten
/// t_end when the run stopped at 0.05 s of 40.
#[test]
fn a_run_the_solver_cannot_finish_names_the_values_to_change() {
    let q = "view=stickslip&model=modified-stribeck&m=0.001&vb=10&mus=5.8889&muk=0.000001\
             &vs=0.000000113853757396062&k=48780276.24400248";
    let mut job = Scenario::parse(q).unwrap().job().unwrap();
    let mut units = 0;
    while !job.done() && units < 20_000 {
        job.advance(&|| 0.0);
        units += 1;
    }
    let e = job.error().expect("the run fails");
    assert!(e.contains("step size underflow"), "{e}");
    for k in [
        "m = 0.001 (default 1)",
        "k = 48780276.24400248 (default 10000)",
        "vs = ",
    ] {
        assert!(e.contains(k), "{k} in {e}");
    }
    // the hint of a stop at the time budget names them before anything is computed
    let job = Scenario::parse("view=stickslip&model=threlfall&v0=1e-9")
        .unwrap()
        .job()
        .unwrap();
    let hint = job.budget_hint();
    assert!(hint.contains("v0 = 0.000000001 (default 0.001)"), "{hint}");
    // nothing changed: the view's usual advice only
    let job = Scenario::parse("view=stickslip&model=lugre")
        .unwrap()
        .job()
        .unwrap();
    assert!(
        job.budget_hint().starts_with("lower tend"),
        "{}",
        job.budget_hint()
    );
}

/// Every end of every slider the page offers is a value its key takes on its own: set alone,
/// it runs or is refused only by a rule with another key's value, which the message names
/// (issue 40 item 5; Bengisu & Akay's μ_k = 0, the end of the shared range, could never run).
#[test]
fn every_range_end_alone_is_legal_on_its_own() {
    use friction_core::job::ViewKind;
    use friction_core::scenario::ControlKind;
    let mut bad = Vec::new();
    let mut ends = 0;
    for v in friction_core::views::ALL {
        let models: Vec<String> = match v.kind {
            ViewKind::Models => friction_core::registry::registry()
                .map(|e| format!("&model={}", e.info.id))
                .collect(),
            ViewKind::Frbd(_) => ["frbd-gm", "frbd-gkv", "frbd-elastic", "frbd-kv"]
                .iter()
                .map(|m| format!("&model={m}"))
                .collect(),
        };
        for m in models {
            let Ok(s) = Scenario::parse(&format!("view={}{m}", v.name)) else {
                continue;
            };
            let base = s.to_query();
            for c in s.controls() {
                // a list's slider moves one entry: the first at its end, the others kept (GMS's
                // fractions ν_i must sum to 1, a rule among one list's entries that a single
                // slider cannot keep; its refusal says so)
                let entries: Vec<&str> = match &c.kind {
                    ControlKind::Number => vec![""],
                    ControlKind::List { .. } if c.key == "nui" => continue,
                    ControlKind::List { .. } => c.value.split(',').collect(),
                    _ => continue,
                };
                for x in [c.min, c.max] {
                    ends += 1;
                    let mut list = entries.clone();
                    let end = format!("{x}");
                    list[0] = &end;
                    let q = format!("{base}&{}={}", c.key, list.join(","));
                    if let Err(errs) = Scenario::parse(&q) {
                        for e in errs.iter().filter(|e| e.others.is_empty()) {
                            bad.push(format!("{q}: {e}"));
                        }
                    }
                }
            }
        }
    }
    assert!(ends > 2000, "{ends} range ends");
    assert!(
        bad.is_empty(),
        "{} ends refused on their own:\n{}",
        bad.len(),
        bad.join("\n")
    );
}
