//! The cockpit's history in the ledger. The event loop hands the [`Recorder`] each event before
//! `update` takes it ([`Recorder::saw`]) and the state after each burst
//! ([`Recorder::after_update`]); the recorder turns clock ticks into minute buckets and forwards
//! them, with inventories, actions and warnings, to a [`LedgerWriter`] thread. It only reads
//! the state: what it has to say (the ledger failed) comes back as [`Event::Ledger`]s for
//! `update`.
//!
//! Nothing here waits on the disk: the ledger is opened (and compacted) on a thread of its own,
//! sessions start on the writer's thread, and their answers are picked up with `try_recv`.
//! Costs are differences of the meter's running total, so ticks missed while the ledger opens
//! lose no money: the first minute takes in everything since the ledger last recorded.

use gpumeter_core::traffic::{EgressSplit, counter_since};
use std::path::PathBuf;
use std::sync::mpsc::{Receiver, Sender, channel};
use std::time::Duration;

use jiff::{SignedDuration, Timestamp};

use crate::app::{App, Event, LEDGER_PREFIX, Level, WATCHDOG_PREFIX};
use crate::guard::{IdleRule, IdleTracker};
use crate::ledger::{
    EventLevel, EventRecord, GpuPoint, Ledger, LedgerWriter, MinuteAggregator, Notice, Retention,
    SessionId, Tick,
};
use crate::meter::Breakdown;
use crate::money::Currency;
use crate::provider::{Action, ActionReport, ProviderError};

/// An unchanged inventory is recorded again after this long (its resources' `last_seen`).
pub const INVENTORY_EVERY: SignedDuration = SignedDuration::from_mins(5);
/// How often old minute buckets are rolled up while the cockpit runs (and once at start).
pub const COMPACT_EVERY: SignedDuration = SignedDuration::from_hours(24);
/// At quit, how long to wait for a session the writer is starting.
const CLOSE_WAIT: Duration = Duration::from_secs(2);

mod rows;
use rows::{InventoryGate, action_event, fingerprint, open, session_start};

type Opening = Receiver<Result<LedgerWriter, OpenError>>;

/// Why the cockpit's ledger could not be opened for recording.
#[derive(Debug, thiserror::Error)]
enum OpenError {
    #[error(transparent)]
    Ledger(#[from] crate::ledger::LedgerError),
    #[error("cannot start its writer: {0}")]
    Writer(std::io::Error),
    #[error("cannot start a thread to open it: {0}")]
    Thread(std::io::Error),
    #[error("the thread opening it stopped")]
    ThreadStopped,
}
// A `String` error: the opening thread's failure, said once in the events; the session is
// then not recorded, whatever the cause.
type Starting = Receiver<Result<(SessionId, Option<Breakdown>), String>>;

struct Session {
    id: SessionId,
    instance: String,
    minutes: MinuteAggregator,
}

/// Feeds the ledger from the event loop. See the module docs.
pub struct Recorder {
    opening: Option<Opening>,
    writer: Option<LedgerWriter>,
    starting: Option<(String, Currency, Starting)>,
    session: Option<Session>,
    notices: Receiver<Notice>,
    notice_tx: Sender<Notice>,
    idle: IdleTracker,
    /// Reused each tick: no allocation per tick once the GPU count is known.
    points: Vec<GpuPoint>,
    last_tick: Option<Timestamp>,
    last_idle: bool,
    last_accrued: Option<Breakdown>,
    last_tx: Option<u64>,
    last_split: Option<EgressSplit>,
    /// Egress counted before the session started; it goes into the first tick.
    egress_pending: u64,
    split_pending: EgressSplit,
    seen_log: u64,
    answers: Vec<(Action, Result<ActionReport, ProviderError>)>,
    inventory_arrived: bool,
    gate: InventoryGate,
    next_compact: Option<Timestamp>,
    /// A write failed and was said; the next failure is said again only after a commit.
    failing: bool,
    /// What the ledger's failures have to say, until the loop takes them to `update`.
    notes: Vec<String>,
}

impl Recorder {
    /// Starts opening the ledger at `path` on a thread of its own; `None` records nothing.
    pub fn start(path: Option<PathBuf>, idle: IdleRule) -> Recorder {
        let (notice_tx, notices) = channel();
        let opening = path.map(|p| open(p, notice_tx.clone(), Timestamp::now()));
        Recorder {
            opening,
            writer: None,
            starting: None,
            session: None,
            notices,
            notice_tx,
            idle: IdleTracker::new(idle),
            points: Vec::new(),
            last_tick: None,
            last_idle: false,
            last_accrued: None,
            last_tx: None,
            last_split: None,
            egress_pending: 0,
            split_pending: EgressSplit::default(),
            seen_log: 0,
            answers: Vec::new(),
            inventory_arrived: false,
            gate: InventoryGate::default(),
            next_compact: None,
            failing: false,
            notes: Vec::new(),
        }
    }

