//! A running count of the integrators' work on this thread, in state-steps: a Rosenbrock attempt
//! on a system of n states counts 16 + n per six stages (Rodas4's attempt; its fixed overhead is
//! worth about 16 states; a Rodas5P attempt, 8 stages, counts 4/3 of that), an
//! implicit-Euler Newton iteration a quarter of that, an SDIRK2 step of the FrBD models n, and a
//! dense factorisation of n > 7 states [`dense`]`(n)` more. Natively a state-step takes about
//! 0.1 µs on the costly models (GMS, bristles, Leuven), less on the others.
//!
//! Jobs bound each unit of work in solver steps ([`crate::experiments`]' `unit_steps`); the
//! meter lets tests check that bound on any job, from the outside and without a clock: the work
//! of one `Job::advance` is the difference of two readings. It never changes a result.

use std::cell::Cell;

thread_local! {
    static WORK: Cell<u64> = const { Cell::new(0) };
}

/// Work done on this thread so far \[state-steps\]; only differences mean anything.
pub fn work() -> u64 {
    WORK.with(Cell::get)
}

/// Counts `w` state-steps.
#[inline]
pub(crate) fn add(w: usize) {
    WORK.with(|c| c.set(c.get().wrapping_add(w as u64)));
}

/// Counts one Rosenbrock attempt of `stages` stages on a system with `n` states
/// \[state-steps\]: the cost of an attempt grows with its stages, so that a unit of work bounds
/// the time whichever method runs.
#[inline]
pub(crate) fn step(n: usize, stages: usize) {
    add((16 + n) * stages / STAGES_PER_STEP);
}

/// Stages of the attempt a state-step count is calibrated on (Rodas4's six): step counts sized
/// in state-steps scale by this over their method's stages.
pub(crate) const STAGES_PER_STEP: usize = 6;

/// Extra work of a dense Jacobian and factorisation of `n` states \[state-steps\]: the n
/// derivative evaluations of a finite-difference Jacobian and the n³/3 operations of the LU (a
/// Leuven model with 50 elements: about 40 µs a step); 0 for n ≤ 7 (unrolled fixed-size code).
pub fn dense(n: usize) -> usize {
    if n <= 7 {
        0
    } else {
        n * n * n / 300 + n * n / 32
    }
}
