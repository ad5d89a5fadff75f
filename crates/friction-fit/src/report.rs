//! The fit report: values, standard errors, 95 % confidence intervals, correlations, goodness
//! of fit on the fitted part and on a held-out part, and verdicts in plain words that are true
//! of what the data say, not of where the optimiser happened to stop.
//!
//! Statistics (linearised, as scipy's `curve_fit` and LsqFit report them): with J the m × k
//! Jacobian of the weighted residuals in the original parameters at the optimum,
//! C = s²(JᵀJ)⁻¹, s² = SSR/(m − k), SE = √diag C, CI = p̂ ± t₀.₉₇₅(m − k)·SE. (JᵀJ)⁻¹ comes
//! from the SVD of J, so a rank-deficient J gives infinite errors instead of garbage. The
//! condition number is that of J with unit-norm columns (the collinearity measure: large when
//! some combination of parameters hardly changes the output), and its smallest right singular
//! vector is the weakest combination. Where the linearised interval cannot bound a parameter,
//! the profile likelihood does ([`crate::profile`], [`Report::set_profile`]).
//!
//! Verdicts: a statement that the data cannot determine a parameter is only true at a good
//! optimum. The fit is called poor, and no parameter is blamed on the data, when a
//! Coulomb–viscous law with an offset (a linear least-squares fit, nested in every model here
//! but the pure Coulomb law) reaches a higher R² on the same samples ([`baseline_r2`]).

use nalgebra::{DMatrix, Matrix3, Vector3};
use serde_json::{json, Value};

use crate::data::Data;
use crate::eval::holdout_start;
use crate::fit::Optimum;
pub use crate::format::{num, unit_of};
use crate::guess::{role, Facts, Role};
use crate::profile::{End, Interval};
use crate::spec::FitSpec;
use crate::stats::t_quantile;

/// |correlation| above which two parameters are flagged.
pub const CORR_LIMIT: f64 = 0.95;
/// Scaled condition number above which the Jacobian is called near-singular.
pub const COND_LIMIT: f64 = 100.0;
use crate::fit::CHI2_95;
/// How far below the baseline's R² a fit is poor.
pub const POOR_MARGIN: f64 = 0.002;

/// One fitted parameter.
#[derive(Debug, Clone, PartialEq)]
pub struct Estimate {
    /// Query key.
    pub key: &'static str,
    /// Symbol as shown to users.
    pub symbol: &'static str,
    /// Unit (of a rotary record: with rad and N·m, [`unit_of`]).
    pub unit: String,
    /// Fitted value.
    pub value: f64,
    /// Standard error (infinite when the data do not determine it at all).
    pub se: f64,
    /// 95 % confidence interval (linearised).
    pub ci: (f64, f64),
    /// 95 % interval from the profile likelihood, where the linearised one is not reliable.
    pub profile: Option<Interval>,
    /// Whether the value sits on one of its bounds (the interval is then not reliable).
    pub at_bound: bool,
    /// Plain-words verdicts (empty when the parameter is well determined).
    pub verdicts: Vec<String>,
}

/// Goodness of fit on the part of the record kept out of the fit.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Holdout {
    /// Time where the hold-out part begins \[s\].
    pub from: f64,
    /// Samples in it.
    pub m: usize,
    /// Residual RMS there \[N\].
    pub rms: f64,
    /// R² there (against the hold-out part's own mean).
    pub r2: f64,
}

