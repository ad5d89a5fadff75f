//! What to fit, from a query string in the page's and the CLI's style:
//! `model=lugre&free=sigma0,sigma1,muk,mus&sigma2=0.4&lo.sigma0=1e4&hi.sigma0=1e6`.
//!
//! Every model key sets a fixed value or the start value of a free parameter; without `free`
//! the model's usual set is fitted ([`default_free`]). `offset` is a constant force bias every
//! model can carry (a sensor zero, gravity left in a joint torque), fixed at 0 unless freed.
//! `lo.<key>` and `hi.<key>` tighten a free parameter's bounds inside its range (never widen
//! them); `starts` asks for that many optimiser runs (automatic without it); `guess=0` starts
//! from the model defaults instead of values read off the record. How the record is read:
//! `cols=t:Time,F:Friction`, `units=F:uN`, `flip=F`, `tmin`/`tmax` \[s\], `smooth=auto|0|W`
//! (a half-width W in seconds); what counts: `tskip` \[s\] of start-up transient, `holdout`
//! (the last fraction of the record in time, kept out of the fit and reported on its own).
//! Errors name the key, the value and the allowed range, as the scenario parser's do.

use friction_core::model::ModelEntry;
use friction_core::params::{self, parse_f64, ParamSpec};
use friction_core::registry;
use friction_core::scenario::query;

use crate::data::{Col, ColRef, ReadOptions, Smooth};

/// Most optimiser runs a fit may be asked for.
pub const MAX_STARTS: usize = 20;

/// Largest hold-out fraction: at least half of the record is fitted.
pub const MAX_HOLDOUT: f64 = 0.5;

/// A constant force added to any model's output \[N\]: what a sensor's zero or a joint's gravity
/// torque leaves in a record.
pub static OFFSET: ParamSpec = ParamSpec {
    key: "offset",
    name: "Force offset (added to the model's force)",
    symbol: "F_0",
    unit: "N",
    default: 0.0,
    min: -1e6,
    max: 1e6,
    log: false,
};

/// Pairs (upper, lower) of parameter keys where the models refuse upper < lower (μ_s ≥ μ_k,
/// FrBD's μ_s ≥ μ_d).
pub const ORDERED: [(&str, &str); 2] = [("mus", "muk"), ("mus", "mud")];

/// The fit query's own keys besides the model's parameters, `lo.KEY` and `hi.KEY`.
pub const KEYS: [&str; 15] = [
    "model", "v", "free", "starts", "guess", "tskip", "holdout", "offset", "cols", "units", "flip",
    "tmin", "tmax", "smooth", "tie",
];

