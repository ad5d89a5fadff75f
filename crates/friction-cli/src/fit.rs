//! `friction-lab fit`: fits a model to a CSV/TSV record (or to generated example data) and
//! prints the report as text or JSON, or the data with the fit and residuals as CSV.
//!
//! ```text
//! friction-lab fit DATA.csv 'model=lugre&free=sigma0,sigma1,muk,mus' [--json | --csv]
//! friction-lab fit --example 'model=lugre&sigma0=5e4&noise=0.01&seed=1'
//! friction-lab fit --example 'EXAMPLE' 'FIT' [--json | --csv]
//! ```
//! Bad input (an unreadable or bad file, a bad query) and a fit stopped at the wall-clock
//! budget exit with status 2, as the other commands do.

use std::io::Write;
use std::time::{Duration, Instant};

use friction_fit::{ExampleSpec, FitError, FitSpec};

use crate::Failure;

/// Usage of the `fit` command (part of `--help`).
pub const USAGE: &str = "       friction-lab fit DATA.csv 'FIT' [--json | --csv] [--budget SECONDS]
       friction-lab fit --example 'EXAMPLE' ['FIT' [--json | --csv]]

fit         fits a model to a record: DATA is a CSV/TSV file with header t,x,v,F (x or v may
            be missing, N and w optional; units in the header: 'F [mN]', 'v (mm/s)'; SI
            otherwise; a column N is the normal load the model runs with, fn or FrBD's p,
            unless FIT sets it; a free fn/p with a column N is refused). FIT:
            model=ID&free=KEY,KEY,… plus fixed or start values (KEY=…), bounds
            lo.KEY=…&hi.KEY=… inside the model's range, starts=N starting points,
            tskip=SECONDS of start-up transient left out. Prints values, standard errors,
            95 % intervals, correlations, residual RMS, R², the condition number and
            identifiability verdicts (--json: the same as JSON; --csv: t,x,v,F,F_fit,residual,
            and N when a column N gave the load)
--example   generates a record from a model: EXAMPLE is model=ID&KEY=… (true values) and
            n, tend [s], vmean, vamp [m/s], freq [Hz] of v = vmean + vamp sin(2π freq t),
            noise (relative to the RMS force), seed, nvar and nfreq [Hz] of a normal load
            F_N = fn (1 + nvar sin(2π nfreq t)) in a column N; printed as CSV, or fitted
            with FIT
";

/// Runs `fit` with its arguments (after the word `fit`).
pub fn run(args: &[String], budget: Option<Duration>, out: &mut dyn Write) -> Result<(), Failure> {
    let mut json = false;
    let mut csv = false;
    let mut example = false;
    let mut pos = Vec::new();
    for a in args {
        match a.as_str() {
            "--json" => json = true,
            "--csv" => csv = true,
            "--example" => example = true,
            s if s.starts_with("--") => {
                let shown: String = s.chars().take(64).collect();
                return Err(Failure::Usage(format!("fit: unknown option {shown}")));
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
            let text = std::fs::read_to_string(file)
                .map_err(|e| Failure::Usage(format!("fit: cannot read {file}: {e}")))?;
            let data = friction_fit::parse(&text, &[])
                .map_err(|e| Failure::Usage(format!("fit: {file}: {e}")))?;
            (data, *q)
        }
        _ => return Err(Failure::Usage(
            "fit: give a data file and a fit query (friction-lab fit DATA.csv 'model=…&free=…'), \
                 or --example 'model=…' [fit query]"
                .into(),
        )),
    };
    let spec = FitSpec::parse(fit_query, &[]).map_err(|e| Failure::Usage(format!("fit: {e}")))?;
    let t0 = Instant::now();
    let mut runs = 0;
    let report = friction_fit::run(&spec, &data, &mut |p| {
        runs = p.runs;
        budget.is_none_or(|b| t0.elapsed() < b)
    })
    .map_err(|e| match e {
        FitError::Cancelled => Failure::Usage(format!(
            "fit: stopped after {:.1} s of computing ({runs} model runs; --budget {} s; \
             without --budget the fit goes to its end): fewer samples, fewer free parameters \
             or fewer starts are quicker",
            t0.elapsed().as_secs_f64(),
            budget.map_or(0.0, |b| b.as_secs_f64())
        )),
        FitError::Bad(s) => Failure::Usage(format!("fit: {s}")),
    })?;
    for n in &data.notes {
        crate::stderr_line(format_args!("friction-lab: note: {n}"));
    }
    if json {
        let s =
            serde_json::to_string_pretty(&report.json()).map_err(|e| Failure::Io(e.to_string()))?;
        writeln!(out, "{s}")?;
    } else if csv {
        out.write_all(report.csv(&data).as_bytes())?;
    } else {
        out.write_all(report.text().as_bytes())?;
    }
    Ok(())
}
