//! The panels of any view's job output: one chart per panel and the legend of what the panel
//! will show when the job is done (the page lists every selected model while it computes).
//!
//! This is the only place that matches on the view's typed output; the CLI and the page both
//! call [`panels`].

use crate::curve::curve_chart;
use crate::forced::{breakaway_charts, presliding_charts, SlottedRun};
use crate::frbd::{hysteresis_chart, relaxation_chart};
use crate::prescribed::{prescribed_charts, sweep_charts};
use crate::stickslip::{all_charts_memo, Slotted, ThinMemo};
use crate::{ChartSpec, Series, FLAT_SPAN, PALETTE};
use friction_core::job::Output;
use friction_core::params::fmt_num;

/// A legend entry: the series without its points.
fn key(label: String, slot: usize) -> Series {
    Series {
        label,
        color: PALETTE[slot % PALETTE.len()],
        points: Vec::new(),
        dashed: false,
    }
}

/// The legend of every selected model, each in its slot's colour.
fn model_keys(labels: &[String]) -> Vec<Series> {
    labels
        .iter()
        .enumerate()
        .map(|(i, l)| key(l.clone(), i))
        .collect()
}

fn empty(s: &Series) -> Series {
    Series {
        points: Vec::new(),
        ..s.clone()
    }
}

/// (chart, legend) per panel of the output, in display order; none while nothing is ready.
pub fn panels(out: &Output<'_>) -> Vec<(ChartSpec, Vec<Series>)> {
    panels_memo(out, &mut ThinMemo::default())
}

/// [`panels`], with long runs thinned once across calls through `memo` (see [`ThinMemo`]).
///
/// A panel whose quantity is zero throughout for a model says so in one line of its notes
/// ([`note_zero_series`]).
pub fn panels_memo(out: &Output<'_>, memo: &mut ThinMemo) -> Vec<(ChartSpec, Vec<Series>)> {
    let mut out = panels_of(out, memo);
    for (spec, _) in &mut out {
        note_zero_series(spec);
    }
    out
}

/// Adds a line to `spec`'s notes for every solid curve whose y values are all zero, exactly or
/// to round-off of the quantity's scale ([`ChartSpec::y_scale`], [`FLAT_SPAN`]): such a curve
/// lies on the axis, where it reads as missing (Coulomb's pre-sliding displacement, a static
/// law's loop area).
pub fn note_zero_series(spec: &mut ChartSpec) {
    let floor = FLAT_SPAN * spec.y_scale.abs();
    let quantity = spec
        .y_label
        .rfind(" [")
        .map_or(spec.y_label.as_str(), |i| &spec.y_label[..i])
        .to_string();
    let mut lines = Vec::new();
    for s in spec
        .series
        .iter()
        .filter(|s| !s.dashed && !s.label.is_empty())
    {
        let ys = s.points.iter().map(|p| p.1).filter(|y| y.is_finite());
        let (n, top) = ys.fold((0usize, 0.0f64), |(n, m), y| (n + 1, m.max(y.abs())));
        if n < 2 || top > floor {
            continue;
        }
        let how = if top == 0.0 { "" } else { " (to round-off)" };
        let line = format!("{}: {quantity} is 0 throughout{how}", s.label);
        if !spec.notes.contains(&line) && !lines.contains(&line) {
            lines.push(line);
        }
    }
    spec.notes.extend(lines);
}

