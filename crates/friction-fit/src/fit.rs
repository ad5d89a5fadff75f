//! The fit as a whole: start values read off the record, a global search and several optimiser
//! runs on a reduced copy of the record, and a final run on all of it.
//!
//! Stages:
//! 1. **Start values** ([`crate::guess`]): force levels, stiffness, speeds and offset read off
//!    the record give each free parameter a start at the record's scale (the query's own
//!    values stay; `guess=0` keeps the model defaults).
//! 2. **Reduced record**: a record of more than [`REDUCED`] samples is searched on every d-th
//!    sample of a window from its start (d at most a fifth of the pre-sliding transition's
//!    samples, so reversals stay resolved), at a looser solver tolerance.
//! 3. **Global search**: the sum of squares at quasi-random points of a box around the start
//!    (scale parameters over ×/÷ 30 in ln p, coefficients ×/÷ 2), one model run each; the best
//!    distinct points and the start begin the optimiser runs ([`crate::lm`]).
//! 4. **Final run** on the whole record from the best of them.
//!
//! Why stages: one optimiser run from the model defaults ends wherever the first valley is
//! (the tribometer: R² 0.46; the synthetic LuGre record: μ_s on its bound); a run on 40,000
//! samples at the core's tolerance costs about a second, and a fit makes hundreds. The reduced
//! record finds the basin at 1/10 of the cost; the final run puts the optimum where all the
//! data say.

use crate::data::Data;
use crate::eval::{holdout_start, weights, Evaluator};
use crate::guess::{self, Facts};
use crate::lm::{self, Outcome, Vars};
use crate::spec::FitSpec;
use crate::stats::halton;

/// χ²₁ 95 % quantile.
pub const CHI2_95: f64 = 3.841_458_820_694_124;
/// Most samples of the reduced record the search runs on.
pub const REDUCED: usize = 4000;
/// The reduced record's window covers at least 1/WINDOW of the record (thinned to fit):
/// a window keeps the record's own drive, where thinning alone changes it (a cubic through
/// every 11th sample of the tribometer's position moved the optimum so far that the final run
/// needed ten more iterations on all samples).
pub const WINDOW: usize = 4;
/// Solver tolerance while searching (reduced record).
pub const RTOL_SEARCH: f64 = 1e-6;
/// Solver tolerance of the final run and the report's Jacobian.
pub const RTOL_FINAL: f64 = 1e-7;
/// The same for a model that switches (GMS elements sticking and slipping, a Maxwell element
/// saturating): where a switch falls is located to the tolerance, and at 1e-7 that moved μ_s of
/// a GMS fit by a third of its standard error.
pub const RTOL_FINAL_SWITCHING: f64 = 1e-9;

/// Where the simplest member puts a free Stribeck velocity, in typical sliding speeds.
const STRIBECK_ABOVE: f64 = 5.0;

/// The free values of `spec`'s model reduced to its simplest member, or `None` where that is
/// `p0` itself: damping at its lower bound (or 0), a viscous coefficient 0, μ_s = μ_k, the
/// elements' limits alike (GMS's q at 0: one Maxwell-slip element), the rest as in `p0`; through the variables and back, so inside every bound and order.
fn simplest_member(
    spec: &FitSpec,
    vars: &Vars,
    p0: &[f64],
    facts: &guess::Facts,
) -> Option<Vec<f64>> {
    use guess::Role;
    let roles: Vec<Role> = spec
        .free
        .iter()
        .map(|&i| guess::role(spec.param(i)))
        .collect();
    let kinetic = roles
        .iter()
        .position(|r| *r == Role::Kinetic)
        .map(|j| p0[j]);
    let mut p = p0.to_vec();
    for (j, r) in roles.iter().enumerate() {
        match r {
            Role::Damping | Role::Viscous => p[j] = spec.lo[j].max(0.0),
            Role::Spread => p[j] = spec.lo[j],
            Role::Static => {
                if let Some(k) = kinetic {
                    p[j] = k;
                }
            }
            // with μ_s = μ_k a Stribeck velocity has no effect, so the optimiser gets no
            // gradient for it: placed above the record's speeds, the drop spans all of them
            // once μ_s parts from μ_k (the tribometer's GMS: R² 0.9953 from here, 0.9950 from
            // a v_S below the sliding speed, where the drop only acts at the reversals)
            Role::Velocity if kinetic.is_some() => {
                p[j] = p[j].max(STRIBECK_ABOVE * facts.speed);
            }
            _ => {}
        }
    }
    let p = vars.to_p(&vars.to_theta(&p));
    (p.iter().zip(p0).any(|(a, b)| a != b) && p.iter().all(|x| x.is_finite())).then_some(p)
}

