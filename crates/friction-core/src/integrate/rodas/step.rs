//! One Rosenbrock step of [`Rodas`]: the Jacobian, the factorisation of G = I/(hγ) − J (dense,
//! explicit small inverse, or arrow-shaped by blocks), the stage solves and the embedded error
//! estimate. The step-size loop that calls it is in the parent module.

use super::tableau::MAX_STAGES;
use super::{Options, Rodas, System};
use crate::integrate::linalg::{invert_arrow, invert_small, lu_factor, lu_solve};

/// Largest factored size solved through an explicit inverse (and the fixed-size stage path):
/// 7 covers Leuven with its default four elements (dense Jacobian from `partials_dense`), where
/// the pivoted 7 × 7 substitution was the largest cost of a step.
pub(super) const SMALL: usize = 7;
/// Arrow-shaped systems with more continuous states than this use the Schur complement. Kept
/// at 6 when [`SMALL`] grew to 7 so that the bristle model (7 states) stays on the path its
/// benchmark values were validated with.
pub(crate) const ARROW_MIN: usize = 6;

impl Rodas {
    /// Evaluates ∂f/∂y of the continuous states into `jac`, from the system or by forward
    /// differences; `f0` must hold f(y).
    pub(super) fn jacobian<S: System + ?Sized>(&mut self, sys: &S, y: &[f64]) {
        self.stats.jevals += 1;
        let nc = self.nc;
        if sys.jacobian(y, &mut self.jac) {
            return;
        }
        // Forward differences, column by column; f0 = f(y) is already known.
        self.ytmp.copy_from_slice(y);
        for j in 0..nc {
            let yj = y[j];
            let d = 1.5e-8 * yj.abs().max(sys.scale(j));
            self.ytmp[j] = yj + d;
            let d = self.ytmp[j] - yj;
            sys.rhs(&self.ytmp, &mut self.f1);
            self.stats.fevals += 1;
            for i in 0..nc {
                self.jac[i * nc + j] = (self.f1[i] - self.f0[i]) / d;
            }
            self.ytmp[j] = yj;
        }
    }

    /// Factors G = I/(hγ) − J: dense LU with partial pivoting, or, for an arrow structure
    /// (diagonal tail after the dense head p), the LU of the Schur complement
    /// S = G_hh − G_ht D⁻¹ G_th, which costs O(p² n) instead of O(n³). False if singular.
    pub(super) fn decompose(&mut self, h: f64) -> bool {
        self.stats.lus += 1;
        let nc = self.nc;
        let d = 1.0 / (h * self.tab().gamma);
        let p = self.p;
        if p > 0 && p < nc {
            for i in p..nc {
                let di = d - self.jac[i * nc + i];
                if !(di.abs() > 1e-300) || !di.is_finite() {
                    return false;
                }
                self.dinv[i] = 1.0 / di;
            }
            let jac = &self.jac[..nc * nc];
            if p == 2 {
                // The closed loop's (x, ẋ) head: the four sums in one pass over the tail rows,
                // each still adding its terms in i order (bit-identical to the loops below).
                let mut s = [-jac[0] + d, -jac[1] + 0.0, -jac[nc] + 0.0, -jac[nc + 1] + d];
                for i in p..nc {
                    let (a0, a1) = (jac[i], jac[nc + i]);
                    let (b0, b1) = (jac[i * nc], jac[i * nc + 1]);
                    let di = self.dinv[i];
                    s[0] -= a0 * b0 * di;
                    s[1] -= a0 * b1 * di;
                    s[2] -= a1 * b0 * di;
                    s[3] -= a1 * b1 * di;
                }
                self.lu[..4].copy_from_slice(&s);
            } else {
                for a in 0..p {
                    for b in 0..p {
                        let mut s = -jac[a * nc + b] + if a == b { d } else { 0.0 };
                        for i in p..nc {
                            // G_ai G_ib / D_i with G = −J off the diagonal.
                            s -= jac[a * nc + i] * jac[i * nc + b] * self.dinv[i];
                        }
                        self.lu[a * p + b] = s;
                    }
                }
            }
            let ok = lu_factor(&mut self.lu[..p * p], &mut self.piv[..p], p);
            self.use_inv = ok && p <= SMALL;
            if self.use_inv {
                Self::invert(&self.lu[..p * p], &self.piv[..p], p, &mut self.inv[..p * p]);
            }
            return ok;
        }
        // Arrow-shaped Jacobians (the closed loop's x, ẋ head with model states that each
        // depend only on themselves and the head) invert by blocks at a fraction of the cost,
        // straight from J (no copy of G needed).
        let arrow = match nc {
            3 => invert_arrow::<3>(&self.jac, d, &mut self.inv),
            4 => invert_arrow::<4>(&self.jac, d, &mut self.inv),
            5 => invert_arrow::<5>(&self.jac, d, &mut self.inv),
            _ => false,
        };
        if arrow {
            self.use_inv = true;
            return true;
        }
        for (l, j) in self.lu.iter_mut().zip(&self.jac) {
            *l = -*j;
        }
        for i in 0..nc {
            self.lu[i * nc + i] += d;
        }
        let ok = match nc {
            1 => invert_small::<1>(&mut self.lu, &mut self.inv),
            2 => invert_small::<2>(&mut self.lu, &mut self.inv),
            3 => invert_small::<3>(&mut self.lu, &mut self.inv),
            4 => invert_small::<4>(&mut self.lu, &mut self.inv),
            5 => invert_small::<5>(&mut self.lu, &mut self.inv),
            6 => invert_small::<6>(&mut self.lu, &mut self.inv),
            7 => invert_small::<7>(&mut self.lu, &mut self.inv),
            _ => {
                self.use_inv = false;
                crate::integrate::meter::add(crate::integrate::meter::dense(nc));
                return lu_factor(&mut self.lu, &mut self.piv, nc);
            }
        };
        self.use_inv = ok;
        ok
    }