/// A model, its parameter values and which of them are free, with their bounds, and how the
/// record is read and weighed.
#[derive(Clone)]
pub struct FitSpec {
    /// The model.
    pub entry: &'static ModelEntry,
    /// Every parameter's value in [`FitSpec::param`] order: the model's in `info.params` order,
    /// then the offset (start values of the free ones).
    pub values: Vec<f64>,
    /// Indices of the free parameters into `values`.
    pub free: Vec<usize>,
    /// Indices of the parameters the query gives a value (the others are at their defaults):
    /// a given value is a start the fit keeps, and a normal load set in the query wins over the
    /// record's column N.
    pub explicit: Vec<usize>,
    /// Lower bound of each free parameter.
    pub lo: Vec<f64>,
    /// Upper bound of each free parameter.
    pub hi: Vec<f64>,
    /// Optimiser runs asked for (`None`: chosen by the fit).
    pub starts: Option<usize>,
    /// Whether start values are read off the record (else the model defaults).
    pub guess: bool,
    /// Whether `free` was left to the model's usual set.
    pub default_free: bool,
    /// Time \[s\] from the first sample during which the residuals are not counted: the model
    /// starts from its virgin state at the first sample, and a record that begins mid-motion
    /// differs from it until the start-up transient has died out.
    pub tskip: f64,
    /// Fraction of the record, at its end in time, kept out of the fit and reported on its own.
    pub holdout: f64,
    /// How the record is read.
    pub read: ReadOptions,
    /// Parameters that follow another one's value: (follower, leader) indices into `values`
    /// (`tie=mus:muk`: no Stribeck drop, μ_s = μ_k).
    pub tied: Vec<(usize, usize)>,
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

/// Whether model parameter `p` can be fitted: switches (0/1 readings) and counts (element
/// numbers, random seeds) are structural and stay fixed.
pub fn fittable(p: &ParamSpec) -> bool {
    params::switch(p.key).is_none() && !matches!(p.key, "n" | "seed")
}

/// Whether `p` spreads the limits of a model's parallel elements (GMS's q, α_i ∝ i^q): it is
/// the shape of the pre-sliding curve a record shows, so it is fitted by default, and at its
/// lower bound 0 the elements are alike and the model is one elasto-slip element with a
/// Stribeck limit (what the fit starts from as its simplest member).
pub fn is_spread(p: &ParamSpec) -> bool {
    p.key == "q" && p.unit.is_empty()
}

/// Whether `p` is a model's normal load (`fn`, FrBD's `p`): the record's column N or a fixed
/// value, never fitted by default.
pub fn is_load(p: &ParamSpec) -> bool {
    p.unit == "N" && (p.key == "fn" || p.key == "p")
}

/// The parameters fitted when the query names none: every fittable parameter with a unit or a
/// friction coefficient, and the spread of parallel elements' limits ([`is_spread`]), but not
/// the normal load, the shape exponents (α, δ: a family of curves, better chosen than fitted)
/// or the FrBD ε regularisation.
pub fn default_free(entry: &ModelEntry) -> Vec<usize> {
    entry
        .info
        .params
        .iter()
        .enumerate()
        .filter(|(_, p)| {
            fittable(p)
                && !is_load(p)
                && p.key != "eps"
                && (!p.unit.is_empty() || p.key.starts_with("mu") || is_spread(p))
                && !matches!(p.unit, "N/s")
        })
        .map(|(i, _)| i)
        .collect()
}

impl FitSpec {
    /// Number of model parameters (the offset follows them in `values`).
    pub fn n_model(&self) -> usize {
        self.entry.info.params.len()
    }

    /// Index of the offset in `values`.
    pub fn offset_index(&self) -> usize {
        self.n_model()
    }

    /// The spec of parameter `i` of `values` (a model parameter or the offset).
    pub fn param(&self, i: usize) -> &'static ParamSpec {
        self.entry.info.params.get(i).unwrap_or(&OFFSET)
    }

