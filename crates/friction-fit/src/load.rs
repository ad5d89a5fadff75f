//! The record's column N and the model's normal load: whether N drives the model, and the
//! words the report gives about it.
//!
//! Every registry model takes its normal load as a parameter: `fn` (F_N) for the static laws
//! and the models with state, `p` for the FrBD family. How it enters differs from model to
//! model (LuGre and GMS scale only their Stribeck levels, not the bristle stiffness or the
//! viscous term; FrBD scales its whole force), so the load is never applied as a factor on the
//! output: the model is rebuilt with each sample's load through the core
//! ([`friction_core::experiments::sampled::Loaded`]).
//!
//! Rules, when the record has a column N: a query that frees the load is refused (the column
//! and the free parameter would be the same quantity); a query that sets the load wins, with a
//! warning naming both; otherwise the column drives the load.

use friction_core::model::ModelEntry;

use crate::data::Data;
use crate::format::num;
use crate::spec::FitSpec;

/// What the fit does with the record's column N.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Load {
    /// Index of the model's normal-load parameter when column N drives it.
    pub index: Option<usize>,
    /// The report's line saying where the normal load came from (with a column N only).
    pub line: Option<String>,
    /// Warnings for the report (the query's load wins, N unused).
    pub warnings: Vec<String>,
    /// The load the model runs with at each sample \[N\] when column N drives it: the column,
    /// with values outside the model's range raised or lowered to it within `tskip`, where the
    /// residuals do not count (a load still being applied).
    pub normal: Option<Vec<f64>>,
}

/// Index of `entry`'s normal-load parameter: `fn` \[N\], or FrBD's `p` \[N\].
pub fn load_index(entry: &ModelEntry) -> Option<usize> {
    entry
        .info
        .params
        .iter()
        .position(|p| p.unit == "N" && (p.key == "fn" || p.key == "p"))
}

/// `a to b N`, or `a N` when the column is constant.
fn range(normal: &[f64]) -> (String, bool) {
    let (lo, hi) = normal
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), &x| {
            (a.min(x), b.max(x))
        });
    if lo == hi {
        (format!("{} N", num(lo)), true)
    } else {
        (format!("{} to {} N", num(lo), num(hi)), false)
    }
}

/// The mean load \[N\] (exactly the value of a constant column), for links into views that
/// run at one load.
pub fn mean(normal: &[f64]) -> f64 {
    match normal.first() {
        Some(&a) if normal.iter().all(|&x| x == a) => a,
        _ => normal.iter().sum::<f64>() / normal.len().max(1) as f64,
    }
}

/// What `spec` does with `data`'s column N, or why the fit is refused (a free load, a load
/// outside the model's range).
pub fn plan(spec: &FitSpec, data: &Data) -> Result<Load, String> {
    let Some(normal) = data.normal.as_deref() else {
        return Ok(Load::default());
    };
    let id = spec.entry.info.id;
    let (span, constant) = range(normal);
    let Some(i) = load_index(spec.entry) else {
        return Ok(Load {
            warnings: vec![format!(
                "column N ({span}) is not used: {id} has no normal-load parameter (fn or p), \
                 its force levels are parameters of their own"
            )],
            ..Load::default()
        });
    };
    let p = &spec.entry.info.params[i];
    let (key, sym) = (p.key, p.symbol);
    if spec.free.contains(&i) {
        return Err(format!(
            "free: {key} ({sym}) is the normal load, and the record gives it in column N \
             ({span}): the two are the same quantity. Leave {key} out of free to use column N, \
             or fit a record without column N"
        ));
    }
    if spec.explicit.contains(&i) {
        return Ok(Load {
            warnings: vec![format!(
                "{key} = {} N from the query is used, not the record's column N ({span}): the \
                 query wins; leave {key} out of the query to use the column",
                num(spec.values[i])
            )],
            ..Load::default()
        });
    }
    let t0 = data.t.first().copied().unwrap_or(0.0);
    let mut used = normal.to_vec();
    let mut clamped = 0usize;
    for (k, &x) in normal.iter().enumerate() {
        if p.check(x).is_err() && data.t[k] - t0 < spec.tskip && x.is_finite() {
            used[k] = x.clamp(p.min, p.max);
            clamped += 1;
        } else if p.check(x).is_err() {
            return Err(format!(
                "column N: {} N at t = {} s (sample {}) is outside the range of {key} ({sym}) \
                 for {id}, {} (tmin or tskip leave that part out)",
                num(x),
                num(data.t[k]),
                k + 1,
                p.range_text()
            ));
        }
    }
    let mut warnings = Vec::new();
    if clamped > 0 {
        warnings.push(format!(
            "column N: {clamped} samples within tskip are outside the range of {key}, {}; the \
             model runs with the nearest value there",
            p.range_text()
        ));
    }
    let how = if constant {
        ", constant"
    } else {
        let dynamic = spec.entry.build_default().is_ok_and(|m| m.n_states() > 0);
        if dynamic {
            ", per sample (held at the mean of each interval's two samples while the state \
             is stepped)"
        } else {
            ", per sample"
        }
    };
    let mean = mean(normal);
    Ok(Load {
        index: Some(i),
        line: Some(format!(
            "{sym} from column N: {span}{how}; the link carries its mean, {} N",
            num(mean)
        )),
        warnings,
        normal: Some(used),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use friction_core::model::{Category, FrictionModel, ModelInfo};
    use friction_core::params::{ParamError, ParamSpec};

    /// A law whose only parameter is a force level \[N\]: no normal load to drive.
    static LEVEL: [ParamSpec; 1] = [ParamSpec {
        key: "fc",
        name: "Coulomb force",
        symbol: "F_C",
        unit: "N",
        default: 1.0,
        min: 0.0,
        max: 10.0,
        log: false,
    }];
    static INFO: ModelInfo = ModelInfo {
        id: "level",
        name: "a force level",
        category: Category::StaticNoStiction,
        provisional: false,
        params: &LEVEL,
    };
    fn build(_: &[f64]) -> Result<Box<dyn FrictionModel>, ParamError> {
        friction_core::registry::find("coulomb")
            .ok_or_else(|| ParamError::new("model", "coulomb", "missing"))?
            .build_default()
    }
    static ENTRY: ModelEntry = ModelEntry { info: &INFO, build };

    /// A model without a normal-load parameter and a record with N: N is not used, and a
    /// warning says so and why.
    #[test]
    fn a_model_without_a_load_warns_that_n_is_unused() {
        let spec = FitSpec {
            entry: &ENTRY,
            values: vec![1.0, 0.0],
            free: vec![0],
            explicit: Vec::new(),
            lo: vec![0.0],
            hi: vec![10.0],
            starts: None,
            guess: true,
            default_free: false,
            tskip: 0.0,
            holdout: 0.0,
            read: Default::default(),
            tied: Vec::new(),
        };
        let data = Data {
            t: vec![0.0, 1.0],
            normal: Some(vec![2.0, 3.0]),
            ..Data::default()
        };
        let l = plan(&spec, &data).expect("a plan");
        assert_eq!(l.index, None);
        assert_eq!(l.line, None);
        assert!(
            l.warnings[0].contains("column N (2 to 3 N) is not used: level has no normal-load"),
            "{:?}",
            l.warnings
        );
        assert!(load_index(&ENTRY).is_none());
    }
}