    /// Writes the row-major inverse of the LU-factored n×n matrix into `inv` (n ≤ [`SMALL`]).
    fn invert(lu: &[f64], piv: &[usize], n: usize, inv: &mut [f64]) {
        let mut col = [0.0f64; SMALL];
        for j in 0..n {
            col[..n].fill(0.0);
            col[j] = 1.0;
            lu_solve(lu, piv, n, &mut col[..n]);
            for i in 0..n {
                inv[i * n + j] = col[i];
            }
        }
    }

    /// b ← inv · b for the first n entries of b.
    #[inline]
    fn apply_inv(inv: &[f64], n: usize, b: &mut [f64]) {
        let mut x = [0.0f64; SMALL];
        x[..n].copy_from_slice(&b[..n]);
        for (i, bi) in b[..n].iter_mut().enumerate() {
            let row = &inv[i * n..(i + 1) * n];
            let mut s = 0.0;
            for j in 0..n {
                s += row[j] * x[j];
            }
            *bi = s;
        }
    }

    /// Solves G x = b in place with the factors of [`Rodas::decompose`].
    fn solve(&self, b: &mut [f64]) {
        let nc = self.nc;
        let p = self.p;
        if p > 0 && p < nc {
            let (head, tail) = b[..nc].split_at_mut(p);
            let dinv = &self.dinv[p..nc];
            // Row slices instead of index arithmetic: the same products in the same order
            // (bit-identical), without a bounds check per term (GMS: most of a stage's cost).
            for (a, ha) in head.iter_mut().enumerate() {
                let mut s = *ha;
                let row = &self.jac[a * nc + p..(a + 1) * nc];
                for ((j, ti), di) in row.iter().zip(tail.iter()).zip(dinv) {
                    s += j * ti * di;
                }
                *ha = s;
            }
            if self.use_inv {
                Self::apply_inv(&self.inv[..p * p], p, head);
            } else {
                lu_solve(&self.lu[..p * p], &self.piv[..p], p, head);
            }
            if let [h0, h1] = *head {
                // The closed loop's head (x, ẋ): a two-term inner loop costs more in loop
                // set-up than in arithmetic, so it is written out (same terms, same order).
                for ((i, ti), di) in tail.iter_mut().enumerate().zip(dinv) {
                    let r = (p + i) * nc;
                    let mut s = *ti;
                    s += self.jac[r] * h0;
                    s += self.jac[r + 1] * h1;
                    *ti = s * di;
                }
            } else {
                for ((i, ti), di) in tail.iter_mut().enumerate().zip(dinv) {
                    let row = &self.jac[(p + i) * nc..(p + i) * nc + p];
                    let mut s = *ti;
                    for (j, hb) in row.iter().zip(head.iter()) {
                        s += j * hb;
                    }
                    *ti = s * di;
                }
            }
        } else if self.use_inv {
            Self::apply_inv(&self.inv, nc, b);
        } else {
            lu_solve(&self.lu, &self.piv, nc, b);
        }
    }

