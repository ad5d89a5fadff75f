//! Example data: a model with known parameters under v(t) = v_mean + v_amp·sin(2πft), sampled
//! at `n` equal steps over `tend`, plus seeded Gaussian noise of `noise` × the RMS of the force.
//!
//! Query keys: `model` and its parameters (as in a fit query), `n` (samples), `tend` \[s\],
//! `vmean`, `vamp` \[m/s\], `freq` \[Hz\], `noise` (relative), `seed`. With `vmean` > `vamp`
//! the velocity never reverses (a record that cannot show the pre-sliding dynamics).
//!
//! `nvar` > 0 gives the record a column N: the normal load F_N(t) = F̄(1 + nvar·sin(2π nfreq t))
//! about the model's own F̄ (`fn`, FrBD's `p`), which the model runs with (`nfreq` \[Hz\],
//! default 0.35 × `freq`: not a multiple of the velocity's frequency, so load and velocity do
//! not move in step).

use friction_core::experiments::sampled::{Driver, Loaded};
use friction_core::model::ModelEntry;
use friction_core::params::parse_f64;
use friction_core::registry;
use friction_core::scenario::query;

use crate::data::{integrate, Data, MIN_ROWS};
use crate::stats::Pcg;

/// Most samples an example may have.
pub const MAX_SAMPLES: usize = 100_000;

/// A model with known values and the motion and noise of its record.
#[derive(Clone)]
pub struct ExampleSpec {
    /// The model.
    pub entry: &'static ModelEntry,
    /// Its parameter values in `info.params` order.
    pub values: Vec<f64>,
    /// Samples.
    pub n: usize,
    /// Duration \[s\].
    pub tend: f64,
    /// Mean velocity \[m/s\].
    pub vmean: f64,
    /// Velocity amplitude \[m/s\].
    pub vamp: f64,
    /// Frequency \[Hz\].
    pub freq: f64,
    /// Noise standard deviation relative to the RMS of the clean force.
    pub noise: f64,
    /// Noise seed.
    pub seed: u64,
    /// Relative amplitude of the normal load's variation (0: no column N).
    pub nvar: f64,
    /// Frequency of the normal load's variation \[Hz\].
    pub nfreq: f64,
}

/// The keys an example query reads besides the model's.
pub const KEYS: [&str; 9] = [
    "n", "tend", "vmean", "vamp", "freq", "noise", "seed", "nvar", "nfreq",
];

impl ExampleSpec {
    /// Parses an example query (see the module documentation).
    pub fn parse(q: &str) -> Result<ExampleSpec, String> {
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
        let mut values: Vec<f64> = specs.iter().map(|p| p.default).collect();
        let mut errors = Vec::new();
        for (k, v) in &pairs {
            if let Some(i) = specs.iter().position(|p| p.key == k) {
                match specs[i].parse(v) {
                    Ok(x) => values[i] = x,
                    Err(e) => errors.push(e.to_string()),
                }
            } else if !(k == "model" || k == "v" || k == "free" || KEYS.contains(&k.as_str())) {
                errors.push(format!("{k}: unknown key for example data of {id}"));
            }
        }
        let vs = specs
            .iter()
            .position(|p| p.key == "vs" || p.key == "v0")
            .map_or(1e-3, |i| values[i]);
        let mut num = |k: &str, default: f64, lo: f64, hi: f64| -> f64 {
            match get(k).map(parse_f64) {
                None => default,
                Some(Some(x)) if x.is_finite() && x >= lo && x <= hi => x,
                Some(_) => {
                    errors.push(format!("{k}: must be a number from {lo} to {hi}"));
                    default
                }
            }
        };
        let n = num("n", 400.0, MIN_ROWS as f64, MAX_SAMPLES as f64).round() as usize;
        let tend = num("tend", 2.0, 1e-6, 1e6);
        let vmean = num("vmean", 0.0, -100.0, 100.0);
        let vamp = num("vamp", 10.0 * vs, 0.0, 100.0);
        let freq = num("freq", 1.0, 1e-6, 1e6);
        let noise = num("noise", 0.01, 0.0, 1.0);
        let seed = num("seed", 1.0, 0.0, 4_294_967_295.0).round() as u64;
        let nvar = num("nvar", 0.0, 0.0, 0.9);
        let nfreq = num("nfreq", 0.35 * freq, 1e-6, 1e6);
        if nvar > 0.0 && crate::load::load_index(entry).is_none() {
            errors.push(format!("nvar: {id} has no normal-load parameter (fn or p)"));
        }
        if let Err(e) = (entry.build)(&values) {
            errors.push(e.to_string());
        }
        if !errors.is_empty() {
            return Err(errors.join("\n"));
        }
        Ok(ExampleSpec {
            entry,
            values,
            n,
            tend,
            vmean,
            vamp,
            freq,
            noise,
            seed,
            nvar,
            nfreq,
        })
    }

    /// The noisy record, and the clean force it was made from.
    pub fn generate(&self) -> Result<(Data, Vec<f64>), String> {
        let m = (self.entry.build)(&self.values).map_err(|e| e.to_string())?;
        let h = self.tend / (self.n - 1) as f64;
        let t: Vec<f64> = (0..self.n).map(|k| k as f64 * h).collect();
        let w = 2.0 * std::f64::consts::PI * self.freq;
        let v: Vec<f64> = t
            .iter()
            .map(|&t| self.vmean + self.vamp * (w * t).sin())
            .collect();
        let mut clean = vec![0.0; self.n];
        let normal = match crate::load::load_index(self.entry) {
            Some(index) if self.nvar > 0.0 => {
                let mean = self.values[index];
                let wn = 2.0 * std::f64::consts::PI * self.nfreq;
                let normal: Vec<f64> = t
                    .iter()
                    .map(|&t| mean * (1.0 + self.nvar * (wn * t).sin()))
                    .collect();
                let load = Loaded {
                    entry: self.entry,
                    values: &self.values,
                    index,
                    normal: &normal,
                };
                Driver::new()
                    .forces_loaded(&load, &t, &v, &mut clean)
                    .map_err(|e| format!("column N: {e}"))?;
                Some(normal)
            }
            _ => {
                Driver::new().forces(m.as_ref(), &t, &v, &mut clean);
                None
            }
        };
        let rms = (clean.iter().map(|f| f * f).sum::<f64>() / self.n as f64).sqrt();
        let mut rng = Pcg::new(self.seed);
        let f: Vec<f64> = clean
            .iter()
            .map(|&f| f + self.noise * rms * rng.normal())
            .collect();
        let data = Data {
            x: integrate(&t, &v),
            t,
            v,
            x_drive: false,
            f,
            normal,
            w: None,
            ..Data::default()
        };
        Ok((data, clean))
    }
}
