//! `friction-lab`: runs Friction Lab scenarios natively and prints CSV (or writes an SVG chart).
//!
//! ```text
//! friction-lab 'QUERY' [--metrics] [--svg FILE]
//! friction-lab [QUERY] --phenomena
//! friction-lab --list-models
//! friction-lab --help
//! ```
//! The query string is the page's (see `friction_core::scenario`). Bad input: a message on
//! stderr and exit status 2. Each view is one match arm in [`run_view`].

use std::io::{self, BufWriter, Write};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};

/// Set when a line could not be written to stderr: the run then ends with status 1.
static STDERR_FAILED: AtomicBool = AtomicBool::new(false);

/// Std's `eprintln!` without its panic: that one panics when stderr cannot be written
/// (`2>/dev/full`, a pipe whose reader has gone), which aborted the release build. Defined
/// before every use in this file, so it stands in for std's everywhere here.
macro_rules! eprintln {
    ($($arg:tt)*) => {
        $crate::stderr_line(format_args!($($arg)*))
    };
}

/// Writes one line to stderr; a failure is remembered for the exit status, not raised.
fn stderr_line(args: std::fmt::Arguments<'_>) {
    if writeln!(io::stderr().lock(), "{args}").is_err() {
        STDERR_FAILED.store(true, Ordering::Relaxed);
    }
}

use friction_core::experiments::{
    bench_view, hysteresis, phenomena, relaxation, robot_arm, stickslip,
};
use friction_core::model;
use friction_core::params::fmt_num;
use friction_core::scenario::{query, Scenario, View};
use friction_plot::ChartSpec;

const USAGE: &str = "\
usage: friction-lab 'QUERY' [--metrics] [--svg FILE]
       friction-lab [QUERY] --phenomena
       friction-lab --list-models
       friction-lab --help

QUERY is the page's query string, e.g.
  'v=1&view=hysteresis&freqs=25,50,100'       hysteresis loops: CSV freq,t,v,F
  'view=relaxation&tend=30'                   relaxation: CSV t,F_n1,F_n2,F_n3 (t,F for one curve)
  'view=curve&model=lugre&vmin=-0.01&vmax=0.01'  F against v: CSV v,F (model,v,F for several)
  'view=stickslip&model=lugre&tend=40'        stick-slip benchmark: CSV t,x,xdot,F
                                              (model,t,x,xdot,F for several; F is the model
                                              output of m x'' = -k x - F)
  'view=robot&observer=0'                     robot-arm tracking (letter §IV-B): CSV
                                              t,q,qd,qdot,U,F,Fhat,W (one row per solver step)
Robot keys: observer(0|1) ref(sine|step) m cv gload ks kobs lambda qamp qfreq q0 dq0 z0
      zhat0 tend, plus model=frbd-gm|frbd-gkv and its keys (n k0 k tau|c, contact keys).
      No values are given in the letter: every default is this program's choice.
Stick-slip keys: m kspring vb mus muk g tend, plus the models' own keys (sigma0, vs, ...);
      fn = m g is derived. Generic views take model=a,b,c,d (ids from --list-models);
      a key shared by the models sets all of them, <id>.<key> one (lugre-rational.sigma0=5e4).
Keys: view model n k0 k tau c c0 sigma0 sigma1 gamma1 mus mud vs delta eps p
      vmean vamp freqs funit vrel tend (lists comma-separated; defaults = the letter's)
--metrics   print per-loop metrics instead (hysteresis: freq,fmax,fmin,area,energy;
            stickslip: metric,value,unit with breakaway, extrema, period, steps, wall time;
            robot: metric,value,unit with final/max/late-RMS tracking error, settling time, W)
--phenomena the phenomena matrix (CSV model,stiction,stribeck,viscous,presliding,hysteresis,
            stickslip,provisional) for every model, or for the models of QUERY, each with
            its defaults (other values in QUERY are ignored, with a note); stick-slip
            from the 40 s benchmark (repeated stick phases after slips reaching v_b/2); a
            flag is 1, 0, or n/a where the model has no steady state to decide it
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
    phenomena: bool,
    help: bool,
}

