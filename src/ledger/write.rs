//! [`LedgerWriter`]: a thread that owns the [`Ledger`] and batches writes, so nothing on the
//! render path ever waits on the disk.
//!
//! Sends never block (an unbounded channel carries about one message a minute). The thread
//! commits one transaction per minute bucket (so one a minute), and at once for an event;
//! inventories wait for the next commit. Everything queued when it wakes goes in one
//! transaction. What happened comes back through the `on_notice` callback, on the writer's
//! thread: forward it to the event loop (a tokio `UnboundedSender::send` does not block).

use std::sync::mpsc::{Receiver, Sender, channel};
use std::thread::JoinHandle;

use jiff::Timestamp;

use super::error::LedgerError;
use super::insert::Batch;
use super::record::{EventId, EventRecord, MinuteBucket, SessionId};
use super::store::Ledger;
use crate::provider::Inventory;

/// Rows kept for a retry while the file is busy; past that the oldest minutes are dropped.
const MAX_PENDING_MINUTES: usize = 24 * 60;

/// What the writer thread reports.
#[derive(Debug)]
pub enum Notice {
    /// A transaction committed: the events' ids, in the order they were sent.
    Committed {
        events: Vec<EventId>,
        minutes: usize,
    },
    /// A write failed. Busy writes are kept and retried with the next commit; others are
    /// dropped (they would fail again).
    Failed(LedgerError),
}

type Job = Box<dyn FnOnce(&mut Ledger) + Send>;

enum Msg {
    Minute(MinuteBucket),
    Event(EventRecord),
    Inventory(SessionId, Inventory, Timestamp),
    EndSession(SessionId, Timestamp),
    Run(Job),
    Flush,
}

/// The cockpit's handle on the writer thread. Dropping it flushes and joins the thread.
pub struct LedgerWriter {
    tx: Option<Sender<Msg>>,
    thread: Option<JoinHandle<Ledger>>,
}

impl LedgerWriter {
    /// Moves `ledger` to a new thread named `gpumeter-ledger`.
    pub fn spawn(
        ledger: Ledger,
        on_notice: impl FnMut(Notice) + Send + 'static,
    ) -> std::io::Result<LedgerWriter> {
        let (tx, rx) = channel();
        let thread = std::thread::Builder::new()
            .name("gpumeter-ledger".into())
            .spawn(move || run(ledger, &rx, on_notice))?;
        Ok(LedgerWriter {
            tx: Some(tx),
            thread: Some(thread),
        })
    }

    /// Queues a finished minute; it commits (with anything else queued) right away.
    pub fn record_minute(&self, bucket: MinuteBucket) -> Result<(), LedgerError> {
        self.send(Msg::Minute(bucket))
    }

    /// Queues an event; it commits right away and its id comes back in a
    /// [`Notice::Committed`].
    pub fn record_event(&self, event: EventRecord) -> Result<(), LedgerError> {
        self.send(Msg::Event(event))
    }

    /// Queues an inventory; it commits with the next minute or event.
    pub fn record_inventory(
        &self,
        session: SessionId,
        inventory: Inventory,
        at: Timestamp,
    ) -> Result<(), LedgerError> {
        self.send(Msg::Inventory(session, inventory, at))
    }

    /// Commits what is queued, then closes the session at `at`.
    pub fn end_session(&self, session: SessionId, at: Timestamp) -> Result<(), LedgerError> {
        self.send(Msg::EndSession(session, at))
    }

    /// Commits what is queued now.
    pub fn flush(&self) -> Result<(), LedgerError> {
        self.send(Msg::Flush)
    }

    /// Runs `job` on the writer thread after what is queued has committed: guard-state
    /// changes, [`Ledger::compact`](super::Ledger::compact). Send results back through a
    /// channel of your own.
    pub fn run(&self, job: impl FnOnce(&mut Ledger) + Send + 'static) -> Result<(), LedgerError> {
        self.send(Msg::Run(Box::new(job)))
    }

    /// Commits what is queued, stops the thread and gives the ledger back.
    pub fn close(mut self) -> Option<Ledger> {
        self.tx = None;
        self.thread.take().and_then(|t| t.join().ok())
    }

    fn send(&self, msg: Msg) -> Result<(), LedgerError> {
        self.tx
            .as_ref()
            .and_then(|tx| tx.send(msg).ok())
            .ok_or(LedgerError::WriterGone)
    }
}

impl Drop for LedgerWriter {
    fn drop(&mut self) {
        self.tx = None;
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

fn run(mut ledger: Ledger, rx: &Receiver<Msg>, mut on_notice: impl FnMut(Notice)) -> Ledger {
    let mut pending = Batch::default();
    while let Ok(first) = rx.recv() {
        let mut commit = false;
        let mut after: Vec<Msg> = Vec::new();
        for msg in std::iter::once(first).chain(rx.try_iter()) {
            match msg {
                Msg::Minute(b) => {
                    pending.minutes.push(b);
                    commit = true;
                }
                Msg::Event(e) => {
                    pending.events.push(e);
                    commit = true;
                }
                Msg::Inventory(s, i, at) => pending.inventories.push((s, i, at)),
                Msg::Flush => commit = true,
                later @ (Msg::EndSession(..) | Msg::Run(_)) => {
                    after.push(later);
                    commit = true;
                }
            }
        }
        if commit {
            flush(&mut ledger, &mut pending, &mut on_notice);
        }
        for msg in after {
            match msg {
                Msg::EndSession(s, at) => {
                    if let Err(e) = ledger.end_session(s, at) {
                        on_notice(Notice::Failed(e));
                    }
                }
                Msg::Run(job) => job(&mut ledger),
                _ => {}
            }
        }
    }
    flush(&mut ledger, &mut pending, &mut on_notice);
    ledger
}

fn flush(ledger: &mut Ledger, pending: &mut Batch, on_notice: &mut impl FnMut(Notice)) {
    if pending.is_empty() {
        return;
    }
    match ledger.write(pending) {
        Ok(events) => {
            let minutes = pending.minutes.len();
            *pending = Batch::default();
            on_notice(Notice::Committed { events, minutes });
        }
        Err(e) => {
            if matches!(e, LedgerError::Busy { .. }) {
                let excess = pending.minutes.len().saturating_sub(MAX_PENDING_MINUTES);
                pending.minutes.drain(..excess);
            } else {
                *pending = Batch::default();
            }
            on_notice(Notice::Failed(e));
        }
    }
}
