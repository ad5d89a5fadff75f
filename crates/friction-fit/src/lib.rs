//! Fitting Friction Lab's models to measured data: the CSV/TSV parser ([`data`]), what to fit
//! ([`spec`]), the bounded Levenberg–Marquardt fit ([`fit`]), the report with confidence
//! intervals and identifiability verdicts ([`report`]) and example data ([`example`]).
//!
//! Why a crate of its own: the fit needs linear algebra (nalgebra) and an optimiser
//! (`levenberg-marquardt`), and the core keeps no dependencies. Models are driven through the
//! core's own stepping ([`friction_core::experiments::sampled`]), so a fitted model behaves in
//! every view as it did in the fit. The page runs this crate in a Web Worker (`friction-fit-web`).

pub mod data;
pub mod example;
pub mod fit;
pub mod load;
pub mod report;
pub mod spec;
pub mod starts;
pub mod stats;

pub use data::{parse, Data, DataError};
pub use example::ExampleSpec;
pub use fit::{FitError, Progress};
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
    let j = fit::jacobian_at(spec, data, &opt.p).map_err(FitError::Bad)?;
    let mut ev = fit::Evaluator::new(spec, data);
    let mut fitted = vec![0.0; data.len()];
    ev.forces(&opt.p, &mut fitted).map_err(FitError::Bad)?;
    let mut report = report::build(spec, data, &opt, &j, fitted);
    let load = load::plan(spec, data).map_err(FitError::Bad)?;
    if let (Some(i), Some(normal)) = (load.index, data.normal.as_deref()) {
        // the other views run at one load: the link carries the record's mean
        report.all_values[i].1 = load::mean(normal);
    }
    report.load = load.line;
    report.notes.extend(load.warnings);
    Ok(report)
}