/// Whether `spec`'s model switches (events or discrete states).
fn switching(spec: &FitSpec) -> bool {
    spec.entry
        .build_default()
        .is_ok_and(|m| m.n_switches() > 0 || m.n_discrete() > 0)
}

/// The final tolerance for `spec`'s model ([`RTOL_FINAL`], [`RTOL_FINAL_SWITCHING`]).
pub fn rtol_final(spec: &FitSpec) -> f64 {
    if switching(spec) {
        RTOL_FINAL_SWITCHING
    } else {
        RTOL_FINAL
    }
}

/// The search's tolerance for `spec`'s model: [`RTOL_SEARCH`], or the final one for a model
/// that switches (its sum of squares is a staircase in the parameters, and a looser solver
/// moves the steps: the search then ended a step away from the final run's optimum, which
/// the final run's few iterations do not cross).
pub fn rtol_search(spec: &FitSpec) -> f64 {
    if switching(spec) {
        RTOL_FINAL_SWITCHING
    } else {
        RTOL_SEARCH
    }
}
/// Iterations of each start's first round on the reduced record.
pub const FIRST_ITERATIONS: usize = 6;
/// Iterations in all of the best start on the reduced record.
pub const SEARCH_ITERATIONS: usize = 20;
/// The final run's budget, in Jacobians by differences' worth of model runs.
pub const FINAL_ITERATIONS: usize = 6;
/// The same for a model that switches: Broyden's updates help less where the sum of squares
/// steps as switches move, and at 6 GMS on the tribometer record stopped at RMS 0.1492 N,
/// short of the Maxwell-slip element it contains (0.1481); at 12 it reaches 0.1475 (86 s of
/// CPU instead of 72). Given to every model, 12 moved the page's LuGre fit of that record
/// from μ_k 0.455 to 0.387 along its correlation with μ_s and v_S, for 1 % of RMS.
pub const FINAL_ITERATIONS_SWITCHING: usize = 12;
/// Broyden updates between two Jacobians by differences in the final run.
pub const BROYDEN: usize = 3;
/// Optimiser runs on the reduced record unless the query sets `starts`.
pub const STARTS: usize = 3;

/// Where a running fit is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stage {
    /// Sampling the search box.
    Search,
    /// Optimiser run `i` of `n` on the reduced record.
    Start(usize, usize),
    /// The final run on the whole record.
    Final,
    /// Intervals and profiles for the report.
    Report,
}

impl Stage {
    /// The stage in words, for a progress line.
    pub fn text(&self) -> String {
        match self {
            Stage::Search => "searching".into(),
            Stage::Start(i, n) => format!("start {} of {n}", i + 1),
            Stage::Final => "final run on every sample".into(),
            Stage::Report => "intervals".into(),
        }
    }
}

/// Progress of a running fit, for a read-out and Cancel.
#[derive(Debug, Clone, PartialEq)]
pub struct Progress {
    /// Model runs so far.
    pub runs: usize,
    /// The stage.
    pub stage: Stage,
    /// Residual RMS of the best point so far \[N\] (of the record the stage runs on).
    pub rms: f64,
    /// Every parameter's value (`FitSpec::values` order) at the best point so far.
    pub best: Vec<f64>,
}

/// Why a fit did not give a result.
#[derive(Debug, Clone, PartialEq)]
pub enum FitError {
    /// The caller cancelled it.
    Cancelled,
    /// Fewer samples than free parameters + 1, or the model rejects every start.
    Bad(String),
}

