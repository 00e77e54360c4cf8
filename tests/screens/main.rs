//! The cockpit's screens in process: the ui drawn into test terminals (snapshots, every odd
//! state at every size, the painter against ratatui), themes, the lean terminal backend read
//! back through a terminal emulator, and the real cockpit loop and recorder.

mod common;

mod cockpit_loop;
mod cockpit_record;
mod terminal_backend;
mod theme;
mod ui_balance;
mod ui_chinese;
mod ui_enforced;
mod ui_fleet;
mod ui_guards;
mod ui_paint;
mod ui_resources;
mod ui_sizes;
mod ui_snapshots;
mod ui_states;
mod ui_stopped_release;
mod ui_subscription;
mod ui_traffic;
mod ui_verified;
mod ui_welcome;
mod ui_zone;
