//! Fitting Friction Lab's models to measured data: reading a record ([`data`]), what to fit
//! ([`spec`]), start values read off the record ([`guess`]), the staged fit ([`fit`]) of
//! bounded Levenberg–Marquardt runs ([`lm`]) on the model's output ([`eval`]), and the report
//! with confidence intervals and identifiability verdicts ([`report`]); example data
//! ([`example`]).
//!
//! Why a crate of its own: the fit needs linear algebra (nalgebra) and an optimiser
//! (`levenberg-marquardt`), and the core keeps no dependencies. Models are driven through the
//! core's own stepping ([`friction_core::experiments::sampled`]), so a fitted model behaves in
//! every view as it did in the fit. The page runs this crate in a Web Worker (`friction-fit-web`).
//!
//! Layers, bottom to top (a module uses only modules below it; `tests/layers.rs`):
//! `format`, `stats` < `data` < `spec` < `load` < `eval` < `guess`, `lm` < `fit` < `report` <
//! `example`.

pub mod data;
pub mod eval;
pub mod example;
pub mod fit;
pub mod format;
pub mod guess;
pub mod lm;
pub mod load;
pub mod profile;
pub mod report;
pub mod spec;
pub mod stats;

pub use data::{parse, read, Data, DataError, ReadOptions};
pub use example::ExampleSpec;
pub use fit::{FitError, Progress, Stage};
pub use report::Report;
pub use spec::FitSpec;

/// Fits `spec` to `data` and builds the report; `progress` is called after every model run
/// and cancels the fit when it returns false.
pub fn run(
    spec: &FitSpec,
    data: &Data,
    progress: &mut dyn FnMut(&Progress) -> bool,
) -> Result<Report, FitError> {
    let opt = fit::optimise(spec, data, progress)?;
    let spec = &opt.spec;
    let j = fit::jacobian_at(spec, data, &opt.p).map_err(FitError::Bad)?;
    let mut ev = eval::Evaluator::new(spec, data);
    ev.set_rtol(fit::rtol_final(spec));
    let mut fitted = vec![0.0; data.len()];
    ev.forces(&opt.p, &mut fitted).map_err(FitError::Bad)?;
    let mut report = report::build(data, &opt, &j, fitted);
    // profile intervals where the linearised ones cannot be trusted, on the thinned record
    let (sdata, d) = fit::thin(data);
    let count = |d: &Data| eval::weights(spec, d).iter().filter(|&&w| w > 0.0).count();
    let share = count(&sdata) as f64 / count(data).max(1) as f64;
    let k = opt.p.len();
    let s2 = opt.ssr / (report.m.saturating_sub(k)).max(1) as f64;
    let mut runs = opt.runs;
    let mut cancelled = false;
    for c in report.pending_profiles.clone() {
        let mut go = || {
            runs += 1;
            cancelled = !progress(&Progress {
                runs,
                stage: Stage::Report,
                rms: report.rms,
                best: opt.spec.values.clone(),
            });
            !cancelled
        };
        let iv = profile::interval(spec, &sdata, &opt.p, c, s2, share, &mut go);
        if cancelled {
            return Err(FitError::Cancelled);
        }
        // an interval that misses the fitted value describes the thinned record's optimum,
        // not this one: no interval then
        let x = opt.p[c];
        let holds = |iv: &profile::Interval| {
            let lo_ok = match iv.lo {
                profile::End::At(a) | profile::End::Beyond(a) => a <= x * (1.0 + 1e-9) + 1e-300,
                profile::End::Bound => true,
            };
            let hi_ok = match iv.hi {
                profile::End::At(b) | profile::End::Beyond(b) => b >= x * (1.0 - 1e-9) - 1e-300,
                profile::End::Bound => true,
            };
            lo_ok && hi_ok
        };
        report.set_profile(c, iv.filter(holds), d);
    }
    report.runs = runs;
    let load = load::plan(spec, data).map_err(FitError::Bad)?;
    if let (Some(i), Some(normal)) = (load.index, data.normal.as_deref()) {
        // the other views run at one load: the link carries the record's mean
        report.all_values[i].1 = load::mean(normal);
    }
    report.load = load.line;
    report.notes.extend(load.warnings);
    report.notes.extend(opt.notes.iter().cloned());
    Ok(report)
}
