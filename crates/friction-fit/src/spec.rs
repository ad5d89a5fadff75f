//! What to fit, from a query string in the page's and the CLI's style:
//! `model=lugre&free=sigma0,sigma1,muk,mus&sigma2=0.4&lo.sigma0=1e4&hi.sigma0=1e6&starts=3`.
//!
//! Every model key sets a fixed value or the start value of a free parameter; `lo.<key>` and
//! `hi.<key>` tighten the bounds of a free parameter inside its model range (never widen it);
//! `starts` asks for that many starting points (the given values first). Errors name the key,
//! the value and the allowed range, as the scenario parser's do.

use friction_core::model::ModelEntry;
use friction_core::params::{self, parse_f64, ParamSpec};
use friction_core::registry;
use friction_core::scenario::query;

/// Most starting points a fit tries.
pub const MAX_STARTS: usize = 20;

/// A model, its parameter values and which of them are free, with their bounds.
#[derive(Clone)]
pub struct FitSpec {
    /// The model.
    pub entry: &'static ModelEntry,
    /// Every parameter's value in `info.params` order (start values of the free ones).
    pub values: Vec<f64>,
    /// Indices of the free parameters into `values`.
    pub free: Vec<usize>,
    /// Indices of the parameters the query gives a value (the others are at their defaults):
    /// a normal load set in the query wins over the record's column N.
    pub explicit: Vec<usize>,
    /// Lower bound of each free parameter.
    pub lo: Vec<f64>,
    /// Upper bound of each free parameter.
    pub hi: Vec<f64>,
    /// Starting points to try (≥ 1).
    pub starts: usize,
    /// Time \[s\] from the first sample during which the residuals are not counted: the model
    /// starts from its virgin state at the first sample, and a record that begins mid-motion
    /// differs from it until the start-up transient has died out.
    pub tskip: f64,
}

impl std::fmt::Debug for FitSpec {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("FitSpec")
            .field("model", &self.entry.info.id)
            .field("values", &self.values)
            .field("free", &self.free)
            .finish()
    }
}

/// Whether parameter `p` can be fitted: switches (0/1 readings) and counts (element numbers,
/// random seeds) are structural and stay fixed.
pub fn fittable(p: &ParamSpec) -> bool {
    params::switch(p.key).is_none() && !matches!(p.key, "n" | "seed" | "q")
}

