//! What `Lab` hands the page: controls, status, tables and tick labels, serialised by serde.

use friction_core::scenario::{Control, ControlKind};
use friction_plot::PlotTransform;
use serde::Serialize;

#[derive(Serialize)]
pub(super) struct ControlOut {
    pub(super) key: &'static str,
    pub(super) label: String,
    pub(super) unit: &'static str,
    pub(super) min: f64,
    pub(super) max: f64,
    pub(super) log: bool,
    pub(super) integer: bool,
    pub(super) value: String,
    pub(super) kind: &'static str,
    pub(super) max_len: usize,
    pub(super) options: Vec<(&'static str, String)>,
    pub(super) items: Vec<String>,
    /// The first list entry's own label (`""` unless a list).
    pub(super) entry: String,
    pub(super) group: &'static str,
    pub(super) group_label: &'static str,
    pub(super) role: &'static str,
    pub(super) structural: bool,
}

impl ControlOut {
    /// The page's shape of one of the core's controls.
    pub(super) fn of(c: Control) -> Self {
        let (kind, max_len, options, items, entry) = match c.kind {
            ControlKind::Number => ("number", 1, Vec::new(), Vec::new(), String::new()),
            ControlKind::List {
                max_len,
                items,
                entry,
            } => ("list", max_len, Vec::new(), items, entry),
            ControlKind::Choice { options } => ("choice", 1, options, Vec::new(), String::new()),
            ControlKind::MultiChoice { options, max_len } => {
                ("multi", max_len, options, Vec::new(), String::new())
            }
        };
        ControlOut {
            key: c.key,
            label: c.label,
            unit: c.unit,
            min: c.min,
            max: c.max,
            log: c.log,
            integer: c.integer,
            value: c.value,
            kind,
            max_len,
            options,
            items,
            entry,
            group: c.group.id,
            group_label: c.group.label,
            role: c.role.as_str(),
            structural: c.structural,
        }
    }
}

/// How far a job is, as the page shows it: the main thread's job or a worker's snapshot of its
/// own (the same fields cross in [`Snapshot`](super::snapshot::Snapshot)).
#[derive(Serialize, Clone, Debug, PartialEq)]
pub(super) struct JobState {
    /// Finished, or stopped at the wait budget: its picture is final.
    pub(super) done: bool,
    pub(super) progress: (usize, usize),
    pub(super) error: Option<String>,
    /// The job was stopped at its time budget (the page offers to keep computing).
    pub(super) stopped: bool,
    /// Seconds the reader has waited for the current job, and the most they wait.
    pub(super) spent_s: f64,
    pub(super) budget_s: f64,
}

impl JobState {
    /// This state, not done yet: the page's picture of it is not whole (its drawing goes on in
    /// the next frame).
    pub(super) fn unfinished(self) -> JobState {
        JobState {
            done: false,
            ..self
        }
    }

    /// A job nothing is known of yet.
    pub(super) fn waiting() -> JobState {
        JobState {
            done: false,
            progress: (0, 0),
            error: None,
            stopped: false,
            spent_s: 0.0,
            budget_s: super::policy::WAIT_BUDGET_MS / 1000.0,
        }
    }
}

/// What [`Lab::frame`](super::Lab::frame) tells the page.
#[derive(Serialize)]
pub(super) struct Status {
    #[serde(flatten)]
    pub(super) state: JobState,
    pub(super) background: bool,
    /// This frame drew the current job's output for the first time.
    pub(super) first_drawing: bool,
    /// The painter worker has not shown the last drawing yet: the picture on screen is older
    /// than the state (the page says it is done only once it has).
    pub(super) painting: bool,
    /// The next frame draws a first drawing, or goes on with one: [`super::Lab::rehearse`]
    /// before it takes the cold costs out of that frame.
    pub(super) rehearse: bool,
}

/// A table of text cells for the page (the core's [`Readout`] or [`Table`]); it also crosses
/// from the view worker inside a [`Snapshot`](super::snapshot::Snapshot).
#[derive(Serialize, Clone, Default)]
pub(super) struct TableOut {
    pub(super) caption: String,
    pub(super) columns: Vec<String>,
    pub(super) rows: Vec<Vec<String>>,
    pub(super) notes: Vec<String>,
    /// What the numbers mean (shown in the text colour; `notes` are warnings).
    pub(super) definitions: Vec<String>,
    pub(super) summary: String,
}

/// The tick labels of one drawn panel, as a reader sees them.
#[derive(Serialize)]
pub(super) struct TicksOut {
    pub(super) x: Vec<String>,
    pub(super) y: Vec<String>,
    pub(super) x_note: Option<String>,
    pub(super) y_note: Option<String>,
}

impl TicksOut {
    pub(super) fn of(t: &PlotTransform) -> TicksOut {
        use friction_plot::ticks::{labels, TickFormat};
        let ((x0, x1), (y0, y1)) = (t.x_range, t.y_range);
        let (nx, ny) = t.n_ticks;
        TicksOut {
            x: if t.x_log {
                Vec::new()
            } else {
                labels(x0, x1, nx)
            },
            y: labels(y0, y1, ny),
            x_note: if t.x_log {
                None
            } else {
                TickFormat::new(x0, x1, nx).note()
            },
            y_note: TickFormat::new(y0, y1, ny).note(),
        }
    }
}
