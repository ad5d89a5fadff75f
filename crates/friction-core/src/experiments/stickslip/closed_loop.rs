//! The benchmark's closed loop as one stiff system for the Rodas solver: the block (x, ẋ) on the
//! moving belt and the model's states, with the events of stick, slip and the model's own
//! switches, and the Filippov slides of laws that jump across a velocity surface.
//!
//! The same loop drives the force-driven block of [`super::forced`] (no belt, no spring, an
//! applied force u(t)): there the time is a state, y = \[x, ẋ, t, z…\], because the solver
//! integrates autonomous systems; [`Drive`] (`drive.rs`) says which of the two the loop is.
//!
//! Why this file is long (over 600 lines): one stiff system whose derivative, Jacobian and events
//! must agree term by term; apart they would drift.

use super::drive::Drive;
use super::{partials_len, Bench, StickSlipRun};
use crate::integrate::rodas::{EventAction, Point, System};
use crate::model::FrictionModel;

/// Mode of the driver: free ODE, a Filippov slide on a surface v = v* (the stick is v* = 0), or
/// a one-sided slip of a law that jumps at v = 0.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) enum Mode {
    /// Plain ODE (state models, continuous static laws).
    Free,
    /// Filippov sliding mode: relative velocity held exactly at v* (v* = 0: a stick); F = F_e.
    Slide(f64),
    /// Slipping in direction ±1; F is taken on that side of v = 0.
    Slip(i8),
}

/// The stick: the sliding mode on v = 0.
pub(super) const STICK: Mode = Mode::Slide(0.0);

/// One-sided probe velocity for the limits F(0±) [m/s]: far below any physical scale and far
/// above the float resolution of v around v_b.
pub(super) const V_PROBE: f64 = 1e-14;

/// One-sided probe offset at a surface v*: [`V_PROBE`] at 0, a few ulps of v* elsewhere.
#[inline]
pub(super) fn probe(vs: f64) -> f64 {
    V_PROBE.max(16.0 * f64::EPSILON * vs.abs())
}

// Event indices of the closed loop.
pub(super) const EV_XDOT: usize = 0;
pub(super) const EV_VZERO: usize = 1;
pub(super) const EV_STICK_HI: usize = 2;
pub(super) const EV_STICK_LO: usize = 3;
pub(super) const EV_MODEL: usize = 4;

/// How much looser a closed loop that weighs errors by the state ([`System::scales_vary`])
/// holds every state where the law is a plain spring-damper ([`FrictionModel::elastic_at`]):
/// the loop is linear there, keeps x − z − v_b t exactly (a linear invariant, which a
/// Rosenbrock step keeps too), and the rest is the bristle mode, damped within milliseconds,
/// so an error made there does not outlast it. Elasto-plastic on the stick-slip benchmark
/// (issue 39, x(40) against a 1e-12 run, 1e-5 … 2e-8): at 1 (before) 0.15–2.2 tol in 1,366
/// steps at 1e-7, at 10 0.24–2.6 tol, at 100 0.09–0.76 tol, at 1000 0.18–1.7 tol in 1,189
/// steps, at 10⁴ the same steps as 1000 (1,190): past 1000 the band's error no longer limits a
/// step (hmax, events and the ringing's plastic episodes do). Then the velocity is weighed
/// from 1 m/s, as for a law without micro-slip.
pub(super) const ELASTIC_LOOSENING: f64 = 1000.0;

pub(super) struct ClosedLoop<'a> {
    pub(super) model: &'a dyn FrictionModel,
    pub(super) st: LoopState,
}