/// Everything the page and the CLI show about a fit.
#[derive(Debug, Clone, PartialEq)]
pub struct Report {
    /// Model id.
    pub model: &'static str,
    /// Model name.
    pub model_name: &'static str,
    /// Free parameters.
    pub estimates: Vec<Estimate>,
    /// Correlation matrix of the free parameters (k × k, row-major).
    pub corr: Vec<Vec<f64>>,
    /// Samples counted (nonzero weight).
    pub m: usize,
    /// Residual RMS (weighted) on the fitted part \[N\].
    pub rms: f64,
    /// Coefficient of determination 1 − SSR/SST on the fitted part.
    pub r2: f64,
    /// R² of the Coulomb–viscous law with offset on the same samples ([`baseline_r2`]).
    pub baseline_r2: f64,
    /// Goodness of fit on the held-out part (`holdout=`).
    pub holdout: Option<Holdout>,
    /// Why the optimum is poor (empty: it is not).
    pub poor: Vec<String>,
    /// Condition number of the column-scaled Jacobian.
    pub cond: f64,
    /// Weakest combination: relative change of each free parameter (largest = 1 %) that
    /// changes the output least.
    pub weakest: Vec<f64>,
    /// Verdicts about the fit as a whole.
    pub notes: Vec<String>,
    /// What the record is and what was read off it.
    pub record: Vec<String>,
    /// Every model parameter's value (fixed and fitted) in the model's order, for links.
    pub all_values: Vec<(&'static str, f64)>,
    /// The offset added to the model's force \[N\] (0 unless fitted or set).
    pub offset: f64,
    /// The model's force (with the offset) at the samples with the fitted values \[N\].
    pub fitted: Vec<f64>,
    /// Model runs the fit took.
    pub runs: usize,
    /// Where the normal load came from when the record has a column N ([`crate::load`]).
    pub load: Option<String>,
    /// The force unit of the record (`N`, or `N·m` for a rotary one).
    pub force_unit: &'static str,
    /// The fit query that gives this fit again on the same file (free set, start values at
    /// the optimum, record options).
    pub fit_query: String,
    /// Free parameters still waiting for their profile interval ([`Report::set_profile`]).
    pub pending_profiles: Vec<usize>,
    why: Vec<String>,
}

/// R² of F ≈ a·sgn(v) + b·v + c by weighted linear least squares (sgn(v) held through
/// |v| < 1 % of the typical speed, so a resting body keeps its last direction): the simplest law
/// with an offset that every model with a Coulomb level contains.
pub fn baseline_r2(data: &Data, w: &[f64], speed: f64) -> f64 {
    let mut ata = Matrix3::<f64>::zeros();
    let mut atb = Vector3::<f64>::zeros();
    let mut dir = 0.0;
    let rows: Vec<(f64, [f64; 3])> = (0..data.len())
        .map(|k| {
            let v = data.v[k];
            if v.abs() > 0.01 * speed {
                dir = v.signum();
            }
            (w[k], [dir, v, 1.0])
        })
        .collect();
    for ((wk, a), f) in rows.iter().zip(&data.f) {
        let a = Vector3::from(*a);
        ata += *wk * a * a.transpose();
        atb += *wk * *f * a;
    }
    let Some(x) = ata.try_inverse().map(|inv| inv * atb) else {
        return f64::NAN;
    };
    let wsum: f64 = w.iter().sum();
    let mean = data.f.iter().zip(w).map(|(f, w)| f * w).sum::<f64>() / wsum;
    let (mut sse, mut sst) = (0.0, 0.0);
    for ((wk, a), f) in rows.iter().zip(&data.f) {
        let e = f - Vector3::from(*a).dot(&x);
        sse += wk * e * e;
        sst += wk * (f - mean).powi(2);
    }
    if sst > 0.0 {
        1.0 - sse / sst
    } else {
        f64::NAN
    }
}

/// Why a parameter of role `r` may not show in a record with `facts`, in words.
fn why(r: Role, facts: &Facts, data: &Data) -> String {
    let (vmin, vmax) = data.v.iter().fold((f64::INFINITY, 0.0_f64), |(a, b), v| {
        (a.min(v.abs()), b.max(v.abs()))
    });
    match r {
        Role::Stiffness
        | Role::StiffnessPerLoad
        | Role::Damping
        | Role::DampingPerLoad
        | Role::Time
        | Role::Displacement => {
            if facts.reversals == 0 {
                "the motion never reverses, so the pre-sliding behaviour that sets it never shows"
                    .to_string()
            } else {
                format!(
                    "its effect on the force over the record's {} reversals is within the noise",
                    facts.reversals
                )
            }
        }
        Role::Velocity | Role::Viscous | Role::InverseVelocity | Role::Static => format!(
            "the record slides at speeds from {} to {} {} (its sliding speeds span ×{}), where \
             the force hardly depends on it",
            num(vmin),
            num(vmax),
            unit_of("m/s", data.rotary),
            num(facts.speed_span)
        ),
        _ => "the force hardly depends on it in this record".to_string(),
    }
}

/// Builds the report of `opt` (from [`crate::fit::optimise`]) with Jacobian `j` at the optimum.
pub fn build(data: &Data, opt: &Optimum, j: &DMatrix<f64>, fitted: Vec<f64>) -> Report {
    let spec: &FitSpec = &opt.spec;
    let k = j.ncols();
    let w = crate::eval::weights(spec, data);
    // samples that count: the others have zero rows in J and add nothing to the SSR
    let m = w.iter().filter(|&&a| a > 0.0).count();
    let dof = (m - k).max(1) as f64;
    let s2 = opt.ssr / dof;
    // column-scaled Jacobian Js = J D⁻¹: its SVD gives the covariance D⁻¹(JsᵀJs)⁻¹D⁻¹, the
    // condition number and the weakest direction, without the units of the parameters
    // swamping the small singular values
    let norms: Vec<f64> = (0..k).map(|c| j.column(c).norm()).collect();
    let big_norm = norms.iter().fold(0.0_f64, |a, &b| a.max(b));
    let alive: Vec<bool> = norms
        .iter()
        .map(|&n| n > 1e-12 * big_norm && n > 0.0)
        .collect();
    let mut js = j.clone();
    for c in 0..k {
        let d = if alive[c] { 1.0 / norms[c] } else { 0.0 };
        js.column_mut(c).scale_mut(d);
    }
    // the SVD refuses non-finite entries (a derivative that overflowed): no information there
    js.apply(|x| {
        if !x.is_finite() {
            *x = 0.0;
        }
    });
    let sv = js.clone().svd(false, true);
    let vt = sv.v_t.clone().unwrap_or_else(|| DMatrix::identity(k, k));
    let sbig = sv.singular_values.max();
    let mut cov = DMatrix::<f64>::zeros(k, k);
    for (i, &s) in sv.singular_values.iter().enumerate() {
        let inv = if s > 1e-13 * sbig {
            1.0 / (s * s)
        } else {
            f64::INFINITY
        };
        for a in 0..k {
            for b in 0..k {
                let term = vt[(i, a)] * vt[(i, b)];
                if term.abs() > 1e-20 {
                    cov[(a, b)] += s2 * inv * term / (norms[a] * norms[b]);
                }
            }
        }
    }
    for c in 0..k {
        if !alive[c] {
            cov[(c, c)] = f64::INFINITY;
        }
    }
    let tq = t_quantile(0.975, dof);
    let specs = spec.free_specs();
    let mut estimates: Vec<Estimate> = (0..k)
        .map(|c| {
            let s = specs[c];
            let value = opt.p[c];
            let se = cov[(c, c)].max(0.0).sqrt();
            let se = if se.is_nan() { f64::INFINITY } else { se };
            let ci = (value - tq * se, value + tq * se);
            // on a bound to a millionth of the range, in ln p for a range over decades
            let (lo, hi) = (spec.lo[c], spec.hi[c]);
            let at_bound = if s.log && lo > 0.0 && value > 0.0 {
                let span = (hi / lo).ln();
                (value / lo).ln() <= 1e-6 * span || (hi / value).ln() <= 1e-6 * span
            } else {
                let span = hi - lo;
                (value - lo).abs() <= 1e-6 * span || (hi - value).abs() <= 1e-6 * span
            };
            Estimate {
                key: s.key,
                symbol: s.symbol,
                unit: unit_of(s.unit, data.rotary),
                value,
                se,
                ci,
                profile: None,
                at_bound,
                verdicts: Vec::new(),
            }
        })
        .collect();
    let corr: Vec<Vec<f64>> = (0..k)
        .map(|a| {
            (0..k)
                .map(|b| {
                    let d = (cov[(a, a)] * cov[(b, b)]).sqrt();
                    if a == b {
                        1.0
                    } else if d.is_finite() && d > 0.0 {
                        (cov[(a, b)] / d).clamp(-1.0, 1.0)
                    } else {
                        f64::NAN
                    }
                })
                .collect()
        })
        .collect();
    let (mut imin, mut smin) = (0, f64::INFINITY);
    for (i, &s) in sv.singular_values.iter().enumerate() {
        if s < smin {
            smin = s;
            imin = i;
        }
    }
    let cond = if smin > 0.0 {
        sbig / smin
    } else {
        f64::INFINITY
    };
    let mut weakest = vec![0.0; k];
    for c in 0..k {
        let denom = norms[c] * opt.p[c].abs();
        weakest[c] = if denom > 0.0 {
            vt[(imin, c)] / denom
        } else {
            vt[(imin, c)]
        };
    }
    let big = weakest.iter().fold(0.0_f64, |a, b| a.max(b.abs()));
    if big > 0.0 {
        for x in &mut weakest {
            *x /= big; // largest relative change = 1 (shown as 1 %)
        }
    }
    // goodness of fit
    let wsum: f64 = w.iter().sum();
    let mean = data.f.iter().zip(&w).map(|(f, w)| f * w).sum::<f64>() / wsum;
    let sst: f64 = data
        .f
        .iter()
        .zip(&w)
        .map(|(f, w)| w * (f - mean).powi(2))
        .sum();
    let r2 = if sst > 0.0 {
        1.0 - opt.ssr / sst
    } else {
        f64::NAN
    };
    let baseline = baseline_r2(data, &w, opt.facts.speed);
    let cut = holdout_start(spec, data);
    let holdout = (cut < data.len()).then(|| {
        let part = cut..data.len();
        let hm = part.len();
        let hmean = data.f[part.clone()].iter().sum::<f64>() / hm as f64;
        let (mut sse, mut hsst) = (0.0, 0.0);
        for i in part {
            sse += (fitted[i] - data.f[i]).powi(2);
            hsst += (data.f[i] - hmean).powi(2);
        }
        Holdout {
            from: data.t[cut],
            m: hm,
            rms: (sse / hm as f64).sqrt(),
            r2: if hsst > 0.0 {
                1.0 - sse / hsst
            } else {
                f64::NAN
            },
        }
    });
    // is the optimum good?
    let mut poor = Vec::new();
    if r2 < baseline - POOR_MARGIN {
        poor.push(format!(
            "its R² {} is below the {} of a Coulomb–viscous law with an offset fitted to the same \
             samples",
            r2_text(r2),
            r2_text(baseline)
        ));
    }
    if let Some((gain, p)) = &opt.beaten_by {
        let at: Vec<String> = specs
            .iter()
            .zip(p)
            .map(|(s, x)| format!("{} = {}", s.symbol, num(*x)))
            .collect();
        poor.push(format!(
            "a point the fit tried fits better (a sum of squares {} % lower) at {}",
            num(100.0 * gain),
            at.join(", ")
        ));
    }
    if !poor.is_empty() {
        for e in estimates.iter().filter(|e| e.at_bound) {
            poor.push(format!(
                "{} is on a bound of its range ({})",
                e.symbol,
                num(e.value)
            ));
        }
        for &(a, b) in &spec.tied {
            poor.push(format!(
                "{} = {}",
                spec.param(a).symbol,
                spec.param(b).symbol
            ));
        }
    }
    let mut notes = Vec::new();
    let mut why_of = Vec::new();
    let mut pending = Vec::new();
    if poor.is_empty() {
        // starts that fit as well (inside the 95 % limit of the sum of squares on the search's
        // record) but elsewhere: the data do not fix that parameter
        let best_start = opt
            .starts
            .iter()
            .map(|o| o.ssr)
            .fold(f64::INFINITY, f64::min);
        let limit = best_start * (1.0 + CHI2_95 / (opt.search_m.saturating_sub(k)).max(1) as f64);
        let near: Vec<&crate::lm::Outcome> = opt.starts.iter().filter(|o| o.ssr <= limit).collect();
        // what the verdicts take as given: the fixed parameters the fit could have freed
        let fixed: Vec<String> = (0..spec.n_model())
            .filter(|i| !spec.free.contains(i) && !spec.tied.iter().any(|t| t.0 == *i))
            .filter(|&i| {
                let p = spec.param(i);
                crate::spec::fittable(p) && !crate::spec::is_load(p) && p.key != "eps"
            })
            .map(|i| format!("{} = {}", spec.param(i).symbol, num(spec.values[i])))
            .collect();
        let given = if fixed.is_empty() {
            String::new()
        } else {
            format!(" (given the fixed {})", fixed.join(", "))
        };
        for (c, e) in estimates.iter_mut().enumerate() {
            let r = role(specs[c]);
            let w_ = format!("{}{given}", why(r, &opt.facts, data));
            why_of.push(w_.clone());
            let name = e.symbol;
            if near.len() >= 2 {
                let (a, b) = near
                    .iter()
                    .map(|o| o.p[c])
                    .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), x| {
                        (a.min(x), b.max(x))
                    });
                let scale = e.value.abs().max(1e-12 * (spec.hi[c] - spec.lo[c]));
                if b - a > scale.max(b.abs()) * 0.5 {
                    e.verdicts.push(format!(
                        "{name} cannot be determined from this data: optimiser runs from {} \
                         starts fit as well (within the 95 % limit of the sum of squares) with \
                         {name} from {} to {}; {w_}",
                        near.len(),
                        num(a),
                        num(b)
                    ));
                    continue;
                }
            }
            let wide =
                !alive[c] || (e.ci.1 - e.ci.0).is_nan() || e.ci.1 - e.ci.0 > 2.0 * e.value.abs();
            if wide || e.at_bound {
                pending.push(c);
            }
        }
    } else {
        why_of = vec![String::new(); k];
        notes.push(format!(
            "the fit stopped at a poor optimum: {}. The intervals and correlations describe that \
             point, not what the data can determine: try more starts (starts=8) or start values \
             near the expected ones",
            poor.join("; ")
        ));
    }
    for a in 0..k {
        for b in a + 1..k {
            let r = corr[a][b];
            if r.abs() > CORR_LIMIT {
                let (x, y) = (estimates[a].symbol, estimates[b].symbol);
                let msg = format!(
                    "{x} and {y} are strongly correlated (ρ = {:.3}): the data fix a combination \
                     of them, not each one",
                    r
                );
                estimates[a].verdicts.push(msg.clone());
                estimates[b].verdicts.push(msg);
            }
        }
    }
    if cond > COND_LIMIT && poor.is_empty() {
        let combo: Vec<String> = weakest
            .iter()
            .zip(&estimates)
            .filter(|(w, _)| w.abs() >= 0.1)
            .map(|(w, e)| {
                let dir = if *w > 0.0 { "up" } else { "down" };
                format!("{} {dir} by {:.2} %", e.symbol, w.abs())
            })
            .collect();
        notes.push(format!(
            "the Jacobian is near-singular (scaled condition number {}): the force hardly \
             changes when {}",
            num(cond),
            combo.join(" while ")
        ));
    }
    if !opt.converged {
        notes.push(format!(
            "the final optimiser run stopped before its convergence test ({})",
            opt.termination
        ));
    }
    let mut all: Vec<f64> = spec.values.clone();
    for (&i, &x) in spec.free.iter().zip(&opt.p) {
        all[i] = x;
    }
    spec.apply_ties(&mut all);
    let offset = all[spec.offset_index()];
    let cols: Vec<String> = data
        .columns
        .iter()
        .map(|(k, h)| format!("{k} ← {h}"))
        .collect();
    let mut record = Vec::new();
    if !cols.is_empty() {
        record.push(format!("columns: {}", cols.join(", ")));
    }
    record.extend(data.notes.iter().cloned());
    record.push(opt.facts.line());
    if let Some((d, n)) = opt.reduced {
        record.push(format!(
            "searched on every {d}th sample ({n} samples) before the final run on all of them"
        ));
    }
    let fit_query = fit_query(spec, &all);
    Report {
        model: spec.entry.info.id,
        model_name: spec.entry.info.name,
        estimates,
        corr,
        m,
        rms: (opt.ssr / m as f64).sqrt(),
        r2,
        baseline_r2: baseline,
        holdout,
        poor,
        cond,
        weakest,
        notes,
        record,
        all_values: spec
            .entry
            .info
            .params
            .iter()
            .map(|p| p.key)
            .zip(all)
            .collect(),
        offset,
        fitted,
        runs: opt.runs,
        load: None,
        force_unit: data.force_unit(),
        fit_query,
        pending_profiles: pending,
        why: why_of,
    }
}

