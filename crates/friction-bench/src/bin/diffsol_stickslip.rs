//! Work–precision comparison of Friction Lab's Rodas solver with diffsol (BDF, TR-BDF2,
//! ESDIRK34; nalgebra dense LU) on the 40 s Rabinowicz stick-slip benchmark, for LuGre, Dahl,
//! elasto-plastic and GMS (issue 18, point 5).
//!
//! Usage: `cargo run --release -p friction-bench --bin diffsol_stickslip -- [repeats] [ids…]`
//!
//! Both solvers integrate the identical system: y = \[x, ẋ, z…\], the model's right-hand side and
//! analytic partials through the core's public `FrictionModel` interface (diffsol gets J·w from
//! the same partials), rtol = atol = tol, atol scaled per state as the core scales it. Error
//! measure as in the scipy table: |x(40) − x_ref(40)|, x_ref from our solver at tol 1e-12.
//! For a micro-slip law (LuGre, elasto-plastic) the core weighs ẋ's error by
//! atol × v_b/10 + rtol × |ẋ − v_b|; diffsol's norm is atol + rtol × |y|, so each of its methods
//! runs twice: on y = \[x, ẋ, z…\] (`bdf`, …) and on y = \[x, v, z…\] with v = ẋ − v_b
//! (`bdf:v`, …), where its norm is the core's; the matched-accuracy rule takes the fastest of all.
//! Switches: GMS's mode flips are discrete updates, so diffsol stops at the roots of the
//! model's switching functions (its root finder), applies the update to every switch that
//! crossed, and restarts from the updated state; elasto-plastic's switch (v = 0) only marks a
//! kink and diffsol integrates straight through it (as scipy does in bench/scipy_stickslip.py),
//! while our solver locates it. Times: thread CPU time (the machine is shared; wall time is
//! printed beside it), median over at least `repeats` runs of one solve each,
//! fast ones repeated until their runs add up to 0.3 s (diffsol:
//! solver construction, which evaluates the initial Jacobian, plus the solve; ours: `run_bench`
//! with the workspace reused, recording its full time series as the page does).

use cpu_time::ThreadTime;
use diffsol::{
    NalgebraLU, NalgebraMat, OdeBuilder, OdeEquations, OdeSolverMethod, OdeSolverStopReason,
};
use friction_bench::{median, Belt};
use friction_core::experiments::stickslip::{build_for_bench, run_bench, Bench, Workspace};
use friction_core::model::FrictionModel;
use std::time::Instant;

type M = NalgebraMat<f64>;
type Ls = NalgebraLU<f64>;

const MODELS: [&str; 4] = ["lugre", "dahl", "elasto-plastic", "gms"];
/// Our tolerances (the scipy ladder).
const OURS: [f64; 13] = [
    1e-10, 2e-10, 5e-10, 1e-9, 2e-9, 5e-9, 1e-8, 2e-8, 5e-8, 1e-7, 2e-7, 5e-7, 1e-6,
];
/// diffsol's tolerances: tighter at the top (its methods are of order 2–5) and looser below.
const THEIRS: [f64; 12] = [
    1e-12, 1e-11, 1e-10, 1e-9, 1e-8, 1e-7, 1e-6, 1e-5, 1e-4, 1e-3, 3e-3, 1e-2,
];
const METHODS: [&str; 6] = [
    "bdf",
    "tr_bdf2",
    "esdirk34",
    "bdf:v",
    "tr_bdf2:v",
    "esdirk34:v",
];
/// Step budget of a diffsol run (its default, 5,000, stops every tight run of 40 s); the core's
/// own budget for the benchmark.
const MAX_STEPS: usize = friction_core::experiments::stickslip::MAX_STEPS;
/// Fast configurations are repeated until their runs add up to this much \[ms\].
const MIN_TOTAL_MS: f64 = 300.0;
/// A diffsol run taking longer than this is not repeated and not tried at tighter tolerances.
const SLOW_S: f64 = 20.0;

