//! The record's column N drives the model's normal load (`friction_fit::load`): records made
//! with a varying load are fitted back with it, and missed without it; a constant column equal
//! to the model's load changes nothing; a free load is refused and a load set in the query wins
//! with a warning.

use friction_fit::load::load_index;
use friction_fit::{run, Data, ExampleSpec, FitError, FitSpec, Report};

/// The example `ex` (true values, motion, a load varying by ±30 %, 1 % noise) with `seed`.
fn record(ex: &str, seed: u64) -> (ExampleSpec, Data) {
    let spec = ExampleSpec::parse(&format!("{ex}&nvar=0.3&noise=0.01&seed={seed}")).expect("ex");
    let (data, _) = spec.generate().expect("example data");
    assert!(data.normal.is_some(), "the record has a column N");
    (spec, data)
}

fn fit(q: &str, data: &Data) -> Report {
    let spec = FitSpec::parse(q, &[]).expect("fit query");
    run(&spec, data, &mut |_| true).expect("fit")
}

/// The true values of the free parameters that lie outside their 95 % intervals.
fn misses(ex: &ExampleSpec, r: &Report) -> Vec<String> {
    r.estimates
        .iter()
        .filter_map(|e| {
            let i = ex.entry.info.params.iter().position(|p| p.key == e.key)?;
            let truth = ex.values[i];
            (!(e.ci.0 <= truth && truth <= e.ci.1)).then(|| {
                format!(
                    "{} = {} [{}, {}], truth {truth}",
                    e.key, e.value, e.ci.0, e.ci.1
                )
            })
        })
        .collect()
}

/// (a) with column N used, the truth lies in the intervals (at most one miss in ten checks
/// over the seeds); (b) the same records with the column dropped (the model at its constant
/// mean load) fit clearly worse and miss the truth, so (a) could fail.
fn used_and_ignored(ex: &str, q: &str, seeds: u64) {
    let mut checks = 0;
    let mut used_misses = Vec::new();
    for seed in 1..=seeds {
        let (spec, data) = record(ex, seed);
        let used = fit(q, &data);
        let text = used.text();
        assert!(text.contains("from column N"), "{text}");
        assert!(used.r2 > 0.99, "seed {seed}\n{text}");
        checks += used.estimates.len();
        used_misses.extend(
            misses(&spec, &used)
                .into_iter()
                .map(|m| format!("seed {seed}: {m}")),
        );

        let mut without = data.clone();
        without.normal = None;
        let ignored = fit(q, &without);
        assert!(ignored.load.is_none());
        assert!(
            ignored.rms > 5.0 * used.rms,
            "seed {seed}: N ignored gives RMS {} vs {} with N\n{}",
            ignored.rms,
            used.rms,
            ignored.text()
        );
        assert!(
            !misses(&spec, &ignored).is_empty(),
            "seed {seed}: N ignored still covers every truth\n{}",
            ignored.text()
        );
    }
    assert!(
        used_misses.len() <= checks.div_ceil(10),
        "{} of {checks} outside:\n{}",
        used_misses.len(),
        used_misses.join("\n")
    );
}

#[test]
fn stribeck_law_with_a_varying_load() {
    used_and_ignored(
        "model=stribeck&mus=0.3&muk=0.2&vs=0.05&bv=20&vamp=0.5",
        "model=stribeck&free=mus,muk,vs,bv",
        4,
    );
}

#[test]
fn lugre_with_a_varying_load() {
    used_and_ignored(
        "model=lugre&sigma0=5e4&sigma1=200&muk=0.12&mus=0.2",
        "model=lugre&free=sigma0,sigma1,muk,mus",
        3,
    );
}

/// FrBD's load is its `p`, which scales its whole force.
#[test]
fn frbd_gm_with_a_varying_load() {
    used_and_ignored(
        "model=frbd-gm&k0=2e4&k1=3e4&mus=1.3&mud=0.8&vamp=0.05",
        "model=frbd-gm&free=k0,k1,mus,mud",
        2,
    );
}

