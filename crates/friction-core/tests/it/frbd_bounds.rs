//! The boundedness the letter proves (Lemma III.2 of the letter), checked on the discrete
//! trajectories of the SDIRK2 stepper for random stiff parameter sets, and the two fuzzing finds
//! that broke it (issue "Exact contracts at the edges").
//!
//! What is proved, and so what is checked (μ_max = max(μ_s, μ_d), v̄ = sup |v|_ε):
//! * n = 0 (elastic bristle, GM or GKV with no branch): |F| ≤ p·μ_max once it holds, because
//!   d|z|/dt ≤ |v|·(1 − k̄0|z|/μ_max) is negative beyond |k̄0 z| = μ_max.
//! * GM, n ≥ 1: Lemma III.2's argument made explicit. dV/dt = pfv − p|v|_ε f²/μ − Σ p f_i²/(τ_i k̄_i)
//!   can be positive only where |f| < μ_max and the branch storage V_b < B = p·v̄·μ_max·τ_max/8,
//!   so V(t) ≤ max(V(0), R) with R = p(μ_max + √(2·Σk̄_i·B/p))²/(2k̄0) + B.
//! * GKV, n ≥ 1: likewise with the element dissipation Σ p c̄_i ż_i², which bounds each
//!   |k̄_i z_i| by μ_max + √(c̄_i·v̄·μ_max/4): R = p μ_max²/(2k̄0) + Σ p(μ_max + √(c̄_i v̄ μ_max/4))²/(2k̄_i).
//! * KV bristle (companion paper, not in the letter; derived here): ż = μ(v − a k̄0 z)/(μ + σ̄1|v|_ε)
//!   keeps |k̄0 z| ≤ μ_max as the elastic bristle does, and f = μ(k̄0 z + σ̄1 v)/(μ + σ̄1|v|_ε) then
//!   stays within ±μ_max.
//!
//! The storage bounds are what the proof gives, not the tightest: they are nearly reached when
//! the branches relax fast (small τ_i or c̄_i), which the random sets include.

#![allow(clippy::unwrap_used, clippy::needless_range_loop)]

use friction_core::experiments::{hysteresis, relaxation};
use friction_core::frbd::{self, Contact, Frbd, Passive};
use friction_core::integrate::linear::{LinearModel, Sdirk2, GAMMA};
use friction_core::scenario::Scenario;
use friction_core::stribeck::{abs_eps, Stribeck};

/// SplitMix64: a seeded, dependency-free source of test parameters.
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
    fn uniform(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (hi - lo) * self.next()
    }
    fn log_uniform(&mut self, lo: f64, hi: f64) -> f64 {
        (lo.ln() + (hi.ln() - lo.ln()) * self.next()).exp()
    }
    fn log_list(&mut self, n: usize, lo: f64, hi: f64) -> Vec<f64> {
        (0..n).map(|_| self.log_uniform(lo, hi)).collect()
    }
}

fn mu_max(c: &Contact) -> f64 {
    c.stribeck.mu_s.max(c.stribeck.mu_d)
}

/// Any legal contact; ε is 0 half of the time (Table I's value, where a(0) = 0).
fn random_contact(r: &mut Rng) -> Contact {
    Contact {
        stribeck: Stribeck {
            mu_s: r.log_uniform(1e-3, 10.0),
            mu_d: r.log_uniform(1e-3, 10.0),
            v_s: r.log_uniform(1e-6, 10.0),
            delta: r.uniform(0.1, 10.0),
        },
        eps: if r.next() < 0.5 {
            0.0
        } else {
            r.log_uniform(1e-12, 1.0)
        },
        p: r.log_uniform(1e-6, 1e6),
    }
}

/// The proved bound for `m` under inputs with sup |v|_ε = `vbar`, as a check of one state.
enum Bound {
    /// |F| ≤ p·μ_max.
    Force(f64),
    /// V ≤ max(V(0), R).
    Storage(f64),
}