    /// One Rosenbrock step of size h from y (with f0 = f(y) and the LU ready); writes `ynew` and
    /// returns the scaled error norm (infinite if anything is not finite).
    pub(super) fn attempt<S: System + ?Sized>(
        &mut self,
        sys: &S,
        y: &[f64],
        h: f64,
        opts: &Options,
    ) -> f64 {
        crate::integrate::meter::step(self.n, self.tab().s);
        if self.use_inv && self.p == 0 {
            match self.nc {
                1 => return self.attempt_small::<1, S>(sys, y, h, opts),
                2 => return self.attempt_small::<2, S>(sys, y, h, opts),
                3 => return self.attempt_small::<3, S>(sys, y, h, opts),
                4 => return self.attempt_small::<4, S>(sys, y, h, opts),
                5 => return self.attempt_small::<5, S>(sys, y, h, opts),
                6 => return self.attempt_small::<6, S>(sys, y, h, opts),
                7 => return self.attempt_small::<7, S>(sys, y, h, opts),
                _ => {}
            }
        }
        self.attempt_general(sys, y, h, opts)
    }

    /// [`Rodas::attempt`] for a dense system of N ≤ [`SMALL`] continuous states with the
    /// explicit inverse ready: fixed-size arrays let the compiler unroll every loop and drop
    /// the bounds checks, which at N = 3 is most of the cost of a step. Same arithmetic, in the
    /// same order, as the general path.
    fn attempt_small<const N: usize, S: System + ?Sized>(
        &mut self,
        sys: &S,
        y: &[f64],
        h: f64,
        opts: &Options,
    ) -> f64 {
        let n = y.len();
        let mut inv = [[0.0f64; N]; N];
        for (i, row) in inv.iter_mut().enumerate() {
            row.copy_from_slice(&self.inv[i * N..(i + 1) * N]);
        }
        let mut y0 = [0.0f64; N];
        y0.copy_from_slice(&y[..N]);
        if n > N {
            self.ynew[N..n].copy_from_slice(&y[N..n]);
        }
        let tab = self.tab();
        let ns = tab.s;
        let mut k = [[0.0f64; N]; MAX_STAGES];
        let mut rhs = std::mem::take(&mut self.ytmp);
        for s in 0..ns {
            // Sums run over j in the outer loop, element-wise inside: each element still adds
            // its terms in j order (same bits), but every coefficient, and c_sj/h, is formed
            // once per stage rather than once per element.
            let mut r = [0.0f64; N];
            if s == 0 {
                r.copy_from_slice(&self.f0[..N]);
            } else {
                let mut v = y0;
                for j in 0..s {
                    let a = tab.a[s][j];
                    for i in 0..N {
                        v[i] += a * k[j][i];
                    }
                }
                self.ynew[..N].copy_from_slice(&v);
                sys.rhs(&self.ynew, &mut rhs);
                self.stats.fevals += 1;
                // Element by element through `black_box`: copied as a whole, the compiler
                // loads two adjacent entries with one 16-byte load, which the two 8-byte stores
                // of the right-hand side cannot forward to, and the stage waits for them to
                // reach the cache (a quarter of this function's time on elasto-plastic,
                // issue 39). The values are the same.
                for i in 0..N {
                    r[i] = std::hint::black_box(rhs[i]);
                }
            }
            for j in 0..s {
                let c = tab.c[s][j] / h;
                for i in 0..N {
                    r[i] += c * k[j][i];
                }
            }
            for i in 0..N {
                let mut v = 0.0;
                for j in 0..N {
                    v += inv[i][j] * r[j];
                }
                k[s][i] = v;
            }
        }
        self.ytmp = rhs;
        let mut sum = 0.0;
        let mut finite = true;
        let mut yn = y0;
        for j in 0..ns {
            let mj = tab.m[j];
            for i in 0..N {
                yn[i] += mj * k[j][i];
            }
        }
        for i in 0..N {
            let v = yn[i];
            self.ynew[i] = v;
            finite &= v.is_finite();
            let o = self.origins[i];
            let sc = opts.atol * self.scales[i] + opts.rtol * (y0[i] - o).abs().max((v - o).abs());
            let e = k[ns - 1][i] / sc;
            sum += e * e;
        }
        let err = (sum / N as f64).sqrt();
        if err.is_finite() && finite {
            err
        } else {
            f64::INFINITY
        }
    }