#[derive(Clone, Copy, Debug)]
struct Run {
    tol: f64,
    /// Thread CPU time \[ms\] (median).
    ms: f64,
    /// Wall time \[ms\] (median), for comparison.
    wall: f64,
    x_end: f64,
    steps: usize,
    rhs: usize,
    jac: usize,
    roots: usize,
}

/// One diffsol solve to t_end; (x(t_end), steps, roots).
fn solve_diffsol<'a, Eqn, S>(
    mut s: S,
    belt: &Belt<'_>,
    tend: f64,
) -> Result<(f64, usize, usize), String>
where
    Eqn: OdeEquations<M = M, V = diffsol::NalgebraVec<f64>, T = f64, C = diffsol::NalgebraContext>
        + 'a,
    S: OdeSolverMethod<'a, Eqn>,
{
    let nsw = if belt.switches_update() {
        belt.n_switches()
    } else {
        0
    };
    let n = belt.dim();
    let mut g_prev = vec![0.0; nsw];
    let mut g_now = vec![0.0; nsw];
    let mut y = vec![0.0; n];
    let mut dy = vec![0.0; n];
    if nsw > 0 {
        belt.switches(s.state().y.batch_as_slice(0), &mut g_prev);
    }
    s.set_stop_time(tend).map_err(|e| e.to_string())?;
    let mut roots = 0;
    loop {
        match s.step().map_err(|e| e.to_string())? {
            OdeSolverStopReason::InternalTimestep => {
                if nsw > 0 {
                    belt.switches(s.state().y.batch_as_slice(0), &mut g_prev);
                }
            }
            OdeSolverStopReason::TstopReached => break,
            OdeSolverStopReason::RootFound(t, idx) => {
                roots += 1;
                if roots > 1_000_000 {
                    return Err(format!("more than a million roots by t = {t}"));
                }
                s.state_mut_back(t).map_err(|e| e.to_string())?;
                y.copy_from_slice(s.state().y.batch_as_slice(0));
                belt.switches(&y, &mut g_now);
                // The reported switch and every other that crossed within the same step (all
                // sliding GMS elements at a velocity reversal) fire, in index order, each with
                // the direction it crossed in.
                for j in 0..nsw {
                    let crossed = (g_now[j] >= 0.0) != (g_prev[j] >= 0.0)
                        || g_now[j].abs() <= 1e-12 * (1.0 + g_prev[j].abs());
                    if j == idx || crossed {
                        belt.on_switch(j, g_prev[j] < 0.0, &mut y);
                    }
                }
                belt.rhs(&y, &mut dy);
                {
                    let st = s.state_mut();
                    st.y.batch_as_mut_slice(0).copy_from_slice(&y);
                    st.dy.batch_as_mut_slice(0).copy_from_slice(&dy);
                }
                belt.switches(&y, &mut g_prev);
                if t < tend {
                    s.set_stop_time(tend).map_err(|e| e.to_string())?;
                } else {
                    break;
                }
            }
        }
    }
    let steps = s.get_statistics().number_of_steps;
    Ok((s.state().y[0], steps, roots))
}