/// Everything of the closed loop but the model: kept between the pieces of a paused run.
#[derive(Debug, Clone)]
pub(super) struct LoopState {
    /// Scratch for the model's switching functions while probing a surface.
    pub(super) gscratch: std::cell::RefCell<Vec<f64>>,
    /// Scratch for analytic partials: \[∂ż/∂z | ∂ż/∂v | ∂F/∂z\], ∂ż/∂z diagonal (n_states) for
    /// separable models, dense (nz × nz) otherwise; sized by [`partials_len`].
    pub(super) partials: std::cell::RefCell<Vec<f64>>,
    /// Scratch of the one-sided differences of a forced block (f(y), f(y + d), y + d and the
    /// switching functions at both); empty on the belt.
    pub(super) fd: std::cell::RefCell<Vec<f64>>,
    pub(super) b: Bench,
    /// 1/m \[1/kg\]: the right-hand side multiplies (a division sat on every stage's chain).
    pub(super) inv_m: f64,
    pub(super) drive: Drive,
    /// States before the model's ([`Drive::head`]).
    pub(super) head: usize,
    /// Scale of x and ẋ for the error norm: 1 on the belt; for a forced block the smallest
    /// scale of the model's continuous states (a bristle deflection, ~1e-5 m for LuGre), so
    /// that pre-sliding displacements of micrometres are resolved.
    pub(super) xscale: f64,
    /// The block's velocity error is weighed against the relative velocity
    /// ([`Bench::velocity_scale`]): a micro-slip law on the belt.
    pub(super) vrel: bool,
    /// The velocity scale follows the state ([`FrictionModel::micro_slip_scale_at`]): a law
    /// whose scale varies, on the belt, at a tolerance looser than
    /// [`super::MICRO_SLIP_RODAS5P_RTOL`] (set by the run, false otherwise).
    pub(super) creep_weight: bool,
    pub(super) ns: usize,
    pub(super) nsw: usize,
    pub(super) mode: Mode,
    pub(super) out: StickSlipRun,
    pub(super) maxima: Vec<(f64, f64)>,
    pub(super) minima: Vec<(f64, f64)>,
    /// The law jumps at v = 0 and gets the exact stick / one-sided slip treatment.
    pub(super) sticks: bool,
    /// The last recorded point still lacks its force and acceleration ([`ClosedLoop::record`]
    /// leaves them to the next right-hand side at the same state, which computes F anyway).
    pub(super) pending: bool,
    /// State and mode of that point.
    pub(super) pending_y: Vec<f64>,
    pub(super) pending_mode: Mode,
    /// Set by `record`, cleared by the next `rhs`: only that call may supply the force.
    pub(super) armed: std::cell::Cell<bool>,
    /// The force the right-hand side computed at the pending point, if it did.
    pub(super) pending_f: std::cell::Cell<Option<f64>>,
}

impl<'a> ClosedLoop<'a> {
    /// The loop in free mode with all scratch sized for `model` (nothing allocates later).
    pub(super) fn new(model: &'a dyn FrictionModel, b: &Bench, drive: Drive) -> Self {
        ClosedLoop {
            model,
            st: LoopState {
                partials: std::cell::RefCell::new(vec![0.0; partials_len(model)]),
                gscratch: std::cell::RefCell::new(vec![0.0; model.n_switches()]),
                fd: std::cell::RefCell::new(match drive {
                    Drive::Belt => Vec::new(),
                    Drive::Force(..) => {
                        vec![0.0; 3 * (drive.head() + model.n_states()) + 2 * model.n_switches()]
                    }
                }),
                b: *b,
                inv_m: 1.0 / b.m,
                drive,
                head: drive.head(),
                xscale: match drive {
                    Drive::Belt => 1.0,
                    Drive::Force(..) => {
                        let nz = model.n_states() - model.n_discrete().min(model.n_states());
                        (0..nz).map(|i| model.state_scale(i)).fold(1.0, f64::min)
                    }
                },
                vrel: drive == Drive::Belt && model.micro_slip(),
                creep_weight: false,
                ns: model.n_states(),
                nsw: model.n_switches(),
                mode: Mode::Free,
                out: StickSlipRun::default(),
                maxima: Vec::new(),
                minima: Vec::new(),
                sticks: false,
                pending: false,
                pending_y: vec![0.0; drive.head() + model.n_states()],
                pending_mode: Mode::Free,
                armed: std::cell::Cell::new(false),
                pending_f: std::cell::Cell::new(None),
            },
        }
    }

