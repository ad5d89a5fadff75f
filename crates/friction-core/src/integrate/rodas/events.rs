//! Event location and switching for [`Rodas`]: the [`EventAction`] a system answers with, the
//! [`Point`]s it is shown, and the search for the earliest sign change of a switching function
//! (on the Hermite interpolant, then refined by Newton on accurate landing steps) followed by
//! firing every switch the landing crossed.

use super::{Options, Rodas, System};

/// What the integrator does after [`System::on_event`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EventAction {
    /// Nothing changed (an observation such as a velocity zero); keep going.
    Continue,
    /// The state or the mode changed: restart the step sequence from the event.
    Reset,
    /// Stop the integration at the event.
    Stop,
}

/// What a call of the observer reports.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Point {
    /// The initial point.
    Start,
    /// An accepted step.
    Step,
    /// A located event, before `on_event` ran.
    EventBefore(usize),
    /// The same event time, after `on_event` changed the state or mode.
    EventAfter(usize),
}

impl Rodas {
    /// Cubic Hermite interpolant of the step (y0, f0) → (y1, f1) of size `h` \[s\] at the
    /// fraction `th` ∈ \[0, 1\] of the step, written into `out`: the dense output on which
    /// switching functions are searched for roots without extra right-hand-side calls.
    fn hermite(y0: &[f64], f0: &[f64], y1: &[f64], f1: &[f64], h: f64, th: f64, out: &mut [f64]) {
        let t2 = th * th;
        let t3 = t2 * th;
        let h00 = 2.0 * t3 - 3.0 * t2 + 1.0;
        let h10 = t3 - 2.0 * t2 + th;
        let h01 = -2.0 * t3 + 3.0 * t2;
        let h11 = t3 - t2;
        for i in 0..out.len() {
            out[i] = h00 * y0[i] + h10 * h * f0[i] + h01 * y1[i] + h11 * h * f1[i];
        }
    }

    /// Fires the switch `idx` located at the landing point (t, y) and every other switch that
    /// crossed by it, the located one first (identical bristles snap together), and records
    /// the new signs. Fired events count as crossed unless a reset gave them a definite new
    /// sign.
    pub(super) fn fire_events<S: System + ?Sized>(
        &mut self,
        sys: &mut S,
        t: f64,
        y: &mut [f64],
        idx: usize,
    ) -> EventAction {
        let ne = self.sign.len();
        self.stats.events += 1;
        sys.observe(t, y, Point::EventBefore(idx));
        // g1 holds the fired flags from here on.
        sys.events(y, &mut self.gtmp);
        for j in 0..ne {
            let s0 = self.sign[j];
            let fired = s0 != 0 && (j == idx || sgn(self.gtmp[j]) != s0);
            self.g1[j] = if fired { 1.0 } else { 0.0 };
        }
        let mut action = EventAction::Continue;
        for j in std::iter::once(idx).chain((0..ne).filter(|&j| j != idx)) {
            if self.g1[j] == 0.0 {
                continue;
            }
            if j != idx {
                self.stats.events += 1;
            }
            let a = sys.on_event(t, j, self.sign[j] < 0, y);
            action = match (action, a) {
                (EventAction::Stop, _) | (_, EventAction::Stop) => EventAction::Stop,
                (EventAction::Reset, _) | (_, EventAction::Reset) => EventAction::Reset,
                _ => EventAction::Continue,
            };
        }
        sys.observe(t, y, Point::EventAfter(idx));
        sys.events(y, &mut self.g0);
        for j in 0..ne {
            let now = sgn(self.g0[j]);
            let fired = self.g1[j] != 0.0;
            self.sign[j] = if fired && (action == EventAction::Continue || now == 0) {
                -self.sign[j]
            } else {
                now
            };
        }
        action
    }

