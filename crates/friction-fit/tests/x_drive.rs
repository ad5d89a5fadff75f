//! A record with t, x and F but no v: the models are driven by x through a cubic spline
//! between the samples, and the fit recovers the parameters the record was made with.

use friction_fit::{parse, run, ExampleSpec, FitSpec};

/// The example record written as a `t, x, F` file (full precision), parsed back.
fn x_only(example: &str) -> (friction_fit::Data, friction_fit::Data, ExampleSpec) {
    let ex = ExampleSpec::parse(example).expect("example");
    let (data, _) = ex.generate().expect("data");
    let mut csv = String::from("t [s],x [mm],F [N]\n");
    for k in 0..data.len() {
        csv.push_str(&format!(
            "{:e},{:e},{:e}\n",
            data.t[k],
            data.x[k] * 1e3,
            data.f[k]
        ));
    }
    let parsed = parse(&csv, &[]).expect("x-only file");
    (parsed, data, ex)
}

#[test]
fn x_only_file_drives_the_model_by_x_and_lugre_is_recovered() {
    let fit = FitSpec::parse("model=lugre&free=sigma0,sigma1,muk,mus", &[]).expect("fit");
    let mut misses = Vec::new();
    for seed in 1..=3 {
        let (xd, vd, ex) = x_only(&format!(
            "model=lugre&sigma0=5e4&sigma1=200&muk=0.12&mus=0.2&noise=0.01&seed={seed}"
        ));
        assert!(xd.x_drive && !vd.x_drive);
        assert!(
            xd.notes.iter().any(|n| n.contains("driven by x")),
            "{:?}",
            xd.notes
        );
        let rx = run(&fit, &xd, &mut |_| true).expect("fit by x");
        let rv = run(&fit, &vd, &mut |_| true).expect("fit by v");
        assert!(rx.r2 > 0.99, "{}", rx.text());
        for (ex_, ev) in rx.estimates.iter().zip(&rv.estimates) {
            let i = ex
                .entry
                .info
                .params
                .iter()
                .position(|p| p.key == ex_.key)
                .expect("key");
            let truth = ex.values[i];
            if !(ex_.ci.0 <= truth && truth <= ex_.ci.1) {
                misses.push(format!(
                    "seed {seed}: {} {:?} truth {truth}",
                    ex_.key, ex_.ci
                ));
            }
            // the x drive is the same motion as the v drive: the fits agree well inside
            // their errors (x is the trapezoid integral of the sampled v, so not exactly)
            assert!(
                (ex_.value - ev.value).abs() <= 0.5 * ev.se,
                "seed {seed}: {} by x {} ± {}, by v {} ± {}",
                ex_.key,
                ex_.value,
                ex_.se,
                ev.value,
                ev.se
            );
        }
    }
    // 12 checks: at most two outside their 95 % intervals
    assert!(misses.len() <= 2, "{}", misses.join("\n"));
}

/// The displacement-driven model sees the spline's velocity, not per-sample differences: its
/// velocity at the samples is the spline's, which for the example's smooth motion is close to
/// the velocity the record was made with.
#[test]
fn x_only_file_gets_the_spline_velocity() {
    let (xd, vd, _) = x_only("model=lugre&n=400&noise=0.01&seed=1");
    let vmax = vd.v.iter().fold(0.0_f64, |a, b| a.max(b.abs()));
    for k in 5..xd.len() - 5 {
        assert!(
            (xd.v[k] - vd.v[k]).abs() <= 1e-3 * vmax,
            "t = {}: {} vs {}",
            xd.t[k],
            xd.v[k],
            vd.v[k]
        );
    }
}
