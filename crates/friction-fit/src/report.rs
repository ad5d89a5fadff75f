//! The fit report: values, standard errors, 95 % confidence intervals, correlations, goodness
//! of fit, and an identifiability verdict per parameter in plain words.
//!
//! Statistics (linearised, as scipy's `curve_fit` and LsqFit report them): with J the m × k
//! Jacobian of the weighted residuals in the original parameters at the optimum,
//! C = s²(JᵀJ)⁻¹, s² = SSR/(m − k), SE = √diag C, CI = p̂ ± t₀.₉₇₅(m − k)·SE. (JᵀJ)⁻¹ comes
//! from the SVD of J, so a rank-deficient J gives infinite errors instead of garbage. The
//! condition number is that of J with unit-norm columns (the collinearity measure: large when
//! some combination of parameters hardly changes the output), and its smallest right singular
//! vector is the weakest combination.

use friction_core::params::parse_f64;
use nalgebra::DMatrix;
use serde_json::{json, Value};

use crate::data::Data;
use crate::fit::Optimum;
use crate::spec::FitSpec;
use crate::stats::t_quantile;

/// |correlation| above which two parameters are flagged.
pub const CORR_LIMIT: f64 = 0.95;
/// Scaled condition number above which the Jacobian is called near-singular.
pub const COND_LIMIT: f64 = 100.0;

