//! `view=curve` and `view=explorer`: F against v (or against the displacement X) for one to four
//! registry models, a few points of one model's curve per unit of work (models with state settle
//! at every velocity, which can take tens of milliseconds a point), so the page paints while a
//! curve grows and the CLI's budget can stop between points.

use crate::experiments::curve::{composite_figure, CurveResult, CurveRun, Settings, Sweep, PARAMS};
use crate::experiments::driven::UNIT_WORK;
use crate::integrate::meter;
use crate::job::{
    columns, sig, BuiltModel, Example, Inputs, Job, Lesson, Output, Preset, Presets, Readout,
    ViewDef, ViewKind,
};
use crate::params::{fmt_num, ParamError, ParamSpec, PLACEHOLDER_NOTE};
use crate::registry;
use crate::views::lessons::{self, LIBRARY, LUGRE, THESIS};

/// `view=curve`: F–v (or F–X) of one to four models, printed as CSV by the CLI.
pub static CURVE: ViewDef = ViewDef {
    name: "curve",
    title: "Friction force curve",
    caption: "Curves",
    kind: ViewKind::Models,
    params: &PARAMS,
    max_models: 4,
    // the thesis' Figs 5.1–5.4 (Olsson et al. 1998, Fig. 2): stiction (Karnopp's stick set up
    // to F_s), Coulomb + viscous, Stribeck (Tustin) and Stribeck + viscous (Hess & Soom); c_v
    // = 20 N·s/m (their placeholder is 0.1) so that the viscous slope shows over ±10 mm/s
    default_models: &["karnopp", "coulomb-viscous", "tustin", "hess-soom"],
    default_values: &[("cv", 20.0)],
    key_controls: &["vmax", "fe", "model"],
    presets: Some(Presets {
        heading: "Class scenarios",
        list: curve_presets,
    }),
    example: Example {
        query: "view=curve&model=lugre&vmin=-0.01&vmax=0.01",
        csv: "v,F",
    },
    lesson: CURVE_LESSON,
    job,
    ..ViewDef::BASE
};

/// What the page's lesson box says about `view=curve`.
const CURVE_LESSON: Lesson = Lesson {
    text: &[
        "A friction law gives the force F as a function of the sliding velocity v; this view \
         plots F against v (or against the displacement) for up to four laws and prints the \
         same numbers as the command line.",
        "Static laws are a single curve; dashed vertical segments mark sticking, where any \
         force up to the static limit can hold the body.",
        "Try the preset “Stribeck weakening vs none” to see the dip in force just after \
         breakaway that makes machines chatter.",
    ],
    equation: concat!(
        "<math display=\"block\"><mi>F</mi><mo>=</mo><mi>sgn</mi><mo>(</mo><mi>v</mi><mo>)</mo>",
        "<mo>(</mo><msub><mi>F</mi><mi>C</mi></msub><mo>+</mo><mo>(</mo><msub><mi>F</mi><mi>s</mi></msub>",
        "<mo>−</mo><msub><mi>F</mi><mi>C</mi></msub><mo>)</mo><msup><mi>e</mi><mrow><mo>−</mo><msup>",
        "<mrow><mo>(</mo><mo>|</mo><mi>v</mi><mo>|</mo><mo>/</mo><msub><mi>v</mi><mi>s</mi></msub><mo>)</mo>",
        "</mrow><mn>2</mn></msup></mrow></msup><mo>)</mo><mo>+</mo><msub><mi>b</mi><mi>v</mi></msub><mi>v</mi></math>"
    ),
    references: &[THESIS, LIBRARY],
    schematic: None,
    notes: &[PLACEHOLDER_NOTE],
};

/// The explorer's keys: the curve's, then the physical quantities overlaid models share
/// (normal force, μ_s, μ_k at the registry's common defaults). A view key drives every selected
/// model that has it, so curves are compared at the same load: the Stribeck law's own default
/// F_N of 100 N otherwise spanned ±25 N beside the others' ±1.5 N. The curve view keeps each
/// model's own defaults (it prints a model's curve as its source gives it).
pub static EXPLORER_PARAMS: [ParamSpec; 9] = [
    PARAMS[0],
    PARAMS[1],
    PARAMS[2],
    PARAMS[3],
    PARAMS[4],
    PARAMS[5],
    crate::statics::FN,
    crate::statics::MUS,
    crate::statics::MUK,
];

/// `view=explorer`: the same curve with model controls, overlays and the phenomena matrix.
pub static EXPLORER: ViewDef = ViewDef {
    name: "explorer",
    title: "Friction model explorer",
    params: &EXPLORER_PARAMS,
    phenomena: true,
    presets: Some(Presets {
        heading: "Scenarios and composite paper figures",
        list: explorer_presets,
    }),
    example: Example {
        query: "view=explorer&model=lugre,dahl",
        csv: "model,v,F",
    },
    lesson: EXPLORER_LESSON,
    ..CURVE
};

/// What the page's lesson box says about `view=explorer`.
const EXPLORER_LESSON: Lesson = Lesson {
    text: &[
        "The explorer overlays up to four friction models from the thesis, the composite \
         paper and the Fortran library, with their parameters grouped by model, and a matrix \
         of which phenomena each model shows.",
        "The normal force F_N and the friction coefficients μ_s, μ_k are set once for all \
         overlaid models, so curves are compared at the same load; a quantity the models \
         define differently (their Stribeck velocities) gets a field under each model's \
         name.",
        "Try the composite paper figures, or the four classics: static laws jump at v = 0, \
         dynamic ones (LuGre, Dahl) pass through it smoothly.",
    ],
    equation: LUGRE,
    references: &[THESIS, lessons::COMPOSITE, LIBRARY],
    schematic: None,
    notes: &[PLACEHOLDER_NOTE],
};

