//! The cockpit's whole state: plain data that `update` changes and the UI only reads.

use std::collections::VecDeque;

use jiff::{SignedDuration, Timestamp};

use super::confirm::{Choice, Confirm};
use super::deadline::Deadline;
use super::details::Details;
use crate::cloud::{Action, Capabilities, Inventory, ProviderError, Severity};
use crate::guard::OnExpiry;
use crate::spend::Spend;
use crate::telemetry::{
    CudaVersion, Finding, GpuRound, HistoryConfig, HostSample, TelemetryHistory,
};

/// The most alert and event lines kept; older ones fall off.
pub const EVENT_LOG_LEN: usize = 500;

/// Which panel has the keyboard.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Focus {
    Gpus,
    Cost,
    Resources,
    Events,
}

impl Focus {
    pub const ORDER: [Focus; 4] = [Focus::Gpus, Focus::Cost, Focus::Resources, Focus::Events];

    #[must_use]
    pub fn next(self) -> Focus {
        let i = Focus::ORDER.iter().position(|p| *p == self).unwrap_or(0);
        Focus::ORDER[(i + 1) % Focus::ORDER.len()]
    }

    #[must_use]
    pub fn prev(self) -> Focus {
        let i = Focus::ORDER.iter().position(|p| *p == self).unwrap_or(0);
        Focus::ORDER[(i + Focus::ORDER.len() - 1) % Focus::ORDER.len()]
    }
}

/// What has the screen: the main view or an overlay on top of it.
#[derive(Debug, Clone, PartialEq)]
pub enum Mode {
    Main,
    Help,
    Confirm(Confirm),
    /// Typing a duration for `E` (extend by ...).
    Prompt {
        input: String,
        error: Option<String>,
        /// A duration above [`super::deadline::ASK_ABOVE`] waiting for `y` once more.
        asking: Option<SignedDuration>,
    },
    /// The selected linked resource's details (`Enter`).
    Details(Details),
    /// The guard row already holds another deadline than this cockpit's flags ask for: keep
    /// it, or replace it.
    GuardChoice(GuardChoice),
}

/// The question a cockpit asks before it replaces a deadline someone else set. "Keep" is the
/// default choice: the existing deadline is what the watchdog enforces now.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GuardChoice {
    pub instance: String,
    /// The deadline and its policy as the guard row holds them.
    pub existing: (Timestamp, OnExpiry),
    /// Who set them (`cockpit 4242`, `extend`), and when.
    pub set_by: String,
    pub set_at: Timestamp,
    /// What this cockpit's flags ask for.
    pub wanted: (Timestamp, OnExpiry),
    /// `Confirm` replaces the existing deadline; `Cancel` keeps it.
    pub choice: Choice,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Level {
    Info,
    Warn,
    Error,
    /// An action the provider confirmed.
    Done,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LogEntry {
    pub at: Timestamp,
    pub level: Level,
    pub text: String,
}

/// The provider as the cockpit sees it.
#[derive(Debug, Clone, PartialEq)]
pub struct CloudView {
    pub provider: String,
    pub capabilities: Capabilities,
    /// A provider is configured or detected. Without one there is no instance to read, act
    /// on or guard: the cockpit shows what works (telemetry, the host) and how to get the rest.
    pub configured: bool,
    /// The latest inventory; `None` until the first one arrives.
    pub inventory: Option<Inventory>,
    /// Why the latest inventory could not be read, if it could not.
    pub error: Option<ProviderError>,
    /// The action in flight and when it started: the screen shows its progress.
    pub running: Option<(Action, Timestamp)>,
    /// The last action that failed, until an action gets an answer again.
    pub failure: Option<ActionFailure>,
    /// The resources of the latest inventory whose data others can read, each with its
    /// gravest finding ([`crate::cloud::findings_of`]); the resources panel marks them.
    pub exposed: Vec<(String, Severity)>,
    /// When the keys the provider acts with stop working, if they have an end.
    pub keys_expire: Option<Timestamp>,
    /// The warning last logged about those keys, so a deadline is warned about once.
    pub keys_warned: Option<String>,
}

impl CloudView {
    /// A provider as the cockpit sees it before its first answer.
    pub fn new(provider: impl Into<String>, capabilities: Capabilities) -> CloudView {
        CloudView {
            provider: provider.into(),
            capabilities,
            configured: true,
            inventory: None,
            error: None,
            running: None,
            failure: None,
            exposed: Vec::new(),
            keys_expire: None,
            keys_warned: None,
        }
    }

    /// No provider configured or detected: nothing to read, act on or guard.
    pub fn unconfigured() -> CloudView {
        let none = Capabilities::NONE;
        CloudView {
            configured: false,
            ..CloudView::new("none", none)
        }
    }

    /// The gravest finding about resource `id`'s data, if there is one.
    pub fn exposure_of(&self, id: &str) -> Option<Severity> {
        self.exposed.iter().find(|(e, _)| e == id).map(|(_, s)| *s)
    }
}

/// An action the provider did not do, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ActionFailure {
    pub action: Action,
    pub error: ProviderError,
    /// When the failure came back (`app.now`).
    pub at: Timestamp,
}

