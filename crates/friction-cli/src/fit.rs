//! `friction-lab fit`: fits a model to a record (or to generated example data) and prints the
//! report as text or JSON, or the data with the fit and residuals as CSV.
//!
//! ```text
//! friction-lab fit DATA.csv 'model=lugre' [--json | --csv] [--budget SECONDS]
//! friction-lab fit --example 'model=lugre&sigma0=5e4&noise=0.01&seed=1'
//! friction-lab fit --example 'EXAMPLE' 'FIT' [--json | --csv]
//! friction-lab fit --help
//! ```
//! The user asked for the fit, so it runs to its end (a progress line on stderr when stderr is
//! a terminal; Ctrl-C stops it); `--budget SECONDS` stops it there with exit status 2, as bad
//! input does.

use std::io::{IsTerminal, Write};
use std::time::{Duration, Instant};

use friction_fit::{ExampleSpec, FitError, FitSpec};

use crate::Failure;

/// Usage of the `fit` command (part of `--help`).
pub const USAGE: &str = "       friction-lab fit DATA 'FIT' [--json | --csv] [--budget SECONDS]
       friction-lab fit --example 'EXAMPLE' ['FIT' [--json | --csv]]
       friction-lab fit --help

fit         fits a model to a record and prints values, standard errors, 95 % intervals,
            correlations, R² (also on a held-out part), and verdicts on what the record can
            determine; friction-lab fit --help explains the FIT keys and the record format
--example   generates a record from a model with known values (EXAMPLE keys: model=ID&KEY=…,
            n, tend, vmean, vamp, freq, noise, seed, nvar, nfreq), printed as CSV or fitted
";

/// `friction-lab fit --help`.
pub const HELP: &str = "\
usage: friction-lab fit DATA 'FIT' [--json | --csv] [--budget SECONDS]
       friction-lab fit --example 'EXAMPLE' ['FIT' [--json | --csv]]

DATA is a CSV, TSV, ;- or space-separated file with a header. Its columns are found by name:
time (t, time, Time [s], t_s), displacement or angle (x, position, q, q_rad), velocity (v,
velocity, dq, dq_rad_s), friction force or torque (F, force, friction, tau, tau_f_Nm), normal
load (N, normal, load, fn) and weights (w); name them yourself with cols= when a guess is
wrong. Units come from the header (F [uN], v (mm/s), x_m, tau_f_Nm: s ms µs, m cm mm µm nm rad
mrad deg, m/s mm/s rad/s deg/s rpm, N mN kN µN N·m) or from units=; without one, SI. A file
needs t, F and v or x. Given x only, the models are driven by x (through a cubic spline); a
quantised x (an encoder) is smoothed first, with a width chosen from the data. A column N
drives the model's normal load (fn, FrBD's p); the rows at the start and end where N is below
90 % of its median (the load being applied and taken off) are left out unless tmin/tmax say
otherwise.

