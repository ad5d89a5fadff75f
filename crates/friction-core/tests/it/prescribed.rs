//! The prescribed-motion experiment and its two views (`view=prescribed`, `view=sweep`): energy
//! balance of every dynamic model's steady cycle, the collapse onto the steady curve at low
//! frequency, Masing's rules for the Maxwell-slip models, agreement with the hysteresis view to
//! the last bit, and the FrBD letter's Fig. 3 claims.

#![allow(clippy::unwrap_used)] // tests may panic on a broken invariant

use friction_core::experiments::hysteresis::{self, FreqUnit};
use friction_core::experiments::prescribed::{log_grid, run, Cycle, Drive, Excitation};
use friction_core::frbd::{Frbd, Passive};
use friction_core::job::{Job, Output};
use friction_core::model::{Category, FrictionModel, ModelEntry};
use friction_core::registry::{find, registry};
use friction_core::scenario::Scenario;

fn dynamic_models() -> Vec<&'static ModelEntry> {
    registry()
        .filter(|e| matches!(e.info.category, Category::Dynamic | Category::Frbd))
        .collect()
}

/// The entry's default model, and as the FrBD enum where it is one.
fn built(e: &ModelEntry) -> (Box<dyn FrictionModel>, Option<Frbd>) {
    let values: Vec<f64> = e.info.params.iter().map(|p| p.default).collect();
    let m = (e.build)(&values).unwrap();
    let frbd = Frbd::from_registry(e.info.id, &values).map(|r| r.unwrap());
    (m, frbd)
}

fn velocity(v_mean: f64, v_amp: f64) -> Drive {
    Drive::new(Excitation::Velocity { v_mean, v_amp }, FreqUnit::Hz)
}

fn finished(query: &str) -> Box<dyn Job> {
    let s = Scenario::parse(query).unwrap();
    let mut job = s.job().unwrap();
    while !job.done() {
        job.advance(&|| 0.0);
    }
    job
}

fn cycles_of(job: &dyn Job) -> Vec<Cycle> {
    match job.output() {
        Output::Prescribed { cycles, .. } => cycles.into_iter().map(|(_, c)| c).collect(),
        other => panic!("not a prescribed output: {other:?}"),
    }
}

/// ∮F v dt of every dynamic model's steady cycle under a reversing velocity is the energy its
/// model dissipates: for the FrBD models (which define a storage V and a dissipation rate D with
/// dV/dt = F v − D) it equals ∮D dt over the same samples, for the others it is ≥ 0.
#[test]
fn steady_cycles_dissipate_what_the_models_say() {
    for (v_mean, v_amp, f) in [(0.0, 0.01, 25.0), (0.0, 0.002, 5.0), (0.015, 0.01, 50.0)] {
        let drive = velocity(v_mean, v_amp);
        for e in dynamic_models() {
            let (m, frbd) = built(e);
            let c = run(m.as_ref(), frbd.as_ref(), &drive, f).unwrap();
            let id = e.info.id;
            let energy = c.metrics.energy;
            assert!(energy.is_finite(), "{id}: {energy}");
            let scale = c.f.iter().fold(0.0_f64, |a, x| a.max(x.abs())) * v_amp / f;
            if let Some(model) = &frbd {
                let h = c.t[1] - c.t[0];
                let n = c.t.len() - 1;
                let mut dissipated = 0.0;
                for k in 0..n {
                    let x: Vec<f64> = c.states.iter().map(|s| s[k]).collect();
                    dissipated += model.dissipation(c.v[k], &x) * h;
                }
                assert!(
                    (energy - dissipated).abs() <= 1e-3 * dissipated.abs() + 1e-9 * scale,
                    "{id} at {v_mean} ± {v_amp}, {f} Hz: ∮Fv dt = {energy}, ∮D dt = {dissipated}"
                );
                // and the storage returns to its value over the cycle
                let x = |k: usize| -> Vec<f64> { c.states.iter().map(|s| s[k]).collect() };
                let dv = model.storage(&x(n)) - model.storage(&x(0));
                assert!(
                    dv.abs() <= 1e-6 * dissipated.abs() + 1e-12,
                    "{id}: ΔV = {dv}"
                );
            } else {
                assert!(
                    energy >= -1e-9 * scale,
                    "{id} at {v_mean} ± {v_amp}, {f} Hz: generates {energy} J per cycle"
                );
            }
        }
    }
}

