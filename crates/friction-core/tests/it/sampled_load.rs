//! A model driven by a sampled velocity with a sampled normal load
//! (`experiments::sampled::Loaded`): checked against an independent integration of LuGre's
//! equations with the load varying linearly in time, against FrBD's closed form (its force is
//! p times that at p = 1), and against the run at one constant load.

use friction_core::experiments::sampled::{Driver, Loaded};
use friction_core::registry;

const TAU: f64 = 2.0 * std::f64::consts::PI;

/// 401 samples over 1 s of v = 0.01 cos(2πt) and a load F̄(1 + 0.3 sin(2π·0.7 t)).
fn record(mean: f64) -> (Vec<f64>, Vec<f64>, Vec<f64>) {
    let t: Vec<f64> = (0..=400).map(|k| k as f64 / 400.0).collect();
    let v = t.iter().map(|&t| 0.01 * (TAU * t).cos()).collect();
    let n = t
        .iter()
        .map(|&t| mean * (1.0 + 0.3 * (0.7 * TAU * t).sin()))
        .collect();
    (t, v, n)
}

fn values(id: &str) -> (&'static friction_core::model::ModelEntry, Vec<f64>) {
    let e = registry::find(id).expect("model");
    (e, e.info.params.iter().map(|p| p.default).collect())
}

fn value(e: &friction_core::model::ModelEntry, v: &[f64], key: &str) -> f64 {
    v[e.info
        .params
        .iter()
        .position(|p| p.key == key)
        .expect("key")]
}

/// LuGre's dz/dt = v − σ0|v|z/g(v), g = F_N(μ_k + (μ_s − μ_k)e^{−(v/v_S)²},
/// F = σ0 z + σ1 ż + σ2 v, integrated by classical RK4 with 400 steps per sample interval,
/// v and F_N linear between the samples (an implementation independent of the core's).
fn lugre_rk4(key: &dyn Fn(&str) -> f64, t: &[f64], v: &[f64], n: &[f64]) -> Vec<f64> {
    let (s0, s1, s2) = (key("sigma0"), key("sigma1"), key("sigma2"));
    let (mus, muk, vs) = (key("mus"), key("muk"), key("vs"));
    let zdot = |v: f64, fnl: f64, z: f64| {
        let g = fnl * (muk + (mus - muk) * (-(v / vs) * (v / vs)).exp());
        v - s0 * v.abs() * z / g
    };
    let force = |v: f64, fnl: f64, z: f64| s0 * z + s1 * zdot(v, fnl, z) + s2 * v;
    let mut z = 0.0;
    let mut out = vec![force(v[0], n[0], z)];
    let sub = 400;
    for k in 0..t.len() - 1 {
        let len = t[k + 1] - t[k];
        let h = len / sub as f64;
        let at = |s: f64| {
            let a = s / len;
            (v[k] + a * (v[k + 1] - v[k]), n[k] + a * (n[k + 1] - n[k]))
        };
        for j in 0..sub {
            let s = j as f64 * h;
            let (va, na) = at(s);
            let (vb, nb) = at(s + 0.5 * h);
            let (vc, nc) = at(s + h);
            let k1 = zdot(va, na, z);
            let k2 = zdot(vb, nb, z + 0.5 * h * k1);
            let k3 = zdot(vb, nb, z + 0.5 * h * k2);
            let k4 = zdot(vc, nc, z + h * k3);
            z += h / 6.0 * (k1 + 2.0 * k2 + 2.0 * k3 + k4);
        }
        out.push(force(v[k + 1], n[k + 1], z));
    }
    out
}

fn worst(a: &[f64], b: &[f64]) -> f64 {
    a.iter()
        .zip(b)
        .fold(0.0_f64, |m, (x, y)| m.max((x - y).abs()))
}

