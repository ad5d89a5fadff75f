//! `friction-lab`: runs Friction Lab scenarios natively and prints CSV (or writes an SVG chart).
//!
//! ```text
//! friction-lab 'QUERY' [--metrics] [--svg FILE] [--png FILE] [--budget SECONDS]
//! friction-lab [QUERY] --phenomena
//! friction-lab --list-models
//! friction-lab fit DATA.csv 'model=…&free=…' [--json | --csv]   (see `fit`)
//! friction-lab --presets
//! friction-lab --help
//! ```
//! The query string is the page's (see `friction_core::scenario`). Bad input: a message on
//! stderr and exit status 2, also for a run stopped at the wall-clock budget its caller gave
//! (`--budget SECONDS`; without it a run goes to its end, with a progress line on a terminal).
//! Every view runs through its core job ([`run_view`]).

mod fit;

use std::io::{self, BufWriter, IsTerminal, Write};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

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

use friction_core::experiments::{bench_view, phenomena};
use friction_core::scenario::{query, Scenario, PAGE_KEYS};
use friction_core::{model, registry};
use friction_plot::ChartSpec;

const USAGE: &str = "\
usage: friction-lab 'QUERY' [--metrics] [--svg FILE] [--png FILE] [--budget SECONDS]
       friction-lab [QUERY] --phenomena
       friction-lab --list-models
       friction-lab --presets
       friction-lab --help
{FIT}
QUERY is the page's query string. Every view, with an example that runs as it is, the CSV
it prints and, for a view that has them, the columns of --metrics (with several models a
column `model` comes first):
{VIEWS}A link copied from the page runs as it is: its page-only keys
      ({PAGE})
      are ignored, with a note on stderr. The order of the keys never matters; values
      that only fail together (mus < muk, vmin > vmax) are refused naming every key.
Robot keys: observer(0|1) ref(sine|step) m cv gload ks kobs lambda qamp qfreq q0 dq0 z0
      zhat0 tend, plus model=frbd-gm|frbd-gkv and its keys (n k0 k tau|c, contact keys).
      No values are given in the letter: every default is this program's choice.
Stick-slip keys: m kspring vb mus muk g tend, plus the models' own keys (sigma0, vs, ...);
      fn = m g is derived. Generic views take model=a,b,c,d (ids from --list-models);
      a key shared by the models sets all of them, <id>.<key> one (lugre-rational.sigma0=5e4).
Keys: view model n k0 k tau c c0 sigma0 sigma1 gamma1 mus mud vs delta eps p
      vmean vamp freqs funit vrel tend (lists comma-separated; defaults = the letter's)
--metrics   print the view's metrics instead (the columns listed with each view above;
            refused for a view without them); a metric the run does not define (no
            breakaway, no second maximum, not settled) is an empty cell, and a note on
            stderr says why
--phenomena the phenomena matrix (CSV model,stiction,stribeck,viscous,presliding,hysteresis,
            stickslip,provisional) for every model, or for the models of QUERY, each with
            its defaults (other values in QUERY are ignored, with a note); stick-slip
            from the 40 s benchmark (repeated stick phases after slips reaching v_b/2); a
            flag is 1, 0, or n/a where the model has no steady state to decide it
--svg FILE  also write the page's chart as SVG
--png FILE  also write it as PNG, as the page's PNG export draws it at 2x scale (for
            print and PDF builds of course notes, where an embedded page shows nothing)
--budget SECONDS  stop the run after SECONDS of computing (wall clock): what was computed
            is printed, a message on stderr says what to lower (npts, the velocity range,
            tend, the models) and the exit status is 2, as for other input the program will
            not run. Without it a run goes to its end however long it takes, with a progress
            line on stderr when stderr is a terminal (--no-budget, the old switch, changes
            nothing)
--list-models  registered models: id<TAB>category[<TAB>provisional]
--presets   every view's named scenarios (the page's preset buttons):
            view<TAB>id<TAB>name<TAB>link; run one with friction-lab 'LINK'
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
    png: Option<String>,
    list: bool,
    presets: bool,
    phenomena: bool,
    help: bool,
}

