//! Robot-view links end to end (query string → scenario → run): the fuzzing finds of legal
//! robot sets that stopped with "step size underflow at t = 0 s" naming no key.

#![allow(clippy::unwrap_used)]

use friction_core::experiments::robot_arm::{run, LAYER_RATE, LAYER_STEPS, PARAMS};
use friction_core::frbd::Frbd;
use friction_core::params::ParamSpec;
use friction_core::scenario::Scenario;

/// SplitMix64: seeded draws for the random-set test below.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> f64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^= z >> 31;
        (z >> 11) as f64 / (1u64 << 53) as f64
    }
    /// A value of `s`'s range, log-uniform where the slider is logarithmic.
    fn draw(&mut self, s: &ParamSpec) -> f64 {
        if s.log && s.min > 0.0 {
            (s.min.ln() + (s.max.ln() - s.min.ln()) * self.next()).exp()
        } else {
            s.min + (s.max - s.min) * self.next()
        }
    }
}

/// A random legal robot query: GM or GKV of any order, every contact and arm key drawn from its
/// range; t_end at most 0.2 s so that 300 runs stay quick (the failures were at t = 0).
fn random_robot_query(r: &mut Rng) -> String {
    use friction_core::frbd::spec;
    let gkv = r.next() < 0.5;
    let n = (r.next() * 11.0) as usize;
    let model = if gkv { "frbd-gkv" } else { "frbd-gm" };
    let mut q = format!("view=robot&model={model}&n={n}&k0={}", r.draw(&spec::K0));
    if n > 0 {
        let (key, el) = if gkv {
            ("c", spec::C1)
        } else {
            ("tau", spec::TAU1)
        };
        let ks: Vec<String> = (0..n).map(|_| r.draw(&spec::K1).to_string()).collect();
        let ts: Vec<String> = (0..n).map(|_| r.draw(&el).to_string()).collect();
        q += &format!("&k={}&{key}={}", ks.join(","), ts.join(","));
    }
    for s in spec::CONTACT.iter().chain(PARAMS.iter()) {
        q += &format!("&{}={}", s.key, r.draw(s));
    }
    let tend = 0.01 * 20f64.powf(r.next());
    let observer = u8::from(r.next() < 0.5);
    let reference = if r.next() < 0.5 { "sine" } else { "step" };
    q += &format!("&tend={tend}&observer={observer}&ref={reference}");
    q.replace('+', "%2B")
}

/// Every key a robot query can hold: an error message must name at least one.
fn robot_keys() -> Vec<&'static str> {
    let mut keys: Vec<&str> = PARAMS.iter().map(|p| p.key).collect();
    keys.extend(friction_core::frbd::spec::CONTACT.iter().map(|p| p.key));
    keys.extend([
        "tend", "observer", "ref", "model", "n", "k0", "k", "tau", "c",
    ]);
    keys
}

fn names_a_key(msg: &str, keys: &[&str]) -> bool {
    msg.split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .any(|w| keys.contains(&w))
}

/// The fuzzing find: a bristle deflected by z0 against a Kelvin–Voigt element of retardation
/// time c̄/(k̄0 + k̄) = 1e-18 s stopped with "step size underflow at t = 0 s", naming nothing.
#[test]
fn a_deflection_against_an_ultra_fast_element_runs() {
    let q = "view=robot&model=frbd-gkv&n=2&k=1e%2B09,0.001&c=1e-09,2e-06";
    let (arm, model) = Scenario::parse(q).unwrap().robot_config().unwrap();
    let r = run(&arm, &model).unwrap_or_else(|e| panic!("{e}"));
    assert!(r
        .t
        .iter()
        .chain(&r.q)
        .chain(&r.f)
        .chain(&r.w)
        .all(|x| x.is_finite()));
    assert_eq!(r.t[0], 0.0);
    // the run starts from the given state: F = p·k̄0·z0
    let Frbd::Gkv(g) = &model else { unreachable!() };
    assert!((r.f[0] - g.k0() * arm.z0).abs() < 1e-12 * r.f[0].abs());
    // then from the end of the 8 ps layer in which the 1e-18 s element settled
    assert_eq!(r.t[1], LAYER_STEPS as f64 / LAYER_RATE);
    assert!(r.f[1] < r.f[0] && r.w[1] < r.w[0]);
    assert!(r.metrics.final_error < 1e-3, "{:?}", r.metrics);
}

/// 300 random legal robot sets (seeded) either finish or fail with a message that names a key
/// (about 7 % stopped at t = 0 with "step size underflow", which names none).
#[test]
fn random_legal_sets_finish_or_name_a_key() {
    let mut r = Rng(0x00B0_7A11);
    let keys = robot_keys();
    let mut failed = 0;
    for _ in 0..300 {
        let q = random_robot_query(&mut r);
        let (arm, model) = Scenario::parse(&q)
            .unwrap_or_else(|e| panic!("{q}: {e:?}"))
            .robot_config()
            .unwrap_or_else(|e| panic!("{q}: {e}"));
        match run(&arm, &model) {
            Ok(run) => assert!(run.w.iter().all(|w| w.is_finite()), "{q}"),
            Err(e) => {
                failed += 1;
                let msg = e.to_string();
                assert!(names_a_key(&msg, &keys), "{q}\n  -> {msg}");
            }
        }
    }
    assert!(failed < 30, "{failed} of 300 failed");
}
