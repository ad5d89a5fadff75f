//! Parameter parsing at the edges of f64 (issue "Exact contracts at the edges"): values that
//! underflow or are subnormal, and error messages for huge keys and values.

#![allow(clippy::unwrap_used)]

use friction_core::frbd::spec;
use friction_core::scenario::Scenario;

/// `eps=1e-99999` parsed to 0 and `5e-324` (subnormal) was taken, silently, wherever the range
/// includes 0 (eps, vrel, cv, c0, …); ranges that start above 0 rejected them already.
#[test]
fn underflowing_and_subnormal_values_are_rejected_naming_the_key() {
    for text in ["1e-99999", "5e-324", "-1e-400", "2e-310", "0.0000001e-307"] {
        let e = spec::EPS.parse(text).unwrap_err();
        assert_eq!(e.key, "eps", "{text}");
        assert!(e.to_string().contains("2.2250738585072014e-308"), "{e}");
    }
    for text in [
        "0",
        "-0.0",
        "0e-99999",
        "000.000",
        "2.2250738585072014e-308",
        "1e-300",
    ] {
        assert!(spec::EPS.parse(text).is_ok(), "{text}");
    }
    for q in [
        "eps=1e-99999",
        "view=relaxation&vrel=-1e-400",
        "view=robot&cv=5e-324",
        "model=frbd-kv&c0=4e-320",
        "view=stickslip&model=lugre&sigma2=5e-324",
    ] {
        let errs = Scenario::parse(q).unwrap_err();
        let key = q.rsplit('&').next().unwrap().split('=').next().unwrap();
        assert_eq!(errs[0].key, key, "{q}: {errs:?}");
    }
    // ranges that exclude 0 keep their range message
    let e = spec::K0.parse("1e-99999").unwrap_err();
    assert!(e.to_string().contains("0.001 ≤ k0"), "{e}");
}

/// A 50,000-character key came back whole in the message (and twice for `<id>.<key>` forms):
/// every piece of the query in a message is cut at 64 characters with an ellipsis.
#[test]
fn long_keys_and_values_are_cut_in_messages() {
    let long = "k".repeat(50_000);
    for q in [
        format!("{long}=1"),
        format!("view=curve&model=lugre&{long}.sigma0=1"),
        format!("view=curve&model=lugre&lugre.{long}=2"),
        format!("view=curve&model=lugre,{long}"),
        format!("k0={long}"),
        format!("view={long}"),
    ] {
        let errs = Scenario::parse(&q).unwrap_err();
        for e in &errs {
            let shown = e.to_string();
            assert!(
                shown.chars().count() < 600,
                "{} chars",
                shown.chars().count()
            );
            assert!(shown.contains("kkkk…"), "{shown}");
        }
    }
    // short ones are untouched
    let e = Scenario::parse("vs=abc").unwrap_err();
    assert_eq!(
        e[0].to_string(),
        "vs = \"abc\" is not valid (allowed: 0.000001 ≤ vs ≤ 10)"
    );
}
