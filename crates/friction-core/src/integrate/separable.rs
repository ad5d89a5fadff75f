//! Forward-difference Jacobians of systems whose states past a short head each depend only on
//! themselves and the head (a separable friction model's elements under a prescribed motion).
//!
//! Differencing column by column costs one evaluation of all n states per column, O(n²) per
//! Jacobian: GMS with 1000 elements spent seconds per solver step there. Because a tail state's
//! derivative sees no other tail state, moving every tail state at once gives every diagonal
//! entry from one evaluation, with the same numbers the column-by-column differences give
//! (and the exact zeros off the diagonal), so the solver takes the same steps.

/// Above this many states only the entries the solver's arrow layout reads are written (see
/// [`arrow_jacobian`]); it is at least the solver's smallest arrow size, below which the
/// solver factors the whole matrix.
const DENSE_FILL: usize = 64;
const _: () = assert!(DENSE_FILL >= super::rodas::ARROW_MIN);

/// Writes ∂f/∂y of the leading `nc` states (row-major nc × nc) into `jac` by forward differences,
/// column by column for the first `head` states and all at once for the rest.
///
/// Requires: for i ≥ `head`, f_i depends on y_i and y_0..y_head only; for i < `head`, f_i does
/// not depend on any y_j with j ≥ `head`; above [`DENSE_FILL`] states the caller's system
/// reports `head` as its `dense_head` (the tail's off-diagonal entries are not written). `scale(j)` is the state's typical size (the increment
/// is 1.5e-8 · max(|y_j|, scale(j)), as in the solver's own differences).
pub(crate) fn arrow_jacobian(
    f: &dyn Fn(&[f64], &mut [f64]),
    scale: &dyn Fn(usize) -> f64,
    y: &[f64],
    head: usize,
    nc: usize,
    jac: &mut [f64],
) {
    let n = y.len();
    let (mut f0, mut f1) = (vec![0.0; n], vec![0.0; n]);
    let mut ytmp = y.to_vec();
    let mut d = vec![0.0; nc];
    f(y, &mut f0);
    if nc <= DENSE_FILL {
        jac[..nc * nc].fill(0.0);
    } else {
        // Zeroing all nc² entries was 8 MB of writes per step for GMS with 1000 elements
        // (half the time of a 1.5 s unit). The solver factors such a system in its arrow
        // layout (`System::dense_head` = `head`), which reads the head rows and columns and
        // the diagonal only; the head columns and the diagonal are written below.
        jac[..head.min(nc) * nc].fill(0.0);
    }
    let step = |j: usize, ytmp: &mut [f64]| {
        let yj = y[j];
        ytmp[j] = yj + 1.5e-8 * yj.abs().max(scale(j));
        ytmp[j] - yj
    };
    for j in 0..head.min(nc) {
        let dj = step(j, &mut ytmp);
        f(&ytmp, &mut f1);
        for i in 0..nc {
            jac[i * nc + j] = (f1[i] - f0[i]) / dj;
        }
        ytmp[j] = y[j];
    }
    for (j, dj) in d.iter_mut().enumerate().take(nc).skip(head) {
        *dj = step(j, &mut ytmp);
    }
    if head < nc {
        f(&ytmp, &mut f1);
        for i in head..nc {
            jac[i * nc + i] = (f1[i] - f0[i]) / d[i];
        }
    }
}