    /// Whether the ledger is open and a session is recording minutes.
    pub fn recording(&self) -> Option<SessionId> {
        self.session.as_ref().map(|s| s.id)
    }

    fn off(&self) -> bool {
        self.opening.is_none() && self.writer.is_none()
    }

    /// Keeps what `update` consumes and the ledger needs: the provider's answers.
    pub fn saw(&mut self, event: &Event) {
        if self.off() {
            return;
        }
        match event {
            Event::ActionDone { action, result } => {
                self.answers.push((action.clone(), result.clone()));
            }
            Event::Inventory(Ok(_)) => self.inventory_arrived = true,
            _ => {}
        }
    }

    /// Follows the state after a burst of updates. O(1) per tick, plus what is new. Returns
    /// what the ledger's failures have to say, for `update`.
    pub fn after_update(&mut self, app: &App) -> Vec<Event> {
        self.follow(app);
        self.notes.drain(..).map(Event::Ledger).collect()
    }

    fn follow(&mut self, app: &App) {
        self.poll_open();
        self.poll_notices();
        if self.writer.is_none() {
            return;
        }
        self.poll_session(app);
        if self.last_tick != Some(app.now) {
            self.tick(app);
        }
        if self.starting.is_none() {
            self.record_answers(app);
            self.follow_log(app);
            self.record_inventory(app);
        }
    }

    fn poll_open(&mut self) {
        let Some(rx) = &self.opening else { return };
        let result = match rx.try_recv() {
            Ok(result) => result,
            Err(std::sync::mpsc::TryRecvError::Empty) => return,
            Err(std::sync::mpsc::TryRecvError::Disconnected) => Err(OpenError::ThreadStopped),
        };
        self.opening = None;
        match result {
            Ok(writer) => self.writer = Some(writer),
            Err(e) => self.stop(&e.to_string()),
        }
    }

    fn poll_notices(&mut self) {
        while let Ok(notice) = self.notices.try_recv() {
            match notice {
                Notice::Committed { .. } => self.failing = false,
                Notice::Failed(e) if !self.failing => {
                    self.failing = true;
                    self.notes.push(e.to_string());
                }
                Notice::Failed(_) => {}
            }
        }
    }

    /// Says why nothing more is recorded, once, and lets go of the ledger.
    fn stop(&mut self, why: &str) {
        self.notes
            .push(crate::t!("record-stopped", why = why.to_string()));
        self.opening = None;
        self.writer = None;
        self.starting = None;
        self.session = None;
        self.answers.clear();
    }

    /// Starts a session once the inventory names the instance (again if it names another).
    fn poll_session(&mut self, app: &App) {
        if let Some((instance, currency, rx)) = &self.starting {
            match rx.try_recv() {
                Ok(Ok((id, baseline))) => {
                    let (instance, currency) = (instance.clone(), *currency);
                    self.starting = None;
                    self.begin(instance, currency, id, baseline);
                }
                Ok(Err(e)) => {
                    self.stop(&crate::t!("record-no-session", error = e.as_str()));
                }
                Err(std::sync::mpsc::TryRecvError::Empty) => {}
                Err(std::sync::mpsc::TryRecvError::Disconnected) => {
                    self.stop(&crate::t!("record-writer-stopped"));
                }
            }
            return;
        }
        let Some(info) = app
            .cloud
            .inventory
            .as_ref()
            .and_then(|i| i.instance.as_ref())
        else {
            return;
        };
        if self.session.as_ref().is_some_and(|s| s.instance == info.id) {
            return;
        }
        self.end_session(app.now);
        let start = session_start(app, info);
        let (instance, currency) = (start.instance.clone(), start.currency);
        let (tx, rx) = channel();
        let job = self.writer.as_ref().map(|w| {
            w.run(move |ledger: &mut Ledger| {
                let result = ledger
                    .recorded_cost(&start.instance, start.currency)
                    .and_then(|base| ledger.start_session(&start).map(|id| (id, base)));
                let _ = tx.send(result.map_err(|e| e.to_string()));
            })
        });
        match job {
            Some(Ok(())) => {
                self.gate = InventoryGate::default();
                self.starting = Some((instance, currency, rx));
            }
            _ => self.stop(&crate::t!("record-writer-stopped")),
        }
    }

