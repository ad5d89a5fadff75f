//! The long fuzz run (not part of `cargo test`):
//!
//! ```text
//! cargo run --release -p friction-cli --example fuzz -- CASES [SEED] [CASE_MS]
//! cargo run --release -p friction-cli --example fuzz -- links N [SEED]   # N legal links
//! cargo run --release -p friction-cli --example fuzz -- unit QUERY [MS [SHOW]]  # one query's units
//! cargo run --release -p friction-cli --example fuzz -- ends [CASE_MS] [VIEW] [all]  # range ends
//! ```
//!
//! `ends`: every number control (and every list entry) of each view, with its opening model
//! (`all`: with every registry model), set alone to the end of its range the page's slider
//! offers, run to its end (or `CASE_MS` of wall clock): prints each end refused, failed (a solver
//! step cap, a step size underflow) or stopped, with the message a user would see.
//!
//! Each case is a legal query generated from the core's schema (`friction-core/tests/it/fuzzgen`)
//! run in process as the CLI runs it, through its job, stopped at the CLI's kind of budget
//! (`CASE_MS` of wall clock, default 200 ms, instead of the CLI's 5 s so that 100,000 cases fit in
//! minutes), or a hostile query string given to the parsers (every fourth case). Reports panics,
//! NaN/inf in the CSV, the longest single unit of work (the page's frame budget depends on it),
//! the cases stopped at the budget, and the slowest queries; exit status 1 on a panic, a
//! non-finite number or a unit over 50 ms. (The release profile aborts on a panic: the
//! hook prints the case first; a debug build, `cargo run --example fuzz`, catches and goes on.)

#[path = "../../friction-core/tests/it/fuzzgen/mod.rs"]
mod fuzzgen;

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::Mutex;
use std::time::Instant;

use friction_core::integrate::meter::work;
use friction_core::scenario::Scenario;
use fuzzgen::{hostile_query, legal_query, non_finite, Rng};

