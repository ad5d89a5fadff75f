//! `friction-lab`: runs Friction Lab scenarios natively and prints CSV (or writes an SVG chart).
//!
//! ```text
//! friction-lab 'QUERY' [--metrics] [--svg FILE]
//! friction-lab --list-models
//! friction-lab --help
//! ```
//! The query string is the page's (see `friction_core::scenario`). Bad input: a message on
//! stderr and exit status 2. Each view is one match arm in [`run_view`].

use std::io::{self, BufWriter, Write};
use std::process::ExitCode;

use friction_core::experiments::{hysteresis, relaxation};
use friction_core::model;
use friction_core::params::fmt_num;
use friction_core::scenario::{Scenario, View};
use friction_plot::{draw_chart, ChartSpec, Style};
use plotters::prelude::*;

const USAGE: &str = "\
usage: friction-lab 'QUERY' [--metrics] [--svg FILE]
       friction-lab --list-models
       friction-lab --help

QUERY is the page's query string, e.g.
  'v=1&view=hysteresis&freqs=25,50,100'       hysteresis loops: CSV freq,t,v,F
  'view=relaxation&tend=30'                   relaxation: CSV t,F_n1,F_n2,F_n3 (t,F for one curve)
Keys: view model n k0 k tau c c0 sigma0 sigma1 gamma1 mus mud vs delta eps p
      vmean vamp freqs funit vrel tend (lists comma-separated; defaults = the letter's)
--metrics   print per-loop metrics instead (hysteresis: freq,fmax,fmin,area,energy)
--svg FILE  also write the page's chart as SVG
--list-models  registered models: id<TAB>category[<TAB>provisional]
";

/// Why the CLI stopped: bad input (exit 2) or a failure while writing (exit 1).
enum Failure {
    Usage(String),
    Io(String),
    Closed,
}

impl From<io::Error> for Failure {
    fn from(e: io::Error) -> Self {
        if e.kind() == io::ErrorKind::BrokenPipe {
            // `friction-lab … | head`: the reader has all it wants
            Failure::Closed
        } else {
            Failure::Io(e.to_string())
        }
    }
}

struct Options {
    query: Option<String>,
    metrics: bool,
    svg: Option<String>,
    list: bool,
    help: bool,
}

fn parse_args(args: &[String]) -> Result<Options, Failure> {
    let mut o = Options {
        query: None,
        metrics: false,
        svg: None,
        list: false,
        help: false,
    };
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--metrics" => o.metrics = true,
            "--list-models" => o.list = true,
            "--help" | "-h" => o.help = true,
            "--svg" => {
                let f = it
                    .next()
                    .ok_or_else(|| Failure::Usage("--svg needs a file name".into()))?;
                o.svg = Some(f.clone());
            }
            s if s.starts_with("--") => {
                return Err(Failure::Usage(format!("unknown option {s}")));
            }
            s => {
                if o.query.is_some() {
                    return Err(Failure::Usage(
                        "give one query string (quote it: '…&…')".into(),
                    ));
                }
                o.query = Some(s.to_string());
            }
        }
    }
    Ok(o)
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match run(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(Failure::Usage(msg)) => {
            eprintln!("friction-lab: {msg}");
            eprintln!("(friction-lab --help for usage)");
            ExitCode::from(2)
        }
        Err(Failure::Closed) => ExitCode::SUCCESS,
        Err(Failure::Io(msg)) => {
            eprintln!("friction-lab: {msg}");
            ExitCode::from(1)
        }
    }
}

fn run(args: &[String]) -> Result<(), Failure> {
    let o = parse_args(args)?;
    let stdout = io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    if o.help {
        out.write_all(USAGE.as_bytes())?;
        return Ok(out.flush()?);
    }
    if o.list {
        for e in model::registry() {
            let prov = if e.info.provisional {
                "\tprovisional"
            } else {
                ""
            };
            writeln!(out, "{}\t{}{prov}", e.info.id, e.info.category.as_str())?;
        }
        return Ok(out.flush()?);
    }
    let q = o
        .query
        .as_deref()
        .ok_or_else(|| Failure::Usage("missing query string".into()))?;
    let s = Scenario::parse(q).map_err(|errs| {
        Failure::Usage(
            errs.iter()
                .map(|e| e.to_string())
                .collect::<Vec<_>>()
                .join("\n"),
        )
    })?;
    let chart = run_view(&s, o.metrics, &mut out)?;
    out.flush()?;
    if let Some(path) = &o.svg {
        write_svg(path, &chart)?;
    }
    Ok(())
}