impl std::fmt::Display for FitError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            FitError::Cancelled => f.write_str("fit cancelled"),
            FitError::Bad(s) => f.write_str(s),
        }
    }
}

/// The optimum found, and what the fit learnt on the way (for honest verdicts).
#[derive(Debug, Clone)]
pub struct Optimum {
    /// Fitted free-parameter values.
    pub p: Vec<f64>,
    /// Sum of squared (weighted) residuals there \[N²\].
    pub ssr: f64,
    /// Model runs in all stages.
    pub runs: usize,
    /// Why the final optimiser run stopped (MINPACK's reasons).
    pub termination: String,
    /// Whether the final run reports success.
    pub converged: bool,
    /// Where each optimiser run on the reduced record ended (its SSR on that record), the
    /// start from the record's values first.
    pub starts: Vec<Outcome>,
    /// Free values each run started from.
    pub start_points: Vec<Vec<f64>>,
    /// What the record shows.
    pub facts: Facts,
    /// How the search's record was reduced: (every d-th sample, samples), `None` when the
    /// whole record was used.
    pub reduced: Option<(usize, usize)>,
    /// Samples counted in the record the optimiser runs from the starts used.
    pub search_m: usize,
    /// A point the fit tried on the search's record that fits better than the optimum does
    /// there, beyond the 95 % limit: how much lower its sum of squares is (a fraction) and its
    /// free values. `None`: the optimum is the best point tried.
    pub beaten_by: Option<(f64, Vec<f64>)>,
    /// The spec fitted: the query's, with the free set cut to what the record shows when the
    /// query named none ([`guess::resolve`]).
    pub spec: FitSpec,
    /// What the fit chose about the free set, for the report.
    pub notes: Vec<String>,
}

/// The reduced record the search runs on: every d-th sample from the start, at most
/// [`REDUCED`] of them, inside the part the fit counts; `None` when the record is small.
fn reduce(spec: &FitSpec, data: &Data, facts: &Facts) -> Option<(Data, usize)> {
    let end = holdout_start(spec, data);
    if end <= REDUCED {
        return None;
    }
    let dt = (data.t[end - 1] - data.t[0]) / (end - 1) as f64;
    // the pre-sliding transition lasts about F/(k v) seconds: keep five samples in it
    let transition = facts.level / facts.stiffness / facts.speed;
    let dmax = (transition / (5.0 * dt)).floor().max(1.0) as usize;
    // a window of at least a quarter of the record, thinned where the record is dense
    let d = end.div_ceil(REDUCED * WINDOW).min(dmax).max(1);
    let idx: Vec<usize> = (0..end).step_by(d).take(REDUCED).collect();
    Some((pick(data, &idx), d))
}

/// The samples `idx` of `data` as a record.
fn pick(data: &Data, idx: &[usize]) -> Data {
    let pick = |a: &[f64]| idx.iter().map(|&k| a[k]).collect::<Vec<f64>>();
    let mut r = data.slice(0..0);
    r.t = pick(&data.t);
    r.x = pick(&data.x);
    r.v = pick(&data.v);
    r.f = pick(&data.f);
    r.normal = data.normal.as_deref().map(pick);
    r.w = data.w.as_deref().map(pick);
    r
}

/// Most samples of the record the profiles run on.
pub const PROFILE_SAMPLES: usize = 3000;

/// The whole record thinned to at most [`PROFILE_SAMPLES`] samples (every d-th), and d: the
/// profiles' record, whose optimum lies near the full record's (a window's may not, along a
/// direction the data hardly fix, which is where profiles are asked for).
pub fn thin(data: &Data) -> (Data, usize) {
    let d = data.len().div_ceil(PROFILE_SAMPLES).max(1);
    if d == 1 {
        return (data.clone(), 1);
    }
    let idx: Vec<usize> = (0..data.len()).step_by(d).collect();
    (pick(data, &idx), d)
}

