//! Start values read off the record: the force levels in gross sliding and at breakaway, the
//! pre-sliding stiffness after reversals, the steady force–velocity curve (its Stribeck drop
//! and viscous rise), an offset between the two directions, and the scales of speed, time and
//! displacement. Each free parameter takes the start its role asks for ([`Role`]), and a box
//! around it for the global search ([`search_box`]).
//!
//! Why: a local optimiser from the model defaults fails on data at another scale (the
//! tribometer's 2.25 N at 0.25 mm/s against LuGre's default 1.5 N at 1 mm/s: R² 0.46, μ_s = μ_k
//! at the start value). FrictionModels.jl and jchristopherson/friction leave start values to
//! the user; the identification papers read them off the record in the same steps as here
//! (static curve first, then σ0 from the pre-sliding slope).

use friction_core::params::ParamSpec;

use crate::data::motion::{reversal_distance, reversal_times};
use crate::data::Data;
use crate::format::{num, unit_of};
use crate::spec::{is_load, is_spread, FitSpec};

/// What a parameter is, as far as its start value is concerned.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    /// A static (breakaway) friction coefficient μ_s.
    Static,
    /// A kinetic friction coefficient (μ_k, μ_c, FrBD's μ_d).
    Kinetic,
    /// The normal load (never free by default).
    Load,
    /// A stiffness \[N/m\].
    Stiffness,
    /// A stiffness per unit load \[1/m\] (FrBD's k̄_i).
    StiffnessPerLoad,
    /// The bristle damping σ1 \[N·s/m\].
    Damping,
    /// A damping per unit load \[s/m\] (FrBD's c̄_i).
    DampingPerLoad,
    /// A viscous coefficient \[N·s/m\].
    Viscous,
    /// A velocity scale \[m/s\] (Stribeck velocity and the like).
    Velocity,
    /// An inverse velocity \[s/m\].
    InverseVelocity,
    /// A time constant \[s\].
    Time,
    /// A displacement \[m\] (a breakaway or pre-sliding distance).
    Displacement,
    /// A force \[N\] of its own.
    Force,
    /// The force offset of the fit.
    Offset,
    /// The spread of parallel elements' limits ([`crate::spec::is_spread`]): started at its
    /// default, searched over its whole range.
    Spread,
    /// A shape exponent or anything else: started at its default.
    Other,
}

/// The role of a parameter, from its key and unit.
pub fn role(p: &ParamSpec) -> Role {
    if p.key == "offset" {
        return Role::Offset;
    }
    if is_load(p) {
        return Role::Load;
    }
    if is_spread(p) {
        return Role::Spread;
    }
    match (p.key, p.unit) {
        ("mus", "") => Role::Static,
        ("muk" | "mu" | "mud", "") => Role::Kinetic,
        (_, "N/m") => Role::Stiffness,
        (_, "1/m") => Role::StiffnessPerLoad,
        ("sigma1", "N·s/m") => Role::Damping,
        (_, "N·s/m") => Role::Viscous,
        ("c0" | "c1", "s/m") => Role::DampingPerLoad,
        (_, "s/m") => Role::InverseVelocity,
        (_, "m/s") => Role::Velocity,
        (_, "s") => Role::Time,
        (_, "m") => Role::Displacement,
        (_, "N") => Role::Force,
        _ => Role::Other,
    }
}

/// What the record shows, in its own units (forces less the offset).
#[derive(Debug, Clone, PartialEq)]
pub struct Facts {
    /// Force level in gross sliding \[N\] (median |F − offset| late in each stroke).
    pub level: f64,
    /// Peak force after a reversal or start \[N\] (median of the strokes' peaks).
    pub peak: f64,
    /// Offset between the two directions \[N\] (mean of the two directions' levels).
    pub offset: f64,
    /// Pre-sliding stiffness \[N/m\] (slope of F against the displacement after reversals).
    pub stiffness: f64,
    /// Typical sliding speed \[m/s\].
    pub speed: f64,
    /// Velocity where the steady curve has dropped halfway from its low-speed level \[m/s\]
    /// (`None`: one speed only, or no drop).
    pub stribeck: Option<f64>,
    /// Slope of the steady curve at high speed \[N·s/m\] (≥ 0).
    pub viscous: f64,
    /// Ratio of fast to slow sliding speeds (90th to 10th percentile, late in the strokes):
    /// about 1 for a record that slides at one speed.
    pub speed_span: f64,
    /// Reversals (with hysteresis, [`reversal_times`]).
    pub reversals: usize,
    /// The load the coefficients refer to \[N\].
    pub load: f64,
    /// Whether the record is rotary (rad, N·m): for the units of the words.
    pub rotary: bool,
}