/// Runs the scenario's view, prints its CSV (or metrics) and returns its chart.
fn run_view(s: &Scenario, metrics: bool, out: &mut dyn Write) -> Result<ChartSpec, Failure> {
    let bad = |e: friction_core::params::ParamError| Failure::Usage(e.to_string());
    match s.view() {
        View::Hysteresis => {
            let cfg = s.hysteresis_config().map_err(bad)?;
            let loops = hysteresis::run(&cfg);
            if metrics {
                writeln!(out, "freq,fmax,fmin,area,energy")?;
                for l in &loops {
                    let m = l.metrics;
                    writeln!(
                        out,
                        "{},{},{},{},{}",
                        fmt_num(l.freq),
                        fmt_num(m.fmax),
                        fmt_num(m.fmin),
                        fmt_num(m.area),
                        fmt_num(m.energy)
                    )?;
                }
            } else {
                writeln!(out, "freq,t,v,F")?;
                for l in &loops {
                    for k in 0..l.t.len() {
                        writeln!(
                            out,
                            "{},{},{},{}",
                            fmt_num(l.freq),
                            fmt_num(l.t[k]),
                            fmt_num(l.v[k]),
                            fmt_num(l.f[k])
                        )?;
                    }
                }
            }
            for l in loops.iter().filter(|l| !l.converged) {
                eprintln!(
                    "friction-lab: warning: the {} loop was not periodic after {} cycles",
                    fmt_num(l.freq),
                    l.metrics.cycles
                );
            }
            Ok(friction_plot::frbd::hysteresis_chart(&cfg, &loops))
        }
        View::Relaxation => {
            let cfg = s.relaxation_config().map_err(bad)?;
            let curves = relaxation::run(&cfg);
            if metrics {
                writeln!(out, "curve,f_end,steady,fmax")?;
                for c in &curves {
                    let fmax = c.f.iter().copied().fold(f64::NEG_INFINITY, f64::max);
                    let fend = c.f.last().copied().unwrap_or(f64::NAN);
                    writeln!(
                        out,
                        "{},{},{},{}",
                        c.label,
                        fmt_num(fend),
                        fmt_num(c.steady),
                        fmt_num(fmax)
                    )?;
                }
            } else {
                // one shared log time grid: a column per order (`t,F` for a single curve)
                if curves.len() == 1 {
                    writeln!(out, "t,F")?;
                } else {
                    let cols: Vec<String> = (1..=curves.len()).map(|m| format!("F_n{m}")).collect();
                    writeln!(out, "t,{}", cols.join(","))?;
                }
                let rows = curves.first().map_or(0, |c| c.t.len());
                for k in 0..rows {
                    write!(out, "{}", fmt_num(curves[0].t[k]))?;
                    for c in &curves {
                        write!(out, ",{}", fmt_num(c.f[k]))?;
                    }
                    writeln!(out)?;
                }
            }
            Ok(friction_plot::frbd::relaxation_chart(&curves))
        }
        // generic model-driven views: one arm each (their experiment code lives elsewhere)
        View::Model(d) if d.name == "curve" || d.name == "explorer" => {
            let values: Vec<f64> = d
                .params
                .iter()
                .map(|p| s.view_value(p.key).unwrap_or(p.default))
                .collect();
            let models = s.build_models().map_err(bad)?;
            let r = friction_core::experiments::curve::run(&values, &models).map_err(bad)?;
            if metrics {
                return Err(Failure::Usage(format!(
                    "--metrics is not defined for view={}",
                    d.name
                )));
            }
            out.write_all(r.to_csv().as_bytes())?;
            Ok(friction_plot::curve::curve_chart(&r))
        }
        View::Model(d) => Err(Failure::Usage(format!(
            "view={} has no CLI output in this build",
            d.name
        ))),
    }
}

fn write_svg(path: &str, chart: &ChartSpec) -> Result<(), Failure> {
    let root = SVGBackend::new(path, (900, 560)).into_drawing_area();
    draw_chart(&root, chart, &Style::default())
        .map_err(|e| Failure::Io(format!("cannot write {path}: {e}")))?;
    Ok(())
}
