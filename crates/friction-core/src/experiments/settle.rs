//! Sliding a model's state at constant velocity until it has settled ([`settle`]) or until its
//! mean force can be read ([`mean_force`]), whole or in pieces ([`Settling`], [`Averaging`]).
//!
//! The steady curves of the phenomena matrix and of the curve and explorer views read a model at
//! each velocity after such a slide. One slide of a stiff model (a bristle model snapping at
//! σ0 = 1e9 N/m, GMS with 1000 elements) takes up to 20,000 solver steps, a few hundred
//! milliseconds: the page cuts it into pieces of a bounded number of steps, and the pieces give
//! the same state, step for step, as the slide taken whole.

use crate::integrate::implicit_euler::{hybrid, Slide, StateStepper};
use crate::model::FrictionModel;

/// Slip \[m\] at each sweep speed before F_ss is read: long against bristle relaxation lengths
/// (~1e-5 m) and against the Dahl length of the composite laws (F_c/σ = 1.2 m), so the state has
/// settled.
pub const SETTLE_SLIP: f64 = 10.0;

/// Slip \[m\] before the mean force of a model that does not settle is read, and the slip it is
/// averaged over: about 5 and 25 teeth of the default bristle model's saw-tooth (≈ 2 mm each).
/// A model with shorter teeth ([`FrictionModel::tooth_length`]) is read over 10 and 50 of its
/// teeth if that is shorter: the same statistics in far fewer snaps.
pub const MEAN_RUN_IN: f64 = 0.01;
/// See [`MEAN_RUN_IN`].
pub const MEAN_WINDOW: f64 = 0.05;

/// The run-in and the window \[m\] of `m`'s mean force ([`MEAN_RUN_IN`]).
fn mean_slips(m: &dyn FrictionModel) -> (f64, f64) {
    match m.tooth_length() {
        Some(l) if l > 0.0 => (MEAN_RUN_IN.min(10.0 * l), MEAN_WINDOW.min(50.0 * l)),
        _ => (MEAN_RUN_IN, MEAN_WINDOW),
    }
}

/// Implicit-Euler steps of the fallback counted as this many solver steps against a piece's cap:
/// each may take up to 64 Newton solves with a finite-difference Jacobian (a bristle model: ~7 ms).
const FALLBACK_STEP_COST: usize = 256;

/// Slides at constant `v` over `slip` metres (or 1 s at v = 0), leaving the state in `x`.
///
/// State models go through the adaptive stiff solver with event location (the benchmark's
/// Rodas): the implicit-Euler steps of [`StateStepper`] stall on switching laws (Maxwell slip,
/// GMS, reset integrator), where Newton fails at every switch and steps are halved ten times,
/// which made one explorer curve take tens of seconds. Hybrid static-stiction laws keep the
/// stepper, whose mode updates they were validated with. If the solver gives up (step budget),
/// the stepper finishes the run so a value is always returned.
///
/// Returns false when that value is not a steady state of the model: the solver gave up on a
/// model with switches, and implicit Euler stepped over them (a bristle model snapping every
/// millimetre of a 10 m slide ends up stretched by metres).
pub fn settle(
    m: &dyn FrictionModel,
    st: &mut StateStepper,
    v: f64,
    fe: f64,
    x: &mut [f64],
    slip: f64,
) -> bool {
    let mut s = Settling::new(v, fe, slip);
    loop {
        if let Some(settled) = s.advance(m, st, x, usize::MAX) {
            return settled;
        }
    }
}

/// Mean friction force \[N\] at constant `v` over [`MEAN_WINDOW`] of slip after [`MEAN_RUN_IN`]
/// (fewer for a model with short teeth),
/// from the state in `x` (left at the end): the steady level of a model that does not
/// [settle](FrictionModel::settles). At v = 0 nothing moves and the force of `x` is returned.
/// `None` if a slide does not finish.
pub fn mean_force(
    m: &dyn FrictionModel,
    st: &mut StateStepper,
    v: f64,
    fe: f64,
    x: &mut [f64],
) -> Option<f64> {
    let mut a = Averaging::new(v, fe);
    loop {
        if let Some(mean) = a.advance(m, st, x, usize::MAX) {
            return mean;
        }
    }
}