    /// The parameter specs of the free parameters.
    pub fn free_specs(&self) -> Vec<&'static ParamSpec> {
        self.free.iter().map(|&i| self.param(i)).collect()
    }

    /// The model's values (without the offset).
    pub fn model_values(&self) -> &[f64] {
        &self.values[..self.n_model()]
    }

    /// The offset \[N\].
    pub fn offset(&self) -> f64 {
        self.values[self.n_model()]
    }

    /// Parses a fit query; `extra` lists further keys the caller reads itself (they are not
    /// reported as unknown).
    pub fn parse(q: &str, extra: &[&str]) -> Result<FitSpec, String> {
        let pairs = query::pairs(q);
        let get = |k: &str| {
            pairs
                .iter()
                .rev()
                .find(|(key, _)| key == k)
                .map(|(_, v)| v.as_str())
        };
        let id = get("model").ok_or("missing model=… (an id from friction-lab --list-models)")?;
        let entry = registry::find(id).ok_or_else(|| {
            format!("model={id}: unknown model (ids: friction-lab --list-models)")
        })?;
        let specs = entry.info.params;
        let n = specs.len();
        let param = |i: usize| specs.get(i).unwrap_or(&OFFSET);
        let keys: Vec<&str> = (0..=n).map(|i| param(i).key).collect();
        let mut values: Vec<f64> = (0..=n).map(|i| param(i).default).collect();
        let mut errors = Vec::new();
        let mut free = Vec::new();
        let mut explicit = Vec::new();
        let mut named_free = false;
        for (k, v) in &pairs {
            if let Some(i) = keys.iter().position(|key| key == k) {
                if !explicit.contains(&i) {
                    explicit.push(i);
                }
                match param(i).parse(v) {
                    Ok(x) => values[i] = x,
                    Err(e) => errors.push(e.to_string()),
                }
            } else if k == "free" {
                named_free = true;
                for name in v.split(',').map(str::trim).filter(|s| !s.is_empty()) {
                    match keys.iter().position(|key| *key == name) {
                        Some(i) if i < n && !fittable(&specs[i]) => errors.push(format!(
                            "free: {name} is a structural setting of {id} and stays fixed"
                        )),
                        Some(i) if free.contains(&i) => {}
                        Some(i) => free.push(i),
                        None => errors.push(format!(
                            "free: {name} is not a parameter of {id} (its parameters: {}; and \
                             offset)",
                            keys[..n].join(", ")
                        )),
                    }
                }
            } else if !(KEYS.contains(&k.as_str())
                || extra.contains(&k.as_str())
                || k.starts_with("lo.")
                || k.starts_with("hi."))
            {
                errors.push(format!(
                    "{k}: unknown key for a fit of {id} (its parameters: {}; also offset, free, \
                     lo.KEY, hi.KEY, starts, guess, tskip, holdout, cols, units, flip, tmin, \
                     tmax, smooth, tie)",
                    keys[..n].join(", ")
                ));
            }
        }
        let default_free = !named_free;
        if default_free {
            free = default_free_of(entry);
        }
        if free.is_empty() && errors.is_empty() {
            errors.push(format!(
                "free: no parameter to fit; name some, e.g. free={}",
                (0..n)
                    .filter(|&i| fittable(&specs[i]))
                    .map(|i| specs[i].key)
                    .take(3)
                    .collect::<Vec<_>>()
                    .join(",")
            ));
        }
        let mut lo = Vec::new();
        let mut hi = Vec::new();
        for &i in &free {
            let s = param(i);
            let bound = |prefix: &str, default: f64, errors: &mut Vec<String>| -> f64 {
                let key = format!("{prefix}.{}", s.key);
                match get(&key).map(|t| parse_f64(t.trim())) {
                    None => default,
                    Some(Some(b)) if b.is_finite() && b >= s.min && b <= s.max => b,
                    Some(_) => {
                        errors.push(format!(
                            "{key}: must be a number inside the range of {}, {}",
                            s.key,
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
                if explicit.contains(&i) {
                    errors.push(format!(
                        "{k}: start value {} is outside its bounds [{a}, {b}]",
                        values[i],
                        k = s.key
                    ));
                } else {
                    // a default outside bounds the user tightened: start inside them
                    values[i] = values[i].clamp(a, b);
                }
            }
            lo.push(a);
            hi.push(b);
        }
        for (k, _) in pairs
            .iter()
            .filter(|(k, _)| k.starts_with("lo.") || k.starts_with("hi."))
        {
            let key = &k[3..];
            if !free.iter().any(|&i| param(i).key == key) {
                errors.push(format!("{k}: {key} is not a free parameter"));
            }
        }
        let starts = match get("starts").map(|s| s.trim().parse::<usize>()) {
            None => None,
            Some(Ok(n)) if (1..=MAX_STARTS).contains(&n) => Some(n),
            Some(_) => {
                errors.push(format!(
                    "starts: must be a whole number from 1 to {MAX_STARTS}"
                ));
                None
            }
        };
        let guess = match get("guess") {
            None | Some("1") => true,
            Some("0") => false,
            Some(other) => {
                errors.push(format!(
                    "guess: \"{other}\" must be 1 (start values read off the record) or 0 (the \
                     model defaults)"
                ));
                true
            }
        };
        let time = |key: &str, errors: &mut Vec<String>| match get(key).map(parse_f64) {
            None => None,
            Some(Some(x)) if x.is_finite() => Some(x),
            Some(_) => {
                errors.push(format!("{key}: must be a time in seconds"));
                None
            }
        };
        let tskip = match time("tskip", &mut errors) {
            Some(x) if x < 0.0 => {
                errors.push("tskip: must be a time ≥ 0 in seconds".to_string());
                0.0
            }
            Some(x) => x,
            None => 0.0,
        };
        let holdout = match get("holdout").map(parse_f64) {
            None => 0.0,
            Some(Some(x)) if (0.0..=MAX_HOLDOUT).contains(&x) => x,
            Some(_) => {
                errors.push(format!(
                    "holdout: must be a fraction from 0 to {MAX_HOLDOUT} (the last part of the \
                     record in time, kept out of the fit)"
                ));
                0.0
            }
        };
        let mut read = ReadOptions {
            tmin: time("tmin", &mut errors),
            tmax: time("tmax", &mut errors),
            ..ReadOptions::default()
        };
        if let (Some(a), Some(b)) = (read.tmin, read.tmax) {
            if a >= b {
                errors.push(format!("tmin = {a} must be below tmax = {b}"));
            }
        }
        if let Some(c) = get("cols") {
            for item in c.split(',').map(str::trim).filter(|s| !s.is_empty()) {
                match item
                    .split_once(':')
                    .and_then(|(k, v)| Some((Col::of_key(k)?, v)))
                {
                    Some((col, v)) => {
                        let r = match v.trim().parse::<usize>() {
                            Ok(i) => ColRef::Index(i),
                            Err(_) => ColRef::Name(v.trim().to_string()),
                        };
                        read.cols.push((col, r));
                    }
                    None => errors.push(format!(
                        "cols: \"{item}\" must be KEY:COLUMN with KEY one of t, x, v, F, N, w \
                         and COLUMN a header name or a column number (cols=t:Time,F:4)"
                    )),
                }
            }
        }
        if let Some(u) = get("units") {
            for item in u.split(',').map(str::trim).filter(|s| !s.is_empty()) {
                match item
                    .split_once(':')
                    .and_then(|(k, v)| Some((Col::of_key(k)?, v)))
                {
                    Some((col, unit)) if col.factor(unit).is_some() => {
                        read.units.push((col, unit.trim().to_string()))
                    }
                    Some((col, unit)) => errors.push(format!(
                        "units: {}:{unit}: not {}",
                        col.key(),
                        col.quantity()
                    )),
                    None => errors.push(format!(
                        "units: \"{item}\" must be KEY:UNIT with KEY one of t, x, v, F, N \
                         (units=F:uN,x:mm)"
                    )),
                }
            }
        }
        if let Some(f) = get("flip") {
            for item in f.split(',').map(str::trim).filter(|s| !s.is_empty()) {
                match Col::of_key(item).filter(|c| matches!(c, Col::X | Col::V | Col::F)) {
                    Some(c) => read.flip.push(c),
                    None => errors.push(format!(
                        "flip: \"{item}\" must be x, v or F (the quantities whose sign is \
                         flipped)"
                    )),
                }
            }
        }
        read.smooth = match get("smooth") {
            None | Some("auto") => Smooth::Auto,
            Some("0") | Some("off") => Smooth::Off,
            Some(w) => match parse_f64(w) {
                Some(w) if w.is_finite() && w > 0.0 => Smooth::Width(w),
                _ => {
                    errors.push(format!(
                        "smooth: \"{w}\" must be auto, 0 (off) or a half-width in seconds"
                    ));
                    Smooth::Auto
                }
            },
        };
        let mut tied = Vec::new();
        if let Some(t) = get("tie") {
            for item in t.split(',').map(str::trim).filter(|s| !s.is_empty()) {
                let pair = item.split_once(':').and_then(|(a, b)| {
                    let a = keys[..n].iter().position(|k| *k == a.trim())?;
                    let b = keys[..n].iter().position(|k| *k == b.trim())?;
                    (a != b && specs[a].unit == specs[b].unit).then_some((a, b))
                });
                match pair {
                    Some((a, b)) => {
                        free.retain(|&i| i != a);
                        values[a] = values[b];
                        tied.push((a, b));
                    }
                    None => errors.push(format!(
                        "tie: \"{item}\" must be KEY:KEY, two parameters of {id} of the same \
                         unit (tie=mus:muk: μ_s follows μ_k)"
                    )),
                }
            }
        }
        if let Err(e) = (entry.build)(&values[..n]) {
            errors.push(e.to_string());
        }
        if !errors.is_empty() {
            return Err(errors.join("\n"));
        }
        Ok(FitSpec {
            tskip,
            holdout,
            read,
            entry,
            values,
            free,
            explicit,
            lo,
            hi,
            starts,
            guess,
            default_free,
            tied,
        })
    }
}

impl FitSpec {
    /// Removes parameter `i` from the free ones (with its bounds); its value stays.
    pub fn fix(&mut self, i: usize) {
        if let Some(j) = self.free.iter().position(|&f| f == i) {
            self.free.remove(j);
            self.lo.remove(j);
            self.hi.remove(j);
        }
    }

    /// Makes parameter `i` free within its whole range, started at `value`.
    pub fn release(&mut self, i: usize, value: f64) {
        if self.free.contains(&i) {
            return;
        }
        let p = self.param(i);
        self.values[i] = value.clamp(p.min, p.max);
        self.free.push(i);
        self.lo.push(p.min);
        self.hi.push(p.max);
    }

    /// Ties parameter `a` to `b` (it takes b's value in every run) and fixes it.
    pub fn tie(&mut self, a: usize, b: usize) {
        self.fix(a);
        self.values[a] = self.values[b];
        self.tied.push((a, b));
    }

    /// The values with the tied parameters following their leaders.
    pub fn apply_ties(&self, values: &mut [f64]) {
        for &(a, b) in &self.tied {
            values[a] = values[b];
        }
    }

    /// The index of the parameter with key `key` in `values`.
    pub fn index_of(&self, key: &str) -> Option<usize> {
        (0..self.values.len()).find(|&i| self.param(i).key == key)
    }
}

fn default_free_of(entry: &ModelEntry) -> Vec<usize> {
    default_free(entry)
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
    fn default_free_sets_leave_loads_and_shapes_fixed() {
        let keys = |id: &str| -> Vec<&str> {
            let e = registry::find(id).expect("model");
            default_free(e)
                .iter()
                .map(|&i| e.info.params[i].key)
                .collect()
        };
        assert_eq!(
            keys("lugre"),
            ["mus", "muk", "sigma0", "sigma1", "sigma2", "vs"]
        );
        assert_eq!(keys("dahl"), ["muk", "sigma0"]);
        assert_eq!(keys("maxwell"), ["k", "mu"]);
        assert_eq!(keys("frbd-gm"), ["k0", "k1", "tau1", "mus", "mud", "vs"]);
        let s = FitSpec::parse("model=lugre", &[]).expect("default free");
        assert!(s.default_free && s.free.len() == 6);
        let s = FitSpec::parse("model=dahl&free=muk,offset&offset=-0.2", &[]).expect("offset");
        assert_eq!(s.free, [0, 4]);
        assert_eq!(s.offset(), -0.2);
    }

    #[test]
    fn record_keys_parse() {
        let s = FitSpec::parse(
            "model=dahl&cols=t:Time,F:4&units=F:uN&flip=F&tmin=9&tmax=209&holdout=0.3&smooth=0",
            &[],
        )
        .expect("valid");
        assert_eq!(s.read.cols.len(), 2);
        assert_eq!(s.read.cols[1], (Col::F, ColRef::Index(4)));
        assert_eq!(s.read.flip, [Col::F]);
        assert_eq!((s.read.tmin, s.read.tmax), (Some(9.0), Some(209.0)));
        assert_eq!(s.holdout, 0.3);
        assert_eq!(s.read.smooth, Smooth::Off);
    }

    #[test]
    fn errors_name_the_key() {
        for (q, needle) in [
            ("free=muk", "missing model"),
            ("model=nope&free=a", "unknown model"),
            ("model=lugre&free=zeta", "zeta is not a parameter"),
            ("model=lugre&free=muk&lo.muk=5&hi.muk=1", "must be below"),
            ("model=lugre&free=muk&muk=-1", "muk"),
            ("model=lugre&free=muk&lo.sigma0=3", "not a free parameter"),
            ("model=lugre&free=muk&bogus=1", "bogus: unknown key"),
            ("model=gms&free=n", "structural"),
            ("model=lugre&holdout=0.9", "holdout: must be a fraction"),
            ("model=lugre&cols=q:Time", "cols: \"q:Time\""),
            ("model=lugre&units=F:furlong", "units: F:furlong"),
            ("model=lugre&flip=t", "flip: \"t\""),
            (
                "model=lugre&tmin=5&tmax=1",
                "tmin = 5 must be below tmax = 1",
            ),
            ("model=lugre&smooth=-1", "smooth:"),
            ("model=lugre&guess=2", "guess:"),
        ] {
            let e = FitSpec::parse(q, &[]).expect_err(q);
            assert!(e.contains(needle), "{q}: {e}");
        }
    }
}