    /// The first minute takes in what accrued since the ledger last recorded this instance
    /// (all of it for an instance it never saw).
    fn begin(
        &mut self,
        instance: String,
        currency: Currency,
        id: SessionId,
        recorded: Option<Breakdown>,
    ) {
        let base = recorded.unwrap_or_else(|| Breakdown::zero(currency));
        self.session = Some(Session {
            id,
            instance,
            minutes: MinuteAggregator::new(id, currency, Some(&base)),
        });
    }

    fn tick(&mut self, app: &App) {
        self.last_tick = Some(app.now);
        let tx = app
            .telemetry
            .host
            .as_ref()
            .map(crate::telemetry::HostSample::tx_bytes_total);
        let egress = match (self.last_tx, tx) {
            (Some(last), Some(now)) => counter_since(last, now),
            _ => 0,
        };
        self.last_tx = tx.or(self.last_tx);
        let split = app.telemetry.host.as_ref().map(|h| h.egress_split_total);
        let mut split_since = match (self.last_split, split) {
            (Some(last), Some(now)) => now.since(last),
            _ => EgressSplit::default(),
        };
        self.last_split = split.or(self.last_split);
        let Some(session) = self.session.as_mut() else {
            self.egress_pending = self.egress_pending.saturating_add(egress);
            self.split_pending.merge(split_since);
            return;
        };
        split_since.merge(std::mem::take(&mut self.split_pending));
        self.points.clear();
        if let Some(Ok(reading)) = &app.telemetry.gpus {
            self.points
                .extend(reading.gpus.iter().map(GpuPoint::from_sample));
        }
        let idle = match (&app.telemetry.gpus, &app.telemetry.host) {
            (Some(gpus), Some(host)) => self.idle.sample_is_idle(gpus, host),
            _ => false,
        };
        let accrued = app.spend.reading.as_ref().map(|r| &r.accrual.accrued);
        let tick = Tick {
            at: app.now,
            accrued,
            gpus: &self.points,
            egress_bytes: egress.saturating_add(std::mem::take(&mut self.egress_pending)),
            egress_split: split_since,
            egress_accrued: app.spend.reading.as_ref().map(|r| &r.accrual.egress),
            idle,
        };
        let done = session.minutes.push(&tick);
        self.last_idle = idle;
        self.last_accrued = accrued.copied();
        if let (Some(bucket), Some(w)) = (done, &self.writer) {
            let _ = w.record_minute(bucket);
        }
        self.compact_now_and_then(app.now);
    }

    fn compact_now_and_then(&mut self, now: Timestamp) {
        let due = *self.next_compact.get_or_insert(now + COMPACT_EVERY);
        if now < due {
            return;
        }
        self.next_compact = Some(now + COMPACT_EVERY);
        let notices = self.notice_tx.clone();
        if let Some(w) = &self.writer {
            let _ = w.run(move |ledger| {
                if let Err(e) = ledger.compact(now, &Retention::default()) {
                    let _ = notices.send(Notice::Failed(e));
                }
            });
        }
    }

    fn record_answers(&mut self, app: &App) {
        for (action, result) in std::mem::take(&mut self.answers) {
            let event = action_event(app.now, &action, &result);
            self.send_event(event);
        }
    }

