//! The view worker as `Lab` sees it: what the page's wiring sends it ([`Lab::take_request`]),
//! what comes back ([`Lab::receive`]), and when the worker's picture takes over from the main
//! thread's own computing ([`Lab::hand_over`]).
//!
//! A child of `lab`: the wiring is `www/app.js`'s `ViewWorker`, the worker `www/view-worker.js`
//! running [`ViewJob`](super::ViewJob)s.

use super::*;

/// The view worker as the page sees it: which job it was asked for and what it sent back.
#[derive(Default)]
pub(super) struct Remote {
    /// The page's number of the current job; snapshots of others are stale.
    pub(super) id: u32,
    /// A request not yet handed to the page's worker wiring ([`Lab::take_request`]).
    pub(super) outbox: Option<Request>,
    /// The last snapshot received (shown only while it is of the current job: until then the
    /// main thread computes and draws the new job itself).
    pub(super) snap: Option<Snapshot>,
    /// Snapshots received, counting: which one was drawn last.
    pub(super) seq: usize,
    /// The current job finished on the main thread and the worker was told to stop it.
    pub(super) cancelled: bool,
}

impl Remote {
    /// The last snapshot, if it is of the current job.
    pub(super) fn current(&self) -> Option<&Snapshot> {
        self.snap.as_ref().filter(|s| s.id == self.id)
    }
}

/// What the page's wiring sends to the view worker.
#[derive(Serialize, Clone, Debug, PartialEq)]
#[serde(tag = "op", rename_all = "lowercase")]
pub(super) enum Request {
    /// Computes the link `query` as job `id` (the job it had goes).
    Job {
        id: u32,
        query: String,
        /// How long the reader has waited for it already \[ms\].
        waited_ms: f64,
    },
    /// "Keep computing" for job `id`.
    More { id: u32 },
    /// Job `id` is finished on the page: the worker stops computing it.
    Cancel { id: u32 },
}

#[wasm_bindgen]
impl Lab {
    /// Runs jobs in a view worker from now on (the page's wiring sends what
    /// [`Lab::take_request`] returns and hands back what the worker sends to
    /// [`Lab::receive`]): the main thread then computes a job for its first `HANDOFF_MS` (24 ms)
    /// only, and draws.
    #[wasm_bindgen(js_name = useWorker)]
    pub fn use_worker(&mut self) {
        if self.remote.is_none() {
            // a job running here goes on until the worker's answer has caught up with it
            let running = self.here.as_ref().filter(|e| !e.done());
            self.remote = Some(Remote {
                id: 1,
                outbox: running.map(|e| Request::Job {
                    id: 1,
                    query: self.scenario.to_query(),
                    waited_ms: e.waited_ms(),
                }),
                ..Remote::default()
            });
        }
    }

    /// The view worker failed (it could not start, or stopped): every job runs on the main
    /// thread again, the current one from its start.
    #[wasm_bindgen(js_name = workerGone)]
    pub fn worker_gone(&mut self) {
        if self.remote.take().is_some() {
            self.new_job();
        }
    }

    /// What the page's wiring should send to the view worker now: `{op: "job", id, query}`,
    /// `{op: "more", id}`, `{op: "cancel", id}`, or `null`.
    #[wasm_bindgen(js_name = takeRequest)]
    pub fn take_request(&mut self) -> JsValue {
        // a job this frame finished is not sent, or is stopped in the worker
        self.hand_over();
        match self.remote.as_mut().and_then(|r| r.outbox.take()) {
            Some(r) => to_js(&r),
            None => JsValue::NULL,
        }
    }

    /// A snapshot from the view worker (`nums` and `texts` as `ViewJob::snapshot` made them).
    /// Returns whether it is of the current job (a stale one is dropped); one that does not
    /// read throws and changes nothing.
    pub fn receive(&mut self, nums: Vec<f64>, texts: Vec<String>) -> Result<bool, JsError> {
        let Some(r) = self.remote.as_mut() else {
            return Ok(false);
        };
        let snap = snapshot::decode(&nums, texts)
            .map_err(|e| JsError::new(&format!("a view worker's snapshot did not read: {e}")))?;
        if snap.id != r.id {
            return Ok(false);
        }
        r.snap = Some(snap);
        r.seq += 1;
        Ok(true)
    }
}

impl Lab {
    /// Hands the job over to the worker's picture once the main thread has computed its share
    /// and the worker's snapshot is as far (or done); tells the worker to stop a job the main
    /// thread finished first.
    pub(super) fn hand_over(&mut self) {
        let (Some(e), Some(r)) = (self.here.as_ref(), self.remote.as_mut()) else {
            return;
        };
        if e.done() {
            // finished here: the worker's work on it is not needed
            if !r.cancelled {
                r.cancelled = true;
                r.outbox = match r.outbox {
                    Some(Request::Job { .. }) => None, // never sent: nothing to stop
                    _ => Some(Request::Cancel { id: r.id }),
                };
            }
            return;
        }
        // the worker's finished job is final at once; a running one once the main thread has
        // had its share (or has nothing to show: a job of whole runs) and the worker is as far
        let (caught_up, finished, shows) = r.current().map_or((false, false, false), |s| {
            let caught_up = s.state.done || s.state.progress.0 >= e.progress().0;
            (caught_up, s.state.done, !s.panels.is_empty())
        });
        let share_done = self.here_ms >= HANDOFF_MS || (shows && !e.has_output());
        if finished || (share_done && caught_up) {
            self.here = None;
            self.forget_panels();
            // the worker's picture is another output: drawn afresh
            self.drawn_output = None;
        }
    }
}
