//! Charts of a fit (the page's Fit panel): the fitted model's force drawn over the measured one
//! against time, velocity and displacement, and the residuals against time and velocity.

use crate::{padded_range, ChartSpec, Series, PALETTE, REFERENCE};

/// Number of fit charts ([`fit_chart`] `which` = 0 … FIT_CHARTS − 1).
pub const FIT_CHARTS: usize = 5;

fn range(values: impl Iterator<Item = f64>) -> (f64, f64) {
    let (lo, hi) = values
        .filter(|a| a.is_finite())
        .fold((f64::MAX, f64::MIN), |(a, b), x| (a.min(x), b.max(x)));
    if lo > hi {
        (0.0, 1.0)
    } else {
        padded_range(lo, hi)
    }
}

/// Chart `which` of a fit: 0 F–t, 1 F–v, 2 F–x (measured in grey, model in colour), 3 residual
/// F_fit − F against t, 4 against v. `None` for another `which` or arrays of unequal length.
/// Units: t \[s\], x \[m\], v \[m/s\], forces \[N\].
pub fn fit_chart(
    which: usize,
    t: &[f64],
    x: &[f64],
    v: &[f64],
    f: &[f64],
    fit: &[f64],
) -> Option<ChartSpec> {
    let n = t.len();
    if [x.len(), v.len(), f.len(), fit.len()]
        .iter()
        .any(|&l| l != n)
    {
        return None;
    }
    let (axis, title, x_label): (&[f64], &str, &str) = match which {
        0 => (t, "Force over time: data and fit", "time t [s]"),
        1 => (
            v,
            "Force against velocity: data and fit",
            "velocity v [m/s]",
        ),
        2 => (
            x,
            "Force against displacement: data and fit",
            "displacement x [m]",
        ),
        3 => (t, "Residuals against time", "time t [s]"),
        4 => (v, "Residuals against velocity", "velocity v [m/s]"),
        _ => return None,
    };
    let series = if which < 3 {
        vec![
            Series {
                label: "measured".into(),
                color: REFERENCE,
                points: axis.iter().copied().zip(f.iter().copied()).collect(),
                dashed: false,
            },
            Series {
                label: "fitted model".into(),
                color: PALETTE[1],
                points: axis.iter().copied().zip(fit.iter().copied()).collect(),
                dashed: false,
            },
        ]
    } else {
        vec![Series {
            label: "F_fit − F".into(),
            color: PALETTE[0],
            points: axis
                .iter()
                .zip(fit.iter().zip(f))
                .map(|(&a, (&m, &d))| (a, m - d))
                .collect(),
            dashed: false,
        }]
    };
    let y_range = range(series.iter().flat_map(|s| s.points.iter().map(|p| p.1)));
    Some(ChartSpec {
        title: title.into(),
        x_label: x_label.into(),
        y_label: if which < 3 {
            "friction force F [N]".into()
        } else {
            "residual [N]".into()
        },
        x_range: range(axis.iter().copied()),
        y_range,
        x_log: false,
        series,
        notes: Vec::new(),
        y_scale: 0.0,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn five_charts_with_their_data() {
        let t = [0.0, 1.0, 2.0];
        let v = [-1.0, 0.0, 1.0];
        let f = [1.0, 2.0, 3.0];
        let fit = [1.5, 2.0, 2.0];
        for w in 0..FIT_CHARTS {
            let c = fit_chart(w, &t, &t, &v, &f, &fit).expect("chart");
            assert!(c.y_range.0 < c.y_range.1);
        }
        let r = fit_chart(3, &t, &t, &v, &f, &fit).expect("residuals");
        assert_eq!(
            r.series[0].points,
            vec![(0.0, 0.5), (1.0, 0.0), (2.0, -1.0)]
        );
        assert!(fit_chart(5, &t, &t, &v, &f, &fit).is_none());
        assert!(fit_chart(0, &t, &t, &v, &f, &fit[..2]).is_none());
    }
}