/// At 0.001 Hz every dynamic model's loop lies on its steady curve F_ss(v) (the force it settles
/// to at each constant velocity, from rest, 21 velocities), except the bristle model, whose
/// saw-tooth force has no steady state.
///
/// The reference is the same experiment at constant velocity (v_amp = 0, one "cycle" = 1000 s
/// of sliding), not the curve view's settled points: those are reached in constant-velocity
/// slides between which a switch that depends on v does not fire (Liang's F_s → F_C projection
/// when |v| rises through v0), so Liang's curve there stays at F_s above v0.
#[test]
fn slow_loops_collapse_onto_the_steady_curve() {
    for e in dynamic_models() {
        let id = e.info.id;
        if id == "bristle" {
            continue;
        }
        let (m, frbd) = built(e);
        // around 1.5 v_S of each model: where its Stribeck curve falls
        let v_s = e
            .info
            .params
            .iter()
            .find(|p| p.key == "vs")
            .map_or(1e-3, |p| p.default);
        let (v_mean, v_amp) = (1.5 * v_s, v_s);
        let c = run(m.as_ref(), frbd.as_ref(), &velocity(v_mean, v_amp), 1e-3).unwrap();
        assert!(c.converged, "{id}");
        let steady: Vec<(f64, f64)> = (0..=20)
            .map(|i| {
                let v = v_mean - v_amp + 2.0 * v_amp * i as f64 / 20.0;
                let s = run(m.as_ref(), frbd.as_ref(), &velocity(v, 0.0), 1e-3).unwrap();
                (v, s.f[s.f.len() - 1])
            })
            .collect();
        let at = |v: f64| {
            let i = steady
                .windows(2)
                .position(|w| v <= w[1].0)
                .unwrap_or(steady.len() - 2);
            let (a, b) = (steady[i], steady[i + 1]);
            a.1 + (b.1 - a.1) * (v - a.0) / (b.0 - a.0)
        };
        let top = c.f.iter().fold(0.0_f64, |a, x| a.max(x.abs()));
        // where F jumps with v (Liang at v0) a linear interpolation between the 21 points is
        // off over one interval: judge the samples by the nearer of the interpolation and the
        // two neighbouring points
        let off = |v: f64, f: f64| {
            let i = steady
                .iter()
                .position(|p| p.0 >= v)
                .unwrap_or(steady.len() - 1);
            let near = [at(v), steady[i].1, steady[i.saturating_sub(1)].1];
            near.iter()
                .map(|g| (f - g).abs())
                .fold(f64::INFINITY, f64::min)
        };
        let worst =
            c.v.iter()
                .zip(&c.f)
                .map(|(&v, &f)| off(v, f))
                .fold(0.0, f64::max);
        assert!(
            worst <= 0.01 * top,
            "{id}: off the steady curve by {worst} N of {top} N"
        );
        // and the loop has (almost) no area left
        let box_area = (c.metrics.fmax - c.metrics.fmin).max(1e-3 * top) * 2.0 * v_amp;
        assert!(
            c.metrics.area.abs() <= 0.02 * box_area,
            "{id}: area {} of {box_area}",
            c.metrics.area
        );
    }
}

