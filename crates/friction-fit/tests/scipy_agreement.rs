//! Agreement with an independent optimiser: the records in `tests/fixtures/*.csv` were fitted by
//! `bench/fit_scipy.py` (scipy.optimize.least_squares on the same models written again in
//! Python, LuGre integrated by LSODA) from the same start values; its values and standard errors
//! are in `tests/fixtures/scipy_fits.json`. Each fitted value must equal scipy's within 1e-4
//! relative or lie in scipy's 95 % interval, and the standard errors within 5 %.

use friction_fit::{parse, run, FitSpec};
use serde_json::Value;

fn fixture(name: &str) -> String {
    let path = format!("{}/tests/fixtures/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn agree(case: &str, csv: &str, query: &str) {
    let all: Value = serde_json::from_str(&fixture("scipy_fits.json")).expect("json");
    let sp = &all[case];
    let data = parse(&fixture(csv), &[]).expect("record");
    let spec = FitSpec::parse(query, &[]).expect("query");
    let r = run(&spec, &data, &mut |_| true).expect("fit");
    let ssr = sp["ssr"].as_f64().expect("ssr");
    let ours = r.rms * r.rms * r.m as f64;
    println!("{case}: SSR ours {ours} scipy {ssr}");
    for (c, e) in r.estimates.iter().enumerate() {
        assert_eq!(sp["free"][c].as_str(), Some(e.key));
        let v = sp["value"][c].as_f64().expect("value");
        let se = sp["se"][c].as_f64().expect("se");
        let lo = sp["ci95"][c][0].as_f64().expect("ci");
        let hi = sp["ci95"][c][1].as_f64().expect("ci");
        let rel = (e.value - v).abs() / v.abs();
        println!(
            "{case} {}: ours {} scipy {v} (rel {rel:.2e}), se {} vs {se}",
            e.key, e.value, e.se
        );
        assert!(
            rel <= 1e-4 || (lo..=hi).contains(&e.value),
            "{case} {}: {} vs scipy {v} [{lo}, {hi}]",
            e.key,
            e.value
        );
        assert!(
            (e.se - se).abs() <= 0.05 * se,
            "{case} {}: se {} vs scipy {se}",
            e.key,
            e.se
        );
    }
    assert!(
        ours <= ssr * (1.0 + 1e-6),
        "{case}: our SSR {ours} above scipy's {ssr}"
    );
}

#[test]
fn stribeck_law_agrees_with_scipy() {
    agree(
        "stribeck",
        "stribeck.csv",
        "model=stribeck&free=mus,muk,vs,bv",
    );
}

#[test]
fn lugre_agrees_with_scipy() {
    agree(
        "lugre",
        "lugre.csv",
        "model=lugre&free=sigma0,sigma1,muk,mus",
    );
}