/// [`settle`] carried out in pieces: the same state at the end, however it is cut.
#[derive(Debug, Clone)]
pub struct Settling {
    v: f64,
    fe: f64,
    /// Length of the slide \[s\].
    t: f64,
    stage: SettleStage,
}

#[derive(Debug, Clone, Copy)]
enum SettleStage {
    Start,
    /// The stiff solver's slide is under way.
    Solver,
    /// The implicit-Euler fallback: geometric steps, short first (stiff transient), long later
    /// (slow modes); the next step \[s\] and the time done \[s\].
    Fallback {
        dt: f64,
        done: f64,
    },
    Finished(bool),
}

impl Settling {
    /// A slide at `v` \[m/s\] and external force `fe` \[N\] over `slip` \[m\] (1 s at v = 0).
    pub fn new(v: f64, fe: f64, slip: f64) -> Settling {
        let t = if v == 0.0 { 1.0 } else { slip / v.abs() };
        Settling {
            v,
            fe,
            t,
            stage: SettleStage::Start,
        }
    }

    /// Works on for at most about `max_steps` solver steps (an implicit-Euler step of the
    /// fallback counts as `FALLBACK_STEP_COST` = 256 steps, at least one is taken); `Some` with
    /// [`settle`]'s answer when the slide is over. `m`, `st` and `x` must stay the same.
    pub fn advance(
        &mut self,
        m: &dyn FrictionModel,
        st: &mut StateStepper,
        x: &mut [f64],
        max_steps: usize,
    ) -> Option<bool> {
        let (v, fe, t) = (self.v, self.fe, self.t);
        self.stage = match self.stage {
            SettleStage::Start if m.n_states() == 0 => SettleStage::Finished(true),
            SettleStage::Start if hybrid(m) == 0 && st.slide_begin(m, v, fe, x, t, 0.0, false) => {
                SettleStage::Solver
            }
            SettleStage::Start => SettleStage::Fallback {
                dt: t * 1e-6,
                done: 0.0,
            },
            SettleStage::Solver => match st.slide_resume(m, v, fe, x, max_steps) {
                Slide::Running => return None,
                Slide::Done(_) => SettleStage::Finished(true),
                Slide::Failed => SettleStage::Fallback {
                    dt: t * 1e-6,
                    done: 0.0,
                },
            },
            SettleStage::Fallback { mut dt, mut done } => {
                let mut left = (max_steps / FALLBACK_STEP_COST).max(1);
                while done < t && left > 0 {
                    let h = dt.min(t - done);
                    st.step(m, v, fe, x, h);
                    done += h;
                    dt *= 1.5;
                    left -= 1;
                }
                if done < t {
                    SettleStage::Fallback { dt, done }
                } else {
                    SettleStage::Finished(m.n_switches() == 0 || hybrid(m) > 0)
                }
            }
            SettleStage::Finished(settled) => return Some(settled),
        };
        match self.stage {
            SettleStage::Finished(settled) => Some(settled),
            _ => None,
        }
    }
}

/// [`mean_force`] carried out in pieces: the same mean and state, however it is cut.
#[derive(Debug, Clone)]
pub struct Averaging {
    v: f64,
    fe: f64,
    stage: MeanStage,
}

#[derive(Debug, Clone, Copy)]
enum MeanStage {
    Start,
    RunIn,
    Window,
    Finished(Option<f64>),
}

impl Averaging {
    /// The mean force at `v` \[m/s\] and external force `fe` \[N\].
    pub fn new(v: f64, fe: f64) -> Averaging {
        Averaging {
            v,
            fe,
            stage: MeanStage::Start,
        }
    }