fn parse_args(args: &[String]) -> Result<Options, Failure> {
    let mut o = Options {
        query: None,
        metrics: false,
        svg: None,
        png: None,
        list: false,
        presets: false,
        phenomena: false,
        help: false,
    };
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--metrics" => o.metrics = true,
            "--list-models" => o.list = true,
            "--presets" => o.presets = true,
            "--phenomena" => o.phenomena = true,
            "--help" | "-h" => o.help = true,
            "--svg" => {
                let f = it
                    .next()
                    .ok_or_else(|| Failure::Usage("--svg needs a file name".into()))?;
                o.svg = Some(f.clone());
            }
            "--png" => {
                let f = it
                    .next()
                    .ok_or_else(|| Failure::Usage("--png needs a file name".into()))?;
                o.png = Some(f.clone());
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
    let original = args;
    // the budget options are taken out here, so that the argument parser stays as it is
    let (budget, args) = take_budget(args)?;
    if args.first().is_some_and(|a| a == "fit") {
        let stdout = io::stdout();
        let mut out = BufWriter::new(stdout.lock());
        // the user asked for the fit: it runs to its end unless it is given --budget
        fit::run(&original[1..], &mut out)?;
        return Ok(out.flush()?);
    }
    let o = parse_args(&args)?;
    let stdout = io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    if o.help {
        let usage = USAGE
            .replace("{FIT}", fit::USAGE)
            .replace("{VIEWS}", &views_help())
            .replace("{PAGE}", &PAGE_KEYS.join(" "));
        out.write_all(usage.as_bytes())?;
        return Ok(out.flush()?);
    }
    if o.list {
        for e in registry::registry() {
            let prov = if e.info.provisional {
                "\tprovisional"
            } else {
                ""
            };
            writeln!(out, "{}\t{}{prov}", e.info.id, e.info.category.as_str())?;
        }
        return Ok(out.flush()?);
    }
    if o.presets {
        write_presets(&mut out)?;
        return Ok(out.flush()?);
    }
    let parse = |q: &str| {
        // a link copied from the page runs: its page-only keys (embed=1, panels=5, …) are
        // passed over by the parser, and said so here
        let page: Vec<String> = query::pairs(q)
            .into_iter()
            .map(|(k, _)| k)
            .filter(|k| PAGE_KEYS.contains(&k.as_str()))
            .collect();
        if !page.is_empty() {
            eprintln!(
                "friction-lab: note: ignoring {}: the page's layout and embedding, not the \
                 scenario",
                page.join(", ")
            );
        }
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
        if budget.is_some() {
            // the matrix is one computation of a few seconds, not a job cut into units
            eprintln!("friction-lab: note: --budget does not apply to --phenomena (ignored)");
        }
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
            None => registry::registry().collect(),
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
    if o.metrics {
        // said first, before the values of the link are judged
        metrics_defined(Scenario::parse_lenient(q).0.view())?;
    }
    let s = parse(q)?;
    for e in s.models().iter().filter(|e| e.info.provisional) {
        eprintln!(
            "friction-lab: note: {} is provisional — formula not recoverable from the source",
            e.info.id
        );
    }
    let charts = run_view(&s, o.metrics, budget, &mut out)?;
    out.flush()?;
    if let Some(path) = &o.svg {
        write_svg(path, &charts)?;
    }
    if let Some(path) = &o.png {
        write_png(path, &charts)?;
    }
    Ok(())
}

/// Takes `--budget SECONDS` (or `--budget=SECONDS`) and `--no-budget` out of the arguments.
///
/// A run computes to its end unless its caller gives a budget: the user asked for it
/// (issue 39). `--no-budget`, the switch of the time when every run stopped at 5 s, is still
/// accepted and changes nothing, so that scripts written then keep working.
fn take_budget(args: &[String]) -> Result<(Option<Duration>, Vec<String>), Failure> {
    let mut budget = None;
    let mut rest = Vec::new();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--no-budget" => {}
            "--budget" => {
                let s = it.next().ok_or_else(|| {
                    Failure::Usage("--budget needs a number of seconds (--budget 2)".into())
                })?;
                budget = Some(seconds(s)?);
            }
            s if s.starts_with("--budget=") => budget = Some(seconds(&s["--budget=".len()..])?),
            _ => rest.push(a.clone()),
        }
    }
    Ok((budget, rest))
}