/// The core under a varying load against [`lugre_rk4`] with the load linear in time. At a
/// constant load the two agree to the solvers' tolerance; under the varying load the core
/// holds each interval's mean load, and where the bristle state relaxes faster than a sample
/// interval (sliding) it follows that mean, half an interval behind the linear load: the
/// difference stays below half the largest relative change of the load per interval, times
/// the force, and far below the load's own effect (the run at the constant mean load).
#[test]
fn lugre_under_a_varying_load_matches_an_independent_integration() {
    let (e, vals) = values("lugre");
    let key = |k: &str| value(e, &vals, k);
    let index = e
        .info
        .params
        .iter()
        .position(|p| p.key == "fn")
        .expect("fn");
    let (t, v, n) = record(vals[index]);
    let mut f = vec![0.0; t.len()];
    let load = Loaded {
        entry: e,
        values: &vals,
        index,
        normal: &n,
    };
    Driver::new()
        .forces_loaded(&load, &t, &v, &mut f)
        .expect("valid loads");
    let reference = lugre_rk4(&key, &t, &v, &n);
    let scale = reference.iter().fold(0.0_f64, |a, b| a.max(b.abs()));
    let step = n
        .windows(2)
        .fold(0.0_f64, |a, w| a.max(((w[1] - w[0]) / w[0]).abs()));
    let diff = worst(&f, &reference);
    assert!(
        diff <= 0.5 * step * scale,
        "{diff} of {scale}, load step {step}"
    );

    // the same comparison at a constant load: the integrators agree
    let flat = vec![vals[index]; t.len()];
    let m = (e.build)(&vals).expect("builds");
    let mut constant = vec![0.0; t.len()];
    Driver::new().forces(m.as_ref(), &t, &v, &mut constant);
    let agree = worst(&constant, &lugre_rk4(&key, &t, &v, &flat));
    assert!(agree <= 1e-8 * scale, "constant load: {agree}");
    // and the load matters: the constant-load run is far from the varying-load reference
    let off = worst(&constant, &reference);
    assert!(off > 100.0 * diff && off > 0.05 * scale, "{off} vs {diff}");
}

/// FrBD's state does not depend on its load p and its force is p·f: under a varying p the
/// force is p_k times the force at p = 1, sample by sample.
#[test]
fn frbd_force_scales_with_its_load_sample_by_sample() {
    let (e, mut vals) = values("frbd-gm");
    let index = e.info.params.iter().position(|p| p.key == "p").expect("p");
    vals[index] = 1.0;
    let (t, v, n) = record(2.0);
    let v: Vec<f64> = v.iter().map(|x| 5.0 * x).collect();
    let mut f = vec![0.0; t.len()];
    let load = Loaded {
        entry: e,
        values: &vals,
        index,
        normal: &n,
    };
    Driver::new()
        .forces_loaded(&load, &t, &v, &mut f)
        .expect("valid loads");
    let unit = (e.build)(&vals).expect("builds");
    let mut f1 = vec![0.0; t.len()];
    Driver::new().forces(unit.as_ref(), &t, &v, &mut f1);
    let scale = f.iter().fold(0.0_f64, |a, b| a.max(b.abs()));
    assert!(scale > 0.0);
    for k in 0..t.len() {
        assert!(
            (f[k] - n[k] * f1[k]).abs() <= 1e-9 * scale,
            "sample {k}: {} vs {}",
            f[k],
            n[k] * f1[k]
        );
    }
}

