//! The `friction-lab` binary end to end: CSV shapes, metrics, SVG, model list, bad input.

#![allow(clippy::unwrap_used)]

use std::process::Command;

fn run(args: &[&str]) -> (i32, String, String) {
    let o = Command::new(env!("CARGO_BIN_EXE_friction-lab"))
        .args(args)
        .output()
        .unwrap();
    (
        o.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

#[test]
fn hysteresis_csv_has_the_final_cycle_of_each_frequency() {
    let (code, out, _) = run(&["v=1&view=hysteresis"]);
    assert_eq!(code, 0);
    let mut lines = out.lines();
    assert_eq!(lines.next(), Some("freq,t,v,F"));
    for f in ["25", "50", "100"] {
        let rows = out
            .lines()
            .filter(|l| l.starts_with(&format!("{f},")))
            .count();
        assert!(rows >= 400, "{f} Hz: {rows} rows");
    }
    for l in lines {
        let cols: Vec<f64> = l.split(',').map(|c| c.parse().unwrap()).collect();
        assert_eq!(cols.len(), 4);
        assert!(cols[3] > 0.9 && cols[3] < 1.5, "{l}");
    }
}

#[test]
fn metrics_show_the_peak_decreasing_with_frequency() {
    let (code, out, _) = run(&["freqs=25,50,100", "--metrics"]);
    assert_eq!(code, 0);
    let rows: Vec<Vec<f64>> = out
        .lines()
        .skip(1)
        .map(|l| l.split(',').map(|c| c.parse().unwrap()).collect())
        .collect();
    assert_eq!(out.lines().next(), Some("freq,fmax,fmin,area,energy"));
    assert_eq!(rows.len(), 3);
    assert!(rows[0][1] > rows[1][1] && rows[1][1] > rows[2][1]);
}

#[test]
fn relaxation_csv_and_svg() {
    let svg = std::env::temp_dir().join(format!("frbd-relax-{}.svg", std::process::id()));
    let (code, out, err) = run(&["view=relaxation&tend=5", "--svg", svg.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out.lines().next(), Some("t,F_n1,F_n2,F_n3"));
    assert!(out.lines().count() > 400);
    let text = std::fs::read_to_string(&svg).unwrap();
    assert!(text.contains("time t [s]") && text.contains("n = 3"));
    let _ = std::fs::remove_file(svg);
    let (_, out, _) = run(&["view=relaxation&model=frbd-elastic&tend=1"]);
    assert_eq!(out.lines().next(), Some("t,F"));
}

#[test]
fn bad_input_exits_2_naming_key_value_and_range() {
    let (code, out, err) = run(&["k0=-5&vs=x"]);
    assert_eq!(code, 2);
    assert!(out.is_empty());
    assert!(
        err.contains("k0") && err.contains("-5") && err.contains("≤ k0 ≤"),
        "{err}"
    );
    assert!(err.contains("vs"), "{err}");
    assert_eq!(run(&[]).0, 2);
    assert_eq!(run(&["--nope"]).0, 2);
    assert_eq!(run(&["a=1", "b=2"]).0, 2);
}

#[test]
fn list_models_reads_the_registry() {
    let (code, out, _) = run(&["--list-models"]);
    assert_eq!(code, 0);
    assert!(out.lines().any(|l| l == "frbd-gm\tfrbd"));
    assert!(out.lines().any(|l| l == "frbd-kv\tfrbd\tprovisional"));
    assert_eq!(run(&["--help"]).0, 0);
}

#[test]
fn curve_view_runs_registry_models() {
    let (code, out, err) = run(&["view=curve&model=frbd-gm,frbd-kv&vmax=0.02"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out.lines().next(), Some("model,v,F"));
    assert!(out.lines().any(|l| l.starts_with("frbd-kv,")));
    // the view's number of points is `npts` (`n` is a model key: FrBD order, bristle count)
    let (code, out, err) = run(&["view=curve&npts=11&model=frbd-elastic"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out.lines().count(), 12);
    let (code, _, err) = run(&["view=curve&tau=1"]);
    assert_eq!(code, 2);
    assert!(err.contains("tau"), "{err}");
}

#[test]
fn phenomena_of_a_query_say_which_values_they_ignore() {
    let (code, out, err) = run(&[
        "view=curve&model=lugre,bristle&bristle.sigma0=1e5&vmax=0.2",
        "--phenomena",
    ]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out.lines().count(), 3, "{out}");
    assert!(err.contains("ignoring vmax, bristle.sigma0"), "{err}");
    let (_, _, err) = run(&["view=curve&model=lugre", "--phenomena"]);
    assert!(!err.contains("ignoring"), "{err}");
}

/// Issue 18: a legal link that computes for minutes (a bristle model snapping through every
/// point of a curve) stops at the 5 s budget with what it computed and what to lower; exit 2.
#[test]
fn a_long_run_stops_at_the_budget_with_what_to_change() {
    let (code, out, err) = run(&["view=explorer&model=bristle&mus=0.3"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("budget") && err.contains("npts"), "{err}");
    assert!(err.contains("--no-budget"), "{err}");
    assert!(out.starts_with("v,F\n"), "{out}");
    let (code, out, err) = run(&["view=curve&model=lugre&npts=3", "--no-budget"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out.lines().count(), 4);
    assert!(run(&["--help"]).1.contains("--no-budget"));
}