fn parse_args(args: &[String]) -> Result<Options, Failure> {
    let mut o = Options {
        query: None,
        metrics: false,
        svg: None,
        list: false,
        phenomena: false,
        help: false,
    };
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--metrics" => o.metrics = true,
            "--list-models" => o.list = true,
            "--phenomena" => o.phenomena = true,
            "--help" | "-h" => o.help = true,
            "--svg" => {
                let f = it
                    .next()
                    .ok_or_else(|| Failure::Usage("--svg needs a file name".into()))?;
                o.svg = Some(f.clone());
            }
            s if s.starts_with("--") => {
                // cut like a query key in its messages: the option comes straight from argv
                let shown: String = s.chars().take(64).collect();
                let more = if shown.len() < s.len() { "…" } else { "" };
                return Err(Failure::Usage(format!("unknown option {shown}{more}")));
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

/// The arguments as UTF-8 strings; `std::env::args` panics on any other, so a query or file
/// name that is not UTF-8 is bad input here.
fn utf8_args(args: impl Iterator<Item = std::ffi::OsString>) -> Result<Vec<String>, Failure> {
    args.map(|a| {
        a.into_string().map_err(|bad| {
            let shown: String = bad.to_string_lossy().chars().take(64).collect();
            Failure::Usage(format!(
                "argument \"{shown}\" is not valid UTF-8 (queries and file names must be)"
            ))
        })
    })
    .collect()
}

fn main() -> ExitCode {
    let code = match utf8_args(std::env::args_os().skip(1)).and_then(|args| run(&args)) {
        Ok(()) | Err(Failure::Closed) => 0,
        Err(Failure::Usage(msg)) => {
            eprintln!("friction-lab: {msg}");
            eprintln!("(friction-lab --help for usage)");
            2
        }
        Err(Failure::Io(msg)) => {
            eprintln!("friction-lab: {msg}");
            1
        }
    };
    // a note, warning or message that could not be written is a failed run too (bad input
    // keeps its 2)
    if code == 0 && STDERR_FAILED.load(Ordering::Relaxed) {
        ExitCode::from(1)
    } else {
        ExitCode::from(code)
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
    let parse = |q: &str| {
        Scenario::parse(q).map_err(|errs| {
            Failure::Usage(
                errs.iter()
                    .map(|e| e.to_string())
                    .collect::<Vec<_>>()
                    .join("\n"),
            )
        })
    };
    if o.phenomena {
        let entries: Vec<&'static model::ModelEntry> = match o.query.as_deref() {
            Some(q) => {
                let s = parse(q)?;
                // the matrix describes each model at its defaults (as on the page): say so
                // rather than silently drop the query's values
                let ignored: Vec<String> = query::pairs(&s.to_query())
                    .into_iter()
                    .map(|(k, _)| k)
                    .filter(|k| !["v", "view", "model"].contains(&k.as_str()))
                    .collect();
                if !ignored.is_empty() {
                    eprintln!(
                        "friction-lab: note: --phenomena runs each model with its defaults; \
                         ignoring {}",
                        ignored.join(", ")
                    );
                }
                s.models()
            }
            None => model::registry().collect(),
        };
        if entries.is_empty() {
            return Err(Failure::Usage(
                "--phenomena: the query selects no models (use view=explorer&model=…)".into(),
            ));
        }
        write_phenomena(&entries, &mut out)?;
        return Ok(out.flush()?);
    }
    let q = o
        .query
        .as_deref()
        .ok_or_else(|| Failure::Usage("missing query string".into()))?;
    let s = parse(q)?;
    for e in s.models().iter().filter(|e| e.info.provisional) {
        eprintln!(
            "friction-lab: note: {} is provisional — formula not recoverable from the source",
            e.info.id
        );
    }
    let charts = run_view(&s, o.metrics, &mut out)?;
    out.flush()?;
    if let Some(path) = &o.svg {
        write_svg(path, &charts)?;
    }
    Ok(())
}

/// The phenomena matrix of `entries` as CSV, with the provisional flag as the last column.
fn write_phenomena(
    entries: &[&'static model::ModelEntry],
    out: &mut dyn Write,
) -> Result<(), Failure> {
    let m = phenomena::matrix(entries.iter().copied(), Some(&bench_view::stick_slip_hook));
    let mut lines = m
        .to_csv()
        .lines()
        .map(str::to_string)
        .collect::<Vec<_>>()
        .into_iter();
    if let Some(head) = lines.next() {
        writeln!(out, "{head},provisional")?;
    }
    for (line, (id, _)) in lines.zip(&m.rows) {
        let prov = model::find(id).is_some_and(|e| e.info.provisional);
        writeln!(out, "{line},{}", u8::from(prov))?;
    }
    for e in entries {
        if m.row(e.info.id).is_none() {
            eprintln!(
                "friction-lab: warning: {} does not build with its defaults (left out)",
                e.info.id
            );
        }
    }
    Ok(())
}

/// Runs the scenario's view, prints its CSV (or metrics) and returns its charts (one panel
/// each).
fn run_view(s: &Scenario, metrics: bool, out: &mut dyn Write) -> Result<Vec<ChartSpec>, Failure> {
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
            Ok(vec![friction_plot::frbd::hysteresis_chart(&cfg, &loops)])
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
            Ok(vec![friction_plot::frbd::relaxation_chart(&curves)])
        }
        View::Robot => {
            let (arm, model) = s.robot_config().map_err(bad)?;
            let r = robot_arm::run(&arm, &model).map_err(|e| Failure::Usage(e.to_string()))?;
            if metrics {
                out.write_all(robot_metrics_csv(&r.metrics).as_bytes())?;
            } else {
                writeln!(out, "t,q,qd,qdot,U,F,Fhat,W")?;
                for i in 0..r.t.len() {
                    writeln!(
                        out,
                        "{},{},{},{},{},{},{},{}",
                        fmt_num(r.t[i]),
                        fmt_num(r.q[i]),
                        fmt_num(r.qd[i]),
                        fmt_num(r.qdot[i]),
                        fmt_num(r.u[i]),
                        fmt_num(r.f[i]),
                        fmt_num(r.fhat[i]),
                        fmt_num(r.w[i])
                    )?;
                }
            }
            Ok(friction_plot::robot::all_charts(&r))
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
            Ok(vec![friction_plot::curve::curve_chart(&r)])
        }
        View::Model(d) if d.name == "stickslip" => {
            let (b, models) = bench_view::from_scenario(s).map_err(bad)?;
            let mut ws = stickslip::Workspace::default();
            let mut runs = Vec::with_capacity(models.len());
            for (e, m) in &models {
                let t0 = std::time::Instant::now();
                let mut r = stickslip::run_bench(&mut ws, &b, m.as_ref())
                    .map_err(|err| Failure::Usage(format!("{}: {err}", e.info.id)))?;
                let mut mt = r.metrics();
                mt.wall_time_s = Some(t0.elapsed().as_secs_f64());
                r.metrics = Some(mt);
                runs.push((e.info, r));
            }
            let multi = runs.len() > 1;
            for (info, r) in &runs {
                let csv = if metrics {
                    stickslip::metrics_csv(&r.metrics())
                } else {
                    stickslip::to_csv(r)
                };
                let mut lines = csv.lines();
                let head = lines.next().unwrap_or_default();
                if !multi {
                    writeln!(out, "{head}")?;
                } else if std::ptr::eq(*info, runs[0].0) {
                    writeln!(out, "model,{head}")?;
                }
                for l in lines {
                    if multi {
                        writeln!(out, "{},{l}", info.id)?;
                    } else {
                        writeln!(out, "{l}")?;
                    }
                }
            }
            let labelled: Vec<(&str, &stickslip::StickSlipRun)> =
                runs.iter().map(|(i, r)| (i.name, r)).collect();
            Ok(friction_plot::stickslip::all_charts(&labelled))
        }
        View::Model(d) => Err(Failure::Usage(format!(
            "view={} has no CLI output in this build",
            d.name
        ))),
    }
}

/// The robot metrics as `metric,value,unit` rows (NaN settling time: not settled by t_end).
fn robot_metrics_csv(m: &robot_arm::Metrics) -> String {
    let rows: [(&str, f64, &str); 12] = [
        ("final_error", m.final_error, "rad"),
        ("max_error", m.max_error, "rad"),
        ("rms_error_second_half", m.rms_error_late, "rad"),
        ("settling_time", m.settling_time, "s"),
        ("settle_band", m.settle_band, "rad"),
        ("w0", m.w0, "J"),
        ("w_end", m.w_end, "J"),
        ("w_max_rise", m.w_max_rise, "J"),
        ("max_torque", m.max_torque, "N·m"),
        ("max_fhat_error_second_half", m.max_fhat_error_late, "N·m"),
        ("steps", m.steps as f64, ""),
        ("rejected", m.rejected as f64, ""),
    ];
    let mut s = String::from("metric,value,unit\n");
    for (k, v, u) in rows {
        s.push_str(&format!("{k},{},{u}\n", fmt_num(v)));
    }
    s
}

/// One chart at 900×560, or several panels of 500×380 in a grid (the page's layout, one legend
/// above panels that show the same curves).
fn write_svg(path: &str, charts: &[ChartSpec]) -> Result<(), Failure> {
    let io = |e: &dyn std::fmt::Display| Failure::Io(format!("cannot write {path}: {e}"));
    let doc =
        friction_plot::figure::figure_svg(charts, (900, 560), (500, 380)).map_err(|e| io(&e))?;
    std::fs::write(path, doc).map_err(|e| io(&e))
}