/// A `--budget` value: seconds above 0 (a year at most, so that it is a `Duration`).
fn seconds(s: &str) -> Result<Duration, Failure> {
    match friction_core::params::parse_f64(s.trim()) {
        Some(x) if x.is_finite() && x > 0.0 && x <= 3.2e7 => Ok(Duration::from_secs_f64(x)),
        _ => {
            let shown: String = s.chars().take(64).collect();
            Err(Failure::Usage(format!(
                "--budget \"{}\" must be a number of seconds above 0 (at most 3.2e7)",
                shown.escape_debug()
            )))
        }
    }
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
        let prov = registry::find(id).is_some_and(|e| e.info.provisional);
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

/// Runs the scenario's job to its end, prints its CSV (or metrics) and returns its charts (one
/// panel each). Every view goes through the same job the page advances frame by frame.
///
/// While it runs, a progress line is kept on stderr when stderr is a terminal (never in a
/// pipe or a file, whose bytes stay those of the run). With a `budget`, a job still running
/// when it is spent stops between two units of work (each bounded: a few ms): the CSV of what
/// it computed is printed and the run fails (exit 2) with the job's hint of what to change.
fn run_view(
    s: &Scenario,
    metrics: bool,
    budget: Option<Duration>,
    out: &mut dyn Write,
) -> Result<Vec<ChartSpec>, Failure> {
    if metrics {
        // said before any computation, which may take seconds
        metrics_defined(s.view())?;
    }
    let mut job = s.job().map_err(|e| Failure::Usage(e.to_string()))?;
    let t0 = Instant::now();
    let clock = || t0.elapsed().as_secs_f64() * 1e3;
    let mut progress = Progress::new();
    while !job.done() {
        job.advance(&clock);
        progress.show(job.as_ref(), t0);
        if budget.is_some_and(|b| t0.elapsed() >= b) && !job.done() {
            progress.clear();
            // the partial output includes a run in progress up to where it got
            job.hold(true);
            let (done, total) = job.progress();
            out.write_all(job.csv(metrics).as_bytes())?;
            out.flush()?;
            metric_notes(job.as_ref(), metrics);
            return Err(Failure::Usage(format!(
                "stopped after {:.1} s of computing ({done} of {total} done; --budget {} s; \
                 without --budget the run goes to its end): {}; the output above is what was \
                 computed",
                t0.elapsed().as_secs_f64(),
                budget.map_or(0.0, |b| b.as_secs_f64()),
                job.budget_hint()
            )));
        }
    }
    progress.clear();
    if let Some(e) = job.error() {
        return Err(Failure::Usage(e));
    }
    out.write_all(job.csv(metrics).as_bytes())?;
    metric_notes(job.as_ref(), metrics);
    for w in job.warnings() {
        eprintln!("friction-lab: warning: {w}");
    }
    Ok(friction_plot::panels::charts(&job.output()))
}

/// The widest line `--help` prints \[columns\] (a terminal's 100, the project's text width).
const HELP_WIDTH: usize = 100;

/// The views' part of `--help`, from the list of views: each one's example query, title, CSV
/// header and `--metrics` columns; a title and header too long for one line of
/// [`HELP_WIDTH`] take two.
fn views_help() -> String {
    let mut s = String::new();
    for v in friction_core::views::ALL {
        let e = &v.example;
        let line = format!("      {}. CSV {}", v.title, e.csv);
        let sep = if line.chars().count() > HELP_WIDTH {
            "\n      "
        } else {
            " "
        };
        s.push_str(&format!(
            "  '{}'\n      {}.{sep}CSV {}\n",
            e.query, v.title, e.csv
        ));
        if let Some(m) = v.metrics {
            s.push_str(&format!("      --metrics: {m}\n"));
        }
    }
    s
}

/// The progress line of a run on a terminal: rewritten in place (`\r`) at most five times a
/// second, from the first second on (a quick run shows none), and wiped before anything else
/// is written to stderr.
struct Progress {
    /// Whether stderr is a terminal; nothing is written otherwise.
    tty: bool,
    /// When the line was last written, if it is on the screen.
    shown: Option<Instant>,
}

impl Progress {
    fn new() -> Self {
        Self {
            tty: io::stderr().is_terminal(),
            shown: None,
        }
    }

    /// Rewrites the line if the run has gone on for a second and the line is 0.2 s old.
    fn show(&mut self, job: &dyn friction_core::job::Job, t0: Instant) {
        let elapsed = t0.elapsed();
        if !self.tty
            || elapsed < Duration::from_secs(1)
            || self
                .shown
                .is_some_and(|s| s.elapsed() < Duration::from_millis(200))
        {
            return;
        }
        let (done, total) = job.progress();
        let line = format!(
            "friction-lab: computing… {done} of {total} done · {:.1} s",
            elapsed.as_secs_f64()
        );
        let mut err = io::stderr().lock();
        // a terminal that cannot be written is not worth failing the run for: the line is
        // decoration, and the run's own messages report a broken stderr
        let _ = write!(err, "\r{line:<60}");
        let _ = err.flush();
        self.shown = Some(Instant::now());
    }

    /// Wipes the line, if one is shown.
    fn clear(&mut self) {
        if self.shown.take().is_some() {
            let mut err = io::stderr().lock();
            let _ = write!(err, "\r{:60}\r", "");
            let _ = err.flush();
        }
    }
}

/// Refuses `--metrics` for a view without them.
fn metrics_defined(view: &friction_core::job::ViewDef) -> Result<(), Failure> {
    if view.metrics.is_some() {
        Ok(())
    } else {
        Err(Failure::Usage(format!(
            "--metrics is not defined for view={}",
            view.name
        )))
    }
}

/// Under `--metrics`, why cells are empty: a metric the run does not define (no breakaway,
/// fewer than two maxima for a period) is printed as an empty cell, never NaN or inf.
fn metric_notes(job: &dyn friction_core::job::Job, metrics: bool) {
    if metrics {
        for n in job.metric_notes() {
            eprintln!("friction-lab: note: {n}");
        }
    }
}

/// One chart at 900×560, or several panels of 500×380 in a grid (the page's layout, one legend
/// above panels that show the same curves).
fn write_svg(path: &str, charts: &[ChartSpec]) -> Result<(), Failure> {
    let io = |e: &dyn std::fmt::Display| Failure::Io(format!("cannot write {path}: {e}"));
    let doc =
        friction_plot::figure::figure_svg(charts, (900, 560), (500, 380)).map_err(|e| io(&e))?;
    std::fs::write(path, doc).map_err(|e| io(&e))
}

/// The figure as PNG at 2× scale: one chart 900 × 560 CSS px (the SVG's size), several in the
/// SVG's grid of 500 × 380 cells with room for the shared legend above them.
fn write_png(path: &str, charts: &[ChartSpec]) -> Result<(), Failure> {
    let io = |e: &dyn std::fmt::Display| Failure::Io(format!("cannot write {path}: {e}"));
    let size = if charts.len() <= 1 {
        (900, 560)
    } else {
        let (rows, cols) = friction_plot::figure::grid(charts.len());
        (500 * cols as u32, 380 * rows as u32 + 32)
    };
    let png = friction_plot::png::figure_png(charts, size, 2.0, None).map_err(|e| io(&e))?;
    std::fs::write(path, png).map_err(|e| io(&e))
}

/// `--presets`: each view's named scenarios as `view<TAB>id<TAB>name<TAB>link`, the link being
/// the canonical query the preset sets from the view's defaults (what the page's button sets).
fn write_presets(out: &mut impl Write) -> Result<(), Failure> {
    for v in friction_core::views::ALL {
        let Some(p) = v.presets else { continue };
        for preset in (p.list)() {
            let link = Scenario::of_preset(v, &preset)
                .map_err(|e| {
                    Failure::Usage(format!(
                        "preset {}/{} is not valid: {}",
                        v.name,
                        preset.id,
                        e.iter()
                            .map(|e| e.to_string())
                            .collect::<Vec<_>>()
                            .join("; ")
                    ))
                })?
                .to_query();
            writeln!(out, "{}\t{}\t{}\t{link}", v.name, preset.id, preset.name)?;
        }
    }
    Ok(())
}