/// The shared physical quantities a fair overlay sets once for every model (the Stribeck law's
/// own default normal force is 100 N, the others' 9.81 N).
const FAIR: [(&str, &str); 3] = [("fn", "9.81"), ("mus", "0.25"), ("muk", "0.15")];

/// A preset overlaying `models` with [`FAIR`] shared values.
fn fair(
    id: &'static str,
    label: &'static str,
    name: &str,
    description: &str,
    models: &str,
) -> Preset {
    let mut q = vec![("model", models)];
    q.extend(FAIR);
    Preset::new(id, label, name, description, &q)
}

/// The curve view's scenarios for a class.
pub fn curve_presets() -> Vec<Preset> {
    vec![
        fair(
            "stribeck-vs-none",
            "Stribeck weakening vs none",
            "Stribeck weakening against plain Coulomb friction",
            "same F_N, μ_s, μ_k: the Stribeck law falls from μ_s F_N to μ_k F_N as |v| grows, \
             Coulomb stays at μ_k F_N",
            "stribeck,coulomb",
        ),
        fair(
            "static-laws",
            "Coulomb, Stribeck, Karnopp",
            "Three static laws on the same normal force",
            "how three static laws treat v = 0: a jump, a peak, a stick window",
            "coulomb,stribeck,karnopp",
        ),
    ]
}

/// The explorer's scenarios, then one preset per composite paper figure.
pub fn explorer_presets() -> Vec<Preset> {
    let mut out = vec![
        fair(
            "four-classics",
            "Stribeck, LuGre, Dahl, Karnopp",
            "Four classic models on the same normal force and friction coefficients",
            "static against dynamic laws at equal F_N, μ_s, μ_k",
            "stribeck,lugre,dahl,karnopp",
        ),
        Preset::new(
            "stiff-vs-soft",
            "stiff vs soft bristles",
            "LuGre with stiff bristles against the Dahl model with soft ones",
            "σ0 = 10⁵ N/m against 10³ N/m: the softer the bristles, the longer the pre-sliding \
             ramp in F against displacement",
            &[
                ("model", "lugre,dahl"),
                ("sweep", "1"),
                ("lugre.sigma0", "100000"),
                ("dahl.sigma0", "1000"),
            ],
        ),
    ];
    out.extend(composite_presets());
    out
}

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
    let settings = Settings::from_values(&values)?;
    let models = s.build_models()?;
    Ok(Box::new(CurveJob {
        result: CurveResult {
            sweep: settings.sweep,
            blocks: Vec::with_capacity(models.len()),
        },
        settings,
        models,
        run: None,
        finished: 0,
    }))
}

/// Points of a curve per unit of work for a model with state: each settles over
/// `SETTLE_SLIP` (a millisecond or less for most models); a slide longer than
/// `driven::unit_steps_of` solver steps (GMS with 1000 elements, a stiff bristle model) is cut and
/// finished by the next units, which each count as a point here.
pub const POINTS_CHUNK: usize = 4;

/// Milliseconds of the caller's clock after which a unit takes no further point.
const UNIT_MS: f64 = 5.0;

/// Abscissae of a displacement sweep per unit of work (eight sub-steps each).
const DISP_CHUNK: usize = 64;

/// The curves of the selected models, a few points per unit of work.
pub struct CurveJob {
    settings: Settings,
    models: Vec<BuiltModel>,
    /// Finished blocks, then the block in progress (its points so far).
    result: CurveResult,
    /// The curve in progress.
    run: Option<CurveRun>,
    /// Finished models.
    finished: usize,
}

impl Job for CurveJob {
    fn advance(&mut self, clock: &dyn Fn() -> f64) {
        let Some((_, m)) = self.models.get(self.finished) else {
            return;
        };
        let m = m.as_ref();
        let run = self
            .run
            .get_or_insert_with(|| CurveRun::new(&self.settings, m));
        let chunk = match self.settings.sweep {
            Sweep::Velocity => POINTS_CHUNK,
            Sweep::Displacement => DISP_CHUNK,
        };
        // at most `chunk` points, and one only once the caller's clock or the solvers' work
        // shows the unit is long (a bristle model's point can take tens of ms): the points do
        // not depend on the cut
        let (t0, w0) = (clock(), meter::work());
        let mut done = false;
        for _ in 0..chunk {
            done = run.advance(m, 1);
            if done || clock() - t0 >= UNIT_MS || meter::work() - w0 >= UNIT_WORK as u64 {
                break;
            }
        }
        let block = run.block(m);
        if self.result.blocks.len() > self.finished {
            self.result.blocks[self.finished] = block;
        } else {
            self.result.blocks.push(block);
        }
        if done {
            self.run = None;
            self.finished += 1;
        }
    }
    fn done(&self) -> bool {
        self.finished >= self.models.len()
    }
    fn progress(&self) -> (usize, usize) {
        (self.finished, self.models.len())
    }
    fn budget_hint(&self) -> String {
        "lower npts, narrow the velocity range (vmin, vmax) or xmax, or select fewer models".into()
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
            .take(self.finished)
            .filter_map(|(e, _)| e.info.provisional_note())
            .collect();
        Readout {
            columns: columns(&["model", "min F [N]", "max F [N]"]),
            rows,
            notes,
            definitions: Vec::new(),
            summary,
        }
    }
    fn csv(&self, _: bool) -> String {
        self.result.to_csv()
    }
}