    /// Warnings and errors logged since the last look become alerts. The lines `update` logs
    /// for an action's answer are left out: the action event holds them.
    fn follow_log(&mut self, app: &App) {
        let new = app.logged.saturating_sub(self.seen_log);
        self.seen_log = app.logged;
        let n = usize::try_from(new)
            .unwrap_or(usize::MAX)
            .min(app.events.len());
        for entry in app.events.range(app.events.len() - n..) {
            let level = match entry.level {
                Level::Warn => EventLevel::Warn,
                Level::Error => EventLevel::Error,
                Level::Info | Level::Done => continue,
            };
            // The ledger's own failures, and the watchdog's events read back from it.
            if entry.text.starts_with(LEDGER_PREFIX) || entry.text.starts_with(WATCHDOG_PREFIX) {
                continue;
            }
            self.send_event(EventRecord::alert(entry.at, level, entry.text.clone()));
        }
    }

    fn send_event(&self, event: EventRecord) {
        let event = match &self.session {
            Some(s) => event.in_session(s.id, s.instance.clone()),
            None => event,
        };
        if let Some(w) = &self.writer {
            let _ = w.record_event(event);
        }
    }

    fn record_inventory(&mut self, app: &App) {
        let (Some(session), Some(inventory)) = (&self.session, &app.cloud.inventory) else {
            return;
        };
        if !std::mem::take(&mut self.inventory_arrived) && self.gate.last.is_some() {
            return;
        }
        if self.gate.due(app.now, fingerprint(inventory))
            && let Some(w) = &self.writer
        {
            let _ = w.record_inventory(session.id, inventory.clone(), app.now);
        }
    }

    /// Closes the minute in progress and the session.
    fn end_session(&mut self, at: Timestamp) {
        let Some(mut session) = self.session.take() else {
            return;
        };
        let Some(w) = &self.writer else { return };
        if let Some(bucket) = session.minutes.finish() {
            let _ = w.record_minute(bucket);
        }
        let _ = w.end_session(session.id, at);
    }

    /// At quit: records the last burst, an action still waiting for its answer, the last
    /// minute, ends the session and waits for the writer to commit.
    /// Returns what the ledger's failures had to say, as [`Recorder::after_update`] does.
    pub fn close(mut self, app: &App) -> Vec<Event> {
        self.follow(app);
        if let Some((instance, currency, rx)) = self.starting.take()
            && let Ok(Ok((id, base))) = rx.recv_timeout(CLOSE_WAIT)
        {
            self.begin(instance, currency, id, base);
            self.last_tick = None;
            self.tick(app);
            self.record_answers(app);
            self.follow_log(app);
            self.record_inventory(app);
        }
        let accrued = app.spend.reading.as_ref().map(|r| &r.accrual.accrued);
        if let Some(session) = self.session.as_mut()
            && accrued.copied() != self.last_accrued
        {
            // The reading moved without a tick (a late inventory): the last minute takes it.
            let _ = session.minutes.push(&Tick {
                at: app.now,
                accrued,
                gpus: &[],
                egress_bytes: 0,
                egress_split: EgressSplit::default(),
                egress_accrued: app.spend.reading.as_ref().map(|r| &r.accrual.egress),
                idle: self.last_idle,
            });
        }
        if let Some((action, _)) = &app.cloud.running {
            let unanswered = Err(ProviderError::unreachable(
                &app.cloud.provider,
                crate::t!("record-no-answer-before-quit"),
            ));
            self.send_event(action_event(app.now, action, &unanswered));
        }
        self.end_session(app.now);
        if let Some(w) = self.writer.take() {
            let _ = w.close();
        }
        std::mem::take(&mut self.notes)
            .into_iter()
            .map(Event::Ledger)
            .collect()
    }
}

impl Drop for Recorder {
    fn drop(&mut self) {
        if let Some(at) = self.last_tick {
            self.end_session(at);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::i18n::{Lang, scoped};

    #[test]
    fn why_the_history_stopped_is_said_in_the_users_language() {
        let said = |lang| {
            scoped(lang, || {
                let mut r = Recorder::start(None, IdleRule::default());
                r.stop(&crate::t!("record-writer-stopped"));
                std::mem::take(&mut r.notes)
            })
        };
        assert_eq!(
            said(Lang::En),
            ["the writer stopped; this run's spend history is not recorded"]
        );
        assert_eq!(
            said(Lang::ZhCn),
            ["写入线程已停止；本次运行的花费历史不会被记录"]
        );
    }
}
