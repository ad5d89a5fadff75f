//! Sampled runs against an independent path: the prescribed-motion view, a static law's formula
//! at the samples, and the spline's own displacement.

use super::*;
use crate::experiments::hysteresis::FreqUnit;
use crate::experiments::prescribed::{self, Drive, Excitation};

/// The same cosine velocity, sampled finely, gives the prescribed-motion view's first cycle
/// (an independent path: the view integrates the exact cosine).
#[test]
fn sampled_cosine_matches_the_prescribed_view() {
    let e = crate::registry::find("lugre").expect("lugre");
    let m = e.build_default().expect("builds");
    let drive = Drive::new(
        Excitation::Velocity {
            v_mean: 0.0,
            v_amp: 0.01,
        },
        FreqUnit::Hz,
    );
    let c = prescribed::run(m.as_ref(), None, &drive, 1.0).expect("cycle");
    // 4000 samples per cycle: linear interpolation of the cosine is then within 3e-7 m/s
    let n = 4000;
    let t: Vec<f64> = (0..=n).map(|k| k as f64 / n as f64).collect();
    let v: Vec<f64> = t
        .iter()
        .map(|&t| 0.01 * (2.0 * std::f64::consts::PI * t).cos())
        .collect();
    let mut f = vec![0.0; t.len()];
    Driver::new().forces(m.as_ref(), &t, &v, &mut f);
    let scale = c.first.iter().fold(0.0_f64, |a, b| a.max(b.abs()));
    for (i, &tc) in c.t.iter().enumerate() {
        let k = (tc * n as f64).round() as usize;
        assert!(
            (f[k] - c.first[i]).abs() <= 1e-3 * scale,
            "t = {tc}: {} vs {}",
            f[k],
            c.first[i]
        );
    }
}

/// A static law is its formula at the samples.
#[test]
fn static_law_is_evaluated_at_the_samples() {
    let m = crate::registry::find("stribeck")
        .expect("stribeck")
        .build_default()
        .expect("builds");
    let t = [0.0, 1.0, 2.0];
    let v = [-0.1, 0.05, 0.3];
    let mut f = [0.0; 3];
    Driver::new().forces(m.as_ref(), &t, &v, &mut f);
    for k in 0..3 {
        assert_eq!(f[k], m.force(v[k], 0.0, &[]));
    }
}

/// The spline's velocity integrates to the measured displacement over every interval (it
/// passes through each sample) on an uneven grid, and is close to the exact derivative of
/// a smooth motion.
#[test]
fn spline_velocity_travels_the_measured_displacement() {
    let w = 2.0 * std::f64::consts::PI;
    let t: Vec<f64> = (0..300)
        .map(|k| {
            let k = k as f64;
            k / 299.0 + 0.0005 * (7.0 * k).sin()
        })
        .collect();
    let x: Vec<f64> = t.iter().map(|&t| 1e-3 * (w * t).sin()).collect();
    let s = Spline::new(&t, &x);
    for k in 0..t.len() - 1 {
        let h = t[k + 1] - t[k];
        let Velocity::Poly { v0, a1, a2, .. } = s.velocity(k, t[k]) else {
            panic!("poly")
        };
        let dx = h * (v0 + h * (a1 / 2.0 + a2 * h / 3.0));
        assert!(
            (dx - (x[k + 1] - x[k])).abs() <= 1e-12 * 1e-3,
            "interval {k}: {dx} vs {}",
            x[k + 1] - x[k]
        );
    }
    // natural ends bend the first and last few intervals; inside, O(h²); the monotone filter
    // leaves a smooth motion's slopes alone but at a sample beside a turn inside the next
    // interval (a nearly flat secant there limits the slope), where the error stays below 1 %
    // of the peak velocity
    let v = s.velocities();
    for k in 10..t.len() - 10 {
        let exact = 1e-3 * w * (w * t[k]).cos();
        let beside_turn = (w * t[k]).cos().abs() < 0.05;
        let tol = if beside_turn { 1e-2 } else { 1e-4 };
        assert!(
            (v[k] - exact).abs() <= tol * 1e-3 * w,
            "t = {}: {} vs {exact}",
            t[k],
            v[k]
        );
    }
}

/// A position that moves in encoder steps never reverses between two samples: the velocity
/// of a staircase (rests and one-step moves up) is never negative.
#[test]
fn a_staircase_position_never_reverses() {
    let t: Vec<f64> = (0..200).map(|k| k as f64 * 0.005).collect();
    let x: Vec<f64> = (0..200).map(|k| 1e-7 * ((k / 7) as f64)).collect();
    let s = Spline::new(&t, &x);
    for k in 0..t.len() - 1 {
        for j in 0..=10 {
            let tau = t[k] + (t[k + 1] - t[k]) * j as f64 / 10.0;
            assert!(
                s.velocity(k, t[k]).at(tau) >= -1e-18,
                "interval {k} at {tau}"
            );
        }
    }
}

/// A displacement-driven run equals the velocity-driven run of the same motion: LuGre under
/// x = A sin(2πt) sampled at 400 points, against the exact velocity sampled at 4000.
#[test]
fn displacement_drive_matches_the_velocity_drive() {
    let m = crate::registry::find("lugre")
        .expect("lugre")
        .build_default()
        .expect("builds");
    let (a, w) = (2e-3, 2.0 * std::f64::consts::PI);
    let n = 400;
    let t: Vec<f64> = (0..=n).map(|k| k as f64 / n as f64).collect();
    let x: Vec<f64> = t.iter().map(|&t| a * (w * t).sin()).collect();
    let mut fx = vec![0.0; t.len()];
    Driver::new().forces_from_x(m.as_ref(), &t, &x, &mut fx);
    let fine = 10;
    let tf: Vec<f64> = (0..=n * fine)
        .map(|k| k as f64 / (n * fine) as f64)
        .collect();
    let vf: Vec<f64> = tf.iter().map(|&t| a * w * (w * t).cos()).collect();
    let mut ff = vec![0.0; tf.len()];
    Driver::new().forces(m.as_ref(), &tf, &vf, &mut ff);
    let scale = ff.iter().fold(0.0_f64, |a, b| a.max(b.abs()));
    // the natural end condition (zero curvature) holds while the sine's is zero too
    for k in 0..=n {
        assert!(
            (fx[k] - ff[k * fine]).abs() <= 2e-3 * scale,
            "t = {}: {} vs {}",
            t[k],
            fx[k],
            ff[k * fine]
        );
    }
}