    /// External force F_e: the spring's −k x, or the applied u(t).
    #[inline]
    pub(super) fn fe(&self, y: &[f64]) -> f64 {
        match self.st.drive {
            Drive::Belt => -self.st.b.spring_rate() * y[0],
            Drive::Force(u, _) => u.at(y[2]),
        }
    }

    /// The model's states in y.
    #[inline]
    pub(super) fn z<'y>(&self, y: &'y [f64]) -> &'y [f64] {
        &y[self.st.head..]
    }

    /// Index of the applied force's corner event (a triangle's reversals), if it has corners.
    fn corner_event(&self) -> Option<usize> {
        match self.st.drive {
            Drive::Force(u, _) if u.has_corners() => Some(EV_MODEL + self.st.nsw),
            _ => None,
        }
    }

    /// Index of the stop event of a forced block (x reaches the stop), if it has one.
    fn stop_event(&self) -> Option<usize> {
        match self.st.drive {
            Drive::Force(_, Some(_)) => {
                Some(EV_MODEL + self.st.nsw + usize::from(self.corner_event().is_some()))
            }
            _ => None,
        }
    }

    /// The range of forces a static law can supply at rest for external force fe: spanned by
    /// the one-sided limits F(0⁻), F(0⁺) and the capacity of the law's own stick branch at
    /// v = 0 (Karnopp's min(|F_e|, F_s) sgn F_e), probed with a large external force so that the
    /// range has a margin that crosses zero at release rather than touching it. The same at a
    /// sliding surface v* ≠ 0 (probes v* ± δ, capacity at v*) with the model state z.
    pub(super) fn limits_at(&self, vs: f64, fe: f64, z: &[f64]) -> (f64, f64) {
        let d = probe(vs);
        let a = self.model.force(vs - d, fe, z);
        let b = self.model.force(vs + d, fe, z);
        let big = 1e3 * (1.0 + fe.abs() + a.abs() + b.abs());
        let c = self.model.force(vs, -big, z);
        let d = self.model.force(vs, big, z);
        (a.min(b).min(c).min(d), a.max(b).max(c).max(d))
    }

    pub(super) fn limits(&self, fe: f64, z: &[f64]) -> (f64, f64) {
        self.limits_at(0.0, fe, z)
    }

    /// Whether the law is discontinuous at v = v* for this fe and state (Coulomb, SD at v = 0
    /// yes; tanh and a Karnopp window of finite width no: those run as plain ODEs).
    pub(super) fn jumps_at(&self, vs: f64, fe: f64, z: &[f64]) -> bool {
        let (lo, hi) = self.limits_at(vs, fe, z);
        let scale = self
            .model
            .force(vs + 1e-3, fe, z)
            .abs()
            .max(self.model.force(vs - 1e-3, fe, z).abs())
            .max(f64::MIN_POSITIVE);
        (hi - lo).abs() > 1e-7 * scale
    }

    pub(super) fn jumps(&self, fe: f64, z: &[f64]) -> bool {
        self.st.sticks && self.jumps_at(0.0, fe, z)
    }

    /// At a located crossing of model switch `j` (state y): the surface velocity v* if the
    /// force jumps there and the field points into it from both sides (a sliding mode).
    pub(super) fn sliding_surface(&self, j: usize, y: &[f64]) -> Option<f64> {
        let fe = self.fe(y);
        let z = self.z(y);
        let v = y[1] - self.st.b.vb;
        let mut g = self.st.gscratch.borrow_mut();
        let gj = |vv: f64, g: &mut Vec<f64>| {
            self.model.switches(vv, fe, z, g);
            g[j]
        };
        // Bracket the surface in v at frozen (F_e, z): the located point is within round-off
        // of it; a switch that does not depend on v has no bracket and is no velocity surface.
        let w = 1e-8 * (1.0 + v.abs());
        let (mut a, mut b) = (v - w, v + w);
        let (ga, gb) = (gj(a, &mut g), gj(b, &mut g));
        if ga == 0.0 || gb == 0.0 || ga.signum() == gb.signum() {
            return None;
        }
        // Cheap gate before bisecting: a continuous law changes little across the bracket.
        let (fa, fb) = (self.model.force(a, fe, z), self.model.force(b, fe, z));
        if fa == fb {
            return None;
        }
        for _ in 0..100 {
            let c = 0.5 * (a + b);
            if b - a <= probe(c) || c <= a || c >= b {
                break;
            }
            let gc = gj(c, &mut g);
            if gc == 0.0 {
                a = c;
                b = c;
                break;
            }
            if gc.signum() == ga.signum() {
                a = c;
            } else {
                b = c;
            }
        }
        let vs = 0.5 * (a + b);
        if !self.jumps_at(vs, fe, z) {
            return None;
        }
        let d = probe(vs);
        let (lo, hi) = (
            self.model.force(vs - d, fe, z),
            self.model.force(vs + d, fe, z),
        );
        // Sliding: m ẍ = F_e − F is > 0 below the surface and < 0 above it.
        (lo < fe && fe < hi).then_some(vs)
    }

    /// Friction force F for state y under the current mode.
    pub(super) fn force(&self, y: &[f64]) -> f64 {
        let fe = self.fe(y);
        let v = y[1] - self.st.b.vb;
        match self.st.mode {
            Mode::Slide(_) => fe,
            Mode::Slip(d) => {
                let d = d as f64;
                let ve = if v * d > 0.0 { v } else { d * V_PROBE };
                self.model.force(ve, fe, self.z(y))
            }
            Mode::Free => self.model.force(v, fe, self.z(y)),
        }
    }

    /// Decides stick or slip at v = 0 from the one-sided accelerations.
    pub(super) fn decide_at_rest(&self, fe: f64, z: &[f64]) -> Mode {
        let (lo, hi) = self.limits(fe, z);
        if fe - hi > 0.0 {
            Mode::Slip(1)
        } else if fe - lo < 0.0 {
            Mode::Slip(-1)
        } else {
            STICK
        }
    }

    /// Appends the point (t, y) to the series. Its force and acceleration are filled in by
    /// [`ClosedLoop::flush`]: after an accepted step the solver's next call is the right-hand
    /// side at this very state, which evaluates the model's F anyway (one model evaluation
    /// less per step; the fused evaluation is bit-identical to `force`).
    pub(super) fn record(&mut self, t: f64, y: &[f64]) {
        self.flush();
        self.st.out.t.push(t);
        self.st.out.x.push(y[0]);
        self.st.out.xdot.push(y[1]);
        self.st.out.xddot.push(f64::NAN);
        self.st.out.force.push(f64::NAN);
        self.st.out.v.push(y[1] - self.st.b.vb);
        if self.st.pending_y.len() != y.len() {
            self.st.pending_y = vec![0.0; y.len()];
        }
        self.st.pending_y.copy_from_slice(y);
        self.st.pending_mode = self.st.mode;
        self.st.pending = true;
        self.st.pending_f.set(None);
        self.st.armed.set(true);
    }

    /// Completes the last recorded point: with the force its right-hand side supplied, or
    /// computed here under the mode it was recorded in. Must run before the series is read.
    pub(super) fn flush(&mut self) {
        if !self.st.pending {
            return;
        }
        self.st.pending = false;
        self.st.armed.set(false);
        let y = std::mem::take(&mut self.st.pending_y);
        let mode = std::mem::replace(&mut self.st.mode, self.st.pending_mode);
        let f = match self.st.pending_f.take() {
            Some(f) => f,
            None => self.force(&y),
        };
        let xdd = match self.st.mode {
            Mode::Slide(_) => 0.0,
            _ => (self.fe(&y) - f) / self.st.b.m,
        };
        self.st.mode = mode;
        self.st.pending_y = y;
        if let (Some(a), Some(b)) = (self.st.out.xddot.last_mut(), self.st.out.force.last_mut()) {
            *a = xdd;
            *b = f;
        }
    }
}

