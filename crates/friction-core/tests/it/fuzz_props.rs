//! Property suite of issue 18 ("no link may freeze a tab or hang the CLI"), with cases generated
//! from the core's own schema (`fuzzgen`): hostile strings never panic the parsers, random legal
//! queries of every view and model give finite numbers (or a message) with units of work that
//! stay small, and the links that froze the page are cut into bounded units.
//!
//! Kept short (a few seconds): small case counts and a cap on `advance` calls. The long run is
//! `cargo run --release -p friction-cli --example fuzz -- 100000`.

use crate::fuzzgen;

use friction_core::job::Job;
use friction_core::scenario::Scenario;
use fuzzgen::{hostile_query, legal_query, non_finite, run_query, Rng};
use proptest::prelude::*;

/// Data rows of a job's CSV (its header left out).
fn rows(job: &dyn Job) -> usize {
    job.csv(false).lines().count().saturating_sub(1)
}

fn parse_everything(q: &str) {
    let (mut s, _) = Scenario::parse_lenient(q);
    let _ = Scenario::parse(q);
    let _ = s.set(q, q);
    for key in [
        "view",
        "model",
        "npts",
        "freqs",
        "k",
        "tend",
        "vmin",
        "lugre.sigma0",
    ] {
        let _ = s.set(key, q);
    }
    let _ = s.to_query();
    let _ = s.controls();
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn arbitrary_text_never_panics_the_parsers(q in ".{0,200}") {
        parse_everything(&q);
    }

    #[test]
    fn arbitrary_bytes_never_panic_the_parsers(b in prop::collection::vec(any::<u8>(), 0..300)) {
        parse_everything(&String::from_utf8_lossy(&b));
    }

    #[test]
    fn hostile_queries_never_panic_the_parsers(seed in any::<u64>()) {
        parse_everything(&hostile_query(&mut Rng::new(seed)));
    }
}

#[test]
fn extreme_strings_are_refused_with_a_message() {
    let long_key = "k".repeat(50_000);
    for q in [
        format!("{long_key}=1"),
        format!("view=curve&{long_key}=1&{long_key}=2"),
        "view=curve&npts=1e-99999".to_string(),
        "view=curve&npts=1e99999".to_string(),
        "view=curve&vmin=-1e308&vmax=1e308".to_string(),
        "view=curve&npts=3&npts=5&npts=7".to_string(),
        "view=%76iew&model=%zz%&%%%=%00".to_string(),
        "freqs=".to_string() + &"1,".repeat(20_000),
    ] {
        parse_everything(&q);
        assert!(Scenario::parse(&q).is_err(), "{:.80}", q);
    }
    // a lenient parse still gives a runnable scenario
    let (s, errs) = Scenario::parse_lenient(&format!("view=curve&{long_key}=1"));
    assert_eq!(errs.len(), 1);
    assert!(errs[0].value.len() <= 200 || errs[0].key.len() <= 50_000);
    assert!(s.job().is_ok());
}

proptest! {
    // each case runs at most 6 units: the suite stays at a few seconds
    #![proptest_config(ProptestConfig::with_cases(40))]

    #[test]
    fn legal_queries_give_finite_numbers_or_a_message(seed in any::<u64>()) {
        let q = legal_query(&mut Rng::new(seed));
        if let Some(o) = run_query(&q, 6, |_| {}) {
            prop_assert!(o.non_finite.is_none(), "{q}: {:?}", o.non_finite);
        }
    }
}

/// The links of the issue that blocked the page for seconds (one curve, or one relaxation
/// curve, was one unit of work): every unit now computes a few points. Before the fix the first
/// unit returned the whole curve (801 rows).
#[test]
fn links_that_froze_the_page_are_cut_into_small_units() {
    for q in [
        "view=explorer&model=bristle&mus=0.3",
        "view=curve&model=bristle&n=1",
        "view=curve&model=dahl&vmin=-100&sigma0=3230181302",
        "view=curve&model=gms&npts=20001",
        "view=curve&model=reset-integrator&vmin=-100",
        "view=curve&model=wojewoda&vmin=-100",
        "view=curve&model=lugre,dahl,gms,bristle&npts=20001",
    ] {
        let mut job = Scenario::parse(q).expect(q).job().expect(q);
        let mut before = 0;
        for _ in 0..3 {
            job.advance(&|| 0.0);
            let now = rows(job.as_ref());
            assert!(
                now - before <= 4,
                "{q}: a unit computed {} points",
                now - before
            );
            assert!(!job.done(), "{q}: the whole curve in 3 units");
            before = now;
        }
        assert!(non_finite(&job.csv(false)).is_none(), "{q}");
        assert!(!job.budget_hint().is_empty());
    }
}

/// A static law's curve is evaluated in one unit (cheap), and a curve cut into units is the same
/// curve as run at once.
#[test]
fn a_curve_cut_into_units_is_the_curve_of_run_one() {
    use friction_core::experiments::curve;
    for q in [
        "view=curve&model=lugre&npts=41",
        "view=curve&model=coulomb&npts=41",
        "view=curve&model=sv&sweep=1&npts=41",
        "view=curve&model=dahl,maxwell&npts=31&vmin=-0.5&vmax=2",
    ] {
        let s = Scenario::parse(q).unwrap();
        let mut job = s.job().unwrap();
        while !job.done() {
            job.advance(&|| 0.0);
        }
        let models = s.build_models().unwrap();
        let vals = s
            .view()
            .params
            .iter()
            .map(|p| s.view_value(p.key).unwrap_or(p.default));
        let vals: Vec<f64> = vals.collect();
        let ms: Vec<_> = models.into_iter().map(|(_, m)| m).collect();
        assert_eq!(
            job.csv(false),
            curve::run(&vals, &ms).unwrap().to_csv(),
            "{q}"
        );
    }
}

/// A relaxation curve of up to 400,000 solver steps is cut into units of 20,000.
#[test]
fn a_long_relaxation_curve_takes_several_units() {
    let q = "view=relaxation&model=frbd-gkv&k0=1e9&vrel=10&tend=1e4";
    let mut job = Scenario::parse(q).unwrap().job().unwrap();
    job.advance(&|| 0.0);
    assert_eq!(job.progress().0, 0, "a whole curve in one unit");
    let mut units = 1;
    while !job.done() {
        job.advance(&|| 0.0);
        units += 1;
        assert!(units < 1000);
    }
    assert!(non_finite(&job.csv(false)).is_none());
}
