//! Benchmark (not a test): median wall time of fitting LuGre (4 free parameters, 2,000 samples)
//! and the Stribeck law (4 free, 400 samples) to the records `bench/fit_scipy.py bench` fits.
//!
//! `cargo run --release -p friction-fit --example fit_times -- [N]`

use friction_fit::{parse, run, FitSpec};
use std::time::Instant;

fn main() {
    let n: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(5);
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures");
    for (file, q) in [
        ("stribeck.csv", "model=stribeck&free=mus,muk,vs,bv"),
        ("lugre2000.csv", "model=lugre&free=sigma0,sigma1,muk,mus"),
    ] {
        let text = std::fs::read_to_string(format!("{dir}/{file}")).expect("fixture");
        let data = parse(&text, &[]).expect("record");
        let spec = FitSpec::parse(q, &[]).expect("query");
        let mut times = Vec::new();
        let mut runs = 0;
        for _ in 0..n {
            let t0 = Instant::now();
            let r = run(&spec, &data, &mut |_| true).expect("fit");
            times.push(t0.elapsed().as_secs_f64());
            runs = r.runs;
        }
        times.sort_by(f64::total_cmp);
        println!(
            "{file}: median {:.4} s over {n} fits ({} samples, {runs} model runs per fit)",
            times[n / 2],
            data.len()
        );
    }
}