impl FitSpec {
    /// The parameter specs of the free parameters.
    pub fn free_specs(&self) -> Vec<&'static ParamSpec> {
        self.free
            .iter()
            .map(|&i| &self.entry.info.params[i])
            .collect()
    }

    /// Parses a fit query; `extra` lists further keys the caller reads itself (they are not
    /// reported as unknown).
    pub fn parse(q: &str, extra: &[&str]) -> Result<FitSpec, String> {
        let pairs = query::pairs(q);
        let get = |k: &str| pairs.iter().rev().find(|(key, _)| key == k).map(|(_, v)| v);
        let id = get("model").ok_or("missing model=… (an id from friction-lab --list-models)")?;
        let entry = registry::find(id).ok_or_else(|| {
            format!("model={id}: unknown model (ids: friction-lab --list-models)")
        })?;
        let specs = entry.info.params;
        let keys: Vec<&str> = specs.iter().map(|p| p.key).collect();
        let mut values: Vec<f64> = specs.iter().map(|p| p.default).collect();
        let mut errors = Vec::new();
        let mut free = Vec::new();
        let mut explicit = Vec::new();
        for (k, v) in &pairs {
            if let Some(i) = keys.iter().position(|key| key == k) {
                if !explicit.contains(&i) {
                    explicit.push(i);
                }
                match specs[i].parse(v) {
                    Ok(x) => values[i] = x,
                    Err(e) => errors.push(e.to_string()),
                }
            } else if k == "free" {
                for name in v.split(',').map(str::trim).filter(|s| !s.is_empty()) {
                    match keys.iter().position(|key| *key == name) {
                        Some(i) if !fittable(&specs[i]) => errors.push(format!(
                            "free: {name} is a structural setting of {id} and stays fixed"
                        )),
                        Some(i) if free.contains(&i) => {}
                        Some(i) => free.push(i),
                        None => errors.push(format!(
                            "free: {name} is not a parameter of {id} (its parameters: {})",
                            keys.join(", ")
                        )),
                    }
                }
            } else if !(k == "model"
                || k == "starts"
                || k == "tskip"
                || k == "v"
                || extra.contains(&k.as_str())
                || k.starts_with("lo.")
                || k.starts_with("hi."))
            {
                errors.push(format!(
                    "{k}: unknown key for a fit of {id} (its parameters: {}; also free, lo.KEY, \
                     hi.KEY, starts, tskip)",
                    keys.join(", ")
                ));
            }
        }
        if free.is_empty() && errors.is_empty() {
            errors.push(format!(
                "free: name the parameters to fit, e.g. free={}",
                specs
                    .iter()
                    .filter(|p| fittable(p))
                    .map(|p| p.key)
                    .take(3)
                    .collect::<Vec<_>>()
                    .join(",")
            ));
        }
        let mut lo = Vec::new();
        let mut hi = Vec::new();
        for &i in &free {
            let s = &specs[i];
            let bound = |prefix: &str, default: f64, errors: &mut Vec<String>| -> f64 {
                let key = format!("{prefix}.{}", s.key);
                match get(&key).map(|t| parse_f64(t.trim())) {
                    None => default,
                    Some(Some(b)) if b.is_finite() && b >= s.min && b <= s.max => b,
                    Some(_) => {
                        errors.push(format!(
                            "{key}: must be a number inside the model range {}",
                            s.range_text()
                        ));
                        default
                    }
                }
            };
            let (a, b) = (
                bound("lo", s.min, &mut errors),
                bound("hi", s.max, &mut errors),
            );
            if a >= b {
                errors.push(format!(
                    "lo.{k} = {a} must be below hi.{k} = {b}",
                    k = s.key
                ));
            } else if !(a..=b).contains(&values[i]) {
                errors.push(format!(
                    "{k}: start value {} is outside its bounds [{a}, {b}]",
                    values[i],
                    k = s.key
                ));
            }
            lo.push(a);
            hi.push(b);
        }
        for (k, _) in pairs
            .iter()
            .filter(|(k, _)| k.starts_with("lo.") || k.starts_with("hi."))
        {
            let key = &k[3..];
            if !free.iter().any(|&i| specs[i].key == key) {
                errors.push(format!("{k}: {key} is not a free parameter"));
            }
        }
        let starts = match get("starts").map(|s| s.parse::<usize>()) {
            None => 1,
            Some(Ok(n)) if (1..=MAX_STARTS).contains(&n) => n,
            Some(_) => {
                errors.push(format!(
                    "starts: must be a whole number from 1 to {MAX_STARTS}"
                ));
                1
            }
        };
        let tskip = match get("tskip").map(|s| parse_f64(s)) {
            None => 0.0,
            Some(Some(x)) if x.is_finite() && x >= 0.0 => x,
            Some(_) => {
                errors.push("tskip: must be a time ≥ 0 in seconds".to_string());
                0.0
            }
        };
        if let Err(e) = (entry.build)(&values) {
            errors.push(e.to_string());
        }
        if !errors.is_empty() {
            return Err(errors.join("\n"));
        }
        Ok(FitSpec {
            tskip,
            entry,
            values,
            free,
            explicit,
            lo,
            hi,
            starts,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_free_values_and_bounds() {
        let s = FitSpec::parse("model=lugre&free=sigma0,muk&sigma2=0.4&lo.sigma0=1e3", &[])
            .expect("valid");
        assert_eq!(s.free.len(), 2);
        assert_eq!(s.lo[0], 1e3);
        assert_eq!(
            s.values[s
                .entry
                .info
                .params
                .iter()
                .position(|p| p.key == "sigma2")
                .unwrap_or(0)],
            0.4
        );
    }

    #[test]
    fn errors_name_the_key() {
        for (q, needle) in [
            ("free=muk", "missing model"),
            ("model=nope&free=a", "unknown model"),
            ("model=lugre&free=zeta", "zeta is not a parameter"),
            ("model=lugre", "name the parameters"),
            ("model=lugre&free=muk&lo.muk=5&hi.muk=1", "must be below"),
            ("model=lugre&free=muk&muk=-1", "muk"),
            ("model=lugre&free=muk&lo.sigma0=3", "not a free parameter"),
            ("model=lugre&free=muk&bogus=1", "bogus: unknown key"),
            ("model=gms&free=n", "structural"),
        ] {
            let e = FitSpec::parse(q, &[]).expect_err(q);
            assert!(e.contains(needle), "{q}: {e}");
        }
    }
}