fn median(mut a: Vec<f64>) -> Option<f64> {
    if a.is_empty() {
        return None;
    }
    a.sort_by(f64::total_cmp);
    Some(a[a.len() / 2])
}

fn percentile(mut a: Vec<f64>, q: f64) -> f64 {
    if a.is_empty() {
        return 0.0;
    }
    a.sort_by(f64::total_cmp);
    a[((a.len() - 1) as f64 * q).round() as usize]
}

/// Reads the facts off the samples of `data` with positive weight `w`; `load` is the normal
/// load the model's coefficients refer to \[N\].
pub fn facts(data: &Data, w: &[f64], load: f64) -> Facts {
    let n = data.len();
    let (t, x, v, f) = (&data.t, &data.x, &data.v, &data.f);
    let counted = |k: usize| w.get(k).is_none_or(|&a| a > 0.0);
    let vmax = percentile(
        (0..n).filter(|&k| counted(k)).map(|k| v[k].abs()).collect(),
        0.99,
    );
    let moving = |k: usize| counted(k) && v[k].abs() > 0.05 * vmax;
    let speed = median((0..n).filter(|&k| moving(k)).map(|k| v[k].abs()).collect())
        .unwrap_or(vmax)
        .max(1e-300);
    let rev = reversal_times(t, x, reversal_distance(x));
    // strokes: between reversals (the record's start and end close the first and last)
    let mut bounds: Vec<usize> = vec![0];
    bounds.extend(rev.iter().map(|&tr| t.partition_point(|&a| a < tr)));
    bounds.push(n);
    // late samples: past 60 % of each stroke's travel, moving
    let mut late_pos = Vec::new();
    let mut late_neg = Vec::new();
    let mut late: Vec<usize> = Vec::new();
    for s in bounds.windows(2) {
        let (a, b) = (s[0], s[1].max(s[0]));
        if b <= a + 1 {
            continue;
        }
        let travel = (x[b - 1] - x[a]).abs();
        for k in a..b {
            if moving(k) && (x[k] - x[a]).abs() >= 0.6 * travel {
                late.push(k);
                if v[k] > 0.0 {
                    late_pos.push(f[k]);
                } else {
                    late_neg.push(f[k]);
                }
            }
        }
    }
    let mean = |a: &[f64]| a.iter().sum::<f64>() / a.len().max(1) as f64;
    let offset = if late_pos.len() > 10 && late_neg.len() > 10 {
        0.5 * (mean(&late_pos) + mean(&late_neg))
    } else {
        0.0
    };
    let level = median(late.iter().map(|&k| (f[k] - offset).abs()).collect())
        .unwrap_or_else(|| percentile(f.iter().map(|a| a.abs()).collect(), 0.9))
        .max(1e-300);
    // the peak of each stroke
    let peaks: Vec<f64> = bounds
        .windows(2)
        .filter(|s| s[1] > s[0] + 1)
        .map(|s| {
            (s[0]..s[1])
                .filter(|&k| counted(k))
                .map(|k| (f[k] - offset).abs())
                .fold(0.0, f64::max)
        })
        .filter(|&p| p > 0.0)
        .collect();
    let peak = median(peaks).unwrap_or(level).max(level);
    // pre-sliding: F against the distance from each turning point, while F has swung by less
    // than half the level from its value there
    let mut slopes = Vec::new();
    for s in bounds.windows(2) {
        let (a, b) = (s[0], s[1]);
        if b <= a + 3 {
            continue;
        }
        let (x0, f0) = (x[a], f[a]);
        let (mut sxx, mut sxf) = (0.0, 0.0);
        for k in a + 1..b {
            let (dx, df) = ((x[k] - x0).abs(), (f[k] - f0).abs());
            if df > 0.5 * level {
                break;
            }
            sxx += dx * dx;
            sxf += dx * df;
        }
        if sxx > 0.0 && sxf > 0.0 {
            slopes.push(sxf / sxx);
        }
    }
    let stiffness = median(slopes)
        .unwrap_or(level / (0.01 * speed.max(1e-300)))
        .max(1e-300);
    // steady curve: late samples binned by speed (a decade in eight bins)
    let pts: Vec<(f64, f64)> = late
        .iter()
        .map(|&k| (v[k].abs(), (f[k] - offset).abs()))
        .collect();
    let (stribeck, viscous) = steady(&pts);
    let sp: Vec<f64> = pts.iter().map(|p| p.0).collect();
    let (p10, p90) = (percentile(sp.clone(), 0.1), percentile(sp, 0.9));
    let speed_span = if p10 > 0.0 { p90 / p10 } else { 1.0 };
    Facts {
        speed_span,
        level,
        peak,
        offset,
        stiffness,
        speed,
        stribeck,
        viscous,
        reversals: rev.len(),
        load: load.max(1e-300),
        rotary: data.rotary,
    }
}

