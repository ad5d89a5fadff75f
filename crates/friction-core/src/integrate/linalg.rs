//! Dense linear algebra of the implicit integrators, for the tiny systems here (1 to ~10
//! unknowns, row-major): the one LU with partial pivoting ([`lu_factor`], [`lu_solve`]), shared
//! by [`super::rodas`] and [`super::implicit_euler`]'s Newton iteration, a fixed-size
//! Gauss–Jordan inverse ([`invert_small`]) and a block inverse for arrow-shaped matrices
//! ([`invert_arrow`]), both for Rodas's stage solves.
//!
//! Nothing here allocates: the callers own the matrices, pivots and right-hand sides, so that
//! stepping never allocates.

// Index loops mirror the textbook formulas; `!(x > 0)` comparisons are deliberate so that NaN
// takes the failure branch.
#![allow(clippy::needless_range_loop, clippy::neg_cmp_op_on_partial_ord)]

/// In-place LU with partial pivoting of the n×n row-major matrix `a` (L below the diagonal with
/// unit diagonal, U on and above it, rows swapped as recorded in `piv`); false if a pivot is zero
/// or not finite, so that NaN from a failed model evaluation takes the failure branch.
pub(crate) fn lu_factor(a: &mut [f64], piv: &mut [usize], n: usize) -> bool {
    for c in 0..n {
        let mut p = c;
        let mut best = a[c * n + c].abs();
        for r in c + 1..n {
            let v = a[r * n + c].abs();
            if v > best {
                best = v;
                p = r;
            }
        }
        if !(best > 0.0) || !best.is_finite() {
            return false;
        }
        piv[c] = p;
        if p != c {
            for j in 0..n {
                a.swap(c * n + j, p * n + j);
            }
        }
        let inv = 1.0 / a[c * n + c];
        for r in c + 1..n {
            let f = a[r * n + c] * inv;
            a[r * n + c] = f;
            if f != 0.0 {
                for j in c + 1..n {
                    a[r * n + j] -= f * a[c * n + j];
                }
            }
        }
    }
    true
}

/// Solves A x = b in place, `b` becoming x, with the factors and pivots of [`lu_factor`].
#[inline]
pub(crate) fn lu_solve(lu: &[f64], piv: &[usize], n: usize, b: &mut [f64]) {
    let b = &mut b[..n];
    for (c, &p) in piv.iter().enumerate().take(n) {
        if p != c {
            b.swap(c, p);
        }
    }
    for r in 1..n {
        let row = &lu[r * n..r * n + r];
        let s: f64 = row.iter().zip(&b[..r]).map(|(l, x)| l * x).sum();
        b[r] -= s;
    }
    for r in (0..n).rev() {
        let row = &lu[r * n..(r + 1) * n];
        let s: f64 = row[r + 1..]
            .iter()
            .zip(&b[r + 1..])
            .map(|(l, x)| l * x)
            .sum();
        b[r] = (b[r] - s) / row[r];
    }
}

/// Inverts the row-major N×N matrix `a` (destroyed) into `inv` by Gauss–Jordan elimination
/// with partial pivoting; false if singular or not finite.
pub(super) fn invert_small<const N: usize>(a: &mut [f64], inv: &mut [f64]) -> bool {
    let mut m = [[0.0f64; N]; N];
    let mut r = [[0.0f64; N]; N];
    for i in 0..N {
        m[i].copy_from_slice(&a[i * N..(i + 1) * N]);
        r[i][i] = 1.0;
    }
    for c in 0..N {
        let mut p = c;
        let mut best = m[c][c].abs();
        for i in c + 1..N {
            if m[i][c].abs() > best {
                best = m[i][c].abs();
                p = i;
            }
        }
        if !(best > 0.0) || !best.is_finite() {
            return false;
        }
        m.swap(c, p);
        r.swap(c, p);
        let d = 1.0 / m[c][c];
        for j in 0..N {
            m[c][j] *= d;
            r[c][j] *= d;
        }
        for i in 0..N {
            if i != c {
                let f = m[i][c];
                if f != 0.0 {
                    for j in 0..N {
                        m[i][j] -= f * m[c][j];
                        r[i][j] -= f * r[c][j];
                    }
                }
            }
        }
    }
    for i in 0..N {
        inv[i * N..(i + 1) * N].copy_from_slice(&r[i]);
    }
    r.iter().flatten().all(|v| v.is_finite())
}

