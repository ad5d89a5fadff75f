//! A short lesson per view, for a second-year engineering student: what the model is, what the
//! plot shows and what to try, the governing equation and the source it comes from.
//!
//! Why in the core, next to the views: the page and any other front end show the same text, and
//! a test can check that every view has one naming its source. The equations are MathML (which
//! browsers render without any script or font download); references are taken from the seeds
//! (`shared/spec/CATALOG.md` §0.1, `FRBD.md`) and say so where the seed lacks a detail.

use crate::params::PLACEHOLDER_NOTE;

/// One source document, as a student would cite it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Reference {
    /// The full reference in words (authors, title, where, year).
    pub text: &'static str,
    /// Where to read it (empty when the seed gives none).
    pub link: &'static str,
}

/// The lesson of one view.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Lesson {
    /// The view's `view=` name.
    pub view: &'static str,
    /// Two to four sentences: the model, the plot, what to try and why.
    pub text: &'static [&'static str],
    /// The governing equation as a MathML `<math>` element.
    pub equation: &'static str,
    /// The sources the view follows.
    pub references: &'static [Reference],
    /// A drawing the page adds: `"stickslip"` (block, spring, belt), `"robot"` (the joint).
    pub schematic: Option<&'static str>,
    /// Notes that belong to the view once rather than to every label (placeholders, cited
    /// figures).
    pub notes: &'static [&'static str],
}

/// The FrBD letter (seed 000).
pub const FRBD: Reference = Reference {
    text: "L. Romano, O. M. Aamo, J. Åslund, E. Frisk, “Linear viscoelastic rheological FrBD \
           models”, arXiv:2601.13799 (2026)",
    link: "https://arxiv.org/abs/2601.13799",
};

/// The composite-law paper (seed 001; its title is not in the seed's copy).
pub const COMPOSITE: Reference = Reference {
    text: "A. Djidda Mahamat, A. Annour Saad, M. Ali Abdoulaye, K. Bienvenu, a comparison of six \
           composite dry-friction models (AV, CS, CVS, DV, SD, SV), Open Journal of Applied \
           Sciences (2025), DOI 10.4236/ojapps.2025.1510200 (the title is not in our copy)",
    link: "https://doi.org/10.4236/ojapps.2025.1510200",
};

/// The Fortran friction library (seed 002).
pub const LIBRARY: Reference = Reference {
    text: "jchristopherson, “friction”: a Fortran 2018 library of friction models, v1.1.1, \
           GPL-3.0 (the author's full name is not in the seed)",
    link: "https://github.com/jchristopherson/friction",
};

/// The thesis (seed 003).
pub const THESIS: Reference = Reference {
    text: "F. M. G. Novais, “A critical analysis on friction force models in dynamical \
           systems”, MSc thesis, Universidade do Minho (2024); no web address in the seed",
    link: "",
};

/// The FrBD_{n+1}-GM model (12) of the letter.
const GM: &str = concat!(
    "<math display=\"block\"><mtable>",
    "<mtr><mtd><mover><mi>z</mi><mo>˙</mo></mover><mo>=</mo><mi>v</mi><mo>−</mo>",
    "<mfrac><mrow><mo>|</mo><mi>v</mi><mo>|</mo></mrow><mrow><mi>μ</mi><mo>(</mo><mi>v</mi><mo>)</mo></mrow></mfrac>",
    "<mo>(</mo><msub><mover><mi>k</mi><mo>‾</mo></mover><mn>0</mn></msub><mi>z</mi><mo>+</mo>",
    "<munderover><mo>∑</mo><mi>i</mi><mi>n</mi></munderover><msub><mi>f</mi><mi>i</mi></msub><mo>)</mo></mtd></mtr>",
    "<mtr><mtd><msub><mover><mi>f</mi><mo>˙</mo></mover><mi>i</mi></msub><mo>=</mo><mo>−</mo>",
    "<msub><mi>f</mi><mi>i</mi></msub><mo>/</mo><msub><mi>τ</mi><mi>i</mi></msub><mo>+</mo>",
    "<msub><mover><mi>k</mi><mo>‾</mo></mover><mi>i</mi></msub><mover><mi>z</mi><mo>˙</mo></mover>",
    "<mo>,</mo><mspace width=\"1em\"/><mi>F</mi><mo>=</mo><mi>p</mi><mo>(</mo>",
    "<msub><mover><mi>k</mi><mo>‾</mo></mover><mn>0</mn></msub><mi>z</mi><mo>+</mo><mo>∑</mo>",
    "<msub><mi>f</mi><mi>i</mi></msub><mo>)</mo></mtd></mtr>",
    "<mtr><mtd><mi>μ</mi><mo>(</mo><mi>v</mi><mo>)</mo><mo>=</mo><msub><mi>μ</mi><mi>d</mi></msub><mo>+</mo>",
    "<mo>(</mo><msub><mi>μ</mi><mi>s</mi></msub><mo>−</mo><msub><mi>μ</mi><mi>d</mi></msub><mo>)</mo>",
    "<msup><mi>e</mi><mrow><mo>−</mo><msup><mrow><mo>(</mo><mo>|</mo><mi>v</mi><mo>|</mo><mo>/</mo>",
    "<msub><mi>v</mi><mi>S</mi></msub><mo>)</mo></mrow><msub><mi>δ</mi><mi>S</mi></msub></msup></mrow></msup></mtd></mtr>",
    "</mtable></math>"
);