impl ClosedLoop<'_> {
    /// State `i`'s error weight in a loop whose weights vary with the state
    /// ([`System::scale_at`]): the block's velocity weighed by the law's micro-slip scale at
    /// relative velocity `v` \[m/s\] and model states `z`, and every state
    /// [`ELASTIC_LOOSENING`] times looser where the law is `elastic`.
    fn weight(&self, i: usize, v: f64, z: &[f64], elastic: bool) -> f64 {
        let mut s = self.scale(i);
        if i == 1 {
            let sv = self.model.micro_slip_scale_at(v, z) * self.st.b.vb.abs();
            if sv > 0.0 && sv.is_finite() {
                s = sv;
            }
        }
        if elastic {
            s * ELASTIC_LOOSENING
        } else {
            s
        }
    }

    /// The Jacobian from the model's analytic partials (free motion of a state model that
    /// provides them); false otherwise.
    fn analytic_jacobian(&self, y: &[f64], jac: &mut [f64]) -> bool {
        if self.st.mode != Mode::Free {
            return false;
        }
        let nz = self.st.ns - self.model.n_discrete().min(self.st.ns);
        if nz == 0 {
            return false;
        }
        // One continuous state is trivially separable (its ∂ż/∂z is a 1×1 diagonal).
        let separable = self.model.separable() || nz == 1;
        let h = self.st.head;
        let nc = h + nz;
        let mut buf = self.st.partials.borrow_mut();
        let v = y[1] - self.st.b.vb;
        let fe = self.fe(y);
        let z = &y[h..];
        // Layout (see `partials_len`): separable [∂ż/∂z (ns) | ∂ż/∂v (ns) | ∂F/∂z (ns)], dense
        // [∂ż/∂z (nz × nz) | ∂ż/∂v (nz) | ∂F/∂z (nz)]. The scratch is sized for the model's
        // kind at construction; a mismatch (never expected) falls back to differencing.
        let dlen = if separable { self.st.ns } else { nz * nz };
        if buf.len() < dlen + 2 * self.st.ns.max(nz) {
            return false;
        }
        let (dzdz, rest) = buf.split_at_mut(dlen);
        let (dzdv, dfdz) = rest.split_at_mut(self.st.ns.max(nz));
        let dfdv = if separable {
            self.model.partials(v, fe, z, dzdz, dzdv, dfdz)
        } else {
            self.model.partials_dense(v, fe, z, dzdz, dzdv, dfdz)
        };
        let Some(dfdv) = dfdv else {
            return false;
        };
        // Rows/columns: x, ẋ (and t: its row is zero), then the nz continuous model states
        // (discrete ones are frozen and kept out of the matrix). The model does not depend on
        // F_e (−k x or u(t)) when it provides partials, so the state rows have no x or t column;
        // F_e enters ẍ directly.
        // A fill of run-time length is a call to memset, 2 % of an elasto-plastic step at
        // nc = 3 (issue 39); at a length known to the compiler it is a few stores.
        match nc {
            3 => jac[..9].fill(0.0),
            4 => jac[..16].fill(0.0),
            5 => jac[..25].fill(0.0),
            _ => jac[..nc * nc].fill(0.0),
        }
        let m = self.st.b.m;
        jac[1] = 1.0;
        match self.st.drive {
            Drive::Belt => jac[nc] = -self.st.b.spring_rate() / m,
            Drive::Force(u, _) => jac[nc + 2] = u.slope(y[2]) / m,
        }
        jac[nc + 1] = -dfdv / m;
        for j in 0..nz {
            jac[nc + h + j] = -dfdz[j] / m;
            let r = (h + j) * nc;
            jac[r + 1] = dzdv[j];
            if separable {
                jac[r + h + j] = dzdz[j];
            } else {
                jac[r + h..r + h + nz].copy_from_slice(&dzdz[j * nz..(j + 1) * nz]);
            }
        }
        true
    }

    /// Forward differences as the solver takes them, but each column on the side where the
    /// model's switching functions keep their signs. A difference across a surface where the
    /// force jumps (Karnopp's window edge |v| = v_0) gives an entry of the size of the jump over
    /// the increment; the Rosenbrock steps then creep towards the surface without crossing it
    /// (a Karnopp ramp took a million steps within 1e-8 m/s of the edge).
    fn one_sided_jacobian(&self, y: &[f64], jac: &mut [f64]) -> bool {
        let n = self.dim();
        let nc = n - self.model.n_discrete().min(self.st.ns);
        let nsw = self.st.nsw;
        let mut buf = self.st.fd.borrow_mut();
        if buf.len() < 3 * n + 2 * nsw {
            return false;
        }
        let (f0, rest) = buf.split_at_mut(n);
        let (f1, rest) = rest.split_at_mut(n);
        let (yt, rest) = rest.split_at_mut(n);
        let (g0, rest) = rest.split_at_mut(nsw);
        let g1 = &mut rest[..nsw];
        let switches = |yy: &[f64], g: &mut [f64]| {
            if nsw > 0 && !matches!(self.st.mode, Mode::Slide(_)) {
                self.model
                    .switches(yy[1] - self.st.b.vb, self.fe(yy), self.z(yy), g);
            }
        };
        self.rhs(y, f0);
        switches(y, g0);
        yt.copy_from_slice(y);
        for j in 0..nc {
            let yj = y[j];
            let d = 1.5e-8 * yj.abs().max(self.scale(j));
            let mut dj = 0.0;
            for s in [d, -d] {
                yt[j] = yj + s;
                switches(yt, g1);
                if g0
                    .iter()
                    .zip(g1.iter())
                    .all(|(a, b)| (*a >= 0.0) == (*b >= 0.0))
                {
                    dj = yt[j] - yj;
                    break;
                }
            }
            if dj == 0.0 {
                // a surface on both sides: difference forwards, as the solver would
                yt[j] = yj + d;
                dj = yt[j] - yj;
            }
            self.rhs(yt, f1);
            for i in 0..nc {
                jac[i * nc + j] = (f1[i] - f0[i]) / dj;
            }
            yt[j] = yj;
        }
        true
    }
}

