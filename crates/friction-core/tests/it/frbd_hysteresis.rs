//! Hysteresis loops (Fig. 3) against an independent RK4 reference, and the stepper's order.

#![allow(clippy::unwrap_used, clippy::needless_range_loop)]

use crate::common;

use common::{reference_loop, RefModel};
use friction_core::experiments::hysteresis::{self, HysteresisConfig};
use friction_core::frbd::{self, Contact, Frbd};

fn gm_default() -> Frbd {
    Frbd::Gm(frbd::Gm::new(Contact::default(), 1e4, &[5.45e4], &[1e-3]).unwrap())
}

fn rel(a: f64, b: f64) -> f64 {
    (a - b).abs() / b.abs()
}

#[test]
fn default_loops_match_reference_to_1e_4() {
    let cfg = HysteresisConfig::new(gm_default());
    let loops = hysteresis::run(&cfg);
    let r = RefModel::gm(1e4, &[5.45e4], &[1e-3]);
    for l in &loops {
        let (m, _) = reference_loop(&r, 0.015, 0.01, l.omega, 20_000);
        let lm = l.metrics;
        eprintln!(
            "f={} steps/cycle={} cycles={} fmax {:.3e} fmin {:.3e} area {:.3e} energy {:.3e}",
            l.freq,
            l.t.len() - 1,
            lm.cycles,
            rel(lm.fmax, m[0]),
            rel(lm.fmin, m[1]),
            rel(lm.area, m[2]),
            rel(lm.energy, m[3])
        );
        assert!(l.converged);
        assert!(rel(lm.fmax, m[0]) < 1e-4, "fmax {} vs {}", lm.fmax, m[0]);
        assert!(rel(lm.area, m[2]) < 1e-4, "area {} vs {}", lm.area, m[2]);
        assert!(rel(lm.energy, m[3]) < 1e-4);
        assert!(rel(lm.fmin, m[1]) < 1e-4);
    }
}
