//! `view=curve` and `view=explorer`: F against v (or against the displacement X) for one to four
//! registry models, one model's curve per unit of work (models with state settle at every
//! velocity, which can take long), so the page paints between models.

use crate::experiments::curve::{self, composite_figure, CurveResult, Settings, PARAMS};
use crate::job::{
    columns, sig, BuiltModel, Inputs, Job, Output, Preset, Presets, Readout, ViewDef, ViewKind,
};
use crate::params::{fmt_num, ParamError};
use crate::registry;

/// `view=curve`: F–v (or F–X) of one to four models, printed as CSV by the CLI.
pub static CURVE: ViewDef = ViewDef {
    name: "curve",
    title: "Friction force curve",
    caption: "Curves",
    kind: ViewKind::Models,
    params: &PARAMS,
    max_models: 4,
    derived_model_keys: &[],
    derive: None,
    metrics: false,
    panels: 1,
    phenomena: false,
    presets: None,
    job,
};

/// `view=explorer`: the same curve with model controls, overlays and the phenomena matrix.
pub static EXPLORER: ViewDef = ViewDef {
    name: "explorer",
    title: "Friction model explorer",
    phenomena: true,
    presets: Some(Presets {
        heading: "Composite paper figures",
        list: composite_presets,
    }),
    ..CURVE
};

/// The composite paper's models (\[C\] Figs 2–7) and the acronyms it names them by.
const COMPOSITE: [(&str, &str); 6] = [
    ("av", "AV"),
    ("cs", "CS"),
    ("cvs", "CVS"),
    ("dv", "DV"),
    ("sd", "SD"),
    ("sv", "SV"),
];

/// One preset per figure of the composite paper: its model alone with the view's values of
/// [`composite_figure`], described from those values so that the text cannot disagree with them.
pub fn composite_presets() -> Vec<Preset> {
    COMPOSITE
        .iter()
        .filter_map(|&(id, label)| {
            let info = registry::find(id)?.info;
            let values = composite_figure(id)?;
            let get = |key: &str| {
                PARAMS
                    .iter()
                    .position(|p| p.key == key)
                    .map_or(f64::NAN, |i| values[i])
            };
            let figure = if get("sweep") == 1.0 {
                "F against displacement (symmetric sweep)".to_string()
            } else {
                format!(
                    "F against velocity on [{}, {}] m/s",
                    fmt_num(get("vmin")),
                    fmt_num(get("vmax"))
                )
            };
            let mut query = vec![("model", id.to_string())];
            query.extend(PARAMS.iter().zip(values).map(|(p, x)| (p.key, fmt_num(x))));
            Some(Preset {
                id,
                label,
                name: format!("Composite paper figure for {}", info.name),
                description: format!("{}: {figure}, Fex = {} N", info.name, fmt_num(get("fe"))),
                query,
            })
        })
        .collect()
}

fn job(s: &dyn Inputs) -> Result<Box<dyn Job>, ParamError> {
    let values = s.view_values();
    let settings = Settings::from_values(&values).map_err(|e| blame_given(s, &values, e))?;
    let models = s.build_models()?;
    Ok(Box::new(CurveJob {
        result: CurveResult {
            sweep: settings.sweep,
            blocks: Vec::with_capacity(models.len()),
        },
        settings,
        models,
    }))
}

/// An error about the velocity range names the key the user gave: `vmin=5` alone conflicts with
/// the default `vmax`, which the user never set.
fn blame_given(s: &dyn Inputs, values: &[f64], e: ParamError) -> ParamError {
    if e.key == "vmax" && !s.given("vmax") && s.given("vmin") {
        return ParamError::new(
            "vmin",
            &fmt_num(values[0]),
            format!("must be less than vmax = {}", fmt_num(values[1])),
        );
    }
    e
}

/// The curves of the selected models, one per unit of work.
pub struct CurveJob {
    settings: Settings,
    models: Vec<BuiltModel>,
    result: CurveResult,
}

impl Job for CurveJob {
    fn advance(&mut self, _: &dyn Fn() -> f64) {
        if let Some((_, m)) = self.models.get(self.result.blocks.len()) {
            let block = curve::run_one(&self.settings, m.as_ref());
            self.result.blocks.push(block);
        }
    }
    fn done(&self) -> bool {
        self.result.blocks.len() >= self.models.len()
    }
    fn progress(&self) -> (usize, usize) {
        (self.result.blocks.len(), self.models.len())
    }
    fn output(&self) -> Output<'_> {
        if self.result.blocks.is_empty() {
            return Output::Empty;
        }
        Output::Curve {
            models: self.models.iter().map(|(e, _)| e.info).collect(),
            result: &self.result,
        }
    }
    fn readout(&self) -> Readout {
        let rows: Vec<Vec<String>> = self
            .result
            .blocks
            .iter()
            .map(|b| {
                let fs = b.points.iter().map(|p| p.1).filter(|f| f.is_finite());
                let lo = fs.clone().fold(f64::INFINITY, f64::min);
                let hi = fs.fold(f64::NEG_INFINITY, f64::max);
                vec![b.name.to_string(), sig(lo), sig(hi)]
            })
            .collect();
        let summary = rows
            .iter()
            .zip(&self.result.blocks)
            .map(|(r, b)| {
                let mut t = format!("{}: F from {} N to {} N.", r[0], r[1], r[2]);
                if let (Some(first), Some(last)) = (b.stick.first(), b.stick.last()) {
                    let lo = b.stick.iter().map(|s| s.1).fold(f64::INFINITY, f64::min);
                    let hi = b
                        .stick
                        .iter()
                        .map(|s| s.2)
                        .fold(f64::NEG_INFINITY, f64::max);
                    let at = if first.0 == last.0 {
                        format!("at v = {}", sig(first.0))
                    } else {
                        format!("for v from {} to {} m/s", sig(first.0), sig(last.0))
                    };
                    t.push_str(&format!(
                        " Sticks {at} with any F from {} N to {} N (dashed).",
                        sig(lo),
                        sig(hi)
                    ));
                }
                t
            })
            .collect::<Vec<_>>()
            .join(" ");
        let notes = self
            .models
            .iter()
            .take(self.result.blocks.len())
            .filter_map(|(e, _)| e.info.provisional_note())
            .collect();
        Readout {
            columns: columns(&["model", "min F [N]", "max F [N]"]),
            rows,
            notes,
            summary,
        }
    }
    fn csv(&self, _: bool) -> String {
        self.result.to_csv()
    }
}