/// The Stribeck velocity and viscous slope of a steady curve's points (speed, force).
fn steady(pts: &[(f64, f64)]) -> (Option<f64>, f64) {
    let speeds: Vec<f64> = pts.iter().map(|p| p.0).collect();
    let (lo, hi) = (percentile(speeds.clone(), 0.05), percentile(speeds, 0.95));
    if pts.len() < 20 || lo <= 0.0 || hi < 2.0 * lo {
        return (None, 0.0);
    }
    let nb = ((hi / lo).log10() * 8.0).ceil().clamp(2.0, 40.0) as usize;
    let edge = |i: usize| lo * (hi / lo).powf(i as f64 / nb as f64);
    let bins: Vec<(f64, f64)> = (0..nb)
        .filter_map(|i| {
            let (a, b) = (edge(i), edge(i + 1));
            let fs: Vec<f64> = pts
                .iter()
                .filter(|p| p.0 >= a && p.0 < b)
                .map(|p| p.1)
                .collect();
            (fs.len() >= 3).then(|| ((a * b).sqrt(), median(fs).unwrap_or(0.0)))
        })
        .collect();
    if bins.len() < 2 {
        return (None, 0.0);
    }
    let (imin, fmin) =
        bins.iter().enumerate().fold(
            (0, f64::INFINITY),
            |acc, (i, b)| if b.1 < acc.1 { (i, b.1) } else { acc },
        );
    let f0 = bins[0].1;
    let stribeck = (f0 > 1.1 * fmin && imin > 0).then(|| {
        let half = 0.5 * (f0 + fmin);
        bins.iter()
            .find(|b| b.1 <= half)
            .map_or(bins[imin].0, |b| b.0)
    });
    // viscous: least-squares slope of the bins above the minimum
    let above = &bins[imin..];
    let viscous = if above.len() >= 2 {
        let mv = above.iter().map(|b| b.0).sum::<f64>() / above.len() as f64;
        let mf = above.iter().map(|b| b.1).sum::<f64>() / above.len() as f64;
        let (num, den) = above.iter().fold((0.0, 0.0), |(a, c), b| {
            (a + (b.0 - mv) * (b.1 - mf), c + (b.0 - mv).powi(2))
        });
        if den > 0.0 {
            (num / den).max(0.0)
        } else {
            0.0
        }
    } else {
        0.0
    };
    (stribeck, viscous)
}