/// Counts model runs and keeps the best point for the progress callback.
struct Tracker<'s, 'p> {
    runs: usize,
    best_rms: f64,
    best: Vec<f64>,
    spec: &'s FitSpec,
    progress: &'p mut dyn FnMut(&Progress) -> bool,
}

impl Tracker<'_, '_> {
    /// One model run at free values `p` with residual RMS `rms`; false when the caller cancels.
    fn note(&mut self, stage: Stage, rms: f64, p: &[f64]) -> bool {
        self.runs += 1;
        if rms < self.best_rms {
            self.best_rms = rms;
            for (&i, &x) in self.spec.free.iter().zip(p) {
                self.best[i] = x;
            }
            self.spec.apply_ties(&mut self.best);
        }
        (self.progress)(&Progress {
            runs: self.runs,
            stage,
            rms: self.best_rms,
            best: self.best.clone(),
        })
    }
}

/// Fits `spec` to `data`; `progress` is called after every model run and cancels the fit
/// when it returns false.
///
/// Where the search saw only a part of the record (a record so dense in reversals that the
/// reduced record is a window of less than 1/[`WINDOW`] of it), a second round searches again
/// around the first round's optimum: the window's optimum can lie in another basin than the
/// whole record's, and a box around the whole's optimum finds it (a robot joint's record, 120 s
/// of which the window holds 19: LuGre from 0.096 to 0.069 N·m RMS).
pub fn optimise(
    spec: &FitSpec,
    data: &Data,
    progress: &mut dyn FnMut(&Progress) -> bool,
) -> Result<Optimum, FitError> {
    let first = optimise_from(spec, data, None, 0, progress)?;
    let part = first
        .reduced
        .is_some_and(|(d, len)| d * len * WINDOW < holdout_start(spec, data));
    if !part || !spec.guess || spec.starts.is_some() || first.p.is_empty() {
        return Ok(first);
    }
    let mut values = first.spec.values.clone();
    for (&i, &x) in first.spec.free.iter().zip(&first.p) {
        values[i] = x;
    }
    let second = optimise_from(spec, data, Some(values), first.runs, progress)?;
    Ok(if second.ssr < first.ssr {
        second
    } else {
        Optimum {
            runs: second.runs,
            ..first
        }
    })
}

