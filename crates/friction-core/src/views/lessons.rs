//! What the views' lessons share: the source documents they cite, the equations several views
//! show, and the glossary of the page's jargon. Each lesson is a field of its view's
//! [`crate::job::ViewDef`] (`ViewDef::lesson`), in the view's file.
//!
//! References are taken from our copies of the sources and say so where a copy lacks a detail.

pub use crate::job::{Lesson, Reference};

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
pub const GM: &str = concat!(
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
pub const LUGRE: &str = concat!(
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

#[cfg(test)]
mod tests {
    #[test]
    fn every_view_has_a_short_lesson_with_a_named_source() {
        for v in crate::views::ALL {
            let l = &v.lesson;
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
    }
}