/// The case being run, for the panic hook: the release profile aborts on a panic (no unwinding
/// to catch), so the hook names the case before the process ends.
static CURRENT: Mutex<String> = Mutex::new(String::new());

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().map(String::as_str) == Some("links") {
        // `links N [SEED]`: N legal query strings, one a line (bench/browser/fuzz-links.mjs)
        let n: u64 = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(1000);
        let seed: u64 = args.get(2).and_then(|a| a.parse().ok()).unwrap_or(1);
        for case in 0..n {
            let mut r = Rng::new(seed.wrapping_mul(1_000_003).wrapping_add(case));
            println!("{}", legal_query(&mut r));
        }
        return;
    }
    if args.first().map(String::as_str) == Some("ends") {
        // `ends [CASE_MS] [VIEW] [all]`: every range end of every control alone
        let case_ms: f64 = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(3000.0);
        ends(
            case_ms,
            args.get(2).map(String::as_str),
            args.get(3).is_some(),
        );
        return;
    }
    if args.first().map(String::as_str) == Some("unit") {
        // `unit QUERY [MS]`: the longest units of one query (to chase a LONG UNIT line)
        let q = args.get(1).cloned().unwrap_or_default();
        let budget: f64 = args.get(2).and_then(|a| a.parse().ok()).unwrap_or(5000.0);
        let t0 = Instant::now();
        let clock = || t0.elapsed().as_secs_f64() * 1e3;
        let mut job = match Scenario::parse(&q)
            .map_err(|e| format!("{e:?}"))
            .and_then(|s| s.job().map_err(|e| e.to_string()))
        {
            Ok(j) => j,
            Err(e) => return println!("refused: {e}"),
        };
        let (mut units, mut worst, mut drawn, mut chart_worst) = (0usize, 0.0f64, None, 0.0f64);
        let mut work_worst = 0u64;
        while !job.done() && clock() < budget {
            let u = clock();
            let w = work();
            job.advance(&clock);
            units += 1;
            worst = worst.max(clock() - u);
            work_worst = work_worst.max(work() - w);
            // `unit QUERY MS SHOW`: every unit longer than SHOW ms, with its work
            if let Some(show) = args.get(3).and_then(|a| a.parse::<f64>().ok()) {
                if clock() - u > show {
                    println!(
                        "unit {units}: {:.2} ms, {} state-steps, progress {:?}, done {}",
                        clock() - u,
                        work() - w,
                        job.progress(),
                        job.done()
                    );
                }
            }
            // the page rebuilds its charts whenever the output changes: time that too
            let version = job.output_version();
            if version.is_none() || version != drawn || job.done() {
                let c = clock();
                let charts = friction_plot::panels::panels(&job.output());
                std::hint::black_box(charts);
                chart_worst = chart_worst.max(clock() - c);
                drawn = version;
            }
        }
        println!(
            "{units} units in {:.1} ms, longest {worst:.2} ms, most work {work_worst} state-steps, longest chart build {chart_worst:.2} ms, progress {:?}, done {}",
            clock(),
            job.progress(),
            job.done()
        );
        if !job.done() {
            // the page's stop at its budget: the run so far lent to the panels, which the page
            // builds from it in the frame after the stop
            let h = clock();
            job.hold(true);
            let held = clock() - h;
            let c = clock();
            let charts = friction_plot::panels::panels(&job.output());
            std::hint::black_box(charts);
            println!(
                "stopped: hold {held:.2} ms, chart build of the held run {:.2} ms",
                clock() - c
            );
        }
        return;
    }
    let cases: u64 = args.first().and_then(|a| a.parse().ok()).unwrap_or(1000);
    let seed: u64 = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(1);
    let case_ms: f64 = args.get(2).and_then(|a| a.parse().ok()).unwrap_or(200.0);
    std::panic::set_hook(Box::new(|info| {
        let q = CURRENT.lock().map(|q| q.clone()).unwrap_or_default();
        println!("PANIC on {q:?}: {info}");
    }));
    let t_all = Instant::now();
    let (mut panics, mut nan, mut stopped, mut refused, mut hostile) = (0, 0, 0, 0, 0);
    let mut longest_unit: Vec<(f64, String)> = Vec::new();
    let mut slowest_case: Vec<(f64, String)> = Vec::new();
    // the same units measured without a clock: state-steps (`friction_core::integrate::meter`)
    let mut most_work: Vec<(f64, String)> = Vec::new();
    let report = |list: &mut Vec<(f64, String)>, ms: f64, q: &str| {
        list.push((ms, q.to_string()));
        list.sort_by(|a, b| b.0.total_cmp(&a.0));
        list.truncate(10);
    };
    for case in 0..cases {
        if case > 0 && case % 2000 == 0 {
            // a running tally, so that a run cut short still reports
            println!(
                "after {case} cases ({:.0} s): {panics} panics, {nan} NaN/inf, {stopped} stopped \
                 at the budget, {refused} refused, longest unit {:.2} ms",
                t_all.elapsed().as_secs_f64(),
                longest_unit.first().map_or(0.0, |w| w.0)
            );
        }
        let mut r = Rng::new(seed.wrapping_mul(1_000_003).wrapping_add(case));
        if case % 4 == 3 {
            hostile += 1;
            let q = hostile_query(&mut r);
            set_current(&q);
            let key = String::from_utf8_lossy(&r.u64().to_le_bytes()).into_owned();
            let ok = catch_unwind(AssertUnwindSafe(|| {
                let (mut s, _) = Scenario::parse_lenient(&q);
                let _ = Scenario::parse(&q);
                let _ = s.set(&key, &q);
                let _ = s.set("npts", &q);
                let _ = s.set("model", &q);
            }));
            if ok.is_err() {
                panics += 1;
                println!("PANIC (parse) seed {seed} case {case}: {q:?}");
            }
            continue;
        }
        let q = legal_query(&mut r);
        set_current(&q);
        let t0 = Instant::now();
        let res = catch_unwind(AssertUnwindSafe(|| {
            let Ok(s) = Scenario::parse(&q) else {
                return None;
            };
            let mut job = match s.job() {
                Ok(j) => j,
                Err(_) => return None,
            };
            let clock = || t0.elapsed().as_secs_f64() * 1e3;
            let (mut unit_max, mut work_max) = (0.0f64, 0u64);
            while !job.done() && clock() < case_ms {
                let u = clock();
                let w = work();
                job.advance(&clock);
                unit_max = unit_max.max(clock() - u);
                work_max = work_max.max(work() - w);
            }
            Some((job.done(), unit_max, work_max, non_finite(&job.csv(false))))
        }));
        let ms = t0.elapsed().as_secs_f64() * 1e3;
        match res {
            Err(_) => {
                panics += 1;
                println!("PANIC seed {seed} case {case}: {q}");
            }
            Ok(None) => refused += 1,
            Ok(Some((done, unit, unit_work, bad))) => {
                if !done {
                    stopped += 1;
                }
                if let Some(line) = bad {
                    nan += 1;
                    println!("NON-FINITE seed {seed} case {case}: {q}  [{line}]");
                }
                if unit > 1000.0 {
                    println!("LONG UNIT {unit:.0} ms seed {seed} case {case}: {q}");
                }
                report(&mut longest_unit, unit, &q);
                report(&mut most_work, unit_work as f64, &q);
                report(&mut slowest_case, ms, &q);
            }
        }
    }
    let legal = cases - hostile;
    println!(
        "{cases} cases (seed {seed}) in {:.1} s: {legal} legal queries run ({refused} refused \
         with a message, {stopped} stopped at the {case_ms} ms budget), {hostile} hostile strings \
         parsed; {panics} panics, {nan} with NaN/inf in the CSV",
        t_all.elapsed().as_secs_f64()
    );
    println!("longest single units of work [ms]:");
    for (ms, q) in &longest_unit {
        println!("  {ms:8.2}  {q}");
    }
    println!("units with the most work [state-steps]:");
    for (w, q) in &most_work {
        println!("  {w:8.0}  {q}");
    }
    println!("slowest cases [ms] (including the stop at the budget):");
    for (ms, q) in &slowest_case {
        println!("  {ms:8.1}  {q}");
    }
    let worst = longest_unit.first().map_or(0.0, |w| w.0);
    if panics > 0 || nan > 0 || worst > 50.0 {
        std::process::exit(1);
    }
}

