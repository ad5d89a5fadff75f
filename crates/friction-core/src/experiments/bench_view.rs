//! The stick-slip criterion of the benchmark, and the phenomena matrix's stick-slip column
//! decided from a 40 s benchmark run with it.

use super::stickslip::{build_for_bench, run_bench, Bench, StickSlipRun, Workspace};
use crate::model::ModelEntry;

/// Relative velocity band |v| ≤ [`STICK_BAND`]·v_b counted as sticking: regularised laws and
/// bristle models creep at a small fraction of the belt speed instead of holding v = 0 exactly.
pub const STICK_BAND: f64 = 0.02;
/// A slip phase must reach |v| ≥ [`SLIP_LEVEL`]·v_b, so that a damped ripple around the
/// steady sliding state is not counted as stick-slip.
pub const SLIP_LEVEL: f64 = 0.5;
/// Stick phases (each entered after a real slip phase) needed for "stick-slip".
pub const MIN_STICKS: usize = 2;

/// Whether a benchmark run shows stick-slip: after the first breakaway the block sticks again
/// (|v| ≤ 2 % of v_b) at least twice, each time after a slip phase that reached |v| ≥ v_b/2, and
/// the last of these sticks happens in the second half of the run (so the motion has not settled
/// into steady sliding).
pub fn shows_stick_slip(run: &StickSlipRun, b: &Bench) -> bool {
    let band = STICK_BAND * b.vb;
    let slip = SLIP_LEVEL * b.vb;
    let mut slipping = false;
    let mut sticks = 0usize;
    let mut last_stick = f64::NEG_INFINITY;
    for (&t, &v) in run.t.iter().zip(&run.v) {
        if !v.is_finite() {
            return false;
        }
        if v.abs() >= slip {
            slipping = true;
        } else if slipping && v.abs() <= band {
            slipping = false;
            sticks += 1;
            last_stick = t;
        }
    }
    sticks >= MIN_STICKS && last_stick >= 0.5 * b.tend
}

/// The phenomena-matrix hook: runs the 40 s benchmark (Table 6.1) with the entry's defaults
/// (μ_s, μ_k, F_N from the benchmark) and applies [`shows_stick_slip`]; a model that does not
/// build or whose run fails counts as "no".
pub fn stick_slip_hook(e: &ModelEntry) -> bool {
    let b = Bench::TABLE_6_1;
    let Ok(m) = build_for_bench(e, &b) else {
        return false;
    };
    match run_bench(&mut Workspace::default(), &b, m.as_ref()) {
        Ok(r) => shows_stick_slip(&r, &b),
        Err(_) => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn synthetic(vs: &[(f64, f64)]) -> StickSlipRun {
        StickSlipRun {
            t: vs.iter().map(|p| p.0).collect(),
            v: vs.iter().map(|p| p.1).collect(),
            ..StickSlipRun::default()
        }
    }

    #[test]
    fn criterion_needs_repeated_sticks_after_real_slips() {
        let b = Bench::TABLE_6_1;
        // slip to −v_b (block at rest) and back to stick, three times, last at t = 30 s
        let sawtooth = synthetic(&[
            (0.0, 0.0),
            (5.0, -0.1),
            (10.0, 0.0),
            (15.0, -0.1),
            (20.0, 0.0),
            (25.0, -0.1),
            (30.0, 0.0),
        ]);
        assert!(shows_stick_slip(&sawtooth, &b));
        // a ripple that never reaches v_b/2 is not stick-slip
        let ripple = synthetic(&[
            (0.0, 0.0),
            (10.0, -0.04),
            (20.0, 0.0),
            (30.0, -0.04),
            (35.0, 0.0),
        ]);
        assert!(!shows_stick_slip(&ripple, &b));
        // two sticks that both end before t_end/2: the motion settled
        let settled = synthetic(&[
            (0.0, 0.0),
            (3.0, -0.1),
            (6.0, 0.0),
            (9.0, -0.1),
            (12.0, 0.0),
            (40.0, -0.03),
        ]);
        assert!(!shows_stick_slip(&settled, &b));
    }

    #[test]
    fn coulomb_and_lugre_stick_slip_a_viscous_law_without_stiction_does_not() {
        for (id, expect) in [
            ("karnopp", true),
            ("lugre", true),
            ("coulomb-viscous", false),
        ] {
            let e = crate::registry::find(id).expect("registered");
            assert_eq!(stick_slip_hook(e), expect, "{id}");
        }
    }
}
