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

/// Runs the CLI with stdout and stderr sent to files opened for writing (e.g. /dev/full).
fn run_to(args: &[&std::ffi::OsStr], stdout: &str, stderr: &str) -> (Option<i32>, String) {
    let open = |p: &str| std::fs::OpenOptions::new().write(true).open(p).unwrap();
    let o = Command::new(env!("CARGO_BIN_EXE_friction-lab"))
        .args(args)
        .stdout(open(stdout))
        .stderr(open(stderr))
        .output()
        .unwrap();
    (
        o.status.code(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

/// `2>/dev/full` made std's `eprintln!` panic (the release build aborted with SIGABRT) as soon
/// as a note was printed; an error message that cannot be written must not panic either.
#[test]
fn a_full_stderr_ends_with_status_1_not_a_panic() {
    use std::ffi::OsStr;
    // leuven is provisional: the CLI prints a note first
    let q = OsStr::new("view=stickslip&model=leuven&tend=1");
    assert_eq!(run_to(&[q], "/dev/null", "/dev/full").0, Some(1));
    // both streams full: the I/O error cannot be reported either
    assert_eq!(run_to(&[q], "/dev/full", "/dev/full").0, Some(1));
    // bad input still exits 2 when its message cannot be written
    assert_eq!(
        run_to(&[OsStr::new("k0=-1")], "/dev/null", "/dev/full").0,
        Some(2)
    );
    // and a run with nothing to say on stderr is unaffected
    let list = OsStr::new("--list-models");
    assert_eq!(run_to(&[list], "/dev/null", "/dev/full").0, Some(0));
}

/// Issue 18: a non-UTF-8 argument made `std::env::args` panic.
#[test]
fn a_non_utf8_argument_is_an_error_with_status_2() {
    use std::os::unix::ffi::OsStrExt;
    let arg = std::ffi::OsStr::from_bytes(b"view=hysteresis&k0=1\xff");
    let o = Command::new(env!("CARGO_BIN_EXE_friction-lab"))
        .arg(arg)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    let err2 = String::from_utf8_lossy(&o.stderr);
    assert!(err2.contains("UTF-8") && err2.contains("k0=1"), "{err2}");
    assert!(!err2.contains("panicked"), "{err2}");
}

/// An unknown option is echoed cut at 64 characters, like a query key.
#[test]
fn a_huge_unknown_option_is_cut_in_the_message() {
    let opt = format!("--{}", "x".repeat(50_000));
    let (code, _, err) = run(&[&opt]);
    assert_eq!(code, 2);
    assert!(
        err.len() < 300 && err.contains("xxx…"),
        "{} bytes",
        err.len()
    );
    let (_, _, err) = run(&["--nope"]);
    assert!(err.contains("unknown option --nope\n"), "{err}");
}

/// Issue 18: a legal link that computes for minutes (50 snapping bristles averaged at each of
/// 20,001 velocities) stops at the 5 s budget with what it computed and what to lower; exit 2.
#[test]
fn a_long_run_stops_at_the_budget_with_what_to_change() {
    let (code, out, err) = run(&["view=explorer&model=bristle&n=50&npts=20001"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("budget") && err.contains("npts"), "{err}");
    assert!(err.contains("--no-budget"), "{err}");
    assert!(out.starts_with("v,F\n"), "{out}");
    let (code, out, err) = run(&["view=curve&model=lugre&npts=3", "--no-budget"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out.lines().count(), 4);
    assert!(run(&["--help"]).1.contains("--no-budget"));
}