/// Masing's rules under x = x_amp·sin ωt: the branch after a reversal at (x_r, F_r) is the
/// virgin curve F_v, doubled in both directions, F = F_r ∓ 2 F_v(|x − x_r|/2). Exact for the
/// elasto-slip element (Maxwell), within the slip elements' relaxation and damping for GMS at
/// low speed; a Dahl-type model (LuGre) does not obey them.
#[test]
fn maxwell_slip_loops_obey_masings_rules() {
    let check = |id: &str, values: &[(&str, f64)], x_amp: f64, f: f64| -> (f64, f64) {
        let e = find(id).unwrap();
        let m = e.build_with(values).unwrap();
        let drive = Drive::new(Excitation::Displacement { x_amp }, FreqUnit::Hz);
        let c = run(m.as_ref(), None, &drive, f).unwrap();
        assert!(c.converged, "{id}");
        let n = c.t.len() - 1;
        // the virgin curve: the first quarter cycle from rest, x rising from 0 to x_amp
        let virgin: Vec<(f64, f64)> = (0..=n / 4).map(|k| (c.x[k], c.first[k])).collect();
        let fv = |x: f64| {
            let i = virgin
                .windows(2)
                .position(|w| x <= w[1].0)
                .unwrap_or(virgin.len() - 2);
            let (a, b) = (virgin[i], virgin[i + 1]);
            a.1 + (b.1 - a.1) * (x - a.0) / (b.0 - a.0)
        };
        // steady cycle: reversal at x_amp (t = T/4) and at −x_amp (t = 3T/4)
        let (up, down) = (c.f[n / 4], c.f[3 * n / 4]);
        let top = c.metrics.fmax - c.metrics.fmin;
        let mut worst: f64 = 0.0;
        for k in n / 4..=3 * n / 4 {
            worst = worst.max((c.f[k] - (up - 2.0 * fv((x_amp - c.x[k]) / 2.0))).abs());
        }
        for k in (3 * n / 4..=n).chain(0..=n / 4) {
            worst = worst.max((c.f[k] - (down + 2.0 * fv((c.x[k] + x_amp) / 2.0))).abs());
        }
        // the steady loop's tip is the virgin curve's
        (worst / top, (up - fv(x_amp)).abs() / top)
    };
    // one elasto-slip element, Δ = μ F_N/k = 1.47 mm: saturated on both sides
    let maxwell = check("maxwell", &[], 4e-3, 1.0);
    // (linear interpolation of the virgin curve across its kink at Δ: 3e-4 of the loop)
    assert!(maxwell.0 < 1e-3 && maxwell.1 < 1e-9, "Maxwell: {maxwell:?}");
    // GMS, ten elements saturating from 2.7e-6 to 2.7e-5 m, at 0.1 Hz (v ≤ 2.5e-5 m/s, so that
    // F_ss(v) ≈ F_s and σ1 v is 0.5 % of it)
    let gms = check("gms", &[], 4e-5, 0.1);
    assert!(gms.0 < 0.01 && gms.1 < 0.01, "GMS: {gms:?}");
    // without the element damping, only the slip relaxation remains
    let gms_undamped = check("gms", &[("sigma1", 0.0)], 4e-5, 0.1);
    assert!(
        gms_undamped.0 < 0.002 && gms_undamped.1 < 0.002,
        "GMS, σ1 = 0: {gms_undamped:?}"
    );
    // LuGre's Dahl-type branches are exponentials of the distance from the reversal, not doubled
    // virgin curves
    let lugre = check("lugre", &[], 4e-5, 0.1);
    assert!(lugre.0 > 0.05, "LuGre: {lugre:?}");
}

/// The FrBD models' loops through `view=prescribed` are the hysteresis view's, bit for bit
/// (same integrator, same steps), in both readings of the frequency.
#[test]
fn frbd_loops_equal_the_hysteresis_views() {
    for (unit, rad) in [("hz", 0), ("rad", 1)] {
        for (id, extra) in [
            ("frbd-gm", ""),
            ("frbd-gkv", "&model=frbd-gkv"),
            ("frbd-elastic", "&model=frbd-elastic&n=0"),
        ] {
            let hyst = finished(&format!(
                "view=hysteresis{extra}&funit={unit}&freqs=25,50,100"
            ));
            let loops = match hyst.output() {
                Output::Hysteresis { loops, .. } => loops,
                other => panic!("{other:?}"),
            };
            let job = finished(&format!(
                "view=prescribed&model={id}&vmean=0.015&rad={rad}&f1=25&f2=50&f3=100"
            ));
            let cycles = cycles_of(job.as_ref());
            assert_eq!(cycles.len(), 3);
            for (l, c) in loops.iter().zip(&cycles) {
                assert_eq!(l.freq, c.freq);
                assert_eq!(l.t, c.t, "{id} {unit}");
                assert_eq!(l.v, c.v, "{id} {unit}");
                assert_eq!(l.f, c.f, "{id} {unit}");
                let (a, b) = (l.metrics, c.metrics);
                assert_eq!(
                    (a.fmax, a.fmin, a.area, a.energy, a.cycles),
                    (b.fmax, b.fmin, b.area, b.energy, b.cycles),
                    "{id} {unit}"
                );
            }
        }
    }
}

