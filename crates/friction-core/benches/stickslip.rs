//! Wall time of the 40 s Rabinowicz benchmark per model (Rodas4, rtol = 1e-8), with the solver
//! workspace reused across iterations as the page does.
#![allow(missing_docs)] // criterion_group! generates an undocumented function

use criterion::{criterion_group, criterion_main, Criterion};
use friction_core::experiments::stickslip::{build_for_bench, run_bench, Bench, Workspace};

fn stickslip(c: &mut Criterion) {
    let b = Bench::TABLE_6_1;
    let mut group = c.benchmark_group("stickslip_40s");
    group.sample_size(10);
    for e in friction_core::registry::registry() {
        let Ok(model) = build_for_bench(e, &b) else {
            continue;
        };
        let mut ws = Workspace::default();
        group.bench_function(e.info.id, |bench| {
            bench.iter(|| run_bench(&mut ws, &b, model.as_ref()).map(|r| r.t.len()))
        });
    }
    group.finish();
}

criterion_group!(benches, stickslip);
criterion_main!(benches);