/// A constant load equal to the model's own gives the fixed model's run bit for bit, for a
/// static law, a model with state, and GMS (switches).
#[test]
fn a_constant_load_is_the_fixed_model() {
    for id in ["stribeck", "lugre", "gms", "frbd-gm"] {
        let (e, vals) = values(id);
        let index = e
            .info
            .params
            .iter()
            .position(|p| p.unit == "N" && (p.key == "fn" || p.key == "p"))
            .expect("load");
        let (t, v, _) = record(1.0);
        let n = vec![vals[index]; t.len()];
        let mut a = vec![0.0; t.len()];
        let mut b = vec![0.0; t.len()];
        let m = (e.build)(&vals).expect("builds");
        let mut d = Driver::new();
        d.forces(m.as_ref(), &t, &v, &mut a);
        let ba = d.branches().to_vec();
        let load = Loaded {
            entry: e,
            values: &vals,
            index,
            normal: &n,
        };
        d.forces_loaded(&load, &t, &v, &mut b).expect("valid");
        assert!(a == b, "{id}: forces differ");
        assert_eq!(ba, d.branches(), "{id}");
    }
}

/// A load the model rejects (F_N < 0) is the model's message, not a panic or a NaN.
#[test]
fn a_rejected_load_is_an_error() {
    let (e, vals) = values("lugre");
    let index = e
        .info
        .params
        .iter()
        .position(|p| p.key == "fn")
        .expect("fn");
    let (t, v, mut n) = record(vals[index]);
    n[200] = -1.0;
    let mut f = vec![0.0; t.len()];
    let load = Loaded {
        entry: e,
        values: &vals,
        index,
        normal: &n,
    };
    let err = Driver::new()
        .forces_loaded(&load, &t, &v, &mut f)
        .expect_err("negative load");
    assert!(err.to_string().contains("fn"), "{err}");
}

/// GMS at a slow constant velocity, its elements sticking one after the other, when the load
/// halves: elements whose spring force now exceeds their share of the lower breakaway level
/// must slip at once (the switch the change of load crosses fires at that sample). Without
/// that, their switching function is already past zero and never crosses it, and the stuck
/// springs keep loading the force beyond anything the lower load allows.
#[test]
fn gms_elements_slip_when_the_load_drops_below_their_force() {
    let (e, vals) = values("gms");
    let index = e
        .info
        .params
        .iter()
        .position(|p| p.key == "fn")
        .expect("fn");
    let (mus, sigma0, sigma1, sigma2) = (
        value(e, &vals, "mus"),
        value(e, &vals, "sigma0"),
        value(e, &vals, "sigma1"),
        value(e, &vals, "sigma2"),
    );
    let n1 = vals[index];
    // time to load the springs to the static level: F_s/(σ0 v)
    let v0 = 1e-4;
    let t_break = mus * n1 / (sigma0 * v0);
    let t: Vec<f64> = (0..=400)
        .map(|k| k as f64 * 2.0 * t_break / 400.0)
        .collect();
    let v = vec![v0; t.len()];
    // the load halves at 90 % of the way to breakaway
    let n: Vec<f64> = t
        .iter()
        .map(|&t| if t < 0.9 * t_break { n1 } else { 0.5 * n1 })
        .collect();
    let mut f = vec![0.0; t.len()];
    let load = Loaded {
        entry: e,
        values: &vals,
        index,
        normal: &n,
    };
    Driver::new()
        .forces_loaded(&load, &t, &v, &mut f)
        .expect("valid loads");
    // after the drop, no more than the static level at the lower load plus the damping and
    // viscous terms of elements moving at v
    let bound = mus * 0.5 * n1 + (sigma1 + sigma2) * v0;
    let after: Vec<f64> = (0..t.len())
        .filter(|&k| t[k] > t_break)
        .map(|k| f[k])
        .collect();
    let peak = after.iter().fold(0.0_f64, |a, &b| a.max(b));
    assert!(
        peak <= 1.01 * bound,
        "peak {peak} > {bound} after the load halved"
    );
    // before the drop the springs were loaded beyond that level: the test could fail
    let before = (0..t.len())
        .filter(|&k| t[k] < 0.9 * t_break)
        .fold(0.0_f64, |a, k| a.max(f[k]));
    assert!(before > 1.1 * bound, "before the drop {before} vs {bound}");
}