/// The sweep's points at 25, 50 and 100 Hz equal the hysteresis view's metrics, on its default
/// grid (3.125–800 Hz, three points per octave) and on a grid of just those three.
#[test]
fn sweep_points_equal_the_hysteresis_views_metrics() {
    let hyst = finished("view=hysteresis&freqs=25,50,100");
    let want = hyst.csv(true);
    let rows = |csv: &str| -> Vec<String> {
        csv.lines()
            .skip(1)
            .filter(|l| ["25,", "50,", "100,"].iter().any(|f| l.starts_with(f)))
            .map(String::from)
            .collect()
    };
    assert_eq!(rows(&want).len(), 3);
    for q in [
        "view=sweep&model=frbd-gm&vmean=0.015",
        "view=sweep&model=frbd-gm&vmean=0.015&fmin=25&fmax=100&nf=3",
    ] {
        let job = finished(q);
        assert_eq!(rows(&job.csv(false)), rows(&want), "{q}");
    }
    assert_eq!(log_grid(25.0, 100.0, 3), [25.0, 50.0, 100.0]);
    let grid = log_grid(3.125, 800.0, 25);
    for f in [3.125, 6.25, 12.5, 25.0, 50.0, 100.0, 200.0, 400.0, 800.0] {
        assert!(grid.contains(&f), "{f} missing from {grid:?}");
    }
}

/// Fig. 3 of the FrBD letter: "as the frequency increases, the peak friction force decreases,
/// whilst the hysteresis loops become progressively broader". Pinned here with the numbers the
/// sweep view's notes quote.
#[test]
fn fig3_claims_and_the_readings_that_reproduce_them() {
    let metrics = |q: &str| -> Vec<(f64, f64)> {
        let job = finished(q);
        job.csv(true)
            .lines()
            .skip(1)
            .map(|l| {
                let c: Vec<f64> = l.split(',').map(|x| x.parse().unwrap()).collect();
                (c[1], c[3])
            })
            .collect()
    };
    let falls = |m: &[(f64, f64)]| m.windows(2).all(|w| w[1].0 < w[0].0);
    let broadens = |m: &[(f64, f64)]| m.windows(2).all(|w| w[1].1 > w[0].1);
    let close = |a: f64, b: f64| (a - b).abs() <= 5e-4 * b.abs();
    // Table I, k̄0 = σ0, f in Hz: the peak falls, the loops do not broaden
    let hz = metrics("view=hysteresis&freqs=25,50,100");
    assert!(falls(&hz) && !broadens(&hz), "{hz:?}");
    assert!(close(hz[0].0, 1.1837) && close(hz[2].0, 1.1420), "{hz:?}");
    assert!(
        close(hz[0].1, 1.1134e-3) && close(hz[1].1, 8.557e-4),
        "{hz:?}"
    );
    // ω in rad/s: the peak falls, the area grows and shrinks again
    let rad = metrics("view=hysteresis&funit=rad&freqs=25,50,100");
    assert!(falls(&rad) && !broadens(&rad), "{rad:?}");
    assert!(rad[1].1 > rad[0].1 && rad[2].1 < rad[1].1, "{rad:?}");
    // ω in rad/s about 2 v_S: both claims
    let rad2 = metrics("view=hysteresis&funit=rad&freqs=25,50,100&vmean=0.02");
    assert!(falls(&rad2) && broadens(&rad2), "{rad2:?}");
    assert!(
        close(rad2[0].0, 1.1659) && close(rad2[2].1, 5.851e-4),
        "{rad2:?}"
    );
    // the seed's literal σ0 = k̄1 (k̄0 = 5.45e4, k̄1 = 1e4), f in Hz, the default input: both
    let typo = metrics("view=hysteresis&k0=54500&k=10000&freqs=25,50,100");
    assert!(falls(&typo) && broadens(&typo), "{typo:?}");
    assert!(
        close(typo[0].0, 1.3317) && close(typo[2].1, 1.959e-3),
        "{typo:?}"
    );
}