/// The fit query that gives this fit again: the model, every free key, values at the optimum
/// and the record options.
fn fit_query(spec: &FitSpec, all: &[f64]) -> String {
    let mut s = format!("model={}", spec.entry.info.id);
    let keys: Vec<&str> = spec.free.iter().map(|&i| spec.param(i).key).collect();
    s.push_str(&format!("&free={}", keys.join(",")));
    for (i, v) in all.iter().enumerate() {
        let p = spec.param(i);
        if spec.free.contains(&i) || spec.explicit.contains(&i) || *v != p.default {
            if spec.tied.iter().any(|t| t.0 == i) {
                continue;
            }
            s.push_str(&format!("&{}={v}", p.key));
        }
    }
    let tied: Vec<String> = spec
        .tied
        .iter()
        .map(|&(a, b)| format!("{}:{}", spec.param(a).key, spec.param(b).key))
        .collect();
    if !tied.is_empty() {
        s.push_str(&format!("&tie={}", tied.join(",")));
    }
    if spec.tskip > 0.0 {
        s.push_str(&format!("&tskip={}", spec.tskip));
    }
    if spec.holdout > 0.0 {
        s.push_str(&format!("&holdout={}", spec.holdout));
    }
    let r = &spec.read;
    if !r.cols.is_empty() {
        let c: Vec<String> = r
            .cols
            .iter()
            .map(|(c, v)| match v {
                crate::data::ColRef::Name(n) => format!("{}:{n}", c.key()),
                crate::data::ColRef::Index(i) => format!("{}:{i}", c.key()),
            })
            .collect();
        s.push_str(&format!("&cols={}", c.join(",")));
    }
    if !r.units.is_empty() {
        let u: Vec<String> = r
            .units
            .iter()
            .map(|(c, u)| format!("{}:{u}", c.key()))
            .collect();
        s.push_str(&format!("&units={}", u.join(",")));
    }
    if !r.flip.is_empty() {
        let f: Vec<&str> = r.flip.iter().map(|c| c.key()).collect();
        s.push_str(&format!("&flip={}", f.join(",")));
    }
    if let Some(a) = r.tmin {
        s.push_str(&format!("&tmin={a}"));
    }
    if let Some(b) = r.tmax {
        s.push_str(&format!("&tmax={b}"));
    }
    match r.smooth {
        crate::data::Smooth::Auto => {}
        crate::data::Smooth::Off => s.push_str("&smooth=0"),
        crate::data::Smooth::Width(w) => s.push_str(&format!("&smooth={w}")),
    }
    s
}