/// (c) a constant column N equal to the model's default load gives the fit without the column,
/// bit for bit, and says so.
#[test]
fn constant_load_equal_to_the_default_changes_nothing() {
    for (ex, q) in [
        (
            "model=lugre&sigma0=5e4&sigma1=200&muk=0.12&mus=0.2&seed=3",
            "model=lugre&free=sigma0,sigma1,muk,mus",
        ),
        (
            "model=stribeck&mus=0.3&muk=0.2&vs=0.05&bv=20&vamp=0.5&seed=3",
            "model=stribeck&free=mus,muk,vs,bv",
        ),
    ] {
        let ex = ExampleSpec::parse(ex).expect("ex");
        let (data, _) = ex.generate().expect("data");
        let i = load_index(ex.entry).expect("a load parameter");
        let default = ex.entry.info.params[i].default;
        let mut with_n = data.clone();
        with_n.normal = Some(vec![default; data.len()]);
        let (a, b) = (fit(q, &data), fit(q, &with_n));
        assert!(a.fitted == b.fitted, "{q}: the fitted forces differ");
        assert_eq!(a.estimates, b.estimates, "{q}");
        assert_eq!(a.all_values, b.all_values, "{q}");
        assert_eq!(a.rms, b.rms);
        let line = b.load.as_deref().unwrap_or_default();
        assert!(
            line.contains(&format!("F_N from column N: {default} N, constant")),
            "{line}"
        );
    }
}

/// (d) a free load is refused: the column and the parameter are the same quantity.
#[test]
fn a_free_load_is_refused() {
    let (_, data) = record("model=lugre&sigma0=5e4&n=100", 1);
    let spec = FitSpec::parse("model=lugre&free=sigma0,fn", &[]).expect("query");
    let Err(FitError::Bad(e)) = run(&spec, &data, &mut |_| true) else {
        panic!("a free fn with a column N must be refused");
    };
    assert!(e.contains("free: fn") && e.contains("column N"), "{e}");
    // FrBD's load is p
    let (_, data) = record("model=frbd-gm&n=100&vamp=0.05", 1);
    let spec = FitSpec::parse("model=frbd-gm&free=k0,p", &[]).expect("query");
    let Err(FitError::Bad(e)) = run(&spec, &data, &mut |_| true) else {
        panic!("a free p with a column N must be refused");
    };
    assert!(e.contains("free: p") && e.contains("column N"), "{e}");
}

/// (d) a load set in the query wins over the column, with a warning naming both: the fit is
/// the one without the column.
#[test]
fn a_load_set_in_the_query_wins_with_a_warning() {
    let (_, data) = record("model=stribeck&mus=0.3&muk=0.2&vs=0.05&bv=20&vamp=0.5", 1);
    // the record's load varies ±30 % about the model's 100 N; the query asks for 90 N
    let q = "model=stribeck&free=mus,muk&fn=90";
    let r = fit(q, &data);
    assert!(r.load.is_none());
    let warning = r
        .notes
        .iter()
        .find(|n| n.contains("from the query is used"))
        .expect("a warning");
    assert!(
        warning.contains("fn = 90 N") && warning.contains("column N (71.47 to 130 N)"),
        "{warning}"
    );
    let mut without = data.clone();
    without.normal = None;
    assert!(
        fit(q, &without).fitted == r.fitted,
        "the query's fn is used"
    );
}

/// A load outside the model's range (F_N < 0) is refused naming the column and the sample.
#[test]
fn a_load_outside_the_range_is_refused() {
    let (_, mut data) = record("model=lugre&n=50", 1);
    if let Some(n) = data.normal.as_mut() {
        n[7] = -1.0;
    }
    let spec = FitSpec::parse("model=lugre&free=muk", &[]).expect("query");
    let Err(FitError::Bad(e)) = run(&spec, &data, &mut |_| true) else {
        panic!("a negative load must be refused");
    };
    assert!(e.contains("column N") && e.contains("sample 8"), "{e}");
}

/// A record with t, x, F and N but no v: the model is driven by x and its load by N; the
/// parameters are recovered as from the v-driven record, and far worse without N.
#[test]
fn an_x_driven_record_uses_its_column_n() {
    let (spec, data) = record("model=lugre&sigma0=5e4&sigma1=200&muk=0.12&mus=0.2", 2);
    let normal = data.normal.clone().expect("N");
    let mut csv = String::from("t [s],x [m],F [N],N [N]\n");
    for (k, n) in normal.iter().enumerate() {
        csv.push_str(&format!(
            "{:e},{:e},{:e},{n:e}\n",
            data.t[k], data.x[k], data.f[k]
        ));
    }
    let xd = friction_fit::parse(&csv, &[]).expect("x-only file");
    assert!(xd.x_drive && xd.normal.is_some());
    let q = "model=lugre&free=sigma0,sigma1,muk,mus";
    let used = fit(q, &xd);
    assert!(used.load.is_some() && used.r2 > 0.99, "{}", used.text());
    assert!(misses(&spec, &used).len() <= 1, "{}", used.text());
    let mut without = xd.clone();
    without.normal = None;
    assert!(fit(q, &without).rms > 5.0 * used.rms);
}