/// No FrBD loop is inverted once it is periodic. Linearised about steady sliding at v0 > 0,
/// δF/δv = μ′·a0 G/(iω + a0 G) (a0 = v0/μ, G the rheology's positive-real modulus; KV likewise),
/// whose imaginary part has the sign of −μ′: the loop runs the conventional way wherever the
/// Stribeck curve falls, whatever σ1, v_S or the frequency. Negative areas seen at the default
/// tolerance with a large σ1 are the slow transient (time constant ≈ σ1/σ0): run to 1e-11 they
/// turn positive. LuGre, whose output has the σ1 ż feedthrough, does invert once σ1 v exceeds
/// its steady friction, and the view shows it.
#[test]
fn frbd_loops_do_not_invert_but_lugres_do() {
    use friction_core::experiments::hysteresis::HysteresisConfig;
    use friction_core::frbd::{Contact, Gm, Kv};
    use friction_core::stribeck::Stribeck;
    for (s1, vs, f) in [
        (6450.0, 0.25, 100.0),
        (645.0, 0.05, 25.0),
        (6450.0, 0.01, 50.0),
    ] {
        let contact = Contact {
            stribeck: Stribeck {
                v_s: vs,
                ..Stribeck::TABLE_I
            },
            ..Contact::default()
        };
        for model in [
            Frbd::Gm(Gm::from_sigma(contact, 1e4, s1, 1e-3).unwrap()),
            Frbd::Kv(Kv::new(contact, 1e4, s1).unwrap()),
        ] {
            let mut cfg = HysteresisConfig::new(model);
            cfg.freqs = vec![f];
            cfg.tol = 1e-11;
            cfg.max_cycles = 20_000;
            let l = &hysteresis::run(&cfg)[0];
            assert!(l.converged);
            assert!(
                l.metrics.area > 0.0,
                "σ1 = {s1}, v_S = {vs}, {f} Hz: {}",
                l.metrics.area
            );
        }
    }
    let area = |s1: f64| {
        let job = finished(&format!(
            "view=prescribed&model=lugre&sigma1={s1}&vmean=0.0015&vamp=0.0005&f1=10&f2=0&f3=0"
        ));
        cycles_of(job.as_ref())[0].metrics.area
    };
    // v0 = 1.5 mm/s, F_ss(v0) = 1.03 N: σ1 v0 = 0.47 N (316 N·s/m) or 1.5 N (1000 N·s/m)
    assert!(area(316.23) > 0.0);
    assert!(area(1000.0) < 0.0);
}

/// Models that switch go through their switches exactly: a reversal that falls on a sample
/// (x = x_amp·sin ωt with 400 samples reverses at samples 100 and 300) is located inside the
/// solver, not stepped over by the implicit-Euler fallback.
#[test]
fn switching_models_need_no_fallback() {
    for id in [
        "maxwell",
        "gms",
        "modified-stribeck",
        "reset-integrator",
        "bristle",
        "leuven",
    ] {
        let (m, _) = built(find(id).unwrap());
        for drive in [
            Drive::new(Excitation::Displacement { x_amp: 2e-5 }, FreqUnit::Hz),
            velocity(0.0, 0.01),
        ] {
            for f in [1.0, 100.0] {
                let c = run(m.as_ref(), None, &drive, f).unwrap();
                assert_eq!(c.metrics.fallbacks, 0, "{id} at {f} Hz, {drive:?}");
            }
        }
    }
}

/// The views' CSV: a model column for several models, a frequency column for several
/// frequencies, and each model's states.
#[test]
fn prescribed_csv_columns() {
    let job = finished("view=prescribed&model=lugre,gms,frbd-gm");
    let csv = job.csv(false);
    let head = csv.lines().next().unwrap();
    assert!(head.starts_with("model,t,x,v,F,s1,"), "{head}");
    assert_eq!(head.split(',').count(), 5 + 10, "GMS has ten elements");
    for id in ["lugre,", "gms,", "frbd-gm,"] {
        assert_eq!(
            csv.lines().filter(|l| l.starts_with(id)).count(),
            401,
            "{id}"
        );
    }
    assert_eq!(job.readout().rows.len(), 3);
    let one = finished("view=prescribed&model=lugre");
    let head = one.csv(false).lines().next().unwrap().to_string();
    assert_eq!(head, "freq,t,x,v,F,s1");
    let m = one.csv(true);
    assert!(m.starts_with("model,freq,fmax,fmin,area,energy,cycles,converged\nlugre,25,"));
    assert_eq!(m.lines().count(), 4);
}

/// A cycle cut into units of a few solver steps (the page's frame budget; an interval of a stiff
/// model is cut in its middle) is the cycle integrated in one go, bit for bit, and no unit takes
/// more than its share of steps: the cut bounds a unit's work without changing the answer.
#[test]
fn cycles_cut_by_the_step_cap_equal_uncut_ones() {
    use friction_core::experiments::prescribed::CycleRun;
    let drive = velocity(0.0, 0.2);
    for id in ["lugre", "gms", "leuven", "elasto-plastic"] {
        let e = find(id).unwrap();
        let (m, frbd) = built(e);
        // 50 Hz: the stiff bristles take many steps per sample interval
        let whole = run(m.as_ref(), frbd.as_ref(), &drive, 50.0).unwrap();
        let mut r = CycleRun::new(m.as_ref(), frbd.as_ref(), &drive, 50.0);
        let mut units = 0;
        // three solver steps per unit: most intervals are cut, some several times
        while !r.advance_capped(m.as_ref(), 1, 3) {
            units += 1;
            assert!(units < 1_000_000, "{id}: does not finish");
        }
        let cut = r.cycle().unwrap();
        assert_eq!(cut.f, whole.f, "{id}: forces differ");
        assert_eq!(cut.t, whole.t, "{id}: times differ");
        let steps = whole.metrics.steps;
        assert!(units >= steps / 3, "{id}: {units} units for {steps} steps");
    }
}