/// What the GPUs and the host are doing.
#[derive(Debug, Clone, PartialEq)]
pub struct TelemetryView {
    pub gpus: Option<GpuRound>,
    pub host: Option<HostSample>,
    pub history: TelemetryHistory,
    pub findings: Vec<Finding>,
    /// The last `gpumeter verify` on this machine, as the ledger keeps it.
    pub verified: Option<Verified>,
}

/// What the last `gpumeter verify` found, for the GPU panel: "verified 09:12: 97 % of rated,
/// dedicated".
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Verified {
    pub at: Timestamp,
    pub verdict: crate::verify::Verdict,
    /// One printable line.
    pub summary: String,
}

impl TelemetryView {
    pub fn new(history: HistoryConfig) -> Self {
        TelemetryView {
            gpus: None,
            host: None,
            history: TelemetryHistory::new(history),
            findings: Vec::new(),
            verified: None,
        }
    }
}

/// A budget for the calendar month: the ledger's spend this month when the cockpit started,
/// plus what accrued since.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MonthBudget {
    pub watch: crate::guard::BudgetWatch,
    pub month: crate::guard::MonthSpend,
}

/// The newest checkpoint and what has been said about it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CheckpointView {
    pub pattern: String,
    pub stale_after: Option<std::time::Duration>,
    pub newest: Option<crate::guard::Checkpoint>,
    /// Keys of what has been said, one per kind and file.
    pub said: Vec<String>,
}

impl CheckpointView {
    pub fn new(pattern: String, stale_after: Option<std::time::Duration>) -> Self {
        CheckpointView {
            pattern,
            stale_after,
            newest: None,
            said: Vec::new(),
        }
    }
}

/// The watchdog as last read from the ledger.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WatchdogView {
    pub pid: u32,
    pub last_check: Timestamp,
    /// Whether its lock was found held, as read with the row (`None`: not looked at).
    pub lock_held: Option<bool>,
    pub alive: bool,
}

/// What the cockpit shares with the watchdog through the ledger. One guard row per instance,
/// and several writers (other cockpits, `gpumeter extend`): the cockpit reads the row before
/// it writes anything, adopts a deadline set there, and asks before it replaces one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GuardLink {
    /// The instance the guard row belongs to, once the provider has named it.
    pub instance: Option<String>,
    pub watchdog: Option<WatchdogView>,
    /// The guard row's revision last seen: a change by someone else moves the deadline here.
    pub revision: i64,
    /// The row has been asked for, once the instance is known.
    pub loading: bool,
    /// The row has been read and what to do with it decided: only then does the cockpit
    /// write it.
    pub settled: bool,
    /// The deadline came from this cockpit's own flags (`--release-in`, `--release-at`,
    /// `--on-expiry`), not from the config: a different one in the row is asked about, not
    /// silently adopted.
    pub asked: bool,
    /// The name this cockpit writes the row as (`updated_by`): its own changes read back are
    /// not taken for someone else's.
    pub me: String,
    /// A choice that waits for the dialog open when the row was read to close.
    pub pending: Option<GuardChoice>,
    /// Keeps the watchdog the cockpit started running; `None` when it starts none.
    pub supervisor: Option<crate::guard::Supervisor>,
}

impl Default for GuardLink {
    fn default() -> Self {
        GuardLink {
            instance: None,
            watchdog: None,
            revision: 0,
            loading: false,
            settled: false,
            asked: false,
            me: "cockpit".into(),
            pending: None,
            supervisor: None,
        }
    }
}

/// The other accounts the fleet screen reads (the config's `[[fleet]]`) and how far that got.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct FleetLink {
    /// Accounts `[[fleet]]` lists; none: nothing is read and the screen shows this instance.
    pub accounts: usize,
    /// The instances in them.
    pub instances: usize,
    /// When `App::fleet` was last read (`app.now` when the answer came).
    pub read_at: Option<Timestamp>,
    /// A read is in flight: no second one starts.
    pub reading: bool,
}