    /// After a second rejection in a row whose trial end lies across a switch (the first
    /// rejection is usually just a step too long): steps to just short of the
    /// switch (secant estimate of its time) and, if that shorter step meets the tolerance,
    /// crosses the switch by a hair with the event's Newton landing.
    ///
    /// Without this, a switch where the right-hand side jumps (a kinetic limit that changes
    /// with |v|, a held bristle released) is approached in ever smaller accepted steps that
    /// rarely include it, since a step across the jump fails the error test unless it
    /// crosses by a hair: at tol 1e-12 Karnopp's window edges cost 36 000 rejections.
    /// Returns the landing step and the switch landed
    /// on, or `None` to reject as usual (also when the switching function does not reach
    /// the far side along the solution: it may jump rather than cross). The landing is in
    /// `ynew`.
    pub(super) fn land_after_reject<S: System + ?Sized>(
        &mut self,
        sys: &S,
        y: &[f64],
        h: f64,
        opts: &Options,
    ) -> Option<(f64, usize)> {
        let ne = self.sign.len();
        if ne == 0 || !self.ynew.iter().all(|v| v.is_finite()) {
            return None;
        }
        sys.events(&self.ynew, &mut self.g1);
        sys.events(y, &mut self.gtmp);
        let mut best: Option<(usize, f64)> = None;
        for i in 0..ne {
            let (s0, s1) = (self.sign[i], sgn(self.g1[i]));
            if s0 == 0 || s1 == 0 || s0 == s1 || sgn(self.gtmp[i]) != s0 {
                continue;
            }
            let (ga, gb) = (self.gtmp[i], self.g1[i]);
            let th = ga / (ga - gb);
            if th.is_finite() && th > 0.0 && th < 1.0 && best.is_none_or(|(_, b)| th < b) {
                best = Some((i, th));
            }
        }
        let (idx, th) = best?;
        let hn = th * h * (1.0 - 1e-6);
        if hn < 1e-14 * (h + 1.0) || !self.decompose(hn) {
            return None;
        }
        let err = self.attempt(sys, y, hn, opts);
        if !(err <= 1.0) {
            return None;
        }
        // Corrections may reach as far as a step the error model still accepts.
        let q = self.tab().q;
        let reach = (hn * (0.9 / err.max(1e-10)).powf(q)).min(h);
        let (he, far_ok) = self.refine_event(sys, y, idx, hn, reach, opts);
        if !far_ok {
            return None;
        }
        // The landing's own error test: a crossing by a hair passes, an overshoot into the
        // other side's dynamics (a poor Newton rate) does not.
        if he != hn {
            let ok = self.decompose(he) && self.attempt(sys, y, he, opts) <= 1.0;
            if !ok {
                return None;
            }
        }
        Some((he, idx))
    }

    /// Newton corrections of the event time on the true solution: the interpolant's root is
    /// only as good as a cubic, which for the long steps of a fifth-order method can be far off;
    /// g(t_e) from an accurate landing step and its rate ġ = ∇g·f give the root to near
    /// round-off. Iterates (at most three times) from each accurate landing until one lands on
    /// the far side of the switch. `ynew` holds the last valid landing on return, with its
    /// time and whether it is on the far side.
    pub(super) fn refine_event<S: System + ?Sized>(
        &mut self,
        sys: &S,
        y: &[f64],
        idx: usize,
        he: f64,
        h: f64,
        opts: &Options,
    ) -> (f64, bool) {
        let far = -self.sign[idx];
        let mut he = he;
        for _ in 0..3 {
            sys.events(&self.ynew, &mut self.gtmp);
            let gl = self.gtmp[idx];
            let on_far = sgn(gl) == far;
            sys.rhs(&self.ynew, &mut self.fev);
            self.stats.fevals += 1;
            let eps = 1e-6 * he.max(1e-9);
            self.yev.copy_from_slice(&self.ynew);
            for (a, f) in self.yev.iter_mut().zip(&self.fev) {
                *a += eps * f;
            }
            sys.events(&self.yev, &mut self.gtmp);
            let gdot = (self.gtmp[idx] - gl) / eps;
            if !(gdot != 0.0) || !gdot.is_finite() || !gl.is_finite() {
                return (he, on_far);
            }
            let dt = -gl / gdot;
            // Aim a hair past the root so the landing is on the far side.
            let he2 = he + dt + dt.abs() * 1e-3 + 8.0 * f64::EPSILON * (he + 1.0);
            // Forward corrections stay inside the step known to cross (h); backward ones are
            // kept small, since the landing is already past the root.
            if !(he2 > 0.0 && he2 <= h) || dt.abs() > 0.5 * he {
                return (he, on_far);
            }
            // Keep the current landing in yev in case the corrected one is rejected.
            self.yev.copy_from_slice(&self.ynew);
            let ok = self.decompose(he2);
            let err = if ok {
                self.attempt(sys, y, he2, opts)
            } else {
                f64::INFINITY
            };
            if !err.is_finite() {
                self.ynew.copy_from_slice(&self.yev);
                return (he, on_far);
            }
            he = he2;
            sys.events(&self.ynew, &mut self.gtmp);
            if sgn(self.gtmp[idx]) == far {
                return (he, true);
            }
        }
        sys.events(&self.ynew, &mut self.gtmp);
        (he, sgn(self.gtmp[idx]) == far)
    }

