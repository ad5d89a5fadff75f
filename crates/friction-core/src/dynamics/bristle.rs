//! Bristle model (Haessig & Friedland 1991), \[T\] §7.1: N bristles bonded to the
//! counter-surface; a bristle whose strain exceeds δ_s snaps and re-bonds at a random offset.
//!
//! F = Σ σ_i (x − b_i); each deflection d_i = x − b_i grows with v. When |d_i| reaches δ_s the bond
//! moves, b_i' = b_i + u Δ sgn(d_i), u uniform on (0, 1] (the thesis leaves the support
//! open; Olsson 1998 reads it as a draw over the range Δ). The draw is a hash of
//! (seed, bristle, bond count), and the bond counts are discrete states, so runs are
//! reproducible and independent of the solver's step sequence.
//!
//! Decisions (no defaults in the seed): σ_i = σ0/N, δ_s = F_s/σ0 (all bristles at the limit carry
//! F_s) and Δ = 3 (F_s − F_C)/σ0, clamped to \[0.05 δ_s, 2 δ_s\], so the mean sliding force is F_C:
//! after a snap by uΔ a bristle's deflection climbs back from δ_s − uΔ to δ_s in a time ∝ u, so
//! its time-averaged deflection is δ_s − Δ·E\[u²\]/(2 E\[u\]) = δ_s − Δ/3. (Δ = 4 (F_s − F_C)/σ0,
//! from the untimed average δ_s − Δ/4, slid at 0.84 N where F_C = 0.98 N.)
//! σ0 defaults to 1e3 N/m (not Table 7.1's 1e5): each snap is an event, and at 1e5 N/m a 40 s run
//! would need millions of them.

use super::common::{self, FN, MUK, MUS};
use crate::model::{Category, FrictionModel, ModelEntry, ModelInfo};
use crate::params::{ParamError, ParamSpec};

const PARAMS: [ParamSpec; 6] = [
    MUS,
    MUK,
    FN,
    ParamSpec {
        key: "sigma0",
        name: "Total bristle stiffness",
        symbol: "σ_0",
        unit: "N/m",
        default: 1e3,
        min: 1e-3,
        max: 1e10,
        log: true,
    },
    ParamSpec {
        key: "n",
        name: "Number of bristles",
        symbol: "N",
        unit: "",
        default: 5.0,
        min: 1.0,
        max: 50.0,
        log: false,
    },
    ParamSpec {
        key: "seed",
        name: "Random seed",
        symbol: "seed",
        unit: "",
        default: 1.0,
        min: 0.0,
        max: 4294967295.0,
        log: false,
    },
];

static INFO: ModelInfo = ModelInfo {
    id: "bristle",
    name: "Bristle model (Haessig & Friedland 1991)",
    category: Category::Dynamic,
    provisional: false,
    params: &PARAMS,
};

/// Registry entry.
pub static ENTRY: ModelEntry = ModelEntry { info: &INFO, build };

/// Bristle model: N bristles of stiffness σ_i \[N/m\], strain limit δ_s \[m\], re-bond range Δ \[m\].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Bristle {
    /// Number of bristles.
    pub n: usize,
    /// Stiffness of one bristle σ_i \[N/m\].
    pub sigma_i: f64,
    /// Strain limit δ_s \[m\].
    pub delta_s: f64,
    /// Re-bond range Δ \[m\].
    pub range: f64,
    /// Seed of the re-bond draws.
    pub seed: u64,
}

fn build(values: &[f64]) -> Result<Box<dyn FrictionModel>, ParamError> {
    let v = common::check(&PARAMS, values)?;
    common::check_mus_ge_muk(v[0], v[1])?;
    common::check_whole("n", v[4])?;
    common::check_whole("seed", v[5])?;
    let (fs, fc, s0) = (v[0] * v[2], v[1] * v[2], v[3]);
    let ds = fs / s0;
    Ok(Box::new(Bristle {
        n: v[4] as usize,
        sigma_i: s0 / v[4],
        delta_s: ds,
        range: (3.0 * (fs - fc) / s0).clamp(0.05 * ds, 2.0 * ds),
        seed: v[5] as u64,
    }))
}

/// Most snaps drawn one by one in one switch; beyond, the bristle re-bonds within range at once.
const MAX_SNAPS: usize = 1000;

/// splitmix64: a tiny, well-mixed hash for reproducible draws.
fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

impl Bristle {
    /// Uniform draw in (0, 1] for bristle `i` at its `count`-th re-bond.
    pub fn draw(&self, i: usize, count: u64) -> f64 {
        let h = mix(self.seed ^ mix((i as u64) << 40 ^ count));
        ((h >> 11) as f64 + 1.0) / (1u64 << 53) as f64
    }
}

impl FrictionModel for Bristle {
    fn info(&self) -> &'static ModelInfo {
        &INFO
    }
    fn n_states(&self) -> usize {
        2 * self.n
    }
    fn n_discrete(&self) -> usize {
        self.n
    }
    fn separable(&self) -> bool {
        true
    }
    fn settles(&self) -> bool {
        false
    }
    fn tooth_length(&self) -> Option<f64> {
        Some(self.range)
    }
    fn derivative(&self, v: f64, _fe: f64, _x: &[f64], dx: &mut [f64]) {
        dx[..self.n].fill(v);
        dx[self.n..].fill(0.0);
    }
    fn force(&self, _v: f64, _fe: f64, x: &[f64]) -> f64 {
        self.sigma_i * x[..self.n].iter().sum::<f64>()
    }
    fn partials(
        &self,
        _v: f64,
        _fe: f64,
        _x: &[f64],
        dzdz: &mut [f64],
        dzdv: &mut [f64],
        dfdz: &mut [f64],
    ) -> Option<f64> {
        dzdz.fill(0.0);
        dzdv.fill(1.0);
        dfdz.fill(self.sigma_i);
        Some(0.0)
    }
    fn state_scale(&self, i: usize) -> f64 {
        if i < self.n {
            self.delta_s
        } else {
            1.0
        }
    }
    fn n_switches(&self) -> usize {
        self.n
    }
    fn switches(&self, _v: f64, _fe: f64, x: &[f64], g: &mut [f64]) {
        for (gi, d) in g.iter_mut().zip(&x[..self.n]) {
            *gi = d.abs() - self.delta_s;
        }
    }
    fn on_switch(&self, index: usize, rising: bool, _v: f64, _fe: f64, x: &mut [f64]) -> bool {
        if !rising {
            return false;
        }
        let mut count = x[self.n + index].round().max(0.0);
        let mut d = x[index];
        let s = common::sgn(d);
        // Located at the crossing, one snap brings the bristle back into range. A step that
        // carried it several teeth past δ_s (implicit Euler at a fixed step, in the phenomena
        // ramps) snaps it again until it is, as the bristle would have on the way; only the
        // strain in the direction it was pulled counts (a snap may overshoot past zero).
        let mut snaps = 0;
        loop {
            d -= self.draw(index, count as u64) * self.range * s;
            count += 1.0;
            snaps += 1;
            if d * s < self.delta_s || snaps == MAX_SNAPS {
                break;
            }
        }
        if d * s >= self.delta_s || !d.is_finite() {
            // more teeth in one step than are worth drawing: re-bond within range
            d = s * (self.delta_s - self.draw(index, count as u64) * self.range.min(self.delta_s));
            count += 1.0;
        }
        x[index] = d;
        x[self.n + index] = count;
        true
    }
}