    /// [`Rodas::attempt`] for any size and structure, through [`Rodas::solve`].
    fn attempt_general<S: System + ?Sized>(
        &mut self,
        sys: &S,
        y: &[f64],
        h: f64,
        opts: &Options,
    ) -> f64 {
        let nc = self.nc;
        let n = y.len();
        // Element-wise fused loops: at n = 3 the per-call overhead of slice copies (memmove)
        // and iterator chains costs more than the arithmetic.
        let mut rhs = std::mem::take(&mut self.ytmp);
        let mut k = std::mem::take(&mut self.k);
        let tab = self.tab();
        let ns = tab.s;
        // The frozen states never change within a step: copied once, not once per stage.
        if n > nc {
            self.ynew[nc..n].copy_from_slice(&y[nc..n]);
        }
        for s in 0..ns {
            if s == 0 {
                rhs[..nc].copy_from_slice(&self.f0[..nc]);
            } else {
                let yn = &mut self.ynew[..nc];
                yn.copy_from_slice(&y[..nc]);
                for (j, &aj) in tab.a[s][..s].iter().enumerate() {
                    for (v, kj) in yn.iter_mut().zip(&k[j * nc..(j + 1) * nc]) {
                        *v += aj * kj;
                    }
                }
                sys.rhs(&self.ynew, &mut rhs);
                self.stats.fevals += 1;
            }
            let (done, rest) = k.split_at_mut(s * nc);
            let ks = &mut rest[..nc];
            // j outer, element-wise inside: each element sums in j order as before (same
            // bits), with c_sj/h formed once instead of once per element.
            ks.copy_from_slice(&rhs[..nc]);
            for (j, &cj) in tab.c[s][..s].iter().enumerate() {
                let c = cj / h;
                for (ki, dj) in ks.iter_mut().zip(&done[j * nc..(j + 1) * nc]) {
                    *ki += c * dj;
                }
            }
            self.solve(ks);
        }
        self.ytmp = rhs;
        let yn = &mut self.ynew[..nc];
        yn.copy_from_slice(&y[..nc]);
        for (j, &mj) in tab.m[..ns].iter().enumerate() {
            for (v, kj) in yn.iter_mut().zip(&k[j * nc..(j + 1) * nc]) {
                *v += mj * kj;
            }
        }
        self.k = k;
        let err_k = &self.k[(ns - 1) * nc..ns * nc];
        let mut sum = 0.0;
        for i in 0..nc {
            let o = self.origins[i];
            let sc = opts.atol * self.scales[i]
                + opts.rtol * (y[i] - o).abs().max((self.ynew[i] - o).abs());
            let e = err_k[i] / sc;
            sum += e * e;
        }
        let err = (sum / nc.max(1) as f64).sqrt();
        if err.is_finite() && self.ynew.iter().all(|v| v.is_finite()) {
            err
        } else {
            f64::INFINITY
        }
    }
}