FIT is a query string:
  model=ID          the model (friction-lab --list-models)
  free=K1,K2,…      the parameters to fit; without it, the model's usual set cut to what the
                    record can show (a viscous term needs several speeds, μ_s > μ_k needs a
                    breakaway peak or several speeds), with the offset when the two directions'
                    forces are not symmetric; the report says what was fixed and why
  KEY=VALUE         a fixed value, or the start value of a free parameter (start values are
                    otherwise read off the record: force levels, stiffness, speeds)
  offset=F0         a constant force added to the model's (free it with free=…,offset)
  lo.KEY= hi.KEY=   tighter bounds for a free parameter, inside its range
  tie=A:B           parameter A follows B (tie=mus:muk: no Stribeck drop)
  starts=N          optimiser runs from N starts (default 3: the record's values and the best
                    points of a search around them); guess=0 starts from the model defaults
  tskip=SECONDS     start-up transient left out of the residuals
  holdout=FRACTION  the last part of the record in time (e.g. 0.3) is not fitted; the report
                    gives its RMS and R² beside the fitted part's
  cols=t:Time,x:Position,F:4   columns by header name or number
  units=F:uN,x:mm   units of columns (over the header's)
  flip=F            flip the sign of x, v or F (the models' F has the sign of v)
  tmin= tmax=       keep only this time window [s]
  smooth=auto|0|W   smoothing of a quantised x: automatic, off, or half-width W [s]

Output: the report (--json: the same as JSON; --csv: t,x,v,F,F_fit,residual and N when a
column N gave the load). The fit runs to its end, with a progress line on stderr when stderr
is a terminal (Ctrl-C stops it); --budget SECONDS stops it after that long with exit status 2.
The report's last lines are a link that opens the fitted model in the views, and the FIT query
that gives this fit again.

Example: friction-lab fit rig.csv 'model=lugre&holdout=0.3'
";

/// Runs `fit` with its arguments (after the word `fit`).
pub fn run(args: &[String], out: &mut dyn Write) -> Result<(), Failure> {
    let mut json = false;
    let mut csv = false;
    let mut example = false;
    let mut budget: Option<Duration> = None;
    let mut pos = Vec::new();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--json" => json = true,
            "--csv" => csv = true,
            "--example" => example = true,
            "--help" | "-h" => {
                out.write_all(HELP.as_bytes())?;
                return Ok(());
            }
            // the fit runs to its end by default: the old switch changes nothing
            "--no-budget" => {}
            "--budget" => {
                let s = it.next().map(String::as_str).unwrap_or("");
                budget = Some(seconds(s)?);
            }
            s if s.starts_with("--budget=") => budget = Some(seconds(&s[9..])?),
            s if s.starts_with("--") => {
                let shown: String = s.chars().take(64).collect();
                return Err(Failure::Usage(format!(
                    "fit: unknown option {shown} (friction-lab fit --help)"
                )));
            }
            s => pos.push(s),
        }
    }
    if json && csv {
        return Err(Failure::Usage("fit: give --json or --csv, not both".into()));
    }
    let (data, fit_query) = match (example, pos.as_slice()) {
        (true, [ex]) => {
            let spec = ExampleSpec::parse(ex)
                .map_err(|e| Failure::Usage(format!("fit --example: {e}")))?;
            let (data, _) = spec.generate().map_err(Failure::Usage)?;
            out.write_all(data.to_csv().as_bytes())?;
            return Ok(());
        }
        (true, [ex, q]) => {
            let spec = ExampleSpec::parse(ex)
                .map_err(|e| Failure::Usage(format!("fit --example: {e}")))?;
            (spec.generate().map_err(Failure::Usage)?.0, *q)
        }
        (false, [file, q]) => {
            let spec = FitSpec::parse(q, &[]).map_err(|e| Failure::Usage(format!("fit: {e}")))?;
            let text = std::fs::read_to_string(file)
                .map_err(|e| Failure::Usage(format!("fit: cannot read {file}: {e}")))?;
            let data = friction_fit::read(&text, &spec.read)
                .map_err(|e| Failure::Usage(format!("fit: {file}: {e}")))?;
            (data, *q)
        }
        _ => {
            return Err(Failure::Usage(
                "fit: give a data file and a fit query (friction-lab fit DATA.csv 'model=…'), \
                 or --example 'model=…' [fit query]; friction-lab fit --help explains both"
                    .into(),
            ))
        }
    };
    let spec = FitSpec::parse(fit_query, &[]).map_err(|e| Failure::Usage(format!("fit: {e}")))?;
    let t0 = Instant::now();
    let mut runs = 0;
    let tty = std::io::stderr().is_terminal();
    let mut shown = Instant::now();
    let unit = data.force_unit();
    let result = friction_fit::run(&spec, &data, &mut |p| {
        runs = p.runs;
        if tty && shown.elapsed() >= Duration::from_millis(200) {
            shown = Instant::now();
            eprint!(
                "\rfit: {} · {} model runs · RMS {} {unit} · {:.1} s   ",
                p.stage.text(),
                p.runs,
                friction_fit::format::num(p.rms),
                t0.elapsed().as_secs_f64()
            );
        }
        budget.is_none_or(|b| t0.elapsed() < b)
    });
    if tty {
        eprint!("\r{:70}\r", "");
    }
    let report = result.map_err(|e| match e {
        FitError::Cancelled => Failure::Usage(format!(
            "fit: stopped after {:.1} s of computing ({runs} model runs; --budget {} s; \
             without --budget the fit goes to its end): fewer samples, fewer free parameters \
             or fewer starts are quicker",
            t0.elapsed().as_secs_f64(),
            budget.map_or(0.0, |b| b.as_secs_f64())
        )),
        FitError::Bad(s) => Failure::Usage(format!("fit: {s}")),
    })?;
    if json {
        let s =
            serde_json::to_string_pretty(&report.json()).map_err(|e| Failure::Io(e.to_string()))?;
        writeln!(out, "{s}")?;
    } else if csv {
        for n in &report.record {
            crate::stderr_line(format_args!("friction-lab: note: {n}"));
        }
        out.write_all(report.csv(&data).as_bytes())?;
    } else {
        out.write_all(report.text().as_bytes())?;
    }
    Ok(())
}

/// A `--budget` value in seconds.
fn seconds(s: &str) -> Result<Duration, Failure> {
    match friction_core::params::parse_f64(s.trim()) {
        Some(x) if x.is_finite() && x > 0.0 && x < 1e9 => Ok(Duration::from_secs_f64(x)),
        _ => Err(Failure::Usage(format!(
            "fit: --budget \"{s}\" must be a number of seconds above 0"
        ))),
    }
}