fn bound(m: &Frbd, vbar: f64) -> Bound {
    let c = m.contact();
    let (p, mm) = (c.p, mu_max(c));
    match m {
        Frbd::Gm(g) if g.n() > 0 => {
            let tau_max = g.tau().iter().fold(0.0_f64, |a, &t| a.max(t));
            let b = p * vbar * mm * tau_max / 8.0;
            let kb: f64 = g.k().iter().sum();
            let r = p * (mm + (2.0 * kb * b / p).sqrt()).powi(2) / (2.0 * g.k0()) + b;
            Bound::Storage(r)
        }
        Frbd::Gkv(g) if g.n() > 0 => {
            let mut r = p * mm * mm / (2.0 * g.k0());
            for (k, c) in g.k().iter().zip(g.c()) {
                r += p * (mm + (c * vbar * mm / 4.0).sqrt()).powi(2) / (2.0 * k);
            }
            Bound::Storage(r)
        }
        _ => Bound::Force(p * mm),
    }
}

/// A random stiff model of `family` (0 GM, 1 GKV, 2 elastic, 3 KV) with `n` branches.
fn random_model(r: &mut Rng, family: usize, n: usize) -> Frbd {
    let c = random_contact(r);
    let k0 = r.log_uniform(1e3, 1e9);
    match family {
        0 => {
            let k = r.log_list(n, 1e3, 1e9);
            let tau = r.log_list(n, 1e-7, 1e3);
            Frbd::Gm(frbd::Gm::new(c, k0, &k, &tau).unwrap())
        }
        1 => {
            let k = r.log_list(n, 1e3, 1e9);
            let cc = r.log_list(n, 1e-9, 1e9);
            Frbd::Gkv(frbd::Gkv::new(c, k0, &k, &cc).unwrap())
        }
        2 => Frbd::Elastic(frbd::Elastic::new(c, k0).unwrap()),
        _ => {
            let c0 = if r.next() < 0.2 {
                0.0
            } else {
                r.log_uniform(1e-9, 1e9)
            };
            Frbd::Kv(frbd::Kv::new(c, k0, c0).unwrap())
        }
    }
}

/// Drives `m` from rest by v = v_m + v_a·cos(ωt) through zero, with steps from well resolved to
/// far beyond the fastest mode, and checks the proved bound after every step. Returns the
/// worst ratio to the bound (≤ 1 up to round-off).
fn worst_ratio(r: &mut Rng, m: &Frbd) -> f64 {
    let va = r.log_uniform(1e-5, 10.0);
    let vm = va * r.uniform(-1.2, 1.2);
    let omega = r.log_uniform(1e-2, 1e4);
    let h = r.log_uniform(1e-8, 10.0) / omega;
    let eps = m.contact().eps;
    let vbar = abs_eps(vm.abs() + va, eps);
    let vel = |t: f64| vm + va * (omega * t).cos();
    let mut x = vec![0.0; m.dim()];
    let mut st = Sdirk2::new(m.dim());
    let b = bound(m, vbar);
    let mut worst = 0.0_f64;
    for k in 0..300 {
        let t = k as f64 * h;
        let v2 = vel(t + h);
        st.step(m, h, vel(t + GAMMA * h), v2, &mut x);
        let ratio = match b {
            Bound::Force(fmax) => m.output(v2, &x).abs() / fmax,
            Bound::Storage(rr) => m.storage(&x) / rr,
        };
        assert!(ratio.is_finite(), "{m:?}: not finite at step {k}");
        worst = worst.max(ratio);
    }
    worst
}

#[test]
fn every_order_keeps_the_proved_bound_on_random_stiff_sets() {
    const SETS: usize = 1100;
    let mut r = Rng(0x5EED_F00D_2024);
    for (family, name, orders) in [
        (0, "GM", 0..=10),
        (1, "GKV", 0..=10),
        (2, "elastic", 0..=0),
        (3, "KV", 0..=0),
    ] {
        let orders: Vec<usize> = orders.collect();
        let mut worst = (0.0_f64, String::new());
        for i in 0..SETS {
            let n = orders[i % orders.len()];
            let m = random_model(&mut r, family, n);
            let w = worst_ratio(&mut r, &m);
            if w > worst.0 {
                worst = (w, format!("{m:?}"));
            }
        }
        eprintln!("{name}: worst ratio to the bound {:.12}", worst.0);
        assert!(
            worst.0 <= 1.0 + 1e-9,
            "{name}: {:.6} × the proved bound for {}",
            worst.0,
            worst.1
        );
    }
}