    /// Works on for at most `max_steps` solver steps; `Some` with [`mean_force`]'s answer when
    /// it is over. `m`, `st` and `x` must stay the same.
    pub fn advance(
        &mut self,
        m: &dyn FrictionModel,
        st: &mut StateStepper,
        x: &mut [f64],
        max_steps: usize,
    ) -> Option<Option<f64>> {
        let (v, fe) = (self.v, self.fe);
        let window = |st: &mut StateStepper, x: &mut [f64]| {
            if st.slide_begin(m, v, fe, x, mean_slips(m).1 / v.abs(), 0.0, true) {
                MeanStage::Window
            } else {
                MeanStage::Finished(None)
            }
        };
        self.stage = match self.stage {
            MeanStage::Start if v == 0.0 => MeanStage::Finished(Some(m.force(v, fe, x))),
            MeanStage::Start => {
                if st.slide_begin(m, v, fe, x, mean_slips(m).0 / v.abs(), 0.0, false) {
                    MeanStage::RunIn
                } else {
                    MeanStage::Finished(None)
                }
            }
            MeanStage::RunIn => match st.slide_resume(m, v, fe, x, max_steps) {
                Slide::Running => return None,
                Slide::Done(_) => window(st, x),
                Slide::Failed => MeanStage::Finished(None),
            },
            MeanStage::Window => match st.slide_resume(m, v, fe, x, max_steps) {
                Slide::Running => return None,
                Slide::Done(mean) => MeanStage::Finished(mean),
                Slide::Failed => MeanStage::Finished(None),
            },
            MeanStage::Finished(mean) => return Some(mean),
        };
        match self.stage {
            MeanStage::Finished(mean) => Some(mean),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::registry::find;

    fn model(id: &str, set: &[(&str, f64)]) -> Box<dyn FrictionModel> {
        let e = find(id).unwrap();
        e.build_with(set).unwrap()
    }

    /// The settle in pieces of `cap` steps: its answer, the state, and how many pieces it took.
    fn in_pieces(m: &dyn FrictionModel, v: f64, cap: usize) -> (bool, Vec<f64>, usize) {
        let mut st = StateStepper::new(m.n_states());
        let mut x = vec![0.0; m.n_states()];
        m.initial_state(&mut x);
        let mut s = Settling::new(v, 0.0, SETTLE_SLIP);
        for pieces in 1.. {
            if let Some(settled) = s.advance(m, &mut st, &mut x, cap) {
                return (settled, x, pieces);
            }
        }
        unreachable!()
    }

    #[test]
    fn a_settle_cut_into_pieces_equals_the_whole_one() {
        // the solver's slide (GMS, LuGre) and the implicit-Euler steps (Armstrong's hybrid law)
        for (id, set, v) in [
            ("gms", &[("n", 20.0)][..], 0.01),
            ("lugre", &[][..], -0.3),
            ("armstrong", &[][..], 0.02),
        ] {
            let m = model(id, set);
            let mut st = StateStepper::new(m.n_states());
            let mut x = vec![0.0; m.n_states()];
            m.initial_state(&mut x);
            let whole = settle(m.as_ref(), &mut st, v, 0.0, &mut x, SETTLE_SLIP);
            let (cut, y, pieces) = in_pieces(m.as_ref(), v, 3);
            assert!(pieces > 3, "{id}: {pieces} pieces");
            assert_eq!(whole, cut, "{id}");
            assert_eq!(
                x, y,
                "{id}: the pieces must give the same state bit for bit"
            );
        }
    }

    #[test]
    fn a_mean_force_cut_into_pieces_equals_the_whole_one() {
        let m = model("bristle", &[("sigma0", 1e6)]);
        let n = m.n_states();
        let (mut st, mut x) = (StateStepper::new(n), vec![0.0; n]);
        m.initial_state(&mut x);
        let whole = mean_force(m.as_ref(), &mut st, 0.05, 0.0, &mut x).unwrap();
        let (mut st2, mut y) = (StateStepper::new(n), vec![0.0; n]);
        m.initial_state(&mut y);
        let mut a = Averaging::new(0.05, 0.0);
        let mut pieces = 0;
        let cut = loop {
            pieces += 1;
            if let Some(mean) = a.advance(m.as_ref(), &mut st2, &mut y, 5) {
                break mean.unwrap();
            }
        };
        assert!(pieces > 10, "{pieces}");
        assert_eq!(whole.to_bits(), cut.to_bits());
        assert_eq!(x, y);
    }
}