fn diffsol_run(
    model: &dyn FrictionModel,
    b: &Bench,
    method: &str,
    tol: f64,
) -> Result<Run, String> {
    let (method, vrel) = match method.strip_suffix(":v") {
        Some(m) => (m, true),
        None => (method, false),
    };
    let belt = Belt::with_coordinates(model, b, vrel).ok_or("model not supported")?;
    let n = belt.dim();
    let nsw = if belt.switches_update() {
        belt.n_switches()
    } else {
        0
    };
    let y0 = {
        let mut y = vec![0.0; n];
        belt.initial(&mut y);
        y
    };
    let builder = OdeBuilder::<M>::new()
        .rtol(tol)
        .atol(belt.atol(tol))
        .h0(1e-6)
        .rhs_implicit(
            |y: &[f64], _p: &[f64], _t: f64, dy: &mut [f64]| belt.rhs(y, dy),
            |y: &[f64], _p: &[f64], _t: f64, w: &[f64], out: &mut [f64]| belt.jvp(y, w, out),
        )
        .init(
            move |_p: &[f64], _t: f64, y: &mut [f64]| y.copy_from_slice(&y0),
            n,
        );
    let t0 = Instant::now();
    let c0 = ThreadTime::now();
    let (x_end, steps, roots) = if nsw > 0 {
        let mut problem = builder
            .root(
                |y: &[f64], _p: &[f64], _t: f64, g: &mut [f64]| belt.switches(y, g),
                nsw,
            )
            .build()
            .map_err(|e| e.to_string())?;
        problem.ode_options.max_number_timesteps = MAX_STEPS;
        match method {
            "bdf" => solve_diffsol(
                problem.bdf::<Ls>().map_err(|e| e.to_string())?,
                &belt,
                b.tend,
            ),
            "tr_bdf2" => solve_diffsol(
                problem.tr_bdf2::<Ls>().map_err(|e| e.to_string())?,
                &belt,
                b.tend,
            ),
            _ => solve_diffsol(
                problem.esdirk34::<Ls>().map_err(|e| e.to_string())?,
                &belt,
                b.tend,
            ),
        }?
    } else {
        let mut problem = builder.build().map_err(|e| e.to_string())?;
        problem.ode_options.max_number_timesteps = MAX_STEPS;
        match method {
            "bdf" => solve_diffsol(
                problem.bdf::<Ls>().map_err(|e| e.to_string())?,
                &belt,
                b.tend,
            ),
            "tr_bdf2" => solve_diffsol(
                problem.tr_bdf2::<Ls>().map_err(|e| e.to_string())?,
                &belt,
                b.tend,
            ),
            _ => solve_diffsol(
                problem.esdirk34::<Ls>().map_err(|e| e.to_string())?,
                &belt,
                b.tend,
            ),
        }?
    };
    let ms = c0.elapsed().as_secs_f64() * 1e3;
    let wall = t0.elapsed().as_secs_f64() * 1e3;
    Ok(Run {
        tol,
        ms,
        wall,
        x_end,
        steps,
        rhs: belt.rhs_calls.get(),
        jac: belt.jvp_calls.get(),
        roots,
    })
}

/// Whether to time once more: at least `repeats` runs, and fast runs until they add up to
/// [`MIN_TOTAL_MS`] (a 1 ms run is timed a few hundred times; on a shared machine the median of
/// many is what holds still between runs of this binary).
fn more(times: &[f64], repeats: usize) -> bool {
    let total: f64 = times.iter().sum();
    times.len() < repeats.max(1) || (total < MIN_TOTAL_MS && times.len() < 1000)
}

fn timed_diffsol(
    model: &dyn FrictionModel,
    b: &Bench,
    method: &str,
    tol: f64,
    repeats: usize,
) -> Result<Run, String> {
    let first = diffsol_run(model, b, method, tol)?;
    let mut times = vec![first.ms];
    let mut walls = vec![first.wall];
    if first.ms < SLOW_S * 1e3 {
        while more(&times, repeats) {
            let r = diffsol_run(model, b, method, tol)?;
            times.push(r.ms);
            walls.push(r.wall);
        }
    }
    Ok(Run {
        ms: median(&mut times),
        wall: median(&mut walls),
        ..first
    })
}