/// The fuzzing find: the first relaxation sample was 1.21·p·μ_max (SDIRK2's stability function
/// is −0.21 at hλ = 8.8, the step the capped budget took).
#[test]
fn relaxation_of_a_stiff_elastic_bristle_stays_within_p_mu_max() {
    let q = "view=relaxation&model=frbd-gm&n=0&k0=193263.9&mus=0.00698&mud=1.393&vs=1.95e-5\
             &p=67&vrel=-0.0107&tend=5953";
    let cfg = Scenario::parse(q).unwrap().relaxation_config().unwrap();
    let bound = 67.0 * 1.393;
    for c in relaxation::run(&cfg) {
        for (t, f) in c.t.iter().zip(&c.f) {
            assert!(
                f.abs() <= bound * (1.0 + 1e-12),
                "t = {t}: F = {f} > {bound}"
            );
        }
        // and it still relaxes to the steady state
        let last = *c.f.last().unwrap();
        assert!(
            (last - c.steady).abs() < 1e-9 * bound,
            "{last} vs {}",
            c.steady
        );
    }
}

/// The same overshoot in a hysteresis loop: k̄0 = 1e9 at 0.128 Hz through v = 0 took 1.36·p·μ_max.
#[test]
fn hysteresis_of_a_stiff_elastic_bristle_stays_within_p_mu_max() {
    let q = "view=hysteresis&model=frbd-gm&n=0&k0=1e9&freqs=0.128&vmean=0&vamp=0.3&mus=1&mud=1";
    let cfg = Scenario::parse(q).unwrap().hysteresis_config().unwrap();
    for l in hysteresis::run(&cfg) {
        for (v, f) in l.v.iter().zip(&l.f) {
            assert!(f.abs() <= 1.0 + 1e-12, "v = {v}: F = {f} > 1");
        }
    }
}

/// The monotone limit needs a true upper bound of |λ|max: power iteration on A(v) never finds a
/// faster mode than `max_rate`. GKV's `rate_bound` (an accuracy estimate: the fastest single
/// element) is not one: n equal elements in series relax together n times faster.
#[test]
fn max_rate_bounds_the_fastest_mode() {
    let mut r = Rng(0xFA57_0DE5);
    for i in 0..400 {
        let m = random_model(&mut r, i % 2, 1 + i % 6);
        let v = r.uniform(-1.0, 1.0) * r.log_uniform(1e-6, 10.0);
        let d = m.dim();
        let (zero, mut b) = (vec![0.0; d], vec![0.0; d]);
        m.rhs(v, &zero, &mut b);
        let apply = |x: &[f64], y: &mut [f64]| {
            m.rhs(v, x, y);
            for (yi, bi) in y.iter_mut().zip(&b) {
                *yi -= bi;
            }
        };
        let mut x: Vec<f64> = (0..d).map(|_| r.uniform(-1.0, 1.0)).collect();
        let mut y = vec![0.0; d];
        let mut lam = 0.0;
        for _ in 0..300 {
            let nx = x.iter().map(|a| a * a).sum::<f64>().sqrt();
            x.iter_mut().for_each(|a| *a /= nx);
            apply(&x, &mut y);
            lam = y.iter().map(|a| a * a).sum::<f64>().sqrt();
            std::mem::swap(&mut x, &mut y);
        }
        assert!(
            lam <= m.max_rate(v) * (1.0 + 1e-6),
            "{m:?} v = {v}: |λ| ≈ {lam} > {}",
            m.max_rate(v)
        );
    }
    let g = frbd::Gkv::new(Contact::default(), 1e6, &[1e3; 3], &[1.0; 3]).unwrap();
    let m = Frbd::Gkv(g);
    assert!(m.rate_bound(0.0) < 1.1e6 && m.max_rate(0.0) > 3e6);
}
