//! Several starting points (`starts` > 1) begin with a coarse pre-search
//! (`friction_fit::starts`): GMS fitted from its defaults leaves the μ_s = μ_k corner it ends
//! in from one start.

use friction_fit::{run, ExampleSpec, FitError, FitSpec};

/// GMS from its defaults (σ0 = 1e5, μ_k = 0.1, μ_s = 0.15) on data with σ0 = 5e4,
/// μ_k = 0.12, μ_s = 0.2: one start ends at μ_s = μ_k with R² ≈ 0.84; two starts (the given
/// one and the pre-search's best) find the truth inside the intervals.
#[test]
fn gms_from_its_defaults_finds_the_truth_with_two_starts() {
    let mut misses = Vec::new();
    for seed in 1..=3 {
        let ex = ExampleSpec::parse(&format!(
            "model=gms&sigma0=5e4&muk=0.12&mus=0.2&noise=0.01&seed={seed}"
        ))
        .expect("example");
        let (data, _) = ex.generate().expect("data");
        let one = FitSpec::parse("model=gms&free=sigma0,muk,mus", &[]).expect("query");
        let r1 = run(&one, &data, &mut |_| true).expect("fit");
        assert!(r1.r2 < 0.9, "one start left the corner:\n{}", r1.text());
        let mus = r1.estimates.iter().find(|e| e.key == "mus").expect("mus");
        let muk = r1.estimates.iter().find(|e| e.key == "muk").expect("muk");
        assert!((mus.value - muk.value).abs() < 1e-3, "{}", r1.text());

        let two = FitSpec::parse("model=gms&free=sigma0,muk,mus&starts=2", &[]).expect("query");
        let r2 = run(&two, &data, &mut |_| true).expect("fit");
        assert!(r2.r2 > 0.999, "seed {seed}\n{}", r2.text());
        for e in &r2.estimates {
            let i = ex
                .entry
                .info
                .params
                .iter()
                .position(|p| p.key == e.key)
                .expect("key");
            let truth = ex.values[i];
            if !(e.ci.0 <= truth && truth <= e.ci.1) {
                misses.push(format!("seed {seed}: {} {:?}, truth {truth}", e.key, e.ci));
            }
        }
    }
    assert!(misses.len() <= 1, "{}", misses.join("\n"));
}

/// More starts never end worse than the given start alone: its result is among them.
#[test]
fn more_starts_are_never_worse() {
    let ex = ExampleSpec::parse("model=lugre&sigma0=5e4&sigma1=200&muk=0.12&mus=0.2&seed=2")
        .expect("example");
    let (data, _) = ex.generate().expect("data");
    let q = "model=lugre&free=sigma0,sigma1,muk,mus";
    let r1 = run(&FitSpec::parse(q, &[]).expect("q"), &data, &mut |_| true).expect("fit");
    let r3 = run(
        &FitSpec::parse(&format!("{q}&starts=3"), &[]).expect("q"),
        &data,
        &mut |_| true,
    )
    .expect("fit");
    assert!(r3.rms <= r1.rms, "{} > {}", r3.rms, r1.rms);
    assert!(r3.runs > r1.runs);
}

/// Cancel during the pre-search stops the fit.
#[test]
fn the_pre_search_can_be_cancelled() {
    // (not GMS: its element count is also called n)
    let (data, _) = ExampleSpec::parse("model=lugre&n=100")
        .expect("example")
        .generate()
        .expect("data");
    let spec = FitSpec::parse("model=lugre&free=sigma0,muk,mus&starts=3", &[]).expect("q");
    let mut calls = 0;
    let r = run(&spec, &data, &mut |p| {
        calls += 1;
        assert_eq!(p.start, 0, "still in the pre-search");
        calls < 10
    });
    assert_eq!(r.expect_err("cancelled"), FitError::Cancelled);
    assert_eq!(calls, 10);
}
