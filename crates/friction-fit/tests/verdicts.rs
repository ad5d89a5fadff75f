//! Verdicts are true of the data only at a good optimum: a fit that another point or a
//! simpler law beats says so, and blames nothing on the data.

use friction_fit::{read, run, FitSpec, Report};

fn fit(query: &str) -> Report {
    let path = format!("{}/tests/fixtures/truth_a.csv", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).expect("fixture");
    let spec = FitSpec::parse(query, &[]).expect("query");
    let data = read(&text, &spec.read).expect("record");
    run(&spec, &data, &mut |_| true).expect("fit")
}

/// One optimiser run from a start far off (σ0 and σ1 near the top of their ranges, μ's at
/// 10): it stops where a Coulomb–viscous law with an offset fits the same samples better.
#[test]
fn a_poor_optimum_is_called_poor_and_the_data_are_not_blamed() {
    let r =
        fit("model=lugre&guess=0&starts=1&free=mus,muk,sigma0,sigma1&mus=10&muk=9.9&sigma0=1e9");
    let text = r.text();
    assert!(r.r2 < r.baseline_r2, "{text}");
    assert!(!r.poor.is_empty(), "{text}");
    assert!(
        text.contains("the fit stopped at a poor optimum: its R²"),
        "{text}"
    );
    assert!(
        text.contains("of a Coulomb–viscous law with an offset"),
        "{text}"
    );
    assert!(text.contains("try more starts"), "{text}");
    assert!(!text.contains("cannot be determined"), "{text}");
    assert!(!text.contains("the data bound"), "{text}");
    // the JSON says the same, for the page
    assert_eq!(r.json()["poor"], true);
}

/// From the record's own values the same free set fits well: no poor-optimum words, and no
/// parameter flagged.
#[test]
fn the_default_start_of_the_same_fit_is_good() {
    let r = fit("model=lugre&free=mus,muk,sigma0,sigma1&sigma2=3&vs=0.02");
    let text = r.text();
    assert!(r.poor.is_empty(), "{text}");
    assert!(r.r2 > 0.999, "{text}");
    assert!(!text.contains("poor optimum"), "{text}");
    assert!(text.contains(Report::ALL_DETERMINED), "{text}");
}
