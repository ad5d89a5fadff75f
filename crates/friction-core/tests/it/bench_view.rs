//! The stick-slip view through the real scenario schema (unit tests see only test views).

#![allow(clippy::unwrap_used, clippy::expect_used)]

use friction_core::experiments::stickslip::Bench;
use friction_core::job::{BuiltModel, Inputs};
use friction_core::params::ParamError;
use friction_core::scenario::Scenario;

/// What the stick-slip view's job is built from: the benchmark and the models built once.
fn from_scenario(s: &Scenario) -> Result<(Bench, Vec<BuiltModel>), ParamError> {
    Ok((Bench::from_values(&s.view_values())?, s.build_models()?))
}

#[test]
fn scenario_models_get_the_view_coefficients_and_m_g() {
    let s = Scenario::parse("view=stickslip&model=coulomb,karnopp&m=2&muk=0.2").expect("valid");
    let (b, models) = from_scenario(&s).expect("builds");
    assert_eq!(b.normal_force(), 2.0 * 9.81);
    // Coulomb while sliding: F = μ_k F_N, with μ_k and F_N from the view
    let f = models[0].1.force(1.0, 0.0, &[]);
    assert!((f - 0.2 * 2.0 * 9.81).abs() < 1e-12, "{f}");
    let vals = s.model_values_derived(models[1].0, &[("fn", b.normal_force())]);
    let key = |k: &str| {
        let i = models[1]
            .0
            .info
            .params
            .iter()
            .position(|p| p.key == k)
            .expect("key");
        vals[i]
    };
    assert_eq!(key("mus"), 0.15, "the view's default μ_s, not the model's");
    assert_eq!(key("muk"), 0.2);
    assert_eq!(key("fn"), 2.0 * 9.81);
    assert!(
        Scenario::parse("view=stickslip&fn=3").is_err(),
        "fn is derived"
    );
}

/// The CSV of a query's job run to its end in one go.
fn csv_of_whole_run(q: &str) -> String {
    let mut job = Scenario::parse(q).unwrap().job().unwrap();
    while !job.done() {
        job.advance(&|| 0.0);
    }
    job.csv(false)
}

/// A job held at the caller's budget shows the run in progress (plot, read-out, CSV) up to
/// where it got, and going on gives the same finished result as a job never held.
#[test]
fn a_held_job_shows_its_run_in_progress_and_goes_on_unchanged() {
    let q = "view=stickslip&model=dahl,lugre&kspring=1e5&tend=30";
    let clock = || 0.0;
    let whole = csv_of_whole_run(q);
    let mut job = Scenario::parse(q).unwrap().job().unwrap();
    job.advance(&clock);
    assert!(!job.done());
    assert!(
        matches!(job.output(), friction_core::job::Output::Empty),
        "no run finished yet"
    );
    job.hold(true);
    let held = job.csv(false);
    let rows = held.lines().count() - 1;
    assert!(rows >= 2, "the run in progress is shown ({rows} rows)");
    assert!(
        whole.starts_with(&held[..held.len() / 2]),
        "the held part is the start of the run"
    );
    assert_eq!(job.readout().rows.len(), 1, "its metrics so far");
    assert!(!matches!(job.output(), friction_core::job::Output::Empty));
    job.hold(false);
    assert!(matches!(job.output(), friction_core::job::Output::Empty));
    while !job.done() {
        job.advance(&clock);
    }
    assert_eq!(job.csv(false), whole, "holding changed nothing");
}

/// The robot view's single run is shown in progress while held, the same way, and goes on
/// unchanged.
#[test]
fn a_held_robot_job_shows_its_run_in_progress() {
    let q = "view=robot&tend=20";
    let clock = || 0.0;
    let whole = csv_of_whole_run(q);
    let mut job = Scenario::parse(q).unwrap().job().unwrap();
    job.advance(&clock);
    assert!(!job.done());
    assert!(job.csv(false).is_empty());
    job.hold(true);
    let held = job.csv(false);
    assert!(held.lines().count() > 2);
    assert!(
        whole.starts_with(&held),
        "the held part is the start of the run"
    );
    job.hold(false);
    assert!(job.csv(false).is_empty());
    while !job.done() {
        job.advance(&clock);
    }
    assert_eq!(job.csv(false), whole, "holding changed nothing");
}

/// The pre-sliding view's run in progress is shown while held, too (issue 39: the CLI's
/// `--budget` stop printed only the header), and going on gives the unheld result.
#[test]
fn a_held_presliding_job_shows_its_run_in_progress() {
    let q = "view=presliding&model=gms&n=200";
    let clock = || 0.0;
    let whole = csv_of_whole_run(q);
    let mut job = Scenario::parse(q).unwrap().job().unwrap();
    job.advance(&clock);
    assert!(!job.done());
    assert_eq!(job.csv(false).lines().count(), 1, "no run finished yet");
    job.hold(true);
    let held = job.csv(false);
    let rows = held.lines().count() - 1;
    assert!(rows >= 2, "the run in progress is shown ({rows} rows)");
    assert!(
        whole.starts_with(&held),
        "the held part is the start of the run"
    );
    assert_eq!(job.readout().rows.len(), 1, "its metrics so far");
    assert!(!matches!(job.output(), friction_core::job::Output::Empty));
    job.hold(false);
    assert!(matches!(job.output(), friction_core::job::Output::Empty));
    while !job.done() {
        job.advance(&clock);
    }
    assert_eq!(job.csv(false), whole, "holding changed nothing");
}