/// The implicit-Euler fallback of an interval the solver gives up on is cut by the step cap as
/// well (each of its sub-steps first slides through the solver, thousands of steps at Liang's
/// 10 kHz, issue 18): cut into units of three steps, the cycle is the uncut one, bit for bit.
#[test]
fn fallbacks_cut_by_the_step_cap_equal_uncut_ones() {
    use friction_core::experiments::prescribed::CycleRun;
    let e = find("liang").unwrap();
    let set = [
        ("mus", 10.0),
        ("muk", 0.142),
        ("fn", 1e-6),
        ("sigma1", 752155.96),
    ];
    let m = e.build_with(&set).unwrap();
    let mut drive = velocity(4.195, 3.856);
    drive.unit = FreqUnit::Rad;
    drive.max_cycles = 2;
    let whole = run(m.as_ref(), None, &drive, 10_000.0).unwrap();
    assert!(whole.metrics.fallbacks > 0, "no fallback to cut");
    let mut r = CycleRun::new(m.as_ref(), None, &drive, 10_000.0);
    let mut units = 0;
    while !r.advance_capped(m.as_ref(), 1, 3) {
        units += 1;
        assert!(units < 10_000_000, "does not finish");
    }
    let cut = r.cycle().unwrap();
    assert_eq!(cut.f, whole.f, "forces differ");
    assert_eq!(cut.metrics.fallbacks, whole.metrics.fallbacks);
    assert!(
        units > whole.t.len(),
        "{units} units: the fallbacks were not cut"
    );
}

/// A law that jumps at v = 0 has no loop: Coulomb's ∮F dv is zero at every frequency. The
/// sample on each quarter turn has v exactly 0 (so F takes its middle value, 0): with the
/// rounded cos(ωt) = ±1e-17 there the area was 0 or ±3.1e-4 N·m/s depending on the
/// frequency, and the sweep counted the negative ones as inverted loops.
#[test]
fn a_static_law_jumping_at_zero_has_no_loop_area_at_any_frequency() {
    for q in [
        "view=prescribed&model=coulomb&f1=3.93725&f2=28.7175&f3=263.902",
        "view=prescribed&model=coulomb&excite=1&xamp=0.004&f1=1&f2=7.3&f3=91",
    ] {
        for c in cycles_of(finished(q).as_ref()) {
            let scale =
                (c.metrics.fmax - c.metrics.fmin) * c.v.iter().fold(0.0f64, |a, v| a.max(v.abs()));
            assert!(
                c.metrics.area.abs() < 1e-12 * scale,
                "{q}: f = {} Hz, area {} N·m/s",
                c.freq,
                c.metrics.area
            );
        }
    }
}

/// A change of σ0 by 1e-12 to 1e-6 of itself changes GMS's 25 Hz loop by about as much, not by
/// a half stroke: its velocity reverses within round-off of a sample there, where the solver
/// located every slipping element's end of slip but the landing step was too short to take.
/// Unfired, those elements stayed on their limits against the motion for a whole stroke, in
/// about one run of three (the browser's arithmetic picked such a run at the default σ0: peak
/// −0.67 N, 4e-7 J per cycle instead of 1.86 N and 2.7e-4 J).
#[test]
fn gms_loop_does_not_jump_with_round_off_in_sigma0() {
    let base = cycles_of(&*finished("view=prescribed&model=gms"))[0].metrics;
    assert!(base.fmax > 0.0 && base.fmin < 0.0, "{base:?}");
    for rel in [1e-12, 1e-10, -1e-10, 1e-9, 1e-8, 1e-7, 1e-6, -1e-6] {
        let sigma0 = 1e5 * (1.0 + rel);
        let q = format!("view=prescribed&model=gms&sigma0={sigma0}");
        let m = cycles_of(&*finished(&q))[0].metrics;
        let close = |a: f64, b: f64| (a - b).abs() <= 1e-4 * b.abs();
        assert!(
            close(m.fmax, base.fmax) && close(m.fmin, base.fmin) && close(m.energy, base.energy),
            "σ0 × (1 + {rel:e}): {m:?} against {base:?}"
        );
    }
}