/// The LuGre model, the dynamic law most views default to.
const LUGRE: &str = concat!(
    "<math display=\"block\"><mover><mi>z</mi><mo>˙</mo></mover><mo>=</mo><mi>v</mi><mo>−</mo>",
    "<mfrac><mrow><msub><mi>σ</mi><mn>0</mn></msub><mo>|</mo><mi>v</mi><mo>|</mo></mrow>",
    "<mrow><mi>g</mi><mo>(</mo><mi>v</mi><mo>)</mo></mrow></mfrac><mi>z</mi><mo>,</mo><mspace width=\"1em\"/>",
    "<mi>F</mi><mo>=</mo><msub><mi>σ</mi><mn>0</mn></msub><mi>z</mi><mo>+</mo><msub><mi>σ</mi><mn>1</mn></msub>",
    "<mover><mi>z</mi><mo>˙</mo></mover><mo>+</mo><msub><mi>σ</mi><mn>2</mn></msub><mi>v</mi><mo>,</mo>",
    "<mspace width=\"1em\"/><mi>g</mi><mo>(</mo><mi>v</mi><mo>)</mo><mo>=</mo><msub><mi>F</mi><mi>C</mi></msub>",
    "<mo>+</mo><mo>(</mo><msub><mi>F</mi><mi>s</mi></msub><mo>−</mo><msub><mi>F</mi><mi>C</mi></msub><mo>)</mo>",
    "<msup><mi>e</mi><mrow><mo>−</mo><msup><mrow><mo>(</mo><mi>v</mi><mo>/</mo><msub><mi>v</mi><mi>s</mi></msub>",
    "<mo>)</mo></mrow><mn>2</mn></msup></mrow></msup></math>"
);