/// One round of [`optimise`]: from the record's start values, or from `start` (every
/// parameter's value), with `runs` model runs counted before it.
fn optimise_from(
    spec: &FitSpec,
    data: &Data,
    start: Option<Vec<f64>>,
    runs: usize,
    progress: &mut dyn FnMut(&Progress) -> bool,
) -> Result<Optimum, FitError> {
    crate::load::plan(spec, data).map_err(FitError::Bad)?;
    let k = spec.free.len();
    let w = weights(spec, data);
    let counted = w.iter().filter(|&&a| a > 0.0).count();
    if counted <= k {
        return Err(FitError::Bad(format!(
            "{counted} samples (with nonzero weight, after tskip and outside the hold-out part) \
             cannot determine {k} free parameters"
        )));
    }
    let facts = guess::facts(data, &w, guess::load_of(spec, data));
    let (resolved, notes) = guess::resolve(spec, &facts);
    let spec = &resolved;
    let k = spec.free.len();
    let values0 = match start {
        Some(v) => v,
        None if spec.guess => guess::starts(spec, &facts),
        None => spec.values.clone(),
    };
    let p0: Vec<f64> = spec.free.iter().map(|&i| values0[i]).collect();
    let vars = Vars::new(spec, &p0);
    let search_spec = FitSpec {
        holdout: 0.0,
        ..spec.clone()
    };
    let reduced = reduce(spec, data, &facts);
    let (sdata, sspec) = match &reduced {
        Some((r, _)) => (r, &search_spec),
        None => (data, spec),
    };
    let mut tr = Tracker {
        runs,
        best_rms: f64::INFINITY,
        best: values0.clone(),
        spec,
        progress,
    };
    let mut stage = Stage::Search;
    let mut sev = Evaluator::new(sspec, sdata);
    sev.set_rtol(rtol_search(spec));
    let m = sdata.len();
    let n_starts = spec.starts.unwrap_or(STARTS);
    let mut start_points = vec![p0.clone()];
    // the model's simplest member as a start of its own where it differs from p0: no damping,
    // no viscous term, μ_s = μ_k (LuGre's is Dahl's first-order model, which fits a robot
    // joint's record better than LuGre's optimum near the record's guesses)
    let simplest = simplest_member(spec, &vars, &p0, &facts);
    let n_starts = match (&simplest, spec.starts) {
        (Some(p), None) => {
            start_points.push(p.clone());
            n_starts + 1
        }
        _ => n_starts,
    };
    // the search runs whatever the starts: its points also test the optimum (a point it
    // tried that fits better than where the fit ended makes that a poor optimum)
    let mut searched: Vec<(f64, Vec<f64>)> = Vec::new();
    if k > 0 {
        let boxes: Vec<(f64, f64, bool)> = spec
            .free
            .iter()
            .enumerate()
            .map(|(j, &i)| {
                guess::search_box(
                    guess::role(spec.param(i)),
                    p0[j],
                    spec.lo[j],
                    spec.hi[j],
                    &facts,
                )
            })
            .collect();
        let npts = (12 * k).clamp(32, 96);
        let mut scored: Vec<(f64, Vec<f64>, Vec<f64>)> = Vec::new();
        let mut r = vec![0.0; m];
        for s in 1..=npts {
            let u: Vec<f64> = (0..k).map(|j| halton(s as u32, j)).collect();
            let p: Vec<f64> = boxes
                .iter()
                .zip(&u)
                .map(|(&(a, b, log), &u)| {
                    if log {
                        (a.ln() + u * (b.ln() - a.ln())).exp()
                    } else {
                        a + u * (b - a)
                    }
                })
                .collect();
            // through θ and back: inside the bounds and the models' order (μ_s ≥ μ_k)
            let p = vars.to_p(&vars.to_theta(&p));
            let ssr = sev.ssr(&p, &mut r);
            if !tr.note(stage, (ssr / m as f64).sqrt(), &p) {
                return Err(FitError::Cancelled);
            }
            if ssr.is_finite() {
                scored.push((ssr, p, u));
            }
        }
        scored.sort_by(|a, b| a.0.total_cmp(&b.0));
        searched = scored.iter().map(|(s, p, _)| (*s, p.clone())).collect();
        // the best points that are not near one already taken (in the box's unit cube)
        let mut taken: Vec<Vec<f64>> = Vec::new();
        for (_, p, u) in scored {
            if start_points.len() >= n_starts {
                break;
            }
            if taken
                .iter()
                .all(|t| t.iter().zip(&u).any(|(a, b)| (a - b).abs() > 0.15))
            {
                taken.push(u);
                start_points.push(p);
            }
        }
    }
    // every start a few iterations, then the best of them on to convergence: a start in a
    // poor valley shows it within a few iterations, and is not worth the full budget
    let n = start_points.len();
    let mut outcomes = Vec::with_capacity(n);
    for (i, p) in start_points.iter().enumerate() {
        stage = Stage::Start(i, n);
        let mut cb = |rms: f64, p: &[f64]| tr.note(stage, rms, p);
        let iterations = if n > 1 {
            FIRST_ITERATIONS
        } else {
            SEARCH_ITERATIONS
        };
        let out =
            lm::minimise(&mut sev, &vars, p, iterations, &mut cb).ok_or(FitError::Cancelled)?;
        outcomes.push(out);
    }
    let lead = (0..n)
        .filter(|&i| outcomes[i].ssr.is_finite())
        .min_by(|&a, &b| outcomes[a].ssr.total_cmp(&outcomes[b].ssr))
        .ok_or_else(|| {
            FitError::Bad(format!(
                "{} rejects every parameter set the fit tried",
                spec.entry.info.id
            ))
        })?;
    if n > 1 && !outcomes[lead].converged {
        stage = Stage::Start(lead, n);
        let mut cb = |rms: f64, p: &[f64]| tr.note(stage, rms, p);
        let from = outcomes[lead].p.clone();
        let out = lm::minimise(
            &mut sev,
            &vars,
            &from,
            SEARCH_ITERATIONS - FIRST_ITERATIONS,
            &mut cb,
        )
        .ok_or(FitError::Cancelled)?;
        if out.ssr <= outcomes[lead].ssr {
            outcomes[lead] = out;
        }
    }
    let mut ev = Evaluator::new(spec, data);
    // the final run moves from a point already near the optimum: the search's tolerance is
    // accurate enough for its steps, the Jacobian of the report is taken at rtol_final
    ev.set_rtol(rtol_search(spec));
    // the final run starts from whichever of the starts and their ends fits the whole record
    // best: the reduced record is a part of it, and a part's optimum can be a poorer start on
    // the whole than a start itself
    let best = if reduced.is_some() && n > 1 {
        let mut r = vec![0.0; data.len()];
        let mut best = outcomes[lead].clone();
        let mut best_ssr = ev.ssr(&best.p, &mut r);
        let candidates: Vec<Vec<f64>> = outcomes
            .iter()
            .map(|o| o.p.clone())
            .chain(start_points.iter().cloned())
            .collect();
        for p in candidates {
            let ssr = ev.ssr(&p, &mut r);
            if !tr.note(Stage::Final, (ssr / data.len() as f64).sqrt(), &p) {
                return Err(FitError::Cancelled);
            }
            if ssr < best_ssr {
                best_ssr = ssr;
                best = lm::Outcome {
                    p,
                    ssr,
                    termination: String::new(),
                    converged: false,
                };
            }
        }
        best
    } else {
        outcomes[lead].clone()
    };
    let fin = {
        tr.best_rms = f64::INFINITY;
        stage = Stage::Final;
        let mut cb = |rms: f64, p: &[f64]| tr.note(stage, rms, p);
        let iterations = if switching(spec) {
            FINAL_ITERATIONS_SWITCHING
        } else {
            FINAL_ITERATIONS
        };
        lm::minimise_with(&mut ev, &vars, &best.p, iterations, BROYDEN, &mut cb)
            .ok_or(FitError::Cancelled)?
    };
    if !fin.ssr.is_finite() {
        return Err(FitError::Bad(format!(
            "{} rejects every parameter set the fit tried",
            spec.entry.info.id
        )));
    }
    // the optimum against the other starts' ends and the best point the search tried (which
    // is all there is to compare with when one start was asked for), on the whole record:
    // on the search's record its own optimum would always look better
    let m_search = weights(sspec, sdata).iter().filter(|&&w| w > 0.0).count();
    let m_all = weights(spec, data).iter().filter(|&&w| w > 0.0).count();
    let margin = CHI2_95 * fin.ssr / (m_all.saturating_sub(k)).max(1) as f64;
    let mut rivals: Vec<Vec<f64>> = outcomes
        .iter()
        .filter(|o| o.ssr.is_finite() && o.p != best.p)
        .map(|o| o.p.clone())
        .collect();
    if let Some((_, p)) = searched.first() {
        rivals.push(p.clone());
    }
    let mut r = vec![0.0; data.len()];
    let mut beaten_by: Option<(f64, Vec<f64>)> = None;
    for p in rivals {
        let ssr = ev.ssr(&p, &mut r);
        if !tr.note(Stage::Final, (ssr / data.len() as f64).sqrt(), &p) {
            return Err(FitError::Cancelled);
        }
        if ssr < fin.ssr - margin && beaten_by.as_ref().is_none_or(|b| 1.0 - ssr / fin.ssr > b.0) {
            beaten_by = Some((1.0 - ssr / fin.ssr, p));
        }
    }
    Ok(Optimum {
        p: fin.p,
        ssr: fin.ssr,
        runs: tr.runs,
        termination: fin.termination,
        converged: fin.converged,
        starts: outcomes,
        start_points,
        facts,
        reduced: reduced.as_ref().map(|(r, d)| (*d, r.len())),
        search_m: m_search,
        beaten_by,
        spec: resolved.clone(),
        notes,
    })
}