/// Writes the row-major inverse of G = d I − J into `inv` by block elimination when the N×N
/// Jacobian `jac` is arrow-shaped: a dense 2×2 head, a diagonal tail (off-diagonal tail
/// entries exactly zero) whose entries J_ii ≤ d/2, so that every tail pivot d − J_ii ≥ d/2
/// needs no pivoting. With D the tail diagonal and S = G_hh − G_ht D⁻¹ G_th the 2×2 Schur
/// complement, G⁻¹ = [[S⁻¹, −S⁻¹ G_ht D⁻¹], [−D⁻¹ G_th S⁻¹, D⁻¹ + D⁻¹ G_th S⁻¹ G_ht D⁻¹]]:
/// O(N²) work and one 2×2 inverse instead of Gauss–Jordan's O(N³) with row swaps. False
/// (nothing usable written) when the structure or the pivot bounds do not hold, or S is
/// near-singular; the caller then falls back to pivoted elimination.
pub(super) fn invert_arrow<const N: usize>(jac: &[f64], d: f64, inv: &mut [f64]) -> bool {
    const H: usize = 2;
    let j = |r: usize, c: usize| jac[r * N + c];
    let mut dinv = [0.0f64; N];
    for i in H..N {
        if !(j(i, i) <= 0.5 * d) {
            return false;
        }
        for c in H..N {
            if c != i && j(i, c) != 0.0 {
                return false;
            }
        }
        dinv[i] = 1.0 / (d - j(i, i));
    }
    let mut s = [[0.0f64; H]; H];
    for (a, row) in s.iter_mut().enumerate() {
        for (b, sab) in row.iter_mut().enumerate() {
            let mut v = if a == b { d } else { 0.0 } - j(a, b);
            for i in H..N {
                v -= j(a, i) * j(i, b) * dinv[i];
            }
            *sab = v;
        }
    }
    let det = s[0][0] * s[1][1] - s[0][1] * s[1][0];
    let size = (s[0][0] * s[1][1]).abs() + (s[0][1] * s[1][0]).abs();
    if !(det.abs() > 1e-12 * size) || !det.is_finite() {
        return false;
    }
    let r = 1.0 / det;
    let si = [[s[1][1] * r, -s[0][1] * r], [-s[1][0] * r, s[0][0] * r]];
    for a in 0..H {
        for b in 0..H {
            inv[a * N + b] = si[a][b];
        }
        for i in H..N {
            // −S⁻¹ G_ht D⁻¹ with G_ht = −J_ht.
            inv[a * N + i] = (si[a][0] * j(0, i) + si[a][1] * j(1, i)) * dinv[i];
        }
    }
    for i in H..N {
        for b in 0..H {
            inv[i * N + b] = dinv[i] * (j(i, 0) * si[0][b] + j(i, 1) * si[1][b]);
        }
        for c in H..N {
            let diag = if c == i { dinv[i] } else { 0.0 };
            inv[i * N + c] = diag + dinv[i] * (j(i, 0) * inv[c] + j(i, 1) * inv[N + c]);
        }
    }
    inv[..N * N].iter().all(|v| v.is_finite())
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// An arrow-shaped N×N Jacobian: the closed loop's head rows (ẋ = v, m v̇ = −k x − F) and
    /// a diagonal tail, entries spanning the magnitudes of the stiff models (σ0 = 1e5).
    fn arrow<const N: usize>(e: &[f64]) -> Vec<f64> {
        let mut jac = vec![0.0; N * N];
        jac[1] = 1.0;
        jac[N] = -e[0];
        jac[N + 1] = e[1];
        for i in 2..N {
            jac[N + i] = e[3 * i] * 1e5;
            jac[i * N + 1] = e[3 * i + 1] * 1e3;
            jac[i * N + i] = -e[3 * i + 2].abs() * 1e5;
        }
        jac
    }

    fn check<const N: usize>(e: &[f64], d: f64) -> Result<(), TestCaseError> {
        let jac = arrow::<N>(e);
        let mut g: Vec<f64> = jac.iter().map(|v| -v).collect();
        for i in 0..N {
            g[i * N + i] += d;
        }
        let mut by_blocks = vec![0.0; N * N];
        prop_assume!(invert_arrow::<N>(&jac, d, &mut by_blocks));
        let mut by_elimination = vec![0.0; N * N];
        prop_assume!(invert_small::<N>(&mut g.clone(), &mut by_elimination));
        let scale = by_elimination.iter().fold(0.0f64, |m, v| m.max(v.abs()));
        for (a, b) in by_blocks.iter().zip(&by_elimination) {
            prop_assert!((a - b).abs() <= 1e-9 * scale, "{a} vs {b}");
        }
        // G · G⁻¹ = I, entry by entry, relative to |G's row| · |G⁻¹'s column| (normwise: an
        // entry of G⁻¹ is as accurate as its column's largest, not to its own size; against
        // the products' own sizes a random G with a 4e7 coupling failed at 9.8e-12 of 0.018)
        for c in 0..N {
            let col = (0..N).fold(0.0f64, |m, k| m.max(by_blocks[k * N + c].abs()));
            for r in 0..N {
                let mut s = 0.0;
                let mut row = 0.0;
                for k in 0..N {
                    s += g[r * N + k] * by_blocks[k * N + c];
                    row += g[r * N + k].abs();
                }
                let want = if r == c { 1.0 } else { 0.0 };
                let size = row * col;
                prop_assert!(
                    (s - want).abs() <= 1e-12 * size.max(1.0),
                    "{} of {size}",
                    (s - want).abs()
                );
            }
        }
        Ok(())
    }

    proptest! {
        #[test]
        fn arrow_inverse_matches_elimination(
            e in prop::collection::vec(-3.0f64..3.0, 15),
            lgd in -1.0f64..8.0,
        ) {
            let d = 10f64.powf(lgd);
            check::<3>(&e, d)?;
            check::<4>(&e, d)?;
            check::<5>(&e, d)?;
        }
    }

    #[test]
    fn lu_solves_with_row_swaps_and_declines_singular_matrices() {
        // A zero leading pivot forces a swap; x = (1, 2, 3).
        let a = [0.0, 2.0, 1.0, 1.0, 1.0, 1.0, 4.0, 0.0, 3.0];
        let x = [1.0, 2.0, 3.0];
        let mut b: Vec<f64> = (0..3)
            .map(|r| (0..3).map(|c| a[r * 3 + c] * x[c]).sum())
            .collect();
        let (mut lu, mut piv) = (a.to_vec(), vec![0; 3]);
        assert!(lu_factor(&mut lu, &mut piv, 3));
        assert_ne!(piv[0], 0);
        lu_solve(&lu, &piv, 3, &mut b);
        for (got, want) in b.iter().zip(&x) {
            assert!((got - want).abs() <= 1e-14, "{got} vs {want}");
        }
        // Rank 2 (row 3 = row 1 + row 2), and a NaN from a failed model evaluation.
        let mut singular = [1.0, 2.0, 3.0, 0.0, 1.0, 1.0, 1.0, 3.0, 4.0];
        assert!(!lu_factor(&mut singular, &mut piv, 3));
        let mut nan = [f64::NAN, 1.0, 1.0, 1.0];
        assert!(!lu_factor(&mut nan, &mut piv[..2], 2));
    }

    #[test]
    fn arrow_inverse_declines_what_it_cannot_do() {
        let mut inv = vec![0.0; 16];
        let mut jac = arrow::<4>(&[1.0; 15]);
        // Coupled tail states.
        jac[2 * 4 + 3] = 1.0;
        assert!(!invert_arrow::<4>(&jac, 10.0, &mut inv));
        // A growing tail state whose pivot d − J_ii would fall below d/2.
        let mut jac = arrow::<4>(&[1.0; 15]);
        jac[3 * 4 + 3] = 6.0;
        assert!(!invert_arrow::<4>(&jac, 10.0, &mut inv));
    }
}
