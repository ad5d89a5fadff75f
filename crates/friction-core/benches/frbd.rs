//! FrBD throughput: SDIRK2 steps per second for n = 1, 3, 10 (GM and GKV), and the time to the
//! three default Fig. 3 loops at the 1e-4 accuracy (target ≤ 1 ms).

#![allow(missing_docs, clippy::unwrap_used)]

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use friction_core::experiments::hysteresis::{self, HysteresisConfig};
use friction_core::experiments::relaxation;
use friction_core::frbd::{self, Contact, Frbd};
use friction_core::integrate::linear::Sdirk2;
use friction_core::scenario::Scenario;

fn model(gkv: bool, n: usize) -> Frbd {
    let k = vec![5.45e4; n];
    if gkv {
        Frbd::Gkv(frbd::Gkv::new(Contact::default(), 6.45e4, &k, &vec![76.3; n]).unwrap())
    } else {
        Frbd::Gm(frbd::Gm::new(Contact::default(), 1e4, &k, &vec![1e-3; n]).unwrap())
    }
}

fn steps(c: &mut Criterion) {
    const STEPS: usize = 1000;
    let mut g = c.benchmark_group("sdirk2_steps");
    g.throughput(Throughput::Elements(STEPS as u64));
    for gkv in [false, true] {
        for n in [1usize, 3, 10] {
            let m = model(gkv, n);
            let name = format!("{}_n{n}", if gkv { "gkv" } else { "gm" });
            let mut st = Sdirk2::new(n + 1);
            let mut x = vec![0.0; n + 1];
            let v: Vec<f64> = (0..=STEPS)
                .map(|k| 0.015 + 0.01 * (k as f64 * 0.0157).cos())
                .collect();
            g.bench_function(&name, |b| {
                b.iter(|| {
                    for k in 0..STEPS {
                        st.step(&m, 2.5e-5, v[k], v[k + 1], &mut x);
                    }
                    black_box(x[0])
                })
            });
        }
    }
    g.finish();
}

fn loops(c: &mut Criterion) {
    let cfg = HysteresisConfig::new(model(false, 1));
    c.bench_function("three_default_loops", |b| {
        b.iter(|| black_box(hysteresis::run(black_box(&cfg))))
    });
    let rcfg = Scenario::parse("view=relaxation")
        .unwrap()
        .relaxation_config()
        .unwrap();
    let mut g = c.benchmark_group("relaxation");
    g.sample_size(10);
    g.bench_function("fig4_default_30s", |b| {
        b.iter(|| black_box(relaxation::run(black_box(&rcfg))))
    });
    g.finish();
}

criterion_group!(benches, steps, loops);
criterion_main!(benches);
