use friction_core::experiments::stickslip::{build_for_bench, run_bench, Bench, Workspace};
fn main() {
    let id = std::env::args().nth(1).unwrap();
    let mut b = Bench::TABLE_6_1;
    b.tend = std::env::args()
        .nth(2)
        .and_then(|s| s.parse().ok())
        .unwrap_or(40.0);
    let m = build_for_bench(friction_core::model::find(&id).unwrap(), &b).unwrap();
    match run_bench(&mut Workspace::default(), &b, m.as_ref()) {
        Ok(r) => {
            let n = r.t.len();
            let step = (n / 40).max(1);
            for i in (0..n).step_by(step) {
                println!(
                    "{:.6} {:.6} {:.3e} {:.5}",
                    r.t[i], r.x[i], r.v[i], r.force[i]
                );
            }
            println!("{:?}", r.metrics());
        }
        Err(e) => println!("{e}"),
    }
}
