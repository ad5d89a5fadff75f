//! Charts of the fit workspace: a measured record on its own the moment it is read (force
//! against time, displacement and velocity), the model's force over it while a fit runs (the
//! best point so far) and at its end, and the residuals of that curve against time and velocity.
//!
//! Units: SI, or for a rotary record (a joint: angle in rad, torque in N·m) the same numbers
//! read as radians and newton-metres, with the labels saying so.

use crate::{padded_range, ChartSpec, Series, PALETTE, REFERENCE};

/// Number of fit charts ([`fit_chart`] `which` = 0 … FIT_CHARTS − 1).
pub const FIT_CHARTS: usize = 5;

/// Colour of the model's curve while a fit runs (bluish green): apart from the fitted curve's,
/// so a glance tells a running fit from a finished one.
pub const LIVE: plotters::style::RGBColor = PALETTE[2];
/// Colour of the fitted model's curve (vermillion).
pub const FITTED: plotters::style::RGBColor = PALETTE[1];
/// Colour of the fitted model's curve and residuals on the held-out part (reddish purple).
pub const HELD_OUT: plotters::style::RGBColor = PALETTE[3];
/// Colour of the residuals on the fitted part (blue).
pub const RESIDUAL: plotters::style::RGBColor = PALETTE[0];

/// A record as the charts draw it, all slices of one length: time \[s\], displacement \[m\] (an
/// angle \[rad\] when `rotary`), velocity \[m/s\] (rad/s) and friction force \[N\] (N·m).
#[derive(Debug, Clone, Copy)]
pub struct Record<'a> {
    /// Time \[s\].
    pub t: &'a [f64],
    /// Displacement \[m\] or angle \[rad\].
    pub x: &'a [f64],
    /// Velocity \[m/s\] or angular velocity \[rad/s\].
    pub v: &'a [f64],
    /// Measured friction force \[N\] or torque \[N·m\].
    pub f: &'a [f64],
    /// Whether the record is rotary (rad, N·m).
    pub rotary: bool,
}

/// The model's force drawn over the record, one value per sample \[N\] (N·m).
#[derive(Debug, Clone, Copy)]
pub enum Model<'a> {
    /// No model yet: the record alone.
    None,
    /// The best point so far of a running fit.
    Live(&'a [f64]),
    /// The fitted model; samples from `holdout_from` \[s\] on were kept out of the fit and are
    /// drawn apart.
    Fitted {
        /// The model's force at every sample.
        force: &'a [f64],
        /// Time where the held-out part begins.
        holdout_from: Option<f64>,
    },
}

impl Model<'_> {
    fn force(&self) -> Option<&[f64]> {
        match *self {
            Model::None => None,
            Model::Live(f) | Model::Fitted { force: f, .. } => Some(f),
        }
    }
}

fn range(values: impl Iterator<Item = f64>) -> (f64, f64) {
    let (lo, hi) = bounds(values);
    if lo > hi {
        (0.0, 1.0)
    } else {
        padded_range(lo, hi)
    }
}

fn bounds(values: impl Iterator<Item = f64>) -> (f64, f64) {
    values
        .filter(|a| a.is_finite())
        .fold((f64::MAX, f64::MIN), |(a, b), x| (a.min(x), b.max(x)))
}

/// Whether chart `which` has something to show: the record's charts (0–2) always, the
/// residual charts (3, 4) once there is a model curve.
pub fn shows(which: usize, model: &Model<'_>) -> bool {
    match which {
        0..=2 => true,
        3 | 4 => model.force().is_some(),
        _ => false,
    }
}

