//! The statistics of the report: interval coverage over noisy replicas, and the
//! identifiability verdict on σ1 with and without slow velocity reversals.

use friction_fit::{run, ExampleSpec, FitSpec};

/// Over 200 replicas of one LuGre record (1 % noise, seeds 1..=200, 120 samples to keep it
/// quick) the 95 % intervals must cover the truth 90–99 % of the time, per parameter.
#[test]
fn lugre_intervals_cover_the_truth_about_95_percent() {
    let truth_q = "model=lugre&sigma0=5e4&sigma1=200&muk=0.12&mus=0.2&n=120";
    // start at the truth: coverage is about the intervals, not the optimiser's search
    let spec = FitSpec::parse(&format!("{truth_q}&free=sigma0,sigma1,muk,mus"), &["n"])
        .expect("fit query");
    let keys = ["sigma0", "sigma1", "muk", "mus"];
    let mut covered = [0usize; 4];
    let n = 200;
    for seed in 1..=n {
        let ex = ExampleSpec::parse(&format!("{truth_q}&noise=0.01&seed={seed}")).expect("example");
        let (data, _) = ex.generate().expect("data");
        let r = run(&spec, &data, &mut |_| true).expect("fit");
        for (c, key) in keys.iter().enumerate() {
            let e = &r.estimates[c];
            assert_eq!(e.key, *key);
            let i = ex
                .entry
                .info
                .params
                .iter()
                .position(|p| p.key == *key)
                .expect("key");
            if e.ci.0 <= ex.values[i] && ex.values[i] <= e.ci.1 {
                covered[c] += 1;
            }
        }
    }
    for (c, key) in keys.iter().enumerate() {
        let rate = covered[c] as f64 / n as f64;
        assert!((0.90..=0.99).contains(&rate), "{key}: coverage {rate}");
    }
}

/// A record whose velocity never reverses (v = 0.02 ± 0.01 m/s, the start-up transient left
/// out by `tskip`) cannot determine σ1: the verdict says so in words. The same model under a
/// reversing velocity determines it: no verdict on σ1.
#[test]
fn sigma1_is_flagged_only_without_slow_reversals() {
    let truth = "model=lugre&sigma0=5e4&sigma1=200&muk=0.12&mus=0.2&noise=0.01&seed=9";
    let fit = "model=lugre&free=sigma0,sigma1,muk&sigma0=5e4&mus=0.2&tskip=0.1";
    let spec = FitSpec::parse(fit, &[]).expect("fit query");
    let one_way = ExampleSpec::parse(&format!("{truth}&vmean=0.02&vamp=0.01"))
        .expect("example")
        .generate()
        .expect("data")
        .0;
    let r = run(&spec, &one_way, &mut |_| true).expect("fit");
    assert!(r.flagged("sigma1"), "{}", r.text());
    let words = r.estimates[1].verdicts.join(" ");
    assert!(
        words.contains("σ_1 cannot be determined from this data"),
        "{words}"
    );
    assert!(words.contains("never reverses"), "{words}");

    let reversing = ExampleSpec::parse(truth)
        .expect("example")
        .generate()
        .expect("data")
        .0;
    let r = run(&spec, &reversing, &mut |_| true).expect("fit");
    assert!(!r.flagged("sigma1"), "{}", r.text());
}
