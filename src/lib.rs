//! gpumeter: a terminal cockpit for rented GPUs.
//!
//! The pure core lives in its own crate, `gpumeter-core` (money, price sheets, the meter, the
//! guard rules, the fleet, the cockpit's state and `update`), re-exported here under the same
//! names. This crate is the edges: the commands, the providers' APIs, telemetry sources, the
//! ledger, the terminal. ARCHITECTURE.md maps both.

pub use gpumeter_core::{app, demo, fleet, focus, guard, meter, money, spend, subscription};

pub mod cli;
pub mod cockpit;
pub mod commands;
pub mod config;
pub mod detect;
pub mod files;
pub use gpumeter_core::{i18n, t};
pub mod ledger;
pub mod notify;
pub mod pricing;
pub mod provider;
pub mod serve;
pub mod telemetry;
pub mod terminal;
pub mod ui;
pub mod watchdog;
