//! The cockpit's core: state, events, the key table and `update`. Pure; the event loop in
//! cockpit's event loop, at the edge, feeds it and draws it.

pub mod confirm;
pub mod deadline;
pub mod details;
pub mod enforced;
pub mod guards;
pub mod keymap;
pub mod offer;
pub mod pick;
pub mod state;
pub mod update;
pub mod welcome;

pub use confirm::{Choice, Confirm, ConfirmLine};
pub use deadline::{Deadline, format_remaining};
pub use details::{Details, short_age};
pub use guards::{Armed, GraceBanner, IdleStatus, IdleWatch};
pub use keymap::{
    BINDINGS, Binding, Intent, Key, KeyCode, KeyPress, binding_for, bindings, intent_for,
};
pub use offer::{instance_state, is_offered, live_deadline, not_now, offered};
pub use pick::{PickRow, SnapshotPick};
pub use state::{
    ActionFailure, App, CloudView, FleetLink, Focus, GuardChoice, GuardLink, Level, LogEntry, Mode,
    Settings, TelemetryView, Verified, WatchdogView,
};
pub use update::{
    Effect, Event, LEDGER_PREFIX, WATCHDOG_PREFIX, WatchdogNote, extend_question, update,
};