/// Every view's lesson, in `views::ALL` order.
pub const LESSONS: [Lesson; 10] = [
    Lesson {
        view: "hysteresis",
        text: &[
            "A FrBD model treats the contact as bristles whose deflection z is a small \
             viscoelastic solid: a spring k̄0 in parallel with n spring–damper branches, sliding \
             with a Stribeck friction coefficient μ(v).",
            "The plot shows the friction force against velocity while the velocity swings \
             v = v_mean + v_amp cos ωt: the force lags the velocity, so each frequency traces a \
             loop, and the faster the swing the wider the loop.",
            "Try raising the Stribeck velocity v_S: the loops flatten, because μ(v) stays near \
             μ_s when v_S is far above the speeds reached. Use Lock axes to compare two settings \
             on the same scale.",
        ],
        equation: GM,
        references: &[FRBD],
        schematic: None,
        notes: &[],
    },
    Lesson {
        view: "relaxation",
        text: &[
            "At a constant sliding velocity the bristles of a FrBD model load up and the force \
             relaxes to its steady sliding value.",
            "The plot draws one curve for each order from 1 up to the chosen n (n = 3 gives the \
             curves n = 1, 2, 3, as in Fig. 4), so you see what each extra Maxwell branch adds: \
             a slower time constant in the approach.",
            "Try n = 1 against n = 3, or a faster sliding velocity: with Stribeck weakening the \
             force relaxes to a lower level.",
        ],
        equation: GM,
        references: &[FRBD],
        schematic: None,
        notes: &[],
    },
    Lesson {
        view: "robot",
        text: &[
            "A robot joint driven by a motor torque U has FrBD friction F in its bearing; a \
             controller tracks a reference angle q_d(t) and an observer estimates the unmeasured \
             friction state and feeds its force F̂ forward.",
            "The panels show the angle and its reference, the tracking error, the friction and \
             its estimate, and the torque.",
            "Switch the observer off: without compensation the joint sticks at each reversal of \
             the motion and the tracking error grows. The letter gives no numbers for this \
             example, so every value here is this program's choice.",
        ],
        equation: concat!(
            "<math display=\"block\"><mi>m</mi><mover><mi>q</mi><mo>¨</mo></mover><mo>=</mo><mo>−</mo>",
            "<mi>c</mi><mover><mi>q</mi><mo>˙</mo></mover><mo>−</mo><mi>g</mi><mo>(</mo><mi>q</mi><mo>)</mo>",
            "<mo>−</mo><mi>F</mi><mo>+</mo><mi>U</mi><mo>,</mo><mspace width=\"1em\"/><mi>U</mi><mo>=</mo>",
            "<mi>m</mi><msub><mover><mi>q</mi><mo>¨</mo></mover><mi>r</mi></msub><mo>+</mo><mi>c</mi>",
            "<msub><mover><mi>q</mi><mo>˙</mo></mover><mi>r</mi></msub><mo>+</mo><mi>g</mi><mo>(</mo><mi>q</mi>",
            "<mo>)</mo><mo>+</mo><mover><mi>F</mi><mo>^</mo></mover><mo>−</mo><msub><mi>k</mi><mn>1</mn></msub>",
            "<mi>s</mi></math>"
        ),
        references: &[FRBD],
        schematic: Some("robot"),
        notes: &[],
    },
    Lesson {
        view: "curve",
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
    },
    Lesson {
        view: "explorer",
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
        references: &[THESIS, COMPOSITE, LIBRARY],
        schematic: None,
        notes: &[PLACEHOLDER_NOTE],
    },
    Lesson {
        view: "stickslip",
        text: &[
            "A block of mass m rests on a belt moving at v_b and is held back by a spring of \
             stiffness k; friction between block and belt drags it along (the thesis' \
             Rabinowicz benchmark, m ẍ = −k x − F with v = ẋ − v_b).",
            "When static friction exceeds sliding friction the block sticks to the belt until \
             the spring pulls hard enough, then slips back: the saw-tooth in x and the jumps in \
             F are stick-slip.",
            "Compare LuGre with Coulomb: without a static peak the block settles into steady \
             sliding. A slower belt gives longer sticks.",
        ],
        equation: concat!(
            "<math display=\"block\"><mi>m</mi><mover><mi>x</mi><mo>¨</mo></mover><mo>=</mo><mo>−</mo>",
            "<mi>k</mi><mi>x</mi><mo>−</mo><mi>F</mi><mo>(</mo><mi>v</mi><mo>)</mo><mo>,</mo>",
            "<mspace width=\"1em\"/><mi>v</mi><mo>=</mo><mover><mi>x</mi><mo>˙</mo></mover><mo>−</mo>",
            "<msub><mi>v</mi><mi>b</mi></msub></math>"
        ),
        references: &[THESIS],
        schematic: Some("stickslip"),
        notes: &[
            "The thesis times each model's run in MATLAB (Table 6.5); the table beside the plot \
             shows those cited times next to this browser's for the models you run.",
            PLACEHOLDER_NOTE,
        ],
    },
    Lesson {
        view: "presliding",
        text: &[
            "Below the breakaway force a real contact does not slide but deforms: the block \
             creeps a few micrometres back and forth, elastically, with a small hysteresis.",
            "The plot shows the displacement under a slowly oscillating applied force; a \
             dynamic model (LuGre, Dahl) shows this pre-sliding, a static law cannot.",
            "Push the force amplitude towards μ_s F_N: the loops widen and the block starts to \
             drift.",
        ],
        equation: LUGRE,
        references: &[THESIS],
        schematic: Some("stickslip"),
        notes: &[PLACEHOLDER_NOTE],
    },
    Lesson {
        view: "breakaway",
        text: &[
            "The breakaway force is the largest friction force before the block starts to \
             slide. For dynamic models it depends on how fast the applied force rises.",
            "The plot shows the breakaway force against the force rate: LuGre's falls as the \
             rate grows, a static law's stays at μ_s F_N.",
            "Compare LuGre with Dahl, which has no static peak at all.",
        ],
        equation: LUGRE,
        references: &[THESIS],
        schematic: None,
        notes: &[PLACEHOLDER_NOTE],
    },
    Lesson {
        view: "prescribed",
        text: &[
            "Here the motion is prescribed (a velocity v = v_mean + v_amp cos ωt or a \
             displacement x = x_amp sin ωt) and the friction force of any model is computed \
             along it.",
            "The panels show steady loops of F against v and against x and the models' states: \
             the area of a loop in F–x is the energy lost per cycle.",
            "Overlay LuGre and the Generalized Maxwell-Slip model, or switch to displacement \
             driving to see the pre-sliding loop.",
        ],
        equation: LUGRE,
        references: &[THESIS, FRBD],
        schematic: None,
        notes: &[PLACEHOLDER_NOTE],
    },
    Lesson {
        view: "sweep",
        text: &[
            "The frequency sweep repeats the prescribed-motion experiment at many frequencies \
             and keeps only the loop metrics.",
            "The panels show the peak force, the loop area and the energy per cycle against \
             frequency: where a model's lag matters, the curves bend.",
            "Compare LuGre with the FrBD GM model: the letter's Fig. 3 claims are read off such \
             a sweep.",
        ],
        equation: GM,
        references: &[FRBD, THESIS],
        schematic: None,
        notes: &[PLACEHOLDER_NOTE],
    },
];