impl Facts {
    /// The start value of a parameter of role `r` whose default is `default` (None: keep the
    /// default or the given value).
    pub fn start(&self, r: Role, default: f64) -> Option<f64> {
        let v = self.speed;
        let xpre = self.level / self.stiffness;
        Some(match r {
            Role::Kinetic => self.level / self.load,
            Role::Static => self.peak.max(1.02 * self.level) / self.load,
            Role::Stiffness => self.stiffness,
            Role::StiffnessPerLoad => self.stiffness / self.load,
            // damping whose force at the typical speed is 1 % of the level
            Role::Damping => 0.01 * self.level / v,
            Role::DampingPerLoad => 0.01 * self.level / v / self.load,
            Role::Viscous => self.viscous,
            Role::Velocity => self.stribeck.unwrap_or(0.2 * v),
            Role::InverseVelocity => 1.0 / self.stribeck.unwrap_or(0.2 * v),
            Role::Time => xpre / v,
            Role::Displacement => {
                // a breakaway distance is a fraction of the pre-sliding distance F/σ0
                if default > 0.0 {
                    0.5 * xpre
                } else {
                    return None;
                }
            }
            Role::Offset => self.offset,
            Role::Load | Role::Force | Role::Spread | Role::Other => return None,
        })
    }

    /// A line for the report on what was read off the record.
    pub fn line(&self) -> String {
        let unit = unit_of("N", self.rotary);
        format!(
            "start values read off the record: sliding force {} {unit}, peak {} {unit}, offset \
             {} {unit}, pre-sliding stiffness {} {}, typical speed {} {}, {} reversals",
            num(self.level),
            num(self.peak),
            num(self.offset),
            num(self.stiffness),
            unit_of("N/m", self.rotary),
            num(self.speed),
            unit_of("m/s", self.rotary),
            self.reversals
        )
    }
}

/// The load the coefficients of `spec`'s model refer to \[N\]: the record's mean column N when
/// it drives the load, else the model's value (1 for a model without a load).
pub fn load_of(spec: &FitSpec, data: &Data) -> f64 {
    let Some(i) = crate::load::load_index(spec.entry) else {
        return 1.0;
    };
    match (&data.normal, spec.explicit.contains(&i)) {
        (Some(n), false) => crate::load::mean(n),
        _ => spec.values[i],
    }
}

/// Start values of every parameter (`values` order): read off the record for the free ones the
/// query gives no value, the given or default values otherwise.
pub fn starts(spec: &FitSpec, facts: &Facts) -> Vec<f64> {
    let mut v = spec.values.clone();
    for (j, &i) in spec.free.iter().enumerate() {
        if spec.explicit.contains(&i) {
            continue;
        }
        let p = spec.param(i);
        if let Some(s) = facts.start(role(p), p.default) {
            if s.is_finite() {
                v[i] = s.clamp(spec.lo[j], spec.hi[j]);
            }
        }
    }
    // a static level below the kinetic one is refused by the models
    for (up, low) in crate::spec::ORDERED {
        let find = |key: &str| (0..v.len()).find(|&i| spec.param(i).key == key);
        if let (Some(a), Some(b)) = (find(up), find(low)) {
            if v[a] < v[b] {
                if spec.free.contains(&a) && !spec.explicit.contains(&a) {
                    v[a] = v[b].min(spec.param(a).max);
                } else if spec.free.contains(&b) && !spec.explicit.contains(&b) {
                    v[b] = v[a].max(spec.param(b).min);
                }
            }
        }
    }
    v
}

/// The box the global search samples for a free parameter of role `r` started at `p0`, inside
/// its bounds [lo, hi]: (low end, high end, sampled in ln p).
pub fn search_box(r: Role, p0: f64, lo: f64, hi: f64, facts: &Facts) -> (f64, f64, bool) {
    let clamp = |a: f64, b: f64, log: bool| {
        let (a, b) = (a.max(lo), b.min(hi));
        if log && a > 0.0 && b > a {
            (a, b, true)
        } else {
            (a.min(b), b.max(a), false)
        }
    };
    match r {
        Role::Kinetic | Role::Static => clamp(0.5 * p0, 2.0 * p0, false),
        Role::Offset => {
            let d = 0.2 * facts.level;
            clamp(p0 - d, p0 + d, false)
        }
        Role::Viscous | Role::Damping | Role::DampingPerLoad if p0 <= 0.0 => {
            let top = match r {
                Role::Viscous => 0.5 * facts.level / facts.speed,
                _ => 0.1 * facts.level / facts.speed,
            };
            clamp(0.0, top, false)
        }
        Role::Spread => clamp(lo, hi, false),
        Role::Other | Role::Force | Role::Load => {
            if p0 > 0.0 && lo > 0.0 {
                clamp(p0 / 3.0, p0 * 3.0, true)
            } else {
                let span = hi - lo;
                clamp(lo + 0.1 * span, hi - 0.1 * span, false)
            }
        }
        _ if p0 > 0.0 => clamp(p0 / 30.0, p0 * 30.0, true),
        _ => clamp(lo, hi, false),
    }
}