/// One GMS element with μ_s = μ_k, no damping and a fast slip law is an elasto-slip element
/// whose deflection is clamped to its limit μ F_N/k (computed here on its own: the
/// deflection plus each displacement increment, clipped, and held on the limit while it
/// slips), also where the load
/// jitters from sample to sample while the element sits on its limit after a reversal. There
/// a drop of the limit below the held deflection once broke the element loose in the
/// direction of v, and its force ran to the opposite limit within a sample (a whole 2 μ F_N
/// off: the tribometer record's reversals, R² 0.82 where Maxwell-slip has 0.99).
#[test]
fn one_gms_element_is_a_clamped_spring_under_a_jittering_load() {
    let (e, mut vals) = values("gms");
    let key = |k: &str| e.info.params.iter().position(|p| p.key == k).expect("key");
    let (mu, k, f_n) = (0.3, 2e4, 5.0);
    for (name, x) in [
        ("mus", mu),
        ("muk", mu),
        ("sigma0", k),
        ("sigma1", 0.0),
        ("sigma2", 0.0),
        ("c", 1e6),
        ("n", 1.0),
        ("fn", f_n),
    ] {
        vals[key(name)] = x;
    }
    // strokes of ±0.3 mm (the limit: 75 μm) with a small back-step at every turn
    let t: Vec<f64> = (0..=4000).map(|k| k as f64 * 1e-3).collect();
    let v: Vec<f64> = t
        .iter()
        .map(|&t| 1e-3 * (TAU * 0.5 * t).sin() - 2e-5 * (TAU * 7.0 * t).cos())
        .collect();
    // up to ±2 % from sample to sample, as a load cell's noise (a fixed pseudo-random
    // sequence: the driver holds each interval at the mean of its two samples, so strictly
    // alternating values would cancel)
    let n: Vec<f64> = (0..t.len())
        .map(|k| f_n * (1.0 + 0.02 * ((k as f64 * 12.9898).sin() * 43_758.545).fract()))
        .collect();
    let mut gms = vec![0.0; t.len()];
    let load = Loaded {
        entry: e,
        values: &vals,
        index: key("fn"),
        normal: &n,
    };
    Driver::new()
        .forces_loaded(&load, &t, &v, &mut gms)
        .expect("valid loads");
    // the element as a clamped spring with a slip state, v linear and the limit held at the
    // mean load over each interval: slipping, it sits on its limit (GMS's slip law with an
    // infinite C) until v reverses; sticking, it follows the displacement and is clamped
    // where the limit falls below it, and slips where the motion carries it onto the limit
    let sub = 200;
    let (mut d, mut slip) = (0.0_f64, 0.0_f64);
    let mut reference = vec![0.0];
    for j in 0..t.len() - 1 {
        let cap = mu * 0.5 * (n[j] + n[j + 1]) / k;
        let h = (t[j + 1] - t[j]) / sub as f64;
        for i in 0..sub {
            let a = (i as f64 + 0.5) / sub as f64;
            let vel = v[j] + a * (v[j + 1] - v[j]);
            if slip != 0.0 && vel * slip < 0.0 {
                slip = 0.0;
            }
            if slip != 0.0 {
                d = slip * cap;
            } else {
                d = (d + h * vel).clamp(-cap, cap);
                if d.abs() >= cap && vel * d > 0.0 {
                    slip = d.signum();
                }
            }
        }
        reference.push(k * d);
    }
    let scale = mu * f_n;
    let diff = worst(&gms, &reference);
    assert!(
        diff <= 1e-4 * scale,
        "GMS vs the clamped spring: {diff} of {scale}"
    );
    // it saturates on both sides: the comparison covers slip, reversals and re-sticking
    let top = reference.iter().fold(0.0_f64, |a, &b| a.max(b));
    let bottom = reference.iter().fold(0.0_f64, |a, &b| a.min(b));
    assert!(
        top > 0.95 * scale && bottom < -0.95 * scale,
        "{top} {bottom}"
    );
}