/// Jacobian ∂r/∂p of the weighted residuals in the original parameters at `p`, m × k
/// column-major as nalgebra stores it, at the final run's solver tolerance: by central
/// differences for a model that switches (one-sided at a bound), by forward differences for
/// one that does not.
///
/// Per sample, a side whose run is on another branch of the model there than the run at `p`
/// (an element switching across the sample, `Driver::branches`) is left out: the derivative
/// is that of the branch the optimum lies on, so a jump of the output does not pass for a
/// steep slope and shrink the intervals.
pub fn jacobian_at(
    spec: &FitSpec,
    data: &Data,
    p: &[f64],
) -> Result<nalgebra::DMatrix<f64>, String> {
    let mut ev = Evaluator::new(spec, data);
    ev.set_rtol(rtol_final(spec));
    let smooth = !switching(spec);
    let (m, k) = (data.len(), p.len());
    let mut j = nalgebra::DMatrix::zeros(m, k);
    let mut rp = vec![0.0; m];
    let mut rm = vec![0.0; m];
    let mut r0 = vec![0.0; m];
    ev.residuals(p, &mut r0)?;
    let b0 = ev.branches().to_vec();
    for c in 0..k {
        let s = spec.param(spec.free[c]);
        let h = REL_STEP * p[c].abs().max(1e-9 * (spec.hi[c] - spec.lo[c])).max(1e-300);
        let mut q = p.to_vec();
        // central where both sides are valid values of the model, one-sided otherwise (a
        // bound, or a cross-parameter rule such as μ_s ≥ μ_k)
        q[c] = (p[c] + h).min(s.max);
        // a value on its upper bound has no upper side
        let up = (q[c] > p[c] && ev.residuals(&q, &mut rp).is_ok()).then_some(q[c]);
        let bu = ev.branches().to_vec();
        // a model without switches: one side is enough (its error, h/p = 1e-4 relative, is far
        // below what an interval needs), and saves a model run per parameter
        let dn = if smooth && up.is_some() {
            None
        } else {
            q[c] = (p[c] - h).max(s.min);
            (q[c] < p[c] && ev.residuals(&q, &mut rm).is_ok()).then_some(q[c])
        };
        let bd = ev.branches().to_vec();
        if up.is_none() && dn.is_none() {
            return Err(format!(
                "{}: the model rejects every value near {}",
                s.key, p[c]
            ));
        }
        for i in 0..m {
            let fwd = up.map(|u| (rp[i] - r0[i]) / (u - p[c]));
            let back = dn.map(|d| (r0[i] - rm[i]) / (p[c] - d));
            let same_up = up.is_some() && bu[i] == b0[i];
            let same_dn = dn.is_some() && bd[i] == b0[i];
            // both sides on one branch: central, even when the run at p is the odd one (a
            // switch exactly at the sample, such as a reversal)
            let central = up.is_some() && dn.is_some() && (bu[i] == bd[i] || same_up && same_dn);
            j[(i, c)] = match (central, same_up, same_dn, up, dn) {
                (true, _, _, Some(u), Some(d)) => (rp[i] - rm[i]) / (u - d),
                (_, true, false, ..) => fwd.unwrap_or(0.0),
                (_, false, true, ..) => back.unwrap_or(0.0),
                // both sides cross a switch (or one is invalid and the other crosses): the
                // smaller quotient is the nearer to a slope
                _ => match (fwd, back) {
                    (Some(a), Some(b)) => {
                        if a.abs() < b.abs() {
                            a
                        } else {
                            b
                        }
                    }
                    (Some(a), None) | (None, Some(a)) => a,
                    (None, None) => 0.0,
                },
            };
        }
    }
    Ok(j)
}

/// Relative step of the central differences at the optimum: branch-aware differencing keeps
/// the switches' jumps out, so the step only balances truncation (h²) against the solver's
/// tolerance ([`rtol_final`], noise about rtol/h).
const REL_STEP: f64 = 1e-4;
