//! [`Engine`]: one job advanced against a reader's wait budget, and its panels built once per
//! output. The page runs it twice over: on the main thread for a job's first few milliseconds
//! (a slider's first picture in the frame of the input), and in the view worker to its end
//! (`ViewJob`, `www/view-worker.js`), so that no computation a link starts blocks input.

use friction_core::job::{Failed, Job, Output};
use friction_core::scenario::Scenario;
use friction_plot::panels::panels_memo;
use friction_plot::stickslip::ThinMemo;
use friction_plot::{ChartSpec, Series};
use std::cell::RefCell;
use std::rc::Rc;

use super::policy::WaitBudget;
use super::wire::{JobState, TableOut};

/// The panels (chart, legend) of one output.
pub(crate) type Panels = Vec<(ChartSpec, Vec<Series>)>;

/// Panels built from the job's output, kept while that output cannot change.
struct Built {
    /// [`Job::output_version`] and whether the job was finished (or stopped) when built.
    version: Option<usize>,
    done: bool,
    panels: Rc<Panels>,
}

/// What one call of [`Engine::compute`] did.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Computed {
    /// At least one unit of work ran.
    pub(crate) any: bool,
    /// The wait budget ran out in this call: the job is held where it was.
    pub(crate) just_stopped: bool,
}

/// A scenario's job, how long its reader has waited, and its panels.
pub(crate) struct Engine {
    job: Box<dyn Job>,
    /// The view's caption, for the readout table.
    caption: &'static str,
    wait: WaitBudget,
    /// Why the job was stopped before its end (its budget was spent).
    stopped: Option<String>,
    /// The last panels built: redraws, hover read-outs and exports of a finished long run
    /// reuse them (thinning 10⁶-step runs for six panels takes ~100 ms in wasm).
    built: RefCell<Option<Built>>,
    /// Long runs thinned once for the panels (cleared with `built`, when runs may go).
    memo: RefCell<ThinMemo>,
}

impl Engine {
    /// The scenario's job (or one that says why it cannot run), with a fresh budget.
    pub(crate) fn new(s: &Scenario) -> Engine {
        Engine {
            job: s.job().unwrap_or_else(|e| Box::new(Failed(e.to_string()))),
            caption: s.view().caption,
            wait: WaitBudget::default(),
            stopped: None,
            built: RefCell::new(None),
            memo: RefCell::default(),
        }
    }

    /// Advances the job for up to `budget_ms` (nothing when `work` is false), then counts the
    /// reader's wait since the previous call, which started at `t0` \[ms\] on `clock`; a spent
    /// wait budget stops the job with a message saying what to change.
    pub(crate) fn compute(
        &mut self,
        budget_ms: f64,
        work: bool,
        clock: &dyn Fn() -> f64,
    ) -> Computed {
        let t0 = clock();
        let mut out = Computed::default();
        while work && !self.job.done() && self.stopped.is_none() {
            self.job.advance(clock);
            out.any = true;
            if clock() - t0 >= budget_ms {
                break;
            }
        }
        out.just_stopped = self.stopped.is_none() && !self.job.done() && self.wait.wait(t0, clock);
        if out.just_stopped {
            // the picture shows every step computed, a run in progress included
            self.job.hold(true);
            self.forget_panels();
            let (finished, total) = self.job.progress();
            self.stopped = Some(
                self.wait
                    .stop_message(finished, total, &self.job.budget_hint()),
            );
        }
        out
    }

    /// Finished, or stopped at its budget: either way its picture is final.
    pub(crate) fn done(&self) -> bool {
        self.job.done() || self.stopped.is_some()
    }

    /// How far the job is, as the page shows it.
    pub(crate) fn state(&self) -> JobState {
        JobState {
            done: self.done(),
            progress: self.job.progress(),
            // the job's error and the budget stop's message, one sentence after the other
            error: match (self.job.error(), &self.stopped) {
                (Some(e), Some(s)) => Some(format!("{e} {s}")),
                (e, s) => e.or_else(|| s.clone()),
            },
            stopped: self.stopped.is_some(),
            spent_s: self.wait.spent_s(),
            budget_s: self.wait.budget_s(),
        }
    }

    /// (finished, total) units of the job.
    pub(crate) fn progress(&self) -> (usize, usize) {
        self.job.progress()
    }

    /// [`Job::output_version`].
    pub(crate) fn output_version(&self) -> Option<usize> {
        self.job.output_version()
    }

    /// Counts `ms` the reader waited for this job elsewhere (on the page, before the worker
    /// took it).
    pub(crate) fn waited(&mut self, ms: f64) {
        self.wait.waited(ms);
    }

    /// Milliseconds the reader has waited.
    pub(crate) fn waited_ms(&self) -> f64 {
        self.wait.spent_s() * 1000.0
    }

    /// "Keep computing": resumes a job stopped at its budget with more time; whether it was
    /// stopped.
    pub(crate) fn keep_computing(&mut self) -> bool {
        if self.stopped.take().is_none() {
            return false;
        }
        self.job.hold(false);
        self.forget_panels();
        self.wait.grant_more();
        true
    }

    /// Whether the job has output to draw (a job drawing whole runs has none until its first
    /// run ends).
    pub(crate) fn has_output(&self) -> bool {
        !matches!(self.job.output(), Output::Empty)
    }

    /// Shows the run in progress too (`Job::hold`), or goes back to whole runs.
    pub(crate) fn peek(&mut self, on: bool) {
        if self.stopped.is_none() {
            self.job.hold(on);
            self.forget_panels();
        }
    }

    /// Drops the built panels and thinned runs: the runs they show change.
    pub(crate) fn forget_panels(&self) {
        self.built.replace(None);
        self.memo.borrow_mut().clear();
    }

    /// Every panel of the job's current output, built once while that output stays the same
    /// (a finished or stopped job; an unchanged [`Job::output_version`]).
    pub(crate) fn panels(&self) -> Rc<Panels> {
        let done = self.done();
        let version = self.job.output_version();
        if let Some(b) = self.built.borrow().as_ref() {
            if (b.done && done) || (b.done == done && version.is_some() && b.version == version) {
                return Rc::clone(&b.panels);
            }
        }
        let panels = Rc::new(panels_memo(&self.job.output(), &mut self.memo.borrow_mut()));
        self.built.replace(Some(Built {
            version,
            done,
            panels: Rc::clone(&panels),
        }));
        panels
    }

    /// The numbers beside the plot, as the page shows them.
    pub(crate) fn readout(&self) -> TableOut {
        let r = self.job.readout();
        TableOut {
            caption: self.caption.to_string(),
            columns: r.columns,
            rows: r.rows,
            notes: r.notes,
            definitions: r.definitions,
            // read aloud by the live region and the plot's label: numbers and units in words
            summary: friction_plot::readout::spoken(&r.summary),
        }
    }

    /// The view's second table (empty in views without one).
    pub(crate) fn timings(&self) -> TableOut {
        let t = self.job.timings().unwrap_or_default();
        TableOut {
            caption: t.caption,
            columns: t.columns,
            rows: t.rows,
            notes: Vec::new(),
            definitions: Vec::new(),
            summary: String::new(),
        }
    }

    /// The job's data as the CLI writes it.
    pub(crate) fn csv(&self) -> String {
        self.job.csv(false)
    }
}
