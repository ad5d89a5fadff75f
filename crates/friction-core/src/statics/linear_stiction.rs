//! Linear with stiction (Marques et al. 2016): a ramp to F_s at v_0, a linear descent to F_C at
//! v_1, then F_C (\[T\] eq. 6.29).
//!
//! C⁰ with kinks; the negative slope on (v_0, v_1] is the negative damping that drives
//! stick-slip. v_0 and v_1 are not in the seed: the defaults 1e-3 and 2e-3 m/s are placeholders,
//! not from \[T\]. Switching surfaces (kinks): |v| = v_0, |v| = v_1 (and v = 0, where the slope is
//! continuous).

use super::{
    checked, sgn, static_model, vel, Cat, FromValues, StaticLaw, FN, MAX_SWITCHES, MUK, MUS,
};
use crate::model::ModelInfo;
use crate::params::{ParamError, ParamSpec};

const PARAMS: [ParamSpec; 5] = [
    MUS,
    MUK,
    FN,
    vel("v0", "Peak velocity (placeholder)", "v_0", 1e-3),
    vel("v1", "End of descent (placeholder)", "v_1", 2e-3),
];

/// Registry description.
pub static INFO: ModelInfo = ModelInfo {
    id: "linear-stiction",
    name: "Linear with stiction (Marques et al. 2016)",
    category: Cat::StaticStiction,
    provisional: false,
    params: &PARAMS,
};

/// Linear-with-stiction law: F_s, F_C \[N\], v_0 < v_1 \[m/s\].
#[derive(Debug, Clone, Copy)]
pub struct LinearStiction {
    fs: f64,
    fc: f64,
    v0: f64,
    v1: f64,
}

impl FromValues for LinearStiction {
    fn from_values(values: &[f64]) -> Result<Self, ParamError> {
        let [mus, muk, fnorm, v0, v1] = checked(&PARAMS, values)?;
        if v1 <= v0 {
            return Err(ParamError::relation(
                &[("v1", v1), ("v0", v0)],
                "needs v1 > v0",
            ));
        }
        Ok(LinearStiction {
            fs: mus * fnorm,
            fc: muk * fnorm,
            v0,
            v1,
        })
    }
}

impl StaticLaw for LinearStiction {
    fn info(&self) -> &'static ModelInfo {
        &INFO
    }
    fn force(&self, v: f64, _fe: f64) -> f64 {
        let a = v.abs();
        let mag = if a <= self.v0 {
            self.fs * a / self.v0
        } else if a <= self.v1 {
            self.fs - (self.fs - self.fc) * (a - self.v0) / (self.v1 - self.v0)
        } else {
            self.fc
        };
        mag * sgn(v)
    }
    fn switching(&self, v: f64, _fe: f64, g: &mut [f64; MAX_SWITCHES]) -> usize {
        g[0] = v.abs() - self.v0;
        g[1] = v.abs() - self.v1;
        2
    }
}
static_model!(LinearStiction);