/// Settings the cockpit starts with (from flags and the config file).
#[derive(Debug, Clone, PartialEq)]
pub struct Settings {
    pub read_only: bool,
    /// What `e` adds to the deadline.
    pub extend_step: SignedDuration,
    /// Snapshots `C` keeps (newest first).
    pub keep_snapshots: usize,
    /// The CUDA version the user's job needs, checked against the driver.
    pub cuda_required: Option<CudaVersion>,
    /// After the deadline, how long before its policy runs; any key cancels it meanwhile.
    pub grace: std::time::Duration,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            read_only: false,
            extend_step: SignedDuration::from_hours(1),
            keep_snapshots: 1,
            cuda_required: None,
            grace: crate::guard::DEFAULT_GRACE,
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
#[expect(
    clippy::struct_excessive_bools,
    reason = "independent flags: a view toggle and what the event loop owes the terminal"
)]
pub struct App {
    /// The latest clock tick: every derived number is computed for this instant.
    pub now: Timestamp,
    pub settings: Settings,
    pub mode: Mode,
    pub focus: Focus,
    pub show_processes: bool,
    /// The fleet screen (`F`) has the screen.
    pub show_fleet: bool,
    /// Other instances the fleet screen lists beside this one, as `gpumeter fleet` reads them.
    pub fleet: Vec<crate::fleet::FleetRow>,
    pub fleet_link: FleetLink,
    pub selected_gpu: usize,
    pub selected_resource: usize,
    pub telemetry: TelemetryView,
    pub cloud: CloudView,
    pub spend: Spend,
    pub deadline: Option<Deadline>,
    pub guard: GuardLink,
    /// When the provider reclaims this spot instance, once it has announced it.
    pub interruption: Option<Timestamp>,
    /// Budget thresholds already announced, when a budget is set.
    pub budget: Option<crate::guard::BudgetWatch>,
    /// A prepaid balance and when it was read (with a full inventory); `None` where the
    /// provider keeps none.
    pub balance: Option<(crate::money::Balance, Timestamp)>,
    /// The account's instances as last listed with the balance, so the balance runs out at
    /// the whole account's burn; `None` where they were not listed.
    pub account: Option<Vec<crate::cloud::InstanceInfo>>,
    /// The monthly budget: spend this month across instances, from the ledger, plus this run's.
    pub month_budget: Option<MonthBudget>,
    /// The checkpoint watch, when `[checkpoint] path` is set.
    pub checkpoint: Option<CheckpointView>,
    /// The idle rule shown beside the countdown; `None` shows none.
    pub idle: Option<super::guards::IdleWatch>,
    /// `stopped_release_after`, and when the watchdog first saw this shutdown (the ledger's,
    /// for a cloud that does not date shutdowns): the countdown of a stopped instance.
    pub stopped_release: crate::cloud::StoppedPolicy,
    /// The plan paid ahead, from the config and the sheet, its end the provider's once it
    /// reports one; shown in the cost panel while an end is known.
    pub subscription: crate::subscription::Subscription,
    pub events: VecDeque<LogEntry>,
    /// How many entries back from the newest the events panel shows (0: it follows the newest).
    pub events_scroll: usize,
    /// Every line ever logged, so the edge can tell which ones are new since the last frame.
    pub logged: u64,
    /// Something changed since the last frame.
    pub dirty: bool,
    /// Ring the terminal bell with the next frame (a warning fired).
    pub bell: bool,
    /// Quit was asked while an action was in flight: the cockpit quits at its answer.
    pub quit_after_answer: bool,
    pub quit: bool,
    /// The action still unanswered when the user quit anyway; the edge reports it once the
    /// terminal is restored, since the provider may still carry it out.
    pub unanswered_at_quit: Option<Action>,
}

impl App {
    pub fn new(now: Timestamp, settings: Settings, cloud: CloudView, spend: Spend) -> Self {
        App {
            now,
            settings,
            mode: Mode::Main,
            focus: Focus::Gpus,
            show_processes: false,
            show_fleet: false,
            fleet: Vec::new(),
            fleet_link: FleetLink::default(),
            selected_gpu: 0,
            selected_resource: 0,
            telemetry: TelemetryView::new(HistoryConfig::default()),
            cloud,
            spend,
            deadline: None,
            guard: GuardLink::default(),
            interruption: None,
            budget: None,
            balance: None,
            account: None,
            month_budget: None,
            checkpoint: None,
            idle: None,
            stopped_release: crate::cloud::StoppedPolicy::default(),
            subscription: crate::subscription::Subscription::default(),
            events: VecDeque::new(),
            events_scroll: 0,
            logged: 0,
            dirty: true,
            bell: false,
            quit_after_answer: false,
            quit: false,
            unanswered_at_quit: None,
        }
    }

    pub fn log(&mut self, level: Level, text: impl Into<String>) {
        self.log_at(self.now, level, text);
    }

    /// A line of what happened at `at`, such as an event the watchdog recorded earlier.
    pub fn log_at(&mut self, at: Timestamp, level: Level, text: impl Into<String>) {
        if self.events.len() == EVENT_LOG_LEN {
            self.events.pop_front();
        }
        // Scrolled back, the view stays on the lines it shows while new ones arrive.
        if self.events_scroll > 0 {
            self.events_scroll = (self.events_scroll + 1).min(self.events.len());
        }
        self.events.push_back(LogEntry {
            at,
            level,
            text: text.into(),
        });
        self.logged += 1;
        self.dirty = true;
    }
}