fn ours(model: &dyn FrictionModel, b: &Bench, tol: f64, repeats: usize) -> Result<Run, String> {
    let mut ws = Workspace {
        tolerance: Some(tol),
        ..Workspace::default()
    };
    let mut times = Vec::new();
    let mut walls = Vec::new();
    let mut last = None;
    while more(&times, repeats) {
        let t0 = Instant::now();
        let c0 = ThreadTime::now();
        let r = run_bench(&mut ws, b, model).map_err(|e| e.to_string())?;
        times.push(c0.elapsed().as_secs_f64() * 1e3);
        walls.push(t0.elapsed().as_secs_f64() * 1e3);
        last = Some(r);
    }
    let r = last.ok_or("no run")?;
    let m = r.metrics();
    Ok(Run {
        tol,
        ms: median(&mut times),
        wall: median(&mut walls),
        x_end: r.x.last().copied().unwrap_or(f64::NAN),
        steps: m.steps,
        rhs: m.fevals,
        jac: 0,
        roots: m.events,
    })
}

/// One untimed run of ours at `tol` (the reference solutions).
fn reference(model: &dyn FrictionModel, b: &Bench, tol: f64) -> Result<Run, String> {
    let mut ws = Workspace {
        tolerance: Some(tol),
        ..Workspace::default()
    };
    let r = run_bench(&mut ws, b, model).map_err(|e| e.to_string())?;
    Ok(Run {
        tol,
        ms: f64::NAN,
        wall: f64::NAN,
        x_end: r.x.last().copied().unwrap_or(f64::NAN),
        steps: r.metrics().steps,
        rhs: r.metrics().fevals,
        jac: 0,
        roots: r.metrics().events,
    })
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let repeats: usize = args.first().and_then(|a| a.parse().ok()).unwrap_or(5);
    let ids: Vec<&str> = args.iter().skip(1).map(String::as_str).collect();
    let b = Bench::TABLE_6_1;
    println!(
        "# diffsol 0.19.0 (nalgebra dense LU) vs Friction Lab Rodas, 40 s Rabinowicz benchmark; \
         times = thread CPU time (wall beside it), median of at least {repeats} runs, fast ones repeated until they add up to {MIN_TOTAL_MS} ms"
    );
    println!("# err = |x(40) - x_ref(40)|, x_ref = ours at tol 1e-12 ('ref +-': distance to ours at 1e-11)");
    let mut summary = Vec::new();
    for id in MODELS {
        if !ids.is_empty() && !ids.contains(&id) {
            continue;
        }
        let Some(entry) = friction_core::registry::registry().find(|e| e.info.id == id) else {
            println!("{id}: not in the registry");
            continue;
        };
        let model = match build_for_bench(entry, &b) {
            Ok(m) => m,
            Err(e) => {
                println!("{id}: {e}");
                continue;
            }
        };
        let model = model.as_ref();
        let (r12, r11) = match (reference(model, &b, 1e-12), reference(model, &b, 1e-11)) {
            (Ok(a), Ok(c)) => (a, c),
            (a, c) => {
                println!("{id}: reference failed: {:?} {:?}", a.err(), c.err());
                continue;
            }
        };
        let x_ref = r12.x_end;
        println!();
        println!(
            "## {id}: x_ref = {x_ref:.15e}, ref +- {:.1e}",
            (r12.x_end - r11.x_end).abs()
        );
        println!(
            "{:<10} {:>8} {:>10} {:>10} {:>9} {:>8} {:>9} {:>8} {:>7}",
            "solver", "tol", "cpu ms", "wall ms", "err", "steps", "rhs", "jvp", "roots"
        );
        let mut mine = Vec::new();
        for &tol in &OURS {
            match ours(model, &b, tol, repeats) {
                Ok(r) => {
                    println!(
                        "{:<10} {:>8.0e} {:>10.3} {:>10.3} {:>9.1e} {:>8} {:>9} {:>8} {:>7}",
                        "ours",
                        tol,
                        r.ms,
                        r.wall,
                        (r.x_end - x_ref).abs(),
                        r.steps,
                        r.rhs,
                        "-",
                        r.roots
                    );
                    mine.push(r);
                }
                Err(e) => println!("{:<10} {:>8.0e} failed: {e}", "ours", tol),
            }
        }
        let mut theirs: Vec<(&str, Run)> = Vec::new();
        for method in METHODS {
            // loosest first, so that a run over the time limit stops the tighter ones
            for &tol in THEIRS.iter().rev() {
                match timed_diffsol(model, &b, method, tol, repeats) {
                    Ok(r) => {
                        println!(
                            "{:<10} {:>8.0e} {:>10.3} {:>10.3} {:>9.1e} {:>8} {:>9} {:>8} {:>7}",
                            method,
                            tol,
                            r.ms,
                            r.wall,
                            (r.x_end - x_ref).abs(),
                            r.steps,
                            r.rhs,
                            r.jac,
                            r.roots
                        );
                        let slow = r.ms > SLOW_S * 1e3;
                        theirs.push((method, r));
                        if slow {
                            println!(
                                "{:<10} tighter tolerances skipped (over {SLOW_S} s)",
                                method
                            );
                            break;
                        }
                    }
                    Err(e) => println!("{:<10} {:>8.0e} failed: {e}", method, tol),
                }
            }
        }
        // Matched accuracy: for each of our tolerances, diffsol's fastest run (any method, any
        // tolerance) whose error is at most ours.
        println!("matched accuracy (for each of our tolerances: diffsol's fastest run with err <= ours):");
        println!(
            "{:>8} {:>9} {:>10}   {:<20} {:>10} {:>7}",
            "our tol", "our err", "our cpu ms", "diffsol best", "its cpu ms", "ratio"
        );
        let mut ratios = Vec::new();
        let mut at_bench = f64::NAN;
        let mut unmatched = 0;
        for r in &mine {
            let e = (r.x_end - x_ref).abs();
            let best = theirs
                .iter()
                .filter(|(_, d)| (d.x_end - x_ref).abs() <= e)
                .min_by(|a, b| a.1.ms.total_cmp(&b.1.ms));
            match best {
                Some((m, d)) => {
                    let ratio = d.ms / r.ms;
                    ratios.push(ratio);
                    if r.tol == 1e-8 {
                        at_bench = ratio;
                    }
                    println!(
                        "{:>8.0e} {:>9.1e} {:>10.3}   {:<20} {:>10.3} {:>7.1}",
                        r.tol,
                        e,
                        r.ms,
                        format!("{m}@{:.0e}", d.tol),
                        d.ms,
                        ratio
                    );
                }
                None => {
                    unmatched += 1;
                    println!(
                        "{:>8.0e} {:>9.1e} {:>10.3}   {:<20} {:>10} {:>7}",
                        r.tol, e, r.ms, "none as accurate", "-", "-"
                    )
                }
            }
        }
        let tightest = theirs
            .iter()
            .filter(|(_, d)| d.tol == THEIRS[0])
            .map(|(m, d)| format!("{m} {:.1e}", (d.x_end - x_ref).abs()))
            .collect::<Vec<_>>()
            .join(", ");
        println!(
            "diffsol at tol {:.0e} against the reference: {tightest}",
            THEIRS[0]
        );
        let worst = ratios.iter().copied().fold(f64::INFINITY, f64::min);
        let mid = median(&mut ratios);
        summary.push((id, worst, mid, at_bench, unmatched));
    }
    println!();
    println!("summary: ratio = diffsol's fastest matching run / ours, over our 13 tolerances 1e-10 ... 1e-6");
    println!(
        "{:<16} {:>9} {:>9} {:>10} {:>10}  target >= 3x",
        "model", "smallest", "median", "at 1e-8", "unmatched"
    );
    for (id, w, m, b8, u) in summary {
        println!(
            "{id:<16} {w:>8.1}x {m:>8.1}x {b8:>9.1}x {u:>10}  {}",
            if w >= 3.0 {
                "met everywhere"
            } else if m >= 3.0 {
                "met at the median, not everywhere"
            } else {
                "not met"
            }
        );
    }
}