/// Chart `which` of the workspace: 0 F–t, 1 F–x, 2 F–v (the record in grey, the model's
/// curve over it in colour), 3 residual F_model − F against t, 4 against v. `None` for
/// another `which`, for a residual chart without a model, or for slices of unequal length.
///
/// The force axis spans the record (and the model where it stays within one record span of
/// it): a start far off the data would otherwise squash the data to a line.
pub fn fit_chart(which: usize, rec: &Record<'_>, model: &Model<'_>) -> Option<ChartSpec> {
    let n = rec.t.len();
    if [rec.x.len(), rec.v.len(), rec.f.len()]
        .iter()
        .chain(model.force().map(<[f64]>::len).as_ref())
        .any(|&l| l != n)
        || !shows(which, model)
    {
        return None;
    }
    let (force, torque) = if rec.rotary {
        ("friction torque F [N·m]", "Torque")
    } else {
        ("friction force F [N]", "Force")
    };
    // (quantity, axis label) of x and v
    let ((xq, x_name), (vq, v_name)) = if rec.rotary {
        (
            ("angle", "angle x [rad]"),
            ("angular velocity", "angular velocity v [rad/s]"),
        )
    } else {
        (
            ("displacement", "displacement x [m]"),
            ("velocity", "velocity v [m/s]"),
        )
    };
    let (axis, title, x_label): (&[f64], String, &str) = match which {
        0 => (rec.t, format!("{torque} over time"), "time t [s]"),
        1 => (rec.x, format!("{torque} against {xq}"), x_name),
        2 => (rec.v, format!("{torque} against {vq}"), v_name),
        3 => (rec.t, "Residuals against time".into(), "time t [s]"),
        _ => (rec.v, format!("Residuals against {vq}"), v_name),
    };
    let cut = match *model {
        Model::Fitted {
            holdout_from: Some(t0),
            ..
        } => rec.t.partition_point(|&t| t < t0),
        _ => n,
    };
    let pts = |ys: &mut dyn Iterator<Item = f64>, r: std::ops::Range<usize>| -> Vec<(f64, f64)> {
        axis[r].iter().copied().zip(ys).collect()
    };
    let mut series = Vec::new();
    if which < 3 {
        series.push(Series {
            label: "measured".into(),
            color: REFERENCE,
            points: pts(&mut rec.f.iter().copied(), 0..n),
            dashed: false,
        });
        match *model {
            Model::None => {}
            Model::Live(m) => series.push(Series {
                label: "model, best so far".into(),
                color: LIVE,
                points: pts(&mut m.iter().copied(), 0..n),
                dashed: false,
            }),
            Model::Fitted { force: m, .. } => {
                series.push(Series {
                    label: "fitted model".into(),
                    color: FITTED,
                    points: pts(&mut m[..cut].iter().copied(), 0..cut),
                    dashed: false,
                });
                if cut < n {
                    series.push(Series {
                        label: "fitted model on the held-out part".into(),
                        color: HELD_OUT,
                        points: pts(&mut m[cut..].iter().copied(), cut..n),
                        dashed: false,
                    });
                }
            }
        }
    } else if let Some(m) = model.force() {
        let res = |r: std::ops::Range<usize>| -> Vec<(f64, f64)> {
            r.map(|k| (axis[k], m[k] - rec.f[k])).collect()
        };
        let live = matches!(model, Model::Live(_));
        series.push(Series {
            label: if live {
                "F_model − F, best so far".into()
            } else {
                "F_model − F".into()
            },
            color: if live { LIVE } else { RESIDUAL },
            points: res(0..cut),
            dashed: false,
        });
        if cut < n {
            series.push(Series {
                label: "F_model − F on the held-out part".into(),
                color: HELD_OUT,
                points: res(cut..n),
                dashed: false,
            });
        }
    }
    let y_range = if which < 3 {
        let (lo, hi) = bounds(rec.f.iter().copied());
        let span = (hi - lo).max(0.0);
        let near = model
            .force()
            .into_iter()
            .flatten()
            .copied()
            .filter(|y| *y >= lo - span && *y <= hi + span);
        range(rec.f.iter().copied().chain(near))
    } else {
        range(series.iter().flat_map(|s| s.points.iter().map(|p| p.1)))
    };
    Some(ChartSpec {
        title,
        x_label: x_label.into(),
        y_label: if which < 3 {
            force.into()
        } else if rec.rotary {
            "residual [N·m]".into()
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

    const T: [f64; 4] = [0.0, 1.0, 2.0, 3.0];
    const V: [f64; 4] = [-1.0, 0.0, 1.0, 2.0];
    const F: [f64; 4] = [1.0, 2.0, 3.0, 4.0];
    const M: [f64; 4] = [1.5, 2.0, 2.0, 5.0];

    fn rec(rotary: bool) -> Record<'static> {
        Record {
            t: &T,
            x: &T,
            v: &V,
            f: &F,
            rotary,
        }
    }

    #[test]
    fn the_record_alone_before_a_fit() {
        let r = rec(false);
        for w in 0..3 {
            let c = fit_chart(w, &r, &Model::None).expect("data chart");
            assert_eq!(c.series.len(), 1);
            assert_eq!(c.series[0].label, "measured");
            assert!(c.y_range.0 < 1.0 && c.y_range.1 > 4.0);
        }
        // no residuals without a model
        assert!(fit_chart(3, &r, &Model::None).is_none());
        assert!(!shows(4, &Model::None));
        assert_eq!(
            fit_chart(1, &r, &Model::None).map(|c| c.x_label),
            Some("displacement x [m]".into())
        );
    }

    #[test]
    fn live_and_fitted_curves_and_their_residuals() {
        let r = rec(false);
        let live = fit_chart(0, &r, &Model::Live(&M)).expect("live");
        assert_eq!(live.series[1].color, LIVE);
        let res = fit_chart(3, &r, &Model::Live(&M)).expect("live residuals");
        assert_eq!(
            res.series[0].points,
            vec![(0.0, 0.5), (1.0, 0.0), (2.0, -1.0), (3.0, 1.0)]
        );
        let fitted = Model::Fitted {
            force: &M,
            holdout_from: Some(2.0),
        };
        let c = fit_chart(2, &r, &fitted).expect("fitted");
        // the held-out part (t ≥ 2 s) apart from the fitted part
        assert_eq!(c.series[1].points, vec![(-1.0, 1.5), (0.0, 2.0)]);
        assert_eq!(c.series[2].points, vec![(1.0, 2.0), (2.0, 5.0)]);
        assert_eq!(c.series[2].color, HELD_OUT);
        let res = fit_chart(4, &r, &fitted).expect("residuals against v");
        assert_eq!(res.series[0].points, vec![(-1.0, 0.5), (0.0, 0.0)]);
        assert_eq!(res.series[1].points, vec![(1.0, -1.0), (2.0, 1.0)]);
        assert!(fit_chart(5, &r, &fitted).is_none());
        assert!(fit_chart(0, &r, &Model::Live(&M[..2])).is_none());
    }

    #[test]
    fn a_model_far_off_the_data_does_not_squash_it() {
        let r = rec(false);
        let far = [1e6, 2.0, 3.0, 4.0];
        let c = fit_chart(0, &r, &Model::Live(&far)).expect("chart");
        assert!(c.y_range.1 < 10.0, "{:?}", c.y_range);
    }

    #[test]
    fn rotary_records_say_radians_and_newton_metres() {
        let r = rec(true);
        let c = fit_chart(1, &r, &Model::None).expect("chart");
        assert_eq!(c.x_label, "angle x [rad]");
        assert_eq!(c.y_label, "friction torque F [N·m]");
        assert_eq!(c.title, "Torque against angle");
        let c = fit_chart(4, &r, &Model::Live(&M)).expect("residuals");
        assert_eq!(c.x_label, "angular velocity v [rad/s]");
        assert_eq!(c.y_label, "residual [N·m]");
        assert_eq!(c.title, "Residuals against angular velocity");
    }
}
