//! No chart of any view's example or preset magnifies round-off: every axis of every panel, as
//! the CLI's `--svg` writes it and as the page fits it to the data, reads without a power of
//! ten of 10⁻⁹ or smaller (issue 36: Coulomb's pre-sliding displacement, exactly 0, was drawn
//! on "displacement x [×10⁻¹³ m]", a static law's loop area of 10⁻¹⁷ N·m/s on ×10⁻¹¹).

#![allow(clippy::unwrap_used)]

use friction_core::scenario::Scenario;
use friction_core::views::ALL;
use friction_plot::panels::panels;
use friction_plot::ticks::TickFormat;
use friction_plot::{fitted_axes, ChartSpec};
use std::process::Command;

/// The default link of every view (`view=X`, its example) and every preset's link.
fn links() -> Vec<String> {
    let mut out: Vec<String> = ALL.iter().map(|v| format!("view={}", v.name)).collect();
    for v in ALL {
        for p in v.presets.map(|p| (p.list)()).unwrap_or_default() {
            out.push(Scenario::of_preset(v, &p).unwrap().to_query());
        }
    }
    out
}

/// The powers of ten written beside the axes of an SVG ("×10⁻¹³"), as integers.
fn svg_exponents(svg: &str) -> Vec<i32> {
    let digits = |c: char| "⁰¹²³⁴⁵⁶⁷⁸⁹".chars().position(|d| d == c);
    svg.split("×10")
        .skip(1)
        .filter_map(|rest| {
            let mut chars = rest.chars().peekable();
            let neg = chars.peek() == Some(&'⁻');
            if neg {
                chars.next();
            }
            let mut n: Option<i32> = None;
            while let Some(d) = chars.peek().copied().and_then(digits) {
                n = Some(n.unwrap_or(0) * 10 + d as i32);
                chars.next();
            }
            n.map(|n| if neg { -n } else { n })
        })
        .collect()
}

#[test]
fn the_exponent_reader_reads_what_the_axes_write() {
    assert_eq!(
        svg_exponents("x [×10⁻¹³ m] and [×10⁵ N] and ×10⁻⁴ + 1.499"),
        [-13, 5, -4]
    );
}

#[test]
fn no_svg_of_an_example_or_a_preset_magnifies_round_off() {
    let dir = std::env::temp_dir().join(format!("friction-axes-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let links = links();
    assert!(links.len() >= 30, "{} links", links.len());
    for (i, q) in links.iter().enumerate() {
        let file = dir.join(format!("{i}.svg"));
        let o = Command::new(env!("CARGO_BIN_EXE_friction-lab"))
            .arg(q)
            .arg("--svg")
            .arg(&file)
            .output()
            .unwrap();
        assert_eq!(
            o.status.code(),
            Some(0),
            "{q}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        let svg = std::fs::read_to_string(&file).unwrap();
        for e in svg_exponents(&svg) {
            assert!(e > -9, "{q}: an axis reads ×10^{e}");
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// The largest magnification (most negative power of ten) of a linear axis over `range` at any
/// tick count a panel may ask for.
fn worst_exponent(range: (f64, f64)) -> i32 {
    (2..=12)
        .map(|n| TickFormat::new(range.0, range.1, n).exp)
        .min()
        .unwrap_or(0)
}

fn check(q: &str, i: usize, spec: &ChartSpec) {
    let (x, y) = fitted_axes(spec);
    let mut ranges = vec![("y (SVG)", spec.y_range), ("y (page)", y)];
    if !spec.x_log {
        ranges.push(("x (SVG)", spec.x_range));
        ranges.push(("x (page)", x));
    }
    for (axis, r) in ranges {
        assert!(
            r.0.is_finite() && r.1.is_finite() && r.1 > r.0,
            "{q} panel {i}"
        );
        let e = worst_exponent(r);
        assert!(
            e > -9,
            "{q}: panel {} \"{}\" {axis} axis {r:?} reads ×10^{e}",
            i + 1,
            spec.title
        );
    }
}

#[test]
fn no_chart_the_page_draws_for_an_example_or_a_preset_magnifies_round_off() {
    for q in links() {
        let mut job = Scenario::parse(&q).unwrap().job().unwrap();
        while !job.done() {
            job.advance(&|| 0.0);
        }
        let charts = panels(&job.output());
        assert!(!charts.is_empty(), "{q}: nothing drawn");
        for (i, (spec, _)) in charts.iter().enumerate() {
            check(&q, i, spec);
        }
    }
}

#[test]
fn a_quantity_that_is_zero_for_a_law_lies_on_a_plain_axis_and_says_so() {
    for (q, panel, line) in [
        (
            "view=presliding&model=coulomb",
            0,
            "Coulomb: displacement x is 0 throughout",
        ),
        (
            "view=sweep&model=coulomb,lugre&nf=5",
            2,
            "Coulomb: loop area is 0 throughout (to round-off)",
        ),
        (
            "view=prescribed&model=coulomb",
            2,
            "No internal state: a static law, F = F(v)",
        ),
    ] {
        let mut job = Scenario::parse(q).unwrap().job().unwrap();
        while !job.done() {
            job.advance(&|| 0.0);
        }
        let charts = panels(&job.output());
        let spec = &charts[panel].0;
        assert!(
            spec.notes.iter().any(|n| n == line),
            "{q}: {:?}",
            spec.notes
        );
        check(q, panel, spec);
    }
    // an exact zero alone: a symmetric axis of the quantity's natural unit (1 µm)
    let mut job = Scenario::parse("view=presliding&model=coulomb")
        .unwrap()
        .job()
        .unwrap();
    while !job.done() {
        job.advance(&|| 0.0);
    }
    let charts = panels(&job.output());
    let (_, y) = fitted_axes(&charts[0].0);
    assert_eq!(y, (-1e-6, 1e-6));
    assert_eq!(charts[0].0.y_range, (-1e-6, 1e-6));
}
