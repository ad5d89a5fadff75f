//! AV, adhesion + viscous (\[C\] eqs. 1–4): F = μ_s F_N \[sgn Ẋ\] + μ_v Ẋ + C_1 + C_2.
//!
//! Decisions on the printed defects: (i) the self-referential C_1/C_2 are read with amplitude
//! `camp` (default F_s − F_c = 1.5 N with Table 1) and Ẋ_t = Ẋ, giving C_1 + C_2 =
//! camp·e^{−(Ẋ/Ẋ_s)²} sgn(Ẋ); (ii) the constant μ_s F_N term is not odd and pushes the body for
//! Ẋ < 0, so by default it is read as μ_s F_N sgn(Ẋ) (`printed = 1` restores the literal constant).
//! Switching surface: Ẋ = 0 (jump of 2(μ_s F_N + camp)).

use super::{
    c1_c2, checked, sgn, static_model, Cat, FromValues, StaticLaw, C_FN, C_MUS, C_MUV, C_PRINTED,
    C_XS, MAX_SWITCHES,
};
use crate::model::ModelInfo;
use crate::params::{ParamError, ParamSpec};

const PARAMS: [ParamSpec; 6] = [
    C_MUS,
    C_FN,
    C_MUV,
    C_XS,
    ParamSpec {
        key: "camp",
        name: "Stribeck correction amplitude (C_1 = C_2; not given by [C])",
        symbol: "C",
        unit: "N",
        default: 1.5,
        min: 0.0,
        max: 1e6,
        log: false,
    },
    C_PRINTED,
];

/// Registry description.
pub static INFO: ModelInfo = ModelInfo {
    id: "av",
    name: "AV: adhesion + viscous (Djidda Mahamat et al. 2025)",
    category: Cat::Composite,
    provisional: false,
    params: &PARAMS,
};

/// AV law: F_s = μ_s F_N \[N\], μ_v \[N·s/m\], Ẋ_s \[m/s\], amplitude \[N\], printed/intended switch.
#[derive(Debug, Clone, Copy)]
pub struct Av {
    fs: f64,
    muv: f64,
    xs: f64,
    camp: f64,
    printed: bool,
}

impl FromValues for Av {
    fn from_values(values: &[f64]) -> Result<Self, ParamError> {
        let [mus, fnorm, muv, xs, camp, printed] = checked(&PARAMS, values)?;
        Ok(Av {
            fs: mus * fnorm,
            muv,
            xs,
            camp,
            printed: printed >= 0.5,
        })
    }
}

impl StaticLaw for Av {
    fn info(&self) -> &'static ModelInfo {
        &INFO
    }
    fn force(&self, v: f64, _fe: f64) -> f64 {
        let adhesion = if self.printed {
            self.fs
        } else {
            self.fs * sgn(v)
        };
        adhesion + self.muv * v + c1_c2(v, self.camp, self.xs)
    }
    fn switching(&self, v: f64, _fe: f64, g: &mut [f64; MAX_SWITCHES]) -> usize {
        g[0] = v;
        1
    }
}
static_model!(Av);
