//! Times the 40 s stick-slip benchmark for every registry model (used by
//! `bench/scipy_stickslip.py`). Prints CSV: id,median_ms,min_ms,steps,rejected,fevals,events,
//! breakaway_time,breakaway_force,first_xmax_time,first_xmax,period,x_end.
//!
//! Usage: `cargo run --release -p friction-core --example stickslip_times [--tol T] [repeats] [ids…]`
//! (`--tol` replaces rtol = atol = 1e-8, for work–precision comparisons).

use friction_core::experiments::stickslip::{build_for_bench, run_bench, Bench, Workspace};
use std::time::Instant;

fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let mut tolerance = None;
    if let Some(i) = args.iter().position(|a| a == "--tol") {
        let value = args.get(i + 1).and_then(|v| v.parse::<f64>().ok());
        match value {
            Some(t) if t > 0.0 && t < 1.0 => tolerance = Some(t),
            _ => {
                eprintln!("--tol needs a number in (0, 1)");
                std::process::exit(2);
            }
        }
        args.drain(i..i + 2);
    }
    let repeats: usize = args.first().and_then(|a| a.parse().ok()).unwrap_or(5);
    let ids: Vec<&str> = args.iter().skip(1).map(String::as_str).collect();
    let b = Bench::TABLE_6_1;
    let mut ws = Workspace {
        tolerance,
        ..Workspace::default()
    };
    println!("id,median_ms,min_ms,steps,rejected,fevals,events,breakaway_time,breakaway_force,first_xmax_time,first_xmax,period,x_end");
    for e in friction_core::registry::registry() {
        if !ids.is_empty() && !ids.contains(&e.info.id) {
            continue;
        }
        let model = match build_for_bench(e, &b) {
            Ok(m) => m,
            Err(err) => {
                eprintln!("{}: {err}", e.info.id);
                continue;
            }
        };
        let mut times = Vec::new();
        let mut last = None;
        for _ in 0..repeats.max(1) {
            let t0 = Instant::now();
            let r = run_bench(&mut ws, &b, model.as_ref());
            times.push(t0.elapsed().as_secs_f64() * 1e3);
            last = Some(r);
        }
        times.sort_by(|a, b| a.total_cmp(b));
        match last {
            Some(Ok(r)) => {
                let m = r.metrics();
                println!(
                    "{},{:.4},{:.4},{},{},{},{},{},{},{},{},{},{}",
                    e.info.id,
                    times[times.len() / 2],
                    times[0],
                    m.steps,
                    m.rejected,
                    m.fevals,
                    m.events,
                    m.breakaway_time,
                    m.breakaway_force,
                    m.first_xmax_time,
                    m.first_xmax,
                    m.period,
                    r.x.last().copied().unwrap_or(f64::NAN)
                );
            }
            Some(Err(err)) => println!("{},FAILED: {err}", e.info.id),
            None => {}
        }
    }
}