/// Plain words for the jargon of the page's labels and table headings: (term as it appears,
/// meaning). The page shows the meaning as a tooltip wherever the term is used.
pub const GLOSSARY: [(&str, &str); 10] = [
    (
        "passivity residual",
        "how far the loop's energy balance is from exact: energy put in minus energy dissipated \
         and stored; near zero means the model only ever takes energy out, as friction should",
    ),
    (
        "loop area",
        "the area enclosed by the F–v loop: how far the force lags behind the velocity",
    ),
    (
        "energy per cycle",
        "the work friction takes out of the motion during one period (∮F dx)",
    ),
    (
        "Stribeck",
        "the drop of friction from its static value to its sliding value as the speed grows",
    ),
    (
        "bristle",
        "the contact pictured as tiny elastic bristles that bend before they slip",
    ),
    (
        "pre-sliding",
        "the small elastic displacement before the contact starts to slide",
    ),
    (
        "breakaway",
        "the force at which a body at rest starts to slide",
    ),
    (
        "hysteresis",
        "the force depends on where the motion came from, so rising and falling paths differ",
    ),
    (
        "regularisation",
        "a smooth stand-in for the sign function, so the equations can be solved at v = 0",
    ),
    (
        "Maxwell",
        "a spring in series with a damper: its force relaxes over the time τ = c/k",
    ),
];

/// The lesson of view `name`.
pub fn lesson(name: &str) -> Option<&'static Lesson> {
    LESSONS.iter().find(|l| l.view == name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_view_has_a_short_lesson_with_a_named_source() {
        for v in crate::views::ALL {
            let l = lesson(v.name).unwrap_or_else(|| panic!("{} has no lesson", v.name));
            assert!((2..=4).contains(&l.text.len()), "{}", v.name);
            assert!(l.equation.starts_with("<math") && l.equation.ends_with("</math>"));
            assert_eq!(
                l.equation.matches("<mtd>").count(),
                l.equation.matches("</mtd>").count()
            );
            assert!(!l.references.is_empty(), "{}", v.name);
            for r in l.references {
                assert!(r.link.is_empty() || r.link.starts_with("https://"));
            }
        }
        assert_eq!(LESSONS.len(), crate::views::ALL.len());
    }
}