/// Ratio of sliding speeds from which a record can show a viscous term or a Stribeck drop.
pub const SPEED_SPAN: f64 = 3.0;
/// A peak this much above the sliding level is a breakaway peak.
pub const PEAK_RATIO: f64 = 1.05;

/// For a query that named no free parameters: the model's usual set ([`crate::spec::default_free`])
/// cut to what the record can show, and the words that say what was changed and why.
///
/// * A viscous coefficient is fixed at 0 when the record slides at one speed (its force σ₂v
///   cannot be told from the Coulomb level there: on the tribometer record a free σ₂ took
///   460 N·s/m and μ_k fell to 0.38).
/// * μ_s follows μ_k (no Stribeck drop), and the Stribeck velocity keeps its default, when the
///   record shows neither a breakaway peak above its sliding level nor several speeds.
/// * The offset is freed when the two directions' sliding forces are not symmetric (more than
///   5 % of the level apart from their mean).
pub fn resolve(spec: &FitSpec, facts: &Facts) -> (FitSpec, Vec<String>) {
    let mut s = spec.clone();
    let mut notes = Vec::new();
    if !spec.default_free {
        return (s, notes);
    }
    let one_speed = facts.speed_span < SPEED_SPAN;
    let no_peak = facts.peak < PEAK_RATIO * facts.level;
    let speed = format!("{} {}", num(facts.speed), unit_of("m/s", facts.rotary));
    let sym = |i: usize| spec.param(i).symbol;
    if one_speed {
        let viscous: Vec<usize> = spec
            .free
            .iter()
            .copied()
            .filter(|&i| role(spec.param(i)) == Role::Viscous)
            .collect();
        for &i in &viscous {
            s.fix(i);
            s.values[i] = 0.0_f64.clamp(spec.param(i).min, spec.param(i).max);
        }
        if !viscous.is_empty() {
            let names: Vec<&str> = viscous.iter().map(|&i| sym(i)).collect();
            notes.push(format!(
                "{} fixed at 0: the record slides at about one speed ({speed}), where a \
                 viscous force cannot be told from the Coulomb level (free it by name to fit it \
                 anyway)",
                names.join(", ")
            ));
        }
    }
    if one_speed && no_peak {
        let kinetic = spec
            .free
            .iter()
            .copied()
            .find(|&i| role(spec.param(i)) == Role::Kinetic);
        let statics: Vec<usize> = spec
            .free
            .iter()
            .copied()
            .filter(|&i| role(spec.param(i)) == Role::Static)
            .collect();
        if let (Some(k), false) = (kinetic, statics.is_empty()) {
            let velocity: Vec<usize> = spec
                .free
                .iter()
                .copied()
                .filter(|&i| role(spec.param(i)) == Role::Velocity)
                .collect();
            for &i in &statics {
                s.tie(i, k);
            }
            for &i in &velocity {
                s.fix(i);
            }
            let mut fixed: Vec<String> = statics
                .iter()
                .map(|&i| format!("{} = {}", sym(i), sym(k)))
                .collect();
            fixed.extend(
                velocity
                    .iter()
                    .map(|&i| format!("{} at {}", sym(i), num(s.values[i]))),
            );
            notes.push(format!(
                "{} (no Stribeck drop): the record shows no breakaway peak above its sliding \
                 level and slides at about one speed ({speed}); free them by name to fit \
                 them anyway",
                fixed.join(", ")
            ));
        }
    }
    let off = spec.offset_index();
    if !s.free.contains(&off)
        && !spec.explicit.contains(&off)
        && facts.offset.abs() > 0.05 * facts.level
    {
        s.release(off, facts.offset);
        notes.push(format!(
            "offset freed: the sliding force in one direction differs from the other's by {} \
             beyond their mean level (a sensor zero or a load such as gravity in the record)",
            num(2.0 * facts.offset.abs())
        ));
    }
    (s, notes)
}