fn panels_of(out: &Output<'_>, memo: &mut ThinMemo) -> Vec<(ChartSpec, Vec<Series>)> {
    match out {
        Output::Empty => Vec::new(),
        Output::Hysteresis { cfg, loops } => {
            let spec = hysteresis_chart(cfg, loops);
            let mut legend: Vec<Series> = cfg
                .freqs
                .iter()
                .enumerate()
                .map(|(i, f)| key(format!("{} {}", fmt_num(*f), cfg.unit.label()), i))
                .collect();
            legend.extend(spec.series.iter().filter(|s| s.dashed).map(empty));
            vec![(spec, legend)]
        }
        Output::Relaxation { cfg, curves } => {
            let spec = relaxation_chart(curves);
            let mut legend: Vec<Series> = cfg
                .models
                .iter()
                .enumerate()
                .map(|(i, (label, _))| key(label.clone(), i))
                .collect();
            legend.extend(spec.series.iter().filter(|s| s.dashed).map(empty));
            vec![(spec, legend)]
        }
        Output::Curve { models, result } => {
            let spec = curve_chart(result);
            // every selected model in the legend, also those still computing, and the stick
            // sets drawn so far
            let mut legend: Vec<Series> = models
                .iter()
                .enumerate()
                .map(|(i, m)| key(m.label(), i))
                .collect();
            legend.extend(
                spec.series
                    .iter()
                    .filter(|s| s.dashed && !s.label.is_empty())
                    .map(empty),
            );
            let mut spec = spec;
            crate::curve::mark_coinciding(&mut spec, &mut legend, result.blocks.len());
            vec![(spec, legend)]
        }
        Output::StickSlip { labels, runs } => {
            // each curve keeps its model's slot, so colours match the legend
            let slotted: Vec<Slotted<'_>> = runs
                .iter()
                .map(|&(i, r)| (i, labels[i].as_str(), r))
                .collect();
            let legend = model_keys(labels);
            all_charts_memo(&slotted, memo)
                .into_iter()
                .map(|c| (c, legend.clone()))
                .collect()
        }
        Output::Presliding { labels, runs } => {
            let slotted: Vec<SlottedRun<'_>> = runs
                .iter()
                .map(|&(i, r)| (i, labels[i].as_str(), r))
                .collect();
            let legend = model_keys(labels);
            presliding_charts(&slotted)
                .into_iter()
                .map(|c| (c, legend.clone()))
                .collect()
        }
        Output::Prescribed {
            excitation,
            labels,
            cycles,
            ..
        } => {
            // every slot in the legend, also those still computing; one band above the panels
            let legend = model_keys(labels);
            prescribed_charts(*excitation, labels, cycles)
                .into_iter()
                .map(|c| (c, legend.clone()))
                .collect()
        }
        Output::Breakaway { labels, curves } => {
            let legend = model_keys(labels);
            breakaway_charts(labels, curves)
                .into_iter()
                .map(|c| (c, legend.clone()))
                .collect()
        }
        Output::Sweep {
            unit,
            range,
            labels,
            points,
        } => {
            let legend = model_keys(labels);
            sweep_charts(*unit, *range, labels, points)
                .into_iter()
                .map(|c| (c, legend.clone()))
                .collect()
        }
        Output::Robot(r) => crate::robot::all_charts(r)
            .into_iter()
            .map(|c| {
                let legend = c.series.iter().map(empty).collect();
                (c, legend)
            })
            .collect(),
    }
}

/// The charts alone (what the CLI's `--svg` draws).
pub fn charts(out: &Output<'_>) -> Vec<ChartSpec> {
    panels(out).into_iter().map(|(c, _)| c).collect()
}

#[cfg(test)]
mod tests {
    use super::panels;
    use friction_core::scenario::Scenario;
    use friction_core::views;

    #[test]
    fn every_view_draws_as_many_panels_as_it_declares() {
        for v in views::ALL {
            let mut s = Scenario::parse(&format!("view={}", v.name)).expect("parses");
            // the shortest run the view allows: only the panel count matters here
            if let Some(t) = s.controls().into_iter().find(|c| c.key == "tend") {
                s.set("tend", &t.min.to_string()).expect("shortest run");
            }
            let mut job = s.job().expect("builds");
            while !job.done() {
                job.advance(&|| 0.0);
            }
            assert_eq!(panels(&job.output()).len(), v.panels, "view={}", v.name);
        }
    }
}
