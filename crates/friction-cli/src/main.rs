//! `friction-lab`: runs Friction Lab scenarios natively and prints CSV (or writes an SVG chart).

use std::process::ExitCode;

fn main() -> ExitCode {
    let s = friction_core::stribeck::Stribeck::TABLE_I;
    println!("v,F");
    for i in 0..=400 {
        let v = -0.05 + 0.1 * i as f64 / 400.0;
        println!("{v},{}", s.steady(v, 0.0));
    }
    ExitCode::SUCCESS
}