fn r2_text(r2: f64) -> String {
    if r2.is_finite() {
        format!("{r2:.4}")
    } else {
        "n/a".into()
    }
}

fn end_text(e: End, unit: &str, lower: bool) -> String {
    match e {
        End::At(x) => format!("{} {unit}", num(x)).trim_end().to_string(),
        End::Beyond(x) => format!("{}{} {unit}", if lower { "≤ " } else { "≥ " }, num(x))
            .trim_end()
            .to_string(),
        End::Bound => if lower {
            "its lower bound"
        } else {
            "its upper bound"
        }
        .to_string(),
    }
}

fn jnum(x: f64) -> Value {
    if x.is_finite() {
        json!(x)
    } else {
        Value::Null
    }
}

impl Report {
    /// Whether any parameter or the fit as a whole got a verdict.
    pub fn flagged(&self, key: &str) -> bool {
        self.estimates
            .iter()
            .any(|e| e.key == key && !e.verdicts.is_empty())
    }

    /// Records the profile interval of free parameter `c` (one of
    /// [`Report::pending_profiles`]) and words its verdict: a parameter the profile bounds on
    /// both sides is determined (its linearised interval was not reliable there), one it
    /// bounds on one side gets that limit, and one it bounds on neither side cannot be
    /// determined from this data, with the reason the record gives. `None`: the profile was
    /// not computed (cancelled), and the linearised verdicts stand.
    pub fn set_profile(&mut self, c: usize, iv: Option<Interval>, thinned: usize) {
        let on = if thinned > 1 {
            format!("profile likelihood on every {thinned}th sample")
        } else {
            "profile likelihood".to_string()
        };
        self.pending_profiles.retain(|&x| x != c);
        let why = self.why.get(c).cloned().unwrap_or_default();
        let e = &mut self.estimates[c];
        let name = e.symbol;
        let u = e.unit.clone();
        let Some(iv) = iv else {
            e.verdicts.push(if e.at_bound {
                format!(
                    "{name} ended on a bound of its range ({}): its interval is not reliable",
                    num(e.value)
                )
            } else {
                format!(
                    "{name} cannot be determined from this data: its 95 % interval [{}, {}] is \
                     wider than the value itself; {why}",
                    num(e.ci.0),
                    num(e.ci.1)
                )
            });
            return;
        };
        e.profile = Some(iv);
        let text = match (iv.lo, iv.hi) {
            (End::Bound, End::Bound) => format!(
                "{name} cannot be determined from this data: any value in its range fits as \
                 well (95 %, {on}); {why}"
            ),
            (End::Bound, hi) => format!(
                "the data bound {name} from above only: {name} ≤ {} (95 %, {on}, down to {}); \
                 {why}",
                end_text(hi, &u, false).trim_start_matches("≥ "),
                end_text(End::Bound, &u, true)
            ),
            (lo, End::Bound) => format!(
                "the data bound {name} from below only: {name} ≥ {} (95 %, {on}, up to {}); \
                 {why}",
                end_text(lo, &u, true).trim_start_matches("≤ "),
                end_text(End::Bound, &u, false)
            ),
            (lo, hi) => format!(
                "{name}: 95 % interval [{}, {}] ({on}; the linearised interval is not \
                 reliable here)",
                end_text(lo, &u, true),
                end_text(hi, &u, false)
            ),
        };
        e.verdicts.insert(0, text);
    }