    /// Finds the earliest sign change of any switching function on the Hermite interpolant of
    /// the step (y, f0) → (ynew, f1) of size h; returns (index, θ ∈ (0, 1]) and leaves the
    /// interpolated state in `yev`.
    pub(super) fn locate<S: System + ?Sized>(
        &mut self,
        sys: &S,
        y: &[f64],
        h: f64,
    ) -> Option<(usize, f64)> {
        let ne = self.g0.len();
        let mut best: Option<(usize, f64)> = None;
        // The crossed switches, earliest linear estimate first: the first root found is then
        // usually the earliest, and every later switch still on its near side there is skipped
        // after one look at `gbest` instead of a root search of its own. Each search evaluates
        // every switch per iteration, so searching all of them cost O(n²) per step when n
        // elements cross together (GMS with 1000 elements: seconds per step).
        self.order.clear();
        for i in 0..ne {
            let (s0, s1) = (self.sign[i], sgn(self.g1[i]));
            if s0 != 0 && s1 != 0 && s0 != s1 {
                let lin = self.g0[i] / (self.g0[i] - self.g1[i]);
                self.order
                    .push((if lin.is_finite() { lin } else { 0.0 }, i));
            }
        }
        self.order
            .sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        let mut have_zero = false;
        let mut have_best = false;
        for k in 0..self.order.len() {
            let i = self.order[k].1;
            let s0 = self.sign[i];
            if let Some((_, th)) = best {
                if !have_best {
                    Self::hermite(y, &self.f0, &self.ynew, &self.f1, h, th, &mut self.fev);
                    sys.events(&self.fev, &mut self.gbest);
                    have_best = true;
                }
                // still on the near side at the earliest root so far: it crosses later
                if sgn(self.gbest[i]) == s0 {
                    continue;
                }
            }
            if !have_zero {
                Self::hermite(y, &self.f0, &self.ynew, &self.f1, h, 0.0, &mut self.fev);
                sys.events(&self.fev, &mut self.gzero);
                have_zero = true;
            }
            // Illinois on θ ∈ [0, 1]; g(0) is taken with its recorded sign.
            let (mut a, mut b) = (0.0f64, 1.0f64);
            let mut ga = {
                let v = self.gzero[i];
                if sgn(v) == s0 {
                    v
                } else {
                    s0 as f64 * 1e-300
                }
            };
            let mut gb = self.g1[i];
            let mut side = 0i8;
            for _ in 0..100 {
                let mut c = if gb != ga {
                    b - gb * (b - a) / (gb - ga)
                } else {
                    0.5 * (a + b)
                };
                if !(c > a && c < b) {
                    c = 0.5 * (a + b);
                }
                Self::hermite(y, &self.f0, &self.ynew, &self.f1, h, c, &mut self.fev);
                sys.events(&self.fev, &mut self.gtmp);
                let gc = self.gtmp[i];
                if sgn(gc) == sgn(gb) || gc == 0.0 {
                    b = c;
                    gb = gc;
                    if side == 1 {
                        ga *= 0.5;
                    }
                    side = 1;
                } else {
                    a = c;
                    ga = gc;
                    if side == -1 {
                        gb *= 0.5;
                    }
                    side = -1;
                }
                if (b - a) * h <= 1e-13 * (1.0 + h) || gc == 0.0 {
                    break;
                }
            }
            // b is the first point on the far side (or at the root).
            // the earliest root, the lowest index among equal ones
            if best.is_none_or(|(j, th)| b < th || (b == th && i < j)) {
                best = Some((i, b));
                have_best = false;
            }
        }
        if let Some((_, th)) = best {
            Self::hermite(y, &self.f0, &self.ynew, &self.f1, h, th, &mut self.yev);
        }
        best
    }
}

/// [`crate::stribeck::sgn`] as the event search keeps it: −1, 0 or 1 in a byte.
#[inline]
pub(super) fn sgn(x: f64) -> i8 {
    crate::stribeck::sgn(x) as i8
}
