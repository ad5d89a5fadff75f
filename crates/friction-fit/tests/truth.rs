//! Recovery from the defaults: three LuGre records made by an implementation of our own in
//! scipy (`bench/lugre_truth.py`: Radau at rtol 1e-11, 0.5 % noise), with v_S far above, far
//! below and near the model default, are fitted with nothing but `model=lugre`. Every free
//! parameter must come back within 3 % of its true value.

use friction_fit::{read, run, FitSpec};

fn fixture(name: &str) -> String {
    let path = format!("{}/tests/fixtures/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// The true value of `key` in case `case` of `truth.json`.
fn truth(case: &str, key: &str) -> f64 {
    let t: serde_json::Value = serde_json::from_str(&fixture("truth.json")).expect("truth.json");
    t[case][key]
        .as_f64()
        .unwrap_or_else(|| panic!("{case}.{key}"))
}

fn recovers(case: &str) {
    let spec = FitSpec::parse("model=lugre", &[]).expect("query");
    let data = read(&fixture(&format!("truth_{case}.csv")), &spec.read).expect("record");
    let r = run(&spec, &data, &mut |_| true).expect("fit");
    let text = r.text();
    // the usual set: a record at many speeds with a breakaway peak leaves none of it fixed
    let keys: Vec<&str> = r.estimates.iter().map(|e| e.key).collect();
    assert_eq!(
        keys,
        ["mus", "muk", "sigma0", "sigma1", "sigma2", "vs"],
        "{text}"
    );
    for e in &r.estimates {
        let t = truth(case, e.key);
        let err = (e.value - t).abs() / t;
        assert!(
            err < 0.03,
            "case {case}: {} = {} against {t}\n{text}",
            e.key,
            e.value
        );
    }
    assert!(r.poor.is_empty(), "{text}");
}

#[test]
fn lugre_with_vs_far_above_its_default() {
    recovers("a");
}

#[test]
fn lugre_with_vs_far_below_its_default() {
    recovers("b");
}

#[test]
fn lugre_with_the_1995_paper_values() {
    recovers("c");
}
