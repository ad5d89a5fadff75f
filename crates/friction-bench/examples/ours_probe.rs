//! Our solver alone on the 40 s stick-slip benchmark, for profiling and step statistics
//! (no diffsol runs, so it is quick to repeat under valgrind or perf).
//!
//! `cargo run --release -p friction-bench --example ours_probe -- MODEL [REPEATS] [TOL...]`
//!
//! With REPEATS > 0 it prints, per tolerance, the median thread CPU time, the end-point error
//! against our own 1e-12 run (as the diffsol table measures it), steps, rejected steps, RHS
//! evaluations and located events. With REPEATS = 0 it runs each tolerance once without the
//! reference and prints x(40) to 17 digits (with the breakaway time and period): the run to count instructions of
//! (`valgrind --tool=callgrind`) and to check that a change is bit-identical.

use cpu_time::ThreadTime;
use friction_core::experiments::stickslip::{build_for_bench, run_bench, Bench, Workspace};

/// The scipy ladder the benchmark uses for our solver.
const LADDER: [f64; 13] = [
    1e-10, 2e-10, 5e-10, 1e-9, 2e-9, 5e-9, 1e-8, 2e-8, 5e-8, 1e-7, 2e-7, 5e-7, 1e-6,
];

fn main() {
    if let Err(e) = run() {
        eprintln!("ours_probe: {e}");
        std::process::exit(2);
    }
}

fn run() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let id = args.first().map_or("lugre", String::as_str);
    let reps: usize = match args.get(1) {
        Some(a) => a
            .parse()
            .map_err(|_| format!("REPEATS: not a count: {a}"))?,
        None => 20,
    };
    let tols: Vec<f64> = if args.len() > 2 {
        args[2..]
            .iter()
            .map(|a| a.parse().map_err(|_| format!("not a tolerance: {a}")))
            .collect::<Result<_, _>>()?
    } else {
        LADDER.to_vec()
    };
    let b = Bench::TABLE_6_1;
    let entry = friction_core::registry::registry()
        .find(|e| e.info.id == id)
        .ok_or_else(|| format!("no model {id}"))?;
    let model = build_for_bench(entry, &b).map_err(|e| e.to_string())?;
    let model = model.as_ref();
    let mut ws = Workspace::default();
    let once = |ws: &mut Workspace, tol: f64| {
        ws.tolerance = Some(tol);
        run_bench(ws, &b, model).map_err(|e| e.to_string())
    };
    if reps == 0 {
        for tol in tols {
            let r = once(&mut ws, tol)?;
            let x = r.x.last().copied().unwrap_or(f64::NAN);
            let m = r.metrics();
            if std::env::var_os("PROBE_TRACE").is_some() {
                for i in 0..r.t.len() {
                    eprintln!(
                        "{:.9} {:.12e} {:.6e} {:.6e}",
                        r.t[i], r.x[i], r.v[i], r.force[i]
                    );
                }
            }
            println!(
                "{tol:e} x_end {x:.17e} steps {} breakaway {:.12} period {:.12}",
                m.steps, m.breakaway_time, m.period
            );
        }
        return Ok(());
    }
    let x_ref = once(&mut ws, 1e-12)?.x.last().copied().unwrap_or(f64::NAN);
    println!("{id}: x_ref {x_ref:.15e}");
    println!(
        "{:>8} {:>8} {:>8} {:>6} {:>5} {:>7} {:>4} {:>6} {:>7}",
        "tol", "cpu ms", "err", "steps", "rej", "rhs", "ev", "rhs/st", "us/step"
    );
    for tol in tols {
        let mut times = Vec::with_capacity(reps);
        let mut last = None;
        for _ in 0..reps {
            let c0 = ThreadTime::now();
            let r = once(&mut ws, tol)?;
            times.push(c0.elapsed().as_secs_f64() * 1e3);
            last = Some(r);
        }
        let r = last.ok_or("no run")?;
        let m = r.metrics();
        let ms = friction_bench::median(&mut times);
        let err = (r.x.last().copied().unwrap_or(f64::NAN) - x_ref).abs();
        println!(
            "{tol:>8.0e} {ms:>8.3} {err:>8.1e} {:>6} {:>5} {:>7} {:>4} {:>6.2} {:>7.3}",
            m.steps,
            m.rejected,
            m.fevals,
            m.events,
            m.fevals as f64 / m.steps as f64,
            ms * 1e3 / m.steps as f64
        );
    }
    Ok(())
}