/// One fitted parameter.
#[derive(Debug, Clone, PartialEq)]
pub struct Estimate {
    /// Query key.
    pub key: &'static str,
    /// Symbol as shown to users.
    pub symbol: &'static str,
    /// Unit.
    pub unit: &'static str,
    /// Fitted value.
    pub value: f64,
    /// Standard error (infinite when the data do not determine it at all).
    pub se: f64,
    /// 95 % confidence interval.
    pub ci: (f64, f64),
    /// Whether the value sits on one of its bounds (the interval is then not reliable).
    pub at_bound: bool,
    /// Plain-words verdicts (empty when the parameter is well determined).
    pub verdicts: Vec<String>,
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
    /// Residual RMS (weighted) \[N\].
    pub rms: f64,
    /// Coefficient of determination 1 − SSR/SST.
    pub r2: f64,
    /// Condition number of the column-scaled Jacobian.
    pub cond: f64,
    /// Weakest combination: relative change of each free parameter (largest = 1 %) that
    /// changes the output least.
    pub weakest: Vec<f64>,
    /// Verdicts about the fit as a whole.
    pub notes: Vec<String>,
    /// Every parameter's value (fixed and fitted) in the model's order, for links.
    pub all_values: Vec<(&'static str, f64)>,
    /// The model's force at the samples with the fitted values \[N\].
    pub fitted: Vec<f64>,
    /// Model runs the fit took.
    pub runs: usize,
    /// Where the normal load came from when the record has a column N ([`crate::load`]).
    pub load: Option<String>,
}

/// Facts about the data that explain why something cannot be determined.
struct DataFacts {
    reversals: usize,
    vmin: f64,
    vmax: f64,
}

fn facts(d: &Data, w: &[f64]) -> DataFacts {
    let v: Vec<f64> =
        d.v.iter()
            .zip(w)
            .filter(|(_, &w)| w > 0.0)
            .map(|(v, _)| *v)
            .collect();
    let vmax_abs = v.iter().fold(0.0_f64, |a, b| a.max(b.abs()));
    let tiny = 1e-3 * vmax_abs;
    let mut last = 0.0_f64;
    let mut reversals = 0;
    for &v in &v {
        if v.abs() > tiny {
            if last != 0.0 && v.signum() != last {
                reversals += 1;
            }
            last = v.signum();
        }
    }
    let (vmin, vmax) = v.iter().fold((f64::INFINITY, 0.0_f64), |(a, b), v| {
        (a.min(v.abs()), b.max(v.abs()))
    });
    DataFacts {
        reversals,
        vmin,
        vmax,
    }
}

/// Numbers as people read them: four significant digits.
pub fn num(x: f64) -> String {
    if !x.is_finite() {
        return if x > 0.0 {
            "∞".into()
        } else if x < 0.0 {
            "−∞".into()
        } else {
            "NaN".into()
        };
    }
    let a = x.abs();
    if a != 0.0 && !(1e-3..1e5).contains(&a) {
        format!("{x:.3e}")
    } else {
        parse_f64(&format!("{x:.3e}")).map_or_else(|| x.to_string(), |r| r.to_string())
    }
}

/// Builds the report of `opt` (from [`crate::fit::optimise`]) with Jacobian `j` at the optimum.
pub fn build(
    spec: &FitSpec,
    data: &Data,
    opt: &Optimum,
    j: &DMatrix<f64>,
    fitted: Vec<f64>,
) -> Report {
    let k = j.ncols();
    let w = crate::fit::weights(spec, data);
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
    let f = facts(data, &w);
    let dynamic = spec
        .entry
        .build_default()
        .map(|m| m.n_states() > 0)
        .unwrap_or(false);
    let mut estimates: Vec<Estimate> = (0..k)
        .map(|c| {
            let s = specs[c];
            let value = opt.p[c];
            let se = cov[(c, c)].max(0.0).sqrt();
            let se = if se.is_nan() { f64::INFINITY } else { se };
            let ci = (value - tq * se, value + tq * se);
            let span = spec.hi[c] - spec.lo[c];
            let at_bound = (value - spec.lo[c]).abs() <= 1e-6 * span
                || (spec.hi[c] - value).abs() <= 1e-6 * span;
            Estimate {
                key: s.key,
                symbol: s.symbol,
                unit: s.unit,
                value,
                se,
                ci,
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
    let mut notes = Vec::new();
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
    {
        let v = &vt;
        for c in 0..k {
            let denom = norms[c] * opt.p[c].abs();
            weakest[c] = if denom > 0.0 {
                v[(imin, c)] / denom
            } else {
                v[(imin, c)]
            };
        }
        let big = weakest.iter().fold(0.0_f64, |a, b| a.max(b.abs()));
        if big > 0.0 {
            for w in &mut weakest {
                *w /= big; // largest relative change = 1 (shown as 1 %)
            }
        }
    }
    for (c, e) in estimates.iter_mut().enumerate() {
        let name = e.symbol;
        let why = if dynamic && f.reversals == 0 {
            "the velocity never reverses (slowly enough) for the pre-sliding dynamics to show"
                .to_string()
        } else if dynamic {
            format!(
                "the {} velocity reversals in this data are too few or too fast to show its effect",
                f.reversals
            )
        } else {
            format!(
                "the force hardly depends on it for speeds from {} to {} m/s",
                num(f.vmin),
                num(f.vmax)
            )
        };
        if !alive[c] {
            e.verdicts.push(format!(
                "{name} cannot be determined from this data: it has no effect on the force; {why}"
            ));
        } else if (e.ci.1 - e.ci.0).is_nan() || e.ci.1 - e.ci.0 > 2.0 * e.value.abs() {
            e.verdicts.push(format!(
                "{name} cannot be determined from this data: its 95 % interval [{}, {}] is wider \
                 than the value itself; {why}",
                num(e.ci.0),
                num(e.ci.1)
            ));
        }
        if e.at_bound {
            e.verdicts.push(format!(
                "{name} ended on a bound of its range ({}): the data push it there, and its \
                 interval is not reliable",
                num(e.value)
            ));
        }
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
    if cond > COND_LIMIT {
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
            "the optimiser stopped without converging ({})",
            opt.termination
        ));
    }
    let wsum: f64 = w.iter().sum();
    let mean = data.f.iter().zip(&w).map(|(f, w)| f * w).sum::<f64>() / wsum;
    let sst: f64 = data
        .f
        .iter()
        .zip(&w)
        .map(|(f, w)| w * (f - mean).powi(2))
        .sum();
    let all: Vec<f64> = {
        let mut v = spec.values.clone();
        for (&i, &x) in spec.free.iter().zip(&opt.p) {
            v[i] = x;
        }
        v
    };
    Report {
        model: spec.entry.info.id,
        model_name: spec.entry.info.name,
        estimates,
        corr,
        m,
        rms: (opt.ssr / m as f64).sqrt(),
        r2: if sst > 0.0 {
            1.0 - opt.ssr / sst
        } else {
            f64::NAN
        },
        cond,
        weakest,
        notes,
        all_values: spec
            .entry
            .info
            .params
            .iter()
            .map(|p| p.key)
            .zip(all)
            .collect(),
        fitted,
        runs: opt.runs,
        load: None,
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

    /// `model=…&key=value&…` with every parameter (fixed and fitted) at full precision: the
    /// fitted model opens in any view that takes model keys (append `view=…`).
    pub fn link_query(&self) -> String {
        let mut s = format!("model={}", self.model);
        for (k, v) in &self.all_values {
            s.push_str(&format!("&{k}={v}"));
        }
        s
    }

    /// The report as text for a terminal.
    pub fn text(&self) -> String {
        let mut s = format!(
            "fit of {} ({}) to {} samples\n\n",
            self.model_name, self.model, self.m
        );
        if let Some(l) = &self.load {
            s.insert_str(s.len() - 1, &format!("normal load: {l}\n"));
        }
        s.push_str(&format!(
            "{:<10} {:>12} {:>12} {:>28}  {}\n",
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
            "\nresidual RMS {} N, R² {:.6}, scaled condition number {}, model runs {}\n",
            num(self.rms),
            self.r2,
            num(self.cond),
            self.runs
        ));
        let verdicts: Vec<&String> = self
            .estimates
            .iter()
            .flat_map(|e| &e.verdicts)
            .chain(&self.notes)
            .collect();
        if verdicts.is_empty() {
            s.push_str("every free parameter is determined by this data\n");
        } else {
            let mut seen: Vec<&String> = Vec::new();
            for v in verdicts {
                if !seen.contains(&v) {
                    s.push_str(&format!("! {v}\n"));
                    seen.push(v);
                }
            }
        }
        s.push_str(&format!("link: {}\n", self.link_query()));
        s
    }

    /// The report as JSON (non-finite numbers as null).
    pub fn json(&self) -> Value {
        let mut v = json!({
            "model": self.model,
            "model_name": self.model_name,
            "samples": self.m,
            "parameters": self.estimates.iter().map(|e| json!({
                "key": e.key, "symbol": e.symbol, "unit": e.unit,
                "value": jnum(e.value), "se": jnum(e.se),
                "ci95": [jnum(e.ci.0), jnum(e.ci.1)],
                "at_bound": e.at_bound, "verdicts": e.verdicts,
            })).collect::<Vec<_>>(),
            "correlation": self.corr.iter().map(|r| r.iter().map(|&x| jnum(x)).collect::<Vec<_>>()).collect::<Vec<_>>(),
            "rms": jnum(self.rms),
            "r2": jnum(self.r2),
            "condition_number": jnum(self.cond),
            "weakest_combination": self.weakest.iter().map(|&x| jnum(x)).collect::<Vec<_>>(),
            "notes": self.notes,
            "link": self.link_query(),
            "model_runs": self.runs,
        });
        // only with a column N: reports of records without one stay as they were
        if let (Some(l), Some(o)) = (&self.load, v.as_object_mut()) {
            o.insert("normal_load".into(), json!(l));
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
