//! [`ViewJob`]: the view worker's side of a job (`www/view-worker.js` drives it). It runs the
//! page's job in slices between which the worker reads its messages (a newer job replaces this
//! one), and says when a [`Snapshot`](super::snapshot::Snapshot) is worth sending.

use wasm_bindgen::prelude::*;

use super::engine::Engine;
use super::snapshot;
use friction_core::scenario::Scenario;

/// When the first snapshot of a job goes to the page \[ms of computing\]: about when the page
/// stops computing the job itself ([`HANDOFF_MS`](super::HANDOFF_MS)), so its picture goes on
/// growing from there.
const FIRST_SNAPSHOT_MS: f64 = 15.0;

/// The longest gap between two snapshots of a job whose output grows at every unit \[ms\]: a
/// picture that refines ~7 times a second, each costing the page one drawing.
const SNAPSHOT_EVERY_MS: f64 = 150.0;

/// The page's job `id`, computed in the view worker.
#[wasm_bindgen]
pub struct ViewJob {
    engine: Engine,
    id: u32,
    /// Computing time since the last snapshot (or the start) \[ms\].
    since_sent: f64,
    /// Whether a snapshot was sent, and the output version and `done` it carried.
    sent: Option<(Option<usize>, bool)>,
}

#[wasm_bindgen]
impl ViewJob {
    /// The job of `query` (the page's canonical link of its scenario), as the page's job `id`,
    /// for a reader who has waited `waited_ms` for it already (the page computed it until the
    /// worker started): the page's 4 s budget counts from the reader's first wait.
    #[wasm_bindgen(constructor)]
    pub fn new(query: &str, id: u32, waited_ms: f64) -> ViewJob {
        // the page sent a query it already checked: a key it cannot read would also fail there
        let (scenario, _) = Scenario::parse_lenient(query);
        let mut engine = Engine::new(&scenario);
        engine.waited(waited_ms);
        ViewJob {
            engine,
            id,
            since_sent: 0.0,
            sent: None,
        }
    }

    /// The page's number of this job.
    pub fn id(&self) -> u32 {
        self.id
    }

    /// Computes for up to `ms`; returns whether a snapshot is due (the first after
    /// `FIRST_SNAPSHOT_MS`, a new whole piece of output, `SNAPSHOT_EVERY_MS` of refining
    /// or of a first piece in progress, the end or the budget's stop).
    pub fn run(&mut self, ms: f64) -> bool {
        let clock = crate::lab::now;
        let t0 = clock();
        self.engine.compute(ms, true, &clock);
        self.since_sent += clock() - t0;
        let (version, done) = (self.engine.output_version(), self.engine.done());
        match self.sent {
            _ if done => self.sent != Some((version, true)),
            None => self.since_sent >= FIRST_SNAPSHOT_MS,
            // whole runs: each as it ends, and the first in progress until then
            Some((v, _)) if version.is_some() => {
                v != version || (self.since_sent >= SNAPSHOT_EVERY_MS && !self.engine.has_output())
            }
            Some(_) => self.since_sent >= SNAPSHOT_EVERY_MS,
        }
    }

    /// Finished, or stopped at the wait budget.
    pub fn done(&self) -> bool {
        self.engine.done()
    }

    /// The job now: `{nums, texts}` (`nums` a `Float64Array` to transfer; see
    /// `lab/snapshot.rs`).
    pub fn snapshot(&mut self) -> JsValue {
        // a job that shows only whole runs (a robot run, the first stick-slip run) shows the
        // one in progress meanwhile, so the reader sees it grow rather than nothing for a second
        let peek = !self.engine.done() && !self.engine.has_output();
        if peek {
            self.engine.peek(true);
        }
        let w = snapshot::encode(&self.engine, self.id);
        if peek {
            self.engine.peek(false);
        }
        self.since_sent = 0.0;
        self.sent = Some((self.engine.output_version(), self.engine.done()));
        w.to_js()
    }

    /// The job's data as the CLI writes them (the page's CSV export of a job it shows from
    /// here); throws while the job still computes.
    pub fn csv(&self) -> Result<String, JsError> {
        if self.engine.done() {
            Ok(self.engine.csv())
        } else {
            Err(JsError::new(
                "the data are still being computed: export them when the plot is finished",
            ))
        }
    }

    /// "Keep computing" on a job stopped at its budget.
    #[wasm_bindgen(js_name = keepComputing)]
    pub fn keep_computing(&mut self) {
        if self.engine.keep_computing() {
            self.sent = None;
            self.since_sent = FIRST_SNAPSHOT_MS;
        }
    }
}