impl System for ClosedLoop<'_> {
    fn dim(&self) -> usize {
        self.st.head + self.st.ns
    }

    fn rhs(&self, y: &[f64], dy: &mut [f64]) {
        let h = self.st.head;
        dy[0] = y[1];
        if h > 2 {
            dy[2] = 1.0;
        }
        if self.st.ns > 0 && self.st.mode == Mode::Free {
            // One call, so models share the work (Stribeck exponentials, ż) between both.
            let v = y[1] - self.st.b.vb;
            let fe = self.fe(y);
            let f = self
                .model
                .derivative_and_force(v, fe, &y[h..], &mut dy[h..]);
            dy[1] = (fe - f) * self.st.inv_m;
            if self.st.armed.replace(false)
                && self.st.pending_mode == Mode::Free
                && self.st.pending_y.len() == y.len()
                && self
                    .st
                    .pending_y
                    .iter()
                    .zip(y)
                    .all(|(a, b)| a.to_bits() == b.to_bits())
            {
                self.st.pending_f.set(Some(f));
            }
            return;
        }
        let v = match self.st.mode {
            Mode::Slide(vs) => {
                dy[1] = 0.0;
                vs
            }
            _ => {
                let f = self.force(y);
                dy[1] = (self.fe(y) - f) * self.st.inv_m;
                y[1] - self.st.b.vb
            }
        };
        if self.st.ns > 0 {
            self.model.derivative(v, self.fe(y), &y[h..], &mut dy[h..]);
        }
    }

    fn jacobian(&self, y: &[f64], jac: &mut [f64]) -> bool {
        if self.analytic_jacobian(y, jac) {
            return true;
        }
        // the benchmark keeps the solver's own differences (its recorded runs are the reference)
        match self.st.drive {
            Drive::Belt => false,
            Drive::Force(..) => self.one_sided_jacobian(y, jac),
        }
    }

    fn scale(&self, i: usize) -> f64 {
        if i == 1 && self.st.vrel {
            self.st.b.velocity_scale(self.model)
        } else if i < 2 {
            self.st.xscale
        } else if i < self.st.head {
            1.0
        } else {
            self.model.state_scale(i - self.st.head)
        }
    }

    fn scales_vary(&self) -> bool {
        self.st.creep_weight
    }

    fn scale_at(&self, i: usize, y: &[f64]) -> f64 {
        if !self.scales_vary() {
            return self.scale(i);
        }
        let (v, z) = (y[1] - self.st.b.vb, self.z(y));
        self.weight(i, v, z, self.model.elastic_at(v, z))
    }

    fn scales_at(&self, y: &[f64], scales: &mut [f64]) {
        if !self.scales_vary() {
            for (i, sc) in scales.iter_mut().enumerate() {
                *sc = self.scale(i);
            }
            return;
        }
        // the regime read once for all states
        let (v, z) = (y[1] - self.st.b.vb, self.z(y));
        let elastic = self.model.elastic_at(v, z);
        for (i, sc) in scales.iter_mut().enumerate() {
            *sc = self.weight(i, v, z, elastic);
        }
    }

    fn rtol_origin(&self, i: usize) -> f64 {
        if i == 1 && self.st.vrel {
            self.st.b.vb
        } else {
            0.0
        }
    }

    fn n_frozen(&self) -> usize {
        self.model.n_discrete()
    }

    // Non-separable models (Leuven) get no arrow structure: `jacobian` then fills the whole
    // continuous block from `partials_dense` and the integrator factors it densely.
    fn dense_head(&self) -> Option<usize> {
        self.model.separable().then_some(self.st.head)
    }

    fn n_events(&self) -> usize {
        EV_MODEL
            + self.st.nsw
            + usize::from(self.corner_event().is_some())
            + usize::from(self.stop_event().is_some())
    }

    fn events(&self, y: &[f64], g: &mut [f64]) {
        // ẋ = 0 marks the benchmark's extrema of x; on fixed ground it is the surface v = 0
        // itself, which the stick and the model's own switches watch (a copy with a lower index
        // would be located first and hide them)
        g[EV_XDOT] = match self.st.drive {
            Drive::Belt => y[1],
            Drive::Force(..) => 1.0,
        };
        let fe = self.fe(y);
        let v = y[1] - self.st.b.vb;
        match self.st.mode {
            Mode::Free => {
                g[EV_VZERO] = 1.0;
                g[EV_STICK_HI] = 1.0;
                g[EV_STICK_LO] = 1.0;
            }
            Mode::Slide(vs) => {
                let (lo, hi) = self.limits_at(vs, fe, self.z(y));
                g[EV_VZERO] = 1.0;
                g[EV_STICK_HI] = hi - fe;
                g[EV_STICK_LO] = fe - lo;
            }
            Mode::Slip(d) => {
                g[EV_VZERO] = v * d as f64;
                g[EV_STICK_HI] = 1.0;
                g[EV_STICK_LO] = 1.0;
            }
        }
        let model_g = &mut g[EV_MODEL..EV_MODEL + self.st.nsw];
        if self.st.nsw > 0 {
            match self.st.mode {
                // Held on a surface: its own switch would sit at zero; the exits are the
                // EV_STICK_* functions.
                Mode::Slide(_) => model_g.fill(1.0),
                _ => self.model.switches(v, fe, self.z(y), model_g),
            }
        }
        if let (Some(i), Drive::Force(u, _)) = (self.corner_event(), self.st.drive) {
            g[i] = u.corner_function(y[2]);
        }
        if let (Some(i), Drive::Force(_, Some(x_stop))) = (self.stop_event(), self.st.drive) {
            g[i] = y[0] - x_stop;
        }
    }

    fn on_event(&mut self, _t: f64, index: usize, rising: bool, y: &mut [f64]) -> EventAction {
        match index {
            EV_XDOT => EventAction::Continue,
            EV_VZERO => {
                y[1] = self.st.b.vb;
                let fe = self.fe(y);
                self.st.mode = if self.jumps(fe, self.z(y)) {
                    self.decide_at_rest(fe, self.z(y))
                } else {
                    Mode::Free
                };
                EventAction::Reset
            }
            EV_STICK_HI | EV_STICK_LO => {
                let d = if index == EV_STICK_HI { 1 } else { -1 };
                // Leaving the stick of a law that jumps at 0 slips with one-sided forces until
                // the next rest; leaving any other surface is free motion.
                self.st.mode = match self.st.mode {
                    Mode::Slide(vs) if vs == 0.0 && self.st.sticks => Mode::Slip(d),
                    _ => Mode::Free,
                };
                EventAction::Reset
            }
            // a corner of the applied force: only the step sequence restarts there
            i if Some(i) == self.corner_event() => EventAction::Reset,
            i if Some(i) == self.stop_event() => EventAction::Stop,
            i => {
                let v = y[1] - self.st.b.vb;
                let fe = self.fe(y);
                let h = self.st.head;
                let changed = self
                    .model
                    .on_switch(i - EV_MODEL, rising, v, fe, &mut y[h..]);
                if !changed && self.st.mode == Mode::Free && self.model.n_discrete() == 0 {
                    if let Some(vs) = self.sliding_surface(i - EV_MODEL, y) {
                        y[1] = self.st.b.vb + vs;
                        self.st.mode = Mode::Slide(vs);
                    }
                }
                EventAction::Reset
            }
        }
    }

    fn observe(&mut self, t: f64, y: &[f64], point: Point) {
        match point {
            Point::Start | Point::Step | Point::EventAfter(_) => self.record(t, y),
            Point::EventBefore(EV_XDOT) => {
                // ẋ crossed zero: an extremum of x; falling ẋ means a maximum.
                if let Some(&last) = self.st.out.xdot.last() {
                    if last > 0.0 {
                        self.st.maxima.push((t, y[0]));
                    } else {
                        self.st.minima.push((t, y[0]));
                    }
                }
            }
            Point::EventBefore(_) => self.record(t, y),
        }
    }
}

impl LoopState {
    /// A stand-in while the real state is lent to a [`ClosedLoop`] (allocates nothing).
    pub(super) fn empty(b: &Bench) -> Self {
        LoopState {
            partials: std::cell::RefCell::new(Vec::new()),
            gscratch: std::cell::RefCell::new(Vec::new()),
            fd: std::cell::RefCell::new(Vec::new()),
            b: *b,
            inv_m: 1.0 / b.m,
            drive: Drive::Belt,
            head: 2,
            xscale: 1.0,
            vrel: false,
            creep_weight: false,
            ns: 0,
            nsw: 0,
            mode: Mode::Free,
            out: StickSlipRun::default(),
            maxima: Vec::new(),
            minima: Vec::new(),
            sticks: false,
            pending: false,
            pending_y: Vec::new(),
            pending_mode: Mode::Free,
            armed: std::cell::Cell::new(false),
            pending_f: std::cell::Cell::new(None),
        }
    }
}