    /// `model=…&key=value&…` with every model parameter (fixed and fitted) at full precision:
    /// the fitted model opens in any view that takes model keys (append `view=…`).
    pub fn link_query(&self) -> String {
        let mut s = format!("model={}", self.model);
        for (k, v) in &self.all_values {
            s.push_str(&format!("&{k}={v}"));
        }
        s
    }

    /// The verdicts of the parameters and the fit as a whole, each once, in order.
    pub fn verdicts(&self) -> Vec<&String> {
        let mut seen: Vec<&String> = Vec::new();
        for v in self
            .estimates
            .iter()
            .flat_map(|e| &e.verdicts)
            .chain(&self.notes)
        {
            if !seen.contains(&v) {
                seen.push(v);
            }
        }
        seen
    }

    /// One sentence on the fit: model, samples, RMS, R², and the hold-out part's.
    pub fn summary(&self) -> String {
        let u = self.force_unit;
        let mut s = format!(
            "{} fitted to {} samples: residual RMS {} {u}, R² {}",
            self.model_name,
            self.m,
            num(self.rms),
            r2_text(self.r2)
        );
        if let Some(h) = &self.holdout {
            s.push_str(&format!(
                "; on the held-out {} samples from t = {} s: RMS {} {u}, R² {}",
                h.m,
                num(h.from),
                num(h.rms),
                r2_text(h.r2)
            ));
        }
        s
    }

