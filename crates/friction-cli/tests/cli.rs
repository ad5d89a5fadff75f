//! The `friction-lab` binary end to end: CSV shapes, metrics, SVG, model list, bad input.

#![allow(clippy::unwrap_used)]

mod common;
use common::run;

use std::process::Command;

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

/// Issue 39: a run goes to its end unless its caller gives `--budget SECONDS`. A legal link that
/// computes for minutes (50 snapping bristles averaged at each of 20,001 velocities) with
/// `--budget 1` stops with what it computed, what to lower and exit 2; stderr, a pipe here, gets
/// no progress line.
#[test]
fn a_budgeted_heavy_run_stops_with_its_partial_output_and_exit_2() {
    let (code, out, err) = run(&[
        "view=explorer&model=bristle&n=50&npts=20001",
        "--budget",
        "1",
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("--budget 1 s") && err.contains("npts"),
        "{err}"
    );
    assert!(
        err.contains("the output above is what was computed"),
        "{err}"
    );
    assert!(
        !err.contains("computing…") && !err.contains('\r'),
        "{err:?}"
    );
    // the partial output: the header and the velocities done, not all 20,001
    assert!(out.starts_with("v,F\n"), "{out}");
    let rows = out.lines().count() - 1;
    assert!(rows < 20_001, "{rows} rows");
    for l in out.lines().skip(1) {
        let cols: Vec<f64> = l.split(',').map(|c| c.parse().unwrap()).collect();
        assert!(cols.len() == 2 && cols.iter().all(|c| c.is_finite()), "{l}");
    }
    // four models, the last the heavy one: the finished curves are printed, then its part
    let (code, out, err) = run(&[
        "view=curve&model=lugre,dahl,gms,bristle&npts=20001&n=50",
        "--budget=1",
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(out.starts_with("model,v,F\n"), "{out}");
    assert!(out.lines().any(|l| l.starts_with("lugre,")), "{err}");
    // one run in progress (1000 GMS elements): its series so far
    let (code, out, err) = run(&["view=presliding&model=gms&n=1000", "--budget", "1"]);
    assert_eq!(code, 2, "{err}");
    assert!(out.starts_with("t_s,u_N,x_m,v_m_per_s,F_N\n"), "{out}");
    assert!(out.lines().count() > 3, "{out}");
}

/// Without `--budget` nothing stops a run (`--no-budget`, the old switch, changes nothing), and
/// a bad budget is refused naming the option.
#[test]
fn without_a_budget_a_run_goes_to_its_end() {
    let (code, out, err) = run(&["view=curve&model=lugre&npts=3"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out.lines().count(), 4);
    let (code, out2, err) = run(&["view=curve&model=lugre&npts=3", "--no-budget"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out2, out);
    let (code, out2, err) = run(&["--budget", "30", "view=curve&model=lugre&npts=3"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out2, out);
    for bad in ["0", "-1", "x", "inf", "NaN", "1e99"] {
        let (code, out, err) = run(&["view=curve&model=lugre&npts=3", "--budget", bad]);
        assert_eq!(code, 2, "--budget {bad}: {err}");
        assert!(out.is_empty());
        assert!(err.contains(&format!("--budget \"{bad}\"")), "{err}");
    }
    let (code, _, err) = run(&["view=curve", "--budget"]);
    assert_eq!(code, 2);
    assert!(err.contains("--budget needs a number of seconds"), "{err}");
    // the phenomena matrix is no job cut into units: it says it runs unbudgeted
    let (code, _, err) = run(&["view=curve&model=lugre", "--phenomena", "--budget", "1"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains("--budget does not apply to --phenomena"),
        "{err}"
    );
    let help = run(&["--help"]).1;
    assert!(help.contains("--budget SECONDS"), "{help}");
}

/// `--help` reads on a 100-column terminal: no line of it wraps.
#[test]
fn help_lines_fit_100_columns() {
    let help = run(&["--help"]).1;
    for l in help.lines() {
        assert!(
            l.chars().count() <= 100,
            "{} columns: {l}",
            l.chars().count()
        );
    }
}

/// On a terminal a long run keeps a progress line on stderr, wiped before the run's own
/// messages. A terminal is faked with util-linux `script` (skipped where it is missing).
#[test]
fn a_long_run_on_a_terminal_shows_progress() {
    let bin = env!("CARGO_BIN_EXE_friction-lab");
    let cmd = format!(
        "{bin} 'view=explorer&model=bristle&n=50&npts=20001' --budget 2 >/dev/null; echo \"rc=$?\""
    );
    let Ok(o) = Command::new("script")
        .args(["-q", "-e", "-c", &cmd, "/dev/null"])
        .stdin(std::process::Stdio::null())
        .output()
    else {
        println!("skipped: no `script` (util-linux) to fake a terminal");
        return;
    };
    let tty = String::from_utf8_lossy(&o.stdout);
    assert!(tty.contains("rc=2"), "{tty:?}");
    assert!(
        tty.contains("\rfriction-lab: computing… 0 of 1 done · "),
        "{tty:?}"
    );
    // the line is wiped (spaces, carriage return) before the message that ends the run
    let msg = tty.find("friction-lab: stopped after").unwrap();
    assert!(tty[..msg].ends_with(&format!("\r{:60}\r", "")), "{tty:?}");
}

/// Issue 39, item 3: each class of refusal names its key on the CLI's stderr (the core's
/// `link_order.rs` checks the errors themselves): a key with a control character (shown
/// %-escaped, never raw), a duplicate key, several bad keys at once (every one listed), and
/// legal values the solver cannot run (the values changed from their defaults, named).
#[test]
fn every_class_of_refusal_names_its_key_on_stderr() {
    let (code, out, err) = run(&["vs%0D=1"]);
    assert_eq!(code, 2, "{err}");
    assert!(out.is_empty());
    assert!(err.contains("friction-lab: vs%0D = \"1\""), "{err:?}");
    assert!(
        err.contains("did you mean vs?") && !err.contains('\r'),
        "{err:?}"
    );

    let (code, _, err) = run(&["view=curve&vmin=-1&vmin=-2"]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("vmin = \"-2\"") && err.contains("given more than once"),
        "{err}"
    );

    let (code, _, err) = run(&["view=curve&model=lugre&bogus=1&npts=1e9&muk=0.5&fmax%0C=3"]);
    assert_eq!(code, 2, "{err}");
    for key in ["bogus = ", "npts = ", "muk = ", "fmax%0C = "] {
        assert!(
            err.lines()
                .any(|l| l.trim_start_matches("friction-lab: ").starts_with(key)),
            "{key} in {err}"
        );
    }

    // legal on their own and together, but too stiff for the solver: the message names them
    let (code, _, err) = run(&[
        "view=stickslip&model=modified-stribeck&m=0.001&vb=10&mus=5.8889&muk=0.000001\
         &vs=0.000000113853757396062&k=48780276.24400248",
    ]);
    assert_eq!(code, 2, "{err}");
    for v in [
        "m = 0.001 (default 1)",
        "k = 48780276.24400248",
        "vs = 0.000000113853757396062",
    ] {
        assert!(err.contains(v), "{v} in {err}");
    }
}