fn set_current(q: &str) {
    if let Ok(mut c) = CURRENT.lock() {
        q.clone_into(&mut c);
    }
}

/// The `ends` mode (see the module docs).
fn ends(case_ms: f64, only: Option<&str>, all_models: bool) {
    use friction_core::scenario::ControlKind;
    let (mut cases, mut bad) = (0, 0);
    for v in friction_core::views::ALL {
        if only.is_some_and(|o| o != v.name) {
            continue;
        }
        let models: Vec<String> =
            if all_models && matches!(v.kind, friction_core::job::ViewKind::Models) {
                friction_core::registry::registry()
                    .map(|e| e.info.id.to_string())
                    .collect()
            } else {
                vec![String::new()]
            };
        for m in models {
            let base = if m.is_empty() {
                Scenario::parse(&format!("view={}", v.name))
                    .and_then(|mut s| {
                        s.set("view", v.name).map_err(|e| vec![e])?;
                        Ok(s)
                    })
                    .map(|s| s.to_query())
            } else {
                Scenario::parse(&format!("view={}&model={m}", v.name)).map(|s| s.to_query())
            };
            let Ok(base) = base else { continue };
            let s = Scenario::parse(&base).expect("the base parses");
            for c in s.controls() {
                let n = match &c.kind {
                    ControlKind::Number => 1,
                    ControlKind::List { items, .. } => items.len(),
                    _ => continue,
                };
                for x in [c.min, c.max] {
                    let text = vec![format!("{x}"); n].join(",");
                    let q = format!("{base}&{}={text}", c.key);
                    cases += 1;
                    set_current(&q);
                    let t0 = Instant::now();
                    let clock = || t0.elapsed().as_secs_f64() * 1e3;
                    let what = match Scenario::parse(&q) {
                        Err(e) => Some(format!("REFUSED {}", e[0])),
                        Ok(s) => match s.job() {
                            Err(e) => Some(format!("NO JOB {e}")),
                            Ok(mut job) => {
                                while !job.done() && clock() < case_ms {
                                    job.advance(&clock);
                                }
                                if !job.done() {
                                    Some(format!("STOPPED after {:.0} ms", clock()))
                                } else {
                                    job.error().map(|e| format!("FAILED {e}"))
                                }
                            }
                        },
                    };
                    if let Some(w) = what {
                        bad += 1;
                        println!("{q}\n    {w}");
                    }
                }
            }
        }
    }
    println!("{cases} range ends, {bad} refused, failed or stopped");
}