    /// The verdict line when nothing is flagged.
    pub const ALL_DETERMINED: &'static str = "every free parameter is determined by this data";

    /// The report as text for a terminal.
    pub fn text(&self) -> String {
        let u = self.force_unit;
        let mut s = format!("{}\n", self.summary());
        for r in &self.record {
            s.push_str(&format!("  {r}\n"));
        }
        if let Some(l) = &self.load {
            s.push_str(&format!("  normal load: {l}\n"));
        }
        s.push_str(&format!(
            "\n{:<10} {:>12} {:>12} {:>28}  {}\n",
            "parameter", "value", "std.err.", "95 % interval", "unit"
        ));
        for e in &self.estimates {
            s.push_str(&format!(
                "{:<10} {:>12} {:>12} {:>28}  {}\n",
                e.key,
                num(e.value),
                num(e.se),
                format!("[{}, {}]", num(e.ci.0), num(e.ci.1)),
                e.unit
            ));
        }
        s.push_str("\ncorrelation\n");
        for (e, row) in self.estimates.iter().zip(&self.corr) {
            let cells: Vec<String> = row.iter().map(|r| format!("{r:>7.3}")).collect();
            s.push_str(&format!("{:<10} {}\n", e.key, cells.join(" ")));
        }
        s.push_str(&format!(
            "\nresidual RMS {} {u}, R² {} (a Coulomb–viscous law with offset: {}), scaled \
             condition number {}, model runs {}\n",
            num(self.rms),
            r2_text(self.r2),
            r2_text(self.baseline_r2),
            num(self.cond),
            self.runs
        ));
        if let Some(h) = &self.holdout {
            s.push_str(&format!(
                "hold-out part (t ≥ {} s, {} samples, not fitted): RMS {} {u}, R² {}\n",
                num(h.from),
                h.m,
                num(h.rms),
                r2_text(h.r2)
            ));
        }
        let verdicts = self.verdicts();
        if verdicts.is_empty() {
            s.push_str(Self::ALL_DETERMINED);
            s.push('\n');
        } else {
            for v in verdicts {
                s.push_str(&format!("! {v}\n"));
            }
        }
        s.push_str(&format!("link: {}\n", self.link_query()));
        s.push_str(&format!("fit again: {}\n", self.fit_query));
        s
    }

    /// The report as JSON (non-finite numbers as null), with the texts the page shows as they
    /// are (`summary`, `verdicts`, each parameter's `text`): the page places them, it words
    /// nothing itself.
    pub fn json(&self) -> Value {
        let verdicts = self.verdicts();
        let mut v = json!({
            "model": self.model,
            "model_name": self.model_name,
            "samples": self.m,
            "summary": self.summary(),
            "parameters": self.estimates.iter().map(|e| json!({
                "key": e.key, "symbol": e.symbol, "unit": e.unit,
                "value": jnum(e.value), "se": jnum(e.se),
                "ci95": [jnum(e.ci.0), jnum(e.ci.1)],
                "profile95": e.profile.map(|p| json!([
                    match p.lo { End::At(x) | End::Beyond(x) => jnum(x), End::Bound => Value::Null },
                    match p.hi { End::At(x) | End::Beyond(x) => jnum(x), End::Bound => Value::Null },
                ])),
                "at_bound": e.at_bound, "verdicts": e.verdicts,
                "text": {
                    "value": num(e.value), "se": num(e.se),
                    "ci95": format!("[{}, {}]", num(e.ci.0), num(e.ci.1)),
                },
            })).collect::<Vec<_>>(),
            "correlation": self.corr.iter().map(|r| r.iter().map(|&x| jnum(x)).collect::<Vec<_>>()).collect::<Vec<_>>(),
            "rms": jnum(self.rms),
            "r2": jnum(self.r2),
            "baseline_r2": jnum(self.baseline_r2),
            "poor": !self.poor.is_empty(),
            "condition_number": jnum(self.cond),
            "weakest_combination": self.weakest.iter().map(|&x| jnum(x)).collect::<Vec<_>>(),
            "notes": self.notes,
            "record": self.record,
            "verdicts": if verdicts.is_empty() {
                vec![json!({"level": "ok", "text": Self::ALL_DETERMINED})]
            } else {
                verdicts.iter().map(|t| json!({"level": "warn", "text": t})).collect()
            },
            "force_unit": self.force_unit,
            "offset": jnum(self.offset),
            "link": self.link_query(),
            "fit_query": self.fit_query,
            "model_runs": self.runs,
        });
        if let Some(o) = v.as_object_mut() {
            // only with a column N: reports of records without one stay as they were
            if let Some(l) = &self.load {
                o.insert("normal_load".into(), json!(l));
            }
            if let Some(h) = &self.holdout {
                o.insert(
                    "holdout".into(),
                    json!({"from": jnum(h.from), "samples": h.m, "rms": jnum(h.rms), "r2": jnum(h.r2)}),
                );
            }
        }
        v
    }

    /// CSV of data, fit and residuals: `t,x,v,F,F_fit,residual`, and `N` last when the
    /// record's column N drove the model's load.
    pub fn csv(&self, data: &Data) -> String {
        let load = data.normal.as_deref().filter(|_| self.load.is_some());
        let mut s = String::from("t,x,v,F,F_fit,residual");
        s.push_str(if load.is_some() { ",N\n" } else { "\n" });
        for k in 0..data.len() {
            s.push_str(&format!(
                "{},{},{},{},{},{}",
                data.t[k],
                data.x[k],
                data.v[k],
                data.f[k],
                self.fitted[k],
                self.fitted[k] - data.f[k]
            ));
            match load {
                Some(n) => s.push_str(&format!(",{}\n", n[k])),
                None => s.push('\n'),
            }
        }
        s
    }
}
